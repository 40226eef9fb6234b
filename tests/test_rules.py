"""Rule sets: presets, TOML files, validation (RULES.md §2)."""
import dataclasses

import pytest

from tianjiu_sim.errors import TjsimError
from tianjiu_sim.game.rules import SETTING_KEYS, load_rules, preset

from conftest import assert_user_error


def test_hk_preset_matches_rules_table():
    r = preset("hk")
    assert (r.players, r.tiles_per_player, r.baseline) == (4, 8, 4)
    assert r.early_death and r.civil_supreme and not r.supreme_catcher
    assert r.banker_multiplier and r.sweep_multiplier == 1
    assert (r.supreme_bonus, r.quartet_bonus, r.supreme_close, r.fold, r.residual_dice) == (0, 0, False, False, False)


@pytest.mark.parametrize("players,tiles,baseline", [(4, 8, 4), (3, 10, 5), (2, 10, 5)])
def test_folk_preset_by_player_count(players, tiles, baseline):
    r = preset("folk", players)
    assert (r.tiles_per_player, r.baseline, r.quartet_bonus) == (tiles, baseline, players)
    assert not r.early_death and not r.civil_supreme and r.supreme_catcher
    assert not r.banker_multiplier and r.sweep_multiplier == 2
    assert r.supreme_bonus == 2 and r.supreme_close and r.fold and r.residual_dice


def test_every_setting_is_a_field():
    fields = {f.name for f in dataclasses.fields(preset("hk"))}
    assert set(SETTING_KEYS) <= fields


def test_toml_overrides(tmp_path):
    f = tmp_path / "table.toml"
    f.write_text('preset = "hk"\nsupreme_bonus = 2\nquartet_bonus = 4\n')
    r = load_rules(str(f))
    assert r.name == "table" and r.supreme_bonus == 2 and r.quartet_bonus == 4 and r.early_death


def _write(tmp_path, text):
    f = tmp_path / "r.toml"
    f.write_text(text)
    return str(f)


@pytest.mark.parametrize("text,fragments", [
    ('preset = "hk"\nsuprme_bonus = 2\n', ["r.toml:2", "unknown key 'suprme_bonus'", "did you mean 'supreme_bonus'"]),
    ('preset = "hk"\nbaseline = "four"\n', ["r.toml:2", "'baseline'", "integer"]),
    ('preset = "hk"\nearly_death = 1\n', ["r.toml:2", "'early_death'", "true or false"]),
    ('preset = "folk"\n\ntiles_per_player = 12\n', ["r.toml:3", "'tiles_per_player'", "> 32"]),
    ('preset = "folk"\nplayers = 5\n', ["r.toml:2", "5 players is not allowed"]),
    ('preset = "hk"\nbaseline = -1\n', ["r.toml:2", "'baseline'", "negative"]),
    ('preset = "chess"\n', ["r.toml:1", "'preset'", "hk, folk"]),
    ('preset = "hk"\nbaseline = \n', ["r.toml", "malformed TOML", "line 2"]),
])
def test_bad_rules_files(tmp_path, text, fragments):
    path = _write(tmp_path, text)
    with pytest.raises(TjsimError) as e:
        load_rules(path)
    for frag in fragments:
        assert frag in str(e.value)


def test_unknown_rules_name_and_missing_file():
    with pytest.raises(TjsimError, match="unknown rules 'chess'"):
        load_rules("chess")
    with pytest.raises(TjsimError, match="not found"):
        load_rules("missing.toml")


def test_hk_does_not_allow_three_players():
    with pytest.raises(TjsimError, match="3 players is not allowed"):
        preset("hk", 3)


@pytest.mark.parametrize("args,fragments", [
    (["rules", "--rules", "chess"], ["unknown rules 'chess'", "hk, folk"]),
    (["rules", "--rules", "nowhere.toml"], ["not found"]),
    (["rules", "--rules", "folk", "--players", "5"], ["5 players is not allowed", "2, 3, 4"]),
])
def test_cli_rules_errors(cli, args, fragments):
    assert_user_error(cli(*args), *fragments)


def test_cli_rules_file_errors(cli, tmp_path):
    assert_user_error(cli("rules", "--rules", _write(tmp_path, 'preset = "hk"\nsuprme_bonus = 2\n')),
                      "r.toml:2", "unknown key 'suprme_bonus'")
    assert_user_error(cli("rules", "--rules", _write(tmp_path, 'preset = "hk"\nbaseline = \n')), "malformed TOML")


def test_cli_rules_prints_tiles_classes_and_settings(cli):
    res = cli("rules", "--rules", "folk")
    assert res.code == 0
    for text in ("天", "gong_single 宫單", "za_pair 杂對", "yao_pair 幺對", "quartet 四", "supreme_close", "杂8"):
        assert text in res.out
    import json
    data = json.loads(cli("rules", "--format", "json").out)
    assert data["settings"]["baseline"] == 4 and len(data["tiles"]) == 21
