"""Ledger entries of Aguilar-Ruiz (2025), the certainty ratio C_rho (Part V).

Three groups, by the chapter that shows them:

- the definitions and the worked example of Sections 3-6 (Examples 3-13, Eqs. 9-21, the bounds
  of d and C_rho), computed exactly by :mod:`credalbook.book.theory.certainty`;
- what Section 6 says C_rho rewards, decided on small constructed cases and on the Gaussian
  posterior of :func:`credalbook.book.experiments.certainty.gaussian_posterior_sample`;
- the experiments of Section 7 (Tables 1-6 and the prose that reads them) and the conclusions,
  computed from the stored result ``aguilar2025_certainty`` (see
  :mod:`credalbook.book.experiments.certainty`), from the paper's own printed tables where the paper
  contradicts itself, and from the dataset registry.

The paper states no evaluation protocol: the book's tables use pooled out-of-fold probabilities
of stratified 10-fold cross-validation; the measures averaged over the test folds are registered
as the alternative reading ``folds averaged``.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import sympy as sp
from scipy.stats import spearmanr

from credalbook import certainty as cr
from credalbook.book.experiments import certainty as ex
from credalbook.book.ledger.core import Finding, book_table, check, stored
from credalbook.book.theory import certainty as th

__all__ = ["printed_tables", "dataset_listing", "example_probabilities", "confident_first_row",
           "hedged_first_row", "confident_example", "calibrated_posterior", "table6", "table6_folds_averaged",
           "table1", "eq9_maximum_over_instances", "row_sums", "eq11_decomposition", "accuracy_decomposition",
           "divergence_maximum_expression", "divergence_bound", "zero_divergence_zero_uncertainty",
           "certainty_ratio_bounds", "ratio_one_complete_confidence", "penalizes_chance",
           "low_true_probability_lowers_ratio", "confident_row_raises_ratio", "ideal_ratio_near_one",
           "calibrated_low_ratio", "many_classes_flat", "datasets_count", "knn_divergence",
           "tree_mean_divergence", "rows_beyond_rounding", "ratio_column_consistency", "high_ratio_accurate",
           "uncertainty_accuracy_ranking", "tree_accuracy_below", "imcp_closer_share",
           "imcp_closer_to_probabilistic_accuracy", "last_column_measure", "accuracy_overestimates",
           "calibration_leaders", "tree_most_reliable", "forest_reliability_undermined", "worked_example_instances",
           "certainty_matrix_correct_classifications", "AUDITED_TABLES", "certain_share_intervals",
           "ratio_tracks_certain_share", "findings"]

RESULTS = stored("aguilar2025_certainty")
EXPERIMENTS = "chapters/certainty/experiments"
DATASETS = "chapters/datasets"
FOLDS_AVERAGED = "folds averaged"
CALIBRATION = ("brier", "log_loss", "ece")
# Tables 2-6 print accuracies and IMCP with three decimals, div and C_rho (percent) with one
PRINTED_HALF_UNIT = {column: 0.05 if column in ("div_pct", "c_rho_pct") else 0.0005
                     for column in ex.PAPER_COLUMNS}


# ----------------------------------------------------------------------------------------------
# Inputs
# ----------------------------------------------------------------------------------------------

def printed_tables() -> dict[str, pd.DataFrame]:
    """The paper's Tables 2-5 (by classifier, Mean row included) and Table 6 (key ``"Table 6"``), as transcribed."""
    from credalbook.book.reference import published

    tables = {classifier: published(name) for classifier, name in ex.TABLES.items()}
    tables["Table 6"] = published("aguilar2025_table6")
    return tables


printed_tables.evidence = "published tables aguilar2025_table2-6"


def dataset_listing() -> pd.DataFrame:
    """The registry's rows of the paper's 21 datasets (sizes of those available, majority-class share)."""
    from credalbook.data import list_datasets

    listing = list_datasets("aguilar2025")
    return listing[listing["in_paper"]].reset_index(drop=True)


dataset_listing.evidence = "credalbook.data.list_datasets('aguilar2025')"


def example_probabilities() -> sp.Matrix:
    """Q of Example 5 (exact)."""
    return th.EXAMPLE_Q


def confident_first_row() -> tuple[float, ...]:
    """Section 6's confident prediction: the correct class (A) given 0.9."""
    return (0.9, 0.1, 0.0)


def hedged_first_row() -> tuple[float, ...]:
    """Section 6's hedged prediction: the correct class (A) given 0.3, the others similar."""
    return (0.3, 0.35, 0.35)


def confident_example() -> np.ndarray:
    """Example 2's labels predicted right with probability 0.9 each (Section 6's "ideal conditions")."""
    return np.where(np.eye(3, dtype=bool)[list(th.EXAMPLE_LABELS)], 0.9, 0.05)


def calibrated_posterior() -> tuple[np.ndarray, np.ndarray]:
    """(y, Bayes posterior) of two Gaussian classes, calibrated by construction (20,000 instances, seed 1)."""
    return ex.gaussian_posterior_sample(n=20000, seed=1)


# ----------------------------------------------------------------------------------------------
# Published tables
# ----------------------------------------------------------------------------------------------

def _register_classifier_tables(classifier: str) -> None:
    """Tables 2-5: the book's table of ``classifier`` (pooled), and the folds-averaged reading."""
    name = ex.TABLES[classifier]

    def pooled(results: pd.DataFrame) -> pd.DataFrame:
        return ex.book_table(results, classifier)

    def folds_averaged(results: pd.DataFrame) -> pd.DataFrame:
        return ex.book_table(results, classifier, protocol="foldavg")

    for function, reading in ((pooled, "book"), (folds_averaged, FOLDS_AVERAGED)):
        function.__qualname__ = f"{name}_{function.__name__}"
        book_table(name, on=["dataset"], part="V", chapter=EXPERIMENTS, inputs={"results": RESULTS},
                   values=ex.PAPER_COLUMNS, reading=reading)(function)


for _classifier in ex.CLASSIFIERS:
    _register_classifier_tables(_classifier)


@book_table("aguilar2025_table6", on=["classifier"], part="V", chapter=EXPERIMENTS, inputs={"results": RESULTS},
            values=ex.PAPER_COLUMNS)
def table6(results: pd.DataFrame) -> pd.DataFrame:
    """Table 6: means of Tables 2-5 over the datasets run (20; musk v2 is missing)."""
    return ex.book_means(results)


@book_table("aguilar2025_table6", on=["classifier"], part="V", chapter=EXPERIMENTS, inputs={"results": RESULTS},
            values=ex.PAPER_COLUMNS, reading=FOLDS_AVERAGED)
def table6_folds_averaged(results: pd.DataFrame) -> pd.DataFrame:
    """Table 6 from the measures averaged over the test folds."""
    return ex.book_means(results, protocol="foldavg")


@book_table("datasets_aguilar2025_table1", on=["dataset"], part="V", chapter=DATASETS,
            inputs={"listing": dataset_listing})
def table1(listing: pd.DataFrame) -> pd.DataFrame:
    """Table 1: samples, variables (the class not counted) and classes of the datasets the book loads."""
    book = pd.DataFrame({"dataset": listing["paper_name"], "samples": listing["n_rows"],
                         "variables": listing["n_features"], "classes": listing["n_classes"]})
    return book.astype({column: "float64" for column in ("samples", "variables", "classes")})


