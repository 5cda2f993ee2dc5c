"""Checks of credalbook.book.ledger.zaffalon2012_ncc on small hand-made inputs with values worked out by hand."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from credalbook.book.experiments import ncc as ex
from credalbook.book.experiments.ncc import ncc_binary_utility
from credalbook.book.ledger import core
from credalbook.book.ledger import zaffalon2012_ncc as zcm


def _run(name: str, **inputs) -> core.Finding:
    return core.CHECKS[name].function(**inputs)


def _printed_counts(ncc: int, nbc: int) -> pd.DataFrame:
    return pd.DataFrame({"feature_selection": [False, False], "quantity": ["ncc_wins_discounted_accuracy",
                                                                          "nbc_wins_discounted_accuracy"],
                         "value": [ncc, nbc]})


class TestWinCountsFitTheCollection:
    appendix = pd.DataFrame({"dataset": ["a", "b", "c", "d"], "NCC": [100.0, 100.0, 99.9, 100.0]})
    collection = pd.DataFrame({"name": [f"d{i}" for i in range(55)]})

    def test_counts_beyond_the_datasets_without_a_tie_are_an_erratum(self):
        # 55 datasets, 3 of them with NCC 100% determinate (ties): at most 52 winners; 23 + 33 = 56
        finding = _run("zaffalon2012.ncc-uci-da-win-counts", printed=_printed_counts(23, 33),
                       appendix_table=self.appendix, collection=self.collection)
        assert finding.verdict == "erratum" and finding.book == 52

    def test_counts_that_fit_are_reproduced(self):
        finding = _run("zaffalon2012.ncc-uci-da-win-counts", printed=_printed_counts(22, 30),
                       appendix_table=self.appendix, collection=self.collection)
        assert finding.verdict == "reproduced" and finding.book == 52


def test_table11_rows_must_partition_the_collection():
    collection = pd.DataFrame({"name": [f"d{i}" for i in range(55)]})
    printed = pd.DataFrame({"utility": ["u65", "f1"], "ncc_wins": [21, 20], "ties": [14, 16], "ndc_wins": [18, 17]})
    finding = _run("zaffalon2012.ncc-ndc-table11-rows-sum", printed=printed, collection=collection)
    assert finding.verdict == "erratum" and finding.book == 53
    full = printed.assign(ties=printed["ties"] + 2)
    assert _run("zaffalon2012.ncc-ndc-table11-rows-sum", printed=full, collection=collection).verdict == "reproduced"


@pytest.mark.parametrize("wins,losses,share", [(21, 18, 21 / 39), (9, 35, 9 / 44), (0, 0, 0.5)])
def test_share_of_decided_datasets(wins, losses, share):
    assert zcm._decided_share(pd.Series({"ncc_wins": wins, "ndc_wins": losses})) == pytest.approx(share)


def test_binary_utility_is_linear_in_u_half():
    # NCC indeterminate on 40 % of the instances, u65 = 0.7: with u(1/2) = 0.8 it earns 0.15 x 0.4 more
    frame = pd.DataFrame({"ncc_u65": [0.7, 0.65], "ncc_determinacy": [0.6, 0.0]})
    assert ncc_binary_utility(frame, 0.8).tolist() == pytest.approx([0.76, 0.8])
    assert ncc_binary_utility(frame, 0.6).tolist() == pytest.approx([0.68, 0.6])


def _splits(rows: list[tuple]) -> pd.DataFrame:
    """kr-kp-like splits: (size, determinacy, NBC(NCC-I), NBC accuracy, NCC discounted accuracy, u65, u80)."""
    columns = ["size", "ncc_determinacy", "nbc_accuracy_ncc_indeterminate", "nbc_accuracy", "ncc_discounted_accuracy",
               "ncc_u65", "ncc_u80"]
    frame = pd.DataFrame(rows, columns=columns)
    return frame.assign(sample=frame.groupby("size").cumcount())


class TestKrkpChecks:
    # u60 = u65 − 0.05 (1 − determinacy): 0.60, 0.675, 0.78 against NBC 0.58, 0.69, 0.79
    splits = _splits([(5, 0.0, 0.58, 0.58, 0.5, 0.65, 0.8),
                      (10, 0.5, 0.68, 0.69, 0.625, 0.70, 0.775),
                      (20, 0.8, 0.60, 0.79, 0.78, 0.79, 0.82)])

    def test_u60_favours_nbc_at_most_sizes(self):
        finding = _run("zaffalon2011.ncc-krkp-u60-favours-nbc", runs=self.splits)
        assert finding.book is True          # NBC ahead at s = 10 and 20, NCC at s = 5
        nbc_behind = self.splits.assign(nbc_accuracy=self.splits["nbc_accuracy"] - 0.02)
        assert _run("zaffalon2011.ncc-krkp-u60-favours-nbc", runs=nbc_behind).book is False

    def test_moving_to_u80_cannot_help_nbc(self):
        finding = _run("zaffalon2012.ncc-krkp-u80-favours-nbc", runs=self.splits)
        assert finding.verdict == "erratum" and finding.book is False
        swapped = self.splits.rename(columns={"ncc_u65": "ncc_u80", "ncc_u80": "ncc_u65"})
        assert _run("zaffalon2012.ncc-krkp-u80-favours-nbc", runs=swapped).verdict is None

    def test_monotone_checks_see_every_step(self):
        assert _run("zaffalon2012.ncc-krkp-utilities-rise", runs=self.splits).book is True
        flat = self.splits.assign(ncc_u65=[0.65, 0.70, 0.70])
        assert _run("zaffalon2012.ncc-krkp-utilities-rise", runs=flat).book is False


def _per_dataset(ncc_u65_indeterminate: list[float], ncc_u80_indeterminate: list[float]) -> pd.DataFrame:
    n = len(ncc_u65_indeterminate)
    return pd.DataFrame({"feature_selection": True, "dataset": [f"d{i}" for i in range(n)],
                         "nbc_accuracy": 0.8, "ncc_discounted_accuracy": 0.78, "ncc_u65": 0.81, "ncc_u80": 0.83,
                         "ncc_determinate": 0.9, "indeterminate_instances": 10,
                         "ncc_u65_indeterminate": ncc_u65_indeterminate, "nbc_u65_indeterminate": 0.5,
                         "ncc_u80_indeterminate": ncc_u80_indeterminate, "nbc_u80_indeterminate": 0.5})


def test_indeterminate_gain_interval():
    # u65 gains 0.1, 0.2, 0.3: mean 0.2, sd 0.1, t(0.975, 2) = 4.303 -> interval 0.2 ± 0.248, below 0 at its low end
    # u80 gains 0.30, 0.31, 0.32: sd 0.01 -> 0.31 ± 0.025, above 0
    per_dataset = _per_dataset([0.55, 0.6, 0.65], [0.65, 0.655, 0.66])
    u65 = _run("zaffalon2012.ncc-uci-cfs-u65-indeterminate-gain", per_dataset=per_dataset)
    u80 = _run("zaffalon2012.ncc-uci-cfs-u80-indeterminate-gain", per_dataset=per_dataset)
    assert u65.book is False and "[-4.8%, +44.8%]" in u65.detail
    assert u80.book is True and "[+28.5%, +33.5%]" in u80.detail


def test_rejection_checks_read_the_largest_size():
    runs = pd.DataFrame({"size": [30, 30, 10_000, 10_000, 10_000], "model": ["NBC_t", "NCC", "NBC_t", "NCC", "NCC_t"],
                         "u80": [0.9, 0.95, 0.8, 0.7, 0.8], "u65": 0.6, "determinacy": [1.0, 1.0, 0.002, 1.0, 0.0]})
    assert _run("zaffalon2012.ncc-rejection-nbc-t-vacuous", runs=runs).book == pytest.approx(0.998)
    assert _run("zaffalon2012.ncc-rejection-nbc-t-wins", runs=runs).book is True
    assert _run("zaffalon2012.ncc-rejection-ncc-t-matches", runs=runs).book is True


def test_f1_of_the_vacuous_binary_prediction_is_two_thirds():
    assert zcm.f1_of_vacuous_binary() == pytest.approx(2 / 3)
    assert zcm._f2_of_vacuous_binary(2 / 3)["f1_vacuous"] == pytest.approx(5 / 6)


def test_sizes_reversed_turns_trends_round():
    frame = pd.DataFrame({"size": [5, 10, 20], "x": [1, 2, 3]})
    reversed_ = zcm._sizes_reversed(frame).sort_values("size")
    assert reversed_["x"].tolist() == [3, 2, 1] and np.all(np.diff(reversed_["size"]) > 0)


# ----------------------------------------------------------------------------------------------
# The remaining differences: hypotheses computed
# ----------------------------------------------------------------------------------------------
def test_variant_runs_with_the_defaults_are_the_stored_runs():
    from credalbook.book.experiments.store import load_results

    stored = load_results("zaffalon2012_ncc_artificial")
    runs = zcm.artificial_variant_runs([0, 1], [0], [25, 100])
    same = runs.merge(stored, on=["theta", "size", "train_set"], suffixes=("", "_stored"))
    assert len(same) == len(runs) == 4
    for column in ("nbc_accuracy", "ncc_determinacy", "nbc_accuracy_ncc_indeterminate", "ncc_u65"):
        np.testing.assert_allclose(same[column], same[f"{column}_stored"], rtol=0, atol=1e-9)  # as the CSV keeps them
    with pytest.raises(ValueError, match="generator"):
        zcm.artificial_variant_runs([0], [0], [25], generator="other")


def test_weakest_features_are_exactly_the_smallest_gap_apart():
    theta = zcm._weakest_model(np.random.default_rng(0), 200)
    np.testing.assert_allclose(np.abs(theta[:, 0] - theta[:, 1]), 0.1)
    assert theta.min() >= 0 and theta.max() <= 1 and (theta[:, 0] > theta[:, 1]).any() and (theta[:, 0] < theta[:, 1]).any()


def _artificial_runs() -> pd.DataFrame:
    """Two θ with two runs each at one size: 100 test instances, indeterminate on 10, 20, 30 and 40."""
    return pd.DataFrame({"theta": [0, 0, 1, 1], "size": 25, "train_set": [0, 1, 0, 1], "n_test": 100,
                         "nbc_accuracy": 0.8, "ncc_determinacy": [0.9, 0.8, 0.7, 0.6],
                         "ncc_discounted_accuracy": 0.7, "ncc_u65": 0.75,
                         "nbc_accuracy_ncc_indeterminate": [0.5, 0.6, 0.7, 0.8]})


def test_pooling_readings_by_hand():
    pooling = zcm.artificial_pooling(_artificial_runs())
    assert pooling["median of runs"].loc[25, "nbc_ncc_i"] == pytest.approx(0.65)
    assert pooling["median of runs"].loc[25, "area_of_ignorance"] == pytest.approx(0.25)
    assert pooling["mean of runs"].loc[25, "nbc_ncc_i"] == pytest.approx(0.65)
    # pooled: hits 5 + 12 + 21 + 32 = 70 on 100 indeterminate instances
    assert pooling["pooled over runs"].loc[25, "nbc_ncc_i"] == pytest.approx(0.70)
    assert pooling["pooled over runs"].loc[25, "area_of_ignorance"] == pytest.approx(0.25)
    # per θ: 17/30 and 53/70, median of the two
    assert pooling["median over θ"].loc[25, "nbc_ncc_i"] == pytest.approx((17 / 30 + 53 / 70) / 2)
    with pytest.raises(ValueError, match="lack"):
        zcm.artificial_pooling(pd.DataFrame({"size": [25]}))


def test_monte_carlo_error_is_the_spread_over_theta():
    runs = _artificial_runs()
    same = runs.assign(theta=0, ncc_determinacy=0.8, nbc_accuracy_ncc_indeterminate=0.6)
    printed = pd.DataFrame({"size": [25], "nbc_ncc_i": [0.6], "area_of_ignorance": [0.3]})
    flat = zcm.artificial_monte_carlo(same, printed, resamples=20).set_index("quantity")
    assert (flat["se"] == 0).all() and flat.loc["nbc_ncc_i", "within"] and not flat.loc["area_of_ignorance", "within"]
    assert flat.loc["area_of_ignorance", "z"] == np.inf
    spread = zcm.artificial_monte_carlo(runs, printed, resamples=200).set_index("quantity")
    assert spread.loc["nbc_ncc_i", "se"] > 0
    assert spread.loc["nbc_ncc_i", "se_between_studies"] == pytest.approx(np.sqrt(2) * spread.loc["nbc_ncc_i", "se"])
    assert spread.loc["nbc_ncc_i", "z"] == pytest.approx((0.6 - 0.65) / spread.loc["nbc_ncc_i", "se_between_studies"])
    with pytest.raises(ValueError, match="resamples"):
        zcm.artificial_monte_carlo(runs, printed, resamples=3)


def test_hypotheses_table_marks_the_printed_row_and_judges_every_other():
    from credalbook.book.experiments.store import load_results

    runs = load_results("zaffalon2012_ncc_artificial")
    runs = runs[runs["theta"] < 3]
    table = zcm.artificial_hypotheses(runs, design={"thetas": 3, "size_grid": (20, 50)})
    assert table.iloc[0]["hypothesis"].startswith("paper") and table.iloc[0]["within"] == 4
    judged = table.iloc[1:]
    assert set(judged["verdict"]) <= {"it does not", "this reading reproduces the numbers"}
    assert (judged["verdict"] == "this reading reproduces the numbers").eq(judged["within"] == 4).all()
    size = table.set_index("hypothesis").loc["training size"]
    assert size["area_of_ignorance_25"] == pytest.approx(0.20) and size["area_of_ignorance_100"] == pytest.approx(0.04)
    weak = table.set_index("hypothesis").loc["weakest features"]
    base = table.set_index("hypothesis").loc["recomputed: the book's protocol"]
    assert weak["area_of_ignorance_25"] > base["area_of_ignorance_25"]      # weaker features, more ignorance


def _ndc_folds() -> pd.DataFrame:
    """Three datasets, one run of six folds: NCC clearly ahead on a, NDC clearly ahead on b, a coin toss on c."""
    rng = np.random.default_rng(0)
    rows = []
    for dataset, shift in (("a", 0.1), ("b", -0.1), ("c", 0.0)):
        for fold in range(6):
            noise = rng.normal(0, 0.01) if dataset != "c" else (0.01 if fold % 2 else -0.01)
            row = {"dataset": dataset, "run": fold // 3, "fold": fold % 3, "feature_selection": False}
            for utility in ("u65", "f1", "u80"):
                row[f"ndc_{utility}"] = 0.7
                row[f"ncc_{utility}"] = 0.7 + shift + noise
            rows.append(row)
    plain = pd.DataFrame(rows)
    return pd.concat([plain, plain.assign(feature_selection=True)], ignore_index=True)


def test_table11_hypotheses_by_hand():
    printed = pd.DataFrame({"utility": ["u65", "f1", "u80"], "ncc_wins": 1, "ties": 1, "ndc_wins": 1})
    appendix = {"u65": pd.DataFrame({"name": ["a", "b", "c"], "NCC": [90.0, 60.0, 50.0]})}
    table = zcm.table11_hypotheses(_ndc_folds(), printed, appendix).set_index("reading")
    book = table.loc["book: paired t-test over the 100 folds"]
    assert book["u65"] == "1–1–1" and book["exact"] == 9 and book["verdict"] == "this reading reproduces the table"
    no_test = table.loc["no test"]
    assert no_test["ncc_higher_u65"] == 1 and no_test["u65"] == "1–1–1"     # c's means are equal
    own = table.loc["no test, the paper's NCC"]
    assert own["u65"] == "1–0–2" and own["f1"] == "not in the paper" and own["cells"] == 3


def test_table11_book_reading_is_the_ledgers_table():
    from credalbook.book.experiments.store import load_results

    folds = load_results("zaffalon2012_ncc_uci")
    table = zcm.table11_hypotheses(folds).set_index("reading")
    frame = ex.ncc_vs_ndc(folds, feature_selection=False).set_index("utility")
    for utility in ("u65", "f1", "u80"):
        row = frame.loc[utility]
        assert table.loc["book: paired t-test over the 100 folds", utility] == \
            f"{row['ncc_wins']}–{row['ties']}–{row['ndc_wins']}"
    corrected = ex.ncc_vs_ndc(folds, feature_selection=False, test_train_ratio=1 / 9).set_index("utility")
    assert table.loc["Nadeau–Bengio correction", "u65"] == "–".join(
        str(corrected.loc["u65", c]) for c in ("ncc_wins", "ties", "ndc_wins"))


def test_the_source_records_cite_the_computed_hypotheses():
    """The notes of the two records quote the numbers the hypothesis functions compute (no stale text)."""
    from credalbook.book.experiments.store import load_results
    from credalbook.book.reference import published_source

    runs = load_results("zaffalon2012_ncc_artificial")
    why = published_source("zaffalon2012_ncc_artificial")["cells"][0]["why"]
    for _, row in zcm.artificial_hypotheses(runs).iloc[1:].iterrows():
        nbc = f"{row['nbc_ncc_i_25']:.3f}/{row['nbc_ncc_i_100']:.3f}"
        area = f"area {row['area_of_ignorance_25']:.3f}/{row['area_of_ignorance_100']:.3f}"
        assert nbc in why and (row["hypothesis"] == "training size" or area in why), row["hypothesis"]
    error = zcm.artificial_monte_carlo(runs)["z"].abs()
    assert f"{error.min():.1f} to {error.max():.1f} between-study errors" in why
    why = published_source("zaffalon2012_ncc_table11")["cells"][0]["why"]
    table = zcm.table11_hypotheses(load_results("zaffalon2012_ncc_uci"))
    for _, row in table[~table["reading"].str.startswith("no test")].iterrows():
        assert f"{row['u65']}, {row['f1']}, {row['u80']} ({row['mean_abs_difference']:.1f})" in why, row["reading"]
    bounds = table.set_index("reading")["ncc_higher_u65"]
    assert f"NCC leads on {int(bounds['no test'])} of the" in why
    assert f"NCC leads on {int(bounds['no test, the paper' + chr(39) + 's NCC'])} datasets under u65" in why


def test_the_hypothesis_functions_name_a_bad_argument():
    runs = pd.DataFrame({"theta": [0.1], "size": [25]})
    for function in (zcm.artificial_pooling, zcm.artificial_monte_carlo, zcm.artificial_hypotheses):
        with pytest.raises(ValueError, match=r"runs lack columns \['n_test'"):
            function(runs)
    with pytest.raises(ValueError, match=r"folds lack columns \['dataset'"):
        zcm.table11_hypotheses(pd.DataFrame({"ncc_u65": [0.5]}))
    with pytest.raises(ValueError, match="folds lack columns"):
        zcm.table11_hypotheses([[0.5]])
    with pytest.raises(ValueError, match="generator must be 'uniform' or 'weakest'"):
        zcm.artificial_variant_runs([0], [0], [25], generator="normal")


def test_section_9_4_names_the_pair_table_11_compares():
    claim = next(c for c in core.claims() if c.id == "zaffalon2012.ndc-comparison-reference")
    table = pd.DataFrame({"utility": ["u65", "f1", "u80"], "ncc_wins": [21, 20, 14], "ties": [14, 16, 13],
                          "ndc_wins": [18, 17, 26]})
    row = core.evaluate_claim(claim, {"table": table})
    assert row["verdict"] == "erratum" and row["book"] == "NCC and NDC" and "18 at u65 to 26 at u80" in row["detail"]
    renamed = table.rename(columns={"ncc_wins": "nbc_wins"})
    assert core.evaluate_claim(claim, {"table": renamed})["verdict"] == "reproduced"
