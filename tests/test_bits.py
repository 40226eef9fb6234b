"""Bit helpers: pdep (BMI2 and portable) and popcount against plain Python."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st
from numba import njit

from tianjiu_sim.kernels.bits import _pdep_portable, ctz, pdep, popcount


def _pdep_python(src: int, mask: int) -> int:
    out, k = 0, 0
    for bit in range(64):
        if mask >> bit & 1:
            if src >> k & 1:
                out |= 1 << bit
            k += 1
    return out


@njit(cache=True)
def _both(src, mask):
    return pdep(src, mask), _pdep_portable(src, mask), popcount(mask)


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_pdep_and_popcount_match_python(src, mask):
    fast, portable, count = _both(np.uint64(src), np.uint64(mask))
    assert int(fast) == int(portable) == _pdep_python(src, mask)
    assert int(count) == bin(mask).count("1")


def test_pdep_selects_the_rth_set_bit():
    m = 0b1011_0100
    assert [int(_both(np.uint64(1 << r), np.uint64(m))[0]) for r in range(4)] == [4, 16, 32, 128]


@njit(cache=True)
def _ctz(x):
    return ctz(x), ctz(np.int64(x))


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 2**63 - 1))
def test_ctz_is_the_lowest_set_bit(x):
    a, b = _ctz(np.uint64(x))
    assert int(a) == int(b) == (x & -x).bit_length() - 1
