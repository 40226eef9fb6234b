"""Duplicate comparison of strategies: the same deals replayed with strategies rotated through the seats.

With k strategies and n seats, each deal is played k times; in replay r seat s plays
strategy (s + r) mod k, so every strategy sits in every seat exactly once on the same tiles
(further replays would repeat a seating with the same random streams, so add nothing).
A strategy's result on a deal is the mean payment over the seats it held across the replays;
differences between strategies are paired per deal, which removes the luck of the tiles.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..stats import mean_ci_of


def rotation_table(k: int, n: int) -> np.ndarray:
    """int array [k, seats]: which strategy (0..k-1) sits in each seat in each replay."""
    return np.array([[(s + r) % k for s in range(n)] for r in range(k)], dtype=np.int64)


def per_deal_means(payments: np.ndarray, table: np.ndarray, k: int) -> np.ndarray:
    """[deals, k] mean payment of each strategy per deal, from payments [deals, replays, seats]."""
    out = np.zeros((payments.shape[0], k))
    for p in range(k):
        sel = table == p
        out[:, p] = payments[:, sel].mean(axis=1)
    return out


@dataclass(frozen=True)
class Estimate:
    """A mean with its standard error and 95% interval."""

    mean: float
    se: float
    ci_low: float
    ci_high: float


def estimate(values: np.ndarray) -> Estimate:
    """Mean, standard error and normal 95% CI of independent values (stats.mean_ci_of)."""
    return Estimate(*mean_ci_of(values))
