"""The game engine (RULES.md §4–§5): one numba kernel plays a whole deal from dealt hands to payments.

One compiled kernel serves every rule set: the RuleSet is packed into an int64 `params` array
(`pack_params`) and the catalogue into index tables (`build_tables`), so rule sets differ only in
data. Nothing allocates per move; the optional trace goes into preallocated int arrays that
`trace.py` turns into the INTERFACES.md JSON.

Decisions go through `strategies.choose_*`, which see only the observation array `obs` (public
facts plus the decider's own hand): the engine keeps the hands to itself.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from ..game.catalogue import Catalogue, catalogue
from .rng import randbelow
from ..game.rules import RuleSet
from ..game.settlement import settle_kernel
from ..strategies.bots import (
    MAX_SEATS, N_PARAMS, OBS_LEN, O_ACTIVE, O_BANKER, O_DISC, O_DONG, O_FOLDED, O_FORCED, O_HAND,
    O_HAND_SIZE, O_LAST, O_LEAD_PLAY, O_LEAD_SIZE, O_LED, O_LEADER, O_PLAYERS, O_SEAT, O_SEEN,
    O_SHOWN, O_STREAK, O_TILES, O_TO_ACT, O_TRICK, O_TRICK_SEEN, O_WIN_IS_LEAD, O_WIN_PLAY,
    O_WIN_SEAT, P_BEATU_FOL, P_BEATU_LED, P_CLS, P_COLS, P_LEADPOS, P_MASK, P_NBEAT, P_NEED, P_RANK, P_SIZE, P_STR, R_BANKER_MULT,
    R_BASELINE, R_CLOSE_REWARD, R_DEAL_ROUND, R_DICE_GONG, R_DICE_ZA, R_EARLY_DEATH, R_FOLD,
    R_FOLD_COST, R_LAO, R_MIN_DONG, R_NCLASSES, R_NPLAYS, R_PLAYERS, R_QUARTET_BONUS,
    R_QUARTET_CLASS, R_RESIDUAL, R_SUIT_GONG, R_SUIT_YAO, R_SUIT_ZA, R_SUPREME_BONUS,
    R_H_CASH, R_H_LEADMIN, R_H_LOSER, R_SUPREME_CLOSE, R_SUPREME_PLAY, R_SUSPENDED, R_SWEEP, R_TILES, R_ZA8_PAIR, T_STR,
    N_PLAYS, N_ROWS, ROW_BF, ROW_BFM, ROW_BL, ROW_BLM, ROW_BY_MASK, ROW_HB, ROW_LEAD_ORDER, ROW_PT,
    ROW_TT, ROW_WEAK, ROW_WEAK_POS, ROW_LEAD_FROM, ROW_LO_MASK, ROW_LO_NEED, ROW_PARTNERS, ROW_SINGLE_LEADPOS, ROW_CHEAP_POS,
    ROW_CHEAP_TILE, choose_fold, choose_follow, choose_lead, combo_tiles, may_fold,
)
from ..game.tiles import BB_FOLK_SUIT, BB_LAO, KIND_BITS, KIND_BY_PIPS

# Trace record layout.
MAX_TRICKS = 16
MAX_PLAYS = MAX_TRICKS * MAX_SEATS
MAX_BONUS = 8
ACT_LEAD, ACT_BEAT, ACT_DISCARD = 0, 1, 2
ACTIONS = ("lead", "beat", "discard")
# Bonus types (column of the per-seat bonus array, `type` in the trace).
B_SUPREME, B_SUPREME_CLOSE, B_QUARTET = 0, 1, 2
BONUS_TYPES = ("supreme", "supreme_close", "quartet")
# Class counters: led, beat with, beaten (class of the standing play that was beaten).
C_LED, C_BEAT, C_BEATEN = 0, 1, 2


def pack_params(rules: RuleSet) -> np.ndarray:
    """The rule set as the engine's int64 parameter array (layout: strategies.R_*)."""
    cat = catalogue(rules)
    p = np.zeros(N_PARAMS, dtype=np.int64)
    p[R_PLAYERS] = rules.players
    p[R_TILES] = rules.tiles_per_player
    p[R_EARLY_DEATH] = rules.early_death
    p[R_MIN_DONG] = rules.early_death_min_dong
    p[R_BASELINE] = rules.baseline
    p[R_BANKER_MULT] = rules.banker_multiplier
    p[R_SWEEP] = rules.sweep_multiplier
    p[R_SUPREME_BONUS] = rules.supreme_bonus
    p[R_SUSPENDED] = rules.supreme_bonus_suspended
    p[R_SUPREME_CLOSE] = rules.supreme_close
    p[R_CLOSE_REWARD] = rules.supreme_close_reward
    p[R_QUARTET_BONUS] = rules.quartet_bonus
    p[R_FOLD] = rules.fold
    p[R_FOLD_COST] = rules.fold_cost
    p[R_RESIDUAL] = rules.residual_dice
    p[R_DICE_GONG] = rules.dice_gong_min
    p[R_DICE_ZA] = rules.dice_za_min
    p[R_DEAL_ROUND] = rules.deal_round
    p[R_SUPREME_PLAY] = cat.supreme
    p[R_QUARTET_CLASS] = cat.quartet_class
    za8 = (1 << KIND_BITS[KIND_BY_PIPS["6-2"].index][0]) | (1 << KIND_BITS[KIND_BY_PIPS["5-3"].index][0])
    p[R_ZA8_PAIR] = cat.find(za8)
    p[R_NPLAYS] = cat.n
    p[R_NCLASSES] = len(cat.classes)
    p[R_LAO] = BB_LAO
    p[R_SUIT_GONG] = BB_FOLK_SUIT["宫"]
    p[R_SUIT_ZA] = BB_FOLK_SUIT["杂"]
    p[R_SUIT_YAO] = BB_FOLK_SUIT["幺"]
    p[R_H_CASH] = 1
    p[R_H_LOSER] = 1
    p[R_H_LEADMIN] = 90
    return p


