"""The play catalogue against a table written by hand from RULES.md §3, and beats properties."""
import itertools

import numpy as np
import pytest
from hypothesis import given, strategies as st

from tianjiu_sim.game.catalogue import catalogue
from tianjiu_sim.game.rules import preset
from tianjiu_sim.game.tiles import parse_hand, tile_list

# Written by hand from RULES.md §3.1/§3.2: classes, plays strongest first, '=' for equal rank.
_COMBOS = {
    "mixed_pair": "6-6 6-3 = 6-6 5-4 > 1-1 6-2 = 1-1 5-3 > 4-4 5-2 = 4-4 4-3 > 3-1 3-2 = 3-1 4-1",
    "supreme": "4-2 2-1",
    "three_civil": "6-6 6-6 6-3 = 6-6 6-6 5-4 > 1-1 1-1 6-2 = 1-1 1-1 5-3 > 4-4 4-4 5-2 = 4-4 4-4 4-3"
                   " > 3-1 3-1 3-2 = 3-1 3-1 4-1",
    "three_military": "6-6 6-3 5-4 > 1-1 6-2 5-3 > 4-4 5-2 4-3 > 3-1 3-2 4-1",
    "quartet": "6-6 6-6 6-3 5-4 > 1-1 1-1 6-2 5-3 > 4-4 4-4 5-2 4-3 > 3-1 3-1 3-2 4-1",
}
_MILITARY_SINGLE = "6-3 = 5-4 > 6-2 = 5-3 > 5-2 = 4-3 > 4-2 > 3-2 = 4-1 > 2-1"
_MILITARY_PAIR = "6-3 5-4 > 6-2 5-3 > 5-2 4-3 > 3-2 4-1"
HK_TABLE = {
    "civil_single": "6-6 > 1-1 > 4-4 > 3-1 > 5-5 > 3-3 > 2-2 > 6-5 > 6-4 > 6-1 > 5-1",
    "military_single": _MILITARY_SINGLE,
    "civil_pair": "6-6 6-6 > 1-1 1-1 > 4-4 4-4 > 3-1 3-1 > 5-5 5-5 > 3-3 3-3 > 2-2 2-2 > 6-5 6-5"
                  " > 6-4 6-4 > 6-1 6-1 > 5-1 5-1",
    "military_pair": _MILITARY_PAIR,
    **_COMBOS,
}
FOLK_TABLE = {
    "gong_single": "6-6 > 1-1 > 4-4 > 3-1 > 5-5 > 3-3 > 2-2",
    "za_single": _MILITARY_SINGLE,
    "yao_single": "6-5 > 6-4 > 6-1 > 5-1",
    "gong_pair": "6-6 6-6 > 1-1 1-1 > 4-4 4-4 > 3-1 3-1 > 5-5 5-5 > 3-3 3-3 > 2-2 2-2",
    "za_pair": _MILITARY_PAIR,
    "yao_pair": "6-5 6-5 > 6-4 6-4 > 6-1 6-1 > 5-1 5-1",
    **_COMBOS,
}


def _expected(spec: str) -> list[set[tuple[str, ...]]]:
    return [{tuple(sorted(p.split())) for p in group.split(" = ")} for group in spec.split(" > ")]


def _actual(cat, cls_index: int) -> list[set[tuple[str, ...]]]:
    groups: dict[int, set] = {}
    for p in cat.plays_of_class(cls_index):
        groups.setdefault(int(cat.rank[p]), set()).add(tuple(sorted(tile_list(int(cat.mask[p])))))
    return [groups[r] for r in sorted(groups, reverse=True)]


@pytest.mark.parametrize("name,table", [("hk", HK_TABLE), ("folk", FOLK_TABLE)])
def test_catalogue_matches_hand_written_table(name, table):
    cat = catalogue(preset(name))
    assert [c.name for c in cat.classes] and {c.name for c in cat.classes} == set(table)
    for c in cat.classes:
        assert _actual(cat, c.index) == _expected(table[c.name]), c.name
        assert all(cat.size[p] == c.size for p in cat.plays_of_class(c.index))


def _play(cat, text):
    p = cat.find(parse_hand(text))
    assert p >= 0, text
    return p


