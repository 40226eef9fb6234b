"""Intervals with a known truth: coverage of the 95% CIs that compare, value, bonus_value and stats compute.

Synthetic per-deal data are drawn from known distributions and pushed through the very
functions the commands call (compare_data → compare_tables → compare_summary; chunk_sums →
value_summary; holding_sums → bonus_finalize; stats directly). Each replication is one chunk
of deals; the share of replications whose 95% interval holds the truth must be within a
binomial tolerance of 95%. The data have a strong per-deal effect shared by every seat and
every replay of the deal, so an interval that counted seats or plays as independent would
cover far less often (about 70–80%) and fail. No engine kernel is compiled here.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from tianjiu_sim import stats
from tianjiu_sim.experiments.measures import HOLDINGS, bonus_finalize, holding_sums
from tianjiu_sim.stats.tidy import chunk_ids, chunk_sums, summarise_moments
from tianjiu_sim.sim.analysis import compare_data, compare_summary, compare_tables
from tianjiu_sim.sim.duplicate import estimate, rotation_table
from tianjiu_sim.sim.value import value_summary

REPS = 400
# 95% ± 4 binomial standard deviations of REPS replications (a false alarm about 1 in 15,000),
# plus 1% for the normal approximation of a few hundred deals
TOL = 4 * math.sqrt(0.95 * 0.05 / REPS) + 0.01


def assert_covers(hits: np.ndarray, what: str) -> None:
    """The share of replications whose interval held the truth is 95% within TOL."""
    rate = float(np.mean(hits))
    assert abs(rate - 0.95) <= TOL, f"{what}: 95% CI covered the truth in {rate:.1%} of {len(hits)} replications"


def covered(lo, hi, truth) -> np.ndarray:
    """Whether each [lo, hi] holds the truth."""
    return (np.asarray(lo) <= truth) & (truth <= np.asarray(hi))


# ---------------------------------------------------------------------------
# stats: one behaviour for n = 0 and n = 1
# ---------------------------------------------------------------------------

def test_one_value_gives_an_estimate_without_an_interval():
    assert stats.mean_ci(3.0, 9.0, 1)[0] == 3.0
    assert all(math.isnan(v) for v in stats.mean_ci(3.0, 9.0, 1)[1:])
    assert stats.mean_ci_of(np.array([3.0]))[0] == 3.0
    assert all(math.isnan(v) for v in stats.mean_ci_of(np.array([3.0]))[1:])
    assert all(math.isnan(v) for v in stats.mean_ci(0.0, 0.0, 0))
    assert all(math.isnan(v) for v in stats.mean_ci_of(np.array([])))
    assert all(math.isnan(v) for v in stats.wilson(0, 0))
    # one cluster: the ratio, but no interval
    r = stats.ratio_ci(6.0, 3.0, 36.0, 18.0, 9.0, 1)
    assert r[0] == 2.0 and all(math.isnan(v) for v in r[1:])
    d = stats.ratio_difference_ci((6.0, 3.0, 1.0, 1.0), np.ones((4, 4)), 1)
    assert d[0] == 1.0 and all(math.isnan(v) for v in d[1:])
    assert all(math.isnan(v) for v in stats.ratio_ci(0.0, 0.0, 0.0, 0.0, 0.0, 5))
    # every caller agrees: the duplicate estimate, the tidy summaries
    e = estimate(np.array([2.5]))
    assert e.mean == 2.5 and math.isnan(e.se) and math.isnan(e.ci_low) and math.isnan(e.ci_high)
    s = summarise_moments(pd.DataFrame({"g": ["a"], "n": [1], "sum": [4.0], "sumsq": [16.0]}), ["g"])
    assert s["mean"].iloc[0] == 4.0 and s[["se", "ci_low", "ci_high"]].isna().all(axis=None)


def test_two_values_give_the_textbook_interval():
    mean, se, lo, hi = stats.mean_ci(4.0, 10.0, 2)  # values 1 and 3
    assert mean == 2.0 and se == pytest.approx(1.0)
    assert (lo, hi) == pytest.approx((2 - stats.Z95, 2 + stats.Z95))
    assert stats.mean_ci_of(np.array([1.0, 3.0])) == pytest.approx((mean, se, lo, hi))


def test_ratio_ci_equals_mean_ci_for_clusters_of_one():
    """With one unit per cluster the cluster-robust ratio is the plain mean (up to C/(C−1) vs n/(n−1))."""
    x = np.random.default_rng(0).normal(1.0, 2.0, 500)
    r = stats.ratio_ci(x.sum(), len(x), (x * x).sum(), x.sum(), len(x), len(x))
    m = stats.mean_ci_of(x)
    assert r[0] == pytest.approx(m[0]) and r[1] == pytest.approx(m[1], rel=1e-9)


# ---------------------------------------------------------------------------
# stats: coverage of wilson, mean_ci, ratio_ci
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("n,p", [(20, 0.5), (100, 0.1), (400, 0.03), (1000, 0.3)])
def test_wilson_exact_coverage(n, p):
    """Exact coverage: Σ_k P(Binomial(n, p) = k) · [p ∈ wilson(k, n)]."""
    k = np.arange(n + 1)
    logpmf = (np.array([math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) for i in k])
              + k * math.log(p) + (n - k) * math.log1p(-p))
    inside = np.array([lo <= p <= hi for lo, hi in (stats.wilson(int(i), n) for i in k)])
    cover = float(np.exp(logpmf)[inside].sum())
    assert 0.92 <= cover <= 0.98, cover  # Wilson's coverage oscillates around 95% (Brown, Cai, DasGupta 2001)


def test_wilson_coverage_by_simulation():
    rng = np.random.default_rng(1)
    hits = rng.binomial(300, 0.2, REPS)
    ci = [stats.wilson(int(h), 300) for h in hits]
    assert_covers(covered([c[0] for c in ci], [c[1] for c in ci], 0.2), "wilson")


def test_mean_ci_coverage():
    rng = np.random.default_rng(2)
    x = rng.exponential(2.0, (REPS, 300))  # skewed, mean 2
    res = [stats.mean_ci(float(r.sum()), float((r * r).sum()), len(r)) for r in x]
    assert_covers(covered([r[2] for r in res], [r[3] for r in res], 2.0), "mean_ci")
    res = [stats.mean_ci_of(r) for r in x]
    assert_covers(covered([r[2] for r in res], [r[3] for r in res], 2.0), "mean_ci_of")


def test_ratio_ci_coverage_with_clusters():
    """Clusters of 0–4 units sharing a cluster effect; truth = E[y]/E[n] = 1.5."""
    rng = np.random.default_rng(3)
    hits = []
    for _ in range(REPS):
        n_c = rng.binomial(4, 0.4, 250)
        u = rng.normal(0, 3, 250)  # shared by the units of a cluster
        y_c = 1.5 * n_c + n_c * u + rng.normal(0, 1, 250) * np.sqrt(n_c)
        r = stats.ratio_ci(y_c.sum(), n_c.sum(), (y_c * y_c).sum(), (y_c * n_c).sum(), (n_c * n_c).sum(), 250)
        hits.append(r[2] <= 1.5 <= r[3])
    assert_covers(np.array(hits), "ratio_ci")


# ---------------------------------------------------------------------------
# compare: compare_data → compare_tables → compare_summary
# ---------------------------------------------------------------------------

POLICIES = ["a", "b", "c"]
PLAYERS = 4
DEALS = 200  # per replication (one chunk each)
MU = np.array([0.6, 0.0, -0.6])  # mean payment per seat held
DONG_BASE = np.array([2, 1, 0])  # mean 戙 = base + 2 (deal effect) + 1 (seat noise)
CLOSE_P = np.array([0.5, 0.3, 0.2])  # the strategy whose seats close every replay of a deal


def synthetic_duplicate(rng: np.random.Generator, deals: int):
    """pay, dong [deals, replays, seats] and closer [deals, replays] with a known truth and deal effects."""
    table = rotation_table(len(POLICIES), PLAYERS)
    replays = table.shape[0]
    strat = np.broadcast_to(table, (deals, replays, PLAYERS))
    deal_u = rng.normal(0, 4, (deals, 1, 1))  # the luck of the tiles: shared by every play of a deal
    pay = MU[strat] + deal_u + rng.normal(0, 1, (deals, replays, PLAYERS))
    dong = DONG_BASE[strat] + rng.integers(0, 5, (deals, 1, 1)) + rng.integers(0, 3, (deals, replays, PLAYERS))
    winner = rng.choice(len(POLICIES), size=deals, p=CLOSE_P)
    closer = np.zeros((deals, replays), dtype=np.int64)
    for r in range(replays):
        for w in range(len(POLICIES)):
            seats = np.flatnonzero(table[r] == w)  # the winner closes from one of its seats, at random
            rows = np.flatnonzero(winner == w)
            closer[rows, r] = seats[rng.integers(len(seats), size=len(rows))]
    return table, pay, dong.astype(np.int64), closer


def test_compare_interval_coverage():
    rng = np.random.default_rng(4)
    table, pay, dong, closer = synthetic_duplicate(rng, DEALS * REPS)
    data = compare_data(POLICIES, table, pay, dong, closer)
    chunks = compare_tables(data, chunk=DEALS)["compare_chunks"]
    held = (table == 0).sum()  # seats per strategy per deal, over the replays
    truth = {("strategy", p): MU[i] for i, p in enumerate(POLICIES)}
    truth |= {("dong", p): DONG_BASE[i] + 3.0 for i, p in enumerate(POLICIES)}
    # a strategy that wins a deal closes once per replay: len(replays) closes over `held` seats
    truth |= {("closer_rate", p): CLOSE_P[i] * table.shape[0] / held for i, p in enumerate(POLICIES)}
    truth |= {("difference", f"{POLICIES[a]}-{POLICIES[b]}"): MU[a] - MU[b] for a, b in ((0, 1), (0, 2), (1, 2))}
    # one summary for all replications at once: each chunk's labels are made its own
    chunks["a"] = chunks["chunk"].astype(str) + ":" + chunks["a"]
    s = compare_summary(chunks, POLICIES, table.shape[0])
    hits: dict[tuple[str, str], list[bool]] = {k: [] for k in truth}
    for row in s.itertuples():
        a = row.a.split(":", 1)[-1]
        key = (row.kind, a if row.kind != "difference" else f"{a}-{row.b}")
        if key in truth:
            hits[key].append(row.ci_low <= truth[key] <= row.ci_high)
    for key, h in hits.items():
        assert len(h) == REPS
        assert_covers(np.array(h), f"compare {key}")
    # one independent value per deal
    assert (s.loc[s["kind"].isin(["strategy", "closer_rate", "dong", "difference"]), "n"] == DEALS).all()


# ---------------------------------------------------------------------------
# value: chunk_sums → value_summary (chunk-clustered ratio difference)
# ---------------------------------------------------------------------------

def test_value_interval_coverage():
    """Seats hold the feature with probability 0.3; a holder gains BETA over a deal's common payment."""
    beta, per_chunk, chunks_per_rep = 0.8, 20, 15
    deals = per_chunk * chunks_per_rep * REPS
    rng = np.random.default_rng(5)
    has = rng.random((deals, PLAYERS)) < 0.3
    v = beta * has + rng.normal(0, 3, (deals, 1)) + rng.normal(0, 1, (deals, PLAYERS))
    cid = chunk_ids(0, deals, per_chunk)
    cond = chunk_sums(cid, {"n1": has.sum(axis=1), "y1": np.where(has, v, 0).sum(axis=1),
                            "n0": (~has).sum(axis=1), "y0": np.where(has, 0, v).sum(axis=1)})
    cond["setting"] = (cond["chunk"] // chunks_per_rep).astype(str)  # one replication per "setting"
    for col, val in (("method", "conditional"), ("component", "total"), ("supreme_bonus", 0),
                     ("quartet_bonus", 0), ("supreme_close_reward", 0)):
        cond[col] = val
    s = value_summary(cond, "synthetic", "none")
    assert len(s) == REPS
    assert_covers(covered(s["ci_low"], s["ci_high"], beta), "value (conditional)")


# ---------------------------------------------------------------------------
# bonus_value: holding_sums → bonus_finalize (deal-clustered)
# ---------------------------------------------------------------------------

def synthetic_bonus_deals(rng: np.random.Generator, deals: int, gain: int = 3):
    """Zero-sum integer payments: a holder gets `gain`·stake from each opponent (+ zero-sum noise).

    The stake (1–5, mean 3) is the deal's: the holder and the opponents who pay it move
    together, which is what an interval that counted seats as independent misses.
    """
    sup = np.zeros((deals, PLAYERS), dtype=bool)
    sup[np.arange(deals), rng.integers(PLAYERS, size=deals)] = rng.random(deals) < 0.25
    stake = rng.integers(1, 6, (deals, 1))
    bonus = np.zeros((deals, PLAYERS, 3), dtype=np.int64)
    bonus[:, :, 0] = gain * stake * (PLAYERS * sup - sup.sum(axis=1, keepdims=True))
    # "quartet": seats 0 and 1 hold it together in 30% of the deals and then get 2 each from seats 2
    # and 3; the two sides also win or lose a random team swing together in every deal
    side = np.array([1, 1, -1, -1])
    quartet = (rng.random((deals, 1)) < 0.3) & (side > 0)
    team = rng.integers(-15, 16, (deals, 1)) + 2 * quartet.any(axis=1, keepdims=True)
    swing = rng.integers(-1, 2, (deals, PLAYERS))
    pay = bonus[:, :, 0] + team * side + swing - np.roll(swing, 1, axis=1)  # zero-sum
    masks = dict(zip(HOLDINGS, (sup, ~sup, quartet, ~quartet, np.ones_like(sup))))
    return masks, pay.astype(np.int64), bonus


def bonus_sums(masks, pay, bonus, chunk: int) -> pd.DataFrame:
    """The combined bonus_value sums of one cell from chunks of `chunk` deals, summed as the driver does."""
    deals = pay.shape[0]
    parts = [pd.DataFrame(holding_sums({k: m[a:a + chunk] for k, m in masks.items()}, pay[a:a + chunk],
                                       bonus[a:a + chunk])) for a in range(0, deals, chunk)]
    return pd.concat(parts).groupby("holding", sort=False).sum().reset_index().assign(cell=0)


def test_bonus_value_interval_coverage():
    """Truth: a 至尊 holder receives 3·stake from each opponent; in its deal every other seat pays that.

    A holder's mean is 9·(PLAYERS − 1); a non-holder's is E[Σ non-holder payments] / E[non-holders]
    = −9·(PLAYERS − 1)·p / (PLAYERS − p) with p = 0.25 the chance that a deal has a holder.
    """
    rng = np.random.default_rng(6)
    deals = 300
    p_holder = 0.25
    mean_non = -9 * (PLAYERS - 1) * p_holder / (PLAYERS - p_holder)
    truth_value = 9 * (PLAYERS - 1) - mean_non
    # every replication is a cell of its own, finished in one call as the driver does
    df = bonus_finalize("bonus_value", pd.concat(
        [pd.DataFrame(holding_sums(*synthetic_bonus_deals(rng, deals))).assign(cell=i) for i in range(REPS)]))
    sup, non, any_ = (df[df["holding"] == h] for h in ("supreme", "no_supreme", "any"))
    assert_covers(covered(sup["value_ci_low"], sup["value_ci_high"], truth_value), "bonus_value value")
    assert_covers(covered(non["mean_payment_ci_low"], non["mean_payment_ci_high"], mean_non),
                  "bonus_value mean_payment")
    assert (any_["mean_payment_se"] == 0.0).all()  # zero-sum deals: the mean over all seats is exactly 0
    # quartet holders: +2 (team swings average 0); non-holders: −2 per holder pair / E[non-holders]
    q, nq = df[df["holding"] == "quartet"], df[df["holding"] == "no_quartet"]
    q_non = (0.3 * 2 * -2) / (0.3 * 2 + 0.7 * PLAYERS)
    assert_covers(covered(q["mean_payment_ci_low"], q["mean_payment_ci_high"], 2.0), "bonus_value quartet mean")
    assert_covers(covered(nq["mean_payment_ci_low"], nq["mean_payment_ci_high"], q_non), "bonus_value no_quartet")
    assert_covers(covered(q["value_ci_low"], q["value_ci_high"], 2.0 - q_non), "bonus_value quartet value")


def test_bonus_value_same_for_any_chunk_size():
    masks, pay, bonus = synthetic_bonus_deals(np.random.default_rng(7), 1000)
    tables = [bonus_finalize("bonus_value", bonus_sums(masks, pay, bonus, chunk)) for chunk in (1000, 70, 7)]
    cols = ["mean_payment", "mean_payment_se", "value", "value_se", "value_ci_low", "mean_bonus_supreme_se"]
    for t in tables[1:]:
        pd.testing.assert_frame_equal(t[cols], tables[0][cols], check_exact=True)
