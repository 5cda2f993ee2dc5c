"""Uncertain risk aversion (Part VII): the quadratic utilities of Zaffalon, Corani & Mauá (2012, Section 9)
with v = u(1/2) Beta-distributed as Ferri et al. (2019, Sect. 5) treat operating conditions.

Propositions R1-R5 (:mod:`credalbook.book.theory.risk_aversion`) and the numerical module
:mod:`credalbook.risk_aversion`, checked against sympy's exact values, a Monte Carlo oracle,
:mod:`credalbook.metrics`, :func:`credalbook.stats.mean_ranks` and a worked example.
"""
import time
from fractions import Fraction
from math import comb

import numpy as np
import pandas as pd
import pytest
import sympy as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from credalbook.metrics import utility_discounted_accuracy_scores
from credalbook.risk_aversion import (CROSSING_TOL, RankPath, RiskAversion, coefficients_from_utilities,
                                      crossing_point, mean_ranks_at, mean_utility, probability_best,
                                      probability_better, rank_path, utility_coefficients)
from credalbook.sets import sets_from_lists
from credalbook.stats import mean_ranks
from credalbook.book.theory import risk_aversion as theory
from credalbook.book.theory.utility import X

U65 = RiskAversion.from_mean(0.65, 20)
U80 = RiskAversion.from_mean(0.8, 20)
DISTRIBUTIONS = [U65, U80, RiskAversion.uniform(), RiskAversion.uniform(0.65, 0.8), RiskAversion(0.7, 0.4),
                 RiskAversion(2, 5, 0.55, 0.95)]
EXAMPLE_A = np.array(theory.EXAMPLE_A, dtype=float)
EXAMPLE_B = np.array(theory.EXAMPLE_B, dtype=float)


def random_sets(seed, n=40, k=4):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    sets = rng.random((n, k)) < rng.uniform(0.1, 0.7)
    sets[np.arange(n), rng.integers(0, k, n)] = True     # never empty
    return y, sets


def crossing_lines(seed, n_classifiers, n_datasets):
    """Lines through random utilities at v = 1/2 and v = 1: about half the pairs cross inside the support."""
    rng = np.random.default_rng(seed)
    at_half = rng.uniform(0.6, 0.9, (n_classifiers, n_datasets))
    at_one = rng.uniform(0.6, 0.9, (n_classifiers, n_datasets))
    return coefficients_from_utilities(at_half, at_one, 0.5, 0.99999)


def rational_lines(seed, n_classifiers, n_datasets, grid=8):
    """Small-grid rational lines (so that ties, coincident crossings and crossings at the ends happen)."""
    rng = np.random.default_rng(seed)
    a = [[sp.Rational(int(rng.integers(0, grid + 1)), grid) for _ in range(n_datasets)] for _ in range(n_classifiers)]
    b = [[sp.Rational(int(rng.integers(0, grid + 1)), 4 * grid) for _ in range(n_datasets)] for _ in range(n_classifiers)]
    return a, b


