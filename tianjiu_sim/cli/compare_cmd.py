"""`tjsim compare`: strategies on the same deals (duplicate), with paired differences."""
from __future__ import annotations

import click

from ..errors import TjsimError
from .options import emit, emit_json, format_options, players_option, resolve_rules, rules_option
from ..strategies.names import sees_all, sees_all_note


def common_play_options(f):
    """--seed, --method, --shuffle, --threads, --out-dir, --resume (shared by compare and value)."""
    f = click.option("--resume", is_flag=True,
                     help="Finish an interrupted run in --out-dir: only the missing chunks are played.")(f)
    f = click.option("--out-dir", "out_dir", type=click.Path(file_okay=False), default=None,
                     help="Also write a results folder (chunks, tidy CSVs, manifest.json; the format of "
                          "`tjsim experiment run`), for `tjsim report`.")(f)
    f = click.option("--threads", type=int, default=None, metavar="N",
                     help="Worker threads (results are identical for any number).")(f)
    f = click.option("--shuffle", default="perfect", show_default=True, metavar="MODEL",
                     help="Shuffle model: perfect, riffle:K, wash:K or none.")(f)
    f = click.option("--method", default="rounds", show_default=True, metavar="NAME",
                     help="Dealing method (牌頭): rounds, left, right, one-by-one, … (RULES.md §6).")(f)
    f = click.option("--seed", type=int, default=1, show_default=True, help="Random seed.")(f)
    return f


def split_policies(text: str) -> list[str]:
    """'a,b,c' → names; errors name the option."""
    names = [p.strip() for p in text.split(",") if p.strip()]
    if not names:
        raise TjsimError("--policies needs strategy names separated by commas, e.g. heuristic,greedy")
    return names


def check_deals(deals: int, what: str = "--deals") -> None:
    """Reject deal counts below 2 (no interval from one deal)."""
    if deals < 2:
        raise TjsimError(f"{what} must be at least 2, got {deals}")


@click.command("compare")
@click.option("--policies", "policies_text", required=True, metavar="A,B[,C…]",
              help="Strategies to compare, each once: random, greedy, heuristic, pimc[:W], oracle "
                   "(oracle sees every hand: an upper bound).")
@click.option("--deals", type=int, default=20000, show_default=True, help="Deals (each replayed once per strategy).")
@click.option("--until-stderr", "until_stderr", type=float, default=None, metavar="X",
              help="Instead of --deals: play until every difference's standard error is below X 戙.")
@click.option("--max-deals", "max_deals", type=int, default=1_000_000, show_default=True,
              help="Cap on deals with --until-stderr.")
@rules_option
@players_option
@common_play_options
@format_options
def compare(policies_text: str, deals: int, until_stderr: float | None, max_deals: int, rules_spec: str,
            players: int | None, seed: int, method: str, shuffle: str, threads: int | None, out_dir: str | None,
            resume: bool, fmt: str, out: str | None) -> None:
    """Compare strategies in duplicate: every deal is replayed with the strategies rotated
    through the seats, so each strategy meets the same tiles in every seat.

    Reports each strategy's mean payment per deal per seat played (戙) with a 95% interval,
    the paired difference of every pair, and the variance ratio: how many times the variance
    of the differences would grow if the same number of deal plays went to independent deals.

    \b
    Examples:
      tjsim compare --policies heuristic,greedy,random --deals 20000 --seed 1
      tjsim compare --policies heuristic,greedy --rules folk --until-stderr 0.02
      tjsim compare --policies heuristic,greedy,random --format csv --out compare.csv
    """
    from ..kernels.dealing import make_plan  # noqa: PLC0415
    from ..sim.runner import policy_ids  # noqa: PLC0415

    rules = resolve_rules(rules_spec, players)
    names = split_policies(policies_text)
    if len(names) < 2:
        raise TjsimError(f"--policies needs at least two strategies to compare, got '{policies_text}'")
    if len(set(names)) != len(names):
        raise TjsimError(f"--policies lists a strategy twice: '{policies_text}' (give each once)")
    policy_ids(names, len(names))
    make_plan(rules, method, shuffle, "box")  # checks --method / --shuffle before any work
    if until_stderr is not None:
        if not until_stderr > 0:
            raise TjsimError(f"--until-stderr must be a positive number of 戙, got {until_stderr}")
        check_deals(max_deals, "--max-deals")
    else:
        check_deals(deals)
    if threads is not None and threads < 1:
        raise TjsimError(f"--threads must be at least 1, got {threads}")
    if out is not None and out.lower().endswith(".parquet"):
        from ..output.results import require_parquet  # noqa: PLC0415

        require_parquet()

    summary, n, stopped, replays = run_compare_command(rules, names, seed, deals, method, shuffle, threads,
                                                        until_stderr, max_deals, out_dir, resume)
    config = {"rules": rules.name, "preset": rules.preset, "players": rules.players, "policies": names,
              "deals": n, "replays": replays, "method": method, "shuffle": shuffle,
              "until_stderr": until_stderr, "max_deals": max_deals if until_stderr is not None else None,
              "stopped_by": stopped, "settings": rules.describe()}
    if out_dir:
        from ..experiments.backends import note_command  # noqa: PLC0415

        note_command(out_dir, "compare", config)
    emit_compare(summary, config, seed, fmt, out)


COMPARE_CHUNK = 10_000  # deals per chunk of a results folder (a chunk replays each deal `replays` times)


