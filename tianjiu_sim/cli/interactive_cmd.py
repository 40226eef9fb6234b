"""The terminal side of `tjsim play --interactive`: show the table, read the person's choices."""
from __future__ import annotations

import json
import signal
import sys

import click

from ..errors import TjsimError
from ..game.tiles import KINDS, TILE_KIND, parse_hand, popcount, tile_list
from .options import emit

HELP = ("numbers choose an action; 'd TILES' discards (e.g. d 3-1 4-1); '?' advice (pimc, from what you "
        "can see); 'u' takes back your last decision; 'q' quits")


def named(mask: int) -> str:
    """'6-6 5-4 (天 雜九)': pips, then the Chinese names."""
    tiles = tile_list(mask)
    chinese = " ".join(KINDS[TILE_KIND[parse_hand(t).bit_length() - 1]].chinese for t in tiles)
    return f"{' '.join(tiles)} ({chinese})" if tiles else "—"


def show(view, rules) -> None:
    """Print the table as the person sees it."""
    from ..kernels.position import DISCARD
    n = rules.players
    click.echo("")
    if view.kind == "fold":
        click.echo(f"Seat {view.seat} (you), before the first lead. Your hand: {named(view.hand)}")
        click.echo("You may fold (your hand holds no 老 or 二名老): fold? [y/n]")
        return
    pos, hist = view.pos, view.history
    dong = " | ".join(f"seat {s}: {pos.dong[s]}" for s in range(n))
    disc = " | ".join(f"seat {s}: {hist.discarded[s] + sum(popcount(m) for t, a, m in pos.trick if t == s and a == DISCARD)}"
                      for s in range(n))
    click.echo(f"Trick {hist.tricks + 1} — you are seat {view.seat}; banker seat {pos.banker}"
               + (f"; folded: {', '.join(map(str, sorted(pos.folded)))}" if pos.folded else ""))
    click.echo(f"  戙 so far:  {dong}")
    click.echo(f"  discarded:  {disc}")
    if pos.trick:
        plays = "; ".join(f"seat {s} {a}s {'(face down, ' + str(popcount(m)) + ')' if a == DISCARD else named(m)}"
                          for s, a, m in pos.trick)
        click.echo(f"  this trick: {plays}")
    click.echo(f"Your hand: {named(view.hand)}")
    if view.forced:
        click.echo(f"  the residual-tile dice were thrown: lead a single of the {view.forced} suit")
    verb = "lead" if view.kind == "lead" else "beat with"
    for i, m in enumerate(view.options, 1):
        click.echo(f"  {i}) {verb} {named(m)}")
    if view.kind == "follow":
        click.echo(f"  d TILES) discard {view.size} tile{'s' if view.size > 1 else ''} face down")
    click.echo(f"  ({HELP})")


def parse_choice(text: str, view, rules) -> tuple[str, int]:
    """The person's input as (action, mask); ValueError with the reason when it is not allowed."""
    from ..kernels.position import BEAT, DISCARD, LEAD
    text = text.strip()
    if view.kind == "fold":
        if text.lower() in ("y", "yes", "f", "fold"):
            return "fold", 0
        if text.lower() in ("n", "no", "p", "play"):
            return "play", 0
        raise ValueError("answer y (fold) or n (play)")
    if text.isdigit():
        i = int(text)
        if not 1 <= i <= len(view.options):
            raise ValueError(f"choose 1 to {len(view.options)}" if view.options else
                             "there is nothing to beat with: discard with d TILES")
        return (LEAD if view.kind == "lead" else BEAT), view.options[i - 1]
    if text.startswith("d"):
        if view.kind == "lead":
            raise ValueError("the leader cannot discard: choose a lead by its number")
        names = text[1:].replace(",", " ").split()
        if len(names) != view.size:
            raise ValueError(f"discard exactly {view.size} tile{'s' if view.size > 1 else ''} (the lead has {view.size})")
        try:
            mask = parse_hand(" ".join(names), view.hand)
        except (TjsimError, ValueError) as e:
            raise ValueError(f"{e} (your hand: {' '.join(tile_list(view.hand))})") from None
        if popcount(mask) != view.size:
            raise ValueError(f"those are not {view.size} tiles of your hand")
        return DISCARD, mask
    raise ValueError(f"'{text}' is not a choice — {HELP}")


def advice(view, rules, seed: int) -> None:
    """Print pimc's evaluation of the decision (32 worlds, from what the person can see)."""
    from ..game.tiles import BB_FOLK_SUIT
    from ..sim.advise import advise
    if view.kind == "fold":
        click.echo("advice is given for plays, not for the fold decision")
        return
    forced = BB_FOLK_SUIT[view.forced] if view.forced else None
    seat, rows, best = advise(rules, view.pos, view.history, 32, seed, forced_suit=forced)
    click.echo("advice (pimc, 32 worlds from what you can see): action, mean 戙 [95% CI], P(close)")
    for i, a in enumerate(rows):
        mark = "  <- best" if i == best else ""
        click.echo(f"  {a.action} {named(a.mask)}: {a.mean:+.2f} [{a.ci_low:+.2f}, {a.ci_high:+.2f}], "
                   f"P(close) {a.p_close:.2f}{mark}")


def run_interactive(rules, names: list[str], seed: int, deal: int, banker: int, streak: int, seat: int,
                    trace_path: str | None) -> None:
    """Play the deal with the person at `seat`; print the settlement; save the trace."""
    from ..sim.interactive import Undo, play_interactive

    if not 0 <= seat < rules.players:
        raise TjsimError(f"--seat must be a seat 0 to {rules.players - 1}, got {seat}")
    def ask(view):
        while True:
            show(view, rules)
            try:
                line = input("> ")
            except EOFError:
                raise TjsimError(f"the input ended in the middle of the deal (seat {view.seat} was to "
                                 f"{'decide whether to fold' if view.kind == 'fold' else view.kind})") from None
            if line.strip() == "?":
                advice(view, rules, seed)
                continue
            if line.strip() == "u":
                click.echo("taking back your last decision")
                raise Undo()
            if line.strip() == "q":
                raise TjsimError("quit before the end of the deal (no trace saved)")
            try:
                return parse_choice(line, view, rules)
            except ValueError as e:
                click.echo(f"not allowed: {e}")

    click.echo(f"tjsim play --interactive — rules {rules.name}, {rules.players} players, seed {seed}, deal {deal}; "
               f"you are seat {seat}; the others: "
               + ", ".join(f"seat {s} {p}" for s, p in enumerate(names) if s != seat))
    # Ctrl-C ends as the CLI's one line "tjsim: interrupted" (exit 130), no traceback — also when
    # the shell that started us ignored SIGINT (a background job does), which Python would inherit.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    trace = play_interactive(rules, seed, deal, names, seat, ask, banker, streak)
    click.echo("")
    if trace["closer"] is None:
        click.echo("Void deal: fewer than two players remain after folding; nobody pays.")
    else:
        click.echo(f"The deal is over: seat {trace['closer']} closes (結).")
    click.echo("  戙:       " + " | ".join(f"seat {s}: {d}" for s, d in enumerate(trace["dong"])))
    click.echo("  payments: " + " | ".join(f"seat {s}: {p:+d}" for s, p in enumerate(trace["payments"])))
    for b in trace.get("bonuses", []):
        click.echo(f"  bonus: {b}")
    if trace_path:
        emit(json.dumps(trace, ensure_ascii=False, indent=2) + "\n", trace_path)
        click.echo(f"trace saved to {trace_path}")
    sys.stdout.flush()
