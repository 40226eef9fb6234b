"""Runner entry points for the strategy analyses: deal by index, play given hands by index.

The runner's `run_deals` plays a contiguous range of deal indices with one banker and one
policy list. The analyses need more freedom on the very same deals: replay deal d with the
strategies rotated (duplicate), with some tiles exchanged (counterfactual values), or with
the banker on another seat. `dealt_hands` deals exactly as the play kernel does, and
`play_hands` is `runner.play_rows` with given hands: every stream is keyed on the deal index
(docs/CONTRACTS.md), so `play_hands(dealt_hands(...))` gives `run_deals`'s results, and a replay of deal d under changed conditions uses deal d's own
decision (STREAM_PLAY) and dice (STREAM_DICE) streams: everything else stays equal.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

from ..kernels.dealing import make_plan, ROUNDS
from .duplicate import per_deal_means, rotation_table
from ..game.rules import RuleSet
from .runner import play_rows, policy_ids
from ..stats.tidy import chunk_ids, chunk_size, chunk_sums, summarise_moments
from ..stats import mean_ci_of

@dataclass
class Played:
    """Per-row results of `play_hands` (row i = one play of one deal)."""

    payments: np.ndarray  # int64 [rows, players], bonuses included
    dong: np.ndarray  # int64 [rows, players]
    closer: np.ndarray  # int64 [rows], -1 for a void deal
    bonus: np.ndarray  # int64 [rows, players, 3]: 賀尊, 包尊, 四大賀 (engine.BONUS_TYPES)
    folded: np.ndarray  # int64 [rows, players]

    @property
    def settlement(self) -> np.ndarray:
        """Payments without the bonuses: what the tricks and the close paid."""
        return self.payments - self.bonus.sum(axis=2)


def dealt_hands(rules: RuleSet, seed: int, deal_index, method: str = ROUNDS, shuffle: str = "perfect",
                banker=0, threads: int | None = None) -> np.ndarray:
    """int64 [n, players]: the hands the runner deals for these deal indices (an int n means 0…n−1).

    Dealt by the play kernel itself (the deals are also played, by `random`, which costs less
    than compiling a second kernel that only deals): the very hands every runner plays.
    """
    idx = np.arange(deal_index, dtype=np.int64) if np.ndim(deal_index) == 0 else \
        np.ascontiguousarray(deal_index, dtype=np.int64)
    r = play_rows(rules, ["random"], seed, idx.shape[0], deal_index=idx, banker=banker,
                  plan=make_plan(rules, method, shuffle, "box"), keep_hands=True, threads=threads)
    return r.hands


def play_hands(rules: RuleSet, policies, seed: int, hands: np.ndarray, deal_index, banker=0,
               streak=1, threads: int | None = None) -> Played:
    """Play row i's hands with deal deal_index[i]'s decision and dice streams.

    `policies` is a list of names (one per seat, or one for all) or an int array
    [rows, players] of policy ids; `banker` and `streak` are scalars or per-row arrays.
    """
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    n = hands.shape[0]
    r = play_rows(rules, policies, seed, n, deal_index=np.ascontiguousarray(deal_index, dtype=np.int64),
                  hands=hands, banker=banker, streak=streak, threads=threads)
    return Played(r.payments.astype(np.int64), r.dong.astype(np.int64), r.closer.astype(np.int64),
                  r.bonus.astype(np.int64), r.folded.astype(np.int64))


# ---------------------------------------------------------------------------
# compare: strategies in duplicate
# ---------------------------------------------------------------------------

@dataclass
class CompareData:
    """Per-deal arrays of a duplicate comparison (deal i is deal index start + i)."""

    policies: list[str]
    table: np.ndarray  # [replays, seats] strategy index per seat
    x: np.ndarray  # [deals, k] mean payment per seat held, per strategy
    play_diff: np.ndarray  # [deals, replays, pairs] a − b estimated from one play alone
    pay: np.ndarray  # [deals, replays, seats]
    dong: np.ndarray  # [deals, replays, seats]
    closer: np.ndarray  # [deals, replays]
    start: int = 0


def pairs_of(k: int) -> list[tuple[int, int]]:
    """Strategy index pairs (a, b), a < b, in the order of the report."""
    return [(a, b) for a in range(k) for b in range(a + 1, k)]


def compare_batch(rules: RuleSet, policies: Sequence[str], seed: int, deals: int, start: int = 0,
                  method: str = ROUNDS, shuffle: str = "perfect", threads: int | None = None) -> CompareData:
    """Play one batch of deals in duplicate and keep what the summaries need."""
    k = len(policies)
    players = rules.players
    table = rotation_table(k, players)
    ids = policy_ids(list(policies), k)
    idx = np.arange(start, start + deals, dtype=np.int64)
    hands = dealt_hands(rules, seed, idx, method, shuffle, threads=threads)
    replays = table.shape[0]
    p = play_hands(rules, np.tile(ids[table], (deals, 1)), seed, np.repeat(hands, replays, axis=0),
                   np.repeat(idx, replays), threads=threads)
    return compare_data(list(policies), table, p.payments.reshape(deals, replays, players),
                        p.dong.reshape(deals, replays, players), p.closer.reshape(deals, replays), start)


def compare_data(policies: list[str], table: np.ndarray, pay: np.ndarray, dong: np.ndarray, closer: np.ndarray,
                 start: int = 0) -> CompareData:
    """CompareData from the plays of a duplicate: pay and dong [deals, replays, seats], closer [deals, replays]."""
    k = len(policies)
    players = table.shape[1]
    pay = np.asarray(pay, dtype=np.float64)
    x = per_deal_means(pay, table, k)
    prs = pairs_of(k)
    # One play on its own estimates a − b as (a's seats' total − b's seats' total) / (seats per
    # strategy, players / k): unbiased for the duplicate's estimand, its mean over the replays
    # of a deal is that deal's paired difference, so its spread is what independent deals give.
    play_diff = np.zeros((pay.shape[0], table.shape[0], len(prs)))
    for j, (a, b) in enumerate(prs):
        for r in range(table.shape[0]):
            sa, sb = table[r] == a, table[r] == b
            play_diff[:, r, j] = (pay[:, r, sa].sum(axis=1) - pay[:, r, sb].sum(axis=1)) * k / players
    return CompareData(list(policies), table, x, play_diff, pay, dong, closer, start)


def _concat(parts: list[CompareData]) -> CompareData:
    first = parts[0]
    return CompareData(first.policies, first.table, *(np.concatenate([getattr(p, f) for p in parts])
                                                       for f in ("x", "play_diff", "pay", "dong", "closer")),
                       start=first.start)


def diff_stderr(data: CompareData) -> float:
    """The largest standard error among the paired differences (for --until-stderr)."""
    n = data.x.shape[0]
    if n < 2:
        return math.inf
    return max(mean_ci_of(data.x[:, a] - data.x[:, b])[1] for a, b in pairs_of(len(data.policies)))


def run_compare(rules: RuleSet, policies: Sequence[str], seed: int, deals: int, method: str = ROUNDS,
                shuffle: str = "perfect", threads: int | None = None, until_stderr: float | None = None,
                max_deals: int = 1_000_000, first_batch: int = 2000) -> tuple[CompareData, str]:
    """Play the comparison: `deals` deals, or with `until_stderr` batches until every SE < it (≤ max_deals).

    Returns the data and why it stopped ("deals", "stderr" or "cap"). Batch sizes depend only
    on the results so far, so the same seed stops at the same deal whatever the threads.
    """
    if until_stderr is None:
        return compare_batch(rules, policies, seed, deals, 0, method, shuffle, threads), "deals"
    parts: list[CompareData] = []
    played = 0
    target = min(max_deals, first_batch)
    while True:
        parts.append(compare_batch(rules, policies, seed, target - played, played, method, shuffle, threads))
        played = target
        data = _concat(parts) if len(parts) > 1 else parts[0]
        se = diff_stderr(data)
        if se < until_stderr:
            return data, "stderr"
        if played >= max_deals:
            return data, "cap"
        target = next_target(played, se, until_stderr, max_deals)


def next_target(played: int, se: float, until_stderr: float, max_deals: int) -> int:
    """Deals to have played after the next batch of `--until-stderr` (a multiple of 1,000 or the cap).

    se ∝ 1/√n: aim 10% past the projected need, at least 1,000 more, at most doubling.
    """
    need = played * (se / until_stderr) ** 2 * 1.1
    return int(min(max_deals, max(played + 1000, min(2 * played, math.ceil(need / 1000) * 1000))))


def compare_tables(data: CompareData, chunk: int | None = None) -> dict[str, pd.DataFrame]:
    """Tidy tables of a comparison: `compare_chunks` (sums per chunk and measure) and `compare_distribution`."""
    pol = data.policies
    k = len(pol)
    deals, replays, players = data.pay.shape
    chunk = chunk or min(250, chunk_size(deals))
    ids = chunk_ids(data.start, deals, chunk)
    rows = []

    def add(kind: str, a: str, b: str, values: np.ndarray) -> None:
        # values [deals, m]: m observations per deal (NaN = none)
        ok = ~np.isnan(values)
        v = np.where(ok, values, 0.0)
        s = chunk_sums(ids, {"n": ok.sum(axis=1), "sum": v.sum(axis=1), "sumsq": (v * v).sum(axis=1),
                             "deals": np.ones(deals)})
        s.insert(1, "kind", kind)
        s.insert(2, "a", a)
        s.insert(3, "b", b)
        rows.append(s)

    for p, name in enumerate(pol):
        add("strategy", name, "", data.x[:, p:p + 1])
    for j, (a, b) in enumerate(pairs_of(k)):
        add("difference", pol[a], pol[b], data.x[:, a:a + 1] - data.x[:, b:b + 1])
        add("play_difference", pol[a], pol[b], data.play_diff[:, :, j])
    seat_pol = data.table  # [replays, seats]
    closed = data.closer[:, :, None] == np.arange(players)[None, None, :]  # [deals, replays, seats]
    for p, name in enumerate(pol):
        held = seat_pol == p
        # one value per deal, the mean over the seats the strategy held (as for the payment):
        # the plays of one deal share its tiles, so the deal is the independent unit
        add("closer_rate", name, "", closed[:, held].mean(axis=1, keepdims=True))
        add("dong", name, "", data.dong[:, held].mean(axis=1, keepdims=True))
    chunks = pd.concat(rows, ignore_index=True)
    chunks.insert(1, "deal_start", chunks["chunk"] * chunk)
    chunks["deals"] = chunks["deals"].astype(np.int64)
    chunks["n"] = chunks["n"].astype(np.int64)
    dist = []
    for p, name in enumerate(pol):
        held = np.broadcast_to(seat_pol == p, (deals, replays, players))
        for measure, arr in (("payment", data.pay), ("dong", data.dong)):
            vals, counts = np.unique(arr[held], return_counts=True)
            dist.append(pd.DataFrame({"policy": name, "measure": measure, "value": vals.astype(np.int64),
                                      "count": counts.astype(np.int64)}))
    return {"compare_chunks": chunks, "compare_distribution": pd.concat(dist, ignore_index=True)}


def compare_summary(chunks: pd.DataFrame, policies: Sequence[str], replays: int) -> pd.DataFrame:
    """The summary long table (kind, a, b, n, mean, se, ci_low, ci_high) — a groupby of the chunk sums.

    Adds `variance_ratio` rows: Σ over pairs of the variance of the difference estimated from
    independent deals (each played once, a random rotation) over Σ of its variance in
    duplicate. `all` compares at the same number of deal plays (duplicate plays each deal
    `replays` times), `per_deal` at the same number of deals.
    """
    s = summarise_moments(chunks, ["kind", "a", "b"])
    s = s.merge(chunks.groupby(["kind", "a", "b"], sort=False)["deals"].sum().rename("deals").reset_index(),
                on=["kind", "a", "b"])
    diff = s[s["kind"] == "difference"].set_index(["a", "b"])
    play = s[s["kind"] == "play_difference"].set_index(["a", "b"])
    var_dup = float(((diff["se"] ** 2) * diff["n"]).sum())
    var_play = float(((play["se"] ** 2) * play["n"]).sum())
    reps = (play["n"] / play["deals"]).reindex(diff.index)
    var_play_eq = float((((play["se"] ** 2) * play["n"]).reindex(diff.index) / reps).sum())
    ratio_rows = pd.DataFrame([
        {"kind": "variance_ratio", "a": "all", "b": "", "n": int(diff["deals"].max()),
         "mean": var_play_eq / var_dup if var_dup > 0 else math.nan},
        {"kind": "variance_ratio", "a": "per_deal", "b": "", "n": int(diff["deals"].max()),
         "mean": var_play / var_dup if var_dup > 0 else math.nan}])
    out = pd.concat([s, ratio_rows], ignore_index=True)
    order = {"strategy": 0, "closer_rate": 1, "dong": 2, "difference": 3, "play_difference": 4, "variance_ratio": 5}
    out["_o"] = out["kind"].map(order)
    out = out.sort_values("_o", kind="stable").drop(columns=["_o", "deals"]).reset_index(drop=True)
    return out


def compare_json(summary: pd.DataFrame, deals: int, extra: dict) -> dict:
    """The INTERFACES.md `compare --format json` object (plus extra keys) from the summary table."""
    def f(v):
        return None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)

    rate = summary[summary["kind"] == "closer_rate"].set_index("a")["mean"]
    dong = summary[summary["kind"] == "dong"].set_index("a")["mean"]
    strategies = [{"policy": r.a, "mean_payment": f(r.mean), "se": f(r.se), "ci_low": f(r.ci_low),
                   "ci_high": f(r.ci_high), "closer_rate": f(rate.get(r.a)), "mean_dong": f(dong.get(r.a))}
                  for r in summary[summary["kind"] == "strategy"].itertuples()]
    differences = [{"a": r.a, "b": r.b, "mean": f(r.mean), "se": f(r.se), "ci_low": f(r.ci_low),
                    "ci_high": f(r.ci_high), "significant": bool(r.ci_low > 0 or r.ci_high < 0)}
                   for r in summary[summary["kind"] == "difference"].itertuples()]
    vr = summary[summary["kind"] == "variance_ratio"].set_index("a")["mean"]
    return {"deals": int(deals), "strategies": strategies, "differences": differences,
            "variance_ratio": f(vr.get("all")), "variance_ratio_per_deal": f(vr.get("per_deal")), **extra}
