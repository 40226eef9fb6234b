"""Tables for people and spreadsheets: rows of dicts as aligned terminal text or CSV (no pandas needed).

DataFrames: `frames.py`.
"""
from __future__ import annotations

import csv
import io
import unicodedata
from typing import Any, Sequence



def display_width(text: str) -> int:
    """Terminal columns taken by `text` (CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def aligned(columns: Sequence[str], cells: Sequence[Sequence[str]], numeric: Sequence[bool],
            title: str | None = None) -> str:
    """Text cells as an aligned table under a header and a rule; numeric columns right-aligned."""
    widths = [max(display_width(c), *(display_width(row[i]) for row in cells)) for i, c in enumerate(columns)]

    def line(values: Sequence[str]) -> str:
        out = []
        for v, w, num in zip(values, widths, numeric):
            pad = " " * (w - display_width(v))
            out.append(pad + v if num else v + pad)
        return "  ".join(out).rstrip()

    parts = [title] if title else []
    parts += [line(columns), line(["-" * w for w in widths])] + [line(r) for r in cells]
    return "\n".join(parts) + "\n"


def render_table(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None,
                 title: str | None = None) -> str:
    """A plain aligned text table of dict rows; numbers right-aligned."""
    if not rows:
        return (title + "\n" if title else "") + "(no rows)\n"
    columns = list(columns or rows[0].keys())
    cells = [[_fmt(r.get(c, "")) for c in columns] for r in rows]
    numeric = [all(isinstance(r.get(c), (int, float)) or r.get(c) in ("", None) for r in rows)
               and any(isinstance(r.get(c), (int, float)) for r in rows) for c in columns]
    return aligned(columns, cells, numeric, title)


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


