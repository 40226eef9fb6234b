"""Reports of results folders: report.md plus one PNG per plot.

Modular on purpose: each plot is one function `plot_*(df, manifest, path) -> title` taking the
combined table of one measure, registered in PLOTS under that table's name; each measure's
markdown section is one function in SECTIONS. Extending the report (e.g. more
strategy-comparison plots) means adding a function and registering it.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from ..strategies.names import sees_all_note

from .results import atomic_write_text
from .figures import (ci_errors as _ci_errors, finish as _finish, plot_text as _t, pyplot as _pyplot,
                      save_figure as _save, unit_label as _unit)


def _deals_text(df: pd.DataFrame) -> str:
    deals = sorted(set(int(d) for d in df["deals"]))
    return f"{deals[0]:,} deals per cell" if len(deals) == 1 else \
        f"{deals[0]:,}–{deals[-1]:,} deals per cell"


def _md_table(df: pd.DataFrame, columns: list[str], digits: int = 4) -> str:
    cols = [c for c in columns if c in df.columns]

    def fmt(v: Any) -> str:
        """A cell as text (`digits` significant digits; NaN as empty)."""
        if isinstance(v, float):
            if math.isnan(v):
                return ""
            return f"{v:.{digits}g}" if abs(v) < 1e6 else f"{v:.0f}"
        return str(v)

    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(fmt(v) for v in row) + " |" for row in df[cols].itertuples(index=False)]
    return "\n".join(lines)


def _rules_groups(df: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    keys = ["rules", "players"]
    return [(f"{r} {p}p", g) for (r, p), g in df.groupby(keys, sort=False)]


# ---------------------------------------------------------------------------
# plots: one function each
# ---------------------------------------------------------------------------

def plot_deal_odds(df: pd.DataFrame, manifest: dict, path: Path) -> str:
    """Probability of each event per 牌頭 method, one marker series per shuffle, 95% CIs, exact lines."""
    plt = _pyplot()
    events = list(dict.fromkeys(df["event"]))
    ncols = min(4, len(events))
    nrows = math.ceil(len(events) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.4 * nrows), squeeze=False)
    methods = list(dict.fromkeys(df["method"]))
    shuffles = list(dict.fromkeys(df["shuffle"]))
    x = range(len(methods))
    for i, ev in enumerate(events):
        ax = axes[i // ncols][i % ncols]
        d = df[df["event"] == ev]
        for j, sh in enumerate(shuffles):
            s = d[d["shuffle"] == sh].set_index("method").reindex(methods)
            off = (j - (len(shuffles) - 1) / 2) * 0.12
            ax.errorbar([k + off for k in x], s["probability"],
                        yerr=_ci_errors(s["probability"], s["ci_low"], s["ci_high"]),
                        fmt="o", ms=3.5, capsize=2, label=sh)
        exact = d["exact"].dropna()
        if len(exact):
            ax.axhline(float(exact.iloc[0]), color="grey", lw=0.8, ls="--", label="exact (uniform)")
        ax.set_title(ev, fontsize=10)
        ax.set_xticks(list(x))
        ax.set_xticklabels(methods, rotation=60, ha="right", fontsize=7)
        ax.set_xlabel(_t("dealing method (牌頭)"), fontsize=8)
        ax.set_ylabel(f"probability per {d['unit'].iloc[0]}", fontsize=8)
    for k in range(len(events), nrows * ncols):
        axes[k // ncols][k % ncols].axis("off")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8, title="shuffle",
               title_fontsize=8, frameon=False)
    title = (f"Dealt-hand events by method and shuffle — rules {', '.join(dict.fromkeys(df['rules']))}, "
             f"{int(df['players'].iloc[0])} players, {_deals_text(df)}, seed {manifest['seed']}")
    fig.suptitle(_t(title), fontsize=11)
    _save(fig, path, rect=(0, 0.07, 1, 1))
    return title


def plot_strategy_ladder(df: pd.DataFrame, manifest: dict, path: Path) -> str:
    """Per rule set with 95% CIs: each strategy's mean payment in duplicate, or each head-to-head pair's difference."""
    plt = _pyplot()
    pairs = _head_to_head(df)
    rows = df[df["kind"] == ("difference" if pairs else "strategy")]
    groups = _rules_groups(rows)
    fig, axes = plt.subplots(1, len(groups), figsize=(4.6 * len(groups), 3.6), squeeze=False)
    unit = _unit()
    for ax, (label, g) in zip(axes[0], groups):
        y = range(len(g))
        ax.barh(list(y), g["mean"], xerr=_ci_errors(g["mean"], g["mean_ci_low"], g["mean_ci_high"]),
                capsize=3, color="#4a7ab5")
        ax.set_yticks(list(y))
        ax.axvline(0, color="black", lw=0.8)
        if pairs:
            ax.set_yticklabels([f"{a} − {b}" for a, b in zip(g["a"], g["b"])])
            ax.set_xlabel(f"paired difference per deal per seat ({unit})")
            ax.set_title(f"{label}: head to head", fontsize=10)
        else:
            ax.set_yticklabels(g["a"])
            ax.set_xlabel(f"mean payment per deal per seat ({unit})")
            ax.set_ylabel("strategy")
            ax.set_title(f"{label}: {', '.join(g['a'])} in duplicate", fontsize=10)
    kind = ", head to head (duplicate)" if pairs else " (duplicate)"
    title = f"Strategy ladder{kind} — {_deals_text(rows)}, seed {manifest['seed']}"
    return _finish(fig, title, path, fontsize=11)


def _head_to_head(df: pd.DataFrame) -> bool:
    """Whether a ladder table holds head-to-head pairs (the `pairs` option) rather than one field."""
    return "field" in df.columns and bool((df["field"] != "all").any())


def plot_bonus_value(df: pd.DataFrame, manifest: dict, path: Path) -> str:
    """Value of holding 至尊 / a quartet (payment holding − not holding) per rule-set cell, 95% CIs."""
    plt = _pyplot()
    unit = _unit()
    d = df[df["holding"].isin(["supreme", "quartet"])].copy()
    d["label"] = d.apply(_cell_text, axis=1)
    labels = list(dict.fromkeys(d["label"]))
    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(labels) + 2), 4.2))
    width = 0.38
    for j, (hold, name) in enumerate((("supreme", "至尊 (4-2 + 2-1)"), ("quartet", "四大賀 quartet"))):
        h = d[d["holding"] == hold].set_index("label").reindex(labels)
        xs = [k + (j - 0.5) * width for k in range(len(labels))]
        ax.bar(xs, h["value"], width, yerr=_ci_errors(h["value"], h["value_ci_low"], h["value_ci_high"]),
               capsize=3, label=_t(name) or hold)
    ax.set_xticks(list(range(len(labels))))
    ax.set_xticklabels([_t(x) for x in labels], fontsize=8)
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xlabel("rule set and bonus settings")
    ax.set_ylabel(f"value of holding it ({unit} per deal)")
    ax.legend(fontsize=8)
    strat = ", ".join(dict.fromkeys(df["strategies"])) if "strategies" in df else ""
    title = f"What 至尊 and 四大賀 are worth — strategies {strat}, {_deals_text(df)}, seed {manifest['seed']}"
    return _finish(fig, title, path, on=ax, fontsize=10)


def plot_payments(df: pd.DataFrame, manifest: dict, path: Path) -> str:
    """Mean payment per seat (戙 per deal) with 95% CIs, one panel per cell."""
    plt = _pyplot()
    unit = _unit()
    cells = list(dict.fromkeys(df["cell"]))
    fig, axes = plt.subplots(1, len(cells), figsize=(3.8 * len(cells), 3.4), squeeze=False)
    for ax, c in zip(axes[0], cells):
        g = df[df["cell"] == c]
        ax.bar([f"{s}:{p}" for s, p in zip(g["seat"], g["policy"])], g["mean_payment"],
               yerr=_ci_errors(g["mean_payment"], g["mean_payment_ci_low"], g["mean_payment_ci_high"]),
               capsize=3)
        ax.axhline(0, color="black", lw=0.8)
        ax.set_xlabel("seat:strategy")
        ax.set_ylabel(f"mean payment ({unit} per deal)")
        ax.set_title(_cell_text(g.iloc[0]), fontsize=9)
    title = f"Mean payment per seat — {_deals_text(df)}, seed {manifest['seed']}"
    return _finish(fig, title, path, fontsize=11)


def _cell_text(row: pd.Series) -> str:
    parts = [str(row["rules"])]
    if "supreme_bonus_per_opponent" in row:
        close = ", 包尊" if row.get("supreme_close_on") else ""
        parts.append(f"賀尊 {row['supreme_bonus_per_opponent']}, 四大賀 {row['quartet_bonus_per_opponent']}{close}")
    else:
        for k in ("supreme_bonus", "quartet_bonus", "supreme_close"):
            if k in row and not (isinstance(row[k], float) and math.isnan(row[k])):
                parts.append(f"{k}={row[k]}")
    return "\n".join(parts)


PLOTS: dict[str, list[tuple[str, Callable[[pd.DataFrame, dict, Path], str]]]] = {
    "deal_odds": [("deal_odds.png", plot_deal_odds)],
    "strategy_ladder": [("strategy_ladder.png", plot_strategy_ladder)],
    "bonus_value": [("bonus_value.png", plot_bonus_value)],
    "payments": [("payments.png", plot_payments)],
}

# ---------------------------------------------------------------------------
# markdown sections: one function per table
# ---------------------------------------------------------------------------

DESCRIPTIVE = ["rules", "players", "method", "shuffle", "strategies"]


def section_deal_odds(df: pd.DataFrame) -> str:
    """Probability table: events × (method, shuffle)."""
    return _md_table(df, DESCRIPTIVE + ["event", "unit", "trials", "hits", "probability", "ci_low",
                                        "ci_high", "exact"], digits=5)


def section_strategy_ladder(df: pd.DataFrame) -> str:
    """Strategy means and paired differences."""
    s = df[df["kind"] == "strategy"]
    d = df[df["kind"] == "difference"]
    note = sees_all_note(list(s["a"].unique()))
    field = ["field"] if _head_to_head(df) else []
    same = ("Mean payment per deal per seat played (戙); each field (a pair alone at the table, head to head) "
            "plays the same deals:" if field else "Mean payment per deal per seat played (戙), same deals for every strategy:")
    return ((note[0].upper() + note[1:] + ".\n\n" if note else "")
            + same + "\n\n"
            + _md_table(s, ["rules", "players", *field, "a", "n", "mean", "mean_ci_low", "mean_ci_high", "closer_rate"])
            + "\n\nPaired differences (a − b, 戙 per deal per seat):\n\n"
            + _md_table(d, ["rules", "players", *field, "a", "b", "mean", "mean_ci_low", "mean_ci_high", "significant"]))


def section_bonus_value(df: pd.DataFrame) -> str:
    """Value of holding 至尊 / quartet, and the bonuses received."""
    extra = [c for c in ("supreme_bonus_per_opponent", "quartet_bonus_per_opponent", "supreme_close_on")
             if c in df.columns]
    return ("Value = mean payment of a seat holding it − mean payment of a seat not holding it "
            "(戙 per deal, bonuses included); bonus columns are the mean bonus received. Settings: "
            "賀尊 (supreme) and 四大賀 (quartet) bonus per opponent, 包尊 (supreme_close) on/off.\n\n"
            + _md_table(df, ["rules", *extra, "strategies", "holding", "n", "mean_payment", "value",
                             "value_ci_low", "value_ci_high", "mean_bonus_supreme", "mean_bonus_supreme_close",
                             "mean_bonus_quartet"]))


def section_payments(df: pd.DataFrame) -> str:
    """Per-seat means."""
    return _md_table(df, DESCRIPTIVE + ["seat", "policy", "n", "mean_payment", "mean_payment_ci_low",
                                        "mean_payment_ci_high", "closer_rate", "mean_dong"])


SECTIONS: dict[str, Callable[[pd.DataFrame], str]] = {
    "deal_odds": section_deal_odds,
    "strategy_ladder": section_strategy_ladder,
    "bonus_value": section_bonus_value,
    "payments": section_payments,
}


def write_report(folder: str | Path, manifest: dict, tables: dict[str, pd.DataFrame]) -> list[str]:
    """Write report.md and the plots of every table into `folder`; returns the file names."""
    folder = Path(folder)
    cfg = manifest["config"]
    lines = [f"# {cfg['name']}", ""]
    if cfg.get("description"):
        lines += [cfg["description"].strip(), ""]
    lines += [f"- measure: `{cfg['measure']}`", f"- seed: {cfg['seed']}",
              f"- cells: {len(cfg['cells'])}, deals: {manifest['deals_total']:,} "
              f"in {manifest['chunks_total']} chunks of ≤ {cfg['chunk_size']:,}",
              "- grid: " + "; ".join(f"{k} = {v}" for k, v in cfg["grid"].items()),
              f"- config fingerprint: `{manifest['fingerprint'][:16]}`",
              f"- reproduce: `{manifest['invoked']}`" if manifest.get("invoked") else
              f"- reproduce: `tjsim experiment run {manifest.get('source', 'FILE.toml')} --out DIR`"]
    if cfg.get("options"):
        lines += [f"- options: {cfg['options']}"]
    lines += [""]
    written = []
    for name, df in tables.items():
        lines += [f"## {name}", ""]
        for fname, fn in PLOTS.get(name, []):
            title = fn(df, manifest, folder / fname)
            written.append(fname)
            lines += [f"![{title}]({fname})", ""]
        section = SECTIONS.get(name)
        lines += [section(df) if section else _md_table(df, list(df.columns)), ""]
        lines += [f"Full table: [{name}.csv]({name}.csv)", ""]
    atomic_write_text(folder / "report.md", "\n".join(lines))
    return ["report.md", *written]
