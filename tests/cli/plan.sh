#!/usr/bin/env bash
# `hulk plan` end to end on scenarios/examples/plan-auto.yaml (greedy finalists, SimGrid checks): its files, the
# chosen layout's best.yaml runs under `hulk simulate` at the SimGrid time the plan reported, the same bytes twice;
# a plan resumed from its journal writes the same bytes; bad constraints and `auto` given to simulate are one line
# and exit 2; compare and sweep plan an `auto` job first and name the layout; on plan-cost.yaml the V100s win under
# the cost objective and the A100s under time, at the closed-form dollars per 1M tokens; bad prices exit 2.
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

# Resumable: a journal left by an unfinished plan (every step of the first run, its files not yet written) is read
# back, nothing is run again, and the files are the same bytes; the journal is gone once the files are written.
[ ! -e "$tmp/p1/plan-journal.tsv" ] && ok "a finished plan deletes its journal" || fail "plan-journal.tsv left"
"$hulk" plan "$scen" --out "$tmp/p3" --methods greedy --finalists 2 --screen 3 >/dev/null 2>&1
mkdir -p "$tmp/p4"
# The journal of the --screen 3 plan is not this plan's (other options): it must be ignored, not misread.
printf 'hulk-plan-journal 1 0000000000000000\nscreen dp8-tp1-pp1 mb1 1f1b none\tgreedy\t0x1p+0\tnan\t-\t\n' \
  >"$tmp/p4/plan-journal.tsv"
"$hulk" plan "$scen" --out "$tmp/p4" --methods greedy --finalists 2 >/dev/null 2>"$tmp/p4.err"
cmp -s "$tmp/p1/plan.csv" "$tmp/p4/plan.csv" && ok "another plan's journal is ignored" || fail "a foreign journal changed the plan"
python3 - "$hulk" "$scen" "$tmp" <<'PY' && ok "an interrupted plan resumes to the same bytes" || fail "resume differs"
import os, signal, subprocess, sys, time
hulk, scen, tmp = sys.argv[1:]
out = tmp + "/p5"
args = [hulk, "plan", scen, "--out", out, "--methods", "greedy", "--finalists", "2"]
# Interrupt once the journal holds a few steps (whenever that is: the check below does not depend on it).
p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
journal = out + "/plan-journal.tsv"
while p.poll() is None:
    if os.path.exists(journal) and open(journal).read().count("\n") > 3:
        p.send_signal(signal.SIGINT)
        break
    time.sleep(0.01)
p.wait()
r = subprocess.run(args, capture_output=True, text=True)
assert r.returncode == 0, r.stderr
if p.returncode != 0:  # it was interrupted before the end: the second run must say it resumed
    assert "plan: resuming:" in r.stderr, r.stderr
for f in ("plan.csv", "best.yaml", "best-placement.json"):
    a, b = open(tmp + "/p1/" + f, "rb").read(), open(out + "/" + f, "rb").read()
    assert a == b, f
PY

expect_refusal "simulate refuses auto" "job.parallelism: auto is chosen by .hulk plan" "$hulk" simulate "$scen"

# compare and sweep plan first, then place the chosen layout with each method.
"$hulk" compare "$scen" --methods greedy --out "$tmp/cmp.json" >"$tmp/cmp.out" 2>"$tmp/cmp.err" ||
  { fail "compare on auto failed"; cat "$tmp/cmp.err"; }
chosen="$(python3 -c 'import csv,sys; r=[r for r in csv.DictReader(open(sys.argv[1])) if r["chosen"]=="yes"][0]; print("dp%s-tp%s-pp%s mb%s %s %s" % (r["dp"],r["tp"],r["pp"],r["micro_batch"],r["schedule"],r["recompute"]))' "$tmp/p1/plan.csv")"
grep -q "layout chosen by the plan: $chosen" "$tmp/cmp.out" && ok "compare names the plan's layout" ||
  fail "compare layout: $(head -2 "$tmp/cmp.out") (plan: $chosen)"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["layout"] == sys.argv[2], d.get("layout")' \
  "$tmp/cmp.json" "$chosen" && ok "compare's JSON has the layout" || fail "compare JSON layout"
