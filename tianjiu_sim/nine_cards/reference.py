"""A plain-Python reference of 九支十仔, written from RULES.md §9 alone (no engine code shared).

It plays a deal with the same random streams as the engine — cards from (seed, STREAM_DEAL,
deal index), each card drawn a uniform pick among the undrawn cards (the i-th draw swaps
position i with i + randbelow(112 − i) in a pack in box order); random decisions from
(seed, STREAM_PLAY, deal index) — and returns the trace of docs/nine-cards.md, so that
differential tests can ask for identical traces. Strategies `random`, `greedy` and
`heuristic` are re-implemented here from their descriptions in docs/nine-cards.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ..kernels.layout import STREAM_DEAL, STREAM_PLAY
from ..kernels.rng import randbelow, seed_stream
from .rules import NineCardsRules

COLOURS = "紅黃青白"
RED = "帥仕相俥傌炮兵"
BLACK = "將士象車馬包卒"
CARDS = [c + (RED if i < 2 else BLACK)[r] for i, c in enumerate(COLOURS) for r in range(7)]


def colour(card: int) -> int:
    """0–3 for 紅 黃 青 白."""
    return card // 7


def score_win(rules: NineCardsRules, pairs: Sequence[int], how: str, flips: Sequence[int],
              kaizhao_made: int, kaizhao_wait: bool) -> tuple[int, int]:
    """(頭, flip points) of a win (§9.3): five pairs, how ('self_draw', 'stock', 'discard'), the flipped cards."""
    n_colours = len({colour(p) for p in pairs})
    if n_colours == 4 and how == "self_draw":
        return rules.four_colour_self_draw, 0
    tou = rules.colour_points[n_colours - 1]
    if how == "self_draw":
        tou += rules.self_draw_bonus
    flip_points = 0
    if how != "discard":
        for i, f in enumerate(flips):
            if f in pairs:
                flip_points += rules.tail_bonus if i == len(flips) - 1 else rules.flip_bonus
    tou += flip_points
    tou += rules.kaizhao_bonus * kaizhao_made
    if kaizhao_wait:
        tou += rules.kaizhao_wait_bonus
    return tou, flip_points


@dataclass
class Seat:
    """One player's cards: concealed (by kind), dead cards in the order laid, pairs laid face up."""

    hidden: dict = field(default_factory=dict)
    dead: list = field(default_factory=list)
    laid: list = field(default_factory=list)
    kaizhao: int = 0

    def holding(self, card: int) -> int:
        """Cards of this kind not yet in a laid pair (concealed + dead)."""
        return self.hidden.get(card, 0) + self.dead.count(card)

    def all_counts(self) -> dict:
        """Card → number held in any form."""
        c = dict(self.hidden)
        for d in self.dead:
            c[d] = c.get(d, 0) + 1
        for p in self.laid:
            c[p] = c.get(p, 0) + 2
        return {k: v for k, v in c.items() if v}

    def waiting_on(self):
        """The card a seat with four pairs and one single waits for (聽), else None."""
        counts = {}
        for k, v in self.hidden.items():
            counts[k] = counts.get(k, 0) + v
        for d in self.dead:
            counts[d] = counts.get(d, 0) + 1
        pairs = len(self.laid) + sum(v // 2 for v in counts.values())
        singles = [k for k, v in counts.items() if v % 2]
        return singles[0] if pairs == 4 and len(singles) == 1 else None


class Deal:
    """One deal of 九支十仔 played step by step from RULES.md §9.2."""

    def __init__(self, rules: NineCardsRules, seed: int, deal: int, banker: int, policies: Sequence[str]):
        self.rules, self.n, self.banker = rules, rules.players, banker
        self.policies = list(policies) * (rules.players if len(policies) == 1 else 1)
        self.card_rng = np.zeros(4, dtype=np.uint64)
        seed_stream(self.card_rng, np.uint64(seed), STREAM_DEAL, deal)
        self.choice_rng = np.zeros(4, dtype=np.uint64)
        seed_stream(self.choice_rng, np.uint64(seed), STREAM_PLAY, deal)
        self.pack = [i // 4 for i in range(112)]
        self.drawn = 0
        self.seats = [Seat() for _ in range(self.n)]
        self.discards: list[int] = []
        self.events: list[dict] = []
        self.seed, self.deal = seed, deal

    def take_top(self) -> int:
        """The top card of the (shuffled) stock."""
        i = self.drawn
        j = i + int(randbelow(self.card_rng, 112 - i))
        self.pack[i], self.pack[j] = self.pack[j], self.pack[i]
        self.drawn += 1
        return self.pack[i]

    def log(self, seat: int, action: str, card) -> None:
        self.events.append({"seat": seat, "action": action, "card": None if card is None else CARDS[card]})

    def visible(self) -> dict:
        """Card → copies face up on the table (discards, laid pairs, dead cards)."""
        c = {}
        for d in self.discards:
            c[d] = c.get(d, 0) + 1
        for s in self.seats:
            for p in s.laid:
                c[p] = c.get(p, 0) + 2
            for d in s.dead:
                c[d] = c.get(d, 0) + 1
        return c

    # --- strategies (docs/nine-cards.md) ---
    def options(self, seat: Seat) -> list[int]:
        if self.rules.discard_pairs:
            return sorted(k for k, v in seat.hidden.items() if v > 0)
        return sorted(k for k, v in seat.hidden.items() if v % 2 == 1)

    def choose(self, s: int) -> int:
        seat = self.seats[s]
        opts = self.options(seat)
        policy = self.policies[s]
        vis = self.visible()

        def live(k):
            return 4 - seat.hidden.get(k, 0) - vis.get(k, 0)

        if policy == "random":
            return opts[int(randbelow(self.choice_rng, len(opts)))]
        if policy == "greedy":
            return min(opts, key=lambda k: (live(k), k))
        if policy != "heuristic":
            raise ValueError(f"the reference has no strategy '{policy}'")
        mine = seat.all_counts()
        pairs = sum(v // 2 for v in mine.values())
        pair_colours = {colour(k) for k, v in mine.items() if v >= 2}
        singles = [k for k, v in seat.hidden.items() if v % 2]
        if pairs == 4 and len(singles) == 2 and not self.rules.discard_pairs:
            def worth_waiting_on(y):
                tou = self.rules.colour_points[len(pair_colours | {colour(y)}) - 1] + 1
                if seat.hidden[y] == 3:
                    tou += self.rules.kaizhao_wait_bonus
                return live(y) * tou
            a, b = sorted(singles)
            # discard a keeps b; a is chosen unless b's wait is worth less (ties: the lower card)
            return a if worth_waiting_on(b) >= worth_waiting_on(a) else b
        per_colour = [0, 0, 0, 0]
        for k, v in mine.items():
            per_colour[colour(k)] += v

        def keep_value(k):
            v = 3 * live(k) + per_colour[colour(k)]
            if seat.hidden[k] == 3 and live(k) > 0:
                v += 4
            if seat.hidden[k] % 2 == 0:
                v += 1000
            return v
        return min(opts, key=lambda k: (keep_value(k), k))

    # --- play ---
    def order(self, shower: int, turned: bool) -> list[int]:
        """Seats that may win or eat a shown card, in priority order (§9.2.2)."""
        after = [(shower + i) % self.n for i in range(1, self.n)]
        if not turned:
            return after
        return [shower] + after if self.rules.turner_first else after + [shower]

    def play(self) -> dict:
        """Play the deal to its end and return its trace."""
        n, b = self.n, self.banker
        for rnd in range(2):
            for j in range(n):
                s = (b + j) % n
                for _ in range(5 if rnd == 0 or j == 0 else 4):
                    c = self.take_top()
                    self.seats[s].hidden[c] = self.seats[s].hidden.get(c, 0) + 1
        self.hands = [[CARDS[k] for k in sorted(st.hidden) for _ in range(st.hidden[k])] for st in self.seats]
        banker_cards = self.seats[b].hidden
        if sum(v // 2 for v in banker_cards.values()) == 5:
            return self.win(b, "self_draw" if self.rules.deal_win_self_draw else "stock", None, None)
        actor = b
        while True:
            # the actor discards: dead cards first, oldest first, else its choice
            seat = self.seats[actor]
            if seat.dead:
                card = seat.dead.pop(0)
                self.log(actor, "discard_dead", card)
            else:
                card = self.choose(actor)
                seat.hidden[card] -= 1
                self.log(actor, "discard", card)
            shower, turned = actor, False
            while True:
                outcome = self.show(card, shower, turned)
                if isinstance(outcome, dict):
                    return outcome
                if outcome is not None:
                    actor = outcome
                    break
                self.discards.append(card)
                if 112 - self.drawn <= self.rules.stock_reserve:
                    return self.drawn_deal()
                shower, turned = (shower + 1) % n, True
                card = self.take_top()
                self.log(shower, "turn", card)

    def show(self, card: int, shower: int, turned: bool):
        """Resolve a shown card: a win (the trace), an eater (its seat), or None (nobody takes it)."""
        order = self.order(shower, turned)
        for s in order:
            if self.seats[s].waiting_on() == card:
                how = "discard" if not turned else ("self_draw" if s == shower else "stock")
                return self.win(s, how, card, shower)
        three = self.rules.eat_with_three
        can = [s for s in order if self.seats[s].holding(card) == 1 or (three and self.seats[s].holding(card) == 3)]
        if not can:
            return None
        eater = self.seats[can[0]]
        if eater.holding(card) == 3:
            eater.kaizhao += 1
            self.log(can[0], "eat_kaizhao", card)
        else:
            self.log(can[0], "eat", card)
        if card in eater.dead:
            eater.dead.remove(card)
        else:
            eater.hidden[card] -= 1
        eater.laid.append(card)
        for s in can[1:]:
            if card not in self.seats[s].dead:
                self.seats[s].hidden[card] -= 1
                self.seats[s].dead.append(card)
                self.log(s, "dead", card)
        return can[0]

    def win(self, s: int, how: str, card, shower) -> dict:
        seat = self.seats[s]
        self.log(s, "win", card)
        counts = seat.all_counts()
        kaizhao_wait = card is not None and seat.holding(card) == 3
        if card is not None:
            counts[card] = counts.get(card, 0) + 1
        pairs = sorted(k for k, v in counts.items() for _ in range(v // 2))
        assert len(pairs) == 5, (s, counts)
        flips = []
        four_colour_self = len({colour(p) for p in pairs}) == 4 and how == "self_draw"
        if how != "discard" and not four_colour_self:
            flips = [self.take_top() for _ in range(self.rules.bonus_flips)]
        tou, flip_points = score_win(self.rules, pairs, how, flips, seat.kaizhao, kaizhao_wait)
        pay = [0] * self.n
        if how == "discard" and self.rules.discard_payer_only:
            payers = [shower]
        elif how == "stock" and self.rules.stock_turner_pays:
            payers = [shower]
        else:
            payers = [x for x in range(self.n) if x != s]
        for x in payers:
            pay[x] -= tou
            pay[s] += tou
        return self.trace(s, how, shower if how == "discard" else None, card,
                          len({colour(p) for p in pairs}), flips, flip_points, kaizhao_wait, tou, pay)

    def drawn_deal(self) -> dict:
        return self.trace(None, None, None, None, None, [], None, None, 0, [0] * self.n)

    def trace(self, winner, how, payer, card, colours, flips, flip_points, kaizhao_wait, tou, pay) -> dict:
        return {
            "game": "nine_cards", "rules": self.rules.name, "players": self.n, "seed": int(self.seed),
            "deal": int(self.deal), "banker": self.banker, "policies": self.policies, "hands": self.hands,
            "events": self.events, "result": "draw" if winner is None else "win", "winner": winner,
            "win_type": how, "payer": payer, "win_card": None if card is None else CARDS[card],
            "colours": colours, "flips": [CARDS[f] for f in flips], "flip_points": flip_points,
            "kaizhao_wait": kaizhao_wait, "kaizhao": [st.kaizhao for st in self.seats], "tou": tou,
            "payments": pay, "next_banker": self.banker if winner is None else winner,
        }


def play_reference(rules: NineCardsRules, seed: int, deal: int, policies: Sequence[str], banker: int = 0) -> dict:
    """The reference trace of deal index `deal` (policies: random, greedy, heuristic; one per seat or one)."""
    return Deal(rules, seed, deal, banker, policies).play()
