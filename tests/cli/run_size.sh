#!/usr/bin/env bash
# `simulate` refuses a run whose estimated work (sim/workload/work_estimate.hpp) is above 100 million messages,
# before any SimGrid work, with one line naming the file and the way out (--allow-large), exit 2.
# Usage: run_size.sh HULK_BINARY TESTS_DIR SOURCE_DIR
set -u
hulk="$1"
src="$3"
big="$src/scenarios/examples/big-1024.yaml"
err="$(mktemp)"
trap 'rm -f "$err"' EXIT
"$hulk" simulate "$big" --placement round-robin --set job.iterations=1000 >/dev/null 2>"$err"
code=$?
if [ "$code" != 2 ]; then echo "FAIL: expected exit 2, got $code"; cat "$err"; exit 1; fi
if [ "$(wc -l <"$err")" != 1 ]; then echo "FAIL: expected one line on stderr"; cat "$err"; exit 1; fi
grep -qE "big-1024.yaml: job: this run would simulate about [0-9]{10} messages" "$err" || { echo "FAIL: message"; cat "$err"; exit 1; }
grep -q -- "--allow-large" "$err" || { echo "FAIL: the message does not name --allow-large"; exit 1; }
echo "ok: a 2.3-billion-message run is refused before it starts"
