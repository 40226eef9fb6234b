"""The numba engine of 九支十仔 (RULES.md §9): the mechanics of a deal, decision-free.

A deal's whole state is one flat int64 array `S` (layout: the O_* offsets), so a strategy can
copy it in one move to play a deal out in simulation. `start_deal` deals; `advance` plays
every forced step (wins, eating, dead cards, forced discards, turning the stock, the draw,
bonus flips and payment) until a seat must choose a discard (it returns that seat) or the
deal is over (−1); `discard` applies a chosen discard. Who decides is the caller's business
(strategies.py, runner.py): nothing here reads a policy.

Cards leave the stock by a lazy Fisher–Yates shuffle: the i-th card drawn is a uniform pick
among the cards not yet drawn (`draw`), from the random stream the caller passes.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.rng import randbelow
from .cards import COPIES, N_CARDS, N_KINDS, N_RANKS
from .rules import MAX_PLAYERS, NineCardsRules

K = N_KINDS
MAXP = MAX_PLAYERS
DQ_LEN = 10  # a seat's dead cards come only from its 9 concealed cards: at most 9 ever

# --- state layout (S, int64) ---
O_CONC = 0                      # [seat*28 + kind] concealed cards
O_DEAD = O_CONC + MAXP * K      # dead cards (死牌) by kind, face up, still the seat's own
O_MELD = O_DEAD + MAXP * K      # face-up pairs from eating, by kind
O_DQ = O_MELD + MAXP * K        # [seat*DQ_LEN + i] dead cards in the order laid
O_DQH = O_DQ + MAXP * DQ_LEN    # [seat] first undiscarded entry of the dead queue
O_DQT = O_DQH + MAXP            # [seat] end of the dead queue
O_KZ = O_DQT + MAXP             # [seat] 開招 made during the deal
O_WAIT = O_KZ + MAXP            # [seat] kind of the single a waiting (聽) seat needs, else -1
O_PUB = O_WAIT + MAXP           # [kind] cards face up: discards, pairs laid, dead cards
O_PILE = O_PUB + K              # [kind] the discards nobody ate
O_PAY = O_PILE + K              # [seat] payments in 頭
O_DECK = O_PAY + MAXP           # [112] the pack; [0, POS) drawn, [POS, 112) the stock
O_POS = O_DECK + N_CARDS
O_N = O_POS + 1
O_BANKER = O_N + 1
O_PHASE = O_BANKER + 1
O_ACTOR = O_PHASE + 1           # the seat to discard (PH_DISCARD)
O_SHOWN = O_ACTOR + 1           # the card shown (PH_SHOWN)
O_SHOWER = O_SHOWN + 1          # who discarded or turned it
O_MODE = O_SHOWER + 1           # M_DISCARD or M_TURN
O_WINNER = O_MODE + 1           # -1: drawn (流局) or not over
O_WINTYPE = O_WINNER + 1
O_PAYER = O_WINTYPE + 1         # the discarder of a 放槍, else -1
O_WINCARD = O_PAYER + 1         # -1 for a win on the deal
O_TOU = O_WINCARD + 1
O_COLOURS = O_TOU + 1
O_FLIPPTS = O_COLOURS + 1
O_KZWAIT = O_FLIPPTS + 1
O_NREC = O_KZWAIT + 1
O_TURNS = O_NREC + 1            # cards turned from the stock (excluding bonus flips)
STATE_LEN = O_TURNS + 1

PH_DISCARD, PH_SHOWN, PH_END = 0, 1, 2
M_DISCARD, M_TURN = 0, 1
W_SELF, W_STOCK, W_DISCARD = 0, 1, 2
WIN_TYPES = ("self_draw", "stock", "discard")

# --- trace record rows: (seat, action, kind) ---
A_DISCARD, A_FORCED, A_TURN, A_EAT, A_KAIZHAO, A_DEAD, A_WIN, A_FLIP = range(8)
ACTIONS = ("discard", "discard_dead", "turn", "eat", "eat_kaizhao", "dead", "win", "flip")
MAX_EVENTS = 512

# --- rule parameters (int64 array) ---
(R_PLAYERS, R_EAT3, R_TURNER_FIRST, R_DISCARD_PAIRS, R_RESERVE, R_DEAL_SELF, R_CP1, R_CP2, R_CP3, R_CP4,
 R_FOUR_SELF, R_SELF_BONUS, R_FLIPS, R_FLIP_BONUS, R_TAIL, R_KZ, R_KZ_WAIT, R_DISC_ONLY,
 R_TURNER_PAYS) = range(19)
N_RULE_PARAMS = 19


# rule settings in the order of the R_* indices (colour_points fills R_CP1…R_CP4)
_RULE_FIELDS = ("players", "eat_with_three", "turner_first", "discard_pairs", "stock_reserve", "deal_win_self_draw",
                "colour_points", "four_colour_self_draw", "self_draw_bonus", "bonus_flips", "flip_bonus",
                "tail_bonus", "kaizhao_bonus", "kaizhao_wait_bonus", "discard_payer_only", "stock_turner_pays")


def pack_rules(rules: NineCardsRules) -> np.ndarray:
    """The rule set as the engine's int64 parameter array (layout: the R_* indices)."""
    values: list[int] = []
    for f in _RULE_FIELDS:
        v = getattr(rules, f)
        values.extend(int(x) for x in v) if isinstance(v, tuple) else values.append(int(v))
    assert len(values) == N_RULE_PARAMS
    return np.array(values, dtype=np.int64)


