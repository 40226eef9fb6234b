"""Experiment files (`experiments/*.toml`): parsing, validation, grid expansion and cell seeds.

An experiment is one measure (a plug-in of measures.py) run over a grid of cells: every
combination of the values of the grid axes (rule sets, player counts, dealing methods,
shuffles, strategies per seat, any rule setting such as a bonus, deal counts). Every problem
found is reported with the file, the line and the key, in the style of rules.py.

Seeds: cell `i` gets `SeedSequence(seed, spawn_key=(i,))` (the i-th child of
`SeedSequence(seed).spawn`); deal `d` of that cell then draws from
`rng.seed_stream(state, cell_seed, STREAM_*, d)` exactly as docs/CONTRACTS.md says for a run
seed, so a deal's randomness depends only on (seed, cell, deal index), never on chunking.
"""
from __future__ import annotations

import difflib
import hashlib
import itertools
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import TjsimError
from ..game.rules import RuleSet, PRESETS, PRESET_NAMES, SETTING_KEYS, _check_type, _resolve, load_rules_file
from .cells import cell_rules, cell_seed, is_strategy, known_strategies
from . import analyses  # noqa: F401  (registers the compare, value and sessions measures)
from .measures import MEASURES

__all__ = ["Experiment", "cell_label", "cell_rules", "cell_seed", "config_fingerprint", "known_strategies",
           "load_experiment", "parse_experiment", "strategies_label"]

# RULES.md §6 牌頭 methods, in the table's order, then round dealing (dealing.METHODS).
METHODS = ("left", "right", "one-by-one", "alternate", "skin", "heart", "ears",
           "dragon-phoenix", "wings", "three-lions", "rounds")
SHUFFLE_RE = re.compile(r"^(perfect|none|(riffle|wash):(\d+))$")

TOP_KEYS = {"name": str, "description": str, "measure": str, "seed": int, "deals": int,
            "chunk_size": int, "grid": dict, "rulesets": dict, "options": dict}
# Axes with a fixed meaning; any rule setting key may also be an axis (e.g. supreme_bonus).
AXES = ("rules", "players", "method", "shuffle", "strategies", "deals")
AXIS_DEFAULTS: dict[str, Any] = {"rules": "hk", "players": None, "method": "rounds",
                                 "shuffle": "perfect", "strategies": "random"}
DEFAULT_CHUNK = 10_000
MAX_CELLS = 10_000


@dataclass
class Experiment:
    """A validated experiment: its resolved config, its cells and their seeds."""

    name: str
    source: str
    measure: str
    seed: int
    chunk_size: int
    options: dict[str, Any]
    grid: dict[str, list[Any]]
    cells: list[dict[str, Any]] = field(default_factory=list)
    description: str = ""

    def config(self) -> dict[str, Any]:
        """The resolved config as plain JSON data (what the manifest and the fingerprint hold)."""
        return {"name": self.name, "description": self.description, "measure": self.measure,
                "seed": self.seed, "chunk_size": self.chunk_size, "options": self.options,
                "grid": self.grid, "cells": self.cells}

    def fingerprint(self) -> str:
        """SHA-256 of the resolved config: equal fingerprints produce identical results."""
        return config_fingerprint(self.config())

    def chunks(self) -> list[tuple[int, int, int, int]]:
        """Every chunk as (cell, chunk number, first deal, stop deal), in combining order."""
        out = []
        for cell in self.cells:
            n = cell["deals"]
            for k, start in enumerate(range(0, n, self.chunk_size)):
                out.append((cell["cell"], k, start, min(start + self.chunk_size, n)))
        return out

    @property
    def total_deals(self) -> int:
        """Deals over all cells."""
        return sum(c["deals"] for c in self.cells)


