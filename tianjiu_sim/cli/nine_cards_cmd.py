"""`tjsim nine-cards`: the four-colour card game 九支十仔 (RULES.md §9): deal odds, play, simulate, compare, advise."""
from __future__ import annotations

import json
from pathlib import Path

import click

from ..errors import TjsimError
from ..output.tables import render_table, to_csv
from .options import emit, emit_json, format_options

ODDS_COLUMNS = ["event", "unit", "players", "trials", "hits", "probability", "ci_low", "ci_high", "exact"]
SEAT_COLUMNS = ["seat", "policy", "deals", "mean_payment", "ci_low", "ci_high", "win_rate", "win_ci_low",
                "win_ci_high", "self_draw_rate", "stock_rate", "discard_rate", "paid_discard_rate",
                "kaizhao_rate", "banker_rate", "mean_tou_when_won"]


def nine_rules_options(f):
    """`--rules nine_cards|FILE.toml` and `--players N` (4–7)."""
    f = click.option("--players", type=int, default=4, show_default=True, metavar="N",
                     help="Number of players, 4 to 7.")(f)
    f = click.option("--rules", "rules_spec", default="nine_cards", show_default=True, metavar="nine_cards|FILE.toml",
                     help="Rule set: nine_cards, or a TOML file with preset = \"nine_cards\" and overrides.")(f)
    return f


def run_options(f):
    """--seed and --threads."""
    f = click.option("--threads", type=int, default=None, metavar="N",
                     help="Worker threads (results are identical for any number).")(f)
    f = click.option("--seed", type=int, default=1, show_default=True, help="Random seed.")(f)
    return f


def play_options(f):
    """--worlds (the lookahead strategy's), the rule set, --seed and --threads: every command that plays."""
    f = run_options(nine_rules_options(f))
    return click.option("--worlds", type=int, default=32, show_default=True, help="Lookahead worlds per decision.")(f)


def out_dir_option(contents: str):
    """--out-dir DIR: a results folder holding `contents`."""
    return click.option("--out-dir", "out_dir", type=click.Path(file_okay=False), default=None,
                        help=f"Also write a results folder: {contents}.")


def _rules(spec: str, players: int):
    from ..nine_cards.rules import load_rules  # noqa: PLC0415 — commands load their engine on use

    return load_rules(spec, players)


def _check_deals(deals: int) -> None:
    if deals < 2:
        raise TjsimError(f"--deals must be at least 2, got {deals}")


def _policies(policy: str | None, policies: str | None, players: int) -> list[str]:
    from ..nine_cards.runner import policy_ids  # noqa: PLC0415

    names = [p.strip() for p in (policies or policy or "heuristic").split(",") if p.strip()]
    policy_ids(names, players)
    return names * players if len(names) == 1 else names


def _sp(worlds: int):
    from ..nine_cards.strategies import strategy_params  # noqa: PLC0415

    if worlds < 2:
        raise TjsimError(f"--worlds must be at least 2, got {worlds}")
    return strategy_params(worlds=worlds)


def _results_folder(out_dir: str, manifest: dict, files: dict[str, str]) -> None:
    """Write files (name → text) and manifest.json atomically into out_dir."""
    from ..experiments.chunks import atomic_write_text, now_iso, versions  # noqa: PLC0415

    path = Path(out_dir)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise TjsimError(f"cannot create --out-dir {out_dir}: {e.strerror}") from None
    for name, text in files.items():
        atomic_write_text(path / name, text, encoding="utf-8-sig" if name.endswith(".csv") else "utf-8")
    manifest = dict(manifest, created=now_iso(), versions=versions(), files=sorted(files))
    atomic_write_text(path / "manifest.json", json.dumps(manifest, ensure_ascii=False, indent=2) + "\n")


