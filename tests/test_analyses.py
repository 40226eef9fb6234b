"""compare, value, simulate and sessions as experiment measures: the driver's chunks give exactly the
numbers of one run in one go, results folders resume, and experiment files may name them."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from tianjiu_sim.cli import main
from tianjiu_sim.experiments.backends import run_analysis, run_in_memory
from tianjiu_sim.experiments.experiment import command_experiment, load_experiment
from tianjiu_sim.game.rules import preset
from tianjiu_sim.sim.analysis import compare_summary, compare_tables, run_compare
from tianjiu_sim.sim.runner import run_deals
from tianjiu_sim.sim.session import run_session, session_tables
from tianjiu_sim.sim.value import parse_feature, run_value, value_summary


def _same(a: pd.DataFrame, b: pd.DataFrame) -> None:
    a, b = a.reset_index(drop=True), b.reset_index(drop=True)
    assert list(a.columns) == list(b.columns)
    for c in a.columns:
        if pd.api.types.is_float_dtype(a[c]):
            np.testing.assert_array_equal(a[c].to_numpy(), b[c].to_numpy().astype(float), err_msg=c)
        else:
            assert list(a[c]) == list(b[c]), c


def test_compare_in_chunks_equals_one_run():
    rules = preset("hk")
    pol = ["heuristic", "greedy", "random"]
    data, _ = run_compare(rules, pol, seed=5, deals=900)
    one = compare_summary(compare_tables(data)["compare_chunks"], pol, 4)
    # 7 uneven chunks of 130 deals: the clusters of compare_chunks (9 deals) straddle them
    tabs = run_in_memory(command_experiment("compare", "compare", rules, 5, 900, 130, {"policies": pol}))
    _same(one, tabs["compare_summary"].drop(columns="cell"))


def test_value_in_chunks_equals_one_run():
    rules = preset("folk")
    feat = parse_feature("supreme")
    one = run_value(rules, feat, ["heuristic"], 9, 700, bonus=[{}, {"supreme_bonus": 2}])
    want = value_summary(one.chunks, "supreme", rules.name)
    exp = command_experiment("value", "value", rules, 9, 700, 95,  # cuts the 10-deal clusters
                             {"features": ["supreme"], "bonus": [{}, {"supreme_bonus": 2}], "streak": 1},
                             strategies=["heuristic"])
    got = run_in_memory(exp)
    _same(want, got["value_summary"].drop(columns="cell"))
    chunks = got["value_chunks"]
    assert (chunks.groupby(["estimator", "component", "setting"])["cluster_deals"].sum() == 700).all()


def test_sessions_in_chunks_equal_one_run():
    rules = preset("folk")
    one = session_tables(run_session(rules, ["heuristic", "greedy", "random", "greedy"], 4, 30, 5, shuffle="riffle:3",
                                     from_="played"))
    # chunks must hold whole sessions: 4 sessions of 5 deals each
    exp = command_experiment("simulate --session", "sessions", rules, 4, 150, 20, {"length": 5, "from": "played"},
                             strategies=["heuristic", "greedy", "random", "greedy"], shuffle="riffle:3")
    got = run_in_memory(exp)
    for name in ("session_seats", "session_streaks"):
        _same(one[name], got[name].drop(columns="cell"))


def test_payments_in_chunks_equal_one_run():
    rules = preset("hk")
    res = run_deals(rules, ["heuristic", "greedy", "greedy", "random"], 3, 1000, banker=2, streak=3)
    exp = command_experiment("simulate", "payments", rules, 3, 1000, 333, {"banker": 2, "streak": 3},
                             strategies=["heuristic", "greedy", "greedy", "random"])
    t = run_in_memory(exp)["payments"]
    pay = res.payments.astype(np.int64)
    assert list(t["pay_sum"]) == list(pay.sum(axis=0)) and list(t["pay_sumsq"]) == list((pay * pay).sum(axis=0))
    assert list(t["closes"]) == [int((res.closer == s).sum()) for s in range(4)]
    assert list(t["supreme_sum"]) == list(res.bonus[:, :, 0].astype(np.int64).sum(axis=0))


def _cli(*args):
    return CliRunner().invoke(main, list(args))


def test_command_folder_resumes_only_missing_chunks(tmp_path, monkeypatch):
    from tianjiu_sim.cli import compare_cmd

    monkeypatch.setattr(compare_cmd, "COMPARE_CHUNK", 200)
    out = tmp_path / "cmp"
    args = ["compare", "--policies", "heuristic,greedy", "--deals", "800", "--seed", "2", "--format", "json"]
    first = _cli(*args, "--out-dir", str(out))
    assert first.exit_code == 0, first.output
    chunks = sorted((out / "chunks").rglob("k*.json"))
    assert len(chunks) == 4
    # as if killed after three chunks: one chunk missing, the run not complete
    chunks[2].unlink()
    m = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    m["status"] = "running"
    (out / "manifest.json").write_text(json.dumps(m), encoding="utf-8")
    again = _cli(*args, "--out-dir", str(out))
    assert again.exit_code == 2 and "--resume" in again.output and len(again.output.strip().splitlines()) == 1
    resumed = _cli(*args, "--out-dir", str(out), "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.output) == json.loads(first.output)
    m = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert m["status"] == "complete" and m["sessions"][-1]["chunks_run"] == 1
    other = _cli(*args[:-4], "--deals", "600", "--seed", "2", "--out-dir", str(out), "--resume")
    assert other.exit_code == 2 and "different" in other.output


def test_resume_needs_out_dir():
    res = _cli("simulate", "--deals", "100", "--resume")
    assert res.exit_code == 2 and "--out-dir" in res.output


def test_experiment_file_may_name_the_command_measures(tmp_path):
    f = tmp_path / "cmp.toml"
    f.write_text('name = "cmp"\nmeasure = "compare"\nseed = 3\ndeals = 300\nchunk_size = 100\n'
                 '[options]\npolicies = ["greedy", "random"]\n[grid]\nrules = ["hk", "folk"]\n', encoding="utf-8")
    exp = load_experiment(f)
    res = _cli("experiment", "run", str(f), "--out", str(tmp_path / "o"), "--no-report")
    assert res.exit_code == 0, res.output
    s = pd.read_csv(tmp_path / "o" / "compare_summary.csv")
    assert sorted(s["cell"].unique()) == [0, 1] and len(exp.cells) == 2
    d = s[(s["kind"] == "difference")]
    assert (d["mean"] > 0).all()  # greedy beats random in both rule sets
    bad = tmp_path / "bad.toml"
    bad.write_text(f.read_text(encoding="utf-8").replace('"greedy", "random"', '"greedy"'), encoding="utf-8")
    res = _cli("experiment", "validate", str(bad))
    assert res.exit_code == 2 and "at least two" in res.output


@pytest.mark.parametrize("measure,options", [("value", {"features": ["nope"]}), ("sessions", {"length": 0})])
def test_command_measure_options_are_checked(tmp_path, measure, options):
    f = tmp_path / "x.toml"
    opts = "\n".join(f"{k} = {json.dumps(v)}" for k, v in options.items())
    f.write_text(f'name = "x"\nmeasure = "{measure}"\nseed = 1\ndeals = 100\n[options]\n{opts}\n[grid]\n'
                 'strategies = ["greedy"]\n', encoding="utf-8")
    res = _cli("experiment", "validate", str(f))
    assert res.exit_code == 2, res.output


def test_run_analysis_folder_equals_memory(tmp_path):
    exp = command_experiment("simulate", "payments", preset("folk"), 8, 500, 200, {"banker": 0, "streak": 1},
                             strategies=["heuristic", "greedy", "random", "greedy"])
    mem = run_in_memory(exp)["payments"]
    disk = run_analysis(exp, str(tmp_path / "p"))["payments"]
    _same(mem, disk)


def test_value_bonus_points_are_checked(tmp_path):
    f = tmp_path / "v.toml"
    f.write_text('name = "v"\nmeasure = "value"\nseed = 1\ndeals = 100\n[options]\nfeatures = ["supreme"]\n'
                 'bonus = [{supreme_bonus = 2}, {nonsense = 1}]\n[grid]\nstrategies = ["greedy"]\n', encoding="utf-8")
    res = _cli("experiment", "validate", str(f))
    assert res.exit_code == 2 and "nonsense" in res.output and len(res.output.strip().splitlines()) == 1
