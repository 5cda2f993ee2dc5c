"""Ledger entries of Ferri, Hernández-Orallo & Flach (2019), Part VI: the whole paper.

- Sect. 2 (the spam example, Fig. 1), Sect. 4 and Sect. 5 (Lemma 1, Theorems 1–7, Corollaries 1–2,
  Tables 3–4, the prior and random baselines): decided by the sympy derivations of
  :mod:`credalbook.book.theory.costspace` (``formula`` claims: the derived and the printed expression
  agree, or the paper is in error) and by :mod:`credalbook.costspace` on real model scores;
- Sect. 6 (Tables 5, 7, 8, Figs. 4–7 and every sentence interpreting them) and Sect. 7: computed
  from the stored result ``ferri2019_thresholds`` (26 datasets × 12 model types × 10 splits × 7
  certainty levels, :mod:`credalbook.book.experiments.thresholds`); the published tables' builders;
- two arms: the paper ran Weka's learners, so by the verdict policy's protocol rule
  (:data:`credalbook.book.ledger.policy.PAPER_PROTOCOL`) Tables 7 and 8 and every check computed from the
  stored study (:data:`STUDY_CHECKS`) are judged on the run with Weka's own learners
  (``ferri2019_thresholds_weka``, :mod:`credalbook.book.experiments.thresholds_weka`). The same tables and
  checks on the book's scikit-learn stand-ins (``ferri2019_thresholds``) are the reading
  :data:`STAND_INS`, reported beside them and never counted: the tables as a registered reading, each
  check as ``ferri2019.standins.<name>`` (:func:`standins_twin`; the claims in
  ``data/paper/claims/ferri2019_standins.yml``, :func:`standins_twin_records`), so that a conclusion
  that holds with one implementation and not with the other shows as two verdicts
  (:func:`arms_comparison`).

Readings of the paper's words are stated in each claim's ``note`` in
``data/paper/claims/ferri2019.yml``. "Non-baseline" means the ten model types other than Prior
and Random; "realistic" methods are train-optimal, score-driven and rate-driven.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd
import sympy as sp
from scipy.stats import spearmanr

from credalbook import costspace as cs
from credalbook.book.experiments import thresholds as th
from credalbook.book.ledger import policy
from credalbook.book.ledger.core import CHECKS, Finding, book_table, check, protocol_twins, stored, twin_records
from credalbook.book.theory import costspace as theory

__all__ = ["derivation", "published_table", "spam_example", "fig1_losses", "fig4_curves", "fig7_cost_lines",
           "theorem1_sample", "uniform_equivalence", "definition7_sample", "ferri_datasets", "table7",
           "table8", "table5", "formula", "worst_test_optimal_loss", "cost_proportion", "spam_cost_ratio",
           "fig1_train_optimal_line", "test_optimal_lower_envelope", "train_optimal_better_under_uncertainty",
           "theorem1", "definition7_trapezoid", "bs_not_above_mae", "uncertainty_factor_two",
           "uncertainty_increases_loss", "methods_can_swap", "prior_score_driven_optimal",
           "fig4_certainty_dominates", "fig4_small_regions", "datasets_count", "models_count",
           "models_learned", "fig6_points_per_model", "dataset_sizes", "score_driven_more_than_half",
           "score_driven_exceptions", "table7_ibk10_exception", "nb_svm_poor_brier",
           "high_bs_train_optimal_best", "means_favour_train_optimal", "rate_driven_small_gap",
           "hardest_datasets", "table8_train_optimal_advantage", "table8_pairwise", "table8_clearest_wins",
           "train_optimal_better_on_average", "rate_driven_better_on_harder", "table8_sorted",
           "table8_caption_baselines", "rate_driven_identity", "table8_rate_driven_identity", "fig5_monotone", "fig5_few_ranking_changes",
           "fig5_best_uncertain_train", "fig5_worst_three_certain_train", "fig5_lowest_relative_increase",
           "ibk1_train_optimal_not_flat", "low_uncertainty_train_optimal", "crisp_score_driven_flat",
           "svmp_in_line", "svm_best_uncertain", "svm_second_worst_certain", "baselines_swapped",
           "pi0pi1_under_quarter", "degradation", "test_optimal_doubles", "train_optimal_softened",
           "train_optimal_degrades_more", "svm_most_obvious", "fig7_pruning_fewer_lines",
           "fig7_svm_three_lines", "best_methods_all_certainty", "rate_driven_poor_in_general",
           "extreme_probabilities_superior", "cl_helps_score_driven", "no_calibration_pattern",
           "more_diverse", "rate_driven_worst", "train_optimal_often_suboptimal", "train_score_similar",
           "BOTH_ARMS", "STUDY_CHECKS", "STAND_INS", "standins_twin", "standins_twin_records", "arms_comparison", "duplicated_datasets", "distinct_datasets",
           "prior_thresholds", "prior_sc_vs_tr", "rl_convexified", "laplace_leaf", "j48unp_not_crisp",
           "cost_matrix_objects", "cost_matrix_examples_reference"]

RESULTS = stored("ferri2019_thresholds")
#: The reading of Sect. 6 on the book's scikit-learn stand-ins for Weka's learners (``ferri2019_thresholds``),
#: reported beside the verdicts on Weka's learners and never counted.
STAND_INS = "the book's scikit-learn stand-ins"
WEKA_RESULTS = stored("ferri2019_thresholds_weka")
THEORY, CURVES, STUDY = "chapters/thresholds/theory", "chapters/thresholds/curves", "chapters/thresholds/study"
BASELINES = th.BASELINES
REALISTIC = ("train-optimal", "score-driven", "rate-driven")
EPS = 1e-12


# ----------------------------------------------------------------------------------------------
# loaders: derivations, published tables and small computations on model scores (cached)

def _loader(evidence: str):
    """Decorate a zero-argument function as a cached input loader named ``evidence``."""

    def decorate(function):
        cached = lru_cache(maxsize=1)(function)

        def load():
            return cached()

        load.evidence = evidence
        return load

    return decorate


def derivation(name: str, *args):
    """A loader of ``credalbook.book.theory.costspace.<name>(*args)``."""
    shown = f"({', '.join(map(str, args))})" if args else ""
    return _loader(f"credalbook.book.theory.costspace.{name}{shown}")(lambda: getattr(theory, name)(*args))


def published_table(name: str):
    """A loader of the published table ``data/paper/{name}.csv`` as transcribed."""
    from credalbook.book.reference import published

    return _loader(f"published table {name}")(lambda: published(name))


@_loader("the costs of Table 2 and the score 0.8 of Sect. 2")
def spam_example() -> dict:
    """Sect. 2: the assumed (Table 2a) and true (Table 2b) costs of misclassifying ham as spam and
    spam as ham, and the classifier's spam probability for message m."""
    return {"score": 0.8, "assumed": {"ham as spam": 0.28, "spam as ham": 0.04},
            "true": {"ham as spam": 0.21, "spam as ham": 0.07}}


@_loader("credalbook.book.experiments.thresholds.model_scores (spambase, J48Unp, 99/1 splits 1-10)")
def fig1_losses() -> pd.DataFrame:
    """Fig. 1 on the book's ten 99/1 splits of spambase (J48Unp stand-in): per split and method the
    loss at c = 0.15 of the line chosen for ĉ = 0.15, the loss of that line at c = 0.4, and the
    loss of the line chosen for ĉ = c = 0.4."""
    rows = []
    for seed in range(1, 11):
        y_train, s_train, y, s = th.model_scores("spambase", "J48Unp", seed=seed, train_fraction=0.99)
        for method in ("test-optimal", "train-optimal", "score-driven"):
            selection = cs.threshold_selection(y, s, method, y_train=y_train, s_train=s_train)
            rows.append({"seed": seed, "method": method, "at 0.15": selection.at(0.15, 0.15)[0],
                         "chosen for 0.15, at 0.4": selection.at(0.15, 0.4)[0], "at 0.4": selection.at(0.4, 0.4)[0]})
    return pd.DataFrame(rows)


FIG4_GRID = np.linspace(0.0, 1.0, 1001)


@_loader("credalbook.book.experiments.thresholds.model_scores (credit-a, J48Unp and NB, splits 1-10)")
def fig4_curves() -> pd.DataFrame:
    """Fig. 4 on the book's ten 50/50 splits of credit-a: K_∞(c) and K_0(c) on a 1001-point grid for
    the J48Unp and NB stand-ins and the four methods (one row per split, model, method)."""
    rows = []
    for seed in range(1, 11):
        for model in ("J48Unp", "NB"):
            y_train, s_train, y, s = th.model_scores("credit-a", model, seed=seed)
            for method in th.METHODS:
                selection = cs.threshold_selection(y, s, method, y_train=y_train, s_train=s_train)
                rows.append({"seed": seed, "model": model, "method": method,
                             "certain": selection.curve(np.inf, FIG4_GRID), "uncertain": selection.curve(0.0, FIG4_GRID)})
    return pd.DataFrame(rows)


@_loader("credalbook.book.experiments.thresholds.model_scores (credit-a, J48/J48Unp/SVM, splits 1-10)")
def fig7_cost_lines() -> pd.DataFrame:
    """Fig. 7 on the book's ten splits of credit-a: the number of cost lines (distinct test scores
    + 1) of J48 and J48Unp, and how many distinct cost lines train-optimal thresholds use for the
    crisp SVM."""
    rows = []
    for seed in range(1, 11):
        row = {"seed": seed}
        for model in ("J48", "J48Unp"):
            row[model] = len(np.unique(th.model_scores("credit-a", model, seed=seed)[3])) + 1
        y_train, s_train, y, s = th.model_scores("credit-a", "SVM", seed=seed)
        selection = cs.threshold_selection(y, s, "train-optimal", y_train=y_train, s_train=s_train)
        used = np.diff(selection.breaks) > 0
        row["SVM train-optimal lines"] = len({(a, b) for a, b in zip(selection.p0[used], selection.p1[used])})
        rows.append(row)
    return pd.DataFrame(rows)


@_loader("credalbook.costspace on credit-a, NB stand-in, split 1 (Lemma 1 against Monte Carlo, gamma = 4)")
def theorem1_sample() -> pd.DataFrame:
    """Theorem 1 against sampling: per non-interpolating method, L_4 as the sum of the cost lines'
    contributions (Lemma 1 integrated over c) and a Monte Carlo estimate of Eq. 7 (thresholds from
    their definitions, ĉ sampled, 100 midpoints in c × 400 draws) with its standard error."""
    y_train, s_train, y, s = th.model_scores("credit-a", "NB", seed=1)
    midpoints = (np.arange(100) + 0.5) / 100
    rows = []
    for method in ("test-optimal", "train-optimal", "score-driven"):
        exact = cs.expected_loss(y, s, method, 4.0, y_train=y_train, s_train=s_train)
        curve, error = cs.monte_carlo_cost_curve(y, s, method, 4.0, midpoints, n_draws=400, seed=7,
                                                 y_train=y_train, s_train=s_train)
        rows.append({"method": method, "theorem 1": exact, "monte carlo": curve.mean(),
                     "standard error": float(np.sqrt(np.sum(error ** 2)) / len(midpoints))})
    return pd.DataFrame(rows)


@_loader("credalbook.costspace on credit-a, NB stand-in, split 1 (uniform thresholds)")
def uniform_equivalence() -> dict:
    """Expected losses of score-/rate-driven thresholds at γ = 0 and of the score-/rate-uniform
    methods of Hernández-Orallo et al. (2013), whose threshold (rate) ignores ĉ."""
    _, _, y, s = th.model_scores("credit-a", "NB", seed=1)
    return {kind: {"driven, gamma = 0": cs.expected_loss(y, s, f"{kind}-driven", 0.0),
                   "uniform": cs.expected_loss(y, s, f"{kind}-uniform", np.inf)} for kind in ("score", "rate")}


@_loader("credalbook.costspace on credit-a, NB stand-in, split 1 (score-driven cost lines)")
def definition7_sample() -> dict:
    """A real score-driven selection (its curve jumps where the chosen line changes) for Definition 7."""
    _, _, y, s = th.model_scores("credit-a", "NB", seed=1)
    return {"y": y, "s": s, "method": "score-driven"}


@_loader("credalbook.data.list_datasets('ferri2019') and the registry's dropped columns")
def ferri_datasets() -> pd.DataFrame:
    """The 26 datasets as the book reads them: instances, columns of the file (features + class +
    columns the book drops), majority-class proportion."""
    from credalbook import data

    listing = data.list_datasets("ferri2019")
    listing = listing[listing["in_paper"]]
    registry = data.registry().set_index(["group", "name"])["drop"]
    dropped = [len([d for d in registry[("ferri2019", name)].split(";") if d]) for name in listing["name"]]
    return pd.DataFrame({"dataset": listing["paper_name"].to_numpy(), "instances": listing["n_rows"].astype(int).to_numpy(),
                         "attributes": (listing["n_features"].astype(int) + 1 + np.array(dropped)).to_numpy(),
                         "majority": listing["majority"].to_numpy()})


# ----------------------------------------------------------------------------------------------
# published tables

@book_table("ferri2019_table7", on=["model"], part="VI", chapter=STUDY, inputs={"results": WEKA_RESULTS})
def table7(results: pd.DataFrame) -> pd.DataFrame:
    """Table 7: means by model type over datasets and splits at γ = ∞."""
    return th.by_model(results)


