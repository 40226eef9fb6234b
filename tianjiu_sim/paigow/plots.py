"""Plots of the compare games: value by hand class, and the edge as each setting changes (PNG + CSV)."""
from __future__ import annotations

from pathlib import Path

import matplotlib
import pandas as pd

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from ..game.tiles import bits_of, parse_hand
from . import analysis
from .hands import class_label, rank_table
from .profiles import Profile, profile, with_settings

# One change at a time from `vegas`, each a setting of RULES.md §7.
VEGAS_TOGGLES = [
    ("as vegas", {}),
    ("ties push", {"ties": "push"}),
    ("no commission", {"commission": 0.0}),
    ("1-1 + nine not a wong", {"earth_wong": False}),
    ("Gee Joon not 3-or-6", {"gee_joon_wild": False}),
    ("0–0 told apart", {"zero_tiebreak": True}),
    ("win + push = win", {"half_push": "win"}),
    ("4-4 not an eight", {"gong_eights": ["6-2", "5-3"]}),
]
CLASS_ORDER = ["supreme", "pair", "wong", "gong"] + [f"points_{k}" for k in range(9, -1, -1)] + ["dihou"]


def value_by_class(p: Profile) -> list[dict]:
    """Player value per hand class: the two-tile hand's class (kong), or the best split's back pair's class."""
    if p.tiles_per_hand == 2:
        rows = analysis.class_rows(analysis.kong_odds(p))
        out = [{"class": r["class"], "probability": r["dealt"], "value": r["win"] - r["lose"]} for r in rows]
    else:
        acc: dict[str, list[float]] = {}
        for r in analysis.best_split_table(p):
            back = r["split_1"].split(" | ")[1]
            cls = _class_of(p, back)
            a = acc.setdefault(cls, [0.0, 0.0])
            a[0] += r["probability"]
            a[1] += r["probability"] * r["value_1"]
        out = [{"class": c, "probability": a[0], "value": a[1] / a[0]} for c, a in acc.items()]
    return sorted(out, key=lambda r: CLASS_ORDER.index(r["class"]))


def _class_of(p: Profile, pair_text: str) -> str:
    a, b = bits_of(parse_hand(pair_text))
    return class_label(rank_table(p).key_of(a, b))


def edge_by_setting() -> list[dict]:
    """vegas with one setting changed at a time: the player's edge with the house way and the best reply."""
    rows = []
    for label, change in VEGAS_TOGGLES:
        p = with_settings(profile("vegas"), **change) if change else profile("vegas")
        house = analysis.edge(p)["player_edge"]
        best = analysis.edge(p, "best", "house")["player_edge"]
        rows.append({"setting": label, "house_vs_house": house, "best_vs_house": best})
    return rows


def make_all(out_dir: str) -> list[str]:
    """Write every plot and its CSV into `out_dir`; returns the paths written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    for ax, name in zip(axes, ("kong", "yabao", "vegas")):
        rows = value_by_class(profile(name))
        pd.DataFrame(rows).to_csv(out / f"value_by_class_{name}.csv", index=False)
        written.append(str(out / f"value_by_class_{name}.csv"))
        ax.bar([r["class"] for r in rows], [r["value"] for r in rows], color="tab:blue")
        ax.set_title(f"{name}: player value by hand class" + ("" if name == "kong" else "\n(best split's back pair, vs the house way)"))
        ax.tick_params(axis="x", rotation=70)
        ax.axhline(0, color="black", lw=0.8)
        ax.set_ylabel("expected result per unit staked")
    fig.tight_layout()
    fig.savefig(out / "value_by_class.png", dpi=90)
    plt.close(fig)
    written.append(str(out / "value_by_class.png"))
    rows = edge_by_setting()
    pd.DataFrame(rows).to_csv(out / "edge_by_setting.csv", index=False)
    written.append(str(out / "edge_by_setting.csv"))
    fig, ax = plt.subplots(figsize=(9, 4.5))
    xs = range(len(rows))
    ax.bar([x - 0.2 for x in xs], [100 * r["house_vs_house"] for r in rows], 0.4, label="house way vs house way")
    ax.bar([x + 0.2 for x in xs], [100 * r["best_vs_house"] for r in rows], 0.4, label="best reply vs house way")
    ax.set_xticks(list(xs), [r["setting"] for r in rows], rotation=30, ha="right")
    ax.set_ylabel("player edge, % of the stake (exact)")
    ax.set_title("pai gow tiles (vegas, Foxwoods house way): one setting changed at a time")
    ax.axhline(0, color="black", lw=0.8)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "edge_by_setting.png", dpi=90)
    plt.close(fig)
    written.append(str(out / "edge_by_setting.png"))
    return written