@njit(cache=True, inline="always")
def record(S, rec, seat, action, kind):
    """Append a trace row when recording (rec has rows)."""
    i = S[O_NREC]
    if i < rec.shape[0]:
        rec[i, 0] = seat
        rec[i, 1] = action
        rec[i, 2] = kind
        S[O_NREC] = i + 1


@njit(cache=True, inline="always")
def draw(S, st):
    """The top card of the stock: a uniform pick among the undrawn cards (lazy Fisher–Yates)."""
    pos = S[O_POS]
    j = pos + randbelow(st, N_CARDS - pos)
    k = S[O_DECK + j]
    S[O_DECK + j] = S[O_DECK + pos]
    S[O_DECK + pos] = k
    S[O_POS] = pos + 1
    return k


@njit(cache=True, inline="always")
def update_wait(S, s):
    """Set WAIT[s]: the single's kind if the seat's nine cards are four pairs and a single (聽), else -1."""
    pairs = 0
    single = -1
    singles = 0
    for k in range(K):
        h = S[O_CONC + s * K + k] + S[O_DEAD + s * K + k]
        pairs += S[O_MELD + s * K + k] + (h >> 1)
        if h & 1:
            single = k
            singles += 1
    S[O_WAIT + s] = single if (pairs == 4 and singles == 1) else -1


@njit(cache=True)
def deal_cards(S, prm, banker, st):
    """Reset S and deal (§9.1): 5 cards each from the banker on, then 5 to the banker and 4 to each other."""
    S[:] = 0
    n = prm[R_PLAYERS]
    for i in range(N_CARDS):
        S[O_DECK + i] = i // COPIES
    S[O_N] = n
    S[O_BANKER] = banker
    S[O_WINNER] = -1
    S[O_WINTYPE] = -1
    S[O_PAYER] = -1
    S[O_WINCARD] = -1
    for rnd in range(2):
        for j in range(n):
            s = (banker + j) % n
            m = 5 if (rnd == 0 or j == 0) else 4
            for _ in range(m):
                S[O_CONC + s * K + draw(S, st)] += 1


@njit(cache=True)
def start_deal(S, prm, banker, st, rec):
    """Deal, find the waits, and settle at once if the banker was dealt five pairs."""
    deal_cards(S, prm, banker, st)
    n = S[O_N]
    for s in range(n):
        S[O_WAIT + s] = -1
        if s != banker:
            update_wait(S, s)
    pairs = 0
    for k in range(K):
        pairs += S[O_CONC + banker * K + k] >> 1
    if pairs == 5:
        # Open question of §9: the banker's ten dealt cards are five pairs; he has won already.
        settle(S, prm, banker, W_SELF if prm[R_DEAL_SELF] else W_STOCK, -1, -1, st, rec)
        return
    S[O_PHASE] = PH_DISCARD
    S[O_ACTOR] = banker