@book_table("ferri2019_table8", on=["dataset"], part="VI", chapter=STUDY, inputs={"results": WEKA_RESULTS})
def table8(results: pd.DataFrame) -> pd.DataFrame:
    """Table 8: means by dataset over the ten non-baseline model types and the splits at γ = ∞."""
    return th.by_dataset(results)


book_table("ferri2019_table7", on=["model"], part="VI", chapter=STUDY, inputs={"results": RESULTS},
           reading=STAND_INS)(table7)
book_table("ferri2019_table8", on=["dataset"], part="VI", chapter=STUDY, inputs={"results": RESULTS},
           reading=STAND_INS)(table8)


@book_table("datasets_ferri2019_table5", on=["dataset"], part="VI", chapter="chapters/datasets",
            inputs={"datasets": ferri_datasets})
def table5(datasets: pd.DataFrame) -> pd.DataFrame:
    """Table 5: instances, columns of the file (the class included) and majority proportion."""
    return datasets


# ----------------------------------------------------------------------------------------------
# helpers on the stored results

def _real(results: pd.DataFrame, gamma=None) -> pd.DataFrame:
    """Non-baseline runs (at certainty ``gamma`` if given)."""
    part = results[~results["model"].isin(BASELINES)]
    return part if gamma is None else part[part["gamma"] == gamma]


def _at(results: pd.DataFrame, gamma) -> pd.DataFrame:
    return results[results["gamma"] == gamma]


def _means(results: pd.DataFrame, gamma, method: str) -> pd.Series:
    """Fig. 5: mean loss of ``method`` per non-baseline model type at certainty ``gamma``."""
    return th.by_model_and_gamma(results)[method].xs(gamma, level="gamma")


def _listed(values) -> str:
    """A set of names as the claims print it: sorted, comma-separated."""
    return ", ".join(sorted(str(v) for v in values))


def _named_parts(published: str, book: str) -> str | None:
    """Verdict of a claim naming several items (``published`` and ``book`` as :func:`_listed` prints them):
    ``partly`` when some, not all, of the named items are the book's (:data:`credalbook.book.ledger.policy.PARTLY`,
    a statement of several parts of which some hold), else ``None`` (the kind's rule: the same names
    reproduce it, no common name does not)."""
    named = {part.strip() for part in str(published).split(",") if part.strip()}
    found = {part.strip() for part in str(book).split(",") if part.strip()}
    return "partly" if named != found and named & found else None


def _on_results(name: str, mutate):
    """Register a check computed from the stored study."""
    return check(name, inputs={"results": RESULTS}, mutate=mutate)


def _named(label: str):
    """Give a factory-made check a readable name (its evidence) before it is registered."""

    def name(function):
        function.__qualname__ = label
        return function

    return name


def _scaled(column: str, factor: float, models=None, gamma=None):
    """Mutate: ``column`` multiplied by ``factor`` (for ``models`` and certainty ``gamma`` only, if given)."""

    def mutate(results: pd.DataFrame) -> dict:
        rows = np.ones(len(results), dtype=bool)
        if models is not None:
            rows &= results["model"].isin(models).to_numpy()
        if gamma is not None:
            rows &= (results["gamma"] == gamma).to_numpy()
        altered = results.copy()
        altered.loc[rows, column] = altered.loc[rows, column] * factor
        return {"results": altered}

    return mutate


def _swapped_models(first: str, second: str):
    """Mutate: the labels of two model types exchanged."""

    def mutate(results: pd.DataFrame) -> dict:
        return {"results": results.assign(model=results["model"].replace({first: second, second: first}))}

    return mutate


def _swapped_columns(first: str, second: str):
    """Mutate: two columns (methods or measures) exchanged."""

    def mutate(results: pd.DataFrame) -> dict:
        return {"results": results.rename(columns={first: second, second: first})}

    return mutate


def _score_driven_against(exceptions: dict | None = None):
    """Mutate: score-driven losses set 0.01 above train-optimal's, and 0.01 below in the runs whose
    ``key`` is among ``names`` (``exceptions = {key: names}``)."""

    def mutate(results: pd.DataFrame) -> dict:
        below = np.zeros(len(results), dtype=bool)
        for key, names in (exceptions or {}).items():
            below |= results[key].isin(names).to_numpy()
        return {"results": results.assign(**{"score-driven": results["train-optimal"] + np.where(below, -0.01, 0.01)})}

    return mutate


def _cheaper_when_uncertain(results: pd.DataFrame) -> dict:
    """Mutate: every method's losses at γ = 0 multiplied by 0.3."""
    altered = results.copy()
    rows = altered["gamma"] == 0.0
    altered.loc[rows, list(th.METHODS)] *= 0.3
    return {"results": altered}


def _certain_everywhere(results: pd.DataFrame) -> dict:
    """Mutate: every method's loss at every γ replaced by its loss at γ = ∞ (no effect of uncertainty)."""
    keys = ["dataset", "split", "model"]
    certain = _at(results, np.inf).set_index(keys)[list(th.METHODS)]
    altered = results.set_index(keys)
    altered[list(th.METHODS)] = certain.reindex(altered.index).to_numpy()
    return {"results": altered.reset_index()}


# ----------------------------------------------------------------------------------------------
# formula claims: a derived expression against the printed one

def _perturbed(pairs: dict) -> dict:
    """Mutate: the first derived expression shifted by a free symbol ε."""
    first = next(iter(pairs))
    derived, stated = pairs[first]
    return {"pairs": {**pairs, first: (derived + sp.Symbol("epsilon"), stated)}}


def _classes_swapped(pairs: dict) -> dict:
    """Mutate: π0 and π1 exchanged in the derived expressions (the swap the paper's errata make)."""
    return {"pairs": {label: (sp.sympify(d).subs(theory.pi0, 1 - theory.pi0), s) for label, (d, s) in pairs.items()}}


def formula(name: str, loader, *, mutate=_perturbed):
    """Register check ``name``: every (derived, printed) pair of ``loader()`` must agree (sympy),
    else the paper is in error; the book's value is the derived expressions."""

    @check(name, inputs={"pairs": loader}, mutate=mutate)
    @_named(f"formula[{name}]")
    def decide(pairs: dict) -> Finding:
        failing = [label for label, pair in pairs.items() if not theory.agree(*pair)]
        shown = "; ".join(f"{label}: {sp.sstr(sp.simplify(d))}" for label, (d, _) in pairs.items())
        if failing:
            printed = "; ".join(f"{label}: printed {sp.sstr(pairs[label][1])}" for label in failing)
            return Finding(shown, detail=f"the derivation disagrees with the paper on {printed}", verdict="erratum")
        return Finding(shown, detail=f"derived and printed expressions agree ({len(pairs)} identities)",
                       verdict="reproduced")

    return decide


def _pair(label: str, name: str):
    """A loader of {label: (derived, stated)}, the first two elements of ``theory.<name>()``."""
    return _loader(f"credalbook.book.theory.costspace.{name}")(lambda: {label: tuple(getattr(theory, name)()[:2])})


def _selected(name: str, labels: list[str]):
    """A loader of the pairs ``labels`` of the pair dictionary ``theory.<name>()``."""
    return _loader(f"credalbook.book.theory.costspace.{name}")(
        lambda: {label: getattr(theory, name)()[label] for label in labels})


formula("ferri2019.beta-parametrisation", derivation("beta_parametrisation_pairs"))
formula("ferri2019.lemma1", derivation("lemma1_sides"))
formula("ferri2019.theorem2", _pair("Theorem 2", "theorem2"))
formula("ferri2019.theorem3", _pair("Theorem 3", "theorem3"))
formula("ferri2019.midpoint-condition", _pair("L_delta - L_0", "midpoint_condition"))
formula("ferri2019.theorem4", _pair("Theorem 4", "theorem4"))
formula("ferri2019.corollary1", _pair("Corollary 1", "corollary1"))
formula("ferri2019.calibrated-score-driven-flat", _pair("pi0 s0 = pi1 (1 - s1)", "calibrated_score_driven_pair"))
formula("ferri2019.brier-curve-area", _loader("credalbook.book.theory.costspace.corollary1")(
    lambda: {f"class {k}: area": (theory.corollary1()[2][k], theory.corollary1()[3][k]) for k in (0, 1)}))
formula("ferri2019.rate-driven-area", _pair("L_delta rate-driven", "rate_driven_certain_loss"))
formula("ferri2019.theorem5", _pair("Theorem 5", "theorem5"))
formula("ferri2019.theorem5-endpoints", derivation("theorem5_endpoint_pairs"))
formula("ferri2019.corollary2", _loader("credalbook.book.theory.costspace.corollary2")(
    lambda: {"Corollary 2": theory.corollary2(), "uncertainty adds": theory.rate_driven_uncertainty_cost()}))
formula("ferri2019.theorem6", _loader("credalbook.book.theory.costspace.optimal_pairs")(
    lambda: {k: v for k, v in theory.optimal_pairs(3).items() if k.startswith(("Theorem 6", "crossing"))}))
formula("ferri2019.theorem7", _selected("optimal_pairs", ["Theorem 7: L0 = 2 L_delta"]))
formula("ferri2019.optimal-area-refinement-loss", _selected("optimal_pairs", ["Table 4: L_delta = RL(Cal)"]))
formula("ferri2019.loss-commensurate-with-error-rate", _selected("cost_line_pairs", ["c = 1/2: error rate"]))
formula("ferri2019.cost-line-endpoints", _selected("cost_line_pairs", ["Q(t; 0)", "Q(t; 1)"]))


@_loader("credalbook.book.theory.costspace.prior_model and random_model")
def _baseline_pairs() -> dict:
    prior, random = theory.prior_model(), theory.random_model()
    half, third = sp.Rational(1, 2), sp.Rational(1, 3)
    return {"prior: BS": (prior["BS"], theory.pi0 * theory.pi1), "prior: MAE": (prior["MAE"], 2 * theory.pi0 * theory.pi1),
            "prior: rate-driven certain": (prior["rate-driven certain"], third),
            "prior: rate-driven uncertain": (prior["rate-driven uncertain"], half),
            "random: K_delta": (random["K_delta score/rate-driven"], 2 * theory.c * (1 - theory.c)),
            "random: L_delta": (random["L_delta score/rate-driven"], third),
            "random: L_0": (random["L0 score/rate-driven"], half)}


def _baseline(labels):
    return _loader("credalbook.book.theory.costspace.prior_model and random_model")(
        lambda: {label: _baseline_pairs()[label] for label in labels})


formula("ferri2019.prior-brier-area", _baseline(["prior: BS"]))
formula("ferri2019.prior-mae-doubles", _baseline(["prior: MAE"]))
formula("ferri2019.prior-rate-driven", _baseline(["prior: rate-driven certain", "prior: rate-driven uncertain"]))
formula("ferri2019.random-model-curves", _baseline(["random: K_delta", "random: L_delta", "random: L_0"]))


@_loader("credalbook.book.theory.costspace.theorem5 at AUC = 1/2 and theorem4 at mean scores 1/2")
def _baseline_uncertain_line() -> dict:
    """Sect. 5.3: the γ = 0 line of the baselines at c = 0 and c = 1, as derived and as printed
    ((0, π0) to (1, π1))."""
    rate = theory.theorem5()[0].subs(theory.AUC, sp.Rational(1, 2))
    score = theory.theorem4()[0].subs({theory.s0bar: sp.Rational(1, 2), theory.s1bar: sp.Rational(1, 2)})
    pi0, pi1 = theory.pi0, theory.pi1
    return {"prior, rate-driven: K(0)": (rate.subs(theory.c, 0), pi0), "prior, rate-driven: K(1)": (rate.subs(theory.c, 1), pi1),
            "random, score-driven: K(0)": (score.subs(theory.c, 0), pi0),
            "random, score-driven: K(1)": (score.subs(theory.c, 1), pi1)}


formula("ferri2019.baseline-uncertain-line", _baseline_uncertain_line, mutate=_classes_swapped)


@_loader("credalbook.book.theory.costspace.prior_model")
def _prior_default_lines() -> dict:
    """Sect. 5.3: the default cost lines (all 1, all 0) and their crossing, derived and as printed
    (0 → 2π1, 2π0 → 0, crossing at c = π0, height 2π0π1)."""
    prior = theory.prior_model()
    all_one, all_zero = prior["default lines"]
    c, pi0, pi1 = theory.c, theory.pi0, theory.pi1
    return {"line 0 -> ...": (all_one, 2 * c * pi1), "line ... -> 0": (all_zero, 2 * (1 - c) * pi0),
            "crossing c": (prior["crossing c"], pi0), "crossing height": (prior["crossing loss"], 2 * pi0 * pi1)}


formula("ferri2019.prior-default-lines", _prior_default_lines, mutate=_classes_swapped)


@_loader("credalbook.book.theory.costspace.random_model_mae")
def _random_mae() -> dict:
    """Sect. 5.3: the random model's MAE (mean scores 1/2 in both classes) against the printed 2π0π1."""
    return {"random model MAE": (theory.random_model_mae(), 2 * theory.pi0 * theory.pi1)}


