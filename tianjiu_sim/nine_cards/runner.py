"""Play many deals of 九支十仔 in parallel, and sessions (the winner becomes the next banker).

One kernel (`_run`) serves simulation, duplicate replays, sessions and traces: row r plays deal
index idx[r] with policies pol[r % len(pol)]. Each deal draws its cards from its own stream
(seed, STREAM_DEAL, deal index) and its decisions from (seed, STREAM_PLAY, deal index), so
no result depends on the thread count or on which replay of a deal it is. Rows form sessions
of `session` consecutive deals: a session's first deal has banker `banker`, each later deal
the previous one's next banker (RULES.md §9.2). Threads claim chunks of sessions from a
shared counter (kernels.threads.fetch_add1), as the Tien Gow runner does.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numba
import numpy as np
from numba import njit, prange

from ..errors import TjsimError
from ..kernels.layout import STREAM_DEAL, STREAM_PLAY
from ..kernels.rng import seed_stream
from ..kernels.threads import fetch_add1, set_threads
from .engine import (
    K, MAX_EVENTS, O_BANKER, O_COLOURS, O_CONC, O_FLIPPTS, O_KZ, O_KZWAIT, O_NREC, O_PAY, O_TOU, O_TURNS,
    O_WINNER, O_WINTYPE, O_PAYER, STATE_LEN, advance, discard, next_banker, pack_rules, start_deal,
)
from .rules import NineCardsRules
from .strategies import OBS_LEN, POLICIES, choose, strategy_params


@njit(cache=True)
def play_deal(S, prm, sp, pol, banker, st_deal, st_play, obs, rec):
    """Deal and play one whole deal in S: `pol[s]` decides seat s's discards."""
    start_deal(S, prm, banker, st_deal, rec)
    while True:
        s = advance(S, prm, st_deal, rec)
        if s < 0:
            return
        discard(S, s, choose(S, s, pol[s], prm, sp, st_play, obs), rec)


@njit(cache=True, parallel=True)
def _run(seed, idx, pol, session, banker0, prm, sp, n_chunks, n_workers,
         out_pay, out_res, out_kz, out_hands, rec, rec_n):
    """Play rows 0…len(idx)−1 (sessions of `session` rows) into the outputs, chunks in parallel.

    out_res[r] = (banker, winner, win type, payer, 頭, colours, flip points, 開招 wait, turns);
    out_hands and rec with rows turn on recording (hands as dealt, event rows).
    """
    rows = idx.shape[0]
    n = prm[0]
    n_sessions = rows // session
    per = (n_sessions + n_chunks - 1) // n_chunks
    recording = rec.shape[0] > 0
    next_chunk = np.zeros(1, dtype=np.int64)
    for _w in prange(n_workers):
        # Worker-local copies of the shared inputs: every call passing an array touches its
        # reference count atomically, and on an array shared by the threads that cache line
        # bounced between the cores (two threads ran slower than one).
        prm_l = prm.copy()
        sp_l = sp.copy()
        pol_l = np.zeros(n, dtype=np.int64)
        S = np.zeros(STATE_LEN, dtype=np.int64)
        obs = np.zeros(OBS_LEN, dtype=np.int64)
        st_deal = np.zeros(4, dtype=np.uint64)
        st_play = np.zeros(4, dtype=np.uint64)
        no_rec = np.zeros((0, 3), dtype=np.int64)
        while True:
            c = fetch_add1(next_chunk, 0)
            if c >= n_chunks:
                break
            for ses in range(c * per, min(n_sessions, (c + 1) * per)):
                banker = banker0
                for j in range(session):
                    r = ses * session + j
                    d = idx[r]
                    for s in range(n):
                        pol_l[s] = pol[r % pol.shape[0], s]
                    seed_stream(st_deal, seed, STREAM_DEAL, d)
                    seed_stream(st_play, seed, STREAM_PLAY, d)
                    if recording:
                        # deal once without playing to keep the hands as dealt
                        start_deal(S, prm_l, banker, st_deal, no_rec)
                        for s in range(n):
                            lo = np.uint64(0)
                            hi = np.uint64(0)
                            for k in range(K):
                                v = np.uint64(S[O_CONC + s * K + k])
                                if k < 14:
                                    lo |= v << np.uint64(4 * k)
                                else:
                                    hi |= v << np.uint64(4 * (k - 14))
                            out_hands[r, s, 0] = lo
                            out_hands[r, s, 1] = hi
                        seed_stream(st_deal, seed, STREAM_DEAL, d)
                        play_deal(S, prm_l, sp_l, pol_l, banker, st_deal, st_play, obs, rec[r])
                        rec_n[r] = S[O_NREC]
                    else:
                        play_deal(S, prm_l, sp_l, pol_l, banker, st_deal, st_play, obs, no_rec)
                    for s in range(n):
                        out_pay[r, s] = S[O_PAY + s]
                        out_kz[r, s] = S[O_KZ + s]
                    out_res[r, 0] = S[O_BANKER]
                    out_res[r, 1] = S[O_WINNER]
                    out_res[r, 2] = S[O_WINTYPE]
                    out_res[r, 3] = S[O_PAYER]
                    out_res[r, 4] = S[O_TOU]
                    out_res[r, 5] = S[O_COLOURS]
                    out_res[r, 6] = S[O_FLIPPTS]
                    out_res[r, 7] = S[O_KZWAIT]
                    out_res[r, 8] = S[O_TURNS]
                    banker = next_banker(S)


