#!/usr/bin/env bash
# The program does not link LibTorch; the GNN plugin beside it is loaded only by the commands that use the GNN, and
# holds no copy of the simulator (it binds to the program's functions).
# Without the plugin: every other command still works, a GNN method fails with one line naming the plugin file
# (exit 1: an installation problem, not bad input), and the plugin beside the executable gives the GNN placement.
# Usage: gnn_plugin.sh HULK_BINARY TESTS_DIR SOURCE_DIR
set -u
hulk="$(readlink -f "$1")" tests="$(readlink -f "$2")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }
scenario="$tests/data/tiny/tiny.yaml"

ldd "$hulk" | grep -q torch && fail "hulk links torch: $(ldd "$hulk" | grep torch | head -1)"
# --version names the model format the plugin reads (gnn/format_version.hpp), without loading the plugin.
HULK_GNN_PLUGIN="$tmp/missing.so" "$hulk" --version >"$tmp/version" 2>&1 || fail "--version without the plugin"
grep -Eq '^hulk [0-9.]+ \(dataset format [0-9]+, model format [0-9]+\)$' "$tmp/version" ||
  { fail "--version does not name the file formats"; cat "$tmp/version"; }
[ -f "$(dirname "$hulk")/libhulk_gnn_plugin.so" ] || fail "no libhulk_gnn_plugin.so beside $hulk"
# One copy of the simulator per process: the plugin defines none of sim/'s functions (its calls bind to the
# program's), so the pipeline memo, the interrupt flag and the evaluation count are the program's.
plugin="$(dirname "$hulk")/libhulk_gnn_plugin.so"
nm -D --defined-only "$plugin" | grep " T " | c++filt >"$tmp/plugin-defined"  # its own functions (not inline copies)
nm -D --undefined-only "$plugin" | c++filt >"$tmp/plugin-undefined"
for f in "hulk::PipelineMemo::process()" "hulk::Evaluator::Evaluator(hulk::Scenario const&" "hulk::count_evaluator_call()"; do
  grep -qF "$f" "$tmp/plugin-defined" && fail "the plugin has its own copy of $f"
done
grep -qF "hulk::Evaluator::Evaluator(hulk::Scenario const&" "$tmp/plugin-undefined" || fail "the plugin does not call the program's Evaluator"
nm -D --defined-only "$hulk" | c++filt | grep -qF "hulk::PipelineMemo::process()" ||
  fail "hulk does not export the functions the plugin binds to"

HULK_GNN_PLUGIN="$tmp/missing.so" "$hulk" place "$scenario" --method greedy --out "$tmp/g.json" >/dev/null 2>&1 ||
  fail "greedy needs the plugin"
HULK_GNN_PLUGIN="$tmp/missing.so" "$hulk" place "$scenario" --method gnn --out "$tmp/n.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] || fail "gnn without the plugin: exit $rc, expected 1"
[ "$(grep -vc "^hulk: warning" "$tmp/err")" -eq 1 ] || { fail "gnn without the plugin: not one line"; cat "$tmp/err"; }
grep -q "missing.so" "$tmp/err" || fail "the error does not name the plugin file"
[ -e "$tmp/n.json" ] && fail "a placement file was written without the plugin"

"$hulk" place "$scenario" --method gnn --out "$tmp/n.json" >/dev/null 2>"$tmp/err" || { fail "gnn with the plugin"; cat "$tmp/err"; }
[ -s "$tmp/n.json" ] || fail "gnn wrote no placement"

# Where the evaluator's estimates are not checked (a TCP window with several channels per peer), the gnn is never
# slower than greedy in SimGrid: SimGrid decides between them (the evaluator alone can pick a slower one here).
unchecked="$tests/data/unchecked/window-channels.yaml"
"$hulk" compare "$unchecked" --methods greedy,gnn --json >"$tmp/unchecked.json" 2>/dev/null || fail "compare (unchecked)"
python3 -c 'import json,sys; r={x["method"]: x["iteration_time_s"] for x in json.load(open(sys.argv[1]))["results"]}; sys.exit(r["gnn"] > r["greedy"])' \
  "$tmp/unchecked.json" || fail "gnn slower than greedy where the estimates are not checked"
echo "$failures failures"
[ "$failures" -eq 0 ]