def _prior_scores(pairs: dict) -> dict:
    """Mutate: the MAE of a model scoring π1 everywhere (the prior model) in place of the random one."""
    return {"pairs": {"random model MAE": (theory.random_model_mae(theory.pi1, theory.pi1), 2 * theory.pi0 * theory.pi1)}}


formula("ferri2019.random-optimal-uncertain-mae", _random_mae, mutate=_prior_scores)


@check("ferri2019.worst-test-optimal-loss", inputs={"results": RESULTS},
       mutate=_scaled("test-optimal", 4.0, gamma=np.inf))
def worst_test_optimal_loss(results: pd.DataFrame) -> Finding:
    """Sect. 6.2: the largest test-optimal loss is max π0π1 = 1/4; no stored run may exceed it."""
    bound = float(theory.worst_optimal_loss())
    largest = float(_at(results, np.inf)["test-optimal"].max())
    detail = f"max over π0 of π0π1 = {bound:g}; largest test-optimal loss of the 3120 stored runs {largest:.4f}"
    return Finding(bound, detail=detail, verdict=None if largest <= bound + EPS else "not reproduced")


# ----------------------------------------------------------------------------------------------
# Sect. 2: the spam example and Fig. 1

def cost_proportion(costs: dict) -> float:
    """c = cost of misclassifying ham / (sum of both misclassification costs), as in Sect. 2."""
    return costs["ham as spam"] / (costs["ham as spam"] + costs["spam as ham"])


def _swapped_costs(which: str):
    def mutate(example: dict) -> dict:
        costs = example[which]
        return {"example": {**example, which: {"ham as spam": costs["spam as ham"], "spam as ham": costs["ham as spam"]}}}

    return mutate


@check("ferri2019.spam-cost-ratio", inputs={"example": spam_example}, mutate=_swapped_costs("assumed"))
def spam_cost_ratio(example: dict) -> Finding:
    """Table 2a: misclassifying ham costs 0.28/0.04 times as much as misclassifying spam."""
    costs = example["assumed"]
    ratio = costs["ham as spam"] / costs["spam as ham"]
    return Finding(ratio, detail=f"{costs['ham as spam']}/{costs['spam as ham']} = {ratio:g}")


def _spamcost_proportion(which: str):
    @check(f"ferri2019.spam-{which}-cost-proportion", inputs={"example": spam_example}, mutate=_swapped_costs(which))
    @_named(f"spam_cost_proportion[{which}]")
    def proportion(example: dict) -> Finding:
        costs = example[which]
        value = cost_proportion(costs)
        return Finding(value, detail=f"{costs['ham as spam']}/({costs['ham as spam']} + {costs['spam as ham']}) = {value:g}")

    return proportion


def _spam_decision(which: str, printed: str, altered_score: float):
    """Sect. 2: the decision minimising the expected cost of message m under the ``which`` costs;
    a printed decision that its own inequality contradicts is an erratum."""

    def mutate(example: dict) -> dict:
        return {"example": {**example, "score": altered_score}}

    @check(f"ferri2019.spam-{which}-decision", inputs={"example": spam_example}, mutate=mutate)
    @_named(f"spam_decision[{which}]")
    def decision(example: dict) -> Finding:
        costs, p = example[which], example["score"]
        as_spam, as_ham = (1 - p) * costs["ham as spam"], p * costs["spam as ham"]
        best = "ham" if as_ham < as_spam else "spam"
        detail = (f"expected cost of predicting spam (1 − {p:g})·{costs['ham as spam']} = {as_spam:.3f}, "
                  f"of predicting ham {p:g}·{costs['spam as ham']} = {as_ham:.3f}: {best} is optimal")
        if best != printed:
            return Finding(best, detail=detail + f"; the paper's own inequality contradicts its '{printed}'",
                           verdict="erratum")
        return Finding(best, detail=detail)

    return decision


_spamcost_proportion("assumed")
_spamcost_proportion("true")
_spam_decision("assumed", "ham", altered_score=0.95)
_spam_decision("true", "ham", altered_score=0.5)


def _fig1_number(name: str, method: str, column: str, factor: float):
    """Fig. 1 read on the book's ten 99/1 splits, judged by the policy's single-run rule
    (:func:`credalbook.book.ledger.policy.spread_verdict`): the paper read the value off one 47-instance
    test sample whose split it does not give, so the printed value is set against the spread of the
    book's ten splits, the claim's 'around' tolerance as the precision of the reading (the mutate
    multiplies those losses by ``factor``, as a costlier or cheaper test sample would)."""

    def mutate(losses: pd.DataFrame) -> dict:
        altered = losses.copy()
        altered.loc[altered["method"] == method, column] *= factor
        return {"losses": altered}

    @check(name, inputs={"losses": fig1_losses}, mutate=mutate)
    @_named(f"fig1_spread[{method}, {column}]")
    def split_loss(losses: pd.DataFrame, claim) -> Finding:
        values = losses.loc[losses["method"] == method, column].to_numpy(dtype=float)
        precision = float(claim.tolerance["absolute"])
        verdict = policy.spread_verdict(float(claim.published), values, precision=precision)
        return Finding(float(values.mean()), verdict=verdict,
                       detail=f"{method}, {column}: mean {values.mean():.3f}, one split's spread (sd) "
                              f"{values.std(ddof=1):.3f} over ten 99/1 splits (range {values.min():.3f}–"
                              f"{values.max():.3f}); the paper's one split is judged within {policy.NOISE_K:g} sd "
                              f"+ {precision:g} (reading) of the mean")

    return split_loss


_fig1_number("ferri2019.fig1-train-optimal-at-015", "train-optimal", "at 0.15", 3.0)
_fig1_number("ferri2019.fig1-test-optimal-at-015", "test-optimal", "at 0.15", 3.5)
_fig1_number("ferri2019.fig1-score-driven-at-015", "score-driven", "at 0.15", 0.2)
_fig1_number("ferri2019.fig1-test-optimal-line-at-04", "test-optimal", "chosen for 0.15, at 0.4", 8.0)


def _train_optimal_line_climbs(losses: pd.DataFrame) -> dict:
    altered = losses.copy()
    altered.loc[altered["method"] == "train-optimal", "chosen for 0.15, at 0.4"] += 0.2
    return {"losses": altered}


@check("ferri2019.fig1-train-optimal-line-goes-down", inputs={"losses": fig1_losses}, mutate=_train_optimal_line_climbs)
def fig1_train_optimal_line(losses: pd.DataFrame) -> Finding:
    """Fig. 1: the line train-optimal chooses for ĉ = 0.15 is no higher at c = 0.4 (median over splits)."""
    train = losses[losses["method"] == "train-optimal"]
    change = train["chosen for 0.15, at 0.4"] - train["at 0.15"]
    return Finding(bool(change.median() <= EPS),
                   detail=f"change of train-optimal's line from c = 0.15 to 0.4: median {change.median():+.3f} over ten "
                          f"99/1 splits, down on {int((change <= EPS).sum())} of 10")


@_on_results("ferri2019.test-optimal-lower-envelope", _swapped_columns("test-optimal", "train-optimal"))
def test_optimal_lower_envelope(results: pd.DataFrame) -> Finding:
    """Sect. 2: no train-optimal loss below the test-optimal one (the lower envelope), γ = ∞."""
    certain = _at(results, np.inf)
    below = int((certain["train-optimal"] < certain["test-optimal"] - EPS).sum())
    return Finding(below == 0, detail=f"train-optimal below test-optimal in {below} of {len(certain)} runs at γ = ∞")


@_on_results("ferri2019.train-optimal-better-under-uncertainty", _scaled("train-optimal", 10.0, gamma=0.0))
def train_optimal_better_under_uncertainty(results: pd.DataFrame) -> Finding:
    """Sect. 2: under uncertainty train-optimal can beat test-optimal (runs at γ = 0)."""
    uncertain = _at(results, 0.0)
    better = int((uncertain["train-optimal"] < uncertain["test-optimal"] - EPS).sum())
    return Finding(better > 0, detail=f"train-optimal below test-optimal in {better} of {len(uncertain)} runs at γ = 0")


# ----------------------------------------------------------------------------------------------
# Sect. 5: numeric consequences on real scores and on the stored runs

def _theorem1_off(sample: pd.DataFrame) -> dict:
    return {"sample": sample.assign(**{"theorem 1": sample["theorem 1"] + 0.01})}


@check("ferri2019.theorem1", inputs={"sample": theorem1_sample}, mutate=_theorem1_off)
def theorem1(sample: pd.DataFrame) -> Finding:
    """Theorem 1: the sum of the cost lines' contributions equals the expected loss of Eq. 7, here
    estimated by sampling ĉ; agreement within four standard errors for every method."""
    z = (sample["theorem 1"] - sample["monte carlo"]).abs() / sample["standard error"]
    shown = "; ".join(f"{r['method']}: {r['theorem 1']:.4f} vs {r['monte carlo']:.4f} ± {r['standard error']:.4f}"
                      for _, r in sample.iterrows())
    if (z > 4).any():
        return Finding(f"largest |z| = {z.max():.1f}", detail=shown, verdict="not reproduced")
    return Finding(f"largest |z| = {z.max():.1f}", detail=shown, verdict="reproduced")


def _uniform_equivalence(kind: str):
    def mutate(losses: dict) -> dict:
        return {"losses": {**losses, kind: {**losses[kind], "uniform": losses[kind]["uniform"] + 0.01}}}

    @check(f"ferri2019.{kind}-uniform-equivalence", inputs={"losses": uniform_equivalence}, mutate=mutate)
    @_named(f"uniform_equivalence[{kind}]")
    def equivalence(losses: dict) -> Finding:
        driven, uniform = losses[kind]["driven, gamma = 0"], losses[kind]["uniform"]
        detail = f"{kind}-driven at γ = 0: {driven:.6f}; {kind}-uniform: {uniform:.6f} (credit-a, NB, split 1)"
        return Finding(bool(abs(driven - uniform) < 1e-9), detail=detail)

    return equivalence


_uniform_equivalence("score")
_uniform_equivalence("rate")


def _test_optimal_selection(sample: dict) -> dict:
    return {"sample": {**sample, "method": "test-optimal"}}


@check("ferri2019.definition7-trapezoid", inputs={"sample": definition7_sample}, mutate=_test_optimal_selection)
def definition7_trapezoid(sample: dict) -> Finding:
    """Definition 7 prints the trapezoid of cost line i with heights h_i(c_i) and h_{i+1}(c_{i+1});
    its area is Theorem 3's ∫ h_i only if h_{i+1}(c_{i+1}) = h_i(c_{i+1}), i.e. a continuous curve."""
    selection = cs.threshold_selection(sample["y"], sample["s"], sample["method"])
    b, p0, p1 = selection.breaks, selection.p0, selection.p1
    width = np.diff(b)[:-1]
    exact = width * (p0[:-1] + p1[:-1] * b[:-2] + p0[:-1] + p1[:-1] * b[1:-1]) / 2
    printed = width * (p0[:-1] + p1[:-1] * b[:-2] + p0[1:] + p1[1:] * b[1:-1]) / 2
    gap = float(np.abs(printed - exact).sum())
    detail = (f"{sample['method']} thresholds on credit-a (NB): trapezoids with the printed heights differ from "
              f"∫ h_i by {gap:.2e} in total")
    return Finding(gap, detail=detail, verdict="erratum" if gap > 1e-9 else "reproduced")


def _identity(name: str, describe: str, left, right, mutate):
    """Register a check that ``left(results) == right(results)`` in every stored run (to 1e-9)."""

    @_on_results(name, mutate)
    @_named(f"identity[{name}]")
    def identity(results: pd.DataFrame) -> Finding:
        gap = (left(results) - right(results)).abs()
        return Finding(bool(gap.max() < 1e-9), detail=f"{describe}: largest |difference| {gap.max():.1e} over {len(gap)} runs")

    return identity


_identity("ferri2019.table7-score-driven-equals-bs", "score-driven loss at γ = ∞ against BS",
          lambda r: _at(r, np.inf)["score-driven"], lambda r: _at(r, np.inf)["BS"], _swapped_columns("BS", "MAE"))
_identity("ferri2019.score-driven-bs-to-mae", "score-driven at γ = ∞ − BS and at γ = 0 − MAE",
          lambda r: pd.concat([_at(r, np.inf)["score-driven"] - _at(r, np.inf)["BS"],
                               _at(r, 0.0)["score-driven"] - _at(r, 0.0)["MAE"]]),
          lambda r: 0.0, _swapped_columns("BS", "MAE"))


@_on_results("ferri2019.bs-not-above-mae", _swapped_columns("BS", "MAE"))
def bs_not_above_mae(results: pd.DataFrame) -> Finding:
    """Sect. 5.2.1: for probabilities the squared error is never larger than the absolute error."""
    certain = _at(results, np.inf)
    above = int((certain["BS"] > certain["MAE"] + EPS).sum())
    return Finding(above == 0, detail=f"BS > MAE in {above} of {len(certain)} runs")


def _mae_capped(results: pd.DataFrame) -> dict:
    return {"results": results.assign(MAE=np.minimum(results["MAE"], 2 * results["BS"]))}


