"""`tjsim value`: features, the counterfactual exchange, the component split, bonus sweeps, errors."""
import json

import numpy as np
import pytest

from conftest import assert_user_error, run_cli
from tianjiu_sim.errors import TjsimError
from tianjiu_sim.game.rules import preset
from tianjiu_sim.game.tiles import kind_mask, parse_deal, popcount
from tianjiu_sim.sim.value import exchange, holdings, parse_bonus, parse_feature, run_value, value_summary

DEAL = ("6-6 6-6 4-2 2-1 5-5 3-3 2-2 6-5 | 1-1 1-1 4-4 4-4 3-1 3-1 6-4 6-4 | "
        "6-3 5-4 6-2 5-3 5-2 4-3 3-2 4-1 | 6-1 6-1 5-1 5-1 5-5 3-3 2-2 6-5")


@pytest.mark.parametrize("feature", ["supreme", "heaven_pair", "6-6", "quartet"])
def test_counterfactual_exchange_keeps_every_other_tile_in_place_and_hand_sizes(feature):
    hands = np.array([parse_deal(DEAL, 4, 8)], dtype=np.int64)
    if feature == "quartet":  # give seat 0 a quartet: 天天九九
        hands = np.array([parse_deal("6-6 6-6 6-3 5-4 5-5 3-3 2-2 6-5 | 1-1 1-1 4-4 4-4 3-1 3-1 6-4 6-4 | "
                                     "4-2 2-1 6-2 5-3 5-2 4-3 3-2 4-1 | 6-1 6-1 5-1 5-1 5-5 3-3 2-2 6-5", 4, 8)])
    f = parse_feature(feature)
    has, ftiles, excl = holdings(f, hands)
    assert has[0].tolist() == [True, False, False, False]
    for seed in range(40):
        out, ok = exchange(seed, np.array([0]), np.array([0]), hands, ftiles[:, 0], excl[:, 0])
        assert ok[0]
        before, after = hands[0], out[0]
        assert [popcount(int(h)) for h in after] == [popcount(int(h)) for h in before]  # sizes kept
        assert np.bitwise_or.reduce(after) == np.bitwise_or.reduce(before)  # same tiles on the table
        gone = int(before[0]) & ~int(after[0])
        came = int(after[0]) & ~int(before[0])
        assert gone == int(ftiles[0, 0])  # exactly the feature's tiles left the holder
        assert came & int(excl[0, 0]) == 0  # nothing of the feature's kinds came back
        for s in range(1, 4):
            lost = int(before[s]) & ~int(after[s])
            got = int(after[s]) & ~int(before[s])
            assert lost & ~came == 0 and got & ~gone == 0  # opponents only swap with the holder
            assert popcount(lost) == popcount(got)
        # every tile that is neither exchanged nor received stays with its seat
        moved = gone | came
        assert all((int(b) & ~moved) == (int(a) & ~moved) for b, a in zip(before, after))


def test_exchange_is_random_but_reproducible():
    hands = np.array([parse_deal(DEAL, 4, 8)] * 1, dtype=np.int64)
    f = parse_feature("supreme")
    _, ftiles, excl = holdings(f, hands)
    seen = set()
    for d in range(60):
        a, _ = exchange(7, np.array([d]), np.array([0]), hands, ftiles[:, 0], excl[:, 0])
        b, _ = exchange(7, np.array([d]), np.array([0]), hands, ftiles[:, 0], excl[:, 0])
        assert np.array_equal(a, b)
        seen.add(int(a[0, 0]))
    assert len(seen) > 20


def test_features_parse_and_hold():
    assert parse_feature("supreme").need == parse_feature("4-2+2-1").need == parse_feature("2-1 4-2").need
    assert parse_feature("first_lead").name == "first-lead" and parse_feature("banker").kind == "seat"
    hands = np.array([parse_deal(DEAL, 4, 8)], dtype=np.int64)
    has, tiles, _ = holdings(parse_feature("5-5"), hands)
    assert has[0].tolist() == [True, False, False, True]  # the two copies of 5-5 sit in seats 0 and 3
    assert all(popcount(int(t)) == 1 for t in tiles[0, [0, 3]])
    has, tiles, _ = holdings(parse_feature("heaven_pair"), hands)
    assert has[0].tolist() == [True, False, False, False] and int(tiles[0, 0]) == kind_mask("6-6")
    for bad in ("nosuch", "7-7", "6-6 6-6 6-6", ""):
        with pytest.raises(TjsimError):
            parse_feature(bad)


