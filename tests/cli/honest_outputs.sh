#!/usr/bin/env bash
# Honest outputs on the tiny scenario: an absent value is n/a (null in JSON), never 0; `compare`
# fails when every method failed; `sweep` fails loudly when its CSV append fails; the scenario loader and the
# command line accept and reject the same method names; gnn and gnn+refine (committed model) give valid
# placements; `bench` times the search compare runs and, on several jobs, rates and simulates their objective.
# Usage: honest_outputs.sh HULK_BINARY TESTS_DIR [SOURCE_DIR]
source "$(dirname "$0")/lib/common.bash" "$@"

# 1. compare without search: gap_search is n/a in the table and null in the JSON.
"$hulk" compare "$tiny" --methods round-robin,greedy --out "$tmp/c.json" >"$tmp/c.txt" 2>"$tmp/c.err" || fail "compare without search failed: $(cat "$tmp/c.err")"
if [ "$(awk '$1 == "greedy" || $1 == "round-robin" { print $6 }' "$tmp/c.txt" | sort -u)" = "n/a" ]; then ok "gap_search n/a without search"; else fail "gap_search column without search:"; cat "$tmp/c.txt"; fi
python3 -c "
import json, sys
rs = json.load(open(sys.argv[1]))['results']
assert len(rs) == 2 and all(r['ok'] and r['gap_to_search'] is None for r in rs), rs
" "$tmp/c.json" && ok "gap_to_search null without search" || fail "gap_to_search is not null without search"

# 2. compare where every method fails: non-zero exit, one reason per method. The job fits the A100 (so the scenario
#    loads), but round-robin and random may put it on the T4, listed first. A method the input rules out before it
#    runs (here the placement file that puts the rank on the T4) is refused up front: exit 2, nothing written.
mkdir -p "$tmp/oom"
sed -e '/gpu: A100-80GB}/{h;d}' -e '/gpu: T4}/G' "$tests/data/bad/placement-file-out-of-memory.yaml" >"$tmp/oom/t4-first.yaml"
cp "$tests/data/bad/placement-file-out-of-memory.json" "$tmp/oom/"
oom_methods="round-robin,file:$tmp/oom/placement-file-out-of-memory.json"
"$hulk" compare "$tmp/oom/t4-first.yaml" --methods round-robin >"$tmp/f.txt" 2>"$tmp/f.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "every method failed" "$tmp/f.err" && [ "$(grep -c 'failed:' "$tmp/f.txt")" -eq 1 ]; then
  ok "compare exits 2 when every method failed"
else
  fail "compare with every method failing: exit $rc"; cat "$tmp/f.txt" "$tmp/f.err"
fi
"$hulk" compare "$tmp/oom/t4-first.yaml" --methods "greedy,file:$tmp/oom/placement-file-out-of-memory.json" \
  --out "$tmp/refused.json" >"$tmp/r.txt" 2>"$tmp/r.err"
rc=$?
if [ "$rc" -eq 2 ] && [ "$(grep -c '' "$tmp/r.err")" -eq 1 ] && grep -q "placement-file-out-of-memory.json is not valid" "$tmp/r.err" &&
  [ ! -e "$tmp/refused.json" ] && [ ! -s "$tmp/r.txt" ]; then
  ok "compare refuses a bad placement file before running any method"
else
  fail "compare with a bad placement file: exit $rc"; cat "$tmp/r.txt" "$tmp/r.err"
fi

