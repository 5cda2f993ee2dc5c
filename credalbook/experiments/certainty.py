"""Aguilar-Ruiz (2025), Section 7: four classifiers on 21 UCI datasets, Tables 2-6 (ref 003 of the book).

Protocol (the paper states none): stratified 10-fold cross-validation (shuffled, seed 0), the
out-of-fold class probabilities pooled over the folds into one (n, K) matrix per dataset and
classifier, on which every measure of :mod:`credalbook.certainty` is computed once. The
classifiers are scikit-learn's with default hyperparameters (the paper gives none beyond
"3-NN"): ``KNeighborsClassifier(n_neighbors=3)``, ``GaussianNB()``,
``DecisionTreeClassifier()`` (CART, grown until its leaves are pure) and
``RandomForestClassifier()`` (100 trees), each after a mean imputer fitted on the training
folds (only room-occupancy has missing values in the mirror). Features are used unscaled, as
the defaults would. musk v2 is not in the mirror (:func:`credalbook.data.load` says so), so
20 of the 21 datasets are run.

Experiments registered: ``aguilar2025_certainty`` (one row per dataset and classifier: the
columns of Tables 2-5 plus calibration measures) and ``aguilar2025_reliability`` (reliability
diagram bins of the same pooled predictions).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from credalbook import certainty as cr
from credalbook.experiments.registry import Experiment, register

__all__ = ["PAPER_NAMES", "MISSING", "CLASSIFIERS", "TABLES", "PAPER_COLUMNS", "CI_DATASETS", "SEED", "FOLDS",
           "make_classifier", "out_of_fold_proba", "certainty_row", "fold_averaged_row", "datasets",
           "CERTAINTY", "RELIABILITY", "book_table", "compare_table", "book_means",
           "paper_means_on", "published_consistency", "sharpen", "gaussian_posterior_sample",
           "temperature_sweep", "rank_correlations"]

# book dataset name (credalbook.data, group aguilar2025) -> row name in the paper's Tables 2-5
#: Book dataset name (group aguilar2025) -> its row name in Aguilar-Ruiz (2025) Tables 2-5.
PAPER_NAMES = {
    "australian": "australian credit",
    "cardiotocography": "cardiotocography",
    "customer-churn": "customer churn",
    "banknote-authentication": "data banknote",
    "fertility": "fertility diagnosis",
    "hcv-egy": "hepatitis c",
    "landsat": "landsat satellite",
    "magic": "magic gamma",
    "movement-libras": "movement libras",
    "musk1": "musk v1",
    "musk2": "musk v2",
    "parkinsons": "parkinson",
    "phishing-websites": "phishing websites",
    "planning-relax": "planning relax",
    "rice-cammeo-osmancik": "rice cammeo",
    "room-occupancy": "room occupancy",
    "sonar": "sonar",
    "speaker-accent": "speaker accent",
    "vertebral-column-3c": "vertebral column",
    "vowel": "vowel",
    "winequality-red": "winequality red",
}
#: Datasets of the paper the book does not have (see the datasets page).
MISSING = ("musk2",)
#: The classifiers of Aguilar-Ruiz (2025) Tables 2-5, in their order.
CLASSIFIERS = ("3-NN", "Naive Bayes", "Decision Tree", "Random Forest")
#: Classifier -> the published table of its results.
TABLES = {"3-NN": "aguilar2025_table2", "Naive Bayes": "aguilar2025_table3", "Decision Tree": "aguilar2025_table4",
          "Random Forest": "aguilar2025_table5"}
#: The columns of Tables 2-5, in the paper's order.
PAPER_COLUMNS = ["acc", "acc_star", "acc_s", "acc_u", "div_pct", "c_rho_pct", "imcp"]
#: The datasets recomputed by the ci profile.
CI_DATASETS = ("fertility", "planning-relax", "vertebral-column-3c")
#: Seed of the stratified folds.
SEED = 0
#: Folds of the cross-validation whose predictions are pooled.
FOLDS = 10


def make_classifier(name: str, seed: int = SEED):
    """The paper's four classifiers as scikit-learn pipelines (mean imputer + defaults)."""
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.impute import SimpleImputer
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.tree import DecisionTreeClassifier

    models = {
        "3-NN": lambda: KNeighborsClassifier(n_neighbors=3),
        "Naive Bayes": lambda: GaussianNB(),
        "Decision Tree": lambda: DecisionTreeClassifier(random_state=seed),
        "Random Forest": lambda: RandomForestClassifier(random_state=seed, n_jobs=1),
    }
    if name not in models:
        raise ValueError(f"classifier must be one of {CLASSIFIERS}, got {name!r}")
    return make_pipeline(SimpleImputer(strategy="mean", keep_empty_features=True), models[name]())


