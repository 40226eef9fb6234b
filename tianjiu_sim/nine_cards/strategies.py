"""Strategies of 九支十仔: which card to discard, from what the seat can see (RULES.md §9).

The only choice in the game is the discard after eating (and the banker's first); eating,
dead cards and wins are forced. A strategy sees an observation: its own concealed cards,
what is face up (pairs laid, dead cards, discards), the stock size and its seat — built by
`observe`. `lookahead` plays the deal out in simulation from worlds built by `sample_world`,
which keeps what the seat can see and deals everything it cannot see (the other seats'
concealed cards and the stock) at random: it never uses the real hidden cards.

Policies: `random` (uniform among the legal discards), `greedy` (the single with the fewest
live copies), `heuristic` (cut colours, 斷色; keep 開招 chances; at the wait, the single worth
most), `lookahead` (each discard scored by simulation: expected 頭 and P(win)).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.layout import STREAM_NINE_ROLLOUT, STREAM_NINE_WORLD
from ..kernels.rng import next_u64, randbelow, seed_stream
from .cards import COPIES, N_CARDS, N_RANKS
from .engine import (
    K, O_CONC, O_DEAD, O_DECK, O_MELD, O_N, O_PAY, O_POS, O_PUB, O_WINNER, R_CP1, R_DISCARD_PAIRS,
    R_KZ_WAIT, STATE_LEN, advance, discard, update_wait,
)

POLICIES = {"random": 0, "greedy": 1, "heuristic": 2, "lookahead": 3}
P_RANDOM, P_GREEDY, P_HEURISTIC, P_LOOKAHEAD = 0, 1, 2, 3

# --- strategy parameters (int64 array) ---
SP_WORLDS, SP_ROLLOUT, SP_H_LIVE, SP_H_COLOUR, SP_H_TRIPLE, SP_MARGIN = range(6)
N_STRATEGY_PARAMS = 6
DEFAULT_WORLDS = 32
# Random streams of the lookahead's worlds and play-outs, seeded from a draw of the deal's play
# stream (numbers in kernels/layout.STREAMS).
STREAM_WORLD, STREAM_ROLLOUT = STREAM_NINE_WORLD, STREAM_NINE_ROLLOUT

# --- observation layout (int64) ---
OB_CONC = 0          # [28] own concealed cards
OB_SEEN = OB_CONC + K  # [28] cards of each kind the seat can see: its own and everything face up
OB_OWN = OB_SEEN + K  # [28] own cards: concealed + dead + pairs laid
OB_STOCK = OB_OWN + K
OB_SEAT = OB_STOCK + 1
OB_PLAYERS = OB_SEAT + 1
OB_SPLIT = OB_PLAYERS + 1  # 1: a card of a pair may be discarded
OBS_LEN = OB_SPLIT + 1


def strategy_params(worlds: int = DEFAULT_WORLDS, rollout: str = "heuristic", h_live: int = 3,
                    h_colour: int = 1, h_triple: int = 4, margin: float = 2.0) -> np.ndarray:
    """The strategies' int64 parameter array (lookahead worlds and play-out policy, heuristic weights)."""
    p = np.zeros(N_STRATEGY_PARAMS, dtype=np.int64)
    p[SP_WORLDS] = worlds
    p[SP_ROLLOUT] = POLICIES[rollout]
    p[SP_H_LIVE] = h_live
    p[SP_H_COLOUR] = h_colour
    p[SP_H_TRIPLE] = h_triple
    p[SP_MARGIN] = round(100 * margin)
    return p


@njit(cache=True)
def observe(S, prm, seat, obs):
    """Fill `obs` with what `seat` can see (its own cards, everything face up, the stock size)."""
    b = seat * K
    for k in range(K):
        c = S[O_CONC + b + k]
        obs[OB_CONC + k] = c
        obs[OB_SEEN + k] = c + S[O_PUB + k]
        obs[OB_OWN + k] = c + S[O_DEAD + b + k] + 2 * S[O_MELD + b + k]
    obs[OB_STOCK] = N_CARDS - S[O_POS]
    obs[OB_SEAT] = seat
    obs[OB_PLAYERS] = S[O_N]
    obs[OB_SPLIT] = prm[R_DISCARD_PAIRS]


@njit(cache=True, inline="always")
def legal(obs, k):
    """Whether discarding kind k is allowed: a single (an odd count), or any card if pairs may be split."""
    c = obs[OB_CONC + k]
    return (c & 1) == 1 or (c > 0 and obs[OB_SPLIT] != 0)


