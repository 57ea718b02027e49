#!/usr/bin/env bash
# Golden output (as SimGrid's tesh files) of `hulk sweep` on the tiny scenario, 2 WAN bandwidths x 2 methods: the
# unsharded run, the same grid as shards 0/2 and 1/2 joined by sweep-merge, and a rerun that resumes (nothing
# recomputed) must all give the CSV of tests/data/golden/sweep-tiny.csv. Compared: every column but method_wall_s
# (a wall time), numbers to 4 significant digits so that floating-point noise across machines does not reach the
# text. HULK_UPDATE_GOLDEN=1 rewrites the expected file (review the diff).
# Usage: golden_sweep.sh HULK_BINARY TESTS_DIR [SOURCE_DIR]
source "$(dirname "$0")/lib/common.bash" "$@"
golden="$tests/data/golden/sweep-tiny.csv"
grid=(--set wan.default.bandwidth=100Mbps,1Gbps --methods round-robin,greedy)

# Drops method_wall_s and rounds every number (a field that parses as one) to 4 significant digits.
stable() {
  awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "method_wall_s") wall = i }
    { out = ""; for (i = 1; i <= NF; ++i) { if (i == wall) continue; v = $i
        if (NR > 1 && v ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) v = sprintf("%.4g", v)
        out = out (out == "" ? "" : OFS) v }
      print out }' "$1"
}

check() {  # check NAME CSV
  if [ "${HULK_UPDATE_GOLDEN:-0}" = 1 ]; then
    stable "$2" >"$golden"
    echo "updated $golden"
  elif diff -u "$golden" <(stable "$2"); then
    ok "$1 matches $golden"
  else
    fail "$1 differs from $golden"
  fi
}

"$hulk" sweep "$tiny" "${grid[@]}" --out "$tmp/full" 2>"$tmp/full.err" || fail "unsharded sweep failed: $(cat "$tmp/full.err")"
check "unsharded sweep" "$tmp/full/sweep.csv"

for i in 0 1; do
  "$hulk" sweep "$tiny" "${grid[@]}" --shard "$i/2" --out "$tmp/sharded" 2>>"$tmp/sharded.err" ||
    fail "shard $i/2 failed: $(cat "$tmp/sharded.err")"
done
"$hulk" sweep merge "$tmp/sharded" >"$tmp/merge.out" 2>&1 || fail "sweep-merge failed: $(cat "$tmp/merge.out")"
[ "${HULK_UPDATE_GOLDEN:-0}" = 1 ] || check "shards 0/2 + 1/2 merged" "$tmp/sharded/sweep.csv"

cp "$tmp/full/sweep.csv" "$tmp/before.csv"
"$hulk" sweep "$tiny" "${grid[@]}" --out "$tmp/full" 2>"$tmp/resume.err" || fail "resumed sweep failed"
grep -q "2 points, 2 in this shard, 2 already done" "$tmp/resume.err" || fail "the rerun did not resume: $(cat "$tmp/resume.err")"
cmp -s "$tmp/before.csv" "$tmp/full/sweep.csv" && ok "resume recomputes nothing and keeps the CSV" ||
  fail "the resumed sweep changed its CSV"

echo "$failures failures"
[ "$failures" -eq 0 ]
