"""Cold compile time of each numba kernel a user's first commands wait for.

Each kernel is compiled in a fresh process with an empty numba cache (a temporary
NUMBA_CACHE_DIR), so the figure is what a new user waits for; wall and CPU seconds are both
printed because this VM's wall clock drifts with the load of other processes. A second run
in the same cache shows the warm start (loading from the cache).

    python benchmarks/bench_compile.py            # every kernel, cold then warm
    python benchmarks/bench_compile.py play odds  # some of them
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# name → (what it is, Python that triggers exactly that kernel's first compile)
KERNELS = {
    "play": ("runner._play_rows: the one play kernel (engine + strategies)",
             "from tianjiu_sim.sim.runner import run_deals; run_deals(preset('hk'), ['greedy'], 1, 10)"),
    "value": ("value.py's exchange kernels (tjsim value), with the play kernel cached",
              "from tianjiu_sim.sim.value import parse_feature, run_value; "
              "run_value(preset('hk'), parse_feature('supreme'), ['greedy'], 1, 200)"),
    "odds": ("odds: the deal-odds Monte Carlo sampler",
             "from tianjiu_sim.sim.odds import run_cells; from tianjiu_sim.kernels.shuffles import Shuffle; "
             "run_cells(preset('hk'), [('left', Shuffle('perfect', 0))], 'box', 1000, 1)"),
    "settle": ("settlement.settle_kernel (tjsim score)",
               "from tianjiu_sim.game.settlement import settle; settle(preset('hk'), [1, 4, 0, 3], 3, 0, 1)"),
}

PROBE = """
import json, resource, sys, time
t0 = time.perf_counter()
from tianjiu_sim.game.rules import preset
{code}
r = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({{"wall": time.perf_counter() - t0, "cpu": r.ru_utime + r.ru_stime}}))
"""


def measure(code: str, cache: str) -> dict:
    """Run `code` in a fresh process with NUMBA_CACHE_DIR=cache; its wall and CPU seconds."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", PROBE.format(code=code)], env=env, capture_output=True,
                         text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(names: list[str]) -> None:
    """Print cold and warm start of each kernel."""
    print(f"{'kernel':8} {'cold wall':>10} {'cold cpu':>9} {'warm wall':>10}  what")
    for name in names or list(KERNELS):
        what, code = KERNELS[name]
        with tempfile.TemporaryDirectory() as cache:
            cold = measure(code, cache)
            warm = measure(code, cache)
        print(f"{name:8} {cold['wall']:9.1f}s {cold['cpu']:8.1f}s {warm['wall']:9.1f}s  {what}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