def test_bonus_sweeps_parse_and_cross():
    assert parse_bonus([]) == [{}]
    assert parse_bonus(["supreme=0,1,2,4"]) == [{"supreme_bonus": v} for v in (0, 1, 2, 4)]
    assert len(parse_bonus(["supreme=0,2", "quartet=0,4"])) == 4
    for bad in ("supreme", "supreme=", "supreme=a", "supreme=-1", "nosuch=1", "supreme:1"):
        with pytest.raises(TjsimError, match="--bonus"):
            parse_bonus([bad])


def test_components_add_up_and_bonus_off_means_no_bonus_value():
    folk = run_value(preset("folk"), parse_feature("supreme"), ["heuristic"], seed=3, deals=3000,
                     bonus=parse_bonus(["supreme=0,2"]))
    s = value_summary(folk.chunks, "supreme", "folk").set_index(["setting", "method", "component"])
    for setting in ("supreme_bonus=0", "supreme_bonus=2"):
        for m in ("conditional", "counterfactual"):
            total = s.loc[(setting, m, "total"), "value"]
            parts = s.loc[(setting, m, "tricks_close"), "value"] + s.loc[(setting, m, "bonus"), "value"]
            assert total == pytest.approx(parts, abs=1e-9)
            bonus = sum(s.loc[(setting, m, c), "value"] for c in ("bonus_supreme", "bonus_supreme_close",
                                                                  "bonus_quartet"))
            assert s.loc[(setting, m, "bonus"), "value"] == pytest.approx(bonus, abs=1e-9)
    # a bigger 賀尊 makes 至尊 worth more to its holder, on the very same deals
    assert s.loc[("supreme_bonus=2", "counterfactual", "bonus_supreme"), "ci_low"] > 1
    assert s.loc[("supreme_bonus=0", "counterfactual", "bonus_supreme"), "value"] == 0
    hk = run_value(preset("hk"), parse_feature("supreme"), ["heuristic"], seed=3, deals=2000)
    h = value_summary(hk.chunks, "supreme", "hk")
    assert (h[h["component"].str.startswith("bonus")]["value"] == 0).all()


def test_banker_counterfactual_moves_the_bank_only():
    r = run_value(preset("hk"), parse_feature("banker"), ["heuristic"], seed=5, deals=2000)
    s = value_summary(r.chunks, "banker", "hk")
    assert r.pairs == 2000  # every deal's banker is replayed once as a non-banker
    cond = s[(s["method"] == "conditional") & (s["component"] == "total")].iloc[0]
    assert cond["share"] == pytest.approx(0.25)


def test_same_seed_same_output_for_any_thread_count():
    args = ["value", "--feature", "supreme", "--feature", "quartet", "--rules", "folk", "--deals", "800",
            "--seed", "4", "--bonus", "supreme=0,2", "--format", "json"]
    one, two = run_cli(*args, "--threads", "1"), run_cli(*args, "--threads", "2")
    assert one.code == 0 and two.code == 0, one.err + two.err
    assert one.out == two.out
    rows = json.loads(one.out)["values"]
    assert {r["feature"] for r in rows} == {"supreme", "quartet"}


def test_csv_and_terminal_agree_and_results_folder(tmp_path):
    from tianjiu_sim.output.strategy_plots import strategy_sections

    args = ["value", "--feature", "supreme", "--deals", "600", "--seed", "2"]
    table = run_cli(*args)
    out = tmp_path / "v.csv"
    folder = tmp_path / "val"
    res = run_cli(*args, "--format", "csv", "--out", str(out), "--out-dir", str(folder))
    assert table.code == 0 and res.code == 0, table.err + res.err
    lines = out.read_bytes().decode("utf-8-sig").splitlines()
    header = lines[0].split(",")
    assert all(h.isascii() for h in header) and "value" in header
    for line in lines[1:]:
        c = dict(zip(header, line.split(",")))
        # the terminal row of this method/component shows the same digits
        match = [t for t in table.out.splitlines() if f" {c['method']} " in t and f" {c['component']} " in t]
        assert match and c["value"] in match[0].split() and c["ci_low"] in match[0].split()
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["kind"] == "value" and manifest["seed"] == 2
    sections = strategy_sections(folder)
    assert len(sections) == 1 and "value.png" in sections[0]
    assert (folder / "value.png").stat().st_size > 5000


@pytest.mark.parametrize("args,fragment", [
    (["--feature", "nosuch"], "unknown feature 'nosuch'"),
    (["--feature", "supreme", "--bonus", "supreme=x"], "malformed --bonus"),
    (["--feature", "supreme", "--bonus", "bogus=1"], "malformed --bonus"),
    (["--feature", "supreme", "--policy", "nosuch"], "unknown strategy 'nosuch'"),
    (["--feature", "supreme", "--policies", "heuristic,greedy"], "policies"),
])
def test_bad_input_is_one_line_and_exit_2(args, fragment):
    assert_user_error(run_cli("value", "--deals", "50", *args), fragment)
