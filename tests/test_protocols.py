"""Protocols: stratified folds, down-sampling, the artificial generator, CV with preprocessing inside the folds."""
import numpy as np
import pandas as pd
import pytest
from sklearn.pipeline import make_pipeline
from sklearn.tree import DecisionTreeClassifier

from credalbook.classifiers.naive_bayes import NaiveBayes
from credalbook.classifiers.ncc import NaiveCredalClassifier
from credalbook.book.experiments.protocols import (
    clone_factory,
    cross_validate,
    downsample_split,
    draw_naive_model,
    evaluate_split,
    sample_naive,
    standard_scores,
    stratified_folds,
)
from credalbook.preprocessing import MDLDiscretizer

Y = np.array([0] * 23 + [1] * 7 + [2] * 10)


def test_stratified_folds_balanced_and_deterministic():
    folds = stratified_folds(Y, 5, seed=1, repeat=2)
    assert np.bincount(folds).tolist() == [8] * 5
    for c in range(3):
        per_fold = np.bincount(folds[Y == c], minlength=5)
        assert per_fold.max() - per_fold.min() <= 1
    np.testing.assert_array_equal(folds, stratified_folds(Y, 5, seed=1, repeat=2))
    assert not np.array_equal(folds, stratified_folds(Y, 5, seed=1, repeat=3))


def test_downsample_is_stratified_and_complementary():
    train, test = downsample_split(Y, 10, seed=0, sample=4)
    assert len(train) == 10 and len(np.union1d(train, test)) == len(Y) and not np.intersect1d(train, test).size
    # quotas 23/40*10 = 5.75, 1.75, 2.5 -> 5, 1, 2 + largest remainders (0.75, 0.75) -> 6, 2, 2
    assert np.bincount(Y[train]).tolist() == [6, 2, 2]
    np.testing.assert_array_equal(train, downsample_split(Y, 10, seed=0, sample=4)[0])


def test_artificial_generator_respects_gap_and_chances():
    rng = np.random.default_rng(0)
    theta = draw_naive_model(rng, 10, 0.1)
    assert theta.shape == (10, 2) and np.all(np.abs(theta[:, 0] - theta[:, 1]) >= 0.1)
    X, y = sample_naive(rng, theta, 200_000)
    assert abs(y.mean() - 0.5) < 0.01
    for c in (0, 1):
        np.testing.assert_allclose(X[y == c].mean(axis=0), theta[:, c], atol=0.01)


def test_evaluate_split_preprocessing_fitted_on_training_part_only():
    rng = np.random.default_rng(2)
    X = pd.DataFrame({"a": rng.normal(size=60), "b": rng.normal(size=60)})
    y = (X["a"] > 0).astype(int).to_numpy()
    train, test = np.arange(40), np.arange(40, 60)
    X_poisoned = X.copy()
    X_poisoned.loc[40:, "a"] = 1000.0 * np.sign(X.loc[40:, "a"])   # test values far outside: cuts must not move
    cuts = MDLDiscretizer().fit(X.iloc[train], y[train]).cuts_
    seen = []

    class Spy(MDLDiscretizer):
        def fit(self, X, y):
            seen.append(len(X))
            return super().fit(X, y)

    y_true, outputs = evaluate_split({"nbc": NaiveBayes}, X_poisoned, y, train, test, preprocess=Spy)
    assert seen == [40]
    assert y_true.tolist() == y[test].tolist()
    assert outputs["nbc"].sets.shape == (20, 2)
    assert cuts[0].size >= 1


def test_cross_validate_tidy_and_pipeline_models():
    rng = np.random.default_rng(3)
    X = pd.DataFrame(rng.normal(size=(120, 3)), columns=["a", "b", "c"])
    y = pd.Categorical.from_codes((X["a"] + 0.5 * rng.normal(size=120) > 0).astype(int), categories=["n", "p", "q"])
    models = {"nbc": lambda: make_pipeline(MDLDiscretizer(), NaiveBayes()),
              "ncc": lambda: make_pipeline(MDLDiscretizer(), NaiveCredalClassifier()),
              "tree": clone_factory(DecisionTreeClassifier(random_state=0))}
    per_fold = cross_validate(models, X, y, n_splits=5, repeats=(0, 1), seed=7)
    assert len(per_fold) == 2 * 5 * 3
    assert set(per_fold.columns) >= {"repeat", "fold", "model", "discounted_accuracy", "u65", "u80", "f1",
                                     "determinate", "n_test"}
    assert per_fold.groupby("model")["n_test"].sum().tolist() == [240, 240, 240]
    nbc = per_fold[per_fold.model == "nbc"]
    assert (nbc["determinate"] == 1).all() and (nbc["u65"] == nbc["discounted_accuracy"]).all()
    per_instance = cross_validate(models, X, y, n_splits=5, repeats=(1,), seed=7, per_instance=True)
    assert sorted(per_instance[per_instance.model == "ncc"]["instance"]) == list(range(120))
    again = cross_validate(models, X, y, n_splits=5, repeats=(1,), seed=7)
    pd.testing.assert_frame_equal(again, per_fold[per_fold.repeat == 1].reset_index(drop=True))


def test_standard_scores_hand_computed():
    from credalbook.book.experiments.protocols import ModelOutput

    sets = np.array([[True, True], [True, False]])
    frame = standard_scores(np.array([0, 1]), {"m": ModelOutput(sets=sets, single=np.array([0, 0]))})
    assert frame["discounted_accuracy"].tolist() == [0.5, 0.0]
    assert frame["u65"].tolist() == pytest.approx([0.65, 0.0])
    assert frame["f1"].tolist() == pytest.approx([2 / 3, 0.0])


class TestBadInput:
    def test_folds(self):
        with pytest.raises(ValueError, match="n_splits"):
            stratified_folds(Y, 1)
        with pytest.raises(ValueError, match="larger than"):
            stratified_folds([0, 1, 0], 5)

    def test_downsample(self):
        with pytest.raises(ValueError, match="size"):
            downsample_split(Y, 40)
        with pytest.raises(ValueError, match="size"):
            downsample_split(Y, 0)

    def test_generator(self):
        with pytest.raises(ValueError, match="min_gap"):
            draw_naive_model(np.random.default_rng(0), 3, 1.0)
        with pytest.raises(ValueError, match="theta"):
            sample_naive(np.random.default_rng(0), np.ones((3, 3)), 5)

    def test_models(self):
        with pytest.raises(ValueError, match="models is empty"):
            evaluate_split({}, np.zeros((4, 1)), [0, 1, 0, 1], [0, 1], [2, 3])
        with pytest.raises(ValueError, match="must return an estimator"):
            evaluate_split({"x": lambda: 3}, np.zeros((4, 1)), [0, 1, 0, 1], [0, 1], [2, 3])
        with pytest.raises(ValueError, match="at least one instance"):
            evaluate_split({"nbc": NaiveBayes}, np.zeros((4, 1)), [0, 1, 0, 1], [0, 1, 2, 3], [])
