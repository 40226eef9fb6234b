"""Exact perfect-information solver (RULES.md §8): the paranoid value V_s of a Tien Gow position.

Every hand is visible; seat `s` maximises its net result for the deal (settlement of §5.1–5.3
plus the bonuses of §5.4) and the other seats minimise it together.  The residual-tile dice
(§4.7) are chance nodes averaged over the 36 throws, so values are floats (integers whenever
no dice can be thrown).

One recursive numba kernel (`_search`) walks the tree play by play: fail-soft alpha-beta with
the transposition table probed and stored at trick boundaries (hands + 戙 + leader + bonus
state) and at the followers' nodes inside a trick (below), driven by zero-window tests
(`solve_kernel`).  The value stored for a boundary is
the *future* result from that boundary on; bonuses already paid are added by the caller, so the
same entry serves every path into the position.

Taken from the bridge double-dummy solver DDS (github.com/dds-bridge/dds, read at d2bc4c2):
- the driver of `SolverIF.cpp` (guess / lowerbound / upperbound, one zero-window
  `ABsearch` per step, `lowerbound = guess++` or `upperbound = --guess`) is `solve_kernel`'s
  MTD(f) loop over the integer value, generalised to fail-soft windows (b − 1, b) so the dice's
  fractional values also converge;
- the transposition table of `TransTable.h` (`nodeCardsType`: lower bound, upper bound and the
  best move, stored only at the start of a trick) is `ttv` + `ttb` here (8-way buckets where a new
  key evicts the entry with the fewest tiles a hand: the depth-preferred replacement of chess
  programs, not DDS's, whose table is split by tricks left and emptied when full); like DDS's
  partition search (entries keyed by relative ranks, not by the cards themselves) `_tt_key` reads
  the holdings up to equivalence, so transposed positions that differ only in equivalent tiles
  share an entry (hashed into two 64-bit words: a false match needs a 128-bit collision);
- `Moves::MoveGen0/123` generate one move per *sequence* of equivalent cards (cards adjacent
  once the cards played are removed): `_groups` does the same for tiles — multi-free tiles of
  one class with no other seat's tile ranked between them, copies of a kind, and (dice off) all
  tiles of classes no other seat holds — for leads, single beats and face-down discards;
- the quick tricks of `QuickTricks.cpp` become the sure-winner bound in `_search`: a leader whose every tile is an
  unbeatable single takes every remaining trick, which is a bound on the value (a lower bound
  for the maximiser on lead, an upper one for a minimiser) that cuts before any move is made;
- move ordering in the spirit of `Moves::WeightAlloc*`: the TT's best lead first, sure winners
  next; a follower whose side is already winning discards its weakest tiles first, otherwise it
  beats (strongest first while an opponent of it is still to play, else cheapest); two killer
  moves per ply (the last two that cut off there) are tried first.  Outside the play-out, leads of
  more tiles come first, a minimiser counts a lead as sure when s cannot beat it (its partners let
  it go), and a minimiser overtakes a partner's play that s, still to act, could beat.
A second ordering (not from DDS; stop 43), for one stage of a long search (kernels/position.py,
SECOND_ORDER_STAGES): a minimiser facing s's standing play, with a partner after it that can beat it too,
discards first and leaves the trick to that partner, where the first ordering beats at once.  Which is
right depends on the deal, and a wrong first choice at the first trick costs a whole proof: deal 84 of
bench_solve_cli.py, the banker's lead 5-2 (worth 0), "V >= 1" fails in 10.6 M nodes as the first
ordering has seat 1 spend its 6-3 on it, in 0.19 M with the second, where seat 3's 6-2 takes it.  In every
stage the second ordering is worse (200 full deals, every action: 539.0 M -> 567.2 M nodes; deal 164
0.13 M -> 13.4 M: the proofs that its weak leads leave the banker no 戙).
Not from DDS: a last trick of single tiles is settled by backward induction over the followers'
beat/discard choices without recursing (`_last_single_trick`); and seat s never discards a
*free* single (in no multi-tile play of its hand) while keeping a lower free single of the same
class.  That discard is dominated: with the higher tile A kept instead of the lower W, s can copy
every line W allows (A beats whatever W beats, and a play that beats A also beats W, so the other
seats' replies to A are a subset of their replies to W; once A or W is played the two positions
are the same), so s's value is never lower.  The same holds for a minimising seat with one
condition: none of its partners (the other minimisers) holds a tile of the class ranked above W
and not above A.  For the minimising side which partner wins a trick matters, and such a tile
could overtake W but not A; without one, the partners' replies to A are exactly their replies to
W, s's are a subset, and the partners can copy every line W allows.

The passing game (not from DDS; stop 55): that condition is what makes the proofs that s gets its 戙 or closes
dear.  Among three partners a tile of one of them almost always lies between two free singles of another, so a
minimiser's discards keep every single of every class, and on the dearest deals of `tjsim solve` dropping the
condition (unsound: 13 of 3,000 random 2–4-tile positions change value) cuts their nodes ten to thirty times (deal
419, every action: 26.4 M -> 0.94 M).  The passing game drops it soundly by giving the minimisers what the
dominated line had and the kept one lacks.  A minimiser that discards a free single W while keeping a free single
A of the class above it with a partner's tile ranked in (W, A] takes a *debt* W (X_PASS_DEBT); later it may play
the lowest free single of its hand above W *as* W (a virtual play, move code VIRTUAL): that tile leaves its hand,
the trick sees W, and the debt is paid.  That is the dropped line's play of W, with the same hands after it, so
the kept discard with its debt can copy every line the dropped one allows and the dominance holds without the
condition.  The lowest tile above W stands for the others: playing it leaves the higher kept, which the debt it
takes as if discarded (`_pass_debts`) dominates as before.  Virtual plays only add to the minimisers' choices, so
the passing game's value is at most V: a test "V >= b" that holds in it holds.  `mtd_kernel` asks each test there
(after the upper game, below) on a budget of X_PASS_NODES (kernels/position.py, PASS_NODES), and searches the real
game when it fails (`_game_test`); bonuses and the dice leave it out, and the close game is not used in it, nor
`_last_single_trick` and the in-trick floor while a seat that may still play holds a debt (they do not see virtual
plays).  A debt lies between tiles that are otherwise equivalent, so it splits the tile groups of every hand
(`_groups`), and the table entries carry the debts and the held tiles of their classes exactly (`_pass_salt`),
apart from the real game's.  The two games share bounds (stop 57): from any position, with any debts, the passing
game is worth at most the real game from the same hands (debts only add virtual plays), so its floors hold in the
real search and the real search's ceilings hold in it (`_other_game_cut`).  To find the game's entries the real
search keeps the debts the game would have on its line (X_PASS_TRACK: a minimiser's discard takes them as there;
nothing else in the real search reads them).  Deals 0–599, every action: 1,260.8 M -> 1,224.8 M nodes, 47 -> 46
deals over 1.2 M nodes of path, deal 98 21.0 M -> 5.2 M (benchmarks/README.md, stop 57).  Stop 55 built a looser
game (the trick *passed* to a partner whose discard beat the debt, decided at the trick's end, after seats that
faced A); lower than V on 13 of 340 random 4–6-tile positions where this one is lower on none
(benchmarks/README.md, stop 56).  It can be lower than V (stop 58): a debt lets the minimiser choose after s's
next moves whether it discarded W or A, which a face-down discard does not (2 of 20,000 random 3-tile positions,
checked by the brute force); so it cannot stand in for the real search.  Until stop 58 the virtual play took the
lowest *bit* of the tiles above W, which is the highest tile (bits run from the highest rank down): the game could
then be worth more than V, and the solver's value was wrong on 1 of 510 random 4–6-tile positions
(tests/test_solver.py, `test_virtual_play_is_made_with_the_lowest_tile_above_the_debt`).

The upper game (not from DDS; stop 58) drops the condition the other way: no debts, no virtual plays, so a
minimiser discards only the lowest free single of each class, as s does.  The minimisers have fewer choices, so
the game is worth at least V: a test "V >= b" that fails in it fails (X_UPPER; 13 of 3,000 random 2–4-tile
positions are worth more there, stop 55).  `mtd_kernel` asks each test there first, on X_UPPER_NODES nodes
(kernels/position.py, UPPER_NODES; `_game_test`), then in the passing game, then in the real search.  A test that
holds costs it little (the minimisers' "all" nodes keep one discard a class), and one that fails is settled before
the passing game spends a failed proof on it, which cost about what the real search's proof costs.  Its entries
are salted apart (UPPER_SALT), the close game is not asked in it (its entries would carry the upper game's
discards under the real game's keys), and it reads no other game's bounds.  Deals 0–599, every action: 1,269.6 M
-> 1,114.5 M nodes, 46 -> 38 deals over 1.2 M nodes of path (benchmarks/README.md, stop 58).

Dominated beats (not from DDS; stop 60, X_LOW_BEATS): the discards' dominance carried over to a follower's single
beats.  A beat with a free single b is left out where a lower free single u of the same hand beats the standing play
too, no seat still to act in the trick holds a tile (nor a debt) beating u and not b, and no partner of the seat
holds one (s has none; the upper game drops that condition, as for its discards; the passing game too, the beat
with u then taking a debt u as a discard would, `_beat_debts`, so that b may later be played as u).  Then u and b
win or lose the trick alike, the seats after reply to both alike, and the hands after the trick differ only in the
seat keeping b instead of u, which by the discards' argument is never worse for it.  `_groups` merges u and b only
where no other seat holds a tile between them; this rule also passes over the tiles of the seats that have played
to the trick.
Tied higher tiles (stop 61, X_TIED_HIGH): both dominances, of discards and of beats, also where the higher tile b
is in a multi-tile play of the hand, the lower one (kept, or beating instead) still free.  Keeping b keeps every
play the lower tile had (b as a single beats what it beats and is beaten by less) and b's multi-tile plays besides;
no play is ever forced, and where the dice force a suit (`folk`, whose classes are its suits) b's hand is forced to
the same suit or, holding a multi-tile play, not at all.  Deals 0–599, every action: 948.6 M -> 843.1 M nodes, 34 ->
31 deals over 1.2 M nodes of path, no value changed (deal 271 22.4 M -> 13.7 M of path, 210 5.1 M -> 1.35 M).  In the
passing game the minimisers' debts follow (stop 61, second step): there a free tile kept can pay a debt as a virtual
play, which a tied one could not, so a tied tile counts as a free one wherever the game's debts read the tile kept
above (`_takes_debt`, `_beat_debts`), and a virtual play of a debt W is made with the lowest free single above W and
with each tied tile below that one (`_virtual_plays`).  The lowest free tile stands for every tile above it, free or
tied, by the same dominance; a tied tile below it is a play of its own (the dropped line may have discarded it and
kept W, and two tied tiles are not comparable).  Deals 0–599: 843.1 M -> 704.6 M nodes, 31 -> 28 deals over
1.2 M nodes of path, no value changed (benchmarks/README.md, stop 61).
Dead debts (stop 60, X_DEAD_DEBTS): a debt W of the passing game is dropped at a trick's end once no partner holds
a tile beating W and not the highest tile of W's class left in the debtor's hand (`_live_debts`), and a virtual
play is not made where no partner still to act in the trick could use it and its tile would take no debt
(`_virtual_plays`): such a play is dominated by the tile played as itself, so the game's value is unchanged, its
tile groups split less and more of its entries meet.  The 55 dear deals of stop 59 (every deal of 0–599 over 1 M
nodes), every action: 1,084.1 M -> 920.5 M nodes; deals 0–599, every action: 1,114.5 M -> 948.6 M nodes, 38 -> 34
deals over 1.2 M nodes of path, no value changed (benchmarks/README.md, stop 60).
Gap plays (stop 62, X_GAP_PLAYS): in the two games a minimiser's single lead, like its single beat, is left out where
a lower free single w of its hand leads (or beats) as well and s holds no tile ranked above w and not above b; the
partners' tiles between no longer count, nor those of the seats still to act (`_lower_stands`, `_beat_later`).
Against w s has exactly the plays it has against b, and a partner has those and more (a tile between overtakes w),
which are the minimisers' own choices: the trick ends as it would after b, or as they choose.  After it the seat
keeps b instead of w, in the passing game with a debt w (`_beat_debts`, which a minimiser's single lead now takes
too): the position its discards' reduction already shows is never worse for it.  The upper game, whose minimisers
may only have fewer choices than in the real game, keeps them to w as its discards keep them to the lowest tile.
The real game keeps the partners' condition: there, with no partner's tile between, nobody's tile lies between and
`_groups` has merged w and b already.  Deals 0–599, every action: 704.6 M -> 432.4 M nodes, 28 -> 18 deals over
1.2 M nodes of path, no value changed.  A virtual play of a debt w is the dropped line's play of w, so the same rule
leaves it out where a lower free single u stands for w (`_virtual_plays`); the play of u then takes a debt u, a debt
above u counting as a tile kept (`_beat_debts`).  The 55 dear deals: 413.3 M -> 391.7 M nodes, none dearer.
The other way round, a minimiser's real single play of t is left out where its virtual play of t as a debt w stands
for it (`_virtual_stands`): t the only tile of the hand above w, s holding none between and a partner still to act
holding one; the trick offers s the same and the partners more, and after it the hands are the same with the debt
dead.  The 55 dear deals: 391.7 M -> 385.7 M nodes (benchmarks/README.md, stop 62).
Owed gaps (stop 63, X_OWED_GAPS): the yes / no games in which s proves and the other seats owe their discards
(close, at least; `_close_search`) take the same rule to those seats' single leads and beats.  There the
lower play w needs no debt: it is *owed* (the tile stays in the hand, the seat owes one tile more), so that the
hand after the trick holds every hand the left-out plays would have left (b played and w kept, or w played and b
kept), and the seat gives up later whichever it likes, as for its owed discards.  Shown w, s has the plays it has
against b and the partners more.  The owing seats only gain choices, so a 1 still holds in the real game
(`_owes_play`).  Deal 49's three leads worth 12, the close game from the lead: 11.1 M, 21.2 M and 9.0 M nodes ->
0.21 M, 0.19 M and 0.25 M.  The 55 dear deals, every action: 385.7 M -> 276.9 M nodes, no value changed
(benchmarks/README.md, stop 63).  Not in the get game: the owed lower tile, which the seat may play again, is a
looser game, and there it lost a proof the search leans on (full deal 98's lead 3-1 with the passing game off,
"s gets one 戙": 4.7 M nodes -> past 30 M; `test_value_walk_asks_the_get_game_first`).

Twins (not from DDS; stop 41): the two nines (6-3, 5-4), eights, sevens and fives are equal in rank, and
exchanging the two tiles of one value in every hand at once maps every play to a play of the same class
and rank (`twin_pairs` checks this on the catalogue rather than assuming it).  A seat holding both
twins sits in a position that is its own image, so its move with the higher twin and the same move with
the lower one lead to positions that are images of each other, of equal value; only the lower is
searched (leads, beats and discards), and `tjsim solve` gives the higher its image's value.  `_groups`
never merges them: held together they form the military pair, so neither is a free single.  200 full
deals, banker, every action, cap 30 M nodes a search: 596 M → 577 M nodes (deal 83: 3.5 M → 1.7 M,
deal 78: 30.4 M → 23.3 M; benchmarks/README.md, stop 41).

In-trick bounds (not from DDS either): the static bounds of a trick boundary (`_static_bounds`, DDS's
quick tricks made into bounds on the settlement) are also taken inside a trick, at each follower,
for the boundary that follows it: once for each seat that may still take the trick, with the
trick's 戙 given to that seat and that seat leading next, the lowest and highest over the seats
bounding the node.  The seats still to act hold their tiles before their discard or beat; every
term of the bounds is monotone so that more tiles against the leader only widen them, except a
leader's own sure plays, which are counted for the standing play's seat (its hand is final for
the trick) and not for a seat still to act.  A trick that seat s cannot win, or that nobody can take
from the standing play, then cuts before the discards of the seats still to act are searched — the
face-down discards are the widest branching of the game.  Tricks led with 至尊 or (with its bonus) a
quartet are left out, as is the last trick, which is settled exactly.  Full 8-tile banker solves:
3.3 M → 20 k, 7.7 M → 0.67 M and 7.3 M → 0.14 M nodes (benchmarks/README.md).

Entries inside tricks (`_trick_key`, not from DDS, whose tricks are narrow): a follower's node is
also probed and stored, keyed by the holdings up to equivalence, the trick so far (lead, standing play
and its seat, the seat to act) and what a boundary's key holds.  A seat's face-down discards over two tricks
commute (x then y, or y then x, leave the same hand), so the same in-trick state is reached from
different boundaries, and each time its last followers would list every discard again: a pair led
from 7 tiles gives the last follower about twenty, each leading to a boundary found in the table.
A hit now cuts the whole rest of the trick.  Full 8-tile deals, the banker's value and every
action's (`tjsim solve`'s searches), 56 deals with a cap of 10 M nodes a search: 130.7 M → 27.8 M
nodes (deal 34: 10.5 M → 1.4 M; benchmarks/README.md, stop 24).  Keyed by the exact hands until stop 44; the
boundary's reading up to equivalence, with the standing single read as a held tile (a tile of one owner
above it and one below it are no longer one group), lets positions that differ only in which of two
equivalent tiles a seat discarded a trick or two before share an entry in the trick too.  200 full
deals, every action, cap 30 M: 500.5 M → 484.6 M nodes; the 196 deals under the cap 105.2 M → 93.5 M
(deal 83 2.01 M → 1.29 M, 175 5.95 M → 4.16 M, 78 22.3 M → 18.6 M).  The reading is a Zobrist hash (a word
per held tile's slot, owner and tie, and kind in a multi-tile play), no longer a hash chained tile by
tile over the 32 tiles: the chained one made each node 40 % dearer and the time no better.

Sure takers (`_takes_trick`, not from DDS): a seat still to act may hold a play sure to take the
trick — it beats the standing play and every play the seats before it could make stand, and no
seat after it can beat it.  Its side can then have it take the trick whatever the other side does,
so the static bounds of the next boundary with that seat on lead bound the node from its side: a
floor when it is s, a ceiling when it is an opponent.  This is what makes the proofs of a weak
lead cheap: s, shut out of the lead, is proved to get a trick as soon as a minimiser leads
into its top tile, instead of after every discard of the seats between (full deal 4 of
bench_solver, banker leading 1-1: 21.7 M → 0.50 M nodes).

Budgeted probes (not from DDS; the idea of searching the cheapest proof first, as in proof-number
search, done with plain node budgets): at a trick boundary with at least PROBE_TILES tiles a hand
every lead is first searched with a budget of PROBE_B0 nodes, then four times as many each round,
and without a budget after PROBE_ROUNDS rounds.  A lead whose search completes counts as in plain
alpha-beta (so the value is the same, whatever the order); a search out of budget stores nothing
in the transposition table and unwinds (X_ABORT), to be tried again next round.  This matters in
the proofs for a seat the others shut out: among a minimiser's leads that all hold s to nothing,
one may be proved in 2 k nodes and another in 500 k (full deals for seat 3: median 0.5 M → 8 k
nodes).  The same cap gives up a whole solve (X_LIMIT).  Probes at follower nodes were measured
and not kept (−4 % nodes).  `tjsim solve` makes none in its actions' searches, whose first test is
mostly a proof that must search every reply anyway (kernels/position.py, ACTION_PROBES).

Stoppers (`_tricks_for_s`, not from DDS; in the spirit of its quick tricks for the side not on
lead): at a boundary where another seat leads, a play of s that nothing of theirs beats stands as
a stopper for every play of its class below it.  The others can keep s from every trick only by
filling each trick with a play s cannot beat at its turn, each spending its size in their
unstopped tiles; when those are too few for the tiles left once s keeps its stoppers (and its
sure singles, when they fit), s surely beats a stopped play and then leads its sure singles, so
the floor of the static bounds rises by that many 戙.  This settles the proofs that s, shut out of
the lead, still takes its tricks.  Full deals 45 + 52, banker, every action: 11.5 M nodes before,
1.03 M asked at ≤ 6 tiles a hand, 55 k asked at 7 too; but asked at 7, deal 10 took 231.6 M nodes
instead of 130.5 M (126.5 M at ≤ 6).  56 full deals: 25.8 M → 14.5 M nodes (benchmarks/README.md,
stop 27).  Asked at 7 (STOPPER_TILES) since stop 45, when no deal of 200 needed more nodes for it.

Sure multi-tile plays (`_sure_multi`, not from DDS): a pair or triple of s that no seat against it
holds a whole beating play of takes its trick when led, like a sure single; the static bounds count
its tiles beyond the sure singles, and the stoppers' W may keep it.  60 full deals, `tjsim solve`:
56 within 1 s instead of 53 (deal 10: 23.8 s → 1.4 s; deals 24, 27: over 30 s → 0.8–0.9 s;
benchmarks/README.md, stop 36).

The close game (`_close_search`, not from DDS; kernels/position.py asks it only in searches past
GROW_NODES): a seat that closes ends with at least the early-death minimum of 戙 (`_closer_gain`), so
the lines where s closes have a floor far above any line where another seat closes.  When that floor
reaches beta, all the search needs to know is whether s surely closes, and a yes / no game answers it
with the other seats' discards owed instead of chosen: a relaxation in their favour (a 1 holds in the
real game), with one move where a discard has dozens, and holdings that change only by face-up
plays.  Full deal 49 of bench_solve_cli.py, the banker's value (a close with 天九 last, every line of
the others followed to the last trick): 1.6 G nodes → 246 M (`tjsim solve --value-only`: 610 s, stop
36 → 108 s; benchmarks/README.md, stop 38), and 178 M once the close game keeps killer moves
(stop 39).  Asked in every search it costs more than it saves on most deals (deals 0–48, the
value: 3.9 M → 6.6 M nodes asked at ≤ 4 tiles a hand, 15.6 M at every boundary; with the killers,
deals 0–59: 34 M → 58 M), so it waits for searches past GROW_NODES, which few deals reach.

The hold game and the root's games (not from DDS; stop 39): the close game turned round answers the
proofs that s is held low, the exact value of a bad lead: the other seats hold s to at most k more
戙 without its closing, s's discards owed (`_close_search`, X_GAME 1).  Both games are asked at the
root of each zero-window test (`_root_games`; in a search's first GROW_NODES on a budget of nodes, stop
40), a boundary or a trick in
progress (`tjsim solve`'s actions start inside the first trick), with the proving side kept to its
first few discards a turn: a narrower game for the side that proves, so a 1 still holds, and far
cheaper (deal 85 of bench_solve_cli.py, the banker's lead 4-4 worth -10: 8.7 M nodes with every
discard, 12.5 k with the first).  Deal 85's leads 4-4 and 3-1: 42 M and 33 M nodes → 4.0 M each;
deal 188's value 24.8 M → 7.2 M.  Asked at every boundary instead, the hold game failed far more
often than it cut (deal 85's lead 3-1: 81 k failures costing 27 M nodes, 26 k cuts).  The get game,
the close game with the goal "s ends with at least k more 戙", answers the other side of such a value
(the banker, shut out of the lead, still takes its one trick): deal 85's lead 5-3, 72 M → 6.1 M.
Past GROW_NODES, where the close and get games at the root have no budget, the hold game's tests share one
(kernels/position.py, HOLD_NODES; stop 46): the searches that get there are the long proofs, and its failures at
width 1 and 3 cost more than its cuts (deal 194's lead 6-2, worth 1, "V >= 2" fails: 57 M nodes unbudgeted,
9.3 M without it); deal 188's value (`--value-only`) still needs it there (5.0 M nodes; 28.2 M without).

The value games (not from DDS; stop 40): the same game with the goal "V_s at least t" (the others'
discards owed) or "at most t" (s's owed, or none owed: the real game with the proving side narrowed,
X_UNOWED), the settlement read at the last trick from every seat's 戙.  A search past GROW_NODES first
walks them down from the static ceiling (`_value_walk`): a game near the value is cheap, far below it
dear, while MTD's tests walk up from below.  Full deal 96 of bench_solve_cli.py, the banker's value 18:
148 M nodes → 4.8 M ("at least 18" 0.74 M nodes, "at most 18" 36 k).  The last stage before GROW_NODES
walks too, on its games' budget (stop 42: deal 148's lead 5-2, 7.1 M nodes → 2.1 M).  Once "at least t"
holds, "at most t" is asked at width 1 with s's discards owed and with none owed, and only then at width 3
(deal 148's lead 5-2: s's owed fails at width 3 in 3.2 M nodes, none owed holds at width 1 in 16 k).

The squeeze close game (not from DDS; stop 51, off by default): owing hides a squeeze, where a seat must give up
a guard before it knows which one it can spare.  The close game with some of the other seats choosing their
discards (X_REAL) is still a relaxation in their favour, and with all of them choosing it is the real close game
(tests/test_solver.py checks it claim for claim against the brute force).  `_squeeze_close` asks it with one seat
at a time choosing where every seat owing failed: full deal 237 of bench_solve_cli.py, the banker's lead 3-1 (a
close by a squeeze on seat 3) in 0.8 M nodes where the search takes 16 M to 60 M.  Where s cannot close, every
seat's game fails at about the same cost, and on the 54 dearest deals of 800 that cost matched the gains in every
budget tried (kernels/position.py, PARTIAL_NODES).

The floor test (not from DDS): a root solve first asks whether the value is above the lowest one
the static bounds allow, and only then walks MTD(f) up from its guess (mtd_kernel).  The walk down
from a guess above the value refutes one weak bound after another, and a weak refutation can cost
far more than the strong one: the minimisers then try lines that merely hold s below the bound
before the line that shuts it out (full deal 42, seat 3: 84 M nodes from the guess 0, 1.7 M floor
first; medians over 200 full deals: banker 21.9 k → 11.3 k nodes, seat 3 5.2 k → 3.1 k).  For
each action of `tjsim solve` the position's value is known first, and bounds the action's: its
first test is "as good as the position?", which settles a best action alone (X_FLOOR_FIRST = 2).

Not kept (benchmarks/README.md, stop 21): DDS's full partition search, entries that hold for every
position agreeing on the tiles whose ranks the search read (the rest read as "some low tile", by
count a seat and class).  Made sound, it must count as read the standing single whenever a
follower holding its class acts (beating is optional and any higher tile may beat, so the follower's
choices depend on it), the tiles behind every cut of the bounds, and a minimiser's kept tile in a
dominated discard.  Measured (values identical to this solver on random 3–6-tile positions), its
abstract entries hit at 2.7 tiles a hand on average, where subtrees are small: −1.5 % nodes at 6
tiles, more nodes and 45 % more time a node on full deals.  Enhanced transposition cutoffs (the last
seat of a trick looking up its moves' boundaries first) saved 9 % of the nodes of 60 full deals for
24 % more time a node.

Why these reductions are exact: swapping two tiles of one group in a hand gives an isomorphic
remainder of the deal (every other seat's tile beats both or neither, neither is in a multi-tile
play of the hand, and with the dice on the two share a folk suit), so one representative per
group is searched.  The differential test (tests/test_solver.py) checks the whole solver against
a plain minimax (tests/brute_force.py) that shares none of this code.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..game.catalogue import catalogue
from ..game.rules import RuleSet
from ..game.tiles import BB_FOLK_SUIT, BB_LAO, N_TILES, TILE_KIND
from .bits import ctz, popcount
from .legality import dice_suit, held_leads
from .views import address, float_table, table, vector
from .layout import (
    R_BANKER_MULT, R_BASELINE, R_CLOSE_REWARD, R_DICE_ON, R_EARLY_DEATH, R_FOLD_COST, R_MIN_DONG,
    R_PLAYERS, R_QUARTET_BONUS, R_QUARTET_CLASS, R_SUIT_GONG, R_SUIT_YAO, R_SUIT_ZA,
    R_SUPREME_BONUS, R_SUPREME_CLOSE, R_SUPREME_MASK, R_SUPREME_PLAY, R_SUSPENDED, R_SWEEP,
)

INF = 1e18
# --- the search's arrays by address (kernels/views.py): `_search` gets this one int64 vector, not twelve
# arrays (a recursive call copied about a hundred words of array structures)
(A_T, A_Q, A_X, A_TTK, A_TTV, A_TTB, A_TTG, A_HANDS, A_DONG, A_MV, A_KY, A_GP,
 A_NQ, A_NX, A_NTT, A_NSEATS, A_PLIES, A_MOVES, A_GW) = range(19)
N_A = 19
# the dice chance node reads the three suit masks as Q[R_SUIT_GONG + k]
assert (R_SUIT_ZA, R_SUIT_YAO) == (R_SUIT_GONG + 1, R_SUIT_GONG + 2)

# --- solver tables: one int64 array [N_TROWS, TW] (rows are plays, then tiles, then bit groups)
TW = 96
C_MASK, C_CLS, C_RANK, C_SIZE, C_NEED, C_BU_LED, C_BU_FOL, C_TWIN = 0, 1, 2, 3, 4, 5, 6, 7
ROW_PLAY = 0            # rows play: columns C_*
ROW_BL = 96             # rows play: count, then the plays beating it standing as the lead
ROW_BF = 192            # … standing as a follower
ROW_TILE = 288          # rows tile bit: columns K_*
ROW_HB = 320            # rows tile bit: count, then the plays whose highest tile is that bit
ROW_Z0 = 352            # row slot: Zobrist words of the reading (`_reading`): col owner * 2 + tie, col Z_KIND + kind + 1
ROW_Z1 = 384            # … the second hash's words
Z_KIND = 10
N_TROWS = 416
K_SINGLE, K_CLS, K_RANK, K_ABOVE, K_EQUAL, K_PARTNERS, K_KIND, K_SUIT, K_STR, K_CMASK, K_BELOW, K_TWIN = range(12)
K_BEFORE, K_TIE_BEFORE, K_START = 12, 13, 14  # tiles of the class before it in rank order; of equal rank; its class's first slot

# --- rule parameters: the engine's own array (layout.RULE_PARAMS, tables.pack_params), passed as Q

# --- per-solve context (int64 vector, partly mutated during the search and restored)
(X_SEAT, X_BANKER, X_STREAK, X_HAS_LED, X_PEND_LEADER, X_PEND_WINNER, X_FOLDED, X_NODES,
 X_GEN, X_ACTIVE, X_ITER, X_HORIZON, X_CLOSE_TIE, X_NO_DOMINANCE, X_LIMIT,
 X_BUDGET, X_ABORT, X_PROBE_TILES, X_PROBE_B0, X_STOP, X_FLOOR_FIRST, X_NO_TRICK_TABLE,
 X_NO_STOPPERS, X_CLOSE, X_CLOSE_CUTS) = range(25)
X_DEBT = 25  # X[X_DEBT + seat]: tiles the seat owes in the close game (`_close_search`), one slot a seat
(X_GAME, X_HOLD, X_WIDTH, X_KNOWN, X_HOLD_CUTS, X_GET_CUTS, X_GAME_BUDGET, X_VALUE_CUTS,
 X_VALUE_NODES, X_UNOWED, X_NO_TWINS, X_WALK, X_ORDER) = range(X_DEBT + 8, X_DEBT + 21)
X_REAL = X_DEBT + 21  # seats (bit mask) whose discards the games never owe: they choose them (`_close_search`)
# X_PARTIAL: nodes left for the close game at the root asked again, when it fails, with one seat at a time
# choosing its discards (`_squeeze_close`; 0: never); X_PARTIAL_CUTS counts what it proved; X_PARTIAL_OUT: the
# seats whose game failed at this root (a bit mask, kept by the caller from one run of a search to the next)
X_PARTIAL, X_PARTIAL_CUTS, X_PARTIAL_OUT = X_DEBT + 22, X_DEBT + 23, X_DEBT + 24
# the passing game (module docstring): X_PASSING 1 while a test is searched in it; X_PASS_DEBT + seat: the tiles the
# seat has taken as debts (a bit mask); X_PASS_NODES: the nodes a test may spend there first (0: never);
# X_PASS_PROOFS, X_PASS_FAILS count the tests it settled and those it did not; X_PASS_SPENT: the nodes searched
# in it, X_PASS_WASTED: those of the tests it did not settle (a benchmark's measures)
X_PASSING, X_PASS_NODES, X_PASS_PROOFS, X_PASS_FAILS = X_DEBT + 25, X_DEBT + 26, X_DEBT + 27, X_DEBT + 28
X_PASS_DEBT = X_DEBT + 29
X_PASS_SPENT, X_PASS_WASTED = X_DEBT + 33, X_DEBT + 34
# X_CROSS_BOUNDS 1: each game reads the other's bounds (`_other_game_cut`; kernels/position.py, CROSS_BOUNDS);
# X_PASS_TRACK 1 (set by `mtd_kernel` where the passing game is asked): the real search keeps the debts that game
# would have on its line, to find its entries; X_CROSS_CUTS counts the cuts by the other game's bounds
X_CROSS_BOUNDS, X_PASS_TRACK, X_CROSS_CUTS = X_DEBT + 35, X_DEBT + 36, X_DEBT + 37
# the upper game (module docstring): X_UPPER 1 while a search is in it; X_UPPER_NODES: the nodes a test may spend
# there first (0: never); X_UPPER_PROOFS counts the tests it settled (each a failure: V is below the test's target)
X_UPPER, X_UPPER_NODES, X_UPPER_PROOFS = X_DEBT + 38, X_DEBT + 39, X_DEBT + 40
# X_DEAD_DEBTS 1: a debt no virtual play can use any more is dropped at each trick's end (`_live_debts`);
# X_DEBTS_DROPPED counts the debts dropped
X_DEAD_DEBTS, X_DEBTS_DROPPED = X_DEBT + 41, X_DEBT + 42
# X_LOW_BEATS 1: a follower's single beat is left out where a lower free single of its own beats as well and no seat
# still to act (nor a partner) holds a tile between the two (`_follower_moves`); X_BEATS_DROPPED counts them
X_LOW_BEATS, X_BEATS_DROPPED = X_DEBT + 43, X_DEBT + 44
# X_TIED_HIGH 1: the discards' and beats' dominance also where the higher tile is in a multi-tile play of the hand
# (the lower one still free): keeping it keeps every play of the lower one and more (`_follower_moves`)
X_TIED_HIGH = X_DEBT + 45
# X_GAP_PLAYS 1: in the passing and the upper games a minimiser's single lead or beat is left out where a lower free
# single of its own leads or beats as well and s holds no tile between the two (the partners' tiles between are the
# minimisers' own choices; `_lower_stands`); X_LEADS_DROPPED counts the leads left out
X_GAP_PLAYS, X_LEADS_DROPPED = X_DEBT + 46, X_DEBT + 47
# X_OWED_GAPS 1: in the yes / no games where the other seats owe their discards and s proves (close, at least; not get),
# such a seat's single lead or beat is left out where a lower free single of its own would do as well and s holds no
# tile between, and the lower play is then owed: the tile stays in the hand and the seat owes one more
# (`_owes_play`, `_close_search`)
X_OWED_GAPS = X_DEBT + 48
N_X = X_DEBT + 49
UPPER_SALT = np.int64(0x2545F4914F6CDD1D)  # the upper game's table keys, apart from the real game's
GAME_CLOSE, GAME_HOLD, GAME_GET, GAME_AT_LEAST, GAME_AT_MOST = 0, 1, 2, 3, 4  # X_GAME: the yes / no game `_close_search` plays
VALUE_TARGET = 32  # the value games' target X_HOLD is keyed as X_HOLD + VALUE_TARGET in 6 bits (`_close_key`)
# X_FLOOR_FIRST != 0: mtd_kernel starts with the floor test (module docstring).
# X_STOP != 0: stop now.  Another thread sets it while the search runs (Ctrl-C in `tjsim solve`,
# kernels/position.py) and keeps setting X_BUDGET to 1 until the search has unwound (a probe may
# overwrite the budget for a moment); the search unwinds as when a budget runs out, and mtd_kernel
# returns NaN with the bounds proved so far.  (A test of X_STOP at every node measured about +3 % a node.)
# X_LIMIT > 0: give up once the search has visited that many nodes (a benchmark's cap on a slow
# solve); solve_kernel then returns NaN and the nodes visited.
# X_HORIZON: tricks that start with more tiles a hand than this are played out, not searched:
# every seat plays the first move of the search's own move ordering (a fixed function of the
# position: no killer, no TT hint), and the search is exact from the first trick boundary at or
# below the horizon.  EXACT (the default) searches everything.  This is how `pimc` and `oracle`
# afford early decisions (strategies/search.py).
EXACT = 99
# X_NO_DOMINANCE = 1 switches off the dominated discards of every seat (module docstring), so a test
# can check on positions too large for the brute force that the reduction changes no value.
# X_NO_TRICK_TABLE = 1 switches off the table entries inside tricks (module docstring), for the same kind
# of test.
# X_NO_STOPPERS = 1 switches off the stoppers' floor (`_tricks_for_s`), for the same kind of test.
# X_NO_TWINS = 1 searches the moves with the higher twin too (`twin_pairs`), for the same kind of test.
# X_CLOSE 1: the close game (`_close_search`) is asked at trick boundaries and the games at the root
# (`_root_games`); 2: the root's games alone, their nodes out of X_GAME_BUDGET (`_game_call`; kernels/
# position.py asks 2 in a search's first GROW_NODES, 1 past them); X_CLOSE_CUTS counts the close game's cuts.  X_GAME: GAME_CLOSE, GAME_HOLD (s held to at most
# X_HOLD 戙 without closing) or GAME_GET (s gets at least X_HOLD 戙); X_WIDTH: the discards the proving
# side may choose among at a turn (0: all); X_KNOWN: what the root's games showed (`_root_games`); X_HOLD_CUTS and X_GET_CUTS count
# the hold and get games' cuts.  X_GAME_BUDGET: the nodes the root's games (X_CLOSE 1: its hold game) may still take (`_game_call`);
# X_VALUE_CUTS, X_VALUE_NODES: the value games' bounds proved and nodes (`_value_walk`); X_UNOWED 1: the
# value game with no discard owed; X_WALK 1: the value walk at the root with X_CLOSE 2 as well, on the
# games' budget (`_value_walk`); X_ORDER 1: the followers' second ordering (module docstring).
# X_CLOSE_TIE = 1: seat s's result gains CLOSE_EPS when s closes (結), so among lines of equal
# value s prefers closing and the others prefer that it does not; (V' - V) / CLOSE_EPS is then the
# probability that s closes on the solved line.  Below every gap between distinct values
# (multiples of 1/1296: two nested dice throws).
CLOSE_EPS = 1.0 / 65536.0
FLOOR_PROBE = -1e9  # below every value: a test that always holds and returns the static floor

MAX_PLY = 160           # plays in one deal at most (16 tricks × 8 seats) + the root
MOVE_W = 2048           # moves one node may list (discards of 4 from 16 tiles, reduced)
TT_BITS = 20
# The table is BUCKET-way set-associative: a key may sit in any slot of its bucket, and a new key
# evicts the entry with the fewest tiles a hand.  One slot a key, always replaced, lost the large
# entries to the many small ones below them: 8-way, a full-deal proof of 735 M nodes takes 292 M
# (benchmarks/README.md, stop 22).
BUCKET = 8
K2_DEPTH = 48  # k2's bits from here: the tiles a hand at the boundary
# Each slot's tag (the 4th array of the table, `ttg`): its generation, its depth (k2's tiles a hand) and
# the low bits of k1, in one int64.  A bucket's eight tags fill one 64-byte cache line (`new_tt` aligns
# them), so a probe that misses reads that line alone, and a claim picks its victim from it; the keys
# (three more lines a bucket) are read only when a tag matches.  The probes' misses were a quarter of
# the search's time on full deals (perf, stop 25).  A generation is a search's number: the entries of
# other generations are free slots, so a new search empties the table without touching it.
TAG_GEN = 36  # generations from 0 to 2^27 - 1 (strategies/search.py starts the table afresh there)
TAG_DEPTH = 31
TAG_KEY = (1 << 31) - 1
GEN_LIMIT = 1 << 27
# per-ply scratch row: group mask per tile bit, then group keys, group masks, a hand's bits, two killer
# moves (the last two moves that cut off at this ply, newest first)
G_KEYS, G_MASKS, G_BITS, G_KILLER, G_WIDTH = 32, 48, 64, 80, 88
# a move code VIRTUAL + t * 1024 + p: the passing game's play of the single p, a debt, with the tile t of the hand
VIRTUAL = 1 << 20
NO_KILLER = -(1 << 62)
KILLER_KEY = -999999999  # ordering key of a killer move: before every other move but the TT's best lead
# Budgeted probes at trick boundaries with at least X_PROBE_TILES tiles a hand: first budget
# X_PROBE_B0 nodes a lead, four times more each round, no budget after PROBE_ROUNDS rounds.
PROBE_B0 = 1000
# 7, not 6, since the table holds in-trick entries (stop 24): 200 full deals, banker, cap 5 M nodes,
# 71.5 M -> 65.8 M nodes (seat 3 alike); the 60 deals of bench_solve_cli.py 68.3 M -> 61.8 M (deal 10:
# 8.5 M -> 0.49 M, deal 17: 74 k -> 465 k).
PROBE_TILES = 7
# `_tricks_for_s` is asked at boundaries with at most this many tiles a hand: the first boundary after a
# full deal's first trick too (stop 45).  Stop 27, at most 6: deal 10 of bench_solve_cli.py 126.5 M nodes,
# 231.6 M asked at 7 too (one thread, 2^22 entries).  Stop 45 (the solver of then, with in-trick entries,
# stages and root games): 200 full deals, banker, every action, cap 30 M: 470.3 M -> 465.6 M nodes, no deal
# more (deal 52 0.63 M -> 0.13 M, 45 0.57 M -> 0.14 M, 129 4.65 M -> 4.36 M, 49 85.4 M -> 83.9 M), the
# 35 deals over 400 k nodes 14.9 s -> 13.8 s (medians of 3 runs alternated; benchmarks/README.md).
STOPPER_TILES = 7
PROBE_ROUNDS = 4
# The proving side's discards in the games asked at a search's root (`_root_games`).  Narrower is
# cheaper, but may miss the proof: deal 49's close needs 3; the hold game tries 1, then 3, and after
# one failure with 3 at a root only 1 there (deal 78: three failures with 3 cost 5.6 M nodes; deal 188
# found its proof with 3 in 3.1 M and saved 17 M; benchmarks/README.md, stop 39).
CLOSE_WIDTH = 3
HOLD_WIDTH = 3
# The value games' nodes in one walk (`_value_walk`; their widths are the hold game's, HOLD_WIDTH).  Walking "at most t" (none owed)
# down from the ceiling as well found deal 96's lead 6-6's ceiling 12 in 8 M nodes (its search: 264 M),
# but cost more than it saved: 200 full deals, banker, every action, 596 M -> 659 M nodes (stop 40).
VALUE_NODES = 2_000_000


def build_solver_tables(rules: RuleSet, cat=None, tie_order=None) -> np.ndarray:
    """The solver's play and tile tables for a rule set (layout: ROW_* / C_* / K_*).

    A relaxed game (kernels/relaxed.py) passes its own catalogue `cat`, and `tie_order` (a key per tile) to
    order the tiles of equal rank in the table keys' reading (`_reading`) by seat."""
    cat = catalogue(rules) if cat is None else cat
    n = cat.n
    if n > 96:
        raise ValueError(f"the solver's tables hold 96 plays, the catalogue has {n}")
    t = np.zeros((N_TROWS, TW), dtype=np.int64)
    masks = [int(m) for m in cat.mask]
    for p in range(n):
        t[ROW_PLAY + p, C_MASK] = masks[p]
        t[ROW_PLAY + p, C_CLS] = int(cat.cls[p])
        t[ROW_PLAY + p, C_RANK] = int(cat.rank[p])
        t[ROW_PLAY + p, C_SIZE] = int(cat.size[p])
        t[ROW_PLAY + p, C_NEED] = int(cat.need_absent[p])
        for col, rel, row in ((C_BU_LED, cat.beats_led, ROW_BL), (C_BU_FOL, cat.beats_follow, ROW_BF)):
            beaters = [a for a in range(n) if rel[a, p]]
            union = 0
            for a in beaters:
                union |= masks[a]
            t[ROW_PLAY + p, col] = union
            t[row + p, 0] = len(beaters)
            t[row + p, 1:1 + len(beaters)] = beaters
    single = {masks[p].bit_length() - 1: p for p in range(n) if cat.size[p] == 1}
    suit_index = {s: i for i, s in enumerate("宫杂幺")}
    pairs = [m for m, k in zip(masks, cat.size) if k == 2]
    for b in range(N_TILES):
        p = single[b]
        c, r = int(cat.cls[p]), int(cat.rank[p])
        same = [q for q in single.values() if int(cat.cls[q]) == c]
        lo, hi = min(int(cat.rank[q]) for q in same), max(int(cat.rank[q]) for q in same)
        row = ROW_TILE + b
        t[row, K_SINGLE] = p
        t[row, K_CLS] = c
        t[row, K_RANK] = r
        # above / below from the beating relation, which is the ranks' in every rule set; a relaxed game's
        # (kernels/relaxed.py) may let two tiles of equal rank beat each other: each is then above the other,
        # and still "equal", so that `_groups` keeps them apart from the tiles they do not tie with
        t[row, K_ABOVE] = sum(masks[q] for q in same if cat.beats_follow[q, p])
        t[row, K_EQUAL] = sum(masks[q] for q in same if int(cat.rank[q]) == r and q != p)
        partners = 0
        for m in pairs:
            if m >> b & 1:
                partners |= m & ~(1 << b)
        t[row, K_PARTNERS] = partners
        t[row, K_KIND] = TILE_KIND[b]
        t[row, K_SUIT] = next(suit_index[s] for s, m in BB_FOLK_SUIT.items() if m >> b & 1)
        t[row, K_STR] = 100 * (r - lo) // max(1, hi - lo)
        t[row, K_CMASK] = sum(masks[q] for q in same)
        t[row, K_BELOW] = sum(masks[q] for q in same if cat.beats_follow[p, q])
    # Group reductions use "a tile is in a multi-tile play of the hand iff it is in a two-tile
    # play of the hand"; check that every tile of a larger play is in a two-tile play inside it.
    for m, k in zip(masks, cat.size):
        if k > 2 and any(not any(q >> b & 1 and q & m == q for q in pairs) for b in range(N_TILES) if m >> b & 1):
            raise ValueError(f"play {m:#x}: a tile is in no two-tile play inside it")
    order = sorted(range(N_TILES), key=lambda b: (int(t[ROW_TILE + b, K_CLS]), -int(t[ROW_TILE + b, K_RANK]),
                                                  0 if tie_order is None else tie_order[b], b))
    for j, b in enumerate(order):
        cls = t[ROW_TILE + b, K_CLS]
        first = min(i for i, c in enumerate(order) if t[ROW_TILE + c, K_CLS] == cls)
        t[ROW_TILE + b, K_START] = first
        t[ROW_TILE + b, K_BEFORE] = sum(1 << c for c in order[first:j])
        t[ROW_TILE + b, K_TIE_BEFORE] = sum(1 << c for c in order[first:j]
                                            if t[ROW_TILE + c, K_RANK] == t[ROW_TILE + b, K_RANK])
    zob = np.random.default_rng(0x7A0B).integers(-(1 << 63), (1 << 63) - 1, size=(64, TW), dtype=np.int64)
    t[ROW_Z0:ROW_Z0 + 64] = zob
    for lo, hi in twin_pairs(rules):
        t[ROW_TILE + hi, K_TWIN] = 1 << lo
        for p in range(n):
            if masks[p] >> hi & 1 and not masks[p] >> lo & 1:
                t[ROW_PLAY + p, C_TWIN] = 1 << lo
    groups: list[list[int]] = [[] for _ in range(N_TILES)]
    for p in range(n):
        groups[masks[p].bit_length() - 1].append(p)
    for b, g in enumerate(groups):
        t[ROW_HB + b, 0] = len(g)
        t[ROW_HB + b, 1:1 + len(g)] = g
    return t


