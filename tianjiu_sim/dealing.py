"""Dealing (RULES.md §6): shuffles, the wall and the 牌頭 methods, round dealing.

Numba kernels take a xoshiro state (see rng.py) and write one mask per seat.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .rng import randbelow


@njit(cache=True)
def shuffle_perfect(state, order):
    """Uniform Fisher–Yates shuffle of `order` (int64[32]) in place, from the top index down."""
    for i in range(order.shape[0] - 1, 0, -1):
        j = randbelow(state, i + 1)
        t = order[i]
        order[i] = order[j]
        order[j] = t


@njit(cache=True)
def deal_rounds(order, players, tiles, round_size, hands):
    """Round dealing: each seat in turn takes `round_size` tiles from the top of `order`."""
    for p in range(players):
        hands[p] = 0
    k = 0
    taken = np.zeros(players, dtype=np.int64)
    while k < players * tiles:
        for p in range(players):
            n = min(round_size, tiles - taken[p])
            for _ in range(n):
                hands[p] |= np.uint32(1) << np.uint32(order[k])
                k += 1
            taken[p] += n


@njit(cache=True)
def deal_perfect(state, players, tiles, round_size, order, hands):
    """Perfect shuffle then round dealing; `order` is int64[32] scratch, `hands` uint32[players]."""
    for i in range(32):
        order[i] = i
    shuffle_perfect(state, order)
    deal_rounds(order, players, tiles, round_size, hands)
