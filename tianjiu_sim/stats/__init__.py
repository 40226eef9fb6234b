"""Confidence intervals used everywhere: Wilson for proportions, normal for means, linearised for ratios.

The one place for interval code. Every function returns NaN where the data cannot give an
interval, the same way everywhere:

- no observation (n = 0, trials = 0, no cluster): estimate and interval NaN;
- one observation (n = 1) or one cluster: the estimate, but standard error and interval NaN —
  one value says nothing about its own spread (a zero-width interval would claim certainty).

Ratio estimators are for samples drawn in clusters (the seats of one deal, the plays of one
deal in duplicate): units of one cluster may be correlated in any way, clusters are
independent. They need only per-cluster totals and their cross-products, summed over the
clusters, so they can be computed from chunk sums whatever the chunk size.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

Z95 = 1.959963984540054

NAN4 = (math.nan, math.nan, math.nan, math.nan)


def wilson(hits: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for a proportion hits/trials (NaN for no trials)."""
    if trials <= 0:
        return (math.nan, math.nan)
    p = hits / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _interval(estimate: float, se: float, z: float) -> tuple[float, float, float, float]:
    return (estimate, se, estimate - z * se, estimate + z * se)


def mean_ci(total: float, total_sq: float, n: int, z: float = Z95) -> tuple[float, float, float, float]:
    """(mean, standard error, ci_low, ci_high) of n independent values from their sum and sum of squares."""
    if n <= 0:
        return NAN4
    mean = total / n
    if n < 2:
        return (mean, math.nan, math.nan, math.nan)
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    return _interval(mean, math.sqrt(var / n), z)


def mean_ci_of(values: np.ndarray, z: float = Z95) -> tuple[float, float, float, float]:
    """(mean, standard error, ci_low, ci_high) of an array of independent values."""
    values = np.asarray(values, dtype=np.float64)
    n = len(values)
    if n == 0:
        return NAN4
    mean = float(values.mean())
    if n < 2:
        return (mean, math.nan, math.nan, math.nan)
    # two-pass variance (numpy's), steadier than the sums when the mean is large
    return _interval(mean, float(values.std(ddof=1)) / math.sqrt(n), z)


def linearised_se(gradient: Sequence[float], cross: np.ndarray, clusters: int) -> float:
    """Cluster-robust standard error of a smooth function of totals, by linearisation.

    `gradient` is the function's gradient at the totals, `cross` = Σ_c v_c v_cᵀ over the
    clusters c of the per-cluster total vectors v_c. The function's linearised value per
    cluster is u_c = g·v_c; for ratios (and their differences) Σ_c u_c = 0, so the variance
    is C/(C−1) Σ u_c² = C/(C−1) gᵀ cross g. NaN with fewer than two clusters.
    """
    if clusters < 2:
        return math.nan
    g = np.asarray(gradient, dtype=np.float64)
    q = float(g @ np.asarray(cross, dtype=np.float64) @ g)
    return math.sqrt(clusters / (clusters - 1) * max(0.0, q))


def ratio_ci(y: float, n: float, yy: float, yn: float, nn: float, clusters: int,
             z: float = Z95) -> tuple[float, float, float, float]:
    """(Σy/Σn, se, ci_low, ci_high): a mean over units drawn in clusters, cluster-robust.

    y, n: totals of the values and of the units; yy = Σ_c y_c², yn = Σ_c y_c n_c,
    nn = Σ_c n_c² over the clusters (y_c, n_c: cluster c's totals).
    """
    if n <= 0:
        return NAN4
    r = y / n
    se = linearised_se((1 / n, -r / n), np.array([[yy, yn], [yn, nn]]), clusters)
    return _interval(r, se, z)


def ratio_difference_ci(totals: Sequence[float], cross: np.ndarray, clusters: int,
                        z: float = Z95) -> tuple[float, float, float, float]:
    """(y1/n1 − y0/n0, se, ci_low, ci_high) of two means drawn on the same clusters, cluster-robust.

    `totals` = (y1, n1, y0, n0); `cross` is the 4×4 Σ_c v_c v_cᵀ of the per-cluster vectors
    v_c = (y1_c, n1_c, y0_c, n0_c), so whatever the two groups share within a cluster (a
    zero-sum deal, a hand and its counterfactual) is in the variance.
    """
    y1, n1, y0, n0 = (float(t) for t in totals)
    if n1 <= 0 or n0 <= 0:
        return NAN4
    r1, r0 = y1 / n1, y0 / n0
    se = linearised_se((1 / n1, -r1 / n1, -1 / n0, r0 / n0), cross, clusters)
    return _interval(r1 - r0, se, z)
