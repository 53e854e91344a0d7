#!/usr/bin/env python3
"""CPU micro-benchmarks of single builtins: matfuse against NumPy/SciPy on the same data.

Each case is one builtin call on one input (1e7 elements or a 1e6 x 64 matrix by default),
timed in matfuse by a generated .m script (tic/toc around the call, the result consumed by
reading one element of it, which is a sink) and in this process with NumPy/SciPy. The inputs
are the same numbers on both sides (matfuse's Philox stream, reproduced by peers/philox_np.py).
Reported: the best (minimum) of --reps timed calls after one warm-up call, NumPy/matfuse ratio (above
1: matfuse is faster) and a checksum of each result (relative difference shown; a mismatch is
flagged).

  bench/builtins_cpu.py                      # every case
  bench/builtins_cpu.py --only sort,cov      # cases whose name starts with one of these
  bench/builtins_cpu.py --n 1e6 --m 1e5      # smaller sizes
  bench/builtins_cpu.py --list               # the cases and their calls
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "peers"))
import philox_np  # noqa: E402

try:
    import scipy.ndimage as ndi
    import scipy.signal as sps
    import scipy.interpolate as spi
except ImportError:  # the cases that need SciPy are skipped
    ndi = sps = spi = None

# Inputs: name -> (matfuse statements, NumPy maker). N, M, D are substituted.
DATA = {
    "x": ("rng(1); x = rand(N, 1);", lambda s: philox_np.Stream(1).rand((s.N, 1))[:, 0]),
    "xs": ("rng(1); xs = rand(N, 1, 'single');",
           lambda s: philox_np.Stream(1).rand((s.N, 1), np.float32)[:, 0]),
    "X": ("rng(2); X = rand(M, D);", lambda s: philox_np.Stream(2).rand((s.M, s.D))),
    "Xs": ("rng(2); Xs = rand(M, D, 'single');",
           lambda s: philox_np.Stream(2).rand((s.M, s.D), np.float32)),
    "q": ("rng(3); q = rand(N, 1);", lambda s: philox_np.Stream(3).rand((s.N, 1))[:, 0]),
    "k": ("rng(4); k = floor(rand(N, 1) * 1000) + 1;",
          lambda s: np.floor(philox_np.Stream(4).rand((s.N, 1))[:, 0] * 1000) + 1),
    "g": ("gx = linspace(0, 1, 1000)'; gy = sin(6 * gx);", None),
    "f": ("fb = [0.2 0.3 0.3 0.2]; fa = [1 -0.5 0.25 -0.125];", None),
    "h": ("h = linspace(-1, 1, 1000)';", None),
}

GX = np.linspace(0, 1, 1000)
GY = np.sin(6 * GX)
FB = np.array([0.2, 0.3, 0.3, 0.2])
FA = np.array([1, -0.5, 0.25, -0.125])
H = np.linspace(-1, 1, 1000)


def mov_peer(x, k):
    return ndi.uniform_filter1d(x, k, origin=-1 if k % 2 == 0 else 0, mode="nearest")


# (name, inputs, matfuse statement assigning r, NumPy function of the inputs dict)
CASES = [
    ("sort", "x", "r = sort(x);", lambda d: np.sort(d["x"])),
    ("sort single", "xs", "r = sort(xs);", lambda d: np.sort(d["xs"])),
    ("sort idx", "x", "[r, i] = sort(x);",
     lambda d: d["x"][np.argsort(d["x"], kind="stable")]),
    ("sort descend", "x", "r = sort(x, 'descend');", lambda d: -np.sort(-d["x"])),
    ("sort cols", "X", "r = sort(X);", lambda d: np.sort(d["X"], axis=0)),
    ("sortrows", "k x", "r = sortrows([k, x]);",
     lambda d: np.c_[d["k"], d["x"]][np.lexsort((d["x"], d["k"]))]),
    ("unique", "x", "r = unique(x);", lambda d: np.unique(d["x"])),
    ("unique int", "k", "r = unique(k);", lambda d: np.unique(d["k"])),
    ("unique 3out", "k", "[r, ia, ic] = unique(k);",
     lambda d: np.unique(d["k"], return_index=True, return_inverse=True)),
    ("ismember", "k", "r = ismember(k, 1:2:500);",
     lambda d: np.isin(d["k"], np.arange(1, 501, 2))),
    ("find", "x", "r = find(x > 0.5);", lambda d: np.flatnonzero(d["x"] > 0.5) + 1),
    ("find n", "x", "r = find(x > 0.99999, 10);",
     lambda d: np.flatnonzero(d["x"] > 0.99999)[:10] + 1),
    ("nnz", "x", "r = nnz(x > 0.5);", lambda d: np.count_nonzero(d["x"] > 0.5)),
    ("any", "x", "r = any(x > 2);", lambda d: np.any(d["x"] > 2)),
    ("mask read", "x", "r = x(x > 0.5);", lambda d: d["x"][d["x"] > 0.5]),
    ("min idx", "x", "[r, i] = min(x);", lambda d: d["x"][np.argmin(d["x"])]),
    ("max cols idx", "X", "[r, i] = max(X);", lambda d: d["X"][np.argmax(d["X"], axis=0), np.arange(d["X"].shape[1])]),
    ("maxk", "x", "r = maxk(x, 10);", lambda d: np.sort(np.partition(d["x"], -10)[-10:])),
    ("median", "x", "r = median(x);", lambda d: np.median(d["x"])),
    ("median cols", "X", "r = median(X);", lambda d: np.median(d["X"], axis=0)),
    ("prctile", "x", "r = prctile(x, [5 50 95]);",
     lambda d: np.percentile(d["x"], [5, 50, 95])),
    ("mode", "k", "r = mode(k);", lambda d: np.argmax(np.bincount(d["k"].astype(np.int64)))),
    ("histcounts", "x", "r = histcounts(x, 100);", lambda d: np.histogram(d["x"], 100)),
    ("histcounts edges", "x", "r = histcounts(x, [0 0.1 0.25 0.5 0.9 1]);",
     lambda d: np.histogram(d["x"], [0, 0.1, 0.25, 0.5, 0.9, 1])),
    ("accumarray", "k x", "r = accumarray(k, x);",
     lambda d: np.bincount(d["k"].astype(np.int64), d["x"])),
    ("cumsum", "x", "r = cumsum(x);", lambda d: np.cumsum(d["x"])),
    ("cumsum cols", "X", "r = cumsum(X);", lambda d: np.cumsum(d["X"], axis=0)),
    ("cumsum rows", "X", "r = cumsum(X, 2);", lambda d: np.cumsum(d["X"], axis=1)),
    ("cumprod", "x", "r = cumprod(x);", lambda d: np.cumprod(d["x"])),
    ("cummax", "x", "r = cummax(x);", lambda d: np.maximum.accumulate(d["x"])),
    ("diff", "x", "r = diff(x);", lambda d: np.diff(d["x"])),
    ("trapz", "x", "r = trapz(x);", lambda d: np.trapz(d["x"])),
    ("cumtrapz", "x", "r = cumtrapz(x);",
     lambda d: spi and __import__("scipy.integrate").integrate.cumulative_trapezoid(d["x"])),
    ("interp1", "x q g", "r = interp1(gx, gy, q);", lambda d: np.interp(d["q"], GX, GY)),
    ("interp1 spline", "x q g", "r = interp1(gx, gy, q, 'spline');",
     lambda d: spi.CubicSpline(GX, GY)(d["q"])),
    ("interp1 pchip", "x q g", "r = interp1(gx, gy, q, 'pchip');",
     lambda d: spi.PchipInterpolator(GX, GY)(d["q"])),
    ("filter", "x f", "r = filter(fb, fa, x);", lambda d: sps.lfilter(FB, FA, d["x"])),
    ("filter cols", "X f", "r = filter(fb, fa, X);",
     lambda d: sps.lfilter(FB, FA, d["X"], axis=0)),
    ("conv", "x h", "r = conv(x, h);", lambda d: sps.convolve(d["x"], H)),
    ("conv short", "x", "r = conv(x, [1 2 3 2 1]);",
     lambda d: np.convolve(d["x"], [1, 2, 3, 2, 1])),
    ("conv2", "X", "r = conv2(X, ones(3));",
     lambda d: sps.convolve2d(d["X"], np.ones((3, 3)))),
    ("movmean", "x", "r = movmean(x, 64);", lambda d: mov_peer(d["x"], 64)),
    ("movsum", "x", "r = movsum(x, 65);",
     lambda d: ndi.uniform_filter1d(d["x"], 65, mode="nearest") * 65),
    ("movmax", "x", "r = movmax(x, 64);",
     lambda d: ndi.maximum_filter1d(d["x"], 64, origin=-1, mode="nearest")),
    ("movstd", "x", "r = movstd(x, 65);",
     lambda d: np.sqrt(np.maximum(ndi.uniform_filter1d(d["x"] ** 2, 65, mode="nearest")
                                  - ndi.uniform_filter1d(d["x"], 65, mode="nearest") ** 2, 0))),
    ("movmedian", "x", "r = movmedian(x, 65);",
     lambda d: ndi.median_filter(d["x"], 65, mode="nearest")),
    ("fft", "x", "r = fft(x);", lambda d: np.fft.fft(d["x"])),
    ("fft cols", "X", "r = fft(X);", lambda d: np.fft.fft(d["X"], axis=0)),
    ("ifft symmetric", "X", "r = ifft(fft(X), 'symmetric');",
     lambda d: np.fft.irfft(np.fft.fft(d["X"], axis=0)[: d["X"].shape[0] // 2 + 1],
                            d["X"].shape[0], axis=0)),
    ("cov", "X", "r = cov(X);", lambda d: np.cov(d["X"], rowvar=False)),
    ("cov single", "Xs", "r = cov(Xs);", lambda d: np.cov(d["Xs"], rowvar=False)),
    ("corrcoef", "X", "r = corrcoef(X);", lambda d: np.corrcoef(d["X"], rowvar=False)),
    ("var", "X", "r = var(X);", lambda d: np.var(d["X"], axis=0, ddof=1)),
    ("var rows", "X", "r = var(X, 0, 2);", lambda d: np.var(d["X"], axis=1, ddof=1)),
    ("std", "X", "r = std(X);", lambda d: np.std(d["X"], axis=0, ddof=1)),
    ("std single", "Xs", "r = std(Xs);", lambda d: np.std(d["Xs"], axis=0, ddof=1)),
    ("zscore", "X", "r = zscore(X);",
     lambda d: (d["X"] - d["X"].mean(0)) / d["X"].std(0, ddof=1)),
    ("normalize", "X", "r = normalize(X);",
     lambda d: (d["X"] - d["X"].mean(0)) / d["X"].std(0, ddof=1)),
    ("vecnorm", "X", "r = vecnorm(X);", lambda d: np.linalg.norm(d["X"], axis=0)),
    ("dot", "X", "r = dot(X, X);", lambda d: np.einsum("ij,ij->j", d["X"], d["X"])),
    ("mean", "X", "r = mean(X);", lambda d: d["X"].mean(0)),
    ("sum rows", "X", "r = sum(X, 2);", lambda d: d["X"].sum(1)),
]


def checksum(v):
    if isinstance(v, tuple):
        v = v[0]
    a = np.asarray(v, dtype=np.complex128 if np.iscomplexobj(v) else np.float64).ravel()
    a = np.abs(a)
    return float(np.sum(a[np.isfinite(a)]))


def m_script(cases, s, reps):
    lines = [f"N = {s.N}; M = {s.M}; D = {s.D};"]
    needed = []
    for c in cases:
        for n in c[1].split():
            if n not in needed:
                needed.append(n)
    for n in needed:
        lines.append(DATA[n][0])
    # Materialise the inputs (generators are otherwise recomputed inside consumers).
    for n in needed:
        for var in re.findall(r"(\w+) = ", DATA[n][0]):
            lines.append(f"{var}(1) = {var}(1);")
    for name, _, stmt, _ in cases:
        lines.append("try")
        lines.append("  t = zeros(1, %d);" % (reps + 1))
        lines.append(f"  for rep = 1:{reps + 1}")
        lines.append(f"    t0 = tic; {stmt} e = r(end); t(rep) = toc(t0);")
        lines.append("  end")
        lines.append("  r = double(r); r = abs(r(:)); cs = sum(r(isfinite(r)));")
        lines.append(f"  fprintf('CASE|{name}|%.6f|%.17g\\n', min(t(2:end)) * 1000, cs);")
        lines.append("catch err")
        lines.append(f"  fprintf('CASE|{name}|NaN|NaN\\n'); fprintf(2, '{name}: %s\\n', err.message);")
        lines.append("end")
        lines.append("clear r i ia ic e")
    return "\n".join(lines) + "\n"


def run_matfuse(cases, s, reps, matfuse):
    out = {}
    with tempfile.TemporaryDirectory() as td:
        path = os.path.join(td, "builtins_cpu_bench.m")
        with open(path, "w") as f:
            f.write(m_script(cases, s, reps))
        env = dict(os.environ)
        p = subprocess.Popen([matfuse, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=env)
        for line in p.stdout:
            if line.startswith("CASE|"):
                _, name, ms, cs = line.strip().split("|")
                out[name] = (float(ms), float(cs))
        err = p.stderr.read()
        p.wait()
        if err:
            print("matfuse:\n" + err[-3000:], file=sys.stderr)
    return out


def run_numpy(cases, s, reps):
    cache, out = {}, {}
    for name, inputs, _, fn in cases:
        d = {}
        for n in inputs.split():
            if DATA[n][1] is None:
                continue
            if n not in cache:
                cache[n] = DATA[n][1](s)
            d[n] = cache[n]
        try:
            ts = []
            for _ in range(reps + 1):
                t0 = time.perf_counter()
                v = fn(d)
                ts.append(time.perf_counter() - t0)
            out[name] = (min(ts[1:]) * 1000, checksum(v))
        except Exception as e:  # noqa: BLE001 (a missing SciPy, say)
            out[name] = (float("nan"), float("nan"))
            print(f"numpy {name}: {e}", file=sys.stderr)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matfuse", default=os.environ.get("MATFUSE", "build/matfuse"))
    ap.add_argument("--only", default="", help="comma-separated case-name prefixes")
    ap.add_argument("--n", type=float, default=1e7, help="vector length N")
    ap.add_argument("--m", type=float, default=1e6, help="matrix rows M")
    ap.add_argument("--d", type=int, default=64, help="matrix columns D")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--skip-numpy", action="store_true")
    ap.add_argument("--baseline", default="",
                    help="a second matfuse binary (e.g. an earlier build): adds its column and "
                         "the speedup of --matfuse over it")
    a = ap.parse_args()
    s = argparse.Namespace(N=int(a.n), M=int(a.m), D=a.d)
    cases = CASES
    if a.only:
        pre = [p.strip() for p in a.only.split(",") if p.strip()]
        cases = [c for c in CASES if any(c[0] == p or c[0].startswith(p + " ") for p in pre)]
    if a.list:
        for c in cases:
            print(f"{c[0]:18s} {c[2]}")
        return 0
    base = run_matfuse(cases, s, a.reps, a.baseline) if a.baseline else {}
    mf = run_matfuse(cases, s, a.reps, a.matfuse)
    npr = {} if a.skip_numpy else run_numpy(cases, s, a.reps)
    print(f"N = {s.N}, M x D = {s.M} x {s.D}, best of {a.reps} after a warm-up; "
          f"ratio = NumPy / matfuse (above 1: matfuse faster)")
    head = f"{'case':18s} "
    if a.baseline:
        head += f"{'before ms':>10s} {'ratio':>6s} "
    head += f"{'matfuse ms':>11s} {'numpy ms':>10s} {'ratio':>7s}  checksum"
    print(head)
    bad = 0
    for name, _, stmt, _ in cases:
        m = mf.get(name, (float("nan"), float("nan")))
        n = npr.get(name, (float("nan"), float("nan")))
        ratio = n[0] / m[0] if m[0] > 0 else float("nan")
        rel = abs(m[1] - n[1]) / max(abs(n[1]), 1e-300)
        ok = "ok" if rel < 1e-5 else (f"differs ({rel:.1e})" if np.isfinite(rel) else "-")
        bad += ok.startswith("differs")
        row = f"{name:18s} "
        if a.baseline:
            b = base.get(name, (float("nan"), float("nan")))
            row += f"{b[0]:10.2f} {n[0] / b[0] if b[0] > 0 else float('nan'):6.2f} "
        print(row + f"{m[0]:11.2f} {n[0]:10.2f} {ratio:7.2f}  {ok}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