def _features(X: pd.DataFrame) -> np.ndarray:
    """Numeric matrix: floats as they are, nominal features as their category codes (NaN when missing)."""
    columns = []
    for name in X.columns:
        column = X[name]
        if isinstance(column.dtype, pd.CategoricalDtype):
            codes = column.cat.codes.to_numpy().astype(float)
            codes[codes < 0] = np.nan
            columns.append(codes)
        else:
            columns.append(column.to_numpy(dtype=float))
    return np.column_stack(columns)


def out_of_fold_proba(dataset: str, classifier: str, seed: int = SEED, folds: int = FOLDS) -> dict:
    """Pooled out-of-fold probabilities of ``classifier`` on ``dataset``: {"y": (n,), "proba": (n, K), "fold": (n,)}.

    Stratified ``folds``-fold cross-validation, shuffled with ``seed``; a training fold that
    lacks a class gives that class probability 0 on its test fold.
    """
    from sklearn.model_selection import StratifiedKFold

    from credalbook.data import load

    data = load(dataset, group="aguilar2025")
    X, y = _features(data.X), np.asarray(data.y_codes)
    k = len(data.classes)
    proba = np.zeros((y.size, k))
    fold = np.zeros(y.size, dtype=int)
    splitter = StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed)
    for index, (train, test) in enumerate(splitter.split(X, y)):
        model = make_classifier(classifier, seed).fit(X[train], y[train])
        proba[np.ix_(test, model.classes_)] = model.predict_proba(X[test])
        fold[test] = index
    return {"y": y, "proba": proba, "fold": fold}


def certainty_row(y: np.ndarray, proba: np.ndarray) -> dict:
    """The columns of Tables 2-5 (div and C in percent) plus MCP, calibration and other measures' C."""
    report = cr.certainty_report(y, proba)
    report_all_ties = cr.accuracy_decomposition(y, proba, ties="all")
    row = {
        "n": int(y.size), "k": int(proba.shape[1]),
        "acc": report["accuracy"], "acc_star": report["probabilistic_accuracy"],
        "acc_s": report["accuracy_s"], "acc_u": report["accuracy_u"],
        "lambda_s": report["lambda_s"], "div_pct": 100 * report["divergence"],
        "c_rho_pct": 100 * report["certainty_ratio"], "imcp": report["imcp"],
        "mcp": cr.mcp_score(y, proba),
        "c_rho_ties_all_pct": 100 * report_all_ties.certainty_ratio,
        "c_rho_macro_f1_pct": 100 * cr.certainty_ratio(y, proba, measure="macro_f1"),
        "c_rho_mcc_pct": 100 * cr.certainty_ratio(y, proba, measure="mcc"),
        "brier": cr.brier_score(y, proba), "log_loss": cr.log_loss(y, proba),
        "ece": cr.expected_calibration_error(y, proba),
        "mean_top_proba": float(np.mean(np.max(proba, axis=1))),
        "share_one_hot": float(np.mean(np.max(proba, axis=1) == 1.0)),
        "share_tied": float(np.mean(np.sum(proba == np.max(proba, axis=1, keepdims=True), axis=1) > 1)),
    }
    return row


