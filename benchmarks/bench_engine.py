"""Engine throughput: complete deals per second per strategy and rule set, 1 vs 2 threads (warm cache)."""
from __future__ import annotations

import argparse
import platform
import time

import numba

from tianjiu_sim.game.rules import preset
from tianjiu_sim.sim.runner import run_deals


def rate(rules, policy: str, deals: int, threads: int, repeats: int = 3) -> float:
    """Best-of-`repeats` deals per second for one configuration."""
    run_deals(rules, [policy], 1, 2000, threads=threads)  # compile / warm
    best = 0.0
    for r in range(repeats):
        t0 = time.perf_counter()
        run_deals(rules, [policy], 100 + r, deals, threads=threads)
        best = max(best, deals / (time.perf_counter() - t0))
    return best


def main() -> None:
    """Print a Markdown table of deals/s."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--policies", default="random,greedy,heuristic")
    ap.add_argument("--rules", default="hk,folk")
    args = ap.parse_args()
    threads = [t for t in (1, 2) if t <= numba.config.NUMBA_NUM_THREADS]
    print(f"numba {numba.__version__}, python {platform.python_version()}, "
          f"{numba.config.NUMBA_NUM_THREADS} threads available, {args.deals} deals per run (best of 3)")
    print()
    scaling = len(threads) > 1
    print("| rules | policy | " + " | ".join(f"{t} thread{'s' if t > 1 else ''} (deals/s)" for t in threads)
          + (" | 2 / 1 threads" if scaling else "") + " |")
    print("|---|---|" + "---:|" * (len(threads) + scaling))
    for name in args.rules.split(","):
        rules = preset(name)
        for pol in args.policies.split(","):
            rates = [rate(rules, pol, args.deals, t) for t in threads]
            cells = [f"{r:,.0f}" for r in rates] + ([f"{rates[1] / rates[0]:.2f}x"] if scaling else [])
            print(f"| {name} | {pol} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
