#!/usr/bin/env python3
"""Profile the solver's numba kernels with `perf`: where a node's time goes, function by function.

numba's compiled code lives in anonymous memory, so `perf report` shows bare addresses.  This script solves
full `hk` deals (every action, as `tjsim solve` does, one thread) and then writes `/tmp/perf-<pid>.map`, the
file `perf` reads to name the code of a JIT (start, size and name of every function of the kernels' compiled
objects).  The objects are caught as numba loads them from its cache, so the kernels must be in the cache
already: run any `tjsim solve` first (the script says so if nothing was caught).

    perf record -o /tmp/perf.data python benchmarks/profile_solver.py --deals 85,148,188
    perf report -i /tmp/perf.data --sort sym --stdio | head -30

With `--objects DIR` the compiled objects are also written there (`nm`, `objdump -d`); built with
`NUMBA_DEBUGINFO=1` (and its own `XDG_CACHE_HOME`, as that build compiles anew, 6–8 min) their line table maps
a sample's offset to a line of kernels/solver.py (`addr2line -e DIR/mtd_kernel.o -j .ltext OFFSET`), though
numba keeps no record of inlining, so the lines of inlined helpers are only partly told apart.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tianjiu_sim.kernels.position as P  # noqa: E402  (first: it sets numba's cache folder)
from numba.core import codegen  # noqa: E402

from tianjiu_sim.game.rules import preset  # noqa: E402

from bench_solver import position  # noqa: E402

_LOADED: list[tuple[object, bytes]] = []  # (library, object code) of every library numba loads from its cache
_set_compiled_object = codegen.CPUCodeLibrary._set_compiled_object


def _keep(self, value):
    """numba's own setter, keeping a copy: the library hands its object to LLVM and drops it."""
    _LOADED.append((self, value))
    return _set_compiled_object(self, value)


codegen.CPUCodeLibrary._set_compiled_object = _keep

_NAME = re.compile(r"_ZN(?:7cpython)?(?:\d+\w+?)*?\d+(_?[a-z][a-z_]*?)B\d+(v\d+)")


def short_name(symbol: str) -> str:
    """`_search.v202` for numba's mangled `_ZN11tianjiu_sim7kernels6solver7_searchB4v202B…` (one name for
    each compiled copy of a function: a helper not inlined may have several)."""
    m = _NAME.match(symbol)
    return f"{m.group(1)}.{m.group(2)}" if m else symbol


def perf_map(objects: Path | None = None) -> Path:
    """Write /tmp/perf-<pid>.map for every function of the libraries loaded so far; its path."""
    lines = []
    for lib, obj in _LOADED:
        with tempfile.NamedTemporaryFile(suffix=".o", delete=False) as f:
            f.write(obj)
        if objects is not None:
            objects.mkdir(parents=True, exist_ok=True)
            (objects / f"{lib.name}.o").write_bytes(obj)
        table = subprocess.run(["nm", "-S", "--defined-only", f.name], capture_output=True, text=True,
                               check=True).stdout
        os.unlink(f.name)
        syms = []
        for row in table.splitlines():
            parts = row.split()
            if len(parts) == 4 and parts[2] in "tTW":
                syms.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
        # where the object's code landed: a symbol of this library (not one it shares, such as NRT_incref)
        base = None
        for off, _, name in sorted(syms, key=lambda s: "tianjiu_sim" not in s[2]):
            addr = lib._codegen._engine.get_function_address(name)
            if addr:
                base = addr - off
                break
        if base is not None:
            lines += [f"{base + off:x} {size:x} {short_name(name)}" for off, size, name in syms]
    out = Path(f"/tmp/perf-{os.getpid()}.map")
    out.write_text("\n".join(lines) + "\n")
    return out


def main() -> None:
    """Solve the deals, then write the perf map."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", default="85,148,188", help="deals of seed 1 (as bench_solve_cli.py), comma-separated")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-nodes", type=int, default=30_000_000, help="give each search up after this many nodes")
    ap.add_argument("--objects", type=Path, help="also write the compiled objects to this folder")
    args = ap.parse_args()
    rules = preset("hk")
    for i in (int(x) for x in args.deals.split(",")):
        pos = position(rules, args.seed, i, rules.tiles_per_player)
        solver = P.Solver(rules, tt_bits=22, max_nodes=args.max_nodes)
        t = time.perf_counter()
        sol = solver.solve(pos, 0, threads=1)
        dt = time.perf_counter() - t
        print(f"deal {i}: {sol.nodes:,} nodes, {dt:.2f} s, {dt / max(sol.nodes, 1) * 1e9:.0f} ns a node", flush=True)
    if not any("mtd_kernel" in lib.name for lib, _ in _LOADED):
        sys.exit("profile_solver.py: the kernels were compiled in this run, not loaded from numba's cache, so their "
                 "code was not caught: run it again")
    print(f"perf map: {perf_map(args.objects)} ({len(_LOADED)} libraries)")


if __name__ == "__main__":
    main()
