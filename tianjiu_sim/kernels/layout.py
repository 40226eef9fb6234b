"""Every int64 array the kernels share, declared once as named pieces with computed offsets.

The kernels pass plain int64 arrays (an observation, the rule parameters, the play tables, a
dealing plan, trace records) because each array argument of a numba function costs
reference-count work, and plain ints fold into the machine code. Their layouts are declared
here as data, in the OpenSpiel manner: a `Layout` is a list of (piece, size, meaning); its
each `add` returns the piece's computed offset, exported as a plain module-level int (`O_SEAT`, `R_TILES`,
`ROW_BL`, …) so numba treats them as compile-time constants. Add a piece by adding a row.

Random stream numbers (docs/CONTRACTS.md) are declared here too, so no two purposes share one.
"""
from __future__ import annotations


class Layout:
    """Named pieces of one int64 array (or of one axis of it); offsets follow declaration order."""

    def __init__(self, name: str):
        self.name = name
        self.pieces: list[tuple[str, int, str]] = []
        self.offsets: dict[str, int] = {}
        self.size = 0

    def add(self, piece: str, size: int, meaning: str) -> int:
        """Declare the next piece; returns its offset."""
        if piece in self.offsets or size < 1:
            raise ValueError(f"{self.name}: piece '{piece}' repeated or empty")
        self.pieces.append((piece, size, meaning))
        self.offsets[piece] = self.size
        self.size += size
        return self.offsets[piece]

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
OBSERVATION = Layout("observation")
O_SEAT = OBSERVATION.add("seat", 1, "the deciding seat")
O_HAND = OBSERVATION.add("hand", 1, "its hand (tile mask)")
O_HAND_SIZE = OBSERVATION.add("hand_size", 1, "tiles in its hand")
O_BANKER = OBSERVATION.add("banker", 1, "banker's seat")
O_PLAYERS = OBSERVATION.add("players", 1, "seats at the table")
O_ACTIVE = OBSERVATION.add("active", 1, "seats that have not folded")
O_TRICK = OBSERVATION.add("trick", 1, "trick number, 0 first")
O_SEEN = OBSERVATION.add("seen", 1, "every face-up tile so far (leads and beats), this trick included")
O_TRICK_SEEN = OBSERVATION.add("trick_seen", 1, "face-up tiles of the current trick")
O_LEADER = OBSERVATION.add("leader", 1, "leader of the current trick")
O_LEAD_PLAY = OBSERVATION.add("lead_play", 1, "play id of the lead (-1 while leading)")
O_WIN_PLAY = OBSERVATION.add("win_play", 1, "play id standing highest")
O_WIN_SEAT = OBSERVATION.add("win_seat", 1, "seat of the play standing highest")
O_WIN_IS_LEAD = OBSERVATION.add("win_is_lead", 1, "1 if the standing play is the lead (supremes behave differently)")
O_LAST = OBSERVATION.add("last", 1, "1 if this trick empties the hands")
O_FORCED = OBSERVATION.add("forced", 1, "residual-dice suit mask the lead must come from (0: free)")
O_TO_ACT = OBSERVATION.add("to_act", 1, "active seats still to act in this trick after the decider")
O_TILES = OBSERVATION.add("tiles", 1, "tiles per player as dealt")
O_STREAK = OBSERVATION.add("streak", 1, "banker's streak")
O_LEAD_SIZE = OBSERVATION.add("lead_size", 1, "tiles in the lead of the current trick")
O_FIRST_LEAD = OBSERVATION.add("first_lead", 1, "1 if the current trick's lead is its leader's first lead (賀尊)")
O_CAUGHT = OBSERVATION.add("caught", 1, "seat whose beat first beat a led 至尊 in this trick (包尊 catch), else -1")
O_PEND_LEADER = OBSERVATION.add("pend_leader", 1, "leader of a 至尊 whose 賀尊 is suspended (-1: none)")
O_PEND_WINNER = OBSERVATION.add("pend_winner", 1, "the seat that beat that 至尊 (-1: none)")
O_DONG = OBSERVATION.add("dong", MAX_SEATS, "+ seat: 戙 so far")
O_DISC = OBSERVATION.add("disc", MAX_SEATS, "+ seat: tiles discarded face down so far")
O_FOLDED = OBSERVATION.add("folded", MAX_SEATS, "+ seat: 1 if folded")
O_LED = OBSERVATION.add("led", MAX_SEATS, "+ seat: 1 once the seat has led a trick")
O_SHOWN = OBSERVATION.add("shown", MAX_SEATS, "+ seat: face-up tiles the seat has played")
OBS_LEN = OBSERVATION.size

