"""Scorers: labels mapped through classes_, each scorer equal to its metric on the same output, losses negated."""
from __future__ import annotations

import numpy as np
import pytest
from sklearn.base import BaseEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score

from credalbook import certainty, costs, costspace, metrics, scoring
from credalbook.scoring import SCORERS, get_scorer, make_cost_scorer, make_expected_loss_scorer, make_set_scorer

SETS = np.array([[True, False, False], [True, True, False], [False, False, True], [True, True, True]])
TRUTH = np.array([0, 1, 2, 0])
PROBA = np.array([[0.7, 0.2, 0.1], [0.4, 0.5, 0.1], [0.1, 0.1, 0.8], [0.3, 0.3, 0.4]])


class Fixed(BaseEstimator):
    """An 'estimator' whose outputs are fixed, with string classes."""

    classes_ = np.array(["a", "b", "c"])

    def predict_set(self, X):
        return SETS

    def predict_proba(self, X):
        return PROBA


LABELS = np.array(["a", "b", "c", "a"])


@pytest.mark.parametrize("name,expected", [
    ("discounted_accuracy", (1 + 0.5 + 1 + 1 / 3) / 4),
    ("u65", metrics.utility_discounted_accuracy(TRUTH, SETS, 0.65)),
    ("u80", metrics.utility_discounted_accuracy(TRUTH, SETS, 0.8)),
    ("f1_set", metrics.f_beta_set(TRUTH, SETS, 1.0)),
    ("determinacy", 0.5),
    ("neg_average_set_size", -(1 + 2 + 1 + 3) / 4),
    ("certainty_ratio", certainty.certainty_ratio(TRUTH, PROBA)),
    ("imcp", certainty.imcp_score(TRUTH, PROBA)),
    ("neg_brier_score", -certainty.brier_score(TRUTH, PROBA)),
    ("neg_log_loss", np.mean(np.log([0.7, 0.5, 0.8, 0.3]))),
])
def test_named_scorers_equal_their_metric(name, expected):
    assert get_scorer(name)(Fixed(), None, LABELS) == pytest.approx(expected)


def test_cost_scorer_is_minus_the_average_cost():
    cost = costs.ordinal_cost_matrix(3)
    scorer = make_cost_scorer(cost, "p_discounted", r=0.5)
    assert scorer(Fixed(), None, LABELS) == pytest.approx(-costs.average_set_cost(cost, TRUTH, SETS, "p_discounted",
                                                                                  r=0.5))


def test_expected_loss_scorer_on_a_binary_model_in_cross_validation():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 2))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=120) > 0, "yes", "no")
    scorer = make_expected_loss_scorer("score-driven", gamma=4.0)
    scores = cross_val_score(LogisticRegression(), X, y, cv=3, scoring=scorer)
    assert np.all(np.isfinite(scores)) and np.all(scores < 0)
    model = LogisticRegression().fit(X, y)
    codes = (y == "yes").astype(int)  # classes_ = ["no", "yes"]: class 1 of the paper is "yes"
    expected = costspace.expected_loss(codes, model.predict_proba(X)[:, 1], "score-driven", 4.0)
    assert scorer(model, X, y) == pytest.approx(-expected)


def test_a_set_scorer_of_any_metric_with_parameters():
    scorer = make_set_scorer(metrics.f_beta_set, name="f2_set", beta=2.0)
    assert scorer(Fixed(), None, LABELS) == pytest.approx(metrics.f_beta_set(TRUTH, SETS, 2.0))
    assert repr(scorer) == "Scorer('f2_set')"


class TestBadInput:
    def test_unknown_label(self):
        # a set scorer counts a class the model never saw as a miss (scikit-learn's convention); a probability
        # scorer cannot score it and says so
        assert get_scorer("recall_set" if "recall_set" in SCORERS else "discounted_accuracy")(
            Fixed(), None, np.array(["a", "b", "z", "a"])) == pytest.approx((1 + 0.5 + 0 + 1 / 3) / 4)
        with pytest.raises(ValueError, match="label 'z' is not one of the estimator's classes"):
            get_scorer("imcp")(Fixed(), None, np.array(["a", "b", "z", "a"]))

    def test_unknown_scorer(self):
        with pytest.raises(ValueError, match="unknown scorer 'u99'; known: discounted_accuracy"):
            get_scorer("u99")

    def test_train_optimal_cannot_be_a_scorer(self):
        with pytest.raises(ValueError, match="needs the training scores"):
            make_expected_loss_scorer("train-optimal")
        with pytest.raises(ValueError, match="gamma"):
            make_expected_loss_scorer("score-driven", gamma=-1)

    def test_expected_loss_needs_two_classes(self):
        with pytest.raises(ValueError, match="needs two classes, got 3"):
            make_expected_loss_scorer("test-optimal", 0.0)(Fixed(), None, LABELS)

    def test_a_probability_scorer_needs_predict_proba(self):
        class SetsOnly(BaseEstimator):
            classes_ = np.array([0, 1, 2])

            def predict_set(self, X):
                return SETS

        with pytest.raises(TypeError, match="needs predict_proba, which SetsOnly lacks"):
            get_scorer("imcp")(SetsOnly(), None, TRUTH)

    def test_sample_weights_are_refused(self):
        with pytest.raises(ValueError, match="does not take sample weights"):
            get_scorer("u65")(Fixed(), None, LABELS, sample_weight=np.ones(4))


def test_every_named_scorer_is_listed():
    assert set(SCORERS) == {"discounted_accuracy", "u65", "u80", "f1_set", "determinacy", "neg_average_set_size",
                            "certainty_ratio", "imcp", "neg_brier_score", "neg_log_loss"}
    assert scoring.__all__
