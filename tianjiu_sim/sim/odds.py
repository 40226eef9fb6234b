"""Dealt-hand events and their probabilities: Monte Carlo, exact values, homogeneity tests.

Events are evaluated with bit masks on each dealt hand (unit `hand`: trials = deals × players)
or on the whole deal (unit `deal`). Every event counts the hand's or deal's tiles only, so
it does not care which seat holds which hand: the 牌頭 dice (which only rotate the hands
among the seats) are therefore not drawn here; the taker index is enough.

Monte Carlo sampling is organised in fixed blocks of BLOCK deal indices. Block b of a
cell (method × shuffle × start order) draws from its own xoshiro stream,
`seed_stream(st, seed, STREAM_DEAL, cell_key · 2**32 + b)`, and deals its BLOCK deals from
that one stream, so results are identical for any thread count and reseeding costs
nothing per deal. With a perfect shuffle the hands of a deal are drawn one after the other
as uniform subsets of the tiles left (`_block_uniform`); imperfect shuffles use
`shuffles.apply_shuffle` and the method's position table, exactly as the game's `dealing.deal`.

Start orders (`from_`): `box` starts every imperfect shuffle from the box order. `played`
starts deal index d from the tiles of a simulated previous deal as gathered: that deal is
dealt with a perfect shuffle and round dealing from `seed_stream(st, seed,
STREAM_PREVIOUS_DEAL, d)`, played by `previous_policy` at every seat (banker seat 0, streak 1,
decisions and dice from STREAM_PREVIOUS_PLAY / STREAM_PREVIOUS_DICE with index d) under the
same rules, and gathered by `session.gather_played`. The previous deals depend on (seed, d)
only, so every method × shuffle cell of a run starts from the same previous deals (common
random numbers); they are generated once per chunk of deal indices and fed to the block
kernel as one start row per deal. A perfect shuffle ignores the start order: `played` with a
perfect shuffle is the `box` cell itself (same stream key, same numbers).

Exact values (uniform shuffle): hand events by enumerating all C(32, t) hands in numba;
deal events (a hand of the deal holds one of some disjoint tile sets) by inclusion–exclusion.
"""
from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field
from functools import cache
from fractions import Fraction
from itertools import combinations, product
from typing import Callable, Sequence

import numpy as np
import numba
from numba import njit, prange

from ..kernels.bits import pdep
from ..errors import TjsimError
from ..stats import wilson
from ..kernels.layout import STREAM_DEAL, STREAM_PREVIOUS_DEAL, STREAM_PREVIOUS_DICE, STREAM_PREVIOUS_PLAY
from ..kernels.rng import seed_stream
from .runner import play_rows, policy_ids
from .session import gather_rows
from ..kernels.shuffles import SHUFFLE_PERFECT, Shuffle, apply_shuffle
from ..kernels.threads import fetch_add1
from ..game.tiles import (BB_FOLK_SUIT, BB_HEAVEN, BB_LAO, BB_LAO1, BB_LAO2, BB_MILITARY_PAIRS, BB_QUARTETS,
                          BB_SUPREME, KIND_BITS, N_TILES, kind_mask)

BLOCK = 4096  # deal indices per random stream; fixed so results do not depend on threads
CHUNK_BLOCKS = 256  # blocks per kernel call (progress-bar granularity)
PLAYED_CHUNK_BLOCKS = 2  # blocks per chunk with --from played (a deal is played per deal: slow)
# Streams of the simulated previous deals (--from played): kernels/layout.py STREAMS; the index is
# the deal index d.
_PREVIOUS_STREAMS = np.array([STREAM_PREVIOUS_DEAL, STREAM_PREVIOUS_PLAY, STREAM_PREVIOUS_DICE], dtype=np.int64)
_PREVIOUS_ROWS = 1 << 14  # previous deals per kernel call (bounds the record slabs)
DEFAULT_PREVIOUS_POLICY = "heuristic"

# Masks (int64 so numba arithmetic stays in one integer type; every value is < 2**32).
M_SUPREME = BB_SUPREME
M_HEAVEN = BB_HEAVEN
M_LAO = BB_LAO
M_LAO1 = BB_LAO1
M_LAO2 = BB_LAO2
M_GONG, M_ZA, M_YAO = BB_FOLK_SUIT["宫"], BB_FOLK_SUIT["杂"], BB_FOLK_SUIT["幺"]
M_Q_HEAVEN, M_Q_EARTH, M_Q_MAN, M_Q_HARMONY = BB_QUARTETS
M_CIVIL_SUPREME = kind_mask("5-1")
# Lower bit of each pair: `h & (h >> 1) & M_*_PAIR_LOW` has one bit per pair held.
M_CIVIL_PAIR_LOW = sum(1 << bits[0] for bits in KIND_BITS if len(bits) == 2)
M_MIL_PAIR_LOW = sum(m & -m for m in BB_MILITARY_PAIRS)
assert all(m == 3 * (m & -m) for m in BB_MILITARY_PAIRS)  # adjacent bits
M_PAIR_LOW = M_CIVIL_PAIR_LOW | M_MIL_PAIR_LOW

# Event groups for --events (the kernels count every event, or the core ones only: see run_cells).
GROUPS = ("core", "extra", "lao", "erming", "pairs")

# Count columns.
(C_SUPREME, C_HEAVEN_PAIR, C_CIVIL_PAIR, C_MILITARY_PAIR, C_QUARTET, C_NO_LAO, C_VOID_SUIT,
 C_SUPREME_ANY, C_VOID_GONG, C_VOID_ZA, C_VOID_YAO, C_Q_HEAVEN, C_Q_EARTH, C_Q_MAN, C_Q_HARMONY,
 C_BONUS_CHANCE, C_CIVIL_SUPREME, C_QUARTET_ANY, C_BONUS_ANY) = range(19)
