"""Ledger entries of Zaffalon, Corani & Mauá: the theory of Part I.

The journal version's Sections 1–8, the utilities of Section 9 and the F-measures of Section 9.3
(Table 10); the conference version's Sections 1–7 and the rule for binary data of its Section 9.
Every check computes the book's side from the derivations of :mod:`credalbook.book.theory.betting`,
:mod:`credalbook.book.theory.utility` and :mod:`credalbook.book.theory.mbets`; the formulas as the paper
prints them are transcribed in ``PRINTED``. A printed formula is *reproduced* when sympy
finds it identical to the derivation and an *erratum* when not (:func:`same_formula`).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import sympy as sp

from credalbook import metrics
from credalbook.book.ledger import policy
from credalbook.book.ledger.core import Finding, book_table, check, ledger, stored
from credalbook.book.ledger.report import markdown_table
from credalbook.book.reference import published
from credalbook.book.theory import betting, mbets
from credalbook.book.theory import utility as ut

__all__ = ["identical", "same_formula", "formula", "game_value", "theorem1_proof_domains", "theorem1_domain",
           "random_mean_binary", "vacuous_and_random_means",
           "vacuous_variance", "theorem1_bounds", "sure_reward_strategies", "reward_matrix_shapes",
           "linear_gap", "paper_utilities", "proposition1", "random_set_predictions",
           "k_random_expected_accuracy", "discounted_accuracy_metric", "k_random_baseline",
           "ncc_beats_nbc_share", "credal_beats_determinate_not_rare", "credal_almost_never_superior",
           "u65_metric", "u65_reward_matrix", "pointwise_utility_matrix", "eq2_derived",
           "eq2_quadratic_errors", "eq2_errors", "eq2_very_accurate", "certainty_equivalents",
           "certainty_equivalent_range", "variance_equalities", "indeterminate_gap",
           "indeterminate_second_moment", "delta_var_generic", "eq3_as_printed", "proposition2_delta_vars",
           "proposition2", "proposition3_derived", "proposition3_printed", "binomial_pmf", "eq6_zero_terms",
           "eq7_constant", "eq8_derivative", "d_limits", "exp_d_derivative", "log_more_classes_delay",
           "exact_d_many_bets", "exp_risk_aversion_delays", "exp_risk_aversion_small_m", "mbets_worst_cells",
           "error_grid", "mbets_error_below_1pct", "quadratic_family", "risk_aversion_grows_with_u_half",
           "u80_utility", "u80_above_one", "reward_values", "u80_excess_never_used", "quadratic_utilities",
           "quadratic_risk_aversion_grows", "chosen_u_halves", "exponential_cannot_fit", "u_halves_65_80",
           "f1_between", "beta_two", "f2_rewards_more", "rival_beta", "f1_closer", "binary_gap",
           "binary_u_half_rule", "table2", "table10", "table10_as_printed", "inversion_points_second_order",
           "inversion_points_exact", "relative_error_shares", "claims_slice"]

BETTING = "chapters/accuracy/betting"
MBETS = "chapters/accuracy/mbets"
CHOOSING = "chapters/accuracy/choosing_utility"

X, N, K, EPS, U_HALF, A = ut.X, ut.N, betting.K_SYMBOL, ut.EPS, ut.U_HALF, ut.A_RISK
M, NB, L = mbets.M, mbets.N, mbets.L          # Section 8's m, n (positive reals) and l
DELTA = sp.Symbol("delta")                     # the perturbation of a derivation (mutations)
U65, U80 = ut.quadratic_through(sp.Rational(13, 20)), ut.quadratic_through(sp.Rational(4, 5))

#: Formulas as printed in the papers (journal unless the key says "conference").
PRINTED = {
    "1/2": sp.Rational(1, 2),
    "1/n, 1/n": sp.Matrix([1 / N, 1 / N]),
    "variance of the vacuous classifier": sp.Integer(0),
    "1/k, 1/k": sp.Matrix([1 / K, 1 / K]),
    "sigma_i = 1/k, k = 2..6": sp.Matrix([sp.Rational(1, k) for k in range(2, 7) for _ in range(k)]),
    "(2^n - 1) x n, n = 2..7": sp.Matrix([[2 ** n - 1, n] for n in range(2, 8)]),
    "Eq. (2)": ut.U_AT_MU[0] + ut.U_AT_MU[2] * ut.VAR / 2,
    "Eq. (2) exact for quadratics, 2..4 outcomes": sp.zeros(3, 1),
    "E[h^2] = E[h_D^2] + E[h_I^2], E[h_D^2] = E[h_D]": sp.zeros(2, 1),
    "risk neutral: no value": sp.Integer(0),
    "u50 = x": X,
    "E[f] - E[g]": sp.Integer(0),
    "E[f^2] - E[g^2]": EPS / 2,
    "Var[g] - Var[f]": -EPS / 2,
    "P(D_f) - P(D_g)": -EPS,
    "expected size f - g": 4 * EPS,
    "Eq. (6) term": mbets.binomial_term_as_printed(),
    "Eq. (7) term (conference)": sp.binomial(M, L) * (1 / NB) * (1 - 1 / NB) ** (M - L),
    "Eq. (6) from l = 1: l = 0 terms (log, exp)": sp.zeros(2, 1),
    "Section 8.1 E[u(r_m)]": sp.log(1 + M / NB) - M * (1 / NB) * (1 - 1 / NB) / (2 * (M / NB + 1) ** 2),
    "Eq. (7)": (M / NB) * (1 - 1 / NB) / (2 * (M / NB + 1) ** 2),
    "Eq. (8) (conference)": (M / NB) * (1 - 1 / NB) * M / (2 * (M / NB + 1) ** 2),
    "Eq. (7) constant": 1 / (2 * NB) * (1 - 1 / NB),
    "Eq. (8)": sp.Matrix([1 / (M / NB + 1) ** 2 - 2 * (M / NB) / (M / NB + 1) ** 3, 1 - M / NB]),
    "m = n": sp.Matrix([NB]),
    "m = n/a": sp.Matrix([NB / A]),
    "d(m) -> 0 (log, exp)": sp.zeros(2, 1),
    "Section 8.2 E[u(r_m)]": 1 - sp.exp(-A * M / NB) - A ** 2 * sp.exp(-A * M / NB) * M * (1 / NB) * (1 - 1 / NB) / 2,
    "Section 8.2 d(m)": -A ** 2 * sp.exp(-A * M / NB) * M * (1 / NB) * (1 - 1 / NB) / 2,
    "Section 8.2 d'(m)": sp.exp(-A * M / NB) * (A * M / NB - 1),
    "Section 9 u65, u80": sp.Matrix([ut.PRINTED_SECTION9["u65"], ut.PRINTED_SECTION9["u80"]]),
}


def _loader(evidence: str):
    """Decorate a zero-argument function as an input of a check, named ``evidence`` in the ledger."""

    def decorate(function):
        function.evidence = evidence
        return function

    return decorate


def _printed(key: str):
    return _loader(f"printed: {key}")(lambda: PRINTED[key])


# ----------------------------------------------------------------------------------------------
# Printed formulas against derivations
# ----------------------------------------------------------------------------------------------

def _text(expr) -> str:
    """A derivation in one line (``^`` for powers, ``·`` for products: no ``*`` for markdown to read as
    emphasis), the rows of a matrix separated by ``;``."""
    if isinstance(expr, sp.MatrixBase):
        rows = (expr.row(i) for i in range(expr.rows))
        return "; ".join(_text(row[0]) if row.cols == 1 else "(" + ", ".join(map(_text, row)) + ")" for row in rows)
    return sp.sstr(expr).replace("**", "^").replace("*", "·")


def identical(derived, printed) -> bool:
    """True when sympy proves ``derived − printed = 0`` (entrywise for matrices).

    A difference sympy does not simplify to zero is evaluated at a few integer points: it must be
    non-zero at one of them, so that a simplification failure is never read as an erratum.
    """
    if isinstance(derived, sp.MatrixBase) or isinstance(printed, sp.MatrixBase):
        derived, printed = sp.Matrix(derived), sp.Matrix(printed)
        if derived.shape != printed.shape:
            return False
        differences = [sp.simplify(d - p) for d, p in zip(derived, printed)]
    else:
        differences = [sp.simplify(sp.sympify(derived) - sp.sympify(printed))]
    remaining = [d for d in differences if d != 0]
    if not remaining:
        return True
    rng = np.random.default_rng(0)
    for difference in remaining:
        symbols = sorted(difference.free_symbols, key=str)
        for _ in range(8):
            point = {s: sp.Integer(int(v)) for s, v in zip(symbols, rng.integers(1, 7, size=len(symbols)))}
            value = sp.N(difference.subs(point))
            if value.is_number and value != 0 and value.is_finite:
                return False
    raise ValueError(f"sympy could not decide whether {remaining[0]} vanishes")


def same_formula(derived, printed) -> Finding:
    """A formula as printed against the book's derivation: reproduced when identical, erratum when not."""
    if identical(derived, printed):
        return Finding(book=_text(derived), detail=f"derived {_text(derived)}, identical to the printed formula",
                       verdict="reproduced")
    return Finding(book=_text(derived), detail=f"derived {_text(derived)}; printed {_text(printed)}", verdict="erratum")


