#!/usr/bin/env bash
# The events path of the CLI on the small scenario tests/data/events/events.yaml (6 iterations, one event
# of each kind, a failure of a used host with a spare GPU beside it, checkpoints, a trace file): simulate's outputs
# (result.json events, iterations.csv, attempt-2/, the events track of trace.json) and their determinism,
# --event-costs, compare with and without --events, --robust-states, validate's summary and plot.py iterations.
# Usage: events.sh HULK_BINARY TESTS_DIR SOURCE_DIR
source "$(dirname "$0")/lib/common.bash" "$@"
src="$(readlink -f "$3")"
scen="$tests/data/events/events.yaml"
quiet="$tmp/quiet.yaml"  # the same scenario without events: and robust: (they come last in the file)
sed '/^events:/,$d' "$scen" >"$quiet"
grep -q '^events:' "$quiet" && fail "the quiet copy still has events"
# py FILE CODE: runs CODE with d = FILE's JSON; its assertion failures are the check's.
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $2" "$1"; }

# validate: the summary names the events (each trace row counts) and the robust states; the quiet copy's line is
# the old one.
v=$("$hulk" validate "$scen" 2>&1)
[ "$v" = "ok: events-small: 4 hosts, 8 GPUs, 3 regions, job dp 2 x tp 1 x pp 2, 9 events, robust: 4 states" ] &&
  ok "validate counts the events and robust states" || fail "validate: $v"
v=$("$hulk" validate "$quiet" 2>&1)
[ "$v" = "ok: events-small: 4 hosts, 8 GPUs, 3 regions, job dp 2 x tp 1 x pp 2" ] &&
  ok "validate without events: the old line" || fail "validate (quiet): $v"

# simulate --out: the failure of west-0 at 6.5 s cuts the run into two attempts; iteration 3 is redone (the last
# checkpoint holds 2 iterations).
run="$tmp/run"
"$hulk" simulate "$scen" --out "$run" --traces >"$tmp/sim.out" 2>"$tmp/sim.err" || { fail "simulate --out failed"; cat "$tmp/sim.err"; }
py "$run/result.json" '
e = d["events"]
assert len(e["attempts"]) == 2, e["attempts"]
assert e["attempts"][1]["ended_by"] == "end" and e["attempts"][0]["ended_by"] == "events[5]", e["attempts"]
assert e["redone_iterations"] == 1, e["redone_iterations"]
assert 0 < e["goodput"] <= 1, e["goodput"]
assert e["count"] == 9 and e["restart_s"] == 1.0 and e["checkpoint_s"] > 0, e
assert abs(d["total_time_s"] - e["wall_s"]) < 1e-9, (d["total_time_s"], e["wall_s"])
' && ok "result.json: 2 attempts, 1 redone iteration, goodput in (0, 1]" || fail "result.json events: see above"
py "$run/result.json" '
assert [r["host"] for r in d["placement"]["ranks"]] == ["east-0", "west-0", "west-1", "north-0"], d["placement"]
assert "west-0" not in [r["host"] for r in d["placement_after_failures"]["ranks"]], d["placement_after_failures"]
' && ok "the failed host's rank moved to a spare GPU" || fail "placement after the failure: see above"
python3 - "$run/iterations.csv" "$run/result.json" <<'PY' && ok "iterations.csv: one row per iteration of every attempt, redone ones kept=0" || fail "iterations.csv: see above"
import csv, json, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0] == "attempt,iteration,start_s,end_s,time_s,kept", lines[0]
rows = list(csv.DictReader(lines))
e = json.load(open(sys.argv[2]))["events"]
assert len(rows) == sum(a["iterations_completed"] for a in e["attempts"]) == 7, len(rows)
assert [(r["attempt"], r["iteration"], r["kept"]) for r in rows] == [
    ("1", "1", "1"), ("1", "2", "1"), ("1", "3", "0"),
    ("2", "3", "1"), ("2", "4", "1"), ("2", "5", "1"), ("2", "6", "1")], rows
assert sum(r["kept"] == "0" for r in rows) == e["redone_iterations"]
for r in rows:
    assert abs(float(r["end_s"]) - float(r["start_s"]) - float(r["time_s"])) < 1e-9, r
assert float(rows[3]["start_s"]) == e["attempts"][1]["start_s"], rows[3]
PY
for f in comm.csv trace.json; do [ -s "$run/attempt-2/$f" ] || fail "no attempt-2/$f"; done
[ -s "$run/attempt-2/trace.json" ] && [ -s "$run/attempt-2/comm.csv" ] && ok "attempt-2/ has comm.csv and trace.json"
py "$run/trace.json" '
ev = d["traceEvents"]
pids = [e["pid"] for e in ev if e.get("ph") == "M" and e.get("name") == "process_name" and e["args"]["name"] == "events"]
assert len(pids) == 1, pids
spans = [e for e in ev if e["pid"] == pids[0] and e.get("ph") == "X"]
assert any(s["name"].startswith("events[5]") for s in spans), [s["name"] for s in spans]
' && ok "trace.json: a process named events with the events on it" || fail "trace.json events track: see above"
grep -q "1 restart(s), 1 iteration(s) redone" "$tmp/sim.out" && ok "the summary names the restart" ||
  { fail "summary: no restart line"; cat "$tmp/sim.out"; }

