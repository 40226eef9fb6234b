"""九支十仔 throughput: complete deals per second (1 and 2 threads) and time per lookahead decision (warm cache)."""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numba
import numpy as np

from tianjiu_sim.kernels.layout import STREAM_DEAL, STREAM_PLAY
from tianjiu_sim.kernels.rng import seed_stream
from tianjiu_sim.nine_cards.engine import STATE_LEN, advance, discard, pack_rules, start_deal
from tianjiu_sim.nine_cards.rules import preset
from tianjiu_sim.nine_cards.runner import run_deals
from tianjiu_sim.nine_cards.strategies import OBS_LEN, POLICIES, choose, choose_simple, observe, strategy_params


def rate(rules, policy: str, deals: int, threads: int, repeats: int) -> tuple[float, float]:
    """Median (deals per wall second, deals per CPU second of the process) over `repeats` runs.

    On a shared machine the wall rate depends on the other jobs; the CPU rate (process CPU
    time, all threads) is what the cores delivered to this run while it was scheduled.
    """
    run_deals(rules, [policy], 1, 2000, threads=threads)  # compile / warm
    wall, cpu = [], []
    for r in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        run_deals(rules, [policy], 100 + r, deals, threads=threads)
        wall.append(deals / (time.perf_counter() - t0))
        cpu.append(deals / (time.process_time() - c0))
    return statistics.median(wall), statistics.median(cpu)


def lookahead_decision_ms(rules, worlds: int, decisions: int) -> tuple[float, float]:
    """Median (wall, CPU) milliseconds per lookahead decision, over decisions met in greedy-played deals."""
    prm = pack_rules(rules)
    sp = strategy_params(worlds=worlds)
    S = np.zeros(STATE_LEN, dtype=np.int64)
    obs = np.zeros(OBS_LEN, dtype=np.int64)
    st, st_play = np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64)
    rec = np.zeros((0, 3), dtype=np.int64)
    times, cpu = [], []
    d = 0
    la = POLICIES["lookahead"]
    while len(times) < decisions:
        seed_stream(st, np.uint64(7), STREAM_DEAL, d)
        seed_stream(st_play, np.uint64(7), STREAM_PLAY, d)
        start_deal(S, prm, 0, st, rec)
        while True:
            s = advance(S, prm, st, rec)
            if s < 0:
                break
            t0, c0 = time.perf_counter(), time.process_time()
            choose(S, s, la, prm, sp, st_play, obs)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            observe(S, prm, s, obs)
            discard(S, s, choose_simple(obs, POLICIES["greedy"], prm, sp, st_play), rec)
        d += 1
    return 1000 * statistics.median(times), 1000 * statistics.median(cpu)


def main() -> None:
    """Print Markdown tables of deals/s and lookahead decision time."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--policies", default="greedy,random,heuristic")
    ap.add_argument("--players", default="4,7")
    ap.add_argument("--worlds", default="16,32,64")
    args = ap.parse_args()
    threads = [t for t in (1, 2) if t <= numba.config.NUMBA_NUM_THREADS]
    print(f"numba {numba.__version__}, python {platform.python_version()}, "
          f"{numba.config.NUMBA_NUM_THREADS} threads available, {args.deals} deals per run "
          f"(median of {args.repeats})")
    print()
    load = os.getloadavg()[0]
    print(f"load average at start {load:.1f} on {os.cpu_count()} CPUs")
    print()
    print("| players | policy | " + " | ".join(f"{t} thread{'s' if t > 1 else ''}: deals/s (per CPU-s)" for t in threads)
          + (" | 2 / 1 threads (wall)" if len(threads) > 1 else "") + " |")
    print("|---|---|" + "---:|" * (len(threads) + (len(threads) > 1)))
    for n in (int(x) for x in args.players.split(",")):
        rules = preset(n)
        for pol in args.policies.split(","):
            rates = [rate(rules, pol, args.deals, t, args.repeats) for t in threads]
            cells = [f"{w:,.0f} ({c:,.0f})" for w, c in rates]
            cells += [f"{rates[1][0] / rates[0][0]:.2f}x"] if len(threads) > 1 else []
            print(f"| {n} | {pol} | " + " | ".join(cells) + " |", flush=True)
    print(f"load average at end {os.getloadavg()[0]:.1f}")
    print()
    print("| players | lookahead worlds | ms per decision, wall (CPU), median of 300 |")
    print("|---|---:|---:|")
    for w in (int(x) for x in args.worlds.split(",")):
        wall, cpu = lookahead_decision_ms(preset(4), w, 300)
        print(f"| 4 | {w} | {wall:.3f} ({cpu:.3f}) |", flush=True)


if __name__ == "__main__":
    main()
