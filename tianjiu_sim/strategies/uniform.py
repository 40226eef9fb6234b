"""`random`: uniform over the legal actions, draw for draw as docs/CONTRACTS.md says."""
from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.bits import nth_bit, popcount
from ..kernels.layout import O_HAND, O_LEAD_PLAY, P_SIZE
from ..kernels.legality import legal_beats, legal_leads
from ..kernels.rng import randbelow


@njit(cache=True, inline="always")
def random_fold(obs, tabs, params, st):
    """Fold with probability 1/2."""
    return randbelow(st, 2) == 1


@njit(cache=True, inline="always")
def random_lead(obs, tabs, params, st, buf):
    """A uniformly random legal lead."""
    n = legal_leads(obs, tabs, buf)
    return buf[randbelow(st, n)]


@njit(cache=True, inline="always")
def random_discard(hand, size, st):
    """Discard `size` tiles, each uniformly among those left (CONTRACTS.md order of draws)."""
    out = 0
    rest = hand
    for _ in range(size):
        k = randbelow(st, popcount(rest))
        b = nth_bit(rest, k)
        out |= np.int64(1) << b
        rest &= ~(np.int64(1) << b)
    return out


@njit(cache=True, inline="always")
def random_follow(obs, tabs, params, st, buf):
    """Beat with a uniformly random legal beat or discard (one extra option); returns (play, discard)."""
    n = legal_beats(obs, tabs, params, buf, True)
    r = randbelow(st, n + 1)
    if r < n:
        return buf[r], np.int64(0)
    size = tabs[obs[O_LEAD_PLAY], P_SIZE]
    return np.int64(-1), random_discard(obs[O_HAND], size, st)
