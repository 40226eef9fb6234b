"""Rule sets (RULES.md §2): the presets `hk` and `folk`, and TOML files that override them.

Every [choice] of RULES.md is a field of `RuleSet`. Settings that depend on the player
count (tiles per player, baseline, 四大賀 bonus) may be written symbolically in a preset
or file ("half", "players") and are resolved once the player count is known.
"""
from __future__ import annotations

import dataclasses
import difflib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import TjsimError
from .tiles import N_TILES


@dataclass(frozen=True)
class RuleSet:
    """A complete, resolved rule set: every setting a concrete value."""

    name: str
    preset: str
    players: int
    allowed_players: tuple[int, ...]
    tiles_per_player: int
    suits: str  # "hk": civil 文 / military 武; "folk": 宫 / 杂 / 幺
    early_death: bool  # §4.4
    early_death_min_dong: int  # a player may win the last trick only if they end with this many 戙
    civil_supreme: bool  # 文尊 (§3.3): a led 5-1 pair beats all but a 6-1 pair
    supreme_catcher: bool  # a 杂8 pair beats a led 至尊 (§3.3)
    baseline: int  # B of §5.1
    banker_multiplier: bool  # §5.2
    sweep_multiplier: int  # 全码: one player wins every 戙
    supreme_bonus: int  # 賀尊, per opponent
    supreme_bonus_suspended: bool  # a caught 至尊 suspends its 賀尊 (§5.4)
    supreme_close: bool  # 包尊 (§5.4)
    supreme_close_reward: int  # 包尊 catch reward, per other player
    quartet_bonus: int  # 四大賀, per opponent
    fold: bool  # §4.6
    fold_cost: int  # what a folded player pays the closer
    residual_dice: bool  # §4.7
    dice_gong_min: int  # dice total from which the residual suit is 宫 (up to 12)
    dice_za_min: int  # dice total from which it is 杂 (below dice_gong_min); lower totals: 幺
    deal_round: int  # round dealing: tiles taken at a time (§6)

    @property
    def dice_on(self) -> bool:
        """Whether the residual-tile dice are thrown at this table (§4.7: never with 2 players)."""
        return self.residual_dice and self.players != 2

    def describe(self) -> dict[str, Any]:
        """All settings as a plain dict (for `tjsim rules` and manifests)."""
        return dataclasses.asdict(self)


# Symbolic defaults resolved by player count.
_FOLK_TILES = {2: 10, 3: 10, 4: 8}

PRESETS: dict[str, dict[str, Any]] = {
    "hk": dict(
        players=4, allowed_players=[4], tiles_per_player=8, suits="hk",
        early_death=True, early_death_min_dong=2, civil_supreme=True, supreme_catcher=False,
        baseline=4, banker_multiplier=True, sweep_multiplier=1,
        supreme_bonus=0, supreme_bonus_suspended=False, supreme_close=False,
        supreme_close_reward=0, quartet_bonus=0, fold=False, fold_cost=0,
        residual_dice=False, dice_gong_min=9, dice_za_min=5, deal_round=2,
    ),
    "folk": dict(
        players=4, allowed_players=[2, 3, 4], tiles_per_player="by-players", suits="folk",
        early_death=False, early_death_min_dong=2, civil_supreme=False, supreme_catcher=True,
        baseline="half", banker_multiplier=False, sweep_multiplier=2,
        supreme_bonus=2, supreme_bonus_suspended=True, supreme_close=True,
        supreme_close_reward=2, quartet_bonus="players", fold=True, fold_cost=0,
        residual_dice=True, dice_gong_min=9, dice_za_min=5, deal_round=2,
    ),
}
PRESET_NAMES = tuple(PRESETS)

# Allowed symbolic strings per key.
_SYMBOLS = {"tiles_per_player": "by-players", "baseline": "half", "quartet_bonus": "players"}
_TYPES: dict[str, type] = {
    k: type(v) for k, v in PRESETS["hk"].items()
}
SETTING_KEYS = tuple(PRESETS["hk"])


