"""`tjsim report DIR`: report.md and plots from a results folder."""
from __future__ import annotations

import json
from pathlib import Path

import click

from ..errors import TjsimError

ANALYSIS_KINDS = ("compare", "value", "session")


def _analysis_kind(folder: Path) -> str | None:
    """The `kind` of a compare/value/session folder (or of its subfolders), else None."""
    for m in [folder / "manifest.json", *sorted(folder.glob("*/manifest.json"))]:
        try:
            kind = json.loads(m.read_text(encoding="utf-8")).get("kind")
        except (OSError, ValueError):
            continue
        if kind in ANALYSIS_KINDS:
            return kind
    return None


@click.command("report")
@click.argument("folder", type=click.Path(file_okay=False))
def report(folder: str) -> None:
    """Write report.md and PNG plots into a results folder.

    The folder comes from `tjsim experiment run`, or from `tjsim compare|value|simulate
    --out-dir DIR`.

    \b
    Examples:
      tjsim report results/deal_odds_by_method
      tjsim compare --policies heuristic,greedy --deals 20000 --out-dir results/ladder
      tjsim report results/ladder
    """
    path = Path(folder)
    if not path.is_dir():
        raise TjsimError(f"'{folder}' is not a results folder (no such directory)")
    if _analysis_kind(path):
        from ..output.results import atomic_write_text  # noqa: PLC0415
        from ..output.strategy_plots import strategy_sections  # noqa: PLC0415

        sections = strategy_sections(path)
        atomic_write_text(path / "report.md", f"# tjsim results: {path.name}\n\n" + "\n\n".join(sections) + "\n")
        click.echo(f"{folder}: wrote report.md ({len(sections)} section{'s' if len(sections) != 1 else ''})")
        return
    from ..experiments.chunks import read_results  # noqa: PLC0415
    from ..output.report import write_report  # noqa: PLC0415

    manifest, tables = read_results(folder)
    written = write_report(folder, manifest, tables)
    click.echo(f"{folder}: wrote {', '.join(written)}")
