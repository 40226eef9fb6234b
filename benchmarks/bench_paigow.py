#!/usr/bin/env python3
"""Benchmark `tjsim paigow`: the issue's targets (whole 壓寶 best-split table ≤ 30 s warm; split and
odds ≤ 1 s warm) and the two-sided solution.

Two kinds of timing, both wall-clock, median of --repeat runs:
- "call": the library call in this process after a warm-up, with every per-profile cache dropped
  (rank table, distinct hands, house way) — what a command computes;
- "cli": a fresh `python cli.py paigow …` process (start-up, imports and numba cache loading included).
"warm" = numba's on-disk cache already compiled and, for `split`, the two-sided solution cached on disk.
Prints a Markdown section for benchmarks/README.md.

    python benchmarks/bench_paigow.py            # ≈ 2–4 min on 2 cores
    python benchmarks/bench_paigow.py --repeat 3
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tianjiu_sim.game.tiles import parse_hand
from tianjiu_sim.paigow import analysis, hands, ways
from tianjiu_sim.paigow.profiles import profile


def drop_caches() -> None:
    """Forget every per-profile table, so a call pays for building them."""
    ways._GAMES.clear()
    hands.rank_table.cache_clear()
    hands.distinct_hands.cache_clear()


def time_call(fn, repeat: int) -> list[float]:
    """Wall times of `fn()` after one warm-up, caches dropped before each run."""
    fn()
    out = []
    for _ in range(repeat):
        drop_caches()
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def time_cli(args: list[str], repeat: int) -> list[float]:
    """Wall times of fresh CLI processes (one warm-up run first)."""
    cmd = [sys.executable, str(ROOT / "cli.py"), "paigow", *args]
    out = []
    for i in range(repeat + 1):
        t = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        dt = time.perf_counter() - t
        if proc.returncode != 0:
            sys.exit(f"paigow {' '.join(args)} failed: {proc.stderr.strip()}")
        if i:
            out.append(dt)
    return out


def cpu_model() -> str:
    """CPU model name from /proc/cpuinfo (or platform)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def fmt(ts: list[float]) -> str:
    return f"{statistics.median(ts):.2f} s (min {min(ts):.2f}, max {max(ts):.2f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    r = a.repeat
    hand = "6-6 4-4 3-1 2-1"
    rows = []
    t0 = time.perf_counter()
    analysis.solved(ways.game(profile("vegas")))  # fills the disk cache that `split` reads
    t_cold_solve = time.perf_counter() - t0
    rows.append(("yabao best-split table (all 4,285 hands)", "≤ 30 s",
                 fmt(time_call(lambda: analysis.best_split_table(profile("yabao")), r))))
    rows.append(("vegas best-split table (all 3,620 hands)", "", fmt(time_call(
        lambda: analysis.best_split_table(profile("vegas")), r))))
    rows.append(("split vegas (house way + solution)", "≤ 1 s",
                 fmt(time_call(lambda: analysis.split_rows(profile("vegas"), parse_hand(hand)), r))))
    rows.append(("odds kong (151 hands)", "≤ 1 s", fmt(time_call(lambda: analysis.kong_odds(profile("kong")), r))))
    rows.append(("edge vegas house vs house", "", fmt(time_call(lambda: analysis.edge(profile("vegas")), r))))
    g = ways.game(profile("vegas"))
    ts = []
    for _ in range(max(1, r // 2)):
        g.cache.pop(("equilibrium",), None)
        t = time.perf_counter()
        ways.equilibrium(g)
        ts.append(time.perf_counter() - t)
    rows.append(("vegas two-sided solution (double oracle + LP)", "", fmt(ts) +
                 f"; `analysis.solved` at start {t_cold_solve:.1f} s (0.x s = read from the disk cache)"))
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "t.csv")
        rows.append(("cli: table --profile yabao --format csv", "≤ 30 s",
                     fmt(time_cli(["table", "--profile", "yabao", "--format", "csv", "--out", out], r))))
    rows.append(("cli: split --profile vegas --hand …", "≤ 1 s", fmt(time_cli(["split", "--profile", "vegas",
                                                                              "--hand", hand], r))))
    rows.append(("cli: odds --profile kong", "≤ 1 s", fmt(time_cli(["odds", "--profile", "kong"], r))))
    rows.append(("cli baseline: settings --profile kong (imports, no kernel run)", "",
                 fmt(time_cli(["settings", "--profile", "kong"], r))))
    load = os.getloadavg()
    print(f"Machine: {cpu_model()}, {os.cpu_count()} cores; Python {platform.python_version()}; "
          f"NUMBA_NUM_THREADS={os.environ.get('NUMBA_NUM_THREADS', 'all')}; "
          f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC; load average at the end "
          f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}; median of {r} runs\n")
    print("| what | target | wall time |\n|---|---|---|")
    for what, target, t in rows:
        print(f"| {what} | {target} | {t} |")


if __name__ == "__main__":
    main()
