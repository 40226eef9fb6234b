"""Shared test helpers: run the CLI in-process and capture exit code and streams."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


class Result:
    """Exit code, stdout and stderr of one CLI run."""

    def __init__(self, code: int, out: str, err: str):
        self.code, self.out, self.err = code, out, err


def run_cli(*args: str, cwd: str | os.PathLike | None = None) -> Result:
    """Run `python cli.py ARGS` in a subprocess (the real entry point, real exit codes)."""
    proc = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True,
                          text=True, cwd=cwd, encoding="utf-8")
    return Result(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def cli():
    """The run_cli helper as a fixture."""
    return run_cli


def assert_user_error(res: Result, *fragments: str) -> None:
    """Exit code 2, exactly one line on stderr, no traceback, and the fragments in it."""
    assert res.code == 2, (res.code, res.out, res.err)
    lines = res.err.strip().splitlines()
    assert len(lines) == 1, res.err
    assert "Traceback" not in res.err
    for f in fragments:
        assert f in lines[0], (f, lines[0])


# Files whose first test compiles a large kernel (the search engine, the play engine, the
# nine-cards and compare-game kernels) start first: with two xdist workers (one file per worker
# at a time) those compiles then overlap with each other and with the many quick files instead
# of leaving one worker compiling alone at the end.
_FIRST = ("test_search.py", "test_cli_play.py", "test_interactive.py", "test_nine_cards_cli.py",
          "test_review.py", "test_compare.py", "test_nine_cards.py", "test_solver.py", "test_paigow_cli.py")


def pytest_collection_modifyitems(session, config, items):
    """Run the files of _FIRST first, in that order; the rest keep their order."""
    rank = {name: i for i, name in enumerate(_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(_FIRST)))
