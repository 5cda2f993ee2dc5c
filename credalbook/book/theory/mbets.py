"""Vacuous versus random classifier over the next m bets (Zaffalon, Corani & Mauá 2012, Section 8).

Over ``m`` bets the vacuous classifier earns ``v_m = m/n`` for sure; the random classifier
earns the number ``r_m`` of correct guesses, ``r_m ~ Binomial(m, 1/n)``, so

    E[u(r_m)] = sum_{l=0}^{m} u(l) C(m, l) (1/n)^l (1 − 1/n)^(m−l)          (Eq. 6, corrected)

and the second-order approximation (Eq. 2) gives
``d(m) = E[u(v_m)] − E[u(r_m)] ≈ −u''(m/n) m (1/n)(1 − 1/n) / 2`` (Eq. 7 for the
logarithmic utility, Section 8.2 for the exponential one).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import sympy as sp
from scipy.stats import binom

from credalbook._validation import check_array, check_scalar
from credalbook.book.theory.utility import A_RISK, X, _check_expr, exponential_utility, log_utility

__all__ = ["M", "N", "L", "binomial_term", "binomial_term_as_printed", "exact_expected_utility_symbolic",
           "second_order_expected_utility", "d_second_order", "inversion_points", "is_maximum", "UTILITIES",
           "expected_utility_random", "expected_utility_random_approx", "mbets_table", "relative_error_grid",
           "GRID_M_MAX", "GRID_N", "GRID_A", "book_error_grid", "summarise_relative_errors", "exact_argmax_d",
           "section8_latex"]

#: The number of bets m.
M = sp.Symbol("m", positive=True)
#: The number of classes n.
N = sp.Symbol("n", positive=True)
#: The number of bets won, ell.
L = sp.Symbol("ell", integer=True, nonnegative=True)


def binomial_term(m=M, n=N) -> sp.Expr:
    """``Bin(l; m, 1/n) = C(m, l) (1/n)^l (1 − 1/n)^(m − l)``: the probability of ``l`` correct
    guesses out of ``m`` (the term of Eq. 6, with the binomial coefficient the right way round)."""
    m, n = sp.sympify(m), sp.sympify(n)
    return sp.binomial(m, L) * (1 / n) ** L * (1 - 1 / n) ** (m - L)


def binomial_term_as_printed(m=M, n=N) -> sp.Expr:
    """Eq. (6)'s term as printed in the journal version: ``C(l, m) (1/n)^l (1 − 1/n)^(m − l)``."""
    m, n = sp.sympify(m), sp.sympify(n)
    return sp.binomial(L, m) * (1 / n) ** L * (1 - 1 / n) ** (m - L)


def exact_expected_utility_symbolic(u, m: int, n) -> sp.Expr:
    """``E[u(r_m)] = sum_{l=0}^{m} u(l) Bin(l; m, 1/n)`` for an integer ``m`` (symbolic in ``n`` allowed)."""
    u = _check_expr(u)
    m = int(check_scalar(m, "m", low=1, integer=True))
    term = binomial_term(m, n)
    return sp.Add(*[u.subs(X, ell) * term.subs(L, ell) for ell in range(0, m + 1)])


def second_order_expected_utility(u) -> sp.Expr:
    """Eq. (2) for ``r_m``: ``u(m/n) + u''(m/n) Var(r_m)/2`` with ``Var(r_m) = m (1/n)(1 − 1/n)``."""
    u = _check_expr(u)
    variance = M * (1 / N) * (1 - 1 / N)
    return u.subs(X, M / N) + sp.diff(u, X, 2).subs(X, M / N) * variance / 2


def d_second_order(u) -> sp.Expr:
    """``d(m) = E[u(v_m)] − E[u(r_m)]`` under the second-order approximation (Eq. 7 for log utility)."""
    u = _check_expr(u)
    return sp.simplify(u.subs(X, M / N) - second_order_expected_utility(u))


def inversion_points(u) -> list[sp.Expr]:
    """Positive stationary points of the approximated ``d(m)`` in ``m`` (``n`` for log, ``n/a`` for exp)."""
    d = d_second_order(u)
    return [root for root in sp.solve(sp.diff(d, M), M) if root.is_positive is not False]


def is_maximum(u, point) -> bool:
    """True when the second derivative of the approximated ``d(m)`` is negative at ``point``."""
    value = sp.diff(d_second_order(u), M, 2).subs(M, point)
    # n >= 2 classes: write n = 2 + j with j >= 0 so that sympy's assumptions know n - 1 > 0
    j = sp.Symbol("j", nonnegative=True)
    return bool(sp.factor(sp.simplify(value.subs(N, 2 + j))).is_negative)


