"""`tjsim solve`: the exact perfect-information value (RULES.md §8) of a position and of each action."""
from __future__ import annotations

import json
import math
import os
import sys
import time
from pathlib import Path

import click
from typing import TYPE_CHECKING

from ..errors import TjsimError
from ..game.rules import RuleSet
from ..game.tiles import parse_deal, popcount, tile_list
from ..output.tables import render_table, to_csv
from .options import emit, emit_json, format_options, parse_int_list, resolve_rules, rules_option

if TYPE_CHECKING:  # the solver's kernels compile when imported: only commands that solve import it
    from ..kernels.position import Position


def position_options(f):
    """The position options shared by solve and advise (INTERFACES.md, Positions)."""
    for opt in reversed([
        click.option("--deal", "deal_text", default=None, metavar='"h0 | h1 | …"',
                     help="The hands still held, in seat order (with --dong and --leader: a trick boundary)."),
        click.option("--dong", default=None, metavar="D0,D1,…", help="Each seat's 戙 so far (with --deal)."),
        click.option("--leader", default=None, type=int, help="The seat to lead the next trick (with --deal)."),
        click.option("--folded", default="", metavar="S,…", help="Seats that folded (with --deal; their hands are empty)."),
        click.option("--trace", "trace_path", default=None, type=click.Path(dir_okay=False),
                     help="A game trace (tjsim play --format json, or one line of a --trace .jsonl file)."),
        click.option("--trace-deal", default=0, show_default=True, type=int,
                     help="Which deal of a multi-deal .jsonl trace file (counting from 0)."),
        click.option("--at", default=None, type=int, help="With --trace: the position before the trace's N-th play (from 0)."),
        click.option("--banker", default=0, show_default=True, type=int, help="Banker's seat (with --deal)."),
        click.option("--streak", default=1, show_default=True, type=int,
                     help="Deals in a row the banker has held the bank, this one included (with --deal)."),
    ]):
        f = opt(f)
    return f


