"""Part VII's lenses: fold values against direct computations, pooling, Kendall's τ against scipy, flips."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from credalbook import lenses
from credalbook.lenses import (LENSES, dataset_scores, fold_lenses, friedman_by_lens, kendall_tau_b, lens_ranks,
                               order_flips, rank_agreement, score_table)


def test_fold_lenses_on_a_worked_example():
    # truth 0, 1, 2, 1; sets {0}, {0, 1}, {2}, {0, 2}: discounted accuracy 1, 1/2, 1, 0
    y = np.array([0, 1, 2, 1])
    sets = np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1], [1, 0, 1]], dtype=bool)
    out = fold_lenses(y, sets)
    assert out["n"] == 4
    assert out["discounted_accuracy"] == pytest.approx(2.5)
    assert out["u65"] == pytest.approx(1 + 0.65 + 1)  # u65(1/2) = 0.65
    assert out["u80"] == pytest.approx(1 + 0.80 + 1)
    assert out["f1"] == pytest.approx(1 + 2 / 3 + 1)  # F1 of a two-class set holding the truth: 2/3
    assert out["determinacy"] == 2 and out["set_size"] == 6 and out["coverage"] == 3
    # p-discounted 0/1 cost (Yang et al. 2017): a singleton hit costs 0, a miss 1
    assert out["p_discounted_cost"] > 1.0
    assert (out["n_size1"], out["covered_size1"], out["n_size2"], out["covered_size2"]) == (2, 2, 2, 1)
    assert (out["n_size3"], out["covered_size3"]) == (0, 0)
    assert "brier" not in out


def test_fold_lenses_reads_probabilities_and_binary_expected_loss():
    from credalbook.certainty import brier_score, imcp_score
    from credalbook.costspace import expected_loss

    rng = np.random.default_rng(0)
    p1 = rng.uniform(size=40)
    proba = np.column_stack([1 - p1, p1])
    y = (rng.uniform(size=40) < p1).astype(int)
    out = fold_lenses(y, proba=proba)
    assert out["brier"] == pytest.approx(40 * brier_score(y, proba))
    assert out["imcp"] == pytest.approx(imcp_score(y, proba))
    assert out["expected_loss"] == pytest.approx(expected_loss(y, p1, "score-driven", lenses.EXPECTED_LOSS_GAMMA))
    three = np.column_stack([proba * 0.5, np.full(40, 0.5)])
    assert "expected_loss" not in fold_lenses(y, proba=three)


def _rows():
    """Two datasets, two folds, two classifiers; A is always right, B right on half."""
    rows = []
    for dataset in ("d1", "d2"):
        for fold in (0, 1):
            y = np.array([0, 1, 0, 1] * 3)
            right = np.eye(2, dtype=bool)[y]
            half = right.copy()
            half[::2] = True  # two-class sets on every other instance
            for name, sets in (("A", right), ("B", half)):
                rows.append({"dataset": dataset, "fold": fold, "classifier": name, **fold_lenses(y, sets)})
    return pd.DataFrame(rows)


def test_dataset_scores_pool_sums_and_bins():
    scores = dataset_scores(_rows())
    value = scores.set_index(["dataset", "classifier", "lens"])["value"]
    assert value[("d1", "A", "discounted_accuracy")] == pytest.approx(1.0)
    assert value[("d1", "B", "discounted_accuracy")] == pytest.approx(0.75)
    assert value[("d1", "B", "set_size")] == pytest.approx(1.5)
    assert value[("d1", "B", "size_stratified_coverage")] == pytest.approx(1.0)
    assert not scores["value"].isna().any()
    assert "brier" not in set(scores["lens"])  # no probabilities given: no row, not NaN


def test_size_stratified_coverage_is_the_worst_bin_with_enough_instances():
    y = np.zeros(30, dtype=int)
    sets = np.zeros((30, 3), dtype=bool)
    sets[:20, 0] = True  # 20 correct singletons
    sets[20:, 1:] = True  # 10 two-class sets, all missing the truth
    rows = pd.DataFrame([{"dataset": "d", "fold": 0, "classifier": "C", **fold_lenses(y, sets)}])
    value = dataset_scores(rows).set_index("lens")["value"]
    assert value["coverage"] == pytest.approx(20 / 30)
    assert value["size_stratified_coverage"] == 0.0


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**31 - 1), st.integers(min_value=2, max_value=8))
def test_kendall_tau_b_matches_scipy(seed, n):
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, 4, size=n).astype(float), rng.integers(0, 4, size=n).astype(float)
    if len(set(a)) < 2 or len(set(b)) < 2:
        with pytest.raises(ValueError, match="undefined"):
            kendall_tau_b(a, b)
        return
    assert kendall_tau_b(a, b) == pytest.approx(sps.kendalltau(a, b).statistic)


def _scores(n_datasets=20, seed=1):
    """Three classifiers; lens u65 favours C1 > C2 > C3, set_size (lower is better) reverses it."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(n_datasets):
        for c, base in (("C1", 0.9), ("C2", 0.8), ("C3", 0.7)):
            noise = rng.normal(scale=0.02)
            rows.append({"dataset": f"d{d}", "classifier": c, "lens": "u65", "value": base + noise})
            rows.append({"dataset": f"d{d}", "classifier": c, "lens": "set_size", "value": 1 + base + noise})
            rows.append({"dataset": f"d{d}", "classifier": c, "lens": "u80", "value": base + 2 * noise})
    return pd.DataFrame(rows)


