"""Exact figures of the compare games against a plain-Python reference and exact identities."""
from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from tianjiu_sim.game.tiles import FULL_MASK, TILE_KIND, bits_of, parse_hand
from tianjiu_sim.paigow import analysis, ways
from tianjiu_sim.paigow.hands import hand_key, pack_classes, rank_table, split_pairs
from tianjiu_sim.paigow.profiles import profile, with_settings


def key(p, a: int, b: int):
    return hand_key(p, TILE_KIND[a], TILE_KIND[b])


def ref_cmp(p, mine, theirs) -> int:
    if mine > theirs:
        return 1
    if mine < theirs:
        return -1
    return -1 if p.ties == "banker" else 0


def ref_settle(p, s: int) -> int:
    if p.half_push == "win":
        return (s > 0) - (s < 0)
    return 1 if s == 2 else (-1 if s == -2 else 0)


def ref_two_tile(p, hand: int, shown: int = 0) -> tuple[float, float, float]:
    """Plain Python, straight from §7.1: the banker's two tiles from every tile not seen."""
    a, b = bits_of(hand)
    mine = key(p, a, b)
    left = [t for t in bits_of(FULL_MASK & ~hand & ~shown)]
    res = [ref_settle(p, 2 * ref_cmp(p, mine, key(p, c, d))) for c, d in combinations(left, 2)]
    n = len(res)
    return res.count(1) / n, res.count(0) / n, res.count(-1) / n


def row_of(rows, text, name="kong"):
    """The row of a hand (rows name one representative of equivalent tiles: 6-2 for 5-3 …)."""
    t = rank_table(profile(name)).tile_class

    def cls(h):
        return sorted(int(t[b]) for b in bits_of(parse_hand(h)))
    return next(r for r in rows if cls(r["hand"]) == cls(text))


@pytest.mark.parametrize("hand", ["6-6 6-3", "3-2 4-1", "1-1 6-3", "6-5 5-3", "2-1 4-2", "5-5 6-4"])
def test_kong_odds_match_reference(hand):
    p = profile("kong")
    r = row_of(analysis.kong_odds(p), hand)
    assert (r["win"], r["push"], r["lose"]) == pytest.approx(ref_two_tile(p, parse_hand(hand)), abs=1e-12)


def test_kong_odds_given_shown_tiles():
    p = profile("kong")
    shown = parse_hand("6-6 6-6 5-4 2-1 4-4 1-1 3-1 6-5")
    rows = analysis.kong_odds(p, shown)
    for hand in ("6-3 1-1", "4-2 5-3", "5-5 6-4"):
        avail = FULL_MASK & ~shown
        r = row_of(rows, hand)
        assert (r["win"], r["push"], r["lose"]) == pytest.approx(
            ref_two_tile(p, parse_hand(hand, avail), shown), abs=1e-12)
    assert sum(r["dealt"] for r in rows) == pytest.approx(1.0)
    assert not any("6-6" in r["hand"].split() for r in rows)  # both 天 are gone


def test_kong_edge_exactly_zero_with_ties_pushing():
    """The two hands are exchangeable: with ties pushing and no commission the banker's edge is 0."""
    g = ways.game(profile("kong"))
    w, l, _ = g.values(ways.house_way(g), True)
    assert w[:, 0].sum() == l[:, 0].sum()  # integer counts: exactly equal
    assert analysis.edge(profile("kong"))["player_edge"] == 0.0


def test_kong_ties_and_commission_cost_exactly_what_they_say():
    base = analysis.edge(profile("kong"))
    banker_ties = analysis.edge(profile("kong", ties="banker"))
    assert banker_ties["player_edge"] == pytest.approx(-base["push"], abs=1e-15)  # every push becomes a loss
    assert banker_ties["push"] == pytest.approx(0.0, abs=1e-15)
    com = analysis.edge(profile("kong", commission=0.05))
    assert com["player_edge"] == pytest.approx(-0.05 * base["win"], abs=1e-15)
    table = analysis.edge(profile("kong", commission=0.05, players=2))
    assert table["banker_edge_vs_table"] == pytest.approx(2 * table["banker_edge"])


def test_earth_wong_changes_exactly_the_hands_it_names():
    p, q = profile("kong"), profile("kong", earth_wong=True)
    a, b = row_of(analysis.kong_odds(p), "6-6 6-2"), row_of(analysis.kong_odds(q), "6-6 6-2")
    assert a["win"] - b["win"] == pytest.approx(4 / 435)  # 地 × two nines now beat 天摃
    assert b["lose"] - a["lose"] == pytest.approx(4 / 435)


def test_dihou_lowest_changes_its_hand_only():
    p, q = profile("kong"), profile("kong", dihou_lowest=True)
    a, b = row_of(analysis.kong_odds(p), "1-1 6-3"), row_of(analysis.kong_odds(q), "1-1 6-3")
    assert b["win"] < a["win"] and b["win"] == 0.0  # below every other hand; only the other 地猴一 ties
    assert b["push"] == pytest.approx(1 / 435)


