"""`tjsim simulate`: play many deals and report results per seat and strategy."""
from __future__ import annotations

import json
import math

import click

from ..errors import TjsimError
from .options import emit, emit_json, format_options, players_option, rules_option
from ..strategies.names import sees_all, sees_all_note
from ..output.tables import render_table, to_csv
from .play_cmd import check_dealing, dealing_options, policy_options, table_options, table_setup

CHUNK = 250_000
COLUMNS = ["seat", "policy", "deals", "mean_payment", "ci_low", "ci_high", "closer_rate", "mean_dong",
           "empty_rate", "in_rate", "fold_rate",
           "supreme_rate", "supreme_mean", "supreme_close_rate", "supreme_close_mean",
           "quartet_rate", "quartet_mean"]
TABLE_COLUMNS = ["seat", "policy", "mean_payment", "ci_low", "ci_high", "closer_rate", "mean_dong",
                 "empty_rate", "in_rate", "fold_rate"]
BONUS_KEYS = ("supreme", "supreme_close", "quartet")


def seat_rows(table) -> list[dict]:
    """One result row per seat (COLUMNS) from the finalized `payments` table of the experiment driver."""
    out = []
    for r in table.itertuples(index=False):
        n = max(int(r.n), 1)
        lo, hi = float(r.mean_payment_ci_low), float(r.mean_payment_ci_high)
        row = {"seat": int(r.seat), "policy": r.policy, "deals": int(r.n), "mean_payment": round(r.mean_payment, 6),
               # one deal gives no interval (stats: NaN): an empty cell, null in JSON
               "ci_low": None if math.isnan(lo) else round(lo, 6),
               "ci_high": None if math.isnan(hi) else round(hi, 6),
               "closer_rate": round(r.closes / n, 6), "mean_dong": round(r.dong_sum / n, 6),
               "empty_rate": round(r.empty / n, 6), "in_rate": round(r.into / n, 6),
               "fold_rate": round(r.folds / n, 6)}
        for key in BONUS_KEYS:
            row[f"{key}_rate"] = round(getattr(r, f"{key}_hits") / n, 6)
            row[f"{key}_mean"] = round(getattr(r, f"{key}_sum") / n, 6)
        out.append(row)
    return out


@click.command()
@rules_option
@players_option
@policy_options
@table_options
@click.option("--deals", default=100_000, show_default=True, type=int, help="Number of deals to play.")
@click.option("--threads", default=None, type=int, help="Worker threads (default: all cores). Results do not depend on it.")
@click.option("--trace", "trace_path", default=None, type=click.Path(dir_okay=False, writable=True),
              help="Also write the game traces of the first deals to this JSON-lines file.")
@click.option("--trace-limit", default=100, show_default=True, type=int, help="How many deals --trace writes.")
@click.option("--session", "session_length", default=None, type=int, metavar="G",
              help="Play sessions of G deals in a row with the real banker succession (飛庄: the closer becomes "
                   "banker, a banker who closes adds to the streak); --deals is split into deals ÷ G sessions.")
@click.option("--from", "from_", type=click.Choice(["box", "played"]), default="box", show_default=True,
              help="With --session and an imperfect --shuffle: each deal starts from the box order, or from the "
                   "previous deal's tiles gathered in the order played.")
@click.option("--out-dir", default=None, type=click.Path(file_okay=False),
              help="Also write a results folder (chunks, tidy CSVs, manifest.json; the format of "
                   "`tjsim experiment run`), for `tjsim report`.")
