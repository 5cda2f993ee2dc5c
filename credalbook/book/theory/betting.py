"""Discounted accuracy from a betting game (Zaffalon, Corani & Mauá 2012, Sections 3–4).

Theorem 1: a credal bettor predicting a set ``K`` of ``k`` classes plays a zero-sum game
against House, bettor choosing a randomised determinate bet ``sigma`` (a mass function on
the classes) and House the chances ``theta`` of the classes in ``K`` given a successful
prediction; the bettor's gain is ``sum_{i in K} sigma_i theta_i`` and the value of the game
is ``1/k``: the discounted accuracy ``I_K(j)/k`` of Eq. (1).

This module makes the proof executable (symbolically for a general ``k``, exactly with
sympy's rational simplex and numerically with scipy's ``linprog`` for given ``k``) and
builds the extended reward matrices of Tables 2 and 3.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd
import sympy as sp
from scipy.optimize import linprog

from credalbook._validation import check_array, check_scalar

__all__ = ["K_SYMBOL", "SIGMA", "THETA", "game_payoff_symbolic", "theorem1_derivation",
           "check_theorem1_symbolic", "sure_reward_strategies", "betting_game_payoff", "GameSolution",
           "solve_matrix_game", "theorem1_value_exact", "theorem1_table", "extended_reward_matrix",
           "vacuous_random_moments", "theorem1_latex"]

#: The number of classes k.
K_SYMBOL = sp.Symbol("k", integer=True, positive=True)
_INDEX = sp.Symbol("i", integer=True)
#: The gambler's stake sigma[i] on class i.
SIGMA = sp.IndexedBase("sigma")
#: The chance theta[i] of class i.
THETA = sp.IndexedBase("theta")


def _check_n_classes(n_classes, name: str = "n_classes") -> int:
    return int(check_scalar(n_classes, name, low=2, integer=True))


def _check_prediction(prediction, n_classes: int) -> tuple[int, ...]:
    """A set-valued prediction as a sorted tuple of distinct class labels in ``1..n_classes``."""
    try:
        labels = [int(c) for c in prediction]
    except TypeError:
        raise ValueError(f"prediction must be an iterable of class labels, got {prediction!r}") from None
    if not labels:
        raise ValueError("prediction is empty: a set-valued prediction holds at least one class")
    if len(set(labels)) != len(labels):
        raise ValueError(f"prediction repeats a class: {prediction!r}")
    bad = [c for c in labels if not 1 <= c <= n_classes]
    if bad:
        raise ValueError(f"prediction has classes {bad} outside 1..{n_classes}")
    return tuple(sorted(labels))


# --------------------------------------------------------------------------------------------
# Theorem 1 for a general k (symbolic)
# --------------------------------------------------------------------------------------------

def game_payoff_symbolic() -> sp.Expr:
    """Bettor's expected gain ``sum_{i=1}^k sigma_i theta_i`` (House's loss given success, Section 4)."""
    return sp.Sum(SIGMA[_INDEX] * THETA[_INDEX], (_INDEX, 1, K_SYMBOL))


def _play_uniform(expr: sp.Expr, base: sp.IndexedBase) -> sp.Expr:
    uniform = sp.Integer(1) / K_SYMBOL
    return sp.factor_terms(expr.replace(lambda e: isinstance(e, sp.Indexed) and e.base == base,
                                        lambda e: uniform))


def theorem1_derivation() -> dict[str, sp.Expr]:
    """The proof of Theorem 1 for a general ``k``, as expressions.

    - ``bettor_uniform``: the gain when bettor plays ``sigma_i = 1/k``; it is
      ``(sum theta_i)/k = 1/k`` whatever House's ``theta`` — a guaranteed lower bound;
    - ``house_uniform``: the gain when House plays ``theta_i = 1/k``; it is
      ``(sum_{i in K} sigma_i)/k <= 1/k`` whatever bettor's ``sigma`` — an upper bound;
    - ``lower`` and ``upper``: the two bounds after using ``sum theta = 1`` and
      ``sum_{i in K} sigma_i <= 1``; they coincide, so the value is ``1/k`` (Eq. 1).
    """
    payoff = game_payoff_symbolic()
    bettor_uniform = _play_uniform(payoff, SIGMA)
    house_uniform = _play_uniform(payoff, THETA)
    sum_theta = sp.Sum(THETA[_INDEX], (_INDEX, 1, K_SYMBOL))
    sum_sigma = sp.Sum(SIGMA[_INDEX], (_INDEX, 1, K_SYMBOL))
    mass_on_k = sp.Symbol("s", nonnegative=True)  # sum of sigma over K, in [0, 1]
    lower = bettor_uniform.subs(sum_theta, 1)
    upper_as_function = house_uniform.subs(sum_sigma, mass_on_k)
    upper = sp.maximum(upper_as_function, mass_on_k, sp.Interval(0, 1))
    return {"payoff": payoff, "bettor_uniform": bettor_uniform, "house_uniform": house_uniform,
            "lower": sp.simplify(lower), "upper": sp.simplify(upper)}


def check_theorem1_symbolic() -> bool:
    """True when the derivation's lower and upper bounds are both ``1/k`` for symbolic ``k``."""
    d = theorem1_derivation()
    return bool(sp.simplify(d["lower"] - 1 / K_SYMBOL) == 0 and sp.simplify(d["upper"] - 1 / K_SYMBOL) == 0)


