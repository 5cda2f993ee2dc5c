"""Tests of credalbook.discrete (discrete-input and label coding) and credalbook.classifiers.base (the mixin)."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone

from credalbook.classifiers.base import CredalClassifierMixin, choose_in_set
from credalbook.discrete import MISSING, check_discrete_X, encode_labels


class Majority(CredalClassifierMixin):
    """A toy credal classifier: the set of classes whose training count is within `slack` of the top."""

    def __init__(self, slack=0):
        self.slack = slack

    def fit(self, X, y):
        _, yc = self._fit_discrete(X, y)
        self.counts_ = np.bincount(yc, minlength=self.n_classes_)
        return self

    def _predict_set_codes(self, Xc):
        keep = self.counts_ >= self.counts_.max() - self.slack
        return np.tile(keep, (Xc.shape[0], 1))

    def _scores_codes(self, Xc):
        return np.tile(self.counts_.astype(float), (Xc.shape[0], 1))


def test_codes_from_numeric_array_with_missing():
    codes, n_values, cats = check_discrete_X(np.array([[0, 2], [np.nan, 1], [1, -1]]))
    assert codes.tolist() == [[0, 2], [MISSING, 1], [1, MISSING]]
    assert n_values.tolist() == [2, 3]
    assert cats is None


def test_codes_from_categorical_frame_keep_declared_values():
    frame = pd.DataFrame({"a": pd.Categorical(["x", None, "z"], categories=["x", "y", "z"]),
                          "b": [0.0, 1.0, np.nan]})
    codes, n_values, cats = check_discrete_X(frame)
    assert codes.tolist() == [[0, 0], [MISSING, 1], [2, MISSING]]
    assert n_values.tolist() == [3, 2]
    recoded, _, _ = check_discrete_X(pd.DataFrame({"a": pd.Categorical(["z", "y"]), "b": [1, 0]}),
                                     n_values=n_values, categories=cats)
    assert recoded.tolist() == [[2, 1], [1, 0]]


def test_unseen_values_missing_or_error():
    codes, _, _ = check_discrete_X(np.array([[0, 5]]), n_values=[2, 3])
    assert codes.tolist() == [[0, MISSING]]
    with pytest.raises(ValueError, match="unseen"):
        check_discrete_X(np.array([[0, 5]]), n_values=[2, 3], unseen="error")
    cats = [pd.Index(["x", "y"])]
    with pytest.raises(ValueError, match="unseen"):
        check_discrete_X(pd.DataFrame({"a": pd.Categorical(["w"])}), n_values=[2], categories=cats, unseen="error")
    codes, _, _ = check_discrete_X(pd.DataFrame({"a": pd.Categorical(["w"])}), n_values=[2], categories=cats)
    assert codes.tolist() == [[MISSING]]


class TestBadInput:
    def test_non_discrete_features(self):
        with pytest.raises(ValueError, match="non-integer.*discretise"):
            check_discrete_X(np.array([[0.5, 1.0]]))

    def test_strings_without_categorical(self):
        with pytest.raises(ValueError, match="X"):
            check_discrete_X(np.array([["a", "b"]]))

    def test_shape_and_empty(self):
        with pytest.raises(ValueError, match="2-dimensional"):
            check_discrete_X(np.array([0, 1]))
        with pytest.raises(ValueError, match="empty"):
            check_discrete_X(np.zeros((0, 2)))
        with pytest.raises(ValueError, match="Negative values in data passed to X"):
            check_discrete_X(np.array([[-2]]))
        with pytest.raises(ValueError, match="fitted on 3"):
            check_discrete_X(np.zeros((1, 2)), n_values=[1, 1, 1])
        with pytest.raises(ValueError, match="unseen must be"):
            check_discrete_X(np.zeros((1, 2)), unseen="drop")

    def test_labels(self):
        with pytest.raises(ValueError, match="missing class"):
            encode_labels(np.array([0.0, np.nan]))
        with pytest.raises(ValueError, match="1-dimensional"):
            encode_labels(np.zeros((2, 2)))
        with pytest.raises(ValueError, match="y is empty"):
            encode_labels([])

    def test_fit_checks(self):
        with pytest.raises(ValueError, match="inconsistent"):
            Majority().fit(np.zeros((3, 1)), [0, 1])
        with pytest.raises(ValueError, match="at least two classes"):
            Majority().fit(np.zeros((3, 1)), [1, 1, 1])


def test_categorical_labels_keep_absent_class():
    y = pd.Categorical(["a", "a", "b"], categories=["a", "b", "c"])
    classes, codes = encode_labels(y)
    assert classes.tolist() == ["a", "b", "c"] and codes.tolist() == [0, 0, 1]
    model = Majority(slack=1).fit(np.zeros((3, 1)), y)
    assert model.predict_set(np.zeros((2, 1))).shape == (2, 3)
    assert model.predict_set(np.zeros((1, 1))).tolist() == [[True, True, False]]
    assert model.predict(np.zeros((1, 1))).tolist() == ["a"]


def test_sklearn_api():
    model = Majority(slack=2)
    assert clone(model).get_params() == {"slack": 2}
    model.fit(np.array([[0], [1], [1]]), np.array(["u", "v", "v"]))
    assert model.score(np.array([[0], [1]]), np.array(["v", "v"])) == 1.0
    with pytest.raises(Exception):
        Majority().predict_set(np.zeros((1, 1)))


def test_choose_in_set_ties_to_lowest_index():
    sets = np.array([[False, True, True], [True, False, True]])
    scores = np.array([[9.0, 1.0, 1.0], [0.1, 5.0, 0.3]])
    assert choose_in_set(sets, scores).tolist() == [1, 2]


def test_an_identifier_column_is_refused_before_any_count_table_is_allocated():
    from credalbook.classifiers.ncc import NaiveCredalClassifier

    rng = np.random.default_rng(0)
    X = np.column_stack([rng.integers(0, 3, size=50), rng.integers(0, 10**12, size=50)])
    y = rng.integers(0, 2, size=50)
    with pytest.raises(ValueError, match=r"X feature 1 has codes up to \d+ for 50 instances.*identifier column"):
        NaiveCredalClassifier().fit(X, y)
    frame = pd.DataFrame({"colour": rng.integers(0, 3, size=50), "id": np.arange(10**9, 10**9 + 50)})
    with pytest.raises(ValueError, match="X column 'id' has codes up to 1000000049"):
        NaiveCredalClassifier().fit(frame, y)
    NaiveCredalClassifier().fit(np.column_stack([X[:, 0], np.arange(50) * 20]), y)  # sparse but small codes: fine


@given(st.integers(0, 6), st.integers(1, 40), st.integers(0, 2**32 - 1))
@settings(max_examples=80, deadline=None)
def test_distinct_rows_by_mixed_radix_keys_equal_numpy_unique(d, n, seed):
    """Coded rows read as mixed-radix integers give np.unique's rows, order and inverse (missing = -1 included)."""
    from credalbook.classifiers.naive import distinct_rows

    rng = np.random.default_rng(seed)
    n_values = rng.integers(1, 5, d)
    Xc = np.column_stack([rng.integers(-1, v, n) for v in n_values]) if d else np.zeros((n, 0), dtype=np.int64)
    rows, inverse = np.unique(Xc, axis=0, return_inverse=True)
    found_rows, found_inverse = distinct_rows(Xc, n_values)
    np.testing.assert_array_equal(found_rows, rows)
    np.testing.assert_array_equal(found_inverse, inverse.ravel())


def test_distinct_rows_too_wide_for_one_integer_fall_back_to_numpy_unique():
    from credalbook.classifiers.naive import distinct_rows

    Xc = np.random.default_rng(1).integers(-1, 4, (50, 40))      # 5^40 > 2^62 keys
    Xc[10] = Xc[3]
    rows, inverse = distinct_rows(Xc, np.full(40, 4))
    assert len(rows) == 49 and inverse[10] == inverse[3]
    np.testing.assert_array_equal(rows[inverse], Xc)
