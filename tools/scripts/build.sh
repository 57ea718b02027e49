#!/usr/bin/env bash
# Configures and builds hulk into build/ (Release, 2 jobs: a torch translation unit needs ~1.3 GB).
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j2
