"""Odds of dealt hands in 九支十仔: exact by enumeration, and Monte Carlo with the engine's own dealing.

Exact values count multisets: a hand of m cards takes c_k of the 4 copies of each kind
(C(4, c_k) ways), over C(112, m) hands. Pairs per hand come from a polynomial product over
the 28 kinds; colours by inclusion–exclusion. Monte Carlo deals with `engine.start_deal`,
one stream per deal index (seed, STREAM_DEAL, d), so it is the same dealing the games use.
"""
from __future__ import annotations

from fractions import Fraction
from math import comb

import numba
import numpy as np
from numba import njit, prange

from ..kernels.layout import STREAM_DEAL
from ..kernels.rng import seed_stream
from ..kernels.threads import fetch_add1, set_threads
from ..stats import wilson
from .cards import COPIES, N_COLOURS, N_KINDS, N_RANKS
from .engine import K, O_CONC, STATE_LEN, deal_cards, pack_rules
from .rules import NineCardsRules

# Event columns of the Monte Carlo counters (hand events count 9-card hands, deal events deals).
HAND_EVENTS = ("waiting_on_deal", "pairs_0", "pairs_1", "pairs_2", "pairs_3", "pairs_4",
               "colours_1", "colours_2", "colours_3", "colours_4")
DEAL_EVENTS = ("banker_wins_on_deal", "any_waiting_on_deal")
EVENT_TEXT = {
    "waiting_on_deal": "a 9-card hand is four pairs and a single (聽 on the deal)",
    "banker_wins_on_deal": "the banker's 10 dealt cards are five pairs",
    "any_waiting_on_deal": "some non-banker seat is waiting on the deal",
    **{f"pairs_{k}": f"a 9-card hand holds exactly {k} pairs" for k in range(5)},
    **{f"colours_{k}": f"a 9-card hand has cards of exactly {k} colours" for k in range(1, 5)},
}


def _pair_polynomial(m: int) -> dict[int, int]:
    """Number of m-card hands (as combinations of the 112 cards) by their number of pairs."""
    # poly[cards][pairs] over kinds processed so far
    poly = {(0, 0): 1}
    for _ in range(N_KINDS):
        nxt: dict[tuple[int, int], int] = {}
        for (c, p), w in poly.items():
            for take in range(COPIES + 1):
                if c + take <= m:
                    key = (c + take, p + take // 2)
                    nxt[key] = nxt.get(key, 0) + w * comb(COPIES, take)
        poly = nxt
    return {p: w for (c, p), w in poly.items() if c == m}


def exact_odds(players: int) -> dict[str, Fraction]:
    """Exact probabilities of the events that do not depend on other hands (uniform shuffle)."""
    out: dict[str, Fraction] = {}
    nine = _pair_polynomial(9)
    total9 = comb(112, 9)
    for p in range(5):
        out[f"pairs_{p}"] = Fraction(nine.get(p, 0), total9)
    out["waiting_on_deal"] = out["pairs_4"]  # 9 cards with four pairs leave exactly one single
    ten = _pair_polynomial(10)
    out["banker_wins_on_deal"] = Fraction(ten.get(5, 0), comb(112, 10))
    # hands using cards of exactly j given colours: inclusion–exclusion over subsets
    within = [comb(N_RANKS * COPIES * j, 9) for j in range(N_COLOURS + 1)]
    for c in range(1, N_COLOURS + 1):
        exactly = sum((-1) ** (c - j) * comb(c, j) * within[j] for j in range(c + 1))
        out[f"colours_{c}"] = Fraction(comb(N_COLOURS, c) * exactly, total9)
    return out


@njit(cache=True, parallel=True)
def _mc_kernel(seed, deals, n_chunks, n_workers, prm, counts):
    n = prm[0]
    per = (deals + n_chunks - 1) // n_chunks
    next_chunk = np.zeros(1, dtype=np.int64)
    for _w in prange(n_workers):
        prm_l = prm.copy()  # worker-local: no shared reference count in the loop (runner.py)
        S = np.zeros(STATE_LEN, dtype=np.int64)
        st = np.zeros(4, dtype=np.uint64)
        while True:
            c = fetch_add1(next_chunk, 0)
            if c >= n_chunks:
                break
            for d in range(c * per, min(deals, (c + 1) * per)):
                seed_stream(st, seed, STREAM_DEAL, d)
                deal_cards(S, prm_l, 0, st)
                pairs0 = 0
                for k in range(K):
                    pairs0 += S[O_CONC + k] >> 1
                if pairs0 == 5:
                    counts[c, 10] += 1
                any_wait = 0
                for s in range(1, n):
                    pairs = 0
                    cmask = 0
                    for k in range(K):
                        v = S[O_CONC + s * K + k]
                        pairs += v >> 1
                        if v > 0:
                            cmask |= 1 << (k // N_RANKS)
                    counts[c, 1 + pairs] += 1
                    if pairs == 4:
                        counts[c, 0] += 1
                        any_wait = 1
                    ncol = 0
                    for j in range(4):
                        ncol += (cmask >> j) & 1
                    counts[c, 5 + ncol] += 1
                counts[c, 11] += any_wait


def monte_carlo(rules: NineCardsRules, deals: int, seed: int, threads: int | None = None) -> dict[str, int]:
    """Hits of every event in `deals` dealt deals (hand events over deals × (players − 1) hands)."""
    set_threads(threads)
    n_chunks = max(1, min(1024, deals // 5000))
    counts = np.zeros((n_chunks, len(HAND_EVENTS) + len(DEAL_EVENTS)), dtype=np.int64)
    if deals:
        _mc_kernel(np.uint64(seed), deals, n_chunks, min(n_chunks, numba.get_num_threads()),
                   pack_rules(rules), counts)
    tot = counts.sum(axis=0)
    return dict(zip(HAND_EVENTS + DEAL_EVENTS, (int(x) for x in tot)))


def odds_rows(rules: NineCardsRules, deals: int, seed: int, threads: int | None = None) -> list[dict]:
    """The deal-odds rows (INTERFACES.md `nine-cards deal-odds` columns), Monte Carlo beside exact."""
    hits = monte_carlo(rules, deals, seed, threads)
    exact = exact_odds(rules.players)
    rows = []
    for ev in HAND_EVENTS + DEAL_EVENTS:
        unit = "hand" if ev in HAND_EVENTS else "deal"
        trials = deals * (rules.players - 1) if unit == "hand" else deals
        lo, hi = wilson(hits[ev], trials)
        ex = exact.get(ev)
        rows.append({"event": ev, "unit": unit, "players": rules.players, "trials": trials, "hits": hits[ev],
                     "probability": hits[ev] / trials if trials else float("nan"), "ci_low": lo, "ci_high": hi,
                     "exact": float(ex) if ex is not None else None, "meaning": EVENT_TEXT[ev]})
    return rows
