"""The game engine (RULES.md §4–§5): one deal from dealt hands to payments, inlined into the play kernel.

One compiled kernel serves every rule set: the RuleSet and the catalogue arrive as int64
arrays (`tables.pack_params`, `tables.build_tables`; layouts in `layout.py`), so rule sets
differ only in data. Nothing allocates per move; the optional trace goes into preallocated
int arrays that `sim/trace.py` turns into the INTERFACES.md JSON.

Decisions go through the registry's `choose_*` (strategies/registry.py), which see only the
observation array `obs` (public facts plus the decider's own hand): the engine keeps the
hands to itself. The engine sits above the strategies because numba inlines only calls it can
resolve statically: strategies passed in as function arguments were not inlined and cost
40–50 % of the engine's speed (benchmarks/README.md, "Engine").
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..game.settlement import settle_kernel
from ..kernels.layout import (
    RB_AMOUNT, RB_PAID, RB_SEAT, RB_TYPE, RN_BONUSES, RN_PLAYS, RN_TRICKS, RP_ACTION, RP_SEAT, RP_TILES,
    RP_TRICK, RT_DONG, RT_LEADER, RT_WINNER,
    ACT_BEAT, ACT_DISCARD, ACT_LEAD, B_QUARTET, B_SUPREME, B_SUPREME_CLOSE, C_BEAT, C_BEATEN, C_LED,
    O_ACTIVE, O_BANKER, O_CAUGHT, O_DISC, O_DONG, O_FIRST_LEAD, O_FOLDED, O_FORCED, O_HAND, O_HAND_SIZE,
    O_LAST, O_LEAD_PLAY, O_PEND_LEADER, O_PEND_WINNER,
    O_LEAD_SIZE, O_LEADER, O_LED, O_PLAYERS, O_SEAT, O_SEEN, O_SHOWN, O_STREAK, O_TILES, O_TO_ACT,
    O_TRICK, O_TRICK_SEEN, O_WIN_IS_LEAD, O_WIN_PLAY, O_WIN_SEAT, OBS_LEN, P_CLS, P_MASK, P_SIZE,
    R_BANKER_MULT, R_BASELINE, R_CLOSE_REWARD, R_FOLD, R_FOLD_COST, R_PLAYERS,
    R_QUARTET_BONUS, R_QUARTET_CLASS, R_RESIDUAL, R_SUPREME_BONUS,
    R_SUPREME_CLOSE, R_SUPREME_PLAY, R_SUSPENDED, R_SWEEP, R_TILES, R_ZA8_PAIR
)
from ..kernels.legality import combo_tiles, dice_suit, may_fold
from ..kernels.rng import randbelow
from ..strategies.registry import choose_fold, choose_follow, choose_lead


@njit(cache=True, inline="always")
def _give(bonus, folded, btype, receiver, per):
    """Every active seat but `receiver` pays `per`; returns the receiver's total."""
    total = 0
    for s in range(folded.shape[0]):
        if s != receiver and folded[s] == 0:
            bonus[s, btype] -= per
            total += per
    bonus[receiver, btype] += total
    return total


@njit(cache=True, inline="always")
def _next_seat(seat, k, n_players):
    """(seat + k) % n_players for 0 <= k < n_players, without an integer division (one per follower was ~10% of greedy)."""
    s = seat + k
    return s - n_players if s >= n_players else s


@njit(cache=True, inline="always")
def _has_multi(hand, tabs):
    return combo_tiles(hand, tabs) != 0


@njit(cache=True, inline="always")
def _residual_suit(hand, params, st_dice):
    """§4.7: roll two dice and return the suit mask the lead must come from."""
    d1 = 1 + randbelow(st_dice, 6)
    d2 = 1 + randbelow(st_dice, 6)
    return dice_suit(params, hand, d1 + d2)


@njit(cache=True, inline="always")
def _record_play(rec_plays, rec_n, ri, trick, seat, act, mask):
    """Append one play to slab `ri` of the trace record."""
    r = rec_n[ri, RN_PLAYS]
    rec_plays[ri, r, RP_TRICK] = trick
    rec_plays[ri, r, RP_SEAT] = seat
    rec_plays[ri, r, RP_ACTION] = act
    rec_plays[ri, r, RP_TILES] = mask
    rec_n[ri, RN_PLAYS] = r + 1


@njit(cache=True, inline="always")
def _record_bonus(rec_bonus, ri, nb, btype, seat, amount):
    """Write bonus entry `nb` of slab `ri` (paid: column 3 = 1)."""
    rec_bonus[ri, nb, RB_TYPE] = btype
    rec_bonus[ri, nb, RB_SEAT] = seat
    rec_bonus[ri, nb, RB_AMOUNT] = amount
    rec_bonus[ri, nb, RB_PAID] = 1


