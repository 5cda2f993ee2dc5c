"""The figure and table helpers of Part VI's pages (credalbook.book.experiments.thresholds)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from credalbook import costspace as cs  # noqa: E402
from credalbook.display import CostCurveDisplay  # noqa: E402
from credalbook.book.experiments import thresholds as th  # noqa: E402
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


# ------------------------------------------------------------------ both arms: Figs. 5-6 and the correlations

def _arm(shift: float = 0.0):
    """The runs of ``_runs`` with every loss moved by ``shift`` (a second arm of the same study)."""
    runs = _runs()
    return runs.assign(**{m: runs[m] + shift for m in th.METHODS})


def test_fig5_overlays_the_arms_one_line_style_each():
    arms = {"Weka's learners": _arm(), "stand-ins": _arm(0.05)}
    fig = th.plot_loss_by_certainty(arms, ncols=2)
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in panels] == ["J48", "NB"]
    assert fig.get_size_inches()[0] <= COLUMN_WIDTH
    lines = panels[0].get_lines()
    assert len(lines) == 2 * 2  # two methods on each of two arms
    assert [line.get_linestyle() for line in lines] == ["-", "-", "--", "--"]
    # J48's train-optimal line of the second arm is the first arm's moved by 0.05 at every γ
    np.testing.assert_allclose(lines[2].get_ydata(), lines[0].get_ydata() + 0.05)
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["train-optimal", "score-driven",
                                                                  "Weka's learners", "stand-ins"]
    plt.close(fig)
    single = th.plot_loss_by_certainty(_arm(), ncols=2)  # one frame: no arm in the legend
    assert [t.get_text() for t in single.legends[0].get_texts()] == ["train-optimal", "score-driven"]
    plt.close(single)


def test_fig6_gives_each_arm_and_certainty_its_cloud():
    arms = {"Weka's learners": _arm(), "stand-ins": _arm(0.05)}
    fig = th.plot_runs(arms, gammas=(np.inf,), ncols=3)
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in panels] == ["J48", "NB", "Prior"]
    assert len(panels[0].collections) == 2  # one cloud per arm
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["Weka's learners", "stand-ins"]
    offsets = panels[1].collections[1].get_offsets()  # NB, second arm: two splits at γ = ∞
    assert len(offsets) == 2
    plt.close(fig)
    both = th.plot_runs(arms, ncols=3)
    assert len(both.axes[0].collections) == 4
    assert [t.get_text() for t in both.legends[0].get_texts()][1] == "Weka's learners, γ = 0"
    plt.close(both)


@pytest.mark.parametrize("runs, match", [({}, "runs must be"), ([1, 2], "runs must be"),
                                         ({"a": pd.DataFrame({"x": [1]})}, "lacks the columns")])
def test_the_figures_refuse_what_is_not_runs(runs, match):
    with pytest.raises(ValueError, match=match):
        th.plot_runs(runs)
    with pytest.raises(ValueError, match=match):
        th.plot_loss_by_certainty(runs)


def test_the_figures_refuse_more_arms_than_they_can_tell_apart():
    arms = {str(i): _arm(0.01 * i) for i in range(5)}
    with pytest.raises(ValueError, match="at most 4"):
        th.plot_loss_by_certainty(arms)
    with pytest.raises(ValueError, match="at most 8"):
        th.plot_runs(arms)
    with pytest.raises(ValueError, match="method must be one of"):
        th.plot_loss_by_certainty(_arm(), methods=("cheapest",))


def _frame(rows):
    return pd.DataFrame([{"dataset": "d", "split": 1, "gamma": np.inf, **row} for row in rows])


def test_certainty_increase_by_hand():
    rows = [{"model": "A", "split": 1, "gamma": np.inf, "train-optimal": 0.1},
            {"model": "A", "split": 2, "gamma": np.inf, "train-optimal": 0.2},
            {"model": "A", "split": 1, "gamma": 0.0, "train-optimal": 0.4},
            {"model": "A", "split": 2, "gamma": 0.0, "train-optimal": 0.4},
            {"model": "Prior", "split": 1, "gamma": 0.0, "train-optimal": 9.0}]
    frame = pd.DataFrame(rows).assign(dataset="d", **{m: 0.0 for m in th.METHODS if m != "train-optimal"})
    increase = th.certainty_increase(frame)
    assert list(increase.index) == ["A"] and increase["A"] == pytest.approx(0.4 - 0.15)
    with pytest.raises(ValueError, match="γ = ∞ and γ = 0"):
        th.certainty_increase(frame[frame["gamma"] == 0.0])
    with pytest.raises(ValueError, match="method must be one of"):
        th.certainty_increase(frame, "cheapest")


def test_diagonal_shares_by_hand():
    # score-driven − train-optimal = −0.1, 0, 0.1, 0.2: one run below, one on, two above the diagonal
    frame = _frame([{"model": "A", "split": k, "train-optimal": 0.3, "score-driven": 0.3 + gap}
                    for k, gap in enumerate((-0.1, 0.0, 0.1, 0.2), 1)])
    shares = th.diagonal_shares(frame, gammas=(np.inf,))
    assert shares.loc[("A", np.inf)].to_dict() == {"below": 0.25, "on": 0.25, "above": 0.5}
    pooled = th.diagonal_shares(frame, gammas=(np.inf,), by=())
    assert list(pooled.index) == [np.inf] and pooled["above"].iloc[0] == 0.5
    # a wider tolerance moves the two runs 0.1 away onto the diagonal
    assert th.diagonal_shares(frame, gammas=(np.inf,), tol=0.15).loc[("A", np.inf), "on"] == 0.75
    with pytest.raises(ValueError, match="no run at the certainty levels"):
        th.diagonal_shares(frame, gammas=(0.0,))
    with pytest.raises(ValueError, match="tol must be"):
        th.diagonal_shares(frame, tol=-1)


def _correlation_runs():
    """Three non-baseline runs whose rate-driven − train-optimal is 1, 2, 3 and BS 1, 3, 2 (r = 1/2 by hand:
    deviations (−1, 0, 1) and (−1, 1, 0), products summing to 1 over √(2 · 2)), and a Prior run (10, 0)."""
    rows = [{"model": m, "train-optimal": 0.0, "rate-driven": d, "score-driven": 0.5 * d, "BS": b, "CL": b * b}
            for m, d, b in (("A", 1.0, 1.0), ("B", 2.0, 3.0), ("C", 3.0, 2.0), ("Prior", 10.0, 0.0))]
    return _frame(rows)


def test_difference_correlation_by_hand():
    runs = _correlation_runs()
    assert th.difference_correlation(runs, "BS") == pytest.approx(0.5)
    # with Prior: deviations (−3, −2, −1, 6) and (−.5, 1.5, .5, −1.5), products −11, squares 50 and 5
    assert th.difference_correlation(runs, "BS", exclude=()) == pytest.approx(-11 / np.sqrt(250))
    assert th.difference_correlation(runs, "BS", "score-driven") == pytest.approx(0.5)  # a scaled difference
    readings = th.difference_correlations(runs, measures=("BS",))
    assert list(readings["difference"]) == ["rate-driven − train-optimal"] * 2 + ["score-driven − train-optimal"] * 2
    assert list(readings["model types"]) == [3, 4, 3, 4] and list(readings["runs"]) == [3, 4, 3, 4]
    np.testing.assert_allclose(readings["r"], [0.5, -11 / np.sqrt(250), 0.5, -11 / np.sqrt(250)])


def test_difference_correlation_refuses_what_has_no_correlation():
    runs = _correlation_runs()
    with pytest.raises(ValueError, match="at least 3 runs"):
        th.difference_correlation(runs[runs["model"].isin(["A", "B"])], "BS")
    with pytest.raises(ValueError, match="constant"):
        th.difference_correlation(runs.assign(BS=0.2), "BS")
    with pytest.raises(ValueError, match="lacks the columns"):
        th.difference_correlation(runs, "MSE")
    with pytest.raises(ValueError, match="reference must be one of"):
        th.difference_correlation(runs, "BS", reference="oracle")
    with pytest.raises(ValueError, match="finite"):
        th.difference_correlation(runs.assign(BS=[1.0, np.nan, 2.0, 0.0]), "BS")


def test_gap_rank_correlations_by_hand():
    # CL = a(model) + b(dataset), gap = a − b: rank correlation +1 across model types, −1 across datasets
    a, b = {"A": 0.1, "B": 0.2, "C": 0.3}, {"d1": 0.01, "d2": 0.02, "d3": 0.03}
    rows = [{"dataset": d, "split": 1, "model": m, "gamma": np.inf, "AUC": 0.8, "BS": 0.2, "CL": a[m] + b[d], "RL": 0.1,
             "test-optimal": 0.1, "train-optimal": 0.2, "score-driven": 0.2 + a[m] - b[d], "rate-driven": 0.3}
            for m in a for d in b]
    rhos = th.gap_rank_correlations(pd.DataFrame(rows))
    assert rhos.to_dict() == {"model types": pytest.approx(1.0), "datasets": pytest.approx(-1.0)}
    with pytest.raises(ValueError, match="at least 3"):
        th.gap_rank_correlations(pd.DataFrame(rows).assign(CL=0.1))


def test_ranks_by_gamma_gives_each_colour_to_one_pair_of_models_and_a_legible_legend():
    from credalbook.style import layout_problems

    rows = []
    models = ("J48", "J48Unp", "IBK10", "IBK1", "SVMp", "SVM", "Logist", "NB", "PART", "Stump")
    for d, dataset in enumerate(("d1", "d2", "d3")):
        for i, model in enumerate(models):
            for gamma in th.GAMMAS:
                loss = 0.1 + 0.01 * ((i * (d + 1) + (gamma == 0) * 7 * i) % len(models))
                rows.append({"dataset": dataset, "split": 1, "model": model, "gamma": gamma,
                             **dict.fromkeys(th.METHODS, loss)})
    runs = pd.DataFrame(rows)
    fig = th.plot_ranks_by_gamma({"Weka's learners": runs, "stand-ins": runs})
    lines = fig.axes[0].get_lines()
    colours = {}
    for line in lines:
        colours.setdefault(matplotlib.colors.to_hex(line.get_color()), set()).add(line.get_label())
    # ten model types, five colours: each colour is one pair that Ferri et al.'s Fig. 7 compares (or Logist/NB,
    # PART/Stump), the pair told apart by its line style
    assert sorted(sorted(pair) for pair in colours.values()) == sorted(
        sorted(p) for p in (("J48", "J48Unp"), ("IBK1", "IBK10"), ("SVM", "SVMp"), ("Logist", "NB"), ("PART", "Stump")))
    assert all(len({line.get_linestyle() for line in lines if line.get_label() in pair}) == 2 for pair in colours.values())
    legend = fig.legends[0]
    assert [t.get_text() for t in legend.get_texts()][:2] == ["J48", "J48Unp"] and len(legend.get_texts()) == 10
    assert min(t.get_fontsize() for t in legend.get_texts()) >= 9
    assert layout_problems(fig) == []
    assert fig.get_size_inches()[0] <= COLUMN_WIDTH
    plt.close(fig)