# ================================================================ the propositions, symbolically
class TestTheory:
    def test_r1_affine_in_v(self):
        assert theory.check_affine_in_v()
        coefficients = theory.affine_coefficients()
        assert sp.expand(coefficients["intercept"] - (2 * X ** 2 - X)) == 0
        assert sp.expand(coefficients["slope"] - 4 * X * (1 - X)) == 0
        assert sp.expand(theory.utility_in_v().subs(theory.V, sp.Rational(13, 20))
                         - (-sp.Rational(3, 5) * X ** 2 + sp.Rational(8, 5) * X)) == 0   # u65 of Section 9

    @pytest.mark.parametrize("n", [1, 2, 4])
    def test_r1_mean_utility_is_a_line(self, n):
        assert theory.check_mean_utility_affine(n)

    def test_r1_slope_sign(self):
        assert all(theory.check_slope_sign().values())

    def test_beta_from_mean(self):
        assert theory.check_beta_from_mean()
        m, kappa = sp.symbols("m kappa", positive=True)
        solution = theory.beta_from_mean()
        for mean, concentration, low, high in [(0.65, 20, 0.5, 1.0), (0.8, 7.5, 0.6, 0.9), (0.51, 0.3, 0.5, 1.0)]:
            d = RiskAversion.from_mean(mean, concentration, low, high)
            values = {m: mean, kappa: concentration, theory.V_LOW: low, theory.V_HIGH: high}
            assert d.alpha == pytest.approx(float(solution[theory.ALPHA].subs(values)))
            assert d.beta == pytest.approx(float(solution[theory.BETA].subs(values)))
            moments = theory.beta_moments()
            shapes = {theory.ALPHA: d.alpha, theory.BETA: d.beta, theory.V_LOW: low, theory.V_HIGH: high}
            assert d.mean == pytest.approx(mean)
            assert d.mean == pytest.approx(float(moments["mean"].subs(shapes)))
            assert d.variance == pytest.approx(float(moments["variance"].subs(shapes)))
            assert d.variance == pytest.approx((mean - low) * (high - mean) / (concentration + 1))
            assert d.concentration == pytest.approx(concentration)

    def test_the_parametrisation_stated_in_the_docstring(self):
        assert (U65.alpha, U65.beta) == pytest.approx((6, 14)) and U65.std == pytest.approx(0.05)
        assert U65.interval() == pytest.approx((0.56, 0.75), abs=0.01)
        assert (U80.alpha, U80.beta) == pytest.approx((12, 8)) and U80.std == pytest.approx(0.053, abs=5e-4)
        assert U80.interval() == pytest.approx((0.69, 0.90), abs=0.01)

    def test_r2_expected_utility_is_utility_at_the_mean(self):
        assert all(theory.check_expected_utility_at_mean().values())

    def test_r2_for_a_concrete_beta_by_integration(self):
        # E[u_V(1/3)] under v = 1/2 + T/2, T ~ Beta(6, 14), from the density, equals u at E[v] = 13/20
        t = sp.Symbol("t", nonnegative=True)
        density = t ** 5 * (1 - t) ** 13 / sp.beta(6, 14)
        u = theory.utility_in_v().subs(X, sp.Rational(1, 3))
        expected = sp.integrate(sp.gammasimp(u.subs(theory.V, sp.Rational(1, 2) + t / 2) * density), (t, 0, 1))
        assert expected == u.subs(theory.V, sp.Rational(13, 20))
        assert mean_utility(0, 1, U65.mean) == pytest.approx(4 * 0.65)

    def test_r3_single_crossing(self):
        assert all(theory.check_single_crossing().values())
        assert theory.crossing_point_expr() == -theory.DELTA_A / (4 * theory.DELTA_B)

    @pytest.mark.parametrize("alpha, beta", [(1, 1), (2, 3), (6, 14)])
    def test_r3_probability_better_closed_form(self, alpha, beta):
        assert all(theory.check_probability_better(alpha, beta).values())

    def test_r3_median_and_mean_verdicts_can_disagree(self):
        assert theory.check_median_mean_disagreement()
        example = theory.median_mean_disagreement_example()
        d = RiskAversion(1, 3)
        assert d.median == pytest.approx(float(example["median"]))
        assert d.mean == pytest.approx(float(example["mean"]))
        delta_a, delta_b = float(example["delta_A"]), float(example["delta_B"])
        assert probability_better(delta_a, delta_b, 0.0, 0.0, d) == pytest.approx(59319 / 125000, rel=1e-12)
        assert mean_utility(delta_a, delta_b, d.mean) > 0        # a is better in expectation

    def test_r4_mean_over_datasets_is_a_line(self):
        assert theory.check_mean_over_datasets_affine(4)

    @pytest.mark.parametrize("seed", range(4))
    def test_r4_mean_rank_is_piecewise_constant(self, seed):
        assert theory.check_rank_piecewise_constant(theory.EXAMPLE_A, theory.EXAMPLE_B)
        assert theory.check_rank_piecewise_constant(*rational_lines(seed, 3, 2))

    def test_r4_heaviside_mean_rank_is_friedman_mean_rank(self):
        expressions = theory.mean_rank_expr(theory.EXAMPLE_A, theory.EXAMPLE_B)
        for v in (0.5, 0.6, 0.625, 0.7, 0.9):   # 5/8: all three lines of dataset 2 meet, ties averaged
            scores = pd.DataFrame(np.round(EXAMPLE_A + 4 * v * EXAMPLE_B, 12).T)   # exact ties tie in floats
            assert [float(e.subs(theory.V, sp.nsimplify(v))) for e in expressions] == pytest.approx(
                mean_ranks(scores).to_numpy())

    def test_r5_expected_rank_is_not_the_rank_at_the_mean(self):
        result = theory.check_expected_rank_not_rank_at_mean()
        assert result["differs"] and result["utility_at_mean"]
        path = rank_path(EXAMPLE_A, EXAMPLE_B)
        assert path.expected_ranks(RiskAversion(1, 2)) == pytest.approx([float(r) for r in result["expected_ranks"]])
        assert path.at([2 / 3])[0] == pytest.approx([float(r) for r in result["ranks_at_mean"]])   # E[v] = 2/3
        assert mean_ranks_at(EXAMPLE_A, EXAMPLE_B, [2 / 3])[0] == pytest.approx([float(r) for r in result["ranks_at_mean"]])

    def test_latex(self):
        displays = theory.risk_aversion_latex()
        assert set(displays) == {"affine", "mean_line", "expected", "crossing", "probability"}
        assert all("$" not in d for d in displays.values())
        assert displays["expected"].endswith("= 0")


# ================================================================ numeric against exact
class TestAgainstExact:
    @pytest.mark.parametrize("alpha, beta", [(1, 1), (2, 3), (6, 14), (12, 8)])
    def test_probability_better_against_the_closed_form(self, alpha, beta):
        expr = theory.probability_better_expr(alpha, beta, sp.Rational(1, 2), 1)
        d = RiskAversion(alpha, beta)
        for delta_a, delta_b in [(-0.24, 0.1), (0.3, -0.5), (-0.11, 0.05), (0.2, 0.0), (-0.2, 0.0), (-1.0, 0.3)]:
            exact = expr.subs({theory.DELTA_A: sp.nsimplify(delta_a), theory.DELTA_B: sp.nsimplify(delta_b)})
            exact = float(exact.rewrite(sp.Integral).doit())
            assert probability_better(delta_a, delta_b, 0.0, 0.0, d) == pytest.approx(exact, abs=1e-13)

    @pytest.mark.parametrize("seed", range(8))
    def test_rank_path_against_exact(self, seed):
        a, b = (theory.EXAMPLE_A, theory.EXAMPLE_B) if seed == 0 else rational_lines(seed, 2 + seed % 3, 1 + seed % 4)
        edges, ranks = theory.exact_rank_path(a, b)
        path = rank_path(np.array(a, dtype=float), np.array(b, dtype=float))
        assert path.edges == pytest.approx([float(e) for e in edges], abs=1e-12)
        assert path.ranks == pytest.approx(np.array(ranks, dtype=float))

    @pytest.mark.parametrize("seed", range(6))
    @pytest.mark.parametrize("by", ["utility", "rank"])
    def test_probability_best_against_exact(self, seed, by):
        a, b = (theory.EXAMPLE_A, theory.EXAMPLE_B) if seed == 0 else rational_lines(seed, 2 + seed % 3, 1 + seed % 4)
        for alpha, beta in [(1, 1), (6, 14), (3, 2)]:
            exact = theory.exact_probability_best(a, b, alpha, beta, by=by)
            numeric = probability_best(np.array(a, dtype=float), np.array(b, dtype=float), RiskAversion(alpha, beta), by)
            assert numeric == pytest.approx([float(p) for p in exact], abs=1e-12)

    def test_exact_example_values(self):
        edges, ranks = theory.exact_rank_path(theory.EXAMPLE_A, theory.EXAMPLE_B)
        assert edges == [sp.Rational(1, 2), sp.Rational(5, 8), sp.Rational(3, 4), sp.Rational(5, 6), 1]
        assert ranks[0] == [1, 2, 3] and ranks[-1] == [3, 2, 1]
        # the middle classifier is never best, by utility or by rank
        assert theory.exact_probability_best(theory.EXAMPLE_A, theory.EXAMPLE_B, 6, 14, by="rank")[1] == 0
        assert theory.exact_probability_best(theory.EXAMPLE_A, theory.EXAMPLE_B, 6, 14, by="utility")[1] == 0


