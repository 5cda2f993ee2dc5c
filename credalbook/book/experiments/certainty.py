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
from credalbook.book.experiments.registry import Experiment, register

__all__ = ["PAPER_NAMES", "MISSING", "CLASSIFIERS", "TABLES", "PAPER_COLUMNS", "CI_DATASETS", "SEED", "FOLDS",
           "make_classifier", "out_of_fold_proba", "certainty_row", "fold_averaged_row", "datasets",
           "CERTAINTY", "RELIABILITY", "book_table", "compare_table", "book_means",
           "paper_means_on", "published_consistency", "sharpen", "gaussian_posterior_sample",
           "temperature_sweep", "rank_correlations", "MEASURE_NAMES", "MEASURE_LABELS", "MEASURE_DECIMALS",
           "READINGS", "PAGE_ENTRIES", "page_entries", "ledger_slice", "paper_vs_book", "median_differences",
           "beyond_tolerance",
           "paper_vs_book_figure", "ratio_consistency", "ratio_consistency_figure", "same_datasets_differences",
           "open_choices", "accuracy_ratio_figure", "calibration_summary", "temperature_figure",
           "reliability_figure", "tree_imcp"]

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
    """:func:`credalbook.book.reference.compare` of the book's table with the paper's (musk v2: missing in book)."""
    from credalbook.book.reference import compare

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
    from credalbook.book.reference import published

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
    from credalbook.book.reference import published

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


# --------------------------------------------------------------------------------------------
# Summaries and figures for the chapters of Part V
# --------------------------------------------------------------------------------------------

#: The paper's column names as the book's tables print them (plain text, no TeX).
MEASURE_NAMES = {"acc": "Acc", "acc_star": "Acc*", "acc_s": "Acc*(S)", "acc_u": "Acc*(U)", "div_pct": "div (%)",
                 "c_rho_pct": "C\u03c1 (%)", "imcp": "IMCP"}
#: The same names as matplotlib mathtext, for the figures.
MEASURE_LABELS = {"acc": r"$Acc$", "acc_star": r"$Acc^\star$", "acc_s": r"$Acc^\star_S$", "acc_u": r"$Acc^\star_U$",
                  "div_pct": "div (%)", "c_rho_pct": r"$\mathcal{C}_\rho$ (%)", "imcp": "IMCP"}
#: Printed decimals of each column of Tables 2-6.
MEASURE_DECIMALS = {c: 1 if c in ("div_pct", "c_rho_pct") else 3 for c in PAPER_COLUMNS}
#: The two readings of the pooled cross-validation, the book's and the per-fold average.
READINGS = {"book": "pooled (the book's)", "folds averaged": "averaged over the folds"}
#: The pages of Part V that show entries filed under another ledger chapter.
#:
#: The ledger files Part V under three chapters (matrices, experiments, reliability); the book
#: gives some of their entries pages of their own. Each page names its ledger chapter and its
#: entries, as ledger ids or as an id prefix ending in "[" for every cell of a published table.
#: What a chapter keeps stays on the chapter's own page.
PAGE_ENTRIES = {
    "chapters/certainty/properties": ("chapters/certainty/matrices", (
        "aguilar2025.divergence-bound", "aguilar2025.zero-divergence-zero-uncertainty",
        "aguilar2025.certainty-ratio-bounds")),
    "chapters/certainty/protocol": ("chapters/certainty/experiments", (
        "aguilar2025.ratio-column-consistency", "aguilar2025.tree-mean-divergence", "aguilar2025.knn-divergence")),
    "chapters/certainty/tables": ("chapters/certainty/experiments", tuple(f"{TABLES[c]}[" for c in CLASSIFIERS)),
}


def _picked(rows: pd.DataFrame, chosen) -> np.ndarray:
    ids = rows["id"].astype(str)
    picked = ids.isin([c for c in chosen if not c.endswith("[")]).to_numpy().copy()
    for prefix in (c for c in chosen if c.endswith("[")):
        picked |= ids.str.startswith(prefix).to_numpy()
    return picked