C_LAO = 19  # lao_0 … lao_6
C_ERMING = 26  # erming_0 … erming_6
C_PAIRS = 33  # pairs_0 … pairs_7
N_COLS = 41


@dataclass(frozen=True)
class Event:
    """One event: its CSV name, unit (`hand` or `deal`), group, count column and meaning."""

    name: str
    unit: str
    group: str
    col: int
    description: str


_FIXED_EVENTS = [
    ("supreme", "hand", "core", C_SUPREME, "holds 至尊 (4-2 and 2-1)"),
    ("heaven_pair", "hand", "core", C_HEAVEN_PAIR, "holds both 天 6-6"),
    ("civil_pair", "hand", "core", C_CIVIL_PAIR, "holds both copies of some civil kind"),
    ("military_pair", "hand", "core", C_MILITARY_PAIR, "holds a military pair (雜九/八/七/五)"),
    ("quartet", "hand", "core", C_QUARTET, "can form a 四 quartet (天天九九 … 和和五五)"),
    ("no_lao", "hand", "core", C_NO_LAO, "no 老 and no 二名老 (folk: may fold)"),
    ("void_suit", "hand", "core", C_VOID_SUIT, "void in at least one folk suit 宫/杂/幺"),
    ("supreme_any", "deal", "core", C_SUPREME_ANY, "some hand holds 至尊"),
    ("void_gong", "hand", "extra", C_VOID_GONG, "no 宫 tile"),
    ("void_za", "hand", "extra", C_VOID_ZA, "no 杂 tile (no military tile)"),
    ("void_yao", "hand", "extra", C_VOID_YAO, "no 幺 tile (6-5, 6-4, 6-1, 5-1)"),
    ("quartet_heaven", "hand", "extra", C_Q_HEAVEN, "holds 天天九九"),
    ("quartet_earth", "hand", "extra", C_Q_EARTH, "holds 地地八八"),
    ("quartet_man", "hand", "extra", C_Q_MAN, "holds 人人七七"),
    ("quartet_harmony", "hand", "extra", C_Q_HARMONY, "holds 和和五五"),
    ("bonus_chance", "hand", "extra", C_BONUS_CHANCE, "holds 至尊 or a quartet (a 賀尊/四大賀 chance)"),
    ("civil_supreme", "hand", "extra", C_CIVIL_SUPREME, "holds 文尊 (both 5-1)"),
    ("quartet_any", "deal", "extra", C_QUARTET_ANY, "some hand holds a quartet"),
    ("bonus_any", "deal", "extra", C_BONUS_ANY, "some hand holds 至尊 or a quartet"),
]
# Tile sets behind the deal events, for the inclusion–exclusion exact values.
_QUARTET_SETS = (M_Q_HEAVEN, M_Q_EARTH, M_Q_MAN, M_Q_HARMONY)
DEAL_EVENT_SETS = {
    "supreme_any": (M_SUPREME,),
    "quartet_any": _QUARTET_SETS,
    "bonus_any": (M_SUPREME,) + _QUARTET_SETS,
}


