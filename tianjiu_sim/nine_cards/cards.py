"""The 112 cards of 九支十仔 (RULES.md §9.1): 28 kinds × 4 identical copies.

A kind is `colour * 7 + rank`, colours 紅 黃 青 白 (0–3, highest first), ranks 0–6 highest
first. A multiset of cards is a count per kind; packed, each count takes 4 bits: one Python
int of 112 bits (`pack`), or for numba two uint64 words, kinds 0–13 and 14–27 (`pack_words`).
Notation: Chinese `紅帥`, `青車`, … and ASCII `R1`–`W7` (colour letter R Y G W, rank 1–7).
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Iterable, Sequence

import numpy as np

from ..errors import TjsimError

N_COLOURS = 4
N_RANKS = 7
N_KINDS = N_COLOURS * N_RANKS
COPIES = 4
N_CARDS = N_KINDS * COPIES
COLOURS = ("紅", "黃", "青", "白")
COLOUR_LETTERS = ("R", "Y", "G", "W")
# 紅/黃 use the red names, 青/白 the black ones (RULES.md §9.1).
RANKS_RED = ("帥", "仕", "相", "俥", "傌", "炮", "兵")
RANKS_BLACK = ("將", "士", "象", "車", "馬", "包", "卒")
KIND_NAMES = tuple(COLOURS[c] + (RANKS_RED if c < 2 else RANKS_BLACK)[r]
                   for c in range(N_COLOURS) for r in range(N_RANKS))
KIND_ASCII = tuple(f"{COLOUR_LETTERS[c]}{r + 1}" for c in range(N_COLOURS) for r in range(N_RANKS))
# Simplified forms a user may type.
_ALIASES = {"红": "紅", "黄": "黃", "帅": "帥", "伡": "俥", "将": "將", "车": "車", "马": "馬", "砲": "炮"}
_LOOKUP = {name: k for k, name in enumerate(KIND_NAMES)}
_LOOKUP.update({a: k for k, a in enumerate(KIND_ASCII)})
_LOOKUP.update({a.lower(): k for k, a in enumerate(KIND_ASCII)})


def colour_of(kind: int) -> int:
    """Colour index 0–3 (紅 黃 青 白) of a kind."""
    return kind // N_RANKS


def name(kind: int, ascii_form: bool = False) -> str:
    """The notation of a kind: `紅帥` (or `R1` with ascii_form)."""
    return KIND_ASCII[kind] if ascii_form else KIND_NAMES[kind]


def parse_card(text: str) -> int:
    """A kind from `紅帥` / `R1` (simplified characters accepted); unknown → TjsimError."""
    t = "".join(_ALIASES.get(ch, ch) for ch in text.strip())
    if t in _LOOKUP:
        return _LOOKUP[t]
    raise TjsimError(f"unknown card '{text}' (write e.g. 紅帥, 黃兵, 青將, 白卒, or R1–R7, Y1–Y7, G1–G7, W1–W7)")


def parse_cards(text: str, max_copies: int = COPIES) -> list[int]:
    """Kinds from a list like `紅帥 紅帥 青車` or `R1,R1,G4`; more than 4 copies of a kind → TjsimError."""
    tokens = [t for t in re.split(r"[\s,，、]+", text.strip()) if t]
    kinds = [parse_card(t) for t in tokens]
    check_copies(kinds, max_copies)
    return kinds


def check_copies(kinds: Iterable[int], max_copies: int = COPIES, what: str = "the cards") -> None:
    """Raise TjsimError when a kind appears more than `max_copies` times."""
    for k, c in Counter(kinds).items():
        if c > max_copies:
            raise TjsimError(f"{what} hold {c} copies of {KIND_NAMES[k]} ({KIND_ASCII[k]}); "
                             f"the pack has only {COPIES} of each card")


def counts_of(kinds: Iterable[int]) -> np.ndarray:
    """int64 [28] count per kind of a list of kinds."""
    out = np.zeros(N_KINDS, dtype=np.int64)
    for k in kinds:
        out[k] += 1
    return out


def kinds_of(counts: Sequence[int]) -> list[int]:
    """The sorted list of kinds (with repeats) of a count vector."""
    return [k for k in range(N_KINDS) for _ in range(int(counts[k]))]


def card_list(counts: Sequence[int], ascii_form: bool = False) -> list[str]:
    """Names of the cards of a count vector, highest kind first."""
    return [name(k, ascii_form) for k in kinds_of(counts)]


def pack(counts: Sequence[int]) -> int:
    """Per-kind counts packed into one int, 4 bits per kind (kind k at bits 4k…4k+3)."""
    return sum(int(c) << (4 * k) for k, c in enumerate(counts))


def unpack(packed: int) -> np.ndarray:
    """int64 [28] counts from `pack`'s int."""
    return np.array([(packed >> (4 * k)) & 15 for k in range(N_KINDS)], dtype=np.int64)


def pack_words(counts: Sequence[int]) -> tuple[int, int]:
    """The two uint64 words numba arrays use: kinds 0–13 in the first, 14–27 in the second."""
    p = pack(counts)
    return p & ((1 << 56) - 1), p >> 56


def unpack_words(lo: int, hi: int) -> np.ndarray:
    """int64 [28] counts from `pack_words`."""
    return unpack(int(lo) | (int(hi) << 56))
