"""Search strategies (RULES.md §8): `pimc[:W]` and `oracle`, the exact solver inside the play kernel.

`pimc` sees what its seat sees (§4.5): at each decision it draws W **worlds** — the tiles it
has not seen (every tile but its own hand and the face-up plays) dealt at random to the other
seats' current hands in their known sizes; tiles left over (face-down discards of folded
seats, undealt tiles) are out of play in a world — and scores every candidate action by the
mean, over the same W worlds, of its paranoid value V_self in that world. `oracle` scores the
candidates in the one true world: it sees all hands, an upper bound and never a fair player.

What "value" means before the endgame. A full 8-tile deal takes the exact solver seconds to
many minutes (benchmarks/README.md, "Exact solver"), so every trick that starts with more than `horizon`
tiles a hand is *played out*: each seat plays the first move of the solver's own move
ordering (sure winners and long plays first; a follower whose side wins discards its weakest
tiles, otherwise beats), and from the first trick boundary with at most `horizon` tiles a hand
the solver is exact (kernels/solver.py, X_HORIZON). With `horizon` = tiles a hand everything
is exact. The default horizons depend on the number of players and the dice and are measured
(benchmarks/README.md, "pimc and oracle"; names.PIMC_HORIZONS, PIMC_HORIZONS_DICE,
ORACLE_HORIZONS): with 4 players `pimc` solves exactly from 4 tiles a hand (median 6 ms a decision at 16 worlds in `hk`, 99th
percentile ≈ 0.1 s; from 5 tiles the 99th percentile is ≈ 2 s) — from 3 where the residual-tile
dice are on (folk), whose chance nodes cost ≈ 4× the nodes — with 3 from 4 and with 2 from 6,
where a trick has fewer plays; `oracle` (one world, not 16) from 4, 5 and 8.

Candidates come from the decider's own hand only, so they are the same in every world: each
distinct legal lead or beat (copies of a kind are one action) and each distinct discard; when
a hand has more than MAX_DISCARDS distinct discards, the MAX_DISCARDS weakest (by the solver's
tile strength, tiles of multi-tile plays counted stronger) are the candidates. Folding (§4.6)
is decided the same way: staying in is worth the value of the deal from its first lead with
the seats still to decide staying in; folding is worth −fold cost.

Every decision resets the search's killer moves and starts a fresh transposition-table
generation per world, so a decision depends only on its observation and its random stream:
never on the deals a thread played before (thread-count independence).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..game.rules import RuleSet
from ..game.tiles import N_TILES, TILE_KIND
from ..kernels import solver as S
from ..kernels.bits import ctz, popcount
from ..kernels.layout import (
    O_ACTIVE, O_BANKER, O_CAUGHT, O_DISC, O_DONG, O_FIRST_LEAD, O_FOLDED, O_HAND, O_LEAD_PLAY,
    O_LEAD_SIZE, O_LEADER, O_LED, O_PEND_LEADER, O_PEND_WINNER, O_PLAYERS, O_SEAT, O_SEEN, O_SHOWN,
    O_STREAK, O_TILES, O_WIN_IS_LEAD, O_WIN_PLAY, O_WIN_SEAT, P_MASK, R_DICE_ON, R_FOLD_COST, R_SUPREME_PLAY
)
from ..kernels.legality import legal_beats, legal_leads
from ..kernels.tables import pack_params
from ..kernels.rng import randbelow
from .names import AUTO, default_horizon

SEARCH = 100            # policy id of a search strategy: SEARCH + horizon × 10000 + worlds (0: oracle)
DEFAULT_WORLDS = 16
MAX_WORLDS = 4096
HORIZON = 4             # pimc's default with 4 players and no dice (names.PIMC_HORIZONS)
MAX_DISCARDS = 12
MAX_CANDIDATES = 64
SEARCH_TT_BITS = 16     # endgame searches store a few thousand boundaries
FOLD, STAY = 1, 0       # candidate codes of a fold decision


def search_tables(rules: RuleSet):
    """The read-only part of the search scratch for a rule set: solver tables, the rule parameters, tile twins."""
    twin = np.full(N_TILES, -1, dtype=np.int64)
    for b in range(N_TILES):
        for c in range(N_TILES):
            if c != b and TILE_KIND[c] == TILE_KIND[b]:
                twin[b] = c
    return (S.build_solver_tables(rules), pack_params(rules), twin)


@njit(cache=True)
def search_scratch(tabs3, players):
    """One thread's search scratch: (T, Q, twin, X, TT×4, moves×3, world hands, dong, pool, candidates, values)."""
    T, Q, twin = tabs3
    size = 1 << SEARCH_TT_BITS
    tags = np.zeros(size + 8, dtype=np.int64)
    start = ((64 - tags.ctypes.data % 64) % 64) // 8  # a bucket's tags on one cache line (kernels/solver.py, new_tt)
    return (T, Q, twin, np.zeros(S.N_X, dtype=np.int64),
            np.zeros((size, 3), dtype=np.int64), np.zeros((size, 2), dtype=np.float64),
            np.full(size, -1, dtype=np.int64), tags[start:start + size],
            np.zeros((S.MAX_PLY, S.MOVE_W), dtype=np.int64), np.zeros((S.MAX_PLY, S.MOVE_W), dtype=np.int64),
            np.zeros((S.MAX_PLY, S.G_WIDTH), dtype=np.int64),
            np.zeros(players, dtype=np.int64), np.zeros(players, dtype=np.int64),
            np.zeros(N_TILES, dtype=np.int64), np.zeros(MAX_CANDIDATES, dtype=np.int64),
            np.zeros((MAX_WORLDS, MAX_CANDIDATES), dtype=np.float64))