def _shifted(expr):
    return expr.applyfunc(lambda e: e + DELTA) if isinstance(expr, sp.MatrixBase) else expr + DELTA


def _flip_formula(derived, printed) -> dict:
    """Altered inputs: the derivation shifted by ``delta`` where it agrees with the printed formula,
    the printed formula replaced by the derivation where not."""
    if identical(derived, printed):
        return {"derived": _shifted(derived), "printed": printed}
    return {"derived": derived, "printed": derived}


def formula(name: str, derive, printed_key: str) -> None:
    """Register check ``name``: :func:`same_formula` of ``derive()`` and ``PRINTED[printed_key]``."""
    check(name, inputs={"derived": derive, "printed": _printed(printed_key)}, mutate=_flip_formula)(same_formula)


# Section 1, 4 and Proposition 1: the vacuous and the random classifier ---------------------------

@_loader("credalbook.book.theory.betting.vacuous_random_moments(2)")
def random_mean_binary():
    return betting.vacuous_random_moments(2).set_index("classifier").loc["random", "mean"]


@_loader("credalbook.book.theory.betting.vacuous_random_moments()")
def vacuous_and_random_means():
    return sp.Matrix(list(betting.vacuous_random_moments()["mean"]))


@_loader("credalbook.book.theory.betting.vacuous_random_moments()['variance'] of the vacuous classifier")
def vacuous_variance():
    return betting.vacuous_random_moments().set_index("classifier").loc["vacuous", "variance"]


@_loader("credalbook.book.theory.betting.theorem1_derivation()")
def theorem1_bounds():
    derivation = betting.theorem1_derivation()
    return sp.Matrix([derivation["lower"], derivation["upper"]])


@_loader("credalbook.book.theory.betting.sure_reward_strategies(k), k = 2..6")
def sure_reward_strategies():
    return sp.Matrix([value for k in range(2, 7) for solution in betting.sure_reward_strategies(k)
                      for value in solution.values()])


@_loader("credalbook.book.theory.betting.extended_reward_matrix(n).shape, n = 2..7")
def reward_matrix_shapes():
    return sp.Matrix([[len(frame), frame.shape[1] - 1] for frame in
                      (betting.extended_reward_matrix(n) for n in range(2, 8))])


@_loader("credalbook.book.theory.utility.proposition1_gap(x)")
def linear_gap():
    return sp.simplify(ut.proposition1_gap(X))


formula("zaffalon2012.random-binary-half", random_mean_binary, "1/2")
formula("zaffalon2012.vacuous-random-same", vacuous_and_random_means, "1/n, 1/n")
formula("zaffalon2012.vacuous-zero-variance", vacuous_variance, "variance of the vacuous classifier")
formula("zaffalon2012.theorem1-value", theorem1_bounds, "1/k, 1/k")
formula("zaffalon2012.theorem1-sure-reward", sure_reward_strategies, "sigma_i = 1/k, k = 2..6")
formula("zaffalon2012.reward-matrix-size", reward_matrix_shapes, "(2^n - 1) x n, n = 2..7")
formula("zaffalon2012.risk-neutral-no-premium", linear_gap, "risk neutral: no value")


@_loader("the paper's utilities: u65, u80, log(1 + x), 1 - exp(-a x), F1, F2")
def paper_utilities():
    return {"u65": U65, "u80": U80, "log(1+x)": ut.log_utility(), "1-exp(-ax)": ut.exponential_utility(),
            "F1": ut.f_beta_utility(1), "F2": ut.f_beta_utility(2)}


def _with_linear(utilities) -> dict:
    """Altered input: the linear utility (risk neutral) among the strictly concave ones."""
    return {"utilities": {**utilities, "linear": X}}


@check("zaffalon2012.proposition1", inputs={"utilities": paper_utilities}, mutate=_with_linear)
def proposition1(utilities: dict) -> Finding:
    """Proposition 1: ``E[u(v)] > E[u(r)]`` for every utility (:func:`credalbook.book.theory.utility.check_proposition1`)."""
    proved = {name: ut.check_proposition1(u) for name, u in utilities.items()}
    failing = [name for name, ok in proved.items() if not ok]
    return Finding(book=not failing, detail=f"u'' < 0 proved, so u(1/n) > u(1)/n + (1 - 1/n) u(0) for every n >= 2, "
                                            f"for {sum(proved.values())} of {len(proved)} utilities"
                                            + (f"; not for {', '.join(failing)}" if failing else ""))


# Theorem 1's proof: the domain of House's strategies (the referees' audit) ---------------------------

