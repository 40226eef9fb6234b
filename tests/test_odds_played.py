"""`deal-odds --from played`: imperfect shuffles starting from a simulated previous deal's gathered tricks."""
from __future__ import annotations

import json
import math

import numba
import numpy as np
from conftest import run_cli

from tianjiu_sim import preset
from tianjiu_sim.sim.odds import (
    BLOCK, exact_probabilities, previous_orders, run_cell, run_odds, select_events
)
from tianjiu_sim.kernels.shuffles import Shuffle

PERFECT = Shuffle("perfect")
NONE = Shuffle("none")


def test_previous_orders_are_permutations_keyed_on_deal_index():
    r = preset("hk")
    a = previous_orders(r, 3, 0, 300)
    assert a.shape == (300, 32)
    assert (np.sort(a, axis=1) == np.arange(32)).all()
    # row i is deal index i's previous deal whatever chunk it is generated in
    assert (previous_orders(r, 3, 100, 50) == a[100:150]).all()
    assert not (previous_orders(r, 4, 0, 300) == a).all()
    assert not (previous_orders(r, 3, 0, 300, "random") == a).all()


def test_previous_order_is_the_played_tiles_in_play_order():
    """hk: all 32 tiles are played, so every trick's tiles lie together (a pair stays adjacent
    more often than a random order allows)."""
    r = preset("hk")
    a = previous_orders(r, 1, 0, 2000)
    pos = np.argsort(a, axis=1)  # pos[i, tile]
    adjacent = np.abs(pos[:, 0] - pos[:, 1]) == 1  # the two 天 6-6 copies
    assert adjacent.mean() > 3 * (2 / 32)


def test_folk_folded_tiles_come_last_in_box_order():
    r = preset("folk", 3)
    a = previous_orders(r, 2, 0, 200)
    assert (np.sort(a, axis=1) == np.arange(32)).all()
    dealt = r.players * r.tiles_per_player
    assert dealt < 32
    # the undealt tiles (and any folded hand's) end the order, ascending
    assert (np.diff(a[:, dealt:], axis=1) > 0).all()


def test_played_is_deterministic_and_thread_independent():
    r = preset("hk")
    deals = 2 * BLOCK + 77  # a partial last chunk
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        a = run_cell(r, "wings", NONE, "played", deals, 9).counts.copy()
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        b = run_cell(r, "wings", NONE, "played", deals, 9).counts.copy()
    finally:
        numba.set_num_threads(before)
    assert (a == b).all()
    assert (run_cell(r, "wings", NONE, "played", deals, 9).counts == a).all()
    assert not (run_cell(r, "wings", NONE, "played", deals, 10).counts == a).all()
    assert not (run_cell(r, "wings", NONE, "box", deals, 9).counts == a).all()


def test_a_played_cell_is_the_same_alone_or_with_others():
    r = preset("hk")
    events = select_events("core", 8)
    alone = run_odds(r, ["ears"], [Shuffle("riffle", 2)], "played", 5000, 4, events)
    together = run_odds(r, ["left", "ears"], [NONE, Shuffle("riffle", 2), PERFECT], "played", 5000, 4, events)
    key = ("ears", "riffle:2")
    assert (alone.cells[key].counts == together.cells[key].counts).all()


def test_perfect_shuffle_ignores_the_start_order():
    r = preset("hk")
    a = run_cell(r, "left", PERFECT, "played", 10000, 5).counts
    b = run_cell(r, "left", PERFECT, "box", 10000, 5).counts
    assert (a == b).all()


def _p(cell, event, units=4):
    return int(cell.counts[event.col]) / (cell.deals * units)


def test_none_from_played_keeps_pairs_together_but_good_shuffles_forget():
    r = preset("hk")
    events = {e.name: e for e in select_events("core", 8)}
    ex = exact_probabilities(4, 8, list(events.values()))
    deals = 4 * BLOCK
    none = run_cell(r, "left", NONE, "played", deals, 1)
    # gathered tricks keep pairs together and `left` deals two whole stacks = 8 consecutive tiles
    assert _p(none, events["civil_pair"]) > ex["civil_pair"] + 0.15
    assert _p(none, events["quartet"]) > 4 * ex["quartet"]
    for sh in (Shuffle("riffle", 7), Shuffle("wash", 200)):
        cell = run_cell(r, "left", sh, "played", deals, 1)
        for e in events.values():
            units = 4 if e.unit == "hand" else 1
            p = ex[e.name]
            se = math.sqrt(p * (1 - p) / (deals * units)) * 1.5  # hands of a deal are dependent
            assert abs(_p(cell, e, units) - p) <= 4 * se, (sh.name, e.name, _p(cell, e, units), p)


def test_cli_from_played(tmp_path):
    base = ("deal-odds", "--method", "left,skin", "--shuffle", "none", "--shuffle", "riffle:3", "--shuffle",
            "perfect", "--from", "played", "--deals", "6000", "--seed", "7", "--format", "csv")
    one = run_cli(*base, "--threads", "1")
    two = run_cli(*base, "--threads", "2")
    assert one.code == 0 and two.code == 0, (one.err, two.err)
    assert one.out == two.out
    box = run_cli(*base[:-8], "--from", "box", "--deals", "6000", "--seed", "7", "--format", "csv")
    assert box.code == 0, box.err
    perfect = [line for line in one.out.splitlines() if ",perfect," in line]
    assert perfect and perfect == [line for line in box.out.splitlines() if ",perfect," in line]
    assert [line for line in one.out.splitlines() if ",none," in line] != \
        [line for line in box.out.splitlines() if ",none," in line]
    res = run_cli(*base[:-2], "--previous-policy", "random", "--format", "json")
    assert res.code == 0, res.err
    data = json.loads(res.out)
    assert data["from"] == "played" and data["previous_policy"] == "random"
    table = run_cli(*base[:-2])
    assert "from played order (a previous deal per deal, played by heuristic)" in table.out
    assert "--from played gives the --from box numbers" in table.out
