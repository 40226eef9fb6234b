"""Measures: the plug-ins an experiment runs on each chunk of deal indices.

A measure is registered by name with `register` and provides

- `run_chunk(cell, cell_seed, start, stop) -> {table: DataFrame}`: tidy long tables with
  the measure's key columns and **integer** sums and counts (hits and trials; sum, sum of
  squares and n of payments), never means. Integer addition is exact and associative, so
  chunks combine by addition into the same totals for any chunk size or order. Every chunk
  emits every key (zeros included), so combined tables keep the measure's row order.
- `finalize(table, df) -> DataFrame`: estimates and 95% intervals (stats.py) from the sums.
- `axes`: the grid axes it uses; `check_options` / `check_cell` for validation.
- `summarize(tables, options)` (optional): tables derived from all finalized tables at once.

Deal `d` of a cell always draws from `seed_stream(st, cell_seed, STREAM_*, d)`
(docs/CONTRACTS.md), whichever chunk, process or machine computes it.
"""
from __future__ import annotations

import difflib
import functools
import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pandas as pd

from numba import njit

from ..errors import TjsimError
from ..kernels.dealing import check_method, deal_for_banker, make_plan
from ..kernels.layout import BONUS_TYPES, STREAM_DEAL
from ..kernels.rng import seed_stream
from ..game.tiles import (BB_FOLK_SUIT, BB_HEAVEN, BB_LAO, BB_MILITARY_PAIRS, BB_QUARTETS, BB_SUPREME, KIND_BITS,
                          N_CIVIL_KINDS, kind_mask)
from ..sim.duplicate import rotation_table
from ..sim.odds import MAX_HAND_TILES, all_events, exact_probabilities, pick_named
from ..sim.runner import deal_plan, run_deals
from ..stats import mean_ci, ratio_ci, ratio_difference_ci, wilson
from .cells import cell_rules, is_strategy, known_strategies


@dataclass(frozen=True)
class Measure:
    """One registered measure: how to run a chunk, how to finish the combined sums."""

    name: str
    run_chunk: Callable[[dict, int, int, int], dict[str, pd.DataFrame]]
    finalize: Callable[[str, pd.DataFrame], pd.DataFrame]
    keys: dict[str, list[str]]
    axes: tuple[str, ...]
    description: str = ""
    check_options: Callable[[dict], list[tuple[str, str]]] = field(default=lambda o: [])
    check_cell: Callable[[dict, dict], list[str]] = field(default=lambda c, o: [])
    # (finalized tables, options) → the tables to write: adds what needs every chunk at once
    # (a command's summary table); None keeps the finalized tables as they are
    summarize: Callable[[dict[str, pd.DataFrame], dict], dict[str, pd.DataFrame]] | None = None


MEASURES: dict[str, Measure] = {}


def register(measure: Measure) -> Measure:
    """Add a measure to the registry (other modules may register their own)."""
    MEASURES[measure.name] = measure
    return measure


def _options_known(options: dict, allowed: dict[str, Any]) -> list[tuple[str, str]]:
    """Unknown keys and wrong types among `options` (allowed: key → type)."""
    out = []
    for k, v in options.items():
        if k not in allowed:
            near = difflib.get_close_matches(k, list(allowed), n=1)
            hint = f" (did you mean '{near[0]}'?)" if near else \
                f" (allowed: {', '.join(allowed) or 'no options'})"
            out.append((k, f"unknown option for this measure{hint}"))
        elif not isinstance(v, allowed[k]) or isinstance(v, bool):
            want = allowed[k] if isinstance(allowed[k], tuple) else (allowed[k],)
            names = {str: "a string", list: "a list", int: "an integer"}
            out.append((k, f"must be {' or '.join(names.get(t, t.__name__) for t in want)}, got {v!r}"))
    return out


def _method(cell: dict) -> str:
    return cell.get("method") or "rounds"


def _check_method_fits(cell: dict, options: dict) -> list[str]:
    try:
        check_method(_method(cell), cell["players"], cell["rule_settings"]["tiles_per_player"])
    except TjsimError as e:
        return [str(e).replace("--method", "method")]
    return []


# ---------------------------------------------------------------------------
# deal_odds: event probabilities of dealt hands per 牌頭 method and shuffle
# ---------------------------------------------------------------------------

