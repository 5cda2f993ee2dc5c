"""Tests of credalbook.book.theory.certainty: exact worked example, identities, the divergence's true maximum."""
from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from credalbook import certainty as cr
from credalbook.book.theory import certainty as th


def test_worked_example_exact_values():
    table = th.worked_example().set_index("quantity")
    assert table.loc["Example 10: Acc*", "exact"] == sp.Rational(7, 12)
    assert table.loc["Example 11: Acc*_S = trace(S)/sum(S)", "exact"] == sp.Rational(31, 44)
    assert table.loc["Example 12: d(CM, CM*)", "exact"] == sp.sqrt(122) / 60
    assert table.loc["Example 13: C = Acc*_S / (Acc*_S + Acc*_U)", "exact"] == sp.Rational(31, 42)
    # every printed number agrees except the column sum of CM for class A (printed 3, is 4)
    assert list(table.index[~table["agrees"]]) == ["Example 6: column sum of CM for class A"]


def test_worked_example_matrices_match_package():
    m = th.example_matrices()
    y = np.array(th.EXAMPLE_LABELS)
    q = np.array(m["Q"].tolist(), dtype=float)
    np.testing.assert_allclose(np.array(m["CM*"].tolist(), dtype=float), cr.probabilistic_confusion_matrix(y, q))
    s, u = cr.certainty_decomposition(y, q)
    np.testing.assert_allclose(np.array(m["S"].tolist(), dtype=float), s, atol=1e-12)
    np.testing.assert_allclose(np.array(m["U"].tolist(), dtype=float), u, atol=1e-12)


def test_general_identities():
    assert th.check_row_sum_derivation()
    assert th.check_accuracy_decomposition()
    assert th.check_certainty_ratio_bounds()
    assert th.check_divergence_vertices()


@pytest.mark.parametrize("n,k", [(2, 2), (2, 3), (3, 2)])
def test_identities_exhaustively(n, k):
    assert all(th.check_identities_exhaustively(n, k).values())


def test_divergence_maximum():
    for k in range(2, 6):
        found = th.numerical_divergence_search(k, starts=40, seed=k)
        assert found <= th.divergence_maximum(k) + 1e-6
        assert found == pytest.approx(th.divergence_maximum(k), abs=1e-4)
        # attained: all instances in one class, uniform rows
        assert cr.probabilistic_divergence([1, 1, 1], np.full((3, k), 1 / k)) == pytest.approx(th.divergence_maximum(k))
    assert th.divergence_maximum(2) == pytest.approx(1 / np.sqrt(2))
    assert th.divergence_bound_given_counts([5, 5]) == pytest.approx(0.5 * np.sqrt(0.5) * np.sqrt(2))


def test_counterexamples():
    mcc = th.mcc_counterexample()
    assert mcc["mcc_S"] < 0 < mcc["mcc_U"] and mcc["certainty_ratio"] > 1
    zero = th.zero_divergence_counterexample()
    assert zero["divergence"] == 0.0 and zero["certainty_ratio"] < 1


class TestBadInput:
    def test_arguments(self):
        with pytest.raises(ValueError, match="n_classes"):
            th.divergence_maximum(1)
        with pytest.raises(ValueError, match="n_classes"):
            th.numerical_divergence_search(1.5)
        with pytest.raises(ValueError, match="starts"):
            th.numerical_divergence_search(3, starts=0)
        with pytest.raises(ValueError, match="class_counts"):
            th.divergence_bound_given_counts([3])
        with pytest.raises(ValueError, match="class_counts"):
            th.divergence_bound_given_counts([3, -1])
        with pytest.raises(ValueError, match="n must be <= 4"):
            th.check_identities_exhaustively(5, 2)
        with pytest.raises(ValueError, match="k must be >= 2"):
            th.check_identities_exhaustively(2, 1)
