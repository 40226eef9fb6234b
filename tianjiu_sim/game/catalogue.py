"""The play catalogue (RULES.md §3): every possible play of a rule set as numba-ready arrays.

A play is a concrete tile mask (copies of a duplicated kind are distinct bits, so 天九
appears as four masks). Plays carry a class, a rank (higher beats lower within a class),
a size, and two `beats` relations: one against a standing *led* play (where the supremes
至尊 and 文尊 differ) and one against a standing *follower* play.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product

import numpy as np

from .rules import RuleSet
from .tiles import KIND_BITS, KIND_BY_PIPS, KINDS, BB_SECOND_COPY, chinese_names, format_hand

# Suits for singles and pairs: (code name, Chinese, kinds in rank order highest first).
_CIVIL = [k.index for k in KINDS if not k.military]
_MILITARY = [k.index for k in KINDS if k.military]
SUIT_SYSTEMS = {
    "hk": [("civil", "文", _CIVIL), ("military", "武", _MILITARY)],
    "folk": [
        ("gong", "宫", [k for k in _CIVIL if KINDS[k].folk_suit == "宫"]),
        ("za", "杂", _MILITARY),
        ("yao", "幺", [k for k in _CIVIL if KINDS[k].folk_suit == "幺"]),
    ],
}
# The four civil heads of the combinations and the military value each goes with.
_HEADS = [("6-6", 9), ("1-1", 8), ("4-4", 7), ("3-1", 5)]
_COMBO_NAMES = {
    "hk": {"mixed_pair": "文武對", "three_civil": "三文", "three_military": "三武"},
    "folk": {"mixed_pair": "宫杂", "three_civil": "两宫一杂", "three_military": "一宫两杂"},
}


def _military_bits(value: int) -> list[int]:
    return [KIND_BITS[k][0] for k in _MILITARY if KINDS[k].value == value]


def _kind_bits(pips: str) -> tuple[int, ...]:
    return KIND_BITS[KIND_BY_PIPS[pips].index]


@dataclass(frozen=True)
class PlayClass:
    """A class of plays (only plays of one class can beat each other)."""

    index: int
    name: str
    chinese: str
    size: int


@dataclass(frozen=True)
class Catalogue:
    """Every play of a rule set, as parallel numpy arrays indexed by play number."""

    classes: tuple[PlayClass, ...]
    mask: np.ndarray  # uint32 tile mask
    cls: np.ndarray  # int8 class index
    rank: np.ndarray  # int8, higher beats lower within the class
    size: np.ndarray  # int8 number of tiles
    need_absent: np.ndarray  # uint32: a hand holding these bits would play the same tiles by lower copies
    beats_led: np.ndarray  # bool [a, b]: a beats b when b is the standing lead
    beats_follow: np.ndarray  # bool [a, b]: a beats b when b is a standing follower
    leadable: np.ndarray  # bool: may be led
    followable: np.ndarray  # bool: may be played as a beat (至尊 may not)
    supreme: int  # play number of 至尊, -1 if none
    quartet_class: int  # class index of 四

    @property
    def n(self) -> int:
        """Number of plays."""
        return len(self.mask)

    def play_name(self, p: int) -> str:
        """A play in pips notation with its Chinese tile names: '6-6 6-6 (天天)'."""
        m = int(self.mask[p])
        return f"{format_hand(m)} ({chinese_names(m)})"

    def plays_of_class(self, c: int) -> list[int]:
        """Play numbers of class `c`, strongest first (copies are separate plays)."""
        idx = [p for p in range(self.n) if self.cls[p] == c]
        return sorted(idx, key=lambda p: (-int(self.rank[p]), int(self.mask[p])))

    def class_by_name(self, name: str) -> PlayClass:
        """The class called `name` (e.g. 'civil_pair')."""
        for c in self.classes:
            if c.name == name:
                return c
        raise KeyError(name)

    def find(self, mask: int) -> int:
        """Play number of the play with exactly these tiles, or -1."""
        hits = np.nonzero(self.mask == np.uint32(mask))[0]
        return int(hits[0]) if len(hits) else -1


def _build(suits: str, civil_supreme: bool, supreme_catcher: bool) -> Catalogue:
    classes: list[PlayClass] = []
    plays: list[tuple[int, int, int]] = []  # (mask, class, rank)

    def add_class(name: str, chinese: str, size: int) -> int:
        classes.append(PlayClass(len(classes), name, chinese, size))
        return len(classes) - 1

    def add(mask: int, c: int, rank: int) -> None:
        plays.append((mask, c, rank))

    system = SUIT_SYSTEMS[suits]
    for name, zh, kinds in system:
        c = add_class(f"{name}_single", f"{zh}單", 1)
        for pos, k in enumerate(kinds):
            rank = KINDS[k].value if KINDS[k].military else len(kinds) - pos
            for b in KIND_BITS[k]:
                add(1 << b, c, rank)
    for name, zh, kinds in system:
        c = add_class(f"{name}_pair", f"{zh}對", 2)
        if KINDS[kinds[0]].military:
            for rank, value in enumerate([5, 7, 8, 9], 1):
                a, b = _military_bits(value)
                add(1 << a | 1 << b, c, rank)
        else:
            for pos, k in enumerate(kinds):
                a, b = KIND_BITS[k]
                add(1 << a | 1 << b, c, len(kinds) - pos)
    names = _COMBO_NAMES[suits]
    c_mixed = add_class("mixed_pair", names["mixed_pair"], 2)
    c_supreme = add_class("supreme", "至尊", 2)
    c_three_civil = add_class("three_civil", names["three_civil"], 3)
    c_three_mil = add_class("three_military", names["three_military"], 3)
    c_quartet = add_class("quartet", "四", 4)
    for pos, (head, value) in enumerate(_HEADS):
        rank = 4 - pos
        h1, h2 = _kind_bits(head)
        m1, m2 = _military_bits(value)
        for h, m in product((h1, h2), (m1, m2)):
            add(1 << h | 1 << m, c_mixed, rank)
        for m in (m1, m2):
            add(1 << h1 | 1 << h2 | 1 << m, c_three_civil, rank)
        for h in (h1, h2):
            add(1 << h | 1 << m1 | 1 << m2, c_three_mil, rank)
        add(1 << h1 | 1 << h2 | 1 << m1 | 1 << m2, c_quartet, rank)
    (six,) = _kind_bits("4-2")
    (three,) = _kind_bits("2-1")
    add(1 << six | 1 << three, c_supreme, 1)

    n = len(plays)
    mask = np.array([p[0] for p in plays], dtype=np.uint32)
    cls = np.array([p[1] for p in plays], dtype=np.int8)
    rank = np.array([p[2] for p in plays], dtype=np.int8)
    size = np.array([bin(p[0]).count("1") for p in plays], dtype=np.int8)
    second = mask & np.uint32(BB_SECOND_COPY)
    need_absent = (second & ~(mask << np.uint32(1))) >> np.uint32(1)

    same = (cls[:, None] == cls[None, :]) & (rank[:, None] > rank[None, :])
    beats_follow = same.copy()
    beats_led = same.copy()
    supreme = n - 1
    beats_led[:, supreme] = False
    if supreme_catcher:
        za8 = _find(mask, _military_bits(8))
        beats_led[za8, supreme] = True
    if civil_supreme:
        look = _find(mask, list(_kind_bits("5-1")))
        tit = _find(mask, list(_kind_bits("6-1")))
        beats_led[:, look] = False
        beats_led[tit, look] = True
    leadable = np.ones(n, dtype=np.bool_)
    followable = cls != c_supreme
    beats_led &= followable[:, None]
    beats_follow &= followable[:, None]
    return Catalogue(tuple(classes), mask, cls, rank, size, need_absent, beats_led,
                     beats_follow, leadable, followable, supreme, c_quartet)


def _find(mask: np.ndarray, bits: list[int]) -> int:
    m = sum(1 << b for b in bits)
    return int(np.nonzero(mask == np.uint32(m))[0][0])


@lru_cache(maxsize=None)
def _cached(suits: str, civil_supreme: bool, supreme_catcher: bool) -> Catalogue:
    return _build(suits, civil_supreme, supreme_catcher)


def catalogue(rules: RuleSet) -> Catalogue:
    """The play catalogue of a rule set (cached; depends only on suits and the supreme rules)."""
    return _cached(rules.suits, rules.civil_supreme, rules.supreme_catcher)


def beats(cat: Catalogue, a: int, b: int, b_is_lead: bool) -> bool:
    """Whether play `a` beats play `b` standing in a trick (as the lead or as a follower)."""
    return bool(cat.beats_led[a, b] if b_is_lead else cat.beats_follow[a, b])
