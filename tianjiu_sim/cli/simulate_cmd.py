"""`tjsim simulate`: play many deals and report results per seat and strategy."""
from __future__ import annotations

import json
import math
import sys

import click
import numpy as np

from ..errors import TjsimError
from ..stats import mean_ci
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


class Tally:
    """Per-seat running sums over chunks of deals (so a run never holds every deal in memory)."""

    def __init__(self, players: int):
        z = lambda: np.zeros(players, dtype=np.int64)  # noqa: E731
        self.n = 0
        self.pay, self.pay_sq, self.closes, self.dong = z(), z(), z(), z()
        self.empty, self.into, self.folds = z(), z(), z()
        self.bonus_hits = np.zeros((players, 3), dtype=np.int64)
        self.bonus_sum = np.zeros((players, 3), dtype=np.int64)

    def add(self, res, baseline: int) -> None:
        """Add one chunk of runner.Rows."""
        pay = res.payments.astype(np.int64)
        dong = res.dong.astype(np.int64)
        played = (res.closer >= 0)[:, None] & ~res.folded
        seats = np.arange(pay.shape[1])[None, :]
        self.n += pay.shape[0]
        self.pay += pay.sum(axis=0)
        self.pay_sq += (pay * pay).sum(axis=0)
        self.closes += (res.closer[:, None] == seats).sum(axis=0)
        self.dong += dong.sum(axis=0)
        self.empty += (played & (dong == 0)).sum(axis=0)
        self.into += (played & (dong > baseline) & (res.closer[:, None] != seats)).sum(axis=0)
        self.folds += res.folded.sum(axis=0)
        self.bonus_hits += (res.bonus > 0).sum(axis=0)
        self.bonus_sum += res.bonus.astype(np.int64).sum(axis=0)

    def rows(self, names: list[str]) -> list[dict]:
        """One result row per seat (COLUMNS)."""
        out = []
        n = max(self.n, 1)
        for s, name in enumerate(names):
            mean, _, lo, hi = mean_ci(float(self.pay[s]), float(self.pay_sq[s]), self.n)
            row = {"seat": s, "policy": name, "deals": self.n, "mean_payment": round(mean, 6),
                   # one deal gives no interval (stats: NaN): an empty cell, null in JSON
                   "ci_low": None if math.isnan(lo) else round(lo, 6),
                   "ci_high": None if math.isnan(hi) else round(hi, 6),
                   "closer_rate": round(self.closes[s] / n, 6), "mean_dong": round(self.dong[s] / n, 6),
                   "empty_rate": round(self.empty[s] / n, 6), "in_rate": round(self.into[s] / n, 6),
                   "fold_rate": round(self.folds[s] / n, 6)}
            for t, key in enumerate(BONUS_KEYS):
                row[f"{key}_rate"] = round(self.bonus_hits[s, t] / n, 6)
                row[f"{key}_mean"] = round(self.bonus_sum[s, t] / n, 6)
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
              help="With --session: also write a results folder (tidy CSVs, manifest.json) for `tjsim report`.")
@dealing_options
@format_options
def simulate(rules_spec, players, policy, policies, seed, banker, streak, deals, threads, trace_path, trace_limit,
             session_length, from_, out_dir, method, shuffle, fmt, out):
    """Play many deals and report, per seat: mean payment (95% CI), closer rate, mean 戙,
    空戙 (no 戙) rate, 入 rate (more 戙 than the baseline), fold rate and each bonus's frequency and mean.

    \b
    Examples:
      tjsim simulate --rules hk --policies heuristic,greedy,greedy,greedy --deals 200000 --seed 1
      tjsim simulate --rules folk --players 3 --policy greedy --format csv --out folk3.csv
      tjsim simulate --policy random --deals 1000 --trace first.jsonl --trace-limit 10
      tjsim simulate --rules hk --policy heuristic --session 16 --deals 160000 --seed 1
    """
    from tqdm import tqdm

    from ..sim.runner import run_deals, simulate_traces

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
                           fmt, out)
        return
    if from_ != "box" or out_dir:
        raise TjsimError("--from and --out-dir go with --session G (deals in a row)")

    tally = Tally(rules.players)
    show = deals >= 2 * CHUNK
    with tqdm(total=deals, unit="deal", unit_scale=True, file=sys.stderr, disable=None if show else True,
              desc="simulate") as bar:
        for start in range(0, deals, CHUNK):
            n = min(CHUNK, deals - start)
            res = run_deals(rules, names, seed, n, start=start, banker=banker, streak=streak, threads=threads,
                            method=method, shuffle=shuffle)
            tally.add(res, rules.baseline)
            bar.update(n)
    rows = tally.rows(names)
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


def _simulate_sessions(rules, names, seed, deals, length, threads, method, shuffle, from_, out_dir, fmt, out):
    """`simulate --session G`: deals ÷ G sessions of G deals each, banker succession of 飛庄."""
    from ..output.session_report import format_session, write_session_results
    from ..sim.session import run_session

    if length < 1:
        raise TjsimError(f"--session must be at least 1 deal, got {length}")
    if deals < length:
        raise TjsimError(f"--deals ({deals}) must be at least one session of --session {length} deals")
    res = run_session(rules, names, seed, sessions=deals // length, length=length, method=method,
                      shuffle=shuffle, from_=from_, threads=threads)
    if out_dir:
        write_session_results(out_dir, res, rules, seed, method, shuffle, from_)
    emit(format_session(res, rules.name, seed, fmt), out)