# ----------------------------------------------------------------------------------------------
# The worked example (Examples 3-13)
# ----------------------------------------------------------------------------------------------

def _show_matrix(matrix: sp.Matrix) -> str:
    return "[" + ", ".join("[" + ", ".join(f"{float(v):g}" for v in matrix.row(i)) + "]"
                           for i in range(matrix.rows)) + "]"


def _other_example(q: sp.Matrix) -> dict:
    """Altered input: Example 5's fourth row (0.4, 0.3, 0.3) becomes (0.3, 0.45, 0.25), predicted B."""
    changed = sp.Matrix(q)
    changed[3, :] = sp.Matrix([[sp.Rational(3, 10), sp.Rational(9, 20), sp.Rational(1, 4)]])
    return {"q": changed}


def _register_example_number(slug: str, quantity: str) -> None:
    """A number printed in Examples 4-13, recomputed exactly; a misprint is an erratum."""

    @check(f"aguilar2025.{slug}", inputs={"q": example_probabilities}, mutate=_other_example)
    def example_number(q: sp.Matrix) -> Finding:
        row = th.worked_example(th.example_matrices(q)).set_index("quantity").loc[quantity]
        detail = f"{quantity}: exact {row['exact']} = {row['value']:.4f}"
        return Finding(book=row["value"], detail=detail, verdict=None if row["agrees"] else "erratum")


EXAMPLE_NUMBERS = {
    "example4-accuracy": "Example 4: Acc = trace(CM)/n",
    "example6-column-sum-cm": "Example 6: column sum of CM for class A",
    "example6-column-sum-cm-star": "Example 6: column sum of CM* for class A",
    "example10-trace": "Example 10: trace(CM*)",
    "example10-probabilistic-accuracy": "Example 10: Acc*",
    "example11-lambda-v": "Example 11: lambda_S = sum(S)/n",
    "example11-lambda-u": "Example 11: lambda_U = sum(U)/n",
    "example11-certainty-accuracy": "Example 11: Acc*_S = trace(S)/sum(S)",
    "example11-uncertainty-accuracy": "Example 11: Acc*_U = trace(U)/sum(U)",
    "example12-sum-of-squares": "Example 12: sum of squares of CM - CM*",
    "example12-divergence": "Example 12: d(CM, CM*)",
    "example13-certainty-ratio": "Example 13: C = Acc*_S / (Acc*_S + Acc*_U)",
}
for _slug, _quantity in EXAMPLE_NUMBERS.items():
    _register_example_number(_slug, _quantity)


def _register_example_matrices(slug: str, names: tuple[str, ...]) -> None:
    """Matrices printed in Examples 3-8, recomputed exactly from Example 5's Q; a misprint is an erratum."""

    @check(f"aguilar2025.{slug}", inputs={"q": example_probabilities}, mutate=_other_example)
    def example_matrices(q: sp.Matrix) -> Finding:
        computed = th.example_matrices(q)
        differing = [name for name in names if computed[name] != th.PRINTED_MATRICES[name]]
        book = "; ".join(f"{name} = {_show_matrix(computed[name])}" for name in names)
        detail = ("every entry as printed" if not differing
                  else f"{', '.join(differing)} differ from the printed matrices")
        return Finding(book=book, detail=detail, verdict="erratum" if differing else "reproduced")


EXAMPLE_MATRICES = {
    "example3-prediction-matrix": ("P",),
    "example4-confusion-matrix": ("CM",),
    "example6-probabilistic-confusion-matrix": ("CM*",),
    "example7-split-of-q": ("Q+", "Q-"),
    "example8-certainty-and-uncertainty-matrices": ("S", "U"),
}
for _slug, _names in EXAMPLE_MATRICES.items():
    _register_example_matrices(_slug, _names)


def _rows_and_columns_agree(q: sp.Matrix) -> dict:
    """Altered input: a Q whose column maxima are its row maxima, so that both readings of Eq. 9 coincide."""
    return {"q": sp.Matrix([[9, 1, 0], [9, 0, 1], [9, 1, 0], [1, 9, 0], [0, 9, 1], [1, 1, 8]]) / 10}


@check("aguilar2025.eq9-maximum-over-instances", inputs={"q": example_probabilities},
       mutate=_rows_and_columns_agree)
def eq9_maximum_over_instances(q: sp.Matrix) -> Finding:
    """Eq. (9) keeps q_ij where q_ij = max_i q_ij (over the instances); Example 7 keeps each row's maximum."""
    printed = th.eq9_as_printed(q)
    read = th.example_matrices(q)["Q+"]
    same = printed == read
    detail = (f"Eq. (9) as printed gives Q+ = {_show_matrix(printed)}; the text and Example 7 give "
              f"{_show_matrix(read)}")
    return Finding(book="max over the classes j (row maximum)" if not same else "max_i q_ij", detail=detail,
                   verdict="reproduced" if same else "erratum")


def _rows_not_summing_to_one(steps: dict, q: sp.Matrix) -> dict:
    """Altered input: Example 5's first row halved (it no longer sums to one)."""
    halved = sp.Matrix(q)
    halved[0, :] = halved[0, :] / 2
    return {"steps": steps, "q": halved}


@check("aguilar2025.row-sums", inputs={"steps": th.row_sum_derivation, "q": example_probabilities},
       mutate=_rows_not_summing_to_one)
def row_sums(steps: dict, q: sp.Matrix) -> Finding:
    """Rows of CM and CM* sum to the class counts (Example 6): the general derivation and the example."""
    m = th.example_matrices(q)
    counts = [sum(m["T"][:, c]) for c in range(m["T"].cols)]
    sums = {name: [sum(m[name][c, :]) for c in range(m[name].rows)] for name in ("CM", "CM*")}
    holds = th.check_row_sum_derivation(steps) and all(s == counts for s in sums.values())
    detail = (f"class counts {counts}; row sums CM {[float(v) for v in sums['CM']]}, CM* "
              f"{[float(v) for v in sums['CM*']]}; general derivation: sum_j sum_i T_ic Q_ij = sum_i T_ic")
    return Finding(book="rows sum to the class counts" if holds else "rows do not sum to the class counts",
                   detail=detail, verdict="reproduced" if holds else "erratum")


def _uncertainty_perturbed(matrices: dict) -> dict:
    """Altered input: U of the example with one entry raised by 1/10."""
    changed = dict(matrices)
    changed["U"] = matrices["U"] + sp.Matrix(3, 3, lambda i, j: sp.Rational(1, 10) if (i, j) == (0, 1) else 0)
    return {"matrices": changed}


@check("aguilar2025.eq11-decomposition", inputs={"matrices": th.example_matrices}, mutate=_uncertainty_perturbed)
def eq11_decomposition(matrices: dict) -> Finding:
    """CM* = T^T (Q+ + Q-) = S + U (Eq. 11): on the example, and on symbolic Q for every labelling (n = 2, k = 3)."""
    on_example = matrices["S"] + matrices["U"] == matrices["CM*"]
    general = th.check_identities_exhaustively(2, 3)["split"]
    detail = (f"S + U = CM* on the example: {on_example}; on symbolic 2 x 3 Q for every labelling and decision: "
              f"{general}")
    return Finding(book="CM* = S + U" if on_example and general else "CM* != S + U", detail=detail,
                   verdict="reproduced" if on_example and general else "erratum")


