"""Defaults, tolerances and refusals of the certainty module that the mutation run (scripts/mutation.py, issue 27)
found unchecked: each test checks a value, a refusal or a message that a surviving mutant changes."""
from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

from credalbook import certainty
from credalbook.certainty import (accuracy_of, f1_per_class, hellinger_scores, log_loss, mcc_of, precision_per_class,
                                  recall_per_class)

#: Every public function of the module with a tolerance ``atol`` on the row sums of ``proba``.
WITH_ATOL = sorted(name for name in certainty.__all__ if callable(getattr(certainty, name))
                   and "atol" in inspect.signature(getattr(certainty, name)).parameters)


def _call(name: str, proba):
    function = getattr(certainty, name)
    first = next(iter(inspect.signature(function).parameters))
    return function(proba) if first == "proba" else function([1, 1], proba)


def test_every_atol_is_found():
    assert {"predicted_classes", "confusion_matrix", "reliability_table", "hellinger_scores"} <= set(WITH_ATOL)


@pytest.mark.parametrize("name", WITH_ATOL)
def test_the_default_tolerance_on_row_sums_is_one_millionth(name):
    assert inspect.signature(getattr(certainty, name)).parameters["atol"].default == 1e-6
    _call(name, [[0.5, 0.5 + 0.5e-6], [0.25, 0.75]])  # off by 5e-7: accepted
    with pytest.raises(ValueError, match="proba"):
        _call(name, [[0.5, 0.5 + 1.5e-6], [0.25, 0.75]])  # off by 1.5e-6: refused


def test_a_zero_denominator_takes_zero_by_default():
    # column 1 (predicted class 1) is empty: precision 1/2 and 0; row 1 (true class 1) empty: recall 1/2 and 0
    assert precision_per_class([[1.0, 0.0], [1.0, 0.0]]).tolist() == [0.5, 0.0]
    assert recall_per_class([[1.0, 1.0], [0.0, 0.0]]).tolist() == [0.5, 0.0]
    assert f1_per_class([[1.0, 0.0], [0.0, 0.0]]).tolist() == [1.0, 0.0]
    assert mcc_of([[2.0, 0.0], [0.0, 0.0]]) == 0.0
    assert accuracy_of([[0.0, 0.0], [0.0, 0.0]]) == 0.0


def test_a_zero_denominator_raises_no_floating_point_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert precision_per_class([[1.0, 0.0], [1.0, 0.0]], zero_division=0.25).tolist() == [0.5, 0.25]
        assert accuracy_of(np.zeros((3, 3)), zero_division=1.0) == 1.0


def test_a_matrix_must_be_square():
    for shape in ((2, 3), (3, 2)):
        with pytest.raises(ValueError, match=r"must be a square k x k matrix"):
            accuracy_of(np.ones(shape))


def test_log_loss_eps_lies_in_the_open_interval_to_one_half():
    # eps floors the probability of the actual class: -log max(0.2, 0.3) = -log 0.3
    assert log_loss([0], [[0.2, 0.8]], eps=0.3) == pytest.approx(-np.log(0.3))
    for eps in (0.5, 0.7, 0.0, 1.0):
        with pytest.raises(ValueError, match=r"eps must be a float in \(0, 0.5\)"):
            log_loss([0], [[0.2, 0.8]], eps=eps)
    with pytest.raises(ValueError, match="eps must be a float"):
        log_loss([0], [[0.2, 0.8]], eps=1)


def test_hellinger_scores_of_other_dtypes_and_shapes():
    # 1 - sqrt(1 - sqrt(q_y)): q_y = 1 scores 1, q_y = 0.75 scores 1 - sqrt(1 - sqrt(0.75))
    expected = [1.0, 1.0 - np.sqrt(1.0 - np.sqrt(0.75))]
    assert hellinger_scores([0, 1], [[1, 0], [0, 1]]).tolist() == [1.0, 1.0]
    assert hellinger_scores([0, 1], np.array([[1, 0], [0.25, 0.75]], dtype=np.float32)) == pytest.approx(expected)
    assert hellinger_scores([1], [[0.25, 0.75]]) == pytest.approx(expected[1:])
    with pytest.raises(ValueError, match=r"proba must be 2-dimensional, got shape \(2,\)"):
        hellinger_scores([0, 1], [0.5, 0.5])
    with pytest.raises(ValueError, match="proba is empty"):
        hellinger_scores([], np.empty((0, 2)))