@njit(cache=True, inline="always")
def deal_scratch(players):
    """Scratch arrays of `play_deal`, made once per chunk: obs, buf, kv, hands, dong, folded, pay, bonus."""
    return (np.zeros(OBS_LEN, dtype=np.int64), np.zeros(128, dtype=np.int64), np.zeros(32, dtype=np.float64),
            np.zeros(players, dtype=np.int64), np.zeros(players, dtype=np.int64),
            np.zeros(players, dtype=np.int64), np.zeros(players, dtype=np.int64),
            np.zeros((players, 3), dtype=np.int64))


@njit(cache=True, inline="always")
def play_deal(hands0, banker, streak, policies, prow, params, tabs,
              st_play, st_dice, obs, buf, kv, hands, dong, folded, pay, bonus,
              rec_plays, rec_tricks, rec_bonus, rec_n, ri, counts, search):
    """Play one deal from `hands0`; fills dong, folded, pay (net, bonuses included), bonus[seat, type].

    Seat s decides with policy id `policies[prow, s]` through the registry's `choose_fold`,
    `choose_lead` and `choose_follow`, which get the observation only (the hands go to `oracle`
    alone; `search` is the search strategies' scratch, None when no seat searches).
    (A row index, not a row: a view per deal would cost a reference count on the shared array.)

    Returns the closer (結) or -1 for a void deal. Records the trace into slab `ri` of the 3-D
    record arrays when they have slabs, and counts classes led / beat with / beaten when
    counts has rows.
    """
    pt = tabs
    n_players = params[R_PLAYERS]
    record = rec_plays.shape[0] > 0
    count = counts.shape[0] > 0
    for i in range(obs.shape[0]):
        obs[i] = 0
    for s in range(n_players):
        hands[s] = hands0[s]
        dong[s] = 0
        folded[s] = 0
        pay[s] = 0
        for t in range(3):
            bonus[s, t] = 0
    if record:
        rec_n[ri, RN_PLAYS] = 0
        rec_n[ri, RN_TRICKS] = 0
        rec_n[ri, RN_BONUSES] = 0
    tiles = params[R_TILES]
    obs[O_BANKER] = banker
    obs[O_PLAYERS] = n_players
    obs[O_TILES] = tiles
    obs[O_STREAK] = streak
    obs[O_PEND_LEADER] = -1
    obs[O_PEND_WINNER] = -1
    obs[O_CAUGHT] = -1

    # §4.6 fold, seats in order from the banker.
    active = n_players
    if params[R_FOLD] != 0:
        for k in range(n_players):
            s = _next_seat(banker, k, n_players)
            obs[O_SEAT] = s
            obs[O_HAND] = hands[s]
            obs[O_HAND_SIZE] = tiles
            obs[O_ACTIVE] = active
            if may_fold(obs, params) and choose_fold(policies[prow, s], obs, tabs, params, st_play,
                                                            hands, search):
                folded[s] = 1
                obs[O_FOLDED + s] = 1
                active -= 1
    obs[O_ACTIVE] = active
    if active < 2:
        return np.int64(-1)

    leader = banker
    while folded[leader]:
        leader = _next_seat(leader, 1, n_players)
    h = tiles
    trick = 0
    sup = params[R_SUPREME_PLAY]
    za8 = params[R_ZA8_PAIR]
    qcls = params[R_QUARTET_CLASS]
    pending = -1          # rec index / flag of a suspended 賀尊
    pending_leader = -1
    pending_winner = -1
    close_stands = False
    catcher = -1
    nb = 0
    while h > 0:
        obs[O_TRICK] = trick
        obs[O_TRICK_SEEN] = 0
        obs[O_LEADER] = leader
        obs[O_LEAD_PLAY] = -1
        obs[O_WIN_PLAY] = -1
        obs[O_LEAD_SIZE] = 0
        obs[O_LAST] = 0
        obs[O_SEAT] = leader
        obs[O_HAND] = hands[leader]
        obs[O_HAND_SIZE] = h
        obs[O_TO_ACT] = active - 1
        forced = 0
        if (params[R_RESIDUAL] != 0 and n_players > 2 and (h == 2 or h == 3)
                and not _has_multi(hands[leader], tabs)):
            forced = _residual_suit(hands[leader], params, st_dice)
        obs[O_FORCED] = forced
        lead = choose_lead(policies[prow, leader], obs, tabs, params, st_play, buf, hands, search)
        obs[O_FORCED] = 0
        m = pt[lead, P_MASK]
        size = pt[lead, P_SIZE]
        first_lead = obs[O_LED + leader] == 0
        hands[leader] &= ~m
        last = size == h
        obs[O_LED + leader] = 1
        obs[O_SEEN] |= m
        obs[O_TRICK_SEEN] |= m
        obs[O_SHOWN + leader] |= m
        obs[O_LEAD_PLAY] = lead
        obs[O_LEAD_SIZE] = size
        obs[O_WIN_PLAY] = lead
        obs[O_WIN_SEAT] = leader
        obs[O_WIN_IS_LEAD] = 1
        obs[O_LAST] = 1 if last else 0
        obs[O_FIRST_LEAD] = 1 if first_lead else 0
        obs[O_CAUGHT] = -1
        if record:
            _record_play(rec_plays, rec_n, ri, trick, leader, ACT_LEAD, m)
        if count:
            counts[C_LED, pt[lead, P_CLS]] += 1
        win_play = lead
        win_seat = leader
        n_beats = 0
        to_act = active - 1
        for k in range(1, n_players):
            s = _next_seat(leader, k, n_players)
            if folded[s]:
                continue
            to_act -= 1
            obs[O_SEAT] = s
            obs[O_HAND] = hands[s]
            obs[O_TO_ACT] = to_act
            p, disc = choose_follow(policies[prow, s], obs, tabs, params, st_play, buf, kv, hands, search)
            if p >= 0:
                if lead == sup and win_seat == leader:
                    obs[O_CAUGHT] = s
                pm = pt[p, P_MASK]
                hands[s] &= ~pm
                obs[O_SEEN] |= pm
                obs[O_TRICK_SEEN] |= pm
                obs[O_SHOWN + s] |= pm
                if count:
                    counts[C_BEAT, pt[p, P_CLS]] += 1
                    counts[C_BEATEN, pt[win_play, P_CLS]] += 1
                win_play = p
                win_seat = s
                n_beats += 1
                obs[O_WIN_PLAY] = p
                obs[O_WIN_SEAT] = s
                obs[O_WIN_IS_LEAD] = 0
                act = ACT_BEAT
                pm_rec = pm
            else:
                hands[s] &= ~disc
                obs[O_DISC + s] += size
                act = ACT_DISCARD
                pm_rec = disc
            if record:
                _record_play(rec_plays, rec_n, ri, trick, s, act, pm_rec)
        dong[win_seat] += size
        obs[O_DONG + win_seat] += size
        if record:
            rec_tricks[ri, trick, RT_LEADER] = leader
            rec_tricks[ri, trick, RT_WINNER] = win_seat
            rec_tricks[ri, trick, RT_DONG] = size
            rec_n[ri, RN_TRICKS] = trick + 1

        # §5.4 bonuses arising from this trick.
        if lead == sup:
            if last and params[R_SUPREME_CLOSE] != 0:
                if win_seat == leader:
                    close_stands = True
                elif win_play == za8 and n_beats == 1:
                    catcher = win_seat
            elif (not last) and first_lead and params[R_SUPREME_BONUS] > 0:
                if win_seat != leader and params[R_SUSPENDED] != 0:
                    pending = nb
                    pending_leader = leader
                    pending_winner = win_seat
                    obs[O_PEND_LEADER] = leader
                    obs[O_PEND_WINNER] = win_seat
                    amount = np.int64(0)
                else:
                    amount = _give(bonus, folded, B_SUPREME, leader, params[R_SUPREME_BONUS])
                if record:
                    _record_bonus(rec_bonus, ri, nb, B_SUPREME, leader, amount)
                nb += 1
        if pt[lead, P_CLS] == qcls and params[R_QUARTET_BONUS] > 0:
            amount = _give(bonus, folded, B_QUARTET, win_seat, params[R_QUARTET_BONUS])
            if record:
                _record_bonus(rec_bonus, ri, nb, B_QUARTET, win_seat, amount)
            nb += 1
        h -= size
        leader = win_seat
        trick += 1

    closer = leader
    if pending >= 0:
        # A suspended 賀尊 is paid unless the player who beat the 至尊 closes.
        if pending_winner == closer:
            if record:
                rec_bonus[ri, pending, RB_PAID] = 0
        else:
            amount = _give(bonus, folded, B_SUPREME, pending_leader, params[R_SUPREME_BONUS])
            if record:
                rec_bonus[ri, pending, RB_AMOUNT] = amount
    settle_kernel(dong, closer, banker, streak, folded, params[R_BASELINE], params[R_BANKER_MULT] != 0,
                  params[R_SWEEP], 1, params[R_FOLD_COST], pay)
    if close_stands:
        # 包尊 doubles the settlement: the extra is the single settlement once more. A folded
        # seat's fold cost is outside the settlement and every bonus (RULES.md §4.6): not doubled.
        extra = 0
        for s in range(n_players):
            if s != closer and folded[s] == 0:
                bonus[s, B_SUPREME_CLOSE] += pay[s]
                extra -= pay[s]
        bonus[closer, B_SUPREME_CLOSE] += extra
        if record:
            _record_bonus(rec_bonus, ri, nb, B_SUPREME_CLOSE, closer, extra)
        nb += 1
    if catcher >= 0 and params[R_CLOSE_REWARD] > 0:
        amount = _give(bonus, folded, B_SUPREME_CLOSE, catcher, params[R_CLOSE_REWARD])
        if record:
            _record_bonus(rec_bonus, ri, nb, B_SUPREME_CLOSE, catcher, amount)
        nb += 1
    if record:
        rec_n[ri, RN_BONUSES] = nb
    for s in range(n_players):
        pay[s] += bonus[s, 0] + bonus[s, 1] + bonus[s, 2]
    return closer
