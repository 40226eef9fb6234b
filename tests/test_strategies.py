"""Strategies: the registry, the information barrier, `random` as in CONTRACTS.md, and their ordering."""
from __future__ import annotations

import inspect

import numpy as np
import pytest
from numba import njit

import types

from tianjiu_sim.kernels import layout, legality
from tianjiu_sim.strategies import greedy, heuristic, registry

# One namespace for the names this file checks: layout, legality and the strategy modules.
strategies = types.SimpleNamespace(**{k: v for m in (layout, legality, greedy, heuristic, registry)
                                      for k, v in vars(m).items() if not k.startswith("__")})
from tianjiu_sim.kernels.bits import popcount
from tianjiu_sim.kernels.tables import pack_params, tables
from tianjiu_sim.game.rules import preset
from tianjiu_sim.sim.runner import policy_ids, run_deals, simulate_traces
from tianjiu_sim.errors import TjsimError


def test_registry():
    assert {"random", "greedy", "heuristic"} <= set(strategies.POLICIES)
    assert len(set(strategies.POLICIES.values())) == len(strategies.POLICIES)
    with pytest.raises(TjsimError, match="allowed: random, greedy, heuristic"):
        policy_ids(["nope"], 4)
    with pytest.raises(TjsimError, match="4 players"):
        policy_ids(["random", "greedy"], 4)


def test_decisions_see_only_the_observation():
    """Decision functions take (policy,) obs, public tables/params, the play stream and scratch; the
    hands reach only the search call (where `oracle` alone reads them: tests/test_search.py)."""
    for fn in (strategies.choose_fold, strategies.choose_lead, strategies.choose_follow):
        params = list(inspect.signature(fn.py_func).parameters)
        assert params[:5] == ["policy", "obs", "tabs", "params", "st"], params
        assert params[-2:] == ["hands", "scr"], params
        body = inspect.getsource(fn.py_func).split('"""')[-1]
        uses = [line for line in body.splitlines() if "hands" in line]
        assert len(uses) == 1 and "search_" in uses[0], uses


def test_heuristic_rules_are_documented():
    doc = strategies.heuristic_lead.__doc__ or ""
    assert "Lead" in doc and "Follow" in doc and "Fold" in doc


def test_random_matches_reference_draw_for_draw():
    """Spot check of CONTRACTS.md `random` against the pure-Python reference engine."""
    reference = pytest.importorskip("tianjiu_sim.game.reference")
    for name, players in (("hk", 4), ("folk", 4), ("folk", 3)):
        rules = preset(name, players)
        for tr in simulate_traces(rules, ["random"], 77, 40):
            ref = reference.play_deal_reference(rules, None, 77, tr["deal"], ["random"] * players,
                                                method=tr["method"], shuffle=tr["shuffle"])
            assert ref == tr


def rotated_margin(rules, strong: str, weak: str, deals: int, seed: int = 3):
    """Mean payment of one `strong` seat among `weak` ones, the strong seat rotated over all seats on
    the same deals (so the banker's edge cancels); returns (mean, ci_low, ci_high)."""
    n = rules.players
    x = np.zeros(deals)
    for r in range(n):
        pols = [weak] * n
        pols[r] = strong
        x += run_deals(rules, pols, seed, deals).payments[:, r]
    x /= n
    se = x.std(ddof=1) / np.sqrt(deals)
    return x.mean(), x.mean() - 1.96 * se, x.mean() + 1.96 * se


@pytest.mark.parametrize("name,players", [("hk", 4), ("folk", 4), ("folk", 3), ("folk", 2)])
@pytest.mark.parametrize("strong,weak", [("greedy", "random"), ("heuristic", "greedy")])
def test_strategy_ordering(name, players, strong, weak):
    mean, lo, hi = rotated_margin(preset(name, players), strong, weak, 20_000)
    assert lo > 0, (strong, weak, mean, lo, hi)


def test_heuristic_folds_only_weak_hands():
    rules = preset("folk")
    for tr in simulate_traces(rules, ["heuristic"], 8, 400):
        for s in tr["folded"]:
            assert not {"6-6", "1-1", "6-3", "5-4", "6-2", "5-3", "6-5", "6-4"} & set(tr["hands"][s])


@njit(cache=True)
def _greedy_lead_and_combo(hands, forced, tabs, params):
    """Per hand: greedy_lead, the legal lead of least P_LEADPOS, combo_tiles, and the union of held multi-tile plays."""
    obs = np.zeros(layout.OBS_LEN, np.int64)
    buf = np.zeros(128, np.int64)
    st = np.zeros(4, np.uint64)
    out = np.zeros((hands.shape[0], 4), np.int64)
    for i in range(hands.shape[0]):
        h = hands[i]
        obs[layout.O_HAND] = h
        obs[layout.O_HAND_SIZE] = popcount(h)
        obs[layout.O_FORCED] = forced[i]
        out[i, 0] = greedy.greedy_lead(obs, tabs, params, st, buf)
        n = legality.legal_leads(obs, tabs, buf)
        best = buf[0]
        for j in range(1, n):
            if tabs[buf[j], layout.P_LEADPOS] < tabs[best, layout.P_LEADPOS]:
                best = buf[j]
        out[i, 1] = best
        out[i, 2] = legality.combo_tiles(h, tabs)
        c = np.int64(0)
        for p in range(layout.N_PLAYS):
            m = tabs[p, layout.P_MASK]
            if tabs[p, layout.P_SIZE] >= 2 and (m & h) == m:
                c |= m
        out[i, 3] = c
    return out


@pytest.mark.parametrize("name", ["hk", "folk"])
def test_greedy_lead_scan_and_combo_tiles_match_the_definitions(name):
    """The fast greedy lead (first held play of the lead order) and combo_tiles (pair partners)
    agree with their plain definitions on random hands of 1–10 tiles, forced suits included."""
    rules = preset(name)
    tabs, params = tables(rules), pack_params(rules)
    rng = np.random.default_rng(5)
    hands, forced = [], []
    suits = [int(params[strategies.R_SUIT_GONG]), int(params[strategies.R_SUIT_ZA]),
             int(params[strategies.R_SUIT_YAO])]
    for i in range(20000):
        h = sum(1 << int(b) for b in rng.choice(32, size=1 + i % 10, replace=False))
        hands.append(h)
        f = suits[i % 3] if i % 4 == 0 else 0
        forced.append(f if h & f else 0)
    out = _greedy_lead_and_combo(np.array(hands, np.int64), np.array(forced, np.int64), tabs, params)
    assert (out[:, 0] == out[:, 1]).all()
    assert (out[:, 2] == out[:, 3]).all()
