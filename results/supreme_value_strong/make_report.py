#!/usr/bin/env python3
"""report.md: the value of 至尊 and 四大賀 with pimc at every seat, beside heuristic at every seat.

Reads hk.csv and folk.csv (run.sh: `tjsim value … --policy pimc`) and the heuristic figures of
results/supreme_value (200,000 deals, same seed). Every sentence is chosen from the 95%
intervals it quotes. The pimc − heuristic difference is computed as if the two runs were
independent (its interval adds the two variances); they share their first deals, which makes
the true interval narrower, so this is conservative.
"""
from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
HEUR = HERE.parent / "supreme_value"
Z = 1.959963984540054


def load(path: Path, setting: str | None = None) -> pd.DataFrame:
    """One value CSV, the rows of its rule set as played (folk: 賀尊 2, the preset's)."""
    df = pd.read_csv(path, encoding="utf-8-sig")
    if setting is not None and "setting" in df.columns and (df["setting"] == setting).any():
        df = df[df["setting"] == setting]
    elif "setting" in df.columns:
        df = df[df["setting"] == df["setting"].iloc[0]]
    return df.set_index(["feature", "method", "component"])


def deals_of(folder: str) -> str:
    """The deals of a results folder made by `tjsim value --out-dir`, from its manifest."""
    import json  # noqa: PLC0415

    manifest = json.loads((HERE / folder / "manifest.json").read_text(encoding="utf-8"))
    cfg = manifest.get("command") or manifest["config"]
    return f"{cfg['deals'] if 'deals' in cfg else cfg['cells'][0]['deals']:,}"


def fmt(v: float, lo: float, hi: float) -> str:
    """'+1.234 [+1.1, +1.3]'."""
    return f"{v:+.3f} [{lo:+.3f}, {hi:+.3f}]"


def sign(lo: float, hi: float) -> int:
    """+1 / −1 when the interval lies above / below 0, else 0."""
    return 1 if lo > 0 else -1 if hi < 0 else 0


WORD = {1: "positive", -1: "negative", 0: "not distinguishable from 0"}


def main() -> None:
    """Write report.md next to this script."""
    lines = ["# 至尊 and 四大賀 under strong play (issue 11)", "",
             "The value to its holder, in 戙 per deal, of 至尊 (4-2 + 2-1) and of a 四大賀 quartet, measured "
             "as in `results/supreme_value` (conditional: holders − non-holders on the same deals; "
             "counterfactual: the holder's payment − the same deal replayed with the feature's tiles "
             "swapped for random opponents' tiles), with **pimc (pimc:16:3: 16 worlds, exact from tricks of 3 tiles a hand, "
             "the default until 2026-12-02) at every seat** instead of "
             "heuristic at every seat. pimc sees only what its seat sees. Intervals are 95%, clustered by "
             "deal. The pimc − heuristic column treats the two runs as independent (conservative). "
             "Reproduce: `run.sh`, then `make_report.py`.", ""]
    verdicts = []
    for rules, setting in (("hk", "as set"), ("folk", "supreme_bonus=2")):
        pimc = load(HERE / f"{rules}.csv")
        heur = load(HEUR / f"{rules}.csv", setting)
        deals_note = ""
        more = HERE / f"{rules}_supreme.csv"  # the longer 至尊-only run (run.sh), when it has finished
        if more.exists():
            sup = load(more)
            pimc = pd.concat([pimc[pimc.index.get_level_values("feature") != "supreme"], sup])
            pimc = pimc.loc[sup.index.tolist() + [i for i in pimc.index if i not in set(sup.index)]]
            deals_note = (f"The 至尊 rows come from the longer run `{more.name}` ({deals_of(more.stem)} deals, "
                          f"folder `{more.stem}/`); the quartet rows from `{rules}.csv`.")
        lines += [f"## {rules}", "", "| feature | method | component | holders (pimc) | pimc | heuristic | pimc − heuristic |",
                  "|---|---|---|---|---|---|---|"]
        for (feat, method, comp), r in pimc.iterrows():
            if comp not in ("total", "tricks_close", "bonus"):
                continue
            h = heur.loc[(feat, method, comp)] if (feat, method, comp) in heur.index else None
            hp = fmt(r["value"], r["ci_low"], r["ci_high"])
            if h is None:
                lines.append(f"| {feat} | {method} | {comp} | {int(r['holders'])} | {hp} | — | — |")
                continue
            d = r["value"] - h["value"]
            se = math.sqrt(float(r["se"]) ** 2 + float(h["se"]) ** 2)
            lines.append(f"| {feat} | {method} | {comp} | {int(r['holders'])} | {hp} | "
                         f"{fmt(h['value'], h['ci_low'], h['ci_high'])} | {fmt(d, d - Z * se, d + Z * se)} |")
        lines += ["", deals_note, ""] if deals_note else [""]
        if ("supreme", "counterfactual", "total") in pimc.index:
            p = pimc.loc[("supreme", "counterfactual", "total")]
            h = heur.loc[("supreme", "counterfactual", "total")]
            sp, sh = sign(p["ci_low"], p["ci_high"]), sign(h["ci_low"], h["ci_high"])
            if sh == sp:
                why = "the sign does not depend on the bot"
            elif sp == 0:
                why = "under pimc the value is not distinguishable from 0 with these deals, so the sign cannot be told"
            else:
                why = "the sign was the bot's"
            verdicts.append(f"- **{rules}**: the counterfactual value of 至尊 is {WORD[sh]} under heuristic "
                            f"({fmt(h['value'], h['ci_low'], h['ci_high'])}) and {WORD[sp]} under pimc "
                            f"({fmt(p['value'], p['ci_low'], p['ci_high'])}): {why}.")
    lines[4:4] = ["## Headline", "", *verdicts, ""]
    (HERE / "report.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
