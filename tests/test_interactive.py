"""`tjsim play --interactive` driven through a pseudo-terminal: a whole deal with legal and illegal
input, advice and a take-back; the saved trace replays to the payments shown; EOF and Ctrl-C."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from conftest import assert_user_error, run_cli
from tianjiu_sim.game.reference import replay
from tianjiu_sim.game.rules import load_rules

ROOT = Path(__file__).resolve().parent.parent


def _spawn(*args: str) -> pexpect.spawn:
    child = pexpect.spawn(sys.executable, [str(ROOT / "cli.py"), "play", "--interactive", *args],
                          encoding="utf-8", timeout=900, cwd=str(ROOT))
    return child


def _answer(screen: str) -> str:
    """A legal choice for the decision on screen: the first numbered action, else the first tiles."""
    last = screen[screen.rfind("Your hand:"):]
    if "  1) " in last:
        return "1"
    size = int(re.search(r"discard (\d) tile", last).group(1))
    hand = re.search(r"Your hand: ([0-9\- ]+)", last).group(1).split()
    return "d " + " ".join(hand[:size])


@pytest.mark.parametrize("rules,players,seat", [("hk", 4, 1), ("folk", 4, 2)])
def test_whole_deal_with_illegal_input_advice_and_undo(tmp_path, rules, players, seat):
    trace_path = tmp_path / "t.json"
    child = _spawn("--rules", rules, "--seat", str(seat), "--seed", "3", "--trace", str(trace_path))
    decisions, undone, refused, advised = 0, False, False, False
    while True:
        i = child.expect([r"\n> ", "trace saved", pexpect.EOF])
        if i != 0:
            break
        screen = child.before
        if "fold? [y/n]" in screen[-120:]:
            child.sendline("maybe")
            child.expect("not allowed: answer y")
            child.expect(r"\n> ")
            child.sendline("n")
            continue
        if not refused:
            child.sendline("d 9-9")  # not a tile: refused with a reason, asked again
            child.expect("not allowed")
            refused = True
            continue
        if not advised:
            child.sendline("?")
            child.expect(r"advice \(pimc")
            advised = True
            continue
        decisions += 1
        if decisions == 2 and not undone:
            child.sendline("u")
            child.expect("taking back your last decision")
            undone = True
            decisions = 0
            continue
        child.sendline(_answer(screen))
    assert i == 1, child.before
    child.expect(pexpect.EOF)
    out = child.before
    assert refused and advised and undone and "Traceback" not in out
    trace = json.loads(trace_path.read_text(encoding="utf-8"))
    again = replay(load_rules(rules, players), trace)
    assert again["payments"] == trace["payments"]
    assert trace["policies"][seat] == "person"


def test_end_of_input_and_ctrl_c(tmp_path):
    res = subprocess.run([sys.executable, str(ROOT / "cli.py"), "play", "--interactive", "--seat", "0"],
                         input="", capture_output=True, text=True, encoding="utf-8", cwd=str(ROOT))
    lines = [x for x in res.stderr.strip().splitlines() if not x.startswith("tjsim: compiling")]
    assert res.returncode == 2 and len(lines) == 1, res.stderr
    assert "input ended" in res.stderr and "Traceback" not in res.stderr
    child = _spawn("--seat", "0", "--seed", "4")
    child.expect(r"\n> ")
    child.sendintr()
    child.expect(pexpect.EOF, timeout=120)
    child.close()
    assert "Traceback" not in child.before and child.exitstatus in (130, None)


def test_interactive_bad_input():
    assert_user_error(run_cli("play", "--interactive", "--seat", "7"), "--seat")
    assert_user_error(run_cli("play", "--interactive", "--deal", "6-6 | 1-1"), "--interactive")
    assert_user_error(run_cli("play", "--trace", "x.json"), "--interactive")
