"""Every int64 array the kernels share, declared once as named pieces with computed offsets.

The kernels pass plain int64 arrays (an observation, the rule parameters, the play tables, a
dealing plan, trace records) because each array argument of a numba function costs
reference-count work, and plain ints fold into the machine code. Their layouts are declared
here as data, in the OpenSpiel manner: a `Layout` is a list of (piece, size, meaning); its
offsets are computed, checked, and exported below as plain module-level ints (`O_SEAT`, `R_TILES`,
`ROW_BL`, …) so numba treats them as compile-time constants. Add a piece by adding a row.

Random stream numbers (docs/CONTRACTS.md) are declared here too, so no two purposes share one.
"""
from __future__ import annotations


class Layout:
    """Named pieces of one int64 array (or of one axis of it); offsets follow declaration order."""

    def __init__(self, name: str, pieces: list[tuple[str, int, str]]):
        self.name = name
        self.pieces = pieces
        self.offsets: dict[str, int] = {}
        off = 0
        for piece, size, _meaning in pieces:
            if piece in self.offsets or size < 1:
                raise ValueError(f"{name}: piece '{piece}' repeated or empty")
            self.offsets[piece] = off
            off += size
        self.size = off

    def __getitem__(self, piece: str) -> int:
        """Offset of `piece`."""
        return self.offsets[piece]

    def describe(self) -> list[tuple[str, int, int, str]]:
        """(piece, offset, size, meaning) rows, for docs and tests."""
        return [(p, self.offsets[p], s, m) for p, s, m in self.pieces]


MAX_SEATS = 8       # seats an observation has room for (hk 4, folk 2–4)
N_PLAYS = 84        # plays in every catalogue (hk and folk alike; build_tables checks)
N_TILES = 32

# ---------------------------------------------------------------------------
# Observation: what one seat sees when it decides (RULES.md §4.5)
# ---------------------------------------------------------------------------
OBSERVATION = Layout("observation", [
    ("seat", 1, "the deciding seat"),
    ("hand", 1, "its hand (tile mask)"),
    ("hand_size", 1, "tiles in its hand"),
    ("banker", 1, "banker's seat"),
    ("players", 1, "seats at the table"),
    ("active", 1, "seats that have not folded"),
    ("trick", 1, "trick number, 0 first"),
    ("seen", 1, "every face-up tile so far (leads and beats), this trick included"),
    ("trick_seen", 1, "face-up tiles of the current trick"),
    ("leader", 1, "leader of the current trick"),
    ("lead_play", 1, "play id of the lead (-1 while leading)"),
    ("win_play", 1, "play id standing highest"),
    ("win_seat", 1, "seat of the play standing highest"),
    ("win_is_lead", 1, "1 if the standing play is the lead (supremes behave differently)"),
    ("last", 1, "1 if this trick empties the hands"),
    ("forced", 1, "residual-dice suit mask the lead must come from (0: free)"),
    ("to_act", 1, "active seats still to act in this trick after the decider"),
    ("tiles", 1, "tiles per player as dealt"),
    ("streak", 1, "banker's streak"),
    ("lead_size", 1, "tiles in the lead of the current trick"),
    ("dong", MAX_SEATS, "+ seat: 戙 so far"),
    ("disc", MAX_SEATS, "+ seat: tiles discarded face down so far"),
    ("folded", MAX_SEATS, "+ seat: 1 if folded"),
    ("led", MAX_SEATS, "+ seat: 1 once the seat has led a trick"),
    ("shown", MAX_SEATS, "+ seat: face-up tiles the seat has played"),
])
O_SEAT = OBSERVATION["seat"]
O_HAND = OBSERVATION["hand"]
O_HAND_SIZE = OBSERVATION["hand_size"]
O_BANKER = OBSERVATION["banker"]
O_PLAYERS = OBSERVATION["players"]
O_ACTIVE = OBSERVATION["active"]
O_TRICK = OBSERVATION["trick"]
O_SEEN = OBSERVATION["seen"]
O_TRICK_SEEN = OBSERVATION["trick_seen"]
O_LEADER = OBSERVATION["leader"]
O_LEAD_PLAY = OBSERVATION["lead_play"]
O_WIN_PLAY = OBSERVATION["win_play"]
O_WIN_SEAT = OBSERVATION["win_seat"]
O_WIN_IS_LEAD = OBSERVATION["win_is_lead"]
O_LAST = OBSERVATION["last"]
O_FORCED = OBSERVATION["forced"]
O_TO_ACT = OBSERVATION["to_act"]
O_TILES = OBSERVATION["tiles"]
O_STREAK = OBSERVATION["streak"]
O_LEAD_SIZE = OBSERVATION["lead_size"]
O_DONG = OBSERVATION["dong"]
O_DISC = OBSERVATION["disc"]
O_FOLDED = OBSERVATION["folded"]
O_LED = OBSERVATION["led"]
O_SHOWN = OBSERVATION["shown"]
OBS_LEN = OBSERVATION.size