# ---------------------------------------------------------------------------
# Rule parameters: a RuleSet packed by tables.pack_params
# ---------------------------------------------------------------------------
RULE_PARAMS = Layout("rule parameters")
R_PLAYERS = RULE_PARAMS.add("players", 1, "seats at the table")
R_TILES = RULE_PARAMS.add("tiles", 1, "tiles per player")
R_EARLY_DEATH = RULE_PARAMS.add("early_death", 1, "§4.4 on/off")
R_MIN_DONG = RULE_PARAMS.add("min_dong", 1, "戙 a player must end with to win the last trick (early death)")
R_BASELINE = RULE_PARAMS.add("baseline", 1, "§5.1 baseline 戙")
R_BANKER_MULT = RULE_PARAMS.add("banker_mult", 1, "§5.2 banker multiplier on/off")
R_SWEEP = RULE_PARAMS.add("sweep", 1, "全码 multiplier")
R_SUPREME_BONUS = RULE_PARAMS.add("supreme_bonus", 1, "賀尊 per opponent")
R_SUSPENDED = RULE_PARAMS.add("suspended", 1, "賀尊 suspended when the 至尊 is caught")
R_SUPREME_CLOSE = RULE_PARAMS.add("supreme_close", 1, "包尊 on/off")
R_CLOSE_REWARD = RULE_PARAMS.add("close_reward", 1, "包尊 catch reward per player")
R_QUARTET_BONUS = RULE_PARAMS.add("quartet_bonus", 1, "四大賀 per opponent")
R_FOLD = RULE_PARAMS.add("fold", 1, "§4.6 fold on/off")
R_FOLD_COST = RULE_PARAMS.add("fold_cost", 1, "what a folded player pays the closer")
R_RESIDUAL = RULE_PARAMS.add("residual", 1, "§4.7 residual-tile dice on/off")
R_DICE_GONG = RULE_PARAMS.add("dice_gong", 1, "lowest dice total that means 宫")
R_DICE_ZA = RULE_PARAMS.add("dice_za", 1, "lowest dice total that means 杂")
R_DEAL_ROUND = RULE_PARAMS.add("deal_round", 1, "tiles per turn when dealing in rounds")
R_SUPREME_PLAY = RULE_PARAMS.add("supreme_play", 1, "play id of 至尊")
R_QUARTET_CLASS = RULE_PARAMS.add("quartet_class", 1, "class id of the quartets")
R_ZA8_PAIR = RULE_PARAMS.add("za8_pair", 1, "play id of the 杂8 pair (the folk 至尊 catcher)")
R_NPLAYS = RULE_PARAMS.add("n_plays", 1, "plays in the catalogue")
R_NCLASSES = RULE_PARAMS.add("n_classes", 1, "classes in the catalogue")
R_LAO = RULE_PARAMS.add("lao", 1, "mask of the 老 / 二名老 tiles (fold eligibility)")
R_SUIT_GONG = RULE_PARAMS.add("suit_gong", 1, "folk suit mask 宫 (residual dice)")
R_SUIT_ZA = RULE_PARAMS.add("suit_za", 1, "folk suit mask 杂")
R_SUIT_YAO = RULE_PARAMS.add("suit_yao", 1, "folk suit mask 幺")
R_DICE_ON = RULE_PARAMS.add("dice_on", 1, "1 when residual dice can be thrown: the rule is on and more than 2 play")
R_SUPREME_MASK = RULE_PARAMS.add("supreme_mask", 1, "tile mask of 至尊")
N_PARAMS = RULE_PARAMS.size

