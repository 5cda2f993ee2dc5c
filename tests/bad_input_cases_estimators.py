"""Bad-input cases of the estimators' half of the library: the classifiers, the preprocessing and the
coding of discrete inputs (issue 27; read by ``tests/test_bad_input_contract.py``).

For an estimator a case is a bad constructor parameter that ``fit`` refuses naming the parameter,
or bad ``X``/``y``; for a function, a bad argument named in the message.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression

from credalbook import classifiers, discrete, preprocessing

MODULES = ("credalbook.classifiers", "credalbook.preprocessing", "credalbook.discrete")

#: a small discrete problem (integer codes) and a small numeric one
X_CODES = np.array([[0, 1], [1, 0], [0, 0], [1, 1], [0, 1], [1, 0], [0, 0], [1, 1]])
Y_CODES = np.array([0, 1, 0, 1, 0, 1, 0, 1])
X_NUMERIC = np.random.default_rng(0).normal(size=(40, 2))
Y_NUMERIC = np.arange(40) % 2
ONE_CLASS = np.zeros(8, dtype=int)


def _fit(estimator, X=X_CODES, y=Y_CODES):
    return lambda: estimator().fit(X, y)


class _MostFrequent(classifiers.CredalClassifierMixin):
    """The smallest subclass of the mixin: its fit is the mixin's validation and coding."""

    def fit(self, X, y):
        self._fit_discrete(X, y)
        return self


#: a Categorical declaring 10**6 categories for 200 rows (issue 27: count tables of that size)
MANY_CATEGORIES = pd.DataFrame({"id": pd.Categorical.from_codes(np.arange(200) % 3, categories=np.arange(10**6))})

C = "credalbook.classifiers."
P = "credalbook.preprocessing."
D = "credalbook.discrete."

