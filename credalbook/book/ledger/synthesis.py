"""Ledger entries of the book's own results (Part VII): three derived propositions and the measured findings.

These are not claims of a source paper but statements the book makes, entered with the same
discipline: each is decided by a computation (a sympy derivation of
:mod:`credalbook.book.theory.risk_aversion`, or the stored run ``synthesis_benchmark`` read through
:mod:`credalbook.lenses` and :mod:`credalbook.risk_aversion`), and each check has an altered input
under which the statement fails. A measured finding is a prediction about the stored data with a
threshold: the threshold is the claim record's ``published`` value (``data/paper/claims/credalbook.yml``,
whose ``note`` says how it was chosen), read here through the ``claim`` argument, never typed in a check.
"""
from __future__ import annotations

import sympy as sp

from credalbook.book.experiments import synthesis as sy
from credalbook.book.ledger.core import Finding, check, stored

__all__ = ["expected_utility_at_mean", "single_crossing", "p_discounted_is_u75", "scoring_lenses_share_a_top",
           "discounted_accuracy_opposes_coverage", "determinacy_opposes_coverage", "significant_genuine_flips",
           "risk_aversion_moves_toward_coverage", "ncc_two_class_sets_no_better", "cma_best_by_utility_not_by_rank"]

RESULTS = stored(sy.NAME)
#: Bootstrap resamples behind the measured findings (the pages use the same).
N_BOOT = 1000


def _verdict(holds: bool) -> str:
    return "reproduced" if holds else "not reproduced"


def _threshold(claim) -> float:
    """The threshold of a measured finding: its claim record's ``published`` number."""
    value = claim.published
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"claim {claim.id!r}: a measured finding's published value is its threshold, a number")
    return float(value)


# ----------------------------------------------------------------------------------------------
# derived propositions
# ----------------------------------------------------------------------------------------------

def _gap():
    """E[u_V(x)] − u_{E[V]}(x) for v on [1/2, 1] with a Beta of symbolic shapes (sympy.stats)."""
    from credalbook.book.theory import risk_aversion as theory

    return theory.expected_utility_gap(theory.scaled_beta())


_gap.evidence = "credalbook.book.theory.risk_aversion.expected_utility_gap(scaled_beta())"


@check("credalbook.expected-utility-at-mean", inputs={"gap": _gap},
       mutate=lambda gap: {"gap": gap + sp.Symbol("delta")})
def expected_utility_at_mean(gap) -> Finding:
    """Proposition R2: the expected utility under an uncertain v is the utility at the mean v (the gap simplifies to 0)."""
    zero = sp.simplify(gap) == 0
    return Finding("E(u_V(x)) = u_E(V)(x)" if zero else f"gap {sp.simplify(gap)}",
                   detail=f"E(u_V(x)) − u_E(V)(x) simplifies to {sp.simplify(gap)}",
                   verdict="reproduced" if zero else "not reproduced")


def _utility():
    from credalbook.book.theory import risk_aversion as theory

    return theory.utility_in_v()


_utility.evidence = "credalbook.book.theory.risk_aversion.utility_in_v()"


def _curved(utility) -> dict:
    """Altered input: a utility with a v² term, u_v(x) + v² x(1 − x), whose differences can cross twice."""
    from credalbook.book.theory import risk_aversion as theory

    return {"utility": utility + theory.V ** 2 * theory.X * (1 - theory.X)}


@check("credalbook.single-crossing", inputs={"utility": _utility}, mutate=_curved)
def single_crossing(utility) -> Finding:
    """Proposition R3: two classifiers' difference of mean utilities, built from the utility u_v(x) on symbolic
    test instances, is of degree at most one in v (so it changes sign at most once)."""
    from credalbook.book.theory import risk_aversion as theory

    difference = theory.difference_from_utility(utility, n_instances=3)
    degree = sp.degree(difference, theory.V)
    return Finding(f"degree {degree} in v",
                   detail=f"mean u_v(x_i) − mean u_v(y_i) over three symbolic instances has degree {degree} in v",
                   verdict=_verdict(degree <= 1))


