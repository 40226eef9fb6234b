"""The compare games' rules as data (RULES.md §7): profiles, the §7.1 order, classes, each setting."""
from __future__ import annotations

from itertools import combinations

import pytest

from tianjiu_sim.errors import TjsimError
from tianjiu_sim.game.tiles import FULL_MASK, bits_of, parse_hand
from tianjiu_sim.paigow.hands import distinct_hands, rank_table
from tianjiu_sim.paigow.kernels import outcome
from tianjiu_sim.paigow.profiles import (
    PROFILES,
    SETTING_KEYS,
    load_profile,
    profile,
    with_settings,
)


def strength(p, text: str) -> int:
    """The rank-table strength of a two-tile hand."""
    a, b = bits_of(parse_hand(text))
    return int(rank_table(p).rank[a, b])


# RULES.md §7.1 for `kong`, written out by hand, highest first; "=" joins hands that tie (走).
KONG_ORDER = """
2-1 4-2
6-6 6-6
1-1 1-1
4-4 4-4
3-1 3-1
5-5 5-5
3-3 3-3
2-2 2-2
6-5 6-5
6-4 6-4
6-1 6-1
5-1 5-1
6-3 5-4
6-2 5-3
5-2 4-3
3-2 4-1
6-6 6-3 = 6-6 5-4
6-6 4-4 = 6-6 6-2 = 6-6 5-3
1-1 4-4 = 1-1 6-2
6-6 6-1 = 6-6 4-3 = 6-6 5-2
1-1 6-1 = 1-1 4-3
4-4 6-5
3-1 4-1 = 3-1 3-2
5-5 6-3 = 5-5 5-4
""".strip().splitlines()


def test_kong_order_pinned_by_hand():
    p = profile("kong")
    groups = [[g.strip() for g in line.split("=")] for line in KONG_ORDER]
    levels = [[strength(p, h) for h in grp] for grp in groups]
    for grp, lv in zip(groups, levels):
        assert len(set(lv)) == 1, grp  # equal hands tie
    tops = [lv[0] for lv in levels]
    assert tops == sorted(tops, reverse=True) and len(set(tops)) == len(tops), list(zip(groups, tops))


@pytest.mark.parametrize("high,low", [
    ("5-5 6-4", "3-3 2-2"),  # 0 points: the higher tile decides (梅 over 長三) in kong
    ("6-3 4-1", "6-2 4-2"),  # 4 points, military: a nine over an eight
    ("4-4 5-5", "5-3 5-5"),  # 8 points: 人 over 梅
    ("5-5 6-3", "6-5 5-3"),  # 9 points: 梅 (civil row 5) over 斧頭 (row 8)
    ("6-6 3-1", "1-1 2-2"),  # 6 points: 天 over 地
    ("1-1 6-3", "5-5 6-4"),  # kong: 地 + nine is 1 point (地猴一), above a 0
])
def test_kong_points_tie_breaks(high, low):
    p = profile("kong")
    assert strength(p, high) > strength(p, low)


def test_equal_points_equal_high_tile_push():
    p = profile("kong")
    assert strength(p, "6-6 6-1") == strength(p, "6-6 4-3")  # both 9 points, 天 high
    assert strength(p, "6-3 4-1") == strength(p, "5-4 3-2")  # the two nines and two fives are equal


def test_distinct_hand_counts():
    """vegas: 136 distinct two-tile and 3,620 four-tile hands (the published counts); kong keeps 2-1 ≠ 4-2."""
    for name, n2, n4, classes in (("vegas", 136, 3620, 16), ("kong", 151, 4285, 17), ("yabao", 151, 4285, 17)):
        t = rank_table(profile(name))
        assert t.n_classes == classes
        h2, h4 = distinct_hands(t, 2), distinct_hands(t, 4)
        assert (len(h2), len(h4)) == (n2, n4)
        assert h2.weight.sum() == 496 and h4.weight.sum() == 35960


def test_classes_are_exact_equivalences():
    """Tiles of one class are interchangeable in every hand (the class is derived, so check it)."""
    for name in PROFILES:
        t = rank_table(profile(name))
        for bits in t.class_bits:
            for a, b in combinations(bits, 2):
                others = [x for x in bits_of(FULL_MASK) if x not in (a, b)]
                assert all(t.rank[a, x] == t.rank[b, x] for x in others)


# --- every setting changes the numbers the way its definition says, on a small case ---

def test_gong_eights():
    p = profile("kong")
    assert strength(p, "6-6 4-4") == strength(p, "6-6 6-2")  # 人 counts as an eight
    q = with_settings(p, gong_eights=["6-2", "5-3"])
    assert strength(q, "6-6 4-4") < strength(q, "1-1 6-2")  # 天 + 人 is then 0 points, below 地摃
    assert strength(q, "6-6 4-4") < strength(q, "6-1 4-3")  # … even below 4 points


