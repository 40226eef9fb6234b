#!/usr/bin/env python3
"""`tjsim solve`'s action searches one by one, against other ways to run them (stop 52).

Each deal (bench_solver.py's numbering: seed 1, deal i, the banker to lead) is solved as `tjsim solve` does
(`Solver.solve`, one search at a time, cap `--cap` nodes a search), and each action search of over `--min` nodes
is run again, one line a search:

- `plain`: alone from an empty 2^22 table with the same bounds and guess, as one search without stages, once
  without the root's games (X_CLOSE 0) and once with them (X_CLOSE 2), each capped at 4 times the staged count
  (a negative count: stopped there).  Columns: deal, staged nodes, without games, with the games.
- `split`: for a chain of two actions whose first passes `--min` nodes, the second searched from the position's
  table alone (what it costs on the other thread), beside its count in the chain.  Columns: deal, first, second in
  the chain, second alone; `--simulate` then gives each deal's path (the position's search plus the busier of two
  threads taking the chains in turn) with the second action released to the other thread at `--min` nodes.

    python benchmarks/probe_action_searches.py plain --deals 201,206,219
    python benchmarks/probe_action_searches.py split --deals 237,332,419 --min 1e6 --out /tmp/split.tsv
    python benchmarks/probe_action_searches.py split --simulate /tmp/split.tsv --min 1e6
"""
from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tianjiu_sim.game.rules import preset  # noqa: E402
from tianjiu_sim.kernels import position as P  # noqa: E402

from bench_solver import position  # noqa: E402

SEAT = 0  # the banker, who leads


def chains_of(deal: int, cap: float, hook) -> int:
    """Solve the deal as `tjsim solve` does, calling hook(solver, jobs, base, results, chain) after each chain
    (chain: the solver's own `_chain`, for a search of the hook's); the position's own nodes."""
    rules = preset("hk")
    P.EASY_NODES = ()  # one pass, as at stop 52: each chain's searches whole (Solver._search_all)
    sv = P.Solver(rules, tt_bits=22, max_nodes=cap)
    chain = sv._chain
    searched = []

    def counted(jobs, seat, base, upto=0):
        out = chain(jobs, seat, base, upto)
        searched.append(sum(n for _, n, _, _ in out))
        hook(sv, jobs, base, out, chain)
        return out

    sv._chain = counted
    sol = sv.solve(position(rules, 1, deal, rules.tiles_per_player), SEAT, threads=1)
    return sol.nodes - sum(searched)


def plain(deal: int, cap: float, least: float) -> list[tuple]:
    """(deal, staged, without games, with games) of each action search past `least` nodes."""
    alone = P.Solver(preset("hk"), tt_bits=22)
    rows = []

    def hook(sv, jobs, base, out, chain):
        for (child, known, guess), (_, n, _, _) in zip(jobs, out):
            if n < least:
                continue
            counts = []
            for close in (0, 2):
                alone._new_generation()
                alone.tt = alone._table(22)
                v, m, _, _ = alone._run(child, SEAT, guess, int(4 * n), alone.tt, known, True, close)
                counts.append(m if not math.isnan(v) else -m)
            rows.append((deal, n, *counts))

    chains_of(deal, cap, hook)
    return rows


def split(deal: int, cap: float, least: float) -> list[tuple]:
    """(deal, position, first, second in the chain, second alone or -1) of each chain; "second alone": searched
    from the position's table, for chains whose first action passes `least` nodes."""
    rows = []

    def hook(sv, jobs, base, out, chain):
        counts = [n for _, n, _, _ in out] + [0] * (2 - len(out))
        second = -1
        if len(jobs) == 2 and counts[0] > least:
            second = chain(jobs[1:], SEAT, base)[0][1]
        rows.append((*counts, second))

    own = chains_of(deal, cap, hook)
    return [(deal, own, *r) for r in rows]


def makespan(jobs: list[tuple[float, float, float]]) -> float:
    """When two threads finish jobs (release, length, spawn after, spawn length) taken in list order, each
    by the thread free first; a spawned job (released `spawn after` nodes into its parent) goes before the rest."""
    free = [0.0, 0.0]
    pending = [(0.0, k, n, after, more) for k, (_, n, after, more) in enumerate(jobs)]
    end = 0.0
    while pending:
        th = 0 if free[0] <= free[1] else 1
        ready = [j for j in pending if j[0] <= free[th]]
        if not ready:
            free[th] = min(j[0] for j in pending)
            ready = [j for j in pending if j[0] <= free[th]]
        job = min(ready, key=lambda j: j[1])
        pending.remove(job)
        start = free[th]
        free[th] += job[2]
        if job[4] > 0:
            pending.append((start + job[3], -1.0, job[4], 0.0, 0.0))
        end = max(end, free[th])
    return end


def simulate(path: str, least: float) -> None:
    """Each deal's path with the chains as now and with chains split at `least` nodes, from a `split` file."""
    deals: dict[int, list] = {}
    for line in Path(path).read_text().splitlines():
        if line and not line.startswith("#"):
            d, own, first, second, alone = (int(float(x)) for x in line.split("\t"))
            deals.setdefault(d, [own, []])[1].append((first, second, alone))
    now = after = 0.0
    for d, (own, chains) in sorted(deals.items()):
        a = own + makespan([(0, f + s, 0, 0) for f, s, _ in chains])
        b = own + makespan([(0, f, least, x) if x >= 0 and f > least else (0, f + s, 0, 0) for f, s, x in chains])
        now, after = now + a, after + b
        if abs(a - b) > 1e5:
            print(f"deal {d}: path {a / 1e6:.2f} M -> {b / 1e6:.2f} M")
    print(f"{len(deals)} deals: paths {now / 1e6:.1f} M -> {after / 1e6:.1f} M")


def main() -> None:
    """Run the probe, or simulate from a `split` file."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("probe", choices=("plain", "split"))
    ap.add_argument("--deals", help="deals, comma-separated")
    ap.add_argument("--cap", type=float, default=30e6, help="nodes before a search gives up")
    ap.add_argument("--min", type=float, default=5e5, help="plain: the searches past this many nodes; split: "
                    "the chains whose first action passes it")
    ap.add_argument("--out", help="write the lines here as well")
    ap.add_argument("--simulate", metavar="FILE", help="split: the paths from a file of an earlier run")
    args = ap.parse_args()
    if args.simulate:
        simulate(args.simulate, args.min)
        return
    if not args.deals:
        sys.exit("probe_action_searches.py: --deals is needed (or --simulate FILE)")
    probe = plain if args.probe == "plain" else split
    with open(args.out if args.out else os.devnull, "w") as out:  # lines are written as deals finish
        for deal in (int(x) for x in args.deals.split(",")):
            for row in probe(deal, args.cap, args.min):
                line = "\t".join(str(x) for x in row)
                print(line, flush=True)
                out.write(line + "\n")
                out.flush()


if __name__ == "__main__":
    main()
