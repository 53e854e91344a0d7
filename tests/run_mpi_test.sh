#!/usr/bin/env bash
# Usage: run_mpi_test.sh MATFUSE MPIEXEC NP SCRIPT.m
#   Runs SCRIPT.m serially and under `MPIEXEC -np NP` (rank 0 runs the script, the ranks are its
#   parallel pool); both must exit with status 0 and print the same output on stdout (stderr is
#   shown on failure only: MPI may write its own notices there).
# Usage: run_mpi_test.sh MATFUSE spawn SCRIPT.m
#   Runs SCRIPT.m (which opens a pool with parpool, spawning MPI workers); it must exit with
#   status 0 and print SCRIPT.out.
# Exit status 77 (ctest: skipped) when the MPI launcher is missing.
set -u
matfuse=$1 mode=$2
if [[ $(id -u) -eq 0 ]]; then
  # Open MPI refuses to run as root unless told (containers often run tests as root).
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# More ranks than cores (CI has two).
export OMPI_MCA_rmaps_base_oversubscribe=1
# Containers: no cross-memory-attach single copy (it needs ptrace rights some containers lack,
# and then prints read errors), and no warning for network components found unusable.
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_btl_base_warn_component_unused=0
out_serial=$(mktemp) out_par=$(mktemp) err=$(mktemp)
trap 'rm -f "$out_serial" "$out_par" "$err"' EXIT
if [[ $mode == spawn ]]; then
  script=$3
  cd "$(dirname "$script")"
  timeout 120 "$matfuse" "$(basename "$script")" >"$out_par" 2>"$err"
  status=$?
  if [[ $status -ne 0 ]]; then
    echo "FAIL: exit status $status"
    cat "$out_par" "$err"
    exit 1
  fi
  diff -u "${script%.m}.out" "$out_par" || { echo "FAIL: output differs"; cat "$err"; exit 1; }
  exit 0
fi
mpiexec=$mode np=$3 script=$4
command -v "$mpiexec" >/dev/null || { echo "SKIP: $mpiexec not found"; exit 77; }
cd "$(dirname "$script")"
"$matfuse" "$(basename "$script")" >"$out_serial" 2>"$err" || {
  echo "FAIL: the serial run failed"
  cat "$out_serial" "$err"
  exit 1
}
timeout 120 "$mpiexec" -np "$np" "$matfuse" "$(basename "$script")" >"$out_par" 2>"$err"
status=$?
if [[ $status -ne 0 ]]; then
  echo "FAIL: mpiexec -np $np exit status $status"
  cat "$out_par" "$err"
  exit 1
fi
diff -u "$out_serial" "$out_par" || {
  echo "FAIL: -np $np output differs from the serial run"
  cat "$err"
  exit 1
}
