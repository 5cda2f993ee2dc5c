"""Ledger entries of the book's own results (Part VII): three derived propositions and four measured findings.

These are not claims of a source paper but statements the book makes, entered with the same
discipline: each is decided by a computation (a sympy derivation of
:mod:`credalbook.theory.risk_aversion`, or the stored run ``synthesis_benchmark`` read through
:mod:`credalbook.lenses`), and each check has an altered input under which the statement fails.
"""
from __future__ import annotations

import sympy as sp

from credalbook.experiments import synthesis as sy
from credalbook.ledger.core import Finding, check, stored

__all__ = ["expected_utility_at_mean", "single_crossing", "winner_depends_on_lens",
           "discounted_accuracy_opposes_coverage", "risk_aversion_moves_toward_coverage", "p_discounted_is_u75",
           "cma_best_by_utility_not_by_rank"]

RESULTS = stored(sy.NAME)


def _gap():
    """E[u_V(x)] − u_{E[V]}(x) for v on [1/2, 1] with a Beta of symbolic shapes (sympy.stats)."""
    from credalbook.theory import risk_aversion as theory

    return theory.expected_utility_gap(theory.scaled_beta())


_gap.evidence = "credalbook.theory.risk_aversion.expected_utility_gap(scaled_beta())"


@check("credalbook.expected-utility-at-mean", inputs={"gap": _gap},
       mutate=lambda gap: {"gap": gap + sp.Symbol("delta")})
def expected_utility_at_mean(gap) -> Finding:
    """Proposition R2: the expected utility under an uncertain v is the utility at the mean v (the gap simplifies to 0)."""
    zero = sp.simplify(gap) == 0
    return Finding("E(u_V(x)) = u_E(V)(x)" if zero else f"gap {sp.simplify(gap)}",
                   detail=f"E(u_V(x)) − u_E(V)(x) simplifies to {sp.simplify(gap)}",
                   verdict="reproduced" if zero else "not reproduced")


def _difference():
    from credalbook.theory import risk_aversion as theory

    return theory.difference_line()


_difference.evidence = "credalbook.theory.risk_aversion.difference_line()"


def _squared(difference) -> dict:
    """Altered input: D(v) + v², which can cross zero twice."""
    from credalbook.theory import risk_aversion as theory

    return {"difference": difference + theory.V ** 2}


@check("credalbook.single-crossing", inputs={"difference": _difference}, mutate=_squared)
def single_crossing(difference) -> Finding:
    """Proposition R3: the difference of two classifiers' mean utilities is of degree at most one in v."""
    from credalbook.theory import risk_aversion as theory

    degree = sp.degree(sp.expand(difference), theory.V)
    shown = str(difference).replace("\\Delta_", "Δ").replace("*", "·")
    return Finding(f"degree {degree} in v", detail=f"D(v) = {shown}",
                   verdict="reproduced" if degree <= 1 else "not reproduced")


def _winners(scores):
    from credalbook.lenses import SET_LENSES, friedman_by_lens

    return friedman_by_lens(scores, SET_LENSES, sy.PANEL)


@check("credalbook.winner-depends-on-lens", inputs={"results": RESULTS},
       mutate=lambda results: {"results": _every_lens_like(results, "u65")})
def winner_depends_on_lens(results) -> Finding:
    """Finding: the set lenses do not crown one winner (lowest mean rank) among the panel's classifiers."""
    from credalbook.lenses import dataset_scores

    table = _winners(dataset_scores(results))
    winners = sorted(set(table["best"]))
    detail = "; ".join(f"{lens}: {best}" for lens, best in zip(table["lens"], table["best"]))
    return Finding(len(winners) > 1, detail=f"{len(winners)} winners over {len(table)} set lenses ({detail})")


def _every_lens_like(results, lens: str):
    """Altered input: every set lens given ``lens``'s values (so that all lenses agree)."""
    from credalbook.lenses import LENSES, SET_LENSES

    altered = results.copy()
    for name in SET_LENSES:
        if LENSES[name].pooling == "sum":
            altered[name] = altered[lens] if LENSES[name].higher_is_better else -altered[lens]
    for size in (1, 2, 3):  # size-stratified coverage: one bin holding every instance, covered as lens is large
        altered[f"n_size{size}"] = altered["n"] if size == 1 else 0
        altered[f"covered_size{size}"] = altered[lens] if size == 1 else 0
    return altered


@check("credalbook.discounted-accuracy-opposes-coverage", inputs={"results": RESULTS},
       mutate=lambda results: {"results": results.assign(coverage=results["discounted_accuracy"])})
