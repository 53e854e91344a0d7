"""PyTorch peer of the matfuse benchmarks (eager, or --compile for torch.compile): the same math
and dtype (float32) as bench/workloads/*.m, TF32 off. Random numbers come from torch's own
generator (the same count and distribution as matfuse's rand/randn; the checksums are then
compared with a statistical tolerance). Inputs of W2, W4-W7 are generated before the timed
runs; the normals of W3 inside them (as in w3_gbm.m). Layouts are chosen so that the slices the
MATLAB code takes are contiguous (W4: X stored as T x C, row t = MATLAB's column X(:, t)).

--compile compiles the per-step function of the loop workloads (W3, W4, W6, W10) and the whole
function of the others; the compilation happens in the warm-up runs.

Usage: torch_peer.py WORKLOAD [--compile] [--reps R] [--warmup W] [--cpu]
Prints one JSON line (peer_common.py).
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common as pc  # noqa: E402


def make_workload(name, torch, dev, comp):
    f32 = torch.float32
    if name == "w1_chain":
        n = pc.param(name, "N")

        def body():
            x = torch.linspace(0, 4 * math.pi, n, dtype=f32, device=dev)
            y0 = torch.sin(x) * torch.exp(-x / 10)
            y1 = y0 * torch.cos(x / 4) + 0.25 * y0 ** 2
            y2 = torch.tanh(y1) + 0.1 * y1
            return y2.sum(dtype=torch.float64)
        f = comp(body)
        return (lambda: float(f())), "none"
    if name == "w2_image":
        b, h, w = (pc.param(name, k) for k in "BHW")
        torch.manual_seed(1)
        imgs = torch.rand(b, h, w, dtype=f32, device=dev)
        p = pc.IMG

        def body(imgs):
            mu = imgs.mean(dim=(1, 2), keepdim=True)
            sigma = torch.sqrt(((imgs - mu) ** 2).mean(dim=(1, 2), keepdim=True) + p["eps"])
            out = ((imgs - mu) / sigma) * p["gain"] + p["bias"]
            out = torch.clamp_min(out, 0) ** p["gamma"]
            err = out - imgs
            return (err * err).mean()
        f = comp(body)
        return (lambda: float(f(imgs))), "native"
    if name == "w3_gbm":
        m, t_steps = pc.param(name, "M"), pc.param(name, "T")
        g = pc.GBM
        drift = (g["mu"] - 0.5 * g["sigma"] ** 2) * g["dt"]
        scale = g["sigma"] * math.sqrt(g["dt"])

        def step(s):
            z = torch.randn(s.shape, dtype=f32, device=dev)
            return s * torch.exp(drift + scale * z)
        step_c = comp(step)

        def run():
            torch.manual_seed(0)
            s = torch.full((m,), g["S0"], dtype=f32, device=dev)
            for _ in range(t_steps):
                s = step_c(s)
            price = torch.clamp_min(s - g["K"], 0).mean() * math.exp(-g["mu"] * t_steps * g["dt"])
            return float(price)
        return run, "native"
    if name == "w4_ema":
        c, t_steps = pc.param(name, "C"), pc.param(name, "T")
        torch.manual_seed(2)
        x = torch.randn(t_steps, c, dtype=f32, device=dev)
        a = pc.EMA_A

        def step(y, xt):
            return a * xt + (1 - a) * y
        step_c = comp(step)

        def run():
            y = torch.zeros(c, dtype=f32, device=dev)
            for t in range(t_steps):
                y = step_c(y, x[t])
            return float(y.sum())
        return run, "native"
    if name == "w5_cov":
        n, d = pc.param(name, "N"), pc.param(name, "D")
        torch.manual_seed(5)
        x = torch.rand(n, d, dtype=f32, device=dev)

        def body(x):
            mu = x.mean(dim=0, keepdim=True)
            xc = x - mu
            cmat = (xc.T @ xc) / (n - 1)
            return cmat.sum()
        f = comp(body)
        return (lambda: float(f(x))), "native"
    if name == "w6_power":
        d, k_steps = pc.param(name, "D"), pc.param(name, "K")
        torch.manual_seed(6)
        a = torch.rand(d, d, dtype=f32, device=dev)
        a = a + a.T

        def step(v):
            v = a @ v
            return v / torch.linalg.vector_norm(v)
        step_c = comp(step)

        def run():
            v = torch.ones(d, 1, dtype=f32, device=dev)
            for _ in range(k_steps):
                v = step_c(v)
            return float((v.T @ (a @ v))[0, 0])
        return run, "native"
    if name == "w7_epilogue":
        n = pc.param(name, "n")
        torch.manual_seed(7)
        a = torch.rand(n, n, dtype=f32, device=dev)
        b_mat = torch.rand(n, n, dtype=f32, device=dev)
        bias = torch.rand(1, n, dtype=f32, device=dev)

        def body(a, b_mat, bias):
            return torch.clamp_min((a @ b_mat) * 0.5 + bias, 0).sum()
        f = comp(body)
        return (lambda: float(f(a, b_mat, bias))), "native"
    if name == "w10_subspace":
        d, k, steps = pc.param(name, "D"), pc.param(name, "k"), pc.param(name, "S")
        torch.manual_seed(10)
        a0 = torch.rand(d, d, dtype=f32, device=dev)
        g = a0 + a0.T
        del a0
        q0 = torch.rand(d, k, dtype=f32, device=dev)

        def step(q):
            q, _ = torch.linalg.qr(g @ q, mode="reduced")
            return q
        step_c = comp(step)

        def run():
            q = q0
            for _ in range(steps):
                q = step_c(q)
            ev = torch.diagonal(q.T @ (g @ q))
            return float(ev.abs().sum())
        return run, "native"
    if name in ("w11_solve", "w11_solve64"):
        n, k = pc.param(name, "n"), pc.param(name, "K")
        dt = torch.float64 if name == "w11_solve64" else f32
        torch.manual_seed(11)
        a = torch.rand(n, n, dtype=dt, device=dev) + n * torch.eye(n, dtype=dt, device=dev)
        b_mat = torch.rand(n, k, dtype=dt, device=dev)

        def body(a, b_mat):
            return torch.linalg.solve(a, b_mat).sum()
        f = comp(body)
        return (lambda: float(f(a, b_mat))), "native"
    if name == "w9_covfn":
        n, d = pc.param(name, "N"), pc.param(name, "D")
        torch.manual_seed(9)
        x = torch.rand(n, d, dtype=f32, device=dev)

        def body(x):
            return torch.cov(x.T).sum()  # torch.cov: variables in rows
        f = comp(body)
        return (lambda: float(f(x))), "native"
    if name == "w12_gram":
        n = pc.param(name, "n")
        torch.manual_seed(12)
        b_mat = torch.rand(n, n, dtype=f32, device=dev)

        def body(b_mat):
            return ((b_mat.T @ b_mat) / n).sum()
        f = comp(body)
        return (lambda: float(f(b_mat))), "native"
    if name == "w13_spectral":
        n, c = pc.param(name, "N"), pc.param(name, "C")
        torch.manual_seed(13)
        x = torch.rand(c, n, dtype=f32, device=dev)  # row j = MATLAB's column x(:, j)
        h = torch.as_tensor(pc.spectral_h(__import__("numpy"), n, "float32"), device=dev)

        def body(x, h):
            return torch.fft.ifft(torch.fft.fft(x, dim=1) * h, dim=1).real.sum()
        f = comp(body)
        return (lambda: float(f(x, h))), "native"
    if name == "w15_movstats":
        n, c = pc.param(name, "N"), pc.param(name, "C")
        torch.manual_seed(15)
        x = torch.rand(c, 1, n, dtype=f32, device=dev)  # row j = MATLAB's column X(:, j)
        cnt = torch.as_tensor(pc.mov_counts(__import__("numpy"), n, "float32"), device=dev)
        pool = torch.nn.functional.avg_pool1d
        k = pc.MOV_K

        def body(x, cnt):
            # count_include_pad=False: the shrinking windows' means
            m = pool(x, k, stride=1, padding=k // 2, count_include_pad=False)[..., :n]
            m2 = pool(x * x, k, stride=1, padding=k // 2, count_include_pad=False)[..., :n]
            s = torch.sqrt(torch.clamp_min((m2 - m * m) * (cnt / (cnt - 1)), 0))
            return m.sum(dtype=torch.float64) + s.sum(dtype=torch.float64)
        f = comp(body)
        return (lambda: float(f(x, cnt))), "native"
    if name == "w14_sort":
        n = pc.param(name, "N")
        torch.manual_seed(14)
        x = torch.rand(n, dtype=f32, device=dev)
        k, k10 = pc.mid(n) - 1, pc.tenth(n) - 1

        def run():
            s, i = torch.sort(x, stable=True)
            return float(s[k].double() + s[k10].double() + (x[i[k]] == s[k]).double())
        return run, "native"
    if name == "w16_mask_median":
        n = pc.param(name, "N")
        torch.manual_seed(16)
        x0 = torch.rand(n, dtype=f32, device=dev)
        t = pc.W16_T

        def body(x0):
            x = x0.clone()
            x[x > t] = 0
            # MATLAB's median: the mean of the two middle values for an even count
            xs = torch.sort(x).values
            return (xs[(n - 1) // 2] + xs[n // 2]) / 2
        f = comp(body)
        return (lambda: float(f(x0))), "native"
    if name == "w17_block_fill":
        b_n, h, w = (pc.param(name, k) for k in "BHW")
        p, g = pc.IMG, pc.LCG
        x_idx = torch.arange(w, dtype=torch.int64, device=dev).view(1, w)

        def norm(imgs):
            mu = imgs.mean(dim=(1, 2), keepdim=True)
            sigma = torch.sqrt(((imgs - mu) ** 2).mean(dim=(1, 2), keepdim=True) + p["eps"])
            out = ((imgs - mu) / sigma) * p["gain"] + p["bias"]
            out = torch.clamp_min(out, 0) ** p["gamma"]
            err = out - imgs
            return (err * err).mean()
        norm_c = comp(norm)

        def run():
            imgs = torch.zeros(b_n, h, w, dtype=f32, device=dev)
            for b in range(b_n):
                off = b * h * w + g["seed"]
                for r0 in range(0, h, g["rows"]):
                    rc = min(g["rows"], h - r0)
                    y = torch.arange(r0, r0 + rc, dtype=torch.int64, device=dev).view(rc, 1)
                    state = (g["a"] * (off + y * w + x_idx) + g["c"]) % g["m"]
                    imgs[b, r0:r0 + rc, :] = state.to(f32) / float(g["m"])
            return float(norm_c(imgs))
        return run, "none"
    raise KeyError(name)


def main():
    args = pc.parse_args("torch")
    impl = "torch.compile" if args.compile else "torch"
    try:
        import torch
    except Exception as e:
        pc.not_available(impl, args.workload, f"torch unavailable: {type(e).__name__}: {e}")
    if args.cpu:
        dev = torch.device("cpu")
        sync = lambda: None  # noqa: E731
        device = "cpu"
    else:
        if not torch.cuda.is_available():
            pc.not_available(impl, args.workload, "torch has no CUDA device")
        dev = torch.device("cuda")
        sync = torch.cuda.synchronize
        device = torch.cuda.get_device_name(0)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    if args.compile:
        comp = torch.compile
    else:
        comp = lambda f: f  # noqa: E731
    try:
        with torch.no_grad():
            run, rng = make_workload(args.workload, torch, dev, comp)
            sync()
            c, warm, times = pc.time_runs(run, sync, args.warmup, args.reps)
    except Exception as e:
        pc.emit(impl=impl, workload=args.workload, status="error", reason=f"{type(e).__name__}: {e}"[:2000])
        sys.exit(1)
    pc.emit(impl=impl, workload=args.workload, status="ok", times_ms=times, warmup_ms=warm,
            checksum=c, rng=rng, device=device)


if __name__ == "__main__":
    main()
