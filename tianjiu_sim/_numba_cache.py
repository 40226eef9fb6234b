"""Point numba's on-disk cache at a folder keyed by a hash of the compiled code's sources; say when it compiles.

numba invalidates a cached kernel only when the file that defines it changes, not when a
function it calls (in another module) changes: an edited engine would silently keep running
stale machine code inside another module's kernel. Keying the cache folder on the sources of
the compiled code — every module with a numba kernel and every package module those import,
transitively — makes any edit of them start a fresh cache, while an edit of a report, a plot
or a command does not recompile the engine. It also keeps installed copies, whose
site-packages may be read-only, on a writable disk.

A cold compile of the game engine takes a minute or more; `install_compile_notice` makes the
CLI say so on stderr (once per kernel, after 2 s) instead of waiting in silence.
"""
from __future__ import annotations

import hashlib
import os
import re
import sys
import threading
import shutil
import time
from contextlib import contextmanager
from pathlib import Path

# Caches of other sources are dropped only when this old: a process of an older version may
# still be running (tests, a long simulation) and must not lose its cache under it.
STALE_SECONDS = 6 * 3600


_KERNEL = re.compile(rb"^\s*@(njit|intrinsic|vectorize|guvectorize|jit)\b", re.M)
_RELATIVE = re.compile(rb"^from (\.+)([\w.]*) import ([^\n(]*(?:\([^)]*\))?)", re.M)


def _imports(root: Path, path: Path, text: bytes) -> set[Path]:
    """Package files that `path` imports with relative imports (modules and `from . import x`)."""
    found = set()
    for dots, name, names in _RELATIVE.findall(text):
        base = path.parent
        for _ in range(len(dots) - 1):
            base = base.parent
        target = base.joinpath(*name.decode().split(".")) if name else base
        candidates = [target.with_suffix(".py"), target / "__init__.py"]
        if target.is_dir():  # `from .pkg import mod, mod2`: each name may be a module
            for n in re.findall(rb"\w+", names):
                candidates.append(target / f"{n.decode()}.py")
        found.update(c for c in candidates if c.is_file() and root in c.parents)
    return found


def kernel_sources(root: Path | None = None) -> list[Path]:
    """The modules with numba kernels and every package module they import, transitively."""
    root = root or Path(__file__).resolve().parent
    texts = {p: p.read_bytes() for p in root.rglob("*.py")}
    todo = [p for p, t in texts.items() if _KERNEL.search(t)]
    seen = set(todo)
    while todo:
        p = todo.pop()
        for q in _imports(root, p, texts[p]):
            if q not in seen:
                seen.add(q)
                todo.append(q)
    return sorted(seen)


