"""Independent validity checker for game traces, written from RULES.md as plainly as possible.

Table-driven and deliberately unlike both engines: tiles are pips strings and hands are
Counters; every play is looked up in a literal table of (tiles → class, rank). It checks a
trace without replaying any strategy: only that every action was allowed and every derived
number (winners, 戙, closer, bonuses, payments) follows from the actions.
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from tianjiu_sim.kernels.layout import STREAM_DICE
from tianjiu_sim.kernels.rng import randbelow, seed_stream


class TraceInvalid(AssertionError):
    """A trace breaks a rule of RULES.md."""


COPIES = {"6-6": 2, "1-1": 2, "4-4": 2, "3-1": 2, "5-5": 2, "3-3": 2, "2-2": 2, "6-5": 2,
          "6-4": 2, "6-1": 2, "5-1": 2, "6-3": 1, "5-4": 1, "6-2": 1, "5-3": 1, "5-2": 1,
          "4-3": 1, "4-2": 1, "3-2": 1, "4-1": 1, "2-1": 1}

# Singles: suit lists highest first (RULES.md §1, §3.1, §3.2); equal military values share a rank.
HK_SINGLES = {
    "civil": [["6-6"], ["1-1"], ["4-4"], ["3-1"], ["5-5"], ["3-3"], ["2-2"], ["6-5"], ["6-4"],
              ["6-1"], ["5-1"]],
    "military": [["6-3", "5-4"], ["6-2", "5-3"], ["5-2", "4-3"], ["4-2"], ["3-2", "4-1"], ["2-1"]],
}
FOLK_SINGLES = {
    "gong": [["6-6"], ["1-1"], ["4-4"], ["3-1"], ["5-5"], ["3-3"], ["2-2"]],
    "za": HK_SINGLES["military"],
    "yao": [["6-5"], ["6-4"], ["6-1"], ["5-1"]],
}
# Pairs: each entry is one way to write the pair, highest first.
MILITARY_PAIRS = ["6-3 5-4", "6-2 5-3", "5-2 4-3", "3-2 4-1"]
MIXED = [["6-6 6-3", "6-6 5-4"], ["1-1 6-2", "1-1 5-3"], ["4-4 5-2", "4-4 4-3"], ["3-1 3-2", "3-1 4-1"]]
THREE_CIVIL = [["6-6 6-6 6-3", "6-6 6-6 5-4"], ["1-1 1-1 6-2", "1-1 1-1 5-3"],
               ["4-4 4-4 5-2", "4-4 4-4 4-3"], ["3-1 3-1 3-2", "3-1 3-1 4-1"]]
THREE_MILITARY = [["6-6 6-3 5-4"], ["1-1 6-2 5-3"], ["4-4 5-2 4-3"], ["3-1 3-2 4-1"]]
QUARTETS = [["6-6 6-6 6-3 5-4"], ["1-1 1-1 6-2 5-3"], ["4-4 4-4 5-2 4-3"], ["3-1 3-1 3-2 4-1"]]
SUPREME_TILES = "4-2 2-1"
ZHA8_PAIR = "6-2 5-3"
LAO = {"6-6", "1-1", "6-3", "5-4", "6-2", "5-3", "6-5", "6-4"}
FOLK_SUIT_OF = {t: s for s, groups in FOLK_SINGLES.items() for g in groups for t in g}


def _key(tiles) -> tuple:
    return tuple(sorted(tiles.split() if isinstance(tiles, str) else tiles))


def _build_table(suits: str) -> dict:
    """tiles key → (class name, rank); higher rank beats lower within a class."""
    table = {}
    singles = HK_SINGLES if suits == "hk" else FOLK_SINGLES
    for suit, groups in singles.items():
        for i, group in enumerate(groups):
            for t in group:
                table[_key([t])] = (f"{suit} single", len(groups) - i)
        pairs = MILITARY_PAIRS if suit in ("military", "za") else [
            f"{g[0]} {g[0]}" for g in groups]
        for i, p in enumerate(pairs):
            table[_key(p)] = (f"{suit} pair", len(pairs) - i)
    for name, rows in (("mixed", MIXED), ("three civil", THREE_CIVIL),
                       ("three military", THREE_MILITARY), ("quartet", QUARTETS)):
        for i, row in enumerate(rows):
            for p in row:
                table[_key(p)] = (name, 4 - i)
    table[_key(SUPREME_TILES)] = ("supreme", 1)
    return table


TABLES = {"hk": _build_table("hk"), "folk": _build_table("folk")}


def _fail(trace, where, msg):
    raise TraceInvalid(f"deal {trace.get('deal')}, {where}: {msg}")


def _beats(rules, tiles, standing_tiles, standing_is_lead) -> bool:
    """RULES.md §3 and §3.3, from the table."""
    table = TABLES[rules.suits]
    a, b = table.get(_key(tiles)), table[_key(standing_tiles)]
    if a is None or a[0] == "supreme":
        return False
    if standing_is_lead and b[0] == "supreme":
        return rules.supreme_catcher and _key(tiles) == _key(ZHA8_PAIR)
    if standing_is_lead and rules.civil_supreme and _key(standing_tiles) == _key("5-1 5-1"):
        return _key(tiles) == _key("6-1 6-1")
    return a[0] == b[0] and a[1] > b[1]


def _take(trace, where, hand: Counter, tiles) -> None:
    need = Counter(tiles)
    if any(hand[t] < c for t, c in need.items()):
        _fail(trace, where, f"tiles {tiles} are not in the hand {sorted(hand.elements())}")
    hand.subtract(need)


def _settle(rules, dong, closer, banker, streak, folded, double):
    n = len(dong)
    pay = [0] * n
    sweep = rules.sweep_multiplier if dong[closer] == rules.tiles_per_player else 1
    for i in range(n):
        if i == closer:
            continue
        if i in folded:
            amount = rules.fold_cost
        else:
            amount = rules.baseline - dong[i]
            if dong[i] == 0:
                amount += 1
            if rules.banker_multiplier and (closer == banker or (i == banker and amount > 0)):
                amount *= streak + 1
            amount *= sweep * double
        pay[i] -= amount
        pay[closer] += amount
    return pay


def validate_trace(rules, trace: dict) -> None:
    """Check a trace against RULES.md; raises TraceInvalid naming the deal, trick and seat."""
    n = rules.players
    table = TABLES[rules.suits]
    if trace["players"] != n or len(trace["hands"]) != n:
        _fail(trace, "header", f"players {trace['players']}, hands {len(trace['hands'])}, rules {n}")
    hands = [Counter(h) for h in trace["hands"]]
    everything = Counter()
    for seat, h in enumerate(hands):
        if sum(h.values()) != rules.tiles_per_player:
            _fail(trace, f"hands, seat {seat}", f"{sum(h.values())} tiles, not {rules.tiles_per_player}")
        everything += h
    for t, c in everything.items():
        if t not in COPIES or c > COPIES[t]:
            _fail(trace, "hands", f"tile {t} dealt {c} times")
    banker, streak = trace["banker"], trace["streak"]
    folded = set(trace["folded"])
    for s in folded:
        if not rules.fold or LAO & set(hands[s]):
            _fail(trace, f"fold, seat {s}", "this seat may not fold (§4.6)")
    active = [s for s in range(n) if s not in folded]
    if len(active) < 2:
        if trace["tricks"] or trace["closer"] is not None or any(trace["payments"]) or trace["bonuses"]:
            _fail(trace, "void deal", "a void deal has no tricks, no closer and no payments")
        return

    dice = np.zeros(4, dtype=np.uint64)
    seed_stream(dice, trace["seed"], STREAM_DICE, trace["deal"])
    dong = [0] * n
    leader = next(s for s in [(banker + k) % n for k in range(n)] if s not in folded)
    led_before = set()
    expected_bonuses = []
    bonus = [0] * n
    supreme_pending = None
    double = 1

    def give(seat, per):
        for s in active:
            if s != seat:
                bonus[s] -= per
                bonus[seat] += per
        return per * (len(active) - 1)

    for ti, trick in enumerate(trace["tricks"]):
        where = f"trick {ti}"
        if trick["leader"] != leader:
            _fail(trace, where, f"leader {trick['leader']}, expected {leader}")
        order = [(leader + k) % n for k in range(n) if (leader + k) % n not in folded]
        plays = trick["plays"]
        if [p["seat"] for p in plays] != order:
            _fail(trace, where, f"seats played {[p['seat'] for p in plays]}, expected {order}")
        lead = plays[0]
        if lead["action"] != "lead":
            _fail(trace, f"{where}, seat {leader}", "the first play must be the lead")
        lead_tiles = lead["tiles"]
        size = len(lead_tiles)
        if _key(lead_tiles) not in table:
            _fail(trace, f"{where}, seat {leader}", f"lead {lead_tiles} is not a play")
        # §4.7 residual-tile dice.
        held = list(hands[leader].elements())
        if rules.residual_dice and n != 2 and len(held) in (2, 3):
            multi = any(_key(p) in table for p in _subsets(held) if len(p) >= 2)
            if not multi:
                total = 2 + int(randbelow(dice, 6)) + int(randbelow(dice, 6))
                suit = "gong" if total >= rules.dice_gong_min else "za" if total >= rules.dice_za_min else "yao"
                suits_held = [s for s in ("gong", "za", "yao") if any(FOLK_SUIT_OF[t] == s for t in held)]
                if suit not in suits_held:
                    suit = suits_held[0]
                if size != 1 or FOLK_SUIT_OF[lead_tiles[0]] != suit:
                    _fail(trace, f"{where}, seat {leader}", f"dice {total} force a {suit} single, led {lead_tiles}")
        _take(trace, f"{where}, seat {leader}", hands[leader], lead_tiles)
        last = sum(hands[leader].values()) == 0
        first_lead = leader not in led_before
        led_before.add(leader)
        standing, standing_is_lead, winner = lead_tiles, True, leader
        beaters = []
        for p in plays[1:]:
            seat, pw = p["seat"], f"{where}, seat {p['seat']}"
            if len(p["tiles"]) != size:
                _fail(trace, pw, f"{p['action']} of {len(p['tiles'])} tiles on a lead of {size}")
            if p["action"] == "beat":
                if not _beats(rules, p["tiles"], standing, standing_is_lead):
                    _fail(trace, pw, f"{p['tiles']} does not beat {standing}")
                if last and rules.early_death and dong[seat] + size < rules.early_death_min_dong:
                    _fail(trace, pw, f"early death: with {dong[seat]} 戙 may not win the last trick")
                standing, standing_is_lead, winner = p["tiles"], False, seat
                beaters.append(seat)
            elif p["action"] != "discard":
                _fail(trace, pw, f"unknown action {p['action']!r}")
            _take(trace, pw, hands[seat], p["tiles"])
        if trick["winner"] != winner or trick["dong"] != size:
            _fail(trace, where, f"winner {trick['winner']} / 戙 {trick['dong']}, expected {winner} / {size}")
        dong[winner] += size
        cls = table[_key(lead_tiles)][0]
        if cls == "supreme" and last and rules.supreme_close:
            if winner == leader:
                double = 2
            elif len(beaters) == 1 and rules.supreme_close_reward > 0:
                expected_bonuses.append(("supreme_close", winner, give(winner, rules.supreme_close_reward)))
        elif cls == "supreme" and not last and first_lead and rules.supreme_bonus > 0:
            if winner != leader and rules.supreme_bonus_suspended:
                supreme_pending = (leader, winner)
            else:
                expected_bonuses.append(("supreme", leader, give(leader, rules.supreme_bonus)))
        if cls == "quartet" and rules.quartet_bonus > 0:
            expected_bonuses.append(("quartet", winner, give(winner, rules.quartet_bonus)))
        leader = winner

    for s in active:
        if sum(hands[s].values()):
            _fail(trace, f"end, seat {s}", f"tiles left in hand: {sorted(hands[s].elements())}")
    if sum(dong) != rules.tiles_per_player or trace["dong"] != dong:
        _fail(trace, "end", f"dong {trace['dong']}, expected {dong}")
    closer = leader
    if trace["closer"] != closer:
        _fail(trace, "end", f"closer {trace['closer']}, expected {closer}")
    if supreme_pending and supreme_pending[1] != closer:
        expected_bonuses.append(("supreme", supreme_pending[0], give(supreme_pending[0], rules.supreme_bonus)))
    pay = _settle(rules, dong, closer, banker, streak, folded, double)
    if double == 2:
        expected_bonuses.append(("supreme_close", closer, pay[closer] // 2))
    got = sorted((b["type"], b["seat"], b["amount"]) for b in trace["bonuses"])
    if got != sorted(expected_bonuses):
        _fail(trace, "bonuses", f"got {got}, expected {sorted(expected_bonuses)}")
    expected = [pay[i] + bonus[i] for i in range(n)]
    if trace["payments"] != expected:
        _fail(trace, "payments", f"got {trace['payments']}, expected {expected}")
    if sum(trace["payments"]) != 0:
        _fail(trace, "payments", "not zero-sum")


def _subsets(tiles):
    from itertools import combinations
    for k in range(1, len(tiles) + 1):
        yield from combinations(tiles, k)
