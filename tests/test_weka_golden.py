"""The book's MDL discretisation and CFS against Weka 3.9.7 on every dataset of the credal benchmark,
the ten training folds of run 0 (Zaffalon, Corani & Mauá 2012, §9.1.3): Weka's outputs are the golden
files under ``tests/golden/weka/`` (made by ``scripts/weka_golden.py``), so no Java is needed here.

* ``MDLDiscretizer()`` gives Weka's cut points, bit for bit, on every fold;
* ``CFSSelector(convention="weka", locally_predictive=True)`` keeps Weka's attributes (and without
  the locally predictive ones, Weka's search with ``-L``) on every fold, given Weka's discretisation;
* ``CFSSelector()`` (the book's convention) differs exactly on the folds listed in
  ``tests/golden/weka/expected_differences.yml``, each for the cause named there: switching on just
  those Weka conventions in the book's computation gives Weka's subset.

``python tests/test_weka_golden.py`` prints the agreement table (datasets x folds).
"""
from __future__ import annotations

import gzip
import json
from functools import lru_cache

import numpy as np
import pandas as pd
import pytest
import yaml

from credalbook import preprocessing
from credalbook.book.build import repo_root
from credalbook.discrete import check_discrete_X, encode_labels
from credalbook.book.experiments.benchmark import N_FOLDS, available_datasets, fold_indices, load_dataset
from credalbook.preprocessing import CFSSelector, MDLDiscretizer

GOLDEN = repo_root() / "tests" / "golden" / "weka"
CUTS = json.loads(gzip.decompress((GOLDEN / "mdl_cuts.json.gz").read_bytes()))
SUBSETS = json.loads((GOLDEN / "cfs_subsets.json").read_text())
EXPECTED = yaml.safe_load((GOLDEN / "expected_differences.yml").read_text())
DATASETS = list(CUTS["datasets"])
CAUSES = set(EXPECTED["causes"])


def _listed(comparison: str, name: str) -> dict[int, set]:
    return {int(f): set(c.split("+")) for f, c in (EXPECTED[comparison].get(name) or {}).items()}


@lru_cache(maxsize=None)
def dataset_results(name: str) -> list[dict]:
    """Per fold: the book's cut points, the Weka-discretised training part and the three CFS subsets."""
    X, y, codes = load_dataset(name)
    folds = []
    for fold in range(N_FOLDS):
        train, _ = fold_indices(codes, 0, fold)
        X_train, y_train = X.iloc[train], y.iloc[train]
        discretiser = MDLDiscretizer().fit(X_train, y_train)
        book_cuts = [c for c in discretiser.cuts_ if c is not None]
        weka_cuts = iter([np.array(c, dtype=float) for c in CUTS["datasets"][name]["folds"][fold]])
        discretiser.cuts_ = [None if c is None else next(weka_cuts) for c in discretiser.cuts_]
        X_weka = discretiser.transform(X_train)          # Weka's discretisation: CFS is compared alone
        book = CFSSelector().fit(X_weka, y_train)

        def names(mask):
            return sorted(X_weka.columns[mask])

        folds.append({
            "cuts": book_cuts, "X": X_weka, "y": y_train, "book_selector": book, "book": names(book.support_),
            "weka_selected": names(CFSSelector(convention="weka", locally_predictive=True)
                                   .fit(X_weka, y_train).support_),
            "weka_search": names(CFSSelector(convention="weka").fit(X_weka, y_train).support_)})
    return folds


def golden_subsets(name: str, fold: int, comparison: str) -> list[str]:
    return sorted(SUBSETS["datasets"][name][fold][comparison])


def test_golden_files_cover_the_collection_and_record_weka():
    for header in (CUTS["header"], SUBSETS["header"]):
        assert header["weka"] == "3.9.7" and header["script"] == "scripts/weka_golden.py"
        assert header["run"] == 0 and header["folds"] == N_FOLDS
    assert DATASETS == list(available_datasets()) == list(SUBSETS["datasets"])
    for name in DATASETS:
        X, _, _ = load_dataset(name)
        numeric = [str(c) for c in X.columns if not isinstance(X[c].dtype, pd.CategoricalDtype)]
        assert CUTS["datasets"][name]["numeric"] == numeric
        assert len(CUTS["datasets"][name]["folds"]) == len(SUBSETS["datasets"][name]) == N_FOLDS
        for fold in CUTS["datasets"][name]["folds"]:
            assert len(fold) == len(numeric) and all(list(c) == sorted(c) for c in fold)


def test_expected_differences_name_known_causes_and_folds():
    assert CAUSES == {"locally-predictive", "zero-su-redundant", "missing-spread", "empty-search"}
    for comparison in ("search", "selected"):
        for name, folds in EXPECTED[comparison].items():
            assert name in DATASETS
            for fold, causes in _listed(comparison, name).items():
                assert 0 <= fold < N_FOLDS and causes <= CAUSES


