"""Optimal sets, lower expectations (Choquet vs LP), maximality, IDM posterior bounds (Yang et al. 2017)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credalbook import costs, decisions
from credalbook.classifiers.naive_bayes import naive_counts
from credalbook.classifiers.cost_sensitive import CostSensitiveNCC, idm_posterior_bounds, stacked_idm_posterior_bounds

TABLE_I = np.array([[0, 1, 2], [1, 0, 2], [4, 4, 0]], dtype=float)
EX3_LOWER = np.array([[0.0, 0.3, 0.4]])
EX3_UPPER = np.array([[0.2, 0.4, 0.6]])


def random_intervals(rng, n, k):
    p = rng.dirichlet(np.ones(k), size=n)
    width = rng.uniform(0, 0.4, (n, k))
    return np.clip(p - width * rng.uniform(size=(n, k)), 0, 1), np.clip(p + width * rng.uniform(size=(n, k)), 0, 1)


def test_example_3_vertices_and_example_4():
    vertices = decisions.interval_vertices(EX3_LOWER[0], EX3_UPPER[0])
    expected = {(0, 0.4, 0.6), (0.2, 0.3, 0.5), (0.2, 0.4, 0.4), (0.1, 0.3, 0.6)}
    assert {tuple(np.round(v, 10)) for v in vertices} == expected
    gains = decisions.pairwise_cost_differences(TABLE_I)
    lower = decisions.lower_expectation_intervals(EX3_LOWER, EX3_UPPER, gains[None])[0]
    assert lower[1, 2] == pytest.approx(0.3)   # E̲[c_n - c_b], at (0.1, 0.3, 0.6)
    assert lower[1, 0] == pytest.approx(0.1)   # E̲[c_h - c_b], at (0.2, 0.3, 0.5)
    assert decisions.maximality_intervals(EX3_LOWER, EX3_UPPER, TABLE_I).tolist() == [[False, True, False]]


def test_lower_probability_of_example_3():
    # P̲(A) = max(Σ_A l, 1 - Σ_{A^c} u): {n}: max(0.4, 0.4) ; {b, n}: max(0.7, 0.8) ; {h}: max(0, 0)
    assert decisions.lower_probability(EX3_LOWER, EX3_UPPER, [False, False, True])[0] == pytest.approx(0.4)
    assert decisions.lower_probability(EX3_LOWER, EX3_UPPER, [False, True, True])[0] == pytest.approx(0.8)
    assert decisions.lower_probability(EX3_LOWER, EX3_UPPER, [True, False, False])[0] == pytest.approx(0.0)
    vertices = decisions.interval_vertices(EX3_LOWER[0], EX3_UPPER[0])
    assert vertices[:, 1:].sum(axis=1).min() == pytest.approx(0.8)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 7), st.integers(0, 10_000))
def test_choquet_equals_lp(k, seed):
    rng = np.random.default_rng(seed)
    lower, upper = random_intervals(rng, 4, k)
    f = rng.normal(size=(4, k))
    np.testing.assert_allclose(decisions.lower_expectation_intervals(lower, upper, f),
                               decisions.lower_expectation_intervals_lp(lower, upper, f), atol=1e-9)
    # and equals the minimum over the enumerated extreme points
    vertices = decisions.interval_vertices(lower[0], upper[0])
    assert decisions.lower_expectation_intervals(lower[:1], upper[:1], f[:1])[0] == pytest.approx((vertices @ f[0]).min())


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10_000))
def test_maximality_against_lp_pairs_and_precise_limit(k, seed):
    rng = np.random.default_rng(seed)
    lower, upper = random_intervals(rng, 3, k)
    cost = rng.uniform(0.5, 3, (k, k)) * (1 - np.eye(k))
    chosen = decisions.maximality_intervals(lower, upper, cost)
    for i in range(3):
        for j in range(k):
            dominated = any(decisions.lower_expectation_lp(cost[j] - cost[a], bounds=list(zip(lower[i], upper[i])))
                            > 1e-9 for a in range(k) if a != j)
            assert chosen[i, j] == (not dominated)
    # precise probabilities: maximality returns the Bayes class (Eq. 2)
    p = rng.dirichlet(np.ones(k), size=5)
    chosen = decisions.maximality_intervals(p, p, cost)
    best = np.argmin(p @ cost.T, axis=1)
    assert chosen[np.arange(5), best].all()


def test_optimal_set_fig_2_regions():
    subsets = [(0,), (1,), (0, 1)]
    q = np.array([0.1, 0.2, 0.5, 0.8, 0.9])   # p(n | x)
    proba = np.column_stack([1 - q, q])
    vi = decisions.optimal_set(proba, subsets, np.array([[0, 2], [4, 0], [0.5, 0.5]]))
    vii = decisions.optimal_set(proba, subsets, np.array([[0, 2], [4, 0], [0.25, 0.75]]))
    # Table VI: {h} below 1/4, {h,n} up to 7/8; Table VII: {h} below 1/6, {n} above 5/6
    assert vi.tolist() == [[1, 0], [1, 0], [1, 1], [1, 1], [0, 1]]
    assert vii.tolist() == [[1, 0], [1, 1], [1, 1], [1, 1], [0, 1]]


def test_optimal_set_with_p_discounted_costs_and_example_5():
    subsets, matrix = costs.p_discounted_cost_matrix(TABLE_I, 0.5)
    chosen = decisions.optimal_set(np.array([[0.5, 0.5, 0.0], [0.0, 0.0, 1.0]]), subsets, matrix)
    assert chosen.tolist() == [[True, True, False], [False, False, True]]
    expected = decisions.expected_costs(np.full((1, 3), 1 / 3), [[0.25, 0.25, 2]])
    assert expected[0, 0] == pytest.approx(5 / 6)


def test_idm_bounds_by_hand_and_limits():
    # one binary feature; class 0: n = 3 (x = 0 twice), class 1: n = 1 (x = 0 never)
    counts = naive_counts(np.array([[0], [0], [1], [1]]), np.array([0, 0, 0, 1]), 2, np.array([2]))
    lower, upper = idm_posterior_bounds(counts, np.array([[0]]), s=1.0)
    # Eq. 23 for class 0: vertices p = (4/5, 1/5) and (3/5, 2/5); p̲(x|0) = 2/4, p̄(x|1) = 1/2
    candidates = [(a * 0.5) / (a * 0.5 + b * 0.5) for a, b in [(0.8, 0.2), (0.6, 0.4)]]
    assert lower[0, 0] == pytest.approx(min(candidates))
    assert lower[0, 1] == 0.0                       # occ(x, 1) = 0: lower posterior 0
    # Eq. 24 for class 1: p̄(x|1) = 1/2, p̲(x|0) = 2/4, best vertex (3/5, 2/5)
    assert upper[0, 1] == pytest.approx(0.4 * 0.5 / (0.4 * 0.5 + 0.6 * 0.5))
    assert np.all(lower <= upper + 1e-12) and lower.sum() <= 1 + 1e-12 <= upper.sum() + 2e-12
    # s -> 0: bounds shrink to the naive Bayes posterior with maximum-likelihood estimates
    lower, upper = idm_posterior_bounds(counts, np.array([[1]]), s=1e-9)
    nb = np.array([3 * 1 / 3, 1 * 1 / 1]) / 4
    np.testing.assert_allclose(lower[0], nb / nb.sum(), atol=1e-6)
    np.testing.assert_allclose(upper[0], nb / nb.sum(), atol=1e-6)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 12), st.integers(2, 9), st.sampled_from([0.001, 0.5, 2.0]))
def test_stacked_bounds_are_each_models_bounds_exactly(seed, d, k, s):
    rng = np.random.default_rng(seed)
    n_values = rng.integers(1, 5, d)
    X = rng.integers(0, n_values, (60, d))
    X[rng.random(X.shape) < 0.1] = -1                                   # missing values are dropped
    models = [naive_counts(X, rng.integers(0, k, 60), k, n_values) for _ in range(3)]
    lower, upper = stacked_idm_posterior_bounds(np.array([m.class_counts for m in models]),
                                                np.array([m.table for m in models]),
                                                np.array([m.observed for m in models]), models[0].used, X, s)
    for j, model in enumerate(models):   # bit for bit: nested dichotomies batch their nodes' classifiers
        single = idm_posterior_bounds(model, X, s)
        np.testing.assert_array_equal(lower[:, j], single[0])
        np.testing.assert_array_equal(upper[:, j], single[1])


def test_cost_sensitive_ncc_more_indeterminate_with_larger_s():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, (200, 3))
    y = (X[:, 0] + rng.integers(0, 2, 200)) % 4
    cost = costs.ordinal_cost_matrix(4)
    sizes = [CostSensitiveNCC(s=s, cost=cost).fit(X, y).predict_set(X).sum(axis=1).mean()
             for s in (0.01, 1, 10, 100)]
    assert sizes == sorted(sizes) and sizes[-1] > sizes[0]
    model = CostSensitiveNCC(s=1, cost=cost).fit(X, y)
    assert np.isin(model.predict(X), model.classes_).all()


class TestBadInput:
    def test_intervals(self):
        with pytest.raises(ValueError, match="empty credal set"):
            decisions.lower_expectation_intervals([[0.6, 0.6]], [[0.7, 0.7]], [[1.0, 0.0]])
        with pytest.raises(ValueError, match="exceeds"):
            decisions.reachable_intervals([[0.5, 0.2]], [[0.4, 0.9]])
        with pytest.raises(ValueError, match="same"):
            decisions.check_intervals([[0.5, 0.5]], [[1.0, 1.0, 1.0]])
        with pytest.raises(ValueError, match="shape"):
            decisions.lower_expectation_intervals(EX3_LOWER, EX3_UPPER, [[1.0, 2.0]])

    def test_costs_and_probabilities(self):
        with pytest.raises(ValueError, match="square"):
            decisions.maximality_intervals(EX3_LOWER, EX3_UPPER, np.ones((3, 2)))
        with pytest.raises(ValueError, match="non-negative"):
            decisions.maximality_intervals(EX3_LOWER, EX3_UPPER, -TABLE_I)
        with pytest.raises(ValueError, match="classes"):
            decisions.maximality_intervals(EX3_LOWER, EX3_UPPER, np.ones((4, 4)))
        with pytest.raises(ValueError, match="sum to one"):
            decisions.optimal_set([[0.5, 0.6, 0.1]], costs.subsets(3), np.zeros((7, 3)))
        with pytest.raises(ValueError, match="rows"):
            decisions.optimal_set([[0.5, 0.5, 0.0]], costs.subsets(3), np.zeros((6, 3)))
        with pytest.raises(ValueError, match="empty set"):
            decisions.optimal_set([[0.5, 0.5]], [(0,), ()], np.zeros((2, 2)))

    def test_ncc(self):
        with pytest.raises(ValueError, match="s must be"):
            CostSensitiveNCC(s=0).fit([[0], [1]], [0, 1])
        with pytest.raises(ValueError, match="NaiveCounts"):
            idm_posterior_bounds({"class_counts": [1, 1]}, np.zeros((1, 1), int), 1.0)
        with pytest.raises(ValueError, match="cost is for 3 classes"):
            CostSensitiveNCC(s=1, cost=np.ones((3, 3))).fit([[0], [1]], [0, 1])

    def test_stacked_bounds(self):
        counts = naive_counts(np.array([[0], [1]]), np.array([0, 1]), 2, np.array([2]))
        args = dict(class_counts=counts.class_counts[None], table=counts.table[None], observed=counts.observed[None],
                    used=counts.used, codes=np.zeros((1, 1), int), s=1.0)
        for name, value, match in [("class_counts", counts.class_counts, "class_counts must be 2-dimensional"),
                                   ("table", counts.table, "table must be 4-dimensional"),
                                   ("table", np.zeros((1, 1, 3, 2)), "table must have shape"),
                                   ("observed", np.zeros((2, 1, 2)), "observed must have shape"),
                                   ("used", np.ones(2, bool), "used must have shape"),
                                   ("codes", np.zeros(3, int), "codes must be 2-dimensional"),
                                   ("s", 0.0, "s must be")]:
            with pytest.raises(ValueError, match=match):
                stacked_idm_posterior_bounds(**{**args, name: value})


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([0.5, 1.0, 2.0]))
def test_interval_approximation_is_more_cautious_than_exact_ncc(seed, s):
    """Footnote 2 of Section VII-B: with 0/1 costs, the interval bounds give supersets of the NCC's credal dominance."""
    from credalbook.classifiers.ncc import NaiveCredalClassifier

    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, (80, 3))
    y = (X[:, 0] + rng.integers(0, 2, 80)) % 3
    approximate = CostSensitiveNCC(s=s).fit(X, y).predict_set(X)
    exact = NaiveCredalClassifier(s=s).fit(X, y).predict_set(X)
    assert np.all(approximate >= exact)


