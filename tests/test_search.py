"""The search strategies (`pimc`, `oracle`) and `tjsim advise`: names, wiring, information hiding, bad input.

The kernel's per-action values (strategies/search.evaluate, one true world, exact horizon) are
checked against `Solver.solve` (itself checked against the brute force in test_solver.py) on
random small positions; pimc's decisions are checked not to move when the tiles it has not
seen are re-dealt among the other seats.
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import assert_user_error, run_cli
from tianjiu_sim.errors import TjsimError
from tianjiu_sim.game.reference import play_deal_reference
from tianjiu_sim.game.rules import preset
from tianjiu_sim.kernels import solver as K
from tianjiu_sim.kernels.tables import pack_params, tables
from tianjiu_sim.sim.advise import history_of_deal, observation
from tianjiu_sim.sim.runner import play_rows, run_deals
from tianjiu_sim.strategies import registry
from tianjiu_sim.strategies import search as S

sys.path.insert(0, str(Path(__file__).parent))
from test_solver import RULES, random_position, solver_for  # noqa: E402


def test_names_and_ids():
    assert registry.SEARCH == S.SEARCH and registry.DEFAULT_WORLDS == S.DEFAULT_WORLDS
    assert registry.DEFAULT_HORIZON == S.HORIZON and registry.MAX_WORLDS == S.MAX_WORLDS
    for name in ("random", "greedy", "heuristic", "pimc", "pimc:8", "pimc:8:4", "oracle", "oracle:8"):
        assert registry.policy_name(registry.policy_id(name)) == name
    assert registry.is_search(registry.policy_id("pimc")) and registry.is_search(registry.policy_id("oracle"))
    assert not registry.is_search(registry.policy_id("heuristic"))
    for bad in ("pimc:0", "pimc:x", "pimc:5000", "oracle:0", "pimc:4:0", "pimcx", "oracle:1:2"):
        with pytest.raises(ValueError):
            registry.policy_id(bad)


def test_default_horizon_by_players():
    """Without H the horizon is chosen by the table size and the dice (in the kernel and for advise/review)."""
    for oracle, name, dice, want in ((False, "pimc", False, (6, 4, 4)), (False, "pimc:8", False, (6, 4, 4)),
                                     (False, "pimc", True, (6, 4, 3)), (True, "oracle", False, (8, 5, 4)),
                                     (True, "oracle", True, (8, 5, 4))):
        pid = registry.policy_id(name)
        for players, h in zip((2, 3, 4), want):
            assert S._horizon_of(pid, players, dice) == h == registry.default_horizon(players, oracle, dice)
    for players in (2, 3, 4):
        for dice in (False, True):
            assert S._horizon_of(registry.policy_id("pimc:16:5"), players, dice) == 5
            assert S._horizon_of(registry.policy_id("oracle:2"), players, dice) == 2
    assert preset("folk").dice_on and not preset("folk", players=2).dice_on and not preset("hk").dice_on
    assert registry.policy_name(registry.policy_id("pimc:16:3")) == "pimc:16:3"  # an explicit H is kept
    # with 4 players the default is H = 4: `pimc` and `pimc:16:4` play the same deals identically
    rules = preset("hk")
    a = run_deals(rules, ["pimc", "heuristic", "greedy", "heuristic"], 5, 6, threads=1)
    b = run_deals(rules, ["pimc:16:4", "heuristic", "greedy", "heuristic"], 5, 6, threads=1)
    assert np.array_equal(a.payments, b.payments) and np.array_equal(a.dong, b.dong)
    # and with the residual-tile dice (folk, 4 players) it is H = 3
    folk = preset("folk")
    a = run_deals(folk, ["pimc", "heuristic", "greedy", "heuristic"], 5, 4, threads=1)
    b = run_deals(folk, ["pimc:16:3", "heuristic", "greedy", "heuristic"], 5, 4, threads=1)
    assert np.array_equal(a.payments, b.payments) and np.array_equal(a.dong, b.dong)


@pytest.mark.parametrize("name", ["hk", "hk-bonus", "folk", "folk3"])
def test_oracle_values_equal_the_solver(name):
    """evaluate() in the true world at the exact horizon = Solver.solve's value of every action."""
    rules = RULES[name]()
    sv = solver_for(name)
    tabs, params = tables(rules), pack_params(rules)
    scr = S.search_scratch(S.search_tables(rules), rules.players)
    buf = np.zeros(128, dtype=np.int64)
    st = np.zeros(4, dtype=np.uint64)
    rng = random.Random(11)
    checked = 0
    while checked < 60:
        pos = random_position(rules, rng)
        if pos.paid and any(pos.paid):
            continue
        try:
            obs = observation(rules, pos, history_of_deal(rules, pos))
        except TjsimError:
            continue  # the residual dice decide the lead: advise needs the throw
        sol = sv.solve(pos)
        nc = S.evaluate(obs, np.array(pos.hands, dtype=np.int64), 0, K.EXACT, 0, 0, 1, -1, tabs, params, st, buf, scr)
        got = {}
        for c in range(nc):
            code = int(scr[14][c])
            mask = int(tabs[code, 0]) if code >= 0 else -code - 1
            got[("discard" if code < 0 else ("lead" if not pos.trick else "beat"), mask)] = scr[15][0, c]
        want = {(a.action, a.mask): a.value for a in sol.actions}
        assert set(got) == set(want), (pos, got, want)
        for key, v in want.items():
            assert abs(got[key] - v) < 1e-9, (pos, key, got[key], v)
        checked += 1