def sure_reward_strategies(k: int) -> list[dict]:
    """The bettor's strategies ``sigma`` on ``K`` (``sum sigma_i = 1``) whose gain ``sum sigma_i theta_i``
    is the same for every chance vector ``theta`` of the simplex (Section 4: "playing as the
    K-random bettor is the only way for credal bettor to have a sure reward").

    Writing ``theta_k = 1 − sum_{i<k} theta_i``, the gain is constant in ``theta`` exactly when its
    derivatives ``sigma_i − sigma_k`` vanish; sympy solves these with the normalisation. Returns
    the solutions (a single one, ``sigma_i = 1/k``, when the statement holds).
    """
    k = int(check_scalar(k, "k", low=2, integer=True))
    sigma = sp.symbols(f"sigma1:{k + 1}", real=True)
    theta = sp.symbols(f"theta1:{k}", nonnegative=True)
    gain = sp.Add(*[s * t for s, t in zip(sigma, theta)]) + sigma[-1] * (1 - sp.Add(*theta))
    constant = [sp.diff(gain, t) for t in theta]
    return sp.solve([*constant, sp.Add(*sigma) - 1], sigma, dict=True)


# --------------------------------------------------------------------------------------------
# Theorem 1 for a given k: exact (sympy simplex) and numerical (scipy linprog)
# --------------------------------------------------------------------------------------------

def betting_game_payoff(n_classes: int, prediction) -> np.ndarray:
    """(n_classes, k) payoff matrix of Theorem 1's game: rows bettor's determinate bets ``i in C``,
    columns the actual class ``j in K`` (House's chances are zero outside ``K``); entry ``I_i(j)``."""
    n = _check_n_classes(n_classes)
    members = _check_prediction(prediction, n)
    return np.array([[1.0 if i == j else 0.0 for j in members] for i in range(1, n + 1)])


@dataclass(frozen=True)
class GameSolution:
    """Value of a finite zero-sum game and optimal mixed strategies of both players."""

    value: float
    row_strategy: np.ndarray
    column_strategy: np.ndarray
    maximin: float
    minimax: float


