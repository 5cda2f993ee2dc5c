"""Experiments of Yang et al. (2017), Section VII: discretisation, fold tasks, summaries."""
import numpy as np
import pandas as pd
import pytest

from credalbook.book.experiments import costs as exp


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


# ----------------------------------------------------------------------------------------------
# Table XII: the readings of the printed costs
# ----------------------------------------------------------------------------------------------
def test_readings_fold_keeps_the_books_rows_and_changes_only_what_each_reading_names():
    rows = exp.table12_readings_fold("LEV", 0, 0, n_trees=3)
    assert list(dict.fromkeys(rows["reading"])) == list(exp.TABLE12_SET_READINGS)
    book = rows[rows["reading"] == "book"].drop(columns="reading").reset_index(drop=True)
    pd.testing.assert_frame_equal(book, exp.table12_fold("LEV", 0, 0, n_trees=3))
    by = rows.set_index(["reading", "method"])
    # scoring-only readings score the same sets (NCC and Fo do not depend on r or the variant)
    for reading in ("mistake averse", "discounted costs", "Abellán-Masegosa costs", "truth coded in reverse"):
        for method in ("NCC", "Fo"):
            assert by.loc[(reading, method), "size_sum"] == by.loc[("book", method), "size_sum"]
    # mistake aversion costs at least the cautious cost on the same sets; r = 0 rewards no cautiousness
    for method in ("NCC", "Fo"):
        assert by.loc[("mistake averse", method), "cost_sum"] >= by.loc[("book", method), "cost_sum"] - 1e-9
        assert by.loc[("discounted costs", method), "cost_sum"] >= by.loc[("book", method), "cost_sum"] - 1e-9


def test_first_appearance_costs_permute_the_ranks():
    cost = exp._first_appearance_cost("LEV")            # LEV's classes first appear as 3, 2, 0, 4, 1
    assert cost[3, 2] == 1 and cost[3, 1] == 4 and cost[0, 4] == 1
    np.testing.assert_array_equal(cost, cost.T)
    assert sorted(cost.ravel()) == sorted(exp.ordinal_cost_matrix(5).ravel())


def _reading_rows(costs: dict, n: int = 10) -> pd.DataFrame:
    """Two folds of one run per (reading, dataset, method), each fold holding half of ``n`` instances."""
    rows = []
    for (reading, dataset, method), cost in costs.items():
        for fold in (0, 1):
            rows.append({"dataset": dataset, "repetition": 0, "fold": fold, "reading": reading, "method": method,
                         "cost_sum": cost * n / 2, "size_sum": n // 2, "n_test": n // 2})
    return pd.DataFrame(rows)


PAPER = pd.DataFrame({"dataset": ["ESL"] * 3 + ["LEV"] * 3, "method": ["NCC", "2Tr", "Fo"] * 2,
                      "cost": [2.0, 1.0, 0.6, 3.0, 1.5, 0.9], "rank": [3.0, 2.0, 1.0, 3.0, 2.0, 1.0]})
PRINTED = PAPER.astype(str).assign(cost=["2", "1", "0.6", "3", "1.5", "0.9"])


def test_scale_readings_by_hand():
    book = {("book", d, m): c / 2 for d, m, c in PAPER[["dataset", "method", "cost"]].itertuples(index=False)}
    frames = exp.table12_reading_frames(_reading_rows(book), paper=PAPER).set_index(["reading", "dataset", "method"])
    assert frames.loc[("book", "ESL", "NCC"), "cost"] == pytest.approx(1.0)
    assert frames.loc[("sum per fold", "ESL", "NCC"), "cost"] == pytest.approx(5.0)        # 1.0 × 5 instances
    assert frames.loc[("sum per data set", "ESL", "NCC"), "cost"] == pytest.approx(10.0)   # both folds
    assert frames.loc[("divided by K", "ESL", "NCC"), "cost"] == pytest.approx(1.0 / 9)
    assert frames.loc[("divided by K − 1", "LEV", "NCC"), "cost"] == pytest.approx(1.5 / 4)
    assert frames.loc[("percent", "LEV", "Fo"), "cost"] == pytest.approx(45.0)
    assert frames.loc[("one factor", "LEV", "2Tr"), "cost"] == pytest.approx(1.5)         # the factor is 2
    assert frames.loc[("one factor", "LEV", "2Tr"), "factor"] == "× 2.00"
    agreement = exp.table12_agreement(frames.reset_index(), paper=PAPER, printed=PRINTED, tolerance=0.05)
    row = agreement.set_index("reading")
    assert bool(row.loc["one factor", "reproduces"]) and row.loc["one factor", "within_precision"] == 6
    assert not row.loc["book", "reproduces"] and row.loc["book", "ranks_agreeing"] == 6
    assert row.loc["book", "mean_abs_difference"] == pytest.approx(PAPER["cost"].mean() / 2)
    assert row.loc["percent", "verdict"] == "it does not"


def test_agreement_counts_ranks_orders_and_printed_precision():
    shifted = PAPER.assign(reading="book", factor="", cost=PAPER["cost"] + [0.04, 0, 0, 0, 0.2, 0],
                           rank=[3.0, 2.0, 1.0, 3.0, 1.0, 2.0])
    row = exp.table12_agreement(shifted, paper=PAPER, printed=PRINTED, tolerance=0.05).iloc[0]
    # "2" is printed to ±0.5, so 2.04 is within precision; 1.7 for 1.5 is within neither
    assert row["within_precision"] == 5 and row["within_tolerance"] == 5
    assert row["ranks_agreeing"] == 4 and row["orders_agreeing"] == 1 and not row["reproduces"]


def test_readings_reject_bad_rows():
    with pytest.raises(ValueError, match="lack"):
        exp.table12_reading_frames(pd.DataFrame({"reading": ["book"]}), paper=PAPER)
    rows = _reading_rows({("guess", "LEV", "NCC"): 1.0, ("book", "LEV", "NCC"): 1.0})
    with pytest.raises(ValueError, match="unknown"):
        exp.table12_reading_frames(rows, paper=PAPER)
    partial = PAPER.iloc[:3].assign(reading="book", factor="")
    with pytest.raises(ValueError, match="lacks cells"):
        exp.table12_agreement(partial, paper=PAPER, printed=PRINTED, tolerance=0.05)
    with pytest.raises(ValueError, match="tolerance"):
        exp.table12_agreement(partial, paper=PAPER, printed=PRINTED, tolerance=-1)


def test_the_readings_experiment_is_declared_like_table12():
    assert exp.TABLE12_READINGS.configs("ci") == exp.TABLE12.configs("ci")
    assert len(exp.TABLE12_READINGS.configs("full")) == len(exp.TABLE12.configs("full"))
    assert set(exp.TABLE12_SCALE_READINGS).isdisjoint(exp.TABLE12_SET_READINGS)
