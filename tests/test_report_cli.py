"""`tjsim report` on the folders of compare (analysis kinds) and on folders that are not results."""
from conftest import assert_user_error, run_cli


def test_report_on_a_compare_folder(tmp_path):
    out = tmp_path / "cmp"
    res = run_cli("compare", "--policies", "heuristic,greedy", "--deals", "400", "--out-dir", str(out))
    assert res.code == 0, res.err
    res = run_cli("report", str(out))
    assert res.code == 0, res.err
    text = (out / "report.md").read_text(encoding="utf-8")
    assert "Strategy comparison" in text and "compare_means.png" in text
    for png in ("compare_means.png", "compare_convergence.png", "compare_distribution.png"):
        assert (out / png).stat().st_size > 5000


def test_report_refuses_what_is_not_a_results_folder(tmp_path):
    assert_user_error(run_cli("report", str(tmp_path / "missing")), "not a results folder")
    assert_user_error(run_cli("report", str(tmp_path)), "not a results folder")
