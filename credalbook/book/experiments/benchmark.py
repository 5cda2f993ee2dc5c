"""The credal classifier benchmark of Zaffalon, Corani & Mauá (2012), Section 9.2 and Appendix A.

Protocol (the paper's, with the book's choices where it is silent):

- datasets: every dataset of the paper's collection available in the mirror
  (:func:`credalbook.data.list_datasets`, ``group="zaffalon2012"``, ``in_paper``); connect-4 is
  missing from the mirror;
- ten runs of stratified ten-fold cross-validation, the folds of Part II
  (:func:`credalbook.book.experiments.protocols.stratified_folds`, seed 0, repeat = run);
- preprocessing fitted on each training fold only: MDL discretisation
  (:class:`credalbook.preprocessing.MDLDiscretizer`), then optionally CFS
  (:func:`credalbook.preprocessing.weka_cfs`: Weka's CfsSubsetEval + BestFirst defaults, as the paper ran them);
- ``splice``'s ``Instance_name`` (an identifier, 3178 values in 3190 rows) is dropped: the
  paper's NCC is 98.8% determinate there, impossible with it (the data registry drops it);
- classifiers: NBC (Laplace), NCC, LNCC, CMA, CDT with the IDM hyperparameter s = 1 and
  CMA's inclusion probabilities in [0.1, 0.9]; every class of the dataset is a column of the
  predicted sets even when a training fold misses it;
- CDT is also scored with Weka-IP's leaf convention (``CDT-weka``: a tie at the IDM interval
  boundary counts as dominance), from the same tree;
- per fold and classifier the rows store sums over the test instances (set size 1 count,
  discounted accuracy, u65, u80, accuracy of ``predict``) so that any aggregate can be
  recomputed; the tables of the paper are per-dataset means over all 100 folds, in percent.

The grid runs through :func:`credalbook.book.experiments.grid.run_grid`: ``backend="loky"`` locally,
``"dask"`` (or ``"ray"``) sends the same per-fold tasks to a cluster once a client exists.
"""
from __future__ import annotations

import time
from functools import lru_cache

import numpy as np
import pandas as pd

from credalbook._validation import check_scalar
from credalbook.classifiers.cma import CredalModelAveraging
from credalbook.classifiers.credal_tree import CredalDecisionTree
from credalbook.classifiers.lncc import LazyNaiveCredalClassifier
from credalbook.classifiers.naive_bayes import NaiveBayes
from credalbook.classifiers.ncc import NaiveCredalClassifier
from credalbook.book.experiments.protocols import stratified_folds
from credalbook.book.experiments.registry import Experiment, register
from credalbook.metrics import discounted_accuracy_scores, utility_discounted_accuracy_scores
from credalbook.preprocessing import MDLDiscretizer, missing_as_category, weka_cfs

__all__ = ["CREDAL", "CLASSIFIERS", "UTILITIES", "N_FOLDS", "NAME", "CI_DATASETS", "classifier",
           "available_datasets", "load_dataset", "fold_indices", "set_scores", "discretised_fold",
           "evaluate_fold", "RUNS", "BENCHMARK", "cost_order", "reproduce_incrementally",
           "MEASURES", "dataset_means", "wide", "fold_assignment_errors", "median_utilities",
           "median_determinacy", "rank_tables", "PER_DATASET_TABLES", "published_summaries",
           "lncc_neighbourhoods", "VARIANTS", "variant_scores", "ARMS", "QUANTITIES", "KINDS", "per_dataset_cells",
           "cause_of", "difference_kind", "causes_by_table", "plot_paper_vs_book", "paper_critical_difference",
           "plot_critical_differences", "friedman_summary", "mean_ranks_beside_paper", "plot_mean_ranks",
           "paper_cma_repeats", "cdt_leaf_rules",
           "plot_cdt_leaf_rules", "variants_beside_paper", "plot_variant_shifts", "classes_missing_features",
           "fold_seconds", "LEDGER_PAGES", "page_entries", "LNCC_READINGS", "lncc_readings"]

#: The credal classifiers compared in Zaffalon et al. (2012) §9.2.
CREDAL = ("NCC", "LNCC", "CMA", "CDT")
#: The classifiers of the benchmark, the naive Bayes reference first, then the credal ones.
CLASSIFIERS = ("NBC",) + CREDAL
#: The utility-discounted accuracies of the benchmark and their u(1/2) (Eq. 10 of the paper).
UTILITIES = {"u50": 0.5, "u65": 0.65, "u80": 0.8}
#: Folds of each cross-validation run.
N_FOLDS = 10
#: Name of the benchmark experiment (its stored rows and provenance).
NAME = "zaffalon2012_benchmark"

#: The datasets of the ci profile, small ones spanning two to four classes and the squash case
CI_DATASETS = ("contact-lenses", "iris", "squash-stored", "labor")


def classifier(name: str):
    """A fresh estimator for one of ``CLASSIFIERS`` with the paper's hyperparameters."""
    factories = {"NBC": NaiveBayes, "NCC": NaiveCredalClassifier, "LNCC": LazyNaiveCredalClassifier,
                 "CMA": CredalModelAveraging, "CDT": CredalDecisionTree}
    if name not in factories:
        raise ValueError(f"classifier must be one of {', '.join(CLASSIFIERS)}, got {name!r}")
    return factories[name]()


def available_datasets() -> tuple[str, ...]:
    """The paper's datasets that the mirror holds, in the mirror's order."""
    from credalbook.data import list_datasets

    table = list_datasets("zaffalon2012")
    return tuple(table.loc[table["in_paper"] & table["available"], "name"])


@lru_cache(maxsize=8)
def load_dataset(name: str, declared_classes: bool = False):
    """``(X, y, y_codes)`` of a dataset of the collection (see :func:`credalbook.data.load`)."""
    from credalbook.data import load

    dataset = load(name, group="zaffalon2012", declared_classes=declared_classes)
    return dataset.X, dataset.y, dataset.y_codes


