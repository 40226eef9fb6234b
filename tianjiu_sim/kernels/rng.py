"""Reproducible random streams for numba kernels: one stream per (seed, stream, index).

Every deal draws from its own xoshiro256** state, seeded by SplitMix64 from the run seed,
a stream number (e.g. a grid cell or a purpose: dealing vs strategy decisions) and the
deal's index. No result therefore depends on which thread or process played which deal.
A state is a `uint64[4]` array, reseeded in place so hot loops allocate nothing.
"""
from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, inline="always")
def splitmix64(x):
    """One SplitMix64 step: returns (next state, output)."""
    x = x + GOLDEN
    z = x
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return x, z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")  # inlined: a call per deal costs atomic refcounts on `state`
def seed_stream(state, seed, stream, index):
    """Reseed `state` (uint64[4]) for the given run seed, stream number and deal index."""
    x = np.uint64(seed)
    x, a = splitmix64(x)
    x = a ^ (np.uint64(stream) * _M1)
    x, b = splitmix64(x)
    x = b ^ (np.uint64(index) * _M2)
    for i in range(4):
        x, out = splitmix64(x)
        state[i] = out


@njit(cache=True, inline="always")
def next_u64(state):
    """Next 64 random bits of a xoshiro256** state."""
    result = _rotl(state[1] * np.uint64(5), 7) * np.uint64(9)
    t = state[1] << np.uint64(17)
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = _rotl(state[3], 45)
    return result


@njit(cache=True, inline="always")
def randbelow(state, n):
    """A random int in [0, n) for n < 2**32 (Lemire's multiply-shift with rejection)."""
    n64 = np.uint64(n)
    m = (next_u64(state) >> np.uint64(32)) * n64
    # The rejection threshold (2**32 - n) % n is below n, so a low half >= n is always accepted:
    # the (slow, 64-bit) division is only needed in the rare other case. Same draws as always.
    if (m & np.uint64(0xFFFFFFFF)) < n64:
        threshold = (np.uint64(0x100000000) - n64) % n64
        while (m & np.uint64(0xFFFFFFFF)) < threshold:
            m = (next_u64(state) >> np.uint64(32)) * n64
    return np.int64(m >> np.uint64(32))


@njit(cache=True, inline="always")
def random_double(state):
    """A uniform float in [0, 1) with 53 random bits."""
    return (next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


def new_state() -> np.ndarray:
    """A fresh uint64[4] state array (seed it with `seed_stream`)."""
    return np.zeros(4, dtype=np.uint64)
