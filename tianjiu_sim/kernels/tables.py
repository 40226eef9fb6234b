"""Rules as data for the kernels: a RuleSet packed into the rule-parameter array, the catalogue into the play tables.

One compiled kernel serves every rule set: rule sets differ only in these arrays, whose
layouts are declared in `layout.py`. `build_tables` also checks the catalogue facts the fast
paths of the engine and the strategies rely on.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..game.catalogue import Catalogue, _cached, catalogue
from ..game.rules import RuleSet
from ..game.tiles import BB_FOLK_SUIT, BB_LAO, KIND_BITS, KIND_BY_PIPS
from .layout import (
    R_DICE_ON, R_SUPREME_MASK,
    N_PARAMS, N_PLAYS, N_ROWS, P_BEATU_FOL, P_BEATU_LED, P_CLS, P_COLS, P_LEADPOS, P_MASK, P_NBEAT,
    P_NEED, P_RANK, P_SIZE, P_STR, R_BANKER_MULT, R_BASELINE, R_CLOSE_REWARD, R_DEAL_ROUND,
    R_DICE_GONG, R_DICE_ZA, R_EARLY_DEATH, R_FOLD, R_FOLD_COST, R_LAO, R_MIN_DONG, R_NCLASSES,
    R_NPLAYS, R_PLAYERS, R_QUARTET_BONUS, R_QUARTET_CLASS, R_RESIDUAL, R_SUIT_GONG, R_SUIT_YAO,
    R_SUIT_ZA, R_SUPREME_BONUS, R_SUPREME_CLOSE, R_SUPREME_PLAY, R_SUSPENDED, R_SWEEP, R_TILES,
    R_ZA8_PAIR, ROW_BF, ROW_BFM, ROW_BL, ROW_BLM, ROW_BY_MASK, ROW_CHEAP_POS, ROW_CHEAP_TILE, ROW_HB,
    ROW_LEAD_FROM, ROW_LEAD_ORDER, ROW_LO_MASK, ROW_LO_NEED, ROW_PARTNERS, ROW_PT, ROW_SINGLE_LEADPOS,
    ROW_TT, ROW_WEAK, ROW_WEAK_POS, T_STR
)


def pack_params(rules: RuleSet) -> np.ndarray:
    """The rule set as the engine's int64 parameter array (layout.RULE_PARAMS)."""
    cat = catalogue(rules)
    p = np.zeros(N_PARAMS, dtype=np.int64)
    p[R_PLAYERS] = rules.players
    p[R_TILES] = rules.tiles_per_player
    p[R_EARLY_DEATH] = rules.early_death
    p[R_MIN_DONG] = rules.early_death_min_dong
    p[R_BASELINE] = rules.baseline
    p[R_BANKER_MULT] = rules.banker_multiplier
    p[R_SWEEP] = rules.sweep_multiplier
    p[R_SUPREME_BONUS] = rules.supreme_bonus
    p[R_SUSPENDED] = rules.supreme_bonus_suspended
    p[R_SUPREME_CLOSE] = rules.supreme_close
    p[R_CLOSE_REWARD] = rules.supreme_close_reward
    p[R_QUARTET_BONUS] = rules.quartet_bonus
    p[R_FOLD] = rules.fold
    p[R_FOLD_COST] = rules.fold_cost
    p[R_RESIDUAL] = rules.residual_dice
    p[R_DICE_GONG] = rules.dice_gong_min
    p[R_DICE_ZA] = rules.dice_za_min
    p[R_DEAL_ROUND] = rules.deal_round
    p[R_SUPREME_PLAY] = cat.supreme
    p[R_QUARTET_CLASS] = cat.quartet_class
    za8 = (1 << KIND_BITS[KIND_BY_PIPS["6-2"].index][0]) | (1 << KIND_BITS[KIND_BY_PIPS["5-3"].index][0])
    p[R_ZA8_PAIR] = cat.find(za8)
    p[R_NPLAYS] = cat.n
    p[R_NCLASSES] = len(cat.classes)
    p[R_LAO] = BB_LAO
    p[R_SUIT_GONG] = BB_FOLK_SUIT["宫"]
    p[R_SUIT_ZA] = BB_FOLK_SUIT["杂"]
    p[R_SUIT_YAO] = BB_FOLK_SUIT["幺"]
    p[R_DICE_ON] = rules.dice_on
    p[R_SUPREME_MASK] = int(cat.mask[cat.supreme])
    return p


def _beater_lists(cat: Catalogue, beats: np.ndarray, cheapest_first: bool) -> np.ndarray:
    """Row b: count, then the plays beating b (cheapest first, or ascending by mask)."""
    n = cat.n
    width = int(beats.sum(axis=0).max()) + 1
    out = np.full((n, width), -1, dtype=np.int64)
    for b in range(n):
        idx = [int(a) for a in np.nonzero(beats[:, b])[0]]
        if cheapest_first:
            idx.sort(key=lambda a: (int(cat.rank[a]), int(cat.mask[a])))
        else:
            idx.sort(key=lambda a: int(cat.mask[a]))
        out[b, 0] = len(idx)
        out[b, 1:1 + len(idx)] = idx
    return out