def _beater_lists(cat: Catalogue, beats: np.ndarray, cheapest_first: bool) -> np.ndarray:
    """Row b: count, then the plays beating b (cheapest first, or ascending by mask)."""
    n = cat.n
    width = int(beats.sum(axis=0).max()) + 1
    out = np.full((n, width), -1, dtype=np.int64)
    for b in range(n):
        idx = [int(a) for a in np.nonzero(beats[:, b])[0]]
        if cheapest_first:
            idx.sort(key=lambda a: (int(cat.rank[a]), int(cat.mask[a])))
        else:
            idx.sort(key=lambda a: int(cat.mask[a]))
        out[b, 0] = len(idx)
        out[b, 1:1 + len(idx)] = idx
    return out


def build_tables(cat: Catalogue) -> np.ndarray:
    """The kernel's tables as one int64 array (layout: strategies.ROW_* / P_* / T_*)."""
    n = cat.n
    nbeat = cat.beats_led.sum(axis=0).astype(np.int64)
    pt = np.zeros((n, P_COLS), dtype=np.int64)
    pt[:, P_MASK] = cat.mask.astype(np.int64)
    pt[:, P_CLS] = cat.cls
    pt[:, P_RANK] = cat.rank
    pt[:, P_SIZE] = cat.size
    pt[:, P_NEED] = cat.need_absent.astype(np.int64)
    pt[:, P_NBEAT] = nbeat
    masks = cat.mask.astype(np.int64)
    for b in range(n):
        pt[b, P_BEATU_LED] = np.bitwise_or.reduce(masks[cat.beats_led[:, b]]) if cat.beats_led[:, b].any() else 0
        pt[b, P_BEATU_FOL] = np.bitwise_or.reduce(masks[cat.beats_follow[:, b]]) if cat.beats_follow[:, b].any() else 0
    tt = np.zeros((32, 2), dtype=np.int64)
    for p in range(n):
        if cat.size[p] == 1:
            c = cat.cls == cat.cls[p]
            lo, hi = int(cat.rank[c].min()), int(cat.rank[c].max())
            strength = 100 * (int(cat.rank[p]) - lo) // max(1, hi - lo)
            pt[p, P_STR] = strength
            bit = int(cat.mask[p]).bit_length() - 1
            tt[bit] = (p, strength)
    by_mask = np.argsort(cat.mask.astype(np.int64), kind="stable").astype(np.int64)
    lead_order = np.array(sorted(range(n), key=lambda p: (-int(cat.size[p]), int(nbeat[p]),
                                                          -int(cat.rank[p]), int(cat.mask[p]))),
                          dtype=np.int64)
    weak = np.array(sorted(range(32), key=lambda b: (int(tt[b, T_STR]), -b)), dtype=np.int64)
    weak_pos = np.zeros(32, dtype=np.int64)
    weak_pos[weak] = np.arange(32)
    if n != N_PLAYS:
        raise ValueError(f"the engine's tables assume {N_PLAYS} plays, the catalogue has {n}")
    # Plays grouped by their highest tile bit, ascending by mask within a group: walking a
    # hand's bits upwards lists its plays in ascending mask order, looking at ~3 plays per tile.
    groups: list[list[int]] = [[] for _ in range(32)]
    for p in sorted(range(n), key=lambda p: int(cat.mask[p])):
        groups[int(cat.mask[p]).bit_length() - 1].append(p)
    hb = np.full((32, 1 + max(len(g) for g in groups)), -1, dtype=np.int64)
    for b, g in enumerate(groups):
        hb[b, 0] = len(g)
        hb[b, 1:1 + len(g)] = g
    lead_pos = np.zeros(n, dtype=np.int64)
    lead_pos[lead_order] = np.arange(n)
    pt[:, P_LEADPOS] = lead_pos
    tab = np.zeros((N_ROWS, N_PLAYS), dtype=np.int64)
    tab[ROW_PT:ROW_PT + n, :P_COLS] = pt
    for row, lst in ((ROW_BL, _beater_lists(cat, cat.beats_led, True)),
                     (ROW_BF, _beater_lists(cat, cat.beats_follow, True)),
                     (ROW_BLM, _beater_lists(cat, cat.beats_led, False)),
                     (ROW_BFM, _beater_lists(cat, cat.beats_follow, False))):
        tab[row:row + n, :lst.shape[1]] = lst
    tab[ROW_TT:ROW_TT + 32, :tt.shape[1]] = tt
    tab[ROW_HB:ROW_HB + 32, :hb.shape[1]] = hb
    tab[ROW_BY_MASK, :n] = by_mask
    tab[ROW_LEAD_ORDER, :n] = lead_order
    tab[ROW_WEAK, :32] = weak
    tab[ROW_WEAK_POS, :32] = weak_pos
    for k in range(5):
        tab[ROW_LEAD_FROM, k] = sum(1 for p in lead_order if cat.size[p] > k)
    tab[ROW_LO_MASK, :n] = pt[lead_order, P_MASK]
    tab[ROW_LO_NEED, :n] = pt[lead_order, P_NEED]
    pairs = [int(m) for m, k in zip(cat.mask, cat.size) if k == 2]
    for b in range(32):
        tab[ROW_PARTNERS, b] = np.bitwise_or.reduce([m & ~(1 << b) for m in pairs if m >> b & 1] or [0])
    single_of = {int(cat.mask[p]).bit_length() - 1: p for p in range(n) if cat.size[p] == 1}
    for b, p in single_of.items():
        tab[ROW_SINGLE_LEADPOS, b] = lead_pos[p]
    cheap = sorted(single_of, key=lambda b: (int(cat.rank[single_of[b]]), int(cat.mask[single_of[b]])))
    tab[ROW_CHEAP_TILE, :32] = cheap
    tab[ROW_CHEAP_POS, cheap] = np.arange(32)
    # greedy_follow relies on it: only singles beat a single.
    for rel in (cat.beats_led, cat.beats_follow):
        if (rel[np.ix_(cat.size != 1, cat.size == 1)]).any():
            raise ValueError("a multi-tile play beats a single (greedy_follow's single fast path)")
    for m, k in zip(cat.mask, cat.size):
        # combo_tiles relies on it: each tile of a larger play is in a two-tile play inside it.
        m = int(m)
        if k > 2 and any(not any(q >> b & 1 and q & m == q for q in pairs) for b in range(32) if m >> b & 1):
            raise ValueError(f"play {m:#x}: a tile is in no two-tile play inside it (combo_tiles)")
    return tab


