"""Confidence intervals used everywhere: Wilson for proportions, normal for means."""
from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(hits: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for a proportion hits/trials."""
    if trials <= 0:
        return (math.nan, math.nan)
    p = hits / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(total: float, total_sq: float, n: int, z: float = Z95) -> tuple[float, float, float, float]:
    """(mean, standard error, ci_low, ci_high) from a sum and a sum of squares of n values."""
    if n <= 0:
        return (math.nan, math.nan, math.nan, math.nan)
    mean = total / n
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    se = math.sqrt(var / n)
    return (mean, se, mean - z * se, mean + z * se)
