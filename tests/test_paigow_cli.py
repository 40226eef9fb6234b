"""`tjsim paigow`: output formats, the INTERFACES.md JSON keys, and bad input (exit 2, one line)."""
from __future__ import annotations

import json

import pytest
from conftest import assert_user_error, run_cli


def test_edge_json_keys():
    res = run_cli("paigow", "edge", "--profile", "vegas", "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    for k in ("profile", "player_way", "banker_way", "win", "push", "lose", "player_edge", "exact"):
        assert k in d
    assert d["exact"] is True and d["profile"] == "vegas"
    assert d["win"] + d["push"] + d["lose"] == pytest.approx(1.0)


def test_split_table_and_csv(tmp_path):
    res = run_cli("paigow", "split", "--profile", "vegas", "--hand", "6-6 4-4 3-1 2-1")
    assert res.code == 0, res.err
    assert "gong" in res.out and "True" in res.out
    out = tmp_path / "odds.csv"
    res = run_cli("paigow", "odds", "--profile", "kong", "--format", "csv", "--out", str(out))
    assert res.code == 0, res.err
    text = out.read_text(encoding="utf-8-sig")
    assert text.splitlines()[0] == "hand,class,dealt,win,push,lose,player_edge"
    assert len(text.splitlines()) == 152  # header + 151 distinct two-tile hands


def test_profile_file_and_set(tmp_path):
    f = tmp_path / "house.toml"
    f.write_text('profile = "kong"\nties = "banker"\n', encoding="utf-8")
    res = run_cli("paigow", "edge", "--profile", str(f), "--set", "commission=0.05", "--format", "json")
    assert res.code == 0, res.err
    assert json.loads(res.out)["player_edge"] < 0


@pytest.mark.parametrize("args,fragments", [
    (["split", "--profile", "vegas", "--hand", "6-6 4-4 3-1"], ["has 3 tiles", "deals 4"]),
    (["split", "--profile", "vegas", "--hand", "6-6 6-6 6-6 3-1"], ["'6-6' appears 3 times", "a set has 2"]),
    (["split", "--profile", "vegas", "--hand", "6-6 4-4 3-1 7-1"], ["unknown tile '7-1'"]),
    (["edge", "--profile", "poker"], ["unknown profile 'poker'", "kong, yabao, vegas"]),
    (["edge", "--profile", "vegas", "--set", "comission=0.04"], ["unknown key 'comission'", "commission"]),
    (["edge", "--profile", "vegas", "--set", "ties=house"], ["ties", "push, banker"]),
    (["edge", "--profile", "vegas", "--player-way", "best", "--banker-way", "best"], ["cannot both be 'best'"]),
    (["odds", "--profile", "vegas"], ["two-tile profile kong"]),
    (["edge", "--profile", "missing.toml"], ["profile file 'missing.toml' not found"]),
])
def test_bad_input_exit_2_one_line(args, fragments):
    assert_user_error(run_cli("paigow", *args), *fragments)
