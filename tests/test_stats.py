import numpy as np
import pandas as pd
import pytest
import matplotlib

matplotlib.use("Agg")

from credalbook import stats
from credalbook.display import CriticalDifferenceDisplay
from credalbook.book.plots import equal_performance_scatter


def test_wins_ties_losses():
    assert stats.wins_ties_losses([1, 2, 3, 4], [0, 2, 5, 4.05], tol=0.1) == (1, 2, 1)


def test_wilcoxon_exact_small_case():
    # five positive differences: W- = 0; exact two-sided p = 2 / 2^5
    result = stats.wilcoxon_signed_rank([2, 3, 4, 5, 6], [1, 1, 1, 1, 1])
    assert result.statistic == 0
    assert result.pvalue == pytest.approx(2 / 32)
    assert not result.significant
    assert stats.wilcoxon_signed_rank([1, 2], [1, 2]).pvalue == 1.0


def test_paired_t_test_hand_computed():
    a, b = np.array([0.8, 0.9, 0.7, 0.85]), np.array([0.75, 0.8, 0.72, 0.8])
    d = a - b
    t = d.mean() / (d.std(ddof=1) / 2)
    result = stats.paired_t_test(a, b)
    assert result.statistic == pytest.approx(t)
    corrected = stats.paired_t_test(a, b, test_train_ratio=1 / 9)
    assert corrected.statistic == pytest.approx(d.mean() / np.sqrt(d.var(ddof=1) * (1 / 4 + 1 / 9)))
    assert abs(corrected.statistic) < abs(result.statistic)


def test_mean_ranks_with_ties():
    scores = pd.DataFrame({"A": [0.9, 0.8, 0.7], "B": [0.9, 0.6, 0.8], "C": [0.1, 0.1, 0.1]})
    ranks = stats.mean_ranks(scores)
    assert ranks["A"] == pytest.approx((1.5 + 1 + 2) / 3)
    assert ranks["B"] == pytest.approx((1.5 + 2 + 1) / 3)
    assert ranks["C"] == 3


def test_friedman_statistic_hand_computed():
    scores = pd.DataFrame({"A": [3, 3, 3, 3.0], "B": [2, 2, 2, 1.0], "C": [1, 1, 1, 2.0]})
    n, k = 4, 3
    r = stats.mean_ranks(scores).to_numpy()
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(r**2) - k * (k + 1) ** 2 / 4)
    assert stats.friedman_test(scores).statistic == pytest.approx(chi2)


def test_nemenyi_critical_difference_of_demsar():
    # Demšar (2006), Section 3.2.2: k = 4 classifiers, N = 14 data sets, CD = 1.25 at alpha = 0.05
    assert stats.nemenyi_critical_difference(4, 14) == pytest.approx(1.25, abs=0.005)
    # and the tabulated q_0.05 for k = 5: 2.728
    cd = stats.nemenyi_critical_difference(5, 10)
    assert cd / np.sqrt(5 * 6 / 60) == pytest.approx(2.728, abs=1e-3)


def test_nemenyi_pairs_and_diagram():
    rng = np.random.default_rng(0)
    scores = pd.DataFrame({"good": rng.uniform(0.8, 0.9, 30), "mid": rng.uniform(0.7, 0.95, 30),
                           "bad": rng.uniform(0.5, 0.6, 30)})
    pairs = stats.nemenyi_pairs(scores)
    row = pairs[(pairs["first"] == "good") & (pairs["second"] == "bad")].iloc[0]
    assert row["significant"] and row["better"] == "good"
    display = CriticalDifferenceDisplay.from_scores(scores)
    assert display.critical_difference == pytest.approx(row["critical_difference"]) and display.ax_.texts
    equal_performance_scatter([0.1, 0.2], [0.2, 0.1], labels=["a", "b"])


class TestBadInput:
    def test_lengths(self):
        with pytest.raises(ValueError, match="inconsistent"):
            stats.wilcoxon_signed_rank([1, 2, 3], [1, 2])
        with pytest.raises(ValueError, match="at least two"):
            stats.paired_t_test([1], [2])

    def test_alpha_and_shapes(self):
        with pytest.raises(ValueError, match="alpha"):
            stats.wilcoxon_signed_rank([1, 2], [2, 3], alpha=1.5)
        with pytest.raises(ValueError, match="three classifiers"):
            stats.friedman_test(pd.DataFrame({"a": [1, 2], "b": [2, 1]}))
        with pytest.raises(ValueError, match="missing"):
            stats.mean_ranks(pd.DataFrame({"a": [1, np.nan], "b": [2, 1]}))
        with pytest.raises(ValueError, match="NaN"):
            stats.wins_ties_losses([np.nan], [1])
        with pytest.raises(ValueError, match="n_classifiers"):
            stats.nemenyi_critical_difference(1, 10)
