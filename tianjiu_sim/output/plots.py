"""Plots (matplotlib, Agg backend: files only, no display needed). Import lazily: it is slow."""
from __future__ import annotations

import math
from typing import Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def plot_odds(rows: Sequence[dict], exact: dict[str, float] | None, path: str, title: str) -> None:
    """Each event's probability per method with 95% interval bars, one panel per event, one series per shuffle."""
    events = list(dict.fromkeys(r["event"] for r in rows))
    methods = list(dict.fromkeys(r["method"] for r in rows))
    shuffles = list(dict.fromkeys(r["shuffle"] for r in rows))
    ncols = min(4, len(events))
    nrows = math.ceil(len(events) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.6 * ncols, 2.9 * nrows + 0.6), squeeze=False)
    width = 0.8 / max(1, len(shuffles))
    for ax, event in zip(axes.flat, events):
        for si, sh in enumerate(shuffles):
            sel = {r["method"]: r for r in rows if r["event"] == event and r["shuffle"] == sh}
            xs = [i + (si - (len(shuffles) - 1) / 2) * width for i in range(len(methods))]
            ys = [sel[m]["probability"] for m in methods]
            lo = [sel[m]["probability"] - sel[m]["ci_low"] for m in methods]
            hi = [sel[m]["ci_high"] - sel[m]["probability"] for m in methods]
            ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", ms=3, capsize=2, label=sh)
        if exact and event in exact:
            ax.axhline(exact[event], color="grey", ls="--", lw=0.8, label="exact (uniform)")
        ax.set_title(event, fontsize=9)
        ax.set_xticks(range(len(methods)))
        ax.set_xticklabels(methods, rotation=60, ha="right", fontsize=7)
        ax.set_ylabel("probability", fontsize=8)
        ax.tick_params(axis="y", labelsize=7)
    for ax in list(axes.flat)[len(events):]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper right", fontsize=8)
    fig.suptitle(title, fontsize=10)
    fig.supxlabel("dealing method", fontsize=9)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_sweep(deviation: Sequence[dict], path: str, title: str) -> None:
    """Largest |probability − uniform exact| over the events against K, one line per method, one panel per shuffle family."""
    kinds = list(dict.fromkeys(d["kind"] for d in deviation if d["kind"] in ("riffle", "wash")))
    fig, axes = plt.subplots(1, max(1, len(kinds)), figsize=(6.4 * max(1, len(kinds)), 4.6), squeeze=False)
    for ax, kind in zip(axes.flat, kinds):
        sel = [d for d in deviation if d["kind"] == kind]
        for method in dict.fromkeys(d["method"] for d in sel):
            pts = sorted((d["k"], d["max_abs_deviation"]) for d in sel if d["method"] == method)
            ax.plot([k for k, _ in pts], [max(v, 1e-7) for _, v in pts], marker="o", ms=3, label=method)
        noise = sorted({(d["k"], d["noise_se"]) for d in sel})
        ax.plot([k for k, _ in noise], [3 * v for _, v in noise], color="black", ls=":", lw=1,
                label="3 × largest standard error")
        ax.set_yscale("log")
        ax.set_xlabel(f"K ({'riffles' if kind == 'riffle' else 'random transpositions'})")
        ax.set_ylabel("largest |P − P(uniform)| over events")
        ax.set_title(kind)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    fig.savefig(path, dpi=110)
    plt.close(fig)
