"""Split conformal prediction sets (credalbook.classifiers.conformal): an oracle written from the
definition, coverage, nesting, missing classes, empty sets, the split and bad input."""
from __future__ import annotations

import math
import subprocess
import sys
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.ensemble import RandomForestClassifier
from sklearn.exceptions import NotFittedError
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from credalbook.classifiers import ConformalSetClassifier, conformal_split
from credalbook.data import load
from credalbook.metrics import utility_discounted_accuracy
from credalbook.pipeline import make_set_pipeline
from credalbook.scoring import make_set_scorer
from credalbook.sets import check_set_matrix

#: MAPIE's tolerance in its set rules (``mapie._machine_precision.EPSILON``): a class is in the
#: LAC set when (1 - p_k) - q <= 1e-8
EPSILON = 1e-8


def _logistic():
    return make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))


def _train_test(data, seed: int, test_share: float = 0.5):
    """A uniformly random (not stratified) train/test partition of a dataset's rows."""
    order = np.random.default_rng(seed).permutation(len(data.y))
    cut = int(round(len(order) * (1 - test_share)))
    return order[:cut], order[cut:]


# ---------------------------------------------------------------------------------------------
# the oracle: LAC from its definition (Sadinle, Lei & Wasserman 2019; Angelopoulos & Bates 2023, §1)
# ---------------------------------------------------------------------------------------------
def lac_oracle(estimator, X_proper, y_proper, X_cal, y_cal, X_test, classes, confidence_level):
    """LAC sets written from the definition, with no MAPIE: s_i = 1 - p_{y_i}(x_i) on the calibration
    part, q the k-th smallest s_i with k = ceil((n + 1)(1 - alpha)) (exact rational arithmetic), and
    C(x) = {k : 1 - p_k(x) <= q} (within MAPIE's 1e-8)."""
    model = clone(estimator).fit(X_proper, y_proper)
    column = {label: j for j, label in enumerate(model.classes_)}
    proba_cal = model.predict_proba(X_cal)
    scores = np.array([1.0 - proba_cal[i, column[label]] for i, label in enumerate(y_cal)])
    n = scores.size
    alpha = 1 - Fraction(str(confidence_level))
    k = math.ceil((n + 1) * (1 - alpha))
    assert 1 <= k <= n
    q = np.sort(scores)[k - 1]
    proba = model.predict_proba(X_test)
    sets = np.zeros((len(X_test), len(classes)), dtype=bool)
    for j, label in enumerate(model.classes_):
        sets[:, list(classes).index(label)] = (1.0 - proba[:, j]) - q <= EPSILON
    return sets, q


@pytest.mark.parametrize("name, estimator", [
    ("vowel", RandomForestClassifier(n_estimators=50, random_state=0)),  # probabilities tie (votes / 50)
    ("glass", _logistic()),
])
@pytest.mark.parametrize("confidence_level", [0.8, 0.9, 0.95])
def test_lac_sets_equal_the_oracle_on_a_real_dataset(name, estimator, confidence_level):
    data = load(name, "zaffalon2012")
    train, test = _train_test(data, seed=1)
    X, y = data.X.iloc[train], data.y.iloc[train]
    model = ConformalSetClassifier(estimator, confidence_level=confidence_level, empty="keep",
                                   random_state=3).fit(X, y)
    proper, calibration = conformal_split(y, 0.25, random_state=3)
    labels = np.asarray(y, dtype=object)
    expected, q = lac_oracle(estimator, X.iloc[proper], labels[proper], X.iloc[calibration], labels[calibration],
                             data.X.iloc[test], data.classes, confidence_level)
    sets = model.predict_set(data.X.iloc[test])
    np.testing.assert_array_equal(sets, expected)
    assert list(model.classes_) == data.classes
    # the comparison is not vacuous: the threshold is inside (0, 1) and the sets vary in size
    assert 0 < q < 1 and len(np.unique(expected.sum(axis=1))) >= 2
    assert model.conformalizer_.conformity_scores.size == calibration.size


def test_on_ties_the_threshold_class_is_in_the_set():
    """Random-forest probabilities are multiples of 1/50: test probabilities equal to 1 - q occur and are in."""
    data = load("vowel", "zaffalon2012")
    train, test = _train_test(data, seed=1)
    model = ConformalSetClassifier(RandomForestClassifier(n_estimators=50, random_state=0), empty="keep",
                                   random_state=3).fit(data.X.iloc[train], data.y.iloc[train])
    proba = model.predict_proba(data.X.iloc[test])
    q = np.sort(model.conformalizer_.conformity_scores.ravel())[
        math.ceil((model.conformalizer_.conformity_scores.size + 1) * Fraction(9, 10)) - 1]
    at_threshold = np.isclose(proba, 1 - q, rtol=0, atol=1e-12)
    assert at_threshold.any()
    assert model.predict_set(data.X.iloc[test])[at_threshold].all()