def page_entries(page: str, rows: pd.DataFrame | None = None) -> pd.DataFrame:
    """The ledger rows that ``page`` (a toc entry of Part V) shows, as the ledger files them.

    The ledger (``rows``, default :func:`credalbook.book.ledger.core.ledger` of the paper) files Part V's
    entries under ``chapters/certainty/matrices``, ``experiments`` and ``reliability``; the book
    shows the general properties, the protocol checks and the cells of Tables 2-5 on pages of
    their own (:data:`PAGE_ENTRIES`). The page of a ledger chapter shows what the others leave.
    """
    if not page.startswith("chapters/certainty/"):
        raise ValueError(f"page must be a page of Part V (chapters/certainty/...), got {page!r}")
    if rows is None:
        from credalbook.book.ledger import ledger

        rows = ledger(paper="aguilar2025")
    if page in PAGE_ENTRIES:
        chapter, chosen = PAGE_ENTRIES[page]
        rows = rows[rows["chapter"] == chapter]
        return rows[_picked(rows, chosen)].reset_index(drop=True)
    rows = rows[rows["chapter"] == page]
    elsewhere = np.zeros(len(rows), dtype=bool)
    for chapter, chosen in PAGE_ENTRIES.values():
        if chapter == page:
            elsewhere |= _picked(rows, chosen)
    return rows[~elsewhere].reset_index(drop=True)


def ledger_slice(page: str, rows: pd.DataFrame | None = None) -> str:
    """The ledger's slice for a page of Part V (:func:`page_entries` laid out by ``chapter_slice``)."""
    from credalbook.book.ledger import chapter_slice

    chosen = page_entries(page, rows)
    chapter = PAGE_ENTRIES[page][0] if page in PAGE_ENTRIES else page
    return chapter_slice(chapter, chosen)


def paper_vs_book(reading: str = "book") -> pd.DataFrame:
    """Every cell of Tables 2-5 the ledger judges, with its classifier (Mean rows and musk v2 left out).

    ``reading``: ``"book"`` (pooled out-of-fold predictions) or ``"folds averaged"``. Columns:
    classifier, dataset, measure, paper, book, difference, tolerance, verdict.
    """
    from credalbook.book.ledger.core import judged_cells

    if reading not in READINGS:
        raise ValueError(f"reading must be one of {tuple(READINGS)}, got {reading!r}")
    cells = pd.concat([judged_cells(TABLES[c], reading).assign(classifier=c) for c in CLASSIFIERS],
                      ignore_index=True)
    cells = cells[(cells["dataset"] != "Mean") & cells["book"].notna() & cells["paper"].notna()]
    return cells[["classifier", "dataset", "measure", "paper", "book", "difference", "tolerance",
                  "verdict"]].reset_index(drop=True)


def median_differences(cells: pd.DataFrame, by="classifier") -> pd.DataFrame:
    """Median abs(book − paper) of ``cells`` (from :func:`paper_vs_book`) per ``by`` (rows; a column
    or a list of columns) and measure (columns, in the paper's order)."""
    keys = [by] if isinstance(by, str) else list(by)
    missing = [c for c in (*keys, "measure", "difference") if c not in cells.columns]
    if missing:
        raise ValueError(f"cells lack columns {missing}")
    table = cells.assign(size=cells["difference"].abs()).pivot_table(index=keys, columns="measure", values="size",
                                                                     aggfunc="median", sort=False)
    table.columns.name = None
    return table.reindex(columns=[c for c in PAPER_COLUMNS if c in table.columns])


def beyond_tolerance(rows: pd.DataFrame, reading: str = "folds averaged") -> pd.DataFrame:
    """The cells of Tables 2-6 that a reading of the ledger (``rows`` with readings) leaves beyond tolerance.

    Columns: table, dataset (or classifier, for Table 6), measure (as the book prints it), paper,
    book, difference, verdict; ``reading="book"`` gives the book's own cells.
    """
    entry = "table" if reading == "book" else f"reading: {reading}"
    chosen = rows[(rows["entry"] == entry) & rows["verdict"].isin(["not reproduced", "partly"])
                  & rows["id"].astype(str).str.startswith("aguilar2025_table")]
    parts = chosen["id"].str.extract(r"^(?P<name>[^\[]+)\[(?:dataset|classifier)=(?P<key>.*); (?P<measure>[^;\]]+)\]$")
    table_names = {name: f"Table {name.removeprefix('aguilar2025_table')}" for name in parts["name"].dropna()}
    return pd.DataFrame({"table": parts["name"].map(table_names), "dataset": parts["key"],
                         "measure": parts["measure"].map(MEASURE_NAMES),
                         "paper": pd.to_numeric(chosen["published"], errors="coerce"),
                         "book": pd.to_numeric(chosen["book"], errors="coerce"),
                         "difference": pd.to_numeric(chosen["difference"], errors="coerce"),
                         "verdict": chosen["verdict"]}).reset_index(drop=True)


