"""Legality (RULES.md §3–§4): which plays a hand may lead or beat with, and who may fold.

Public knowledge: the engine and every strategy ask the same functions, so a strategy can
never play what the engine would refuse. Hands are tile masks; plays are catalogue ids
looked up in the play tables (`layout.ROW_*`, `layout.P_*`).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .bits import ctz
from .layout import (
    O_DONG, O_FORCED, O_HAND, O_LAST, O_LEAD_SIZE, O_SEAT, O_WIN_IS_LEAD, O_WIN_PLAY, P_BEATU_FOL,
    P_BEATU_LED, P_MASK, P_NEED, P_SIZE, R_DICE_GONG, R_DICE_ZA, R_EARLY_DEATH, R_FOLD, R_LAO, R_MIN_DONG,
    R_SUIT_GONG, R_SUIT_YAO, R_SUIT_ZA, ROW_BF, ROW_BFM, ROW_BL, ROW_BLM, ROW_HB, ROW_PARTNERS, ROW_PT
)


@njit(cache=True, inline="always")
def holds(pt, p, hand):
    """Whether the hand can make play `p` canonically (lower copies first)."""
    m = pt[p, P_MASK]
    return (m & hand) == m and (pt[p, P_NEED] & hand) == 0


@njit(cache=True, inline="always")
def dice_suit(params, hand, total):
    """§4.7: the folk suit mask the lead must come from when the residual dice show `total`.

    The suit the total names, or — when the hand holds none of it — the first of 宫, 杂, 幺 it holds.
    """
    if total >= params[R_DICE_GONG]:
        suit = params[R_SUIT_GONG]
    elif total >= params[R_DICE_ZA]:
        suit = params[R_SUIT_ZA]
    else:
        suit = params[R_SUIT_YAO]
    if hand & suit:
        return suit
    for s in (params[R_SUIT_GONG], params[R_SUIT_ZA], params[R_SUIT_YAO]):
        if hand & s:
            return s
    return suit


@njit(cache=True, inline="always")
def beat_allowed(obs, params):
    """Early death (§4.4): whether the decider may beat at all in this trick."""
    if obs[O_LAST] == 1 and params[R_EARLY_DEATH] != 0:
        if obs[O_DONG + obs[O_SEAT]] + obs[O_LEAD_SIZE] < params[R_MIN_DONG]:
            return False
    return True


@njit(cache=True, inline="always")
def held_leads(tab, row_hb, row_play, col_mask, col_need, col_size, hand, forced, out):
    """Plays the hand can lead into out, by highest tile from the lowest bit up; returns the count.

    Shared by the engine and the solver, whose play tables differ only in where the rows and
    columns sit. `forced` (a folk suit mask, or 0) admits only that suit's singles (§4.7).
    """
    n = 0
    rest = hand
    while rest:
        b = ctz(rest)
        rest &= rest - 1
        for i in range(1, tab[row_hb + b, 0] + 1):
            p = tab[row_hb + b, i]
            m = tab[row_play + p, col_mask]
            if (m & hand) != m or (tab[row_play + p, col_need] & hand) != 0:
                continue  # not held, or not with the canonical (lower) copies
            if forced != 0 and (tab[row_play + p, col_size] != 1 or (m & forced) == 0):
                continue
            out[n] = p
            n += 1
    return n


@njit(cache=True, inline="always")
def legal_leads(obs, tabs, buf):
    """Legal lead plays into buf, ascending by mask (the order of docs/CONTRACTS.md); returns the count."""
    return held_leads(tabs, ROW_HB, ROW_PT, P_MASK, P_NEED, P_SIZE, obs[O_HAND], obs[O_FORCED], buf)


@njit(cache=True, inline="always")
def legal_beats(obs, tabs, params, buf, by_mask_order):
    """Legal beats of the standing play into buf (ascending mask, or cheapest first); returns the count."""
    if not beat_allowed(obs, params):
        return 0
    pt = tabs
    w = obs[O_WIN_PLAY]
    if (obs[O_HAND] & pt[w, P_BEATU_LED if obs[O_WIN_IS_LEAD] == 1 else P_BEATU_FOL]) == 0:
        return 0
    if by_mask_order:
        row = (ROW_BLM if obs[O_WIN_IS_LEAD] == 1 else ROW_BFM) + w
    else:
        row = (ROW_BL if obs[O_WIN_IS_LEAD] == 1 else ROW_BF) + w
    hand = obs[O_HAND]
    n = 0
    for i in range(1, tabs[row, 0] + 1):
        p = tabs[row, i]
        if holds(pt, p, hand):
            buf[n] = p
            n += 1
    return n


@njit(cache=True, inline="always")
def may_fold(obs, params):
    """§4.6: folding is on and the hand holds no 老 / 二名老."""
    return params[R_FOLD] != 0 and (obs[O_HAND] & params[R_LAO]) == 0


@njit(cache=True, inline="always")
def combo_tiles(hand, tabs):
    """Tiles of the hand that take part in some multi-tile play it can make."""
    # A tile is in a multi-tile play of the hand iff it is in a two-tile play of the hand
    # (build_tables checks that the two-tile plays inside every larger play cover it), i.e.
    # iff the hand holds one of the tile's pair partners: one AND per tile, no play lists.
    out = np.int64(0)
    rest = hand
    while rest:
        b = ctz(rest)
        rest &= rest - 1
        out |= np.int64((hand & tabs[ROW_PARTNERS, b]) != 0) << b
    return out
