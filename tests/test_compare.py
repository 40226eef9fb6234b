"""`tjsim compare`: duplicate ranking of the strategies, variance ratio, reproducibility, outputs, errors."""
import json
import math

import numpy as np
import pytest

from conftest import assert_user_error, run_cli
from tianjiu_sim.sim.analysis import (compare_json, compare_summary, compare_tables, dealt_hands,
                                  play_hands, run_compare)
from tianjiu_sim.sim.duplicate import rotation_table
from tianjiu_sim.errors import TjsimError
from tianjiu_sim.game.rules import preset
from tianjiu_sim.sim.runner import run_deals

LADDER = ["heuristic", "greedy", "random"]


@pytest.mark.parametrize("rules", ["hk", "folk"])
def test_ladder_ranks_heuristic_greedy_random_at_20000_deals(rules):
    # The acceptance check of issue 4, on both presets: order, CIs apart, duplicate helps.
    data, _ = run_compare(preset(rules), LADDER, seed=1, deals=20000)
    summary = compare_summary(compare_tables(data)["compare_chunks"], LADDER, data.table.shape[0])
    out = compare_json(summary, 20000, {})
    s = {x["policy"]: x for x in out["strategies"]}
    assert s["heuristic"]["mean_payment"] > s["greedy"]["mean_payment"] > s["random"]["mean_payment"]
    assert s["heuristic"]["ci_low"] > s["greedy"]["ci_high"], s
    assert s["greedy"]["ci_low"] > s["random"]["ci_high"], s
    assert all(d["significant"] and d["mean"] > 0 for d in out["differences"])
    assert out["variance_ratio"] > 1
    assert out["variance_ratio_per_deal"] > out["variance_ratio"]


def test_given_hand_kernel_reproduces_the_runner():
    rules = preset("folk")
    pol = ["heuristic", "greedy", "random", "heuristic"]
    a = run_deals(rules, pol, 5, 500, start=300)
    idx = np.arange(300, 800)
    b = play_hands(rules, pol, 5, dealt_hands(rules, 5, idx), idx)
    assert (a.payments == b.payments).all() and (a.bonus == b.bonus).all() and (a.closer == b.closer).all()


def test_rotations_seat_every_strategy_once_per_seat():
    rot = rotation_table(3, 4)
    assert rot.shape == (3, 4)
    for s in range(4):
        assert sorted(rot[:, s]) == [0, 1, 2]


def test_every_duplicate_deal_is_zero_sum_and_means_are_per_seat_played():
    data, _ = run_compare(preset("hk"), ["heuristic", "greedy"], seed=2, deals=300)
    assert (data.pay.sum(axis=2) == 0).all()
    assert np.allclose(data.x.sum(axis=1), 0)  # each strategy held half the seats of every replay


def test_until_stderr_stops_below_the_target_and_is_reproducible():
    rules = preset("hk")
    d1, why = run_compare(rules, ["heuristic", "greedy"], seed=4, deals=0, until_stderr=0.12, max_deals=50000)
    assert why == "stderr"
    n = d1.x.shape[0]
    d = d1.x[:, 0] - d1.x[:, 1]
    assert d.std(ddof=1) / math.sqrt(n) < 0.12
    d2, _ = run_compare(rules, ["heuristic", "greedy"], seed=4, deals=0, until_stderr=0.12, max_deals=50000,
                        threads=1)
    assert np.array_equal(d1.x, d2.x)
    d3, why3 = run_compare(rules, ["heuristic", "greedy"], seed=4, deals=0, until_stderr=1e-6, max_deals=3000)
    assert why3 == "cap" and d3.x.shape[0] == 3000


def test_same_seed_same_output_for_any_thread_count():
    args = ["compare", "--policies", "heuristic,random", "--deals", "400", "--seed", "9", "--format", "json"]
    one, two = run_cli(*args, "--threads", "1"), run_cli(*args, "--threads", "2")
    assert one.code == 0 and two.code == 0, one.err + two.err
    assert one.out == two.out
    out = json.loads(one.out)
    assert {"deals", "strategies", "differences", "variance_ratio"} <= set(out)
    assert out["deals"] == 400 and [s["policy"] for s in out["strategies"]] == ["heuristic", "random"]
    assert set(out["strategies"][0]) >= {"policy", "mean_payment", "ci_low", "ci_high"}
    assert set(out["differences"][0]) >= {"a", "b", "mean", "ci_low", "ci_high"}


