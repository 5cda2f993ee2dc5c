"""Utility of discounted accuracy (Zaffalon, Corani & Mauá 2012, Sections 5, 7, 9): Eq. (2),
Propositions 1–3, Eq. (3), Example 1, the quadratic utilities, Table 10, F-measures."""
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from credalbook.metrics import certainty_equivalent, quadratic_utility, utility_discounted_accuracy
from credalbook.book.reference import compare
from credalbook.book.theory.utility import (EPS, MU, N, U_HALF, VAR, X, OutcomeModel, certainty_equivalent_quadratic,
                                       check_eq3, check_printed_utilities, check_proposition1, check_proposition3,
                                       delta_var, discrete_gamble, eq2_error, eq3_rhs, example1_solved, exponential_through, example1_differences, example1_models,
                                       exponential_utility, f_beta_eq9, f_beta_utility, fbeta_sign, fbeta_vs_quadratic,
                                       generic_outcome_model, generic_quadratic, log_utility, proposition1_gap,
                                       proposition2_delta_var, proposition3_delta_var, quadratic_maximum,
                                       quadratic_through, table10, table10_exact, taylor_remainder,
                                       taylor_second_order, utility_curves, variance_identities)


# ---------------------------------------------------------------- Eq. (2)
def test_taylor_remainder_zero_for_quadratic():
    assert taylor_remainder(generic_quadratic()) == 0
    for h in (0.5, 0.65, 0.8):
        assert taylor_remainder(quadratic_through(h)) == 0


def test_taylor_remainder_nonzero_otherwise():
    assert sp.factor(taylor_remainder(X ** 3)) == (X - MU) ** 3
    assert taylor_remainder(log_utility()) != 0
    assert taylor_remainder(exponential_utility()) != 0


@pytest.mark.parametrize("outcomes", [2, 3, 4])
def test_eq2_exact_for_quadratic(outcomes):
    assert eq2_error(generic_quadratic(), outcomes) == 0


def test_eq2_error_of_cubic_is_third_central_moment():
    # two-point gamble x1 (prob p1), x2 (prob 1-p1): E[(h-mu)^3] = p(1-p)(1-2p)(x1-x2)^3
    (x1, x2), (p1, _) = discrete_gamble(2)
    error = eq2_error(X ** 3, 2)
    assert sp.simplify(error - p1 * (1 - p1) * (1 - 2 * p1) * (x1 - x2) ** 3) == 0


def test_eq2_formula():
    u = generic_quadratic()
    alpha = sp.Symbol("alpha", real=True)
    assert sp.simplify(taylor_second_order(u) - (u.subs(X, MU) + alpha * VAR)) == 0


# ---------------------------------------------------------------- Proposition 1
@pytest.mark.parametrize("u", [quadratic_through(0.65), quadratic_through(0.8), log_utility(), exponential_utility(),
                               exponential_utility(3)])
def test_proposition1_strictly_concave(u):
    assert check_proposition1(u)
    gap = sp.lambdify(N, proposition1_gap(u).subs(sp.Symbol("a", positive=True), 1))
    assert all(float(gap(n)) > 0 for n in range(2, 60))


def test_proposition1_not_claimed_for_linear():
    assert not check_proposition1(X)
    assert proposition1_gap(X) == 0


def test_proposition1_quadratic_gap_closed_form():
    alpha = sp.Symbol("alpha", real=True)
    u = alpha * X ** 2 + (1 - alpha) * X
    assert sp.simplify(proposition1_gap(u) - (-alpha) * (N - 1) / N ** 2) == 0


def test_proposition1_with_metrics():
    # vacuous on every instance vs the random classifier's two outcomes, u65, n = 4 classes
    n = 4
    y_true = np.zeros(n, dtype=int)
    vacuous = np.ones((n, n), dtype=bool)
    random_sets = np.eye(n, dtype=bool)  # each class guessed once: the exact 1/n frequency of success
    u_v = utility_discounted_accuracy(y_true, vacuous, 0.65)
    u_r = utility_discounted_accuracy(y_true, random_sets, 0.65)
    expected_gap = float(proposition1_gap(quadratic_through(0.65), n))
    assert u_v - u_r == pytest.approx(expected_gap)


