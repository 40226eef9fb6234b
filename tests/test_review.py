"""`tjsim review`: a hand-made trace with one planted blunder ranks that decision first; formats; bad input."""
from __future__ import annotations

import json

import numpy as np

from conftest import assert_user_error, run_cli
from tianjiu_sim.game.catalogue import catalogue
from tianjiu_sim.game.reference import deal_reference
from tianjiu_sim.game.rules import preset
from tianjiu_sim.game.tiles import tile_list
from tianjiu_sim.kernels.position import Position, Solver
from tianjiu_sim.kernels.rng import seed_stream
from tianjiu_sim.kernels.tables import pack_params, tables
from tianjiu_sim.sim.advise import history_of_trace, observation
from tianjiu_sim.sim.review import STREAM_REVIEW, _code, review
from tianjiu_sim.strategies import search as S

SEAT, WORLDS, SEED = 1, 8, 5


def _values(rules, trace, pos, at, scr, tabs, params):
    """The review's own evaluation of the decision before play `at`: candidate codes and mean values."""
    done = trace["tricks"][:-1] if pos.trick else trace["tricks"]  # the tricks completed before `pos`
    obs = observation(rules, pos, history_of_trace(rules, {"tricks": done}, 10**9))
    st = np.zeros(4, dtype=np.uint64)
    seed_stream(st, np.uint64(SEED), STREAM_REVIEW, at)
    nc = S.evaluate(obs, np.zeros(rules.players, np.int64), WORLDS, S.HORIZON, 0, 0, 1, -1, tabs, params, st,
                    np.zeros(128, np.int64), scr)
    return [int(c) for c in scr[14][:nc]], scr[15][:WORLDS, :nc].mean(axis=0)


def planted_trace():
    """hk deal 3 of seed 1: seat 1 plays pimc's best at every decision but one (its worst there); the others
    play their first legal action."""
    rules = preset("hk")
    cat_tabs, params = tables(rules), pack_params(rules)
    scr = S.search_scratch(S.search_tables(rules), rules.players)
    sv = Solver(rules, tt_bits=10)
    hands = deal_reference(rules, 1, 3)
    trace = {"rules": "hk", "players": 4, "seed": 1, "deal": 3, "banker": 0, "streak": 1,
             "hands": [tile_list(h) for h in hands], "tricks": [], "folded": []}
    pos = Position(rules, tuple(hands), (0,) * 4, 0, paid=(0,) * 4)
    at, choices, blunder = 0, 0, None
    cat = catalogue(rules)
    while pos.to_act() >= 0:
        seat = pos.to_act()
        actions = sv.legal_actions(pos)
        action, mask = actions[0]
        if seat == SEAT and len(actions) > 1:
            codes, means = _values(rules, trace, pos, at, scr, cat_tabs, params)
            if blunder is None and choices >= 1 and means.max() - means.min() > 0.5:
                pick = int(np.argmin(means))
                blunder = at
            else:
                pick = int(np.argmax(means))
            choices += 1
            code = codes[pick]
            action, mask = next((a, m) for a, m in actions if _code(cat, a, m) == code)
        if not pos.trick:
            trace["tricks"].append({"plays": []})
        trace["tricks"][-1]["plays"].append({"seat": seat, "action": action, "tiles": tile_list(mask)})
        pos = sv.apply(pos, action, mask)
        at += 1
    return rules, trace, blunder


def test_planted_blunder_ranks_first(tmp_path):
    rules, trace, blunder = planted_trace()
    assert blunder is not None
    rows = review(rules, trace, SEAT, WORLDS, SEED)
    worst = max(rows, key=lambda d: d.pimc_loss)
    assert worst.at == blunder and worst.pimc_loss > 0.5
    assert all(d.pimc_loss == 0 for d in rows if d.at != blunder)  # pimc's best elsewhere, same worlds
    path = tmp_path / "t.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    res = run_cli("review", str(path), "--seat", str(SEAT), "--worlds", str(WORLDS), "--seed", str(SEED),
                  "--format", "json")
    assert res.code == 0, res.err
    out = json.loads(res.out)
    assert out["decisions"][0]["at"] == blunder
    assert abs(out["total_pimc_loss"] - sum(d.pimc_loss for d in rows)) < 1e-3
    res = run_cli("review", str(path), "--seat", str(SEAT), "--worlds", str(WORLDS))
    assert res.code == 0 and "oracle sees every hand" in res.out


def test_review_bad_input(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"x": 1}', encoding="utf-8")
    assert_user_error(run_cli("review", str(bad), "--seat", "0"), "not a game trace")
    res = run_cli("play", "--seed", "2", "--format", "json")
    good = tmp_path / "g.json"
    good.write_text(res.out, encoding="utf-8")
    assert_user_error(run_cli("review", str(good), "--seat", "9"), "--seat")
    assert_user_error(run_cli("review", str(good), "--seat", "0", "--worlds", "0"), "--worlds")
