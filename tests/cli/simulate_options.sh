#!/usr/bin/env bash
# Output options of `hulk simulate` choose what is written, never what is computed: on a step-synchronous job, a
# DiLoCo job, a scenario with events and one with several jobs, every combination of --out, --comm-csv, --timeline,
# --traces, --json, --quiet and --no-comm-csv writes (or prints) a result.json with the same keys and values as the
# plain `simulate --json`; --estimate adds exactly its two keys. Usage: simulate_options.sh HULK_BINARY TESTS_DIR SOURCE_DIR
set -u
hulk="$(readlink -f "$1")" tests="$(readlink -f "$2")" src="$(readlink -f "$3")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }

# same_result REFERENCE CANDIDATE [EXTRA_KEYS]: the candidate has the reference's keys and values, plus EXTRA_KEYS
# (comma-separated) and nothing else.
same_result() {
  python3 - "$@" <<'PY'
import json, sys
ref, cand = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
extra = set(filter(None, (sys.argv[3] if len(sys.argv) > 3 else "").split(",")))
missing = extra - set(cand)
for k in extra & set(cand):
    del cand[k]
if missing or ref != cand:
    diff = sorted(k for k in set(ref) | set(cand) if ref.get(k) != cand.get(k))
    sys.exit("differs in %s%s" % (diff, "; missing %s" % sorted(missing) if missing else ""))
PY
}

scenarios=("$tests/data/tiny/tiny.yaml" "$src/scenarios/examples/diloco.yaml" "$src/scenarios/examples/events.yaml"
  "$src/scenarios/examples/two-jobs.yaml")
for scen in "${scenarios[@]}"; do
  name=$(basename "$scen" .yaml)
  ref="$tmp/$name.ref.json"
  "$hulk" simulate "$scen" --placement greedy --json -q >"$ref" 2>"$tmp/err" || { fail "$name: simulate --json: $(cat "$tmp/err")"; continue; }
  i=0
  for opts in "--out @" "--out @ --comm-csv" "--out @ --timeline" "--out @ --traces" "--out @ --traces --json" \
      "--out @ --no-comm-csv" "--out @ --comm-csv --timeline --quiet"; do
    i=$((i + 1))
    dir="$tmp/$name.$i"
    # shellcheck disable=SC2086
    "$hulk" simulate "$scen" --placement greedy ${opts//@/$dir} -q >"$tmp/out" 2>"$tmp/err" || { fail "$name $opts: $(cat "$tmp/err")"; continue; }
    why=$(same_result "$ref" "$dir/result.json" 2>&1) || fail "$name $opts: result.json $why"
    case "$opts" in *--json*) why=$(same_result "$ref" "$tmp/out" 2>&1) || fail "$name $opts: printed JSON $why" ;; esac
    case "$opts" in *--comm-csv*|*--traces*) [ -s "$dir/comm.csv" ] || fail "$name $opts: no comm.csv" ;;
      *) [ -e "$dir/comm.csv" ] && fail "$name $opts: a comm.csv nobody asked for" ;; esac
    case "$opts" in *--timeline*|*--traces*) [ -s "$dir/trace.json" ] || fail "$name $opts: no trace.json" ;;
      *) [ -e "$dir/trace.json" ] && fail "$name $opts: a trace.json nobody asked for" ;; esac
  done
done
# --estimate adds its two keys and changes nothing else (where the evaluator applies).
"$hulk" simulate "$tests/data/tiny/tiny.yaml" --placement greedy --json --estimate -q >"$tmp/est.json" 2>"$tmp/err" \
  && { why=$(same_result "$tmp/tiny.ref.json" "$tmp/est.json" evaluator_estimate_s,evaluator_error 2>&1) || fail "--estimate: $why"; } \
  || fail "--estimate: $(cat "$tmp/err")"
echo "$failures failures"
[ "$failures" -eq 0 ]
