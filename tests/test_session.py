"""Sessions: 飛庄 banker succession, streaks, gathered-order reshuffles, session risk tables."""
import numpy as np
import pytest

from tianjiu_sim.errors import TjsimError
from tianjiu_sim.game.rules import preset
from tianjiu_sim.output.session_report import format_session
from tianjiu_sim.sim.session import gather_played, run_session, session_tables


@pytest.mark.parametrize("rules,kw", [("hk", {}), ("folk", {}),
                                      ("hk", {"method": "left", "shuffle": "riffle:2", "from_": "played"})])
def test_the_closer_becomes_banker_and_streaks_grow(rules, kw):
    r = run_session(preset(rules), ["heuristic", "greedy", "random", "heuristic"], 3, 60, 12, **kw)
    assert (r.banker[:, 0] == 0).all() and (r.streak[:, 0] == 1).all()
    for k in range(r.sessions):
        for g in range(1, r.length):
            prev_c, prev_b, prev_s = r.closer[k, g - 1], r.banker[k, g - 1], r.streak[k, g - 1]
            if prev_c < 0:  # void deal: bank and streak unchanged
                assert (r.banker[k, g], r.streak[k, g]) == (prev_b, prev_s)
            elif prev_c == prev_b:
                assert (r.banker[k, g], r.streak[k, g]) == (prev_b, prev_s + 1)
            else:
                assert (r.banker[k, g], r.streak[k, g]) == (prev_c, 1)
    assert (r.payments.sum(axis=2) == 0).all()


def test_hk_streak_multiplies_the_settlement():
    r = run_session(preset("hk"), ["heuristic"], 8, 300, 10)
    # the banker's loss as a non-closer is (B − 戙 (+1)) × (streak + 1): at streak s ≥ 2 some
    # payments exceed anything a streak-1 bank can lose (5 × 2 = 10 per opponent)
    b = r.banker
    banker_pay = np.take_along_axis(r.payments, b[..., None], axis=2)[..., 0]
    assert banker_pay[r.streak >= 3].min() < -10


def test_gathered_order_is_the_play_order_then_the_rest():
    rec = np.zeros((4, 4), dtype=np.int64)
    rec[0, 3] = (1 << 5) | (1 << 3)
    rec[1, 3] = 1 << 31
    rec[2, 3] = 1 << 0
    order = np.zeros(32, dtype=np.int64)
    gather_played(rec, 3, order)
    assert order[:4].tolist() == [3, 5, 31, 0]
    assert sorted(order.tolist()) == list(range(32))
    assert order[4:].tolist() == [b for b in range(32) if b not in (0, 3, 5, 31)]


def test_sessions_do_not_depend_on_threads_and_tables_add_up():
    kw = dict(method="left", shuffle="wash:20", from_="played")
    a = run_session(preset("hk"), ["heuristic"], 11, 40, 8, threads=1, **kw)
    b = run_session(preset("hk"), ["heuristic"], 11, 40, 8, threads=2, **kw)
    assert np.array_equal(a.payments, b.payments) and np.array_equal(a.banker, b.banker)
    t = session_tables(a)
    seats = t["session_seats"]
    assert np.allclose(seats["mean_per_deal"], a.payments.sum(axis=1).mean(axis=0) / 8)
    assert seats["banker_share"].sum() == pytest.approx(1.0)
    st = t["session_streaks"]
    assert st[st["measure"] == "deals_at_streak"]["count"].sum() == 40 * 8
    assert len(t["session_totals"]) == 40 * 4
    text = format_session(a, "hk", 11)
    assert "Banker streak" in text and "Reign lengths" in text
    csv = format_session(a, "hk", 11, "csv").splitlines()
    first = dict(zip(csv[0].split(","), csv[1].split(",")))
    row0 = next(line for line in text.splitlines() if line.strip().startswith("0  "))
    assert first["mean_per_deal"] in row0.split() and first["session_sd"] in row0.split()


def test_bad_session_length():
    with pytest.raises(TjsimError, match="--session"):
        run_session(preset("hk"), ["heuristic"], 1, 5, 0)


def test_session_results_folder_and_plot(tmp_path):
    from click.testing import CliRunner

    from tianjiu_sim.cli import main
    from tianjiu_sim.output.strategy_plots import strategy_sections

    res = CliRunner().invoke(main, ["simulate", "--rules", "folk", "--policy", "heuristic", "--seed", "2",
                                    "--session", "6", "--deals", "300", "--out-dir", str(tmp_path / "s")])
    assert res.exit_code == 0, res.output
    (section,) = strategy_sections(tmp_path)
    assert "s/session_risk.png" in section and (tmp_path / "s" / "session_risk.png").stat().st_size > 5000