def ref_four_tile(p, g, hand_text: str, banker: np.ndarray) -> list[tuple[float, float, float]]:
    """Plain Python: every banker hand of 4 of the 28 unseen tiles, split by the banker's strategy."""
    hand = parse_hand(hand_text)
    tiles = list(bits_of(hand))
    mine = []
    for a, b, c, d in ((0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2)):
        k1, k2 = key(p, tiles[a], tiles[b]), key(p, tiles[c], tiles[d])
        mine.append((min(k1, k2), max(k1, k2)))
    counts = [[0, 0, 0] for _ in mine]
    left = list(bits_of(FULL_MASK & ~hand))
    table = g.table
    for combo in combinations(left, 4):
        h = int(g.hands.lookup[pack_classes(table.tile_class[t] for t in combo)])
        s = int(np.argmax(banker[h]))
        pa, pb = split_pairs(g.hands, h, s)
        k1, k2 = key(p, *pa), key(p, *pb)
        bf, bb = min(k1, k2), max(k1, k2)
        for i, (mf, mb) in enumerate(mine):
            r = ref_settle(p, ref_cmp(p, mf, bf) + ref_cmp(p, mb, bb))
            counts[i][1 - r] += 1
    n = sum(counts[0])
    return [tuple(c / n for c in cnt) for cnt in counts]


@pytest.mark.parametrize("name,hand", [("vegas", "6-6 4-4 3-1 2-1"), ("yabao", "6-3 5-2 4-4 1-1")])
def test_four_tile_values_match_reference(name, hand):
    p = profile(name)
    g = ways.game(p)
    ref = ref_four_tile(p, g, hand, ways.house_way(g))
    h = analysis.hand_index(g, parse_hand(hand))
    w, l, n = g.values(ways.house_way(g), True, rows=[h])
    # split s of the distinct hand and of the reference use the same tile order up to copies
    got = sorted((w[0, s] / n[0], 1 - (w[0, s] + l[0, s]) / n[0], l[0, s] / n[0]) for s in range(3))
    assert np.allclose(got, sorted(ref), atol=1e-12)


def test_yabao_symmetric_game_has_zero_edge():
    """壓寶 with ties pushing and no commission: the same way on both sides gives exactly 0."""
    e = analysis.edge(profile("yabao"))
    assert abs(e["player_edge"]) < 1e-15 and e["win"] == pytest.approx(e["lose"], abs=1e-15)
    assert e["until_decided"]["win"] == pytest.approx(0.5)


def test_best_reply_and_solution_are_consistent():
    p = profile("vegas")
    house = analysis.edge(p)
    best = analysis.edge(p, "best", "house")
    punish = analysis.edge(p, "house", "best")
    eq = analysis.edge(p, "equilibrium", "equilibrium")
    assert best["player_edge"] >= house["player_edge"] >= punish["player_edge"]
    sol = eq["equilibrium"]
    assert sol["gap"] < 1e-9  # neither side can gain by deviating: an exact solution
    assert all(w["loss_as_player"] >= -1e-12 and w["loss_as_banker"] >= -1e-12 for w in sol["ways"])
    assert eq["player_edge"] == pytest.approx(sol["value"], abs=1e-12)
    vs_eq_banker = analysis.edge(p, "best", "equilibrium")["player_edge"]
    assert vs_eq_banker == pytest.approx(sol["value"], abs=1e-9)  # no gain against the solution
    assert analysis.edge(p, "house", "equilibrium")["player_edge"] <= sol["value"] + 1e-12
    g = ways.game(p)
    s = analysis.solved(g)
    assert np.allclose(s.player.sum(axis=1), 1) and np.allclose(s.banker.sum(axis=1), 1)


@pytest.mark.slow
def test_yabao_solution_value_is_zero():
    """A symmetric zero-sum game has value 0."""
    sol = analysis.solved(ways.game(profile("yabao")))
    assert abs(sol.value) < 1e-9 and sol.gap < 1e-9


@pytest.mark.parametrize("hand,front,back", [
    ("3-1 3-1 6-6 5-5", "5-5 6-6", "3-1 3-1"),  # pair rule A: never split 4s
    ("2-1 4-2 3-3 3-1", "3-1 4-2", "3-3 2-1"),  # rule B: split Gee Joon with a 6 and a 4
    ("6-3 5-4 6-6 1-1", "1-1 5-4", "6-6 6-3"),  # rule D: split 9s with 2 and 12 (two wongs)
    ("6-6 6-3 5-3 6-5", "6-5 5-3", "6-6 6-3"),  # wong over gong when the fourth tile is an 11
    ("6-6 6-3 5-3 3-2", "6-3 3-2", "6-6 5-3"),  # otherwise gong over wong
])
def test_foxwoods_cases(hand, front, back):
    g = ways.game(profile("vegas"))
    h = analysis.hand_index(g, parse_hand(hand))
    s = ways.foxwoods_split(g, h)
    f, b, _, _ = analysis._pair_text(g, h, s)
    t = g.table.tile_class

    def cls(text):  # a representative tile stands for its equivalents (6-2 for 5-3)
        return sorted(int(t[x]) for x in bits_of(parse_hand(text)))
    assert (cls(f), cls(b)) == (cls(front), cls(back))