@_on_results("ferri2019.uncertainty-factor-two", _mae_capped)
def uncertainty_factor_two(results: pd.DataFrame) -> Finding:
    """Sect. 5.2.1 and 6.3: MAE/BS, the factor by which complete uncertainty multiplies the score-driven
    loss, said to be at most 2; the stored runs and a two-instance example exceed it."""
    certain = _at(results, np.inf)
    certain = certain[certain["BS"] > 1e-9]
    ratio = certain["MAE"] / certain["BS"]
    bs, mae, example = theory.mae_over_bs_counterexample()
    detail = (f"MAE/BS above 2 in {int((ratio > 2 + 1e-9).sum())} of {len(ratio)} runs (largest {ratio.max():.1f}); "
              f"scores (0.1, 0.9) on labels (0, 1): {mae}/{bs} = {example}; exactly 2 for calibrated scores "
              f"({theory.calibrated_mae_is_twice_bs()})")
    if ratio.max() > 2 + 1e-9:
        return Finding(float(ratio.max()), detail=detail, verdict="erratum")
    return Finding(float(ratio.max()), detail=detail)


@_on_results("ferri2019.uncertainty-increases-loss", _cheaper_when_uncertain)
def uncertainty_increases_loss(results: pd.DataFrame) -> Finding:
    """Sect. 5.1: aggregated over cost lines, complete uncertainty costs more than certainty for
    test-optimal, score-driven and rate-driven thresholds (every stored run)."""
    keys = ["dataset", "split", "model"]
    certain, uncertain = _at(results, np.inf).set_index(keys), _at(results, 0.0).set_index(keys)
    methods = ["test-optimal", "score-driven", "rate-driven"]
    lower = (uncertain[methods] < certain[methods] - EPS).sum()
    return Finding(bool(lower.sum() == 0),
                   detail="runs where γ = 0 is cheaper than γ = ∞: " + ", ".join(f"{m} {int(n)}" for m, n in lower.items()))


@_on_results("ferri2019.methods-can-swap", _certain_everywhere)
def methods_can_swap(results: pd.DataFrame) -> Finding:
    """Sect. 5.3: a method better than another at one certainty level can be worse at another."""
    keys = ["dataset", "split", "model"]
    certain, uncertain = _at(results, np.inf).set_index(keys), _at(results, 0.0).set_index(keys)
    swaps = {}
    for i, first in enumerate(REALISTIC):
        for second in REALISTIC[i + 1:]:
            before = certain[first] < certain[second] - EPS
            after = uncertain[first] > uncertain[second] + EPS
            reverse = (certain[first] > certain[second] + EPS) & (uncertain[first] < uncertain[second] - EPS)
            swaps[f"{first}/{second}"] = int((before & after).sum() + reverse.sum())
    return Finding(sum(swaps.values()) > 0,
                   detail="runs whose order of two methods reverses from γ = ∞ to γ = 0: "
                          + ", ".join(f"{k} {v}" for k, v in swaps.items()))


def _prior_not_optimal(results: pd.DataFrame) -> dict:
    return _scaled("score-driven", 1.1, models=["Prior"])(results)


@_on_results("ferri2019.prior-score-driven-optimal", _prior_not_optimal)
def prior_score_driven_optimal(results: pd.DataFrame) -> Finding:
    """Sect. 5.3: for the prior model score-driven, train-optimal and test-optimal coincide (means of
    Table 7, to its printing precision; per run they differ only through the train/test class
    proportions)."""
    prior = _at(results, np.inf)
    prior = prior[prior["model"] == "Prior"][["test-optimal", "train-optimal", "score-driven"]].mean()
    spread = float(prior.max() - prior.min())
    return Finding(spread <= 0.0005, detail="Prior at γ = ∞: " + ", ".join(f"{k} {v:.4f}" for k, v in prior.items()))


def _swap_certainty(curves: pd.DataFrame) -> dict:
    return {"curves": curves.rename(columns={"certain": "uncertain", "uncertain": "certain"})}


@check("ferri2019.fig4-certainty-dominates", inputs={"curves": fig4_curves}, mutate=_swap_certainty)
def fig4_certainty_dominates(curves: pd.DataFrame) -> Finding:
    """Fig. 4: share of the c grid (ten splits, J48Unp and NB, four methods) where the γ = ∞ curve is
    not above the γ = 0 curve."""
    below = np.concatenate([c <= u + EPS for c, u in zip(curves["certain"], curves["uncertain"])])
    return Finding(float(below.mean()), detail=f"certainty not worse on {below.mean():.1%} of the grid points of "
                                               f"{len(curves)} curves")


def _never_above(curves: pd.DataFrame) -> dict:
    return {"curves": curves.assign(certain=[u - 1.0 for u in curves["uncertain"]])}


FIG4_REGIONS = {("J48Unp", "train-optimal"): (0.55, 0.65), ("NB", "score-driven"): (0.15, 0.5)}


@check("ferri2019.fig4-small-regions", inputs={"curves": fig4_curves}, mutate=_never_above)
def fig4_small_regions(curves: pd.DataFrame) -> Finding:
    """Fig. 4: the certain curve rises above the uncertain one somewhere in the paper's windows
    (train-optimal around 0.6 for J48Unp, score-driven in [0.15, 0.5] for NB), on at least half of
    the ten splits."""
    found = {}
    for (model, method), (low, high) in FIG4_REGIONS.items():
        window = (FIG4_GRID >= low) & (FIG4_GRID <= high)
        rows = curves[(curves["model"] == model) & (curves["method"] == method)]
        found[f"{model} {method} in [{low:g}, {high:g}]"] = [
            bool(np.any(c[window] > u[window] + EPS)) for c, u in zip(rows["certain"], rows["uncertain"])]
    both = np.logical_and(*found.values())
    return Finding(bool(both.mean() >= 0.5), detail="; ".join(f"{k}: {sum(v)} of 10 splits" for k, v in found.items())
                   + f"; both on {int(both.sum())} of 10")


# ----------------------------------------------------------------------------------------------
# Sect. 6.1: data, models, scale

@check("ferri2019.datasets-count", inputs={"results": RESULTS}, mutate=lambda results: {
    "results": results[results["dataset"] != results["dataset"].iloc[0]]})
def datasets_count(results: pd.DataFrame) -> Finding:
    return Finding(int(results["dataset"].nunique()), detail="datasets in the stored study")


@check("ferri2019.models-count", inputs={"results": RESULTS}, mutate=lambda results: {
    "results": results[results["model"] != "Random"]})
def models_count(results: pd.DataFrame) -> Finding:
    return Finding(int(results["model"].nunique()), detail="model types in the stored study")


@check("ferri2019.models-learned", inputs={"results": RESULTS}, mutate=lambda results: {
    "results": results[results["split"] != 10]})
def models_learned(results: pd.DataFrame) -> Finding:
    """Sect. 6.1: 26 × 12 × 10 fitted models."""
    runs = results.groupby(["dataset", "split", "model"]).ngroups
    return Finding(int(runs), detail=f"{results['dataset'].nunique()} datasets × {results['model'].nunique()} model types "
                                     f"× {results['split'].nunique()} splits = {runs} stored runs")


@check("ferri2019.fig6-points-per-model", inputs={"results": RESULTS}, mutate=lambda results: {
    "results": results[results["split"] != 10]})
def fig6_points_per_model(results: pd.DataFrame) -> Finding:
    """Fig. 6: 260 points (10 splits × 26 datasets) per model type."""
    points = _at(results, np.inf).groupby("model").size()
    return Finding(int(points.min()), detail=f"runs per model type at γ = ∞: {points.min()}–{points.max()}")


def _dataset_range(name: str, column: str, shown: str):
    def mutate(datasets: pd.DataFrame) -> dict:
        return {"datasets": datasets.assign(**{column: datasets[column] * 2})}

    @check(name, inputs={"datasets": ferri_datasets}, mutate=mutate)
    @_named(f"dataset_range[{column}]")
    def value_range(datasets: pd.DataFrame) -> Finding:
        low, high = datasets[column].min(), datasets[column].max()
        return Finding(f"{low:{shown}}–{high:{shown}}", detail=f"{column} from {low:.4g} "
                       f"({datasets.loc[datasets[column].idxmin(), 'dataset']}) to {high:.4g} "
                       f"({datasets.loc[datasets[column].idxmax(), 'dataset']})")

    return value_range


_dataset_range("ferri2019.dataset-attributes-range", "attributes", "d")
_dataset_range("ferri2019.dataset-majority-range", "majority", ".2f")


@check("ferri2019.dataset-sizes", inputs={"datasets": ferri_datasets},
       mutate=lambda datasets: {"datasets": datasets.assign(instances=datasets["instances"] * 2)})
def dataset_sizes(datasets: pd.DataFrame) -> Finding:
    """Sect. 6.1: 'less than 100 to nearly 5000 instances' (nearly: from 4500 to 5000)."""
    low, high = int(datasets["instances"].min()), int(datasets["instances"].max())
    return Finding(bool(low < 100 and 4500 <= high < 5000), detail=f"instances from {low} to {high}")


# ----------------------------------------------------------------------------------------------
# Sect. 6.2: Table 7 and Table 8

def _model_table(results: pd.DataFrame) -> pd.DataFrame:
    """Table 7 of the book, non-baseline model types only, indexed by model."""
    return th.by_model(results).set_index("model").drop(list(BASELINES))


@_on_results("ferri2019.score-driven-more-than-half", _swapped_columns("score-driven", "train-optimal"))
def score_driven_more_than_half(results: pd.DataFrame) -> Finding:
    """Share of the non-baseline model types whose sc_vs_tr exceeds one half."""
    table = _model_table(results)
    above = table["sc_vs_tr"] > 0.5
    return Finding(float(above.mean()), detail=f"sc_vs_tr > 0.5 for {int(above.sum())} of {len(table)} model types")


@_on_results("ferri2019.score-driven-better-except-svm-nb", _swapped_models("NB", "J48"))
def score_driven_exceptions(results: pd.DataFrame) -> Finding:
    """The non-baseline model types with sc_vs_tr ≤ 0.5 (score-driven not better)."""
    table = _model_table(results)
    exceptions = _listed(table.index[table["sc_vs_tr"] <= 0.5])
    return Finding(exceptions, detail="sc_vs_tr: " + ", ".join(f"{m} {v:.3f}" for m, v in table["sc_vs_tr"].items()))


def _printed_ibk10_above_half(table: pd.DataFrame) -> dict:
    return {"table": table.assign(sc_vs_tr=np.where(table["model"] == "IBK10", 0.6, table["sc_vs_tr"]))}


@check("ferri2019.table7-ibk10-exception", inputs={"table": published_table("ferri2019_table7")},
       mutate=_printed_ibk10_above_half)
def table7_ibk10_exception(table: pd.DataFrame) -> Finding:
    """Sect. 6.2 against the paper's own Table 7: the non-baseline model types with sc_vs_tr ≤ 0.5."""
    printed = table[~table["model"].isin(BASELINES)].set_index("model")
    exceptions = _listed(printed.index[printed["sc_vs_tr"] <= 0.5])
    detail = "printed sc_vs_tr ≤ 0.5: " + ", ".join(f"{m} {v:.3f}" for m, v in printed["sc_vs_tr"].items() if v <= 0.5)
    return Finding(exceptions, detail=detail, verdict="erratum" if exceptions != "NB, SVM" else None)


@_on_results("ferri2019.nb-svm-poor-brier", _scaled("BS", 0.5, models=["NB", "SVM"]))
def nb_svm_poor_brier(results: pd.DataFrame) -> Finding:
    """NB and SVM are among the three non-baseline model types with the highest mean BS."""
    bs = _model_table(results)["BS"].sort_values(ascending=False)
    return Finding(bool({"NB", "SVM"} <= set(bs.index[:3])),
                   detail="highest mean BS: " + ", ".join(f"{m} {v:.3f}" for m, v in bs.iloc[:4].items()))


def _correlated_difference(measure: str, target: float = 0.5):
    """Mutate: the rate-driven − train-optimal differences replaced by a mix of ``measure`` and the part
    of the current differences orthogonal to it, whose correlation with ``measure`` is ``target``."""

    def mutate(results: pd.DataFrame) -> dict:
        rows = (results["gamma"] == np.inf) & ~results["model"].isin(BASELINES)
        part = results[rows]
        x = part[measure] - part[measure].mean()
        d = part["rate-driven"] - part["train-optimal"]
        d = d - d.mean()
        residual = d - (d @ x) / (x @ x) * x
        mixed = target * x / x.std() + np.sqrt(1 - target ** 2) * residual / residual.std()
        altered = results.copy()
        altered.loc[rows, "rate-driven"] = part["train-optimal"] + mixed
        return {"results": altered}

    return mutate


def _difference_correlation(name: str, measure: str):
    @_on_results(name, _correlated_difference(measure))
    @_named(f"difference_correlation[{measure}]")
    def correlation(results: pd.DataFrame) -> Finding:
        r = th.difference_correlation(results, measure, "rate-driven")
        readings = th.difference_correlations(results, measures=(measure,))
        others = "; ".join(f"({row['difference']}, {row['model types']} model types): {row['r']:.2f}"
                           for _, row in readings.iloc[1:].iterrows())
        runs = int(readings["runs"].iloc[0])
        return Finding(r, detail=f"Pearson r of (rate-driven − train-optimal) with {measure} over the {runs} "
                                 f"non-baseline runs at γ = ∞: {r:.2f}; other readings {others}")

    return correlation


