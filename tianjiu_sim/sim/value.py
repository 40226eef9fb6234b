"""What holding something is worth (`tjsim value`): a feature of a hand or a seat, measured two ways.

- **conditional**: mean payment of the seats whose dealt hand has the feature minus that of
  the seats without it, over the same deals (it includes whatever comes with the feature:
  a hand with 至尊 also holds two fewer other tiles).
- **counterfactual**: for every seat whose hand has the feature, the same deal is played
  again after the feature's tiles are exchanged with tiles drawn at random from the
  opponents' hands (each opponent gets back the feature tile it gave a tile for, so every
  hand keeps its size and every other tile stays where it was); the value is the holder's
  payment with the feature minus without, paired on the deal. Both plays use the deal's own
  decision and dice streams. Tiles of the feature's own kinds are never drawn, so the
  exchange cannot hand the feature straight back [choice].
  For `banker` the exchange moves the bank instead: the same hands are played with the
  banker on a random other seat. `first-lead` does the same with the banker multiplier
  switched off, leaving only the lead (the banker leads the first trick, RULES.md §4.1).

Each value is split into components: `tricks_close` (the settlement of §5.1–5.3: tricks,
the close, multipliers) and the bonuses (§5.4): 賀尊 `bonus_supreme`, 包尊
`bonus_supreme_close`, 四大賀 `bonus_quartet`; `total` is their sum.
"""
from __future__ import annotations

import dataclasses
import itertools
import re
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd
from numba import njit

from ..kernels.layout import STREAM_EXCHANGE
from .analysis import Played, dealt_hands, play_hands
from ..kernels.dealing import ROUNDS
from ..errors import TjsimError
from ..kernels.rng import randbelow, seed_stream
from ..game.rules import RuleSet
from ..stats.tidy import chunk_ids, chunk_size, chunk_sums, ratio_difference
from ..game.tiles import BB_QUARTETS, KIND_BITS, TILE_KIND, bits_of, parse_hand

NAMED_TILES = {"supreme": "4-2 2-1", "heaven_pair": "6-6 6-6"}
SEAT_FEATURES = ("banker", "first-lead")
QUARTETS = BB_QUARTETS
FEATURE_HELP = ("supreme, quartet, heaven_pair, banker, first-lead, or tiles such as 6-6 or "
                "'6-6 6-6' or 4-2+2-1")
COMPONENTS = ("total", "tricks_close", "bonus", "bonus_supreme", "bonus_supreme_close", "bonus_quartet")
COMPONENT_LABELS = {"total": "total", "tricks_close": "tricks and close (settlement)",
                    "bonus": "all bonuses", "bonus_supreme": "賀尊", "bonus_supreme_close": "包尊",
                    "bonus_quartet": "四大賀"}
METHODS = ("conditional", "counterfactual")
BONUS_KEYS = {"supreme": "supreme_bonus", "quartet": "quartet_bonus", "close": "supreme_close_reward"}
BONUS_HELP = "KEY=V1,V2,… with KEY one of supreme, quartet, close and whole numbers ≥ 0, e.g. supreme=0,1,2,4"


@dataclass(frozen=True)
class Feature:
    """A feature of a dealt hand (tiles, a quartet) or of a seat (banker, first lead)."""

    name: str
    kind: str  # "tiles", "quartet" or "seat"
    need: tuple[tuple[int, int], ...] = ()  # (kind mask, copies needed) for "tiles"
    exclude: int = 0  # tiles never drawn in the exchange: every copy of the feature's kinds


