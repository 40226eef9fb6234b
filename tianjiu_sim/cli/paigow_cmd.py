"""`tjsim paigow`: the compare games of RULES.md §7 (摃莊 kong, 壓寶 yabao, pai gow tiles vegas)."""
from __future__ import annotations

import dataclasses
import tomllib

import click

from ..errors import TjsimError
from ..game.tiles import parse_hand, popcount
from ..output.tables import render_table, to_csv
from ..paigow import cache
from ..paigow.profiles import Profile, load_profile, SIDE_WAYS, WAY_NAMES, with_settings
from .options import emit, emit_json, format_options

WAY_CHOICES = SIDE_WAYS + WAY_NAMES


def _value(text: str):
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def resolve_profile(spec: str, sets: tuple[str, ...]) -> Profile:
    """`--profile NAME|FILE.toml` with `--set KEY=VALUE` overrides (exit 2 on anything unknown)."""
    p = load_profile(spec)
    over = {}
    for item in sets:
        if "=" not in item:
            raise TjsimError(f"--set expects KEY=VALUE (e.g. --set ties=banker), got '{item}'")
        k, v = item.split("=", 1)
        over[k.strip()] = _value(v.strip())
    return with_settings(p, **over) if over else p


def profile_options(f):
    """`--profile` and `--set`."""
    f = click.option("--set", "sets", multiple=True, metavar="KEY=VALUE",
                     help="Override one setting of the profile (repeatable), e.g. --set ties=banker.")(f)
    return click.option("--profile", "profile_spec", default="vegas", show_default=True,
                        metavar="kong|yabao|vegas|FILE.toml",
                        help="Profile (RULES.md §7): a name, or a TOML file `profile = \"vegas\"` + settings.")(f)


def way_options(f):
    """`--player-way` and `--banker-way`."""
    f = click.option("--banker-way", default="house", show_default=True, type=click.Choice(WAY_CHOICES),
                     help="How the banker splits: house (the profile's), best (reply to the player), "
                          "equilibrium, or a named way.")(f)
    return click.option("--player-way", default="house", show_default=True, type=click.Choice(WAY_CHOICES),
                        help="How the player splits (as --banker-way).")(f)


def _emit_rows(rows: list[dict], fmt: str, out: str | None, columns=None, title=None, extra=None) -> None:
    if fmt == "json":
        emit_json(extra | {"rows": rows} if extra else rows, out)
    elif fmt == "csv":
        emit(to_csv(rows, columns), out)
    else:
        emit(render_table(rows, columns, title), out)


@click.group()
def paigow() -> None:
    """The compare games of RULES.md §7: 摃莊 (kong), 壓寶 (yabao), pai gow tiles (vegas).

    \b
    Examples:
      tjsim paigow odds --profile kong
      tjsim paigow edge --profile vegas --player-way best --format json
      tjsim paigow split --profile vegas --hand "6-6 4-4 3-1 2-1"
      tjsim paigow table --profile yabao --format csv --out yabao.csv
    """


@paigow.command()
@profile_options
@click.option("--shown", default="", metavar="TILES",
              help="Tiles already shown this shuffle (rounds 2–4 of 摃莊): odds from the tiles left.")
@click.option("--classes", is_flag=True, help="Only the distribution of hand classes.")
@format_options
def odds(profile_spec: str, sets: tuple[str, ...], shown: str, classes: bool, fmt: str, out: str | None) -> None:
    """Exact odds of every two-tile hand (摃莊) against the banker's hand from the tiles left.

    \b
    Example:
      tjsim paigow odds --profile kong
      tjsim paigow odds --profile kong --shown "6-6 6-6 5-4 2-1 4-4 1-1 3-1 6-5"
    """
    p = resolve_profile(profile_spec, sets)
    mask = parse_hand(shown) if shown.strip() else 0
    rows = _kept_odds(p, mask)
    if classes:
        rows = cache.class_rows(rows)
        columns = ["class", "dealt", "win", "push", "lose"]
    else:
        columns = ["hand", "class", "dealt", "win", "push", "lose", "player_edge"]
    title = f"profile {p.name}: one player's hand against the banker's, exact" + (
        f" (given {popcount(mask)} tiles shown)" if mask else "")
    _emit_rows(rows, fmt, out, columns, title, {"profile": p.name, "exact": True})


