"""The relaxed games of kernels/relaxed.py against the solver on the dearest zero-window tests (stop 49).

Each row is one test "V_0 >= t" (the banker's value, `hk`) from a full deal of bench_solve_cli.py's numbering,
after a first lead or before it, on a fresh 2^22 table:
- the solver as `tjsim solve` runs it, with the root's games only (X_CLOSE 2, a search's first stages) and with
  the close game at every boundary (X_CLOSE 1, past GROW_NODES);
- the same test in the game where the other seats' singles of one gap between the banker's ranks beat each
  other (`stronger`: V'' <= V, so a "yes" there is a yes), and where they tie (`weaker`: V' >= V, so a "no"
  there is a no).

    python benchmarks/probe_relaxed_games.py                      # the table of benchmarks/README.md, stop 49
    python benchmarks/probe_relaxed_games.py --test 194:6-2:1 --limit 20e6
"""
from __future__ import annotations

import argparse
import time

from tianjiu_sim.game.reference import deal_reference
from tianjiu_sim.game.rules import preset
from tianjiu_sim.game.tiles import parse_hand
from tianjiu_sim.kernels import position as P
from tianjiu_sim.kernels.relaxed import STRONGER, WEAKER

SEAT = 0  # the banker, who leads
TESTS = ["194:6-2:1", "194:6-2:2", "194:4-2:1", "194:4-2:2", "194:-:2", "136:2-2:14", "136:-:15",
         "49:3-1:1", "49:3-3:12", "49:-:13", "84:5-2:1", "96:-:19"]


def test(sv: P.Solver, pos, t: int, limit: int, close: int) -> tuple[str, int, float]:
    """The solver's one test "V_SEAT >= t" from pos on a fresh table: (answer, nodes, seconds)."""
    sv.tt = sv._table(22)
    sv._new_generation()
    start = time.perf_counter()
    _, n, lo, hi = sv._run(pos, SEAT, float(t), limit, sv.tt, (t - 1.0, float(t)), True, close,
                           P.EARLY_GAME_NODES if close == 2 else P.HOLD_NODES)
    return ("yes" if lo >= t else "no" if hi < t else "?"), n, time.perf_counter() - start


def main() -> None:
    """Print the table: each test by the solver and by the two relaxed games."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--test", action="append", help="DEAL:LEAD:T (LEAD '-': before the first lead); repeat")
    ap.add_argument("--limit", type=float, default=100e6, help="nodes a search may take (default 100 M)")
    args = ap.parse_args()
    rules = preset("hk")
    real = P.Solver(rules, tt_bits=22)
    print("| deal, lead | test | solver, X_CLOSE 2 | solver, X_CLOSE 1 | stronger side (V'' <= V) | weaker side (V' >= V) |")
    print("|---|---|---|---|---|---|")
    for spec in args.test or TESTS:
        deal, lead, t = spec.split(":")
        pos = P.position_from_deal(rules, list(deal_reference(rules, 1, int(deal))), [0] * 4, 0)
        if lead != "-":
            pos = real.apply(pos, "lead", parse_hand(lead, pos.hands[SEAT]))
        cells = []
        for close in (2, 1):
            cells.append(test(real, pos, int(t), int(args.limit), close))
        for game in (STRONGER, WEAKER):
            sv = P.Solver(rules, tt_bits=22).play_relaxed(pos, SEAT, game)
            cells.append(test(sv, pos, int(t), int(args.limit), 2))
        row = " | ".join(f"{a}, {n / 1e6:.2f} M, {s:.1f} s" for a, n, s in cells)
        print(f"| {deal}, {'before the lead' if lead == '-' else lead} | V ≥ {t} | {row} |", flush=True)


if __name__ == "__main__":
    main()