def config_fingerprint(config: dict[str, Any]) -> str:
    """SHA-256 hex digest of a config's canonical JSON."""
    text = json.dumps(config, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class _Problems:
    """Collects problems as 'file:line: key 'k': message' strings."""

    def __init__(self, path: Path, text: str):
        self.path, self.items = path, []
        self.lines = _key_lines(text)
        self.text_lines = text.splitlines()

    def line(self, key: str, value: Any = None) -> int:
        """Line of `key` (or of `value` quoted in the key's multi-line array); 1 if unknown."""
        line = self.lines.get(key)
        if line is None and "." in key:
            line = self.lines.get(key.rsplit(".", 1)[0])
        line = line or 1
        if isinstance(value, str):
            # a value inside a multi-line array: the first line from the key's that quotes it
            for i in range(line - 1, len(self.text_lines)):
                if f'"{value}"' in self.text_lines[i] or f"'{value}'" in self.text_lines[i]:
                    return i + 1
        return line

    def add(self, key: str | None, msg: str, value: Any = None) -> None:
        """Record a problem with `key` (None: the file as a whole)."""
        if key is None:
            self.items.append(f"{self.path}:1: {msg}")
        else:
            self.items.append(f"{self.path}:{self.line(key, value)}: key '{key}': {msg}")


def _key_lines(text: str) -> dict[str, int]:
    """Line of every `key =` and `[table]` in a TOML text, keyed by dotted path."""
    out: dict[str, int] = {}
    table = ""
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        m = re.match(r"^\[\s*([A-Za-z0-9_.\-\"' ]+?)\s*\]\s*(#.*)?$", line)
        if m:
            table = m.group(1).replace('"', "").replace("'", "").replace(" ", "")
            out.setdefault(table, i)
            continue
        m = re.match(r"^([A-Za-z0-9_\-\"']+)\s*=", line)
        if m:
            key = m.group(1).strip("\"'")
            out.setdefault(f"{table}.{key}" if table else key, i)
    return out


def _near(word: str, allowed: Any) -> str:
    near = difflib.get_close_matches(str(word), list(allowed), n=1)
    return f" (did you mean '{near[0]}'?)" if near else f" (allowed: {', '.join(map(str, allowed))})"


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _type_name(t: type) -> str:
    return {str: "a string", int: "an integer", dict: "a table", list: "a list"}[t]


def _parse_rulesets(data: Any, base_dir: Path, probs: _Problems) -> dict[str, dict[str, Any]]:
    """`[rulesets.NAME]` tables: a preset plus overrides, kept raw until players are known."""
    out: dict[str, dict[str, Any]] = {}
    if not isinstance(data, dict):
        return out
    for name, table in data.items():
        key = f"rulesets.{name}"
        if not isinstance(table, dict):
            probs.add(key, "must be a table with 'preset' and settings to override")
            continue
        if name in PRESETS:
            probs.add(key, f"'{name}' is a preset name; give the rule set another name")
        base = table.get("preset")
        if base not in PRESETS:
            probs.add(f"{key}.preset", f"must be one of {', '.join(PRESET_NAMES)}, got {base!r}")
            out[name] = None
            continue
        raw = dict(PRESETS[base])
        ok = True
        for k, v in table.items():
            if k in ("preset", "name"):
                continue
            if k not in raw:
                probs.add(f"{key}.{k}", f"unknown rule setting{_near(k, SETTING_KEYS)}")
                ok = False
                continue
            why = _check_type(k, v)
            if why:
                probs.add(f"{key}.{k}", why)
                ok = False
                continue
            raw[k] = v
        # a broken rule set is already reported; None keeps grid.rules from reporting it again
        out[name] = {"preset": base, "raw": raw} if ok else None
    return out


def _rules_value(spec: Any, rulesets: dict[str, Any], base_dir: Path, probs: _Problems,
                 key: str) -> tuple[str, dict[str, Any]] | None:
    """Resolve one `rules` axis value to (label, {'preset', 'raw'})."""
    if not isinstance(spec, str):
        probs.add(key, f"each rule set must be a string, got {spec!r}")
        return None
    if spec in PRESETS:
        return spec, {"preset": spec, "raw": dict(PRESETS[spec])}
    if spec in rulesets:
        return (spec, rulesets[spec]) if rulesets[spec] is not None else None
    if spec.endswith(".toml"):
        path = (base_dir / spec) if not Path(spec).is_absolute() else Path(spec)
        try:
            rs = load_rules_file(path)
        except TjsimError as e:
            probs.add(key, f"rules file: {e}", spec)
            return None
        del rs  # loaded only to check the file; symbolic settings resolve once players are known
        text = tomllib.loads(path.read_text(encoding="utf-8"))
        raw = dict(PRESETS[text["preset"]], **{k: v for k, v in text.items() if k in SETTING_KEYS})
        return spec, {"preset": text["preset"], "raw": raw}
    allowed = list(PRESET_NAMES) + list(rulesets)
    probs.add(key, f"unknown rule set '{spec}'{_near(spec, allowed)} — or a path to a .toml file", spec)
    return None


def _as_list(v: Any) -> list[Any]:
    return v if isinstance(v, list) else [v]


def parse_experiment(path: str | Path) -> tuple[Experiment | None, list[str]]:
    """Parse and check an experiment file; returns (experiment or None, every problem found)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        return None, [f"cannot read experiment file {path}: {e.strerror}"]
    except UnicodeDecodeError as e:
        return None, [f"experiment file {path} is not UTF-8 text (byte {e.start} cannot be decoded); "
                      "save it as UTF-8 TOML"]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+)", str(e))
        line = m.group(1) if m else (max(1, len(text.splitlines())) if "end of document" in str(e) else 1)
        return None, [f"{path}:{line}: malformed TOML: {e}"]
    probs = _Problems(path, text)

    for k, v in data.items():
        if k not in TOP_KEYS:
            probs.add(k, f"unknown key{_near(k, TOP_KEYS)}")
        elif not isinstance(v, TOP_KEYS[k]) or (TOP_KEYS[k] is int and isinstance(v, bool)):
            probs.add(k, f"must be {_type_name(TOP_KEYS[k])}, got {v!r}")
    name = data.get("name") if isinstance(data.get("name"), str) else path.stem
    measure_name = data.get("measure")
    measure = None
    if "measure" not in data:
        probs.add(None, f"missing key 'measure' (one of: {', '.join(MEASURES)})")
    elif isinstance(measure_name, str):
        measure = MEASURES.get(measure_name)
        if measure is None:
            probs.add("measure", f"unknown measure '{measure_name}'{_near(measure_name, MEASURES)}")
    seed = data.get("seed")
    if "seed" not in data:
        probs.add(None, "missing key 'seed' (an integer ≥ 0)")
    elif _is_int(seed) and seed < 0:
        probs.add("seed", f"must be ≥ 0, got {seed}")
    chunk = data.get("chunk_size", DEFAULT_CHUNK)
    if _is_int(chunk) and chunk < 1:
        probs.add("chunk_size", f"must be ≥ 1, got {chunk}")
    deals = data.get("deals")
    if _is_int(deals) and deals < 1:
        probs.add("deals", f"must be ≥ 1, got {deals}")

    rulesets = _parse_rulesets(data.get("rulesets", {}), path.parent, probs)
    grid_in = data.get("grid", {}) if isinstance(data.get("grid", {}), dict) else {}
    grid: dict[str, list[Any]] = {}
    axes_ok = True
    for axis, values in grid_in.items():
        key = f"grid.{axis}"
        if axis not in AXES and axis not in SETTING_KEYS:
            probs.add(key, f"unknown grid axis{_near(axis, list(AXES) + list(SETTING_KEYS))}")
            axes_ok = False
            continue
        values = _as_list(values)
        if axis == "method" and values == ["all"]:
            values = list(METHODS)
        if not values:
            probs.add(key, "empty grid: this axis has no values")
            axes_ok = False
            continue
        if measure is not None and axis in AXES and axis != "deals" and axis not in measure.axes:
            probs.add(key, f"measure '{measure_name}' does not use this axis "
                           f"(it uses: {', '.join(measure.axes) or 'none'})")
            axes_ok = False
            continue
        grid[axis] = values
    if "deals" in grid and "deals" in data:
        probs.add("grid.deals", "give 'deals' either at the top or in [grid], not both")
    if "deals" not in grid:
        if "deals" not in data:
            probs.add(None, "missing key 'deals' (deals per grid cell, an integer ≥ 1)")
        grid["deals"] = [deals]

    # check each axis' values
    for axis, values in grid.items():
        key = f"grid.{axis}"
        for v in values:
            if axis == "deals":
                if not _is_int(v) or v < 1:
                    probs.add(key if "deals" in grid_in else "deals", f"deals must be integers ≥ 1, got {v!r}")
            elif axis == "players":
                if not _is_int(v):
                    probs.add(key, f"player counts must be integers, got {v!r}")
            elif axis == "method":
                if not isinstance(v, str):
                    probs.add(key, f"methods must be strings, got {v!r}")
                elif v not in METHODS:
                    probs.add(key, f"unknown method '{v}'{_near(v, METHODS + ('all',))}", v)
            elif axis == "shuffle":
                if not isinstance(v, str) or not SHUFFLE_RE.match(v):
                    probs.add(key, f"unknown shuffle {v!r} (allowed: perfect, none, riffle:K, wash:K)", v)
            elif axis == "strategies":
                names = known_strategies()
                seats = v if isinstance(v, list) else [v]
                if not seats:
                    probs.add(key, "a strategy list needs one name per seat")
                for s in seats:
                    if not isinstance(s, str):
                        probs.add(key, f"strategies must be names or lists of names, got {s!r}")
                    elif not is_strategy(s):
                        probs.add(key, f"unknown strategy '{s}'{_near(s, names)}", s)
            elif axis in SETTING_KEYS:
                why = _check_type(axis, v)
                if why:
                    probs.add(key, why)
    if "rules" in grid:
        resolved_rules = [_rules_value(v, rulesets, path.parent, probs, "grid.rules") for v in grid["rules"]]
        axes_ok = axes_ok and all(r is not None for r in resolved_rules)
    else:
        resolved_rules = [("hk", {"preset": "hk", "raw": dict(PRESETS["hk"])})]

    options = data.get("options", {}) if isinstance(data.get("options", {}), dict) else {}
    if measure is not None:
        for k, msg in measure.check_options(options):
            probs.add(f"options.{k}" if k else "options", msg)

    exp = None
    if not probs.items and axes_ok:
        exp = Experiment(name=name, source=str(path), measure=measure_name, seed=seed,
                         chunk_size=chunk, options=options, grid=grid,
                         description=data.get("description", ""))
        exp.cells = _expand(exp, grid, resolved_rules, measure, probs)
        if not exp.cells and not probs.items:
            probs.add("grid", "empty grid: no cells to run")
        if len(exp.cells) > MAX_CELLS:
            probs.add("grid", f"{len(exp.cells)} cells; at most {MAX_CELLS} allowed")
    return (exp if not probs.items else None), sorted(probs.items, key=_line_number)


def _line_number(problem: str) -> int:
    m = re.match(r"^.*?:(\d+): ", problem)
    return int(m.group(1)) if m else 0


def _expand(exp: Experiment, grid: dict[str, list[Any]], resolved_rules: list[Any], measure: Any,
            probs: _Problems) -> list[dict[str, Any]]:
    """Every combination of the axes (rules first, deals last), resolved and checked."""
    setting_axes = [a for a in grid if a in SETTING_KEYS and a not in AXES]
    order = ["rules", "players", *setting_axes, "method", "shuffle", "strategies", "deals"]
    axis_values = {
        "rules": resolved_rules,
        "players": grid.get("players", [None]),
        "method": grid.get("method", [AXIS_DEFAULTS["method"]] if "method" in measure.axes else [None]),
        "shuffle": grid.get("shuffle", [AXIS_DEFAULTS["shuffle"]] if "shuffle" in measure.axes else [None]),
        "strategies": grid.get("strategies", [AXIS_DEFAULTS["strategies"]] if "strategies" in measure.axes
                               else [None]),
        "deals": grid["deals"],
    }
    for a in setting_axes:
        axis_values[a] = grid[a]
    cells: list[dict[str, Any]] = []
    seen_errors: set[str] = set()
    for combo in itertools.product(*(axis_values[a] for a in order)):
        v = dict(zip(order, combo))
        label, rs = v["rules"]
        raw = dict(rs["raw"])
        overrides = {a: v[a] for a in setting_axes}
        raw.update(overrides)
        if v["players"] is not None:
            raw["players"] = v["players"]
        try:
            rules = _resolve(label, rs["preset"], raw, {})
        except TjsimError as e:
            # blame the grid axis the message is about, else the rule set
            text = str(e)
            key = next((f"grid.{a}" for a in ["players", *setting_axes]
                        if f"grid.{a}" in probs.lines and (a in text or a == "players" and "player" in text)),
                       "grid.rules" if "grid.rules" in probs.lines else "grid")
            msg = f"{probs.path}:{probs.line(key)}: key '{key}': {text}"
            if msg not in seen_errors:
                seen_errors.add(msg)
                probs.items.append(msg)
            continue
        strategies = v["strategies"]
        if strategies is not None:
            strategies = strategies if isinstance(strategies, list) else [strategies] * rules.players
            if len(strategies) != rules.players:
                msg = (f"{probs.path}:{probs.line('grid.strategies')}: key 'grid.strategies': "
                       f"{len(strategies)} strategies for {rules.players} players; give one per seat "
                       f"or a single name for all seats")
                if msg not in seen_errors:
                    seen_errors.add(msg)
                    probs.items.append(msg)
                continue
        settings = rules.describe()
        settings["allowed_players"] = list(settings["allowed_players"])
        i = len(cells)
        cell = {"cell": i, "rules": label, "players": rules.players, "method": v["method"],
                "shuffle": v["shuffle"], "strategies": strategies, "overrides": overrides,
                "deals": v["deals"], "seed": cell_seed(exp.seed, i), "rule_settings": settings}
        for why in measure.check_cell(cell, exp.options):
            # blame the axis the message names, else the grid
            key = next((f"grid.{a}" for a in ("method", "shuffle", "strategies", "players", "rules")
                        if f"grid.{a}" in probs.lines and re.search(rf"\b{a}\b", why)), "grid")
            msg = f"{probs.path}:{probs.line(key)}: key '{key}': cell {i} ({cell_label(cell)}): {why}"
            if why not in seen_errors:
                seen_errors.add(why)
                probs.items.append(msg)
        cells.append(cell)
    return cells


def cell_label(cell: dict[str, Any]) -> str:
    """A short human label of a cell: 'hk 4p left perfect random×4 supreme_bonus=2'."""
    parts = [cell["rules"], f"{cell['players']}p"]
    for k in ("method", "shuffle"):
        if cell.get(k):
            parts.append(str(cell[k]))
    if cell.get("strategies"):
        parts.append(strategies_label(cell["strategies"]))
    parts += [f"{k}={v}" for k, v in cell.get("overrides", {}).items()]
    return " ".join(parts)


def strategies_label(seats: list[str] | None) -> str:
    """'random×4' when all seats play the same, else 'heuristic,random,random,random'."""
    if not seats:
        return ""
    return f"{seats[0]}×{len(seats)}" if len(set(seats)) == 1 else ",".join(seats)


def load_experiment(path: str | Path) -> Experiment:
    """Load an experiment file; the first problem found raises TjsimError (one line)."""
    exp, problems = parse_experiment(path)
    if problems:
        more = f" (and {len(problems) - 1} more problems: run 'tjsim experiment validate')" \
            if len(problems) > 1 else ""
        raise TjsimError(problems[0] + more)
    assert exp is not None
    return exp


def command_experiment(command: str, measure: str, rules: RuleSet, seed: int, deals: int, chunk: int,
                       options: dict[str, Any], strategies: list[str] | None = None, method: str = "rounds",
                       shuffle: str = "perfect") -> Experiment:
    """The one-cell experiment a command runs; its cell seed is the command's `--seed` itself, so
    the numbers are those of the command (docs/CONTRACTS.md), with or without a results folder."""
    settings = rules.describe()
    settings["allowed_players"] = list(settings["allowed_players"])
    cell = {"cell": 0, "rules": rules.name, "players": rules.players, "method": method, "shuffle": shuffle,
            "strategies": strategies, "overrides": {}, "deals": int(deals), "seed": int(seed),
            "rule_settings": settings}
    return Experiment(name=command, source=command, measure=measure, seed=int(seed), chunk_size=int(chunk),
                      options=options, grid={"rules": [rules.name], "deals": [int(deals)]}, cells=[cell],
                      description=f"tjsim {command}")


def strategies_per_seat(names: list[str], players: int) -> list[str]:
    """One name per seat (a single name plays every seat)."""
    return list(names) * players if len(names) == 1 else list(names)
