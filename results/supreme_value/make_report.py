"""Write results/supreme_value/report.md (and the PNGs) from the two value folders made by run.sh."""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

import pandas as pd  # noqa: E402

from tianjiu_sim.output.strategy_plots import strategy_sections  # noqa: E402
from tianjiu_sim.output.results import command_config, read_results  # noqa: E402


def ci(row) -> str:
    """'+1.2345 [+1.1, +1.3]'."""
    return f"{row['value']:+.3f} [{row['ci_low']:+.3f}, {row['ci_high']:+.3f}]"


def sign(row) -> int:
    """+1 / −1 when the 95% CI lies above / below 0, 0 when it holds 0."""
    return 1 if row["ci_low"] > 0 else -1 if row["ci_high"] < 0 else 0


def signed(row, pos: str, neg: str, zero: str) -> str:
    """The phrase the CI supports: `pos` above 0, `neg` below 0, `zero` when 0 is inside."""
    return {1: pos, -1: neg, 0: zero}[sign(row)]


def agreement(a, b) -> str:
    """How two measurements' CIs relate in sign."""
    if sign(a) * sign(b) < 0:
        return "the two measurements disagree in sign"
    if sign(a) == sign(b) != 0:
        return "the two measurements agree in sign"
    return "at least one of the two is not distinguishable from 0"


def differ(a, b) -> bool:
    """Whether two values' 95% CIs do not overlap (a conservative test that they differ)."""
    return a["ci_low"] > b["ci_high"] or b["ci_low"] > a["ci_high"]


def headline(s: pd.DataFrame, rules: str) -> list[str]:
    """Rows: rules, setting, method, total, tricks_close, bonus (each with CI), bonus share of the total."""
    out = []
    for (setting, method), g in s.groupby(["setting", "method"], sort=False):
        g = g.set_index("component")
        total, tricks, bonus = g.loc["total"], g.loc["tricks_close"], g.loc["bonus"]
        if abs(bonus["value"]) < 1e-9:
            share = "0%"
        elif total["value"] <= 0:
            share = "— (total ≤ 0)"
        else:
            share = f"{bonus['value'] / total['value']:.0%}"
        out.append(f"| {rules} | {setting} | {method} | {ci(total)} | {ci(tricks)} | {ci(bonus)} | "
                   f"{g.loc['bonus_supreme', 'value']:+.3f} | {g.loc['bonus_supreme_close', 'value']:+.3f} | "
                   f"{g.loc['bonus_quartet', 'value']:+.3f} | {share} |")
    return out


