"""`tjsim play`: play one deal with the chosen strategies and print it trick by trick."""
from __future__ import annotations

import click

from ..errors import TjsimError
from ..game.tiles import KINDS, TILE_KIND, parse_deal, parse_hand
from .options import emit, emit_json, format_options, players_option, resolve_rules, rules_option
from ..output.tables import render_table, to_csv
from ..strategies.names import sees_all, sees_all_note

MAX_SEED = 2**64 - 1


def policy_options(f):
    """`--policy NAME` (every seat) or `--policies A,B,C,D` (one per seat)."""
    f = click.option("--policies", default=None, metavar="A,B,C,D",
                     help="One strategy per seat, in seat order: random, greedy, heuristic, pimc[:W] "
                          "(searches W worlds drawn from what the seat sees, default 16), oracle "
                          "(sees every hand: an upper bound, not a fair player).")(f)
    f = click.option("--policy", default=None, metavar="NAME",
                     help="One strategy for every seat (as --policies). Default: heuristic.")(f)
    return f


def dealing_options(f):
    """`--method` and `--shuffle` (RULES.md §6)."""
    f = click.option("--shuffle", default="perfect", show_default=True, metavar="perfect|riffle:K|wash:K|none",
                     help="Shuffle model before dealing.")(f)
    f = click.option("--method", default="rounds", show_default=True, metavar="NAME",
                     help="Dealing method: rounds, or a 牌頭 wall method (left, right, one-by-one, alternate, "
                          "skin, heart, ears, dragon-phoenix, wings, three-lions; 4 players × 8 only).")(f)
    return f


def table_options(f):
    """`--banker`, `--streak`, `--seed`."""
    f = click.option("--streak", default=1, show_default=True, type=int,
                     help="Deals in a row the banker has held the bank, this one included.")(f)
    f = click.option("--banker", default=0, show_default=True, type=int, help="Banker's seat.")(f)
    f = click.option("--seed", default=0, show_default=True, type=int, help="Run seed (same seed, same result).")(f)
    return f


def policy_names(policy: str | None, policies: str | None) -> list[str]:
    """The strategy names from --policy / --policies (one name means every seat)."""
    if policy and policies:
        raise TjsimError("give either --policy (all seats) or --policies (one per seat), not both")
    text = policies or policy or "heuristic"
    names = [p.strip() for p in text.split(",")]
    if any(not n for n in names):
        raise TjsimError(f"--policies must be names separated by commas, e.g. heuristic,greedy,greedy,greedy; got '{text}'")
    return names


def check_table(rules, seed: int, banker: int, streak: int) -> None:
    """Range checks shared by play and simulate."""
    if not 0 <= seed <= MAX_SEED:
        raise TjsimError(f"--seed must be 0 to {MAX_SEED}, got {seed}")
    if not 0 <= banker < rules.players:
        raise TjsimError(f"--banker must be a seat 0 to {rules.players - 1}, got {banker}")
    if streak < 1:
        raise TjsimError(f"--streak must be at least 1, got {streak}")


def table_setup(rules_spec: str, players: int | None, policy: str | None, policies: str | None,
                seed: int, banker: int, streak: int):
    """(rules, one strategy name per seat) from the options play and simulate share, all checked."""
    from ..sim.runner import policy_ids

    rules = resolve_rules(rules_spec, players)
    names = policy_names(policy, policies)
    policy_ids(names, rules.players)
    if len(names) == 1:
        names = names * rules.players
    check_table(rules, seed, banker, streak)
    return rules, names


def check_dealing(rules, method: str, shuffle: str) -> None:
    """Validate --method / --shuffle by building the dealing plan once."""
    from ..sim.runner import deal_plan

    if method == "all":
        raise TjsimError("--method all is for deal-odds; play and simulate take one method")
    deal_plan(rules, method, shuffle)


def tiles_label(tiles: list[str]) -> str:
    """Tiles in pips with Chinese and English names: '6-6 6-6 (天天, teen teen)'."""
    kinds = [KINDS[TILE_KIND[_first_bit(t)]] for t in tiles]
    return f"{' '.join(tiles)} ({''.join(k.chinese for k in kinds)}, {' '.join(k.english for k in kinds)})"


def _first_bit(pips: str) -> int:
    return parse_hand(pips).bit_length() - 1


