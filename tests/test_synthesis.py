"""Part VII's benchmark: which datasets get APS and ordinal costs, one fold's rows against their definition, the
conformal protocols (leak-free split, empty-set policies) and the coverage tests."""
import math

import numpy as np
import pandas as pd
import pytest

from credalbook.book.experiments import benchmark as bm
from credalbook.book.experiments import synthesis as sy
from credalbook.lenses import FOLD_COLUMNS, fold_lenses
from credalbook.sets import check_set_matrix


def test_aps_needs_three_calibrated_classes_on_every_fold():
    assert not sy.aps_applies(bm.load_dataset("postoperative")[2])  # a class of 2 instances: some folds hold 1
    assert sy.aps_applies(bm.load_dataset("iris")[2])
    assert not sy.aps_applies(bm.load_dataset("labor")[2])  # two classes


def test_ordinal_costs_follow_the_declared_order():
    X, y, codes = bm.load_dataset("squash-unstored")  # coded ok, not_suitable, excellent
    cost = sy.ordinal_cost("squash-unstored", y, codes)
    assert np.allclose(cost, [[0, 0.5, 0.5], [0.5, 0, 1], [0.5, 1, 0]])
    assert sy.ordinal_cost("iris", *bm.load_dataset("iris")[1:]) is None
    with pytest.raises(ValueError, match="ORDINAL_CLASSES"):
        sy.ORDINAL_CLASSES["iris"] = ("a", "b", "c")
        try:
            sy.ordinal_cost("iris", *bm.load_dataset("iris")[1:])
        finally:
            del sy.ORDINAL_CLASSES["iris"]


def test_one_fold_reads_every_lens_from_the_same_predictions():
    y_test, sets, proba, empty, _, ordinal = sy.fold_predictions("pasture", 0)
    rows = sy.evaluate_fold("pasture", 0).set_index("classifier")
    assert list(rows.index) == [c for c in sy.CLASSIFIERS]  # three classes on every fold: APS too
    assert list(rows.columns) == ["n_empty", *FOLD_COLUMNS, "seconds"]
    for name in ("NCC", "CP-LAC-90", "RF", "CPleak-LAC-80/all"):
        expected = (fold_lenses(y_test, sets[name], proba.get(name), ordinal_cost=ordinal)
                    if sets[name].any(axis=1).all() else sy.set_lenses(y_test, sets[name], ordinal))
        for key, value in expected.items():
            assert rows.loc[name, key] == pytest.approx(value)
    assert rows.loc["NCC", ["brier", "imcp"]].isna().all()  # a credal set has no posterior to score
    assert rows.loc[list(sy.PROBABILISTIC), "brier"].notna().all()
    assert (rows["n"] == len(y_test)).all()
    assert rows.loc["NBC", "determinacy"] == len(y_test)  # a precise classifier's set is its class


def _fold(dataset, fold):
    X, y, codes = bm.load_dataset(dataset)
    train, test = bm.fold_indices(codes, 0, fold)
    return X, y, codes, train, test


def test_the_leaky_protocol_keeps_the_sets_of_separate_fits_on_the_whole_folds_features():
    from credalbook.classifiers import ConformalSetClassifier, TemperatureScaledForest

    X, y, codes, train, test = _fold("pasture", 1)
    A_train, A_test = (sy.coded(part) for part in bm.discretised_fold(X, y, train, test))
    _, sets, _, empty, _, _ = sy.fold_predictions("pasture", 1)
    for score in sy.CONFORMITY_SCORES:
        for level in sy.CONFIDENCE_LEVELS:
            separate = ConformalSetClassifier(TemperatureScaledForest(random_state=1), conformity_score=score,
                                              confidence_level=level, empty="argmax", random_state=1)
            predicted, was_empty = separate.fit(A_train, codes[train]).predict_set_with_empty(A_test)
            name = sy.conformal_name(score, level, "argmax", "leaky")
            np.testing.assert_array_equal(sets[name], predicted)  # pasture's three classes are in every training fold
            assert empty[name] == was_empty.sum()


