"""Plots of 九支十仔 results (output/figures.py set-up: Agg, a CJK font when there is one). Import lazily."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..output.figures import ci_errors, finish, plot_text, pyplot


def plot_distribution(values: Sequence[int], shares: Sequence[float], path: str, title: str, xlabel: str) -> None:
    """A bar chart of a distribution (share of wins per value)."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    ax.bar([str(v) for v in values], shares, color="#4a78a8")
    ax.set_xlabel(plot_text(xlabel))
    ax.set_ylabel("share")
    finish(fig, title, Path(path), on=ax)


def plot_strategies(strategies: Sequence[dict], path: str, title: str) -> None:
    """Each strategy's mean 頭 per deal per seat with its 95% interval (duplicate)."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    for i, s in enumerate(strategies):
        ax.errorbar([i], [s["mean_payment"]], yerr=[[e] for e in ci_errors(s["mean_payment"], s["ci_low"], s["ci_high"])],
                    fmt="o", capsize=4, color="#4a78a8")
    ax.axhline(0, color="grey", lw=0.8, ls="--")
    ax.set_xticks(range(len(strategies)))
    ax.set_xticklabels([s["policy"] for s in strategies])
    ax.set_ylabel(plot_text("頭 (tou) per deal per seat, 95% CI"))
    finish(fig, title, Path(path), on=ax)