def run_compare_command(rules, names, seed, deals, method, shuffle, threads, until_stderr, max_deals, out_dir,
                        resume):
    """Run `compare` through the experiment driver: (summary, deals, stopped_by, replays).

    With --until-stderr the run grows in batches (`analysis.next_target`) of 1,000-deal chunks,
    each played once; the results folder is written when it stops.
    """
    from ..experiments.analyses import chunk_deals  # noqa: PLC0415
    from ..experiments.backends import run_analysis, run_in_memory  # noqa: PLC0415
    from ..experiments.experiment import command_experiment  # noqa: PLC0415
    from ..kernels.threads import set_threads  # noqa: PLC0415
    from ..sim.analysis import next_target  # noqa: PLC0415
    from ..sim.duplicate import rotation_table  # noqa: PLC0415

    set_threads(threads)

    def experiment(n, chunk, options):
        return command_experiment("compare", "compare", rules, seed, n, chunk, options, method=method,
                                  shuffle=shuffle)

    if until_stderr is None:
        tables = run_analysis(experiment(deals, chunk_deals(names, COMPARE_CHUNK), {"policies": names}), out_dir,
                              resume=resume)
        stopped = "deals"
    else:
        if resume:
            raise TjsimError("--resume does not go with --until-stderr (the run's length is not known "
                             "before it stops); give --deals N")
        cache: dict = {}
        target = min(max_deals, 2000)
        opts = {"policies": names, "cluster": 250}
        while True:
            tables = run_in_memory(experiment(target, 1000, opts), cache)
            s = tables["compare_summary"]
            se = float(s.loc[s["kind"] == "difference", "se"].max())
            if se < until_stderr or target >= max_deals:
                stopped = "stderr" if se < until_stderr else "cap"
                break
            target = next_target(target, se, until_stderr, max_deals)
        if out_dir:
            tables = run_analysis(experiment(target, 1000, opts), out_dir, cache=cache)
    summary = tables["compare_summary"].drop(columns="cell")
    n = int(summary.loc[summary["kind"] == "strategy", "n"].iloc[0])
    return summary, n, stopped, rotation_table(len(names), rules.players).shape[0]


def public_summary(summary):
    """The summary rows people read (the per-play rows only feed the variance ratio)."""
    return summary[summary["kind"] != "play_difference"].reset_index(drop=True)


def emit_compare(summary, config: dict, seed: int, fmt: str, out: str | None) -> None:
    """Print or write the comparison as a table, CSV (or Parquet by --out suffix) or JSON."""
    from ..sim.analysis import compare_json  # noqa: PLC0415
    from ..output.results import write_frame
    from ..output.frames import csv_text, display_frame  # noqa: PLC0415

    summary = public_summary(summary)
    if out is not None and out.lower().endswith(".parquet"):
        write_frame(summary, out)
        return
    if fmt == "json":
        extra = {k: config[k] for k in ("rules", "players", "policies", "replays", "method", "shuffle",
                                        "until_stderr", "stopped_by")}
        extra["sees_all"] = [config["policies"][i] for i in sees_all(config["policies"])]
        emit_json(compare_json(summary, config["deals"], dict(extra, seed=seed)), out)
        return
    shown = display_frame(summary)
    if fmt == "csv":
        emit(csv_text(shown), out)
        return
    emit(compare_text(shown, config, seed), out)


def compare_text(shown, config: dict, seed: int) -> str:
    """The terminal report: strategies, differences, variance ratio (numbers as in the CSV)."""
    import pandas as pd  # noqa: PLC0415

    from ..output.frames import render  # noqa: PLC0415

    strat = shown[shown["kind"] == "strategy"].set_index("a")
    rate = shown[shown["kind"] == "closer_rate"].set_index("a")["mean"]
    dong = shown[shown["kind"] == "dong"].set_index("a")["mean"]
    st = pd.DataFrame({"policy": strat.index, "deals": strat["n"].to_numpy(),
                       "mean_payment": strat["mean"].to_numpy(), "ci_low": strat["ci_low"].to_numpy(),
                       "ci_high": strat["ci_high"].to_numpy(), "se": strat["se"].to_numpy(),
                       "closer_rate": rate.reindex(strat.index).to_numpy(),
                       "mean_dong": dong.reindex(strat.index).to_numpy()})
    st = st.sort_values("mean_payment", ascending=False, kind="stable")
    d = shown[shown["kind"] == "difference"]
    df = pd.DataFrame({"a": d["a"].to_numpy(), "b": d["b"].to_numpy(), "mean": d["mean"].to_numpy(),
                       "ci_low": d["ci_low"].to_numpy(), "ci_high": d["ci_high"].to_numpy(),
                       "se": d["se"].to_numpy(),
                       "significant": ["yes" if lo > 0 or hi < 0 else "no"
                                       for lo, hi in zip(d["ci_low"], d["ci_high"])]})
    vr = shown[shown["kind"] == "variance_ratio"].set_index("a")["mean"]
    stop = {"deals": "", "stderr": f" (stopped: every difference's SE < {config['until_stderr']})",
            "cap": f" (stopped at the cap: SE target {config['until_stderr']} not reached)"}[config["stopped_by"]]
    head = (f"Duplicate comparison — rules {config['rules']}, {config['players']} players, "
            f"{config['deals']:,} deals × {config['replays']} replays (strategies rotated through the seats), "
            f"seed {seed}{stop}\n")
    if sees_all_note(config["policies"]):
        head += sees_all_note(config["policies"]) + "\n"
    vr_all, vr_deal = vr.get("all"), vr.get("per_deal")
    tail = (f"variance ratio {vr_all:.4f}: the same number of deal plays spent on independent deals would give "
            f"differences {vr_all:.4f}× the variance ({vr_deal:.4f}× at the same number of deals)\n"
            if vr_all is not None and vr_deal is not None else "")
    return (head + "\n" + render(st, title="Mean payment per deal per seat played (戙), 95% CI") + "\n"
            + render(df, title="Paired differences a − b (戙 per deal per seat), 95% CI") + "\n" + tail)
