"""The 32 tiles (牌) as bit positions of a 32-bit mask, their names and notation.

Bit layout ("box order", sorted by kind as in RULES.md §1): the eleven civil kinds
take two bits each (copies side by side, lower bit first), then the ten military tiles
one bit each. A hand is a mask; `Hand` is a set-like wrapper for Python code, numba
code uses the raw integers.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Iterator

from ..errors import TjsimError

N_TILES = 32
FULL_MASK = (1 << N_TILES) - 1


@dataclass(frozen=True)
class Kind:
    """One kind of tile (a face): its pips, copies, Chinese and English names."""

    index: int
    pips: str
    copies: int
    chinese: str
    english: str
    military: bool
    value: int  # pip total; the military rank value (9, 8, 7, 6, 5, 3)
    folk_suit: str  # 宫, 幺 or 杂


# Rank order within each suit, highest first (RULES.md §1).
KINDS: tuple[Kind, ...] = tuple(
    Kind(i, *row)
    for i, row in enumerate(
        [
            ("6-6", 2, "天", "teen", False, 12, "宫"),
            ("1-1", 2, "地", "day", False, 2, "宫"),
            ("4-4", 2, "人", "yun", False, 8, "宫"),
            ("3-1", 2, "和", "gor", False, 4, "宫"),
            ("5-5", 2, "梅", "mooy", False, 10, "宫"),
            ("3-3", 2, "長三", "chong", False, 6, "宫"),
            ("2-2", 2, "板凳", "bon", False, 4, "宫"),
            ("6-5", 2, "斧頭", "foo", False, 11, "幺"),
            ("6-4", 2, "紅頭十", "ping", False, 10, "幺"),
            ("6-1", 2, "高腳七", "tit", False, 7, "幺"),
            ("5-1", 2, "銅錘", "look", False, 6, "幺"),
            ("6-3", 1, "雜九", "nine", True, 9, "杂"),
            ("5-4", 1, "雜九", "nine", True, 9, "杂"),
            ("6-2", 1, "雜八", "eight", True, 8, "杂"),
            ("5-3", 1, "雜八", "eight", True, 8, "杂"),
            ("5-2", 1, "雜七", "seven", True, 7, "杂"),
            ("4-3", 1, "雜七", "seven", True, 7, "杂"),
            ("4-2", 1, "大猴", "six", True, 6, "杂"),
            ("3-2", 1, "雜五", "five", True, 5, "杂"),
            ("4-1", 1, "雜五", "five", True, 5, "杂"),
            ("2-1", 1, "小猴", "three", True, 3, "杂"),
        ]
    )
)
KIND_BY_PIPS = {k.pips: k for k in KINDS}
N_CIVIL_KINDS = 11

# TILE_KIND[bit] is the kind index of the tile at that bit.
TILE_KIND: tuple[int, ...] = tuple(k.index for k in KINDS for _ in range(k.copies))
KIND_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(b for b, k in enumerate(TILE_KIND) if k == kind.index) for kind in KINDS
)
assert len(TILE_KIND) == N_TILES


def kind_mask(pips: str) -> int:
    """Mask of every copy of the kind written `pips` (e.g. both 6-6)."""
    return sum(1 << b for b in KIND_BITS[KIND_BY_PIPS[pips].index])


# Named masks, python-chess style.
BB_HEAVEN = kind_mask("6-6")
BB_EARTH = kind_mask("1-1")
BB_MAN = kind_mask("4-4")
BB_HARMONY = kind_mask("3-1")
BB_NINES = kind_mask("6-3") | kind_mask("5-4")
BB_EIGHTS = kind_mask("6-2") | kind_mask("5-3")
BB_SEVENS = kind_mask("5-2") | kind_mask("4-3")
BB_FIVES = kind_mask("3-2") | kind_mask("4-1")
BB_SUPREME = kind_mask("4-2") | kind_mask("2-1")
BB_CIVIL = sum(1 << b for b, k in enumerate(TILE_KIND) if not KINDS[k].military)
BB_MILITARY = FULL_MASK & ~BB_CIVIL
BB_LAO = BB_HEAVEN | BB_EARTH | BB_NINES | BB_EIGHTS | kind_mask("6-5") | kind_mask("6-4")
BB_LAO1 = BB_HEAVEN | BB_NINES | kind_mask("6-5")  # 老: the top tile of each folk suit (seed 002)
BB_LAO2 = BB_EARTH | BB_EIGHTS | kind_mask("6-4")  # 二名老: the second of each folk suit
# The four 四 quartets (四大賀), highest first: 天天九九, 地地八八, 人人七七, 和和五五.
BB_QUARTETS = (BB_HEAVEN | BB_NINES, BB_EARTH | BB_EIGHTS, BB_MAN | BB_SEVENS, BB_HARMONY | BB_FIVES)
BB_MILITARY_PAIRS = (BB_NINES, BB_EIGHTS, BB_SEVENS, BB_FIVES)
BB_FOLK_SUIT = {
    s: sum(1 << b for b, k in enumerate(TILE_KIND) if KINDS[k].folk_suit == s) for s in "宫杂幺"
}
# Second copies of duplicated kinds; `>> 1` gives the first copy.
BB_SECOND_COPY = sum(1 << bits[1] for bits in KIND_BITS if len(bits) == 2)


def tile_name(bit: int) -> str:
    """Pips notation of the tile at `bit`: '6-6'."""
    return KINDS[TILE_KIND[bit]].pips


def bits_of(mask: int) -> Iterator[int]:
    """Bit positions set in `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: int) -> int:
    """Number of tiles in a mask."""
    return bin(mask).count("1")


_SPLIT = re.compile(r"[\s,]+")


def _tokens(text: str) -> list[str]:
    return [_normalise(t) for t in _SPLIT.split(text.strip()) if t]


def _check_copies(tokens: list[str]) -> None:
    for pips, n in Counter(tokens).items():
        copies = KIND_BY_PIPS[pips].copies
        if n > copies:
            raise TjsimError(f"'{pips}' appears {n} times, a set has {copies}")


def parse_hand(text: str, available: int = FULL_MASK) -> int:
    """Parse '6-6 5-4, 2-1' into a mask, taking copies from `available` (lowest bit first)."""
    tokens = _tokens(text)
    _check_copies(tokens)
    mask = 0
    for pips in tokens:
        free = [b for b in KIND_BITS[KIND_BY_PIPS[pips].index] if (available & ~mask) >> b & 1]
        if not free:
            raise TjsimError(f"'{pips}': every copy is already taken")
        mask |= 1 << free[0]
    return mask


def _normalise(token: str) -> str:
    m = re.fullmatch(r"([1-6])-([1-6])", token)
    hi_lo = sorted((int(m.group(1)), int(m.group(2))), reverse=True) if m else None
    pips = f"{hi_lo[0]}-{hi_lo[1]}" if hi_lo else None
    if pips not in KIND_BY_PIPS:
        raise TjsimError(
            f"unknown tile '{token}' (a tile is written by its pips, higher first: 6-6, 5-4, 2-1)"
        )
    return pips


def parse_deal(text: str, players: int | None = None, tiles_per_player: int | None = None) -> list[int]:
    """Parse '6-6 … | 1-1 … | …' into one mask per seat; copies are shared across hands."""
    parts = text.split("|")
    if players is not None and len(parts) != players:
        raise TjsimError(f"the deal has {len(parts)} hands, the table has {players} players")
    _check_copies([p for part in parts for p in _tokens(part)])
    hands, used = [], 0
    for seat, part in enumerate(parts):
        hand = parse_hand(part, FULL_MASK & ~used)
        if tiles_per_player is not None and popcount(hand) != tiles_per_player:
            raise TjsimError(
                f"hand {seat} has {popcount(hand)} tiles, each player holds {tiles_per_player}"
            )
        hands.append(hand)
        used |= hand
    return hands


def format_hand(mask: int, sep: str = " ") -> str:
    """Tiles of a mask in box order: '6-6 6-6 5-4'."""
    return sep.join(tile_name(b) for b in bits_of(mask))


def format_deal(hands: Iterable[int]) -> str:
    """A deal in INTERFACES.md notation: hands joined by ' | '."""
    return " | ".join(format_hand(h) for h in hands)


def tile_list(mask: int) -> list[str]:
    """Tiles of a mask as a list of pips strings (for JSON traces)."""
    return [tile_name(b) for b in bits_of(mask)]


def chinese_names(mask: int) -> str:
    """Chinese names of the tiles in a mask, e.g. '天天九'."""
    return "".join(KINDS[TILE_KIND[b]].chinese for b in bits_of(mask))


class Hand:
    """A set of tiles (a 32-bit mask) that behaves like a Python set of tile names."""

    __slots__ = ("mask",)

    def __init__(self, tiles: int | str | Iterable[str] = 0):
        if isinstance(tiles, int):
            self.mask = tiles & FULL_MASK
        elif isinstance(tiles, str):
            self.mask = parse_hand(tiles)
        else:
            self.mask = parse_hand(" ".join(tiles))

    def __iter__(self) -> Iterator[str]:
        return (tile_name(b) for b in bits_of(self.mask))

    def __len__(self) -> int:
        return popcount(self.mask)

    def __contains__(self, tile: str) -> bool:
        pips = _normalise(tile)
        return bool(self.mask & kind_mask(pips))

    def count(self, tile: str) -> int:
        """How many copies of `tile` the hand holds."""
        return popcount(self.mask & kind_mask(_normalise(tile)))

    def __int__(self) -> int:
        return self.mask

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: "Hand") -> "Hand":
        return Hand(self.mask | int(other))

    def __and__(self, other: "Hand") -> "Hand":
        return Hand(self.mask & int(other))

    def __sub__(self, other: "Hand") -> "Hand":
        return Hand(self.mask & ~int(other))

    def __xor__(self, other: "Hand") -> "Hand":
        return Hand(self.mask ^ int(other))

    def __le__(self, other: "Hand") -> bool:
        return self.mask & ~int(other) == 0

    def __bool__(self) -> bool:
        return self.mask != 0

    def __str__(self) -> str:
        return format_hand(self.mask)

    def __repr__(self) -> str:
        return f"Hand('{self}')"
