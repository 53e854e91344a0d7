"""CuPy peer of the matfuse benchmarks: the same math and dtype as bench/workloads/*.m, fed with
matfuse's exact random streams. The Philox generator is matfuse's own text
(src/runtime/philox.inc) compiled by CuPy's NVRTC with --fmad=false, so rand/randn give the same
bits as matfuse's rand/randn for the same rng seed (counter offsets advance as in matfuse), and
the checksums are compared with a tight tolerance. The random numbers of W3 are generated inside
the timed loop (one Philox kernel per step, as matfuse does); the inputs of W2, W4-W7 before it.

Usage: cupy_peer.py WORKLOAD [--reps R] [--warmup W] [--cpu]
--cpu runs the same code with NumPy and philox_np.py (tests the peer logic on a machine without
a GPU; slow). Prints one JSON line (peer_common.py).
"""
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import peer_common as pc  # noqa: E402

PHILOX_INC = os.path.join(HERE, "..", "..", "src", "runtime", "philox.inc")

KERNEL_TEMPLATE = r"""
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef long long int64_t;
#define MF_HD __device__
#define MF_SQRT(x) __dsqrt_rn(x)
#define MF_SQRTF(x) __fsqrt_rn(x)
#define MF_FMA(a, b, c) __fma_rn((a), (b), (c))
#define MF_FMAF(a, b, c) __fmaf_rn((a), (b), (c))
#define MF_MULHILO(a, b, hi, lo) \
  do { const uint32_t a_ = (a), b_ = (b); (hi) = __umulhi(a_, b_); (lo) = a_ * b_; } while (0)
#define MF_F2U(f) ((uint32_t)__float_as_uint((float)(f)))
#define MF_U2F(u) __uint_as_float((unsigned)(u))
%s
extern "C" __global__ void mf_fill_f(float* out, unsigned long long n, unsigned long long key,
                                     unsigned long long offset, int normal) {
  unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (; i < n; i += stride)
    out[i] = normal ? mf_randn_f(key, offset + i) : mf_rand_f(key, offset + i);
}
"""


