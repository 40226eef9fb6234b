"""Options and output helpers shared by the commands."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from ..errors import TjsimError
from ..game.rules import RuleSet, load_rules

FORMATS = ("table", "csv", "json")


def rules_option(f):
    """`--rules hk|folk|FILE.toml`."""
    return click.option("--rules", "rules_spec", default="hk", show_default=True, metavar="hk|folk|FILE.toml",
                        help="Rule set: a preset or a TOML file that names a preset and overrides settings.")(f)


def players_option(f):
    """`--players N`."""
    return click.option("--players", type=int, default=None, metavar="N",
                        help="Number of players, where the rule set allows (folk: 2, 3 or 4).")(f)


def format_options(f):
    """`--format table|csv|json` and `--out PATH`."""
    f = click.option("--out", type=click.Path(dir_okay=False, writable=True), default=None,
                     help="Write the result to this file instead of the terminal.")(f)
    f = click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
                     help="Output format.")(f)
    return f


def resolve_rules(spec: str, players: int | None) -> RuleSet:
    """Load `--rules` with `--players`; errors are TjsimError (exit 2)."""
    return load_rules(spec, players)


def emit(text: str, out: str | None) -> None:
    """Print `text`, or write it to `out` atomically (a .csv file gets a UTF-8 BOM for spreadsheets)."""
    if out is None:
        click.echo(text, nl=not text.endswith("\n"))
        return
    path = Path(out)
    encoding = "utf-8-sig" if path.suffix.lower() == ".csv" else "utf-8"
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text, encoding=encoding)
        tmp.replace(path)
    except OSError as e:
        raise TjsimError(f"cannot write {out}: {e.strerror}") from None


def emit_json(obj: Any, out: str | None, indent: int | None = 2) -> None:
    """Emit JSON (UTF-8, Chinese kept readable); indent=None for one line."""
    emit(json.dumps(obj, ensure_ascii=False, indent=indent) + "\n", out)


def parse_int_list(text: str, what: str) -> list[int]:
    """Parse '1,4,0,3' into ints, naming `what` in the error."""
    try:
        return [int(x) for x in text.replace(" ", "").split(",") if x != ""]
    except ValueError:
        raise TjsimError(f"{what} must be integers separated by commas, e.g. 1,4,0,3; got '{text}'") from None


def is_terminal() -> bool:
    """Whether stdout is a terminal (for progress bars)."""
    return sys.stdout.isatty()
