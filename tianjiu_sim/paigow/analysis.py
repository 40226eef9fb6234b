"""The figures `tjsim paigow` prints: hand odds, edges, splits, the best-split table, Monte Carlo checks.

Every exact figure is a sum over all tile-level deals (kernels.cross); the Monte Carlo check
deals uniform shuffles with the profile's rounds per shuffle and gives each estimate a 95%
interval clustered by shuffle (rounds and players of one shuffle share its tiles).
"""
from __future__ import annotations

import os
from math import comb

import numpy as np

from ..errors import TjsimError
from ..game.tiles import TILE_KIND, bits_of, format_hand, tile_list
from ..kernels.layout import STREAM_DEAL
from ..stats import Z95, mean_ci, wilson
from . import kernels, ways
from .cache import cache_path, check_hand, check_odds, check_split, class_rows  # noqa: F401  (class_rows: re-exported)
from .hands import class_label, describe_key, pack_classes, split_pairs
from .profiles import Profile
from .ways import Game


def hand_index(g: Game, mask: int) -> int:
    """The distinct hand of a tile mask (its size must be the profile's hand size)."""
    check_hand(g.profile, mask)
    return int(g.hands.lookup[pack_classes(g.table.tile_class[b] for b in bits_of(mask))])


def unseen_caps(g: Game, shown: int) -> np.ndarray | None:
    """Copies of each class not yet shown (None for a fresh set)."""
    if not shown:
        return None
    caps = g.table.caps.copy()
    for b in bits_of(shown):
        caps[g.table.tile_class[b]] -= 1
    if caps.sum() < 2 * g.profile.tiles_per_hand:
        raise TjsimError(f"--shown leaves {int(caps.sum())} tiles: fewer than a player's and the banker's hands")
    return caps


def resolve(g: Game, player_way: str, banker_way: str, caps: np.ndarray | None = None):
    """Both sides' strategies; 'best' replies to the other side's way."""
    if player_way == "best" and banker_way == "best":
        raise TjsimError("--player-way and --banker-way cannot both be 'best' (one replies to the other; "
                         "use 'equilibrium' for both sides choosing)")
    if "equilibrium" in (player_way, banker_way) and caps is None:
        solved(g)  # from the disk cache if this profile was solved before
    if player_way == "best":
        y = ways.strategy(g, "banker", banker_way, caps=caps)
        return ways.strategy(g, "player", "best", y, caps), y
    x = ways.strategy(g, "player", player_way, caps=caps)
    return x, ways.strategy(g, "banker", banker_way, x, caps)


def summary(g: Game, x: np.ndarray, y: np.ndarray, caps: np.ndarray | None = None) -> dict:
    """Per deal, one player against the banker: win / push / lose probabilities and the player's edge."""
    w, l, n = g.values(y, True, caps)
    total = n.sum()
    win = float((w * x).sum() / total)
    lose = float((l * x).sum() / total)
    return {"win": win, "push": 1.0 - win - lose, "lose": lose, "player_edge": win * g.payoff_win - lose}


def edge(p: Profile, player_way: str = "house", banker_way: str = "house", shown: int = 0) -> dict:
    """`tjsim paigow edge`: the INTERFACES.md keys, plus the until-decided and table figures.

    `shown`: tiles already seen this shuffle (a later round); both hands come from the others.
    """
    g = ways.game(p)
    if p.tiles_per_hand == 2 and (player_way, banker_way) != ("house", "house"):
        raise TjsimError("摃莊 hands are not split: --player-way and --banker-way only apply to 4-tile profiles")
    caps = unseen_caps(g, shown)
    x, y = resolve(g, player_way, banker_way, caps)
    s = summary(g, x, y, caps)
    out = {"profile": p.name, "player_way": player_way, "banker_way": banker_way, **s, "exact": True,
           "banker_edge": 0.0 - s["player_edge"], "players": p.players,
           "banker_edge_vs_table": 0.0 - s["player_edge"] * p.players}
    if shown:
        out["shown"] = tile_list(shown)
    decided = s["win"] + s["lose"]
    if p.redeal_pushes and decided > 0:
        out["until_decided"] = {"win": s["win"] / decided, "lose": s["lose"] / decided,
                                "player_edge": s["player_edge"] / decided, "mean_deals": 1.0 / decided}
    if "equilibrium" in (player_way, banker_way):
        sol = solved(g)
        out["equilibrium"] = {"value": sol.value, "gap": sol.gap, "iterations": sol.iterations,
                              "mixed_hands": sol.mixed_hands, "ways": ways_vs_solution(g, sol)}
    if not shown:
        # every round of a shuffle has the same unconditional edge: its hands are exchangeable with round 1's
        out["rounds"] = [{"round": r + 1, "player_edge": s["player_edge"], "exact": True}
                         for r in range(p.rounds_per_shuffle)]
    return out


