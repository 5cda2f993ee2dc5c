"""Values of the lenses module that the mutation run (scripts/mutation.py, issue 27) found unchecked: each test
checks a number a surviving mutant changes, from a hand computation, an invariant or an oracle."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
import scipy.stats as sps  # noqa: E402

from credalbook import lenses  # noqa: E402
from credalbook.lenses import bca_interval, fold_lenses, kendall_tau_b, rank_agreement  # noqa: E402


def _long(values: dict) -> pd.DataFrame:
    """Long scores (dataset, classifier, lens, value) from {dataset: {lens: {classifier: value}}}."""
    return pd.DataFrame([{"dataset": dataset, "classifier": c, "lens": lens, "value": v}
                         for dataset, per_lens in values.items() for lens, scores in per_lens.items()
                         for c, v in scores.items()])


def test_kendall_tau_b_works_row_by_row_along_the_last_axis():
    # shapes (..., C): two rankings of four items each; the first axis (2) is not the item axis
    a = np.array([[1.0, 2.0, 3.0, 4.0], [4.0, 1.0, 3.0, 2.0]])
    b = np.array([[1.0, 3.0, 2.0, 4.0], [1.0, 2.0, 3.0, 4.0]])
    tau = kendall_tau_b(a, b)
    assert tau.shape == (2,)
    assert tau == pytest.approx([sps.kendalltau(a[r], b[r]).statistic for r in range(2)])
    assert tau[0] == pytest.approx(2 / 3)  # one discordant pair of six: (5 - 1) / 6


def test_rank_agreement_tau_with_a_tie_in_one_lens_is_tau_b():
    # u80 ties C2 and C3 on every dataset: mean ranks (1, 2, 3) and (1, 2.5, 2.5); the tied pair counts in
    # neither the numerator nor n_b, so tau_b = 2 / sqrt(3 * 2)
    values = {f"d{d}": {"u65": {"C1": 0.9, "C2": 0.8, "C3": 0.7}, "u80": {"C1": 0.9, "C2": 0.8, "C3": 0.8}}
              for d in range(5)}
    row = rank_agreement(_long(values), ["u65", "u80"], ["C1", "C2", "C3"], n_boot=50, seed=0).iloc[0]
    assert row["tau"] == pytest.approx(2 / np.sqrt(6))
    assert row["tau"] == pytest.approx(sps.kendalltau([1, 2, 3], [1, 2.5, 2.5]).statistic)
    assert np.isfinite([row["low"], row["high"], row["boot_mean"]]).all()


def test_bca_interval_without_jackknife_spread_is_the_percentile_interval():
    # one jackknife value: no acceleration (a = 0); estimate at the median of a symmetric boot: z0 = 0,
    # so the BCa interval is the plain percentile interval
    boot = np.linspace(-1.0, 1.0, 101)
    low, high = bca_interval(0.0, boot, [0.0], level=0.9)
    assert (low, high) == pytest.approx(tuple(np.quantile(boot, [0.05, 0.95])))


def test_rank_agreement_keeps_a_pair_with_only_two_or_three_defined_resamples():
    # u65 separates C1 and C2 only on d0, u80 only on d1: tau = 1, and a resample is defined only when it draws
    # both d0 and d1. Some seeds leave 2 or 3 of 10 resamples defined: those are enough for an interval
    rows = []
    for d in range(6):
        for lens, special in (("u65", 0), ("u80", 1)):
            rows += [{"dataset": f"d{d}", "classifier": "C1", "lens": lens, "value": 0.9 if d == special else 0.8},
                     {"dataset": f"d{d}", "classifier": "C2", "lens": lens, "value": 0.8}]
    scores, undefined = pd.DataFrame(rows), []
    for seed in range(40):
        try:
            row = rank_agreement(scores, ["u65", "u80"], ["C1", "C2"], n_boot=10, seed=seed).iloc[0]
        except ValueError as error:
            assert "undefined on almost every bootstrap resample" in str(error)
            continue
        assert row["tau"] == 1.0 and row["low"] == row["high"] == 1.0
        undefined.append(int(row["n_undefined"]))
    assert max(undefined) in (7, 8)  # 10 - 3 or 10 - 2 defined resamples still give a row


def test_fold_lenses_two_class_probabilities_give_the_expected_loss():
    from credalbook.costspace import expected_loss

    y = np.array([0, 1, 1, 0, 1])
    p = np.array([[0.8, 0.2], [0.3, 0.7], [0.6, 0.4], [0.9, 0.1], [0.2, 0.8]])
    out = fold_lenses(y, proba=p)
    assert out["expected_loss"] == pytest.approx(
        expected_loss(y, p[:, 1], "score-driven", lenses.EXPECTED_LOSS_GAMMA))
    assert "expected_loss" not in fold_lenses(np.array([0, 1, 2]), proba=np.full((3, 3), 1 / 3))


def test_utility_agreement_path_marks_u50_u65_u80():
    path = pd.DataFrame({"v": [0.5, 0.65, 0.8, 0.95], "coverage": [-0.2, 0.1, 0.4, 0.7]})
    ax = lenses.plot_utility_agreement_path(path)
    vertical = sorted(line.get_xdata()[0] for line in ax.lines
                      if len(set(np.asarray(line.get_xdata(), dtype=float))) == 1)
    assert vertical == pytest.approx([0.5, 0.65, 0.8])
    marks = {text.get_text(): text.xy[0] for text in ax.texts}
    assert marks == pytest.approx({"u50": 0.5, "u65": 0.65, "u80": 0.8})
    plt.close(ax.figure)


def test_plot_order_flips_puts_labels_outside_the_two_axes():
    values = {f"d{d}": {"u65": {"A": 0.9, "B": 0.8, "C": 0.7}, "u80": {"A": 0.7, "B": 0.8, "C": 0.9}}
              for d in range(4)}
    ax = lenses.plot_order_flips(_long(values), "u65", "u80", ["A", "B", "C"])
    annotations = [child for child in ax.get_children() if isinstance(child, matplotlib.text.Annotation)]
    assert len(annotations) == 6
    for annotation in annotations:  # left labels at x = -0.08 (right-aligned), right ones at 1.08
        x = annotation.xy[0]
        assert annotation.xyann[0] == pytest.approx(-0.08 if x == 0 else 1.08)
        assert annotation.get_ha() == ("right" if x == 0 else "left")
    plt.close(ax.figure)
