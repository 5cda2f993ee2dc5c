"""Tests of credalbook.book.experiments.certainty (the protocol, the tables beside the paper)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from credalbook.book.experiments import certainty as ex
from credalbook.book.reference import published


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
    assert cardio["c_rho_slack"] == pytest.approx(0.05 + 0.05 / (0.856 + 0.227))
    altered = published(ex.TABLES["Decision Tree"])
    altered["c_rho_pct"] = 100 * altered["acc_s"] / (altered["acc_s"] + altered["acc_u"])
    assert (ex.published_consistency("Decision Tree", altered)[0]["c_rho_difference"].abs() < 1e-9).all()
    div = means.set_index("column").loc["div_pct"]
    assert div["printed_mean"] == 0.0 and round(div["mean_of_rows"], 1) == 0.1  # Table 6 prints 0.1
    paper20 = ex.paper_means_on([n for k, n in ex.PAPER_NAMES.items() if k not in ex.MISSING])
    assert len(paper20) == 4 and paper20["acc"].between(0.6, 0.9).all()


def test_profiles():
    assert sorted({c["dataset"] for c in ex.CERTAINTY.configs("ci")}) == sorted(ex.CI_DATASETS)
    assert len(ex.datasets()) == 20 and "musk2" not in ex.datasets()
    assert len(ex.CERTAINTY.configs("full")) == 80 and ex.RELIABILITY.configs("full") == ex.CERTAINTY.configs("full")


class TestBadInput:
    def test_arguments(self):
        with pytest.raises(ValueError, match="classifier must be one of"):
            ex.make_classifier("SVM")
        with pytest.raises(ValueError, match="profile must be"):
            ex.CERTAINTY.configs("huge")
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


class TestWhatCRhoRewards:
    def test_sharpen(self):
        q = np.array([[0.6, 0.3, 0.1], [0.2, 0.2, 0.6]])
        np.testing.assert_allclose(ex.sharpen(q, 1.0), q)
        np.testing.assert_array_equal(ex.sharpen(q, 0.0), [[1, 0, 0], [0, 0, 1]])
        half = ex.sharpen(q, 0.5)
        np.testing.assert_allclose(half[0], np.array([0.36, 0.09, 0.01]) / 0.46)
        np.testing.assert_array_equal(np.argmax(ex.sharpen(q, 7.0), axis=1), [0, 2])
        with pytest.raises(ValueError, match="temperature"):
            ex.sharpen(q, -1.0)
        with pytest.raises(ValueError, match="rows of proba must sum to one"):
            ex.sharpen([[0.5, 0.6]], 1.0)

    def test_posterior_is_calibrated_and_beats_its_distortions(self):
        y, q = ex.gaussian_posterior_sample(n=20000, seed=1)
        sweep = ex.temperature_sweep(y, q, [0.0, 0.5, 1.0, 2.0]).set_index("temperature")
        assert sweep["accuracy"].nunique() == 1  # same decisions
        assert sweep["brier"].idxmin() == 1.0 and sweep["log_loss"].idxmin() == 1.0
        assert sweep.loc[1.0, "ece"] < 0.02
        # ... yet C_rho ranks the calibrated posterior below both the flattened and the one-hot versions
        assert sweep.loc[1.0, "c_rho_pct"] < sweep.loc[2.0, "c_rho_pct"] < sweep.loc[0.0, "c_rho_pct"] == 100.0
        with pytest.raises(ValueError, match="separation"):
            ex.gaussian_posterior_sample(separation=0.0)
        with pytest.raises(ValueError, match="temperatures is empty"):
            ex.temperature_sweep(y, q, [])

    def test_rank_correlations(self):
        rng = np.random.default_rng(0)
        rows = []
        for classifier in ex.CLASSIFIERS:
            for d in range(5):
                acc = rng.uniform(0.5, 0.9)
                tree = classifier == "Decision Tree"
                rows.append({"classifier": classifier, "dataset": f"d{d}", "acc": acc, "acc_star": acc - 0.02,
                             "imcp": acc - 0.03, "c_rho_pct": 100.0 if tree else 60 + 20 * acc,
                             "div_pct": 0.0 if tree else 5.0, "brier": 2 * (1 - acc) if tree else 1 - acc,
                             "log_loss": 30 * (1 - acc) if tree else 0.5, "ece": 0.2 if tree else 0.05,
                             "mean_top_proba": 1.0 if tree else 0.8, "share_one_hot": 1.0 if tree else 0.1})
        results = pd.DataFrame(rows)
        table = ex.rank_correlations(results)
        assert table.loc["3-NN", "acc"] == pytest.approx(1.0)
        assert np.isnan(table.loc["Decision Tree", "acc"])  # C_rho constant at 100 %
        with pytest.raises(ValueError, match="lack columns"):
            ex.rank_correlations(results.drop(columns="brier"))
