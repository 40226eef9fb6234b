"""Experiments: config validation, grid and seeds, identical results for any workers/chunks, report."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from conftest import assert_user_error, run_cli

ODDS = """\
name = "odds_small"
measure = "deal_odds"
seed = 11
deals = 6000
chunk_size = {chunk}

[grid]
method = ["left", "skin"]
shuffle = ["perfect", "wash:10"]

[options]
events = ["supreme", "heaven_pair", "supreme_any"]
"""


def write(tmp: Path, name: str, text: str) -> Path:
    """Write an experiment file and return its path."""
    p = tmp / name
    p.write_text(text, encoding="utf-8")
    return p


def result_files(folder: Path) -> dict[str, bytes]:
    """The result files that must be identical between runs (not the timing manifest or PNGs).

    report.md names the experiment file it came from; that line is left out.
    """
    out = {}
    for p in sorted(folder.iterdir()):
        if p.suffix == ".csv":
            out[p.name] = p.read_bytes()
        elif p.suffix == ".md":
            out[p.name] = b"\n".join(l for l in p.read_bytes().splitlines() if not l.startswith(b"- reproduce"))
    return out


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory):
    """One uninterrupted single-process run of the small odds experiment."""
    tmp = tmp_path_factory.mktemp("ref")
    exp = write(tmp, "odds.toml", ODDS.format(chunk=1000))
    res = run_cli("experiment", "run", str(exp), "--out", str(tmp / "out"), "--workers", "1")
    assert res.code == 0, res.err
    return tmp / "out"


def test_results_folder_contents(reference_run):
    out = reference_run
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["status"] == "complete"
    assert manifest["seed"] == 11 and manifest["config"]["measure"] == "deal_odds"
    assert manifest["chunks_total"] == 4 * 6 and manifest["deals_total"] == 4 * 6000
    assert {"tianjiu_sim", "numpy", "numba", "python"} <= set(manifest["versions"])
    assert manifest["started"] and manifest["finished"] and manifest["throughput"]["deals_per_second"] > 0
    for f in ("deal_odds.csv", "report.md", "deal_odds.png"):
        assert (out / f).exists(), f
    header = (out / "deal_odds.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("event,unit,method,shuffle,trials,hits,probability,ci_low,ci_high,exact")
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "deal_odds.png" in report and "seed: 11" in report


def test_identical_for_workers_and_chunk_size(reference_run, tmp_path):
    ref = result_files(reference_run)
    exp2 = write(tmp_path, "odds.toml", ODDS.format(chunk=1000))
    res = run_cli("experiment", "run", str(exp2), "--out", str(tmp_path / "w2"), "--workers", "2")
    assert res.code == 0, res.err
    assert result_files(tmp_path / "w2") == ref
    # another chunk size: a different fingerprint, the same numbers
    exp3 = write(tmp_path, "odds3.toml", ODDS.format(chunk=2500))
    res = run_cli("experiment", "run", str(exp3), "--out", str(tmp_path / "c3"), "--no-report")
    assert res.code == 0, res.err
    assert (tmp_path / "c3" / "deal_odds.csv").read_bytes() == ref["deal_odds.csv"]


def test_exact_values_and_interval(reference_run):
    import pandas as pd

    df = pd.read_csv(reference_run / "deal_odds.csv")
    perfect = df[df["shuffle"] == "perfect"]
    # 至尊 in a hand of 8 from 32: C(30,6)/C(32,8) = 8·7/(32·31)
    sup = perfect[perfect["event"] == "supreme"]
    assert np.allclose(sup["exact"], 56 / 992)
    assert ((sup["ci_low"] <= sup["exact"] + 0.01) & (sup["exact"] - 0.01 <= sup["ci_high"])).all()
    assert df[df["shuffle"] != "perfect"]["exact"].isna().all()
    assert (df["hits"] <= df["trials"]).all()


def test_cell_seeds_spawn():
    from tianjiu_sim.experiments.experiment import cell_seed

    seeds = [cell_seed(5, i) for i in range(4)]
    children = np.random.SeedSequence(5).spawn(4)
    assert seeds == [int(c.generate_state(1, np.uint64)[0] >> np.uint64(1)) for c in children]
    assert len(set(seeds)) == 4 and all(0 <= s < 2 ** 63 for s in seeds)


def test_chunks_cover_every_deal_once(tmp_path):
    from tianjiu_sim.experiments.experiment import load_experiment

    exp = load_experiment(write(tmp_path, "e.toml", ODDS.format(chunk=700)))
    for cell in exp.cells:
        spans = [(a, b) for c, _, a, b in exp.chunks() if c == cell["cell"]]
        assert spans[0][0] == 0 and spans[-1][1] == cell["deals"]
        assert all(b1 == a2 for (_, b1), (a2, _) in zip(spans, spans[1:]))


def test_players_axis(tmp_path):
    from tianjiu_sim.experiments.experiment import load_experiment

    exp = load_experiment(write(tmp_path, "p.toml", 'measure = "payments"\nseed = 1\ndeals = 5\n[grid]\n'
                                                    'rules = ["folk"]\nplayers = [2, 3, 4]\n'))
    assert [c["players"] for c in exp.cells] == [2, 3, 4]
    assert [len(c["strategies"]) for c in exp.cells] == [2, 3, 4]
    assert [c["rule_settings"]["tiles_per_player"] for c in exp.cells] == [10, 10, 8]
    assert all(c["overrides"] == {} and c["method"] == "rounds" for c in exp.cells)


def test_grid_axes_and_rule_overrides(tmp_path):
    from tianjiu_sim.experiments.experiment import load_experiment

    exp = load_experiment(write(tmp_path, "g.toml", """\