def _load_trace(path: str, index: int) -> dict:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise TjsimError(f"cannot read trace file {path}: {e.strerror}") from None
    try:
        deals = [json.loads(text)] if text.lstrip().startswith("{") and "\n{" not in text.strip() else [
            json.loads(line) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError as e:
        raise TjsimError(f"{path}: not a JSON game trace ({e.msg} at line {e.lineno})") from None
    if not 0 <= index < len(deals):
        raise TjsimError(f"--trace-deal must be 0 to {len(deals) - 1} ({path} holds {len(deals)} deals), got {index}")
    deal = deals[index]
    if not isinstance(deal, dict) or "hands" not in deal:
        raise TjsimError(f"{path}: not a game trace (no 'hands')")
    return deal


def read_position(rules_spec: str, deal_text, dong, leader, folded, trace_path, trace_deal, at,
                  banker, streak) -> tuple[RuleSet, Position]:
    """The rule set and Position named by the position options; every mistake is a TjsimError."""
    from ..kernels.position import position_from_deal, position_from_trace  # noqa: PLC0415 (compiles)
    if trace_path is not None:
        if deal_text is not None or dong is not None or leader is not None:
            raise TjsimError("give a position either by --trace/--at or by --deal/--dong/--leader, not both")
        if at is None:
            raise TjsimError("--trace needs --at N (the position before the trace's N-th play)")
        trace = _load_trace(trace_path, trace_deal)
        spec = rules_spec if rules_spec != "hk" or trace.get("rules") in (None, "hk") else trace["rules"]
        rules = resolve_rules(spec, int(trace.get("players", 0)) or None)
        return rules, position_from_trace(rules, trace, at)
    if deal_text is None or dong is None or leader is None:
        raise TjsimError("give a position: --deal \"h0 | h1 | …\" with --dong D0,D1,… and --leader L, "
                         "or --trace FILE --at N")
    if at is not None:
        raise TjsimError("--at goes with --trace")
    hands = parse_deal(deal_text)
    rules = resolve_rules(rules_spec, None)
    if len(hands) != rules.players:
        if len(hands) not in rules.allowed_players:
            raise TjsimError(f"the deal has {len(hands)} hands; rules '{rules.name}' allow "
                             f"{' or '.join(map(str, rules.allowed_players))} players")
        rules = resolve_rules(rules_spec, len(hands))
    dongs = parse_int_list(dong, "--dong")
    if len(dongs) != rules.players:
        raise TjsimError(f"--dong has {len(dongs)} values, give one per player ({rules.players})")
    out = frozenset(parse_int_list(folded, "--folded")) if folded else frozenset()
    for s in out:
        if not 0 <= s < rules.players:
            raise TjsimError(f"--folded seats must be 0 to {rules.players - 1}, got {s}")
    if not 0 <= leader < rules.players:
        raise TjsimError(f"--leader must be a seat 0 to {rules.players - 1}, got {leader}")
    return rules, position_from_deal(rules, hands, dongs, leader, banker, streak, out)


def check_seat(pos: Position, seat: int | None) -> int:
    """The perspective seat (default: the seat to act), checked."""
    to_act = pos.to_act()
    if to_act < 0:
        raise TjsimError("the deal is over at that point: nothing to solve")
    if seat is None:
        return to_act
    if not 0 <= seat < pos.players or seat in pos.folded:
        raise TjsimError(f"--seat must be a seat that plays, 0 to {pos.players - 1}, got {seat}")
    return seat


# Tiles in hand from which a solve may take long (benchmarks/README.md, "Exact solver": with 4
# players the median is 40–105 ms at 5 tiles a hand and the worst 0.8 s; at 6 tiles up to 18 s).
LONG_SOLVE_TILES = 20


# A solve shorter than this draws no bar (and does not import tqdm: 10 ms of a 0.5 s command); a longer
# one gets it at the next action solved or the next node count (every 0.25 s).
BAR_AFTER = 0.3


class _SolveProgress:
    """Says on stderr at once when a solve may be long, then counts the actions solved and the nodes
    searched (a bar on a terminal, from BAR_AFTER s on, the node count moving while one long search runs)."""

    def __init__(self, pos: Position, cap: int = 0, value_only: bool = False, threads: int = 1):
        self.held = sum(popcount(h) for h in pos.hands)
        self.threads = threads
        self.cap = cap
        self.value_only = value_only
        self.bar = None
        self.started = None  # time.monotonic() when the notice was said
        self.done = self.total = self.searched = 0

    def __enter__(self):
        return self

    def __call__(self, done: int, total: int) -> None:
        if self.held < LONG_SOLVE_TILES:
            return
        if self.started is None:
            if self.value_only:
                click.echo(f"tjsim: exact search with {self.held} tiles in hand: this can take a second "
                           "(on some deals minutes or longer; --max-nodes N bounds it; Ctrl-C shows the bounds "
                           "proved)", err=True)
            else:
                wait = (f"each search stops after {self.cap:,} nodes" if self.cap else
                        "this can take seconds, on some deals minutes or longer")
                click.echo(f"tjsim: exact search with {self.held} tiles in hand: {wait}; solving the {total} "
                           f"actions of the seat to act, the quick ones first, in chains of two, {self.threads} chains at a time (--value-only: the position's value alone, "
                           "far sooner; --max-nodes N: bounds instead of waiting; Ctrl-C: stop and show what "
                           "is solved)", err=True)
            self.started = time.monotonic()
        self.done, self.total = done, total
        self._draw()

    def nodes(self, searched: int) -> None:
        """The solver's node count so far, shown beside the bar."""
        self.searched = searched
        if self.started is not None:
            self._draw()

    def _draw(self) -> None:
        if self.bar is None:
            if not sys.stderr.isatty() or time.monotonic() - self.started < BAR_AFTER:
                return
            from tqdm import tqdm  # noqa: PLC0415

            # no rate and no time left: one action may take a thousand times longer than the others
            unit = "search" if self.value_only else "actions"
            self.bar = tqdm(total=self.total, file=sys.stderr, leave=False, dynamic_ncols=True,
                            bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} " + unit + " [{elapsed}{postfix}]")
        self.bar.n = self.done
        if self.searched:
            self.bar.set_postfix_str(f"{self.searched:,} nodes", refresh=False)
        self.bar.refresh()

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.close()


# 2^22 entries: on full deals 2.7-3x fewer nodes than 2^20 (measured when the actions shared one table),
# 2^24 only 25 % fewer for 4x the memory (benchmarks/README.md)
SOLVE_TT_BITS = 22
# each thread may grow its own table to 2^--tt-bits entries (235 MB by default)
MAX_DEFAULT_THREADS = 8
TT_BITS_MIN, TT_BITS_MAX = 16, 26


def _title(seat: int, value: float, chance: bool, to_act: int, nodes: int, secs: float,
           low: float, high: float, cap: int, halt: str | None = None) -> str:
    """The table's heading: the perspective seat's exact value, who acts, the search's size and time."""
    dice = " (after the residual-tile dice: the mean over the 36 throws)" if chance else ""
    shown = _shown(value, low, high)
    if halt is not None:
        shown += f" — {halt}: a value shown as bounds or ? was not finished"
    elif math.isnan(value):
        shown += f" — not exact: a search gave up at --max-nodes {cap:,}"
    return (f"Exact value for seat {seat} (all hands visible; seat {seat} maximises, the others minimise): "
            f"{shown}{dice}\nSeat {to_act} to act; {nodes:,} nodes, {secs:.2f} s")


def _shown(value: float, low: float, high: float) -> str:
    """A value for the table: the number, or the bounds a search proved before it gave up."""
    if not math.isnan(value):
        return str(_num(value))
    if math.isinf(low) and math.isinf(high):
        return "?"
    if math.isinf(high):
        return f">= {_num(low)}"
    if math.isinf(low):
        return f"<= {_num(high)}"
    return f"{_num(low)} to {_num(high)}"


def _bound(x: float):
    """A bound for JSON/CSV: a number, or null (empty) where nothing was proved."""
    return None if math.isinf(x) or math.isnan(x) else _num(x)


def _halt(solver, max_time: float | None) -> str | None:
    """Why the solver stopped before every value was exact, in words (None: it did not stop)."""
    if solver.interrupted:
        return "interrupted (Ctrl-C)"
    if solver.timed_out:
        return f"stopped at --max-time {max_time:g} s"
    return None


def _halt_fields(solver) -> dict:
    """JSON keys saying a solve was stopped: "interrupted" (Ctrl-C) or "timed_out" (--max-time)."""
    return ({"interrupted": True} if solver.interrupted else {}) | ({"timed_out": True} if solver.timed_out else {})


def _value_only(solver, pos: Position, seat: int, fmt: str, out, t0: float, cap: int,
                max_time: float | None) -> None:
    """`--value-only`: V_seat of the position alone (seat, value, to_act, chance, nodes; no actions)."""
    with _SolveProgress(pos, cap, value_only=True) as progress:
        if not cap:
            progress(0, 1)
        solver.on_nodes = progress.nodes
        value, nodes, low, high = solver.value_bounds(pos, seat)
    chance = not pos.trick and bool(solver.dice_suits(pos))
    secs = time.perf_counter() - t0
    halt = _halt(solver, max_time)
    row = {"seat": seat, "value": _bound(value), "to_act": pos.to_act(), "chance": chance, "nodes": nodes}
    if cap or halt:
        row |= {"low": _bound(low), "high": _bound(high)}
    row |= _halt_fields(solver)
    if fmt == "json":
        emit_json(row, out, indent=None)
    elif fmt == "csv":
        emit(to_csv([row], list(row)), out)
    else:
        emit(_title(seat, value, chance, pos.to_act(), nodes, secs, low, high, cap, halt) + "\n", out)
    if solver.interrupted:
        raise KeyboardInterrupt  # the CLI's own exit for an interruption: one line, code 130


def _num(v: float):
    return int(v) if float(v).is_integer() else round(float(v), 6)


@click.command()
@rules_option
@position_options
@click.option("--seat", default=None, type=int, help="Perspective seat (default: the seat to act).")
@click.option("--tt-bits", default=SOLVE_TT_BITS, show_default=True, type=int,
              help=f"Transposition table of up to 2^N entries, 56 bytes each ({SOLVE_TT_BITS}: 235 MB), "
                   f"{TT_BITS_MIN} to {TT_BITS_MAX}. It starts at 2^18 (15 MB) and grows to 2^N when a "
                   "search passes 4M nodes; each chain of two actions starts on a table holding what the position's "
                   "search proved (benchmarks/README.md).")
@click.option("--value-only", is_flag=True,
              help="Only the position's value, without each action's: one search instead of one per "
                   "action, far sooner on deals where an action's proof is long (benchmarks/README.md).")
@click.option("--max-nodes", default=None, type=int, metavar="N",
              help="Give each search (the position's, each action's) up after N nodes and show the bounds "
                   "it proved instead of the exact value (JSON/CSV: value null, low/high). Default: no "
                   "limit, every value exact.")
@click.option("--max-time", default=None, type=float, metavar="S",
              help="Stop searching S seconds after the first search starts and show what is solved: the "
                   "values finished exact, the rest as the bounds proved (JSON: timed_out, low/high). Every "
                   "action gets its first million nodes before any search goes further, so the quick ones are "
                   "solved first. Unlike --max-nodes the result depends on the machine's speed.")
@click.option("--threads", default=None, type=int, metavar="N",
              help=f"Chains of actions searched at once (the actions go in chains of two, each chain on one "
                   f"table), each in its own thread with its own table (up to 2^--tt-bits entries each). Default: "
                   f"the cores, at most {MAX_DEFAULT_THREADS}. Values and node counts do not depend on it.")
@format_options
def solve(rules_spec, deal_text, dong, leader, folded, trace_path, trace_deal, at, banker, streak,
          seat, tt_bits, value_only, max_nodes, max_time, threads, fmt, out) -> None:
    """The exact value of a position with every hand visible (RULES.md §8, an oracle's view).

    The perspective seat maximises its net result (settlement plus bonuses), the other seats
    minimise it together; the residual-tile dice are averaged.  Lists the value of each
    distinct legal action of the seat to act.  Ctrl-C stops the search at once and prints what
    is solved (the rest as the bounds proved so far), exit code 130.

    \b
    Examples:
      tjsim solve --deal "6-6 5-4 | 1-1 6-2 | 4-4 5-3 | 3-1 4-1" --dong 2,2,1,1 --leader 0
      tjsim play --seed 7 --format json > deal.json
      tjsim solve --trace deal.json --at 12 --seat 3 --format json
      tjsim solve --trace deal.json --at 0 --seat 3 --value-only
      tjsim solve --trace deal.json --at 0 --max-nodes 2000000
      tjsim solve --trace deal.json --at 0 --max-time 10
    """
    rules, pos = read_position(rules_spec, deal_text, dong, leader, folded, trace_path, trace_deal, at,
                               banker, streak)
    seat = check_seat(pos, seat)
    if not TT_BITS_MIN <= tt_bits <= TT_BITS_MAX:
        raise TjsimError(f"--tt-bits must be {TT_BITS_MIN} to {TT_BITS_MAX}, got {tt_bits}")
    if max_nodes is not None and max_nodes < 1:
        raise TjsimError(f"--max-nodes must be a positive number of nodes, got {max_nodes}")
    if max_time is not None and not max_time > 0:
        raise TjsimError(f"--max-time must be a positive number of seconds, got {max_time:g}")
    if threads is not None and threads < 1:
        raise TjsimError(f"--threads must be at least 1, got {threads}")
    threads = threads or min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else
                             (os.cpu_count() or 1), MAX_DEFAULT_THREADS)
    cap = max_nodes or 0
    t0 = time.perf_counter()
    from ..kernels.position import Solver  # noqa: PLC0415 (its kernels compile on import)

    # interruptible: Ctrl-C stops the search at once and the command prints what it has solved
    solver = Solver(rules, tt_bits=tt_bits, max_nodes=cap, interruptible=True)
    solver.time_limit = max_time
    if value_only:
        _value_only(solver, pos, seat, fmt, out, t0, cap, max_time)
        return
    with _SolveProgress(pos, cap, threads=threads) as progress:
        solver.on_nodes = progress.nodes
        sol = solver.solve(pos, seat, on_action=progress, threads=threads)
    secs = time.perf_counter() - t0

    _emit_solution(sol, seat, fmt, out, secs, cap, _halt(solver, max_time), _halt_fields(solver))
    if sol.interrupted:
        raise KeyboardInterrupt  # after the partial answer: the CLI's one line and exit code 130


