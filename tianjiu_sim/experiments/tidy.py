"""Tidy (long) tables for the strategy analyses: per-chunk sums in, groupby summaries out.

Every analysis stores what it measured as one row per chunk of deals and measure, holding
only sums (n, sum, sum of squares, …). Chunks are independent sets of deals, so any summary,
the running mean of a convergence plot or a pooled estimate over several runs is a groupby
over these rows. Tables for people: output/tables.py; results folders: output/results.py.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd

from ..stats import Z95


def chunk_size(deals: int) -> int:
    """Deals per chunk for `deals` deals: about 100+ chunks, 10 to 1,000 deals each."""
    return int(min(1000, max(10, deals // 100)))


def chunk_ids(start: int, deals: int, size: int) -> np.ndarray:
    """Chunk number of each deal index start…start+deals−1 (chunk c holds indices c·size…)."""
    return np.arange(start, start + deals, dtype=np.int64) // size


def chunk_sums(chunks: np.ndarray, columns: dict[str, np.ndarray]) -> pd.DataFrame:
    """One row per chunk: `chunk` and the per-chunk sum of every column (rows aligned with `chunks`)."""
    df = pd.DataFrame({"chunk": chunks, **{k: np.asarray(v, dtype=np.float64) for k, v in columns.items()}})
    return df.groupby("chunk", sort=True).sum().reset_index()


def mean_from_moments(n: float, s: float, q: float) -> tuple[float, float, float, float]:
    """(mean, se, ci_low, ci_high) of n values from their sum s and sum of squares q."""
    if n <= 0:
        return (math.nan,) * 4
    mean = s / n
    var = max(0.0, (q - n * mean * mean) / (n - 1)) if n > 1 else math.nan
    se = math.sqrt(var / n)
    return mean, se, mean - Z95 * se, mean + Z95 * se


def summarise_moments(df: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
    """Group rows of (n, sum, sumsq) by `by`: pooled n, mean, se and 95% CI per group."""
    g = df.groupby(list(by), sort=False, dropna=False)[["n", "sum", "sumsq"]].sum().reset_index()
    est = [mean_from_moments(n, s, q) for n, s, q in zip(g["n"], g["sum"], g["sumsq"])]
    g[["mean", "se", "ci_low", "ci_high"]] = pd.DataFrame(est, index=g.index)
    g["n"] = g["n"].astype(np.int64)
    return g.drop(columns=["sum", "sumsq"])


def running_moments(df: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
    """Cumulative mean and 95% CI after each chunk, per group of `by` (a convergence curve)."""
    parts = []
    for _, g in df.sort_values("chunk").groupby(list(by), sort=False, dropna=False):
        g = g.copy()
        for c in ("n", "sum", "sumsq", "deals"):
            if c in g:
                g["cum_" + c] = g[c].cumsum()
        est = [mean_from_moments(n, s, q) for n, s, q in zip(g["cum_n"], g["cum_sum"], g["cum_sumsq"])]
        g[["mean", "se", "ci_low", "ci_high"]] = pd.DataFrame(est, index=g.index)
        parts.append(g)
    return pd.concat(parts, ignore_index=True) if parts else df.iloc[0:0]


def ratio_difference(df: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
    """Per group: y1/n1 − y0/n0 from per-chunk sums, with a chunk-clustered (linearised) SE.

    Chunks are the independent units, so values that share a deal (the seats of one table,
    a hand and its counterfactual) may be correlated in any way.
    """
    rows = []
    for key, g in df.groupby(list(by), sort=False, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        n1, y1, n0, y0 = (float(g[c].sum()) for c in ("n1", "y1", "n0", "y0"))
        r1 = y1 / n1 if n1 > 0 else math.nan
        r0 = y0 / n0 if n0 > 0 else math.nan
        u = np.zeros(len(g))
        if n1 > 0:
            u += (g["y1"].to_numpy() - r1 * g["n1"].to_numpy()) / n1
        if n0 > 0:
            u -= (g["y0"].to_numpy() - r0 * g["n0"].to_numpy()) / n0
        c = len(g)
        se = math.sqrt(c / (c - 1) * float((u * u).sum())) if c > 1 and n1 > 0 and n0 > 0 else math.nan
        value = r1 - r0
        rows.append({**dict(zip(by, key)), "n1": int(n1), "n0": int(n0), "mean1": r1, "mean0": r0,
                     "value": value, "se": se, "ci_low": value - Z95 * se, "ci_high": value + Z95 * se,
                     "chunks": c})
    return pd.DataFrame(rows)
