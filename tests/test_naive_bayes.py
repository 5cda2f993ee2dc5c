"""Naive Bayes with Laplace counts: hand-computed posteriors, missing values, bad input."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credalbook.classifiers.naive_bayes import NaiveBayes, naive_counts

X = np.array([[0, 1], [0, 0], [1, 1], [1, 1], [np.nan, 0]])
y = np.array([0, 0, 1, 1, 1])


def test_hand_computed_posterior():
    # P(c=0) = 3/7, P(c=1) = 4/7; feature 0: class 0 observed 2 (both 0), class 1 observed 2 (both 1);
    # P(a0=0|0) = 3/4, P(a0=0|1) = 1/4; feature 1: P(a1=1|0) = 2/4, P(a1=1|1) = 3/5
    model = NaiveBayes().fit(X, y)
    joint = np.array([3 / 7 * 3 / 4 * 2 / 4, 4 / 7 * 1 / 4 * 3 / 5])
    np.testing.assert_allclose(model.predict_proba([[0, 1]])[0], joint / joint.sum())
    # missing first feature: marginalised
    joint = np.array([3 / 7 * 2 / 4, 4 / 7 * 3 / 5])
    np.testing.assert_allclose(model.predict_proba([[np.nan, 1]])[0], joint / joint.sum())
    assert model.predict([[0, 1]]).tolist() == [0]
    assert model.predict_set([[0, 1]]).tolist() == [[True, False]]


def test_counts_exclude_missing():
    counts = naive_counts(np.array([[0, -1], [1, 0]]), np.array([0, 1]), 2, np.array([2, 1]))
    assert counts.observed.tolist() == [[1, 1], [0, 1]]
    assert counts.used.tolist() == [True, False]


def test_all_missing_instance_gives_prior():
    model = NaiveBayes().fit(X, y)
    np.testing.assert_allclose(model.predict_proba([[np.nan, np.nan]])[0], [3 / 7, 4 / 7])


def test_unseen_value_is_missing():
    model = NaiveBayes().fit(X, y)
    np.testing.assert_allclose(model.predict_proba([[7, 1]]), model.predict_proba([[np.nan, 1]]))


def test_absent_class_keeps_column():
    labels = pd.Categorical(["a", "a", "b", "b", "b"], categories=["a", "b", "c"])
    model = NaiveBayes().fit(X, labels)
    proba = model.predict_proba([[0, 1]])
    assert proba.shape == (1, 3) and proba[0, 2] > 0
    assert model.classes_.tolist() == ["a", "b", "c"]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_probabilities_sum_to_one_and_agree_with_predict(seed):
    rng = np.random.default_rng(seed)
    Xr = rng.integers(0, 3, size=(30, 4)).astype(float)
    Xr[rng.random(Xr.shape) < 0.1] = np.nan
    yr = rng.integers(0, 3, 30)
    yr[:3] = [0, 1, 2]
    model = NaiveBayes().fit(Xr, yr)
    proba = model.predict_proba(Xr)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(model.predict(Xr), model.classes_[proba.argmax(axis=1)])


class TestBadInput:
    def test_prior_count(self):
        with pytest.raises(ValueError, match="prior_count"):
            NaiveBayes(prior_count=0).fit(X, y)

    def test_continuous_features(self):
        with pytest.raises(ValueError, match="discretise"):
            NaiveBayes().fit(np.array([[0.3], [1.2]]), [0, 1])

    def test_wrong_number_of_features(self):
        model = NaiveBayes().fit(X, y)
        with pytest.raises(ValueError, match="is expecting 2 features"):
            model.predict_proba(np.zeros((1, 3)))

    def test_not_fitted(self):
        with pytest.raises(Exception, match="not fitted"):
            NaiveBayes().predict(X)