# 3. reproduce without search on a user folder: no 'paper scenarios', gap to search n/a, counts stated.
"$hulk" reproduce "$(dirname "$tiny")" --methods round-robin,greedy --out "$tmp/r" --no-plots >"$tmp/r.txt" 2>"$tmp/r.err" || fail "reproduce failed: $(tail -3 "$tmp/r.err")"
grep -q "paper scenarios" "$tmp/r.txt" && fail "a user folder is called 'paper scenarios'"
grep -q "Summary over 1 scenario in $(dirname "$tiny")" "$tmp/r.txt" || fail "summary heading does not name the folder: $(grep Summary "$tmp/r.txt")"
grep -q "greedy: vs round-robin .*over 1 of 1 scenario), .*mean gap to search n/a" "$tmp/r.txt" && ok "reproduce summary says n/a and counts" || { fail "reproduce summary:"; cat "$tmp/r.txt"; }
python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))['summary']['greedy']
assert s['mean_gap_to_search'] is None and s['scenarios_vs_round_robin'] == 1, s
" "$tmp/r/reproduce.json" || fail "reproduce.json: mean_gap_to_search is not null without search"

# 3b. reproduce where every method fails on every scenario: outputs kept, but a non-zero exit.
"$hulk" reproduce "$tmp/oom" --methods "$oom_methods" --out "$tmp/oom-out" --no-plots >/dev/null 2>"$tmp/oom.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "every method failed on every scenario" "$tmp/oom.err"; then ok "reproduce exits 2 when nothing ran"; else fail "reproduce with every method failing: exit $rc"; tail -3 "$tmp/oom.err"; fi

# 3c. a sweep point whose job fits no GPU (dp 2: only the A100 holds a rank) is a row of failed methods, not a
#     refused sweep (validate and compare refuse such a scenario at load).
"$hulk" sweep "$tmp/oom/t4-first.yaml" --set job.global_batch=2 --set job.parallelism.dp=1,2 --methods greedy \
  --out "$tmp/oom-sweep" >/dev/null 2>"$tmp/oom-sweep.err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q '^0,2,1,greedy,1,' "$tmp/oom-sweep/sweep.csv" && grep -q '^1,2,2,greedy,0,.*not fit' "$tmp/oom-sweep/sweep.csv"; then
  ok "sweep records a point that fits no GPU as failed and goes on"
else
  fail "sweep with a point that fits no GPU: exit $rc"; cat "$tmp/oom-sweep.err" "$tmp/oom-sweep/sweep.csv"
fi

# 4. sweep: a failed CSV append (1 KiB file size limit, reached after ~6 of the 12 points; SIGXFSZ ignored so that
#    write() fails instead of killing the process) is an error.
(trap '' XFSZ; ulimit -f 1; exec "$hulk" sweep "$tiny" --set job.utilisation=0.3,0.35,0.4,0.45,0.5,0.55,0.6,0.65,0.7,0.75,0.8,0.85 \
   --methods round-robin,greedy --out "$tmp/s") >"$tmp/s.txt" 2>"$tmp/s.err"
rc=$?
if [ "$rc" -ne 0 ] && grep -q "could not append" "$tmp/s.err"; then ok "sweep fails loudly on a failed append"; else fail "sweep with a failing append: exit $rc"; cat "$tmp/s.err"; fi

# 5. The same method names in a scenario and on the command line.
"$hulk" validate "$tiny" >/dev/null 2>"$tmp/v.err" && ok "placement: gnn+refine accepted in a scenario" || fail "validate tiny (placement gnn+refine): $(cat "$tmp/v.err")"
"$hulk" validate "$tests/data/bad/unknown-placement-method.yaml" >/dev/null 2>"$tmp/u1.err"
rc1=$?
"$hulk" compare "$tiny" --methods greedy,gnn+refin >/dev/null 2>"$tmp/u2.err"
rc2=$?
list1=$(grep -o "expected one of: [^)]*)" "$tmp/u1.err")
list2=$(grep -o "expected one of: [^)]*)" "$tmp/u2.err")
if [ "$rc1" -eq 2 ] && [ "$rc2" -eq 2 ] && [ -n "$list1" ] && [ "$list1" = "$list2" ] &&
   grep -q "did you mean 'gnn+refine'" "$tmp/u1.err" && grep -q "did you mean 'gnn+refine'" "$tmp/u2.err"; then
  ok "unknown names rejected alike: $list1"
