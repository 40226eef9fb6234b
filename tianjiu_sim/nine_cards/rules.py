"""The rule set `nine_cards` (RULES.md §9) and TOML files that override it.

Every [choice] of §9, and every point §9 leaves open, is a field of `NineCardsRules`; a TOML
file names `preset = "nine_cards"` and overrides fields, errors naming file:line like the
Tien Gow rules files (whose reader, game/rules.read_toml, it uses).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import TjsimError
from ..game.rules import override_settings, read_toml

PRESET = "nine_cards"
MIN_PLAYERS, MAX_PLAYERS = 4, 7


@dataclass(frozen=True)
class NineCardsRules:
    """A complete rule set of 九支十仔: every setting a concrete value."""

    name: str
    players: int
    allowed_players: tuple[int, ...]
    eat_with_three: bool  # §9.2.2 [choice] "an odd number": a seat holding three also eats / lays a dead card
    turner_first: bool  # §9.2.2 [choice]: the seat that turned a card comes first, else last
    discard_pairs: bool  # may a card of a pair be discarded (seed: pairs may not be split)
    stock_reserve: int  # §9.2.5: the deal is drawn when a turn is due with this many cards left
    deal_win_self_draw: bool  # banker's ten dealt cards five pairs: a self-draw (else as from the stock)
    colour_points: tuple[int, int, int, int]  # 頭 for pairs in 1, 2, 3, 4 colours (§9.3)
    four_colour_self_draw: int  # §9.3 [choice]: a four-colour self-draw scores this in all, no flips
    self_draw_bonus: int  # 自摸 +1
    bonus_flips: int  # cards turned after a self-draw or a win from the stock
    flip_bonus: int  # each of the first flips identical to one of the winner's pairs
    tail_bonus: int  # the last flip (尾椎) identical to one of the winner's pairs
    kaizhao_bonus: int  # each 開招 the winner made during the deal
    kaizhao_wait_bonus: int  # the win completed a 開招 (the single was the fourth of a triple)
    discard_payer_only: bool  # §9.3 [choice]: a win from a discard is paid by the discarder alone
    stock_turner_pays: bool  # a win from the stock is paid by the turner alone (default: every other seat)

    def describe(self) -> dict[str, Any]:
        """All settings as a plain dict (for manifests and `--format json`)."""
        d = dataclasses.asdict(self)
        d["allowed_players"] = list(self.allowed_players)
        d["colour_points"] = list(self.colour_points)
        return d


DEFAULTS: dict[str, Any] = dict(
    players=4, allowed_players=[4, 5, 6, 7], eat_with_three=True, turner_first=True,
    discard_pairs=False, stock_reserve=9, deal_win_self_draw=True, colour_points=[5, 3, 2, 0],
    four_colour_self_draw=1, self_draw_bonus=1, bonus_flips=5, flip_bonus=1, tail_bonus=2,
    kaizhao_bonus=1, kaizhao_wait_bonus=5, discard_payer_only=True, stock_turner_pays=False,
)
SETTING_KEYS = tuple(DEFAULTS)
_LISTS = {"allowed_players": None, "colour_points": 4}


def _check_type(key: str, value: Any) -> str | None:
    """Why `value` is not allowed for `key`, or None."""
    want = type(DEFAULTS[key])
    if key in _LISTS:
        ok = isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        if not ok or (_LISTS[key] and len(value) != _LISTS[key]):
            return "must be a list of integers" + (f" of length {_LISTS[key]}" if _LISTS[key] else "")
        return None
    if want is bool:
        return None if isinstance(value, bool) else f"must be true or false, got {value!r}"
    if isinstance(value, bool) or not isinstance(value, int):
        return f"must be an integer, got {value!r}"
    return None


def _resolve(name: str, raw: dict[str, Any], where: dict[str, str]) -> NineCardsRules:
    def fail(key: str, msg: str) -> None:
        loc = where.get(key)
        raise TjsimError(f"{loc}: key '{key}': {msg}" if loc else f"rules '{name}': {msg}")

    allowed = tuple(raw["allowed_players"])
    if not allowed or any(not MIN_PLAYERS <= p <= MAX_PLAYERS for p in allowed):
        fail("allowed_players", f"each player count must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {list(allowed)}")
    if raw["players"] not in allowed:
        if not MIN_PLAYERS <= raw["players"] <= MAX_PLAYERS:
            raise TjsimError(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS} for 九支十仔 "
                             f"(hands of 10 and 9 cards), got {raw['players']}")
        fail("players", f"{raw['players']} players is not allowed by this rule set "
             f"(allowed: {', '.join(map(str, allowed))})")
    for key in ("four_colour_self_draw", "self_draw_bonus", "flip_bonus", "tail_bonus", "kaizhao_bonus",
                "kaizhao_wait_bonus", "bonus_flips"):
        if raw[key] < 0:
            fail(key, f"must not be negative, got {raw[key]}")
    if any(v < 0 for v in raw["colour_points"]):
        fail("colour_points", f"must not be negative, got {raw['colour_points']}")
    if not raw["bonus_flips"] <= raw["stock_reserve"] <= 40:
        fail("stock_reserve", f"must be from bonus_flips ({raw['bonus_flips']}) to 40, got {raw['stock_reserve']}")
    return NineCardsRules(name=name, **dict(raw, allowed_players=allowed,
                                             colour_points=tuple(raw["colour_points"])))


def preset(players: int | None = None) -> NineCardsRules:
    """The rule set `nine_cards` of RULES.md §9, optionally with another player count."""
    raw = dict(DEFAULTS)
    if players is not None:
        raw["players"] = players
    return _resolve(PRESET, raw, {})


def load_rules_file(path: str | Path, players: int | None = None) -> NineCardsRules:
    """A TOML file: `preset = "nine_cards"` plus settings to override."""
    path = Path(path)
    data, where = read_toml(path)
    base = data.pop("preset", None)
    if base != PRESET:
        raise TjsimError(f"{where.get('preset', f'{path}:1')}: key 'preset': must be \"{PRESET}\", got {base!r}")
    name = str(data.pop("name", path.stem))
    raw = override_settings(dict(DEFAULTS), data, where, _check_type)
    if players is not None:
        raw["players"] = players
    return _resolve(name, raw, where)


def load_rules(spec: str, players: int | None = None) -> NineCardsRules:
    """Resolve `--rules`: `nine_cards` or a path to a .toml file."""
    if spec == PRESET:
        return preset(players)
    if spec.endswith(".toml") or Path(spec).exists():
        if not Path(spec).is_file():
            raise TjsimError(f"rules file '{spec}' not found")
        return load_rules_file(spec, players)
    raise TjsimError(f"unknown rules '{spec}' (allowed: {PRESET}, or a path to a .toml file)")
