"""Uncertain risk aversion: the quadratic utilities of Zaffalon, Corani & Mauá (2012, Section 9) with v = u(1/2) random.

The utility of discounted accuracy ``x`` through (0, 0), (1/2, v), (1, 1) (Fig. 2) is
:func:`credalbook.book.theory.utility.quadratic_through` with a symbolic ``v``; Ferri,
Hernández-Orallo & Flach (2019, Sect. 5) model an uncertain operating condition with a Beta
distribution, and Part VII of the book lets ``v`` be a Beta on an interval of [1/2, 1]
(:class:`credalbook.risk_aversion.RiskAversion`). The propositions derived here (R for risk
aversion, to keep them apart from the paper's Propositions 1 to 3):

- **R1** ``u_v(x) = (2x² − x) + 4v x(1 − x)`` is affine in ``v``; a classifier's mean utility is
  ``U(v) = A + 4vB``, ``A = mean(2x² − x)``, ``B = mean(x(1 − x)) >= 0``, and ``B = 0`` exactly
  when every prediction is a correct single class or wrong (:func:`check_affine_in_v`,
  :func:`check_mean_utility_affine`, :func:`check_slope_sign`).
- **R2** ``E[u_V(x)] = u_{E[V]}(x)``: the expected-utility ranking under any distribution of
  ``v`` is the ranking at the mean of ``v`` (:func:`check_expected_utility_at_mean`).
- **R3** ``U_a(v) − U_b(v) = 4ΔB (v − v*)`` with ``v* = −ΔA/(4ΔB)``: at most one sign change,
  and ``P(a beats b)`` is a tail of the Beta, the regularised incomplete beta function at the
  standardised ``v*`` (:func:`check_single_crossing`, :func:`check_probability_better`). The
  probability verdict (``P > 1/2``) follows the median of ``v``, the expected-utility verdict
  its mean: they disagree exactly when ``v*`` lies between the two
  (:func:`check_median_mean_disagreement`).
- **R4** Over datasets the mean utility is again affine in ``v``, and the mean rank (ties
  averaged) is a sum of Heaviside steps of affine functions, constant between the pairwise
  crossing points ``v*_{a,b,d}`` (:func:`check_mean_over_datasets_affine`,
  :func:`check_rank_piecewise_constant`); the probabilities of being best follow exactly from
  the Beta probabilities of the steps (:func:`exact_rank_path`, :func:`exact_probability_best`).
- **R5** Unlike the mean utility, the mean rank is not affine in ``v``: its expectation is in
  general not the mean rank at ``E[v]`` (:func:`check_expected_rank_not_rank_at_mean`).

The numerical functions of :mod:`credalbook.risk_aversion` implement these formulas;
``tests/test_risk_aversion.py`` compares them with the exact values computed here.
"""
from __future__ import annotations

from itertools import combinations

import sympy as sp
from sympy import stats as sps

from credalbook._validation import check_scalar
from credalbook.book.theory.utility import X, discrete_gamble, quadratic_through

__all__ = ["V", "T", "ALPHA", "BETA", "V_LOW", "V_HIGH", "DELTA_A", "DELTA_B", "utility_in_v",
           "affine_coefficients", "check_affine_in_v", "mean_utility_line", "check_mean_utility_affine",
           "check_slope_sign", "scaled_beta", "beta_moments", "beta_from_mean", "check_beta_from_mean",
           "expected_utility_gap", "check_expected_utility_at_mean", "difference_line", "crossing_point_expr",
           "check_single_crossing", "beta_cdf_by_integration", "beta_cdf_binomial_sum", "probability_better_expr",
           "check_probability_better", "median_mean_disagreement_example", "check_median_mean_disagreement",
           "mean_over_datasets_line", "check_mean_over_datasets_affine", "mean_rank_expr",
           "exact_crossing_points", "exact_rank_path", "check_rank_piecewise_constant", "exact_probability_best",
           "EXAMPLE_A", "EXAMPLE_B", "check_expected_rank_not_rank_at_mean", "risk_aversion_latex", "R", "R_GRID", "difference_from_utility",
           "p_discounted_gain", "check_p_discounted_is_a_utility"]

#: The risk aversion v = u(1/2) of the quadratic utility (Section 9, Fig. 2).
V = sp.Symbol("v", positive=True)
#: The standardised Beta variable T, with v = low + (high − low) T.
T = sp.Symbol("t", nonnegative=True)
#: The first shape parameter of the Beta distribution of T.
ALPHA = sp.Symbol("alpha", positive=True)
#: The second shape parameter of the Beta distribution of T.
BETA = sp.Symbol("beta", positive=True)
#: The lower end of the support of v.
V_LOW = sp.Symbol(r"\underline{v}", positive=True)
#: The upper end of the support of v.
V_HIGH = sp.Symbol(r"\overline{v}", positive=True)
#: The difference A_a − A_b of two classifiers' intercepts.
DELTA_A = sp.Symbol(r"\Delta_A", real=True)
#: The difference B_a − B_b of two classifiers' slopes (per 4v).
DELTA_B = sp.Symbol(r"\Delta_B", real=True)


