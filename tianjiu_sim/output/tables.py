"""Tables for people and spreadsheets: aligned terminal text, CSV with ASCII headers, one rounding for both.

Numbers for people (terminal, CSV, Parquet) go through `display_frame`, which rounds once, so
a CSV holds exactly the digits the terminal shows.
"""
from __future__ import annotations

import csv
import io
import math
import unicodedata
from typing import Any, Sequence

import numpy as np
import pandas as pd


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


DIGITS = 4


def display_value(v: Any, digits: int = DIGITS) -> Any:
    """Round a float to `digits` decimals (−0 → 0); ints and text pass through."""
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        if math.isnan(v) or math.isinf(v):
            return None
        return round(float(v), digits) + 0.0
    return v


def display_frame(df: pd.DataFrame, columns: Sequence[str] | None = None, digits: int = DIGITS) -> pd.DataFrame:
    """The table as people see it: chosen columns, floats rounded once."""
    df = df[list(columns)] if columns is not None else df
    out = df.copy()
    for c in out.columns:
        if out[c].dtype.kind == "f":
            out[c] = [display_value(v, digits) for v in out[c]]
    return out


def _text(v: Any, digits: int) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (float, np.floating)):
        return f"{float(v):.{digits}f}"
    return str(v)


def text_rows(df: pd.DataFrame, digits: int = DIGITS) -> list[list[str]]:
    """Cells as strings: floats with exactly `digits` decimals, as in the terminal and the CSV."""
    return [[_text(v, digits) for v in row] for row in df.itertuples(index=False)]


def render(df: pd.DataFrame, title: str | None = None, digits: int = DIGITS) -> str:
    """A plain aligned text table of a display frame; numeric columns right-aligned."""
    if df.empty:
        return (title + "\n" if title else "") + "(no rows)\n"
    cells = text_rows(df, digits)
    numeric = [df[c].dtype.kind in "iuf" or all(_is_number(r[i]) or r[i] == "" for r in cells)
               for i, c in enumerate(df.columns)]
    return aligned([str(c) for c in df.columns], cells, numeric, title)


def _is_number(s: str) -> bool:
    try:
        float(s)
        return True
    except ValueError:
        return False


def csv_text(df: pd.DataFrame, digits: int = DIGITS) -> str:
    """CSV of a display frame: header of ASCII names, no index, numbers as in the terminal."""

    for c in df.columns:
        if not str(c).isascii():
            raise ValueError(f"CSV column names must be ASCII: {c!r}")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([str(c) for c in df.columns])
    w.writerows(text_rows(df, digits))
    return buf.getvalue()
