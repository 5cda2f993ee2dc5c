"""Scores of set-valued predictions: hand-computed cases, paper values, invariants."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.base import BaseEstimator

from credalbook import metrics
from credalbook.metrics import (
    average_set_size,
    certainty_equivalent,
    determinacy,
    discounted_accuracy,
    discounted_accuracy_scores,
    f_beta_set,
    f_beta_set_scores,
    quadratic_utility,
    recall_set,
    set_accuracy,
    single_accuracy,
    utility_discounted_accuracy,
    utility_discounted_accuracy_scores,
)
from credalbook.sets import sets_from_lists

# Four instances, K = 3: a correct singleton, a wrong singleton, a correct pair, the vacuous set.
Y_TRUE = np.array([0, 1, 2, 0])
Y_SET = sets_from_lists([{0}, {2}, {1, 2}, {0, 1, 2}], 3)


def test_discounted_accuracy_hand_computed():
    np.testing.assert_allclose(discounted_accuracy_scores(Y_TRUE, Y_SET), [1, 0, 1 / 2, 1 / 3])
    assert discounted_accuracy(Y_TRUE, Y_SET) == pytest.approx((1 + 0 + 0.5 + 1 / 3) / 4)


def test_quadratic_utilities_of_section_9():
    # u65(x) = -0.6 x^2 + 1.6 x and u80(x) = -1.2 x^2 + 2.2 x: the values at 1/2 identify them.
    assert quadratic_utility(0.65).coefficients == pytest.approx((-0.6, 1.6))
    assert quadratic_utility(0.8).coefficients == pytest.approx((-1.2, 2.2))
    assert quadratic_utility(0.5).coefficients == pytest.approx((0.0, 1.0))
    for u_half in (0.5, 0.65, 0.8):
        u = quadratic_utility(u_half)
        assert u(0.0) == 0 and u(1.0) == pytest.approx(1) and u(0.5) == pytest.approx(u_half)


def test_utility_discounted_accuracy_hand_computed():
    u65 = quadratic_utility(0.65)
    expected = np.array([1, 0, 0.65, u65(1 / 3)])
    assert u65(1 / 3) == pytest.approx(-0.6 / 9 + 1.6 / 3)
    np.testing.assert_allclose(utility_discounted_accuracy_scores(Y_TRUE, Y_SET, u=0.65), expected)
    assert utility_discounted_accuracy(Y_TRUE, Y_SET, 0.8) == pytest.approx((1 + 0 + 0.8 + (-1.2 / 9 + 2.2 / 3)) / 4)


def test_table_10_binary_values():
    # Zaffalon et al. Table 10 (binary problem): for the correct set {c1, c2} the scores are
    # precision 0.5, recall 1, F1 = 2/3, F2 = 5/6, u65 = 0.65, u80 = 0.8.
    y, s = np.array([0]), sets_from_lists([{0, 1}], 2)
    assert discounted_accuracy(y, s) == 0.5
    assert recall_set(y, s) == 1.0
    assert f_beta_set(y, s, 1) == pytest.approx(2 / 3)
    assert f_beta_set(y, s, 2) == pytest.approx(5 / 6)
    assert utility_discounted_accuracy(y, s, 0.65) == pytest.approx(0.65)
    assert utility_discounted_accuracy(y, s, 0.8) == pytest.approx(0.8)


def test_f_beta_hand_computed():
    np.testing.assert_allclose(f_beta_set_scores(Y_TRUE, Y_SET, 1.0), [1, 0, 2 / 3, 2 / 4])


def test_determinacy_and_conditional_accuracies():
    assert determinacy(Y_SET) == 0.5
    assert average_set_size(Y_SET) == pytest.approx((1 + 1 + 2 + 3) / 4)
    assert single_accuracy(Y_TRUE, Y_SET) == 0.5
    assert set_accuracy(Y_TRUE, Y_SET) == 1.0
    determinate = sets_from_lists([{0}, {1}], 2)
    assert np.isnan(set_accuracy(np.array([0, 0]), determinate))


def test_certainty_equivalent_inverts_the_utility():
    value = certainty_equivalent(Y_TRUE, Y_SET, 0.8)
    assert quadratic_utility(0.8)(value) == pytest.approx(utility_discounted_accuracy(Y_TRUE, Y_SET, 0.8))
    assert 0 <= value <= 1
    # risk-neutral utility: the certainty equivalent is the discounted accuracy itself
    assert certainty_equivalent(Y_TRUE, Y_SET, 0.5) == pytest.approx(discounted_accuracy(Y_TRUE, Y_SET))
    # a callable utility goes through numerical inversion
    sqrt_value = certainty_equivalent(Y_TRUE, Y_SET, np.sqrt)
    assert np.sqrt(sqrt_value) == pytest.approx(np.mean(np.sqrt([1, 0, 0.5, 1 / 3])))


def test_certainty_equivalent_of_a_perfect_classifier_is_one():
    perfect = sets_from_lists([{0}, {1}, {2}], 3)
    for u in (0.5, 0.65, 0.8, 0.95):
        assert certainty_equivalent(np.array([0, 1, 2]), perfect, u) == 1.0
    # precise classifier of accuracy A: the certainty equivalent is u^{-1}(A) <= A
    half = sets_from_lists([{0}, {0}], 3)
    value = certainty_equivalent(np.array([0, 1]), half, 0.65)
    assert value == pytest.approx(quadratic_utility(0.65).inverse(0.5)) and value < 0.5


def test_callable_utility_is_looked_up():
    log_utility = lambda x: np.log1p(x) / np.log(2)  # noqa: E731 - concave, u(0)=0, u(1)=1
    np.testing.assert_allclose(utility_discounted_accuracy_scores(Y_TRUE, Y_SET, log_utility),
                               log_utility(np.array([1, 0, 0.5, 1 / 3])))


@st.composite
def predictions(draw):
    n = draw(st.integers(1, 30))
    k = draw(st.integers(2, 8))
    y_set = draw(arrays(bool, (n, k)))
    y_set[np.arange(n), draw(arrays(np.int64, n, elements=st.integers(0, k - 1)))] = True  # no empty set
    y_true = draw(arrays(np.int64, n, elements=st.integers(0, k - 1)))
    return y_true, y_set


@given(predictions())
@settings(max_examples=200, deadline=None)
def test_risk_aversion_orders_the_scores(data):
    y_true, y_set = data
    da = discounted_accuracy_scores(y_true, y_set)
    u65 = utility_discounted_accuracy_scores(y_true, y_set, 0.65)
    u80 = utility_discounted_accuracy_scores(y_true, y_set, 0.8)
    assert np.all(da <= u65 + 1e-12) and np.all(u65 <= u80 + 1e-12)
    for scores in (da, u65, u80):
        assert np.all((scores >= 0) & (scores <= 1 + 1e-12))
    np.testing.assert_allclose(utility_discounted_accuracy_scores(y_true, y_set, 0.5), da)


@given(predictions())
@settings(max_examples=100, deadline=None)
def test_determinate_predictions_score_the_same_under_every_utility(data):
    y_true, y_set = data
    single = np.zeros_like(y_set)
    single[np.arange(len(y_true)), y_set.argmax(axis=1)] = True
    reference = discounted_accuracy_scores(y_true, single)
    for u in (0.5, 0.65, 0.8, 0.95):
        np.testing.assert_array_equal(utility_discounted_accuracy_scores(y_true, single, u), reference)
    np.testing.assert_array_equal(f_beta_set_scores(y_true, single, 2.0), reference)


@given(predictions())
@settings(max_examples=100, deadline=None)
def test_one_pass_aggregates_equal_the_means_of_the_instance_scores(data):
    # the aggregates are weighted sums of the (set size, hit) counts; the scores are per instance
    y_true, y_set = data
    found = metrics.set_metrics(y_true, y_set, utilities=(0.65, 0.8), beta=2.0)
    sizes = y_set.sum(axis=1)
    hits = y_set[np.arange(len(y_true)), y_true]
    expected = {"discounted_accuracy": discounted_accuracy_scores(y_true, y_set).mean(),
                "u65": utility_discounted_accuracy_scores(y_true, y_set, 0.65).mean(),
                "u80": utility_discounted_accuracy_scores(y_true, y_set, 0.8).mean(),
                "f_beta": f_beta_set_scores(y_true, y_set, 2.0).mean(), "recall": hits.mean(),
                "determinacy": (sizes == 1).mean(), "average_set_size": sizes.mean(),
                "single_accuracy": hits[sizes == 1].mean() if (sizes == 1).any() else np.nan,
                "set_accuracy": hits[sizes > 1].mean() if (sizes > 1).any() else np.nan}
    for key, value in expected.items():
        np.testing.assert_allclose(found[key], value, rtol=1e-12, atol=1e-15, err_msg=key)
    assert metrics.utility_discounted_accuracy(y_true, y_set, 0.8) == found["u80"]
    assert metrics.f_beta_set(y_true, y_set, 2.0) == found["f_beta"]
    np.testing.assert_array_equal(metrics.size_hit_counts(y_true, y_set).sum(axis=1),
                                  np.bincount(sizes, minlength=y_set.shape[1] + 1))


@given(st.integers(1, 40), st.integers(1, 12), st.integers(0, 9), st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_size_hit_counts_is_the_histogram_of_size_and_hit_at_any_byte_offset(n, k, offset, seed):
    """The compiled pass reads the bytes eight at a time: rows that straddle words, tails and
    matrices starting at an odd address (a slice of a larger array) count as the plain histogram."""
    rng = np.random.default_rng(seed)
    larger = rng.random((n + 1, k)) < 0.4
    larger[np.arange(n + 1), rng.integers(0, k, n + 1)] = True
    flat = np.concatenate([np.zeros(offset, dtype=bool), larger.ravel()])
    y_set = flat[offset:].reshape(n + 1, k)[1:]          # contiguous, starting ``k + offset`` bytes in
    y_true = rng.integers(0, k, n)
    expected = np.zeros((k + 1, 2), dtype=np.int64)
    np.add.at(expected, (y_set.sum(axis=1), y_set[np.arange(n), y_true].astype(int)), 1)
    np.testing.assert_array_equal(metrics.size_hit_counts(y_true, y_set), expected)


def test_vectorised_speed_one_million_predictions():
    import time

    rng = np.random.default_rng(0)
    n, k = 1_000_000, 10
    y_set = rng.random((n, k)) < 0.2
    y_set[np.arange(n), rng.integers(0, k, n)] = True
    y_true = rng.integers(0, k, n)
    start = time.perf_counter()
    utility_discounted_accuracy_scores(y_true, y_set, 0.65)
    assert time.perf_counter() - start < 1.0


def test_bench_utility_discounted_accuracy(benchmark):
    rng = np.random.default_rng(1)
    n, k = 1_000_000, 10
    y_set = rng.random((n, k)) < 0.2
    y_set[np.arange(n), rng.integers(0, k, n)] = True
    y_true = rng.integers(0, k, n)
    result = benchmark(utility_discounted_accuracy, y_true, y_set, 0.65)
    assert 0 < result < 1


class TestBadInput:
    @pytest.mark.parametrize("function", [
        metrics.discounted_accuracy, metrics.utility_discounted_accuracy, metrics.f_beta_set,
        metrics.recall_set, metrics.single_accuracy, metrics.set_accuracy, metrics.certainty_equivalent,
    ])
    def test_every_metric_rejects_malformed_input(self, function):
        with pytest.raises(ValueError, match="empty predicted sets"):
            function(np.array([0, 1]), np.array([[True, False], [False, False]]))
        with pytest.raises(ValueError, match="outside the 2 classes"):
            function(np.array([0, 2]), np.array([[True, False], [False, True]]))
        with pytest.raises(ValueError, match="instances"):
            function(np.array([0, 1, 1]), np.array([[True, False], [False, True]]))
        with pytest.raises(ValueError, match="matrix"):
            function(np.array([0, 1]), np.array([True, False]))
        with pytest.raises(ValueError, match="0/1"):
            function(np.array([0, 1]), np.array([[2, 0], [0, 1]]))
        with pytest.raises(ValueError, match="integer class indices"):
            function(np.array([0.5, 1]), np.array([[True, False], [False, True]]))
        with pytest.raises(ValueError, match="empty"):
            function(np.array([], dtype=int), np.zeros((0, 2), dtype=bool))

    @pytest.mark.parametrize("function", [metrics.determinacy, metrics.average_set_size])
    def test_set_only_metrics_reject_empty_sets(self, function):
        with pytest.raises(ValueError, match="empty predicted sets"):
            function(np.array([[True, False], [False, False]]))

    def test_utility_checks(self):
        with pytest.raises(ValueError, match="u_half"):
            quadratic_utility(1.0)
        with pytest.raises(ValueError, match="u_half"):
            quadratic_utility(0.3)
        with pytest.raises(ValueError, match=r"u\(0\) = 0 and u\(1\) = 1"):
            utility_discounted_accuracy(Y_TRUE, Y_SET, lambda x: 2 * x)
        with pytest.raises(ValueError, match="risk-seeking"):
            utility_discounted_accuracy(Y_TRUE, Y_SET, lambda x: x**2)
        with pytest.raises(ValueError, match="non-decreasing"):
            utility_discounted_accuracy(Y_TRUE, Y_SET, lambda x: np.where(x == 0.5, 1.5, np.sqrt(x)))
        with pytest.raises(ValueError, match="beta"):
            f_beta_set(Y_TRUE, Y_SET, beta=0)


def _python_loop_u65(y_true, sets):
    """The obvious baseline: one Python iteration per instance."""
    total = 0.0
    for label, members in zip(y_true, sets):
        x = (1.0 / len(members)) if label in members else 0.0
        total += -0.6 * x * x + 1.6 * x
    return total / len(y_true)


def test_bench_python_loop_baseline(benchmark):
    rng = np.random.default_rng(1)
    n, k = 100_000, 10  # a tenth of the vectorised benchmark's size
    y_set = rng.random((n, k)) < 0.2
    y_set[np.arange(n), rng.integers(0, k, n)] = True
    y_true = rng.integers(0, k, n)
    sets = [set(np.flatnonzero(row).tolist()) for row in y_set]
    result = benchmark(_python_loop_u65, y_true.tolist(), sets)
    assert result == pytest.approx(utility_discounted_accuracy(y_true, y_set, 0.65))
