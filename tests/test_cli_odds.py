"""`tjsim deal-odds` end to end: formats, determinism across threads, exact values, errors, plots."""
from __future__ import annotations

import csv
import io
import json

import pytest

from conftest import assert_user_error, run_cli

COLUMNS = ["event", "unit", "method", "shuffle", "trials", "hits", "probability", "ci_low", "ci_high", "exact"]


def _rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def test_csv_layout_and_exact():
    res = run_cli("deal-odds", "--method", "left,skin", "--deals", "5000", "--exact", "--format", "csv")
    assert res.code == 0, res.err
    assert res.out.splitlines()[0] == ",".join(COLUMNS)
    rows = _rows(res.out)
    assert len(rows) == 8 * 2
    by = {(r["event"], r["method"]): r for r in rows}
    sup = by[("supreme", "left")]
    assert sup["unit"] == "hand" and sup["trials"] == "20000" and float(sup["exact"]) == 56 / 992
    assert float(sup["ci_low"]) <= float(sup["probability"]) <= float(sup["ci_high"])
    assert by[("supreme_any", "skin")]["unit"] == "deal" and float(by[("supreme_any", "skin")]["exact"]) == 7 / 31
    assert by[("supreme_any", "skin")]["trials"] == "5000"


def test_same_seed_same_bytes_for_any_thread_count():
    args = ("deal-odds", "--method", "left,heart,rounds", "--shuffle", "perfect", "--shuffle", "riffle:2",
            "--deals", "9000", "--seed", "42", "--events", "all", "--format", "csv")
    one = run_cli(*args, "--threads", "1")
    two = run_cli(*args, "--threads", "2")
    assert one.code == 0 and two.code == 0, (one.err, two.err)
    assert one.out == two.out
    assert run_cli(*args[:-4], "--seed", "43", "--events", "all", "--format", "csv").out != one.out


def test_default_table_says_methods_do_not_matter_for_a_perfect_shuffle():
    res = run_cli("deal-odds", "--deals", "3000")
    assert res.code == 0, res.err
    assert "only changes which seat gets which tiles" in res.out
    assert "Homogeneity across methods (perfect)" in res.out and "p(same)" in res.out
    for event in ("supreme", "heaven_pair", "civil_pair", "military_pair", "quartet", "no_lao", "void_suit",
                  "supreme_any"):
        assert event in res.out


def test_json_has_homogeneity_and_note():
    res = run_cli("deal-odds", "--method", "all", "--deals", "2000", "--format", "json")
    assert res.code == 0, res.err
    data = json.loads(res.out)
    assert data["rules"] == "hk" and len(data["methods"]) == 11
    h = data["homogeneity"]["perfect"]
    assert 0 <= h["min_p"] <= 1 and "p_value" in h["events"]["supreme"]
    assert "not the distribution" in data["note"]
    assert len(data["rows"]) == 8 * 11


def test_wash_from_box_differs_between_methods():
    res = run_cli("deal-odds", "--shuffle", "wash:5", "--deals", "20000", "--format", "json")
    assert res.code == 0, res.err
    assert json.loads(res.out)["homogeneity"]["wash:5"]["bonferroni_p"] < 1e-6


def test_folk_three_players_rounds(tmp_path):
    out = tmp_path / "odds.csv"
    res = run_cli("deal-odds", "--rules", "folk", "--players", "3", "--deals", "3000", "--events", "core,lao",
                  "--format", "csv", "--out", str(out))
    assert res.code == 0, res.err
    rows = _rows(out.read_text(encoding="utf-8-sig"))
    assert {r["method"] for r in rows} == {"rounds"}
    assert rows[0]["trials"] == "9000"


def test_plots(tmp_path):
    png = tmp_path / "odds.png"
    res = run_cli("deal-odds", "--method", "left,right", "--deals", "2000", "--exact", "--plot", str(png))
    assert res.code == 0, res.err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    sweep = tmp_path / "sweep.png"
    res = run_cli("deal-odds", "--method", "left,skin", "--shuffle", "wash:0,5,20", "--deals", "2000",
                  "--plot", str(sweep), "--format", "json")
    assert res.code == 0, res.err
    assert sweep.read_bytes()[:4] == b"\x89PNG"
    dev = json.loads(res.out)["deviation"]
    assert {(d["shuffle"], d["method"]) for d in dev} == {(f"wash:{k}", m) for k in (0, 5, 20) for m in ("left", "skin")}


@pytest.mark.parametrize("args,fragments", [
    (["--method", "sideways"], ["unknown method 'sideways'", "left", "three-lions", "all"]),
    (["--events", "supreme,nonsense"], ["unknown event 'nonsense'", "supreme_any"]),
    (["--shuffle", "riffle:x"], ["riffle:x", "riffle:K"]),
    (["--shuffle", "shake"], ["unknown shuffle 'shake'"]),
    (["--deals", "0"], ["--deals"]),
    (["--deals", "-5"], ["--deals"]),
    (["--threads", "0"], ["--threads"]),
    (["--rules", "folk", "--players", "3", "--method", "left"], ["'left'", "4 players × 8 tiles", "rounds"]),
    (["--rules", "hk", "--players", "3"], ["players"]),
    (["--from", "played", "--shuffle", "wash:5", "--previous-policy", "bogus"], ["unknown strategy 'bogus'",
                                                                                 "heuristic"]),
    (["--from", "nowhere"], ["box, played"]),
    (["--format", "xml"], ["xml"]),
])
def test_bad_input_is_one_line_exit_2(args, fragments):
    assert_user_error(run_cli("deal-odds", *args, "--deals" if "--deals" not in args else "--seed",
                              "100" if "--deals" not in args else "1"), *fragments)
