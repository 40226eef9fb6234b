"""Dealing (RULES.md §6): shuffles, the wall and the 牌頭 methods, round dealing.

Numba kernels take a xoshiro state (see rng.py) and write one mask per seat.
`make_plan` (Python) turns a rule set, a method, a shuffle model and a start order into a
small int64 array; the numba entry point `deal(state, plan, order, hands)` deals one deal
from it (docs/CONTRACTS.md "Dealing plans"). With a perfect shuffle and round dealing it is
exactly `deal_perfect`.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .layout import (
    FROM_BOX, FROM_NAMES, KIND_ROUNDS, KIND_WALL, PLAN_DEALT, PLAN_FROM, PLAN_K, PLAN_KIND,
    PLAN_METHOD, PLAN_PLAYERS, PLAN_ROUND, PLAN_SEQ, PLAN_SHUFFLE, PLAN_SIZE, PLAN_TAKER, PLAN_TILES
)
from .rng import randbelow
from .shuffles import apply_shuffle, shuffle_uniform


# The per-deal functions are inlined into the kernels that deal: a call costs an atomic
# reference-count update per array argument, which two threads dealing at once contend for.
@njit(cache=True, inline="always")
def deal_rounds(order, players, tiles, round_size, hands):
    """Round dealing: each seat in turn takes `round_size` tiles from the top of `order`."""
    for p in range(players):
        hands[p] = 0
    # Every seat has taken the same number of tiles at the start of a round, so a round gives
    # each seat min(round_size, tiles - taken) tiles (no per-deal counter array).
    k = 0
    for taken in range(0, tiles, round_size):
        n = min(round_size, tiles - taken)
        for p in range(players):
            for _ in range(n):
                hands[p] |= np.uint32(1) << np.uint32(order[k])
                k += 1


@njit(cache=True, inline="always")
def deal_perfect(state, players, tiles, round_size, order, hands):
    """Perfect shuffle then round dealing; `order` is int64[32] scratch, `hands` uint32[players]."""
    for i in range(32):
        order[i] = i
    shuffle_uniform(state, order)
    deal_rounds(order, players, tiles, round_size, hands)


# ---------------------------------------------------------------------------
# The wall and the 牌頭 methods (RULES.md §6)
# ---------------------------------------------------------------------------
#
# Wall: tile k of the shuffled order (position k, k = 0…31) lies in stack k // 4 + 1
# (stacks 1…8 left to right as the thrower sees them), layer k % 4 + 1 (layer 1 on top);
# so stack s, layer l is position 4 (s − 1) + (l − 1).
#
# Take order [choice where RULES.md is silent]: a taker takes its stacks in the order they
# are listed in RULES.md's row, each from the top (layer 1) down. A restacked row "7 on top of
# 1" makes one 8-high stack whose top half is stack 7, so it comes off as stack 7 layers 1–4,
# then stack 1 layers 1–4: listed here as (7, 1). `skin` takes layer t of stacks 1…8, left to
# right. The take order only matters for traces: a hand is the set of its tiles.

WALL_METHODS = ("left", "right", "one-by-one", "alternate", "skin", "heart", "ears",
                "dragon-phoenix", "wings", "three-lions")
ROUNDS = "rounds"
METHODS = WALL_METHODS + (ROUNDS,)
METHOD_CHINESE = {"left": "左", "right": "右", "one-by-one": "一棟棟", "alternate": "間棟",
                  "skin": "大片/片皮", "heart": "中掘/挖心", "ears": "切耳", "dragon-phoenix": "龍頭鳳尾",
                  "wings": "雙翼齊飛", "three-lions": "舞三獅", ROUNDS: "輪流取牌"}

# Per taker 1…4: the stacks taken, in take order (RULES.md §6 table; restacked stack on top first).
METHOD_STACKS: dict[str, tuple[tuple[int, int], ...]] = {
    "left": ((1, 2), (3, 4), (5, 6), (7, 8)),
    "right": ((8, 7), (6, 5), (4, 3), (2, 1)),
    "one-by-one": ((1, 5), (2, 6), (3, 7), (4, 8)),
    "alternate": ((1, 3), (2, 4), (5, 7), (6, 8)),
    "heart": ((4, 5), (3, 6), (2, 7), (1, 8)),
    "ears": ((1, 8), (2, 7), (3, 6), (4, 5)),
    "dragon-phoenix": ((7, 1), (8, 2), (3, 4), (5, 6)),
    "wings": ((1, 4), (8, 5), (3, 6), (2, 7)),
    "three-lions": ((6, 1), (7, 3), (8, 5), (2, 4)),
}
WALL_STACKS, WALL_LAYERS, WALL_PLAYERS, WALL_TILES = 8, 4, 4, 8



def wall_takes(method: str) -> tuple[tuple[int, ...], ...]:
    """Wall positions each taker 1…4 receives, in the order they come off (see module notes)."""
    if method == "skin":
        return tuple(tuple(4 * s + layer for s in range(WALL_STACKS)) for layer in range(WALL_LAYERS))
    return tuple(tuple(4 * (s - 1) + layer for s in pair for layer in range(WALL_LAYERS))
                 for pair in METHOD_STACKS[method])


def round_takes(players: int, tiles: int, round_size: int) -> tuple[tuple[int, ...], ...]:
    """Positions of the shuffled order each seat receives under round dealing, in take order."""
    takes: list[list[int]] = [[] for _ in range(players)]
    k = 0
    while k < players * tiles:
        for p in range(players):
            n = min(round_size, tiles - len(takes[p]))
            takes[p].extend(range(k, k + n))
            k += n
    return tuple(tuple(t) for t in takes)


def method_fits(method: str, players: int, tiles: int) -> bool:
    """Whether `method` can deal `players` hands of `tiles` (wall methods need 4 × 8)."""
    return method == ROUNDS or (players == WALL_PLAYERS and tiles == WALL_TILES)


def check_method(method: str, players: int, tiles: int) -> None:
    """Raise TjsimError unless `method` is known and fits the table."""
    from ..errors import TjsimError

    if method not in METHODS:
        raise TjsimError(f"unknown method '{method}' (allowed: {', '.join(METHODS)}, all)")
    if not method_fits(method, players, tiles):
        raise TjsimError(
            f"method '{method}' needs the 8-stack wall, i.e. 4 players × 8 tiles; this table deals "
            f"{players} players × {tiles} tiles: use --method {ROUNDS} (round dealing)")


def methods_for(players: int, tiles: int) -> tuple[str, ...]:
    """The methods `--method all` means for a table: the ten wall methods and rounds, or rounds."""
    return METHODS if method_fits(WALL_METHODS[0], players, tiles) else (ROUNDS,)


def takes_for(method: str, players: int, tiles: int, round_size: int) -> tuple[tuple[int, ...], ...]:
    """Positions per taker for any method (wall takers, or seats for rounds)."""
    check_method(method, players, tiles)
    return round_takes(players, tiles, round_size) if method == ROUNDS else wall_takes(method)


def make_plan(rules, method: str = ROUNDS, shuffle="perfect", from_: str = "box") -> np.ndarray:
    """The int64 dealing plan for `deal`: rules (a RuleSet), method name, shuffle and start order."""
    from ..errors import TjsimError
    from .shuffles import Shuffle, parse_shuffle

    if isinstance(shuffle, str):
        models = parse_shuffle(shuffle)
        if len(models) != 1:
            raise TjsimError(f"a dealing plan takes one shuffle, got '{shuffle}'")
        shuffle = models[0]
    assert isinstance(shuffle, Shuffle)
    if from_ not in FROM_NAMES:
        raise TjsimError(f"unknown start order '{from_}' (allowed: {', '.join(FROM_NAMES)})")
    players, tiles, rnd = rules.players, rules.tiles_per_player, rules.deal_round
    takes = takes_for(method, players, tiles, rnd)
    plan = np.zeros(PLAN_SIZE, dtype=np.int64)
    plan[PLAN_KIND] = KIND_ROUNDS if method == ROUNDS else KIND_WALL
    plan[PLAN_PLAYERS] = players
    plan[PLAN_TILES] = tiles
    plan[PLAN_ROUND] = rnd
    plan[PLAN_SHUFFLE] = shuffle.code
    plan[PLAN_K] = shuffle.k
    plan[PLAN_FROM] = FROM_NAMES.index(from_)
    plan[PLAN_METHOD] = METHODS.index(method)
    plan[PLAN_DEALT] = players * tiles
    plan[PLAN_TAKER:PLAN_TAKER + 32] = -1
    for taker, positions in enumerate(takes):
        for i, pos in enumerate(positions):
            plan[PLAN_TAKER + pos] = taker
            plan[PLAN_SEQ + taker * tiles + i] = pos
    return plan


@njit(cache=True, inline="always")
def wall_first(dice_total, banker):
    """Seat of taker 1: the thrower (opposite the banker) counts 1, the D-th seat takes first."""
    thrower = (banker + 2) % 4
    return (thrower + dice_total - 1) % 4


@njit(cache=True, inline="always")
def hands_from_order(plan, order, first, hands):
    """Give position k's tile to seat (first + taker(k)) mod players; undealt positions to nobody."""
    players = plan[PLAN_PLAYERS]
    for p in range(players):
        hands[p] = 0
    for k in range(32):
        taker = plan[PLAN_TAKER + k]
        if taker >= 0:
            hands[(first + taker) % players] |= np.uint32(1) << np.uint32(order[k])


