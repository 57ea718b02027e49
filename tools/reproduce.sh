#!/usr/bin/env bash
# The README's main command: install packages, build, reproduce the paper's claim on the bundled scenarios.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
bash tools/build.sh
build/hulk reproduce scenarios/paper --out runs/reproduce "$@"