# --------------------------------------------------------------------------------------------
# Numerical evaluation on grids
# --------------------------------------------------------------------------------------------

#: The utilities of §8, by name.
UTILITIES = {"log": log_utility, "exp": exponential_utility}


def _utility_functions(utility: str, a):
    if utility not in UTILITIES:
        raise ValueError(f"utility must be one of {sorted(UTILITIES)}, got {utility!r}")
    if utility == "exp":
        if a is None:
            raise ValueError("a (risk aversion) is required for the exponential utility")
        check_scalar(a, "a", low=0, low_inclusive=False)
        expr = UTILITIES[utility]().subs(A_RISK, a)
    else:
        if a is not None:
            raise ValueError("a is only used by the exponential utility; pass a=None for 'log'")
        expr = UTILITIES[utility]()
    return sp.lambdify(X, expr, "numpy"), sp.lambdify(X, sp.diff(expr, X, 2), "numpy")


def expected_utility_random(utility: str, m, n_classes, a=None) -> np.ndarray:
    """Exact ``E[u(r_m)]`` (Eq. 6) for arrays of ``m`` (>= 1) and ``n_classes`` (>= 2), broadcast together."""
    m_arr = check_array(m, "m", dtype=float)
    n_arr = check_array(n_classes, "n_classes", dtype=float)
    if np.any(m_arr < 1) or np.any(m_arr != np.round(m_arr)):
        raise ValueError("m must hold integers >= 1 (numbers of bets)")
    if np.any(n_arr < 2) or np.any(n_arr != np.round(n_arr)):
        raise ValueError("n_classes must hold integers >= 2")
    u, _ = _utility_functions(utility, a)
    m_arr, n_arr = np.broadcast_arrays(m_arr, n_arr)
    ell = np.arange(int(m_arr.max()) + 1)
    pmf = binom.pmf(ell, m_arr[..., None], 1.0 / n_arr[..., None])   # zero for ell > m
    return (pmf * u(ell.astype(float))).sum(axis=-1)


def expected_utility_random_approx(utility: str, m, n_classes, a=None) -> np.ndarray:
    """Second-order approximation ``u(m/n) + u''(m/n) m (1/n)(1 − 1/n)/2`` (Section 8)."""
    m_arr = check_array(m, "m", dtype=float)
    n_arr = check_array(n_classes, "n_classes", dtype=float)
    if np.any(m_arr < 1):
        raise ValueError("m must be >= 1")
    if np.any(n_arr < 2):
        raise ValueError("n_classes must be >= 2")
    u, u2 = _utility_functions(utility, a)
    mean = m_arr / n_arr
    return u(mean) + u2(mean) * m_arr * (1 / n_arr) * (1 - 1 / n_arr) / 2


def mbets_table(utility: str, ms, ns, a=None) -> pd.DataFrame:
    """Tidy grid over ``m`` × ``n``: exact and approximated ``E[u(r_m)]`` and ``d(m)`` and their relative errors."""
    ms = check_array(ms, "ms", ndim=1)
    ns = check_array(ns, "ns", ndim=1)
    mm, nn = np.meshgrid(ms, ns, indexing="ij")
    exact = expected_utility_random(utility, mm, nn, a)
    approx = expected_utility_random_approx(utility, mm, nn, a)
    u, _ = _utility_functions(utility, a)
    vacuous = u(mm / nn)
    frame = pd.DataFrame({"utility": utility, "a": np.nan if a is None else float(a),
                          "m": mm.ravel().astype(int), "n": nn.ravel().astype(int),
                          "vacuous": vacuous.ravel(), "random_exact": exact.ravel(), "random_approx": approx.ravel()})
    frame["d_exact"] = frame["vacuous"] - frame["random_exact"]
    frame["d_approx"] = frame["vacuous"] - frame["random_approx"]
    frame["rel_error_expected_utility"] = np.abs(frame["random_approx"] - frame["random_exact"]) / np.abs(frame["random_exact"])
    frame["rel_error_d"] = np.abs(frame["d_approx"] - frame["d_exact"]) / np.abs(frame["d_exact"])
    return frame


def relative_error_grid(ms, ns, risk_aversions) -> pd.DataFrame:
    """:func:`mbets_table` for the logarithmic utility and the exponential one at each ``a``, stacked."""
    frames = [mbets_table("log", ms, ns)]
    frames += [mbets_table("exp", ms, ns, a=float(a)) for a in check_array(risk_aversions, "risk_aversions", ndim=1)]
    return pd.concat(frames, ignore_index=True)