def fold_indices(y_codes: np.ndarray, run: int, fold: int, n_folds: int = N_FOLDS):
    """(train, test) indices of fold ``fold`` of run ``run``: the folds of
    :func:`credalbook.book.experiments.protocols.stratified_folds` (seed 0, repeat ``run``), as in Part II."""
    if not 0 <= fold < n_folds:
        raise ValueError(f"fold must be in 0..{n_folds - 1}, got {fold}")
    folds = stratified_folds(y_codes, n_folds, seed=0, repeat=run)
    return np.flatnonzero(folds != fold), np.flatnonzero(folds == fold)


def set_scores(y_true: np.ndarray, sets: np.ndarray, single: np.ndarray) -> dict:
    """Sums over a fold's test instances: determinate count, u50/u65/u80 and accuracy of ``single``."""
    out = {"n_test": int(len(y_true)), "determinate": int((sets.sum(axis=1) == 1).sum())}
    out["u50"] = float(discounted_accuracy_scores(y_true, sets).sum())
    for key in ("u65", "u80"):
        out[key] = float(utility_discounted_accuracy_scores(y_true, sets, u=UTILITIES[key]).sum())
    out["correct"] = int((single == y_true).sum())
    return out


def discretised_fold(X: pd.DataFrame, y: pd.Series, train: np.ndarray, test: np.ndarray):
    """``(X_train, X_test)`` discretised by MDL fitted on the training rows only."""
    discretiser = MDLDiscretizer().fit(X.iloc[train], y.iloc[train])
    return discretiser.transform(X.iloc[train]), discretiser.transform(X.iloc[test])


def _fold_features(X: pd.DataFrame, y: pd.Series, train: np.ndarray, test: np.ndarray, cfs: bool):
    """The benchmark's features of one fold, ``(X_train, X_test, n_features)``: MDL fitted on the training
    fold (:func:`discretised_fold`), then, with ``cfs``, the attributes Weka's CFS selects there
    (:func:`credalbook.preprocessing.weka_cfs`); ``n_features`` counts them before the selection."""
    X_train, X_test = discretised_fold(X, y, train, test)
    n_features = X_train.shape[1]
    if cfs:
        support = weka_cfs().fit(X_train, y.iloc[train]).support_
        X_train, X_test = X_train.loc[:, support], X_test.loc[:, support]
    return X_train, X_test, n_features


def evaluate_fold(dataset: str, run: int, fold: int, cfs: bool, classifiers: tuple = CLASSIFIERS,
                  n_folds: int = N_FOLDS) -> pd.DataFrame:
    """Rows (one per classifier) of sums over the test instances of one fold (see the module docstring)."""
    X, y, codes = load_dataset(dataset)
    train, test = fold_indices(codes, run, fold, n_folds)
    X_train, X_test, n_features = _fold_features(X, y, train, test, cfs)
    rows = []
    for name in classifiers:
        start = time.perf_counter()
        model = classifier(name).fit(X_train, y.iloc[train])
        sets, single = model.predict_with_set(X_test)
        row = {"classifier": name, "n_features": int(X_train.shape[1]), "n_features_before": int(n_features)}
        row.update(set_scores(codes[test], sets, single))
        row["seconds"] = time.perf_counter() - start
        rows.append(row)
        if name == "CDT":  # the same tree with Weka-IP's leaf convention (no refit: leaves are decided at predict)
            model.set_params(tie_dominates=True)
            row = dict(row, classifier="CDT-weka", seconds=np.nan)
            row.update(set_scores(codes[test], *model.predict_with_set(X_test)))
            rows.append(row)
    return pd.DataFrame(rows)


#: Runs of 10-fold cross-validation (the paper's 10 x 10).
RUNS = 10


def _grid() -> list[dict]:
    """(dataset, cfs, run, fold): ten runs of ten-fold CV, with and without CFS, on the available datasets."""
    return [{"dataset": d, "cfs": c, "run": r, "fold": f}
            for d in available_datasets() for c in (False, True) for r in range(RUNS) for f in range(N_FOLDS)]


#: NBC, NCC, LNCC, CMA and CDT, 10 x 10 CV, MDL, with and without CFS (Zaffalon et al. 2012, §9.2).
BENCHMARK = register(Experiment(
    name=NAME,
    description="Zaffalon et al. (2012) §9.2: NBC, NCC, LNCC, CMA, CDT, 10x10 CV, MDL, with and without CFS",
    task=evaluate_fold,
    grid=_grid,
    ci=lambda config: config["dataset"] in CI_DATASETS and config["run"] == 0 and config["fold"] < 3,
    keys=("dataset", "cfs", "run", "fold", "classifier"),
    values=("n_test", "determinate", "u50", "u65", "u80", "correct"),  # not the timings
    atol=1e-6,
    version="1",
))


def cost_order(datasets) -> list[str]:
    """Datasets from the cheapest to the dearest (rows x features), the order of :func:`reproduce_incrementally`."""
    from credalbook.data import list_datasets

    table = list_datasets("zaffalon2012").set_index("name")
    size = {d: float(table.loc[d, "n_rows"]) * float(table.loc[d, "n_features"]) for d in datasets}
    return sorted(datasets, key=size.get)