"$hulk" sweep "$scen" --methods greedy --out "$tmp/sw" --set platform.wan.default.bandwidth=10Mbps,10Gbps \
  >/dev/null 2>"$tmp/sw.err" || { fail "sweep on auto failed"; cat "$tmp/sw.err"; }
python3 - "$tmp/sw/sweep.csv" <<'PY' && ok "sweep.csv names a layout per point" || fail "sweep layout column"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 2 and all(r["layout"].startswith("dp") and r["ok"] == "1" for r in rows), rows
PY

# Cost: plan-cost.yaml (8 GPUs, A100s at $4.10/h in virginia, V100s at $0.90/h in frankfurt).
cost="$src/scenarios/examples/plan-cost.yaml"
"$hulk" plan "$cost" --out "$tmp/c1" --methods greedy >"$tmp/c1.out" 2>&1 || { fail "cost plan failed"; cat "$tmp/c1.out"; }
"$hulk" plan "$cost" --out "$tmp/c2" --methods greedy --set plan.objective=time >"$tmp/c2.out" 2>&1 ||
  { fail "time plan failed"; cat "$tmp/c2.out"; }
python3 - "$tmp/c1/plan.csv" "$tmp/c2/plan.csv" <<'PY' && ok "V100s win under cost, A100s under time (closed form)" || fail "cost objective"
import csv, sys
def chosen(path):
    return [r for r in csv.DictReader(open(path)) if r["chosen"] == "yes"][0]
by_cost, by_time = chosen(sys.argv[1]), chosen(sys.argv[2])
tokens = 64 * 2048  # gpt3-xl: global batch 64 x sequence 2048
for r, per_hour in ((by_cost, 8 * 0.90), (by_time, 8 * 4.10)):
    assert abs(float(r["gpu_usd_per_hour"]) / per_hour - 1) < 1e-5, (r["gpu_usd_per_hour"], per_hour)
    assert float(r["egress_gb_per_iteration"]) == 0, r  # one region
    usd = per_hour / 3600 * float(r["simgrid_s"]) / tokens * 1e6
    assert abs(float(r["usd_per_mtokens"]) / usd - 1) < 1e-4, (r["usd_per_mtokens"], usd)
assert float(by_time["simgrid_s"]) < float(by_cost["simgrid_s"])
assert float(by_cost["usd_per_mtokens"]) < float(by_time["usd_per_mtokens"])
PY
grep -q '\$/1M_tokens' "$tmp/c1.out" && ok "the table shows the cost" || fail "no cost column in the table"
expect_refusal "max_gpus above the platform" "plan.max_gpus: max_gpus 99 is more than the platform's 16 GPUs" \
  "$hulk" plan "$scen" --out "$tmp/bad" --set plan.max_gpus=99
expect_refusal "min_gpus above max_gpus" "plan.min_gpus: min_gpus 8 is more than max_gpus 6" \
  "$hulk" plan "$scen" --out "$tmp/bad" --set plan.max_gpus=6 --set plan.min_gpus=8
expect_refusal "tp_max 0" "plan.tp_max" "$hulk" plan "$scen" --out "$tmp/bad" --set plan.tp_max=0
expect_refusal "objective cost without prices" "plan.objective: objective cost needs .prices:" \
  "$hulk" plan "$scen" --out "$tmp/bad" --set plan.objective=cost
expect_refusal "a negative price" "prices.gpu_hour.V100-32GB" \
  "$hulk" plan "$cost" --out "$tmp/bad" --set prices.gpu_hour.V100-32GB=-1
expect_refusal "a GPU kind without a price" "prices.gpu_hour: no price per GPU-hour for V100-32GB" \
  "$hulk" plan "$cost" --out "$tmp/bad" --set 'prices.gpu_hour={A100-40GB: 4}'
[ ! -e "$tmp/bad/plan.csv" ] && ok "a refused plan writes nothing" || fail "a refused plan wrote plan.csv"
echo "$failures failures"
[ "$failures" -eq 0 ]
