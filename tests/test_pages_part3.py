"""The helpers of Part III's pages (credalbook.book.experiments.benchmark): summaries, figures, ledger slices."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from credalbook.book.experiments import benchmark as bm
from credalbook.style import COLUMN_WIDTH


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def synthetic_means(n_datasets: int = 12) -> pd.DataFrame:
    """Per-dataset means where CMA > CDT > LNCC > NCC on every dataset, in both arms."""
    rows = []
    for cfs in (False, True):
        for d in range(n_datasets):
            for position, name in enumerate(("NCC", "LNCC", "CDT", "CMA")):
                value = 50.0 + 10 * position + d
                rows.append({"cfs": cfs, "dataset": f"d{d}", "classifier": name, "determinacy": value,
                             "u50": value, "u65": value, "u80": value, "accuracy": value, "folds": 100})
    return pd.DataFrame(rows)


def cells(rows):
    return pd.DataFrame(rows, columns=["measure", "quantity", "table", "paper", "book", "difference", "tolerance",
                                       "verdict", "why"])


# ----------------------------------------------------------------------------------------------
# Causes and kinds of the per-dataset cells
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("why, cause", [
    ("", "not explained"),
    (None, "not explained"),
    (float("nan"), "not explained"),
    ("not explained: MDL cut points are a candidate", "not explained"),
    ("CDT's leaf rule: with Weka-IP's rule the book's value is within", "CDT's leaf rule"),
    ("feature selection", "feature selection"),
])
def test_cause_of_reads_the_text_before_the_first_colon(why, cause):
    assert bm.cause_of(why) == cause


def test_difference_kind_separates_within_explained_unexplained_and_uncheckable():
    frame = cells([
        ("NCC", "u50", 13, 80.0, 82.0, 2.0, 5.0, "within tolerance", ""),
        ("NCC", "u50", 13, 80.0, 90.0, 10.0, 5.0, "not reproduced", "declared classes: heart-c"),
        ("LNCC", "u50", 13, 80.0, 60.0, -20.0, 5.0, "not reproduced", ""),
        ("CDT", "u50", 13, 80.0, np.nan, np.nan, 5.0, "not checkable", ""),
        # beyond the tolerance by the numbers even though the verdict column says otherwise
        ("CMA", "u50", 13, 80.0, 86.0, 6.0, 5.0, "reproduced", "not explained: nothing found"),
    ])
    kinds = bm.difference_kind(frame)
    assert list(kinds) == [bm.KINDS[0], bm.KINDS[1], bm.KINDS[2], "not checkable", bm.KINDS[2]]


def test_difference_kind_rejects_frames_without_the_judged_columns():
    with pytest.raises(ValueError, match="lack columns"):
        bm.difference_kind(pd.DataFrame({"book": [1.0]}))


def test_causes_by_table_counts_only_cells_beyond_the_tolerance():
    frame = cells([
        ("NCC", "u50", 13, 80.0, 82.0, 2.0, 5.0, "within tolerance", "declared classes: ignored, within"),
        ("NCC", "u50", 13, 80.0, 90.0, 10.0, 5.0, "not reproduced", "declared classes: heart-c"),
        ("NCC", "u65", 14, 80.0, 90.0, 10.0, 5.0, "not reproduced", "declared classes: heart-c"),
        ("CDT", "u65", 14, 80.0, 60.0, -20.0, 5.0, "not reproduced", ""),
        ("CDT", "u65", 14, 80.0, 60.0, -20.0, 5.0, "not reproduced", "CDT's leaf rule: x"),
    ])
    grid = bm.causes_by_table(frame)
    assert list(grid.columns) == ["Table 13", "Table 14", "all"]
    assert grid.loc["declared classes"].tolist() == [1, 1, 2]
    assert grid.loc["not explained"].tolist() == [0, 1, 1]
    assert grid["all"].sum() == 4
    assert grid.index[0] == "declared classes"  # most cells first


# ----------------------------------------------------------------------------------------------
# The paper's own tables
# ----------------------------------------------------------------------------------------------

def test_the_papers_cma_columns_with_cfs_repeat_those_without():
    same, legible = bm.paper_cma_repeats()
    assert legible > 150
    assert same == legible


def test_paper_critical_difference_uses_table6_ranks_and_55_datasets():
    display = bm.paper_critical_difference(utility="u50")
    assert display.ranks.to_dict() == pytest.approx({"NCC": 3.05, "LNCC": 2.48, "CMA": 2.28, "CDT": 2.18})
    assert display.critical_difference == pytest.approx(2.569 * np.sqrt(4 * 5 / (6 * 55)), abs=2e-3)
    with pytest.raises(ValueError, match="utility"):
        bm.paper_critical_difference(utility="u99")


def test_variants_beside_paper_adds_the_published_cells():
    from credalbook.book.reference import published

    scores = pd.DataFrame([{"dataset": "heart-c", "classifier": "NCC", "variant": "as in the benchmark",
                            "determinacy": 90.0, "u50": 50.0, "u65": 55.0, "u80": 60.0},
                           {"dataset": "not-a-dataset", "classifier": "NCC", "variant": "as in the benchmark",
                            "determinacy": 90.0, "u50": 50.0, "u65": 55.0, "u80": 60.0}])
    out = bm.variants_beside_paper(scores)
    table12 = published("zaffalon2012_bench_table12").set_index("name")
    assert out.loc[0, "determinacy (paper)"] == pytest.approx(float(table12.loc["heart-c", "NCC"]))
    assert np.isnan(out.loc[1, "u80 (paper)"])
    assert out.loc[0, "u50"] == 50.0


def test_classes_missing_features_on_soybean():
    never = bm.classes_missing_features("soybean")
    assert len(never) == 19
    assert int((never > 0).sum()) == 4
    assert int(never.max()) == 28


# ----------------------------------------------------------------------------------------------
# Summaries of the book's means
# ----------------------------------------------------------------------------------------------

def test_friedman_summary_rejects_when_one_order_holds_on_every_dataset():
    summary = bm.friedman_summary(synthetic_means())
    assert list(summary["arm"].unique()) == list(bm.ARMS.values())
    assert len(summary) == 6
    assert summary["significant"].all()
    assert (summary["datasets"] == 12).all()
    # Friedman chi2 with a perfect order: 12 N / (k (k+1)) * sum(R^2) - 3 N (k+1)
    expected = 12 * 12 / (4 * 5) * (1 + 4 + 9 + 16) - 3 * 12 * 5
    assert summary["friedman_chi2"].to_numpy() == pytest.approx(expected)


def test_mean_ranks_beside_paper_pairs_tables_6_and_9_with_the_books_ranks():
    ranks = bm.mean_ranks_beside_paper(synthetic_means())
    assert len(ranks) == 2 * 3 * 4
    cma = ranks[(ranks["arm"] == "without CFS") & (ranks["utility"] == "u50") & (ranks["classifier"] == "CMA")]
    assert cma["book"].item() == 1.0
    assert cma["paper"].item() == pytest.approx(2.28)
    ncc = ranks[(ranks["arm"] == "with CFS") & (ranks["utility"] == "u80") & (ranks["classifier"] == "NCC")]
    assert ncc["book"].item() == 4.0


def test_fold_seconds_averages_per_dataset_and_orders_by_cost():
    rows = pd.DataFrame([{"dataset": d, "classifier": c, "seconds": s}
                         for d, factor in (("iris", 1.0), ("letter", 10.0))
                         for c in bm.CLASSIFIERS for s in (factor, 3 * factor)])
    seconds = bm.fold_seconds(rows)
    assert list(seconds.index) == ["iris", "letter"]
    assert list(seconds.columns) == list(bm.CLASSIFIERS)
    assert seconds.loc["letter", "LNCC"] == pytest.approx(20.0)
    assert seconds.loc["iris", "NCC"] == pytest.approx(2.0)


# ----------------------------------------------------------------------------------------------
# Ledger slices of the three pages
# ----------------------------------------------------------------------------------------------

def ledger_rows():
    chapter = "chapters/benchmark/credal_comparison"
    ids = ["zaffalon2012.bench-cma-most-determinate", "zaffalon2012_bench_table4[u50, NCC]",
           "zaffalon2012_bench_table12[iris, NCC]", "zaffalon2012_bench_table19[zoo, CDT]",
           "zaffalon2012_bench_table1[x, y]", "yang2017_table3[a, b]"]
    entries = ["claim", "table", "table", "table", "table", "table"]
    chapters = [chapter] * 5 + ["chapters/costs/tables"]
    return pd.DataFrame({"id": ids, "entry": entries, "chapter": chapters, "verdict": "reproduced"})


def test_page_entries_split_the_benchmark_entries_over_the_three_pages():
    rows = ledger_rows()
    summary = bm.page_entries("chapters/benchmark/credal_comparison", rows)
    assert summary["id"].tolist() == ["zaffalon2012.bench-cma-most-determinate", "zaffalon2012_bench_table4[u50, NCC]"]
    per_dataset = bm.page_entries("chapters/benchmark/per_dataset", rows)
    assert per_dataset["id"].tolist() == ["zaffalon2012_bench_table12[iris, NCC]", "zaffalon2012_bench_table19[zoo, CDT]"]
    assert (per_dataset["chapter"] == "chapters/benchmark/per_dataset").all()
    assert bm.page_entries("chapters/benchmark/differences", rows).empty
    with pytest.raises(ValueError, match="page must be one of"):
        bm.page_entries("chapters/costs/tables", rows)


def test_page_entries_feed_the_ledgers_chapter_slice():
    from credalbook.book.ledger import chapter_slice

    page = "chapters/benchmark/per_dataset"
    text = chapter_slice(page, bm.page_entries(page, ledger_rows()))
    assert "2 published numbers" in text
    assert chapter_slice("chapters/benchmark/differences",
                         bm.page_entries("chapters/benchmark/differences", ledger_rows())).startswith("No entry")


# ----------------------------------------------------------------------------------------------
# Figures: faceted, at most the column width
# ----------------------------------------------------------------------------------------------

def test_plot_paper_vs_book_facets_quantities_by_classifiers():
    frame = cells([(name, quantity, 12, 50.0 + i, 52.0 + i if name != "CDT" else 80.0, 2.0, 5.0, "within tolerance", "")
                   for i, (quantity, name) in enumerate((q, n) for q in bm.QUANTITIES for n in bm.CREDAL)])
    figure = bm.plot_paper_vs_book(frame)
    assert figure.get_figwidth() <= COLUMN_WIDTH + 1e-9
    assert len(figure.axes) == 16
    low, high = figure.axes[0].get_xlim()
    assert low < 0 and high > 100  # points at 0 % and 100 % are drawn whole
    assert [ax.get_title() for ax in figure.axes[:4]] == list(bm.CREDAL)


def test_plot_mean_ranks_and_leaf_rules_fit_the_column():
    figure = bm.plot_mean_ranks(bm.mean_ranks_beside_paper(synthetic_means()), critical_difference=0.64)
    assert figure.get_figwidth() <= COLUMN_WIDTH + 1e-9
    assert len(figure.axes) == 6
    leaf = pd.DataFrame({"name": ["a", "b", "c"], "paper": [90.0, 95.0, 99.0],
                         "strict rule": [70.0, 94.0, 98.0], "Weka-IP's rule": [89.0, 96.0, 99.0]})
    figure = bm.plot_cdt_leaf_rules(leaf)
    assert figure.get_figwidth() <= COLUMN_WIDTH + 1e-9
    assert [ax.get_title() for ax in figure.axes] == ["book, strict rule (2 of 3 within)",
                                                      "book, Weka-IP's rule (3 of 3 within)"]


def test_plot_critical_differences_stacks_one_diagram_per_display():
    from credalbook.display import CriticalDifferenceDisplay

    u50 = bm.wide(synthetic_means(), "u50", cfs=False).set_index("name")
    book = CriticalDifferenceDisplay.from_scores(u50, plot=False)
    figure = bm.plot_critical_differences({"paper": bm.paper_critical_difference(), "book": book})
    assert figure.get_figwidth() <= COLUMN_WIDTH + 1e-9
    assert [ax.get_title(loc="left") for ax in figure.axes] == ["paper", "book"]


def test_cdt_leaf_rules_and_variant_shifts():
    means = synthetic_means()
    weka = means[means["classifier"] == "CDT"].assign(classifier="CDT-weka", determinacy=99.0)
    means = pd.concat([means, weka], ignore_index=True)
    # the synthetic datasets are not in the paper: no row survives the join
    assert bm.cdt_leaf_rules(means).empty
    scores = pd.DataFrame([{"dataset": "heart-c", "classifier": "NCC", "variant": v, "determinacy": d,
                            "u50": 50.0, "u65": 55.0, "u80": 60.0}
                           for v, d in (("as in the benchmark", 97.7), ("declared classes kept", 15.2))])
    frame = bm.variants_beside_paper(scores)
    figure = bm.plot_variant_shifts([("declared classes kept", frame, "determinacy")])
    assert figure.get_figwidth() <= COLUMN_WIDTH + 1e-9
    assert [t.get_text() for t in figure.axes[0].get_yticklabels()] == ["NCC, heart-c"]


def test_per_dataset_cells_are_the_ledgers_judged_cells_of_tables_12_to_15():
    cells = bm.per_dataset_cells(False)
    assert set(cells["table"]) == {12, 13, 14, 15}
    assert set(cells["quantity"]) == set(bm.QUANTITIES)
    checked = cells.dropna(subset=["book", "paper"])
    assert len(checked) > 800
    assert (checked["difference"] - (checked["book"] - checked["paper"])).abs().max() < 1e-6
    # connect-4 is not in the mirror: its cells are the ones the book cannot check
    assert set(cells.loc[cells["book"].isna() & cells["paper"].notna(), "name"]) == {"connect-4"}
