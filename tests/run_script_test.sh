#!/usr/bin/env bash
# Usage: run_script_test.sh MATFUSE SCRIPT.m
# Runs the script (from its own folder) and compares stdout with SCRIPT.out.
set -u
matfuse=$1 script=$2
expected=${script%.m}.out
actual=$(mktemp)
trap 'rm -f "$actual"' EXIT
cd "$(dirname "$script")"
"$matfuse" "$(basename "$script")" >"$actual" 2>&1
status=$?
if ! diff -u "$expected" "$actual"; then
  echo "FAIL: output of $(basename "$script") differs from $(basename "$expected")"
  exit 1
fi
if [[ $status -ne 0 ]]; then
  echo "FAIL: exit status $status"
  exit 1
fi
