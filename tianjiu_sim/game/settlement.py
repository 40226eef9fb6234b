"""Settlement of a deal (RULES.md §5.1–5.3): baseline, 空戙, 入, banker multiplier, 全码."""
from __future__ import annotations

from typing import Sequence

import numpy as np
from numba import njit

from ..errors import TjsimError
from .rules import RuleSet


@njit(cache=True, inline="always")  # inlined into the engine: a call per deal cost refcounts on 3 arrays
def settle_kernel(dong, closer, banker, streak, folded, baseline, banker_multiplier,
                  sweep_multiplier, extra_multiplier, fold_cost, payments):
    """Write each seat's net payment into `payments` (zero-sum).

    `folded[i]` seats neither pay nor receive (but pay `fold_cost` to the closer);
    `extra_multiplier` is 2 for a standing 包尊, else 1. A closer < 0 is a void deal.
    """
    n = dong.shape[0]
    for i in range(n):
        payments[i] = 0
    if closer < 0:
        return
    total = 0
    for i in range(n):
        if not folded[i]:
            total += dong[i]
    sweep = sweep_multiplier if dong[closer] == total else 1
    for i in range(n):
        if i == closer:
            continue
        if folded[i]:
            pay = fold_cost
        else:
            base = baseline - dong[i]
            if dong[i] == 0:
                base += 1  # 空戙
            mult = 1
            if banker_multiplier and (closer == banker or (i == banker and base > 0)):
                mult = streak + 1
            pay = base * mult * sweep * extra_multiplier
        payments[i] -= pay
        payments[closer] += pay


def settle(rules: RuleSet, dong: Sequence[int], closer: int, banker: int = 0, streak: int = 1,
           folded: Sequence[int] = ()) -> list[int]:
    """Payments of one deal from each seat's 戙 and the closer (結), checked against the rules."""
    n = len(dong)
    if n != rules.players:
        raise TjsimError(
            f"got {n} 戙 values, one per player; the table has {rules.players} players"
        )
    if any(d < 0 for d in dong):
        raise TjsimError(f"戙 must not be negative, got {list(dong)}")
    if not 0 <= closer < n:
        raise TjsimError(f"--closer must be a seat 0 to {n - 1}, got {closer}")
    if not 0 <= banker < n:
        raise TjsimError(f"--banker must be a seat 0 to {n - 1}, got {banker}")
    if streak < 1:
        raise TjsimError(f"--streak must be at least 1, got {streak}")
    fold = np.zeros(n, dtype=np.bool_)
    for s in folded:
        if not 0 <= s < n:
            raise TjsimError(f"--folded seats must be 0 to {n - 1}, got {s}")
        fold[s] = True
    if fold[closer]:
        raise TjsimError(f"the closer (seat {closer}) cannot have folded")
    if any(dong[s] for s in folded):
        raise TjsimError("a folded seat has no 戙")
    if sum(dong) != rules.tiles_per_player:
        raise TjsimError(
            f"the 戙 add up to {sum(dong)}, they must add up to the tiles per player "
            f"({rules.tiles_per_player})"
        )
    if dong[closer] == 0:
        raise TjsimError(f"the closer (seat {closer}) won the last trick, so has at least 1 戙")
    out = np.zeros(n, dtype=np.int64)
    settle_kernel(np.asarray(dong, dtype=np.int64), closer, banker, streak, fold,
                  rules.baseline, rules.banker_multiplier, rules.sweep_multiplier, 1,
                  rules.fold_cost, out)
    return [int(x) for x in out]
