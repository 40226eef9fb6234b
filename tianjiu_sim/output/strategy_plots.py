"""Plots and report sections for the strategy analyses (`compare`, `value` results folders).

Every plot function takes tidy DataFrames (as written by `--out-dir`), a path and a small
`info` dict (rules, strategies, deals, seed) for the title, and returns the title.
`strategy_sections(folder)` turns whatever compare / value results a folder (or its
immediate subfolders) holds into markdown sections with image links, for `tjsim report`.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .figures import UNIT, ci_errors as _ci_errors, finish as _finish, plot_text as _t, pyplot as _plt
from .results import command_config, read_results

COMPONENT_NAMES = {"total": "total", "tricks_close": "tricks & close", "bonus": "all bonuses",
                   "bonus_supreme": "賀尊", "bonus_supreme_close": "包尊", "bonus_quartet": "四大賀"}


def _who(info: dict) -> str:
    return (f"rules {info.get('rules', '?')}, strategies {', '.join(info.get('policies', []))}, "
            f"{int(info.get('deals', 0)):,} deals")


def plot_strategy_means(summary: pd.DataFrame, path: Path, info: dict) -> str:
    """Mean payment per deal per seat played of each strategy, 95% CI bars (from compare_summary)."""
    plt = _plt()
    s = summary[summary["kind"] == "strategy"].sort_values("mean")
    fig, ax = plt.subplots(figsize=(7.5, 1.0 + 0.6 * len(s)))
    y = np.arange(len(s))
    ax.barh(y, s["mean"], xerr=_ci_errors(s["mean"], s["ci_low"], s["ci_high"]), capsize=4,
            color=["#c44e52" if m < 0 else "#4c72b0" for m in s["mean"]])
    for yi, m, hi, lo in zip(y, s["mean"], s["ci_high"], s["ci_low"]):
        ax.annotate(f"{m:+.3f} [{lo:+.3f}, {hi:+.3f}]", (max(m, hi, 0), yi), xytext=(6, 0),
                    textcoords="offset points", va="center", fontsize=8)
    ax.set_yticks(y)
    ax.set_yticklabels(s["a"])
    ax.axvline(0, color="black", lw=0.8)
    lo, hi = float(min(0, s["ci_low"].min())), float(max(0, s["ci_high"].max()))
    ax.set_xlim(lo - 0.05 * (hi - lo), hi + 0.45 * (hi - lo))
    ax.set_xlabel(_t(f"mean payment per deal per seat played ({UNIT}), 95% CI"))
    ax.set_ylabel("strategy")
    title = f"Strategies in duplicate — {_who(info)}"
    return _finish(fig, title, path, on=ax, fontsize=10)


def plot_payment_distribution(dist: pd.DataFrame, path: Path, info: dict) -> str:
    """Distribution per strategy of the payment per seat-play and of the 戙 won (compare_distribution)."""
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    policies = list(dict.fromkeys(dist["policy"]))
    for ax, (measure, label) in zip(axes, (("payment", f"payment per deal ({UNIT})"),
                                           ("dong", f"{UNIT} won per deal"))):
        d = dist[dist["measure"] == measure]
        values = sorted(set(int(v) for v in d["value"]))
        width = 0.8 / max(1, len(policies))
        for j, pol in enumerate(policies):
            g = d[d["policy"] == pol].set_index("value")["count"].reindex(values, fill_value=0)
            share = g / g.sum()
            if measure == "payment":
                # many distinct payments: markers on thin lines read better than 3 × 40 slim bars
                ax.plot(values, share.to_numpy(), "-o", ms=3, lw=0.8, label=pol)
            else:
                ax.bar(np.array(values) + (j - (len(policies) - 1) / 2) * width, share.to_numpy(), width, label=pol)
        ax.set_xlabel(_t(label))
        ax.set_ylabel("share of seat-deals")
        if measure == "dong":
            ax.set_xticks(values)
        ax.legend(fontsize=8, title="strategy", title_fontsize=8)
    title = f"Results per seat-deal by strategy — {_who(info)}"
    return _finish(fig, title, path, fontsize=10)


def plot_convergence(chunks: pd.DataFrame, path: Path, info: dict) -> str:
    """Running mean with its 95% CI band against deals played, per strategy and per difference."""
    from ..stats.tidy import running_moments  # noqa: PLC0415

    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    for ax, kind, what in ((axes[0], "strategy", "mean payment"), (axes[1], "difference", "paired difference")):
        r = running_moments(chunks[chunks["kind"] == kind], ["a", "b"])
        for (a, b), g in r.groupby(["a", "b"], sort=False, dropna=False):
            label = a if kind == "strategy" else f"{a} − {b}"
            line, = ax.plot(g["cum_deals"], g["mean"], lw=1.2, label=label)
            ax.fill_between(g["cum_deals"], g["ci_low"], g["ci_high"], color=line.get_color(), alpha=0.25, lw=0)
        ax.axhline(0, color="black", lw=0.6)
        ax.set_xlabel("deals played")
        ax.set_ylabel(_t(f"{UNIT} per deal per seat"))
        ax.set_title(f"{what}, running, 95% CI band", fontsize=9)
        ax.legend(fontsize=8)
    title = f"Convergence — {_who(info)}"
    return _finish(fig, title, path, fontsize=10)


def plot_feature_values(summary: pd.DataFrame, path: Path, info: dict) -> str:
    """Feature values with 95% CIs: per component and method, or against the swept bonus size."""
    plt = _plt()
    settings = list(dict.fromkeys(summary["setting"]))
    feats = list(dict.fromkeys(summary["feature"]))
    fig, axes = plt.subplots(len(feats), 1, figsize=(9.5, 4.0 * len(feats)), squeeze=False)
    methods = ("conditional", "counterfactual")
    for ax, feat in zip(axes[:, 0], feats):
        s = summary[summary["feature"] == feat]
        if len(settings) > 1:
            sweep_col = _sweep_column(s)
            comps = ("total", "tricks_close", "bonus")
            # colour = component, line style = method: the two measurements of one component pair up
            for comp, colour in zip(comps, ("#4c72b0", "#55a868", "#c44e52")):
                for m, style in zip(methods, ("-o", "--s")):
                    g = s[(s["component"] == comp) & (s["method"] == m)].sort_values(sweep_col)
                    x = g[sweep_col].astype(float).to_numpy()
                    ax.plot(x, g["value"], style, ms=4, color=colour, label=_t(f"{COMPONENT_NAMES[comp]}, {m}"))
                    ax.fill_between(x, g["ci_low"], g["ci_high"], color=colour, alpha=0.15, lw=0)
            ax.set_xlabel(_t(f"{sweep_col} ({UNIT} from each opponent)"))
            ax.set_xticks(sorted(set(s[sweep_col].astype(float))))
        else:
            comps = [c for c in ("total", "tricks_close", "bonus_supreme", "bonus_supreme_close", "bonus_quartet")
                     if c in set(s["component"])]
            x = np.arange(len(comps))
            for j, m in enumerate(methods):
                g = s[s["method"] == m].set_index("component").reindex(comps)
                ax.bar(x + (j - 0.5) * 0.38, g["value"], 0.38,
                       yerr=_ci_errors(g["value"], g["ci_low"], g["ci_high"]), capsize=3, label=m)
            ax.set_xticks(x)
            off = set(info.get("off", ()))
            ax.set_xticklabels([_t(COMPONENT_NAMES[c] + ("\n(off in these rules)" if c in off else ""))
                                for c in comps])
            ax.set_xlabel("component of the value")
        ax.axhline(0, color="black", lw=0.8)
        ax.set_ylabel(_t(f"value to the holder ({UNIT} per deal)"))
        ax.set_title(_t(f"'{feat}': with − without, 95% CI"), fontsize=9)
        ax.legend(fontsize=7, ncol=2 if len(settings) > 1 else 1)
    title = f"Value of holding {', '.join(feats)} — {_who(info)}"
    return _finish(fig, title, path, fontsize=10)


def _sweep_column(s: pd.DataFrame) -> str:
    for c in ("supreme_bonus", "quartet_bonus", "supreme_close_reward"):
        if c in s and s[c].nunique() > 1:
            return c
    return "supreme_bonus"


def plot_session_risk(totals: pd.DataFrame, path: Path, info: dict) -> str:
    """Distribution of each seat's session total (what a player risks in a session), 5%/95% marked."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 3.8))
    for seat, g in totals.groupby("seat"):
        t = g["total"].to_numpy()
        *_, patches = ax.hist(t, bins=60, histtype="step", lw=1.2, density=True,
                              label=f"seat {seat} ({g['policy'].iloc[0]})")
        for v in np.quantile(t, [0.05, 0.95]):
            ax.axvline(v, color=patches[0].get_edgecolor(), ls="--", lw=0.8)
    ax.set_xlabel(_t(f"session total ({UNIT}); dashed: each seat's 5% and 95% quantiles"))
    ax.set_ylabel("density")
    ax.legend(fontsize=8)
    title = f"Session results, {info.get('length', '?')} deals each — {_who(info)}"
    return _finish(fig, title, path, on=ax, fontsize=10)


