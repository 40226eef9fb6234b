"""`advise` for 九支十仔: each legal discard's P(win) and expected 頭 from a position the user describes.

The position is what one seat sees when it must discard: its concealed cards, its laid pairs
and the other cards face up. The other seats' hands and the stock are unknown to it; the
lookahead (strategies.evaluate_discards) deals them at random in every world, so the
placeholder cards this module puts there never matter (tests/test_nine_cards.py checks that).
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from ..errors import TjsimError
from ..kernels.layout import STREAM_PLAY
from ..kernels.rng import seed_stream
from ..stats import mean_ci, wilson
from .cards import COPIES, N_CARDS, N_KINDS, check_copies, name
from .engine import (
    K, O_ACTOR, O_BANKER, O_CONC, O_DECK, O_MELD, O_N, O_PHASE, O_PILE, O_POS, O_PUB, O_WAIT, O_WINNER,
    O_WINTYPE, O_PAYER, O_WINCARD, PH_DISCARD, STATE_LEN, pack_rules,
)
from .rules import NineCardsRules
from .strategies import OBS_LEN, POLICIES, choose_simple, evaluate_discards, observe, strategy_params


def position(rules: NineCardsRules, concealed: list[int], pairs: list[int], seen: list[int], seat: int) -> np.ndarray:
    """The engine state of a seat about to discard (banker 0; others 9 concealed cards; the rest the stock)."""
    n = rules.players
    if not 0 <= seat < n:
        raise TjsimError(f"--seat must be 0 to {n - 1}, got {seat}")
    if len(concealed) + 2 * len(pairs) != 10:
        raise TjsimError(f"hand of the wrong size: {len(concealed)} concealed cards and {len(pairs)} laid "
                         f"pairs make {len(concealed) + 2 * len(pairs)} cards; a seat about to discard holds 10 "
                         f"(concealed + 2 × pairs)")
    check_copies(concealed + 2 * pairs + seen, what="--hand, --pairs and --seen together")
    unseen = COPIES * np.ones(N_KINDS, dtype=np.int64)
    for k in concealed + 2 * pairs + seen:
        unseen[k] -= 1
    others = 9 * (n - 1)
    stock = int(unseen.sum()) - others
    if stock <= rules.stock_reserve:
        raise TjsimError(f"{len(seen)} cards seen leave {stock} in the stock: the deal would be over "
                         f"(drawn at {rules.stock_reserve}); give fewer --seen cards")
    S = np.zeros(STATE_LEN, dtype=np.int64)
    S[O_N] = n
    S[O_BANKER] = 0
    S[O_WINNER] = S[O_WINTYPE] = S[O_PAYER] = S[O_WINCARD] = -1
    for k in concealed:
        S[O_CONC + seat * K + k] += 1
    for k in pairs:
        S[O_MELD + seat * K + k] += 1
        S[O_PUB + k] += 2
    for k in seen:
        S[O_PILE + k] += 1
        S[O_PUB + k] += 1
    pool = [k for k in range(N_KINDS) for _ in range(int(unseen[k]))]
    # placeholders for what the seat cannot see (resampled in every world)
    j = 0
    for s in range(n):
        S[O_WAIT + s] = -1
        if s != seat:
            for k in pool[j:j + 9]:
                S[O_CONC + s * K + k] += 1
            j += 9
    pos = N_CARDS - stock
    S[O_POS] = pos
    S[O_DECK + pos:O_DECK + N_CARDS] = pool[j:]
    S[O_PHASE] = PH_DISCARD
    S[O_ACTOR] = seat
    return S


def advise(rules: NineCardsRules, concealed: list[int], pairs: list[int], seen: list[int], seat: int = 1,
           worlds: int = 2000, seed: int = 1) -> dict:
    """Each legal discard's P(win) (Wilson 95%) and expected 頭 (normal 95%) over `worlds` play-outs."""
    if worlds < 2:
        raise TjsimError(f"--worlds must be at least 2, got {worlds}")
    S = position(rules, concealed, pairs, seen, seat)
    prm = pack_rules(rules)
    sp = strategy_params(worlds=worlds)
    st = np.zeros(4, dtype=np.uint64)
    seed_stream(st, np.uint64(seed), STREAM_PLAY, 0)
    out = np.zeros((K, 4))
    vals = np.zeros((worlds, K))
    evaluate_discards(S, seat, prm, sp, st, out, vals)
    obs = np.zeros(OBS_LEN, dtype=np.int64)
    observe(S, prm, seat, obs)
    heuristic = int(choose_simple(obs, POLICIES["heuristic"], prm, sp, st))
    actions = []
    for k in range(K):
        plays = int(out[k, 0])
        if plays == 0:
            continue
        mean, se, lo, hi = mean_ci(out[k, 2], out[k, 3], plays)
        wl, wh = wilson(int(out[k, 1]), plays)
        actions.append({"action": "discard", "card": name(k), "ascii": name(k, True), "plays": plays,
                        "p_win": out[k, 1] / plays, "p_win_low": wl, "p_win_high": wh,
                        "mean": mean, "se": se, "ci_low": lo, "ci_high": hi, "heuristic": k == heuristic})
    best = max(range(len(actions)), key=lambda i: (actions[i]["mean"], actions[i]["p_win"])) if actions else None
    counts = Counter(concealed)
    return {"seat": seat, "players": rules.players, "worlds": worlds, "seed": seed,
            "stock": int(N_CARDS - S[O_POS]), "hand": [name(k) for k in sorted(concealed)],
            "pairs": [name(k) for k in sorted(pairs)], "singles": [name(k) for k in sorted(counts) if counts[k] % 2],
            "actions": actions, "best": best,
            "note": "from what the seat sees only: other hands and the stock are dealt at random in each world; "
                    "play-outs use the heuristic for every seat"}