# ---------------------------------------------------------------- Eq. (3), Propositions 2 and 3
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_variance_identities(n):
    identities = variance_identities(generic_outcome_model(n, "H"))
    assert identities["second_moment_split"] == 0
    assert identities["determinate_0_1"] == 0
    assert identities["indeterminate_gap"].is_nonnegative


@pytest.mark.parametrize("n", [3, 4, 5])
def test_eq3(n):
    assert check_eq3(n)


def test_proposition2():
    dvar = proposition2_delta_var(3)
    f2, f3 = sp.Symbol("P(F_{2})", nonnegative=True), sp.Symbol("P(F_{3})", nonnegative=True)
    assert sp.simplify(dvar - (f2 / 4 + 2 * f3 / 9)) == 0
    assert dvar.is_nonnegative


def test_proposition3_delta_var():
    dvar, claimed = proposition3_delta_var()
    assert sp.simplify(dvar - claimed) == 0
    assert check_proposition3()


@pytest.mark.parametrize("n", [2, 3, 6])
def test_proposition3_numerically(n):
    # two classifiers vacuous when indeterminate with equal means; variance difference by brute force
    def moments(p1, p1c):
        values = np.array([1.0, 0.0, 1.0 / n])
        probs = np.array([p1, p1c, 1 - p1 - p1c])
        mean = probs @ values
        return mean, probs @ values ** 2 - mean ** 2
    g1, g1c = 0.5, 0.3
    f1c = 0.1
    mean_g, var_g = moments(g1, g1c)
    f1 = (mean_g - (1 - f1c) / n) / (1 - 1 / n)  # solves E[f] = E[g]
    mean_f, var_f = moments(f1, f1c)
    assert mean_f == pytest.approx(mean_g)
    assert var_g - var_f == pytest.approx((n - 1) / n ** 2 * ((g1 + g1c) - (f1 + f1c)))


# ---------------------------------------------------------------- Example 1
def test_example1():
    d = example1_differences()
    assert d["total_probability"] == 0
    assert d["mean"] == 0
    assert d["second_moment"] == EPS / 2
    assert d["delta_var (Var g - Var f)"] == -EPS / 2
    assert d["determinacy"] == -EPS
    assert d["expected_size"] == EPS  # the paper prints 4*epsilon (erratum)


def test_example1_solved():
    r = example1_solved()
    c1, c1c, c2, c2c, c3 = r["symbols"]
    assert r["paper_choice"][c2c] == 3          # forced by normalisation
    assert r["paper_means_equal"]
    assert r["paper_values"] == {"second_moment": EPS / 2, "determinacy": -EPS, "expected_size": EPS}
    # on the admissible family the variance change depends on c_2 and c_3 only
    assert r["family"]["second_moment"].free_symbols == {EPS, c2, c3}
    family_at_paper = {k: v.subs(r["paper_choice"]) for k, v in r["family"].items()}
    assert family_at_paper == r["paper_values"]


def test_example1_is_realisable():
    f, g = example1_models()
    values = dict(zip(g.success + g.failure[:2], [0.3, 0.2, 0.2, 0.2, 0.1]))
    values[EPS] = 0.05
    for model in (f, g):
        probs = [float(sp.sympify(p).subs(values)) for p in model.success + model.failure]
        assert min(probs) >= 0 and sum(probs) == pytest.approx(1)


# ---------------------------------------------------------------- Section 9: quadratic utilities
def test_quadratic_through():
    assert quadratic_through(0.65) == sp.Rational(-3, 5) * X ** 2 + sp.Rational(8, 5) * X
    assert quadratic_through(0.8) == sp.Rational(-6, 5) * X ** 2 + sp.Rational(11, 5) * X
    assert quadratic_through(0.5) == X
    general = quadratic_through(U_HALF)
    assert sp.simplify(general - ((2 - 4 * U_HALF) * X ** 2 + (4 * U_HALF - 1) * X)) == 0


def test_quadratic_matches_metrics_coefficients():
    for h in (0.5, 0.65, 0.8):
        a, b = quadratic_utility(h).coefficients
        poly = sp.Poly(quadratic_through(h), X)
        assert float(poly.coeff_monomial(X ** 2)) == pytest.approx(a)
        assert float(poly.coeff_monomial(X)) == pytest.approx(b)


