"""The figure and table helpers of Part VI's pages (credalbook.experiments.thresholds)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from credalbook import costspace as cs  # noqa: E402
from credalbook.display import CostCurveDisplay  # noqa: E402
from credalbook.experiments import thresholds as th  # noqa: E402
from credalbook.style import COLUMN_WIDTH  # noqa: E402


@pytest.fixture(scope="module")
def sample():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 80)
    s = np.clip(0.35 * y + rng.uniform(0, 0.65, 80), 0, 1).round(2)
    y_train = rng.integers(0, 2, 80)
    s_train = np.clip(0.35 * y_train + rng.uniform(0, 0.65, 80), 0, 1).round(2)
    return y_train, s_train, y, s


def _runs():
    rows = []
    rng = np.random.default_rng(0)
    for model in ("NB", "J48", "Prior"):
        for split in (1, 2):
            for gamma in th.GAMMAS:
                base = {"NB": 0.2, "J48": 0.3, "Prior": 0.5}[model]
                rows.append({"dataset": "d", "split": split, "model": model, "gamma": gamma,
                             **{m: base + 0.01 * i + (0.1 if gamma == 0 else 0.0) + rng.uniform(0, 0.01)
                                for i, m in enumerate(th.METHODS)}})
    return pd.DataFrame(rows)


def test_gamma_label():
    assert th.gamma_label(np.inf) == "∞"
    assert th.gamma_label(16.0) == "16"
    assert th.gamma_label(0.0) == "0"


def test_theorem_checks_agree_to_rounding(sample):
    _, _, y, s = sample
    frame = th.theorem_checks(y, s)
    assert len(frame) == 8
    assert frame["difference"].abs().max() < 1e-12
    assert frame.loc[0, "closed form"] == pytest.approx(cs.brier_score(y, s))
    assert frame.loc[1, "closed form"] == pytest.approx(cs.mean_absolute_error(y, s))


def test_certainty_worse_matches_the_curves(sample):
    y_train, s_train, y, s = sample
    frame = th.certainty_worse(y_train, s_train, y, s, n_grid=201)
    assert list(frame["method"]) == list(th.METHODS)
    grid = np.linspace(0, 1, 201)
    sel = cs.threshold_selection(y, s, "score-driven")
    above = sel.curve(np.inf, grid) > sel.curve(0.0, grid) + 1e-12
    row = frame.set_index("method").loc["score-driven"]
    assert row["share of c"] == pytest.approx(above.mean())
    # test-optimal never does worse under certainty (it is the lower envelope)
    assert frame.set_index("method").loc["test-optimal", "share of c"] == 0
    assert np.isnan(frame.set_index("method").loc["test-optimal", "from c"])


def test_losses_frame_and_panels(sample):
    y_train, s_train, y, s = sample
    panels = {name: CostCurveDisplay.from_predictions(y, s, y_train=y_train, y_train_score=s_train, plot=False,
                                                      n_grid=101) for name in ("a", "b", "c")}
    frame = th.losses_frame(panels)
    assert list(frame["model"]) == ["a", "b", "c"]
    assert frame.loc[0, "score-driven γ=∞"] == pytest.approx(cs.brier_score(y, s))
    assert frame.loc[0, "score-driven γ=0"] == pytest.approx(cs.mean_absolute_error(y, s))
    fig = th.cost_curve_panels(panels, ncols=2)
    assert fig.get_size_inches()[0] <= COLUMN_WIDTH
    assert sum(ax.get_visible() for ax in fig.axes) == 3
    assert len(fig.legends[0].get_texts()) == len(th.METHODS) + 2
    plt.close(fig)
    with pytest.raises(ValueError, match="panels"):
        th.cost_curve_panels({})


def test_protocol_errors(sample):
    frame = th.protocol_errors(*sample, repeats=3)
    assert len(frame) == len(th.METHODS) * 3
    certain = frame[frame["gamma"] == np.inf]
    assert (certain["one draw sd"] == 0).all()
    assert np.allclose(certain["one draw − exact"], certain["grid mean − exact"])
    assert frame["grid mean − exact"].abs().max() < 1e-3


def test_fig5_and_fig6_are_faceted_by_model():
    runs = _runs()
    fig5 = th.plot_loss_by_certainty(runs, ncols=2)
    assert [ax.get_title() for ax in fig5.axes if ax.get_visible()] == ["J48", "NB"]  # baselines excluded
    assert fig5.get_size_inches()[0] <= COLUMN_WIDTH
    plt.close(fig5)
    fig6 = th.plot_runs(runs, ncols=2)
    assert [ax.get_title() for ax in fig6.axes if ax.get_visible()] == ["J48", "NB", "Prior"]
    assert len(fig6.axes[0].collections) == 2  # one scatter per certainty level
    plt.close(fig6)
    with pytest.raises(ValueError):
        th.plot_runs(runs.iloc[:0])


def test_paper_vs_book_has_a_panel_per_measure():
    cells = pd.DataFrame({"measure": ["AUC", "AUC", "BS", "BS", "BS"], "paper": [0.8, 0.9, 0.1, 0.2, 0.3],
                          "book": [0.81, 0.88, 0.1, 0.25, np.nan],
                          "verdict": ["reproduced", "within tolerance", "reproduced", "not reproduced", "not checkable"]})
    fig = th.plot_paper_vs_book(cells, ncols=3)
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in visible] == ["AUC", "BS"]
    assert len(visible[1].collections[0].get_offsets()) == 2  # the cell without a book value is left out
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["reproduced", "within tolerance", "not reproduced",
                                                                  "not checkable"]
    plt.close(fig)
    with pytest.raises(ValueError, match="columns"):
        th.plot_paper_vs_book(cells.drop(columns="verdict"))
