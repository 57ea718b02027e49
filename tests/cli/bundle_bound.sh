#!/usr/bin/env bash
# tools/scripts/bundle_bound.py counts the flows bundling could merge: on a hand-made comm.csv with a known answer, on
# a real run's comm.csv against an independent count (awk), and a missing file or a CSV without hulk's columns is one
# line on stderr and exit 2.
# Usage: bundle_bound.sh HULK_BINARY TESTS_DIR SOURCE_DIR
set -u
hulk="$(readlink -f "$1")" tests="$(readlink -f "$2")" src="$(readlink -f "$3")"
script="$src/tools/scripts/bundle_bound.py"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }

# Three identical flows h0 -> h1 (one key), one of other bytes, one intra-host: 4 between hosts, 2 keys, 50% removable.
cat >"$tmp/known.csv" <<'CSV'
iteration,kind,collective,src_rank,dst_rank,src_host,dst_host,bytes,start_s,end_s
0,dp,dp/s0t0,0,8,h0,h1,100,0.5,0.7
0,dp,dp/s0t1,1,9,h0,h1,100,0.5,0.7
0,dp,dp/s0t2,2,10,h0,h1,100,0.5,0.7
0,tp,tp/s0d0/mb0/l0/f0,0,1,h0,h1,50,0.5,0.6
0,tp,tp/s0d0/mb0/l0/f0,1,2,h0,h0,50,0.5,0.6
CSV
python3 "$script" "$tmp/known.csv" >"$tmp/known.out" || fail "known.csv: exit $?"
grep -q "5 messages, 4 between hosts, 2 distinct (route, size, start): bundling removes at most 50.0%" "$tmp/known.out" ||
  { fail "known.csv: wrong totals"; cat "$tmp/known.out"; }
grep -q "dp: 3 between hosts, 3 (100.0%)" "$tmp/known.out" || { fail "known.csv: wrong dp line"; cat "$tmp/known.out"; }
grep -q "tp: 1 between hosts, 0 (0.0%)" "$tmp/known.out" || { fail "known.csv: wrong tp line"; cat "$tmp/known.out"; }

# A real run: the script's counts equal awk's over the same columns.
"$hulk" simulate "$tests/data/tiny/tiny.yaml" --placement round-robin --comm-csv --out "$tmp/rr" >/dev/null 2>&1 ||
  fail "simulate failed"
inter=$(awk -F, 'NR > 1 && $6 != $7' "$tmp/rr/comm.csv" | wc -l)
distinct=$(awk -F, 'NR > 1 && $6 != $7 {print $6","$7","$8","$9}' "$tmp/rr/comm.csv" | sort -u | wc -l)
[ "$inter" -gt 0 ] || fail "the round-robin run has no message between hosts"
python3 "$script" "$tmp/rr/comm.csv" >"$tmp/rr.out" || fail "real comm.csv: exit $?"
grep -q " $inter between hosts, $distinct distinct " "$tmp/rr.out" ||
  { fail "real comm.csv: expected $inter between hosts and $distinct keys"; cat "$tmp/rr.out"; }

# Bad input: one line naming the file, exit 2, no traceback.
for bad in "$tmp/missing.csv" "$tmp/rr/result.json"; do
  python3 "$script" "$bad" >/dev/null 2>"$tmp/err"
  rc=$?
  [ "$rc" -eq 2 ] || fail "$bad: exit $rc, expected 2"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || { fail "$bad: not one line on stderr"; cat "$tmp/err"; }
  grep -q "$bad" "$tmp/err" || fail "$bad: the message does not name the file"
  grep -q "Traceback" "$tmp/err" && fail "$bad: a traceback"
done

[ "$failures" -eq 0 ] && echo "bundle_bound: all checks passed"
exit $((failures > 0))