def game_value(n: int, k: int, house: np.ndarray) -> float:
    """max over Bettor's σ in the (n − 1)-simplex of min over House's θ in the hull of the rows of
    ``house`` of Σ_{i ∈ K} σ_i θ_i, with K the first ``k`` classes (a linear program)."""
    from scipy.optimize import linprog

    house = np.asarray(house, dtype=float)
    gain = house[:, :k]   # gain of σ against vertex θ: Σ_{i<k} σ_i θ_i
    # variables (σ_1..σ_n, t): maximise t subject to t <= gain·σ[:k] for every vertex, Σσ = 1, σ >= 0
    a_ub = np.hstack([-gain, np.zeros((len(house), n - k)), np.ones((len(house), 1))])
    result = linprog(c=np.r_[np.zeros(n), -1.0], A_ub=a_ub, b_ub=np.zeros(len(house)),
                     A_eq=np.r_[np.ones(n), 0.0][None, :], b_eq=[1.0], bounds=[(0, None)] * n + [(None, None)])
    if not result.success:
        raise RuntimeError(f"the game's linear program failed: {result.message}")
    return float(-result.fun)


@_loader("Theorem 1's proof: House's θ in the (n − 1)-simplex (vertices e_1..e_n), n = 2..6, k = 1..n − 1")
def theorem1_proof_domains() -> list[tuple[int, int, np.ndarray]]:
    """(n, k, vertices of House's domain) as the proof states it: θ ∈ Δ, the (n − 1)-simplex, for k < n."""
    return [(n, k, np.eye(n)) for n in range(2, 7) for k in range(1, n)]


def _house_on_k(domains: list) -> dict:
    """Altered input: House's θ restricted to the simplex over K (θ_j = 0 for j ∉ K), as the definition says."""
    return {"domains": [(n, k, np.eye(n)[:k]) for n, k, _ in domains]}


@check("zaffalon2012.theorem1-domain", inputs={"domains": theorem1_proof_domains}, mutate=_house_on_k)
def theorem1_domain(domains: list) -> Finding:
    """Theorem 1's proof: the max–min over the domain it states gives the value 1/k it derives, for every
    n and k < n (where the (n − 1)-simplex holds θ outside K)."""
    values = [(n, k, game_value(n, k, house)) for n, k, house in domains]
    wrong = [(n, k, v) for n, k, v in values if abs(v - 1 / k) > 1e-9]
    detail = f"game value 1/k in {len(values) - len(wrong)} of {len(values)} (n, k)"
    if wrong:
        n, k, v = wrong[0]
        detail += f"; e.g. n = {n}, k = {k}: {v if abs(v) > 1e-12 else 0.0:.3g}, not 1/{k} (House plays θ = e_j with j ∉ K)"
    return Finding(book="1/k" if not wrong else "0", detail=detail, verdict="erratum" if wrong else "reproduced",
                   severity="misprint" if wrong else None)


# Section 4: the K-random classifier as the baseline ----------------------------------------------

@_loader("random set-valued predictions (5 classes, 2000 instances, seed 4)")
def random_set_predictions():
    rng = np.random.default_rng(4)
    y_set = rng.random((2000, 5)) < 0.4
    y_set[np.arange(2000), rng.integers(0, 5, 2000)] = True
    return rng.integers(0, 5, 2000), y_set


def k_random_expected_accuracy(y_true, y_set) -> np.ndarray:
    """Expected accuracy of the K-random classifier: the mean over the members of each set of ``[member == y]``."""
    return np.array([np.mean(np.flatnonzero(row) == label) for label, row in zip(y_true, y_set)])


@_loader("credalbook.metrics.discounted_accuracy_scores")
def discounted_accuracy_metric():
    return metrics.discounted_accuracy_scores


def _recall_instead(predictions, score) -> dict:
    """Altered input: the recall (1 for every successful set) in place of discounted accuracy."""
    return {"predictions": predictions, "score": metrics.recall_set_scores}


@check("zaffalon2012.k-random-baseline",
       inputs={"predictions": random_set_predictions, "score": discounted_accuracy_metric}, mutate=_recall_instead)
def k_random_baseline(predictions, score) -> Finding:
    """Section 4: a credal prediction is scored exactly as the K-random classifier's expected accuracy."""
    y_true, y_set = predictions
    gap = np.abs(score(y_true, y_set) - k_random_expected_accuracy(y_true, y_set)).max()
    return Finding(book=bool(gap < 1e-12), detail=f"largest difference between the score and the K-random classifier's "
                                                  f"expected accuracy over {len(y_true)} predictions: {gap:.3g}")


NCC_UCI = stored("zaffalon2012_ncc_uci")


def ncc_beats_nbc_share(results: pd.DataFrame) -> tuple[float, int]:
    """Share of data sets (no feature selection) where NCC's mean discounted accuracy exceeds NBC's mean
    accuracy, and the number of data sets."""
    means = results[~results["feature_selection"].astype(bool)].groupby("dataset")[
        ["ncc_discounted_accuracy", "nbc_accuracy"]].mean()
    return float((means["ncc_discounted_accuracy"] > means["nbc_accuracy"]).mean()), len(means)


def _swap_ncc_nbc(results) -> dict:
    """Altered input: NCC's discounted accuracy and NBC's accuracy exchanged."""
    return {"results": results.rename(columns={"ncc_discounted_accuracy": "nbc_accuracy",
                                               "nbc_accuracy": "ncc_discounted_accuracy"})}


def _ncc_halved(results) -> dict:
    """Altered input: NCC's discounted accuracy halved."""
    return {"results": results.assign(ncc_discounted_accuracy=results["ncc_discounted_accuracy"] / 2)}


#: "Does not happen as rarely as one could imagine": the verdict policy's quantifier "not rarely".
NOT_RARE = policy.share_threshold("does not happen as rarely as one could imagine")


@check("zaffalon2012.credal-beats-determinate-not-rare", inputs={"results": NCC_UCI}, mutate=_ncc_halved)
def credal_beats_determinate_not_rare(results: pd.DataFrame) -> Finding:
    """Section 4 (journal): NCC above NBC under discounted accuracy on at least 10 % of the data sets."""
    share, datasets = ncc_beats_nbc_share(results)
    return Finding(book=share >= NOT_RARE, detail=f"NCC's discounted accuracy exceeds NBC's accuracy on "
                                                  f"{share * datasets:.0f} of {datasets} data sets ({share:.0%})")


@check("zaffalon2011.credal-almost-never-superior", inputs={"results": NCC_UCI}, mutate=_swap_ncc_nbc)
def credal_almost_never_superior(results: pd.DataFrame) -> Finding:
    """Section 4 (conference): the share of data sets where NCC is *not* above NBC under discounted accuracy."""
    share, datasets = ncc_beats_nbc_share(results)
    return Finding(book=1 - share, detail=f"NCC's discounted accuracy exceeds NBC's accuracy on "
                                          f"{share * datasets:.0f} of {datasets} data sets ({share:.0%})")


# Section 5: utility-discounted accuracy, Eq. (2) ---------------------------------------------------