def test_printed_section9_utilities_are_swapped():
    table = check_printed_utilities().set_index("label")
    assert table.loc["u65", "printed u(1/2)"] == sp.Rational(4, 5)
    assert table.loc["u80", "printed u(1/2)"] == sp.Rational(13, 20)
    assert not table["printed is right"].any()


def test_u80_exceeds_one_only_above_five_sixths():
    m = quadratic_maximum(0.8)
    assert m["argmax"] == sp.Rational(11, 12) and m["max"] == sp.Rational(121, 120)
    assert m["exceeds 1 on [0,1]"] == sp.Interval.open(sp.Rational(5, 6), 1)
    assert quadratic_maximum(0.65)["exceeds 1 on [0,1]"] == sp.EmptySet


def test_certainty_equivalent_inverts_utility():
    y = sp.Symbol("y", nonnegative=True)
    for h in (sp.Rational(13, 20), sp.Rational(4, 5)):
        ce = certainty_equivalent_quadratic(h)
        assert sp.simplify(quadratic_through(h).subs(X, ce) - y) == 0
        assert ce.subs(y, 0) == 0
    # u65 is increasing on [0, 1], so u^{-1}(1) = 1; u80 reaches 1 already at x = 5/6 (its
    # vertex is 11/12 < 1), so the branch through 0 gives 5/6 at y = 1
    assert certainty_equivalent_quadratic(0.65).subs(y, 1) == 1
    assert certainty_equivalent_quadratic(0.8).subs(y, 1) == sp.Rational(5, 6)
    general = certainty_equivalent_quadratic()
    assert sp.simplify(general.subs(U_HALF, sp.Rational(13, 20)) - certainty_equivalent_quadratic(0.65)) == 0


def test_certainty_equivalent_agrees_with_metrics():
    y_true = np.array([0, 0, 1, 2])
    y_set = np.array([[1, 0, 0], [1, 1, 0], [0, 1, 1], [1, 0, 0]], dtype=bool)
    value = utility_discounted_accuracy(y_true, y_set, 0.65)
    ce = certainty_equivalent_quadratic(0.65).subs(sp.Symbol("y", nonnegative=True), value)
    assert certainty_equivalent(y_true, y_set, 0.65) == pytest.approx(float(ce))


def test_exponential_through_three_points():
    for h in (0.6, 0.65, 0.8, 0.95):
        e = exponential_through(h)
        assert sp.simplify(e.subs(X, 0)) == 0 and sp.simplify(e.subs(X, 1) - 1) == 0
        assert sp.simplify(e.subs(X, sp.Rational(1, 2)) - sp.nsimplify(h)) == 0
        assert check_proposition1(e)
    # a = 2 log(u/(1-u)): for u = 0.8, exp(-a/2) = 1/4
    assert float(exponential_through(0.8).subs(X, sp.Rational(1, 3))) == pytest.approx((1 - 4 ** (-2 / 3)) / (1 - 1 / 16))


# ---------------------------------------------------------------- Table 10, F-measures
def test_table10_hand_computed():
    exact = table10_exact().set_index("prediction")
    assert exact.loc["{1,2}", "u65"] == sp.Rational(13, 20)
    assert exact.loc["{1,2,3}", "u65"] == sp.Rational(7, 15)  # -0.6/9 + 1.6/3
    assert exact.loc["{1,2,3}", "u80"] == sp.Rational(3, 5)   # -1.2/9 + 2.2/3
    assert exact.loc["{1,2}", "F2"] == sp.Rational(5, 6) and exact.loc["{1,2,3}", "F2"] == sp.Rational(5, 7)
    book = table10().set_index("prediction")
    for column in ["precision", "recall", "F1", "F2", "u65", "u80"]:
        np.testing.assert_allclose(book[column].to_numpy(), exact[column].astype(float).to_numpy(), atol=1e-12)


def test_table10_agrees_with_paper():
    table = compare("zaffalon2012_table10", table10(), on=["prediction"])
    assert (table["verdict"] == "agrees").all()


@pytest.mark.parametrize("beta", [1, 2, sp.Rational(1, 2)])
@pytest.mark.parametrize("k", [1, 2, 3, 7])
def test_f_beta_utility_matches_eq9(beta, k):
    assert sp.simplify(f_beta_utility(beta).subs(X, sp.Rational(1, k)) - f_beta_eq9(beta, k)) == 0