def twin_pairs(rules: RuleSet) -> list[tuple[int, int]]:
    """Twins: pairs of tiles (lower bit, higher bit) whose exchange, in every hand at once, is a symmetry
    of the rule set (the two nines, eights, sevens and fives: 雜九 6-3 / 5-4 …).

    Checked, not assumed: the exchange maps every play to a play of the same class, rank and size, keeps
    every beating relation, the supreme pairs and the catching pair, and the tiles' folk suits (the dice)
    and 老 marks.  A position whose hands each hold both twins or neither is then its own image, so a
    move with the higher twin and its image with the lower lead to positions of equal value: the search
    tries only the lower (`_leader_moves`, `_follower_moves`), and `tjsim solve` copies the value.
    """
    cat = catalogue(rules)
    masks = [int(m) for m in cat.mask]
    index = {m: p for p, m in enumerate(masks)}
    suit = [next(s for s, m in BB_FOLK_SUIT.items() if m >> b & 1) for b in range(N_TILES)]
    out = []
    for hi in range(N_TILES):
        for lo in range(hi):
            if TILE_KIND[lo] == TILE_KIND[hi] or suit[lo] != suit[hi] or (BB_LAO >> lo & 1) != (BB_LAO >> hi & 1):
                continue

            def swap(m: int) -> int:
                a, b = m >> lo & 1, m >> hi & 1
                return (m & ~(1 << lo | 1 << hi)) | b << lo | a << hi

            image = [index.get(swap(m), -1) for m in masks]
            if min(image) < 0 or any(
                    cat.cls[q] != cat.cls[p] or cat.rank[q] != cat.rank[p] or cat.size[q] != cat.size[p]
                    or swap(int(cat.need_absent[p])) != int(cat.need_absent[q])
                    or cat.leadable[q] != cat.leadable[p] or cat.followable[q] != cat.followable[p]
                    for p, q in enumerate(image)):
                continue
            perm = np.array(image)
            if not (np.array_equal(cat.beats_led[np.ix_(perm, perm)], cat.beats_led)
                    and np.array_equal(cat.beats_follow[np.ix_(perm, perm)], cat.beats_follow)):
                continue
            if cat.supreme >= 0 and image[cat.supreme] != cat.supreme:
                continue
            out.append((lo, hi))
    return out


