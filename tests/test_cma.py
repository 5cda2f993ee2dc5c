"""Tests of credal model averaging (credalbook.classifiers.cma).

The oracle is an independent brute force: the Bayesian model average summed explicitly over
all 2^k feature subsets, with marginal likelihoods computed by the chain rule (sequential
Dirichlet updating), minimised over a grid of inclusion probabilities in [t_low, t_high]^k.
"""
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import logsumexp
from sklearn.base import clone

from credalbook.classifiers.cma import CredalModelAveraging, log_marginal_likelihoods


def sequential_log_ml(values, parents, n_values, n_parent_values, s):
    """Chain-rule marginal likelihood of a column given a parent column (BDeu, ESS ``s``)."""
    cell = s / (n_values * n_parent_values)
    column = s / n_parent_values
    counts = np.zeros((n_values, n_parent_values))
    total = 0.0
    for v, p in zip(values, parents):
        total += np.log((counts[v, p] + cell) / (counts[:, p].sum() + column))
        counts[v, p] += 1
    return total


def brute_log_joint(X, y, x, t, s, n_classes, n_values):
    """log P_t(c, x | D) up to a constant, summed over all feature subsets explicitly."""
    d = X.shape[1]
    log_prior_c = np.log((np.bincount(y, minlength=n_classes) + s / n_classes) / (len(y) + s))
    terms = []
    for subset in itertools.product([False, True], repeat=d):
        total = np.array(log_prior_c)
        for i, with_arc in enumerate(subset):
            m = n_values[i]
            if with_arc:
                total = total + np.log(t[i]) + sequential_log_ml(X[:, i], y, m, n_classes, s)
                cond = np.array([(np.sum((X[:, i] == x[i]) & (y == c)) + s / (n_classes * m))
                                 / (np.sum(y == c) + s / n_classes) for c in range(n_classes)])
                total = total + np.log(cond)
            else:
                total = total + np.log1p(-t[i]) + sequential_log_ml(X[:, i], np.zeros_like(y), m, 1, s)
                total = total + np.log((np.sum(X[:, i] == x[i]) + s / m) / (len(y) + s))
        terms.append(total)
    return logsumexp(np.array(terms), axis=0)


def random_problem(rng, n=12, d=2, n_classes=3, n_values=3):
    X = rng.integers(0, n_values, size=(n, d))
    y = rng.integers(0, n_classes, size=n)
    y[:n_classes] = np.arange(n_classes)
    return X, y


def test_marginal_likelihoods_match_chain_rule():
    rng = np.random.default_rng(0)
    for _ in range(20):
        x = rng.integers(0, 3, size=15)
        c = rng.integers(0, 2, size=15)
        table = np.zeros((3, 2))
        np.add.at(table, (x, c), 1)
        s = float(rng.uniform(0.5, 3))
        ml_c, ml_0 = log_marginal_likelihoods(table, s)
        assert ml_c == pytest.approx(sequential_log_ml(x, c, 3, 2, s), rel=1e-12)
        assert ml_0 == pytest.approx(sequential_log_ml(x, np.zeros_like(c), 3, 1, s), rel=1e-12)


def test_marginal_likelihood_hand_computed():
    # one value observed once in class 0 of two classes, m = 1 value, s = 1:
    # with the arc: Gamma(1/2)/Gamma(3/2) * Gamma(3/2)/Gamma(1/2) = 1; without: Gamma(1)/Gamma(2) * Gamma(2)/Gamma(1) = 1
    ml_c, ml_0 = log_marginal_likelihoods(np.array([[1.0, 0.0]]), 1.0)
    assert ml_c == pytest.approx(0.0, abs=1e-12) and ml_0 == pytest.approx(0.0, abs=1e-12)
    # two values, one instance (value 0, class 0), s = 1: P = (1/4)/(1/2) = 1/2 with the arc, (1/2)/1 without
    ml_c, ml_0 = log_marginal_likelihoods(np.array([[1.0, 0.0], [0.0, 0.0]]), 1.0)
    assert ml_c == pytest.approx(np.log(0.5)) and ml_0 == pytest.approx(np.log(0.5))


