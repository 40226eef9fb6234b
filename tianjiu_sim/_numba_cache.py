"""Point numba's on-disk cache at a folder keyed by a hash of this package's source.

numba invalidates a cached kernel only when the file that defines it changes, not when a
function it calls (in another module) changes: an edited engine would silently keep running
stale machine code inside odds.py or session.py kernels. Keying the cache folder on all of
the package's source makes any edit start a fresh cache, and keeps installed copies, whose
site-packages may be read-only, on a writable disk.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path

# Caches of other sources are dropped only when this old: a process of an older version may
# still be running (tests, a long simulation) and must not lose its cache under it.
STALE_SECONDS = 6 * 3600


def source_hash() -> str:
    """A short hash of every .py file of the package."""
    h = hashlib.sha1()
    root = Path(__file__).resolve().parent
    for p in sorted(root.rglob("*.py")):
        h.update(str(p.relative_to(root)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def configure() -> None:
    """Set NUMBA_CACHE_DIR (unless the user set it) and drop caches of older sources."""
    if "NUMBA_CACHE_DIR" in os.environ:
        return
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tjsim"
    target = base / f"numba-{source_hash()}"
    if not target.is_dir():
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError:
            return  # numba falls back to its own default
        now = time.time()
        for old in base.glob("numba-*"):
            try:
                stale = now - old.stat().st_mtime > STALE_SECONDS
            except OSError:
                continue
            if old != target and stale:
                shutil.rmtree(old, ignore_errors=True)
    os.environ["NUMBA_CACHE_DIR"] = str(target)