def _weighted_sum_perturbed(derivation: dict) -> dict:
    """Altered input: the weighted sum of Eq. (15) with lambda_U doubled."""
    t_u, s_s, s_u = sp.symbols("t_U s_S s_U", positive=True)
    changed = dict(derivation)
    changed["weighted"] = derivation["weighted"] + (s_u / (s_s + s_u)) * (t_u / s_u)
    return {"derivation": changed}


@check("aguilar2025.accuracy-decomposition", inputs={"derivation": th.accuracy_decomposition_derivation},
       mutate=_weighted_sum_perturbed)
def accuracy_decomposition(derivation: dict) -> Finding:
    """Acc* = lambda_v Acc*_v + lambda_u Acc*_u (Eqs. 15-19) for any traces and totals with s_S + s_U = n."""
    holds = th.check_accuracy_decomposition(derivation)
    detail = (f"lambda_v Acc*_v + lambda_u Acc*_u = {sp.simplify(derivation['weighted'])}; "
              f"Acc* = {derivation['acc_star']}")
    return Finding(book="Acc* = lambda_v Acc*_v + lambda_u Acc*_u" if holds else "the weighted sum is not Acc*",
                   detail=detail, verdict="reproduced" if holds else "erratum")


# ----------------------------------------------------------------------------------------------
# Bounds and readings of d and C_rho (Sections 5-6)
# ----------------------------------------------------------------------------------------------

def _looser_maximum(maximum: sp.Expr) -> dict:
    """Altered input: the maximum of d replaced by sqrt(1 + 1/k)."""
    return {"maximum": sp.sqrt(1 + 1 / th.K)}


def divergence_maximum_expression() -> sp.Expr:
    """sqrt(1 - 1/k), the largest value of d(CM, CM*) with k classes (from :func:`credalbook.book.theory.certainty.divergence_derivation`)."""
    return th.divergence_derivation()["maximum"]


@check("aguilar2025.divergence-bound", inputs={"maximum": divergence_maximum_expression}, mutate=_looser_maximum)
def divergence_bound(maximum: sp.Expr) -> Finding:
    """The least upper bound of d over every k >= 2: the supremum of the per-k maximum."""
    limit = sp.limit(maximum, th.K, sp.oo)
    largest = max([limit, *(maximum.subs(th.K, k) for k in range(2, 51))], key=float)
    detail = (f"max of d with k classes = {maximum} ({float(maximum.subs(th.K, 2)):.3f} for k = 2, "
              f"{float(maximum.subs(th.K, 15)):.3f} for k = 15), attained only when every instance is in one class "
              f"and every row of Q is uniform; supremum over k: {largest}, not attained")
    return Finding(book=float(largest), detail=detail)


def _one_hot_rows(example: dict) -> dict:
    """Altered input: the example's probabilities replaced by the one-hot of each row's first maximum."""
    q = np.asarray(example["proba"], dtype=float)
    return {"example": {**example, "proba": np.eye(q.shape[1])[np.argmax(q, axis=1)]}}


@check("aguilar2025.zero-divergence-zero-uncertainty", inputs={"example": th.zero_divergence_counterexample},
       mutate=_one_hot_rows)
def zero_divergence_zero_uncertainty(example: dict) -> Finding:
    """d = 0 (CM = CM*) read as zero uncertainty: false when deviations cancel within a class."""
    y, q = example["y"], np.asarray(example["proba"], dtype=float)
    divergence = cr.probabilistic_divergence(y, q)
    uncertain = int(np.sum(q.max(axis=1) < 1))
    holds = not (divergence == 0 and uncertain > 0)
    detail = (f"labels {y.tolist()}, probabilities {q.tolist()}: d = {divergence:g} with {uncertain} uncertain "
              "predictions")
    return Finding(book=holds, detail=detail, verdict=None if holds else "erratum")


@check("aguilar2025.certainty-ratio-bounds", inputs={"example": th.mcc_counterexample}, mutate=_one_hot_rows)
def certainty_ratio_bounds(example: dict) -> Finding:
    """0 <= C <= 1 for every measure: true for psi >= 0 (derivation), false for MCC (four instances)."""
    ratio = cr.certainty_ratio(example["y"], example["proba"], measure="mcc")
    non_negative = th.check_certainty_ratio_bounds()
    holds = non_negative and 0 <= ratio <= 1
    detail = (f"C = x/(x + y) in [0, 1] for psi(S), psi(U) >= 0: {non_negative}; with MCC on labels "
              f"{np.asarray(example['y']).tolist()}: C = {ratio:.3f}")
    return Finding(book=holds, detail=detail, verdict=None if holds else "erratum")


@check("aguilar2025.ratio-one-complete-confidence", inputs={"example": th.always_right_counterexample},
       mutate=_one_hot_rows)
def ratio_one_complete_confidence(example: dict) -> Finding:
    """C = 1 read as complete confidence: C = 1 as soon as no leftover probability falls on a true class."""
    q = np.asarray(example["proba"], dtype=float)
    ratio = cr.certainty_ratio(example["y"], q)
    top = float(np.mean(q.max(axis=1)))
    holds = not (ratio == 1 and top < 1)
    detail = f"every prediction right with mean top probability {top:.2f}: C = {ratio:g}"
    return Finding(book=holds, detail=detail, verdict=None if holds else "erratum")


def _hedged_guess(example: dict) -> dict:
    """Altered input: the constant guess given with probability 0.6 instead of 1."""
    return {"example": {**example, "proba": np.tile([0.6, 0.4], (len(example["y"]), 1))}}


@check("aguilar2025.penalizes-chance", inputs={"example": th.constant_guess_counterexample}, mutate=_hedged_guess)
def penalizes_chance(example: dict) -> Finding:
    """A constant guess of the majority class, right by chance: is its C below the maximum, 1?"""
    y, q = example["y"], example["proba"]
    ratio = cr.certainty_ratio(y, q)
    accuracy = cr.accuracy_of(cr.confusion_matrix(y, q))
    penalized = ratio < 1
    detail = f"always the majority class: accuracy {accuracy:.2f} (the majority share), C = {ratio:.3f}"
    return Finding(book=penalized, detail=detail, verdict=None if penalized else "erratum")


def _mostly_wrong(q: sp.Matrix) -> dict:
    """Altered input: a Q that gets five of Example 2's six labels wrong."""
    return {"q": sp.Matrix([[4, 1, 5], [2, 2, 6], [3, 7, 0], [1, 8, 1], [5, 3, 2], [2, 5, 3]]) / 10}


@check("aguilar2025.low-true-probability-lowers-ratio", inputs={"q": example_probabilities}, mutate=_mostly_wrong)
def low_true_probability_lowers_ratio(q: sp.Matrix) -> Finding:
    """Lower each row's true-class probability by 0.1 (decision kept): does C fall in most rows?"""
    y = np.array(th.EXAMPLE_LABELS)
    table = th.lowered_true_class(y, np.array(q.tolist(), dtype=float))
    falls = int(np.sum(table["after"] < table["before"]))
    holds = falls > len(table) / 2
    changes = ", ".join(f"row {r + 1} ({'right' if c else 'wrong'}) {a - b:+.3f}"
                        for r, c, b, a in table[["row", "correct", "before", "after"]].itertuples(index=False))
    detail = f"C = {table['before'].iloc[0]:.3f}; change of C per row lowered: {changes}"
    return Finding(book=holds, detail=detail, verdict=None if holds else "erratum")


