"""Bad-input cases of the tools' half of the library: lenses, risk aversion, Displays, data (issue 27).

Read by ``tests/test_bad_input_contract.py`` (same forms: ``MODULES``, ``CASES``, ``NOTHING_TO_CHECK``).
Each call passes one bad argument to otherwise valid input; the message must name that argument.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from credalbook import data, display, lenses
from credalbook import risk_aversion as ra

MODULES = ("credalbook.lenses", "credalbook.risk_aversion", "credalbook.display", "credalbook.data")

TRUTH = np.array([0, 1, 2, 1])
SETS = np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1], [1, 0, 1]], dtype=bool)
PROBA2 = np.array([[0.6, 0.4], [0.3, 0.7], [0.8, 0.2], [0.5, 0.5]])
PROBA3 = np.array([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.1, 0.8], [0.3, 0.4, 0.3]])
NOT_PROBA3 = PROBA3 + 0.1
Y01 = np.array([0, 1, 0, 1, 1])
S01 = np.array([0.2, 0.9, 0.4, 0.6, 0.7])
CLASSIFIERS = ["A", "B", "C"]


def _rows() -> pd.DataFrame:
    """Fold rows of three classifiers on four datasets (one fold each), as :func:`lenses.fold_lenses` gives."""
    out = []
    for d in range(4):
        for c, shift in zip(CLASSIFIERS, range(3)):
            sets = SETS.copy()
            sets[: shift + d % 2, :] = True  # larger sets for later classifiers
            out.append({"dataset": f"d{d}", "classifier": c, **lenses.fold_lenses(TRUTH, sets)})
    return pd.DataFrame(out)


ROWS = _rows()
SCORES = lenses.dataset_scores(ROWS)
SCORES_SHORT = SCORES.drop(columns="value")


def _no_n(rows):
    return rows.assign(n=0)


def _path():
    A = np.array([[0.6, 0.5], [0.55, 0.6], [0.4, 0.45]])
    B = np.array([[0.05, 0.1], [0.08, 0.02], [0.15, 0.12]])
    return A, B


A_LINES, B_LINES = _path()
U65 = ra.RiskAversion.from_mean(0.65, 20)


def _regressor():
    from sklearn.linear_model import LinearRegression

    return LinearRegression().fit([[0.0], [1.0], [2.0]], [0.0, 1.0, 2.0])


def _unfitted():
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression()


def _not_fitted():
    from sklearn.exceptions import NotFittedError

    return NotFittedError


X3 = [[0.0], [1.0], [2.0]]

CASES: dict[str, list] = {
    # lenses
    "credalbook.lenses.Lens": [
        (lambda: lenses.Lens("x", "x", "pixels", True, "sum", "s"), ValueError, "reads"),
        (lambda: lenses.Lens("x", "x", "sets", True, "median", "s"), ValueError, "pooling"),
        (lambda: lenses.Lens("x", "x", "sets", True, "sum", "s", role="verdict"), ValueError, "role")],
    "credalbook.lenses.fold_lenses": [
        (lambda: lenses.fold_lenses([0, 1, 0, 1], SETS, PROBA2), ValueError, "sets has 3 columns.*proba has 2"),
        (lambda: lenses.fold_lenses(TRUTH, SETS, PROBA3[:3]), ValueError, "y_true|proba"),
        (lambda: lenses.fold_lenses(TRUTH, SETS, ordinal_cost=np.ones((2, 2))), ValueError, "ordinal_cost"),
        (lambda: lenses.fold_lenses(TRUTH, proba=PROBA3, ordinal_cost=np.ones((3, 3))), ValueError, "ordinal_cost"),
        (lambda: lenses.fold_lenses(TRUTH), ValueError, "sets, proba")],
    "credalbook.lenses.dataset_scores": [
        (lambda: lenses.dataset_scores(ROWS.assign(n=0)), ValueError, "n"),
        (lambda: lenses.dataset_scores(ROWS.assign(n=-4)), ValueError, "n"),
        (lambda: lenses.dataset_scores(ROWS[["dataset", "classifier", "n"]]), ValueError, "rows holds no lens"),
        (lambda: lenses.dataset_scores(ROWS.to_dict()), TypeError, "rows"),
        (lambda: lenses.dataset_scores(ROWS.drop(columns="n")), ValueError, "rows lacks")],
    "credalbook.lenses.score_table": [
        (lambda: lenses.score_table(SCORES, "bogus"), ValueError, "lens must be one of"),
        (lambda: lenses.score_table(SCORES_SHORT, "u65"), ValueError, "scores lacks"),
        (lambda: lenses.score_table(SCORES, "u65", ["A", "Z"]), ValueError, "classifiers")],
    "credalbook.lenses.lens_ranks": [(lambda: lenses.lens_ranks(SCORES, ["u65", "bogus"], CLASSIFIERS), ValueError,
                                      "lens")],
    "credalbook.lenses.kendall_tau_b": [(lambda: lenses.kendall_tau_b([1, 2], [1, 2, 3]), ValueError, "a and b"),
                                        (lambda: lenses.kendall_tau_b([1, 1, 1], [1, 2, 3]), ValueError, "a|ties")],
    "credalbook.lenses.bca_interval": [
        (lambda: lenses.bca_interval(0.5, [0.1], [0.2, 0.3]), ValueError, "boot"),
        (lambda: lenses.bca_interval(np.nan, [0.1, 0.2], [0.2, 0.3]), ValueError, "estimate"),
        (lambda: lenses.bca_interval(0.5, [0.1, 0.2], [np.nan, 0.3]), ValueError, "jackknife"),
        (lambda: lenses.bca_interval(0.5, [0.1, 0.2], [0.2, 0.3], level=1.0), ValueError, "level")],
    "credalbook.lenses.rank_agreement": [
        (lambda: lenses.rank_agreement(SCORES, ["u65"], CLASSIFIERS), ValueError, "lenses"),
        (lambda: lenses.rank_agreement(SCORES, ["u65", "u80"], ["A"]), ValueError, "classifiers"),
        (lambda: lenses.rank_agreement(SCORES, ["u65", "u80"], ["A", "A", "B"]), ValueError, "classifiers"),
        (lambda: lenses.rank_agreement(SCORES, ["u65", "u80"], CLASSIFIERS, n_boot=1), ValueError, "n_boot")],
    "credalbook.lenses.order_flips": [
        (lambda: lenses.order_flips(SCORES, "u65", "bogus", CLASSIFIERS), ValueError, "lens_b"),
        (lambda: lenses.order_flips(SCORES, "u65", "u80", CLASSIFIERS, alpha=2), ValueError, "alpha")],
    "credalbook.lenses.friedman_by_lens": [
        (lambda: lenses.friedman_by_lens(SCORES, ["u65"], CLASSIFIERS, alpha=0), ValueError, "alpha"),
        (lambda: lenses.friedman_by_lens(SCORES, [], CLASSIFIERS), ValueError, "lenses")],
    "credalbook.lenses.lens_means": [(lambda: lenses.lens_means(SCORES, ["bogus"], CLASSIFIERS), ValueError, "lens"),
                                     (lambda: lenses.lens_means(SCORES, "u65", CLASSIFIERS), TypeError, "lenses")],
    "credalbook.lenses.lens_duplicates": [
        (lambda: lenses.lens_duplicates(SCORES, ["A", "Z"]), ValueError, "classifiers"),
        (lambda: lenses.lens_duplicates(SCORES, CLASSIFIERS, rows=ROWS.to_dict()), TypeError, "rows")],
    "credalbook.lenses.nested_pairs": [(lambda: lenses.nested_pairs(SCORES, ["A", "Z"]), ValueError, "classifiers")],
    "credalbook.lenses.nested_free_panels": [
        (lambda: lenses.nested_free_panels(CLASSIFIERS, pd.DataFrame({"x": []})), ValueError, "nested"),
        (lambda: lenses.nested_free_panels(CLASSIFIERS, pd.DataFrame({"inner": ["A"], "outer": ["Z"]})), ValueError,
         "nested")],
    "credalbook.lenses.panel_agreement": [
        (lambda: lenses.panel_agreement(SCORES, "u65", "u80", CLASSIFIERS), TypeError, "panels"),
        (lambda: lenses.panel_agreement(SCORES, "u65", "u80", {"p": ["A"]}), ValueError, "panels")],
    "credalbook.lenses.panel_winners": [
        (lambda: lenses.panel_winners(SCORES, ["u65"], CLASSIFIERS), TypeError, "panels"),
        (lambda: lenses.panel_winners(SCORES, ["u65"], {"p": ["A", "Z"]}), ValueError, "classifiers")],
    "credalbook.lenses.panel_variants": [
        (lambda: lenses.panel_variants(SCORES, ["A", "Z"]), ValueError, "panel"),
        (lambda: lenses.panel_variants(SCORES, CLASSIFIERS, precise="A"), TypeError, "precise")],
    "credalbook.lenses.shared_top": [(lambda: lenses.shared_top(SCORES, ["u65"], CLASSIFIERS, alpha=1.5), ValueError,
                                      "alpha")],
    "credalbook.lenses.utility_lines": [(lambda: lenses.utility_lines(SCORES, ["A", "Z"]), ValueError, "classifiers")],
    "credalbook.lenses.utility_agreement_path": [
        (lambda: lenses.utility_agreement_path(SCORES, ["coverage"], CLASSIFIERS, [0.3]), ValueError, "v_grid"),
        (lambda: lenses.utility_agreement_path(SCORES, ["bogus"], CLASSIFIERS, [0.6]), ValueError, "lens")],
    "credalbook.lenses.coverage_by_size": [
        (lambda: lenses.coverage_by_size(ROWS, ["Z"]), ValueError, "classifiers"),
        (lambda: lenses.coverage_by_size(ROWS.drop(columns="n_size1"), CLASSIFIERS), ValueError, "rows lacks"),
        (lambda: lenses.coverage_by_size(ROWS, CLASSIFIERS, by_label_space="yes"), TypeError, "by_label_space")],
    "credalbook.lenses.label_spaces": [(lambda: lenses.label_spaces(ROWS), ValueError, "rows lacks")],
    "credalbook.lenses.plot_coverage_by_size": [
        (lambda: lenses.plot_coverage_by_size(pd.DataFrame({"classifier": ["A"]})), ValueError, "table lacks")],
    "credalbook.lenses.plot_utility_agreement_path": [
        (lambda: lenses.plot_utility_agreement_path(pd.DataFrame({"u65": [0.1]})), ValueError, "path lacks"),
        (lambda: lenses.plot_utility_agreement_path(pd.DataFrame({"v": [0.6], "bogus": [0.1]})), ValueError,
         "lens")],
    "credalbook.lenses.plot_lens_ranks": [
        (lambda: lenses.plot_lens_ranks(pd.DataFrame({"A": [1.0]}, index=["bogus"])), ValueError, "ranks")],
    "credalbook.lenses.plot_rank_correlations": [
        (lambda: lenses.plot_rank_correlations(pd.DataFrame({"lens_a": ["u65"]})), ValueError, "agreement lacks")],
    "credalbook.lenses.plot_order_flips": [
        (lambda: lenses.plot_order_flips(SCORES, "u65", "bogus", CLASSIFIERS), ValueError, "lens")],
    # risk aversion
    "credalbook.risk_aversion.RiskAversion": [
        (lambda: ra.RiskAversion(-1.0, 2.0), ValueError, "alpha"),
        (lambda: ra.RiskAversion(1.0, 2.0, low=0.9, high=0.6), ValueError, "low"),
        (lambda: ra.RiskAversion.from_mean(0.4, 20), ValueError, "mean")],
    "credalbook.risk_aversion.utility_coefficients": [
        (lambda: ra.utility_coefficients([0, 1], SETS), ValueError, "y_true has 2 instances")],
    "credalbook.risk_aversion.coefficients_from_utilities": [
        (lambda: ra.coefficients_from_utilities(0.5, 0.6, v_first=1.2), ValueError, "v_first"),
        (lambda: ra.coefficients_from_utilities([0.5, 0.6], [0.6, 0.7, 0.8]), ValueError, "u_first and u_second")],
    "credalbook.risk_aversion.mean_utility": [
        (lambda: ra.mean_utility(0.1, 0.2, 1.5), ValueError, "v must lie in"),
        (lambda: ra.mean_utility(0.1, 0.2, -0.1), ValueError, "v must lie in"),
        (lambda: ra.mean_utility([0.1, 0.2], [0.2, 0.1, 0.3], 0.6), ValueError, "A, B and v")],
    "credalbook.risk_aversion.crossing_point": [(lambda: ra.crossing_point(np.nan, 0.1, 0.2, 0.3), ValueError, "A_a")],
    "credalbook.risk_aversion.probability_better": [
        (lambda: ra.probability_better(0.1, 0.2, 0.3, 0.1, 0.65), ValueError, "distribution")],
    "credalbook.risk_aversion.RankPath": [
        (lambda: ra.RankPath(np.array([0.5, 1.0]), np.ones((2, 3))), ValueError, "edges|ranks")],
    "credalbook.risk_aversion.rank_path": [
        (lambda: ra.rank_path(A_LINES, B_LINES, support=(0.9, 0.6)), ValueError, "support"),
        (lambda: ra.rank_path(A_LINES, B_LINES[:2]), ValueError, "A and B")],
    "credalbook.risk_aversion.mean_ranks_at": [
        (lambda: ra.mean_ranks_at(A_LINES, B_LINES, [1.5]), ValueError, "v must lie in")],
    "credalbook.risk_aversion.probability_best": [
        (lambda: ra.probability_best(A_LINES, B_LINES, U65, by="median"), ValueError, "by")],
    "credalbook.risk_aversion.probability_best_resampled": [
        (lambda: ra.probability_best_resampled(A_LINES, B_LINES, U65, n_boot=1), ValueError, "n_boot")],
    "credalbook.risk_aversion.signed_rank_posterior": [
        (lambda: ra.signed_rank_posterior(A_LINES[0], B_LINES[0], A_LINES[1], B_LINES[1], U65, rope=-1), ValueError,
         "rope")],
    "credalbook.risk_aversion.plot_rank_path": [
        (lambda: ra.plot_rank_path(ra.rank_path(A_LINES, B_LINES), ["a"]), ValueError, "names")],
    # displays
    **{f"credalbook.display.{cls.__name__}": [
        (lambda cls=cls: cls.from_predictions([0, 1, 2, 0, 1], S01, plot=False), ValueError, "y_true"),
        (lambda cls=cls: cls.from_predictions(Y01, S01[:4], plot=False), ValueError, "y_score|y_true"),
        (lambda cls=cls: cls.from_predictions(Y01, S01, pos_label=7, plot=False), ValueError, "pos_label"),
        (lambda cls=cls: cls.from_estimator(_regressor(), X3, [0, 1, 0], plot=False), TypeError, "classifier"),
        (lambda cls=cls: cls.from_estimator(_unfitted(), X3, [0, 1, 0], plot=False), _not_fitted(), "fitted")]
       for cls in (display.CostCurveDisplay, display.BrierCurveDisplay)},
    "credalbook.display.CriticalDifferenceDisplay": [
        (lambda: display.CriticalDifferenceDisplay.from_scores(lenses.score_table(SCORES, "u65").iloc[:1], plot=False),
         ValueError, "scores must hold at least two datasets"),
        (lambda: display.CriticalDifferenceDisplay.from_scores(lenses.score_table(SCORES, "u65"), alpha=2,
                                                               plot=False), ValueError, "alpha"),
        (lambda: display.CriticalDifferenceDisplay.from_scores(np.ones((3, 3)), plot=False), TypeError, "scores")],
    "credalbook.display.ProbabilisticConfusionMatrixDisplay": [
        (lambda: display.ProbabilisticConfusionMatrixDisplay.from_predictions(TRUTH, NOT_PROBA3, plot=False),
         ValueError, "proba"),
        (lambda: display.ProbabilisticConfusionMatrixDisplay.from_predictions(["a", "b", "z", "a"], PROBA3,
                                                                              labels=["a", "b", "c"], plot=False),
         ValueError, "y_true"),
        (lambda: display.ProbabilisticConfusionMatrixDisplay.from_predictions(TRUTH, PROBA3, labels=["a", "b"],
                                                                              plot=False), ValueError, "labels"),
        (lambda: display.ProbabilisticConfusionMatrixDisplay.from_estimator(_regressor(), X3, [0, 1, 0], plot=False),
         TypeError, "classifier"),
        (lambda: display.ProbabilisticConfusionMatrixDisplay.from_estimator(_unfitted(), X3, [0, 1, 0], plot=False),
         _not_fitted(), "fitted")],
    "credalbook.display.SetSizeDisplay": [
        (lambda: display.SetSizeDisplay.from_predictions(TRUTH[:3], SETS, plot=False), ValueError, "y_true"),
        (lambda: display.SetSizeDisplay.from_predictions(TRUTH, SETS, empty="drop", plot=False), ValueError, "empty"),
        (lambda: display.SetSizeDisplay.from_predictions(TRUTH, SETS, labels=["a", "b"], plot=False), ValueError,
         "labels"),
        (lambda: display.SetSizeDisplay.from_estimator(_regressor(), X3, [0, 1, 0], plot=False), TypeError,
         "classifier"),
        (lambda: display.SetSizeDisplay.from_estimator(_unfitted(), X3, [0, 1, 0], plot=False), _not_fitted(),
         "fitted")],
    # data
    "credalbook.data.Dataset": [
        (lambda: data.Dataset("d", pd.DataFrame({"x": [1.0, 2.0]}), pd.Series(["a", "b", "a"], dtype="category"),
                              "test", None), ValueError, "y"),
        (lambda: data.Dataset("d", [[1.0], [2.0]], pd.Series(["a", "b"], dtype="category"), "test", None), TypeError,
         "X")],
    "credalbook.data.read_arff": [
        (lambda: data.read_arff("inline.arff", text=5), ValueError, "text"),
        (lambda: data.read_arff("inline.arff", text="@relation r\n@attribute a numeric\n@data\n1\n", encoding="nope"),
         ValueError, "encoding")],
    "credalbook.data.read_delimited": [(lambda: data.read_delimited("x.csv", sep=""), ValueError, "sep"),
                                       (lambda: data.read_delimited("x.csv", header="yes"), TypeError, "header")],
    "credalbook.data.load": [(lambda: data.load(""), ValueError, "name"),
                             (lambda: data.load("iris", group="bogus"), ValueError, "group"),
                             (lambda: data.load("iris", declared_classes="yes"), TypeError, "declared_classes")],
    "credalbook.data.list_datasets": [(lambda: data.list_datasets(group="bogus"), ValueError, "group")],
    "credalbook.data.load_group": [(lambda: data.load_group("bogus"), ValueError, "group")],
    "credalbook.data.dataset_status": [(lambda: data.dataset_status(group="bogus"), ValueError, "group")],
    "credalbook.data.fetch": [(lambda: data.fetch("iris", base_url="ftp://example.org"), ValueError, "base_url"),
                              (lambda: data.fetch(42), ValueError, "name")],
}

NOTHING_TO_CHECK = {
    "credalbook.lenses.lens_table": "takes no argument",
    "credalbook.risk_aversion.BestUnderResampling": "a result record, built by probability_best_resampled",
    "credalbook.data.registry": "takes no argument",
    "credalbook.data.repository_dir": "takes no argument (reads $CREDALBOOK_ROOT)",
    "credalbook.data.cache_dir": "takes no argument (reads $CREDALBOOK_DATA_CACHE)",
}