RES_COLUMNS = ("banker", "winner", "win_type", "payer", "tou", "colours", "flip_points", "kaizhao_wait", "turns")


@dataclass
class NineResults:
    """Per-deal arrays of a run (row r = one deal played)."""

    idx: np.ndarray  # int64 [rows] deal index
    payments: np.ndarray  # int32 [rows, players] in 頭, zero-sum
    res: np.ndarray  # int32 [rows, 9] (RES_COLUMNS); winner −1 = drawn (流局)
    kaizhao: np.ndarray  # int8 [rows, players] 開招 made during the deal
    hands: np.ndarray | None = None  # uint64 [rows, players, 2] hands as dealt (cards.pack_words)
    rec: np.ndarray | None = None  # int64 [rows, MAX_EVENTS, 3]
    rec_n: np.ndarray | None = None

    def col(self, name: str) -> np.ndarray:
        """One column of `res` by name."""
        return self.res[:, RES_COLUMNS.index(name)]


def policy_ids(names: Sequence[str], players: int) -> np.ndarray:
    """Strategy names (one per seat, or one for all) as the kernel's ids; unknown names are errors."""
    seats = [n.strip() for n in names]
    seats = seats * players if len(seats) == 1 else seats
    if len(seats) != players:
        raise TjsimError(f"got {len(seats)} strategies for a table of {players} (one per seat, or one for all)")
    bad = [n for n in seats if n not in POLICIES]
    if bad:
        raise TjsimError(f"unknown strategy '{bad[0]}' (allowed: {', '.join(POLICIES)})")
    return np.array([POLICIES[n] for n in seats], dtype=np.int64)


def run_rows(rules: NineCardsRules, pol: np.ndarray, seed: int, idx: np.ndarray, session: int = 1,
             banker: int = 0, threads: int | None = None, record: bool = False,
             sp: np.ndarray | None = None) -> NineResults:
    """Play deal indices `idx` (sessions of `session` consecutive rows); pol is [rows or 1, players] ids."""
    n = rules.players
    idx = np.ascontiguousarray(idx, dtype=np.int64)
    rows = idx.shape[0]
    if rows % session:
        raise TjsimError(f"{rows} deals do not split into sessions of {session}")
    if not 0 <= banker < n:
        raise TjsimError(f"--banker must be a seat 0 to {n - 1}, got {banker}")
    pol = np.ascontiguousarray(np.atleast_2d(pol), dtype=np.int64)
    sp = strategy_params() if sp is None else sp
    set_threads(threads)
    n_sessions = rows // session
    n_chunks = max(1, min(1024, n_sessions // max(1, 2000 // session)))
    out = NineResults(idx, np.zeros((rows, n), np.int32), np.zeros((rows, len(RES_COLUMNS)), np.int32),
                      np.zeros((rows, n), np.int8))
    hands = np.zeros((rows if record else 0, n, 2), np.uint64)
    rec = np.zeros((rows if record else 0, MAX_EVENTS, 3), np.int64)
    rec_n = np.zeros(rows if record else 0, np.int64)
    if rows:
        _run(np.uint64(seed), idx, pol, session, banker, pack_rules(rules), sp, n_chunks,
             min(n_chunks, numba.get_num_threads()), out.payments, out.res, out.kaizhao, hands, rec, rec_n)
    if record:
        out.hands, out.rec, out.rec_n = hands, rec, rec_n
    return out


def run_deals(rules: NineCardsRules, policies: Sequence[str], seed: int, deals: int, start: int = 0,
              session: int = 1, banker: int = 0, threads: int | None = None, record: bool = False,
              sp: np.ndarray | None = None) -> NineResults:
    """Play deal indices start … start+deals−1 with one policy per seat (or one for all)."""
    pol = policy_ids(policies, rules.players)[None, :]
    return run_rows(rules, pol, seed, np.arange(start, start + deals), session, banker, threads, record, sp)
