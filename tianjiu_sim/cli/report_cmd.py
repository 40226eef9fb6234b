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


def _keeps_own_report(path: Path) -> bool:
    """True when report.md exists and tjsim cannot or should not rewrite it: a folder's make_report.py
    wrote it, or the folder is not one `tjsim report` writes reports for (e.g. `nine-cards compare`)."""
    if not (path / "report.md").exists():
        return False
    if (path / "make_report.py").exists():
        return True
    if _analysis_kind(path):
        return False
    try:
        manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return True
    return not (isinstance(manifest, dict) and "tjsim_results" in manifest)


@click.command("report")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--format", "fmt", type=click.Choice(["md", "html"]), default="md", show_default=True,
              help="md: report.md and PNG plots; html: those and one self-contained report.html "
                   "(plots embedded, opens offline).")
def report(folder: str, fmt: str) -> None:
    """Write report.md and PNG plots into a results folder (and report.html with --format html).

    The folder comes from `tjsim experiment run`, or from `tjsim compare|value|simulate
    --out-dir DIR`. With --format html, a report.md that tjsim does not write (a folder's
    make_report.py wrote it, or a `nine-cards` command did) is converted as it is.

    \b
    Examples:
      tjsim report results/deal_odds_by_method
      tjsim report results/search_ladder --format html
      tjsim compare --policies heuristic,greedy --deals 20000 --out-dir results/ladder
      tjsim report results/ladder --format html
    """
    path = Path(folder)
    if not path.is_dir():
        raise TjsimError(f"'{folder}' is not a results folder (no such directory)")
    if fmt == "html" and _keeps_own_report(path):
        written = []
    elif _analysis_kind(path):
        from ..output.results import atomic_write_text  # noqa: PLC0415
        from ..output.strategy_plots import strategy_sections  # noqa: PLC0415

        sections = strategy_sections(path)
        atomic_write_text(path / "report.md", f"# tjsim results: {path.name}\n\n" + "\n\n".join(sections) + "\n")
        written = [f"report.md ({len(sections)} section{'s' if len(sections) != 1 else ''})"]
    else:
        from ..experiments.chunks import read_results  # noqa: PLC0415
        from ..output.report import write_report  # noqa: PLC0415

        manifest, tables = read_results(folder)
        written = write_report(folder, manifest, tables)
    if fmt == "html":
        from ..output.html import write_html  # noqa: PLC0415

        try:
            written.append(write_html(path))
        except FileNotFoundError as e:
            raise TjsimError(f"'{folder}': {e}") from None
    click.echo(f"{folder}: wrote {', '.join(written)}")