def _zero(expr) -> bool:
    expr = sp.expand(expr)
    return expr == 0 or sp.simplify(expr) == 0


def _rational(value, name: str) -> sp.Rational:
    if isinstance(value, sp.Basic):
        if not value.is_Rational:
            raise ValueError(f"{name} must be a rational number, got {value}")
        return value
    check_scalar(value, name)
    return sp.nsimplify(value, rational=True)


def _support(low, high) -> tuple[sp.Rational, sp.Rational]:
    low, high = _rational(low, "low"), _rational(high, "high")
    if not (sp.Rational(1, 2) <= low < high <= 1):
        raise ValueError(f"low and high must satisfy 1/2 <= low < high <= 1, got low={low}, high={high}")
    return low, high


# --------------------------------------------------------------------------------------------
# R1: u_v(x) is affine in v
# --------------------------------------------------------------------------------------------

def utility_in_v() -> sp.Expr:
    """``u_v(x) = (2 − 4v) x² + (4v − 1) x``: the quadratic through (0, 0), (1/2, v), (1, 1), solved with v a
    symbol (Section 9)."""
    return quadratic_through(V)


def affine_coefficients() -> dict[str, sp.Expr]:
    """The intercept ``u_0(x) = 2x² − x`` and slope ``∂u/∂v = 4x(1 − x)`` of ``u_v(x)`` as a line in v
    (Proposition R1)."""
    u = utility_in_v()
    return {"intercept": sp.factor(u.subs(V, 0)), "slope": sp.factor(sp.diff(u, V))}


def check_affine_in_v() -> bool:
    """Proposition R1: ``∂²u/∂v² = 0`` and ``u_v(x) = (2x² − x) + 4v x(1 − x)``; at v = 1/2, ``u = x``
    (discounted accuracy)."""
    u = utility_in_v()
    coefficients = affine_coefficients()
    return bool(_zero(sp.diff(u, V, 2))
                and _zero(u - (coefficients["intercept"] + V * coefficients["slope"]))
                and _zero(coefficients["intercept"] - (2 * X ** 2 - X))
                and _zero(coefficients["slope"] - 4 * X * (1 - X))
                and _zero(u.subs(V, sp.Rational(1, 2)) - X))


def mean_utility_line(n_instances: int = 3) -> dict[str, sp.Expr]:
    """The mean utility of ``n_instances`` rewards ``x_1..x_n`` and its coefficients A, B (Proposition R1).

    Returns ``mean_utility`` (the mean of ``u_v(x_i)``), ``A`` (the mean of ``2x_i² − x_i``) and
    ``B`` (the mean of ``x_i(1 − x_i)``).
    """
    n_instances = int(check_scalar(n_instances, "n_instances", low=1, integer=True))
    xs = sp.symbols(f"x1:{n_instances + 1}", nonnegative=True)
    u = utility_in_v()
    return {"mean_utility": sp.Add(*[u.subs(X, x) for x in xs]) / n_instances,
            "A": sp.Add(*[2 * x ** 2 - x for x in xs]) / n_instances,
            "B": sp.Add(*[x * (1 - x) for x in xs]) / n_instances}


def check_mean_utility_affine(n_instances: int = 3) -> bool:
    """Proposition R1 over a test set: ``mean_i u_v(x_i) = A + 4vB`` identically."""
    line = mean_utility_line(n_instances)
    return _zero(line["mean_utility"] - (line["A"] + 4 * V * line["B"]))


def check_slope_sign() -> dict[str, bool]:
    """Proposition R1: the slope ``x(1 − x)`` of an instance is ``>= 0`` exactly on [0, 1], zero only at x = 0
    (a wrong prediction) and x = 1 (a correct single class), and positive at every ``x = 1/k``, k >= 2.

    So ``B >= 0``, with ``B = 0`` exactly when every prediction is a correct singleton or wrong.
    """
    x = sp.Symbol("x", real=True)
    m = sp.Symbol("m", integer=True, nonnegative=True)   # k = m + 2 >= 2 classes in the set
    slope = x * (1 - x)
    at_one_over_k = sp.factor(slope.subs(x, 1 / (m + 2)))
    return {"x(1-x) >= 0 iff x in [0, 1]": sp.solveset(slope >= 0, x, sp.S.Reals) == sp.Interval(0, 1),
            "x(1-x) = 0 iff x in {0, 1}": sp.solveset(slope, x, sp.S.Reals) == sp.FiniteSet(0, 1),
            "x(1-x) > 0 at x = 1/k, k >= 2": bool(at_one_over_k.is_positive)}


