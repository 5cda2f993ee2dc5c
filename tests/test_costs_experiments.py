"""Experiments of Yang et al. (2017), Section VII: discretisation, fold tasks, summaries."""
import numpy as np
import pandas as pd
import pytest

from credalbook.experiments import costs as exp


def test_equal_frequency_codes_by_hand():
    train = np.arange(1, 11, dtype=float)[:, None]          # quantiles 2.8, 4.6, 6.4, 8.2
    codes_train, codes_test = exp.equal_frequency_codes(train, np.array([[0.0], [2.8], [5.0], [100.0]]))
    assert codes_train[:, 0].tolist() == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert codes_test[:, 0].tolist() == [0, 0, 2, 4]
    ties = np.array([1, 1, 1, 1, 1, 1, 2, 3, 4, 5], dtype=float)[:, None]
    assert exp.equal_frequency_codes(ties, ties)[0].max() < 4     # ties merge bins


def test_profiles_and_grid():
    assert exp.S_GRID[0] == 0.001 and exp.S_GRID[-1] == 10.0 and 1.0 in exp.S_GRID
    assert len(exp.FIG3.configs("full")) == 3 * 10 * 10
    assert [(c["dataset"], c["repetition"], c["fold"]) for c in exp.FIG3.configs("ci")] == [("LEV", 0, 0), ("LEV", 0, 1)]
    assert all(c["ordered"] for c in exp.TABLE12_ORDERED.configs("ci"))
    assert "ordered" not in exp.TABLE12.configs("ci")[0]
    with pytest.raises(ValueError, match="profile"):
        exp.FIG3.configs("huge")


def test_ncc_fold_rows_and_limits():
    rows = exp.ncc_fold("LEV", 0, 0, (0.001, 10.0))
    assert set(rows.columns) >= {"s", "r", "variant", "cost_sum", "size_sum", "n_test"}
    assert (rows["n_test"] == 100).all()
    cautious = rows[rows["variant"] == "cautious"].set_index(["s", "r"])["cost_sum"]
    # r = 1: a set containing the truth costs 0 (geometric mean with a zero), so more imprecision never hurts here
    assert cautious[(10.0, 1.0)] <= cautious[(0.001, 1.0)]
    # r = 0: discounted costs, no reward for imprecision
    assert cautious[(10.0, 0.0)] >= cautious[(0.001, 0.0)]
    # mistake averse costs at least the cautious ones
    averse = rows[rows["variant"] == "mistake_averse"].set_index(["s", "r"])["cost_sum"]
    assert (averse >= cautious - 1e-9).all()


def test_table12_fold_and_summaries():
    rows = exp.table12_fold("LEV", 0, 0, n_trees=3)
    assert rows["method"].tolist() == ["NCC", "2Tr", "Fo"]
    rows.insert(0, "dataset", "LEV")
    rows.insert(1, "repetition", 0)
    summary = exp.table12_summary(rows)
    assert sorted(summary["rank"]) == [1.0, 2.0, 3.0] or summary["rank"].sum() == 6.0
    np.testing.assert_allclose(summary["cost"], rows["cost_sum"] / rows["n_test"])
    with pytest.raises(ValueError, match="lacks"):
        exp.summarise(pd.DataFrame({"a": [1]}), ["a"])
    with pytest.raises(ValueError, match="columns"):
        exp.equal_frequency_codes(np.zeros((3, 2)), np.zeros((3, 1)))
