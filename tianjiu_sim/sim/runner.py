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

from ..kernels.dealing import deal_for_banker, make_plan, ROUNDS
from .engine import deal_scratch, play_deal
from ..kernels.pipeline import CopyPropagatingCompiler
from ..kernels.layout import MAX_BONUS, MAX_PLAYS, MAX_TRICKS
from ..kernels.tables import pack_params, tables
from ..errors import TjsimError
from ..kernels.layout import STREAM_DEAL, STREAM_DICE, STREAM_PLAY
from ..kernels.rng import seed_stream
from ..game.rules import RuleSet
from ..kernels.layout import R_NCLASSES, R_PLAYERS
from ..strategies.registry import is_search, make_scratch, policy_id
from ..kernels.threads import fetch_add1, run_interruptible, set_threads
from .trace import to_trace


def deal_plan(rules: RuleSet, method: str = ROUNDS, shuffle: str = "perfect") -> np.ndarray:
    """The int64 deal plan of `dealing.make_plan` (default: perfect shuffle, round dealing)."""
    # Each deal starts from the box order: a deal may not depend on the previous one, or
    # results would depend on which thread played which deals.
    return make_plan(rules, method, shuffle, "box")


@njit(cache=True, inline="always")
def deal_hands(st, plan, banker, order, hands32):
    """Deal one deal's hands into hands32 (uint32[players]) as `plan` says — the only dealing hook."""
    deal_for_banker(st, plan, banker, order, hands32)


@njit(cache=True, pipeline_class=CopyPropagatingCompiler)
def _play_worker(next_chunk, n_chunks, seed, streams, idx, plan, orders, given, bankers, streaks, policies,
                 params, tabs, out_pay, out_dong, out_closer, out_bonus, out_folded, counts,
                 out_hands, rec_plays, rec_tricks, rec_bonus, rec_n, search_tabs):
    """One thread's share of `play_rows`: claim chunks of rows from the shared counter and play them
    (next_chunk[0]), until none is left or next_chunk[1] says stop (Ctrl-C: the rows are then unfinished).

    Kept out of the parallel kernel so that numba's parfor passes see a one-line loop body:
    run on the whole inlined engine they cost most of its compile time. Compiled with copy
    propagation (kernels/pipeline.py), the one parfor step the engine needs: without it every
    inlined strategy call costs NRT reference counts (greedy deals 1.7x slower).
    """
    players = params[R_PLAYERS]
    n = out_closer.shape[0]
    per = (n + n_chunks - 1) // n_chunks
    keep_hands = out_hands.shape[0] > 0
    consecutive = idx.shape[0] != n
    # Scratch once per worker: allocation per deal would cost as much as the deal.
    st_deal = np.zeros(4, dtype=np.uint64)
    st_play = np.zeros(4, dtype=np.uint64)
    st_dice = np.zeros(4, dtype=np.uint64)
    order = np.zeros(32, dtype=np.int64)
    hands32 = np.zeros(players, dtype=np.uint32)
    hands0 = np.zeros(players, dtype=np.int64)
    obs, buf, kv, hands, dong, folded, pay, bonus = deal_scratch(players)
    search = make_scratch(search_tabs, players)  # None unless a seat searches
    while True:
        c = fetch_add1(next_chunk, 0)
        if c >= n_chunks or next_chunk[1] != 0:
            break
        cnt = counts[c % counts.shape[0]]
        for i in range(c * per, min(n, (c + 1) * per)):
            if next_chunk[1] != 0:  # one deal at most after Ctrl-C: a searching policy's chunk takes many seconds
                break
            d = idx[0] + i if consecutive else idx[i]
            banker = bankers[i % bankers.shape[0]]
            if given.shape[0] > 0:
                g = i % given.shape[0]
                for s in range(players):
                    hands0[s] = given[g, s]
            else:
                if orders.shape[0] > 0:
                    for t in range(32):
                        order[t] = orders[i, t]
                seed_stream(st_deal, seed, streams[0], d)
                deal_hands(st_deal, plan, banker, order, hands32)
                for s in range(players):
                    hands0[s] = np.int64(hands32[s])
            seed_stream(st_play, seed, streams[1], d)
            seed_stream(st_dice, seed, streams[2], d)
            closer = play_deal(hands0, banker, streaks[i % streaks.shape[0]], policies, i % policies.shape[0],
                               params, tabs, st_play, st_dice, obs, buf, kv, hands, dong, folded, pay, bonus,
                               rec_plays, rec_tricks, rec_bonus, rec_n, i, cnt, search)
            out_closer[i] = closer
            if keep_hands:
                for s in range(players):
                    out_hands[i, s] = hands0[s]
            for s in range(players):
                out_pay[i, s] = pay[s]
                out_dong[i, s] = dong[s]
                out_folded[i, s] = folded[s] != 0
                for t in range(3):
                    out_bonus[i, s, t] = bonus[s, t]