@pytest.mark.parametrize("seed", range(8))
def test_min_log_ratio_equals_grid_search_over_the_credal_set(seed):
    rng = np.random.default_rng(seed)
    d = 2 if seed % 2 else 3
    X, y = random_problem(rng, n=14, d=d, n_classes=3, n_values=3)
    model = CredalModelAveraging(s=1.0, t_low=0.1, t_high=0.9).fit(X, y)
    queries = rng.integers(0, 3, size=(4, d))
    ratios = model.min_log_ratios(queries)
    grid = np.linspace(0.1, 0.9, 5)
    for q, x in enumerate(queries):
        joints = np.array([brute_log_joint(X, y, x, t, 1.0, 3, [3] * d)
                           for t in itertools.product(grid, repeat=d)])  # (grid, K)
        brute = (joints[:, :, None] - joints[:, None, :]).min(axis=0)
        np.testing.assert_allclose(ratios[q], brute, atol=1e-9)
        brute_set = ~(brute > 1e-10).any(axis=0)
        np.testing.assert_array_equal(model.predict_set(x[None, :])[0], brute_set)


def test_precise_prior_gives_the_bayesian_model_average():
    rng = np.random.default_rng(3)
    X, y = random_problem(rng, n=20, d=3, n_classes=2, n_values=2)
    model = CredalModelAveraging(t_low=0.5, t_high=0.5).fit(X, y)
    x = X[0]
    joint = brute_log_joint(X, y, x, [0.5] * 3, 1.0, 2, [2] * 3)
    np.testing.assert_allclose(model.predict_proba(x[None, :])[0], np.exp(joint - logsumexp(joint)), rtol=1e-10)
    # a single prior: the set is the argmax (no ties here)
    assert model.predict_set(x[None, :]).sum() == 1


def test_symmetric_data_is_indeterminate_and_strong_evidence_is_determinate():
    X = np.array([[0], [1]] * 3)
    y = np.array([0, 1] * 3)
    swap = np.array([[0], [1]] * 3)
    model = CredalModelAveraging().fit(np.vstack([X, swap]), np.concatenate([y, 1 - y]))
    assert model.predict_set(np.array([[0], [1]])).all()  # perfectly balanced: nothing dominates
    X = np.repeat(np.array([[0], [1]]), 30, axis=0)
    y = np.repeat([0, 1], 30)
    model = CredalModelAveraging().fit(X, y)
    np.testing.assert_array_equal(model.predict_set(np.array([[0], [1]])), [[True, False], [False, True]])
    np.testing.assert_array_equal(model.predict(np.array([[0], [1]])), [0, 1])


def test_missing_test_value_drops_the_feature():
    rng = np.random.default_rng(5)
    X, y = random_problem(rng, n=15, d=2)
    model = CredalModelAveraging().fit(X, y)
    only_first = CredalModelAveraging().fit(X[:, :1], y)
    q = np.array([[1, -1], [2, -1]])
    np.testing.assert_allclose(model.min_log_ratios(q), only_first.min_log_ratios(q[:, :1]), atol=1e-12)


def numpy_min_log_ratios(model, Xc):
    """The (n, d, K, K) NumPy statement that the compiled kernel replaces: each instance's factors
    gathered before the logarithms, the pairwise differences, their minimum summed over features."""
    from credalbook.discrete import MISSING

    def terms(t):
        rows, cols = np.clip(Xc, 0, None), np.arange(Xc.shape[1])[None, :]
        with_arc = np.log(t) + model.log_bayes_factor_[None, :, None] + model.log_cond_[cols, rows]
        without = np.log1p(-t) + model.log_marg_[cols, rows]
        return np.where((Xc == MISSING)[:, :, None], 0.0, np.logaddexp(with_arc, without[:, :, None]))

    low, high = terms(model.t_low), terms(model.t_high)
    prior = model.log_class_prior_[:, None] - model.log_class_prior_[None, :]
    return prior[None] + np.minimum(low[:, :, :, None] - low[:, :, None, :],
                                    high[:, :, :, None] - high[:, :, None, :]).sum(axis=1)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 9), st.integers(2, 6))
