"""Set-valued predictions read through every scikit-learn wrapper: nested cross-validation scores the
inner model's sets, never its point predictions (issue 28, item 1), and nothing falls back to singletons
unless asked."""
from __future__ import annotations

import warnings

import matplotlib
import numpy as np
import pytest
from sklearn.datasets import load_digits
from sklearn.ensemble import BaggingClassifier
from sklearn.experimental import enable_halving_search_cv  # noqa: F401  (makes HalvingGridSearchCV importable)
from sklearn.model_selection import (GridSearchCV, HalvingGridSearchCV, RandomizedSearchCV, StratifiedKFold,
                                     cross_val_predict, cross_validate)
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.tree import DecisionTreeClassifier

from credalbook.classifiers import NaiveCredalClassifier
from credalbook.display import SetSizeDisplay
from credalbook.model_selection import cross_val_predict_set
from credalbook.pipeline import SingletonSetWarning, make_set_pipeline, predict_set, set_predictor
from credalbook.preprocessing import MDLDiscretizer
from credalbook.scoring import get_scorer

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def digits():
    X, y = load_digits(return_X_y=True)
    return X[:600], y[:600]


def credal_pipeline(s=5.0):
    return make_set_pipeline(MDLDiscretizer(), NaiveCredalClassifier(s=s))


def wrappers():
    """Every wrapper the issue names, around the same pipeline, with a single candidate (s = 5)."""
    grid = {"naivecredalclassifier__s": [5.0]}
    u65 = get_scorer("u65")
    return {
        "SetPipeline": credal_pipeline(),
        "Pipeline": Pipeline([("mdl", MDLDiscretizer()), ("naivecredalclassifier", NaiveCredalClassifier(s=5.0))]),
        "GridSearchCV": GridSearchCV(credal_pipeline(), grid, scoring=u65, cv=3),
        "RandomizedSearchCV": RandomizedSearchCV(credal_pipeline(), grid, n_iter=1, scoring=u65, cv=3, random_state=0),
        "HalvingGridSearchCV": HalvingGridSearchCV(credal_pipeline(), grid, scoring=u65, cv=3, random_state=0),
        "Pipeline(GridSearchCV)": make_pipeline(MDLDiscretizer(), GridSearchCV(NaiveCredalClassifier(), {"s": [5.0]},
                                                                               scoring=u65, cv=3)),
        "GridSearchCV(GridSearchCV)": GridSearchCV(GridSearchCV(credal_pipeline(), grid, scoring=u65, cv=2),
                                                   {"cv": [2]}, scoring=u65, cv=2),
    }


@pytest.mark.parametrize("name", list(wrappers()))
def test_every_wrapper_gives_the_sets_of_the_model_it_wraps(digits, name):
    X, y = digits
    train, test = slice(0, 400), slice(400, 600)
    wrapped = wrappers()[name].fit(X[train], y[train])
    bare = credal_pipeline().fit(X[train], y[train])
    expected = bare.predict_set(X[test])
    assert expected.sum(axis=1).mean() > 1.2  # the model makes real sets here, so singletons could not pass
    np.testing.assert_array_equal(predict_set(wrapped, X[test]), expected)
    assert get_scorer("u65")(wrapped, X[test], y[test]) == pytest.approx(get_scorer("u65")(bare, X[test], y[test]))


def test_the_issues_reproducer_gives_sets_in_nested_cross_validation(digits):
    """Issue 28, item 1: nested CV reported u65 0.87-0.90 with set size 1.0, the point predictions' numbers."""
    X, y = digits
    scoring = {"u65": get_scorer("u65"), "size": get_scorer("neg_average_set_size")}
    search = GridSearchCV(credal_pipeline(), {"naivecredalclassifier__s": [5.0]}, scoring=get_scorer("u65"), cv=3)
    nested = cross_validate(search, X, y, cv=3, scoring=scoring)
    plain = cross_validate(credal_pipeline(), X, y, cv=3, scoring=scoring)
    assert np.all(-nested["test_size"] > 1.2)
    np.testing.assert_allclose(nested["test_u65"], plain["test_u65"])
    np.testing.assert_allclose(nested["test_size"], plain["test_size"])


def test_set_size_display_reads_through_a_search(digits):
    X, y = digits
    search = GridSearchCV(credal_pipeline(), {"naivecredalclassifier__s": [5.0]}, cv=2).fit(X[:400], y[:400])
    display = SetSizeDisplay.from_estimator(search, X[400:], y[400:])
    sets = credal_pipeline().fit(X[:400], y[:400]).predict_set(X[400:])
    assert set(display.sizes.tolist()) >= set(np.unique(sets.sum(axis=1)).tolist())
    assert max(display.sizes) > 1
    matplotlib.pyplot.close("all")