@lru_cache(maxsize=None)
def _tables_cached(suits: str, civil_supreme: bool, supreme_catcher: bool) -> np.ndarray:
    from ..game.catalogue import _cached
    return build_tables(_cached(suits, civil_supreme, supreme_catcher))


def tables(rules: RuleSet) -> np.ndarray:
    """The kernel's tables for a rule set (cached per catalogue)."""
    return _tables_cached(rules.suits, rules.civil_supreme, rules.supreme_catcher)


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
    total = d1 + d2
    if total >= params[R_DICE_GONG]:
        suit = params[R_SUIT_GONG]
    elif total >= params[R_DICE_ZA]:
        suit = params[R_SUIT_ZA]
    else:
        suit = params[R_SUIT_YAO]
    if hand & suit:
        return suit
    for s in (params[R_SUIT_GONG], params[R_SUIT_ZA], params[R_SUIT_YAO]):
        if hand & s:
            return s
    return suit


@njit(cache=True, inline="always")
def deal_scratch(players):
    """Scratch arrays of `play_deal`, made once per chunk: obs, buf, kv, hands, dong, folded, pay, bonus."""
    return (np.zeros(OBS_LEN, dtype=np.int64), np.zeros(128, dtype=np.int64), np.zeros(32, dtype=np.float64),
            np.zeros(players, dtype=np.int64), np.zeros(players, dtype=np.int64),
            np.zeros(players, dtype=np.int64), np.zeros(players, dtype=np.int64),
            np.zeros((players, 3), dtype=np.int64))


