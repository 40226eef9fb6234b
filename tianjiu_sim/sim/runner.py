"""Run many deals in parallel (numba prange over deal indices) and collect per-deal arrays.

Each deal's randomness comes only from (seed, deal index) through the three streams of
docs/CONTRACTS.md, so results do not depend on the thread count. Dealing is one call,
`deal_hands`, driven by a small int64 "deal plan" array, so other dealing methods can be
swapped in there without touching the kernels.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numba
import numpy as np
from numba import njit, prange

from ..kernels.dealing import ROUNDS, deal_for_banker, make_plan
from ..kernels.engine import (
    MAX_BONUS, MAX_PLAYS, MAX_TRICKS, pack_params, deal_scratch, play_deal, tables,
)
from ..errors import TjsimError
from ..kernels.rng import STREAM_DEAL, STREAM_DICE, STREAM_PLAY, seed_stream
from ..game.rules import RuleSet
from ..strategies.bots import POLICIES, R_NCLASSES, R_PLAYERS
from ..kernels.threads import fetch_add1, set_threads


def deal_plan(rules: RuleSet, method: str = ROUNDS, shuffle: str = "perfect") -> np.ndarray:
    """The int64 deal plan of `dealing.make_plan` (default: perfect shuffle, round dealing)."""
    # Each deal starts from the box order: a deal may not depend on the previous one, or
    # results would depend on which thread played which deals.
    return make_plan(rules, method, shuffle, "box")


@njit(cache=True, inline="always")
def deal_hands(st, plan, banker, order, hands32):
    """Deal one deal's hands into hands32 (uint32[players]) as `plan` says — the only dealing hook."""
    deal_for_banker(st, plan, banker, order, hands32)


@njit(cache=True, parallel=True)
def _run(seed, start, n, n_chunks, n_workers, plan, given, banker, streak, policies, params, tabs,
         out_pay, out_dong, out_closer, out_bonus, out_folded, counts,
         out_hands, rec_plays, rec_tricks, rec_bonus, rec_n):
    """Play deals start … start+n-1 into rows 0 … n-1 of the outputs, chunks in parallel.

    Record arrays with slabs (one per deal) turn on trace recording; `out_hands` with rows
    receives the hands as dealt. Both runners use this one kernel, so it compiles once.
    """
    players = params[R_PLAYERS]
    per = (n + n_chunks - 1) // n_chunks
    record = rec_plays.shape[0] > 0
    # One prange iteration per thread; each takes the next chunk from a shared counter until
    # none is left. prange alone gives each thread a fixed half of the chunks, so a thread
    # sharing its core with another process held the whole run back (2 threads were then no
    # faster than 1). Which thread plays a chunk does not change any result.
    next_chunk = np.zeros(1, dtype=np.int64)
    for _w in prange(n_workers):
        # Scratch once per worker: allocation per deal would cost as much as the deal.
        st_deal = np.zeros(4, dtype=np.uint64)
        st_play = np.zeros(4, dtype=np.uint64)
        st_dice = np.zeros(4, dtype=np.uint64)
        order = np.zeros(32, dtype=np.int64)
        hands32 = np.zeros(players, dtype=np.uint32)
        hands0 = np.zeros(players, dtype=np.int64)
        obs, buf, kv, hands, dong, folded, pay, bonus = deal_scratch(players)
        while True:
            c = fetch_add1(next_chunk, 0)
            if c >= n_chunks:
                break
            cnt = counts[c]
            lo = c * per
            hi = min(n, lo + per)
            for i in range(lo, hi):
                d = start + i
                if given.shape[0] > 0:
                    g = i % given.shape[0]
                    for s in range(players):
                        hands0[s] = given[g, s]
                else:
                    seed_stream(st_deal, seed, STREAM_DEAL, d)
                    deal_hands(st_deal, plan, banker, order, hands32)
                    for s in range(players):
                        hands0[s] = np.int64(hands32[s])
                seed_stream(st_play, seed, STREAM_PLAY, d)
                seed_stream(st_dice, seed, STREAM_DICE, d)
                closer = play_deal(hands0, banker, streak, policies, params, tabs, st_play, st_dice,
                                   obs, buf, kv, hands, dong, folded, pay, bonus,
                                   rec_plays, rec_tricks, rec_bonus, rec_n, i, cnt)
                out_closer[i] = closer
                if record:
                    for s in range(players):
                        out_hands[i, s] = hands0[s]
                for s in range(players):
                    out_pay[i, s] = pay[s]
                    out_dong[i, s] = dong[s]
                    out_folded[i, s] = folded[s] != 0
                    for t in range(3):
                        out_bonus[i, s, t] = bonus[s, t]


_NO_HANDS = np.zeros((0, 0), dtype=np.int64)
_NO_PLAYS = np.zeros((0, 0, 4), dtype=np.int64)
_NO_TRICKS = np.zeros((0, 0, 3), dtype=np.int64)
_NO_BONUS = np.zeros((0, 0, 4), dtype=np.int64)
_NO_N = np.zeros((0, 3), dtype=np.int64)


