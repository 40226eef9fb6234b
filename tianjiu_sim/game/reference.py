"""Reference engine: a slow, readable pure-Python Tien Gow engine written from RULES.md.

It exists to check the fast numba engine (differential tests) and shares no rule logic
with it: play classes, beats, legal actions, trick play, settlement and bonuses are all
re-derived here from RULES.md. It only borrows tile *data* (tiles.py), the settings object
(rules.py), the random streams (rng.py) and the dealing kernel (dealing.py).

Conventions followed exactly (docs/CONTRACTS.md): tiles are bits of a 32-bit mask, legal
plays are canonical masks (the lower copy of a duplicated kind when the hand holds both),
and the `random` strategy draws from the deal's STREAM_PLAY stream in decision order.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Sequence

import numpy as np

from ..kernels.dealing import deal_perfect, ROUNDS
from ..kernels.layout import STREAM_DEAL, STREAM_DICE, STREAM_PLAY
from ..kernels.rng import new_state, randbelow, seed_stream
from .rules import RuleSet
from .tiles import KIND_BITS, KIND_BY_PIPS, KINDS, N_TILES, TILE_KIND, tile_list


class IllegalAction(ValueError):
    """An action in a trace that the reference rules do not allow."""


# ---------------------------------------------------------------------------
# Play classification (RULES.md §3.1, §3.2)
# ---------------------------------------------------------------------------

# Civil kinds in rank order, highest first (§1); a civil kind's rank is its distance from the
# bottom of this list, which also orders every folk suit since folk suits keep §1's order.
_CIVIL_ORDER = ["6-6", "1-1", "4-4", "3-1", "5-5", "3-3", "2-2", "6-5", "6-4", "6-1", "5-1"]
_CIVIL_RANK = {pips: len(_CIVIL_ORDER) - i for i, pips in enumerate(_CIVIL_ORDER)}
_MILITARY_VALUE = {"6-3": 9, "5-4": 9, "6-2": 8, "5-3": 8, "5-2": 7, "4-3": 7,
                   "4-2": 6, "3-2": 5, "4-1": 5, "2-1": 3}
_FOLK_SUIT = {"6-6": "宫", "1-1": "宫", "4-4": "宫", "3-1": "宫", "5-5": "宫", "3-3": "宫",
              "2-2": "宫", "6-5": "幺", "6-4": "幺", "6-1": "幺", "5-1": "幺"}
# The four civil heads and the military value each combines with (天九, 地八, 人七, 和五).
_HEAD_VALUE = {"6-6": 9, "1-1": 8, "4-4": 7, "3-1": 5}
_PAIRABLE_MILITARY = (9, 8, 7, 5)  # 6 and 3 are single tiles: 4-2 + 2-1 is 至尊, not a pair
_LAO = {"6-6", "1-1", "6-3", "5-4", "6-2", "5-3", "6-5", "6-4"}  # §4.6: 老 and 二名老

SUPREME = ("supreme",)


def _pips(bit: int) -> str:
    return KINDS[TILE_KIND[bit]].pips


def _bits(mask: int) -> list[int]:
    return [b for b in range(N_TILES) if mask >> b & 1]


def _is_military(pips: str) -> bool:
    return pips in _MILITARY_VALUE


def suit_of(suits: str, pips: str) -> str:
    """The suit a tile belongs to for singles and pairs: 文/武 (`hk` suits) or 宫/杂/幺 (`folk`)."""
    if suits == "hk":
        return "武" if _is_military(pips) else "文"
    return "杂" if _is_military(pips) else _FOLK_SUIT[pips]


def folk_suit(pips: str) -> str:
    """The folk suit of a tile (宫, 杂 or 幺), used by the residual-tile dice of §4.7."""
    return "杂" if _is_military(pips) else _FOLK_SUIT[pips]


def _tile_rank(pips: str) -> int:
    return _MILITARY_VALUE[pips] if _is_military(pips) else _CIVIL_RANK[pips]


def classify_pips(suits: str, pips_list: Sequence[str]) -> tuple[tuple, int] | None:
    """(class, rank) of a set of tiles given by pips under `hk` or `folk` suits, or None if no play."""
    tiles = sorted(pips_list)
    n = len(tiles)

    def suit(p: str) -> str:
        return suit_of(suits, p)

    if n == 1:
        return ("single", suit(tiles[0])), _tile_rank(tiles[0])
    civil = [p for p in tiles if not _is_military(p)]
    military = [p for p in tiles if _is_military(p)]
    values = sorted(_MILITARY_VALUE[p] for p in military)
    if n == 2:
        if set(tiles) == {"4-2", "2-1"}:
            return SUPREME, 1
        if len(civil) == 2 and civil[0] == civil[1]:
            return ("pair", suit(civil[0])), _CIVIL_RANK[civil[0]]
        if (len(military) == 2 and values[0] == values[1] and values[0] in _PAIRABLE_MILITARY
                and military[0] != military[1]):
            return ("pair", suit(military[0])), values[0]
        if len(civil) == 1 and civil[0] in _HEAD_VALUE and values == [_HEAD_VALUE[civil[0]]]:
            return ("mixed",), _HEAD_VALUE[civil[0]]
        return None
    if n == 3:
        if (len(civil) == 2 and civil[0] == civil[1] and civil[0] in _HEAD_VALUE
                and values == [_HEAD_VALUE[civil[0]]]):
            return ("three_civil",), values[0]
        if (len(civil) == 1 and civil[0] in _HEAD_VALUE and military[0] != military[1]
                and values == [_HEAD_VALUE[civil[0]]] * 2):
            return ("three_military",), values[0]
        return None
    if n == 4:
        if (len(civil) == 2 and civil[0] == civil[1] and civil[0] in _HEAD_VALUE
                and military[0] != military[1] and values == [_HEAD_VALUE[civil[0]]] * 2):
            return ("quartet",), values[0]
        return None
    return None


@dataclass(frozen=True)
class Play:
    """A concrete play: its tile mask, class, rank within the class and size."""

    mask: int
    cls: tuple
    rank: int
    size: int


@lru_cache(maxsize=None)
def all_plays(suits: str) -> tuple[Play, ...]:
    """Every play (as concrete masks, copies distinct) of a suit system, by classifying every set of 1–4 tiles."""
    out = []
    for size in range(1, 5):
        for combo in combinations(range(N_TILES), size):
            got = classify_pips(suits, [_pips(b) for b in combo])
            if got is not None:
                out.append(Play(sum(1 << b for b in combo), got[0], got[1], size))
    return tuple(sorted(out, key=lambda p: p.mask))


@lru_cache(maxsize=None)
def _play_index(suits: str) -> dict[int, Play]:
    return {p.mask: p for p in all_plays(suits)}


def classify(rules: RuleSet, mask: int) -> Play | None:
    """The play formed by exactly the tiles of `mask`, or None if they form no play."""
    return _play_index(rules.suits).get(mask)


def _is_zha8_pair(play: Play) -> bool:
    # The catcher of 至尊 is the 6-2 + 5-3 pair, whatever the suit system calls it.
    return play.cls[0] == "pair" and play.cls[1] in ("武", "杂") and play.rank == 8


def _is_pair_of(play: Play, pips: str) -> bool:
    return play.cls[0] == "pair" and play.size == 2 and all(_pips(b) == pips for b in _bits(play.mask))


def beats(rules: RuleSet, challenger: Play, standing: Play, standing_is_lead: bool) -> bool:
    """Whether `challenger` beats the standing play of a trick (§3, §3.3)."""
    if challenger.cls == SUPREME:
        return False  # 至尊 can only be led; as a follower it is only a discard
    if standing_is_lead and standing.cls == SUPREME:
        return rules.supreme_catcher and _is_zha8_pair(challenger)
    if standing_is_lead and rules.civil_supreme and _is_pair_of(standing, "5-1"):
        return _is_pair_of(challenger, "6-1")  # 文尊: only the 6-1 pair catches it
    return (challenger.cls == standing.cls and challenger.size == standing.size
            and challenger.rank > standing.rank)


# ---------------------------------------------------------------------------
# Legal actions (canonical copies: docs/CONTRACTS.md)
# ---------------------------------------------------------------------------

def _lower_copy(bit: int) -> int | None:
    """The lower copy's bit if `bit` is the second copy of a duplicated kind, else None."""
    copies = KIND_BITS[TILE_KIND[bit]]
    return copies[0] if len(copies) == 2 and copies[1] == bit else None