def test_rank_agreement_sees_agreement_and_reversal():
    scores = _scores()
    agreement = rank_agreement(scores, ["u65", "u80", "set_size"], ["C1", "C2", "C3"], n_boot=200)
    tau = agreement.set_index(["lens_a", "lens_b"])["tau"]
    assert tau[("u65", "u80")] == pytest.approx(1.0)
    assert tau[("u65", "set_size")] == pytest.approx(-1.0)
    row = agreement.set_index(["lens_a", "lens_b"]).loc[("u65", "set_size")]
    assert row["low"] <= row["tau"] <= row["high"]


def test_order_flips_and_friedman():
    scores = _scores()
    flips = order_flips(scores, "u65", "set_size", ["C1", "C2", "C3"])
    assert len(flips) == 3  # every pair reverses
    first = flips.set_index(["first", "second"]).loc[("C1", "C3")]
    assert first["gap_u65"] == pytest.approx(2.0) and first["gap_set_size"] == pytest.approx(-2.0)
    assert bool(first["significant_u65"])
    assert order_flips(scores, "u65", "u80", ["C1", "C2", "C3"]).empty
    table = friedman_by_lens(scores, ["u65", "set_size"], ["C1", "C2", "C3"]).set_index("lens")
    assert table.loc["u65", "best"] == "C1" and table.loc["set_size", "best"] == "C3"
    assert table.loc["u65", "pvalue"] < 0.001
    ranks = lens_ranks(scores, ["u65"], ["C1", "C2", "C3"])
    assert list(ranks.loc["u65"]) == [1.0, 2.0, 3.0]


class TestBadInput:
    def test_fold_lenses_needs_something(self):
        with pytest.raises(ValueError, match="sets, proba"):
            fold_lenses([0, 1])

    def test_empty_sets_are_refused(self):
        with pytest.raises(ValueError, match="empty"):
            fold_lenses([0, 1], np.array([[1, 0], [0, 0]], dtype=bool))

    def test_unknown_lens_and_classifier(self):
        scores = _scores()
        with pytest.raises(ValueError, match="lens must be one of"):
            score_table(scores, "accuracy")
        with pytest.raises(ValueError, match=r"\['C9'\]"):
            score_table(scores, "u65", ["C1", "C9"])

    def test_rows_without_keys(self):
        with pytest.raises(ValueError, match="lacks the columns"):
            dataset_scores(pd.DataFrame({"dataset": ["d"], "n": [1]}))

    def test_kendall_shapes(self):
        with pytest.raises(ValueError, match="same shape"):
            kendall_tau_b([1, 2, 3], [1, 2])

    def test_bootstrap_parameters(self):
        with pytest.raises(ValueError, match="n_boot"):
            rank_agreement(_scores(), ["u65", "u80"], ["C1", "C2"], n_boot=1)
        with pytest.raises(ValueError, match="level"):
            rank_agreement(_scores(), ["u65", "u80"], ["C1", "C2"], level=1.5)


def test_every_lens_declares_a_known_reading_and_pooling():
    for lens in LENSES.values():
        assert lens.reads in {"sets", "proba", "binary"}
        assert lens.pooling in {"sum", "mean", "bins"}


