"""Issue 28, item 2: the library's defaults work as they are, and a bad argument fails when the object is built."""
from __future__ import annotations

import matplotlib
import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score

from credalbook import costs, costspace
from credalbook.classifiers import NaiveCredalClassifier
from credalbook.display import CostCurveDisplay
from credalbook.pipeline import make_set_pipeline
from credalbook.preprocessing import MDLDiscretizer
from credalbook.scoring import make_cost_scorer

matplotlib.use("Agg")


class TestCostScorer:
    def test_the_default_rule_scores_every_fold(self):
        X, y = load_wine(return_X_y=True)
        scorer = make_cost_scorer(1 - np.eye(3))
        scores = cross_val_score(make_set_pipeline(MDLDiscretizer(), NaiveCredalClassifier()), X, y, cv=3,
                                 scoring=scorer, error_score="raise")
        assert np.all(np.isfinite(scores)) and np.all(scores <= 0)

    def test_the_default_rule_is_the_mean_cost_of_the_members(self):
        sets = np.array([[True, True, False], [False, False, True]])
        truth = np.array([0, 0])
        # {0, 1} holding 0 costs (0 + 1) / 2; {2} missing 0 costs 1
        assert costs.average_set_cost(1 - np.eye(3), truth, sets, "discounted") == pytest.approx((0.5 + 1) / 2)
        assert make_cost_scorer(1 - np.eye(3)).name == "neg_discounted_cost"

    @pytest.mark.parametrize("rule,params,match", [
        ("bogus", {}, "rule must be one of"),
        ("p_discounted", {}, "rule 'p_discounted' needs the parameter r"),
        ("ha", {}, "rule 'ha' needs the parameter delta"),
        ("discounted", {"r": 0.5}, "rule 'discounted' does not take the parameters"),
        ("p_discounted", {"r": 2.0}, "r"),
    ])
    def test_a_bad_rule_fails_when_the_scorer_is_built(self, rule, params, match):
        with pytest.raises(ValueError, match=match):
            make_cost_scorer(1 - np.eye(3), rule, **params)


@pytest.fixture(scope="module")
def model():
    X, y = load_breast_cancer(return_X_y=True)
    return LogisticRegression(max_iter=5000).fit(X[:300], y[:300]), X, y


class TestCostCurveDefaults:
    def test_from_estimator_works_without_training_data(self, model):
        clf, X, y = model
        display = CostCurveDisplay.from_estimator(clf, X[300:], y[300:])
        assert {method for method, _ in display.losses} == {"test-optimal", "score-driven", "rate-driven"}
        matplotlib.pyplot.close("all")

    def test_training_data_adds_train_optimal(self, model):
        clf, X, y = model
        display = CostCurveDisplay.from_estimator(clf, X[300:], y[300:], X_train=X[:300], y_train=y[:300],
                                                  plot=False)
        expected = costspace.expected_loss(y[300:], clf.predict_proba(X[300:])[:, 1], "train-optimal", np.inf,
                                           y_train=y[:300], s_train=clf.predict_proba(X[:300])[:, 1])
        assert display.losses[("train-optimal", np.inf)] == pytest.approx(expected)

    def test_asking_for_train_optimal_without_training_data_names_the_arguments(self, model):
        clf, X, y = model
        with pytest.raises(ValueError, match="pass y_train and y_train_score"):
            CostCurveDisplay.from_estimator(clf, X, y, methods=("train-optimal",), plot=False)