def test_f_beta_is_concave_utility():
    for beta in (1, 2):
        u = f_beta_utility(beta)
        assert u.subs(X, 0) == 0 and u.subs(X, 1) == 1
        assert check_proposition1(u)


def test_f1_between_u65_and_u80_for_every_k():
    assert fbeta_sign(1, 0.65) == 1
    assert fbeta_sign(1, 0.8) == -1
    assert fbeta_sign(2, 0.8) == 1  # F2 above both: rewards indeterminacy more
    k = sp.Symbol("k", positive=True)
    assert sp.simplify(fbeta_vs_quadratic(1, 0.65) - (k - 1) * (2 * k - 3) / (5 * k ** 2 * (k + 1))) == 0


def test_fbeta_sign_undecided():
    with pytest.raises(ValueError, match="not constant"):
        fbeta_sign(1, 0.7)


def test_utility_curves():
    curves = utility_curves(5).pivot(index="k", columns="function", values="value")
    assert (curves.loc[2:, "u65"] <= curves.loc[2:, "F1"]).all()
    assert (curves.loc[2:, "F1"] <= curves.loc[2:, "u80"]).all()
    np.testing.assert_allclose(curves["u50"], 1 / np.arange(1, 6))


@settings(max_examples=50, deadline=None)
@given(st.floats(0.5, 0.95), st.lists(st.floats(0, 1), min_size=2, max_size=5))
def test_eq2_numerically_exact_for_quadratic(u_half, weights):
    weights = np.asarray(weights) + 1e-3
    probs = weights / weights.sum()
    values = 1.0 / np.arange(1, probs.size + 1)
    u = quadratic_utility(u_half)
    a, _ = u.coefficients
    mean = probs @ values
    var = probs @ (values - mean) ** 2
    assert probs @ u(values) == pytest.approx(u(mean) + a * var, abs=1e-12)


class TestBadInput:
    def test_expressions(self):
        with pytest.raises(ValueError, match="u"):
            taylor_remainder("not a + ")
        with pytest.raises(ValueError, match="depend"):
            taylor_second_order(sp.Symbol("y") ** 2)
        with pytest.raises(ValueError, match="u"):
            check_proposition1([1, 2])

    def test_numbers(self):
        with pytest.raises(ValueError, match="u_half"):
            quadratic_through(1.5)
        with pytest.raises(ValueError, match="u_half"):
            exponential_through(0.5)
        with pytest.raises(ValueError, match="a"):
            exponential_utility(-1)
        with pytest.raises(ValueError, match="beta"):
            f_beta_utility(0)
        with pytest.raises(ValueError, match="n"):
            proposition1_gap(log_utility(), 1)
        with pytest.raises(ValueError, match="n_classes"):
            generic_outcome_model(1, "H")
        with pytest.raises(ValueError, match="n_outcomes"):
            eq2_error(X ** 2, 0)
        with pytest.raises(ValueError, match="k_max"):
            utility_curves(0)
        with pytest.raises(ValueError, match="k"):
            f_beta_eq9(1, 0)
        with pytest.raises(ValueError, match="beta"):
            f_beta_eq9(-1, 2)
        with pytest.raises(ValueError, match="beta"):
            fbeta_vs_quadratic(-1, 0.65)
        with pytest.raises(ValueError, match="n_classes"):
            check_eq3(1)
        with pytest.raises(ValueError, match="n_classes"):
            proposition2_delta_var(1)

    def test_outcome_model(self):
        with pytest.raises(ValueError, match="same length"):
            OutcomeModel((sp.Symbol("a"),), ())
        with pytest.raises(ValueError, match="model"):
            variance_identities({"P(H_1)": 0.5})
        with pytest.raises(ValueError, match="f must be"):
            delta_var(None, generic_outcome_model(3, "G"))
        with pytest.raises(ValueError, match="same number of classes"):
            eq3_rhs(generic_outcome_model(3, "F"), generic_outcome_model(4, "G"))

    def test_table10(self):
        with pytest.raises(ValueError, match="actual"):
            table10(actual=7)
        with pytest.raises(ValueError, match="empty"):
            table10_exact(predictions=[set()])
        with pytest.raises(ValueError, match="empty|classes"):
            table10(predictions=[{1}, set()])