def test_evaluate_starts_the_table_afresh_past_the_generation_limit():
    """evaluate(): past GEN_LIMIT searches the tags are cleared and the generation starts at 1, with the
    same values; the scratch's tags start on a cache line."""
    rules = preset("hk")
    tabs, params = tables(rules), pack_params(rules)
    buf = np.zeros(128, dtype=np.int64)
    st = np.zeros(4, dtype=np.uint64)
    rng = random.Random(3)
    fresh = S.search_scratch(S.search_tables(rules), rules.players)
    old = S.search_scratch(S.search_tables(rules), rules.players)
    assert old[7].ctypes.data % 64 == 0
    old[3][K.X_GEN] = K.GEN_LIMIT - 2
    done = 0
    while done < 5:
        pos = random_position(rules, rng)
        try:
            obs = observation(rules, pos, history_of_deal(rules, pos))
        except TjsimError:
            continue
        hands = np.array(pos.hands, dtype=np.int64)
        nc = S.evaluate(obs, hands, 0, K.EXACT, 0, 0, 1, -1, tabs, params, st, buf, fresh)
        want = fresh[15][0, :nc].copy()
        assert S.evaluate(obs, hands, 0, K.EXACT, 0, 0, 1, -1, tabs, params, st, buf, old) == nc
        assert np.array_equal(old[15][0, :nc], want)
        done += 1
    assert 0 < old[3][K.X_GEN] < 10


def _redeal(hands, keep, rng):
    """The deal with the tiles of the seats not in `keep` dealt again among those seats."""
    out = list(hands)
    others = [s for s in range(len(hands)) if s not in keep]
    pool = [b for s in others for b in range(32) if hands[s] >> b & 1]
    rng.shuffle(pool)
    for s in others:
        k = bin(hands[s]).count("1")
        out[s] = sum(1 << b for b in pool[:k])
        pool = pool[k:]
    return out


def _first_play(rec, row, seat):
    plays, _, _, n = rec
    for r in range(n[row, 0]):
        if plays[row, r, 1] == seat:
            return int(plays[row, r, 2]), int(plays[row, r, 3])
    return None


@pytest.mark.parametrize("pimc_seat,keep", [(0, {0}), (1, {0, 1})])
def test_pimc_decisions_ignore_the_unseen_tiles(pimc_seat, keep):
    """pimc's first decision is the same when the tiles it has not seen are re-dealt (500 deals each)."""
    rules = preset("hk")
    deals = 500
    pols = ["heuristic"] * 4
    pols[pimc_seat] = "pimc:3:2"
    base = play_rows(rules, ["random"], 5, deals, keep_hands=True).hands
    rng = random.Random(3)
    other = np.array([_redeal(list(map(int, h)), keep, rng) for h in base], dtype=np.int64)
    idx = np.arange(deals)
    a = play_rows(rules, pols, 9, deals, deal_index=idx, hands=base, record=True).records
    b = play_rows(rules, pols, 9, deals, deal_index=idx, hands=other, record=True).records
    same = sum(_first_play(a, i, pimc_seat) == _first_play(b, i, pimc_seat) for i in range(deals))
    assert same == deals


def test_search_policies_play_legal_deals_and_oracle_beats_heuristic():
    rules = preset("hk")
    r = play_rows(rules, ["oracle:3", "heuristic", "heuristic", "heuristic"], 2, 300)
    assert (r.payments.sum(axis=1) == 0).all()
    assert r.payments[:, 0].mean() > 0  # an oracle at one seat wins against three heuristics
    folk = preset("folk")
    r = play_rows(folk, ["pimc:2:2", "heuristic", "pimc:2:2", "greedy"], 2, 60)
    assert (r.payments.sum(axis=1) == 0).all()