def is_canonical(mask: int, hand: int) -> bool:
    """A play uses the lower copy of a kind whenever it uses one copy and the hand holds both."""
    for b in _bits(mask):
        low = _lower_copy(b)
        if low is not None and hand >> low & 1 and not mask >> low & 1:
            return False
    return True


def plays_in_hand(rules: RuleSet, hand: int) -> list[Play]:
    """Every canonical play the hand can make, ascending by mask."""
    return [p for p in all_plays(rules.suits) if p.mask & hand == p.mask and is_canonical(p.mask, hand)]


def legal_leads(rules: RuleSet, hand: int, forced_suit: str | None = None) -> list[int]:
    """Canonical masks the hand may lead, ascending; with a residual-dice suit, only its singles."""
    plays = plays_in_hand(rules, hand)
    if forced_suit is not None:
        return [p.mask for p in plays if p.size == 1 and folk_suit(_pips(_bits(p.mask)[0])) == forced_suit]
    return [p.mask for p in plays]


def legal_beats(rules: RuleSet, hand: int, standing: Play, standing_is_lead: bool,
                last_trick: bool = False, dong_before: int = 0) -> list[int]:
    """Canonical masks that beat the standing play, ascending; early death (§4.4) may forbid them all."""
    if (last_trick and rules.early_death
            and dong_before + standing.size < rules.early_death_min_dong):
        return []
    return [p.mask for p in plays_in_hand(rules, hand)
            if p.size == standing.size and beats(rules, p, standing, standing_is_lead)]