else
  fail "scenario and CLI reject differently (exit $rc1/$rc2):"; cat "$tmp/u1.err" "$tmp/u2.err"
fi

# 6. gnn and gnn+refine with the committed model give valid placements (distinct GPUs, every rank), and the
#    scenario's own gnn+refine placement simulates.
for m in gnn gnn+refine; do
  if "$hulk" place "$tiny" --method "$m" --out "$tmp/p.json" 2>"$tmp/p.err" &&
     python3 -c "
import json, sys
ranks = json.load(open(sys.argv[1]))['ranks']
assert sorted(r['rank'] for r in ranks) == [0, 1, 2, 3], ranks
assert len({(r['host'], r['slot']) for r in ranks}) == 4, ranks
" "$tmp/p.json"; then ok "place --method $m"; else fail "place --method $m: $(cat "$tmp/p.err")"; fi
done
"$hulk" simulate "$tiny" --json >"$tmp/sim.json" 2>"$tmp/sim.err" &&
  python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['iteration_time_s'] > 0" "$tmp/sim.json" &&
  ok "simulate with the scenario's gnn+refine placement" || fail "simulate tiny: $(cat "$tmp/sim.err")"

# simulate --estimate: the evaluator's estimate of the simulated placement and its error against SimGrid's time.
"$hulk" simulate "$tiny" --placement greedy --estimate --json >"$tmp/est.json" 2>"$tmp/est.err" &&
  python3 -c "
import json, math, sys
r = json.load(open(sys.argv[1]))
e, t = r['evaluator_estimate_s'], r['iteration_time_s']
assert e > 0 and math.isfinite(e), r
assert abs(r['evaluator_error'] - (e / t - 1)) < 1e-12, r
" "$tmp/est.json" && ok "simulate --estimate" || fail "simulate --estimate: $(cat "$tmp/est.err")"
"$hulk" simulate "$tiny" --placement greedy --estimate >"$tmp/est.txt" 2>&1 &&
  grep -Eq "^estimate +[0-9.]+ s \(analytic evaluator, [+-][0-9.]+% against SimGrid\)" "$tmp/est.txt" &&
  ok "simulate --estimate prints the estimate" || { fail "simulate --estimate output:"; cat "$tmp/est.txt"; }

# 7. bench times the search compare runs, and says so.
"$hulk" bench "$tiny" --reps 1 --no-gnn >"$tmp/b.txt" 2>"$tmp/b.err" || fail "bench failed: $(cat "$tmp/b.err")"
grep -q "search (as compare runs it: 4 annealing restarts + SimGrid check" "$tmp/b.txt" && ok "bench names its search" || { fail "bench output:"; cat "$tmp/b.txt"; }
grep -Eq "greedy placement \(the greedy method, as compare runs it\): median [0-9.]+ ms" "$tmp/b.txt" && ok "bench times greedy" || { fail "bench output (greedy):"; cat "$tmp/b.txt"; }
# With the gnn: the method's time, and the learned placer's least work (greedy + one model pass + argmax decode) with
# the search's wall time over it (times are not compared: they depend on the machine).
"$hulk" bench "$tiny" --reps 1 --budget 100 >"$tmp/bg.txt" 2>"$tmp/bg.err" || fail "bench with gnn failed: $(cat "$tmp/bg.err")"
python3 - "$tmp/bg.txt" <<'PY' && ok "bench prints the learned placer's least work" || { fail "bench gnn output:"; cat "$tmp/bg.txt"; }
import re, sys
out = open(sys.argv[1]).read()
method = float(re.search(r"gnn placement \(.*\): median ([0-9.]+) ms", out).group(1))
least, ratio = re.search(r"learned placer's least work \(.*\): median ([0-9.]+) ms; the search takes (\d+)x that", out).groups()
search = float(re.search(r"search \(.*\): median ([0-9.]+) s wall", out).group(1))
assert float(least) > 0 and int(ratio) >= 0, out
PY

