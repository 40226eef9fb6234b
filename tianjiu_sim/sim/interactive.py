"""A person at the table (`tjsim play --interactive`): one seat decided by a person, the others by bots.

The deal is played by the plain-Python reference engine (game/reference.play_with), which holds
the rules, the residual-tile dice, the bonuses and the settlement; this module is its decider.
For the person's seat it asks `ask(view)`; for the others it builds each bot's observation from
the plays so far (sim/advise.observation: what that seat can see) and asks the registry's
compiled strategies, drawing from the deal's play stream as the engine does.

Taking a decision back (`Undo` raised by `ask`) replays the deal from the start with the person's
earlier decisions: the bots' streams restart too, so they decide exactly as before.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..errors import TjsimError
from ..game.catalogue import catalogue
from ..game.reference import deal_reference, play_with, residual_dice_applies
from ..game.rules import RuleSet
from ..game.tiles import BB_FOLK_SUIT, popcount
from ..kernels.layout import (
    O_ACTIVE, O_BANKER, O_FOLDED, O_HAND, O_HAND_SIZE, O_PLAYERS, O_SEAT, O_STREAK, O_TILES, OBS_LEN,
    P_MASK, STREAM_PLAY
)
from ..kernels.position import BEAT, DISCARD, LEAD, Position, advance
from ..kernels.rng import seed_stream
from ..kernels.tables import pack_params, tables
from ..strategies import names
from .advise import History, observation


class Undo(Exception):
    """Raised by `ask` to take back the person's last decision."""


@dataclass
class View:
    """What the person sees at a decision."""

    kind: str                 # "fold", "lead" or "follow"
    seat: int
    hand: int
    pos: Position | None      # None at the fold decision
    history: History | None
    options: list[int]        # legal leads / beats (tile masks); for a follow, discards are any `size` tiles
    size: int = 0             # tiles of the lead (follow)
    forced: str | None = None  # residual-dice suit of a lead
    log: list = field(default_factory=list)  # (seat, action, mask) so far


