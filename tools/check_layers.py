#!/usr/bin/env python3
"""Checks the include graph of src/ against the layer order (DESIGN.md layout).

Layers, lowest first: runtime, lang, accel, providers, builtins, graphics, interp, parallel, cli. A file may include
headers of its own layer and of lower layers only. The provider interface is accel's own
(accel/run/provider.h): providers implement it, accel includes nothing of providers/. Prints each violation and the folder-level edges; exits 1 on a violation.
"""
import os
import re
import sys

ORDER = ["runtime", "lang", "accel", "providers", "builtins", "graphics", "interp", "parallel", "cli"]
SEAM = {"accel/run/provider.h"}  # part of the accel layer


def layer_of(path):
    if path in SEAM:
        return "accel"
    top = path.split("/")[0]
    return top if top in ORDER else None


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
    bad = []
    edges = {}
    for dirpath, _, files in os.walk(root):
        for f in files:
            if not f.endswith((".h", ".cc", ".inc", ".def", ".in")):
                continue
            full = os.path.join(dirpath, f)
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            src_layer = layer_of(rel)
            if src_layer is None:
                continue
            with open(full, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            for target in inc.findall(text):
                dst_layer = layer_of(target)
                if dst_layer is None or dst_layer == src_layer:
                    continue
                edges.setdefault((src_layer, dst_layer), []).append(rel + " -> " + target)
                if ORDER.index(dst_layer) > ORDER.index(src_layer):
                    bad.append(f"{rel} includes {target} ({src_layer} -> {dst_layer})")
    for (a, b), uses in sorted(edges.items(), key=lambda e: (ORDER.index(e[0][0]), ORDER.index(e[0][1]))):
        print(f"{a:9s} -> {b:9s} {len(uses):4d} includes")
    for b in bad:
        print("VIOLATION:", b)
    print("layer order:", " < ".join(ORDER), "-", "OK" if not bad else f"{len(bad)} violations")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