def new_tt(bits: int = TT_BITS):
    """An empty transposition table: keys [2^bits, 3], bounds [2^bits, 2], best move, tags (TAG_*)."""
    size = 1 << bits
    tags = np.zeros(size + 8, dtype=np.int64)
    start = (-tags.ctypes.data % 64) // 8  # a bucket's tags on one cache line
    return (np.zeros((size, 3), dtype=np.int64), np.zeros((size, 2), dtype=np.float64),
            np.full(size, -1, dtype=np.int64), tags[start:start + size])


def new_scratch():
    """Per-ply move lists, ordering keys and tile-group rows for the search."""
    return (np.zeros((MAX_PLY, MOVE_W), dtype=np.int64), np.zeros((MAX_PLY, MOVE_W), dtype=np.int64),
            np.zeros((MAX_PLY, G_WIDTH), dtype=np.int64))


# ---------------------------------------------------------------------------
# Small helpers (inlined)
# ---------------------------------------------------------------------------

@njit(cache=True, inline="always")
def _next_active(seat, n, folded):
    """The next seat after `seat` in playing order that has not folded."""
    s = seat + 1
    if s >= n:
        s -= n
    while folded >> s & 1:
        s += 1
        if s >= n:
            s -= n
    return s


@njit(cache=True, inline="always")
def _holds(T, p, hand):
    """Whether the hand makes play p with its canonical copies (lower copy first)."""
    m = T[ROW_PLAY + p, C_MASK]
    return (m & hand) == m and (T[ROW_PLAY + p, C_NEED] & hand) == 0


@njit(cache=True, inline="always")
def _give(X, receiver, per):
    """What seat s gains when every other active seat pays `per` to `receiver`."""
    if X[X_SEAT] == receiver:
        return float(per * (X[X_ACTIVE] - 1))
    return float(-per)


@njit(cache=True, inline="always")
def _terminal(Q, X, dong, closer, extra, catcher):
    """Seat s's result once the hands are empty: settlement (§5.1–5.3) and the end-of-deal bonuses."""
    n = Q[R_PLAYERS]
    s = X[X_SEAT]
    folded = X[X_FOLDED]
    total = 0
    for i in range(n):
        if not (folded >> i & 1):
            total += dong[i]
    sweep = Q[R_SWEEP] if dong[closer] == total else 1
    banker = X[X_BANKER]
    got = 0
    for i in range(n):
        if i == closer or (i != s and s != closer):
            continue
        if folded >> i & 1:
            pay = Q[R_FOLD_COST]  # a folded seat pays the fold cost only, never multiplied
        else:
            base = Q[R_BASELINE] - dong[i]
            if dong[i] == 0:
                base += 1  # 空戙
            mult = 1
            if Q[R_BANKER_MULT] != 0 and (closer == banker or (i == banker and base > 0)):
                mult = X[X_STREAK] + 1
            pay = base * mult * sweep * extra
        if i == s:
            got -= pay
        else:
            got += pay
    v = float(got)
    if X[X_CLOSE_TIE] != 0 and closer == s:
        v += CLOSE_EPS
    if X[X_PEND_LEADER] >= 0 and X[X_PEND_WINNER] != closer:
        v += _give(X, X[X_PEND_LEADER], Q[R_SUPREME_BONUS])  # the suspended 賀尊 is paid after all
    if catcher >= 0 and Q[R_CLOSE_REWARD] > 0:
        v += _give(X, catcher, Q[R_CLOSE_REWARD])
    return v


@njit(cache=True, inline="always")
def _owed(Q, X, i, d, closer):
    """Seat i's settlement debt to `closer` with d 戙 at the end, before 全码 and 包尊 (§5.1–5.2)."""
    base = Q[R_BASELINE] - d
    if d == 0:
        base += 1
    if Q[R_BANKER_MULT] != 0 and (closer == X[X_BANKER] or (i == X[X_BANKER] and base > 0)):
        return base * (X[X_STREAK] + 1)
    return base


@njit(cache=True, inline="always")
def _sure_singles(T, hand, against):
    """The tiles of `hand` that no tile of `against` beats led as singles (DDS's quick tricks)."""
    sure = np.int64(0)
    h = hand
    while h:
        b = ctz(h)
        h &= h - 1
        if (against & T[ROW_PLAY + T[ROW_TILE + b, K_SINGLE], C_BU_LED]) == 0:
            sure |= np.int64(1) << b
    return sure


@njit(cache=True, inline="always")
def _sure_multi(T, Q, X, hands, leader, vs_all, against, folded, n, exclude):
    """Multi-tile plays the leader surely takes: (戙 they add beyond its sure singles, their tiles).

    Disjoint plays of hands[leader] less `exclude`, chosen greedily, of which no seat against the
    leader holds a whole beating play (vs_all False: seat s alone is against, a minimiser's partners
    letting the trick go).  Each adds its size less its tiles that are sure singles, which the caller
    counts already: cashed first, the plays and then the singles left take every one of those tiles.
    Holdings only shrink, so a play sure now stays sure.  至尊 and the quartet class are left to the
    search (their bonuses and 包尊 ride on them).
    """
    hand = hands[leader] & ~exclude
    single = _sure_singles(T, hand, against)
    got = 0
    taken = np.int64(0)
    h = hand
    while h:
        b = ctz(h)
        h &= h - 1
        if (hand & T[ROW_TILE + b, K_PARTNERS]) == 0:
            continue
        for k in range(1, T[ROW_HB + b, 0] + 1):
            p = T[ROW_HB + b, k]
            m = T[ROW_PLAY + p, C_MASK]
            if T[ROW_PLAY + p, C_SIZE] < 2 or (m & taken) != 0 or not _holds(T, p, hand):
                continue
            if p == Q[R_SUPREME_PLAY] or T[ROW_PLAY + p, C_CLS] == Q[R_QUARTET_CLASS]:
                continue
            if (against & T[ROW_PLAY + p, C_BU_LED]) != 0:
                row = ROW_BL + p
                beaten = False
                for x in range(n):
                    if x == leader or (folded >> x & 1) or (hands[x] & against) == 0:
                        continue
                    if (not vs_all) and x != X[X_SEAT]:
                        continue
                    for i in range(1, T[row, 0] + 1):
                        if _holds(T, T[row, i], hands[x]):
                            beaten = True
                            break
                    if beaten:
                        break
                if beaten:
                    continue
            taken |= m
            got += T[ROW_PLAY + p, C_SIZE] - popcount(m & single)
            break
    return got, taken


@njit(cache=True, inline="always")
def _closer_gain(Q, dong, c, leader, rest):
    """The fewest 戙 seat c adds from a trick boundary (`leader` to lead, `rest` tiles a hand) if it closes.

    It wins the last trick (1 at least).  With early death (§4.4) a seat may beat in the last trick
    only to end with the minimum, and a seat leading the last trick won the trick before it, so it
    ends with min(minimum, 戙 now + 2) at least, unless it leads now and the trick led now is the
    last (its whole hand led at once: rest 戙).
    """
    g = 1
    if Q[R_EARLY_DEATH] != 0:
        g = min(Q[R_MIN_DONG] - dong[c], 2)
        if c == leader:
            g = min(g, rest)
        g = max(g, 1)
    return g


@njit(cache=True, inline="always")
def _static_bounds(T, Q, X, hands, dong, leader, others, rest, count_sure=True, s_gets=0, s_closes=False,
                   s_holds=-1):
    """Bounds on seat s's result at a trick boundary, whoever wins the `rest` 戙 still to play for.

    The leader first cashes its sure plays: its sure singles, the tiles that no seat against it can
    beat (for a leader of the minimising side, "against" is s alone: its partners let the trick go),
    and multi-tile plays of which no seat against it holds a whole beating play (`_sure_multi`): s on
    lead surely adds that many 戙, another leader surely keeps them from s, and a leader who can
    cash every tile decides who closes.  Beyond that, a seat other than the closer ends with at
    most rest − 1 more 戙 (the closer wins the last trick); each seat's debt to a closer falls
    as its 戙 grow, and when s closes the others share at most rest − max(gain_s, 1) more 戙
    among them (the lowest total debt gives them one at a time where a debt falls most: each
    debt is convex in the 戙, falling by 2 for the first and 1 for each next, times the banker
    multiplier while it applies); 全码 (while no seat but that closer holds a 戙) and 包尊 scale the
    settlement by 1 to their product; and
    each bonus still possible (a suspended 賀尊, a 至尊 or a quartet still held, a 包尊 catch)
    widens the bounds by what it can move.  With the residual-tile dice a partial cash is not counted (the dice
    may force a suit without a sure tile).  This is the quick tricks of DDS made into bounds on
    the settlement: a zero-window test outside [lo, hi] needs no search.  count_sure=False drops
    the sure plays (a leader whose hand will still lose a beating play: the in-trick bounds).
    s_gets: 戙 s is known to add (`_tricks_for_s` under another seat's lead; the get game).
    With early death a closer ends with at least the early-death minimum (`_closer_gain`).
    s_closes: the bounds over the lines where s closes alone (the close game, `_close_search`, tells
    when s surely closes), with no sure play cashed first: s's line is the close game's.
    s_holds >= 0: the bounds over the lines where s adds at most s_holds 戙 and another seat closes
    (the hold game, `_close_search`).
    """
    n = Q[R_PLAYERS]
    s = X[X_SEAT]
    folded = X[X_FOLDED]
    act = X[X_ACTIVE]
    against = others if leader == s else hands[s]  # `others`: every active seat but the leader
    sure = popcount(_sure_singles(T, hands[leader], against))
    if count_sure and sure < rest:
        sure += _sure_multi(T, Q, X, hands, leader, leader == s, against, folded, n, np.int64(0))[0]
    if (sure < rest and Q[R_DICE_ON] != 0) or not count_sure:
        sure = 0
    gain_s = max(sure, s_gets) if leader == s else s_gets   # 戙 s surely adds
    gain_t = 0 if leader == s else sure   # 戙 the other leader surely takes from s's reach
    if s_closes:
        gain_s = 0  # the close game's line need not cash the sure plays first
        gain_t = 0
    # The two loops below run only where their rule is on: read right after the caller's write of one
    # hand or 戙 (a trick's winner, a sure taker's play), a loop that LLVM vectorises waits for the
    # store to reach memory (a failed store-to-load forwarding: 15 % of _in_trick_bounds, perf, stop 25).
    sup = Q[R_SUPREME_MASK]
    sup_held = False
    if Q[R_SUPREME_CLOSE] != 0 or Q[R_SUPREME_BONUS] > 0:
        for i in range(n):
            if (hands[i] & sup) == sup:
                sup_held = True
    # 全码 needs the closer to hold every 戙 at the end, so no seat but the closer may hold one now
    sweep = Q[R_SWEEP] if Q[R_SWEEP] > 1 else 1
    holders = 0
    if sweep > 1:
        for i in range(n):
            if dong[i] > 0 and not (folded >> i & 1):
                holders |= 1 << i
    scale = 2 if (sup_held and Q[R_SUPREME_CLOSE] != 0) else 1
    lo_f = INF
    hi_f = -INF
    tie = CLOSE_EPS if X[X_CLOSE_TIE] != 0 else 0.0
    if gain_t < rest and s_holds < 0:
        # s closes: every other seat pays its debt, each within its own range (the sum is relaxed)
        lo_c = 0
        hi_c = 0
        fixed = 0
        for i in range(n):
            if i == s:
                continue
            if folded >> i & 1:
                fixed += Q[R_FOLD_COST]
                continue
            lo_c += _owed(Q, X, i, dong[i], s)
            hi_c += _owed(Q, X, i, dong[i] + (gain_t if i == leader else 0), s)
        # the others share at most rest - max(gain_s, 1) more 戙; each debt is convex in the 戙, so
        # giving them one at a time where the debt falls most is the lowest total
        ext = np.int64(0)
        for k in range(rest - max(gain_s, _closer_gain(Q, dong, s, leader, rest))):
            drop_b = 0
            bi = -1
            for i in range(n):
                if i == s or (folded >> i & 1):
                    continue
                d = dong[i] + (ext >> (8 * i) & 255)
                drop = _owed(Q, X, i, d, s) - _owed(Q, X, i, d + 1, s)
                if drop > drop_b:
                    drop_b = drop
                    bi = i
            if bi < 0:
                break
            lo_c -= drop_b
            ext += np.int64(1) << (8 * bi)
        sc = scale * (sweep if (holders & ~(1 << s)) == 0 else 1)
        lo_f = float(min(lo_c, lo_c * sc) + fixed) + tie
        hi_f = float(max(hi_c, hi_c * sc) + fixed) + tie
    if gain_s < rest and not s_closes:
        # another seat c closes: s pays its own debt, with gain_s to rest − max(gain_t, c's least) more 戙
        for c in range(n):
            if c == s or (folded >> c & 1):
                continue
            worst = -_owed(Q, X, s, dong[s] + gain_s, c)
            least = max(gain_t, _closer_gain(Q, dong, c, leader, rest))
            most = max(rest - least, gain_s)
            if s_holds >= 0:
                most = min(most, s_holds)
            best = -_owed(Q, X, s, dong[s] + most, c)
            sc = scale * (sweep if (holders & ~(1 << c)) == 0 else 1)
            lo_f = min(lo_f, float(min(worst, worst * sc)))
            hi_f = max(hi_f, float(max(best, best * sc)))
    if X[X_PEND_LEADER] >= 0:
        g = _give(X, X[X_PEND_LEADER], Q[R_SUPREME_BONUS])
        lo_f += min(0.0, g)
        hi_f += max(0.0, g)
    if sup_held:
        per = (Q[R_SUPREME_BONUS] if Q[R_SUPREME_BONUS] > 0 else 0) + (
            Q[R_CLOSE_REWARD] if (Q[R_SUPREME_CLOSE] != 0 and Q[R_CLOSE_REWARD] > 0) else 0)
        lo_f -= per
        hi_f += per * (act - 1)
    if Q[R_QUARTET_BONUS] > 0:
        quartets = 0
        for i in range(n):
            if popcount(hands[i]) >= 4:
                quartets += popcount(hands[i]) // 4
        lo_f -= Q[R_QUARTET_BONUS] * quartets
        hi_f += Q[R_QUARTET_BONUS] * (act - 1) * quartets
    return lo_f, hi_f


@njit(cache=True, inline="always")
def _groups(T, Q, hand, others, grow):
    """Tile groups of `hand` (module docstring): grow[bit] = mask of the group of each held bit."""
    dice = Q[R_DICE_ON] != 0
    nk = 0
    rest = hand
    while rest:
        b = ctz(rest)
        low = rest & -rest
        rest &= rest - 1
        row = ROW_TILE + b
        if hand & T[row, K_PARTNERS]:
            key = 1000 + T[row, K_KIND]  # in a multi-tile play: only its copy is interchangeable
        else:
            above = others & T[row, K_ABOVE]
            if not dice and (others & T[row, K_CMASK]) == 0:
                key = 2000  # nobody else holds the class: an unbeatable lead that never follows
            else:
                key = 10000 + T[row, K_CLS] * 10000 + popcount(above) * 100
                if others & T[row, K_EQUAL]:
                    key += 1 + T[row, K_RANK]  # another seat holds an equal tile: ties split groups
                if dice:
                    key += 1000000 * (1 + T[row, K_SUIT])
        g = nk
        for i in range(nk):
            if grow[G_KEYS + i] == key:
                g = i
                break
        if g == nk:
            grow[G_KEYS + nk] = key
            grow[G_MASKS + nk] = 0
            nk += 1
        grow[G_MASKS + g] |= low
        grow[b] = g
    rest = hand
    while rest:
        b = ctz(rest)
        rest &= rest - 1
        grow[b] = grow[G_MASKS + grow[b]]


@njit(cache=True, inline="always")
def _can_beat(T, win_p, win_lead, hands, n, folded, seat, leader):
    """Whether a seat from `seat` on, before the leader, holds a play beating the standing play."""
    col = C_BU_LED if win_lead == 1 else C_BU_FOL
    row = (ROW_BL if win_lead == 1 else ROW_BF) + win_p
    x = seat
    while x != leader:
        h = hands[x]
        if h & T[ROW_PLAY + win_p, col]:
            for k in range(1, T[row, 0] + 1):
                if _holds(T, T[row, k], h):
                    return True
        x = _next_active(x, n, folded)
    return False


@njit(cache=True, inline="always")
def _position_arrays(A):
    """The tables, rules, context, hands and 戙 from the address vector A (A_*)."""
    return (table(A[A_T], N_TROWS, TW), vector(A[A_Q], A[A_NQ]), vector(A[A_X], A[A_NX]),
            vector(A[A_HANDS], A[A_NSEATS]), vector(A[A_DONG], A[A_NSEATS]))


