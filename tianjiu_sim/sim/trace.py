"""Turn the engine's trace record arrays into the INTERFACES.md game-trace JSON object."""
from __future__ import annotations

import numpy as np

from ..kernels.layout import (
    ACTIONS, BONUS_TYPES, RB_AMOUNT, RB_PAID, RB_SEAT, RB_TYPE, RN_BONUSES, RN_PLAYS, RN_TRICKS, RP_ACTION,
    RP_SEAT, RP_TILES, RP_TRICK, RT_DONG, RT_LEADER, RT_WINNER,
)
from ..game.rules import RuleSet
from ..game.tiles import tile_list


def to_trace(rules: RuleSet, seed: int, deal: int, banker: int, streak: int, hands: np.ndarray,
             folded: np.ndarray, rec_plays: np.ndarray, rec_tricks: np.ndarray, rec_bonus: np.ndarray,
             rec_n: np.ndarray, dong: np.ndarray, closer: int, payments: np.ndarray,
             method: str | None = "left", shuffle: str | None = "perfect") -> dict:
    """One deal's trace dict (INTERFACES.md "Game trace") from the engine's record arrays."""
    n_plays, n_tricks, n_bonus = int(rec_n[RN_PLAYS]), int(rec_n[RN_TRICKS]), int(rec_n[RN_BONUSES])
    tricks = [{"leader": int(rec_tricks[t, RT_LEADER]), "plays": [], "winner": int(rec_tricks[t, RT_WINNER]),
               "dong": int(rec_tricks[t, RT_DONG])} for t in range(n_tricks)]
    for p in rec_plays[:n_plays]:
        tricks[int(p[RP_TRICK])]["plays"].append({"seat": int(p[RP_SEAT]), "action": ACTIONS[int(p[RP_ACTION])],
                                                  "tiles": tile_list(int(p[RP_TILES]))})
    bonuses = [{"type": BONUS_TYPES[int(b[RB_TYPE])], "seat": int(b[RB_SEAT]), "amount": int(b[RB_AMOUNT])}
               for b in rec_bonus[:n_bonus] if b[RB_PAID]]
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
