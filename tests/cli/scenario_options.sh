#!/usr/bin/env bash
# The per-scenario options of simulate, place and compare: `--set KEY=VALUE` (map values with commas included),
# `--quiet` and each data warning once per command, simulate's trace options (--comm-csv, --timeline, --traces).
# Usage: scenario_options.sh HULK_BINARY TESTS_DIR SOURCE_DIR
set -u
hulk="$(readlink -f "$1")" tests="$(readlink -f "$2")" src="$(readlink -f "$3")"
tiny="$tests/data/tiny/tiny.yaml"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }
iter() { python3 -c 'import json,sys; print(repr(json.load(open(sys.argv[1]))["iteration_time_s"]))' "$1"; }

# --set changes the simulated scenario, and compare/simulate agree on the overridden scenario.
"$hulk" simulate "$tiny" --placement round-robin --json >"$tmp/base.json" 2>/dev/null || fail "simulate (base) failed"
"$hulk" simulate "$tiny" --placement round-robin --json --set wan.default.bandwidth=10Gbps >"$tmp/set.json" 2>/dev/null \
  || fail "simulate --set failed"
[ "$(iter "$tmp/base.json")" != "$(iter "$tmp/set.json")" ] || fail "simulate --set wan.default.bandwidth=10Gbps changed nothing"
"$hulk" compare "$tiny" --methods round-robin --json --set wan.default.bandwidth=10Gbps >"$tmp/cmp.json" 2>/dev/null \
  || fail "compare --set failed"
cmp_time=$(python3 -c 'import json,sys; print(repr(json.load(open(sys.argv[1]))["results"][0]["iteration_time_s"]))' "$tmp/cmp.json")
[ "$cmp_time" = "$(iter "$tmp/set.json")" ] || fail "compare --set ($cmp_time) and simulate --set ($(iter "$tmp/set.json")) disagree"
# A map value with a comma arrives whole (the documented example form).
"$hulk" simulate "$tiny" --placement round-robin --json \
  --set 'regions.west.host_link={bandwidth: 1Gbps, latency: 1ms}' >"$tmp/map.json" 2>"$tmp/map.err" \
  || { fail "simulate --set with a map value failed"; cat "$tmp/map.err"; }
[ -s "$tmp/map.json" ] && [ "$(iter "$tmp/base.json")" != "$(iter "$tmp/map.json")" ] || fail "the map --set changed nothing"
"$hulk" place "$tiny" --method greedy --set job.parallelism.dp=1 --set job.parallelism.pp=4 >"$tmp/place.json" 2>/dev/null \
  || fail "place --set failed"
python3 -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["ranks"]) == 4' "$tmp/place.json" 2>/dev/null \
  || fail "place --set: not 4 ranks"
# Bad --set: one line, exit 2, naming --set or the key.
for bad in "nokey" "=1Gbps" "wan.default.bandwidth=" ; do
  "$hulk" simulate "$tiny" --set "$bad" >/dev/null 2>"$tmp/err"
  rc=$?
  [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- "--set" "$tmp/err" || fail "--set '$bad': exit $rc, $(cat "$tmp/err")"
done
"$hulk" compare "$tiny" --set wan.default.bandwidth=1Gbps --set wan.default.bandwidth=2Gbps >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "given twice" "$tmp/err" || fail "a key set twice is not refused"
"$hulk" place "$tiny" --set wan.defualt.bandwidth=1Gbps >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "did you mean 'default'" "$tmp/err" || fail "a misspelt --set key: $(cat "$tmp/err")"

# Traces are opt-in: --out alone writes result.json; --comm-csv, --timeline and --traces add their files (a stale
# comm.csv of an earlier run is removed); the iteration time is the same whatever is written.
"$hulk" simulate "$tiny" --placement round-robin --out "$tmp/full" --traces >/dev/null 2>&1 || fail "simulate --traces failed"
mkdir -p "$tmp/lean" && echo stale >"$tmp/lean/comm.csv"
"$hulk" simulate "$tiny" --placement round-robin --out "$tmp/lean" --timeline >/dev/null 2>&1 || fail "--timeline failed"
for f in result.json trace.json comm.csv; do [ -s "$tmp/full/$f" ] || fail "simulate --traces wrote no $f"; done
for f in result.json trace.json; do [ -s "$tmp/lean/$f" ] || fail "--timeline wrote no $f"; done
[ -e "$tmp/lean/comm.csv" ] && fail "--timeline left a comm.csv"
[ "$(iter "$tmp/full/result.json")" = "$(iter "$tmp/lean/result.json")" ] || fail "the traces changed the iteration time"
python3 -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["traceEvents"]) > 10' "$tmp/lean/trace.json" \
  || fail "--timeline: trace.json has no spans"
"$hulk" simulate "$tiny" --placement round-robin --out "$tmp/bare" >/dev/null 2>&1 || fail "simulate --out failed"
[ -s "$tmp/bare/result.json" ] && [ ! -e "$tmp/bare/comm.csv" ] && [ ! -e "$tmp/bare/trace.json" ] \
  || fail "simulate --out without a trace option wrote more (or less) than result.json"
