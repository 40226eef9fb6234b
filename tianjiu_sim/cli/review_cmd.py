"""`tjsim review TRACE --seat S`: each decision of a seat against pimc's and oracle's best, by loss."""
from __future__ import annotations

import click

from ..errors import TjsimError
from ..game.tiles import tile_list
from ..output.tables import render_table, to_csv
from .options import emit, emit_json, format_options, resolve_rules, rules_option
from .solve_cmd import _load_trace

COLUMNS = ["at", "trick", "action", "tiles", "pimc_best", "pimc_loss", "pimc_ci_low", "pimc_ci_high",
           "oracle_best", "oracle_loss"]


def _r(x: float) -> float:
    return round(float(x), 4)


@click.command()
@click.argument("trace_path", metavar="TRACE.json", type=click.Path(dir_okay=False))
@click.option("--seat", required=True, type=int, help="The seat whose decisions are reviewed.")
@click.option("--trace-deal", default=0, show_default=True, type=int,
              help="Which deal of a multi-deal .jsonl trace file (counting from 0).")
@click.option("--worlds", default=64, show_default=True, type=int, help="pimc's worlds per decision.")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the worlds.")
@rules_option
@format_options
def review(trace_path, seat, trace_deal, worlds, seed, rules_spec, fmt, out) -> None:
    """Each decision of one seat in a trace: the action played, the best action by pimc and by
    oracle, and the estimated loss in 戙 (best − played), worst first, with the total.

    pimc values the actions from what the seat could see then (the trace's other hands are not
    read), in W worlds, with a 95% interval over the worlds; oracle sees every hand (one world,
    the true deal). Decisions with a single legal action are left out.

    \b
    Examples:
      tjsim play --seed 7 --format json > deal.json
      tjsim review deal.json --seat 2
      tjsim review deal.json --seat 0 --worlds 128 --format csv --out review.csv
    """
    from ..sim.review import review as run  # noqa: PLC0415 (compiles the search kernels)

    trace = _load_trace(trace_path, trace_deal)
    spec = rules_spec if rules_spec != "hk" or trace.get("rules") in (None, "hk") else trace["rules"]
    rules = resolve_rules(spec, int(trace.get("players", 0)) or None)
    if seed < 0:
        raise TjsimError(f"--seed must be 0 or more, got {seed}")
    from ..kernels.position import position_from_trace  # noqa: PLC0415
    position_from_trace(rules, trace, 0)  # replays and checks the whole trace first
    rows = run(rules, trace, seat, worlds, seed)
    rows.sort(key=lambda d: (-d.pimc_loss, d.at))
    table = [{"at": d.at, "trick": d.trick, "action": d.action, "tiles": " ".join(tile_list(d.mask)),
              "pimc_best": f"{d.pimc_action} {' '.join(tile_list(d.pimc_mask))}", "pimc_loss": _r(d.pimc_loss),
              "pimc_ci_low": _r(d.pimc_low), "pimc_ci_high": _r(d.pimc_high),
              "oracle_best": f"{d.oracle_action} {' '.join(tile_list(d.oracle_mask))}",
              "oracle_loss": _r(d.oracle_loss)} for d in rows]
    total_p = sum(d.pimc_loss for d in rows)
    total_o = sum(d.oracle_loss for d in rows)
    if fmt == "json":
        emit_json({"seat": seat, "worlds": worlds, "decisions": table, "total_pimc_loss": _r(total_p),
                   "total_oracle_loss": _r(total_o), "sees_all": ["oracle"]}, out, indent=None)
        return
    if fmt == "csv":
        emit(to_csv(table, COLUMNS), out)
        return
    title = (f"Review of seat {seat}: {len(rows)} decisions with a choice, worst first; loss = best − played "
             f"(戙). pimc: {worlds} worlds from what the seat saw, 95% interval; oracle sees every hand "
             f"(the true deal)\ntotal loss: pimc {total_p:.3f}, oracle {total_o:.3f}")
    emit(render_table(table, COLUMNS, title=title), out)
