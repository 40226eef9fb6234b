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


NUMBA_IMPORT = r"""
import os, sys
os.chdir(sys.argv[1])
from tianjiu_sim._numba_cache import notice_when_numba_loads
notice_when_numba_loads()
import numba
assert ("yaml" in sys.modules) == (sys.argv[2] == "config"), "yaml blocked only without a .numba_config.yaml here"
assert "scipy" not in sys.modules, "numba's import made its scipy version check"
assert all(sys.modules.get(m, 0) is not None for m in ("scipy", "yaml")), "a blocked entry was left behind"
import numpy as np
from tianjiu_sim.kernels.threads import _arg_type
args = (np.zeros(3), np.zeros((3, 4), dtype=np.int64), np.zeros((3, 4))[:, ::2], np.zeros((4, 3)).T, 5, 2.0)
got = [_arg_type(a) for a in args]
assert "numpy.ma" not in sys.modules, "a plain array's type imported numpy.ma"
assert got == [numba.typeof(a) for a in args]
import scipy, yaml  # importable as usual afterwards
print("ok")
"""


def test_numba_import_skips_scipy_and_yaml_unless_configured(tmp_path):
    """Through the CLI's hook numba imports without scipy (a version check) and yaml (read only for a
    .numba_config.yaml in the working directory, so not blocked where there is one)."""
    for case in ("plain", "config"):
        where = tmp_path / case
        where.mkdir()
        if case == "config":
            (where / ".numba_config.yaml").write_text("# nothing set\n")
        out = subprocess.run([sys.executable, "-c", NUMBA_IMPORT, str(where), case], capture_output=True,
                             text=True, timeout=300)
        assert out.returncode == 0, f"{case}: {out.stderr}"
        assert out.stdout.strip() == "ok"


def test_source_hash_is_remembered_until_a_source_changes(tmp_path, monkeypatch):
    """The cache folder's hash is read from a memo while no .py file changed size or time, else computed again."""
    from tianjiu_sim import _numba_cache as nc

    real = nc.source_hash()
    calls = []
    monkeypatch.setattr(nc, "source_hash", lambda: calls.append(1) or real)
    memo = tmp_path / "memo"
    assert nc.remembered_source_hash(memo) == real and len(calls) == 1
    assert nc.remembered_source_hash(memo) == real and len(calls) == 1  # from the memo
    monkeypatch.setattr(nc, "_fingerprint", lambda root: "another")
    assert nc.remembered_source_hash(memo) == real and len(calls) == 2
    memo.write_text("garbled")
    assert nc.remembered_source_hash(memo) == real and len(calls) == 3
    # the fingerprint sees a file's size and modification time
    (tmp_path / "src").mkdir()
    f = tmp_path / "src" / "m.py"
    f.write_text("x = 1\n")
    monkeypatch.undo()
    first = nc._fingerprint(tmp_path / "src")
    os.utime(f, ns=(1, 2))
    assert nc._fingerprint(tmp_path / "src") != first
    os.utime(f, ns=(1, 2))
    assert nc._fingerprint(tmp_path / "src") == nc._fingerprint(tmp_path / "src")
    f.write_text("x = 12\n")
    os.utime(f, ns=(1, 2))
    assert nc._fingerprint(tmp_path / "src") != first