measure = "payments"
seed = 1
[grid]
rules = ["hk", "mine"]
supreme_bonus = [0, 2]
strategies = ["random", ["greedy", "random", "random", "random"]]
deals = [10, 20]
[rulesets.mine]
preset = "hk"
quartet_bonus = 4
"""))
    assert len(exp.cells) == 2 * 2 * 2 * 2
    c = exp.cells[-1]
    assert c["rules"] == "mine" and c["overrides"] == {"supreme_bonus": 2} and c["deals"] == 20
    assert c["rule_settings"]["quartet_bonus"] == 4 and c["rule_settings"]["supreme_bonus"] == 2
    assert c["strategies"] == ["greedy", "random", "random", "random"]
    assert exp.cells[0]["strategies"] == ["random"] * 4


BAD = {
    "unknown_key": ('measure = "deal_odds"\nseed = 1\ndeals = 10\nchunk = 5\n', ["bad.toml:4", "'chunk'", "chunk_size"]),
    "wrong_type": ('measure = "deal_odds"\nseed = "one"\ndeals = 10\n', ["bad.toml:2", "'seed'", "integer"]),
    "unknown_method": ('measure = "deal_odds"\nseed = 1\ndeals = 10\n[grid]\nmethod = ["left", "lft"]\n',
                       ["bad.toml:5", "'grid.method'", "'lft'"]),
    "unknown_strategy": ('measure = "payments"\nseed = 1\ndeals = 10\n[grid]\nstrategies = [\n  "random",\n'
                         '  "heuristik",\n]\n', ["bad.toml:7", "'grid.strategies'", "heuristic"]),
    "empty_grid": ('measure = "deal_odds"\nseed = 1\ndeals = 10\n[grid]\nshuffle = []\n',
                   ["bad.toml:5", "'grid.shuffle'", "empty grid"]),
    "unknown_measure": ('measure = "odds"\nseed = 1\ndeals = 10\n', ["bad.toml:1", "'measure'", "deal_odds"]),
    "unknown_rules": ('measure = "deal_odds"\nseed = 1\ndeals = 10\n[grid]\nrules = ["hkk"]\n',
                      ["bad.toml:5", "'grid.rules'", "'hk'"]),
    "bad_players": ('measure = "deal_odds"\nseed = 1\ndeals = 10\n[grid]\nplayers = [3]\n',
                    ["bad.toml:5", "'grid.players'", "3 players"]),
    "bad_ruleset_key": ('measure = "deal_odds"\nseed = 1\ndeals = 10\n[grid]\nrules = ["x"]\n'
                        '[rulesets.x]\npreset = "hk"\nsupreme_bonsu = 2\n',
                        ["bad.toml:8", "'rulesets.x.supreme_bonsu'", "supreme_bonus"]),
    "method_misfit": ('measure = "deal_odds"\nseed = 1\ndeals = 10\n[grid]\nrules = ["folk"]\nplayers = [3]\n'
                      'method = ["rounds", "left"]\n', ["bad.toml:7", "'grid.method'", "4 players × 8 tiles"]),
    "bad_pair": ('measure = "strategy_ladder"\nseed = 1\ndeals = 10\n[options]\n'
                 'pairs = [["greedy", "greedy"]]\n', ["bad.toml:5", "'options.pairs'", "two different strategies"]),
    "unknown_pair_strategy": ('measure = "strategy_ladder"\nseed = 1\ndeals = 10\n[options]\n'
                              'pairs = [["greedy", "heuristik"]]\n', ["bad.toml:5", "'options.pairs'", "'heuristik'"]),
    "pairs_and_ladder": ('measure = "strategy_ladder"\nseed = 1\ndeals = 10\n[options]\nladder = ["random", "greedy"]\n'
                         'pairs = [["greedy", "random"]]\n', ["bad.toml:6", "'options.pairs'", "not both"]),
    "unused_axis": ('measure = "deal_odds"\nseed = 1\ndeals = 10\n[grid]\nstrategies = ["random"]\n',
                    ["bad.toml:5", "'grid.strategies'", "does not use"]),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_files_exit_2_with_file_line_key(case, tmp_path):
    text, fragments = BAD[case]
    path = write(tmp_path, "bad.toml", text)
    res = run_cli("experiment", "run", str(path), "--out", str(tmp_path / "o"))
    assert_user_error(res, *fragments)
    assert not (tmp_path / "o").exists()
    from tianjiu_sim.experiments.experiment import parse_experiment

    exp, problems = parse_experiment(path)
    assert exp is None and problems
    assert all(f in problems[0] for f in fragments), problems


def test_validate_reports_every_problem(tmp_path):
    path = write(tmp_path, "many.toml", """\
