"""Plots of 九支十仔 results (matplotlib, Agg backend: files only). Import lazily: it is slow."""
from __future__ import annotations

from typing import Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def plot_distribution(values: Sequence[int], shares: Sequence[float], path: str, title: str, xlabel: str) -> None:
    """A bar chart of a distribution (share of deals or wins per value)."""
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    ax.bar([str(v) for v in values], shares, color="#4a78a8")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share")
    _save(fig, ax, path, title)


def plot_strategies(strategies: Sequence[dict], path: str, title: str) -> None:
    """Each strategy's mean 頭 per deal per seat with its 95% interval (duplicate)."""
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    names = [s["policy"] for s in strategies]
    means = [s["mean_payment"] for s in strategies]
    err = [[m - s["ci_low"] for m, s in zip(means, strategies)], [s["ci_high"] - m for m, s in zip(means, strategies)]]
    ax.errorbar(range(len(names)), means, yerr=err, fmt="o", capsize=4)
    ax.axhline(0, color="grey", lw=0.8, ls="--")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names)
    ax.set_ylabel("tou per deal per seat (95% CI)")
    _save(fig, ax, path, title)


def _save(fig, ax, path: str, title: str) -> None:
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
