"""Start-up of the CLI: numba's compiler contexts only for a compile, without the imports no kernel uses (tianjiu_sim/_numba_cache.py)."""
from __future__ import annotations

import os
import subprocess
import sys

KERNEL = """
import numba
import numpy as np

@numba.njit(cache=True)
def twice(a):
    return a.sum() * 2
"""

CHECK = r"""
import sys
sys.path.insert(0, sys.argv[1])
from tianjiu_sim._numba_cache import lean_numba_contexts, UNUSED_BY_KERNELS
import numba
lean_numba_contexts()
import numpy as np
from cached import twice

assert twice(np.arange(4)) == 12
loaded = sys.argv[2] == "load"
# numba.cpython.cmathimpl is imported by the target context's refresh alone
assert ("numba.cpython.cmathimpl" in sys.modules) != loaded, "contexts refreshed for a cache load / not for a compile"

@numba.njit
def f(a):
    return np.sqrt(a).sum() + len(a)

assert f(np.arange(4.0)) == 4 + 1 + 2 ** 0.5 + 3 ** 0.5  # a compile after a lean load has every context
assert "numba.cpython.cmathimpl" in sys.modules
assert "cffi" not in sys.modules and "scipy.linalg" not in sys.modules, "optional imports were made"
assert all(sys.modules.get(m, 0) is not None for m in UNUSED_BY_KERNELS), "a blocked entry was left behind"
from scipy.optimize import brentq  # scipy.linalg imports as usual afterwards
assert abs(brentq(lambda x: x - 1.5, 0, 3) - 1.5) < 1e-9
print("ok")
"""


def test_lean_numba_contexts_load_without_refresh_compile_without_unused_imports(tmp_path):
    """A cached kernel loads without numba's compiler contexts; a compile sets them up, without scipy.linalg and
    cffi; scipy imports later."""
    (tmp_path / "cached.py").write_text(KERNEL)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    for step in ("compile", "load"):
        out = subprocess.run([sys.executable, "-c", CHECK, str(tmp_path), step], capture_output=True, text=True,
                             timeout=300, env=env)
        assert out.returncode == 0, f"{step}: {out.stderr}"
        assert out.stdout.strip() == "ok"


HELP = r"""
import sys
from click.testing import CliRunner
from tianjiu_sim.cli import main
out = CliRunner().invoke(main, ["--help"])
assert out.exit_code == 0, out.output
assert "solve" in out.output and "score" in out.output
heavy = [m for m in ("numba", "pandas", "matplotlib") if m in sys.modules]
assert not heavy, f"tjsim --help imported {heavy}"
print("ok")
"""


def test_top_level_help_loads_no_engine():
    """`tjsim --help` lists every command without importing numba, pandas or matplotlib (0.2 s, not 0.8 s)."""
    out = subprocess.run([sys.executable, "-c", HELP], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
