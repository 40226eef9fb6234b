"""Positions of a Tien Gow deal (RULES.md §8) and their exact values through the solver kernel.

A `Position` is everything needed to finish the deal: the hands still held, each seat's 戙, the
folded seats, banker and streak, the trick in progress (leader and the plays so far) and the
bonus state (who has led, a suspended 賀尊, bonuses already paid).  `Solver` turns one into the
kernel's arrays and returns the paranoid value V_s of the position and of each distinct legal
action of the seat to act (copies of a kind are one action).
"""
from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass, field, replace
from itertools import combinations

import numpy as np

from ..errors import TjsimError
from ..game.catalogue import catalogue
from ..game.reference import IllegalAction, replay, settle_reference
from ..game.rules import RuleSet
from ..game.tiles import FULL_MASK, TILE_KIND, bits_of, parse_hand, popcount
from . import solver as K
from .layout import (R_DICE_ON, R_QUARTET_BONUS, R_SUIT_GONG, R_SUIT_YAO, R_SUIT_ZA, R_SUPREME_BONUS,
                     R_SUPREME_CLOSE)
from .relaxed import STRONGER, WEAKER, gap_tables
from .tables import pack_params
from .threads import run_interruptible

LEAD, BEAT, DISCARD = "lead", "beat", "discard"


@dataclass(frozen=True)
class Position:
    """A position of a deal; `trick` holds the plays of the trick in progress as (seat, action, mask)."""

    rules: RuleSet
    hands: tuple[int, ...]
    dong: tuple[int, ...]
    leader: int
    banker: int = 0
    streak: int = 1
    folded: frozenset[int] = frozenset()
    trick: tuple[tuple[int, str, int], ...] = ()
    has_led: frozenset[int] = frozenset()  # seats that led a trick before the one in progress
    pending: tuple[int, int] | None = None  # suspended 賀尊: (至尊 leader, winner of that trick)
    paid: tuple[int, ...] = field(default=())  # each seat's net receipts so far (bonuses; at the end, all)

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.rules.players

    def active(self) -> list[int]:
        """Seats that have not folded."""
        return [s for s in range(self.players) if s not in self.folded]

    def next_active(self, seat: int) -> int:
        """The next seat after `seat` in playing order that has not folded."""
        for k in range(1, self.players + 1):
            s = (seat + k) % self.players
            if s not in self.folded:
                return s
        raise AssertionError("no active seat")

    def to_act(self) -> int:
        """The seat whose turn it is (-1 once the deal is over)."""
        if not self.trick:
            return self.leader if self.hands[self.leader] else -1
        return self.next_active(self.trick[-1][0])

    def standing(self) -> tuple[int, int, bool]:
        """(play number standing highest, its seat, whether it is the lead) of the trick in progress."""
        cat = catalogue(self.rules)
        seat, _, mask = self.trick[0]
        win_p, win_seat, is_lead = cat.find(mask), seat, True
        for s, action, m in self.trick[1:]:
            if action == BEAT:
                win_p, win_seat, is_lead = cat.find(m), s, False
        return win_p, win_seat, is_lead

    def check(self) -> None:
        """Raise TjsimError unless the position is consistent (tiles, counts, seats)."""
        n = self.players
        if len(self.hands) != n or len(self.dong) != n:
            raise TjsimError(f"a position needs one hand and one 戙 count per player ({n})")
        for name, seat in (("leader", self.leader), ("banker", self.banker)):
            if not 0 <= seat < n:
                raise TjsimError(f"--{name} must be a seat 0 to {n - 1}, got {seat}")
        if self.streak < 1:
            raise TjsimError(f"--streak must be at least 1, got {self.streak}")
        if self.leader in self.folded:
            raise TjsimError(f"the leader (seat {self.leader}) has folded")
        used = 0
        for s, h in enumerate(self.hands):
            if h & used:
                raise TjsimError("a tile is in two hands")
            used |= h
        for _, _, m in self.trick:
            if m & used:
                raise TjsimError("a tile of the trick in progress is also in a hand")
            used |= m
        active = self.active()
        if len(active) < 2:
            raise TjsimError("fewer than two seats play: the deal is void")
        if any(d < 0 for d in self.dong):
            raise TjsimError(f"戙 must not be negative, got {list(self.dong)}")
        if any(self.dong[s] or self.hands[s] for s in self.folded):
            raise TjsimError("a folded seat holds no tiles and no 戙")
        played = {s: 0 for s in active}
        for s, _, m in self.trick:
            played[s] = popcount(m)
        sizes = {popcount(self.hands[s]) + played[s] for s in active}
        if len(sizes) != 1:
            raise TjsimError("the hands do not add up: every active seat must hold as many tiles "
                             "(counting the tiles it played in the trick in progress)")
        held = sizes.pop()
        total = self.rules.tiles_per_player
        if sum(self.dong) + held != total:
            raise TjsimError(f"the 戙 ({sum(self.dong)}) and the tiles still held ({held} each) must add "
                             f"up to the tiles per player ({total})")


def _discards(hand: int, size: int) -> list[int]:
    """Every distinct discard of `size` tiles (one per multiset of kinds), lowest copies first."""
    seen, out = set(), []
    for combo in combinations(list(bits_of(hand)), size):
        kinds = tuple(sorted(TILE_KIND[b] for b in combo))
        if kinds not in seen:
            seen.add(kinds)
            out.append(sum(1 << b for b in combo))
    return out


@dataclass(frozen=True)
class Action:
    """One action of the seat to act and its exact value for the perspective seat.

    With a node cap a search may give up: `value` is then NaN and [low, high] is what it proved
    (±inf where nothing was); otherwise low = high = value.
    """

    action: str
    mask: int
    value: float
    low: float
    high: float


@dataclass(frozen=True)
class Solution:
    """The exact value of a position for `seat`, the value of each action, and the nodes searched."""

    seat: int
    to_act: int
    value: float
    actions: tuple[Action, ...]
    nodes: int
    chance: bool  # the seat to act throws the residual-tile dice first
    low: float  # bounds on `value` (equal to it unless a search gave up under the node cap)
    high: float
    interrupted: bool = False  # Ctrl-C stopped the solve: the actions not yet solved show bounds only
    timed_out: bool = False  # the solver's deadline (--max-time) stopped it, with the same effect


