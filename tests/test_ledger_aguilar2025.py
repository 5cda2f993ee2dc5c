"""Checks of credalbook.book.ledger.aguilar2025 on small hand-made inputs, values worked out by hand."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import sympy as sp

from credalbook.book import ledger
from credalbook.book.experiments import certainty as ex
from credalbook.book.ledger import aguilar2025 as ag
from credalbook.book.ledger import core
from credalbook.book.theory import certainty as th

CLAIMS = {claim.id: claim for claim in ledger.claims() if claim.paper == "aguilar2025"}


def verdict(claim_id: str, **inputs) -> str:
    return core.evaluate_claim(CLAIMS[claim_id], inputs)["verdict"]


def printed(rows: dict[str, list], mean: dict[str, float], classifier: str = "3-NN") -> pd.DataFrame:
    """A table shaped like Tables 2-5: the given rows, then the Mean row."""
    table = pd.DataFrame(rows)
    for column in ex.PAPER_COLUMNS:
        table[column] = table.get(column, 0.5)
    return pd.concat([table, pd.DataFrame([{"dataset": "Mean", **{c: mean.get(c, 0.5) for c in ex.PAPER_COLUMNS}}])],
                     ignore_index=True)


def tables_with(**by_classifier) -> dict:
    """Tables 2-6: ``by_classifier`` replaces some, the others are one consistent row (C = 100 * 0.8/(0.8 + 0.2))."""
    consistent = printed({"dataset": ["a"], "acc_s": [0.8], "acc_u": [0.2], "c_rho_pct": [80.0], "div_pct": [1.0]},
                         {"acc_s": 0.8, "acc_u": 0.2, "c_rho_pct": 80.0, "div_pct": 1.0})
    tables = {c: by_classifier.get(c, consistent) for c in ex.CLASSIFIERS}
    tables["Table 6"] = by_classifier.get("Table 6", pd.DataFrame(
        [{"classifier": c, **tables[c].set_index("dataset").loc["Mean"].to_dict()} for c in ex.CLASSIFIERS]))
    return tables


def runs(values: dict[str, list[float]], column: str) -> pd.DataFrame:
    """Results rows (dataset d0, d1, ... per classifier) with ``column`` set from ``values``."""
    return pd.DataFrame([{"dataset": f"d{i}", "classifier": c, column: v}
                         for c, vs in values.items() for i, v in enumerate(vs)])


class TestTheory:
    def test_lowered_true_class_raises_the_ratio_in_a_two_instance_case(self):
        # y = (0, 1), q = ((0.8, 0.2), (0.6, 0.4)): Acc*_v = 0.8/1.4, Acc*_u = 0.4/0.6, C = 6/13;
        # row 1 lowered to 0.7: C = (7/13)/(7/13 + 4/7) = 49/101; row 2 lowered to 0.3: C = (8/15)/(8/15 + 3/5) = 8/17
        table = th.lowered_true_class([0, 1], [[0.8, 0.2], [0.6, 0.4]])
        assert table["before"].iloc[0] == pytest.approx(6 / 13)
        assert list(table["correct"]) == [True, False]
        assert table["after"].tolist() == pytest.approx([49 / 101, 8 / 17])

    def test_eq9_as_printed_takes_the_maximum_of_each_column(self):
        q = sp.Matrix([[6, 4], [7, 3]]) / 10
        assert th.eq9_as_printed(q) == sp.Matrix([[0, sp.Rational(2, 5)], [sp.Rational(7, 10), 0]])
        assert th.example_matrices(q, labels=(0, 0))["Q+"] == sp.Matrix([[sp.Rational(3, 5), 0], [sp.Rational(7, 10), 0]])

    def test_counterexamples(self):
        assert th.always_right_counterexample()["certainty_ratio"] == 1.0
        guess = th.constant_guess_counterexample(n=10, majority=0.8)
        assert guess["accuracy"] == pytest.approx(0.8) and guess["certainty_ratio"] == 1.0
        with pytest.raises(ValueError, match="majority"):
            th.constant_guess_counterexample(majority=1.0)
        with pytest.raises(ValueError, match="amount"):
            th.lowered_true_class([0], [[1.0, 0.0]], amount=0.0)

    def test_printed_matrices_are_the_example_s_but_for_nothing(self):
        computed = th.example_matrices()
        assert all(computed[name] == matrix for name, matrix in th.PRINTED_MATRICES.items())


class TestPrintedTables:
    @staticmethod
    def _fold_averaged(gaps: dict[str, float]) -> pd.DataFrame:
        """The book's fold-averaged run of 3-NN: accuracies 0.8 and 0.2 (ratio 80) and C_rho 80 + the gap, by row."""
        return pd.DataFrame([{"classifier": "3-NN", "paper_name": row, "acc_s_foldavg": 0.8, "acc_u_foldavg": 0.2,
                              "c_rho_pct_foldavg": 80.0 + gap} for row, gap in gaps.items()])

    def test_ratio_column_consistency_counts_only_what_fold_averaging_cannot_make(self):
        # 100 * 0.8/(0.8 + 0.2) = 80; slack 0.05 + 0.05/1.0 = 0.1: 80.1 is within rounding, 82.0 and 90.0 are not
        knn = printed({"dataset": ["a", "b", "c"], "acc_s": [0.8] * 3, "acc_u": [0.2] * 3,
                       "c_rho_pct": [80.1, 82.0, 90.0]}, {})
        assert ag.rows_beyond_rounding(tables_with(**{"3-NN": knn}))["3-NN"]["dataset"].tolist() == ["b", "c"]
        averaged = self._fold_averaged({"a": 0.0, "b": 1.5, "c": 1.5})  # fold averaging makes a gap of 1.5 points
        finding = ag.ratio_column_consistency(tables_with(**{"3-NN": knn}), averaged)
        # b: 2.0 against 1.5, within the C_rho tolerance (3 points); c: 10.0 against 1.5, beyond it: a difference
        # of reproduction, never an erratum (fold averaging ties C_rho to no identity of the printed accuracies)
        assert finding.book == 1 and finding.verdict is None
        assert "c (printed 90" in finding.detail
        assert verdict("aguilar2025.ratio-column-consistency", tables=tables_with(**{"3-NN": knn}),
                       results=averaged) == "not reproduced"
        explained = ag.ratio_column_consistency(tables_with(**{"3-NN": knn}), self._fold_averaged(
            {"a": 0.0, "b": 1.5, "c": 9.0}))
        assert explained.book == 0 and explained.verdict is None
        assert ag.ratio_column_consistency(tables_with(), averaged).verdict is None

    def test_tree_mean_divergence_is_judged_against_its_tolerance(self):
        tree = printed({"dataset": ["a", "b"], "div_pct": [0.0, 0.15]}, {"div_pct": 0.0})
        tables = tables_with(**{"Decision Tree": tree})
        tables["Table 6"].loc[tables["Table 6"]["classifier"] == "Decision Tree", "div_pct"] = 0.1
        finding = ag.tree_mean_divergence(tables)
        assert finding.book == pytest.approx(0.075) and finding.verdict is None
        assert "Table 6 prints 0.1" in finding.detail
        # two prints one unit apart, both within the tolerance (0.1) of the rows' mean: within tolerance, no erratum
        assert verdict("aguilar2025.tree-mean-divergence", tables=tables) == "within tolerance"
        far = printed({"dataset": ["a", "b"], "div_pct": [1.0, 1.15]}, {"div_pct": 0.0})
        assert verdict("aguilar2025.tree-mean-divergence", tables=tables_with(**{"Decision Tree": far})) == \
            "not reproduced"

    def test_knn_divergence_about_four_and_a_half(self):
        knn = printed({"dataset": ["a", "b"], "div_pct": [4.0, 5.2]}, {"div_pct": 4.6})
        assert ag.knn_divergence(tables_with(**{"3-NN": knn}), None).book == pytest.approx(4.6)
        assert verdict("aguilar2025.knn-divergence", tables=tables_with(**{"3-NN": knn}), results=None) == \
            "within tolerance"
        far = printed({"dataset": ["a", "b"], "div_pct": [4.6, 5.2]}, {"div_pct": 4.9})
        assert verdict("aguilar2025.knn-divergence", tables=tables_with(**{"3-NN": far}), results=None) == "erratum"

    def test_high_ratio_below_the_majority_share_is_an_erratum(self):
        listing = pd.DataFrame({"name": ["fertility", "sonar"], "majority": [0.88, 0.53]})
        tree = printed({"dataset": ["fertility diagnosis", "sonar"], "acc": [0.76, 0.9],
                        "c_rho_pct": [100.0, 100.0]}, {})
        finding = ag.high_ratio_accurate(tables_with(**{"Decision Tree": tree}), listing, None)
        assert finding.verdict == "erratum" and "fertility diagnosis" in finding.detail and "sonar" not in finding.detail


