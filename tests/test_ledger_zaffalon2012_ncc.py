"""Checks of credalbook.ledger.zaffalon2012_ncc on small hand-made inputs with values worked out by hand."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from credalbook.experiments.ncc import ncc_binary_utility
from credalbook.ledger import core
from credalbook.ledger import zaffalon2012_ncc as zcm


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
