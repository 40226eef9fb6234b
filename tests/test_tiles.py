"""Tiles, notation and the Hand wrapper (RULES.md §1, INTERFACES.md notation)."""
import pytest
from hypothesis import given, strategies as st

from tianjiu_sim.errors import TjsimError
from tianjiu_sim.game.tiles import (BB_CIVIL, BB_LAO, BB_MILITARY, BB_SUPREME, FULL_MASK, KINDS, Hand,
                               format_deal, format_hand, parse_deal, parse_hand, popcount)


def test_the_set_has_32_tiles_22_civil_10_military():
    assert sum(k.copies for k in KINDS) == 32
    assert popcount(BB_CIVIL) == 22 and popcount(BB_MILITARY) == 10
    assert BB_CIVIL | BB_MILITARY == FULL_MASK


def test_named_masks():
    assert format_hand(BB_SUPREME) == "4-2 2-1"
    assert sorted(format_hand(BB_LAO).split()) == sorted("6-6 6-6 1-1 1-1 6-5 6-5 6-4 6-4 6-3 5-4 6-2 5-3".split())


def test_parse_accepts_either_pip_order_and_commas():
    assert parse_hand("1-6, 6-6 ,6-6") == parse_hand("6-6 6-6 6-1")


@pytest.mark.parametrize("text,msg", [
    ("7-1", "unknown tile '7-1'"),
    ("6-6 x", "unknown tile 'x'"),
    ("6-6 6-6 6-6", "'6-6' appears 3 times, a set has 2"),
    ("6-3 6-3", "'6-3' appears 2 times, a set has 1"),
])
def test_parse_errors_name_the_bad_token(text, msg):
    with pytest.raises(TjsimError, match=msg):
        parse_hand(text)


def test_deal_shares_copies_across_hands():
    hands = parse_deal("6-6 | 6-6")
    assert hands[0] != hands[1] and popcount(hands[0] | hands[1]) == 2
    with pytest.raises(TjsimError, match="'6-6' appears 3 times, a set has 2"):
        parse_deal("6-6 6-6 | 6-6")
    with pytest.raises(TjsimError, match="hand 1 has 1 tiles"):
        parse_deal("6-6 6-6 | 1-1", tiles_per_player=2)
    with pytest.raises(TjsimError, match="the deal has 2 hands"):
        parse_deal("6-6 | 1-1", players=4)


def test_hand_is_set_like():
    h = Hand("6-6 6-6 5-4")
    assert len(h) == 3 and "6-6" in h and "1-1" not in h and h.count("6-6") == 2
    assert list(h) == ["6-6", "6-6", "5-4"]
    assert Hand("5-4") <= h and (h - Hand("5-4")).count("5-4") == 0
    assert str(h | Hand("2-1")) == "6-6 6-6 5-4 2-1"


@given(st.integers(min_value=0, max_value=FULL_MASK))
def test_format_then_parse_round_trips(mask):
    # copies are identical, so the round trip keeps the tiles, not necessarily the bits
    assert format_hand(parse_hand(format_hand(mask))) == format_hand(mask)


@given(st.permutations(range(32)), st.sampled_from([2, 3, 4]))
def test_deal_round_trips(perm, players):
    n = 32 // players
    hands = [sum(1 << b for b in perm[i * n:(i + 1) * n]) for i in range(players)]
    assert [popcount(h) for h in parse_deal(format_deal(hands))] == [n] * players