class TestRuns:
    def test_extremes_rankings_and_shares(self):
        accuracy = runs({"3-NN": [0.8, 0.7], "Naive Bayes": [0.6, 0.75], "Decision Tree": [0.7, 0.7],
                         "Random Forest": [0.9, 0.8]}, "acc")
        assert core.CHECKS["aguilar2025.forest-highest-accuracy"].function(accuracy).book == "Random Forest"
        assert ag.tree_accuracy_below(accuracy).book is True  # 0.70 < 0.75 (3-NN) and 0.85
        # naive Bayes below 3-NN on d0 only: share 1/2, below 'generally' (0.75) but half: partly (the policy)
        assert core.CHECKS["aguilar2025.bayes-lower-accuracy"].function(accuracy).book == 0.5
        assert verdict("aguilar2025.bayes-lower-accuracy", results=accuracy) == "partly"
        uncertainty = runs({"3-NN": [0.3], "Naive Bayes": [0.2], "Decision Tree": [0.0], "Random Forest": [0.1]},
                           "acc_u")
        # 3-NN leads, as the paper's leader (naive Bayes) is second: another leader, not reproduced
        assert verdict("aguilar2025.uncertainty-accuracy-ranking", results=uncertainty) == "not reproduced"

    def test_imcp_closer_share_leaves_out_rows_where_acc_equals_acc_star(self):
        table = pd.DataFrame({"acc": [0.8, 0.8, 0.9, 0.7], "acc_star": [0.7, 0.7, 0.9, 0.6],
                              "imcp": [0.72, 0.79, 0.5, 0.6]})
        assert ag.imcp_closer_share(table) == (2, 3)  # rows 1 and 4 closer to Acc*, row 3 left out

    def test_reliability_by_calibration(self):
        rows = []
        for classifier, score in (("3-NN", 0.3), ("Naive Bayes", 0.4), ("Decision Tree", 0.2), ("Random Forest", 0.1)):
            rows.append({"dataset": "d0", "classifier": classifier, "brier": score, "log_loss": score, "ece": score})
        results = pd.DataFrame(rows)
        assert ag.tree_most_reliable(results).book is False
        assert ag.forest_reliability_undermined(results).book is False
        results.loc[results["classifier"] == "Decision Tree", "ece"] = 0.05  # the tree now leads one measure
        assert ag.forest_reliability_undermined(results).book is True
        assert ag.calibration_leaders(results) == {"brier": "Random Forest", "log_loss": "Random Forest",
                                                   "ece": "Decision Tree"}

    def test_many_classes_flat(self):
        results = pd.DataFrame({"classifier": ["3-NN"] * 3, "k": [2, 3, 10], "acc_star": [0.9, 0.8, 0.4]})
        assert ag.many_classes_flat(results).book is True
        assert ag.many_classes_flat(results.assign(acc_star=[0.4, 0.8, 0.9])).book is False


