"""Start-up of the CLI: numba's compiler contexts without the imports no kernel uses (tianjiu_sim/_numba_cache.py)."""
from __future__ import annotations

import subprocess
import sys

CHECK = r"""
import sys
import tianjiu_sim.cli  # sets the numba cache folder before numba loads
from tianjiu_sim._numba_cache import lean_numba_contexts, UNUSED_BY_KERNELS
import numba
lean_numba_contexts()
assert "cffi" not in sys.modules and "scipy.linalg" not in sys.modules, "optional imports were made"
assert all(sys.modules.get(m, 0) is not None for m in UNUSED_BY_KERNELS), "a blocked entry was left behind"
import numpy as np

@numba.njit
def f(a):
    return a.sum() * 2

assert f(np.arange(4)) == 12
from scipy.optimize import brentq  # scipy.linalg imports as usual afterwards
assert abs(brentq(lambda x: x - 1.5, 0, 3) - 1.5) < 1e-9
print("ok")
"""


def test_lean_numba_contexts_skip_unused_imports_and_leave_them_importable():
    """The contexts are set up without scipy.linalg and cffi, kernels still compile, scipy imports later."""
    out = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
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