# ---------------------------------------------------------------------------
# Play tables: ONE int64 array [N_ROWS, N_PLAYS] (tables.build_tables)
# ---------------------------------------------------------------------------
# Each array variable in a kernel costs NRT reference-count calls, so every table lives at a
# fixed row offset of one array.
TABLE_ROWS = Layout("table rows")
ROW_PT = TABLE_ROWS.add("pt", N_PLAYS, "row play: columns P_*")
ROW_BL = TABLE_ROWS.add("bl", N_PLAYS, "row play: count, then the plays beating it standing as the lead, cheapest first")
ROW_BF = TABLE_ROWS.add("bf", N_PLAYS, "… standing as a follower, cheapest first")
ROW_BLM = TABLE_ROWS.add("blm", N_PLAYS, "as bl, ascending by mask")
ROW_BFM = TABLE_ROWS.add("bfm", N_PLAYS, "as bf, ascending by mask")
ROW_TT = TABLE_ROWS.add("tt", N_TILES, "row tile bit: columns T_*")
ROW_HB = TABLE_ROWS.add("hb", N_TILES, "row tile bit: count, then the plays whose highest tile is that bit, ascending by mask")
ROW_BY_MASK = TABLE_ROWS.add("by_mask", 1, "every play ascending by mask")
ROW_LEAD_ORDER = TABLE_ROWS.add("lead_order", 1, "greedy's strongest-first order")
ROW_WEAK = TABLE_ROWS.add("weak", 1, "tile bits, weakest first (cols 0..31)")
ROW_WEAK_POS = TABLE_ROWS.add("weak_pos", 1, "col bit: the bit's place in the weak row")
ROW_LEAD_FROM = TABLE_ROWS.add("lead_from", 1, "col k: first place in lead_order of a play of at most k tiles")
ROW_PARTNERS = TABLE_ROWS.add("partners", 1, "col bit: the other tiles of every two-tile play with that tile")
ROW_LO_MASK = TABLE_ROWS.add("lo_mask", 1, "col i: mask of the play at place i of lead_order")
ROW_LO_NEED = TABLE_ROWS.add("lo_need", 1, "col i: its P_NEED")
ROW_SINGLE_LEADPOS = TABLE_ROWS.add("single_leadpos", 1, "col bit: place in lead_order of the tile's single")
ROW_CHEAP_POS = TABLE_ROWS.add("cheap_pos", 1, "col bit: place of the tile's single in the cheapest-first order (rank, then mask)")
ROW_CHEAP_TILE = TABLE_ROWS.add("cheap_tile", 1, "col place: the tile at that place")
N_ROWS = TABLE_ROWS.size

PLAY_COLUMNS = Layout("play columns (rows pt)")
P_MASK = PLAY_COLUMNS.add("mask", 1, "tile mask of the play")
P_CLS = PLAY_COLUMNS.add("cls", 1, "class id")
P_RANK = PLAY_COLUMNS.add("rank", 1, "rank within the class")
P_SIZE = PLAY_COLUMNS.add("size", 1, "tiles")
P_NEED = PLAY_COLUMNS.add("need", 1, "need_absent: the play is canonical iff hand & need == 0")
P_NBEAT = PLAY_COLUMNS.add("nbeat", 1, "plays that beat it as a lead (fewer = stronger)")
P_STR = PLAY_COLUMNS.add("str", 1, "single strength 0..100 (singles only)")
P_LEADPOS = PLAY_COLUMNS.add("leadpos", 1, "place in greedy's lead order (0 = strongest)")
P_BEATU_LED = PLAY_COLUMNS.add("beatu_led", 1, "union of the tiles of every play beating it as the lead (fast 'cannot beat')")
P_BEATU_FOL = PLAY_COLUMNS.add("beatu_fol", 1, "the same when it stands as a follower")
P_COLS = PLAY_COLUMNS.size

TILE_COLUMNS = Layout("tile columns (rows tt)")
T_SINGLE = TILE_COLUMNS.add("single", 1, "play id of the tile as a single")
T_STR = TILE_COLUMNS.add("str", 1, "strength of that single, 0..100")

