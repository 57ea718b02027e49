#!/usr/bin/env bash
# The README's main command: install packages, build, reproduce the paper's claim on the bundled scenarios.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tools/scripts/install-deps.sh
bash tools/scripts/build.sh
build/hulk reproduce scenarios/paper --out runs/reproduce "$@"
