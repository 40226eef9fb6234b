#!/usr/bin/env python3
"""Benchmark `pimc` and `oracle` decisions: time per decision over the decisions of real deals.

Deals are played by `heuristic` at every seat (hk, seed 1, deal i); at every decision with
more than one legal action the seat's observation is rebuilt (sim/advise.observation) and
the search strategies' own evaluation (strategies/search.evaluate, as the policy calls it) is
timed: pimc with W worlds at its default horizon, and oracle in the true deal. Prints a
Markdown report for benchmarks/README.md (median, 90th and 99th percentile, worst).

    NUMBA_NUM_THREADS=1 python benchmarks/bench_pimc.py --deals 100
    NUMBA_NUM_THREADS=1 python benchmarks/bench_pimc.py --deals 100 --worlds 32 --horizon 3
"""
from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_solver import cpu_model  # noqa: E402
from tianjiu_sim.game.rules import preset  # noqa: E402
from tianjiu_sim.kernels.layout import STREAMS  # noqa: E402
from tianjiu_sim.kernels.position import position_from_trace  # noqa: E402
from tianjiu_sim.kernels.rng import seed_stream  # noqa: E402
from tianjiu_sim.kernels.tables import pack_params, tables  # noqa: E402
from tianjiu_sim.sim.advise import history_of_trace, observation  # noqa: E402
from tianjiu_sim.sim.runner import simulate_traces  # noqa: E402
from tianjiu_sim.strategies import names  # noqa: E402
from tianjiu_sim.strategies import search as S  # noqa: E402


def percentile(xs: list[float], q: float) -> float:
    """The q-quantile (0–1) of xs by the nearest rank."""
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))]


def main() -> None:
    """Run the benchmark and print the report."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--worlds", type=int, default=S.DEFAULT_WORLDS)
    ap.add_argument("--horizon", type=int, default=S.HORIZON)
    ap.add_argument("--oracle-horizon", type=int, default=names.ORACLE_HORIZON)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rules = preset("hk")
    tabs, params = tables(rules), pack_params(rules)
    scr = S.search_scratch(S.search_tables(rules), rules.players)
    buf = np.zeros(128, dtype=np.int64)
    st = np.zeros(4, dtype=np.uint64)
    seed_stream(st, np.uint64(args.seed), STREAMS["advise"], 0)  # an all-zero xoshiro state never moves
    traces = simulate_traces(rules, ["heuristic"], args.seed, args.deals)
    times = {"pimc": [], "oracle": []}
    warm = False
    for tr in traces:
        plays = [p for t in tr["tricks"] for p in t["plays"]]
        for at in range(len(plays)):
            pos = position_from_trace(rules, tr, at)
            obs = observation(rules, pos, history_of_trace(rules, tr, at))
            hands = np.array(pos.hands, dtype=np.int64)
            if S.candidates(obs, tabs, params, buf, scr[0], scr[2], scr[14]) < 2:
                continue  # one legal action: the policy does not search
            if not warm:  # compile / load the kernels outside the timings
                S.evaluate(obs, hands, 1, 1, 0, 0, 0, -1, tabs, params, st, buf, scr)
                warm = True
            for name, w, h in (("pimc", args.worlds, args.horizon), ("oracle", 0, args.oracle_horizon)):
                t = time.perf_counter()
                S.evaluate(obs, hands, w, h, 0, 0, 0, -1, tabs, params, st, buf, scr)
                times[name].append(time.perf_counter() - t)
    print(f"### pimc and oracle decisions, `hk` — {datetime.date.today().isoformat()}, {cpu_model()}, 1 thread\n")
    print(f"{args.deals} deals played by heuristic (seed {args.seed}); every decision with two or more legal "
          f"actions, timed as the policy makes it. pimc: {args.worlds} worlds, exact from tricks of "
          f"{args.horizon} tiles a hand; oracle: the true deal, exact from {args.oracle_horizon}.\n")
    print("| strategy | decisions | median | 90th pct | 99th pct | worst |")
    print("|---|---|---|---|---|---|")
    for name, xs in times.items():
        label = f"pimc:{args.worlds}:{args.horizon}" if name == "pimc" else f"oracle:{args.oracle_horizon}"
        print(f"| {label} | {len(xs):,} | {statistics.median(xs) * 1000:.2f} ms | {percentile(xs, 0.9) * 1000:.2f} ms | "
              f"{percentile(xs, 0.99) * 1000:.2f} ms | {max(xs) * 1000:.2f} ms |")


if __name__ == "__main__":
    main()
