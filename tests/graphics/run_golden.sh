#!/usr/bin/env bash
# Golden-image test: renders tests/graphics/gallery.m and compares every PNG with
# tests/graphics/golden/NAME.png (png_tool compare). With --update, rewrites the goldens and
# docs/plots.png (a montage of them) instead.
# Usage: run_golden.sh MATFUSE PNG_TOOL [--update]
set -u
matfuse=$1 tool=$2 mode=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if ! (cd "$here" && GFX_OUT="$out" "$matfuse" gallery.m); then
  echo "FAIL: gallery.m did not run"
  exit 1
fi
if [[ "$mode" == "--update" ]]; then
  rm -f "$here"/golden/*.png
  cp "$out"/*.png "$here/golden/"
  "$tool" montage "$here/../../docs/plots.png" 6 "$here"/golden/*.png
  echo "updated $(ls "$here"/golden/*.png | wc -l) golden images and docs/plots.png"
  exit 0
fi
fail=0
for g in "$here"/golden/*.png; do
  name=$(basename "$g")
  if [[ ! -f "$out/$name" ]]; then
    echo "FAIL: $name was not produced"
    fail=1
    continue
  fi
  if ! r=$("$tool" compare "$g" "$out/$name"); then
    echo "FAIL: $name: $r"
    fail=1
  fi
done
for a in "$out"/*.png; do
  [[ -f "$here/golden/$(basename "$a")" ]] || { echo "FAIL: no golden for $(basename "$a")"; fail=1; }
done
exit $fail