def reproduce_incrementally(stop_at: float | None = None, n_jobs: int = 2, backend: str = "loky") -> pd.DataFrame:
    """Run the full profile run by run (cheapest datasets first), storing the rows after each dataset.

    The stored table always holds whole (dataset, run) blocks; when ``stop_at`` (a
    ``time.time()`` value) passes, no new block starts and the provenance profile reads
    ``full-partial``. Per-fold results are cached, so a restart resumes where it stopped; the
    provenance note then says how many folds were read from the cache.
    """
    from credalbook.book.experiments.grid import cache_tally
    from credalbook.book.experiments.store import save_results

    start = time.perf_counter()
    order = cost_order(available_datasets())
    grid = BENCHMARK.grid()
    frames, total = [], RUNS * len(order)
    with cache_tally() as tally:
        for run in range(RUNS):
            for dataset in order:
                if stop_at is not None and time.time() > stop_at:
                    break
                block = [c for c in grid if c["dataset"] == dataset and c["run"] == run]
                frames.append(BENCHMARK.run_configs(block, backend=backend, n_jobs=n_jobs, progress=False))
                rows = pd.concat(frames, ignore_index=True)
                profile = "full" if len(frames) == total else "full-partial"
                note = f"{tally.note()} The folds' own fit-and-predict times sum to {rows['seconds'].sum() / 3600:.1f} CPU hours."
                save_results(rows, NAME, profile=profile, runtime_seconds=time.perf_counter() - start, note=note.strip(),
                             cache=(tally.cells, tally.cached))
    return pd.concat(frames, ignore_index=True)


# ----------------------------------------------------------------------------------------------
# aggregates: the paper's tables
# ----------------------------------------------------------------------------------------------
#: The measures of the paper's summary tables, in their order.
MEASURES = ("determinacy", "u50", "u65", "u80", "accuracy")


def dataset_means(rows: pd.DataFrame) -> pd.DataFrame:
    """Per (cfs, dataset, classifier): determinacy, u50, u65, u80, accuracy in percent, pooled over folds."""
    needed = {"cfs", "dataset", "classifier", "n_test", "determinate", "u50", "u65", "u80", "correct"}
    missing = needed - set(rows.columns)
    if missing:
        raise ValueError(f"rows lack columns {sorted(missing)}")
    sums = rows.groupby(["cfs", "dataset", "classifier"], sort=False)[
        ["n_test", "determinate", "u50", "u65", "u80", "correct"]].sum()
    out = pd.DataFrame({"determinacy": sums["determinate"], "u50": sums["u50"], "u65": sums["u65"],
                        "u80": sums["u80"], "accuracy": sums["correct"]}).div(sums["n_test"], axis=0) * 100
    out["folds"] = rows.groupby(["cfs", "dataset", "classifier"], sort=False).size()
    return out.reset_index()


def wide(means: pd.DataFrame, measure: str, cfs: bool, classifiers=CREDAL) -> pd.DataFrame:
    """Datasets x classifiers table of one measure (the layout of Tables 12-15), column ``name`` first."""
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {', '.join(MEASURES)}, got {measure!r}")
    sub = means[means["cfs"] == cfs]
    table = sub.pivot(index="dataset", columns="classifier", values=measure)
    table = table.reindex(columns=list(classifiers)).dropna(how="any")
    order = [d for d in dict.fromkeys(sub["dataset"]) if d in table.index]
    return table.loc[order].rename_axis(columns=None).reset_index().rename(columns={"dataset": "name"})


def fold_assignment_errors(rows: pd.DataFrame) -> pd.DataFrame:
    """Standard error (%) of each per-dataset mean over fold assignments: the spread of the runs' means / sqrt(runs).

    One row per (cfs, dataset, classifier), columns determinacy, u50, u65, u80: how far the
    luck of the ten fold assignments alone can move a cell of Tables 12–19.
    """
    sums = rows.groupby(["cfs", "dataset", "classifier", "run"], sort=False)[
        ["n_test", "determinate", "u50", "u65", "u80"]].sum()
    runs = pd.DataFrame({"determinacy": sums["determinate"], **{u: sums[u] for u in UTILITIES}}).div(
        sums["n_test"], axis=0) * 100
    grouped = runs.groupby(level=["cfs", "dataset", "classifier"], sort=False)
    return (grouped.std() / np.sqrt(grouped.size().to_numpy()[:, None])).reset_index()


def median_utilities(means: pd.DataFrame, cfs: bool) -> pd.DataFrame:
    """Tables 4 and 8: median over datasets of the expected utility (as a fraction), rows u50, u65, u80."""
    rows = []
    for key in UTILITIES:
        medians = wide(means, key, cfs).drop(columns="name").median() / 100
        rows.append({"utility": key, **medians.to_dict()})
    return pd.DataFrame(rows)


def median_determinacy(means: pd.DataFrame, cfs: bool) -> pd.DataFrame:
    """Tables 5 and 7: median determinacy (%) over datasets."""
    medians = wide(means, "determinacy", cfs).drop(columns="name").median()
    return pd.DataFrame([{"quantity": "median determinacy (%)", **medians.to_dict()}])


def rank_tables(means: pd.DataFrame, cfs: bool, alpha: float = 0.05) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tables 6 and 9 (mean ranks per utility) and the Friedman test + Nemenyi CD per utility."""
    from credalbook.stats import friedman_test, mean_ranks, nemenyi_critical_difference

    ranks, tests = [], []
    for key in UTILITIES:
        scores = wide(means, key, cfs).set_index("name")
        ranks.append({"utility": key, **mean_ranks(scores).to_dict()})
        result = friedman_test(scores, alpha)
        tests.append({"utility": key, "datasets": len(scores), "friedman_chi2": result.statistic,
                      "p_value": result.pvalue, "significant": result.significant,
                      "critical_difference": nemenyi_critical_difference(scores.shape[1], len(scores), alpha)})
    return pd.DataFrame(ranks), pd.DataFrame(tests)


#: The paper's per-dataset tables (Appendix, Tables 12-19), by CFS arm and measure.
PER_DATASET_TABLES = {False: {"determinacy": 12, "u50": 13, "u65": 14, "u80": 15},
                      True: {"determinacy": 16, "u50": 17, "u65": 18, "u80": 19}}


def published_summaries(cfs: bool) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Medians (Tables 4/8 layout) and mean ranks (Tables 6/9) recomputed from the paper's per-dataset tables.

    A check of the transcription (and of the paper's own arithmetic): missing cells are left
    out of the medians and ranks.
    """
    from credalbook.book.reference import published
    from credalbook.stats import mean_ranks

    medians, ranks = [], []
    for key in UTILITIES:
        table = published(f"zaffalon2012_bench_table{PER_DATASET_TABLES[cfs][key]}").set_index("name")[list(CREDAL)]
        medians.append({"utility": key, **(table.median() / 100).to_dict()})
        ranks.append({"utility": key, **mean_ranks(table.dropna()).to_dict()})
    return pd.DataFrame(medians), pd.DataFrame(ranks)