measure = "payments"
seed = -1
deals = "many"
colour = "red"
[grid]
method = ["lft"]
strategies = ["randum"]
shuffle = []
""")
    res = run_cli("experiment", "validate", str(path))
    assert res.code == 2 and "Traceback" not in res.err
    lines = res.err.strip().splitlines()
    assert len(lines) >= 5, res.err
    for frag in ("many.toml:2: key 'seed'", "many.toml:3: key 'deals'", "many.toml:4: key 'colour'",
                 "many.toml:6: key 'grid.method'", "many.toml:7: key 'grid.strategies'",
                 "many.toml:8: key 'grid.shuffle'"):
        assert frag in res.err, (frag, res.err)
    # run stops at the first, on one line
    assert_user_error(run_cli("experiment", "run", str(path), "--out", str(tmp_path / "o")), "many.toml:2")


def test_validate_ok_and_shipped_experiments():
    root = Path(__file__).resolve().parent.parent
    for exp in sorted((root / "experiments").glob("*.toml")):
        res = run_cli("experiment", "validate", str(exp))
        assert res.code == 0, (exp, res.err)
        assert "ok" in res.out


def test_report_command(reference_run, tmp_path):
    res = run_cli("report", str(reference_run))
    assert res.code == 0, res.err
    assert (reference_run / "report.md").exists()
    assert_user_error(run_cli("report", str(tmp_path)), "not a results folder")
    assert_user_error(run_cli("report", str(tmp_path / "missing")), "not a results folder")


def test_ladder_pairs_are_head_to_head_fields(tmp_path):
    """Each pair of the `pairs` option is played exactly as a ladder of those two strategies alone."""
    pytest.importorskip("tianjiu_sim.sim.runner")
    from tianjiu_sim.experiments.experiment import parse_experiment
    from tianjiu_sim.experiments.measures import ladder_chunk

    path = write(tmp_path, "pairs.toml", """\