def _scenarios_swapped(q: sp.Matrix, confident: tuple, hedged: tuple) -> dict:
    """Altered input: the two scenarios exchanged."""
    return {"q": q, "confident": hedged, "hedged": confident}


@check("aguilar2025.confident-row-raises-ratio",
       inputs={"q": example_probabilities, "confident": confident_first_row, "hedged": hedged_first_row},
       mutate=_scenarios_swapped)
def confident_row_raises_ratio(q: sp.Matrix, confident: tuple, hedged: tuple) -> Finding:
    """Example 5 with its first row (class A) given ``confident`` or ``hedged`` probabilities: C of each."""
    y = np.array(th.EXAMPLE_LABELS)
    ratios = {}
    for name, row in (("confident", confident), ("hedged", hedged)):
        changed = np.array(q.tolist(), dtype=float)
        changed[0] = row
        ratios[name] = cr.accuracy_decomposition(y, changed)
    detail = (f"first row {confident}: Acc*_v = {ratios['confident'].accuracy_s:.3f}, C = "
              f"{ratios['confident'].certainty_ratio:.3f}; first row {hedged}: Acc*_v = "
              f"{ratios['hedged'].accuracy_s:.3f}, C = {ratios['hedged'].certainty_ratio:.3f}")
    return Finding(book=bool(ratios["confident"].certainty_ratio > ratios["hedged"].certainty_ratio), detail=detail)


def _two_rows_misclassified(q: np.ndarray) -> dict:
    """Altered input: rows 4 and 6 predicted wrong, their true class given 0.3."""
    changed = q.copy()
    changed[3] = [0.4, 0.3, 0.3]
    changed[5] = [0.35, 0.35, 0.3]
    return {"q": changed}


@check("aguilar2025.ideal-ratio-near-one", inputs={"q": confident_example}, mutate=_two_rows_misclassified)
def ideal_ratio_near_one(q: np.ndarray) -> Finding:
    """High probabilities on the correct classes: Acc*_v close to Acc* (within 0.1) and C >= 0.95."""
    d = cr.accuracy_decomposition(np.array(th.EXAMPLE_LABELS), q)
    holds = abs(d.accuracy_s - d.probabilistic_accuracy) <= 0.1 and d.certainty_ratio >= 0.95
    detail = (f"Acc* = {d.probabilistic_accuracy:.3f}, Acc*_v = {d.accuracy_s:.3f}, C = {d.certainty_ratio:.3f} "
              "(C = 1 whenever every prediction is right, whatever its probability)")
    return Finding(book=holds, detail=detail)


def _overconfident(sample: tuple) -> dict:
    """Altered input: the posterior sharpened (T = 0.25), no longer calibrated."""
    y, q = sample
    return {"sample": (y, ex.sharpen(q, 0.25))}


@check("aguilar2025.calibrated-low-ratio", inputs={"sample": calibrated_posterior}, mutate=_overconfident)
def calibrated_low_ratio(sample: tuple) -> Finding:
    """A calibrated posterior (ECE < 0.02) whose C is below that of its flattened and its one-hot versions."""
    y, q = sample
    ece = cr.expected_calibration_error(y, q)
    ratios = {t: cr.certainty_ratio(y, ex.sharpen(q, t)) for t in (1.0, 2.0, 0.0)}
    holds = ece < 0.02 and ratios[1.0] < min(ratios[2.0], ratios[0.0])
    detail = (f"Gaussian posterior: ECE {ece:.3f}, C = {100 * ratios[1.0]:.1f} %; flattened (T = 2) "
              f"{100 * ratios[2.0]:.1f} %; one-hot (T = 0) {100 * ratios[0.0]:.1f} %, same decisions")
    return Finding(book=holds, detail=detail)


def _more_classes_sharper(results: pd.DataFrame) -> dict:
    """Altered input: Acc* made to grow with the number of classes."""
    return {"results": results.assign(acc_star=results["k"] / (results["k"].max() + 1))}


@check("aguilar2025.many-classes-flat", inputs={"results": RESULTS}, mutate=_more_classes_sharper)
def many_classes_flat(results: pd.DataFrame) -> Finding:
    """Spearman correlation of the number of classes with Acc* (the mean true-class probability) over the runs."""
    rho = spearmanr(results["k"], results["acc_star"]).statistic
    per = {c: spearmanr(g["k"], g["acc_star"]).statistic for c, g in results.groupby("classifier", sort=False)}
    detail = (f"Spearman(k, Acc*) = {rho:.2f} over {len(results)} runs; by classifier "
              + ", ".join(f"{c} {v:.2f}" for c, v in per.items()))
    return Finding(book=bool(rho < 0), detail=detail)


# ----------------------------------------------------------------------------------------------
# Section 7: the datasets
# ----------------------------------------------------------------------------------------------

def _one_dataset_dropped(listing: pd.DataFrame) -> dict:
    """Altered input: the listing without its last dataset, every size doubled."""
    doubled = listing.iloc[:-1].copy()
    for column in ("n_rows", "n_features", "n_classes"):
        doubled[column] = doubled[column] * 2
    return {"listing": doubled}


@check("aguilar2025.datasets-count", inputs={"listing": dataset_listing}, mutate=_one_dataset_dropped)
def datasets_count(listing: pd.DataFrame) -> Finding:
    """Datasets of the study in the book's registry (and how many the book can load)."""
    missing = ", ".join(listing.loc[~listing["available"], "paper_name"])
    return Finding(book=len(listing), detail=f"{len(listing)} datasets listed, {int(listing['available'].sum())} "
                                            f"available (missing: {missing or 'none'})")


def _register_dataset_range(slug: str, column: str) -> None:
    """Smallest and largest ``column`` over the datasets the book loads (Section 7, Table 1)."""

    @check(f"aguilar2025.{slug}", inputs={"listing": dataset_listing}, mutate=_one_dataset_dropped)
    def dataset_range(listing: pd.DataFrame) -> Finding:
        available = listing[listing["available"]]
        values = available[column].astype(int)
        low, high = int(values.min()), int(values.max())
        detail = (f"{column} from {low} ({available.loc[values.idxmin(), 'paper_name']}) to {high} "
                  f"({available.loc[values.idxmax(), 'paper_name']}) over the {len(available)} datasets available")
        return Finding(book=f"{low} to {high}", detail=detail)


for _slug, _column in (("samples-range", "n_rows"), ("variables-range", "n_features"), ("classes-range", "n_classes")):
    _register_dataset_range(_slug, _column)


# ----------------------------------------------------------------------------------------------
# Section 7: the paper's tables against themselves
# ----------------------------------------------------------------------------------------------

def _rows(table: pd.DataFrame) -> pd.DataFrame:
    return table[table["dataset"] != "Mean"]


