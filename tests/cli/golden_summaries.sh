#!/usr/bin/env bash
# Golden outputs (as SimGrid's tesh files) of the commands that print published numbers: `hulk compare` and
# `hulk reproduce` on the tiny scenario (tests/data/tiny: 2 regions x 2 hosts x 2 GPUs) with round-robin, greedy,
# search, gnn (the committed model) and gnn+refine. Compared: every printed column except wall times (method_s,
# placement time), which vary from run to run; times and ratios are printed to 4 significant digits, so machine-level
# floating-point noise does not reach the text. HULK_UPDATE_GOLDEN=1 rewrites the expected files (review the diff).
# Usage: golden_summaries.sh HULK_BINARY TESTS_DIR [SOURCE_DIR]
set -u
hulk="$(readlink -f "$1")"
tests="$(readlink -f "$2")"
tiny="$tests/data/tiny"
golden="$tests/data/golden"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
methods="round-robin,greedy,search,gnn,gnn+refine"
failures=0

fail() {
  echo "FAIL: $1"
  failures=$((failures + 1))
}

# Drops the method_s column (last field of the table's header and method rows), the placement-time lines of the
# summary, and the folder's path (the checkout's location).
stable() {
  awk '/^(method|round-robin|random|greedy|search|exhaustive|gnn|gnn\+refine|file:) / && !/failed:/ { $NF = ""; }
       /: mean placement time / { next }
       { print }' | sed -e "s#$tiny#TINY#g" -e 's/[[:space:]]*$//'
}

# compare_golden NAME: compares $tmp/NAME.txt with $golden/NAME.txt (or rewrites it).
compare_golden() {
  if [ "${HULK_UPDATE_GOLDEN:-0}" = 1 ]; then cp "$tmp/$1.txt" "$golden/$1.txt"; echo "updated $golden/$1.txt"; return; fi
  if diff -u "$golden/$1.txt" "$tmp/$1.txt"; then echo "ok: $1 matches its golden output"; else fail "$1 differs from $golden/$1.txt"; fi
}

"$hulk" compare "$tiny/tiny.yaml" --methods "$methods" --out "$tmp/compare.json" >"$tmp/compare.raw" 2>"$tmp/compare.err"
rc=$?
[ "$rc" -eq 0 ] || { fail "compare exit code $rc"; cat "$tmp/compare.err"; }
stable <"$tmp/compare.raw" >"$tmp/compare-tiny.txt"
compare_golden compare-tiny
# Every method gave a placement (gnn loaded the committed model), with a ratio to search in the JSON.
python3 - "$tmp/compare.json" <<'PY' || fail "compare JSON: a method failed or a ratio is missing"
import json, sys
doc = json.load(open(sys.argv[1]))
assert [r["method"] for r in doc["results"]] == ["round-robin", "greedy", "search", "gnn", "gnn+refine"], doc
for r in doc["results"]:
    assert r["ok"], r
    assert isinstance(r["gap_to_search"], float) and isinstance(r["speedup_vs_round_robin"], float), r
    assert len(r["placement"]["ranks"]) == 4, r
PY

"$hulk" reproduce "$tiny" --methods "$methods" --out "$tmp/reproduce" --no-plots >"$tmp/reproduce.raw" 2>"$tmp/reproduce.err"
rc=$?
[ "$rc" -eq 0 ] || { fail "reproduce exit code $rc"; cat "$tmp/reproduce.err"; }
stable <"$tmp/reproduce.raw" >"$tmp/reproduce-tiny.txt"
compare_golden reproduce-tiny
grep -q "paper scenarios" "$tmp/reproduce.raw" && fail "reproduce calls a user folder 'paper scenarios'"

echo "$failures failures"
[ "$failures" -eq 0 ]
