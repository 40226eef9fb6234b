"""Results folders: the chunk store, atomic writes, resume, the manifest and the combiner.

Layout of a results folder:

    manifest.json              resolved config, fingerprint, versions, times, throughput
    chunks/cNNNN/kNNNNNN.json  one finished chunk: the measure's tables of sums and counts
    <table>.csv / .parquet     combined tables with estimates and 95% intervals
    report.md, *.png           `tjsim report` output

A chunk file appears only complete (written to a temporary name, flushed, fsynced, renamed),
so a crash or `kill -9` leaves finished chunks intact and at worst a stray `*.tmp`, which
resume deletes. Chunk tables hold integer sums and counts only; adding them is exact and
associative, so combining in chunk order gives identical results for any chunk size.
"""
from __future__ import annotations

import datetime as _dt
import json
import platform
import sys
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable

import pandas as pd

from ..errors import TjsimError
from ..output.results import atomic_write_bytes, atomic_write_text, read_results  # noqa: F401  (re-exported)
from .experiment import Experiment, cell_label, strategies_label
from .measures import MEASURES

MANIFEST = "manifest.json"
CHUNK_DIR = "chunks"
FORMAT_VERSION = 1


def now_iso() -> str:
    """The current UTC time, ISO 8601 to the second."""
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


def versions() -> dict[str, str]:
    """Versions of tjsim, Python and the libraries that can change results or speed."""
    out = {"python": platform.python_version(), "platform": platform.platform()}
    for pkg in ("tianjiu_sim", "numpy", "numba", "pandas", "dask", "distributed", "pyarrow"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            pass
    git = _git_revision()
    if git:
        out["git"] = git
    return out


def _git_revision() -> str | None:
    """The checkout's commit ('+dirty' with uncommitted changes to tracked files), if tjsim runs from one."""
    import subprocess  # noqa: PLC0415

    root = Path(__file__).resolve().parent.parent
    if not (root / ".git").exists():
        return None
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=5).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no",
                                "--", "tianjiu_sim"], capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return f"{head}{'+dirty' if dirty else ''}" if head else None


def _tables_to_json(tables: dict[str, pd.DataFrame]) -> dict[str, Any]:
    out = {}
    for name, df in tables.items():
        out[name] = {"columns": list(df.columns), "dtypes": [str(t) for t in df.dtypes],
                     "data": df.to_numpy(dtype=object).tolist()}
    return out


def _tables_from_json(data: dict[str, Any]) -> dict[str, pd.DataFrame]:
    out = {}
    for name, t in data.items():
        df = pd.DataFrame(t["data"], columns=t["columns"])
        out[name] = df.astype(dict(zip(t["columns"], t["dtypes"]))) if len(df) else df
    return out