def solve_matrix_game(payoff) -> GameSolution:
    """Solve ``max_sigma min_theta sigma^T A theta`` (row player maximises) by two linear programs.

    ``payoff`` is an (r, c) matrix. The row player's LP gives the maximin value and the
    column player's LP the minimax value; von Neumann's theorem (used in the proof of
    Theorem 1) says they agree, and the returned ``value`` is their mean.
    """
    A = check_array(payoff, "payoff", ndim=2)
    r, c = A.shape
    # row player: variables (sigma_1..sigma_r, v); maximise v s.t. A^T sigma >= v, sum sigma = 1
    row = linprog(c=np.r_[np.zeros(r), -1.0],
                  A_ub=np.c_[-A.T, np.ones(c)], b_ub=np.zeros(c),
                  A_eq=np.r_[np.ones(r), 0.0][None, :], b_eq=[1.0],
                  bounds=[(0, None)] * r + [(None, None)], method="highs")
    # column player: variables (theta_1..theta_c, w); minimise w s.t. A theta <= w, sum theta = 1
    col = linprog(c=np.r_[np.zeros(c), 1.0],
                  A_ub=np.c_[A, -np.ones(r)], b_ub=np.zeros(r),
                  A_eq=np.r_[np.ones(c), 0.0][None, :], b_eq=[1.0],
                  bounds=[(0, None)] * c + [(None, None)], method="highs")
    if not (row.success and col.success):
        raise RuntimeError(f"linear program failed: {row.message} / {col.message}")
    maximin, minimax = float(-row.fun), float(col.fun)
    return GameSolution(value=(maximin + minimax) / 2, row_strategy=row.x[:r], column_strategy=col.x[:c],
                        maximin=maximin, minimax=minimax)


def theorem1_value_exact(k: int) -> sp.Rational:
    """Exact value of ``max_sigma min_{i in K} sigma_i`` over the simplex, by sympy's rational simplex.

    This is the last step of Theorem 1's proof (House's best response to ``sigma`` puts all
    its mass on ``argmin_{i in K} sigma_i``); the bettor may also put mass outside ``K``
    (one extra variable), which can only hurt it.
    """
    from sympy.solvers.simplex import lpmax

    k = int(check_scalar(k, "k", low=1, integer=True))
    sigma = sp.symbols(f"sigma1:{k + 1}", real=True)
    outside = sp.Symbol("sigma_out", real=True)
    t = sp.Symbol("t")
    constraints = [t <= s for s in sigma] + [sp.Add(*sigma) + outside <= 1, sp.Add(*sigma) + outside >= 1]
    constraints += [s >= 0 for s in sigma] + [outside >= 0]
    value, _ = lpmax(t, constraints)
    return sp.nsimplify(value)


def theorem1_table(ks=range(2, 9), n_classes: int | None = None) -> pd.DataFrame:
    """For each ``k``: exact (sympy) and numerical (scipy) game values, 1/k, and the bettor's strategy.

    The prediction is ``{1..k}`` among ``n_classes`` classes (default ``k + 2``, so the
    bettor could also bet outside the set).
    """
    rows = []
    for k in ks:
        k = int(check_scalar(k, "k", low=1, integer=True))
        n = k + 2 if n_classes is None else _check_n_classes(n_classes)
        if k > n:
            raise ValueError(f"k={k} exceeds n_classes={n}")
        solution = solve_matrix_game(betting_game_payoff(n, range(1, k + 1)))
        rows.append({"k": k, "one_over_k": 1 / k, "exact_value": str(theorem1_value_exact(k)),
                     "lp_maximin": solution.maximin, "lp_minimax": solution.minimax,
                     "max_abs_dev_sigma_from_uniform": float(np.max(np.abs(solution.row_strategy[:k] - 1 / k))),
                     "sigma_outside_K": float(solution.row_strategy[k:].sum())})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------
# Extended reward matrices (Tables 2 and 3) and the vacuous vs random classifier
# --------------------------------------------------------------------------------------------

def _subset_label(members: tuple[int, ...]) -> str:
    return str(members[0]) if len(members) == 1 else "{" + ",".join(map(str, members)) + "}"


