"""Running an experiment's chunks: in this process, on a local process pool, or on Dask.

Workers only compute: `run_task` is a top-level (spawn- and pickle-safe) function that runs
one chunk of one measure and returns its tables. The driver in this process writes each
finished chunk to the results folder as it arrives, in whatever order chunks finish; the
combiner later reads them in chunk order, so the backend never changes a result. Workers
on other machines therefore need tianjiu_sim installed, but no shared filesystem.
"""
from __future__ import annotations

import os
import sys
import time
from typing import Any, Callable, Iterator

from .._numba_cache import notice_when_numba_loads
from .chunks import combine_chunks, now_iso, python_command, ResultsFolder, summarize_sessions
from ..errors import TjsimError
from .experiment import Experiment
from .measures import MEASURES

BACKENDS = ("local", "dask")
Result = tuple[int, int, int, int, dict, float]


def run_task(task: dict[str, Any]) -> Result:
    """Run one chunk: (cell, k, start, stop, tables, seconds). Executed on a worker."""
    t0 = time.perf_counter()
    measure = MEASURES[task["measure"]]
    tables = measure.run_chunk(task["cell"], task["seed"], task["start"], task["stop"])
    return (task["cell"]["cell"], task["k"], task["start"], task["stop"], tables, time.perf_counter() - t0)


def _worker_init() -> None:
    # one numba thread per worker process: the pool already uses every core it was given
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    # a worker's first chunk may compile for minutes before any chunk ends and the progress bar
    # moves: each worker says so on the shared stderr, as the CLI process does
    notice_when_numba_loads()


def run_local(tasks: list[dict[str, Any]], workers: int, on_result: Callable[[Result], None]) -> None:
    """Run tasks in this process (workers=1) or a spawn process pool, calling on_result as each ends."""
    if workers <= 1:
        for task in tasks:
            on_result(run_task(task))
        return
    import concurrent.futures as cf  # noqa: PLC0415
    import multiprocessing as mp  # noqa: PLC0415

    # spawn, not fork: numba's threading layer and a forked parent do not mix safely. Workers
    # start lazily, so the one-thread setting stays in the environment while the pool lives.
    saved = os.environ.get("NUMBA_NUM_THREADS")
    os.environ["NUMBA_NUM_THREADS"] = "1"
    pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn"),
                                  initializer=_worker_init)
    try:
        futures = [pool.submit(run_task, t) for t in tasks]
        for fut in cf.as_completed(futures):
            on_result(fut.result())
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        if saved is None:
            os.environ.pop("NUMBA_NUM_THREADS", None)
        else:
            os.environ["NUMBA_NUM_THREADS"] = saved
    pool.shutdown(wait=True)


def _dask():
    try:
        import distributed  # noqa: PLC0415
    except ImportError:
        raise TjsimError("--backend dask needs dask.distributed: pip install 'tianjiu_sim[dask]'") from None
    return distributed


def run_dask(tasks: list[dict[str, Any]], workers: int, scheduler: str | None,
             on_result: Callable[[Result], None], fingerprint: str = "") -> None:
    """Run tasks on a dask.distributed cluster: a LocalCluster of `workers` processes, or `scheduler`."""
    import logging  # noqa: PLC0415

    distributed = _dask()
    cluster = None
    try:
        if scheduler:
            try:
                client = distributed.Client(scheduler, timeout="20s")
            except (OSError, TimeoutError) as e:
                raise TjsimError(f"cannot connect to the Dask scheduler at {scheduler}: {e}") from None
        else:
            cluster = distributed.LocalCluster(
                n_workers=max(1, workers), threads_per_worker=1, processes=True,
                dashboard_address=None, silence_logs=logging.ERROR,
                env={"NUMBA_NUM_THREADS": "1"})
            client = distributed.Client(cluster)
        try:
            futures = [client.submit(run_task, t, pure=False,
                                     key=f"tjsim-{fingerprint[:12]}-c{t['cell']['cell']}-k{t['k']}")
                       for t in tasks]
            for fut in distributed.as_completed(futures):
                on_result(fut.result())
                fut.release()
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()


def _progress(total: int, initial: int, enabled: bool):
    from tqdm import tqdm  # noqa: PLC0415

    return tqdm(total=total, initial=initial, unit="chunk", file=sys.stderr, disable=not enabled,
                dynamic_ncols=True, smoothing=0.1)


def run_experiment(exp: Experiment, out: str, *, backend: str = "local", workers: int = 1,
                   scheduler: str | None = None, resume: bool = False, progress: bool = False,
                   report: bool = True, precomputed: dict | None = None) -> dict[str, Any]:
    """Run (or finish) an experiment into results folder `out`; returns the final manifest.

    `precomputed` maps (cell, k, start, stop) to chunk tables already computed in this
    process (`run_in_memory`): they are stored as they are instead of being run again.
    """
    return _run_into(exp, out, backend, workers, scheduler, resume, progress, report, precomputed)[0]