@njit(cache=True, parallel=True, nogil=True)  # nogil: run where Ctrl-C is heard (kernels/threads.py)
def _play_rows(n_chunks, n_workers, seed, streams, idx, plan, orders, given, bankers, streaks, policies,
               params, tabs, out_pay, out_dong, out_closer, out_bonus, out_folded, counts,
               out_hands, rec_plays, rec_tricks, rec_bonus, rec_n, search_tabs, next_chunk):
    """The one compiled play kernel: rows of deals in parallel (see `play_rows`)."""
    # One prange iteration per thread; each takes the next chunk from a shared counter
    # (next_chunk[0], from 0) until none is left. prange alone gives each thread a fixed half of
    # the chunks, so a thread sharing its core with another process held the whole run back.
    # Which thread plays a chunk does not change any result.
    for _w in prange(n_workers):
        _play_worker(next_chunk, n_chunks, seed, streams, idx, plan, orders, given, bankers, streaks, policies,
                     params, tabs, out_pay, out_dong, out_closer, out_bonus, out_folded, counts,
                     out_hands, rec_plays, rec_tricks, rec_bonus, rec_n, search_tabs)


_NONE2 = np.zeros((0, 0), dtype=np.int64)
_NONE3 = np.zeros((0, 0, 0), dtype=np.int64)
_NO_COUNTS = np.zeros((1, 0, 0), dtype=np.int64)
_NO_N = np.zeros((0, 3), dtype=np.int64)
_STREAMS = np.array([STREAM_DEAL, STREAM_PLAY, STREAM_DICE], dtype=np.int64)
# Rows per chunk: at most 256 chunks (work claimed from a shared counter), at least 64 rows each.
_MAX_CHUNKS, _MIN_ROWS = 256, 64


@dataclass
class Rows:
    """Per-row results of `play_rows` (row i = one play of one deal)."""

    payments: np.ndarray  # int32 [rows, players], bonuses included, zero-sum per row
    dong: np.ndarray  # int8 [rows, players]
    closer: np.ndarray  # int8 [rows], -1 for a void deal
    bonus: np.ndarray  # int32 [rows, players, 3]: net per bonus type (engine.BONUS_TYPES)
    folded: np.ndarray  # bool [rows, players]
    class_counts: np.ndarray | None  # int64 [3, classes] (engine.C_*), with count_classes
    hands: np.ndarray | None  # int64 [rows, players]: the hands as dealt, with keep_hands or record
    records: tuple | None  # (plays, tricks, bonus, n) slabs per row, with record
    start: int = 0  # deal index of row 0 where rows are consecutive deals (`run_deals`)


def _rows_of(value, n: int, dtype=np.int64) -> np.ndarray:
    """A per-row int64 array from a scalar (one entry: the same for every row) or a sequence."""
    arr = np.ascontiguousarray(np.atleast_1d(np.asarray(value, dtype=dtype)))
    if arr.shape[0] not in (1, n):
        raise ValueError(f"per-row array has {arr.shape[0]} entries for {n} rows")
    return arr