# ---------------------------------------------------------------------------------------------
# marginal coverage (Vovk, Gammerman & Shafer 2005; Angelopoulos & Bates 2023, Theorem 1)
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("score", ["lac", "aps"])
def test_mean_coverage_over_random_splits_reaches_the_confidence_level(score):
    data = load("segment", "zaffalon2012")  # 2310 instances, 7 classes: ~290 to conformalise, 1155 to test
    level, repeats = 0.9, 30
    keep, argmax, n_cal, n_test = [], [], [], []
    for seed in range(repeats):
        train, test = _train_test(data, seed)
        model = ConformalSetClassifier(_logistic(), conformity_score=score, confidence_level=level, empty="keep",
                                       random_state=seed).fit(data.X.iloc[train], data.y.iloc[train])
        sets, was_empty = model.predict_set_with_empty(data.X.iloc[test])
        truth = data.y_codes[test]
        kept = np.asarray(sets[np.arange(truth.size), truth])
        filled = kept | (was_empty & (model.predict_index(data.X.iloc[test]) == truth))
        keep.append(kept.mean())
        argmax.append(filled.mean())
        n_cal.append(model.conformalizer_.conformity_scores.size)
        n_test.append(truth.size)
    alpha = 1 - level
    # The guarantee is on the mean: E[coverage] >= 1 - alpha over the draw of calibration and test
    # instances (here: uniformly random partitions of one dataset, so the instances are exchangeable;
    # the stratified calibration split makes that approximate). Per split, coverage varies with the
    # calibration draw (a Beta law, variance about alpha (1 - alpha) / (n_cal + 2)) and with the test
    # draw (binomial, alpha (1 - alpha) / n_test); the tolerance is three standard errors of the mean
    # of the repeats, about 0.011 (the spread of the repeats agrees: 0.0033). It catches a wrong
    # level or calibration on the fitted data, not a quantile off by one order statistic (1/290 of
    # coverage): that is the oracle's job.
    se = math.sqrt(alpha * (1 - alpha) * (1 / (min(n_cal) + 2) + 1 / min(n_test)) / repeats)
    assert np.mean(keep) >= level - 3 * se
    assert np.mean(argmax) >= np.mean(keep)  # filling an empty set never loses coverage
    if score == "lac":
        # continuous scores: on average coverage is also at most 1 - alpha + 1/(n_cal + 1)
        assert np.mean(keep) <= level + 1 / (min(n_cal) + 1) + 3 * se
    else:
        # APS with the last class included (MAPIE's default) is conservative: coverage above the level
        assert np.mean(keep) > level


# ---------------------------------------------------------------------------------------------
# nesting
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("score", ["lac", "aps"])
@pytest.mark.parametrize("empty", ["keep", "argmax"])  # not "all": a vacuous set at 0.8 holds more than 0.95's
def test_sets_at_a_higher_confidence_contain_those_at_a_lower_one(score, empty):
    """Same split and estimator (same random_state); APS's randomised calibration scores come from the same
    seed, so both levels share the scores and only q grows; prediction uses MAPIE's deterministic
    ``include_last_label=True`` (with the "randomized" option, independent draws at prediction could break
    nesting)."""
    data = load("vowel", "zaffalon2012")
    train, test = _train_test(data, seed=2)
    fitted = {level: ConformalSetClassifier(_logistic(), conformity_score=score, confidence_level=level,
                                            empty=empty, random_state=5).fit(data.X.iloc[train], data.y.iloc[train])
              for level in (0.8, 0.95)}
    np.testing.assert_array_equal(fitted[0.8].conformalizer_.conformity_scores,
                                  fitted[0.95].conformalizer_.conformity_scores)
    small = fitted[0.8].predict_set(data.X.iloc[test])
    large = fitted[0.95].predict_set(data.X.iloc[test])
    assert not np.any(small & ~large)
    assert large.sum() > small.sum()