def _p_discounted():
    from credalbook.book.theory import risk_aversion as theory

    return theory.check_p_discounted_is_a_utility()


_p_discounted.evidence = "credalbook.book.theory.risk_aversion.check_p_discounted_is_a_utility()"


def _largest_u75_gap(results) -> float:
    """The largest per-instance |p-discounted 0/1 cost − (1 − u75)| over the stored fold rows, u75 on the line
    through the stored u65 and u80 (Proposition R1)."""
    u75 = results["u65"] + (results["u80"] - results["u65"]) * (0.75 - 0.65) / (0.80 - 0.65)
    gap = ((results["p_discounted_cost"] - (results["n"] - u75)) / results["n"]).abs()
    return float(gap.max())


def _one_cost_off(derivation, results) -> dict:
    """Altered input: one stored fold's p-discounted cost raised by 0.01 per instance."""
    altered = results.copy()
    altered.loc[altered.index[0], "p_discounted_cost"] += 0.01 * altered.loc[altered.index[0], "n"]
    return {"derivation": derivation, "results": altered}


@check("credalbook.p-discounted-is-u75", inputs={"derivation": _p_discounted, "results": RESULTS},
       mutate=_one_cost_off)
def p_discounted_is_u75(derivation, results, claim) -> Finding:
    """Proposition R6 derived (sympy) and predicted on the stored run: the p-discounted 0/1 cost that
    :mod:`credalbook.costs` computed on every fold equals 1 − u75, u75 read off the line through the
    stored u65 and u80, to the claim's threshold per instance."""
    gap = _largest_u75_gap(results)
    derived = bool(derivation["r_half_is_u75"] and derivation["matches_power_mean"])
    holds = derived and gap <= _threshold(claim)
    return Finding(gap, detail=f"sympy: g_1/2 = u_3/4 {'holds' if derived else 'fails'}; largest per-instance "
                               f"|cost − (1 − u75)| over {len(results)} stored fold rows: {gap:.2g}",
                   verdict=_verdict(holds))


# ----------------------------------------------------------------------------------------------
# measured findings
# ----------------------------------------------------------------------------------------------

def _scores(results):
    from credalbook.lenses import dataset_scores

    return dataset_scores(results)


def _panels(scores) -> dict:
    """The panel as run and every panel without nested pairs (:func:`credalbook.lenses.nested_free_panels`)."""
    from credalbook.lenses import nested_free_panels, nested_pairs

    panel = list(sy.PANEL)
    free = nested_free_panels(panel, nested_pairs(scores, panel))
    return {"as run": panel, **{f"nested-free {k + 1}": list(p) for k, p in enumerate(free)}}


def _lens_like(results, lens: str, like: str):
    """Altered input: ``lens`` given ``like``'s fold values (sign-flipped when their directions differ)."""
    from credalbook.lenses import LENSES

    altered = results.copy()
    same = LENSES[lens].higher_is_better == LENSES[like].higher_is_better
    altered[lens] = altered[like] if same else altered["n"] - altered[like]
    return altered


def _reversed(results, lens: str):
    """Altered input: ``lens``'s fold sums reversed (n − value), so that its best classifiers become its worst."""
    altered = results.copy()
    altered[lens] = altered["n"] - altered[lens]
    return altered


@check("credalbook.scoring-lenses-share-a-top", inputs={"results": RESULTS},
       mutate=lambda results: {"results": _reversed(results, "discounted_accuracy")})
def scoring_lenses_share_a_top(results, claim) -> Finding:
    """Finding (restating "the winner depends on the lens"): some classifier lies within the Nemenyi critical
    difference of the best under every scoring lens (duplicates merged): at least the claim's threshold of them."""
    from credalbook.lenses import SCORING_LENSES, friedman_by_lens, shared_top

    scores = _scores(results)
    table = friedman_by_lens(scores, SCORING_LENSES, sy.PANEL)
    shared = shared_top(scores, SCORING_LENSES, list(sy.PANEL))
    winners = "; ".join(f"{lens}: {best}" for lens, best in zip(table["lens"], table["best"]))
    return Finding(len(shared), detail=f"within the critical difference under all {len(table)} scoring lenses: "
                                       f"{', '.join(shared) or 'none'} (best: {winners})",
                   verdict=_verdict(len(shared) >= _threshold(claim)))