# --------------------------------------------------------------------------------------------
# the distribution of v and R2: expected utility is the utility at the mean
# --------------------------------------------------------------------------------------------

def scaled_beta(alpha=ALPHA, beta=BETA, low=V_LOW, high=V_HIGH):
    """The random variable ``v = low + (high − low) T``, ``T ~ Beta(alpha, beta)`` (sympy.stats), as
    :class:`credalbook.risk_aversion.RiskAversion` models it."""
    return low + (high - low) * sps.Beta("T", alpha, beta)


def beta_moments() -> dict[str, sp.Expr]:
    """Mean, variance and density of the scaled Beta, derived with sympy.stats (symbols :data:`ALPHA`, :data:`BETA`,
    :data:`V_LOW`, :data:`V_HIGH`)."""
    v = scaled_beta()
    return {"mean": sp.simplify(sps.E(v)), "variance": sp.factor(sp.simplify(sps.variance(v))),
            "density": sp.simplify(sps.density(v)(V))}


def beta_from_mean() -> dict[sp.Symbol, sp.Expr]:
    """alpha and beta solving ``E[v] = m``, ``alpha + beta = kappa`` for the scaled Beta (the parametrisation of
    :meth:`credalbook.risk_aversion.RiskAversion.from_mean`)."""
    m, kappa = sp.symbols("m kappa", positive=True)
    mean = beta_moments()["mean"]
    solution = sp.solve([sp.Eq(mean, m), sp.Eq(ALPHA + BETA, kappa)], [ALPHA, BETA], dict=True)
    if len(solution) != 1:
        raise AssertionError(f"expected one solution, got {solution}")
    return {key: sp.factor(value) for key, value in solution[0].items()}


def check_beta_from_mean() -> bool:
    """``alpha = kappa (m − low)/(high − low)``, ``beta = kappa (high − m)/(high − low)``, and then
    ``Var[v] = (m − low)(high − m)/(kappa + 1)``."""
    m, kappa = sp.symbols("m kappa", positive=True)
    solution = beta_from_mean()
    width = V_HIGH - V_LOW
    variance = beta_moments()["variance"].subs(solution)
    return bool(_zero(solution[ALPHA] - kappa * (m - V_LOW) / width)
                and _zero(solution[BETA] - kappa * (V_HIGH - m) / width)
                and _zero(variance - (m - V_LOW) * (V_HIGH - m) / (kappa + 1)))


def expected_utility_gap(v) -> sp.Expr:
    """``E[u_V(x)] − u_{E[V]}(x)`` for a sympy.stats random variable ``v`` (Proposition R2: zero)."""
    u = utility_in_v()
    return sp.simplify(sps.E(u.subs(V, v)) - u.subs(V, sps.E(v)))


def check_expected_utility_at_mean() -> dict[str, bool]:
    """Proposition R2: ``E[u_V(x)] = u_{E[V]}(x)``, shown for the scaled Beta with symbolic parameters and
    support, and for a generic distribution with three atoms; and so ``E[U_a(V) − U_b(V)] = D(E[V])``.

    Since ``u`` is affine in ``v``, this holds for every distribution of v with a mean: the
    expected-utility ranking is the ranking at the mean v, whatever the spread.
    """
    values, probs = discrete_gamble(3)
    mean = sp.Add(*[p * v for p, v in zip(probs, values)])
    u = utility_in_v()
    discrete = sp.Add(*[p * u.subs(V, v) for p, v in zip(probs, values)]) - u.subs(V, mean)
    a_a, b_a, a_b, b_b = sp.symbols("A_a B_a A_b B_b", real=True)
    difference = (a_a + 4 * V * b_a) - (a_b + 4 * V * b_b)
    v = scaled_beta()
    return {"beta (symbolic alpha, beta, support)": _zero(expected_utility_gap(v)),
            "uniform on [1/2, 1]": _zero(expected_utility_gap(sps.Uniform("W", sp.Rational(1, 2), 1))),
            "three atoms (generic)": _zero(discrete),
            "E[U_a - U_b] = (U_a - U_b)(E v)": _zero(sps.E(difference.subs(V, v)) - difference.subs(V, sps.E(v)))}


# --------------------------------------------------------------------------------------------
# R3: two classifiers
# --------------------------------------------------------------------------------------------

def difference_line() -> sp.Expr:
    """``D(v) = U_a(v) − U_b(v) = ΔA + 4v ΔB`` (Proposition R3)."""
    return DELTA_A + 4 * V * DELTA_B