def lncc_neighbourhoods(dataset: str, run: int = 0, fold: int = 0, n_test: int | None = 200,
                        few: int = 5) -> dict:
    """Why LNCC answers with a set: the final neighbourhoods of (the first ``n_test``) test instances of one fold.

    LNCC is fitted as in the benchmark (MDL on the training fold, no CFS). Returns the number
    of features, the determinacy, the median radius of the final overlap-distance ball and its
    median size, and, over the indeterminate instances, the share of sets holding a class with
    at most ``few`` training instances in the ball and the share holding a class absent from it.
    """
    if n_test is not None:
        check_scalar(n_test, "n_test", low=1, integer=True)
    check_scalar(few, "few", low=0, integer=True)
    X, y, codes = load_dataset(dataset)
    train, test = fold_indices(codes, run, fold)
    test = test[:n_test]
    X_train, X_test = discretised_fold(X, y, train, test)
    model = LazyNaiveCredalClassifier().fit(X_train, y.iloc[train])
    sets = model.predict_set(X_test)
    radius, class_counts = model.neighbourhood(X_test)
    open_ = sets.sum(axis=1) > 1
    smallest_member = np.where(sets, class_counts, np.iinfo(np.int64).max).min(axis=1)[open_]
    return {"dataset": dataset, "features": X_test.shape[1], "test instances": len(test),
            "determinacy (%)": 100 * float((~open_).mean()), "median radius": float(np.median(radius)),
            "median ball size": float(np.median(class_counts.sum(axis=1))),
            f"sets with a class of <= {few} in the ball (%)": 100 * float((smallest_member <= few).mean())
            if open_.any() else np.nan,
            "sets with a class absent from the ball (%)": 100 * float((smallest_member == 0).mean())
            if open_.any() else np.nan}


#: Variants of the benchmark's data handling for the chapter's diagnostics (keep the classes that
#: the file declares but the data never show (Weka's convention), code missing values as a value,
#: read numeric attributes as nominal, as Weka's own monks files declare them, or, with CFS,
#: select the features once on the whole data set instead of on each training fold).
VARIANTS = {"as in the benchmark": {},
            "missing as a value": {"missing_as_value": True},
            "declared classes kept": {"declared_classes": True},
            "numeric attributes nominal": {"numeric_as_nominal": True},
            "CFS on the whole data set": {"cfs_on_whole_data": True}}


def _numeric_as_nominal(X: pd.DataFrame) -> pd.DataFrame:
    """``X`` with every numeric column a Categorical of its values (MDL then leaves it as it is)."""
    return X.apply(lambda column: column if isinstance(column.dtype, pd.CategoricalDtype) else pd.Categorical(column))


def variant_scores(dataset: str, variants=("as in the benchmark", "missing as a value"),
                   classifiers: tuple = ("NCC", "CDT"), run: int = 0, cfs: bool = False) -> pd.DataFrame:
    """Classifiers over the ten folds of one run under variants of the data handling (:data:`VARIANTS`).

    The benchmark keeps the classes present in the data and each classifier's own treatment of
    missing values: NCC and LNCC take them as missing at random (NCC2), CDT keeps them in the
    node without sending them down (:class:`~credalbook.classifiers.CredalDecisionTree`). Folds are the
    benchmark's; ``cfs`` selects features as the benchmark's CFS arm does (:func:`~credalbook.preprocessing.weka_cfs`
    on each training fold, or once on the whole data set under ``"CFS on the whole data set"``).
    Returns one row per (classifier, variant): determinacy, u50, u65, u80 (%), pooled over the folds.
    """
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        raise ValueError(f"variants must be among {list(VARIANTS)}, got {unknown}")
    if not cfs and any(VARIANTS[v].get("cfs_on_whole_data") for v in variants):
        raise ValueError("the variant 'CFS on the whole data set' needs cfs=True")
    folds = [fold_indices(load_dataset(dataset)[2], run, fold) for fold in range(N_FOLDS)]
    totals = {}
    for variant in variants:
        options = VARIANTS[variant]
        X, y, codes = load_dataset(dataset, options.get("declared_classes", False))
        if options.get("numeric_as_nominal", False):
            X = _numeric_as_nominal(X)
        recode = missing_as_category if options.get("missing_as_value", False) else (lambda frame: frame)
        whole_data_support = None
        if options.get("cfs_on_whole_data", False):
            everything = np.arange(len(y))
            whole_data_support = weka_cfs().fit(discretised_fold(X, y, everything, everything)[0], y).support_
        for train, test in folds:
            X_train, X_test = (recode(part) for part in discretised_fold(X, y, train, test))
            if cfs:
                support = (whole_data_support if whole_data_support is not None
                           else weka_cfs().fit(X_train, y.iloc[train]).support_)
                X_train, X_test = X_train.loc[:, support], X_test.loc[:, support]
            for name in classifiers:
                sets, single = classifier(name).fit(X_train, y.iloc[train]).predict_with_set(X_test)
                key = (name, variant)
                totals[key] = {k: totals.get(key, {}).get(k, 0) + v for k, v in set_scores(codes[test], sets, single).items()}
    rows = [{"dataset": dataset, "classifier": name, "variant": variant,
             "determinacy": 100 * t["determinate"] / t["n_test"], **{u: 100 * t[u] / t["n_test"] for u in UTILITIES}}
            for (name, variant), t in totals.items()]
    return pd.DataFrame(rows)


