#!/usr/bin/env bash
# tools/scripts/plot.py runs with Debian's /usr/bin/python3 (the one tools/scripts/install-deps.sh gives matplotlib), and where
# matplotlib cannot be imported it prints one line naming the fix and exits 2 instead of a traceback.
# Usage: plot_python.sh HULK_BINARY TESTS_DIR SOURCE_DIR
set -u
hulk="$(readlink -f "$1")" tests="$(readlink -f "$2")" src="$(readlink -f "$3")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }

[ "$(head -n 1 "$src/tools/scripts/plot.py")" = "#!/usr/bin/python3" ] || fail "plot.py's shebang is not /usr/bin/python3"
[ -x "$src/tools/scripts/plot.py" ] || fail "plot.py is not executable"

# A python whose matplotlib import fails (a package that raises ImportError shadows the real one).
mkdir -p "$tmp/fake/matplotlib"
echo 'raise ImportError("No module named matplotlib")' >"$tmp/fake/matplotlib/__init__.py"
printf 'point,k,method,ok,iteration_time_s\n' >"$tmp/empty.csv"
PYTHONPATH="$tmp/fake" /usr/bin/python3 "$src/tools/scripts/plot.py" sweep "$tmp/empty.csv" --out "$tmp/o" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || fail "without matplotlib: exit $rc, expected 2"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || { fail "without matplotlib: not one line on stderr"; cat "$tmp/err"; }
grep -q "/usr/bin/python3" "$tmp/err" || fail "without matplotlib: the message does not name /usr/bin/python3"
grep -q "Traceback" "$tmp/err" && fail "without matplotlib: a traceback"

# With Debian's python3 and matplotlib: a real sweep plots.
if /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
  # Two swept keys, one of them a map (one CSV column per leaf): one figure per swept column, the leaf whose value
  # never changes (latency) none.
  "$hulk" sweep "$tests/data/tiny/tiny.yaml" --set wan.default.bandwidth=1Gbps,10Gbps \
    --set 'regions.east.host_link={bandwidth: 10Gbps, latency: 50us},{bandwidth: 25Gbps, latency: 50us}' \
    --methods round-robin,greedy --out "$tmp/sweep" 2>/dev/null || fail "sweep failed"
  "$src/tools/scripts/plot.py" sweep "$tmp/sweep/sweep.csv" --out "$tmp/plots" 2>"$tmp/plot.err" || { fail "plot.py sweep failed"; cat "$tmp/plot.err"; }
  for png in sweep_wan.default.bandwidth.png sweep_regions.east.host_link.bandwidth.png; do
    [ -s "$tmp/plots/$png" ] || fail "plot.py sweep wrote no $png: $(ls "$tmp/plots")"
  done
  [ -e "$tmp/plots/sweep_regions.east.host_link.latency.png" ] && fail "plot.py sweep plotted a column that never changes"
  # --x names a column that is not swept: one line naming the columns, exit 1 (sys.exit with a message).
  "$src/tools/scripts/plot.py" sweep "$tmp/sweep/sweep.csv" --x nope --out "$tmp/plots" 2>"$tmp/plot.err" &&
    fail "plot.py sweep --x nope succeeded"
  grep -q "wan.default.bandwidth" "$tmp/plot.err" || fail "plot.py sweep --x nope does not name the columns"
  # The scale table of `hulk bench --simulation-only --csv`, from a real (tiny) bench run.
  "$hulk" bench "$tests/data/tiny/tiny.yaml" --simulation-only --reps 1 --csv "$tmp/scale.csv" >/dev/null 2>&1 ||
    fail "bench --csv failed"
  "$src/tools/scripts/plot.py" scale "$tmp/scale.csv" --out "$tmp/plots" 2>"$tmp/plot.err" || { fail "plot.py scale failed"; cat "$tmp/plot.err"; }
  [ -s "$tmp/plots/scale.png" ] || fail "plot.py scale wrote no scale.png"
  # The move scorer's learning curve, from the CSV the docs link.
  "$src/tools/scripts/plot.py" learning-curve "$src/docs/data/move_learning_curve.csv" --out "$tmp/plots" \
    2>"$tmp/plot.err" || { fail "plot.py learning-curve failed"; cat "$tmp/plot.err"; }
  [ -s "$tmp/plots/learning_curve.png" ] || fail "plot.py learning-curve wrote no learning_curve.png"
else
  fail "/usr/bin/python3 cannot import matplotlib: run tools/scripts/install-deps.sh"
fi
echo "$failures failures"
[ "$failures" -eq 0 ]
