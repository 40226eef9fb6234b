"""Bad input ends in exit 2 and one line naming what was wrong (issue 10 acceptance): no traceback, no silence."""
from __future__ import annotations

from conftest import assert_user_error, run_cli


def test_rules_file_not_utf8(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes('preset = "hk"\nname = "caf\xe9"\n'.encode("latin-1"))
    assert_user_error(run_cli("hand", "6-6", "--rules", str(path)), str(path), "not UTF-8")


def test_experiment_file_not_utf8(tmp_path):
    path = tmp_path / "exp.toml"
    path.write_bytes(b'measure = "deal_odds"\n# \xff\xfe\n')
    assert_user_error(run_cli("experiment", "validate", str(path)), str(path), "not UTF-8")


def test_hand_without_tiles():
    for empty in ("", "   "):
        assert_user_error(run_cli("hand", empty), "no tiles")


def test_score_takes_players_and_checks_dong():
    ok = run_cli("score", "--rules", "folk", "--players", "3", "--dong", "2,5,3", "--closer", "1",
                 "--format", "json")
    assert ok.code == 0, ok.err
    assert '"payments"' in ok.out
    assert_user_error(run_cli("score", "--rules", "folk", "--players", "3", "--dong", "1,4,0,3", "--closer", "1"),
                      "--dong has 4 values", "--players is 3")
    # --players the rule set does not allow: the rule set's own one-line error
    assert_user_error(run_cli("score", "--rules", "hk", "--players", "3", "--dong", "2,5,3", "--closer", "1"))
    # without --players the count still follows --dong
    same = run_cli("score", "--rules", "folk", "--dong", "2,5,3", "--closer", "1", "--format", "json")
    assert same.code == 0 and same.out == ok.out