@njit(cache=True, inline="always")
def _search_arrays(A):
    """`_position_arrays`, then the table (keys, bounds, best moves, tags) and the per-ply move,
    ordering-key and group rows, from the address vector A (A_*)."""
    T, Q, X, hands, dong = _position_arrays(A)
    return (T, Q, X, hands, dong, table(A[A_TTK], A[A_NTT], 3), float_table(A[A_TTV], A[A_NTT], 2),
            vector(A[A_TTB], A[A_NTT]), vector(A[A_TTG], A[A_NTT]), table(A[A_MV], A[A_PLIES], A[A_MOVES]),
            table(A[A_KY], A[A_PLIES], A[A_MOVES]), table(A[A_GP], A[A_PLIES], A[A_GW]))


@njit(cache=True, _nrt=False)  # not inlined: _search compiles a third faster without a second copy of the bounds
def _in_trick_bounds(A, seat, leader, win_p, win_lead, win_seat, size, alpha, beta):
    """Bounds on the next boundary for every seat that may still take this trick (module docstring).

    A seat still to act may win only by beating, which removes tiles from its hand: its sure plays
    are not counted; the standing play's seat has played, so its sure plays are.  The bounds serve
    only to cut the window (alpha, beta): once neither can, the seats left are not bounded (the
    lowest and highest over them could only widen the pair further).  The arrays come by address (A_*).
    """
    T, Q, X, hands, dong = _position_arrays(A)
    n = Q[R_PLAYERS]
    folded = X[X_FOLDED]
    rest = popcount(hands[leader])
    decided = not _can_beat(T, win_p, win_lead, hands, n, folded, seat, leader)
    dong[win_seat] += size
    lo, hi = _static_bounds(T, Q, X, hands, dong, win_seat, _others(hands, n, folded, win_seat), rest, True)
    dong[win_seat] -= size
    if not decided and (lo >= beta or hi <= alpha):
        x = seat
        while x != leader:
            dong[x] += size
            lo3, hi3 = _static_bounds(T, Q, X, hands, dong, x, _others(hands, n, folded, x), rest, False)
            dong[x] -= size
            lo = min(lo, lo3)
            hi = max(hi, hi3)
            if lo < beta and hi > alpha:
                break
            x = _next_active(x, n, folded)
    return lo, hi


@njit(cache=True, _nrt=False)
def _in_row(T, row, p):
    """Whether play p is listed in a row of plays (e.g. the plays beating one standing as a follower)."""
    for k in range(1, T[row, 0] + 1):
        if T[row, k] == p:
            return True
    return False


@njit(cache=True, _nrt=False)  # not inlined: compiled once for `_takes_trick` and `_close_search`
def _cashes_all(A, leader):
    """Whether the leader can take every trick left by leading its sure plays (`_sure_singles`,
    `_sure_multi`; a minimiser's partners letting its plays go), and so closes.  The arrays come by
    address (A_*)."""
    T, Q, X, hands, _ = _position_arrays(A)
    n = Q[R_PLAYERS]
    folded = X[X_FOLDED]
    s = X[X_SEAT]
    against = _others(hands, n, folded, leader) if leader == s else hands[s]
    hand = hands[leader]
    rest = popcount(hand) - X[X_DEBT + leader]
    sure = popcount(_sure_singles(T, hand, against))
    if sure < rest:
        sure += _sure_multi(T, Q, X, hands, leader, leader == s, against, folded, n, np.int64(0))[0]
    return sure >= rest


@njit(cache=True, _nrt=False)
def _takes_trick(A, seat, leader, win_p, win_lead, size, ply, t, alpha, beta, close):
    """Bounds on s's result when seat t, still to act in this trick, holds a play sure to take it.

    Such a play beats the standing play and every play the seats acting before t could make
    stand (any play they hold that beats it, or beats one of those), and no seat acting after t
    holds a play beating it.  t's side may then have t take the trick, whatever the other side
    does: the static bounds at the next boundary with t on lead (the others' hands still hold
    this trick's tiles, which only widens them) bound the node from below if t is s, from above
    if t is one of s's opponents.  (-INF, INF) when t has no such play or has acted already.
    The arrays come by address (A_*); this ply's move row, not yet filled, is scratch for the plays
    that could stand.  close: the close game's bounds instead (`_close_search`): 1 (t is s) or 0 (t is
    another seat) when t can cash every tile it keeps after the trick, and so closes.
    """
    T, Q, X, hands, dong = _position_arrays(A)
    tmp = table(A[A_MV], A[A_PLIES], A[A_MOVES])[ply]
    n = Q[R_PLAYERS]
    folded = X[X_FOLDED]
    if t == leader:
        return -INF, INF
    before = np.int64(0)
    held = np.int64(0)  # the tiles of the seats before t: a play none of whose tiles is there is not theirs
    x = seat
    while x != t:
        if x == leader:
            return -INF, INF
        before |= np.int64(1) << x
        held |= hands[x]
        x = _next_active(x, n, folded)
    row = (ROW_BL if win_lead == 1 else ROW_BF) + win_p
    # first t's plays beating the standing one that no seat after t can beat (kept at the row's end),
    # since most calls end there
    ht = hands[t]
    end = A[A_MOVES] - 1
    nc = 0
    for k in range(1, T[row, 0] + 1):
        p = T[row, k]
        if not _holds(T, p, ht):
            continue
        ok = True
        rp = ROW_BF + p
        y = _next_active(t, n, folded)
        while ok and y != leader:
            if hands[y] & T[ROW_PLAY + p, C_BU_FOL]:
                for j in range(1, T[rp, 0] + 1):
                    if _holds(T, T[rp, j], hands[y]):
                        ok = False
                        break
            y = _next_active(y, n, folded)
        if ok:
            tmp[end - nc] = p
            nc += 1
    if nc == 0:
        return -INF, INF
    # the plays the seats before t could make stand: those beating the standing play, then closed
    # under "beats one of them" (the relations need not be transitive)
    nt = 0
    if held & T[ROW_PLAY + win_p, C_BU_LED if win_lead == 1 else C_BU_FOL]:
        for k in range(1, T[row, 0] + 1):
            q = T[row, k]
            for y in range(n):
                if (before >> y & 1) and _holds(T, q, hands[y]):
                    tmp[nt] = q
                    nt += 1
                    break
    i = 0
    while i < nt:
        rq = ROW_BF + tmp[i]
        if (held & T[ROW_PLAY + tmp[i], C_BU_FOL]) == 0:
            i += 1
            continue
        for k in range(1, T[rq, 0] + 1):
            q = T[rq, k]
            new = True
            for j in range(nt):
                if tmp[j] == q:
                    new = False
                    break
            if new:
                for y in range(n):
                    if (before >> y & 1) and _holds(T, q, hands[y]):
                        tmp[nt] = q
                        nt += 1
                        break
        i += 1
    lo_b = -INF
    hi_b = INF
    for c in range(nc):
        p = tmp[end - c]
        ok = True
        for j in range(nt):
            if not _in_row(T, ROW_BF + tmp[j], p):
                ok = False
                break
        if not ok:
            continue
        m = T[ROW_PLAY + p, C_MASK]
        hands[t] ^= m
        dong[t] += size
        if close:  # the close game: t then cashes every tile, so it closes
            lo = -INF
            hi = INF
            if _cashes_all(A, t):
                lo = 1.0 if t == X[X_SEAT] else 0.0
                hi = lo
        else:
            lo, hi = _static_bounds(T, Q, X, hands, dong, t, _others(hands, n, folded, t), popcount(hands[t]), True)
        dong[t] -= size
        hands[t] ^= m
        if lo > lo_b:
            lo_b = lo
        if hi < hi_b:
            hi_b = hi
        if (t == X[X_SEAT] and lo_b >= beta) or (t != X[X_SEAT] and hi_b <= alpha):
            break  # the node is cut: another sure play could only tighten the bound
    return lo_b, hi_b


@njit(cache=True, _nrt=False)
def _tricks_for_s(A, ply):
    """戙 that seat s, not on lead at this trick boundary, surely adds (0 when none is sure).

    A play of s is a stopper when nothing the other seats hold beats it standing as a follower; a
    play of theirs is stopped when a stopper of its class beats it both led and standing as a
    follower.  To keep s from every trick the others must lead every trick and have a play s cannot
    beat stand at s's turn, so each trick spends at least its size in their unstopped tiles (tiles in
    some unstopped play of their holder's hand, copies counted alike).  Meanwhile s discards and
    keeps a set W: the stoppers used and, when they fit, its sure singles (no other seat's tile beats
    them led) and sure multi-tile plays (`_sure_multi`).  With u unstopped tiles and h tiles a hand,
    if u <= h - max(|W|, e) (e: the fewest tiles a last trick s may win must have, early death
    counted, at least 1), the others lead a stopped play while s still holds W, and s may win it: s
    beats it with a stopper A of W that stops it, nothing beats A, and s then leads the sure plays of
    W left (none with the residual-tile dice, which may force another suit).  So s adds at least the
    least, over the stopped plays the others hold, of the most, over the stoppers A of that play, of
    size(A) + the sure plays of W without A's tiles.  The arrays come by address (A_*); this ply's
    move row and ordering-key row are scratch.
    """
    T, Q, X, hands, dong = _position_arrays(A)
    row = table(A[A_MV], A[A_PLIES], A[A_MOVES])[ply]
    n = Q[R_PLAYERS]
    s = X[X_SEAT]
    folded = X[X_FOLDED]
    hs = hands[s]
    h = popcount(hs)
    e = 1
    if Q[R_EARLY_DEATH] != 0 and Q[R_MIN_DONG] - dong[s] > 1:
        e = Q[R_MIN_DONG] - dong[s]  # a last trick of fewer tiles would be barred to s
    if h <= e:
        return 0
    pooled = _others(hands, n, folded, s)
    ns = held_leads(T, ROW_HB, ROW_PLAY, C_MASK, C_NEED, C_SIZE, hs, 0, row)
    nt = 0
    for i in range(ns):
        a = row[i]
        if a != Q[R_SUPREME_PLAY] and (pooled & T[ROW_PLAY + a, C_BU_FOL]) == 0:
            row[nt] = a
            nt += 1
    if nt == 0:
        return 0
    used = np.int64(0)  # bit i: stopper row[i] stops some play of theirs
    unstopped = 0
    for y in range(n):
        if y == s or (folded >> y & 1):
            continue
        hy = hands[y]
        nr = held_leads(T, ROW_HB, ROW_PLAY, C_MASK, C_NEED, C_SIZE, hy, 0, row[nt:])
        free = np.int64(0)
        for j in range(nr):
            r = row[nt + j]
            m = T[ROW_PLAY + r, C_MASK]
            cls = T[ROW_PLAY + r, C_CLS]
            stop = -1
            for i in range(nt):
                a = row[i]
                am = T[ROW_PLAY + a, C_MASK]
                if (T[ROW_PLAY + a, C_CLS] == cls and (am & ~T[ROW_PLAY + r, C_BU_LED]) == 0
                        and (am & ~T[ROW_PLAY + r, C_BU_FOL]) == 0):
                    stop = i
                    break
            if stop >= 0:
                used |= np.int64(1) << stop
            else:
                free |= m
        # a play lists only the lower of two copies: the other copy is as free
        rest = hy & ~free
        while rest:
            b = ctz(rest)
            rest &= rest - 1
            k = T[ROW_TILE + b, K_KIND]
            x = free
            while x:
                c = ctz(x)
                x &= x - 1
                if T[ROW_TILE + c, K_KIND] == k:
                    free |= np.int64(1) << b
                    break
        unstopped += popcount(free)
        if unstopped > h - e:
            return 0
    stoppers = np.int64(0)
    x = used
    while x:
        i = ctz(x)
        x &= x - 1
        stoppers |= T[ROW_PLAY + row[i], C_MASK]
    sure = np.int64(0)
    multi = np.int64(0)
    if Q[R_DICE_ON] == 0:
        sure = _sure_singles(T, hs, pooled)
        multi = _sure_multi(T, Q, X, hands, s, True, pooled, folded, n, np.int64(0))[1]
    w = stoppers | sure | multi
    if unstopped > h - max(popcount(w), e):
        w = stoppers | sure
        if unstopped > h - max(popcount(w), e):
            w = stoppers
            if unstopped > h - max(popcount(w), e):
                return 0
    # what s adds after beating with stopper i: its size, then W's sure singles and sure multi-tile
    # plays left (-1: a stopper outside W)
    gains = table(A[A_KY], A[A_PLIES], A[A_MOVES])[ply]
    for i in range(nt):
        am = T[ROW_PLAY + row[i], C_MASK]
        if (am & ~w) != 0:
            gains[i] = -1
            continue
        g = popcount(am) + popcount(sure & w & ~am)
        if (multi & w & ~am) != 0:
            g += _sure_multi(T, Q, X, hands, s, True, pooled, folded, n, am | (hs & ~w))[0]
        gains[i] = g
    # the others choose the stopped play they lead, s the best stopper of it
    gain = h
    for y in range(n):
        if y == s or (folded >> y & 1):
            continue
        nr = held_leads(T, ROW_HB, ROW_PLAY, C_MASK, C_NEED, C_SIZE, hands[y], 0, row[nt:])
        for j in range(nr):
            r = row[nt + j]
            cls = T[ROW_PLAY + r, C_CLS]
            best = -1
            for i in range(nt):
                am = T[ROW_PLAY + row[i], C_MASK]
                if (gains[i] > best and T[ROW_PLAY + row[i], C_CLS] == cls
                        and (am & ~T[ROW_PLAY + r, C_BU_LED]) == 0 and (am & ~T[ROW_PLAY + r, C_BU_FOL]) == 0):
                    best = gains[i]
            if 0 <= best < gain:
                gain = best
    return gain


@njit(cache=True, inline="always")
def _any_tile(T, hand, col, against):
    """Whether some tile b of the hand has T[tile b, col] meeting `against` (e.g. a higher tile held)."""
    rest = hand
    while rest:
        b = ctz(rest)
        rest &= rest - 1
        if against & T[ROW_TILE + b, col]:
            return True
    return False


@njit(cache=True, inline="always")
def _sort(mv, ky, ply, nm):
    """Insertion sort of one ply's moves by ordering key (lists are short)."""
    for i in range(1, nm):
        m = mv[ply, i]
        k = ky[ply, i]
        j = i - 1
        while j >= 0 and ky[ply, j] > k:
            mv[ply, j + 1] = mv[ply, j]
            ky[ply, j + 1] = ky[ply, j]
            j -= 1
        mv[ply, j + 1] = m
        ky[ply, j + 1] = k


@njit(cache=True, inline="always")
def _killer_key(grow, code, key, playout):
    """A move's ordering key, the ply's two killer moves first (not in the play-out, a fixed order)."""
    if playout:
        return key
    if code == grow[G_KILLER]:
        return KILLER_KEY
    if code == grow[G_KILLER + 1]:
        return KILLER_KEY + 1
    return key


@njit(cache=True, inline="always")
def _remember_killer(grow, code):
    """Make the move that cut off the ply's first killer, the previous first its second."""
    if grow[G_KILLER] != code:
        grow[G_KILLER + 1] = grow[G_KILLER]
        grow[G_KILLER] = code


@njit(cache=True, inline="always")
def _others(hands, n, folded, seat):
    """Union of the hands of every other active seat."""
    o = np.int64(0)
    for i in range(n):
        if i != seat and not (folded >> i & 1):
            o |= hands[i]
    return o


@njit(cache=True, inline="always")
def _tiles_after(hands, n, folded, seat, leader, skip):
    """Union of the hands of the seats acting after `seat` in this trick, up to the leader, but `skip` (-1: none)."""
    o = np.int64(0)
    nxt = _next_active(seat, n, folded)
    while nxt != leader:
        if nxt != skip:
            o |= hands[nxt]
        nxt = _next_active(nxt, n, folded)
    return o


@njit(cache=True, inline="always")
def _beat_later(X, hands, n, folded, seat, leader, gap):
    """The tiles (and debts) that keep a lower single beat u of `seat` from standing for a higher one b: those of
    the seats still to act in this trick ranked between u and b.  With `gap` (X_GAP_PLAYS, a minimiser in the
    passing or the upper game) s's tiles alone, where s is still to act: a partner's tile between lets the
    minimisers overtake u, a choice of their own that b would not leave them (`_lower_stands`)."""
    if gap:
        s = X[X_SEAT]
        nxt = _next_active(seat, n, folded)
        while nxt != leader:
            if nxt == s:
                return hands[s]
            nxt = _next_active(nxt, n, folded)
        return np.int64(0)
    return _tiles_after(hands, n, folded, seat, leader, -1) | _all_debts(X)


@njit(cache=True, inline="always")
def _between(T, w, b):
    """The tiles ranked above w and not above b (b above w in w's class): those that beat w and not b."""
    return T[ROW_TILE + w, K_ABOVE] & ~T[ROW_TILE + b, K_ABOVE]


@njit(cache=True, inline="always")
def _in_line(T, w, b):
    """Whether w and b lie on one rank line, b above: every tile below w is below b and every tile above b is above
    w (a class's ranks are a line; a relaxed game's gaps need not be, kernels/relaxed.py)."""
    return ((T[ROW_TILE + w, K_BELOW] & ~T[ROW_TILE + b, K_BELOW]) == 0
            and (T[ROW_TILE + b, K_ABOVE] & ~T[ROW_TILE + w, K_ABOVE]) == 0)


@njit(cache=True, inline="always")
def _lower_stands(T, hand, b, g, within, later, tied_ok):
    """Whether the single play of tile b of `hand` (its group g) is dominated by a lower free single w of the hand,
    among the tiles `within` (those that beat the standing play; -1 for a lead): none of `later` ranked above w and
    not above b, and b free, or (`tied_ok`, X_TIED_HIGH) in a multi-tile play of the hand.  `later` holds what could
    answer w and not b: for a beat the tiles and debts of the seats still to act (`_beat_later`), for a minimiser
    in the passing or the upper game s's alone (X_GAP_PLAYS), and for such a minimiser's lead s's tiles."""
    if (hand & T[ROW_TILE + b, K_PARTNERS]) != 0 and not tied_ok:
        return False
    low = hand & within & T[ROW_TILE + b, K_BELOW] & ~g
    while low:
        w = ctz(low)
        low &= low - 1
        if (hand & T[ROW_TILE + w, K_PARTNERS]) == 0 and (later & _between(T, w, b)) == 0 and _in_line(T, w, b):
            return True
    return False


@njit(cache=True, inline="always")
def _virtual_stands(T, hand, debts, b, smask, after):
    """Whether a passing-game minimiser's single play of tile b is dominated by its virtual play of b as a debt w
    below it (`debts`: those it may play as here; X_GAP_PLAYS): b is the only tile of the hand ranked above w, s's
    tiles (smask, `_beat_later`) hold none ranked above w and not above b, and a partner still to act (`after`)
    holds one, so that `_virtual_plays` makes the virtual play.  Shown w, s has the plays it has against b and the
    partners more; after the trick the hands are the same, and the debt w, with no tile of the hand left above it, is
    dead (`_live_debts`)."""
    x = debts & T[ROW_TILE + b, K_BELOW]
    while x:
        w = ctz(x)
        x &= x - 1
        btw = _between(T, w, b)
        if ((hand & ~(np.int64(1) << b) & T[ROW_TILE + w, K_ABOVE]) == 0 and (smask & btw) == 0 and (after & btw) != 0
                and _in_line(T, w, b)):
            return True
    return False


@njit(cache=True, inline="always")
def _reading(T, hands, n, mark):
    """The holdings up to equivalence (`_tt_key`) as two 64-bit Zobrist hashes: each held tile gives the
    words of its slot (its class's first slot + the held tiles of its class before it in rank order), its
    owner, whether it ties the held tile before it, and its kind if it is in a multi-tile play of its
    hand.  `mark` >= 0: a tile read as held by a fifth owner (a standing single, whose rank splits the
    tiles of its class)."""
    held = np.int64(0)
    o0 = np.int64(0)  # the owner's index bit by bit (at most four seats)
    o1 = np.int64(0)
    for i in range(n):
        h = hands[i]
        held |= h
        if i & 1:
            o0 |= h
        if i & 2:
            o1 |= h
    if mark >= 0:
        held |= np.int64(1) << mark
    k0 = np.int64(0x243F6A8885A308D3)
    k1 = np.int64(0x13198A2E03707344)
    rest = held
    while rest:
        b = ctz(rest)
        rest &= rest - 1
        row = ROW_TILE + b
        slot = T[row, K_START] + popcount(held & T[row, K_BEFORE])
        o = 4 if b == mark else ((o0 >> b) & 1) | (((o1 >> b) & 1) << 1)
        c = o * 2 + (1 if held & T[row, K_TIE_BEFORE] else 0)
        k0 ^= T[ROW_Z0 + slot, c]
        k1 ^= T[ROW_Z1 + slot, c]
        if o < 4 and hands[o] & T[row, K_PARTNERS]:
            c = Z_KIND + 1 + T[row, K_KIND]
            k0 ^= T[ROW_Z0 + slot, c]
            k1 ^= T[ROW_Z1 + slot, c]
    return k0, k1


@njit(cache=True, inline="always")
def _tt_key(T, Q, X, hands, dong, leader):
    """The boundary's key, after DDS's partition search: the holdings up to equivalence.

    Within each class the held tiles are read highest first as (owner, tie with the previous
    tile); a tile in a multi-tile play of its hand also carries its kind.  Positions with the same
    reading have the same value (the group argument of the module docstring), so they share an
    entry.  The reading is hashed into two independent 64-bit words (k0, k1, `_reading`); k2 holds
    the 戙, leader, seat and bonus state exactly.
    """
    n = Q[R_PLAYERS]
    holder = -1
    sup = Q[R_SUPREME_MASK]
    for i in range(n):
        if (hands[i] & sup) == sup:
            holder = i
    k0, k1 = _reading(T, hands, n, -1)
    led = 0
    if holder >= 0 and Q[R_SUPREME_BONUS] > 0:
        led = X[X_HAS_LED] & (1 << holder)  # who has led matters only for a 至尊 still to come
    k2 = (leader | X[X_SEAT] << 3 | led << 6 | (X[X_PEND_LEADER] + 1) << 14
          | (X[X_PEND_WINNER] + 1) << 18)
    for i in range(n):
        k2 |= np.int64(dong[i]) << (22 + 5 * i)
    k2 |= np.int64(popcount(hands[leader])) << K2_DEPTH  # implied by the rest: read by the replacement only
    return k0, k1, k2



