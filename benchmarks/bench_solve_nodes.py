#!/usr/bin/env python3
"""Node counts of `tjsim solve` on full `hk` deals: the measure to compare the solver's constants by.

Each deal (seed → deal i, as bench_solve_cli.py) is solved from the first lead for the banker, the value and
every action, as `tjsim solve` does (`Solver.solve`), one search at a time; a search gives up after `--cap`
nodes.  Node counts do not drift with the machine as times do, so two runs compare exactly, deal by deal.
Beside the nodes, the *path*: the position's own search plus the busier of two threads taking the chains of
actions in turn (`tjsim solve` on 2 cores), each search in the steps of EASY_NODES as Solver._run_chains
schedules them (`_path`); at 300–400 ns a node and a fixed cost of 0.5–0.65 s (benchmarks/README.md, stop 50), a
path of about 1.2 M nodes is a second.

`--set NAME=VALUE` changes a constant of kernels/position.py for the run (STAGE_NODES takes a comma list).
Deals 0–199 are the ones the constants were tuned on; a change must hold on the hold-out deals 200–399 too
(`--first 200`): at stop 50 two stage lengths that gained on 32 tuning deals lost 3.8 M → 31.8 M nodes on one
hold-out deal (docs/solver.md).
`--headroom` adds what no schedule or start-up could change: the deals still over a second if the two threads
split every node of the deal evenly (half its nodes over 1.2 M), and if a command cost nothing to start (a path
over 2.5 M nodes, a second of search alone).  `--tt-bits` sets the size the table grows to (default 22, as
`tjsim solve`).

    python benchmarks/bench_solve_nodes.py --first 200 --deals 200 --out /tmp/base.tsv
    python benchmarks/bench_solve_nodes.py --first 200 --deals 200 --set WALK_STAGE=1 --out /tmp/walk1.tsv
    python benchmarks/bench_solve_nodes.py --compare /tmp/base.tsv /tmp/walk1.tsv
    python benchmarks/bench_solve_nodes.py --compare /tmp/base.tsv /tmp/walk1.tsv --headroom
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PATH_SECOND = 1_200_000  # a path of about this many nodes is `tjsim solve`'s second (module docstring)
SEARCH_SECOND = 2_500_000  # the same with no fixed cost: a second of search alone at about 400 ns a node


def _constant(name: str, text: str):
    """The value of --set NAME=text for position.py's constant NAME (a tuple for a comma list)."""
    from tianjiu_sim.kernels import position as P  # noqa: PLC0415

    if not hasattr(P, name) or not name.isupper():
        sys.exit(f"bench_solve_nodes.py: --set {name}: no such constant in kernels/position.py")
    old = getattr(P, name)
    if isinstance(old, tuple):
        return tuple(int(float(x)) for x in text.split(",") if x)
    if isinstance(old, bool):
        return text.lower() in ("1", "true", "yes")
    return type(old)(float(text))


def solve_deal(job: tuple) -> tuple:
    """(deal, nodes, path, seconds, values) of one deal with the constants `sets`."""
    i, seed, cap, sets, relaxed, tt_bits = job
    from bench_solver import position  # noqa: PLC0415
    from tianjiu_sim.game.rules import preset  # noqa: PLC0415
    from tianjiu_sim.kernels import position as P  # noqa: PLC0415

    for name, text in sets:
        setattr(P, name, _constant(name, text))
    rules = preset("hk")
    pos = position(rules, seed, i, rules.tiles_per_player)
    solver = P.Solver(rules, tt_bits=tt_bits, max_nodes=cap, relaxed=relaxed)
    chains: list[tuple] = []  # (nodes, ids of its positions) of each task
    chain = solver._chain

    def counted(jobs, seat, base, upto=0):  # each task of Solver._search_all, in order
        out = chain(jobs, seat, base, upto)
        chains.append((sum(n for _, n, _, _ in out), [id(job[0]) for job in jobs]))
        return out

    solver._chain = counted
    t = time.perf_counter()
    sol = solver.solve(pos, 0, threads=1)
    dt = time.perf_counter() - t
    path = sol.nodes - sum(n for n, _ in chains) + _path(chains)
    values = ",".join("nan" if math.isnan(a.value) else f"{a.value:g}" for a in sol.actions)
    return i, sol.nodes, path, dt, values


def _path(tasks: list) -> int:
    """The nodes on the busier of two threads taking the tasks (nodes, ids of their positions) as
    Solver._run_chains does: each chain's first step in order, then the later steps (positions seen before),
    each free once the step before of each of its searches has ended, a thread that frees taking the free one of
    the lowest (step, chain, first search of the task) — a chain's searches may go on in tasks of their own
    (SPLIT_LAST)."""
    free = [0, 0]
    seen = {}  # position id -> (chain, its steps so far, its place in the chain)
    chains = 0
    later = []  # (step, chain, place of its first search, nodes, places of its searches) of the tasks
    for n, ids in tasks:
        if ids[0] in seen:
            k, step, _ = seen[ids[0]]
        else:
            k, step = chains, 0
            chains += 1
            for j, i in enumerate(ids):
                seen[i] = (k, 0, j)
        places = tuple(seen[i][2] for i in ids)
        later.append((step, k, places[0], n, places))
        for i in ids:
            seen[i] = (k, step + 1, seen[i][2])
    ends = {}  # (step, chain, place) -> when the task of that search's step ended
    todo = sorted(later)

    def after(x: tuple) -> int:  # when the task may start: its searches' steps before have ended (-1: not yet)
        if x[0] == 0:
            return 0
        got = [ends.get((x[0] - 1, x[1], j), -1) for j in x[4]]
        return -1 if min(got) < 0 else max(got)

    while todo:
        t = free.index(min(free))
        when = {x: after(x) for x in todo}
        ready = [x for x in todo if when[x] >= 0]
        now = max(free[t], min(when[x] for x in ready))  # idle till one is free
        pick = min(x for x in ready if when[x] <= now)
        todo.remove(pick)
        free[t] = now + pick[3]
        for j in pick[4]:
            ends[(pick[0], pick[1], j)] = free[t]
    return max(free)


