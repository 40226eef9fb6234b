"""`tjsim rules`: the tiles, the play classes in rank order and every setting of a rule set."""
from __future__ import annotations

import click

from ..game.catalogue import SUIT_SYSTEMS, Catalogue, catalogue
from ..game.rules import RuleSet
from ..game.tiles import KINDS, chinese_names, tile_list
from .options import emit, emit_json, players_option, resolve_rules, rules_option
from ..output.tables import render_table

SETTING_HELP = {
    "players": "players at the table",
    "allowed_players": "player counts this rule set allows",
    "tiles_per_player": "tiles dealt to each player (undealt tiles are out of play)",
    "suits": "suits for singles and pairs: hk = civil 文 / military 武; folk = 宫 / 杂 / 幺",
    "early_death": "§4.4: a player may win the last trick only if they end with enough 戙",
    "early_death_min_dong": "§4.4: the 戙 a player must end with to win the last trick",
    "civil_supreme": "§3.3 文尊: a led 5-1 pair beats everything but a 6-1 pair",
    "supreme_catcher": "§3.3: a 杂8 pair (6-2+5-3) beats a led 至尊",
    "baseline": "§5.1 B: each loser pays B − 戙 (+1 with no 戙)",
    "banker_multiplier": "§5.2: payments to/from the banker × (streak + 1)",
    "sweep_multiplier": "§5.3 全码: multiplier when the closer won every 戙",
    "supreme_bonus": "§5.4 賀尊: paid by each opponent for 至尊 led at the first chance",
    "supreme_bonus_suspended": "§5.4: a caught 至尊's 賀尊 waits for who closes",
    "supreme_close": "§5.4 包尊: 至尊 led as the last trick doubles the settlement",
    "supreme_close_reward": "§5.4 包尊 catch: each other player pays this to the catcher",
    "quartet_bonus": "§5.4 四大賀: paid by each opponent to the winner of a led quartet",
    "fold": "§4.6: a hand without 老 or 二名老 may fold",
    "fold_cost": "§4.6: what a folded player pays the closer",
    "residual_dice": "§4.7: dice choose the suit of a forced residual lead",
    "dice_gong_min": "§4.7: dice totals from this up to 12 force 宫",
    "dice_za_min": "§4.7: dice totals from this up to dice_gong_min − 1 force 杂 (lower: 幺)",
    "deal_round": "§6: tiles taken at a time in round dealing",
}


def _suit_of(rules: RuleSet, kind_index: int) -> str:
    for name, zh, kinds in SUIT_SYSTEMS[rules.suits]:
        if kind_index in kinds:
            return f"{zh} {name}"
    return ""


def tile_rows(rules: RuleSet) -> list[dict]:
    """One row per kind of tile: pips, names, suit, copies."""
    return [
        {"pips": k.pips, "chinese": k.chinese, "english": k.english, "suit": _suit_of(rules, k.index),
         "copies": k.copies}
        for k in KINDS
    ]


def class_rows(cat: Catalogue) -> list[dict]:
    """Each class with its distinct plays strongest first; equal plays share a rank."""
    out = []
    for c in cat.classes:
        plays, seen = [], set()
        for p in cat.plays_of_class(c.index):
            tiles = tuple(tile_list(int(cat.mask[p])))
            if tiles in seen:
                continue
            seen.add(tiles)
            plays.append({"tiles": list(tiles), "chinese": chinese_names(int(cat.mask[p])),
                          "rank": int(cat.rank[p])})
        out.append({"name": c.name, "chinese": c.chinese, "size": c.size, "plays": plays})
    return out


def _ranked(plays: list[dict]) -> str:
    text = ""
    for i, p in enumerate(plays):
        if i:
            text += " = " if p["rank"] == plays[i - 1]["rank"] else " > "
        text += f"{' '.join(p['tiles'])} {p['chinese']}"
    return text


@click.command()
@rules_option
@players_option
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="Write to this file.")
def rules(rules_spec: str, players: int | None, fmt: str, out: str | None) -> None:
    """Print the tiles, the play classes in rank order and all settings of a rule set.

    \b
    Examples:
      tjsim rules
      tjsim rules --rules folk --players 3
      tjsim rules --rules my_table.toml --format json
    """
    rs = resolve_rules(rules_spec, players)
    cat = catalogue(rs)
    settings = rs.describe()
    settings["allowed_players"] = list(settings["allowed_players"])
    if fmt == "json":
        emit_json({"rules": rs.name, "preset": rs.preset, "settings": settings,
                   "tiles": tile_rows(rs), "classes": class_rows(cat)}, out)
        return
    parts = [f"Tien Gow 天九 — rule set '{rs.name}' (preset {rs.preset}), {rs.players} players × "
             f"{rs.tiles_per_player} tiles\n"]
    parts.append(render_table(tile_rows(rs), title="Tiles (rank order within each suit, highest first)"))
    parts.append("Plays: a play beats only a play of the same class and size with a strictly higher rank.")
    for c in class_rows(cat):
        parts.append(f"  {c['name']} {c['chinese']} ({c['size']} tile{'s' if c['size'] > 1 else ''}):\n"
                     f"      {_ranked(c['plays'])}")
    notes = ["至尊 (4-2 + 2-1) can only be led; as a follower it is a discard."]
    notes.append("A led 至尊 is beaten by nothing." if not rs.supreme_catcher else
                 "A led 至尊 is beaten only by the 杂8 pair (6-2 + 5-3); then a 杂9 pair may beat that.")
    if rs.civil_supreme:
        notes.append("文尊: a led 5-1 pair beats everything but a 6-1 pair (then higher civil pairs may beat that).")
    parts.append("\n" + "\n".join(notes) + "\n")
    rows = [{"setting": k, "value": str(v).lower() if isinstance(v, bool) else str(v),
             "meaning": SETTING_HELP.get(k, "")} for k, v in settings.items() if k not in ("name", "preset")]
    parts.append(render_table(rows, title="Settings (override any of them in a TOML rules file)"))
    emit("\n".join(parts), out)
