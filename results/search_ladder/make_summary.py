#!/usr/bin/env python3
"""summary.md of the strength ladder: every step head to head, and the share of the heuristic → oracle gap pimc closes.

The ladder random < greedy < heuristic < pimc < oracle is measured one step at a time, each
step a duplicate run of its two strategies alone at the table (the `pairs` option of the
strategy_ladder measure):
- greedy − random and heuristic − greedy: results/strategy_ladder (200,000 deals a table: the
  engine's strategies are cheap, and their steps are small);
- pimc − heuristic, oracle − pimc and oracle − heuristic: this folder
  (`tjsim experiment run experiments/search_ladder.toml`).

The gap share (pimc − heuristic) / (oracle − heuristic) is a ratio of two paired differences
measured head to head on the same deals; it gets a cluster-robust interval over this folder's
chunks (stats.ratio_ci), read from its chunk files (results/search_ladder/chunks, kept out of
git). Every sentence is chosen from the intervals it quotes.

Tables measured again on more deals in another folder of the same design (`--more`; by default
results/search_ladder_hk, hk on 3,000 deals) get a section of their own at the end.

`make_summary.py --folder results/search_ladder_w32 --pimc pimc:32 --horizon 3` writes the same
summary for another folder of the same design whose pimc plays other settings (that folder was
made when pimc was exact from 3 tiles a hand with 4 players).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from tianjiu_sim.stats import ratio_ci  # noqa: E402

LADDER = ["random", "greedy", "heuristic", "pimc", "oracle"]
BOTS = HERE.parent / "strategy_ladder"


def chunk_rows(folder: Path) -> pd.DataFrame:
    """Every chunk's ladder rows, with its cell and chunk number."""
    rows = []
    for f in sorted((folder / "chunks").glob("c*/k*.json")):
        d = json.loads(f.read_text(encoding="utf-8"))
        t = d["tables"]["strategy_ladder"]
        for r in t["data"]:
            rows.append(dict(zip(t["columns"], r), cell=d["cell"], chunk=d["chunk"]))
    return pd.DataFrame(rows)


def diff_sums(df: pd.DataFrame, a: str, b: str) -> pd.Series:
    """Per chunk: Σ over deals of (a − b) summed over the seats each held, from the field "a vs b"."""
    d = df[(df["kind"] == "difference") & (df["field"] == f"{a} vs {b}")]
    return d.set_index("chunk")["sum"]


def verdict(lo: float, hi: float) -> str:
    """'better' / 'worse' / 'not distinguishable' from a 95% interval of a difference."""
    return "better" if lo > 0 else "worse" if hi < 0 else "not distinguishable"


def step(table: pd.DataFrame, rules: str, players: int, strong: str, weak: str) -> pd.Series:
    """The difference row strong − weak of the head-to-head field of the two."""
    d = table[(table["kind"] == "difference") & (table["rules"] == rules) & (table["players"] == players)
              & (table["field"] == f"{strong} vs {weak}")]
    if len(d) != 1:
        raise SystemExit(f"no head-to-head field '{strong} vs {weak}' for {rules} with {players} players")
    return d.iloc[0]


