#!/usr/bin/env bash
# Simulated utilisation of the INTELLECT-1-shaped runs (scenarios/validation/intellect-1, assumptions in its README)
# next to the published figures (arXiv 2412.01152: 96% with every node in the United States, 83% across continents).
# Usage: bash tools/scripts/intellect1.sh   (after tools/scripts/build.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
python=/usr/bin/python3
[ -x "$python" ] || python=python3
printf '%-11s %12s %14s %14s %22s %10s\n' run inner_step_s outer_allreduce_s round_s inner_steps_of_wall published
for run in us:96 continents:83; do
  name="${run%%:*}" published="${run##*:}"
  build/hulk simulate "scenarios/validation/intellect-1/$name.yaml" --json -q | "$python" -c "
import json, sys
s = json.load(sys.stdin)['sync']
print('%-11s %12.3f %14.2f %14.1f %21.1f%% %9s%%' % ('$name', s['inner_iteration_s'], s['outer_allreduce_s'],
      s['round_s'], 100 * s['inner_time_share'], '$published'))"
done
