"""Tests of the table and figure helpers that Part II's pages use (credalbook.book.experiments.ncc)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from credalbook.book.experiments import ncc as ex  # noqa: E402
from credalbook.style import COLUMN_WIDTH  # noqa: E402


def _per_dataset() -> pd.DataFrame:
    """A small frame shaped as uci_per_dataset's: two datasets, both settings."""
    rows = []
    for fs in (False, True):
        for name, det, da, u65, u80 in (("iris", 0.9, 0.8, 0.85, 0.88), ("glass", 0.4, 0.5, 0.6, 0.7)):
            rows.append({"feature_selection": fs, "dataset": name, "ncc_determinate": det + 0.05 * fs,
                         "ncc_discounted_accuracy": da, "ncc_u65": u65, "ncc_u80": u80, "nbc_accuracy": 0.7,
                         "ndc_determinate": 0.8, "ndc_u65": 0.75, "ndc_u80": 0.8, "ncc_f1": 0.7, "ndc_f1": 0.72})
    return pd.DataFrame(rows)


def test_appendix_comparison_joins_on_datasets_and_converts_percent():
    appendix = {(False, "u65"): pd.DataFrame({"name": ["iris", "glass", "connect-4"], "NCC": [80.0, 61.0, 70.0]}),
                (True, "determinacy"): pd.DataFrame({"name": ["iris", "glass"], "NCC": [95.0, None]})}
    frame = ex.uci_appendix_comparison(_per_dataset(), appendix)
    # connect-4 is not in the book; the blank cell of glass is dropped
    assert len(frame) == 3
    iris = frame[(frame["dataset"] == "iris") & ~frame["feature_selection"]].iloc[0]
    assert iris["paper"] == pytest.approx(0.80)
    assert iris["book"] == pytest.approx(0.85)
    assert iris["difference"] == pytest.approx(0.05)
    det = frame[frame["measure"] == "determinacy"].iloc[0]
    assert det["book"] == pytest.approx(0.95)
    assert det["difference"] == pytest.approx(0.0)


def test_appendix_comparison_rejects_unknown_measures():
    with pytest.raises(ValueError, match="unknown appendix measures"):
        ex.uci_appendix_comparison(_per_dataset(), {(False, "accuracy"): pd.DataFrame({"name": [], "NCC": []})})


def test_appendix_comparison_of_the_stored_rows_has_the_eight_tables():
    frame = ex.uci_appendix_comparison(ex.uci_per_dataset(ex.UCI.stored()))
    assert set(zip(frame["feature_selection"], frame["measure"])) == set(ex.APPENDIX_TABLES)
    assert frame["paper"].between(0, 1).all() and frame["book"].between(0, 1).all()
    assert "connect-4" not in set(frame["dataset"])
    # most cells agree with the paper within five points
    assert (frame["difference"].abs() <= 0.05).mean() > 0.7


def _check_figure(fig, panels: int):
    width, _ = fig.get_size_inches()
    assert width <= COLUMN_WIDTH + 1e-9
    assert len(fig.axes) == panels
    plt.close(fig)


def test_artificial_figure_overlays_the_printed_values():
    summary = pd.DataFrame({"size": [25, 50, 100], "nbc_accuracy": [0.8, 0.85, 0.9],
                            "ncc_discounted_accuracy": [0.7, 0.8, 0.88], "ncc_u65": [0.78, 0.84, 0.9],
                            "area_of_ignorance": [0.2, 0.1, 0.05], "nbc_ncc_i": [0.6, 0.58, 0.55]})
    published = pd.DataFrame({"size": [25, 100], "nbc_ncc_i": [0.55, 0.52], "area_of_ignorance": [0.3, 0.15]})
    fig = ex.artificial_figure(summary, published)
    right = fig.axes[1]
    hollow = [c for c in right.collections if c.get_label() == "paper (2011, §8)"]
    assert len(hollow) == 1
    assert np.allclose(hollow[0].get_offsets()[:, 1], [0.55, 0.52])
    _check_figure(fig, 2)


def test_krkp_and_rejection_figures_fit_the_column():
    summary = pd.DataFrame({"size": [5, 50, 150], "nbc_accuracy": [0.6, 0.85, 0.9],
                            "ncc_discounted_accuracy": [0.5, 0.8, 0.88], "ncc_u65": [0.65, 0.84, 0.9],
                            "determinacy_pct": [1.0, 60.0, 90.0], "nbc_ncc_i_pct": [60.0, 55.0, 50.0]})
    _check_figure(ex.krkp_figure(summary, pd.DataFrame({"size": [5], "determinacy_pct": [2.0],
                                                        "nbc_ncc_i_pct": [61.0]})), 2)
    runs = pd.DataFrame([{"size": size, "repeat": 0, "model": model, "u80": 0.7, "determinacy": 1.0}
                         for size in (10, 1000) for model in ("NBC", "NCC", "NBC_t", "NCC_t")])
    fig = ex.rejection_figure(runs, pd.DataFrame({"model": ["NCC", "NBC_t"], "u80": [0.7, 0.8]}))
    hollow = [c for c in fig.axes[0].collections if c.get_label() == "paper (§9.4)"]
    assert np.allclose(hollow[0].get_offsets(), [[1000, 0.7], [1000, 0.8]])
    _check_figure(fig, 2)


def test_scatter_figures_have_one_panel_per_measure():
    per_dataset = _per_dataset()
    _check_figure(ex.uci_figure(per_dataset), 4)
    _check_figure(ex.ndc_figure(per_dataset), 4)
    appendix = ex.uci_appendix_comparison(per_dataset, {
        (fs, measure): pd.DataFrame({"name": ["iris", "glass"], "NCC": [50.0, 60.0]})
        for fs in (False, True) for measure in ex.APPENDIX_COLUMNS})
    fig = ex.appendix_figure(appendix, tolerance=0.05)
    # outside the band: orange (C1) points; iris u65 (0.85 against 0.5) is one of them
    orange = [c for ax in fig.axes for c in ax.collections if len(c.get_offsets()) and
              np.allclose(c.get_facecolor()[0][:3], matplotlib.colors.to_rgb("C1"))]
    assert sum(len(c.get_offsets()) for c in orange) == int((appendix["difference"].abs() > 0.05).sum())
    _check_figure(fig, 8)