class TestCrossValPredictSet:
    def test_each_set_comes_from_the_model_without_its_fold(self, digits):
        X, y = digits
        cv = StratifiedKFold(3, shuffle=True, random_state=1)
        sets = cross_val_predict_set(credal_pipeline(), X, y, cv=cv)
        assert sets.shape == (len(y), 10)
        for train, test in cv.split(X, y):
            np.testing.assert_array_equal(sets[test], credal_pipeline().fit(X[train], y[train]).predict_set(X[test]))

    def test_through_a_search_equals_the_bare_model_and_agrees_with_predict(self, digits):
        X, y = digits
        search = GridSearchCV(credal_pipeline(), {"naivecredalclassifier__s": [5.0]}, cv=2)
        through = cross_val_predict_set(search, X, y, cv=3)
        np.testing.assert_array_equal(through, cross_val_predict_set(credal_pipeline(), X, y, cv=3))
        points = cross_val_predict(credal_pipeline(), X, y, cv=3)
        assert through[np.arange(len(y)), np.searchsorted(np.unique(y), points)].all()  # the point is in its set

    def test_string_labels_and_a_class_missing_from_a_training_fold(self):
        X = np.array([[0], [0], [1], [1], [2], [2], [0], [1]])
        y = np.array(["a", "a", "b", "b", "c", "c", "a", "b"])
        folds = [(np.arange(0, 4), np.arange(4, 8)), (np.arange(4, 8), np.arange(0, 4))]
        sets = cross_val_predict_set(NaiveCredalClassifier(), X, y, cv=folds)
        assert sets.shape == (8, 3)
        assert not sets[4:, 2].any()  # "c" is not in the first training fold, so never in its sets

    def test_precise_classifier_needs_the_option(self, digits):
        X, y = digits
        with pytest.raises(TypeError, match="precise='singleton'"):
            cross_val_predict_set(DecisionTreeClassifier(random_state=0), X, y, cv=3)
        sets = cross_val_predict_set(DecisionTreeClassifier(random_state=0), X, y, cv=3, precise="singleton")
        np.testing.assert_array_equal(sets.sum(axis=1), 1)
        points = cross_val_predict(DecisionTreeClassifier(random_state=0), X, y, cv=3)
        np.testing.assert_array_equal(np.argmax(sets, axis=1), np.searchsorted(np.unique(y), points))

    @pytest.mark.parametrize("kwargs,error,match", [
        ({"precise": "maybe"}, ValueError, "precise must be one of"),
        ({"cv": [(np.arange(4), np.arange(4, 6))]}, ValueError, "exactly one test fold"),
    ])
    def test_bad_arguments(self, kwargs, error, match):
        X, y = np.zeros((8, 1)), np.array([0, 1] * 4)
        with pytest.raises(error, match=match):
            cross_val_predict_set(NaiveCredalClassifier(), X, y, **kwargs)

    def test_a_regressor_is_refused(self):
        from sklearn.linear_model import LinearRegression
        with pytest.raises(TypeError, match="estimator must be a classifier, got LinearRegression"):
            cross_val_predict_set(LinearRegression(), np.zeros((6, 1)), np.arange(6))


class TestNoSilentSingletons:
    X = np.array([[0], [1], [0], [1], [2], [2]] * 3)
    y = np.array(["a", "b", "a", "b", "a", "b"] * 3)

    def test_a_precise_classifier_is_an_error_by_default(self):
        tree = DecisionTreeClassifier().fit(self.X, self.y)
        with pytest.raises(TypeError, match="DecisionTreeClassifier gives no set-valued predictions"):
            predict_set(tree, self.X)
        with pytest.raises(TypeError, match="gives no set-valued predictions"):
            get_scorer("u65")(tree, self.X, self.y)

    def test_singleton_and_warn_give_the_predictions(self):
        tree = DecisionTreeClassifier().fit(self.X, self.y)
        expected = tree.predict(self.X)[:, None] == tree.classes_[None, :]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            np.testing.assert_array_equal(predict_set(tree, self.X, precise="singleton"), expected)
            accuracy = get_scorer("u65", precise="singleton")(tree, self.X, self.y)
        assert accuracy == pytest.approx(tree.score(self.X, self.y))
        with pytest.warns(SingletonSetWarning, match="taken as singleton sets"):
            np.testing.assert_array_equal(predict_set(tree, self.X, precise="warn"), expected)

    def test_a_wrapper_hiding_a_set_classifier_is_refused_even_when_singletons_are_allowed(self):
        bagged = BaggingClassifier(NaiveCredalClassifier(), n_estimators=2, random_state=0).fit(self.X, self.y)
        with pytest.raises(TypeError, match="BaggingClassifier wraps a set-valued classifier .estimator."):
            predict_set(bagged, self.X, precise="singleton")

    def test_a_search_without_refit_is_refused(self):
        search = GridSearchCV(NaiveCredalClassifier(), {"s": [1.0, 2.0]}, cv=2, refit=False).fit(self.X, self.y)
        with pytest.raises(TypeError, match=r"GridSearchCV\(refit=False\) keeps no fitted estimator"):
            predict_set(search, self.X)

    def test_an_unfitted_search_is_not_fitted(self):
        from sklearn.exceptions import NotFittedError
        with pytest.raises(NotFittedError):
            predict_set(GridSearchCV(NaiveCredalClassifier(), {"s": [1.0]}), self.X)

    def test_set_predictor_names_the_model_inside(self):
        search = GridSearchCV(credal_pipeline(), {"naivecredalclassifier__s": [1.0]}, cv=2).fit(self.X, self.y)
        assert set_predictor(search) is search.best_estimator_  # a SetPipeline passes predict_set through itself
        plain = Pipeline([("mdl", MDLDiscretizer()), ("ncc", NaiveCredalClassifier())]).fit(self.X, self.y)
        assert set_predictor(plain) is plain.named_steps["ncc"]
        assert set_predictor(DecisionTreeClassifier().fit(self.X, self.y)) is None

    def test_bad_precise_option(self):
        with pytest.raises(ValueError, match="precise must be one of"):
            get_scorer("u65", precise="sometimes")
