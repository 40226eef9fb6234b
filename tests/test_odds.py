"""Dealt-hand events, exact probabilities, Monte Carlo agreement and homogeneity tests."""
from __future__ import annotations

import math
from fractions import Fraction

import numba
import numpy as np
import pytest

from tianjiu_sim import preset
from tianjiu_sim.sim.odds import (BLOCK, C_SUPREME, all_events, chi2_sf, exact_deal_any,
                              exact_hand_counts, exact_probabilities, hand_events, homogeneity,
                              per_deal_variance, run_cell, run_odds, select_events, DEAL_EVENT_SETS)
from tianjiu_sim.kernels.shuffles import Shuffle
from tianjiu_sim.errors import TjsimError
from tianjiu_sim.game.tiles import parse_hand

PERFECT = Shuffle("perfect")


def test_supreme_exact():
    counts = exact_hand_counts(8)
    assert Fraction(int(counts[C_SUPREME]), math.comb(32, 8)) == Fraction(56, 992)
    assert exact_deal_any(DEAL_EVENT_SETS["supreme_any"], 4, 8) == Fraction(7, 31)
    ex = exact_probabilities(4, 8, all_events(8))
    assert ex["supreme"] == 56 / 992 and ex["supreme_any"] == 7 / 31


def test_exact_by_hand_formulas():
    ex = exact_probabilities(4, 8, all_events(8))
    c = math.comb
    assert ex["heaven_pair"] == pytest.approx(c(30, 6) / c(32, 8), abs=1e-15)
    assert ex["quartet_heaven"] == pytest.approx(c(28, 4) / c(32, 8), abs=1e-15)
    # no 老 or 二名老: all 8 tiles from the 20 others
    assert ex["no_lao"] == pytest.approx(c(20, 8) / c(32, 8), abs=1e-15)
    assert ex["lao_0"] == pytest.approx(c(26, 8) / c(32, 8), abs=1e-15)
    assert ex["void_za"] == pytest.approx(c(22, 8) / c(32, 8), abs=1e-15)
    assert sum(ex[f"lao_{k}"] for k in range(7)) == pytest.approx(1)
    assert sum(ex[f"pairs_{k}"] for k in range(5)) == pytest.approx(1)
    # quartet_any by inclusion–exclusion agrees with enumeration-free reasoning for one quartet
    assert exact_deal_any((DEAL_EVENT_SETS["quartet_any"][0],), 4, 8) == 4 * Fraction(c(28, 4), c(32, 8))


def test_hand_events_on_written_hands():
    h = parse_hand("6-6 6-6 6-3 5-4 4-2 2-1 5-1 5-1")
    assert hand_events(h) == {"supreme", "heaven_pair", "civil_pair", "military_pair", "quartet",
                              "quartet_heaven", "bonus_chance", "civil_supreme", "lao_4", "erming_0",
                              "pairs_3"}
    h = parse_hand("4-4 3-1 5-5 3-3 2-2 6-1 5-1 5-2")
    assert hand_events(h) == {"no_lao", "lao_0", "erming_0", "pairs_0"}
    h = parse_hand("6-6 1-1 4-4 3-1 5-5 3-3 2-2 6-5")  # no 杂 tile
    assert {"void_suit", "void_za"} <= hand_events(h) and "void_yao" not in hand_events(h)
    h = parse_hand("3-1 3-1 3-2 4-1 1-1 6-2 5-3 6-4")  # 和和五五, pairs 和 五 八, 二名老 ×4
    assert {"quartet_harmony", "military_pair", "civil_pair", "erming_4", "lao_0", "pairs_3"} <= hand_events(h)


def _se(cell, event, units):
    var, _ = per_deal_variance([cell], event.col, units)
    return math.sqrt(var / cell.deals) / units


