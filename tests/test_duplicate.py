"""Duplicate statistics: rotations are balanced, intervals cover the truth about 95% of the time."""
import numpy as np
import pytest

from tianjiu_sim.sim.duplicate import estimate, per_deal_means, rotation_table


@pytest.mark.parametrize("k,n", [(2, 4), (3, 4), (4, 4), (3, 3), (2, 2)])
def test_rotation_puts_every_strategy_in_every_seat_equally(k, n):
    t = rotation_table(k, n)
    for s in range(n):
        counts = np.bincount(t[:, s], minlength=k)
        assert (counts == 1).all()
    assert len({tuple(row) for row in t}) == len(t)  # no replay repeats a seating


def test_ci_coverage_is_about_95_percent():
    # 2,000 small runs of a known mean: the 95% interval should contain it ≈ 95% of the time.
    rng = np.random.default_rng(1)
    runs, n, true_mean = 2000, 200, 0.7
    hits = 0
    for _ in range(runs):
        sample = rng.normal(true_mean, 3.0, n)
        e = estimate(sample)
        hits += e.ci_low <= true_mean <= e.ci_high
    coverage = hits / runs
    # binomial sd of the coverage at 2,000 runs is ≈ 0.5%: allow 4 sd either side
    assert 0.93 <= coverage <= 0.97, coverage


def test_pairing_narrows_the_interval_when_deals_dominate():
    rng = np.random.default_rng(2)
    luck = rng.normal(0, 5, 5000)  # the tiles: shared by both strategies on a deal
    a, b = luck + 0.3 + rng.normal(0, 1, 5000), luck + rng.normal(0, 1, 5000)
    paired = estimate(a - b)
    assert paired.ci_low < 0.3 < paired.ci_high and paired.ci_low > 0
    assert paired.se < estimate(a).se / 3


def test_per_deal_means_average_the_seats_each_strategy_held():
    t = rotation_table(2, 4)  # replay 0: a b a b; replay 1: b a b a ...
    pay = np.zeros((1, len(t), 4))
    pay[0, :, :] = np.where(t == 0, 2.0, -2.0)
    assert per_deal_means(pay, t, 2).tolist() == [[2.0, -2.0]]
