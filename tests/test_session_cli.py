"""`tjsim simulate --session G`: evenings of G deals with the banker succession (飛庄)."""
import json

from conftest import assert_user_error, run_cli


def test_simulate_session_json_and_results_folder(tmp_path):
    args = ["simulate", "--rules", "hk", "--policy", "greedy", "--session", "8", "--deals", "400", "--seed", "3"]
    res = run_cli(*args, "--format", "json", "--out-dir", str(tmp_path / "ses"))
    assert res.code == 0, res.err
    data = json.loads(res.out)
    assert data["sessions"] == 50
    assert json.loads((tmp_path / "ses" / "manifest.json").read_text(encoding="utf-8"))["kind"] == "session"
    assert run_cli(*args, "--format", "json", "--threads", "1").out == res.out


def test_simulate_session_bad_input():
    assert_user_error(run_cli("simulate", "--session", "0", "--deals", "10"), "--session")
    assert_user_error(run_cli("simulate", "--session", "20", "--deals", "10"), "at least one session")
    assert_user_error(run_cli("simulate", "--from", "played", "--deals", "10"), "--session")
