"""`tjsim value`: what holding a feature (至尊, a quartet, 6-6, the bank …) is worth, two ways."""
from __future__ import annotations

import click

from ..errors import TjsimError
from .compare_cmd import check_deals, common_play_options
from .options import emit, emit_json, format_options, players_option, resolve_rules, rules_option
from ..strategies.names import sees_all, sees_all_note

SHOWN_COLUMNS = ["setting", "method", "component", "holders", "share", "mean_with", "mean_without", "value",
                 "ci_low", "ci_high", "se"]


@click.command("value")
@click.option("--feature", "features", multiple=True, required=True, metavar="F",
              help="supreme, quartet, heaven_pair, banker, first-lead, or tiles: 6-6, '6-6 6-6', 4-2+2-1. "
                   "Repeat for several.")
@click.option("--policy", "policy", default="heuristic", show_default=True, metavar="NAME",
              help="Strategy of every seat (or --policies A,B,C,D, one per seat).")
@click.option("--policies", "policies_text", default=None, metavar="A,B,C,D", help="One strategy per seat.")
@click.option("--deals", type=int, default=100000, show_default=True, help="Deals.")
@click.option("--bonus", "bonus", multiple=True, metavar="KEY=V1,V2,…",
              help="Sweep a bonus: supreme (賀尊), quartet (四大賀) or close (包尊 catch reward), "
                   "e.g. supreme=0,1,2,4. Repeat to cross several.")
@click.option("--streak", type=int, default=1, show_default=True, help="Banker's streak in every deal.")
@rules_option
@players_option
@common_play_options
@format_options
def value(features: tuple[str, ...], policy: str, policies_text: str | None, deals: int, bonus: tuple[str, ...],
          streak: int, rules_spec: str, players: int | None, seed: int, method: str, shuffle: str,
          threads: int | None, out_dir: str | None, resume: bool, fmt: str, out: str | None) -> None:
    """What holding a feature is worth to its holder, in 戙 per deal, measured two ways:

    \b
    conditional     mean payment of hands with it − hands without it (same deals)
    counterfactual  the holder's payment − the same deal replayed after the feature's
                    tiles are swapped with random opponents' tiles (banker / first-lead:
                    the bank moved to another seat), everything else equal

    Each is split into tricks_close (the settlement: tricks, close, multipliers) and the
    bonuses 賀尊 (bonus_supreme), 包尊 (bonus_supreme_close), 四大賀 (bonus_quartet).

    \b
    Examples:
      tjsim value --feature supreme --rules folk --deals 200000
      tjsim value --feature supreme --rules folk --bonus supreme=0,1,2,4
      tjsim value --feature 6-6 --feature banker --format csv --out values.csv
    """
    from ..kernels.dealing import make_plan  # noqa: PLC0415
    from ..sim.runner import policy_ids  # noqa: PLC0415
    from ..sim.value import parse_bonus, parse_feature  # noqa: PLC0415

    rules = resolve_rules(rules_spec, players)
    feats = [parse_feature(f) for f in features]
    sweep = parse_bonus(bonus)
    names = [p.strip() for p in policies_text.split(",")] if policies_text else [policy]
    policy_ids(names, rules.players)
    make_plan(rules, method, shuffle, "box")
    check_deals(deals)
    if streak < 1:
        raise TjsimError(f"--streak must be at least 1, got {streak}")
    if threads is not None and threads < 1:
        raise TjsimError(f"--threads must be at least 1, got {threads}")
    if out is not None and out.lower().endswith(".parquet"):
        from ..output.results import require_parquet  # noqa: PLC0415

        require_parquet()
    summary, config = measure_values(rules, feats, names, seed, deals, sweep, method, shuffle, streak, threads,
                                     bonus, out_dir, resume)
    emit_values(summary, config, seed, fmt, out)


def measure_values(rules, feats, names, seed, deals, sweep, method, shuffle, streak, threads, bonus_specs=(),
                   out_dir=None, resume=False):
    """Run every feature through the experiment driver (measure `value`); returns (summary, config)."""
    from ..experiments.analyses import chunk_deals, value_cluster  # noqa: PLC0415
    from ..experiments.backends import note_command, run_analysis  # noqa: PLC0415
    from ..experiments.experiment import command_experiment  # noqa: PLC0415
    from ..kernels.threads import set_threads  # noqa: PLC0415

    set_threads(threads)
    cluster = value_cluster(deals)
    chunk = chunk_deals(names, cluster * max(1, VALUE_CHUNK // cluster))
    exp = command_experiment("value", "value", rules, seed, deals, chunk,
                             {"features": [f.name for f in feats], "bonus": list(sweep), "streak": streak},
                             strategies=list(names), method=method, shuffle=shuffle)
    tables = run_analysis(exp, out_dir, resume=resume)
    summary = tables["value_summary"].drop(columns="cell")
    cf = summary[(summary["method"] == "counterfactual") & (summary["component"] == "total")]
    pairs = {f: int(g["holders"].iloc[0]) for f, g in cf.groupby("feature", sort=False)}
    config = {"rules": rules.name, "preset": rules.preset, "players": rules.players,
              "features": [f.name for f in feats], "policies": names, "deals": deals, "method": method,
              "shuffle": shuffle, "streak": streak, "bonus": list(bonus_specs), "counterfactual_pairs": pairs,
              "settings": rules.describe()}
    if out_dir:
        note_command(out_dir, "value", config)
    return summary, config


VALUE_CHUNK = 20_000  # deals per chunk of a results folder (a multiple of the interval's cluster)


def emit_values(summary, config: dict, seed: int, fmt: str, out: str | None) -> None:
    """Print or write the values as a table, CSV (Parquet by --out suffix) or JSON."""
    from ..output.results import write_frame
    from ..output.frames import csv_text, display_frame, render  # noqa: PLC0415
    from ..sim.value import COMPONENT_LABELS  # noqa: PLC0415

    if out is not None and out.lower().endswith(".parquet"):
        write_frame(summary, out)
        return
    if fmt == "json":
        rows = display_frame(summary, digits=12).to_dict(orient="records")
        emit_json({"rules": config["rules"], "players": config["players"], "policies": config["policies"],
                   "deals": config["deals"], "seed": seed, "values": rows,
                   "sees_all_hands": sees_all(config["policies"])}, out)
        return
    shown = display_frame(summary)
    if fmt == "csv":
        emit(csv_text(shown), out)
        return
    parts = []
    for feat, g in shown.groupby("feature", sort=False):
        title = (f"Value of '{feat}' to its holder (戙 per deal) — rules {config['rules']}, "
                 f"{config['players']} players, strategies {','.join(config['policies'])}, "
                 f"{config['deals']:,} deals, seed {seed}; 95% CI")
        parts.append(render(g[SHOWN_COLUMNS].reset_index(drop=True), title=title))
    legend = ("components: " + "; ".join(f"{k} = {v}" for k, v in COMPONENT_LABELS.items())
              + ". share = fraction of hands with the feature; holders = hands (conditional) or "
                "replayed deals (counterfactual).\n")
    note = sees_all_note(config["policies"])
    emit("\n".join(parts) + "\n" + legend + (note + "\n" if note else ""), out)