def ways_vs_solution(g: Game, sol: ways.Solution) -> list[dict]:
    """How far each named way is from the solution: what it loses as the player and as the banker."""
    out = []
    for name in ways.NAMED_WAYS:
        w = ways.named_way(g, name)
        as_player = summary(g, w, sol.banker)["player_edge"]
        as_banker = summary(g, sol.player, w)["player_edge"]
        out.append({"way": name, "player_edge_as_player": as_player, "loss_as_player": sol.value - as_player,
                    "player_edge_as_banker": as_banker, "loss_as_banker": as_banker - sol.value})
    return out


def kong_odds(p: Profile, shown: int = 0) -> list[dict]:
    """Each distinct two-tile hand: how likely it is dealt and its win / push / lose against the banker.

    `shown` are tiles already seen this shuffle (rounds 2–4): both hands come from the others.
    """
    g = ways.game(p)
    check_odds(p)
    caps = unseen_caps(g, shown)
    caps = g.table.caps if caps is None else caps
    y = ways.house_way(g)
    w, l, n = g.values(y, True, caps=caps)
    left = int(caps.sum())
    pairs = comb(left, 2)
    rows = []
    for h in range(len(g.hands)):
        if n[h] == 0:
            continue
        a, b = _unshown(g, h, shown)
        key = g.table.key_of(a, b)
        weight = int(np.prod([comb(int(caps[c]), int(k)) for c, k in enumerate(g.hands.counts[h]) if k]))
        rows.append({"hand": format_hand((1 << a) | (1 << b)), "class": class_label(key),
                     "dealt": weight / pairs, "win": w[h, 0] / n[h], "push": 1 - (w[h, 0] + l[h, 0]) / n[h],
                     "lose": l[h, 0] / n[h], "player_edge": (w[h, 0] * g.payoff_win - l[h, 0]) / n[h],
                     "rank": int(g.table.rank[a, b])})
    rows.sort(key=lambda r: -r["rank"])
    return rows


def _unshown(g: Game, h: int, shown: int) -> list[int]:
    """Tile bits of distinct hand h taken from the copies not shown (what the hand is written as)."""
    out = []
    for c, k in enumerate(g.hands.counts[h]):
        out += [b for b in g.table.class_bits[c] if not shown >> b & 1][:k]
    return out


def _pair_text(g: Game, h: int, s: int) -> tuple[str, str, str, str]:
    a, b = split_pairs(g.hands, h, s)
    if g.table.rank[a] > g.table.rank[b]:
        a, b = b, a
    ka, kb = g.table.key_of(*a), g.table.key_of(*b)
    return (format_hand((1 << a[0]) | (1 << a[1])), format_hand((1 << b[0]) | (1 << b[1])),
            describe_key(ka), describe_key(kb))


def _split_key(g: Game, h: int, s: int) -> frozenset:
    """What tells splits apart: the kinds in each pair (copies of a kind give the same split)."""
    a, b = split_pairs(g.hands, h, s)
    return frozenset((tuple(sorted(TILE_KIND[t] for t in a)), tuple(sorted(TILE_KIND[t] for t in b))))


def _distinct_splits(g: Game, h: int) -> list[int]:
    """The splits of hand h that differ (one index per distinct split)."""
    seen, out = set(), []
    for s in range(3):
        key = _split_key(g, h, s)
        if key not in seen:
            seen.add(key)
            out.append(s)
    return out


