"""`tjsim nine-cards`: deal odds (exact vs Monte Carlo), simulate, compare, advise, play, and bad input."""
from __future__ import annotations

import csv
import io
import json

import pytest

from tianjiu_sim.nine_cards.odds import exact_odds
from conftest import assert_user_error


def test_exact_odds_are_distributions():
    e = exact_odds(4)
    assert sum(e[f"pairs_{k}"] for k in range(5)) == 1
    assert sum(e[f"colours_{k}"] for k in range(1, 5)) == 1
    assert e["waiting_on_deal"] == e["pairs_4"]
    # one-colour hands: 28 cards of a colour, four colours
    from math import comb
    assert e["colours_1"] * comb(112, 9) == 4 * comb(28, 9)


@pytest.mark.parametrize("players", [4, 7])
def test_deal_odds_exact_equals_monte_carlo(cli, players):
    res = cli("nine-cards", "deal-odds", "--players", str(players), "--deals", "200000", "--seed", "3",
              "--format", "csv")
    assert res.code == 0, res.err
    rows = list(csv.DictReader(io.StringIO(res.out.lstrip("\ufeff"))))
    assert list(rows[0])[:9] == ["event", "unit", "players", "trials", "hits", "probability", "ci_low", "ci_high",
                                 "exact"]
    events = {r["event"]: r for r in rows}
    for ev in ("banker_wins_on_deal", "waiting_on_deal", "pairs_0", "pairs_1", "pairs_2", "pairs_3", "pairs_4",
               "colours_1", "colours_2", "colours_3", "colours_4"):
        r = events[ev]
        assert r["exact"] != ""
        p, n = float(r["exact"]), int(r["trials"])
        se = (p * (1 - p) / n) ** 0.5
        assert abs(float(r["probability"]) - p) <= 4 * se + 1e-12, (ev, r)
    assert events["banker_wins_on_deal"]["unit"] == "deal"
    assert int(events["pairs_0"]["trials"]) == 200000 * (players - 1)


def test_simulate_sessions_and_outputs(cli, tmp_path):
    res = cli("nine-cards", "simulate", "--players", "5", "--policies", "heuristic,greedy,random,greedy,heuristic",
              "--deals", "4000", "--session", "20", "--format", "json", "--out-dir", str(tmp_path / "r"))
    assert res.code == 0, res.err
    r = json.loads(res.out)
    assert len(r["seats"]) == 5 and r["deals"] == 4000 and r["session"] == 20
    assert abs(sum(s["mean_payment"] for s in r["seats"])) < 1e-9
    assert 0 < r["draw_rate"]["rate"] < 0.1 and sum(r["win_types"].values()) == pytest.approx(1)
    assert sum(s["banker_rate"] for s in r["seats"]) == pytest.approx(1)
    for f in ("seats.csv", "tou_distribution.csv", "colour_distribution.csv", "summary.json", "report.md",
              "tou_distribution.png", "colour_distribution.png", "manifest.json"):
        assert (tmp_path / "r" / f).exists(), f
    res = cli("nine-cards", "simulate", "--deals", "2000", "--format", "csv")
    assert res.out.lstrip("\ufeff").startswith("seat,policy,deals,mean_payment,ci_low,ci_high,win_rate")


def test_compare_and_play_and_advise(cli):
    res = cli("nine-cards", "compare", "--policies", "random,heuristic", "--deals", "3000", "--format", "json")
    assert res.code == 0, res.err
    r = json.loads(res.out)
    assert [s["policy"] for s in r["strategies"]] == ["random", "heuristic"]
    d = r["differences"][0]
    assert d["a"] == "random" and d["ci_high"] < 0  # the heuristic is clearly better
    res = cli("nine-cards", "play", "--seed", "7", "--deals", "2")
    lines = res.out.strip().splitlines()
    assert res.code == 0 and len(lines) == 2
    t = json.loads(lines[0])
    assert t["game"] == "nine_cards" and len(t["hands"][0]) == 10 and sum(t["payments"]) == 0
    res = cli("nine-cards", "advise", "--hand", "紅帥 紅帥 紅仕 紅仕 黃帥 黃帥 黃仕 黃仕 青將 白卒",
              "--worlds", "300", "--format", "json")
    assert res.code == 0, res.err
    a = json.loads(res.out)
    assert sorted(x["card"] for x in a["actions"]) == ["白卒", "青將"]
    assert all(0 <= x["p_win"] <= 1 and x["ci_low"] <= x["mean"] <= x["ci_high"] for x in a["actions"])


@pytest.mark.parametrize("args,fragment", [
    (("advise", "--hand", "紅帥 紅帥 紅X"), "unknown card '紅X'"),
    (("advise", "--hand", "紅帥 紅帥 紅帥 紅帥 紅帥 黃帥 黃帥 黃仕 黃仕 青將"), "5 copies of 紅帥"),
    (("advise", "--hand", "紅帥 紅帥 紅仕"), "wrong size"),
    (("simulate", "--players", "8"), "4 to 7"),
    (("deal-odds", "--players", "3"), "4 to 7"),
    (("simulate", "--policy", "smart"), "unknown strategy 'smart'"),
    (("compare", "--policies", "greedy"), "at least two"),
])
def test_bad_input_is_one_line(cli, args, fragment):
    assert_user_error(cli("nine-cards", *args), fragment)
