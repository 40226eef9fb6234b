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


def test_split_and_odds_answer_from_the_disk_cache_without_numba(tmp_path):
    """Once a profile's split file exists, `split` of any hand (and `odds`) runs without loading numba,
    and reads exactly what the kernels compute."""
    import os
    import subprocess
    import sys

    from tianjiu_sim.cli.paigow_cmd import _kept_split_rows
    from tianjiu_sim.game.tiles import parse_hand
    from tianjiu_sim.paigow import analysis
    from tianjiu_sim.paigow.profiles import load_profile

    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))  # a cache of its own: the first call makes it
    probe = ("import sys; sys.argv = ['tjsim'] + sys.argv[1:]\nfrom tianjiu_sim.cli import main\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "print('NUMBA' if 'numba' in sys.modules else 'NO-NUMBA', file=sys.stderr)")
    for args in (["split", "--profile", "yabao", "--hand", "6-6 4-4 3-1 2-1"], ["odds", "--profile", "kong"]):
        first = subprocess.run([sys.executable, "-c", probe, "paigow", *args], env=env, capture_output=True, text=True)
        again = subprocess.run([sys.executable, "-c", probe, "paigow", *args], env=env, capture_output=True, text=True)
        assert first.returncode == 0 and again.returncode == 0, first.stderr + again.stderr
        assert first.stdout == again.stdout and "NO-NUMBA" in again.stderr.splitlines()[-1]
    other = subprocess.run([sys.executable, "-c", probe, "paigow", "split", "--profile", "yabao", "--hand",
                            "5-5 3-2 6-1 4-4"], env=env, capture_output=True, text=True)
    assert other.returncode == 0 and "NO-NUMBA" in other.stderr  # any hand: the file holds them all
    os.environ["XDG_CACHE_HOME"], old = str(tmp_path), os.environ.get("XDG_CACHE_HOME")
    try:
        p = load_profile("yabao")
        for hand in ("6-6 4-4 3-1 2-1", "5-5 3-2 6-1 4-4", "1-1 1-1 2-2 2-2", "4-2 2-1 6-5 3-3"):
            assert _kept_split_rows(p, parse_hand(hand), "house") == analysis.split_rows(p, parse_hand(hand))
    finally:
        if old is None:
            del os.environ["XDG_CACHE_HOME"]
        else:
            os.environ["XDG_CACHE_HOME"] = old