CASES: dict[str, list] = {
    # classifiers on discrete features
    C + "CredalClassifierMixin": [
        (_fit(_MostFrequent, y=ONE_CLASS), ValueError, "y has 1 class"),
        (_fit(_MostFrequent, X=X_CODES + 0.5), ValueError, "X has non-integer values"),
        (_fit(_MostFrequent, y=Y_CODES[:5]), ValueError, "X has 8, y has 5"),
        (_fit(_MostFrequent, X=MANY_CATEGORIES, y=np.arange(200) % 2), ValueError, "X column 'id' declares 1000000 "
                                                                                   "categories")],
    C + "NaiveCredalClassifier": [
        (lambda: classifiers.NaiveCredalClassifier(s=-1).fit(X_CODES, Y_CODES), ValueError, "s must be > 0"),
        (lambda: classifiers.NaiveCredalClassifier(non_mar_features=[5]).fit(X_CODES, Y_CODES), ValueError,
         "non_mar_features has index 5"),
        (_fit(classifiers.NaiveCredalClassifier, X=-X_CODES - 1), ValueError, "Negative values in data passed to X")],
    C + "NaiveBayes": [
        (lambda: classifiers.NaiveBayes(prior_count=0).fit(X_CODES, Y_CODES), ValueError, "prior_count must be > 0"),
        (_fit(classifiers.NaiveBayes, y=ONE_CLASS), ValueError, "y has 1 class")],
    C + "CostSensitiveNCC": [
        (lambda: classifiers.CostSensitiveNCC(cost=np.ones((3, 3))).fit(X_CODES, Y_CODES), ValueError,
         "cost is for 3 classes but the classifier has 2"),
        (lambda: classifiers.CostSensitiveNCC(cost=-np.ones((2, 2))).fit(X_CODES, Y_CODES), ValueError,
         "cost must be non-negative"),
        (lambda: classifiers.CostSensitiveNCC(s="a").fit(X_CODES, Y_CODES), ValueError, "s must be a real number")],
    C + "CredalDecisionTree": [
        (lambda: classifiers.CredalDecisionTree(max_depth=-1).fit(X_CODES, Y_CODES), ValueError, "max_depth"),
        (lambda: classifiers.CredalDecisionTree(max_depth=1.5).fit(X_CODES, Y_CODES), ValueError, "max_depth"),
        (lambda: classifiers.CredalDecisionTree(tie_dominates="no").fit(X_CODES, Y_CODES), ValueError,
         "tie_dominates")],
    C + "CredalModelAveraging": [
        (lambda: classifiers.CredalModelAveraging(t_low=0.9, t_high=0.1).fit(X_CODES, Y_CODES), ValueError,
         "t_low must be <= t_high"),
        (lambda: classifiers.CredalModelAveraging(s=0).fit(X_CODES, Y_CODES), ValueError, "s must be > 0")],
    C + "LazyNaiveCredalClassifier": [
        (lambda: classifiers.LazyNaiveCredalClassifier(k_start=0).fit(X_CODES, Y_CODES), ValueError, "k_start"),
        (lambda: classifiers.LazyNaiveCredalClassifier(max_steps=1.5).fit(X_CODES, Y_CODES), ValueError,
         "max_steps")],
    C + "NestedDichotomy": [
        (lambda: classifiers.NestedDichotomy(tree=(0, 5)).fit(X_CODES, Y_CODES), ValueError,
         "tree must have every class"),
        (lambda: classifiers.NestedDichotomy(cost=np.ones((3, 3))).fit(X_CODES, Y_CODES), ValueError,
         "cost is for 3 classes"),
        (lambda: classifiers.NestedDichotomy(random_state="abc").fit(X_CODES, Y_CODES), ValueError,
         "random_state must be")],
    C + "NestedDichotomyForest": [
        (lambda: classifiers.NestedDichotomyForest(n_trees=0).fit(X_CODES, Y_CODES), ValueError, "n_trees"),
        (lambda: classifiers.NestedDichotomyForest(ordered="yes").fit(X_CODES, Y_CODES), ValueError,
         "ordered must be True or False"),
        (lambda: classifiers.NestedDichotomyForest(random_state="abc").fit(X_CODES, Y_CODES), ValueError,
         "random_state must be"),
        (lambda: classifiers.NestedDichotomyForest(cost=np.ones((3, 3))).fit(X_CODES, Y_CODES), ValueError,
         "cost is for 3 classes")],
    # classifiers on any probabilistic classifier
    C + "ProbabilisticSetClassifier": [
        (lambda: classifiers.ProbabilisticSetClassifier(object()).fit(X_NUMERIC, Y_NUMERIC), ValueError,
         "estimator must have predict_proba"),
        (lambda: classifiers.ProbabilisticSetClassifier(LogisticRegression()).fit(X_NUMERIC[:, 0], Y_NUMERIC),
         ValueError, "Expected a 2D array")],
    C + "NonDeterministicClassifier": [
        (lambda: classifiers.NonDeterministicClassifier(LogisticRegression(), beta=0).fit(X_NUMERIC, Y_NUMERIC),
         ValueError, "beta must be > 0"),
        (lambda: classifiers.NonDeterministicClassifier(object()).fit(X_NUMERIC, Y_NUMERIC), ValueError,
         "estimator must have predict_proba")],
    C + "RejectionClassifier": [
        (lambda: classifiers.RejectionClassifier(LogisticRegression(), threshold=2).fit(X_NUMERIC, Y_NUMERIC),
         ValueError, "threshold must be <= 1"),
        (lambda: classifiers.RejectionClassifier(LogisticRegression()).fit(X_NUMERIC, Y_NUMERIC + 0.5), ValueError,
         "continuous")],
    C + "ConformalSetClassifier": [
        (lambda: classifiers.ConformalSetClassifier(LogisticRegression(), confidence_level=1.5).fit(
            X_NUMERIC, Y_NUMERIC), ValueError, "confidence_level must be < 1"),
        (lambda: classifiers.ConformalSetClassifier(LogisticRegression(), conformity_score="x").fit(
            X_NUMERIC, Y_NUMERIC), ValueError, "conformity_score must be one of")],
    C + "TemperatureScaledForest": [
        (lambda: classifiers.TemperatureScaledForest(n_estimators=10).fit(X_NUMERIC, np.zeros(40)), ValueError,
         "y has 1 class"),
        (lambda: classifiers.TemperatureScaledForest(n_estimators=10).fit(X_NUMERIC[:1], [0]), ValueError,
         "y has 1 class in 1 instances"),
        (lambda: classifiers.TemperatureScaledForest(n_estimators=5).fit(X_NUMERIC, Y_NUMERIC), ValueError,
         "n_estimators must be >= 10")],
    C + "conformal_split": [
        (lambda: classifiers.conformal_split([0, 1, 0, 1], calibration_size=2), ValueError, "calibration_size"),
        (lambda: classifiers.conformal_split([[0, 1]]), ValueError, "y must be 1-dimensional")],
    # preprocessing
    P + "mdl_accepts": [
        (lambda: preprocessing.mdl_accepts([5, 5], [6, 1]), ValueError, "left must be at most counts"),
        (lambda: preprocessing.mdl_accepts([5, 5], [1, 1, 1]), ValueError, "left must have one count per class"),
        (lambda: preprocessing.mdl_accepts([5, np.nan], [1, 1]), ValueError, "counts contains NaN"),
        (lambda: preprocessing.mdl_accepts([5, -5], [1, 1]), ValueError, "non-negative")],
    P + "MDLDiscretizer": [
        (lambda: preprocessing.MDLDiscretizer(convention="weka").fit(X_NUMERIC, Y_NUMERIC), ValueError,
         "convention must be one of"),
        (lambda: preprocessing.MDLDiscretizer(nominal=[7]).fit(X_NUMERIC, Y_NUMERIC), ValueError,
         "nominal names columns"),
        (lambda: preprocessing.MDLDiscretizer().fit(X_NUMERIC, Y_NUMERIC[:3]), ValueError, "y has 3"),
        (lambda: preprocessing.MDLDiscretizer().fit(MANY_CATEGORIES, np.arange(200) % 2), ValueError,
         "X column 'id' declares 1000000 categories")],
    P + "missing_as_category": [
        (lambda: preprocessing.missing_as_category(np.zeros((2, 2))), ValueError, "X must be a DataFrame"),
        (lambda: preprocessing.missing_as_category(pd.DataFrame({"a": [1.0, np.nan]})), ValueError,
         "not Categorical")],
    P + "symmetrical_uncertainty": [
        (lambda: preprocessing.symmetrical_uncertainty([[1, -1], [2, 3]]), ValueError, "table must hold non-negative"),
        (lambda: preprocessing.symmetrical_uncertainty([1, 2]), ValueError, "table must be 2-dimensional"),
        (lambda: preprocessing.symmetrical_uncertainty([[1, np.nan], [2, 3]]), ValueError, "table contains NaN"),
        (lambda: preprocessing.symmetrical_uncertainty([[0, 0], [0, 0]]), ValueError, "table holds no instances")],
    P + "cfs_merit": [
        (lambda: preprocessing.cfs_merit([5], np.ones(2), np.ones((2, 2))), ValueError, "subset must hold distinct"),
        (lambda: preprocessing.cfs_merit([0, 0], np.ones(2), np.ones((2, 2))), ValueError,
         "subset must hold distinct"),
        (lambda: preprocessing.cfs_merit([0], np.array([2.0, 1.0]), np.ones((2, 2))), ValueError, "in \\[0, 1\\]"),
        (lambda: preprocessing.cfs_merit([0], np.ones(2), np.ones((3, 3))), ValueError, "feature_corr must be")],
    P + "CFSSelector": [
        (lambda: preprocessing.CFSSelector(search_termination=0).fit(X_CODES, Y_CODES), ValueError,
         "search_termination"),
        (lambda: preprocessing.CFSSelector(convention="x").fit(X_CODES, Y_CODES), ValueError, "convention"),
        (lambda: preprocessing.CFSSelector(locally_predictive="x").fit(X_CODES, Y_CODES), ValueError,
         "locally_predictive must be True or False")],
    P + "weka_cfs": [(lambda: preprocessing.weka_cfs().fit(X_CODES + 0.5, Y_CODES), ValueError,
                      "X has non-integer values")],
    # discrete
    D + "check_discrete_X": [
        (lambda: discrete.check_discrete_X(X_CODES, unseen="drop"), ValueError, "unseen must be"),
        (lambda: discrete.check_discrete_X(np.array([1, 2])), ValueError, "X must be 2-dimensional"),
        (lambda: discrete.check_discrete_X(MANY_CATEGORIES), ValueError, "declares 1000000 categories"),
        (lambda: discrete.check_discrete_X(np.array([[0], [10**6]])), ValueError, "codes up to 1000000")],
    D + "encode_labels": [
        (lambda: discrete.encode_labels(np.zeros((2, 2))), ValueError, "y must be 1-dimensional"),
        (lambda: discrete.encode_labels([0.5, 1.2]), ValueError, "continuous"),
        (lambda: discrete.encode_labels([0.0, np.nan]), ValueError, "y has missing class labels")],
    D + "validated_input": [
        (lambda: discrete.validated_input(classifiers.NaiveBayes(), np.array([1, 2]), reset=True), ValueError,
         "Expected 2D array"),
        (lambda: discrete.validated_input(object(), X_CODES, reset=True), TypeError,
         "estimator must be a scikit-learn estimator"),
        (lambda: discrete.validated_input(classifiers.NaiveBayes(), X_CODES, reset="yes"), TypeError,
         "reset must be True")],
}

NOTHING_TO_CHECK = {
    D + "ManyValuesWarning": "a warning class",
}
