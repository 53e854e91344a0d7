#!/usr/bin/env python3
"""Structural check of matfuse's SVG output: a figure with a title, axis labels, a legend and
automatic ticks is saved as SVG; the file must be well-formed SVG of the figure's size in
points, draw the axes (paths), and hold the title, labels, legend entries and the expected
tick labels as <text> elements. PDF output must start with %PDF and hold the title text.

Usage: check_svg.py --matfuse PATH
"""
import argparse
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

CODE = r"""
figure('Position', [100 100 560 420]);
plot(0:10, (0:10).^2, 0:10, 50 + 0*(0:10));
title('Growth of squares'); xlabel('time (s)'); ylabel('value');
legend('squares', 'constant');
saveas(gcf, '{svg}'); saveas(gcf, '{pdf}');
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--matfuse", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        svg, pdf = os.path.join(d, "f.svg"), os.path.join(d, "f.pdf")
        p = subprocess.run([args.matfuse, "-e", CODE.format(svg=svg, pdf=pdf)],
                           capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            print("matfuse failed:", p.stdout, p.stderr)
            return 1
        ns = {"s": "http://www.w3.org/2000/svg"}
        root = ET.parse(svg).getroot()
        errors = []
        if not root.tag.endswith("svg"):
            errors.append("root element is not <svg>")
        if root.get("width", "").replace("pt", "") not in ("420", "420.0"):
            errors.append("width is %r, expected 420pt" % root.get("width"))
        texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
        want = ["Growth of squares", "time (s)", "value", "squares", "constant"]
        # MATLAB's automatic ticks for x in [0 10] and y in [0 100].
        want += ["0", "2", "4", "6", "8", "10", "20", "40", "60", "80", "100"]
        for w in want:
            if w not in texts:
                errors.append("text %r missing (texts: %s)" % (w, texts))
        paths = root.findall(".//s:path", ns)
        if len(paths) < 5:
            errors.append("only %d paths: axes and lines are not drawn" % len(paths))
        with open(pdf, "rb") as f:
            data = f.read()
        if not data.startswith(b"%PDF"):
            errors.append("PDF output does not start with %PDF")
        for e in errors:
            print("FAIL:", e)
        if not errors:
            print("svg: %d texts, %d paths; pdf: %d bytes" % (len(texts), len(paths), len(data)))
        return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
