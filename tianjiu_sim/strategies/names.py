"""Strategy names ↔ the kernel's policy ids (pure Python: the CLI reads it without loading numba)."""
from __future__ import annotations

RANDOM = 0
GREEDY = 1
HEURISTIC = 2
SEARCH = 100           # a search strategy's id: SEARCH + horizon × 10000 + worlds (0 = oracle); = search.SEARCH
DEFAULT_WORLDS = 16    # = search.DEFAULT_WORLDS
AUTO = 0               # horizon code of `pimc`, `pimc:W` and `oracle`: chosen by the number of players
# Default horizons by players (2, 3, 4), measured (benchmarks/README.md, "pimc and oracle"): fewer
# players make each trick far cheaper to search, so the exact part starts earlier at a similar
# cost per deal — 2 players: pimc:16 is exact from 6 tiles a hand (≈ 25 ms a deal), 3 players
# from 4 (≈ 65 ms), 4 players from 4 (since the solver's static bounds, 2026-12-02: median 6 ms
# a decision in hk; pimc:16:4 − pimc:16:3 = +0.57 [+0.24, +0.90] 戙 in hk). The residual-tile
# dice (§4.7, folk with 3–4 players) make every endgame search a chance node over three suits
# without pruning (≈ 4× the nodes of the same 4-tile positions without dice), so with the dice
# on and 4 players pimc stays exact from 3. oracle searches one world instead of W, so it
# affords more: 8 (all of a 2-player deal), 5 and 4.
PIMC_HORIZONS = (6, 4, 4)
PIMC_HORIZONS_DICE = (6, 4, 3)
ORACLE_HORIZONS = (8, 5, 4)
DEFAULT_HORIZON = PIMC_HORIZONS[2]    # 4 players without the dice (hk)
ORACLE_HORIZON = ORACLE_HORIZONS[2]
MAX_WORLDS = 4096
MAX_HORIZON = 16
POLICIES = {"random": RANDOM, "greedy": GREEDY, "heuristic": HEURISTIC}
SEARCH_POLICIES = ("oracle", "pimc")
SEES_ALL = ("oracle",)  # strategies that see every hand: every output that uses one says so
ALLOWED = "random, greedy, heuristic, pimc, pimc:W, pimc:W:H, oracle, oracle:H"


def _search_id(horizon: int, worlds: int) -> int:
    return SEARCH + horizon * 10000 + worlds


def default_horizon(players: int, oracle: bool, dice: bool = False) -> int:
    """The horizon `pimc` (or `oracle`) uses at a table of `players`, dice on or off, if its name sets none."""
    table = ORACLE_HORIZONS if oracle else (PIMC_HORIZONS_DICE if dice else PIMC_HORIZONS)
    return table[min(max(players, 2), 4) - 2]


def policy_id(name: str) -> int:
    """The kernel's id of a strategy name; ValueError naming what is allowed.

    `pimc:W` draws W worlds (1–4096); `pimc:W:H` and `oracle:H` also set the horizon H: tricks
    that start with more than H tiles a hand are played out by the solver's move ordering, the
    rest is solved exactly (strategies/search.py). Without H the horizon depends on the number
    of players and the residual-tile dice (`default_horizon`).
    """
    name = name.strip()
    if name in POLICIES:
        return POLICIES[name]
    parts = name.split(":")
    if parts[0] in SEARCH_POLICIES:
        nums = parts[1:]
        if not all(x.isdigit() for x in nums) or len(nums) > (2 if parts[0] == "pimc" else 1):
            raise ValueError(f"'{name}' is not a strategy (allowed: {ALLOWED})")
        oracle = parts[0] == "oracle"
        given_h = nums[0:1] if oracle else nums[1:2]  # the H the name sets, if any
        horizon = int(given_h[0]) if given_h else AUTO
        if given_h and not 1 <= horizon <= MAX_HORIZON:
            raise ValueError(f"'{name}': the horizon H must be from 1 to {MAX_HORIZON}")
        worlds = 0 if oracle else (int(nums[0]) if nums else DEFAULT_WORLDS)
        if not oracle and not 1 <= worlds <= MAX_WORLDS:
            raise ValueError(f"'{name}': the worlds W of pimc:W must be from 1 to {MAX_WORLDS}")
        return _search_id(horizon, worlds)
    raise ValueError(f"unknown strategy '{name}' (allowed: {ALLOWED})")


def policy_name(pid: int) -> str:
    """The name of a kernel policy id (inverse of `policy_id`, defaults left out)."""
    pid = int(pid)
    for k, v in POLICIES.items():
        if v == pid:
            return k
    if pid < SEARCH:
        raise ValueError(f"no strategy has id {pid}")
    horizon, worlds = divmod(pid - SEARCH, 10000)
    if worlds == 0:
        return "oracle" + ("" if horizon == AUTO else f":{horizon}")
    h = "" if horizon == AUTO else f":{horizon}"
    if h:
        return f"pimc:{worlds}{h}"
    return "pimc" if worlds == DEFAULT_WORLDS else f"pimc:{worlds}"


def sees_all(names) -> list[int]:
    """The seats (indices into `names`) whose strategy sees every hand (`oracle`)."""
    return [i for i, n in enumerate(names) if n.strip().split(":")[0] in SEES_ALL]


def sees_all_note(names) -> str:
    """The sentence every output using `oracle` carries ('' when no strategy sees all hands)."""
    if not sees_all(names):
        return ""
    return ("note: oracle sees every hand (all hands visible: an upper bound on good play, "
            "not a fair player)")


def is_search(pid: int) -> bool:
    """Whether the policy id is a search strategy (needs the search scratch)."""
    return int(pid) >= SEARCH