def _knn_divergence_half_point(tables: dict, results: pd.DataFrame) -> dict:
    """Altered input: Table 2's divergences shifted so that they average 4.5."""
    changed = dict(tables)
    rows = _rows(tables["3-NN"])
    shift = 4.5 - rows["div_pct"].mean()
    changed["3-NN"] = tables["3-NN"].assign(div_pct=np.where(tables["3-NN"]["dataset"] != "Mean",
                                                              tables["3-NN"]["div_pct"] + shift,
                                                              tables["3-NN"]["div_pct"]))
    return {"tables": changed, "results": None}


@check("aguilar2025.knn-divergence", inputs={"tables": printed_tables, "results": RESULTS},
       mutate=_knn_divergence_half_point)
def knn_divergence(tables: dict, results: pd.DataFrame | None) -> Finding:
    """The mean 3-NN divergence of the paper's Table 2 rows, against the prose's "about 4.5" (read as 4.5 ± 0.25)."""
    divergence = ex.published_consistency("3-NN", tables["3-NN"])[1].set_index("column").loc["div_pct"]
    mean = float(divergence["mean_of_rows"])
    detail = f"Table 2's 21 rows average {mean:.2f} (its Mean row and Table 6 print {divergence['printed_mean']:g})"
    if results is not None:
        knn = results[results["classifier"] == "3-NN"]
        detail += (f"; the book's re-run: {knn['div_pct'].mean():.2f} pooled, {knn['div_pct_foldavg'].mean():.2f} "
                   "averaged over folds")
    return Finding(book=mean, detail=detail, verdict="erratum" if abs(mean - 4.5) > 0.25 else None)


def _tree_rows_one_point_higher(tables: dict) -> dict:
    """Altered input: Table 4's divergences one point higher on every row (their mean moves beyond either print)."""
    changed = dict(tables)
    table4 = tables["Decision Tree"]
    changed["Decision Tree"] = table4.assign(div_pct=np.where(table4["dataset"] != "Mean", table4["div_pct"] + 1.0,
                                                              table4["div_pct"]))
    return {"tables": changed}


@check("aguilar2025.tree-mean-divergence", inputs={"tables": printed_tables}, mutate=_tree_rows_one_point_higher)
def tree_mean_divergence(tables: dict) -> Finding:
    """Table 4's Mean div (printed 0.0) against the mean of its rows and Table 6's value of the same mean.

    Judged as a number against the entry's tolerance (the rounding of 21 rows printed with one
    decimal): Table 4's 0.0 and Table 6's 0.1 are one unit of the last digit apart and both within
    it of the rows' mean, so neither is an erratum (the verdict policy: a tolerance that passes
    the cell cannot call it an error).
    """
    means = {c: ex.published_consistency(c, tables[c])[1].set_index("column") for c in ex.CLASSIFIERS}
    table6 = tables["Table 6"].set_index("classifier")
    tree = means["Decision Tree"].loc["div_pct"]
    off_rows = [f"{c} {column}" for c in ex.CLASSIFIERS for column in ex.PAPER_COLUMNS
                if abs(means[c].loc[column, "difference"]) > 2 * PRINTED_HALF_UNIT[column] + 1e-9]
    off_table6 = [f"{c} {column}" for c in ex.CLASSIFIERS for column in ex.PAPER_COLUMNS
                  if means[c].loc[column, "printed_mean"] != table6.loc[c, column]]
    detail = (f"Table 4's rows average {tree['mean_of_rows']:.3f}; Table 4 prints {tree['printed_mean']:g}, Table 6 "
              f"prints {table6.loc['Decision Tree', 'div_pct']:g} for the same mean. Of the 28 Mean cells of Tables "
              f"2-5, beyond rounding of their rows' means: {', '.join(off_rows) or 'none'}; different from Table 6: "
              f"{', '.join(off_table6) or 'none'}")
    return Finding(book=float(tree["mean_of_rows"]), detail=detail)


def _fold_average_gaps(results: pd.DataFrame) -> pd.Series:
    """The book's fold-averaged run: C_rho minus the ratio of the averaged accuracies (points), by (classifier, row name).

    The average of per-fold ratios is not the ratio of the averaged accuracies: this is the gap that
    fold averaging alone makes between a printed C_rho and its row's printed Acc*_v and Acc*_u.
    """
    total = results["acc_s_foldavg"] + results["acc_u_foldavg"]
    ratio = np.where(total > 0, 100 * results["acc_s_foldavg"] / total.where(total > 0, 1.0), 0.0)
    gaps = results.assign(gap=results["c_rho_pct_foldavg"] - ratio)
    return gaps.groupby(["classifier", "paper_name"])["gap"].mean()


def _ratios_as_fold_averaging_makes(tables: dict, results: pd.DataFrame) -> dict:
    """Altered input: every printed C_rho set to the ratio of its row's printed accuracies plus the gap fold averaging
    makes in the book's run (no row left unexplained), or, if none is, ten points above that."""
    gaps = _fold_average_gaps(results)
    shift = 10.0 if ratio_column_consistency(tables, results).book == 0 else 0.0
    changed = dict(tables)
    for classifier in ex.CLASSIFIERS:
        table = tables[classifier].copy()
        rows = table["dataset"] != "Mean"
        ratio = ex.published_consistency(classifier, table)[0]["c_rho_check"].to_numpy()
        gap = table.loc[rows, "dataset"].map(lambda row, c=classifier: gaps.get((c, row), 0.0)).to_numpy()
        table.loc[rows, "c_rho_pct"] = ratio + gap + shift
        changed[classifier] = table
    return {"tables": changed, "results": results}


def rows_beyond_rounding(tables: dict) -> dict[str, pd.DataFrame]:
    """Per classifier, the printed rows of Tables 2-5 whose C_rho departs from 100 Acc*_v/(Acc*_v + Acc*_u) of the
    same row by more than the rounding of the three printed numbers (what fold averaging may make)."""
    checked = {c: ex.published_consistency(c, tables[c])[0] for c in ex.CLASSIFIERS}
    return {c: t[t["c_rho_difference"].abs() > t["c_rho_slack"] + 1e-9] for c, t in checked.items()}


@check("aguilar2025.ratio-column-consistency", inputs={"tables": printed_tables, "results": RESULTS},
       mutate=_ratios_as_fold_averaging_makes)
