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

from . import mean_ci, ratio_difference_ci


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
    """(mean, se, ci_low, ci_high) of n independent values from their sum s and sum of squares q."""
    return mean_ci(s, q, int(n))


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
        v = g[["y1", "n1", "y0", "n0"]].to_numpy(dtype=np.float64)
        y1, n1, y0, n0 = (float(t) for t in v.sum(axis=0))
        value, se, lo, hi = ratio_difference_ci((y1, n1, y0, n0), v.T @ v, len(g))
        rows.append({**dict(zip(by, key)), "n1": int(n1), "n0": int(n0),
                     "mean1": y1 / n1 if n1 > 0 else math.nan, "mean0": y0 / n0 if n0 > 0 else math.nan,
                     "value": value, "se": se, "ci_low": lo, "ci_high": hi, "chunks": len(g)})
    return pd.DataFrame(rows)