@click.group("nine-cards")
def nine_cards() -> None:
    """九支十仔, the four-colour card game (RULES.md §9): 112 cards, 4–7 players, pairs and 頭.

    \b
    Examples:
      tjsim nine-cards deal-odds --players 4 --format csv
      tjsim nine-cards simulate --players 5 --policy heuristic --deals 100000
      tjsim nine-cards compare --policies random,greedy,heuristic --deals 50000
      tjsim nine-cards advise --hand "紅帥 紅帥 紅仕 紅仕 黃帥 黃帥 黃仕 黃仕 青將 白卒"
      tjsim nine-cards play --policies heuristic,greedy,random,greedy --seed 7
    """


@nine_cards.command("deal-odds")
@click.option("--deals", type=int, default=1_000_000, show_default=True, help="Deals dealt for the Monte Carlo column.")
@nine_rules_options
@run_options
@click.option("--plot", type=click.Path(dir_okay=False), default=None, help="Also write a PNG of Monte Carlo vs exact.")
@format_options
def deal_odds(deals: int, rules_spec: str, players: int, seed: int, threads: int | None, plot: str | None,
              fmt: str, out: str | None) -> None:
    """Probabilities of dealt hands: exact by enumeration, with Monte Carlo beside it.

    Hand events count the 9-card hands of the non-banker seats (trials = deals × (players − 1));
    `banker_wins_on_deal` counts deals (the banker's 10 cards are five pairs). `exact` is empty
    where no exact value is computed (any_waiting_on_deal).

    \b
    Examples:
      tjsim nine-cards deal-odds --players 4
      tjsim nine-cards deal-odds --players 7 --deals 5000000 --format csv --out odds7.csv
    """
    _check_deals(deals)
    rules = _rules(rules_spec, players)
    from ..nine_cards.odds import odds_rows  # noqa: PLC0415

    rows = odds_rows(rules, deals, seed, threads)
    if plot:
        from ..output.plots import plot_odds  # noqa: PLC0415

        plot_odds([dict(r, method="uniform", shuffle="perfect") for r in rows],
                  {r["event"]: r["exact"] for r in rows if r["exact"] is not None}, plot,
                  f"nine-cards deal odds, {players} players, {deals:,} deals (Monte Carlo, 95% CI)")
    if fmt == "csv":
        emit(to_csv(rows, ODDS_COLUMNS), out)
    elif fmt == "json":
        emit_json({"players": players, "deals": deals, "seed": seed, "rules": rules.name, "events": rows}, out)
    else:
        emit(render_table(rows, ODDS_COLUMNS + ["meaning"],
                          title=f"九支十仔 deal odds: {players} players, {deals:,} deals, seed {seed}"), out)


@nine_cards.command("play")
@click.option("--policy", default=None, metavar="NAME", help="Strategy for every seat (random, greedy, heuristic, lookahead).")
@click.option("--policies", default=None, metavar="A,B,…", help="One strategy per seat.")
@click.option("--deal", "deal_index", type=int, default=0, show_default=True, help="Index of the first deal.")
@click.option("--deals", type=int, default=1, show_default=True, help="Number of deals (one JSON object each).")
@click.option("--banker", type=int, default=0, show_default=True, help="The banker's seat.")
@play_options
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="Write the traces (JSON lines) to this file.")
def play(policy, policies, deal_index: int, deals: int, banker: int, worlds: int, rules_spec: str, players: int,
         seed: int, threads: int | None, out: str | None) -> None:
    """Play deals and print their traces, one JSON object per deal (docs/nine-cards.md).

    \b
    Examples:
      tjsim nine-cards play --seed 7
      tjsim nine-cards play --policies heuristic,greedy,random,greedy --deals 10 --out traces.jsonl
    """
    if deals < 1:
        raise TjsimError(f"--deals must be at least 1, got {deals}")
    rules = _rules(rules_spec, players)
    names = _policies(policy, policies, players)
    import numpy as np  # noqa: PLC0415

    from ..nine_cards.runner import policy_ids, run_rows  # noqa: PLC0415
    from ..nine_cards.trace import to_trace  # noqa: PLC0415

    res = run_rows(rules, policy_ids(names, players)[None, :], seed, np.arange(deal_index, deal_index + deals),
                   banker=banker, threads=threads, record=True, sp=_sp(worlds))
    lines = [json.dumps(to_trace(rules, seed, deal_index + i, res.hands[i], res.rec[i], res.rec_n[i], res.res[i],
                                 res.kaizhao[i], res.payments[i], names), ensure_ascii=False)
             for i in range(deals)]
    emit("\n".join(lines) + "\n", out)


