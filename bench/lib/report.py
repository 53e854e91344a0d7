"""Reporting half of bench/run: progress lines, the results table, the machine description,
RESULTS.md appends and the --sweep plot (matplotlib, else gnuplot, else a note)."""
import datetime
import os
import shlex
import shutil
import statistics
import subprocess
import sys


def sh(cmd, cwd=None):
    try:
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


def nvidia_smi_works():
    try:
        return subprocess.run(["nvidia-smi", "-L"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def warm(r):
    t = r.get("times_ms") or []
    return (statistics.median(t), min(t), max(t)) if t else (None, None, None)


def one_line(r):
    if r.get("status") != "ok":
        return f"{r['workload']} {r['impl']}: {r.get('status')} ({r.get('reason', '')})"
    m, lo, hi = warm(r)
    s = f"{r['workload']} {r['impl']}: warm {m:.3f} ms ({lo:.3f}-{hi:.3f}), cold {r.get('cold_ms', 0):.3f} ms"
    if "cold_wall_s" in r:
        s += f", process {r['cold_wall_s']:.2f} s cold / {r.get('warm_wall_s', float('nan')):.2f} s warm"
    return s + f", checksum {r.get('checksum'):.6e} [{r.get('rng', '?')}]"


def roof_text(roof):
    if not roof or roof.get("status") != "ok":
        return f"n/a ({(roof or {}).get('reason', 'not measured')})"
    return (f"copy {roof['copy_GBps']:.0f} GB/s (read+write), fp32 GEMM {roof['gemm_TFLOPS']:.2f} TFLOP/s "
            f"[{roof['via']}, {roof.get('device', '')}]")


def table(results, roof, mode, limit_ms, tolerance, limit_model):
    """Markdown table of all results; returns (text, failures). A peer whose checksum is outside
    the tolerance, or an implementation that failed, is a FAILURE row and counts."""
    hdr = ["workload", "impl", "cold ms", "warm ms median (min-max)", "process s cold / warm",
           "peer/matfuse", "share of limit", "checksum", "check"]
    lines = ["| " + " | ".join(hdr) + " |", "|" + "---|" * len(hdr)]
    failures = 0
    results = sorted(results, key=lambda r: (r["workload"], r["impl"] != "matfuse"))
    ref = {r["workload"]: r for r in results if r["impl"] == "matfuse" and r.get("status") == "ok"}
    for r in results:
        w = r["workload"]
        if r.get("status") in ("n/a", "skipped"):
            lines.append(f"| {w} | {r['impl']} | - | {r['status']}: {r.get('reason', '')[:80]} | | | | | - |")
            continue
        if r.get("status") != "ok":
            failures += 1
            lines.append(f"| {w} | {r['impl']} | - | - | | | | | FAILURE: {r.get('reason', '')[:120]} |")
            continue
        m, lo, hi = warm(r)
        lim = limit_ms(w, r["sizes"], roof)
        share = f"{100 * lim / m:.0f}%" if lim and m else "n/a"
        proc = ""
        if "cold_wall_s" in r:
            proc = f"{r['cold_wall_s']:.2f} / {r.get('warm_wall_s', float('nan')):.2f}"
        mf = ref.get(w)
        ratio = "-"
        check = "reference"
        if r["impl"] != "matfuse":
            if mf:
                ratio = f"{m / warm(mf)[0]:.2f}" if warm(mf)[0] else "-"
                rtol, atol, txt = tolerance(w, r["sizes"], r.get("rng", "exact"))
                diff = abs(r["checksum"] - mf["checksum"])
                if r.get("comparable", True) is False:
                    check = f"not compared ({r.get('note', '')})"
                elif diff <= rtol * abs(mf["checksum"]) + atol:
                    check = f"ok ({txt})"
                else:
                    failures += 1
                    check = f"FAILURE: mismatch, |diff| {diff:.3g} > {txt}"
            else:
                check = "no matfuse reference"
        elif "checksum_warm" in r and r["checksum_warm"] != r["checksum"]:
            check = f"warm run differs: {r['checksum_warm']:.9g}"
        lines.append(f"| {w} | {r['impl']} | {r.get('cold_ms', 0):.2f} | {m:.2f} ({lo:.2f}-{hi:.2f}) | {proc} | "
                     f"{ratio} | {share} | {r['checksum']:.6e} | {check} |")
    lines.append("")
    lines.append(f"Limits measured in this run: {roof_text(roof)}. share of limit = max(bytes/copy rate, "
                 "flops/GEMM rate) / warm median; bytes and flops per workload: "
                 + "; ".join(f"{w}: {limit_model(w, s)[2]}" for w, s in
                             {r['workload']: r['sizes'] for r in results}.items()) + ".")
    lines.append("peer/matfuse > 1: matfuse is faster. matfuse cold = first repetition of a process with an "
                 "empty kernel cache; warm = median of a second process's repetitions after its first; "
                 "process s = whole-process wall time (cold cache / median of warm runs with BENCH_REPS=1).")
    return "\n".join(lines), failures


def metadata(mode, root):
    commit = sh(["git", "rev-parse", "HEAD"], cwd=root)
    if sh(["git", "status", "--porcelain", "--", "."], cwd=root):
        commit += " (with uncommitted changes)"
    cpu = ""
    for line in sh(["lscpu"]).splitlines():
        if line.startswith("Model name:"):
            cpu = line.split(":", 1)[1].strip()
    cpu += f", {os.cpu_count()} logical CPUs"
    gpu = sh(["nvidia-smi", "--query-gpu=name,memory.total,driver_version", "--format=csv,noheader"])
    cuda = ""
    for line in sh(["nvidia-smi"]).splitlines():
        if "CUDA Version" in line:
            cuda = line.split("CUDA Version:")[1].split("|")[0].strip()
    return {"date": datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"), "mode": mode,
            "cpu": cpu, "gpu": gpu or "none", "cuda": cuda, "commit": commit,
            "command": "bench/run " + shlex.join(sys.argv[1:])}


def append_results(path, meta, text, mode):
    new = not os.path.exists(path)
    with open(path, "a") as f:
        if new:
            f.write("# Benchmark results\n\nAppended by `bench/run --write-results`; the numbers are the "
                    "runner's output, never edited by hand. Older results stay below and in git history.\n")
        f.write(f"\n## {meta['date']} ({mode} mode)\n\n")
        f.write(f"- command: `{meta['command']}`\n- commit: {meta['commit']}\n- CPU: {meta['cpu']}\n")
        f.write(f"- GPU (name, memory, driver): {meta['gpu']}" + (f"; CUDA {meta['cuda']}" if meta['cuda'] else "")
                + "\n\n")
        f.write(text + "\n")


def sweep(rn, mode, workloads, sizes, plan, run_matfuse, run_peer, peer_list, here):
    """Runs each workload at the sweep sizes (matfuse and the phase-1 peers), prints the points
    and plots time versus size per workload into bench/sweep-MODE.png."""
    points = {}
    for w in workloads:
        if w not in plan:
            continue
        key, values = plan[w]
        for v in values:
            env = {"BENCH_" + k: x for k, x in sizes[w].items()}
            env["BENCH_" + key] = v
            rs = [run_matfuse(rn, w, env, max(3, rn.args.reps // 2), 0)]
            for impl, cmd, cwd, ph, extra, tmo in peer_list(mode, w, rn.args):
                if ph == 1:
                    rs.append(run_peer(rn, w, dict(env, **extra), impl, cmd, cwd, tmo))
            for r in rs:
                if r and r.get("status") == "ok" and r.get("comparable", True):
                    points.setdefault(w, {}).setdefault(r["impl"], []).append((float(v), warm(r)[0]))
    if rn.args.dry_run:
        return 0
    print("\n| workload | impl | size | warm ms |\n|---|---|---|---|")
    for w, impls in points.items():
        for impl, pts in impls.items():
            for x, y in pts:
                print(f"| {w} | {impl} | {plan[w][0]}={x:g} | {y:.3f} |")
    out = os.path.join(here, f"sweep-{mode}.png")
    msg = plot(points, plan, out)
    print("bench: " + msg)
    return 0


def plot(points, plan, out):
    if not points:
        return "no points to plot"
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        n = len(points)
        cols = min(4, n)
        rows = (n + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3.2 * rows), squeeze=False)
        for ax, (w, impls) in zip(axes.flat, points.items()):
            for impl, pts in impls.items():
                ax.loglog([p[0] for p in pts], [p[1] for p in pts], marker="o", label=impl)
            ax.set_title(w)
            ax.set_xlabel(plan[w][0])
            ax.set_ylabel("warm ms")
            ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(out, dpi=110)
        return f"wrote {out} (matplotlib)"
    except ImportError:
        pass
    gp = shutil.which("gnuplot")
    if not gp:
        return "no plot: neither matplotlib nor gnuplot is installed (the table above has the points)"
    d = out[:-4] + "-data"
    os.makedirs(d, exist_ok=True)
    n = len(points)
    cols = min(4, n)
    rows = (n + cols - 1) // cols
    script = [f"set terminal pngcairo size {400 * cols},{320 * rows}" if "pngcairo" in sh([gp, "-e", "set terminal"])
              else f"set terminal png size {400 * cols},{320 * rows}",
              f"set output '{out}'", f"set multiplot layout {rows},{cols}", "set logscale xy",
              "set key top left font ',7'", "set ylabel 'warm ms'"]
    for w, impls in points.items():
        plots = []
        for impl, pts in impls.items():
            fn = os.path.join(d, f"{w}-{impl}.dat")
            with open(fn, "w") as f:
                f.writelines(f"{x} {y}\n" for x, y in pts)
            plots.append(f"'{fn}' using 1:2 with linespoints title '{impl}' noenhanced")
        script += [f"set title '{w}' noenhanced", f"set xlabel '{plan[w][0]}'", "plot " + ", ".join(plots)]
    script.append("unset multiplot")
    p = subprocess.run([gp], input="\n".join(script) + "\n", capture_output=True, text=True)
    if p.returncode != 0:
        return f"gnuplot failed: {p.stderr.strip()[-300:]}"
    return f"wrote {out} (gnuplot; data in {d})"
