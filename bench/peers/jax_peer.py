"""JAX peer of the matfuse benchmarks: jit-compiled, loops as lax.fori_loop / lax.scan,
jax_default_matmul_precision = "highest" (true fp32 matrix products, no TF32), float32 throughout.
Random numbers come from jax.random (the same count and distribution as matfuse's rand/randn;
checksums compared with a statistical tolerance). Inputs of W2, W4-W7 are generated before the
timed runs; the normals of W3 inside the jitted loop (one fold_in key per step). W1 sums in
float32 (JAX without x64 has no float64; the checksum tolerance covers it).

Usage: jax_peer.py WORKLOAD [--reps R] [--warmup W] [--cpu]
Prints one JSON line (peer_common.py).
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common as pc  # noqa: E402


def make_workload(name, jax, jnp):
    lax = jax.lax
    f32 = jnp.float32
    if name == "w1_chain":
        n = pc.param(name, "N")

        @jax.jit
        def f():
            x = jnp.linspace(0, 4 * math.pi, n, dtype=f32)
            y0 = jnp.sin(x) * jnp.exp(-x / 10)
            y1 = y0 * jnp.cos(x / 4) + 0.25 * y0 ** 2
            y2 = jnp.tanh(y1) + 0.1 * y1
            return jnp.sum(y2)
        return (lambda: float(f())), "none"
    if name == "w2_image":
        b, h, w = (pc.param(name, k) for k in "BHW")
        imgs = jax.random.uniform(jax.random.PRNGKey(1), (b, h, w), dtype=f32)
        p = pc.IMG

        @jax.jit
        def f(imgs):
            mu = jnp.mean(imgs, axis=(1, 2), keepdims=True)
            sigma = jnp.sqrt(jnp.mean((imgs - mu) ** 2, axis=(1, 2), keepdims=True) + p["eps"])
            out = ((imgs - mu) / sigma) * p["gain"] + p["bias"]
            out = jnp.maximum(out, 0) ** p["gamma"]
            err = out - imgs
            return jnp.mean(err * err)
        return (lambda: float(f(imgs))), "native"
    if name == "w3_gbm":
        m, t_steps = pc.param(name, "M"), pc.param(name, "T")
        g = pc.GBM
        drift = (g["mu"] - 0.5 * g["sigma"] ** 2) * g["dt"]
        scale = g["sigma"] * math.sqrt(g["dt"])
        disc = math.exp(-g["mu"] * t_steps * g["dt"])

        @jax.jit
        def f(key):
            def body(t, s):
                z = jax.random.normal(jax.random.fold_in(key, t), (m,), dtype=f32)
                return s * jnp.exp(drift + scale * z)
            s = lax.fori_loop(0, t_steps, body, jnp.full((m,), g["S0"], dtype=f32))
            return jnp.mean(jnp.maximum(s - g["K"], 0)) * disc
        key = jax.random.PRNGKey(0)
        return (lambda: float(f(key))), "native"
    if name == "w4_ema":
        c, t_steps = pc.param(name, "C"), pc.param(name, "T")
        x = jax.random.normal(jax.random.PRNGKey(2), (t_steps, c), dtype=f32)
        a = pc.EMA_A

        @jax.jit
        def f(x):
            def body(y, xt):
                return a * xt + (1 - a) * y, None
            y, _ = lax.scan(body, jnp.zeros((c,), dtype=f32), x)
            return jnp.sum(y)
        return (lambda: float(f(x))), "native"
    if name == "w5_cov":
        n, d = pc.param(name, "N"), pc.param(name, "D")
        x = jax.random.uniform(jax.random.PRNGKey(5), (n, d), dtype=f32)

        @jax.jit
        def f(x):
            mu = jnp.mean(x, axis=0, keepdims=True)
            xc = x - mu
            cmat = (xc.T @ xc) / (n - 1)
            return jnp.sum(cmat)
        return (lambda: float(f(x))), "native"
    if name == "w6_power":
        d, k_steps = pc.param(name, "D"), pc.param(name, "K")
        a0 = jax.random.uniform(jax.random.PRNGKey(6), (d, d), dtype=f32)
        a = a0 + a0.T
        del a0

        @jax.jit
        def f(a):
            def body(_, v):
                v = a @ v
                return v / jnp.linalg.norm(v)
            v = lax.fori_loop(0, k_steps, body, jnp.ones((d, 1), dtype=f32))
            return (v.T @ (a @ v))[0, 0]
        return (lambda: float(f(a))), "native"
    if name == "w7_epilogue":
        n = pc.param(name, "n")
        ka, kb, kc = jax.random.split(jax.random.PRNGKey(7), 3)
        a = jax.random.uniform(ka, (n, n), dtype=f32)
        b_mat = jax.random.uniform(kb, (n, n), dtype=f32)
        bias = jax.random.uniform(kc, (1, n), dtype=f32)

        @jax.jit
        def f(a, b_mat, bias):
            return jnp.sum(jnp.maximum((a @ b_mat) * 0.5 + bias, 0))
        return (lambda: float(f(a, b_mat, bias))), "native"
    if name == "w10_subspace":
        d, k, steps = pc.param(name, "D"), pc.param(name, "k"), pc.param(name, "S")
        ka, kq = jax.random.split(jax.random.PRNGKey(10))
        a0 = jax.random.uniform(ka, (d, d), dtype=f32)
        g = a0 + a0.T
        del a0
        q0 = jax.random.uniform(kq, (d, k), dtype=f32)

        @jax.jit
        def f(g, q0):
            def body(_, q):
                q, _ = jnp.linalg.qr(g @ q, mode="reduced")
                return q
            q = lax.fori_loop(0, steps, body, q0)
            return jnp.sum(jnp.abs(jnp.diag(q.T @ (g @ q))))
        return (lambda: float(f(g, q0))), "native"
    if name in ("w11_solve", "w11_solve64"):
        n, k = pc.param(name, "n"), pc.param(name, "K")
        dt = jnp.float64 if name == "w11_solve64" else f32
        ka, kb = jax.random.split(jax.random.PRNGKey(11))
        a = jax.random.uniform(ka, (n, n), dtype=dt) + n * jnp.eye(n, dtype=dt)
        b_mat = jax.random.uniform(kb, (n, k), dtype=dt)

        @jax.jit
        def f(a, b_mat):
            return jnp.sum(jnp.linalg.solve(a, b_mat))
        return (lambda: float(f(a, b_mat))), "native"
    if name == "w9_covfn":
        n, d = pc.param(name, "N"), pc.param(name, "D")
        x = jax.random.uniform(jax.random.PRNGKey(9), (n, d), dtype=f32)

        @jax.jit
        def f(x):
            return jnp.sum(jnp.cov(x, rowvar=False))
        return (lambda: float(f(x))), "native"
    if name == "w12_gram":
        n = pc.param(name, "n")
        b_mat = jax.random.uniform(jax.random.PRNGKey(12), (n, n), dtype=f32)

        @jax.jit
        def f(b_mat):
            return jnp.sum((b_mat.T @ b_mat) / n)
        return (lambda: float(f(b_mat))), "native"
    if name == "w13_spectral":
        n, c = pc.param(name, "N"), pc.param(name, "C")
        x = jax.random.uniform(jax.random.PRNGKey(13), (c, n), dtype=f32)
        h = jnp.asarray(pc.spectral_h(__import__("numpy"), n, "float32"))

        @jax.jit
        def f(x, h):
            return jnp.sum(jnp.real(jnp.fft.ifft(jnp.fft.fft(x, axis=1) * h, axis=1)))
        return (lambda: float(f(x, h))), "native"
    if name == "w15_movstats":
        n, c = pc.param(name, "N"), pc.param(name, "C")
        x = jax.random.uniform(jax.random.PRNGKey(15), (c, n), dtype=f32)
        cnt = jnp.asarray(pc.mov_counts(__import__("numpy"), n, "float32"))
        k = pc.MOV_K

        @jax.jit
        def f(x, cnt):
            def wsum(v):  # sums over [i - 32, i + 31], zeros outside
                return lax.reduce_window(v, 0.0, lax.add, (1, k), (1, 1),
                                         ((0, 0), (k // 2, k // 2 - 1)))
            m = wsum(x) / cnt
            m2 = wsum(x * x) / cnt
            s = jnp.sqrt(jnp.maximum((m2 - m * m) * (cnt / (cnt - 1)), 0))
            return jnp.sum(m) + jnp.sum(s)
        return (lambda: float(f(x, cnt))), "native"
    if name == "w14_sort":
        n = pc.param(name, "N")
        x = jax.random.uniform(jax.random.PRNGKey(14), (n,), dtype=f32)
        k, k10 = pc.mid(n) - 1, pc.tenth(n) - 1

        @jax.jit
        def f(x):
            s, i = lax.sort_key_val(x, lax.iota(jnp.int32, n))  # stable
            return s[k] + s[k10] + (x[i[k]] == s[k]).astype(f32)
        return (lambda: float(f(x))), "native"
    if name == "w16_mask_median":
        n = pc.param(name, "N")
        x0 = jax.random.uniform(jax.random.PRNGKey(16), (n,), dtype=f32)

        @jax.jit
        def f(x0):
            x = jnp.where(x0 > pc.W16_T, f32(0), x0)
            return jnp.median(x)
        return (lambda: float(f(x0))), "native"
    if name == "w17_block_fill":
        b_n, h, w = (pc.param(name, k) for k in "BHW")
        p, g = pc.IMG, pc.LCG
        rows = g["rows"]
        full, rest = h // rows, h % rows
        u32 = jnp.uint32

        def block(b, r0, rc):
            # The LCG mod 2^32 is uint32 arithmetic that wraps (exact, no x64 needed).
            off = (b * (h * w) + g["seed"]).astype(u32)
            y = (r0 + lax.iota(u32, rc)).reshape(rc, 1)
            idx = off + y * u32(w) + lax.iota(u32, w).reshape(1, w)
            state = idx * u32(g["a"]) + u32(g["c"])
            return (state.astype(f32) / f32(g["m"])).reshape(1, rc, w)

        @jax.jit
        def f():
            imgs = jnp.zeros((b_n, h, w), f32)

            def body(j, imgs):
                b, r = j // max(full, 1), j % max(full, 1)
                r0 = (r * rows).astype(u32)
                return lax.dynamic_update_slice(imgs, block(b.astype(u32), r0, rows),
                                                (b, r * rows, 0))
            imgs = lax.fori_loop(0, b_n * full, body, imgs)
            for b in range(b_n):
                if rest:
                    imgs = imgs.at[b:b + 1, full * rows:, :].set(
                        block(u32(b), u32(full * rows), rest))
            mu = jnp.mean(imgs, axis=(1, 2), keepdims=True)
            sigma = jnp.sqrt(jnp.mean((imgs - mu) ** 2, axis=(1, 2), keepdims=True) + p["eps"])
            out = ((imgs - mu) / sigma) * p["gain"] + p["bias"]
            out = jnp.maximum(out, 0) ** p["gamma"]
            err = out - imgs
            return jnp.mean(err * err)
        return (lambda: float(f())), "none"
    raise KeyError(name)


def main():
    args = pc.parse_args("jax")
    impl = "jax"
    if args.cpu:
        os.environ["JAX_PLATFORMS"] = "cpu"
    try:
        import jax
        import jax.numpy as jnp
    except Exception as e:
        pc.not_available(impl, args.workload, f"jax unavailable: {type(e).__name__}: {e}")
    jax.config.update("jax_default_matmul_precision", "highest")
    if args.workload == "w11_solve64":  # float64 needs x64 mode (set before any array exists)
        jax.config.update("jax_enable_x64", True)
    try:
        devs = jax.devices()
    except Exception as e:
        pc.not_available(impl, args.workload, f"jax has no device: {type(e).__name__}: {e}")
    if not args.cpu and devs[0].platform != "gpu":
        pc.not_available(impl, args.workload, f"jax has no GPU (platform {devs[0].platform})")
    device = getattr(devs[0], "device_kind", str(devs[0]))
    try:
        run, rng = make_workload(args.workload, jax, jnp)
        sync = lambda: None  # noqa: E731  (float() of the result waits for the device)
        c, warm, times = pc.time_runs(run, sync, args.warmup, args.reps)
    except Exception as e:
        pc.emit(impl=impl, workload=args.workload, status="error", reason=f"{type(e).__name__}: {e}"[:2000])
        sys.exit(1)
    pc.emit(impl=impl, workload=args.workload, status="ok", times_ms=times, warmup_ms=warm,
            checksum=c, rng=rng, device=device)


if __name__ == "__main__":
    main()