@nine_cards.command("simulate")
@click.option("--policy", default=None, metavar="NAME", help="Strategy for every seat (default heuristic).")
@click.option("--policies", default=None, metavar="A,B,…", help="One strategy per seat.")
@click.option("--deals", type=int, default=200_000, show_default=True, help="Deals to play.")
@click.option("--session", type=int, default=1, show_default=True,
              help="Deals per session: the winner becomes the next banker (1: every deal has banker --banker).")
@click.option("--banker", type=int, default=0, show_default=True, help="Banker of each session's first deal.")
@play_options
@out_dir_option("CSVs, summary.json, plots, report.md, manifest.json")
@format_options
def simulate(policy, policies, deals: int, session: int, banker: int, worlds: int, rules_spec: str, players: int,
             seed: int, threads: int | None, out_dir: str | None, fmt: str, out: str | None) -> None:
    """Play many deals; per seat: 頭 per deal (95% CI), win rate and win types, 放槍 paid, 開招 rate;
    per table: draw rate, and the 頭 and colour-count distributions of the wins.

    With --session L the deals are played in sessions of L (the winner becomes the next
    banker, a drawn deal keeps the banker); intervals are then clustered by session.

    \b
    Examples:
      tjsim nine-cards simulate --players 4 --policy heuristic --deals 200000
      tjsim nine-cards simulate --players 6 --policies heuristic,greedy,random,greedy,random,greedy --session 20
      tjsim nine-cards simulate --format csv --out seats.csv --out-dir results/nine_cards/sim4
    """
    _check_deals(deals)
    rules = _rules(rules_spec, players)
    names = _policies(policy, policies, players)
    if session < 1 or deals % session:
        raise TjsimError(f"--session must divide --deals ({deals}) into whole sessions, got {session}")
    if deals // session < 2:
        raise TjsimError("need at least two sessions for an interval (raise --deals or lower --session)")
    from ..nine_cards.runner import run_deals  # noqa: PLC0415
    from ..nine_cards.summary import seat_rows, table_summary  # noqa: PLC0415

    res = run_deals(rules, names, seed, deals, session=session, banker=banker, threads=threads, sp=_sp(worlds))
    rows = seat_rows(res, names, session)
    table = table_summary(res, session)
    result = {"players": players, "rules": rules.name, "seed": seed, "policies": names, "seats": rows, **table}
    if out_dir:
        _write_simulation(out_dir, result, rules)
    if fmt == "csv":
        emit(to_csv(rows, SEAT_COLUMNS), out)
    elif fmt == "json":
        emit_json(result, out)
    else:
        emit(_simulation_text(result), out)


def _simulation_text(r: dict) -> str:
    d = r["draw_rate"]
    k = r["kaizhao_rate"]
    head = (f"九支十仔: {r['players']} players, {r['deals']:,} deals"
            + (f" in sessions of {r['session']}" if r["session"] > 1 else "") + f", seed {r['seed']}\n"
            f"payments in 頭 per deal (95% CI{', clustered by session' if r['session'] > 1 else ''})")
    seats = render_table([{c: row[c] for c in ("seat", "policy", "mean_payment", "ci_low", "ci_high", "win_rate",
                                               "self_draw_rate", "stock_rate", "discard_rate",
                                               "paid_discard_rate", "kaizhao_rate", "mean_tou_when_won")}
                          for row in r["seats"]], title=head)
    wt = r["win_types"]
    lines = [f"draw rate (流局) {d['rate']:.4f} [{d['ci_low']:.4f}, {d['ci_high']:.4f}]; "
             f"deals with a 開招 {k['rate']:.4f} [{k['ci_low']:.4f}, {k['ci_high']:.4f}]; "
             f"mean cards turned {r['mean_turns']:.1f}",
             "wins by type: " + ", ".join(f"{t} {v:.3f}" for t, v in wt.items() if v is not None),
             "頭 of a win: " + "  ".join(f"{x['tou']}:{x['share']:.3f}" for x in r["tou_distribution"]),
             "colours of the winning pairs: " + "  ".join(f"{x['colours']}:{x['share']:.3f}"
                                                     for x in r["colour_distribution"])]
    return seats + "\n".join(lines) + "\n"


