"""Measures this machine's physical limits in the benchmark run itself: device-to-device copy
bandwidth (a 2 GiB float32 copy; counted as bytes read + bytes written) and the fp32 GEMM rate
(8192^3, TF32 off), with torch if present, else CuPy. Median of 10 timed runs after 2 warm-ups.
Prints one JSON line: {"status", "via", "copy_GBps", "gemm_TFLOPS", "device"}; "n/a" without a GPU.

Usage: roofline.py [--bytes N] [--gemm N] [--cpu]
--cpu measures the host instead (NumPy copy and sgemm through its BLAS), for bench/run --cpu.
"""
import argparse
import json
import statistics
import time


def measure(copy, gemm, sync, reps=10):
    out = {}
    for key, fn in (("copy", copy), ("gemm", gemm)):
        ts = []
        for i in range(reps + 2):
            sync()
            t0 = time.perf_counter()
            fn()
            sync()
            if i >= 2:
                ts.append(time.perf_counter() - t0)
        out[key] = statistics.median(ts)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bytes", type=float, default=2 * 2 ** 30)
    ap.add_argument("--gemm", type=int, default=8192)
    ap.add_argument("--cpu", action="store_true", help="host memory copy and sgemm with NumPy")
    args = ap.parse_args()
    n_el, g = int(args.bytes) // 4, args.gemm
    if args.cpu:
        import numpy as np
        src = np.random.default_rng(0).random(n_el, dtype=np.float32)
        dst = np.empty_like(src)
        a = np.random.default_rng(1).random((g, g), dtype=np.float32)
        b = np.random.default_rng(2).random((g, g), dtype=np.float32)
        c = np.empty((g, g), dtype=np.float32)
        t = measure(lambda: np.copyto(dst, src), lambda: np.matmul(a, b, out=c), lambda: None, reps=5)
        res = {"status": "ok", "via": "numpy " + np.__version__, "device": "cpu",
               "copy_GBps": 2 * n_el * 4 / t["copy"] / 1e9, "gemm_TFLOPS": 2.0 * g ** 3 / t["gemm"] / 1e12}
        print(json.dumps(res), flush=True)
        return
    res = {"status": "n/a", "reason": "neither torch with CUDA nor cupy is available"}
    try:
        import torch
        if torch.cuda.is_available():
            torch.backends.cuda.matmul.allow_tf32 = False
            torch.backends.cudnn.allow_tf32 = False
            torch.set_float32_matmul_precision("highest")
            src = torch.empty(n_el, dtype=torch.float32, device="cuda").uniform_()
            dst = torch.empty_like(src)
            a = torch.rand(g, g, device="cuda")
            b = torch.rand(g, g, device="cuda")
            c = torch.empty(g, g, device="cuda")
            t = measure(lambda: dst.copy_(src), lambda: torch.matmul(a, b, out=c), torch.cuda.synchronize)
            res = {"status": "ok", "via": "torch " + torch.__version__, "device": torch.cuda.get_device_name(0)}
    except Exception as e:  # no torch, or torch without a working CUDA
        res["detail"] = f"{type(e).__name__}: {e}"
    if res["status"] != "ok":
        try:
            import cupy as cp
            src = cp.random.random(n_el, dtype=cp.float32)
            dst = cp.empty_like(src)
            a = cp.random.random((g, g), dtype=cp.float32)
            b = cp.random.random((g, g), dtype=cp.float32)
            c = cp.empty((g, g), dtype=cp.float32)
            t = measure(lambda: cp.copyto(dst, src), lambda: cp.matmul(a, b, out=c),
                        cp.cuda.Device().synchronize)
            res = {"status": "ok", "via": "cupy " + cp.__version__,
                   "device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode()}
        except Exception as e:  # no cupy / no device
            res.setdefault("detail", f"{type(e).__name__}: {e}")
    if res["status"] == "ok":
        res["copy_GBps"] = 2 * n_el * 4 / t["copy"] / 1e9
        res["gemm_TFLOPS"] = 2.0 * g ** 3 / t["gemm"] / 1e12
    print(json.dumps(res), flush=True)


if __name__ == "__main__":
    main()
