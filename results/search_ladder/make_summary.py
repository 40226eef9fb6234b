#!/usr/bin/env python3
"""summary.md of the search ladder: each step's paired difference and the share of the heuristic → oracle gap pimc closes.

Reads the experiment's chunk files (results/search_ladder/chunks, written by
`tjsim experiment run experiments/search_ladder.toml`): every chunk is an independent block of
deals, so the gap share (pimc − heuristic) / (oracle − heuristic), a ratio of two paired
differences measured on the same deals, gets a cluster-robust interval over the chunks
(stats.ratio_ci). Every sentence is chosen from the intervals it quotes.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from tianjiu_sim.stats import ratio_ci  # noqa: E402

LADDER = ["random", "greedy", "heuristic", "pimc", "oracle"]


def chunk_rows() -> pd.DataFrame:
    """Every chunk's ladder rows, with its cell and chunk number."""
    rows = []
    for f in sorted((HERE / "chunks").glob("c*/k*.json")):
        d = json.loads(f.read_text(encoding="utf-8"))
        t = d["tables"]["strategy_ladder"]
        for r in t["data"]:
            rows.append(dict(zip(t["columns"], r), cell=d["cell"], chunk=d["chunk"]))
    return pd.DataFrame(rows)


def diff_sums(df: pd.DataFrame, a: str, b: str) -> pd.Series:
    """Per chunk: Σ over deals of (a − b) summed over the seats each held (chunk → total)."""
    d = df[(df["kind"] == "difference")]
    fwd = d[(d["a"] == a) & (d["b"] == b)].set_index("chunk")["sum"]
    if len(fwd):
        return fwd
    return -d[(d["a"] == b) & (d["b"] == a)].set_index("chunk")["sum"]


def verdict(lo: float, hi: float) -> str:
    """'better' / 'worse' / 'not distinguishable' from a 95% interval of a difference."""
    return "better" if lo > 0 else "worse" if hi < 0 else "not distinguishable"


def main() -> None:
    """Write summary.md next to this script."""
    table = pd.read_csv(HERE / "strategy_ladder.csv")
    chunks = chunk_rows()
    lines = ["# The strength ladder under search (issue 11)", "",
             "Duplicate: every deal replayed five times with random, greedy, heuristic, pimc (16 worlds, exact "
             "from 3 tiles a hand with 4 players, 4 with 3, 6 with 2) and oracle (**sees every hand**; exact from "
             "4, 5 and 8 tiles a hand) rotated through the seats. Values are 戙 per deal per seat played; a "
             "step's difference is the stronger strategy's mean minus the weaker's on the same deals, with its "
             "95% interval. Written by `make_summary.py` from `strategy_ladder.csv` and the chunk files.", "",
             "Each replay seats only some of the five strategies (four of them with 4 players, two with 2), so "
             "a strategy's mean is taken against a mix of opponents that includes random and oracle: the steps are "
             "not head-to-head results. Head-to-head duplicate runs of pimc against greedy and heuristic alone "
             "(folk with 2 and 3 players) are in benchmarks/README.md, \"pimc and oracle\".", ""]
    for ci in sorted(table["cell"].unique()):
        sub = table[table["cell"] == ci]
        label = f"{sub['rules'].iloc[0]}, {sub['players'].iloc[0]} players"
        lines += [f"## {label}", "", "| step | difference | 95% CI | verdict |", "|---|---|---|---|"]
        ok = True
        for lo_s, hi_s in zip(LADDER, LADDER[1:]):
            row = sub[(sub["kind"] == "difference") & (sub["a"] == lo_s) & (sub["b"] == hi_s)].iloc[0]
            m, lo, hi = -row["mean"], -row["mean_ci_high"], -row["mean_ci_low"]
            v = verdict(lo, hi)
            ok &= v == "better"
            lines.append(f"| {hi_s} − {lo_s} | {m:+.3f} | [{lo:+.3f}, {hi:+.3f}] | {hi_s} {v} |")
        deals = int(sub[sub["kind"] == "strategy"]["n"].iloc[0])
        ch = chunks[chunks["cell"] == ci]
        y = diff_sums(ch, "pimc", "heuristic")
        n = diff_sums(ch, "oracle", "heuristic")
        y, n = y.align(n, join="inner")
        r, _, lo, hi = ratio_ci(float(y.sum()), float(n.sum()), float((y * y).sum()), float((y * n).sum()),
                                float((n * n).sum()), len(y))
        lines += ["", f"{deals:,} deals. Every step's interval excludes 0: **{'yes' if ok else 'no'}**. "
                  f"pimc closes **{r:.0%}** [{lo:.0%}, {hi:.0%}] of the heuristic → oracle gap "
                  f"(ratio of the two paired differences, interval clustered over {len(y)} chunks of deals).", ""]
    (HERE / "summary.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
