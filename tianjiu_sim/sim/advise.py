"""`tjsim advise` (RULES.md §8): each legal action of the seat to act, valued over worlds it cannot tell apart.

The seat's observation is rebuilt from the position and the public history (what was played
face up, how many tiles each seat discarded face down, 戙, folds, the bonus state); the other
hands are never read. `pimc`'s own evaluation (strategies/search.evaluate) then scores every
candidate in the same W worlds, and again with closing as the tie-break, which gives the
probability that the seat closes (結) on the solved line in each world.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import TjsimError
from ..game.catalogue import catalogue
from ..game.rules import RuleSet
from ..game.tiles import BB_FOLK_SUIT, FULL_MASK, popcount
from ..kernels.layout import (
    O_ACTIVE, O_BANKER, O_CAUGHT, O_DISC, O_DONG, O_FIRST_LEAD, O_FOLDED, O_FORCED, O_HAND, O_HAND_SIZE,
    O_LAST, O_LEAD_PLAY, O_LEAD_SIZE, O_LEADER, O_LED, O_PEND_LEADER, O_PEND_WINNER, O_PLAYERS, O_SEAT,
    O_SEEN, O_SHOWN, O_STREAK, O_TILES, O_TO_ACT, O_TRICK, O_TRICK_SEEN, O_WIN_IS_LEAD, O_WIN_PLAY,
    O_WIN_SEAT, OBS_LEN, P_MASK, STREAMS
)
from ..kernels.position import BEAT, DISCARD, LEAD, Position
from ..kernels.rng import seed_stream
from ..kernels.solver import CLOSE_EPS
from ..kernels.tables import pack_params, tables
from ..stats import mean_ci_of
from ..strategies import search as S
from ..strategies.names import default_horizon

STREAM_ADVISE = STREAMS["advise"]


@dataclass(frozen=True)
class History:
    """What the table saw before the trick in progress: face-up tiles and face-down discard counts per seat."""

    shown: tuple[int, ...]
    discarded: tuple[int, ...]
    seen: int = 0  # tiles seen face up whose seat is not known (a position given by its hands)
    tricks: int = 0  # tricks completed


def history_of_deal(rules: RuleSet, pos: Position) -> History:
    """A position given by its hands only: every tile out of the hands counts as seen face up."""
    n = rules.players
    out = FULL_MASK
    for h in pos.hands:
        out &= ~h
    for _, _, m in pos.trick:
        out &= ~m
    # Which seat showed which tile does not matter to the worlds, only the union (seen) and
    # each seat's hand size: the sizes are carried by the discard counts.
    disc = [0] * n
    for s in range(n):
        if s not in pos.folded:
            played = sum(popcount(m) for t, _, m in pos.trick if t == s)
            disc[s] = rules.tiles_per_player - popcount(pos.hands[s]) - played
    return History((0,) * n, tuple(disc), out, 0)


def history_of_trace(rules: RuleSet, trace: dict, at: int) -> History:
    """The public history of a trace before the trick that holds its `at`-th play."""
    from ..game.tiles import parse_hand
    n = rules.players
    shown = [0] * n
    disc = [0] * n
    k = 0
    for tricks, trick in enumerate(trace.get("tricks", [])):
        plays = trick["plays"]
        if k + len(plays) > at:
            return History(tuple(shown), tuple(disc), 0, tricks)
        for p in plays:
            m = parse_hand(" ".join(p["tiles"]))
            if p["action"] == DISCARD:
                disc[p["seat"]] += popcount(m)
            else:
                shown[p["seat"]] |= m
        k += len(plays)
    return History(tuple(shown), tuple(disc), 0, len(trace.get("tricks", [])))


def observation(rules: RuleSet, pos: Position, hist: History, throw: int | None = None,
                forced_suit: int | None = None) -> np.ndarray:
    """The observation (layout.OBSERVATION) of the seat to act at `pos`: its hand and public facts only.

    A lead after the residual-tile dice takes the throw's total (`throw`) or the suit it gave
    (`forced_suit`, a tile mask)."""
    n = rules.players
    cat = catalogue(rules)
    seat = pos.to_act()
    obs = np.zeros(OBS_LEN, dtype=np.int64)
    obs[O_SEAT] = seat
    obs[O_HAND] = pos.hands[seat]
    obs[O_BANKER] = pos.banker
    obs[O_PLAYERS] = n
    obs[O_ACTIVE] = n - len(pos.folded)
    obs[O_TILES] = rules.tiles_per_player
    obs[O_STREAK] = pos.streak
    obs[O_TRICK] = hist.tricks
    obs[O_LEADER] = pos.leader
    obs[O_PEND_LEADER], obs[O_PEND_WINNER] = pos.pending if pos.pending else (-1, -1)
    obs[O_CAUGHT] = -1
    seen = 0
    for s in range(n):
        shown = hist.shown[s]
        for t_seat, action, m in pos.trick:
            if t_seat == s and action != DISCARD:
                shown |= m
        obs[O_SHOWN + s] = shown
        seen |= shown
        d = hist.discarded[s] + sum(popcount(m) for t_seat, a, m in pos.trick if t_seat == s and a == DISCARD)
        obs[O_DISC + s] = d
        obs[O_DONG + s] = pos.dong[s]
        obs[O_FOLDED + s] = 1 if s in pos.folded else 0
        obs[O_LED + s] = 1 if s in pos.has_led else 0
    obs[O_SEEN] = seen | hist.seen
    obs[O_LEAD_PLAY] = -1
    obs[O_WIN_PLAY] = -1
    if pos.trick:
        lead_mask = pos.trick[0][2]
        lead_p = cat.find(lead_mask)
        win_p, win_seat, is_lead = pos.standing()
        obs[O_LED + pos.leader] = 1
        obs[O_FIRST_LEAD] = 0 if pos.leader in pos.has_led else 1
        obs[O_LEAD_PLAY] = lead_p
        obs[O_LEAD_SIZE] = popcount(lead_mask)
        obs[O_WIN_PLAY] = win_p
        obs[O_WIN_SEAT] = win_seat
        obs[O_WIN_IS_LEAD] = 1 if is_lead else 0
        obs[O_LAST] = 1 if pos.hands[pos.leader] == 0 else 0
        obs[O_HAND_SIZE] = popcount(pos.hands[pos.leader]) + popcount(lead_mask)
        obs[O_TRICK_SEEN] = sum(m for _, a, m in pos.trick if a != DISCARD)
        if lead_p == cat.supreme:
            beats = [s for s, a, _ in pos.trick if a == BEAT]
            obs[O_CAUGHT] = beats[0] if beats else -1
        to_act = 0
        s = pos.next_active(seat)
        while s != pos.leader:
            to_act += 1
            s = pos.next_active(s)
        obs[O_TO_ACT] = to_act
    else:
        obs[O_HAND_SIZE] = popcount(pos.hands[seat])
        obs[O_TO_ACT] = obs[O_ACTIVE] - 1
        obs[O_FORCED] = forced_suit if forced_suit is not None else _forced(rules, pos, throw)
    return obs


def _forced(rules: RuleSet, pos: Position, throw: int | None) -> int:
    """The residual-dice suit the leader must lead from (§4.7), from the throw; 0 when no dice."""
    hand = pos.hands[pos.leader]
    dice = (rules.residual_dice and rules.players > 2 and popcount(hand) in (2, 3)
            and combo_tiles_of(rules, hand) == 0)
    if not dice:
        if throw is not None:
            raise TjsimError("--throw: no residual-tile dice are thrown before this lead")
        return 0
    if throw is None:
        raise TjsimError("the residual-tile dice are thrown before this lead (RULES.md §4.7): "
                         "give the throw's total with --throw 2..12")
    if not 2 <= throw <= 12:
        raise TjsimError(f"--throw must be a dice total 2 to 12, got {throw}")
    order = [BB_FOLK_SUIT["宫"], BB_FOLK_SUIT["杂"], BB_FOLK_SUIT["幺"]]
    suit = order[0] if throw >= rules.dice_gong_min else order[1] if throw >= rules.dice_za_min else order[2]
    if not hand & suit:
        suit = next(m for m in order if hand & m)
    return suit


def combo_tiles_of(rules: RuleSet, hand: int) -> int:
    """Tiles of the hand in some multi-tile play it can make (no dice for them, §4.7)."""
    cat = catalogue(rules)
    out = 0
    for p in range(cat.n):
        m = int(cat.mask[p])
        if cat.size[p] > 1 and m & hand == m:
            out |= m
    return out


@dataclass(frozen=True)
class Advice:
    """One candidate action with its mean value over the worlds, 95% CI and P(close)."""

    action: str
    mask: int
    mean: float
    ci_low: float
    ci_high: float
    p_close: float


def advise(rules: RuleSet, pos: Position, hist: History, worlds: int, seed: int,
           horizon: int | None = None, throw: int | None = None,
           forced_suit: int | None = None) -> tuple[int, list[Advice], int]:
    """(seat, candidates valued over `worlds` worlds drawn from the seat's observation, index of the best)."""
    seat = pos.to_act()
    if seat < 0:
        raise TjsimError("the deal is over at that point: nothing to advise")
    if horizon is None:
        horizon = default_horizon(rules.players, oracle=False, dice=rules.dice_on)
    if not 1 <= worlds <= S.MAX_WORLDS:
        raise TjsimError(f"--worlds must be 1 to {S.MAX_WORLDS}, got {worlds}")
    obs = observation(rules, pos, hist, throw, forced_suit)
    tabs = tables(rules)
    params = pack_params(rules)
    scr = S.search_scratch(S.search_tables(rules), rules.players)
    buf = np.zeros(128, dtype=np.int64)
    dummy = np.zeros(rules.players, dtype=np.int64)
    values = []
    for tie in (0, 1):
        st = np.zeros(4, dtype=np.uint64)
        seed_stream(st, np.uint64(seed), STREAM_ADVISE, 0)  # the same worlds for both passes
        nc = S.evaluate(obs, dummy, worlds, horizon, tie, 0, 1, -1, tabs, params, st, buf, scr)
        values.append(scr[15][:worlds, :nc].copy())
    cand = scr[14][:nc].copy()
    base, tied = values
    close = np.clip((tied - base) / CLOSE_EPS, 0.0, 1.0)
    lead = int(obs[O_LEAD_PLAY]) < 0
    out = []
    for c in range(nc):
        code = int(cand[c])
        if code >= 0:
            action, mask = (LEAD if lead else BEAT), int(tabs[code, P_MASK])
        else:
            action, mask = DISCARD, -code - 1
        mean, _, lo, hi = mean_ci_of(base[:, c])
        out.append(Advice(action, mask, float(mean), float(lo), float(hi), float(close[:, c].mean())))
    best = max(range(nc), key=lambda i: (out[i].mean, -i))
    return seat, out, best