# ================================================================ a worked example, by hand
class TestWorkedExample:
    """Three instances of three classes, y = (0, 1, 2).

    a predicts {0}, {1}, {0}: x = (1, 1, 0), A_a = 2/3, B_a = 0 (precise: a flat line).
    b predicts {0}, {0, 1}, {0, 1, 2}: x = (1, 1/2, 1/3), A_b = (1 + 0 − 1/9)/3 = 8/27,
    B_b = (0 + 1/4 + 2/9)/3 = 17/108, so U_b(v) = 8/27 + 17v/27, which meets 2/3 at v* = 10/17.
    """

    y = np.array([0, 1, 2])
    a = sets_from_lists([[0], [1], [0]], 3)
    b = sets_from_lists([[0], [0, 1], [0, 1, 2]], 3)

    def test_coefficients(self):
        assert utility_coefficients(self.y, self.a) == pytest.approx((2 / 3, 0.0))
        assert utility_coefficients(self.y, self.b) == pytest.approx((8 / 27, 17 / 108))
        # U_b(0.65) by hand from u65 = -0.6 x^2 + 1.6 x: (1 + 0.65 + 7/15) / 3
        assert mean_utility(8 / 27, 17 / 108, 0.65) == pytest.approx((1 + 0.65 + 7 / 15) / 3)

    def test_crossing_point(self):
        assert crossing_point(2 / 3, 0.0, 8 / 27, 17 / 108) == pytest.approx(10 / 17)
        assert crossing_point(2 / 3, 0.0, 1 / 3, 0.0) is None

    def test_probability_uniform(self):
        # b beats a for v > 10/17: P = (1 − 10/17) / (1/2) = 14/17
        line_a, line_b = utility_coefficients(self.y, self.a), utility_coefficients(self.y, self.b)
        assert probability_better(*line_b, *line_a, RiskAversion.uniform()) == pytest.approx(14 / 17)
        assert probability_better(*line_a, *line_b, RiskAversion.uniform()) == pytest.approx(3 / 17)

    def test_probability_beta_6_14(self):
        # P(T > 3/17) for T ~ Beta(6, 14): at most 5 successes in 19 trials of probability 3/17
        t = Fraction(3, 17)
        expected = sum(comb(19, j) * t ** j * (1 - t) ** (19 - j) for j in range(6))
        line_a, line_b = utility_coefficients(self.y, self.a), utility_coefficients(self.y, self.b)
        assert probability_better(*line_b, *line_a, U65) == pytest.approx(float(expected), rel=1e-12)
        # the expected-utility verdict is b (v* = 0.588 < E[v] = 0.65), the probability verdict too
        assert mean_utility(*line_b, U65.mean) > mean_utility(*line_a, U65.mean)
        A, B = np.array([[line_a[0]], [line_b[0]]]), np.array([[line_a[1]], [line_b[1]]])
        assert probability_best(A, B, U65) == pytest.approx([1 - float(expected), float(expected)], rel=1e-12)


# ================================================================ agreement with credalbook.metrics
class TestAgainstMetrics:
    @settings(max_examples=40, deadline=None)
    @given(st.integers(0, 10_000), st.integers(1, 60), st.integers(2, 6))
    def test_line_is_the_mean_utility(self, seed, n, k):
        y, sets = random_sets(seed, n, k)
        A, B = utility_coefficients(y, sets)
        assert B >= 0
        for v in (0.5, 0.65, 0.8):
            assert mean_utility(A, B, v) == pytest.approx(utility_discounted_accuracy_scores(y, sets, u=v).mean(),
                                                          abs=1e-12)

    def test_slope_zero_iff_determinate_or_wrong(self):
        y = np.array([0, 1, 1])
        assert utility_coefficients(y, sets_from_lists([[0], [0], [1]], 2))[1] == 0
        assert utility_coefficients(y, sets_from_lists([[0], [0, 1], [1]], 2))[1] > 0

    def test_coefficients_from_stored_utilities(self):
        y, sets = random_sets(3)
        A, B = utility_coefficients(y, sets)
        u65 = utility_discounted_accuracy_scores(y, sets, u=0.65).mean()
        u80 = utility_discounted_accuracy_scores(y, sets, u=0.8).mean()
        u50 = utility_discounted_accuracy_scores(y, sets, u=0.5).mean()
        assert coefficients_from_utilities(u65, u80) == pytest.approx((A, B))
        assert coefficients_from_utilities(u50, u80, 0.5, 0.8) == pytest.approx((A, B))
        arrays = coefficients_from_utilities(np.array([u65, u65]), np.array([u80, u80]))
        assert arrays[0] == pytest.approx([A, A]) and arrays[1] == pytest.approx([B, B])