# ---------------------------------------------------------------------------
# Rule parameters: a RuleSet packed by tables.pack_params
# ---------------------------------------------------------------------------
RULE_PARAMS = Layout("rule parameters", [
    ("players", 1, "seats at the table"),
    ("tiles", 1, "tiles per player"),
    ("early_death", 1, "§4.4 on/off"),
    ("min_dong", 1, "戙 a player must end with to win the last trick (early death)"),
    ("baseline", 1, "§5.1 baseline 戙"),
    ("banker_mult", 1, "§5.2 banker multiplier on/off"),
    ("sweep", 1, "全码 multiplier"),
    ("supreme_bonus", 1, "賀尊 per opponent"),
    ("suspended", 1, "賀尊 suspended when the 至尊 is caught"),
    ("supreme_close", 1, "包尊 on/off"),
    ("close_reward", 1, "包尊 catch reward per player"),
    ("quartet_bonus", 1, "四大賀 per opponent"),
    ("fold", 1, "§4.6 fold on/off"),
    ("fold_cost", 1, "what a folded player pays the closer"),
    ("residual", 1, "§4.7 residual-tile dice on/off"),
    ("dice_gong", 1, "lowest dice total that means 宫"),
    ("dice_za", 1, "lowest dice total that means 杂"),
    ("deal_round", 1, "tiles per turn when dealing in rounds"),
    ("supreme_play", 1, "play id of 至尊"),
    ("quartet_class", 1, "class id of the quartets"),
    ("za8_pair", 1, "play id of the 杂8 pair (the folk 至尊 catcher)"),
    ("n_plays", 1, "plays in the catalogue"),
    ("n_classes", 1, "classes in the catalogue"),
    ("lao", 1, "mask of the 老 / 二名老 tiles (fold eligibility)"),
    ("suit_gong", 1, "folk suit mask 宫 (residual dice)"),
    ("suit_za", 1, "folk suit mask 杂"),
    ("suit_yao", 1, "folk suit mask 幺"),
])
R_PLAYERS = RULE_PARAMS["players"]
R_TILES = RULE_PARAMS["tiles"]
R_EARLY_DEATH = RULE_PARAMS["early_death"]
R_MIN_DONG = RULE_PARAMS["min_dong"]
R_BASELINE = RULE_PARAMS["baseline"]
R_BANKER_MULT = RULE_PARAMS["banker_mult"]
R_SWEEP = RULE_PARAMS["sweep"]
R_SUPREME_BONUS = RULE_PARAMS["supreme_bonus"]
R_SUSPENDED = RULE_PARAMS["suspended"]
R_SUPREME_CLOSE = RULE_PARAMS["supreme_close"]
R_CLOSE_REWARD = RULE_PARAMS["close_reward"]
R_QUARTET_BONUS = RULE_PARAMS["quartet_bonus"]
R_FOLD = RULE_PARAMS["fold"]
R_FOLD_COST = RULE_PARAMS["fold_cost"]
R_RESIDUAL = RULE_PARAMS["residual"]
R_DICE_GONG = RULE_PARAMS["dice_gong"]
R_DICE_ZA = RULE_PARAMS["dice_za"]
R_DEAL_ROUND = RULE_PARAMS["deal_round"]
R_SUPREME_PLAY = RULE_PARAMS["supreme_play"]
R_QUARTET_CLASS = RULE_PARAMS["quartet_class"]
R_ZA8_PAIR = RULE_PARAMS["za8_pair"]
R_NPLAYS = RULE_PARAMS["n_plays"]
R_NCLASSES = RULE_PARAMS["n_classes"]
R_LAO = RULE_PARAMS["lao"]
R_SUIT_GONG = RULE_PARAMS["suit_gong"]
R_SUIT_ZA = RULE_PARAMS["suit_za"]
R_SUIT_YAO = RULE_PARAMS["suit_yao"]
N_PARAMS = RULE_PARAMS.size

