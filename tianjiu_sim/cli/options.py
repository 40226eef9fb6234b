"""Options and output helpers shared by the commands."""
from __future__ import annotations

import csv
import io
import json
import sys
import unicodedata
from pathlib import Path
from typing import Any, Sequence

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


def display_width(text: str) -> int:
    """Terminal columns taken by `text` (CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def render_table(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None,
                 title: str | None = None) -> str:
    """A plain aligned text table; numbers right-aligned."""
    if not rows:
        return (title + "\n" if title else "") + "(no rows)\n"
    columns = list(columns or rows[0].keys())
    cells = [[_fmt(r.get(c, "")) for c in columns] for r in rows]
    widths = [max(display_width(c), *(display_width(row[i]) for row in cells)) for i, c in enumerate(columns)]
    numeric = [all(isinstance(r.get(c), (int, float)) or r.get(c) in ("", None) for r in rows)
               and any(isinstance(r.get(c), (int, float)) for r in rows) for c in columns]

    def line(values: Sequence[str]) -> str:
        out = []
        for v, w, num in zip(values, widths, numeric):
            pad = " " * (w - display_width(v))
            out.append(pad + v if num else v + pad)
        return "  ".join(out).rstrip()

    parts = [title] if title else []
    parts += [line(columns), line(["-" * w for w in widths])]
    parts += [line(r) for r in cells]
    return "\n".join(parts) + "\n"


def _fmt(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.6g}" if abs(v) < 1e6 else f"{v:.0f}"
    return str(v)


def to_csv(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None) -> str:
    """CSV text with a header row (no index column)."""
    if not rows:
        return ""
    columns = list(columns or rows[0].keys())
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n", extrasaction="ignore")
    w.writeheader()
    for r in rows:
        w.writerow({c: "" if r.get(c) is None else r.get(c) for c in columns})
    return buf.getvalue()


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