@pytest.mark.parametrize("name", DATASETS)
def test_mdl_cut_points_are_weka_s(name):
    """Every numeric attribute's cut points on every fold, compared as floats bit for bit."""
    differ = []
    for fold, result in enumerate(dataset_results(name)):
        for attribute, mine, weka in zip(CUTS["datasets"][name]["numeric"], result["cuts"],
                                         CUTS["datasets"][name]["folds"][fold]):
            if not np.array_equal(mine, np.array(weka, dtype=float)):
                differ.append((fold, attribute, list(mine), weka))
    assert not differ


@pytest.mark.parametrize("name", DATASETS)
def test_cfs_weka_convention_keeps_weka_s_attributes(name):
    for fold, result in enumerate(dataset_results(name)):
        assert result["weka_selected"] == golden_subsets(name, fold, "selected"), fold
        assert result["weka_search"] == golden_subsets(name, fold, "search"), fold


@pytest.mark.parametrize("name", DATASETS)
def test_cfs_book_convention_differs_where_listed(name):
    results = dataset_results(name)
    for comparison in ("search", "selected"):
        differ = {fold for fold, r in enumerate(results) if r["book"] != golden_subsets(name, fold, comparison)}
        assert differ == set(_listed(comparison, name)), comparison


def _variant(result: dict, causes: set) -> list[str]:
    """The book's CFS with only the Weka conventions named by ``causes`` switched on."""
    selector = result["book_selector"]
    class_corr, feature_corr = selector.class_correlation_, selector.feature_correlation_
    if "missing-spread" in causes:   # Weka's tables of missing values, the book's rule at 0
        codes, n_values, _ = check_discrete_X(result["X"])
        _, labels = encode_labels(result["y"])
        m, k, d = np.maximum(n_values, 1), int(labels.max()) + 1, codes.shape[1]
        su = preprocessing.symmetrical_uncertainty
        class_corr = np.array([su(preprocessing._weka_table(codes[:, j], labels, m[j], k)) for j in range(d)])
        feature_corr = np.eye(d)
        for i in range(d):
            for j in range(i + 1, d):
                feature_corr[i, j] = feature_corr[j, i] = su(preprocessing._weka_table(codes[:, j], codes[:, i],
                                                                                        m[j], m[i]))
    if "zero-su-redundant" in causes:
        class_corr = np.where(np.abs(class_corr) < 1e-6, 0.0, class_corr)
        off_diagonal = ~np.eye(class_corr.size, dtype=bool)
        feature_corr = np.where(off_diagonal & (np.abs(feature_corr) < 1e-6), 1.0, feature_corr)
    subset = selector._best_first(class_corr, feature_corr)
    if "empty-search" in causes:
        assert subset == () and result["book"] == [result["X"].columns[int(np.argmax(class_corr))]]
    if "locally-predictive" in causes:
        subset = CFSSelector._locally_predictive(subset, class_corr, feature_corr)
    return sorted(result["X"].columns[list(subset)])


@pytest.mark.parametrize("name", [n for n in DATASETS if n in EXPECTED["search"] or n in EXPECTED["selected"]])
def test_each_listed_cause_accounts_for_the_difference(name):
    results = dataset_results(name)
    for comparison in ("search", "selected"):
        for fold, causes in _listed(comparison, name).items():
            golden = golden_subsets(name, fold, comparison)
            if causes == {"empty-search"}:
                assert golden == [] and _variant(results[fold], causes) == [], (comparison, fold)
                continue
            assert _variant(results[fold], causes) == golden, (comparison, fold, causes)
            assert _variant(results[fold], set()) != golden   # and the book's own convention does not


def agreement_table() -> pd.DataFrame:
    """Datasets x (folds of 10 where the book agrees with Weka): MDL cuts, CFS (book), CFS (weka)."""
    rows = []
    for name in DATASETS:
        results = dataset_results(name)
        mdl = sum(all(np.array_equal(m, np.array(w, dtype=float)) for m, w in
                      zip(r["cuts"], CUTS["datasets"][name]["folds"][f])) for f, r in enumerate(results))
        causes = sorted({c for cs in _listed("selected", name).values() for c in cs})
        rows.append({"dataset": name, "numeric": len(CUTS["datasets"][name]["numeric"]), "MDL cuts": mdl,
                     "CFS book vs Weka": sum(r["book"] == golden_subsets(name, f, "selected")
                                             for f, r in enumerate(results)),
                     "CFS book vs Weka -L": sum(r["book"] == golden_subsets(name, f, "search")
                                                for f, r in enumerate(results)),
                     "CFS weka convention": sum(r["weka_selected"] == golden_subsets(name, f, "selected")
                                                for f, r in enumerate(results)),
                     "causes": ", ".join(causes)})
    return pd.DataFrame(rows)


if __name__ == "__main__":
    table = agreement_table()
    with pd.option_context("display.max_rows", None, "display.width", 200, "display.max_colwidth", 60):
        print(table.to_string(index=False))
        print(table.drop(columns=["dataset", "causes"]).sum().to_string())
