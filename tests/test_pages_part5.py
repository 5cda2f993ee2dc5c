"""The helpers the pages of Part V (the certainty ratio, Aguilar-Ruiz 2025) are built from.

They lay out the worked example as LaTeX, share the ledger's entries among the six pages, and
summarise and draw the stored runs of ``aguilar2025_certainty``; every value checked here can fail.
"""
from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
import sympy as sp  # noqa: E402
import yaml  # noqa: E402

from credalbook.book.build import repo_root  # noqa: E402
from credalbook.book.experiments import certainty as ex  # noqa: E402
from credalbook.style import COLUMN_WIDTH  # noqa: E402
from credalbook.book.theory import certainty as th  # noqa: E402

PAGES = [f"chapters/certainty/{p}" for p in ("matrices", "properties", "experiments", "tables", "protocol",
                                               "reliability")]


@pytest.fixture(scope="module")
def results():
    return ex.CERTAINTY.stored()


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# ----------------------------------------------------------------------------------------------
# The worked example as LaTeX (matrices page)
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("value, text", [
    (sp.Integer(3), "3"), (sp.Rational(9, 10), "0.9"), (sp.Rational(23, 10), "2.3"), (sp.Rational(1, 4), "0.25"),
    (sp.Rational(7, 12), r"\tfrac{7}{12}"), (sp.Rational(-1, 3), r"-\tfrac{1}{3}"), (sp.Rational(4, 15), r"\tfrac{4}{15}"),
])
def test_latex_number_writes_decimals_and_fractions(value, text):
    assert th.latex_number(value) == text


def test_latex_number_keeps_surds_exact_and_refuses_complex_numbers():
    assert th.latex_number(sp.sqrt(2)) == r"\sqrt{2}"
    with pytest.raises(ValueError, match="real"):
        th.latex_number(sp.I)


def test_latex_matrix():
    assert th.latex_matrix([[1, sp.Rational(1, 2)], [0, sp.Rational(1, 3)]]) == \
        r"\begin{bmatrix}1 & 0.5 \\ 0 & \tfrac{1}{3}\end{bmatrix}"


def test_worked_example_latex_carries_the_papers_numbers():
    latex = th.worked_example_latex()
    assert set(latex) == {"inputs", "prediction", "confusion", "split", "decomposition", "accuracies", "weights",
                          "divergence", "ratio"}
    assert not any("$" in text for text in latex.values())
    assert r"\tfrac{7}{12}" in latex["accuracies"] and r"\approx 0.583" in latex["accuracies"]   # Example 10
    assert r"\tfrac{11}{15}" in latex["weights"] and r"\tfrac{31}{44}" in latex["weights"]          # Example 11
    assert r"\sqrt{1.22}" in latex["divergence"] and r"\approx 0.184" in latex["divergence"]        # Example 12
    assert r"\frac{31}{31 + 11}" in latex["ratio"] and r"\tfrac{31}{42}" in latex["ratio"]          # Example 13
    assert latex["confusion"].count(r"\begin{bmatrix}") == 2
    for stacked, lines in (("confusion", 2), ("accuracies", 2), ("weights", 4)):  # one equation a line: fits the column
        text = latex[stacked]
        assert text.startswith(r"\begin{aligned}") and r"\qquad" not in text and "&=" in text
        outside = re.sub(r"\\begin\{bmatrix\}.*?\\end\{bmatrix\}", "M", text)
        assert outside.count(r"\\") == lines - 1 and outside.count("&=") == lines


# ----------------------------------------------------------------------------------------------
# The ledger's entries shared among the pages
# ----------------------------------------------------------------------------------------------

def _fake_ledger() -> pd.DataFrame:
    ids = {"chapters/certainty/matrices": ["aguilar2025.example4-accuracy", "aguilar2025.divergence-bound",
                                           "aguilar2025.certainty-ratio-bounds"],
           "chapters/certainty/experiments": ["aguilar2025.datasets-count", "aguilar2025.knn-divergence",
                                              "aguilar2025_table2[dataset=sonar; acc]",
                                              "aguilar2025_table6[classifier=3-NN; acc]"],
           "chapters/certainty/reliability": ["aguilar2025.tree-most-reliable"],
           "chapters/datasets": ["aguilar2025_datasets[dataset=sonar; n]"]}
    return pd.DataFrame([{"id": i, "chapter": c, "entry": "table" if "[" in i else "claim"}
                         for c, chosen in ids.items() for i in chosen])


