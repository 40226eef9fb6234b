"""Tidy (long) tables for the strategy analyses: per-chunk sums in, groupby summaries out.

Every analysis stores what it measured as one row per chunk of deals and measure, holding
only sums (n, sum, sum of squares, …). Chunks are independent sets of deals, so any summary,
the running mean of a convergence plot or a pooled estimate over several runs is a groupby
over these rows. Numbers for people (terminal, CSV, Parquet) all go through `display_frame`,
which rounds once, so a CSV holds exactly the digits the terminal shows.
"""
from __future__ import annotations

import importlib.util
import json
import math
import os
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd

from ..errors import TjsimError
from ..stats import Z95

DIGITS = 4


def chunk_size(deals: int) -> int:
    """Deals per chunk for `deals` deals: about 100+ chunks, 10 to 1,000 deals each."""
    return int(min(1000, max(10, deals // 100)))


def chunk_ids(start: int, deals: int, size: int) -> np.ndarray:
    """Chunk number of each deal index start…start+deals−1 (chunk c holds indices c·size…)."""
    return np.arange(start, start + deals, dtype=np.int64) // size


def chunk_sums(chunks: np.ndarray, columns: dict[str, np.ndarray]) -> pd.DataFrame:
    """One row per chunk: `chunk` and the per-chunk sum of every column (rows aligned with `chunks`)."""
    df = pd.DataFrame({"chunk": chunks, **{k: np.asarray(v, dtype=np.float64) for k, v in columns.items()}})
    return df.groupby("chunk", sort=True).sum().reset_index()


def mean_from_moments(n: float, s: float, q: float) -> tuple[float, float, float, float]:
    """(mean, se, ci_low, ci_high) of n values from their sum s and sum of squares q."""
    if n <= 0:
        return (math.nan,) * 4
    mean = s / n
    var = max(0.0, (q - n * mean * mean) / (n - 1)) if n > 1 else math.nan
    se = math.sqrt(var / n)
    return mean, se, mean - Z95 * se, mean + Z95 * se


def summarise_moments(df: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
    """Group rows of (n, sum, sumsq) by `by`: pooled n, mean, se and 95% CI per group."""
    g = df.groupby(list(by), sort=False, dropna=False)[["n", "sum", "sumsq"]].sum().reset_index()
    est = [mean_from_moments(n, s, q) for n, s, q in zip(g["n"], g["sum"], g["sumsq"])]
    g[["mean", "se", "ci_low", "ci_high"]] = pd.DataFrame(est, index=g.index)
    g["n"] = g["n"].astype(np.int64)
    return g.drop(columns=["sum", "sumsq"])


def running_moments(df: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
    """Cumulative mean and 95% CI after each chunk, per group of `by` (a convergence curve)."""
    parts = []
    for _, g in df.sort_values("chunk").groupby(list(by), sort=False, dropna=False):
        g = g.copy()
        for c in ("n", "sum", "sumsq", "deals"):
            if c in g:
                g["cum_" + c] = g[c].cumsum()
        est = [mean_from_moments(n, s, q) for n, s, q in zip(g["cum_n"], g["cum_sum"], g["cum_sumsq"])]
        g[["mean", "se", "ci_low", "ci_high"]] = pd.DataFrame(est, index=g.index)
        parts.append(g)
    return pd.concat(parts, ignore_index=True) if parts else df.iloc[0:0]


def ratio_difference(df: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
    """Per group: y1/n1 − y0/n0 from per-chunk sums, with a chunk-clustered (linearised) SE.

    Chunks are the independent units, so values that share a deal (the seats of one table,
    a hand and its counterfactual) may be correlated in any way.
    """
    rows = []
    for key, g in df.groupby(list(by), sort=False, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        n1, y1, n0, y0 = (float(g[c].sum()) for c in ("n1", "y1", "n0", "y0"))
        r1 = y1 / n1 if n1 > 0 else math.nan
        r0 = y0 / n0 if n0 > 0 else math.nan
        u = np.zeros(len(g))
        if n1 > 0:
            u += (g["y1"].to_numpy() - r1 * g["n1"].to_numpy()) / n1
        if n0 > 0:
            u -= (g["y0"].to_numpy() - r0 * g["n0"].to_numpy()) / n0
        c = len(g)
        se = math.sqrt(c / (c - 1) * float((u * u).sum())) if c > 1 and n1 > 0 and n0 > 0 else math.nan
        value = r1 - r0
        rows.append({**dict(zip(by, key)), "n1": int(n1), "n0": int(n0), "mean1": r1, "mean0": r0,
                     "value": value, "se": se, "ci_low": value - Z95 * se, "ci_high": value + Z95 * se,
                     "chunks": c})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------
# numbers for people: one rounding for terminal, CSV and Parquet
# ---------------------------------------------------------------------------

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
    from ..cli.options import display_width  # noqa: PLC0415

    cols = [str(c) for c in df.columns]
    if df.empty:
        return (title + "\n" if title else "") + "(no rows)\n"
    cells = text_rows(df, digits)
    widths = [max(display_width(c), *(display_width(r[i]) for r in cells)) for i, c in enumerate(cols)]
    numeric = [df[c].dtype.kind in "iuf" or all(_is_number(r[i]) or r[i] == "" for r in cells)
               for i, c in enumerate(df.columns)]

    def line(vals: Sequence[str]) -> str:
        out = []
        for v, w, num in zip(vals, widths, numeric):
            pad = " " * (w - display_width(v))
            out.append(pad + v if num else v + pad)
        return "  ".join(out).rstrip()

    parts = [title] if title else []
    parts += [line(cols), line(["-" * w for w in widths])] + [line(r) for r in cells]
    return "\n".join(parts) + "\n"


def _is_number(s: str) -> bool:
    try:
        float(s)
        return True
    except ValueError:
        return False


def csv_text(df: pd.DataFrame, digits: int = DIGITS) -> str:
    """CSV of a display frame: header of ASCII names, no index, numbers as in the terminal."""
    import csv  # noqa: PLC0415
    import io  # noqa: PLC0415

    for c in df.columns:
        if not str(c).isascii():
            raise ValueError(f"CSV column names must be ASCII: {c!r}")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([str(c) for c in df.columns])
    w.writerows(text_rows(df, digits))
    return buf.getvalue()


def atomic_write(path: Path, data: bytes) -> None:
    """Write bytes to `path` through a temporary file and a rename (no half-written file)."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError as e:
        raise TjsimError(f"cannot write {path}: {e.strerror}") from None


def require_parquet() -> None:
    """Raise TjsimError (exit 2) unless pyarrow is installed."""
    if importlib.util.find_spec("pyarrow") is None:
        raise TjsimError("writing Parquet needs pyarrow, which is not installed "
                         "(pip install pyarrow), or write a .csv file instead")


def write_frame(df: pd.DataFrame, path: str | Path, digits: int | None = DIGITS) -> None:
    """Write a table as .csv (UTF-8 with BOM, numbers rounded to `digits`) or .parquet (needs pyarrow)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        require_parquet()
        import io  # noqa: PLC0415

        out = display_frame(df, digits=digits) if digits is not None else df
        buf = io.BytesIO()
        out.to_parquet(buf, index=False)
        atomic_write(path, buf.getvalue())
    else:
        text = csv_text(df, digits) if digits is not None else df.to_csv(index=False)
        atomic_write(path, text.encode("utf-8-sig"))


def write_results(folder: str | Path, kind: str, config: dict, seed: int,
                  tables: dict[str, pd.DataFrame], extra: dict | None = None) -> list[str]:
    """Write a results folder: one tidy CSV per table (full precision) and manifest.json last."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise TjsimError(f"cannot create results folder {folder}: {e.strerror}") from None
    written = []
    for name, df in tables.items():
        # raw sums keep every digit: they are data to be grouped, not numbers to read
        write_frame(df, folder / f"{name}.csv", digits=None)
        written.append(f"{name}.csv")
    manifest = {"kind": kind, "seed": int(seed), "config": config, "tables": written, **(extra or {})}
    atomic_write(folder / "manifest.json",
                 (json.dumps(manifest, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    return written + ["manifest.json"]


def read_results(folder: str | Path) -> tuple[dict, dict[str, pd.DataFrame]]:
    """(manifest, tables) of a results folder written by `write_results`."""
    folder = Path(folder)
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    tables = {Path(name).stem: pd.read_csv(folder / name, encoding="utf-8-sig", keep_default_na=False,
                                           na_values=[""])
              for name in manifest.get("tables", [])}
    for df in tables.values():
        for c in df.columns:
            if not (pd.api.types.is_numeric_dtype(df[c]) or pd.api.types.is_bool_dtype(df[c])):
                df[c] = df[c].fillna("")  # an empty label (e.g. no second strategy) is text, not missing
    return manifest, tables