def may_fold(rules: RuleSet, hand: int) -> bool:
    """§4.6: with folding on, a hand with no 老 or 二名老 may fold."""
    return rules.fold and not any(_pips(b) in _LAO for b in _bits(hand))


def residual_dice_applies(rules: RuleSet, hand: int) -> bool:
    """§4.7: a leader with 2 or 3 tiles that form no multi-tile play must throw the dice."""
    if not rules.residual_dice or rules.players == 2:
        return False
    if len(_bits(hand)) not in (2, 3):
        return False
    return not any(p.size >= 2 for p in plays_in_hand(rules, hand))


def dice_suit(rules: RuleSet, total: int, hand: int) -> str:
    """The suit a residual-dice total forces, falling back to the first held suit in 宫, 杂, 幺 order."""
    if total >= rules.dice_gong_min:
        suit = "宫"
    elif total >= rules.dice_za_min:
        suit = "杂"
    else:
        suit = "幺"
    held = {folk_suit(_pips(b)) for b in _bits(hand)}
    if suit in held:
        return suit
    return next(s for s in "宫杂幺" if s in held)


# ---------------------------------------------------------------------------
# Settlement (§5.1–5.3)
# ---------------------------------------------------------------------------

def settle_reference(rules: RuleSet, dong: Sequence[int], closer: int | None, banker: int = 0,
                     streak: int = 1, folded: Sequence[int] = (), doubled: bool = False) -> list[int]:
    """Each seat's settlement payment (no bonuses) from 戙, closer, banker and streak; `doubled` for 包尊."""
    n = len(dong)
    pay = [0] * n
    if closer is None:
        return pay
    sweep = rules.sweep_multiplier if dong[closer] == sum(dong) else 1  # 全码
    for i in range(n):
        if i == closer:
            continue
        if i in folded:
            owed = rules.fold_cost  # a folded seat is outside the settlement but for the fold cost
        else:
            base = rules.baseline - dong[i] + (1 if dong[i] == 0 else 0)
            mult = 1
            if rules.banker_multiplier and (closer == banker or (i == banker and base > 0)):
                mult = streak + 1
            owed = base * mult * sweep * (2 if doubled else 1)
        pay[i] -= owed
        pay[closer] += owed
    return pay


# ---------------------------------------------------------------------------
# Dealing
# ---------------------------------------------------------------------------

def _stream(seed: int, stream: int, deal_index: int) -> np.ndarray:
    st = new_state()
    seed_stream(st, seed, stream, deal_index)
    return st


def deal_reference(rules: RuleSet, seed: int, deal_index: int) -> list[int]:
    """The hands (one mask per seat) of deal `deal_index` of a run with `seed` (perfect shuffle, rounds)."""
    st = _stream(seed, STREAM_DEAL, deal_index)
    order = np.zeros(32, dtype=np.int64)
    hands = np.zeros(rules.players, dtype=np.uint32)
    deal_perfect(st, rules.players, rules.tiles_per_player, rules.deal_round, order, hands)
    return [int(h) for h in hands]


# ---------------------------------------------------------------------------
# Deciders: who chooses the actions (the random strategy, or a trace being replayed)
# ---------------------------------------------------------------------------