def difference_from_utility(utility: sp.Expr | None = None, n_instances: int = 3) -> sp.Expr:
    """Two classifiers' difference of mean utilities on ``n_instances`` test instances, built from the
    utility itself: ``mean_i u(x_i) − mean_i u(y_i)`` with symbolic discounted accuracies x_i, y_i and
    ``utility`` a function of ``X`` and ``V`` (default :func:`utility_in_v`). Its degree in v is what
    Proposition R3 needs (at most one); the ledger's check reads it from here, not from a typed line."""
    utility = utility_in_v() if utility is None else utility
    n_instances = int(check_scalar(n_instances, "n_instances", low=1, integer=True))
    xs = sp.symbols(f"x1:{n_instances + 1}", nonnegative=True)
    ys = sp.symbols(f"y1:{n_instances + 1}", nonnegative=True)
    return sp.expand(sp.Add(*[utility.subs(X, x) - utility.subs(X, y) for x, y in zip(xs, ys)]) / n_instances)


def crossing_point_expr() -> sp.Expr:
    """The only root of ``D(v)`` when ``ΔB ≠ 0``: ``v* = −ΔA/(4ΔB)``."""
    roots = sp.solve(difference_line(), V)
    if len(roots) != 1:
        raise AssertionError(f"expected one root, got {roots}")
    return roots[0]


def check_single_crossing() -> dict[str, bool]:
    """Proposition R3: ``D`` is a polynomial of degree at most one in v, ``D(v) = 4ΔB (v − v*)``, so it changes
    sign at most once, at v*, from ``−sign(ΔB)`` to ``sign(ΔB)``; for ``ΔB = 0`` it is the constant ΔA."""
    d = difference_line()
    vstar = crossing_point_expr()
    return {"degree <= 1": sp.Poly(d, V).degree() <= 1,
            "D = 4 dB (v - v*)": _zero(d - 4 * DELTA_B * (V - vstar)),
            "v* = -dA / (4 dB)": _zero(vstar + DELTA_A / (4 * DELTA_B)),
            "dB = 0: D = dA": _zero(d.subs(DELTA_B, 0) - DELTA_A)}


def _positive_integer(value, name: str) -> int:
    return int(check_scalar(value, name, low=1, integer=True))


def beta_cdf_by_integration(alpha: int, beta: int, s=None) -> sp.Expr:
    """``P(T <= s) = ∫_0^s t^(alpha−1) (1 − t)^(beta−1) dt / B(alpha, beta)`` integrated by sympy (integer shapes)."""
    alpha, beta = _positive_integer(alpha, "alpha"), _positive_integer(beta, "beta")
    s = sp.Symbol("s", nonnegative=True) if s is None else s
    t = sp.Symbol("t", nonnegative=True)
    density = t ** (alpha - 1) * (1 - t) ** (beta - 1) / sp.beta(alpha, beta)
    return sp.expand(sp.integrate(sp.gammasimp(density), (t, 0, s)))


def beta_cdf_binomial_sum(alpha: int, beta: int, s=None) -> sp.Expr:
    """The regularised incomplete beta function for integer shapes in closed form:
    ``I_s(alpha, beta) = sum_{j=alpha}^{alpha+beta−1} C(alpha+beta−1, j) s^j (1 − s)^(alpha+beta−1−j)``
    (the probability of at least alpha successes in alpha + beta − 1 trials)."""
    alpha, beta = _positive_integer(alpha, "alpha"), _positive_integer(beta, "beta")
    s = sp.Symbol("s", nonnegative=True) if s is None else s
    n = alpha + beta - 1
    return sp.expand(sp.Add(*[sp.binomial(n, j) * s ** j * (1 - s) ** (n - j) for j in range(alpha, n + 1)]))


def probability_better_expr(alpha=ALPHA, beta=BETA, low=V_LOW, high=V_HIGH) -> sp.Expr:
    """``P(U_a(V) > U_b(V))`` in closed form (Proposition R3), a Piecewise in :data:`DELTA_A`, :data:`DELTA_B`.

    With ``t* = min(max((v* − low)/(high − low), 0), 1)`` and ``I`` the regularised incomplete beta
    function: ``1 − I_{t*}(alpha, beta)`` if ``ΔB > 0``, ``I_{t*}(alpha, beta)`` if ``ΔB < 0``, and
    ``[ΔA > 0]`` if ``ΔB = 0``.
    """
    tstar = sp.Min(sp.Max((crossing_point_expr() - low) / (high - low), 0), 1)
    cdf = sp.betainc_regularized(alpha, beta, 0, tstar)
    return sp.Piecewise((1 - cdf, DELTA_B > 0), (cdf, DELTA_B < 0), (sp.Heaviside(DELTA_A, 0), True))


