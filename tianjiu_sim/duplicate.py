"""Duplicate comparison of strategies: the same deals replayed with strategies rotated through the seats.

With k strategies and n seats, each deal is played `lcm(k, n)` times; in replay r seat s plays
strategy (s + r) mod k, so every strategy sits in every seat equally often on the same tiles.
A strategy's result on a deal is the mean payment over the seats it held across the replays;
differences between strategies are paired per deal, which removes the luck of the tiles.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from .stats import Z95


def rotation_table(k: int, n: int) -> np.ndarray:
    """int array [replays, seats]: which strategy (0..k-1) sits in each seat in each replay."""
    replays = k * n // math.gcd(k, n)
    return np.array([[(s + r) % k for s in range(n)] for r in range(replays)], dtype=np.int64)


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
    """Mean, standard error and normal 95% CI of independent values."""
    n = len(values)
    mean = float(values.mean()) if n else math.nan
    se = float(values.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return Estimate(mean, se, mean - Z95 * se, mean + Z95 * se)


def summarise(x: np.ndarray, policies: list[str]) -> dict:
    """Compare strategies from per-deal means x [deals, k] (INTERFACES.md `compare` JSON layout).

    `variance_ratio` is, over all pairs, Σ(Var a + Var b) / Σ Var(a − b): how many times more
    deals independent (unpaired) samples would need for the same precision of the differences.
    """
    strategies = []
    for p, name in enumerate(policies):
        e = estimate(x[:, p])
        strategies.append({"policy": name, "mean_payment": e.mean, "se": e.se,
                           "ci_low": e.ci_low, "ci_high": e.ci_high})
    differences, indep, paired = [], 0.0, 0.0
    for a, b in combinations(range(len(policies)), 2):
        d = x[:, a] - x[:, b]
        e = estimate(d)
        differences.append({"a": policies[a], "b": policies[b], "mean": e.mean, "se": e.se,
                            "ci_low": e.ci_low, "ci_high": e.ci_high,
                            "significant": bool(e.ci_low > 0 or e.ci_high < 0)})
        indep += float(x[:, a].var(ddof=1) + x[:, b].var(ddof=1))
        paired += float(d.var(ddof=1))
    ratio = indep / paired if paired > 0 else math.inf
    return {"deals": int(x.shape[0]), "strategies": strategies, "differences": differences,
            "variance_ratio": ratio}
