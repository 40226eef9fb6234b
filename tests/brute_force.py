"""Brute-force paranoid minimax (RULES.md §8) written only from the reference engine's rules functions.

It shares no search code with tianjiu_sim/kernels/solver.py: no tables, no pruning, no
transposition table, no equivalence of tiles.  Every legal lead, every legal beat and every
set of tiles that may be discarded (each distinct mask) is tried; the residual-tile dice are
averaged over all 36 throws one by one.  Trick boundaries are memoised on the whole state (a
cache, not a pruning).  Only for small positions (≤ 3 tiles a hand).
"""
from __future__ import annotations

from itertools import combinations

from tianjiu_sim.game import reference as R


def _next_active(seat, n, folded):
    for k in range(1, n + 1):
        s = (seat + k) % n
        if s not in folded:
            return s
    raise AssertionError


def brute_value(rules, hands, dong, leader, seat, banker=0, streak=1, folded=frozenset(),
                trick=(), has_led=frozenset(), pending=None, paid=None, close=False, hold=None, get=None):
    """V_seat by exhaustive minimax; `trick` = ((seat, 'lead'|'beat'|'discard', mask), ...).

    close=True: the value is 1 when `seat` closes and 0 otherwise (who closes, nothing else), so the
    result says whether `seat` can make sure to close.  hold=k: the value is 0 when `seat` ends with at
    most k 戙 and another seat closes, 1 otherwise, so a 0 says the others can hold it there.  get=k:
    the value is 1 when `seat` ends with at least k 戙, 0 otherwise.
    """
    n = rules.players
    active = [s for s in range(n) if s not in folded]
    st = dict(hands=list(hands), dong=list(dong), pending=pending, has_led=set(has_led),
              bonus=[0] * n)

    def give(bonus, receiver, per):
        for s in active:
            if s != receiver:
                bonus[s] -= per
                bonus[receiver] += per

    def finish(trick_plays, lead_leader, first):
        """Close a trick; returns the value for `seat` of the rest of the deal."""
        lead = R.classify(rules, trick_plays[0][2])
        standing_seat = lead_leader
        caught = None
        for s, a, m in trick_plays[1:]:
            if a == "beat":
                if caught is None and lead.cls == R.SUPREME:
                    caught = s
                standing_seat = s
        winner = standing_seat
        saved = (list(st["dong"]), st["pending"], list(st["bonus"]))
        st["dong"][winner] += lead.size
        last = st["hands"][lead_leader] == 0
        doubled = False
        catcher = None
        if lead.cls == R.SUPREME:
            if last and rules.supreme_close:
                if winner == lead_leader:
                    doubled = True
                elif winner == caught:
                    catcher = winner
            elif not last and first and rules.supreme_bonus > 0:
                if winner != lead_leader and rules.supreme_bonus_suspended:
                    st["pending"] = (lead_leader, winner)
                else:
                    give(st["bonus"], lead_leader, rules.supreme_bonus)
        if lead.cls == ("quartet",) and rules.quartet_bonus > 0:
            give(st["bonus"], winner, rules.quartet_bonus)
        if last and close:
            v = 1.0 if winner == seat else 0.0
        elif last and get is not None:
            v = 1.0 if st["dong"][seat] >= get else 0.0
        elif last and hold is not None:
            v = 0.0 if (winner != seat and st["dong"][seat] <= hold) else 1.0
        elif last:
            bonus = list(st["bonus"])
            if st["pending"] is not None and st["pending"][1] != winner:
                give(bonus, st["pending"][0], rules.supreme_bonus)
            if catcher is not None and rules.supreme_close_reward > 0:
                give(bonus, catcher, rules.supreme_close_reward)
            pay = R.settle_reference(rules, st["dong"], winner, banker, streak, sorted(folded), doubled)
            v = pay[seat] + bonus[seat]
        else:
            v = lead_node(winner)
        st["dong"], st["pending"], st["bonus"] = saved
        return v

    def follow(trick_plays, lead_leader, first):
        last_seat = trick_plays[-1][0]
        s = _next_active(last_seat, n, folded)
        if s == lead_leader:
            return finish(trick_plays, lead_leader, first)
        lead = R.classify(rules, trick_plays[0][2])
        standing, standing_is_lead = lead, True
        for _, a, m in trick_plays[1:]:
            if a == "beat":
                standing, standing_is_lead = R.classify(rules, m), False
        hand = st["hands"][s]
        last = st["hands"][lead_leader] == 0
        options = [("beat", m) for m in R.legal_beats(rules, hand, standing, standing_is_lead, last,
                                                     st["dong"][s])]
        bits = [b for b in range(32) if hand >> b & 1]
        options += [("discard", sum(1 << b for b in c)) for c in combinations(bits, lead.size)]
        values = []
        for a, m in options:
            st["hands"][s] &= ~m
            values.append(follow(trick_plays + ((s, a, m),), lead_leader, first))
            st["hands"][s] |= m
        return max(values) if s == seat else min(values)

    def lead_with(leader_, options):
        first = leader_ not in st["has_led"]
        added = first
        st["has_led"].add(leader_)
        values = []
        for m in options:
            st["hands"][leader_] &= ~m
            values.append(follow(((leader_, "lead", m),), leader_, first))
            st["hands"][leader_] |= m
        if added:
            st["has_led"].discard(leader_)
        return max(values) if leader_ == seat else min(values)

    def lead_node(leader_):
        # Memoised on the whole state (no pruning: every node is still searched once).
        key = (tuple(st["hands"]), tuple(st["dong"]), leader_, frozenset(st["has_led"]),
               st["pending"], st["bonus"][seat])
        if key not in memo:
            memo[key] = lead_node_search(leader_)
        return memo[key]

    def lead_node_search(leader_):
        hand = st["hands"][leader_]
        if R.residual_dice_applies(rules, hand):
            total, by_options = 0.0, {}
            for d1 in range(1, 7):
                for d2 in range(1, 7):
                    options = tuple(R.legal_leads(rules, hand, R.dice_suit(rules, d1 + d2, hand)))
                    if options not in by_options:  # throws forcing the same suit share one search
                        by_options[options] = lead_with(leader_, options)
                    total += by_options[options]
            return total / 36
        return lead_with(leader_, R.legal_leads(rules, hand))

    memo: dict = {}
    base = (paid[seat] if paid and not close and hold is None and get is None else 0)
    if not trick:
        return base + lead_node(leader)
    lead_leader = trick[0][0]
    first = lead_leader not in has_led
    return base + follow(tuple(trick), lead_leader, first)