def test_utility_lines_recover_every_utility():
    from credalbook.metrics import utility_discounted_accuracy_scores
    from credalbook.risk_aversion import mean_utility

    rng = np.random.default_rng(3)
    rows = []
    truth = {}
    for dataset in ("d1", "d2"):
        y = rng.integers(0, 3, size=50)
        for name in ("A", "B"):
            sets = rng.uniform(size=(50, 3)) < 0.5
            sets[np.arange(50), rng.integers(0, 3, size=50)] = True
            truth[(dataset, name)] = (y, sets)
            rows.append({"dataset": dataset, "fold": 0, "classifier": name, **fold_lenses(y, sets)})
    A, B = lenses.utility_lines(dataset_scores(pd.DataFrame(rows)), ["A", "B"])
    for (dataset, name), (y, sets) in truth.items():
        for v in (0.5, 0.72, 0.9):
            expected = utility_discounted_accuracy_scores(y, sets, u=v).mean()
            assert mean_utility(A.loc[name, dataset], B.loc[name, dataset], v) == pytest.approx(expected)


def test_figures_draw_one_mark_per_classifier_and_lens():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    scores = _scores()
    classifiers = ["C1", "C2", "C3"]
    ax = lenses.plot_order_flips(scores, "u65", "set_size", classifiers)
    assert len(ax.lines) == 3
    ax = lenses.plot_rank_correlations(rank_agreement(scores, ["u65", "u80", "set_size"], classifiers, n_boot=50))
    assert len(ax.texts) == 9
    ax = lenses.plot_lens_ranks(lens_ranks(scores, ["u65", "set_size"], classifiers))
    assert len(ax.patches) == 2  # one frame per lens, around its winner
    plt.close("all")


def test_coverage_by_size_averages_datasets_with_enough_sets():
    rows = []
    for dataset, hits in (("d1", 20), ("d2", 10)):
        y = np.zeros(30, dtype=int)
        sets = np.zeros((30, 3), dtype=bool)
        sets[:20, 0] = True  # 20 singletons holding the truth
        sets[20:, 0] = True
        sets[20:, 1] = True  # 10 two-class sets...
        if hits < 20:
            sets[20:, 0] = False
            sets[20:, 2] = True  # ...missing the truth on d2
        rows.append({"dataset": dataset, "fold": 0, "classifier": "C", **fold_lenses(y, sets)})
    table = lenses.coverage_by_size(pd.DataFrame(rows), ["C"]).set_index("size")
    assert table.loc["1", "coverage"] == 1.0 and table.loc["1", "datasets"] == 2
    assert table.loc["2", "coverage"] == pytest.approx(0.5)  # 1 on d1, 0 on d2
    assert table.loc["2", "share"] == pytest.approx(1 / 3)
    assert np.isnan(table.loc["3+", "coverage"]) and table.loc["3+", "datasets"] == 0
    with pytest.raises(ValueError, match=r"\['D'\]"):
        lenses.coverage_by_size(pd.DataFrame(rows), ["D"])


def test_utility_agreement_path_at_the_stored_utilities():
    rows = _rows()
    scores = dataset_scores(rows)
    path = lenses.utility_agreement_path(scores, ["u65", "u80"], ["A", "B"], [0.65, 0.8])
    assert path.loc[0, "u65"] == pytest.approx(1.0) and path.loc[1, "u80"] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="v_grid"):
        lenses.utility_agreement_path(scores, ["u65"], ["A", "B"], [0.4])


def test_expected_loss_is_left_out_of_a_one_class_fold():
    y = np.zeros(6, dtype=int)
    proba = np.tile([0.7, 0.3], (6, 1))
    out = fold_lenses(y, np.ones((6, 2), dtype=bool), proba)
    assert "expected_loss" not in out and out["brier"] == pytest.approx(6 * 2 * 0.3**2)


def test_ordinal_lens_is_the_p_discounted_cost_with_the_given_costs():
    from credalbook.costs import ordinal_cost_matrix, set_costs

    rng = np.random.default_rng(7)
    y = rng.integers(0, 4, size=50)
    sets = rng.uniform(size=(50, 4)) < 0.4
    sets[np.arange(50), rng.integers(0, 4, size=50)] = True
    cost = ordinal_cost_matrix(4) / 3
    out = fold_lenses(y, sets, ordinal_cost=cost)
    assert out["p_discounted_ordinal"] == pytest.approx(set_costs(cost, y, sets, "p_discounted", r=0.5).sum())
    assert "p_discounted_ordinal" not in fold_lenses(y, sets)