@njit(cache=True, inline="always")
def play_deal(hands0, banker, streak, policies, params, tabs, st_play, st_dice,
              obs, buf, kv, hands, dong, folded, pay, bonus,
              rec_plays, rec_tricks, rec_bonus, rec_n, ri, counts):
    """Play one deal from `hands0`; fills dong, folded, pay (net, bonuses included), bonus[seat, type].

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
        rec_n[ri, 0] = 0
        rec_n[ri, 1] = 0
        rec_n[ri, 2] = 0
    tiles = params[R_TILES]
    obs[O_BANKER] = banker
    obs[O_PLAYERS] = n_players
    obs[O_TILES] = tiles
    obs[O_STREAK] = streak

    # §4.6 fold, seats in order from the banker.
    active = n_players
    if params[R_FOLD] != 0:
        for k in range(n_players):
            s = _next_seat(banker, k, n_players)
            obs[O_SEAT] = s
            obs[O_HAND] = hands[s]
            obs[O_HAND_SIZE] = tiles
            obs[O_ACTIVE] = active
            if may_fold(obs, params) and choose_fold(policies[s], obs, tabs, params, st_play):
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
        lead = choose_lead(policies[leader], obs, tabs, params, st_play, buf)
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
        if record:
            r = rec_n[ri, 0]
            rec_plays[ri, r, 0] = trick
            rec_plays[ri, r, 1] = leader
            rec_plays[ri, r, 2] = ACT_LEAD
            rec_plays[ri, r, 3] = m
            rec_n[ri, 0] = r + 1
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
            p, disc = choose_follow(policies[s], obs, tabs, params, st_play, buf, kv)
            if p >= 0:
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
                r = rec_n[ri, 0]
                rec_plays[ri, r, 0] = trick
                rec_plays[ri, r, 1] = s
                rec_plays[ri, r, 2] = act
                rec_plays[ri, r, 3] = pm_rec
                rec_n[ri, 0] = r + 1
        dong[win_seat] += size
        obs[O_DONG + win_seat] += size
        if record:
            rec_tricks[ri, trick, 0] = leader
            rec_tricks[ri, trick, 1] = win_seat
            rec_tricks[ri, trick, 2] = size
            rec_n[ri, 1] = trick + 1

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
                    amount = np.int64(0)
                else:
                    amount = _give(bonus, folded, B_SUPREME, leader, params[R_SUPREME_BONUS])
                if record:
                    rec_bonus[ri, nb, 0] = B_SUPREME
                    rec_bonus[ri, nb, 1] = leader
                    rec_bonus[ri, nb, 2] = amount
                    rec_bonus[ri, nb, 3] = 1
                nb += 1
        if pt[lead, P_CLS] == qcls and params[R_QUARTET_BONUS] > 0:
            amount = _give(bonus, folded, B_QUARTET, win_seat, params[R_QUARTET_BONUS])
            if record:
                rec_bonus[ri, nb, 0] = B_QUARTET
                rec_bonus[ri, nb, 1] = win_seat
                rec_bonus[ri, nb, 2] = amount
                rec_bonus[ri, nb, 3] = 1
            nb += 1
        h -= size
        leader = win_seat
        trick += 1

    closer = leader
    if pending >= 0:
        # A suspended 賀尊 is paid unless the player who beat the 至尊 closes.
        if pending_winner == closer:
            if record:
                rec_bonus[ri, pending, 3] = 0
        else:
            amount = _give(bonus, folded, B_SUPREME, pending_leader, params[R_SUPREME_BONUS])
            if record:
                rec_bonus[ri, pending, 2] = amount
    settle_kernel(dong, closer, banker, streak, folded, params[R_BASELINE], params[R_BANKER_MULT] != 0,
                  params[R_SWEEP], 1, params[R_FOLD_COST], pay)
    if close_stands:
        # 包尊 doubles the settlement: the extra is the single settlement once more.
        for s in range(n_players):
            bonus[s, B_SUPREME_CLOSE] += pay[s]
        if record:
            rec_bonus[ri, nb, 0] = B_SUPREME_CLOSE
            rec_bonus[ri, nb, 1] = closer
            rec_bonus[ri, nb, 2] = pay[closer]
            rec_bonus[ri, nb, 3] = 1
        nb += 1
    if catcher >= 0 and params[R_CLOSE_REWARD] > 0:
        amount = _give(bonus, folded, B_SUPREME_CLOSE, catcher, params[R_CLOSE_REWARD])
        if record:
            rec_bonus[ri, nb, 0] = B_SUPREME_CLOSE
            rec_bonus[ri, nb, 1] = catcher
            rec_bonus[ri, nb, 2] = amount
            rec_bonus[ri, nb, 3] = 1
        nb += 1
    if record:
        rec_n[ri, 2] = nb
    for s in range(n_players):
        pay[s] += bonus[s, 0] + bonus[s, 1] + bonus[s, 2]
    return closer