def _table_numbers(text: str) -> dict:
    rows = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 5 and parts[0] in LADDER and parts[1].isdigit():
            rows[("strategy", parts[0], "")] = parts[2:5]
        elif len(parts) >= 5 and parts[0] in LADDER and parts[1] in LADDER:
            rows[("difference", parts[0], parts[1])] = parts[2:5]
    return rows


def test_csv_holds_exactly_the_numbers_in_the_terminal(tmp_path):
    args = ["compare", "--policies", ",".join(LADDER), "--deals", "300", "--seed", "5"]
    table = run_cli(*args)
    out = tmp_path / "c.csv"
    res = run_cli(*args, "--format", "csv", "--out", str(out))
    assert table.code == 0 and res.code == 0, table.err + res.err
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    lines = raw.decode("utf-8-sig").splitlines()
    header = lines[0].split(",")
    assert header[:8] == ["kind", "a", "b", "n", "mean", "se", "ci_low", "ci_high"] and all(h.isascii() for h in header)
    csv_rows = {}
    for line in lines[1:]:
        c = dict(zip(header, line.split(",")))
        if c["kind"] in ("strategy", "difference"):
            csv_rows[(c["kind"], c["a"], c["b"])] = [c["mean"], c["ci_low"], c["ci_high"]]
    shown = _table_numbers(table.out)
    assert shown and shown == csv_rows


def test_out_dir_results_folder_and_plots(tmp_path):
    from tianjiu_sim.output.strategy_plots import strategy_sections

    folder = tmp_path / "cmp"
    res = run_cli("compare", "--policies", "heuristic,greedy,random", "--deals", "600", "--seed", "3",
                  "--out-dir", str(folder), "--format", "json")
    assert res.code == 0, res.err
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["kind"] == "compare" and manifest["seed"] == 3 and manifest["command"]["deals"] == 600
    # the one results-folder format: the experiment driver's (chunks, fingerprint, status)
    assert manifest["tjsim_results"] == 1 and manifest["status"] == "complete" and manifest["config"]["measure"] == "compare"
    assert list((folder / "chunks").rglob("k*.json"))
    for name in ("compare_chunks.csv", "compare_distribution.csv", "compare_summary.csv"):
        assert (folder / name).is_file()
    sections = strategy_sections(tmp_path)
    assert len(sections) == 1 and "compare_means.png" in sections[0]
    for png in ("compare_means.png", "compare_distribution.png", "compare_convergence.png"):
        assert (folder / png).stat().st_size > 5000


def test_parquet_without_pyarrow_is_a_clear_error(monkeypatch, tmp_path):
    import pandas as pd

    from tianjiu_sim.output import results

    real = results.importlib.util.find_spec
    monkeypatch.setattr(results.importlib.util, "find_spec", lambda n, *a: None if n == "pyarrow" else real(n, *a))
    with pytest.raises(TjsimError, match="pyarrow"):
        results.write_frame(pd.DataFrame({"a": [1.0]}), tmp_path / "x.parquet")
    assert not (tmp_path / "x.parquet").exists()


@pytest.mark.parametrize("args,fragment", [
    (["--policies", "heuristic,nosuch"], "unknown strategy 'nosuch'"),
    (["--policies", "heuristic"], "at least two strategies"),
    (["--policies", "heuristic,heuristic"], "twice"),
    (["--policies", "heuristic,greedy", "--until-stderr", "-1"], "--until-stderr"),
    (["--policies", "heuristic,greedy", "--deals", "1"], "--deals"),
    (["--policies", "heuristic,greedy", "--method", "sideways"], "unknown method"),
])
def test_bad_input_is_one_line_and_exit_2(args, fragment):
    assert_user_error(run_cli("compare", *args), fragment)
