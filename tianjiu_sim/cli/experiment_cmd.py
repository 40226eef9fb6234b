"""`tjsim experiment run|validate`: batch experiments into results folders."""
from __future__ import annotations

import sys

import click

from ..errors import TjsimError


@click.group("experiment")
def experiment() -> None:
    """Batch experiments: a grid of cells from an experiments/*.toml file.

    \b
    Examples:
      tjsim experiment validate experiments/deal_odds_by_method.toml
      tjsim experiment run experiments/deal_odds_by_method.toml --out results/odds --workers 2
      tjsim experiment run experiments/strategy_ladder.toml --out results/ladder --resume
    """


@experiment.command("validate")
@click.argument("file", type=click.Path(dir_okay=False))
def validate(file: str) -> None:
    """Check an experiment file without running it; lists every problem (file:line: key: message)."""
    from ..experiments.experiment import parse_experiment  # noqa: PLC0415

    exp, problems = parse_experiment(file)
    if problems:
        for p in problems:
            click.echo(f"tjsim: error: {p}", err=True)
        sys.exit(2)
    assert exp is not None
    click.echo(f"{file}: ok — measure '{exp.measure}', {len(exp.cells)} cells, "
               f"{exp.total_deals:,} deals in {len(exp.chunks())} chunks of ≤ {exp.chunk_size:,}, seed {exp.seed}")


@experiment.command("run")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--out", "out", type=click.Path(file_okay=False), default=None,
              help="Results folder (default: results/<experiment name>).")
@click.option("--workers", type=int, default=1, show_default=True,
              help="Worker processes (local pool or Dask LocalCluster workers).")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="local: this machine's processes; dask: a dask.distributed cluster.")
@click.option("--scheduler", default=None, metavar="ADDR",
              help="An existing Dask scheduler, e.g. tcp://10.0.0.5:8786 (with --backend dask).")
@click.option("--resume", is_flag=True, help="Finish an interrupted run in --out: only the missing chunks run.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar with ETA on stderr (default: when stderr is a terminal).")
@click.option("--no-report", is_flag=True, help="Skip report.md and the plots.")
def run(file: str, out: str | None, workers: int, backend: str, scheduler: str | None, resume: bool,
        progress: bool | None, no_report: bool) -> None:
    """Run an experiment into a results folder: manifest.json, CSV/Parquet tables, report.md, plots.

    Finished chunks are saved as they complete; after a crash or kill, the same command with
    --resume runs only the missing chunks and gives the same results as an uninterrupted run.
    """
    from ..experiments.backends import run_experiment  # noqa: PLC0415
    from ..experiments.experiment import load_experiment  # noqa: PLC0415

    exp = load_experiment(file)
    out = out or f"results/{exp.name}"
    if progress is None:
        progress = sys.stderr.isatty()
    try:
        manifest = run_experiment(exp, out, backend=backend, workers=workers, scheduler=scheduler,
                                  resume=resume, progress=progress, report=not no_report)
    except OSError as e:
        raise TjsimError(f"cannot write results folder '{out}': {e.strerror or e}") from None
    t = manifest.get("throughput", {})
    rate = f", {t['deals_per_second']:,.0f} deals/s" if t.get("deals_per_second") else ""
    click.echo(f"{out}: {manifest['deals_total']:,} deals in {manifest['chunks_total']} chunks{rate}; "
               f"wrote {', '.join(manifest.get('outputs', []))}")