# Events (INTERFACES.md deal-odds names), evaluated here with tile masks so this measure
# depends only on the public dealing kernel; odds.py supplies exact values by name.
_CIVIL_PAIRS = tuple(sum(1 << b for b in bits) for bits in KIND_BITS[:N_CIVIL_KINDS])
_MIL_PAIRS = BB_MILITARY_PAIRS
_QUARTETS = BB_QUARTETS
_CIVIL_PAIR_ARR = np.array(_CIVIL_PAIRS, dtype=np.int64)
_MIL_PAIR_ARR = np.array(_MIL_PAIRS, dtype=np.int64)
_QUARTET_ARR = np.array(_QUARTETS, dtype=np.int64)
_GONG, _ZA, _YAO = BB_FOLK_SUIT["宫"], BB_FOLK_SUIT["杂"], BB_FOLK_SUIT["幺"]
_CIVIL_SUPREME = kind_mask("5-1")
# (name, unit, group), in column order of the kernel's counts
ODDS_EVENTS = (
    ("supreme", "hand", "core"), ("heaven_pair", "hand", "core"), ("civil_pair", "hand", "core"),
    ("military_pair", "hand", "core"), ("quartet", "hand", "core"), ("no_lao", "hand", "core"),
    ("void_suit", "hand", "core"), ("supreme_any", "deal", "core"),
    ("void_gong", "hand", "extra"), ("void_za", "hand", "extra"), ("void_yao", "hand", "extra"),
    ("quartet_heaven", "hand", "extra"), ("quartet_earth", "hand", "extra"), ("quartet_man", "hand", "extra"),
    ("quartet_harmony", "hand", "extra"), ("bonus_chance", "hand", "extra"), ("civil_supreme", "hand", "extra"),
    ("quartet_any", "deal", "extra"), ("bonus_any", "deal", "extra"),
)
@njit(cache=True)
def odds_chunk_kernel(seed, start, stop, plan, players):
    """Counts of every ODDS_EVENTS event over deals start…stop−1, each from its own STREAM_DEAL stream."""
    st = np.zeros(4, dtype=np.uint64)
    order = np.zeros(32, dtype=np.int64)
    hands = np.zeros(players, dtype=np.uint32)
    acc = np.zeros(19, dtype=np.int64)
    for d in range(start, stop):
        seed_stream(st, seed, STREAM_DEAL, d)
        deal_for_banker(st, plan, 0, order, hands)  # exactly the engine's dealing (runner.deal_hands)
        any_sup = 0
        any_q = 0
        for p in range(players):
            h = np.int64(hands[p])
            sup = (h & BB_SUPREME) == BB_SUPREME
            cp = 0
            for m in _CIVIL_PAIR_ARR:
                if (h & m) == m:
                    cp = 1
            mp = 0
            for m in _MIL_PAIR_ARR:
                if (h & m) == m:
                    mp = 1
            qs = 0
            for i in range(4):
                m = _QUARTET_ARR[i]
                if (h & m) == m:
                    qs = 1
                    acc[11 + i] += 1
            acc[0] += sup
            acc[1] += (h & BB_HEAVEN) == BB_HEAVEN
            acc[2] += cp
            acc[3] += mp
            acc[4] += qs
            acc[5] += (h & BB_LAO) == 0
            vg = (h & _GONG) == 0
            vz = (h & _ZA) == 0
            vy = (h & _YAO) == 0
            acc[6] += vg or vz or vy
            acc[8] += vg
            acc[9] += vz
            acc[10] += vy
            acc[15] += sup or qs == 1
            acc[16] += (h & _CIVIL_SUPREME) == _CIVIL_SUPREME
            any_sup |= sup
            any_q |= qs
        acc[7] += any_sup
        acc[17] += any_q
        acc[18] += any_sup or any_q
    return acc


def _select_odds_events(spec: Any) -> list[int]:
    """Indices into ODDS_EVENTS of `events` (names and/or groups core, extra, all)."""
    tokens = spec if isinstance(spec, list) else [t.strip() for t in str(spec).split(",") if t.strip()]
    return pick_named(tokens, [e[0] for e in ODDS_EVENTS], [e[2] for e in ODDS_EVENTS], ("core", "extra"), "events")