@njit(cache=True)
def world_sizes(obs, sizes):
    """Each seat's current hand size as the observation tells it (0 for a folded seat)."""
    n = obs[O_PLAYERS]
    for x in range(n):
        if obs[O_FOLDED + x] != 0:
            sizes[x] = 0
        else:
            sizes[x] = obs[O_TILES] - popcount(obs[O_SHOWN + x]) - obs[O_DISC + x]


@njit(cache=True)
def draw_world(obs, st, pool, whands):
    """One world: the unseen tiles dealt at random to the other seats in their known sizes."""
    n = obs[O_PLAYERS]
    seat = obs[O_SEAT]
    unseen = ((np.int64(1) << N_TILES) - 1) & ~obs[O_HAND] & ~obs[O_SEEN]
    k = 0
    rest = unseen
    while rest:
        pool[k] = ctz(rest)
        k += 1
        rest &= rest - 1
    world_sizes(obs, whands)  # sizes first, then the tiles in their place
    top = k
    for x in range(n):
        need = whands[x]
        whands[x] = 0
        if x == seat:
            whands[x] = obs[O_HAND]
            continue
        for _ in range(need):
            j = randbelow(st, top)  # a partial Fisher–Yates from the top of the pool
            top -= 1
            b = pool[j]
            pool[j] = pool[top]
            pool[top] = b
            whands[x] |= np.int64(1) << b


@njit(cache=True)
def _discard_key(T, hand, d):
    key = 0
    x = d
    while x:
        b = ctz(x)
        x &= x - 1
        key += T[S.ROW_TILE + b, S.K_STR] + (60 if hand & T[S.ROW_TILE + b, S.K_PARTNERS] else 0)
    return key


@njit(cache=True)
def candidates(obs, tabs, params, buf, T, twin, cand):
    """The decider's distinct candidate actions into `cand` (lead/beat: play id; discard d: -(d+1))."""
    nc = 0
    if obs[O_LEAD_PLAY] < 0:
        n = legal_leads(obs, tabs, buf)
        for i in range(n):
            cand[nc] = buf[i]
            nc += 1
        return nc
    n = legal_beats(obs, tabs, params, buf, True)
    for i in range(n):
        cand[nc] = buf[i]
        nc += 1
    hand = obs[O_HAND]
    size = obs[O_LEAD_SIZE]
    nd0 = nc
    nb = 0
    bits = np.zeros(N_TILES, dtype=np.int64)
    rest = hand
    while rest:
        bits[nb] = ctz(rest)
        nb += 1
        rest &= rest - 1
    keys = np.zeros(MAX_DISCARDS + 1, dtype=np.int64)
    c = (np.int64(1) << size) - 1
    while c < (np.int64(1) << nb):
        d = np.int64(0)
        x = c
        while x:
            d |= np.int64(1) << bits[ctz(x)]
            x &= x - 1
        ok = True
        x = d
        while x:
            b = ctz(x)
            x &= x - 1
            t = twin[b]
            if t >= 0 and t < b and (hand >> t & 1) and not (d >> t & 1):
                ok = False  # its lower copy stays in the hand: the same discard as the canonical one
                break
        if ok:
            key = _discard_key(T, hand, d)
            # insert by (key, mask), keeping the MAX_DISCARDS weakest
            j = nc - nd0
            if j < MAX_DISCARDS or key < keys[MAX_DISCARDS - 1]:
                if j == MAX_DISCARDS:
                    j -= 1
                while j > 0 and keys[j - 1] > key:
                    keys[j] = keys[j - 1]
                    cand[nd0 + j] = cand[nd0 + j - 1]
                    j -= 1
                keys[j] = key
                cand[nd0 + j] = -(d + 1)
                if nc - nd0 < MAX_DISCARDS:
                    nc += 1
        t = c | (c - 1)  # Gosper: the next set of `size` bits
        c = (t + 1) | (((~t & -~t) - 1) >> (ctz(c) + 1))
    return nc


