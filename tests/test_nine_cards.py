"""九支十仔 (RULES.md §9): cards, rules, the §9.3 worked examples, engine invariants, information hiding."""
from __future__ import annotations

import numpy as np
import pytest

from tianjiu_sim.errors import TjsimError
from tianjiu_sim.nine_cards import cards, engine, reference
from tianjiu_sim.nine_cards.engine import (
    K, O_CONC, O_DECK, O_KZ, O_MELD, O_N, O_POS, STATE_LEN, W_DISCARD, W_SELF, W_STOCK, pack_rules,
)
from tianjiu_sim.nine_cards.rules import load_rules, preset
from tianjiu_sim.nine_cards.runner import run_deals
from tianjiu_sim.nine_cards.strategies import evaluate_discards, strategy_params


def ks(text):
    return cards.parse_cards(text)


# --- cards -----------------------------------------------------------------------------------

def test_cards_notation_round_trip():
    assert len(cards.KIND_NAMES) == 28 and cards.N_CARDS == 112
    assert cards.KIND_NAMES[0] == "紅帥" and cards.KIND_NAMES[17] == "青車" and cards.KIND_NAMES[27] == "白卒"
    for k in range(28):
        assert cards.parse_card(cards.name(k)) == k == cards.parse_card(cards.name(k, ascii_form=True))
    assert cards.parse_cards("紅帥 R1,r1 红帅") == [0, 0, 0, 0]
    c = cards.counts_of(ks("紅帥 紅帥 白卒 黃兵 青將"))
    assert (cards.unpack(cards.pack(c)) == c).all()
    assert (cards.unpack_words(*cards.pack_words(c)) == c).all()


def test_bad_cards():
    with pytest.raises(TjsimError, match="unknown card 'X9'"):
        cards.parse_cards("紅帥 X9")
    with pytest.raises(TjsimError, match="5 copies of 紅帥"):
        cards.parse_cards("紅帥 " * 5)


# --- rules -----------------------------------------------------------------------------------

def test_rules_players_and_toml(tmp_path):
    for n in (4, 5, 6, 7):
        assert preset(n).players == n
    for n in (3, 8):
        with pytest.raises(TjsimError, match="4 to 7"):
            preset(n)
    f = tmp_path / "r.toml"
    f.write_text('preset = "nine_cards"\neat_with_three = false\ncolour_points = [6, 3, 2, 0]\n', encoding="utf-8")
    r = load_rules(str(f), players=5)
    assert (r.eat_with_three, r.colour_points, r.players, r.name) == (False, (6, 3, 2, 0), 5, "r")
    f.write_text('preset = "nine_cards"\n\nflip_bonuses = 2\n', encoding="utf-8")
    with pytest.raises(TjsimError, match=r"r.toml:3: unknown key 'flip_bonuses' \(did you mean 'flip_bonus'"):
        load_rules(str(f))
    f.write_text('preset = "nine_cards"\nstock_reserve = "nine"\n', encoding="utf-8")
    with pytest.raises(TjsimError, match="r.toml:2: key 'stock_reserve': must be an integer"):
        load_rules(str(f))


# --- the worked examples of §9.3 ---------------------------------------------------------------

def _state(concealed: str, melds: str = "", kaizhao: int = 0, n: int = 4) -> np.ndarray:
    S = np.zeros(STATE_LEN, dtype=np.int64)
    S[O_N] = n
    for k in ks(concealed):
        S[O_CONC + k] += 1
    for k in ks(melds):
        S[O_MELD + k] += 1
    S[O_KZ] = kaizhao
    return S


FLIPS = "青包 青卒 白象 紅帥 紅仕"
EXAMPLES = [
    # (concealed before the win, laid pairs, 開招 made, winning card, how, flips, 頭, reference pairs)
    ("紅仕 紅仕 紅俥 紅俥 黃帥 黃帥 黃仕 黃仕 白象", "", 0, "白象", W_SELF, FLIPS, 6,
     "紅仕 紅俥 黃帥 黃仕 白象"),                             # 2 + 1 + 1 + 2
    ("紅仕 紅仕 紅俥 紅俥 黃帥 黃帥 黃仕 黃仕 黃仕", "", 0, "黃仕", W_DISCARD, "", 8,
     "紅仕 紅俥 黃帥 黃仕 黃仕"),                             # 3 + 5
    ("紅仕 紅仕 黃帥 黃帥 黃仕 黃仕 紅俥", "黃仕", 1, "紅俥", W_STOCK, FLIPS, 6,
     "紅仕 紅俥 黃帥 黃仕 黃仕"),                             # 3 + 1 + 2
]