def paper_vs_book_figure(cells: pd.DataFrame, hue: str = "classifier", *, title: str | None = None):
    """Scatter of the book's value against the paper's, one panel per measure of Tables 2-5.

    ``cells`` as :func:`paper_vs_book` returns them (several readings may be stacked, told apart
    by ``hue``); a point on the diagonal is a number reproduced, the grey band is the ledger's
    tolerance. Drawn at the book's column width; returns the figure.
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    from credalbook.style import COLOURS, COLUMN_WIDTH

    if hue not in cells.columns:
        raise ValueError(f"cells have no column {hue!r}")
    groups = list(dict.fromkeys(cells[hue]))
    fig, axes = plt.subplots(2, 4, figsize=(COLUMN_WIDTH, 4.6))
    for ax, measure in zip(axes.flat, PAPER_COLUMNS):
        chosen = cells[cells["measure"] == measure]
        if chosen.empty:
            ax.set_title(MEASURE_LABELS[measure])
            ax.text(0.5, 0.5, "no cells", ha="center", va="center", transform=ax.transAxes, color="#777777")
            ax.set(xticks=[], yticks=[])
            continue
        values = pd.concat([chosen["paper"], chosen["book"]])
        low, high = float(values.min()), float(values.max())
        pad = 0.06 * (high - low or 1.0)
        low, high = low - pad, high + pad
        tolerance = float(chosen["tolerance"].max()) if len(chosen) else 0.0
        line = np.array([low, high])
        ax.fill_between(line, line - tolerance, line + tolerance, color="#e6e6e6", lw=0)
        ax.plot(line, line, color="#555555", lw=0.8)
        for index, group in enumerate(groups):
            part = chosen[chosen[hue] == group]
            ax.scatter(part["paper"], part["book"], s=14, color=COLOURS[index % len(COLOURS)], alpha=0.8,
                       lw=0, label=str(group))
        ax.set(xlim=(low, high), ylim=(low, high), title=MEASURE_LABELS[measure])
        # at most two labels under a panel a quarter of the column wide, so that they never collide
        ax.xaxis.set_major_locator(MaxNLocator(nbins=2, min_n_ticks=1))
        ax.yaxis.set_major_locator(MaxNLocator(nbins=3))
    legend_ax = axes.flat[-1]
    legend_ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    legend_ax.legend(handles, labels, loc="center", title=title, handletextpad=0.2, borderaxespad=0)
    fig.supxlabel("paper", fontsize=11)
    fig.supylabel("book", fontsize=11)
    return fig


def ratio_consistency(results: pd.DataFrame) -> pd.DataFrame:
    """C_rho printed beside 100 Acc*_S/(Acc*_S + Acc*_U) recomputed from the same table's columns.

    One row per classifier, dataset and source: ``"paper"`` (the printed Tables 2-5),
    ``"book, pooled"`` and ``"book, folds averaged"`` (the stored ``results``). Under the pooled
    protocol the two agree by construction; a table of fold averages need not satisfy Eq. (21).
    """
    frames = []
    for classifier in CLASSIFIERS:
        printed = published_consistency(classifier)[0]
        frames.append(pd.DataFrame({"classifier": classifier, "dataset": printed["dataset"], "source": "paper",
                                    "recomputed": printed["c_rho_check"], "printed": printed["c_rho_pct"]}))
    for source, suffix in (("book, pooled", ""), ("book, folds averaged", "_foldavg")):
        s, u = results[f"acc_s{suffix}"], results[f"acc_u{suffix}"]
        total = (s + u).where(s + u > 0, 1.0)
        frames.append(pd.DataFrame({"classifier": results["classifier"], "dataset": results["paper_name"],
                                    "source": source, "recomputed": np.where(s + u > 0, 100 * s / total, 0.0),
                                    "printed": results[f"c_rho_pct{suffix}"]}))
    table = pd.concat(frames, ignore_index=True)
    table["difference"] = table["printed"] - table["recomputed"]
    return table


def ratio_consistency_figure(consistency: pd.DataFrame, sources=("paper", "book, folds averaged")):
    """Printed C_rho against the C_rho recomputed from the same table's accuracies, one panel per classifier."""
    import matplotlib.pyplot as plt

    from credalbook.style import COLOURS, COLUMN_WIDTH

    fig, axes = plt.subplots(2, 2, figsize=(COLUMN_WIDTH, 5.6), sharex=True, sharey=True)
    for ax, classifier in zip(axes.flat, CLASSIFIERS):
        ax.plot([30, 100], [30, 100], color="#555555", lw=0.8)
        for index, source in enumerate(sources):
            part = consistency[(consistency["classifier"] == classifier) & (consistency["source"] == source)]
            ax.scatter(part["recomputed"], part["printed"], s=16, color=COLOURS[index], alpha=0.8, lw=0,
                       label=source)
        ax.set_title(classifier)
    axes[0, 0].legend(loc="upper left")
    fig.supxlabel(r"$100\,Acc^\star_S/(Acc^\star_S + Acc^\star_U)$ from the table's columns", fontsize=11)
    fig.supylabel(r"$\mathcal{C}_\rho$ (%) in the table", fontsize=11)
    return fig