_difference_correlation("ferri2019.corr-rate-train-bs", "BS")
_difference_correlation("ferri2019.corr-rate-train-cl", "CL")


@_on_results("ferri2019.high-bs-train-optimal-best", lambda results: {"results": results.assign(BS=-results["BS"])})
def high_bs_train_optimal_best(results: pd.DataFrame) -> Finding:
    """Across the non-baseline model types, sc_vs_tr falls as the mean BS grows (Spearman < 0)."""
    table = _model_table(results)
    rho = float(spearmanr(table["BS"], table["sc_vs_tr"]).statistic)
    return Finding(bool(rho < 0), detail=f"Spearman ρ(mean BS, sc_vs_tr) over {len(table)} model types = {rho:.2f}")


@_on_results("ferri2019.means-favour-train-optimal", _score_driven_against({"model": ["J48Unp"]}))
def means_favour_train_optimal(results: pd.DataFrame) -> Finding:
    """The non-baseline model types whose mean train-optimal loss is not below the score-driven one."""
    table = _model_table(results)
    exceptions = _listed(table.index[~(table["train-optimal"] < table["score-driven"] - EPS)])
    return Finding(exceptions, detail="mean train-optimal − score-driven: " + ", ".join(
        f"{m} {v:+.4f}" for m, v in (table["train-optimal"] - table["score-driven"]).items()))


@_on_results("ferri2019.rate-driven-small-gap-nb-ibk1", _swapped_models("NB", "J48"))
def rate_driven_small_gap(results: pd.DataFrame) -> Finding:
    """The two non-baseline model types with the smallest mean rate-driven − score-driven gap."""
    gap = (_model_table(results)["rate-driven"] - _model_table(results)["score-driven"]).sort_values()
    return Finding(_listed(gap.index[:2]), detail="mean rate-driven − score-driven: " + ", ".join(
        f"{m} {v:.3f}" for m, v in gap.iloc[:4].items()))


def _dataset_table(results: pd.DataFrame) -> pd.DataFrame:
    return th.by_dataset(results).set_index("dataset")


def _harder(dataset: str):
    """Mutate: the test-optimal losses of ``dataset`` raised by 0.1."""

    def mutate(results: pd.DataFrame) -> dict:
        rows = results["dataset"] == dataset
        return {"results": results.assign(**{"test-optimal": results["test-optimal"] + 0.1 * rows})}

    return mutate


@_on_results("ferri2019.hardest-datasets", _harder("cylinder-bands"))
def hardest_datasets(results: pd.DataFrame, claim) -> Finding:
    """The three datasets with the highest mean test-optimal loss (Table 8's bottom rows); some of the
    three named is ``partly``."""
    table = _dataset_table(results)
    bottom = table["test-optimal"].sort_values().iloc[-3:]
    return Finding(_listed(bottom.index), verdict=_named_parts(claim.published, _listed(bottom.index)),
                   detail="highest mean test-optimal loss: " + ", ".join(f"{d} {v:.3f}" for d, v in bottom.items()))


@_on_results("ferri2019.table8-train-optimal-advantage",
             _score_driven_against({"dataset": ["breast-w", "heart-statlog"]}))
def table8_train_optimal_advantage(results: pd.DataFrame, claim) -> Finding:
    """The datasets whose mean score-driven loss is not above the train-optimal one; some of the named
    exceptions among them is ``partly``."""
    table = _dataset_table(results)
    gap = table["score-driven"] - table["train-optimal"]
    exceptions = _listed(table.index[gap <= EPS])
    return Finding(exceptions, verdict=_named_parts(claim.published, exceptions),
                   detail=f"train-optimal's mean below score-driven's on {int((gap > EPS).sum())} of {len(gap)} "
                          "datasets; score-driven − train-optimal ≤ 0 on " + ", ".join(
                              f"{d} {v:+.4f}" for d, v in gap.items() if v <= EPS))


@_on_results("ferri2019.table8-pairwise-favours-score-driven", _score_driven_against())
def table8_pairwise(results: pd.DataFrame) -> Finding:
    """More datasets with sc_vs_tr above one half than below it."""
    table = _dataset_table(results)
    above, below = int((table["sc_vs_tr"] > 0.5).sum()), int((table["sc_vs_tr"] < 0.5).sum())
    return Finding(above > below, detail=f"sc_vs_tr > 0.5 on {above} datasets, < 0.5 on {below}")


@_on_results("ferri2019.table8-clearest-wins-train-optimal", _score_driven_against())
def table8_clearest_wins(results: pd.DataFrame) -> Finding:
    """The dataset whose sc_vs_tr is farthest from one half has it below one half (a train-optimal win)."""
    table = _dataset_table(results)
    extreme = (table["sc_vs_tr"] - 0.5).abs().idxmax()
    return Finding(bool(table.loc[extreme, "sc_vs_tr"] < 0.5),
                   detail=f"most lopsided: {extreme} sc_vs_tr {table.loc[extreme, 'sc_vs_tr']:.2f}; range "
                          f"{table['sc_vs_tr'].min():.2f}–{table['sc_vs_tr'].max():.2f}")


@_on_results("ferri2019.train-optimal-better-on-average", _swapped_columns("score-driven", "train-optimal"))
def train_optimal_better_on_average(results: pd.DataFrame) -> Finding:
    """Over all non-baseline runs at γ = ∞, the mean train-optimal loss is below the score-driven one."""
    certain = _real(results, np.inf)
    train, score = certain["train-optimal"].mean(), certain["score-driven"].mean()
    return Finding(bool(train < score), detail=f"mean train-optimal {train:.4f}, score-driven {score:.4f}")


@_on_results("ferri2019.rate-driven-better-on-harder", lambda results: {
    "results": results.assign(**{"test-optimal": -results["test-optimal"]})})
def rate_driven_better_on_harder(results: pd.DataFrame) -> Finding:
    """Across datasets, rd_vs_tr grows with the test-optimal loss (Spearman > 0)."""
    table = _dataset_table(results)
    rho = float(spearmanr(table["test-optimal"], table["rd_vs_tr"]).statistic)
    return Finding(bool(rho > 0), detail=f"Spearman ρ(test-optimal, rd_vs_tr) over {len(table)} datasets = {rho:.2f}")


def _printed_table8_sorted(table: pd.DataFrame) -> dict:
    return {"table": table.sort_values("test-optimal", kind="stable")}


@check("ferri2019.table8-sorted", inputs={"table": published_table("ferri2019_table8")}, mutate=_printed_table8_sorted)
def table8_sorted(table: pd.DataFrame) -> Finding:
    """Table 8's rows as printed, against its caption: sorted on increasing test-optimal loss."""
    loss = table["test-optimal"].to_numpy()
    inverted = np.flatnonzero(np.diff(loss) < 0)
    if len(inverted):
        pairs = ", ".join(f"{table['dataset'].iloc[i]} {loss[i]:.3f} before {table['dataset'].iloc[i + 1]} {loss[i + 1]:.3f}"
                          for i in inverted)
        return Finding(False, detail=f"printed test-optimal column out of order: {pairs}", verdict="erratum")
    return Finding(True, detail="printed test-optimal column in increasing order")


@_loader("published table ferri2019_table8 and the prior model's AUC (credalbook.book.theory.costspace.prior_model)")
def _table8_and_prior_auc() -> dict:
    from credalbook.book.reference import published

    return {"table": published("ferri2019_table8"), "prior AUC": float(theory.prior_model()["AUC"])}


@check("ferri2019.table8-caption-baselines", inputs={"printed": _table8_and_prior_auc},
       mutate=lambda printed: {"printed": {**printed, "table": printed["table"].assign(AUC=0.9)}})
def table8_caption_baselines(printed: dict) -> Finding:
    """Table 8's caption says 'averaged over all model types'; with Prior (AUC 1/2) among the twelve,
    a dataset's mean AUC is at most (11 + 1/2)/12, whatever the other models and Random reach."""
    ceiling = (11 + printed["prior AUC"]) / 12
    top = printed["table"].set_index("dataset")["AUC"]
    above = top[top > ceiling]
    detail = (f"mean AUC over 12 model types with Prior ≤ {ceiling:.3f}; printed above it: "
              + (", ".join(f"{d} {v:.3f}" for d, v in above.items()) or "none"))
    return Finding(len(above) == 0, detail=detail, verdict="erratum" if len(above) else None)


def rate_driven_identity(table8: pd.DataFrame, table5: pd.DataFrame, results: pd.DataFrame) -> pd.DataFrame:
    """Table 8's printed rate-driven loss against the paper's identity 1/3 + π0π1(1 − 2 AUC) (Sect. 4, Table 4).

    The identity is linear in AUC, so it holds for Table 8's means over model types and splits up
    to how π0π1 varies across the splits. Per dataset (Table 8's row): the range of the identity
    over the rounding of the printed AUC (±0.0005) and of Table 5's printed majority share
    (±0.005, π0π1 = m(1 − m)), and the ``gap`` between it and the printed rate-driven loss
    (±0.0005) beyond the ``averaging`` slack, the departure from the identity of the same means
    in the book's runs (γ = ∞, non-baseline models). A positive ``gap`` is a departure.
    """
    shares = table5.reset_index(drop=True).assign(number=lambda t: np.arange(1, len(t) + 1))
    table = table8.merge(shares[["number", "majority"]], on="number", how="left")
    certain = results[np.isinf(results["gamma"]) & ~results["model"].isin(BASELINES)]
    book = certain.assign(pp=certain["pi0"] * (1 - certain["pi0"])).groupby("dataset")[["pp", "AUC", "rate-driven"]].mean()
    averaging = (book["rate-driven"] - (1 / 3 + book["pp"] * (1 - 2 * book["AUC"]))).abs()
    rows = []
    for _, row in table.iterrows():
        low_m, high_m = row["majority"] - 0.005, row["majority"] + 0.005
        products = [m * (1 - m) for m in (low_m, high_m, min(max(0.5, low_m), high_m))]
        values = [1 / 3 + pp * (1 - 2 * auc) for pp in products for auc in (row["AUC"] - 0.0005, row["AUC"] + 0.0005)]
        low, high = min(values), max(values)
        printed = float(row["rate-driven"])
        slack = float(averaging.get(row["dataset"], 0.0))
        gap = max(low - (printed + 0.0005), (printed - 0.0005) - high, 0.0) - slack
        rows.append({"dataset": row["dataset"], "AUC": row["AUC"], "majority": row["majority"], "printed": printed,
                     "identity low": low, "identity high": high, "averaging": slack, "gap": gap})
    return pd.DataFrame(rows)


@_loader("published tables ferri2019_table8 and datasets_ferri2019_table5, and the stored run ferri2019_thresholds")
def _table8_identity_inputs() -> dict:
    from credalbook.book.reference import published

    return {"table8": published("ferri2019_table8"), "table5": published("datasets_ferri2019_table5"),
            "results": RESULTS()}


def _rate_driven_as_identity(printed: dict) -> dict:
    """Altered input: Table 8's rate-driven column printed as the identity gives it (the middle of its range)."""
    found = rate_driven_identity(**printed)
    middle = ((found["identity low"] + found["identity high"]) / 2).round(3).to_numpy()
    return {"printed": {**printed, "table8": printed["table8"].assign(**{"rate-driven": middle})}}


@check("ferri2019.table8-rate-driven-identity", inputs={"printed": _table8_identity_inputs},
       mutate=_rate_driven_as_identity)
def table8_rate_driven_identity(printed: dict) -> Finding:
    """Datasets whose printed rate-driven loss (Table 8) departs from the paper's identity 1/3 + π0π1(1 − 2 AUC)
    beyond the rounding of the printed numbers and what averaging over splits makes (:func:`rate_driven_identity`)."""
    found = rate_driven_identity(**printed)
    off = found[found["gap"] > 1e-9].sort_values("gap", ascending=False)
    worst = ", ".join(f"{r['dataset']} printed {r['printed']:.3f}, identity {r['identity low']:.4f}-"
                      f"{r['identity high']:.4f}" for _, r in off.iterrows())
    detail = (f"{len(off)} of {len(found)} datasets beyond rounding (AUC ±0.0005, Table 5's share ±0.005, the loss "
              f"±0.0005) and averaging (at most {found['averaging'].max():.1e} in the book's runs)"
              + (f": {worst}" if len(off) else ""))
    return Finding(len(off), detail=detail, verdict="erratum" if len(off) else None, severity="misprint")


# ----------------------------------------------------------------------------------------------
# Sect. 6.3: Figs. 5, 6 and 7

@_on_results("ferri2019.fig5-monotone", _scaled("train-optimal", 0.5, gamma=0.0))
def fig5_monotone(results: pd.DataFrame) -> Finding:
    """Every Fig. 5 curve (ten model types, train-optimal and score-driven) is non-decreasing as γ falls."""
    means = th.by_model_and_gamma(results)
    broken = [f"{model} {method}" for method in ("train-optimal", "score-driven")
              for model, curve in means[method].groupby(level="model")
              if np.any(np.diff(curve.droplevel("model").reindex(th.GAMMAS).to_numpy()) < -1e-9)]
    return Finding(not broken, detail="non-monotone curves: " + (", ".join(broken) or "none") + " (of 20)")


