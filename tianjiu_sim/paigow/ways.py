"""Ways to split four tiles: named house ways, the best reply to a way, and the two-sided solution.

A strategy is a float array [D, 3]: for each distinct hand, the probability of each of its three
splits (a named way or a best reply puts 1.0 on one split; the solution may mix).

The Foxwoods house way is implemented from the text of the Wizard of Odds page "Pai Gow Tiles
House Way from Foxwoods" (from a Foxwoods Training Center booklet, February 1997): its pair
rules A–F, its wong / gong / high-nine rule with exceptions A–C and its "other hands" rule with
exceptions A–B. Exceptions C–K of "other hands" list their tiles in pictures that the stored
copy of the page does not hold, and its "unwritten rule" is cut off; they are not implemented
(README, "Compare games"). A pair rule never splits a pair into two lower hands (the Casino
Canberra way's rule for the same example; our reading).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

import numpy as np

from ..errors import TjsimError
from ..game.tiles import KIND_BY_PIPS, KINDS, TILE_KIND
from . import kernels
from .hands import (
    EARTH,
    GEE_JOON,
    GONG,
    HEAVEN,
    PAIR,
    POINTS,
    SUPREME,
    WONG,
    DistinctHands,
    RankTable,
    distinct_hands,
    pips_total,
    rank_table,
    single_rank,
    split_pairs,
    split_ranks,
)
from .profiles import Profile, SIDE_WAYS, WAY_NAMES



@dataclass(eq=False)
class Game:
    """A profile with its rank table, distinct hands and their splits' strengths."""

    profile: Profile
    table: RankTable
    hands: DistinctHands
    front: np.ndarray
    back: np.ndarray
    cache: dict = field(default_factory=dict)

    @property
    def n_splits(self) -> int:
        """3 for four-tile hands; 1 for the two-tile hands of 摃莊."""
        return 3 if self.profile.tiles_per_hand == 4 else 1

    @property
    def payoff_win(self) -> float:
        """What a winning player receives per unit staked (commission taken off)."""
        return 1.0 - self.profile.commission

    def values(self, villain: np.ndarray, hero_is_player: bool, caps: np.ndarray | None = None,
               rows: np.ndarray | None = None):
        """(wins, losses, deals) of each hero hand (or of `rows` only) and split against the villain, exact."""
        p = self.profile
        caps = self.table.caps if caps is None else caps
        h = self.hands
        r = np.arange(len(h)) if rows is None else np.asarray(rows, dtype=np.int64)
        return kernels.cross(self.front[r], self.back[r], h.counts[r], self.n_splits, self.front, self.back,
                             h.cls, h.num, np.ascontiguousarray(villain, dtype=np.float64),
                             np.asarray(caps, dtype=np.int64), hero_is_player, p.ties == "banker",
                             p.half_push == "win")

    def player_payoff(self, wins: np.ndarray, losses: np.ndarray) -> np.ndarray:
        """The player's summed result (per unit stake) from win and loss counts."""
        return wins * self.payoff_win - losses


_GAMES: dict[Profile, Game] = {}


def game(p: Profile) -> Game:
    """The (cached) Game of a profile."""
    if p not in _GAMES:
        table = rank_table(p)
        hands = distinct_hands(table, p.tiles_per_hand)
        front, back = split_ranks(table, hands)
        _GAMES[p] = Game(p, table, hands, front, back)
    return _GAMES[p]


def pure(choice: np.ndarray) -> np.ndarray:
    """A strategy that plays split choice[h] of every hand h."""
    s = np.zeros((len(choice), 3))
    s[np.arange(len(choice)), choice] = 1.0
    return s