def all_events(tiles: int) -> list[Event]:
    """Every event for hands of `tiles` tiles (distribution events stop at the largest count possible)."""
    events = [Event(*row) for row in _FIXED_EVENTS]
    for k in range(min(6, tiles) + 1):
        events.append(Event(f"lao_{k}", "hand", "lao", C_LAO + k, f"exactly {k} 老 (6-6, 6-3, 5-4, 6-5)"))
    for k in range(min(6, tiles) + 1):
        events.append(Event(f"erming_{k}", "hand", "erming", C_ERMING + k,
                            f"exactly {k} 二名老 (1-1, 6-2, 5-3, 6-4)"))
    for k in range(min(7, tiles // 2) + 1):
        events.append(Event(f"pairs_{k}", "hand", "pairs", C_PAIRS + k,
                            f"exactly {k} civil or military pairs (至尊 not counted)"))
    return events


def pick_named(tokens: list[str], names: list[str], group_of: list[str], groups: tuple[str, ...],
               what: str) -> list[int]:
    """Indices of the events the tokens name ('all', a group or an event name), each once, in order."""
    out: list[int] = []
    for t in tokens:
        if t == "all":
            picked = range(len(names))
        elif t in groups:
            picked = [i for i, g in enumerate(group_of) if g == t]
        elif t in names:
            picked = [names.index(t)]
        else:
            raise TjsimError(f"unknown event '{t}' (allowed: {', '.join(['all', *groups, *names])})")
        out += [i for i in picked if i not in out]
    if not out:
        raise TjsimError(f"{what} is empty (allowed: {', '.join(['all', *groups])} or event names)")
    return out


def select_events(spec: str, tiles: int) -> list[Event]:
    """Events named by `--events`: names and group names (core, extra, lao, erming, pairs, all), comma-separated."""
    events = all_events(tiles)
    tokens = [t.strip() for t in spec.split(",") if t.strip()]
    picked = pick_named(tokens, [e.name for e in events], [e.group for e in events], GROUPS, "--events")
    return [events[i] for i in picked]


# ---------------------------------------------------------------------------
# numba kernels
# ---------------------------------------------------------------------------

# A hand's boolean events are conjunctions over its four bytes: "holds all of M" and "holds
# none of M" hold for the hand iff they hold in every byte, and "holds some pair" is the
# negation of "no pair in any byte" (no pair straddles a byte). Its 老 / 二名老 / pair counts
# are sums over the bytes. So two 4 × 256 tables give every hand event with eight loads,
# three ANDs and three additions, where mask tests per event cost three times as much.
_ALL_OF = ((C_SUPREME, M_SUPREME), (C_HEAVEN_PAIR, M_HEAVEN), (C_Q_HEAVEN, M_Q_HEAVEN), (C_Q_EARTH, M_Q_EARTH),
           (C_Q_MAN, M_Q_MAN), (C_Q_HARMONY, M_Q_HARMONY), (C_CIVIL_SUPREME, M_CIVIL_SUPREME))
_NONE_OF = ((C_NO_LAO, M_LAO), (C_VOID_GONG, M_GONG), (C_VOID_ZA, M_ZA), (C_VOID_YAO, M_YAO))
B_NO_CIVIL_PAIR, B_NO_MIL_PAIR = 20, 21  # helper bits of the AND word
# _hand_events derives the OR-ed events from runs of bits: the four quartets and the three voids.
assert (C_Q_HEAVEN, C_Q_EARTH, C_Q_MAN, C_Q_HARMONY) == (11, 12, 13, 14)
assert (C_VOID_GONG, C_VOID_ZA, C_VOID_YAO) == (8, 9, 10)
assert (C_CIVIL_PAIR, C_MILITARY_PAIR, C_QUARTET, C_VOID_SUIT, C_BONUS_CHANCE) == (2, 3, 4, 6, 15)
assert (C_SUPREME_ANY, C_QUARTET_ANY, C_BONUS_ANY) == (7, 17, 18) and C_SUPREME == 0
_DIRECT = np.uint64(sum(1 << c for c, _ in _ALL_OF + _NONE_OF))


def _byte_tables() -> tuple[np.ndarray, np.ndarray]:
    """(AND table, SUM table), uint64[4, 256]: each byte value's share of a hand's events and counts."""
    and_t = np.zeros((4, 256), dtype=np.uint64)
    sum_t = np.zeros((4, 256), dtype=np.uint64)
    for b in range(4):
        byte = 0xFF << (8 * b)
        for v in range(256):
            h = v << (8 * b)
            pairs = h & (h >> 1)
            bits = sum(1 << c for c, m in _ALL_OF if h & m == m & byte)
            bits |= sum(1 << c for c, m in _NONE_OF if h & m == 0)
            bits |= (pairs & M_CIVIL_PAIR_LOW == 0) << B_NO_CIVIL_PAIR
            bits |= (pairs & M_MIL_PAIR_LOW == 0) << B_NO_MIL_PAIR
            and_t[b, v] = bits
            sum_t[b, v] = (bin(h & M_LAO1).count("1") | bin(h & M_LAO2).count("1") << 8
                           | bin(pairs & M_PAIR_LOW).count("1") << 16)
    return and_t, sum_t


_AND_TABLE, _SUM_TABLE = _byte_tables()
BYTE_ONES = np.uint64(0x0101010101010101)
FIELD_MAX = 255  # counts live in 8-bit fields until flushed
FLUSH_DEALS = 63  # deals between flushes: at most 63 × 4 hands (or 63 deals) per field
MAX_HAND_TILES = 15  # pair counts 0–7 fit the eight fields of one accumulator word
ZERO_ACC = (np.uint64(0),) * 6


@njit(cache=True, inline="always")
def _hand_events(h):
    """Hand `h`'s event bits (bit c: hand-event column c) and its 老 | 二名老 << 8 | pairs << 16 counts."""
    h = np.uint64(h)
    b0 = h & np.uint64(0xFF)
    b1 = (h >> np.uint64(8)) & np.uint64(0xFF)
    b2 = (h >> np.uint64(16)) & np.uint64(0xFF)
    b3 = h >> np.uint64(24)
    a = _AND_TABLE[0, b0] & _AND_TABLE[1, b1] & _AND_TABLE[2, b2] & _AND_TABLE[3, b3]
    s = _SUM_TABLE[0, b0] + _SUM_TABLE[1, b1] + _SUM_TABLE[2, b2] + _SUM_TABLE[3, b3]
    # (x + 2**k − 1) >> k is 1 iff one of x's k low bits is set (branch-free "any")
    quartet = (((a >> np.uint64(11)) & np.uint64(15)) + np.uint64(15)) >> np.uint64(4)
    void = (((a >> np.uint64(8)) & np.uint64(7)) + np.uint64(7)) >> np.uint64(3)
    pairs = (~a >> np.uint64(B_NO_CIVIL_PAIR - 2)) & np.uint64(12)  # columns 2 and 3
    ev = ((a & _DIRECT) | pairs | (quartet << np.uint64(C_QUARTET)) | (void << np.uint64(C_VOID_SUIT))
          | ((quartet | (a & np.uint64(1))) << np.uint64(C_BONUS_CHANCE)))
    return ev, s


@njit(cache=True, inline="always")
def _count_hand(h, acc, core_only):
    """Add hand `h` to the accumulators (six words of 8-bit fields); returns (acc, its event bits).

    Words: columns 0–7, 8–15 and 16–23, then the 老, 二名老 and pair-count histograms. With
    `core_only` only the first word (the INTERFACES.md events) is kept: half the work per hand.
    """
    w0, w1, w2, lh, eh, ph = acc
    ev, s = _hand_events(h)
    w0 += pdep(ev, BYTE_ONES)
    if core_only:
        return (w0, w1, w2, lh, eh, ph), ev
    w1 += pdep(ev >> np.uint64(8), BYTE_ONES)
    w2 += pdep(ev >> np.uint64(16), BYTE_ONES)
    one = np.uint64(1)
    seven = np.uint64(7)
    lh += one << ((s & seven) << np.uint64(3))
    eh += one << (((s >> np.uint64(8)) & seven) << np.uint64(3))
    ph += one << (((s >> np.uint64(16)) & seven) << np.uint64(3))
    return (w0, w1, w2, lh, eh, ph), ev


@njit(cache=True, inline="always")
def _count_deal(dv, acc, core_only):
    """Add a deal's deal events, from the OR `dv` of its hands' event bits, to the accumulators."""
    w0, w1, w2, lh, eh, ph = acc
    one = np.uint64(1)
    w0 += (dv & one) << np.uint64(8 * C_SUPREME_ANY)
    if core_only:
        return (w0, w1, w2, lh, eh, ph)
    w2 += (((dv >> np.uint64(C_QUARTET)) & one) << np.uint64(8 * (C_QUARTET_ANY - 16))
           | ((dv >> np.uint64(C_BONUS_CHANCE)) & one) << np.uint64(8 * (C_BONUS_ANY - 16)))
    return (w0, w1, w2, lh, eh, ph)


@njit(cache=True)
def _flush(acc, row):
    """Add the accumulators' fields to the int64 count row; returns zeroed accumulators."""
    w0, w1, w2, lh, eh, ph = acc
    mask = np.uint64(FIELD_MAX)
    for f in range(8):
        sh = np.uint64(8 * f)
        row[f] += np.int64((w0 >> sh) & mask)
        row[8 + f] += np.int64((w1 >> sh) & mask)
        if 16 + f < C_LAO:
            row[16 + f] += np.int64((w2 >> sh) & mask)
        if f < C_ERMING - C_LAO:
            row[C_LAO + f] += np.int64((lh >> sh) & mask)
            row[C_ERMING + f] += np.int64((eh >> sh) & mask)
        row[C_PAIRS + f] += np.int64((ph >> sh) & mask)
    zero = np.uint64(0)
    return (zero, zero, zero, zero, zero, zero)


@njit(cache=True, inline="always")
def _xoshiro(s0, s1, s2, s3):
    """xoshiro256** on scalars (as rng.next_u64, kept in registers): (output, s0, s1, s2, s3)."""
    r = s1 * np.uint64(5)
    r = ((r << np.uint64(7)) | (r >> np.uint64(57))) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
    return r, s0, s1, s2, s3


@njit(cache=True, inline="always")
def _below(x, bits, n, s0, s1, s2, s3):
    """Exact uniform integer in [0, n) from the `bits`-bit value x (Lemire; a rejected x is replaced
    by the top `bits` bits of the next output): (value, s0, s1, s2, s3)."""
    low = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    m = x * n
    if (m & low) < n:
        t = (low + np.uint64(1) - n) % n
        while (m & low) < t:
            y, s0, s1, s2, s3 = _xoshiro(s0, s1, s2, s3)
            m = (y >> np.uint64(64 - bits)) * n
    return m >> np.uint64(bits), s0, s1, s2, s3


@njit(cache=True, parallel=True)
def _mc_kernel(seed, cell, first_block, n_blocks, total, seq, players, tiles, kind, k, starts,
               hand_plan, patterns, core_only, n_workers, out):
    """Count events for blocks first_block … first_block+n_blocks−1 of a cell into out[block, col].

    `starts` (int64[rows, 32]) holds the start orders of the imperfect shuffles: one row for
    every deal, or one row per deal index first_block·BLOCK, first_block·BLOCK + 1, ….
    """
    base = first_block * BLOCK
    # One prange iteration per thread, each claiming the next block from a shared counter:
    # a plain prange gives each thread a fixed half of the blocks, so a thread whose core is
    # busy with another process holds the whole call back. Blocks own their streams and rows,
    # so which thread deals a block changes nothing.
    next_block = np.zeros(1, dtype=np.int64)
    for _w in prange(min(n_blocks, n_workers)):
        bi = fetch_add1(next_block, 0)
        while bi < n_blocks:
            _mc_block(seed, cell, first_block + bi, total, seq, players, tiles, kind, k, starts, base,
                      hand_plan, patterns, core_only, out[bi])
            bi = fetch_add1(next_block, 0)


@njit(cache=True)
def _mc_block(seed, cell, b, total, seq, players, tiles, kind, k, starts, base, hand_plan, patterns, core_only,
              row):
    """Deal block b (deal indices b·BLOCK … up to `total`) of a cell from its own stream; counts into `row`.

    `seq[p * tiles + i]` is the wall position of taker p's i-th tile (dealt positions are
    0…players·tiles−1); deal index d's imperfect shuffle starts from `starts[0]` if `starts`
    has one row, else from `starts[d − base]`.
    """
    st = np.empty(4, dtype=np.uint64)
    seed_stream(st, seed, STREAM_DEAL, cell * np.int64(4294967296) + b)
    lo = b * BLOCK
    hi = min(lo + BLOCK, total)
    if kind == SHUFFLE_PERFECT:
        _block_uniform(st, hi - lo, players, tiles, hand_plan, patterns, core_only, row)
        return
    acc = ZERO_ACC
    order = np.empty(32, dtype=np.int64)
    scratch = np.empty(32, dtype=np.int64)
    shared = starts.shape[0] == 1
    pending = 0
    for d in range(lo, hi):
        r = 0 if shared else d - base
        for i in range(32):
            order[i] = starts[r, i]
        apply_shuffle(st, kind, k, order, scratch)
        dv = np.uint64(0)
        for p in range(players):
            h = np.uint64(0)
            for i in range(p * tiles, (p + 1) * tiles):
                h |= np.uint64(1) << np.uint64(order[seq[i]])
            acc, ev = _count_hand(h, acc, core_only)
            dv |= ev
        acc = _count_deal(dv, acc, core_only)
        pending += 1
        if pending == FLUSH_DEALS:
            acc = _flush(acc, row)
            pending = 0
    _flush(acc, row)


# How _block_uniform draws each hand (hand_plan[p, 0]; columns 1–2: offset and length of its
# pattern table in `patterns`).
HAND_DRAWN, HAND_PATTERN, HAND_REST = 0, 1, 2
PATTERN_LIMIT = 1 << 20  # largest C(n, tiles) table kept (4 MB: stays in a core's L2 cache)


@njit(cache=True)
def _block_uniform(st, deals, players, tiles, hand_plan, patterns, core_only, row):
    """`deals` uniformly random deals (the hot loop of `deal-odds`); counts into `row`.

    Every event counts a hand's tiles only, so a uniform deal is a uniformly random partition
    of the 32 tiles into hands, drawn hand by hand from the mask `rem` of tiles not yet dealt:
    - HAND_DRAWN: `tiles` draws without replacement, the r-th remaining tile being
      pdep(1 << r, rem); draws r < n come exactly (Lemire, with rejection) from 16-bit
      fields, four per 64-bit output;
    - HAND_PATTERN: one exact draw of a rank below C(n, tiles) from the top 32 bits of an
      output, whose pattern of `tiles` set bits among n is placed on `rem` by pdep;
    - HAND_REST: the tiles left over (the last hand of a 32-tile deal).
    Each hand is thus a uniform subset of the tiles left, as in a shuffled wall.
    """
    s0, s1, s2, s3 = st[0], st[1], st[2], st[3]
    acc = ZERO_ACC
    pending = 0
    one = np.uint64(1)
    for _ in range(deals):
        rem = np.uint64(0xFFFFFFFF)
        left = 32
        x = np.uint64(0)
        fields = 0
        dv = np.uint64(0)
        for p in range(players):
            mode = hand_plan[p, 0]
            if mode == HAND_REST:
                h = rem
            elif mode == HAND_PATTERN:
                y, s0, s1, s2, s3 = _xoshiro(s0, s1, s2, s3)
                r, s0, s1, s2, s3 = _below(y >> np.uint64(32), 32, np.uint64(hand_plan[p, 2]), s0, s1, s2, s3)
                h = pdep(np.uint64(patterns[hand_plan[p, 1] + np.int64(r)]), rem)
            else:
                h = np.uint64(0)
                for _t in range(tiles):
                    if fields == 0:
                        x, s0, s1, s2, s3 = _xoshiro(s0, s1, s2, s3)
                        fields = 4
                    r, s0, s1, s2, s3 = _below(x & np.uint64(0xFFFF), 16, np.uint64(left), s0, s1, s2, s3)
                    x >>= np.uint64(16)
                    fields -= 1
                    bit = pdep(one << r, rem)
                    rem ^= bit
                    h |= bit
                    left -= 1
            if mode != HAND_DRAWN:
                rem ^= h
                left -= tiles
            acc, ev = _count_hand(h, acc, core_only)
            dv |= ev
        # Written out as in _mc_block: an inlined helper for these lines measured 10% slower.
        acc = _count_deal(dv, acc, core_only)
        pending += 1
        if pending == FLUSH_DEALS:
            acc = _flush(acc, row)
            pending = 0
    _flush(acc, row)
    st[0], st[1], st[2], st[3] = s0, s1, s2, s3


@njit(cache=True)
def _patterns(n, t, out):
    """out[i] = the i-th n-bit mask with t bits set, in increasing order (Gosper's hack)."""
    x = (np.int64(1) << t) - 1
    for i in range(out.shape[0]):
        out[i] = x
        c = x & -x
        y = x + c
        x = (((y ^ x) >> 2) // c) | y


@njit(cache=True)
def _exact_item(a, b, tiles, row):
    """Add every hand whose two lowest tiles are a < b (the rest above b) to `row`."""
    acc = ZERO_ACC
    if b == 32:
        acc, _ = _count_hand(np.int64(1) << a, acc, False)
        _flush(acc, row)
        return
    base = (np.int64(1) << a) | (np.int64(1) << b)
    r = tiles - 2
    room = 31 - b
    pending = 0
    if r == 0:
        acc, _ = _count_hand(base, acc, False)
    elif r <= room:
        x = (np.int64(1) << r) - 1
        limit = np.int64(1) << room
        while x < limit:
            acc, _ = _count_hand(base | (x << (b + 1)), acc, False)
            pending += 1
            if pending == FIELD_MAX:
                acc = _flush(acc, row)
                pending = 0
            c = x & -x
            y = x + c
            x = (((y ^ x) >> 2) // c) | y  # Gosper: next set of r bits
    _flush(acc, row)


@njit(cache=True, parallel=True)
def _exact_kernel(tiles, units, out):
    """Hand-event counts over all C(32, tiles) hands; out[unit, col], work split by the first two tiles."""
    for w in prange(units):
        item = 0
        for a in range(32):
            for b in range(a + 1, 33):
                # b == 32 stands for "no second tile" (hands of one tile)
                if (b == 32) == (tiles == 1):
                    if item % units == w:
                        _exact_item(a, b, tiles, out[w])
                    item += 1


# ---------------------------------------------------------------------------
# Python driver
# ---------------------------------------------------------------------------

def cell_key(method: str, shuffle: Shuffle, from_: str) -> int:
    """Stable 31-bit key naming a cell's random streams (the same cell gives the same numbers in any run)."""
    return zlib.crc32(f"{method}|{shuffle.name}|{from_}".encode()) & 0x7FFFFFFF


@dataclass
class Cell:
    """Counts of one method × shuffle cell: totals and per-block moments for variance estimates."""

    method: str
    shuffle: Shuffle
    deals: int
    counts: np.ndarray  # int64[N_COLS]
    full_blocks: int = 0
    block_sum: np.ndarray = field(default_factory=lambda: np.zeros(N_COLS))
    block_sumsq: np.ndarray = field(default_factory=lambda: np.zeros(N_COLS))

    def add_blocks(self, out: np.ndarray, first: int) -> None:
        """Add the per-block counts `out` of blocks first, first + 1, … (the last may be partial)."""
        self.counts += out.sum(axis=0)
        nb = out.shape[0]
        full = out if (first + nb) * BLOCK <= self.deals else out[:-1]
        self.full_blocks += full.shape[0]
        f = full.astype(np.float64)
        self.block_sum += f.sum(axis=0)
        self.block_sumsq += (f * f).sum(axis=0)


@dataclass
class _CellSpec:
    """What the block kernel needs for one cell."""

    cell: Cell
    key: int
    seq: np.ndarray
    players: int
    tiles: int

    def run_blocks(self, seed: int, first: int, nb: int, starts: np.ndarray, core_only: bool) -> None:
        """Count blocks first … first + nb − 1 into the cell."""
        out = np.zeros((nb, N_COLS), dtype=np.int64)
        sh = self.cell.shuffle
        _mc_kernel(np.int64(seed), np.int64(self.key), np.int64(first), np.int64(nb), np.int64(self.cell.deals),
                   self.seq, np.int64(self.players), np.int64(self.tiles), np.int64(sh.code), np.int64(sh.k),
                   starts, *hand_plan(self.players, self.tiles), core_only, np.int64(numba.get_num_threads()), out)
        self.cell.add_blocks(out, first)


def _check_hand_size(tiles: int) -> None:
    """The kernels' 8-bit pair histogram has room for hands of up to MAX_HAND_TILES tiles."""
    if not 1 <= tiles <= MAX_HAND_TILES:
        raise TjsimError(f"deal-odds counts hands of 1 to {MAX_HAND_TILES} tiles, not {tiles}")


@cache
def _pattern_table(n: int, t: int) -> np.ndarray:
    """uint32[C(n, t)]: every n-bit mask with t bits set."""
    out = np.zeros(math.comb(n, t), dtype=np.uint32)
    _patterns(np.int64(n), np.int64(t), out)
    return out


@cache
def hand_plan(players: int, tiles: int) -> tuple[np.ndarray, np.ndarray]:
    """(plan int64[players, 3], patterns uint32[…]): how `_block_uniform` draws each hand of a deal."""
    _check_hand_size(tiles)
    if players * tiles > N_TILES or not 1 <= players <= 4:  # FLUSH_DEALS assumes at most 4 hands
        raise TjsimError(f"deal-odds deals 1 to 4 hands of at most {N_TILES} tiles in all")
    plan = np.zeros((players, 3), dtype=np.int64)
    tables, offset = [], 0
    for p in range(players):
        n = N_TILES - p * tiles
        if n == tiles:
            plan[p, 0] = HAND_REST
        elif math.comb(n, tiles) <= PATTERN_LIMIT:
            table = _pattern_table(n, tiles)
            plan[p] = (HAND_PATTERN, offset, table.size)
            tables.append(table)
            offset += table.size
        else:
            plan[p, 0] = HAND_DRAWN
    patterns = np.concatenate(tables) if tables else np.zeros(1, dtype=np.uint32)
    return plan, patterns


def _ticked(deals: int, first: int, nb: int) -> int:
    """Deals in blocks first … first + nb − 1 of a cell of `deals` deals."""
    return min(deals, (first + nb) * BLOCK) - min(deals, first * BLOCK)


def previous_orders(rules, seed: int, first: int, n: int, policy: str = DEFAULT_PREVIOUS_POLICY) -> np.ndarray:
    """int64[n, 32]: the gathered orders `--from played` starts deal indices first … first + n − 1 from.

    The previous deal of deal index d: perfect shuffle and round dealing from
    STREAM_PREVIOUS_DEAL, played with banker seat 0, streak 1 and `policy` at every seat,
    decisions and dice from STREAM_PREVIOUS_PLAY / STREAM_PREVIOUS_DICE, all with index d; its
    tiles gathered by `session.gather_played` (played tiles in play order, then the rest in box order).
    """
    out = np.zeros((n, N_TILES), dtype=np.int64)
    for lo in range(0, n, _PREVIOUS_ROWS):
        m = min(n, lo + _PREVIOUS_ROWS) - lo
        r = play_rows(rules, [policy], seed, m, deal_index=first + lo, streams=_PREVIOUS_STREAMS, record=True)
        gather_rows(r.records[0], r.records[3], out[lo:lo + m])
    return out


def run_cells(rules, cells: Sequence[tuple[str, Shuffle]], from_: str, deals: int, seed: int,
              core_only: bool = False, tick: Callable[[int], None] | None = None,
              previous_policy: str = DEFAULT_PREVIOUS_POLICY) -> list[Cell]:
    """Monte Carlo counts for (method, shuffle) cells of `deals` deals each, with per-block streams.

    Cells that start from the box order (and every perfect-shuffle cell) run one after the
    other from the box start row. Imperfect cells starting from `played` run together chunk by
    chunk: the chunk's previous deals are played once and shared by all of them. With
    `core_only` only the core (INTERFACES.md) columns are counted; the others stay 0.
    """
    from ..kernels.dealing import make_plan
    from ..kernels.layout import FROM_BOX, PLAN_FROM, PLAN_PLAYERS, PLAN_SEQ, PLAN_TILES

    if from_ == "played":
        policy_ids([previous_policy], rules.players)  # unknown names fail before any work
    specs, played = [], []
    for method, shuffle in cells:
        plan = make_plan(rules, method, shuffle, from_)
        from_played = plan[PLAN_FROM] != FROM_BOX and not shuffle.uniform
        spec = _CellSpec(Cell(method, shuffle, deals, np.zeros(N_COLS, dtype=np.int64)),
                         cell_key(method, shuffle, from_ if from_played else "box"),
                         plan[PLAN_SEQ:PLAN_SEQ + 32].copy(), int(plan[PLAN_PLAYERS]), int(plan[PLAN_TILES]))
        specs.append(spec)
        if from_played:
            played.append(spec)
    n_blocks = -(-deals // BLOCK)
    box_start = np.arange(N_TILES, dtype=np.int64).reshape(1, N_TILES)
    for spec in specs:
        if any(spec is p for p in played):
            continue
        for first in range(0, n_blocks, CHUNK_BLOCKS):
            nb = min(CHUNK_BLOCKS, n_blocks - first)
            spec.run_blocks(seed, first, nb, box_start, core_only)
            if tick:
                tick(_ticked(deals, first, nb))
    if played:
        for first in range(0, n_blocks, PLAYED_CHUNK_BLOCKS):
            nb = min(PLAYED_CHUNK_BLOCKS, n_blocks - first)
            lo = first * BLOCK
            starts = previous_orders(rules, seed, lo, min(deals, lo + nb * BLOCK) - lo, previous_policy)
            for spec in played:
                spec.run_blocks(seed, first, nb, starts, core_only)
            if tick:
                tick(_ticked(deals, first, nb) * len(played))
    return [spec.cell for spec in specs]


def run_cell(rules, method: str, shuffle: Shuffle, from_: str, deals: int, seed: int,
             core_only: bool = False, tick: Callable[[int], None] | None = None,
             previous_policy: str = DEFAULT_PREVIOUS_POLICY) -> Cell:
    """Monte Carlo counts for one cell (`deals` deals) with per-block streams (see `run_cells`)."""
    return run_cells(rules, [(method, shuffle)], from_, deals, seed, core_only, tick, previous_policy)[0]


def hand_events(mask: int, tiles: int | None = None) -> set[str]:
    """Names of the hand events true for one hand (a tile mask), via the kernels' own evaluation."""
    tiles = bin(mask).count("1") if tiles is None else tiles
    row = np.zeros(N_COLS, dtype=np.int64)
    _one_hand(np.int64(mask), row)
    return {e.name for e in all_events(tiles) if e.unit == "hand" and row[e.col]}


@njit(cache=True)
def _one_hand(h, row):
    """Counts of a single hand's events into `row`."""
    zero = np.uint64(0)
    acc = (zero, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero)
    acc, _ = _count_hand(h, ZERO_ACC, False)
    _flush(acc, row)


def exact_hand_counts(tiles: int) -> np.ndarray:
    """Number of the C(32, tiles) hands with each hand event (int64[N_COLS])."""
    units = 64
    out = np.zeros((units, N_COLS), dtype=np.int64)
    _check_hand_size(tiles)
    _exact_kernel(np.int64(tiles), np.int64(units), out)
    return out.sum(axis=0)


def _falling(n: int, k: int) -> int:
    r = 1
    for i in range(k):
        r *= n - i
    return r


def exact_deal_any(tile_sets: Sequence[int], players: int, tiles: int) -> Fraction:
    """P(some hand holds all of one of the disjoint `tile_sets`) for a uniform deal, by inclusion–exclusion."""
    sizes = [bin(s).count("1") for s in tile_sets]
    total = Fraction(0)
    for r in range(1, len(sizes) + 1):
        for subset in combinations(range(len(sizes)), r):
            term = Fraction(0)
            for owners in product(range(players), repeat=r):
                per_hand = [0] * players
                for i, h in zip(subset, owners):
                    per_hand[h] += sizes[i]
                num = math.prod(_falling(tiles, n) for n in per_hand)
                term += Fraction(num, _falling(N_TILES, sum(sizes[i] for i in subset)))
            total += term if r % 2 else -term
    return total


def exact_probabilities(players: int, tiles: int, events: Sequence[Event]) -> dict[str, float]:
    """Exact probability of each event under a uniform shuffle."""
    counts = exact_hand_counts(tiles)
    hands = math.comb(N_TILES, tiles)
    result = {}
    for e in events:
        if e.unit == "deal":
            result[e.name] = float(exact_deal_any(DEAL_EVENT_SETS[e.name], players, tiles))
        else:
            result[e.name] = int(counts[e.col]) / hands
    return result


# ---------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------

def chi2_sf(x: float, df: int) -> float:
    """Upper tail P(χ²_df > x) for an integer df ≥ 1 (closed forms; no scipy import)."""
    if x <= 0:
        return 1.0
    if math.isinf(x):
        return 0.0
    h = x / 2.0
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= h / i
            total += term
        return min(1.0, math.exp(-h) * total)
    total = math.erfc(math.sqrt(h))
    term = math.sqrt(h) * math.exp(-h) * 2.0 / math.sqrt(math.pi)
    for i in range(1, (df - 1) // 2 + 1):
        total += term
        term *= h / (i + 0.5)
    return min(1.0, max(0.0, total))


MIN_BLOCKS_FOR_VARIANCE = 10


def per_deal_variance(cells: Sequence[Cell], col: int, units: int) -> tuple[float, str]:
    """Pooled per-deal variance of the event count: from block sums (batch means) if enough blocks, else binomial."""
    if all(c.full_blocks >= MIN_BLOCKS_FOR_VARIANCE for c in cells):
        ss = sum(c.block_sumsq[col] - c.block_sum[col] ** 2 / c.full_blocks for c in cells)
        dof = sum(c.full_blocks - 1 for c in cells)
        return max(0.0, ss / dof) / BLOCK, "batch"
    hits = sum(int(c.counts[col]) for c in cells)
    deals = sum(c.deals for c in cells)
    p = hits / (deals * units)
    return units * p * (1 - p), "binomial"


def homogeneity(cells: Sequence[Cell], col: int, units: int) -> dict:
    """Chi-square test that every cell has the same event probability (Wald form with pooled variance)."""
    var, how = per_deal_variance(cells, col, units)
    means = [int(c.counts[col]) / c.deals for c in cells]
    deals = [c.deals for c in cells]
    grand = sum(int(c.counts[col]) for c in cells) / sum(deals)
    spread = sum(n * (m - grand) ** 2 for n, m in zip(deals, means))
    df = len(cells) - 1
    if var > 0:
        stat = spread / var
    else:
        stat = 0.0 if spread == 0 else math.inf
    return {"statistic": stat, "df": df, "p_value": chi2_sf(stat, df), "variance": how}


# ---------------------------------------------------------------------------
# A whole deal-odds run
# ---------------------------------------------------------------------------

CSV_COLUMNS = ("event", "unit", "method", "shuffle", "trials", "hits", "probability", "ci_low", "ci_high",
               "exact")
UNIFORM_NOTE = ("With a perfect shuffle the dealing method only changes which seat gets which tiles, "
                "not the distribution of hands.")


@dataclass
class OddsRun:
    """Everything a deal-odds run produced: settings, cells, exact values and derived tables."""

    rules: object
    methods: list[str]
    shuffles: list[Shuffle]
    from_: str
    deals: int
    seed: int
    events: list[Event]
    cells: dict[tuple[str, str], Cell]
    exact: dict[str, float] | None
    exact_shown: bool
    previous_policy: str = DEFAULT_PREVIOUS_POLICY

    @property
    def players(self) -> int:
        """Players at the table."""
        return self.rules.players

    @property
    def tiles(self) -> int:
        """Tiles per player."""
        return self.rules.tiles_per_player

    def units(self, event: Event) -> int:
        """Trials per deal for an event (players for hand events, 1 for deal events)."""
        return self.players if event.unit == "hand" else 1

    def rows(self) -> list[dict]:
        """One row per event × shuffle × method, INTERFACES.md deal-odds CSV columns."""
        out = []
        for e in self.events:
            for sh in self.shuffles:
                for m in self.methods:
                    c = self.cells[(m, sh.name)]
                    trials = c.deals * self.units(e)
                    hits = int(c.counts[e.col])
                    lo, hi = wilson(hits, trials)
                    exact = self.exact[e.name] if (self.exact_shown and self.exact and sh.uniform) else None
                    out.append({"event": e.name, "unit": e.unit, "method": m, "shuffle": sh.name,
                                "trials": trials, "hits": hits, "probability": hits / trials,
                                "ci_low": lo, "ci_high": hi, "exact": exact})
        return out

    def homogeneity(self) -> dict[str, dict]:
        """Per shuffle: a chi-square test per event that all methods deal the same probability."""
        result = {}
        if len(self.methods) < 2:
            return result
        for sh in self.shuffles:
            cells = [self.cells[(m, sh.name)] for m in self.methods]
            tests = {e.name: homogeneity(cells, e.col, self.units(e)) for e in self.events}
            ps = [(t["p_value"], name) for name, t in tests.items()]
            p_min, worst = min(ps)
            result[sh.name] = {"events": tests, "min_p": p_min, "min_p_event": worst,
                               "bonferroni_p": min(1.0, p_min * len(ps)), "df": len(self.methods) - 1}
        return result

    def deviation(self) -> list[dict]:
        """Per imperfect shuffle and method: the largest |estimate − uniform exact| over the events."""
        if not self.exact:
            return []
        out = []
        for sh in self.shuffles:
            for m in self.methods:
                c = self.cells[(m, sh.name)]
                devs = [(abs(int(c.counts[e.col]) / (c.deals * self.units(e)) - self.exact[e.name]), e.name)
                        for e in self.events]
                noise = max(math.sqrt(max(self.exact[e.name] * (1 - self.exact[e.name]), 0.0)
                                      / (c.deals * self.units(e))) for e in self.events)
                d, name = max(devs)
                out.append({"shuffle": sh.name, "kind": sh.kind, "k": sh.k, "method": m,
                            "max_abs_deviation": d, "event": name, "noise_se": noise})
        return out


def run_odds(rules, methods: Sequence[str], shuffles: Sequence[Shuffle], from_: str, deals: int, seed: int,
             events: Sequence[Event], exact: bool = False, need_exact: bool = False,
             tick: Callable[[int], None] | None = None,
             previous_policy: str = DEFAULT_PREVIOUS_POLICY) -> OddsRun:
    """Run every method × shuffle cell; exact values if asked (`exact`) or needed for deviations."""
    pairs = [(m, sh) for sh in shuffles for m in methods]
    core_only = all(e.group == "core" for e in events)
    done = run_cells(rules, pairs, from_, deals, seed, core_only, tick, previous_policy)
    cells = {(m, sh.name): c for (m, sh), c in zip(pairs, done)}
    exact_values = (exact_probabilities(rules.players, rules.tiles_per_player, events)
                    if (exact or need_exact) else None)
    return OddsRun(rules, list(methods), list(shuffles), from_, deals, seed, list(events), cells,
                   exact_values, exact, previous_policy)
