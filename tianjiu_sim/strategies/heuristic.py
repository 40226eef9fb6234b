"""`heuristic`: counts the tiles it has seen, saves strength to close, folds and plays for bonuses."""
from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.bits import ctz, popcount
from ..kernels.layout import (
    O_ACTIVE, O_DONG, O_FORCED, O_HAND, O_HAND_SIZE, O_LAST, O_LEAD_PLAY, O_LED, O_SEAT, O_SEEN,
    O_TO_ACT, P_BEATU_FOL, P_BEATU_LED, P_CLS, P_MASK, P_RANK, P_SIZE, P_STR, R_QUARTET_BONUS,
    R_QUARTET_CLASS, R_SUPREME_BONUS, R_SUPREME_PLAY, ROW_BF, ROW_BL, ROW_TT, T_SINGLE, T_STR
)
from ..kernels.legality import combo_tiles, holds, legal_beats, legal_leads, may_fold

# The strategy's own tuning knobs (defaults measured best of a small grid; not rule settings).
H_CASH = 1      # 1 = among sure winners cash the cheapest first (else the strongest)
H_LOSER = 1     # 1 = with no likely winner, lead the weakest free single
H_LEADMIN = 90  # score (×100) a lead needs to count as likely to win

# T_STR (an integer 0…100) / 100.0 without a division (a global array is a compile-time constant).
_PERCENT = np.arange(101) / 100.0

@njit(cache=True, inline="always")
def _hyper(opponents, opp_size, n_unseen):
    """opponents × P(one opponent holds k given unseen tiles), k = 1…4, for `_threat` (0 where impossible)."""
    # Computed once per decision instead of once per beater, multiplying in the same order as
    # the per-beater loop did, so every threat is bit-for-bit the same float.
    q1 = q2 = q3 = q4 = 0.0
    q = float(opponents)
    for j in range(4):
        if j >= opp_size or j >= n_unseen:
            break
        q *= (opp_size - j) / (n_unseen - j)
        if j == 0:
            q1 = q
        elif j == 1:
            q2 = q
        elif j == 2:
            q3 = q
        else:
            q4 = q
    return (q1, q2, q3, q4)


@njit(cache=True, inline="always")
def _pow_small(a, c):
    """a ** c for 0 <= c < 64: numba's square-and-multiply for a float ** int, unrolled without branches.

    Multiplying by 1.0 where a bit of c is 0 is exact, so the result is bit-for-bit `a ** c`
    (the loop's data-dependent exit cost a mispredicted branch per call).
    """
    r = 1.0
    for _ in range(6):
        r *= a if c & 1 else 1.0
        a *= a
        c >>= 1
    return r


@njit(cache=True, inline="always")
def _threat(pt, row0, p, unseen, opponents, opp_size, n_unseen, hyp):
    """Chance that some opponent holds a play beating `p` (beaters from rows row0…), tiles dealt at random.

    `hyp` is `_hyper(opponents, opp_size, n_unseen)`.
    """
    if pt[p, P_SIZE] == 1:
        # Singles: every beater is one unseen tile with the same chance, so (1 - q) ** count.
        c = popcount(unseen & pt[p, P_BEATU_LED if row0 == ROW_BL else P_BEATU_FOL])
        if c == 0:
            return 0.0
        q = opponents * opp_size / n_unseen
        if q >= 1.0:
            return 1.0
        return 1.0 - _pow_small(1.0 - q, c)
    safe = 1.0
    for i in range(1, pt[row0 + p, 0] + 1):
        b = pt[row0 + p, i]
        m = pt[b, P_MASK]
        if (m & unseen) != m:
            continue
        k = pt[b, P_SIZE]
        if k > opp_size:
            continue
        # Disjoint events "opponent j holds all k tiles": exactly opponents × hypergeometric term.
        q = hyp[k - 1]
        if q >= 1.0:
            return 1.0
        safe *= 1.0 - q
    return 1.0 - safe


@njit(cache=True, inline="always")
def _keep_values(hand, tabs, unseen, combo, opponents, opp_size, n_unseen, kv):
    """Worth of keeping each tile of the hand (kv[bit]); low values are discarded first."""
    pt = tabs
    hyp = _hyper(opponents, opp_size, n_unseen)
    rest = hand
    while rest:
        b = ctz(rest)
        rest &= rest - 1
        s = pt[ROW_TT + b, T_SINGLE]
        v = _PERCENT[pt[ROW_TT + b, T_STR]]
        v += 1.0 - _threat(pt, ROW_BL, s, unseen, opponents, opp_size, n_unseen, hyp)
        if combo & (np.int64(1) << b):
            v += 1.5
        kv[b] = v


@njit(cache=True, inline="always")
def _pick_discard(hand, size, kv):
    out = np.int64(0)
    for _ in range(size):
        best = -1
        bv = 1e9
        rest = hand & ~out
        while rest:
            b = ctz(rest)
            rest &= rest - 1
            if kv[b] < bv:
                bv = kv[b]
                best = b
        out |= np.int64(1) << best
    return out


@njit(cache=True, inline="always")
def _unseen(obs):
    return np.int64(0xFFFFFFFF) & ~obs[O_SEEN] & ~obs[O_HAND]


@njit(cache=True, inline="always")
def heuristic_fold(obs, tabs, params, st):
    """heuristic's fold: a hand without 老 folds unless it holds a pair or combination (至尊 included)."""
    if not may_fold(obs, params):
        return False
    return combo_tiles(obs[O_HAND], tabs) == 0


