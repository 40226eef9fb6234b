"""The strategy analyses as measures: `compare` (duplicate), `value` (what a feature is worth) and
`sessions` (deals in a row with 飛庄); `simulate` is the `payments` measure of measures.py.

`tjsim compare`, `tjsim value` and `tjsim simulate` (with or without `--session`) run through the
experiment driver like any experiment file: chunks, `--resume`, a manifest and one results-folder
format (`command_experiment` makes the one-cell experiment of a command line). The same measures
may be named in an experiment file, so they also run on a process pool or on Dask.

Each chunk holds sums that add up over chunks, as measures.py requires, plus the per-cluster
rows the intervals need (`value` clusters deals in fixed blocks; `sessions` keeps every
session's total for its quantiles). `summarize` then makes the summary tables the commands print.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..errors import TjsimError
from ..sim.analysis import compare_batch, compare_summary, compare_tables
from ..sim.duplicate import rotation_table
from ..sim.session import run_session, session_counts, session_summary
from ..sim.value import BONUS_KEYS, parse_feature, run_value, value_summary
from ..stats.tidy import chunk_size
from ..strategies.names import SEARCH_POLICIES
from .cells import cell_rules, is_strategy, known_strategies
from .measures import Measure, _check_method_fits, _check_strategies_known, _method, _options_known, register


SEARCH_CHUNK = 500  # deals per chunk when a seat searches (pimc, oracle): minutes per chunk, not hours


def chunk_deals(strategies, default: int) -> int:
    """Deals per chunk of a command's results folder: `default`, or SEARCH_CHUNK when a strategy searches,
    so that an interrupted run (`--resume`) loses minutes of search at most."""
    searching = any(str(n).strip().split(":")[0] in SEARCH_POLICIES for n in strategies)
    return min(default, SEARCH_CHUNK) if searching else default


def _shuffle(cell: dict) -> str:
    return cell.get("shuffle") or "perfect"


def _check_policies(options: dict, key: str = "policies") -> list[tuple[str, str]]:
    pol = options.get(key)
    if not isinstance(pol, list):
        return [(key, "is required: a list of strategy names")]
    out = []
    if len(pol) < 2:
        out.append((key, "needs at least two strategies to compare"))
    if len(set(pol)) != len(pol):
        out.append((key, "lists a strategy twice (give each once)"))
    out += [(key, f"strategy '{p}' is not implemented (available: {', '.join(known_strategies())})")
            for p in pol if not is_strategy(p)]
    return out


# ---------------------------------------------------------------------------
# compare: strategies in duplicate (`tjsim compare`)
# ---------------------------------------------------------------------------

def compare_cluster(deals: int) -> int:
    """Deals per row of `compare_chunks` (the convergence plot's step) for a run of `deals` deals."""
    return min(250, chunk_size(deals))


def compare_chunk(cell: dict, cell_seed: int, start: int, stop: int) -> dict[str, pd.DataFrame]:
    """Duplicate sums over deals start…stop−1: per-deal moments of every strategy, pair and rate."""
    opts = cell.get("options", {})
    data = compare_batch(cell_rules(cell), opts["policies"], cell_seed, stop - start, start, _method(cell),
                         _shuffle(cell))
    t = compare_tables(data, chunk=opts.get("cluster") or compare_cluster(cell["deals"]))
    # `deals` is the cell's own column in combined tables: the chunk's count is `chunk_deals`
    t["compare_chunks"] = t["compare_chunks"].rename(columns={"deals": "chunk_deals"})
    return t


def compare_finalize(table: str, df: pd.DataFrame) -> pd.DataFrame:
    """Chunk sums stay sums; the distribution is put in policy, measure, value order."""
    if table == "compare_distribution":
        order = {m: i for i, m in enumerate(("payment", "dong"))}
        pol = {p: i for i, p in enumerate(dict.fromkeys(df["policy"]))}
        df = df.assign(_p=df["policy"].map(pol), _m=df["measure"].map(order))
        df = df.sort_values(["cell", "_p", "_m", "value"], kind="stable").drop(columns=["_p", "_m"])
        return df.reset_index(drop=True)
    return df


def compare_summarize(tables: dict[str, pd.DataFrame], options: dict) -> dict[str, pd.DataFrame]:
    """Adds `compare_summary` (kind, a, b, n, mean, se, ci_low, ci_high per cell): what `tjsim compare` prints."""
    chunks = tables["compare_chunks"]
    parts = []
    for cell, g in chunks.groupby("cell", sort=False):
        players = int(g["players"].iloc[0])
        replays = rotation_table(len(options["policies"]), players).shape[0]
        cols = ["chunk", "deal_start", "kind", "a", "b", "n", "sum", "sumsq", "chunk_deals"]
        s = compare_summary(g[cols].rename(columns={"chunk_deals": "deals"}), options["policies"], replays)
        s.insert(0, "cell", cell)
        parts.append(s)
    return {**tables, "compare_summary": pd.concat(parts, ignore_index=True)}


register(Measure(
    name="compare",
    run_chunk=compare_chunk,
    finalize=compare_finalize,
    keys={"compare_chunks": ["chunk", "deal_start", "kind", "a", "b"],
          "compare_distribution": ["policy", "measure", "value"]},
    axes=("rules", "players", "method", "shuffle"),
    description="duplicate comparison of the strategies in options.policies (what tjsim compare shows)",
    check_options=lambda o: _options_known(o, {"policies": list, "cluster": int}) + _check_policies(o),
    check_cell=_check_method_fits,
    summarize=compare_summarize,
))


# ---------------------------------------------------------------------------
# value: what holding a feature is worth (`tjsim value`)
# ---------------------------------------------------------------------------

# `estimator` is value.py's `method` (conditional / counterfactual): `method` is the cell's dealing method
VALUE_KEYS = ["feature", "setting", "supreme_bonus", "quartet_bonus", "supreme_close_reward", "estimator",
              "component", "chunk"]


def value_cluster(deals: int) -> int:
    """Deals per cluster of the value intervals (the independent unit) for a run of `deals` deals."""
    return chunk_size(deals)


def value_chunk(cell: dict, cell_seed: int, start: int, stop: int) -> dict[str, pd.DataFrame]:
    """Per feature, setting, method, component and cluster: holders and payment sums with / without."""
    opts = cell.get("options", {})
    rules = cell_rules(cell)
    cluster = opts.get("cluster") or value_cluster(cell["deals"])
    parts = []
    for name in opts["features"]:
        run = run_value(rules, parse_feature(name), list(cell["strategies"]), cell_seed, cell["deals"],
                        opts.get("bonus") or [{}], _method(cell), _shuffle(cell), opts.get("streak", 1),
                        chunk=cluster, start=start, stop=stop)
        c = run.chunks.drop(columns=["deal_start", "deals"]).rename(columns={"method": "estimator"})
        for col in ("y1", "y0"):  # integer payments: their float sums are exact integers
            c[col] = c[col].round().astype(np.int64)
        c.insert(0, "feature", name)
        parts.append(c)
    return {"value_chunks": pd.concat(parts, ignore_index=True)[[*VALUE_KEYS, "n1", "y1", "n0", "y0"]]}


def value_summarize(tables: dict[str, pd.DataFrame], options: dict) -> dict[str, pd.DataFrame]:
    """Adds `value_summary`: per cell, feature, setting, method and component the value and its 95% CI."""
    chunks = tables["value_chunks"].copy()
    parts = []
    for cell, g in chunks.groupby("cell", sort=False):
        cluster = options.get("cluster") or value_cluster(int(g["deals"].iloc[0]))
        g = g.copy()
        g["deal_start"] = g["chunk"] * cluster
        g["cluster_deals"] = np.minimum(cluster, g["deals"] - g["deal_start"]).astype(np.int64)
        for feat, f in g.groupby("feature", sort=False):
            cols = ["setting", "estimator", "component", "chunk", "deal_start", "cluster_deals", "n1", "y1", "n0",
                    "y0", "supreme_bonus", "quartet_bonus", "supreme_close_reward"]
            f = f[cols].rename(columns={"cluster_deals": "deals", "estimator": "method"}).astype({"y1": np.float64, "y0": np.float64})
            s = value_summary(f, feat, str(g["rules"].iloc[0]))
            s.insert(0, "cell", cell)
            parts.append(s)
        chunks.loc[g.index, "deal_start"] = g["deal_start"]
        chunks.loc[g.index, "cluster_deals"] = g["cluster_deals"]
    chunks = chunks.astype({"deal_start": np.int64, "cluster_deals": np.int64})
    return {**tables, "value_chunks": chunks, "value_summary": pd.concat(parts, ignore_index=True)}


def _value_options(options: dict) -> list[tuple[str, str]]:
    probs = _options_known(options, {"features": list, "bonus": list, "streak": int, "cluster": int})
    feats = options.get("features")
    if not isinstance(feats, list) or not feats:
        probs.append(("features", "is required: a list of features, e.g. [\"supreme\", \"banker\"]"))
    else:
        probs += [("features", why) for why in map(_feature_problem, feats) if why]
    for point in options.get("bonus") or []:
        if not isinstance(point, dict) or any(k not in BONUS_KEYS.values() or not isinstance(v, int)
                                              for k, v in point.items()):
            probs.append(("bonus", f"each sweep point is a table of whole numbers for "
                                   f"{', '.join(BONUS_KEYS.values())}, got {point!r}"))
    return probs


def _feature_problem(name: Any) -> str | None:
    """Why `name` is not a feature `parse_feature` accepts, or None."""
    try:
        parse_feature(str(name))
    except TjsimError as e:
        return str(e)
    return None


register(Measure(
    name="value",
    run_chunk=value_chunk,
    finalize=lambda table, df: df,
    keys={"value_chunks": VALUE_KEYS},
    axes=("rules", "players", "method", "shuffle", "strategies"),
    description="what holding options.features is worth, conditional and counterfactual (what tjsim value shows)",
    check_options=_value_options,
    check_cell=_check_strategies_known,
    summarize=value_summarize,
))


# ---------------------------------------------------------------------------
# sessions: deals in a row with the banker succession of 飛庄 (`tjsim simulate --session G`)
# ---------------------------------------------------------------------------

def sessions_chunk(cell: dict, cell_seed: int, start: int, stop: int) -> dict[str, pd.DataFrame]:
    """The sessions whose deals are start…stop−1 (chunks hold whole sessions: a multiple of the length)."""
    opts = cell.get("options", {})
    g = int(opts["length"])
    if start % g or stop % g:
        raise TjsimError(f"sessions: chunk {start}…{stop} does not hold whole sessions of {g} deals "
                         f"(chunk_size and deals must be multiples of the length)")
    res = run_session(cell_rules(cell), list(cell["strategies"]), cell_seed, (stop - start) // g, g,
                      _method(cell), _shuffle(cell), opts.get("from", "box"), first=start // g)
    return session_counts(res, first=start // g)


def sessions_summarize(tables: dict[str, pd.DataFrame], options: dict) -> dict[str, pd.DataFrame]:
    """Adds `session_seats` and `session_streaks` per cell: what `tjsim simulate --session` prints."""
    out: dict[str, list[pd.DataFrame]] = {"session_seats": [], "session_streaks": []}
    for cell in tables["session_deals"]["cell"].unique():
        pick = {k: t[t["cell"] == cell] for k, t in tables.items()}
        s = session_summary(pick["session_totals"], pick["session_deals"].reset_index(drop=True),
                            pick["session_streak_counts"], int(options["length"]))
        for k, df in s.items():
            df.insert(0, "cell", cell)
            out[k].append(df)
    return {**tables, **{k: pd.concat(v, ignore_index=True) for k, v in out.items()}}


def _sessions_options(options: dict) -> list[tuple[str, str]]:
    probs = _options_known(options, {"length": int, "from": str})
    if not isinstance(options.get("length"), int) or options.get("length", 0) < 1:
        probs.append(("length", "is required: the deals per session, a whole number ≥ 1"))
    if options.get("from", "box") not in ("box", "played"):
        probs.append(("from", f"must be box or played, got {options.get('from')!r}"))
    return probs


def _sessions_cell(cell: dict, options: dict) -> list[str]:
    out = _check_strategies_known(cell, options)
    g = options.get("length")
    if isinstance(g, int) and g > 0 and cell["deals"] % g:
        out.append(f"deals ({cell['deals']}) must be a multiple of the session length {g}")
    return out


register(Measure(
    name="sessions",
    run_chunk=sessions_chunk,
    finalize=lambda table, df: df,
    keys={"session_totals": ["session", "seat", "policy"], "session_deals": ["seat", "policy"],
          "session_streak_counts": ["measure", "value"]},
    axes=("rules", "players", "method", "shuffle", "strategies"),
    description="sessions of options.length deals with 飛庄 (what tjsim simulate --session shows)",
    check_options=_sessions_options,
    check_cell=_sessions_cell,
    summarize=sessions_summarize,
))