def same_datasets_differences(results: pd.DataFrame) -> pd.DataFrame:
    """Book − paper for Table 6, both averaged over the datasets the book runs (rows: classifiers)."""
    book = book_means(results).set_index("classifier")[PAPER_COLUMNS]
    paper = paper_means_on([PAPER_NAMES[d] for d in datasets()]).set_index("classifier")[PAPER_COLUMNS]
    return (book - paper).reset_index()


def open_choices(results: pd.DataFrame) -> pd.DataFrame:
    """What the paper's two open choices move, per classifier (means over the datasets, percentage points).

    ``tied rows``: share of rows whose top probability is tied; ``change, ties kept`` (mean and
    largest): abs(C_rho with every tied maximum in Q+ − C_rho with the first); then mean C_rho with
    accuracy, macro-F1 and MCC as the measure psi.
    """
    change = (results["c_rho_ties_all_pct"] - results["c_rho_pct"]).abs()
    table = results.assign(change=change).groupby("classifier", sort=False).agg(
        tied=("share_tied", "mean"), change_mean=("change", "mean"), change_max=("change", "max"),
        accuracy=("c_rho_pct", "mean"), macro_f1=("c_rho_macro_f1_pct", "mean"), mcc=("c_rho_mcc_pct", "mean"),
        mcc_min=("c_rho_mcc_pct", "min"), mcc_max=("c_rho_mcc_pct", "max"))
    table["tied"] *= 100
    return table.reset_index()


def accuracy_ratio_figure(results: pd.DataFrame):
    """C_rho against accuracy per dataset, one panel per classifier: the paper's rows and the book's."""
    import matplotlib.pyplot as plt

    from credalbook.book.reference import published
    from credalbook.style import COLOURS, COLUMN_WIDTH

    fig, axes = plt.subplots(2, 2, figsize=(COLUMN_WIDTH, 5.6), sharex=True, sharey=True)
    for ax, classifier in zip(axes.flat, CLASSIFIERS):
        paper = published(TABLES[classifier]).query("dataset != 'Mean'")
        book = results[results["classifier"] == classifier]
        ax.scatter(paper["acc"], paper["c_rho_pct"], s=18, marker="x", color="#777777", lw=1, label="paper")
        ax.scatter(book["acc"], book["c_rho_pct"], s=18, color=COLOURS[0], alpha=0.85, lw=0, label="book")
        ax.set_title(classifier)
    axes[1, 0].legend(loc="lower left")  # the tree's panel is empty there
    fig.supxlabel("accuracy", fontsize=11)
    fig.supylabel(r"$\mathcal{C}_\rho$ (%)", fontsize=11)
    return fig


def calibration_summary(results: pd.DataFrame) -> pd.DataFrame:
    """Means over the datasets per classifier: accuracy, C_rho, the calibration measures, how peaked the outputs are."""
    columns = ["acc", "c_rho_pct", "brier", "log_loss", "ece", "mean_top_proba", "share_one_hot"]
    missing = [c for c in ["classifier", *columns] if c not in results.columns]
    if missing:
        raise ValueError(f"results lack columns {missing}")
    return results.groupby("classifier", sort=False)[columns].mean().reset_index()


