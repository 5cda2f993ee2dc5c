"""Values of the costs module that the mutation run (scripts/mutation.py, issue 27) found unchecked: each test
checks a number, a witness or a message that a surviving mutant changes, computed by hand."""
from __future__ import annotations

import numpy as np
import pytest

from credalbook import costs
from credalbook.costs import (TOL, check_cost_matrix, check_properties, cost_table, generalized_mean, is_possible,
                              p_discounted_cost_matrix, subsets)

#: Determinate costs with a non-zero diagonal: for the set {0, 1} and truth 0 the member costs are 1 and 2
#: (low 1, discounted 1.5, high 2), for truth 1 they are 2 and 1.
COST = [[1.0, 2.0], [2.0, 1.0]]


def _matrix(set_row) -> np.ndarray:
    """The extended matrix of ``COST`` (rows (0,), (1,), (0, 1)) with the set's row given."""
    return np.array([COST[0], COST[1], set_row], dtype=float)


def test_generalized_mean_is_homogeneous_down_to_tiny_costs():
    # M_p(t x) = t M_p(x): ((1 + 9) / 2) ** (1/2) = sqrt(5) times 1e-200, with no underflow of x ** p
    assert float(generalized_mean([1e-200, 3e-200], 2)) == pytest.approx(np.sqrt(5) * 1e-200, rel=1e-12, abs=0)
    assert float(generalized_mean([0.25, 0.75], 3)) == pytest.approx(((0.25 ** 3 + 0.75 ** 3) / 2) ** (1 / 3))
    assert float(generalized_mean([0.0, 0.0], 2)) == 0.0


def test_generalized_mean_ignores_the_terms_outside_where():
    assert float(generalized_mean([1.0, 4.0, 100.0], 2, where=[True, True, False])) == pytest.approx(np.sqrt(8.5))
    assert float(generalized_mean([1.0, 4.0, 100.0], 0.5, where=[True, True, False])) == pytest.approx(2.25)


def test_p_discounted_cost_of_a_pair_under_zero_one_costs():
    # r = 1/2: M_{1/2}(0, 1) = ((sqrt(0) + sqrt(1)) / 2) ** 2 = 1/4 for either truth
    rows, matrix = p_discounted_cost_matrix([[0, 1], [1, 0]], 0.5)
    assert rows == [(0,), (1,), (0, 1)]
    np.testing.assert_allclose(matrix, [[0.0, 1.0], [1.0, 0.0], [0.25, 0.25]], atol=1e-12)


def test_is_possible_margin_by_hand():
    # 0/1 costs, the pair costs 0.35: at p = (1/2, 1/2) each class costs 1/2, the pair 0.35, margin 0.15
    possible, p, margin = is_possible((0, 1), [0.35, 0.35], [[0, 1], [1, 0]])
    assert possible and p.tolist() == pytest.approx([0.5, 0.5]) and margin == pytest.approx(0.15)
    # a pair costing 0.6 for either truth is never better than the better class (expected cost <= 1/2)
    possible, p, margin = is_possible((0, 1), [0.6, 0.6], [[0, 1], [1, 0]])
    assert not possible and p is None and margin == pytest.approx(-0.1)


def test_property_2_fails_when_the_set_costs_exactly_its_discounted_cost():
    result = check_properties(subsets(2), _matrix([1.5, 1.5]), properties=(2,))[2]
    assert not result.holds
    assert result.witness == {"subset": (0, 1), "costs": [1.5, 1.5], "discounted": [1.5, 1.5]}
    assert check_properties(subsets(2), _matrix([1.2, 1.5]), properties=(2,))[2].holds


def test_property_4_witness_is_the_one_cost_below_the_lowest_member():
    result = check_properties(subsets(2), _matrix([0.5, 1.5]), properties=(4,))[4]
    assert not result.holds
    assert result.witness == {"subset": (0, 1), "truth": 0, "cost": 0.5, "discounted": 1.5}


def test_property_4_tolerance_is_inclusive():
    # "Comparisons use a tolerance of 1e-9": a cost exactly TOL below the lowest member cost still counts as >=
    assert check_properties(subsets(2), _matrix([1.0 - TOL, 1.5]), properties=(4,))[4].holds
    assert not check_properties(subsets(2), _matrix([1.0 - 3 * TOL, 1.5]), properties=(4,))[4].holds


def test_error_messages_name_the_offending_entry():
    with pytest.raises(ValueError, match=r"cost\[1, 0\] = -1\.0"):
        check_cost_matrix([[0, 1], [-1, 0]])
    with pytest.raises(ValueError, match="matrix has 2 rows but 3 subsets are given"):
        check_properties(subsets(2), np.array(COST))
    with pytest.raises(ValueError, match="missing class 1$"):
        check_properties([(0,), (0, 1)], np.array([COST[0], [1.5, 1.5]]))


def test_cost_table_names_the_sets():
    rows, matrix = p_discounted_cost_matrix([[0, 1], [1, 0]], 0.5)
    table = cost_table(rows, matrix, ["h", "b"])
    assert table["subset"].tolist() == ["h", "b", "h,b"]
    assert table["b"].tolist() == pytest.approx([1.0, 0.0, 0.25])


def test_a_margin_of_exactly_tol_is_not_possible():
    # margin max_p min_y (c_y - c_Y) . p: with costs 2e-9 off the diagonal and a free set it is 2e-9 / 2 = TOL exactly
    possible, p, margin = is_possible((0, 1), [0.0, 0.0], [[0.0, 2 * TOL], [2 * TOL, 0.0]])
    assert margin == TOL and possible is False and p is None  # "possible" asks for a margin above TOL
    assert is_possible((0, 1), [0.0, 0.0], [[0.0, 4 * TOL], [4 * TOL, 0.0]])[0] is True