def _run_into(exp: Experiment, out: str, backend: str, workers: int, scheduler: str | None, resume: bool,
              progress: bool, report: bool, precomputed: dict | None) -> tuple[dict[str, Any], dict]:
    """run_experiment's work: (final manifest, combined tables)."""
    if backend not in BACKENDS:
        raise TjsimError(f"unknown backend '{backend}' (allowed: {', '.join(BACKENDS)})")
    if workers < 1:
        raise TjsimError(f"--workers must be at least 1, got {workers}")
    if scheduler and backend != "dask":
        raise TjsimError("--scheduler needs --backend dask")
    if backend == "dask":
        _dask()
    folder = ResultsFolder(out)
    manifest = folder.prepare(exp, resume)
    folder.clean_temporaries()
    done = folder.done_chunks(exp)
    for cell, k, start, stop in exp.chunks():
        if (cell, k) not in done and (cell, k, start, stop) in (precomputed or {}):
            folder.write_chunk(cell, k, start, stop, precomputed[cell, k, start, stop])
            done.add((cell, k))
    chunks = exp.chunks()
    tasks = [t for t in tasks_iter(exp) if (t["cell"]["cell"], t["k"]) not in done]

    session = {"started": now_iso(), "finished": None, "backend": backend, "workers": workers,
               "scheduler": scheduler, "chunks_run": 0, "deals_run": 0, "seconds": 0.0,
               "chunk_seconds": 0.0, "resumed_with": len(done)}
    manifest["status"] = "running"
    manifest.setdefault("sessions", []).append(session)
    folder.write_manifest(manifest)

    t0 = time.perf_counter()
    bar = _progress(len(chunks), len(done), progress)

    def on_result(res: Result) -> None:
        """Save a finished chunk at once (any order) and advance the progress bar."""
        cell, k, start, stop, tables, secs = res
        folder.write_chunk(cell, k, start, stop, tables)
        session["chunks_run"] += 1
        session["deals_run"] += stop - start
        session["chunk_seconds"] += secs
        elapsed = time.perf_counter() - t0
        bar.set_postfix_str(f"{session['deals_run'] / max(elapsed, 1e-9):,.0f} deals/s", refresh=False)
        bar.update(1)

    try:
        if tasks:
            if backend == "dask":
                run_dask(tasks, workers, scheduler, on_result, exp.fingerprint())
            else:
                run_local(tasks, workers, on_result)
    finally:
        bar.close()
        session["seconds"] = round(time.perf_counter() - t0, 3)
        session["chunk_seconds"] = round(session["chunk_seconds"], 3)
        session["finished"] = now_iso()
        folder.write_manifest(manifest)

    tables = folder.combine(exp)
    outputs = folder.write_tables(tables)
    manifest.update(status="complete", finished=now_iso(), tables=list(tables), outputs=outputs,
                    throughput=summarize_sessions(manifest["sessions"]))
    folder.write_manifest(manifest)
    if report:
        from ..output.report import write_report  # noqa: PLC0415

        manifest["outputs"] = outputs + write_report(folder.path, manifest, tables)
        folder.write_manifest(manifest)
    return manifest, tables


def run_in_memory(exp: Experiment, cache: dict | None = None, progress: bool | None = None) -> dict:
    """Run every chunk of an experiment in this process and combine them: no results folder.

    `cache` (cell, k, start, stop) → tables is read and filled, so a run that grows (`compare
    --until-stderr`) plays each chunk once. progress None: a bar on a terminal only.
    """
    cache = {} if cache is None else cache
    chunks = exp.chunks()
    todo = [t for t in tasks_iter(exp) if (t["cell"]["cell"], t["k"], t["start"], t["stop"]) not in cache]
    bar = _progress(len(chunks), len(chunks) - len(todo), progress if progress is not None else
                    (len(todo) > 1 and sys.stderr.isatty()))
    try:
        for task in todo:
            cell, k, start, stop, tables, _ = run_task(task)
            cache[cell, k, start, stop] = tables
            bar.update(1)
    finally:
        bar.close()
    return combine_chunks(exp, ((c, cache[c, k, a, b]) for c, k, a, b in chunks))


def run_analysis(exp: Experiment, out: str | None = None, *, resume: bool = False,
                 cache: dict | None = None) -> dict:
    """A command's one-cell experiment: into results folder `out` (chunks, --resume, manifest), else in
    memory; returns the combined tables either way (the same numbers)."""
    if out is None:
        if resume:
            raise TjsimError("--resume needs --out-dir DIR: the results folder to finish")
        return run_in_memory(exp, cache)
    return _run_into(exp, out, "local", 1, None, resume, sys.stderr.isatty(), False, cache)[1]


def note_command(out: str, kind: str, config: dict[str, Any]) -> None:
    """Record in a command's results folder what the command was run with (`kind`, `command`):
    what `tjsim report` shows for it."""
    folder = ResultsFolder(out)
    manifest = folder.read_manifest()
    manifest.update(kind=kind, command=config, invoked=python_command())
    folder.write_manifest(manifest)


def tasks_iter(exp: Experiment) -> Iterator[dict[str, Any]]:
    """Every chunk of an experiment as a task, in combining order."""
    cells = {c["cell"]: c for c in exp.cells}
    for c, k, a, b in exp.chunks():
        yield {"measure": exp.measure, "cell": dict(cells[c], options=exp.options),
               "seed": cells[c]["seed"], "k": k, "start": a, "stop": b}
