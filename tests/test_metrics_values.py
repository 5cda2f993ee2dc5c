"""Values and tolerances of the metrics module that the mutation run (scripts/mutation.py, issue 27) found unchecked:
each test checks a number computed by hand, or a refusal at a tolerance's edge, that a surviving mutant changes."""
from __future__ import annotations

import numpy as np
import pytest

from credalbook import metrics
from credalbook.metrics import (discounted_accuracy_scores, f_beta_set, f_beta_set_scores, set_metrics,
                                utility_discounted_accuracy, utility_discounted_accuracy_scores)

#: Three classes; sizes 1 (hit), 2 (hit), 3 (hit), 1 (miss): discounted accuracy 1, 1/2, 1/3, 0.
Y_TRUE = [0, 1, 2, 0]
Y_SET = np.array([[1, 0, 0], [1, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)


def _utility(values: dict):
    """A utility given by its values at 0, 1/3, 1/2 and 1 (the discounted accuracies of three classes)."""
    def u(x):
        x = np.asarray(x, dtype=float)
        return np.select([np.isclose(x, point) for point in values], list(values.values()), np.nan)
    return u


def test_f_beta_below_one_by_hand():
    # beta = 1/2: (1 + 1/4) hit / (1/4 + size): 1, 1.25 / 2.25, 1.25 / 3.25, 0
    expected = [1.0, 1.25 / 2.25, 1.25 / 3.25, 0.0]
    assert f_beta_set_scores(Y_TRUE, Y_SET, beta=0.5) == pytest.approx(expected)
    assert f_beta_set(Y_TRUE, Y_SET, beta=0.5) == pytest.approx(np.mean(expected))
    assert set_metrics(Y_TRUE, Y_SET, beta=0.5)["f_beta"] == pytest.approx(np.mean(expected))


def test_set_metrics_f_beta_with_beta_two_by_hand():
    # beta = 2: 5 hit / (4 + size): 1, 5/6, 5/7, 0
    assert set_metrics(Y_TRUE, Y_SET, beta=2.0)["f_beta"] == pytest.approx((1 + 5 / 6 + 5 / 7) / 4)


def test_set_metrics_defaults_are_u65_u80_and_f1():
    found = set_metrics(Y_TRUE, Y_SET)
    # u65 at x = 1/2 is 0.65, at x = 1/3: -0.6/9 + 1.6/3 = 0.4667; u80: 0.8 and -1.2/9 + 2.2/3 = 0.6
    assert found["u65"] == pytest.approx((1 + 0.65 + (-0.6 / 9 + 1.6 / 3)) / 4)
    assert found["u80"] == pytest.approx((1 + 0.8 + 0.6) / 4)
    assert found["f_beta"] == pytest.approx((1 + 2 / 3 + 2 / 4) / 4)
    assert found["single_accuracy"] == 0.5 and found["set_accuracy"] == 1.0


def test_scores_of_fewer_instances_than_classes():
    # one instance, three classes: the index 2 is a class of the matrix, not of the one instance
    assert discounted_accuracy_scores([2], [[0, 1, 1]]).tolist() == [0.5]
    assert f_beta_set_scores([2], [[0, 1, 1]]).tolist() == pytest.approx([2 / 3])
    assert utility_discounted_accuracy_scores([2], [[0, 1, 1]], 0.65).tolist() == pytest.approx([0.65])


def test_aggregates_of_fewer_instances_than_classes():
    # the one-pass counts (size_hit_counts) look the class up among the 3 columns, not among the 1 instance
    assert metrics.size_hit_counts([2], [[False, True, True]]).tolist() == [[0, 0], [0, 0], [0, 1], [0, 0]]
    assert metrics.discounted_accuracy([2], [[0, 1, 1]]) == 0.5
    assert metrics.size_hit_counts(["c"], [[False, True, True]], labels=["a", "b", "c"])[2].tolist() == [0, 1]
    assert set_metrics([2, 0], [[0, 1, 1], [1, 0, 0]])["discounted_accuracy"] == 0.75


def test_a_utility_one_rounding_step_below_discounted_accuracy_is_accepted():
    # u(x) = x - 1e-12 inside (0, 1): at the tolerance's edge, not below it
    u = _utility({0.0: 0.0, 1 / 3: 1 / 3 - 1e-12, 0.5: 0.5 - 1e-12, 1.0: 1.0})
    assert utility_discounted_accuracy(Y_TRUE, Y_SET, u) == pytest.approx((1 + 1 / 2 + 1 / 3) / 4)
    below = _utility({0.0: 0.0, 1 / 3: 1 / 3 - 1e-11, 0.5: 0.5, 1.0: 1.0})
    with pytest.raises(ValueError, match="below discounted accuracy at 1/3"):
        utility_discounted_accuracy(Y_TRUE, Y_SET, below)


def test_u_of_zero_is_zero_within_one_billionth():
    near = _utility({0.0: 0.5e-9, 1 / 3: 0.5, 0.5: 0.7, 1.0: 1.0})
    assert utility_discounted_accuracy(Y_TRUE, Y_SET, near) == pytest.approx((1 + 0.7 + 0.5 + 0.5e-9) / 4)
    far = _utility({0.0: 1.5e-9, 1 / 3: 0.5, 0.5: 0.7, 1.0: 1.0})
    with pytest.raises(ValueError, match=r"u\(0\) = 0 and u\(1\) = 1"):
        utility_discounted_accuracy(Y_TRUE, Y_SET, far)


def test_u_is_non_decreasing_within_one_trillionth():
    # u(1/3) above u(1/2) by 0.5e-12: rounding, accepted; by 1.5e-12: a decrease, refused
    flat = _utility({0.0: 0.0, 1 / 3: 0.6 + 0.5e-12, 0.5: 0.6, 1.0: 1.0})
    assert utility_discounted_accuracy(Y_TRUE, Y_SET, flat) == pytest.approx((1 + 0.6 + 0.6) / 4)
    falling = _utility({0.0: 0.0, 1 / 3: 0.6 + 1.5e-12, 0.5: 0.6, 1.0: 1.0})
    with pytest.raises(ValueError, match="non-decreasing"):
        utility_discounted_accuracy(Y_TRUE, Y_SET, falling)


def test_u_of_one_half_above_u_of_one_is_a_decrease():
    with pytest.raises(ValueError, match="non-decreasing"):
        utility_discounted_accuracy(Y_TRUE, Y_SET, _utility({0.0: 0.0, 1 / 3: 0.6, 0.5: 1.2, 1.0: 1.0}))


def test_quadratic_utility_coefficients_and_inverse_by_hand():
    # u65: a = 2 - 2.6 = -0.6, b = 2.6 - 1 = 1.6; u(x) = 0.55 at the smaller root of -0.6 x^2 + 1.6 x - 0.55
    u = metrics.quadratic_utility(0.65)
    assert u.coefficients == pytest.approx((-0.6, 1.6))
    root = (1.6 - np.sqrt(1.6 ** 2 - 4 * 0.6 * 0.55)) / (2 * 0.6)
    assert float(u.inverse(0.55)) == pytest.approx(root)


def test_single_and_set_accuracy_by_hand():
    # three singletons, two of them right (2/3); one pair holding the truth (1/1)
    y_true, y_set = [0, 1, 2, 0], [[1, 0, 0], [0, 1, 0], [0, 1, 0], [1, 1, 0]]
    assert metrics.single_accuracy(y_true, y_set) == pytest.approx(2 / 3)
    assert metrics.set_accuracy(y_true, y_set) == 1.0
    assert set_metrics(y_true, y_set)["single_accuracy"] == pytest.approx(2 / 3)