@pytest.mark.parametrize("concealed,melds,kz,card,how,flips,tou,pairs", EXAMPLES)
def test_worked_examples(concealed, melds, kz, card, how, flips, tou, pairs):
    rules = preset()
    S = _state(concealed, melds, kz)
    fl = np.array(ks(flips), dtype=np.int64)
    got = engine.score_win(S, pack_rules(rules), 0, how, ks(card)[0], fl)
    assert got[0] == tou
    how_name = engine.WIN_TYPES[how]
    ref_tou, _ = reference.score_win(rules, ks(pairs), how_name, ks(flips), kz,
                                     kaizhao_wait=ks(concealed).count(ks(card)[0]) == 3)
    assert ref_tou == tou


def test_four_colour_self_draw_scores_one_without_flips():
    rules = preset()
    S = _state("紅帥 紅帥 黃帥 黃帥 青將 青將 白將 白將 白卒")
    assert engine.score_win(S, pack_rules(rules), 0, W_SELF, ks("白卒")[0],
                            np.zeros(0, dtype=np.int64))[0] == 1
    # four colours from a discard: 0 頭
    assert engine.score_win(S, pack_rules(rules), 0, W_DISCARD, ks("白卒")[0],
                            np.zeros(0, dtype=np.int64))[0] == 0


# --- engine invariants ------------------------------------------------------------------------

@pytest.mark.parametrize("n", [4, 7])
def test_deals_are_zero_sum_and_thread_independent(n):
    rules = preset(n)
    a = run_deals(rules, ["heuristic", "greedy", "random"] + ["greedy"] * (n - 3), 3, 3000, threads=1)
    b = run_deals(rules, ["heuristic", "greedy", "random"] + ["greedy"] * (n - 3), 3, 3000, threads=2)
    assert (a.payments == b.payments).all() and (a.res == b.res).all()
    assert (a.payments.sum(axis=1) == 0).all()
    won = a.col("winner") >= 0
    tou = a.col("tou")
    assert (tou[~won] == 0).all() and (tou[won] >= 0).all()
    # the winner receives what the others pay, and draws pay nothing
    w = a.col("winner")[won]
    assert (a.payments[won, :][np.arange(won.sum()), w] >= 0).all()
    assert (a.payments[~won] == 0).all()
    # sessions: the winner becomes the next banker; after a draw the banker stays
    s = run_deals(rules, ["greedy"], 3, 3000, session=100, threads=1)
    banker, winner = s.col("banker"), s.col("winner")
    for r in range(1, 3000):
        if r % 100:
            assert banker[r] == (winner[r - 1] if winner[r - 1] >= 0 else banker[r - 1])
    assert set(banker) != {0}


def test_lookahead_never_sees_hidden_cards():
    """Two states that differ only in what the deciding seat cannot see give the same evaluation."""
    rules = preset(4)
    prm = pack_rules(rules)
    st = np.zeros(4, dtype=np.uint64)
    from tianjiu_sim.kernels.rng import seed_stream
    seed_stream(st, np.uint64(9), 1, 0)
    S = np.zeros(STATE_LEN, dtype=np.int64)
    rec = np.zeros((0, 3), dtype=np.int64)
    engine.start_deal(S, prm, 0, st, rec)
    seat = engine.advance(S, prm, st, rec)
    assert seat == 0
    # permute the hidden cards: the other seats' concealed cards and the stock, keeping sizes
    T = S.copy()
    hidden = []
    sizes = []
    for s in range(1, 4):
        row = T[O_CONC + s * K:O_CONC + (s + 1) * K]
        sizes.append(int(row.sum()))
        hidden += cards.kinds_of(row)
        row[:] = 0
    pos = int(T[O_POS])
    stock = list(T[O_DECK + pos:O_DECK + 112])
    pool = np.array(hidden + stock)
    np.random.default_rng(1).shuffle(pool)
    j = 0
    for s, size in zip(range(1, 4), sizes):
        for k in pool[j:j + size]:
            T[O_CONC + s * K + k] += 1
        j += size
    T[O_DECK + pos:O_DECK + 112] = pool[j:]
    for s in range(1, 4):
        engine.update_wait(T, s)
    assert not (T == S).all()
    sp = strategy_params(worlds=8)
    outs = []
    for state in (S, T):
        out = np.zeros((K, 4))
        vals = np.zeros((8, K))
        st2 = np.zeros(4, dtype=np.uint64)
        seed_stream(st2, np.uint64(5), 2, 0)
        evaluate_discards(state, 0, prm, sp, st2, out, vals)
        outs.append(vals)
    assert np.array_equal(outs[0], outs[1], equal_nan=True) and np.isfinite(outs[0]).sum() > 8
