"""Profiles of the compare games (RULES.md §7): `kong` 摃莊, `yabao` 壓寶, `vegas` pai gow tiles.

A profile is every setting of one game; each [choice] of §7 and each `vegas` difference of
§7.1 is a field. A TOML file names the profile it starts from (`profile = "vegas"`) and
overrides any setting, with the file:line error style of the Tien Gow rule sets.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import TjsimError
from ..game.rules import read_toml, unknown_key_error
from ..game.tiles import KIND_BY_PIPS

# The banker's / player's ways by name (ways.py implements them); here so the CLI can offer them
# without loading the numba kernels.
SIDE_WAYS = ("house", "best", "equilibrium")
WAY_NAMES = ("foxwoods", "front", "back")

WAYS = ("foxwoods", "front", "back")
TIES = ("push", "banker")
HALF_PUSH = ("push", "win")


@dataclass(frozen=True)
class Profile:
    """A complete compare-game profile: every setting a concrete value."""

    name: str
    base: str
    tiles_per_hand: int  # 2: 摃莊 (one two-tile hand); 4: split into front and back (§7.2)
    gong_eights: tuple[str, ...]  # §7.1.4: the tiles that count as an eight in 天摃 / 地摃
    earth_wong: bool  # vegas: 地 + a nine is a wong (above gongs); kong: 1 point
    dihou_lowest: bool  # §7.1: 地猴一 (地 + a nine) ranks below every other hand
    gee_joon_wild: bool  # vegas: 2-1 and 4-2 count 3 or 6, whichever is better, unless paired
    gee_joon_lowest: bool  # vegas: 2-1 and 4-2 rank lowest as single tiles (tie-breaks)
    zero_tiebreak: bool  # kong: equal 0-point hands are told apart by the higher tile; vegas: never
    ties: str  # what an equal comparison is: "push" (走) or "banker" (copies go to the banker)
    commission: float  # share of a winning player's stake paid to the house
    half_push: str  # §7.2: a push on one pair with a win on the other: "push" or "win"
    redeal_pushes: bool  # 壓寶: a pushed deal is dealt again until decided
    rounds_per_shuffle: int  # §7.3: rounds dealt from one shuffle
    players: int  # §7.3: players at the table (each settled against the banker)
    house_way: str  # the named way the house (or a player copying it) splits four tiles

    def describe(self) -> dict[str, Any]:
        """All settings as a plain dict (JSON-friendly)."""
        d = dataclasses.asdict(self)
        d["gong_eights"] = list(self.gong_eights)
        return d


_COMMON = dict(gong_eights=["4-4", "6-2", "5-3"], earth_wong=False, dihou_lowest=False,
               gee_joon_wild=False, gee_joon_lowest=False, zero_tiebreak=True, ties="push",
               commission=0.0, half_push="push", redeal_pushes=False, players=3, house_way="front")

PROFILES: dict[str, dict[str, Any]] = {
    "kong": dict(_COMMON, tiles_per_hand=2, rounds_per_shuffle=1),
    "yabao": dict(_COMMON, tiles_per_hand=4, redeal_pushes=True, rounds_per_shuffle=1),
    "vegas": dict(_COMMON, tiles_per_hand=4, earth_wong=True, gee_joon_wild=True, gee_joon_lowest=True,
                  zero_tiebreak=False, ties="banker", commission=0.05, rounds_per_shuffle=1,
                  house_way="foxwoods"),
}
PROFILE_NAMES = tuple(PROFILES)
SETTING_KEYS = tuple(PROFILES["kong"])
_TYPES = {k: type(v) for k, v in PROFILES["kong"].items()}
_CHOICES = {"ties": TIES, "half_push": HALF_PUSH, "house_way": WAYS}


def _check(key: str, value: Any) -> str | None:
    """Why `value` is not allowed for `key`, or None."""
    want = _TYPES[key]
    if key == "gong_eights":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return 'must be a list of tiles, e.g. ["4-4", "6-2", "5-3"]'
        bad = [v for v in value if v not in KIND_BY_PIPS]
        return f"unknown tile {bad[0]!r} (a tile is written by its pips, higher first)" if bad else None
    if want is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return None if ok else f"must be a number, got {value!r}"
    if want is int and (isinstance(value, bool) or not isinstance(value, int)):
        return f"must be an integer, got {value!r}"
    if want is bool and not isinstance(value, bool):
        return f"must be true or false, got {value!r}"
    if want is str:
        if not isinstance(value, str):
            return f"must be a string, got {value!r}"
        if key in _CHOICES and value not in _CHOICES[key]:
            return f"must be one of {', '.join(_CHOICES[key])}, got {value!r}"
    return None


def _resolve(name: str, base: str, raw: dict[str, Any], where: dict[str, str]) -> Profile:
    def fail(key: str, msg: str) -> None:
        loc = where.get(key)
        raise TjsimError(f"{loc}: key '{key}': {msg}" if loc else f"profile '{name}': {key}: {msg}")

    for key, value in raw.items():
        why = _check(key, value)
        if why:
            fail(key, why)
    tiles = raw["tiles_per_hand"]
    if tiles not in (2, 4):
        fail("tiles_per_hand", f"must be 2 (摃莊) or 4 (壓寶 / pai gow), got {tiles}")
    if not 0 <= raw["commission"] < 1:
        fail("commission", f"must be at least 0 and below 1, got {raw['commission']}")
    if not 1 <= raw["players"] <= 3:
        fail("players", f"must be 1 to 3 (one banker and up to 3 players), got {raw['players']}")
    most = 32 // (tiles * (raw["players"] + 1))
    if not 1 <= raw["rounds_per_shuffle"] <= most:
        fail("rounds_per_shuffle", f"must be 1 to {most} ({raw['players'] + 1} hands of {tiles} tiles a "
             f"round from 32 tiles), got {raw['rounds_per_shuffle']}")
    if raw["earth_wong"] and raw["dihou_lowest"]:
        fail("dihou_lowest", "cannot be true together with earth_wong (地 + a nine is then a wong)")
    values = dict(raw, name=name, base=base, gong_eights=tuple(dict.fromkeys(raw["gong_eights"])),
                  commission=float(raw["commission"]))
    return Profile(**values)


def profile(name: str, **overrides: Any) -> Profile:
    """A named profile (`kong`, `yabao`, `vegas`), optionally with settings overridden."""
    if name not in PROFILES:
        raise TjsimError(f"unknown profile '{name}' (allowed: {', '.join(PROFILE_NAMES)}, or a .toml file)")
    base = _resolve(name, name, dict(PROFILES[name]), {})
    return with_settings(base, **overrides) if overrides else base


def with_settings(p: Profile, **overrides: Any) -> Profile:
    """`p` with some settings changed (each checked as in a profile file)."""
    raw = {k: v for k, v in p.describe().items() if k not in ("name", "base")}
    for key in overrides:
        if key not in raw:
            raise unknown_key_error(f"profile '{p.name}'", key, SETTING_KEYS)
    raw.update(overrides)
    label = p.name + "+" + ",".join(f"{k}={v}" for k, v in sorted(overrides.items()))
    return _resolve(label, p.base, raw, {})


def load_profile_file(path: str | Path) -> Profile:
    """Load a TOML profile file: `profile = "kong"|"yabao"|"vegas"` plus settings to override."""
    path = Path(path)
    data, where = read_toml(path, "profile file")
    base = data.pop("profile", None)
    if base not in PROFILES:
        loc = where.get("profile", f"{path}:1")
        raise TjsimError(f"{loc}: key 'profile': must be one of {', '.join(PROFILE_NAMES)}, got {base!r}")
    name = str(data.pop("name", path.stem))
    raw = dict(PROFILES[base])
    for key, value in data.items():
        if key not in raw:
            raise unknown_key_error(where[key], key, SETTING_KEYS)
        raw[key] = value
    return _resolve(name, base, raw, where)


def load_profile(spec: str) -> Profile:
    """Resolve `--profile`: a profile name or a path to a .toml file."""
    if spec in PROFILES:
        return profile(spec)
    if spec.endswith(".toml") or Path(spec).exists():
        if not Path(spec).is_file():
            raise TjsimError(f"profile file '{spec}' not found")
        return load_profile_file(spec)
    raise TjsimError(f"unknown profile '{spec}' (allowed: {', '.join(PROFILE_NAMES)}, or a path to a .toml file)")