@pytest.mark.parametrize("dataset, fold", [("pasture", 1), ("glass", 3)])
def test_the_split_protocol_is_a_conformal_classifier_around_the_whole_pipeline(dataset, fold):
    """CP-… sets are those of ConformalSetClassifier(MDL → codes → forest) fitted on the raw training fold: MDL then
    sees the proper-training part only, as the forest does (leak-free by construction)."""
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer

    from credalbook.classifiers import ConformalSetClassifier, TemperatureScaledForest
    from credalbook.preprocessing import MDLDiscretizer

    X, y, codes, train, test = _fold(dataset, fold)
    _, sets, _, empty, _, _ = sy.fold_predictions(dataset, fold)
    k = int(codes.max()) + 1
    for level in sy.CONFIDENCE_LEVELS:
        pipeline = make_pipeline(MDLDiscretizer(), FunctionTransformer(sy.coded),
                                 TemperatureScaledForest(random_state=fold))
        for policy in sy.EMPTY_POLICIES:
            model = ConformalSetClassifier(pipeline, confidence_level=level, empty=policy, random_state=fold)
            predicted, was_empty = model.fit(X.iloc[train], codes[train]).predict_set_with_empty(X.iloc[test])
            full = np.zeros((len(test), k), dtype=bool)
            full[:, model.classes_.astype(int)] = predicted
            if policy == "all":
                full[was_empty] = True  # the benchmark's vacuous set has every class of the dataset
            name = sy.conformal_name("lac", level, policy)
            np.testing.assert_array_equal(sets[name], full)
            assert empty[name] == was_empty.sum()
            if policy != "keep":
                check_set_matrix(sets[name])


def test_the_split_protocols_features_ignore_the_conformalisation_part():
    """Change the features of the conformalisation quarter: the leak-free codes of every other row stay, while
    MDL fitted on the whole fold moves its cut points."""
    from credalbook.classifiers import conformal_split

    X, y, codes, train, test = _fold("iris", 0)
    proper, calibration = conformal_split(np.asarray(y.iloc[train]), 0.25, random_state=0)
    altered = X.copy()
    altered.iloc[train[calibration]] = altered.iloc[train[calibration]].to_numpy()[::-1] * 1.5 + 0.3
    for protocol, stays in (("split", True), ("leaky", False)):
        A_train, A_test = sy.conformal_features(X, y, train, test, 0, protocol)
        B_train, B_test = sy.conformal_features(altered, y, train, test, 0, protocol)
        same = np.array_equal(A_train[proper], B_train[proper]) and np.array_equal(A_test, B_test)
        assert same is stays, protocol


def test_an_empty_set_is_scored_as_a_miss():
    y = np.array([0, 1, 2, 1])
    sets = np.array([[1, 0, 0], [0, 0, 0], [0, 1, 1], [0, 0, 0]], dtype=bool)
    ordinal = np.array([[0, 0.5, 1], [0.5, 0, 0.5], [1, 0.5, 0]])
    out = sy.set_lenses(y, sets, ordinal)
    assert out["n"] == 4
    # a correct singleton, two misses, a correct pair (discounted accuracy 1/2, u65 = 1.6/2 - 0.6/4 = 0.65)
    assert out["discounted_accuracy"] == pytest.approx(1.5)
    assert out["u65"] == pytest.approx(1.65)
    assert out["coverage"] == 2 and out["determinacy"] == 1 and out["set_size"] == 3
    assert out["n_size1"] + out["n_size2"] + out["n_size3"] == 2  # an empty set is in no size bin
    kept = fold_lenses(y[[0, 2]], sets[[0, 2]], ordinal_cost=ordinal)
    assert out["p_discounted_cost"] == pytest.approx(kept["p_discounted_cost"] + 2)  # 0/1 cost of a miss: 1
    assert out["p_discounted_ordinal"] == pytest.approx(kept["p_discounted_ordinal"] + 2 * 0.5)  # max_k cost[1, k]
    vacuous = sy.set_lenses(y[[1, 3]], sets[[1, 3]])
    assert vacuous["n"] == 2 and vacuous["u65"] == 0 and vacuous["coverage"] == 0 and vacuous["p_discounted_cost"] == 2
    assert sy.set_lenses(y, np.ones_like(sets)) == fold_lenses(y, np.ones_like(sets))  # no empty set: fold_lenses


