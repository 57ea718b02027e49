#!/usr/bin/env bash
# Golden outputs (as SimGrid's tesh files) of `hulk validate` and `hulk simulate` on the tiny scenario
# (tests/data/tiny): each command's line, its stdout and stderr, and its exit code, in one transcript per command
# family. simulate prints times with 4 decimals and bytes in GB with 2, so machine-level floating-point noise does not
# reach the text; paths are replaced by TINY/TMP. HULK_UPDATE_GOLDEN=1 rewrites the expected files (review the diff).
# Usage: golden_simulate.sh HULK_BINARY TESTS_DIR [SOURCE_DIR]
set -u
hulk="$(readlink -f "$1")"
tests="$(readlink -f "$2")"
tiny="$tests/data/tiny"
golden="$tests/data/golden"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }

# run NAME ARGS...: appends "$ hulk ARGS", stdout, stderr (prefixed "stderr: ") and the exit code to $tmp/NAME.txt.
run() {
  local name=$1
  shift
  echo "\$ hulk $*" >>"$tmp/$name.txt"
  "$hulk" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  cat "$tmp/out" >>"$tmp/$name.txt"
  sed 's/^/stderr: /' "$tmp/err" >>"$tmp/$name.txt"
  echo "exit $rc" >>"$tmp/$name.txt"
}

compare_golden() {
  sed -i -e "s#$tiny#TINY#g" -e "s#$tmp#TMP#g" "$tmp/$1.txt"
  if [ "${HULK_UPDATE_GOLDEN:-0}" = 1 ]; then cp "$tmp/$1.txt" "$golden/$1.txt"; echo "updated $golden/$1.txt"; return; fi
  if diff -u "$golden/$1.txt" "$tmp/$1.txt"; then echo "ok: $1 matches its golden output"; else fail "$1 differs from $golden/$1.txt"; fi
}

# validate: a good file, an override-free bad copy (one misspelt key), a missing file.
sed 's/^  micro_batch: 2$/  micro_bacth: 2/' "$tiny/tiny.yaml" >"$tmp/misspelt.yaml"
sed 's/^  global_batch: 16$/  global_batch: 15/' "$tiny/tiny.yaml" >"$tmp/indivisible.yaml"
run validate-tiny validate "$tiny/tiny.yaml"
run validate-tiny validate "$tmp/misspelt.yaml"
run validate-tiny validate "$tmp/indivisible.yaml"
run validate-tiny validate "$tmp/absent.yaml"
compare_golden validate-tiny

# simulate: the scenario's own placement (gnn+refine), the baselines, an override, and a bad placement name.
run simulate-tiny simulate "$tiny/tiny.yaml"
run simulate-tiny simulate "$tiny/tiny.yaml" --placement round-robin
run simulate-tiny simulate "$tiny/tiny.yaml" --placement greedy
run simulate-tiny simulate "$tiny/tiny.yaml" --placement round-robin --set wan.default.latency=5ms
run simulate-tiny simulate "$tiny/tiny.yaml" --placement greedy --out "$tmp/run"
run simulate-tiny simulate "$tiny/tiny.yaml" --placement gredy
compare_golden simulate-tiny
[ -s "$tmp/run/result.json" ] || fail "simulate --out wrote no result.json"

echo "$failures failures"
[ "$failures" -eq 0 ]
