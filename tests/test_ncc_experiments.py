"""Experiments of Part II: determinism (the ci subset equals the full rows), hand-checked summaries, bad input."""
import numpy as np
import pandas as pd
import pytest

from credalbook.book.experiments.ncc import (
    ARTIFICIAL,
    artificial_summary,
    artificial_task,
    krkp_summary,
    krkp_task,
    nbc_vs_ncc_summary,
    rejection_task,
    uci_per_dataset,
    uci_task,
)
from credalbook.book.experiments.protocols import ModelOutput


def test_summary_hand_computed():
    y = np.array([0, 1, 1, 0])
    nbc = ModelOutput(sets=np.eye(2, dtype=bool)[[0, 0, 1, 1]], single=np.array([0, 0, 1, 1]))
    ncc_sets = np.array([[True, False], [True, True], [False, True], [True, True]])
    ncc = ModelOutput(sets=ncc_sets, single=np.array([0, 0, 1, 0]))
    row = nbc_vs_ncc_summary(y, nbc, ncc)
    assert row["nbc_accuracy"] == 0.5
    assert row["ncc_determinacy"] == 0.5
    assert row["ncc_discounted_accuracy"] == pytest.approx((1 + 0.5 + 1 + 0.5) / 4)
    assert row["ncc_u65"] == pytest.approx((1 + 0.65 + 1 + 0.65) / 4)
    assert row["nbc_accuracy_ncc_indeterminate"] == 0.0       # NBC wrong on both indeterminate rows
    assert row["nbc_accuracy_ncc_determinate"] == 1.0


def test_artificial_rows_do_not_depend_on_the_subset():
    small = artificial_task(3, [0, 1], [25], 2000)
    large = artificial_task(3, [0, 1, 2, 3], [25, 50], 2000)
    pd.testing.assert_frame_equal(small, large[(large["size"] == 25) & (large.train_set < 2)].reset_index(drop=True))
    summary = artificial_summary(large)
    assert summary["runs"].tolist() == [4, 4]
    assert (summary["area_of_ignorance"] == 1 - summary["ncc_determinacy"]).all()


def test_krkp_rows_and_summary():
    rows = krkp_task(10, [0, 1])
    assert rows["n_test"].tolist() == [3186, 3186]
    pd.testing.assert_frame_equal(rows.iloc[[1]].reset_index(drop=True), krkp_task(10, [1]))
    summary = krkp_summary(rows.assign(size=10))
    assert summary["determinacy_pct"].iloc[0] == pytest.approx(100 * rows["ncc_determinacy"].mean())


def test_uci_task_columns_and_indeterminate_sums():
    frame = uci_task("glass", 0, False)
    assert len(frame) == 10 and frame["n_test"].sum() == 214
    np.testing.assert_allclose(frame["indeterminate"], (1 - frame["ncc_determinate"]) * frame["n_test"])
    assert (frame["ncc_u65_indet_sum"] <= 0.65 * frame["indeterminate"] + 1e-9).all()
    table = uci_per_dataset(frame.assign(dataset="glass", feature_selection=False, run=0))
    assert table["folds"].tolist() == [10]
    assert table["nbc_accuracy"].iloc[0] == pytest.approx(frame["nbc_accuracy"].mean())


def test_rejection_example_by_simulation():
    rows = rejection_task(10_000, [0], 5000)
    by_model = rows.set_index("model")["u80"]
    assert by_model["NBC_t"] == pytest.approx(0.8) and by_model["NCC_t"] == pytest.approx(0.8)
    assert by_model["NBC"] == pytest.approx(0.7, abs=0.02)


def test_bad_profile():
    with pytest.raises(ValueError, match="profile"):
        ARTIFICIAL.configs("medium")


def _fake_uci(seed=0, datasets=6, folds=20):
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(datasets):
        base = rng.uniform(0.6, 0.9)
        for fold in range(folds):
            ncc = base + (0.05 if d < 3 else -0.05) + rng.normal(0, 0.01)
            rows.append({"dataset": f"d{d}", "feature_selection": False, "run": 0, "fold": fold,
                         "nbc_accuracy": base + rng.normal(0, 0.01), "ncc_discounted_accuracy": ncc - 0.02,
                         "ncc_u65": ncc, "ncc_u80": ncc + 0.01, "ncc_f1": ncc, "ncc_determinate": 0.95,
                         "ndc_u65": base, "ndc_u80": base, "ndc_f1": base if d != 5 else ncc,
                         "indeterminate": 2.0, "ncc_u65_indet_sum": 1.3, "ncc_u80_indet_sum": 1.6,
                         "nbc_u65_indet_sum": 1.0, "nbc_u80_indet_sum": 1.0})
    return pd.DataFrame(rows)


def test_ncc_vs_ndc_counts_paired_t_tests():
    from credalbook.book.experiments.ncc import ncc_vs_ndc

    table = ncc_vs_ndc(_fake_uci()).set_index("utility")
    assert table.loc["u65", ["ncc_wins", "ties", "ndc_wins"]].tolist() == [3, 0, 3]
    assert table.loc["f1", ["ncc_wins", "ties", "ndc_wins"]].tolist() == [3, 1, 2]
    corrected = ncc_vs_ndc(_fake_uci(), test_train_ratio=1 / 9).set_index("utility")
    assert (corrected["ties"] >= table["ties"]).all()


def test_uci_summary_on_known_table():
    from credalbook.book.experiments.ncc import uci_nbc_vs_ncc

    per_dataset = uci_per_dataset(_fake_uci())
    summary = uci_nbc_vs_ncc(per_dataset, False).set_index("quantity")["value"]
    assert summary["datasets"] == 6
    assert summary["ncc_wins_u65"] + summary["nbc_wins_u65"] == 6
    assert summary["datasets_determinacy_above_90pct"] == 6
    # per fold: NCC 1.3 vs NBC 1.0 on 2 indeterminate instances -> gain 0.3 on every dataset
    assert summary["indeterminate_gain_u65_mean"] == pytest.approx(0.3)
    assert summary["indeterminate_gain_u80_mean"] == pytest.approx(0.6)


def test_artificial_task_variants_change_one_thing_and_name_bad_chances():
    from credalbook.book.experiments import ncc as ex
    from credalbook.book.experiments.protocols import draw_naive_model

    base = ex.artificial_task(3, [0], [25], 200)
    chances = draw_naive_model(np.random.default_rng([ex.SEED, 3, 0]), 10, 0.1)
    pd.testing.assert_frame_equal(ex.artificial_task(3, [0], [25], 200, chances=chances), base)
    assert not ex.artificial_task(3, [0], [25], 200, s=2.0).equals(base)
    with pytest.raises(ValueError, match=r"chances must be an \(n_features, 2\) array"):
        ex.artificial_task(3, [0], [25], 200, chances=np.full((10, 3), 0.5))
    with pytest.raises(ValueError, match="chances must be"):
        ex.artificial_task(3, [0], [25], 200, chances=np.full((10, 2), 1.5))