class TestLabelsAndEmptySets:
    """Issue 28, item 4: the set metrics take labels as scikit-learn's do and have an empty-set policy."""

    SETS = np.array([[True, False, False], [True, True, False], [False, False, False], [False, True, True]])

    def test_labels_of_any_kind_equal_the_indices(self):
        from credalbook import metrics
        sets = np.array([[True, False, False], [True, True, False], [False, False, True]])
        for labels, truth in ((["x", "y", "z"], ["x", "y", "y"]), ([1, 2, 3], [1, 2, 2]), ([False, True, None],
                                                                                           [False, True, True])):
            assert metrics.utility_discounted_accuracy(truth, sets, labels=labels) == pytest.approx(
                metrics.utility_discounted_accuracy([0, 1, 1], sets))

    @pytest.mark.parametrize("truth,match", [
        (["a", "b", "c", "a"], "pass labels="),
        ([1, 2, 3, 3], "holds labels 1..3, not class indices 0..2"),
    ])
    def test_labels_without_labels_argument_say_what_to_pass(self, truth, match):
        from credalbook import metrics
        with pytest.raises(ValueError, match=match):
            metrics.discounted_accuracy(truth, self.SETS, empty="miss")

    def test_an_unknown_label_is_named(self):
        from credalbook import metrics
        with pytest.raises(ValueError, match="holds 'q', which is not one of labels"):
            metrics.recall_set(["a", "q", "a", "b"], self.SETS, labels=["a", "b", "c"], empty="miss")

    def test_empty_sets_under_each_policy(self):
        from credalbook import metrics
        truth = [0, 1, 2, 2]
        with pytest.raises(ValueError, match="pass empty='miss'"):
            metrics.discounted_accuracy(truth, self.SETS)
        # miss: the empty set scores 0 and has size 0; vacuous: it is {0, 1, 2} and holds class 2
        assert metrics.discounted_accuracy(truth, self.SETS, empty="miss") == pytest.approx((1 + 0.5 + 0 + 0.5) / 4)
        assert metrics.discounted_accuracy(truth, self.SETS, empty="vacuous") == pytest.approx(
            (1 + 0.5 + 1 / 3 + 0.5) / 4)
        assert metrics.average_set_size(self.SETS, empty="miss") == pytest.approx((1 + 2 + 0 + 2) / 4)
        assert metrics.determinacy(self.SETS, empty="vacuous") == pytest.approx(0.25)
        scores = metrics.discounted_accuracy_scores(truth, self.SETS, empty="miss")
        np.testing.assert_allclose(scores, [1, 0.5, 0, 0.5])
        assert metrics.set_metrics(truth, self.SETS, empty="miss")["u65"] == pytest.approx(
            metrics.utility_discounted_accuracy(truth, self.SETS, empty="miss"))
        with pytest.raises(ValueError, match="empty must be one of"):
            metrics.recall_set(truth, self.SETS, empty="top")

    def test_a_class_unseen_in_training_counts_as_a_miss_in_the_scorer(self):
        from credalbook.scoring import get_scorer
        X = np.array([[0], [1], [0], [1], [2], [2]])
        model = NaiveCredalClassifier().fit(X, ["a", "b", "a", "b", "a", "b"])
        truth = np.array(["a", "b", "a", "c", "a", "b"])  # "c" never seen in training
        sets = model.predict_set(X)
        known = np.array([0, 1, 0, 3, 0, 1])
        expected = (sum(sets[i, k] / sets[i].sum() for i, k in enumerate(known) if k < 2)) / 6
        assert get_scorer("discounted_accuracy")(model, X, truth) == pytest.approx(expected)
        with pytest.raises(ValueError, match="label 'c' is not one of the estimator's classes"):
            make_cost_scorer(1 - np.eye(2))(model, X, truth)


class TestDeploymentThreshold:
    """Issue 28, item 5: the threshold to deploy at cost proportion c, with the positive class named."""

    rng = np.random.default_rng(3)
    y = rng.choice(np.array(["neg", "pos"]), size=60, p=[0.6, 0.4])
    score = np.clip(np.where(y == "pos", 0.62, 0.38) + 0.25 * rng.normal(size=60), 0, 1).round(2)

    @pytest.mark.parametrize("c", [0.0, 0.1, 0.35, 0.5, 0.8, 1.0])
    def test_optimal_is_the_least_loss_over_every_cut(self, c):
        t = costspace.deployment_threshold(self.y, self.score, c, pos_label="pos")
        predicted = self.score >= t
        cost = lambda pred: (c * ((self.y == "pos") & ~pred).sum() + (1 - c) * ((self.y == "neg") & pred).sum())
        candidates = np.concatenate([[-np.inf, np.inf], np.unique(self.score)])
        assert cost(predicted) == pytest.approx(min(cost(self.score >= u) for u in candidates))
        # the same loss as Ferri et al.'s Q(t; c) with the positive class as their class 0
        paper = costspace.loss((self.y == "neg").astype(int), 1 - self.score, np.clip(1 - t, -1.0, 2.0), c)
        assert paper == pytest.approx(2 * cost(predicted) / len(self.y))

    def test_rate_driven_predicts_the_share_c_positive(self):
        scores = np.arange(20) / 20
        labels = np.array([0, 1] * 10)
        for c in (0.1, 0.25, 0.5, 0.95):
            t = costspace.deployment_threshold(labels, scores, c, method="rate-driven")
            assert (scores >= t).mean() == pytest.approx(c)
        assert costspace.deployment_threshold(labels, scores, 0.0, method="rate-driven") == np.inf

    def test_score_driven_predicts_positive_when_the_expected_cost_says_so(self):
        # predicting positive costs (1 - p) c_FP, negative costs p c_FN: positive when p >= c_FP / (c_FN + c_FP) = 1 - c
        for c in (0.1, 0.3, 0.8):
            t = costspace.deployment_threshold(self.y, self.score, c, pos_label="pos", method="score-driven")
            assert t == pytest.approx(1 - c)
            decided = [(1 - p) * (1 - c) <= p * c for p in self.score]
            np.testing.assert_array_equal(self.score >= t - 1e-12, decided)

    def test_the_positive_class_is_named_not_assumed(self):
        flipped = costspace.deployment_threshold(self.y, 1 - self.score, 0.3, pos_label="neg")
        direct = costspace.deployment_threshold(self.y, self.score, 0.7, pos_label="pos")
        assert ((1 - self.score) >= flipped).sum() == (self.score < direct).sum()

    @pytest.mark.parametrize("kwargs,match", [
        ({"pos_label": "yes"}, "pos_label 'yes' is not a label of y"),
        ({"pos_label": "pos", "method": "best"}, "method must be one of"),
        ({"pos_label": "pos", "c": 1.5}, "c"),
    ])
    def test_bad_arguments(self, kwargs, match):
        arguments = {"c": 0.5, **kwargs}
        with pytest.raises(ValueError, match=match):
            costspace.deployment_threshold(self.y, self.score, **arguments)