def test_conformal_names_and_panels():
    assert sy.conformal_name("lac", 0.9) == "CP-LAC-90"
    assert sy.conformal_name("aps", 0.8, "all") == "CP-APS-80/all"
    assert sy.conformal_name("lac", 0.95, "argmax", "leaky") == "CPleak-LAC-95/top"
    assert sy.conformal_variant("CPleak-LAC-95/top") == {"protocol": "leaky", "score": "lac", "level": 0.95,
                                                          "empty": "argmax"}
    assert sy.conformal_variant("NCC") is None
    assert len(sy.CONFORMAL) == len(set(sy.CONFORMAL)) == 2 * 2 * 3 * 3
    assert sy.PANEL[-3:] == ("CP-LAC-80", "CP-LAC-90", "CP-LAC-95")
    assert sy.panel("argmax", "leaky")[-1] == "CPleak-LAC-95/top"
    assert set(sy.FAMILIES) == set(sy.DESCRIPTIONS) == set(sy.CLASSIFIERS)
    for bad, name in (({"score": "raps", "level": 0.9}, "score"), ({"score": "lac", "level": 0.85}, "level"),
                      ({"score": "lac", "level": 0.9, "empty": "miss"}, "empty"),
                      ({"score": "lac", "level": 0.9, "protocol": "cross"}, "protocol")):
        with pytest.raises(ValueError, match=f"{name} must be one of"):
            sy.conformal_name(**bad)


def test_holm_on_a_worked_example():
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1: 0.02, 0.03, 0.06, 0.04; running maximum 0.02, 0.03, 0.06, 0.06
    np.testing.assert_allclose(sy.holm([0.01, 0.04, 0.03, 0.005]), [0.03, 0.06, 0.06, 0.02])
    np.testing.assert_allclose(sy.holm([0.5, 0.9]), [1.0, 1.0])
    assert sy.holm([]).size == 0
    with pytest.raises(ValueError, match="pvalues"):
        sy.holm([0.5, 1.5])


def _binomial_cdf(k, n, p):
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))


def test_coverage_tests_are_exact_one_sided_binomial_tests_with_holm():
    rows = pd.DataFrame({"dataset": ["a", "a", "b", "c"], "classifier": ["CP-LAC-90"] * 4, "n": [50, 50, 100, 40],
                         "coverage": [41.0, 39.0, 93.0, 36.0]})
    tests = sy.coverage_tests(rows).set_index("dataset")
    assert tests.loc["a", "covered"] == 80 and tests.loc["a", "n"] == 100 and tests.loc["a", "nominal"] == 0.9
    expected = {"a": _binomial_cdf(80, 100, 0.9), "b": _binomial_cdf(93, 100, 0.9), "c": _binomial_cdf(36, 40, 0.9)}
    for dataset, p in expected.items():
        assert tests.loc[dataset, "pvalue"] == pytest.approx(p, rel=1e-9)
    assert tests.loc["a", "pvalue"] < 0.005 < tests.loc["b", "pvalue"]
    np.testing.assert_allclose(tests["pvalue_holm"], sy.holm(tests["pvalue"].to_numpy()))
    assert tests["below"].tolist() == [True, False, False]  # 0.80, 0.93, 0.90 (not below)
    summary = sy.coverage_summary(tests).set_index("classifier").loc["CP-LAC-90"]
    assert (summary["datasets"], summary["below_nominal"], summary["significant"], summary["significant_holm"]) == (3, 1, 1, 1)
    with pytest.raises(ValueError, match="conformal classifiers"):
        sy.coverage_tests(rows, ["NCC"])
    with pytest.raises(ValueError, match="coverage"):
        sy.coverage_tests(rows.drop(columns="coverage"))
