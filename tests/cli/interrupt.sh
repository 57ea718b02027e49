#!/usr/bin/env bash
# Ctrl-C contract of long commands: SIGINT to the whole process group (what a terminal's Ctrl-C does,
# SimGrid children included) or SIGTERM to the program alone ends it with one line "interrupted" on stderr and exit
# code 130; the child at work is killed and reaped (no orphan keeps running or holds a pipe open) and no half file
# is left. `hulk gnn gen-data` keeps every finished sample (complete files only) and resumes from them; `hulk simulate`
# interrupted mid-simulation leaves nothing in its --out folder; `hulk compare` keeps the methods that finished.
# Usage: interrupt.sh HULK_BINARY TESTS_DIR [SOURCE_DIR]
set -u
hulk="$(readlink -f "$1")"
tmp="$(mktemp -d)"
pid=""
trap '[ -n "$pid" ] && kill -KILL -- -"$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
out="$tmp/data"
args=(gnn gen-data --count 200 --seed 9 --budget 300 --max-gpus 16 --out "$out")

setsid "$hulk" "${args[@]}" 2>"$tmp/stderr1" &
pid=$!
for _ in $(seq 1 600); do  # up to 60 s for the first sample
  [ -n "$(ls "$out/samples" 2>/dev/null | grep '\.json$')" ] && break
  sleep 0.1
done
kill -INT -- -"$pid"
wait "$pid"
rc=$?
fail=0
if grep -q "internal error" "$tmp/stderr1"; then echo "FAIL: a child died of the Ctrl-C:"; cat "$tmp/stderr1"; fail=1; fi
if [ "$(grep -c interrupted "$tmp/stderr1")" -ne 1 ] || ! tail -1 "$tmp/stderr1" | grep -q "^hulk: interrupted: [0-9]* finished samples kept"; then
  echo "FAIL: not one interruption line (rc $rc)"; cat "$tmp/stderr1"; fail=1