@dataclass
class DealResults:
    """Per-deal arrays of a run (deal i of the arrays is deal index start + i)."""

    payments: np.ndarray  # int32 [deals, players], bonuses included, zero-sum per deal
    dong: np.ndarray  # int8 [deals, players]
    closer: np.ndarray  # int8 [deals], -1 for a void deal
    bonus: np.ndarray  # int32 [deals, players, 3]: net per bonus type (engine.BONUS_TYPES)
    folded: np.ndarray  # bool [deals, players]
    class_counts: np.ndarray  # int64 [3, classes]: led, beat with, beaten (engine.C_*)
    start: int = 0


def policy_ids(names: Sequence[str], players: int) -> np.ndarray:
    """Policy names (one per seat, or one for all) as the kernel's id array; unknown names are errors."""
    names = [n.strip() for n in names]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise TjsimError(f"got {len(names)} policies, the table has {players} players "
                         f"(give one per seat, or one for all)")
    for n in names:
        if n not in POLICIES:
            raise TjsimError(f"unknown strategy '{n}' (allowed: {', '.join(POLICIES)})")
    return np.array([POLICIES[n] for n in names], dtype=np.int64)


def _given(hands, players: int) -> np.ndarray:
    if hands is None:
        return np.zeros((0, players), dtype=np.int64)
    arr = np.asarray(hands, dtype=np.int64)
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.shape[1] != players:
        raise TjsimError(f"the deal has {arr.shape[1]} hands, the table has {players} players")
    return np.ascontiguousarray(arr)


def run_deals(rules: RuleSet, policies: Sequence[str], seed: int, deals: int, start: int = 0,
              banker: int = 0, streak: int = 1, threads: int | None = None, hands=None,
              method: str = ROUNDS, shuffle: str = "perfect") -> DealResults:
    """Play deals start … start+deals-1 (in parallel) and return their per-deal arrays."""
    players = rules.players
    pol = policy_ids(policies, players)
    params = pack_params(rules)
    tabs = tables(rules)
    given = _given(hands, players)
    plan = deal_plan(rules, method, shuffle)
    if threads is not None:
        set_threads(threads)
    n_chunks = max(1, min(256, deals // 1000))
    pay = np.zeros((deals, players), dtype=np.int32)
    dong = np.zeros((deals, players), dtype=np.int8)
    closer = np.zeros(deals, dtype=np.int8)
    bonus = np.zeros((deals, players, 3), dtype=np.int32)
    folded = np.zeros((deals, players), dtype=np.bool_)
    n_cls = int(params[R_NCLASSES])
    counts = np.zeros((n_chunks, 3, n_cls), dtype=np.int64)
    if deals > 0:
        _run(np.uint64(seed), start, deals, n_chunks, min(n_chunks, numba.get_num_threads()), plan, given, banker, streak, pol, params, tabs,
             pay, dong, closer, bonus, folded, counts, _NO_HANDS, _NO_PLAYS, _NO_TRICKS, _NO_BONUS, _NO_N)
    return DealResults(pay, dong, closer, bonus, folded, counts.sum(axis=0), start)


def simulate_traces(rules: RuleSet, policies: Sequence[str], seed: int, deals: int, hands=None,
                    banker: int = 0, streak: int = 1, start: int = 0, method: str = ROUNDS,
                    shuffle: str = "perfect") -> list[dict]:
    """INTERFACES.md traces of deal indices start … start+deals-1 (or of the given hands)."""
    from .trace import to_trace

    players = rules.players
    pol = policy_ids(policies, players)
    params = pack_params(rules)
    tabs = tables(rules)
    given = _given(hands, players)
    n = deals
    out_hands = np.zeros((n, players), dtype=np.int64)
    out_pay = np.zeros((n, players), dtype=np.int32)
    out_dong = np.zeros((n, players), dtype=np.int8)
    out_closer = np.zeros(n, dtype=np.int8)
    out_bonus = np.zeros((n, players, 3), dtype=np.int32)
    out_folded = np.zeros((n, players), dtype=np.bool_)
    counts = np.zeros((1, 0, 0), dtype=np.int64)
    rec_plays = np.zeros((n, MAX_PLAYS, 4), dtype=np.int64)
    rec_tricks = np.zeros((n, MAX_TRICKS, 3), dtype=np.int64)
    rec_bonus = np.zeros((n, MAX_BONUS, 4), dtype=np.int64)
    rec_n = np.zeros((n, 3), dtype=np.int64)
    if n > 0:
        _run(np.uint64(seed), start, n, 1, 1, deal_plan(rules, method, shuffle), given, banker, streak,
             pol, params, tabs, out_pay, out_dong, out_closer, out_bonus, out_folded, counts,
             out_hands, rec_plays, rec_tricks, rec_bonus, rec_n)
    given_labels = hands is not None
    return [to_trace(rules, seed, start + i, banker, streak, out_hands[i], out_folded[i], rec_plays[i],
                     rec_tricks[i], rec_bonus[i], rec_n[i], out_dong[i], int(out_closer[i]), out_pay[i],
                     method=None if given_labels else method, shuffle=None if given_labels else shuffle)
            for i in range(n)]