measure = "strategy_ladder"
seed = 3
deals = 60
[grid]
rules = ["hk", "folk3", "folk2"]
[rulesets.folk3]
preset = "folk"
players = 3
[rulesets.folk2]
preset = "folk"
players = 2
[options]
pairs = [["heuristic", "greedy"], ["greedy", "random"]]
""")
    exp, problems = parse_experiment(path)
    assert not problems, problems
    for cell in exp.cells:
        both = ladder_chunk(dict(cell, options=exp.options), 7, 10, 70)["strategy_ladder"]
        for a, b in (("heuristic", "greedy"), ("greedy", "random")):
            alone = ladder_chunk(dict(cell, options={"ladder": [a, b]}), 7, 10, 70)["strategy_ladder"]
            got = both[both["field"] == f"{a} vs {b}"].drop(columns="field").reset_index(drop=True)
            assert (alone["field"] == "all").all()
            assert got.equals(alone.drop(columns="field")), (cell["players"], a, b)
            d = got[got["kind"] == "difference"].iloc[0]
            assert (d["a"], d["b"]) == (a, b) and d["sum"] != 0


def test_engine_measures_run(tmp_path):
    """The engine plug-ins (payments, strategy ladder, bonus value) run and combine."""
    import pandas as pd

    pytest.importorskip("tianjiu_sim.sim.runner")
    path = write(tmp_path, "lad.toml", """\
measure = "strategy_ladder"
seed = 2
deals = 120
chunk_size = 50
[grid]
rules = ["hk", "folk"]
[options]
ladder = ["random", "greedy"]
""")
    res = run_cli("experiment", "run", str(path), "--out", str(tmp_path / "lad"))
    assert res.code == 0, res.err
    df = pd.read_csv(tmp_path / "lad" / "strategy_ladder.csv")
    s = df[df["kind"] == "strategy"]
    # duplicate rotation: with two strategies on four seats every deal sums to zero over the ladder
    for _, g in s.groupby("cell"):
        assert abs(g["sum"].sum()) == 0
    assert (tmp_path / "lad" / "strategy_ladder.png").exists()
    path = write(tmp_path, "bon.toml", """\
measure = "bonus_value"
seed = 2
deals = 200
chunk_size = 70
[grid]
rules = ["folk"]
strategies = ["greedy"]
""")
    res = run_cli("experiment", "run", str(path), "--out", str(tmp_path / "bon"), "--workers", "2")
    assert res.code == 0, res.err
    df = pd.read_csv(tmp_path / "bon" / "bonus_value.csv")
    assert list(df["holding"]) == ["supreme", "no_supreme", "quartet", "no_quartet", "any"]
    assert int(df.loc[df["holding"] == "any", "n"].iloc[0]) == 200 * 4
    assert int(df.loc[df["holding"] == "any", "pay_sum"].iloc[0]) == 0  # zero-sum
    # clustered by deal: zero-sum deals make the mean over all seats exactly 0, with no spread
    assert df.loc[df["holding"] == "any", "mean_payment_se"].iloc[0] == 0
    assert int(df.loc[df["holding"] == "any", "n_deals"].iloc[0]) == 200
    assert df.loc[df["holding"] == "supreme", "value_se"].iloc[0] > 0
