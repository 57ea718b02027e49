#!/usr/bin/env bash
# Ctrl-C contract of long commands: `hulk gen-data` interrupted by SIGINT to its whole process group (what a
# terminal's Ctrl-C does, SimGrid children included) stops after the current sample, says so on stderr, keeps
# every finished sample (complete files only), exits with code 2 and resumes from the kept samples.
# Usage: interrupt.sh HULK_BINARY TESTS_DIR
set -u
hulk="$(readlink -f "$1")"
tmp="$(mktemp -d)"
trap 'kill -KILL -- -"$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
out="$tmp/data"
args=(gen-data --count 200 --seed 9 --budget 300 --max-gpus 16 --out "$out")

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
if ! grep -q "interrupted; finished samples are kept" "$tmp/stderr1"; then echo "FAIL: no interruption message (rc $rc)"; cat "$tmp/stderr1"; fail=1; fi
if [ "$rc" -ne 2 ]; then echo "FAIL: exit code $rc after an interruption (expected 2, as sweep and train)"; fail=1; fi
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
[ "$fail" -eq 0 ] && echo "interrupt: ok ($done_count samples kept, resumed)"
exit "$fail"
