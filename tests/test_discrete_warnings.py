"""Pitfalls that warn (issue 28 item 8): numeric columns with many integer values given to a discrete estimator,
and string columns declared nominal to MDLDiscretizer."""
import warnings

import numpy as np
import pandas as pd
import pytest

from credalbook.classifiers import NaiveBayes, NaiveCredalClassifier
from credalbook.discrete import MANY_VALUES, ManyValuesWarning
from credalbook.preprocessing import MDLDiscretizer


def _caught(fit):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit()
    return [w for w in caught if issubclass(w.category, ManyValuesWarning)]


def test_an_age_column_warns_with_its_name_and_number_of_values():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"age": rng.integers(18, 108, 400), "smoker": rng.integers(0, 2, 400)})
    y = rng.integers(0, 2, 400)
    found = _caught(lambda: NaiveCredalClassifier().fit(X, y))
    assert len(found) == 1
    message = str(found[0].message)
    assert "'age'" in message and f"{X['age'].nunique()} integer values" in message and "MDLDiscretizer" in message
    assert "smoker" not in message
    assert found[0].filename == __file__          # points at the caller's line


def test_the_threshold_and_the_ways_out():
    values = np.arange(MANY_VALUES + 1)           # one value more than allowed: warns; MANY_VALUES values: silent
    y = np.arange(values.size) % 2
    assert len(_caught(lambda: NaiveBayes().fit(values.reshape(-1, 1), y))) == 1
    assert _caught(lambda: NaiveBayes().fit(values[:-1].reshape(-1, 1), y[:-1])) == []
    # a Categorical column is declared discrete; MDL's output is Categorical: neither warns
    X = pd.DataFrame({"a": pd.Categorical(values)})
    assert _caught(lambda: NaiveBayes().fit(X, y)) == []
    numeric = pd.DataFrame({"a": values.astype(float) + 0.5})
    pipeline_input = MDLDiscretizer().fit(numeric, y).transform(numeric)
    assert _caught(lambda: NaiveBayes().fit(pipeline_input, y)) == []
    # codes in a large range but few distinct values: not many values
    sparse_codes = np.array([0, 30, 0, 30]).reshape(-1, 1)
    assert _caught(lambda: NaiveBayes().fit(sparse_codes, [0, 1, 0, 1])) == []
    # prediction never warns
    model = NaiveBayes()
    _caught(lambda: model.fit(values.reshape(-1, 1), y))
    assert _caught(lambda: model.predict(values.reshape(-1, 1))) == []


def test_raw_digits_warn():
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    found = _caught(lambda: NaiveCredalClassifier().fit(X, y))
    assert len(found) >= 1 and "17 integer values" in str(found[0].message)


class TestNominalStrings:
    X = pd.DataFrame({"colour": ["red", "blue", "red", "green", None, "blue"], "x": [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]})
    y = [0, 0, 0, 1, 1, 1]

    def test_undeclared_string_column_says_declare_it(self):
        with pytest.raises(ValueError, match="declare it in nominal"):
            MDLDiscretizer().fit(self.X, self.y)

    def test_declared_string_column_is_coded_by_its_sorted_values(self):
        model = MDLDiscretizer(nominal=["colour"]).fit(self.X, self.y)
        assert list(model.categories_[0]) == ["blue", "green", "red"] and model.cuts_[0] is None
        out = model.transform(self.X)
        assert out["colour"].cat.codes.tolist() == [2, 0, 2, 1, -1, 0]
        assert list(out["colour"].cat.categories) == [0, 1, 2]
        # a value unseen in fit is missing, as the discrete classifiers treat unseen values
        unseen = model.transform(pd.DataFrame({"colour": ["purple"], "x": [1.0]}))
        assert unseen["colour"].cat.codes.tolist() == [-1]
        # and the pipeline runs
        sets = NaiveCredalClassifier().fit(out, self.y).predict_set(out)
        assert sets.shape == (6, 2)