# An earlier run's outputs that this run does not write (iterations.csv, attempt-N/) are removed, other files kept.
mkdir -p "$tmp/lean/attempt-2" && echo stale >"$tmp/lean/iterations.csv" && echo stale >"$tmp/lean/attempt-2/result.json"
echo mine >"$tmp/lean/notes.txt"
"$hulk" simulate "$tiny" --placement round-robin --out "$tmp/lean" >/dev/null 2>"$tmp/err" || fail "rerun into a used folder failed"
[ -e "$tmp/lean/iterations.csv" ] || [ -e "$tmp/lean/attempt-2" ] && fail "an earlier run's iterations.csv or attempt-2/ left beside the new result"
grep -q "removed the outputs of an earlier run" "$tmp/err" || fail "removing an earlier run's outputs was not said"
[ -s "$tmp/lean/notes.txt" ] || fail "a file simulate does not write was removed"
for flag in --comm-csv --timeline --traces; do
  "$hulk" simulate "$tiny" $flag >/dev/null 2>"$tmp/err"
  [ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$flag without --out is not refused in one line: $(cat "$tmp/err")"
done

# Data warnings (the Hulk importer's, on the paper's 47 servers): each once per command, none with --quiet.
hulk47="$src/scenarios/examples/hulk-47.yaml"
for cmd in "simulate --placement round-robin" "place --method round-robin" "compare --methods round-robin"; do
  # shellcheck disable=SC2086
  "$hulk" $cmd "$hulk47" >/dev/null 2>"$tmp/w.err" || { fail "$cmd on hulk-47 failed"; cat "$tmp/w.err"; continue; }
  n=$(grep -c "^hulk: warning: " "$tmp/w.err")
  u=$(grep "^hulk: warning: " "$tmp/w.err" | sort -u | wc -l)
  [ "$n" -gt 0 ] || fail "$cmd: no data warning printed on hulk-47"
  [ "$n" -eq "$u" ] || fail "$cmd: $n warning lines but $u distinct ones"
  # shellcheck disable=SC2086
  "$hulk" $cmd "$hulk47" --quiet >/dev/null 2>"$tmp/q.err" || fail "$cmd --quiet failed"
  grep -q "warning" "$tmp/q.err" && fail "$cmd --quiet still prints warnings"
done
# Names with a comma or a quote (scenario, region, so its hosts) are quoted in every CSV: each row keeps its fields.
mkdir -p "$tmp/odd"
sed -e 's/^name: tiny/name: "ti,ny \\"odd\\""/' -e 's/- name: east/- name: "ea,st"/' "$tiny" >"$tmp/odd/odd.yaml"
"$hulk" simulate "$tmp/odd/odd.yaml" --placement greedy --out "$tmp/odd-sim" --comm-csv >/dev/null 2>&1 || fail "simulate of odd names failed"
"$hulk" reproduce "$tmp/odd" --methods greedy --out "$tmp/odd-rep" --no-plots --quiet >/dev/null 2>&1 ||
  fail "reproduce of odd names failed"
for f in "$tmp/odd-sim/comm.csv" "$tmp/odd-rep/reproduce.csv"; do
  python3 -c 'import csv,sys; sys.exit(len({len(r) for r in csv.reader(open(sys.argv[1]))}) != 1)' "$f" ||
    fail "$(basename "$f"): a name with a comma split its row"
done
# validate takes --set as the commands that run do: an override is checked before a long run.
"$hulk" validate "$tiny" --set job.utilisation=0.3 >/dev/null 2>&1 || fail "validate --set of a valid override failed"
"$hulk" validate "$tiny" --set job.utilisation=7 >/dev/null 2>"$tmp/vset.err"
[ $? -eq 2 ] && grep -q "job.utilisation" "$tmp/vset.err" || { fail "validate --set took a bad override:"; cat "$tmp/vset.err"; }
# compare --events on a scenario without events is refused (it would compare on the quiet network without a word).
"$hulk" compare "$tiny" --methods greedy --events >/dev/null 2>"$tmp/ev.err"
[ $? -eq 2 ] && grep -q -- "--events: the scenario has no events" "$tmp/ev.err" ||
  { fail "compare --events without events:"; cat "$tmp/ev.err"; }
# Two scenario files of one name (a copy left unrenamed): reproduce refuses them, naming both, before any work.
cp "$tmp/odd/odd.yaml" "$tmp/odd/odd-copy.yaml"
"$hulk" reproduce "$tmp/odd" --methods greedy --out "$tmp/odd-rep2" --no-plots --quiet >/dev/null 2>"$tmp/dup.err"
[ $? -eq 2 ] && grep -q "name: .* is also the name of " "$tmp/dup.err" && grep -q "odd-copy.yaml" "$tmp/dup.err" ||
  { fail "reproduce took two scenarios of one name:"; cat "$tmp/dup.err"; }
[ ! -e "$tmp/odd-rep2/reproduce.csv" ] || fail "reproduce wrote a report of two scenarios of one name"
# collective: hierarchical over replicas spread 3 + 1 runs a region-ordered ring, and simulate says so; 2 + 2 does not.
uneven="$tests/data/collectives/hierarchical-uneven.yaml"
"$hulk" simulate "$uneven" --placement round-robin >/dev/null 2>"$tmp/uneven.err" || fail "simulate of uneven hierarchical failed"
grep -q "warning: .*collective hierarchical: 1 of 1 DP groups hold unequal numbers of replicas per region (e.g. 3 + 1)" \
  "$tmp/uneven.err" || { fail "no warning for an unbalanced hierarchical all-reduce:"; cat "$tmp/uneven.err"; }
"$hulk" simulate "$uneven" --placement round-robin --quiet >/dev/null 2>"$tmp/uneven-quiet.err"
[ ! -s "$tmp/uneven-quiet.err" ] || fail "--quiet still warned: $(cat "$tmp/uneven-quiet.err")"
"$hulk" simulate "$uneven" --placement round-robin --set regions.a.hosts=2 --set regions.b.hosts=2 >/dev/null \
  2>"$tmp/even.err" || fail "simulate of even hierarchical failed"
! grep -q "collective hierarchical" "$tmp/even.err" || fail "a balanced hierarchical all-reduce was warned about"
echo "$failures failures"
[ "$failures" -eq 0 ]