def deal_odds_chunk(cell: dict, cell_seed: int, start: int, stop: int) -> dict[str, pd.DataFrame]:
    """Hits and trials of each dealt-hand event over deals start…stop−1 of a cell."""
    rules = cell_rules(cell)
    plan = make_plan(rules, _method(cell), cell["shuffle"] or "perfect", "box")
    acc = odds_chunk_kernel(np.uint64(cell_seed), np.int64(start), np.int64(stop), plan, np.int64(rules.players))
    n = stop - start
    rows = []
    for i in _select_odds_events(cell.get("options", {}).get("events", "core")):
        name, unit, _ = ODDS_EVENTS[i]
        rows.append({"event": name, "unit": unit, "tiles": rules.tiles_per_player,
                     "trials": n * (rules.players if unit == "hand" else 1), "hits": int(acc[i])})
    return {"deal_odds": pd.DataFrame(rows).astype({"trials": "int64", "hits": "int64"})}


def deal_odds_finalize(table: str, df: pd.DataFrame) -> pd.DataFrame:
    """probability, 95% Wilson interval and the exact value under a uniform shuffle."""
    df = df.copy()
    df["probability"] = df["hits"] / df["trials"]
    ci = [wilson(int(h), int(t)) for h, t in zip(df["hits"], df["trials"])]
    df["ci_low"] = [c[0] for c in ci]
    df["ci_high"] = [c[1] for c in ci]
    exact_cache: dict[tuple[int, int], dict[str, float]] = {}
    exact = []
    for _, row in df.iterrows():
        if row.get("shuffle", "perfect") != "perfect":
            exact.append(math.nan)
            continue
        tiles = int(row["tiles"])
        key = (int(row["players"]), tiles)
        if key not in exact_cache:
            exact_cache[key] = _exact_values(*key)
        exact.append(exact_cache[key].get(row["event"], math.nan))
    df["exact"] = exact
    # INTERFACES.md deal-odds column order first
    first = ["event", "unit", "method", "shuffle", "trials", "hits", "probability", "ci_low", "ci_high", "exact"]
    return df[first + [c for c in df.columns if c not in first]]


@functools.lru_cache(maxsize=None)
def _exact_values(players: int, tiles: int) -> dict[str, float]:
    """Exact probabilities under a uniform shuffle from odds.py, by event name (events it lacks: NaN)."""
    if not 1 <= tiles <= MAX_HAND_TILES:
        return {}  # odds.py counts hands of at most MAX_HAND_TILES tiles: no exact value for larger hands
    return dict(exact_probabilities(players, tiles, all_events(tiles)))


def _deal_odds_options(options: dict) -> list[tuple[str, str]]:
    probs = _options_known(options, {"events": (str, list)})
    ev = options.get("events")
    if ev is not None:
        if not (isinstance(ev, str) or (isinstance(ev, list) and all(isinstance(x, str) for x in ev))):
            return probs + [("events", f"must be a string or a list of event names, got {ev!r}")]
        try:
            _select_odds_events(ev)
        except TjsimError as e:
            probs.append(("events", str(e)))
    return probs


register(Measure(
    name="deal_odds",
    run_chunk=deal_odds_chunk,
    finalize=deal_odds_finalize,
    keys={"deal_odds": ["event", "unit", "tiles"]},
    axes=("rules", "players", "method", "shuffle"),
    description="probabilities of dealt-hand events (INTERFACES.md deal-odds events) per method and shuffle",
    check_options=_deal_odds_options,
    check_cell=_check_method_fits,
))


# ---------------------------------------------------------------------------
# Engine measures: payments per seat, duplicate strategy ladder, bonus value
# ---------------------------------------------------------------------------

def _run_deals(cell: dict, policies: list[str], cell_seed: int, start: int, stop: int, banker: int = 0,
               streak: int = 1):
    return run_deals(cell_rules(cell), policies, cell_seed, stop - start, start=start, banker=banker,
                     streak=streak, method=_method(cell), shuffle=cell.get("shuffle") or "perfect")


def _moments(x: np.ndarray) -> tuple[int, int]:
    x = x.astype(np.int64)
    return int(x.sum()), int((x * x).sum())