@njit(cache=True)
def _setup(obs, X, gp, seat, horizon, tie):
    """The solver context of the observation's public state for perspective `seat`."""
    n = obs[O_PLAYERS]
    for i in range(X.shape[0]):
        if i != S.X_GEN:
            X[i] = 0
    X[S.X_SEAT] = seat
    X[S.X_BANKER] = obs[O_BANKER]
    X[S.X_STREAK] = obs[O_STREAK]
    X[S.X_PEND_LEADER] = obs[O_PEND_LEADER]
    X[S.X_PEND_WINNER] = obs[O_PEND_WINNER]
    led = 0
    folded = 0
    for x in range(n):
        if obs[O_LED + x] != 0:
            led |= 1 << x
        if obs[O_FOLDED + x] != 0:
            folded |= 1 << x
    X[S.X_HAS_LED] = led
    X[S.X_FOLDED] = folded
    X[S.X_ACTIVE] = obs[O_ACTIVE]
    X[S.X_HORIZON] = horizon
    X[S.X_CLOSE_TIE] = tie
    X[S.X_GEN] += 1
    for p in range(gp.shape[0]):
        gp[p, S.G_KILLER] = -(1 << 62)


@njit(cache=True)
def _child_value(obs, tabs, scr, code, guess):
    """V_seat of the position after the decider plays candidate `code`, in the world in scr's hands."""
    T, Q, twin, X, ttk, ttv, ttb, ttg, mv, ky, gp, wh, wd = scr[:13]
    seat = obs[O_SEAT]
    leader = obs[O_LEADER]
    if obs[O_LEAD_PLAY] < 0:
        m = tabs[code, P_MASK]
        old = X[S.X_HAS_LED]
        first = 0 if (old >> seat & 1) else 1
        X[S.X_HAS_LED] = old | (np.int64(1) << seat)
        wh[seat] ^= m
        v = S.solve_kernel(T, Q, X, ttk, ttv, ttb, ttg, wh, wd, mv, ky, gp,
                           np.int64(seat), code, code, np.int64(seat), np.int64(1), np.int64(-1),
                           np.int64(first), np.int64(seat), guess)
        wh[seat] ^= m
        X[S.X_HAS_LED] = old
        return v
    lead_p = obs[O_LEAD_PLAY]
    win_p = obs[O_WIN_PLAY]
    win_seat = obs[O_WIN_SEAT]
    win_lead = obs[O_WIN_IS_LEAD]
    caught = obs[O_CAUGHT]
    first = obs[O_FIRST_LEAD]
    if code >= 0:
        m = tabs[code, P_MASK]
        nc = seat if (lead_p == Q[R_SUPREME_PLAY] and win_lead == 1) else caught
        wh[seat] ^= m
        v = S.solve_kernel(T, Q, X, ttk, ttv, ttb, ttg, wh, wd, mv, ky, gp,
                           np.int64(leader), np.int64(lead_p), code, np.int64(seat), np.int64(0),
                           np.int64(nc), np.int64(first), np.int64(seat), guess)
        wh[seat] ^= m
        return v
    d = -code - 1
    wh[seat] ^= d
    v = S.solve_kernel(T, Q, X, ttk, ttv, ttb, ttg, wh, wd, mv, ky, gp,
                       np.int64(leader), np.int64(lead_p), np.int64(win_p), np.int64(win_seat),
                       np.int64(win_lead), np.int64(caught), np.int64(first), np.int64(seat), guess)
    wh[seat] ^= d
    return v


@njit(cache=True)
def _stay_value(obs, scr, seat):
    """V_seat of the whole deal from its first lead, the seats still to decide staying in."""
    T, Q, twin, X, ttk, ttv, ttb, ttg, mv, ky, gp, wh, wd = scr[:13]
    n = obs[O_PLAYERS]
    leader = obs[O_BANKER]
    while obs[O_FOLDED + leader] != 0:
        leader = leader + 1 if leader + 1 < n else 0
    return S.solve_kernel(T, Q, X, ttk, ttv, ttb, ttg, wh, wd, mv, ky, gp,
                          np.int64(leader), np.int64(-1), np.int64(-1), np.int64(leader), np.int64(0),
                          np.int64(-1), np.int64(0), np.int64(leader), 0.0)