def play_rows(rules: RuleSet, policies, seed: int, n: int, *, deal_index=0, hands=None, banker=0,
              streak=1, plan: np.ndarray | None = None, orders: np.ndarray | None = None,
              streams: np.ndarray = _STREAMS, record: bool = False, count_classes: bool = False,
              keep_hands: bool = False, threads: int | None = None) -> Rows:
    """Play n rows of deals with the one compiled play kernel; every runner calls this.

    Row i plays deal index `deal_index + i` (an int) or `deal_index[i]` (an array): its hands
    are dealt by `plan` from that index's deal stream (`orders[i]`: the order a `played` plan
    starts from), or taken from `hands` (row i % len(hands)); its decisions and dice come from
    that index's play and dice streams. `banker`, `streak` and `policies` (names one per seat
    or one for all, or an int id array [rows or 1, players]) are the same for every row or one
    per row. Results depend only on these, never on the thread count or the chunking.
    """
    players = rules.players
    if isinstance(policies, np.ndarray) and policies.ndim == 2:
        pol = np.ascontiguousarray(policies, dtype=np.int64)
    else:
        pol = policy_ids(list(policies), players).reshape(1, players)
    idx = _rows_of(deal_index, n)
    given = _given(hands, players)
    if plan is None:
        plan = deal_plan(rules)
    order_rows = _NONE2 if orders is None else np.ascontiguousarray(orders, dtype=np.int64)
    params = pack_params(rules)
    n_chunks = min(_MAX_CHUNKS, max(1, n // _MIN_ROWS))
    counts = np.zeros((n_chunks, 3, int(params[R_NCLASSES])), dtype=np.int64) if count_classes else _NO_COUNTS
    keep = keep_hands or record
    out = Rows(np.zeros((n, players), np.int32), np.zeros((n, players), np.int8), np.zeros(n, np.int8),
               np.zeros((n, players, 3), np.int32), np.zeros((n, players), np.bool_), None,
               np.zeros((n, players), np.int64) if keep else None, None)
    if record:
        rec = (np.zeros((n, MAX_PLAYS, 4), np.int64), np.zeros((n, MAX_TRICKS, 3), np.int64),
               np.zeros((n, MAX_BONUS, 4), np.int64), np.zeros((n, 3), np.int64))
    else:
        rec = (_NONE3, _NONE3, _NONE3, _NO_N)
    if n > 0:
        if threads is not None:
            set_threads(threads)
        ctl = np.zeros(2, dtype=np.int64)  # the chunk counter, and the stop flag Ctrl-C sets

        def stop() -> None:
            ctl[1] = 1

        _, halted = run_interruptible(
            _play_rows, (n_chunks, min(n_chunks, numba.get_num_threads()), np.uint64(seed), streams, idx, plan,
                         order_rows, given, _rows_of(banker, n), _rows_of(streak, n), pol, params, tables(rules),
                         out.payments, out.dong, out.closer, out.bonus, out.folded, counts,
                         out.hands if keep else _NONE2, *rec, _search_tables(rules, pol), ctl), stop)
        if halted:
            raise KeyboardInterrupt  # the rows are unfinished; a results folder keeps its finished chunks
    if count_classes:
        out.class_counts = counts.sum(axis=0)
    if record:
        out.records = rec
    return out


def policy_ids(names: Sequence[str], players: int) -> np.ndarray:
    """Policy names (one per seat, or one for all) as the kernel's id array; unknown names are errors."""
    names = [n.strip() for n in names]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise TjsimError(f"got {len(names)} policies, the table has {players} players "
                         f"(give one per seat, or one for all)")
    ids = []
    for n in names:
        try:
            ids.append(policy_id(n))
        except ValueError as e:
            raise TjsimError(str(e)) from None
    return np.array(ids, dtype=np.int64)


def _search_tables(rules: RuleSet, pol: np.ndarray):
    """The search strategies' tables when some seat searches, else None (no solver compiled)."""
    if not any(is_search(p) for p in np.unique(pol)):
        return None
    from ..strategies.search import search_tables  # importing the solver compiles or loads it
    return search_tables(rules)


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
              method: str = ROUNDS, shuffle: str = "perfect") -> Rows:
    """Play deals start … start+deals-1 (in parallel) and return their per-deal arrays, classes counted."""
    r = play_rows(rules, policies, seed, deals, deal_index=start, hands=hands, banker=banker, streak=streak,
                  plan=deal_plan(rules, method, shuffle), count_classes=True, threads=threads)
    r.start = start
    return r


def simulate_traces(rules: RuleSet, policies: Sequence[str], seed: int, deals: int, hands=None,
                    banker: int = 0, streak: int = 1, start: int = 0, method: str = ROUNDS,
                    shuffle: str = "perfect") -> list[dict]:
    """INTERFACES.md traces of deal indices start … start+deals-1 (or of the given hands)."""
    r = play_rows(rules, policies, seed, deals, deal_index=start, hands=hands, banker=banker, streak=streak,
                  plan=deal_plan(rules, method, shuffle), record=True)
    plays, tricks, bonus, counts = r.records
    given_labels = hands is not None
    return [to_trace(rules, seed, start + i, banker, streak, r.hands[i], r.folded[i], plays[i], tricks[i],
                     bonus[i], counts[i], r.dong[i], int(r.closer[i]), r.payments[i],
                     method=None if given_labels else method, shuffle=None if given_labels else shuffle)
            for i in range(deals)]