def test_min_log_ratios_are_bit_identical_to_the_numpy_statement(seed, d, n_classes):
    rng = np.random.default_rng(seed)
    X, y = random_problem(rng, n=40, d=d, n_classes=n_classes, n_values=4)
    X[rng.random(X.shape) < 0.1] = -1
    model = CredalModelAveraging(t_low=0.2, t_high=0.7).fit(X, y)
    queries = rng.integers(-1, 4, size=(30, d))
    ratios = model.min_log_ratios(queries)
    assert ratios.tobytes() == numpy_min_log_ratios(model, model._code_test(queries)).tobytes()


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.05, 0.45), st.floats(0.0, 0.04))
def test_sets_are_nested_in_the_interval_and_contain_the_centre_argmax(seed, low, shrink):
    rng = np.random.default_rng(seed)
    X, y = random_problem(rng, n=25, d=3, n_classes=3, n_values=3)
    wide = CredalModelAveraging(t_low=low, t_high=1 - low).fit(X, y)
    narrow = CredalModelAveraging(t_low=low + shrink, t_high=1 - low - shrink).fit(X, y)
    sets_wide, sets_narrow = wide.predict_set(X), narrow.predict_set(X)
    assert sets_wide.any(axis=1).all()
    assert not (sets_narrow & ~sets_wide).any()
    best = wide.predict_proba(X).argmax(axis=1)
    assert sets_wide[np.arange(len(X)), best].all()
    assert sets_wide[np.arange(len(X)), wide.predict(X)].all()


def test_clone_and_categorical_input():
    import pandas as pd

    frame = pd.DataFrame({"a": pd.Categorical(["x", "y", "x", "y"], categories=["x", "y", "z"])})
    model = clone(CredalModelAveraging(t_low=0.2)).fit(frame, ["p", "q", "p", "q"])
    assert model.n_values_.tolist() == [3]
    assert model.predict_set(frame).shape == (4, 2)


class TestBadInput:
    def test_interval_parameters(self):
        X, y = np.array([[0], [1]]), np.array([0, 1])
        with pytest.raises(ValueError, match="t_low must be <= t_high"):
            CredalModelAveraging(t_low=0.9, t_high=0.1).fit(X, y)
        with pytest.raises(ValueError, match="t_low"):
            CredalModelAveraging(t_low=0.0).fit(X, y)
        with pytest.raises(ValueError, match="t_high"):
            CredalModelAveraging(t_high=1.0).fit(X, y)
        with pytest.raises(ValueError, match="s must be"):
            CredalModelAveraging(s=0).fit(X, y)

    def test_data(self):
        with pytest.raises(ValueError, match="non-integer"):
            CredalModelAveraging().fit(np.array([[0.5], [1]]), [0, 1])
        with pytest.raises(ValueError, match="at least two classes"):
            CredalModelAveraging().fit(np.array([[0], [1]]), [0, 0])
        with pytest.raises(ValueError, match="inconsistent"):
            CredalModelAveraging().fit(np.array([[0], [1]]), [0, 1, 1])
        model = CredalModelAveraging().fit(np.array([[0, 1], [1, 0]]), [0, 1])
        with pytest.raises(ValueError, match="features"):
            model.predict_set(np.array([[0]]))

    def test_marginal_likelihood_table(self):
        with pytest.raises(ValueError, match="table"):
            log_marginal_likelihoods(np.array([1.0, 2.0]))
        with pytest.raises(ValueError, match="non-negative"):
            log_marginal_likelihoods(np.array([[1.0, -1.0]]))
        with pytest.raises(ValueError, match="s must be"):
            log_marginal_likelihoods(np.array([[1.0, 1.0]]), s=-1)