@njit(cache=True)
def evaluate(obs, hands, worlds, horizon, tie, fold, full, extra, tabs, params, st, buf, scr):
    """Score the decider's candidates: scr's values[w, c] = V_self in world w after candidate c.

    worlds = 0: the one true world (`hands`, oracle); else W worlds drawn from `obs` and `st`.
    fold = 1: the candidates are STAY and FOLD.  full = 0 skips the search when there is one
    candidate (a policy has nothing to choose).  extra (-1: none) is a candidate code added when
    the enumeration left it out (`tjsim review` values the action actually played).  Returns the
    number of candidates.
    """
    T, Q, twin, X, ttk, ttv, ttb, ttg, mv, ky, gp, wh, wd, pool, cand, vals = scr
    n = obs[O_PLAYERS]
    seat = obs[O_SEAT]
    if fold == 1:
        nc = 2
        cand[0] = STAY
        cand[1] = FOLD
    else:
        nc = candidates(obs, tabs, params, buf, T, twin, cand)
        if extra != -1:
            found = False
            for c in range(nc):
                if cand[c] == extra:
                    found = True
            if not found:
                cand[nc] = extra
                nc += 1
    nw = 1 if worlds == 0 else worlds
    for w in range(nw):
        if worlds == 0:
            for x in range(n):
                wh[x] = hands[x] if obs[O_FOLDED + x] == 0 else 0
        else:
            draw_world(obs, st, pool, wh)
        for x in range(n):
            wd[x] = obs[O_DONG + x]
        _setup(obs, X, gp, seat, horizon, tie)
        if X[S.X_GEN] >= S.GEN_LIMIT:  # the tags' generation field is full: every entry becomes free
            ttg[:] = 0
            X[S.X_GEN] = 1
        if fold == 1:
            vals[w, 0] = _stay_value(obs, scr, seat)
            vals[w, 1] = -float(params[R_FOLD_COST])
            continue
        guess = 0.0
        for c in range(nc):
            if nc == 1 and full == 0:
                vals[w, c] = 0.0  # one candidate: nothing to compare
                continue
            v = _child_value(obs, tabs, scr, cand[c], guess)
            vals[w, c] = v
            guess = v
        if nc == 1 and full == 0:
            break
    return nc


@njit(cache=True)
def _best(scr, nc, nw):
    """The candidate with the highest mean value (the first of equals)."""
    vals = scr[15]
    best = 0
    best_v = -1e300
    for c in range(nc):
        s = 0.0
        for w in range(nw):
            s += vals[w, c]
        if s > best_v + 1e-9:
            best_v = s
            best = c
    return best


@njit(cache=True)
def _worlds_of(policy):
    return np.int64((policy - SEARCH) % 10000)


# the names module's own table lookup, compiled: one definition of the defaults for Python and kernels
_default_horizon = njit(cache=True)(default_horizon)


@njit(cache=True)
def _horizon_of(policy, players, dice):
    """The policy's horizon; names.AUTO means the default for the number of players and the dice."""
    h = np.int64((policy - SEARCH) // 10000)
    if h != AUTO:
        return h
    return np.int64(_default_horizon(players, (policy - SEARCH) % 10000 == 0, dice))


@njit(cache=True)
def search_lead(policy, obs, hands, tabs, params, st, buf, scr):
    """Play id the search strategy leads."""
    w = _worlds_of(policy)
    h = _horizon_of(policy, obs[O_PLAYERS], params[R_DICE_ON] != 0)
    nc = evaluate(obs, hands, w, h, np.int64(0), np.int64(0), np.int64(0), np.int64(-1),
                  tabs, params, st, buf, scr)
    return scr[14][_best(scr, nc, 1 if (w == 0 or nc == 1) else w)]


@njit(cache=True)
def search_follow(policy, obs, hands, tabs, params, st, buf, scr):
    """(play id, 0) to beat or (-1, tiles) to discard, as the search strategy decides."""
    w = _worlds_of(policy)
    h = _horizon_of(policy, obs[O_PLAYERS], params[R_DICE_ON] != 0)
    nc = evaluate(obs, hands, w, h, np.int64(0), np.int64(0), np.int64(0), np.int64(-1),
                  tabs, params, st, buf, scr)
    code = scr[14][_best(scr, nc, 1 if (w == 0 or nc == 1) else w)]
    if code >= 0:
        return code, np.int64(0)
    return np.int64(-1), -code - 1


@njit(cache=True)
def search_fold(policy, obs, hands, tabs, params, st, buf, scr):
    """Whether the search strategy folds."""
    w = _worlds_of(policy)
    h = _horizon_of(policy, obs[O_PLAYERS], params[R_DICE_ON] != 0)
    nc = evaluate(obs, hands, w, h, np.int64(0), np.int64(1), np.int64(0), np.int64(-1),
                  tabs, params, st, buf, scr)
    return scr[14][_best(scr, nc, 1 if w == 0 else w)] == FOLD