# ---------------------------------------------------------------------------
# report sections
# ---------------------------------------------------------------------------

def _md(df: pd.DataFrame, digits: int = 4) -> str:
    def fmt(v: Any) -> str:
        if isinstance(v, (float, np.floating)):
            return "" if math.isnan(v) else f"{v:.{digits}f}"
        return str(v)

    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(fmt(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join(lines)


def _info(manifest: dict) -> dict:
    cfg = command_config(manifest)
    return {"rules": cfg.get("rules"), "policies": cfg.get("policies", []), "deals": cfg.get("deals", 0),
            "seed": manifest.get("seed")}


def _rel(path: Path, base: Path) -> str:
    return path.relative_to(base).as_posix()


def _chunk_deals(chunks: pd.DataFrame) -> pd.DataFrame:
    """compare_chunks with `deals` = the deals of each chunk (a driver folder calls it `chunk_deals`)."""
    if "chunk_deals" in chunks:
        chunks = chunks.drop(columns=["deals"], errors="ignore").rename(columns={"chunk_deals": "deals"})
    return chunks


def compare_section(folder: Path, base: Path) -> str:
    """Markdown (with plots written into `folder`) for a `compare --out-dir` folder."""
    manifest, t = read_results(folder)
    info = _info(manifest)
    cfg = command_config(manifest)
    out = [f"## Strategy comparison — rules {cfg['rules']}, {', '.join(cfg['policies'])}", "",
           f"Duplicate: {cfg['deals']:,} deals, each replayed {cfg['replays']} times with the strategies "
           f"rotated through the seats; seed {manifest['seed']}; dealing {cfg['method']}/{cfg['shuffle']}.", ""]
    s = t["compare_summary"]
    for fname, fn, table in (("compare_means.png", plot_strategy_means, s),
                             ("compare_distribution.png", plot_payment_distribution, t["compare_distribution"]),
                             ("compare_convergence.png", plot_convergence, _chunk_deals(t["compare_chunks"]))):
        title = fn(table, folder / fname, info)
        out += [f"![{title}]({_rel(folder / fname, base)})", ""]
    strat = s[s["kind"] == "strategy"][["a", "n", "mean", "ci_low", "ci_high"]]
    diff = s[s["kind"] == "difference"][["a", "b", "mean", "ci_low", "ci_high"]]
    vr = s[s["kind"] == "variance_ratio"].set_index("a")["mean"]
    out += ["Mean payment per deal per seat played (戙, 95% CI):", "",
            _md(strat.rename(columns={"a": "strategy", "n": "deals"})), "",
            "Paired differences (戙 per deal per seat):", "", _md(diff), "",
            f"Variance ratio (independent deals ÷ duplicate, same number of deal plays): {vr.get('all', math.nan):.4f}; "
            f"at the same number of deals: {vr.get('per_deal', math.nan):.4f}.", ""]
    return "\n".join(out)


def value_section(folder: Path, base: Path) -> str:
    """Markdown (with the value plot written into `folder`) for a `value --out-dir` folder."""
    manifest, t = read_results(folder)
    info = _info(manifest)
    cfg = command_config(manifest)
    s = t["value_summary"]
    st = cfg.get("settings", {})
    info["off"] = [c for c, on in (("bonus_supreme", st.get("supreme_bonus", 1)),
                                   ("bonus_supreme_close", st.get("supreme_close", True)),
                                   ("bonus_quartet", st.get("quartet_bonus", 1))) if not on]
    if s["setting"].nunique() > 1:
        info["off"] = []
    title = plot_feature_values(s, folder / "value.png", info)
    shown = s[s["component"].isin(["total", "tricks_close", "bonus"])]
    cols = ["feature", "setting", "method", "component", "holders", "value", "ci_low", "ci_high"]
    bonus = s[s["component"].isin(["bonus_supreme", "bonus_supreme_close", "bonus_quartet"])]
    return "\n".join([
        f"## Value of {', '.join(cfg['features'])} — rules {cfg['rules']}, strategies {', '.join(cfg['policies'])}",
        "", f"{cfg['deals']:,} deals, seed {manifest['seed']}, dealing {cfg['method']}/{cfg['shuffle']}, "
            f"banker streak {cfg.get('streak', 1)}.", "",
        f"![{title}]({_rel(folder / 'value.png', base)})", "",
        "Value to the holder (戙 per deal, 95% CI); `tricks_close` is the settlement (tricks, close, multipliers), "
        "`bonus` the bonuses:", "", _md(shown[cols]), "",
        "The bonus split (賀尊 = bonus_supreme, 包尊 = bonus_supreme_close, 四大賀 = bonus_quartet):", "",
        _md(bonus[cols]), ""])


def session_section(folder: Path, base: Path) -> str:
    """Markdown (with the session-risk plot written into `folder`) for a session results folder."""
    manifest, t = read_results(folder)
    cfg = command_config(manifest)
    info = dict(_info(manifest), length=cfg.get("length"))
    title = plot_session_risk(t["session_totals"], folder / "session_risk.png", info)
    seats = t["session_seats"][["seat", "policy", "mean_per_deal", "ci_low", "ci_high", "session_sd",
                                "session_q05", "session_q95", "banker_share"]]
    st = t["session_streaks"]
    return "\n".join([
        f"## Sessions of {cfg['length']} deals (飛庄) — rules {cfg['rules']}, strategies {', '.join(cfg['policies'])}",
        "", f"{cfg['sessions']:,} sessions, seed {manifest['seed']}, dealing {cfg['method']}/{cfg['shuffle']} "
            f"from {cfg['from']}.", "", f"![{title}]({_rel(folder / 'session_risk.png', base)})", "",
        "Per seat (戙): mean per deal with 95% CI; the session total's sd and 5% / 95% quantiles:", "", _md(seats), "",
        "Banker streak of each deal:", "",
        _md(st[st["measure"] == "deals_at_streak"][["value", "count", "share"]].rename(columns={"value": "streak"})),
        ""])


def _folders(results_dir: Path) -> list[Path]:
    cands = [results_dir] + sorted(p for p in results_dir.iterdir() if p.is_dir())
    return [p for p in cands if (p / "manifest.json").is_file()]


def strategy_sections(results_dir: Path) -> list[str]:
    """Markdown sections (plots written next to their data) for every compare/value/session folder in or under results_dir."""
    import json  # noqa: PLC0415

    results_dir = Path(results_dir)
    sections = []
    for folder in _folders(results_dir):
        try:
            kind = json.loads((folder / "manifest.json").read_text(encoding="utf-8")).get("kind")
        except (OSError, ValueError):
            continue
        if kind == "compare":
            sections.append(compare_section(folder, results_dir))
        elif kind == "value":
            sections.append(value_section(folder, results_dir))
        elif kind == "session":
            sections.append(session_section(folder, results_dir))
    return sections