@_loader("credalbook.metrics.utility_discounted_accuracy_scores(u=0.65)")
def u65_metric():
    return lambda y_true, y_set: metrics.utility_discounted_accuracy_scores(y_true, y_set, u=0.65)


@_loader("credalbook.book.theory.betting.extended_reward_matrix(5, u65)")
def u65_reward_matrix():
    return betting.extended_reward_matrix(5, sp.lambdify(X, U65, "numpy"))


def _matrix_without_utility(predictions, score, matrix) -> dict:
    """Altered input: the extended reward matrix of discounted accuracy, without the utility."""
    return {"predictions": predictions, "score": score, "matrix": betting.extended_reward_matrix(5)}


@check("zaffalon2012.pointwise-utility-matrix",
       inputs={"predictions": random_set_predictions, "score": u65_metric, "matrix": u65_reward_matrix},
       mutate=_matrix_without_utility)
def pointwise_utility_matrix(predictions, score, matrix: pd.DataFrame) -> Finding:
    """Section 5: utility-discounted accuracy scores each prediction by the entry of ``u`` applied point-wise to
    the extended reward matrix."""
    y_true, y_set = predictions
    rows = matrix.set_index("prediction")
    labels = ["{" + ",".join(str(c + 1) for c in np.flatnonzero(row)) + "}" if row.sum() > 1
              else str(np.flatnonzero(row)[0] + 1) for row in y_set]
    looked_up = np.array([rows.loc[label, f"actual_{c + 1}"] for label, c in zip(labels, y_true)])
    gap = np.abs(score(y_true, y_set) - looked_up).max()
    return Finding(book=bool(gap < 1e-12), detail=f"largest difference between the metric and the entry of the "
                                                  f"{len(rows)} x 5 matrix over {len(y_true)} predictions: {gap:.3g}")


@_loader("credalbook.book.theory.utility.expected_taylor_polynomial(3)")
def eq2_derived():
    return ut.expected_taylor_polynomial(3)


@_loader("credalbook.book.theory.utility.eq2_error(generic quadratic, 2..4 outcomes)")
def eq2_quadratic_errors():
    return sp.Matrix([ut.eq2_error(ut.generic_quadratic(), outcomes) for outcomes in (2, 3, 4)])


formula("zaffalon2012.eq2-taylor", eq2_derived, "Eq. (2)")
formula("zaffalon2012.eq2-exact-quadratic", eq2_quadratic_errors, "Eq. (2) exact for quadratics, 2..4 outcomes")

EQ2_UTILITIES = {"log(1+x)": ut.log_utility(), "1-exp(-2x)": ut.exponential_utility(2),
                 "1-exp(-5x)": ut.exponential_utility(5)}
EQ2_YARDSTICK = 0.01   # "very accurate": the paper's own yardstick of Section 8, a relative error below 1 %


@_loader("credalbook.book.theory.utility.eq2_relative_errors(log, exp a = 2, 5; 4 classes, 2000 classifiers, seed 5)")
def eq2_errors():
    return ut.eq2_relative_errors(EQ2_UTILITIES, n_classes=4, draws=2000, seed=5)


def _errors_divided(errors) -> dict:
    """Altered input: every relative error divided by 100."""
    return {"errors": errors.assign(rel_error=errors["rel_error"] / 100)}


@check("zaffalon2012.eq2-very-accurate", inputs={"errors": eq2_errors}, mutate=_errors_divided)
def eq2_very_accurate(errors: pd.DataFrame) -> Finding:
    """Sections 5, 7: share of (utility, random classifier) pairs where Eq. (2) is within 1 % of ``E[u(h)]``."""
    below = errors["rel_error"] < EQ2_YARDSTICK
    per_utility = below.groupby(errors["utility"], sort=False).mean()
    return Finding(book=float(below.mean()), detail="share within 1 %: " + ", ".join(
        f"{name} {share:.0%}" for name, share in per_utility.items())
        + f"; largest relative error {errors['rel_error'].max():.0%}")


@_loader("credalbook.book.theory.utility.certainty_equivalent_quadratic(0.65 and 0.8)")
def certainty_equivalents():
    return {"u65": ut.certainty_equivalent_quadratic(0.65), "u80": ut.certainty_equivalent_quadratic(0.8)}


def _other_root(inverses) -> dict:
    """Altered input: u80 inverted on the branch that does not pass through the origin."""
    y = sp.Symbol("y", nonnegative=True)
    other = [root for root in sp.solve(sp.Eq(U80, y), X) if sp.simplify(root - inverses["u80"]) != 0]
    return {"inverses": {**inverses, "u80": other[0]}}


@check("zaffalon2012.certainty-equivalent-range", inputs={"inverses": certainty_equivalents}, mutate=_other_root)
def certainty_equivalent_range(inverses: dict) -> Finding:
    """Section 5: ``u^{-1}(E[u(h)])`` lies in [0, 1] for every expected utility in [0, 1] (u65, u80)."""
    y = sp.Symbol("y", nonnegative=True)
    values = {name: np.array([float(sp.re(inverse.subs(y, t))) for t in np.linspace(0, 1, 41)])
              for name, inverse in inverses.items()}
    inside = all(((v >= -1e-12) & (v <= 1 + 1e-12)).all() for v in values.values())
    return Finding(book=inside, detail="; ".join(f"{name}: certainty equivalents from {v.min():.3f} to {v.max():.3f}"
                                                  for name, v in values.items())
                   + " (u80 reaches 1 at x = 5/6, so its certainty equivalent is 5/6 for a perfect classifier)")


# Section 7: variances and determinacy --------------------------------------------------------------

H4 = ut.generic_outcome_model(4, "H")


@_loader("credalbook.book.theory.utility.variance_identities(4 classes)")
def variance_equalities():
    identities = ut.variance_identities(H4)
    return sp.Matrix([identities["second_moment_split"], identities["determinate_0_1"]])


@_loader("credalbook.book.theory.utility.variance_identities(4 classes)['indeterminate_gap']")
def indeterminate_gap():
    return ut.variance_identities(H4)["indeterminate_gap"]


def _negated(**inputs) -> dict:
    """Altered inputs: every expression negated."""
    return {key: [-e for e in value] if isinstance(value, list) else -value for key, value in inputs.items()}


@check("zaffalon2012.indeterminate-second-moment", inputs={"gap": indeterminate_gap}, mutate=_negated)
def indeterminate_second_moment(gap: sp.Expr) -> Finding:
    """Section 7: ``E[h_I] − E[h_I^2] >= 0``, zero only when no indeterminate prediction is successful."""
    no_indeterminate_success = {s: 0 for s in H4.success[1:]}
    holds = bool(gap.is_nonnegative) and gap != 0 and sp.simplify(gap.subs(no_indeterminate_success)) == 0
    return Finding(book=holds, detail=f"E[h_I] - E[h_I^2] = {_text(gap)} (4 classes)")


formula("zaffalon2012.variance-identities", variance_equalities, "E[h^2] = E[h_D^2] + E[h_I^2], E[h_D^2] = E[h_D]")