@njit(cache=True, inline="always")
def _trick_key(T, Q, X, hands, dong, leader, lead_p, win_p, win_seat, win_lead, caught, first, seat):
    """An in-trick node's key: the holdings up to equivalence, the trick so far, the 戙, leader and bonus state.

    `_tt_key`'s reading with the standing single read as a held tile of a fifth owner (its rank splits
    tiles a boundary counts as equivalent: one may beat it, the other not), so its tile need not be
    keyed; a beaten lead is keyed by what is still read of it (its size, 至尊, a quartet), a standing
    multi-tile play exactly.  With the dice on (their suits are not in the reading) the hands are keyed
    exactly.  Bit 60 of k2 keeps these keys apart from the boundaries'; k2's depth field is the leader's
    tiles left, as for the boundary that follows.
    """
    n = Q[R_PLAYERS]
    if Q[R_DICE_ON] == 0:
        single = T[ROW_PLAY + win_p, C_SIZE] == 1
        k0, k1 = _reading(T, hands, n, ctz(T[ROW_PLAY + win_p, C_MASK]) if single else -1)
        if single:
            win_p = 127  # its tile is read as held: twins and equivalent singles share the entry
        if win_lead == 0:  # a beaten lead matters by its size and its bonuses alone
            lq = T[ROW_PLAY + lead_p, C_CLS] == Q[R_QUARTET_CLASS]
            lead_p = 96 + T[ROW_PLAY + lead_p, C_SIZE] + (8 if lead_p == Q[R_SUPREME_PLAY] else 0) + (16 if lq else 0)
        else:
            lead_p = 127
    else:
        k0 = np.int64(0x452821E638D01377)
        k1 = np.int64(0x0BE5466CF34E90C6)
        for i in range(n):
            h = hands[i]
            k0 = (k0 ^ h) * np.int64(-7046029254386353131)
            k0 ^= (k0 >> 31) & np.int64(0x1FFFFFFFF)
            k1 = (k1 + h) * np.int64(-4658895280553007687)
            k1 ^= (k1 >> 29) & np.int64(0x7FFFFFFFF)
    k0 ^= np.int64(0x452821E638D01377)  # a word apart from the boundary's reading (k2's bit 60 keeps the keys apart too)
    misc = (lead_p | win_p << 7 | win_seat << 14 | win_lead << 17 | (caught + 1) << 18 | first << 22
            | seat << 23 | X[X_HAS_LED] << 26)
    k0 = (k0 ^ misc) * np.int64(-7046029254386353131)
    k0 ^= (k0 >> 31) & np.int64(0x1FFFFFFFF)
    k1 = (k1 + misc) * np.int64(-4658895280553007687)
    k1 ^= (k1 >> 29) & np.int64(0x7FFFFFFFF)
    k2 = (leader | X[X_SEAT] << 3 | (X[X_PEND_LEADER] + 1) << 14 | (X[X_PEND_WINNER] + 1) << 18)
    for i in range(n):
        k2 |= np.int64(dong[i]) << (22 + 5 * i)
    k2 |= np.int64(popcount(hands[leader])) << K2_DEPTH
    k2 |= np.int64(1) << 60
    return k0, k1, k2


@njit(cache=True, inline="always")
def _tt_index(k0, k2, size):
    """The first slot of key (k0, ·, k2)'s bucket in a table of `size` (a power of 2) entries."""
    h = k0 ^ (k2 * np.int64(-3372029247567499371))
    return (h >> 24) & (size - BUCKET)


@njit(cache=True)
def tt_grow(src, dst, gen):
    """Copy the entries of generation `gen` of table `src` into the larger table `dst` (each to its
    own bucket there), so that a search that outgrew `src` goes on in `dst` with what it has learnt."""
    ttk, ttv, ttb, ttg = src
    dk, dv, db, dg = dst
    for i in range(ttg.shape[0]):
        if ttg[i] >> TAG_GEN == gen:
            j = _tt_index(ttk[i, 0], ttk[i, 2], dg.shape[0])
            for _ in range(BUCKET - 1):  # the first free slot of its bucket (else the last)
                if dg[j] >> TAG_GEN == gen:
                    j += 1
            dk[j, 0] = ttk[i, 0]
            dk[j, 1] = ttk[i, 1]
            dk[j, 2] = ttk[i, 2]
            dv[j, 0] = ttv[i, 0]
            dv[j, 1] = ttv[i, 1]
            db[j] = ttb[i]
            dg[j] = ttg[i]


@njit(cache=True, inline="always")
def _tt_tag(X, k1, k2):
    """The tag of key (·, k1, k2) in this search's generation (TAG_*)."""
    return X[X_GEN] << TAG_GEN | ((k2 >> K2_DEPTH) & 31) << TAG_DEPTH | (k1 & TAG_KEY)


@njit(cache=True, inline="always")
def _tt_find(ttk, ttg, X, idx, k0, k1, k2):
    """The slot of bucket `idx` holding key (k0, k1, k2) of this generation, or -1."""
    tag = _tt_tag(X, k1, k2)
    for j in range(idx, idx + BUCKET):
        if ttg[j] == tag and ttk[j, 0] == k0 and ttk[j, 1] == k1 and ttk[j, 2] == k2:
            return j
    return -1


@njit(cache=True, inline="always")
def _tt_window(ttv, at, alpha, beta):
    """Slot `at`'s bounds against the window: (True, value, ·, ·) when they settle the node, else
    (False, 0, alpha, beta) with the window narrowed to them (unchanged when `at` < 0: no entry)."""
    if at < 0:
        return False, 0.0, alpha, beta
    lo = ttv[at, 0]
    hi = ttv[at, 1]
    if lo >= beta:
        return True, lo, alpha, beta
    if hi <= alpha or lo == hi:
        return True, hi, alpha, beta
    return False, 0.0, max(alpha, lo), min(beta, hi)


@njit(cache=True, inline="always")
def _tt_claim(ttk, ttv, ttb, ttg, X, idx, k0, k1, k2):
    """Give key (k0, k1, k2) a slot of bucket `idx`, with no bounds yet: a free one, else the one
    whose boundary has the fewest tiles a hand (the smallest subtree to search again); its slot."""
    g = X[X_GEN]
    at = idx
    fewest = 999
    for j in range(idx, idx + BUCKET):
        t = ttg[j]
        if t >> TAG_GEN != g:
            at = j
            break
        d = (t >> TAG_DEPTH) & 31
        if d <= fewest:
            fewest = d
            at = j
    ttg[at] = _tt_tag(X, k1, k2)
    ttk[at, 0] = k0
    ttk[at, 1] = k1
    ttk[at, 2] = k2
    ttv[at, 0] = -INF
    ttv[at, 1] = INF
    ttb[at] = -1
    return at


@njit(cache=True, inline="always")
def _tt_store(ttk, ttv, ttb, ttg, X, idx, k0, k1, k2, v, alpha, beta, bestp):
    """Store a fail-soft result in bucket `idx` as a bound (or exact value), keeping the tighter of old and new."""
    at = _tt_find(ttk, ttg, X, idx, k0, k1, k2)
    idx = at if at >= 0 else _tt_claim(ttk, ttv, ttb, ttg, X, idx, k0, k1, k2)
    if v <= alpha:
        if v < ttv[idx, 1]:
            ttv[idx, 1] = v
    elif v >= beta:
        if v > ttv[idx, 0]:
            ttv[idx, 0] = v
    else:
        ttv[idx, 0] = v
        ttv[idx, 1] = v
    if bestp >= 0:
        ttb[idx] = bestp


@njit(cache=True, inline="always")
def _last_single_trick(T, Q, X, hands, dong, leader, ky, ply):
    """The value of a last trick of single tiles, by backward induction over every beat/discard choice.

    Each follower holds one tile: it discards it or, if it may, beats with it.  Leaf i of the
    choice tree has bit k set when the k-th follower beats; leaves are settled, then the choices
    are folded from the last follower back to the first (max for seat s, min for the others).
    """
    n = Q[R_PLAYERS]
    folded = X[X_FOLDED]
    s = X[X_SEAT]
    nf = 0
    x = _next_active(leader, n, folded)
    while x != leader:
        ky[ply, nf] = x
        nf += 1
        x = _next_active(x, n, folded)
    sentinel = np.int64(-(1 << 62))
    lead_tile = ctz(hands[leader])
    for leaf in range(1 << nf):
        stand = lead_tile
        win = leader
        valid = True
        for k in range(nf):
            if leaf >> k & 1:
                seat = ky[ply, k]
                t = ctz(hands[seat])
                # the tables' beating relation, not the ranks: a relaxed game's tables may let tiles of equal
                # rank beat each other (kernels/relaxed.py)
                col = C_BU_LED if stand == lead_tile else C_BU_FOL
                if ((T[ROW_PLAY + T[ROW_TILE + stand, K_SINGLE], col] >> t) & 1 == 0
                        or (Q[R_EARLY_DEATH] != 0 and dong[seat] + 1 < Q[R_MIN_DONG])):
                    valid = False
                    break
                stand = t
                win = seat
        if valid:
            dong[win] += 1
            # in units of CLOSE_EPS: exact for the integer settlement and its close tie
            ky[ply, 8 + leaf] = np.int64(round(_terminal(Q, X, dong, win, 1, -1) / CLOSE_EPS))
            dong[win] -= 1
        else:
            ky[ply, 8 + leaf] = sentinel
    for k in range(nf - 1, -1, -1):
        maxing = ky[ply, k] == s
        bit = 1 << k
        for i in range(bit):
            a = ky[ply, 8 + i]
            b = ky[ply, 8 + (i | bit)]
            if b != sentinel and a != sentinel:
                a = max(a, b) if maxing else min(a, b)
            ky[ply, 8 + i] = a
    return float(ky[ply, 8]) * CLOSE_EPS


@njit(cache=True, inline="always")
def _owes_play(T, hand, w, gw, later, tied_ok):
    """Whether a single play of tile w of `hand` (its group gw) stands for a higher tile b of the hand left out by
    `_lower_stands` (X_OWED_GAPS): w a free single, b above it outside its group, free or (`tied_ok`) in a
    multi-tile play, none of `later` ranked above w and not above b.  The yes / no games then play w owed
    (`_close_search`): the line that played b and kept w is one of the owing seat's."""
    if (hand & T[ROW_TILE + w, K_PARTNERS]) != 0:
        return False
    high = hand & T[ROW_TILE + w, K_ABOVE] & ~gw
    while high:
        b = ctz(high)
        high &= high - 1
        if (hand & T[ROW_TILE + b, K_PARTNERS]) != 0 and not tied_ok:
            continue
        if (later & _between(T, w, b)) == 0 and _in_line(T, w, b):
            return True
    return False


@njit(cache=True, _nrt=False)  # not inlined: `_search` and `_close_search` share one compiled copy
def _leader_moves(A, ply, leader, others, forced, hint, playout, owed):
    """The leader's plays into mv[ply], sorted by ordering key (ky[ply]): one single per group of
    equivalent tiles, the table's best lead `hint` first, then the killers, multi-tile plays and
    sure plays; `forced` (a suit mask, or 0) as for held_leads; owed 1: a yes / no game where the other seats owe
    their discards (`_close_search`, X_OWED_GAPS); returns the count.  The arrays come by address (A_*)."""
    T, Q, X, hands, _, _, _, _, _, mv, ky, gp = _search_arrays(A)
    grow = gp[ply]
    s = X[X_SEAT]
    hand = hands[leader]
    maxing = leader == s
    twins = (not playout) and X[X_NO_TWINS] == 0  # the play-out keeps its own order (pimc, oracle)
    _groups(T, Q, hand, (others | _all_debts(X)) if X[X_PASSING] != 0 else others, grow)  # a debt splits groups: a virtual play lies between
    row = mv[ply]
    nc = held_leads(T, ROW_HB, ROW_PLAY, C_MASK, C_NEED, C_SIZE, hand, forced, row)
    nm = 0
    # the two games: a minimiser's single lead with a lower free single of its own where s holds no tile between
    # (`_lower_stands`; the passing game's lead then takes a debt, the upper game's minimisers have one choice fewer)
    owing = owed == 1 and X[X_OWED_GAPS] != 0 and X[X_GAME] != GAME_GET and (X[X_REAL] >> leader & 1) == 0
    gap = ((X[X_PASSING] != 0 or X[X_UPPER] != 0 or owing) and X[X_GAP_PLAYS] != 0 and (not maxing) and (not playout)
           and X[X_NO_DOMINANCE] == 0 and forced == 0)
    # the passing game: a single lead that its own virtual play as a debt below stands for (`_virtual_stands`)
    vdebts = X[X_PASS_DEBT + leader] if (gap and X[X_PASSING] != 0) else np.int64(0)
    # the partners (the passing game's virtual plays and `_virtual_stands` read them)
    virtual = X[X_PASSING] != 0 and (not maxing) and (not playout) and forced == 0
    mates = _others(hands, Q[R_PLAYERS], X[X_FOLDED] | (np.int64(1) << s), leader) if virtual else np.int64(0)
    for j in range(nc):
        p = row[j]
        size = T[ROW_PLAY + p, C_SIZE]
        if size == 1:
            b = ctz(T[ROW_PLAY + p, C_MASK])
            if (grow[b] & ((np.int64(1) << b) - 1)) != 0:
                continue  # a lower tile of the same group stands for it
            if gap and (_lower_stands(T, hand, b, grow[b], np.int64(-1), hands[s], X[X_TIED_HIGH] != 0)
                        or (vdebts != 0 and _virtual_stands(T, hand, vdebts, b, hands[s], mates))):
                X[X_LEADS_DROPPED] += 1
                continue
        if (T[ROW_PLAY + p, C_TWIN] & hand) != 0 and twins:
            continue  # its image with the lower twin stands for it (`twin_pairs`)
        if playout:  # the play-out's own order (strategies/search.py: pimc and oracle depend on it)
            sure = (others & T[ROW_PLAY + p, C_BU_LED]) == 0
            key = -(size * 1000 + (10000 if sure else 0) + T[ROW_PLAY + p, C_RANK])
        else:
            # multi-tile plays first; a minimiser's partners let its lead go, so what matters
            # is whether s can beat it
            sure = ((others if maxing else hands[s]) & T[ROW_PLAY + p, C_BU_LED]) == 0
            key = -(size * 100000 + (10000 if sure else 0) + T[ROW_PLAY + p, C_RANK])
        key = -1000000000 if p == hint else _killer_key(grow, p, key, playout)
        mv[ply, nm] = p
        ky[ply, nm] = key
        nm += 1
    if virtual:
        nm = _virtual_plays(T, X, leader, hand, np.int64(-1), mv, ky, grow, ply, nm, 0, mates, mates, hands[s])
        for j in range(nm):
            if mv[ply, j] == hint:
                ky[ply, j] = -1000000000
    _sort(mv, ky, ply, nm)
    return nm


@njit(cache=True, _nrt=False)  # not inlined: `_search` and `_close_search` share one compiled copy
def _follower_moves(A, ply, leader, seat, win_p, win_seat, win_lead, size, last, playout, owed):
    """A follower's moves into mv[ply], sorted by ordering key (ky[ply]): its beats (one per group of
    equivalent single tiles), then its discards of `size` tiles less the dominated ones (module
    docstring), or one owed discard (`_close_search`): owed = 1 for a seat other than s (the close
    game), 2 for s (the hold game), 0 never; returns the count.
    The arrays come by address (A_*)."""
    T, Q, X, hands, dong, _, _, _, _, mv, ky, gp = _search_arrays(A)
    grow = gp[ply]
    n = Q[R_PLAYERS]
    s = X[X_SEAT]
    folded = X[X_FOLDED]
    hand = hands[seat]
    others = _others(hands, n, folded, seat)
    _groups(T, Q, hand, (others | _all_debts(X)) if X[X_PASSING] != 0 else others, grow)
    maxing = seat == s
    twins = (not playout) and X[X_NO_TWINS] == 0
    # the dominances of beats and discards also where the higher tile is in a multi-tile play of the hand (the lower
    # one free): keeping it keeps every play of the lower one and more (in the passing game a tied tile may pay a
    # debt too: `_virtual_plays`)
    tied_ok = X[X_TIED_HIGH] != 0
    ours = (win_seat == s) == maxing
    # Does an opponent of this seat still act after it in this trick?  Then beat high.
    threat = False
    nxt = _next_active(seat, n, folded)
    while nxt != leader:
        if (nxt == s) != maxing:
            threat = True
        nxt = _next_active(nxt, n, folded)
    bu = T[ROW_PLAY + win_p, C_BU_LED if win_lead == 1 else C_BU_FOL]
    if ours and threat and (not maxing) and (not playout) and (hands[s] & bu) != 0:
        ours = False  # a partner's play that s, still to act, may beat: overtake it first
    if (not ours) and (not threat) and (not maxing) and (not playout) and X[X_ORDER] != 0 and (hand & bu) != 0:
        # the second ordering (X_ORDER): s's play stands and a partner after this seat can beat it too
        ours = _can_beat(T, win_p, win_lead, hands, n, folded, _next_active(seat, n, folded), leader)
    nm = 0
    early = last and Q[R_EARLY_DEATH] != 0 and dong[seat] + size < Q[R_MIN_DONG]
    # the passing game's minimisers: the tiles of the partners still to act in the trick, and s's if s is (its
    # virtual plays and `_virtual_stands` read them)
    pas = X[X_PASSING] != 0 and size == 1 and (not maxing) and (not playout)
    vafter = _tiles_after(hands, n, folded, seat, leader, s) if pas else np.int64(0)
    vsmask = _beat_later(X, hands, n, folded, seat, leader, True) if pas else np.int64(0)
    if (not early) and (hand & bu) != 0:
        row = (ROW_BL if win_lead == 1 else ROW_BF) + win_p
        used = np.int64(0)
        # A single beat b is dominated by a lower free single u of the hand that beats too, where no seat still to
        # act holds a tile beating u and not b (both win or lose the trick alike) and no partner holds one (a
        # minimiser's partners may want the lower tile later, as for discards): the hands after the trick differ
        # only in the seat keeping b instead of u, which is never worse for it.
        low_ok = size == 1 and (not playout) and X[X_LOW_BEATS] != 0 and X[X_NO_DOMINANCE] == 0
        later = np.int64(0)
        # the passing game: a beat that its own virtual play as a debt below stands for (`_virtual_stands`)
        vdebts = X[X_PASS_DEBT + seat] & bu if (pas and X[X_GAP_PLAYS] != 0 and X[X_NO_DOMINANCE] == 0) else np.int64(0)
        if low_ok:
            # (a debt is a tile a seat may still play as: the passing game; an owing seat of a yes / no game plays
            # the lower beat owed, X_OWED_GAPS)
            owing = owed == 1 and X[X_OWED_GAPS] != 0 and X[X_GAME] != GAME_GET and (X[X_REAL] >> seat & 1) == 0
            later = _beat_later(X, hands, n, folded, seat, leader,
                                (X[X_PASSING] != 0 or X[X_UPPER] != 0 or owing) and X[X_GAP_PLAYS] != 0 and not maxing)
            if not maxing and X[X_UPPER] == 0 and X[X_PASSING] == 0 and not owing:
                # (the upper game drops the partners' condition, as for discards; the passing game too, the beat
                # taking a debt as a discard does: `_beat_debts`)
                later |= _others(hands, n, folded | (np.int64(1) << s), seat)
        for i in range(1, T[row, 0] + 1):
            p = T[row, i]
            if not _holds(T, p, hand) or ((T[ROW_PLAY + p, C_TWIN] & hand) != 0 and twins):
                continue
            m = T[ROW_PLAY + p, C_MASK]
            if size == 1:
                g = grow[ctz(m)]
                if used & g:
                    continue  # an equivalent tile already beats
                used |= g
                if ((low_ok and _lower_stands(T, hand, ctz(m), g, bu, later, tied_ok))
                        or (vdebts != 0 and _virtual_stands(T, hand, vdebts, ctz(m), vsmask, vafter))):
                    X[X_BEATS_DROPPED] += 1
                    continue
            r = T[ROW_PLAY + p, C_RANK]
            mv[ply, nm] = p
            ky[ply, nm] = _killer_key(grow, p, (1000000 if ours else 0) + (-r if threat else r), playout)
            nm += 1
    if pas and not early:
        nm = _virtual_plays(T, X, seat, hand, bu, mv, ky, grow, ply, nm, 1000000 if ours else 0, vafter,
                            _others(hands, n, folded | (np.int64(1) << s), seat), vsmask)
    # Discards: every set of `size` tiles taking the lowest bits of each group; a seat keeps
    # the higher of two free singles of one class (dominated discards, module docstring).
    nb = 0
    rest = hand
    free = np.int64(0)
    dominance = (not playout) and X[X_NO_DOMINANCE] == 0
    # a minimiser's partners: their tiles ranked between a kept and a discarded single matter
    mates = np.int64(0)
    if dominance and not maxing and X[X_PASSING] == 0 and X[X_UPPER] == 0:  # the two games drop the condition
        mates = _others(hands, n, folded | (np.int64(1) << s), seat)
    while rest:
        b = ctz(rest)
        grow[G_BITS + nb] = b
        nb += 1
        rest &= rest - 1
        if dominance and (hand & T[ROW_TILE + b, K_PARTNERS]) == 0:
            free |= np.int64(1) << b
    tied = dominance and tied_ok  # (a discarded b in a multi-tile play of the hand, a lower free single kept)
    c = (np.int64(1) << size) - 1
    if (owed == 1 and not maxing and (X[X_REAL] >> seat & 1) == 0) or (owed == 2 and maxing):
        mv[ply, nm] = -1  # the close game: a discard owed, `size` tiles to be given up later (`_close_search`)
        ky[ply, nm] = 0 if ours else 1000000
        nm += 1
        c = np.int64(1) << nb
    while c < (np.int64(1) << nb):
        d = np.int64(0)
        x = c
        while x:
            d |= np.int64(1) << grow[G_BITS + ctz(x)]
            x &= x - 1
        ok = True
        key = 0 if ours else 1000000
        x = d
        while x:
            b = ctz(x)
            x &= x - 1
            if grow[b] & ((np.int64(1) << b) - 1) & ~d:
                ok = False
                break
            if T[ROW_TILE + b, K_TWIN] & hand & ~d and twins:
                ok = False  # the same discard with the lower twin kept out stands for it (`twin_pairs`)
                break
            # (tiles of b's own group are interchangeable with it: the group rule picks among them)
            if (free >> b & 1) or (tied and (hand & T[ROW_TILE + b, K_PARTNERS]) != 0):
                low = free & T[ROW_TILE + b, K_BELOW] & ~d & ~grow[b]
                while low:
                    w = ctz(low)
                    low &= low - 1
                    if (mates & _between(T, w, b)) == 0:
                        ok = False  # a lower free single of the class stays: discarding b is never better
                        break
                if not ok:
                    break
            key += T[ROW_TILE + b, K_STR] + (60 if hand & T[ROW_TILE + b, K_PARTNERS] else 0)
        if ok:
            mv[ply, nm] = -(d + 1)
            ky[ply, nm] = _killer_key(grow, -(d + 1), key, playout)
            nm += 1
        t = c | (c - 1)  # Gosper: the next set of `size` bits
        c = (t + 1) | (((~t & -~t) - 1) >> (ctz(c) + 1))
    _sort(mv, ky, ply, nm)
    return nm


