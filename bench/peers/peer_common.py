"""Shared plumbing of the benchmark peers: sizes from BENCH_* variables, the timing loop and the
one-line JSON result every peer prints (the runner parses the last line that starts with '{').

Result fields: impl, workload, status ("ok" | "n/a" | "error"), times_ms (timed runs, after the
warm-up), warmup_ms, checksum, rng ("exact": matfuse's Philox stream, "native": the library's own
generator, "none": no random numbers), reason (for n/a and error), device.
"""
import json
import math
import os
import sys
import time

# Default sizes: the GPU sizes of the issue; the runner passes every size explicitly anyway.
DEFAULTS = {
    "w1_chain": {"N": 100_000_000},
    "w2_image": {"B": 16, "H": 2160, "W": 3840},
    "w3_gbm": {"M": 1_000_000, "T": 256},
    "w4_ema": {"C": 1_000_000, "T": 4000},
    "w5_cov": {"N": 2_000_000, "D": 256},
    "w6_power": {"D": 8192, "K": 100},
    "w7_epilogue": {"n": 8192},
    "w10_subspace": {"D": 4096, "k": 64, "S": 50},
    "w11_solve": {"n": 8192, "K": 64},
    "w11_solve64": {"n": 8192, "K": 64},
    "w9_covfn": {"N": 2_000_000, "D": 256},
    "w12_gram": {"n": 8192},
    "w13_spectral": {"N": 1 << 20, "C": 64},
    "w15_movstats": {"N": 1_000_000, "C": 256},
    "w14_sort": {"N": 100_000_000},
    "w16_mask_median": {"N": 100_000_000},
    "w17_block_fill": {"B": 16, "H": 2160, "W": 3840},
    "w19_spsolve": {"k": 1002},
}

# Constants shared by all implementations (w3_gbm.m, w4_ema.m, w2_image.m).
GBM = dict(S0=100.0, mu=0.05, sigma=0.20, dt=1.0 / 252.0, K=100.0)
IMG = dict(gain=1.0123, bias=-0.02, gamma=1.8, eps=1e-6)
EMA_A = 0.01
SEEDS = {"w2_image": 1, "w3_gbm": 0, "w4_ema": 2, "w5_cov": 5, "w6_power": 6, "w7_epilogue": 7,
         "w10_subspace": 10, "w11_solve": 11, "w11_solve64": 11,
         "w9_covfn": 9, "w12_gram": 12,
         "w13_spectral": 13, "w15_movstats": 15, "w14_sort": 14, "w16_mask_median": 16}
MOV_K = 64  # W15 window: MATLAB's even window covers [i - 32, i + 31], shrinking at the ends


def spectral_h(xp, n, dtype):
    """W13's filter: H(k) = 1 / (1 + (min(k, n - k) / (n / 16))^2), k = 0..n-1 (real,
    conjugate symmetric), computed in double and rounded as w13_spectral.m does."""
    k = xp.arange(n, dtype=xp.float64)
    f = xp.minimum(k, n - k)
    return (1.0 / (1.0 + (f / (n / 16)) ** 2)).astype(dtype)


def mov_counts(xp, n, dtype):
    """Elements in each of the n shrinking windows [i - 32, i + 31] of W15."""
    i = xp.arange(n)
    lo = xp.maximum(i - MOV_K // 2, 0)
    hi = xp.minimum(i + MOV_K // 2 - 1, n - 1)
    return (hi - lo + 1).astype(dtype)


# W17 (w17_block_fill.m): the LCG that fills each block, its seed and the block height.
LCG = dict(a=1664525, c=1013904223, m=4294967296, seed=42, rows=16)
W16_T = 0.8


def mid(n):
    """MATLAB's round(n / 2) (1-based)."""
    return int(math.floor(n / 2 + 0.5))


def tenth(n):
    return int(math.floor(n / 10 + 0.5))


def param(workload, name):
    """Integer size NAME of WORKLOAD: BENCH_<NAME> if set (accepts 1e6 notation), else default."""
    v = os.environ.get("BENCH_" + name)
    return int(float(v)) if v else DEFAULTS[workload][name]


def emit(**fields):
    print(json.dumps(fields), flush=True)


def not_available(impl, workload, reason):
    emit(impl=impl, workload=workload, status="n/a", reason=reason)
    sys.exit(0)


def time_runs(run, sync, warmup, reps):
    """Calls run() warmup times, then reps times; each call is followed by sync() inside the
    timed region. run() returns the checksum (a Python float, which also synchronizes)."""
    warm, times, c = [], [], None
    for i in range(warmup + reps):
        t0 = time.perf_counter()
        c = run()
        sync()
        dt = (time.perf_counter() - t0) * 1000.0
        (warm if i < warmup else times).append(dt)
    return c, warm, times


def parse_args(impl):
    import argparse
    ap = argparse.ArgumentParser(description=f"{impl} peer of the matfuse benchmarks")
    ap.add_argument("workload", choices=sorted(DEFAULTS))
    ap.add_argument("--reps", type=int, default=int(os.environ.get("BENCH_REPS", "10")))
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--compile", action="store_true", help="torch.compile (torch peer only)")
    ap.add_argument("--cpu", action="store_true", help="run on the CPU (testing the peer logic)")
    return ap.parse_args()
