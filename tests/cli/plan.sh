#!/usr/bin/env bash
# `hulk plan` end to end on scenarios/examples/plan-auto.yaml (greedy finalists, SimGrid checks): its files, the
# chosen layout's best.yaml runs under `hulk simulate` at the SimGrid time the plan reported, the same bytes twice;
# bad constraints and `auto` given to other commands are one line and exit 2.
# Usage: plan.sh HULK_BINARY TESTS_DIR SOURCE_DIR
source "$(dirname "$0")/lib/common.bash" "$@"
src="$(readlink -f "$3")"
scen="$src/scenarios/examples/plan-auto.yaml"

"$hulk" plan "$scen" --out "$tmp/p1" --methods greedy --finalists 2 >"$tmp/p1.out" 2>"$tmp/p1.err" ||
  { fail "plan failed"; cat "$tmp/p1.err"; }
for f in plan.csv best.yaml best-placement.json; do
  [ -s "$tmp/p1/$f" ] && ok "plan wrote $f" || fail "plan did not write $f"
done
grep -q "<- chosen" "$tmp/p1.out" && ok "the table marks the chosen layout" || fail "no chosen row: $(cat "$tmp/p1.out")"
[ "$(grep -c ',yes,' "$tmp/p1/plan.csv")" -eq 1 ] && ok "plan.csv has one chosen row" || fail "chosen rows in plan.csv"
grep -q "^plan: .* layouts, .* feasible" "$tmp/p1.err" && ok "progress on stderr" || fail "no progress line"

# best.yaml runs, and SimGrid gives the time plan.csv reports for the chosen row.
"$hulk" simulate "$tmp/p1/best.yaml" --out "$tmp/run" >"$tmp/sim.out" 2>"$tmp/sim.err" ||
  { fail "simulate best.yaml failed"; cat "$tmp/sim.err"; }
python3 - "$tmp/p1/plan.csv" "$tmp/run/result.json" <<'PY' && ok "best.yaml simulates at the chosen row's SimGrid time" || fail "best.yaml time differs"
import csv, json, sys
row = [r for r in csv.DictReader(open(sys.argv[1])) if r["chosen"] == "yes"][0]
got = json.load(open(sys.argv[2]))["iteration_time_s"]
assert abs(got / float(row["simgrid_s"]) - 1) < 1e-4, (got, row["simgrid_s"])
PY

# Deterministic: a second plan writes the same bytes.
"$hulk" plan "$scen" --out "$tmp/p2" --methods greedy --finalists 2 >/dev/null 2>&1
cmp -s "$tmp/p1/plan.csv" "$tmp/p2/plan.csv" && cmp -s "$tmp/p1/best.yaml" "$tmp/p2/best.yaml" &&
  ok "same plan.csv and best.yaml twice" || fail "plan is not deterministic"

expect_refusal "simulate refuses auto" "job.parallelism: auto is chosen by .hulk plan" "$hulk" simulate "$scen"
expect_refusal "compare refuses auto" "auto is chosen by" "$hulk" compare "$scen"
expect_refusal "max_gpus above the platform" "plan.max_gpus: max_gpus 99 is more than the platform's 16 GPUs" \
  "$hulk" plan "$scen" --out "$tmp/bad" --set plan.max_gpus=99
expect_refusal "min_gpus above max_gpus" "plan.min_gpus: min_gpus 8 is more than max_gpus 6" \
  "$hulk" plan "$scen" --out "$tmp/bad" --set plan.max_gpus=6 --set plan.min_gpus=8
expect_refusal "tp_max 0" "plan.tp_max" "$hulk" plan "$scen" --out "$tmp/bad" --set plan.tp_max=0
expect_refusal "objective cost" "plan.objective" "$hulk" plan "$scen" --out "$tmp/bad" --set plan.objective=cost
[ ! -e "$tmp/bad/plan.csv" ] && ok "a refused plan writes nothing" || fail "a refused plan wrote plan.csv"
echo "$failures failures"
[ "$failures" -eq 0 ]
