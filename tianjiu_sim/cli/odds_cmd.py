"""`tjsim deal-odds`: how likely each kind of dealt hand is, per dealing method and shuffle."""
from __future__ import annotations

import math
import sys
import time

import click

from ..errors import TjsimError
from ..stats import wilson
from .options import emit, emit_json, format_options, players_option, resolve_rules, rules_option
from ..output.tables import render_table, to_csv

DEFAULT_DEALS = 1_000_000
DEFAULT_DEALS_IMPERFECT = 200_000
MAX_DEALS = 10**12
SHORT = {"one-by-one": "1by1", "alternate": "altern", "dragon-phoenix": "drag-ph", "three-lions": "3lions"}


def _parse_methods(spec: str, players: int, tiles: int) -> list[str]:
    from ..kernels.dealing import check_method, METHODS, methods_for

    names = [t.strip() for t in spec.split(",") if t.strip()]
    if not names:
        raise TjsimError(f"--method is empty (allowed: {', '.join(METHODS)}, all)")
    out: list[str] = []
    for name in names:
        picked = list(methods_for(players, tiles)) if name == "all" else [name]
        for m in picked:
            check_method(m, players, tiles)
            if m not in out:
                out.append(m)
    return out


def _parse_shuffles(specs: tuple[str, ...]):
    from ..kernels.shuffles import parse_shuffle

    out = []
    for spec in specs or ("perfect",):
        for sh in parse_shuffle(spec):
            if sh not in out:
                out.append(sh)
    return out


def _is_sweep(shuffles) -> bool:
    kinds = [s.kind for s in shuffles if s.kind in ("riffle", "wash")]
    return any(kinds.count(k) >= 2 for k in set(kinds))


def _progress(total: int):
    """A tqdm bar on stderr that appears only if the run lasts more than ~2 s (and stderr is a terminal)."""
    from tqdm import tqdm

    return tqdm(total=total, unit=" deals", unit_scale=True, file=sys.stderr, delay=2.0, leave=False,
                disable=not sys.stderr.isatty(), dynamic_ncols=True)


def _fmt_p(p: float | None) -> str:
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return ""
    return f"{p:.4g}" if p >= 1e-4 or p == 0 else f"{p:.3e}"


def _one_in(p: float) -> str:
    return f"{1 / p:,.0f}" if p > 0 else "never"


def _uniform_table(run, shuffle, homog) -> str:
    """Perfect shuffle: the methods pooled (they deal the same distribution), with the homogeneity p per event."""
    rows = []
    for e in run.events:
        cells = [run.cells[(m, shuffle.name)] for m in run.methods]
        hits = sum(int(c.counts[e.col]) for c in cells)
        trials = sum(c.deals for c in cells) * run.units(e)
        p = hits / trials
        lo, hi = wilson(hits, trials)
        row = {"event": e.name, "unit": e.unit, "probability": _fmt_p(p), "95% CI": f"{_fmt_p(lo)}–{_fmt_p(hi)}",
               "1 in": _one_in(p)}
        if run.exact_shown:
            row["exact"] = _fmt_p(run.exact[e.name])
        if len(run.methods) > 1:
            per = [int(c.counts[e.col]) / (c.deals * run.units(e)) for c in cells]
            row["methods min–max"] = f"{_fmt_p(min(per))}–{_fmt_p(max(per))}"
            row["p(same)"] = f"{homog['events'][e.name]['p_value']:.3f}"
        row["meaning"] = e.description
        rows.append(row)
    methods = (f"{len(run.methods)} methods pooled ({', '.join(run.methods)})" if len(run.methods) > 1
               else f"method {run.methods[0]}")
    title = (f"deal-odds: rules {run.rules.name}, {run.players} players × {run.tiles} tiles, shuffle {shuffle.name}, "
             f"{run.deals:,} deals per method, {methods}, seed {run.seed}")
    return render_table(rows, title=title)


def _pivot_table(run, shuffle, homog) -> str:
    """Imperfect shuffle: one column per method; ±95% is the widest Wilson half-width among them."""
    rows = []
    for e in run.events:
        row = {"event": e.name}
        half = 0.0
        for m in run.methods:
            c = run.cells[(m, shuffle.name)]
            trials = c.deals * run.units(e)
            p = int(c.counts[e.col]) / trials
            row[SHORT.get(m, m)] = _fmt_p(p)
            lo, hi = wilson(int(c.counts[e.col]), trials)
            half = max(half, p - lo, hi - p)
        row["±95%"] = _fmt_p(half)
        if run.exact:
            row["uniform"] = _fmt_p(run.exact[e.name])
        if homog:
            row["p(same)"] = f"{homog['events'][e.name]['p_value']:.3g}"
        rows.append(row)
    title = (f"deal-odds: rules {run.rules.name}, {run.players} players × {run.tiles} tiles, shuffle {shuffle.name} "
             f"from {_from_text(run)}, {run.deals:,} deals per method, seed {run.seed}")
    return render_table(rows, title=title)