class TestDecisionRules:
    """The rules the classifiers decide with, on hand-worked cases."""

    def test_undominated(self):
        dominates = np.zeros((1, 3, 3), dtype=bool)
        dominates[0, 0, 2] = True  # class 0 dominates class 2
        np.testing.assert_array_equal(decisions.undominated(dominates), [[True, True, False]])
        with pytest.raises(ValueError, match=r"\(\.\.\., K, K\)"):
            decisions.undominated(np.zeros((2, 3)))

    def test_interval_dominance(self):
        lower, upper = np.array([[0.5, 0.2, 0.1]]), np.array([[0.7, 0.5, 0.3]])
        np.testing.assert_array_equal(decisions.interval_dominance(lower, upper), [[True, True, False]])
        touching = (np.array([[0.5, 0.2]]), np.array([[0.7, 0.5]]))
        np.testing.assert_array_equal(decisions.interval_dominance(*touching), [[True, True]])
        np.testing.assert_array_equal(decisions.interval_dominance(*touching, ties_dominate=True), [[True, False]])
        with pytest.raises(ValueError, match="lower <= upper"):
            decisions.interval_dominance([[0.6, 0.1]], [[0.5, 0.2]])

    def test_idm_leaves_are_interval_dominance_on_counts(self):
        from credalbook.classifiers.credal_tree import idm_undominated

        counts = np.array([[5, 4, 3, 0]])
        np.testing.assert_array_equal(idm_undominated(counts, 1.0), [[True, True, False, False]])
        np.testing.assert_array_equal(idm_undominated(counts, 1.0, tie_dominates=True), [[True, False, False, False]])
        np.testing.assert_array_equal(idm_undominated(counts, 2.0), [[True, True, True, False]])

    def test_threshold_sets(self):
        proba = np.array([[0.85, 0.15], [0.6, 0.4]])
        np.testing.assert_array_equal(decisions.threshold_sets(proba, 0.8), [[True, False], [True, True]])
        with pytest.raises(ValueError, match="threshold must be <= 1"):
            decisions.threshold_sets(proba, 1.5)

    def test_f_beta_sets_by_hand(self):
        # E(1) = 0.5, E(2) = 2 (0.8) / 3 = 0.533, E(3) = 2 / 4 = 0.5 for beta = 1
        np.testing.assert_allclose(decisions.expected_f_beta([[0.5, 0.3, 0.2]]), [[0.5, 1.6 / 3, 0.5]])
        np.testing.assert_array_equal(decisions.f_beta_sets([[0.3, 0.5, 0.2]]), [[True, True, False]])


def test_every_classifier_is_exported_from_the_package():
    import credalbook.classifiers as classifiers

    for name in classifiers.__all__:
        assert getattr(classifiers, name).__module__.startswith("credalbook.classifiers")
    assert {"NaiveCredalClassifier", "CostSensitiveNCC", "RejectionClassifier"} <= set(classifiers.__all__)