@click.option("--resume", is_flag=True, help="Finish an interrupted run in --out-dir: only the missing chunks run.")
@dealing_options
@format_options
def simulate(rules_spec, players, policy, policies, seed, banker, streak, deals, threads, trace_path, trace_limit,
             session_length, from_, out_dir, resume, method, shuffle, fmt, out):
    """Play many deals and report, per seat: mean payment (95% CI), closer rate, mean 戙,
    空戙 (no 戙) rate, 入 rate (more 戙 than the baseline), fold rate and each bonus's frequency and mean.

    \b
    Examples:
      tjsim simulate --rules hk --policies heuristic,greedy,greedy,greedy --deals 200000 --seed 1
      tjsim simulate --rules folk --players 3 --policy greedy --format csv --out folk3.csv
      tjsim simulate --policy random --deals 1000 --trace first.jsonl --trace-limit 10
      tjsim simulate --rules hk --policy heuristic --session 16 --deals 160000 --seed 1
    """
    from ..experiments.analyses import chunk_deals
    from ..experiments.backends import note_command, run_analysis
    from ..experiments.experiment import command_experiment
    from ..kernels.threads import set_threads
    from ..sim.runner import simulate_traces

    rules, names = table_setup(rules_spec, players, policy, policies, seed, banker, streak)
    check_dealing(rules, method, shuffle)
    if deals < 1:
        raise TjsimError(f"--deals must be at least 1, got {deals}")
    if threads is not None and threads < 1:
        raise TjsimError(f"--threads must be at least 1, got {threads}")
    if trace_limit < 0:
        raise TjsimError(f"--trace-limit must be 0 or more, got {trace_limit}")

    if session_length is not None:
        _simulate_sessions(rules, names, seed, deals, session_length, threads, method, shuffle, from_, out_dir,
                           resume, fmt, out)
        return
    if from_ != "box":
        raise TjsimError("--from goes with --session G (deals in a row)")

    exp = command_experiment("simulate", "payments", rules, seed, deals, chunk_deals(names, CHUNK),
                             {"banker": banker, "streak": streak},
                             strategies=list(names), method=method, shuffle=shuffle)
    set_threads(threads)
    rows = seat_rows(run_analysis(exp, out_dir, resume=resume)["payments"])
    if out_dir:
        note_command(out_dir, "simulate", {"rules": rules.name, "preset": rules.preset, "players": rules.players,
                                           "policies": list(names), "deals": deals, "method": method,
                                           "shuffle": shuffle, "banker": banker, "streak": streak,
                                           "settings": rules.describe()})
    if trace_path:
        traces = simulate_traces(rules, names, seed, min(trace_limit, deals), banker=banker, streak=streak,
                                 method=method, shuffle=shuffle)
        emit("".join(json.dumps(t, ensure_ascii=False) + "\n" for t in traces), trace_path)
    if fmt == "json":
        emit_json({"rules": rules.name, "players": rules.players, "deals": deals, "seed": seed,
                   "method": method, "shuffle": shuffle, "banker": banker, "streak": streak, "seats": rows,
                   "sees_all_hands": sees_all(names)}, out)
    elif fmt == "csv":
        emit(to_csv(rows, COLUMNS), out)
    else:
        title = (f"tjsim simulate — rules {rules.name}, {rules.players} players, {deals:,} deals, seed {seed}, "
                 f"dealing {method}/{shuffle}, banker seat {banker} (streak {streak}); payments in 戙 per deal")
        if sees_all_note(names):
            title += "\n" + sees_all_note(names)
        text = render_table(rows, TABLE_COLUMNS, title=title)
        bonus_rows = [{"seat": r["seat"], "policy": r["policy"],
                       **{f"{k} {w}": r[f"{k}_{w}"] for k in BONUS_KEYS for w in ("rate", "mean")}}
                      for r in rows]
        if rules.supreme_bonus or rules.supreme_close or rules.quartet_bonus:
            text += "\n" + render_table(bonus_rows, title="Bonuses (rate: share of deals the seat received it; "
                                                          "mean: net per deal)")
        emit(text, out)


def _simulate_sessions(rules, names, seed, deals, length, threads, method, shuffle, from_, out_dir, resume, fmt,
                       out):
    """`simulate --session G`: deals ÷ G sessions of G deals each, banker succession of 飛庄."""
    from ..experiments.analyses import chunk_deals
    from ..experiments.backends import note_command, run_analysis
    from ..experiments.experiment import command_experiment, strategies_per_seat
    from ..kernels.threads import set_threads
    from ..output.session_report import format_session_tables

    if length < 1:
        raise TjsimError(f"--session must be at least 1 deal, got {length}")
    if deals < length:
        raise TjsimError(f"--deals ({deals}) must be at least one session of --session {length} deals")
    sessions = deals // length
    chunk = length * max(1, chunk_deals(names, length * SESSIONS_PER_CHUNK) // length)  # whole sessions
    exp = command_experiment("simulate --session", "sessions", rules, seed, sessions * length, chunk,
                             {"length": length, "from": from_},
                             strategies=strategies_per_seat([n.strip() for n in names], rules.players),
                             method=method, shuffle=shuffle)
    set_threads(threads)
    tables = run_analysis(exp, out_dir, resume=resume)
    if out_dir:
        note_command(out_dir, "session", {
            "rules": rules.name, "preset": rules.preset, "players": rules.players,
            "policies": strategies_per_seat(list(names), rules.players), "sessions": sessions, "length": length,
            "deals": sessions * length, "method": method, "shuffle": shuffle, "from": from_,
            "settings": rules.describe()})
    emit(format_session_tables(tables, rules.name, seed, sessions, length, fmt), out)


SESSIONS_PER_CHUNK = 1 << 14  # sessions per chunk: one kernel batch of sim/session.py