def _mean_columns(df: pd.DataFrame, prefix: str, sum_col: str, sq_col: str, n_col: str,
                  scale: pd.Series | float = 1.0) -> pd.DataFrame:
    """Add prefix, prefix_se, prefix_ci_low, prefix_ci_high from integer moments (÷ scale)."""
    res = [mean_ci(float(s), float(q), int(n)) for s, q, n in zip(df[sum_col], df[sq_col], df[n_col])]
    scale = np.asarray(scale, dtype=float) if not np.isscalar(scale) else float(scale)
    df[prefix] = np.array([r[0] for r in res]) / scale
    df[f"{prefix}_se"] = np.array([r[1] for r in res]) / scale
    df[f"{prefix}_ci_low"] = np.array([r[2] for r in res]) / scale
    df[f"{prefix}_ci_high"] = np.array([r[3] for r in res]) / scale
    return df


def _check_strategies_known(cell: dict, options: dict) -> list[str]:
    out = _check_method_fits(cell, options)
    for s in cell.get("strategies") or []:
        if not is_strategy(s):
            out.append(f"strategy '{s}' is not implemented by the engine (available: {', '.join(known_strategies())})")
    return out




def payments_chunk(cell: dict, cell_seed: int, start: int, stop: int) -> dict[str, pd.DataFrame]:
    """Per seat: sums of payments and 戙, closes, 空戙 / 入 / fold counts and bonus tallies (`tjsim simulate`)."""
    opts = cell.get("options", {})
    res = _run_deals(cell, list(cell["strategies"]), cell_seed, start, stop, opts.get("banker", 0),
                     opts.get("streak", 1))
    baseline = cell["rule_settings"]["baseline"]
    pay = res.payments.astype(np.int64)
    dong = res.dong.astype(np.int64)
    played = (res.closer >= 0)[:, None] & ~res.folded
    rows = []
    for s, policy in enumerate(cell["strategies"]):
        ps, pq = _moments(pay[:, s])
        row = {"seat": s, "policy": policy, "n": stop - start, "pay_sum": ps, "pay_sumsq": pq,
               "closes": int((res.closer == s).sum()), "dong_sum": int(dong[:, s].sum()),
               "folds": int(res.folded[:, s].sum()), "empty": int((played[:, s] & (dong[:, s] == 0)).sum()),
               "into": int((played[:, s] & (dong[:, s] > baseline) & (res.closer != s)).sum())}
        for t, key in enumerate(BONUS_TYPES):
            row[f"{key}_hits"] = int((res.bonus[:, s, t] > 0).sum())
            row[f"{key}_sum"] = int(res.bonus[:, s, t].astype(np.int64).sum())
        rows.append(row)
    return {"payments": pd.DataFrame(rows)}


def payments_finalize(table: str, df: pd.DataFrame) -> pd.DataFrame:
    """mean payment (戙) with its interval, closer rate, mean 戙, 空戙 / 入 / fold rates, bonus rates and means."""
    df = _mean_columns(df.copy(), "mean_payment", "pay_sum", "pay_sumsq", "n")
    df["closer_rate"] = df["closes"] / df["n"]
    df["mean_dong"] = df["dong_sum"] / df["n"]
    df["empty_rate"] = df["empty"] / df["n"]
    df["in_rate"] = df["into"] / df["n"]
    df["fold_rate"] = df["folds"] / df["n"]
    for key in BONUS_TYPES:
        df[f"{key}_rate"] = df[f"{key}_hits"] / df["n"]
        df[f"{key}_mean"] = df[f"{key}_sum"] / df["n"]
    return df


register(Measure(
    name="payments",
    run_chunk=payments_chunk,
    finalize=payments_finalize,
    keys={"payments": ["seat", "policy"]},
    axes=("rules", "players", "method", "shuffle", "strategies"),
    description="per seat: mean payment (戙), closer, 空戙, 入 and fold rates, bonuses (what tjsim simulate shows)",
    check_options=lambda o: _options_known(o, {"banker": int, "streak": int}),
    check_cell=_check_strategies_known,
))