def _ranking_concordance(results: pd.DataFrame, method: str, gammas) -> float:
    means = th.by_model_and_gamma(results)[method].unstack("gamma")
    reference = means[np.inf]
    concordant, total = 0, 0
    for gamma in gammas:
        for i, a in enumerate(means.index):
            for b in means.index[i + 1:]:
                total += 1
                concordant += np.sign(reference[a] - reference[b]) == np.sign(means.loc[a, gamma] - means.loc[b, gamma])
    return concordant / total


def _shuffled_at(gamma):
    """Mutate: the model labels of the runs at certainty ``gamma`` reversed in order."""

    def mutate(results: pd.DataFrame) -> dict:
        altered = results.copy()
        rows = altered["gamma"] == gamma
        names = sorted(altered["model"].unique())
        altered.loc[rows, "model"] = altered.loc[rows, "model"].map(dict(zip(names, names[::-1])))
        return {"results": altered}

    return mutate


def _all_shuffled(results: pd.DataFrame) -> dict:
    for gamma in (16.0, 8.0, 4.0):
        results = _shuffled_at(gamma)(results)["results"]
    return {"results": results}


@_on_results("ferri2019.fig5-few-ranking-changes", _all_shuffled)
def fig5_few_ranking_changes(results: pd.DataFrame) -> Finding:
    """Share of pairs of model types (train-optimal) ordered at γ ∈ {16, 8, 4} as at γ = ∞."""
    share = _ranking_concordance(results, "train-optimal", (16.0, 8.0, 4.0))
    at_zero = _ranking_concordance(results, "train-optimal", (0.0,))
    return Finding(float(share), detail=f"pairs ordered as at γ = ∞: {share:.0%} at γ = 16, 8, 4; {at_zero:.0%} at γ = 0")


def _best(results: pd.DataFrame, method: str, gamma, count: int) -> list[str]:
    return list(_means(results, gamma, method).sort_values().index[:count])


@_on_results("ferri2019.fig5-best-at-complete-uncertainty-train",
             _scaled("train-optimal", 0.1, models=["IBK1", "J48Unp"], gamma=0.0))
def fig5_best_uncertain_train(results: pd.DataFrame, claim) -> Finding:
    """The two model types with the lowest mean train-optimal loss at γ = 0; one of the two named is ``partly``."""
    means = _means(results, 0.0, "train-optimal").sort_values()
    best = _listed(means.index[:2])
    return Finding(best, verdict=_named_parts(claim.published, best), detail="lowest at γ = 0: " + ", ".join(
        f"{m} {v:.3f}" for m, v in means.iloc[:4].items()))


@_on_results("ferri2019.fig5-worst-three-at-certainty-train", _swapped_models("J48Unp", "SVMp"))
def fig5_worst_three_certain_train(results: pd.DataFrame) -> Finding:
    """J48Unp and IBK1 are among the three highest mean train-optimal losses at γ = ∞."""
    means = _means(results, np.inf, "train-optimal").sort_values(ascending=False)
    return Finding(bool({"J48Unp", "IBK1"} <= set(means.index[:3])), detail="highest at γ = ∞: " + ", ".join(
        f"{m} {v:.3f}" for m, v in means.iloc[:4].items()))


@_on_results("ferri2019.fig5-lowest-relative-increase", _swapped_models("J48Unp", "Logist"))
def fig5_lowest_relative_increase(results: pd.DataFrame) -> Finding:
    """The two model types whose mean train-optimal loss grows least, relatively, from γ = ∞ to γ = 0."""
    ratio = (_means(results, 0.0, "train-optimal") / _means(results, np.inf, "train-optimal")).sort_values()
    return Finding(_listed(ratio.index[:2]), detail="L_0 / L_∞ (train-optimal): " + ", ".join(
        f"{m} {v:.2f}" for m, v in ratio.iloc[:4].items()))


def _flat(results: pd.DataFrame, model: str, method: str) -> float:
    return float(np.ptp(th.by_model_and_gamma(results)[method].xs(model, level="model").to_numpy()))


@_on_results("ferri2019.ibk1-train-optimal-not-flat", _swapped_columns("train-optimal", "score-driven"))
def ibk1_train_optimal_not_flat(results: pd.DataFrame) -> Finding:
    spread = _flat(results, "IBK1", "train-optimal")
    return Finding(spread > 1e-9, detail=f"IBK1 train-optimal mean loss varies by {spread:.4f} over γ")


@_on_results("ferri2019.low-uncertainty-train-optimal", _scaled("train-optimal", 1.5, gamma=16.0))
def low_uncertainty_train_optimal(results: pd.DataFrame) -> Finding:
    """Share of model types whose mean train-optimal loss at γ = 16 is within 10 % of that at γ = ∞."""
    ratio = _means(results, 16.0, "train-optimal") / _means(results, np.inf, "train-optimal")
    return Finding(float((ratio <= 1.1).mean()), detail="L_16 / L_∞ (train-optimal): " + ", ".join(
        f"{m} {v:.2f}" for m, v in ratio.sort_values().items()))


@_on_results("ferri2019.crisp-score-driven-flat", _scaled("score-driven", 1.1, models=["SVM"], gamma=0.0))
def crisp_score_driven_flat(results: pd.DataFrame) -> Finding:
    """IBK1 and SVM (crisp 0/1 scores): score-driven losses do not depend on γ, in every run."""
    crisp = results[results["model"].isin(["IBK1", "SVM"])]
    spread = crisp.groupby(["dataset", "split", "model"])["score-driven"].agg(np.ptp)
    return Finding(bool(spread.max() < 1e-9), detail=f"largest change over γ of a crisp model's score-driven loss "
                                                     f"{spread.max():.1e} ({len(spread)} runs)")


def _increase(results: pd.DataFrame, method: str) -> pd.Series:
    return th.certainty_increase(results, method)


@_on_results("ferri2019.svmp-in-line", _scaled("score-driven", 3.0, models=["SVMp"], gamma=0.0))
def svmp_in_line(results: pd.DataFrame) -> Finding:
    """SVMp's score-driven increase from γ = ∞ to 0 lies within those of the other non-crisp types."""
    rise = _increase(results, "score-driven")
    others = rise.drop(["SVMp", "SVM", "IBK1"])
    return Finding(bool(others.min() <= rise["SVMp"] <= others.max()),
                   detail=f"score-driven increase: SVMp {rise['SVMp']:.3f}, SVM {rise['SVM']:.3f}, other non-crisp "
                          f"{others.min():.3f}–{others.max():.3f}")


@_on_results("ferri2019.svm-best-uncertain", _swapped_models("SVM", "NB"))
def svm_best_uncertain(results: pd.DataFrame) -> Finding:
    means = _means(results, 0.0, "score-driven").sort_values()
    return Finding(str(means.index[0]), detail="lowest score-driven at γ = 0: " + ", ".join(
        f"{m} {v:.3f}" for m, v in means.iloc[:3].items()))


@_on_results("ferri2019.svm-second-worst-certain", _swapped_models("SVM", "Logist"))
def svm_second_worst_certain(results: pd.DataFrame) -> Finding:
    """SVM's place from the worst among the ten model types, score-driven at γ = ∞."""
    means = _means(results, np.inf, "score-driven").sort_values(ascending=False)
    return Finding(int(list(means.index).index("SVM") + 1), detail="highest score-driven at γ = ∞: " + ", ".join(
        f"{m} {v:.3f}" for m, v in means.iloc[:3].items()))


def _share_above_diagonal(name: str, models: list[str], below: bool):
    """Fig. 6 (γ = ∞): share of the runs of ``models`` above (score-driven worse) or below the diagonal."""

    @_on_results(name, _swapped_columns("score-driven", "train-optimal"))
    @_named(f"fig6_side[{', '.join(models)}]")
    def share(results: pd.DataFrame) -> Finding:
        runs = results[results["model"].isin(models)]
        side = "below" if below else "above"
        pooled = th.diagonal_shares(runs, gammas=(np.inf,), by=(), tol=EPS)[side]
        per_model = th.diagonal_shares(runs, gammas=(np.inf,), tol=EPS)[side].droplevel("gamma")
        return Finding(float(pooled.iloc[0]), detail=f"{side} the diagonal: " + ", ".join(
            f"{m} {v:.0%}" for m, v in per_model.items()))

    return share


_share_above_diagonal("ferri2019.fig6-svm-nb-above-diagonal", ["NB", "SVM"], below=False)
_share_above_diagonal("ferri2019.fig6-j48unp-below-diagonal", ["J48Unp"], below=True)


def _printed_baselines_swapped(table: pd.DataFrame) -> dict:
    return {"table": table.assign(model=table["model"].replace({"Prior": "Random", "Random": "Prior"}))}


@check("ferri2019.baselines-swapped", inputs={"table": published_table("ferri2019_table7")},
       mutate=_printed_baselines_swapped)
def baselines_swapped(table: pd.DataFrame) -> Finding:
    """Sect. 6.3 gives Random the score-driven loss π0π1 (slightly under 1/4) and Prior 1/3; the paper's
    own Table 7 (and Sect. 5.3: the prior model is calibrated, the random model's area is 1/3)."""
    printed = table.set_index("model")["score-driven"]
    prior, random = printed["Prior"], printed["Random"]
    swapped = abs(prior - 1 / 3) > abs(random - 1 / 3)
    detail = f"printed Table 7 score-driven: Prior {prior:.3f}, Random {random:.3f} (1/3 = 0.333)"
    return Finding("Prior ≈ π0π1, Random ≈ 1/3" if swapped else "Random ≈ π0π1, Prior ≈ 1/3", detail=detail,
                   verdict="erratum" if swapped else "reproduced")


@_on_results("ferri2019.pi0pi1-slightly-under-quarter", _scaled("pi0", 0.5))
def pi0pi1_under_quarter(results: pd.DataFrame) -> Finding:
    """Sect. 6.3: the mean of π0π1 over the 26 datasets is slightly under 1/4 (from 0.2 to 0.25)."""
    prior = _at(results, np.inf)
    prior = prior[prior["model"] == "Prior"]
    value = float((prior["pi0"] * (1 - prior["pi0"])).mean())
    return Finding(bool(0.2 <= value < 0.25), detail=f"mean π0π1 of the test halves: {value:.4f}")


@_on_results("ferri2019.degradation-complete-uncertainty", _cheaper_when_uncertain)
def degradation(results: pd.DataFrame) -> Finding:
    """Share of (non-baseline model type, method) pairs whose mean loss is higher at γ = 0 than at γ = ∞."""
    rise = pd.concat({m: _increase(results, m) for m in th.METHODS}, axis=1)
    worse = rise > EPS
    return Finding(float(worse.to_numpy().mean()), detail=f"higher at γ = 0 for {int(worse.to_numpy().sum())} of "
                                                          f"{worse.size} pairs; not for: " + (", ".join(
        f"{m} {c}" for m in rise.index for c in rise.columns if not worse.loc[m, c]) or "none"))


@_on_results("ferri2019.test-optimal-doubles", _scaled("test-optimal", 1.5, gamma=0.0))
def test_optimal_doubles(results: pd.DataFrame) -> Finding:
    """Sect. 6.3 (Theorem 7 in the runs): test-optimal L_0 / L_∞ in every run with a non-zero loss;
    the book's value is the ratio farthest from 2."""
    keys = ["dataset", "split", "model"]
    certain, uncertain = _at(results, np.inf).set_index(keys), _at(results, 0.0).set_index(keys)
    nonzero = certain["test-optimal"] > 1e-12
    ratio = uncertain.loc[nonzero, "test-optimal"] / certain.loc[nonzero, "test-optimal"]
    farthest = float(ratio.iloc[int(np.argmax(np.abs(ratio.to_numpy() - 2)))])
    return Finding(farthest, detail=f"L_0/L_∞ from {ratio.min():.9f} to {ratio.max():.9f} over {len(ratio)} runs")


@_on_results("ferri2019.train-optimal-softened", _scaled("train-optimal", 3.0, gamma=0.0))
def train_optimal_softened(results: pd.DataFrame) -> Finding:
    """The mean train-optimal loss grows by less than a factor 2 from γ = ∞ to γ = 0 (non-baseline)."""
    ratio = _real(results, 0.0)["train-optimal"].mean() / _real(results, np.inf)["train-optimal"].mean()
    return Finding(bool(ratio < 2), detail=f"mean train-optimal L_0 / L_∞ = {ratio:.2f}")


@_on_results("ferri2019.train-optimal-degrades-more", _scaled("train-optimal", 2.0, gamma=0.0))
def train_optimal_degrades_more(results: pd.DataFrame) -> Finding:
    """Share of model types whose mean train-optimal loss rises more than the score-driven one, γ = ∞ → 0."""
    extra = _increase(results, "train-optimal") - _increase(results, "score-driven")
    return Finding(float((extra > 1e-9).mean()), detail="train-optimal − score-driven increase: " + ", ".join(
        f"{m} {v:+.3f}" for m, v in extra.sort_values().items()))