def _emit_solution(sol, seat: int, fmt: str, out, secs: float, cap: int, halt: str | None,
                   halt_fields: dict) -> None:
    """The solution as a table, JSON or CSV; bounds too under --max-nodes or when the solve was stopped."""
    bounded = bool(cap) or halt is not None

    def extra(x) -> dict:  # the proved bounds of the position or an action
        return {"low": _bound(x.low), "high": _bound(x.high)} if bounded else {}

    actions = [{"action": a.action, "tiles": tile_list(a.mask), "value": _bound(a.value)} | extra(a)
               for a in sol.actions]
    if fmt == "json":
        emit_json({"seat": seat, "value": _bound(sol.value), "to_act": sol.to_act, "chance": sol.chance,
                   "actions": actions, "nodes": sol.nodes} | extra(sol)
                  | halt_fields, out, indent=None)
        return
    if fmt == "csv":
        cols = ["action", "tiles", "value"] + (["low", "high"] if bounded else [])
        emit(to_csv([a | {"tiles": " ".join(a["tiles"])} for a in actions], cols), out)
        return
    rows = [{"action": a.action, "tiles": " ".join(tile_list(a.mask)), "value": _shown(a.value, a.low, a.high),
             "best": "*" if not math.isnan(a.value) and a.value == sol.value else ""} for a in sol.actions]
    title = _title(seat, sol.value, sol.chance, sol.to_act, sol.nodes, secs, sol.low, sol.high, cap, halt)
    emit(render_table(rows, ["action", "tiles", "value", "best"], title=title), out)