def test_example_numbers_follow_the_probabilities():
    # the altered example predicts row 4 as B: Acc = 5/6, and the column of CM for A sums to 3 as printed
    altered = ag._other_example(th.EXAMPLE_Q)["q"]
    assert core.CHECKS["aguilar2025.example4-accuracy"].function(altered).book == pytest.approx(5 / 6)
    assert verdict("aguilar2025.example6-column-sum-cm", q=altered) == "reproduced"
    assert verdict("aguilar2025.example6-column-sum-cm", q=th.EXAMPLE_Q) == "erratum"


def test_dataset_ranges_and_count_on_a_hand_listing():
    listing = pd.DataFrame({"paper_name": ["a", "b", "c"], "available": [True, True, False],
                            "n_rows": [100, 500, pd.NA], "n_features": [4, 9, pd.NA], "n_classes": [2, 3, pd.NA]})
    assert ag.datasets_count(listing).book == 3
    assert core.CHECKS["aguilar2025.samples-range"].function(listing).book == "100 to 500"
    assert verdict("aguilar2025.classes-range", listing=listing) == "not reproduced"  # 2 to 3, printed 2 to 15


# ---------------------------------------------------------------- the referees' audit (issue 24)

def test_certainty_matrix_holds_misclassified_mass_in_example_8():
    finding = ag.certainty_matrix_correct_classifications(ag.worked_example_instances())
    assert finding.verdict == "erratum" and "1.3 of its 4.4" in finding.detail and "0.4/1.6" in finding.detail
    y, q = ag.worked_example_instances()
    assert verdict("aguilar2025.certainty-matrix-correct-classifications", example=(y, q)) == "erratum"
    right = (np.argmax(q, axis=1), q)  # every instance's class its predicted one: V diagonal, U off-diagonal
    assert verdict("aguilar2025.certainty-matrix-correct-classifications", example=right) == "reproduced"


def _audit_tables(rows_tree, rows_forest):
    columns = ["dataset", "acc_star", "acc_s", "acc_u", "c_rho_pct"]
    return {"Decision Tree": pd.DataFrame(rows_tree, columns=columns),
            "Random Forest": pd.DataFrame(rows_forest, columns=columns)}


def test_ratio_against_certain_share_on_printed_rows():
    # customer churn (Table 4) and vowel (Table 5) as printed: lambda_u 0.007 with C_rho 66.9, 0.30 with 97.3
    printed_rows = _audit_tables([["customer churn", 0.940, 0.943, 0.508, 66.9]],
                                 [["vowel", 0.696, 0.983, 0.028, 97.3]])
    shares = ag.certain_share_intervals(printed_rows).set_index("dataset")["lambda_v"]
    assert shares["customer churn"] == pytest.approx(0.993, abs=1e-3) and shares["vowel"] == pytest.approx(0.699, abs=1e-3)
    assert verdict("aguilar2025.ratio-tracks-certain-share", tables=printed_rows) == "erratum"
    # the vowel row's C_rho printed below churn's: the order of the certain share, no contradiction
    consistent = _audit_tables([["customer churn", 0.940, 0.943, 0.508, 66.9]], [["vowel", 0.696, 0.983, 0.028, 60.0]])
    assert verdict("aguilar2025.ratio-tracks-certain-share", tables=consistent) == "reproduced"