# Determinism: a second run, byte for byte.
"$hulk" simulate "$scen" --out "$tmp/run2" --traces >/dev/null 2>&1 || fail "the second simulate failed"
for f in result.json iterations.csv trace.json attempt-2/trace.json; do
  cmp -s "$run/$f" "$tmp/run2/$f" && ok "two runs: the same $f" || fail "two runs: $f differs"
done

# --event-costs: events.costs, the total ("all") first, one entry per event and one for the trace file.
"$hulk" simulate "$scen" --event-costs --out "$tmp/costs" >/dev/null 2>"$tmp/costs.err" || { fail "--event-costs failed"; cat "$tmp/costs.err"; }
py "$tmp/costs/result.json" '
c = d["events"]["costs"]
assert c[0]["origin"] == "all", c
assert sorted(x["origin"] for x in c[1:]) == sorted(["events[%d]" % i for i in range(6)] + ["trace.csv"]), c
assert c[0]["lost_s"] > 0, c
' && ok "--event-costs: events.costs with all first" || fail "--event-costs: see above"
expect_refusal "--event-costs without events" "no events" "$hulk" simulate "$quiet" --event-costs

# compare: without --events the events are ignored (a note on stderr) and the table is the quiet copy's.
methods=--methods=round-robin,greedy
"$hulk" compare "$scen" $methods >"$tmp/c.out" 2>"$tmp/c.err" || fail "compare failed"
grep -q "events are ignored" "$tmp/c.err" && ok "compare notes that the events are ignored" || { fail "compare: no note"; cat "$tmp/c.err"; }
"$hulk" compare "$quiet" $methods >"$tmp/q.out" 2>"$tmp/q.err" || fail "compare (quiet) failed"
grep -q "events are ignored" "$tmp/q.err" && fail "compare without events prints the note"
# The last column (method_s) is the wall time of placing: it varies from run to run, so it is left out.
without_wall_time() { awk '{ $NF = ""; print }' "$1"; }
diff <(without_wall_time "$tmp/q.out") <(without_wall_time "$tmp/c.out") >/dev/null && ok "compare ignoring events = compare without them" ||
  { fail "compare ignoring events differs from the quiet copy"; diff "$tmp/q.out" "$tmp/c.out"; }
times() { py "$1" 'print(" ".join(repr(r["iteration_time_s"]) for r in d["results"]))'; }
"$hulk" compare "$scen" $methods --json >"$tmp/c.json" 2>/dev/null || fail "compare --json failed"
"$hulk" compare "$quiet" $methods --json >"$tmp/q.json" 2>/dev/null || fail "compare --json (quiet) failed"
"$hulk" compare "$scen" $methods --events --json >"$tmp/e.json" 2>"$tmp/e.err" || { fail "compare --events failed"; cat "$tmp/e.err"; }
[ "$(times "$tmp/c.json")" = "$(times "$tmp/q.json")" ] && ok "compare --json ignoring events: the quiet times" ||
  fail "compare --json: $(times "$tmp/c.json") vs $(times "$tmp/q.json")"
grep -q "events are ignored" "$tmp/e.err" && fail "compare --events prints the note"
python3 - "$tmp/q.json" "$tmp/e.json" <<'PY' && ok "compare --events: larger times (round-robin)" || fail "compare --events: see above"
import json, sys
q, e = (json.load(open(p))["results"] for p in sys.argv[1:])
by = lambda rs: {r["method"]: r["iteration_time_s"] for r in rs}
q, e = by(q), by(e)
assert e["round-robin"] > q["round-robin"] * 1.2, (q, e)  # the failure alone costs more than 1 s of 8
assert all(e[m] >= q[m] * (1 - 1e-9) for m in q), (q, e)
PY
expect_refusal "--robust-states without robust:" "robust" "$hulk" compare "$quiet" $methods --robust-states 2

# plot.py iterations (Debian's python3 with matplotlib, as plot_python.sh).
if /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
  "$src/tools/scripts/plot.py" iterations "$run" --out "$tmp/plots" >/dev/null 2>"$tmp/plot.err" || { fail "plot.py iterations failed"; cat "$tmp/plot.err"; }
  [ -s "$tmp/plots/iterations.png" ] && ok "plot.py iterations wrote iterations.png" || fail "no iterations.png"
else
  echo "skip: /usr/bin/python3 cannot import matplotlib (plot.py iterations not checked)"
fi
echo "$failures failures"
[ "$failures" -eq 0 ]
