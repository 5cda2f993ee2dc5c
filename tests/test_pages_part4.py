"""Tests of the helpers that Part IV's pages use (credalbook.book.theory.costs, credalbook.book.experiments.costs):
the ledger's slices per page, the property grid, Table VIII, and the figures (Fig. 2, Fig. 3, Table XII)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from credalbook import costs  # noqa: E402
from credalbook.book.experiments import costs as experiment  # noqa: E402
from credalbook.style import COLUMN_WIDTH  # noqa: E402
from credalbook.book.theory import costs as theory  # noqa: E402

TABLE_I = np.array(theory.TABLE_I.tolist(), dtype=float)


def _pages_of(entry_id: str) -> list[str]:
    return [page for page, prefixes in theory.LEDGER_PAGES.items() if theory._shown_on(entry_id, prefixes)]


# ----------------------------------------------------------------------------------------------
# the ledger's entries, one page each
# ----------------------------------------------------------------------------------------------

def test_every_entry_of_yang2017_is_shown_on_exactly_one_page():
    from credalbook.book.ledger import core

    core.discover()
    ids = [claim.id for claim in core.claims() if claim.paper == "yang2017"]
    names = {item.name for (name, reading), item in core.TABLES.items()
             if reading == core.BOOK_READING and item.part == "IV"}
    ids += [f"{name}[some cell]" for name in names]
    assert len(ids) > 60 and "yang2017_table12" in names
    shown = {entry: _pages_of(entry) for entry in ids}
    assert {entry: pages for entry, pages in shown.items() if len(pages) != 1} == {}
    # every page shows something, and the pages are those of the toc's Part IV
    assert set(theory.LEDGER_PAGES) == {page for pages in shown.values() for page in pages}


def test_a_table_name_matches_its_cells_only():
    assert _pages_of("yang2017_table1[h,b]") == ["chapters/costs/tables"]
    # "yang2017_table1" must not catch the cells of Tables X and XII
    assert _pages_of("yang2017_table10[h]") == ["chapters/costs/p_discounted"]
    assert _pages_of("yang2017_table12[ESL,NCC]") == ["chapters/costs/table12"]
    assert _pages_of("yang2017.some-unknown-claim") == []


def _ledger_rows() -> pd.DataFrame:
    common = {"paper": "yang2017", "part": "IV", "section": "§II", "kind": "number", "published": "1",
              "book": "1", "difference": "", "tolerance": "", "evidence": "", "detail": "", "also": "",
              "note": "", "chapter": "chapters/costs/tables"}
    return pd.DataFrame([
        {**common, "id": "yang2017.complexity", "statement": "quadratic in K", "verdict": "reproduced",
         "entry": "claim"},
        {**common, "id": "yang2017.fig3-r0-increasing", "statement": "the r = 0 curve rises",
         "verdict": "not reproduced", "entry": "claim"},
        {**common, "id": "yang2017_table1[h,h]", "statement": "cell", "verdict": "agrees", "entry": "table",
         "kind": "table"},
        {**common, "id": "yang2017_table11[ERA]", "statement": "cell", "verdict": "agrees", "entry": "table",
         "kind": "table"},
    ])


def test_ledger_slice_shows_only_the_pages_entries():
    text = theory.ledger_slice("chapters/costs/tables", table=_ledger_rows())
    assert "quadratic in K" in text
    assert "the r = 0 curve rises" not in text      # a claim of the experiments page
    assert "1 claims" in text or "1 claim" in text


def test_ledger_slice_rejects_an_unknown_page():
    with pytest.raises(ValueError, match="page must be one of"):
        theory.ledger_slice("chapters/costs/nowhere", table=_ledger_rows())


# ----------------------------------------------------------------------------------------------
# properties of the proposals, Table VIII
# ----------------------------------------------------------------------------------------------

def test_property_grid_of_discounted_and_p_discounted_costs():
    grid = theory.property_grid({
        "discounted": costs.extended_cost_matrix(TABLE_I, "discounted"),
        "p-discounted": costs.p_discounted_cost_matrix(TABLE_I, 0.5),
    }).set_index("proposal")
    assert list(grid.columns) == [str(n) for n in range(1, 11)] + ["filtering", "choice"]
    # Proposition 1: under the discounted costs no set is possible, and no set is cheaper than its average
    assert grid.loc["discounted", "1"] == "\u2717" and grid.loc["discounted", "3"] == "\u2717"
    # the p-discounted costs reward rightful cautiousness and stay between their members' costs
    assert grid.loc["p-discounted", "1"] == "\u2713" and grid.loc["p-discounted", "3"] == "\u2713"
    assert grid.loc["p-discounted", "4"] == "\u2713" and grid.loc["p-discounted", "10"] == "\u2713"
    assert grid.loc["discounted", "filtering"] == "" and grid.loc["discounted", "choice"] == ""


def test_table_viii_frame_has_ten_properties_with_known_marks():
    frame = theory.table_viii_frame()
    assert list(frame["property"]) == list(range(1, 11))
    assert set(frame["filtering"]) <= {"N", "D", "A", "U"} and set(frame["choice"]) <= {"N", "D", "A", "U"}
    # Property 1 (some set is possible) is necessary in both settings
    first = frame.set_index("property").loc[1]
    assert first["filtering"] == "N" and first["choice"] == "N"


# ----------------------------------------------------------------------------------------------
# figures
# ----------------------------------------------------------------------------------------------

def _column_wide(figure) -> None:
    width, _ = figure.get_size_inches()
    assert width <= COLUMN_WIDTH + 1e-9


def test_fig2_marks_the_exact_boundaries_of_each_table():
    figure = theory.plot_decision_regions({"Table VI": theory.TABLE_VI, "Table VII": theory.TABLE_VII})
    try:
        _column_wide(figure)
        assert [ax.get_title() for ax in figure.axes] == ["Table VI", "Table VII"]
        texts = [text.get_text() for text in figure.axes[1].texts]
        assert texts == [f"q = {b}" for b in theory.decision_boundaries(theory.TABLE_VII)]
    finally:
        plt.close(figure)


def _fig3_rows() -> pd.DataFrame:
    rows = []
    for dataset in ("ERA", "LEV"):
        for variant in costs.VARIANTS:
            for r in (0.0, 0.5):
                for s, cost in ((0.01, 2.0), (1.0, 1.0 + r), (10.0, 3.0)):
                    for repetition in (0, 1):
                        rows.append({"dataset": dataset, "repetition": repetition, "fold": 0, "s": s, "r": r,
                                     "variant": variant, "cost_sum": 10 * cost, "size_sum": 12, "n_test": 10})
    return pd.DataFrame(rows)


def test_fig3_has_a_panel_per_dataset_and_variant_and_marks_the_least_cost():
    figure = experiment.plot_fig3(_fig3_rows(), r_values=(0.0, 0.5), paper_r=(0.5,))
    try:
        _column_wide(figure)
        assert len(figure.axes) == 4
        assert [ax.get_title() for ax in figure.axes[:2]] == ["ERA", "LEV"]
        ax = figure.axes[0]
        solid = [line for line in ax.lines if line.get_linestyle() == "-"]
        dots = [line for line in ax.lines if line.get_marker() == "o"]
        # one solid curve (r = 0.5) and its least cost at s = 1, cost 1.5
        assert len(solid) == 1 and len(dots) == 1
        assert dots[0].get_xdata()[0] == 1.0 and dots[0].get_ydata()[0] == pytest.approx(1.5)
    finally:
        plt.close(figure)


def test_fig3_refuses_rows_of_no_known_dataset():
    rows = _fig3_rows().assign(dataset="SWD")
    with pytest.raises(ValueError, match="no row of a known dataset"):
        experiment.plot_fig3(rows)


def _cells(book_shift: float) -> pd.DataFrame:
    rows = []
    for dataset in ("ERA", "ESL"):
        for paper, method in ((3.0, "NCC"), (2.0, "2Tr"), (1.5, "Fo")):
            rows.append({"dataset": dataset, "method": method, "measure": "cost", "paper": paper,
                         "book": paper - book_shift})
            rows.append({"dataset": dataset, "method": method, "measure": "rank", "paper": 1, "book": 1})
    return pd.DataFrame(rows)


def test_table12_figure_draws_paper_and_book_costs():
    figure = experiment.plot_table12({"first": _cells(1.0), "second": _cells(0.5)}, bounds={"ERA": 4.0})
    try:
        _column_wide(figure)
        assert [ax.get_title() for ax in figure.axes] == ["ERA", "ESL"]
        ax = figure.axes[0]
        crosses = [line for line in ax.lines if line.get_marker() == "x"]
        assert len(crosses) == 1 and list(crosses[0].get_xdata()) == [3.0, 2.0, 1.5]
        circles = [line for line in ax.lines if line.get_marker() == "o"]
        assert sorted(float(c.get_xdata()[0]) for c in circles) == [0.5, 1.0, 1.0, 1.5, 2.0, 2.5]
        # the bound only on the panel that has one
        assert any(line.get_linestyle() == "--" for line in ax.lines)
        assert not any(line.get_linestyle() == "--" for line in figure.axes[1].lines)
    finally:
        plt.close(figure)


def test_table12_figure_needs_cost_cells():
    with pytest.raises(ValueError, match="at least one reading"):
        experiment.plot_table12({})
    with pytest.raises(ValueError, match="no cost cell"):
        experiment.plot_table12({"only ranks": _cells(0.0).query("measure == 'rank'")})
