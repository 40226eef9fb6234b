"""Settlement (RULES.md §5.1–5.3): every worked example of §5.5, through the API and `tjsim score`."""
import json

import pytest
from hypothesis import given, strategies as st

from tianjiu_sim.errors import TjsimError
from tianjiu_sim.game.rules import preset
from tianjiu_sim.game.settlement import settle

from conftest import assert_user_error

HK = preset("hk")

# (dong, closer, banker, streak, expected payments) — RULES.md §5.5.
TABLE_EXAMPLES = [
    ([1, 4, 0, 3], 3, 0, 1, [-6, 0, -5, 11]),
    ([1, 5, 0, 2], 3, 0, 1, [-6, 1, -5, 10]),
]


def _two_party(b_dong, a_banker=False, b_banker=False, streak=1):
    """Seed 003 examples: A (seat 0) closes, B (seat 1) is the one other player of interest.

    The remaining 戙 go to A and a third player so that the totals add up to 8; return B's payment.
    """
    rest = 8 - b_dong
    a = max(1, rest - 4)
    dong = [a, b_dong, 4 if rest - a >= 4 else rest - a, 0]
    dong[3] = 8 - sum(dong[:3])
    banker = 0 if a_banker else (1 if b_banker else 2)
    return settle(HK, dong, 0, banker, streak)[1]


@pytest.mark.parametrize("dong,closer,banker,streak,expected", TABLE_EXAMPLES)
def test_table_examples(dong, closer, banker, streak, expected):
    assert settle(HK, dong, closer, banker, streak) == expected


@pytest.mark.parametrize("kwargs,b_pays", [
    (dict(b_dong=0), 5), (dict(b_dong=6), -2), (dict(b_dong=4), 0),
    (dict(b_dong=6, b_banker=True, streak=2), -2),
    (dict(b_dong=1, b_banker=True, streak=1), 6),
    (dict(b_dong=0, b_banker=True, streak=1), 10),
    (dict(b_dong=0, b_banker=True, streak=2), 15),
    (dict(b_dong=0, a_banker=True, streak=1), 10),
    (dict(b_dong=0, a_banker=True, streak=2), 15),
    (dict(b_dong=3, a_banker=True, streak=3), 4),
    (dict(b_dong=5, a_banker=True, streak=1), -2),
])
def test_seed_003_examples(kwargs, b_pays):
    assert _two_party(**kwargs) == -b_pays


@pytest.mark.parametrize("dong,closer,banker,streak,expected", TABLE_EXAMPLES)
def test_table_examples_through_cli(cli, dong, closer, banker, streak, expected):
    res = cli("score", "--rules", "hk", "--dong", ",".join(map(str, dong)), "--closer", str(closer),
              "--banker", str(banker), "--streak", str(streak), "--format", "json")
    assert res.code == 0, res.err
    assert json.loads(res.out) == {"payments": expected, "closer": closer, "banker": banker, "streak": streak}


@pytest.mark.parametrize("kwargs,b_pays", [
    (dict(dong="2,0,2,4", banker=1, streak=2), 15),
    (dict(dong="2,6,0,0", banker=1, streak=2), -2),
    (dict(dong="3,3,1,1", banker=0, streak=3), 4),
])
def test_seed_003_examples_through_cli(cli, kwargs, b_pays):
    res = cli("score", "--dong", kwargs["dong"], "--closer", "0", "--banker", str(kwargs["banker"]),
              "--streak", str(kwargs["streak"]), "--format", "csv")
    assert res.code == 0, res.err
    lines = res.out.strip().splitlines()
    assert lines[0] == "seat,dong,payment"
    assert int(lines[2].split(",")[2]) == -b_pays


def test_folk_sweep_doubles():
    folk = preset("folk")
    assert settle(folk, [8, 0, 0, 0], 0) == [30, -10, -10, -10]  # (4 + 1) × 2 each
    assert settle(folk, [5, 3, 0, 0], 0) == [11, -1, -5, -5]


def test_folded_seats_neither_pay_nor_receive():
    folk = preset("folk")
    assert settle(folk, [5, 0, 3, 0], 0, folded=[1, 3]) == [1, 0, -1, 0]


@given(st.sampled_from(["hk", "folk2", "folk3", "folk4"]), st.data())
def test_settlement_is_zero_sum(name, data):
    rs = preset("hk") if name == "hk" else preset("folk", int(name[-1]))
    n, total = rs.players, rs.tiles_per_player
    cuts = sorted(data.draw(st.lists(st.integers(0, total), min_size=n - 1, max_size=n - 1)))
    dong = [b - a for a, b in zip([0] + cuts, cuts + [total])]
    closer = data.draw(st.sampled_from([i for i in range(n) if dong[i] > 0]))
    banker = data.draw(st.integers(0, n - 1))
    streak = data.draw(st.integers(1, 5))
    pay = settle(rs, dong, closer, banker, streak)
    assert sum(pay) == 0 and sum(dong) == total


@pytest.mark.parametrize("args,fragments", [
    (["--dong", "1,4,0", "--closer", "2"], ["--dong has 3 values"]),
    (["--dong", "1,4,0,2", "--closer", "3"], ["add up to 7", "(8)"]),
    (["--dong", "1,4,0,3", "--closer", "4"], ["--closer must be a seat 0 to 3"]),
    (["--dong", "1,4,0,3", "--closer", "3", "--banker", "-1"], ["--banker must be a seat 0 to 3"]),
    (["--dong", "1,4,0,3", "--closer", "3", "--streak", "0"], ["--streak must be at least 1"]),
    (["--dong", "1,4,x,3", "--closer", "3"], ["--dong must be integers"]),
    (["--dong", "1,4,0,3", "--closer", "2"], ["closer (seat 2)", "at least 1"]),
    (["--dong", "1,4,0,3"], ["Missing option '--closer'"]),
    (["--dong", "1,4,0,3", "--closer", "3", "--rules", "chess"], ["unknown rules 'chess'"]),
])
def test_score_bad_input(cli, args, fragments):
    assert_user_error(cli("score", *args), *fragments)


def test_api_errors():
    with pytest.raises(TjsimError, match="streak"):
        settle(HK, [1, 4, 0, 3], 3, 0, 0)


def test_bad_tiles_through_cli(cli):
    assert_user_error(cli("hand", "7-1 6-6"), "unknown tile '7-1'")
    assert_user_error(cli("hand", "6-6 6-6 6-6"), "'6-6' appears 3 times, a set has 2")
