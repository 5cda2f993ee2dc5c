"""Vacuous vs random classifier over the next m bets (Zaffalon, Corani & Mauá 2012, Section 8)."""
from math import comb, exp, log

import numpy as np
import pytest
import sympy as sp

from credalbook.book.theory.mbets import (L, M, N, binomial_term, binomial_term_as_printed, d_second_order,
                                     exact_argmax_d, exact_expected_utility_symbolic, expected_utility_random,
                                     expected_utility_random_approx, inversion_points, is_maximum, mbets_table,
                                     relative_error_grid, second_order_expected_utility, summarise_relative_errors)
from credalbook.book.theory.utility import A_RISK, X, exponential_utility, log_utility


def brute_force(u, m, n):
    return sum(u(ell) * comb(m, ell) * (1 / n) ** ell * (1 - 1 / n) ** (m - ell) for ell in range(m + 1))


@pytest.mark.parametrize("m,n", [(1, 2), (3, 2), (7, 3), (20, 5), (50, 10)])
def test_exact_expected_utility_against_binomial_sum(m, n):
    assert expected_utility_random("log", m, n) == pytest.approx(brute_force(lambda v: log(1 + v), m, n), rel=1e-12)
    assert expected_utility_random("exp", m, n, a=0.7) == pytest.approx(
        brute_force(lambda v: 1 - exp(-0.7 * v), m, n), rel=1e-12)


def test_exact_symbolic_matches_numeric():
    value = exact_expected_utility_symbolic(log_utility(), 3, 2)
    assert sp.simplify(value - (sp.Rational(3, 8) * sp.log(2) + sp.Rational(3, 8) * sp.log(3) + sp.log(4) / 8)) == 0
    assert float(value) == pytest.approx(expected_utility_random("log", 3, 2))


def test_binomial_terms_sum_to_one():
    for m in (1, 4, 9):
        total = sp.Add(*[binomial_term(m, 3).subs(L, ell) for ell in range(m + 1)])
        assert sp.simplify(total) == 1


def test_printed_binomial_term_is_wrong():
    # C(l, m) vanishes for l < m: the printed Eq. (6) keeps only the l = m term
    printed = [binomial_term_as_printed(3, 2).subs(L, ell) for ell in range(4)]
    assert printed[:3] == [0, 0, 0] and sp.simplify(sp.Add(*printed) - 1) != 0


def test_second_order_approximations():
    d_log = d_second_order(log_utility())
    assert sp.simplify(d_log - (M / N) * (1 - 1 / N) / (2 * (M / N + 1) ** 2)) == 0  # Eq. (7)
    d_exp = d_second_order(exponential_utility())
    expected = A_RISK ** 2 / 2 * sp.exp(-A_RISK * M / N) * M / N * (1 - 1 / N)  # positive: the paper prints a minus
    assert sp.simplify(d_exp - expected) == 0
    approx = second_order_expected_utility(log_utility())
    assert sp.simplify(approx - (sp.log(1 + M / N) - M / N * (1 - 1 / N) / (2 * (M / N + 1) ** 2))) == 0


def test_eq8_derivative():
    shape = M / (M / N + 1) ** 2
    assert sp.simplify(sp.diff(shape, M) * (M / N + 1) ** 3 - (1 - M / N)) == 0


def test_inversion_points():
    assert inversion_points(log_utility()) == [N]
    assert [sp.simplify(p - N / A_RISK) for p in inversion_points(exponential_utility())] == [0]
    assert is_maximum(log_utility(), N)
    assert is_maximum(exponential_utility(), N / A_RISK)


def test_approximation_numeric_matches_symbolic():
    f = sp.lambdify((M, N), second_order_expected_utility(log_utility()))
    assert expected_utility_random_approx("log", 7, 3) == pytest.approx(f(7, 3))


def test_table_consistency():
    table = mbets_table("exp", np.arange(1, 30), [2, 5], a=1.0)
    np.testing.assert_allclose(table["d_exact"], table["vacuous"] - table["random_exact"])
    assert (table["d_exact"] > 0).all()  # Jensen: vacuous beats random for every m
    assert (table["d_approx"] > 0).all()


def test_relative_error_claim_fails_for_small_m_large_n():
    grid = relative_error_grid(np.arange(1, 51), [2, 10], [1.0])
    summary = summarise_relative_errors(grid).set_index("utility")
    assert summary.loc["log", "max_rel_error_E_u"] > 0.1          # m = 1, n = 10
    assert summary.loc["log", "at_m"] == 1 and summary.loc["log", "at_n"] == 10
    one = grid[(grid.utility == "log") & (grid.m == 1) & (grid.n == 10)].iloc[0]
    exact = 0.1 * log(2)
    approx = log(1.1) - 0.1 * 0.9 / (2 * 1.1 ** 2)
    assert one["rel_error_expected_utility"] == pytest.approx(abs(approx - exact) / exact)


def test_exact_argmax():
    assert exact_argmax_d("log", 2, m_max=200) == 2
    # the exact maximiser is not the approximation's m = n for larger n
    assert exact_argmax_d("log", 10, m_max=200) != 10


class TestBadInput:
    def test_utility_name(self):
        with pytest.raises(ValueError, match="utility"):
            expected_utility_random("quadratic", 3, 2)

    def test_a(self):
        with pytest.raises(ValueError, match="a"):
            expected_utility_random("exp", 3, 2)
        with pytest.raises(ValueError, match="a"):
            expected_utility_random("exp", 3, 2, a=-1.0)
        with pytest.raises(ValueError, match="a is only"):
            expected_utility_random("log", 3, 2, a=1.0)

    def test_m_and_n(self):
        with pytest.raises(ValueError, match="m"):
            expected_utility_random("log", 0, 2)
        with pytest.raises(ValueError, match="m"):
            expected_utility_random("log", 2.5, 2)
        with pytest.raises(ValueError, match="n_classes"):
            expected_utility_random("log", 3, 1)
        with pytest.raises(ValueError, match="m"):
            expected_utility_random_approx("log", 0, 2)
        with pytest.raises(ValueError, match="n_classes"):
            expected_utility_random_approx("log", 2, 1)
        with pytest.raises(ValueError, match="m"):
            exact_expected_utility_symbolic(log_utility(), 0, 2)
        with pytest.raises(ValueError, match="n_classes"):
            exact_argmax_d("log", 1)

    def test_grid(self):
        with pytest.raises(ValueError, match="risk_aversions"):
            relative_error_grid([1, 2], [2], [])
        with pytest.raises(ValueError, match="a"):
            relative_error_grid([1, 2], [2], [0.0])
        with pytest.raises(ValueError, match="ms"):
            mbets_table("log", [], [2])
        with pytest.raises(ValueError, match="lacks"):
            summarise_relative_errors(mbets_table("log", [1], [2]).drop(columns="rel_error_d"))
        with pytest.raises(ValueError, match="threshold"):
            summarise_relative_errors(mbets_table("log", [1], [2]), threshold=0)


class TestBadSymbolicInput:
    def test_utility_expression(self):
        with pytest.raises(ValueError, match="u"):
            second_order_expected_utility(sp.Symbol("y"))
        with pytest.raises(ValueError, match="u"):
            d_second_order("1 +")
        with pytest.raises(ValueError, match="u"):
            inversion_points(sp.Integer(3))
        with pytest.raises(ValueError, match="u"):
            exact_expected_utility_symbolic(sp.Symbol("z"), 3, 2)
