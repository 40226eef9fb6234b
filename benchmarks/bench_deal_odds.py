#!/usr/bin/env python3
"""Benchmark `tjsim deal-odds`: the issue's targets and how throughput scales with deals and threads.

Every timing is a fresh `python cli.py …` process (start-up and numba cache loading included),
wall-clock, best of --repeat runs. Prints a Markdown report for benchmarks/README.md.

    python benchmarks/bench_deal_odds.py            # full (≈ 1–2 min on 2 cores)
    python benchmarks/bench_deal_odds.py --quick
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, str(ROOT / "cli.py"), "deal-odds"]


def run(args: list[str], repeat: int) -> float:
    """Best wall time of `repeat` runs of deal-odds with `args` (output discarded)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        proc = subprocess.run(CLI + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        dt = time.perf_counter() - t
        if proc.returncode != 0:
            sys.exit(f"deal-odds {' '.join(args)} failed: {proc.stderr.strip()}")
        best = min(best, dt)
    return best


def cpu_model() -> str:
    """CPU model name from lscpu (or platform)."""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> None:
    """Run the benchmark and print the report."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller scaling grid, one repeat")
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    repeat = 1 if a.quick else a.repeat
    print(f"- date: {datetime.date.today().isoformat()}")
    print(f"- machine: {cpu_model()}, {os.cpu_count()} logical CPUs; Python {platform.python_version()}")
    try:
        load = os.getloadavg()[0]
        print(f"- load average before the run: {load:.2f} (the machine is shared)")
    except OSError:
        pass
    run(["--deals", "1000", "--exact", "--events", "all"], 1)  # warm the numba cache
    run(["--deals", "5000", "--shuffle", "wash:1", "--events", "all"], 1)

    print("\n| target | command | wall s | goal |")
    print("|---|---|---|---|")
    big = ["--method", "left", "--deals", "100000000", "--format", "csv", "--threads", "2"]
    t_big = run(big, repeat)
    print(f"| 100 M deals, INTERFACES.md events | `deal-odds {' '.join(big)}` | {t_big:.2f} "
          f"({100 / t_big:.1f} M deals/s incl. start-up) | ≤ 6 s |")
    ex = ["--method", "left", "--deals", "1000", "--exact", "--events", "all", "--format", "csv"]
    t_ex = run(ex, repeat)
    print(f"| exact, all events | `deal-odds {' '.join(ex)}` | {t_ex:.2f} | ≤ 3 s |")
    small = ["--deals", "1000"]
    t_small = run(small, repeat)
    print(f"| warm start | `deal-odds {' '.join(small)}` | {t_small:.2f} | ≤ 2 s |")
    default: list[str] = []
    t_def = run(default, repeat)
    print(f"| default (11 methods × 1 M deals) | `deal-odds` | {t_def:.2f} | seconds |")

    print("\nScaling (`--method left --format csv`, INTERFACES.md events; M deals/s excludes the start-up "
          f"of {t_small:.2f} s measured above):\n")
    print("| deals | threads | wall s | M deals/s (net of start-up) |")
    print("|---|---|---|---|")
    grid = [10**6, 10**7] if a.quick else [10**6, 10**7, 10**8]
    for deals in grid:
        for threads in (1, 2):
            t = run(["--method", "left", "--deals", str(deals), "--format", "csv", "--threads", str(threads)],
                    1 if deals >= 10**8 else repeat)
            print(f"| {deals:,} | {threads} | {t:.2f} | {_net_rate(deals, t, t_small)} |")
    for events in ("all",):
        t = run(["--method", "left", "--deals", "10000000", "--format", "csv", "--threads", "2",
                 "--events", events], repeat)
        print(f"| 10,000,000 (--events {events}) | 2 | {t:.2f} | {_net_rate(10**7, t, t_small)} |")
    kernel(20_000_000 if not a.quick else 4_000_000)


def _net_rate(deals: int, wall: float, start_up: float) -> str:
    """M deals/s net of the start-up, or a dash when the start-up is most of the run (no honest rate)."""
    if wall < 1.5 * start_up:
        return "— (start-up dominates)"
    return f"{deals / (wall - start_up) / 1e6:.1f}"


def kernel(deals: int) -> None:
    """In-process kernel throughput (no start-up), 1 and 2 threads: wall and CPU time per deal."""
    import numba

    from tianjiu_sim import preset
    from tianjiu_sim.sim.odds import run_cell
    from tianjiu_sim.kernels.shuffles import Shuffle
    from tianjiu_sim.kernels.threads import set_threads

    rules = preset("hk")
    run_cell(rules, "left", Shuffle("perfect"), "box", 100_000, 1)  # load the cached kernels
    print(f"\nKernel alone (`odds.run_cell`, hk, perfect shuffle, {deals:,} deals, in-process, best of 3):\n")
    print("| threads | wall s | M deals/s | CPU ns per deal |")
    print("|---|---|---|---|")
    for threads in (1, 2):
        if threads > numba.config.NUMBA_NUM_THREADS:
            continue
        set_threads(threads)
        best = (float("inf"), 0.0)
        for r in range(3):
            w, c = time.perf_counter(), time.process_time()
            run_cell(rules, "left", Shuffle("perfect"), "box", deals, 10 + r)
            best = min(best, (time.perf_counter() - w, time.process_time() - c))
        print(f"| {threads} | {best[0]:.2f} | {deals / best[0] / 1e6:.1f} | {best[1] / deals * 1e9:.0f} |")


if __name__ == "__main__":
    main()
