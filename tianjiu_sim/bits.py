"""Tiny bit helpers for numba code (numba has no popcount builtin)."""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def popcount32(x):
    """Number of set bits of a 32-bit mask (SWAR)."""
    x = np.uint32(x)
    x = x - ((x >> np.uint32(1)) & np.uint32(0x55555555))
    x = (x & np.uint32(0x33333333)) + ((x >> np.uint32(2)) & np.uint32(0x33333333))
    x = (x + (x >> np.uint32(4))) & np.uint32(0x0F0F0F0F)
    return np.int64(((x * np.uint32(0x01010101)) >> np.uint32(24)) & np.uint32(0xFF))


@njit(cache=True, inline="always")
def lowest_bit(x):
    """Index of the lowest set bit of a non-zero 32-bit mask."""
    x = np.uint32(x)
    return popcount32((x & (~x + np.uint32(1))) - np.uint32(1))