def fold_averaged_row(y: np.ndarray, proba: np.ndarray, fold: np.ndarray) -> dict:
    """The columns of Tables 2-5 computed on each test fold and averaged (suffix ``_foldavg``).

    The alternative protocol: a ratio averaged over folds is not the ratio of averaged
    accuracies, so under it the printed C_rho need not equal Acc*_v/(Acc*_v + Acc*_u).
    """
    per_fold = []
    for index in np.unique(fold):
        chosen = fold == index
        report = cr.certainty_report(y[chosen], proba[chosen])
        per_fold.append({"acc": report["accuracy"], "acc_star": report["probabilistic_accuracy"],
                         "acc_s": report["accuracy_s"], "acc_u": report["accuracy_u"],
                         "div_pct": 100 * report["divergence"], "c_rho_pct": 100 * report["certainty_ratio"],
                         "imcp": report["imcp"]})
    means = pd.DataFrame(per_fold).mean()
    return {f"{column}_foldavg": float(means[column]) for column in PAPER_COLUMNS}


def datasets() -> list[str]:
    """The paper's datasets available to the book (20 of 21: musk v2 is missing)."""
    return [name for name in PAPER_NAMES if name not in MISSING]


def _grid() -> list[dict]:
    return [{"dataset": d, "classifier": c, "seed": SEED, "folds": FOLDS} for d in datasets() for c in CLASSIFIERS]


def _ci(config: dict) -> bool:
    return config["dataset"] in CI_DATASETS


def _certainty_rows(configs: list[dict], results: list[dict]) -> pd.DataFrame:
    """One row per (dataset, classifier): Table 2-5 columns, MCP, calibration, C for macro-F1 and MCC."""
    rows = []
    for config, result in zip(configs, results):
        rows.append({"dataset": config["dataset"], "paper_name": PAPER_NAMES[config["dataset"]],
                     "classifier": config["classifier"], "seed": config["seed"], "folds": config["folds"],
                     **certainty_row(result["y"], result["proba"]),
                     **fold_averaged_row(result["y"], result["proba"], result["fold"])})
    return pd.DataFrame(rows)


def _reliability_rows(configs: list[dict], results: list[dict], n_bins: int = 10) -> pd.DataFrame:
    """Top-label reliability bins (bin, share, confidence, accuracy) per dataset and classifier."""
    frames = []
    for config, result in zip(configs, results):
        table = cr.reliability_table(result["y"], result["proba"], n_bins=n_bins)
        table.insert(0, "classifier", config["classifier"])
        table.insert(0, "dataset", config["dataset"])
        frames.append(table)
    return pd.concat(frames, ignore_index=True)


#: Four classifiers on twenty datasets, pooled 10-fold CV (Aguilar-Ruiz 2025, Tables 2-5).
CERTAINTY = register(Experiment(
    name="aguilar2025_certainty",
    description="Tables 2-5 of Aguilar-Ruiz (2025): 4 classifiers x 20 datasets, pooled 10-fold CV",
    task=out_of_fold_proba, grid=_grid, ci=_ci, keys=("dataset", "classifier"), assemble=_certainty_rows,
    rtol=1e-9, version="2",
))
#: Reliability-diagram bins of the pooled predictions of CERTAINTY.
RELIABILITY = register(Experiment(
    name="aguilar2025_reliability",
    description="Reliability-diagram bins of the pooled predictions of aguilar2025_certainty",
    task=out_of_fold_proba, grid=_grid, ci=_ci, keys=("dataset", "classifier", "bin"),
    assemble=_reliability_rows, rtol=1e-9, version="2",
))


# --------------------------------------------------------------------------------------------
# Beside the paper
# --------------------------------------------------------------------------------------------

