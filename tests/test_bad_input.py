"""Every public evaluation function of the book rejects malformed input with a clear message.

One table across modules: for each function, each kind of bad input must raise ``ValueError``
whose message names the problem — never a NaN, a NumPy warning or a traceback from inside
NumPy. (Each module's own tests hold further, module-specific bad-input cases.)
"""
import warnings

import numpy as np
import pytest

import pandas as pd

from credalbook import certainty, costs, costspace, decisions, metrics, stats

SETS = np.array([[True, False], [True, True]])
PROBA = np.array([[0.7, 0.3], [0.2, 0.8]])
SCORES = np.array([0.2, 0.9, 0.4, 0.6])
BINARY = np.array([0, 1, 0, 1])
COST = np.array([[0.0, 1.0], [1.0, 0.0]])

SET_METRICS = [metrics.discounted_accuracy, metrics.utility_discounted_accuracy, metrics.f_beta_set,
               metrics.certainty_equivalent, metrics.recall_set]
PROBA_METRICS = [certainty.probabilistic_confusion_matrix, certainty.certainty_ratio,
                 certainty.probabilistic_divergence, certainty.imcp_score, certainty.mcp_score,
                 certainty.certainty_decomposition]
SCORE_METRICS = [lambda y, s: costspace.expected_loss(y, s, "score-driven", 1.0),
                 lambda y, s: costspace.expected_loss(y, s, "test-optimal", 0.0),
                 costspace.brier_score]

CASES = {
    "set metrics": [
        (lambda f: f(np.array([0, 1]), np.array([[True, False], [False, False]])), "empty"),
        (lambda f: f(np.array([0, 5]), SETS), "outside"),
        (lambda f: f(np.array([0]), SETS), "instances"),
        (lambda f: f(np.array([0, 1]), np.array([True, True])), "matrix"),
        (lambda f: f(np.array([], dtype=int), np.zeros((0, 2), bool)), "empty"),
    ],
    "probability metrics": [
        (lambda f: f(np.array([0, 1]), np.array([[0.7, 0.2], [0.2, 0.8]])), "sum to one"),
        (lambda f: f(np.array([0, 2]), PROBA), "outside"),
        (lambda f: f(np.array([0, 1, 1]), PROBA), "instances|length|rows"),
        (lambda f: f(np.array([0, 1]), np.array([[1.2, -0.2], [0.2, 0.8]])), r"\[0, 1\]|negative"),
        (lambda f: f(np.array([0, 1]), np.array([[np.nan, 0.5], [0.2, 0.8]])), "NaN|finite"),
    ],
    "score metrics": [
        (lambda f: f(np.array([0, 0, 0, 0]), SCORES), "one class|both classes"),
        (lambda f: f(BINARY[:3], SCORES), "length|instances"),
        (lambda f: f(np.array([0, 2, 0, 1]), SCORES), "outside the 2 classes"),
    ],
}


def _run(call, function, match):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a NumPy RuntimeWarning would be a silent NaN in the making
        with pytest.raises(ValueError, match=match):
            call(function)


@pytest.mark.parametrize("function", SET_METRICS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("case", range(len(CASES["set metrics"])))
def test_set_metrics(function, case):
    call, match = CASES["set metrics"][case]
    _run(call, function, match)


@pytest.mark.parametrize("function", PROBA_METRICS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("case", range(len(CASES["probability metrics"])))
def test_probability_metrics(function, case):
    call, match = CASES["probability metrics"][case]
    _run(call, function, match)


@pytest.mark.parametrize("function", SCORE_METRICS, ids=["score-driven", "test-optimal", "brier"])
@pytest.mark.parametrize("case", range(len(CASES["score metrics"])))
def test_score_metrics(function, case):
    call, match = CASES["score metrics"][case]
    _run(call, function, match)


@pytest.mark.parametrize("call, match", [
    # scores must be probabilities where the method reads them as such (not for test-optimal)
    (lambda: costspace.expected_loss(BINARY, np.array([0.2, 1.9, 0.4, 0.6]), "score-driven", 1.0), r"\[0, 1\]"),
    (lambda: costspace.brier_score(BINARY, np.array([0.2, 1.9, 0.4, 0.6])), r"\[0, 1\]"),
    (lambda: costs.extended_cost_matrix(np.array([[0, 1, 1], [1, 0, 1]]), "discounted"), "square"),
    (lambda: costs.extended_cost_matrix(np.array([[0, -1], [1, 0]]), "discounted"), "negative"),
    (lambda: costs.p_discounted_cost_matrix(COST, 1.5), "r"),
    (lambda: costs.p_discounted_cost_matrix(COST, 0.5, variant="bold"), "variant"),
    (lambda: costs.extended_cost_matrix(COST, "no-such-rule"), "rule"),
    (lambda: costspace.expected_loss(BINARY, SCORES, "score-driven", -1.0), "gamma"),
    (lambda: costspace.expected_loss(BINARY, SCORES, "guess", 1.0), "method"),
    (lambda: metrics.utility_discounted_accuracy(np.array([0, 1]), SETS, u=1.2), "u_half"),
    # scalars and small helpers: NaN or out-of-range values are refused, never turned into NaN
    (lambda: metrics.quadratic_utility(0.65).inverse(np.nan), "value contains NaN"),
    (lambda: metrics.quadratic_utility(0.65).inverse(1.5), "has no inverse"),
    (lambda: costs.generalized_mean([1.0, np.nan], 1.0), "values contains NaN"),
    (lambda: costs.generalized_mean([1.0, 2.0], np.nan), "p must be a real number"),
    (lambda: costspace.loss(BINARY, SCORES, 0.5, 2.0), r"c must lie in \[0, 1\]"),
    (lambda: costspace.loss(BINARY, SCORES, np.nan, 0.5), "t contains NaN"),
    (lambda: stats.friedman_test(pd.DataFrame(np.arange(15.0).reshape(5, 3)), alpha=5), "alpha must be < 1"),
    (lambda: costspace.brier_decomposition(BINARY, np.array([0.2, 1.5, 0.4, 0.6])), r"\[0, 1\]"),
    (lambda: certainty.ratio(np.nan, 0.5), "psi_s must be finite"),
    (lambda: decisions.interval_dominance([[np.nan, 0.2]], [[0.5, 0.5]]), "lower contains NaN"),
    (lambda: decisions.threshold_sets(np.array([[0.6, 0.4]]), np.nan), "threshold must be finite"),
])
def test_parameters(call, match):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=match):
            call()