# ================================================================ Monte Carlo oracle
DRAWS = 200_000


def within_three_standard_errors(exact, estimate, k=3.0):
    """Each estimate within k standard errors of the exact probability (plus one draw, for p near 0 or 1)."""
    exact = np.asarray(exact, dtype=float)
    se = np.sqrt(exact * (1 - exact) / DRAWS)
    return np.all(np.abs(np.asarray(estimate) - exact) <= k * se + 1 / DRAWS)


class TestMonteCarlo:
    @pytest.mark.parametrize("distribution", DISTRIBUTIONS, ids=repr)
    def test_probability_better(self, distribution):
        v = distribution.rvs(DRAWS, random_state=11)
        lines = [(0.6, 0.05, 0.7, 0.02), (0.55, 0.1, 0.72, 0.03), (0.4, 0.2, 0.9, 0.0), (0.7, 0.01, 0.7, 0.01 + 1e-3)]
        for A_a, B_a, A_b, B_b in lines:
            estimate = np.mean(A_a + 4 * v * B_a > A_b + 4 * v * B_b)
            assert within_three_standard_errors(probability_better(A_a, B_a, A_b, B_b, distribution), estimate)

    @pytest.mark.parametrize("distribution", [U65, U80, RiskAversion.uniform(), RiskAversion(0.7, 0.4)], ids=repr)
    def test_probability_best(self, distribution):
        A, B = crossing_lines(5, 4, 6)
        v = distribution.rvs(DRAWS, random_state=12)
        mean_lines = A.mean(axis=1)[None] + 4 * v[:, None] * B.mean(axis=1)[None]
        by_utility = np.bincount(mean_lines.argmax(axis=1), minlength=4) / DRAWS
        assert within_three_standard_errors(probability_best(A, B, distribution, "utility"), by_utility)
        ranks = mean_ranks_at(A, B, v)
        best = ranks == ranks.min(axis=1, keepdims=True)
        by_rank = (best / best.sum(axis=1, keepdims=True)).mean(axis=0)
        assert within_three_standard_errors(probability_best(A, B, distribution, "rank"), by_rank)
        # the ~20 steps' probabilities against the draws' histogram: 4 standard errors (many cells at once)
        path = rank_path(A, B, distribution)
        histogram = np.bincount(np.searchsorted(path.breakpoints, v), minlength=path.ranks.shape[0]) / DRAWS
        assert within_three_standard_errors(path.step_probabilities(distribution), histogram, k=4.0)

    def test_distribution_against_draws(self):
        for d in DISTRIBUTIONS:
            v = d.rvs(DRAWS, random_state=2)
            assert v.mean() == pytest.approx(d.mean, abs=4 * d.std / np.sqrt(DRAWS))
            assert np.all((v >= d.low) & (v <= d.high))
            for q in (0.1, 0.5, 0.9):
                assert within_three_standard_errors(d.cdf(d.ppf(q)), np.mean(v <= d.ppf(q)))
            grid = np.linspace(d.low, d.high, 4001)
            density = d.pdf(grid)
            mid = (grid[1:] + grid[:-1]) / 2
            assert np.sum(d.pdf(mid) * np.diff(grid)) == pytest.approx(1, abs=2e-2)   # tails of alpha < 1 are steep
            assert np.all(density >= 0)
            assert d.cdf(d.low) == 0 and d.cdf(d.high) == 1 and d.sf(d.low) == 1 and d.sf(d.high) == 0


# ================================================================ invariants
finite = st.floats(-1, 1, allow_nan=False)
shapes = st.floats(0.2, 30)


@st.composite
def lines(draw, max_classifiers=5, max_datasets=5):
    n_classifiers = draw(st.integers(1, max_classifiers))
    n_datasets = draw(st.integers(1, max_datasets))
    grid = draw(st.booleans())   # small-grid values produce ties and shared crossing points
    if grid:
        values = st.integers(0, 6).map(lambda k: k / 6)
        slopes = st.integers(0, 6).map(lambda k: k / 24)
    else:
        # four decimals: the direct evaluation in floats orders the lines as exact arithmetic does
        values, slopes = st.floats(0, 1).map(lambda a: round(a, 4)), st.floats(0, 0.25).map(lambda b: round(b, 4))
    A = np.array(draw(st.lists(st.lists(values, min_size=n_datasets, max_size=n_datasets),
                               min_size=n_classifiers, max_size=n_classifiers)))
    B = np.array(draw(st.lists(st.lists(slopes, min_size=n_datasets, max_size=n_datasets),
                               min_size=n_classifiers, max_size=n_classifiers)))
    return A.reshape(n_classifiers, n_datasets), B.reshape(n_classifiers, n_datasets)


@st.composite
def distributions(draw):
    low = draw(st.sampled_from([0.5, 0.55, 0.6]))
    high = draw(st.sampled_from([0.8, 0.9, 1.0]))
    return RiskAversion(draw(shapes), draw(shapes), low, high)


