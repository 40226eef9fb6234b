"""Would a proof-number search settle the dear yes / no tests sooner?  A measured prototype (stop 48, not kept).

The dearest full deals of bench_solve_cli.py spend their nodes on zero-window tests "V >= t" that no relaxation
of the solver settles (benchmarks/README.md, stop 47).  Proof-number search (df-pn) expands first the subtree
whose proof or disproof looks cheapest, where alpha-beta follows its move ordering.  This prototype puts df-pn
over the top of the tree and the solver's own budgeted zero-window test at its leaves (PN^2 in spirit): a leaf
the test settles within --budget nodes is proved or disproved, any other is (1, 1) and is expanded when chosen.
It is plain Python over `Position`s (every distinct legal action, no grouping of equivalent tiles above the
leaves); all the leaves' searches share one 2^22 table.  Beside it, the same test from the same start by the
solver alone, on a fresh table: with the root's games only (X_CLOSE 2, a search's first stages) and with the
close game at every boundary (X_CLOSE 1, past GROW_NODES).

    python benchmarks/probe_pn_search.py --deal 194 --lead 6-2 --target 1 --target 2
"""
from __future__ import annotations

import argparse
import time

from tianjiu_sim.game.reference import deal_reference
from tianjiu_sim.game.rules import preset
from tianjiu_sim.game.tiles import parse_hand
from tianjiu_sim.kernels import position as P

INF = 10**9
SEAT = 0  # the banker, who leads


def zero_window(sv: P.Solver, pos, t: int, limit: int, close: int = 2) -> tuple[float, float, int]:
    """The solver's one test "V_SEAT >= t" from pos on its current table (limit nodes, 0: none): bounds, nodes."""
    _, n, lo, hi = sv._run(pos, SEAT, float(t), limit, sv.tt, (t - 1.0, float(t)), True, close,
                           P.EARLY_GAME_NODES if close == 2 else P.HOLD_NODES)
    return lo, hi, n


class Node:
    """A df-pn node: its position, proof and disproof numbers, children once expanded."""

    __slots__ = ("pos", "pn", "dn", "kids", "proving")

    def __init__(self, pos, pn, dn):
        self.pos, self.pn, self.dn, self.kids = pos, pn, dn, None
        self.proving = pos.to_act() == SEAT  # an OR node: the seat that proves "V >= t" chooses


class PnSearch:
    """df-pn for "V_SEAT >= target" with budgeted zero-window leaves."""

    def __init__(self, sv: P.Solver, target: int, budget: int):
        self.sv, self.t, self.budget = sv, target, budget
        self.table: dict = {}
        self.leaves = 0

    def leaf(self, pos) -> tuple[int, int]:
        """(pn, dn) of a new node from the solver's test on a budget ((1, 1) when not settled)."""
        lo, hi, _ = zero_window(self.sv, pos, self.t, self.budget)
        self.leaves += 1
        return (0, INF) if lo >= self.t else ((INF, 0) if hi < self.t else (1, 1))

    def node(self, pos) -> Node:
        """The node of a position, made (and its leaf test run) on first sight."""
        key = (pos.hands, pos.dong, pos.leader, pos.trick, pos.has_led)
        nd = self.table.get(key)
        if nd is None:
            nd = self.table[key] = Node(pos, *self.leaf(pos))
        return nd

    def mid(self, nd: Node, thpn: int, thdn: int) -> None:
        """Work below nd until its proof or disproof number reaches its threshold (df-pn's MID)."""
        if nd.kids is None:
            legal = self.sv.legal_actions(nd.pos)
            twin = self.sv._twin_actions(nd.pos, legal)
            nd.kids = [self.node(self.sv.apply(nd.pos, a, m)) for i, (a, m) in enumerate(legal) if i not in twin]
        while True:
            if nd.proving:
                nd.pn, nd.dn = min(c.pn for c in nd.kids), min(INF, sum(c.dn for c in nd.kids))
            else:
                nd.pn, nd.dn = min(INF, sum(c.pn for c in nd.kids)), min(c.dn for c in nd.kids)
            if nd.pn >= thpn or nd.dn >= thdn:
                return
            if nd.proving:
                ks = sorted(nd.kids, key=lambda c: c.pn)
                second = ks[1].pn if len(ks) > 1 else INF
                self.mid(ks[0], min(thpn, second + 1), min(INF, thdn - nd.dn + ks[0].dn))
            else:
                ks = sorted(nd.kids, key=lambda c: c.dn)
                second = ks[1].dn if len(ks) > 1 else INF
                self.mid(ks[0], min(INF, thpn - nd.pn + ks[0].pn), min(thdn, second + 1))

    def prove(self, pos) -> bool:
        """Whether V_SEAT >= target from pos."""
        root = self.node(pos)
        if root.pn and root.dn:
            self.mid(root, INF, INF)
        return root.pn == 0


def main() -> None:
    """Time df-pn and the solver's test on one lead of one full hk deal."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deal", type=int, default=194, help="deal number (bench_solve_cli.py's numbering)")
    ap.add_argument("--lead", default="6-2", help="the banker's first lead")
    ap.add_argument("--target", type=int, action="append", help="t of the test V >= t (repeat)")
    ap.add_argument("--budget", type=int, action="append", help="nodes of a leaf's test (repeat; default 2000, 20000)")
    args = ap.parse_args()
    rules = preset("hk")
    pos = P.position_from_deal(rules, list(deal_reference(rules, 1, args.deal)), [0] * 4, 0)
    sv = P.Solver(rules, tt_bits=22)
    child = sv.apply(pos, "lead", parse_hand(args.lead, pos.hands[0]))
    print(f"deal {args.deal}, the banker's lead {args.lead}\n")
    print("| test | method | answer | nodes | time |")
    print("|---|---|---|---|---|")
    for t in args.target or [1]:
        for close in (2, 1):
            sv.tt = sv._table(22)
            sv._new_generation()
            start = time.perf_counter()
            lo, _, n = zero_window(sv, child, t, 0, close)
            print(f"| V ≥ {t} | alpha-beta, X_CLOSE {close} | {lo >= t} | {n / 1e6:.2f} M | "
                  f"{time.perf_counter() - start:.1f} s |", flush=True)
        for budget in args.budget or [2000, 20000]:
            sv.tt = sv._table(22)
            sv._new_generation()
            n0, start = sv.nodes_searched, time.perf_counter()
            pn = PnSearch(sv, t, budget)
            got = pn.prove(child)
            print(f"| V ≥ {t} | df-pn, leaves on {budget} nodes ({pn.leaves} leaves) | {got} | "
                  f"{(sv.nodes_searched - n0) / 1e6:.2f} M | {time.perf_counter() - start:.1f} s |", flush=True)


if __name__ == "__main__":
    main()