@_on_results("ferri2019.svm-most-obvious", _swapped_models("SVM", "Stump"))
def svm_most_obvious(results: pd.DataFrame) -> Finding:
    """The model type for which train-optimal degrades most relative to score-driven."""
    extra = (_increase(results, "train-optimal") - _increase(results, "score-driven")).sort_values(ascending=False)
    return Finding(str(extra.index[0]), detail="train-optimal − score-driven increase: " + ", ".join(
        f"{m} {v:+.3f}" for m, v in extra.iloc[:3].items()))


def _credit_a(results: pd.DataFrame, gamma) -> pd.DataFrame:
    """Fig. 7: credit-a's mean losses per model type over its ten stored splits at certainty ``gamma``."""
    part = results[(results["dataset"] == "credit-a") & (results["gamma"] == gamma)]
    return part.groupby("model")[list(th.METHODS)].mean()


def _richer_as_stated(simpler: str, richer: str):
    """Mutate: credit-a's ``richer`` runs given ``simpler``'s mean losses plus 0.02 (score-driven: plus 0.01)."""

    def mutate(results: pd.DataFrame) -> dict:
        altered = results.copy()
        for gamma, means in results[results["dataset"] == "credit-a"].groupby("gamma"):
            simple = means[means["model"] == simpler][list(th.METHODS)].mean()
            rows = (altered["dataset"] == "credit-a") & (altered["model"] == richer) & (altered["gamma"] == gamma)
            for method in th.METHODS:
                altered.loc[rows, method] = simple[method] + (0.01 if method == "score-driven" else 0.02)
        return {"results": altered}

    return mutate


def _fig7_pair(name: str, simpler: str, richer: str):
    """Fig. 7: every method is worse for ``richer`` than for ``simpler`` and score-driven is the least affected."""

    @_on_results(name, _richer_as_stated(simpler, richer))
    @_named(f"fig7_pair[{simpler}, {richer}]")
    def pair(results: pd.DataFrame) -> Finding:
        means = _credit_a(results, np.inf)
        rise = means.loc[richer] - means.loc[simpler]
        holds = bool((rise > 0).all() and rise.idxmin() == "score-driven")
        return Finding(holds, detail=f"credit-a, {richer} − {simpler} (γ = ∞, ten splits): " + ", ".join(
            f"{m} {v:+.3f}" for m, v in rise.items()))

    return pair


_fig7_pair("ferri2019.fig7-unpruned-worse", "J48", "J48Unp")
_fig7_pair("ferri2019.fig7-ibk-similar", "IBK10", "IBK1")


def _credit_a_order(name: str, model: str, gamma):
    @_on_results(name, _swapped_columns("score-driven", "train-optimal"))
    @_named(f"credit_a_order[{model}, {gamma}]")
    def order(results: pd.DataFrame) -> Finding:
        means = _credit_a(results, gamma).loc[model]
        return Finding(bool(means["score-driven"] < means["train-optimal"]),
                       detail=f"credit-a, {model}, γ = {'∞' if gamma == np.inf else f'{gamma:g}'}: score-driven "
                              f"{means['score-driven']:.3f}, train-optimal {means['train-optimal']:.3f}")

    return order


_credit_a_order("ferri2019.fig7-unpruned-score-beats-train", "J48Unp", np.inf)
_credit_a_order("ferri2019.fig7-svm-score-driven-uncertain", "SVM", 0.0)


@check("ferri2019.fig7-pruning-fewer-lines", inputs={"lines": fig7_cost_lines},
       mutate=lambda lines: {"lines": lines.rename(columns={"J48": "J48Unp", "J48Unp": "J48"})})
def fig7_pruning_fewer_lines(lines: pd.DataFrame) -> Finding:
    """Fig. 7: pruned J48 has fewer cost lines than J48Unp (mean over the ten credit-a splits)."""
    return Finding(bool(lines["J48"].mean() < lines["J48Unp"].mean()),
                   detail=f"cost lines on credit-a: J48 {lines['J48'].mean():.1f}, J48Unp {lines['J48Unp'].mean():.1f} "
                          f"(mean over ten splits)")


@check("ferri2019.fig7-svm-train-optimal-three-lines", inputs={"lines": fig7_cost_lines},
       mutate=lambda lines: {"lines": lines.assign(**{"SVM train-optimal lines": 2})})
def fig7_svm_three_lines(lines: pd.DataFrame) -> Finding:
    """Sect. 7 (Fig. 7): distinct cost lines train-optimal uses for the crisp SVM (most frequent over splits)."""
    counts = lines["SVM train-optimal lines"]
    return Finding(int(counts.mode().iloc[0]), detail="lines per credit-a split: " + ", ".join(map(str, counts)))


# ----------------------------------------------------------------------------------------------
# Sect. 6.3's summary and Sect. 7

@_on_results("ferri2019.best-methods-all-certainty", _scaled("rate-driven", 0.2))
def best_methods_all_certainty(results: pd.DataFrame) -> Finding:
    """At every γ, the realistic method with the lowest mean loss (non-baseline runs) is train-optimal or score-driven."""
    means = _real(results).groupby("gamma")[list(REALISTIC)].mean()
    best = means.idxmin(axis=1)
    return Finding(bool(best.isin(["train-optimal", "score-driven"]).all()), detail="best per γ: " + ", ".join(
        f"{'∞' if g == np.inf else f'{g:g}'} {m}" for g, m in best.sort_index(ascending=False).items()))


@_on_results("ferri2019.rate-driven-poor-in-general", _scaled("rate-driven", 0.5))
def rate_driven_poor_in_general(results: pd.DataFrame) -> Finding:
    """Share of (non-baseline model type, γ) cells where rate-driven has the highest mean realistic loss."""
    means = _real(results).groupby(["model", "gamma"])[list(REALISTIC)].mean()
    worst = means.idxmax(axis=1) == "rate-driven"
    per_model = worst.groupby(level="model").mean()
    return Finding(float(worst.mean()), detail=f"rate-driven worst in {int(worst.sum())} of {len(worst)} cells; NB "
                                               f"{per_model['NB']:.0%}, SVM {per_model['SVM']:.0%} of their γ")


@_on_results("ferri2019.extreme-probabilities-superior", _swapped_models("SVM", "Logist"))
def extreme_probabilities_superior(results: pd.DataFrame) -> Finding:
    """At γ = 0 the best model type, for train-optimal and for score-driven, outputs extreme scores
    (SVM, J48Unp or IBK1)."""
    best = {m: _best(results, m, 0.0, 1)[0] for m in ("train-optimal", "score-driven")}
    return Finding(bool(set(best.values()) <= {"SVM", "J48Unp", "IBK1"}),
                   detail="best at γ = 0: " + ", ".join(f"{m} {b}" for m, b in best.items()))


@_on_results("ferri2019.cl-helps-score-driven", lambda results: {
    "results": results.assign(CL=results["score-driven"] - results["train-optimal"])})
def cl_helps_score_driven(results: pd.DataFrame) -> Finding:
    """Across model types (Table 7) and datasets (Table 8), CL and the score-driven − train-optimal
    gap rise together: an association the paper has "seen experimentally", so each Spearman ρ must be
    beyond noise (:func:`credalbook.book.ledger.policy.association_seen`)."""
    rhos = th.gap_rank_correlations(results, "CL", "score-driven")
    sizes = {"model types": len(_model_table(results)), "datasets": len(_dataset_table(results))}
    seen = all(policy.association_seen(rhos[label], n) for label, n in sizes.items())
    return Finding(seen, detail="Spearman ρ(CL, score-driven − train-optimal): " + ", ".join(
        f"{label} {rhos[label]:.2f} (noise {policy.rank_correlation_noise(n):.2f} over {n})"
        for label, n in sizes.items()))


@_on_results("ferri2019.no-calibration-pattern-uncertain", lambda results: {
    "results": results.assign(**{"score-driven": np.where(results["gamma"] == 0.0, results["CL"],
                                                          results["score-driven"])})})
def no_calibration_pattern(results: pd.DataFrame) -> Finding:
    """No clear pattern between calibration and score-driven loss at γ = 0: ``|Spearman ρ|`` below 0.5
    across the ten model types (CL from γ = ∞, which does not depend on γ)."""
    cl = _model_table(results)["CL"]
    loss = _means(results, 0.0, "score-driven").reindex(cl.index)
    rho = float(spearmanr(cl, loss).statistic)
    certain = float(spearmanr(cl, _means(results, np.inf, "score-driven").reindex(cl.index)).statistic)
    return Finding(bool(abs(rho) < 0.5), detail=f"Spearman ρ(CL, score-driven loss): {rho:.2f} at γ = 0, {certain:.2f} at γ = ∞")


@_on_results("ferri2019.more-diverse-with-uncertainty", lambda results: {"results": results.assign(**{
    m: np.where(results["gamma"] == 0.0, 0.3, results[m]) for m in ("train-optimal", "score-driven")})})
def more_diverse(results: pd.DataFrame) -> Finding:
    """The spread (standard deviation) of the model types' mean losses is larger at γ = 0 than at γ = ∞,
    for train-optimal and score-driven thresholds."""
    spread = {(m, g): float(_means(results, g, m).std()) for m in ("train-optimal", "score-driven") for g in (np.inf, 0.0)}
    holds = all(spread[(m, 0.0)] > spread[(m, np.inf)] for m in ("train-optimal", "score-driven"))
    return Finding(holds, detail="sd over model types, γ = ∞ → 0: " + ", ".join(
        f"{m} {spread[(m, np.inf)]:.3f} → {spread[(m, 0.0)]:.3f}" for m in ("train-optimal", "score-driven")))


def _share_rate_driven_worst(results: pd.DataFrame) -> float:
    certain = _real(results, np.inf)
    worst = certain[list(REALISTIC)].max(axis=1)
    return float(np.mean(certain["rate-driven"] >= worst - EPS))


def _rate_driven_better(results: pd.DataFrame) -> dict:
    """Altered input: rate-driven's losses halved, so that it is rarely the worst."""
    return {"results": results.assign(**{"rate-driven": results["rate-driven"] / 2})}


@check("ferri2019.rate-driven-worst", inputs={"results": RESULTS}, mutate=_rate_driven_better)
def rate_driven_worst(results: pd.DataFrame) -> Finding:
    """Share of non-baseline runs at γ = ∞ where rate-driven has the largest loss of the realistic methods."""
    share = _share_rate_driven_worst(results)
    return Finding(book=share, detail=f"rate-driven is the worst realistic method in {share:.0%} of the "
                                      "non-baseline runs at γ = ∞")


@_on_results("ferri2019.train-optimal-often-suboptimal", _swapped_columns("train-optimal", "test-optimal"))
def train_optimal_often_suboptimal(results: pd.DataFrame) -> Finding:
    """Share of non-baseline runs at γ = ∞ where train-optimal's loss exceeds test-optimal's."""
    certain = _real(results, np.inf)
    share = float((certain["train-optimal"] > certain["test-optimal"] + EPS).mean())
    return Finding(share, detail=f"train-optimal above test-optimal in {share:.0%} of {len(certain)} runs")


@_on_results("ferri2019.train-score-similar", _scaled("score-driven", 1.5))
def train_score_similar(results: pd.DataFrame) -> Finding:
    """The mean train-optimal and score-driven losses (non-baseline, γ = ∞) within 10 % of each other."""
    certain = _real(results, np.inf)
    train, score = certain["train-optimal"].mean(), certain["score-driven"].mean()
    gap = abs(score - train) / train
    return Finding(bool(gap <= 0.1), detail=f"mean train-optimal {train:.4f}, score-driven {score:.4f} "
                                            f"(relative difference {gap:.1%})")


# ----------------------------------------------------------------------------------------------
# The protocol rule: Sect. 6 judged on Weka's learners, the stand-ins as a reading

#: The checks of Figs. 5-6, of the correlations of Sect. 6.2 and of the findings they support.
#:
#: The claims the figures page sets side by side on both arms (:func:`arms_comparison`).
BOTH_ARMS = (
    # Sect. 6.3, Fig. 5
    "ferri2019.fig5-monotone", "ferri2019.fig5-few-ranking-changes", "ferri2019.fig5-best-at-complete-uncertainty-train",
    "ferri2019.fig5-worst-three-at-certainty-train", "ferri2019.fig5-lowest-relative-increase",
    "ferri2019.ibk1-train-optimal-not-flat", "ferri2019.low-uncertainty-train-optimal", "ferri2019.crisp-score-driven-flat",
    "ferri2019.svmp-in-line", "ferri2019.svm-best-uncertain", "ferri2019.svm-second-worst-certain",
    # Sect. 6.3, Fig. 6
    "ferri2019.fig6-points-per-model", "ferri2019.fig6-svm-nb-above-diagonal", "ferri2019.fig6-j48unp-below-diagonal",
    "ferri2019.degradation-complete-uncertainty", "ferri2019.test-optimal-doubles", "ferri2019.train-optimal-softened",
    "ferri2019.train-optimal-degrades-more", "ferri2019.svm-most-obvious",
    # Sect. 6.2, the correlations and the sentences around them
    "ferri2019.nb-svm-poor-brier", "ferri2019.corr-rate-train-bs", "ferri2019.corr-rate-train-cl",
    "ferri2019.high-bs-train-optimal-best",
    # Sect. 6.3's findings drawn from Figs. 5-6 and the correlations
    "ferri2019.best-methods-all-certainty", "ferri2019.extreme-probabilities-superior", "ferri2019.cl-helps-score-driven",
    "ferri2019.no-calibration-pattern-uncertain", "ferri2019.more-diverse-with-uncertainty",
)
#: The page that shows the two arms' verdicts on Figs. 5-6 and the correlations.
FIGURES = "chapters/thresholds/figures"