#: The book's grid for Section 8's "relative absolute error consistently smaller than 1%" (the paper
#: states none): every number of bets up to ``GRID_M_MAX``, these numbers of classes and risk aversions.
GRID_M_MAX = 100
#: Numbers of classes of the property grid.
GRID_N = (2, 3, 4, 5, 10, 20)
#: Risk aversions of the property grid.
GRID_A = (0.1, 0.5, 1.0, 2.0, 5.0)


def book_error_grid() -> pd.DataFrame:
    """:func:`relative_error_grid` on the book's grid (``m = 1..GRID_M_MAX``, ``GRID_N``, ``GRID_A``)."""
    return relative_error_grid(np.arange(1, GRID_M_MAX + 1), GRID_N, GRID_A)


def summarise_relative_errors(grid: pd.DataFrame, threshold: float = 0.01) -> pd.DataFrame:
    """Per utility (and ``a``): the largest relative errors, where they occur, the share of the grid
    under ``threshold``, and the largest ``m/n`` at which the error of ``E[u(r_m)]`` still reaches it."""
    check_scalar(threshold, "threshold", low=0, low_inclusive=False)
    needed = {"utility", "a", "m", "n", "rel_error_expected_utility", "rel_error_d"}
    if not needed <= set(grid.columns):
        raise ValueError(f"grid lacks columns {sorted(needed - set(grid.columns))}")
    rows = []
    for (utility, a), part in grid.groupby(["utility", "a"], dropna=False, sort=False):
        worst = part.loc[part["rel_error_expected_utility"].idxmax()]
        failing = part[part["rel_error_expected_utility"] >= threshold]
        rows.append({"utility": utility, "a": a, "cells": len(part),
                     "max_rel_error_E_u": worst["rel_error_expected_utility"], "at_m": int(worst["m"]), "at_n": int(worst["n"]),
                     "share_E_u_below": float((part["rel_error_expected_utility"] < threshold).mean()),
                     "largest_failing_m_over_n": float((failing["m"] / failing["n"]).max()) if len(failing) else np.nan,
                     "max_rel_error_d": part["rel_error_d"].max(),
                     "share_d_below": float((part["rel_error_d"] < threshold).mean())})
    return pd.DataFrame(rows)


def exact_argmax_d(utility: str, n_classes: int, a=None, m_max: int = 2000) -> int:
    """The integer ``m`` in 1..m_max maximising the exact ``d(m) = u(m/n) − E[u(r_m)]``."""
    n_classes = int(check_scalar(n_classes, "n_classes", low=2, integer=True))
    m_max = int(check_scalar(m_max, "m_max", low=1, integer=True))
    table = mbets_table(utility, np.arange(1, m_max + 1), [n_classes], a)
    return int(table.loc[table["d_exact"].idxmax(), "m"])


# --------------------------------------------------------------------------------------------
# Display: the derivations as TeX, for the book's page
# --------------------------------------------------------------------------------------------

def section8_latex() -> dict[str, str]:
    """Section 8 derived, one TeX display per key: ``printed_vs_correct`` (Eq. 6's term as printed
    and corrected, at m = 3, n = 2), ``log3`` (an exact E[u(r_m)]), ``second_order`` (Eq. 2 for
    ``r_m`` and the approximated ``d(m)``, logarithmic and exponential utilities) and ``inversion``
    (``d'(m)`` and its root)."""
    from credalbook.book.theory.utility import aligned

    def values(term):
        return r",\ ".join(sp.latex(term.subs(L, j)) for j in range(4))

    printed = [r"\textstyle\binom{\ell}{m}\,\text{(printed)}: &\quad " + values(binomial_term_as_printed(3, 2)),
               r"\textstyle\binom{m}{\ell}\,\text{(corrected)}: &\quad " + values(binomial_term(3, 2))]
    exact = exact_expected_utility_symbolic(log_utility(), 3, 2)
    names = {"log": (r"\log", log_utility()), "exp": (r"\exp", exponential_utility())}
    approx, inversion = [], []
    for key, (label, u) in names.items():
        approx += [rf"E[u_{{{label}}}(r_m)] &\approx " + sp.latex(second_order_expected_utility(u)),
                   rf"d_{{{label}}}(m) &\approx " + sp.latex(d_second_order(u))]
        point = inversion_points(u)[0]
        inversion.append(rf"d_{{{label}}}'(m) &= " + sp.latex(sp.factor(sp.diff(d_second_order(u), M)))
                         + rf" = 0 \iff m = {sp.latex(point)}")
    return {"printed_vs_correct": aligned(printed),
            "log3": r"E[\log(1 + r_3)]\big|_{n=2} = " + sp.latex(exact) + rf" \approx {float(exact):.4f}",
            "second_order": aligned(approx),
            "inversion": aligned(inversion)}