def _ladder(cell: dict) -> list[str]:
    """Every strategy the cell plays: the ladder's, or those of its head-to-head pairs."""
    pairs = _pairs(cell)
    if pairs:
        return list(dict.fromkeys(x for pair in pairs for x in pair))
    return list(cell.get("options", {}).get("ladder", ["random", "greedy", "heuristic"]))


def _pairs(cell: dict) -> list[list[str]]:
    return [list(p) for p in cell.get("options", {}).get("pairs", [])]


def _duplicate_rows(cell: dict, cell_seed: int, start: int, stop: int, field: str, names: list[str]) -> list[dict]:
    """Rows of one duplicate field: `names` rotated through the seats on the chunk's deals."""
    k, n = len(names), cell["players"]
    table = rotation_table(k, n)
    n_deals = stop - start
    # y[d, p]: strategy p's summed payment over the seats it held in the replays of deal d
    y = np.zeros((n_deals, k), dtype=np.int64)
    closes = np.zeros(k, dtype=np.int64)
    for r in range(table.shape[0]):
        res = _run_deals(cell, [names[p] for p in table[r]], cell_seed, start, stop)
        pay = res.payments.astype(np.int64)
        for s in range(n):
            y[:, table[r, s]] += pay[:, s]
            closes[table[r, s]] += int((res.closer == s).sum())
    seats_held = table.shape[0] * n // k
    rows = []
    for p, name in enumerate(names):
        s, q = _moments(y[:, p])
        rows.append({"kind": "strategy", "field": field, "a": name, "b": "", "n": n_deals,
                     "seats_per_deal": seats_held, "sum": s, "sumsq": q, "closes": int(closes[p])})
    for a in range(k):
        for b in range(a + 1, k):
            s, q = _moments(y[:, a] - y[:, b])
            rows.append({"kind": "difference", "field": field, "a": names[a], "b": names[b], "n": n_deals,
                         "seats_per_deal": seats_held, "sum": s, "sumsq": q, "closes": 0})
    return rows


def ladder_chunk(cell: dict, cell_seed: int, start: int, stop: int) -> dict[str, pd.DataFrame]:
    """Duplicate: every deal replayed with the ladder's strategies rotated through the seats.

    With the option `pairs`, each pair [a, b] is a field of its own: a and b alone at the table,
    rotated through the seats on the same deals (head to head), `field` = "a vs b". Otherwise
    the whole ladder is one field, `field` = "all".
    """
    pairs = _pairs(cell)
    if not pairs:
        rows = _duplicate_rows(cell, cell_seed, start, stop, "all", _ladder(cell))
    else:
        rows = [r for a, b in pairs
                for r in _duplicate_rows(cell, cell_seed, start, stop, f"{a} vs {b}", [a, b])]
    return {"strategy_ladder": pd.DataFrame(rows)}


def ladder_finalize(table: str, df: pd.DataFrame) -> pd.DataFrame:
    """Mean payment per deal per seat played (戙), and paired differences, with 95% intervals."""
    df = df.copy()
    df = _mean_columns(df, "mean", "sum", "sumsq", "n", scale=df["seats_per_deal"])
    df["significant"] = (df["kind"] == "difference") & ((df["mean_ci_low"] > 0) | (df["mean_ci_high"] < 0))
    df["closer_rate"] = df["closes"] / (df["n"] * df["seats_per_deal"])
    return df


def _strategy_problems(key: str, names: list) -> list[tuple[str, str]]:
    return [(key, f"unknown strategy {x!r} (allowed: {', '.join(known_strategies())})")
            for x in names if not is_strategy(x)]


def _ladder_options(options: dict) -> list[tuple[str, str]]:
    probs = _options_known(options, {"ladder": list, "pairs": list})
    lad = options.get("ladder")
    if isinstance(lad, list):
        if len(lad) < 2:
            probs.append(("ladder", "needs at least two strategies to compare"))
        probs += _strategy_problems("ladder", lad)
    pairs = options.get("pairs")
    if isinstance(pairs, list):
        if "ladder" in options:
            probs.append(("pairs", "give either ladder (one field) or pairs (head to head), not both"))
        if not pairs:
            probs.append(("pairs", "needs at least one pair [a, b]"))
        for pair in pairs:
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)
                    and pair[0] != pair[1]):
                probs.append(("pairs", f"each pair is two different strategies [a, b], got {pair!r}"))
            else:
                probs += _strategy_problems("pairs", pair)
    return probs