def check_probability_better(alpha: int = 2, beta: int = 3) -> dict[str, bool]:
    """Proposition R3 for integer shapes: the integral of the Beta density equals the binomial closed form and
    sympy's regularised incomplete beta function, and ``P(V > v*)`` integrated from the density of v
    on [1/2, 1] equals ``1 − I_{t*}(alpha, beta)``; ``P(a beats b) + P(b beats a) = 1`` when ``ΔB ≠ 0``."""
    alpha, beta = _positive_integer(alpha, "alpha"), _positive_integer(beta, "beta")
    s = sp.Symbol("s", nonnegative=True)
    integral = beta_cdf_by_integration(alpha, beta, s)
    regularised = sp.betainc_regularized(alpha, beta, 0, s).rewrite(sp.Integral).doit()
    # P(V > v*) from the density of v = 1/2 + T/2 itself, v* inside the support
    w, vstar = sp.Symbol("w", positive=True), sp.Symbol("v_star", positive=True)
    low, high = sp.Rational(1, 2), sp.Integer(1)
    density_v = sp.gammasimp(((w - low) / (high - low)) ** (alpha - 1) * ((high - w) / (high - low)) ** (beta - 1)
                             / (sp.beta(alpha, beta) * (high - low)))
    tail = sp.integrate(density_v, (w, vstar, high))
    closed = 1 - beta_cdf_binomial_sum(alpha, beta, (vstar - low) / (high - low))
    expr = probability_better_expr(alpha, beta, low, high)
    points = [sp.Rational(k, 7) for k in range(1, 7)]
    at = {DELTA_B: sp.Rational(1, 5)}
    both = [expr.subs({DELTA_A: -4 * sp.Rational(1, 5) * (low + p / 2), **at}) +
            expr.subs({DELTA_A: 4 * sp.Rational(1, 5) * (low + p / 2), DELTA_B: -sp.Rational(1, 5)}) for p in points]
    return {"integral = binomial sum": _zero(integral - beta_cdf_binomial_sum(alpha, beta, s)),
            "integral = betainc_regularized": _zero(integral - regularised),
            "P(V > v*) = 1 - I_t*(alpha, beta)": _zero(tail - closed),
            "closed form at v* matches the tail": all(
                _zero(expr.subs({DELTA_A: -4 * sp.Rational(1, 5) * (low + p / 2), **at}).rewrite(sp.Integral).doit()
                      - tail.subs(vstar, low + p / 2)) for p in points),
            "P(a > b) + P(b > a) = 1": all(_zero(sp.nsimplify(b.rewrite(sp.Integral).doit()) - 1) for b in both)}


def median_mean_disagreement_example() -> dict[str, sp.Expr]:
    """A case where the probability verdict and the expected-utility verdict disagree (Proposition R3).

    v = 1/2 + T/2 with T ~ Beta(1, 3): mean 5/8, median ``1 − 2^(−1/3)/2``, about 0.603; two
    classifiers with ``ΔB = 1/10`` whose lines cross at ``v* = 61/100``, between the two. Then
    ``E[D(V)] = D(5/8) > 0`` (a has the higher expected utility) but ``P(a beats b) = (39/50)^3``
    is below 1/2.
    """
    alpha, beta = 1, 3
    delta_b = sp.Rational(1, 10)
    vstar = sp.Rational(61, 100)
    delta_a = -4 * delta_b * vstar
    v = scaled_beta(alpha, beta, sp.Rational(1, 2), 1)
    mean = sp.simplify(sps.E(v))
    median = sp.Rational(1, 2) + (1 - 2 ** sp.Rational(-1, 3)) / 2   # Beta(1, 3): 1 − (1 − t)^3 = 1/2
    t_star = (vstar - sp.Rational(1, 2)) * 2
    probability = 1 - beta_cdf_binomial_sum(alpha, beta, t_star)
    return {"mean": mean, "median": median, "v_star": vstar, "delta_A": delta_a, "delta_B": delta_b,
            "expected_difference": sp.expand((difference_line()).subs({DELTA_A: delta_a, DELTA_B: delta_b, V: mean})),
            "probability_a_beats_b": sp.nsimplify(probability),
            "median_check": sp.nsimplify(beta_cdf_by_integration(alpha, beta, (median - sp.Rational(1, 2)) * 2))}


def check_median_mean_disagreement() -> bool:
    """Proposition R3: with ``ΔB > 0``, ``P(a beats b) > 1/2`` iff ``v* < median``, while the expected-utility
    verdict is a iff ``v* < mean``; the example of :func:`median_mean_disagreement_example` has
    median < v* < mean, a better in expectation and ``P(a beats b) < 1/2``."""
    e = median_mean_disagreement_example()
    return bool(_zero(e["median_check"] - sp.Rational(1, 2))
                and e["median"] < e["v_star"] < e["mean"]
                and e["expected_difference"] > 0
                and e["probability_a_beats_b"] < sp.Rational(1, 2)
                and _zero(e["probability_a_beats_b"] - sp.Rational(39, 50) ** 3))


