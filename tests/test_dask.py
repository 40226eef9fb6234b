"""Dask backend: a real dask.distributed LocalCluster gives the same result files as local processes."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import assert_user_error, run_cli

pytest.importorskip("distributed")

EXP = """\
name = "dask_small"
measure = "deal_odds"
seed = 21
deals = 5000
chunk_size = 800

[grid]
method = ["left", "wings"]
shuffle = ["perfect", "riffle:2"]

[options]
events = "core"
"""


def tables(folder: Path) -> dict[str, bytes]:
    """The CSV result files of a folder."""
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.csv"))}


def test_workers_1_2_and_dask_localcluster_identical(tmp_path):
    exp = tmp_path / "e.toml"
    exp.write_text(EXP, encoding="utf-8")
    outs = {}
    for label, extra in (("w1", ["--workers", "1"]), ("w2", ["--workers", "2"]),
                         ("dask", ["--backend", "dask", "--workers", "2"])):
        outs[label] = tmp_path / label
        res = run_cli("experiment", "run", str(exp), "--out", str(outs[label]), "--no-report", *extra)
        assert res.code == 0, (label, res.err)
    ref = tables(outs["w1"])
    assert ref and tables(outs["w2"]) == ref and tables(outs["dask"]) == ref
    manifest = json.loads((outs["dask"] / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["sessions"][-1]["backend"] == "dask" and manifest["sessions"][-1]["workers"] == 2
    assert "distributed" in manifest["versions"]


def test_dask_in_process_cluster_matches_local(tmp_path):
    """The library entry point on an explicit LocalCluster of 2 worker processes, via its address."""
    from distributed import LocalCluster

    from tianjiu_sim.experiments.backends import run_experiment
    from tianjiu_sim.experiments.experiment import load_experiment

    exp_path = tmp_path / "e.toml"
    exp_path.write_text(EXP.replace("deals = 5000", "deals = 2000"), encoding="utf-8")
    exp = load_experiment(exp_path)
    run_experiment(exp, str(tmp_path / "local"), report=False)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        run_experiment(exp, str(tmp_path / "remote"), backend="dask", scheduler=cluster.scheduler_address,
                       report=False)
    assert tables(tmp_path / "remote") == tables(tmp_path / "local")


def test_bad_scheduler_and_option_errors(tmp_path):
    exp = tmp_path / "e.toml"
    exp.write_text(EXP, encoding="utf-8")
    res = run_cli("experiment", "run", str(exp), "--out", str(tmp_path / "o"), "--scheduler", "tcp://127.0.0.1:1")
    assert_user_error(res, "--scheduler needs --backend dask")
    assert not (tmp_path / "o").exists()