def _write_simulation(out_dir: str, result: dict, rules) -> None:
    from ..nine_cards.plots import plot_distribution  # noqa: PLC0415

    files = {"seats.csv": to_csv(result["seats"], SEAT_COLUMNS),
             "tou_distribution.csv": to_csv(result["tou_distribution"]),
             "colour_distribution.csv": to_csv(result["colour_distribution"]),
             "summary.json": json.dumps(result, ensure_ascii=False, indent=2) + "\n",
             "report.md": "# 九支十仔 simulation\n\n```\n" + _simulation_text(result) + "```\n\n"
                          "![tou](tou_distribution.png)\n![colours](colour_distribution.png)\n"}
    _results_folder(out_dir, {"command": "nine-cards simulate", "rules": rules.describe(),
                              "policies": result["policies"], "deals": result["deals"], "seed": result["seed"]}, files)
    t = result["tou_distribution"]
    plot_distribution([x["tou"] for x in t], [x["share"] for x in t], str(Path(out_dir) / "tou_distribution.png"),
                      f"tou of a win, {result['players']} players", "tou")
    c = result["colour_distribution"]
    plot_distribution([x["colours"] for x in c], [x["share"] for x in c],
                      str(Path(out_dir) / "colour_distribution.png"),
                      f"colours of the five pairs of a win, {result['players']} players", "colours")


@nine_cards.command("compare")
@click.option("--policies", "policies_text", required=True, metavar="A,B[,C…]",
              help="Strategies to compare (random, greedy, heuristic, lookahead), each once.")
@click.option("--deals", type=int, default=50_000, show_default=True, help="Deals (each replayed once per rotation).")
@play_options
@out_dir_option("CSVs, summary.json, a plot, report.md, manifest.json")
@format_options
def compare(policies_text: str, deals: int, worlds: int, rules_spec: str, players: int, seed: int,
            threads: int | None, out_dir: str | None, fmt: str, out: str | None) -> None:
    """Compare strategies in duplicate: every deal (cards and stock order) is replayed with the
    strategies rotated through the seats; differences are paired per deal (頭 per deal per seat).

    \b
    Examples:
      tjsim nine-cards compare --policies random,greedy,heuristic --deals 100000
      tjsim nine-cards compare --policies heuristic,lookahead --deals 5000 --worlds 32 --format json
    """
    _check_deals(deals)
    rules = _rules(rules_spec, players)
    names = [p.strip() for p in policies_text.split(",") if p.strip()]
    if len(names) < 2 or len(set(names)) != len(names):
        raise TjsimError(f"--policies needs at least two different strategies, each once; got '{policies_text}'")
    from ..nine_cards.compare import run_duplicate, summary  # noqa: PLC0415
    from ..nine_cards.runner import policy_ids  # noqa: PLC0415

    policy_ids(names, len(names))
    result = summary(run_duplicate(rules, names, seed, deals, threads=threads, sp=_sp(worlds)))
    result.update({"players": players, "rules": rules.name, "seed": seed, "worlds": worlds})
    if out_dir:
        from ..nine_cards.plots import plot_strategies  # noqa: PLC0415

        text = _compare_text(result)
        _results_folder(out_dir, {"command": "nine-cards compare", "rules": rules.describe(), "policies": names,
                                  "deals": deals, "seed": seed, "worlds": worlds},
                        {"strategies.csv": to_csv(result["strategies"]),
                         "differences.csv": to_csv(result["differences"]),
                         "summary.json": json.dumps(result, ensure_ascii=False, indent=2) + "\n",
                         "report.md": "# 九支十仔 duplicate comparison\n\n```\n" + text + "```\n\n"
                                      "![strategies](strategies.png)\n"})
        plot_strategies(result["strategies"], str(Path(out_dir) / "strategies.png"),
                        f"duplicate, {players} players, {deals:,} deals")
    if fmt == "json":
        emit_json(result, out)
    elif fmt == "csv":
        emit(to_csv([dict(kind="strategy", a=s["policy"], b="", **{k: s[k] for k in ("mean_payment", "se", "ci_low", "ci_high")})
                     for s in result["strategies"]]
                    + [dict(kind="difference", a=d["a"], b=d["b"], mean_payment=d["mean"],
                            **{k: d[k] for k in ("se", "ci_low", "ci_high")}) for d in result["differences"]],
                    ["kind", "a", "b", "mean_payment", "se", "ci_low", "ci_high"]), out)
    else:
        emit(_compare_text(result), out)