def _from_text(run) -> str:
    """The start order in a title."""
    if run.from_ == "played":
        return f"played order (a previous deal per deal, played by {run.previous_policy})"
    return f"{run.from_} order"


def _homog_line(shuffle, homog) -> str:
    if not homog:
        return ""
    verdict = ("no significant difference between methods" if homog["bonferroni_p"] >= 0.01
               else "the methods deal significantly different hands")
    return (f"Homogeneity across methods ({shuffle.name}): chi-square test per event, df {homog['df']}; "
            f"smallest p = {homog['min_p']:.3g} ({homog['min_p_event']}), "
            f"Bonferroni-adjusted over {len(homog['events'])} events p = {homog['bonferroni_p']:.3g}: {verdict}.\n")


def _deviation_table(run, deviation) -> str:
    rows = []
    for sh in run.shuffles:
        row = {"shuffle": sh.name}
        for d in deviation:
            if d["shuffle"] == sh.name:
                row[SHORT.get(d["method"], d["method"])] = _fmt_p(d["max_abs_deviation"])
        row["noise (1 se)"] = _fmt_p(max(d["noise_se"] for d in deviation if d["shuffle"] == sh.name))
        rows.append(row)
    return render_table(rows, title="Largest |P − P(uniform shuffle)| over the events, per shuffle and method")


def _table(run, homogeneity, deviation, elapsed: float) -> str:
    parts = []
    for sh in run.shuffles:
        homog = homogeneity.get(sh.name)
        parts.append(_uniform_table(run, sh, homog) if sh.uniform else _pivot_table(run, sh, homog))
        if sh.uniform:
            parts.append(run_note(run) + "\n")
        parts.append(_homog_line(sh, homog))
    if deviation and any(not s.uniform for s in run.shuffles):
        parts.append(_deviation_table(run, deviation))
    if run.from_ == "played" and any(not s.uniform for s in run.shuffles):
        parts.append("from played: every method and shuffle starts deal d from the same previous deal d "
                     "(paired comparisons); the homogeneity tests treat the cells as independent, so their "
                     "p-values are conservative.\n")
    parts.append(f"hand events: trials = deals × {run.players} hands; 95% Wilson intervals; "
                 f"{elapsed:.1f} s. More events: --events all (lao_k, erming_k, pairs_k, voids, quartets …).\n")
    return "\n".join(p for p in parts if p)


def run_note(run) -> str:
    """The note printed under a perfect-shuffle table."""
    from ..sim.odds import UNIFORM_NOTE

    return (UNIFORM_NOTE + (" The methods are pooled above; p(same) tests that they agree." if len(run.methods) > 1
                            else "")
            + (" A perfect shuffle forgets the start order: --from played gives the --from box numbers."
               if run.from_ == "played" else ""))


def _json(run, rows, homogeneity, deviation, elapsed: float) -> dict:
    from ..sim.odds import UNIFORM_NOTE

    return {
        "command": "deal-odds", "rules": run.rules.name, "players": run.players, "tiles_per_player": run.tiles,
        "methods": run.methods, "shuffles": [s.name for s in run.shuffles], "from": run.from_,
        "previous_policy": run.previous_policy if run.from_ == "played" else None,
        "deals": run.deals, "seed": run.seed,
        "events": [{"event": e.name, "unit": e.unit, "group": e.group, "description": e.description}
                   for e in run.events],
        "rows": rows,
        "homogeneity": homogeneity,
        "deviation": deviation,
        "note": UNIFORM_NOTE,
        "elapsed_seconds": round(elapsed, 3),
    }


@click.command("deal-odds")
@rules_option
@players_option
@click.option("--method", "method_spec", default="all", show_default=True, metavar="NAME[,NAME…]|all",
              help="Dealing method(s): left, right, one-by-one, alternate, skin, heart, ears, dragon-phoenix, "
                   "wings, three-lions (the 8-stack wall, 4 players × 8 tiles), rounds (round dealing), or all.")
@click.option("--shuffle", "shuffle_specs", multiple=True, metavar="MODEL",
              help="perfect (default), riffle:K, wash:K or none; K may be a list (wash:0,1,2,5,10) to sweep; "
                   "repeat the option for several models.")
@click.option("--from", "from_", default="box", show_default=True, metavar="box|played",
              help="Order the imperfect shuffles start from: box (the new set's box order, sorted by kind) or "
                   "played (the tiles of a simulated previous deal as gathered: for each deal, a perfectly "
                   "shuffled deal is played by --previous-policy under the same rules, and its tricks are "
                   "gathered in the order played, then the unplayed tiles in box order). No effect with a "
                   "perfect shuffle. played plays one deal per deal: far slower than box.")