def source_hash() -> str:
    """A short hash of the sources of the compiled code (`kernel_sources`)."""
    h = hashlib.sha1()
    root = Path(__file__).resolve().parent
    for p in kernel_sources(root):
        h.update(str(p.relative_to(root)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _fingerprint(root: Path) -> str:
    """A hash of the package's .py files' paths, sizes and modification times (no file read)."""
    h = hashlib.sha1()
    for folder, subdirs, files in os.walk(root):
        subdirs.sort()
        for f in sorted(files):
            if f.endswith(".py"):
                path = os.path.join(folder, f)
                st = os.stat(path)
                h.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def remembered_source_hash(memo: Path, root: Path | None = None) -> str:
    """`source_hash()`, read from the file `memo` while no .py file of the package (at `root`) has changed
    size or modification time since it was written there (the hash reads every file: 12-25 ms of each start)."""
    seen = _fingerprint(root or Path(__file__).resolve().parent)
    try:
        stamp, known = memo.read_text().split()
        if stamp == seen:
            return known
    except (OSError, ValueError):
        pass
    known = source_hash()
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        part = memo.with_name(f"{memo.name}.{os.getpid()}")
        part.write_text(f"{seen} {known}\n")
        os.replace(part, memo)  # whole or not at all for another process reading it
    except OSError:
        pass
    return known


def configure() -> None:
    """Set NUMBA_CACHE_DIR (unless the user set it) and drop caches of older sources."""
    if "NUMBA_CACHE_DIR" in os.environ:
        return
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tjsim"
    root = Path(__file__).resolve().parent
    where = hashlib.sha1(str(root).encode()).hexdigest()[:12]  # one memo per copy of the package
    target = base / f"numba-{remembered_source_hash(base / f'sources-{where}', root)}"
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


# Cold compile time of each kernel a command waits for, measured on the 2-core CI machine
# (benchmarks/README.md, "Compile times"; the solver's and the search engine's again at stop 51: a first
# `tjsim solve` 141-146 s, a first `tjsim play --seed 3` 54 s; the solver's at stops 55-57: a first `tjsim solve`
# 196 s, 176 s, then 213 s and 171 s); other kernels get the generic wording.
COMPILE_SECONDS = {
    "_play_rows": ("the game engine", 70),
    "_mc_kernel": ("the deal-odds sampler", 15),
    "_exact_kernel": ("the exact deal-odds counter", 15),
    "_exchange": ("the tile exchanges of tjsim value", 10),
    "mtd_kernel": ("the exact solver", 200),
    "solve_kernel": ("the exact solver", 200),
    "evaluate": ("the search strategies (pimc, oracle)", 30),
    "search_scratch": ("the search strategies (pimc, oracle)", 30),
}
# The play kernel compiled with the search scratch (a seat plays pimc or oracle): engine + search.
SEARCH_ENGINE = ("the game engine with the search strategies (pimc, oracle)", 60)
NOTICE_AFTER = 2.0  # seconds of silent compiling before the notice


def install_compile_notice(stream=None) -> None:
    """Print one line on stderr when a numba kernel has compiled for NOTICE_AFTER s (once per kernel)."""
    from numba.core import event  # imported here: light commands never load numba

    out = stream or sys.stderr
    said: set[str] = set()

    class _Notice(event.Listener):
        depth = 0
        timer = None

        def on_start(self, ev):
            self.depth += 1
            if self.depth != 1:
                return
            disp = (ev.data or {}).get("dispatcher")
            name = getattr(getattr(disp, "py_func", None), "__name__", "a kernel")
            if name in said:
                return
            what, secs = COMPILE_SECONDS.get(name, ("numba kernels", None))
            args = (ev.data or {}).get("args") or ()
            if name == "_play_rows" and args and "none" not in str(args[-1]).lower():
                name, (what, secs) = "_play_rows+search", SEARCH_ENGINE
                if name in said:
                    return
            about = f"about {secs} s" if secs else "up to a minute"

            def tell():
                said.add(name)
                print(f"tjsim: compiling {what} — first run only, {about}; later runs use the cache",
                      file=out, flush=True)

            self.timer = threading.Timer(NOTICE_AFTER, tell)
            self.timer.daemon = True
            self.timer.start()

        def on_end(self, ev):
            self.depth -= 1
            if self.depth == 0 and self.timer is not None:
                self.timer.cancel()
                self.timer = None

    event.register("numba:compile", _Notice())


# Optional imports numba makes while it sets up its compiler contexts, for features no tjsim
# kernel uses: scipy.linalg (BLAS for np.dot inside kernels, ~140 ms) and cffi (C callbacks
# through cffi, ~65 ms, most of it pycparser building its lexer).  Skipping them is a fifth of
# the start-up of a command like `tjsim solve` (benchmarks/README.md, "Start-up").
UNUSED_BY_KERNELS = ("scipy.linalg", "cffi")
# Optional imports of numba's own import: scipy only for a version check (numba runs without it), yaml
# only to read a .numba_config.yaml from the working directory (blocked only where there is none).
# 25-30 ms of a `tjsim solve` (benchmarks/README.md, stop 26).
UNUSED_AT_NUMBA_IMPORT = ("scipy", "yaml")


@contextmanager
def _unused_imports_blocked(names=UNUSED_BY_KERNELS):
    """The imports `names` fail at once inside the block, and import as usual after it.

    A module set to None in sys.modules makes its import fail at once, which numba takes as
    "feature unavailable"; the entries are removed afterwards, so the rest of the program (e.g.
    scipy.optimize in tjsim paigow) imports them as usual.
    """
    blocked = [m for m in names if m not in sys.modules]
    for m in blocked:
        sys.modules[m] = None
    try:
        yield
    finally:
        for m in blocked:
            if sys.modules.get(m, 0) is None:
                del sys.modules[m]


def lean_numba_contexts() -> None:
    """Set up numba's compiler contexts only for a compile, and then without the imports no kernel needs.

    numba's cache loader refreshes both compiler contexts before it loads a kernel: it imports and
    registers the implementation of every feature numba can compile (about 250 registries, 0.2 s of
    a warm `tjsim solve`'s 0.7 s; benchmarks/README.md, stop 25).  Loading machine code needs none
    of it, only numba's runtime (NRT) set up, so a load here sets up the runtime alone; a compile
    (a cache miss) still refreshes both contexts first, in numba's compiler (compiler.py).  Both,
    and the modules a cached kernel's environment imports as it is unpickled (numba.np.arraymath
    looks for scipy's BLAS), run with the optional imports blocked (`_unused_imports_blocked`).
    """
    from numba.core import caching  # noqa: PLC0415
    from numba.core.registry import cpu_target  # noqa: PLC0415
    from numba.core.runtime import rtsys  # noqa: PLC0415

    for ctx in (cpu_target.typing_context, cpu_target.target_context):
        if not getattr(ctx.refresh, "tjsim_lean", False):
            ctx.refresh = _blocking(ctx.refresh)
    cache = caching.Cache
    known = all(hasattr(cache, a) for a in ("load_overload", "_load_overload", "_guard_against_spurious_io_errors"))
    if not known or getattr(cache.load_overload, "tjsim_lean", False):
        return  # a numba whose loader we do not know (its own loads stay as they are), or done already

    def load_overload(self, sig, target_context):
        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    cache.load_overload = _blocking(load_overload)


def _blocking(fn):
    """`fn` run with the optional imports blocked (`_unused_imports_blocked`), marked as done here."""

    def lean(*args, **kwargs):
        with _unused_imports_blocked():
            return fn(*args, **kwargs)

    lean.tjsim_lean = True
    return lean


class _WhenNumbaLoads:
    """A meta-path finder that installs the compile notice right after numba is first imported."""

    def find_spec(self, name, path=None, target=None):
        """Let the normal finders find numba, then hook its loader; ignore every other module."""
        if name != "numba":
            return None
        sys.meta_path.remove(self)
        import importlib.util  # noqa: PLC0415

        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def exec_then_install(module):
            names = [m for m in UNUSED_AT_NUMBA_IMPORT if m != "yaml" or not os.path.exists(".numba_config.yaml")]
            with _unused_imports_blocked(names):
                exec_module(module)
            lean_numba_contexts()
            install_compile_notice()

        spec.loader.exec_module = exec_then_install
        return spec


def notice_when_numba_loads() -> None:
    """Install the compile notice now if numba is loaded, else as soon as it is (light commands stay light)."""
    if "numba" in sys.modules:
        install_compile_notice()
    elif not any(isinstance(f, _WhenNumbaLoads) for f in sys.meta_path):
        sys.meta_path.insert(0, _WhenNumbaLoads())
