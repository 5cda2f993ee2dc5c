"""Theorem 1 (Zaffalon, Corani & Mauá 2012): the betting game's value is 1/k; Table 2."""
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from credalbook.book.reference import compare
from credalbook.book.theory import betting
from credalbook.book.theory.betting import (K_SYMBOL, betting_game_payoff, check_theorem1_symbolic, extended_reward_matrix,
                                       solve_matrix_game, theorem1_derivation, theorem1_table, theorem1_value_exact,
                                       vacuous_random_moments)


def test_symbolic_bounds_are_one_over_k():
    d = theorem1_derivation()
    assert sp.simplify(d["lower"] - 1 / K_SYMBOL) == 0
    assert sp.simplify(d["upper"] - 1 / K_SYMBOL) == 0
    assert check_theorem1_symbolic()


@pytest.mark.parametrize("k", range(2, 9))
def test_lp_value_is_one_over_k(k):
    solution = solve_matrix_game(betting_game_payoff(k + 2, range(1, k + 1)))
    assert solution.maximin == pytest.approx(1 / k, abs=1e-9)
    assert solution.minimax == pytest.approx(1 / k, abs=1e-9)
    # the optimal bettor plays the K-random classifier and never bets outside K
    np.testing.assert_allclose(solution.row_strategy[:k], 1 / k, atol=1e-9)
    assert solution.row_strategy[k:].sum() == pytest.approx(0, abs=1e-9)


@pytest.mark.parametrize("k", range(2, 9))
def test_exact_value_is_one_over_k(k):
    assert theorem1_value_exact(k) == sp.Rational(1, k)


def test_theorem1_table_columns():
    table = theorem1_table(range(2, 5))
    assert list(table["exact_value"]) == ["1/2", "1/3", "1/4"]
    np.testing.assert_allclose(table["lp_maximin"], table["one_over_k"], atol=1e-9)


def test_matrix_game_known_value():
    # matching pennies: value 0, uniform strategies
    solution = solve_matrix_game([[1, -1], [-1, 1]])
    assert solution.value == pytest.approx(0, abs=1e-9)
    np.testing.assert_allclose(solution.row_strategy, 0.5, atol=1e-9)
    # a saddle point: value 2
    assert solve_matrix_game([[2, 3], [1, 0]]).value == pytest.approx(2)


def test_table2_matches_paper():
    table = compare("zaffalon2012_table2", extended_reward_matrix(2), on=["prediction"])
    assert (table["verdict"] == "agrees").all()


def test_extended_matrix_shape_and_utility():
    matrix = extended_reward_matrix(3)
    assert matrix.shape == (2 ** 3 - 1, 4)
    row = matrix.set_index("prediction").loc["{1,2,3}"]
    np.testing.assert_allclose(row, 1 / 3)
    table3 = extended_reward_matrix(2, utility=lambda x: np.sqrt(x)).set_index("prediction")
    assert table3.loc["{1,2}", "actual_1"] == pytest.approx(np.sqrt(0.5))


def test_vacuous_random_moments():
    symbolic = vacuous_random_moments()
    n = sp.Symbol("n", integer=True, positive=True)
    assert sp.simplify(symbolic.loc[1, "variance"] - (1 / n) * (1 - 1 / n)) == 0
    assert symbolic.loc[0, "mean"] == symbolic.loc[1, "mean"]
    assert vacuous_random_moments(4).loc[1, "variance"] == sp.Rational(3, 16)


def test_random_classifier_mean_independent_of_chances():
    # E[r] = sum_i sigma*_i theta_i = 1/n for any theta
    rng = np.random.default_rng(0)
    n = 5
    for _ in range(20):
        theta = rng.dirichlet(np.ones(n))
        assert np.full(n, 1 / n) @ theta == pytest.approx(1 / n)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=2, max_size=8))
def test_no_strategy_beats_one_over_k(weights):
    # Theorem 1's last step: min_{i in K} sigma_i <= 1/k, with equality only for the uniform sigma
    sigma = np.asarray(weights) + 1e-9
    sigma = sigma / sigma.sum()
    k = sigma.size
    assert sigma.min() <= 1 / k + 1e-12
    if sigma.min() >= 1 / k - 1e-12:
        np.testing.assert_allclose(sigma, 1 / k, atol=1e-9)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 5), st.integers(2, 5), st.randoms(use_true_random=False))
def test_minimax_theorem_on_random_games(rows, cols, rnd):
    payoff = np.array([[rnd.uniform(-1, 1) for _ in range(cols)] for _ in range(rows)])
    solution = solve_matrix_game(payoff)
    assert solution.maximin == pytest.approx(solution.minimax, abs=1e-7)
    assert payoff.min() - 1e-9 <= solution.value <= payoff.max() + 1e-9
    # the optimal strategies certify the value against every pure reply
    assert (solution.row_strategy @ payoff).min() == pytest.approx(solution.value, abs=1e-7)
    assert (payoff @ solution.column_strategy).max() == pytest.approx(solution.value, abs=1e-7)


class TestBadInput:
    def test_n_classes(self):
        with pytest.raises(ValueError, match="n_classes"):
            betting_game_payoff(1, [1])
        with pytest.raises(ValueError, match="n_classes"):
            extended_reward_matrix(2.5)
        with pytest.raises(ValueError, match="n_classes"):
            extended_reward_matrix(13)
        with pytest.raises(ValueError, match="n_classes"):
            vacuous_random_moments(1)

    def test_prediction(self):
        with pytest.raises(ValueError, match="empty"):
            betting_game_payoff(3, [])
        with pytest.raises(ValueError, match="outside"):
            betting_game_payoff(3, [1, 4])
        with pytest.raises(ValueError, match="repeats"):
            betting_game_payoff(3, [1, 1])
        with pytest.raises(ValueError, match="iterable"):
            betting_game_payoff(3, 2)

    def test_payoff(self):
        with pytest.raises(ValueError, match="payoff"):
            solve_matrix_game([1, 2, 3])
        with pytest.raises(ValueError, match="payoff"):
            solve_matrix_game([[1, np.nan], [0, 1]])

    def test_k(self):
        with pytest.raises(ValueError, match="k"):
            theorem1_value_exact(0)
        with pytest.raises(ValueError, match="exceeds"):
            theorem1_table([5], n_classes=3)

    def test_utility(self):
        with pytest.raises(ValueError, match="utility"):
            extended_reward_matrix(2, utility=0.65)


def test_module_cites_paper():
    assert "Theorem 1" in betting.__doc__