@check("credalbook.discounted-accuracy-opposes-coverage", inputs={"results": RESULTS},
       mutate=lambda results: {"results": _lens_like(results, "coverage", "discounted_accuracy")})
def discounted_accuracy_opposes_coverage(results, claim) -> Finding:
    """Finding: discounted accuracy and coverage order the classifiers oppositely (Kendall τ below the claim's
    threshold) on the panel as run and on every panel without nested pairs."""
    from credalbook.lenses import DISTINCT_SET_LENSES, panel_agreement, rank_agreement

    scores = _scores(results)
    by_panel = panel_agreement(scores, "discounted_accuracy", "coverage", _panels(scores), n_boot=N_BOOT)
    worst = float(by_panel["tau"].max())
    pair = rank_agreement(scores, DISTINCT_SET_LENSES, sy.PANEL, n_boot=N_BOOT).set_index(["lens_a", "lens_b"])
    row = pair.loc[("discounted_accuracy", "coverage")]
    return Finding(worst, detail=f"τ = {row['tau']:.3f} as run (BCa 95 % [{row['low']:.2f}, {row['high']:.2f}], "
                                 f"Bonferroni over {len(pair)} pairs [{row['low_adjusted']:.2f}, "
                                 f"{row['high_adjusted']:.2f}]); τ from {by_panel['tau'].min():.3f} to {worst:.3f} "
                                 f"over {len(by_panel)} panels",
                   verdict=_verdict(worst < _threshold(claim)))


@check("credalbook.determinacy-opposes-coverage", inputs={"results": RESULTS},
       mutate=lambda results: {"results": _lens_like(results, "coverage", "determinacy")})
def determinacy_opposes_coverage(results, claim) -> Finding:
    """Finding: determinacy and coverage order the classifiers oppositely, the upper end of τ's BCa interval
    adjusted (Bonferroni) over the pairs of distinct set lenses below the claim's threshold."""
    from credalbook.lenses import DISTINCT_SET_LENSES, rank_agreement

    table = rank_agreement(_scores(results), DISTINCT_SET_LENSES, sy.PANEL, n_boot=N_BOOT)
    row = table.set_index(["lens_a", "lens_b"]).loc[("determinacy", "coverage")]
    return Finding(float(row["high_adjusted"]),
                   detail=f"τ = {row['tau']:.3f}, Bonferroni-adjusted BCa interval over {len(table)} pairs "
                          f"[{row['low_adjusted']:.3f}, {row['high_adjusted']:.3f}]",
                   verdict=_verdict(row["high_adjusted"] < _threshold(claim)))


@check("credalbook.significant-genuine-flips", inputs={"results": RESULTS},
       mutate=lambda results: {"results": _lens_like(results, "coverage", "discounted_accuracy")})
def significant_genuine_flips(results, claim) -> Finding:
    """Finding: discounted accuracy and coverage order some pairs of classifiers that are not nested oppositely,
    each lens's mean-rank gap beyond the Nemenyi critical difference: at least the claim's threshold of pairs."""
    from credalbook.lenses import order_flips

    flips = order_flips(_scores(results), "discounted_accuracy", "coverage", sy.PANEL)
    found = flips[flips["significant"] & (flips["kind"] == "genuine")]
    listed = ", ".join(f"{a} / {b}" for a, b in zip(found["first"], found["second"]))
    return Finding(len(found), detail=f"{len(flips)} flips, {int((flips['kind'] == 'forced').sum())} forced by "
                                      f"nesting, {int(flips['significant'].sum())} significant; genuine and "
                                      f"significant: {listed or 'none'}",
                   verdict=_verdict(len(found) >= _threshold(claim)))


@check("credalbook.risk-aversion-moves-toward-coverage", inputs={"results": RESULTS},
       mutate=lambda results: {"results": _lens_like(results, "coverage", "u80")})