def test_earth_wong():
    p = profile("kong")
    q = with_settings(p, earth_wong=True)
    assert strength(p, "1-1 6-3") < strength(p, "6-6 6-2")
    assert strength(q, "6-6 6-2") < strength(q, "1-1 6-3") < strength(q, "6-6 6-3")


def test_dihou_lowest():
    p = profile("kong")
    q = with_settings(p, dihou_lowest=True)
    assert strength(p, "1-1 6-3") > strength(p, "5-5 6-4")
    lowest = min(int(v) for v in rank_table(q).rank.flatten() if v >= 0)
    assert strength(q, "1-1 6-3") == strength(q, "1-1 5-4") == lowest
    with pytest.raises(TjsimError, match="earth_wong"):
        with_settings(q, earth_wong=True)


def test_gee_joon_wild():
    p = profile("kong")
    q = with_settings(p, gee_joon_wild=True)
    assert rank_table(p).key_of(*bits_of(parse_hand("6-6 2-1")))[1] == 5  # 12 + 3
    assert rank_table(q).key_of(*bits_of(parse_hand("6-6 2-1")))[1] == 8  # 12 + 6
    assert rank_table(q).key_of(*bits_of(parse_hand("2-1 4-2")))[0] == 6  # still 至尊 when paired


def test_gee_joon_lowest():
    q = with_settings(profile("kong"), gee_joon_wild=True)
    r = with_settings(q, gee_joon_lowest=True)
    assert strength(q, "4-2 3-2") > strength(q, "4-1 2-1")  # 8 points each; 4-2 ranks above a five
    assert strength(r, "4-2 3-2") == strength(r, "4-1 2-1")  # lowest: the five is each hand's high tile


def test_zero_tiebreak():
    p = profile("kong")
    q = with_settings(p, zero_tiebreak=False)
    assert strength(p, "5-5 6-4") > strength(p, "3-3 2-2")
    assert strength(q, "5-5 6-4") == strength(q, "3-3 2-2")


def test_ties_and_half_push():
    assert outcome(5, 7, 5, 7, False, False) == 0  # ties push (走)
    assert outcome(5, 7, 5, 7, True, False) == -1  # copies go to the banker
    assert outcome(6, 7, 5, 7, False, False) == 0  # win + push = push (default)
    assert outcome(6, 7, 5, 7, False, True) == 1  # half_push = "win"
    assert outcome(4, 7, 5, 7, False, True) == -1
    assert outcome(6, 3, 5, 7, False, False) == 0  # one each: push
    assert outcome(6, 8, 5, 7, False, False) == 1 and outcome(4, 6, 5, 7, False, False) == -1


def test_vegas_differences():
    v = profile("vegas")
    assert v.earth_wong and v.gee_joon_wild and v.ties == "banker" and v.commission == 0.05
    assert strength(v, "5-5 6-4") == strength(v, "3-3 2-2")  # every 0–0 is a copy


# --- profile files and settings errors ---

def test_profile_file_overrides(tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text('profile = "kong"\nties = "banker"\ncommission = 0.05\ngong_eights = ["6-2"]\n', encoding="utf-8")
    p = load_profile(str(f))
    assert p.name == "mine" and p.ties == "banker" and p.commission == 0.05 and p.gong_eights == ("6-2",)


@pytest.mark.parametrize("body,fragment", [
    ('profile = "kong"\ntie = "banker"\n', "unknown key 'tie' (did you mean 'ties'?)"),
    ('profile = "poker"\n', "key 'profile': must be one of kong, yabao, vegas"),
    ('profile = "kong"\nties = "house"\n', "must be one of push, banker"),
    ('profile = "kong"\ncommission = 1.5\n', "commission"),
    ('profile = "kong"\nrounds_per_shuffle = 5\n', "must be 1 to 4"),
    ('profile = "yabao"\nrounds_per_shuffle = 3\n', "must be 1 to 2"),
    ('profile = "kong"\ngong_eights = ["7-7"]\n', "unknown tile"),
])
def test_profile_file_errors(tmp_path, body, fragment):
    f = tmp_path / "bad.toml"
    f.write_text(body, encoding="utf-8")
    with pytest.raises(TjsimError) as e:
        load_profile(str(f))
    assert fragment in str(e.value) and "bad.toml:" in str(e.value)


def test_unknown_profile_and_setting():
    with pytest.raises(TjsimError, match="allowed: kong, yabao, vegas"):
        load_profile("poker")
    with pytest.raises(TjsimError, match="did you mean 'commission'"):
        profile("vegas", comission=0.04)
    assert set(SETTING_KEYS) >= {"gong_eights", "dihou_lowest", "half_push", "rounds_per_shuffle"}
