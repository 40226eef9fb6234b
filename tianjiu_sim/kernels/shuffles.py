"""Shuffle models (RULES.md §6): `perfect`, `riffle:K`, `wash:K`, `none`.

A shuffle rearranges `order` (int64[32]: order[k] is the tile bit at position k, position 0
on top) in place. The imperfect models start from whatever `order` holds: the box order
(tile k at position k, i.e. sorted by kind) or a previous deal's gathered order.

- `perfect`: uniform Fisher–Yates, from the top index down (`shuffle_uniform`).
- `riffle:K`: K Gilbert–Shannon–Reeds riffles. One riffle draws 32 random bits b_0…b_31;
  the c positions with b_k = 0 receive the top packet (order[0:c]) in order, the others the
  bottom packet (order[c:32]) in order. The cut c is then Binomial(32, 1/2) and, given c,
  every interleaving is equally likely: exactly the GSR model.
- `wash:K`: K random transpositions (Diaconis–Shahshahani): positions i and j drawn
  independently and uniformly from 0…31 and swapped (i = j leaves the order unchanged).
- `none`: the order is not changed.

All draws use `rng.randbelow` (Lemire's method), the one bounded draw of the kernels.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from numba import njit

from ..errors import TjsimError
from .rng import next_u64, randbelow

SHUFFLE_PERFECT = 0
SHUFFLE_RIFFLE = 1
SHUFFLE_WASH = 2
SHUFFLE_NONE = 3
SHUFFLE_KINDS = {"perfect": SHUFFLE_PERFECT, "riffle": SHUFFLE_RIFFLE, "wash": SHUFFLE_WASH,
                 "none": SHUFFLE_NONE}
SHUFFLE_HELP = "perfect, riffle:K, wash:K or none (K ≥ 0, a list like wash:0,1,5 sweeps K)"



@dataclass(frozen=True)
class Shuffle:
    """One shuffle model: its kind name and K (riffles or transpositions; 0 otherwise)."""

    kind: str
    k: int = 0

    @property
    def code(self) -> int:
        """The numba code of this model (SHUFFLE_*)."""
        return SHUFFLE_KINDS[self.kind]

    @property
    def name(self) -> str:
        """The CLI spelling: 'perfect', 'wash:5'."""
        return f"{self.kind}:{self.k}" if self.kind in ("riffle", "wash") else self.kind

    @property
    def uniform(self) -> bool:
        """Whether this model gives a uniformly random order."""
        return self.kind == "perfect"


def parse_shuffle(spec: str) -> list[Shuffle]:
    """Parse '--shuffle' text: 'perfect', 'none', 'riffle:K', 'wash:K' or 'wash:K1,K2,…'."""
    text = spec.strip().lower()
    if text in ("perfect", "none"):
        return [Shuffle(text)]
    m = re.fullmatch(r"(riffle|wash):(.*)", text)
    if not m:
        raise TjsimError(f"unknown shuffle '{spec}' (allowed: {SHUFFLE_HELP})")
    kind, rest = m.groups()
    ks = []
    for part in rest.split(","):
        part = part.strip()
        if not re.fullmatch(r"\d+", part):
            raise TjsimError(f"shuffle '{spec}': K must be a whole number ≥ 0, got '{part}' "
                             f"(allowed: {SHUFFLE_HELP})")
        ks.append(int(part))
    if any(k > 100000 for k in ks):
        raise TjsimError(f"shuffle '{spec}': K must be at most 100000")
    return [Shuffle(kind, k) for k in ks]


# Inlined into the kernels that deal: a call costs an atomic reference-count update per array
# argument, which two threads dealing at once contend for.
@njit(cache=True, inline="always")
def shuffle_uniform(state, order):
    """Uniform Fisher–Yates shuffle of `order` in place, from the top index down (the one Fisher–Yates)."""
    for i in range(order.shape[0] - 1, 0, -1):
        j = randbelow(state, i + 1)
        t = order[i]
        order[i] = order[j]
        order[j] = t


@njit(cache=True)
def riffle(state, order, k, scratch):
    """K Gilbert–Shannon–Reeds riffles of `order` (length ≤ 64) in place; `scratch` as long."""
    n = order.shape[0]
    for _ in range(k):
        bits = next_u64(state)
        c = 0
        for pos in range(n):
            if (bits >> np.uint64(pos)) & np.uint64(1) == 0:
                c += 1
        top = 0
        bottom = c
        for pos in range(n):
            if (bits >> np.uint64(pos)) & np.uint64(1) == 0:
                scratch[pos] = order[top]
                top += 1
            else:
                scratch[pos] = order[bottom]
                bottom += 1
        for pos in range(n):
            order[pos] = scratch[pos]


@njit(cache=True)
def wash(state, order, k):
    """K uniformly random transpositions of `order` in place (i, j independent, i = j allowed)."""
    n = order.shape[0]
    for _ in range(k):
        i = randbelow(state, n)
        j = randbelow(state, n)
        t = order[i]
        order[i] = order[j]
        order[j] = t


@njit(cache=True)
def apply_shuffle(state, kind, k, order, scratch):
    """Shuffle `order` in place with model `kind` (SHUFFLE_*) and parameter `k`."""
    if kind == SHUFFLE_PERFECT:
        shuffle_uniform(state, order)
    elif kind == SHUFFLE_RIFFLE:
        riffle(state, order, k, scratch)
    elif kind == SHUFFLE_WASH:
        wash(state, order, k)