@click.option("--previous-policy", default="heuristic", show_default=True, metavar="NAME",
              help="Strategy of every seat in the simulated previous deals of --from played "
                   "(random, greedy, heuristic, pimc[:W], oracle — oracle sees every hand).")
@click.option("--deals", type=int, default=None, metavar="N",
              help=f"Deals per method × shuffle [default: {DEFAULT_DEALS:,} with a perfect shuffle, "
                   f"{DEFAULT_DEALS_IMPERFECT:,} per imperfect shuffle].")
@click.option("--seed", type=int, default=1, show_default=True, help="Random seed.")
@click.option("--threads", type=int, default=None, metavar="T", help="Worker threads [default: all cores]; "
              "results do not depend on it.")
@click.option("--exact", "exact", is_flag=True, help="Also compute exact probabilities for a uniform shuffle.")
@click.option("--events", "events_spec", default="core", show_default=True, metavar="LIST",
              help="Events or groups, comma-separated: core (INTERFACES.md), extra, lao, erming, pairs, all, "
                   "or event names.")
@format_options
@click.option("--plot", type=click.Path(dir_okay=False), default=None, metavar="PNG",
              help="Also draw a plot: probabilities per method with intervals, or for a K sweep the largest "
                   "deviation from the uniform shuffle against K.")
def deal_odds(rules_spec, players, method_spec, shuffle_specs, from_, previous_policy, deals, seed, threads, exact,
              events_spec, fmt, out, plot):
    """Probabilities of dealt-hand events per dealing method (牌頭) and shuffle.

    \b
    Examples:
      tjsim deal-odds                                   all methods, perfect shuffle
      tjsim deal-odds --method left --exact --events all
      tjsim deal-odds --shuffle wash:0,1,2,5,10,20,50 --plot sweep.png
      tjsim deal-odds --shuffle none --shuffle riffle:1,3,7 --from played --method left,skin
    """
    started = time.perf_counter()
    rules = resolve_rules(rules_spec, players)
    methods = _parse_methods(method_spec, rules.players, rules.tiles_per_player)
    shuffles = _parse_shuffles(shuffle_specs)
    if from_ not in ("box", "played"):
        raise TjsimError(f"unknown --from '{from_}' (allowed: box, played)")
    if from_ == "played":
        from ..sim.runner import policy_ids

        policy_ids([previous_policy.strip()], rules.players)
    if deals is None:
        deals = DEFAULT_DEALS if all(s.uniform for s in shuffles) else DEFAULT_DEALS_IMPERFECT
    if not 1 <= deals <= MAX_DEALS:
        raise TjsimError(f"--deals must be between 1 and {MAX_DEALS:,}, got {deals}")
    if threads is not None and threads < 1:
        raise TjsimError(f"--threads must be at least 1, got {threads}")
    from ..sim.odds import select_events

    events = select_events(events_spec, rules.tiles_per_player)
    sweep = _is_sweep(shuffles)

    from ..sim.odds import run_odds
    from ..kernels.threads import set_threads

    set_threads(threads)
    total = deals * len(methods) * len(shuffles)
    with _progress(total) as bar:
        run = run_odds(rules, methods, shuffles, from_, deals, seed, events, exact=exact,
                       need_exact=sweep or (exact and any(not s.uniform for s in shuffles)), tick=bar.update,
                       previous_policy=previous_policy.strip())
    rows = run.rows()
    homogeneity = run.homogeneity()
    deviation = run.deviation() if run.exact and any(not s.uniform for s in shuffles) else []
    elapsed = time.perf_counter() - started

    if fmt == "csv":
        from ..sim.odds import CSV_COLUMNS

        emit(to_csv(rows, CSV_COLUMNS), out)
    elif fmt == "json":
        emit_json(_json(run, rows, homogeneity, deviation, elapsed), out)
    else:
        emit(_table(run, homogeneity, deviation, elapsed), out)
    if plot:
        _plot(run, rows, deviation, sweep, plot)


def _plot(run, rows, deviation, sweep: bool, path: str) -> None:
    from ..output import plots

    import textwrap

    shuffles = ", ".join(s.name for s in run.shuffles)
    title = (f"tjsim deal-odds — rules {run.rules.name} ({run.players}×{run.tiles}), shuffle {shuffles}, "
             f"from {run.from_}, {run.deals:,} deals per cell, seed {run.seed}")
    title = textwrap.fill(title, 110)
    try:
        if sweep:
            plots.plot_sweep(deviation, path, title)
        else:
            plots.plot_odds(rows, run.exact, path, title)
    except OSError as e:
        raise TjsimError(f"cannot write plot {path}: {e.strerror}") from None