@_loader("credalbook.book.theory.utility.delta_var(F, G), 4 classes")
def delta_var_generic():
    return ut.delta_var(ut.generic_outcome_model(4, "F"), ut.generic_outcome_model(4, "G"))


@_loader("Eq. (3) as printed, E[g_D] + E[g_I^2] - E[f_D] - E[f_I^2], on the same models")
def eq3_as_printed():
    return ut.eq3_rhs(ut.generic_outcome_model(4, "F"), ut.generic_outcome_model(4, "G"))


check("zaffalon2012.eq3", inputs={"derived": delta_var_generic, "printed": eq3_as_printed},
      mutate=_flip_formula)(same_formula)


@_loader("credalbook.book.theory.utility.proposition2_delta_var(n), n = 2..5")
def proposition2_delta_vars():
    return [ut.proposition2_delta_var(n) for n in range(2, 6)]


@check("zaffalon2012.proposition2", inputs={"delta_vars": proposition2_delta_vars}, mutate=_negated)
def proposition2(delta_vars: list) -> Finding:
    """Proposition 2: ``Var[g] − Var[f] >= 0``, not identically zero, for a credal ``f`` and a precise ``g`` with
    equal means."""
    holds = all(bool(d.is_nonnegative) and d != 0 for d in delta_vars)
    return Finding(book=holds, detail=f"Var[g] - Var[f] = {_text(delta_vars[1])} (3 classes), a non-negative "
                                      "combination of probabilities, positive when an indeterminate prediction succeeds")


@_loader("credalbook.book.theory.utility.proposition3_delta_var()[0]")
def proposition3_derived():
    return ut.proposition3_delta_var()[0]


@_loader("Proposition 3 as printed, (n - 1)/n^2 (P(G_D) - P(F_D)), under equal means")
def proposition3_printed():
    return ut.proposition3_delta_var()[1]


check("zaffalon2012.proposition3", inputs={"derived": proposition3_derived, "printed": proposition3_printed},
      mutate=_flip_formula)(same_formula)


def _example1(key: str):
    return _loader(f"credalbook.book.theory.utility.example1_differences()[{key!r}]")(lambda: ut.example1_differences()[key])


formula("zaffalon2012.example1-equal-means", _example1("mean"), "E[f] - E[g]")
formula("zaffalon2012.example1-second-moment", _example1("second_moment"), "E[f^2] - E[g^2]")
formula("zaffalon2012.example1-delta-var", _example1("delta_var (Var g - Var f)"), "Var[g] - Var[f]")
formula("zaffalon2012.example1-determinacy", _example1("determinacy"), "P(D_f) - P(D_g)")
formula("zaffalon2012.example1-expected-size", _example1("expected_size"), "expected size f - g")


# Section 8: over the next m bets --------------------------------------------------------------------

LOG, EXP = ut.log_utility(), ut.exponential_utility()


@_loader("credalbook.book.theory.mbets.binomial_term()")
def binomial_pmf():
    return mbets.binomial_term()


@_loader("u(0) Bin(0; m, 1/n) for u = log(1 + x), 1 - exp(-a x)")
def eq6_zero_terms():
    return sp.Matrix([u.subs(X, 0) * mbets.binomial_term().subs(L, 0) for u in (LOG, EXP)])


def _loader_of(evidence: str, function, *args):
    return _loader(evidence)(lambda: function(*args))


formula("zaffalon2012.eq6-binomial-term", binomial_pmf, "Eq. (6) term")
formula("zaffalon2011.eq7-binomial-term", binomial_pmf, "Eq. (7) term (conference)")
formula("zaffalon2012.eq6-sum-from-one", eq6_zero_terms, "Eq. (6) from l = 1: l = 0 terms (log, exp)")
formula("zaffalon2012.log-second-order", _loader_of("credalbook.book.theory.mbets.second_order_expected_utility(log)",
                                                 mbets.second_order_expected_utility, LOG), "Section 8.1 E[u(r_m)]")
D_LOG = _loader_of("credalbook.book.theory.mbets.d_second_order(log)", mbets.d_second_order, LOG)
D_EXP = _loader_of("credalbook.book.theory.mbets.d_second_order(exp)", mbets.d_second_order, EXP)
formula("zaffalon2012.eq7-log-d", D_LOG, "Eq. (7)")
formula("zaffalon2011.eq8-log-d", D_LOG, "Eq. (8) (conference)")


@_loader("d_second_order(log) / (m/(m/n + 1)^2)")
def eq7_constant():
    return sp.simplify(mbets.d_second_order(LOG) / (M / (M / NB + 1) ** 2))


@_loader("derivative in m of d_second_order(log) / constant, and times (m/n + 1)^3")
def eq8_derivative():
    shape = sp.simplify(mbets.d_second_order(LOG) / PRINTED["Eq. (7) constant"])
    derivative = sp.diff(shape, M)
    return sp.Matrix([derivative, sp.simplify(derivative * (M / NB + 1) ** 3)])


formula("zaffalon2012.eq7-proportional", eq7_constant, "Eq. (7) constant")
formula("zaffalon2012.eq8-log-derivative", eq8_derivative, "Eq. (8)")
formula("zaffalon2012.log-inversion-point",
        _loader_of("credalbook.book.theory.mbets.inversion_points(log)", lambda: sp.Matrix(mbets.inversion_points(LOG))),
        "m = n")
formula("zaffalon2012.exp-inversion-point",
        _loader_of("credalbook.book.theory.mbets.inversion_points(exp)", lambda: sp.Matrix(mbets.inversion_points(EXP))),
        "m = n/a")


@_loader("limits m -> oo of d_second_order(log), d_second_order(exp)")
def d_limits():
    return sp.Matrix([sp.limit(mbets.d_second_order(u), M, sp.oo) for u in (LOG, EXP)])


formula("zaffalon2012.d-vanishes-for-many-bets", d_limits, "d(m) -> 0 (log, exp)")
formula("zaffalon2012.exp-second-order", _loader_of("credalbook.book.theory.mbets.second_order_expected_utility(exp)",
                                                 mbets.second_order_expected_utility, EXP), "Section 8.2 E[u(r_m)]")
formula("zaffalon2012.exp-d-sign", D_EXP, "Section 8.2 d(m)")


@_loader("derivative in m of d_second_order(exp) / (a^2/2 (1/n)(1 - 1/n))")
def exp_d_derivative():
    return sp.simplify(sp.diff(mbets.d_second_order(EXP) / (A ** 2 / 2 * (1 / NB) * (1 - 1 / NB)), M))


formula("zaffalon2012.exp-d-derivative", exp_d_derivative, "Section 8.2 d'(m)")


def _positive_when(expr: sp.Expr, substitution: dict) -> bool:
    """True when sympy proves ``expr`` positive after ``substitution`` (new symbols non-negative)."""
    return bool(sp.factor(sp.simplify(expr.subs(substitution))).is_positive)


J, T = sp.Symbol("j", nonnegative=True), sp.Symbol("t", positive=True)
N_CLASSES = {NB: 2 + J}   # n >= 2 classes