class ResultsFolder:
    """One results folder: creates, checks, stores chunks, combines."""

    def __init__(self, path: str | Path):
        self.path = Path(path)

    # --- manifest -------------------------------------------------------------------------
    @property
    def manifest_path(self) -> Path:
        """Where manifest.json lives."""
        return self.path / MANIFEST

    def read_manifest(self) -> dict[str, Any]:
        """The manifest, or TjsimError if this is not a results folder."""
        try:
            data = json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise TjsimError(f"'{self.path}' is not a results folder (no {MANIFEST}); "
                             f"make one with 'tjsim experiment run FILE.toml --out {self.path}'") from None
        except (OSError, ValueError) as e:
            raise TjsimError(f"'{self.path}': unreadable {MANIFEST}: {e}") from None
        if not isinstance(data, dict) or "fingerprint" not in data or "config" not in data:
            raise TjsimError(f"'{self.path}' is not a tjsim results folder ({MANIFEST} has no experiment)")
        return data

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        """Atomically replace the manifest."""
        atomic_write_text(self.manifest_path, json.dumps(manifest, ensure_ascii=False, indent=2) + "\n")

    def prepare(self, exp: Experiment, resume: bool) -> dict[str, Any]:
        """Create the folder (or check it for --resume) and return the manifest to update."""
        fp = exp.fingerprint()
        if self.manifest_path.exists():
            old = self.read_manifest()
            if not resume:
                raise TjsimError(f"'{self.path}' already holds results of experiment "
                                 f"'{old['config'].get('name')}'; add --resume to finish it, or choose "
                                 f"another --out (nothing was changed)")
            if old["fingerprint"] != fp:
                diff = _config_diff(old["config"], exp.config())
                raise TjsimError(f"cannot --resume '{self.path}': it was made by a different experiment "
                                 f"config (differs in: {diff}); choose another --out (nothing was changed)")
            return old
        if self.path.exists() and (not self.path.is_dir() or any(self.path.iterdir())):
            raise TjsimError(f"'{self.path}' exists and is not an empty results folder; "
                             f"choose another --out (nothing was changed)")
        try:
            (self.path / CHUNK_DIR).mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise TjsimError(f"cannot create results folder '{self.path}': {e.strerror}") from None
        manifest = {
            "tjsim_results": FORMAT_VERSION,
            "experiment": exp.name,
            "source": exp.source,
            "seed": exp.seed,
            "fingerprint": fp,
            "config": exp.config(),
            "versions": versions(),
            "status": "running",
            "started": now_iso(),
            "finished": None,
            "chunks_total": len(exp.chunks()),
            "deals_total": exp.total_deals,
            "sessions": [],
        }
        self.write_manifest(manifest)
        return manifest

    # --- chunks ---------------------------------------------------------------------------
    def chunk_path(self, cell: int, k: int) -> Path:
        """File of chunk k of cell `cell`."""
        return self.path / CHUNK_DIR / f"c{cell:04d}" / f"k{k:06d}.json"

    def clean_temporaries(self) -> int:
        """Delete half-written temporary files left by a killed run; returns how many."""
        n = 0
        for tmp in (self.path / CHUNK_DIR).rglob(".*.tmp"):
            tmp.unlink(missing_ok=True)
            n += 1
        for tmp in self.path.glob(".*.tmp"):
            tmp.unlink(missing_ok=True)
            n += 1
        return n

    def write_chunk(self, cell: int, k: int, start: int, stop: int, tables: dict[str, pd.DataFrame]) -> None:
        """Store one finished chunk atomically."""
        path = self.chunk_path(cell, k)
        path.parent.mkdir(parents=True, exist_ok=True)
        body = {"cell": cell, "chunk": k, "start": start, "stop": stop, "tables": _tables_to_json(tables)}
        atomic_write_text(path, json.dumps(body, separators=(",", ":")) + "\n")

    def read_chunk(self, cell: int, k: int, start: int, stop: int) -> dict[str, pd.DataFrame] | None:
        """A stored chunk's tables, or None if it is missing or not this chunk."""
        try:
            body = json.loads(self.chunk_path(cell, k).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if (body.get("cell"), body.get("chunk"), body.get("start"), body.get("stop")) != (cell, k, start, stop):
            return None
        return _tables_from_json(body["tables"])

    def done_chunks(self, exp: Experiment) -> set[tuple[int, int]]:
        """(cell, k) of every chunk already stored and readable."""
        done = set()
        for cell, k, start, stop in exp.chunks():
            if self.chunk_path(cell, k).exists() and self.read_chunk(cell, k, start, stop) is not None:
                done.add((cell, k))
        return done

    # --- combine --------------------------------------------------------------------------
    def combine(self, exp: Experiment) -> dict[str, pd.DataFrame]:
        """Add every chunk's tables in chunk order; then the measure's estimates and intervals."""
        def stored():
            for cell, k, start, stop in exp.chunks():
                tables = self.read_chunk(cell, k, start, stop)
                if tables is None:
                    raise TjsimError(f"'{self.path}': chunk {k} of cell {cell} is missing; run again with --resume")
                yield cell, tables
        return combine_chunks(exp, stored())

    def write_tables(self, tables: dict[str, pd.DataFrame]) -> list[str]:
        """Write each combined table as CSV (and Parquet when pyarrow is installed)."""
        written = []
        for name, df in tables.items():
            atomic_write_text(self.path / f"{name}.csv", df.to_csv(index=False, lineterminator="\n"))
            written.append(f"{name}.csv")
            try:
                import pyarrow  # noqa: F401, PLC0415
            except ImportError:
                continue
            import io  # noqa: PLC0415

            buf = io.BytesIO()
            df.to_parquet(buf, index=False)
            atomic_write_bytes(self.path / f"{name}.parquet", buf.getvalue())
            written.append(f"{name}.parquet")
        return written


def combine_chunks(exp: Experiment, chunks: Iterable[tuple[int, dict[str, pd.DataFrame]]]) -> dict[str, pd.DataFrame]:
    """(cell, tables) of every chunk in chunk order → the measure's combined, finalized tables."""
    measure = MEASURES[exp.measure]
    parts: dict[str, list[pd.DataFrame]] = {}
    for cell, tables in chunks:
        for name, df in tables.items():
            parts.setdefault(name, []).append(df.assign(cell=cell))
    cells = pd.DataFrame([_cell_columns(c) for c in exp.cells])
    out = {}
    for name, dfs in parts.items():
        df = pd.concat(dfs, ignore_index=True)
        keys = ["cell", *measure.keys[name]]
        # first-appearance order: measures emit every key in every chunk, so this is
        # the measure's own row order whatever the chunk size
        summed = df.groupby(keys, sort=False, dropna=False).sum().reset_index()
        table = cells.merge(summed, on="cell", how="right")
        out[name] = measure.finalize(name, table)
    return measure.summarize(out, exp.options) if measure.summarize else out


def _cell_columns(cell: dict[str, Any]) -> dict[str, Any]:
    """The descriptive columns every combined table starts with."""
    row = {"cell": cell["cell"], "rules": cell["rules"], "players": cell["players"]}
    if cell.get("method") is not None:
        row["method"] = cell["method"]
    if cell.get("shuffle") is not None:
        row["shuffle"] = cell["shuffle"]
    if cell.get("strategies") is not None:
        row["strategies"] = strategies_label(cell["strategies"])
    row.update(cell.get("overrides", {}))
    row["deals"] = cell["deals"]
    return row


def _config_diff(old: dict[str, Any], new: dict[str, Any]) -> str:
    keys = [k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
    return ", ".join(keys) or "format"


def cell_labels(exp: Experiment) -> list[str]:
    """Human labels of the cells (progress and reports)."""
    return [cell_label(c) for c in exp.cells]


def summarize_sessions(sessions: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Throughput over every run session of a folder (a resumed run has several)."""
    sessions = list(sessions)
    deals = sum(s["deals_run"] for s in sessions)
    secs = sum(s["seconds"] for s in sessions)
    return {"deals_run": deals, "seconds": round(secs, 3),
            "deals_per_second": round(deals / secs, 1) if secs > 0 else None}


def python_command() -> str:
    """How this process was started (recorded in the manifest)."""
    return " ".join([Path(sys.argv[0]).name, *sys.argv[1:]])