class TestInvariants:
    @settings(max_examples=150, deadline=None)
    @given(finite, finite, finite, finite, distributions())
    def test_probability_better_is_a_probability_and_complementary(self, A_a, B_a, A_b, B_b, d):
        forward = probability_better(A_a, B_a, A_b, B_b, d)
        backward = probability_better(A_b, B_b, A_a, B_a, d)
        assert 0 <= forward <= 1 and 0 <= backward <= 1
        if (A_a, B_a) == (A_b, B_b):
            assert forward == backward == 0
        else:
            assert forward + backward == pytest.approx(1, abs=1e-12)

    @settings(max_examples=150, deadline=None)
    @given(finite, finite, finite, finite, distributions())
    def test_at_most_one_sign_change(self, A_a, B_a, A_b, B_b, d):
        v = np.linspace(d.low, d.high, 513)
        difference = mean_utility(A_a, B_a, v) - mean_utility(A_b, B_b, v)
        signs = np.sign(difference[np.abs(difference) > 1e-12])
        assert np.count_nonzero(np.diff(signs)) <= 1
        vstar = crossing_point(A_a, B_a, A_b, B_b)
        if np.count_nonzero(np.diff(signs)) == 1:
            assert vstar is not None and d.low - 1e-9 <= vstar <= d.high + 1e-9

    @settings(max_examples=120, deadline=None)
    @given(lines(), distributions())
    def test_probabilities_of_being_best_sum_to_one(self, ab, d):
        A, B = ab
        for by in ("utility", "rank"):
            p = probability_best(A, B, d, by)
            assert p.shape == (A.shape[0],)
            assert np.all((p >= 0) & (p <= 1 + 1e-12))
            assert p.sum() == pytest.approx(1, abs=1e-12)

    @settings(max_examples=80, deadline=None)
    @given(lines(max_datasets=1), distributions())
    def test_one_dataset_rank_and_utility_agree(self, ab, d):
        A, B = ab
        assert probability_best(A, B, d, "rank") == pytest.approx(probability_best(A, B, d, "utility"), abs=1e-12)

    @settings(max_examples=80, deadline=None)
    @given(lines(max_classifiers=2), distributions())
    def test_two_classifiers_best_is_better(self, ab, d):
        A, B = ab
        assume(A.shape[0] == 2)
        Am, Bm = A.mean(axis=1), B.mean(axis=1)
        assume(not (Am[0] == Am[1] and Bm[0] == Bm[1]))
        assert probability_best(A, B, d, "utility") == pytest.approx(
            [probability_better(Am[0], Bm[0], Am[1], Bm[1], d), probability_better(Am[1], Bm[1], Am[0], Bm[0], d)],
            abs=1e-12)

    @settings(max_examples=100, deadline=None)
    @given(lines(), st.sampled_from([(0.5, 1.0), (0.6, 0.9)]), st.integers(0, 2 ** 31))
    def test_rank_path_is_the_mean_rank(self, ab, support, seed):
        A, B = ab
        path = rank_path(A, B, support)
        n_classifiers = A.shape[0]
        assert isinstance(path, RankPath) and path.support == support
        assert np.all(np.diff(path.edges) > 0)
        assert path.ranks.shape == (len(path.edges) - 1, n_classifiers)
        assert path.ranks.sum(axis=1) == pytest.approx(n_classifiers * (n_classifiers + 1) / 2)
        # at each step's midpoint and at random points away from the breakpoints: the direct ranks
        rng = np.random.default_rng(seed)
        points = np.r_[(path.edges[1:] + path.edges[:-1]) / 2, rng.uniform(*support, 20)]
        clear = np.min(np.abs(points[:, None] - path.edges[None]), axis=1) > 1e-6
        points = points[clear]
        assert path.at(points) == pytest.approx(mean_ranks_at(A, B, points))
        if n_classifiers >= 2 and A.shape[1] >= 2:
            for v in points[:3]:
                scores = pd.DataFrame((A + 4 * v * B).T)
                assert path.at([v])[0] == pytest.approx(mean_ranks(scores).to_numpy())

    def test_identical_classifiers_share(self):
        A = np.array([[0.6, 0.7], [0.6, 0.7], [0.1, 0.1]])
        B = np.array([[0.1, 0.05], [0.1, 0.05], [0.0, 0.0]])
        for by in ("utility", "rank"):
            assert probability_best(A, B, U65, by) == pytest.approx([0.5, 0.5, 0])

    def test_one_classifier(self):
        assert probability_best([[0.3, 0.4]], [[0.1, 0.0]], U80, "rank") == pytest.approx([1])
        assert probability_best([[0.3, 0.4]], [[0.1, 0.0]], U80, "utility") == pytest.approx([1])

    def test_crossings_at_the_ends_and_shared_points(self):
        # two classifiers with the same discounted accuracy: lines meet at v = 1/2 (up to rounding)
        u50 = np.array([0.7, 0.7])
        A, B = coefficients_from_utilities(u50, np.array([0.9, 0.95]), 0.5, 0.9)
        path = rank_path(A[:, None], B[:, None])
        assert path.breakpoints.size == 0
        assert probability_better(A[1], B[1], A[0], B[0], RiskAversion(0.1, 3)) == 1.0
        # three lines through one point: one breakpoint, not three
        A = np.array([[0.4], [0.35], [0.3]])
        B = np.array([[0.02], [0.04], [0.06]])
        path = rank_path(A, B)
        assert path.breakpoints == pytest.approx([0.625], abs=CROSSING_TOL)
        assert path.ranks.tolist() == [[1, 2, 3], [3, 2, 1]]

    def test_concentrated_distribution_is_the_point_verdict(self):
        A, B = crossing_lines(9, 5, 8)
        for v in (0.6, 0.7, 0.85):
            d = RiskAversion.from_mean(v, 1e7)
            best = np.argmax(A.mean(axis=1) + 4 * v * B.mean(axis=1))
            assert probability_best(A, B, d)[best] == pytest.approx(1, abs=1e-6)
            ranks = mean_ranks_at(A, B, [v])[0]
            best = ranks == ranks.min()                 # at 0.85 two classifiers tie on mean rank 2.5
            assert probability_best(A, B, d, "rank") == pytest.approx(best / best.sum(), abs=1e-6)

    def test_vectorised_probability_better(self):
        A_a, B_a = np.array([0.6, 0.5, 0.4]), np.array([0.05, 0.1, 0.15])
        vector = probability_better(A_a, B_a, 0.65, 0.06, U65)
        assert vector.shape == (3,)
        assert vector == pytest.approx([probability_better(a, b, 0.65, 0.06, U65) for a, b in zip(A_a, B_a)])
        assert isinstance(probability_better(0.6, 0.05, 0.65, 0.06, U65), float)

    def test_performance(self):
        A, B = crossing_lines(0, 20, 60)
        path = rank_path(A, B)
        assert path.breakpoints.size > 4000
        elapsed = []
        for _ in range(3):
            start = time.perf_counter()
            probability_best(A, B, U65, "rank")
            probability_best(A, B, U65, "utility")
            rank_path(A, B)
            elapsed.append(time.perf_counter() - start)
        assert min(elapsed) < 0.5