@check("zaffalon2012.log-more-classes-delay", inputs={"d": D_LOG}, mutate=_negated)
def log_more_classes_delay(d: sp.Expr) -> Finding:
    """Section 8.1: past its inversion point (``m >= n``) ``d(m)`` grows with ``n``, and the inversion point ``n`` too."""
    points = sp.solve(sp.diff(d, M), M)
    later = len(points) == 1 and _positive_when(sp.diff(points[0], NB), N_CLASSES)
    larger_tail = _positive_when(sp.diff(d, NB), {M: NB + sp.Symbol("s", nonnegative=True), **N_CLASSES})
    return Finding(book=bool(later and larger_tail),
                   detail=f"inversion point {_text(points)}; dd/dn = {_text(sp.factor(sp.diff(d, NB)))}, "
                          "positive for m > n - 2")


@_loader("credalbook.book.theory.mbets.mbets_table('exp', m = 80, n = 10, a = 0.5, 1, 2)['d_exact']")
def exact_d_many_bets():
    return pd.concat([mbets.mbets_table("exp", [80], [10], a=a) for a in (0.5, 1.0, 2.0)], ignore_index=True)


def _risk_aversion_inverted(d, **others) -> dict:
    """Altered input: ``a`` replaced by ``1/a`` in ``d`` (a coefficient that falls as risk aversion grows)."""
    return {"d": d.subs(A, 1 / A), **others}


@check("zaffalon2012.exp-risk-aversion-delays", inputs={"d": D_EXP, "exact": exact_d_many_bets},
       mutate=_risk_aversion_inverted)
def exp_risk_aversion_delays(d: sp.Expr, exact: pd.DataFrame) -> Finding:
    """Section 8.2: does higher risk aversion ``a`` delay the convergence of the expected utilities?

    The inversion point ``m = n/a`` moves *earlier* as ``a`` grows, and past ``2n/a`` the difference
    ``d(m)`` falls with ``a`` (it decays as ``exp(−a m/n)``): the paper's own formula contradicts
    the sentence.
    """
    point = sp.solve(sp.diff(d, M), M)[0]
    later = _positive_when(sp.diff(point, A), N_CLASSES)
    tail = sp.factor(sp.diff(d, A).subs(M, 3 * point))
    detail = (f"inversion point m = {_text(point)}, d/da = {_text(sp.factor(sp.diff(point, A)))}; "
              f"at m = 3n/a, dd/da = {_text(tail)}; exact d(80) for n = 10: "
              + ", ".join(f"{r.d_exact:.2g} (a = {r.a:g})" for r in exact.itertuples()))
    return Finding(book=later, detail=detail, verdict=None if later else "erratum")


@check("zaffalon2012.exp-risk-aversion-small-m", inputs={"d": D_EXP}, mutate=_risk_aversion_inverted)
def exp_risk_aversion_small_m(d: sp.Expr) -> Finding:
    """Section 8.2: up to the inversion point (``m = t n/a``, ``0 < t <= 1``) ``d(m)`` grows with ``a``."""
    point = sp.solve(sp.diff(d, M), M)[0]
    derivative = sp.diff(d, A).subs(M, T * point)
    holds = _positive_when(derivative.subs(T, 1 / (1 + J)), N_CLASSES)
    return Finding(book=holds, detail=f"dd/da at m = t n/a: {_text(sp.factor(derivative))}")


def mbets_worst_cells(grid: pd.DataFrame, threshold: float = 0.01) -> str:
    """One line: share of the grid below ``threshold`` and the worst cell of each utility."""
    summary = mbets.summarise_relative_errors(grid, threshold)
    worst = "; ".join(f"{r.utility}{'' if pd.isna(r.a) else f' a = {r.a:g}'}: {r.max_rel_error_E_u:.1%} at m = {r.at_m}, "
                      f"n = {r.at_n}" for r in summary.itertuples())
    share = float((grid["rel_error_expected_utility"] < threshold).mean())
    return f"{share:.1%} of {len(grid)} cells below 1 %; worst {worst}"


@_loader("credalbook.book.theory.mbets.book_error_grid()")
def error_grid():
    return mbets.book_error_grid()


def _many_bets_only(grid) -> dict:
    """Altered input: only the cells with at least 7 bets per class (m >= 7 n)."""
    return {"grid": grid[grid["m"] >= 7 * grid["n"]]}


@check("zaffalon2012.mbets-error-below-1pct", inputs={"grid": error_grid}, mutate=_many_bets_only)
def mbets_error_below_1pct(grid: pd.DataFrame) -> Finding:
    """Section 8: the second-order ``E[u(r_m)]`` within 1 % of the exact binomial sum in every cell of the grid."""
    worst = float(grid["rel_error_expected_utility"].max())
    return Finding(book=worst < 0.01, detail=mbets_worst_cells(grid))


# Section 9: choosing the utility ---------------------------------------------------------------------

formula("zaffalon2012.u50-is-discounted-accuracy",
        _loader_of("credalbook.book.theory.utility.quadratic_through(1/2)", ut.quadratic_through, sp.Rational(1, 2)),
        "u50 = x")
formula("zaffalon2012.section9-quadratic-labels",
        _loader_of("credalbook.book.theory.utility.quadratic_through(0.65, 0.8)", lambda: sp.Matrix([U65, U80])),
        "Section 9 u65, u80")


@_loader("credalbook.book.theory.utility.quadratic_through(u_{1/2})")
def quadratic_family():
    return ut.quadratic_through(U_HALF)


def _u_half_reversed(utility) -> dict:
    """Altered input: the family indexed by ``1 − u_{1/2}``."""
    return {"utility": utility.subs(U_HALF, 1 - U_HALF)}


@check("zaffalon2012.risk-aversion-grows-with-u-half", inputs={"utility": quadratic_family}, mutate=_u_half_reversed)
def risk_aversion_grows_with_u_half(utility: sp.Expr) -> Finding:
    """Section 9: the risk aversion ``−u''`` of the quadratic through (1/2, u_{1/2}) grows with ``u_{1/2}``."""
    aversion = -sp.diff(utility, X, 2)
    slope = sp.diff(aversion, U_HALF)
    return Finding(book=bool(slope.is_positive), detail=f"-u'' = {_text(sp.expand(aversion))}, "
                                                         f"d(-u'')/du_1/2 = {_text(slope)}")


@_loader("credalbook.book.theory.utility.quadratic_through(0.8)")
def u80_utility():
    return U80


def _u65_instead(u) -> dict:
    """Altered input: u65 in place of u80."""
    return {"u": U65}


@check("zaffalon2012.u80-above-one", inputs={"u": u80_utility}, mutate=_u65_instead)
def u80_above_one(u: sp.Expr) -> Finding:
    """Section 9: u80 exceeds 1 somewhere between 0.5 and 1, and only slightly (by less than 5 %)."""
    above = sp.solveset(u - 1 > 0, X, sp.Interval(0, 1))
    peak = sp.maximum(u, X, sp.Interval(0, 1))
    between_half_and_one = above.is_subset(sp.Interval.open(sp.Rational(1, 2), 1))
    holds = (not above.is_empty) and between_half_and_one and peak - 1 < sp.Rational(1, 20)
    return Finding(book=bool(holds), detail=f"u > 1 on {above}, maximum {peak}")


