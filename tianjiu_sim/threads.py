"""numba's worker-thread count, the one knob of parallelism (results never depend on it)."""
from __future__ import annotations

import numba


def set_threads(threads: int | None) -> None:
    """Limit numba's worker threads to `threads`, within what numba started with (None: leave as is)."""
    if threads is not None:
        numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