# A Solver starts on a table of at most 2^TT_START_BITS entries (15 MB): allocating and first
# touching 2^22 (235 MB) took 0.03-0.5 s on the benchmark VM, more than most full-deal searches
# (median 31k nodes).  A search that passes GROW_NODES on the small table stops, its entries move
# to the full table (kernels/solver.py, tt_grow) and it goes on there from the bounds it proved:
# only the walk back to where it was is repeated, mostly through table hits (run again from
# nothing, as before stop 20, it cost 27 % more nodes on 50 full deals; benchmarks/README.md).
# Why not grow sooner: since the table also holds entries inside tricks (a lookup at every follower's
# node), a search of a few million nodes runs faster on the 15 MB table than on the 235 MB one despite
# its evictions (memory locality, measured; madvise'd huge pages for the large table made no clear
# difference).  56 full deals,
# banker, every action, 1 thread: growing at 1 M nodes 24.9 M nodes in 12.3 s, at 4 M 26.4 M nodes
# in 8.2 s (benchmarks/README.md, stop 24).
TT_START_BITS = 18
GROW_NODES = 4_000_000
# Before GROW_NODES (close_game "late") the search's root asks its games too (kernels/solver.py,
# `_root_games`, X_CLOSE 2), but not the close game at every boundary, and the games of one search share
# EARLY_GAME_NODES nodes: a game out of them answers "not shown".  The games' proof that a bad lead is
# held low, or that the banker still takes its trick, is often a few thousand nodes where the search's is
# millions; unbudgeted, their failures cost more than that.  200 full deals, banker, every action, cap 30 M
# nodes a search (benchmarks/README.md, stop 40): 673 M -> 629 M nodes, 20 -> 18 deals over 1 s of
# solving (deal 164: 9.7 M -> 0.13 M nodes, deal 91: 7.2 M -> 0.24 M, deal 17: 1.4 M -> 1.7 M); with no
# budget 1,509 M (deal 45: 0.5 M -> 154 M); with 5,000 nodes 651 M.
EARLY_GAME_NODES = 20_000
# A search's first GROW_NODES run in stages ending at STAGE_NODES, each going on from the bounds and
# the entries the last proved, its root games on GAME_GROWTH times the last stage's budget (20 k nodes
# in the first 1 M, 320 k to 2 M, then what is left of the 4 M).  A long search can afford dearer games:
# deal 98's lead 3-1 of bench_solve_cli.py is settled by the get game at width 3 (1.6 M nodes) where
# its search takes 11 M.  200 full deals, every action (benchmarks/README.md, stop 41): 577 M -> 545 M
# nodes (deal 93: 12.9 M -> 4.4 M, deal 98 19.4 M -> 11.9 M; deal 175 12.7 M -> 15.5 M); with stages
# from 50 k (50 k, 200 k, 800 k, growth 4) 605 M, deal 145 0.76 M -> 33 M: dear games asked in searches
# that would have ended soon.
STAGE_NODES = (1_000_000, 2_000_000)
GAME_GROWTH = 16
# In an action's search (`_chain`) the stages from WALK_STAGE on (0: the first) start with the value walk
# (kernels/solver.py, `_value_walk`, X_WALK) on their games' budget, as searches past GROW_NODES do: "V at
# least t" down from the ceiling, then "at most t".  Deal 148's lead 5-2 (worth -4; the search's floor
# stays at -10 through 4 M nodes, the tests far below the value being dear) is settled at the last
# stage's start in 83 k nodes.  200 full deals, every action (benchmarks/README.md, stop 42): 544.7 M ->
# 539.0 M nodes (deal 148 7.13 M -> 2.41 M, 188 9.90 M -> 8.64 M, 85 3.77 M -> 3.01 M; 98 11.9 M -> 13.8 M).
# Not while the action may still be a best one (its first test settles it; the walk goes below its value):
# deal 185 4.80 M -> 5.49 M nodes otherwise.  From the second stage: 559.5 M (deal 98 29.1 M, 129 4.1 M
# -> 10.8 M).  Nor in a position's own search (`value`, `--value-only`; `solve` gives its own 300 k nodes,
# below the stages): deal 129's value 2.4 M nodes -> over 5 M, deal 35's 3.4 M -> 4.5 M, deal 96's 4.8 M -> 2.8 M.
WALK_STAGE = 2
# `solve` searches the actions in chains of CHAIN, each chain on one table that starts with the
# entries of the position's own search (its proof of the value is most of one best action's) and
# keeps what each action proves for the next (later tricks transpose between first leads).  A
# chain's result depends on its actions alone, so `threads` (chains at once) changes no node count.
# Full deals, banker, every action, 1 thread (benchmarks/README.md, stop 23): deal 27 524 M nodes
# one action a table, 293 M in chains of 2, 524 M in chains of 3 (its two costly proofs fall in
# different chains); deal 10 359 M, 325 M, 314 M.  Longer chains share more but leave fewer to
# search at once; 2 was the fastest `tjsim solve` on 2 threads (16 deals of 1-5 s, within noise of 3).
CHAIN = 2  # `tjsim solve --help` (cli/solve_cmd.py) says "chains of two"
# The actions' searches make no budgeted probes (kernels/solver.py): each starts with "as good as the
# position?", which for a best action is a proof where every reply of the other side must be searched
# anyway, and a probe cut off by its budget walks its trick again.  Full deals, banker, every action, cap
# 10 M nodes a search, 56 deals: 27.8 M nodes with probes, 24.8 M without (deal 37: 2.05 M -> 0.90 M,
# deal 56: 1.96 M -> 0.82 M, deal 53: 0.86 M -> 1.17 M; benchmarks/README.md, stop 24).
ACTION_PROBES = False
# `solve` gives the position's own search this many nodes; past them the position is valued from its
# actions instead (each action's search from its own floor test, both threads at work from then on,
# their chains starting with what the position's search proved). A long position search is mostly the
# proof that no lead beats the value, searched on one thread while the other waits; the actions prove
# the same lead by lead. Full deals, banker, 2 threads (benchmarks/README.md, stop 26): deal 32
# 1.75 M -> 0.77 M nodes, 0.49 -> 0.21 s; deal 35 1.50 M -> 1.90 M nodes, 0.41 -> 0.31 s; the deals whose
# position search ends within the budget (13, 45, 52, ...) unchanged.
POSITION_BUDGET = 300_000
# `solve` searches the actions in steps (`_search_all`): every search to EASY_NODES[0] nodes first, then the
# searches still open to EASY_NODES[1], then to the end, each step a task that goes on from the table its chain
# left, the bounds proved and the nodes spent, the tasks of one step in the chains' order.  A solve stopped early
# (Ctrl-C, --max-time) then shows the value of every action quick to solve, where in one pass the chains not yet
# started showed "?" (deal 238 of bench_solve_cli.py at --max-time 8: 3 of 12 actions exact and 7 "?" -> 7 exact
# and none "?").  The steps end where a search's first stage ends (STAGE_NODES[0]) and where it grows its table
# (GROW_NODES), which a search restarts at anyway, so a chain of one action searches as in one pass, node for node;
# in a chain of two the second action's first step runs before the first's later ones.  600 full deals, every
# action (benchmarks/README.md, stop 53): 1,459.2 M -> 1,462.4 M nodes, paths 943.6 M -> 943.1 M, the deals over
# 1.2 M nodes unchanged (16, 19, 21), values unchanged.  A first step of 100 k nodes, inside the first stage, moved
# dear deals both ways (283 4.2 M -> 8.9 M, 302 5.2 M -> 2.2 M); the later steps queued as the earlier ended put
# deal 238's two dearest chains on one thread (path 62 M -> 89 M).  (): one pass.
EASY_NODES = (1_000_000, 4_000_000)  # `tjsim solve --help` (cli/solve_cmd.py, --max-time) says "a million"
# The last step of a chain's searches still open (past EASY_NODES[-1]): one task each, both from the table the chain
# left, so that a chain's two dear searches go to two threads (True), or one task, the second search going on from
# the table the first left (False).  The 56 deals of 0-599 whose path passes 1.2 M nodes, every action, cap 30 M
# (benchmarks/README.md, stop 54; only they have a search past 4 M nodes): paths 899.2 M -> 881.5 M, values
# unchanged; 237 50.4 M -> 34.6 M (its leads 3-1 and 2-2, both dear, shared a chain), 332 39.3 M -> 34.3 M;
# 291 26.3 M -> 28.3 M, 419 16.2 M -> 16.8 M path but 20.7 M -> 26.4 M nodes (its second search had gone on
# from the first's entries).  Alternated, 2 threads: 237 12.2 / 12.5 s -> 8.5 / 8.5 s, 332 9.8 / 9.6 s -> 8.9 /
# 8.9 s, 291 7.3 / 7.0 s -> 7.7 / 7.9 s, 419 4.6 / 4.6 s -> 5.3 / 5.3 s.  A split at a later step instead
# (EASY_NODES ending 8 M or 16 M) cost more on the eight deals that changed: paths 337.2 M -> 319.6 M here,
# 332.4 M / 342.9 M there; every step past the first split (past 1 M nodes) 881.5 M -> 893.2 M on the 56 (419 26.5 M).
SPLIT_LAST = True
# The stages (STAGE_NODES: 0 the first, the last one ending at GROW_NODES) whose search uses the followers'
# second ordering (kernels/solver.py, X_ORDER: a minimiser leaves s's standing play to a partner after it
# that can beat it too).  A search still open after its first stage may owe that to a wrong first choice of
# the first ordering; the second stage goes on from the bounds and entries the first proved, in the other
# order.  200 full deals, banker, every action, cap 30 M nodes a search (benchmarks/README.md, stop 43):
# 539.0 M -> 500.5 M nodes, deal 84 32.6 M (gave up) -> 4.09 M, 175 15.6 M -> 5.95 M, 185 4.80 M -> 3.54 M;
# 129 4.12 M -> 4.86 M; values unchanged.  The second and third stages 504.1 M, the third alone 531.8 M, every
# stage 567.2 M (deal 164 0.13 M -> 13.4 M); 4 M nodes of it after GROW_NODES as well 499.5 M.  Positions'
# own searches (cap 4 M): 41.0 M -> 39.5 M (deal 35 3.42 M -> 1.65 M); bench_solver.py (cap 5 M) gives up on 5
# of 200 deals for the banker as before, on 12 instead of 11 for seat 3.
SECOND_ORDER_STAGES = (1,)
# Past GROW_NODES the hold game at the root of each test (kernels/solver.py, `_root_games`) shares HOLD_NODES nodes
# of a search, where the close and get games have no budget: its failures at the root of a long proof cost more
# than its cuts.  Full deal 194 of bench_solve_cli.py, the banker's lead 6-2: 90.9 M nodes unbudgeted, 76.8 M on
# 1 M, 80.1 M on 4 M, 75.7 M without the hold game; but without it deal 188's value (`--value-only`) takes 28.2 M
# nodes instead of 5.0 M.  200 full deals, every action, cap 30 M a search: 465.6 M -> 437.9 M nodes; deal 49
# in `tjsim solve` 279 M nodes, 31.5 s -> 88.3 M, 9.0 s (benchmarks/README.md, stop 46).
HOLD_NODES = 1_000_000
# A search still open RELAX_AFTER nodes past GROW_NODES asks the two relaxed games of kernels/relaxed.py (the other
# seats' singles read by the gaps between s's ranks), each on RELAXED_NODES nodes in its own solver and table: the
# game with the weaker other side for a ceiling, then "does the game with the stronger side reach it?" for a floor;
# when they meet, that is the value, else the search goes on from them (Solver(relaxed=False): never).  A search
# pays at most 2 RELAXED_NODES for them, and only past 6 M nodes, so no deal of about a second changes.  Every
# action of the dear full deals, cap 30 M nodes a search (benchmarks/README.md, stops 49 and 50): the 5 of deals
# 0-199 whose searches pass GROW_NODES 373.2 M -> 353.8 M nodes (194 64.3 M -> 22.9 M; 49 84.4 M -> 98.4 M, 78
# 18.5 M -> 22.5 M), the 10 of the hold-out deals 200-399 past 15 M nodes 515.5 M -> 454.3 M (219 52.1 M -> 17.6 M;
# 237 41.7 M -> 52.1 M), the 14 of deals 400-599 past 6 M 658.4 M -> 487.8 M (510 33.3 M -> 10.5 M, 429 67.7 M ->
# 24.8 M; 425 84.2 M -> 92.4 M), the 13 of deals 600-799 past 6 M 797.9 M -> 698.7 M (689 149.1 M -> 88.7 M; 725
# 29.4 M -> 40.5 M, the worst loss, a few searches each paying the games' 4 M): 42 deals 2,345 M -> 1,995 M nodes.
# Values unchanged.  (Off at stop 49, when only the first five were measured.)  Off again since stop 63: with the
# yes / no games' owed gaps (kernels/solver.py, X_OWED_GAPS) the searches they served settle sooner without them, and
# their 4 M nodes a search are lost: the 55 dear deals of 0-599 (every deal there past 1 M nodes at stop 57), every
# action, 276.9 M -> 228.4 M nodes (238 path 22.0 M -> 13.6 M, 400 12.4 M -> 8.4 M, 237 15.8 M -> 11.6 M), deals
# 600-799 143.6 M -> 115.2 M (657 28.3 M -> 20.1 M, 676 32.9 M -> 24.9 M), no deal 5 % dearer, values unchanged
# (benchmarks/README.md, stop 63).  Solver(relaxed=True) asks them.
# Past GROW_NODES a search's close games at the root that fail may be asked again with one seat at a time choosing
# its discards (kernels/solver.py, `_squeeze_close`: the squeezes that owing hides) on PARTIAL_NODES nodes in all.
# Off (0): it settles deal 237's lead 3-1 in about a million nodes where the search takes 16 M to 60 M, but where s
# cannot close each seat's failing game costs about as much, and the 54 dear deals of stop 51 (every deal of 0-799
# past 4 M nodes, every action, cap 30 M a search) gained no more than they lost in any budget tried: 2,060.5 M
# nodes -> 2,058.5 M asked past GROW_NODES on 4 M, paths 7.0 M shorter and 16.2 M longer in all (237 50.3 M ->
# 45.4 M; 49 49.5 M -> 55.6 M, 657 60.7 M -> 65.8 M); asked in the stages too, 2,039.5 M, paths 23.6 M shorter and
# 17.6 M longer (benchmarks/README.md, stop 51).  `bench_solve_nodes.py --set PARTIAL_NODES=4000000` asks it.
PARTIAL_NODES = 0
# Each test "V >= b" is first searched in the passing game (kernels/solver.py, module docstring: the minimisers'
# discards reduced without the partners' condition, a kept tile played as the discarded one where that let a
# partner overtake) on PASS_NODES nodes; where it holds there it holds, else the real search follows.  Stop 56 (the
# virtual plays in place of stop 55's passes), deals 0-599 as below: 1,308.4 M nodes -> 1,260.8 M, paths 806.5 M ->
# 766.1 M, 51 -> 47 over 1.2 M (332 34.6 M -> 2.6 M, 445 28.6 M -> 44.8 M, 202 30.6 M -> 16.4 M; 98 4.1 M -> 20.9 M,
# 291 19.9 M -> 38.1 M, 121 0.2 M -> 1.3 M: a tighter game's failed tests cost more).  Stop 55, deals
# 0-599, every action, cap 30 M a search, on 2 M nodes: 1,475.3 M nodes -> 1,308.4 M, paths 925.3 M -> 806.5 M,
# 56 -> 51 over 1.2 M (407 path 32.9 M -> 5.2 M, 210 19.5 M -> 2.0 M, 591 9.4 M -> 0.3 M, 594 10.3 M -> 1.0 M; 400
# 43.8 M -> 53.5 M, 296 3.8 M -> 6.6 M), the 544 deals under 1.2 M 43.9 M -> 34.3 M; values unchanged.  Where it
# fails it fails early: on the 56 deals past 1.2 M, 6 M and 16 M nodes changed only 445 (path 58.2 M -> 34.8 M ->
# 28.6 M) and 237 (34.6 M -> 29.8 M at 16 M), nothing else by a node (benchmarks/README.md, stop 55).  Asked also at
# the boundaries of a search past GROW_NODES (50 k nodes, 4 tiles a hand or more) it lost: 78 12.0 M -> 21.4 M.
PASS_NODES = 16_000_000
# Each game reads the other's bounds (kernels/solver.py, `_other_game_cut`), the real search keeping the passing
# game's debts to find its entries.  Stop 57, deals 0-599, every action: 1,260.8 M -> 1,224.8 M nodes, paths
# 766.1 M -> 740.4 M, over 1.2 M 47 -> 46 (98 path 20.9 M -> 4.1 M, 121 1.29 M -> 0.37 M; 580 8.8 M -> 10.8 M).
CROSS_BOUNDS = True
# Each test is asked first in the upper game (kernels/solver.py, module docstring: the minimisers' dominated discards
# dropped without the partners' condition and without debts, a game worth at least V) on UPPER_NODES nodes: where it
# fails there it fails, else the passing game and the real search follow.  Stop 58, deals 0-599, every action, cap
# 30 M a search: 1,269.6 M nodes -> 1,114.5 M, paths 779.7 M -> 684.9 M, over 1.2 M 46 -> 38 (98 path 21.0 M -> 3.9 M,
# 400 59.8 M -> 38.1 M; 407 12.5 M -> 18.2 M), no value changed.  Asked after the passing game instead: the 55 dear
# deals 1,233.4 M -> 1,205.9 M against 1,084.1 M first.  4 M nodes a test gives the same counts: none needed more.
UPPER_NODES = 16_000_000
# The position's own search (POSITION_BUDGET) in the passing game too: a failed test there takes nodes of its
# small budget (98: 0.30 M, its value not found).  Off, on the 56 dear deals (stop 56): 1,133.6 M -> 1,109.2 M
# nodes, over 1.2 M 43 -> 43 (98 path 17.0 M -> 4.0 M, 291 32.3 M -> 20.5 M; 302 1.5 M -> 6.6 M, 129 3.2 M -> 8.2 M).
POSITION_PASSING = True
RELAXED_NODES = 2_000_000
RELAX_AFTER = 2_000_000