# ---------------------------------------------------------------------------
# Trace records (engine.play_deal; trace.to_trace turns them into INTERFACES.md JSON)
# ---------------------------------------------------------------------------
MAX_TRICKS = 16
MAX_PLAYS = MAX_TRICKS * MAX_SEATS
MAX_BONUS = 8
PLAY_RECORD = Layout("play record")
RP_TRICK = PLAY_RECORD.add("trick", 1, "trick number")
RP_SEAT = PLAY_RECORD.add("seat", 1, "seat that played")
RP_ACTION = PLAY_RECORD.add("action", 1, "ACT_LEAD / ACT_BEAT / ACT_DISCARD")
RP_TILES = PLAY_RECORD.add("tiles", 1, "tile mask played")
TRICK_RECORD = Layout("trick record")
RT_LEADER = TRICK_RECORD.add("leader", 1, "leader")
RT_WINNER = TRICK_RECORD.add("winner", 1, "winner")
RT_DONG = TRICK_RECORD.add("dong", 1, "戙 it gave its winner")
BONUS_RECORD = Layout("bonus record")
RB_TYPE = BONUS_RECORD.add("type", 1, "B_*")
RB_SEAT = BONUS_RECORD.add("seat", 1, "receiver")
RB_AMOUNT = BONUS_RECORD.add("amount", 1, "what the receiver got")
RB_PAID = BONUS_RECORD.add("paid", 1, "0 if a suspended 賀尊 was cancelled")
RECORD_COUNTS = Layout("record counts")
RN_PLAYS = RECORD_COUNTS.add("plays", 1, "plays recorded")
RN_TRICKS = RECORD_COUNTS.add("tricks", 1, "tricks recorded")
RN_BONUSES = RECORD_COUNTS.add("bonuses", 1, "bonus entries")
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
    "nine_cards_world": 21,    # 九支十仔 lookahead: the worlds drawn from a seat's observation …
    "nine_cards_rollout": 22,  # … and the play-outs in them
    "advise": 23,         # tjsim advise: the worlds drawn from the seat's observation
}
STREAM_DEAL = STREAMS["deal"]
STREAM_PLAY = STREAMS["play"]
STREAM_DICE = STREAMS["dice"]
STREAM_EXCHANGE = STREAMS["exchange"]
STREAM_PREVIOUS_DEAL = STREAMS["previous_deal"]
STREAM_PREVIOUS_PLAY = STREAMS["previous_play"]
STREAM_PREVIOUS_DICE = STREAMS["previous_dice"]
STREAM_NINE_WORLD = STREAMS["nine_cards_world"]
STREAM_NINE_ROLLOUT = STREAMS["nine_cards_rollout"]

# ---------------------------------------------------------------------------
# Dealing plan (kernels/dealing.make_plan)
# ---------------------------------------------------------------------------
DEALING_PLAN = Layout("dealing plan")
PLAN_KIND = DEALING_PLAN.add("kind", 1, "KIND_ROUNDS or KIND_WALL")
PLAN_PLAYERS = DEALING_PLAN.add("players", 1, "seats dealt to")
PLAN_TILES = DEALING_PLAN.add("tiles", 1, "tiles per seat")
PLAN_ROUND = DEALING_PLAN.add("round", 1, "tiles per turn (rounds)")
PLAN_SHUFFLE = DEALING_PLAN.add("shuffle", 1, "shuffle model code")
PLAN_K = DEALING_PLAN.add("k", 1, "its K (riffles, transpositions)")
PLAN_FROM = DEALING_PLAN.add("from", 1, "FROM_BOX or FROM_PLAYED")
PLAN_METHOD = DEALING_PLAN.add("method", 1, "index in dealing.METHODS")
PLAN_DEALT = DEALING_PLAN.add("dealt", 1, "tiles dealt in all")
DEALING_PLAN.add("spare", 7, "(unused)")
PLAN_TAKER = DEALING_PLAN.add("taker", N_TILES, "+ position k: taker (0-based) of position k, −1 if undealt")
PLAN_SEQ = DEALING_PLAN.add("seq", N_TILES, "+ taker * tiles + i: position of the taker's i-th tile taken")
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