#: Readings of LNCC's choices that the paper leaves open (it only says "implementations available in
#: Weka-IP", §9.2), as keyword arguments of :class:`~credalbook.classifiers.lncc.LazyNaiveCredalClassifier`:
#: the benchmark's (25 nearest, +20 at most 50 times, s = 1); Weka-IP's ``LocalCredal`` loop, which
#: grows the ball at most 49 times (``counter < maxTrials`` with ``counter`` from 1); the ball grown
#: until the answer is determinate or the whole training fold is used (``max_steps="whole fold"``);
#: the IDM with s = 0.5.
LNCC_READINGS = {"as in the benchmark": {},
                 "Weka-IP's 49 growths": {"max_steps": 49},
                 "grown to the whole fold": {"max_steps": "whole fold"},
                 "s = 0.5": {"s": 0.5}}


def lncc_readings(dataset: str, readings=("as in the benchmark",), run: int = 0, folds=range(N_FOLDS),
                  cfs: bool = False) -> pd.DataFrame:
    """LNCC over folds ``folds`` of run ``run`` under readings of its unstated choices (:data:`LNCC_READINGS`).

    Folds, MDL and (with ``cfs``) CFS are the benchmark's; ``readings`` are names of
    :data:`LNCC_READINGS` or ``{name: keyword arguments}``; ``max_steps="whole fold"`` lets the
    ball grow until it holds the whole training fold. Returns one row per reading:
    determinacy, u50, u65, u80 and accuracy (%) pooled over the folds, the folds and the seconds
    LNCC took (fit and predict).
    """
    if isinstance(readings, dict):
        chosen = dict(readings)
    else:
        unknown = [r for r in readings if r not in LNCC_READINGS]
        if unknown:
            raise ValueError(f"readings must be among {list(LNCC_READINGS)} or a dict, got {unknown}")
        chosen = {r: LNCC_READINGS[r] for r in readings}
    folds = list(folds)
    if not folds or any(not 0 <= f < N_FOLDS for f in folds):
        raise ValueError(f"folds must be a non-empty selection of 0..{N_FOLDS - 1}, got {folds}")
    X, y, codes = load_dataset(dataset)
    totals = {name: {} for name in chosen}
    seconds = dict.fromkeys(chosen, 0.0)
    for fold in folds:
        train, test = fold_indices(codes, run, fold)
        X_train, X_test, _ = _fold_features(X, y, train, test, cfs)
        for name, options in chosen.items():
            options = dict(options)
            if options.get("max_steps") == "whole fold":
                k_start, k_step = options.get("k_start", 25), options.get("k_step", 20)
                options["max_steps"] = max(0, -(-(len(train) - k_start) // k_step))
            start = time.perf_counter()
            model = LazyNaiveCredalClassifier(**options).fit(X_train, y.iloc[train])
            sets, single = model.predict_with_set(X_test)
            seconds[name] += time.perf_counter() - start
            scores = set_scores(codes[test], sets, single)
            totals[name] = {k: totals[name].get(k, 0) + v for k, v in scores.items()}
    rows = [{"dataset": dataset, "reading": name, "determinacy": 100 * t["determinate"] / t["n_test"],
             **{u: 100 * t[u] / t["n_test"] for u in UTILITIES}, "accuracy": 100 * t["correct"] / t["n_test"],
             "folds": len(folds), "seconds": seconds[name]} for name, t in totals.items()]
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------------------------
# For the chapters of Part III: summaries and figures (nothing here is stored or judged)
# ----------------------------------------------------------------------------------------------
#: How the chapters name the two arms of the benchmark and the quantities of the per-dataset tables.
ARMS = {False: "without CFS", True: "with CFS"}
#: The column titles of the per-dataset tables' quantities.
QUANTITIES = {"determinacy": "determinacy (%)", "u50": "u50 (%)", "u65": "u65 (%)", "u80": "u80 (%)"}
#: The three kinds of a judged cell in the paper-vs-book figures.
KINDS = ("within tolerance", "beyond, cause measured", "beyond, not explained")


def per_dataset_cells(cfs: bool) -> pd.DataFrame:
    """Every printed cell of Tables 12–15 (``cfs=False``) or 16–19 beside the book's, as the ledger judges it.

    :func:`credalbook.book.ledger.core.judged_cells` of the four tables (``measure`` is the classifier),
    with ``table`` (its number) and ``quantity`` (determinacy, u50, u65, u80) added.
    """
    from credalbook.book.ledger.core import judged_cells

    frames = []
    for quantity, number in PER_DATASET_TABLES[bool(cfs)].items():
        cells = judged_cells(f"zaffalon2012_bench_table{number}")
        frames.append(cells.assign(table=number, quantity=quantity))
    return pd.concat(frames, ignore_index=True)


def cause_of(why: str) -> str:
    """The short name of the cause a source record gives a cell (the text before its first colon).

    ``""`` (no explanation) and the records' "not explained: ..." both read ``"not explained"``.
    """
    text = "" if why is None or (isinstance(why, float) and np.isnan(why)) else str(why).strip()
    head = text.split(":", 1)[0].strip() if ":" in text else text
    return "not explained" if not head or head == "not explained" else head


def difference_kind(cells: pd.DataFrame) -> pd.Series:
    """Each judged cell as one of :data:`KINDS`, or ``"not checkable"`` when the book has no value.

    A cell is beyond its tolerance when the ledger's verdict is ``not reproduced``, ``partly`` or
    ``erratum``, or when ``|book − paper|`` exceeds the tolerance (as :func:`credalbook.book.tables.comparison`
    marks it); it is then explained when its source record names a cause (:func:`cause_of`).
    """
    missing = {"book", "difference", "tolerance", "verdict", "why"} - set(cells.columns)
    if missing:
        raise ValueError(f"cells lack columns {sorted(missing)}")
    beyond = cells["verdict"].isin(["not reproduced", "partly", "erratum"]).to_numpy() | (
        cells["difference"].abs().to_numpy() > cells["tolerance"].to_numpy() + 1e-12)
    explained = np.array([cause_of(w) != "not explained" for w in cells["why"]])
    kind = np.where(~beyond, KINDS[0], np.where(explained, KINDS[1], KINDS[2]))
    kind = np.where(cells["book"].isna().to_numpy(), "not checkable", kind)
    return pd.Series(kind, index=cells.index, name="kind")


def causes_by_table(cells: pd.DataFrame) -> pd.DataFrame:
    """Cells beyond their tolerance counted by cause (rows) and table (columns), with a total column."""
    beyond = cells[difference_kind(cells).isin(KINDS[1:])]
    grid = pd.crosstab(beyond["why"].map(cause_of).rename("cause"), beyond["table"].rename("table"))
    grid.columns = [f"Table {c}" for c in grid.columns]
    grid["all"] = grid.sum(axis=1)
    return grid.sort_values("all", ascending=False)


def _kind_styles():
    from credalbook.style import COLOURS

    return {KINDS[0]: dict(color="#9a9a9a", marker="o", s=12, alpha=0.7, linewidths=0),
            KINDS[1]: dict(color=COLOURS[0], marker="o", s=20, linewidths=0),
            KINDS[2]: dict(color=COLOURS[1], marker="X", s=30, linewidths=0)}


def plot_paper_vs_book(cells: pd.DataFrame, *, limits=(0.0, 100.0), title: str = ""):
    """Paper (x) against book (y) for every cell of a family of per-dataset tables, faceted
    quantity (rows) x classifier (columns), coloured by :func:`difference_kind`.

    The diagonal and the band of ± the cells' tolerance are drawn; cells the book cannot check
    are left out. ``cells`` is :func:`per_dataset_cells`. Returns the figure (column width).
    """
    import matplotlib.pyplot as plt

    from credalbook.style import COLUMN_WIDTH

    kinds = difference_kind(cells)
    data = cells.assign(kind=kinds)[kinds != "not checkable"]
    quantities = [q for q in QUANTITIES if q in set(data["quantity"])]
    classifiers = [c for c in CREDAL if c in set(data["measure"])]
    figure, axes = plt.subplots(len(quantities), len(classifiers), sharex=True, sharey=True, squeeze=False,
                                layout="constrained",
                                figsize=(COLUMN_WIDTH, 1.5 * len(quantities) + 0.9))
    low, high = limits
    band = float(data["tolerance"].max()) if len(data) else 0.0
    styles = _kind_styles()
    for i, quantity in enumerate(quantities):
        for j, name in enumerate(classifiers):
            ax = axes[i, j]
            ax.plot([low, high], [low, high], color="black", lw=0.8)
            ax.fill_between([low, high], [low - band, high - band], [low + band, high + band], color="#e8e8e8", lw=0)
            panel = data[(data["quantity"] == quantity) & (data["measure"] == name)]
            for kind, style in styles.items():
                part = panel[panel["kind"] == kind]
                ax.scatter(part["paper"], part["book"], label=kind, **style)
            pad = 0.04 * (high - low)  # points on the edges (100 % determinacy) stay whole
            ax.set_xlim(low - pad, high + pad)
            ax.set_ylim(low - pad, high + pad)
            ax.set_aspect("equal")
            ax.set_xticks([low, (low + high) / 2, high])
            ax.set_yticks([low, (low + high) / 2, high])
            if i == 0:
                ax.set_title(name)
            if j == 0:
                ax.set_ylabel(f"{QUANTITIES[quantity]}\nbook")
            if i == len(quantities) - 1:
                ax.set_xlabel("paper")
    figure.get_layout_engine().set(wspace=0.08)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside upper center", ncol=3, markerscale=1.4)
    if title:
        figure.suptitle(title)
    return figure


def paper_critical_difference(cfs: bool = False, utility: str = "u50", alpha: float = 0.05):
    """The paper's critical-difference diagram (Fig. 6 for u50 without CFS) from its printed mean
    ranks (Table 6, or Table 9 with CFS) and the Nemenyi critical difference for its 55 datasets."""
    from credalbook.display import CriticalDifferenceDisplay
    from credalbook.book.reference import published
    from credalbook.stats import nemenyi_critical_difference

    if utility not in UTILITIES:
        raise ValueError(f"utility must be one of {', '.join(UTILITIES)}, got {utility!r}")
    table = published(f"zaffalon2012_bench_table{9 if cfs else 6}").set_index("utility")
    ranks = table.loc[utility, list(CREDAL)].astype(float)
    n_datasets = len(published(f"zaffalon2012_bench_table{PER_DATASET_TABLES[bool(cfs)][utility]}"))
    return CriticalDifferenceDisplay(ranks, nemenyi_critical_difference(len(CREDAL), n_datasets, alpha), np.nan)


def plot_critical_differences(displays: dict):
    """Critical-difference diagrams stacked at the column width, one per ``{title: display}``.

    Each :class:`~credalbook.display.CriticalDifferenceDisplay` draws on its own row; its
    classifier labels get a white background so that their leader lines stop at the label.
    """
    import matplotlib.pyplot as plt

    from credalbook.style import COLUMN_WIDTH

    k = max(len(d.ranks) for d in displays.values())
    figure, axes = plt.subplots(len(displays), 1, squeeze=False, layout="constrained",
                                figsize=(COLUMN_WIDTH, (1.2 + 0.36 * k) * len(displays)))
    for ax, (title, display) in zip(axes[:, 0], displays.items()):
        display.plot(ax=ax)
        ax.set_title(title, loc="left")
        for text in ax.texts:
            if text.get_text().endswith(")"):
                text.set_bbox({"facecolor": "white", "edgecolor": "none", "pad": 1.5})
    return figure


def friedman_summary(means: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """The Friedman test and the Nemenyi critical difference per arm and utility (the book's, over its datasets)."""
    frames = []
    for cfs, arm in ARMS.items():
        tests = rank_tables(means, cfs, alpha)[1]
        frames.append(tests.assign(arm=arm))
    out = pd.concat(frames, ignore_index=True)
    return out[["arm", "utility", "datasets", "friedman_chi2", "p_value", "significant", "critical_difference"]]


def mean_ranks_beside_paper(means: pd.DataFrame) -> pd.DataFrame:
    """Mean ranks of Tables 6 and 9, the paper's and the book's: one row per (arm, utility, classifier)."""
    from credalbook.book.reference import published

    rows = []
    for cfs, arm in ARMS.items():
        book = rank_tables(means, cfs)[0].set_index("utility")
        paper = published(f"zaffalon2012_bench_table{9 if cfs else 6}").set_index("utility")
        for utility in UTILITIES:
            for name in CREDAL:
                rows.append({"arm": arm, "utility": utility, "classifier": name,
                             "paper": float(paper.loc[utility, name]), "book": float(book.loc[utility, name])})
    return pd.DataFrame(rows)


def plot_mean_ranks(ranks: pd.DataFrame, critical_difference: float):
    """Mean ranks, paper (open) and book (filled), faceted arm (rows) x utility (columns).

    A bar of length ``critical_difference`` starts at the book's best rank in each panel: a
    classifier beyond its end is significantly worse than the best (Nemenyi, Demšar 2006).
    ``ranks`` is :func:`mean_ranks_beside_paper`.
    """
    import matplotlib.pyplot as plt

    from credalbook.style import COLOURS, COLUMN_WIDTH

    arms = list(dict.fromkeys(ranks["arm"]))
    utilities = list(dict.fromkeys(ranks["utility"]))
    figure, axes = plt.subplots(len(arms), len(utilities), sharex=True, sharey=True, squeeze=False,
                                layout="constrained",
                                figsize=(COLUMN_WIDTH, 1.3 + 1.45 * len(arms)))
    names = list(CREDAL)
    for i, arm in enumerate(arms):
        for j, utility in enumerate(utilities):
            ax = axes[i, j]
            panel = ranks[(ranks["arm"] == arm) & (ranks["utility"] == utility)].set_index("classifier").loc[names]
            y = np.arange(len(names))
            best = float(panel["book"].min())
            ax.axvspan(best, best + critical_difference, color="#eeeeee", lw=0)
            ax.hlines(y, panel["paper"], panel["book"], color="#bbbbbb", lw=1)
            ax.scatter(panel["paper"], y, facecolors="white", edgecolors=COLOURS[1], s=36, label="paper", zorder=3)
            ax.scatter(panel["book"], y, color=COLOURS[0], s=30, label="book", zorder=3)
            ax.set_yticks(y, names)
            ax.set_xlim(1.5, 3.5)
            ax.invert_yaxis()
            ax.grid(axis="y", visible=False)
            if i == 0:
                ax.set_title(utility)
            if j == 0:
                ax.set_ylabel(arm)
            if i == len(arms) - 1:
                ax.set_xlabel("mean rank")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    handles.append(plt.Rectangle((0, 0), 1, 1, color="#eeeeee"))
    labels.append("within one critical difference of the book's best")
    figure.legend(handles, labels, loc="outside upper center", ncol=3)
    return figure


def paper_cma_repeats() -> tuple[int, int]:
    """(identical, legible) pairs of the paper's CMA cells with and without CFS, over Tables 12–15 / 16–19."""
    from credalbook.book.reference import published

    same = legible = 0
    for measure, plain in PER_DATASET_TABLES[False].items():
        a = published(f"zaffalon2012_bench_table{plain}").set_index("name")["CMA"]
        b = published(f"zaffalon2012_bench_table{PER_DATASET_TABLES[True][measure]}").set_index("name")["CMA"]
        a, b = a.align(b, join="inner")
        both = a.notna() & b.notna()
        same += int((a[both] == b[both]).sum())
        legible += int(both.sum())
    return same, legible


def cdt_leaf_rules(means: pd.DataFrame, measure: str = "determinacy", cfs: bool = False) -> pd.DataFrame:
    """CDT per dataset: the paper's value (Table 12 for determinacy), the book's tree under the
    strict leaf rule (``CDT``) and under Weka-IP's (``CDT-weka``); datasets the paper prints only."""
    from credalbook.book.reference import published

    book = wide(means, measure, cfs, classifiers=("CDT", "CDT-weka")).set_index("name")
    paper = published(f"zaffalon2012_bench_table{PER_DATASET_TABLES[bool(cfs)][measure]}").set_index("name")["CDT"]
    out = pd.DataFrame({"paper": paper}).join(book.rename(columns={"CDT": "strict rule", "CDT-weka": "Weka-IP's rule"}),
                                              how="inner")
    return out.dropna().rename_axis("name").reset_index()


def plot_cdt_leaf_rules(frame: pd.DataFrame, band: float = 5.0, label: str = "CDT determinacy (%)"):
    """Paper (x) against the book's CDT under each leaf rule (one panel each), the ± ``band`` strip shaded."""
    import matplotlib.pyplot as plt

    from credalbook.style import COLOURS, COLUMN_WIDTH

    rules = [c for c in frame.columns if c not in ("name", "paper")]
    figure, axes = plt.subplots(1, len(rules), sharex=True, sharey=True, squeeze=False, layout="constrained",
                                figsize=(COLUMN_WIDTH, 0.6 + COLUMN_WIDTH / len(rules)))
    low = float(np.floor(min(frame["paper"].min(), frame[rules].min().min()) / 10) * 10)
    for ax, rule in zip(axes[0], rules):
        within = (frame[rule] - frame["paper"]).abs() <= band
        ax.plot([low, 100], [low, 100], color="black", lw=0.8)
        ax.fill_between([low, 100], [low - band, 100 - band], [low + band, 100 + band], color="#e8e8e8", lw=0)
        ax.scatter(frame.loc[within, "paper"], frame.loc[within, rule], color="#9a9a9a", s=16,
                   label=f"within {band:g} points")
        ax.scatter(frame.loc[~within, "paper"], frame.loc[~within, rule], color=COLOURS[1], marker="X", s=30,
                   label=f"more than {band:g} points away")
        ax.set_xlim(low - 1.5, 101.5)
        ax.set_ylim(low - 1.5, 101.5)
        ax.set_aspect("equal")
        ax.set_title(f"book, {rule} ({int(within.sum())} of {len(frame)} within)")
        ax.set_xlabel(f"paper, {label}")
    axes[0, 0].set_ylabel(f"book, {label}")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside upper center", ncol=2)
    return figure


def variants_beside_paper(scores: pd.DataFrame, cfs: bool = False) -> pd.DataFrame:
    """:func:`variant_scores` rows with the paper's determinacy, u50, u65 and u80 of the same
    classifier and dataset (Tables 12–15, or 16–19 with ``cfs``) in columns ``<measure> (paper)``."""
    from credalbook.book.reference import published

    out = scores.copy()
    for measure, number in PER_DATASET_TABLES[bool(cfs)].items():
        paper = published(f"zaffalon2012_bench_table{number}").set_index("name")
        out[f"{measure} (paper)"] = [float(paper.loc[d, c]) if d in paper.index else np.nan
                                     for d, c in zip(out["dataset"], out["classifier"])]
    return out


def plot_variant_shifts(panels: list[tuple[str, pd.DataFrame, str]]):
    """How a data convention moves the book's scores towards the paper's: one panel per
    ``(title, frame, measure)``, one line per (classifier, dataset) from the benchmark's value
    (open circle) to the variant's (filled), with the paper's value (cross).

    Each ``frame`` is :func:`variants_beside_paper` of two variants, ``"as in the benchmark"`` and
    another.
    """
    import matplotlib.pyplot as plt

    from credalbook.style import COLOURS, COLUMN_WIDTH

    heights = [frame.groupby(["classifier", "dataset"]).ngroups for _, frame, _ in panels]
    figure, axes = plt.subplots(len(panels), 1, squeeze=False, gridspec_kw={"height_ratios": heights},
                                layout="constrained",
                                figsize=(COLUMN_WIDTH, 0.9 + 0.27 * sum(heights) + 0.55 * len(panels)))
    for ax, (title, frame, measure), n in zip(axes[:, 0], panels, heights):
        variant = next(v for v in dict.fromkeys(frame["variant"]) if v != "as in the benchmark")
        table = frame.pivot_table(index=["classifier", "dataset"], columns="variant", values=measure, sort=False)
        paper = frame.groupby(["classifier", "dataset"], sort=False)[f"{measure} (paper)"].first()
        y = np.arange(n)
        ax.hlines(y, table["as in the benchmark"], table[variant], color="#bbbbbb", lw=1.2)
        ax.scatter(table["as in the benchmark"], y, facecolors="white", edgecolors=COLOURS[0], s=34, zorder=3,
                   label="book, as in the benchmark")
        ax.scatter(table[variant], y, color=COLOURS[0], s=30, zorder=3, label=f"book, variant")
        ax.scatter(paper.loc[table.index], y, color=COLOURS[1], marker="x", s=40, zorder=4, label="paper")
        ax.set_yticks(y, [f"{c}, {d}" for c, d in table.index])
        ax.invert_yaxis()
        ax.grid(axis="y", visible=False)
        ax.set_title(title, loc="left")
        ax.set_xlabel(QUANTITIES.get(measure, measure))
    handles, labels = axes[0, 0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside upper center", ncol=3)
    return figure


def classes_missing_features(dataset: str) -> pd.Series:
    """Per class of ``dataset``: how many features it never observes (missing in all its instances)."""
    X, y, _ = load_dataset(dataset)
    return X.isna().groupby(y.to_numpy()).all().sum(axis=1).rename("features never observed")


def fold_seconds(rows: pd.DataFrame) -> pd.DataFrame:
    """Mean fit-and-predict seconds per fold: datasets (rows, cheapest first) x classifiers of :data:`CLASSIFIERS`."""
    timed = rows[rows["classifier"].isin(CLASSIFIERS)]
    table = timed.groupby(["dataset", "classifier"])["seconds"].mean().unstack()[list(CLASSIFIERS)]
    return table.loc[cost_order(list(table.index))]


#: The tables of the paper whose cells each page of Part III shows (the claims of §9.2 go on the summary page)
LEDGER_PAGES = {"chapters/benchmark/credal_comparison": (4, 5, 6, 7, 8, 9),
                "chapters/benchmark/per_dataset": (12, 13, 14, 15, 16, 17, 18, 19),
                "chapters/benchmark/differences": ()}


def page_entries(page: str, entries: pd.DataFrame | None = None) -> pd.DataFrame:
    """The ledger's entries on Zaffalon et al. (2012) §9.2 and Appendix A that ``page`` shows, filed under ``page``.

    The ledger files the benchmark's entries under one chapter; Part III shows them on three pages
    (:data:`LEDGER_PAGES`): the claims of §9.2 and the cells of Tables 4–9 on the summary page,
    the cells of Tables 12–19 on the per-dataset page, none on the page of causes. ``entries``
    defaults to :func:`credalbook.book.ledger.core.ledger`; the rows returned have ``chapter`` = ``page``,
    ready for :func:`credalbook.book.ledger.report.chapter_slice`.
    """
    if page not in LEDGER_PAGES:
        raise ValueError(f"page must be one of {', '.join(LEDGER_PAGES)}, got {page!r}")
    if entries is None:
        from credalbook.book.ledger import ledger

        entries = ledger()
    entries = entries[entries["chapter"].isin(list(LEDGER_PAGES))]
    number = pd.to_numeric(entries["id"].str.extract(r"^zaffalon2012_bench_table(\d+)\[", expand=False),
                           errors="coerce")
    keep = number.isin(LEDGER_PAGES[page])
    if page == "chapters/benchmark/credal_comparison":
        keep = keep | (entries["entry"] == "claim")
    return entries[keep.to_numpy()].assign(chapter=page).reset_index(drop=True)