def book_table(results: pd.DataFrame, classifier: str, protocol: str = "pooled") -> pd.DataFrame:
    """The book's Table 2-5 for ``classifier``: paper row names, the paper's columns, and its Mean row.

    ``protocol="pooled"`` (the book's) or ``"foldavg"`` (measures averaged over the test folds).
    """
    if classifier not in CLASSIFIERS:
        raise ValueError(f"classifier must be one of {CLASSIFIERS}, got {classifier!r}")
    if protocol not in ("pooled", "foldavg"):
        raise ValueError(f"protocol must be 'pooled' or 'foldavg', got {protocol!r}")
    rows = results[results["classifier"] == classifier]
    if rows.empty:
        raise ValueError(f"results hold no rows for classifier {classifier!r}")
    source = PAPER_COLUMNS if protocol == "pooled" else [f"{c}_foldavg" for c in PAPER_COLUMNS]
    table = rows[["paper_name"] + source].set_axis(["dataset"] + PAPER_COLUMNS, axis=1).reset_index(drop=True)
    mean = table[PAPER_COLUMNS].mean().to_frame().T
    mean.insert(0, "dataset", "Mean")
    return pd.concat([table, mean], ignore_index=True)


def compare_table(results: pd.DataFrame, classifier: str, protocol: str = "pooled") -> pd.DataFrame:
    """:func:`credalbook.reference.compare` of the book's table with the paper's (musk v2: missing in book)."""
    from credalbook.reference import compare

    return compare(TABLES[classifier], book_table(results, classifier, protocol), on=["dataset"],
                   values=PAPER_COLUMNS)


def book_means(results: pd.DataFrame, protocol: str = "pooled") -> pd.DataFrame:
    """Table 6 of the book: means over the datasets run, one row per classifier."""
    if protocol not in ("pooled", "foldavg"):
        raise ValueError(f"protocol must be 'pooled' or 'foldavg', got {protocol!r}")
    source = PAPER_COLUMNS if protocol == "pooled" else [f"{c}_foldavg" for c in PAPER_COLUMNS]
    means = results.groupby("classifier", sort=False)[source].mean()
    means.columns = PAPER_COLUMNS
    means = means.reset_index()
    return means.set_index("classifier").loc[[c for c in CLASSIFIERS if c in set(means["classifier"])]].reset_index()


def paper_means_on(datasets: list[str]) -> pd.DataFrame:
    """The paper's Tables 2-5 averaged over the rows of ``datasets`` (paper row names), per classifier.

    With the 20 datasets the book runs this is the like-for-like counterpart of Table 6.
    """
    from credalbook.reference import published

    rows = []
    for classifier in CLASSIFIERS:
        table = published(TABLES[classifier])
        chosen = table[table["dataset"].isin(datasets)]
        rows.append({"classifier": classifier, **chosen[PAPER_COLUMNS].mean().to_dict()})
    return pd.DataFrame(rows)