def cell_section(search: pd.DataFrame, chunks: pd.DataFrame, ci: int, bots: pd.DataFrame, ladder: list[str],
                 pimc: str, note: str) -> list[str]:
    """The markdown of one table: every step head to head, and the share of the gap pimc closes."""
    sub = search[search["cell"] == ci]
    rules, players = sub["rules"].iloc[0], int(sub["players"].iloc[0])
    lines = [f"## {rules}, {players} players{note}", "",
             "| step | difference | 95% CI | deals | verdict |", "|---|---|---|---|---|"]
    ok = True
    for weak, strong in zip(ladder, ladder[1:]):
        src = bots if strong in ("greedy", "heuristic") else search
        row = step(src, rules, players, strong, weak)
        v = verdict(row["mean_ci_low"], row["mean_ci_high"])
        ok &= v == "better"
        lines.append(f"| {strong} − {weak} | {row['mean']:+.3f} | [{row['mean_ci_low']:+.3f}, "
                     f"{row['mean_ci_high']:+.3f}] | {int(row['n']):,} | {strong} {v} |")
    gap = step(search, rules, players, "oracle", "heuristic")
    lines.append(f"| (oracle − heuristic) | {gap['mean']:+.3f} | [{gap['mean_ci_low']:+.3f}, "
                 f"{gap['mean_ci_high']:+.3f}] | {int(gap['n']):,} | the gap |")
    ch = chunks[chunks["cell"] == ci]
    y, n = diff_sums(ch, pimc, "heuristic").align(diff_sums(ch, "oracle", "heuristic"), join="inner")
    r, _, lo, hi = ratio_ci(float(y.sum()), float(n.sum()), float((y * y).sum()), float((y * n).sum()),
                            float((n * n).sum()), len(y))
    return lines + ["", f"Every step's interval excludes 0: **{'yes' if ok else 'no'}**. pimc closes **{r:.0%}** "
                    f"[{lo:.0%}, {hi:.0%}] of the heuristic → oracle gap ((pimc − heuristic) ÷ (oracle − heuristic), "
                    f"both head to head on the same deals; interval clustered over {len(y)} chunks of deals).", ""]


def main() -> None:
    """Write summary.md into the folder (by default the one of this script)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folder", type=Path, default=HERE)
    ap.add_argument("--pimc", default="pimc", help="the pimc strategy's name in the folder's pairs")
    ap.add_argument("--horizon", type=int, default=4,
                    help="pimc's horizon with 4 players when the folder was made (3 before 2026-12-02)")
    ap.add_argument("--more", type=Path, nargs="*", default=None,
                    help="folders of the same design with more deals of some tables (each gets its own section; "
                         "default for this folder: results/search_ladder_hk)")
    ap.add_argument("--horizon-dice", type=int, default=3,
                    help="pimc's horizon with 4 players and the residual-tile dice (folk) when the folder was made")
    args = ap.parse_args()
    folder, pimc, h4, h4_dice = args.folder, args.pimc, args.horizon, args.horizon_dice
    if args.more is None:
        args.more = [HERE.parent / "search_ladder_hk"] if folder == HERE else []
    ladder = [pimc if x == "pimc" else x for x in LADDER]
    search = pd.read_csv(folder / "strategy_ladder.csv")
    bots = pd.read_csv(BOTS / "strategy_ladder.csv")
    who = "pimc = 16 worlds" if pimc == "pimc" else f"{pimc} = pimc with {pimc.split(':')[1]} worlds"
    lines = ["# The strength ladder, head to head (issue 11)", "",
             "Each step is a duplicate run of its two strategies **alone at the table**: every deal is "
             "replayed with the two rotated through the seats, so each plays every seat on the same tiles. "
             f"{who}, exact from {h4} tiles a hand with 4 players ({h4_dice} with the residual-tile dice: folk), "
             "4 with 3, 6 with 2; oracle "
             "(**sees every hand**: an upper bound, not a fair player) is exact in the true deal from 4, 5 "
             "and 8 tiles a hand. Values are 戙 per deal per seat played; a step's difference is the "
             "stronger strategy's mean minus the weaker's on the same deals, with its 95% interval.", "",
             "The first two steps come from `results/strategy_ladder` (200,000 deals a table), the search steps "
             f"from `results/{folder.name}`. Written by `results/search_ladder/make_summary.py`.", ""]
    for ci in sorted(search["cell"].unique()):
        lines += cell_section(search, chunk_rows(folder), ci, bots, ladder, pimc, "")
    for more in args.more:
        extra = pd.read_csv(more / "strategy_ladder.csv")
        for ci in sorted(extra["cell"].unique()):
            deals = int(step(extra, extra[extra["cell"] == ci]["rules"].iloc[0],
                             int(extra[extra["cell"] == ci]["players"].iloc[0]), "oracle", "heuristic")["n"])
            lines += cell_section(extra, chunk_rows(more), ci, bots, ladder, pimc,
                                  f" — {deals:,} deals (`results/{more.name}`: the same seed and cell, so the "
                                  "first deals are the ones of this table above)")
    (folder / "summary.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