register(Measure(
    name="strategy_ladder",
    run_chunk=ladder_chunk,
    finalize=ladder_finalize,
    keys={"strategy_ladder": ["kind", "field", "a", "b", "seats_per_deal"]},
    axes=("rules", "players", "method", "shuffle"),
    description="strategies compared in duplicate (same deals, strategies rotated through the seats)",
    check_options=_ladder_options,
    check_cell=lambda c, o: _check_strategies_known(dict(c, strategies=_ladder(dict(c, options=o))), o),
))


@njit(cache=True)
def hands_chunk_kernel(seed, start, stop, plan, players):
    """The hands the engine's runner deals for deal indices start…stop−1 (banker 0)."""
    st = np.zeros(4, dtype=np.uint64)
    order = np.zeros(32, dtype=np.int64)
    h = np.zeros(players, dtype=np.uint32)
    out = np.zeros((stop - start, players), dtype=np.int64)
    for d in range(start, stop):
        seed_stream(st, seed, STREAM_DEAL, d)
        deal_for_banker(st, plan, 0, order, h)
        for p in range(players):
            out[d - start, p] = np.int64(h[p])
    return out


HOLDINGS = ("supreme", "no_supreme", "quartet", "no_quartet", "any")
# the holding a value compares with: value = mean payment holding − mean payment of this one
COMPLEMENT = {"supreme": "no_supreme", "quartet": "no_quartet"}
BONUS_COLUMNS = ("supreme", "supreme_close", "quartet")


def _deal_moments(prefix: str, y: np.ndarray, n: np.ndarray) -> dict[str, int]:
    """Per-deal totals y_d (of `prefix`) with seat counts n_d → Σy, Σy², Σy·n (a deal is one cluster)."""
    y = y.astype(np.int64)
    return {f"{prefix}_sum": int(y.sum()), f"{prefix}_sq": int((y * y).sum()), f"{prefix}_n": int((y * n).sum())}


def holding_sums(masks: dict[str, np.ndarray], pay: np.ndarray, bonus: np.ndarray) -> list[dict[str, Any]]:
    """Per holding: per-deal sums and cross-products of payments and bonuses (a deal is one cluster).

    `masks[h]` [deals, seats] marks the seats of holding h, `pay` [deals, seats] their
    payments, `bonus` [deals, seats, 3] the bonuses received. The seats of one deal share its
    tiles and its zero-sum payments, so the deal is the independent unit: each row holds,
    over the deals d (`n_deals` of them, the clusters), with n_d the seats of the holding in
    deal d and y_d their summed payment, Σn_d (`n`), Σn_d² (`n_sq`), Σy_d (`pay_sum`), Σy_d² (`pay_sq`), Σy_d·n_d
    (`pay_n`), the same for each bonus received, and the cross-products with the
    complementary holding (primed): Σy_d·y'_d (`pay_x_pay`), Σy_d·n'_d (`pay_x_n`),
    Σn_d·y'_d (`n_x_pay`), Σn_d·n'_d (`n_x_n`). Integer sums: chunks add up exactly.
    """
    pay = np.asarray(pay, dtype=np.int64)
    bonus = np.asarray(bonus, dtype=np.int64)
    rows = []
    for name, m in masks.items():
        other = ~m  # the complement of "any" is empty: its cross-products are 0
        n_d, n_o = m.sum(axis=1).astype(np.int64), other.sum(axis=1).astype(np.int64)
        y_d, y_o = np.where(m, pay, 0).sum(axis=1), np.where(other, pay, 0).sum(axis=1)
        row = {"holding": name, "n_deals": int(pay.shape[0]), "n": int(n_d.sum()), "n_sq": int((n_d * n_d).sum()),
               **_deal_moments("pay", y_d, n_d),
               "pay_x_pay": int((y_d * y_o).sum()), "pay_x_n": int((y_d * n_o).sum()),
               "n_x_pay": int((n_d * y_o).sum()), "n_x_n": int((n_d * n_o).sum())}
        for t, bt in enumerate(BONUS_COLUMNS):
            row.update(_deal_moments(f"bonus_{bt}", np.where(m, bonus[:, :, t], 0).sum(axis=1), n_d))
        rows.append(row)
    return rows