def report_lines(folder: Path = HERE) -> list[str]:
    """The report's text above the plot sections, every claim chosen by the numbers it quotes."""
    folk_m, folk = read_results(folder / "folk")
    fs, hs = folk["value_summary"], read_results(folder / "hk")[1]["value_summary"]

    def v(s, setting, method, comp):
        return s[(s["setting"] == setting) & (s["method"] == method) & (s["component"] == comp)].iloc[0]

    f2c, f2x = v(fs, "supreme_bonus=2", "conditional", "total"), v(fs, "supreme_bonus=2", "counterfactual", "total")
    f0x, f1x = v(fs, "supreme_bonus=0", "counterfactual", "total"), v(fs, "supreme_bonus=1", "counterfactual", "total")
    f4x = v(fs, "supreme_bonus=4", "counterfactual", "total")
    fb2 = v(fs, "supreme_bonus=2", "counterfactual", "bonus_supreme")
    ft2 = v(fs, "supreme_bonus=2", "counterfactual", "tricks_close")
    hc, hx = v(hs, "as set", "conditional", "total"), v(hs, "as set", "counterfactual", "total")
    slope = (f4x["value"] - f0x["value"]) / 4
    cfg = command_config(folk_m)
    chunks = folk["value_chunks"]
    chunk = int(chunks["cluster_deals" if "cluster_deals" in chunks else "deals"].max())
    bonus_part = v(fs, "supreme_bonus=2", "counterfactual", "bonus")
    # each sentence below is chosen by the intervals it states, never written in advance
    folk_bonus = (
        "All of it is bonus: " if sign(ft2) <= 0 and sign(bonus_part) > 0 else
        "The bonus is part of it: " if sign(bonus_part) > 0 else "The bonus adds nothing distinguishable from 0: ")
    folk_tricks = signed(ft2, "on tricks and the close the holder does better than with two random tiles instead",
                         "on tricks and the close the holder does worse than with two random tiles instead",
                         "on tricks and the close the holder does no differently (within the CI) from two random "
                         "tiles")
    stakes = ("the table's stakes, not the play, make 至尊 valuable" if sign(f0x) <= 0 < sign(f4x) else
              "至尊 is worth something even without 賀尊" if sign(f0x) > 0 else
              "even a 賀尊 of 4 does not make 至尊 distinguishably valuable")
    increasing = all(differ(hi, lo) and hi["value"] > lo["value"] for lo, hi in ((f0x, f1x), (f1x, f2x), (f2x, f4x)))
    slope_txt = (f"each extra 戙 of 賀尊 per opponent adds about {slope:.2f} 戙 to the counterfactual value "
                 "(every step of the sweep is distinguishable from the previous one)" if increasing else
                 f"from 賀尊 0 to 4 the counterfactual value changes by {slope:.2f} 戙 per 戙 of 賀尊 on average "
                 "(not every step of the sweep is distinguishable from the previous one)")
    hk_cond = signed(hc, "Hands with 至尊 do better than other hands", "Hands with 至尊 do worse than other hands",
                     "Hands with 至尊 do no differently (within the CI) from other hands")
    hk_cf = signed(hx, "replacing the pair by two random opponents' tiles hurts the holder",
                   "replacing the pair by two random opponents' tiles helps the holder",
                   "replacing the pair by two random opponents' tiles makes no difference distinguishable from 0")
    why = (" (a likely reason: 4-2 and 2-1 are the two weakest military singles, the pair wins one 2-戙 trick "
           "only when its holder is on lead, and the exchange also hands the opponents two weak tiles)"
           if sign(hx) < 0 else "")
    hk_worth = signed(hx, "more than", "less than", "no different from")
    lines = [
        "# What is 至尊 (4-2 + 2-1) worth to the player who holds it?", "",
        f"Strategies: `{','.join(cfg['policies'])}` at every seat; {cfg['deals']:,} deals per rule set "
        f"(perfect shuffle, round dealing), seed {folk_m['seed']}; {int(f2c['holders']):,} hands held 至尊 "
        f"({f2c['share']:.2%} of hands). Values are in 戙 per deal in which the hand holds 至尊, with 95% "
        f"intervals clustered by chunks of {chunk:,} deals. Reproduce with `results/supreme_value/run.sh`. "
        "Every sentence of the headline is chosen by `make_report.py` from the intervals it quotes "
        "(\"positive\", \"negative\" or \"not distinguishable from 0\" by whether the 95% CI lies above, below "
        "or around 0).", "",
        "Two measurements on the same deals:",
        "- **conditional** — mean payment of hands holding 至尊 minus hands without it;",
        "- **counterfactual** — the holder's payment minus the same deal replayed after 4-2 and 2-1 were swapped "
        "with two random tiles of the opponents (every other tile in place, same decision and dice streams).", "",
        "## Headline", "",
        f"- **folk** (賀尊 2 per opponent, 包尊 on, 四大賀 4): 至尊 is worth {ci(f2c)} (conditional, "
        f"{signed(f2c, 'positive', 'negative', 'not distinguishable from 0')}) and {ci(f2x)} (counterfactual, "
        f"{signed(f2x, 'positive', 'negative', 'not distinguishable from 0')}) per deal. {folk_bonus}"
        f"賀尊 alone brings {ci(fb2)}, while {folk_tricks}: {ci(ft2)}.",
        f"- Sweeping the 賀尊 size: {slope_txt}; with 賀尊 = 0 the value is {ci(f0x)}, with 1 it is {ci(f1x)}, "
        f"with 4 {ci(f4x)}: {stakes}.",
        f"- **hk** (bonuses off): conditional {ci(hc)}, counterfactual {ci(hx)} — {agreement(hc, hx)}. "
        f"{hk_cond}, and {hk_cf}{why}. In hk, without a 賀尊, 至尊 is worth {hk_worth} two random tiles "
        "of the opponents.", "",
        "The bonus share, separately (bonus share = bonus part ÷ total value; above 100% when the tricks part "
        "is negative):", "",
        "| rules | setting | method | total | tricks & close | all bonuses | 賀尊 | 包尊 | 四大賀 | bonus share |",
        "|---|---|---|---|---|---|---|---|---|---|",
        *headline(fs, "folk"), *headline(hs, "hk"), "",
        "Caveats: the values are those of the project's `heuristic` strategy at all four seats (how it leads "
        "至尊 decides how often 賀尊 is paid); the counterfactual never draws tiles of the feature's own kinds; "
        "the conditional value also includes what comes with holding 至尊 (two fewer other tiles).", "",
    ]
    return lines


def main() -> None:
    """Build the report."""
    lines = report_lines()
    for section in strategy_sections(HERE):
        lines += [section.replace("\n## ", "\n### ").replace("## ", "### ", 1), ""]
    (HERE / "report.md").write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {HERE / 'report.md'}")


if __name__ == "__main__":
    main()
