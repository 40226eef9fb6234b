"""The ranking of every two-tile hand (RULES.md §7.1), built from a profile, and the distinct hands.

`RankTable.rank[a, b]` is the strength of the hand made of the tiles at bits `a` and `b`
(higher is stronger, equal numbers are equal hands). Two kinds of tile that no hand can tell
apart under the profile (the two nines, the two eights, …, and in `vegas` the Gee Joon tiles
2-1 and 4-2) form one **class**; a distinct hand is a multiset of classes, weighted by how many
tile-level hands it stands for. Both are derived from the rank table, not listed by hand.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from math import comb

import numpy as np

from ..game.tiles import KIND_BY_PIPS, KINDS, N_TILES, TILE_KIND
from .profiles import Profile

HEAVEN, EARTH = KIND_BY_PIPS["6-6"].index, KIND_BY_PIPS["1-1"].index
GEE_JOON = (KIND_BY_PIPS["4-2"].index, KIND_BY_PIPS["2-1"].index)
# Military pairs in rank order (§7.1.2): 九九 > 八八 > 七七 > 五五.
MILITARY_PAIR_VALUES = (9, 8, 7, 5)

# Hand categories, strongest first; the number is the first element of a hand's sort key.
SUPREME, PAIR, WONG, GONG, POINTS, DIHOU = 6, 5, 4, 3, 1, 0
CATEGORY_NAMES = {SUPREME: ("supreme", "至尊"), PAIR: ("pair", "對"), WONG: ("wong", "王"),
                  GONG: ("gong", "摃"), POINTS: ("points", "點"), DIHOU: ("dihou", "地猴一")}


def pips_total(kind: int) -> int:
    """Pip total of a kind of tile (4-2 → 6, 2-1 → 3)."""
    hi, lo = KINDS[kind].pips.split("-")
    return int(hi) + int(lo)


def single_rank(p: Profile, kind: int) -> int:
    """Rank of one tile for tie-breaks (§7.1.5): civil kinds in table order, military by value."""
    k = KINDS[kind]
    if not k.military:
        return 100 - kind
    if p.gee_joon_lowest and kind in GEE_JOON:
        return 40
    return 40 + k.value


def points(p: Profile, a: int, b: int) -> int:
    """Points of two kinds of tile: pips mod 10, a Gee Joon tile counting 3 or 6 if `gee_joon_wild`."""
    def options(kind: int) -> tuple[int, ...]:
        return (3, 6) if p.gee_joon_wild and kind in GEE_JOON else (pips_total(kind),)
    return max((x + y) % 10 for x in options(a) for y in options(b))


def hand_key(p: Profile, a: int, b: int) -> tuple[int, ...]:
    """Sort key of the two-tile hand of kinds `a`, `b` (§7.1); larger keys are stronger hands."""
    ka, kb = KINDS[a], KINDS[b]
    if {a, b} == set(GEE_JOON):
        return (SUPREME,)
    if a == b and not ka.military:
        return (PAIR, 100 - a)
    if ka.military and kb.military and ka.value == kb.value and ka.value in MILITARY_PAIR_VALUES:
        return (PAIR, 50 - MILITARY_PAIR_VALUES.index(ka.value))
    eights = {KIND_BY_PIPS[t].index for t in p.gong_eights}
    for top, other in ((a, b), (b, a)):
        if top not in (HEAVEN, EARTH):
            continue
        is_nine = KINDS[other].military and KINDS[other].value == 9
        if is_nine and (top == HEAVEN or p.earth_wong):
            return (WONG, int(top == HEAVEN))
        if is_nine and top == EARTH and p.dihou_lowest:
            return (DIHOU,)
    for top, other in ((a, b), (b, a)):
        if top in (HEAVEN, EARTH) and other in eights and other != top:
            return (GONG, int(top == HEAVEN))
    pts = points(p, a, b)
    tie = 0 if pts == 0 and not p.zero_tiebreak else max(single_rank(p, a), single_rank(p, b))
    return (POINTS, pts, tie)


def describe_key(key: tuple[int, ...]) -> str:
    """A short name for a hand's key: 'pair', 'wong', '7 points', …"""
    if key[0] == POINTS:
        return f"{key[1]} points"
    return CATEGORY_NAMES[key[0]][0]


def class_label(key: tuple[int, ...]) -> str:
    """The hand-class column of `odds`: supreme, pair, wong, gong, points_9 … points_0, dihou."""
    return f"points_{key[1]}" if key[0] == POINTS else CATEGORY_NAMES[key[0]][0]


@dataclass(frozen=True, eq=False)  # hashed by identity: one table per profile (lru_cache)
class RankTable:
    """Every two-tile hand's strength, the tile classes and the distinct hands of 2 and 4 tiles."""

    profile: Profile
    rank: np.ndarray  # int16[32, 32]; -1 on the diagonal
    keys: tuple[tuple[int, ...], ...]  # keys[r] is the sort key of strength r
    tile_class: np.ndarray  # int8[32]
    class_bits: tuple[tuple[int, ...], ...]  # tile bits of each class
    caps: np.ndarray  # int64[n_classes]: copies of each class

    @property
    def n_classes(self) -> int:
        """Number of tile classes (17 for kong, 16 for vegas)."""
        return len(self.class_bits)

    def key_of(self, a: int, b: int) -> tuple[int, ...]:
        """Sort key of the hand of tile bits a, b."""
        return self.keys[int(self.rank[a, b])]