def render_trace(tr: dict, names: list[str]) -> str:
    """A deal as a player would follow it: each trick, leads, beats, discards, winner, running 戙."""
    n = tr["players"]
    lines = [f"tjsim play — rules {tr['rules']}, {n} players, seed {tr['seed']}, deal {tr['deal']}, "
             f"dealing {tr['method'] or 'given'}/{tr['shuffle'] or '-'}, banker seat {tr['banker']} "
             f"(streak {tr['streak']})", "", "Hands as dealt:"]
    for s, hand in enumerate(tr["hands"]):
        role = " banker 莊" if s == tr["banker"] else ""
        fold = "  — folds" if s in tr["folded"] else ""
        lines.append(f"  seat {s} [{names[s]}{role}]: {tiles_label(hand)}{fold}")
    if sees_all_note(names):
        lines.append("  " + sees_all_note(names))
    lines.append("")
    if not tr["tricks"]:
        lines.append("Void deal: fewer than two players remain after folding; nobody pays.")
        return "\n".join(lines) + "\n"
    dong = [0] * n
    for t, trick in enumerate(tr["tricks"], 1):
        lines.append(f"Trick {t} — seat {trick['leader']} leads")
        for p in trick["plays"]:
            if p["action"] == "discard":
                what = f"discards {len(p['tiles'])} face down ({' '.join(p['tiles'])})"
            else:
                what = f"{'leads' if p['action'] == 'lead' else 'beats with'} {tiles_label(p['tiles'])}"
            lines.append(f"    seat {p['seat']}: {what}")
        dong[trick["winner"]] += trick["dong"]
        lines.append(f"  → seat {trick['winner']} wins {trick['dong']} 戙; running 戙 {dong}")
    lines.append("")
    lines.append(f"Closer 結: seat {tr['closer']}")
    bonus = [0] * n
    for b in tr["bonuses"]:
        lines.append(f"Bonus {_BONUS_NAMES[b['type']]}: seat {b['seat']} receives {b['amount']}")
        bonus[b["seat"]] += b["amount"]
    rows = []
    for s in range(n):
        role = ", ".join(r for r, on in (("closer 結", s == tr["closer"]), ("banker 莊", s == tr["banker"]),
                                           ("folded", s in tr["folded"])) if on)
        rows.append({"seat": s, "policy": names[s], "role": role, "dong": tr["dong"][s],
                     "payment": tr["payments"][s]})
    lines.append("")
    lines.append(render_table(rows, ["seat", "policy", "role", "dong", "payment"],
                              title="Settlement (payment > 0 receives; bonuses included)").rstrip("\n"))
    return "\n".join(lines) + "\n"


_BONUS_NAMES = {"supreme": "賀尊 (supreme)", "supreme_close": "包尊 (supreme close)", "quartet": "四大賀 (quartet)"}


def play_rows(tr: dict) -> list[dict]:
    """One row per play, for --format csv."""
    return [{"trick": t, "seat": p["seat"], "action": p["action"], "tiles": " ".join(p["tiles"]),
             "winner": trick["winner"]}
            for t, trick in enumerate(tr["tricks"]) for p in trick["plays"]]


@click.command()
@rules_option
@players_option
@policy_options
@table_options
@click.option("--index", "deal_index", default=0, show_default=True, type=int,
              help="Which deal of the seed's sequence to play (deal index).")
@click.option("--deal", "deal_text", default=None, metavar='"6-6 … | 1-1 … | …"',
              help="Play these hands instead of dealing: tiles by pips, hands separated by |, in seat order.")
@dealing_options
@click.option("--interactive", is_flag=True, help="You play one seat (--seat) against the strategies, in this terminal.")
@click.option("--seat", "person", default=0, show_default=True, type=int, help="Your seat with --interactive.")
@click.option("--trace", "trace_path", default=None, type=click.Path(dir_okay=False),
              help="With --interactive: save the game trace (JSON) to this file at the end.")
@format_options
def play(rules_spec, players, policy, policies, seed, banker, streak, deal_index, deal_text, method, shuffle,
         interactive, person, trace_path, fmt, out):
    """Play one deal and print it trick by trick, with 戙, the closer, bonuses and payments.

    \b
    Examples:
      tjsim play --rules hk --policies heuristic,greedy,greedy,random --seed 7
      tjsim play --rules folk --players 3 --policy heuristic --seed 1 --format json
      tjsim play --interactive --seat 2 --policies heuristic,pimc,heuristic,pimc --trace my_deal.json
      tjsim play --deal "6-6 6-6 6-3 5-4 1-1 1-1 6-2 5-3 | 4-4 4-4 5-2 4-3 3-1 3-1 3-2 4-1 | 5-5 5-5 3-3 3-3 2-2 2-2 6-5 6-5 | 6-4 6-4 6-1 6-1 5-1 5-1 4-2 2-1"
    """
    from ..sim.runner import simulate_traces

    rules, names = table_setup(rules_spec, players, policy, policies, seed, banker, streak)
    if deal_index < 0:
        raise TjsimError(f"--index must be 0 or more, got {deal_index}")
    if interactive:
        if deal_text is not None or method != "rounds" or shuffle != "perfect":
            raise TjsimError("--interactive deals a perfect shuffle in rounds: leave out --deal, --method, --shuffle")
        from .interactive_cmd import run_interactive
        run_interactive(rules, names, seed, deal_index, banker, streak, person, trace_path)
        return
    if trace_path is not None:
        raise TjsimError("--trace goes with --interactive (for traces of many deals: tjsim simulate --trace)")
    hands = None
    if deal_text is not None:
        hands = parse_deal(deal_text, rules.players, rules.tiles_per_player)
    else:
        check_dealing(rules, method, shuffle)
    tr = simulate_traces(rules, names, seed, 1, hands=hands, banker=banker, streak=streak, start=deal_index,
                         method=method, shuffle=shuffle)[0]
    tr["policies"] = names
    tr["sees_all_hands"] = sees_all(names)
    if fmt == "json":
        emit_json(tr, out)
    elif fmt == "csv":
        emit(to_csv(play_rows(tr), ["trick", "seat", "action", "tiles", "winner"]), out)
    else:
        emit(render_trace(tr, names), out)
