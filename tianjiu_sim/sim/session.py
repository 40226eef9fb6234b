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
from numba import njit

from ..kernels.dealing import make_plan, ROUNDS
from ..kernels.layout import RN_PLAYS, RP_TILES
from ..game.rules import RuleSet
from .runner import play_rows, policy_ids
from ..stats import mean_ci_of

if TYPE_CHECKING:  # pandas is imported where tables are made: deal-odds starts faster without it
    import pandas as pd


@njit(cache=True)
def gather_played(rec_plays, n_plays, order):
    """Write the gathered order into `order`: played tiles in play order, then the rest in box order."""
    used = np.int64(0)
    k = 0
    for r in range(n_plays):
        m = rec_plays[r, RP_TILES]
        for b in range(32):
            if (m >> b) & 1 and not (used >> b) & 1:
                order[k] = b
                used |= np.int64(1) << b
                k += 1
    for b in range(32):
        if not (used >> b) & 1:
            order[k] = b
            k += 1


@njit(cache=True)
def gather_rows(rec_plays, rec_n, out):
    """out[i] = the gathered order of row i's recorded deal (`gather_played` row by row)."""
    for i in range(out.shape[0]):
        gather_played(rec_plays[i], rec_n[i, RN_PLAYS], out[i])


# Sessions played side by side per kernel call: bounds the record slabs that `played` needs.
_SESSION_ROWS = 1 << 14


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
                threads: int | None = None, first: int = 0) -> SessionResults:
    """Play `sessions` independent sessions of `length` deals with the banker succession of 飛庄.

    They are sessions first…first+sessions−1 of the run: deal g of session k is deal index
    k·length + g, so a run played in pieces gives the same sessions as in one go.
    """
    from ..errors import TjsimError  # noqa: PLC0415

    if length < 1:
        raise TjsimError(f"--session must be at least 1 deal, got {length}")
    if sessions < 1:
        raise TjsimError(f"need at least one session, got {sessions}")
    players = rules.players
    names = [p.strip() for p in policies]
    pol = policy_ids(names, players).reshape(1, players)
    plan = make_plan(rules, method, shuffle, from_)
    played = from_ == "played"
    shape = (sessions, length)
    out = SessionResults([n for n in (names * players if len(names) == 1 else names)],
                         np.zeros((*shape, players), np.int64), np.zeros((*shape, players, 3), np.int64),
                         np.zeros(shape, np.int64), np.zeros(shape, np.int64), np.zeros(shape, np.int64))
    # Deal g of every session is one batch of rows of the play kernel; the banker succession
    # between batches is plain array arithmetic.
    for lo in range(0, sessions, _SESSION_ROWS):
        k = np.arange(lo, min(sessions, lo + _SESSION_ROWS), dtype=np.int64)
        banker = np.zeros(len(k), np.int64)
        streak = np.ones(len(k), np.int64)
        orders = np.tile(np.arange(32, dtype=np.int64), (len(k), 1)) if played else None
        for g in range(length):
            r = play_rows(rules, pol, seed, len(k), deal_index=(first + k) * length + g, banker=banker, streak=streak,
                          plan=plan, orders=orders, record=played, threads=threads)
            closer = r.closer.astype(np.int64)
            out.banker[k, g] = banker
            out.streak[k, g] = streak
            out.closer[k, g] = closer
            out.payments[k, g] = r.payments
            out.bonus[k, g] = r.bonus
            if played:
                gather_rows(r.records[0], r.records[3], orders)
            closed = closer >= 0
            streak = np.where(closed, np.where(closer == banker, streak + 1, 1), streak)
            banker = np.where(closed, closer, banker)
    return out


def session_counts(res: SessionResults, first: int = 0) -> dict[str, pd.DataFrame]:
    """Integer tallies of sessions first…: `session_totals` (per session and seat), `session_deals`
    (deals as banker, closes per seat) and `session_streak_counts` — what `session_summary` needs."""
    import pandas as pd

    S, G, P = res.payments.shape
    totals = res.payments.sum(axis=1).astype(np.int64)  # [S, P]
    deals = pd.DataFrame({"seat": np.arange(P), "policy": res.policies,
                          "banker_deals": [int((res.banker == s).sum()) for s in range(P)],
                          "closes": [int((res.closer == s).sum()) for s in range(P)]})
    streak_vals, streak_counts = np.unique(res.streak, return_counts=True)
    rows = [{"measure": "deals_at_streak", "value": int(v), "count": int(c)} for v, c in zip(streak_vals, streak_counts)]
    # a reign ends where the next deal starts at streak 1 or the session ends (then it is cut short)
    ends = np.zeros((S, G), dtype=bool)
    ends[:, :-1] = res.streak[:, 1:] == 1
    ends[:, -1] = True
    lv, lc = np.unique(res.streak[ends], return_counts=True)
    rows += [{"measure": "reign_length", "value": int(v), "count": int(c)} for v, c in zip(lv, lc)]
    tot = pd.DataFrame({"session": np.repeat(np.arange(first, first + S), P), "seat": np.tile(np.arange(P), S),
                        "policy": np.tile(np.array(res.policies), S), "total": totals.ravel()})
    return {"session_totals": tot, "session_deals": deals,
            "session_streak_counts": pd.DataFrame(rows, columns=["measure", "value", "count"])}


def session_summary(totals: pd.DataFrame, deals: pd.DataFrame, streaks: pd.DataFrame,
                    length: int) -> dict[str, pd.DataFrame]:
    """`session_seats` (per seat) and `session_streaks` (streak and reign lengths) from `session_counts`
    tables of every session (added up over pieces; totals in session order)."""
    import pandas as pd

    P = int(deals.shape[0])
    G = int(length)
    t_all = totals.sort_values(["session", "seat"], kind="stable")["total"].to_numpy(np.float64).reshape(-1, P)
    S = t_all.shape[0]
    seats = []
    for s in range(P):
        t = t_all[:, s]
        m, se, lo, hi = mean_ci_of(t / G)
        sd = float(t.std(ddof=1)) if S > 1 else math.nan
        q = np.quantile(t, [0.05, 0.5, 0.95])
        row = deals.iloc[s]
        seats.append({"seat": s, "policy": row["policy"], "sessions": S, "deals_per_session": G,
                      "mean_per_deal": m, "se": se, "ci_low": lo, "ci_high": hi,
                      "session_mean": float(t.mean()), "session_sd": sd, "session_var": sd * sd,
                      "session_q05": float(q[0]), "session_median": float(q[1]), "session_q95": float(q[2]),
                      "session_min": float(t.min()), "session_max": float(t.max()),
                      "banker_share": float(row["banker_deals"]) / (S * G),
                      "closer_rate": float(row["closes"]) / (S * G)})
    rows = []
    for measure in ("deals_at_streak", "reign_length"):
        g = streaks[streaks["measure"] == measure].groupby("value", sort=True)["count"].sum()
        total = int(g.sum())
        rows += [{"measure": measure, "value": int(v), "count": int(c), "share": c / total} for v, c in g.items()]
    return {"session_seats": pd.DataFrame(seats), "session_streaks": pd.DataFrame(rows)}


def session_tables(res: SessionResults) -> dict[str, pd.DataFrame]:
    """Tidy summaries: `session_seats` (per seat), `session_streaks` (streak and reign lengths), `session_totals`."""
    c = session_counts(res)
    return {**session_summary(c["session_totals"], c["session_deals"], c["session_streak_counts"], res.length),
            "session_totals": c["session_totals"]}