@_loader("the rewards of discounted accuracy, 0 and 1/k for k = 1..50")
def reward_values():
    return [sp.Integer(0)] + [sp.Rational(1, k) for k in range(1, 51)]


def _with_reward_in_gap(rewards) -> dict:
    """Altered input: a reward of 11/12 (where u80 peaks above 1) among the possible ones."""
    return {"rewards": [*rewards, sp.Rational(11, 12)]}


@check("zaffalon2012.u80-excess-never-used", inputs={"rewards": reward_values}, mutate=_with_reward_in_gap)
def u80_excess_never_used(rewards: list) -> Finding:
    """Section 9: no reward lies in (1/2, 1), so u65 and u80 take values in [0, 1] on every reward."""
    in_gap = [r for r in rewards if sp.Rational(1, 2) < r < 1]
    values = [u.subs(X, r) for u in (U65, U80) for r in rewards]
    holds = not in_gap and all(0 <= v <= 1 for v in values)
    return Finding(book=holds, detail=f"{len(in_gap)} rewards in (1/2, 1); u65 and u80 on the rewards range over "
                                      f"[{min(values)}, {max(values)}]")


@_loader("credalbook.book.theory.utility.absolute_risk_aversion(u65, u80)")
def quadratic_utilities():
    return {"u65": U65, "u80": U80}


def _exponential_instead(utilities) -> dict:
    """Altered input: the exponential utility (constant absolute risk aversion) in place of the quadratics."""
    return {"utilities": {"exp": ut.exponential_through(0.8)}}


@check("zaffalon2012.quadratic-risk-aversion-grows", inputs={"utilities": quadratic_utilities},
       mutate=_exponential_instead)
def quadratic_risk_aversion_grows(utilities: dict) -> Finding:
    """Section 9: the absolute risk aversion ``−u''/u'`` of a quadratic utility increases with the reward (wealth)."""
    details, holds = [], True
    for name, u in utilities.items():
        aversion = ut.absolute_risk_aversion(u)
        increasing_up_to = min([sp.Integer(1), *[r for r in sp.solve(sp.diff(u, X), X) if r > 0]])
        falling = sp.solveset(sp.diff(aversion, X) <= 0, X, sp.Interval.Ropen(0, increasing_up_to))
        holds = holds and falling.is_empty
        details.append(f"{name}: -u''/u' = {_text(aversion)}")
    return Finding(book=bool(holds), detail="; ".join(details) + " (increasing while u is)")


@_loader("the values chosen for u(0.5): 0.5, 0.65, 0.8")
def chosen_u_halves():
    return (sp.Rational(1, 2), sp.Rational(13, 20), sp.Rational(4, 5))


def _risk_averse_values_only(u_halves) -> dict:
    """Altered input: only the risk-averse values 0.65 and 0.8."""
    return {"u_halves": tuple(h for h in u_halves if h > sp.Rational(1, 2))}


@check("zaffalon2012.exponential-cannot-fit", inputs={"u_halves": chosen_u_halves}, mutate=_risk_averse_values_only)
def exponential_cannot_fit(u_halves: tuple) -> Finding:
    """Section 9: is there a value of u(0.5) that no exponential utility through (0, 0) and (1, 1) reaches?"""
    fits = {h: ut.exponential_risk_aversions(h) for h in u_halves}
    unmatched = [h for h, a in fits.items() if not a]
    return Finding(book=bool(unmatched), detail="; ".join(
        f"u(0.5) = {float(h):g}: " + (f"a = {_text(a[0])}" if a else "none (only the limit a -> 0, the linear utility)")
        for h, a in fits.items()))


def _constant_sign(beta, u_half) -> int | None:
    try:
        return ut.fbeta_sign(beta, u_half)
    except ValueError:
        return None


@_loader("the utilities u65 and u80")
def u_halves_65_80():
    return (sp.Rational(13, 20), sp.Rational(4, 5))


def _u70_instead_of_u65(u_halves) -> dict:
    """Altered input: the quadratic through u(1/2) = 0.7 in place of u65."""
    return {"u_halves": (sp.Rational(7, 10), u_halves[1])}


@check("zaffalon2012.f1-between-u65-u80", inputs={"u_halves": u_halves_65_80}, mutate=_u70_instead_of_u65)
def f1_between(u_halves: tuple) -> Finding:
    """Section 9.3: ``u65(1/k) <= F1(1/k) <= u80(1/k)`` for every set size ``k`` (signs proved by sympy)."""
    signs = [_constant_sign(1, h) for h in u_halves]
    return Finding(book=signs == [1, -1], detail=f"sign of F1 - u over k >= 2: {signs} "
                                                 "(None: the sign changes with k)")


@_loader("beta = 2")
def beta_two():
    return 2


def _beta_closer_to_one(beta) -> dict:
    """Altered input: beta = 1.2 in place of 2."""
    return {"beta": sp.Rational(6, 5)}


@check("zaffalon2012.f2-rewards-indeterminacy-more", inputs={"beta": beta_two}, mutate=_beta_closer_to_one)
def f2_rewards_more(beta) -> Finding:
    """Section 9.3: ``F_beta(1/k)`` above u65, u80 and F1 for every set size ``k >= 2``."""
    k = sp.Symbol("k", positive=True)
    signs = [_constant_sign(beta, h) for h in (sp.Rational(13, 20), sp.Rational(4, 5))]
    over_f1 = sp.factor((ut.f_beta_utility(beta) - ut.f_beta_utility(1)).subs(X, 1 / k).subs(k, J + 2))
    holds = signs == [1, 1] and bool(over_f1.is_positive)
    return Finding(book=holds, detail=f"sign of F{beta} - u65, F{beta} - u80 over k >= 2: {signs}; "
                                      f"F{beta} - F1 at k = j + 2: {_text(over_f1)}")


@_loader("the rival F-measure: beta = 2")
def rival_beta():
    return 2


def _rival_beta_five(rival) -> dict:
    """Altered input: F5 as the rival of F1."""
    return {"rival": 5}