@njit(cache=True, _nrt=False)  # not inlined: `_tt_key` is long, and `_search` holds a copy already
def _close_key(A, leader):
    """The close or hold game's key of a boundary: `_tt_key`'s reading of the holdings, the leader and
    seat, the tiles each seat owes, the 戙 only as far as early death reads them (capped at its
    minimum), the hold or get game's 戙 target less s's 戙, the width, and bit 61 − X_GAME (61 close,
    60 hold, 59 get), apart from `_search`'s keys.  The arrays come by address (A_*)."""
    T, Q, X, hands, dong = _position_arrays(A)
    k0, k1, _ = _tt_key(T, Q, X, hands, dong, leader)
    k0 ^= np.int64(X[X_REAL]) * np.int64(0x5851F42D4C957F2D)  # a game with seats choosing is another game
    k2 = np.int64(leader | X[X_SEAT] << 3) | np.int64(1) << (61 - X[X_GAME]) | np.int64(X[X_WIDTH]) << 54 | np.int64(X[X_UNOWED]) << 56
    value = X[X_GAME] >= GAME_AT_LEAST
    for i in range(Q[R_PLAYERS]):
        k2 |= np.int64(X[X_DEBT + i]) << (6 + 4 * i)  # bits 6-21: at most 15 tiles owed a seat
        if value:
            k2 |= np.int64(dong[i]) << (22 + 5 * i)  # the value reads every seat's 戙
        elif Q[R_EARLY_DEATH] != 0:
            k2 |= np.int64(min(dong[i], Q[R_MIN_DONG])) << (22 + 5 * i)
    if value:
        k2 |= np.int64(X[X_HOLD] + VALUE_TARGET) << 42  # bits 42-47
    elif X[X_GAME] != GAME_CLOSE:
        k2 |= np.int64(X[X_HOLD] - dong[X[X_SEAT]]) << 42  # bits 42-47
    k2 |= np.int64(popcount(hands[leader])) << K2_DEPTH
    return k0, k1, k2


@njit(cache=True, inline="always")
def _last_single_close(T, Q, X, hands, dong, leader):
    """Whether seat s wins a last trick of single tiles.  A side whose discards are owed (the close
    game's relaxation) may hold more tiles than it plays: every follower beats with its highest tile
    that beats the standing one, if it may (the other seats: raising the bar s must pass is never
    worse for them; s: a beat that stands wins), and the leader leads the tile best for its side."""
    n = Q[R_PLAYERS]
    folded = X[X_FOLDED]
    s = X[X_SEAT]
    lead_tiles = hands[leader]
    while lead_tiles:
        stand = ctz(lead_tiles)
        lead_tiles &= lead_tiles - 1
        win = leader
        x = _next_active(leader, n, folded)
        while x != leader:
            if not (Q[R_EARLY_DEATH] != 0 and dong[x] + 1 < Q[R_MIN_DONG]):
                h = hands[x] & T[ROW_PLAY + T[ROW_TILE + stand, K_SINGLE], C_BU_FOL]
                best = -1
                while h:
                    t = ctz(h)
                    h &= h - 1
                    if best < 0 or T[ROW_TILE + t, K_RANK] > T[ROW_TILE + best, K_RANK]:
                        best = t
                if best >= 0:
                    stand = best
                    win = x
            x = _next_active(x, n, folded)
        if leader == s and win == s:
            return np.int64(1)
        if leader != s and win != s:
            return np.int64(0)
    return np.int64(0) if leader == s else np.int64(1)


@njit(cache=True, _nrt=False)  # not inlined: each inlined copy of the bounds costs compile time
def _bounds_of(A, leader, others, rest, count_sure, s_gets, s_closes, s_holds):
    """`_static_bounds` of the position the arrays hold (by address, A_*): one compiled copy for the games."""
    T, Q, X, hands, dong = _position_arrays(A)
    return _static_bounds(T, Q, X, hands, dong, leader, others, rest, count_sure, s_gets, s_closes, s_holds)


@njit(cache=True, _nrt=False)  # not inlined: one more copy of the bounds in `_search` costs compile time
def _close_floor(A, leader, others):
    """The floor of the lines where s closes, at a trick boundary (`_static_bounds` with s_closes)."""
    hands = vector(A[A_HANDS], A[A_NSEATS])
    return _bounds_of(A, leader, others, popcount(hands[leader]), True, np.int64(0), True, np.int64(-1))[0]


@njit(cache=True, inline="always")
def _value_made(X, v, sproves):
    """Whether s's result v makes the value game's point: at least X_HOLD (s proves), or at most it."""
    return v >= X[X_HOLD] if sproves else v <= X[X_HOLD]


@njit(cache=True, _nrt=False)
def _close_search(A, ply, leader, lead_p, win_p, win_seat, win_lead, actor):
    """The close game (X_GAME 0): 1 if seat s surely wins the last trick (結) from this node, 0 if that is
    not shown; the hold game (X_GAME 1): 1 if the other seats surely hold s to at most X_HOLD 戙 without
    letting it close, 0 if that is not shown; the get game (X_GAME 2): 1 if s surely ends with at least
    X_HOLD 戙 (closing or not), 0 if that is not shown.

    A seat that closes ends with at least the early-death minimum (`_closer_gain`), so the lines
    where s closes have a floor of their own (`_static_bounds`, s_closes), far above the value of
    any line where another seat closes.  When that floor reaches beta the search needs to know
    only whether s surely closes: a yes / no game, asked here.  The 戙 matter in it only as early
    death reads them (capped at its minimum), the bonuses not at all, and a line stops as soon as
    one side has made its point.

    The other seats play it relaxed: a discard of theirs is owed, not chosen (X_DEBT: the seat
    keeps its tiles and gives up `size` of them later, any it likes; its plays are limited only by
    the tiles it has still to play).  Any line of the real game is a line of this one (the seat
    gives up what it would have discarded), so the other seats can do all they could and more:
    a 1 here means s closes in the real game too, and a 0 means nothing (then `_search` goes on).
    Owing a discard is one move where choosing one is dozens, and a seat's holdings change only
    by its face-up plays, so far fewer positions are reached: deal 49 of bench_solve_cli.py, the
    banker closes, 84 M nodes relaxed against about 2 G in the real close game (benchmarks/README.md,
    stop 38).  A move that settles a node is remembered as the ply's killer, as in `_search`: the
    proof that s closes is mostly s finding its one way at each of its turns, and the way that
    worked in the sibling position mostly works again (deal 49 from the first lead, 2^22 table:
    130 M → 21 M nodes; stop 39).

    The hold game is the same game turned round, for the proofs that s is held low (a bad lead's
    exact value: the others keep s from every trick, or from all but one): s's discards are owed,
    the other seats choose theirs, and a 1 means they hold s in the real game too.  It ends as soon
    as s passes X_HOLD or closes, and answers 0 at once where s surely adds more than it may (its
    sure singles on lead, the stoppers' floor): a 0 may always be answered, it proves nothing.
    The get game is the close game with another goal (s's 戙 reach X_HOLD), for the proofs that s,
    shut out of the lead, still takes its few tricks: the other seats owe their discards again.
    The value games (X_GAME 3, 4) end only at the last trick, where `_terminal` reads the settlement
    (no bonus may be in play: the caller's test), and the static bounds settle a boundary; X_UNOWED 1:
    no discard is owed, the real game with only the proving side narrowed.
    In every game the proving side may be kept to its first X_WIDTH discards at a turn (0: all), in
    the order `_follower_moves` lists them: a narrower game for the side whose 1 is the answer, so a
    1 still holds, while the other side's every reply is still searched.  A bad lead of full deal 85
    of bench_solve_cli.py, the hold game from the lead: 8.7 M nodes with every discard, 12.5 k with
    the first alone (stop 39).

    s's moves, groups and dominated discards are `_search`'s (`_follower_moves`, `_leader_moves`);
    a seat sure to take the trick and then cash every tile it must still play decides (`_takes_trick`,
    `_cashes_all`); entries go into `_search`'s table as exact answers under `_close_key`.  Not
    with the residual-tile dice (no chance nodes).  Arguments as `_search`'s; the arrays come by
    address (A_*).
    """
    T, Q, X, hands, dong, ttk, ttv, ttb, ttg, mv, ky, gp = _search_arrays(A)
    n = Q[R_PLAYERS]
    s = X[X_SEAT]
    folded = X[X_FOLDED]
    X[X_NODES] += 1
    Z = np.int64(0)
    ONE = np.int64(1)
    M1 = np.int64(-1)
    if X[X_BUDGET] > 0 and X[X_NODES] > X[X_BUDGET]:
        X[X_ABORT] = 1  # as in `_search`: every caller returns at once and stores nothing
        return Z
    close = X[X_GAME] == GAME_CLOSE
    get = X[X_GAME] == GAME_GET
    value = X[X_GAME] >= GAME_AT_LEAST
    sproves = X[X_GAME] != GAME_HOLD and X[X_GAME] != GAME_AT_MOST  # s is the side that proves
    if lead_p >= 0:
        seat = _next_active(actor, n, folded)
        size = T[ROW_PLAY + lead_p, C_SIZE]
        last = popcount(hands[leader]) == X[X_DEBT + leader]
        if get and dong[s] + size + popcount(hands[leader]) - X[X_DEBT + leader] < X[X_HOLD]:
            return Z  # too few 戙 left even for all of them
        if seat == leader:
            if close:
                if last:
                    return ONE if win_seat == s else Z
            elif value:
                if last:
                    dong[win_seat] += size
                    v = _terminal(Q, X, dong, win_seat, 1, -1)
                    dong[win_seat] -= size
                    return ONE if _value_made(X, v, sproves) else Z
            elif get:
                if win_seat == s and dong[s] + size >= X[X_HOLD]:
                    return ONE
                if last:
                    return Z
            else:
                if win_seat == s and (last or dong[s] + size > X[X_HOLD]):
                    return Z  # s closes, or passes what it may add
                if last:
                    return ONE
            dong[win_seat] += size
            r = _close_search(A, ply + 1, win_seat, M1, M1, win_seat, Z, win_seat)
            dong[win_seat] -= size
            return r
        if not last and not value:
            # a seat still to act, sure to take the trick and then to cash every tile, decides
            bu = T[ROW_PLAY + win_p, C_BU_LED if win_lead == 1 else C_BU_FOL]
            x = seat
            while x != leader:
                if hands[x] & bu:
                    lo2, hi2 = _takes_trick(A, seat, leader, win_p, win_lead, size, ply, x, 0.0, 1.0, True)
                    if x == s and lo2 >= 1.0:
                        return ONE if sproves else Z
                    if x != s and hi2 <= 0.0:
                        return Z if sproves else ONE
                x = _next_active(x, n, folded)
        nm = _follower_moves(A, ply, leader, seat, win_p, win_seat, win_lead, size, last, False,
                             Z if X[X_UNOWED] != 0 else (ONE if sproves else np.int64(2)))
        maxing = (seat == s) == sproves  # the proving side
        # an owing seat's single beat that stands for a higher one left out is owed (X_OWED_GAPS, `_owes_play`)
        owing = (sproves and (not get) and seat != s and X[X_UNOWED] == 0 and X[X_OWED_GAPS] != 0 and X[X_GAP_PLAYS] != 0
                 and size == 1 and X[X_LOW_BEATS] != 0 and X[X_NO_DOMINANCE] == 0 and (X[X_REAL] >> seat & 1) == 0)
        olater = _beat_later(X, hands, n, folded, seat, leader, True) if owing else Z
        nd = 0
        for j in range(nm):
            code = mv[ply, j]
            if maxing and code < -1:
                nd += 1
                if X[X_WIDTH] > 0 and nd > X[X_WIDTH]:
                    break  # the proving side may keep to a narrower game: its 1 still holds
            if code >= 0:
                m = T[ROW_PLAY + code, C_MASK]
                # an owed beat keeps its tile and owes one more
                owe = 1 if (owing and _owes_play(T, hands[seat], ctz(m), gp[ply, ctz(m)], olater,
                                                 X[X_TIED_HIGH] != 0)) else 0
                gone = Z if owe else m
                hands[seat] ^= gone
                X[X_DEBT + seat] += owe
                r = _close_search(A, ply + 1, leader, lead_p, code, seat, Z, seat)
                X[X_DEBT + seat] -= owe
                hands[seat] ^= gone
            else:
                d = -code - 1
                owe = size if d == 0 else 0  # the empty discard: `size` tiles owed
                hands[seat] ^= d
                X[X_DEBT + seat] += owe
                r = _close_search(A, ply + 1, leader, lead_p, win_p, win_seat, win_lead, seat)
                X[X_DEBT + seat] -= owe
                hands[seat] ^= d
            if X[X_ABORT] != 0:
                return Z
            if maxing == (r == 1):
                _remember_killer(gp[ply], code)
                return r  # the proving side found its way, or the other side its way out
        return Z if maxing else ONE

    hand = hands[leader]
    tiles = popcount(hand) - X[X_DEBT + leader]  # what every seat has still to play
    if tiles == 1 and not value:
        w = _last_single_close(T, Q, X, hands, dong, leader)
        if get:
            return ONE if (w == 1 and dong[s] + 1 >= X[X_HOLD]) else Z
        return w if close else ONE - w
    if get and dong[s] + tiles < X[X_HOLD]:
        return Z
    k0, k1, k2 = _close_key(A, leader)
    idx = _tt_index(k0, k2, ttk.shape[0])
    at = _tt_find(ttk, ttg, X, idx, k0, k1, k2)
    if at >= 0:
        return np.int64(ttv[at, 0])
    if X[X_GAME] == GAME_HOLD:
        # s surely adds more 戙 than it may: not shown (a 0 may always be answered)
        allow = X[X_HOLD] - dong[s]
        if leader == s:
            if popcount(_sure_singles(T, hand, _others(hands, n, folded, s))) > allow:
                return Z
        elif tiles <= STOPPER_TILES and X[X_NO_STOPPERS] == 0 and _tricks_for_s(A, ply) > allow:
            return Z
    maxing = (leader == s) == sproves
    r = ONE if maxing else Z
    cashes = _cashes_all(A, leader)
    if value:
        # the static bounds settle it, or the leader's side cashes every tile and so makes its point
        lo, hi = _bounds_of(A, leader, _others(hands, n, folded, leader), tiles, True, Z, False, M1)
        if _value_made(X, lo if sproves else hi, sproves):
            r = ONE
            cashes = True
        elif not _value_made(X, hi if sproves else lo, sproves):
            r = Z
            cashes = True
        elif cashes:
            dong[leader] += tiles
            v = _terminal(Q, X, dong, leader, 1, -1)
            dong[leader] -= tiles
            cashes = _value_made(X, v, sproves) == maxing
    if not cashes:
        nm = _leader_moves(A, ply, leader, _others(hands, n, folded, leader), Z, M1, False,
                           ONE if (sproves and X[X_UNOWED] == 0) else Z)
        r = ONE - r
        # an owing seat's single lead that stands for a higher one left out is owed (X_OWED_GAPS, `_owes_play`)
        owing = (sproves and (not get) and leader != s and X[X_UNOWED] == 0 and X[X_OWED_GAPS] != 0 and X[X_GAP_PLAYS] != 0
                 and X[X_NO_DOMINANCE] == 0 and (X[X_REAL] >> leader & 1) == 0)
        for j in range(nm):
            p = mv[ply, j]
            if T[ROW_PLAY + p, C_SIZE] > tiles:
                continue
            m = T[ROW_PLAY + p, C_MASK]
            # an owed lead keeps its tile and owes one more
            owe = 1 if (owing and T[ROW_PLAY + p, C_SIZE] == 1
                        and _owes_play(T, hand, ctz(m), gp[ply, ctz(m)], hands[s], X[X_TIED_HIGH] != 0)) else 0
            gone = Z if owe else m
            hands[leader] ^= gone
            X[X_DEBT + leader] += owe
            v = _close_search(A, ply + 1, leader, p, p, leader, ONE, leader)
            X[X_DEBT + leader] -= owe
            hands[leader] ^= gone
            if X[X_ABORT] != 0:
                return Z
            if maxing == (v == 1):
                _remember_killer(gp[ply], p)
                r = v
                break
    _tt_store(ttk, ttv, ttb, ttg, X, idx, k0, k1, k2, float(r), -INF, INF, M1)
    return r


@njit(cache=True, _nrt=False)
def _game_call(A, leader, lead_p, win_p, win_seat, win_lead, actor, budgeted=False):
    """`_close_search` from the root (the game X_GAME); with root games asked early (X_CLOSE 2) or
    `budgeted` its nodes come out of X_GAME_BUDGET, and a game that runs out of it answers 0."""
    X = vector(A[A_X], A[A_NX])
    outer = X[X_BUDGET]
    early = X[X_CLOSE] == 2 or budgeted
    if early:
        if X[X_GAME_BUDGET] <= 0:
            return np.int64(0)
        lim = X[X_NODES] + X[X_GAME_BUDGET]
        X[X_BUDGET] = lim if (outer <= 0 or lim < outer) else outer
    start = X[X_NODES]
    r = _close_search(A, np.int64(0), leader, lead_p, win_p, win_seat, win_lead, actor)
    if early:
        X[X_BUDGET] = outer
        X[X_GAME_BUDGET] -= X[X_NODES] - start
        if X[X_ABORT] != 0 and not ((outer > 0 and X[X_NODES] > outer) or X[X_STOP] != 0):
            X[X_ABORT] = 0  # only the game's own budget ran out: not shown
            r = np.int64(0)
    return r


@njit(cache=True, _nrt=False)
def _squeeze_close(A, leader, lead_p, win_p, win_seat, win_lead, actor):
    """The close game again where it failed with every other seat owing its discards: one of them at a time
    chooses its discards (X_REAL), the others still owe.  Still a relaxation in the other seats' favour (the
    owing seats may do all they could and more, the choosing seat what it could), so a 1 holds in the real game.
    A squeeze is what makes owing fail: the squeezed seat must give up a guard before it knows which one it can
    spare, and owing lets it wait; with that seat choosing, the proof is the real one for it alone.  Full deal
    237 of bench_solve_cli.py, the banker's lead 3-1 (the banker closes): every seat owing fails, seat 3
    choosing holds in 0.8 M nodes, the search's proof 16 M to 60 M.  The seats take turns, each on what is left
    of X_PARTIAL; a seat whose game fails within it joins X_PARTIAL_OUT and is not asked again at this root.
    1 if shown.  The arrays come by address (A_*)."""
    T, Q, X, hands, dong = _position_arrays(A)
    s = X[X_SEAT]
    n = Q[R_PLAYERS]
    folded = X[X_FOLDED]
    saved = X[X_GAME_BUDGET]
    r = np.int64(0)
    c = _next_active(s, n, folded)
    while c != s and r == 0 and X[X_PARTIAL] > 0:
        if (X[X_PARTIAL_OUT] >> c & 1) == 0:
            given = X[X_PARTIAL]
            X[X_REAL] = np.int64(1) << c
            X[X_GAME_BUDGET] = given
            start = X[X_NODES]
            r = _game_call(A, leader, lead_p, win_p, win_seat, win_lead, actor, True)
            used = X[X_NODES] - start
            X[X_PARTIAL] -= min(used, given)
            if X[X_ABORT] != 0:
                break
            if r == 0 and used <= given:
                X[X_PARTIAL_OUT] |= np.int64(1) << c
        c = _next_active(c, n, folded)
    X[X_REAL] = 0
    X[X_GAME_BUDGET] = saved
    if r == 1:
        X[X_PARTIAL_CUTS] += 1
    return r


@njit(cache=True, _nrt=False)
def _root_games(A, leader, lead_p, win_p, win_seat, win_lead, actor, alpha, beta, budgeted=False, holds=True):
    """A search's root test (alpha, beta) settled by the close, hold or get game, or NaN (`budgeted`: their
    nodes out of X_GAME_BUDGET, as with X_CLOSE 2; `holds` False: not the hold game, for the value walk).

    The close game when the floor of the lines where s closes reaches beta; the hold game when the
    ceiling of the lines where s adds at most k 戙 and does not close is at most alpha, for the
    largest such k; else the get game when the floor of the lines where s adds at least k 戙 reaches
    beta, for the smallest such k (`_narrow_game`).  Once the close or hold game has answered 1 at this
    root the other is not asked again (X_KNOWN: bit 1 s closes, bit 2 it does not, bits 4 and 8 a wide
    hold or get game failed with nodes of its budget left).  The node is given as in
    `_search` (a boundary, or a trick in progress: its 戙 still counted as to come); the bounds count
    no sure play (the hands are mid-trick), and no bonus may be in play (the caller's test).
    """
    T, Q, X, hands, dong = _position_arrays(A)
    s = X[X_SEAT]
    Z = np.int64(0)
    rest = popcount(hands[leader]) + (T[ROW_PLAY + lead_p, C_SIZE] if lead_p >= 0 else 0)
    others = _others(hands, Q[R_PLAYERS], X[X_FOLDED], leader)
    lo = _bounds_of(A, leader, others, rest, False, Z, True, np.int64(-1))[0]
    if lo >= beta and (X[X_KNOWN] & 3) != 2:
        X[X_GAME] = GAME_CLOSE
        X[X_WIDTH] = CLOSE_WIDTH
        r = _game_call(A, leader, lead_p, win_p, win_seat, win_lead, actor, budgeted)
        if r == 0 and X[X_ABORT] == 0 and X[X_PARTIAL] > 0:
            r = _squeeze_close(A, leader, lead_p, win_p, win_seat, win_lead, actor)
        X[X_WIDTH] = 0
        if X[X_ABORT] != 0:
            return np.nan
        if r == 1:
            X[X_KNOWN] |= 1
            X[X_CLOSE_CUTS] += 1
            return lo
    hi = _bounds_of(A, leader, others, rest, False, Z, False, Z)[1]
    if holds and hi <= alpha and (X[X_KNOWN] & 3) != 1:
        most = Z
        while most + 1 < rest:
            h1 = _bounds_of(A, leader, others, rest, False, Z, False, most + 1)[1]
            if h1 > alpha:
                break
            hi = h1
            most += 1
        # past GROW_NODES (X_CLOSE 1) on the games' budget too, where the close and get games have none
        if _narrow_game(A, np.int64(GAME_HOLD), dong[s] + most, np.int64(4),
                        leader, lead_p, win_p, win_seat, win_lead, actor, budgeted or X[X_CLOSE] == 1) == 1:
            X[X_KNOWN] |= 2
            X[X_HOLD_CUTS] += 1
            return hi
        if X[X_ABORT] != 0:
            return np.nan
    k = np.int64(1)
    while k <= rest:
        lo = _bounds_of(A, leader, others, rest, False, k, False, np.int64(-1))[0]
        if lo >= beta:
            if _narrow_game(A, np.int64(GAME_GET), dong[s] + k, np.int64(8),
                            leader, lead_p, win_p, win_seat, win_lead, actor, budgeted) == 1:
                X[X_GET_CUTS] += 1
                return lo
            break
        k += 1
    return np.nan


