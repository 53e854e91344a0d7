#!/usr/bin/env bash
# Carries the libraries of matfuse's optional features (PCRE2: regexp; libmatio + HDF5:
# save/load; readline: the prompt; Cairo: figures; FFTW: fft; date/tz: datetime time zones;
# SuiteSparse: sparse direct solvers; ARPACK: eigs; Vulkan and glslang: the Vulkan provider;
# Open MPI: parpool, parfor and spmd on MPI workers) to
# a machine that has no package registry or lacks their -dev packages (the GPU machine, Ubuntu
# 24.04), as Debian 12 packages unpacked into a prefix inside the tree.
#
#   tools/device-debs.sh download [--have FILE]   (on Debian 12 with apt: fills .debs/)
#       Downloads the -dev packages of the features and the libraries they need (recursively,
#       library packages only), except the base libraries every Ubuntu 24.04 has and the
#       packages named in FILE (one name a line, e.g. `dpkg-query -W -f='${Package}\n'` on the
#       target; Debian and Ubuntu names differ for t64 libraries, so this only trims).
#   tools/device-debs.sh unpack [PREFIX]          (on the target; needs dpkg-deb, or ar + tar)
#       Unpacks every .deb of .debs/ into PREFIX (default .debs/prefix), makes the .so links
#       and pkg-config files point into PREFIX, lists shared libraries that still cannot be
#       resolved (ldd), and prints the CMake arguments, e.g.
#         cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release $(tools/device-debs.sh cmake-args)
#   tools/device-debs.sh cmake-args [PREFIX]      prints only those arguments.
# The binary finds the carried libraries at run time through its RPATH (CMAKE_BUILD_RPATH and
# CMAKE_INSTALL_RPATH are set to PREFIX's library folder), so no LD_LIBRARY_PATH is needed. The
# RPATH is an old-style DT_RPATH (--disable-new-dtags): unlike DT_RUNPATH it also serves the
# carried libraries' own dependencies (Cairo's pixman, HDF5's curl ...); -rpath-link lets the
# linker resolve those at build time.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
debs="$root/.debs"
arch_dir=x86_64-linux-gnu

# The -dev packages of the optional features, and data Cairo needs to draw text; the Vulkan
# headers and loader and glslang's static libraries (the Vulkan provider: the GPU's own driver
# provides the ICD; NVIDIA's, libGLX_nvidia, creates no Vulkan instance unless glvnd's libraries
# are at hand: libglvnd0, libegl1, libgl1, libglx0, libopengl0, libgles2); Open MPI (parpool,
# parfor and spmd workers, mpirun).
features=(libpcre2-dev libmatio-dev libreadline-dev libfftw3-dev libcairo2-dev
          libhowardhinnant-date-dev fontconfig-config fonts-dejavu-core libsuitesparse-dev libarpack2-dev
          libvulkan-dev libvulkan1 libglvnd0 libegl1 libgl1 libglx0 libopengl0 libgles2 glslang-dev spirv-tools
          libsleef-dev libopenmpi-dev)
# Present on every Ubuntu 24.04 (or part of the toolchain; BLAS and LAPACK: the machine's own
# OpenBLAS serves libblas.so.3 and liblapack.so.3): never carried.
base='^(libc6|libc6-dev|libc-dev-bin|libgcc-s1|libstdc\+\+6|gcc-12-base|libcrypt1|libcrypt-dev|
libselinux1|libselinux1-dev|libsepol2|libsepol-dev|libpcre3|libtinfo6|libncursesw6|libncurses6|
libssl3|libzstd1|liblzma5|libbz2-1.0|libgmp10|libffi8|libacl1|libattr1|libaudit1|libcap2|
libdb5.3|libudev1|libsystemd0|libmount1|libblkid1|libuuid1|linux-libc-dev|libgdbm6|
libgdbm-compat4|libperl5.36|libpython3.*|libdebian-installer4|libnewt0.52|libslang2|
libtextwrap1|libglib2.0-.*|libmount-dev|libblkid-dev|libffi-dev|libsm-dev|libice-dev|libsm6|
libice6|libcairo-script-interpreter2|libcairo-gobject2|libhdf5-fortran-.*|libhdf5-hl-fortran-.*|
libgfortran5|libquadmath0|libopenblas.*|libblis.*|libatlas.*|libblas3|libblas-dev|liblapack3|liblapack-dev|libhdf5-cpp-.*|libhdf5-hl-cpp-.*|libfftw3-bin|libcurl4-.*-dev|
libcurl3-nss|libcurl4-nss-dev|libssl-dev|libnss3|libnspr4|libtirpc.*|libnsl.*|libjpeg.*|
libkrb5-3|libgssapi-krb5-2|libk5crypto3|libkrb5support0|libkeyutils1|libcom-err2|
libsasl2-.*|libgnutls30|libnettle8|libhogweed6|libp11-kit0|libtasn1-6|libidn2-0|libunistring2|
libpsl5|libnghttp2-14|librtmp1|libelf1|libsqlite3-0|libpkgconf3|
libexpat1)$'
base="${base//$'\n'/}"