def _resolve(name: str, preset: str, raw: dict[str, Any], where: dict[str, str]) -> RuleSet:
    """Turn raw settings into a RuleSet, checking values; `where` maps key → 'file:line'."""

    def fail(key: str, msg: str) -> None:
        loc = where.get(key)
        raise TjsimError(f"{loc}: key '{key}': {msg}" if loc else f"rules '{name}': {msg}")

    players = raw["players"]
    allowed = tuple(raw["allowed_players"])
    if any(not 2 <= p <= 8 for p in allowed) or not allowed:
        fail("allowed_players", f"each player count must be 2 to 8, got {list(allowed)}")
    if players not in allowed:
        fail("players", f"{players} players is not allowed by this rule set (allowed: "
             f"{', '.join(map(str, allowed))})")
    tiles = raw["tiles_per_player"]
    if tiles == "by-players":
        tiles = _FOLK_TILES.get(players, N_TILES // players)
    if not 1 <= tiles <= 16:
        fail("tiles_per_player", f"must be 1 to 16, got {tiles}")
    if players * tiles > N_TILES:
        fail("tiles_per_player", f"{players} players × {tiles} tiles = {players * tiles} > 32 tiles in the set")
    baseline = tiles // 2 if raw["baseline"] == "half" else raw["baseline"]
    quartet = players if raw["quartet_bonus"] == "players" else raw["quartet_bonus"]
    for key in ("early_death_min_dong", "supreme_bonus", "supreme_close_reward", "fold_cost"):
        if raw[key] < 0:
            fail(key, f"must not be negative, got {raw[key]}")
    if baseline < 0:
        fail("baseline", f"must not be negative, got {baseline}")
    if quartet < 0:
        fail("quartet_bonus", f"must not be negative, got {quartet}")
    if raw["sweep_multiplier"] < 1:
        fail("sweep_multiplier", f"must be at least 1, got {raw['sweep_multiplier']}")
    if raw["suits"] not in ("hk", "folk"):
        fail("suits", f"must be 'hk' (civil/military) or 'folk' (宫/杂/幺), got '{raw['suits']}'")
    if not 2 <= raw["dice_za_min"] < raw["dice_gong_min"] <= 12:
        fail("dice_gong_min", "need 2 ≤ dice_za_min < dice_gong_min ≤ 12")
    if not 1 <= raw["deal_round"] <= tiles:
        fail("deal_round", f"must be 1 to tiles per player ({tiles}), got {raw['deal_round']}")
    values = dict(raw, name=name, preset=preset, allowed_players=allowed,
                  tiles_per_player=tiles, baseline=baseline, quartet_bonus=quartet)
    return RuleSet(**values)


def preset(name: str, players: int | None = None) -> RuleSet:
    """A preset rule set (`hk` or `folk`), optionally with another player count."""
    if name not in PRESETS:
        raise TjsimError(f"unknown rules '{name}' (allowed: {', '.join(PRESET_NAMES)}, or a .toml file)")
    raw = dict(PRESETS[name])
    if players is not None:
        raw["players"] = players
    return _resolve(name, name, raw, {})


def line_of(text: str, key: str) -> int:
    """The 1-based line of a TOML text where `key = …` is set (1 if not found)."""
    for i, line in enumerate(text.splitlines(), 1):
        if re.match(rf"\s*{re.escape(key)}\s*=", line):
            return i
    return 1


def _check_type(key: str, value: Any) -> str | None:
    """Why `value` is not allowed for `key`, or None."""
    want = _TYPES[key]
    if key in _SYMBOLS and isinstance(value, str):
        return None if value == _SYMBOLS[key] else f"must be an integer or \"{_SYMBOLS[key]}\""
    if key == "allowed_players":
        ok = isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        return None if ok else "must be a list of integers, e.g. [2, 3, 4]"
    if want is int and (isinstance(value, bool) or not isinstance(value, int)):
        return f"must be an integer, got {value!r}"
    if want is bool and not isinstance(value, bool):
        return f"must be true or false, got {value!r}"
    if want is str and not isinstance(value, str):
        return f"must be a string, got {value!r}"
    return None


def read_toml(path: str | Path, what: str = "rules file") -> tuple[dict[str, Any], dict[str, str]]:
    """Parse a TOML file; returns (data, where) with where[key] = 'file:line' of each top-level key."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise TjsimError(f"cannot read {what} {path}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise TjsimError(f"{what} {path} is not UTF-8 text (byte {e.start} cannot be decoded); "
                         "save it as UTF-8 TOML") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise TjsimError(f"{path}: malformed TOML: {e}") from None
    return data, {k: f"{path}:{line_of(text, k)}" for k in data}


def unknown_key_error(loc: str, key: str, valid: tuple[str, ...]) -> TjsimError:
    """The error for a key a file may not set, with the nearest valid key as a hint."""
    near = difflib.get_close_matches(key, valid, n=1)
    hint = f" (did you mean '{near[0]}'?)" if near else f" (valid keys: {', '.join(valid)})"
    return TjsimError(f"{loc}: unknown key '{key}'{hint}")


def override_settings(raw: dict[str, Any], data: dict[str, Any], where: dict[str, str], check_type) -> dict[str, Any]:
    """raw updated with a file's settings; unknown keys and bad types (check_type → why) → TjsimError."""
    for key, value in data.items():
        if key not in raw:
            raise unknown_key_error(where[key], key, tuple(raw))
        why = check_type(key, value)
        if why:
            raise TjsimError(f"{where[key]}: key '{key}': {why}")
        raw[key] = value
    return raw


def load_rules_file(path: str | Path, players: int | None = None) -> RuleSet:
    """Load a TOML rules file: `preset = "hk"|"folk"` plus any settings to override."""
    path = Path(path)
    data, where = read_toml(path)
    base = data.pop("preset", None)
    if base not in PRESETS:
        loc = where.get("preset", f"{path}:1")
        raise TjsimError(f"{loc}: key 'preset': must be one of {', '.join(PRESET_NAMES)}, got {base!r}")
    name = data.pop("name", path.stem)
    raw = override_settings(dict(PRESETS[base]), data, where, _check_type)
    if players is not None:
        raw["players"] = players
    return _resolve(str(name), base, raw, where)


def load_rules(spec: str, players: int | None = None) -> RuleSet:
    """Resolve `--rules`: a preset name or a path to a .toml file."""
    if spec in PRESETS:
        return preset(spec, players)
    if spec.endswith(".toml") or Path(spec).exists():
        if not Path(spec).is_file():
            raise TjsimError(f"rules file '{spec}' not found")
        return load_rules_file(spec, players)
    raise TjsimError(f"unknown rules '{spec}' (allowed: {', '.join(PRESET_NAMES)}, or a path to a .toml file)")