class DeviceStream:
    """matfuse's rng(seed) stream on the device: rand/randn single, column-major order."""

    def __init__(self, cp, kernel, seed):
        sys.path.insert(0, HERE)
        from philox_np import key_from_seed
        self.cp, self.kernel, self.key, self.offset = cp, kernel, key_from_seed(seed), 0

    def _fill(self, shape, normal):
        cp = self.cp
        n = int(math.prod(shape))
        out = cp.empty(n, dtype=cp.float32)
        blocks = min((n + 255) // 256, 65535 * 8)
        import numpy as np
        self.kernel((blocks,), (256,), (out, np.uint64(n), np.uint64(self.key),
                                        np.uint64(self.offset), np.int32(1 if normal else 0)))
        self.offset += n
        return out.reshape(shape, order="F")

    def rand(self, shape):
        return self._fill(shape, False)

    def randn(self, shape):
        return self._fill(shape, True)


class HostStream:
    """The --cpu stand-in: philox_np's streams."""

    def __init__(self, seed):
        from philox_np import Stream
        self.s = Stream(seed)

    def rand(self, shape):
        import numpy as np
        return self.s.rand(shape, np.float32)

    def randn(self, shape):
        import numpy as np
        return self.s.randn(shape, np.float32)


def make_workload(name, xp, stream, ew_ema):
    f32 = xp.float32
    if name == "w1_chain":
        n = pc.param(name, "N")

        def run():
            x = xp.linspace(0, 4 * math.pi, n, dtype=xp.float64).astype(f32)
            y0 = xp.sin(x) * xp.exp(-x / f32(10))
            y1 = y0 * xp.cos(x / f32(4)) + f32(0.25) * y0 ** 2
            y2 = xp.tanh(y1) + f32(0.1) * y1
            return float(y2.sum(dtype=xp.float64))
        return run, "none"
    if name == "w2_image":
        b, h, w = (pc.param(name, k) for k in "BHW")
        imgs = stream(1).rand((b, h, w))
        p = pc.IMG

        def run():
            mu = imgs.mean(axis=(1, 2), keepdims=True, dtype=f32)
            sigma = xp.sqrt(((imgs - mu) ** 2).mean(axis=(1, 2), keepdims=True, dtype=f32) + f32(p["eps"]))
            out = ((imgs - mu) / sigma) * f32(p["gain"]) + f32(p["bias"])
            out = xp.maximum(out, f32(0)) ** f32(p["gamma"])
            err = out - imgs
            return float((err * err).mean(dtype=f32))
        return run, "exact"
    if name == "w3_gbm":
        m, t_steps = pc.param(name, "M"), pc.param(name, "T")
        g = pc.GBM
        mu, sigma, dt, k = f32(g["mu"]), f32(g["sigma"]), f32(g["dt"]), f32(g["K"])
        drift = (mu - f32(0.5) * sigma ** 2) * dt
        scale = sigma * xp.sqrt(dt)

        def run():
            rs = stream(0)  # rng(0) at the start of every repetition, as in w3_gbm.m
            s = xp.ones(m, f32) * f32(g["S0"])
            for _ in range(t_steps):
                z = rs.randn((m,))
                s = s * xp.exp(drift + scale * z)
            return float(xp.maximum(s - k, f32(0)).mean(dtype=f32) * xp.exp(-mu * f32(t_steps) * dt))
        return run, "exact"
    if name == "w4_ema":
        c, t_steps = pc.param(name, "C"), pc.param(name, "T")
        x = stream(2).randn((c, t_steps))  # column-major: x[:, t] is contiguous
        a = f32(pc.EMA_A)

        def run():
            y = xp.zeros(c, f32)
            for t in range(t_steps):
                y = ew_ema(x[:, t], y, a)
            return float(y.sum(dtype=f32))
        return run, "exact"
    if name == "w5_cov":
        n, d = pc.param(name, "N"), pc.param(name, "D")
        x = stream(5).rand((n, d))

        def run():
            mu = x.mean(axis=0, dtype=f32)
            xc = x - mu
            cmat = (xc.T @ xc) / f32(n - 1)
            return float(cmat.sum(dtype=f32))
        return run, "exact"
    if name == "w6_power":
        d, k_steps = pc.param(name, "D"), pc.param(name, "K")
        a0 = stream(6).rand((d, d))
        a = a0 + a0.T
        del a0

        def run():
            v = xp.ones((d, 1), f32)
            for _ in range(k_steps):
                v = a @ v
                v = v / xp.linalg.norm(v)
            return float((v.T @ (a @ v))[0, 0])
        return run, "exact"
    if name == "w7_epilogue":
        n = pc.param(name, "n")
        rs = stream(7)
        a, b_mat, bias = rs.rand((n, n)), rs.rand((n, n)), rs.rand((1, n))

        def run():
            cmat = xp.maximum((a @ b_mat) * f32(0.5) + bias, f32(0))
            return float(cmat.sum(dtype=f32))
        return run, "exact"
    if name == "w10_subspace":
        d, k, steps = pc.param(name, "D"), pc.param(name, "k"), pc.param(name, "S")
        rs = stream(10)
        a0 = rs.rand((d, d))
        g = a0 + a0.T
        del a0
        q0 = rs.rand((d, k))

        def run():
            q = q0
            for _ in range(steps):
                q, _ = xp.linalg.qr(g @ q, mode="reduced")
            ev = xp.diag(q.T @ (g @ q))
            return float(xp.abs(ev).sum(dtype=f32))
        return run, "exact"
    if name in ("w11_solve", "w11_solve64"):
        n, k = pc.param(name, "n"), pc.param(name, "K")
        rs = stream(11)
        if name == "w11_solve64":  # matfuse's double rand is another stream: NumPy's Philox
            import numpy as np
            from philox_np import Stream
            hs = Stream(11) if n * n <= 3e7 else None
            if hs is None:
                g = np.random.default_rng(11)
                a_h, b_h = g.random((n, n)), g.random((n, k))
            else:
                a_h, b_h = hs.rand((n, n), np.float64), hs.rand((n, k), np.float64)
            a = xp.asarray(a_h) + n * xp.eye(n, dtype=xp.float64)
            b_mat = xp.asarray(b_h)
            kind = "exact" if hs is not None else "native"
        else:
            a = rs.rand((n, n)) + f32(n) * xp.eye(n, dtype=f32)
            b_mat = rs.rand((n, k))
            kind = "exact"

        def run():
            return float(xp.linalg.solve(a, b_mat).sum())
        return run, kind
    if name == "w9_covfn":
        n, d = pc.param(name, "N"), pc.param(name, "D")
        x = stream(9).rand((n, d))

        def run():
            return float(xp.cov(x, rowvar=False).sum(dtype=f32))
        return run, "exact"
    if name == "w12_gram":
        n = pc.param(name, "n")
        b_mat = stream(12).rand((n, n))

        def run():
            return float(((b_mat.T @ b_mat) / f32(n)).sum(dtype=f32))
    if name == "w13_spectral":
        n, c = pc.param(name, "N"), pc.param(name, "C")
        x = stream(13).rand((n, c))
        h = pc.spectral_h(xp, n, f32)[:, None]

        def run():
            return float(xp.real(xp.fft.ifft(xp.fft.fft(x, axis=0) * h, axis=0)).sum())
        return run, "exact"
    if name == "w15_movstats":
        n, c = pc.param(name, "N"), pc.param(name, "C")
        x = stream(15).rand((n, c))
        cnt = pc.mov_counts(xp, n, f32)[:, None]
        if xp.__name__ == "numpy":
            from scipy.ndimage import uniform_filter1d
        else:
            from cupyx.scipy.ndimage import uniform_filter1d
        k = pc.MOV_K

        def run():
            # zero-padded window sums over [i - 32, i + 31], divided by the true counts
            s1 = uniform_filter1d(x, k, axis=0, mode="constant") * f32(k)
            s2 = uniform_filter1d(x * x, k, axis=0, mode="constant") * f32(k)
            m = s1 / cnt
            s = xp.sqrt(xp.maximum((s2 / cnt - m * m) * (cnt / (cnt - f32(1))), f32(0)))
            return float(m.sum(dtype=xp.float64) + s.sum(dtype=xp.float64))
        return run, "exact"
    if name == "w14_sort":
        n = pc.param(name, "N")
        x = stream(14).rand((n,))
        k, k10 = pc.mid(n) - 1, pc.tenth(n) - 1

        def run():
            i = xp.argsort(x, kind="stable") if xp.__name__ == "numpy" else xp.argsort(x)
            s = x[i]
            return float(float(s[k]) + float(s[k10]) + float(x[i[k]] == s[k]))
        return run, "exact"
    if name == "w16_mask_median":
        n = pc.param(name, "N")
        x0 = stream(16).rand((n,))
        t = f32(pc.W16_T)

        def run():
            x = x0.copy()
            x[x > t] = 0
            return float(xp.median(x))
        return run, "exact"
    if name == "w17_block_fill":
        b_n, h, w = (pc.param(name, k) for k in "BHW")
        p, g = pc.IMG, pc.LCG
        x_idx = xp.arange(w, dtype=xp.int64).reshape(1, w)

        def run():
            imgs = xp.zeros((b_n, h, w), f32)
            for b in range(b_n):
                off = b * h * w + g["seed"]
                for r0 in range(0, h, g["rows"]):
                    rc = min(g["rows"], h - r0)
                    y = xp.arange(r0, r0 + rc, dtype=xp.int64).reshape(rc, 1)
                    state = (g["a"] * (off + y * w + x_idx) + g["c"]) % g["m"]
                    imgs[b, r0:r0 + rc, :] = state.astype(f32) / f32(g["m"])
            mu = imgs.mean(axis=(1, 2), keepdims=True, dtype=f32)
            sigma = xp.sqrt(((imgs - mu) ** 2).mean(axis=(1, 2), keepdims=True, dtype=f32) + f32(p["eps"]))
            out = ((imgs - mu) / sigma) * f32(p["gain"]) + f32(p["bias"])
            out = xp.maximum(out, f32(0)) ** f32(p["gamma"])
            err = out - imgs
            return float((err * err).mean(dtype=f32))
        return run, "none"
    raise KeyError(name)


def main():
    args = pc.parse_args("cupy")
    impl = "cupy"
    if args.cpu:
        import numpy as xp
        stream = HostStream
        sync = lambda: None  # noqa: E731

        def ew_ema(x, y, a):
            return a * x + (xp.float32(1) - a) * y
        device = "cpu (numpy stand-in)"
    else:
        try:
            import cupy as xp
            xp.cuda.runtime.getDeviceCount()
        except Exception as e:  # missing library or no device: reported, not an error
            pc.not_available(impl, args.workload, f"cupy unavailable: {type(e).__name__}: {e}")
        src = KERNEL_TEMPLATE % open(PHILOX_INC).read()
        kernel = xp.RawKernel(src, "mf_fill_f", options=("--fmad=false", "-std=c++17"))

        def stream(seed):
            return DeviceStream(xp, kernel, seed)
        sync = xp.cuda.Device().synchronize
        ema = xp.ElementwiseKernel("float32 x, float32 y, float32 a", "float32 z",
                                   "z = a * x + (1.0f - a) * y", "mf_bench_ema")

        def ew_ema(x, y, a):
            return ema(x, y, a)
        device = xp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    try:
        run, rng = make_workload(args.workload, xp, stream, ew_ema)
        sync()
        c, warm, times = pc.time_runs(run, sync, args.warmup, args.reps)
    except Exception as e:
        pc.emit(impl=impl, workload=args.workload, status="error", reason=f"{type(e).__name__}: {e}")
        sys.exit(1)
    pc.emit(impl=impl, workload=args.workload, status="ok", times_ms=times, warmup_ms=warm,
            checksum=c, rng=rng, device=device)


if __name__ == "__main__":
    main()
