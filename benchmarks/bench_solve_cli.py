#!/usr/bin/env python3
"""Benchmark `tjsim solve` as a user runs it: wall time of the command on full `hk` deals, warm cache.

Each deal (perfect shuffle, dealt in rounds, seed → deal i, as in bench_solver.py) is solved from
the first lead for the banker with every action (`tjsim solve --deal … --dong 0,0,0,0 --leader 0`),
or with `--value-only`.  The time is the wall time of the whole command: interpreter start, imports,
loading the compiled kernels from the cache, the search and the output.  A run past `--timeout`
seconds is stopped and counted as "> timeout".  Prints a Markdown report for benchmarks/README.md.

    python benchmarks/bench_solve_cli.py --deals 60 --timeout 30
    python benchmarks/bench_solve_cli.py --deals 60 --value-only
"""
from __future__ import annotations

import argparse
import datetime
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tianjiu_sim.game.reference import deal_reference  # noqa: E402
from tianjiu_sim.game.rules import preset  # noqa: E402
from tianjiu_sim.game.tiles import format_hand  # noqa: E402

from bench_solver import cpu_model  # noqa: E402


def main() -> None:
    """Run the benchmark and print the report."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds before a run is stopped")
    ap.add_argument("--value-only", action="store_true")
    # the console script next to this Python (a pyenv shim in PATH would add its own ~0.1 s)
    beside = Path(sys.executable).parent / "tjsim"
    ap.add_argument("--tjsim", default=str(beside) if beside.exists() else shutil.which("tjsim") or "tjsim")
    args = ap.parse_args()
    rules = preset("hk")
    extra = ["--value-only"] if args.value_only else []
    # one run first: the kernels are compiled or loaded into the OS file cache (a warm start)
    hands = deal_reference(rules, args.seed, 0)
    deal = " | ".join(format_hand(h) for h in hands)
    subprocess.run([args.tjsim, "solve", "--deal", deal, "--dong", "0,0,0,0", "--leader", "0", "--value-only"],
                   capture_output=True, check=True)
    times, stopped = [], 0
    for i in range(args.deals):
        deal = " | ".join(format_hand(h) for h in deal_reference(rules, args.seed, i))
        t = time.perf_counter()
        try:
            subprocess.run([args.tjsim, "solve", "--deal", deal, "--dong", "0,0,0,0", "--leader", "0", *extra],
                           capture_output=True, check=True, timeout=args.timeout)
            dt = time.perf_counter() - t
        except subprocess.TimeoutExpired:
            dt = float("inf")
            stopped += 1
        times.append(dt)
        print(f"deal {i}: {dt:.2f} s", file=sys.stderr, flush=True)
    done = sorted(times)
    n = len(done)

    def q(p: float) -> str:
        v = done[min(n - 1, int(p * n))]
        return f"> {args.timeout:.0f} s" if v == float("inf") else f"{v:.2f} s"

    what = "the value only (--value-only)" if args.value_only else "the value and every action's value"
    print(f"### `tjsim solve` wall time, {what} — {datetime.date.today()}\n")
    print(f"Machine: {cpu_model()}, {n} full `hk` deals (seed {args.seed}, deals 0–{n - 1}), banker to lead, "
          f"warm cache, runs stopped after {args.timeout:.0f} s.\n")
    print("| median | 75th pct | 90th pct | worst | ≤ 1 s | stopped |")
    print("|---|---|---|---|---|---|")
    med = statistics.median(done)
    med_s = f"> {args.timeout:.0f} s" if med == float('inf') else f"{med:.2f} s"
    print(f"| {med_s} | {q(0.75)} | {q(0.90)} | {q(1.0)} | {sum(t <= 1.0 for t in done)}/{n} | {stopped}/{n} |")


if __name__ == "__main__":
    main()
