"""`tjsim review`: each decision of one seat in a game trace against what `pimc` and `oracle` would play.

For every play of the seat with a choice (two or more distinct legal actions), the seat's
observation at that moment is rebuilt from the trace's public history (sim/advise.py) and
valued as `pimc` values it: W worlds, the action played and every candidate in the same worlds.
The loss of the decision is (mean value of pimc's best action) − (mean value of the action
played), with a 95% interval over the worlds (paired). `oracle` does the same in the true deal
(it sees every hand; no interval: one world). Fold decisions are not plays and are not reviewed.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import TjsimError
from ..game.catalogue import catalogue
from ..game.rules import RuleSet
from ..game.tiles import BB_FOLK_SUIT, TILE_KIND, parse_hand
from ..kernels.layout import O_FORCED, O_LEAD_PLAY, P_MASK, STREAMS
from ..kernels.position import BEAT, DISCARD, LEAD, position_from_trace
from ..kernels.rng import seed_stream
from ..kernels.tables import pack_params, tables
from ..stats import mean_ci_of
from ..strategies import names
from ..strategies import search as S
from .advise import history_of_trace, observation

STREAM_REVIEW = STREAMS["advise"]


@dataclass(frozen=True)
class Decision:
    """One reviewed decision: what was played, pimc's and oracle's best, and the losses in 戙."""

    at: int
    trick: int
    action: str
    mask: int
    pimc_action: str
    pimc_mask: int
    pimc_loss: float
    pimc_low: float
    pimc_high: float
    oracle_action: str
    oracle_mask: int
    oracle_loss: float


def canonical(mask: int, hand: int) -> int:
    """The same tiles with each copy swapped for the lower copy of its kind when the hand holds both."""
    out = mask
    for b in range(32):
        if out >> b & 1:
            for t in range(b):
                if TILE_KIND[t] == TILE_KIND[b] and hand >> t & 1 and not out >> t & 1:
                    out = (out & ~(1 << b)) | (1 << t)
                    break
    return out


def _code(cat, action: str, mask: int) -> int:
    if action == DISCARD:
        return -(mask + 1)
    p = cat.find(mask)
    if p < 0:
        raise TjsimError(f"the trace plays {mask:#x}, which is not a play of the rule set")
    return p


def _decode(tabs, code: int, lead: bool) -> tuple[str, int]:
    if code < 0:
        return DISCARD, -code - 1
    return (LEAD if lead else BEAT), int(tabs[code, P_MASK])


def review(rules: RuleSet, trace: dict, seat: int, worlds: int = 64, seed: int = 0,
           horizon: int | None = None, oracle_horizon: int | None = None) -> list[Decision]:
    """Every decision of `seat` with a choice, in trace order (sort by loss to find the blunders).

    The horizons default to pimc's and oracle's for the number of players and the dice (names.default_horizon).
    """
    horizon = names.default_horizon(rules.players, oracle=False, dice=rules.dice_on) if horizon is None else horizon
    oracle_horizon = names.default_horizon(rules.players, oracle=True) if oracle_horizon is None else oracle_horizon
    if not 0 <= seat < rules.players:
        raise TjsimError(f"--seat must be a seat 0 to {rules.players - 1}, got {seat}")
    if not 1 <= worlds <= S.MAX_WORLDS:
        raise TjsimError(f"--worlds must be 1 to {S.MAX_WORLDS}, got {worlds}")
    if seat in trace.get("folded", []):
        raise TjsimError(f"seat {seat} folded in this deal: it made no plays to review")
    cat = catalogue(rules)
    tabs, params = tables(rules), pack_params(rules)
    scr = S.search_scratch(S.search_tables(rules), rules.players)
    buf = np.zeros(128, dtype=np.int64)
    st = np.zeros(4, dtype=np.uint64)
    plays = [(t, p) for t, trick in enumerate(trace.get("tricks", [])) for p in trick["plays"]]
    out = []
    for at, (trick, play) in enumerate(plays):
        if play["seat"] != seat:
            continue
        pos = position_from_trace(rules, trace, at)
        hand = pos.hands[seat]
        mask = canonical(parse_hand(" ".join(play["tiles"])), hand)
        obs = observation(rules, pos, history_of_trace(rules, trace, at), throw=None) if not _dice(rules, pos) \
            else _dice_obs(rules, pos, trace, at, mask)
        lead = int(obs[O_LEAD_PLAY]) < 0
        taken = _code(cat, play["action"], mask)
        seed_stream(st, np.uint64(seed), STREAM_REVIEW, at)
        nc = S.evaluate(obs, np.zeros(rules.players, np.int64), worlds, horizon, 0, 0, 1, taken,
                        tabs, params, st, buf, scr)
        if nc < 2:
            continue  # no choice
        cand = [int(c) for c in scr[14][:nc]]
        vals = scr[15][:worlds, :nc].copy()
        ti = cand.index(taken)
        means = vals.mean(axis=0)
        best = int(np.argmax(means))
        m, _, lo, hi = mean_ci_of(vals[:, best] - vals[:, ti])
        true = np.array(pos.hands, dtype=np.int64)
        S.evaluate(obs, true, 0, oracle_horizon, 0, 0, 1, taken, tabs, params, st, buf, scr)
        ov = scr[15][0, :nc].copy()
        ob = int(np.argmax(ov))
        pa, pm = _decode(tabs, cand[best], lead)
        oa, om = _decode(tabs, cand[ob], lead)
        out.append(Decision(at, trick, play["action"], mask, pa, pm, float(m),
                            float(lo) if best != ti else 0.0, float(hi) if best != ti else 0.0,
                            oa, om, float(ov[ob] - ov[ti])))
    return out


def _dice(rules: RuleSet, pos) -> bool:
    from .advise import combo_tiles_of
    hand = pos.hands[pos.leader]
    return (not pos.trick and rules.residual_dice and rules.players > 2 and bin(hand).count("1") in (2, 3)
            and combo_tiles_of(rules, hand) == 0)


def _dice_obs(rules: RuleSet, pos, trace: dict, at: int, mask: int):
    """A dice lead: the suit the dice gave is the suit of the tile led (only its singles were legal)."""
    obs = observation(rules, pos, history_of_trace(rules, trace, at), throw=7)
    for suit in BB_FOLK_SUIT.values():
        if suit & mask:
            obs[O_FORCED] = suit
    return obs
