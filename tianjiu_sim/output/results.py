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


def read_results(folder: str | Path) -> tuple[dict, dict[str, pd.DataFrame]]:
    """(manifest, tables) of a finished results folder: an experiment's or a command's `--out-dir`.

    Also reads the folders commands wrote before they ran through the experiment driver (a
    manifest with `kind` and `tables` as file names; results/supreme_value_strong is one).
    Empty cells of text columns read as "" (an empty label, e.g. no second strategy), not NaN.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise TjsimError(f"'{folder}' is not a results folder (no such directory)")
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TjsimError(f"'{folder}' is not a results folder (no manifest.json); make one with "
                         f"'tjsim experiment run FILE.toml --out {folder}' or a command's --out-dir") from None
    except (OSError, ValueError) as e:
        raise TjsimError(f"'{folder}': unreadable manifest.json: {e}") from None
    if not isinstance(manifest, dict) or "config" not in manifest:
        raise TjsimError(f"'{folder}' is not a tjsim results folder (manifest.json has no config)")
    how = (f"'tjsim experiment run {manifest.get('source', 'FILE')} --out {folder} --resume'"
           if "command" not in manifest and "tjsim_results" in manifest else "the same command with --resume")
    if "tjsim_results" in manifest and manifest.get("status") != "complete":
        raise TjsimError(f"'{folder}': the run has not finished (finish it with {how})")
    tables = {}
    for name in manifest.get("tables", []):
        path = folder / (name if name.endswith(".csv") else f"{name}.csv")
        if not path.exists():
            raise TjsimError(f"'{folder}': {path.name} is missing; the run has not finished (finish it with {how})")
        df = pd.read_csv(path, encoding="utf-8-sig", keep_default_na=False, na_values=[""])
        for c in df.columns:
            if not (pd.api.types.is_numeric_dtype(df[c]) or pd.api.types.is_bool_dtype(df[c])):
                df[c] = df[c].fillna("")
        tables[Path(name).stem] = df
    if not tables:
        raise TjsimError(f"'{folder}': the run has not finished (finish it with {how})")
    return manifest, tables


def command_config(manifest: dict) -> dict:
    """What a command's results folder was made with: `rules`, `policies`, `deals`, … (flat)."""
    return manifest.get("command") or manifest["config"]