class RandomDecider:
    """The `random` strategy of docs/CONTRACTS.md, drawing from the deal's STREAM_PLAY stream."""

    def __init__(self, seed: int, deal_index: int):
        self.st = _stream(seed, STREAM_PLAY, deal_index)

    def draw(self, n: int) -> int:
        """A random int in [0, n) from the play stream."""
        return int(randbelow(self.st, n))

    def fold(self, where: str, seat: int, hand: int) -> bool:
        """Fold with probability 1/2."""
        return self.draw(2) == 1

    def lead(self, where: str, seat: int, hand: int, options: list[int]) -> int:
        """A uniformly drawn legal lead."""
        return options[self.draw(len(options))]

    def follow(self, where: str, seat: int, hand: int, beats_: list[int], size: int) -> tuple[str, int]:
        """A drawn beat, or a discard of `size` tiles drawn one by one."""
        pick = self.draw(len(beats_) + 1)
        if pick < len(beats_):
            return "beat", beats_[pick]
        remaining, chosen = _bits(hand), 0
        for _ in range(size):
            b = remaining.pop(self.draw(len(remaining)))
            chosen |= 1 << b
        return "discard", chosen


def _mask_from_names(names: Sequence[str], hand: int, where: str) -> int:
    """Tiles named by pips taken from `hand`, lowest copies first (which is the canonical choice)."""
    mask = 0
    for name in names:
        if name not in KIND_BY_PIPS:
            raise IllegalAction(f"{where}: unknown tile '{name}'")
        free = [b for b in KIND_BITS[KIND_BY_PIPS[name].index] if hand >> b & 1 and not mask >> b & 1]
        if not free:
            raise IllegalAction(f"{where}: plays '{name}', which is not in the hand")
        mask |= 1 << free[0]
    return mask


class ReplayDecider:
    """Feeds a trace's actions to the deal loop, checking each is legal."""

    def __init__(self, trace: dict):
        self.folded = set(trace.get("folded", []))
        self.plays = [(t, p) for t, trick in enumerate(trace.get("tricks", [])) for p in trick["plays"]]
        self.pos = 0

    def _next(self, where: str, seat: int, actions: tuple[str, ...]) -> dict:
        if self.pos >= len(self.plays):
            raise IllegalAction(f"{where}: the trace ends, but seat {seat} is due to play")
        _, play = self.plays[self.pos]
        self.pos += 1
        if play["seat"] != seat:
            raise IllegalAction(f"{where}: seat {seat} is due to play, the trace has seat {play['seat']}")
        if play["action"] not in actions:
            raise IllegalAction(f"{where}: action '{play['action']}' where {'/'.join(actions)} is due")
        return play

    def fold(self, where: str, seat: int, hand: int) -> bool:
        """Whether the trace folds this seat."""
        return seat in self.folded

    def lead(self, where: str, seat: int, hand: int, options: list[int]) -> int:
        """The trace's lead, checked against the legal leads."""
        play = self._next(where, seat, ("lead",))
        mask = _mask_from_names(play["tiles"], hand, where)
        if mask not in options:
            raise IllegalAction(f"{where}: lead {play['tiles']} is not a legal lead "
                                f"(legal: {[tile_list(m) for m in options]})")
        return mask

    def follow(self, where: str, seat: int, hand: int, beats_: list[int], size: int) -> tuple[str, int]:
        """The trace's beat or discard, checked against the legal beats and the lead's size."""
        play = self._next(where, seat, ("beat", "discard"))
        mask = _mask_from_names(play["tiles"], hand, where)
        if play["action"] == "beat":
            if mask not in beats_:
                raise IllegalAction(f"{where}: {play['tiles']} does not legally beat the standing play "
                                    f"(legal beats: {[tile_list(m) for m in beats_]})")
            return "beat", mask
        if len(play["tiles"]) != size:
            raise IllegalAction(f"{where}: discards {len(play['tiles'])} tiles, the lead has {size}")
        return "discard", mask

    def finish(self, where: str) -> None:
        """Fail if the trace has actions left over after the deal ended."""
        if self.pos != len(self.plays):
            raise IllegalAction(f"{where}: the trace has {len(self.plays) - self.pos} plays after the deal ended")


# ---------------------------------------------------------------------------
# The deal (§4, §5)
# ---------------------------------------------------------------------------

