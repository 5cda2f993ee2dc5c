"""Part VII's benchmark: which datasets get APS and ordinal costs, and one fold's rows against their definition."""
import numpy as np
import pandas as pd
import pytest

from credalbook.experiments import benchmark as bm
from credalbook.experiments import synthesis as sy
from credalbook.lenses import FOLD_COLUMNS, fold_lenses


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
    for name in ("NCC", "CP-LAC-90", "RF"):
        expected = fold_lenses(y_test, sets[name], proba.get(name), ordinal_cost=ordinal)
        for key, value in expected.items():
            assert rows.loc[name, key] == pytest.approx(value)
    assert rows.loc["NCC", ["brier", "imcp"]].isna().all()  # a credal set has no posterior to score
    assert rows.loc[list(sy.PROBABILISTIC), "brier"].notna().all()
    assert (rows["n"] == len(y_test)).all()
    assert rows.loc["NBC", "determinacy"] == len(y_test)  # a precise classifier's set is its class


def test_the_conformal_classifiers_of_a_fold_share_one_forest_and_keep_the_sets_of_separate_fits():
    from credalbook.classifiers import ConformalSetClassifier, TemperatureScaledForest

    X, y, codes = bm.load_dataset("pasture")
    train, test = bm.fold_indices(codes, 0, 1)
    A_train, A_test = (sy.coded(part) for part in bm.discretised_fold(X, y, train, test))
    _, sets, _, empty, _, _ = sy.fold_predictions("pasture", 1)
    for name in sy.CONFORMAL:
        _, score, level = name.split("-")
        separate = ConformalSetClassifier(TemperatureScaledForest(random_state=1), conformity_score=score.lower(),
                                          confidence_level=int(level) / 100, random_state=1)
        predicted, was_empty = separate.fit(A_train, codes[train]).predict_set_with_empty(A_test)
        np.testing.assert_array_equal(sets[name], predicted)  # pasture's three classes are in every training fold
        assert empty[name] == was_empty.sum()