# ================================================================ bad input
class TestBadInput:
    @pytest.mark.parametrize("kwargs, name", [
        ({"alpha": 0, "beta": 1}, "alpha"), ({"alpha": -1, "beta": 1}, "alpha"), ({"alpha": np.nan, "beta": 1}, "alpha"),
        ({"alpha": 1, "beta": 0}, "beta"), ({"alpha": 1, "beta": np.inf}, "beta"), ({"alpha": "2", "beta": 1}, "alpha"),
        ({"alpha": 1, "beta": 1, "low": 0.4}, "low"), ({"alpha": 1, "beta": 1, "high": 1.1}, "high"),
        ({"alpha": 1, "beta": 1, "low": 0.8, "high": 0.7}, "low"), ({"alpha": 1, "beta": 1, "low": np.nan}, "low")])
    def test_risk_aversion(self, kwargs, name):
        with pytest.raises(ValueError, match=name):
            RiskAversion(**kwargs)

    @pytest.mark.parametrize("args, name", [((0.5, 10), "mean"), ((1.0, 10), "mean"), ((0.4, 10), "mean"),
                                            ((np.nan, 10), "mean"), ((0.65, 0), "concentration"),
                                            ((0.65, -2), "concentration"), ((0.65, np.nan), "concentration"),
                                            ((0.65, 10, 0.7, 0.9), "mean"), ((0.65, 10, 0.6, 0.6), "low")])
    def test_from_mean(self, args, name):
        with pytest.raises(ValueError, match=name):
            RiskAversion.from_mean(*args)

    def test_distribution_methods(self):
        with pytest.raises(ValueError, match="q"):
            U65.ppf(1.5)
        with pytest.raises(ValueError, match="level"):
            U65.interval(1.0)
        with pytest.raises(ValueError, match="v"):
            U65.cdf([0.6, np.nan])

    def test_utility_coefficients(self):
        y, sets = random_sets(0, 10, 3)
        with pytest.raises(ValueError, match="y_true"):
            utility_coefficients(y[:-1], sets)
        with pytest.raises(ValueError, match="y_true"):
            utility_coefficients(np.r_[y[:-1], 7], sets)
        with pytest.raises(ValueError, match="y_set"):
            utility_coefficients(y, np.zeros((10, 3), dtype=bool))

    def test_coefficients_from_utilities(self):
        with pytest.raises(ValueError, match="v_first"):
            coefficients_from_utilities(0.7, 0.8, 0.65, 0.65)
        with pytest.raises(ValueError, match="v_second"):
            coefficients_from_utilities(0.7, 0.8, 0.65, 1.2)
        with pytest.raises(ValueError, match="u_first"):
            coefficients_from_utilities([0.7, np.nan], [0.8, 0.8])
        with pytest.raises(ValueError, match="u_first and u_second"):
            coefficients_from_utilities([0.7, 0.7], [0.8, 0.8, 0.8])

    def test_two_classifiers(self):
        with pytest.raises(ValueError, match="A_a"):
            crossing_point(np.nan, 0.1, 0.5, 0.2)
        with pytest.raises(ValueError, match="B_b"):
            crossing_point(0.5, 0.1, 0.5, "x")
        with pytest.raises(ValueError, match="distribution"):
            probability_better(0.5, 0.1, 0.6, 0.0, 0.65)
        with pytest.raises(ValueError, match="A_a"):
            probability_better(np.nan, 0.1, 0.6, 0.0, U65)
        with pytest.raises(ValueError, match="broadcast"):
            probability_better([0.5, 0.4], 0.1, [0.6, 0.5, 0.4], 0.0, U65)
        with pytest.raises(ValueError, match="v"):
            mean_utility(0.5, 0.1, [0.6, np.nan])

    def test_lines(self):
        A, B = crossing_lines(0, 3, 4)
        with pytest.raises(ValueError, match="A and B must have the same shape"):
            probability_best(A, B[:, :3], U65)
        with pytest.raises(ValueError, match="A must be 2-dimensional"):
            rank_path(A[:, 0], B[:, 0])
        B_nan = B.copy()
        B_nan[1, 1] = np.nan
        with pytest.raises(ValueError, match="B contains NaN"):
            probability_best(A, B_nan, U65, "rank")
        with pytest.raises(ValueError, match="by"):
            probability_best(A, B, U65, by="median")
        with pytest.raises(ValueError, match="distribution"):
            probability_best(A, B, (0.5, 1.0))
        with pytest.raises(ValueError, match="support"):
            rank_path(A, B, (0.4, 1.0))
        with pytest.raises(ValueError, match="support"):
            rank_path(A, B, 0.65)
        with pytest.raises(ValueError, match="distribution"):
            rank_path(A, B, (0.6, 0.9)).step_probabilities(U65)
        with pytest.raises(ValueError, match="v"):
            rank_path(A, B).at([0.3])
        with pytest.raises(ValueError, match="v"):
            mean_ranks_at(A, B, [[0.6]])

    def test_theory(self):
        with pytest.raises(ValueError, match="alpha"):
            theory.beta_cdf_by_integration(1.5, 2)
        with pytest.raises(ValueError, match="beta"):
            theory.exact_probability_best(theory.EXAMPLE_A, theory.EXAMPLE_B, 2, 0)
        with pytest.raises(ValueError, match="low"):
            theory.exact_rank_path(theory.EXAMPLE_A, theory.EXAMPLE_B, sp.Rational(1, 4), 1)
        with pytest.raises(ValueError, match="by"):
            theory.exact_probability_best(theory.EXAMPLE_A, theory.EXAMPLE_B, 2, 2, by="median")
        with pytest.raises(ValueError, match="A and B"):
            theory.mean_rank_expr(theory.EXAMPLE_A, [[0, 0]])
        with pytest.raises(ValueError, match="n_instances"):
            theory.mean_utility_line(0)


