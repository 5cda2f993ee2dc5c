"""Ledger entries of Zaffalon, Corani & Mauá: NBC, NCC and NDC in experiments (Part II).

The journal version (2012) §9.1 (artificial data, kr-kp down-sampling, the UCI datasets with and
without feature selection), §9.3 (NCC vs the non-deterministic classifier, Table 11) and §9.4
(the rejection option); the conference version (2011) §8 (artificial data) and §9 (kr-kp, Table 1).
Book frames of the published tables and the checks of the claims, computed from the stored
results ``zaffalon2012_ncc_artificial``, ``zaffalon2012_ncc_krkp``, ``zaffalon2012_ncc_uci`` and
``zaffalon2012_ncc_rejection`` through :mod:`credalbook.book.experiments.ncc`.
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np
import pandas as pd
from scipy import stats as sps

from credalbook._validation import check_scalar
from credalbook.book.experiments import ncc as ex
from credalbook.book.ledger.core import Finding, book_table, check, stored

__all__ = ["paper_collection", "krkp_data", "artificial_by_size", "krkp_by_size", "artificial_table",
           "artificial_table_means", "krkp_table1", "uci_table", "uci_table_from_appendix", "table11",
           "table11_corrected", "rejection_table", "artificial_largest_size_determinacy",
           "artificial_log_utility", "f1_of_vacuous_binary", "f1_vacuous_equivalent_accuracy",
           "krkp_smallest_indeterminate", "krkp_smallest_ncc_utility", "krkp_smallest_nbc_accuracy",
           "krkp_small_sets_advantage", "krkp_u60", "krkp_u80_advantage", "krkp_instances",
           "krkp_binary_features", "krkp_class_balance", "uci_nbc_mostly_better", "uci_medians_rise",
           "uci_u80_above_u65", "uci_cfs_more_similar", "uci_cfs_more_determinate", "uci_cfs_ncc_better",
           "table11_rows_sum", "ndc_balanced", "ndc_significance", "ndc_determinacy_spread", "ndc_features",
           "ndc_improvement", "rejection_vacuous", "rejection_nbc_t_wins", "rejection_ncc_t",
           "ARTIFICIAL_RECOMPUTED", "ARTIFICIAL_PRINTED", "artificial_variant_runs", "artificial_pooling",
           "artificial_monte_carlo", "artificial_hypotheses", "table11_hypotheses",
           "ndc_comparison_reference"]

PART = "II"
ARTIFICIAL_PAGE, KRKP_PAGE, UCI_PAGE, NDC_PAGE, REJECTION_PAGE = (
    f"chapters/ncc/{page}" for page in ("artificial", "krkp", "uci", "ndc", "rejection"))

ARTIFICIAL_RUNS = stored("zaffalon2012_ncc_artificial")
KRKP_SPLITS = stored("zaffalon2012_ncc_krkp")
UCI_FOLDS = stored("zaffalon2012_ncc_uci")
REJECTION_RUNS = stored("zaffalon2012_ncc_rejection")

LOG_HALF = math.log(1.5) / math.log(2)  # u(1/2)/u(1) for the logarithmic utility log(1 + x) (2011 §7.1)
UTILITIES = {"discounted_accuracy": "ncc_discounted_accuracy", "u65": "ncc_u65", "u80": "ncc_u80"}


def _derived(source: Callable[[], pd.DataFrame], function: Callable, label: str) -> Callable[[], pd.DataFrame]:
    """A loader applying ``function`` to the stored result ``source`` loads (its evidence names both)."""

    def load() -> pd.DataFrame:
        return function(source())

    load.evidence = f"{source.evidence} via {label}"
    return load


def _printed(name: str) -> Callable[[], pd.DataFrame]:
    """A loader of published table ``name`` as transcribed (for checks of the paper's own arithmetic)."""

    def load() -> pd.DataFrame:
        from credalbook.book.reference import published

        return published(name)

    load.evidence = f"published table {name}"
    return load


def paper_collection() -> pd.DataFrame:
    """The paper's UCI collection (§9.1.3): one row per dataset, with its number of features and availability."""
    from credalbook.data import list_datasets

    table = list_datasets("zaffalon2012")
    return table.loc[table["in_paper"], ["name", "n_features", "available"]].reset_index(drop=True)


paper_collection.evidence = "credalbook.data.list_datasets('zaffalon2012')"


def krkp_data() -> pd.DataFrame:
    """kr-vs-kp as the book reads it: the features and a ``class`` column."""
    from credalbook.data import load

    data = load("kr-vs-kp", group="zaffalon2012")
    return data.X.assign(**{"class": np.asarray(data.y)})


krkp_data.evidence = "data/raw kr-vs-kp via credalbook.data.load"

UCI_PER_DATASET = _derived(UCI_FOLDS, ex.uci_per_dataset, "experiments.ncc.uci_per_dataset")


def _swap(frame: pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    return frame.rename(columns={a: b, b: a})


def _sizes_reversed(frame: pd.DataFrame) -> pd.DataFrame:
    """Altered input: the training sizes relabelled in reverse order, so that every trend turns round."""
    sizes = sorted(frame["size"].unique())
    return frame.assign(size=frame["size"].map(dict(zip(sizes, reversed(sizes)))))


def _named(function: Callable, name: str) -> Callable:
    function.__qualname__ = function.__name__ = name
    return function


def _by_size(values: pd.Series, digits: int = 3) -> str:
    return ", ".join(f"s={size}: {value:.{digits}f}" for size, value in values.items())


# ----------------------------------------------------------------------------------------------
# Summaries by training size (artificial data: medians over 4000 runs; kr-kp: means over 100 splits)
# ----------------------------------------------------------------------------------------------

def artificial_by_size(runs: pd.DataFrame) -> pd.DataFrame:
    """Medians per size (Fig. 2 of 2011 / Fig. 3 of 2012), with NCC's median utility under the log utility."""
    summary = ex.artificial_summary(runs).set_index("size")
    summary["ncc_log"] = ex.ncc_binary_utility(runs, LOG_HALF).groupby(runs["size"]).median()
    summary["ncc_minus_nbc_u65"] = summary["ncc_u65"] - summary["nbc_u65"]
    return summary


def krkp_by_size(splits: pd.DataFrame) -> pd.DataFrame:
    """Means per size (Table 1 and Fig. 3 of 2011), with NCC's u80 and its utility when u(1/2) = 0.6."""
    summary = ex.krkp_summary(splits).set_index("size")
    by_size = splits.groupby("size")
    summary["ncc_u80"] = by_size["ncc_u80"].mean()
    summary["ncc_u60"] = ex.ncc_binary_utility(splits, 0.6).groupby(splits["size"]).mean()
    summary["ncc_minus_nbc_u65"] = summary["ncc_u65"] - summary["nbc_u65"]
    return summary


# ----------------------------------------------------------------------------------------------
# Published tables
# ----------------------------------------------------------------------------------------------

@book_table("zaffalon2012_ncc_artificial", on=["size"], part=PART, chapter=ARTIFICIAL_PAGE,
            inputs={"runs": ARTIFICIAL_RUNS})
def artificial_table(runs: pd.DataFrame) -> pd.DataFrame:
    """2011 §8: NBC(NCC-I) and the area of ignorance, medians over the 4000 runs of each size (as Fig. 2)."""
    return ex.artificial_summary(runs)[["size", "nbc_ncc_i", "area_of_ignorance"]]


@book_table("zaffalon2012_ncc_artificial", on=["size"], part=PART, chapter=ARTIFICIAL_PAGE,
            inputs={"runs": ARTIFICIAL_RUNS}, reading="means over the 4000 runs")
def artificial_table_means(runs: pd.DataFrame) -> pd.DataFrame:
    """The same numbers as means (the text does not say whether its percentages are medians or means)."""
    return ex.artificial_summary(runs, statistic="mean")[["size", "nbc_ncc_i", "area_of_ignorance"]]


@book_table("zaffalon2012_ncc_krkp_table1", on=["size"], part=PART, chapter=KRKP_PAGE, inputs={"splits": KRKP_SPLITS})
def krkp_table1(splits: pd.DataFrame) -> pd.DataFrame:
    """2011 Table 1: NCC's determinacy and NBC(NCC-I) in percent, means over the 100 splits of each size."""
    return ex.krkp_summary(splits)


@book_table("zaffalon2012_ncc_uci", on=["feature_selection", "quantity"], part=PART, chapter=UCI_PAGE,
            inputs={"per_dataset": UCI_PER_DATASET}, values=["value"])
def uci_table(per_dataset: pd.DataFrame) -> pd.DataFrame:
    """§9.1.3: medians, win counts and indeterminate gains over the datasets, without and with CFS."""
    return ex.uci_summary(per_dataset)


@book_table("zaffalon2012_ncc_uci", on=["feature_selection", "quantity"], part=PART, chapter=UCI_PAGE,
            inputs={"determinacy": _printed("zaffalon2012_bench_table12"),
                    "u50": _printed("zaffalon2012_bench_table13"), "u65": _printed("zaffalon2012_bench_table14"),
                    "u80": _printed("zaffalon2012_bench_table15"),
                    "determinacy_cfs": _printed("zaffalon2012_bench_table16")},
            values=["value"], reading="the paper's own Appendix A (Tables 12-16, NCC column)")
def uci_table_from_appendix(determinacy, u50, u65, u80, determinacy_cfs) -> pd.DataFrame:
    """The text's NCC medians and determinacy counts recomputed from the paper's per-dataset Appendix tables.

    Not the book's value: a check that the numbers of §9.1.3 are those of the paper's own Appendix A.
    """
    rows = [(False, "median_ncc_discounted_accuracy", u50["NCC"].median() / 100),
            (False, "median_ncc_u65", u65["NCC"].median() / 100), (False, "median_ncc_u80", u80["NCC"].median() / 100),
            (False, "median_ncc_determinacy", determinacy["NCC"].median() / 100),
            (False, "datasets_determinacy_above_90pct", int((determinacy["NCC"] > 90).sum())),
            (True, "datasets_determinacy_above_90pct", int((determinacy_cfs["NCC"] > 90).sum()))]
    return pd.DataFrame(rows, columns=["feature_selection", "quantity", "value"])


@book_table("zaffalon2012_ncc_table11", on=["utility"], part=PART, chapter=NDC_PAGE, inputs={"folds": UCI_FOLDS})
def table11(folds: pd.DataFrame) -> pd.DataFrame:
    """§9.3 Table 11: datasets where a paired t-test over the 100 CV folds favours NCC, neither, or NDC (no CFS)."""
    return ex.ncc_vs_ndc(folds, feature_selection=False)


@book_table("zaffalon2012_ncc_table11", on=["utility"], part=PART, chapter=NDC_PAGE, inputs={"folds": UCI_FOLDS},
            reading="Nadeau-Bengio corrected t-test")
def table11_corrected(folds: pd.DataFrame) -> pd.DataFrame:
    """Table 11 with the t-test corrected for overlapping training sets (the paper names a plain paired t-test)."""
    return ex.ncc_vs_ndc(folds, feature_selection=False, test_train_ratio=1 / 9)


def _largest_size(runs: pd.DataFrame) -> pd.DataFrame:
    """Means per model at the largest training size of the rejection example (the large-sample limit of §9.4)."""
    return runs[runs["size"] == runs["size"].max()].groupby("model")[["u80", "u65", "determinacy"]].mean()


@book_table("zaffalon2012_ncc_rejection", on=["model"], part=PART, chapter=REJECTION_PAGE,
            inputs={"runs": REJECTION_RUNS})
def rejection_table(runs: pd.DataFrame) -> pd.DataFrame:
    """§9.4: u80 of NCC and of NBC with rejection threshold 0.8, at the largest training size (10 000)."""
    return _largest_size(runs).reset_index()


# ----------------------------------------------------------------------------------------------
# Check families: trends and comparisons across training sizes
# ----------------------------------------------------------------------------------------------

def _monotone_check(name: str, *, source, summarise, columns: tuple[str, ...], rising: bool = True) -> None:
    """Register check ``name``: every column of the size summary rises (or falls) strictly with the training size."""

    def monotone(runs: pd.DataFrame) -> Finding:
        summary = summarise(runs)
        steps = {c: np.diff(summary[c].to_numpy()) for c in columns}
        holds = all((s > 0).all() if rising else (s < 0).all() for s in steps.values())
        return Finding(book=bool(holds), detail="; ".join(f"{c}: {_by_size(summary[c])}" for c in columns))

    check(name, inputs={"runs": source}, mutate=lambda runs: {"runs": _sizes_reversed(runs)})(
        _named(monotone, f"monotone[{', '.join(columns)}]"))


def _higher_check(name: str, *, source, summarise, higher: str, lower: str, mutate) -> None:
    """Register check ``name``: ``higher`` exceeds ``lower`` at every training size."""

    def everywhere_higher(runs: pd.DataFrame) -> Finding:
        summary = summarise(runs)
        gap = summary[higher] - summary[lower]
        return Finding(book=bool((gap > 0).all()), detail=f"{higher} − {lower}: {_by_size(gap, 4)}")

    check(name, inputs={"runs": source}, mutate=mutate)(_named(everywhere_higher, f"higher[{higher} > {lower}]"))


def _raised(column: str, by: float):
    def mutate(runs: pd.DataFrame) -> dict:
        return {"runs": runs.assign(**{column: runs[column] + by})}

    return mutate


# §9.1.1 / 2011 §8: artificial data -------------------------------------------------------------
_higher_check("zaffalon2012.ncc-artificial-nbc-accuracy-above-ncc-da", source=ARTIFICIAL_RUNS,
              summarise=artificial_by_size, higher="nbc_accuracy", lower="ncc_discounted_accuracy",
              mutate=lambda runs: {"runs": _swap(runs, "nbc_accuracy", "ncc_discounted_accuracy")})
_higher_check("zaffalon2012.ncc-artificial-ncc-u65-above-nbc", source=ARTIFICIAL_RUNS, summarise=artificial_by_size,
              higher="ncc_u65", lower="nbc_u65", mutate=_raised("ncc_u65", 0.05))
_higher_check("zaffalon2011.ncc-artificial-utility-above-da", source=ARTIFICIAL_RUNS, summarise=artificial_by_size,
              higher="ncc_u65", lower="ncc_discounted_accuracy",
              mutate=lambda runs: {"runs": _swap(runs, "ncc_u65", "ncc_discounted_accuracy")})
_monotone_check("zaffalon2011.ncc-artificial-determinacy-rises", source=ARTIFICIAL_RUNS,
                summarise=artificial_by_size, columns=("ncc_determinacy",))
_monotone_check("zaffalon2011.ncc-artificial-nbc-ncc-i-falls", source=ARTIFICIAL_RUNS,
                summarise=artificial_by_size, columns=("nbc_ncc_i",), rising=False)
_monotone_check("zaffalon2011.ncc-artificial-gap-grows", source=ARTIFICIAL_RUNS,
                summarise=artificial_by_size, columns=("ncc_minus_nbc_u65",))


@check("zaffalon2012.ncc-artificial-larger-sizes-determinate", inputs={"runs": ARTIFICIAL_RUNS},
       mutate=lambda runs: {"runs": runs.assign(ncc_determinacy=runs["ncc_determinacy"] / 2)})
def artificial_largest_size_determinacy(runs: pd.DataFrame) -> Finding:
    """§9.1.1: median determinacy of NCC at the largest size run (s = 100); larger sizes were not run."""
    summary = artificial_by_size(runs)
    largest = summary.index.max()
    share = float(summary.loc[largest, "ncc_determinacy"])
    return Finding(book=share, detail=f"median NCC determinacy: {_by_size(summary['ncc_determinacy'])}")


@check("zaffalon2011.ncc-artificial-log-utility", inputs={"runs": ARTIFICIAL_RUNS,
                                                          "printed": _printed("zaffalon2012_ncc_artificial")},
       mutate=lambda runs, printed: {"runs": _raised("ncc_u65", 0.05)(runs)["runs"], "printed": printed})
def artificial_log_utility(runs: pd.DataFrame, printed: pd.DataFrame) -> Finding:
    """2011 §8: under u(x) = log(1 + x), does NCC's median utility still exceed NBC's at every size?

    Two classes: an indeterminate NCC output earns u(1/2)/u(1) = log 1.5 / log 2 = 0.585 of a hit.
    """
    summary = artificial_by_size(runs)
    gap = summary["ncc_log"] - summary["nbc_accuracy"]
    above = printed.set_index("size")["nbc_ncc_i"]
    return Finding(book=bool((gap > 0).all()),
                   detail=f"u(1/2) = log 1.5/log 2 = {LOG_HALF:.3f}; median NCC − NBC utility: {_by_size(gap, 4)}; "
                          f"the paper's own NBC(NCC-I) is above {LOG_HALF:.3f} at "
                          f"{', '.join(f's={s}' for s in above[above > LOG_HALF].index) or 'no size'}, where by the "
                          "rule of 2011 §9 (corrected) NBC would lead")


def f1_of_vacuous_binary() -> float:
    """F1 of the vacuous prediction {1, 2} on a two-class problem (del Coz & Bahamonde's F-measure, Eq. 9)."""
    from credalbook.metrics import f_beta_set_scores

    return float(f_beta_set_scores([0], np.array([[True, True]]), 1.0)[0])


f1_of_vacuous_binary.evidence = "credalbook.metrics.f_beta_set_scores"


def _f2_of_vacuous_binary(f1_vacuous: float) -> dict:
    """Altered input: the F2 measure instead of F1 (5/6 for the vacuous binary prediction)."""
    from credalbook.metrics import f_beta_set_scores

    return {"f1_vacuous": float(f_beta_set_scores([0], np.array([[True, True]]), 2.0)[0])}


@check("zaffalon2011.ncc-f1-vacuous-66", inputs={"f1_vacuous": f1_of_vacuous_binary}, mutate=_f2_of_vacuous_binary)
def f1_vacuous_equivalent_accuracy(f1_vacuous: float) -> Finding:
    """2011 §8: the accuracy a precise classifier needs to score as the vacuous one under F1 (F1 = accuracy when precise)."""
    return Finding(book=f1_vacuous, detail=f"F1 of {{1, 2}} containing the class: 2/(1 + 2) = {f1_vacuous:.4f}")


# §9.1.2 / 2011 §9: kr-kp ------------------------------------------------------------------------
_monotone_check("zaffalon2012.ncc-krkp-determinacy-and-accuracies-rise", source=KRKP_SPLITS, summarise=krkp_by_size,
                columns=("determinacy", "ncc_discounted_accuracy", "nbc_accuracy"))
_monotone_check("zaffalon2012.ncc-krkp-utilities-rise", source=KRKP_SPLITS, summarise=krkp_by_size,
                columns=("nbc_u65", "ncc_u65"))
_higher_check("zaffalon2012.ncc-krkp-ncc-u65-above-nbc", source=KRKP_SPLITS, summarise=krkp_by_size,
              higher="ncc_u65", lower="nbc_u65", mutate=lambda runs: {"runs": _swap(runs, "ncc_u65", "nbc_accuracy")})


def _at_smallest(splits: pd.DataFrame, column: str) -> tuple[int, float, pd.DataFrame]:
    summary = krkp_by_size(splits)
    smallest = int(summary.index.min())
    return smallest, float(summary.loc[smallest, column]), summary


@check("zaffalon2012.ncc-krkp-smallest-size-indeterminate", inputs={"runs": KRKP_SPLITS},
       mutate=lambda runs: {"runs": runs.assign(ncc_determinacy=0.5)})
def krkp_smallest_indeterminate(runs: pd.DataFrame) -> Finding:
    """§9.1.2: share of test instances NCC classifies indeterminately at the smallest training size (s = 5)."""
    size, determinacy, _ = _at_smallest(runs, "determinacy")
    return Finding(book=1 - determinacy, detail=f"s={size}: NCC indeterminate on {1 - determinacy:.1%} of the test "
                                                "instances (mean over 100 splits)")


@check("zaffalon2012.ncc-krkp-smallest-size-ncc-utility", inputs={"runs": KRKP_SPLITS},
       mutate=_raised("ncc_u65", -0.1))
def krkp_smallest_ncc_utility(runs: pd.DataFrame) -> Finding:
    """§9.1.2: NCC's mean u65 at the smallest training size."""
    size, value, _ = _at_smallest(runs, "ncc_u65")
    return Finding(book=value, detail=f"s={size}: mean NCC u65 {value:.4f} over 100 splits")


@check("zaffalon2012.ncc-krkp-smallest-size-nbc-near-random", inputs={"runs": KRKP_SPLITS},
       mutate=_raised("nbc_accuracy", 0.2))
def krkp_smallest_nbc_accuracy(runs: pd.DataFrame) -> Finding:
    """§9.1.2: NBC's mean accuracy at the smallest training size (the random guesser scores 1/2)."""
    size, value, summary = _at_smallest(runs, "nbc_accuracy")
    return Finding(book=value, detail=f"s={size}: mean NBC accuracy {value:.4f}; NBC(NCC-I) "
                                      f"{summary.loc[size, 'nbc_ncc_i']:.4f}")


@check("zaffalon2012.ncc-krkp-small-sets-advantage", inputs={"runs": KRKP_SPLITS},
       mutate=lambda runs: {"runs": _sizes_reversed(runs)})
def krkp_small_sets_advantage(runs: pd.DataFrame) -> Finding:
    """§1: NCC's lead over NBC under u65 is largest at the smallest training size of the kr-kp runs."""
    summary = krkp_by_size(runs)
    gap = summary["ncc_minus_nbc_u65"]
    return Finding(book=bool(gap.idxmax() == summary.index.min()), detail=f"NCC − NBC u65: {_by_size(gap, 4)}")


@check("zaffalon2011.ncc-krkp-u60-favours-nbc", inputs={"runs": KRKP_SPLITS}, mutate=_raised("nbc_accuracy", -0.05))
def krkp_u60(runs: pd.DataFrame) -> Finding:
    """2011 §9: with u(1/2) = 0.6 NBC has the higher mean utility at more training sizes than NCC."""
    summary = krkp_by_size(runs)
    lead = summary["nbc_u65"] - summary["ncc_u60"]
    return Finding(book=bool((lead > 0).sum() > (lead < 0).sum()),
                   detail=f"NBC − NCC with u(1/2) = 0.6: {_by_size(lead, 4)}")


@check("zaffalon2012.ncc-krkp-u80-favours-nbc", inputs={"runs": KRKP_SPLITS},
       mutate=lambda runs: {"runs": _swap(runs, "ncc_u65", "ncc_u80")})
def krkp_u80_advantage(runs: pd.DataFrame) -> Finding:
    """§9.1.2: does NBC's lead over NCC grow when u80 replaces u65? It changes by u65 − u80 of NCC.

    u80 ≥ u65 pointwise and NBC's utility (its accuracy) does not depend on u(1/2), so NBC's lead
    can only shrink: by 0.15 times NCC's share of indeterminate outputs on two classes.
    """
    summary = krkp_by_size(runs)
    change = summary["ncc_u65"] - summary["ncc_u80"]
    detail = f"change of NBC's lead from u65 to u80: {_by_size(change, 4)}"
    if (change <= 0).all():
        return Finding(book=False, verdict="erratum",
                       detail=detail + "; u80(1/2) − u65(1/2) = 0.15 raises NCC's utility by 0.15 × its indeterminate "
                                       "share and leaves NBC's unchanged: the advantage that grows is NCC's")
    return Finding(book=bool((change > 0).all()), detail=detail)


def _krkp_feature_values(data: pd.DataFrame) -> pd.Series:
    return data.drop(columns="class").nunique()


@check("zaffalon2012.ncc-krkp-instances", inputs={"data": krkp_data}, mutate=lambda data: {"data": data.iloc[:3000]})
def krkp_instances(data: pd.DataFrame) -> Finding:
    """§9.1.2: the number of instances of kr-kp."""
    return Finding(book=len(data), detail=f"data/raw kr-vs-kp: {len(data)} instances")


@check("zaffalon2012.ncc-krkp-binary-features", inputs={"data": krkp_data},
       mutate=lambda data: {"data": data.assign(katri=data["katri"].where(data["katri"] != "w", "b"))})
def krkp_binary_features(data: pd.DataFrame) -> Finding:
    """§9.1.2: the number of binary features of kr-kp."""
    values = _krkp_feature_values(data)
    other = ", ".join(f"{name} ({count} values)" for name, count in values[values != 2].items())
    return Finding(book=int((values == 2).sum()),
                   detail=f"{len(values)} features, {int((values == 2).sum())} binary" + (f"; {other}" if other else ""))


@check("zaffalon2012.ncc-krkp-classes-even", inputs={"data": krkp_data},
       mutate=lambda data: {"data": data[(data["class"] == data["class"].iloc[0]) | (np.arange(len(data)) % 3 == 0)]})
def krkp_class_balance(data: pd.DataFrame) -> Finding:
    """§9.1.2: the share of the larger class of kr-kp."""
    counts = data["class"].value_counts()
    return Finding(book=float(counts.iloc[0] / counts.sum()),
                   detail="class counts " + ", ".join(f"{k}: {v}" for k, v in counts.items()))


# ----------------------------------------------------------------------------------------------
# §9.1.3: the UCI datasets
# ----------------------------------------------------------------------------------------------

def _setting(per_dataset: pd.DataFrame, feature_selection: bool) -> pd.DataFrame:
    return per_dataset[per_dataset["feature_selection"] == feature_selection]


def _cfs(feature_selection: bool) -> str:
    return "with CFS" if feature_selection else "without CFS"


def _win_count_check(name: str, *, feature_selection: bool, measure: str, appendix: str) -> None:
    """Register check ``name``: do the printed win counts of (NCC, NBC) under ``measure`` fit the collection?

    A dataset where NCC is determinate on every instance is a tie (the two classifiers return
    the same classes there, §9.1.3): the counts can sum to at most the datasets minus those,
    read from the NCC column of the paper's own Appendix table ``appendix``.
    """
    keys = [f"ncc_wins_{measure}", f"nbc_wins_{measure}"]

    def win_counts_fit(printed: pd.DataFrame, appendix_table: pd.DataFrame, collection: pd.DataFrame) -> Finding:
        values = printed[printed["feature_selection"] == feature_selection].set_index("quantity")["value"]
        ncc, nbc = (int(values[k]) for k in keys)
        determinate = appendix_table.loc[appendix_table["NCC"] >= 100, "dataset"].tolist()
        limit = len(collection) - len(determinate)
        detail = (f"{measure} {_cfs(feature_selection)}: NCC {ncc} + NBC {nbc} = {ncc + nbc} datasets with a winner, "
                  f"of {len(collection)} in the study, {len(determinate)} of which ({', '.join(determinate)}) the "
                  f"paper's own Appendix table prints with NCC determinacy 100.00 (ties): at most {limit}")
        return Finding(book=limit, detail=detail, verdict="erratum" if ncc + nbc > limit else "reproduced")

    def fewer_wins(printed: pd.DataFrame, appendix_table: pd.DataFrame, collection: pd.DataFrame) -> dict:
        """Altered input: each printed count lowered by ten."""
        chosen = (printed["feature_selection"] == feature_selection) & printed["quantity"].isin(keys)
        altered = printed.copy()
        altered.loc[chosen, "value"] = altered.loc[chosen, "value"] - 10
        return {"printed": altered, "appendix_table": appendix_table, "collection": collection}

    check(name, inputs={"printed": _printed("zaffalon2012_ncc_uci"), "appendix_table": _printed(appendix),
                        "collection": paper_collection}, mutate=fewer_wins)(
        _named(win_counts_fit, f"win_counts_fit[{measure}, {_cfs(feature_selection)}]"))


_win_count_check("zaffalon2012.ncc-uci-da-win-counts", feature_selection=False, measure="discounted_accuracy",
                 appendix="zaffalon2012_bench_table12")
_win_count_check("zaffalon2012.ncc-uci-cfs-u65-win-counts", feature_selection=True, measure="u65",
                 appendix="zaffalon2012_bench_table16")
_win_count_check("zaffalon2012.ncc-uci-cfs-u80-win-counts", feature_selection=True, measure="u80",
                 appendix="zaffalon2012_bench_table16")


def _wilcoxon_check(name: str, *, feature_selection: bool, measure: str, favours: str | None) -> None:
    """Register check ``name``: the Wilcoxon test of NCC vs NBC over the datasets under ``measure``.

    The book's value is True when the difference is significant (α = 0.05) and, if the paper
    names a side (``favours``), the side with more wins is that one.
    """

    def wilcoxon(per_dataset: pd.DataFrame) -> Finding:
        summary = ex.uci_nbc_vs_ncc(per_dataset, feature_selection).set_index("quantity")["value"]
        p = summary[f"wilcoxon_p_{measure}"]
        ncc, nbc = int(summary[f"ncc_wins_{measure}"]), int(summary[f"nbc_wins_{measure}"])
        leader = "NCC" if ncc > nbc else "NBC" if nbc > ncc else "neither"
        significant = p < 0.05 and (favours is None or leader == favours)
        return Finding(book=bool(significant), detail=f"{measure} {_cfs(feature_selection)}: Wilcoxon p = {p:.2g}; "
                                                      f"NCC higher on {ncc}, NBC on {nbc} of {int(summary['datasets'])}")

    def effect_against_the_claim(per_dataset: pd.DataFrame) -> dict:
        """Altered input: NCC's scores set to NBC's ± 0.05, against the side the paper names (for NCC if none)."""
        shift = -0.05 if favours == "NCC" else 0.05
        rows = per_dataset["feature_selection"] == feature_selection
        altered = per_dataset.copy()
        altered.loc[rows, UTILITIES[measure]] = altered.loc[rows, "nbc_accuracy"] + shift
        return {"per_dataset": altered}

    check(name, inputs={"per_dataset": UCI_PER_DATASET}, mutate=effect_against_the_claim)(
        _named(wilcoxon, f"wilcoxon[{measure}, {_cfs(feature_selection)}]"))


_wilcoxon_check("zaffalon2012.ncc-uci-da-significant", feature_selection=False, measure="discounted_accuracy",
                favours="NBC")
_wilcoxon_check("zaffalon2012.ncc-uci-u65-not-significant", feature_selection=False, measure="u65", favours=None)
_wilcoxon_check("zaffalon2012.ncc-uci-u80-not-significant", feature_selection=False, measure="u80", favours=None)
_wilcoxon_check("zaffalon2012.ncc-uci-cfs-u65-not-significant", feature_selection=True, measure="u65", favours=None)
_wilcoxon_check("zaffalon2012.ncc-uci-cfs-u80-significant", feature_selection=True, measure="u80", favours="NCC")


@check("zaffalon2012.ncc-uci-nbc-beats-random-guesser-mostly", inputs={"per_dataset": UCI_PER_DATASET},
       mutate=lambda per_dataset: {"per_dataset": _swap(per_dataset, "nbc_accuracy", "ncc_discounted_accuracy")})
def uci_nbc_mostly_better(per_dataset: pd.DataFrame) -> Finding:
    """§9.1.3: without CFS, NBC's accuracy beats NCC's discounted accuracy on most datasets, and loses on several (≥ 3)."""
    summary = ex.uci_nbc_vs_ncc(per_dataset, False).set_index("quantity")["value"]
    nbc, ncc = int(summary["nbc_wins_discounted_accuracy"]), int(summary["ncc_wins_discounted_accuracy"])
    return Finding(book=bool(nbc > ncc >= 3), detail=f"NBC higher on {nbc}, NCC on {ncc}, equal on "
                                                      f"{int(summary['datasets']) - nbc - ncc} datasets")


@check("zaffalon2012.ncc-uci-medians-rise-with-risk-aversion", inputs={"per_dataset": UCI_PER_DATASET},
       mutate=lambda per_dataset: {"per_dataset": _swap(per_dataset, "ncc_discounted_accuracy", "ncc_u80")})
def uci_medians_rise(per_dataset: pd.DataFrame) -> Finding:
    """§9.1.3: NCC's median utility over the datasets (no CFS) rises from discounted accuracy to u65 to u80."""
    medians = _setting(per_dataset, False)[list(UTILITIES.values())].median()
    return Finding(book=bool(medians.is_monotonic_increasing and medians.is_unique),
                   detail="median NCC " + ", ".join(f"{k}: {medians[c]:.3f}" for k, c in UTILITIES.items()))


@check("zaffalon2012.ncc-uci-u80-above-u65-every-dataset", inputs={"per_dataset": UCI_PER_DATASET},
       mutate=lambda per_dataset: {"per_dataset": _swap(per_dataset, "ncc_u65", "ncc_u80")})
def uci_u80_above_u65(per_dataset: pd.DataFrame) -> Finding:
    """§9.1.3 (Fig. 5): NCC's u80 exceeds its u65 on every dataset where it is ever indeterminate, in both settings."""
    indeterminate = per_dataset[per_dataset["ncc_determinate"] < 1]
    above = indeterminate["ncc_u80"] > indeterminate["ncc_u65"]
    return Finding(book=bool(above.all()), detail=f"u80 > u65 on {int(above.sum())} of the {len(indeterminate)} "
                                                  "(dataset, setting) pairs where NCC is ever indeterminate; equal on "
                                                  f"the {len(per_dataset) - len(indeterminate)} others")


def _settings_swapped(per_dataset: pd.DataFrame) -> dict:
    """Altered input: the results with and without CFS exchanged."""
    return {"per_dataset": per_dataset.assign(feature_selection=~per_dataset["feature_selection"].astype(bool))}


@check("zaffalon2012.ncc-uci-cfs-more-similar", inputs={"per_dataset": UCI_PER_DATASET}, mutate=_settings_swapped)
def uci_cfs_more_similar(per_dataset: pd.DataFrame) -> Finding:
    """§9.1.3: after CFS, the median ``|NCC − NBC|`` expected utility over the datasets is smaller, under u65 and u80."""
    gaps = {(u, fs): float((_setting(per_dataset, fs)[f"ncc_{u}"] - _setting(per_dataset, fs)["nbc_accuracy"])
                           .abs().median()) for u in ("u65", "u80") for fs in (False, True)}
    return Finding(book=all(gaps[(u, True)] < gaps[(u, False)] for u in ("u65", "u80")),
                   detail="median |NCC − NBC|: " + "; ".join(f"{u} {gaps[(u, False)]:.4f} without, {gaps[(u, True)]:.4f}"
                                                             " with CFS" for u in ("u65", "u80")))


@check("zaffalon2012.ncc-uci-cfs-more-determinate", inputs={"per_dataset": UCI_PER_DATASET}, mutate=_settings_swapped)
def uci_cfs_more_determinate(per_dataset: pd.DataFrame) -> Finding:
    """§9.1.3: CFS raises the number of datasets on which NCC's determinacy exceeds 90%."""
    above = {fs: int((_setting(per_dataset, fs)["ncc_determinate"] > 0.9).sum()) for fs in (False, True)}
    medians = {fs: _setting(per_dataset, fs)["ncc_determinate"].median() for fs in (False, True)}
    return Finding(book=above[True] > above[False],
                   detail=f"datasets with NCC determinacy > 90%: {above[False]} without, {above[True]} with CFS "
                          f"(median determinacy {medians[False]:.3f}, {medians[True]:.3f})")


def _ncc_below_nbc_with_cfs(per_dataset: pd.DataFrame) -> dict:
    """Altered input: with CFS, NCC's u65 and u80 set just below NBC's accuracy on every dataset."""
    rows = per_dataset["feature_selection"].astype(bool)
    altered = per_dataset.copy()
    for column in ("ncc_u65", "ncc_u80"):
        altered.loc[rows, column] = altered.loc[rows, "nbc_accuracy"] - 0.01
    return {"per_dataset": altered}


@check("zaffalon2012.ncc-uci-cfs-ncc-better", inputs={"per_dataset": UCI_PER_DATASET}, mutate=_ncc_below_nbc_with_cfs)
def uci_cfs_ncc_better(per_dataset: pd.DataFrame) -> Finding:
    """§9.1.3: with CFS, NCC has the higher expected utility on more datasets than NBC, under u65 and under u80."""
    summary = ex.uci_nbc_vs_ncc(per_dataset, True).set_index("quantity")["value"]
    wins = {u: (int(summary[f"ncc_wins_{u}"]), int(summary[f"nbc_wins_{u}"])) for u in ("u65", "u80")}
    return Finding(book=all(ncc > nbc for ncc, nbc in wins.values()),
                   detail="; ".join(f"{u}: NCC higher on {ncc}, NBC on {nbc} (Wilcoxon p = "
                                    f"{summary[f'wilcoxon_p_{u}']:.2g})" for u, (ncc, nbc) in wins.items()))


def _gain_check(name: str, *, utility: str, mutate) -> None:
    """Register check ``name``: with CFS, the 95% interval of NCC's relative gain over NBC on its indeterminate instances is above 0."""

    def gain_positive(per_dataset: pd.DataFrame) -> Finding:
        summary = ex.uci_nbc_vs_ncc(per_dataset, True).set_index("quantity")["value"]
        low, mean, high = (summary[f"indeterminate_gain_{utility}_{k}"] for k in ("ci_low", "mean", "ci_high"))
        return Finding(book=bool(low > 0), detail=f"{utility} with CFS: mean gain {mean:+.1%}, 95% t interval "
                                                  f"[{low:+.1%}, {high:+.1%}] over "
                                                  f"{int(summary[f'indeterminate_gain_{utility}_datasets'])} datasets")

    check(name, inputs={"per_dataset": UCI_PER_DATASET}, mutate=mutate)(_named(gain_positive, f"gain_positive[{utility}]"))


def _ncc_indeterminate_u65_raised(per_dataset: pd.DataFrame) -> dict:
    """Altered input: NCC's u65 on its indeterminate instances raised by half."""
    return {"per_dataset": per_dataset.assign(ncc_u65_indeterminate=per_dataset["ncc_u65_indeterminate"] * 1.5)}


def _indeterminate_u80_swapped(per_dataset: pd.DataFrame) -> dict:
    """Altered input: NCC's and NBC's u80 on NCC's indeterminate instances exchanged."""
    return {"per_dataset": _swap(per_dataset, "ncc_u80_indeterminate", "nbc_u80_indeterminate")}


_gain_check("zaffalon2012.ncc-uci-cfs-u65-indeterminate-gain", utility="u65", mutate=_ncc_indeterminate_u65_raised)
_gain_check("zaffalon2012.ncc-uci-cfs-u80-indeterminate-gain", utility="u80", mutate=_indeterminate_u80_swapped)


# ----------------------------------------------------------------------------------------------
# §9.3: NCC vs NDC
# ----------------------------------------------------------------------------------------------

@check("zaffalon2012.ncc-ndc-table11-rows-sum", inputs={"printed": _printed("zaffalon2012_ncc_table11"),
                                                        "collection": paper_collection},
       mutate=lambda printed, collection: {"printed": printed.assign(ties=printed["ties"] + 2), "collection": collection})
def table11_rows_sum(printed: pd.DataFrame, collection: pd.DataFrame) -> Finding:
    """§9.3: do the printed rows of Table 11 (wins, ties, losses) partition the collection of Fig. 8?"""
    sums = (printed["ncc_wins"] + printed["ties"] + printed["ndc_wins"]).set_axis(printed["utility"])
    detail = ("Table 11 rows sum to " + ", ".join(f"{u}: {int(v)}" for u, v in sums.items())
              + f"; the study (Fig. 8, §9.1.3) has {len(collection)} datasets")
    consistent = bool((sums == len(collection)).all())
    return Finding(book=int(sums.iloc[0]) if sums.nunique() == 1 else ", ".join(str(int(v)) for v in sums),
                   detail=detail, verdict="reproduced" if consistent else "erratum")


def _ndc_like_ncc_under_u65_f1(folds: pd.DataFrame) -> dict:
    """Altered input: NDC's fold scores under u65 and F1 replaced by NCC's (no difference left there)."""
    return {"folds": folds.assign(ndc_u65=folds["ncc_u65"], ndc_f1=folds["ncc_f1"])}


def _decided_share(row: pd.Series) -> float:
    decided = row["ncc_wins"] + row["ndc_wins"]
    return 0.5 if decided == 0 else row["ncc_wins"] / decided


@check("zaffalon2012.ncc-ndc-balanced", inputs={"folds": UCI_FOLDS}, mutate=_ndc_like_ncc_under_u65_f1)
def ndc_balanced(folds: pd.DataFrame) -> Finding:
    """§9.3: under u65 and F1, NCC wins 40–60% of the datasets on which the paired t-test decides (Table 11)."""
    table = ex.ncc_vs_ndc(folds, feature_selection=False).set_index("utility")
    shares = {u: _decided_share(table.loc[u]) for u in ("u65", "f1")}
    return Finding(book=all(0.4 <= s <= 0.6 for s in shares.values()),
                   detail="; ".join(f"{u}: NCC {int(table.loc[u, 'ncc_wins'])}, ties {int(table.loc[u, 'ties'])}, NDC "
                                    f"{int(table.loc[u, 'ndc_wins'])} (NCC's share of decided datasets {s:.0%})"
                                    for u, s in shares.items()))


@check("zaffalon2012.ncc-ndc-significant-only-u80", inputs={"folds": UCI_FOLDS}, mutate=_ndc_like_ncc_under_u65_f1)
def ndc_significance(folds: pd.DataFrame) -> Finding:
    """§9.3: the utilities under which the Wilcoxon test over the datasets is significant in favour of NDC."""
    table = ex.ncc_vs_ndc(folds, feature_selection=False).set_index("utility")
    favour_ndc = [u for u in table.index if table.loc[u, "significant"] and table.loc[u, "higher_median"] == "NDC"]
    return Finding(book=", ".join(favour_ndc) or "none",
                   detail="Wilcoxon p: " + ", ".join(f"{u} {table.loc[u, 'wilcoxon_p']:.2g} (higher median "
                                                     f"{table.loc[u, 'higher_median']})" for u in table.index))


@check("zaffalon2012.ncc-ndc-determinacy-spread", inputs={"per_dataset": UCI_PER_DATASET},
       mutate=lambda per_dataset: {"per_dataset": per_dataset.assign(ndc_determinate=per_dataset["ncc_determinate"])})
def ndc_determinacy_spread(per_dataset: pd.DataFrame) -> Finding:
    """§9.3 (Fig. 8): NCC's and NDC's determinacies over the datasets are weakly related (``|Spearman ρ| < 0.5``)."""
    t = _setting(per_dataset, False)
    rho = sps.spearmanr(t["ncc_determinate"], t["ndc_determinate"]).statistic
    return Finding(book=bool(abs(rho) < 0.5), detail=f"Spearman ρ of NCC's and NDC's determinacy over {len(t)} "
                                                     f"datasets: {rho:.2f}")


@check("zaffalon2012.ncc-ndc-features", inputs={"per_dataset": UCI_PER_DATASET, "collection": paper_collection},
       mutate=lambda per_dataset, collection: {"per_dataset": _swap(per_dataset, "ncc_determinate", "ndc_determinate"),
                                               "collection": collection})
def ndc_features(per_dataset: pd.DataFrame, collection: pd.DataFrame) -> Finding:
    """§9.3: over the datasets, NCC's determinacy falls and NDC's rises with the number of features (Spearman ρ)."""
    t = _setting(per_dataset, False)
    features = t["dataset"].map(collection.set_index("name")["n_features"])
    rho = {m: sps.spearmanr(features, t[f"{m}_determinate"]).statistic for m in ("ncc", "ndc")}
    return Finding(book=bool(rho["ncc"] < 0 < rho["ndc"]),
                   detail=f"Spearman ρ of determinacy with the number of features over {len(t)} datasets: "
                          f"NCC {rho['ncc']:.2f}, NDC {rho['ndc']:.2f}")


@check("zaffalon2012.ncc-ndc-improves-u65-to-u80", inputs={"per_dataset": UCI_PER_DATASET},
       mutate=lambda per_dataset: {"per_dataset": _swap(_swap(per_dataset, "ncc_u65", "ndc_u65"), "ncc_u80", "ndc_u80")})
def ndc_improvement(per_dataset: pd.DataFrame) -> Finding:
    """§9.4: NDC gains more than NCC from u65 to u80 (mean over the datasets of u80 − u65, no CFS)."""
    t = _setting(per_dataset, False)
    gain = {m: float((t[f"{m}_u80"] - t[f"{m}_u65"]).mean()) for m in ("ncc", "ndc")}
    return Finding(book=gain["ndc"] > gain["ncc"], detail=f"mean u80 − u65 over {len(t)} datasets: NDC "
                                                          f"{gain['ndc']:.4f}, NCC {gain['ncc']:.4f}")


# ----------------------------------------------------------------------------------------------
# §9.4: the rejection option
# ----------------------------------------------------------------------------------------------

@check("zaffalon2012.ncc-rejection-nbc-t-vacuous", inputs={"runs": REJECTION_RUNS},
       mutate=lambda runs: {"runs": runs.assign(determinacy=runs["determinacy"].where(runs["model"] != "NBC_t", 1.0))})
def rejection_vacuous(runs: pd.DataFrame) -> Finding:
    """§9.4: share of test instances on which NBC_t (t = 0.8) abstains at the largest training size."""
    means = _largest_size(runs)
    share = 1 - float(means.loc["NBC_t", "determinacy"])
    return Finding(book=share, detail=f"NBC_t abstains on {share:.2%} of the test instances at "
                                      f"{runs['size'].max()} training instances")


@check("zaffalon2012.ncc-rejection-nbc-t-wins", inputs={"runs": REJECTION_RUNS},
       mutate=lambda runs: {"runs": runs.assign(model=runs["model"].replace({"NBC_t": "NCC", "NCC": "NBC_t"}))})
def rejection_nbc_t_wins(runs: pd.DataFrame) -> Finding:
    """§9.4: at the largest training size NBC_t has the higher u80 than NCC."""
    means = _largest_size(runs)["u80"]
    return Finding(book=bool(means["NBC_t"] > means["NCC"]), detail=f"u80: NBC_t {means['NBC_t']:.4f}, "
                                                                     f"NCC {means['NCC']:.4f}")


@check("zaffalon2012.ncc-rejection-ncc-t-matches", inputs={"runs": REJECTION_RUNS},
       mutate=lambda runs: {"runs": runs.assign(u80=runs["u80"] - 0.1 * (runs["model"] == "NCC_t"))})
def rejection_ncc_t(runs: pd.DataFrame) -> Finding:
    """§9.4: NCC with the rejection option (lower posterior ≤ t ⇒ vacuous) scores as NBC_t at the largest size."""
    means = _largest_size(runs)["u80"]
    return Finding(book=bool(abs(means["NCC_t"] - means["NBC_t"]) < 1e-9),
                   detail=f"u80: NCC_t {means['NCC_t']:.4f}, NBC_t {means['NBC_t']:.4f}")


# ----------------------------------------------------------------------------------------------
# The remaining differences, each hypothesis computed: the artificial data (2011 §8) and Table 11
# ----------------------------------------------------------------------------------------------
#: The recomputed design of the artificial-data hypotheses.
#:
#: Every θ of the stored run (80), its first training set, at the printed sizes; ``size_grid``
#: adds the sizes of the training-size hypothesis.
ARTIFICIAL_RECOMPUTED = {"thetas": 80, "train_sets": (0,), "sizes": (25, 100), "size_grid": (20, 50)}
#: The quantities printed for the artificial data (2011 §8), as the source record names them.
ARTIFICIAL_PRINTED = ("nbc_ncc_i", "area_of_ignorance")


def _weakest_model(rng: np.random.Generator, n_features: int = 10, gap: float = 0.1) -> np.ndarray:
    """(n_features, 2) chances exactly ``gap`` apart, the smallest gap the constraint allows.

    θ_i1 ~ U(0, 1 − gap), θ_i2 = θ_i1 + gap, the two sides swapped at random.
    """
    low = rng.random(n_features) * (1 - gap)
    swap = rng.random(n_features) < 0.5
    pairs = np.column_stack([low, low + gap])
    return np.where(swap[:, None], pairs[:, ::-1], pairs)


def artificial_variant_runs(thetas, train_sets, sizes, *, s: float = 1.0, nbc_prior: float = 1.0,
                            generator: str = "uniform", n_test: int = 10_000, seed: int = ex.SEED) -> pd.DataFrame:
    """The runs of :func:`credalbook.book.experiments.ncc.artificial_task` for θ in ``thetas``, with one thing changed.

    ``s``: the IDM's s of NCC; ``nbc_prior``: NBC's prior count (Laplace: 1); ``generator``:
    ``"uniform"`` (the book's: uniform under the constraint that θ_i1 and θ_i2 differ by at least
    0.1) or ``"weakest"`` (the gap exactly 0.1, the weakest features the constraint of 2011 §8
    allows). With the defaults the rows equal the stored rows of ``zaffalon2012_ncc_artificial``
    (same seeds). One row per (θ, size, training set).
    """
    if generator not in ("uniform", "weakest"):
        raise ValueError(f"generator must be 'uniform' or 'weakest', got {generator!r}")
    frames = []
    for theta in thetas:
        chances = None if generator == "uniform" else _weakest_model(np.random.default_rng([seed, theta, 0, 1]))
        runs = ex.artificial_task(int(theta), list(train_sets), list(sizes), int(n_test), int(seed), s=s,
                                  nbc_prior=nbc_prior, chances=chances)
        frames.append(runs.assign(theta=theta)[["theta", *runs.columns]])
    return pd.concat(frames, ignore_index=True)


#: The columns of the stored artificial runs that the hypotheses read.
_RUN_COLUMNS = ("theta", "size", "n_test", "ncc_determinacy", "nbc_accuracy_ncc_indeterminate")


def _require_columns(frame, name: str, columns) -> None:
    """ValueError naming argument ``name`` unless ``frame`` is a DataFrame with ``columns``."""
    missing = list(columns) if not isinstance(frame, pd.DataFrame) else [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} lack columns {missing}")


def _artificial_medians(runs: pd.DataFrame) -> pd.DataFrame:
    """Per size: median NBC(NCC-I) and area of ignorance (1 − median determinacy), as the book reads them."""
    return ex.artificial_summary(runs).set_index("size")[list(ARTIFICIAL_PRINTED)]


def artificial_pooling(runs: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """NBC(NCC-I) and the area of ignorance per size, pooled over the runs in four ways.

    ``median of runs`` (the book's, as Fig. 2 of 2011), ``mean of runs``, ``pooled over runs``
    (NBC's hits on all indeterminate instances of all runs over their number) and ``median over θ``
    (each θ's 50 runs pooled, then the median over the 80 θ). The area of ignorance is the median
    share of indeterminate instances, the mean share in the two last readings.
    """
    _require_columns(runs, "runs", _RUN_COLUMNS)
    runs = runs.assign(indeterminate=runs["n_test"] * (1 - runs["ncc_determinacy"]))
    runs = runs.assign(hits=runs["indeterminate"] * runs["nbc_accuracy_ncc_indeterminate"].fillna(0.0))
    by_size = runs.groupby("size")
    per_theta = runs.groupby(["size", "theta"])[["hits", "indeterminate", "n_test"]].sum()
    theta_share = (per_theta["hits"] / per_theta["indeterminate"]).groupby(level="size").median()
    theta_area = (per_theta["indeterminate"] / per_theta["n_test"]).groupby(level="size").median()
    pooled_area = by_size["indeterminate"].sum() / by_size["n_test"].sum()
    frames = {
        "median of runs": _artificial_medians(runs),
        "mean of runs": ex.artificial_summary(runs, statistic="mean").set_index("size")[list(ARTIFICIAL_PRINTED)],
        "pooled over runs": pd.DataFrame({"nbc_ncc_i": by_size["hits"].sum() / by_size["indeterminate"].sum(),
                                          "area_of_ignorance": pooled_area}),
        "median over θ": pd.DataFrame({"nbc_ncc_i": theta_share, "area_of_ignorance": theta_area}),
    }
    return {name: frame.rename_axis("size") for name, frame in frames.items()}


def artificial_monte_carlo(runs: pd.DataFrame, printed: pd.DataFrame | None = None, resamples: int = 300,
                           seed: int = 2011) -> pd.DataFrame:
    """Monte Carlo error of the book's medians: the bootstrap over the 80 θ (each with its runs).

    One row per (size, quantity) printed: ``book`` (the median), ``paper``, ``se`` (bootstrap
    standard deviation of the median), ``se_between_studies`` (√2 · se: two independent studies
    of 80 θ each), ``z`` ((paper − book) / se_between_studies; ±inf when the runs do not vary) and
    ``within`` (z between −2 and 2).
    """
    check_scalar(resamples, "resamples", low=10, integer=True)
    _require_columns(runs, "runs", _RUN_COLUMNS)
    if printed is None:
        from credalbook.book.reference import published

        printed = published("zaffalon2012_ncc_artificial")
    book = _artificial_medians(runs)
    rng = np.random.default_rng(seed)
    thetas = np.array(sorted(runs["theta"].unique()))
    picks = [rng.choice(thetas.size, thetas.size) for _ in range(resamples)]
    spread = {}
    for size, group in runs.groupby("size"):
        values = {"nbc_ncc_i": group["nbc_accuracy_ncc_indeterminate"], "area_of_ignorance": group["ncc_determinacy"]}
        for quantity, column in values.items():
            per_theta = [column[group["theta"] == t].to_numpy(float) for t in thetas]
            medians = np.array([np.nanmedian(np.concatenate([per_theta[i] for i in pick])) for pick in picks])
            deviation = float(np.std(medians, ddof=1))  # 1 − median determinacy: the same spread
            spread[(size, quantity)] = deviation if deviation > 1e-12 else 0.0
    paper = printed.set_index("size")
    rows = []
    for size in paper.index:
        for quantity in ARTIFICIAL_PRINTED:
            between = math.sqrt(2) * spread[(size, quantity)]
            gap = float(paper.loc[size, quantity]) - float(book.loc[size, quantity])
            z = gap / between if between > 0 else (0.0 if abs(gap) < 1e-12 else math.copysign(math.inf, gap))
            rows.append({"size": int(size), "quantity": quantity, "book": float(book.loc[size, quantity]),
                         "paper": float(paper.loc[size, quantity]), "se": spread[(size, quantity)],
                         "se_between_studies": between, "z": z, "within": bool(abs(z) <= 2)})
    return pd.DataFrame(rows)


def _crossing(sizes: np.ndarray, values: np.ndarray, target: float) -> float:
    """The training size (log-linear interpolation) at which a monotone curve ``values`` reaches ``target``."""
    order = np.argsort(values)
    return float(np.exp(np.interp(target, values[order], np.log(sizes[order]))))


def artificial_hypotheses(runs: pd.DataFrame, printed: pd.DataFrame | None = None,
                          tolerance: dict | None = None, design: dict | None = None) -> pd.DataFrame:
    """Each hypothesis on the artificial data's remaining differences, its values and its agreement with 2011 §8.

    ``runs``: the stored runs (80 θ × 50 training sets); the readings of the pooling come from them,
    the others are recomputed on ``design`` (default :data:`ARTIFICIAL_RECOMPUTED`) beside the
    book's protocol on the same runs. One row per hypothesis: ``hypothesis``, ``what`` it changes,
    NBC(NCC-I) and the area at the two printed sizes (``nbc_ncc_i_25``, ...), ``within`` (printed
    cells within the source record's tolerance, of 4) and ``verdict``.
    """
    from credalbook.book.reference import published, published_source

    printed = published("zaffalon2012_ncc_artificial") if printed is None else printed
    tolerance = published_source("zaffalon2012_ncc_artificial")["tolerance"] if tolerance is None else tolerance
    design = {**ARTIFICIAL_RECOMPUTED, **(design or {})}
    paper = printed.set_index("size")[list(ARTIFICIAL_PRINTED)]
    sizes = [int(s) for s in paper.index]
    thetas, sets = range(int(design["thetas"])), tuple(design["train_sets"])
    recomputed = f"{len(thetas)} θ × {len(sets)} training set{'s' if len(sets) > 1 else ''}"
    rows = [("paper (2011, §8)", "the printed numbers", paper)]
    pooling = artificial_pooling(runs)
    words = {"median of runs": "the book's: medians over the 4000 runs of each size",
             "mean of runs": "means over the runs instead of medians",
             "pooled over runs": "NBC's hits on every indeterminate instance of every run, over their number",
             "median over θ": "each θ's 50 runs pooled, then the median over the 80 θ"}
    rows += [(f"pooling: {name}", words[name], frame) for name, frame in pooling.items()]
    base = artificial_variant_runs(thetas, sets, sizes)
    rows.append(("recomputed: the book's protocol", f"nothing ({recomputed}, the reference of the rows below)",
                 _artificial_medians(base)))
    for label, what, options in (("IDM s = 2", "NCC with s = 2 instead of 1", {"s": 2.0}),
                                 ("IDM s = 0.5", "NCC with s = 0.5 instead of 1", {"s": 0.5}),
                                 ("NBC prior", "NBC's counts + 1/2 instead of + 1", {"nbc_prior": 0.5}),
                                 ("weakest features", "|θ_i1 − θ_i2| = 0.1 exactly, the least the constraint allows",
                                  {"generator": "weakest"})):
        rows.append((label, f"{what} ({recomputed})", _artificial_medians(artificial_variant_runs(thetas, sets, sizes,
                                                                                                 **options))))
    grid = sorted(set(sizes) | {int(s) for s in design["size_grid"]})
    extra = artificial_variant_runs(thetas, sets, [s for s in grid if s not in sizes])
    curve = _artificial_medians(pd.concat([base, extra], ignore_index=True))
    log_grid = np.log(np.array(grid, float))
    at = {}
    for size in sizes:
        where = _crossing(np.array(grid, float), curve["area_of_ignorance"].to_numpy(),
                          float(paper.loc[size, "area_of_ignorance"]))
        at[size] = (where, float(np.interp(np.log(where), log_grid, curve["nbc_ncc_i"].to_numpy())))
    rows.append(("training size", "the sizes at which the book's area is the printed one ("
                 + ", ".join(f"{at[s][0]:.0f} for {s}" for s in sizes) + f"; {recomputed}, sizes {grid[0]}-{grid[-1]})",
                 pd.DataFrame({"nbc_ncc_i": [at[s][1] for s in sizes],
                               "area_of_ignorance": [float(paper.loc[s, "area_of_ignorance"]) for s in sizes]},
                              index=pd.Index(sizes, name="size"))))
    table = []
    for label, what, frame in rows:
        frame = frame.reindex(sizes)
        within = sum(abs(float(frame.loc[s, q]) - float(paper.loc[s, q])) <= float(tolerance[q]) + 1e-12
                     for s in sizes for q in ARTIFICIAL_PRINTED)
        row = {"hypothesis": label, "what": what}
        for q in ARTIFICIAL_PRINTED:
            for s in sizes:
                row[f"{q}_{s}"] = float(frame.loc[s, q])
        reproduces = within == 2 * len(sizes)
        row.update({"within": int(within), "cells": 2 * len(sizes),
                    "verdict": "" if label.startswith("paper") else
                    ("this reading reproduces the numbers" if reproduces else "it does not")})
        table.append(row)
    return pd.DataFrame(table)


def _table11_counts(folds: pd.DataFrame, decide: Callable[[pd.DataFrame, str], int]) -> dict[str, tuple[int, int, int]]:
    """Per utility, (NCC wins, ties, NDC wins) over the datasets, each decided by ``decide(dataset folds, utility)``."""
    counts = {}
    for utility in ("u65", "f1", "u80"):
        signs = [decide(group, utility) for _, group in folds.groupby("dataset")]
        counts[utility] = (sum(s > 0 for s in signs), sum(s == 0 for s in signs), sum(s < 0 for s in signs))
    return counts


def _t_test_decision(alpha: float = 0.05, ratio: float | None = None, by_run: bool = False, run: int | None = None):
    from credalbook.stats import paired_t_test

    def decide(group: pd.DataFrame, utility: str) -> int:
        columns = [f"ncc_{utility}", f"ndc_{utility}"]
        scores = group[group["run"] == run] if run is not None else group
        if by_run:
            scores = scores.groupby("run")[columns].mean()
        test = paired_t_test(scores[columns[0]].to_numpy(), scores[columns[1]].to_numpy(), alpha, ratio)
        return 0 if not test.significant else int(np.sign(test.statistic))

    return decide


def _wilcoxon_decision(group: pd.DataFrame, utility: str) -> int:
    from credalbook.stats import wilcoxon_signed_rank

    a, b = group[f"ncc_{utility}"].to_numpy(), group[f"ndc_{utility}"].to_numpy()
    test = wilcoxon_signed_rank(a, b)
    return 0 if not test.significant else int(np.sign((a - b).mean()))


def _mean_sign(group: pd.DataFrame, utility: str) -> int:
    difference = group[f"ncc_{utility}"].mean() - group[f"ndc_{utility}"].mean()
    return 0 if abs(difference) < 1e-12 else int(np.sign(difference))


def table11_hypotheses(folds: pd.DataFrame, printed: pd.DataFrame | None = None,
                       appendix: dict[str, pd.DataFrame] | None = None) -> pd.DataFrame:
    """Table 11 (NCC vs NDC: wins, ties, losses over the datasets) under each reading, beside the printed one.

    ``folds``: the stored rows of ``zaffalon2012_ncc_uci``. Readings: the book's (plain paired
    t-test over the 100 folds, α = 0.05, no feature selection), the Nadeau–Bengio correction,
    α = 0.01, the t-test over the ten run means, over the ten folds of the first run only, the
    Wilcoxon test over the 100 folds, with CFS, no test at all (the side of the larger mean: an
    upper bound on the wins any test can give), and that bound with NCC's means taken from the
    paper's own Appendix A (``appendix``: utility -> the published table with columns ``name``
    and ``NCC``, percent; default Tables 14 and 15; F1 is not in the Appendix). One row per
    reading: ``u65``, ``f1``, ``u80`` as "NCC–ties–NDC", ``mean_abs_difference`` and
    ``exact`` (cells equal to the printed ones, of 9 or 6), ``ncc_higher_u65`` (datasets where
    NCC's mean is the higher), ``verdict``.
    """
    from credalbook.book.reference import published

    _require_columns(folds, "folds", ("dataset", "run", "fold", "feature_selection", "ncc_u65", "ndc_u65", "ncc_f1",
                                      "ndc_f1", "ncc_u80", "ndc_u80"))
    printed = published("zaffalon2012_ncc_table11") if printed is None else printed
    if appendix is None:
        appendix = {"u65": published("zaffalon2012_bench_table14"), "u80": published("zaffalon2012_bench_table15")}
    plain = folds[~folds["feature_selection"].astype(bool)]
    with_cfs = folds[folds["feature_selection"].astype(bool)]
    readings = [
        ("book: paired t-test over the 100 folds", "nothing (α = 0.05, no feature selection)", plain, _t_test_decision()),
        ("Nadeau–Bengio correction", "the t-test's variance times 1/100 + 1/9", plain, _t_test_decision(ratio=1 / 9)),
        ("α = 0.01", "a stricter level", plain, _t_test_decision(alpha=0.01)),
        ("t-test over the run means", "the ten runs' means as the pairs", plain, _t_test_decision(by_run=True)),
        ("first run only", "the ten folds of run 0 as the pairs", plain, _t_test_decision(run=0)),
        ("Wilcoxon over the folds", "the signed-rank test instead of the t-test", plain, _wilcoxon_decision),
        ("with CFS", "the folds after correlation-based feature selection", with_cfs, _t_test_decision()),
        ("no test", "the side of the larger mean (no ties): the most wins any test can give", plain, _mean_sign),
    ]
    paper = printed.set_index("utility")[["ncc_wins", "ties", "ndc_wins"]]
    rows = []
    for label, what, frame, decide in readings:
        counts = _table11_counts(frame, decide)
        rows.append((label, what, counts, int(frame["dataset"].nunique())))
    means = plain.groupby("dataset")[[f"{m}_{u}" for m in ("ncc", "ndc") for u in ("u65", "f1", "u80")]].mean()
    own, joined_datasets = {}, 0
    for utility, table in appendix.items():
        ncc = (pd.to_numeric(table["NCC"], errors="coerce") / 100).set_axis(table["name"].astype(str))
        joined = pd.DataFrame({"ncc": ncc, "ndc": means[f"ndc_{utility}"]}).dropna()
        difference = joined["ncc"] - joined["ndc"]
        own[utility] = (int((difference > 0).sum()), int((difference == 0).sum()), int((difference < 0).sum()))
        joined_datasets = max(joined_datasets, len(joined))
    rows.append(("no test, the paper's NCC", "NCC's means from the paper's Appendix A (Tables 14, 15) against "
                 "the book's NDC: the most NCC wins the book's NDC allows", own, joined_datasets))
    table = []
    for label, what, counts, datasets in rows:
        cells = [(u, column) for u in counts for column in ("ncc_wins", "ties", "ndc_wins")]
        values = {(u, column): counts[u][i] for u in counts for i, column in enumerate(("ncc_wins", "ties", "ndc_wins"))}
        differences = [abs(values[c] - int(paper.loc[c])) for c in cells]
        exact = sum(d == 0 for d in differences)
        row = {"reading": label, "what": what, "datasets": datasets}
        for utility in ("u65", "f1", "u80"):
            row[utility] = "–".join(str(v) for v in counts[utility]) if utility in counts else "not in the paper"
        row.update({"mean_abs_difference": float(np.mean(differences)), "exact": exact, "cells": len(cells),
                    "ncc_higher_u65": counts["u65"][0] if label.startswith("no test") else np.nan,
                    "verdict": "this reading reproduces the table" if exact == len(cells) else "it does not"})
        table.append(row)
    return pd.DataFrame(table)


# ----------------------------------------------------------------------------------------------
# The referees' audit: §9.4's cross-reference to §9.3
# ----------------------------------------------------------------------------------------------

def _compared_pair(table: pd.DataFrame) -> tuple[str, ...]:
    """The two classifiers a wins/ties/wins table compares, from its columns ``<classifier>_wins``."""
    return tuple(sorted(c[: -len("_wins")].upper() for c in table.columns if c.endswith("_wins")))


def _nbc_against_ndc(table: pd.DataFrame) -> dict:
    """Altered input: Table 11 as a comparison of NBC and NDC (its NCC column renamed)."""
    return {"table": table.rename(columns={"ncc_wins": "nbc_wins"})}


@check("zaffalon2012.ndc-comparison-reference", inputs={"table": _printed("zaffalon2012_ncc_table11")},
       mutate=_nbc_against_ndc)
def ndc_comparison_reference(table: pd.DataFrame, claim) -> Finding:
    """§9.4 names the comparison of §9.3 (the claim's ``published`` pair); §9.3's Table 11 compares the pair of
    its wins columns. The u65 → u80 improvement the sentence cites is Table 11's NDC wins."""
    compared = _compared_pair(table)
    named = tuple(sorted(str(claim.published).upper().replace(" AND ", ",").replace(" ", "").split(",")))
    rows = table.set_index("utility")
    detail = (f"Table 11 compares {' and '.join(compared)} (wins columns); NDC's wins go from "
              f"{int(rows.loc['u65', 'ndc_wins'])} at u65 to {int(rows.loc['u80', 'ndc_wins'])} at u80; "
              f"the sentence names {' and '.join(named)}")
    wrong = named != compared
    return Finding(book=" and ".join(compared), detail=detail, verdict="erratum" if wrong else "reproduced",
                   severity="misprint" if wrong else None)