@njit(cache=True, _nrt=False)
def _value_walk(A, leader, lead_p, win_p, win_seat, win_lead, actor, lo, hi):
    """Bounds on the root's value from the value games, within (lo, hi): "V_s at least t" (the others'
    discards owed) for t from the static ceiling down until one holds, then "at most t" (s's discards
    owed, else none owed): the value exact.  A value game near the value is cheap and far below it dear
    (deal 96 of bench_solve_cli.py, value 18, the banker from the first lead: "at least 18" 0.74 M
    nodes, "at least 3" 119 M, "at least 19" fails in 2 k), while the search's zero-window tests walk
    up from below.  The games share VALUE_NODES nodes past GROW_NODES, a stage's games budget in a stage
    that walks (X_WALK, kernels/position.py WALK_STAGE); whole-number targets that the key holds
    (`_close_key`) only.

    "At least t" is asked first of the close or get game where the static floor of the lines where s
    closes, or adds k 戙, reaches t (`_root_games`): they end a line as soon as s has closed or has its
    k 戙, where the value game plays every line to the last trick.  Full deal 98 of bench_solve_cli.py,
    the banker's lead 3-1, worth -6 (one 戙): "at least -6" 4.8 M nodes, "s gets 1 戙" 1.6 M; its search
    in `tjsim solve` 10.8 M → 3.8 M nodes, settled in its third stage (stop 45)."""
    T, Q, X, hands, dong = _position_arrays(A)
    if X[X_CLOSE_TIE] != 0:
        return lo, hi
    rest = popcount(hands[leader]) + (T[ROW_PLAY + lead_p, C_SIZE] if lead_p >= 0 else 0)
    others = _others(hands, Q[R_PLAYERS], X[X_FOLDED], leader)
    hi_s = _bounds_of(A, leader, others, rest, False, np.int64(0), False, np.int64(-1))[1]
    saved = X[X_GAME_BUDGET]
    budget = VALUE_NODES if X[X_CLOSE] == 1 else saved  # a stage's walk (X_WALK) spends its games' budget
    X[X_GAME_BUDGET] = budget
    Z = np.int64(0)
    t = np.int64(np.floor(min(hi, hi_s, float(VALUE_TARGET - 1))))
    while t > lo and t - 1 >= -VALUE_TARGET and X[X_GAME_BUDGET] > 0 and X[X_ABORT] == 0:
        # the close or get game first: they stop once s has closed or has its 戙, where the value game plays on
        g = _root_games(A, leader, lead_p, win_p, win_seat, win_lead, actor, float(t) - 1.0, float(t), True, False)
        if X[X_ABORT] != 0:
            break
        if not np.isnan(g):
            made = True
            t = np.int64(np.floor(g))  # "at least g", g >= t
        else:
            made = _narrow_game(A, np.int64(GAME_AT_LEAST), t, Z, leader, lead_p, win_p, win_seat, win_lead, actor,
                                True, Z) == 1
        if made:
            lo = float(t)
            X[X_VALUE_CUTS] += 1
            # the narrow games first, s's discards owed and none owed, then the wide ones: deal 148's lead
            # 5-2 "at most -4" fails with s's owed at width 3 in 3.2 M nodes, holds none owed at width 1 in 16 k
            for w in (np.int64(1), np.int64(HOLD_WIDTH)):
                for unowed in range(2):
                    if hi > t and _narrow_game(A, np.int64(GAME_AT_MOST), t, Z, leader, lead_p, win_p, win_seat,
                                               win_lead, actor, True, np.int64(unowed), w, w):
                        hi = float(t)
                        X[X_VALUE_CUTS] += 1
            break
        t -= 1
    X[X_VALUE_NODES] += budget - X[X_GAME_BUDGET]
    if X[X_CLOSE] == 1:
        X[X_GAME_BUDGET] = saved
    return lo, hi


@njit(cache=True, _nrt=False)
def _narrow_game(A, game, target, flag, leader, lead_p, win_p, win_seat, win_lead, actor,
                 budgeted=False, unowed=0, w0=1, w1=HOLD_WIDTH):
    """The hold, get or value game (`game`, X_HOLD = target; `unowed`: X_UNOWED) from the root: the
    proving side kept to its first discard a turn, then to its first HOLD_WIDTH unless that failed at
    this root before (X_KNOWN bit `flag`) (widths from w0 to w1, tripling); `budgeted`: its nodes out of
    X_GAME_BUDGET (`_game_call`);
    1 or 0."""
    X = vector(A[A_X], A[A_NX])
    X[X_GAME] = game
    X[X_HOLD] = target
    X[X_UNOWED] = unowed
    r = np.int64(0)
    width = np.int64(w0)
    while r == 0 and width <= w1 and X[X_ABORT] == 0 and not (budgeted and X[X_GAME_BUDGET] <= 0):
        if width > 1 and X[X_KNOWN] & flag:
            break  # the wide game failed at this root already: not asked again
        X[X_WIDTH] = width
        r = _game_call(A, leader, lead_p, win_p, win_seat, win_lead, actor, budgeted)
        if r == 0 and width > 1 and X[X_GAME_BUDGET] > 0:
            X[X_KNOWN] |= flag  # failed, not only out of its budget (with no budget left none is asked)
        width *= 3
    X[X_GAME] = GAME_CLOSE
    X[X_WIDTH] = 0
    X[X_UNOWED] = 0
    return r if X[X_ABORT] == 0 else np.int64(0)


# No explicit signature: compiled with its caller (mtd_kernel), whose cached code holds it, so a start loads
# it once (an explicit signature compiled it, or loaded it from the cache, again at import: 35 ms).  Every
# call passes typed values (np.int64 constants, not literals), so there is one compiled recursion.
# _nrt=False (also on the helpers it calls): the search allocates nothing, and NRT's reference counting of
# the array arguments of every recursive call, atomic increments and decrements, took 42 % of a solve's
# time (perf): 2× a node.
@njit(cache=True, inline="always")
def _pass_salt(T, X, hands, n):
    """What the passing game adds to a table key: its debts, the held tiles of their classes exactly (a debt
    splits what the key reads as equivalent), and a salt apart from the real game's keys."""
    h = ((X[X_PASS_DEBT] * np.int64(-7046029254386353131)) ^ (X[X_PASS_DEBT + 1] * np.int64(-4658895280553007687))
         ^ (X[X_PASS_DEBT + 2] * np.int64(-3372029247567499371)) ^ (X[X_PASS_DEBT + 3] * np.int64(7640891576956012809))
         ^ np.int64(0x5bd1e9955bd1e995))
    x = _all_debts(X)
    cm = np.int64(0)
    while x:
        cm |= T[ROW_TILE + ctz(x), K_CMASK]
        x &= x - 1
    held = np.int64(0)
    for i in range(n):
        held |= hands[i]
    held &= cm
    held ^= held >> 29
    return h ^ (held * np.int64(-4417276706812531889))


@njit(cache=True, inline="always")
def _other_game_cut(ttk, ttv, ttg, X, ok, k1, k2, alpha, beta):
    """A cut from the other game's entry for this node, its key `ok`: the passing game with any debts is worth at
    most the real game from the same hands (debts only add to the minimisers' plays), so its floors hold in the
    real search and the real search's ceilings in it.  (True, the bound) when that settles the node, else (False, 0)."""
    at = _tt_find(ttk, ttg, X, _tt_index(ok, k2, ttk.shape[0]), ok, k1, k2)
    if at >= 0:
        if X[X_PASSING] != 0:
            if ttv[at, 1] <= alpha:
                X[X_CROSS_CUTS] += 1
                return True, ttv[at, 1]
        elif ttv[at, 0] >= beta:
            X[X_CROSS_CUTS] += 1
            return True, ttv[at, 0]
    return False, 0.0


@njit(cache=True, inline="always")
def _all_debts(X):
    """Every seat's debts (the passing game; 0 outside it)."""
    return X[X_PASS_DEBT] | X[X_PASS_DEBT + 1] | X[X_PASS_DEBT + 2] | X[X_PASS_DEBT + 3]


@njit(cache=True, inline="always")
def _debts_to_act(X, seat, leader, n, folded):
    """Whether a seat from `seat` on, up to the leader (-1: every seat), holds a debt: the plays it may still make
    include virtual ones."""
    x = seat
    while True:
        if X[X_PASS_DEBT + x] != 0:
            return True
        x = _next_active(x, n, folded)
        if x == leader or x == seat:
            return False


@njit(cache=True, _nrt=False)
def _beat_debts(A, seat, u, bu, later):
    """The debts of minimiser `seat` after its single beat with tile u (already out of its hand) in the passing
    game: as if u were discarded (`_pass_debts`) where the hand keeps a single b above u (free, or with X_TIED_HIGH
    in a multi-tile play of the hand; with X_GAP_PLAYS also a debt, whose virtual plays `_virtual_plays` leaves out)
    that beats the standing play (its tiles bu) too, with no tile or debt of a seat still to act beating u and not b
    (`later`: `_beat_later`): the beat with b the game leaves out (`_follower_moves`) without the partners'
    condition.  Else its debts unchanged.  Also for a minimiser's single lead u (bu -1, later s's tiles), whose
    higher leads the game leaves out (X_GAP_PLAYS, `_leader_moves`).
    The arrays come by address (A_*)."""
    T, Q, X, hands, _ = _position_arrays(A)
    hand = hands[seat]
    if hand & T[ROW_TILE + u, K_PARTNERS]:
        return X[X_PASS_DEBT + seat]
    # (a debt: a tile it may still play as)
    kept = hand | (X[X_PASS_DEBT + seat] if X[X_GAP_PLAYS] != 0 else np.int64(0))
    up = kept & bu & T[ROW_TILE + u, K_ABOVE]
    while up:
        b = ctz(up)
        up &= up - 1
        if ((X[X_TIED_HIGH] != 0 or (hand & T[ROW_TILE + b, K_PARTNERS]) == 0)
                and (later & _between(T, u, b)) == 0):
            return _pass_debts(A, seat, np.int64(1) << u)
    return X[X_PASS_DEBT + seat]


@njit(cache=True, _nrt=False)
def _pass_debts(A, seat, d):
    """The debts of minimiser `seat` after it discards the tiles d (already out of its hand): each free single W
    of d with a free single of its class kept above it and a partner's tile ranked in between (module docstring).
    The arrays come by address (A_*)."""
    T, Q, X, hands, _ = _position_arrays(A)
    keep = hands[seat]
    held = keep | d
    mates = _others(hands, Q[R_PLAYERS], X[X_FOLDED] | (np.int64(1) << X[X_SEAT]), seat)
    debts = X[X_PASS_DEBT + seat]
    x = d
    while x:
        w = ctz(x)
        x &= x - 1
        if _takes_debt(T, held, keep, w, mates, X[X_TIED_HIGH] != 0):
            debts |= np.int64(1) << w
    return debts


@njit(cache=True, inline="always")
def _live_debts(T, X, hands, n, seat):
    """Minimiser `seat`'s debts without the dead ones.  A debt W is dead once no partner holds a tile ranked above W
    and not above the highest tile of W's class in the seat's hand: a virtual play of it, a tile u played as W, then
    lets no partner overtake that u played as itself would not, gives s only more plays that beat it, and takes no
    debt as if u were discarded (that needs a partner's tile above u), where the tile played as itself keeps the
    debt; so every virtual play of a dead debt is dominated, now and later (partners' tiles and the seat's only
    leave), and dropping it changes no value of the passing game and lets more of its entries meet."""
    debts = X[X_PASS_DEBT + seat]
    if debts == 0:
        return debts
    mates = _others(hands, n, X[X_FOLDED] | (np.int64(1) << X[X_SEAT]), seat)
    hand = hands[seat]
    x = debts
    while x:
        w = ctz(x)
        x &= x - 1
        up = hand & T[ROW_TILE + w, K_ABOVE]
        # (bits run from the highest rank down: the lowest bit of `up` is the seat's highest tile above w)
        if up == 0 or (mates & _between(T, w, ctz(up))) == 0:
            debts &= ~(np.int64(1) << w)
    return debts


@njit(cache=True, inline="always")
def _takes_debt(T, held, keep, t, mates, tied):
    """Whether a minimiser that held `held` and keeps `keep` takes a debt on its tile t given up (`_pass_debts`): t a
    free single of `held` with a free single (or, `tied`: any tile) kept above it and a partner's tile (of `mates`)
    ranked in between."""
    if held & T[ROW_TILE + t, K_PARTNERS]:
        return False
    up = keep & T[ROW_TILE + t, K_ABOVE]
    while up:
        a = ctz(up)
        up &= up - 1
        if (tied or (held & T[ROW_TILE + a, K_PARTNERS]) == 0) and (mates & _between(T, t, a)):
            return True
    return False


@njit(cache=True, inline="always")
def _virtual(T, code):
    """The tile mask a virtual play's code takes from the hand, and the single it is played as (VIRTUAL)."""
    x = code - VIRTUAL
    return np.int64(1) << (x >> 10), x & 1023


@njit(cache=True, inline="always")
def _play_virtual(A, T, X, hands, seat, code):
    """Make minimiser `seat`'s virtual play `code` (VIRTUAL): its tile leaves the hand, the debt it is played as
    is paid, and the tile takes a debt as if it were discarded (`_pass_debts`).  Returns the tile's mask, the
    single it is played as and the seat's debts before, to restore."""
    m, p = _virtual(T, code)
    debts = X[X_PASS_DEBT + seat]
    hands[seat] ^= m
    X[X_PASS_DEBT + seat] = debts & ~T[ROW_PLAY + p, C_MASK]
    X[X_PASS_DEBT + seat] = _pass_debts(A, seat, m)
    return m, p, debts


@njit(cache=True, inline="always")
def _virtual_plays(T, X, seat, hand, bu, mv, ky, grow, ply, nm, key, after, mates, smask):
    """Append to mv[ply] minimiser `seat`'s virtual plays (module docstring): each debt w it holds that beats
    the standing play (its tiles bu; -1: a lead) played with the lowest free single of the hand of w's class
    above it, and with each tile of the class in a multi-tile play of the hand (X_TIED_HIGH) ranked between w and
    that one, one of each kind; ordering keys from `key` as its beats'.  Returns the new count.

    `after`: the tiles of the partners still to act in this trick, `mates`: every partner's.  A virtual play of
    t as w where none of `after` lies in (w, t] and t would take no debt is left out: t played as itself lets
    the same partners overtake, gives s fewer plays that beat it and keeps the debt w (`_live_debts`).
    `smask`: s's tiles where s is still to act (`_beat_later`).  With X_GAP_PLAYS no virtual play of w is made where
    a lower free single u of the hand leads (beats) as well and s holds no tile ranked above u and not above w: as
    for a real tile w (`_lower_stands`), u stands for it, and its play takes a debt u, a debt above it counting as a
    tile kept (`_beat_debts`)."""
    x = X[X_PASS_DEBT + seat]
    if bu != -1:
        x &= bu
    while x:
        w = ctz(x)
        x &= x - 1
        p = T[ROW_TILE + w, K_SINGLE]
        if X[X_GAP_PLAYS] != 0 and _lower_stands(T, hand, w, np.int64(0), bu, smask, True):
            X[X_LEADS_DROPPED if bu == -1 else X_BEATS_DROPPED] += 1
            continue
        up = hand & T[ROW_TILE + w, K_ABOVE]
        t = -1
        x2 = up
        while x2:
            u = ctz(x2)  # (bits run from the highest rank down: the lowest bit is the highest tile)
            x2 &= x2 - 1
            if hand & T[ROW_TILE + u, K_PARTNERS]:
                continue  # not a free single
            if t < 0 or T[ROW_TILE + u, K_RANK] < T[ROW_TILE + t, K_RANK]:
                t = u
        # the lowest free tile above w stands for every tile above it, free or tied: a higher one played instead
        # would leave the same position with a lower free tile kept, which its debt (`_pass_debts`, as if t were
        # discarded) dominates.  A tied tile below it (X_TIED_HIGH) is a play of its own: the dropped line may have
        # discarded it and kept w
        seen = np.int64(0)
        while up:
            v = ctz(up)
            up &= up - 1
            tied = (hand & T[ROW_TILE + v, K_PARTNERS]) != 0
            if tied:
                if (X[X_TIED_HIGH] == 0 or (t >= 0 and T[ROW_TILE + v, K_RANK] >= T[ROW_TILE + t, K_RANK])
                        or (seen & grow[v]) != 0):
                    continue
                seen |= grow[v]
            elif v != t:
                continue
            if (X[X_DEAD_DEBTS] != 0 and (after & _between(T, w, v)) == 0
                    and not _takes_debt(T, hand, hand & ~(np.int64(1) << v), v, mates, X[X_TIED_HIGH] != 0)):
                X[X_DEBTS_DROPPED] += 1
                continue
            code = VIRTUAL + v * 1024 + p
            mv[ply, nm] = code
            ky[ply, nm] = _killer_key(grow, code, key + T[ROW_PLAY + p, C_RANK], False)
            nm += 1
    return nm