def load(path: str) -> dict:
    """deal → (nodes, path, seconds, values) of a run's file."""
    out = {}
    for line in Path(path).read_text().splitlines():
        if line and not line.startswith("#"):
            i, nodes, p, dt, values = line.split("\t")
            out[int(i)] = (int(nodes), int(p), float(dt), values)
    return out


def summary(run: dict, deals: list) -> str:
    """One line: nodes in all, and the deals whose path passes a second and 2, 5 and 15 times that."""
    over = [sum(run[i][1] > k * PATH_SECOND for i in deals) for k in (1, 2, 5, 15)]
    return (f"{sum(run[i][0] for i in deals) / 1e6:.1f} M nodes; path over 1.2 M nodes (about a second): {over[0]}, "
            f"over 2.4 M: {over[1]}, over 6 M: {over[2]}, over 18 M: {over[3]}")


def headroom(run: dict, deals: list) -> str:
    """One line: the deals over a second by path, and those still over it with two threads splitting every
    node evenly (half the nodes), with no fixed cost (the path against a second of search), and with both."""
    split = sum(run[i][0] / 2 > PATH_SECOND for i in deals)
    free = sum(run[i][1] > SEARCH_SECOND for i in deals)
    both = sum(run[i][0] / 2 > SEARCH_SECOND for i in deals)
    over = [i for i in deals if run[i][1] > PATH_SECOND]
    need = sorted(run[i][1] / PATH_SECOND for i in over)
    line = (f"over a second {len(over)}; with nodes split evenly over two threads {split}; with no fixed cost {free}; "
            f"with both {both}")
    if need:
        line += (f"; fewer nodes needed by the deals over it: median {statistics.median(need):.1f} times, "
                 f"most {need[-1]:.1f} times")
    return line


def compare(a_path: str, b_path: str, room: bool = False) -> None:
    """Print two runs side by side: their summaries, any value that differs, the deals that changed most."""
    a, b = load(a_path), load(b_path)
    deals = sorted(set(a) & set(b))
    print(f"{len(deals)} deals in both")
    print(f"  {a_path}: {summary(a, deals)}")
    print(f"  {b_path}: {summary(b, deals)}")
    if room:
        print(f"  {a_path}: {headroom(a, deals)}")
        print(f"  {b_path}: {headroom(b, deals)}")
    differ = [i for i in deals if a[i][3] != b[i][3] and "nan" not in a[i][3] + b[i][3]]
    print(f"values that differ: {differ or 'none'}")
    for i in sorted(deals, key=lambda i: -abs(b[i][1] - a[i][1]))[:15]:
        if a[i][1] != b[i][1]:
            print(f"  deal {i}: path {a[i][1] / 1e6:.2f} M -> {b[i][1] / 1e6:.2f} M, "
                  f"nodes {a[i][0] / 1e6:.2f} M -> {b[i][0] / 1e6:.2f} M")


def main() -> None:
    """Run the deals, or compare two runs."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--first", type=int, default=0, help="the first deal (200: the hold-out deals 200–399)")
    ap.add_argument("--only", help="these deals instead, comma-separated")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cap", type=float, default=30e6, help="nodes before a search gives up")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a constant of kernels/position.py for this run (repeatable)")
    ap.add_argument("--relaxed", action="store_true",
                    help="Solver(relaxed=True): ask the relaxed games past 6 M nodes (off in tjsim solve since stop 63)")
    ap.add_argument("--tt-bits", type=int, default=22, help="the size the table grows to, 2^N entries (tjsim solve: 22)")
    ap.add_argument("--headroom", action="store_true",
                    help="also the deals still over a second with perfect threads or no fixed cost (module docstring)")
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--out", help="write one line a deal here (tab-separated), as deals finish")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"), help="compare two --out files and stop")
    args = ap.parse_args()
    if args.compare:
        compare(*args.compare, room=args.headroom)
        return
    sets = []
    for item in args.set:
        name, _, text = item.partition("=")
        _constant(name, text)  # a bad name stops the run before any deal
        sets.append((name, text))
    deals = ([int(x) for x in args.only.split(",")] if args.only
             else list(range(args.first, args.first + args.deals)))
    jobs = [(i, args.seed, int(args.cap), tuple(sets), args.relaxed, args.tt_bits) for i in deals]
    label = " ".join(args.set + (["--relaxed"] if args.relaxed else [])
                     + ([] if args.tt_bits == 22 else [f"--tt-bits {args.tt_bits}"])) or "defaults"
    run = {}
    out = open(args.out, "w") if args.out else None  # noqa: SIM115  (written as deals finish)
    if out:
        out.write(f"# deal\tnodes\tpath\tseconds\tvalues — seed {args.seed}, cap {int(args.cap)}, "
                  f"{label}\n")
    with Pool(args.processes) as pool:
        for i, nodes, path, dt, values in pool.imap_unordered(solve_deal, jobs):
            run[i] = (nodes, path, dt, values)
            if out:
                out.write(f"{i}\t{nodes}\t{path}\t{dt:.3f}\t{values}\n")
                out.flush()
            print(f"deal {i}: {nodes:,} nodes, path {path:,}", file=sys.stderr, flush=True)
    if out:
        out.close()
    print(f"{len(deals)} deals, {label}: {summary(run, deals)}")
    if args.headroom:
        print(f"  {headroom(run, deals)}")


if __name__ == "__main__":
    main()
