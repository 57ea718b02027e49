#!/usr/bin/env bash
# The README's test command: install packages, build, run every test (unit, simulation, GNN, end-to-end).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tools/scripts/install-deps.sh
bash tools/scripts/build.sh
ctest --test-dir build -j2 --output-on-failure --timeout 600
