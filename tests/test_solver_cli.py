"""`tjsim solve`: output formats, trace prefixes (checked against the brute force) and bad input."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conftest import assert_user_error, run_cli
from tianjiu_sim.game.reference import play_deal_reference
from tianjiu_sim.game.rules import preset
from tianjiu_sim.kernels.position import position_from_trace

sys.path.insert(0, str(Path(__file__).parent))
from brute_force import brute_value  # noqa: E402

DEAL = ["solve", "--deal", "6-6 5-4 | 1-1 6-2 | 4-4 5-3 | 3-1 4-1", "--dong", "2,2,1,1", "--leader", "0"]


def test_solve_json_and_table():
    res = run_cli(*DEAL, "--format", "json")
    assert res.code == 0, res.err
    out = json.loads(res.out)
    assert out["seat"] == 0 and out["value"] == 16 and out["nodes"] > 0
    assert [a["tiles"] for a in out["actions"]] == [["6-6"], ["5-4"], ["6-6", "5-4"]]
    assert all(a["action"] == "lead" for a in out["actions"])
    res = run_cli(*DEAL, "--seat", "3")
    assert res.code == 0 and "Exact value for seat 3" in res.out and "-6" in res.out
    res = run_cli(*DEAL, "--format", "csv")
    assert res.out.splitlines()[0] == "action,tiles,value"
    small = json.loads(run_cli(*DEAL, "--format", "json", "--tt-bits", "16").out)
    assert small["value"] == out["value"] and small["actions"] == out["actions"]  # the table size: speed only
    for seat in ("0", "3"):
        whole = json.loads(run_cli(*DEAL, "--format", "json", "--seat", seat).out)
        res = run_cli(*DEAL, "--format", "json", "--seat", seat, "--value-only")
        assert res.code == 0, res.err
        alone = json.loads(res.out)
        assert "actions" not in alone and alone["value"] == whole["value"] and alone["seat"] == int(seat)
        assert alone["nodes"] < whole["nodes"]  # one search, not one per action
    for threads in ("1", "3"):  # the actions searched one or three at a time: the same answer and nodes
        assert json.loads(run_cli(*DEAL, "--format", "json", "--threads", threads).out) == out
    assert_user_error(run_cli(*DEAL, "--threads", "0"), "--threads must be at least 1")
    res = run_cli(*DEAL, "--value-only")
    assert res.code == 0 and "Exact value for seat 0" in res.out and ": 16" in res.out
    assert run_cli(*DEAL, "--value-only", "--format", "csv").out.splitlines()[0] == "seat,value,to_act,chance,nodes"


@pytest.mark.parametrize("rules,seed", [("folk", 3), ("hk", 4)])
def test_solve_trace_prefix_equals_brute_force(tmp_path, rules, seed):
    rs = preset(rules)
    trace = play_deal_reference(rs, None, seed, 0, ["random"] * rs.players)
    plays = [p for t in trace["tricks"] for p in t["plays"]]
    if not plays:
        pytest.skip("void deal")
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    at = max(0, len(plays) - 9)  # the last 2–3 tricks: small enough for the brute force
    pos = position_from_trace(rs, trace, at)
    seat = pos.to_act()
    res = run_cli("solve", "--rules", rules, "--trace", str(path), "--at", str(at), "--format", "json")
    assert res.code == 0, res.err
    got = json.loads(res.out)
    want = brute_value(rs, pos.hands, pos.dong, pos.leader, seat, pos.banker, pos.streak, pos.folded,
                       pos.trick, pos.has_led, pos.pending, pos.paid)
    assert got["seat"] == seat and abs(got["value"] - want) < 1e-6
    res = run_cli("solve", "--rules", rules, "--trace", str(path), "--at", str(at), "--format", "json",
                  "--value-only")
    assert res.code == 0 and abs(json.loads(res.out)["value"] - want) < 1e-6, res.err
    # Before the last play the value of the action actually played is the trace's result.
    last = len(plays) - 1
    res = run_cli("solve", "--rules", rules, "--trace", str(path), "--at", str(last), "--format", "json")
    out = json.loads(res.out)
    played = plays[last]
    match = [a for a in out["actions"] if sorted(a["tiles"]) == sorted(played["tiles"])
             and a["action"] == played["action"]]
    assert match and match[0]["value"] == trace["payments"][out["seat"]]


def test_solve_bad_input(tmp_path):
    assert_user_error(run_cli("solve", "--deal", "6-6 6-6 | 6-6 6-2 | 4-4 5-3 | 3-1 4-1", "--dong", "2,2,1,1",
                              "--leader", "0"), "6-6")
    assert_user_error(run_cli("solve", "--deal", "6-6 5-4 | 1-1 6-2 | 4-4 5-3 | 3-1", "--dong", "2,2,1,1",
                              "--leader", "0"), "add up")
    assert_user_error(run_cli("solve", "--deal", "6-6 5-4 | 1-1 6-2 | 4-4 5-3 | 3-1 4-1", "--dong", "2,2,1,2",
                              "--leader", "0"), "add up")
    assert_user_error(run_cli(*DEAL, "--seat", "4"), "--seat")
    assert_user_error(run_cli(*DEAL, "--tt-bits", "40"), "--tt-bits")
    assert_user_error(run_cli(*DEAL, "--max-nodes", "0"), "--max-nodes")
    assert_user_error(run_cli("solve", "--deal", "6-6 5-4 | 1-1 6-2 | 4-4 5-3 | 3-1 4-1", "--dong", "2,2,1,1",
                              "--leader", "9"), "--leader")
    assert_user_error(run_cli("solve", "--dong", "2,2,1,1"), "--deal")
    rs = preset("hk")
    trace = play_deal_reference(rs, None, 1, 0, ["random"] * 4)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    assert_user_error(run_cli("solve", "--trace", str(path), "--at", "32"), "--at")
    assert_user_error(run_cli("solve", "--trace", str(path)), "--at")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert_user_error(run_cli("solve", "--trace", str(bad), "--at", "3"), "JSON")


def test_solve_says_at_once_when_a_search_may_be_long():
    """From 20 tiles in hand (5 a hand) a solve may take seconds: one line on stderr first, none for endgames."""
    from tianjiu_sim.game.reference import deal_reference
    from tianjiu_sim.game.tiles import tile_list

    hands = [tile_list(h)[:5] for h in deal_reference(preset("hk"), 1, 3)]
    res = run_cli("solve", "--deal", " | ".join(" ".join(h) for h in hands), "--dong", "1,1,1,0", "--leader", "0",
                  "--format", "json")
    assert res.code == 0, res.err
    assert "exact search with 20 tiles in hand" in res.err and "actions of the seat to act" in res.err
    assert json.loads(res.out)["actions"]
    res = run_cli(*DEAL, "--format", "json")
    assert res.code == 0 and "exact search" not in res.err


def test_solve_max_nodes_shows_the_bounds_it_proved():
    """Under --max-nodes every value is exact or null with low/high bounds that hold the exact value."""
    deal = ["solve", "--deal", "6-6 5-4 3-1 | 1-1 6-2 4-4 | 5-5 5-3 2-2 | 3-1 4-1 6-5", "--dong", "2,1,1,1",
            "--leader", "1"]
    exact = json.loads(run_cli(*deal, "--format", "json").out)
    assert "low" not in exact and all("low" not in a for a in exact["actions"])  # default output unchanged
    seen_null = False
    for cap in ("1", "30", "300", "100000000"):
        res = run_cli(*deal, "--format", "json", "--max-nodes", cap)
        assert res.code == 0, res.err
        got = json.loads(res.out)
        for a, want in zip(got["actions"], exact["actions"], strict=True):
            assert a["tiles"] == want["tiles"]
            lo = -float("inf") if a["low"] is None else a["low"]
            hi = float("inf") if a["high"] is None else a["high"]
            assert lo <= want["value"] <= hi
            assert a["value"] is None or a["value"] == want["value"] == lo == hi
            seen_null |= a["value"] is None
        assert got["value"] is None or got["value"] == exact["value"]
    assert seen_null and got["value"] == exact["value"]  # small caps give up somewhere; a large one never
    res = run_cli(*deal, "--max-nodes", "1")
    assert res.code == 0 and "not exact: a search gave up at --max-nodes 1" in res.out
    csv = run_cli(*deal, "--format", "csv", "--max-nodes", "1").out.splitlines()
    assert csv[0] == "action,tiles,value,low,high"


# Full deal 425 of seed 1 (bench_solver.py), the dearest of deals 0-599 since stop 63: 55-65 M nodes, about 15 s on
# two threads, before every action is exact (benchmarks/README.md, stop 63).  Until stop 62 these tests used deal 49
# (2.0 G nodes at stop 38), which the close game's owed gaps now solve in 5 M nodes, a second or two.  The values
# `tjsim solve` gives when left to finish.
HARD_DEAL = ("6-6 4-4 2-2 6-5 6-1 6-3 5-4 5-3 | 6-6 1-1 3-1 5-5 6-4 6-2 4-2 3-2 | "
             "1-1 3-3 6-5 6-4 5-1 5-1 5-2 2-1 | 4-4 3-1 5-5 3-3 2-2 6-1 4-3 4-1")
HARD_VALUE = 12
HARD_VALUES = {"6-6": 0, "4-4": 12, "2-2": 12, "6-5": 12, "6-1": 12, "6-3": 12, "6-6 6-3": 0, "5-4": 12,
               "6-6 5-4": 0, "6-3 5-4": 0, "6-6 6-3 5-4": 0, "5-3": 12}


def test_solve_ctrl_c_stops_at_once_and_prints_what_it_solved():
    """SIGINT during a long solve: exit 130 within seconds, every finished value exact, the rest bounds."""
    import select
    import signal
    import subprocess
    import time

    from conftest import ROOT

    # the child must hear SIGINT even if this test runs where it is ignored (a background CI job):
    # the disposition is reset before exec, and Python then installs its own handler
    launch = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
              "os.execv(sys.executable, [sys.executable] + sys.argv[1:])")
    proc = subprocess.Popen([sys.executable, "-c", launch, str(ROOT / "cli.py"), "solve", "--deal", HARD_DEAL,
                             "--dong", "0,0,0,0", "--leader", "0", "--format", "json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
    try:
        notice = ""
        deadline = time.monotonic() + 600  # a cold numba cache compiles the solver first
        while "exact search" not in notice:
            assert time.monotonic() < deadline and proc.poll() is None, notice
            if select.select([proc.stderr], [], [], 1.0)[0]:
                notice += proc.stderr.readline()
        time.sleep(1.5)  # the search is under way
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        waited = time.monotonic() - sent
    finally:
        proc.kill()
    assert proc.returncode == 130, (out, err)
    assert waited < 10, waited  # not after the search in progress (minutes)
    assert err.strip().splitlines()[-1] == "tjsim: interrupted" and "Traceback" not in err
    got = json.loads(out)
    assert got["interrupted"] is True and got["value"] in (None, HARD_VALUE)  # the position's value comes first
    assert [" ".join(a["tiles"]) for a in got["actions"]] == list(HARD_VALUES)
    for a in got["actions"]:
        want = HARD_VALUES[" ".join(a["tiles"])]
        lo = -float("inf") if a["low"] is None else a["low"]
        hi = float("inf") if a["high"] is None else a["high"]
        assert lo <= want <= hi
        assert a["value"] is None or a["value"] == want == lo == hi
    assert got["actions"][-1]["value"] is None  # the last action was not reached in 1.5 s


def test_solve_max_time_shows_what_it_solved_in_time():
    """--max-time S: exit 0 after about S seconds of search, finished values exact, the rest bounds."""
    for extra, secs in (([], "1"), (["--value-only"], "0.02")):
        res = run_cli("solve", "--deal", HARD_DEAL, "--dong", "0,0,0,0", "--leader", "0", "--max-time", secs,
                      "--format", "json", *extra)
        assert res.code == 0, res.err
        got = json.loads(res.out)
        assert "interrupted" not in got
        if extra:  # the position's value alone takes minutes: bounds
            assert got["timed_out"] is True and got["value"] is None
            assert got.get("low") is None or got["low"] <= HARD_VALUE
            assert got.get("high") is None or got["high"] >= HARD_VALUE
            continue
        assert got["timed_out"] is True and got["value"] in (None, HARD_VALUE) and got["actions"][-1]["value"] is None
        for a in got["actions"]:
            want = HARD_VALUES[" ".join(a["tiles"])]
            assert a["value"] is None or a["value"] == want == a["low"] == a["high"]
    res = run_cli("solve", "--deal", HARD_DEAL, "--dong", "0,0,0,0", "--leader", "0", "--max-time", "1")
    assert res.code == 0 and "stopped at --max-time 1 s" in res.out
    res = run_cli(*DEAL, "--max-time", "30", "--format", "json")  # time to spare: the exact answer
    assert res.code == 0 and json.loads(res.out)["value"] == 16 and "timed_out" not in json.loads(res.out)
    for bad in ("0", "-2"):
        assert_user_error(run_cli(*DEAL, "--max-time", bad), "--max-time must be a positive number of seconds")