class Solver:
    """Exact values of positions under one rule set (holds the tables and the transposition table)."""

    def __init__(self, rules: RuleSet, tt_bits: int = K.TT_BITS, dominance: bool = True,
                 max_nodes: int = 0, probes: bool = True, interruptible: bool = False, trick_table: bool = True,
                 stoppers: bool = True, close_game: str = "late", twins: bool = True, relaxed: bool = False,
                 passing: bool = True, low_beats: bool = True, dead_debts: bool = True,
                 tied_high: bool = True, gap_plays: bool = True, owed_gaps: bool = True):
        self.rules = rules
        self.dominance = dominance  # False: search the dominated discards too (a test of the reduction)
        self.cat = catalogue(rules)
        self.T = K.build_solver_tables(rules)
        self.Q = pack_params(rules)
        self.tt_bits = tt_bits  # the table's full size; it starts smaller (TT_START_BITS)
        self._tables: dict[int, tuple] = {}  # tables by size, allocated once (a new generation empties one)
        self.tt = self._table(min(tt_bits, TT_START_BITS))
        self.live = None  # the kernel context (X) of the search running now, for a stop from another thread
        self.scratch = K.new_scratch()
        self.gen = 0
        self.max_nodes = max_nodes  # > 0: a solve gives up (value NaN) after that many nodes
        self.probes = probes  # False: no budgeted probes (kernels/solver.py), for a test that they change no value
        self.trick_table = trick_table  # False: no table entries inside tricks (a test that they change no value)
        self.stoppers = stoppers  # False: no stoppers' floor (kernels/solver.py), a test that it changes no value
        self.twins = twins  # False: search the moves with the higher twin too (kernels/solver.py, twin_pairs; a test)
        self.relaxed = relaxed  # True: the relaxed games past GROW_NODES + RELAX_AFTER (RELAXED_NODES; off since stop 63)
        # each test first in the upper game (UPPER_NODES), then in the passing game (PASS_NODES); False: in
        # neither (a test that they change no value); "only": every search in the passing game, a lower bound of
        # the value, "upper": every search in the upper game, an upper bound (tests of those games, with
        # close_game "never": the close game sees neither)
        self.passing = passing
        # False: search a follower's single beats dominated by a lower one of its hand too (X_LOW_BEATS; a test)
        self.low_beats = low_beats
        # False: the beats' and the discards' dominance only where the higher tile is a free single (X_TIED_HIGH; a test)
        self.tied_high = tied_high
        # False: the passing and upper games' minimisers also lead and beat with a single where a lower one of their
        # hand would do as well and s holds no tile between (X_GAP_PLAYS; a test)
        self.gap_plays = gap_plays
        # False: the yes / no games' owing seats also lead and beat with a single where a lower one of their hand would
        # do as well and s holds no tile between (X_OWED_GAPS; a test)
        self.owed_gaps = owed_gaps
        # False: keep the passing game's dead debts and the virtual plays no partner can use (X_DEAD_DEBTS; a test)
        self.dead_debts = dead_debts
        self.pass_proofs = 0  # tests settled by the passing game (a test's and a benchmark's counter)
        self.upper_proofs = 0  # tests settled by the upper game (UPPER_NODES; the same)
        self.cross_cuts = 0  # cuts by the other game's bounds (CROSS_BOUNDS; a test's counter)
        self._relaxers: dict[int, Solver] = {}  # a solver per relaxed game, its own tables (`_relaxed_bounds`)
        self.parent: Solver | None = None  # a relaxed game's solver: the solver it bounds, which a stop reaches
        # the pairs as the tables hold them (K_TWIN: the lower twin's bit on the higher's row)
        self.twin_pairs = [(int(self.T[K.ROW_TILE + hi, K.K_TWIN]).bit_length() - 1, hi)
                           for hi in range(32) if self.T[K.ROW_TILE + hi, K.K_TWIN]]
        # the close game (kernels/solver.py, _close_search): "late" asks it only in searches past GROW_NODES
        # (it costs more than it saves in the short ones), "always" in every search, "never" (a test that it
        # changes no value)
        if close_game not in ("late", "always", "never"):
            raise ValueError(f"close_game: 'late', 'always' or 'never', not {close_game!r}")
        self.close_game = close_game
        if passing not in (True, False, "only", "upper"):
            raise ValueError(f"passing: True, False, 'only' or 'upper', not {passing!r}")
        if passing in ("only", "upper") and close_game != "never":
            raise ValueError(f"passing={passing!r} needs close_game='never': the close game does not see that game")
        # True: each search runs in a worker thread, so that Ctrl-C stops it at once; the search
        # then ends as under a node cap (NaN, the bounds so far) and `interrupted` is set
        self.interruptible = interruptible
        self.interrupted = False
        # with interruptible: seconds of searching after which it stops as at Ctrl-C (None: no limit),
        # counted from the first search (deadline: the time.monotonic() value then reached)
        self.time_limit = None
        self.deadline = None
        self.timed_out = False
        # with interruptible: called about 4 times a second during a search with the nodes searched
        # so far by this solver (a progress bar's counter)
        self.on_nodes = None
        self.nodes_searched = 0
        self.close_cuts = 0  # cuts made by the close game (a test's and a benchmark's counter)
        self.hold_cuts = 0  # cuts made by the hold game (the same)
        self.get_cuts = 0  # cuts made by the get game (the same)
        self.value_cuts = 0  # root tests settled by the value games (the same)
        self.value_nodes = 0  # nodes of the value games past GROW_NODES (the same)
        self.partial_cuts = 0  # tests settled by the close game with one seat choosing (the same)
        self.partial_left = PARTIAL_NODES  # the nodes the search running may still give it (`_growing`)
        self.partial_out = 0  # the seats whose game failed at its root (X_PARTIAL_OUT)
        self.squeeze = True  # False in a relaxed game's solver: its budget is the relaxed game's own
        self.chain_left = None  # the table of the last chain a budget stopped (`_chain`)

    def _table(self, bits: int) -> tuple:
        """The transposition table of 2^bits entries, allocated on first use."""
        if bits not in self._tables:
            self._tables[bits] = K.new_tt(bits)
        return self._tables[bits]

    def _new_generation(self) -> None:
        """Start a new generation: every table entry becomes free, without touching the tables
        (kernels/solver.py, TAG_GEN); past GEN_LIMIT the tables' tags are cleared and it starts at 1."""
        self.gen += 1
        if self.gen >= K.GEN_LIMIT:
            for tt in self._tables.values():
                tt[3][:] = 0
            self.gen = 1

    # -- the kernel's view of a position ------------------------------------------------
    def _arrays(self, pos: Position, seat: int, probes: bool = True, close: int = 0):
        n = pos.players
        X = np.zeros(K.N_X, dtype=np.int64)
        X[K.X_SEAT] = seat
        X[K.X_HORIZON] = K.EXACT
        X[K.X_NO_DOMINANCE] = 0 if self.dominance else 1
        X[K.X_PROBE_B0] = K.PROBE_B0 if self.probes and probes else 0
        X[K.X_PROBE_TILES] = K.PROBE_TILES
        X[K.X_NO_TRICK_TABLE] = 0 if self.trick_table else 1
        X[K.X_NO_STOPPERS] = 0 if self.stoppers else 1
        X[K.X_NO_TWINS] = 0 if self.twins else 1
        X[K.X_CLOSE] = close
        X[K.X_PASS_NODES] = PASS_NODES if self.passing is True else 0
        X[K.X_CROSS_BOUNDS] = int(CROSS_BOUNDS)
        X[K.X_DEAD_DEBTS] = int(self.dead_debts)
        X[K.X_LOW_BEATS] = int(self.low_beats)
        X[K.X_TIED_HIGH] = int(self.tied_high)
        X[K.X_GAP_PLAYS] = int(self.gap_plays)
        X[K.X_OWED_GAPS] = int(self.owed_gaps)
        X[K.X_UPPER_NODES] = UPPER_NODES if self.passing is True else 0
        X[K.X_UPPER] = int(self.passing == "upper")
        X[K.X_PASSING] = int(self.passing == "only")
        X[K.X_BANKER] = pos.banker
        X[K.X_STREAK] = pos.streak
        led = sum(1 << s for s in pos.has_led)
        X[K.X_PEND_LEADER], X[K.X_PEND_WINNER] = pos.pending if pos.pending else (-1, -1)
        X[K.X_FOLDED] = sum(1 << s for s in pos.folded)
        X[K.X_ACTIVE] = n - len(pos.folded)
        X[K.X_GEN] = self.gen
        hands = np.array(pos.hands, dtype=np.int64)
        dong = np.array(pos.dong, dtype=np.int64)
        if not pos.trick:
            X[K.X_HAS_LED] = led
            node = (pos.leader, -1, -1, pos.leader, 0, -1, 0, pos.leader)
        else:
            X[K.X_HAS_LED] = led | 1 << pos.leader
            first = 0 if pos.leader in pos.has_led else 1
            lead_p = self.cat.find(pos.trick[0][2])
            win_p, win_seat, is_lead = pos.standing()
            caught = -1
            if lead_p == self.cat.supreme and len(pos.trick) > 1:
                beats = [s for s, a, _ in pos.trick if a == BEAT]
                caught = beats[0] if beats else -1
            node = (pos.leader, lead_p, win_p, win_seat, int(is_lead), caught, first, pos.trick[-1][0])
        return X, hands, dong, node

    def _value(self, pos: Position, seat: int, guess: float | None = None,
               budget: int = 0) -> tuple[float, int, float, float]:
        """The future value for `seat` from `pos` (bonuses already paid excluded), the nodes searched
        and the bounds proved (NaN and the bounds so far if the search gave up under max_nodes, or
        under `budget` nodes if that is lower).

        Without a guess (e.g. another action's value) the search first tests the value's floor, then
        walks up from 0 (kernels/solver.py, mtd_kernel).  Once the full table exists it is kept.
        """
        self.tt = self._tables.get(self.tt_bits, self.tt)
        return self._growing(pos, seat, guess, None, self.tt, budget=budget)  # self.tt: the table it ended on

    def _snapshot(self) -> tuple:
        """The entries of the table the last `_value` ended on (its size, their slots and contents):
        what the position's search proved, the start of each chain of actions in `solve` (`_chain`)."""
        ttk, ttv, ttb, ttg = self.tt
        at = np.flatnonzero(ttg >> K.TAG_GEN == self.gen)
        return len(ttg), at, ttk[at], ttv[at], ttb[at], ttg[at] & ((1 << K.TAG_GEN) - 1)

    def _chain(self, chain: list, seat: int, base: tuple, upto: int = 0) -> list:
        """`_growing` of each job (position, known, guess[, nodes spent before]) of `chain` in turn on one
        table that starts with the entries `base` (`_snapshot`): the chain's searches share what they prove.
        Each search gives up once the job has `upto` nodes in all (0: never) or max_nodes; if `upto` stopped
        one, the table's entries are kept in `self.chain_left` (`_snapshot`) for the searches to go on from
        (`_search_all`), else it is None.

        The result depends on `base` and the chain alone, not on the searches this solver ran
        before: a new generation empties the table before the entries go back to their slots.
        """
        size, at, k, v, b, tag = base
        self._new_generation()
        tt = self._table(size.bit_length() - 1)
        tt[0][at], tt[1][at], tt[2][at], tt[3][at] = k, v, b, tag | self.gen << K.TAG_GEN
        self.tt = tt
        out = []
        for job in chain:
            pos, known, guess = job[:3]
            spent = job[3] if len(job) > 3 else 0
            limits = [t - spent for t in (upto, self.max_nodes if spent else 0) if t > 0]
            out.append(self._growing(pos, seat, guess, known, self.tt, ACTION_PROBES,
                                     budget=max(min(limits), 1) if limits else 0, walk=True, spent=spent))
        stopped = upto > 0 and any(math.isnan(got[0]) for got in out)
        self.chain_left = self._snapshot() if stopped and not (self.interrupted or self.timed_out) else None
        return out

    def _growing(self, pos: Position, seat: int, guess: float | None, known: tuple[float, float] | None,
                 tt: tuple, probes: bool = True, budget: int = 0, walk: bool = False,
                 spent: int = 0) -> tuple[float, int, float, float]:
        """The search on table `tt`, giving up after max_nodes or `budget` nodes (the lower, if set); past
        GROW_NODES it goes on from the bounds and the entries it proved so far, in the full table if `tt`
        is smaller (`tt_grow`), with the close game asked at every boundary (close_game "late"; before, the
        root's games alone, on budgets growing by stages: `_staged`, which walks the value games too in an
        action's search, `walk`).  `spent`: the nodes the search had in the steps before (`_search_all`),
        which count for its stages and for GROW_NODES, so that it goes on as one search would."""
        if pos.to_act() < 0:
            raise TjsimError("the deal is over: no position to solve")
        self.partial_left = PARTIAL_NODES if self.squeeze else 0
        self.partial_out = 0
        limit = self.max_nodes
        if budget > 0 and (limit <= 0 or budget < limit):
            limit = budget
        first = {"always": 1, "late": 2, "never": 0}[self.close_game]  # X_CLOSE before GROW_NODES
        grow = GROW_NODES - spent
        if (len(tt[0]) >= 1 << self.tt_bits and self.close_game != "late") or 0 < limit <= grow:
            return self._staged(pos, seat, guess, limit, tt, known, probes, first, walk, spent)
        if grow > 0:
            got = self._staged(pos, seat, guess, grow, tt, known, probes, first, walk, spent)
            if not np.isnan(got[0]) or self.interrupted or self.timed_out:
                return got
        else:  # the search had its stages before (`_search_all`'s steps)
            got = (math.nan, 0, *((-math.inf, math.inf) if known is None else known))
        full = self._table(self.tt_bits)
        if full is not tt:
            K.tt_grow(tt, full, self.gen)
        self.tt = full  # the table the search goes on in, so also the next of a chain (`_chain`)
        close = int(self.close_game != "never")
        first_run = RELAX_AFTER if self.relaxed and self.Q[R_DICE_ON] == 0 else 0
        if limit > 0 and (first_run == 0 or limit - got[1] < first_run):
            first_run = max(limit - got[1], 1)
        v, more, lo, hi = self._run(pos, seat, guess, first_run, full, (got[2], got[3]), probes, close, HOLD_NODES)
        done = got[1] + more
        if not np.isnan(v) or self.interrupted or self.timed_out or 0 < limit <= done:
            return v, done, lo, hi
        lo, hi, n = self._relaxed_bounds(pos, seat, lo, hi, 0 if limit <= 0 else limit - done)
        done += n
        if lo >= hi or self.interrupted or self.timed_out or 0 < limit <= done:
            return (lo if lo >= hi else math.nan), done, lo, hi
        # the hold game had its nodes in the first run
        v, more, lo, hi = self._run(pos, seat, guess, 0 if limit <= 0 else max(limit - done, 1), full,
                                    (lo, hi), probes, close, 0)
        return v, done + more, lo, hi

    def play_relaxed(self, pos: Position, seat: int, game: int) -> Solver:
        """Make this solver play a relaxed game (kernels/relaxed.py, WEAKER or STRONGER) for `seat` from `pos`, with
        twins off (the gaps need not keep their symmetry); returns it."""
        self.T = gap_tables(self.rules, self.cat, pos.hands, pos.trick, seat, game)
        # no passing game: its dominance reads a class's ranks as a line, which a relaxed game's gaps are not
        self.twins, self.twin_pairs, self.relaxed, self.squeeze, self.passing = False, [], False, False, False
        return self

    def _relaxed_bounds(self, pos: Position, seat: int, lo: float, hi: float, left: int = 0) -> tuple[float, float, int]:
        """(lo, hi) narrowed by the relaxed games (kernels/relaxed.py), each searched on RELAXED_NODES nodes (and
        all of them on at most `left`, if set) by a solver of its own: the floor the game with the stronger other
        side proves, the ceiling the one with the weaker proves; and their nodes."""
        nodes = 0
        if not self.relaxed or self.Q[R_DICE_ON] != 0:
            return lo, hi, nodes
        for game in (WEAKER, STRONGER):
            budget = RELAXED_NODES if left <= 0 else min(RELAXED_NODES, left - nodes)
            if lo >= hi or self.interrupted or self.timed_out or budget <= 0:
                break
            sub = self._relaxers.get(game)
            if sub is None:
                sub = self._relaxers[game] = Solver(self.rules, self.tt_bits, self.dominance, 0, self.probes,
                                                    trick_table=self.trick_table, stoppers=self.stoppers,
                                                    close_game=self.close_game)
                sub.parent = self
            sub.play_relaxed(pos, seat, game)
            sub.interruptible, sub.deadline, sub.time_limit = self.interruptible, self.deadline, self.time_limit
            sub.interrupted = sub.timed_out = False
            sub._new_generation()
            # the weaker side's game first, for a ceiling: its tests walk down from its static ceiling (a guess
            # above every value); then "does the stronger side's game reach that ceiling?", walking down from it
            known = (-math.inf, hi) if game == STRONGER else (lo, math.inf)
            guess = (hi if math.isfinite(hi) else None) if game == STRONGER else 1e9
            _, n, low, high = sub._growing(pos, seat, guess, known, sub.tt, budget=budget)
            nodes += n
            self.nodes_searched += n
            self.interrupted |= sub.interrupted
            self.timed_out |= sub.timed_out
            if game == STRONGER:
                lo = max(lo, low)  # V >= V'' >= low
            else:
                hi = min(hi, high)  # V <= V' <= high
        return lo, hi, nodes

    def _staged(self, pos: Position, seat: int, guess: float | None, limit: int, tt: tuple,
                known: tuple[float, float] | None, probes: bool, close: int,
                walk: bool = False, spent: int = 0) -> tuple[float, int, float, float]:
        """`_run` up to `limit` nodes (0: no limit); with the root's games on a budget (close 2) in the stages of
        STAGE_NODES, each going on from the bounds the last proved, its games on GAME_GROWTH times the last
        stage's budget; with `walk` (an action's search), the stages from WALK_STAGE on start with the value walk;
        the stages of SECOND_ORDER_STAGES search in the followers' second ordering; the stages count `spent` nodes
        searched before (`_growing`)."""
        def walks(stage: int) -> bool:  # reads `known` as the stages have left it
            # not while an action may still be a best one (its first test, "as good as the position?", settles
            # it, and the walk would go below its value): deal 185's lead 4-3, 3.14 M -> 2.46 M nodes
            best = guess is not None and known is not None and (known[1] == guess or known[0] == guess - 1)
            return walk and close == 2 and stage >= WALK_STAGE and not best

        def order(stage: int) -> int:  # X_ORDER of that stage
            return int(close == 2 and stage in SECOND_ORDER_STAGES)

        done, budget, stage = 0, EARLY_GAME_NODES, 0
        for cap in STAGE_NODES if close == 2 else ():
            if cap <= spent:  # a stage the nodes searched before have passed
                stage += 1
                budget *= GAME_GROWTH
                continue
            cap -= spent
            if limit > 0 and cap >= limit:
                break
            v, n, lo, hi = self._run(pos, seat, guess, cap - done, tt, known, probes, close, budget, walks(stage), order(stage))
            stage += 1
            done += n
            if not np.isnan(v) or self.interrupted or self.timed_out:
                return v, done, lo, hi
            known = (lo, hi)
            budget *= GAME_GROWTH
        v, n, lo, hi = self._run(pos, seat, guess, 0 if limit <= 0 else limit - done, tt, known, probes, close, budget,
                                 walks(stage), order(stage))
        return v, done + n, lo, hi

    def _run(self, pos: Position, seat: int, guess: float | None, limit: int,
             tt: tuple | None = None, known: tuple[float, float] | None = None,
             probes: bool = True, close: int = 0, games: int | None = None, walk: bool = False,
             order: int = 0) -> tuple[float, int, float, float]:
        """One call of the kernel on `tt` (default: the current table), giving up after `limit` nodes (0: never);
        close: the close game asked (kernels/solver.py, X_CLOSE); games: the root games' budget with close 2,
        the root's hold game's with close 1 (default EARLY_GAME_NODES); walk: with close 2, the value walk first,
        on that budget (X_WALK); order 1: the followers' second ordering (X_ORDER).

        Without a guess: the floor test first; with `known` bounds: the guess first, then the floor test.
        """
        tt = self.tt if tt is None else tt
        X, hands, dong, node = self._arrays(pos, seat, probes, close)
        X[K.X_GAME_BUDGET] = EARLY_GAME_NODES if games is None else games
        partial = self.partial_left if close == 1 else 0
        X[K.X_PARTIAL] = partial
        X[K.X_PARTIAL_OUT] = self.partial_out
        X[K.X_WALK] = int(walk)
        X[K.X_ORDER] = order
        X[K.X_FLOOR_FIRST] = 1 if guess is None else (2 if known is not None else 0)
        guess = 0.0 if guess is None else guess
        X[K.X_LIMIT] = limit
        bounds = np.array([-K.INF, K.INF] if known is None else [max(known[0], -K.INF), min(known[1], K.INF)])
        args = (self.T, self.Q, X, *tt, hands, dong, *self.scratch, *node, float(guess), bounds)
        if self.time_limit is not None and self.deadline is None:
            self.deadline = time.monotonic() + self.time_limit
        if self.interruptible and self.deadline is not None and time.monotonic() >= self.deadline:
            self.timed_out = True
        if self.interrupted or self.timed_out:  # stopped already: no more searching
            v, bounds[:] = math.nan, (-K.INF, K.INF)
        elif self.interruptible:
            v = self._run_in_thread(X, args)
        else:
            self.live = X
            if self.parent is not None:  # `_search_all`'s stop() and progress read the bounded solver's
                self.parent.live = X
            v = K.mtd_kernel(*args)
        self.live = None  # before the count grows: a reader adding both never counts a node twice
        if self.parent is not None:
            self.parent.live = None
        self.nodes_searched += int(X[K.X_NODES])
        self.close_cuts += int(X[K.X_CLOSE_CUTS])
        self.hold_cuts += int(X[K.X_HOLD_CUTS])
        self.value_cuts += int(X[K.X_VALUE_CUTS])
        self.value_nodes += int(X[K.X_VALUE_NODES])
        self.get_cuts += int(X[K.X_GET_CUTS])
        self.partial_cuts += int(X[K.X_PARTIAL_CUTS])
        self.pass_proofs += int(X[K.X_PASS_PROOFS])
        self.cross_cuts += int(X[K.X_CROSS_CUTS])
        self.upper_proofs += int(X[K.X_UPPER_PROOFS])
        self.partial_left -= partial - int(X[K.X_PARTIAL])
        self.partial_out = int(X[K.X_PARTIAL_OUT])
        lo, hi = (float(x) if abs(x) < K.INF else math.copysign(math.inf, x) for x in bounds)
        return float(v), int(X[K.X_NODES]), lo, hi

    def _run_in_thread(self, X: np.ndarray, args: tuple) -> float:
        """mtd_kernel where Ctrl-C is heard at once (kernels/threads.py): it sets X_STOP and a node
        budget of 1, the search unwinds within microseconds, and the solver stays stopped."""

        def stop() -> None:
            X[K.X_STOP] = 1
            X[K.X_BUDGET] = 1  # a node past its budget unwinds the search (kernels/solver.py, X_STOP)

        def tick() -> None:
            if self.on_nodes is not None:
                self.on_nodes(self.nodes_searched + int(X[K.X_NODES]))

        v, halted = run_interruptible(K.mtd_kernel, args, stop, tick, deadline=self.deadline)
        self.interrupted |= halted == "interrupt"
        self.timed_out |= halted == "deadline"
        return v

    def value(self, pos: Position, seat: int) -> tuple[float, int]:
        """V_seat of the position (bonuses already paid included) and the nodes searched."""
        v, nodes, _, _ = self.value_bounds(pos, seat)
        return v, nodes

    def surely_closes(self, pos: Position, seat: int, width: int = 0, real: int = 0) -> bool:
        """Whether the close game (kernels/solver.py, _close_search) shows that `seat` closes whatever
        the others do, keeping to its first `width` discards a turn (0: all) (False: not shown; always
        False with the dice on).  The seats of the bit mask `real` choose their discards instead of
        owing them (`_squeeze_close`); with every other seat choosing and width 0 it is the real game."""
        return self._game(pos, seat, K.GAME_CLOSE, 0, width, real=real)

    def surely_holds(self, pos: Position, seat: int, extra: int, width: int = 0) -> bool:
        """Whether the hold game (kernels/solver.py, _close_search) shows that the other seats hold
        `seat` to at most `extra` more 戙 without its closing, keeping to their first `width` discards
        a turn (0: all) (False: not shown; always False with the dice on)."""
        return self._game(pos, seat, K.GAME_HOLD, pos.dong[seat] + extra, width)

    def surely_gets(self, pos: Position, seat: int, extra: int, width: int = 0) -> bool:
        """Whether the get game (kernels/solver.py, _close_search) shows that `seat` ends with at least
        `extra` more 戙 whatever the others do, keeping to its first `width` discards a turn (0: all)
        (False: not shown; always False with the dice on)."""
        return self._game(pos, seat, K.GAME_GET, pos.dong[seat] + extra, width)

    def surely_at_least(self, pos: Position, seat: int, target: int, width: int = 0) -> bool:
        """Whether the value game (kernels/solver.py, _close_search) shows that V_seat (as `value`) is
        at least the whole number `target` whatever the others do, `seat` keeping to its first `width`
        discards a turn (0: all) (False: not shown; always False with the dice on)."""
        return self._value_game(pos, seat, K.GAME_AT_LEAST, target, width)

    def surely_at_most(self, pos: Position, seat: int, target: int, width: int = 0, unowed: bool = False) -> bool:
        """Whether the value game shows that the other seats hold V_seat (as `value`) to at most the whole
        number `target`, keeping to their first `width` discards a turn (0: all) (False: not shown)."""
        return self._value_game(pos, seat, K.GAME_AT_MOST, target, width, unowed)

    def _value_game(self, pos: Position, seat: int, game: int, target: int, width: int, unowed: bool = False) -> bool:
        """A value game; never shown with a bonus in play (the games leave bonuses out)."""
        Q = self.Q
        if Q[R_SUPREME_BONUS] > 0 or Q[R_QUARTET_BONUS] > 0 or Q[R_SUPREME_CLOSE] != 0 or pos.pending:
            return False
        return self._game(pos, seat, game, target - (pos.paid[seat] if pos.paid else 0), width, unowed)

    def _game(self, pos: Position, seat: int, game: int, hold: int, width: int, unowed: bool = False,
              real: int = 0) -> bool:
        """One of the yes / no games (kernels/solver.py, GAME_*) from `pos` for `seat`; the seats of the mask
        `real` choose their discards where the game would have them owed (X_REAL)."""
        pos.check()
        if self.Q[R_DICE_ON] != 0:
            return False
        self._new_generation()
        X, hands, dong, node = self._arrays(pos, seat)
        X[K.X_UNOWED] = int(unowed)
        X[K.X_REAL] = real
        leader, lead_p, win_p, win_seat, win_lead, _, _, actor = node
        r = K.close_kernel(self.T, self.Q, X, *self.tt, hands, dong, *self.scratch,
                           leader, lead_p, win_p, win_seat, win_lead, actor, game, hold, width)
        self.nodes_searched += int(X[K.X_NODES])
        return bool(r)

    def value_bounds(self, pos: Position, seat: int) -> tuple[float, int, float, float]:
        """`value` with the bounds proved: (V_seat or NaN if the search gave up, nodes, low, high)."""
        pos.check()
        self._new_generation()
        v, nodes, lo, hi = self._value(pos, seat)
        paid = pos.paid[seat] if pos.paid else 0
        return v + paid, nodes, lo + paid, hi + paid

    # -- actions ------------------------------------------------------------------------
    def legal_actions(self, pos: Position) -> list[tuple[str, int]]:
        """Each distinct legal action of the seat to act: ('lead'|'beat'|'discard', tiles)."""
        cat = self.cat
        seat = pos.to_act()
        if seat < 0:
            return []
        hand = pos.hands[seat]
        plays = [p for p in range(cat.n) if int(cat.mask[p]) & hand == int(cat.mask[p])
                 and int(cat.need_absent[p]) & hand == 0]
        if not pos.trick:
            forced = self.dice_suits(pos)
            if forced:
                union = 0
                for m in forced:
                    union |= m
                plays = [p for p in plays if cat.size[p] == 1 and int(cat.mask[p]) & union]
            return [(LEAD, int(cat.mask[p])) for p in sorted(plays, key=lambda p: int(cat.mask[p]))]
        size = popcount(pos.trick[0][2])
        win_p, _, is_lead = pos.standing()
        last = popcount(pos.hands[pos.leader]) == 0
        out = []
        early = (last and self.rules.early_death
                 and pos.dong[seat] + size < self.rules.early_death_min_dong)
        if not early:
            rel = cat.beats_led if is_lead else cat.beats_follow
            out += [(BEAT, int(cat.mask[p])) for p in sorted(plays, key=lambda p: int(cat.mask[p]))
                    if rel[p, win_p]]
        out += [(DISCARD, d) for d in _discards(hand, size)]
        return out

    def _twin_actions(self, pos: Position, legal: list[tuple[str, int]]) -> dict[int, int]:
        """{i: j}: action i plays the higher of two twins the actor holds (kernels/solver.py, twin_pairs) and
        action j is its image with the lower one.  The position, whose hands hold both twins or neither, is
        its own image, so the two actions' positions are images of each other and have equal values."""
        if not self.twins:
            return {}
        hand = pos.hands[pos.to_act()]
        index = {a: i for i, a in enumerate(legal)}
        out = {}
        for i, (action, mask) in enumerate(legal):
            image = mask
            for lo, hi in self.twin_pairs:
                if mask >> hi & 1 and not mask >> lo & 1 and hand >> lo & 1:
                    image = image & ~(1 << hi) | 1 << lo
            if image != mask:
                out[i] = index[(action, image)]
        return out

    def dice_suits(self, pos: Position) -> list[int]:
        """Suit masks the residual-tile dice may force on the leader (empty: no dice)."""
        q = self.Q
        hand = pos.hands[pos.leader]
        if not q[R_DICE_ON] or popcount(hand) not in (2, 3):
            return []
        if any(hand & int(self.T[K.ROW_TILE + b, K.K_PARTNERS]) for b in bits_of(hand)):
            return []
        suits = set()
        order = [int(q[R_SUIT_GONG]), int(q[R_SUIT_ZA]), int(q[R_SUIT_YAO])]
        for total in range(2, 13):
            suit = order[0] if total >= self.rules.dice_gong_min else (
                order[1] if total >= self.rules.dice_za_min else order[2])
            if not hand & suit:
                suit = next(m for m in order if hand & m)
            suits.add(suit)
        return sorted(suits)

    def apply(self, pos: Position, action: str, mask: int) -> Position:
        """The position after the seat to act plays `action` with the tiles `mask`."""
        return advance(self.rules, self.cat, pos, action, mask)

    def _spawn(self) -> Solver:
        """A solver with the same rules and settings and its own tables (another thread's searches);
        the calling thread hears Ctrl-C and the deadline and stops it (`_search_all`)."""
        return Solver(self.rules, self.tt_bits, self.dominance, self.max_nodes, self.probes,
                      trick_table=self.trick_table, stoppers=self.stoppers, close_game=self.close_game,
                      twins=self.twins, relaxed=self.relaxed, passing=self.passing, low_beats=self.low_beats,
                      dead_debts=self.dead_debts, tied_high=self.tied_high, gap_plays=self.gap_plays,
                      owed_gaps=self.owed_gaps)

    def _search_all(self, jobs: list, seat: int, threads: int, on_action, done: int, base: tuple) -> list:
        """The search of each job (child, known, guess), in chains of CHAIN jobs (`_chain`, from the
        table `base`), up to `threads` chains at once; on_action(solved, total) as searches finish.

        Easy actions first: every chain is searched until each search has EASY_NODES[0] nodes, then the
        searches still open go on to EASY_NODES[1] nodes, and so on, and at last to the end, each step a task
        of its own that starts from the table the chain's last step left, the bounds proved and the nodes
        spent (`_growing`), searched after every task of the step before (`_run_chains`): a solve stopped early
        (Ctrl-C, --max-time) then has the value of every action quick to solve.  In the last step each search
        still open is a task of its own (SPLIT_LAST), so a chain's two dear searches may go to two threads.
        """
        total = done + len(jobs)
        if on_action is not None:
            on_action(done, total)
        if not jobs:
            return []
        chains = [jobs[i:i + CHAIN] for i in range(0, len(jobs), CHAIN)]
        out = [[] for _ in chains]
        steps = tuple(t for t in EASY_NODES if t > 0)

        def open_(got: tuple, step: int) -> bool:  # stopped by the step's nodes, not by max_nodes
            return step < len(steps) and math.isnan(got[0]) and (self.max_nodes <= 0 or got[1] < self.max_nodes)

        def then(task: tuple, part: list, left: tuple | None) -> tuple:
            """(the tasks that go on with the searches still open, the results now final)."""
            step, k, js = task[3]
            if js is None:  # the chain's first step
                out[k], js = list(part), range(len(part))
            else:
                for j, got in zip(js, part):
                    was = out[k][j]  # its bounds hold if this step was stopped before it began
                    out[k][j] = (got[0], was[1] + got[1], max(was[2], got[2]), min(was[3], got[3]))
            still = [j for j in js if open_(out[k][j], step)]
            if not still or left is None or self.interrupted or self.timed_out:
                return [], len(js)
            upto = steps[step + 1] if step + 1 < len(steps) else 0
            # the last step: each search open a task of its own (SPLIT_LAST)
            groups = [[j] for j in still] if upto == 0 and SPLIT_LAST else [still]
            return [([(chains[k][j][0], out[k][j][2:4], chains[k][j][2], out[k][j][1]) for j in g], left, upto,
                     (step + 1, k, g)) for g in groups], len(js) - len(still)

        tasks = [(chain, base, steps[0] if steps else 0, (0, k, None)) for k, chain in enumerate(chains)]
        self._run_chains(tasks, seat, threads, on_action, done, total, then)
        return [got for part in out for got in part]

    def _run_chains(self, tasks: list, seat: int, threads: int, on_action, done: int, total: int, then) -> None:
        """Search each task (chain, base, nodes, (step, k, …)) by `_chain`, up to `threads` at once, in order;
        for each task ended, then(task, results, table left) gives the tasks to search after all of `tasks`
        and the results now final, which on_action(solved, total) counts.  Of the tasks so given, a thread
        that frees takes the one of lowest (step, k, first search): step by step, in the chains' order, as in one
        pass (a dear deal's dearest chains then go to different threads as they did; in the order they were
        given in, two could go to one thread: deal 238's path 62 M -> 89 M nodes).

        Interruptible solvers (and more than one thread) search in worker threads while this one
        waits, hearing Ctrl-C and the deadline: it then stops every search (X_STOP, as
        `_run_in_thread` does) and the searches not finished end with the bounds they proved.
        """
        # a lone chain's split last step stays on this thread: a second solver would cost each 2-action position 9 ms
        threads = min(threads, len(tasks))
        queue = list(tasks)
        later: list = []  # ((step, k, first search), task) of the tasks `then` gave, as a heap

        def next_task() -> tuple:
            return queue.pop(0) if queue else heapq.heappop(later)[1]

        def given(more: list) -> None:
            for task in more:  # (step, k, its first search): two tasks of one chain's last step in order
                heapq.heappush(later, ((*task[3][:2], task[3][2][0]), task))

        if threads <= 1 and not self.interruptible:
            while queue or later:
                task = next_task()
                part = self._chain(task[0], seat, task[1], task[2])
                more, final = then(task, part, self.chain_left)
                given(more)
                done += final
                if on_action is not None:
                    on_action(done, total)
            return
        from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait  # noqa: PLC0415

        free = [self] + [self._spawn() for _ in range(threads - 1)]
        workers = len(free)
        busy: list[Solver] = []
        interruptible, self.interruptible = self.interruptible, False
        if self.time_limit is not None and self.deadline is None:
            self.deadline = time.monotonic() + self.time_limit

        def one(task: tuple) -> tuple:
            chain, base, upto, _ = task
            sv = free.pop()
            busy.append(sv)
            try:
                if self.interrupted or self.timed_out:  # stopped: no new search starts
                    return [(math.nan, 0, -math.inf, math.inf)] * len(chain), None
                part = sv._chain(chain, seat, base, upto)
                return part, sv.chain_left
            finally:
                busy.remove(sv)
                free.append(sv)

        before = self.nodes_searched
        finished = 0
        shown = 0

        def tick() -> None:
            nonlocal shown
            if self.on_nodes is not None:
                now = before + finished
                for sv in list(busy):  # finished chains, then the running searches (the searches
                    # done earlier in a chain, or before a move to the full table, are missed until
                    # their chain ends: the count shown only grows)
                    X = sv.live
                    now += int(X[K.X_NODES]) if X is not None else 0
                shown = max(shown, now)
                self.on_nodes(shown)

        def stop() -> None:
            for sv in list(busy):
                sv.interrupted = True  # no further search in this solver (the reason is kept on self)
                X = sv.live
                if X is not None:
                    X[K.X_STOP] = 1
                    X[K.X_BUDGET] = 1  # a node past its budget unwinds the search (kernels/solver.py)

        pool = ThreadPoolExecutor(max_workers=len(free), thread_name_prefix="tjsim-solve")
        try:
            futures = {}
            pending = set()
            finished_tasks = set()

            def submit() -> None:  # a task to each thread free (the main thread decides which)
                while len(pending) < workers and (queue or later):
                    task = next_task()
                    f = pool.submit(one, task)
                    futures[f] = task
                    pending.add(f)

            def ended(f) -> None:
                nonlocal finished, done
                part, left = f.result()
                finished_tasks.add(f)
                finished += sum(got[1] for got in part)
                more, final = then(futures[f], part, left)
                done += final
                given(more)
                if on_action is not None:
                    on_action(done, total)

            halted = None
            submit()
            try:
                while pending:
                    wait_s = 0.25 if self.deadline is None else max(0.0, min(0.25, self.deadline - time.monotonic()))
                    ready, pending = wait(pending, timeout=wait_s, return_when=FIRST_COMPLETED)
                    for f in ready:
                        ended(f)
                    if not (self.interrupted or self.timed_out):
                        submit()
                    if self.deadline is not None and time.monotonic() >= self.deadline and pending:
                        halted = "deadline"
                        break
                    tick()
            except KeyboardInterrupt:
                halted = "interrupt"
            if halted is not None:
                timed_out = self.timed_out or halted == "deadline"
                self.interrupted = True  # no job not yet started searches now (`one`)
                while pending:
                    stop()
                    ready, pending = wait(pending, timeout=0.002)
                for f in list(futures):
                    if f not in finished_tasks:
                        ended(f)  # no task follows now: `then` sees the solver stopped
                while queue or later:  # never started: nothing proved
                    task = next_task()
                    then(task, [(math.nan, 0, -math.inf, math.inf)] * len(task[0]), None)
                self.interrupted = halted == "interrupt"  # stop() marked self too, whatever the reason
                self.timed_out = timed_out
        finally:
            pool.shutdown(wait=True)
            self.interruptible = interruptible
        self.nodes_searched = before + finished

    def solve(self, pos: Position, seat: int | None = None, on_action=None, threads: int = 1) -> Solution:
        """V_seat of the position and of each distinct legal action of the seat to act.

        The actions are searched in chains of CHAIN (`_chain`), each chain on a table that starts with
        the entries of the position's search, so their values and nodes do not depend on the order or on
        `threads`, the number of chains searched at once (each thread has its own tables).
        on_action(done, total), if given, is called before the first action is solved and after each one.
        """
        pos.check()
        to_act = pos.to_act()
        if to_act < 0:
            raise TjsimError("the deal is over: no position to solve")
        seat = to_act if seat is None else seat
        if not 0 <= seat < pos.players or seat in pos.folded:
            raise TjsimError(f"--seat must be a seat that plays, 0 to {pos.players - 1}, got {seat}")
        self._new_generation()
        paid0 = pos.paid[seat] if pos.paid else 0
        nodes = 0
        legal = self.legal_actions(pos)
        chance = not pos.trick and bool(self.dice_suits(pos))
        # The position's value first (with the dice a chance node, its value its own).  Its search is
        # usually short, and it bounds every action: none is worth more than the position to the
        # seat choosing it, nor less to its opponents.  So each action's search starts with the one
        # test that settles a best action: "as good as the position?" (mtd_kernel, X_FLOOR_FIRST = 2).
        # Past POSITION_BUDGET nodes the position is valued from its actions instead, each searched
        # from its own floor test (or from a bound the position's search proved) and the best taken.
        budget = POSITION_BUDGET if (not chance and len(legal) > 1) else 0
        passing = self.passing
        if budget and not POSITION_PASSING and passing is True:
            self.passing = False
        try:
            fut, n, lo, hi = self._value(pos, seat, budget=budget)
        finally:
            self.passing = passing
        nodes += n
        root = (fut + paid0, lo + paid0, hi + paid0)
        children = [self.apply(pos, action, mask) for action, mask in legal]
        twin = self._twin_actions(pos, legal)
        todo = [i for i, c in enumerate(children) if c.to_act() >= 0 and i not in twin]
        jobs = []
        for i in todo:
            paid = children[i].paid[seat] if children[i].paid else 0
            known, guess = None, None
            if not chance and to_act == seat and math.isfinite(root[2]):
                known, guess = (-math.inf, root[2] - paid), root[2] - paid
            elif not chance and to_act != seat and math.isfinite(root[1]):
                known, guess = (root[1] - paid, math.inf), root[1] - paid + 1.0
            jobs.append((children[i], known, guess))
        base = self._snapshot() if jobs else None
        found = self._search_all(jobs, seat, threads, on_action, len(legal) - len(todo), base)
        searched = dict(zip(todo, found))
        actions = []
        for i, ((action, mask), child) in enumerate(zip(legal, children)):
            k = twin.get(i, i)  # a move with the higher twin has its image's value (`_twin_actions`)
            if k not in searched:
                v = lo = hi = float(child.paid[seat])  # the deal is over: `paid` is the whole result
            else:
                fut, n, lo, hi = searched[k]
                nodes += n if k == i else 0
                paid = child.paid[seat] if child.paid else 0
                v, lo, hi = fut + paid, lo + paid, hi + paid
            if not chance:
                if to_act == seat:
                    hi = min(hi, root[2])
                else:
                    lo = max(lo, root[1])
            actions.append(Action(action, mask, lo if lo == hi else v, lo, hi))
        if chance:
            value, low, high = root
        else:
            pick = max if to_act == seat else min
            low = pick(a.low for a in actions)
            high = pick(a.high for a in actions)
            low, high = max(low, root[1]), min(high, root[2])
            value = low if low == high else math.nan
        return Solution(seat, to_act, value, tuple(actions), nodes, chance, low, high, self.interrupted,
                        self.timed_out)