# ---------------------------------------------------------------------------------------------
# classes: the columns of classes_, whatever the estimator saw
# ---------------------------------------------------------------------------------------------
def test_a_declared_class_absent_from_the_training_data_keeps_its_column_and_is_never_predicted():
    data = load("iris", "zaffalon2012")
    categories = [data.classes[0], "unseen", *data.classes[1:]]
    y = pd.Categorical(np.asarray(data.y, dtype=object), categories=categories)  # "unseen" in the middle
    for score in ("lac", "aps"):
        for empty in ("keep", "argmax", "all"):
            model = ConformalSetClassifier(_logistic(), conformity_score=score, empty=empty).fit(data.X, y)
            assert list(model.classes_) == categories and model.n_classes_ == 4
            assert "unseen" not in list(model.estimator_.classes_)
            proba = model.predict_proba(data.X)
            sets, was_empty = model.predict_set_with_empty(data.X)
            assert proba.shape == sets.shape == (150, 4)
            assert not proba[:, 1].any()
            # the unseen class is in no set but a vacuous one (an empty set under empty="all")
            np.testing.assert_array_equal(sets[:, 1], was_empty & (empty == "all"))
            np.testing.assert_allclose(proba.sum(axis=1), 1)
            assert "unseen" not in set(model.predict(data.X))
            # the other columns are the estimator's, in the order of classes_
            np.testing.assert_array_equal(proba[:, [0, 2, 3]], model.estimator_.predict_proba(data.X))
            np.testing.assert_array_equal(model.predict(data.X), model.estimator_.predict(data.X))
            if empty == "argmax":
                check_set_matrix(sets, n_classes=4)
            assert sets[np.arange(150), model.predict_index(data.X)][~was_empty].all()


def test_a_class_with_a_single_instance_is_learnt_and_not_calibrated():
    data = load("vowel", "zaffalon2012")
    rare = data.classes[4]
    keep = np.flatnonzero(data.y_codes != 4)
    rows = np.concatenate([keep, np.flatnonzero(data.y_codes == 4)[:1]])
    X, y = data.X.iloc[rows], data.y.iloc[rows]
    proper, calibration = conformal_split(y, 0.25, random_state=0)
    assert (np.asarray(y)[proper] == rare).sum() == 1 and (np.asarray(y)[calibration] != rare).all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # MAPIE's warning about the missing calibration class is expected and muted
        model = ConformalSetClassifier(_logistic()).fit(X, y)
    assert rare in list(model.estimator_.classes_)
    sets = model.predict_set(data.X)
    assert sets.shape == (len(data.y), 11)


# ---------------------------------------------------------------------------------------------
# empty sets
# ---------------------------------------------------------------------------------------------
def _blobs():
    """Three far-apart Gaussian blobs: confident calibration (small q), and a test point at their centre
    where every class has probability about 1/3 < 1 - q."""
    rng = np.random.default_rng(0)
    centres = np.array([[0.0, 0.0], [10.0, 0.0], [5.0, 8.66]])
    X = np.concatenate([rng.normal(c, 1.0, size=(60, 2)) for c in centres])
    y = np.repeat([0, 1, 2], 60)
    centre = centres.mean(axis=0, keepdims=True)
    return X, y, np.concatenate([centre, centres])


def test_keep_returns_the_empty_sets_of_lac_and_argmax_fills_them():
    X, y, X_test = _blobs()
    kept = ConformalSetClassifier(LogisticRegression(), empty="keep").fit(X, y)
    sets, was_empty = kept.predict_set_with_empty(X_test)
    assert was_empty.tolist() == [True, False, False, False]
    assert sets.tolist() == [[False] * 3, [True, False, False], [False, True, False], [False, False, True]]
    with pytest.raises(ValueError, match="empty"):
        check_set_matrix(sets)
    filled = ConformalSetClassifier(LogisticRegression()).fit(X, y)  # empty="argmax", the default
    sets_filled, was_empty_filled = filled.predict_set_with_empty(X_test)
    np.testing.assert_array_equal(was_empty_filled, was_empty)
    expected = sets.copy()
    expected[0, np.argmax(filled.predict_proba(X_test[:1]))] = True
    np.testing.assert_array_equal(sets_filled, expected)
    np.testing.assert_array_equal(filled.predict_set(X_test), expected)
    np.testing.assert_array_equal(filled.predict_with_set(X_test)[0], expected)
    vacuous = ConformalSetClassifier(LogisticRegression(), empty="all").fit(X, y)
    sets_all, was_empty_all = vacuous.predict_set_with_empty(X_test)
    np.testing.assert_array_equal(was_empty_all, was_empty)
    expected = sets.copy()
    expected[0] = True  # the empty set becomes the whole label space; the others are unchanged
    np.testing.assert_array_equal(sets_all, expected)
    np.testing.assert_array_equal(vacuous.predict_set(X_test), expected)


