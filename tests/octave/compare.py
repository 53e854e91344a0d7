#!/usr/bin/env python3
"""Differential test: run every tests/scripts/*.m under matfuse and GNU Octave and compare the
numbers they print.

Numbers are compared in order. Two numbers agree when they are within a relative 1e-9, or within
one unit of the last digit either side printed (display formats round). Scripts that use features
Octave lacks or that differ by design are listed in skip.txt ("name: reason") and reported as
skipped; a script not in skip.txt that Octave cannot run is a failure, so the list stays honest.

Usage: compare.py --matfuse PATH --octave PATH SCRIPTS_DIR
Exit status 0 when every compared script agrees.
"""
import argparse
import math
import os
import re
import subprocess
import sys

NUM = re.compile(r"(?<![A-Za-z_0-9.])([-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|Inf|NaN))(?![A-Za-z_0-9])")


def numbers(text):
    out = []
    for m in NUM.finditer(text):
        tok = m.group(1)
        if tok.lstrip("+-") == "Inf":
            out.append((float(tok.replace("Inf", "inf")), 0.0))
        elif tok == "NaN":
            out.append((math.nan, 0.0))
        else:
            mant = re.split(r"[eE]", tok)[0]
            exp = int(re.split(r"[eE]", tok)[1]) if re.search(r"[eE]", tok) else 0
            decimals = len(mant.split(".")[1]) if "." in mant else 0
            out.append((float(tok), 10.0 ** (exp - decimals)))
    return out


def agree(a, b):
    (x, ux), (y, uy) = a, b
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    if math.isinf(x) or math.isinf(y):
        return x == y
    tol = max(1e-9 * max(abs(x), abs(y)), ux, uy)
    return abs(x - y) <= tol * (1 + 1e-12)


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--matfuse", required=True)
    ap.add_argument("--octave", required=True)
    ap.add_argument("scripts")
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    skip = {}
    with open(os.path.join(here, "skip.txt")) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, reason = line.partition(":")
                skip[name.strip()] = reason.strip()
    # Octave needs a graphics toolkit for figure/hold/plot; without one (no display, no
    # gnuplot) the scripts' graphics calls resolve to the no-op stand-ins in nographics/, since
    # only printed numbers are compared.
    octave_cmd = [args.octave, "--no-gui", "--quiet", "--norc", "--no-window-system"]
    probe = subprocess.run(octave_cmd + ["--eval", "try, figure('visible', 'off'); hold on; plot(1:3); "
                                         "close all; disp('toolkit ok'); "
                                         "catch, disp('no toolkit'); end"],
                           capture_output=True, text=True, timeout=120)
    if "toolkit ok" not in probe.stdout:
        octave_cmd += ["--path", os.path.join(here, "nographics")]
        print("octave: no usable graphics toolkit; graphics calls are no-ops in its runs")
    passed = failed = skipped = 0
    for fname in sorted(os.listdir(args.scripts)):
        if not fname.endswith(".m"):
            continue
        name = fname[:-2]
        if name in skip:
            print(f"SKIP {name}: {skip[name]}")
            skipped += 1
            continue
        # Only top-level scripts are compared; helper function files live beside them.
        with open(os.path.join(args.scripts, fname)) as f:
            if f.read().lstrip().startswith("function"):
                continue
        rc_o, out_o, err_o = run(octave_cmd + [fname], args.scripts)
        rc_m, out_m, err_m = run([os.path.abspath(args.matfuse), fname], args.scripts)
        if rc_o != 0:
            print(f"FAIL {name}: Octave could not run it (add it to skip.txt with a reason):\n  {err_o.strip()[:300]}")
            failed += 1
            continue
        if rc_m != 0:
            print(f"FAIL {name}: matfuse exited {rc_m}:\n  {err_m.strip()[:300]}")
            failed += 1
            continue
        a, b = numbers(out_m), numbers(out_o)
        bad = None
        if len(a) != len(b):
            bad = f"matfuse printed {len(a)} numbers, Octave {len(b)}"
        else:
            for i, (x, y) in enumerate(zip(a, b)):
                if not agree(x, y):
                    bad = f"number {i + 1}: matfuse {x[0]!r}, Octave {y[0]!r}"
                    break
        if bad:
            print(f"FAIL {name}: {bad}")
            failed += 1
        else:
            print(f"PASS {name} ({len(a)} numbers)")
            passed += 1
    print(f"octave: {passed} passed, {failed} failed, {skipped} skipped")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