download() {
  local have=""
  if [[ "${1:-}" == "--have" ]]; then have="$2"; fi
  command -v apt-get >/dev/null || { echo "device-debs: needs apt-get (Debian 12)" >&2; exit 2; }
  mapfile -t pkgs < <(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
      --no-breaks --no-replaces --no-enhances "${features[@]}" 2>/dev/null |
    grep -v '^[ <]' | sort -u | grep -E '^(lib|fontconfig-config$|fonts-dejavu-core$|glslang-dev$|spirv-tools$|openmpi-bin$|openmpi-common$|x11proto|xtrans|zlib1g)' |
    grep -Ev "$base")
  if [[ -n "$have" ]]; then
    mapfile -t pkgs < <(printf '%s\n' "${pkgs[@]}" | grep -vxF -f "$have")
  fi
  mkdir -p "$debs"
  (cd "$debs" && apt-get download "${pkgs[@]}" >/dev/null)
  echo "device-debs: ${#pkgs[@]} packages, $(du -sh "$debs" --exclude=prefix | cut -f1) in $debs"
}

prefix_of() { echo "${1:-$debs/prefix}"; }

cmake_args() {
  local p lib
  p="$(prefix_of "${1:-}")"
  lib="$p/usr/lib/$arch_dir"
  echo "-DCMAKE_PREFIX_PATH=$p/usr -DCMAKE_LIBRARY_PATH=$lib -DCMAKE_INCLUDE_PATH=$p/usr/include" \
       "-DCMAKE_BUILD_RPATH=$lib -DCMAKE_INSTALL_RPATH=$lib" \
       "-DCMAKE_EXE_LINKER_FLAGS=-Wl,--disable-new-dtags,-rpath-link,$lib"
}

unpack() {
  local p lib
  p="$(prefix_of "${1:-}")"
  lib="$p/usr/lib/$arch_dir"
  mkdir -p "$p"
  shopt -s nullglob
  local n=0
  for d in "$debs"/*.deb; do
    if command -v dpkg-deb >/dev/null; then
      dpkg-deb -x "$d" "$p"
    else
      local t
      t="$(mktemp -d)"
      (cd "$t" && ar x "$d" && tar -xf data.tar.* -C "$p")
      rm -rf "$t"
    fi
    n=$((n + 1))
  done
  # Absolute links (libfoo.so -> /lib/...) point into the prefix instead.
  while IFS= read -r l; do
    local target
    target="$(readlink "$l")"
    if [[ "$target" == /* && -e "$p$target" ]]; then ln -sfn "$p$target" "$l"; fi
  done < <(find "$p" -type l)
  # pkg-config files: /usr -> the carried prefix; cairo without its GLib parts (cairo-gobject
  # is not carried).
  while IFS= read -r pc; do
    sed -i -E "s#^(prefix|exec_prefix|libdir|includedir)=/usr#\\1=$p/usr#" "$pc"
  done < <(find "$p" -name '*.pc')
  if [[ -f "$lib/pkgconfig/cairo.pc" ]]; then
    sed -i -E 's/gobject-2\.0 glib-2\.0 >= [0-9.]+//' "$lib/pkgconfig/cairo.pc"
  fi
  echo "device-debs: unpacked $n packages into $p"
  # Libraries that still cannot be resolved on this machine.
  local missing
  missing="$(for so in "$lib"/*.so.*; do
      [[ -f "$so" ]] && LD_LIBRARY_PATH="$lib" ldd "$so" 2>/dev/null | grep 'not found'
    done | sort -u || true)"
  if [[ -n "$missing" ]]; then
    echo "device-debs: unresolved shared libraries (carry their packages too):" >&2
    echo "$missing" >&2
  fi
  echo "export PKG_CONFIG_PATH=$lib/pkgconfig:$p/usr/share/pkgconfig\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}"
  echo "cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release $(cmake_args "$p")"
}

case "${1:-}" in
  download) shift; download "$@" ;;
  unpack) shift; unpack "$@" ;;
  cmake-args) shift; cmake_args "$@" ;;
  *) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
