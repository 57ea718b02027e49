#!/usr/bin/env bash
# DiLoCo jobs (job.sync): `simulate --estimate` gives the step-time estimate against SimGrid's time per step, and the
# gnn methods place islands first: on generated scenarios where each region holds exactly k replicas' GPUs behind a
# 1 Gbit/s WAN, gnn and gnn+refine (the committed model) come within 1.1x of one pipeline per region in SimGrid's
# time per step (greedy and search: tests/sim/island_first_test.cpp). Usage: diloco_islands.sh HULK_BINARY TESTS_DIR
# SOURCE_DIR
source "$(dirname "$0")/lib/common.bash" "$@"
src="$(readlink -f "$3")"

# 1. --estimate on a DiLoCo job: the estimate and its error against objective_s (the time per step).
"$hulk" simulate "$src/scenarios/examples/diloco.yaml" --placement greedy --estimate --json >"$tmp/est.json" \
  2>"$tmp/est.err" &&
  python3 -c "
import json, math, sys
r = json.load(open(sys.argv[1]))
e, t = r['evaluator_estimate_s'], r['objective_s']
assert e > 0 and math.isfinite(e), r
assert abs(r['evaluator_error'] - (e / t - 1)) < 1e-12, r
assert abs(r['evaluator_error']) < 0.5, r
" "$tmp/est.json" && ok "simulate --estimate on a DiLoCo job" || fail "simulate --estimate (diloco): $(cat "$tmp/est.err")"
# A refusal comes before anything is placed or simulated: nothing on stdout.
expect_refusal "--estimate with events refused" "--estimate" \
  "$hulk" simulate "$src/scenarios/examples/events.yaml" --placement round-robin --estimate
[ -s "$tmp/out" ] && fail "--estimate with events printed before refusing: $(head -3 "$tmp/out")"

# 2. Held out: generated shapes REGIONS HOSTS GPUS PER_REGION TP PP.
for shape in "3 2 4 1 4 2" "4 2 2 2 1 2"; do
  read -r R H G K TP PP <<<"$shape"
  name="islands-$R-$H-$G-$K"
  python3 - "$tmp" "$name" $R $H $G $K $TP $PP <<'PY' || { fail "$name: generating"; continue; }
import json, sys
tmp, name = sys.argv[1], sys.argv[2]
R, H, G, K, TP, PP = map(int, sys.argv[3:])
regions = "\n".join(f"    - {{name: r{r}, hosts: {H}, gpus_per_host: {G}, gpu: {{name: gpu100, flops: 100Tf, "
                    f"memory: 80GB}}, host_link: {{bandwidth: 10Gbps, latency: 50us}}}}" for r in range(R))
dp = R * K
open(f"{tmp}/{name}.yaml", "w").write(f"""name: {name}
seed: 1
platform:
  regions:
{regions}
  wan:
    default: {{bandwidth: 1Gbps, latency: 40ms}}
job:
  model: {{layers: 8, hidden: 1024, heads: 16, seq_len: 128, vocab: 1}}
  global_batch: {dp * 4}
  micro_batch: 1
  parallelism: {{dp: {dp}, tp: {TP}, pp: {PP}}}
  utilisation: 1.0
  sync: {{algorithm: diloco, inner_steps: 100, islands: region, compression: int8}}
""")
ranks = []
for d in range(dp):
    for s in range(PP):
        for t in range(TP):
            i = (s * K + d % K) * TP + t  # the i-th GPU of its region: stage by stage, the stage's replicas in turn
            ranks.append({"rank": (s * dp + d) * TP + t, "host": f"r{d // K}-{i // G}", "slot": i % G})
json.dump({"parallelism": {"dp": dp, "tp": TP, "pp": PP}, "ranks": sorted(ranks, key=lambda x: x["rank"])},
          open(f"{tmp}/{name}-ref.json", "w"))
PY
  step() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['objective_s'])" "$1"; }
  "$hulk" simulate "$tmp/$name.yaml" --placement "file:$tmp/$name-ref.json" --json >"$tmp/ref.json" 2>"$tmp/err" ||
    { fail "$name: reference run: $(cat "$tmp/err")"; continue; }
  ref="$(step "$tmp/ref.json")"
  for m in gnn gnn+refine; do
    if "$hulk" place "$tmp/$name.yaml" --method "$m" --out "$tmp/p.json" >/dev/null 2>"$tmp/err" &&
       "$hulk" simulate "$tmp/$name.yaml" --placement "file:$tmp/p.json" --json >"$tmp/m.json" 2>>"$tmp/err"; then
      t="$(step "$tmp/m.json")"
      python3 -c "import sys; sys.exit(float(sys.argv[1]) > 1.1 * float(sys.argv[2]))" "$t" "$ref" &&
        ok "$m on $name: $t s per step, one pipeline per region $ref s" ||
        fail "$m on $name: $t s per step, above 1.1x one pipeline per region ($ref s)"
    else
      fail "$m on $name: $(cat "$tmp/err")"
    fi
  done
done
echo "$failures failures"
[ "$failures" -eq 0 ]
