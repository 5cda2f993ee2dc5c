"""Values and messages of the sets module that the mutation run (scripts/mutation.py, issue 27) found unchecked:
each test checks a result, a refusal or the words of a message that a surviving mutant changes."""
from __future__ import annotations

import numpy as np
import pytest

from credalbook.sets import (check_targets_and_sets, encode_targets, row_counts, set_sizes, singleton_sets,
                             vacuous_sets)


def test_encode_targets_looks_labels_up_in_column_order():
    # labels= in column order ("c", "a", "b"): "a" is column 1, "b" column 2, "c" column 0
    assert encode_targets(["a", "b", "c", "a"], 3, labels=["c", "a", "b"]).tolist() == [1, 2, 0, 1]
    assert encode_targets(np.array([20, 10]), 2, labels=[10, 20]).tolist() == [1, 0]


def test_encode_targets_with_labels_takes_one_instance_and_refuses_none():
    assert encode_targets(["b"], 2, labels=["a", "b"]).tolist() == [1]
    with pytest.raises(ValueError, match="y_true is empty"):
        encode_targets([], 2, labels=["a", "b"])


def test_encode_targets_with_labels_refuses_a_matrix_of_labels():
    with pytest.raises(ValueError, match=r"y_true must be 1-dimensional, got shape \(1, 2\)"):
        encode_targets([["a", "b"]], 2, labels=["a", "b"])


def test_an_unknown_label_message_names_the_first_unknown_one():
    with pytest.raises(ValueError, match="y_true holds 'x', which is not one of labels"):
        encode_targets(["a", "x", "y"], 2, labels=["a", "b"])
    with pytest.raises(ValueError, match="y_true holds 'x', which is not one of labels"):
        encode_targets(["x"], 2, labels=["a", "b"])


def test_string_targets_without_labels_are_sent_to_labels():
    with pytest.raises(ValueError, match="holds labels of dtype <U1: pass labels=, the 3 classes"):
        encode_targets(["a", "b"], 3)


def test_one_based_targets_are_named_as_labels_with_the_index_range():
    # targets 1..3 for a 3-column matrix: labels, not indices 0..2
    with pytest.raises(ValueError, match=r"holds labels 1\.\.3, not class indices 0\.\.2: pass labels="):
        encode_targets([1, 3, 2], 3)
    # 0..2 are indices, and 1..2 of a 3-column matrix too (the largest is not K)
    assert encode_targets([1, 2], 3).tolist() == [1, 2]


def test_row_counts_has_one_count_per_row_of_a_wide_matrix():
    matrix = np.array([[True, False, True, True], [False, False, False, True]])
    assert row_counts(matrix).tolist() == [3, 1]
    assert row_counts(matrix.T).tolist() == [1, 0, 1, 2]


def test_singleton_rows_are_not_empty_rows():
    # sizes 1 and 0: only the second row is empty
    assert set_sizes([[0, 1], [0, 0]], empty="miss").tolist() == [1, 0]
    with pytest.raises(ValueError, match=r"1 empty predicted sets \(first at row 1\)"):
        set_sizes([[0, 1], [0, 0], [1, 1]])
    _, matrix, sizes = check_targets_and_sets([1, 0], [[0, 1], [0, 0]], empty="vacuous")
    assert matrix.tolist() == [[False, True], [True, True]] and sizes.tolist() == [1, 2]


def test_vacuous_sets_take_one_instance_or_one_class_and_refuse_none():
    assert vacuous_sets(1, 1).tolist() == [[True]]
    assert vacuous_sets(1, 3).tolist() == [[True, True, True]]
    for n_instances, n_classes in ((0, 2), (2, 0)):
        with pytest.raises(ValueError, match="n_instances and n_classes must be positive"):
            vacuous_sets(n_instances, n_classes)


def test_singleton_sets_of_one_instance():
    assert singleton_sets([1], 2).tolist() == [[False, True]]