@njit(cache=True)
def choose_random(obs, st):
    """A uniform pick among the legal discards (in kind order)."""
    n = 0
    for k in range(K):
        if legal(obs, k):
            n += 1
    r = randbelow(st, n)
    for k in range(K):
        if legal(obs, k):
            if r == 0:
                return k
            r -= 1
    return -1


@njit(cache=True)
def choose_greedy(obs):
    """The legal discard with the fewest live (unseen) copies; ties: the lowest kind."""
    best = -1
    best_live = 99
    for k in range(K):
        if legal(obs, k):
            live = COPIES - obs[OB_SEEN + k]
            if live < best_live:
                best_live = live
                best = k
    return best


@njit(cache=True)
def choose_heuristic(obs, prm, sp):
    """斷色: discard the single least worth keeping; at the wait keep the single worth most.

    Before the wait a single's keep value is h_live·(live copies) + h_colour·(own cards of its
    colour) + h_triple if it is the single of a triple (a 開招 chance). When the discard leaves
    four pairs and one single, the kept single is the one with the largest live copies × 頭
    of the win (colours of the five pairs, +開招 wait bonus). Integer scores; ties: lowest kind.
    """
    pairs = 0
    pcol = 0
    colcards = np.zeros(4, dtype=np.int64)
    nsingles = 0
    for k in range(K):
        own = obs[OB_OWN + k]
        colcards[k // N_RANKS] += own
        # at a decision the seat has no dead cards, so own = concealed + 2 × pairs laid
        pairs += own >> 1
        if own >= 2:
            pcol |= 1 << (k // N_RANKS)
        if obs[OB_CONC + k] & 1:
            nsingles += 1
    best = -1
    if pairs == 4 and nsingles == 2 and obs[OB_SPLIT] == 0:
        best_v = -1
        for k in range(K):
            if obs[OB_CONC + k] & 1:
                # value of discarding k = value of waiting on the other single
                for y in range(K):
                    if y != k and (obs[OB_CONC + y] & 1):
                        m = pcol | (1 << (y // N_RANKS))
                        nc = 0
                        for c in range(4):
                            nc += (m >> c) & 1
                        tou = prm[R_CP1 + nc - 1] + 1
                        if obs[OB_CONC + y] == 3:
                            tou += prm[R_KZ_WAIT]
                        v = (COPIES - obs[OB_SEEN + y]) * tou
                        if v > best_v:
                            best_v = v
                            best = k
        return best
    best_v = 1 << 40
    for k in range(K):
        if legal(obs, k):
            live = COPIES - obs[OB_SEEN + k]
            v = sp[SP_H_LIVE] * live + sp[SP_H_COLOUR] * colcards[k // N_RANKS]
            if obs[OB_CONC + k] == 3 and live > 0:
                v += sp[SP_H_TRIPLE]
            if obs[OB_CONC + k] >= 2 and (obs[OB_CONC + k] & 1) == 0:
                v += 1000  # splitting a pair (only where allowed): last resort
            if v < best_v:
                best_v = v
                best = k
    return best


@njit(cache=True)
def choose_simple(obs, policy, prm, sp, st):
    """The discard of a policy that needs only the observation (random, greedy, heuristic)."""
    if policy == P_RANDOM:
        return choose_random(obs, st)
    if policy == P_GREEDY:
        return choose_greedy(obs)
    return choose_heuristic(obs, prm, sp)


@njit(cache=True)
def sample_world(S, seat, W, st, pool):
    """W := a world consistent with what `seat` sees in S; the unseen cards dealt at random.

    Copies S, then overwrites everything the seat cannot see: the other seats' concealed
    cards and the stock are redealt from the unseen cards (4 − own concealed − face up, per
    kind), keeping each hand's size; the drawn part of the pack is blanked.
    """
    W[:] = S
    n = S[O_N]
    u = 0
    for k in range(K):
        for _ in range(COPIES - S[O_CONC + seat * K + k] - S[O_PUB + k]):
            pool[u] = k
            u += 1
    j = 0
    for s in range(n):
        if s == seat:
            continue
        size = 0
        for k in range(K):
            size += S[O_CONC + s * K + k]
            W[O_CONC + s * K + k] = 0
        for _ in range(size):
            r = j + randbelow(st, u - j)
            c = pool[r]
            pool[r] = pool[j]
            pool[j] = c
            W[O_CONC + s * K + c] += 1
            j += 1
    # Every kind that has been shown is held in even numbers by every seat: a seat holding an
    # odd number when it was shown ate it or laid a single dead, and concealed counts never
    # rise. A dealt hand breaking this swaps the odd card with a random stock card that keeps
    # the parity (an approximation of the conditional deal, not rejection sampling).
    for s in range(n):
        if s == seat:
            continue
        for k in range(K):
            if S[O_PUB + k] > 0 and (W[O_CONC + s * K + k] & 1) and u > j:
                for _ in range(16):
                    r = j + randbelow(st, u - j)
                    c = pool[r]
                    if c != k and (S[O_PUB + c] == 0 or (W[O_CONC + s * K + c] & 1)):
                        pool[r] = k
                        W[O_CONC + s * K + k] -= 1
                        W[O_CONC + s * K + c] += 1
                        break
    pos = S[O_POS]
    for i in range(pos):
        W[O_DECK + i] = -1
    for i in range(j, u):
        W[O_DECK + pos + i - j] = pool[i]
    for s in range(n):
        if s != seat:
            update_wait(W, s)


@njit(cache=True)
def playout(W, prm, sp, st, obs, rec):
    """Play the deal in W to its end, every seat with the play-out policy (strategy parameter)."""
    pol = sp[SP_ROLLOUT]
    while True:
        s = advance(W, prm, st, rec)
        if s < 0:
            return
        observe(W, prm, s, obs)
        discard(W, s, choose_simple(obs, pol, prm, sp, st), rec)


@njit(cache=True)
def evaluate_discards(S, seat, prm, sp, st, out, vals):
    """vals[w, k] = seat's 頭 in world w after discarding k (NaN if illegal); out[k] = (plays, wins, Σ, Σ²).

    Every discard is played out in the same sp[SP_WORLDS] worlds with the same random streams
    (common random numbers), so their differences are estimated with less noise than their levels.
    """
    out[:, :] = 0.0
    vals[:, :] = np.nan
    obs = np.zeros(OBS_LEN, dtype=np.int64)
    obs2 = np.zeros(OBS_LEN, dtype=np.int64)
    observe(S, prm, seat, obs)
    W = np.zeros(STATE_LEN, dtype=np.int64)
    W2 = np.zeros(STATE_LEN, dtype=np.int64)
    pool = np.zeros(N_CARDS, dtype=np.int64)
    stw = np.zeros(4, dtype=np.uint64)
    rec = np.zeros((0, 3), dtype=np.int64)
    base = next_u64(st)
    for w in range(sp[SP_WORLDS]):
        seed_stream(stw, base, STREAM_WORLD, w)
        sample_world(S, seat, W, stw, pool)
        for k in range(K):
            if not legal(obs, k):
                continue
            W2[:] = W
            seed_stream(stw, base, STREAM_ROLLOUT, w)
            discard(W2, seat, k, rec)
            playout(W2, prm, sp, stw, obs2, rec)
            v = float(W2[O_PAY + seat])
            vals[w, k] = v
            out[k, 0] += 1.0
            out[k, 1] += 1.0 if W2[O_WINNER] == seat else 0.0
            out[k, 2] += v
            out[k, 3] += v * v


@njit(cache=True)
def choose_lookahead(S, seat, prm, sp, st, obs):
    """The simulated best discard, if it beats the play-out policy's own choice by a clear margin.

    Each discard's expected 頭 is estimated over the worlds; the policy keeps the play-out
    policy's discard unless another's paired mean advantage exceeds SP_MARGIN/100 standard
    errors (noise in a few dozen play-outs would otherwise pick worse discards often).
    """
    nw = sp[SP_WORLDS]
    out = np.zeros((K, 4))
    vals = np.zeros((nw, K))
    evaluate_discards(S, seat, prm, sp, st, out, vals)
    observe(S, prm, seat, obs)
    base = choose_simple(obs, sp[SP_ROLLOUT], prm, sp, st)
    best = base
    best_gain = 0.0
    for k in range(K):
        if out[k, 0] == 0 or k == base:
            continue
        s1 = 0.0
        s2 = 0.0
        for w in range(nw):
            d = vals[w, k] - vals[w, base]
            s1 += d
            s2 += d * d
        mean = s1 / nw
        var = (s2 - nw * mean * mean) / (nw - 1) if nw > 1 else 0.0
        se = np.sqrt(max(var, 0.0) / nw)
        if mean > best_gain and mean > sp[SP_MARGIN] / 100.0 * se:
            best_gain = mean
            best = k
    return best


@njit(cache=True)
def choose(S, seat, policy, prm, sp, st, obs):
    """The discard of seat `seat` under `policy` (the engine's state is read through observations only)."""
    if policy == P_LOOKAHEAD:
        return choose_lookahead(S, seat, prm, sp, st, obs)
    observe(S, prm, seat, obs)
    return choose_simple(obs, policy, prm, sp, st)
