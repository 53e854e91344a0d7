"""NumPy (CPU) versions of the benchmark workloads: the same math, dtype and checksum as
bench/workloads/*.m.

Random numbers: inputs generated before the timed runs (W2, W4-W7) are matfuse's exact Philox
streams (philox_np.py) up to EXACT_LIMIT elements, NumPy's own generator above (the emulated
Philox is too slow for GPU sizes); the normals of W3, drawn inside the timed loop, always come
from NumPy's own generator (timing the emulation would not be a fair NumPy time). The JSON line
says which ("rng": "exact" | "native"), and the runner picks the checksum tolerance from it.

Usage: numpy_peer.py WORKLOAD   (sizes from BENCH_* environment variables, like the .m files)
Prints 'checksum = ...' and 'times_ms = ...' like the matfuse workloads, then one JSON line.
"""
import os
import sys
import time

import json

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from philox_np import Stream  # noqa: E402

f32 = np.float32
EXACT_LIMIT = int(float(os.environ.get("BENCH_EXACT_LIMIT", "3e7")))
RNG_KIND = {}


class NativeStream:
    """NumPy's own generator with matfuse's call interface (statistically equivalent numbers)."""

    def __init__(self, seed):
        self.g = np.random.default_rng(seed)

    def rand(self, shape, dtype):
        return self.g.random(shape, dtype=dtype)

    def randn(self, shape, dtype):
        return self.g.standard_normal(shape, dtype=dtype)


def stream(seed, numel, workload):
    """Exact Philox stream when NUMEL (all elements the workload draws) is small enough."""
    exact = numel <= EXACT_LIMIT
    RNG_KIND[workload] = "exact" if exact else "native"
    return Stream(seed) if exact else NativeStream(seed)


def param(name, default):
    v = os.environ.get("BENCH_" + name)
    return int(float(v)) if v else default


def w1_chain():
    n = param("N", 10_000_000)
    x = np.linspace(0, 4 * np.pi, n).astype(f32)
    y0 = np.sin(x) * np.exp(-x / f32(10))
    y1 = y0 * np.cos(x / f32(4)) + f32(0.25) * y0 ** 2
    y2 = np.tanh(y1) + f32(0.1) * y1
    return y2.sum(dtype=np.float64)


def w2_image(state={}):
    b, h, w = param("B", 16), param("H", 2160), param("W", 3840)
    if "imgs" not in state:  # generated once, outside the timed region (as in w2_image.m)
        state["imgs"] = stream(1, b * h * w, "w2_image").rand((b, h, w), f32)
    imgs = state["imgs"]
    mu = imgs.mean(axis=(1, 2), keepdims=True, dtype=f32)
    sigma = np.sqrt(((imgs - mu) ** 2).mean(axis=(1, 2), keepdims=True, dtype=f32) + f32(1e-6))
    out = ((imgs - mu) / sigma) * f32(1.0123) + f32(-0.02)
    out = np.maximum(out, f32(0)) ** f32(1.8)
    err = out - imgs
    return (err * err).mean(dtype=f32)


def w3_gbm():
    m, t_steps = param("M", 1_000_000), param("T", 256)
    mu, sigma, dt, k = f32(0.05), f32(0.2), f32(1 / 252), f32(100)
    drift = (mu - f32(0.5) * sigma ** 2) * dt
    scale = sigma * np.sqrt(dt)
    RNG_KIND["w3_gbm"] = "native"
    rng = NativeStream(0)
    s = np.ones(m, f32) * f32(100)
    for _ in range(t_steps):
        z = rng.randn((m,), f32)
        s = s * np.exp(drift + scale * z)
    return np.maximum(s - k, f32(0)).mean(dtype=f32) * np.exp(-mu * f32(t_steps) * dt)


def w4_ema(state={}):
    c, t_steps = param("C", 1_000_000), param("T", 4000)
    if "x" not in state:  # stored T x C (row t = MATLAB's column X(:, t), contiguous)
        state["x"] = np.ascontiguousarray(stream(2, c * t_steps, "w4_ema").randn((c, t_steps), f32).T)
    x = state["x"]
    y = np.zeros(c, f32)
    a = f32(0.01)
    for t in range(t_steps):
        y = a * x[t] + (f32(1) - a) * y
    return y.sum(dtype=f32)