@pytest.mark.parametrize("rules,players,method", [("hk", None, "left"), ("hk", None, "skin"), ("folk", 3, "rounds")])
def test_monte_carlo_agrees_with_exact(rules, players, method):
    r = preset(rules, players)
    events = all_events(r.tiles_per_player)
    ex = exact_probabilities(r.players, r.tiles_per_player, events)
    for seed in (1, 2, 3):
        cell = run_cell(r, method, PERFECT, "box", 60 * BLOCK, seed)
        for e in events:
            units = r.players if e.unit == "hand" else 1
            p_hat = int(cell.counts[e.col]) / (cell.deals * units)
            p = ex[e.name]
            se = max(_se(cell, e, units), math.sqrt(p * (1 - p) / (cell.deals * units)) / 4, 1e-12)
            assert abs(p_hat - p) <= 4 * se, (seed, e.name, p_hat, p, se)


def test_imperfect_shuffle_well_mixed_agrees_with_exact():
    r = preset("hk")
    ex = exact_probabilities(4, 8, select_events("core", 8))
    cell = run_cell(r, "left", Shuffle("wash", 400), "box", 20 * BLOCK, 5)
    for e in select_events("core", 8):
        units = 4 if e.unit == "hand" else 1
        p_hat = int(cell.counts[e.col]) / (cell.deals * units)
        assert abs(p_hat - ex[e.name]) <= 4 * max(_se(cell, e, units), 1e-12), e.name


def test_results_do_not_depend_on_threads():
    r = preset("hk")
    deals = 7 * BLOCK + 123  # a partial last block
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        a = run_cell(r, "heart", PERFECT, "box", deals, 9).counts.copy()
        b1 = run_cell(r, "wings", Shuffle("riffle", 3), "box", 3000, 9).counts.copy()
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        b = run_cell(r, "heart", PERFECT, "box", deals, 9).counts.copy()
        b2 = run_cell(r, "wings", Shuffle("riffle", 3), "box", 3000, 9).counts.copy()
    finally:
        numba.set_num_threads(before)
    assert (a == b).all() and (b1 == b2).all()


def test_a_cell_gives_the_same_numbers_alone_or_with_others():
    r = preset("hk")
    events = select_events("core", 8)
    alone = run_odds(r, ["ears"], [PERFECT], "box", 5000, 4, events)
    together = run_odds(r, ["left", "ears"], [PERFECT], "box", 5000, 4, events)
    assert (alone.cells[("ears", "perfect")].counts == together.cells[("ears", "perfect")].counts).all()


def test_methods_differ_with_wash5_from_box_but_not_with_perfect():
    r = preset("hk")
    events = select_events("core", 8)
    methods = ["left", "right", "one-by-one", "skin", "heart", "dragon-phoenix", "rounds"]
    run = run_odds(r, methods, [Shuffle("wash", 5)], "box", 12 * BLOCK, 1, events)
    h = run.homogeneity()["wash:5"]
    assert h["bonferroni_p"] < 1e-6
    for seed in (1, 2):
        run = run_odds(r, methods, [PERFECT], "box", 12 * BLOCK, seed, events)
        h = run.homogeneity()["perfect"]
        assert h["bonferroni_p"] > 0.01, h


def test_homogeneity_statistic():
    from tianjiu_sim.sim.odds import Cell, N_COLS

    def cell(hits, deals):
        counts = np.zeros(N_COLS, dtype=np.int64)
        counts[0] = hits
        return Cell("m", PERFECT, deals, counts)

    # Binomial fallback (few blocks) = the classic 2×k chi-square without continuity correction.
    t = homogeneity([cell(30, 100), cell(50, 100)], 0, 1)
    assert t["variance"] == "binomial"
    assert t["statistic"] == pytest.approx(8.3333333, rel=1e-6)
    assert t["p_value"] == pytest.approx(0.003892, rel=1e-3)
    assert homogeneity([cell(0, 100), cell(0, 100)], 0, 1)["p_value"] == 1.0


def test_chi2_sf_known_values():
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(5.991464547107979, 2) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(18.307038053275146, 10) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(11.070497693516351, 5) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(0.0, 3) == 1.0