def split_rows(p: Profile, mask: int, banker_way: str = "house") -> list[dict]:
    """`tjsim paigow split`: each split of one hand against the banker's way and the two-sided solution."""
    check_split(p, banker_way)
    g = ways.game(p)
    return _split_rows(g, [hand_index(g, mask)], banker_way)[0]


def all_split_rows(p: Profile, banker_way: str = "house") -> dict[int, list[dict]]:
    """split_rows of every distinct hand, keyed by its packed classes (cache.hand_class_key)."""
    check_split(p, banker_way)
    g = ways.game(p)
    hands = list(range(len(g.hands)))
    keys = [pack_classes(g.table.tile_class[b] for b in bits_of(int(g.hands.masks[h]))) for h in hands]
    return dict(zip(keys, _split_rows(g, hands, banker_way)))


def _split_rows(g: Game, hands: list[int], banker_way: str) -> list[list[dict]]:
    """The split rows of distinct hands `hands` (one list of rows per hand)."""
    sol = solved(g)  # before the banker's way: 'equilibrium' then comes from the disk cache
    y = ways.strategy(g, "banker", banker_way)
    w, l, n = g.values(y, True, rows=hands)
    we, le, _ = g.values(sol.banker, True, rows=hands)
    house = ways.house_way(g)
    out = []
    for i, h in enumerate(hands):
        house_key = _split_key(g, h, int(np.argmax(house[h])))
        vals = (w[i] * g.payoff_win - l[i]) / n[i]
        veq = (we[i] * g.payoff_win - le[i]) / n[i]
        splits = _distinct_splits(g, h)
        best = max(splits, key=lambda s: vals[s])
        rows = []
        for s in splits:
            front, back, fk, bk = _pair_text(g, h, s)
            rows.append({"front": front, "back": back, "front_class": fk, "back_class": bk,
                         "win": float(w[i, s] / n[i]), "push": float(1 - (w[i, s] + l[i, s]) / n[i]),
                         "lose": float(l[i, s] / n[i]), "value": float(vals[s]), "cost": float(vals[best] - vals[s]),
                         "best": bool(s == best), "house": _split_key(g, h, s) == house_key,
                         "value_vs_equilibrium": float(veq[s]),
                         "equilibrium_prob": float(sum(sol.player[h, t] for t in range(3)
                                                       if _split_key(g, h, t) == _split_key(g, h, s)))})
        out.append(rows)
    return out


def best_split_table(p: Profile, banker_way: str = "house") -> list[dict]:
    """`tjsim paigow table`: every distinct hand's best split against the banker's way and the others' cost."""
    g = ways.game(p)
    if p.tiles_per_hand != 4:
        raise TjsimError(f"table is for four-tile profiles (yabao, vegas); profile '{p.name}' deals 2 tiles")
    if banker_way == "best":
        raise TjsimError("--banker-way best needs a player way; table lists the player's best splits")
    if banker_way == "equilibrium":
        solved(g)
    y = ways.strategy(g, "banker", banker_way)
    w, l, n = g.values(y, True)
    vals = (w * g.payoff_win - l) / n[:, None]
    house = np.argmax(ways.house_way(g), axis=1)
    total = g.hands.weight.sum()
    rows = []
    for h in range(len(g.hands)):
        splits = _distinct_splits(g, h)
        order = sorted(splits, key=lambda s: -vals[h, s])
        best = order[0]
        row = {"hand": format_hand(int(g.hands.masks[h])), "hands": int(g.hands.weight[h]),
               "probability": g.hands.weight[h] / total}
        for i, s in enumerate(order, 1):
            front, back, _, _ = _pair_text(g, h, s)
            row[f"split_{i}"] = f"{front} | {back}"
            row[f"value_{i}"] = float(vals[h, s])
            row[f"cost_{i}"] = float(vals[h, best] - vals[h, s])
        hk = _split_key(g, h, int(house[h]))
        row["house_split"] = next(i for i, t in enumerate(order, 1) if _split_key(g, h, t) == hk)
        row["house_cost"] = float(vals[h, best] - vals[h, house[h]])
        rows.append(row)
    return rows