def w5_cov(state={}):
    n, d = param("N", 2_000_000), param("D", 256)
    if "x" not in state:
        state["x"] = stream(5, n * d, "w5_cov").rand((n, d), f32)
    x = state["x"]
    mu = x.mean(axis=0, dtype=f32)
    xc = x - mu
    c = (xc.T @ xc) / f32(n - 1)
    return c.sum(dtype=f32)


def w6_power(state={}):
    d, k_steps = param("D", 8192), param("K", 100)
    if "a" not in state:
        a0 = stream(6, d * d, "w6_power").rand((d, d), f32)
        state["a"] = np.ascontiguousarray(a0 + a0.T)
    a = state["a"]
    v = np.ones((d, 1), f32)
    for _ in range(k_steps):
        v = a @ v
        v = v / np.linalg.norm(v)
    return (v.T @ (a @ v))[0, 0]


def w7_epilogue(state={}):
    n = param("n", 8192)
    if "a" not in state:
        rs = stream(7, 2 * n * n + n, "w7_epilogue")
        state["a"], state["b"], state["bias"] = rs.rand((n, n), f32), rs.rand((n, n), f32), rs.rand((1, n), f32)
    c = np.maximum((state["a"] @ state["b"]) * f32(0.5) + state["bias"], f32(0))
    return c.sum(dtype=f32)


def w10_subspace(state={}):
    d, k, steps = param("D", 4096), param("k", 64), param("S", 50)
    if "g" not in state:
        rs = stream(10, d * d + d * k, "w10_subspace")
        a0 = rs.rand((d, d), f32)
        state["g"], state["q0"] = np.ascontiguousarray(a0 + a0.T), rs.rand((d, k), f32)
    g, q = state["g"], state["q0"]
    for _ in range(steps):
        q = g @ q
        q, _ = np.linalg.qr(q)
    ev = np.diag(q.T @ g @ q)
    return np.abs(ev).sum(dtype=f32)


def w11_solve(state={}, dtype=f32, name="w11_solve"):
    n, k = param("n", 8192), param("K", 64)
    if "a" not in state:
        rs = stream(11, n * n + n * k, name)
        state["a"] = rs.rand((n, n), dtype) + n * np.eye(n, dtype=dtype)
        state["b"] = rs.rand((n, k), dtype)
    x = np.linalg.solve(state["a"], state["b"])
    return x.sum(dtype=dtype)


def w11_solve64(state={}):
    return w11_solve(state, np.float64, "w11_solve64")
def w9_covfn(state={}):
    n, d = param("N", 2_000_000), param("D", 256)
    if "x" not in state:
        state["x"] = stream(9, n * d, "w9_covfn").rand((n, d), f32)
    return np.cov(state["x"], rowvar=False, dtype=f32).sum(dtype=f32)


def w12_gram(state={}):
    n = param("n", 8192)
    if "b" not in state:
        state["b"] = stream(12, n * n, "w12_gram").rand((n, n), f32)
    b = state["b"]
    return ((b.T @ b) / f32(n)).sum(dtype=f32)
def w13_spectral(state={}):
    n, c = param("N", 1 << 20), param("C", 64)
    if "x" not in state:  # stored C x N (row j = MATLAB's column x(:, j), contiguous)
        state["x"] = np.ascontiguousarray(stream(13, n * c, "w13_spectral").rand((n, c), f32).T)
        k = np.arange(n, dtype=np.float64)
        state["h"] = (1.0 / (1.0 + (np.minimum(k, n - k) / (n / 16)) ** 2)).astype(f32)
    x, h = state["x"], state["h"]
    return np.real(np.fft.ifft(np.fft.fft(x, axis=1) * h, axis=1)).sum(dtype=np.float64)


