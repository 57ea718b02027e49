#!/usr/bin/env bash
# Regenerates the results the docs show: runs build/hulk, writes its outputs into docs/results/ and renders the
# generated blocks of README.md and docs/*.md from them (tools/scripts/docs_render.py). Nothing in those blocks is typed by
# hand; ctest docs.consistency fails when a block no longer matches docs/results/.
# Usage: bash tools/scripts/docs.sh [--skip-slow]   (--skip-slow: keeps the fidelity and scale results already there)
# About 12 minutes on a quiet 2-core machine (reproduce ~1 min, fidelity ~5 min, the scale runs ~5 min).
set -euo pipefail
cd "$(dirname "$0")/../.."
skip_slow=0
[ "${1:-}" = "--skip-slow" ] && skip_slow=1
hulk=build/hulk
[ -x "$hulk" ] || bash tools/scripts/build.sh
out=docs/results
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

step() { echo "docs: $*" >&2; }
step "quick start compare"
"$hulk" compare scenarios/examples/quickstart.yaml --methods round-robin,greedy,search -q >"$work/quickstart.txt"
step "plan example"
"$hulk" plan scenarios/examples/plan-auto.yaml --out runs/docs-plan >"$work/plan.txt"
step "paper reproduction"
"$hulk" reproduce scenarios/paper --out "$work/reproduce" --no-plots -q >"$work/reproduce.txt"
cp "$work/reproduce/reproduce.json" "$work/reproduce/reproduce.csv" "$work/"
if [ "$skip_slow" = 0 ]; then
  step "validation against measured runs (hulk fidelity)"
  "$hulk" fidelity --quiet >"$work/fidelity.txt"
  step "scale (one iteration, 64 to 65,536 GPUs)"
  "$hulk" bench scenarios/scale/scale-{64,256,1024,4096,16384,65536}.yaml --simulation-only --reps 3 \
    --csv "$work/scale.csv" >"$work/scale.txt"
  step "scale under round-robin and random placements (64 and 256 GPUs: every message through SimGrid)"
  "$hulk" bench scenarios/scale/scale-{64,256}.yaml --simulation-only --reps 3 --placement round-robin,random \
    --csv "$work/scale-placements.csv" >"$work/scale-placements.txt"
fi
# Every file lands at once, when all runs have finished: an interrupted run leaves the old results whole.
for f in "$work"/*.txt "$work"/*.csv "$work"/*.json; do mv "$f" "$out/"; done
{
  echo "version: $(git describe --always --dirty 2>/dev/null || echo unknown)"
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/ {print $2}') GB"
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
} >"$out/STAMP"
python3 tools/scripts/docs_render.py
step "done: docs/results/ and the generated blocks of README.md and docs/ are up to date"