def discounted_accuracy_opposes_coverage(results) -> Finding:
    """Finding: discounted accuracy and coverage order the panel oppositely (Kendall τ < 0, 95 % interval below 0)."""
    from credalbook.lenses import dataset_scores, rank_agreement

    row = rank_agreement(dataset_scores(results), ["discounted_accuracy", "coverage"], sy.PANEL,
                         n_boot=2000, seed=0).iloc[0]
    return Finding(bool(row["high"] < 0),
                   detail=f"τ = {row['tau']:.3f}, 95 % interval [{row['low']:.3f}, {row['high']:.3f}] over "
                          f"{row['n_datasets']} datasets")


@check("credalbook.risk-aversion-moves-toward-coverage", inputs={"results": RESULTS},
       mutate=lambda results: {"results": results.assign(coverage=results["determinacy"])})
def risk_aversion_moves_toward_coverage(results) -> Finding:
    """Finding: u_v's ranking disagrees with coverage's at v = 1/2 (τ < 0) and agrees with it at v = 0.8 (τ > 0)."""
    from credalbook.lenses import dataset_scores, utility_agreement_path

    path = utility_agreement_path(dataset_scores(results), ["coverage"], sy.PANEL, [0.5, 0.8])
    low, high = path["coverage"]
    return Finding(bool(low < 0 < high), detail=f"τ(u_v, coverage) = {low:.3f} at v = 0.5, {high:.3f} at v = 0.8")


def _p_discounted():
    from credalbook.theory import risk_aversion as theory

    return theory.check_p_discounted_is_a_utility()


_p_discounted.evidence = "credalbook.theory.risk_aversion.check_p_discounted_is_a_utility()"


@check("credalbook.p-discounted-is-u75", inputs={"derivation": _p_discounted},
       mutate=lambda derivation: {"derivation": {**derivation, "r_half_is_u75": False}})
def p_discounted_is_u75(derivation) -> Finding:
    """Proposition R6: with 0/1 costs and r = 1/2, the p-discounted cost is 1 − u75 (sympy)."""
    holds = bool(derivation["r_half_is_u75"] and derivation["matches_power_mean"])
    return Finding("1 − u_3/4(x)" if holds else "differs", detail=f"1 − cost = {derivation['gain']}",
                   verdict="reproduced" if holds else "not reproduced")


def _cma_probabilities(results) -> dict:
    """P(CMA is the best of Part III's four credal classifiers) by mean utility and by mean rank, v centred on
    0.65 and on 0.80 (scaled Betas of concentration 20)."""
    from credalbook import risk_aversion as ra
    from credalbook.experiments import benchmark
    from credalbook.lenses import dataset_scores, utility_lines

    credal = list(benchmark.CREDAL)
    A, B = utility_lines(dataset_scores(results), credal)
    where = credal.index("CMA")
    return {(mean, by): float(ra.probability_best(A.to_numpy(), B.to_numpy(), ra.RiskAversion.from_mean(mean, 20),
                                                  by=by)[where])
            for mean in (0.65, 0.8) for by in ("utility", "rank")}


def _cma_weakened(results):
    """Altered input: CMA's rows made NCC's with u65 and u80 lowered by 0.01 (CMA is then never the best)."""
    altered = results.copy()
    cma = (altered["classifier"] == "CMA").to_numpy()
    ncc = (altered["classifier"] == "NCC").to_numpy()
    for column in ("n", "u65", "u80"):
        altered.loc[cma, column] = altered.loc[ncc, column].to_numpy()
    altered.loc[cma, ["u65", "u80"]] -= 0.01 * altered.loc[cma, ["n"]].to_numpy()
    return altered


@check("credalbook.cma-best-by-utility-not-by-rank", inputs={"results": RESULTS},
       mutate=lambda results: {"results": _cma_weakened(results)})
def cma_best_by_utility_not_by_rank(results) -> Finding:
    """Finding: CMA is the best credal classifier by mean utility with probability above 0.95 whether v is
    centred on 0.65 or 0.80, but by mean rank with probability below 0.75 when v is centred on 0.80."""
    p = _cma_probabilities(results)
    holds = p[(0.65, "utility")] > 0.95 and p[(0.8, "utility")] > 0.95 and p[(0.8, "rank")] < 0.75
    detail = "; ".join(f"v centred on {mean:g}, by {by}: {value:.3f}" for (mean, by), value in p.items())
    return Finding(bool(holds), detail=f"P(CMA best): {detail}")