def test_select_events():
    assert [e.name for e in select_events("core", 8)] == [
        "supreme", "heaven_pair", "civil_pair", "military_pair", "quartet", "no_lao", "void_suit", "supreme_any"]
    assert [e.name for e in select_events("lao,supreme", 8)][-1] == "supreme"
    assert len(select_events("all", 10)) == len(all_events(10))
    with pytest.raises(TjsimError, match="allowed: all, core"):
        select_events("supreme,bogus", 8)


def _events_by_tiles(hand: list[str]) -> set[str]:
    """Every hand event of a hand (tile names), written from INTERFACES.md / the event texts."""
    from collections import Counter

    n = Counter(hand)
    has = lambda *tiles: all(n[t] >= Counter(tiles)[t] for t in tiles)  # noqa: E731
    civil = ["6-6", "1-1", "4-4", "3-1", "5-5", "3-3", "2-2", "6-5", "6-4", "6-1", "5-1"]
    military = [("6-3", "5-4"), ("6-2", "5-3"), ("5-2", "4-3"), ("3-2", "4-1")]
    quartets = {"heaven": ("6-6", "6-6", "6-3", "5-4"), "earth": ("1-1", "1-1", "6-2", "5-3"),
                "man": ("4-4", "4-4", "5-2", "4-3"), "harmony": ("3-1", "3-1", "3-2", "4-1")}
    lao = ["6-6", "6-3", "5-4", "6-5"]
    erming = ["1-1", "6-2", "5-3", "6-4"]
    suits = {"gong": ["6-6", "1-1", "4-4", "3-1", "5-5", "3-3", "2-2"], "yao": ["6-5", "6-4", "6-1", "5-1"]}
    suits["za"] = [t for t in n if t not in suits["gong"] + suits["yao"]]
    pairs = sum(n[t] == 2 for t in civil) + sum(has(*m) for m in military)
    out = {f"lao_{sum(n[t] for t in lao)}", f"erming_{sum(n[t] for t in erming)}", f"pairs_{pairs}"}
    flags = {
        "supreme": has("4-2", "2-1"), "heaven_pair": n["6-6"] == 2,
        "civil_pair": any(n[t] == 2 for t in civil), "military_pair": any(has(*m) for m in military),
        "quartet": any(has(*q) for q in quartets.values()),
        "no_lao": not any(n[t] for t in lao + erming),
        "void_suit": any(not any(n[t] for t in s) for s in suits.values()),
        "civil_supreme": n["5-1"] == 2,
        **{f"void_{s}": not any(n[t] for t in tiles) for s, tiles in suits.items()},
        **{f"quartet_{q}": has(*tiles) for q, tiles in quartets.items()},
    }
    flags["bonus_chance"] = flags["supreme"] or flags["quartet"]
    return out | {k for k, v in flags.items() if v}


def test_byte_table_events_match_a_tile_by_tile_definition():
    """The kernels' byte-table evaluation against the events written out per tile, on random hands."""
    from tianjiu_sim.game.tiles import tile_list

    rng = np.random.default_rng(5)
    for size in (8, 10, 8, 10, 1, 15):
        for _ in range(400):
            mask = int(sum(1 << int(b) for b in rng.choice(32, size, replace=False)))
            assert hand_events(mask) == _events_by_tiles(tile_list(mask)), tile_list(mask)


def test_core_only_counts_the_same_core_columns():
    """Counting only the INTERFACES.md events gives the same numbers for them, and nothing else."""
    core = [e.col for e in select_events("core", 8)]
    rest = [c for c in range(len(run_cell(preset("hk"), "left", PERFECT, "box", 10, 1).counts)) if c not in core]
    for shuffle in (PERFECT, Shuffle("wash", 3)):
        full = run_cell(preset("hk"), "heart", shuffle, "box", 3 * BLOCK + 17, 4).counts
        only = run_cell(preset("hk"), "heart", shuffle, "box", 3 * BLOCK + 17, 4, core_only=True).counts
        assert (only[core] == full[core]).all() and not only[rest].any() and full[rest].any()