def _next_active(seat: int, n: int, folded: set[int]) -> int:
    for k in range(n):
        s = (seat + k) % n
        if s not in folded:
            return s
    raise AssertionError("no active seat")


def play_with(rules: RuleSet, hands: Sequence[int], seed: int, deal_index: int, decider, banker: int = 0,
              streak: int = 1, method: str | None = "rounds", shuffle: str | None = "perfect") -> dict:
    """Play one deal with `decider` choosing every action (its fold/lead/follow methods, as
    ReplayDecider's) and return the INTERFACES.md trace: how `tjsim play --interactive` plays."""
    return _play(rules, hands, seed, deal_index, decider, banker, streak, method, shuffle)


def _play(rules: RuleSet, hands: Sequence[int], seed: int, deal_index: int, decider,
          banker: int, streak: int, method: str, shuffle: str) -> dict:
    n = rules.players
    if len(hands) != n:
        raise ValueError(f"{len(hands)} hands for {n} players")
    hand = [int(h) for h in hands]
    dice = _stream(seed, STREAM_DICE, deal_index)
    trace = {"rules": rules.name, "players": n, "seed": seed, "deal": deal_index,
             "method": method, "shuffle": shuffle, "banker": banker, "streak": streak,
             "hands": [tile_list(h) for h in hand]}
    deal_where = f"deal {deal_index}"

    # §4.6 fold: seats in order from the banker, only those allowed to fold.
    folded: set[int] = set()
    for k in range(n):
        seat = (banker + k) % n
        if may_fold(rules, hand[seat]) and decider.fold(f"{deal_where}, fold, seat {seat}", seat, hand[seat]):
            folded.add(seat)
    if isinstance(decider, ReplayDecider):
        bad = decider.folded - folded
        if bad:
            raise IllegalAction(f"{deal_where}, fold: seat {min(bad)} folded but may not fold")
    trace["folded"] = sorted(folded)
    active = [s for s in range(n) if s not in folded]
    dong = [0] * n
    if len(active) < 2:
        trace.update(tricks=[], dong=dong, closer=None, bonuses=[], payments=[0] * n)
        if isinstance(decider, ReplayDecider):
            decider.finish(deal_where)
        return trace

    bonus_pay = [0] * n
    bonuses: list[dict] = []
    has_led: set[int] = set()
    supreme_suspended_for: tuple[int, int] | None = None  # (至尊 leader, winner of that trick)
    supreme_close_catcher: int | None = None
    supreme_close_stands = False
    tricks = []
    leader = _next_active(banker, n, folded)

    def pay_bonus(receiver: int, per_opponent: int) -> int:
        total = 0
        for s in active:
            if s != receiver:
                bonus_pay[s] -= per_opponent
                total += per_opponent
        bonus_pay[receiver] += total
        return total

    while hand[leader]:
        t = len(tricks)
        where = f"{deal_where}, trick {t}, seat {leader}"
        forced = None
        if residual_dice_applies(rules, hand[leader]):
            d1 = 1 + int(randbelow(dice, 6))
            d2 = 1 + int(randbelow(dice, 6))
            forced = dice_suit(rules, d1 + d2, hand[leader])
        options = legal_leads(rules, hand[leader], forced)
        lead_mask = decider.lead(where, leader, hand[leader], options)
        lead = classify(rules, lead_mask)
        first_lead = leader not in has_led
        has_led.add(leader)
        hand[leader] &= ~lead_mask
        last = hand[leader] == 0
        plays = [{"seat": leader, "action": "lead", "tiles": tile_list(lead_mask)}]
        standing, standing_is_lead, winner = lead, True, leader
        caught_by_zha8 = None  # who caught a led 至尊 with the 杂8 pair, if anyone
        for k in range(1, n):
            seat = (leader + k) % n
            if seat in folded:
                continue
            where = f"{deal_where}, trick {t}, seat {seat}"
            options = legal_beats(rules, hand[seat], standing, standing_is_lead, last, dong[seat])
            action, mask = decider.follow(where, seat, hand[seat], options, lead.size)
            hand[seat] &= ~mask
            plays.append({"seat": seat, "action": action, "tiles": tile_list(mask)})
            if action == "beat":
                if lead.cls == SUPREME and standing_is_lead:
                    caught_by_zha8 = seat
                standing, standing_is_lead, winner = classify(rules, mask), False, seat
        dong[winner] += lead.size
        tricks.append({"leader": leader, "plays": plays, "winner": winner, "dong": lead.size})

        # §5.4 bonuses arising from this trick.
        if lead.cls == SUPREME:
            if last and rules.supreme_close:
                if winner == leader:
                    supreme_close_stands = True
                elif winner == caught_by_zha8:
                    supreme_close_catcher = winner
            elif not last and first_lead and rules.supreme_bonus > 0:
                if winner != leader and rules.supreme_bonus_suspended:
                    supreme_suspended_for = (leader, winner)
                    bonuses.append({"type": "supreme", "seat": leader, "amount": None})
                else:
                    bonuses.append({"type": "supreme", "seat": leader,
                                    "amount": pay_bonus(leader, rules.supreme_bonus)})
        if lead.cls == ("quartet",) and rules.quartet_bonus > 0:
            bonuses.append({"type": "quartet", "seat": winner,
                            "amount": pay_bonus(winner, rules.quartet_bonus)})
        leader = winner

    closer = leader
    if supreme_suspended_for is not None:
        # The suspended 賀尊 is paid unless the player who beat the 至尊 closes; it keeps its
        # place (the 至尊 trick) among the bonuses.
        entry = next(b for b in bonuses if b["amount"] is None)
        s_leader, s_winner = supreme_suspended_for
        if s_winner == closer:
            bonuses.remove(entry)
        else:
            entry["amount"] = pay_bonus(s_leader, rules.supreme_bonus)
    folded_list = sorted(folded)
    payments = settle_reference(rules, dong, closer, banker, streak, folded_list)
    if supreme_close_stands:
        doubled = settle_reference(rules, dong, closer, banker, streak, folded_list, doubled=True)
        bonuses.append({"type": "supreme_close", "seat": closer,
                        "amount": doubled[closer] - payments[closer]})
        payments = doubled
    if supreme_close_catcher is not None and rules.supreme_close_reward > 0:
        bonuses.append({"type": "supreme_close", "seat": supreme_close_catcher,
                        "amount": pay_bonus(supreme_close_catcher, rules.supreme_close_reward)})
    if isinstance(decider, ReplayDecider):
        decider.finish(deal_where)
    trace.update(tricks=tricks, dong=dong, closer=closer, bonuses=bonuses,
                 payments=[payments[i] + bonus_pay[i] for i in range(n)])
    return trace


