#!/usr/bin/env bash
# Outputs a person can read (docs/outputs.md), on the tiny scenario (dp 2 x tp 1 x pp 2): every rank of result.json
# and of a placement file carries its stage, replica and tp index; `place --out` and result.json's placement have one
# shape and both read back; result.json has mfu and compute_time_share and simulate prints MFU; compare runs
# round-robin only when asked (vs_rr n/a, null) and keeps greedy as the reference of vs_greedy; sweep names each
# finished point with its times and the time left, and splits a swept map into one column per leaf.
# Usage: readable_outputs.sh HULK_BINARY TESTS_DIR [SOURCE_DIR]
source "$(dirname "$0")/lib/common.bash" "$@"

# 1. Rank coordinates, one placement shape, read back from either file.
"$hulk" simulate "$tiny" --placement greedy --out "$tmp/sim" >"$tmp/sim.txt" 2>"$tmp/sim.err" ||
  fail "simulate failed: $(cat "$tmp/sim.err")"
"$hulk" place "$tiny" --method greedy --out "$tmp/place.json" 2>"$tmp/place.err" || fail "place failed: $(cat "$tmp/place.err")"
python3 - "$tmp/sim/result.json" "$tmp/place.json" <<'PY' && ok "ranks carry stage/replica/tp_index; one placement shape" || fail "rank coordinates or placement shape"
import json, sys
result, placed = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
par = result["placement"]["parallelism"]
for entries in (result["placement"]["ranks"], placed["ranks"], result["peak_memory_bytes"]):
    for e in entries:
        r = e["rank"]
        # Megatron order: rank = (stage * dp + replica) * tp + tp_index
        assert r == (e["stage"] * par["dp"] + e["replica"]) * par["tp"] + e["tp_index"], e
shape = lambda p: (sorted(k for k in p if k != "method"), [sorted(e) for e in p["ranks"]])
assert shape(result["placement"]) == shape(placed), (shape(result["placement"]), shape(placed))
assert result["placement"]["ranks"] == placed["ranks"], "greedy placed differently in simulate and place"
PY
for file in "$tmp/place.json" "$tmp/sim/result.json"; do
  "$hulk" simulate "$tiny" --placement "file:$file" --json >"$tmp/again.json" 2>"$tmp/again.err" &&
    ok "--placement file: reads $(basename "$file")" || fail "--placement file:$file: $(cat "$tmp/again.err")"
done
# The earlier shape (no coordinates, no region) is still read; a coordinate that contradicts its rank is refused.
python3 - "$tmp/place.json" "$tmp/bare.json" "$tmp/wrong.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
bare = {"parallelism": p["parallelism"], "ranks": [{k: e[k] for k in ("rank", "host", "slot")} for e in p["ranks"]]}
json.dump(bare, open(sys.argv[2], "w"))
p["ranks"][1]["stage"] = 1 - p["ranks"][1]["stage"]
json.dump(p, open(sys.argv[3], "w"))
PY
"$hulk" simulate "$tiny" --placement "file:$tmp/bare.json" --json >/dev/null 2>"$tmp/bare.err" &&
  ok "a placement file without coordinates is read" || fail "bare placement file: $(cat "$tmp/bare.err")"
expect_refusal "a contradicting stage is refused" "ranks\[1\]\.stage" \
  "$hulk" simulate "$tiny" --placement "file:$tmp/wrong.json" --json

# 2. MFU and the compute time share: in result.json and in the printed summary.
python3 - "$tmp/sim/result.json" <<'PY' && ok "result.json has mfu and compute_time_share" || fail "mfu / compute_time_share in result.json"
import json, sys
r = json.load(open(sys.argv[1]))
assert 0 < r["mfu"] <= 0.4 + 1e-12, r["mfu"]  # at most the job's utilisation (0.4): its compute runs at that rate
assert abs(r["compute_time_share"] - r["compute_s"] / r["iteration_time_s"]) < 1e-12, r
assert "compute_utilisation" not in json.dumps(r)
PY
grep -Eq "^MFU +[0-9.]+% \(model FLOP/s over the peak of the 4 GPUs used\)" "$tmp/sim.txt" &&
  ok "simulate prints MFU" || { fail "simulate summary has no MFU line:"; cat "$tmp/sim.txt"; }

# 3. compare: round-robin only when asked; greedy always the reference of vs_greedy.
"$hulk" compare "$tiny" --methods search --budget 200 --out "$tmp/c.json" >"$tmp/c.txt" 2>"$tmp/c.err" ||
  fail "compare --methods search failed: $(cat "$tmp/c.err")"
grep -q "round-robin" "$tmp/c.err" && fail "compare without round-robin in --methods ran it: $(cat "$tmp/c.err")"
grep -q "\] greedy: " "$tmp/c.err" || fail "compare did not run greedy as its reference: $(cat "$tmp/c.err")"
awk '$1 == "search" { exit !($3 == "n/a" && $4 != "n/a") }' "$tmp/c.txt" && ok "vs_rr n/a, vs_greedy given" ||
  { fail "compare table without round-robin:"; cat "$tmp/c.txt"; }
python3 - "$tmp/c.json" <<'PY' && ok "speedup_vs_round_robin null, gaps as ratios" || fail "compare JSON without round-robin"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["speedup_vs_round_robin"] is None and r["speedup_vs_greedy"] > 0, r
assert r["gap_to_lower_bound"] >= 0 and 0 < r["mfu"] <= 0.4 + 1e-12, r
PY
# The table prints the JSON's gap (a ratio, 4 significant digits).
python3 - "$tmp/c.json" "$tmp/c.txt" <<'PY' && ok "gap_lb in the table is the JSON's ratio" || fail "gap_lb unit differs"
import json, sys
gap = json.load(open(sys.argv[1]))["results"][0]["gap_to_lower_bound"]
row = next(l.split() for l in open(sys.argv[2]) if l.startswith("search "))
assert abs(float(row[4]) - gap) <= 1e-3 * max(gap, 1e-3), (row, gap)
PY

# 4. sweep: progress names each point with its times and the time left; a swept map is one column per leaf.
"$hulk" sweep "$tiny" --set 'regions.east.host_link={bandwidth: 10Gbps, latency: 50us},{bandwidth: 25Gbps, latency: 50us}' \
  --methods greedy --out "$tmp/sw" 2>"$tmp/sw.err" || fail "sweep failed: $(cat "$tmp/sw.err")"
grep -Eq '^sweep: \[1/2\] regions.east.host_link=\{bandwidth: 10Gbps, latency: 50us\}: greedy [0-9.e-]+ s per iteration; about .+ left$' "$tmp/sw.err" &&
  grep -Eq '^sweep: \[2/2\] .*: greedy [0-9.e-]+ s per iteration; done$' "$tmp/sw.err" &&
  ok "sweep progress names points, times and the time left" || { fail "sweep progress:"; cat "$tmp/sw.err"; }
head -n 1 "$tmp/sw/sweep.csv" | grep -q '^point,regions.east.host_link.bandwidth,regions.east.host_link.latency,method,' &&
  ! grep -q '"' "$tmp/sw/sweep.csv" && grep -q '^1,25Gbps,50us,greedy,1,' "$tmp/sw/sweep.csv" &&
  ok "a swept map is one column per leaf, no quoted value" || { fail "sweep CSV:"; cat "$tmp/sw/sweep.csv"; }

echo "$failures failures"
[ "$failures" -eq 0 ]
