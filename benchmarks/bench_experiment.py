"""Experiment throughput: local processes vs Dask, the overhead per chunk, and a chunk size to use.

    python benchmarks/bench_experiment.py [--deals N] [--engine-deals N] [--workers 2]

Measures, on this machine:
1. the measure kernels alone, in-process on one large chunk (deals/s);
2. the fixed cost of one chunk (task set-up, tables, the atomic chunk write), from chunks of 1 deal;
3. the start-up cost of each backend (a 1-deal run);
4. whole runs (`run_experiment`) with --workers 1 (in this process), a local process pool and a
   Dask LocalCluster, at two chunk sizes (deals/s with and without the start-up);
and recommends, per measure, the smallest chunk size whose fixed cost is ≤ 2% of its work
(capped at 30 s of work, which is what a kill can lose).
Prints markdown for benchmarks/README.md.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tianjiu_sim.experiments.backends import run_experiment, run_task, tasks_iter  # noqa: E402
from tianjiu_sim.experiments.chunks import ResultsFolder  # noqa: E402
from tianjiu_sim.experiments.experiment import load_experiment  # noqa: E402

ODDS = """\
name = "bench_odds"
measure = "deal_odds"
seed = 1
deals = {deals}
chunk_size = {chunk}
[grid]
method = ["left", "skin"]
shuffle = ["perfect"]
"""
PAYMENTS = """\
name = "bench_payments"
measure = "payments"
seed = 1
deals = {deals}
chunk_size = {chunk}
[grid]
strategies = ["heuristic"]
"""


def load(tmp: Path, text: str, deals: int, chunk: int):
    """An Experiment from a template."""
    p = tmp / f"e_{deals}_{chunk}.toml"
    p.write_text(text.format(deals=deals, chunk=chunk), encoding="utf-8")
    return load_experiment(p)


def kernel_rate(tmp: Path, text: str, deals: int) -> float:
    """Deals/s of one chunk computed in-process (after a warm-up that loads the compiled kernels)."""
    exp = load(tmp, text, deals, deals)
    task = next(iter(tasks_iter(exp)))
    run_task(dict(task, stop=min(task["stop"], 100)))
    t0 = time.perf_counter()
    run_task(task)
    return (task["stop"] - task["start"]) / (time.perf_counter() - t0)


def chunk_overhead(tmp: Path, text: str, n: int = 200) -> tuple[float, float]:
    """Seconds per chunk of 1 deal: (compute incl. set-up, atomic write of its chunk file)."""
    exp = load(tmp, text, n, 1)
    tasks = list(tasks_iter(exp))
    run_task(tasks[0])
    folder = ResultsFolder(tmp / "overhead")
    (folder.path / "chunks").mkdir(parents=True, exist_ok=True)
    t_run = t_write = 0.0
    for t in tasks:
        t0 = time.perf_counter()
        cell, k, a, b, tables, _ = run_task(t)
        t1 = time.perf_counter()
        folder.write_chunk(cell, k, a, b, tables)
        t_write += time.perf_counter() - t1
        t_run += t1 - t0
    shutil.rmtree(folder.path)
    return t_run / n, t_write / n


def full_run(tmp: Path, text: str, deals: int, chunk: int, backend: str, workers: int) -> tuple[float, int]:
    """(seconds of a whole run, chunks), start-up, chunk writes and combining included."""
    exp = load(tmp, text, deals, chunk)
    out = tmp / f"run_{backend}_{workers}_{chunk}_{deals}"
    t0 = time.perf_counter()
    run_experiment(exp, str(out), backend=backend, workers=workers, report=False)
    secs = time.perf_counter() - t0
    shutil.rmtree(out)
    return secs, len(exp.chunks())


def main() -> None:
    """Run the benchmark and print a markdown report."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10_000_000, help="deals per cell of the deal_odds runs (2 cells)")
    ap.add_argument("--engine-deals", type=int, default=100_000, help="deals of the payments (engine) runs")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tjsim_bench_"))
    load_avg = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [f"Machine: {platform.machine()}, {os.cpu_count()} logical CPUs, {platform.platform()}, "
             f"Python {platform.python_version()}; date {datetime.date.today().isoformat()}; "
             f"load average at start {load_avg:.1f}.", ""]
    configs = [("local", 1), ("local", args.workers), ("dask", args.workers)]
    try:
        rows = []
        for name, text, deals in (("deal_odds", ODDS, args.deals), ("payments (heuristic×4)", PAYMENTS,
                                                                      args.engine_deals)):
            rate = kernel_rate(tmp, text, min(deals, 1_000_000))
            run_s, write_s = chunk_overhead(tmp, text)
            fixed = max(0.0, run_s - 1 / rate) + write_s
            # fixed cost ≤ 2% of a chunk's work, but a chunk ≤ 30 s of work (what a kill can lose)
            rec = min(max(1000, fixed * rate * 50), 30 * rate)
            rec = int(float(f"{rec:.1g}"))
            rows.append((name, rate, fixed, write_s, rec))
        lines += ["Per chunk, in one process:", "",
                  "| measure | kernel deals/s (1 process) | fixed cost per chunk | of which atomic chunk write | "
                  "recommended chunk_size |", "|---|---:|---:|---:|---:|"]
        lines += [f"| {n} | {r:,.0f} | {f * 1e3:.2f} ms | {w * 1e3:.2f} ms | {c:,} |" for n, r, f, w, c in rows]
        lines += ["", "Start-up and tear-down of a run (1 deal, 1 chunk; the pool or cluster, imports, "
                      "kernel loading, manifest, combine):", "", "| backend | workers | seconds |", "|---|---:|---:|"]
        startup = {}
        full_run(tmp, ODDS, 1, 1, "local", 1)  # warm: exact-value enumeration and plotting-free combine
        for backend, w in configs:
            startup[(backend, w)], _ = full_run(tmp, ODDS, 1, 1, backend, w)
            lines.append(f"| {backend} | {w} | {startup[(backend, w)]:.2f} |")
        for title, text, deals, cells, chunks in (
                ("deal_odds, 2 cells", ODDS, args.deals, 2, (100_000, 1_000_000)),
                ("payments, heuristic×4, 1 cell", PAYMENTS, args.engine_deals, 1, (2_000, 10_000))):
            lines += ["", f"Whole runs ({title}, {deals * cells:,} deals):", "",
                      "| backend | workers | chunk_size | chunks | seconds | deals/s | deals/s after start-up |",
                      "|---|---:|---:|---:|---:|---:|---:|"]
            for chunk in chunks:
                for backend, w in configs:
                    secs, n = full_run(tmp, text, deals, chunk, backend, w)
                    total = deals * cells
                    rest = secs - startup[(backend, w)]
                    steady = f"{total / rest:,.0f}" if rest > 0.1 * secs else "—"
                    lines.append(f"| {backend} | {w} | {chunk:,} | {n} | {secs:.1f} | {total / secs:,.0f} | "
                                 f"{steady} |")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