# ---------------------------------------------------------------------------
# Play tables: ONE int64 array [N_ROWS, N_PLAYS] (tables.build_tables)
# ---------------------------------------------------------------------------
# Each array variable in a kernel costs NRT reference-count calls, so every table lives at a
# fixed row offset of one array.
TABLE_ROWS = Layout("table rows", [
    ("pt", N_PLAYS, "row play: columns P_*"),
    ("bl", N_PLAYS, "row play: count, then the plays beating it standing as the lead, cheapest first"),
    ("bf", N_PLAYS, "… standing as a follower, cheapest first"),
    ("blm", N_PLAYS, "as bl, ascending by mask"),
    ("bfm", N_PLAYS, "as bf, ascending by mask"),
    ("tt", N_TILES, "row tile bit: columns T_*"),
    ("hb", N_TILES, "row tile bit: count, then the plays whose highest tile is that bit, ascending by mask"),
    ("by_mask", 1, "every play ascending by mask"),
    ("lead_order", 1, "greedy's strongest-first order"),
    ("weak", 1, "tile bits, weakest first (cols 0..31)"),
    ("weak_pos", 1, "col bit: the bit's place in the weak row"),
    ("lead_from", 1, "col k: first place in lead_order of a play of at most k tiles"),
    ("partners", 1, "col bit: the other tiles of every two-tile play with that tile"),
    ("lo_mask", 1, "col i: mask of the play at place i of lead_order"),
    ("lo_need", 1, "col i: its P_NEED"),
    ("single_leadpos", 1, "col bit: place in lead_order of the tile's single"),
    ("cheap_pos", 1, "col bit: place of the tile's single in the cheapest-first order (rank, then mask)"),
    ("cheap_tile", 1, "col place: the tile at that place"),
])
ROW_PT = TABLE_ROWS["pt"]
ROW_BL = TABLE_ROWS["bl"]
ROW_BF = TABLE_ROWS["bf"]
ROW_BLM = TABLE_ROWS["blm"]
ROW_BFM = TABLE_ROWS["bfm"]
ROW_TT = TABLE_ROWS["tt"]
ROW_HB = TABLE_ROWS["hb"]
ROW_BY_MASK = TABLE_ROWS["by_mask"]
ROW_LEAD_ORDER = TABLE_ROWS["lead_order"]
ROW_WEAK = TABLE_ROWS["weak"]
ROW_WEAK_POS = TABLE_ROWS["weak_pos"]
ROW_LEAD_FROM = TABLE_ROWS["lead_from"]
ROW_PARTNERS = TABLE_ROWS["partners"]
ROW_LO_MASK = TABLE_ROWS["lo_mask"]
ROW_LO_NEED = TABLE_ROWS["lo_need"]
ROW_SINGLE_LEADPOS = TABLE_ROWS["single_leadpos"]
ROW_CHEAP_POS = TABLE_ROWS["cheap_pos"]
ROW_CHEAP_TILE = TABLE_ROWS["cheap_tile"]
N_ROWS = TABLE_ROWS.size

PLAY_COLUMNS = Layout("play columns (rows pt)", [
    ("mask", 1, "tile mask of the play"),
    ("cls", 1, "class id"),
    ("rank", 1, "rank within the class"),
    ("size", 1, "tiles"),
    ("need", 1, "need_absent: the play is canonical iff hand & need == 0"),
    ("nbeat", 1, "plays that beat it as a lead (fewer = stronger)"),
    ("str", 1, "single strength 0..100 (singles only)"),
    ("leadpos", 1, "place in greedy's lead order (0 = strongest)"),
    ("beatu_led", 1, "union of the tiles of every play beating it as the lead (fast 'cannot beat')"),
    ("beatu_fol", 1, "the same when it stands as a follower"),
])
P_MASK = PLAY_COLUMNS["mask"]
P_CLS = PLAY_COLUMNS["cls"]
P_RANK = PLAY_COLUMNS["rank"]
P_SIZE = PLAY_COLUMNS["size"]
P_NEED = PLAY_COLUMNS["need"]
P_NBEAT = PLAY_COLUMNS["nbeat"]
P_STR = PLAY_COLUMNS["str"]
P_LEADPOS = PLAY_COLUMNS["leadpos"]
P_BEATU_LED = PLAY_COLUMNS["beatu_led"]
P_BEATU_FOL = PLAY_COLUMNS["beatu_fol"]
P_COLS = PLAY_COLUMNS.size

TILE_COLUMNS = Layout("tile columns (rows tt)", [
    ("single", 1, "play id of the tile as a single"),
    ("str", 1, "strength of that single, 0..100"),
])
T_SINGLE = TILE_COLUMNS["single"]
T_STR = TILE_COLUMNS["str"]