# ---- issue 26: scores and descriptors, ties, BCa intervals, nested flips, panels, label spaces ----

def test_descriptors_are_won_by_a_precise_or_a_vacuous_classifier_and_scores_are_not():
    rng = np.random.default_rng(11)
    y = rng.integers(0, 3, size=60)
    wrong = np.eye(3, dtype=bool)[(y + 1) % 3]  # precise and always wrong
    vacuous = np.ones((60, 3), dtype=bool)
    right = np.eye(3, dtype=bool)[y]
    out = {name: fold_lenses(y, sets) for name, sets in (("wrong", wrong), ("vacuous", vacuous), ("right", right))}
    assert out["wrong"]["determinacy"] == out["right"]["determinacy"] == 60  # a bad precise classifier ties the best
    assert out["vacuous"]["coverage"] == out["right"]["coverage"] == 60  # a vacuous one ties the perfect one
    for lens in lenses.SCORING_LENSES[:4]:  # utilities and F1: the perfect classifier beats both
        assert out["right"][lens] > max(out["wrong"][lens], out["vacuous"][lens])
    assert set(lenses.DESCRIPTOR_LENSES) == {"determinacy", "coverage"}
    assert len(lenses.SCORING_LENSES) == 6 and not set(lenses.MERGED) & set(lenses.DESCRIPTOR_LENSES)
    assert lenses.MERGED == {"set_size": "determinacy", "size_stratified_coverage": "coverage",
                             "p_discounted_cost": "u75"}


def test_p_discounted_cost_is_merged_into_u75_exactly():
    rows = _rows()
    table = lenses.lens_duplicates(dataset_scores(rows), ["A", "B"], rows).set_index("lens")
    assert table.loc["p_discounted_cost", "largest_gap"] == pytest.approx(0, abs=1e-12)
    assert table.loc["p_discounted_cost", "tau"] == pytest.approx(1.0)
    assert table.loc["set_size", "tau"] == pytest.approx(1.0)


def test_a_tie_of_mean_ranks_is_reported_as_a_tie_in_any_order():
    scores = _scores()
    twin = scores[scores["classifier"] == "C1"].assign(classifier="C0")
    scores = pd.concat([scores, twin], ignore_index=True)
    for order in (["C0", "C1", "C2"], ["C1", "C2", "C0"]):
        row = friedman_by_lens(scores, ["u65"], order).iloc[0]
        assert row["n_best"] == 2
        assert set(row["best"].split(" = ")) == {"C0", "C1"}
    ranks = lens_ranks(scores, ["u65"], ["C0", "C1", "C2"])
    ax = lenses.plot_lens_ranks(ranks)
    assert len(ax.patches) == 2  # both tied winners framed
    import matplotlib.pyplot as plt
    plt.close("all")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bca_interval_matches_scipy(seed):
    rng = np.random.default_rng(seed)
    x = rng.exponential(size=40)  # skewed: bias correction and acceleration matter
    result = sps.bootstrap((x,), np.mean, n_resamples=999, method="BCa", confidence_level=0.9, random_state=seed)
    jackknife = np.array([np.delete(x, i).mean() for i in range(len(x))])
    low, high = lenses.bca_interval(x.mean(), result.bootstrap_distribution, jackknife, level=0.9)
    assert (low, high) == pytest.approx((result.confidence_interval.low, result.confidence_interval.high), rel=1e-9)
    percentile = np.quantile(result.bootstrap_distribution, [0.05, 0.95])
    assert (low, high) != pytest.approx(tuple(percentile), rel=1e-6)  # the correction moved it


def test_rank_agreement_survives_resamples_that_tie_every_classifier():
    rows = []
    for d in range(6):
        for c, base in (("C1", 0.9), ("C2", 0.8), ("C3", 0.7)):
            tie = d < 4  # u80 ties every classifier on four datasets of six
            rows.append({"dataset": f"d{d}", "classifier": c, "lens": "u65", "value": base + 0.01 * d})
            rows.append({"dataset": f"d{d}", "classifier": c, "lens": "u80", "value": 0.5 if tie else base})
    agreement = rank_agreement(pd.DataFrame(rows), ["u65", "u80"], ["C1", "C2", "C3"], n_boot=400, seed=0).iloc[0]
    assert agreement["tau"] == pytest.approx(1.0)
    assert agreement["n_undefined"] > 0  # (4/6)^6 of the resamples tie every classifier under u80
    assert agreement["low"] <= agreement["high"]