@njit(cache=True, _nrt=False)
def _search(A, ply, leader, lead_p, win_p, win_seat, win_lead, caught, first, actor, forced, alpha, beta):
    """Fail-soft alpha-beta value (for seat X_SEAT) of the rest of the deal from this node.

    lead_p = -1: a trick boundary, `leader` to lead (TT, quick bound, dice); -2: the leader's
    choice within the dice's suit `forced`; >= 0: the lead of the trick in progress, `win_p`
    standing for `win_seat` (`win_lead` = 1 while the lead stands), `actor` acted last,
    `caught` = the seat whose 杂8 pair beat a led 至尊, `first` = 1 if it is the leader's first lead.
    The arrays come by address in A (A_*, `mtd_kernel`).
    """
    T, Q, X, hands, dong, ttk, ttv, ttb, ttg, mv, ky, gp = _search_arrays(A)
    n = Q[R_PLAYERS]
    s = X[X_SEAT]
    folded = X[X_FOLDED]
    X[X_NODES] += 1
    if X[X_BUDGET] > 0 and X[X_NODES] > X[X_BUDGET]:
        X[X_ABORT] = 1  # out of budget (or told to stop): every caller returns at once and stores nothing
        return 0.0
    Z = np.int64(0)  # typed constants: a literal argument would compile another recursion
    ONE = np.int64(1)
    M1 = np.int64(-1)
    M2 = np.int64(-2)
    if lead_p >= 0:
        seat = _next_active(actor, n, folded)
        size = T[ROW_PLAY + lead_p, C_SIZE]
        last = hands[leader] == 0
        if seat == leader:
            # The trick is over: 戙 to its winner, then the bonuses it gives (§5.4).
            dong[win_seat] += size
            pl = X[X_PEND_LEADER]
            pw = X[X_PEND_WINNER]
            bonus = 0.0
            extra = 1
            catcher = -1
            if lead_p == Q[R_SUPREME_PLAY]:
                if last and Q[R_SUPREME_CLOSE] != 0:
                    if win_seat == leader:
                        extra = 2
                    elif win_seat == caught:
                        catcher = caught
                elif (not last) and first == 1 and Q[R_SUPREME_BONUS] > 0:
                    if win_seat != leader and Q[R_SUSPENDED] != 0:
                        X[X_PEND_LEADER] = leader
                        X[X_PEND_WINNER] = win_seat
                    else:
                        bonus += _give(X, leader, Q[R_SUPREME_BONUS])
            if T[ROW_PLAY + lead_p, C_CLS] == Q[R_QUARTET_CLASS] and Q[R_QUARTET_BONUS] > 0:
                bonus += _give(X, win_seat, Q[R_QUARTET_BONUS])
            if last:
                v = bonus + _terminal(Q, X, dong, win_seat, extra, catcher)
            else:
                d0 = X[X_PASS_DEBT]
                d1 = X[X_PASS_DEBT + 1]
                d2 = X[X_PASS_DEBT + 2]
                d3 = X[X_PASS_DEBT + 3]
                clean = X[X_DEAD_DEBTS] != 0 and (d0 | d1 | d2 | d3) != 0
                if clean:
                    for i in range(n):
                        if i != s:
                            dd = _live_debts(T, X, hands, n, i)
                            X[X_DEBTS_DROPPED] += popcount(X[X_PASS_DEBT + i] & ~dd)
                            X[X_PASS_DEBT + i] = dd
                v = bonus + _search(A, ply + 1,
                                    win_seat, M1, M1, win_seat, Z, M1, Z, win_seat, Z,
                                    alpha - bonus, beta - bonus)
                if clean:
                    X[X_PASS_DEBT] = d0
                    X[X_PASS_DEBT + 1] = d1
                    X[X_PASS_DEBT + 2] = d2
                    X[X_PASS_DEBT + 3] = d3
            dong[win_seat] -= size
            X[X_PEND_LEADER] = pl
            X[X_PEND_WINNER] = pw
            return v

        # A follower: beat the standing play or discard `size` tiles face down.
        playout = popcount(hands[leader]) + size > X[X_HORIZON]
        tidx = -1
        tk0 = np.int64(0)
        tk1 = np.int64(0)
        tk2 = np.int64(0)
        passing = X[X_PASSING] != 0
        track = passing or X[X_PASS_TRACK] != 0  # the debts kept (the real search: only read)
        if X[X_NO_TRICK_TABLE] == 0 and (not playout) and (not last):
            tk0, tk1, tk2 = _trick_key(T, Q, X, hands, dong, leader, lead_p, win_p, win_seat, win_lead,
                                       caught, first, seat)
            salt = _pass_salt(T, X, hands, n) if track else Z
            if passing:
                tk0 ^= salt
            if X[X_UPPER] != 0:
                tk0 ^= UPPER_SALT
            tidx = _tt_index(tk0, tk2, ttk.shape[0])
            cut, v, alpha, beta = _tt_window(ttv, _tt_find(ttk, ttg, X, tidx, tk0, tk1, tk2), alpha, beta)
            if cut:
                return v
            if X[X_PASS_TRACK] != 0:
                cut, v = _other_game_cut(ttk, ttv, ttg, X, tk0 ^ salt, tk1, tk2, alpha, beta)
                if cut:
                    return v
        if ((not playout) and (not last) and lead_p != Q[R_SUPREME_PLAY]
                and (T[ROW_PLAY + lead_p, C_CLS] != Q[R_QUARTET_CLASS] or Q[R_QUARTET_BONUS] <= 0)):
            # a seat still to act sure to take the trick: s raises the floor, an opponent lowers the ceiling
            bu = T[ROW_PLAY + win_p, C_BU_LED if win_lead == 1 else C_BU_FOL]
            x = seat
            while x != leader:
                if hands[x] & bu:  # x holds a tile of a play beating the standing one
                    lo2, hi2 = _takes_trick(A, seat, leader, win_p, win_lead, size, ply, x, alpha, beta, False)
                    if x == s:
                        if lo2 >= beta:
                            return lo2
                    elif hi2 <= alpha:
                        return hi2
                x = _next_active(x, n, folded)
            lo2, hi2 = _in_trick_bounds(A, seat, leader, win_p, win_lead, win_seat, size, alpha, beta)
            if lo2 >= beta and not (passing and _debts_to_act(X, seat, leader, n, folded)):
                # (a virtual play, lower than the tile played, could let another seat take the trick)
                return lo2
            if hi2 <= alpha:
                return hi2
        grow = gp[ply]
        nm = _follower_moves(A, ply, leader, seat, win_p, win_seat, win_lead, size, last, playout, Z)
        maxing = seat == s
        if playout:
            nm = 1
        best = -INF if maxing else INF
        a0 = alpha
        b0 = beta
        for j in range(nm):
            code = mv[ply, j]
            if code >= VIRTUAL:  # the passing game: a tile of the hand played as a debt, which it pays
                m, p, debts = _play_virtual(A, T, X, hands, seat, code)
                v = _search(A, ply + 1,
                            leader, lead_p, p, seat, Z, caught, first, seat, Z, alpha, beta)
                X[X_PASS_DEBT + seat] = debts
                hands[seat] ^= m
            elif code >= 0:
                m = T[ROW_PLAY + code, C_MASK]
                hands[seat] ^= m
                nc = seat if (lead_p == Q[R_SUPREME_PLAY] and win_lead == 1) else caught
                debts = Z
                owe = track and seat != s and size == 1 and X[X_LOW_BEATS] != 0 and X[X_NO_DOMINANCE] == 0
                if owe:
                    debts = X[X_PASS_DEBT + seat]
                    X[X_PASS_DEBT + seat] = _beat_debts(A, seat, ctz(m),
                                                        T[ROW_PLAY + win_p, C_BU_LED if win_lead == 1 else C_BU_FOL],
                                                        _beat_later(X, hands, n, folded, seat, leader,
                                                                    X[X_GAP_PLAYS] != 0))
                v = _search(A, ply + 1,
                            leader, lead_p, code, seat, Z, nc, first, seat, Z, alpha, beta)
                if owe:
                    X[X_PASS_DEBT + seat] = debts
                hands[seat] ^= m
            else:
                d = -code - 1
                hands[seat] ^= d
                debts = Z
                if track and seat != s:
                    debts = X[X_PASS_DEBT + seat]
                    X[X_PASS_DEBT + seat] = _pass_debts(A, seat, d)
                v = _search(A, ply + 1,
                            leader, lead_p, win_p, win_seat, win_lead, caught, first, seat, Z,
                            alpha, beta)
                hands[seat] ^= d
                if track and seat != s:
                    X[X_PASS_DEBT + seat] = debts
            if X[X_ABORT] != 0:
                return 0.0
            if maxing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
            if alpha >= beta:
                if not playout:
                    _remember_killer(grow, code)
                break
        if tidx >= 0:
            _tt_store(ttk, ttv, ttb, ttg, X, tidx, tk0, tk1, tk2, best, a0, b0, -1)
        return best

    # The leader's turn.
    hand = hands[leader]
    others = _others(hands, n, folded, leader)
    maxing = leader == s
    hint = -1
    idx = -1
    k0 = np.int64(0)
    k1 = np.int64(0)
    k2 = np.int64(0)
    if lead_p == -1 and popcount(hand) == 1 and (X[X_PASSING] == 0 or not _debts_to_act(X, leader, -1, n, folded)):
        return _last_single_trick(T, Q, X, hands, dong, leader, ky, ply)
    playout = popcount(hand) > X[X_HORIZON]
    if lead_p == -1:
        k0, k1, k2 = _tt_key(T, Q, X, hands, dong, leader)
        salt = _pass_salt(T, X, hands, n) if (X[X_PASSING] != 0 or X[X_PASS_TRACK] != 0) else Z
        if X[X_PASSING] != 0:
            k0 ^= salt
        if X[X_UPPER] != 0:
            k0 ^= UPPER_SALT
        idx = _tt_index(k0, k2, ttk.shape[0])
        at = _tt_find(ttk, ttg, X, idx, k0, k1, k2)
        cut, v, alpha, beta = _tt_window(ttv, at, alpha, beta)
        if cut:
            return v
        if X[X_PASS_TRACK] != 0:
            cut, v = _other_game_cut(ttk, ttv, ttg, X, k0 ^ salt, k1, k2, alpha, beta)
            if cut:
                return v
        if at >= 0 and not playout:
            hint = ttb[at]
        # a miss claims no slot: the store does, so a boundary cut by its bounds evicts nothing
        lo, hi = _static_bounds(T, Q, X, hands, dong, leader, others, popcount(hand))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if leader != s and not playout and popcount(hand) <= STOPPER_TILES and X[X_NO_STOPPERS] == 0:
            # 戙 s surely adds under the others' lead raise the floor
            g = _tricks_for_s(A, ply)
            if g > 0:
                lo1, _ = _static_bounds(T, Q, X, hands, dong, leader, others, popcount(hand), True, g)
                if lo1 >= beta:
                    return lo1
        if X[X_CLOSE] == 1 and Q[R_DICE_ON] == 0 and not playout:
            # s surely closes, and every line where it closes reaches beta: the close game tells
            lo_c = _close_floor(A, leader, others)
            if lo_c >= beta:
                r = _close_search(A, ply, leader, M1, M1, leader, Z, leader)
                if X[X_ABORT] != 0:
                    return 0.0
                if r == 1:
                    X[X_CLOSE_CUTS] += 1
                    return lo_c
        # Quick tricks: every tile an unbeatable single, so the leader can take every trick.
        if (not playout) and not _any_tile(T, hand, K_ABOVE, others):
            cnt = popcount(hand)
            dong[leader] += cnt
            v = _terminal(Q, X, dong, leader, 1, -1)
            dong[leader] -= cnt
            if (maxing and v >= beta) or ((not maxing) and v <= alpha):
                _tt_store(ttk, ttv, ttb, ttg, X, idx, k0, k1, k2, v, alpha, beta, -1)
                return v
        # Residual-tile dice (§4.7): a chance node over the 36 throws.
        cnt = popcount(hand)
        if Q[R_DICE_ON] != 0 and (cnt == 2 or cnt == 3):
            if not _any_tile(T, hand, K_PARTNERS, hand):  # no multi-tile play in the hand
                w_gong = 0
                w_za = 0
                w_yao = 0
                for d1 in range(1, 7):
                    for d2 in range(1, 7):
                        suit = dice_suit(Q, hand, d1 + d2)
                        if suit == Q[R_SUIT_GONG]:
                            w_gong += 1
                        elif suit == Q[R_SUIT_ZA]:
                            w_za += 1
                        else:
                            w_yao += 1
                v = 0.0
                for k in range(3):
                    w = w_gong if k == 0 else (w_za if k == 1 else w_yao)
                    if w == 0:
                        continue
                    suit = Q[R_SUIT_GONG + k]
                    v += w * _search(A, ply + 1,
                                     leader, M2, M1, leader, Z, M1, Z, leader, suit, -INF, INF)
                    if X[X_ABORT] != 0:
                        return 0.0
                v /= 36.0
                _tt_store(ttk, ttv, ttb, ttg, X, idx, k0, k1, k2, v, -INF, INF, -1)
                return v

    grow = gp[ply]
    nm = _leader_moves(A, ply, leader, others, forced if lead_p == -2 else 0, hint, playout, Z)
    if playout:
        nm = 1
    # a minimiser's single lead takes the debts that the higher leads left out need (X_GAP_PLAYS; the real search
    # keeps them too, X_PASS_TRACK, to find the passing game's entries)
    lead_debts = ((X[X_PASSING] != 0 or X[X_PASS_TRACK] != 0) and X[X_GAP_PLAYS] != 0 and leader != s
                  and (not playout) and X[X_NO_DOMINANCE] == 0)
    old_led = X[X_HAS_LED]
    fl = 0 if (old_led >> leader & 1) else 1
    X[X_HAS_LED] = old_led | (np.int64(1) << leader)
    a0 = alpha
    b0 = beta
    best = -INF if maxing else INF
    bestp = -1
    # Budgeted probes (near the root): every lead is first searched with a small node budget, the
    # budget growing fourfold each round, so a lead whose proof is short is found before one whose
    # proof is long.  A probe out of budget stores nothing and is tried again next round; after
    # PROBE_ROUNDS rounds the leads left are searched without a budget.  ky[ply, j] = 1 marks lead
    # j as still to search (the ordering keys are spent once the moves are sorted).
    outer = X[X_BUDGET]
    budget = X[X_PROBE_B0]
    probing = (lead_p == -1 and (not playout) and budget > 0 and nm > 1
               and popcount(hand) >= X[X_PROBE_TILES])
    for j in range(nm):
        ky[ply, j] = 1
    left = nm
    rounds = 0
    j = 0
    while left > 0:
        if j >= nm:
            j = 0
            rounds += 1
            budget *= 4
            continue
        if ky[ply, j] == 0:
            j += 1
            continue
        p = mv[ply, j]
        code = p
        debts = X[X_PASS_DEBT + leader]
        if p >= VIRTUAL:  # the passing game: a tile of the hand led as a debt, which it pays
            m, p, debts = _play_virtual(A, T, X, hands, leader, p)
        else:
            m = T[ROW_PLAY + p, C_MASK]
            hands[leader] ^= m
            if lead_debts and T[ROW_PLAY + p, C_SIZE] == 1:
                # the higher leads it stands for were left out (X_GAP_PLAYS): it keeps them with a debt
                X[X_PASS_DEBT + leader] = _beat_debts(A, leader, ctz(m), np.int64(-1), hands[s])
        if probing and rounds < PROBE_ROUNDS:
            lim = X[X_NODES] + budget
            X[X_BUDGET] = lim if (outer <= 0 or lim < outer) else outer
        v = _search(A, ply + 1,
                    leader, p, p, leader, ONE, M1, fl, leader, Z, alpha, beta)
        hands[leader] ^= m
        X[X_PASS_DEBT + leader] = debts
        X[X_BUDGET] = outer
        if X[X_ABORT] != 0:
            if not probing or (outer > 0 and X[X_NODES] > outer) or X[X_STOP] != 0:
                X[X_HAS_LED] = old_led
                return 0.0  # an outer budget ran out: give up this node too, storing nothing
            X[X_ABORT] = 0
            j += 1
            continue
        ky[ply, j] = 0
        left -= 1
        j += 1
        if maxing:
            if v > best:
                best = v
                bestp = code
                if v > alpha:
                    alpha = v
        else:
            if v < best:
                best = v
                bestp = code
                if v < beta:
                    beta = v
        if alpha >= beta:
            if not playout:
                _remember_killer(grow, code)
            break
    X[X_HAS_LED] = old_led
    if lead_p == -1:
        _tt_store(ttk, ttv, ttb, ttg, X, idx, k0, k1, k2, best, a0, b0, bestp)
    return best


@njit(cache=True, inline="always")
def _address_vector(T, Q, X, ttk, ttv, ttb, ttg, hands, dong, mv, ky, gp):
    """The search's arrays by address (A_*): the vector lives, and the arrays must, while the search runs."""
    if (T.shape[0] != N_TROWS or T.shape[1] != TW or ttk.shape[1] != 3 or ttv.shape[1] != 2
            or ky.shape != mv.shape or gp.shape[0] != mv.shape[0] or dong.shape[0] != hands.shape[0]
            or X.shape[0] != N_X):
        raise ValueError("solver kernel: tables of the wrong shape")
    A = np.empty(N_A, dtype=np.int64)
    A[A_T] = address(T)
    A[A_Q] = address(Q)
    A[A_X] = address(X)
    A[A_TTK] = address(ttk)
    A[A_TTV] = address(ttv)
    A[A_TTB] = address(ttb)
    A[A_TTG] = address(ttg)
    A[A_HANDS] = address(hands)
    A[A_DONG] = address(dong)
    A[A_MV] = address(mv)
    A[A_KY] = address(ky)
    A[A_GP] = address(gp)
    A[A_NQ] = Q.shape[0]
    A[A_NX] = X.shape[0]
    A[A_NTT] = ttk.shape[0]
    A[A_NSEATS] = hands.shape[0]
    A[A_PLIES] = mv.shape[0]
    A[A_MOVES] = mv.shape[1]
    A[A_GW] = gp.shape[1]
    return A


@njit(cache=True, _nrt=False)
def _game_test(A, leader, lead_p, win_p, win_seat, win_lead, caught, first, actor, b, upper):
    """The test "V >= b" asked first in one of the two games (module docstring) on its budget: upper = True, the
    upper game on X_UPPER_NODES nodes, worth at least V: its ceiling when the test fails there (then V fails too);
    upper = False, the passing game on X_PASS_NODES nodes, worth at most V: its value when the test holds there
    (then V holds too).  Else NaN, and the next game or the real search follows.  The arrays come by address (A_*)."""
    X = vector(A[A_X], A[A_NX])
    outer = X[X_BUDGET]
    lim = X[X_NODES] + (X[X_UPPER_NODES] if upper else X[X_PASS_NODES])
    X[X_BUDGET] = lim if (outer <= 0 or lim < outer) else outer
    close = X[X_CLOSE]
    track = X[X_PASS_TRACK]
    was = X[X_PASSING]
    up = X[X_UPPER]
    X[X_CLOSE] = 0  # the close game sees neither game (its entries are the real game's)
    if upper:
        X[X_PASS_TRACK] = 0  # no debts there: the passing game's entries are not found
        X[X_UPPER] = 1
    else:
        X[X_PASSING] = 1
    start = X[X_NODES]
    v = _search(A, np.int64(0), leader, lead_p, win_p, win_seat, win_lead, caught, first, actor, np.int64(0),
                b - 1.0, b)
    X[X_UPPER] = up
    X[X_PASSING] = was
    X[X_PASS_TRACK] = track
    X[X_CLOSE] = close
    X[X_BUDGET] = outer
    settled = X[X_ABORT] == 0 and (v <= b - 1.0 if upper else v >= b)
    if X[X_ABORT] != 0 and not ((outer > 0 and X[X_NODES] > outer) or X[X_STOP] != 0):
        X[X_ABORT] = 0  # only its own budget ran out: the next game or the real search follows
    if upper:
        X[X_UPPER_PROOFS] += 1 if settled else 0
    else:
        X[X_PASS_SPENT] += X[X_NODES] - start
        if settled:
            X[X_PASS_PROOFS] += 1
        else:
            X[X_PASS_FAILS] += 1
            X[X_PASS_WASTED] += X[X_NODES] - start
    return v if settled else np.nan


@njit(cache=True, nogil=True)  # nogil: `tjsim solve` searches in a worker thread so that Ctrl-C is heard
def mtd_kernel(T, Q, X, ttk, ttv, ttb, ttg, hands, dong, mv, ky, gp,
               leader, lead_p, win_p, win_seat, win_lead, caught, first, actor, guess, bounds):
    """`solve_kernel` that also writes the bounds proved so far to bounds[0:2] (the value twice when exact).

    bounds[0:2] holds on entry what is known already (-INF, INF: nothing); no test is made outside it.
    X_FLOOR_FIRST = 1: the first test is "value > floor", then the walk goes on from max(guess,
    what that test proved) (the floor test, module docstring).  X_FLOOR_FIRST = 2: the first test is
    "value >= guess"; unless that settles the value, the floor test follows (an action of `tjsim
    solve`, the guess the position's value: the best actions take that one test).
    """
    for i in range(gp.shape[0]):  # no killers yet: a solve's ordering does not depend on the solves before it
        gp[i, G_KILLER] = NO_KILLER
        gp[i, G_KILLER + 1] = NO_KILLER
    X[X_BUDGET] = X[X_LIMIT]
    X[X_ABORT] = 0
    A = _address_vector(T, Q, X, ttk, ttv, ttb, ttg, hands, dong, mv, ky, gp)
    lo = bounds[0]
    hi = bounds[1]
    g = guess
    stage = (2, 3)[X[X_FLOOR_FIRST] - 1] if X[X_FLOOR_FIRST] > 0 else 0
    # the root's games and the passing game leave the bonuses and the dice out
    passes = (caught < 0 and X[X_HORIZON] == EXACT and Q[R_DICE_ON] == 0 and Q[R_SUPREME_BONUS] <= 0
              and Q[R_QUARTET_BONUS] <= 0 and Q[R_SUPREME_CLOSE] == 0 and X[X_PEND_LEADER] < 0)
    games = X[X_CLOSE] != 0 and passes
    X[X_PASS_TRACK] = 1 if (passes and X[X_PASS_NODES] > 0 and X[X_CROSS_BOUNDS] != 0) else 0
    if games and (X[X_CLOSE] == 1 or X[X_WALK] != 0) and lo < hi:
        lo, hi = _value_walk(A, leader, lead_p, win_p, win_seat, win_lead, actor, lo, hi)
        if X[X_ABORT] != 0:
            bounds[0] = lo
            bounds[1] = hi
            return np.nan
    while lo < hi:
        if stage == 3:
            b = guess
        elif stage == 2:
            b = FLOOR_PROBE  # returns the floor the static bounds give, in a node or two
        elif stage == 1:
            b = lo + 1.0  # is the value above its floor at all?
        else:
            b = g if g > lo else lo + 1.0
        if stage != 2 and b > hi:
            b = hi  # the value is at most hi: "value >= hi" is the test that can still settle it
        v = np.nan
        if games and stage != 2:
            v = _root_games(A, leader, lead_p, win_p, win_seat, win_lead, actor, b - 1.0, b)
        if np.isnan(v) and X[X_ABORT] == 0 and stage != 2 and X[X_UPPER_NODES] > 0 and passes:
            v = _game_test(A, leader, lead_p, win_p, win_seat, win_lead, caught, first, actor, b, True)
        if np.isnan(v) and X[X_ABORT] == 0 and stage != 2 and X[X_PASS_NODES] > 0 and passes:
            v = _game_test(A, leader, lead_p, win_p, win_seat, win_lead, caught, first, actor, b, False)
        if np.isnan(v) and X[X_ABORT] == 0:
            v = _search(A, np.int64(0),
                        leader, lead_p, win_p, win_seat, win_lead, caught, first, actor, np.int64(0),
                        b - 1.0, b)
        X[X_ITER] += 1
        if X[X_ABORT] != 0:  # given up inside this test: what the earlier tests proved stands
            bounds[0] = lo
            bounds[1] = hi
            return np.nan
        if v <= b - 1.0:
            hi = min(hi, v)
        elif v >= b:
            lo = max(lo, v)
        else:
            lo = v
            hi = v
        g = max(v, guess) if stage == 1 and v >= b else v
        if stage == 3:
            g = guess if v >= b else lo  # after the floor test, walk up from what that proved
        if stage > 0:
            stage -= 1
    bounds[0] = lo
    bounds[1] = lo
    return lo


@njit(cache=True)
def solve_kernel(T, Q, X, ttk, ttv, ttb, ttg, hands, dong, mv, ky, gp,
                 leader, lead_p, win_p, win_seat, win_lead, caught, first, actor, guess):
    """The exact value for seat X_SEAT of the node given as in `_search`: MTD(f) zero-window steps."""
    bounds = np.empty(2)
    bounds[0] = -INF
    bounds[1] = INF
    return mtd_kernel(T, Q, X, ttk, ttv, ttb, ttg, hands, dong, mv, ky, gp,
                      leader, lead_p, win_p, win_seat, win_lead, caught, first, actor, guess, bounds)



@njit(cache=True)
def close_kernel(T, Q, X, ttk, ttv, ttb, ttg, hands, dong, mv, ky, gp,
                 leader, lead_p, win_p, win_seat, win_lead, actor, game, hold, width):
    """The close, hold or get game (`game`: GAME_*, with `hold` its X_HOLD) from a node given as in
    `_search`, the proving side kept to `width` discards a turn (0: all): 1 if it wins, 0 if not shown."""
    for i in range(gp.shape[0]):
        gp[i, G_KILLER] = NO_KILLER
        gp[i, G_KILLER + 1] = NO_KILLER
    X[X_BUDGET] = X[X_LIMIT]
    X[X_ABORT] = 0
    X[X_GAME] = game
    X[X_HOLD] = hold
    X[X_WIDTH] = width
    A = _address_vector(T, Q, X, ttk, ttv, ttb, ttg, hands, dong, mv, ky, gp)
    return _close_search(A, np.int64(0), leader, lead_p, win_p, win_seat, win_lead, actor)