def bonus_chunk(cell: dict, cell_seed: int, start: int, stop: int) -> dict[str, pd.DataFrame]:
    """Per holding (至尊 / a quartet / not): per-deal payment and bonus sums (holding_sums)."""
    rules = cell_rules(cell)
    res = _run_deals(cell, list(cell["strategies"]), cell_seed, start, stop)
    plan = deal_plan(rules, _method(cell), cell.get("shuffle") or "perfect")
    hands = hands_chunk_kernel(np.uint64(cell_seed), np.int64(start), np.int64(stop), plan, np.int64(rules.players))
    sup = (hands & BB_SUPREME) == BB_SUPREME
    quartet = np.zeros_like(sup)
    for m in _QUARTETS:
        quartet |= (hands & m) == m
    masks = dict(zip(HOLDINGS, (sup, ~sup, quartet, ~quartet, np.ones_like(sup))))
    # the cell's bonus settings as key columns, so tables and plots say what was paid
    settings = {"supreme_bonus_per_opponent": rules.supreme_bonus, "quartet_bonus_per_opponent": rules.quartet_bonus,
                "supreme_close_on": int(rules.supreme_close)}
    rows = [{"holding": r.pop("holding"), **settings, **r} for r in holding_sums(masks, res.payments, res.bonus)]
    return {"bonus_value": pd.DataFrame(rows)}


def _ratio_columns(df: pd.DataFrame, out: str, prefix: str) -> pd.DataFrame:
    """out, out_se, out_ci_low, out_ci_high: mean of `prefix` per seat-deal, clustered by deal."""
    cols = [df[c].to_numpy(dtype=np.float64) for c in (f"{prefix}_sum", "n", f"{prefix}_sq", f"{prefix}_n", "n_sq")]
    res = [ratio_ci(*v, int(d)) for *v, d in zip(*cols, df["n_deals"])]
    for i, suffix in enumerate(("", "_se", "_ci_low", "_ci_high")):
        df[out + suffix] = [x[i] for x in res]
    return df


def bonus_finalize(table: str, df: pd.DataFrame) -> pd.DataFrame:
    """Mean payment (戙) per holding, bonus received, and the value of holding vs not holding.

    Every interval is clustered by deal (stats.ratio_ci, stats.ratio_difference_ci): a
    holder's and the non-holders' payments of one deal are one draw, not independent ones.
    """
    df = _ratio_columns(df.copy(), "mean_payment", "pay")
    for bt in BONUS_COLUMNS:
        df = _ratio_columns(df, f"mean_bonus_{bt}", f"bonus_{bt}")
    rows = df.to_dict("records")
    where = {(r["cell"], r["holding"]): r for r in rows}
    est = []
    for r in rows:
        o = where.get((r["cell"], COMPLEMENT.get(r["holding"])))
        if o is None:
            est.append((math.nan,) * 4)
            continue
        cross = np.array([[r["pay_sq"], r["pay_n"], r["pay_x_pay"], r["pay_x_n"]],
                          [r["pay_n"], r["n_sq"], r["n_x_pay"], r["n_x_n"]],
                          [r["pay_x_pay"], r["n_x_pay"], o["pay_sq"], o["pay_n"]],
                          [r["pay_x_n"], r["n_x_n"], o["pay_n"], o["n_sq"]]], dtype=np.float64)
        est.append(ratio_difference_ci((r["pay_sum"], r["n"], o["pay_sum"], o["n"]), cross, int(r["n_deals"])))
    for i, col in enumerate(("value", "value_se", "value_ci_low", "value_ci_high")):
        df[col] = [e[i] for e in est]
    return df


register(Measure(
    name="bonus_value",
    run_chunk=bonus_chunk,
    finalize=bonus_finalize,
    keys={"bonus_value": ["holding", "supreme_bonus_per_opponent", "quartet_bonus_per_opponent",
                          "supreme_close_on"]},
    axes=("rules", "players", "method", "shuffle", "strategies"),
    description="what holding 至尊 or a 四大賀 quartet is worth (戙 per deal), bonuses included",
    check_options=lambda o: _options_known(o, {}),
    check_cell=_check_strategies_known,
))
