#!/usr/bin/env bash
# Installs the Debian packages matfuse needs. Usage: tools/install-deps.sh [--test]
#   (no flag)  build dependencies: compiler, CMake, Ninja, OpenBLAS, LAPACKE, readline
#   --test     also the test dependencies: GoogleTest, GNU Octave (differential tests), NumPy
# Packages already installed are skipped, so this is quick and works offline on a machine that
# has them (the GPU machine has no package registry: there it only checks).
set -euo pipefail
pkgs=(g++ cmake ninja-build pkg-config libopenblas-dev liblapacke-dev libreadline-dev)
if [[ "${1:-}" == "--test" ]]; then
  pkgs+=(libgtest-dev octave python3-numpy)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "install-deps: missing packages ${missing[*]} and no apt-get to install them" >&2
  exit 1
fi
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