def test_play_trace_with_pimc_replays_and_says_oracle_sees_all(tmp_path):
    res = run_cli("play", "--policies", "oracle:3,pimc:2:2,heuristic,greedy", "--seed", "3", "--format", "json")
    assert res.code == 0, res.err
    tr = json.loads(res.out)
    assert tr["sees_all_hands"] == [0]
    res = run_cli("play", "--policies", "oracle:3,pimc:2:2,heuristic,greedy", "--seed", "3")
    assert "oracle sees every hand" in res.out


def test_advise_json_and_table(tmp_path):
    rules = preset("hk")
    trace = play_deal_reference(rules, None, 4, 0, ["random"] * 4)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    plays = [p for t in trace["tricks"] for p in t["plays"]]
    at = len(plays) - 10
    res = run_cli("advise", "--trace", str(path), "--at", str(at), "--worlds", "8", "--format", "json")
    assert res.code == 0, res.err
    out = json.loads(res.out)
    assert out["worlds"] == 8 and 0 <= out["best"] < len(out["actions"])
    for a in out["actions"]:
        assert a["ci_low"] <= a["mean"] <= a["ci_high"] and 0 <= a["p_close"] <= 1
    best = out["actions"][out["best"]]["mean"]
    assert best == max(a["mean"] for a in out["actions"])
    # the other hands of the trace are not read: change them (same sizes, same unseen tiles) …
    res2 = run_cli("advise", "--trace", str(path), "--at", str(at), "--worlds", "8", "--format", "csv")
    assert res2.out.splitlines()[0] == "action,tiles,mean,ci_low,ci_high,p_close"
    res3 = run_cli("advise", "--trace", str(path), "--at", str(at), "--worlds", "8")
    assert "from its hand and the public history only" in res3.out


def test_advise_sure_closer_closes():
    # seat 0 holds the two top singles and leads: it takes both tricks and closes in every world
    res = run_cli("advise", "--deal", "6-6 6-6 | 1-1 6-2 | 4-4 5-3 | 3-1 4-1", "--dong", "2,2,1,1",
                  "--leader", "0", "--worlds", "4", "--format", "json")
    assert res.code == 0, res.err
    out = json.loads(res.out)
    assert all(a["p_close"] == 1.0 for a in out["actions"])


@pytest.mark.parametrize("args,needle", [
    (["play", "--policies", "pimc:0,heuristic,heuristic,heuristic"], "pimc:W"),
    (["simulate", "--policy", "pimc:x", "--deals", "10"], "pimc:W"),
    (["advise", "--deal", "6-6 6-6 | 1-1 6-2 | 4-4 5-3 | 3-1 4-1", "--dong", "2,2,1,1", "--leader", "0",
      "--worlds", "0"], "--worlds"),
    (["advise", "--deal", "6-6 6-6 | 1-1 6-2 | 4-4 5-3 | 3-1 4-1", "--dong", "2,2,1,1", "--leader", "7"],
     "--leader"),
    (["advise", "--deal", "6-6 6-6 | 6-6 6-2 | 4-4 5-3 | 3-1 4-1", "--dong", "2,2,1,1", "--leader", "0"],
     "6-6"),
    (["advise", "--deal", "6-6 6-6 | 1-1 6-2 | 4-4 5-3 | 3-1 4-1", "--dong", "2,2,1,9", "--leader", "0"],
     "add"),
])
def test_bad_input(args, needle):
    assert_user_error(run_cli(*args), needle)


def test_ctrl_c_stops_a_long_run_within_a_deal():
    """Ctrl-C (here interrupt_main) during play_rows: KeyboardInterrupt within seconds, not at the run's end.

    The play kernel runs in a worker thread and stops after the deal each thread is playing
    (kernels/threads.run_interruptible); 5,000 pimc deals would take minutes.
    """
    import _thread
    import signal
    import threading
    import time

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    rules = preset("hk")
    play_rows(rules, ["pimc"], 1, 2)  # compiled before the clock starts: a compile is not interrupted here
    old = signal.signal(signal.SIGINT, signal.default_int_handler)  # even where SIGINT is ignored
    timer = threading.Timer(1.0, _thread.interrupt_main)
    t = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            play_rows(rules, ["pimc"], 1, 5000)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, old)
    assert time.monotonic() - t < 10
    again = play_rows(rules, ["pimc"], 1, 2)  # the next run starts afresh, with the same results
    first = play_rows(rules, ["pimc"], 1, 2)
    assert np.array_equal(again.payments, first.payments)
