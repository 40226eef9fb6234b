#!/usr/bin/env python3
"""Benchmark `tjsim solve` as a user runs it: wall time of the command on full `hk` deals, warm cache.

Each deal (perfect shuffle, dealt in rounds, seed → deal i, as in bench_solver.py) is solved from
the first lead for the banker with every action (`tjsim solve --deal … --dong 0,0,0,0 --leader 0`),
or with `--value-only`.  The time is the wall time of the whole command: interpreter start, imports,
loading the compiled kernels from the cache, the search and the output.  A run past `--timeout`
seconds is stopped and counted as "> timeout".  Before every 10th deal each command also solves a
4-tile position (the example of `tjsim solve --help`), whose search is instant: the median of those
runs is the fixed cost of a command on the machine that day, so that runs of different days, whose
speed drifts, can be told apart from changes of the search.  Prints a Markdown report for
benchmarks/README.md.
Several `--tjsim` commands (e.g. a wrapper running an older checkout) are run in turn on each deal,
so a before/after comparison sees the same drift of the machine; one row each.

    python benchmarks/bench_solve_cli.py --deals 60 --timeout 30
    python benchmarks/bench_solve_cli.py --deals 60 --value-only
    python benchmarks/bench_solve_cli.py --deals 60 --tjsim ./tjsim-before --tjsim tjsim
    python benchmarks/bench_solve_cli.py --first 200 --deals 200   # the hold-out deals

Deals 0–199 are the ones the solver's constants were tuned on (kernels/position.py); deals 200–399, which no
tuning has read, give the honest figure, and a change of a constant must hold on them too (docs/solver.md).
"≤ 1 s" is the share of deals solved within a second, with its 95% Wilson interval: the chance that a random
deal is, the deals being independent draws.
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
from tianjiu_sim.stats import wilson  # noqa: E402

from bench_solver import cpu_model  # noqa: E402


def main() -> None:
    """Run the benchmark and print the report."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--first", type=int, default=0, help="the first deal (200: the hold-out deals 200–399)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds before a run is stopped")
    ap.add_argument("--value-only", action="store_true")
    # the console script next to this Python (a pyenv shim in PATH would add its own ~0.1 s)
    beside = Path(sys.executable).parent / "tjsim"
    ap.add_argument("--tjsim", action="append", help="a tjsim command to time (repeat to compare builds)")
    args = ap.parse_args()
    builds = args.tjsim or [str(beside) if beside.exists() else shutil.which("tjsim") or "tjsim"]
    rules = preset("hk")
    extra = ["--value-only"] if args.value_only else []

    def command(tjsim: str, i: int, more: list[str]) -> list[str]:
        deal = " | ".join(format_hand(h) for h in deal_reference(rules, args.seed, i))
        return [tjsim, "solve", "--deal", deal, "--dong", "0,0,0,0", "--leader", "0", *more]

    for tjsim in builds:  # one run first: the kernels are compiled or loaded into the OS file cache
        subprocess.run(command(tjsim, 0, ["--value-only"]), capture_output=True, check=True)
    times = {b: [] for b in builds}
    fixed = {b: [] for b in builds}
    small = ["solve", "--deal", "6-6 5-4 | 1-1 6-2 | 4-4 5-3 | 3-1 4-1", "--dong", "2,2,1,1", "--leader", "0"]
    for i in range(args.first, args.first + args.deals):
        for tjsim in builds if i % 10 == 0 else ():
            t = time.perf_counter()
            subprocess.run([tjsim, *small], capture_output=True, check=True)
            fixed[tjsim].append(time.perf_counter() - t)
        for tjsim in builds:
            t = time.perf_counter()
            try:
                subprocess.run(command(tjsim, i, extra), capture_output=True, check=True, timeout=args.timeout)
                dt = time.perf_counter() - t
            except subprocess.TimeoutExpired:
                dt = float("inf")
            times[tjsim].append(dt)
        print(f"deal {i}: " + " / ".join(f"{times[b][-1]:.2f} s" for b in builds), file=sys.stderr, flush=True)

    what = "the value only (--value-only)" if args.value_only else "the value and every action's value"
    print(f"### `tjsim solve` wall time, {what} — {datetime.date.today()}\n")
    last = args.first + args.deals - 1
    print(f"Machine: {cpu_model()}, {args.deals} full `hk` deals (seed {args.seed}, deals {args.first}–{last}), "
          f"banker to lead, warm cache, runs stopped after {args.timeout:.0f} s"
          f"{', the builds run in turn on each deal' if len(builds) > 1 else ''}.\n")
    print("| command | median | 75th pct | 90th pct | worst | ≤ 1 s (95% CI) | stopped | fixed cost (4-tile position) |")
    print("|---|---|---|---|---|---|---|---|")
    for tjsim in builds:
        done = sorted(times[tjsim])
        n = len(done)

        def fmt(v: float) -> str:
            return f"> {args.timeout:.0f} s" if v == float("inf") else f"{v:.2f} s"

        def q(p: float) -> str:
            return fmt(done[min(n - 1, int(p * n))])

        within = sum(t <= 1.0 for t in done)
        lo, hi = wilson(within, n)
        print(f"| `{tjsim}` | {fmt(statistics.median(done))} | {q(0.75)} | {q(0.90)} | {q(1.0)} "
              f"| {within}/{n} ({100 * lo:.1f}–{100 * hi:.1f} %) | {sum(t == float('inf') for t in done)}/{n} "
              f"| {statistics.median(fixed[tjsim]):.2f} s ({len(fixed[tjsim])} runs) |")


if __name__ == "__main__":
    main()