def _classes(rank: np.ndarray) -> list[list[int]]:
    """Group single-copy kinds that every hand ranks the same (their tiles become copies of one class)."""
    kind_bits: dict[int, list[int]] = {}
    for bit, k in enumerate(TILE_KIND):
        kind_bits.setdefault(k, []).append(bit)
    groups: list[list[int]] = []
    used: set[int] = set()
    kinds = sorted(kind_bits)
    for k1 in kinds:
        if k1 in used:
            continue
        group = list(kind_bits[k1])
        used.add(k1)
        if len(group) == 1:
            for k2 in kinds:
                if k2 in used or len(kind_bits[k2]) != 1:
                    continue
                t1, t2 = group[0], kind_bits[k2][0]
                others = [t for t in range(N_TILES) if t not in (t1, t2)]
                if all(rank[t1, t] == rank[t2, t] for t in others):
                    group.append(t2)
                    used.add(k2)
                    break
        groups.append(group)
    return groups


@lru_cache(maxsize=32)
def rank_table(p: Profile) -> RankTable:
    """The ranking of all 496 two-tile hands under profile `p`."""
    keys = {(a, b): hand_key(p, TILE_KIND[a], TILE_KIND[b]) for a, b in combinations(range(N_TILES), 2)}
    ordered = sorted(set(keys.values()))
    index = {k: i for i, k in enumerate(ordered)}
    rank = np.full((N_TILES, N_TILES), -1, dtype=np.int16)
    for (a, b), k in keys.items():
        rank[a, b] = rank[b, a] = index[k]
    groups = _classes(rank)
    tile_class = np.zeros(N_TILES, dtype=np.int8)
    for c, bits in enumerate(groups):
        tile_class[bits] = c
    caps = np.array([len(g) for g in groups], dtype=np.int64)
    return RankTable(p, rank, tuple(ordered), tile_class, tuple(tuple(g) for g in groups), caps)


@dataclass(frozen=True, eq=False)
class DistinctHands:
    """The distinct hands of n tiles: a representative mask, weight and class make-up of each."""

    n_tiles: int
    masks: np.ndarray  # int64[D]: the representative (lowest copies of each class)
    tiles: np.ndarray  # int8[D, n]: tile bits of the representative, ordered by (class, bit)
    weight: np.ndarray  # int64[D]: tile-level hands this one stands for
    counts: np.ndarray  # int8[D, n_classes]
    cls: np.ndarray  # int8[D, n]: distinct classes of the hand (-1 padding)
    num: np.ndarray  # int8[D, n]: how many tiles of each of those classes
    lookup: np.ndarray  # int32[2**(5n)]: packed sorted classes → index

    def __len__(self) -> int:
        return len(self.masks)


def pack_classes(classes) -> int:
    """The lookup key of a hand: its tile classes sorted, five bits each."""
    key = 0
    for i, c in enumerate(sorted(classes)):
        key |= int(c) << (5 * i)
    return key


@lru_cache(maxsize=32)
def distinct_hands(table: RankTable, n_tiles: int) -> DistinctHands:
    """Every distinct hand of `n_tiles` tiles under the table's classes."""
    caps = [int(c) for c in table.caps]
    n_cls = table.n_classes
    rows = []
    for combo in combinations_with_replacement(range(n_cls), n_tiles):
        cnt: dict[int, int] = {}
        for c in combo:
            cnt[c] = cnt.get(c, 0) + 1
        if all(k <= caps[c] for c, k in cnt.items()):
            rows.append((combo, cnt))
    d = len(rows)
    masks = np.zeros(d, dtype=np.int64)
    tiles = np.zeros((d, n_tiles), dtype=np.int8)
    weight = np.zeros(d, dtype=np.int64)
    counts = np.zeros((d, n_cls), dtype=np.int8)
    cls = np.full((d, n_tiles), -1, dtype=np.int8)
    num = np.zeros((d, n_tiles), dtype=np.int8)
    lookup = np.full(1 << (5 * n_tiles), -1, dtype=np.int32)
    for h, (combo, cnt) in enumerate(rows):
        present = sorted(cnt)
        bits = [b for c in present for b in table.class_bits[c][: cnt[c]]]
        tiles[h] = bits
        masks[h] = sum(1 << b for b in bits)
        w = 1
        for c in present:
            w *= comb(caps[c], cnt[c])
            counts[h, c] = cnt[c]
        weight[h] = w
        cls[h, : len(present)] = present
        num[h, : len(present)] = [cnt[c] for c in present]
        lookup[pack_classes(combo)] = h
    return DistinctHands(n_tiles, masks, tiles, weight, counts, cls, num, lookup)


# The three ways to split four tiles t0..t3 into two pairs.
SPLITS = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2))


def split_ranks(table: RankTable, hands: DistinctHands) -> tuple[np.ndarray, np.ndarray]:
    """front[D, 3], back[D, 3]: the two pairs' strengths of each split (back ≥ front); 2 tiles: one 'split'."""
    d = len(hands)
    r = table.rank
    t = hands.tiles.astype(np.int64)
    if hands.n_tiles == 2:
        one = r[t[:, 0], t[:, 1]].astype(np.int64)
        front = np.repeat(one[:, None], 3, axis=1)
        return front, front.copy()
    front = np.zeros((d, 3), dtype=np.int64)
    back = np.zeros((d, 3), dtype=np.int64)
    for s, (a, b, c, e) in enumerate(SPLITS):
        x = r[t[:, a], t[:, b]]
        y = r[t[:, c], t[:, e]]
        front[:, s] = np.minimum(x, y)
        back[:, s] = np.maximum(x, y)
    return front, back


def split_pairs(hands: DistinctHands, h: int, s: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two tile-bit pairs of split s of distinct hand h."""
    a, b, c, e = SPLITS[s]
    t = hands.tiles[h]
    return (int(t[a]), int(t[b])), (int(t[c]), int(t[e]))