def published_consistency(classifier: str, table: pd.DataFrame | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Internal checks of the paper's table for ``classifier`` (or of ``table``, the same columns), row by row.

    ``c_rho_check`` = 100 Acc*_v/(Acc*_v + Acc*_u) recomputed from the printed columns, beside
    the printed C_rho; ``c_rho_slack`` is how far rounding the three printed numbers can move
    the difference (half a unit of C_rho plus 100 * 0.0005/(Acc*_v + Acc*_u)). The second frame
    compares the printed Mean row with the mean of the rows.
    """
    from credalbook.reference import published

    if classifier not in CLASSIFIERS:
        raise ValueError(f"classifier must be one of {CLASSIFIERS}, got {classifier!r}")
    table = published(TABLES[classifier]) if table is None else table
    rows = table[table["dataset"] != "Mean"].copy()
    total = rows["acc_s"] + rows["acc_u"]
    positive = total.where(total > 0, 1.0)
    rows["c_rho_check"] = np.where(total > 0, 100 * rows["acc_s"] / positive, 0.0)
    rows["c_rho_difference"] = rows["c_rho_pct"] - rows["c_rho_check"]
    rows["c_rho_slack"] = 0.05 + np.where(total > 0, 0.05 / positive, 0.0)
    printed_mean = table[table["dataset"] == "Mean"][PAPER_COLUMNS].iloc[0]
    mean_check = pd.DataFrame({"column": PAPER_COLUMNS, "printed_mean": printed_mean.to_numpy(dtype=float),
                               "mean_of_rows": rows[PAPER_COLUMNS].mean().to_numpy()})
    mean_check["difference"] = mean_check["printed_mean"] - mean_check["mean_of_rows"]
    return (rows[["dataset", "acc_s", "acc_u", "c_rho_pct", "c_rho_check", "c_rho_difference", "c_rho_slack"]],
            mean_check)


# --------------------------------------------------------------------------------------------
# What C_rho rewards (the critical section)
# --------------------------------------------------------------------------------------------

def sharpen(proba, temperature: float) -> np.ndarray:
    """Rows of ``proba`` raised to 1/temperature and renormalised: same argmax, sharper (T < 1) or flatter (T > 1).

    ``temperature = 0`` gives the one-hot of each row's first maximum (the limit T -> 0 up to ties).
    """
    from credalbook._validation import check_probabilities, check_scalar

    q = check_probabilities(proba, "proba")
    t = check_scalar(temperature, "temperature", low=0.0, high=1e6)
    if t == 0:
        return np.eye(q.shape[1])[np.argmax(q, axis=1)]
    logs = np.log(np.maximum(q, 1e-300)) / t
    logs -= logs.max(axis=1, keepdims=True)
    powered = np.exp(logs) * (q > 0)
    return powered / powered.sum(axis=1, keepdims=True)


def gaussian_posterior_sample(n: int = 5000, separation: float = 2.0, seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """(y, posterior): two equiprobable classes N(-s/2, 1) and N(s/2, 1); the exact Bayes posterior.

    The posterior is calibrated by construction (P(y = 1 | q_1 = p) = p), so any measure of
    "reliability" should rank it above every distortion of it with the same decisions.
    """
    from credalbook._validation import check_scalar

    check_scalar(n, "n", low=2, integer=True)
    check_scalar(separation, "separation", low=0.0, low_inclusive=False)
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    x = rng.normal(np.where(y == 1, separation / 2, -separation / 2), 1.0)
    p1 = 1.0 / (1.0 + np.exp(-separation * x))
    return y, np.column_stack([1 - p1, p1])


def temperature_sweep(y_true, proba, temperatures) -> pd.DataFrame:
    """Accuracy, C_rho, Brier, log loss and ECE of ``sharpen(proba, T)`` for each T (decisions unchanged)."""
    temperatures = [float(t) for t in temperatures]
    if not temperatures:
        raise ValueError("temperatures is empty: give at least one temperature")
    rows = []
    for t in temperatures:
        q = sharpen(proba, t)
        rows.append({"temperature": t, "accuracy": cr.accuracy_of(cr.confusion_matrix(y_true, q)),
                     "c_rho_pct": 100 * cr.certainty_ratio(y_true, q), "brier": cr.brier_score(y_true, q),
                     "log_loss": cr.log_loss(y_true, q), "ece": cr.expected_calibration_error(y_true, q)})
    return pd.DataFrame(rows)


def rank_correlations(results: pd.DataFrame, target: str = "c_rho_pct",
                      others=("acc", "acc_star", "imcp", "brier", "log_loss", "ece", "mean_top_proba")) -> pd.DataFrame:
    """Spearman correlation of ``target`` with each measure, over all rows and per classifier."""
    from scipy.stats import spearmanr

    missing = [c for c in (target, *others) if c not in results.columns]
    if missing:
        raise ValueError(f"results lack columns {missing}")
    groups = {"all rows": results, **{c: g for c, g in results.groupby("classifier", sort=False)}}
    table = {}
    for name, group in groups.items():
        table[name] = {other: (spearmanr(group[target], group[other]).statistic
                               if group[target].nunique() > 1 and group[other].nunique() > 1 else np.nan)
                       for other in others}
    return pd.DataFrame(table).T