def ratio_column_consistency(tables: dict, results: pd.DataFrame) -> Finding:
    """Printed rows of Tables 2-5 whose C_rho departs from 100 Acc*_v/(Acc*_v + Acc*_u) (Eq. 21) by more than
    rounding and by more than fold averaging makes (the book's fold-averaged run, within the C_rho tolerance).

    The paper's tables are fold averages (the book's protocol page): the average of per-fold ratios
    is not the ratio of the averaged accuracies, so no printed gap contradicts the paper itself and
    none is an erratum; a gap the book's fold-averaged run does not show is a difference of
    reproduction (the count, against the 0 the paper implies).
    """
    from credalbook.book.reference import published_source

    tolerance = float(published_source(ex.TABLES["3-NN"])["tolerance"]["c_rho_pct"])
    gaps = _fold_average_gaps(results)
    checked = {c: ex.published_consistency(c, tables[c])[0] for c in ex.CLASSIFIERS}
    beyond_rounding = rows_beyond_rounding(tables)
    unexplained, unrun = {}, 0
    for classifier, table in beyond_rounding.items():
        book = table["dataset"].map(lambda row, c=classifier: gaps.get((c, row), np.nan))
        unrun += int(book.isna().sum())
        unexplained[classifier] = table[book.notna() & ((table["c_rho_difference"] - book).abs()
                                                        > tolerance + table["c_rho_slack"])]
    count = sum(len(t) for t in unexplained.values())
    rows = sum(len(t) for t in checked.values())
    detail = (f"{sum(len(t) for t in beyond_rounding.values())} of {rows} rows depart from the ratio of their printed "
              f"accuracies by more than rounding; fold averaging in the book's run makes the same gap within "
              f"{tolerance:g} points on all but {count} ({unrun} not run by the book)")
    if count:
        classifier, worst = max(((c, row) for c, t in unexplained.items() for _, row in t.iterrows()),
                                key=lambda item: abs(item[1]["c_rho_difference"]))
        detail += (f"; largest: {classifier}, {worst['dataset']} (printed {worst['c_rho_pct']:g}, ratio "
                   f"{worst['c_rho_check']:.1f}, fold averaging {gaps.get((classifier, worst['dataset']), np.nan):+.2f})")
    return Finding(book=count, detail=detail)


def _majority_share(listing: pd.DataFrame) -> pd.Series:
    """Majority-class share by the row name of Tables 2-5."""
    named = listing.assign(row=listing["name"].map(ex.PAPER_NAMES))
    return named.dropna(subset=["majority"]).set_index("row")["majority"]


def _certain_rows_accurate(tables: dict, listing: pd.DataFrame, results: pd.DataFrame | None) -> dict:
    """Altered input: every printed row with C_rho = 100 % given accuracy 1."""
    changed = dict(tables)
    for classifier in ex.CLASSIFIERS:
        table = tables[classifier]
        changed[classifier] = table.assign(acc=np.where(table["c_rho_pct"] >= 99.95, 1.0, table["acc"]))
    return {"tables": changed, "listing": listing, "results": None}


@check("aguilar2025.high-ratio-accurate",
       inputs={"tables": printed_tables, "listing": dataset_listing, "results": RESULTS}, mutate=_certain_rows_accurate)
def high_ratio_accurate(tables: dict, listing: pd.DataFrame, results: pd.DataFrame | None) -> Finding:
    """Rows of the paper's Tables 2-5 with C_rho = 100 % whose accuracy is below the majority-class share."""
    majority = _majority_share(listing)
    found = []
    for classifier in ex.CLASSIFIERS:
        rows = _rows(tables[classifier])
        rows = rows[(rows["c_rho_pct"] >= 99.95) & rows["dataset"].isin(majority.index)]
        below = rows[rows["acc"] < rows["dataset"].map(majority)]
        found += [f"{classifier} on {r.dataset} (accuracy {r.acc:g}, majority share {majority[r.dataset]:.3f})"
                  for r in below.itertuples()]
    holds = not found
    detail = ("printed C_rho = 100 % below the majority-class accuracy: " + "; ".join(found)) if found else \
        "no printed row with C_rho = 100 % is below the majority-class accuracy"
    if results is not None:
        book = results.assign(majority=results["paper_name"].map(majority))
        book = book[(book["c_rho_pct"] >= 99.95) & (book["acc"] < book["majority"])]
        detail += f"; in the book's re-run {len(book)} such runs"
    return Finding(book=holds, detail=detail, verdict=None if holds else "erratum")


# ----------------------------------------------------------------------------------------------
# Section 7: the book's runs
# ----------------------------------------------------------------------------------------------

def _means(results: pd.DataFrame, column: str) -> pd.Series:
    return results.groupby("classifier")[column].mean()


def _swap_classifiers(results: pd.DataFrame, column: str, first: str, second: str) -> pd.DataFrame:
    """``results`` with ``column`` exchanged between two classifiers, dataset by dataset."""
    wide = results.pivot(index="dataset", columns="classifier", values=column)
    swapped = results.copy()
    for one, other in ((first, second), (second, first)):
        chosen = swapped["classifier"] == one
        swapped.loc[chosen, column] = swapped.loc[chosen, "dataset"].map(wide[other]).to_numpy()
    return swapped


def _register_extreme(slug: str, column: str, largest: bool) -> None:
    """The classifier with the largest (or smallest) mean ``column`` over the datasets run."""

    def leaders(results: pd.DataFrame) -> list[str]:
        return list(_means(results, column).sort_values(ascending=not largest).index)

    def swap_first_two(results: pd.DataFrame) -> dict:
        """Altered input: ``column`` exchanged between the first two classifiers."""
        first, second = leaders(results)[:2]
        return {"results": _swap_classifiers(results, column, first, second)}

    @check(f"aguilar2025.{slug}", inputs={"results": RESULTS}, mutate=swap_first_two)
    def extreme(results: pd.DataFrame) -> Finding:
        means = _means(results, column).sort_values(ascending=not largest)
        detail = f"mean {column} over {results['dataset'].nunique()} datasets: " + \
                 ", ".join(f"{c} {v:.3f}" for c, v in means.items())
        return Finding(book=means.index[0], detail=detail)


for _slug, _column, _largest in (("forest-highest-accuracy", "acc", True),
                                 ("forest-highest-divergence", "div_pct", True),
                                 ("tree-highest-ratio", "c_rho_pct", True),
                                 ("tree-lowest-divergence", "div_pct", False),
                                 ("tree-highest-imcp", "imcp", True)):
    _register_extreme(_slug, _column, _largest)


def _uncertainty_accuracy_reversed(results: pd.DataFrame) -> dict:
    """Altered input: Acc*_u exchanged between naive Bayes and the decision tree."""
    return {"results": _swap_classifiers(results, "acc_u", "Naive Bayes", "Decision Tree")}


@check("aguilar2025.uncertainty-accuracy-ranking", inputs={"results": RESULTS},
       mutate=_uncertainty_accuracy_reversed)
def uncertainty_accuracy_ranking(results: pd.DataFrame) -> Finding:
    """Classifiers by mean Acc*_u, largest first."""
    means = _means(results, "acc_u").sort_values(ascending=False)
    return Finding(book=list(means.index),
                   detail="mean Acc*_u: " + ", ".join(f"{c} {v:.3f}" for c, v in means.items()))


def _tree_more_accurate(results: pd.DataFrame) -> dict:
    """Altered input: the tree's accuracies raised by 0.2."""
    tree = results["classifier"] == "Decision Tree"
    return {"results": results.assign(acc=np.where(tree, results["acc"] + 0.2, results["acc"]))}


@check("aguilar2025.tree-accuracy-below", inputs={"results": RESULTS}, mutate=_tree_more_accurate)
def tree_accuracy_below(results: pd.DataFrame) -> Finding:
    """Is the tree's mean accuracy below those of 3-NN and the random forest?"""
    means = _means(results, "acc")
    below = bool(means["Decision Tree"] < min(means["3-NN"], means["Random Forest"]))
    return Finding(book=below, detail="mean accuracy: " + ", ".join(f"{c} {means[c]:.3f}" for c in ex.CLASSIFIERS))


