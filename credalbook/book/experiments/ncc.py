"""Experiments of Part II: NBC vs NCC (Zaffalon, Corani & Mauá 2012 §9.1, §9.3, §9.4; 2011 §8–9).

Registered experiments (``credalbook reproduce --only <name>``):

* ``zaffalon2012_ncc_artificial`` — §9.1.1 / 2011 §8: 80 naive models θ × 50 training sets × sizes
  {25, 50, 100}, test sets of 10 000 instances; one row per training set.
* ``zaffalon2012_ncc_krkp`` — §9.1.2 / 2011 §9, Table 1: kr-vs-kp down-sampled to s ∈ {5, …, 150},
  100 stratified training sets per size, the other instances as test set; one row per split.
* ``zaffalon2012_ncc_uci`` — §9.1.3 and §9.3: 10 runs of stratified 10-fold CV on the paper's UCI
  datasets, MDL (and optionally CFS) fitted inside the training folds, NBC, NCC and NDC (β = 1,
  on top of NBC) on the same folds; one row per (dataset, feature selection, run, fold).
* ``zaffalon2012_ncc_rejection`` — §9.4: the rejection-option example simulated.

Every task is deterministic given its configuration (seeds are derived from it), so the ci
profile recomputes a subset of the stored rows exactly.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.pipeline import make_pipeline

from credalbook.classifiers.naive import distinct_rows
from credalbook.classifiers.naive_bayes import NaiveBayes
from credalbook.classifiers.ncc import NaiveCredalClassifier
from credalbook.classifiers.ndc import NonDeterministicClassifier
from credalbook.classifiers.rejection import RejectionClassifier, ncc_rejection_sets
from credalbook.book.experiments.protocols import (
    ModelOutput,
    cross_validate,
    downsample_split,
    draw_naive_model,
    evaluate_split,
    sample_naive,
    standard_scores,
)
from credalbook.book.experiments.registry import Experiment, register
from credalbook.metrics import utility_discounted_accuracy_scores
from credalbook.preprocessing import MDLDiscretizer, weka_cfs

__all__ = ["SEED", "nbc_vs_ncc_summary", "ARTIFICIAL", "artificial_task", "artificial_summary",
           "ncc_binary_utility", "KRKP", "krkp_task", "krkp_summary", "UCI", "UCI_CI_DATASETS", "uci_datasets",
           "uci_scores", "uci_task", "uci_per_dataset", "REJECTION", "rejection_task", "uci_nbc_vs_ncc",
           "uci_summary", "ncc_vs_ndc", "APPENDIX_TABLES", "APPENDIX_COLUMNS", "uci_appendix_comparison",
           "artificial_figure", "krkp_figure", "uci_figure", "ndc_figure", "appendix_figure", "rejection_figure"]

#: Seed of every random draw of Part II (training sets, folds, artificial models).
SEED = 2012


def _blocks(n: int, size: int) -> list[list[int]]:
    """0..n-1 in consecutive blocks of ``size`` (the grid's unit of work; the ci profile takes the first)."""
    return [list(range(start, min(start + size, n))) for start in range(0, n, size)]


def nbc_vs_ncc_summary(y_true: np.ndarray, nbc: ModelOutput, ncc: ModelOutput) -> dict:
    """The quantities of §9.1 for one train/test run: NBC accuracy, NCC's scores, NBC on NCC's (in)determinate part."""
    sizes = ncc.sets.sum(axis=1)
    det = sizes == 1
    nbc_hit = nbc.single == y_true
    ncc_hit = ncc.sets[np.arange(y_true.size), y_true]
    return {
        "n_test": int(y_true.size),
        "nbc_accuracy": float(nbc_hit.mean()),
        "ncc_determinacy": float(det.mean()),
        "ncc_discounted_accuracy": float((ncc_hit / sizes).mean()),
        "ncc_u65": float(utility_discounted_accuracy_scores(y_true, ncc.sets, 0.65).mean()),
        "ncc_u80": float(utility_discounted_accuracy_scores(y_true, ncc.sets, 0.8).mean()),
        "ncc_single_accuracy": float(ncc_hit[det].mean()) if det.any() else np.nan,
        "ncc_set_accuracy": float(ncc_hit[~det].mean()) if (~det).any() else np.nan,
        "nbc_accuracy_ncc_determinate": float(nbc_hit[det].mean()) if det.any() else np.nan,
        "nbc_accuracy_ncc_indeterminate": float(nbc_hit[~det].mean()) if (~det).any() else np.nan,
    }


# ----------------------------------------------------------------------------------------------
# §9.1.1 artificial data
# ----------------------------------------------------------------------------------------------
def artificial_task(theta: int, train_sets: list, sizes: list, n_test: int, seed: int = SEED, *,
                    s: float = 1.0, nbc_prior: float = 1.0, chances: np.ndarray | None = None) -> pd.DataFrame:
    """Training sets ``train_sets`` of one naive model θ (index ``theta``): rows (size, train_set) of §9.1 quantities.

    ``chances`` (10, 2), default the model drawn for index ``theta`` (features' chances uniform
    under a gap of at least 0.1), replaces the model; ``s`` is NCC's IDM s and ``nbc_prior`` NBC's
    prior count (Laplace: 1). The test set and the training sets come from the same random
    streams whatever these are, so the ledger's variants of the study differ in that one thing
    (:func:`credalbook.book.ledger.zaffalon2012_ncc.artificial_variant_runs`).
    """
    if chances is None:
        chances = draw_naive_model(np.random.default_rng([seed, theta, 0]), 10, 0.1)
    chances = np.asarray(chances, dtype=float)
    if chances.ndim != 2 or chances.shape[1] != 2 or not np.all((chances >= 0) & (chances <= 1)):
        raise ValueError(f"chances must be an (n_features, 2) array of chances in [0, 1], got shape {chances.shape}")
    X_test, y_test = sample_naive(np.random.default_rng([seed, theta, 1]), chances, n_test)
    # 10 binary features: at most 1024 distinct test rows; predict each once, then expand
    patterns, inverse = distinct_rows(X_test, np.full(X_test.shape[1], 2))
    labels = pd.Categorical.from_codes
    rows = []
    for size in sizes:
        for j in train_sets:
            X, y = sample_naive(np.random.default_rng([seed, theta, 2, size, j]), chances, size)
            y_cat = labels(y, categories=[0, 1])
            nbc = NaiveBayes(prior_count=nbc_prior).fit(X, y_cat)
            ncc = NaiveCredalClassifier(s=s).fit(X, y_cat)
            out_nbc, out_ncc = (ModelOutput(*(a[inverse] for a in model.predict_with_set(patterns)))
                                for model in (nbc, ncc))
            rows.append({"size": size, "train_set": j, **nbc_vs_ncc_summary(y_test, out_nbc, out_ncc)})
    return pd.DataFrame(rows)


#: NBC and NCC on artificial naive-Bayes data (Zaffalon et al. 2012, §9.1.1, Figures 2-4).
ARTIFICIAL = register(Experiment(
    name="zaffalon2012_ncc_artificial",
    description="§9.1.1: NBC vs NCC on artificial naive data (80 θ × 50 training sets × 3 sizes, test 10 000)",
    task=artificial_task,
    grid=lambda: [dict(theta=t, train_sets=block, sizes=[25, 50, 100], n_test=10_000)
                  for t in range(80) for block in _blocks(50, 5)],
    ci=lambda config: config["theta"] < 2 and config["train_sets"][0] == 0,
    keys=("theta", "size", "train_set"),
    columns=("theta",),
))


def artificial_summary(frame: pd.DataFrame, statistic: str = "median") -> pd.DataFrame:
    """Medians per training size (as Fig. 2/3 of the papers) and the area of ignorance (1 − determinacy).

    ``statistic="mean"`` gives means instead (the 2011 text does not say which its numbers are).
    """
    if statistic not in ("median", "mean"):
        raise ValueError(f"statistic must be 'median' or 'mean', got {statistic!r}")
    summary = frame.groupby("size").agg(
        runs=("nbc_accuracy", "size"),
        nbc_accuracy=("nbc_accuracy", statistic),
        ncc_discounted_accuracy=("ncc_discounted_accuracy", statistic),
        ncc_u65=("ncc_u65", statistic),
        ncc_determinacy=("ncc_determinacy", statistic),
        nbc_ncc_i=("nbc_accuracy_ncc_indeterminate", statistic),
    ).reset_index()
    summary["area_of_ignorance"] = 1 - summary["ncc_determinacy"]
    summary["nbc_u65"] = summary["nbc_accuracy"]
    return summary


def ncc_binary_utility(frame: pd.DataFrame, u_half: float) -> pd.Series:
    """NCC's expected utility on a two-class problem when u(1/2) = ``u_half``, from its u65 and determinacy.

    An indeterminate two-class output is the vacuous set, rewarded u(1/2) whatever the class
    (2011 §8–9), so the utility is linear in u(1/2): ``ncc_u65 + (u_half − 0.65)(1 − determinacy)``;
    rows are runs (or means over runs, the relation being linear).
    """
    return frame["ncc_u65"] + (u_half - 0.65) * (1 - frame["ncc_determinacy"])


# ----------------------------------------------------------------------------------------------
# §9.1.2 kr-kp down-sampling
# ----------------------------------------------------------------------------------------------
def krkp_task(size: int, samples: list, dataset: str = "kr-vs-kp", seed: int = SEED) -> pd.DataFrame:
    """Down-sampling runs of one training size: rows (sample) of §9.1 quantities."""
    from credalbook.data import load

    data = load(dataset, group="zaffalon2012")
    rows = []
    for sample in samples:
        train, test = downsample_split(data.y, size, seed=seed, sample=sample)
        y_true, outputs = evaluate_split({"nbc": NaiveBayes, "ncc": NaiveCredalClassifier}, data.X, data.y,
                                         train, test)
        rows.append({"sample": sample, **nbc_vs_ncc_summary(y_true, outputs["nbc"], outputs["ncc"])})
    return pd.DataFrame(rows)


#: kr-vs-kp down-sampled to s training instances (Zaffalon et al. 2012, §9.1.2, Table 1, Figure 5).
KRKP = register(Experiment(
    name="zaffalon2012_ncc_krkp",
    description="001 §9, Table 1: kr-vs-kp down-sampled to s ∈ {5..150}, 100 stratified training sets each",
    task=krkp_task,
    grid=lambda: [dict(size=s, samples=block) for s in (5, 10, 15, 20, 30, 50, 100, 150) for block in _blocks(100, 2)],
    ci=lambda config: config["samples"][0] == 0,
    keys=("size", "sample"),
    columns=("size",),
))


def krkp_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Means over the splits of each size (Table 1 and Fig. 3 of 2011), in percent where Table 1 is."""
    summary = frame.groupby("size").agg(
        splits=("sample", "size"),
        determinacy=("ncc_determinacy", "mean"),
        nbc_ncc_i=("nbc_accuracy_ncc_indeterminate", "mean"),
        nbc_accuracy=("nbc_accuracy", "mean"),
        ncc_discounted_accuracy=("ncc_discounted_accuracy", "mean"),
        ncc_u65=("ncc_u65", "mean"),
    ).reset_index()
    summary["determinacy_pct"] = 100 * summary["determinacy"]
    summary["nbc_ncc_i_pct"] = 100 * summary["nbc_ncc_i"]
    summary["nbc_u65"] = summary["nbc_accuracy"]
    return summary


# ----------------------------------------------------------------------------------------------
# §9.1.3 and §9.3: UCI datasets, 10 x 10-fold CV
# ----------------------------------------------------------------------------------------------
#: The UCI datasets recomputed by the ci profile.
UCI_CI_DATASETS = ("iris", "glass", "contact-lenses")


def uci_datasets() -> list[str]:
    """The paper's datasets available to the book (connect-4 is missing from every source)."""
    from credalbook.data import list_datasets

    table = list_datasets("zaffalon2012")
    return table.loc[table["in_paper"] & table["available"], "name"].tolist()


def _mdl():
    return MDLDiscretizer()


def _mdl_cfs():
    return make_pipeline(MDLDiscretizer(), weka_cfs())


def _ndc():
    return NonDeterministicClassifier(NaiveBayes(), beta=1.0)


def uci_scores(y_true: np.ndarray, outputs) -> pd.DataFrame:
    """Per-instance scores of NBC, NCC, NDC plus, on NCC's rows, NBC's scores on the same instances."""
    scores = standard_scores(y_true, outputs)
    nbc = scores[scores.model == "nbc"].reset_index(drop=True)
    ncc_rows = scores.model == "ncc"
    scores.loc[ncc_rows, "nbc_u65_same"] = nbc["u65"].to_numpy()
    scores.loc[ncc_rows, "nbc_u80_same"] = nbc["u80"].to_numpy()
    return scores


def uci_task(dataset: str, run: int, feature_selection: bool, seed: int = SEED) -> pd.DataFrame:
    """One run of stratified 10-fold CV on ``dataset``: per (fold, model) means, and NCC-indeterminate sums."""
    from credalbook.data import load

    data = load(dataset, group="zaffalon2012")
    models = {"nbc": NaiveBayes, "ncc": NaiveCredalClassifier, "ndc": _ndc}
    per_instance = cross_validate(models, data.X, data.y, n_splits=10, repeats=(run,), seed=seed,
                                  preprocess=_mdl_cfs if feature_selection else _mdl, per_instance=True,
                                  scorer=uci_scores)
    means = (per_instance.groupby(["fold", "model"])
             [["discounted_accuracy", "u65", "u80", "f1", "determinate", "single_hit"]].mean().reset_index())
    ncc = per_instance[(per_instance.model == "ncc") & ~per_instance.determinate.astype(bool)]
    indet = ncc.groupby("fold").agg(indeterminate=("u65", "size"), ncc_u65_indet_sum=("u65", "sum"),
                                    ncc_u80_indet_sum=("u80", "sum"), nbc_u65_indet_sum=("nbc_u65_same", "sum"),
                                    nbc_u80_indet_sum=("nbc_u80_same", "sum")).reset_index()
    wide = means.pivot(index="fold", columns="model")
    wide.columns = [f"{model}_{measure}" for measure, model in wide.columns]
    wide = wide.reset_index().merge(indet, on="fold", how="left")
    sizes = per_instance[per_instance.model == "ncc"].groupby("fold").size().rename("n_test").reset_index()
    wide = wide.merge(sizes, on="fold")
    filled = ["indeterminate", "ncc_u65_indet_sum", "ncc_u80_indet_sum", "nbc_u65_indet_sum", "nbc_u80_indet_sum"]
    wide[filled] = wide[filled].fillna(0.0)
    drop = [c for c in wide.columns if c in ("nbc_u65", "nbc_u80", "nbc_f1", "nbc_determinate", "nbc_discounted_accuracy")]
    return wide.drop(columns=drop).rename(columns={"nbc_single_hit": "nbc_accuracy"})


#: NBC, NCC and NDC under 10 x 10-fold CV (Zaffalon et al. 2012, §9.1.3 and §9.3, Table 2, Appendix A).
UCI = register(Experiment(
    name="zaffalon2012_ncc_uci",
    description="§9.1.3 and §9.3: NBC, NCC, NDC under 10 runs of 10-fold CV, MDL (± CFS) inside the folds",
    task=uci_task,
    # run by run, so that an interrupted run has stored complete runs over every dataset
    grid=lambda: [dict(dataset=d, run=r, feature_selection=fs) for r in range(10) for fs in (False, True)
                  for d in uci_datasets()],
    ci=lambda config: config["run"] == 0 and config["dataset"] in UCI_CI_DATASETS,
    keys=("dataset", "run", "feature_selection", "fold"),
))


def uci_per_dataset(frame: pd.DataFrame) -> pd.DataFrame:
    """Per (dataset, feature selection): fold means, and the utilities on NCC's indeterminate instances."""
    value_columns = [c for c in frame.columns if c.startswith(("nbc_", "ncc_", "ndc_")) and not c.endswith("_sum")]
    keys = ["feature_selection", "dataset"]
    table = frame.groupby(keys)[value_columns].mean()
    sums = frame.groupby(keys)[["indeterminate", "ncc_u65_indet_sum", "ncc_u80_indet_sum", "nbc_u65_indet_sum",
                                "nbc_u80_indet_sum"]].sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        for u in ("u65", "u80"):
            table[f"ncc_{u}_indeterminate"] = sums[f"ncc_{u}_indet_sum"] / sums["indeterminate"]
            table[f"nbc_{u}_indeterminate"] = sums[f"nbc_{u}_indet_sum"] / sums["indeterminate"]
    table["indeterminate_instances"] = sums["indeterminate"]
    table["folds"] = frame.groupby(keys).size()
    return table.reset_index()


# ----------------------------------------------------------------------------------------------
# §9.4 rejection option
# ----------------------------------------------------------------------------------------------
def rejection_task(size: int, repeats: list, n_test: int, pi: float = 0.7, threshold: float = 0.8,
                   n_features: int = 5, seed: int = SEED) -> pd.DataFrame:
    """§9.4's example: class 1 with chance ``pi``, features independent of the class; rows per repeat."""
    rng_test = np.random.default_rng([seed, 94, 0])

    def draw(rng, n):
        y = (rng.random(n) >= pi).astype(int)                  # class index 0 = "class 1" of the paper
        return rng.integers(0, 2, size=(n, n_features)), pd.Categorical.from_codes(y, categories=[0, 1])

    X_test, y_test = draw(rng_test, n_test)
    codes = np.asarray(y_test.codes)
    rows = []
    for r in repeats:
        X, y = draw(np.random.default_rng([seed, 94, size, r]), size)
        nbc = NaiveBayes().fit(X, y)
        ncc = NaiveCredalClassifier().fit(X, y)
        nbc_t = RejectionClassifier(NaiveBayes(), threshold=threshold).fit(X, y)
        sets = {"NBC": nbc.predict_set(X_test), "NCC": ncc.predict_set(X_test), "NBC_t": nbc_t.predict_set(X_test),
                "NCC_t": ncc_rejection_sets(ncc, X_test, threshold)}
        for name, s in sets.items():
            rows.append({"repeat": r, "model": name,
                         "u80": float(utility_discounted_accuracy_scores(codes, s, 0.8).mean()),
                         "u65": float(utility_discounted_accuracy_scores(codes, s, 0.65).mean()),
                         "determinacy": float((s.sum(axis=1) == 1).mean())})
    return pd.DataFrame(rows)


#: NBC and NCC with a rejection option, t = 0.8 and P(class 1) = 0.7 (Zaffalon et al. 2012, §9.4).
REJECTION = register(Experiment(
    name="zaffalon2012_ncc_rejection",
    description="§9.4: NBC, NCC and their rejection-option versions (t = 0.8) when P(class 1) = 0.7 and the "
                "features are noise",
    task=rejection_task,
    grid=lambda: [dict(size=s, repeats=block, n_test=10_000) for s in (30, 100, 1000, 10_000)
                  for block in _blocks(50, 5)],
    ci=lambda config: config["repeats"][0] == 0 and config["size"] <= 1000,
    keys=("size", "repeat", "model"),
    columns=("size",),
))


def _wins(a: pd.Series, b: pd.Series) -> tuple[int, int]:
    return int((a > b + 1e-12).sum()), int((b > a + 1e-12).sum())


def uci_nbc_vs_ncc(per_dataset: pd.DataFrame, feature_selection: bool, alpha: float = 0.05) -> pd.DataFrame:
    """§9.1.3's summary for one setting: medians, win counts with Wilcoxon p-values, indeterminate gains.

    Returns a long frame (``feature_selection``, ``quantity``, ``value``) shaped like the
    published table ``zaffalon2012_ncc_uci``. The indeterminate gain of a dataset is
    (NCC's − NBC's expected utility)/NBC's on the instances NCC classifies indeterminately
    (datasets with such instances and a positive NBC utility there); its mean over datasets
    gets a 95% t confidence interval.
    """
    from scipy import stats as sps

    from credalbook.stats import wilcoxon_signed_rank

    t = per_dataset[per_dataset["feature_selection"] == feature_selection]
    nbc = t["nbc_accuracy"]
    rows = {
        "datasets": len(t),
        "median_nbc_accuracy": nbc.median(),
        "median_ncc_discounted_accuracy": t["ncc_discounted_accuracy"].median(),
        "median_ncc_u65": t["ncc_u65"].median(),
        "median_ncc_u80": t["ncc_u80"].median(),
        "median_ncc_determinacy": t["ncc_determinate"].median(),
        "datasets_determinacy_above_90pct": int((t["ncc_determinate"] > 0.9).sum()),
    }
    for measure, column in (("discounted_accuracy", "ncc_discounted_accuracy"), ("u65", "ncc_u65"),
                            ("u80", "ncc_u80")):
        ncc_wins, nbc_wins = _wins(t[column], nbc)
        rows[f"ncc_wins_{measure}"] = ncc_wins
        rows[f"nbc_wins_{measure}"] = nbc_wins
        rows[f"wilcoxon_p_{measure}"] = wilcoxon_signed_rank(t[column].to_numpy(), nbc.to_numpy(), alpha).pvalue
    for u in ("u65", "u80"):
        ok = t["indeterminate_instances"].gt(0) & t[f"nbc_{u}_indeterminate"].gt(0)
        gain = (t.loc[ok, f"ncc_{u}_indeterminate"] / t.loc[ok, f"nbc_{u}_indeterminate"] - 1).to_numpy()
        mean = gain.mean() if gain.size else np.nan
        half = sps.t.ppf(0.975, gain.size - 1) * gain.std(ddof=1) / np.sqrt(gain.size) if gain.size > 1 else np.nan
        rows[f"indeterminate_gain_{u}_mean"] = mean
        rows[f"indeterminate_gain_{u}_ci_low"] = mean - half
        rows[f"indeterminate_gain_{u}_ci_high"] = mean + half
        rows[f"indeterminate_gain_{u}_datasets"] = int(gain.size)
    return pd.DataFrame({"feature_selection": feature_selection, "quantity": list(rows),
                         "value": [float(v) for v in rows.values()]})


def uci_summary(per_dataset: pd.DataFrame) -> pd.DataFrame:
    """§9.1.3's summary without and with feature selection, stacked (the shape of ``zaffalon2012_ncc_uci``)."""
    return pd.concat([uci_nbc_vs_ncc(per_dataset, fs) for fs in (False, True)], ignore_index=True)


def ncc_vs_ndc(frame: pd.DataFrame, feature_selection: bool = False, alpha: float = 0.05,
               test_train_ratio: float | None = None) -> pd.DataFrame:
    """Table 11: per utility, datasets where a paired t-test over the CV folds favours NCC, ties, favours NDC.

    ``test_train_ratio`` (1/9 for 10-fold CV) applies the Nadeau–Bengio correction for the
    overlapping training sets; None is the plain paired t-test the paper names. Also the
    Wilcoxon signed-rank p-value over the datasets' mean scores and which side it favours.
    """
    from credalbook.stats import paired_t_test, wilcoxon_signed_rank

    t = frame[frame["feature_selection"] == feature_selection]
    rows = []
    for utility in ("u65", "f1", "u80"):
        wins = ties = losses = 0
        for _, folds in t.groupby("dataset"):
            test = paired_t_test(folds[f"ncc_{utility}"].to_numpy(), folds[f"ndc_{utility}"].to_numpy(), alpha,
                                 test_train_ratio)
            if not test.significant:
                ties += 1
            elif test.statistic > 0:
                wins += 1
            else:
                losses += 1
        means = t.groupby("dataset")[[f"ncc_{utility}", f"ndc_{utility}"]].mean()
        wilcoxon = wilcoxon_signed_rank(means[f"ncc_{utility}"].to_numpy(), means[f"ndc_{utility}"].to_numpy(), alpha)
        better = "NCC" if means[f"ncc_{utility}"].median() > means[f"ndc_{utility}"].median() else "NDC"
        rows.append({"utility": utility, "ncc_wins": wins, "ties": ties, "ndc_wins": losses,
                     "wilcoxon_p": wilcoxon.pvalue, "significant": wilcoxon.significant,
                     "higher_median": better})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------------------------
# The per-dataset results beside the paper's Appendix A, and the figures of Part II
# ----------------------------------------------------------------------------------------------
#: The paper's Appendix A tables holding NCC's per-dataset results (NCC column, percent), by
#: (feature selection, measure); the measure names are those of :data:`APPENDIX_COLUMNS`.
APPENDIX_TABLES = {
    (False, "determinacy"): "zaffalon2012_bench_table12",
    (False, "discounted accuracy"): "zaffalon2012_bench_table13",
    (False, "u65"): "zaffalon2012_bench_table14",
    (False, "u80"): "zaffalon2012_bench_table15",
    (True, "determinacy"): "zaffalon2012_bench_table16",
    (True, "discounted accuracy"): "zaffalon2012_bench_table17",
    (True, "u65"): "zaffalon2012_bench_table18",
    (True, "u80"): "zaffalon2012_bench_table19",
}

#: The column of the per-dataset frame (uci_per_dataset) holding each measure of the Appendix
#: tables, by measure name.
APPENDIX_COLUMNS = {"determinacy": "ncc_determinate", "discounted accuracy": "ncc_discounted_accuracy",
                    "u65": "ncc_u65", "u80": "ncc_u80"}


def uci_appendix_comparison(per_dataset: pd.DataFrame, appendix: dict | None = None) -> pd.DataFrame:
    """NCC per dataset beside the paper's Appendix A (Tables 12–19, NCC column), as fractions.

    ``per_dataset`` is :func:`uci_per_dataset`'s frame; ``appendix`` maps (feature selection,
    measure) to a published table with columns ``name`` (the book's dataset name) and ``NCC``
    (percent), by default the tables of :data:`APPENDIX_TABLES`. One row per (feature selection,
    measure, dataset) that both sides have: ``paper`` and ``book`` in [0, 1] and ``difference``
    (book − paper). Datasets the book lacks (connect-4) or cells the paper leaves blank are left out.
    """
    if appendix is None:
        from credalbook.book.reference import published

        appendix = {key: published(name) for key, name in APPENDIX_TABLES.items()}
    unknown = [key for key in appendix if key[1] not in APPENDIX_COLUMNS]
    if unknown:
        raise ValueError(f"unknown appendix measures {unknown}; known: {list(APPENDIX_COLUMNS)}")
    frames = []
    for (feature_selection, measure), table in appendix.items():
        book = per_dataset.loc[per_dataset["feature_selection"] == feature_selection,
                               ["dataset", APPENDIX_COLUMNS[measure]]]
        paper = pd.DataFrame({"dataset": table["name"].astype(str),
                              "paper": pd.to_numeric(table["NCC"], errors="coerce") / 100})
        joined = paper.merge(book.rename(columns={APPENDIX_COLUMNS[measure]: "book"}), on="dataset", how="inner")
        joined = joined.dropna(subset=["paper", "book"])
        frames.append(joined.assign(feature_selection=feature_selection, measure=measure))
    columns = ["feature_selection", "measure", "dataset", "paper", "book"]
    frame = pd.concat(frames, ignore_index=True)[columns] if frames else pd.DataFrame(columns=columns)
    frame["difference"] = frame["book"] - frame["paper"]
    return frame


def _published_points(ax, x, y, label: str = "paper") -> None:
    """The paper's printed values: large hollow black markers over the book's curves."""
    ax.scatter(x, y, s=70, facecolors="none", edgecolors="black", linewidths=1.4, zorder=5, label=label)


def _figure(rows: int, cols: int, height: float, **kwargs):
    import matplotlib.pyplot as plt

    from credalbook.style import COLUMN_WIDTH

    return plt.subplots(rows, cols, figsize=(COLUMN_WIDTH, height), squeeze=False, **kwargs)


def artificial_figure(summary: pd.DataFrame, published: pd.DataFrame | None = None):
    """Fig. 2 of 2011 / Fig. 3 of 2012 from :func:`artificial_summary`, with the printed numbers of 2011 §8.

    Left: the median NBC accuracy, NCC discounted accuracy and NCC u65 by training size (the
    papers' figure). Right: NCC's area of ignorance and NBC's accuracy on it, NBC(NCC-I), with
    ``published`` (columns ``size``, ``nbc_ncc_i``, ``area_of_ignorance``) as hollow markers.
    Returns the figure.
    """
    fig, axes = _figure(1, 2, 3.8)
    left, right = axes[0]
    sizes = summary["size"]
    left.plot(sizes, summary["nbc_accuracy"], "o-", label="NBC: accuracy")
    left.plot(sizes, summary["ncc_discounted_accuracy"], "s--", label="NCC: discounted acc.")
    left.plot(sizes, summary["ncc_u65"], "^-", label="NCC: u65")
    left.set(xlabel="training set size", ylabel="median over the runs", title="Utilities (the papers' figure)",
             xticks=list(sizes))
    left.legend(loc="lower right")
    right.plot(sizes, summary["nbc_ncc_i"], "o-", color="C3", label="NBC(NCC-I)")
    right.plot(sizes, summary["area_of_ignorance"], "s-", color="C4", label="area of ignorance")
    right.axhline(0.65, color="grey", ls=":", lw=1)
    right.annotate("u65(1/2) = 0.65", (sizes.iloc[-1], 0.65), xytext=(0, 4), textcoords="offset points",
                   ha="right", va="bottom", color="grey")
    if published is not None:
        _published_points(right, published["size"], published["nbc_ncc_i"], label="paper (2011, §8)")
        _published_points(right, published["size"], published["area_of_ignorance"], label=None)
    right.set(xlabel="training set size", ylim=(0, 1), xticks=list(sizes), title="Where NCC is indeterminate")
    right.legend(loc="upper right")
    return fig


def krkp_figure(summary: pd.DataFrame, published: pd.DataFrame | None = None):
    """Fig. 3 of 2011 / Fig. 4 of 2012 from :func:`krkp_summary`, and Table 1 with its printed values.

    Left: mean NBC accuracy, NCC discounted accuracy and NCC u65 by training size (log axis).
    Right: NCC's determinacy and NBC(NCC-I) in percent, ``published`` (Table 1: ``size``,
    ``determinacy_pct``, ``nbc_ncc_i_pct``) as hollow markers. Returns the figure.
    """
    fig, axes = _figure(1, 2, 3.8, sharex=True)
    left, right = axes[0]
    sizes = summary["size"]
    left.plot(sizes, summary["nbc_accuracy"], "o-", label="NBC: accuracy")
    left.plot(sizes, summary["ncc_discounted_accuracy"], "s--", label="NCC: discounted acc.")
    left.plot(sizes, summary["ncc_u65"], "^-", label="NCC: u65")
    left.set(ylabel="mean over 100 splits", title="Utilities (the papers' figure)")
    left.legend(loc="lower right")
    right.plot(sizes, summary["determinacy_pct"], "o-", color="C3", label="NCC determinacy")
    right.plot(sizes, summary["nbc_ncc_i_pct"], "s-", color="C4", label="NBC(NCC-I)")
    right.axhline(65, color="grey", ls=":", lw=1)
    if published is not None:
        _published_points(right, published["size"], published["determinacy_pct"], label="paper (Table 1)")
        _published_points(right, published["size"], published["nbc_ncc_i_pct"], label=None)
    right.set(ylabel="percent", ylim=(0, 100), title="Table 1")
    right.legend(loc="lower right")
    for ax in (left, right):
        ax.set_xscale("log")
        ax.set_xticks(list(sizes), [str(s) for s in sizes])
        ax.minorticks_off()
        ax.set_xlabel("training set size")
    return fig


def uci_figure(per_dataset: pd.DataFrame):
    """Fig. 5 of 2012: NBC's against NCC's expected utility per dataset, u65 and u80, without and with CFS."""
    from credalbook.book.plots import equal_performance_scatter

    fig, axes = _figure(2, 2, 7.4)
    for col, feature_selection in enumerate((False, True)):
        t = per_dataset[per_dataset["feature_selection"] == feature_selection]
        for row, utility in enumerate(("u65", "u80")):
            equal_performance_scatter(t[f"ncc_{utility}"], t["nbc_accuracy"], ax=axes[row, col],
                                      xlabel=f"NCC {utility}", ylabel="NBC accuracy" if col == 0 else "",
                                      title=f"{utility}, {'with' if feature_selection else 'without'} CFS",
                                      limits=(0.2, 1.0))
    return fig


def ndc_figure(per_dataset: pd.DataFrame, feature_selection: bool = False, low_determinacy: float = 0.5):
    """Fig. 8 of 2012: NDC against NCC per dataset (determinacy, u65, u80, F1), without CFS by default.

    Datasets on which NCC's determinacy is below ``low_determinacy`` are drawn in a second colour.
    """
    from credalbook.book.plots import equal_performance_scatter

    t = per_dataset[per_dataset["feature_selection"] == feature_selection]
    low = (t["ncc_determinate"] < low_determinacy).to_numpy()
    fig, axes = _figure(2, 2, 7.4)
    for ax, (measure, label) in zip(axes.ravel(), [("determinate", "determinacy"), ("u65", "u65"), ("u80", "u80"),
                                                   ("f1", "F1")]):
        equal_performance_scatter(t[f"ncc_{measure}"], t[f"ndc_{measure}"], ax=ax, xlabel=f"NCC {label}",
                                  ylabel=f"NDC {label}", highlight=low, limits=(0, 1),
                                  highlight_label=f"NCC determinacy < {low_determinacy:.0%}")
    axes[0, 0].legend(loc="lower right")
    return fig


def appendix_figure(comparison: pd.DataFrame, tolerance: float = 0.05):
    """Paper (Appendix A) against book per dataset, one panel per measure and setting, from
    :func:`uci_appendix_comparison`; the band of ±``tolerance`` around the diagonal is shaded."""
    measures = list(APPENDIX_COLUMNS)
    fig, axes = _figure(2, len(measures), 4.6, sharex=True, sharey=True)
    for row, feature_selection in enumerate((False, True)):
        for col, measure in enumerate(measures):
            ax = axes[row, col]
            t = comparison[(comparison["feature_selection"] == feature_selection) & (comparison["measure"] == measure)]
            grid = np.array([0.0, 1.0])
            ax.fill_between(grid, grid - tolerance, grid + tolerance, color="#dddddd", lw=0, zorder=0)
            ax.plot(grid, grid, color="grey", lw=0.8)
            outside = (t["difference"].abs() > tolerance).to_numpy()
            ax.scatter(t["paper"][~outside], t["book"][~outside], s=12, color="C0", lw=0)
            ax.scatter(t["paper"][outside], t["book"][outside], s=16, color="C1", lw=0)
            ax.set(xlim=(0, 1.02), ylim=(0, 1.02), aspect="equal", xticks=[0, 0.5, 1], yticks=[0, 0.5, 1])
            ax.set_xticklabels(["0", "0.5", "1"])
            ax.set_yticklabels(["0", "0.5", "1"])
            if row == 0:
                ax.set_title(measure, fontsize=11)
            if row == 1:
                ax.set_xlabel("paper")
            if col == 0:
                ax.set_ylabel(f"book, {'CFS' if feature_selection else 'MDL'}")
    return fig


def rejection_figure(runs: pd.DataFrame, published: pd.DataFrame | None = None):
    """§9.4 simulated: mean u80 and determinacy of NBC, NCC, NBC_t and NCC_t by training size,
    ``published`` (``model``, ``u80``: the paper's large-sample values) as hollow markers at the largest size."""
    means = runs.groupby(["size", "model"])[["u80", "determinacy"]].mean().reset_index()
    fig, axes = _figure(1, 2, 3.6, sharex=True)
    styles = {"NBC": ("o-", "C0"), "NCC": ("s--", "C1"), "NBC_t": ("^-", "C2"), "NCC_t": ("v--", "C3")}
    for model, (marker, colour) in styles.items():
        m = means[means["model"] == model]
        if m.empty:
            continue
        for ax, column in zip(axes[0], ("u80", "determinacy")):
            ax.plot(m["size"], m[column], marker, color=colour, label=model)
    if published is not None:
        largest = means["size"].max()
        _published_points(axes[0, 0], [largest] * len(published), published["u80"], label="paper (§9.4)")
    axes[0, 0].set(ylabel="mean u80", title="u80")
    axes[0, 1].set(ylabel="share of determinate outputs", title="Determinacy", ylim=(-0.03, 1.03))
    axes[0, 1].legend(*axes[0, 0].get_legend_handles_labels(), loc="center right")
    sizes = sorted(means["size"].unique())
    for ax in axes[0]:
        ax.set_xscale("log")
        ax.set_xticks(sizes, [f"{s:,}" for s in sizes])
        ax.minorticks_off()
        ax.set_xlabel("training set size")
    return fig
