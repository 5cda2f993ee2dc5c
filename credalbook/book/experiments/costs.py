"""Experiments of Yang, Destercke & Masson (2017), Section VII, on the ordinal data ERA, ESL, LEV.

Protocol (as the paper states it, with the book's choices where it is silent):

- features: LEV's are already discrete (five levels); ERA's and ESL's are discretised into
  five equal-frequency levels, with cut points computed on each *training* fold
  (:func:`equal_frequency_codes`); the classes keep their order and number (9, 9, 5);
- costs: ℓ1 ordinal costs ``|i - j|`` between class ranks (Section VII-A); decisions by maximality
  (K(K-1) pairwise lower expectations; no extended matrix is needed to decide);
- evaluation: the p-discounted cost (Eqs. 14-16) of each predicted set, averaged over the
  test instances; stratified ten-fold cross-validation, repeated ``repetitions`` times with
  seeds 0, 1, ...;
- ``yang2017_fig3``: NCC with IDM posterior bounds (Eqs. 19-24), s on a log grid from 0.001 to
  10, r in {0, 0.1, 0.5, 0.9, 1} (0 and 1 for the paper's remarks on the limits), both variants;
- ``yang2017_table12``: r = 0.5 cautiousness seeking, s = 2: the NCC, the best of 50 sampled
  nested dichotomies on the training fold ("2Tr") and the forest of the same 50 ("Fo");
  ``yang2017_table12_ordered``: the same with order-preserving trees only.

Rows are per fold (sums of costs and set sizes, number of test instances) so that the chapter
can aggregate them and the ci profile can recompute a subset and compare it with the stored rows.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

from credalbook._validation import check_array, check_scalar
from credalbook.discrete import check_discrete_X
from credalbook.classifiers.nested_dichotomies import NestedDichotomyForest
from credalbook.costs import VARIANTS, ordinal_cost_matrix, set_cost_table, set_costs
from credalbook.classifiers.cost_sensitive import CostSensitiveNCC
from credalbook.book.experiments.registry import Experiment, register

__all__ = ["DATASETS", "DISCRETISED", "S_GRID", "R_FIG3", "N_FOLDS", "N_TREES", "REPETITIONS",
           "equal_frequency_codes", "fold_data", "ncc_fold", "table12_fold", "FIG3", "TABLE12",
           "TABLE12_ORDERED", "summarise", "table12_summary",
           "optimal_s", "curve_shapes", "interval_vs_exact", "cost_range", "plot_fig3", "plot_table12",
           "TABLE12_SET_READINGS", "TABLE12_SCALE_READINGS", "table12_readings_fold", "TABLE12_READINGS",
           "table12_reading_frames", "table12_agreement"]

#: The ordinal datasets of Yang et al. (2017) §VII (ERA, ESL, LEV).
DATASETS = ("ERA", "ESL", "LEV")
#: The datasets whose attributes the paper discretises before NCC.
DISCRETISED = ("ERA", "ESL")
#: The grid of the prior strength s for Figure 3 (21 values, 10⁻³ to 10, log-spaced).
S_GRID = tuple(float(f"{s:.4g}") for s in np.logspace(-3, 1, 21))
#: The cost parameters r of Figure 3's curves.
R_FIG3 = (0.0, 0.1, 0.5, 0.9, 1.0)
#: Folds of each cross-validation run.
N_FOLDS = 10
#: Nested dichotomies in each ensemble (2Tr and Fo).
N_TREES = 50

#: Repetitions of ten-fold CV (the paper ran one).
REPETITIONS = 10  # ten repetitions of ten-fold CV (the paper ran one)


def _ci(config: dict) -> bool:
    """The ci subset of every experiment here: LEV, repetition 0, folds 0 and 1."""
    return config["dataset"] == "LEV" and config["repetition"] == 0 and config["fold"] in (0, 1)


def equal_frequency_codes(train, test, n_bins: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """Codes 0..b-1 of numeric columns by equal-frequency cut points of the training values.

    Cut points are the unique j/n_bins quantiles (j = 1..n_bins-1) of each training column; a
    value equal to a cut point goes to the lower bin; ties can leave fewer than ``n_bins`` bins.
    """
    train = check_array(train, "train", ndim=2)
    test = check_array(test, "test", ndim=2)
    check_scalar(n_bins, "n_bins", low=2, integer=True)
    if train.shape[1] != test.shape[1]:
        raise ValueError(f"train has {train.shape[1]} columns but test has {test.shape[1]}")
    levels = np.arange(1, n_bins) / n_bins
    codes_train = np.empty(train.shape, dtype=np.int64)
    codes_test = np.empty(test.shape, dtype=np.int64)
    for j in range(train.shape[1]):
        cuts = np.unique(np.quantile(train[:, j], levels))
        codes_train[:, j] = np.searchsorted(cuts, train[:, j], side="left")
        codes_test[:, j] = np.searchsorted(cuts, test[:, j], side="left")
    return codes_train, codes_test


def _load(name: str):
    from credalbook.data import load

    dataset = load(name, group="yang2017")
    k = len(dataset.classes)
    y = pd.Categorical(dataset.y_codes, categories=range(k))
    return dataset.X, y, k


def fold_data(name: str, repetition: int, fold: int):
    """Coded training/test features and labels of one fold (stratified, shuffled with seed ``repetition``)."""
    X, y, k = _load(name)
    splitter = StratifiedKFold(n_splits=N_FOLDS, shuffle=True, random_state=repetition)
    with warnings.catch_warnings():   # ESL's class 9 has two instances: fewer than ten folds
        warnings.filterwarnings("ignore", message="The least populated class", category=UserWarning)
        train, test = list(splitter.split(np.zeros(len(y)), y.codes))[fold]
    if name in DISCRETISED:
        x_train, x_test = equal_frequency_codes(X.iloc[train].to_numpy(float), X.iloc[test].to_numpy(float))
    else:
        codes, _, _ = check_discrete_X(X)
        x_train, x_test = codes[train], codes[test]
    return x_train, x_test, y[train], np.asarray(y.codes[test]), k


def ncc_fold(dataset: str, repetition: int, fold: int, s_values: tuple) -> pd.DataFrame:
    """Fig. 3 rows of one fold: NCC (IDM, each s) with ℓ1 costs, p-discounted costs for each r and variant.

    The costs of each distinct predicted set (whatever s predicts it) are computed once per
    (r, variant), then read at each instance's truth.
    """
    x_train, x_test, y_train, y_test, k = fold_data(dataset, repetition, fold)
    cost = ordinal_cost_matrix(k)
    sets = np.array([CostSensitiveNCC(s=s, cost=cost).fit(x_train, y_train).predict_set(x_test) for s in s_values])
    distinct, inverse = np.unique(sets.reshape(-1, k), axis=0, return_inverse=True)
    inverse = inverse.reshape(sets.shape[:2])
    scores = {(r, variant): set_cost_table(cost, distinct, "p_discounted", r=r, variant=variant)[inverse, y_test]
              for r in R_FIG3 for variant in VARIANTS}
    return pd.DataFrame([{"s": s, "r": r, "variant": variant, "cost_sum": float(scores[r, variant][i].sum()),
                          "size_sum": int(sets[i].sum()), "n_test": int(len(y_test))}
                         for i, s in enumerate(s_values) for r in R_FIG3 for variant in VARIANTS])


def table12_fold(dataset: str, repetition: int, fold: int, s: float = 2.0, r: float = 0.5,
                 n_trees: int = N_TREES, ordered: bool = False) -> pd.DataFrame:
    """Table XII rows of one fold: NCC, best sampled tree (2Tr) and forest (Fo), p-discounted cost r, cautious.

    ``ordered``: sample only order-preserving nested dichotomies (the authors' classifip default).
    """
    x_train, x_test, y_train, y_test, k = fold_data(dataset, repetition, fold)
    cost = ordinal_cost_matrix(k)
    seed = 100_000 * DATASETS.index(dataset) + 1_000 * repetition + fold
    forest = NestedDichotomyForest(n_trees=n_trees, s=s, cost=cost, random_state=seed,
                                   ordered=ordered).fit(x_train, y_train)
    models = {
        "NCC": CostSensitiveNCC(s=s, cost=cost).fit(x_train, y_train),
        "2Tr": forest.best_tree(x_train, y_train, r=r, variant="cautious"),
        "Fo": forest,
    }
    rows = []
    for method, model in models.items():
        sets = model.predict_set(x_test)
        scores = set_costs(cost, y_test, sets, "p_discounted", r=r, variant="cautious")
        rows.append({"method": method, "cost_sum": float(scores.sum()), "size_sum": int(sets.sum()),
                     "n_test": int(len(y_test))})
    return pd.DataFrame(rows)


def _folds(**extra) -> list[dict]:
    return [{"dataset": d, "repetition": rep, "fold": f, **extra}
            for d in DATASETS for rep in range(REPETITIONS) for f in range(N_FOLDS)]


#: NCC's p-discounted costs against s on ERA, ESL and LEV (Yang et al. 2017, Figure 3).
FIG3 = register(Experiment(
    name="yang2017_fig3",
    description="NCC p-discounted costs against s on ERA, ESL, LEV (Yang et al. 2017, Fig. 3)",
    task=ncc_fold,
    grid=lambda: _folds(s_values=S_GRID),
    ci=_ci,
    keys=("dataset", "repetition", "fold", "s", "r", "variant"),
    atol=1e-6,
))
#: NCC, 2Tr and Fo at r = 0.5 and s = 2 (Yang et al. 2017, Table XII).
TABLE12 = register(Experiment(
    name="yang2017_table12",
    description="NCC vs 2Tr vs Fo, r = 0.5, s = 2 (Yang et al. 2017, Table XII)",
    task=table12_fold,
    grid=_folds,
    ci=_ci,
    keys=("dataset", "repetition", "fold", "method"),
    atol=1e-6,
))
#: Table XII with order-preserving nested dichotomies only (the authors' classifip default).
TABLE12_ORDERED = register(Experiment(
    name="yang2017_table12_ordered",
    description="Table XII with order-preserving nested dichotomies only (the authors' classifip default)",
    task=table12_fold,
    grid=lambda: _folds(ordered=True),
    ci=_ci,
    keys=("dataset", "repetition", "fold", "ordered", "method"),
    atol=1e-6,
))


def summarise(frame: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Average cost and set size per instance, pooled over folds (and repetitions) for each ``by`` group."""
    missing = [c for c in by + ["cost_sum", "size_sum", "n_test"] if c not in frame.columns]
    if missing:
        raise ValueError(f"frame lacks columns {missing}")
    sums = frame.groupby(by, sort=False)[["cost_sum", "size_sum", "n_test"]].sum().reset_index()
    sums["cost"] = sums["cost_sum"] / sums["n_test"]
    sums["set_size"] = sums["size_sum"] / sums["n_test"]
    per_run = frame.groupby(by + ["repetition"], sort=False)[["cost_sum", "n_test"]].sum().reset_index()
    per_run["cost_run"] = per_run["cost_sum"] / per_run["n_test"]
    spread = per_run.groupby(by, sort=False)["cost_run"].std(ddof=1).rename("cost_sd_over_repetitions")
    return sums.drop(columns=["cost_sum", "size_sum"]).merge(spread.reset_index(), on=by, how="left")


def table12_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Table XII layout: dataset, method, average cost, rank within dataset (1 = least cost)."""
    summary = summarise(frame, ["dataset", "method"])
    summary["rank"] = summary.groupby("dataset")["cost"].rank(method="average").astype(float)
    return summary


def optimal_s(frame: pd.DataFrame) -> pd.DataFrame:
    """The s of least average cost per dataset, r and variant (Fig. 3's inflection points)."""
    summary = summarise(frame, ["dataset", "r", "variant", "s"])
    best = summary.loc[summary.groupby(["dataset", "r", "variant"], sort=False)["cost"].idxmin()]
    return best[["dataset", "r", "variant", "s", "cost", "set_size"]].reset_index(drop=True)


def curve_shapes(frame: pd.DataFrame) -> pd.DataFrame:
    """Shape of each Fig. 3 curve (cost against s) per dataset, variant and r.

    Columns: ``optimal s`` and ``least cost``; ``interior`` (the least cost lies strictly inside the
    s grid); ``drop`` (cost at the smallest s minus the least cost); ``largest step down`` and
    ``largest step up`` between consecutive s (0 when the curve never goes that way).
    """
    summary = summarise(frame, ["dataset", "variant", "r", "s"]).sort_values("s")
    rows = []
    for (dataset, variant, r), group in summary.groupby(["dataset", "variant", "r"], sort=False):
        s, cost = group["s"].to_numpy(), group["cost"].to_numpy()
        steps = np.diff(cost)
        best = int(np.argmin(cost))
        rows.append({"dataset": dataset, "variant": variant, "r": r, "optimal s": s[best], "least cost": cost[best],
                     "interior": 0 < best < len(s) - 1, "drop": cost[0] - cost[best],
                     "largest step down": float(max(0.0, -steps.min())), "largest step up": float(max(0.0, steps.max()))})
    return pd.DataFrame(rows).sort_values(["dataset", "variant", "r"]).reset_index(drop=True)


def interval_vs_exact(datasets=DATASETS, s_values=(0.5, 1.0, 2.0), repetition: int = 0, fold: int = 0) -> pd.DataFrame:
    """Footnote 2 of Section VII-B: the NCC's sets from posterior intervals (Eqs. 23-24) against exact credal dominance.

    0/1 costs (the exact NCC's criterion); one fold per dataset. Columns: dataset, s, n_test,
    mean set sizes of both, ``supersets`` (instances where the interval set contains the exact one)
    and ``strictly larger`` (instances where it has more classes).
    """
    from credalbook.classifiers.ncc import NaiveCredalClassifier

    rows = []
    for name in datasets:
        x_train, x_test, y_train, _, _ = fold_data(name, repetition, fold)
        for s in s_values:
            approximate = CostSensitiveNCC(s=s).fit(x_train, y_train).predict_set(x_test)
            exact = NaiveCredalClassifier(s=s).fit(x_train, y_train).predict_set(x_test)
            rows.append({"dataset": name, "s": s, "n_test": len(x_test),
                         "set size, intervals (Eqs. 23-24)": approximate.sum(axis=1).mean(),
                         "set size, exact NCC dominance": exact.sum(axis=1).mean(),
                         "supersets": int(np.all(approximate >= exact, axis=1).sum()),
                         "strictly larger": int((approximate.sum(axis=1) > exact.sum(axis=1)).sum())})
    return pd.DataFrame(rows)


def cost_range(datasets=DATASETS, r: float = 0.5) -> pd.DataFrame:
    """Reference costs of Section VII's setting (ℓ1 costs, Eq. 14 with ``r``) on the whole of each dataset.

    ``largest possible``: the mean over instances of max_ŷ c_ŷ(y), which no predictor can exceed
    (a p-discounted cost is at most its largest member cost, Property 10); ``vacuous set``: the
    set of all classes always; ``median class always``: a determinate constant prediction.
    """
    rows = []
    for name in datasets:
        _, y, k = _load(name)
        truth = np.asarray(y.codes)
        cost = ordinal_cost_matrix(k)
        vacuous = np.ones((len(truth), k), dtype=bool)
        median = np.zeros((len(truth), k), dtype=bool)
        median[:, int(np.median(truth))] = True
        rows.append({"dataset": name, "K": k, "largest possible": float(cost.max(axis=0)[truth].mean()),
                     "vacuous set": float(set_costs(cost, truth, vacuous, "p_discounted", r=r).mean()),
                     "median class always": float(set_costs(cost, truth, median, "p_discounted", r=r).mean())})
    return pd.DataFrame(rows)


def plot_fig3(frame: pd.DataFrame, *, r_values=R_FIG3, paper_r=(0.1, 0.5, 0.9)):
    """Fig. 3 from the rows of ``yang2017_fig3``: average p-discounted cost against the IDM's s.

    One column per dataset (its own cost scale), one row per variant (cautiousness seeking, then
    mistake averse); one curve per r in ``r_values``, solid for the paper's ``paper_r`` with the
    least cost of each marked by a dot, dotted for the limits r = 0 and r = 1. Returns the figure,
    :data:`credalbook.style.COLUMN_WIDTH` wide.
    """
    import matplotlib.pyplot as plt

    from credalbook.style import COLOURS, COLUMN_WIDTH

    summary = summarise(frame, ["dataset", "variant", "r", "s"]).sort_values("s")
    datasets = [d for d in DATASETS if d in set(summary["dataset"])]
    variants = [v for v in VARIANTS if v in set(summary["variant"])]
    if not datasets or not variants:
        raise ValueError("frame holds no row of a known dataset and variant")
    figure, axes = plt.subplots(len(variants), len(datasets), figsize=(COLUMN_WIDTH, 1.0 + 2.4 * len(variants)),
                                sharex=True, sharey="col", squeeze=False)
    colour = {r: COLOURS[i] for i, r in enumerate(r_values)}
    for row, variant in enumerate(variants):
        for col, dataset in enumerate(datasets):
            ax = axes[row, col]
            part = summary[(summary["dataset"] == dataset) & (summary["variant"] == variant)]
            for r in r_values:
                curve = part[part["r"] == r]
                if curve.empty:
                    continue
                solid = r in paper_r
                ax.plot(curve["s"], curve["cost"], "-" if solid else ":", color=colour[r],
                        linewidth=1.6 if solid else 1.3, label=f"r = {r:g}")
                if solid:
                    best = curve.loc[curve["cost"].idxmin()]
                    ax.plot(best["s"], best["cost"], "o", color=colour[r], markersize=6, markeredgecolor="white")
            ax.set_xscale("log")
            ax.set_xticks([1e-3, 1e-1, 1e1])
            if row == 0:
                ax.set_title(dataset)
            if row == len(variants) - 1:
                ax.set_xlabel("s (IDM)")
        axes[row, 0].set_ylabel(variant.replace("_", " ").replace("cautious", "cautiousness seeking") + "\ncost")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside upper center", ncol=len(labels))
    return figure


def plot_table12(cells: dict, *, bounds: dict | None = None):
    """Table XII with the published values overlaid: each method's average cost, one panel per dataset.

    ``cells`` maps a reading's label to its judged cells (the ``frame`` of
    :func:`credalbook.book.tables.comparison`, or :func:`credalbook.book.ledger.core.judged_cells`): the
    paper's printed cost is drawn as a black cross, the book's of each reading as a circle (the
    first filled, the others hollow), joined to the paper's by a thin line. ``bounds`` maps a
    dataset to the largest average cost any prediction can have (``cost_range()["largest possible"]``),
    drawn as a dashed line. Returns the figure, :data:`credalbook.style.COLUMN_WIDTH` wide.
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    from credalbook.style import COLOURS, COLUMN_WIDTH

    if not cells:
        raise ValueError("cells must hold at least one reading")
    costs_by_reading = {}
    for reading, frame in cells.items():
        rows = frame[frame["measure"] == "cost"]
        if rows.empty:
            raise ValueError(f"reading {reading!r} has no cost cell")
        costs_by_reading[reading] = rows
    first = next(iter(costs_by_reading.values()))
    datasets = list(dict.fromkeys(first["dataset"]))
    methods = list(dict.fromkeys(first["method"]))
    figure, axes = plt.subplots(1, len(datasets), figsize=(COLUMN_WIDTH, 1.6 + 0.45 * len(methods)), sharex=True,
                                sharey=True, squeeze=False)
    offsets = np.linspace(-0.12, 0.12, len(cells)) if len(cells) > 1 else [0.0]
    for ax, dataset in zip(axes[0], datasets):
        paper = first[first["dataset"] == dataset].set_index("method")["paper"]
        for index, (reading, rows) in enumerate(costs_by_reading.items()):
            book = rows[rows["dataset"] == dataset].set_index("method")["book"]
            for m, method in enumerate(methods):
                if method not in book.index:
                    continue
                y = m + offsets[index]
                ax.plot([paper[method], book[method]], [y, y], color="#bbbbbb", linewidth=1, zorder=1)
                ax.plot(book[method], y, "o", markersize=7, color=COLOURS[index],
                        markerfacecolor=COLOURS[index] if index == 0 else "white", markeredgewidth=1.5, zorder=3)
        ax.plot(paper.reindex(methods), range(len(methods)), "x", color="black", markersize=8, markeredgewidth=2,
                zorder=4)
        if bounds is not None and dataset in bounds:
            ax.axvline(bounds[dataset], color="#666666", linestyle="--", linewidth=1)
        ax.set_title(dataset)
        ax.set_xlabel("average cost")
        ax.set_xlim(left=0)
        ax.grid(axis="y", visible=False)
    axes[0, 0].set_yticks(range(len(methods)), methods)
    axes[0, 0].set_ylim(len(methods) - 0.5, -0.5)
    handles = [Line2D([], [], marker="x", linestyle="", color="black", markersize=8, markeredgewidth=2, label="paper")]
    handles += [Line2D([], [], marker="o", linestyle="", color=COLOURS[i], markersize=7, markeredgewidth=1.5,
                       markerfacecolor=COLOURS[i] if i == 0 else "white", label=f"book, {reading}")
                for i, reading in enumerate(cells)]
    if bounds is not None:
        handles.append(Line2D([], [], color="#666666", linestyle="--", linewidth=1, label="largest possible"))
    figure.legend(handles=handles, loc="outside upper center", ncol=2)
    return figure


# ----------------------------------------------------------------------------------------------
# Table XII: readings of the printed costs, each computed (the book's convention stays the book's)
# ----------------------------------------------------------------------------------------------
#: Readings of Table XII that need the predicted sets, each name mapped to what it changes.
#:
#: The book's setting is ℓ1 costs, Eq. (14) at r = 0.5 and the mean over the test instances;
#: ``book`` is that setting itself.
TABLE12_SET_READINGS = {
    "book": "none: ℓ1 costs, Eq. (14) at r = 0.5, mean over the test instances",
    "mistake averse": "Eqs. (15)-(16) at r = 0.5 instead of Eq. (14); 2Tr selected under them",
    "discounted costs": "Definition 3's discounted costs (Eq. 12 with p = 1, r = 0); 2Tr selected under them",
    "Abellán-Masegosa costs": "the costs of indeterminacy of §V-c on the book's sets",
    "truth coded in reverse": "the book's sets scored against the truth coded in the reverse order of the classes",
    "squared distances": "costs (i − j)² instead of |i − j|, to decide and to score",
    "classes by first appearance": "ranks in the order the classes first appear in the data file, to decide and to score",
}
#: Readings of Table XII that rescale the book's own costs, each name mapped to what it changes.
TABLE12_SCALE_READINGS = {
    "sum per fold": "costs summed over the test instances of a fold (mean over the folds)",
    "sum per data set": "costs summed over all instances of a ten-fold run (mean over the runs)",
    "divided by K": "the average divided by the number of classes",
    "divided by K − 1": "the average divided by the largest cost, K − 1",
    "percent": "the average times 100",
    "one factor": "the book's costs times the one factor that best fits the nine printed costs",
    "one factor per data set": "the book's costs times the factor that best fits each data set's three costs",
}


def _first_appearance_cost(name: str) -> np.ndarray:
    """ℓ1 costs between the positions of the classes in their order of first appearance in the data file."""
    _, y, k = _load(name)
    order = list(dict.fromkeys(np.asarray(y.codes).tolist()))
    order += [c for c in range(k) if c not in order]
    position = np.empty(k, dtype=float)
    position[order] = np.arange(k)
    return np.abs(position[:, None] - position[None, :])


def table12_readings_fold(dataset: str, repetition: int, fold: int, s: float = 2.0, r: float = 0.5,
                          n_trees: int = N_TREES) -> pd.DataFrame:
    """Table XII rows of one fold under each reading of :data:`TABLE12_SET_READINGS`.

    Same folds, seeds and models as :func:`table12_fold` (the ``book`` rows equal its rows): the
    readings that change only the scoring score the book's sets; ``squared distances`` and
    ``classes by first appearance`` refit NCC and the 50 trees with their cost matrix.
    Columns: reading, method, cost_sum, size_sum, n_test.
    """
    x_train, x_test, y_train, y_test, k = fold_data(dataset, repetition, fold)
    seed = 100_000 * DATASETS.index(dataset) + 1_000 * repetition + fold

    def fitted(cost):
        forest = NestedDichotomyForest(n_trees=n_trees, s=s, cost=cost, random_state=seed).fit(x_train, y_train)
        return forest, CostSensitiveNCC(s=s, cost=cost).fit(x_train, y_train)

    def tree_sets(forest, **selection):
        return forest.best_tree(x_train, y_train, **selection).predict_set(x_test)

    rows = []

    def score(reading, cost, truth, sets, rule, **params):
        for method, chosen in sets.items():
            scores = set_costs(cost, truth, chosen, rule, **params)
            rows.append({"reading": reading, "method": method, "cost_sum": float(scores.sum()),
                         "size_sum": int(chosen.sum()), "n_test": int(len(truth))})

    l1 = ordinal_cost_matrix(k)
    forest, ncc = fitted(l1)
    book = {"NCC": ncc.predict_set(x_test), "2Tr": tree_sets(forest, r=r, variant="cautious"),
            "Fo": forest.predict_set(x_test)}
    score("book", l1, y_test, book, "p_discounted", r=r, variant="cautious")
    score("mistake averse", l1, y_test, {**book, "2Tr": tree_sets(forest, r=r, variant="mistake_averse")},
          "p_discounted", r=r, variant="mistake_averse")
    score("discounted costs", l1, y_test, {**book, "2Tr": tree_sets(forest, r=0.0)}, "p_discounted", r=0.0)
    score("Abellán-Masegosa costs", l1, y_test, book, "abellan_masegosa")
    score("truth coded in reverse", l1, k - 1 - y_test, book, "p_discounted", r=r)
    for reading, cost in (("squared distances", ordinal_cost_matrix(k, 2.0)),
                          ("classes by first appearance", _first_appearance_cost(dataset))):
        other_forest, other_ncc = fitted(cost)
        score(reading, cost, y_test, {"NCC": other_ncc.predict_set(x_test), "2Tr": tree_sets(other_forest, r=r),
                                      "Fo": other_forest.predict_set(x_test)}, "p_discounted", r=r)
    return pd.DataFrame(rows)


#: Table XII under the readings that need the predicted sets (Yang et al. 2017, §VII-D).
TABLE12_READINGS = register(Experiment(
    name="yang2017_table12_readings",
    description="Table XII's costs under other readings of the setting (Yang et al. 2017, §VII-D)",
    task=table12_readings_fold,
    grid=_folds,
    ci=_ci,
    keys=("dataset", "repetition", "fold", "reading", "method"),
    atol=1e-6,
))


def table12_reading_frames(rows: pd.DataFrame, paper: pd.DataFrame | None = None) -> pd.DataFrame:
    """Table XII's frame (dataset, method, cost, rank) under every reading, stacked with a ``reading`` column.

    ``rows``: rows of :data:`TABLE12_READINGS` (its ``book`` rows give the scale readings of
    :data:`TABLE12_SCALE_READINGS`); ``paper``: the published table (dataset, method, cost), for
    the fitted factors (default: ``yang2017_table12`` as transcribed). Ranks are within a data set,
    1 for the least cost. Readings come in the order book, scale readings, set readings.
    """
    missing = [c for c in ("dataset", "repetition", "fold", "reading", "method", "cost_sum", "n_test")
               if c not in rows.columns]
    if missing:
        raise ValueError(f"rows lack columns {missing}")
    unknown = sorted(set(rows["reading"]) - set(TABLE12_SET_READINGS))
    if unknown or "book" not in set(rows["reading"]):
        raise ValueError(f"rows must hold the 'book' reading and only those of TABLE12_SET_READINGS; unknown: {unknown}")
    if paper is None:
        from credalbook.book.reference import published

        paper = published("yang2017_table12")
    printed = paper.set_index(["dataset", "method"])["cost"].astype(float)
    keys = ["reading", "dataset", "method"]
    sums = rows.groupby(keys)[["cost_sum", "n_test"]].sum().sort_index()
    runs = rows.groupby(keys)["repetition"].nunique().sort_index()
    folds = rows.groupby(keys)[["repetition", "fold"]].apply(lambda g: len(g.drop_duplicates())).sort_index()
    average = (sums["cost_sum"] / sums["n_test"]).rename("cost")
    book = average.loc["book"]
    classes = {name: _load(name)[2] for name in book.index.get_level_values("dataset").unique()}
    k = pd.Series(book.index.get_level_values("dataset").map(classes), index=book.index, dtype=float)
    shared = printed.reindex(book.index)
    one = float((book * shared).sum() / (book ** 2).sum())
    per_dataset = ((book * shared).groupby(level="dataset").sum() / (book ** 2).groupby(level="dataset").sum())
    scale = {
        "sum per fold": sums.loc["book", "cost_sum"] / folds.loc["book"],
        "sum per data set": sums.loc["book", "cost_sum"] / runs.loc["book"],
        "divided by K": book / k,
        "divided by K − 1": book / (k - 1),
        "percent": book * 100,
        "one factor": book * one,
        "one factor per data set": book * book.index.get_level_values("dataset").map(per_dataset).to_numpy(),
    }
    frames = [book.rename("cost").reset_index().assign(reading="book")]
    frames += [value.rename("cost").reset_index().assign(reading=name) for name, value in scale.items()]
    frames += [average.loc[name].rename("cost").reset_index().assign(reading=name)
               for name in TABLE12_SET_READINGS if name != "book" and name in average.index.get_level_values(0)]
    frame = pd.concat(frames, ignore_index=True)
    frame["rank"] = frame.groupby(["reading", "dataset"])["cost"].rank(method="average")
    factors = {"one factor": f"× {one:.2f}",
               "one factor per data set": ", ".join(f"{d} × {v:.2f}" for d, v in per_dataset.items())}
    frame["factor"] = frame["reading"].map(factors).fillna("")
    return frame[["reading", "dataset", "method", "cost", "rank", "factor"]]


def table12_agreement(frames: pd.DataFrame, paper: pd.DataFrame | None = None, printed: pd.DataFrame | None = None,
                      tolerance: float | None = None) -> pd.DataFrame:
    """How each reading of :func:`table12_reading_frames` agrees with the printed Table XII, cell by cell.

    One row per reading: ``what`` it changes, ``mean_abs_difference`` over the nine costs,
    ``within_precision`` (costs within half a unit of the printed last digit), ``within_tolerance``
    (within the source record's tolerance), ``ranks_agreeing`` (of the nine ranks),
    ``orders_agreeing`` (data sets whose three methods come in the printed order), ``reproduces``
    (every cost within tolerance and every rank equal) and ``verdict`` in words. ``paper``,
    ``printed`` (the cells as transcribed, text) and ``tolerance`` default to the record of
    ``yang2017_table12``.
    """
    from credalbook.book.ledger.core import printing_precision
    from credalbook.book.reference import paper_dir, published, published_source

    if paper is None:
        paper = published("yang2017_table12")
    if printed is None:
        printed = pd.read_csv(paper_dir() / "yang2017_table12.csv", dtype=str, keep_default_na=False)
    if tolerance is None:
        tolerance = float(published_source("yang2017_table12")["tolerance"]["cost"])
    check_scalar(tolerance, "tolerance", low=0)
    target = paper.set_index(["dataset", "method"])[["cost", "rank"]].astype(float)
    precision = printed.set_index(["dataset", "method"])["cost"].map(printing_precision)
    what = {**TABLE12_SET_READINGS, **TABLE12_SCALE_READINGS}
    rows = []
    for reading, frame in frames.groupby("reading", sort=False):
        book = frame.set_index(["dataset", "method"]).reindex(target.index)
        if book["cost"].isna().any():
            raise ValueError(f"reading {reading!r} lacks cells of the printed table")
        difference = (book["cost"] - target["cost"]).abs()
        same_rank = book["rank"] == target["rank"]
        within = int((difference <= tolerance + 1e-12).sum())
        orders = int(same_rank.groupby(level="dataset").all().sum())
        factor = str(frame["factor"].iloc[0]) if "factor" in frame.columns else ""
        reproduces = bool(within == len(target) and same_rank.all())
        rows.append({"reading": reading, "what": what.get(reading, "") + (f" ({factor})" if factor else ""),
                     "mean_abs_difference": float(difference.mean()),
                     "within_precision": int((difference <= precision.reindex(target.index) + 1e-12).sum()),
                     "within_tolerance": within, "ranks_agreeing": int(same_rank.sum()), "orders_agreeing": orders,
                     "cells": len(target), "reproduces": reproduces,
                     "verdict": "this reading reproduces the table" if reproduces else "it does not"})
    return pd.DataFrame(rows)