# --------------------------------------------------------------------------------------------
# R4: classifiers over datasets
# --------------------------------------------------------------------------------------------

def mean_over_datasets_line(n_datasets: int = 3) -> dict[str, sp.Expr]:
    """A classifier's mean utility over ``n_datasets`` datasets with lines ``A_d + 4v B_d``, and the mean
    coefficients (Proposition R4)."""
    n_datasets = int(check_scalar(n_datasets, "n_datasets", low=1, integer=True))
    a = sp.symbols(f"A_1:{n_datasets + 1}", real=True)
    b = sp.symbols(f"B_1:{n_datasets + 1}", real=True)
    return {"mean_utility": sp.Add(*[ad + 4 * V * bd for ad, bd in zip(a, b)]) / n_datasets,
            "A": sp.Add(*a) / n_datasets, "B": sp.Add(*b) / n_datasets}


def check_mean_over_datasets_affine(n_datasets: int = 3) -> bool:
    """Proposition R4: the mean over datasets of lines in v is the line of the mean coefficients."""
    line = mean_over_datasets_line(n_datasets)
    return _zero(line["mean_utility"] - (line["A"] + 4 * V * line["B"]))


def _rational_lines(A, B):
    a = sp.Matrix(A).applyfunc(lambda value: _rational(value, "A"))
    b = sp.Matrix(B).applyfunc(lambda value: _rational(value, "B"))
    if a.shape != b.shape:
        raise ValueError(f"A and B must have the same shape (n_classifiers, n_datasets), got {a.shape} and {b.shape}")
    return a, b


def mean_rank_expr(A, B) -> list[sp.Expr]:
    """Each classifier's mean rank over datasets as an expression in v (Proposition R4).

    ``R_c(v) = (1/D) sum_d [1 + sum_{c' ≠ c} H(U_{c',d}(v) − U_{c,d}(v))]`` with H the Heaviside step,
    ``H(0) = 1/2``: rank 1 the best, ties averaged (Friedman's mean ranks). ``A``, ``B``: nested
    lists or matrices (n_classifiers × n_datasets) of rationals.
    """
    a, b = _rational_lines(A, B)
    n_classifiers, n_datasets = a.shape
    lines = [[a[c, d] + 4 * V * b[c, d] for d in range(n_datasets)] for c in range(n_classifiers)]
    return [sp.Add(*[1 + sp.Add(*[sp.Heaviside(lines[other][d] - lines[c][d], sp.Rational(1, 2))
                                  for other in range(n_classifiers) if other != c])
                     for d in range(n_datasets)]) / n_datasets for c in range(n_classifiers)]


def exact_crossing_points(A, B, low=sp.Rational(1, 2), high=1) -> list[sp.Rational]:
    """The distinct crossing points of two classifiers' lines on one dataset strictly inside (low, high), sorted."""
    a, b = _rational_lines(A, B)
    low, high = _support(low, high)
    points = set()
    for first, second in combinations(range(a.shape[0]), 2):
        for d in range(a.shape[1]):
            for root in sp.solve(sp.Eq(a[first, d] + 4 * V * b[first, d], a[second, d] + 4 * V * b[second, d]), V):
                if low < root < high:
                    points.add(root)
    return sorted(points)


def exact_rank_path(A, B, low=sp.Rational(1, 2), high=1) -> tuple[list[sp.Rational], list[list[sp.Rational]]]:
    """``(edges, ranks)``: the exact step function of the mean ranks (Proposition R4), ``ranks[i]`` the mean ranks
    on ``(edges[i], edges[i + 1])``, evaluated from :func:`mean_rank_expr` at each step's midpoint."""
    low, high = _support(low, high)
    edges = [low, *exact_crossing_points(A, B, low, high), high]
    ranks = mean_rank_expr(A, B)
    return edges, [[r.subs(V, (left + right) / 2) for r in ranks] for left, right in zip(edges[:-1], edges[1:])]


def check_rank_piecewise_constant(A, B, low=sp.Rational(1, 2), high=1) -> bool:
    """Proposition R4 on a concrete example: every Heaviside argument of the mean ranks is affine in v, its
    root (if inside the support) is one of the crossing points, and on each step the ranks at two
    different interior points agree."""
    low, high = _support(low, high)
    ranks = mean_rank_expr(A, B)
    points = set(exact_crossing_points(A, B, low, high))
    for rank in ranks:
        for step in rank.atoms(sp.Heaviside):
            argument = step.args[0]
            if argument.free_symbols - {V}:
                return False
            if argument.free_symbols and sp.Poly(argument, V).degree() > 1:
                return False
            roots = [r for r in sp.solve(argument, V) if low < r < high] if argument.free_symbols else []
            if not set(roots) <= points:
                return False
    edges = [low, *sorted(points), high]
    for left, right in zip(edges[:-1], edges[1:]):
        one, two = left + (right - left) / 3, left + 2 * (right - left) / 3
        if any(r.subs(V, one) != r.subs(V, two) for r in ranks):
            return False
    return True


