"""Statistics of simulated 九支十仔 deals: per seat and per table, each with its sample size and 95% CI.

Independent deals use Wilson intervals for rates and normal intervals for means
(tianjiu_sim.stats). Deals of one session are not independent (the winner becomes the next
banker), so with sessions every interval is clustered by session: the estimate of per-session
means (sim.duplicate.estimate), sessions being independent and of equal length.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..sim.duplicate import estimate
from ..stats import mean_ci, wilson
from .engine import W_DISCARD, W_SELF, W_STOCK
from .runner import NineResults


def _rate(hits: np.ndarray, session: int) -> tuple[float, float, float]:
    """(rate, ci_low, ci_high) of a 0/1 per-deal array; clustered by session when session > 1."""
    n = hits.shape[0]
    if session == 1:
        lo, hi = wilson(int(hits.sum()), n)
        return float(hits.mean()), lo, hi
    e = estimate(hits.reshape(-1, session).mean(axis=1))
    return e.mean, e.ci_low, e.ci_high


def _mean(values: np.ndarray, session: int) -> tuple[float, float, float]:
    if session == 1:
        m, _se, lo, hi = mean_ci(float(values.sum()), float((values.astype(np.float64) ** 2).sum()), values.shape[0])
        return m, lo, hi
    e = estimate(values.reshape(-1, session).mean(axis=1).astype(np.float64))
    return e.mean, e.ci_low, e.ci_high


def seat_rows(res: NineResults, policies: Sequence[str], session: int = 1) -> list[dict]:
    """One row per seat: 頭 per deal, win rate and win types, 放槍 paid, 開招 rate (INTERFACES-style CSV)."""
    deals, n = res.payments.shape
    winner, wtype, payer = res.col("winner"), res.col("win_type"), res.col("payer")
    rows = []
    for s in range(n):
        won = winner == s
        m, lo, hi = _mean(res.payments[:, s], session)
        wr, wlo, whi = _rate(won, session)
        row = {"seat": s, "policy": policies[s], "deals": deals, "mean_payment": m, "ci_low": lo, "ci_high": hi,
               "win_rate": wr, "win_ci_low": wlo, "win_ci_high": whi}
        for label, t in (("self_draw", W_SELF), ("stock", W_STOCK), ("discard", W_DISCARD)):
            row[f"{label}_rate"] = float((won & (wtype == t)).mean())
        pr, plo, phi = _rate(payer == s, session)
        row.update({"paid_discard_rate": pr, "paid_discard_ci_low": plo, "paid_discard_ci_high": phi})
        kr, klo, khi = _rate(res.kaizhao[:, s] > 0, session)
        row.update({"kaizhao_rate": kr, "kaizhao_ci_low": klo, "kaizhao_ci_high": khi,
                    "banker_rate": float((res.col("banker") == s).mean()),
                    "mean_tou_when_won": float(res.col("tou")[won].mean()) if won.any() else None})
        rows.append(row)
    return rows


def distribution(values: np.ndarray, name: str) -> list[dict]:
    """Counts and shares of each value."""
    vals, counts = np.unique(values, return_counts=True)
    total = int(counts.sum())
    return [{name: int(v), "count": int(c), "share": c / total} for v, c in zip(vals, counts)]


def table_summary(res: NineResults, session: int = 1) -> dict:
    """Per-table figures: draw rate, win types, 頭 and colour distributions of the wins, 開招 rate."""
    winner = res.col("winner")
    won = winner >= 0
    dr, dlo, dhi = _rate(~won, session)
    kz, klo, khi = _rate((res.kaizhao > 0).any(axis=1), session)
    wt = res.col("win_type")[won]
    tou = res.col("tou")[won]
    return {
        "deals": int(len(winner)), "session": session,
        "draw_rate": {"rate": dr, "ci_low": dlo, "ci_high": dhi},
        "kaizhao_rate": {"rate": kz, "ci_low": klo, "ci_high": khi},
        "kaizhao_wait_rate": float(res.col("kaizhao_wait")[won].mean()) if won.any() else None,
        "win_types": {label: float((wt == t).mean()) if won.any() else None
                      for label, t in (("self_draw", W_SELF), ("stock", W_STOCK), ("discard", W_DISCARD))},
        "mean_tou_when_won": float(tou.mean()) if won.any() else None,
        "tou_distribution": distribution(tou, "tou"),
        "colour_distribution": distribution(res.col("colours")[won], "colours"),
        "mean_turns": float(res.col("turns").mean()),
    }
