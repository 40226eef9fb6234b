"""DataFrames for people: one rounding for terminal, CSV and Parquet (`display_frame`), rendered as text or CSV.

A CSV holds exactly the digits the terminal shows. Kept apart from `tables.py` so that commands
printing plain rows (`play`, `score`, `rules`) start without importing pandas.
"""
from __future__ import annotations

import csv
import io
import math
from typing import Any, Sequence

import numpy as np
import pandas as pd

from .tables import aligned


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