def exact_probability_best(A, B, alpha: int, beta: int, low=sp.Rational(1, 2), high=1, by: str = "utility") -> list:
    """P(each classifier is the best) under v = low + (high − low) T, T ~ Beta(alpha, beta), exactly (Proposition R4).

    Integer shapes and rational lines give rationals: the steps' probabilities are differences of
    :func:`beta_cdf_binomial_sum`. ``by="utility"`` ranks the mean utilities over datasets (the
    mean lines), ``by="rank"`` the mean ranks; ties for the best share a step equally.
    """
    alpha, beta = _positive_integer(alpha, "alpha"), _positive_integer(beta, "beta")
    low, high = _support(low, high)
    a, b = _rational_lines(A, B)
    if by == "utility":
        a = sp.Matrix([sum(a.row(c)) / a.shape[1] for c in range(a.shape[0])])
        b = sp.Matrix([sum(b.row(c)) / b.shape[1] for c in range(b.shape[0])])
    elif by != "rank":
        raise ValueError(f"by must be 'utility' or 'rank', got {by!r}")
    edges, ranks = exact_rank_path(a.tolist(), b.tolist(), low, high)
    cdf = [beta_cdf_binomial_sum(alpha, beta, (e - low) / (high - low)) for e in edges]
    result = [sp.Integer(0)] * a.shape[0]
    for i, row in enumerate(ranks):
        best = [c for c, r in enumerate(row) if r == min(row)]
        for c in best:
            result[c] += (cdf[i + 1] - cdf[i]) / len(best)
    return [sp.nsimplify(r) for r in result]


#: The intercepts A of three classifiers (rows) on two datasets (columns), lines A + 4vB; classifier 0 is
#: precise, 2 the most cautious, and on the second dataset all three lines meet at v = 5/8.
EXAMPLE_A = [[sp.Rational(1, 2), sp.Rational(2, 5)], [sp.Rational(3, 10), sp.Rational(7, 20)],
             [sp.Rational(1, 5), sp.Rational(3, 10)]]
#: The slopes B of the classifiers of :data:`EXAMPLE_A` (their lines are A + 4vB).
EXAMPLE_B = [[sp.Integer(0), sp.Rational(1, 50)], [sp.Rational(3, 50), sp.Rational(1, 25)],
             [sp.Rational(1, 10), sp.Rational(3, 50)]]


def check_expected_rank_not_rank_at_mean(alpha: int = 1, beta: int = 2) -> dict:
    """Proposition R5: the mean rank is not affine in v, so ``E[R_c(V)]`` differs from ``R_c(E[V])`` in general.

    Evaluated on :data:`EXAMPLE_A`, :data:`EXAMPLE_B` with v = 1/2 + T/2, T ~ Beta(alpha, beta):
    returns the exact expected ranks, the ranks at the mean v and ``differs`` (True when some
    classifier's two numbers differ), with the mean utility's expectation equal to its value at
    the mean for contrast (``utility_at_mean``, Proposition R2).
    """
    alpha, beta = _positive_integer(alpha, "alpha"), _positive_integer(beta, "beta")
    low, high = sp.Rational(1, 2), sp.Integer(1)
    edges, ranks = exact_rank_path(EXAMPLE_A, EXAMPLE_B, low, high)
    cdf = [beta_cdf_binomial_sum(alpha, beta, (e - low) / (high - low)) for e in edges]
    masses = [cdf[i + 1] - cdf[i] for i in range(len(ranks))]
    expected = [sp.nsimplify(sum(m * row[c] for m, row in zip(masses, ranks))) for c in range(len(EXAMPLE_A))]
    mean_v = low + (high - low) * sp.Rational(alpha, alpha + beta)
    at_mean = [r.subs(V, mean_v) for r in mean_rank_expr(EXAMPLE_A, EXAMPLE_B)]
    a, b = _rational_lines(EXAMPLE_A, EXAMPLE_B)
    lines = [sum(a.row(c)) / a.shape[1] + 4 * V * sum(b.row(c)) / b.shape[1] for c in range(a.shape[0])]
    t = sp.Symbol("t", nonnegative=True)
    density = sp.gammasimp(t ** (alpha - 1) * (1 - t) ** (beta - 1) / sp.beta(alpha, beta))
    utility_at_mean = all(_zero(sp.integrate(line.subs(V, low + (high - low) * t) * density, (t, 0, 1))
                                - line.subs(V, mean_v)) for line in lines)
    return {"expected_ranks": expected, "ranks_at_mean": at_mean,
            "differs": any(e != m for e, m in zip(expected, at_mean)), "utility_at_mean": utility_at_mean}