def test_plot_rank_path_draws_each_classifier_and_density():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from credalbook.risk_aversion import RiskAversion, plot_rank_path, rank_path

    A = np.array([[0.2, 0.1], [0.1, 0.3], [0.15, 0.2]])
    B = np.array([[0.0, 0.05], [0.05, 0.0], [0.02, 0.02]])
    path = rank_path(A, B, RiskAversion.uniform())
    top, bottom = plot_rank_path(path, ["a", "b", "c"], {"uniform": RiskAversion.uniform()})
    assert len(top.patches) == 3 and len(bottom.lines) == 1
    with pytest.raises(ValueError, match="names"):
        plot_rank_path(path, ["a", "b"])
    plt.close("all")


def test_p_discounted_cost_with_r_half_is_one_minus_u75():
    """Proposition R6 against the costs module: Yang et al.'s cost (0/1, r = 1/2) = 1 − u_{3/4}(x) on any sets."""
    from credalbook.costs import set_costs
    from credalbook.metrics import utility_discounted_accuracy_scores
    from credalbook.book.theory.risk_aversion import check_p_discounted_is_a_utility

    result = check_p_discounted_is_a_utility()
    assert result["r_half_is_u75"] and result["matches_power_mean"]
    rng = np.random.default_rng(5)
    for k in (2, 3, 6):
        sets = rng.uniform(size=(300, k)) < 0.4
        sets[np.arange(300), rng.integers(0, k, size=300)] = True
        y = rng.integers(0, k, size=300)
        cost = set_costs(1 - np.eye(k), y, sets, "p_discounted", r=0.5)
        assert np.allclose(cost, 1 - utility_discounted_accuracy_scores(y, sets, u=0.75))


def test_probability_better_with_a_denormal_slope_gap():
    """Found by hypothesis in CI: ΔB = 2.2e-311 overflowed v* to infinity; the crossing is far below the support."""
    from credalbook.risk_aversion import RiskAversion, probability_better

    uniform = RiskAversion.uniform()
    assert probability_better(0.0, 0.0, 1.0, 2.225073858507e-311, uniform) == 0.0
    assert probability_better(1.0, 2.225073858507e-311, 0.0, 0.0, uniform) == 1.0


# ---- issue 26: uncertainty in the data as well as in v ----