def test_rank_agreement_adjusts_for_the_number_of_pairs():
    agreement = rank_agreement(_scores(), ["u65", "u80", "set_size"], ["C1", "C2", "C3"], n_boot=300)
    assert (agreement["low_adjusted"] <= agreement["low"] + 1e-12).all()
    assert (agreement["high_adjusted"] >= agreement["high"] - 1e-12).all()
    reversed_pair = agreement.set_index(["lens_a", "lens_b"]).loc[("u65", "set_size")]
    assert reversed_pair["pvalue"] < 0.01 and bool(reversed_pair["holm"])


def test_holm_steps_down():
    assert list(lenses._holm(np.array([0.01, 0.04, 0.03, 0.5]), 0.05)) == [True, False, False, False]
    assert list(lenses._holm(np.array([0.01, 0.02, 0.03]), 0.05)) == [True, True, True]  # 0.01<0.05/3, 0.02<0.05/2, 0.03<0.05


def _nested_scores():
    """C_small ⊂ C_big (coverage and set size ordered on every dataset); C_other crosses both."""
    rng = np.random.default_rng(5)
    rows = []
    for d in range(12):
        cov_small, cov_other = rng.uniform(0.6, 0.8), rng.uniform(0.5, 0.95)
        values = {"C_small": (cov_small, 1.0, 0.9), "C_big": (cov_small + 0.1, 1.6, 0.6),
                  "C_other": (cov_other, rng.uniform(0.9, 1.8), rng.uniform(0.5, 0.95))}
        for c, (coverage, size, u) in values.items():
            for lens, value in (("coverage", coverage), ("set_size", size), ("u65", u)):
                rows.append({"dataset": f"d{d}", "classifier": c, "lens": lens, "value": value})
    return pd.DataFrame(rows)


def test_flips_between_nested_classifiers_are_forced():
    scores = _nested_scores()
    nested = lenses.nested_pairs(scores, ["C_small", "C_big", "C_other"])
    assert list(nested.itertuples(index=False, name=None)) == [("C_small", "C_big")]
    flips = order_flips(scores, "u65", "coverage", ["C_small", "C_big", "C_other"]).set_index(["first", "second"])
    assert flips.loc[("C_small", "C_big"), "kind"] == "forced"
    assert set(flips["kind"]) <= {"forced", "genuine"}
    panels = lenses.nested_free_panels(["C_small", "C_big", "C_other"], nested)
    assert sorted(panels) == [("C_big", "C_other"), ("C_small", "C_other")]


def test_nested_free_panels_keep_one_of_each_chain():
    nested = pd.DataFrame({"inner": ["a", "a", "b", "x"], "outer": ["b", "c", "c", "y"]})
    panels = lenses.nested_free_panels(["a", "b", "c", "x", "y", "z"], nested)
    assert len(panels) == 6  # one of {a, b, c} times one of {x, y}
    assert all("z" in p and len(p) == 3 for p in panels)


def test_panel_agreement_and_winners_per_panel():
    scores = _scores()
    panels = {"all": ["C1", "C2", "C3"], "two": ["C1", "C3"]}
    table = lenses.panel_agreement(scores, "u65", "set_size", panels, n_boot=100).set_index("panel")
    assert table.loc["all", "tau"] == pytest.approx(-1.0) and table.loc["two", "n_classifiers"] == 2
    winners = lenses.panel_winners(scores, ["u65"], {"all": ["C1", "C2", "C3"], "reversed": ["C3", "C2", "C1"]})
    assert list(winners["best"]) == ["C1", "C1"]


def test_coverage_by_size_splits_binary_from_multiclass_label_spaces():
    rows = []
    for dataset, k in (("binary", 2), ("three", 3)):
        y = np.zeros(30, dtype=int)
        y[-1] = 1  # both classes in the fold (the binary expected loss needs them)
        sets = np.zeros((30, k), dtype=bool)
        sets[:, 1] = True
        sets[:15, 0] = True  # 15 two-class sets: hold the truth (always on binary data)
        proba = np.full((30, k), 1 / k)
        rows.append({"dataset": dataset, "fold": 0, "classifier": "C", **fold_lenses(y, sets, proba)})
    rows = pd.DataFrame(rows)
    assert dict(lenses.label_spaces(rows)) == {"binary": "two classes", "three": "three or more"}
    table = lenses.coverage_by_size(rows, ["C"], by_label_space=True).set_index(["label_space", "size"])
    assert table.loc[("two classes", "2"), "coverage"] == 1.0
    assert table.loc[("three or more", "2"), "coverage"] == 1.0 and table.loc[("three or more", "1"), "coverage"] == pytest.approx(1 / 15)
    pooled = lenses.coverage_by_size(rows, ["C"]).set_index("size")
    assert pooled.loc["2", "datasets"] == 2


