"""Results folders on disk: atomic writes, tidy CSV / Parquet tables and their manifest.

Nothing already written is lost or corrupted by a failure: every file is written to a
temporary name, flushed to disk and renamed over the old one.
"""
from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pandas as pd

from ..errors import TjsimError
from .frames import csv_text, DIGITS, display_frame


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that readers see the old file or the whole new one (flushed to disk)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise TjsimError(f"cannot write {path}: {e.strerror}") from None


def atomic_write_text(path: Path, text: str, encoding: str = "utf-8") -> None:
    """Text form of `atomic_write_bytes` (newlines written as given)."""
    atomic_write_bytes(path, text.encode(encoding))


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
        atomic_write_bytes(path, buf.getvalue())
    else:
        text = csv_text(df, digits) if digits is not None else df.to_csv(index=False)
        atomic_write_bytes(path, text.encode("utf-8-sig"))


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
    atomic_write_text(folder / "manifest.json", json.dumps(manifest, ensure_ascii=False, indent=2) + "\n")
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