class TableDecider:
    """The reference engine's decider: the person for one seat, compiled bots for the others."""

    def __init__(self, rules: RuleSet, seed: int, deal: int, policies: list[str], person: int,
                 ask: Callable[[View], tuple[str, int]], script: list, banker: int = 0, streak: int = 1):
        self.rules, self.person, self.ask = rules, person, ask
        self.ids = [names.policy_id(p) for p in policies]
        self.tabs, self.params = tables(rules), pack_params(rules)
        self.st = np.zeros(4, dtype=np.uint64)
        seed_stream(self.st, np.uint64(seed), STREAM_PLAY, deal)
        self.buf = np.zeros(128, dtype=np.int64)
        self.kv = np.zeros(32, dtype=np.float64)
        self.scr = None
        if any(names.is_search(i) for i, s in zip(self.ids, range(rules.players)) if s != person):
            from ..strategies import search
            self.scr = search.search_scratch(search.search_tables(rules), rules.players)
        self.script = list(script)   # the person's earlier decisions, replayed after an undo
        self.decisions: list = []    # the person's decisions in this run
        self.hands0 = deal_reference(rules, seed, deal)
        self.banker, self.streak = banker, streak
        self.folded: set[int] = set()
        self.pos: Position | None = None
        self.log: list = []
        self.done: list = []         # tricks completed: lists of (seat, action, mask)

    # -- state ------------------------------------------------------------------------
    def _position(self) -> Position:
        if self.pos is None:
            n = self.rules.players
            hands = tuple(0 if s in self.folded else self.hands0[s] for s in range(n))
            leader = self.banker
            while leader in self.folded:
                leader = (leader + 1) % n
            self.pos = Position(self.rules, hands, (0,) * n, leader, self.banker, self.streak,
                                frozenset(self.folded), paid=(0,) * n)
        return self.pos

    def _history(self) -> History:
        n = self.rules.players
        shown, disc = [0] * n, [0] * n
        for trick in self.done:
            for s, a, m in trick:
                if a == DISCARD:
                    disc[s] += popcount(m)
                else:
                    shown[s] |= m
        return History(tuple(shown), tuple(disc), 0, len(self.done))

    def _record(self, seat: int, action: str, mask: int) -> None:
        pos = self._position()
        before = len(pos.trick)
        self.pos = advance(self.rules, catalogue(self.rules), pos, action, mask)
        self.log.append((seat, action, mask))
        if not self.pos.trick:  # the trick ended with this play
            self.done.append(self.log[-(before + 1):])

    def _person(self, view: View) -> tuple[str, int]:
        if self.script:
            choice = self.script.pop(0)
        else:
            choice = self.ask(view)
        self.decisions.append(choice)
        return choice

    def _obs(self, forced: str | None) -> np.ndarray:
        """The observation of the seat to act (a dice lead: the suit the dice gave)."""
        return observation(self.rules, self._position(), self._history(),
                           forced_suit=None if forced is None else BB_FOLK_SUIT[forced])

    def _hands(self) -> np.ndarray:
        return np.array(self._position().hands, dtype=np.int64)

    def _ask_at_table(self, kind: str, seat: int, hand: int, options: list[int], **extra) -> tuple[str, int]:
        """The person's decision of `kind`, shown with the position and the history so far."""
        return self._person(View(kind, seat, hand, self._position(), self._history(), options,
                                 log=list(self.log), **extra))

    # -- the decider protocol of game/reference.play_with -------------------------------
    def fold(self, where: str, seat: int, hand: int) -> bool:
        """Fold or not (seats in order from the banker, only those who may)."""
        from ..strategies.registry import choose_fold
        if seat == self.person:
            view = View("fold", seat, hand, None, None, [], log=list(self.log))
            folds = self._person(view)[0] == "fold"
        else:
            obs = np.zeros(OBS_LEN, dtype=np.int64)
            n = self.rules.players
            obs[O_SEAT], obs[O_HAND], obs[O_HAND_SIZE] = seat, hand, self.rules.tiles_per_player
            obs[O_BANKER], obs[O_PLAYERS], obs[O_TILES], obs[O_STREAK] = self.banker, n, self.rules.tiles_per_player, self.streak
            obs[O_ACTIVE] = n - len(self.folded)
            for s in self.folded:
                obs[O_FOLDED + s] = 1
            hands = np.array(self.hands0, dtype=np.int64)
            folds = bool(choose_fold(self.ids[seat], obs, self.tabs, self.params, self.st, hands, self.scr))
        if folds:
            self.folded.add(seat)
        return folds

    def lead(self, where: str, seat: int, hand: int, options: list[int]) -> int:
        """The lead of `seat` among the legal `options`."""
        from ..strategies.registry import choose_lead
        forced = _forced_suit(self.rules, hand, options)
        if seat == self.person:
            _, mask = self._ask_at_table("lead", seat, hand, options, forced=forced)
        else:
            obs = self._obs(forced)
            p = int(choose_lead(self.ids[seat], obs, self.tabs, self.params, self.st, self.buf, self._hands(),
                                self.scr))
            mask = int(self.tabs[p, P_MASK])
        self._record(seat, LEAD, mask)
        return mask

    def follow(self, where: str, seat: int, hand: int, beats: list[int], size: int) -> tuple[str, int]:
        """Beat with one of `beats` or discard `size` tiles."""
        from ..strategies.registry import choose_follow
        if seat == self.person:
            action, mask = self._ask_at_table("follow", seat, hand, beats, size=size)
        else:
            obs = self._obs(None)
            p, d = choose_follow(self.ids[seat], obs, self.tabs, self.params, self.st, self.buf, self.kv,
                                 self._hands(), self.scr)
            action, mask = (BEAT, int(self.tabs[int(p), P_MASK])) if int(p) >= 0 else (DISCARD, int(d))
        self._record(seat, action, mask)
        return action, mask


def _forced_suit(rules: RuleSet, hand: int, options: list[int]) -> str | None:
    """The residual-dice suit of a lead, read from its options (only that suit's singles are legal)."""
    if not residual_dice_applies(rules, hand):
        return None
    for name, m in BB_FOLK_SUIT.items():
        if all(o & m for o in options):
            return name
    return None


def play_interactive(rules: RuleSet, seed: int, deal: int, policies: list[str], person: int,
                     ask: Callable[[View], tuple[str, int]], banker: int = 0, streak: int = 1) -> dict:
    """Play one deal with the person at seat `person`; returns the game trace (INTERFACES.md)."""
    if not 0 <= person < rules.players:
        raise TjsimError(f"--seat must be a seat 0 to {rules.players - 1}, got {person}")
    script: list = []
    while True:
        dec = TableDecider(rules, seed, deal, policies, person, ask, script, banker, streak)
        try:
            trace = play_with(rules, dec.hands0, seed, deal, dec, banker, streak)
        except Undo:
            script = dec.decisions[:-1] if dec.decisions else []
            continue
        trace["policies"] = [("person" if s == person else p) for s, p in enumerate(policies)]
        return trace
