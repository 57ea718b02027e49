#!/usr/bin/env bash
# `hulk gnn families` and `hulk gnn gen-data --label evaluator`: bad options exit 2 with one line; a tiny
# run prints every variant's row and the done-when checks and is deterministic in its SimGrid times; evaluator
# labels need no SimGrid and report greedy's gap distribution. Usage: gnn_families.sh HULK_BINARY TESTS_DIR SOURCE_DIR
set -u
hulk="$(readlink -f "$1")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }

bad() {  # bad NAME CMD...: exit 2, one line on stderr
  local name="$1"
  shift
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ "$rc" -eq 2 ] || fail "$name: exit $rc, expected 2"
  [ "$(grep -c '' "$tmp/err")" -eq 1 ] || { fail "$name: not one line on stderr"; cat "$tmp/err"; }
}
bad "unknown family" "$hulk" gnn families --families in-family,bogus --count 1
bad "unknown row" "$hulk" gnn families --families in-family --count 1 --rows gnn,bogus
bad "rows without gnn" "$hulk" gnn families --families in-family --count 1 --rows untrained
bad "zero count" "$hulk" gnn families --count 0
bad "missing paper folder" "$hulk" gnn families --families paper --paper "$tmp/none"
bad "negative guided budget" "$hulk" gnn families --families in-family --count 1 --guided-anneal -1
bad "blind budget not a number" "$hulk" gnn families --families in-family --count 1 --blind-anneal x
bad "unknown label" "$hulk" gnn gen-data --count 1 --out "$tmp/d" --label bogus

args=(gnn families --families in-family,multi-job --count 1 --seed 5 --max-gpus 8 --budget 300)
"$hulk" "${args[@]}" --out "$tmp/a.csv" >"$tmp/a" 2>"$tmp/a.err" || { fail "tiny gnn-families run"; cat "$tmp/a.err"; }
for v in gnn untrained argmax no-greedy equal-budget; do
  [ "$(grep -c "^  $v " "$tmp/a")" -eq 2 ] || fail "no $v row in both families"
done
grep -q "done-when checks" "$tmp/a" || fail "no done-when checks"
[ "$(grep -c "^  full evaluator estimates: gnn [0-9]*, equal-budget [0-9]*" "$tmp/a")" -eq 2 ] ||
  fail "no line of the gnn's and equal-budget's estimates in both families"
python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(int(r['gnn_evaluator_calls']) > 0 for r in rows), rows
" "$tmp/a.csv" || fail "csv: the gnn's evaluator calls (the equal-budget row's budget) are not counted"
"$hulk" "${args[@]}" --out "$tmp/b.csv" >/dev/null 2>&1
cut -d, -f1-4,6-9 "$tmp/a.csv" >"$tmp/a.times"  # SimGrid times only (wall times vary)
cut -d, -f1-4,6-9 "$tmp/b.csv" >"$tmp/b.times"
cmp -s "$tmp/a.times" "$tmp/b.times" || fail "same seed, other SimGrid times"
[ "$(grep -c '' "$tmp/a.csv")" -eq 3 ] || fail "csv: expected a header and 2 rows"

# The method's budgets: no annealing at all costs the gnn row fewer estimates, and equal-budget follows it.
"$hulk" gnn families --families in-family --count 1 --seed 5 --max-gpus 8 --budget 300 --rows gnn \
  --guided-anneal 0 --blind-anneal 0 --out "$tmp/c.csv" >/dev/null 2>&1 || fail "gnn-families --guided-anneal 0"
python3 -c "
import csv, sys
a = [r for r in csv.DictReader(open(sys.argv[1])) if r['family'] == 'in-family']
c = list(csv.DictReader(open(sys.argv[2])))
assert int(c[0]['gnn_evaluator_calls']) < int(a[0]['gnn_evaluator_calls']), (a, c)
assert int(c[0]['equal_budget_evaluator_calls']) <= int(c[0]['gnn_evaluator_calls']), c
" "$tmp/a.csv" "$tmp/c.csv" || fail "--guided-anneal 0 --blind-anneal 0: not fewer estimates than the default"

# Interrupted after its first scenario: exit 130, and the CSV keeps every finished scenario, each row complete.
setsid "$hulk" gnn families --families in-family --count 20 --seed 5 --max-gpus 8 --budget 300 --out "$tmp/i.csv" \
  >/dev/null 2>"$tmp/i.err" &
pid=$!
for _ in $(seq 1 1200); do [ -f "$tmp/i.csv" ] && [ "$(grep -c "" "$tmp/i.csv")" -ge 2 ] && break; sleep 0.1; done
kill -INT -- -"$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || { fail "gnn-families interrupted: exit $rc, expected 130"; cat "$tmp/i.err"; }
python3 -c "
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert len(rows) >= 2 and all(len(r) == len(rows[0]) for r in rows), rows
" "$tmp/i.csv" || fail "gnn-families interrupted: the CSV does not keep the finished scenarios"
[ -z "$(ls "$tmp" | grep '^i\.csv.')" ] || fail "gnn-families interrupted: a partial file is left"

"$hulk" gnn gen-data --count 3 --seed 2 --budget 200 --max-gpus 16 --label evaluator --out "$tmp/ev" 2>"$tmp/ev.err" ||
  { fail "gen-data --label evaluator"; cat "$tmp/ev.err"; }
grep -q "greedy's gap to search over" "$tmp/ev.err" || fail "no gap distribution"
grep -q '"search_est"' "$tmp/ev/samples/000000.json" || fail "no search_est in an evaluator sample"
grep -q '"search"' "$tmp/ev/samples/000000.json" && fail "an evaluator sample has a SimGrid search time"
"$hulk" gnn gen-data --count 3 --seed 2 --budget 200 --max-gpus 16 --out "$tmp/ev" >/dev/null 2>"$tmp/mix.err"
[ $? -eq 2 ] || fail "mixing --label simgrid into an evaluator data set was not refused"
"$hulk" gnn eval --data "$tmp/ev" >/dev/null 2>"$tmp/eval.err"
[ $? -eq 2 ] || fail "gnn-eval on evaluator labels: expected exit 2"
echo "$failures failures"
[ "$failures" -eq 0 ]