def w15_movstats(state={}):
    from scipy.ndimage import uniform_filter1d
    n, c, k = param("N", 1_000_000), param("C", 256), 64
    if "x" not in state:
        state["x"] = np.ascontiguousarray(stream(15, n * c, "w15_movstats").rand((n, c), f32).T)
        i = np.arange(n)
        state["cnt"] = (np.minimum(i + k // 2 - 1, n - 1) - np.maximum(i - k // 2, 0) + 1).astype(f32)
    x, cnt = state["x"], state["cnt"]
    # zero-padded window sums over [i - 32, i + 31], divided by the true counts
    s1 = uniform_filter1d(x, k, axis=1, mode="constant") * f32(k)
    s2 = uniform_filter1d(x * x, k, axis=1, mode="constant") * f32(k)
    m = s1 / cnt
    s = np.sqrt(np.maximum((s2 / cnt - m * m) * (cnt / (cnt - f32(1))), f32(0)))
    return m.sum(dtype=np.float64) + s.sum(dtype=np.float64)
def w14_sort(state={}):
    n = param("N", 100_000_000)
    if "x" not in state:
        state["x"] = stream(14, n, "w14_sort").rand((n,), f32)
    x = state["x"]
    i = np.argsort(x, kind="stable")
    s = x[i]
    k, k10 = int(np.floor(n / 2 + 0.5)) - 1, int(np.floor(n / 10 + 0.5)) - 1
    return float(s[k]) + float(s[k10]) + float(x[i[k]] == s[k])


def w16_mask_median(state={}):
    n = param("N", 100_000_000)
    if "x0" not in state:
        state["x0"] = stream(16, n, "w16_mask_median").rand((n,), f32)
    x = state["x0"].copy()
    x[x > f32(0.8)] = 0
    return np.median(x)


def w17_block_fill():
    b_n, h, w = param("B", 16), param("H", 2160), param("W", 3840)
    seed, rows = 42, 16
    imgs = np.zeros((b_n, h, w), f32)
    x_idx = np.arange(w, dtype=np.int64).reshape(1, w)
    for b in range(b_n):
        off = b * h * w + seed
        for r0 in range(0, h, rows):
            rc = min(rows, h - r0)
            y = np.arange(r0, r0 + rc, dtype=np.int64).reshape(rc, 1)
            state = (1664525 * (off + y * w + x_idx) + 1013904223) % 4294967296
            imgs[b, r0:r0 + rc, :] = state.astype(f32) / f32(4294967296)
    gain, bias, gamma, eps = f32(1.0123), f32(-0.02), f32(1.8), f32(1e-6)
    mu = imgs.mean(axis=(1, 2), keepdims=True, dtype=f32)
    sigma = np.sqrt(((imgs - mu) ** 2).mean(axis=(1, 2), keepdims=True, dtype=f32) + eps)
    out = ((imgs - mu) / sigma) * gain + bias
    out = np.maximum(out, f32(0)) ** gamma
    err = out - imgs
    return (err * err).mean(dtype=f32)


def w19_spsolve(state={}):
    """The 2-D Poisson matrix of delsq(numgrid('S', k)) (the same matrix: kron(I, T) + kron(T, I)
    with T = tridiag(-1, 2, -1) of order k-2, numgrid's column-wise numbering), solved by
    scipy.sparse.linalg.spsolve (SuperLU, or UMFPACK where scikit-umfpack is installed)."""
    import scipy.sparse as sp
    import scipy.sparse.linalg as spla
    k = param("k", 1002)
    if "a" not in state:
        m = k - 2
        t = sp.diags([-np.ones(m - 1), 2 * np.ones(m), -np.ones(m - 1)], [-1, 0, 1], format="csc")
        i = sp.identity(m, format="csc")
        state["a"] = (sp.kron(i, t) + sp.kron(t, i)).tocsc()
        state["b"] = np.ones(m * m)
    x = spla.spsolve(state["a"], state["b"])
    return x.sum()


WORKLOADS = {"w1_chain": w1_chain, "w2_image": w2_image, "w3_gbm": w3_gbm, "w4_ema": w4_ema,
             "w5_cov": w5_cov, "w6_power": w6_power, "w7_epilogue": w7_epilogue,
             "w10_subspace": w10_subspace, "w11_solve": w11_solve, "w11_solve64": w11_solve64,
             "w9_covfn": w9_covfn, "w12_gram": w12_gram,
             "w13_spectral": w13_spectral, "w15_movstats": w15_movstats,
             "w14_sort": w14_sort, "w16_mask_median": w16_mask_median,
             "w17_block_fill": w17_block_fill, "w19_spsolve": w19_spsolve}


def main():
    fn = WORKLOADS[sys.argv[1]]
    reps = param("REPS", 5)
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        c = fn()
        times.append((time.perf_counter() - t0) * 1000)
    print(f"checksum = {float(c):.6e}")
    print("times_ms = " + " ".join(f"{t:.3f}" for t in times))
    print(json.dumps({"impl": "numpy", "workload": sys.argv[1], "status": "ok", "times_ms": times[1:] or times,
                      "warmup_ms": times[:1] if len(times) > 1 else [], "checksum": float(c),
                      "rng": RNG_KIND.get(sys.argv[1], "none"), "device": "cpu"}))


if __name__ == "__main__":
    main()
