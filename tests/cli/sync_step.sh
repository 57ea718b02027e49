#!/usr/bin/env bash
# `sync: {algorithm: step}` is the default: the same scenario with it set explicitly writes byte-identical
# result.json, comm.csv and trace.json. Usage: sync_step.sh HULK_BINARY TESTS_DIR [SOURCE_DIR]
set -u
hulk="$1"
tests="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$hulk" simulate "$tests/data/tiny/tiny.yaml" --out "$tmp/plain" --traces -q >/dev/null || { echo "FAIL: plain run"; exit 1; }
"$hulk" simulate "$tests/data/tiny/tiny.yaml" --set job.sync.algorithm=step --out "$tmp/step" --traces -q >/dev/null ||
  { echo "FAIL: run with sync.algorithm=step"; exit 1; }
for f in result.json comm.csv trace.json; do
  cmp -s "$tmp/plain/$f" "$tmp/step/$f" || { echo "FAIL: $f differs with sync.algorithm=step"; exit 1; }
done
echo "ok: algorithm: step writes the same bytes as no sync key"
