"""results/supreme_value/report.md: every headline sentence follows from the intervals it quotes."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("make_report", ROOT / "results" / "supreme_value" / "make_report.py")
make_report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_report)


def row(value, lo, hi):
    """A value with its 95% CI."""
    return {"value": value, "ci_low": lo, "ci_high": hi}


def test_sign_follows_the_interval():
    assert make_report.sign(row(0.3, 0.1, 0.5)) == 1
    assert make_report.sign(row(-0.3, -0.5, -0.1)) == -1
    assert make_report.sign(row(0.3, -0.1, 0.7)) == 0
    assert make_report.signed(row(0.01, -0.02, 0.04), "up", "down", "flat") == "flat"
    assert make_report.agreement(row(1, 0.5, 1.5), row(-1, -1.5, -0.5)) == "the two measurements disagree in sign"
    assert make_report.agreement(row(1, 0.5, 1.5), row(0.2, -0.1, 0.5)).startswith("at least one")
    assert make_report.differ(row(1, 0.9, 1.1), row(2, 1.9, 2.1))
    assert not make_report.differ(row(1, 0.9, 1.5), row(1.3, 1.2, 1.4))


def test_committed_report_is_what_the_numbers_say():
    """report.md holds exactly the text make_report derives from the committed value folders."""
    text = (ROOT / "results" / "supreme_value" / "report.md").read_text(encoding="utf-8")
    for line in make_report.report_lines():
        assert line in text, line
