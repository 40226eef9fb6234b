#!/usr/bin/env python3
"""Benchmark the exact solver: random `hk` deals solved from the first lead (banker leads), one thread.

For each deal (perfect shuffle, dealt in rounds, seed → deal i) the value V_s of the position
before the first lead is solved for the banker (seat 0) and for seat 3; time and nodes per
solve.  `--tiles K` solves the same kind of position with K tiles a hand left (the first
8 − K 戙 spread at random), to see how the cost grows towards a full deal.  Prints a Markdown
report for benchmarks/README.md.

`--max-nodes N` gives a solve up after N nodes (its time and nodes are then lower bounds).  The
median stays exact while fewer than half the solves give up (they all lie above it); the worst
is then reported as "> cap" with how many gave up.  `--seats 0` or `--seats 3` runs one side,
so the two can run as two processes.  `--jsonl FILE` writes each solve as it ends and, run again,
skips the solves already there (a run of hours can stop and go on; it is read again before each
solve, so a second process with `--reverse`, solving from the last deal, can share the run);
`--clock cpu` times a solve by the CPU time of its thread, so that a paused or shared machine does
not count.

    NUMBA_NUM_THREADS=1 python benchmarks/bench_solver.py --deals 200 --tiles 8
    NUMBA_NUM_THREADS=1 python benchmarks/bench_solver.py --deals 200 --tiles 6
    NUMBA_NUM_THREADS=1 python benchmarks/bench_solver.py --first 200 --deals 200 --max-nodes 5000000

Deals 0–199 are the ones the solver's constants were tuned on; `--first 200` runs the hold-out deals 200–399
(bench_solve_cli.py, docs/solver.md).
"""
from __future__ import annotations

import argparse
import datetime
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tianjiu_sim.game.reference import deal_reference  # noqa: E402
from tianjiu_sim.game.rules import preset  # noqa: E402
from tianjiu_sim.kernels.position import Position, Solver  # noqa: E402


def cpu_model() -> str:
    """CPU model name from lscpu (or platform)."""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def position(rules, seed: int, i: int, tiles: int) -> Position:
    """Deal i of the run: full hands, or the first `tiles` tiles of each with the rest as 戙."""
    hands = deal_reference(rules, seed, i)
    if tiles == rules.tiles_per_player:
        return Position(rules, tuple(hands), (0,) * rules.players, 0)
    rng = random.Random(seed * 1_000_003 + i)
    cut = []
    for h in hands:
        bits = [b for b in range(32) if h >> b & 1]
        rng.shuffle(bits)
        cut.append(sum(1 << b for b in bits[:tiles]))
    dong = [0] * rules.players
    for _ in range(rules.tiles_per_player - tiles):
        dong[rng.randrange(rules.players)] += 1
    return Position(rules, tuple(cut), tuple(dong), 0)


def main() -> None:
    """Run the benchmark and print the report."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--first", type=int, default=0, help="the first deal (200: the hold-out deals 200–399)")
    ap.add_argument("--tiles", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tt-bits", type=int, default=22)
    ap.add_argument("--max-nodes", type=int, default=0, help="give a solve up after this many nodes (0: never)")
    ap.add_argument("--seats", default="0,3", help="perspective seats, comma-separated")
    ap.add_argument("--jsonl", help="append each solve here; solves already there are not run again")
    ap.add_argument("--reverse", action="store_true", help="solve from the last deal to the first")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="time a solve by the wall clock or by its thread's CPU time")
    args = ap.parse_args()
    clock = time.perf_counter if args.clock == "wall" else time.thread_time

    def done() -> dict:
        """The solves of this run already in the --jsonl file: (deal, seat) → (time, nodes, gave up)."""
        got = {}
        if args.jsonl and Path(args.jsonl).exists():
            for line in Path(args.jsonl).read_text().splitlines():
                r = json.loads(line)
                if (r["tiles"], r["seed"], r["tt_bits"], r["max_nodes"]) == (args.tiles, args.seed, args.tt_bits,
                                                                             args.max_nodes):
                    got[r["deal"], r["seat"]] = (r["time"], r["nodes"], r["gave_up"])
        return got

    rules = preset("hk")
    solver = Solver(rules, tt_bits=args.tt_bits, max_nodes=args.max_nodes)
    solver.value(position(rules, args.seed, 0, 1), 0)  # compile / load the kernel first
    rows = {int(x): [] for x in args.seats.split(",")}
    t_all = time.perf_counter()
    deals = range(args.first, args.first + args.deals)
    for i in (reversed(deals) if args.reverse else deals):
        pos = position(rules, args.seed, i, args.tiles)
        for seat in rows:
            known = done()
            if (i, seat) in known:
                rows[seat].append(known[i, seat])
                continue
            t = clock()
            v, nodes = solver.value(pos, seat)
            rows[seat].append((clock() - t, nodes, v != v))
            if args.jsonl:
                with open(args.jsonl, "a") as f:
                    f.write(json.dumps({"deal": i, "seat": seat, "value": None if v != v else v, "nodes": nodes,
                                        "time": rows[seat][-1][0], "gave_up": v != v, "clock": args.clock,
                                        "tiles": args.tiles, "seed": args.seed, "tt_bits": args.tt_bits,
                                        "max_nodes": args.max_nodes}) + "\n")
        print(f"deal {i}: " + " / ".join(f"{got[-1][0]:.3f} s{' (gave up)' if got[-1][2] else ''}"
                                         for got in rows.values()), file=sys.stderr, flush=True)
    total = time.perf_counter() - t_all
    print(f"### Solver, `hk`, {args.tiles} tiles a hand, banker to lead — "
          f"{datetime.date.today().isoformat()}, {cpu_model()}, 1 thread\n")
    cap = f", a solve gives up after {args.max_nodes:,} nodes" if args.max_nodes else ""
    clocked = "the wall clock" if args.clock == "wall" else "the CPU time of the solving thread"
    print(f"{args.deals} deals (seed {args.seed}, deals {args.first}–{deals[-1]}), TT 2^{args.tt_bits} entries{cap}, "
          f"total {total:.1f} s "
          f"(this run), a solve timed by {clocked}.\n")
    print("| perspective | median time | 75th pct time | solved ≤ 20 ms | worst time | median nodes | worst nodes "
          "| gave up |")
    print("|---|---|---|---|---|---|---|---|")
    for seat, got in rows.items():
        times = [t for t, _, _ in got]
        nodes = [n for _, n, _ in got]
        quit_ = sum(q for _, _, q in got)
        name = "banker (seat 0)" if seat == 0 else f"seat {seat}"
        exact = 2 * quit_ < len(got)  # every solve that gave up lies above the median
        med_t = f"{statistics.median(times) * 1000:.1f} ms" if exact else "unknown"
        med_n = f"{int(statistics.median(nodes)):,}" if exact else "unknown"
        # a percentile is exact while the solves that gave up all lie above it
        ranked = sorted(t if not q else float("inf") for t, _, q in got)
        p75 = ranked[(3 * len(ranked)) // 4]
        p75_t = f"{p75 * 1000:.1f} ms" if p75 != float("inf") else "unknown"
        fast = sum(1 for t, _, q in got if t <= 0.020 and not q)
        worst_t = f"> {max(times) * 1000:.0f} ms" if quit_ else f"{max(times) * 1000:.1f} ms"
        worst_n = f"> {args.max_nodes:,}" if quit_ else f"{max(nodes):,}"
        print(f"| {name} | {med_t} | {p75_t} | {fast} of {len(got)} | {worst_t} | {med_n} | {worst_n} "
              f"| {quit_} of {len(got)} |")


if __name__ == "__main__":
    main()