@njit(cache=True)
def score_win(S, prm, w, wtype, card, flips):
    """(頭, colours, flip points, 開招 wait) of seat w winning on `card` (−1: on the deal), §9.3.

    `flips` are the bonus flips in order (ignored for a win from a discard); a four-colour
    self-draw scores prm[R_FOUR_SELF] in all and has no flips (callers draw none).
    """
    cmask = 0
    pairk = 0  # bit k: the winner has a pair of kind k
    for k in range(K):
        h = S[O_CONC + w * K + k] + S[O_DEAD + w * K + k] + (1 if k == card else 0)
        if h >= 2 or S[O_MELD + w * K + k] > 0:
            pairk |= 1 << k
            cmask |= 1 << (k // N_RANKS)
    ncol = 0
    for c in range(4):
        ncol += (cmask >> c) & 1
    kzw = 0
    if card >= 0 and S[O_CONC + w * K + card] + S[O_DEAD + w * K + card] == 3:
        kzw = 1
    if ncol == 4 and wtype == W_SELF:
        return prm[R_FOUR_SELF], ncol, 0, kzw
    tou = prm[R_CP1 + ncol - 1] + prm[R_KZ] * S[O_KZ + w] + prm[R_KZ_WAIT] * kzw
    if wtype == W_SELF:
        tou += prm[R_SELF_BONUS]
    pts = 0
    if wtype != W_DISCARD:
        nf = flips.shape[0]
        for i in range(nf):
            if (pairk >> flips[i]) & 1:
                pts += prm[R_TAIL] if i == nf - 1 else prm[R_FLIP_BONUS]
    return tou + pts, ncol, pts, kzw


@njit(cache=True)
def settle(S, prm, w, wtype, payer, card, st, rec):
    """Draw the bonus flips from `st`, score the win of seat w in 頭 (§9.3) and pay it; the deal ends."""
    n = S[O_N]
    S[O_PHASE] = PH_END
    S[O_WINNER] = w
    S[O_WINTYPE] = wtype
    S[O_PAYER] = payer
    S[O_WINCARD] = card
    record(S, rec, w, A_WIN, card)
    nf = 0
    if wtype != W_DISCARD:
        nf = prm[R_FLIPS]
        four = 0
        for c in range(4):
            for r in range(N_RANKS):
                k = c * N_RANKS + r
                if S[O_CONC + w * K + k] + S[O_DEAD + w * K + k] + (1 if k == card else 0) >= 2 \
                        or S[O_MELD + w * K + k] > 0:
                    four += 1
                    break
        if four == 4 and wtype == W_SELF:
            nf = 0  # a four-colour self-draw has no bonus flips
    flips = np.zeros(nf, dtype=np.int64)
    for i in range(nf):
        flips[i] = draw(S, st)
        record(S, rec, w, A_FLIP, flips[i])
    tou, ncol, pts, kzw = score_win(S, prm, w, wtype, card, flips)
    S[O_COLOURS] = ncol
    S[O_KZWAIT] = kzw
    S[O_FLIPPTS] = pts
    S[O_TOU] = tou
    if wtype == W_DISCARD and prm[R_DISC_ONLY]:
        S[O_PAY + payer] -= tou
        S[O_PAY + w] += tou
    elif wtype == W_STOCK and prm[R_TURNER_PAYS]:
        S[O_PAY + S[O_SHOWER]] -= tou
        S[O_PAY + w] += tou
    else:
        for s in range(n):
            if s != w:
                S[O_PAY + s] -= tou
                S[O_PAY + w] += tou


@njit(cache=True, inline="always")
def _show(S, k, seat, mode):
    S[O_PHASE] = PH_SHOWN
    S[O_SHOWN] = k
    S[O_SHOWER] = seat
    S[O_MODE] = mode


@njit(cache=True)
def discard(S, s, k, rec):
    """Seat s discards a concealed card of kind k (its choice); the card is shown."""
    S[O_CONC + s * K + k] -= 1
    S[O_PUB + k] += 1
    update_wait(S, s)
    record(S, rec, s, A_DISCARD, k)
    _show(S, k, s, M_DISCARD)


@njit(cache=True, inline="always")
def _order(S, prm, i):
    """The i-th seat in the order that may win or eat the shown card (§9.2.2)."""
    n = S[O_N]
    s = S[O_SHOWER] + i
    if S[O_MODE] == M_DISCARD or not prm[R_TURNER_FIRST]:
        s += 1
    # s < 2n: a subtraction instead of a division, on the hottest path of the engine
    return s - n if s >= n else s


@njit(cache=True)
def advance(S, prm, st, rec):
    """Play forced steps until a seat must choose a discard (returns it) or the deal ends (−1)."""
    n = S[O_N]
    while True:
        ph = S[O_PHASE]
        if ph == PH_END:
            return -1
        if ph == PH_DISCARD:
            s = S[O_ACTOR]
            h = S[O_DQH + s]
            if h == S[O_DQT + s]:
                return s
            k = S[O_DQ + s * DQ_LEN + h]  # dead cards go first, oldest first
            S[O_DQH + s] = h + 1
            S[O_DEAD + s * K + k] -= 1
            update_wait(S, s)
            record(S, rec, s, A_FORCED, k)
            _show(S, k, s, M_DISCARD)
            continue
        # PH_SHOWN
        k = S[O_SHOWN]
        cnt = n - 1 if S[O_MODE] == M_DISCARD else n
        for i in range(cnt):
            s = _order(S, prm, i)
            if S[O_WAIT + s] == k:  # winning comes before eating
                if S[O_MODE] == M_DISCARD:
                    settle(S, prm, s, W_DISCARD, S[O_SHOWER], k, st, rec)
                elif s == S[O_SHOWER]:
                    settle(S, prm, s, W_SELF, -1, k, st, rec)
                else:
                    settle(S, prm, s, W_STOCK, -1, k, st, rec)
                return -1
        eater = -1
        for i in range(cnt):
            s = _order(S, prm, i)
            h = S[O_CONC + s * K + k] + S[O_DEAD + s * K + k]
            if h == 1 or (h == 3 and prm[R_EAT3]):
                if eater < 0:
                    eater = s
                    base = s * K + k
                    if h == 3:
                        S[O_KZ + s] += 1  # 開招: the fourth card to a triple
                    if S[O_DEAD + base] > 0:
                        # the face-up dead card makes the pair: take it out of the dead queue
                        S[O_DEAD + base] -= 1
                        q = O_DQ + s * DQ_LEN
                        j = S[O_DQH + s]
                        while S[q + j] != k:
                            j += 1
                        while j + 1 < S[O_DQT + s]:
                            S[q + j] = S[q + j + 1]
                            j += 1
                        S[O_DQT + s] -= 1
                    else:
                        S[O_CONC + base] -= 1
                        S[O_PUB + k] += 1
                    S[O_MELD + base] += 1
                    record(S, rec, s, A_KAIZHAO if h == 3 else A_EAT, k)
                elif S[O_DEAD + s * K + k] == 0:
                    # a seat that could eat but comes later lays its single face up (死牌)
                    S[O_CONC + s * K + k] -= 1
                    S[O_DEAD + s * K + k] += 1
                    S[O_DQ + s * DQ_LEN + S[O_DQT + s]] = k
                    S[O_DQT + s] += 1
                    S[O_PUB + k] += 1
                    record(S, rec, s, A_DEAD, k)
        if eater >= 0:
            S[O_PHASE] = PH_DISCARD
            S[O_ACTOR] = eater
            continue
        S[O_PILE + k] += 1
        turner = (S[O_SHOWER] + 1) % n
        if N_CARDS - S[O_POS] <= prm[R_RESERVE]:
            S[O_PHASE] = PH_END  # 流局: the banker stays
            return -1
        c = draw(S, st)
        S[O_PUB + c] += 1
        S[O_TURNS] += 1
        record(S, rec, turner, A_TURN, c)
        _show(S, c, turner, M_TURN)


@njit(cache=True)
def next_banker(S):
    """The banker of the next deal of a session: the winner; after a draw the banker stays."""
    w = S[O_WINNER]
    return S[O_BANKER] if w < 0 else w
