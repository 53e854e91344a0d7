#!/usr/bin/env bash
# Installs the Debian packages matfuse needs. Usage: tools/install-deps.sh [--test]
#   (no flag)  build dependencies: compiler, CMake, Ninja, OpenBLAS, LAPACKE, readline, and the
#              optional FFTW, PCRE2, libmatio, xeus (the Jupyter kernel), Cairo (figures;
#              DejaVu fonts for its text), date/tz (datetime time zones, with tzdata) and
#              SuiteSparse and ARPACK (sparse direct solvers, eigs), the Vulkan headers and
#              glslang (the Vulkan provider), SLEEF (fast math on the CPU), Open MPI (parpool,
#              parfor and spmd on MPI workers; brings mpirun)
#   --test     also the test dependencies: GoogleTest, Mesa's lavapipe (the Vulkan provider's
#              tests on the CPU), GNU Octave (differential tests), NumPy,
#              nbclient/nbformat/jupyter_client (the kernel's notebook test), clang with its
#              sanitizer and libFuzzer runtimes (tools/sanitize.sh), openmpi-bin (mpirun for the
#              parallel tests)
# Packages already installed are skipped, so this is quick and works offline on a machine that
# has them (the GPU machine has no package registry: there it only checks).
set -euo pipefail
pkgs=(g++ cmake ninja-build pkg-config libopenblas-dev liblapacke-dev libreadline-dev
      libfftw3-dev libpcre2-dev libmatio-dev nlohmann-json3-dev xeus-dev zlib1g-dev libcairo2-dev
      fonts-dejavu-core libhowardhinnant-date-dev tzdata libsuitesparse-dev libarpack2-dev
      libvulkan-dev glslang-dev libsleef-dev libopenmpi-dev)
if [[ "${1:-}" == "--test" ]]; then
  pkgs+=(libgtest-dev mesa-vulkan-drivers octave python3-numpy python3-nbclient python3-nbformat
         python3-jupyter-client clang libclang-rt-14-dev openmpi-bin)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
if command -v apt-get >/dev/null && $sudo apt-get update -qq &&
   $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
  exit 0
fi
# No package registry (or no apt): carry on with what the machine has. CMake reports anything
# that is really required and absent; the optional parts (readline, Octave tests) switch off.
echo "install-deps: could not install ${missing[*]}; continuing with the tools already present" >&2
