"""Values of the risk_aversion module that the mutation run (scripts/mutation.py, issue 27) found unchecked: each test
checks a number a surviving mutant changes, from a hand computation, a closed form or scipy as an oracle."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import scipy.stats as sps  # noqa: E402

from credalbook.risk_aversion import (RankPath, RiskAversion, coefficients_from_utilities, crossing_point,  # noqa: E402
                                      mean_utility, plot_rank_path, probability_best_resampled, probability_better,
                                      rank_path, signed_rank_posterior, utility_coefficients)


def _scipy(distribution: RiskAversion):
    low, high = distribution.support
    return sps.beta(distribution.alpha, distribution.beta, loc=low, scale=high - low)


def test_ppf_and_interval_are_scipys_scaled_beta():
    distribution = RiskAversion(6.0, 14.0, 0.5, 0.9)
    q = np.array([0.0, 0.025, 0.3, 0.5, 0.975, 1.0])
    assert distribution.ppf(q) == pytest.approx(_scipy(distribution).ppf(q), rel=1e-12)
    assert distribution.interval(0.9) == pytest.approx(_scipy(distribution).interval(0.9), rel=1e-12)
    assert distribution.interval() == pytest.approx(_scipy(distribution).interval(0.95), rel=1e-12)


def test_utility_coefficients_by_hand():
    # discounted accuracies x = 1 (right), 1/2 (two-class hit), 0 (wrong): A = mean(2x^2 - x) = 1/3,
    # B = mean(x (1 - x)) = (1/4) / 3
    sets = np.array([[1, 0, 0], [1, 1, 0], [0, 1, 0]], dtype=bool)
    A, B = utility_coefficients([0, 1, 2], sets)
    assert (A, B) == pytest.approx((1 / 3, 1 / 12))


def test_coefficients_from_utilities_gives_floats_for_scalars_and_arrays_for_arrays():
    # u65 = 0.55 and u80 = 0.6: B = 0.05 / (4 * 0.15) = 1/12, A = 0.55 - 4 * 0.65 / 12 = 1/3
    A, B = coefficients_from_utilities(0.55, 0.6)
    assert type(A) is float and type(B) is float
    assert (A, B) == pytest.approx((1 / 3, 1 / 12))
    A, B = coefficients_from_utilities([0.55, 0.5], [0.6, 0.5])
    assert isinstance(A, np.ndarray) and A.shape == (2,)
    assert A == pytest.approx([1 / 3, 0.5]) and B == pytest.approx([1 / 12, 0.0])


def test_crossing_point_and_probability_better_by_hand():
    # v* = -(0.60 - 0.70) / (4 (0.05 - 0.02)) = 5/6; a has the larger B, so it wins above v*
    assert crossing_point(0.60, 0.05, 0.70, 0.02) == pytest.approx(5 / 6)
    assert crossing_point(0.60, 0.05, 0.70, 0.05) is None
    distribution = RiskAversion.from_mean(0.65, 20)  # Beta(6, 14) on [1/2, 1]
    assert probability_better(0.60, 0.05, 0.70, 0.02, distribution) == pytest.approx(
        float(_scipy(distribution).sf(5 / 6)), rel=1e-12)
    assert probability_better(0.70, 0.02, 0.60, 0.05, distribution) == pytest.approx(
        float(_scipy(distribution).cdf(5 / 6)), rel=1e-12)


def test_parallel_lines_a_small_gap_decides_for_every_v():
    # equal B: a is better by 0.1 (or worse by 0.1) at every v
    distribution = RiskAversion.uniform()
    assert probability_better(0.6, 0.05, 0.5, 0.05, distribution) == 1.0
    assert probability_better(0.5, 0.05, 0.6, 0.05, distribution) == 0.0


def test_lines_crossing_at_the_lower_end_rank_by_their_slopes():
    # a: U = 0.3 + 0.4 v and b: U = 0.4 + 0.2 v meet at v = 1/2; above it a is better everywhere
    path = rank_path([[0.3], [0.4], [0.1]], [[0.1], [0.05], [0.0]])
    assert path.edges.tolist() == [0.5, 1.0]
    assert path.ranks.tolist() == [[1.0, 2.0, 3.0]]


def test_identical_lines_share_their_ranks_from_the_lower_end():
    path = rank_path([[0.3, 0.3], [0.3, 0.3], [0.1, 0.1]], [[0.1, 0.1], [0.1, 0.1], [0.0, 0.0]])
    assert path.ranks.tolist() == [[1.5, 1.5, 3.0]]


def test_best_probabilities_share_a_tie_on_its_step():
    # step [0.5, 0.6) (probability 0.2 under the uniform): classifier 0 alone is best; step [0.6, 1] (0.8):
    # 0 and 1 tie for the best and share it. Classifier 2 is never best
    path = RankPath(edges=np.array([0.5, 0.6, 1.0]), ranks=np.array([[1.0, 2.0, 3.0], [1.5, 1.5, 3.0]]))
    assert path.best_probabilities(RiskAversion.uniform()) == pytest.approx([0.6, 0.4, 0.0])


def test_a_rank_path_must_start_inside_the_admissible_v():
    with pytest.raises(ValueError, match="edges\\[0\\]"):
        RankPath(edges=np.array([0.4, 0.6, 1.0]), ranks=np.array([[1.0, 2.0], [2.0, 1.0]]))


def test_v_outside_names_the_offending_value():
    with pytest.raises(ValueError, match="got 1.5"):
        mean_utility(0.3, 0.1, [1.0, 1.5])
    with pytest.raises(ValueError, match="got 0.25"):
        mean_utility(0.3, 0.1, [0.5, 0.25])


def test_resampled_interval_is_the_central_percentile_interval_of_the_resamples():
    A = np.array([[0.60, 0.50, 0.55], [0.55, 0.60, 0.50], [0.40, 0.45, 0.58]])
    B = np.array([[0.05, 0.10, 0.04], [0.08, 0.02, 0.09], [0.15, 0.12, 0.03]])
    best = probability_best_resampled(A, B, RiskAversion.from_mean(0.65, 20), n_boot=200, level=0.8, seed=1)
    low, high = np.quantile(best.resampled, [0.1, 0.9], axis=0)
    assert best.low == pytest.approx(low) and best.high == pytest.approx(high)
    assert best.probability == pytest.approx(best.resampled.mean(axis=0))


def test_signed_rank_posterior_with_one_dataset_and_its_default_prior():
    # One dataset with z = 0.05 > 2 rope for every v: theta_right = w1 (2 - w1) and theta_rope = w0^2 with
    # (w0, w1) ~ Dirichlet(s, 1), so w1 ~ Beta(1, s); right is the largest iff w1 > 1 - 1/sqrt(2), which has
    # probability (1/sqrt(2))^s = 2^(-s/2): 0.841 for the default s = 1/2, 0.707 for s = 1
    distribution = RiskAversion.from_mean(0.65, 20)
    default = signed_rank_posterior([0.05], [0.0], [0.0], [0.0], distribution, n_samples=40000)
    assert default["a"] == pytest.approx(2 ** -0.25, abs=0.01) and default["b"] == 0.0
    assert default["rope"] == pytest.approx(1 - 2 ** -0.25, abs=0.01)
    one = signed_rank_posterior([0.05], [0.0], [0.0], [0.0], distribution, prior_strength=1.0, n_samples=40000)
    assert one["a"] == pytest.approx(2 ** -0.5, abs=0.01)


def test_signed_rank_posterior_draws_v_on_its_support():
    # a - b = -0.28 + 0.4 v is -0.04 near v = 0.6 (b better by more than 2 rope) and positive above v = 0.7;
    # v ~ Beta on [1/2, 1] concentrated at 0.6 (sd 0.005): b wins with probability 2^(-1/4) as above
    posterior = signed_rank_posterior([-0.28], [0.1], [0.0], [0.0], RiskAversion.from_mean(0.6, 2000),
                                      n_samples=40000)
    assert posterior["b"] == pytest.approx(2 ** -0.25, abs=0.01) and posterior["a"] == 0.0


def test_plot_rank_path_draws_each_density_on_400_points_of_the_support():
    path = rank_path([[0.6, 0.5], [0.55, 0.6]], [[0.05, 0.1], [0.08, 0.02]], support=(0.55, 0.95))
    _, bottom = plot_rank_path(path, ["A", "B"], {"u65": RiskAversion.from_mean(0.65, 20, 0.55, 0.95)})
    grid = bottom.lines[0].get_xdata()
    assert len(grid) == 400 and grid[0] == 0.55 and grid[-1] == 0.95
    plt.close("all")