def test_half_push_win_helps_the_side_that_wins_the_other_pair():
    p = profile("yabao")
    q = with_settings(p, half_push="win")
    a, b = analysis.edge(p), analysis.edge(q)
    assert b["push"] < a["push"]  # a push on one pair no longer voids the other's win
    assert abs(b["player_edge"]) < 1e-15  # still symmetric


def test_rank_table_is_symmetric():
    r = rank_table(profile("vegas")).rank
    assert (r == r.T).all()


def test_kong_later_rounds_remembering_gains_nothing():
    """Rounds 2–4: whatever tiles were shown, the two hands are still exchangeable, so the edge stays 0."""
    p = profile("kong", rounds_per_shuffle=4)
    for shown in ("6-6 6-6 5-4 2-1 4-4 1-1 3-1 6-5", "2-1 4-2 6-3 5-4 6-6 6-6 1-1 1-1 4-4 4-4 3-1 3-1 5-5 5-5 3-3 3-3"):
        e = analysis.edge(p, shown=parse_hand(shown))
        assert abs(e["player_edge"]) < 1e-15
    banker_ties = analysis.edge(profile("kong", ties="banker"), shown=parse_hand("6-6 6-6 5-4 2-1"))
    assert banker_ties["player_edge"] < 0  # copies to the banker: never a favourable bet


def test_yabao_second_round_best_reply_given_shown_tiles():
    """壓寶's second round: a player who remembers round 1's 16 tiles and replies best gains."""
    p = profile("yabao", rounds_per_shuffle=2)
    shown = parse_hand("6-6 6-6 1-1 1-1 4-4 4-4 3-1 3-1 5-5 5-5 3-3 3-3 2-2 2-2 6-5 6-5")
    same = analysis.edge(p, shown=shown)
    best = analysis.edge(p, "best", "house", shown=shown)
    assert abs(same["player_edge"]) < 1e-15 and best["player_edge"] > 0.01
    assert best["win"] + best["push"] + best["lose"] == pytest.approx(1.0)


from hypothesis import given, settings
from hypothesis import strategies as st


@settings(max_examples=15, deadline=None)
@given(st.sets(st.integers(0, 31), max_size=20))
def test_kong_any_shown_tiles_edge_zero_and_odds_sum_to_one(shown_bits):
    shown = sum(1 << b for b in shown_bits)
    p = profile("kong")
    assert abs(analysis.edge(p, shown=shown)["player_edge"]) < 1e-14
    rows = analysis.kong_odds(p, shown)
    assert sum(r["dealt"] for r in rows) == pytest.approx(1.0)
    assert all(r["win"] + r["push"] + r["lose"] == pytest.approx(1.0) for r in rows)


@settings(max_examples=10, deadline=None)
@given(st.sets(st.integers(0, 31), min_size=4, max_size=4), st.sampled_from(["vegas"]))  # yabao: its solve is slow
def test_split_values_best_and_costs(bits, name):
    rows = analysis.split_rows(profile(name), sum(1 << b for b in bits))
    best = max(r["value"] for r in rows)
    assert sum(r["best"] for r in rows) == 1 and sum(r["house"] for r in rows) == 1
    for r in rows:
        assert r["cost"] == pytest.approx(best - r["value"]) and r["cost"] >= 0
        assert r["win"] + r["push"] + r["lose"] == pytest.approx(1.0)
        assert r["value"] >= -1 and r["value"] <= 1


def test_redeal_pushes_and_house_way_settings():
    assert "until_decided" in analysis.edge(profile("yabao")) and "until_decided" not in analysis.edge(
        profile("yabao", redeal_pushes=False))
    # each named way does what its name says, on every hand; house_way picks which one the house plays
    g = ways.game(profile("yabao"))
    f = np.argmax(ways.named_way(g, "front"), axis=1)
    b = np.argmax(ways.named_way(g, "back"), axis=1)
    rows = np.arange(len(g.hands))
    assert (g.front[rows, f] == g.front.max(axis=1)).all() and (g.back[rows, b] == g.back.max(axis=1)).all()
    assert (f != b).any()
    h = ways.game(profile("yabao", house_way="back"))
    assert (np.argmax(ways.house_way(h), axis=1) == b).all() and (np.argmax(ways.house_way(g), axis=1) == f).all()


def test_foxwoods_never_splits_a_pair_into_two_lower_hands():
    """6-6 6-6 2-1 3-1: rule C would make 6/8; keeping the pair gives 7/pair, higher on both sides."""
    g = ways.game(profile("vegas"))
    h = analysis.hand_index(g, parse_hand("6-6 6-6 2-1 3-1"))
    f, b, _, _ = analysis._pair_text(g, h, ways.foxwoods_split(g, h))
    assert sorted(b.split()) == ["6-6", "6-6"]
