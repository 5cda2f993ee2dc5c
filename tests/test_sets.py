import numpy as np
import pytest

from credalbook.sets import (
    check_set_matrix,
    set_sizes,
    sets_from_lists,
    sets_to_lists,
    singleton_sets,
    vacuous_sets,
)


def test_round_trip_with_labels():
    sets = [("b",), ("a", "c"), ("a", "b", "c")]
    matrix = sets_from_lists(sets, ["a", "b", "c"])
    np.testing.assert_array_equal(matrix, [[0, 1, 0], [1, 0, 1], [1, 1, 1]])
    assert sets_to_lists(matrix, ["a", "b", "c"]) == sets
    assert sets_to_lists(matrix) == [(1,), (0, 2), (0, 1, 2)]
    np.testing.assert_array_equal(set_sizes(matrix), [1, 2, 3])


def test_singletons_and_vacuous():
    np.testing.assert_array_equal(singleton_sets([2, 0], 3), [[0, 0, 1], [1, 0, 0]])
    assert vacuous_sets(2, 4).all() and vacuous_sets(2, 4).shape == (2, 4)


def test_integer_matrix_accepted():
    assert check_set_matrix(np.array([[1, 0], [1, 1]])).dtype == bool


class TestBadInput:
    def test_empty_set_in_lists(self):
        with pytest.raises(ValueError, match="set 1 is empty"):
            sets_from_lists([{0}, set()], 2)

    def test_unknown_label(self):
        with pytest.raises(ValueError, match="not one of the classes"):
            sets_from_lists([{"x"}], ["a", "b"])
        with pytest.raises(ValueError, match="not one of the classes"):
            sets_from_lists([{3}], 3)

    def test_duplicated_classes(self):
        with pytest.raises(ValueError, match="duplicated"):
            sets_from_lists([{"a"}], ["a", "a"])

    def test_matrix_shape_and_values(self):
        with pytest.raises(ValueError, match=r"\(n, K\)"):
            check_set_matrix([1, 0])
        with pytest.raises(ValueError, match="3 columns but there are 2 classes"):
            check_set_matrix(np.ones((2, 3), bool), n_classes=2)
        with pytest.raises(ValueError, match="empty predicted sets"):
            check_set_matrix(np.zeros((1, 2), bool))
        with pytest.raises(ValueError, match="outside"):
            singleton_sets([0, 3], 3)
        with pytest.raises(ValueError, match="positive"):
            vacuous_sets(0, 2)
