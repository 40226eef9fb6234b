"""Threads: numba's worker-thread count (results never depend on it), the counter workers share, and
kernels that Ctrl-C can stop."""
from __future__ import annotations

import queue
import threading
import time

import numba
import numpy as np
from numba.core import cgutils, types
from numba.np import numpy_support
from numba.extending import intrinsic


def set_threads(threads: int | None) -> None:
    """Limit numba's worker threads to `threads`, within what numba started with (None: leave as is)."""
    if threads is not None:
        numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))


@intrinsic
def fetch_add1(typingctx, arr, idx):
    """Atomically add 1 to arr[idx] (int64) and return the value it had (LLVM atomicrmw)."""
    if not (isinstance(arr, types.Array) and arr.dtype == types.int64 and isinstance(idx, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        """Emit `atomicrmw add` on the element's address."""
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        i = context.cast(builder, args[1], signature.args[1], types.intp)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [i])
        return builder.atomic_rmw("add", ptr, context.get_constant(types.int64, 1), "seq_cst")

    return types.int64(arr, idx), codegen


_jobs: queue.SimpleQueue | None = None


def _serve() -> None:
    """The one kernel-calling thread: runs each job it is given, keeping its result or exception."""
    while True:
        kernel, args, box, done = _jobs.get()
        try:
            box["value"] = kernel(*args)
        except BaseException as e:  # noqa: BLE001 (raised again in the waiting thread)
            box["error"] = e
        finally:
            done.set()


def _arg_type(a):
    """numba.typeof(a), without its test for a masked array on a plain ndarray (which imports numpy.ma:
    12 ms of a 0.5 s `tjsim solve`)."""
    if type(a) is np.ndarray:
        return types.Array(numpy_support.from_dtype(a.dtype), a.ndim, numpy_support.map_layout(a),
                           readonly=not a.flags.writeable)
    return numba.typeof(a)


def _compile_here(kernel, args: tuple) -> None:
    """Compile (or load from the cache) the kernel for these arguments in this thread, where Ctrl-C is
    heard: a first run's compile takes minutes, and in the worker thread it could not be stopped."""
    overloads = getattr(kernel, "overloads", None)
    if overloads is None:
        return
    sig = tuple(_arg_type(a) for a in args)
    if sig not in overloads:
        kernel.compile(sig)


def run_interruptible(kernel, args: tuple, stop, tick=None, every: float = 0.25, deadline: float | None = None):
    """Call a nogil kernel so that Ctrl-C is heard at once: (its result, None | "interrupt" | "deadline").

    numba code never returns to the interpreter, so a SIGINT waits for the kernel to end (minutes
    for a long search).  Here the kernel runs in a worker thread while the main thread waits on an
    event, where KeyboardInterrupt reaches it; then `stop()` is called (it sets a flag the kernel
    reads) every 2 ms until the kernel returns, and the result is whatever the kernel made of it.
    The same happens at `deadline` (a time.monotonic() value), if given.  `tick()` is called every
    `every` seconds meanwhile (a progress bar).  The worker is one long-lived thread: a new thread
    per call cost 1.5 ms (OpenMP builds a thread team for each new thread that starts a parallel
    kernel).  Off the main thread, which signals never reach, the kernel is simply called.
    """
    global _jobs
    if threading.current_thread() is not threading.main_thread():
        return kernel(*args), None
    if _jobs is None:
        _jobs = queue.SimpleQueue()
        threading.Thread(target=_serve, name="tjsim-kernel", daemon=True).start()
    _compile_here(kernel, args)
    box: dict = {}
    done = threading.Event()  # not Thread.join: a join that Ctrl-C interrupts marks a live thread as ended
    _jobs.put((kernel, args, box, done))
    halted = None
    try:
        while True:
            wait = every if deadline is None else max(0.0, min(every, deadline - time.monotonic()))
            if done.wait(wait):
                break
            if deadline is not None and time.monotonic() >= deadline:
                halted = "deadline"
                break
            if tick is not None:
                tick()
    except KeyboardInterrupt:
        halted = "interrupt"
    if halted is not None:
        stop()
        while not done.wait(0.002):
            stop()
    if "error" in box:
        raise box["error"]
    return box["value"], halted
