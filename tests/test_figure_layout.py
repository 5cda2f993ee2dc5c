"""Figures a reader can read (issue 25, issue 28 item 6): measured with the Agg renderer, not by
pixels. :func:`credalbook.style.layout_problems` finds texts below 9 pt, overlapping texts, and
lines (curves, connectors, grid lines) through a text placed on the axes; the Display classes
draw none of these with 3, 10 or 26 classes."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from credalbook import style  # noqa: E402
from credalbook.display import (CriticalDifferenceDisplay, ProbabilisticConfusionMatrixDisplay,  # noqa: E402
                                SetSizeDisplay)

NAMES = ["NCC", "LNCC", "CMA", "credal tree", "naive Bayes", "NDC forest", "conformal LAC", "conformal APS"]


@pytest.fixture(autouse=True)
def book_style():
    style.use()
    yield
    plt.close("all")


def _sets(k: int, n: int = 600, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    sets = rng.random((n, k)) < 2 / k
    sets[np.arange(n), y] |= rng.random(n) < 0.8
    sets[sets.sum(axis=1) == 0, 0] = True
    return y, sets


# ---------------------------------------------------------------- the measure finds what it should

def test_a_heat_map_with_grid_lines_through_its_numbers_is_a_problem():
    figure, ax = plt.subplots()
    ax.imshow(np.eye(3))
    for i in range(3):
        ax.text(1, i, "0.50", ha="center", va="center")
    assert any("line crosses '0.50'" in p for p in style.layout_problems(figure))
    ax.grid(False)
    assert style.layout_problems(figure) == []


def test_a_small_legend_and_overlapping_labels_are_problems():
    figure, ax = plt.subplots(figsize=(3, 2))
    ax.plot([0, 1], [0, 1], label="a curve")
    ax.legend(fontsize=6)
    ax.text(0.1, 0.8, "first label")
    ax.text(0.15, 0.8, "second label")
    problems = style.layout_problems(figure)
    assert any("6 pt" in p for p in problems)
    assert any("'first label' overlaps 'second label'" in p for p in problems)


def test_the_old_critical_difference_layout_is_a_problem():
    """The names used to be anchored on their inner side, so each connector ran through its name."""
    figure, ax = plt.subplots(figsize=(style.COLUMN_WIDTH, 2))
    ax.set_xlim(5, 0)
    ax.plot([2, 2, -0.3], [0, -1, -1], color="black")
    ax.text(-0.3, -1, "NCC (2.00)", ha="right", va="center")
    ax.set_ylim(-2, 1)
    ax.axis("off")
    assert any("line crosses 'NCC (2.00)'" in p for p in style.layout_problems(figure))


# ---------------------------------------------------------------- the Display classes draw none

@pytest.mark.parametrize("k", [3, 10, 26])
def test_set_size_display_labels_do_not_collide(k):
    y, sets = _sets(k)
    display = SetSizeDisplay.from_predictions(y, sets)
    assert style.layout_problems(display.figure_) == []
    shares = [t for t in display.ax_.texts if t.get_text().strip().endswith("%")]
    assert len(shares) == int(np.sum(~np.isnan(display.hit_rate)))


@pytest.mark.parametrize("k", [3, 10, 26])
def test_probabilistic_confusion_matrix_display_is_legible(k):
    rng = np.random.default_rng(1)
    display = ProbabilisticConfusionMatrixDisplay.from_predictions(rng.integers(0, k, 300),
                                                                   rng.dirichlet(np.ones(k), 300))
    assert style.layout_problems(display.figure_) == []
    left, right = display.ax_
    assert left.get_ylabel() == "true" and right.get_ylabel() == ""
    assert not [t for t in right.get_yticklabels() if t.get_text()]


@pytest.mark.parametrize("n", [3, 8])
def test_critical_difference_connectors_stay_clear_of_the_names(n):
    rng = np.random.default_rng(2)
    display = CriticalDifferenceDisplay.from_scores(pd.DataFrame(rng.random((20, n)), columns=NAMES[:n]))
    assert style.layout_problems(display.figure_) == []
    renderer = display.figure_.canvas.get_renderer()
    axes_box = display.ax_.get_window_extent(renderer)
    for text in display.ax_.texts:  # every name inside the axes, so inside the saved figure
        box = text.get_window_extent(renderer)
        assert axes_box.x0 - 1 <= box.x0 and box.x1 <= axes_box.x1 + 1, text.get_text()


def test_a_heat_map_of_fifteen_long_labels_reads():
    """The Kendall-τ heat map of Part VII's fifteen lenses: no grid line over a value, no label over another,
    nothing below 9 pt, and the values still written (with fewer decimals if the cells are narrow)."""
    from credalbook.book.plots import annotated_heat_map

    labels = ["discounted accuracy", "u65", "u80", "F₁ of the set", "determinacy", "mean set size", "coverage",
              "size-stratified coverage", "p-discounted 0/1 cost (= 1 − u75)", "p-discounted ordinal cost",
              "certainty ratio", "IMCP", "Brier score", "log loss", "expected loss (γ = 4)"]
    rng = np.random.default_rng(3)
    tau = rng.uniform(-1, 1, (15, 15))
    tau = (tau + tau.T) / 2
    np.fill_diagonal(tau, 1.0)
    ax = annotated_heat_map(tau, labels, colorbar_label="Kendall τ", lower_triangle=True)
    assert style.layout_problems(ax.figure) == []
    written = [t for t in ax.texts if t.get_visible()]
    assert len(written) == 15 * 16 // 2                      # the lower triangle and the diagonal
    assert ax.figure.get_size_inches()[0] <= style.COLUMN_WIDTH + 1e-9


def test_heat_map_values_read_as_a_correlation_table():
    from credalbook.book.plots import annotated_heat_map

    ax = annotated_heat_map(np.array([[1.0, -0.456], [0.004, 0.5]]), ["a", "b"])
    assert [t.get_text() for t in ax.texts] == ["1", "\u2212.46", "0", ".50"]
    with pytest.raises(ValueError, match="fontsize"):
        annotated_heat_map(np.eye(2), ["a", "b"], fontsize=7)