def _finish_trick(rules: RuleSet, cat, pos: Position) -> Position:
    """Close the trick in progress: 戙, bonuses (§5.4), the next leader; settle if the deal is over."""
    leader = pos.leader
    lead_mask = pos.trick[0][2]
    lead_p = cat.find(lead_mask)
    size = popcount(lead_mask)
    win_p, winner, _ = pos.standing()
    dong = list(pos.dong)
    dong[winner] += size
    paid = list(pos.paid) if pos.paid else [0] * pos.players
    active = pos.active()
    first = leader not in pos.has_led
    last = pos.hands[leader] == 0
    pending = pos.pending

    def give(receiver: int, per: int) -> None:
        for s in active:
            if s != receiver:
                paid[s] -= per
                paid[receiver] += per

    extra = 1
    catcher = None
    if lead_p == cat.supreme:
        beats = [s for s, a, _ in pos.trick if a == BEAT]
        if last and rules.supreme_close:
            if winner == leader:
                extra = 2
            elif beats and winner == beats[0]:
                catcher = winner
        elif not last and first and rules.supreme_bonus > 0:
            if winner != leader and rules.supreme_bonus_suspended:
                pending = (leader, winner)
            else:
                give(leader, rules.supreme_bonus)
    if int(cat.cls[lead_p]) == cat.quartet_class and rules.quartet_bonus > 0:
        give(winner, rules.quartet_bonus)
    if last:
        if pending is not None and pending[1] != winner:
            give(pending[0], rules.supreme_bonus)
        pending = None
        if catcher is not None and rules.supreme_close_reward > 0:
            give(catcher, rules.supreme_close_reward)
        settlement = settle_reference(rules, dong, winner, pos.banker, pos.streak, sorted(pos.folded),
                                      doubled=extra == 2)
        paid = [p + q for p, q in zip(paid, settlement)]
    return replace(pos, dong=tuple(dong), paid=tuple(paid), trick=(), leader=winner,
                   has_led=pos.has_led | {leader}, pending=pending)


