"""`tjsim hand`: the tiles of a hand and every play it can form."""
from __future__ import annotations

import click

from ..game.catalogue import catalogue
from ..errors import TjsimError
from ..game.tiles import KINDS, TILE_KIND, bits_of, chinese_names, format_hand, parse_hand, popcount, tile_list
from .options import emit, emit_json, players_option, resolve_rules, rules_option
from ..output.tables import render_table


@click.command()
@click.argument("tiles")
@rules_option
@players_option
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="Write to this file.")
def hand(tiles: str, rules_spec: str, players: int | None, fmt: str, out: str | None) -> None:
    """Show a hand's tiles and every play it can form, class by class, strongest first.

    \b
    Example:
      tjsim hand "6-6 6-6 5-4 6-3 4-2 2-1 1-1 3-1"
    """
    rs = resolve_rules(rules_spec, players)
    mask = parse_hand(tiles)
    if not mask:
        raise TjsimError(f"no tiles given in {tiles!r}: name the hand's tiles, e.g. \"6-6 6-6 5-4 6-3\"")
    if popcount(mask) > rs.tiles_per_player:
        raise TjsimError(f"the hand has {popcount(mask)} tiles, a player holds {rs.tiles_per_player}")
    cat = catalogue(rs)
    plays = []
    for c in cat.classes:
        for p in cat.plays_of_class(c.index):
            m = int(cat.mask[p])
            if m & mask == m and not int(cat.need_absent[p]) & mask:
                plays.append({"class": c.name, "chinese_class": c.chinese, "tiles": tile_list(m),
                              "chinese": chinese_names(m), "rank": int(cat.rank[p])})
    if fmt == "json":
        emit_json({"hand": tile_list(mask), "plays": plays}, out)
        return
    names = " ".join(f"{KINDS[TILE_KIND[b]].chinese}" for b in bits_of(mask))
    rows = [{"class": f"{p['class']} {p['chinese_class']}", "play": " ".join(p["tiles"]),
             "names": p["chinese"], "rank": p["rank"]} for p in plays]
    emit(f"Hand: {format_hand(mask)}  ({names})\n\n"
         + render_table(rows, title=f"Plays this hand can make under '{rs.name}'"), out)