def _register_bayes_below_knn(slug: str, column: str) -> None:
    """Share of the datasets where naive Bayes has a lower ``column`` than 3-NN."""

    def bayes_worse(results: pd.DataFrame) -> dict:
        """Altered input: naive Bayes given 3-NN's values plus one."""
        wide = results.pivot(index="dataset", columns="classifier", values=column)
        bayes = results["classifier"] == "Naive Bayes"
        shifted = results.copy()
        shifted.loc[bayes, column] = shifted.loc[bayes, "dataset"].map(wide["3-NN"] + 1).to_numpy()
        return {"results": shifted}

    @check(f"aguilar2025.{slug}", inputs={"results": RESULTS}, mutate=bayes_worse)
    def bayes_below_knn(results: pd.DataFrame) -> Finding:
        wide = results.pivot(index="dataset", columns="classifier", values=column)
        lower = wide["Naive Bayes"] < wide["3-NN"]
        means = wide.mean()
        detail = (f"naive Bayes below 3-NN on {int(lower.sum())} of {len(lower)} datasets; means "
                  f"{means['Naive Bayes']:.3f} vs {means['3-NN']:.3f}")
        return Finding(book=float(lower.mean()), detail=detail)


_register_bayes_below_knn("bayes-lower-accuracy", "acc")
_register_bayes_below_knn("bayes-lower-divergence", "div_pct")


def imcp_closer_share(table: pd.DataFrame) -> tuple[int, int]:
    """(rows where IMCP is closer to Acc* than to Acc, rows where Acc and Acc* differ), at three decimals."""
    printed = table[["acc", "acc_star", "imcp"]].astype(float).round(3)
    differ = (printed["acc"] - printed["acc_star"]).abs() > 1e-9
    closer = (printed["imcp"] - printed["acc_star"]).abs() < (printed["imcp"] - printed["acc"]).abs()
    return int((closer & differ).sum()), int(differ.sum())


def _imcp_at_accuracy(results: pd.DataFrame, tables: dict) -> dict:
    """Altered input: IMCP replaced by the accuracy."""
    return {"results": results.assign(imcp=results["acc"]), "tables": tables}


@check("aguilar2025.imcp-closer-to-probabilistic-accuracy", inputs={"results": RESULTS, "tables": printed_tables},
       mutate=_imcp_at_accuracy)
def imcp_closer_to_probabilistic_accuracy(results: pd.DataFrame, tables: dict) -> Finding:
    """Share of the runs (Acc and Acc* different at three decimals) where IMCP is closer to Acc* than to Acc."""
    closer, differ = imcp_closer_share(results)
    printed = [imcp_closer_share(_rows(tables[c])) for c in ex.CLASSIFIERS]
    detail = (f"{closer} of {differ} runs in the book; in the paper's Tables 2-5 "
              f"{sum(p[0] for p in printed)} of {sum(p[1] for p in printed)} rows")
    return Finding(book=closer / differ, detail=detail)


def _imcp_far_off(results: pd.DataFrame, tables: dict) -> dict:
    """Altered input: the book's IMCP moved 0.1 away from its values, MCP left as it is."""
    return {"results": results.assign(imcp=results["imcp"] + 0.1), "tables": tables}


@check("aguilar2025.last-column-measure", inputs={"results": RESULTS, "tables": printed_tables}, mutate=_imcp_far_off)
def last_column_measure(results: pd.DataFrame, tables: dict) -> Finding:
    """Which of the book's MCP and IMCP areas is closer (median absolute difference) to the tables' last column."""
    printed_column = pd.concat([_rows(tables[c]).assign(classifier=c) for c in ex.CLASSIFIERS])
    joined = printed_column[["classifier", "dataset", "imcp"]].merge(
        results[["classifier", "paper_name", "imcp", "mcp"]].rename(columns={"paper_name": "dataset"}),
        on=["classifier", "dataset"], suffixes=("_printed", ""))
    distance = {"MCP": float((joined["mcp"] - joined["imcp_printed"]).abs().median()),
                "IMCP": float((joined["imcp"] - joined["imcp_printed"]).abs().median())}
    closest = min(distance, key=distance.get)
    detail = (f"median |book - printed| over {len(joined)} rows: MCP {distance['MCP']:.4f}, IMCP {distance['IMCP']:.4f}; "
              "the tables' header reads IMCP")
    return Finding(book=closest, detail=detail, verdict="reproduced" if closest == "MCP" else "erratum")


def _probabilities_above_decisions(results: pd.DataFrame) -> dict:
    """Altered input: Acc* raised above Acc in every run."""
    return {"results": results.assign(acc_star=results["acc"] + 0.01)}


@check("aguilar2025.accuracy-overestimates", inputs={"results": RESULTS}, mutate=_probabilities_above_decisions)
def accuracy_overestimates(results: pd.DataFrame) -> Finding:
    """Does Acc (from CM) exceed Acc* (from CM*) in most runs?"""
    above = results["acc"] > results["acc_star"] + 1e-12
    below = results["acc"] < results["acc_star"] - 1e-12
    detail = (f"Acc > Acc* in {int(above.sum())} of {len(results)} runs, Acc < Acc* in {int(below.sum())} ("
              + ", ".join(f"{c} {int(below[results['classifier'] == c].sum())}" for c in ex.CLASSIFIERS) + ")")
    return Finding(book=bool(above.mean() > 0.5), detail=detail)


# ----------------------------------------------------------------------------------------------
# Reliability in the usual sense: calibration (Sections 7-8)
# ----------------------------------------------------------------------------------------------

def calibration_leaders(results: pd.DataFrame) -> dict[str, str]:
    """The classifier with the lowest mean of each calibration measure (Brier score, log loss, ECE)."""
    return {measure: _means(results, measure).idxmin() for measure in CALIBRATION}


def _calibration_detail(results: pd.DataFrame) -> str:
    means = results.groupby("classifier")[list(CALIBRATION)].mean()
    return "; ".join(f"{m}: " + ", ".join(f"{c} {v:.3f}" for c, v in means[m].sort_values().items())
                     for m in CALIBRATION)


def _scores_scaled(results: pd.DataFrame, classifier: str, factor: float) -> pd.DataFrame:
    chosen = results["classifier"] == classifier
    scaled = results.copy()
    for measure in CALIBRATION:
        scaled.loc[chosen, measure] = scaled.loc[chosen, measure] * factor
    return scaled


def _tree_calibrated(results: pd.DataFrame) -> dict:
    """Altered input: the tree's calibration measures divided by 100."""
    return {"results": _scores_scaled(results, "Decision Tree", 0.01)}


@check("aguilar2025.tree-most-reliable", inputs={"results": RESULTS}, mutate=_tree_calibrated)
def tree_most_reliable(results: pd.DataFrame) -> Finding:
    """Is the tree the best calibrated classifier by every measure (lowest mean Brier score, log loss and ECE)?"""
    leaders = calibration_leaders(results)
    return Finding(book=all(c == "Decision Tree" for c in leaders.values()), detail=_calibration_detail(results))


def _forest_miscalibrated(results: pd.DataFrame) -> dict:
    """Altered input: the forest's calibration measures multiplied by 100."""
    return {"results": _scores_scaled(results, "Random Forest", 100.0)}