def extended_reward_matrix(n_classes: int, utility=None) -> pd.DataFrame:
    """The (2^n − 1) × n extended reward matrix: row ``K``, column actual class ``j``, entry ``u(I_K(j)/k)``.

    With ``utility=None`` the entries are the discounted accuracy (Table 2 for n = 2); with a
    callable utility they are the utility-discounted rewards (Table 3). Rows are ordered by
    set size, then lexicographically; the first column, ``prediction``, names the set.
    """
    n = _check_n_classes(n_classes)
    if n > 12:
        raise ValueError(f"n_classes={n} gives 2^n - 1 = {2 ** n - 1} rows: use n_classes <= 12")
    if utility is not None and not callable(utility):
        raise ValueError(f"utility must be callable or None, got {type(utility).__name__}")
    rows = []
    for k in range(1, n + 1):
        for members in combinations(range(1, n + 1), k):
            rewards = np.array([1.0 / k if j in members else 0.0 for j in range(1, n + 1)])
            if utility is not None:
                rewards = np.asarray(utility(rewards), dtype=float)
            rows.append({"prediction": _subset_label(members), **{f"actual_{j}": rewards[j - 1] for j in range(1, n + 1)}})
    return pd.DataFrame(rows)


def vacuous_random_moments(n_classes=None) -> pd.DataFrame:
    """Mean and variance of the discounted-accuracy reward of the vacuous and random classifiers.

    Symbolic in ``n`` when ``n_classes`` is None (Section 4 and Proposition 1): both have
    mean ``1/n``; the vacuous has variance 0, the random ``(1/n)(1 − 1/n)``. The random
    classifier's mean does not depend on the class chances ``theta``: it is
    ``sum_i sigma*_i theta_i = 1/n`` for every ``theta``.
    """
    n = sp.Symbol("n", integer=True, positive=True) if n_classes is None else sp.Integer(_check_n_classes(n_classes))
    p = 1 / n
    random_mean = p * 1 + (1 - p) * 0
    random_var = sp.simplify(p * 1 ** 2 + (1 - p) * 0 - random_mean ** 2)
    return pd.DataFrame({"classifier": ["vacuous", "random"], "mean": [p, random_mean],
                         "variance": [sp.Integer(0), sp.factor(random_var)]})


# --------------------------------------------------------------------------------------------
# Display: the derivation as TeX, for the book's page
# --------------------------------------------------------------------------------------------

def theorem1_latex() -> dict[str, str]:
    """Theorem 1's proof and the vacuous/random moments as TeX displays, one per key: ``gain``
    (the game's payoff), ``bettor`` (the uniform bettor's guaranteed value), ``house`` (the
    uniform House's cap) and ``moments`` (mean and variance of the vacuous ``v`` and random ``r``
    classifiers' rewards), each derived by :func:`theorem1_derivation` and
    :func:`vacuous_random_moments`."""
    d = theorem1_derivation()
    moments = vacuous_random_moments().set_index("classifier")
    rows = [rf"E[{c[0]}] &= {sp.latex(moments.loc[c, 'mean'])}, & \operatorname{{Var}}[{c[0]}] &= "
            + sp.latex(moments.loc[c, "variance"]) for c in ("vacuous", "random")]
    return {"gain": r"G(\sigma, \theta) = " + sp.latex(d["payoff"]),
            "bettor": r"G(\sigma^*, \theta) = " + sp.latex(d["bettor_uniform"]) + " = " + sp.latex(d["lower"])
                      + r"\qquad\text{for every } \theta",
            "house": r"G(\sigma, \theta^*) = " + sp.latex(d["house_uniform"]) + r" \le \max_{0 \le s \le 1} \frac{s}{k} = "
                     + sp.latex(d["upper"]),
            "moments": r"\begin{aligned}" + r" \\ ".join(rows) + r"\end{aligned}"}
