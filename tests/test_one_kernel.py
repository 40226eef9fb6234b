"""Every runner plays through the one compiled play kernel with one signature (it compiles once)."""
from __future__ import annotations

import numpy as np

from tianjiu_sim.game.rules import preset
from tianjiu_sim.sim import analysis, odds, runner, session, value


def test_every_runner_shares_one_compiled_play_kernel():
    rs = preset("hk")
    runner.run_deals(rs, ["greedy"], 1, 100)
    runner.simulate_traces(rs, ["greedy"], 1, 2)
    hands = analysis.dealt_hands(rs, 1, 50)
    analysis.play_hands(rs, ["greedy"], 1, hands, np.arange(50), banker=np.arange(50) % 4)
    analysis.compare_batch(rs, ["heuristic", "greedy"], 1, 60)
    session.run_session(rs, ["greedy"], 1, 3, 4, from_="played", shuffle="wash:2")
    odds.previous_orders(rs, 1, 0, 10)
    value.run_value(rs, value.parse_feature("supreme"), ["greedy"], 1, 100)
    runner.run_deals(preset("folk", 3), ["heuristic"], 1, 100)
    # With pimc or oracle at a seat the kernel is compiled once more, with the search scratch
    # (strategies/registry.py); every run without search shares the one signature.  The search
    # tables are the argument before the last (the chunk counter and stop flag).
    plain = [sig for sig in runner._play_rows.signatures if "none" in str(sig[-2]).lower()]
    assert len(plain) == 1, runner._play_rows.signatures


def test_dealt_hands_are_the_hands_the_runner_plays():
    rs = preset("hk")
    hands = analysis.dealt_hands(rs, 5, np.arange(200, 260), method="left", shuffle="wash:3", banker=2)
    r = runner.play_rows(rs, ["greedy"], 5, 60, deal_index=200, banker=2,
                         plan=runner.deal_plan(rs, "left", "wash:3"), keep_hands=True)
    assert np.array_equal(hands, r.hands)
    p = analysis.play_hands(rs, ["greedy"], 5, hands, np.arange(200, 260), banker=2)
    assert np.array_equal(p.payments, r.payments) and np.array_equal(p.closer, r.closer)
