"""`tjsim report DIR`: report.md and plots from a results folder."""
from __future__ import annotations

import click


@click.command("report")
@click.argument("folder", type=click.Path(file_okay=False))
def report(folder: str) -> None:
    """Write report.md and PNG plots into a results folder made by `tjsim experiment run`.

    \b
    Example:
      tjsim report results/deal_odds_by_method
    """
    from ..chunks import read_results  # noqa: PLC0415
    from ..report import write_report  # noqa: PLC0415

    manifest, tables = read_results(folder)
    written = write_report(folder, manifest, tables)
    click.echo(f"{folder}: wrote {', '.join(written)}")
