"""Sessions: G deals in a row at one table with the real banker succession (飛庄).

飛庄 (seed 002: "该局胜出的玩家就是下一局的庄家…称为飞庄，而不是轮流做庄"; seed 000 says the same
for Hong Kong): the closer (結) of a deal is the next deal's banker. If the banker closes,
they stay banker and their streak grows by one (the streak multiplies `hk` settlements,
RULES.md §5.2); a new banker starts at streak 1. The first deal's banker is seat 0 with
streak 1 ("首局…也當連莊計算"). A void deal (`folk`: everyone but one folded) leaves the
banker and the streak as they were [choice].

With `from_="played"` each deal is shuffled from the previous deal's tiles as gathered
[choice]: the tiles in the order they were played (trick by trick, each play's tiles in
ascending bit order, position 0 on top), then the tiles nobody played (undealt, folded
hands) in box order. The first deal starts from the box order.

Deal g of session k is deal index k·G + g for every random stream (docs/CONTRACTS.md), so
sessions are independent of each other and of the thread count.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

import numpy as np
from numba import njit, prange

from ..kernels.dealing import ROUNDS, deal_for_banker, make_plan
from ..kernels.engine import MAX_BONUS, MAX_PLAYS, MAX_TRICKS, pack_params, deal_scratch, play_deal, tables
from ..kernels.rng import STREAM_DEAL, STREAM_DICE, STREAM_PLAY, seed_stream
from ..game.rules import RuleSet
from .runner import policy_ids
from ..stats import Z95
from ..strategies.bots import R_PLAYERS
from ..kernels.threads import set_threads

if TYPE_CHECKING:  # pandas is imported where tables are made: deal-odds starts faster without it
    import pandas as pd


@njit(cache=True)
def gather_played(rec_plays, n_plays, order):
    """Write the gathered order into `order`: played tiles in play order, then the rest in box order."""
    used = np.int64(0)
    k = 0
    for r in range(n_plays):
        m = rec_plays[r, 3]
        for b in range(32):
            if (m >> b) & 1 and not (used >> b) & 1:
                order[k] = b
                used |= np.int64(1) << b
                k += 1
    for b in range(32):
        if not (used >> b) & 1:
            order[k] = b
            k += 1


@njit(cache=True, parallel=True)
def _sessions(seed, n_sessions, length, plan, from_played, policies, params, tabs,
              out_pay, out_bonus, out_banker, out_streak, out_closer):
    players = params[R_PLAYERS]
    for k in prange(n_sessions):
        st_deal = np.zeros(4, dtype=np.uint64)
        st_play = np.zeros(4, dtype=np.uint64)
        st_dice = np.zeros(4, dtype=np.uint64)
        order = np.arange(32).astype(np.int64)
        hands32 = np.zeros(players, dtype=np.uint32)
        hands0 = np.zeros(players, dtype=np.int64)
        obs, buf, kv, hands, dong, folded, pay, bonus = deal_scratch(players)
        slabs = 1 if from_played else 0  # record the play only when the next deal gathers it
        rec_plays = np.zeros((slabs, MAX_PLAYS, 4), dtype=np.int64)
        rec_tricks = np.zeros((slabs, MAX_TRICKS, 3), dtype=np.int64)
        rec_bonus = np.zeros((slabs, MAX_BONUS, 4), dtype=np.int64)
        rec_n = np.zeros((slabs, 3), dtype=np.int64)
        counts = np.zeros((0, 0), dtype=np.int64)
        banker = 0
        streak = 1
        for g in range(length):
            d = k * length + g
            seed_stream(st_deal, seed, STREAM_DEAL, d)
            deal_for_banker(st_deal, plan, banker, order, hands32)
            for s in range(players):
                hands0[s] = np.int64(hands32[s])
            seed_stream(st_play, seed, STREAM_PLAY, d)
            seed_stream(st_dice, seed, STREAM_DICE, d)
            closer = play_deal(hands0, banker, streak, policies, params, tabs, st_play, st_dice,
                               obs, buf, kv, hands, dong, folded, pay, bonus,
                               rec_plays, rec_tricks, rec_bonus, rec_n, 0, counts)
            out_banker[k, g] = banker
            out_streak[k, g] = streak
            out_closer[k, g] = closer
            for s in range(players):
                out_pay[k, g, s] = pay[s]
                for t in range(3):
                    out_bonus[k, g, s, t] = bonus[s, t]
            if from_played:
                gather_played(rec_plays[0], rec_n[0, 0], order)
            if closer >= 0:
                if closer == banker:
                    streak += 1
                else:
                    banker = closer
                    streak = 1


@dataclass
class SessionResults:
    """Per-deal arrays of S sessions of G deals (deal g of session k is deal index k·G + g)."""

    policies: list[str]  # per seat
    payments: np.ndarray  # int64 [S, G, players], bonuses included
    bonus: np.ndarray  # int64 [S, G, players, 3]
    banker: np.ndarray  # int64 [S, G]: banker of each deal
    streak: np.ndarray  # int64 [S, G]: the banker's streak in that deal (1 = first deal as banker)
    closer: np.ndarray  # int64 [S, G], -1 for a void deal

    @property
    def sessions(self) -> int:
        """Number of sessions S."""
        return self.payments.shape[0]

    @property
    def length(self) -> int:
        """Deals per session G."""
        return self.payments.shape[1]


def run_session(rules: RuleSet, policies: Sequence[str], seed: int, sessions: int, length: int,
                method: str = ROUNDS, shuffle: str = "perfect", from_: str = "box",
                threads: int | None = None) -> SessionResults:
    """Play `sessions` independent sessions of `length` deals with the banker succession of 飛庄."""
    from ..errors import TjsimError  # noqa: PLC0415

    if length < 1:
        raise TjsimError(f"--session must be at least 1 deal, got {length}")
    if sessions < 1:
        raise TjsimError(f"need at least one session, got {sessions}")
    players = rules.players
    names = [p.strip() for p in policies]
    pol = policy_ids(names, players)
    plan = make_plan(rules, method, shuffle, from_)
    shape = (sessions, length)
    out = SessionResults([n for n in (names * players if len(names) == 1 else names)],
                         np.zeros((*shape, players), np.int64), np.zeros((*shape, players, 3), np.int64),
                         np.zeros(shape, np.int64), np.zeros(shape, np.int64), np.zeros(shape, np.int64))
    set_threads(threads)
    _sessions(np.uint64(seed), sessions, length, plan, from_ == "played", pol, pack_params(rules), tables(rules),
              out.payments, out.bonus, out.banker, out.streak, out.closer)
    return out


def _mean_ci(values: np.ndarray) -> tuple[float, float, float, float]:
    n = len(values)
    m = float(values.mean())
    se = float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    return m, se, m - Z95 * se, m + Z95 * se


def session_tables(res: SessionResults) -> dict[str, pd.DataFrame]:
    """Tidy summaries: `session_seats` (per seat), `session_streaks` (streak and reign lengths), `session_totals`."""
    import pandas as pd

    S, G, P = res.payments.shape
    totals = res.payments.sum(axis=1).astype(np.float64)  # [S, P]
    seats = []
    for s in range(P):
        t = totals[:, s]
        m, se, lo, hi = _mean_ci(t / G)
        sd = float(t.std(ddof=1)) if S > 1 else math.nan
        q = np.quantile(t, [0.05, 0.5, 0.95])
        seats.append({"seat": s, "policy": res.policies[s], "sessions": S, "deals_per_session": G,
                      "mean_per_deal": m, "se": se, "ci_low": lo, "ci_high": hi,
                      "session_mean": float(t.mean()), "session_sd": sd, "session_var": sd * sd,
                      "session_q05": float(q[0]), "session_median": float(q[1]), "session_q95": float(q[2]),
                      "session_min": float(t.min()), "session_max": float(t.max()),
                      "banker_share": float((res.banker == s).mean()),
                      "closer_rate": float((res.closer == s).mean())})
    streak_vals, streak_counts = np.unique(res.streak, return_counts=True)
    rows = [{"measure": "deals_at_streak", "value": int(v), "count": int(c), "share": c / (S * G)}
            for v, c in zip(streak_vals, streak_counts)]
    # a reign ends where the next deal starts at streak 1 or the session ends (then it is cut short)
    ends = np.zeros((S, G), dtype=bool)
    ends[:, :-1] = res.streak[:, 1:] == 1
    ends[:, -1] = True
    lengths = res.streak[ends]
    lv, lc = np.unique(lengths, return_counts=True)
    rows += [{"measure": "reign_length", "value": int(v), "count": int(c), "share": c / len(lengths)}
             for v, c in zip(lv, lc)]
    tot = pd.DataFrame({"session": np.repeat(np.arange(S), P), "seat": np.tile(np.arange(P), S),
                        "policy": np.tile(np.array(res.policies), S), "total": totals.ravel().astype(np.int64)})
    return {"session_seats": pd.DataFrame(seats), "session_streaks": pd.DataFrame(rows), "session_totals": tot}


SEAT_COLUMNS = ["seat", "policy", "mean_per_deal", "ci_low", "ci_high", "session_mean", "session_sd",
                "session_q05", "session_median", "session_q95", "banker_share", "closer_rate"]


def format_session(res: SessionResults, rules_name: str, seed: int, fmt: str = "table") -> str:
    """The session report as text: `table` (terminal), `csv` (seat table, numbers as in the terminal) or `json`."""
    import json  # noqa: PLC0415

    from ..experiments.tidy import csv_text, display_frame, render  # noqa: PLC0415

    t = session_tables(res)
    seats = display_frame(t["session_seats"])
    streaks = display_frame(t["session_streaks"])
    if fmt == "csv":
        return csv_text(seats)
    if fmt == "json":
        return json.dumps({"rules": rules_name, "seed": seed, "sessions": res.sessions,
                           "deals_per_session": res.length,
                           "seats": seats.to_dict(orient="records"),
                           "streaks": streaks.to_dict(orient="records")}, ensure_ascii=False, indent=2) + "\n"
    head = (f"Sessions of {res.length} deals with 飛庄 (the closer becomes banker) — rules {rules_name}, "
            f"{res.sessions:,} sessions, seed {seed}\n")
    at = streaks[streaks["measure"] == "deals_at_streak"].drop(columns="measure")
    reign = streaks[streaks["measure"] == "reign_length"].drop(columns="measure")
    return (head + "\n"
            + render(seats[SEAT_COLUMNS], title="Per seat: mean per deal (戙, 95% CI) and the session total "
                     "(sd, 5% / 50% / 95% quantiles: what a player risks in a session)") + "\n"
            + render(at.rename(columns={"value": "streak", "count": "deals"}),
                     title="Banker streak of each deal (1 = first deal as banker)") + "\n"
            + render(reign.rename(columns={"value": "deals_as_banker", "count": "reigns"}),
                     title="Reign lengths (deals in a row as banker; the last reign of a session is cut short)"))


def write_session_results(folder, res: SessionResults, rules: RuleSet, seed: int, method: str = ROUNDS,
                          shuffle: str = "perfect", from_: str = "box") -> list[str]:
    """Write a results folder (kind "session"): the tidy session tables and manifest.json."""
    from ..experiments.tidy import write_results  # noqa: PLC0415

    config = {"rules": rules.name, "preset": rules.preset, "players": rules.players, "policies": res.policies,
              "sessions": res.sessions, "length": res.length, "deals": res.sessions * res.length,
              "method": method, "shuffle": shuffle, "from": from_, "settings": rules.describe()}
    return write_results(folder, "session", config, seed, session_tables(res))
