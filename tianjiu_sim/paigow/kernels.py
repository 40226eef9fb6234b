"""numba kernels of the compare games: exact enumeration over distinct hands, and Monte Carlo rounds.

Hands are given as plain arrays: per distinct hand the front and back strength of each of its
three splits (a two-tile hand is one "split" whose front and back are the same pair), its class
make-up and, for the other side, a mixed strategy over its splits. Counting is exact: the number
of tile-level (hero, villain) deals behind a pair of distinct hands is a product of binomials
over the classes, so no tile-level hand is ever listed.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..kernels.rng import random_double, seed_stream
from ..kernels.shuffles import shuffle_uniform


@njit(cache=True, inline="always")
def _cmp(x, y, ties_banker):
    if x > y:
        return 1
    if x < y:
        return -1
    return -1 if ties_banker else 0


@njit(cache=True, inline="always")
def outcome(pf, pb, bf, bb, ties_banker, half_win):
    """The player's result against the banker (+1 win, 0 push, −1 loss) from both pairs' strengths."""
    s = _cmp(pf, bf, ties_banker) + _cmp(pb, bb, ties_banker)
    if half_win:
        return 1 if s > 0 else (-1 if s < 0 else 0)
    return 1 if s == 2 else (-1 if s == -2 else 0)


@njit(cache=True, inline="always")
def _binom(n, k):
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@njit(cache=True, inline="always")
def hand_weight(caps, counts, h):
    """Tile-level hands behind distinct hand h when `caps` copies of each class are unseen."""
    weight = 1
    for c in range(caps.shape[0]):
        weight *= _binom(caps[c], counts[h, c])
    return weight


@njit(cache=True, inline="always")
def pair_count(weight, caps, counts, h, cls, num, v):
    """Tile-level (h, v) deals: hero hand h's `weight` times the villain hands v from the tiles left."""
    cnt = weight
    for t in range(cls.shape[1]):
        c = cls[v, t]
        if c < 0:
            break
        cnt *= _binom(caps[c] - counts[h, c], num[v, t])
    return cnt


@njit(cache=True, parallel=True)
def cross(hero_front, hero_back, hero_counts, n_splits, vill_front, vill_back, vill_cls, vill_num,
          vill_strategy, caps, hero_is_player, ties_banker, half_win):
    """W, L [D_hero, 3]: tile-level deals in which the player wins / loses, per hero split, and N [D_hero].

    The villain plays each of its splits with the probabilities in `vill_strategy`; `caps` are the
    copies of each class still unseen (fewer than the set's when tiles have been shown).
    """
    dh = hero_front.shape[0]
    dv = vill_front.shape[0]
    wins = np.zeros((dh, 3))
    losses = np.zeros((dh, 3))
    total = np.zeros(dh)
    for h in prange(dh):
        weight = hand_weight(caps, hero_counts, h)
        if weight == 0:
            continue
        for v in range(dv):
            cnt = pair_count(weight, caps, hero_counts, h, vill_cls, vill_num, v)
            if cnt == 0:
                continue
            total[h] += cnt
            for j in range(3):
                y = vill_strategy[v, j]
                if y == 0.0:
                    continue
                bf = vill_front[v, j]
                bb = vill_back[v, j]
                for i in range(n_splits):
                    if hero_is_player:
                        r = outcome(hero_front[h, i], hero_back[h, i], bf, bb, ties_banker, half_win)
                    else:
                        r = outcome(bf, bb, hero_front[h, i], hero_back[h, i], ties_banker, half_win)
                    if r > 0:
                        wins[h, i] += cnt * y
                    elif r < 0:
                        losses[h, i] += cnt * y
        for i in range(n_splits, 3):
            wins[h, i] = wins[h, 0]
            losses[h, i] = losses[h, 0]
    return wins, losses, total


@njit(cache=True, inline="always")
def _pick(cum, h, u):
    for j in range(3):
        if u < cum[h, j]:
            return j
    return 2


@njit(cache=True, inline="always")
def _hand_index(perm, start, n, tile_class, lookup):
    key_cls = np.empty(4, dtype=np.int64)
    for i in range(n):
        key_cls[i] = tile_class[perm[start + i]]
    for i in range(1, n):  # insertion sort of at most four classes
        x = key_cls[i]
        j = i - 1
        while j >= 0 and key_cls[j] > x:
            key_cls[j + 1] = key_cls[j]
            j -= 1
        key_cls[j + 1] = x
    key = 0
    for i in range(n):
        key |= key_cls[i] << (5 * i)
    return lookup[key]


@njit(cache=True, parallel=True)
def simulate(n_shuffles, seed, stream, tiles_per_hand, players, rounds, tile_class, lookup, front, back,
             player_cum, banker_cum, ties_banker, half_win):
    """Deal `n_shuffles` uniform shuffles; out[s, r, p] = player p's result (+1/0/−1) in round r.

    Each shuffle draws from its own stream (seed, stream, shuffle index): the same numbers on any
    thread count. A side's split is drawn from its cumulative strategy (a pure way has one 1.0).
    """
    out = np.zeros((n_shuffles, rounds, players), dtype=np.int8)
    chunk = 1024
    n_chunks = (n_shuffles + chunk - 1) // chunk
    for ch in prange(n_chunks):
        state = np.zeros(4, dtype=np.uint64)
        perm = np.empty(32, dtype=np.int64)
        for s in range(ch * chunk, min(n_shuffles, (ch + 1) * chunk)):
            seed_stream(state, seed, stream, s)
            for i in range(32):
                perm[i] = i
            shuffle_uniform(state, perm)
            for r in range(rounds):
                base = r * (players + 1) * tiles_per_hand
                b = _hand_index(perm, base, tiles_per_hand, tile_class, lookup)
                jb = _pick(banker_cum, b, random_double(state))
                for p in range(players):
                    h = _hand_index(perm, base + (p + 1) * tiles_per_hand, tiles_per_hand, tile_class, lookup)
                    ip = _pick(player_cum, h, random_double(state))
                    out[s, r, p] = outcome(front[h, ip], back[h, ip], front[b, jb], back[b, jb],
                                           ties_banker, half_win)
    return out


@njit(cache=True)
def pair_matrix(p_rows, p_splits, b_rows, b_splits, front, back, counts, cls, num, caps, ties_banker, half_win,
                win_pay):
    """A[i, j]: summed player result of player (hand p_rows[i], split p_splits[i]) vs banker (b_rows[j], b_splits[j])."""
    a = np.zeros((p_rows.shape[0], b_rows.shape[0]))
    for i in range(p_rows.shape[0]):
        h = p_rows[i]
        weight = hand_weight(caps, counts, h)
        for j in range(b_rows.shape[0]):
            v = b_rows[j]
            cnt = pair_count(weight, caps, counts, h, cls, num, v)
            if cnt == 0:
                continue
            r = outcome(front[h, p_splits[i]], back[h, p_splits[i]], front[v, b_splits[j]], back[v, b_splits[j]],
                        ties_banker, half_win)
            a[i, j] = cnt * win_pay if r > 0 else (-cnt if r < 0 else 0.0)
    return a