@check("aguilar2025.forest-reliability-undermined", inputs={"results": RESULTS}, mutate=_forest_miscalibrated)
def forest_reliability_undermined(results: pd.DataFrame) -> Finding:
    """Is the random forest beaten by another classifier on some calibration measure?"""
    leaders = calibration_leaders(results)
    return Finding(book=any(c != "Random Forest" for c in leaders.values()), detail=_calibration_detail(results))


# ----------------------------------------------------------------------------------------------
# The referees' audit: the paper against its own worked example and tables
# ----------------------------------------------------------------------------------------------

def worked_example_instances() -> tuple[np.ndarray, np.ndarray]:
    """Examples 2 and 5: the six instances' classes (A, B, C as 0, 1, 2) and probabilities, as floats."""
    return np.array(th.EXAMPLE_LABELS), np.array(th.EXAMPLE_Q, dtype=float)


worked_example_instances.evidence = "Examples 2 and 5 (credalbook.book.theory.certainty.EXAMPLE_Q)"


def _labels_as_predicted(example: tuple) -> dict:
    """Altered input: every instance's class is its predicted class (every classification correct)."""
    _, q = example
    return {"example": (cr.predicted_classes(q), q)}


@check("aguilar2025.certainty-matrix-correct-classifications", inputs={"example": worked_example_instances},
       mutate=_labels_as_predicted)
def certainty_matrix_correct_classifications(example: tuple) -> Finding:
    """Definitions 7-8: Q+ (and so the certainty matrix V = T^T Q+) holds the probabilities of correct
    classifications, U those of incorrect ones; computed on Examples 7-8 with
    :func:`credalbook.certainty.certainty_decomposition`.

    V's mass off its diagonal is probability of misclassified instances; U's diagonal is probability
    on the true class (the numerator of Acc*_u in Eq. 22): either nonzero contradicts the definitions.
    """
    y, q = example
    v, u = cr.certainty_decomposition(y, q)
    misclassified, true_class = float(v.sum() - np.trace(v)), float(np.trace(u))
    contradicted = misclassified > 1e-12 or true_class > 1e-12
    detail = (f"V (Example 8) holds {misclassified:.1f} of its {float(v.sum()):.1f} off its diagonal (instances "
              f"misclassified); U's diagonal holds {true_class:.1f} on the true class, the numerator of "
              f"Acc*_u = {true_class:.1f}/{float(u.sum()):.1f}")
    return Finding(book=not contradicted, detail=detail, verdict="erratum" if contradicted else None,
                   severity="error of substance" if contradicted else None)


#: Tables 4-5 (decision tree, random forest), whose rows the audit compares
AUDITED_TABLES = ("Decision Tree", "Random Forest")


def certain_share_intervals(tables: dict) -> pd.DataFrame:
    """Per printed row of Tables 4-5: lambda_v = (Acc* − Acc*_u)/(Acc*_v − Acc*_u) (Eq. 15, the share of the
    probabilistic accuracy's mass that is certain) as an interval over the rounding of the three printed
    numbers (half a unit of the third decimal), beside C_rho and its rounding interval (half a unit of
    the first decimal of a percentage). Rows whose denominator may vanish are left out."""
    half, rows = PRINTED_HALF_UNIT["acc_star"], []
    for classifier in AUDITED_TABLES:
        for _, row in _rows(tables[classifier]).iterrows():
            corners = []
            for da in (-half, half):
                for du in (-half, half):
                    for ds in (-half, half):
                        low = row["acc_s"] + ds - (row["acc_u"] + du)
                        if low <= 0:
                            corners = []
                            break
                        corners.append((row["acc_star"] + da - row["acc_u"] - du) / low)
                    if not corners:
                        break
                if not corners:
                    break
            if not corners:
                continue
            rows.append({"classifier": classifier, "dataset": row["dataset"],
                         "lambda_v": (row["acc_star"] - row["acc_u"]) / (row["acc_s"] - row["acc_u"]),
                         "lambda_low": min(corners), "lambda_high": max(corners), "c_rho_pct": row["c_rho_pct"]})
    return pd.DataFrame(rows)


def _ratio_as_certain_share(tables: dict) -> dict:
    """Altered input: every C_rho of Tables 4-5 set to 100 lambda_v of its row (a ratio that tracks the certain share)."""
    altered = dict(tables)
    for classifier in AUDITED_TABLES:
        table = tables[classifier].copy()
        mask = table["dataset"].astype(str) != "Mean"
        denominator = (table["acc_s"] - table["acc_u"]).where(lambda d: d > 0)
        share = (100 * (table["acc_star"] - table["acc_u"]) / denominator).round(1)
        table.loc[mask & share.notna(), "c_rho_pct"] = share[mask & share.notna()]
        altered[classifier] = table
    return {"tables": altered}


@check("aguilar2025.ratio-tracks-certain-share", inputs={"tables": printed_tables}, mutate=_ratio_as_certain_share)
def ratio_tracks_certain_share(tables: dict) -> Finding:
    """Sect. 1 and Sect. 7: C_rho quantifies how much of the performance comes from confident rather than
    uncertain predictions; on the printed rows of Tables 4-5 it should then order the rows as the certain
    share lambda_v of Eq. (15) does. Pairs ordered the other way beyond the rounding of every printed
    number contradict it (the 'always' of a measure: no pair)."""
    share = certain_share_intervals(tables)
    half = PRINTED_HALF_UNIT["c_rho_pct"]
    reversed_pairs = []
    for i in share.itertuples():
        for j in share.itertuples():
            if i.lambda_low > j.lambda_high and i.c_rho_pct + half < j.c_rho_pct - half:
                reversed_pairs.append((i.lambda_v - j.lambda_v, i, j))
    detail = f"{len(reversed_pairs)} pairs of the {len(share)} rows of Tables 4-5 ordered against lambda_v beyond rounding"
    if reversed_pairs:
        _, i, j = max(reversed_pairs, key=lambda item: item[0])
        detail += (f"; widest: {i.classifier} {i.dataset} (lambda_u = {1 - i.lambda_v:.3f}, C_rho {i.c_rho_pct:g} %) "
                   f"against {j.classifier} {j.dataset} (lambda_u = {1 - j.lambda_v:.3f}, C_rho {j.c_rho_pct:g} %)")
    return Finding(book=not reversed_pairs, detail=detail, verdict="erratum" if reversed_pairs else None,
                   severity="error of substance" if reversed_pairs else None)


# ----------------------------------------------------------------------------------------------
# What the chapters show
# ----------------------------------------------------------------------------------------------

def findings(chapter: str) -> str:
    """The chapter's slice of the ledger, as :func:`credalbook.book.ledger.report.chapter_slice` lays it out.

    ``chapter_slice`` fails on a chapter whose slice holds claims but no published table (its
    table summary of zero cells), so such a chapter gets the claims table alone.
    """
    from credalbook.book.ledger.core import ledger
    from credalbook.book.ledger.report import chapter_slice, markdown_table

    rows = ledger(chapter=chapter)
    if (rows["entry"] == "table").any():
        return chapter_slice(chapter, rows)
    return markdown_table(rows, {"statement": "the paper says", "section": "where", "published": "paper",
                                 "book": "book", "verdict": "verdict"})