@paigow.command()
@profile_options
@way_options
@click.option("--shown", default="", metavar="TILES",
              help="Tiles already shown this shuffle (a later round): the edge given the tiles left.")
@click.option("--mc", "shuffles", type=int, default=0, metavar="N",
              help="Also deal N shuffles (Monte Carlo) and show the estimates with 95% CIs.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the Monte Carlo shuffles.")
@format_options
def edge(profile_spec: str, sets: tuple[str, ...], player_way: str, banker_way: str, shown: str, shuffles: int,
         seed: int, fmt: str, out: str | None) -> None:
    """Win / push / lose per deal for one player against the banker, and the edge (exact).

    \b
    Example:
      tjsim paigow edge --profile vegas --format json
      tjsim paigow edge --profile vegas --player-way best
      tjsim paigow edge --profile yabao --player-way equilibrium --banker-way equilibrium
      tjsim paigow edge --profile yabao --player-way best --shown "6-6 6-6 1-1 1-1 4-4 4-4 3-1 3-1"
    """
    p = resolve_profile(profile_spec, sets)
    mask = parse_hand(shown) if shown.strip() else 0
    if mask and shuffles:
        raise TjsimError("--mc deals fresh shuffles: it cannot be combined with --shown")
    from ..paigow import analysis  # noqa: PLC0415  (numba: not loaded for odds and split)

    res = analysis.edge(p, player_way, banker_way, mask)
    if shuffles:
        res["monte_carlo"] = analysis.monte_carlo(p, player_way, banker_way, shuffles, seed)
    if fmt == "json":
        emit_json(res, out)
        return
    rows = [{"figure": k, "exact": res[k]} for k in ("win", "push", "lose", "player_edge", "banker_edge",
                                                       "banker_edge_vs_table")]
    if "until_decided" in res:
        rows += [{"figure": f"{k} (until decided)", "exact": v} for k, v in res["until_decided"].items()]
    if shuffles:
        est = res["monte_carlo"]["estimates"]
        for r in rows:
            e = est.get(r["figure"])
            if e:
                r.update(mc=e["mean"], ci_low=e["ci_low"], ci_high=e["ci_high"])
    title = (f"profile {p.name}, player way {player_way}, banker way {banker_way}: one player vs the banker, "
             f"per deal (exact)")
    if fmt == "csv":
        emit(to_csv(rows), out)
        return
    text = render_table(rows, None, title)
    if "equilibrium" in res:
        e = res["equilibrium"]
        text += (f"two-sided solution: value {e['value']:.6f} per deal, best-reply gap {e['gap']:.2e}, "
                 f"{e['mixed_hands']} hands mixed, {e['iterations']} double-oracle rounds\n")
        text += render_table(e["ways"], None, "each named way against the solution (its loss: how far it is from it)")
    if shuffles:
        mc = res["monte_carlo"]
        text += (f"Monte Carlo: {mc['shuffles']} shuffles × {mc['rounds_per_shuffle']} rounds × {mc['players']} "
                 f"players, seed {seed}; 95% CIs clustered by shuffle\n")
        text += render_table(mc["banker_net_distribution"], None,
                             "the banker against the whole table in one round (players beaten − players lost to; "
                             "Monte Carlo, round 1 of each shuffle, Wilson 95% CIs)")
    emit(text, out)