@njit(cache=True, inline="always")
def heuristic_lead(obs, tabs, params, st, buf):
    """heuristic: how a careful player plays, from the observation only.

    Counting: every tile not in the own hand and not seen face up is "unseen" (in another hand,
    discarded face down or undealt). The chance that a play can be beaten is the chance that some
    opponent still to act holds all tiles of a beating play, with the unseen tiles spread at random
    (exact per beater: opponents × hypergeometric term; beaters combined as independent).

    Fold (folk): a hand with no 老 folds unless it holds a pair or combination (至尊 included).
    Lead:
     1. 賀尊 on: lead 至尊 at the first lead if held (not as the last trick). 四大賀 on: lead a
        quartet whenever held. If the whole hand is one play (the 結) and likely to stand, lead it.
     2. Score each legal lead by its chance to stand × (1 + 0.6 × tiles); a single that breaks a
        combination of the hand is penalised; among sure winners (a 老 that is surely top) the cheapest
        goes first, so the strongest is saved to close 結.
     3. If no lead is likely to win and two or more opponents are in, lead the weakest single that
        breaks no combination (pass the lead cheaply, keep the strength). Heads-up the lead would
        go to the one opponent, so the best-scoring lead is played instead.
    Follow:
     1. Last trick: beat whenever allowed (early death is the engine's check): the strongest beat if
        someone still follows, the cheapest if last to act.
     2. Otherwise beat with the cheapest play that is likely (≥ 50%, ≥ 25% when still without 戙 near
        the end) to win the trick — certainly, when last to act. A single is taken out of a
        combination of the hand only when last to act (the trick is then surely won), or to get a
        first 戙 late in the deal. No winner is spent where a cheaper one serves.
     3. Else discard the tiles least worth keeping: low singles that are likely beaten and belong to
        no combination.
    """
    pt = tabs
    hand = obs[O_HAND]
    h = obs[O_HAND_SIZE]
    seat = obs[O_SEAT]
    n = legal_leads(obs, tabs, buf)
    if n == 1:
        return buf[0]
    sup = params[R_SUPREME_PLAY]
    # Bonuses first: 賀尊 on the first lead, 四大賀 whenever held, 包尊 when the 至尊 is all that is left.
    if params[R_SUPREME_BONUS] > 0 and obs[O_LED + seat] == 0 and h > 2 and holds(pt, sup, hand):
        if obs[O_FORCED] == 0:
            return sup
    if params[R_QUARTET_BONUS] > 0:
        for i in range(n - 1, -1, -1):
            if pt[buf[i], P_CLS] == params[R_QUARTET_CLASS]:
                return buf[i]
    unseen = _unseen(obs)
    n_unseen = popcount(unseen)
    opponents = obs[O_ACTIVE] - 1
    combo = combo_tiles(hand, tabs)
    hyp = _hyper(opponents, h, n_unseen)
    best = -1
    best_score = -1e9
    loser = -1
    loser_score = 1e9
    for i in range(n):
        p = buf[i]
        m = pt[p, P_MASK]
        k = pt[p, P_SIZE]
        win = 1.0 - _threat(pt, ROW_BL, p, unseen, opponents, h, n_unseen, hyp)
        # A whole-hand lead is the 結 itself: the leader closes whenever it stands.
        if k == h:
            if win > 0.5:
                return p
        breaks = k == 1 and (combo & m) != 0
        if k >= 2 and (combo & m) == m:
            breaks = False
        score = win * (1.0 + 0.6 * k)
        if breaks:
            score -= 0.8
        # Among sure winners cash the cheapest one first; keep the strongest to close.
        if win > 0.999:
            if H_CASH != 0:
                score += 1.0 - pt[p, P_RANK] / 64.0
            else:
                score += pt[p, P_RANK] / 64.0
        if score > best_score:
            best_score = score
            best = p
        if k == 1 and not breaks:
            v = pt[p, P_STR] + 100.0 * win
            if v < loser_score:
                loser_score = v
                loser = p
    if best_score >= H_LEADMIN / 100.0 or loser < 0 or H_LOSER == 0 or opponents == 1:
        return best
    return loser


@njit(cache=True, inline="always")
def heuristic_follow(obs, tabs, params, st, buf, kv):
    """heuristic's follow: beat-or-discard choice (rules in `heuristic_lead`'s docstring)."""
    pt = tabs
    hand = obs[O_HAND]
    seat = obs[O_SEAT]
    size = pt[obs[O_LEAD_PLAY], P_SIZE]
    n = legal_beats(obs, tabs, params, buf, False)
    unseen = _unseen(obs)
    n_unseen = popcount(unseen)
    to_act = obs[O_TO_ACT]
    h = obs[O_HAND_SIZE]
    combo = combo_tiles(hand, tabs)
    if n > 0:
        if obs[O_LAST] == 1:
            if to_act == 0:
                return buf[0], np.int64(0)
            return buf[n - 1], np.int64(0)
        need = 0.5
        if obs[O_DONG + seat] == 0 and h <= 4:
            need = 0.25
        fallback = -1
        hyp = _hyper(to_act, h, n_unseen)
        for i in range(n):
            p = buf[i]
            m = pt[p, P_MASK]
            win = 1.0
            if to_act > 0:
                win = 1.0 - _threat(pt, ROW_BF, p, unseen, to_act, h, n_unseen, hyp)
            if win < need:
                continue
            if size == 1 and (combo & m) != 0 and to_act > 0:
                if fallback < 0:
                    fallback = p
                continue
            return p, np.int64(0)
        if fallback >= 0 and (obs[O_DONG + seat] == 0 and h <= 3):
            return fallback, np.int64(0)
    _keep_values(hand, tabs, unseen, combo, obs[O_ACTIVE] - 1, h, n_unseen, kv)
    return np.int64(-1), _pick_discard(hand, size, kv)