def _compare_text(r: dict) -> str:
    s = render_table([{k: x[k] for k in ("policy", "mean_payment", "ci_low", "ci_high", "win_rate")}
                      for x in r["strategies"]],
                     title=f"九支十仔 duplicate: {r['players']} players, {r['deals']:,} deals × {r['replays']} "
                           f"rotations, seed {r['seed']} (頭 per deal per seat, 95% CI)")
    d = render_table([{k: x[k] for k in ("a", "b", "mean", "ci_low", "ci_high", "significant")}
                      for x in r["differences"]], title="paired differences a − b")
    vr = r.get("variance_ratio")
    return s + "\n" + d + (f"variance ratio (independent deals / duplicate): {vr:.2f}\n" if vr else "")


@nine_cards.command("advise")
@click.option("--hand", required=True, metavar="CARDS", help="Your concealed cards, e.g. \"紅帥 紅帥 黃兵 …\" or R1,R1,Y7.")
@click.option("--pairs", default="", metavar="CARDS", help="Your laid (face-up) pairs, one card per pair.")
@click.option("--seen", default="", metavar="CARDS", help="Other cards face up: the discards, others' pairs (both cards).")
@click.option("--seat", type=int, default=1, show_default=True, help="Your seat (the banker is seat 0).")
@click.option("--worlds", type=int, default=2000, show_default=True, help="Simulated deals per discard.")
@nine_rules_options
@click.option("--seed", type=int, default=1, show_default=True, help="Random seed.")
@format_options
def advise(hand: str, pairs: str, seen: str, seat: int, worlds: int, rules_spec: str, players: int, seed: int,
           fmt: str, out: str | None) -> None:
    """For a seat about to discard (10 cards: concealed + 2 × laid pairs): each legal discard's
    P(win) and expected 頭, from simulations that deal what the seat cannot see at random.

    \b
    Examples:
      tjsim nine-cards advise --hand "紅帥 紅帥 紅仕 紅仕 黃帥 黃帥 黃仕 黃仕 青將 白卒"
      tjsim nine-cards advise --hand R1,R1,R2,Y1,Y1,G3 --pairs R4,W2 --seen G1,G5,W7 --players 5
    """
    rules = _rules(rules_spec, players)
    from ..nine_cards.advise import advise as run_advise  # noqa: PLC0415
    from ..nine_cards.cards import parse_cards  # noqa: PLC0415

    result = run_advise(rules, parse_cards(hand), parse_cards(pairs), parse_cards(seen), seat, worlds, seed)
    if fmt == "json":
        emit_json(result, out)
        return
    rows = [{k: a[k] for k in ("card", "ascii", "p_win", "p_win_low", "p_win_high", "mean", "ci_low", "ci_high")}
            | {"best": "*" if i == result["best"] else "", "heuristic": "h" if a["heuristic"] else ""}
            for i, a in enumerate(result["actions"])]
    if fmt == "csv":
        emit(to_csv(rows), out)
    else:
        emit(render_table(rows, title=f"seat {seat} of {players}, stock {result['stock']}, {worlds} worlds per "
                                      f"discard (P(win) Wilson 95%, 頭 normal 95%)") + result["note"] + "\n", out)
