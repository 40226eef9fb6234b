"""The session report (`tjsim simulate --session G`): text, CSV and JSON."""
from __future__ import annotations

import json

from ..sim.session import session_tables, SessionResults
from .frames import csv_text, display_frame, render


SEAT_COLUMNS = ["seat", "policy", "mean_per_deal", "ci_low", "ci_high", "session_mean", "session_sd",
                "session_q05", "session_median", "session_q95", "banker_share", "closer_rate"]


def format_session(res: SessionResults, rules_name: str, seed: int, fmt: str = "table") -> str:
    """The session report of played sessions (see `format_session_tables`)."""
    return format_session_tables(session_tables(res), rules_name, seed, res.sessions, res.length, fmt)


def format_session_tables(t: dict, rules_name: str, seed: int, sessions: int, length: int,
                          fmt: str = "table") -> str:
    """The session report as text: `table` (terminal), `csv` (seat table, numbers as in the terminal) or `json`.

    `t` holds `session_seats` and `session_streaks` (sim.session.session_summary; a `cell` column is dropped).
    """
    seats = display_frame(t["session_seats"].drop(columns="cell", errors="ignore"))
    streaks = display_frame(t["session_streaks"].drop(columns="cell", errors="ignore"))
    if fmt == "csv":
        return csv_text(seats)
    if fmt == "json":
        return json.dumps({"rules": rules_name, "seed": seed, "sessions": sessions,
                           "deals_per_session": length,
                           "seats": seats.to_dict(orient="records"),
                           "streaks": streaks.to_dict(orient="records")}, ensure_ascii=False, indent=2) + "\n"
    head = (f"Sessions of {length} deals with 飛庄 (the closer becomes banker) — rules {rules_name}, "
            f"{sessions:,} sessions, seed {seed}\n")
    at = streaks[streaks["measure"] == "deals_at_streak"].drop(columns="measure")
    reign = streaks[streaks["measure"] == "reign_length"].drop(columns="measure")
    return (head + "\n"
            + render(seats[SEAT_COLUMNS], title="Per seat: mean per deal (戙, 95% CI) and the session total "
                     "(sd, 5% / 50% / 95% quantiles: what a player risks in a session)") + "\n"
            + render(at.rename(columns={"value": "streak", "count": "deals"}),
                     title="Banker streak of each deal (1 = first deal as banker)") + "\n"
            + render(reign.rename(columns={"value": "deals_as_banker", "count": "reigns"}),
                     title="Reign lengths (deals in a row as banker; the last reign of a session is cut short)"))
