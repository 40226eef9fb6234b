"""Strategies (策略): numba decision functions chosen per seat by an integer policy id.

A strategy sees one **observation** only (RULES.md §4.5): an int64 array `obs` holding its own
hand, the face-up tiles seen so far, the state of the current trick, each seat's 戙, discard
count, fold flag and face-up tiles, its seat, the banker and the trick number. The engine
writes public facts into `obs` as they happen and the decider's private slots (seat, hand)
just before each decision; the other hands never enter a decision function. The remaining
arguments are public knowledge: the rule parameters (`params`), the play tables (`tabs`,
built from the catalogue), the deal's STREAM_PLAY random state and a scratch buffer.

Registry: `POLICIES` maps a name to its id; `choose_fold`, `choose_lead` and `choose_follow`
dispatch on the id with one line per policy.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.bits import ctz, pdep, popcount
from ..kernels.rng import randbelow

# ---------------------------------------------------------------------------
# Observation layout (int64 slots)
# ---------------------------------------------------------------------------
O_SEAT = 0          # the deciding seat
O_HAND = 1          # its hand (mask)
O_HAND_SIZE = 2     # tiles in its hand
O_BANKER = 3
O_PLAYERS = 4       # seats at the table
O_ACTIVE = 5        # seats that have not folded
O_TRICK = 6         # trick number, 0 first
O_SEEN = 7          # every face-up tile so far (leads and beats), this trick included
O_TRICK_SEEN = 8    # face-up tiles of the current trick
O_LEADER = 9        # leader of the current trick
O_LEAD_PLAY = 10    # play id of the lead (-1 while leading)
O_WIN_PLAY = 11     # play id standing highest
O_WIN_SEAT = 12
O_WIN_IS_LEAD = 13  # 1 if the standing play is the lead (supremes behave differently)
O_LAST = 14         # 1 if this trick empties the hands
O_FORCED = 15       # residual-dice suit mask the lead must come from (0: free)
O_TO_ACT = 16       # active seats still to act in this trick after the decider
O_TILES = 17        # tiles per player as dealt
O_STREAK = 18
O_LEAD_SIZE = 19     # tiles in the lead of the current trick
O_DONG = 24         # + seat: 戙 so far
O_DISC = 32         # + seat: tiles discarded face down so far
O_FOLDED = 40       # + seat: 1 if folded
O_LED = 48          # + seat: 1 once the seat has led a trick
O_SHOWN = 56        # + seat: face-up tiles the seat has played
OBS_LEN = 64
MAX_SEATS = 8

# ---------------------------------------------------------------------------
# Rule parameters (int64 array built by engine.pack_params)
# ---------------------------------------------------------------------------
R_PLAYERS = 0
R_TILES = 1
R_EARLY_DEATH = 2
R_MIN_DONG = 3
R_BASELINE = 4
R_BANKER_MULT = 5
R_SWEEP = 6
R_SUPREME_BONUS = 7
R_SUSPENDED = 8
R_SUPREME_CLOSE = 9
R_CLOSE_REWARD = 10
R_QUARTET_BONUS = 11
R_FOLD = 12
R_FOLD_COST = 13
R_RESIDUAL = 14
R_DICE_GONG = 15
R_DICE_ZA = 16
R_DEAL_ROUND = 17
R_SUPREME_PLAY = 18
R_QUARTET_CLASS = 19
R_ZA8_PAIR = 20
R_NPLAYS = 21
R_NCLASSES = 22
R_LAO = 23          # mask of 老 / 二名老 tiles (fold eligibility)
R_SUIT_GONG = 24    # folk suit masks for the residual dice
R_SUIT_ZA = 25
R_SUIT_YAO = 26
R_H_CASH = 28       # heuristic tuning: 1 = among sure winners cash the cheapest first (else strongest)
R_H_LOSER = 29      # heuristic tuning: 1 = with no likely winner, lead the weakest free single
R_H_LEADMIN = 30    # heuristic tuning: score (×100) a lead needs to count as likely to win
N_PARAMS = 32

# ---------------------------------------------------------------------------
# Table layout (engine.build_tables)
# ---------------------------------------------------------------------------
# `tabs` is ONE int64 array [N_ROWS, N_PLAYS] holding every table at fixed row offsets: each
# array variable in a kernel costs NRT reference-count calls, so fewer arrays run faster.
N_PLAYS = 84        # plays in every catalogue (hk and folk alike)
ROW_PT = 0          # rows play: columns P_*
ROW_BL = 84         # rows play: count, then the plays beating it standing as the lead, cheapest first
ROW_BF = 168        # … standing as a follower, cheapest first
ROW_BLM = 252       # as ROW_BL, ascending by mask
ROW_BFM = 336       # as ROW_BF, ascending by mask
ROW_TT = 420        # rows bit: columns T_*
ROW_HB = 452        # rows bit: count, then the plays whose highest tile is bit, ascending by mask
ROW_BY_MASK = 484   # every play ascending by mask
ROW_LEAD_ORDER = 485  # greedy's strongest-first order
ROW_WEAK = 486      # tile bits, weakest first (cols 0..31)
ROW_WEAK_POS = 487  # col bit: the bit's place in ROW_WEAK
ROW_LEAD_FROM = 488  # col k: first place in ROW_LEAD_ORDER of a play of at most k tiles
ROW_PARTNERS = 489  # col bit: the other tiles of every two-tile play with that tile
ROW_LO_MASK = 490   # col i: mask of the play at place i of ROW_LEAD_ORDER
ROW_LO_NEED = 491   # col i: its P_NEED
ROW_SINGLE_LEADPOS = 492  # col bit: place in ROW_LEAD_ORDER of the tile's single
ROW_CHEAP_POS = 493  # col bit: place of the tile's single in the cheapest-first order (rank, then mask)
ROW_CHEAP_TILE = 494  # col place: the tile at that place
N_ROWS = 495
P_MASK = 0
P_CLS = 1
P_RANK = 2
P_SIZE = 3
P_NEED = 4          # need_absent: canonical iff hand & need == 0
P_NBEAT = 5         # plays that beat it as a lead (fewer = stronger)
P_STR = 6           # single strength 0..100 (singles only)
P_LEADPOS = 7       # place in greedy's lead order (0 = strongest)
P_BEATU_LED = 8     # union of the tiles of every play beating it as the lead (fast "cannot beat")
P_BEATU_FOL = 9     # the same when it stands as a follower
P_COLS = 10
T_SINGLE = 0        # tt[bit, .]: play id of the tile as a single
T_STR = 1           # strength of that single, 0..100

RANDOM = 0
GREEDY = 1
HEURISTIC = 2
POLICIES = {"random": RANDOM, "greedy": GREEDY, "heuristic": HEURISTIC}
POLICY_NAMES = {v: k for k, v in POLICIES.items()}


# ---------------------------------------------------------------------------
# Public-knowledge helpers (legal plays are rules, not private information)
# ---------------------------------------------------------------------------

@njit(cache=True, inline="always")
def holds(pt, p, hand):
    """Whether the hand can make play `p` canonically (lower copies first)."""
    m = pt[p, P_MASK]
    return (m & hand) == m and (pt[p, P_NEED] & hand) == 0


@njit(cache=True, inline="always")
def beat_allowed(obs, params):
    """Early death (§4.4): whether the decider may beat at all in this trick."""
    if obs[O_LAST] == 1 and params[R_EARLY_DEATH] != 0:
        if obs[O_DONG + obs[O_SEAT]] + obs[O_LEAD_SIZE] < params[R_MIN_DONG]:
            return False
    return True


@njit(cache=True, inline="always")
def legal_leads(obs, tabs, buf):
    """Legal lead plays into buf, ascending by mask (the order of docs/CONTRACTS.md); returns the count."""
    pt = tabs
    hand = obs[O_HAND]
    forced = obs[O_FORCED]
    n = 0
    rest = hand
    while rest:
        b = ctz(rest)
        rest &= rest - 1
        for i in range(1, tabs[ROW_HB + b, 0] + 1):
            p = tabs[ROW_HB + b, i]
            if holds(pt, p, hand):
                if forced != 0 and (pt[p, P_SIZE] != 1 or (pt[p, P_MASK] & forced) == 0):
                    continue
                buf[n] = p
                n += 1
    return n


@njit(cache=True, inline="always")
def legal_beats(obs, tabs, params, buf, by_mask_order):
    """Legal beats of the standing play into buf (ascending mask, or cheapest first); returns the count."""
    if not beat_allowed(obs, params):
        return 0
    pt = tabs
    w = obs[O_WIN_PLAY]
    if (obs[O_HAND] & pt[w, P_BEATU_LED if obs[O_WIN_IS_LEAD] == 1 else P_BEATU_FOL]) == 0:
        return 0
    if by_mask_order:
        row = (ROW_BLM if obs[O_WIN_IS_LEAD] == 1 else ROW_BFM) + w
    else:
        row = (ROW_BL if obs[O_WIN_IS_LEAD] == 1 else ROW_BF) + w
    hand = obs[O_HAND]
    n = 0
    for i in range(1, tabs[row, 0] + 1):
        p = tabs[row, i]
        if holds(pt, p, hand):
            buf[n] = p
            n += 1
    return n


@njit(cache=True, inline="always")
def nth_bit(mask, k):
    """Bit position of the k-th (0-based) set bit of mask, lowest first."""
    return np.int64(ctz(pdep(np.uint64(1) << np.uint64(k), mask)))


@njit(cache=True, inline="always")
def may_fold(obs, params):
    """§4.6: folding is on and the hand holds no 老 / 二名老."""
    return params[R_FOLD] != 0 and (obs[O_HAND] & params[R_LAO]) == 0


# ---------------------------------------------------------------------------
# random (docs/CONTRACTS.md, draw for draw)
# ---------------------------------------------------------------------------

@njit(cache=True, inline="always")
def random_fold(obs, tabs, params, st):
    """Fold with probability 1/2."""
    return randbelow(st, 2) == 1


@njit(cache=True, inline="always")
def random_lead(obs, tabs, params, st, buf):
    """A uniformly random legal lead."""
    n = legal_leads(obs, tabs, buf)
    return buf[randbelow(st, n)]


@njit(cache=True, inline="always")
def random_discard(hand, size, st):
    """Discard `size` tiles, each uniformly among those left (CONTRACTS.md order of draws)."""
    out = 0
    rest = hand
    for _ in range(size):
        k = randbelow(st, popcount(rest))
        b = nth_bit(rest, k)
        out |= np.int64(1) << b
        rest &= ~(np.int64(1) << b)
    return out


@njit(cache=True, inline="always")
def random_follow(obs, tabs, params, st, buf):
    """Beat with a uniformly random legal beat or discard (one extra option); returns (play, discard)."""
    n = legal_beats(obs, tabs, params, buf, True)
    r = randbelow(st, n + 1)
    if r < n:
        return buf[r], np.int64(0)
    size = tabs[obs[O_LEAD_PLAY], P_SIZE]
    return np.int64(-1), random_discard(obs[O_HAND], size, st)


# ---------------------------------------------------------------------------
# greedy
# ---------------------------------------------------------------------------

@njit(cache=True, inline="always")
def greedy_fold(obs, tabs, params, st):
    """Never folds."""
    return False


@njit(cache=True, inline="always")
def greedy_lead(obs, tabs, params, st, buf):
    """Lead the strongest play: largest first, then the fewest plays that could beat it."""
    # The first legal play in the static lead order (plays larger than the hand skipped): the
    # same play as the legal lead of least P_LEADPOS, without listing the legal leads.
    hand = obs[O_HAND]
    forced = obs[O_FORCED]
    singles = hand & forced if forced != 0 else hand  # a forced lead is a single of the suit
    if forced == 0:
        combo = combo_tiles(hand, tabs)
        if combo != 0:
            # Multi-tile plays come first in the lead order. A play of k tiles needs k tiles of
            # `combo`, so larger plays are skipped; scan the multi-tile plays up to the singles.
            k = min(obs[O_HAND_SIZE], popcount(combo), 4)
            for i in range(tabs[ROW_LEAD_FROM, k], tabs[ROW_LEAD_FROM, 1]):
                # `holds` on lead-ordered copies of the mask and need rows (no indirection).
                m = tabs[ROW_LO_MASK, i]
                if (m & hand) == m and (tabs[ROW_LO_NEED, i] & hand) == 0:
                    return tabs[ROW_LEAD_ORDER, i]
    # Singles: the tile whose single comes first in the lead order. Of two copies the lower
    # comes first and is the canonical play, so no `holds` check is needed.
    best = np.int64(N_PLAYS)
    rest = singles
    while rest:
        best = min(best, tabs[ROW_SINGLE_LEADPOS, ctz(rest)])
        rest &= rest - 1
    return tabs[ROW_LEAD_ORDER, best]


@njit(cache=True, inline="always")
def weakest_tiles(hand, size, tabs):
    """The `size` weakest tiles of the hand by the static order ROW_WEAK (weakest first)."""
    # Re-express the hand in weakness order, so the weakest tiles are its lowest bits.
    w = np.int64(0)
    rest = hand
    while rest:
        b = ctz(rest)
        rest &= rest - 1
        w |= np.int64(1) << tabs[ROW_WEAK_POS, b]
    out = np.int64(0)
    for _ in range(size):
        low = ctz(w)
        w &= w - 1
        out |= np.int64(1) << tabs[ROW_WEAK, low]
    return out


@njit(cache=True, inline="always")
def greedy_follow(obs, tabs, params, st, buf):
    """Beat with the cheapest legal beat, else discard the weakest tiles."""
    if beat_allowed(obs, params):
        pt = tabs
        w = obs[O_WIN_PLAY]
        row = (ROW_BL if obs[O_WIN_IS_LEAD] == 1 else ROW_BF) + w
        hand = obs[O_HAND]
        cand = hand & pt[w, P_BEATU_LED if obs[O_WIN_IS_LEAD] == 1 else P_BEATU_FOL]
        if cand != 0 and pt[w, P_SIZE] == 1:
            # Only singles beat a single (build_tables checks): the cheapest is the candidate
            # tile first in the cheapest-first order; of two copies the lower, canonical one.
            x = np.int64(0)
            while cand:
                x |= np.int64(1) << tabs[ROW_CHEAP_POS, ctz(cand)]
                cand &= cand - 1
            return pt[ROW_TT + tabs[ROW_CHEAP_TILE, ctz(x)], T_SINGLE], np.int64(0)
        if cand != 0:
            for i in range(1, tabs[row, 0] + 1):
                p = tabs[row, i]
                if holds(pt, p, hand):
                    return p, np.int64(0)
    size = tabs[obs[O_LEAD_PLAY], P_SIZE]
    return np.int64(-1), weakest_tiles(obs[O_HAND], size, tabs)


# ---------------------------------------------------------------------------
# heuristic
# ---------------------------------------------------------------------------

@njit(cache=True, inline="always")
def combo_tiles(hand, tabs):
    """Tiles of the hand that take part in some multi-tile play it can make."""
    # A tile is in a multi-tile play of the hand iff it is in a two-tile play of the hand
    # (build_tables checks that the two-tile plays inside every larger play cover it), i.e.
    # iff the hand holds one of the tile's pair partners: one AND per tile, no play lists.
    out = np.int64(0)
    rest = hand
    while rest:
        b = ctz(rest)
        rest &= rest - 1
        out |= np.int64((hand & tabs[ROW_PARTNERS, b]) != 0) << b
    return out


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


# T_STR (an integer 0…100) / 100.0 without a division (a global array is a compile-time constant).
_PERCENT = np.arange(101) / 100.0


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
     3. If no lead is likely to win, lead the weakest single that breaks no combination (pass the
        lead cheaply, keep the strength).
    Follow:
     1. Last trick: beat whenever allowed (early death is the engine's check): the strongest beat if
        someone still follows, the cheapest if last to act.
     2. Otherwise beat with the cheapest play that is likely (≥ 50%, ≥ 25% when still without 戙 near
        the end) to win the trick — certainly, when last to act; a single taken out of a combination
        only to get a first 戙 late in the deal. No winner is spent where a cheaper one serves.
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
            if params[R_H_CASH] != 0:
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
    if best_score >= params[R_H_LEADMIN] / 100.0 or loser < 0 or params[R_H_LOSER] == 0:
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
            if size == 1 and (combo & m) != 0:
                if fallback < 0:
                    fallback = p
                continue
            return p, np.int64(0)
        if fallback >= 0 and (obs[O_DONG + seat] == 0 and h <= 3):
            return fallback, np.int64(0)
    _keep_values(hand, tabs, unseen, combo, obs[O_ACTIVE] - 1, h, n_unseen, kv)
    return np.int64(-1), _pick_discard(hand, size, kv)




# ---------------------------------------------------------------------------
# Dispatch: one line per policy
# ---------------------------------------------------------------------------

@njit(cache=True, inline="always")
def choose_fold(policy, obs, tabs, params, st):
    """Whether the seat folds before the first lead (asked only when it may fold)."""
    if policy == RANDOM:
        return random_fold(obs, tabs, params, st)
    if policy == GREEDY:
        return greedy_fold(obs, tabs, params, st)
    return heuristic_fold(obs, tabs, params, st)


@njit(cache=True, inline="always")
def choose_lead(policy, obs, tabs, params, st, buf):
    """Play id the seat leads."""
    if policy == RANDOM:
        return random_lead(obs, tabs, params, st, buf)
    if policy == GREEDY:
        return greedy_lead(obs, tabs, params, st, buf)
    return heuristic_lead(obs, tabs, params, st, buf)


@njit(cache=True, inline="always")
def choose_follow(policy, obs, tabs, params, st, buf, kv):
    """(play id, 0) to beat, or (-1, tiles) to discard."""
    if policy == RANDOM:
        return random_follow(obs, tabs, params, st, buf)
    if policy == GREEDY:
        return greedy_follow(obs, tabs, params, st, buf)
    return heuristic_follow(obs, tabs, params, st, buf, kv)