# ---------------------------------------------------------------------------
# Trace records (engine.play_deal; trace.to_trace turns them into INTERFACES.md JSON)
# ---------------------------------------------------------------------------
MAX_TRICKS = 16
MAX_PLAYS = MAX_TRICKS * MAX_SEATS
MAX_BONUS = 8
PLAY_RECORD = Layout("play record", [
    ("trick", 1, "trick number"), ("seat", 1, "seat that played"),
    ("action", 1, "ACT_LEAD / ACT_BEAT / ACT_DISCARD"), ("tiles", 1, "tile mask played"),
])
TRICK_RECORD = Layout("trick record", [
    ("leader", 1, "leader"), ("winner", 1, "winner"), ("dong", 1, "戙 it gave its winner"),
])
BONUS_RECORD = Layout("bonus record", [
    ("type", 1, "B_*"), ("seat", 1, "receiver"), ("amount", 1, "what the receiver got"),
    ("paid", 1, "0 if a suspended 賀尊 was cancelled"),
])
RECORD_COUNTS = Layout("record counts", [
    ("plays", 1, "plays recorded"), ("tricks", 1, "tricks recorded"), ("bonuses", 1, "bonus entries"),
])
ACT_LEAD, ACT_BEAT, ACT_DISCARD = 0, 1, 2
ACTIONS = ("lead", "beat", "discard")
# Bonus types (column of the per-seat bonus array, `type` in the trace).
B_SUPREME, B_SUPREME_CLOSE, B_QUARTET = 0, 1, 2
BONUS_TYPES = ("supreme", "supreme_close", "quartet")
# Class counters: led, beat with, beaten (class of the standing play that was beaten).
C_LED, C_BEAT, C_BEATEN = 0, 1, 2

# ---------------------------------------------------------------------------
# Random streams (docs/CONTRACTS.md): seed_stream(state, seed, STREAM_x, index)
# ---------------------------------------------------------------------------
STREAMS = {
    "deal": 1,            # the shuffle, the 牌頭 dice, the deal
    "play": 2,            # strategy decisions
    "dice": 3,            # residual-tile dice (§4.7)
    "exchange": 7,        # counterfactual tile exchanges (sim/value.py)
    "previous_deal": 9,   # deal-odds --from played: the simulated previous deal …
    "previous_play": 10,  # … its decisions
    "previous_dice": 11,  # … and its dice
}
STREAM_DEAL = STREAMS["deal"]
STREAM_PLAY = STREAMS["play"]
STREAM_DICE = STREAMS["dice"]
STREAM_EXCHANGE = STREAMS["exchange"]
STREAM_PREVIOUS_DEAL = STREAMS["previous_deal"]
STREAM_PREVIOUS_PLAY = STREAMS["previous_play"]
STREAM_PREVIOUS_DICE = STREAMS["previous_dice"]

# ---------------------------------------------------------------------------
# Dealing plan (kernels/dealing.make_plan)
# ---------------------------------------------------------------------------
DEALING_PLAN = Layout("dealing plan", [
    ("kind", 1, "KIND_ROUNDS or KIND_WALL"),
    ("players", 1, "seats dealt to"),
    ("tiles", 1, "tiles per seat"),
    ("round", 1, "tiles per turn (rounds)"),
    ("shuffle", 1, "shuffle model code"),
    ("k", 1, "its K (riffles, transpositions)"),
    ("from", 1, "FROM_BOX or FROM_PLAYED"),
    ("method", 1, "index in dealing.METHODS"),
    ("dealt", 1, "tiles dealt in all"),
    ("spare", 7, "(unused)"),
    ("taker", N_TILES, "+ position k: taker (0-based) of position k, −1 if undealt"),
    ("seq", N_TILES, "+ taker * tiles + i: position of the taker's i-th tile taken"),
])
PLAN_KIND = DEALING_PLAN["kind"]
PLAN_PLAYERS = DEALING_PLAN["players"]
PLAN_TILES = DEALING_PLAN["tiles"]
PLAN_ROUND = DEALING_PLAN["round"]
PLAN_SHUFFLE = DEALING_PLAN["shuffle"]
PLAN_K = DEALING_PLAN["k"]
PLAN_FROM = DEALING_PLAN["from"]
PLAN_METHOD = DEALING_PLAN["method"]
PLAN_DEALT = DEALING_PLAN["dealt"]
PLAN_TAKER = DEALING_PLAN["taker"]
PLAN_SEQ = DEALING_PLAN["seq"]
PLAN_SIZE = DEALING_PLAN.size
KIND_ROUNDS, KIND_WALL = 0, 1
FROM_BOX, FROM_PLAYED = 0, 1
FROM_NAMES = ("box", "played")


def _check() -> None:
    """Build-time checks of the declared layouts."""
    assert len(set(STREAMS.values())) == len(STREAMS), "two purposes share a random stream"
    assert PLAY_RECORD.size == 4 and TRICK_RECORD.size == 3 and BONUS_RECORD.size == 4 and RECORD_COUNTS.size == 3
    assert MAX_PLAYS >= MAX_TRICKS * MAX_SEATS
    assert max(P_COLS, 2 * N_TILES) <= N_PLAYS, "table rows are N_PLAYS wide"


_check()