@njit(cache=True, inline="always")
def deal_for_banker(state, plan, banker, order, hands):
    """Deal one hand per seat by `plan` with `banker` on seat `banker`; returns the 牌頭 dice total (0 for rounds).

    `state` is the deal's STREAM_DEAL stream; the shuffle draws first, then (wall methods)
    the thrower's two dice d1, d2 = 1 + randbelow(6). `order` (int64[32]) must hold the
    previous deal's gathered order when the plan starts from `played`; on return it holds the
    shuffled order (the wall). `hands` is uint32[players].
    """
    kind = plan[PLAN_SHUFFLE]
    if kind == 0 and plan[PLAN_KIND] == KIND_ROUNDS:
        deal_perfect(state, plan[PLAN_PLAYERS], plan[PLAN_TILES], plan[PLAN_ROUND], order, hands)
        return 0
    if kind == 0 or plan[PLAN_FROM] == FROM_BOX:
        for i in range(32):
            order[i] = i
    scratch = np.empty(32, dtype=np.int64)
    apply_shuffle(state, kind, plan[PLAN_K], order, scratch)
    if plan[PLAN_KIND] == KIND_ROUNDS:
        hands_from_order(plan, order, 0, hands)
        return 0
    d1 = 1 + randbelow(state, 6)
    d2 = 1 + randbelow(state, 6)
    hands_from_order(plan, order, wall_first(d1 + d2, banker), hands)
    return d1 + d2


@njit(cache=True)
def deal(state, plan, order, hands):
    """Deal one deal by `plan` (from `make_plan`) with the banker on seat 0; see `deal_for_banker`."""
    return deal_for_banker(state, plan, 0, order, hands)
