# `hulk fidelity` on the tiny manifest of tests/data/fidelity: the table's structure, the calibration point's error
# ~0, the other points simulated, deterministic stdout; `--layouts` (the plan's ranking of the two layouts of one
# job); and bad manifests refused with one line (file:line: key), exit 2.
# Arguments: HULK_BINARY TESTS_DIR [SOURCE_DIR].
source "$(dirname "$0")/lib/common.bash"
data="$tests/data/fidelity"

# --- the table ---
if "$hulk" fidelity "$data" >"$tmp/out1" 2>"$tmp/err1"; then ok "fidelity runs"; else fail "fidelity exit $?"; cat "$tmp/err1"; fi
grep -q '^series  *case  *measured_s  *simulated_s  *error  *source$' "$tmp/out1" && ok "header" || fail "header missing"
rows=$(grep -c '^tiny-a100 ' "$tmp/out1")
[ "$rows" -eq 3 ] && ok "three rows" || fail "expected 3 rows of tiny-a100, got $rows"
# The calibration row: measured 2.000 s, simulated 2.000 s, error +0.00% (cal).
grep -q '^tiny-a100  *base  *2\.000  *2\.000  *+0\.00% (cal)  *synthetic test value$' "$tmp/out1" \
  && ok "calibration error ~0" || { fail "calibration row"; grep '^tiny-a100' "$tmp/out1"; }
# tokens/s -> 16 x 512 / 2048 = 4.000 s; every non-calibration row has a simulated time and a signed error.
grep -q '^tiny-a100  *slow-wan  *4\.000  *[0-9.]*  *[+-][0-9.]*%  *synthetic' "$tmp/out1" && ok "tokens/s row" || fail "tokens/s row"
grep -q '^tiny-a100  *dp4  *[0-9.]*  *[0-9.]*  *[+-][0-9.]*%  *synthetic' "$tmp/out1" && ok "TFLOP/s row" || fail "TFLOP/s row"
grep -q '^tiny-a100: utilisation 0\.[0-9]\{4\} (calibrated on base, [0-9]* simulations); 2 points besides calibration: median |error| [0-9.]*%, max |error| [0-9.]*%$' \
  "$tmp/out1" && ok "series summary" || { fail "series summary"; tail -3 "$tmp/out1"; }
grep -q '^all series: 2 points besides calibration' "$tmp/out1" && ok "overall summary" || fail "overall summary"
grep -q '^fidelity: \[tiny-a100\] base: utilisation' "$tmp/err1" && ok "progress on stderr" || fail "no progress on stderr"
grep -q 'fidelity:' "$tmp/out1" && fail "progress on stdout" || ok "stdout has no progress"
"$hulk" fidelity "$data/measured.yaml" --quiet >"$tmp/out2" 2>"$tmp/err2"
cmp -s "$tmp/out1" "$tmp/out2" && ok "deterministic (manifest file given, --quiet)" || fail "stdout differs between runs"
[ -s "$tmp/err2" ] && fail "--quiet printed on stderr" || ok "--quiet is quiet"

# --- --layouts: base and dp4 are one job in two layouts on the same hardware (slow-wan has another WAN) ---
if "$hulk" fidelity "$data" --layouts >"$tmp/lay" 2>"$tmp/lay.err"; then ok "fidelity --layouts runs"; else
  fail "fidelity --layouts exit $?"; cat "$tmp/lay.err"; fi
python3 - "$tmp/lay" <<'PY' && ok "--layouts: one group of two, ranks and tau agree with the printed times" ||
import math, re, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0].startswith("tiny-a100, 4 layers, hidden 1024, global batch 16 (utilisation 0."), lines[0]
rows = [l.split() for l in lines if re.match(r"^  (base|dp4) ", l)]
assert [r[0] for r in rows] == ["base", "dp4"], rows
assert [r[1] for r in rows] == ["dp2-tp1-pp2", "dp4-tp1-pp2"], rows
measured, plan = [float(r[2]) for r in rows], [float(r[6]) for r in rows]
assert measured[0] == 2.0  # base is given in seconds (tests/data/fidelity/measured.yaml)
for values, col in ((measured, 3), (plan, 7)):
    for r, v in zip(rows, values):
        assert int(r[col]) == 1 + sum(w < v for w in values), (r, values)
tau = 1.0 if (measured[0] - measured[1]) * (plan[0] - plan[1]) > 0 else -1.0
assert any(l.strip() == "Kendall tau (measured vs plan_s ranking): %g over 2 layouts" % tau for l in lines), lines
assert any(l.startswith("  plan's own choice (degrees free): dp") for l in lines), lines
PY
  { fail "--layouts table"; cat "$tmp/lay"; }
grep -q '^plan: .* layouts, .* feasible' "$tmp/lay.err" && ok "--layouts: the plans' progress on stderr" ||
  fail "--layouts: no plan progress"

# --- bad manifests: one line, exit 2, file:line: key ---
mkdir -p "$tmp/bad"
cp "$data"/*.yaml "$tmp/bad/"
bad() {  # bad NAME PATTERN SED-EXPRESSION
  sed -e "$3" "$data/measured.yaml" >"$tmp/bad/measured.yaml"
  expect_refusal "$1" "$2" "$hulk" fidelity "$tmp/bad"
}
bad "unknown key" "measured.yaml:11: points.0.calibrat: unknown key 'calibrat' (did you mean 'calibrate'?)" \
  's/    calibrate: true/    calibrat: true/'
bad "no calibration point" "measured.yaml:5: points.0.series: series 'tiny-a100' has no point with 'calibrate: true'" \
  '/calibrate: true/d'
bad "two calibration points" "measured.yaml:[0-9]*: points.1.calibrate: series 'tiny-a100' already has its calibration point" \
  's/    case: slow-wan/    case: slow-wan\n    calibrate: true/'
bad "bad unit" "measured.yaml:[0-9]*: points.1.unit: .*tokens/h" 's#unit: tokens/s#unit: tokens/h#'
bad "measured not positive" "measured.yaml:[0-9]*: points.0.measured: '-0.5' is not a positive number" 's/measured: 2.0/measured: -0.5/'
bad "missing scenario" "measured.yaml:[0-9]*: points.2.scenario: 'nope.yaml' is not a file" 's/two-region-dp4.yaml/nope.yaml/'
bad "case twice" "measured.yaml:[0-9]*: points.2.case: case 'base' of series 'tiny-a100' is already at points.0" 's/case: dp4/case: base/'
bad "missing key" "measured.yaml:12: points.1.source: missing key 'source'" '17d'
expect_refusal "unknown series" "measured.yaml: --series: unknown series 'nope'" "$hulk" fidelity "$data" --series nope
expect_refusal "no manifest" "no such manifest" "$hulk" fidelity "$tmp/none"

echo "fidelity: $failures failure(s)"
[ "$failures" -eq 0 ]
