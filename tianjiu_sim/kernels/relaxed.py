"""Relaxed games that bound a position's value from above and below: the other seats' single tiles read by the
gaps between seat s's ranks (RULES.md §8; not from DDS).

In the paranoid game the other seats (the side against s) choose together.  Take their single tiles of one class
that lie between two consecutive ranks of s's singles (a *gap*): against s every one of them acts alike, since a
play of s beats all of them or none.  They differ only against each other — which of the side's plays stands when
two of them meet in a trick — and that is what makes the exact proofs long: the side's face-down discards of such
tiles are all searched, and positions that differ only in which of them a seat kept are solved apart.  Two games
change only that:

- `weaker` (V' >= V): the side's singles in one gap are of equal rank, so none of them beats another (the first
  played stands, as for equal tiles in the real game).  The side loses options, s none: an upper bound on V.
- `stronger` (V'' <= V): any single of the side beats another of the side in its gap (the side chooses which of
  its plays stands).  The side gains options, s loses none: a lower bound on V.

In both, every relation of s's tiles to any tile is the real one (a gap lies strictly between two of s's ranks;
a tile of the side equal in rank to one of s's keeps that rank), and so are multi-tile plays.  The side's tiles of
one gap in one hand are then interchangeable, so the solver's groups (`_groups`) and its table keys (`_reading`,
with the tiles of equal rank ordered by seat) merge them.  On the dearest full deals of benchmarks/bench_solve_cli.py
the two games settle tests the real search takes tens of millions of nodes for (benchmarks/README.md, stop 49).

Both are built as solver tables from a changed catalogue (`build_solver_tables`), so the solver's kernel plays
them unchanged: it decides every beat from the tables' lists and masks (`_last_single_trick` too, since stop 49),
and reads the ranks only to order moves and, in the close game's last trick, to pick a side's highest beating tile.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..game.catalogue import Catalogue
from ..game.rules import RuleSet
from . import solver as K

WEAKER, STRONGER = 0, 1


def gap_catalogue(cat: Catalogue, s_tiles: int, side: int, game: int) -> Catalogue:
    """The catalogue of a relaxed game: s holds (or has in the trick) `s_tiles`, the other seats `side`."""
    singles = [p for p in range(cat.n) if cat.size[p] == 1]
    rank = cat.rank.astype(np.int64).copy()
    for c in {int(cat.cls[p]) for p in singles}:
        ps = [p for p in singles if cat.cls[p] == c]
        ranks_s = sorted({int(cat.rank[p]) for p in ps if int(cat.mask[p]) & s_tiles})
        for p in ps:
            r = int(cat.rank[p])
            # odd: one of s's ranks; even: the gap below the (k+1)-th of them
            rank[p] = 2 * ranks_s.index(r) + 1 if r in ranks_s else 2 * sum(1 for x in ranks_s if x < r)
    beats_led, beats_follow = cat.beats_led.copy(), cat.beats_follow.copy()
    for a in singles:
        for b in singles:
            if cat.cls[a] != cat.cls[b]:
                continue
            both_side = bool(int(cat.mask[a]) & side and int(cat.mask[b]) & side)
            beats = rank[a] > rank[b] or (game == STRONGER and rank[a] == rank[b] and a != b and both_side)
            beats_led[a, b] = beats_follow[a, b] = beats
    return replace(cat, rank=rank.astype(cat.rank.dtype), beats_led=beats_led, beats_follow=beats_follow)


def gap_tables(rules: RuleSet, cat: Catalogue, hands: tuple[int, ...], trick: tuple, seat: int, game: int) -> np.ndarray:
    """Solver tables of a relaxed game (WEAKER or STRONGER) for `seat` from the hands still held and the trick in
    progress ((seat, action, tiles) a play).  Twins (`twin_pairs`) are off: the gaps need not keep their symmetry."""
    single = np.flatnonzero(cat.size == 1)  # the gaps read beating from the ranks: true of every rule set's singles
    by_rank = (cat.cls[single][:, None] == cat.cls[single][None, :]) & (cat.rank[single][:, None] > cat.rank[single][None, :])
    if not np.array_equal(cat.beats_follow[np.ix_(single, single)], by_rank):
        raise ValueError("single tiles beat each other other than by rank")
    held = list(hands)
    for x, _, m in trick:  # a tile played in the trick still stands or was beaten by its seat's side
        held[x] |= m
    side = 0
    owner = [len(hands)] * 32
    for x, h in enumerate(held):
        for b in range(32):
            if h >> b & 1:
                owner[b] = x
        if x != seat:
            side |= h
    relaxed = gap_catalogue(cat, held[seat], side, game)
    t = K.build_solver_tables(rules, relaxed, tie_order=owner)
    t[K.ROW_TILE:K.ROW_TILE + 32, K.K_TWIN] = 0
    t[K.ROW_PLAY:K.ROW_PLAY + t.shape[1], K.C_TWIN] = 0
    return t