def standins_twin(name: str) -> str:
    """The id of check (and claim) ``name`` judged on the book's stand-ins: ``ferri2019.standins.<rest>``."""
    prefix = "ferri2019."
    if not name.startswith(prefix) or name.startswith(prefix + "standins."):
        raise ValueError(f"name must be a ferri2019 check of the study, got {name!r}")
    return prefix + "standins." + name[len(prefix):]


def standins_twin_records(records: list[dict]) -> list[dict]:
    """The claims of ``ferri2019_standins.yml``: each claim of ``records`` (as in ``ferri2019.yml``) whose check is of
    :data:`STUDY_CHECKS`, judged on the book's scikit-learn stand-ins, a reading never counted."""
    return twin_records(records, STUDY_CHECKS, standins_twin, section="on the book's stand-ins", reading=STAND_INS,
                        note=lambda name: f"Judged on the book's scikit-learn stand-ins for Weka's learners (the "
                                          f"stored run ferri2019_thresholds), read as {name} is (see its note), "
                                          f"which is judged on Weka's learners, the paper's protocol.")


# Altered inputs for checks whose stand-ins' alteration cannot flip the verdict on Weka's learners: the
# stand-ins' alteration moves IBK1 to the top, where Weka's IBK1 already is (PART second).
_WEKA_MUTATE = {
    "ferri2019.fig5-best-at-complete-uncertainty-train": _scaled("train-optimal", 0.1, models=["J48Unp"], gamma=0.0),
}


def arms_comparison(entries: pd.DataFrame, names=BOTH_ARMS) -> pd.DataFrame:
    """The claims judged on both arms side by side, from the ledger's rows ``entries``: one row per
    claim of ``names`` (in that order) with its section, the paper's words and value, and per arm
    the book's value and verdict (columns ``weka``, ``weka verdict``: the counted verdict on Weka's
    learners; ``stand-ins``, ``stand-ins verdict``: the reading) and ``same`` (whether they agree)."""
    required = {"id", "section", "statement", "published", "book", "verdict"}
    if not isinstance(entries, pd.DataFrame) or not required <= set(entries.columns):
        raise ValueError(f"entries must be ledger rows with the columns {sorted(required)}")
    rows = entries.drop_duplicates("id").set_index("id")
    missing = [i for n in names for i in (n, standins_twin(n)) if i not in rows.index]
    if missing:
        raise ValueError(f"entries lack the claims {missing}")
    table = []
    for name in names:
        weka, stand_in = rows.loc[name], rows.loc[standins_twin(name)]
        table.append({"id": name, "section": weka["section"], "statement": weka["statement"],
                      "published": weka["published"], "weka": weka["book"], "weka verdict": weka["verdict"],
                      "stand-ins": stand_in["book"], "stand-ins verdict": stand_in["verdict"],
                      "same": weka["verdict"] == stand_in["verdict"]})
    return pd.DataFrame(table)


# ----------------------------------------------------------------------------------------------
# The referees' audit: the paper against its own tables

TABLE5_PRINTED = published_table("datasets_ferri2019_table5")
TABLE7_PRINTED = published_table("ferri2019_table7")
TABLE8_PRINTED = published_table("ferri2019_table8")


def duplicated_datasets(table5: pd.DataFrame, table8: pd.DataFrame) -> list[tuple[str, str]]:
    """Pairs of datasets whose rows agree in every printed column of Table 5 (size, attributes, majority
    share) and of Table 8 (the ten measures, pairwise proportions over 100 runs included)."""
    five = table5.assign(key=table5["dataset"].str.lower().str.replace("-", "", regex=False)).set_index("key")
    eight = table8.assign(key=table8["dataset"].str.lower().str.replace("-", "", regex=False)).set_index("key")
    measures5 = [c for c in five.columns if c != "dataset"]
    measures8 = [c for c in eight.columns if c not in ("dataset", "number")]
    keys = sorted(set(five.index) & set(eight.index))
    pairs = []
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            if (np.allclose(five.loc[a, measures5].astype(float), five.loc[b, measures5].astype(float), atol=0)
                    and np.allclose(eight.loc[a, measures8].astype(float), eight.loc[b, measures8].astype(float),
                                    atol=0)):
                pairs.append((str(five.loc[a, "dataset"]), str(five.loc[b, "dataset"])))
    return pairs


def _liver_row_altered(table5: pd.DataFrame, table8: pd.DataFrame) -> dict:
    """Altered input: Table 8's liver-disorders row with its sc_vs_tr one unit of the third decimal higher."""
    altered = table8.copy()
    altered.loc[altered["dataset"] == "liver-disorders", "sc_vs_tr"] += 0.001
    return {"table5": table5, "table8": altered}


@check("ferri2019.distinct-datasets", inputs={"table5": TABLE5_PRINTED, "table8": TABLE8_PRINTED},
       mutate=_liver_row_altered)
def distinct_datasets(table5: pd.DataFrame, table8: pd.DataFrame) -> Finding:
    """Sect. 6.1's 26 datasets, counted as the printed tables tell them apart: two rows identical in every
    column of Table 5 and of Table 8 (ten measures averaged over 10 splits, the pairwise proportions
    over 100 runs) are the same data entered twice."""
    pairs = duplicated_datasets(table5, table8)
    distinct = len(table5) - len(pairs)
    detail = (f"{len(table5)} rows of Table 5; " + ("; ".join(f"{a} and {b} agree in all {table5.shape[1] - 1} "
                                                               f"columns of Table 5 and all "
                                                               f"{table8.shape[1] - 2} of Table 8" for a, b in pairs)
                                                    if pairs else "no two rows agree in every column"))
    return Finding(book=distinct, detail=detail, verdict="erratum" if distinct != len(table5) else None,
                   severity="error of substance" if distinct != len(table5) else None)


@_loader("Sect. 5.3: the prior model's constant score pi1, the train-optimal and score-driven thresholds (sympy)")
def prior_thresholds() -> dict:
    """For the constant score s = pi1: the c where the train-optimal rule switches (the crossing of the
    default lines 2 c pi0 and 2 (1 − c) pi1) and the c where the score-driven rule (class 1 iff s > c) does."""
    c, pi1 = sp.symbols("c pi1", positive=True)
    crossing = sp.solve(sp.Eq(2 * c * (1 - pi1), 2 * (1 - c) * pi1), c)
    return {"train-optimal": crossing[0], "score-driven": pi1}


def _prior_sc_vs_tr_one(thresholds: dict, table7: pd.DataFrame) -> dict:
    """Altered input: Table 7's Prior sc_vs_tr printed as 1.000."""
    altered = table7.copy()
    altered.loc[altered["model"] == "Prior", "sc_vs_tr"] = 1.0
    return {"thresholds": thresholds, "table7": altered}


@check("ferri2019.prior-sc-vs-tr", inputs={"thresholds": prior_thresholds, "table7": TABLE7_PRINTED},
       mutate=_prior_sc_vs_tr_one)
def prior_sc_vs_tr(thresholds: dict, table7: pd.DataFrame) -> Finding:
    """Sect. 5.3 against Table 7: when score-driven and train-optimal switch at the same c, their losses are
    equal in every run, and sc_vs_tr (the share of runs where score-driven is better or equal) is 1."""
    same = sp.simplify(thresholds["train-optimal"] - thresholds["score-driven"]) == 0
    implied = 1.0 if same else float("nan")
    printed = float(table7.loc[table7["model"] == "Prior", "sc_vs_tr"].iloc[0])
    half = 0.0005
    contradicted = same and abs(printed - implied) > half
    detail = (f"train-optimal switches at c = {thresholds['train-optimal']}, score-driven at c = "
              f"{thresholds['score-driven']}: {'the same' if same else 'not the same'} rule, so sc_vs_tr = 1; "
              f"Table 7 prints {printed:.3f}")
    return Finding(book=not contradicted, detail=detail, verdict="erratum" if contradicted else None,
                   severity="unsupported inference" if contradicted else None)


def _rl_as_test_optimal(table7: pd.DataFrame) -> dict:
    """Altered input: Table 7's RL column set to its test-optimal column (the convexified refinement loss)."""
    return {"table7": table7.assign(RL=table7["test-optimal"])}


@check("ferri2019.rl-convexified", inputs={"table7": TABLE7_PRINTED}, mutate=_rl_as_test_optimal)
def rl_convexified(table7: pd.DataFrame) -> Finding:
    """Sect. 4 and Table 4 tie the test-optimal expected loss to the convexified refinement loss RL(Cal(m));
    Table 7's RL should then equal its test-optimal column. Models whose two printed values differ by more
    than the rounding of both (one unit of the third decimal)."""
    rows = table7[~table7["model"].astype(str).str.lower().isin(["mean", "average"])]
    gap = rows["test-optimal"] - rows["RL"]
    beyond = rows[gap.abs() > 2 * 0.0005 + 1e-9]
    detail = f"{len(beyond)} of {len(rows)} models with RL off test-optimal beyond rounding"
    if len(beyond):
        detail += ": " + ", ".join(f"{r['model']} RL {r['RL']:.3f} vs {r['test-optimal']:.3f}"
                                   for _, r in beyond.iterrows())
    return Finding(book=len(beyond) == 0, detail=detail, verdict="erratum" if len(beyond) else None,
                   severity="unsupported inference" if len(beyond) else None)


@_loader("Table 6: the Laplace leaf estimate (n1 + 1)/(n + 2) of J48Unp (sympy)")
def laplace_leaf() -> sp.Expr:
    """The class-1 estimate of a leaf with ``n`` training instances, ``n1`` of class 1, under Laplace correction."""
    n, n1 = sp.symbols("n n1", nonnegative=True, integer=True)
    return (n1 + 1) / (n + 2)


def _relative_frequency(leaf: sp.Expr) -> dict:
    """Altered input: the uncorrected relative frequency n1/n (crisp on a pure leaf)."""
    n, n1 = sp.symbols("n n1", nonnegative=True, integer=True)
    return {"leaf": n1 / n}


@check("ferri2019.j48unp-not-crisp", inputs={"leaf": laplace_leaf}, mutate=_relative_frequency)
def j48unp_not_crisp(leaf: sp.Expr) -> Finding:
    """Sect. 7 calls J48 unpruned a method of crisp probabilities; Table 6 gives it Laplace correction, whose
    leaf estimate reaches 0 or 1 on no leaf: the extremes over ``0 <= n1 <= n`` are 1/(n + 2) and (n + 1)/(n + 2)."""
    n, n1 = sp.symbols("n n1", nonnegative=True, integer=True)
    low, high = sp.simplify(leaf.subs(n1, 0)), sp.simplify(leaf.subs(n1, n))
    crisp = bool(sp.simplify(low) == 0 or sp.simplify(high - 1) == 0)
    detail = f"pure leaves of n instances give {low} and {high}"
    return Finding(book=crisp, detail=detail, verdict="erratum" if not crisp else None,
                   severity="misprint" if not crisp else None)


@_loader("Sect. 2 and 4: what Table 2 and Fig. 2 show (Table 2 from spam_example; Fig. 2's caption)")
def cost_matrix_objects() -> dict:
    """The cost matrices each object cited near Eq. (1) shows: Table 2 the assumed (a) and true (b) costs of the
    spam example, Fig. 2 none ('Histograms (using 1,000,000 values) of ĉ for a cost value c = 0.2 and two
    different levels of certainty')."""
    example = spam_example()
    return {"Table 2": [example["assumed"], example["true"]], "Fig. 2": []}


def _objects_swapped(objects: dict) -> dict:
    """Altered input: the cost matrices shown in Fig. 2 instead of Table 2."""
    return {"objects": {"Table 2": objects["Fig. 2"], "Fig. 2": objects["Table 2"]}}


@check("ferri2019.cost-matrix-examples-reference", inputs={"objects": cost_matrix_objects}, mutate=_objects_swapped)
def cost_matrix_examples_reference(objects: dict, claim) -> Finding:
    """Sect. 4: 'Two examples were given in' the object the claim's ``published`` names; the object that
    shows two cost matrices (c_0, c_1) is the book's value."""
    holding = [name for name, matrices in objects.items() if len(matrices) == 2]
    cited = str(claim.published)
    wrong = cited not in holding
    detail = (", ".join(f"{name}: {len(m)} cost matrices" for name, m in objects.items())
              + f"; the sentence cites {cited}")
    return Finding(book=holding[0] if holding else "none", detail=detail,
                   verdict="erratum" if wrong else "reproduced", severity="misprint" if wrong else None)


#: Every check computed from the stored study of Sect. 6 and 7, judged on Weka's learners (the paper's protocol).
STUDY_CHECKS = tuple(name for name, item in CHECKS.items()
                     if name.startswith("ferri2019.") and any(loader is RESULTS for loader in item.inputs.values()))
protocol_twins(STUDY_CHECKS, standins_twin, lambda loader: WEKA_RESULTS if loader is RESULTS else loader, _WEKA_MUTATE)
