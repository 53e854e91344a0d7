"""NumPy (CPU) versions of the benchmark workloads: the same math, dtype, random numbers
(Philox streams, see philox_np.py) and checksum as bench/workloads/*.m.

Usage: numpy_peer.py WORKLOAD   (sizes from BENCH_* environment variables, like the .m files)
Prints 'checksum = ...' and 'times_ms = ...' like the matfuse workloads.
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from philox_np import Stream  # noqa: E402

f32 = np.float32


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
        state["imgs"] = Stream(1).rand((b, h, w), f32)
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
    rng = Stream(0)
    s = np.ones(m, f32) * f32(100)
    for _ in range(t_steps):
        z = rng.randn((m,), f32)
        s = s * np.exp(drift + scale * z)
    return np.maximum(s - k, f32(0)).mean(dtype=f32) * np.exp(-mu * f32(t_steps) * dt)


def w4_ema(state={}):
    c, t_steps = param("C", 1_000_000), param("T", 4000)
    if "x" not in state:
        state["x"] = Stream(2).randn((c, t_steps), f32)
    x = state["x"]
    y = np.zeros(c, f32)
    a = f32(0.01)
    for t in range(t_steps):
        y = a * x[:, t] + (f32(1) - a) * y
    return y.sum(dtype=f32)


WORKLOADS = {"w1_chain": w1_chain, "w2_image": w2_image, "w3_gbm": w3_gbm, "w4_ema": w4_ema}


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


if __name__ == "__main__":
    main()
