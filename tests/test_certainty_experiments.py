"""Tests of credalbook.experiments.certainty (the protocol, the tables beside the paper)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from credalbook.experiments import certainty as ex


def test_classifiers_are_the_papers_four():
    from sklearn.neighbors import KNeighborsClassifier

    assert ex.CLASSIFIERS == ("3-NN", "Naive Bayes", "Decision Tree", "Random Forest")
    knn = ex.make_classifier("3-NN")[-1]
    assert isinstance(knn, KNeighborsClassifier) and knn.n_neighbors == 3


def test_out_of_fold_predictions():
    result = ex.out_of_fold_proba("fertility", "Naive Bayes", seed=0, folds=10)
    y, proba, fold = result["y"], result["proba"], result["fold"]
    assert proba.shape == (100, 2) and y.shape == (100,)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert set(np.unique(fold)) == set(range(10))
    # stratified: each fold holds one or two of the 12 minority instances
    minority = np.argmin(np.bincount(y))
    assert set(np.bincount(fold[y == minority], minlength=10)) <= {1, 2}
    again = ex.out_of_fold_proba("fertility", "Naive Bayes", seed=0, folds=10)
    np.testing.assert_array_equal(again["proba"], proba)


def test_rows_and_tables():
    result = ex.out_of_fold_proba("fertility", "Decision Tree")
    row = ex.certainty_row(result["y"], result["proba"])
    assert 0 <= row["acc"] <= 1 and row["c_rho_pct"] <= 100
    assert row["share_one_hot"] > 0.9  # a fully grown tree outputs 0/1 probabilities
    folds = ex.fold_averaged_row(result["y"], result["proba"], result["fold"])
    assert set(folds) == {f"{c}_foldavg" for c in ex.PAPER_COLUMNS}
    results = pd.DataFrame([{"dataset": "fertility", "paper_name": "fertility diagnosis", "classifier": "Decision Tree",
                             **row, **folds}])
    table = ex.book_table(results, "Decision Tree")
    assert list(table["dataset"]) == ["fertility diagnosis", "Mean"]
    compared = ex.compare_table(results, "Decision Tree")
    fertility = compared[compared["dataset"] == "fertility diagnosis"].set_index("measure")
    assert fertility.loc["acc", "paper"] == 0.760
    assert fertility.loc["acc", "book"] == pytest.approx(row["acc"])
    assert (compared[compared["dataset"] == "musk v2"]["verdict"] == "missing in book").all()
    means = ex.book_means(results, "foldavg")
    assert means.loc[0, "acc"] == pytest.approx(folds["acc_foldavg"])


def test_published_consistency_finds_the_inconsistent_rows():
    rows, means = ex.published_consistency("Decision Tree")
    cardio = rows.set_index("dataset").loc["cardiotocography"]
    assert cardio["c_rho_check"] == pytest.approx(100 * 0.856 / (0.856 + 0.227))
    assert cardio["c_rho_difference"] > 7
    div = means.set_index("column").loc["div_pct"]
    assert div["printed_mean"] == 0.0 and round(div["mean_of_rows"], 1) == 0.1  # Table 6 prints 0.1
    paper20 = ex.paper_means_on([n for k, n in ex.PAPER_NAMES.items() if k not in ex.MISSING])
    assert len(paper20) == 4 and paper20["acc"].between(0.6, 0.9).all()


def test_profiles():
    assert ex.profile_datasets("ci") == list(ex.CI_DATASETS)
    assert len(ex.profile_datasets("full")) == 20 and "musk2" not in ex.profile_datasets("full")


class TestBadInput:
    def test_arguments(self):
        with pytest.raises(ValueError, match="classifier must be one of"):
            ex.make_classifier("SVM")
        with pytest.raises(ValueError, match="profile must be"):
            ex.profile_datasets("huge")
        frame = pd.DataFrame({"classifier": ["3-NN"], "paper_name": ["sonar"], **{c: [0.5] for c in ex.PAPER_COLUMNS}})
        with pytest.raises(ValueError, match="no rows for classifier"):
            ex.book_table(frame, "Random Forest")
        with pytest.raises(ValueError, match="classifier must be one of"):
            ex.book_table(frame, "SVM")
        with pytest.raises(ValueError, match="protocol must be"):
            ex.book_table(frame, "3-NN", protocol="bootstrap")
        with pytest.raises(ValueError, match="protocol must be"):
            ex.book_means(frame, protocol="bootstrap")
        with pytest.raises(ValueError, match="classifier must be one of"):
            ex.published_consistency("SVM")

    def test_missing_dataset_is_reported(self):
        from credalbook.data import DatasetNotFoundError

        with pytest.raises(DatasetNotFoundError, match="musk2"):
            ex.out_of_fold_proba("musk2", "3-NN")