class TestDataUncertainty:
    def test_identical_datasets_leave_the_exact_probability(self):
        A = np.tile(EXAMPLE_A[:, :1], (1, 6))
        B = np.tile(EXAMPLE_B[:, :1], (1, 6))
        from credalbook.risk_aversion import probability_best_resampled

        for by in ("utility", "rank"):
            result = probability_best_resampled(A, B, U80, by, n_boot=50)
            assert result.probability == pytest.approx(probability_best(A, B, U80, by), abs=1e-12)
            assert np.all(result.low <= result.probability + 1e-12) and np.all(result.probability <= result.high + 1e-12)

    def test_share_below_half_is_the_chance_of_losing_the_decisive_dataset(self):
        from credalbook.risk_aversion import probability_best_resampled

        # a wins by 1 on dataset 0 and loses by 0.1 on the four others: it is the best by mean utility
        # exactly when a resample holds dataset 0, which happens with probability 1 - (4/5)^5
        A = np.array([[1.0, -0.1, -0.1, -0.1, -0.1], [0.0] * 5])
        B = np.zeros_like(A)
        result = probability_best_resampled(A, B, U65, "utility", n_boot=4000, seed=3)
        miss = (4 / 5) ** 5
        assert result.below_half[0] == pytest.approx(miss, abs=3 * np.sqrt(miss * (1 - miss) / 4000))
        assert result.probability[0] == pytest.approx(1 - result.below_half[0])
        assert probability_best(A, B, U65)[0] == 1.0  # the v-only probability hides it

    def test_signed_rank_posterior_limits_and_symmetry(self):
        from credalbook.risk_aversion import signed_rank_posterior

        rng = np.random.default_rng(0)
        A_b, B_b = rng.uniform(0.3, 0.6, 30), rng.uniform(0.0, 0.1, 30)
        far = signed_rank_posterior(A_b + 0.2, B_b, A_b, B_b, U80, n_samples=500)
        assert far["a"] == pytest.approx(1.0) and far["b"] == 0
        close = signed_rank_posterior(A_b + 0.001, B_b, A_b, B_b, U80, rope=0.01, n_samples=500)
        assert close["rope"] == pytest.approx(1.0)
        A_a, B_a = A_b + rng.normal(0, 0.05, 30), B_b + rng.normal(0, 0.02, 30)
        forward = signed_rank_posterior(A_a, B_a, A_b, B_b, U65, n_samples=800, seed=4)
        backward = signed_rank_posterior(A_b, B_b, A_a, B_a, U65, n_samples=800, seed=4)
        assert (forward["a"], forward["rope"], forward["b"]) == pytest.approx((backward["b"], backward["rope"],
                                                                               backward["a"]))
        assert sum(forward.values()) == pytest.approx(1.0)

    def test_signed_rank_posterior_against_a_loop(self):
        from credalbook.risk_aversion import signed_rank_posterior

        rng = np.random.default_rng(9)
        A_a, B_a, A_b, B_b = rng.uniform(0, 0.2, (4, 7))
        out = signed_rank_posterior(A_a, B_a, A_b, B_b, U65, rope=0.02, n_samples=40, seed=1)
        # the same draws, summed pair by pair as Benavoli et al.'s reference code does
        draws = np.random.default_rng(1)
        v = 0.5 + 0.5 * draws.beta(U65.alpha, U65.beta, size=40)
        weights = draws.dirichlet(np.r_[0.5, np.ones(7)], size=40)
        wins = np.zeros(3)
        for s in range(40):
            z = np.r_[0.0, (A_a - A_b) + 4 * v[s] * (B_a - B_b)]
            theta = np.zeros(3)
            for i in range(8):
                for j in range(8):
                    k = 0 if z[i] + z[j] > 0.04 else 2 if z[i] + z[j] < -0.04 else 1
                    theta[k] += weights[s, i] * weights[s, j]
            top = np.isclose(theta, theta.max(), rtol=0, atol=1e-12)
            wins += top / top.sum()
        assert (out["a"], out["rope"], out["b"]) == pytest.approx(tuple(wins / 40))

    def test_bad_input(self):
        from credalbook.risk_aversion import probability_best_resampled, signed_rank_posterior

        with pytest.raises(ValueError, match="by"):
            probability_best_resampled(EXAMPLE_A, EXAMPLE_B, U65, "median")
        with pytest.raises(ValueError, match="n_boot"):
            probability_best_resampled(EXAMPLE_A, EXAMPLE_B, U65, n_boot=2)
        with pytest.raises(ValueError, match="one value per dataset"):
            signed_rank_posterior([0.1, 0.2], [0.0, 0.0], [0.1], [0.0], U65)
        with pytest.raises(ValueError, match="prior_strength"):
            signed_rank_posterior([0.1], [0.0], [0.1], [0.0], U65, prior_strength=0)


def test_p_discounted_gain_is_quadratic_only_at_r_zero_and_one_half():
    result = theory.check_p_discounted_is_a_utility()
    assert result["r_zero_is_u50"] and result["r_half_is_u75"]
    assert result["quadratic_at"] == [0, sp.Rational(1, 2)]  # r = 2/3 gives a cubic, the others no polynomial


def test_difference_from_utility_is_a_line_in_v_only_for_an_affine_utility():
    assert sp.degree(theory.difference_from_utility(), theory.V) == 1
    curved = theory.utility_in_v() + theory.V ** 2 * theory.X * (1 - theory.X)
    assert sp.degree(theory.difference_from_utility(curved, n_instances=2), theory.V) == 2


class TestRiskAversionOutsideItsRange:
    """v = u(1/2) of a utility of discounted accuracy lies in [1/2, 1] (issue 27: mean_utility(v=1.5) returned 1.1)."""

    @pytest.mark.parametrize("v", [1.5, -0.1, 0.3, [0.6, 1.2]])
    def test_v_outside_is_refused(self, v):
        with pytest.raises(ValueError, match=r"v must lie in \[0.5, 1\]"):
            mean_utility(0.1, 0.2, v)
        with pytest.raises(ValueError, match=r"v must lie in \[0.5, 1\]"):
            mean_ranks_at(np.ones((2, 3)), np.ones((2, 3)), np.atleast_1d(v))

    def test_the_ends_are_accepted(self):
        assert mean_utility(0.1, 0.2, [0.5, 1.0]) == pytest.approx([0.5, 0.9])

    def test_a_rank_path_checks_its_shapes(self):
        with pytest.raises(ValueError, match="one more value than ranks"):
            RankPath(np.array([0.5, 1.0]), np.ones((2, 3)))
        with pytest.raises(ValueError, match="edges must increase"):
            RankPath(np.array([0.5, 0.9, 0.7, 1.0]), np.ones((3, 2)))
        assert RankPath(np.array([0.5, 1.0]), np.ones((1, 2))).support == (0.5, 1.0)