def play_deal_reference(rules: RuleSet, hands: Sequence[int] | None, seed: int, deal_index: int,
                        policies: Sequence[str], banker: int = 0, streak: int = 1,
                        method: str | None = "", shuffle: str | None = "") -> dict:
    """Play one deal with the reference rules and return its INTERFACES.md trace (policy `random` only)."""
    if len(policies) != rules.players:
        raise ValueError(f"{len(policies)} policies for {rules.players} players")
    if any(p != "random" for p in policies):
        raise ValueError(f"the reference engine plays only the 'random' policy, got {list(policies)}")
    # deal_perfect deals in rounds after a perfect shuffle; given hands were not dealt by any
    # method or shuffle, so their trace names none.
    if method == "":
        method = ROUNDS if hands is None else None
    if shuffle == "":
        shuffle = "perfect" if hands is None else None
    if hands is None:
        hands = deal_reference(rules, seed, deal_index)
    return _play(rules, hands, seed, deal_index, RandomDecider(seed, deal_index), banker, streak,
                 method, shuffle)


def replay(rules: RuleSet, trace: dict) -> dict:
    """Re-derive a trace from its hands and actions, checking every action; raises IllegalAction."""
    n = rules.players
    if len(trace["hands"]) != n:
        raise IllegalAction(f"deal {trace.get('deal')}: {len(trace['hands'])} hands for {n} players")
    hands, used = [], 0
    for seat, names in enumerate(trace["hands"]):
        h = _mask_from_names(names, ~used & ((1 << N_TILES) - 1), f"deal {trace.get('deal')}, hands, seat {seat}")
        if len(names) != rules.tiles_per_player:
            raise IllegalAction(f"deal {trace.get('deal')}: seat {seat} holds {len(names)} tiles, "
                                f"not {rules.tiles_per_player}")
        hands.append(h)
        used |= h
    return _play(rules, hands, trace.get("seed", 0), trace.get("deal", 0), ReplayDecider(trace),
                 trace.get("banker", 0), trace.get("streak", 1), trace.get("method"),
                 trace.get("shuffle"))
