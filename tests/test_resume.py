"""Never lose work: SIGKILL mid-run then --resume equals an uninterrupted run; mismatches are refused."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, assert_user_error, run_cli

# wash:3000 makes each deal cost ~6000 draws, so the run lasts long enough to be killed mid-way
SLOW = """\
name = "resume_me"
measure = "deal_odds"
seed = {seed}
deals = 40000
chunk_size = 1000

[grid]
method = ["left", "heart"]
shuffle = ["wash:3000"]
"""


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under a folder with its bytes and modification time."""
    return {str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def chunk_files(folder: Path) -> list[Path]:
    """Finished chunk files of a results folder."""
    return sorted((folder / "chunks").rglob("k*.json"))


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """The slow experiment run start to finish."""
    tmp = tmp_path_factory.mktemp("full")
    exp = tmp / "slow.toml"
    exp.write_text(SLOW.format(seed=3), encoding="utf-8")
    res = run_cli("experiment", "run", str(exp), "--out", str(tmp / "out"), "--no-report")
    assert res.code == 0, res.err
    return tmp / "out"


def test_sigkill_then_resume_equals_uninterrupted(uninterrupted, tmp_path):
    exp = tmp_path / "slow.toml"
    exp.write_text(SLOW.format(seed=3), encoding="utf-8")
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "experiment", "run", str(exp), "--out", str(out),
                             "--workers", "2", "--no-report"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if (out / "chunks").exists() and len(chunk_files(out)) >= 6:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the run finished before it could be killed"
    finally:
        # kill -9 the whole run: the driver and its worker processes
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    done_before = len(chunk_files(out))
    total = 2 * 40
    assert 6 <= done_before < total
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["status"] == "running"
    assert not (out / "deal_odds.csv").exists()
    # a half-written temporary file, as a kill during a write would leave, is cleaned up
    stray = out / "chunks" / "c0000" / ".k999999.json.123.tmp"
    stray.parent.mkdir(parents=True, exist_ok=True)
    stray.write_text("{\"cell\": 0, \"tab", encoding="utf-8")

    res = run_cli("experiment", "run", str(exp), "--out", str(out), "--resume", "--no-report")
    assert res.code == 0, res.err
    assert not stray.exists()
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["status"] == "complete"
    last = manifest["sessions"][-1]
    # only the missing chunks ran: none lost, none counted twice
    assert last["resumed_with"] >= done_before
    assert last["resumed_with"] + last["chunks_run"] == total
    assert len(chunk_files(out)) == total
    assert (out / "deal_odds.csv").read_bytes() == (uninterrupted / "deal_odds.csv").read_bytes()


def test_resume_of_a_finished_folder_changes_nothing(uninterrupted):
    before = (uninterrupted / "deal_odds.csv").read_bytes()
    exp = uninterrupted.parent / "slow.toml"
    res = run_cli("experiment", "run", str(exp), "--out", str(uninterrupted), "--resume", "--no-report")
    assert res.code == 0, res.err
    manifest = json.loads((uninterrupted / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["sessions"][-1]["chunks_run"] == 0
    assert (uninterrupted / "deal_odds.csv").read_bytes() == before


def test_mismatched_resume_is_refused_and_nothing_overwritten(uninterrupted, tmp_path):
    other = tmp_path / "other.toml"
    other.write_text(SLOW.format(seed=4), encoding="utf-8")
    before = snapshot(uninterrupted)
    res = run_cli("experiment", "run", str(other), "--out", str(uninterrupted), "--resume")
    assert_user_error(res, "cannot --resume", "different experiment", "seed")
    assert snapshot(uninterrupted) == before
    # without --resume an existing results folder is never overwritten either
    res = run_cli("experiment", "run", str(other), "--out", str(uninterrupted))
    assert_user_error(res, "already holds results", "--resume")
    assert snapshot(uninterrupted) == before
    # nor is a folder that is not a results folder
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me", encoding="utf-8")
    res = run_cli("experiment", "run", str(other), "--out", str(tmp_path / "mine"))
    assert_user_error(res, "not an empty results folder")
    assert (tmp_path / "mine" / "notes.txt").read_text(encoding="utf-8") == "keep me"
