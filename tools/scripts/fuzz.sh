#!/usr/bin/env bash
# Coverage-guided fuzzing of the input readers: builds the fuzz targets with clang's libFuzzer and the
# address and undefined-behaviour sanitizers into build-fuzz/, runs each for SECONDS (default 60), and copies every
# input that crashed into tests/data/fuzz/<target>/, where ctest fuzz_replay.<target> keeps it as a regression test.
# Exit code 1 if any target crashed. Usage: bash tools/scripts/fuzz.sh [SECONDS]   (needs tools/scripts/install-deps.sh first)
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-60}"
targets="scenario placement overrides hulk_data"
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHULK_FUZZ=ON \
  -DHULK_BUILD_BENCH=OFF -DHULK_FUZZ_SECONDS="$seconds" >/dev/null || exit 1
for t in $targets; do cmake --build build-fuzz -j2 --target "fuzz_$t" >/dev/null || exit 1; done
rm -f build-fuzz/fuzz/*/crashes/*  # kept in tests/data/fuzz/ by an earlier run: only this run's are reported below
ctest --test-dir build-fuzz -L fuzz --output-on-failure
status=$?
for t in $targets; do
  for crash in build-fuzz/fuzz/"$t"/crashes/*; do
    [ -f "$crash" ] || continue
    cp "$crash" "tests/data/fuzz/$t/" && echo "fuzz: kept $crash as tests/data/fuzz/$t/$(basename "$crash")"
  done
done
exit $status