def test_panel_variants_and_shared_top():
    scores = _nested_scores()
    names = ["C_small", "C_big", "C_other"]
    panels = lenses.panel_variants(scores, names, precise=["C_other"], variants=["C_big"])
    assert panels["as run"] == names
    assert panels["one entry per method"] == ["C_small", "C_other"]
    assert panels["no precise baselines"] == ["C_small", "C_big"]
    assert panels["neither"] == ["C_small"]
    assert sorted(k for k in panels if k.startswith("no nesting")) == ["no nesting 1", "no nesting 2"]
    three = _scores()
    assert lenses.shared_top(three, ["u65", "u80"], ["C1", "C2", "C3"]) == ["C1"]  # C1 best under both, clearly
    assert lenses.shared_top(three, ["u65", "set_size"], ["C1", "C2", "C3"]) == []  # reversed lenses share no top


def test_rank_agreement_survives_a_jackknife_that_ties_every_classifier():
    # three datasets, two classifiers: leaving any one dataset out ties the two under one lens, so
    # every leave-one-out τ is undefined (issue 27); the interval then has no acceleration
    u65, u80 = [[1.0, 2.0], [0.0, 1.0], [2.0, 0.0]], [[1.0, 2.0], [2.0, 1.0], [1.0, 0.0]]
    rows = [{"dataset": f"d{d}", "classifier": c, "lens": lens, "value": values[d][k]}
            for d in range(3) for k, c in enumerate(("C1", "C2")) for lens, values in (("u65", u65), ("u80", u80))]
    agreement = rank_agreement(pd.DataFrame(rows), ["u65", "u80"], ["C1", "C2"], n_boot=200, seed=0).iloc[0]
    assert agreement["tau"] == -1.0  # C2 first under u65 (mean ranks 5/3, 4/3), C1 first under u80
    assert agreement["low"] <= agreement["tau"] <= agreement["high"]
    assert 0 < agreement["pvalue"] <= 1


def test_rank_agreement_refuses_a_lens_that_ties_every_classifier():
    rows = [{"dataset": f"d{d}", "classifier": c, "lens": lens, "value": value}
            for d in range(4) for c, base in (("C1", 0.9), ("C2", 0.7))
            for lens, value in (("u65", base), ("u80", 0.5))]
    with pytest.raises(ValueError, match="'u80' gives every one of classifiers the same mean rank"):
        rank_agreement(pd.DataFrame(rows), ["u65", "u80"], ["C1", "C2"], n_boot=50)


def test_fold_lenses_refuses_sets_and_probabilities_of_different_classes():
    y = np.array([0, 1, 0, 1])
    sets = np.array([[1, 0, 0], [1, 1, 0], [0, 1, 1], [0, 1, 0]], dtype=bool)
    proba = np.array([[0.6, 0.4], [0.3, 0.7], [0.8, 0.2], [0.5, 0.5]])
    with pytest.raises(ValueError, match="sets has 3 columns.*proba has 2 columns"):
        fold_lenses(y, sets, proba)
    both = fold_lenses(y, sets[:, :2] | ~sets[:, :2].any(axis=1, keepdims=True), proba)
    assert both["n"] == 4 and "brier" in both and "u65" in both


@pytest.mark.parametrize("n", [0, -4, 2.5, np.nan])
def test_dataset_scores_refuses_counts_that_are_not_positive_integers(n):
    rows = pd.DataFrame([{"dataset": "d", "classifier": "A",
                          **fold_lenses(np.array([0, 1]), np.array([[1, 0], [1, 1]], dtype=bool))}])
    assert dataset_scores(rows).set_index("lens")["value"]["discounted_accuracy"] == pytest.approx(0.75)
    with pytest.raises(ValueError, match=r"rows\['n'\]"):
        dataset_scores(rows.assign(n=n))
    with pytest.raises(ValueError, match="rows holds no lens column"):
        dataset_scores(rows[["dataset", "classifier", "n"]])
