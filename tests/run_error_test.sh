#!/usr/bin/env bash
# Usage: run_error_test.sh MATFUSE SNIPPET.m
# The snippet must exit with status 1, print SNIPPET.err on stderr, and not crash.
set -u
matfuse=$1 script=$2
expected=${script%.m}.err
actual=$(mktemp)
trap 'rm -f "$actual"' EXIT
cd "$(dirname "$script")"
"$matfuse" "$(basename "$script")" >/dev/null 2>"$actual"
status=$?
if [[ $status -ne 1 ]]; then
  echo "FAIL: exit status $status (expected 1)"
  cat "$actual"
  exit 1
fi
if ! diff -u "$expected" "$actual"; then
  echo "FAIL: stderr differs from $(basename "$expected")"
  exit 1
fi