# 8. bench on several jobs names every job, rates the jobs' objective and simulates the objective compare reports.
source_dir="$(readlink -f "${3:-$2/..}")"
jobs="$source_dir/scenarios/examples/two-jobs.yaml"
"$hulk" bench "$jobs" --reps 1 --no-gnn --budget 50 >"$tmp/bj.txt" 2>"$tmp/bj.err" || fail "bench two-jobs failed: $(cat "$tmp/bj.err")"
"$hulk" simulate "$jobs" --placement greedy --json >"$tmp/bj.json" 2>"$tmp/bj-sim.err" || fail "simulate two-jobs failed"
python3 - "$tmp/bj.txt" "$tmp/bj.json" <<'PY' && ok "bench on several jobs" || { fail "bench two-jobs output:"; cat "$tmp/bj.txt"; }
import json, re, sys
out = open(sys.argv[1]).read()
assert "2 jobs: bert dp 4 x tp 1 x pp 1, gpt dp 1 x tp 1 x pp 4" in out, "jobs not listed"
assert re.search(r"analytic evaluator \(the jobs' objective\): median \d+ evaluations/s", out), "no objective rate"
simulated = float(re.search(r"simulated objective ([0-9.]+) s", out).group(1))
objective = json.load(open(sys.argv[2]))["objective_s"]
assert abs(simulated - objective) <= 1e-4 * objective, (simulated, objective)
PY

# 8b. bench simulates each placement of a list in turn: one line and one CSV row each, in the order given, each with the
# iteration time `simulate` gives for that placement.
"$hulk" bench "$tiny" --simulation-only --reps 1 --placement round-robin,random,greedy --csv "$tmp/bp.csv" \
  >"$tmp/bp.txt" 2>"$tmp/bp.err" || fail "bench with three placements failed: $(cat "$tmp/bp.err")"
for m in round-robin random greedy; do
  "$hulk" simulate "$tiny" --placement "$m" --json >"$tmp/bp-$m.json" 2>/dev/null || fail "simulate $m failed"
done
python3 - "$tmp/bp.txt" "$tmp/bp.csv" "$tmp" <<'PY' && ok "bench prints placements side by side" || { fail "bench placements output:"; cat "$tmp/bp.txt"; }
import csv, json, re, sys
lines = [l for l in open(sys.argv[1]) if "simgrid simulation" in l]
methods = ["round-robin", "random", "greedy"]
assert [re.search(r"forked, (\S+) placement", l).group(1) for l in lines] == methods, lines
rows = list(csv.DictReader(open(sys.argv[2])))
assert [r["placement"] for r in rows] == methods, rows
for line, row, m in zip(lines, rows, methods):
    assert re.search(r"median [0-9.]+ s wall, [0-9.]+ s CPU", line), line
    assert float(row["cpu_median_s"]) >= 0, row
    expected = json.load(open(sys.argv[3] + "/bp-" + m + ".json"))["iteration_time_s"]
    printed = float(re.search(r"simulated iteration ([0-9.]+) s", line).group(1))  # 4 decimals
    assert abs(printed - expected) <= 0.5e-4 + 1e-9, (m, printed, expected)
    assert abs(float(row["iteration_time_s"]) - expected) <= 1e-5 * expected, (m, row, expected)  # 6 digits
PY

# 9. The same place command writes the same bytes (its wall time goes to stderr only).
"$hulk" place "$tiny" --method search --budget 200 --out "$tmp/p1.json" 2>/dev/null &&
  "$hulk" place "$tiny" --method search --budget 200 --out "$tmp/p2.json" 2>/dev/null &&
  cmp -s "$tmp/p1.json" "$tmp/p2.json" && ok "place writes the same bytes twice" ||
  fail "place output differs between two runs: $(diff "$tmp/p1.json" "$tmp/p2.json" | head -4)"

echo "$failures failures"
[ "$failures" -eq 0 ]