# --- The two-sided solution, kept on disk (it takes ~10 s to find) ---

def solved(g: Game) -> ways.Solution:
    """The two-sided solution of a game, from the disk cache when this profile was solved before."""
    key = ("equilibrium",)
    if key in g.cache:
        return g.cache[key]
    path = cache_path(g.profile, "equilibrium", suffix=".npz")
    try:
        z = np.load(path)
        sol = ways.Solution(z["player"], z["banker"], float(z["value"]), float(z["gap"]), int(z["iterations"]),
                            int(z["mixed_hands"]))
    except (OSError, KeyError, ValueError):
        sol = ways.equilibrium(g)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.stem + f".{os.getpid()}.tmp.npz")
            np.savez(tmp, player=sol.player, banker=sol.banker, value=sol.value, gap=sol.gap,
                     iterations=sol.iterations, mixed_hands=sol.mixed_hands)
            tmp.replace(path)
        except OSError:
            pass  # an unwritable cache only costs time
    g.cache[key] = sol
    return sol


# --- Monte Carlo cross-check ---

def monte_carlo(p: Profile, player_way: str = "house", banker_way: str = "house", shuffles: int = 100_000,
                seed: int = 1) -> dict:
    """Deal `shuffles` shuffles of `rounds_per_shuffle` rounds with `players` players; estimates with 95% CIs."""
    if shuffles < 2:
        raise TjsimError(f"--shuffles must be at least 2, got {shuffles}")
    g = ways.game(p)
    x, y = resolve(g, player_way, banker_way) if p.tiles_per_hand == 4 else (ways.house_way(g),) * 2
    out = kernels.simulate(shuffles, seed, STREAM_DEAL, p.tiles_per_hand, p.players, p.rounds_per_shuffle,
                           g.table.tile_class.astype(np.int64), g.hands.lookup, g.front, g.back,
                           np.cumsum(x, axis=1), np.cumsum(y, axis=1), p.ties == "banker", p.half_push == "win")
    res = out.astype(np.float64)
    per = res.shape[1] * res.shape[2]
    est = {}
    indicators = {"win": res > 0, "push": res == 0, "lose": res < 0}
    pay = np.where(res > 0, g.payoff_win, res)
    for name, arr in [*indicators.items(), ("player_edge", pay)]:
        v = arr.reshape(shuffles, per).mean(axis=1)  # one value per shuffle: clustered by shuffle
        mean, se, lo, hi = mean_ci(float(v.sum()), float((v * v).sum()), shuffles)
        est[name] = {"mean": mean, "se": se, "ci_low": lo, "ci_high": hi}
    banker_net = -pay.sum(axis=(1, 2)) / res.shape[1]  # the banker's result per round, per shuffle
    mean, se, lo, hi = mean_ci(float(banker_net.sum()), float((banker_net ** 2).sum()), shuffles)
    # round 1 of each shuffle is one independent table: the joint result of the banker against it
    net = -res[:, 0, :].sum(axis=1).astype(np.int64)  # players beaten − players lost to (stakes of 1)
    dist = []
    for k in range(-p.players, p.players + 1):
        hits = int((net == k).sum())
        lo, hi = wilson(hits, shuffles)
        dist.append({"banker_net": k, "probability": hits / shuffles, "ci_low": lo, "ci_high": hi})
    rounds = []
    for r in range(res.shape[1]):
        v = pay[:, r, :].mean(axis=1)
        m, s_e, a, b = mean_ci(float(v.sum()), float((v * v).sum()), shuffles)
        rounds.append({"round": r + 1, "player_edge": m, "se": s_e, "ci_low": a, "ci_high": b})
    return {"profile": p.name, "player_way": player_way, "banker_way": banker_way, "shuffles": shuffles,
            "rounds_per_shuffle": p.rounds_per_shuffle, "players": p.players, "seed": seed,
            "estimates": est, "rounds": rounds,
            "banker_vs_table_per_round": {"mean": mean, "se": se, "ci_low": lo, "ci_high": hi},
            "banker_net_distribution": dist,
            "z95": Z95}