def _order(g: Game, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Per hand, the split with the largest `first`, ties by `second`, then the lowest index."""
    score = first * 4096 + second
    return np.argmax(score[:, : g.n_splits], axis=1)


def front_way(g: Game) -> np.ndarray:
    """'front': make the front (lower) pair as strong as possible, then the back."""
    return pure(_order(g, g.front, g.back))


def back_way(g: Game) -> np.ndarray:
    """'back': make the back (higher) pair as strong as possible, then the front."""
    return pure(_order(g, g.back, g.front))


# --- The Foxwoods house way (see the module docstring for its source and what is missing) ---

def _value(bit: int) -> int:
    """A tile's number in the house-way text: its pips (teen 12, day 2, …); Gee Joon tiles 0."""
    k = TILE_KIND[bit]
    return 0 if k in GEE_JOON else pips_total(k)


def _level(key: tuple[int, ...]) -> int:
    """A pair's 'points' as the house-way text compares them: pairs 10, wong 9, gong 8, else points."""
    return {SUPREME: 10, PAIR: 10, WONG: 9, GONG: 8}.get(key[0], key[1] if key[0] == POINTS else 0)


def _best(cands: list[int], g: Game, h: int, first: str) -> int:
    f, b = g.front[h], g.back[h]
    return max(cands, key=lambda s: (f[s], b[s], -s) if first == "front" else (b[s], f[s], -s))


def foxwoods_split(g: Game, h: int) -> int:
    """The Foxwoods house way's split of distinct hand h."""
    t = g.table
    hands = g.hands
    pairs = [split_pairs(hands, h, s) for s in range(3)]
    keys = [(t.key_of(*a), t.key_of(*b)) for a, b in pairs]
    is_pair = [[k[0] in (PAIR, SUPREME) for k in ks] for ks in keys]
    paired = [s for s in range(3) if any(is_pair[s])]
    if paired:
        both = [s for s in paired if all(is_pair[s])]
        if both:
            return both[0]  # two pairs: play them as the two hands [our reading]
        s = paired[0]
        pair, rest = pairs[s] if is_pair[s][0] else pairs[s][::-1]
        others = [x for x in range(3) if x != s]
        if _split_the_pair(g, h, pair, rest, others, keys):
            t = _best(others, g, h, "front")
            # Never split a pair into two lower hands (e.g. 6-6 6-6 2-1 3-1: 6/8 is below 7/pair): the
            # Casino Canberra way on the same site says so for this very hand; the Foxwoods text's
            # "unwritten rule" is cut off in our copy, so this is our reading.
            if not (g.front[h, t] < g.front[h, s] and g.back[h, t] < g.back[h, s]):
                return t
        return s
    special = _wong_gong_nine(g, h, pairs)
    if special is not None:
        return special
    return _other_hands(g, h, pairs, keys)


def _split_the_pair(g: Game, h: int, pair, rest, others, keys) -> bool:
    kind = TILE_KIND[pair[0]]
    vx, vy = sorted((_value(rest[0]), _value(rest[1])))
    if {TILE_KIND[pair[0]], TILE_KIND[pair[1]]} == set(GEE_JOON):  # rule B
        return (vx, vy) in ((4, 6), (5, 6), (6, 6))
    val = pips_total(kind)
    if val in (4, 5, 6, 10, 11):  # rule A
        return False
    if kind in (HEAVEN, EARTH):  # rule C
        if (vx, vy) == (9, 11):
            return True
        return any(min(_level(keys[s][0]), _level(keys[s][1])) >= 6 and
                   max(_level(keys[s][0]), _level(keys[s][1])) >= 8 for s in others)
    big = {2, 10, 11, 12}
    if val == 9:  # rule D
        return vx in (2, 10, 12) and vy in (2, 10, 12)
    if val == 8:  # rule E
        return (vx in big and vy in big) or (vx, vy) == (9, 11)
    if val == 7:  # rule F
        return vx in big and vy in big
    return False


_TYPE_ORDER = {"high9": 0, "gong": 1, "wong": 2}  # play high nine over gong over wong


def _wong_gong_nine(g: Game, h: int, pairs) -> int | None:
    """Rule 'Wong, Gong, and High Nine': a 2 or 12 tile with a 7, 8 or 9 (and its exceptions A–C)."""
    cands: dict[str, list[tuple[int, int, int]]] = {}
    for s, (a, b) in enumerate(pairs):
        for pa in (a, b):
            for top, other in ((pa[0], pa[1]), (pa[1], pa[0])):
                if TILE_KIND[top] in (HEAVEN, EARTH) and _value(other) in (7, 8, 9) \
                        and TILE_KIND[other] not in (HEAVEN, EARTH):
                    kind = {9: "wong", 8: "gong", 7: "high9"}[_value(other)]
                    cands.setdefault(kind, []).append((s, top, other))
    if not cands:
        return None
    types = sorted(cands, key=_TYPE_ORDER.get)
    choice = types[0]
    if len(types) > 1:
        used = {x for c in cands.values() for (_, top, other) in c for x in (top, other)}
        fourth = [x for x in g.hands.tiles[h].tolist() if x not in used]
        fourth_value = _value(fourth[0]) if len(fourth) == 1 else None
        if "wong" in cands and fourth_value == 11 and choice in ("gong", "high9"):
            choice = "wong"  # exceptions A and B
        elif choice == "high9" and "gong" in cands:
            low8 = any(KINDS[TILE_KIND[o]].military for (_, _, o) in cands["gong"])
            if fourth_value == 4 or (low8 and fourth_value == 5):
                choice = "gong"  # exception C
    splits = sorted({s for (s, _, _) in cands[choice]})
    heaven_back = [s for s in splits if any(TILE_KIND[x] == HEAVEN for x in _back_pair(g, h, s))]
    if heaven_back and len(heaven_back) < len(splits):
        splits = heaven_back  # "play the 12 in the high hand"
    return _best(splits, g, h, "front")


def _back_pair(g: Game, h: int, s: int) -> tuple[int, int]:
    a, b = split_pairs(g.hands, h, s)
    return a if g.table.rank[a] >= g.table.rank[b] else b


def _other_hands(g: Game, h: int, pairs, keys) -> int:
    """Rule 'Other hands' with its exceptions A and B."""
    p = g.profile
    high3 = (POINTS, 3, single_rank(p, KIND_BY_PIPS["3-3"].index))
    fronts = [min(k) for k in keys]
    backs = [max(k) for k in keys]
    best_low = max(fronts)
    best_high = max(backs)
    if best_low < high3 and _level(best_high) >= 7:
        s = _best(list(range(3)), g, h, "back")
    else:
        s = _best(list(range(3)), g, h, "front")
    pts = (_level(fronts[s]), _level(backs[s]))
    same = [x for x in range(3) if (_level(fronts[x]), _level(backs[x])) == pts]
    tiles = g.hands.tiles[h].tolist()
    if pts[0] >= 8 and pts[1] >= 9:  # exception A: the high tile in the high hand
        top = max(tiles, key=lambda b: single_rank(p, TILE_KIND[b]))
        with_top = [x for x in same if top in _back_pair(g, h, x)]
        if with_top:
            s = _best(with_top, g, h, "front")
    kinds = {TILE_KIND[b] for b in tiles}
    if pts == (7, 8) and {HEAVEN, EARTH} <= kinds:  # exception B: the 12 in the high hand
        with_teen = [x for x in same if any(TILE_KIND[b] == HEAVEN for b in _back_pair(g, h, x))]
        if with_teen:
            s = _best(with_teen, g, h, "front")
    return s


def foxwoods_way(g: Game) -> np.ndarray:
    """'foxwoods': the Foxwoods house way for every distinct hand."""
    return pure(np.array([foxwoods_split(g, h) for h in range(len(g.hands))], dtype=np.int64))


NAMED_WAYS = {"foxwoods": foxwoods_way, "front": front_way, "back": back_way}
assert tuple(NAMED_WAYS) == WAY_NAMES


def named_way(g: Game, name: str) -> np.ndarray:
    """The strategy of a named way (cached per game)."""
    if name not in NAMED_WAYS:
        raise TjsimError(f"unknown way '{name}' (allowed: {', '.join(NAMED_WAYS)})")
    key = ("way", name)
    if key not in g.cache:
        g.cache[key] = NAMED_WAYS[name](g) if g.n_splits == 3 else pure(np.zeros(len(g.hands), np.int64))
    return g.cache[key]


def house_way(g: Game) -> np.ndarray:
    """The profile's house way."""
    return named_way(g, g.profile.house_way)


# --- Best replies and the two-sided solution ---

def player_values(g: Game, banker: np.ndarray, caps: np.ndarray | None = None) -> np.ndarray:
    """Summed player result of each hand and split against the banker's strategy."""
    w, l, _ = g.values(banker, True, caps)
    return g.player_payoff(w, l)


def banker_values(g: Game, player: np.ndarray, caps: np.ndarray | None = None) -> np.ndarray:
    """Summed player result of each banker hand and split against the player's strategy."""
    w, l, _ = g.values(player, False, caps)
    return g.player_payoff(w, l)


def best_reply(g: Game, other: np.ndarray, side: str, caps: np.ndarray | None = None) -> np.ndarray:
    """The pure best reply of `side` ('player' or 'banker') to the other side's strategy (given unseen `caps`)."""
    if side == "player":
        v = player_values(g, other, caps)[:, : g.n_splits]
        return pure(np.argmax(v - 1e-9 * np.arange(g.n_splits), axis=1))
    v = banker_values(g, other, caps)[:, : g.n_splits]
    return pure(np.argmin(v + 1e-9 * np.arange(g.n_splits), axis=1))


@dataclass
class Solution:
    """The two-sided solution: both sides' strategies, the value and how close it is."""

    player: np.ndarray
    banker: np.ndarray
    value: float  # the player's expected result per deal
    gap: float  # best-reply value against the banker − best-reply value of the banker (≥ 0)
    iterations: int
    mixed_hands: int


def _pair_payoffs(g: Game, prows, pcols, brows, bcols) -> np.ndarray:
    """A[i, j]: summed player result of (player hand prows[i], split pcols[i]) vs (banker brows[j], bcols[j])."""
    p = g.profile
    h = g.hands
    ints = [np.asarray(v, dtype=np.int64) for v in (prows, pcols, brows, bcols)]
    return kernels.pair_matrix(*ints, g.front, g.back, h.counts, h.cls, h.num, g.table.caps.astype(np.int64),
                               p.ties == "banker", p.half_push == "win", g.payoff_win)


def equilibrium(g: Game, max_iter: int = 40) -> Solution:
    """Both sides choose: the solution by the double-oracle method with an exact LP of each restricted game."""
    key = ("equilibrium",)
    if key in g.cache:
        return g.cache[key]
    d, ns = len(g.hands), g.n_splits
    total = float(g.hands.weight.sum()) * _deals_per_hand(g)
    # Start from a profile of pure replies (the banker's best reply to the player's best reply to the
    # house way): fewer hands are contested in the first LPs than when both start at the house way.
    start_p = best_reply(g, house_way(g), "player")
    start_b = best_reply(g, start_p, "banker")
    sp = [{int(np.argmax(start_p[h]))} for h in range(d)]
    sb = [{int(np.argmax(start_b[h]))} for h in range(d)]
    x, y, value, gap, it = start_p, start_b, 0.0, 0.0, 0
    for it in range(1, max_iter + 1):
        x, y, value = _restricted(g, sp, sb, total)
        vp = player_values(g, y)[:, :ns]
        vb = banker_values(g, x)[:, :ns]
        added = 0
        scale = total / d
        for h in range(d):
            best_in = max(vp[h, s] for s in sp[h])
            s = int(np.argmax(vp[h]))
            if vp[h, s] > best_in + 1e-9 * scale and s not in sp[h]:
                sp[h].add(s)
                added += 1
            worst_in = min(vb[h, s] for s in sb[h])
            s = int(np.argmin(vb[h]))
            if vb[h, s] < worst_in - 1e-9 * scale and s not in sb[h]:
                sb[h].add(s)
                added += 1
        gap = (vp.max(axis=1).sum() - vb.min(axis=1).sum()) / total
        if added == 0:
            break
    mixed = int(np.sum((x > 1e-9).sum(axis=1) > 1) + np.sum((y > 1e-9).sum(axis=1) > 1))
    sol = Solution(x, y, value, float(gap), it, mixed)
    g.cache[key] = sol
    return sol


def _deals_per_hand(g: Game) -> int:
    """Banker hands per player hand: C(32 − n, n)."""
    n = g.profile.tiles_per_hand
    return comb(32 - n, n)


def _restricted(g: Game, sp, sb, total):
    """The exact solution of the game in which each hand may only use the splits in its support."""
    d = len(g.hands)
    cp = [h for h in range(d) if len(sp[h]) > 1]
    cb = [h for h in range(d) if len(sb[h]) > 1]
    x = np.zeros((d, 3))
    y = np.zeros((d, 3))
    for h in range(d):
        if len(sp[h]) == 1:
            x[h, next(iter(sp[h]))] = 1.0
        if len(sb[h]) == 1:
            y[h, next(iter(sb[h]))] = 1.0
    if not cp and not cb:
        vp = player_values(g, y)
        return x, y, float((vp * x).sum() / total)
    x_fixed = x.copy()
    y_fixed = y.copy()
    vp = player_values(g, y_fixed)  # against the banker's fixed hands only (contested rows are 0)
    vb = banker_values(g, x_fixed)  # against the player's fixed hands only
    prow = [(h, s) for h in cp for s in sorted(sp[h])]
    brow = [(h, s) for h in cb for s in sorted(sb[h])]
    scale = d * d / total
    const = float(sum(vp[h, next(iter(sp[h]))] for h in range(d) if len(sp[h]) == 1)) * scale
    a = _pair_payoffs(g, [r[0] for r in prow], [r[1] for r in prow], [r[0] for r in brow],
                      [r[1] for r in brow]) * scale if prow and brow else np.zeros((len(prow), len(brow)))
    n_x, n_v = len(prow), len(cb)
    vidx = {h: i for i, h in enumerate(cb)}
    c = np.concatenate([-np.array([vp[h, s] * scale for h, s in prow]), -np.ones(n_v)])
    a_ub = np.zeros((len(brow), n_x + n_v))
    b_ub = np.zeros(len(brow))
    for j, (h, s) in enumerate(brow):
        a_ub[j, :n_x] = -a[:, j]
        a_ub[j, n_x + vidx[h]] = 1.0
        b_ub[j] = vb[h, s] * scale
    a_eq = np.zeros((len(cp), n_x + n_v))
    for i, (h, s) in enumerate(prow):
        a_eq[cp.index(h), i] = 1.0
    b_eq = np.ones(len(cp))
    bounds = [(0, 1)] * n_x + [(None, None)] * n_v
    from scipy.optimize import (
        linprog,  # ~1 s to import: only a solve needs it, not a cached solution
    )
    res = linprog(c, A_ub=a_ub if len(brow) else None, b_ub=b_ub if len(brow) else None,
                  A_eq=a_eq if len(cp) else None, b_eq=b_eq if len(cp) else None, bounds=bounds, method="highs")
    if res.status != 0:
        raise TjsimError(f"the equilibrium LP failed: {res.message}")
    for i, (h, s) in enumerate(prow):
        x[h, s] = max(0.0, res.x[i])
    for h in cp:
        x[h] /= x[h].sum()
    if brow:
        lam = -res.ineqlin.marginals
        for j, (h, s) in enumerate(brow):
            y[h, s] = max(0.0, lam[j])
        for h in cb:
            tot = y[h].sum()
            y[h] = y[h] / tot if tot > 0 else np.eye(3)[min(sb[h])]
    value = (-res.fun + const) / scale / total
    return x, y, float(value)


def strategy(g: Game, side: str, way: str, other: np.ndarray | None = None,
             caps: np.ndarray | None = None) -> np.ndarray:
    """A side's strategy for `--player-way` / `--banker-way`: house, best (needs `other`) or equilibrium."""
    if way == "house":
        return house_way(g)
    if way == "equilibrium":
        if caps is not None:
            raise TjsimError("the two-sided solution is computed for a full set only (drop --shown, or use "
                             "house / best / a named way)")
        sol = equilibrium(g)
        return sol.player if side == "player" else sol.banker
    if way == "best":
        if other is None:
            raise TjsimError("only one side can play 'best' (the best reply to the other side's way)")
        return best_reply(g, other, side, caps)
    if way in NAMED_WAYS:
        return named_way(g, way)
    raise TjsimError(f"unknown way '{way}' (allowed: {', '.join(SIDE_WAYS + tuple(NAMED_WAYS))})")