fi
if [ "$rc" -ne 130 ]; then echo "FAIL: exit code $rc after an interruption (expected 130)"; fail=1; fi
done_count=$(ls "$out/samples" | grep -c '\.json$')
if [ "$done_count" -lt 1 ]; then echo "FAIL: no finished sample kept"; fail=1; fi
if ls "$out/samples" | grep -v '\.json$' | grep -q .; then echo "FAIL: partial files left:"; ls "$out/samples"; fail=1; fi
for f in "$out"/samples/*.json; do
  python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$f" 2>/dev/null || { echo "FAIL: $f is not complete JSON"; fail=1; }
done

# Resume: the second run counts the kept samples as present (then is interrupted the same way).
setsid "$hulk" "${args[@]}" 2>"$tmp/stderr2" &
pid=$!
for _ in $(seq 1 100); do grep -q "already present" "$tmp/stderr2" && break; sleep 0.1; done
kill -INT -- -"$pid"
wait "$pid"
if ! grep -q "$done_count already present" "$tmp/stderr2"; then
  echo "FAIL: resume did not find the $done_count kept samples:"; cat "$tmp/stderr2"; fail=1
fi

# simulate, interrupted mid-simulation (a child exists) with --out: exit 130, one line, no file, no orphan.
# hulk-47 (47 hosts of the Hulk data) with 10 iterations simulates for ten seconds or more under any placement,
# far longer than the waits below, so the signal always lands mid-simulation (no race on this machine's speed).
source_dir="$(readlink -f "${3:-$2/..}")"
medium="$source_dir/scenarios/examples/hulk-47.yaml"
long=(--set job.iterations=10)
for signal in INT TERM; do
  sim_out="$tmp/sim-$signal"
  setsid "$hulk" simulate "$medium" "${long[@]}" --placement round-robin --out "$sim_out" --traces >/dev/null 2>"$tmp/sim.err" &
  pid=$!
  child=""
  for _ in $(seq 1 300); do  # until the simulating child exists (up to 30 s)
    child="$(pgrep -P "$pid" | head -1)"
    [ -n "$child" ] && break
    sleep 0.1
  done
  [ -z "$child" ] && { echo "FAIL: simulate started no child (it finished too fast?)"; fail=1; }
  sleep 2  # let the child start simulating
  if [ "$signal" = INT ]; then kill -INT -- -"$pid"; else kill -TERM "$pid"; fi  # Ctrl-C to the group; TERM alone
  wait "$pid"
  rc=$?
  [ "$rc" -eq 130 ] || { echo "FAIL: simulate SIG$signal: exit $rc (expected 130)"; cat "$tmp/sim.err"; fail=1; }
  if [ "$(grep -v "^hulk: warning" "$tmp/sim.err" | grep -vc "^hulk: simulating about")" -ne 1 ] || ! grep -qx "hulk: interrupted" "$tmp/sim.err"; then
    echo "FAIL: simulate SIG$signal: not exactly one line 'hulk: interrupted':"; cat "$tmp/sim.err"; fail=1
  fi
  if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then echo "FAIL: simulate SIG$signal: child $child still alive"; fail=1; fi
  if pgrep -g "$pid" >/dev/null; then echo "FAIL: simulate SIG$signal: processes left in the group:"; pgrep -g "$pid" -a; fail=1; fi
  if [ -n "$(ls -A "$sim_out" 2>/dev/null)" ]; then echo "FAIL: simulate SIG$signal left files:"; ls -la "$sim_out"; fail=1; fi
done

# compare interrupted during its second method: it still prints the method that finished and writes it to
# OUT.partial, leaving OUT (an earlier, finished report) as it was; starts no other (reported as not run), exit 130.
# With the search among the methods, compare runs greedy, then the search, then round-robin (which takes the search's
# SimGrid check of its placement); a signal one second after the search's placing child exists lands mid-search.
echo '{"earlier": "finished report"}' >"$tmp/c.json"
setsid "$hulk" compare "$medium" "${long[@]}" --methods round-robin,greedy,search --out "$tmp/c.json" >"$tmp/c.out" 2>"$tmp/c.err" &
pid=$!
for _ in $(seq 1 600); do grep -q "search \.\.\." "$tmp/c.err" && break; sleep 0.1; done  # greedy finished
for _ in $(seq 1 300); do [ -n "$(pgrep -P "$pid")" ] && break; sleep 0.1; done  # the search's child started
sleep 1
kill -INT -- -"$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || { echo "FAIL: compare interrupted: exit $rc (expected 130)"; cat "$tmp/c.err"; fail=1; }
[ "$(grep -c '^hulk: interrupted$' "$tmp/c.err")" -eq 1 ] || { echo "FAIL: compare: no single interrupted line"; cat "$tmp/c.err"; fail=1; }
awk '$1 == "greedy" && $2 ~ /^[0-9.]+$/ { found = 1 } END { exit !found }' "$tmp/c.out" ||
  { echo "FAIL: compare did not print the finished greedy:"; cat "$tmp/c.out"; fail=1; }
python3 -c "
import json, sys
rs = {r['method']: r for r in json.load(open(sys.argv[1]))['results']}
assert rs['greedy']['ok'] and not rs['search']['ok'], rs
assert not rs['round-robin']['ok'] and rs['round-robin']['error'] == 'not run (interrupted)', rs['round-robin']
" "$tmp/c.json.partial" || { echo "FAIL: compare --out's .partial does not keep the finished greedy, or ran round-robin after the interrupt"; fail=1; }
grep -q '"earlier": "finished report"' "$tmp/c.json" || { echo "FAIL: interrupted compare replaced its earlier --out report"; fail=1; }
grep -q "round-robin \.\.\." "$tmp/c.err" && { echo "FAIL: compare started round-robin after the interrupt"; fail=1; }
pid=""

# reproduce interrupted during its second scenario: exit 130, the first scenario's row in reproduce.partial.csv, no
# verdict printed and no reproduce.csv (a verdict on part of the set read as the set's).
rdir="$tmp/rset"
mkdir -p "$rdir"
cp "$2/data/tiny/tiny.yaml" "$rdir/a-tiny.yaml"
sed -e "s#dir: .*#dir: $(readlink -f "$source_dir/../shared/data/hulk")#" -e 's/iterations: 1$/iterations: 10/' "$medium" >"$rdir/b-long.yaml"
setsid "$hulk" reproduce "$rdir" --methods round-robin,greedy --no-plots --quiet --out "$tmp/rout" >"$tmp/r.out" 2>"$tmp/r.err" &
pid=$!
for _ in $(seq 1 1200); do grep -q "\[2/2\]" "$tmp/r.err" && break; sleep 0.1; done
sleep 1
kill -INT -- -"$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || { echo "FAIL: reproduce interrupted: exit $rc (expected 130)"; cat "$tmp/r.err"; fail=1; }
grep -q "^hulk: interrupted: 1 of 2 scenarios finished" "$tmp/r.err" || { echo "FAIL: reproduce: no interrupted line"; cat "$tmp/r.err"; fail=1; }
grep -q "REPRODUCED\|HOLD" "$tmp/r.out" && { echo "FAIL: reproduce printed a verdict on part of the set"; fail=1; }
[ -e "$tmp/rout/reproduce.csv" ] && { echo "FAIL: reproduce wrote reproduce.csv though interrupted"; fail=1; }
[ "$(wc -l <"$tmp/rout/reproduce.partial.csv" 2>/dev/null)" = "$(( 1 + 2 ))" ] ||
  { echo "FAIL: reproduce.partial.csv does not hold the finished scenario's rows:"; cat "$tmp/rout/reproduce.partial.csv"; fail=1; }
pid=""

[ "$fail" -eq 0 ] && echo "interrupt: ok ($done_count samples kept, resumed; simulate interrupted cleanly)"
exit "$fail"
