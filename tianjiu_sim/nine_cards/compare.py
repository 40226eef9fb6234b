"""Strategies of 九支十仔 compared in duplicate (as for Tien Gow: sim/duplicate.py).

Every deal is replayed once per strategy with the strategies rotated through the seats
(`rotation_table`), on the same cards (the stock's order included: it comes from the deal's
own stream) and the same decision stream. A strategy's result on a deal is its mean payment
over the seats it held; differences are paired per deal (`estimate` of the per-deal
differences), which removes the luck of the cards.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..sim.duplicate import estimate, per_deal_means, rotation_table
from ..stats import wilson
from .rules import NineCardsRules
from .runner import policy_ids, run_rows


@dataclass
class Duplicate:
    """Per-deal results of a duplicate comparison."""

    policies: list[str]
    table: np.ndarray  # [replays, seats] strategy index per seat
    x: np.ndarray  # [deals, k] mean payment (頭) per seat held, per strategy
    wins: np.ndarray  # [deals, k] wins per seat held, per strategy
    pay: np.ndarray  # [deals, replays, seats]


def run_duplicate(rules: NineCardsRules, policies: Sequence[str], seed: int, deals: int, start: int = 0,
                  threads: int | None = None, sp: np.ndarray | None = None) -> Duplicate:
    """Play deals start … start+deals−1 once per rotation of the strategies through the seats."""
    k = len(policies)
    n = rules.players
    table = rotation_table(k, n)
    ids = policy_ids(list(policies), k)
    replays = table.shape[0]
    idx = np.repeat(np.arange(start, start + deals, dtype=np.int64), replays)
    pol = np.tile(ids[table], (deals, 1))
    res = run_rows(rules, pol, seed, idx, threads=threads, sp=sp)
    pay = res.payments.reshape(deals, replays, n).astype(np.float64)
    winner = res.col("winner").reshape(deals, replays)
    won = (winner[:, :, None] == np.arange(n)[None, None, :]).astype(np.float64)
    return Duplicate(list(policies), table, per_deal_means(pay, table, k), per_deal_means(won, table, k), pay)


def summary(d: Duplicate) -> dict:
    """Means with 95% intervals per strategy, and every pair's paired difference (a − b)."""
    k = len(d.policies)
    deals = d.x.shape[0]
    strategies = []
    for p, name in enumerate(d.policies):
        e = estimate(d.x[:, p])
        held = int((d.table == p).sum()) * deals
        w = estimate(d.wins[:, p])
        strategies.append({"policy": name, "mean_payment": e.mean, "se": e.se, "ci_low": e.ci_low,
                           "ci_high": e.ci_high, "win_rate": w.mean, "win_ci_low": w.ci_low,
                           "win_ci_high": w.ci_high, "seats_played": held})
    differences = []
    for a in range(k):
        for b in range(a + 1, k):
            e = estimate(d.x[:, a] - d.x[:, b])
            differences.append({"a": d.policies[a], "b": d.policies[b], "mean": e.mean, "se": e.se,
                                "ci_low": e.ci_low, "ci_high": e.ci_high,
                                "significant": bool(e.ci_low > 0 or e.ci_high < 0)})
    # variance of a difference from independent deals (one random rotation each) vs duplicate
    var_dup = sum(float(np.var(d.x[:, a] - d.x[:, b], ddof=1)) for a in range(k) for b in range(a + 1, k))
    var_ind = 0.0
    for a in range(k):
        for b in range(a + 1, k):
            one = [(d.pay[:, r, d.table[r] == a].mean(axis=1) - d.pay[:, r, d.table[r] == b].mean(axis=1))
                   for r in range(d.table.shape[0])]
            var_ind += float(np.mean([np.var(v, ddof=1) for v in one]))
    _ = wilson  # proportions above are means of per-deal rates (clustered by deal), not Wilson
    return {"deals": int(deals), "replays": int(d.table.shape[0]), "strategies": strategies,
            "differences": differences,
            "variance_ratio": var_ind / var_dup / d.table.shape[0] if var_dup > 0 else None}