def test_page_entries_puts_every_entry_of_part_five_on_exactly_one_page():
    rows = _fake_ledger()
    shown = {page: ex.page_entries(page, rows)["id"].tolist() for page in PAGES}
    assert shown["chapters/certainty/properties"] == ["aguilar2025.divergence-bound",
                                                      "aguilar2025.certainty-ratio-bounds"]
    assert shown["chapters/certainty/matrices"] == ["aguilar2025.example4-accuracy"]
    assert shown["chapters/certainty/tables"] == ["aguilar2025_table2[dataset=sonar; acc]"]
    assert shown["chapters/certainty/protocol"] == ["aguilar2025.knn-divergence"]
    assert shown["chapters/certainty/experiments"] == ["aguilar2025.datasets-count",
                                                       "aguilar2025_table6[classifier=3-NN; acc]"]
    assert shown["chapters/certainty/reliability"] == ["aguilar2025.tree-most-reliable"]
    everything = [i for ids in shown.values() for i in ids]
    part_five = rows.loc[rows["chapter"].str.startswith("chapters/certainty/"), "id"]
    assert sorted(everything) == sorted(part_five)


def test_page_entries_names_only_claims_the_paper_has():
    claims = yaml.safe_load((repo_root() / "data" / "paper" / "claims" / "aguilar2025.yml").read_text())
    known = {c["id"] for c in (claims["claims"] if isinstance(claims, dict) else claims)}
    named = [i for _, chosen in ex.PAGE_ENTRIES.values() for i in chosen if not i.endswith("[")]
    assert named and set(named) <= known


def test_page_entries_refuses_pages_of_other_parts():
    with pytest.raises(ValueError, match="Part V"):
        ex.page_entries("chapters/ncc/uci", _fake_ledger())


def test_ledger_slice_of_a_page_with_no_entry():
    rows = _fake_ledger().iloc[:0]
    assert ex.ledger_slice("chapters/certainty/protocol", rows) == "No entry of the ledger is decided on this page."


# ----------------------------------------------------------------------------------------------
# Summaries of the cells (experiments, tables, protocol pages)
# ----------------------------------------------------------------------------------------------

def _cells() -> pd.DataFrame:
    return pd.DataFrame({"classifier": ["3-NN", "3-NN", "3-NN", "Naive Bayes"],
                         "dataset": ["sonar", "vowel", "sonar", "sonar"],
                         "measure": ["acc", "acc", "c_rho_pct", "acc"],
                         "paper": [0.80, 0.90, 70.0, 0.70], "book": [0.81, 0.87, 72.5, 0.70],
                         "difference": [0.01, -0.03, 2.5, 0.0], "tolerance": [0.005, 0.005, 1.0, 0.005],
                         "verdict": ["partly", "not reproduced", "not reproduced", "reproduced"]})


def test_median_differences_takes_the_median_of_the_absolute_differences():
    table = ex.median_differences(_cells())
    assert list(table.columns) == ["acc", "c_rho_pct"]          # the paper's column order
    assert table.loc["3-NN", "acc"] == pytest.approx(0.02)
    assert table.loc["3-NN", "c_rho_pct"] == pytest.approx(2.5)
    assert table.loc["Naive Bayes", "acc"] == 0.0 and np.isnan(table.loc["Naive Bayes", "c_rho_pct"])
    with pytest.raises(ValueError, match="lack columns"):
        ex.median_differences(_cells().drop(columns="difference"))


def test_beyond_tolerance_keeps_the_cells_a_reading_leaves_beyond_tolerance():
    rows = pd.DataFrame({
        "id": ["aguilar2025_table2[dataset=sonar; acc_u]", "aguilar2025_table6[classifier=3-NN; div_pct]",
               "aguilar2025_table3[dataset=vowel; acc]", "aguilar2025.knn-divergence",
               "aguilar2025_table2[dataset=sonar; acc]"],
        "entry": ["reading: folds averaged"] * 4 + ["table"],
        "verdict": ["not reproduced", "partly", "within tolerance", "not reproduced", "not reproduced"],
        "published": ["0.300", "4.9", "0.9", "", "0.8"], "book": [0.35, 3.8, 0.9, "", 0.7],
        "difference": [0.05, -1.1, 0.0, "", -0.1]})
    left = ex.beyond_tolerance(rows)
    assert left["table"].tolist() == ["Table 2", "Table 6"]
    assert left["dataset"].tolist() == ["sonar", "3-NN"]
    assert left["measure"].tolist() == [ex.MEASURE_NAMES["acc_u"], ex.MEASURE_NAMES["div_pct"]]
    assert left["paper"].tolist() == [0.3, 4.9] and left["difference"].tolist() == [0.05, -1.1]
    assert ex.beyond_tolerance(rows, "book")["dataset"].tolist() == ["sonar"]


