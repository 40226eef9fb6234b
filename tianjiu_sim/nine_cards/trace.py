"""Traces of 九支十仔 deals: one JSON object per deal (format: docs/nine-cards.md)."""
from __future__ import annotations

import numpy as np

from .cards import card_list, name, unpack_words
from .engine import ACTIONS, WIN_TYPES
from .rules import NineCardsRules


def to_trace(rules: NineCardsRules, seed: int, deal: int, hands: np.ndarray, rec: np.ndarray, rec_n: int,
             res: np.ndarray, kaizhao: np.ndarray, payments: np.ndarray, policies: list[str]) -> dict:
    """One deal's trace dict from the runner's arrays (hands uint64 [players, 2], rec rows, res row)."""
    banker, winner, wtype, payer, tou, colours, flip_pts, kz_wait, _turns = (int(x) for x in res)
    events = []
    flips = []
    win_card = None
    for i in range(int(rec_n)):
        seat, act, kind = (int(x) for x in rec[i])
        if ACTIONS[act] == "flip":
            flips.append(name(kind))
            continue
        card = name(kind) if kind >= 0 else None
        if ACTIONS[act] == "win":
            win_card = card
        events.append({"seat": seat, "action": ACTIONS[act], "card": card})
    return trace_dict(rules, seed, deal, banker, [card_list(unpack_words(*h)) for h in hands], policies, events,
                      winner if winner >= 0 else None, WIN_TYPES[wtype] if winner >= 0 else None,
                      payer if payer >= 0 else None, win_card, colours, flips, flip_pts, bool(kz_wait),
                      [int(x) for x in kaizhao], tou, [int(x) for x in payments])


def trace_dict(rules, seed, deal, banker, hands, policies, events, winner, win_type, payer, win_card, colours,
               flips, flip_points, kaizhao_wait, kaizhao, tou, payments) -> dict:
    """The trace object, keys in their documented order (shared by the engine and the reference)."""
    won = winner is not None
    return {
        "game": "nine_cards", "rules": rules.name, "players": rules.players, "seed": int(seed), "deal": int(deal),
        "banker": int(banker), "policies": list(policies), "hands": hands, "events": events,
        "result": "win" if won else "draw", "winner": winner, "win_type": win_type, "payer": payer,
        "win_card": win_card, "colours": colours if won else None, "flips": flips,
        "flip_points": flip_points if won else None, "kaizhao_wait": kaizhao_wait if won else None,
        "kaizhao": kaizhao, "tou": tou if won else 0, "payments": payments,
        "next_banker": winner if won else banker,
    }
