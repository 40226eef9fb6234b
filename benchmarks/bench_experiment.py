"""Experiment throughput: local processes vs Dask, the overhead per chunk, and a chunk size to use.

    python benchmarks/bench_experiment.py [--deals N] [--workers 2] [--quick]

Measures, on this machine:
1. the measure kernels alone, in-process on one large chunk (deals/s);
2. the fixed cost of one chunk (task set-up, tables, the atomic chunk write), from chunks of 1 deal;
3. whole runs (`run_experiment`) with --workers 1, local processes and a Dask LocalCluster, at
   several chunk sizes (deals/s including start-up, chunk writes and combining);
and recommends, per measure, the smallest chunk size whose fixed cost is ≤ 2% of its work.
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

from tianjiu_sim.backends import run_experiment, run_task, tasks_iter  # noqa: E402
from tianjiu_sim.chunks import ResultsFolder  # noqa: E402
from tianjiu_sim.experiment import load_experiment  # noqa: E402

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
    """(deals/s of a whole run, chunks) including start-up, writes and combining."""
    exp = load(tmp, text, deals, chunk)
    out = tmp / f"run_{backend}_{workers}_{chunk}"
    t0 = time.perf_counter()
    run_experiment(exp, str(out), backend=backend, workers=workers, report=False)
    secs = time.perf_counter() - t0
    shutil.rmtree(out)
    return exp.total_deals / secs, len(exp.chunks())


def main() -> None:
    """Run the benchmark and print a markdown report."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2_000_000, help="deals per cell of the deal_odds runs")
    ap.add_argument("--engine-deals", type=int, default=20_000, help="deals of the payments (engine) runs")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="fewer configurations")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tjsim_bench_"))
    lines = [f"Machine: {platform.machine()}, {os.cpu_count()} logical CPUs, {platform.platform()}, "
             f"Python {platform.python_version()}; date {datetime.date.today().isoformat()}.", ""]
    try:
        rows = []
        for name, text, deals in (("deal_odds", ODDS, args.deals), ("payments (heuristic×4)", PAYMENTS,
                                                                      args.engine_deals)):
            rate = kernel_rate(tmp, text, min(deals, 500_000))
            run_s, write_s = chunk_overhead(tmp, text)
            fixed = run_s - 1 / rate + write_s
            # smallest chunk whose fixed cost is ≤ 2% of its compute time, rounded up to 1000s
            rec = max(1000, int(-(-fixed * rate * 50 // 1000) * 1000))
            rows.append((name, rate, fixed, write_s, rec))
        lines += ["| measure | kernel deals/s (1 process) | fixed cost per chunk | of which chunk write | "
                  "recommended chunk_size |", "|---|---:|---:|---:|---:|"]
        lines += [f"| {n} | {r:,.0f} | {f * 1e3:.2f} ms | {w * 1e3:.2f} ms | {c:,} |" for n, r, f, w, c in rows]
        lines += ["", "Whole runs (deal_odds, 2 cells, start-up and combining included):", "",
                  "| backend | workers | chunk_size | chunks | deals/s |", "|---|---:|---:|---:|---:|"]
        chunks = (50_000, 250_000) if args.quick else (10_000, 50_000, 250_000)
        configs = [("local", 1), ("local", args.workers), ("dask", args.workers)]
        for chunk in chunks:
            for backend, w in configs:
                rate, n = full_run(tmp, ODDS, args.deals, chunk, backend, w)
                lines.append(f"| {backend} | {w} | {chunk:,} | {n} | {rate:,.0f} |")
        lines += ["", "Whole runs (payments, heuristic×4, 1 cell):", "",
                  "| backend | workers | chunk_size | chunks | deals/s |", "|---|---:|---:|---:|---:|"]
        for backend, w in configs:
            chunk = max(1000, args.engine_deals // 8)
            rate, n = full_run(tmp, PAYMENTS, args.engine_deals, chunk, backend, w)
            lines.append(f"| {backend} | {w} | {chunk:,} | {n} | {rate:,.0f} |")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