@pytest.mark.parametrize("empty", [None, "miss", "ARGMAX", 1])
def test_an_unknown_empty_set_policy_is_refused(empty):
    X, y, _ = _blobs()
    with pytest.raises(ValueError, match="empty must be one of 'argmax', 'keep', 'all'"):
        ConformalSetClassifier(LogisticRegression(), empty=empty).fit(X, y)


@pytest.mark.parametrize("score", ["lac", "aps"])
def test_argmax_never_returns_an_empty_set_and_contains_the_point_prediction(score):
    data = load("vowel", "zaffalon2012")
    model = ConformalSetClassifier(_logistic(), conformity_score=score, confidence_level=0.8).fit(data.X, data.y)
    sets, index = model.predict_with_set(data.X)
    check_set_matrix(sets, n_classes=11)
    assert sets[np.arange(len(index)), index].all()
    np.testing.assert_array_equal(model.classes_[index], model.predict(data.X))
    _, was_empty = model.predict_set_with_empty(data.X)
    if score == "aps":  # the last class is included: APS sets are never empty
        assert not was_empty.any()


def test_aps_sets_are_the_most_probable_classes():
    data = load("glass", "zaffalon2012")
    model = ConformalSetClassifier(_logistic(), conformity_score="aps").fit(data.X, data.y)
    proba, sets = model.predict_proba(data.X), model.predict_set(data.X)
    weakest_in = np.where(sets, proba, np.inf).min(axis=1)
    strongest_out = np.where(sets, -np.inf, proba).max(axis=1)
    assert np.all(strongest_out < weakest_in + 1e-8)


# ---------------------------------------------------------------------------------------------
# the split
# ---------------------------------------------------------------------------------------------
def test_the_split_is_stratified_with_the_documented_rounding():
    y = np.repeat(["a", "b", "c", "d"], [40, 10, 2, 1])
    proper, calibration = conformal_split(y, 0.25, random_state=7)
    assert np.intersect1d(proper, calibration).size == 0
    np.testing.assert_array_equal(np.sort(np.concatenate([proper, calibration])), np.arange(y.size))
    counts = {label: int((y[calibration] == label).sum()) for label in "abcd"}
    # round(0.25 m), halves up, within [1, m - 1]; a single instance stays in the proper part
    assert counts == {"a": 10, "b": 3, "c": 1, "d": 0}
    again = conformal_split(y, 0.25, random_state=7)
    np.testing.assert_array_equal(again[1], calibration)
    assert not np.array_equal(conformal_split(y, 0.25, random_state=8)[1], calibration)
    assert conformal_split(y, 0.9, random_state=0)[1].size == 36 + 9 + 1  # at most m - 1 per class


def test_fit_uses_the_split_of_conformal_split():
    data = load("glass", "zaffalon2012")
    model = ConformalSetClassifier(_logistic(), random_state=11).fit(data.X, data.y)
    proper, calibration = conformal_split(data.y, 0.25, random_state=11)
    by_hand = _logistic().fit(data.X.iloc[proper], np.asarray(data.y)[proper])
    np.testing.assert_allclose(model.estimator_.predict_proba(data.X), by_hand.predict_proba(data.X), rtol=0,
                               atol=1e-12)
    assert model.conformalizer_.conformity_scores.size == calibration.size


def test_a_frozen_estimator_is_shared_and_gives_the_sets_of_separate_fits():
    """Same data, calibration_size and random_state: the same proper-training part, so the first
    classifier's fitted estimator, frozen, serves the others at any score and level."""
    data = load("vowel", "zaffalon2012")
    train, test = _train_test(data, seed=3)
    X, y = data.X.iloc[train], data.y.iloc[train]
    shared = FrozenEstimator(ConformalSetClassifier(_logistic(), random_state=4).fit(X, y).estimator_)
    for score, level in [("lac", 0.95), ("aps", 0.8), ("aps", 0.9)]:
        reused = ConformalSetClassifier(shared, conformity_score=score, confidence_level=level, random_state=4)
        separate = ConformalSetClassifier(_logistic(), conformity_score=score, confidence_level=level,
                                          random_state=4)
        reused.fit(X, y), separate.fit(X, y)
        assert reused.estimator_ is shared
        np.testing.assert_array_equal(reused.conformalizer_.conformity_scores,
                                      separate.conformalizer_.conformity_scores)
        np.testing.assert_array_equal(reused.predict_set(data.X.iloc[test]), separate.predict_set(data.X.iloc[test]))


