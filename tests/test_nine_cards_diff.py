"""Differential tests: the numba engine and the plain-Python reference give identical traces."""
from __future__ import annotations

import dataclasses
import json
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings, strategies as hs

from tianjiu_sim.nine_cards.reference import play_reference
from tianjiu_sim.nine_cards.rules import preset
from tianjiu_sim.nine_cards.runner import policy_ids, run_rows
from tianjiu_sim.nine_cards.trace import to_trace

MIX = ("random", "greedy", "heuristic")


def seat_policies(n: int, deal: int) -> list[str]:
    """A mix of strategies that changes with the deal, so every strategy plays every seat."""
    return [MIX[(deal + s) % 3] for s in range(n)]


def engine_traces(rules, seed: int, deals: int, banker: int = 0) -> list[dict]:
    n = rules.players
    pols = [seat_policies(n, d) for d in range(deals)]
    pol = np.array([policy_ids(p, n) for p in pols])
    res = run_rows(rules, pol, seed, np.arange(deals), banker=banker, record=True)
    return [to_trace(rules, seed, d, res.hands[d], res.rec[d], res.rec_n[d], res.res[d], res.kaizhao[d],
                     res.payments[d], pols[d]) for d in range(deals)]


def check(rules, seed: int, deals: int, banker: int = 0) -> dict:
    mismatches = 0
    stats = Counter()
    for d, tr in enumerate(engine_traces(rules, seed, deals, banker)):
        ref = play_reference(rules, seed, d, seat_policies(rules.players, d), banker)
        if tr != ref:
            mismatches += 1
            diff = {k: (tr[k], ref[k]) for k in tr if tr[k] != ref.get(k)}
            assert False, f"deal {d}: " + json.dumps(diff, ensure_ascii=False)[:2000]
        stats["result " + tr["result"]] += 1
        stats["flip"] += len(tr["flips"])
        stats["won " + str(tr["win_type"])] += 1
        for e in tr["events"]:
            stats[e["action"]] += 1
    assert mismatches == 0
    return stats


@pytest.mark.parametrize("players", [4, 5, 7])
def test_engine_equals_reference(players):
    stats = check(preset(players), seed=11, deals=300)
    # the sample exercises every path of the rules but the rare draw (the slow test has draws)
    for key in ("won self_draw", "won stock", "won discard", "eat", "eat_kaizhao", "dead", "discard_dead", "flip"):
        assert stats[key] > 0, (key, stats)


def test_engine_equals_reference_other_banker():
    check(preset(5), seed=2, deals=100, banker=3)


VARIANTS = [dict(eat_with_three=False), dict(turner_first=False), dict(discard_pairs=True),
            dict(stock_turner_pays=True, discard_payer_only=False), dict(deal_win_self_draw=False),
            dict(stock_reserve=20, colour_points=(7, 4, 1, 0), four_colour_self_draw=2, tail_bonus=3)]


@settings(max_examples=12, deadline=None)
@given(v=hs.sampled_from(VARIANTS), players=hs.sampled_from([4, 5, 6, 7]), seed=hs.integers(0, 2**32))
def test_rule_variants_equal_reference(v, players, seed):
    rules = dataclasses.replace(preset(players), **v)
    check(rules, seed, deals=20)


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 5, 7])
def test_engine_equals_reference_20000(players):
    stats = check(preset(players), seed=2026, deals=20_000)
    print(players, dict(stats))
    assert stats["result draw"] > 0 and stats["won self_draw"] > 0 and stats["eat_kaizhao"] > 0
