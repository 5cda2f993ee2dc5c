"""The Weka arm of Ferri et al. (2019), Sect. 6 (credalbook.book.experiments.thresholds_weka): every model type
scores in [0, 1], the baselines are the scikit-learn arm's, and J48's scores are Weka's J48 run directly.
Without the Weka extra the tests that need Java skip, saying why."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from credalbook.book.experiments import thresholds as th
from credalbook.book.experiments import thresholds_weka as tw


def _split(dataset, seed=1):
    X, y = th.binary_task(dataset)
    train, test = th.split(y, seed)
    return X.iloc[train], y[train], X.iloc[test], y[test]


@pytest.fixture(scope="module")
def hepatitis():
    """A small dataset with numeric and nominal attributes and missing values (155 rows)."""
    return _split("hepatitis")


def test_every_paper_model_has_a_weka_learner_or_is_a_baseline():
    assert set(tw.WEKA_MODELS) | set(th.BASELINES) == set(th.MODELS)
    assert not set(tw.WEKA_MODELS) & set(th.BASELINES)
    assert tw.WEKA_MODELS["J48Unp"][1] == ("-U", "-A")          # Table 6: unpruned, with Laplace correction
    assert tw.WEKA_MODELS["SVMp"][1] == ("-M",)                 # Table 6: SMO fitting output probabilities
    assert tw.weka_options("SVMp", 7) == ["-M", "-W", "7"]
    assert tw.weka_options("SVMp") == ["-M"]                     # the study: Weka's default seed, as the paper


@pytest.mark.parametrize("model", ["Prior", "Random", "J4", None])
def test_weka_options_rejects_models_without_a_weka_learner(model):
    with pytest.raises(ValueError, match="model must be one of"):
        tw.weka_options(model, 1)


def test_fit_scores_weka_rejects_an_unknown_model():
    X = pd.DataFrame({"a": [0.0, 1.0]})
    with pytest.raises(ValueError, match="model must be one of"):
        tw.fit_scores_weka("C4.5", X, np.array([0, 1]), X, seed=1)


def test_the_experiment_is_the_scikit_learn_arms_protocol():
    study, weka_study = th.STUDY, tw.STUDY_WEKA
    assert weka_study.name == "ferri2019_thresholds_weka"
    assert weka_study.keys == study.keys and weka_study.version == "1"
    assert weka_study.configs("full") == study.configs("full")
    assert weka_study.configs("ci") == [{"dataset": d, "seed": 1} for d in th.datasets() if d in th.CI_DATASETS]


@pytest.mark.parametrize("model", th.MODELS)
def test_every_model_scores_in_the_unit_interval(weka, hepatitis, model):
    X_train, y_train, X_test, _ = hepatitis
    s_train, s_test = tw.fit_scores_weka(model, X_train, y_train, X_test, seed=th._model_seed("hepatitis", 1))
    assert s_train.shape == (len(X_train),) and s_test.shape == (len(X_test),)
    for s in (s_train, s_test):
        assert np.isfinite(s).all() and (s >= 0).all() and (s <= 1).all()
    if model in ("IBK1", "SVM"):        # crisp: the predicted class
        assert set(np.unique(np.concatenate([s_train, s_test]))) <= {0.0, 1.0}
    if model == "J48Unp":               # Laplace-corrected leaves are never certain
        assert 0 < s_test.min() and s_test.max() < 1


@pytest.mark.parametrize("model", th.BASELINES)
def test_baselines_are_the_scikit_learn_arms(hepatitis, model):
    X_train, y_train, X_test, _ = hepatitis
    ours = tw.fit_scores_weka(model, X_train, y_train, X_test, seed=123)
    theirs = th.fit_scores(model, X_train, y_train, X_test, seed=123)
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a, b)


def test_parts_seed_does_not_change_its_scores_and_smos_only_slightly(weka, hepatitis):
    X_train, y_train, X_test, _ = hepatitis
    for model, atol in (("PART", 0.0), ("SVMp", 0.01)):
        first = tw.fit_scores_weka(model, X_train, y_train, X_test, seed=1, weka_seed=1)
        other = tw.fit_scores_weka(model, X_train, y_train, X_test, seed=1, weka_seed=98765)
        for a, b in zip(first, other):
            np.testing.assert_allclose(a, b, rtol=0, atol=atol)


def test_j48_scores_are_wekas_j48_run_directly(weka):
    """credit-a, split 1: J48 with Weka's defaults built on the Instances directly, and the leaves
    Weka 3.9.7 prints for that tree (A9 = t, A10 = t: 0 (115/10); A9 = t, A10 = f, A3 <= 2.335:
    1 (21/8); A3 > 2.335: 0 (38/11); A9 = f: 1 (171/14))."""
    from jpype import JClass

    X_train, y_train, X_test, y_test = _split("credit-a")
    s_train, s_test = tw.fit_scores_weka("J48", X_train, y_train, X_test, seed=th._model_seed("credit-a", 1))
    train = weka.to_instances(X_train, pd.Categorical(y_train, categories=[0, 1]))
    j48 = JClass("weka.classifiers.trees.J48")()
    j48.buildClassifier(train)
    for X, y, ours in ((X_train, y_train, s_train), (X_test, y_test, s_test)):
        data = weka.to_instances(X, pd.Categorical(y, categories=[0, 1]), header=train)
        direct = np.array([j48.distributionForInstance(data.instance(i))[1] for i in range(data.numInstances())])
        np.testing.assert_allclose(ours, direct, rtol=0, atol=1e-15)
    leaves, counts = np.unique(np.round(s_test, 12), return_counts=True)
    np.testing.assert_allclose(leaves, np.round([10 / 115, 11 / 38, 13 / 21, 157 / 171], 12))
    assert counts.tolist() == [113, 38, 36, 158]


def test_the_arms_are_the_two_experiments_the_papers_learners_first():
    assert list(tw.ARMS) == ["Weka's learners", "scikit-learn stand-ins"]
    assert tw.ARMS["Weka's learners"] is tw.STUDY_WEKA and tw.ARMS["scikit-learn stand-ins"] is th.STUDY