@check("zaffalon2012.f1-closer-than-f2", inputs={"rival": rival_beta}, mutate=_rival_beta_five)
def f1_closer(rival) -> Finding:
    """Section 9.3: ``|F1(1/k) − u(1/k)| < |F_rival(1/k) − u(1/k)|`` for u65 and u80 at every set size ``k >= 2``.

    The statement has two parts, closer to u65 and closer to u80: one holding and not the other is
    ``partly`` (:data:`credalbook.book.ledger.policy.PARTLY`).
    """
    failing = {name: ut.sizes_where_not_closer(1, rival, h) for name, h in
               {"u65": sp.Rational(13, 20), "u80": sp.Rational(4, 5)}.items()}
    bad = {name: sorted(s) for name, s in failing.items() if not s.is_empty}
    values = ", ".join(f"{name}(1/2) = {float(u.subs(X, sp.Rational(1, 2))):.3f}" for name, u in
                       {"F1": ut.f_beta_utility(1), f"F{rival}": ut.f_beta_utility(rival), "u80": U80}.items())
    holding = [name for name in failing if name not in bad]
    verdict = "partly" if bad and holding else None
    return Finding(book=not bad, verdict=verdict,
                   detail=(f"F1 is not the closer at k in {bad}" if bad else "F1 the closer at every k")
                   + (f"; the closer to {', '.join(holding)} at every k" if bad and holding else "") + f" ({values})")


@_loader("credalbook.book.theory.utility.binary_credal_minus_precise()")
def binary_gap():
    return ut.binary_credal_minus_precise()


KRKP_TABLE1 = _loader("published table zaffalon2012_ncc_krkp_table1 (conference Table 1)")(
    lambda: published("zaffalon2012_ncc_krkp_table1"))


def _gap_negated(gap, table) -> dict:
    """Altered input: the derived difference negated (NBC minus NCC)."""
    return {"gap": -gap, "table": table}


PRINTED_BINARY_RULE = "NCC ahead iff u(0.5) < NBC(NCC-I)"


@check("zaffalon2011.binary-u-half-rule", inputs={"gap": binary_gap, "table": KRKP_TABLE1}, mutate=_gap_negated)
def binary_u_half_rule(gap: sp.Expr, table: pd.DataFrame) -> Finding:
    """Conference Section 9: "if u(0.5) < NBC(NCC-I), then NCC produces higher utility than NBC".

    The rule follows from the sign of the derived ``E[u(NCC)] − E[u(NBC)]`` in ``u(0.5) − A_I``; the
    detail applies it to the conference's Table 1 (u(0.5) = 0.65, NBC(NCC-I) as printed), where the
    paper says that NCC "remains slightly superior".
    """
    a_i, p_i = sp.Symbol("A_I", positive=True), sp.Symbol("P_I", positive=True)
    ncc_ahead_for_larger_u_half = sp.sign(gap.subs({U_HALF: 1, a_i: 0, p_i: 1})) > 0
    rule = f"NCC ahead iff u(0.5) {'>' if ncc_ahead_for_larger_u_half else '<'} NBC(NCC-I)"
    u_half = sp.Rational(13, 20)
    accuracies = [sp.Rational(int(v), 100) for v in table["nbc_ncc_i_pct"]]
    derived = [sp.sign(gap.subs({U_HALF: u_half, a_i: accuracy, p_i: 1})) for accuracy in accuracies]
    printed = [sp.sign(accuracy - u_half) for accuracy in accuracies]
    detail = (f"E[u(NCC)] - E[u(NBC)] = {_text(gap)}; at u(0.5) = 0.65 and the NBC(NCC-I) of Table 1 the derivation "
              f"puts NCC ahead at {derived.count(1)} of {len(table)} sizes (tied at {derived.count(0)}), the printed "
              f"rule at {printed.count(1)}")
    return Finding(book=rule, detail=detail, verdict="reproduced" if rule == PRINTED_BINARY_RULE else "erratum")


# ----------------------------------------------------------------------------------------------
# Published tables
# ----------------------------------------------------------------------------------------------

@book_table("zaffalon2012_table2", on=["prediction"], part="I", chapter=BETTING)
def table2() -> pd.DataFrame:
    """Table 2: the extended reward matrix of a binary problem (Theorem 1)."""
    return betting.extended_reward_matrix(2)


@book_table("zaffalon2012_table10", on=["prediction"], part="I", chapter=CHOOSING)
def table10() -> pd.DataFrame:
    """Table 10 with the book's metrics (u65, u80 the quadratics through (1/2, 0.65), (1/2, 0.8))."""
    return ut.table10()


@book_table("zaffalon2012_table10", on=["prediction"], part="I", chapter=CHOOSING, values=["u65", "u80"],
            reading="u65, u80 as printed in Sect. 9")
def table10_as_printed() -> pd.DataFrame:
    """Table 10's u65 and u80 columns with the formulas of Section 9 as printed (labels exchanged)."""
    book = ut.table10()
    return book[["prediction"]].assign(**{label: [float(expr.subs(X, x)) for x in book["precision"]]
                                          for label, expr in ut.PRINTED_SECTION9.items()})


NO_A = "-"   # the key ``a`` of the logarithmic utility in the published tables of Section 8


def _inversion_rows() -> pd.DataFrame:
    return published("zaffalon2012_mbets_inversion")[["utility", "n", "a"]]


def _risk_aversion(a) -> float | None:
    return None if str(a) == NO_A else float(a)


def _utility_of(utility: str, a) -> sp.Expr:
    return LOG if utility == "log" else ut.exponential_utility(_risk_aversion(a))


@book_table("zaffalon2012_mbets_inversion", on=["utility", "n", "a"], part="I", chapter=MBETS)
def inversion_points_second_order() -> pd.DataFrame:
    """Section 8: the stationary point of the second-order ``d(m)`` at the table's ``n`` and ``a``."""
    rows = _inversion_rows()
    return rows.assign(inversion_point=[float(mbets.inversion_points(_utility_of(r.utility, r.a))[0].subs(NB, int(r.n)))
                                        for r in rows.itertuples()])


@book_table("zaffalon2012_mbets_inversion", on=["utility", "n", "a"], part="I", chapter=MBETS,
            reading="exact d(m), integer m")
def inversion_points_exact() -> pd.DataFrame:
    """Section 8: the integer ``m`` maximising the exact ``d(m)`` (binomial sum of Eq. 6)."""
    rows = _inversion_rows()
    return rows.assign(inversion_point=[mbets.exact_argmax_d(r.utility, int(r.n), _risk_aversion(r.a), m_max=400)
                                        for r in rows.itertuples()])


@book_table("zaffalon2012_mbets_error", on=["utility", "a"], part="I", chapter=MBETS, inputs={"grid": error_grid})
def relative_error_shares(grid: pd.DataFrame) -> pd.DataFrame:
    """Section 8: per utility, the share of the book's grid where the second-order ``E[u(r_m)]`` is within 1 %."""
    summary = mbets.summarise_relative_errors(grid, threshold=0.01)
    return pd.DataFrame({"utility": summary["utility"], "a": [NO_A if pd.isna(a) else f"{a:g}" for a in summary["a"]],
                         "share_below_1pct": summary["share_E_u_below"]})


def claims_slice(chapter: str) -> str:
    """The claims a page shows, laid out as :func:`credalbook.book.ledger.report.chapter_slice` does, for a page
    with no published table (``chapter_slice`` fails on a slice without table cells)."""
    rows = ledger(chapter=chapter)
    return markdown_table(rows, {"statement": "the paper says", "section": "where", "published": "paper", "book": "book",
                                 "verdict": "verdict"})