def parse_feature(text: str) -> Feature:
    """Parse `--feature`: a named feature or a set of tiles; unknown names are TjsimError."""
    t = text.strip()
    key = t.lower().replace("_", "-")
    if key in SEAT_FEATURES:
        return Feature(key, "seat")
    if key == "quartet":
        return Feature("quartet", "quartet", exclude=0)
    spec = NAMED_TILES.get(key.replace("-", "_"), None)
    if spec is None:
        if not re.fullmatch(r"[0-9\-\s,+]+", t) or not re.search(r"\d-\d", t):
            raise TjsimError(f"unknown feature '{text}' (allowed: {FEATURE_HELP})")
        spec = t.replace("+", " ")
    try:
        mask = parse_hand(spec)
    except TjsimError as e:
        raise TjsimError(f"feature '{text}': {e}") from None
    counts: dict[int, int] = {}
    for b in bits_of(mask):
        counts[TILE_KIND[b]] = counts.get(TILE_KIND[b], 0) + 1
    need = tuple((sum(1 << b for b in KIND_BITS[k]), c) for k, c in sorted(counts.items()))
    return Feature(t if key.replace("-", "_") not in NAMED_TILES else key.replace("-", "_"), "tiles",
                   need, sum(m for m, _ in need))


def holdings(feature: Feature, hands: np.ndarray, banker: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(has [deals, seats], tiles of the feature per hand, tiles excluded from the exchange)."""
    hands = np.asarray(hands, dtype=np.int64)
    if feature.kind == "seat":
        has = np.zeros(hands.shape, dtype=bool)
        has[:, banker] = True
        zero = np.zeros(hands.shape, dtype=np.int64)
        return has, zero, zero
    if feature.kind == "quartet":
        has = np.zeros(hands.shape, dtype=bool)
        tiles = np.zeros(hands.shape, dtype=np.int64)
        for q in QUARTETS:  # highest quartet first: it is the one the exchange removes
            hit = ((hands & q) == q) & ~has
            tiles[hit] = q
            has |= hit
        return has, tiles, tiles.copy()
    has = np.ones(hands.shape, dtype=bool)
    tiles = np.zeros(hands.shape, dtype=np.int64)
    for km, c in feature.need:
        x = hands & km
        low = x & -x
        n_held = (x != 0).astype(int) + ((x & ~low) != 0).astype(int)
        has &= n_held >= c
        tiles |= x if c >= 2 else low
    tiles = np.where(has, tiles, 0)
    return has, tiles, np.full(hands.shape, feature.exclude, dtype=np.int64)


@njit(cache=True)
def _exchange(seed, deal_idx, seat, hands, ftiles, exclude, out, ok):
    """Swap each row's feature tiles with distinct random opponents' tiles (one stream per deal and seat)."""
    st = np.zeros(4, dtype=np.uint64)
    players = hands.shape[1]
    pool = np.zeros(32, dtype=np.int64)
    owner = np.zeros(32, dtype=np.int64)
    for i in range(hands.shape[0]):
        seed_stream(st, seed, STREAM_EXCHANGE, deal_idx[i] * 16 + seat[i])
        for s in range(players):
            out[i, s] = hands[i, s]
        m = 0
        for s in range(players):
            if s == seat[i]:
                continue
            avail = hands[i, s] & ~exclude[i]
            for b in range(32):
                if (avail >> b) & 1:
                    pool[m] = b
                    owner[m] = s
                    m += 1
        f = ftiles[i]
        t = 0
        for b in range(32):
            if (f >> b) & 1:
                t += 1
        if m < t:
            ok[i] = False
            continue
        ok[i] = True
        j = 0
        for b in range(32):
            if (f >> b) & 1:
                # partial Fisher–Yates: the j-th draw is uniform over the pool not drawn yet
                r = j + randbelow(st, m - j)
                pb, po = pool[r], owner[r]
                pool[r], owner[r] = pool[j], owner[j]
                pool[j], owner[j] = pb, po
                out[i, seat[i]] = (out[i, seat[i]] & ~(np.int64(1) << b)) | (np.int64(1) << pb)
                out[i, po] = (out[i, po] & ~(np.int64(1) << pb)) | (np.int64(1) << b)
                j += 1


@njit(cache=True)
def _other_seats(seed, deal_idx, seat, players, out):
    """A random seat other than `seat` per row (where the bank moves in the counterfactual)."""
    st = np.zeros(4, dtype=np.uint64)
    for i in range(deal_idx.shape[0]):
        seed_stream(st, seed, STREAM_EXCHANGE, deal_idx[i] * 16 + seat[i])
        out[i] = (seat[i] + 1 + randbelow(st, players - 1)) % players


def exchange(seed: int, deal_idx: np.ndarray, seat: np.ndarray, hands: np.ndarray, ftiles: np.ndarray,
             exclude: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Counterfactual hands: row i's feature tiles (seat[i]) swapped with random opponents' tiles.

    Returns (hands [rows, players], ok [rows]); ok is False where the opponents hold too few
    tiles that may be drawn (the row is then left out).
    """
    out = np.zeros_like(hands, dtype=np.int64)
    ok = np.zeros(len(seat), dtype=np.bool_)
    if len(seat):
        _exchange(np.uint64(seed), np.ascontiguousarray(deal_idx, dtype=np.int64),
                  np.ascontiguousarray(seat, dtype=np.int64), np.ascontiguousarray(hands, dtype=np.int64),
                  np.ascontiguousarray(ftiles, dtype=np.int64), np.ascontiguousarray(exclude, dtype=np.int64),
                  out, ok)
    return out, ok


def parse_bonus(specs: Sequence[str]) -> list[dict[str, int]]:
    """`--bonus supreme=0,1,2,4` (repeatable) → list of rule overrides, the cross product of the sweeps."""
    axes: list[tuple[str, list[int]]] = []
    for spec in specs:
        m = re.fullmatch(r"\s*([a-z_]+)\s*=\s*([0-9,\s]+)\s*", spec or "")
        key = m.group(1) if m else None
        if not m or key not in BONUS_KEYS:
            raise TjsimError(f"malformed --bonus '{spec}' (expected {BONUS_HELP})")
        values = [v.strip() for v in m.group(2).split(",") if v.strip()]
        if not values:
            raise TjsimError(f"malformed --bonus '{spec}' (expected {BONUS_HELP})")
        if any(k == BONUS_KEYS[key] for k, _ in axes):
            raise TjsimError(f"--bonus '{key}' given twice (list all its values once: {key}=0,1,2)")
        axes.append((BONUS_KEYS[key], sorted(dict.fromkeys(int(v) for v in values))))
    if not axes:
        return [{}]
    return [dict(zip((k for k, _ in axes), combo)) for combo in itertools.product(*(v for _, v in axes))]


def setting_label(overrides: dict[str, int]) -> str:
    """'supreme_bonus=2' for a sweep point, 'as set' without overrides."""
    return ", ".join(f"{k}={v}" for k, v in overrides.items()) or "as set"


def _components(p: Played) -> dict[str, np.ndarray]:
    b = p.bonus
    return {"total": p.payments, "tricks_close": p.settlement, "bonus": b.sum(axis=2),
            "bonus_supreme": b[..., 0], "bonus_supreme_close": b[..., 1], "bonus_quartet": b[..., 2]}


@dataclass
class ValueRun:
    """A value measurement: tidy per-chunk sums and how it was made."""

    feature: Feature
    chunks: pd.DataFrame  # setting, method, component, chunk, deal_start, deals, n1, y1, n0, y0
    deals: int
    chunk: int
    pairs: int  # counterfactual (deal, holder) pairs played per setting


def run_value(rules: RuleSet, feature: Feature, policies: Sequence[str], seed: int, deals: int,
              bonus: Sequence[dict[str, int]] = ({},), method: str = ROUNDS, shuffle: str = "perfect",
              streak: int = 1, threads: int | None = None, chunk: int | None = None, start: int = 0,
              stop: int | None = None) -> ValueRun:
    """Measure the feature's value on deals 0…deals−1 for every bonus setting (the same deals for all).

    With `start` / `stop` only deals start…stop−1 of those are played (one piece of the run,
    e.g. an experiment chunk); every deal's numbers depend only on its index, so the pieces'
    rows are exactly the whole run's rows of those clusters (`chunk` deals each).
    """
    players = rules.players
    stop = deals if stop is None else stop
    idx = np.arange(start, stop, dtype=np.int64)
    hands = dealt_hands(rules, seed, idx, method, shuffle, threads=threads)
    has, ftiles, excl = holdings(feature, hands)
    d_i, s_i = np.nonzero(has)
    chunk = chunk or chunk_size(deals)
    cid = chunk_ids(start, stop - start, chunk)
    if feature.kind == "seat":
        cf_hands, ok = hands[d_i], np.ones(len(d_i), dtype=bool)
        cf_banker = np.zeros(len(d_i), dtype=np.int64)
        _other_seats(np.uint64(seed), idx[d_i], s_i.astype(np.int64), players, cf_banker)
    else:
        cf_hands, ok = exchange(seed, idx[d_i], s_i, hands[d_i], ftiles[d_i, s_i], excl[d_i, s_i])
        cf_banker = np.zeros(len(d_i), dtype=np.int64)
    d_i, s_i, cf_hands, cf_banker = d_i[ok], s_i[ok], cf_hands[ok], cf_banker[ok]
    parts = []
    for over in bonus:
        rs = dataclasses.replace(rules, **over)
        if feature.name == "first-lead":
            rs = dataclasses.replace(rs, banker_multiplier=False)
        orig = _components(play_hands(rs, policies, seed, hands, idx, 0, streak, threads))
        cf = _components(play_hands(rs, policies, seed, cf_hands, idx[d_i], cf_banker, streak, threads))
        label = setting_label(over)
        for comp in COMPONENTS:
            v = orig[comp].astype(np.float64)
            cond = chunk_sums(cid, {"n1": has.sum(axis=1), "y1": np.where(has, v, 0).sum(axis=1),
                                    "n0": (~has).sum(axis=1), "y0": np.where(has, 0, v).sum(axis=1)})
            pair_w = v[d_i, s_i]
            pair_wo = cf[comp][np.arange(len(d_i)), s_i].astype(np.float64)
            one = np.ones(len(d_i))
            cfx = chunk_sums(cid[d_i], {"n1": one, "y1": pair_w, "n0": one, "y0": pair_wo})
            # chunks without a single holder still count as (empty) independent units
            cfx = cfx.set_index("chunk").reindex(np.unique(cid), fill_value=0.0).reset_index()
            for name, df in (("conditional", cond), ("counterfactual", cfx)):
                df.insert(0, "setting", label)
                df.insert(1, "method", name)
                df.insert(2, "component", comp)
                for key in BONUS_KEYS.values():
                    df[key] = getattr(rs, key)
                parts.append(df)
    out = pd.concat(parts, ignore_index=True)
    out.insert(4, "deal_start", out["chunk"] * chunk)
    out.insert(5, "deals", np.minimum(chunk, deals - out["deal_start"]).astype(np.int64))
    for c in ("n1", "n0"):
        out[c] = out[c].astype(np.int64)
    return ValueRun(feature, out, deals, chunk, int(len(d_i)))


def value_summary(chunks: pd.DataFrame, feature: str, rules: str) -> pd.DataFrame:
    """One row per setting × method × component: holders, means with/without, value and 95% CI."""
    by = ["setting", *BONUS_KEYS.values(), "method", "component"]
    s = ratio_difference(chunks, by)
    s.insert(0, "feature", feature)
    s.insert(1, "rules", rules)
    s["share"] = s["n1"] / (s["n1"] + s["n0"])
    s.loc[s["method"] == "counterfactual", "share"] = np.nan
    s = s.rename(columns={"n1": "holders", "mean1": "mean_with", "mean0": "mean_without"})
    return s[["feature", "rules", "setting", *BONUS_KEYS.values(), "method", "component", "holders", "share",
              "mean_with", "mean_without", "value", "se", "ci_low", "ci_high"]]
