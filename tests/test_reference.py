"""Tests of the reference engine (tianjiu_sim/reference.py) and of the trace validator.

Hand-written deals are given as a trace skeleton (hands + actions) and run through
`replay`, which re-derives winners, 戙, bonuses and payments; the same traces, tampered
with, must be rejected by both `replay` and `validate_trace`. Short hands (2–4 tiles,
set with dataclasses.replace) keep each rule's scenario small.
"""
from __future__ import annotations

import copy
import dataclasses
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))
from trace_validator import TraceInvalid, validate_trace  # noqa: E402

from tianjiu_sim.game.reference import (  # noqa: E402
    IllegalAction, all_plays, beats, classify, classify_pips, deal_reference, dice_suit, legal_leads,
    play_deal_reference, replay, settle_reference,
)
from tianjiu_sim.kernels.layout import STREAM_DICE
from tianjiu_sim.kernels.rng import randbelow, seed_stream  # noqa: E402
from tianjiu_sim.game.rules import preset  # noqa: E402
from tianjiu_sim.game.tiles import parse_hand  # noqa: E402

HK = preset("hk")


def small(name: str, tiles: int, players: int = 4, **over) -> object:
    """A preset cut down to `tiles` per player (baseline tiles/2) for compact scenarios."""
    r = preset(name, players)
    return dataclasses.replace(r, tiles_per_player=tiles, baseline=tiles // 2, **over)


def skeleton(rules, hands: str, tricks, banker=0, streak=1, folded=(), seed=0, deal=0) -> dict:
    """A trace with only hands and actions; tricks are lists of (seat, 'L'|'B'|'D', tiles)."""
    action = {"L": "lead", "B": "beat", "D": "discard"}
    return {
        "rules": rules.name, "players": rules.players, "seed": seed, "deal": deal,
        "method": "left", "shuffle": "perfect", "banker": banker, "streak": streak,
        "hands": [h.split() for h in hands.split("|")],
        "folded": list(folded),
        "tricks": [{"leader": t[0][0], "winner": None, "dong": None,
                    "plays": [{"seat": s, "action": action[a], "tiles": x.split()} for s, a, x in t]}
                   for t in tricks],
        "dong": None, "closer": None, "bonuses": [], "payments": None,
    }


def run(rules, hands, tricks, **kw) -> dict:
    """Replay a hand-written deal and check the result with the independent validator."""
    trace = replay(rules, skeleton(rules, hands, tricks, **kw))
    validate_trace(rules, trace)
    return trace


def rejected(rules, hands, tricks, fragment: str = "", **kw) -> None:
    """The hand-written deal must be refused by replay, naming the trick and seat."""
    with pytest.raises(IllegalAction) as e:
        replay(rules, skeleton(rules, hands, tricks, **kw))
    assert fragment in str(e.value), str(e.value)


def bonuses(trace) -> list[tuple]:
    """A trace's bonuses as (type, seat, amount) tuples."""
    return [(b["type"], b["seat"], b["amount"]) for b in trace["bonuses"]]


# ---------------------------------------------------------------------------
# §5.5 worked examples
# ---------------------------------------------------------------------------

def test_worked_examples_hk_east_banker():
    assert settle_reference(HK, [1, 4, 0, 3], 3, banker=0, streak=1) == [-6, 0, -5, 11]
    assert settle_reference(HK, [1, 5, 0, 2], 3, banker=0, streak=1) == [-6, 1, -5, 10]


@pytest.mark.parametrize("banker, streak, b_dong, b_pays", [
    (0, 1, 0, 5), (0, 1, 6, -2), (0, 1, 4, 0),          # neither A (seat 3) nor B (seat 1) banker
    (1, 2, 6, -2),                                      # B banker, owed: not multiplied
    (1, 1, 1, 6), (1, 1, 0, 10), (1, 2, 0, 15),         # B banker pays ×(s+1)
    (3, 1, 0, 10), (3, 2, 0, 15), (3, 3, 3, 4), (3, 1, 5, -2),  # A (closer) banker: 入一入出二
])
def test_worked_examples_seed_003(banker, streak, b_dong, b_pays):
    dong = [0, b_dong, 7 - b_dong, 1]  # A = seat 3 closes, B = seat 1, the rest to seat 2
    pay = settle_reference(HK, dong, 3, banker=banker, streak=streak)
    assert pay[1] == -b_pays
    assert sum(pay) == 0


def test_settlement_folk_sweep_and_fold():
    folk = preset("folk")  # 4 × 8, baseline 4, 全码 ×2, no banker multiplier
    assert settle_reference(folk, [8, 0, 0, 0], 0, banker=1, streak=3) == [30, -10, -10, -10]
    assert settle_reference(folk, [0, 6, 2, 0], 1, folded=[3]) == [-5, 7, -2, 0]
    assert settle_reference(folk, [0, 0, 0, 0], None) == [0, 0, 0, 0]


# ---------------------------------------------------------------------------
# Classification and beats
# ---------------------------------------------------------------------------

def test_classification_examples():
    assert classify_pips("hk", ["6-6", "6-3"]) == (("mixed",), 9)
    assert classify_pips("hk", ["6-6", "6-6", "5-4"]) == (("three_civil",), 9)
    assert classify_pips("hk", ["4-4", "5-2", "4-3"]) == (("three_military",), 7)
    assert classify_pips("hk", ["3-1", "3-1", "3-2", "4-1"]) == (("quartet",), 5)
    assert classify_pips("hk", ["4-2", "2-1"]) == (("supreme",), 1)
    assert classify_pips("hk", ["6-5", "6-5"])[0] == ("pair", "文")
    assert classify_pips("folk", ["6-5", "6-5"])[0] == ("pair", "幺")
    assert classify_pips("folk", ["6-3", "5-4"]) == (("pair", "杂"), 9)
    for no_play in (["6-6", "6-2"], ["6-3", "6-2"], ["4-2", "3-2"], ["6-6", "1-1"],
                    ["6-6", "6-6", "6-2"], ["6-6", "6-3", "6-2"]):
        assert classify_pips("hk", no_play) is None, no_play
    assert len(all_plays("hk")) == len(all_plays("folk")) == 84


@pytest.mark.parametrize("suits_rules", [preset("hk"), preset("folk")], ids=["hk", "folk"])
def test_beats_relation_properties(suits_rules):
    plays = all_plays(suits_rules.suits)
    for a in plays:
        for led in (True, False):
            assert not beats(suits_rules, a, a, led), a  # no play beats itself
    for a in plays:
        for b in plays:
            for led in (True, False):
                if beats(suits_rules, a, b, led):
                    assert not beats(suits_rules, b, a, led), (a, b)  # asymmetric
                    assert a.size == b.size
    by_class: dict = {}
    for p in plays:
        by_class.setdefault(p.cls, []).append(p)
    for members in by_class.values():  # transitive within a class (standing followers)
        for a in members:
            for b in members:
                if not beats(suits_rules, a, b, False):
                    continue
                for c in members:
                    if beats(suits_rules, b, c, False):
                        assert beats(suits_rules, a, c, False), (a, b, c)


def test_three_civil_and_three_military_are_separate_classes():
    def play(text):
        return classify(HK, parse_hand(text))
    renren7 = play("4-4 4-4 5-2")
    assert beats(HK, play("1-1 1-1 6-2"), renren7, True)
    assert not beats(HK, play("6-6 6-3 5-4"), renren7, True)
    assert beats(HK, play("6-6 6-3 5-4"), play("4-4 5-2 4-3"), False)


def test_canonical_leads_use_lower_copy():
    hand = parse_hand("6-6 6-6 6-3")
    leads = legal_leads(HK, hand)
    assert 1 << 0 in leads and 1 << 1 not in leads  # one 6-6: the lower copy only
    assert (1 << 0 | 1 << 22) in leads and (1 << 1 | 1 << 22) not in leads
    assert leads == sorted(leads)


# ---------------------------------------------------------------------------
# Supremes (§3.3)
# ---------------------------------------------------------------------------

SUP_HANDS = "4-2 2-1 5-5 5-5 | 6-2 5-3 3-3 3-3 | 6-6 6-6 2-2 2-2 | 1-1 1-1 6-5 6-5"


def test_hk_supreme_lead_cannot_be_beaten():
    r = small("hk", 4)
    rejected(r, SUP_HANDS, [[(0, "L", "4-2 2-1"), (1, "B", "6-2 5-3")]], "trick 0, seat 1")
    rejected(r, SUP_HANDS, [[(0, "L", "4-2 2-1"), (1, "D", "3-3 3-3"), (2, "B", "6-6 6-6")]],
             "trick 0, seat 2")
    t = run(r, SUP_HANDS, [
        [(0, "L", "4-2 2-1"), (1, "D", "3-3 3-3"), (2, "D", "2-2 2-2"), (3, "D", "6-5 6-5")],
        [(0, "L", "5-5 5-5"), (1, "D", "6-2 5-3"), (2, "B", "6-6 6-6"), (3, "D", "1-1 1-1")]])
    assert [x["winner"] for x in t["tricks"]] == [0, 2]
    assert t["dong"] == [2, 0, 2, 0] and t["closer"] == 2
    # B = 2; E (banker, 2 戙) owes 0; S and N owe 3 each; no banker multiplier unless banker involved
    assert t["payments"] == [0, -3, 6, -3]
    assert t["bonuses"] == []


def test_supreme_played_as_follower_is_only_a_discard():
    r = small("hk", 2)
    rejected(r, "3-2 4-1 | 4-2 2-1 | 6-6 1-1 | 5-5 3-3", [[(0, "L", "3-2 4-1"), (1, "B", "4-2 2-1")]],
             "seat 1")
    # but 4-2 alone is a military six and beats a led five
    t = run(r, "3-2 5-5 | 4-2 2-1 | 6-6 1-1 | 4-4 3-3", [
        [(0, "L", "3-2"), (1, "B", "4-2"), (2, "D", "6-6"), (3, "D", "4-4")],
        [(1, "L", "2-1"), (2, "D", "1-1"), (3, "D", "3-3"), (0, "D", "5-5")]])
    assert t["closer"] == 1


def test_civil_supreme_and_its_catch():
    r = small("hk", 2)
    hands = "5-1 5-1 | 6-6 6-6 | 6-1 6-1 | 1-1 1-1"
    rejected(r, hands, [[(0, "L", "5-1 5-1"), (1, "B", "6-6 6-6")]], "trick 0, seat 1")
    t = run(r, hands, [[(0, "L", "5-1 5-1"), (1, "D", "6-6 6-6"), (2, "B", "6-1 6-1"),
                        (3, "B", "1-1 1-1")]])  # a higher civil pair beats the catcher
    assert t["tricks"][0]["winner"] == 3
    t = run(r, hands, [[(0, "L", "5-1 5-1"), (1, "D", "6-6 6-6"), (2, "D", "6-1 6-1"),
                        (3, "D", "1-1 1-1")]])
    assert t["closer"] == 0
    # as a follower the 5-1 pair is the lowest civil pair
    rejected(r, "2-2 2-2 | 5-1 5-1 | 6-1 6-1 | 1-1 1-1", [[(0, "L", "2-2 2-2"), (1, "B", "5-1 5-1")]],
             "seat 1")
    # without 文尊, a led 5-1 pair is an ordinary lowest pair
    t = run(dataclasses.replace(r, civil_supreme=False), hands,
            [[(0, "L", "5-1 5-1"), (1, "B", "6-6 6-6"), (2, "D", "6-1 6-1"), (3, "D", "1-1 1-1")]])
    assert t["closer"] == 1


def test_folk_zha8_catches_supreme_then_zha9():
    r = small("folk", 2, residual_dice=False)
    hands = "4-2 2-1 | 6-2 5-3 | 6-3 5-4 | 6-6 6-6"
    rejected(r, hands, [[(0, "L", "4-2 2-1"), (1, "D", "6-2 5-3"), (2, "B", "6-3 5-4")]],
             "trick 0, seat 2")  # a 杂9 pair cannot beat the led 至尊 itself
    t = run(r, hands, [[(0, "L", "4-2 2-1"), (1, "B", "6-2 5-3"), (2, "B", "6-3 5-4"),
                        (3, "D", "6-6 6-6")]])
    assert t["tricks"][0]["winner"] == 2
    rejected(r, hands, [[(0, "L", "4-2 2-1"), (1, "B", "6-2 5-3"), (2, "D", "6-3 5-4"),
                         (3, "B", "6-6 6-6")]], "trick 0, seat 3")  # nothing else may


# ---------------------------------------------------------------------------
# Bonuses (§5.4)
# ---------------------------------------------------------------------------

FOLK4 = small("folk", 4, residual_dice=False)
HE_HANDS = "4-2 2-1 6-6 6-6 | 6-2 5-3 3-3 3-3 | 6-3 5-4 1-1 1-1 | 5-5 5-5 2-2 2-2"


def test_he_zun_paid():
    t = run(FOLK4, HE_HANDS, [
        [(0, "L", "4-2 2-1"), (1, "D", "3-3 3-3"), (2, "D", "1-1 1-1"), (3, "D", "5-5 5-5")],
        [(0, "L", "6-6 6-6"), (1, "D", "6-2 5-3"), (2, "D", "6-3 5-4"), (3, "D", "2-2 2-2")]])
    assert bonuses(t) == [("supreme", 0, 6)]
    # 全码 ×2: each owes (2 − 0 + 1) × 2 = 6, plus 2 for 賀尊
    assert t["payments"] == [24, -8, -8, -8]


def test_he_zun_only_at_first_opportunity():
    hands = "6-6 6-6 4-2 2-1 | 6-2 5-3 3-3 3-3 | 6-3 5-4 1-1 1-1 | 5-5 5-5 2-2 2-2"
    t = run(dataclasses.replace(FOLK4, supreme_close=False), hands, [
        [(0, "L", "6-6 6-6"), (1, "D", "3-3 3-3"), (2, "D", "1-1 1-1"), (3, "D", "5-5 5-5")],
        [(0, "L", "4-2 2-1"), (1, "D", "6-2 5-3"), (2, "D", "6-3 5-4"), (3, "D", "2-2 2-2")]])
    assert bonuses(t) == []  # second lead, and the last trick


def test_he_zun_suspended_then_cancelled():
    t = run(FOLK4, HE_HANDS, [
        [(0, "L", "4-2 2-1"), (1, "B", "6-2 5-3"), (2, "D", "1-1 1-1"), (3, "D", "5-5 5-5")],
        [(1, "L", "3-3 3-3"), (2, "D", "6-3 5-4"), (3, "D", "2-2 2-2"), (0, "D", "6-6 6-6")]])
    assert t["closer"] == 1 and bonuses(t) == []
    assert t["payments"] == [-6, 18, -6, -6]


def test_he_zun_suspended_then_paid():
    t = run(FOLK4, HE_HANDS, [
        [(0, "L", "4-2 2-1"), (1, "B", "6-2 5-3"), (2, "D", "1-1 1-1"), (3, "D", "5-5 5-5")],
        [(1, "L", "3-3 3-3"), (2, "D", "6-3 5-4"), (3, "D", "2-2 2-2"), (0, "B", "6-6 6-6")]])
    assert t["dong"] == [2, 2, 0, 0] and t["closer"] == 0
    assert bonuses(t) == [("supreme", 0, 6)]
    assert t["payments"] == [6 + 6, 0 - 2, -3 - 2, -3 - 2]


def test_he_zun_caught_then_rebeaten_by_zha9():
    tricks = [[(0, "L", "4-2 2-1"), (1, "B", "6-2 5-3"), (2, "B", "6-3 5-4"), (3, "D", "5-5 5-5")]]
    t = run(FOLK4, HE_HANDS, tricks + [
        [(2, "L", "1-1 1-1"), (3, "D", "2-2 2-2"), (0, "B", "6-6 6-6"), (1, "D", "3-3 3-3")]])
    assert t["closer"] == 0 and bonuses(t) == [("supreme", 0, 6)]
    t = run(FOLK4, HE_HANDS, tricks + [
        [(2, "L", "1-1 1-1"), (3, "D", "2-2 2-2"), (0, "D", "6-6 6-6"), (1, "D", "3-3 3-3")]])
    assert t["closer"] == 2 and bonuses(t) == []  # the trick's winner (杂9) closed


def test_he_zun_in_hk_when_enabled_is_never_suspended():
    r = small("hk", 4, supreme_bonus=2)
    t = run(r, SUP_HANDS, [
        [(0, "L", "4-2 2-1"), (1, "D", "3-3 3-3"), (2, "D", "2-2 2-2"), (3, "D", "6-5 6-5")],
        [(0, "L", "5-5 5-5"), (1, "D", "6-2 5-3"), (2, "B", "6-6 6-6"), (3, "D", "1-1 1-1")]])
    assert bonuses(t) == [("supreme", 0, 6)]
    assert t["payments"] == [6, -5, 4, -5]


BAO_HANDS = "6-6 6-6 4-2 2-1 | 6-2 5-3 3-3 3-3 | 6-3 5-4 1-1 1-1 | 5-5 5-5 2-2 2-2"
BAO_FIRST = [(0, "L", "6-6 6-6"), (1, "D", "3-3 3-3"), (2, "D", "1-1 1-1"), (3, "D", "5-5 5-5")]


def test_bao_zun_standing_doubles_settlement():
    t = run(FOLK4, BAO_HANDS, [BAO_FIRST, [(0, "L", "4-2 2-1"), (1, "D", "6-2 5-3"),
                                           (2, "D", "6-3 5-4"), (3, "D", "2-2 2-2")]])
    # 全码 ×2 and 包尊 ×2: each owes 3 × 2 × 2 = 12; the extra from doubling is 18
    assert t["payments"] == [36, -12, -12, -12]
    assert bonuses(t) == [("supreme_close", 0, 18)]


def test_bao_zun_caught_gives_reward():
    t = run(FOLK4, BAO_HANDS, [BAO_FIRST, [(0, "L", "4-2 2-1"), (1, "B", "6-2 5-3"),
                                           (2, "D", "6-3 5-4"), (3, "D", "2-2 2-2")]])
    assert t["dong"] == [2, 2, 0, 0] and t["closer"] == 1
    assert bonuses(t) == [("supreme_close", 1, 6)]
    assert t["payments"] == [0 - 2, 6 + 6, -3 - 2, -3 - 2]


def test_bao_zun_caught_then_rebeaten_no_reward():
    t = run(FOLK4, BAO_HANDS, [BAO_FIRST, [(0, "L", "4-2 2-1"), (1, "B", "6-2 5-3"),
                                           (2, "B", "6-3 5-4"), (3, "D", "2-2 2-2")]])
    assert t["closer"] == 2 and bonuses(t) == []
    assert t["payments"] == [0, -3, 6, -3]


QUARTET_HANDS = "3-1 3-1 3-2 4-1 | 6-6 6-6 6-3 5-4 | 1-1 1-1 6-2 5-3 | 4-4 4-4 5-2 4-3"


def test_quartet_bonus_stands_and_beaten_by_higher_quartet():
    t = run(FOLK4, QUARTET_HANDS, [[(0, "L", "3-1 3-1 3-2 4-1"), (1, "D", "6-6 6-6 6-3 5-4"),
                                    (2, "B", "1-1 1-1 6-2 5-3"), (3, "D", "4-4 4-4 5-2 4-3")]])
    assert bonuses(t) == [("quartet", 2, 12)]  # 4 players: 4 from each other player
    assert t["payments"] == [-10, -10, 30, -10]
    t = run(FOLK4, QUARTET_HANDS, [[(0, "L", "3-1 3-1 3-2 4-1"), (1, "D", "6-6 6-6 6-3 5-4"),
                                    (2, "D", "1-1 1-1 6-2 5-3"), (3, "D", "4-4 4-4 5-2 4-3")]])
    assert bonuses(t) == [("quartet", 0, 12)]
    rejected(FOLK4, QUARTET_HANDS, [[(0, "L", "3-1 3-1 3-2 4-1"), (1, "B", "6-6 6-6 6-3 5-4"),
                                     (2, "B", "1-1 1-1 6-2 5-3")]], "trick 0, seat 2")
    t = run(small("hk", 4), QUARTET_HANDS, [[(0, "L", "3-1 3-1 3-2 4-1"), (1, "D", "6-6 6-6 6-3 5-4"),
                                             (2, "D", "1-1 1-1 6-2 5-3"), (3, "D", "4-4 4-4 5-2 4-3")]])
    assert bonuses(t) == []  # hk: bonus 0 (off)


# ---------------------------------------------------------------------------
# Early death (§4.4), fold (§4.6), residual dice (§4.7)
# ---------------------------------------------------------------------------

ED_HANDS = "6-6 5-5 4-4 | 1-1 3-3 6-5 | 2-2 3-1 6-4 | 6-1 5-1 5-1"
ED_FIRST = [[(0, "L", "6-6"), (1, "D", "6-5"), (2, "D", "6-4"), (3, "D", "5-1")],
            [(0, "L", "5-5"), (1, "B", "1-1"), (2, "D", "2-2"), (3, "D", "5-1")]]


def test_early_death_single_last_trick():
    r = small("hk", 3)
    rejected(r, ED_HANDS, ED_FIRST + [[(1, "L", "3-3"), (2, "B", "3-1")]], "trick 2, seat 2")
    t = run(r, ED_HANDS, ED_FIRST + [[(1, "L", "3-3"), (2, "D", "3-1"), (3, "D", "6-1"), (0, "B", "4-4")]])
    assert t["closer"] == 0 and t["dong"] == [2, 1, 0, 0]
    # without early death the 0-戙 player may win it
    t = run(dataclasses.replace(r, early_death=False), ED_HANDS,
            ED_FIRST + [[(1, "L", "3-3"), (2, "B", "3-1"), (3, "D", "6-1"), (0, "D", "4-4")]])
    assert t["closer"] == 2


def test_early_death_allows_pair_last_trick():
    t = run(small("hk", 4), "3-3 3-3 2-2 2-2 | 6-1 6-1 5-1 5-1 | 6-6 6-6 1-1 1-1 | 6-4 6-4 6-5 6-5", [
        [(0, "L", "3-3 3-3"), (1, "D", "6-1 6-1"), (2, "D", "1-1 1-1"), (3, "D", "6-4 6-4")],
        [(0, "L", "2-2 2-2"), (1, "D", "5-1 5-1"), (2, "B", "6-6 6-6"), (3, "D", "6-5 6-5")]])
    assert t["closer"] == 2 and t["dong"] == [2, 0, 2, 0]


FOLD_HANDS = "6-6 6-6 5-5 5-5 | 3-3 3-3 2-2 2-2 | 1-1 1-1 6-1 6-1 | 6-5 6-5 6-4 6-4"


def test_fold_skips_seat_and_pays_nothing():
    t = run(FOLK4, FOLD_HANDS, [
        [(0, "L", "5-5 5-5"), (2, "B", "1-1 1-1"), (3, "D", "6-5 6-5")],
        [(2, "L", "6-1 6-1"), (3, "B", "6-4 6-4"), (0, "D", "6-6 6-6")]], folded=[1])
    assert t["folded"] == [1] and t["dong"] == [0, 0, 2, 2] and t["closer"] == 3
    assert t["payments"] == [-3, 0, 0, 3]
    rejected(FOLK4, FOLD_HANDS, [[(0, "L", "5-5 5-5"), (1, "D", "3-3 3-3")]], "seat 2", folded=[1])
    rejected(FOLK4, FOLD_HANDS, [], "seat 0 folded but may not fold", folded=[0])


def test_folded_banker_passes_the_lead():
    hands = "3-3 3-3 2-2 2-2 | 6-6 6-6 5-5 5-5 | 1-1 1-1 6-1 6-1 | 6-5 6-5 6-4 6-4"
    t = run(FOLK4, hands, [
        [(1, "L", "5-5 5-5"), (2, "B", "1-1 1-1"), (3, "D", "6-5 6-5")],
        [(2, "L", "6-1 6-1"), (3, "D", "6-4 6-4"), (1, "D", "6-6 6-6")]], folded=[0])
    assert t["tricks"][0]["leader"] == 1 and t["closer"] == 2
    assert t["payments"] == [0, -6, 12, -6]  # seat 2 won every 戙: 全码 ×2 (3 × 2 each)


def test_void_deal():
    hands = "3-3 3-3 2-2 2-2 | 5-1 5-1 6-1 6-1 | 4-4 4-4 5-5 5-5 | 6-6 6-6 6-5 6-5"
    t = run(FOLK4, hands, [], folded=[0, 1, 2])
    assert t["tricks"] == [] and t["closer"] is None and t["payments"] == [0, 0, 0, 0]
    r2 = small("folk", 4, players=2, residual_dice=False)
    t = run(r2, "3-3 3-3 2-2 2-2 | 6-6 6-6 6-5 6-5", [], folded=[0])
    assert t["closer"] is None and t["bonuses"] == []


def _dice_total(seed, deal):
    stt = np.zeros(4, dtype=np.uint64)
    seed_stream(stt, seed, STREAM_DICE, deal)
    return 2 + int(randbelow(stt, 6)) + int(randbelow(stt, 6))


def test_dice_suit_ranges_and_fallback():
    folk = preset("folk")
    full = parse_hand("6-6 6-5 6-3")
    assert [dice_suit(folk, t, full) for t in range(2, 13)] == ["幺"] * 3 + ["杂"] * 4 + ["宫"] * 4
    assert dice_suit(folk, 12, parse_hand("6-5 6-3")) == "杂"   # no 宫: first held of 宫, 杂, 幺
    assert dice_suit(folk, 2, parse_hand("6-6 6-3")) == "宫"


@pytest.mark.parametrize("seed", range(6))
def test_residual_dice_force_the_lead_suit(seed):
    r = small("folk", 2, players=3)  # 2 tiles, no play between them: dice on the first lead
    hands = "6-6 6-5 | 1-1 6-4 | 4-4 6-1"
    total = _dice_total(seed, 0)
    suit = "宫" if total >= 9 else "杂" if total >= 5 else "幺"
    good, bad = ("6-6", "6-5") if suit in ("宫", "杂") else ("6-5", "6-6")  # no 杂 held → 宫
    t = run(r, hands, [[(0, "L", good), (1, "D", "6-4"), (2, "D", "6-1")],
                       [(0, "L", bad), (1, "D", "1-1"), (2, "D", "4-4")]], seed=seed)
    assert t["closer"] == 0
    rejected(r, hands, [[(0, "L", bad)]], "trick 0, seat 0", seed=seed)
    with pytest.raises(TraceInvalid):
        bad_trace = copy.deepcopy(t)
        bad_trace["tricks"][0]["plays"][0]["tiles"] = [bad]
        bad_trace["tricks"][1]["plays"][0]["tiles"] = [good]
        validate_trace(r, bad_trace)
    # no dice with 2 players, nor with a pair in hand
    r2 = small("folk", 2, players=2)
    run(r2, "6-6 6-5 | 1-1 6-4", [[(0, "L", bad), (1, "D", "6-4")], [(0, "L", good), (1, "D", "1-1")]],
        seed=seed)


# ---------------------------------------------------------------------------
# The validator rejects broken traces
# ---------------------------------------------------------------------------

def _valid_bao_trace():
    return run(FOLK4, BAO_HANDS, [BAO_FIRST, [(0, "L", "4-2 2-1"), (1, "B", "6-2 5-3"),
                                              (2, "D", "6-3 5-4"), (3, "D", "2-2 2-2")]])


@pytest.mark.parametrize("tamper, fragment", [
    (lambda t: t["tricks"][1].update(winner=0), "trick 1"),
    (lambda t: t["tricks"][0].update(dong=8), "trick 0"),
    (lambda t: t.update(closer=0), "closer"),
    (lambda t: t.update(payments=[0, 0, 0, 0]), "payments"),
    (lambda t: t.update(bonuses=[]), "bonuses"),
    (lambda t: t["bonuses"][0].update(amount=8), "bonuses"),
    (lambda t: t["tricks"][0]["plays"][1].update(tiles=["3-3"]), "trick 0, seat 1"),
    (lambda t: t["tricks"][0]["plays"][1].update(tiles=["3-3", "6-6"]), "trick 0, seat 1"),
    (lambda t: t["tricks"][1]["plays"][3].update(action="beat"), "trick 1, seat 3"),
    (lambda t: t["tricks"][0]["plays"].reverse(), "trick 0"),
    (lambda t: t["tricks"].pop(), "end"),
    (lambda t: t.update(folded=[0]), "fold, seat 0"),
    (lambda t: t["hands"][0].append("6-6"), "hands"),
])
def test_validator_rejects(tamper, fragment):
    t = _valid_bao_trace()
    validate_trace(FOLK4, t)
    tamper(t)
    with pytest.raises(TraceInvalid) as e:
        validate_trace(FOLK4, t)
    assert fragment in str(e.value), str(e.value)


def test_validator_rejects_early_death_and_supreme_beats():
    r = small("hk", 3)
    t = run(r, ED_HANDS, ED_FIRST + [[(1, "L", "3-3"), (2, "D", "3-1"), (3, "D", "6-1"), (0, "B", "4-4")]])
    bad = copy.deepcopy(t)
    bad["tricks"][2]["plays"][1].update(action="beat")
    with pytest.raises(TraceInvalid, match="early death"):
        validate_trace(r, bad)
    r4 = small("hk", 4)
    t = run(r4, SUP_HANDS, [
        [(0, "L", "4-2 2-1"), (1, "D", "3-3 3-3"), (2, "D", "2-2 2-2"), (3, "D", "6-5 6-5")],
        [(0, "L", "5-5 5-5"), (1, "D", "6-2 5-3"), (2, "B", "6-6 6-6"), (3, "D", "1-1 1-1")]])
    bad = copy.deepcopy(t)
    bad["hands"][1] = ["6-2", "5-3", "3-3", "3-3"]
    bad["tricks"][0]["plays"][1] = {"seat": 1, "action": "beat", "tiles": ["6-2", "5-3"]}
    with pytest.raises(TraceInvalid, match="does not beat"):
        validate_trace(r4, bad)


# ---------------------------------------------------------------------------
# Random deals: replay round trip and properties (hypothesis)
# ---------------------------------------------------------------------------

CONFIGS = {
    "hk": preset("hk"),
    "folk4": preset("folk", 4),
    "folk3": preset("folk", 3),
    "folk2": preset("folk", 2),
    "hk+bonus": dataclasses.replace(preset("hk"), supreme_bonus=2, quartet_bonus=4),
    "folk4-bonus": dataclasses.replace(preset("folk", 4), supreme_bonus=0, quartet_bonus=0,
                                       supreme_close=False),
}


def test_deal_reference_is_a_deal():
    for name, r in CONFIGS.items():
        for d in range(20):
            hands = deal_reference(r, 5, d)
            assert all(bin(h).count("1") == r.tiles_per_player for h in hands)
            union = 0
            for h in hands:
                assert union & h == 0
                union |= h


@settings(max_examples=80, deadline=None)
@given(config=st.sampled_from(sorted(CONFIGS)), seed=st.integers(0, 2**32 - 1),
       deal=st.integers(0, 10**6))
def test_random_deal_properties(config, seed, deal):
    r = CONFIGS[config]
    t = play_deal_reference(r, None, seed, deal, ["random"] * r.players)
    validate_trace(r, t)  # legality, conservation of tiles, winners, settlement, bonuses
    assert sum(t["payments"]) == 0
    if t["closer"] is not None:
        assert sum(t["dong"]) == r.tiles_per_player
        assert sum(x["dong"] for x in t["tricks"]) == r.tiles_per_player
    assert replay(r, t) == t
    assert play_deal_reference(r, None, seed, deal, ["random"] * r.players) == t  # deterministic


def test_replay_names_deal_trick_and_seat():
    r = CONFIGS["hk"]
    t = play_deal_reference(r, None, 1, 3, ["random"] * 4)
    bad = copy.deepcopy(t)
    bad["tricks"][2]["plays"][1]["tiles"] = bad["tricks"][2]["plays"][1]["tiles"][:-1] + ["2-1", "2-1"][:1]
    bad["tricks"][2]["plays"][1]["action"] = "beat"
    with pytest.raises(IllegalAction, match=r"deal 3, trick 2, seat \d"):
        replay(r, bad)
