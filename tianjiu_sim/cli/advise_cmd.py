"""`tjsim advise`: each legal action of the seat to act, valued from what that seat can see (RULES.md §8)."""
from __future__ import annotations

import time

import click

from ..errors import TjsimError
from ..game.tiles import tile_list
from ..output.tables import render_table, to_csv
from ..strategies.names import default_horizon
from .options import emit, emit_json, format_options, rules_option
from .solve_cmd import _load_trace, position_options, read_position

DEFAULT_ADVISE_WORLDS = 64


def _r(x: float) -> float:
    return round(float(x), 4)


@click.command()
@rules_option
@position_options
@click.option("--worlds", default=DEFAULT_ADVISE_WORLDS, show_default=True, type=int,
              help="Worlds W: deals of the tiles the seat has not seen to the other hands.")
@click.option("--horizon", default=None, type=int,
              help="Solve exactly from tricks of at most this many tiles a hand; earlier tricks are "
                   "played out by the solver's move ordering (default: pimc's for the number of players: "
                   "6 with 2, 4 with 3, 4 with 4, 3 with 4 and the residual-tile dice).")
@click.option("--throw", default=None, type=int,
              help="The residual-tile dice total (2–12), when the dice are thrown before this lead.")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the worlds.")
@format_options
def advise(rules_spec, deal_text, dong, leader, folded, trace_path, trace_deal, at, banker, streak,
           worlds, horizon, throw, seed, fmt, out) -> None:
    """Each legal action of the seat to act, valued from its own hand and the public history only.

    The tiles the seat has not seen are dealt at random to the other hands W times (worlds);
    every action is scored in the same worlds by its value V (RULES.md §8: the seat maximises,
    the others minimise together), and the table shows the mean over the worlds with a 95%
    interval (worlds are independent draws) and P(close), the share of worlds in which the seat
    closes (結) on the solved line. With a trace, the other hands in it are ignored.

    \b
    Examples:
      tjsim play --seed 7 --format json > deal.json
      tjsim advise --trace deal.json --at 13
      tjsim advise --deal "6-6 5-4 2-1 | 1-1 6-2 3-3 | 4-4 5-3 6-1 | 3-1 4-1 5-5" --dong 2,1,1,1 --leader 0 --format json
    """
    from ..sim.advise import advise as run, history_of_deal, history_of_trace  # noqa: PLC0415 (compiles)
    from ..strategies import search as S  # noqa: PLC0415

    rules, pos = read_position(rules_spec, deal_text, dong, leader, folded, trace_path, trace_deal, at,
                               banker, streak)
    if not 1 <= worlds <= S.MAX_WORLDS:
        raise TjsimError(f"--worlds must be 1 to {S.MAX_WORLDS}, got {worlds}")
    if horizon is None:
        horizon = default_horizon(rules.players, oracle=False, dice=rules.dice_on)
    if not 1 <= horizon <= 16:
        raise TjsimError(f"--horizon must be 1 to 16, got {horizon}")
    if seed < 0:
        raise TjsimError(f"--seed must be 0 or more, got {seed}")
    hist = history_of_trace(rules, _load_trace(trace_path, trace_deal), at) if trace_path else history_of_deal(rules, pos)
    t0 = time.perf_counter()
    seat, rows, best = run(rules, pos, hist, worlds, seed, horizon, throw)
    secs = time.perf_counter() - t0
    actions = [{"action": a.action, "tiles": tile_list(a.mask), "mean": _r(a.mean), "ci_low": _r(a.ci_low),
                "ci_high": _r(a.ci_high), "p_close": _r(a.p_close)} for a in rows]
    if fmt == "json":
        emit_json({"seat": seat, "worlds": worlds, "horizon": horizon, "actions": actions, "best": best},
                  out, indent=None)
        return
    table = [{"action": a["action"], "tiles": " ".join(a["tiles"]), "mean": a["mean"], "ci_low": a["ci_low"],
              "ci_high": a["ci_high"], "p_close": a["p_close"], "best": "*" if i == best else ""}
             for i, a in enumerate(actions)]
    if fmt == "csv":
        emit(to_csv(table, ["action", "tiles", "mean", "ci_low", "ci_high", "p_close"]), out)
        return
    title = (f"Advice for seat {seat}, from its hand and the public history only: {worlds} worlds "
             f"(exact from tricks of {horizon} tiles a hand), {secs:.2f} s\n"
             f"mean = the action's value V (戙, RULES.md §8) over the worlds; 95% interval; "
             f"P(close) = share of worlds in which seat {seat} closes")
    emit(render_table(table, ["action", "tiles", "mean", "ci_low", "ci_high", "p_close", "best"], title=title),
         out)
