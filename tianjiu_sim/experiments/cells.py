"""What a grid cell of an experiment is made of: its seed, its rule set, the strategy names it may use.

Shared by the experiment parser (experiment.py) and the measures that run cells
(measures.py), so neither imports the other.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..game.rules import RuleSet
from ..strategies.registry import POLICIES, SEARCH_POLICIES, policy_id


def cell_seed(seed: int, cell: int) -> int:
    """The 63-bit seed of grid cell `cell` (numpy SeedSequence child `cell` of `seed`)."""
    state = np.random.SeedSequence(seed, spawn_key=(cell,)).generate_state(1, np.uint64)
    return int(state[0] >> np.uint64(1))  # 63 bits: fits numba int64 and JSON exactly


def cell_rules(cell: dict[str, Any]) -> RuleSet:
    """Rebuild a cell's RuleSet from its resolved settings (workers need no files)."""
    s = dict(cell["rule_settings"])
    s["allowed_players"] = tuple(s["allowed_players"])
    return RuleSet(**s)


def known_strategies() -> tuple[str, ...]:
    """Strategy names accepted in experiment files (the search ones also as pimc:W, pimc:W:H, oracle:H)."""
    return tuple(POLICIES) + SEARCH_POLICIES


def is_strategy(name: str) -> bool:
    """Whether the engine implements the strategy `name`."""
    try:
        policy_id(name)
    except ValueError:
        return False
    return True