def temperature_figure(sweep: pd.DataFrame):
    """C_rho (left) and Brier, log loss, ECE (right) against the temperature of :func:`temperature_sweep`."""
    import matplotlib.pyplot as plt

    from credalbook.style import COLOURS, COLUMN_WIDTH

    positive = sweep[sweep["temperature"] > 0]
    one_hot = sweep.loc[sweep["temperature"] == 0, "c_rho_pct"]
    fig, axes = plt.subplots(1, 2, figsize=(COLUMN_WIDTH, 4.0), layout="constrained")
    axes[0].semilogx(positive["temperature"], positive["c_rho_pct"], marker="o", color=COLOURS[0],
                     label=r"$\mathcal{C}_\rho$")
    if len(one_hot):
        axes[0].axhline(float(one_hot.iloc[0]), color=COLOURS[1], ls="--", label="at T = 0 (one-hot)")
    axes[0].axhline(100 * float(sweep["accuracy"].iloc[0]), color="#777777", ls=":", label="accuracy")
    axes[0].set(xlabel="temperature T", ylabel="%", title=r"$\mathcal{C}_\rho$ (%)")
    for index, (column, name) in enumerate((("brier", "Brier"), ("log_loss", "log loss"), ("ece", "ECE"))):
        axes[1].semilogx(positive["temperature"], positive[column], marker="o", color=COLOURS[index + 2], label=name)
    axes[1].set(xlabel="temperature T", ylim=(0, 1.0), title="proper scores, lower is better")
    for ax in axes:
        ax.axvline(1.0, color="k", lw=0.8)
    handles, labels = [], []
    for ax in axes:
        h, l = ax.get_legend_handles_labels()
        handles, labels = handles + h, labels + l
    fig.legend(handles, labels, loc="outside lower center", ncol=3, fontsize=9, frameon=False)
    return fig


def reliability_figure(reliability: pd.DataFrame, datasets_shown):
    """Reliability diagrams, one panel per classifier, one series per dataset; marker area = share of instances."""
    import matplotlib.pyplot as plt

    from credalbook.style import COLOURS, COLUMN_WIDTH

    datasets_shown = list(datasets_shown)
    unknown = [d for d in datasets_shown if d not in set(reliability["dataset"])]
    if unknown:
        raise ValueError(f"reliability holds no bins for {unknown}")
    fig, axes = plt.subplots(2, 2, figsize=(COLUMN_WIDTH, 6.2), sharex=True, sharey=True)
    for ax, classifier in zip(axes.flat, CLASSIFIERS):
        ax.plot([0, 1], [0, 1], color="#555555", lw=0.8)
        for index, dataset in enumerate(datasets_shown):
            bins = reliability[(reliability["dataset"] == dataset) & (reliability["classifier"] == classifier)]
            colour = COLOURS[index % len(COLOURS)]
            ax.plot(bins["confidence"], bins["accuracy"], color=colour, lw=1.2, label=dataset)
            ax.scatter(bins["confidence"], bins["accuracy"], s=12 + 250 * bins["share"], color=colour, alpha=0.45,
                       lw=0)
        ax.set(title=classifier, xlim=(0, 1.03), ylim=(-0.03, 1.03))
    axes[0, 0].legend(loc="upper left", fontsize=9)
    fig.supxlabel("mean top probability in the bin", fontsize=11)
    fig.supylabel("accuracy in the bin", fontsize=11)
    return fig


def tree_imcp(datasets_shown) -> pd.DataFrame:
    """The decision tree's IMCP beside its class-balanced accuracy and its share of 0/1 rows, per dataset."""
    rows = []
    for dataset in datasets_shown:
        oof = out_of_fold_proba(dataset, "Decision Tree")
        balanced = float(np.mean(cr.recall_per_class(cr.confusion_matrix(oof["y"], oof["proba"]))))
        rows.append({"dataset": dataset, "IMCP": cr.imcp_score(oof["y"], oof["proba"]),
                     "balanced accuracy": balanced,
                     "share of 0/1 rows": float(np.mean(oof["proba"].max(axis=1) == 1))})
    return pd.DataFrame(rows)