def position_from_deal(rules: RuleSet, hands: list[int], dong: list[int], leader: int, banker: int = 0,
                       streak: int = 1, folded: frozenset[int] = frozenset()) -> Position:
    """A trick-boundary position from hands still held and each seat's 戙 (no bonus state)."""
    pos = Position(rules, tuple(hands), tuple(dong), leader, banker, streak, frozenset(folded))
    pos.check()
    return pos


def position_from_trace(rules: RuleSet, trace: dict, at: int) -> Position:
    """The position of a game trace before its `at`-th play (plays counted from 0 in trace order)."""
    try:
        replay(rules, trace)
    except IllegalAction as e:
        raise TjsimError(f"the trace is not a legal deal under rules '{rules.name}': {e}") from None
    plays = [p for trick in trace.get("tricks", []) for p in trick["plays"]]
    if not 0 <= at < len(plays):
        raise TjsimError(f"--at must be 0 to {len(plays) - 1} (the trace has {len(plays)} plays), got {at}")
    n = rules.players
    folded = frozenset(trace.get("folded", []))
    hands = [0] * n
    used = 0
    for seat, names in enumerate(trace["hands"]):
        hands[seat] = parse_hand(" ".join(names), FULL_MASK & ~used)
        used |= hands[seat]
    banker = int(trace.get("banker", 0))
    leader = banker
    while leader in folded:
        leader = (leader + 1) % n
    live = [0 if s in folded else hands[s] for s in range(n)]
    pos = Position(rules, tuple(live), (0,) * n, leader, banker, int(trace.get("streak", 1)), folded,
                   paid=(0,) * n)
    cat = catalogue(rules)
    for play in plays[:at]:
        mask = parse_hand(" ".join(play["tiles"]), pos.hands[pos.to_act()])
        pos = advance(rules, cat, pos, play["action"], mask)
    return pos


def advance(rules: RuleSet, cat, pos: Position, action: str, mask: int) -> Position:
    """The position after the seat to act plays `action` with the tiles `mask` (no legality check)."""
    seat = pos.to_act()
    hands = list(pos.hands)
    hands[seat] &= ~mask
    moved = replace(pos, hands=tuple(hands), trick=pos.trick + ((seat, action, mask),))
    if pos.next_active(seat) != pos.leader:
        return moved
    return _finish_trick(rules, cat, moved)