def risk_aversion_moves_toward_coverage(results, claim) -> Finding:
    """Finding: u_v's ranking agrees more with coverage's at v = 0.8 than at v = 1/2 (τ rises by more than the
    claim's threshold) on the panel as run and on every panel without nested pairs."""
    from credalbook.lenses import utility_agreement_path

    scores = _scores(results)
    rises = {}
    for name, panel in _panels(scores).items():
        low, high = utility_agreement_path(scores, ["coverage"], panel, [0.5, 0.8])["coverage"]
        rises[name] = (float(low), float(high))
    least = min(high - low for low, high in rises.values())
    low, high = rises["as run"]
    return Finding(least, detail=f"τ(u_v, coverage) as run {low:.3f} at v = 0.5, {high:.3f} at v = 0.8; the least "
                                 f"rise over {len(rises)} panels {least:.3f}; τ at 0.8 above 0 on "
                                 f"{sum(h > 0 for _, h in rises.values())} of them",
                   verdict=_verdict(least > _threshold(claim)))


def _ncc_gap(results) -> tuple[float, float, float]:
    from credalbook.lenses import coverage_by_size

    table = coverage_by_size(results, ["NCC"], by_label_space=True).set_index(["label_space", "size"])["coverage"]
    pooled = coverage_by_size(results, ["NCC"]).set_index("size")["coverage"]
    many = "three or more"
    return float(table[(many, "2")]), float(table[(many, "1")]), float(pooled["2"])


def _ncc_pairs_cover(results):
    """Altered input: every two-class set of NCC holds the truth."""
    altered = results.copy()
    ncc = altered["classifier"] == "NCC"
    altered.loc[ncc, "covered_size2"] = altered.loc[ncc, "n_size2"]
    return altered


@check("credalbook.ncc-two-class-sets-no-better", inputs={"results": RESULTS},
       mutate=lambda results: {"results": _ncc_pairs_cover(results)})
def ncc_two_class_sets_no_better(results, claim) -> Finding:
    """Finding: on datasets of three classes or more, NCC's two-class sets hold the truth no more often than its
    singletons (the difference at most the claim's threshold); pooled with two-class datasets they seem to."""
    two, one, pooled = _ncc_gap(results)
    return Finding(two - one, detail=f"datasets of 3+ classes: two-class sets {two:.3f}, singletons {one:.3f}; "
                                     f"pooled with two-class datasets, two-class sets {pooled:.3f}",
                   verdict=_verdict(two - one <= _threshold(claim)))


def _cma_probabilities(results) -> dict:
    """P(CMA is the best of Part III's four credal classifiers) by mean utility and by mean rank, v centred on
    0.65 and on 0.80 (scaled Betas of concentration 20), the datasets resampled
    (:func:`credalbook.risk_aversion.probability_best_resampled`)."""
    from credalbook import risk_aversion as ra
    from credalbook.book.experiments import benchmark
    from credalbook.lenses import utility_lines

    credal = list(benchmark.CREDAL)
    A, B = utility_lines(_scores(results), credal)
    where = credal.index("CMA")
    return {(mean, by): float(ra.probability_best_resampled(A.to_numpy(), B.to_numpy(),
                                                            ra.RiskAversion.from_mean(mean, 20), by=by,
                                                            n_boot=N_BOOT).probability[where])
            for mean, by in ((0.65, "utility"), (0.8, "utility"), (0.8, "rank"))}


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
def cma_best_by_utility_not_by_rank(results, claim) -> Finding:
    """Finding: with v and the datasets uncertain, CMA is the best credal classifier by mean utility with
    probability above the claim's threshold whether v is centred on 0.65 or 0.80, but by mean rank, v centred on
    0.80, with probability below it."""
    p = _cma_probabilities(results)
    threshold = _threshold(claim)
    holds = p[(0.65, "utility")] > threshold and p[(0.8, "utility")] > threshold and p[(0.8, "rank")] < threshold
    shown = "; ".join(f"v centred on {mean:g}, by {by}: {value:.3f}" for (mean, by), value in p.items())
    return Finding(", ".join(f"{value:.2f}" for value in p.values()),
                   detail=f"P(CMA best), v and datasets uncertain ({N_BOOT} resamples): {shown}",
                   verdict=_verdict(holds))