def _kept_split_rows(p: Profile, mask: int, banker_way: str) -> list[dict]:
    """`split` rows of one hand from the profile's split file (paigow/cache.py), made on the first call."""
    cache.check_split(p, banker_way)
    cache.check_hand(p, mask)
    path = cache.cache_path(p, "split", banker_way)
    rows = cache.read_json(path)
    if rows is None:
        from ..paigow import analysis  # noqa: PLC0415  (numba only when the split file must be made)

        click.echo(f"tjsim: computing the splits of every hand of profile {p.name} against the banker's "
                   f"{banker_way} way — once, a few seconds; later splits read them", err=True)
        rows = {str(k): v for k, v in analysis.all_split_rows(p, banker_way).items()}
        cache.write_json(path, rows)
    return rows[str(cache.hand_class_key(p, mask))]


def _kept_odds(p: Profile, shown: int) -> list[dict]:
    """`odds` rows (analysis.kong_odds), kept per profile and shown tiles."""
    cache.check_odds(p)
    path = cache.cache_path(p, "odds", shown)
    rows = cache.read_json(path)
    if rows is None:
        from ..paigow import analysis  # noqa: PLC0415  (numba only when the answer is not kept yet)

        rows = analysis.kong_odds(p, shown)
        cache.write_json(path, rows)
    return rows


@paigow.command()
@profile_options
@click.option("--hand", required=True, metavar="TILES", help='Four tiles, e.g. "6-6 4-4 3-1 2-1".')
@click.option("--banker-way", default="house", show_default=True, type=click.Choice(WAY_CHOICES),
              help="The banker's way the values are taken against.")
@format_options
def split(profile_spec: str, sets: tuple[str, ...], hand: str, banker_way: str, fmt: str, out: str | None) -> None:
    """The splits of one four-tile hand: their values against the banker's way and the two-sided solution.

    \b
    Example:
      tjsim paigow split --profile vegas --hand "6-6 4-4 3-1 2-1"
    """
    p = resolve_profile(profile_spec, sets)
    rows = _kept_split_rows(p, parse_hand(hand), banker_way)
    cols = ["front", "back", "front_class", "back_class", "win", "push", "lose", "value", "cost", "best", "house",
            "value_vs_equilibrium", "equilibrium_prob"]
    _emit_rows(rows, fmt, out, cols, f"profile {p.name}: splits of {hand} against the banker's {banker_way} way "
               "(value per unit staked, exact)", {"profile": p.name, "hand": hand, "banker_way": banker_way})


@paigow.command()
@profile_options
@click.option("--banker-way", default="house", show_default=True, type=click.Choice(WAY_CHOICES),
              help="The banker's way the splits are valued against.")
@format_options
def table(profile_spec: str, sets: tuple[str, ...], banker_way: str, fmt: str, out: str | None) -> None:
    """Every distinct four-tile hand's best split against the banker's way, and the cost of the others.

    \b
    Example:
      tjsim paigow table --profile yabao --format csv --out yabao_best_splits.csv
    """
    p = resolve_profile(profile_spec, sets)
    from ..paigow import analysis  # noqa: PLC0415  (numba: not loaded for odds and split)

    rows = analysis.best_split_table(p, banker_way)
    _emit_rows(rows, fmt, out, None, f"profile {p.name}: best splits against the banker's {banker_way} way",
               {"profile": p.name, "banker_way": banker_way})


@paigow.command()
@profile_options
def settings(profile_spec: str, sets: tuple[str, ...]) -> None:
    """Print every setting of a profile.

    \b
    Example:
      tjsim paigow settings --profile vegas
    """
    p = resolve_profile(profile_spec, sets)
    emit(render_table([{"setting": k, "value": str(v)} for k, v in dataclasses.asdict(p).items()]), None)


@paigow.command()
@click.option("--out-dir", default="results/paigow", show_default=True, type=click.Path(file_okay=False),
              help="Folder for the PNG and CSV files.")
def plots(out_dir: str) -> None:
    """Plots: player value by hand class (each profile) and the edge as each setting changes.

    \b
    Example:
      tjsim paigow plots --out-dir results/paigow
    """
    from ..paigow import plots as paigow_plots  # matplotlib only for this command
    for path in paigow_plots.make_all(out_dir):
        click.echo(path)
