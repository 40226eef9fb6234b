"""Monte Carlo cross-check: dealt rounds agree with every exact figure within 4 standard errors."""
from __future__ import annotations

import pytest

from tianjiu_sim.paigow import analysis
from tianjiu_sim.paigow.profiles import profile

CASES = [
    (profile("kong", rounds_per_shuffle=4), "house", "house", 100_000),
    (profile("kong", ties="banker", commission=0.05, players=2, rounds_per_shuffle=3), "house", "house", 100_000),
    (profile("vegas"), "house", "house", 60_000),
    (profile("vegas"), "best", "house", 60_000),
    (profile("vegas"), "equilibrium", "equilibrium", 60_000),
    (profile("yabao", rounds_per_shuffle=2, half_push="win"), "house", "house", 60_000),
]


@pytest.mark.parametrize("p,pw,bw,n", CASES, ids=lambda v: getattr(v, "name", str(v)))
def test_monte_carlo_within_4_se(p, pw, bw, n):
    exact = analysis.edge(p, pw, bw) if p.tiles_per_hand == 4 else analysis.edge(p)
    mc = analysis.monte_carlo(p, pw, bw, shuffles=n, seed=7)
    for k in ("win", "push", "lose", "player_edge"):
        e = mc["estimates"][k]
        assert abs(e["mean"] - exact[k]) <= 4 * e["se"], (k, e, exact[k])
    for r in mc["rounds"]:  # every round of a shuffle has the first round's edge (exchangeable tiles)
        assert abs(r["player_edge"] - exact["player_edge"]) <= 4 * r["se"], r
    t = mc["banker_vs_table_per_round"]
    assert abs(t["mean"] - exact["banker_edge_vs_table"]) <= 4 * t["se"]


def test_monte_carlo_same_seed_same_numbers():
    p = profile("kong", rounds_per_shuffle=2)
    a = analysis.monte_carlo(p, shuffles=5000, seed=3)
    b = analysis.monte_carlo(p, shuffles=5000, seed=3)
    c = analysis.monte_carlo(p, shuffles=5000, seed=4)
    assert a["estimates"] == b["estimates"] and a["estimates"] != c["estimates"]
