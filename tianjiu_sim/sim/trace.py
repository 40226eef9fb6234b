"""Turn the engine's trace record arrays into the INTERFACES.md game-trace JSON object."""
from __future__ import annotations

import numpy as np

from ..kernels.layout import ACTIONS, BONUS_TYPES
from ..game.rules import RuleSet
from ..game.tiles import tile_list


def to_trace(rules: RuleSet, seed: int, deal: int, banker: int, streak: int, hands: np.ndarray,
             folded: np.ndarray, rec_plays: np.ndarray, rec_tricks: np.ndarray, rec_bonus: np.ndarray,
             rec_n: np.ndarray, dong: np.ndarray, closer: int, payments: np.ndarray,
             method: str | None = "left", shuffle: str | None = "perfect") -> dict:
    """One deal's trace dict (INTERFACES.md "Game trace") from the engine's record arrays."""
    n_plays, n_tricks, n_bonus = (int(x) for x in rec_n)
    tricks = [{"leader": int(rec_tricks[t, 0]), "plays": [], "winner": int(rec_tricks[t, 1]),
               "dong": int(rec_tricks[t, 2])} for t in range(n_tricks)]
    for i in range(n_plays):
        t, seat, act, mask = (int(x) for x in rec_plays[i])
        tricks[t]["plays"].append({"seat": seat, "action": ACTIONS[act], "tiles": tile_list(mask)})
    bonuses = [{"type": BONUS_TYPES[int(rec_bonus[j, 0])], "seat": int(rec_bonus[j, 1]),
                "amount": int(rec_bonus[j, 2])}
               for j in range(n_bonus) if rec_bonus[j, 3]]
    void = closer < 0
    return {
        "rules": rules.name, "players": rules.players, "seed": int(seed), "deal": int(deal),
        "method": method, "shuffle": shuffle, "banker": int(banker), "streak": int(streak),
        "hands": [tile_list(int(h)) for h in hands],
        "folded": [s for s in range(rules.players) if folded[s]],
        "tricks": [] if void else tricks,
        "dong": [int(x) for x in dong],
        "closer": None if void else int(closer),
        "bonuses": [] if void else bonuses,
        "payments": [int(x) for x in payments],
    }