def test_hk_supremes():
    cat = catalogue(preset("hk"))
    sup, look, tit, heaven = (_play(cat, t) for t in ("4-2 2-1", "5-1 5-1", "6-1 6-1", "6-6 6-6"))
    assert not cat.beats_led[:, sup].any()  # nothing beats a led 至尊 in hk
    assert list(np.nonzero(cat.beats_led[:, look])[0]) == [tit]  # 文尊 only by the 6-1 pair
    assert cat.beats_follow[heaven, tit]  # after the catch a higher civil pair may beat it
    assert cat.beats_follow[tit, look] and not cat.beats_follow[look, tit]
    assert not cat.followable[sup]


def test_folk_supreme_catch_then_nine_pair():
    cat = catalogue(preset("folk"))
    sup, za8, za9 = (_play(cat, t) for t in ("4-2 2-1", "6-2 5-3", "6-3 5-4"))
    assert list(np.nonzero(cat.beats_led[:, sup])[0]) == [za8]
    assert not cat.beats_led[za9, sup]  # a 杂9 pair cannot beat the 至尊 itself
    assert cat.beats_follow[za9, za8]
    look, tit = _play(cat, "5-1 5-1"), _play(cat, "6-1 6-1")
    assert cat.beats_led[tit, look]  # no 文尊 in folk: an ordinary 幺 pair


def test_three_civil_and_three_military_are_separate():
    cat = catalogue(preset("hk"))
    rrq, tqq = _play(cat, "4-4 4-4 5-2"), _play(cat, "6-6 6-3 5-4")
    assert not cat.beats_led[tqq, rrq] and not cat.beats_follow[tqq, rrq]
    assert cat.beats_led[_play(cat, "1-1 1-1 6-2"), rrq]


def test_equal_military_tiles_do_not_beat_each_other():
    cat = catalogue(preset("hk"))
    a, b = _play(cat, "6-3"), _play(cat, "5-4")
    assert not cat.beats_led[a, b] and not cat.beats_led[b, a]


@pytest.mark.parametrize("name", ["hk", "folk"])
@pytest.mark.parametrize("matrix", ["beats_led", "beats_follow"])
def test_beats_is_a_strict_order_within_a_class(name, matrix):
    cat = catalogue(preset(name))
    m = getattr(cat, matrix)
    n = cat.n
    assert not m[np.arange(n), np.arange(n)].any()  # irreflexive: no play beats itself
    assert not (m & m.T).any()  # asymmetric
    # transitive within a class; a led 文尊 is the one exception by design (§3.3: 天天 beats the
    # 6-1 pair that beats a led 5-1 pair, yet cannot beat the led 5-1 pair itself)
    special = {cat.find(parse_hand("5-1 5-1"))} if (name == "hk" and matrix == "beats_led") else set()
    for a, b, c in itertools.product(range(n), repeat=3):
        if m[a, b] and m[b, c] and cat.cls[a] == cat.cls[b] == cat.cls[c] and c not in special:
            assert m[a, c]
    cross = [(int(a), int(b)) for a, b in zip(*np.nonzero(m)) if cat.cls[a] != cat.cls[b]]
    sup = cat.supreme
    allowed = [(_play(cat, "6-2 5-3"), sup)] if (name == "folk" and matrix == "beats_led") else []
    assert cross == allowed  # only §3.3's 杂8 catch crosses classes
    assert (m <= (cat.size[:, None] == cat.size[None, :])).all()


@given(st.sampled_from(["hk", "folk"]), st.data())
def test_beats_requires_same_class_and_strictly_higher(name, data):
    cat = catalogue(preset(name))
    a = data.draw(st.integers(0, cat.n - 1))
    b = data.draw(st.integers(0, cat.n - 1))
    if cat.beats_follow[a, b]:
        assert cat.cls[a] == cat.cls[b] and cat.rank[a] > cat.rank[b]
    if cat.cls[a] == cat.cls[b] and cat.rank[a] > cat.rank[b] and b != cat.supreme:
        is_wenzun = name == "hk" and tile_list(int(cat.mask[b])) == ["5-1", "5-1"]
        assert cat.beats_follow[a, b]
        assert cat.beats_led[a, b] == (not is_wenzun or tile_list(int(cat.mask[a])) == ["6-1", "6-1"])