def test_ratio_consistency_holds_by_construction_for_pooled_rows(results):
    consistency = ex.ratio_consistency(results)
    pooled = consistency[consistency["source"] == "book, pooled"]
    assert len(pooled) == len(results)
    assert pooled["difference"].abs().max() < 1e-6        # Eq. (21), to the stored precision
    paper = consistency[consistency["source"] == "paper"]
    assert len(paper) == sum(len(ex.published_consistency(c)[0]) for c in ex.CLASSIFIERS)
    assert paper["difference"].abs().max() > 1.0                             # the printed tables do not
    averaged = consistency[consistency["source"] == "book, folds averaged"]
    assert averaged["difference"].abs().max() > 0.1


def test_same_datasets_differences_is_small_for_the_accuracies(results):
    table = ex.same_datasets_differences(results).set_index("classifier")
    assert list(table.index) == list(ex.CLASSIFIERS)
    assert table["acc"].abs().max() < 0.01
    book = results[results["classifier"] == "3-NN"]["acc"].mean()
    paper = ex.paper_means_on([ex.PAPER_NAMES[d] for d in ex.datasets()]).set_index("classifier").loc["3-NN", "acc"]
    assert table.loc["3-NN", "acc"] == pytest.approx(book - paper)


def test_open_choices(results):
    table = ex.open_choices(results).set_index("classifier")
    assert list(table.index) == list(ex.CLASSIFIERS)
    assert table.loc["3-NN", "tied"] > table.loc["Naive Bayes", "tied"]          # probabilities in thirds tie
    assert table.loc["3-NN", "change_max"] >= table.loc["3-NN", "change_mean"] >= 0
    assert table.loc["3-NN", "accuracy"] == pytest.approx(results.query("classifier == '3-NN'")["c_rho_pct"].mean())
    assert (table["mcc_min"] <= table["mcc"]).all() and (table["mcc"] <= table["mcc_max"]).all()


def test_calibration_summary(results):
    table = ex.calibration_summary(results).set_index("classifier")
    assert table.loc["Decision Tree", "share_one_hot"] > 0.9
    assert table.loc["Random Forest", "brier"] < table.loc["Decision Tree", "brier"]
    with pytest.raises(ValueError, match="lack columns"):
        ex.calibration_summary(results.drop(columns="ece"))


def test_tree_imcp_of_a_tree_with_pure_leaves():
    table = ex.tree_imcp(["fertility"]).iloc[0]
    assert table["share of 0/1 rows"] > 0.9
    assert 0 <= table["IMCP"] <= 1
    assert table["IMCP"] == pytest.approx(table["balanced accuracy"], abs=0.15)


# ----------------------------------------------------------------------------------------------
# Figures: drawn at the column width, one panel per measure or classifier
# ----------------------------------------------------------------------------------------------

def _width(fig) -> float:
    return float(fig.get_size_inches()[0])


def test_paper_vs_book_figure():
    fig = ex.paper_vs_book_figure(_cells(), hue="classifier", title="classifier")
    assert _width(fig) <= COLUMN_WIDTH
    panels = fig.axes
    assert len(panels) == 8 and not panels[-1].axison
    assert panels[0].get_title() == ex.MEASURE_LABELS["acc"]
    labels = [t.get_text() for t in panels[-1].get_legend().get_texts()]
    assert labels == ["3-NN", "Naive Bayes"]
    with pytest.raises(ValueError, match="no column"):
        ex.paper_vs_book_figure(_cells(), hue="protocol")


def test_ratio_and_calibration_figures(results):
    for fig in (ex.ratio_consistency_figure(ex.ratio_consistency(results)), ex.accuracy_ratio_figure(results)):
        assert _width(fig) <= COLUMN_WIDTH
        assert [ax.get_title() for ax in fig.axes] == list(ex.CLASSIFIERS)
    reliability = ex.RELIABILITY.stored()
    fig = ex.reliability_figure(reliability, ["vertebral-column-3c"])
    assert _width(fig) <= COLUMN_WIDTH and len(fig.axes) == 4
    with pytest.raises(ValueError, match="no bins"):
        ex.reliability_figure(reliability, ["no-such-dataset"])
    y, q = ex.gaussian_posterior_sample(n=500, seed=3)
    fig = ex.temperature_figure(ex.temperature_sweep(y, q, [0.0, 0.5, 1.0, 4.0]))
    assert _width(fig) <= COLUMN_WIDTH and len(fig.axes) == 2
