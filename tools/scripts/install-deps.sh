#!/usr/bin/env bash
# Installs every Debian 12 package hulk needs to build, test and plot (slurm-wlm and munge: the cluster.slurm test
# runs tools/cluster/ on a single-node Slurm it starts; clang and its runtime: the libFuzzer build of tools/scripts/fuzz.sh;
# chromium and a font: the cli.html_report test opens the HTML reports in a headless browser).
# Idempotent; needs root (or sudo).
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
PACKAGES="cmake g++ make pkg-config libsimgrid-dev libtorch-dev libboost-graph-dev libyaml-cpp-dev libgtest-dev
  libgmock-dev libopenblas0-pthread libcli11-dev nlohmann-json3-dev libbenchmark-dev libjemalloc-dev python3 python3-matplotlib
  slurm-wlm munge clang libclang-rt-14-dev chromium fonts-dejavu-core"
missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "installing:$missing" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >&2
fi