def build_tables(cat: Catalogue) -> np.ndarray:
    """The kernel's tables as one int64 array (layout.TABLE_ROWS, PLAY_COLUMNS, TILE_COLUMNS)."""
    n = cat.n
    nbeat = cat.beats_led.sum(axis=0).astype(np.int64)
    pt = np.zeros((n, P_COLS), dtype=np.int64)
    pt[:, P_MASK] = cat.mask.astype(np.int64)
    pt[:, P_CLS] = cat.cls
    pt[:, P_RANK] = cat.rank
    pt[:, P_SIZE] = cat.size
    pt[:, P_NEED] = cat.need_absent.astype(np.int64)
    pt[:, P_NBEAT] = nbeat
    masks = cat.mask.astype(np.int64)
    for b in range(n):
        pt[b, P_BEATU_LED] = np.bitwise_or.reduce(masks[cat.beats_led[:, b]]) if cat.beats_led[:, b].any() else 0
        pt[b, P_BEATU_FOL] = np.bitwise_or.reduce(masks[cat.beats_follow[:, b]]) if cat.beats_follow[:, b].any() else 0
    tt = np.zeros((32, 2), dtype=np.int64)
    for p in range(n):
        if cat.size[p] == 1:
            c = cat.cls == cat.cls[p]
            lo, hi = int(cat.rank[c].min()), int(cat.rank[c].max())
            strength = 100 * (int(cat.rank[p]) - lo) // max(1, hi - lo)
            pt[p, P_STR] = strength
            bit = int(cat.mask[p]).bit_length() - 1
            tt[bit] = (p, strength)
    by_mask = np.argsort(cat.mask.astype(np.int64), kind="stable").astype(np.int64)
    lead_order = np.array(sorted(range(n), key=lambda p: (-int(cat.size[p]), int(nbeat[p]),
                                                          -int(cat.rank[p]), int(cat.mask[p]))),
                          dtype=np.int64)
    weak = np.array(sorted(range(32), key=lambda b: (int(tt[b, T_STR]), -b)), dtype=np.int64)
    weak_pos = np.zeros(32, dtype=np.int64)
    weak_pos[weak] = np.arange(32)
    if n != N_PLAYS:
        raise ValueError(f"the engine's tables assume {N_PLAYS} plays, the catalogue has {n}")
    # Plays grouped by their highest tile bit, ascending by mask within a group: walking a
    # hand's bits upwards lists its plays in ascending mask order, looking at ~3 plays per tile.
    groups: list[list[int]] = [[] for _ in range(32)]
    for p in sorted(range(n), key=lambda p: int(cat.mask[p])):
        groups[int(cat.mask[p]).bit_length() - 1].append(p)
    hb = np.full((32, 1 + max(len(g) for g in groups)), -1, dtype=np.int64)
    for b, g in enumerate(groups):
        hb[b, 0] = len(g)
        hb[b, 1:1 + len(g)] = g
    lead_pos = np.zeros(n, dtype=np.int64)
    lead_pos[lead_order] = np.arange(n)
    pt[:, P_LEADPOS] = lead_pos
    tab = np.zeros((N_ROWS, N_PLAYS), dtype=np.int64)
    tab[ROW_PT:ROW_PT + n, :P_COLS] = pt
    for row, lst in ((ROW_BL, _beater_lists(cat, cat.beats_led, True)),
                     (ROW_BF, _beater_lists(cat, cat.beats_follow, True)),
                     (ROW_BLM, _beater_lists(cat, cat.beats_led, False)),
                     (ROW_BFM, _beater_lists(cat, cat.beats_follow, False))):
        tab[row:row + n, :lst.shape[1]] = lst
    tab[ROW_TT:ROW_TT + 32, :tt.shape[1]] = tt
    tab[ROW_HB:ROW_HB + 32, :hb.shape[1]] = hb
    tab[ROW_BY_MASK, :n] = by_mask
    tab[ROW_LEAD_ORDER, :n] = lead_order
    tab[ROW_WEAK, :32] = weak
    tab[ROW_WEAK_POS, :32] = weak_pos
    for k in range(5):
        tab[ROW_LEAD_FROM, k] = sum(1 for p in lead_order if cat.size[p] > k)
    tab[ROW_LO_MASK, :n] = pt[lead_order, P_MASK]
    tab[ROW_LO_NEED, :n] = pt[lead_order, P_NEED]
    pairs = [int(m) for m, k in zip(cat.mask, cat.size) if k == 2]
    for b in range(32):
        tab[ROW_PARTNERS, b] = np.bitwise_or.reduce([m & ~(1 << b) for m in pairs if m >> b & 1] or [0])
    single_of = {int(cat.mask[p]).bit_length() - 1: p for p in range(n) if cat.size[p] == 1}
    for b, p in single_of.items():
        tab[ROW_SINGLE_LEADPOS, b] = lead_pos[p]
    cheap = sorted(single_of, key=lambda b: (int(cat.rank[single_of[b]]), int(cat.mask[single_of[b]])))
    tab[ROW_CHEAP_TILE, :32] = cheap
    tab[ROW_CHEAP_POS, cheap] = np.arange(32)
    # greedy_follow relies on it: only singles beat a single.
    for rel in (cat.beats_led, cat.beats_follow):
        if (rel[np.ix_(cat.size != 1, cat.size == 1)]).any():
            raise ValueError("a multi-tile play beats a single (greedy_follow's single fast path)")
    for m, k in zip(cat.mask, cat.size):
        # combo_tiles relies on it: each tile of a larger play is in a two-tile play inside it.
        m = int(m)
        if k > 2 and any(not any(q >> b & 1 and q & m == q for q in pairs) for b in range(32) if m >> b & 1):
            raise ValueError(f"play {m:#x}: a tile is in no two-tile play inside it (combo_tiles)")
    return tab


@lru_cache(maxsize=None)
def _tables_cached(suits: str, civil_supreme: bool, supreme_catcher: bool) -> np.ndarray:
    return build_tables(_cached(suits, civil_supreme, supreme_catcher))


def tables(rules: RuleSet) -> np.ndarray:
    """The kernel's tables for a rule set (cached per catalogue)."""
    return _tables_cached(rules.suits, rules.civil_supreme, rules.supreme_catcher)
