"""`tjsim score`: settle one deal from each seat's 戙 and the closer (RULES.md §5.1–5.3)."""
from __future__ import annotations

import click

from ..errors import TjsimError
from .options import emit, emit_json, format_options, parse_int_list, players_option, resolve_rules, rules_option
from ..output.tables import render_table, to_csv


@click.command()
@rules_option
@players_option
@click.option("--dong", required=True, metavar="D0,D1,…", help="Each seat's 戙 in seat order, e.g. 1,4,0,3.")
@click.option("--closer", required=True, type=int, help="Seat that won the last trick (結).")
@click.option("--banker", default=0, show_default=True, type=int, help="Banker's seat.")
@click.option("--streak", default=1, show_default=True, type=int, help="Deals in a row the banker has held the bank, this one included.")
@format_options
def score(rules_spec: str, players: int | None, dong: str, closer: int, banker: int, streak: int, fmt: str, out: str | None) -> None:
    """Settle one deal: what each seat pays or receives, in 戙.

    \b
    Example (RULES.md §5.5: E pays 6, S 0, W 5, N receives 11):
      tjsim score --rules hk --dong 1,4,0,3 --closer 3 --banker 0 --streak 1
      tjsim score --rules folk --players 3 --dong 2,5,3 --closer 1
    """
    values = parse_int_list(dong, "--dong")
    rs = resolve_rules(rules_spec, players)
    if players is not None and len(values) != players:
        raise TjsimError(f"--dong has {len(values)} values but --players is {players}; give one 戙 count per player")
    if len(values) != rs.players:
        if len(values) not in rs.allowed_players:
            raise TjsimError(
                f"--dong has {len(values)} values; give one per player "
                f"({' or '.join(map(str, rs.allowed_players))} for rules '{rs.name}')")
        rs = resolve_rules(rules_spec, len(values))
    from ..game.settlement import settle  # numba: imported when run, so `tjsim --help` stays light

    payments = settle(rs, values, closer, banker, streak)
    result = {"payments": payments, "closer": closer, "banker": banker, "streak": streak}
    if fmt == "json":
        emit_json(result, out, indent=None)
        return
    rows = [{"seat": s, "dong": d, "role": ", ".join(r for r, on in (("closer 結", s == closer), ("banker 莊", s == banker)) if on),
             "payment": p} for s, (d, p) in enumerate(zip(values, payments))]
    if fmt == "csv":
        emit(to_csv(rows, ["seat", "dong", "payment"]), out)
        return
    emit(render_table(rows, ["seat", "role", "dong", "payment"],
                      title=f"Settlement under '{rs.name}' (banker streak {streak}); payment > 0 receives"), out)
