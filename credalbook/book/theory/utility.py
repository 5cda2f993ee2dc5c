"""Utility of discounted accuracy and risk aversion (Zaffalon, Corani & Mauá 2012, Sections 5, 7, 9).

Expressions and checks for: Eq. (2), the second-order Taylor approximation of ``E[u(h)]``
(exact for quadratic utilities); Proposition 1 (vacuous beats random under strict
concavity); the variance identities behind Eq. (3) and Propositions 2 and 3; Example 1; the
quadratic utilities of Section 9 (Fig. 2) and their certainty equivalent; the F-measure of
Eq. (9) read as a utility of discounted accuracy (Table 10, Fig. 7).

A classifier's reward on the next instance is described, as in Example 1, by the
probabilities ``P(H_k)`` (it returns ``k`` classes including the actual one) and
``P(H_k^c)`` (``k`` classes, all wrong), ``k = 1..n``: its discounted-accuracy reward is
``1/k`` on ``H_k`` and 0 otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import sympy as sp

from credalbook._validation import check_scalar

__all__ = ["X", "MU", "VAR", "N", "A_RISK", "EPS", "U_HALF", "quadratic_through", "log_utility",
           "exponential_utility", "exponential_risk_aversions", "exponential_through", "f_beta_utility",
           "f_beta_eq9", "absolute_risk_aversion", "taylor_second_order", "U_AT_MU",
           "expected_taylor_polynomial", "eq2_relative_errors", "taylor_remainder", "discrete_gamble",
           "eq2_error", "generic_quadratic", "proposition1_gap", "check_proposition1", "OutcomeModel",
           "generic_outcome_model", "variance_identities", "delta_var", "eq3_rhs", "check_eq3",
           "proposition2_delta_var", "vacuous_when_indeterminate", "proposition3_delta_var",
           "check_proposition3", "example1_models", "example1_differences", "example1_solved",
           "PRINTED_SECTION9", "check_printed_utilities", "quadratic_maximum",
           "certainty_equivalent_quadratic", "fbeta_vs_quadratic", "fbeta_sign", "sizes_where_not_closer",
           "utility_curves", "TABLE10_PREDICTIONS", "table10", "table10_exact", "binary_credal_minus_precise",
           "aligned", "PROPOSITION1_NAMES", "proposition1_utilities", "risk_latex", "variance_latex", "section9_latex"]

#: The discounted-accuracy reward x, in [0, 1].
X = sp.Symbol("x", nonnegative=True)          # discounted-accuracy reward, in [0, 1]
#: The expected discounted accuracy E[h].
MU = sp.Symbol("mu", nonnegative=True)        # E[h]
#: The variance Var[h] of the discounted accuracy.
VAR = sp.Symbol("sigma^2", nonnegative=True)  # Var[h]
#: The number of classes n.
N = sp.Symbol("n", integer=True, positive=True)
#: The risk-aversion coefficient a of the exponential utility.
A_RISK = sp.Symbol("a", positive=True)        # risk-aversion coefficient of the exponential utility
#: The small positive epsilon of the paper's limits.
EPS = sp.Symbol("varepsilon", positive=True)
#: The utility u(1/2) of a two-class set holding the truth.
U_HALF = sp.Symbol("u_{1/2}", positive=True)


def _check_expr(u, name: str = "u") -> sp.Expr:
    try:
        expr = sp.sympify(u)
    except (sp.SympifyError, TypeError):
        raise ValueError(f"{name} must be a sympy expression in x, got {u!r}") from None
    if not isinstance(expr, sp.Expr):
        raise ValueError(f"{name} must be a sympy expression in x, got {type(expr).__name__}")
    if X not in expr.free_symbols:
        raise ValueError(f"{name} must depend on the reward symbol credalbook.book.theory.utility.X, got {expr}")
    return expr


# --------------------------------------------------------------------------------------------
# Utilities used in the paper
# --------------------------------------------------------------------------------------------

def quadratic_through(u_half) -> sp.Expr:
    """The quadratic ``alpha x^2 + beta x + gamma`` through (0, 0), (1/2, u_half), (1, 1) (Section 9).

    ``u_half`` may be a number (taken exactly, e.g. 0.65 -> 13/20) or a sympy symbol; the
    solution is ``(2 − 4 u_half) x^2 + (4 u_half − 1) x``.
    """
    if isinstance(u_half, sp.Basic):
        target = u_half
    else:
        check_scalar(u_half, "u_half", low=0, high=1, low_inclusive=False, high_inclusive=False)
        target = sp.nsimplify(u_half)
    alpha, beta, gamma = sp.symbols("alpha beta gamma")
    q = alpha * X ** 2 + beta * X + gamma
    solution = sp.solve([q.subs(X, 0), q.subs(X, 1) - 1, q.subs(X, sp.Rational(1, 2)) - target],
                        [alpha, beta, gamma], dict=True)[0]
    return sp.expand(q.subs(solution))


def log_utility() -> sp.Expr:
    """``u(x) = log(1 + x)`` (Section 8.1)."""
    return sp.log(1 + X)


def exponential_utility(a=A_RISK) -> sp.Expr:
    """``u(x) = 1 − exp(−a x)`` (Section 8.2), ``a`` > 0 the coefficient of risk aversion."""
    if not isinstance(a, sp.Basic):
        check_scalar(a, "a", low=0, low_inclusive=False)
        a = sp.nsimplify(a)
    return 1 - sp.exp(-a * X)


def _normalised_exponential(a) -> sp.Expr:
    return (1 - sp.exp(-a * X)) / (1 - sp.exp(-a))


def exponential_risk_aversions(u_half) -> list[sp.Expr]:
    """The coefficients ``a > 0`` of the normalised exponential utility ``(1 − exp(−a x)) / (1 − exp(−a))``
    (the paper's ``1 − exp(−a x)`` up to a positive factor: the same preferences) with
    ``u(1/2) = u_half``; empty when none exists (``u_half <= 1/2``: the linear utility is only the
    limit ``a -> 0``)."""
    if isinstance(u_half, sp.Basic):
        target = u_half
    else:
        check_scalar(u_half, "u_half", low=0, high=1, low_inclusive=False, high_inclusive=False)
        target = sp.nsimplify(u_half)
    a = sp.Symbol("a", positive=True)
    return [sp.simplify(root) for root in sp.solve(sp.Eq(_normalised_exponential(a).subs(X, sp.Rational(1, 2)), target), a)]


def exponential_through(u_half) -> sp.Expr:
    """The exponential utility ``(1 − exp(−a x)) / (1 − exp(−a))`` through (0, 0), (1, 1), (1/2, u_half).

    ``u(1/2) = 1/(1 + exp(−a/2))``, so ``a = 2 log(u_half / (1 − u_half))``: one exists for
    every ``u_half`` in (1/2, 1) (Section 9 says the exponential could not fit the three values;
    with the scale factor that normalises u(1) = 1 it fits 0.65 and 0.8, and 0.5 only as the limit a -> 0).
    """
    if not isinstance(u_half, sp.Basic):
        check_scalar(u_half, "u_half", low=0.5, high=1, low_inclusive=False, high_inclusive=False)
    solutions = exponential_risk_aversions(u_half)
    if not solutions:
        raise ValueError(f"no exponential utility has u(1/2) = {u_half}")
    return _normalised_exponential(solutions[0])


def f_beta_utility(beta=1) -> sp.Expr:
    """F-measure of Eq. (9) as a function of the discounted accuracy ``x`` of a successful set.

    With recall ``r = I_K(j)`` and precision ``p = I_K(j)/k``, a successful prediction has
    ``r = 1`` and ``p = x``, so ``F_beta = (1 + beta^2) x / (beta^2 x + 1)``; an unsuccessful
    one scores 0 = u(0). This reads the F-measure as a utility of discounted accuracy.
    """
    if not isinstance(beta, sp.Basic):
        check_scalar(beta, "beta", low=0, low_inclusive=False)
        beta = sp.nsimplify(beta)
    return (1 + beta ** 2) * X / (beta ** 2 * X + 1)


def f_beta_eq9(beta, k) -> sp.Expr:
    """Eq. (9) evaluated literally for a successful prediction of ``k`` classes (p = 1/k, r = 1)."""
    k = int(check_scalar(k, "k", low=1, integer=True))
    if not isinstance(beta, sp.Basic):
        check_scalar(beta, "beta", low=0, low_inclusive=False)
    p, r = sp.Integer(1) / k, sp.Integer(1)
    beta = sp.nsimplify(beta)
    return sp.simplify((1 + beta ** 2) * p * r / (beta ** 2 * p + r))


def absolute_risk_aversion(u) -> sp.Expr:
    """Arrow–Pratt coefficient ``−u''(x)/u'(x)`` (Section 9: a quadratic utility's grows with ``x``)."""
    u = _check_expr(u)
    return sp.simplify(-sp.diff(u, X, 2) / sp.diff(u, X))


# --------------------------------------------------------------------------------------------
# Eq. (2): second-order Taylor approximation of E[u(h)]
# --------------------------------------------------------------------------------------------

def taylor_second_order(u) -> sp.Expr:
    """Eq. (2): ``u(mu) + u''(mu) Var / 2`` (the first-order term vanishes since ``E[h − mu] = 0``)."""
    u = _check_expr(u)
    return u.subs(X, MU) + sp.diff(u, X, 2).subs(X, MU) * VAR / 2


#: ``u(mu)``, ``u'(mu)``, ``u''(mu)`` of a generic utility, as symbols (Eq. 2 for any ``u``).
U_AT_MU = sp.symbols("u(mu) u'(mu) u''(mu)", real=True)


def expected_taylor_polynomial(n_outcomes: int = 3) -> sp.Expr:
    """Eq. (2) derived: ``E[u(mu) + u'(mu)(h − mu) + u''(mu)(h − mu)^2/2]`` for a generic ``u`` and a
    generic ``n_outcomes``-valued gamble ``h``, in the symbols ``U_AT_MU`` and ``VAR``.

    The expectation is a linear combination of ``u(mu), u'(mu), u''(mu)``; its coefficients are
    computed from the gamble's values and probabilities, then the coefficient of ``u''(mu)`` is
    written as a multiple of ``Var h``: the result is ``u(mu) + u''(mu) Var/2`` when the first-order
    term vanishes and the second-order one is half the variance.
    """
    u0, u1, u2 = U_AT_MU
    values, probs = discrete_gamble(n_outcomes)
    mean = sp.Add(*[p * v for p, v in zip(probs, values)])
    var = sp.Add(*[p * (v - mean) ** 2 for p, v in zip(probs, values)])
    expected = sp.expand(sp.Add(*[p * (u0 + u1 * (v - mean) + u2 * (v - mean) ** 2 / 2) for p, v in zip(probs, values)]))
    coefficient = {symbol: expected.coeff(symbol) for symbol in U_AT_MU}
    return (u0 * sp.simplify(coefficient[u0]) + u1 * sp.simplify(coefficient[u1])
            + u2 * VAR * sp.simplify(coefficient[u2] / var))


def eq2_relative_errors(utilities: dict, n_classes: int = 4, draws: int = 2000, seed: int = 5) -> pd.DataFrame:
    """Relative error of Eq. (2) against the exact ``E[u(h)]`` on random classifiers (Sections 5, 7).

    A classifier is a random mass function (uniform on the simplex) on the rewards discounted
    accuracy can take with ``n_classes`` classes, ``1, 1/2, ..., 1/n, 0``; ``utilities`` maps
    names to sympy expressions in ``X``. Returns one row per (utility, classifier): exact and
    approximated expected utility and ``|approx − exact| / exact``.
    """
    n_classes = int(check_scalar(n_classes, "n_classes", low=2, integer=True))
    draws = int(check_scalar(draws, "draws", low=1, integer=True))
    rewards = np.r_[1 / np.arange(1, n_classes + 1), 0.0]
    probs = np.random.default_rng(seed).dirichlet(np.ones(rewards.size), size=draws)
    mean, second = probs @ rewards, probs @ rewards ** 2
    var = second - mean ** 2
    frames = []
    for name, u in utilities.items():
        u = _check_expr(u, f"utilities[{name!r}]")
        f, f2 = sp.lambdify(X, u, "numpy"), sp.lambdify(X, sp.diff(u, X, 2), "numpy")
        exact = probs @ f(rewards)
        approx = f(mean) + 0.5 * f2(mean) * var
        frames.append(pd.DataFrame({"utility": name, "classifier": np.arange(draws), "exact": exact,
                                    "approx": approx, "rel_error": np.abs(approx - exact) / np.abs(exact)}))
    return pd.concat(frames, ignore_index=True)


def taylor_remainder(u) -> sp.Expr:
    """``u(x)`` minus its second-order Taylor polynomial around ``mu``, simplified.

    Identically zero exactly when ``u`` is a polynomial of degree at most two; then Eq. (2)
    is exact, because the expectation of the Taylor polynomial is ``u(mu) + u''(mu) Var/2``.
    """
    u = _check_expr(u)
    poly = u.subs(X, MU) + sp.diff(u, X).subs(X, MU) * (X - MU) + sp.diff(u, X, 2).subs(X, MU) * (X - MU) ** 2 / 2
    return sp.simplify(sp.expand(u - poly))


def discrete_gamble(n_outcomes: int):
    """Symbolic reward values ``x_1..x_N`` and probabilities ``p_1..p_N`` with ``p_N = 1 − sum others``."""
    n_outcomes = int(check_scalar(n_outcomes, "n_outcomes", low=1, integer=True))
    values = sp.symbols(f"x1:{n_outcomes + 1}", real=True)
    free = sp.symbols(f"p1:{n_outcomes}", nonnegative=True)
    probs = list(free) + [1 - sp.Add(*free)]
    return values, probs


def eq2_error(u, n_outcomes: int = 3) -> sp.Expr:
    """``E[u(h)] − (u(E h) + u''(E h) Var h / 2)`` for a generic ``n_outcomes``-valued gamble ``h``."""
    u = _check_expr(u)
    values, probs = discrete_gamble(n_outcomes)
    mean = sp.Add(*[p * v for p, v in zip(probs, values)])
    var = sp.Add(*[p * (v - mean) ** 2 for p, v in zip(probs, values)])
    expected = sp.Add(*[p * u.subs(X, v) for p, v in zip(probs, values)])
    approx = taylor_second_order(u).subs({MU: mean, VAR: var})
    return sp.simplify(sp.expand(expected - approx))


def generic_quadratic() -> sp.Expr:
    """``alpha x^2 + beta x + gamma`` with free coefficients."""
    alpha, beta, gamma = sp.symbols("alpha beta gamma", real=True)
    return alpha * X ** 2 + beta * X + gamma


# --------------------------------------------------------------------------------------------
# Proposition 1: vacuous versus random classifier
# --------------------------------------------------------------------------------------------

def proposition1_gap(u, n=N) -> sp.Expr:
    """``E[u(v)] − E[u(r)] = u(1/n) − [u(1)/n + (1 − 1/n) u(0)]`` (Proposition 1)."""
    u = _check_expr(u)
    if not isinstance(n, sp.Basic):
        n = sp.Integer(check_scalar(n, "n", low=2, integer=True))
    return u.subs(X, 1 / n) - (u.subs(X, 1) / n + (1 - 1 / n) * u.subs(X, 0))


def check_proposition1(u) -> bool:
    """True when sympy proves ``u'' < 0`` for every reward ``x >= 0`` (the symbols' assumptions).

    Then ``g(t) = u(t) − u(0) − t (u(1) − u(0))`` is strictly concave with ``g(0) = g(1) = 0``,
    so ``g(1/n) > 0`` for every ``n >= 2``: that is Proposition 1's gap
    (:func:`proposition1_gap`), the executable form of the Jensen step of its proof.
    """
    u = _check_expr(u)
    t = sp.Symbol("t", nonnegative=True)
    g = (u - u.subs(X, 0) - X * (u.subs(X, 1) - u.subs(X, 0))).subs(X, t)
    endpoints_zero = sp.simplify(g.subs(t, 0)) == 0 and sp.simplify(g.subs(t, 1)) == 0
    gap_is_g = sp.simplify(proposition1_gap(u) - g.subs(t, 1 / N)) == 0
    strictly_concave = sp.simplify(sp.diff(u, X, 2)).is_negative is True
    return bool(endpoints_zero and gap_is_g and strictly_concave)


# --------------------------------------------------------------------------------------------
# Classifiers as outcome probabilities: Eq. (3), Propositions 2 and 3, Example 1
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class OutcomeModel:
    """A classifier's next-instance reward: ``success[k-1] = P(H_k)``, ``failure[k-1] = P(H_k^c)``."""

    success: tuple
    failure: tuple

    def __post_init__(self):
        if len(self.success) != len(self.failure) or not self.success:
            raise ValueError("success and failure must be non-empty and of the same length n (number of classes)")

    @property
    def n_classes(self) -> int:
        return len(self.success)

    def _sum(self, f) -> sp.Expr:
        return sp.Add(*[f(k, p) for k, p in enumerate(self.success, start=1)])

    @property
    def mean(self):
        """``E[h] = sum_k P(H_k)/k``."""
        return self._sum(lambda k, p: p / k)

    @property
    def second_moment(self):
        """``E[h^2] = sum_k P(H_k)/k^2``."""
        return self._sum(lambda k, p: p / k ** 2)

    @property
    def variance(self):
        return sp.expand(self.second_moment - self.mean ** 2)

    @property
    def mean_determinate(self):
        """``E[h_D] = P(H_1)`` (reward when determinate)."""
        return self.success[0]

    @property
    def second_moment_determinate(self):
        """``E[h_D^2] = P(H_1)``: ``h_D`` is 0-1 valued."""
        return self.success[0] * 1 ** 2

    @property
    def mean_indeterminate(self):
        """``E[h_I] = sum_{k>=2} P(H_k)/k``."""
        return self._sum(lambda k, p: p / k if k > 1 else 0)

    @property
    def second_moment_indeterminate(self):
        """``E[h_I^2] = sum_{k>=2} P(H_k)/k^2``."""
        return self._sum(lambda k, p: p / k ** 2 if k > 1 else 0)

    @property
    def determinacy(self):
        """``P(H_D) = P(H_1) + P(H_1^c)``."""
        return self.success[0] + self.failure[0]

    @property
    def expected_size(self):
        """Expected number of classes output, ``sum_k k [P(H_k) + P(H_k^c)]``."""
        return sp.Add(*[k * (s + f) for k, (s, f) in enumerate(zip(self.success, self.failure), start=1)])

    @property
    def total_probability(self):
        return sp.Add(*self.success, *self.failure)


def generic_outcome_model(n_classes: int, name: str) -> OutcomeModel:
    """Symbols ``P(name_k)``, ``P(name_k^c)`` for ``k = 1..n`` (``P(name_n^c) = 0``: the vacuous set is always successful)."""
    n = int(check_scalar(n_classes, "n_classes", low=2, integer=True))
    success = tuple(sp.Symbol(f"P({name}_{{{k}}})", nonnegative=True) for k in range(1, n + 1))
    failure = tuple(sp.Symbol(f"P({name}_{{{k}}}^{{c}})", nonnegative=True) for k in range(1, n)) + (sp.Integer(0),)
    return OutcomeModel(success, failure)


def _check_model(model, name: str) -> OutcomeModel:
    if not isinstance(model, OutcomeModel):
        raise ValueError(f"{name} must be an OutcomeModel (see generic_outcome_model), got {type(model).__name__}")
    return model


def variance_identities(model: OutcomeModel) -> dict[str, sp.Expr]:
    """The identities before Eq. (3), each as an expression that must be 0 (or >= 0 for the last).

    ``E[h^2] − E[h_D^2] − E[h_I^2]``, ``E[h_D^2] − E[h_D]`` and ``E[h_I] − E[h_I^2]``.
    """
    model = _check_model(model, "model")
    return {"second_moment_split": sp.simplify(model.second_moment - model.second_moment_determinate
                                               - model.second_moment_indeterminate),
            "determinate_0_1": sp.simplify(model.second_moment_determinate - model.mean_determinate),
            "indeterminate_gap": sp.factor_terms(sp.expand(model.mean_indeterminate - model.second_moment_indeterminate))}


def _equal_means(f: OutcomeModel, g: OutcomeModel) -> dict:
    """Solve ``E[f] = E[g]`` for ``P(F_1)``."""
    f, g = _check_model(f, "f"), _check_model(g, "g")
    if f.n_classes != g.n_classes:
        raise ValueError(f"f and g must have the same number of classes, got {f.n_classes} and {g.n_classes}")
    target = f.success[0]
    return {target: sp.solve(sp.Eq(f.mean, g.mean), target)[0]}


def delta_var(f: OutcomeModel, g: OutcomeModel) -> sp.Expr:
    """``Var[g] − Var[f]`` under ``E[f] = E[g]`` (the left side of Eq. 3)."""
    f, g = _check_model(f, "f"), _check_model(g, "g")
    return sp.expand((g.variance - f.variance).subs(_equal_means(f, g)))


def eq3_rhs(f: OutcomeModel, g: OutcomeModel) -> sp.Expr:
    """Right side of Eq. (3): ``E[g_D] + E[g_I^2] − E[f_D] − E[f_I^2]`` under ``E[f] = E[g]``."""
    f, g = _check_model(f, "f"), _check_model(g, "g")
    rhs = g.mean_determinate + g.second_moment_indeterminate - f.mean_determinate - f.second_moment_indeterminate
    return sp.expand(rhs.subs(_equal_means(f, g)))


def check_eq3(n_classes: int = 3) -> bool:
    """True when Eq. (3) holds identically for two generic ``n_classes``-class classifiers with equal means."""
    f, g = generic_outcome_model(n_classes, "F"), generic_outcome_model(n_classes, "G")
    return sp.simplify(delta_var(f, g) - eq3_rhs(f, g)) == 0


def proposition2_delta_var(n_classes: int = 3) -> sp.Expr:
    """``Var[g] − Var[f]`` for a credal ``f`` and a precise ``g`` with equal means (Proposition 2).

    Equals ``E[f_I] − E[f_I^2] = sum_{k>=2} P(F_k)(k − 1)/k^2 >= 0``.
    """
    f = generic_outcome_model(n_classes, "F")
    g_generic = generic_outcome_model(n_classes, "G")
    n = f.n_classes
    g = OutcomeModel(g_generic.success[:1] + (sp.Integer(0),) * (n - 1), g_generic.failure[:1] + (sp.Integer(0),) * (n - 1))
    return sp.factor_terms(delta_var(f, g))


def vacuous_when_indeterminate(name: str, n=N) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """Probabilities ``P(H_1)``, ``P(H_1^c)``, ``P(H_n) = 1 − P(H_1) − P(H_1^c)`` of a classifier
    whose indeterminate predictions are all vacuous (Proposition 3), for a symbolic ``n``."""
    s1, f1 = sp.Symbol(f"P({name}_{{1}})", nonnegative=True), sp.Symbol(f"P({name}_{{1}}^{{c}})", nonnegative=True)
    return s1, f1, 1 - s1 - f1


def proposition3_delta_var() -> tuple[sp.Expr, sp.Expr]:
    """``(Var[g] − Var[f], (n−1)/n^2 (P(G_D) − P(F_D)))`` for two classifiers vacuous when
    indeterminate, with equal means, for a symbolic number of classes ``n`` (Proposition 3)."""
    moments = {}
    for name in ("F", "G"):
        s1, f1, vac = vacuous_when_indeterminate(name)
        moments[name] = {"mean": s1 + vac / N, "second": s1 + vac / N ** 2, "det": s1 + f1, "s1": s1}
    f, g = moments["F"], moments["G"]
    equal = {f["s1"]: sp.solve(sp.Eq(f["mean"], g["mean"]), f["s1"])[0]}
    dvar = sp.simplify(((g["second"] - g["mean"] ** 2) - (f["second"] - f["mean"] ** 2)).subs(equal))
    claimed = ((N - 1) / N ** 2 * (g["det"] - f["det"])).subs(equal)
    return dvar, sp.simplify(claimed)


def check_proposition3() -> bool:
    """True when ``Var[g] − Var[f] = (n−1)/n^2 (P(G_D) − P(F_D))`` identically in ``n`` and the probabilities."""
    dvar, claimed = proposition3_delta_var()
    return sp.simplify(dvar - claimed) == 0


def example1_models() -> tuple[OutcomeModel, OutcomeModel]:
    """Example 1 (three classes): ``g`` generic, ``f`` obtained by the stated ``varepsilon`` shifts."""
    g = generic_outcome_model(3, "G")
    (g1, g2, g3), (g1c, g2c, _) = g.success, g.failure
    f = OutcomeModel(success=(g1 + EPS, g2 - 2 * EPS, g3),        # P(F1) = P(G1)+e, P(G2) = P(F2)+2e, P(F3) = P(G3)
                     failure=(g1c - 2 * EPS, g2c + 3 * EPS, sp.Integer(0)))  # P(G1c) = P(F1c)+2e, P(F2c) = P(G2c)+3e
    return f, g


def example1_differences() -> dict[str, sp.Expr]:
    """Example 1's quantities as differences ``f − g``, in ``varepsilon``.

    The paper states ``E[f] − E[g] = 0``, ``E[f^2] − E[g^2] = varepsilon/2``,
    ``P(D_f) − P(D_g) = −varepsilon`` and an expected number of output classes larger by
    ``4 varepsilon`` for ``f``; the derivation gives ``varepsilon`` for the last one (see the errata).
    """
    f, g = example1_models()
    return {"total_probability": sp.simplify(f.total_probability - g.total_probability),
            "mean": sp.simplify(f.mean - g.mean),
            "second_moment": sp.simplify(f.second_moment - g.second_moment),
            "delta_var (Var g - Var f)": sp.simplify(g.variance - f.variance),
            "determinacy": sp.simplify(f.determinacy - g.determinacy),
            "expected_size": sp.simplify(f.expected_size - g.expected_size)}


def example1_solved() -> dict[str, object]:
    """Example 1 solved in ``varepsilon``: which shifts of ``f`` from ``g`` are admissible.

    Write ``P(F_k) = P(G_k) + c_k varepsilon`` and ``P(F_k^c) = P(G_k^c) + c_k^c varepsilon``
    (``c_3^c = 0``). Probabilities must still sum to one and the means must agree:
    two linear equations in the five ``c``'s. Returns the two constraints, the general
    solution (``c_1`` and ``c_1^c`` in terms of ``c_2, c_2^c, c_3``), the differences ``f − g`` of
    the second moment, determinacy and expected size on that family, and the paper's
    choice (``c_1 = 1, c_1^c = −2, c_2 = −2, c_3 = 0``) with the value of ``c_2^c`` it forces.
    """
    c1, c1c, c2, c2c, c3 = sp.symbols("c_1 c_1^c c_2 c_2^c c_3", real=True)
    normalisation = sp.Eq(c1 + c1c + c2 + c2c + c3, 0)
    equal_means = sp.Eq(c1 + c2 / 2 + c3 / 3, 0)
    general = sp.solve([normalisation, equal_means], [c1, c1c], dict=True)[0]
    second = (c1 + c2 / 4 + c3 / 9) * EPS
    determinacy = (c1 + c1c) * EPS
    size = (c1 + c1c + 2 * (c2 + c2c) + 3 * c3) * EPS
    family = {name: sp.factor(expr.subs(general)) for name, expr in
              {"second_moment": second, "determinacy": determinacy, "expected_size": size}.items()}
    paper = {c1: 1, c1c: -2, c2: -2, c3: 0}
    forced = sp.solve(normalisation.subs(paper), c2c)[0]
    paper_full = {**paper, c2c: forced}
    return {"symbols": (c1, c1c, c2, c2c, c3), "normalisation": normalisation, "equal_means": equal_means,
            "solution": general, "family": family,
            "paper_choice": paper_full, "paper_means_equal": sp.simplify(equal_means.lhs.subs(paper_full)) == 0,
            "paper_values": {name: sp.simplify(expr.subs(paper_full)) for name, expr in
                             {"second_moment": second, "determinacy": determinacy, "expected_size": size}.items()}}


# --------------------------------------------------------------------------------------------
# Section 9: the quadratic utilities, their certainty equivalent, F-measures
# --------------------------------------------------------------------------------------------

#: The two utilities as printed in Section 9 of the journal version (labels as printed).
PRINTED_SECTION9 = {"u65": sp.Rational(-6, 5) * X ** 2 + sp.Rational(11, 5) * X,
                    "u80": sp.Rational(-3, 5) * X ** 2 + sp.Rational(8, 5) * X}


def check_printed_utilities() -> pd.DataFrame:
    """For each utility printed in Section 9: its label, ``u(1/2)`` it really has, and the utility
    the label calls for (:func:`quadratic_through`)."""
    rows = []
    for label, printed in PRINTED_SECTION9.items():
        wanted = sp.Rational(int(label[1:]), 100)
        fitted = quadratic_through(wanted)
        rows.append({"label": label, "printed": printed, "printed u(1/2)": printed.subs(X, sp.Rational(1, 2)),
                     "label asks u(1/2)": wanted, "utility through (1/2, label)": fitted,
                     "printed is right": sp.simplify(printed - fitted) == 0})
    return pd.DataFrame(rows)


def quadratic_maximum(u_half) -> dict[str, sp.Expr]:
    """Vertex of the quadratic utility through (1/2, u_half) and the rewards where it exceeds 1."""
    q = quadratic_through(u_half)
    vertex = sp.solve(sp.diff(q, X), X)[0]
    above_one = sp.solveset(q - 1 > 0, X, sp.Interval(0, 1))
    return {"utility": q, "argmax": vertex, "max": sp.simplify(q.subs(X, vertex)), "exceeds 1 on [0,1]": above_one}


def certainty_equivalent_quadratic(u_half=U_HALF) -> sp.Expr:
    """``u^{-1}(y)`` for the quadratic utility through (1/2, u_half): the root that is 0 at ``y = 0``.

    The certainty equivalent of Section 5 is this applied to ``y = E[u(h)]``.
    """
    y = sp.Symbol("y", nonnegative=True)
    q = quadratic_through(u_half)
    if q.free_symbols - {X} == set() and sp.diff(q, X, 2) == 0:
        return y  # u_half = 1/2: the linear utility is its own inverse
    # the branch is chosen at a representative u_half = 3/4 when u_half is symbolic: both
    # branches are continuous in u_half on (1/2, 1), where 4 u_half - 1 > 0
    probe = {s: sp.Rational(3, 4) for s in q.free_symbols - {X}}
    for root in sp.solve(sp.Eq(q, y), X):
        if sp.simplify(root.subs(probe).subs(y, 0)) == 0:
            return sp.simplify(root)
    raise ValueError(f"no root of u(x) = y vanishes at y = 0 for u_half = {u_half}")


def fbeta_vs_quadratic(beta, u_half) -> sp.Expr:
    """``F_beta(1/k) − u(1/k)`` for the quadratic utility through (1/2, u_half), as a factored
    rational function of the set size ``k`` (Fig. 7's comparison)."""
    k = sp.Symbol("k", positive=True)
    diff = f_beta_utility(beta).subs(X, 1 / k) - quadratic_through(u_half).subs(X, 1 / k)
    return sp.factor(sp.together(diff))


def fbeta_sign(beta, u_half) -> int:
    """Sign of ``F_beta(1/k) − u(1/k)`` for every integer set size ``k >= 2``, proved by sympy.

    Substitutes ``k = j + 2`` with ``j`` a non-negative integer in the factored difference of
    :func:`fbeta_vs_quadratic`; returns +1 (F above the utility), −1 (below) or 0 (equal
    for all k). Raises ``ValueError`` if sympy cannot decide (the sign changes with ``k``).
    (At ``k = 1`` both are 1.)
    """
    k = sp.Symbol("k", positive=True)
    j = sp.Symbol("j", integer=True, nonnegative=True)
    expr = sp.factor(fbeta_vs_quadratic(beta, u_half).subs(k, j + 2))
    if expr == 0:
        return 0
    if expr.is_positive:
        return 1
    if expr.is_negative:
        return -1
    raise ValueError(f"the sign of F_{beta} - u(1/k) for u_half={u_half} is not constant over k >= 2: {expr}")


def sizes_where_not_closer(beta, rival, u_half) -> sp.Set:
    """Integer set sizes ``k >= 2`` where ``F_beta(1/k)`` is *not* strictly closer than ``F_rival(1/k)``
    to the quadratic utility through (1/2, u_half) (Section 9.3: "F1 is closer to both u65 and u80
    than F2").

    The signs of both differences are constant in ``k`` (:func:`fbeta_sign`), so the absolute
    values drop and the comparison is a rational inequality in ``k``, solved by sympy; returns
    the integers of its solution set (``EmptySet`` when ``F_beta`` is closer at every size).
    """
    k = sp.Symbol("k", positive=True)
    gaps = {b: fbeta_sign(b, u_half) * fbeta_vs_quadratic(b, u_half) for b in (beta, rival)}
    not_closer = sp.solveset(sp.together(gaps[rival] - gaps[beta]) <= 0, k, sp.Interval(2, sp.oo))
    if not_closer.is_empty:
        return sp.S.EmptySet
    upper = not_closer.sup
    if upper == sp.oo:
        raise ValueError(f"F_{beta} is not closer than F_{rival} for arbitrarily large k: {not_closer}")
    return sp.FiniteSet(*[j for j in range(2, int(sp.floor(upper)) + 1) if not_closer.contains(j) == sp.true])


def utility_curves(k_max: int = 10, u_halves=(0.5, 0.65, 0.8), betas=(1, 2)) -> pd.DataFrame:
    """Tidy table of ``u(1/k)`` for quadratic utilities and ``F_beta`` (Fig. 7), ``k = 1..k_max``."""
    k_max = int(check_scalar(k_max, "k_max", low=1, integer=True))
    ks = np.arange(1, k_max + 1)
    rows = []
    funcs = {f"u{round(100 * h)}": quadratic_through(h) for h in u_halves}
    funcs |= {f"F{b}": f_beta_utility(b) for b in betas}
    for name, expr in funcs.items():
        values = sp.lambdify(X, expr, "numpy")(1.0 / ks)
        rows += [{"k": int(k), "function": name, "value": float(v)} for k, v in zip(ks, values)]
    return pd.DataFrame(rows)


#: The predictions of Table 10 (actual class 1, four classes).
TABLE10_PREDICTIONS = ({1}, {1, 2}, {1, 2, 3}, {2, 3, 4})


def _label(members) -> str:
    members = sorted(members)
    return str(members[0]) if len(members) == 1 else "{" + ",".join(map(str, members)) + "}"


def table10(predictions=TABLE10_PREDICTIONS, actual: int = 1, classes=(1, 2, 3, 4)) -> pd.DataFrame:
    """Table 10 recomputed with :mod:`credalbook.metrics`: precision (discounted accuracy), recall,
    F1, F2, u65 and u80 of each set-valued prediction when the actual class is ``actual``."""
    from credalbook.metrics import (discounted_accuracy_scores, f_beta_set_scores, recall_set_scores,
                                    utility_discounted_accuracy_scores)
    from credalbook.sets import sets_from_lists

    classes = list(classes)
    if actual not in classes:
        raise ValueError(f"actual class {actual!r} is not one of the classes {classes}")
    predictions = [set(p) for p in predictions]
    y_set = sets_from_lists(predictions, classes)
    y_true = np.full(len(predictions), classes.index(actual))
    return pd.DataFrame({"prediction": [_label(p) for p in predictions],
                         "precision": discounted_accuracy_scores(y_true, y_set),
                         "recall": recall_set_scores(y_true, y_set),
                         "F1": f_beta_set_scores(y_true, y_set, beta=1.0),
                         "F2": f_beta_set_scores(y_true, y_set, beta=2.0),
                         "u65": utility_discounted_accuracy_scores(y_true, y_set, u=0.65),
                         "u80": utility_discounted_accuracy_scores(y_true, y_set, u=0.8)})


def table10_exact(predictions=TABLE10_PREDICTIONS, actual: int = 1) -> pd.DataFrame:
    """Table 10 by hand, in exact rationals: ``x = I_K(1)/k`` then F1, F2 and the *fitted* u65, u80."""
    funcs = {"F1": f_beta_utility(1), "F2": f_beta_utility(2),
             "u65": quadratic_through(sp.Rational(13, 20)), "u80": quadratic_through(sp.Rational(4, 5))}
    rows = []
    for p in predictions:
        p = set(p)
        if not p:
            raise ValueError("predictions contains an empty set")
        x = sp.Integer(1 if actual in p else 0) / len(p)
        rows.append({"prediction": _label(p), "precision": x, "recall": sp.Integer(1 if actual in p else 0),
                     **{name: sp.nsimplify(f.subs(X, x)) for name, f in funcs.items()}})
    return pd.DataFrame(rows)


def binary_credal_minus_precise() -> sp.Expr:
    """``E[u(NCC)] − E[u(NBC)]`` on a two-class problem (conference version, Section 9).

    Where the credal classifier is determinate (probability ``P_D``) it returns the precise
    classifier's class, so both earn the same; on the rest (the area of ignorance, ``P_I``) the
    credal prediction is vacuous and earns ``u(1/2)`` while the precise one earns its accuracy
    there, ``A_I`` (NBC(NCC-I)). The difference is ``P_I (u(1/2) − A_I)``.
    """
    p_d, a_d, p_i, a_i = sp.symbols("P_D A_D P_I A_I", positive=True)
    credal = p_d * a_d + p_i * U_HALF
    precise = p_d * a_d + p_i * a_i
    return sp.factor(credal - precise)


# --------------------------------------------------------------------------------------------
# Display: the derivations above as TeX, for the book's pages (Part I)
# --------------------------------------------------------------------------------------------

def aligned(rows) -> str:
    """``rows`` (TeX strings, each with its ``&`` alignment points) as one ``aligned`` display,
    so that a derivation of several lines fits the book's column."""
    rows = [str(r) for r in rows]
    if not rows:
        raise ValueError("aligned needs at least one row")
    return r"\begin{aligned}" + r" \\ ".join(rows) + r"\end{aligned}"


def _tex(expr) -> str:
    return sp.latex(expr)


#: How the pages name the utilities of Proposition 1's table (TeX).
PROPOSITION1_NAMES = {"u65": r"u_{65}", "u80": r"u_{80}", "log(1+x)": r"\log(1+x)", "1-exp(-ax)": r"1 - e^{-ax}",
                      "F1": r"F_1", "linear": r"u = x"}


def proposition1_utilities() -> dict[str, sp.Expr]:
    """The utilities whose Proposition 1 gap the book derives (keys of :data:`PROPOSITION1_NAMES`)."""
    return {"u65": quadratic_through(0.65), "u80": quadratic_through(0.8), "log(1+x)": log_utility(),
            "1-exp(-ax)": exponential_utility(), "F1": f_beta_utility(1), "linear": X}


def _simplified_gap(u) -> sp.Expr:
    gap = proposition1_gap(u)
    return sp.factor(sp.simplify(gap)) if gap.is_rational_function(N) else gap


def risk_latex() -> dict[str, str]:
    """Section 5 derived (Eq. 2 and its exactness, Proposition 1, the certainty equivalent), one TeX
    display per key: ``eq2_quadratic``, ``eq2_exact``, ``eq2_cubic``, ``proposition1_gap``,
    ``proposition1_utilities``, ``proposition1_quadratic``, ``certainty_equivalent``."""
    approx = r"u(\mu) + \tfrac12 u''(\mu)\operatorname{Var}[h]"
    quadratic = generic_quadratic()
    exact_rows = [r"R_{\alpha x^2+\beta x+\gamma}(x) &= " + _tex(taylor_remainder(quadratic))]
    exact_rows += [rf"E[u(h)] - \bigl({approx}\bigr)\Big|_{{{k}\text{{-valued }}h}} &= " + _tex(eq2_error(quadratic, k))
                   for k in (2, 3, 4)]
    # each display fits the text column: the cubic's right side under its left, each utility's delta_n under its u''
    cubic = [r"&R_{x^3}(x) = " + _tex(sp.factor(taylor_remainder(X ** 3))),
             rf"&E[h^3] - \bigl(\mu^3 + 3\mu\operatorname{{Var}}[h]\bigr)\Big|_{{2\text{{-valued }}h}}",
             r"&\qquad = " + _tex(sp.factor(eq2_error(X ** 3, 2)))]
    rows = []
    for key, u in proposition1_utilities().items():
        second = sp.simplify(sp.diff(u, X, 2))
        sign = r" < 0" if check_proposition1(u) else ""
        rows.append(rf"{PROPOSITION1_NAMES[key]}:\ u''(x) &= {_tex(second)}{sign},\\ \delta_n &= "
                    + _tex(_simplified_gap(u)))
    inverse = [r"u_{u_{1/2}}^{-1}(y) &= " + _tex(certainty_equivalent_quadratic()),
               r"u_{65}^{-1}(y) &= " + _tex(certainty_equivalent_quadratic(0.65)),
               r"u_{80}^{-1}(y) &= " + _tex(certainty_equivalent_quadratic(0.8))]
    return {"eq2_quadratic": rf"E[u(h)] = {approx} = " + _tex(taylor_second_order(quadratic)),
            "eq2_exact": aligned(exact_rows),
            "eq2_cubic": aligned(cubic),
            "proposition1_gap": r"\delta_n = E[u(v)] - E[u(r)] = " + _tex(proposition1_gap(sp.Function("u")(X))),
            "proposition1_utilities": aligned(rows),
            "proposition1_quadratic": r"\delta_n\big|_{u_{u_{1/2}}} = " + _tex(_simplified_gap(quadratic_through(U_HALF))),
            "certainty_equivalent": aligned(inverse)}


def variance_latex() -> dict[str, str]:
    """Section 7 derived (the variance identities, Eq. 3, Propositions 2 and 3, Example 1), one TeX
    display per key: ``moments``, ``identities``, ``eq3``, ``proposition2``, ``proposition3``,
    ``example1``, ``example1_constraints``, ``example1_family``."""
    h = generic_outcome_model(4, "H")
    identities = variance_identities(h)
    f3, g3 = generic_outcome_model(3, "F"), generic_outcome_model(3, "G")
    at_equal = r"\Big|_{E[f]=E[g]}"
    dvar, claimed = proposition3_delta_var()
    example = example1_differences()
    solved = example1_solved()
    solution = solved["solution"]
    family = solved["family"]
    return {
        "moments": aligned([r"E[h] &= " + _tex(h.mean), r"E[h^2] &= " + _tex(h.second_moment)]),
        "identities": aligned([r"E[h^2] - E[h_D^2] - E[h_I^2] &= " + _tex(identities["second_moment_split"]),
                               r"E[h_D^2] - E[h_D] &= " + _tex(identities["determinate_0_1"]),
                               r"E[h_I] - E[h_I^2] &= " + _tex(identities["indeterminate_gap"])]),
        "eq3": aligned([r"&\Delta\mathrm{Var} = \operatorname{Var}[g] - \operatorname{Var}[f]" + at_equal,
                        r"&\qquad = " + _tex(delta_var(f3, g3)),
                        r"&E[g_D] + E[g_I^2] - E[f_D] - E[f_I^2]" + at_equal,
                        r"&\qquad = " + _tex(eq3_rhs(f3, g3))]),
        "proposition2": aligned([rf"\Delta\mathrm{{Var}}\Big|_{{g\text{{ precise}},\ n={n}}} &= "
                                 + _tex(proposition2_delta_var(n)) for n in (3, 5)]),
        "proposition3": aligned([r"\operatorname{Var}[g] - \operatorname{Var}[f]" + at_equal + " &= " + _tex(dvar),
                                 r"\frac{n-1}{n^2}\bigl(P(G_D) - P(F_D)\bigr)" + at_equal + " &= " + _tex(claimed)]),
        "example1": aligned([
            r"\textstyle\sum P(F_\cdot) - \sum P(G_\cdot) &= " + _tex(example["total_probability"])
            + r", & E[f] - E[g] &= " + _tex(example["mean"]),
            r"E[f^2] - E[g^2] &= " + _tex(example["second_moment"])
            + r", & \operatorname{Var}[g] - \operatorname{Var}[f] &= " + _tex(example["delta_var (Var g - Var f)"]),
            r"P(D_f) - P(D_g) &= " + _tex(example["determinacy"])
            + r", & \mathrm{size}_f - \mathrm{size}_g &= " + _tex(example["expected_size"])]),
        "example1_constraints": aligned(
            [_tex(solved["normalisation"].lhs) + " &= 0", _tex(solved["equal_means"].lhs) + " &= 0"]
            + [rf"\Longrightarrow\quad {_tex(k)} &= {_tex(v)}" for k, v in solution.items()]),
        "example1_family": aligned([r"E[f^2] - E[g^2] &= " + _tex(family["second_moment"]),
                                    r"P(D_f) - P(D_g) &= " + _tex(family["determinacy"]),
                                    r"\mathrm{size}_f - \mathrm{size}_g &= " + _tex(family["expected_size"])]),
    }


def section9_latex() -> dict[str, str]:
    """Section 9 derived (the quadratic utilities, the printed formulas evaluated, the exponential
    alternative, the F-measures as utilities and their comparison with u65 and u80, the binary
    rule), one TeX display per key: ``quadratic_family``, ``quadratics``, ``printed``,
    ``exponential``, ``fbeta``, ``fbeta_vs_quadratic``, ``u70``, ``binary``."""
    half = sp.Rational(1, 2)
    quadratics = [rf"u_{{{round(100 * h)}}}(x) &= " + _tex(quadratic_through(h)) for h in (0.5, 0.65, 0.8)]
    printed = [rf"{_tex(expr)}\Big|_{{x=1/2}} &= {_tex(expr.subs(X, half))}\quad(\text{{printed as }}u_{{{label[1:]}}})"
               for label, expr in PRINTED_SECTION9.items()]
    exponential = []
    for h in (0.65, 0.8):
        a = exponential_risk_aversions(h)[0]
        exponential.append(rf"u^{{\exp}}_{{{round(100 * h)}}}(x) &= \frac{{1 - e^{{-a x}}}}{{1 - e^{{-a}}}}, & a &= "
                           + _tex(a) + rf" \approx {float(a):.3f}")
    beta = sp.Symbol("beta", positive=True)
    fbeta = [r"F_\beta(x) &= " + _tex(f_beta_utility(beta)) + r", & F_\beta(1/2) &= "
             + _tex(sp.simplify(f_beta_utility(beta).subs(X, half)))]
    fbeta += [rf"F_{b}''(x) &= " + _tex(sp.factor(sp.diff(f_beta_utility(b), X, 2))) + rf" < 0, & F_{b}(1/2) &= "
              + _tex(f_beta_utility(b).subs(X, half)) for b in (1, 2)]
    signs = {1: ">", -1: "<", 0: "="}
    versus = [rf"F_{b}(1/k) - u_{{{round(100 * h)}}}(1/k) &= " + _tex(fbeta_vs_quadratic(b, h))
              + rf" {signs[fbeta_sign(b, h)]} 0" for b in (1, 2) for h in (0.65, 0.8)]
    binary = binary_credal_minus_precise()
    p_i, a_i = sp.Symbol("P_I", positive=True), sp.Symbol("A_I", positive=True)
    if sp.simplify(binary - p_i * (U_HALF - a_i)) != 0:  # the display below is typed: it must be the derivation
        raise AssertionError(f"binary_credal_minus_precise() changed: {binary}")
    return {"quadratic_family": r"u_{u_{1/2}}(x) = " + _tex(sp.collect(quadratic_through(U_HALF), X)),
            "quadratics": aligned(quadratics),
            "printed": aligned(printed),
            "exponential": aligned(exponential),
            "fbeta": aligned(fbeta),
            "fbeta_vs_quadratic": aligned(versus),
            "u70": r"F_1(1/k) - u_{70}(1/k) = " + _tex(fbeta_vs_quadratic(1, 0.7)),
            "binary": r"E[u(\mathrm{NCC})] - E[u(\mathrm{NBC})] = P_I\,\bigl(u_{1/2} - A_I\bigr)"}
