"""`greedy`: the strongest lead, the cheapest winning beat, the weakest discards; never folds."""
from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.bits import ctz, popcount
from ..kernels.layout import (
    N_PLAYS, O_FORCED, O_HAND, O_HAND_SIZE, O_LEAD_PLAY, O_WIN_IS_LEAD, O_WIN_PLAY, P_BEATU_FOL,
    P_BEATU_LED, P_SIZE, ROW_BF, ROW_BL, ROW_CHEAP_POS, ROW_CHEAP_TILE, ROW_LEAD_FROM, ROW_LEAD_ORDER,
    ROW_LO_MASK, ROW_LO_NEED, ROW_SINGLE_LEADPOS, ROW_TT, ROW_WEAK, ROW_WEAK_POS, T_SINGLE
)
from ..kernels.legality import beat_allowed, combo_tiles, holds


@njit(cache=True, inline="always")
def greedy_fold(obs, tabs, params, st):
    """Never folds."""
    return False


@njit(cache=True, inline="always")
def greedy_lead(obs, tabs, params, st, buf):
    """Lead the strongest play: largest first, then the fewest plays that could beat it."""
    # The first legal play in the static lead order (plays larger than the hand skipped): the
    # same play as the legal lead of least P_LEADPOS, without listing the legal leads.
    hand = obs[O_HAND]
    forced = obs[O_FORCED]
    singles = hand & forced if forced != 0 else hand  # a forced lead is a single of the suit
    if forced == 0:
        combo = combo_tiles(hand, tabs)
        if combo != 0:
            # Multi-tile plays come first in the lead order. A play of k tiles needs k tiles of
            # `combo`, so larger plays are skipped; scan the multi-tile plays up to the singles.
            k = min(obs[O_HAND_SIZE], popcount(combo), 4)
            for i in range(tabs[ROW_LEAD_FROM, k], tabs[ROW_LEAD_FROM, 1]):
                # `holds` on lead-ordered copies of the mask and need rows (no indirection).
                m = tabs[ROW_LO_MASK, i]
                if (m & hand) == m and (tabs[ROW_LO_NEED, i] & hand) == 0:
                    return tabs[ROW_LEAD_ORDER, i]
    # Singles: the tile whose single comes first in the lead order. Of two copies the lower
    # comes first and is the canonical play, so no `holds` check is needed.
    best = np.int64(N_PLAYS)
    rest = singles
    while rest:
        best = min(best, tabs[ROW_SINGLE_LEADPOS, ctz(rest)])
        rest &= rest - 1
    return tabs[ROW_LEAD_ORDER, best]


@njit(cache=True, inline="always")
def weakest_tiles(hand, size, tabs):
    """The `size` weakest tiles of the hand by the static order ROW_WEAK (weakest first)."""
    # Re-express the hand in weakness order, so the weakest tiles are its lowest bits.
    w = np.int64(0)
    rest = hand
    while rest:
        b = ctz(rest)
        rest &= rest - 1
        w |= np.int64(1) << tabs[ROW_WEAK_POS, b]
    out = np.int64(0)
    for _ in range(size):
        low = ctz(w)
        w &= w - 1
        out |= np.int64(1) << tabs[ROW_WEAK, low]
    return out


@njit(cache=True, inline="always")
def greedy_follow(obs, tabs, params, st, buf):
    """Beat with the cheapest legal beat, else discard the weakest tiles."""
    if beat_allowed(obs, params):
        pt = tabs
        w = obs[O_WIN_PLAY]
        row = (ROW_BL if obs[O_WIN_IS_LEAD] == 1 else ROW_BF) + w
        hand = obs[O_HAND]
        cand = hand & pt[w, P_BEATU_LED if obs[O_WIN_IS_LEAD] == 1 else P_BEATU_FOL]
        if cand != 0 and pt[w, P_SIZE] == 1:
            # Only singles beat a single (build_tables checks): the cheapest is the candidate
            # tile first in the cheapest-first order; of two copies the lower, canonical one.
            x = np.int64(0)
            while cand:
                x |= np.int64(1) << tabs[ROW_CHEAP_POS, ctz(cand)]
                cand &= cand - 1
            return pt[ROW_TT + tabs[ROW_CHEAP_TILE, ctz(x)], T_SINGLE], np.int64(0)
        if cand != 0:
            for i in range(1, tabs[row, 0] + 1):
                p = tabs[row, i]
                if holds(pt, p, hand):
                    return p, np.int64(0)
    size = tabs[obs[O_LEAD_PLAY], P_SIZE]
    return np.int64(-1), weakest_tiles(obs[O_HAND], size, tabs)