# ---------------------------------------------------------------------------------------------
# the package's plumbing
# ---------------------------------------------------------------------------------------------
def test_conformal_sets_pass_through_a_set_pipeline_and_a_set_scorer():
    data = load("iris", "zaffalon2012")
    pipeline = make_set_pipeline(StandardScaler(), ConformalSetClassifier(LogisticRegression(max_iter=2000)))
    scores = cross_val_score(pipeline, data.X, data.y, cv=3,
                             scoring=make_set_scorer(utility_discounted_accuracy, u=0.65))
    assert np.all((scores > 0.5) & (scores <= 1))


def test_mapie_is_imported_only_when_a_model_is_fitted():
    code = ("import sys, credalbook, credalbook.classifiers.conformal; print('mapie' in sys.modules); "
            "import numpy as np; from sklearn.naive_bayes import GaussianNB; "
            "credalbook.classifiers.conformal.ConformalSetClassifier(GaussianNB(), confidence_level=0.5)"
            ".fit(np.arange(20.0)[:, None], np.repeat([0, 1], 10)); print('mapie' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True"]


# ---------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------
class TestBadInput:
    X, y = _blobs()[:2]

    @pytest.mark.parametrize("name, value", [
        ("conformity_score", "raps"), ("conformity_score", "LAC"), ("conformity_score", None),
        ("confidence_level", 0.0), ("confidence_level", 1.0), ("confidence_level", 1.5), ("confidence_level", "0.9"),
        ("confidence_level", float("nan")),
        ("calibration_size", 0.0), ("calibration_size", 1.0), ("calibration_size", -0.25), ("calibration_size", None),
        ("empty", "drop"), ("empty", None),
        ("random_state", -1), ("random_state", 1.5), ("random_state", "seed"), ("random_state", 2**32),
    ])
    def test_a_bad_parameter_is_named(self, name, value):
        model = ConformalSetClassifier(LogisticRegression(), **{name: value})
        with pytest.raises(ValueError, match=name):
            model.fit(self.X, self.y)

    def test_an_estimator_without_predict_proba(self):
        with pytest.raises(ValueError, match="estimator must have predict_proba"):
            ConformalSetClassifier(LinearSVC()).fit(self.X, self.y)

    def test_a_frozen_estimator_fitted_on_other_classes(self):
        keep = self.y < 2
        frozen = FrozenEstimator(LogisticRegression().fit(self.X[keep], self.y[keep]))
        with pytest.raises(ValueError, match="estimator's classes_ \\[0, 1\\] are not those"):
            ConformalSetClassifier(frozen).fit(self.X, self.y)

    def test_too_few_conformalisation_instances(self):
        X, y = self.X[::6], self.y[::6]  # 30 instances: 8 to conformalise, 10 needed at 0.9
        small = ConformalSetClassifier(LogisticRegression()).fit(X, y)
        assert small.conformalizer_ is None
        sets, was_empty = small.predict_set_with_empty(X)
        assert sets.all() and not was_empty.any()  # the quantile is +inf: every class
        enough = ConformalSetClassifier(LogisticRegression(), calibration_size=0.4).fit(X, y)  # 12 are enough
        assert enough.conformalizer_ is not None and not enough.predict_set(X).all()

    def test_aps_on_two_classes(self):
        keep = self.y < 2
        with pytest.raises(ValueError, match="conformity_score='aps' needs at least three classes"):
            ConformalSetClassifier(LogisticRegression(), conformity_score="aps").fit(self.X[keep], self.y[keep])
        ConformalSetClassifier(LogisticRegression()).fit(self.X[keep], self.y[keep])  # LAC is fine

    def test_a_single_class(self):
        with pytest.raises(ValueError, match="y has 1 class"):
            ConformalSetClassifier(LogisticRegression()).fit(self.X, np.zeros(len(self.y)))

    def test_inconsistent_lengths(self):
        with pytest.raises(ValueError, match="inconsistent numbers of samples"):
            ConformalSetClassifier(LogisticRegression()).fit(self.X, self.y[:-1])

    @pytest.mark.parametrize("method", ["predict", "predict_proba", "predict_set", "predict_set_with_empty",
                                        "predict_with_set", "predict_index"])
    def test_prediction_before_fit(self, method):
        with pytest.raises(NotFittedError):
            getattr(ConformalSetClassifier(GaussianNB()), method)(self.X)

    def test_a_wrong_number_of_features_at_prediction(self):
        model = ConformalSetClassifier(GaussianNB()).fit(self.X, self.y)
        with pytest.raises(ValueError, match="is expecting 2 features"):
            model.predict_set(np.zeros((2, 3)))
