"""`tjsim play` and `tjsim simulate`: output formats, determinism and bad input."""
from __future__ import annotations

import csv
import io
import json

import pytest

from conftest import assert_user_error, run_cli
from tianjiu_sim.game.rules import preset
from trace_validator import validate_trace

DEAL = ("6-6 6-6 6-3 5-4 1-1 1-1 6-2 5-3 | 4-4 4-4 5-2 4-3 3-1 3-1 3-2 4-1 | "
        "5-5 5-5 3-3 3-3 2-2 2-2 6-5 6-5 | 6-4 6-4 6-1 6-1 5-1 5-1 4-2 2-1")


def test_play_table_follows_the_deal():
    res = run_cli("play", "--rules", "hk", "--policies", "heuristic,greedy,greedy,random", "--seed", "7")
    assert res.code == 0, res.err
    assert "Trick 1 — seat 0 leads" in res.out
    assert "running 戙" in res.out and "Closer 結" in res.out and "Settlement" in res.out
    assert "teen" in res.out or "day" in res.out or "nine" in res.out  # English names
    # Nothing on stderr but, on a cold numba cache, the one-line compile notice.
    assert all(line.startswith("tjsim: compiling ") for line in res.err.splitlines()), res.err


def test_play_json_is_a_valid_trace_and_reproducible():
    args = ("play", "--rules", "folk", "--players", "3", "--policy", "heuristic", "--seed", "5", "--format", "json")
    a, b = run_cli(*args), run_cli(*args)
    assert a.code == 0, a.err
    assert a.out == b.out
    tr = json.loads(a.out)
    validate_trace(preset("folk", 3), tr)
    assert tr["seed"] == 5 and tr["players"] == 3


def test_play_given_deal():
    res = run_cli("play", "--deal", DEAL, "--policy", "greedy", "--format", "json")
    assert res.code == 0, res.err
    tr = json.loads(res.out)
    assert tr["hands"][0] == ["6-6", "6-6", "1-1", "1-1", "6-3", "5-4", "6-2", "5-3"]
    validate_trace(preset("hk"), tr)


@pytest.mark.parametrize("args,fragments", [
    (("--policy", "clever"), ("unknown strategy 'clever'", "random, greedy, heuristic")),
    (("--policies", "random,greedy"), ("2 policies", "4 players")),
    (("--policy", "random", "--policies", "random,random,random,random"), ("either --policy",)),
    (("--deal", "6-6 6-6 | 1-1"), ("2 hands", "4 players")),
    (("--deal", DEAL.replace("6-3", "6-6", 1)), ("'6-6' appears 3 times",)),
    (("--deal", DEAL.replace("2-1", "7-7")), ("unknown tile '7-7'",)),
    (("--deal", DEAL.replace(" 2-1", "")), ("hand 3 has 7 tiles",)),
    (("--method", "sideways"), ("unknown method 'sideways'",)),
    (("--seed", "-3"), ("--seed",)),
    (("--banker", "4"), ("--banker",)),
])
def test_play_bad_input(args, fragments):
    assert_user_error(run_cli("play", *args), *fragments)


def test_simulate_csv_columns_and_threads():
    base = ("simulate", "--rules", "hk", "--policies", "heuristic,greedy,greedy,random", "--deals", "3000",
            "--seed", "4", "--format", "csv")
    one, two = run_cli(*base, "--threads", "1"), run_cli(*base, "--threads", "2")
    assert one.code == 0, one.err
    assert one.out == two.out
    rows = list(csv.DictReader(io.StringIO(one.out)))
    assert list(rows[0])[:8] == ["seat", "policy", "deals", "mean_payment", "ci_low", "ci_high",
                                 "closer_rate", "mean_dong"]
    assert [r["policy"] for r in rows] == ["heuristic", "greedy", "greedy", "random"]
    # zero-sum and 8 戙 a deal, up to the CSV's rounding (6 decimals: half a unit of 1e-6 per seat)
    assert abs(sum(float(r["mean_payment"]) for r in rows)) <= len(rows) * 0.5e-6 + 1e-12
    assert abs(sum(float(r["mean_dong"]) for r in rows) - 8) <= len(rows) * 0.5e-6 + 1e-12


def test_simulate_table_json_and_trace(tmp_path):
    trace = tmp_path / "t.jsonl"
    res = run_cli("simulate", "--rules", "folk", "--policy", "greedy", "--deals", "2000", "--seed", "1",
                  "--trace", str(trace), "--trace-limit", "5", "--format", "json")
    assert res.code == 0, res.err
    out = json.loads(res.out)
    assert out["deals"] == 2000 and len(out["seats"]) == 4
    lines = trace.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 5
    for line in lines:
        validate_trace(preset("folk"), json.loads(line))
    table = run_cli("simulate", "--rules", "folk", "--policy", "greedy", "--deals", "2000", "--seed", "1")
    assert table.code == 0 and "mean_payment" in table.out and "Bonuses" in table.out


@pytest.mark.parametrize("args,fragments", [
    (("--deals", "0"), ("--deals",)),
    (("--policies", "a,b,c,d"), ("unknown strategy 'a'",)),
    (("--rules", "folk", "--players", "3", "--policies", "random,random,random,random"), ("3 players",)),
    (("--threads", "0"), ("--threads",)),
    (("--rules", "folk", "--players", "3", "--method", "left"), ("--method rounds",)),
])
def test_simulate_bad_input(args, fragments):
    assert_user_error(run_cli("simulate", *args), *fragments)


@pytest.mark.parametrize("cmd", ["play", "simulate", "solve", "advise", "review"])
def test_help_has_an_example(cmd):
    res = run_cli(cmd, "--help")
    assert res.code == 0 and "Example" in res.out and f"tjsim {cmd}" in res.out