# --------------------------------------------------------------------------------------------
# display
# --------------------------------------------------------------------------------------------

def risk_aversion_latex() -> dict[str, str]:
    """Propositions R1 to R3 derived, one TeX display per key: ``affine``, ``mean_line``, ``expected``,
    ``crossing``, ``probability``."""
    coefficients = affine_coefficients()
    if not check_affine_in_v():   # the display below is typed: it must be the derivation
        raise AssertionError(f"affine_coefficients() changed: {coefficients}")
    return {"affine": r"u_v(x) = " + sp.latex(utility_in_v()) + r" = (2x^2 - x) + 4v\,x(1 - x)",
            "mean_line": r"U(v) = \frac{1}{n}\sum_i u_v(x_i) = A + 4vB,\quad A = \frac{1}{n}\sum_i (2x_i^2 - x_i),"
                         r"\quad B = \frac{1}{n}\sum_i x_i(1 - x_i)",
            "expected": r"E[v] = " + sp.latex(beta_moments()["mean"]) + r",\qquad E[u_V(x)] - u_{E[V]}(x) = "
                        + sp.latex(expected_utility_gap(scaled_beta())),
            "crossing": r"D(v) = " + sp.latex(difference_line()) + r" = 4\Delta_B\,(v - v^*),\quad v^* = "
                        + sp.latex(crossing_point_expr()),
            "probability": r"P(U_a > U_b) = " + sp.latex(probability_better_expr())}


#: The parameter r of the p-discounted costs (Yang, Destercke & Masson 2017, Eqs. 14-16).
R = sp.Symbol("r", positive=True)
#: The values of r at which R6's check asks whether g_r is quadratic (0 to 9/10, the integers 1/(1 − r) among them).
R_GRID = tuple(sp.Rational(k, 10) for k in range(10)) + (sp.Rational(1, 3), sp.Rational(2, 3), sp.Rational(3, 4))


def p_discounted_gain(k=None, r=R) -> sp.Expr:
    """1 − the p-discounted 0/1 cost of a set of ``k`` classes holding the truth (Yang et al. 2017, Eqs. 14-16).

    The cost is the power mean of order p = 1 − r of the members' 0/1 costs, one 0 (the truth)
    and k − 1 ones: ((k − 1)/k)^(1/p). With ``k=None`` the gain is written in the set's
    discounted accuracy x = 1/k: 1 − (1 − x)^(1/(1 − r)) (Proposition R6).
    """
    size = sp.Symbol("k", positive=True, integer=True) if k is None else sp.Integer(k)
    p = 1 - r
    power_mean = ((size - 1) * sp.Integer(1) ** p / size + 0) ** (1 / p)  # 0**p = 0 for p > 0
    gain = 1 - power_mean
    return sp.simplify(gain.subs(size, 1 / X)) if k is None else gain


def check_p_discounted_is_a_utility() -> dict:
    """Proposition R6: with 0/1 costs, 1 − p-discounted cost is a utility g_r of discounted accuracy,
    g_r(x) = 1 − (1 − x)^(1/(1 − r)); for r = 1/2 it is exactly u_v with v = 3/4, so that cost and
    u75 order any two classifiers alike; on two-class data (x in {0, 1/2, 1}) every r orders like
    u_v with v = g_r(1/2) = 1 − 2^(−1/(1 − r)).

    Returns ``gain`` (g_r(x)), ``r_half_is_u75`` (g_{1/2} − u_{3/4} simplifies to 0), ``r_zero_is_u50``
    (g_0 is discounted accuracy x = u_{1/2}), ``quadratic_at`` (the r of :data:`R_GRID` at which g_r is
    a polynomial of degree at most two, i.e. one of the u_v: its third derivative in x vanishes;
    0 and 1/2 only), ``binary_v`` (g_r(1/2)) and ``matches_power_mean`` (the closed form equals the
    power mean for k = 2..6).
    """
    gain = p_discounted_gain()
    at_half = sp.simplify(gain.subs(R, sp.Rational(1, 2)) - quadratic_through(sp.Rational(3, 4)))
    at_zero = sp.simplify(gain.subs(R, 0) - quadratic_through(sp.Rational(1, 2)))
    quadratic_at = [r for r in R_GRID if sp.simplify(sp.diff(gain.subs(R, r), X, 3)) == 0]
    closed = [sp.simplify(gain.subs(X, sp.Rational(1, k)) - p_discounted_gain(k)) == 0 for k in range(2, 7)]
    return {"gain": gain, "r_half_is_u75": at_half == 0, "r_zero_is_u50": at_zero == 0, "quadratic_at": quadratic_at,
            "binary_v": sp.simplify(gain.subs(X, sp.Rational(1, 2))), "matches_power_mean": all(closed)}
