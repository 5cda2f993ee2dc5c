"""Experiments of Ferri, Hernández-Orallo & Flach (2019), Sect. 6: threshold choice methods
under operating-condition uncertainty on 26 binary datasets and 12 model types.

Protocol (Sect. 6.1 and the authors' R code): the class attribute is the last one; the majority
class is class 1 and the score is the estimated probability of class 1 (so class 0, the positive
class, is the minority); 10 stratified 50/50 train/test splits (seeds 1..10); for every model
the expected loss of test-optimal, train-optimal, score-driven and rate-driven thresholds for
γ ∈ {∞, 16, 8, 4, 2, 1, 0}. The book integrates K_γ(c) over c exactly (the paper averages a
grid of c, i/1000 for i = 1..1000, and draws one ĉ per grid point); the chapter shows the difference. The authors'
reading of the methods, kept beside the book's and never in its place, is :func:`train_optimal_as_authors`
(their R code's ``ThresMin``: the first least-loss training cost line, ties to the lowest threshold) and
:func:`authors_losses` (the mean over c = i/1000, i = 1..1000, one ĉ drawn per c).

Model types (Table 6, Weka via RWeka in the paper) and their scikit-learn stand-ins:

======== =====================================================================================
IBK1     1-nearest neighbour; crisp 0/1 score of the predicted class (as the paper's R code)
IBK10    10-nearest neighbours, score = fraction of the 10 neighbours in class 1
J48      CART tree grown with entropy and ≥ 2 instances per leaf, then C4.5 error-based pruning
         (subtree replacement, CF = 0.25; no subtree raising), leaf frequencies as scores
J48Unp   the same tree unpruned, Laplace-corrected leaf frequencies (n1 + 1)/(n + 2)
Logist   logistic regression, L2 with C = 100 on standardised attributes (Weka: ridge 10⁻⁸)
NB       naive Bayes: Gaussian for numeric attributes, Laplace-smoothed frequencies for nominal
PART     decision list: repeatedly grow a pruned J48 stand-in on the uncovered instances and keep
         its leaf of largest coverage as the next rule (Frank & Witten's PART builds *partial*
         trees; the full tree here chooses the same kind of rule at a higher cost)
Stump    depth-1 tree, branch frequencies
SVMp     linear SVM (C = 1, attributes scaled to [0, 1]) with a Platt sigmoid fitted on the
         training decision values (Weka SMO -M fits it on the training data too)
SVM      the same SVM, crisp 0/1 scores of the predicted class
Prior    π1 of the training sample for every instance
Random   uniform random scores in [0, 1]
======== =====================================================================================

Nominal attributes are one-hot coded for every model but NB (binary splits instead of C4.5's
multiway splits); missing values are imputed with the training median / mode (Weka's learners
handle them internally); the SVMs see numeric attributes scaled to [0, 1] and one-hot columns
scaled by 1/√2. The nearest-neighbour distance is Weka IBk's: numeric attributes scaled to [0, 1],
a nominal mismatch counting 1, summed attribute by attribute with ties broken by training order
(:func:`nearest_neighbour_scores`), so that the neighbours do not depend on the machine's BLAS.
"""
from __future__ import annotations

import warnings
from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy.stats import norm

from credalbook import costspace as cs
from credalbook.book.experiments.registry import Experiment, register

__all__ = ["MODELS", "METHODS", "GAMMAS", "BASELINES", "SPLITS", "CI_DATASETS", "datasets", "binary_task",
           "split", "EncodedFeatures", "nearest_neighbour_scores", "fit_scores", "model_scores", "evaluate_scores", "run_split",
           "split_rows", "STUDY", "AUTHORS_GRID", "AUTHORS_METHODS", "train_optimal_as_authors", "authors_losses",
           "split_rows_authors", "authors_table7", "authors_reading_table", "rank_agreement_by_gamma",
           "by_model", "by_dataset", "by_model_and_gamma", "certainty_increase",
           "diagonal_shares", "difference_correlation", "difference_correlations", "gap_rank_correlations",
           "ranks_by_gamma", "plot_ranks_by_gamma",
           "split_tolerance", "cost_curve_panels", "losses_frame", "certainty_worse", "theorem_checks",
           "ARM_STYLES", "plot_loss_by_certainty", "plot_runs", "protocol_errors", "gamma_label", "plot_paper_vs_book", "VERDICT_MARKERS"]

#: The twelve Weka models of Ferri et al. (2019) §6, by the paper's names.
MODELS = ("IBK1", "IBK10", "J48", "J48Unp", "Logist", "NB", "PART", "Prior", "Random", "Stump", "SVMp", "SVM")
#: The four threshold choice methods compared in Ferri et al. (2019) §6.
METHODS = ("test-optimal", "train-optimal", "score-driven", "rate-driven")
#: Concentrations of the Beta operating-condition distribution (inf when the operating condition is known).
GAMMAS = (np.inf, 16.0, 8.0, 4.0, 2.0, 1.0, 0.0)
#: The models without information (baselines of the paper's figures).
BASELINES = ("Prior", "Random")
#: Random train/test splits per dataset and model.
SPLITS = 10
#: The datasets recomputed by the ci profile.
CI_DATASETS = ("credit-a", "heart-statlog", "vote")


def datasets() -> list[str]:
    from credalbook import data

    return list(data.list_datasets("ferri2019")["name"])


# ---------------------------------------------------------------------------------------- data

def binary_task(name: str):
    """Features and labels of a Ferri et al. dataset: y = 1 for the majority class (the last
    attribute is the class; a tie makes the later declared class the majority)."""
    from credalbook import data

    d = data.load(name, group="ferri2019")
    codes = np.asarray(d.y_codes)
    counts = np.bincount(codes, minlength=len(d.classes))
    majority = len(counts) - 1 - int(np.argmax(counts[::-1]))
    return d.X, (codes == majority).astype(np.int64)


def split(y: np.ndarray, seed: int, train_fraction: float = 0.5):
    """Stratified train/test indices (the paper: 50/50, seeds 1..10; Fig. 1: 99/1)."""
    from sklearn.model_selection import train_test_split

    return train_test_split(np.arange(len(y)), train_size=train_fraction, stratify=y, random_state=seed)


class EncodedFeatures:
    """Numeric block (imputed) and nominal block (mode-imputed codes) fitted on a training frame."""

    def __init__(self, X_train: pd.DataFrame):
        self.numeric = [c for c in X_train.columns if not isinstance(X_train[c].dtype, pd.CategoricalDtype)]
        self.nominal = [c for c in X_train.columns if c not in self.numeric]
        num = X_train[self.numeric].to_numpy(dtype=float)
        med = np.nanmedian(num, axis=0) if num.size else np.zeros(0)
        self.median = np.where(np.isnan(med), 0.0, med)
        self.categories = [len(X_train[c].cat.categories) for c in self.nominal]
        self.mode = []
        for c in self.nominal:
            codes = X_train[c].cat.codes.to_numpy()
            codes = codes[codes >= 0]
            self.mode.append(int(np.bincount(codes).argmax()) if codes.size else 0)
        filled = self._num(X_train)
        self.lo, self.hi = filled.min(axis=0), filled.max(axis=0)
        self.mean, self.std = filled.mean(axis=0), filled.std(axis=0)

    def _num(self, X):
        num = X[self.numeric].to_numpy(dtype=float)
        return np.where(np.isnan(num), self.median[None, :], num)

    def codes(self, X) -> np.ndarray:
        out = np.empty((len(X), len(self.nominal)), dtype=np.int64)
        for j, c in enumerate(self.nominal):
            col = X[c].cat.codes.to_numpy().astype(np.int64)
            out[:, j] = np.where(col < 0, self.mode[j], col)
        return out

    def onehot(self, X) -> np.ndarray:
        codes = self.codes(X)
        blocks = [np.eye(k)[codes[:, j]] for j, k in enumerate(self.categories)]
        return np.hstack(blocks) if blocks else np.zeros((len(X), 0))

    def matrix(self, X, scaling: str) -> np.ndarray:
        num = self._num(X)
        if scaling == "minmax":
            span = np.where(self.hi > self.lo, self.hi - self.lo, 1.0)
            num = (num - self.lo) / span
        elif scaling == "standard":
            num = (num - self.mean) / np.where(self.std > 0, self.std, 1.0)
        onehot = self.onehot(X) * (np.sqrt(0.5) if scaling == "minmax" else 1.0)
        return np.hstack([num, onehot])


# ---------------------------------------------------------------------------------------- trees

def _c45_added_errors(N: np.ndarray, e: np.ndarray, cf: float = 0.25) -> np.ndarray:
    """Quinlan's pessimistic extra errors U_CF(e, N) − e of a leaf with N instances and e errors
    (C4.5; Weka's Stats.addErrs)."""
    N = np.asarray(N, dtype=float)
    e = np.asarray(e, dtype=float)
    z = norm.ppf(1 - cf)
    base = N * (1 - cf ** (1 / N))
    f = (e + 0.5) / N
    r = (f + z * z / (2 * N) + z * np.sqrt(np.maximum(f / N - f * f / N + z * z / (4 * N * N), 0))) / (1 + z * z / N)
    normal = r * N - e
    one = N * ((1 + 0.5) / N + z * z / (2 * N) + z * np.sqrt(np.maximum(1.5 / N ** 2 - 2.25 / N ** 3 + z * z / (4 * N * N), 0))) / (1 + z * z / N) - 1
    small = np.where(e == 0, base, base + e * (one - base))
    return np.where(e < 1, small, np.where(e + 0.5 >= N, np.maximum(N - e, 0.0), normal))


class _Tree:
    """A fitted scikit-learn tree, optionally C4.5-pruned; scores from (pruned) leaf counts."""

    def __init__(self, X, y, *, prune: bool, laplace: bool, max_depth=None, seed: int = 0):
        from sklearn.tree import DecisionTreeClassifier

        self.model = DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2 if max_depth is None else 1,
                                            max_depth=max_depth, random_state=seed).fit(X, y)
        tree = self.model.tree_
        counts = tree.value[:, 0, :] * tree.weighted_n_node_samples[:, None]
        if counts.shape[1] == 1:  # one-class training sample
            only = self.model.classes_[0]
            counts = np.hstack([counts * (only == 0), counts * (only == 1)])
        self.counts = counts
        self.laplace = laplace
        self.leaf_of = np.arange(tree.node_count)
        if prune:
            self._prune()

    def _prune(self):
        tree = self.model.tree_
        left, right = tree.children_left, tree.children_right
        N = self.counts.sum(axis=1)
        e = N - self.counts.max(axis=1)
        leaf_error = e + _c45_added_errors(N, e)
        subtree_error = np.zeros(tree.node_count)
        keep_split = np.zeros(tree.node_count, dtype=bool)
        for node in range(tree.node_count - 1, -1, -1):  # children have larger ids than parents
            if left[node] < 0:
                subtree_error[node] = leaf_error[node]
                continue
            branches = subtree_error[left[node]] + subtree_error[right[node]]
            keep_split[node] = leaf_error[node] > branches + 0.1
            subtree_error[node] = branches if keep_split[node] else leaf_error[node]
        # top-down (parents have smaller ids): every node maps to its highest ancestor made a leaf
        for node in range(tree.node_count):
            if left[node] < 0:
                continue
            target = self.leaf_of[node] if self.leaf_of[node] != node or not keep_split[node] else None
            for child in (left[node], right[node]):
                self.leaf_of[child] = child if target is None else target

    def node(self, X) -> np.ndarray:
        return self.leaf_of[self.model.apply(X)]

    def scores(self, X) -> np.ndarray:
        counts = self.counts[self.node(X)]
        if self.laplace:
            return (counts[:, 1] + 1) / (counts.sum(axis=1) + 2)
        return counts[:, 1] / counts.sum(axis=1)


class _DecisionList:
    """PART stand-in: rules are the largest-coverage leaves of successive pruned trees."""

    def __init__(self, X, y, seed: int = 0, max_rules: int = 500):
        self.rules = []  # (tree, node, score)
        remaining = np.arange(len(y))
        while remaining.size:
            tree = _Tree(X[remaining], y[remaining], prune=True, laplace=False, seed=seed)
            nodes = tree.node(X[remaining])
            if np.unique(nodes).size == 1 or len(self.rules) == max_rules - 1:
                self.default = np.mean(y[remaining])
                return
            ids, cover = np.unique(nodes, return_counts=True)
            best = ids[np.argmax(cover)]
            covered = nodes == best
            self.rules.append((tree, best, float(np.mean(y[remaining][covered]))))
            remaining = remaining[~covered]
        self.default = float(np.mean(y))

    def scores(self, X) -> np.ndarray:
        out = np.full(len(X), np.nan)
        for tree, node, score in self.rules:
            free = np.isnan(out)
            if not free.any():
                break
            hit = np.zeros(len(X), dtype=bool)
            hit[free] = tree.node(X[free]) == node
            out[hit] = score
        out[np.isnan(out)] = self.default
        return out


# ---------------------------------------------------------------------------------------- models

def _naive_bayes(enc: EncodedFeatures, Xtr, ytr, Xte):
    from sklearn.naive_bayes import CategoricalNB, GaussianNB

    models = []
    if enc.numeric:
        models.append((GaussianNB().fit(enc._num(Xtr), ytr), enc._num))
    if enc.nominal:
        models.append((CategoricalNB(alpha=1.0, min_categories=np.array(enc.categories)).fit(enc.codes(Xtr), ytr),
                       enc.codes))
    log_prior = np.log(np.bincount(ytr, minlength=2) / len(ytr))

    def proba(X):
        # each block's joint log-likelihood includes the class prior once: keep a single copy
        jll = sum(m.predict_joint_log_proba(block(X)) for m, block in models) - (len(models) - 1) * log_prior
        jll -= jll.max(axis=1, keepdims=True)
        p = np.exp(jll)
        return p[:, 1] / p.sum(axis=1)

    return proba(Xtr), proba(Xte)


def nearest_neighbour_scores(enc: EncodedFeatures, X_train: pd.DataFrame, y_train: np.ndarray, X_query: pd.DataFrame,
                             k: int, max_cells: int = 4_000_000) -> np.ndarray:
    """Share of class 1 among the ``k`` nearest training instances of each query row, shape (n_query,).

    Weka IBk's distance: numeric attributes scaled to [0, 1] by the training range, a nominal
    mismatch counts 1 (squared distance = Σ Δ² over numeric attributes + number of mismatches).
    Distances are summed attribute by attribute (no dot-product expansion, whose rounding
    depends on the machine's BLAS and turns exact ties into arbitrary orders), and ties are
    broken by training order, so the neighbours do not depend on the machine. For ``k = 1`` the
    score is the nearest instance's class (0 or 1), as the paper's IBK1.
    """
    span = np.where(enc.hi > enc.lo, enc.hi - enc.lo, 1.0)
    num_train, num_query = (enc._num(X_train) - enc.lo) / span, (enc._num(X_query) - enc.lo) / span
    codes_train, codes_query = enc.codes(X_train), enc.codes(X_query)
    labels = np.asarray(y_train, dtype=float)
    chunk = max(1, max_cells // max(1, len(num_train) * max(1, num_train.shape[1] + codes_train.shape[1])))
    scores = np.empty(len(num_query))
    for start in range(0, len(num_query), chunk):
        rows = slice(start, start + chunk)
        squared = ((num_query[rows, None, :] - num_train[None, :, :]) ** 2).sum(axis=2)
        squared += (codes_query[rows, None, :] != codes_train[None, :, :]).sum(axis=2)
        scores[rows] = _nearest(squared, k) @ labels / min(k, len(labels))
    return scores


def _nearest(squared: np.ndarray, k: int) -> np.ndarray:
    """(m, n) bool: per row, the ``k`` smallest entries of ``squared``, ties going to the lower column.

    The first ``k`` of a stable argsort, found by one partition: the entries below the k-th
    smallest value, then the first of those equal to it (Weka IBk's order of the training instances).
    """
    if k >= squared.shape[1]:
        return np.ones(squared.shape, dtype=bool)
    kth = np.partition(squared, k - 1, axis=1)[:, k - 1:k]
    below = squared < kth
    tied = squared == kth
    return below | (tied & (np.cumsum(tied, axis=1) <= k - below.sum(axis=1, keepdims=True)))


def fit_scores(model: str, X_train: pd.DataFrame, y_train: np.ndarray, X_test: pd.DataFrame, seed: int):
    """Scores (estimated probability of class 1) of model type ``model`` on the training and the
    test instances, after fitting on the training instances."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression
    from sklearn.svm import LinearSVC

    if model not in MODELS:
        raise ValueError(f"model must be one of {', '.join(MODELS)}; got {model!r}")
    if model == "Prior":
        p = float(np.mean(y_train))
        return np.full(len(X_train), p), np.full(len(X_test), p)
    if model == "Random":
        rng = np.random.default_rng(seed)
        return rng.uniform(size=len(X_train)), rng.uniform(size=len(X_test))
    enc = EncodedFeatures(X_train)
    if model == "NB":
        return _naive_bayes(enc, X_train, y_train, X_test)
    scaling = {"SVM": "minmax", "SVMp": "minmax", "Logist": "standard"}.get(model)
    A, B = enc.matrix(X_train, scaling), enc.matrix(X_test, scaling)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        if model in ("IBK1", "IBK10"):
            k = 1 if model == "IBK1" else 10
            return (nearest_neighbour_scores(enc, X_train, y_train, X_train, k),
                    nearest_neighbour_scores(enc, X_train, y_train, X_test, k))
        if model in ("J48", "J48Unp", "Stump"):
            tree = _Tree(A, y_train, prune=model == "J48", laplace=model == "J48Unp",
                         max_depth=1 if model == "Stump" else None, seed=seed)
            return tree.scores(A), tree.scores(B)
        if model == "PART":
            rules = _DecisionList(A, y_train, seed=seed)
            return rules.scores(A), rules.scores(B)
        if model == "Logist":
            lr = LogisticRegression(C=100.0, max_iter=2000).fit(A, y_train)
            return lr.predict_proba(A)[:, 1], lr.predict_proba(B)[:, 1]
        svm = LinearSVC(C=1.0, max_iter=20000, random_state=seed).fit(A, y_train)  # the dual solver shuffles
        if model == "SVM":
            return svm.predict(A).astype(float), svm.predict(B).astype(float)
        platt = LogisticRegression(C=1e6, max_iter=1000).fit(svm.decision_function(A)[:, None], y_train)
        return (platt.predict_proba(svm.decision_function(A)[:, None])[:, 1],
                platt.predict_proba(svm.decision_function(B)[:, None])[:, 1])


def model_scores(dataset: str, model: str, seed: int = 1, train_fraction: float = 0.5):
    """(y_train, s_train, y_test, s_test) of one model on one split of one dataset."""
    X, y = binary_task(dataset)
    train, test = split(y, seed, train_fraction)
    s_train, s_test = fit_scores(model, X.iloc[train], y[train], X.iloc[test], seed=_model_seed(dataset, seed))
    return y[train], s_train, y[test], s_test


def _model_seed(dataset: str, seed: int) -> int:
    return int(seed * 1000 + sum(map(ord, dataset)))


# ---------------------------------------------------------------------------------------- study

def evaluate_scores(y_train, s_train, y_test, s_test, gammas=GAMMAS) -> list[dict]:
    """Aggregate measures of a scored test sample and the expected losses of the four methods."""
    d = cs.brier_decomposition(y_test, s_test)
    conv = cs.brier_decomposition(y_test, s_test, convexify=True)
    common = {"AUC": cs.auc(y_test, s_test), "BS": d["BS"], "CL": d["CL"], "RL": d["RL"], "RL_conv": conv["RL"],
              "MAE": cs.mean_absolute_error(y_test, s_test), "pi0": float(np.mean(y_test == 0))}
    selections = {m: cs.threshold_selection(y_test, s_test, m, y_train=y_train, s_train=s_train) for m in METHODS}
    rows = []
    for gamma in gammas:
        row = {"gamma": gamma, **common}
        for m, sel in selections.items():
            row[m] = sel.loss(gamma)
        rows.append(row)
    return rows


def run_split(dataset: str, seed: int) -> pd.DataFrame:
    """All 12 model types on one stratified 50/50 split of one dataset (a grid task)."""
    return split_rows(dataset, seed, fit_scores)


def split_rows(dataset: str, seed: int, scorer) -> pd.DataFrame:
    """The study's rows of one split: every model type of :data:`MODELS` scored by
    ``scorer(model, X_train, y_train, X_test, seed)`` (:func:`fit_scores`, or another arm's)."""
    X, y = binary_task(dataset)
    train, test = split(y, seed)
    rows = []
    for model in MODELS:
        s_train, s_test = scorer(model, X.iloc[train], y[train], X.iloc[test], seed=_model_seed(dataset, seed))
        for row in evaluate_scores(y[train], s_train, y[test], s_test):
            rows.append({"dataset": dataset, "split": seed, "model": model, **row})
    return pd.DataFrame(rows)


#: 26 datasets x 12 models x 10 splits, 4 methods x 7 concentrations (Ferri et al. 2019, §6).
STUDY = register(Experiment(
    name="ferri2019_thresholds",
    description="Ferri et al. (2019): 26 datasets x 12 models x 10 splits, 4 methods x 7 gammas",
    task=run_split,
    grid=lambda: [{"dataset": d, "seed": s} for d in datasets() for s in range(1, SPLITS + 1)],
    ci=lambda config: config["dataset"] in CI_DATASETS and config["seed"] == 1,
    keys=("dataset", "split", "model", "gamma"),
    columns=(),  # the rows name their dataset and split
    version="1",
    options={"n_jobs": 2},
))


# ---------------------------------------------------------------------------------------- the authors' reading

#: Points of the authors' grid of true cost proportions, c = i/1000 for i = 1..1000 (Ferri et al. 2019's R code,
#: ``RESOLUTION_EMPIRICAL_CURVES`` in ``Uncertainty/options.R``).
AUTHORS_GRID = 1000
#: The threshold choice methods the authors' reading recomputes, and the column each gets in the rows.
AUTHORS_METHODS = {"test-optimal": "test-optimal (authors)", "train-optimal": "train-optimal (authors)",
                   "score-driven": "score-driven (authors)"}


def train_optimal_as_authors(y_train, s_train, c_hat) -> np.ndarray:
    """The threshold that Ferri et al. (2019)'s R code picks as train-optimal for each presumed cost
    proportion in ``c_hat`` (its ``ThresMin`` on the cost lines of ``MinCost``), an array of ``c_hat``'s shape.

    Every one of the G + 1 cost lines of the scored training sample (``y_train``, ``s_train``: the model's
    scores of its own training instances; tied scores one group) is evaluated at ĉ as the R code does,
    2π1F1 + (2π0(1 − F0) − 2π1F1) ĉ, and the *first* line of least loss is kept (a strict ``<`` scanning the
    cuts from the lowest score up: ties go to the lowest threshold). Its threshold is the midpoint of the
    two distinct training scores it falls between, −0.1 below every score and 1.1 above every score (the
    R code's constants, so the scores must lie in [0, 1]); class 1 is then predicted where s > t.

    The book's train-optimal (:func:`credalbook.costspace.threshold_selection`) chooses the same cost line
    except at the finitely many ĉ where two lines tie, where it keeps the higher threshold.
    """
    lines = cs.cost_lines(y_train, s_train)
    u = lines.scores
    if u[0] < 0.0 or u[-1] > 1.0:
        raise ValueError(f"s_train must lie in [0, 1] (the R code's thresholds -0.1 and 1.1 bracket them); "
                         f"got range [{u[0]:.6g}, {u[-1]:.6g}]")
    c_hat = np.asarray(c_hat, dtype=float)
    if c_hat.size and (np.isnan(c_hat).any() or c_hat.min() < 0.0 or c_hat.max() > 1.0):
        raise ValueError("c_hat must hold cost proportions in [0, 1]")
    left = lines.F1 * lines.pi1 * 2.0  # MinCost: Leftv <- G1nomin[i] * pi1 * bfactor
    right = (1.0 - lines.F0) * lines.pi0 * 2.0  # Rightv <- (1 - G0nomin[i]) * pi0 * bfactor
    heights = left[None, :] + (right - left)[None, :] * c_hat.reshape(-1, 1)  # ThresMin: yf[2j-1] + pdt * s
    chosen = np.argmin(heights, axis=1)  # the first minimum, as ThresMin's strict "<"
    cuts = np.concatenate([[-0.1], (u[1:] + u[:-1]) / 2, [1.1]])
    return cuts[chosen].reshape(c_hat.shape)


def _authors_c_hat(gamma: float, grid: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One presumed ĉ per grid point, as the R code draws it: ĉ = c (γ = ∞), U(0, 1) (γ = 0), else
    Beta(γc + 1, γ(1 − c) + 1)."""
    if gamma == np.inf:
        return grid.copy()
    if gamma == 0:
        return rng.uniform(size=len(grid))
    return rng.beta(gamma * grid + 1.0, gamma * (1.0 - grid) + 1.0)


def authors_losses(y_train, s_train, y_test, s_test, gammas=GAMMAS, *, seed: int = 0,
                   n_grid: int = AUTHORS_GRID) -> list[dict]:
    """Expected losses under Ferri et al. (2019)'s R protocol (``Uncertainty/experiments_binomial_v72.R``), one
    row per γ with the columns of :data:`AUTHORS_METHODS`.

    The true cost proportion runs over c = i/n_grid, i = 1..n_grid (no c = 0); at each c one ĉ is drawn
    (as the R code draws it; numpy's generator seeded with ``seed``, not R's) and shared by the methods: the
    train-optimal threshold is :func:`train_optimal_as_authors` on the training scores, test-optimal the same
    rule on the test sample, score-driven t = ĉ; each is paid on the test sample at c (Eq. 3,
    ``comp_cost_single``: class 1 where s > t) and the loss is the mean over the grid.
    """
    grid = np.arange(1, n_grid + 1) / n_grid
    rng = np.random.default_rng(seed)
    rows = []
    for gamma in gammas:
        c_hat = _authors_c_hat(float(gamma), grid, rng)
        thresholds = {"test-optimal": train_optimal_as_authors(y_test, s_test, c_hat),
                      "train-optimal": train_optimal_as_authors(y_train, s_train, c_hat),
                      "score-driven": c_hat}
        row = {"gamma": gamma}
        for method, column in AUTHORS_METHODS.items():
            row[column] = float(np.mean(cs.loss(y_test, s_test, thresholds[method], grid)))
        rows.append(row)
    return rows


def split_rows_authors(dataset: str, seed: int, scorer, models=MODELS) -> pd.DataFrame:
    """:func:`split_rows` with the authors' reading beside the book's convention: every row also has the
    columns of :data:`AUTHORS_METHODS` (:func:`authors_losses` on the same scores, the draws of ĉ seeded by
    the dataset, split and model)."""
    X, y = binary_task(dataset)
    train, test = split(y, seed)
    rows = []
    for index, model in enumerate(models):
        model_seed = _model_seed(dataset, seed)
        s_train, s_test = scorer(model, X.iloc[train], y[train], X.iloc[test], seed=model_seed)
        book = evaluate_scores(y[train], s_train, y[test], s_test)
        authors = authors_losses(y[train], s_train, y[test], s_test, seed=model_seed * 100 + index)
        for own, theirs in zip(book, authors):
            rows.append({"dataset": dataset, "split": seed, "model": model, **own,
                         **{k: v for k, v in theirs.items() if k != "gamma"}})
    return pd.DataFrame(rows)


def authors_table7(frame: pd.DataFrame, gamma=np.inf) -> pd.DataFrame:
    """Table 7's threshold columns under both conventions: per model type, the means over datasets and splits
    of the book's test-optimal, train-optimal and score-driven losses and the authors' reading of each
    (:func:`split_rows_authors` rows), and sc_vs_tr under each (score-driven better than or equal to
    train-optimal, up to rounding)."""
    _require(frame, ["model", "gamma", *METHODS[:3], *AUTHORS_METHODS.values()])
    part = frame[frame["gamma"] == gamma]
    if part.empty:
        raise ValueError(f"frame holds no row at gamma = {gamma}")
    part = part.assign(
        sc_vs_tr=(part["score-driven"] <= part["train-optimal"] + 1e-12).astype(float),
        **{"sc_vs_tr (authors)": (part["score-driven (authors)"] <= part["train-optimal (authors)"] + 1e-12)
           .astype(float)})
    columns = ["test-optimal", "test-optimal (authors)", "train-optimal", "train-optimal (authors)",
               "score-driven", "score-driven (authors)", "sc_vs_tr", "sc_vs_tr (authors)"]
    return part.groupby("model", sort=True)[columns].mean().reset_index()


def authors_reading_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Table 7's train-optimal and sc_vs_tr columns three ways, one row per model type: the paper's printed
    value (``data/paper/ferri2019_table7.csv``), the book's convention and the authors' reading, both means
    over the runs of ``frame`` at γ = ∞ (:func:`authors_table7`)."""
    from credalbook.book.reference import published

    paper = published("ferri2019_table7").set_index("model")
    ours = authors_table7(frame).set_index("model")
    models = [m for m in paper.index if m in ours.index]
    if not models:
        raise ValueError("frame holds none of Table 7's model types")
    return pd.DataFrame({
        "model": models,
        "train-optimal, paper": paper.loc[models, "train-optimal"].to_numpy(dtype=float),
        "train-optimal, book": ours.loc[models, "train-optimal"].to_numpy(),
        "train-optimal, authors' reading": ours.loc[models, "train-optimal (authors)"].to_numpy(),
        "sc_vs_tr, paper": paper.loc[models, "sc_vs_tr"].to_numpy(dtype=float),
        "sc_vs_tr, book": ours.loc[models, "sc_vs_tr"].to_numpy(),
        "sc_vs_tr, authors' reading": ours.loc[models, "sc_vs_tr (authors)"].to_numpy()})


def rank_agreement_by_gamma(frame: pd.DataFrame, reference: pd.Series, column: str = "train-optimal",
                            exclude=()) -> pd.DataFrame:
    """Per γ, Spearman's ρ and Kendall's τ between the model types' mean ``column`` losses in ``frame`` (over
    datasets and splits) and ``reference`` (one loss per model type, e.g. Table 7's train-optimal column or
    the paper's means at that γ; a frame with one column per γ label of :func:`gamma_label` gives each γ
    its own reference)."""
    from scipy.stats import kendalltau, spearmanr

    _require(frame, ["model", "gamma", column])
    part = frame[~frame["model"].isin(exclude)]
    rows = []
    for gamma in sorted(part["gamma"].unique(), reverse=True):
        means = part[part["gamma"] == gamma].groupby("model")[column].mean()
        ref = reference[gamma_label(gamma)] if isinstance(reference, pd.DataFrame) else reference
        common = means.index.intersection(ref.index)
        if len(common) < 3:
            raise ValueError(f"fewer than three model types shared with reference at gamma = {gamma_label(gamma)}")
        rows.append({"gamma": gamma, "models": len(common),
                     "spearman": float(spearmanr(means[common], ref[common]).statistic),
                     "kendall": float(kendalltau(means[common], ref[common]).statistic)})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------- tables

def by_model(frame: pd.DataFrame, gamma=np.inf) -> pd.DataFrame:
    """Table 7: means over datasets and splits per model type, with sc_vs_tr and rd_vs_tr
    (proportion of runs where score-/rate-driven is better than or equal to train-optimal)."""
    return _summary(frame[frame["gamma"] == gamma], "model")


def by_dataset(frame: pd.DataFrame, gamma=np.inf, exclude=BASELINES) -> pd.DataFrame:
    """Table 8: means over model types (baselines excluded) and splits per dataset, sorted by
    test-optimal loss."""
    part = frame[(frame["gamma"] == gamma) & ~frame["model"].isin(exclude)]
    return _summary(part, "dataset").sort_values("test-optimal").reset_index(drop=True)


def by_model_and_gamma(frame: pd.DataFrame, exclude=BASELINES) -> pd.DataFrame:
    """Fig. 5: mean expected loss of every method per model type (rows) and certainty γ (columns
    level ``gamma``), over datasets and splits, baselines excluded."""
    part = frame[~frame["model"].isin(exclude)]
    return part.groupby(["model", "gamma"])[list(METHODS)].mean()


def _require(frame: pd.DataFrame, columns, name: str = "frame") -> None:
    """A clear ValueError when ``frame`` is not a frame of the study's rows with ``columns``."""
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"{name} must be a pandas DataFrame of the study's rows, got {type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} lacks the columns {missing}")


def _method(value: str, name: str = "method") -> str:
    if value not in METHODS:
        raise ValueError(f"{name} must be one of {', '.join(METHODS)}; got {value!r}")
    return value


def certainty_increase(frame: pd.DataFrame, method: str = "train-optimal", exclude=BASELINES) -> pd.Series:
    """Fig. 5 of Ferri et al. (2019) read from end to end: per model type (index), the mean expected loss
    of threshold choice ``method`` at complete uncertainty (γ = 0) minus that at complete certainty
    (γ = ∞), over datasets and splits, model types in ``exclude`` left out."""
    _require(frame, ["model", "gamma", _method(method)])
    means = by_model_and_gamma(frame, exclude)[method].unstack("gamma")
    if means.empty or not {0.0, np.inf} <= set(means.columns):
        raise ValueError("frame must hold runs at γ = ∞ and γ = 0 of a model type outside exclude")
    return (means[0.0] - means[np.inf]).rename(method)


def diagonal_shares(frame: pd.DataFrame, *, x: str = "train-optimal", y: str = "score-driven", gammas=(np.inf, 0.0),
                    by=("model",), tol: float = 1e-12) -> pd.DataFrame:
    """Fig. 6 of Ferri et al. (2019) counted: the share of runs below the diagonal (``y``'s loss lower
    than ``x``'s by more than ``tol``), on it and above it, per group of ``by`` and certainty level
    (index ``(*by, "gamma")``, the γ in ``gammas`` only; columns ``below``, ``on``, ``above``)."""
    by = [by] if isinstance(by, str) else list(by)
    _require(frame, ["gamma", _method(x, "x"), _method(y, "y"), *by])
    if not tol >= 0:
        raise ValueError(f"tol must be a non-negative number, got {tol!r}")
    part = frame[frame["gamma"].isin(list(gammas))]
    if part.empty:
        raise ValueError(f"frame holds no run at the certainty levels {[gamma_label(g) for g in gammas]}")
    gap = part[y] - part[x]
    sides = pd.DataFrame({"below": gap < -tol, "on": gap.abs() <= tol, "above": gap > tol}).astype(float)
    return sides.groupby([part[k] for k in (*by, "gamma")]).mean()


def difference_correlation(frame: pd.DataFrame, measure: str, method: str = "rate-driven", *,
                           reference: str = "train-optimal", gamma=np.inf, exclude=BASELINES) -> float:
    """Pearson's r between ``method`` − ``reference`` (expected losses) and ``measure`` (a column such
    as BS or CL) over the runs at certainty ``gamma`` of the model types not in ``exclude``.

    Ferri et al. (2019), Sect. 6.2: "the correlation of the difference of the rate-driven and
    train-optimal expected losses ... 0.44 ... with respect to BS, and 0.59 with respect to CL".
    """
    _require(frame, ["model", "gamma", measure, _method(method), _method(reference, "reference")])
    part = frame[(frame["gamma"] == gamma) & ~frame["model"].isin(exclude)]
    difference = (part[method] - part[reference]).to_numpy(dtype=float)
    values = part[measure].to_numpy(dtype=float)
    if len(part) < 3:
        raise ValueError(f"a correlation needs at least 3 runs at γ = {gamma_label(gamma)}; frame holds {len(part)}")
    if not (np.all(np.isfinite(difference)) and np.all(np.isfinite(values))):
        raise ValueError(f"{method} − {reference} and {measure} must be finite in every run")
    if np.ptp(difference) == 0 or np.ptp(values) == 0:
        raise ValueError(f"{method} − {reference} or {measure} is constant over the runs: no correlation")
    return float(np.corrcoef(difference, values)[0, 1])


def difference_correlations(frame: pd.DataFrame, *, methods=("rate-driven", "score-driven"), measures=("BS", "CL"),
                            excludes=(BASELINES, ()), reference: str = "train-optimal", gamma=np.inf) -> pd.DataFrame:
    """:func:`difference_correlation` under every reading of Sect. 6.2's sentence: one row per difference
    (``method`` − ``reference``), set of runs (the model types left out, ``excludes``) and measure,
    with columns ``difference``, ``model types`` (how many entered), ``measure``, ``r`` and ``runs``."""
    _require(frame, ["model", "gamma"])
    rows = []
    for method in methods:
        for exclude in excludes:
            part = frame[(frame["gamma"] == gamma) & ~frame["model"].isin(exclude)]
            for measure in measures:
                rows.append({"difference": f"{method} − {reference}", "model types": int(part["model"].nunique()),
                             "measure": measure,
                             "r": difference_correlation(frame, measure, method, reference=reference, gamma=gamma,
                                                         exclude=exclude),
                             "runs": int(len(part))})
    return pd.DataFrame(rows)


def gap_rank_correlations(frame: pd.DataFrame, measure: str = "CL", method: str = "score-driven", *,
                          reference: str = "train-optimal", gamma=np.inf) -> pd.Series:
    """Spearman's ρ between ``measure`` and the gap ``method`` − ``reference`` of the mean expected
    losses, across the model types of Table 7 (baselines excluded) and across the datasets of
    Table 8, at certainty ``gamma`` (index ``model types``, ``datasets``).

    Ferri et al. (2019), Sect. 6.3's findings: "the calibration loss component of the Brier score
    might help estimate the performance for score-driven ... we have seen this experimentally in
    Tables 7 and 8".
    """
    from scipy.stats import spearmanr

    _require(frame, ["model", "dataset", "gamma", measure, _method(method), _method(reference, "reference")])
    tables = {"model types": by_model(frame, gamma).set_index("model").drop(list(BASELINES), errors="ignore"),
              "datasets": by_dataset(frame, gamma).set_index("dataset")}
    rhos = {}
    for label, table in tables.items():
        gap, values = table[method] - table[reference], table[measure]
        if len(table) < 3 or np.ptp(gap.to_numpy()) == 0 or np.ptp(values.to_numpy()) == 0:
            raise ValueError(f"a rank correlation across {label} needs at least 3 of them and {measure} and "
                             f"{method} − {reference} not constant")
        rhos[label] = float(spearmanr(values, gap).statistic)
    return pd.Series(rhos, name=f"ρ({measure}, {method} − {reference})")


def ranks_by_gamma(frame: pd.DataFrame, method: str = "train-optimal", exclude=BASELINES) -> pd.DataFrame:
    """Mean rank of each model type (rows) at each certainty γ (columns, as :func:`gamma_label` prints
    them) by the expected loss of threshold choice ``method``: models ranked within each dataset
    (losses averaged over the splits; rank 1 the lowest loss, ties averaged), ranks averaged over
    the datasets. The per-γ model ranking that Fig. 5 of Ferri et al. (2019) implies."""
    from credalbook.stats import mean_ranks

    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}; got {method!r}")
    part = frame[~frame["model"].isin(exclude)]
    if part.empty:
        raise ValueError("frame holds no rows of a model type outside exclude")
    columns = {}
    for gamma in sorted(part["gamma"].unique(), reverse=True):
        losses = part[part["gamma"] == gamma].groupby(["dataset", "model"])[method].mean().unstack("model")
        columns[gamma_label(gamma)] = mean_ranks(losses, higher_is_better=False)
    return pd.DataFrame(columns).rename_axis(index="model", columns="γ")


#: The model types of Ferri et al. (2019) in the pairs their Fig. 7 compares (and the others paired), each pair
#: one colour of the book's palette: the first member solid with circles, the second dashed with squares.
_MODEL_PAIRS = (("J48", "J48Unp"), ("IBK10", "IBK1"), ("SVMp", "SVM"), ("Logist", "NB"), ("PART", "Stump"),
                ("Prior", "Random"))


def _model_styles() -> dict:
    """Colour, line and marker of each model type of ``_MODEL_PAIRS``: one colour per pair, so that no colour
    stands for two unrelated models."""
    from credalbook.style import COLOURS

    return {model: (colour, line, marker) for colour, pair in zip(COLOURS, _MODEL_PAIRS)
            for model, (line, marker) in zip(pair, (("-", "o"), ("--", "s")))}


def plot_ranks_by_gamma(arms: dict, method: str = "train-optimal"):
    """Small multiples of :func:`ranks_by_gamma`, one panel per arm (``{name: stored rows}``):
    each model type's mean rank against γ, from known (∞) to unknown (0). The two model types of
    a pair that Fig. 7 of Ferri et al. (2019) compares (J48/J48Unp, IBK10/IBK1, SVMp/SVM; also
    Logist/NB, PART/Stump) share a colour, solid and dashed, so that no colour stands for two
    unrelated models; one legend under the panels, at the book's legend size. Returns the figure."""
    import matplotlib.pyplot as plt

    from credalbook.style import COLUMN_WIDTH

    if not arms:
        raise ValueError("arms must name at least one frame of rows")
    ranks = {name: ranks_by_gamma(frame, method) for name, frame in arms.items()}
    styles = _model_styles()
    models = [m for pair in _MODEL_PAIRS for m in pair if any(m in r.index for r in ranks.values())]
    models += list(dict.fromkeys(m for r in ranks.values() for m in r.index if m not in styles))
    styles.update({m: ("0.4", ("-", "--", ":", "-.")[i % 4], "^") for i, m in enumerate(models) if m not in styles})
    fig, axes = plt.subplots(1, len(arms), figsize=(COLUMN_WIDTH, 4.4), sharey=True, squeeze=False,
                             layout="constrained")  # the legend goes outside, under the panels
    handles = {}
    for ax, (name, table) in zip(axes[0], ranks.items()):
        for model in [m for m in models if m in table.index]:
            colour, line, marker = styles[model]
            (handles[model],) = ax.plot(range(table.shape[1]), table.loc[model].to_numpy(), line, marker=marker,
                                        ms=4, color=colour, label=model)
        ax.set_xticks(range(table.shape[1]), table.columns)
        ax.set(title=name, xlabel="γ")
    axes[0, 0].set_ylabel(f"mean rank, {method} loss (1 = best)")
    axes[0, 0].invert_yaxis()
    fig.legend(handles=[handles[m] for m in models if m in handles], loc="outside lower center", ncols=5)
    return fig


def split_tolerance(frame: pd.DataFrame, key: str, exclude=(), gamma=np.inf) -> pd.Series:
    """Per measure of Tables 7 and 8, the difference two independent sets of random splits would
    make: 2√2 times the largest (over the table's rows) standard error of a cell's mean due to the
    split, the split-to-split variance within each dataset (and model type) divided by the number
    of splits it is averaged over."""
    part = _pairwise(frame[(frame["gamma"] == gamma) & ~frame["model"].isin(exclude)])
    measures = ["AUC", "BS", "CL", "RL", *METHODS, "sc_vs_tr", "rd_vs_tr"]
    inner = "dataset" if key == "model" else "model"
    cells = part.groupby([key, inner, "split"])[measures].mean()
    per_split = cells.groupby([key, "split"]).mean() if key == "dataset" else cells
    groups = [key] if key == "dataset" else [key, inner]
    variance = per_split.groupby(groups).var(ddof=1)
    if key == "model":
        n_inner = part.groupby(key)[inner].nunique()
        splits = part["split"].nunique()
        error = np.sqrt(variance.groupby(key).sum().div(n_inner ** 2, axis=0) / splits)
    else:
        error = np.sqrt(variance / part["split"].nunique())
    return 2 * np.sqrt(2) * error.max()


def _pairwise(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with sc_vs_tr and rd_vs_tr per run: 1 where score-/rate-driven is better than or
    equal to train-optimal (to 1e-12), else 0."""
    return frame.assign(sc_vs_tr=(frame["score-driven"] <= frame["train-optimal"] + 1e-12).astype(float),
                        rd_vs_tr=(frame["rate-driven"] <= frame["train-optimal"] + 1e-12).astype(float))


def _summary(frame: pd.DataFrame, key: str) -> pd.DataFrame:
    cols = ["AUC", "BS", "CL", "RL", *METHODS, "sc_vs_tr", "rd_vs_tr"]
    return _pairwise(frame).groupby(key, sort=True)[cols].mean().reset_index()


# ---------------------------------------------------------------------------------------- chapter figures

def gamma_label(gamma: float) -> str:
    """A certainty level γ of Ferri et al. (2019), Sect. 6, as a figure or table prints it ("∞", "16", "0")."""
    return "∞" if gamma == np.inf else f"{gamma:g}"


def cost_curve_panels(panels: dict, *, ncols: int = 2, height: float = 2.9, title: str = ""):
    """Cost-curve figures of Ferri et al. (2019), Figs. 3, 4 and 7, as small multiples.

    ``panels`` maps a panel title to a :class:`credalbook.display.CostCurveDisplay` made with
    ``plot=False``; every panel draws its curves (method by colour, γ = ∞ solid, other γ dashed)
    and the figure carries one shared legend, at most ``COLUMN_WIDTH`` wide. Returns the figure.
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    from credalbook.display import METHOD_COLOURS
    from credalbook.style import COLUMN_WIDTH

    if not panels:
        raise ValueError("panels must name at least one CostCurveDisplay")
    if ncols < 1:
        raise ValueError(f"ncols must be at least 1, got {ncols}")
    ncols = min(ncols, len(panels))
    nrows = -(-len(panels) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(COLUMN_WIDTH, height * nrows + 0.6), sharex=True, sharey=True,
                             squeeze=False)
    methods, gammas = [], []
    for ax, (name, display) in zip(axes.ravel(), panels.items()):
        for (method, gamma), curve in display.curves.items():
            ax.plot(display.c, curve, color=METHOD_COLOURS.get(method, "black"), ls="-" if gamma == np.inf else "--",
                    lw=1.4)
            methods += [method] if method not in methods else []
            gammas += [gamma] if gamma not in gammas else []
        ax.set(xlim=(0, 1), ylim=(0, 1), title=name)
    for ax in axes.ravel()[len(panels):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("cost proportion c")
    for ax in axes[:, 0]:
        ax.set_ylabel("expected loss")
    handles = [Line2D([], [], color=METHOD_COLOURS.get(m, "black"), label=m) for m in methods]
    handles += [Line2D([], [], color="0.3", ls="-" if g == np.inf else "--", label=f"γ = {gamma_label(g)}")
                for g in gammas]
    fig.legend(handles=handles, loc="outside lower center", ncol=min(len(handles), 3))
    if title:
        fig.suptitle(title)
    return fig


def losses_frame(panels: dict) -> pd.DataFrame:
    """Expected losses (areas under the curves) of cost-curve panels: one row per panel, one
    column per (method, γ), as printed in the legends of Ferri et al. (2019), Figs. 3, 4 and 7."""
    rows = []
    for name, display in panels.items():
        row = {"model": name}
        for (method, gamma), value in display.losses.items():
            row[f"{method} γ={gamma_label(gamma)}"] = float(value)
        rows.append(row)
    return pd.DataFrame(rows)


def certainty_worse(y_train, s_train, y_test, s_test, methods=METHODS, n_grid: int = 1001) -> pd.DataFrame:
    """Where complete certainty is worse than complete uncertainty (Ferri et al. 2019, Sect. 5.3,
    Fig. 4): per method, the share of c in [0, 1] where K_∞(c) > K_0(c) and the range of those c."""
    grid = np.linspace(0.0, 1.0, n_grid)
    rows = []
    for method in methods:
        sel = cs.threshold_selection(y_test, s_test, method, y_train=y_train, s_train=s_train)
        above = sel.curve(np.inf, grid) > sel.curve(0.0, grid) + 1e-12
        rows.append({"method": method, "share of c": float(above.mean()),
                     "from c": float(grid[above].min()) if above.any() else np.nan,
                     "to c": float(grid[above].max()) if above.any() else np.nan})
    return pd.DataFrame(rows)


def theorem_checks(y, s) -> pd.DataFrame:
    """The closed forms of Ferri et al. (2019), Sect. 5 (Corollaries 1-2, Theorems 6-7, Table 4)
    against :func:`credalbook.costspace.expected_loss` on one scored sample: one row per statement
    with the implementation's value, the closed form's and their difference."""
    pi0, pi1 = float(np.mean(y == 0)), float(np.mean(y == 1))
    a = cs.auc(y, s)
    grid = np.linspace(0, 1, 11)
    loss = lambda method, gamma: cs.expected_loss(y, s, method, gamma)  # noqa: E731
    rows = [
        ("Cor. 1, γ = ∞: score-driven loss = BS", loss("score-driven", np.inf), cs.brier_score(y, s)),
        ("Cor. 1, γ = 0: score-driven loss = MAE", loss("score-driven", 0), cs.mean_absolute_error(y, s)),
        ("Table 4: rate-driven, γ = ∞", loss("rate-driven", np.inf), pi0 * pi1 * (1 - 2 * a) + 1 / 3),
        ("Cor. 2: rate-driven, γ = 0", loss("rate-driven", 0), pi0 * pi1 * (1 - 2 * a) + 1 / 2),
        ("Table 4: test-optimal, γ = ∞, = RL of the hull", loss("test-optimal", np.inf),
         cs.brier_decomposition(y, s, convexify=True)["RL"]),
        ("Thm 7: test-optimal, γ = 0, = twice γ = ∞", loss("test-optimal", 0), 2 * loss("test-optimal", np.inf)),
        ("Thm 6: spread of K over 11 values of c, γ = 0",
         float(np.ptp(cs.expected_cost_curve(y, s, "test-optimal", 0, grid))), 0.0),
        ("Thm 6: K(0.3), γ = 0, = 2 π0 times mean calibrated score of class 0",
         float(cs.expected_cost_curve(y, s, "test-optimal", 0, [0.3])[0]),
         2 * pi0 * cs.pav_calibrate(y, s)[y == 0].mean()),
    ]
    frame = pd.DataFrame(rows, columns=["statement", "implementation", "closed form"])
    frame["difference"] = frame["implementation"] - frame["closed form"]
    return frame


def _as_arms(runs) -> dict:
    """``runs`` as ``{arm name: rows}``: a frame of the study's rows is one unnamed arm."""
    if isinstance(runs, pd.DataFrame):
        return {"": runs}
    if not isinstance(runs, Mapping) or not runs:
        raise ValueError("runs must be a frame of the study's rows or a mapping {arm name: rows} naming at least "
                         f"one arm, got {type(runs).__name__}")
    for name, frame in runs.items():
        _require(frame, ["model", "gamma"], f"runs[{name!r}]")
    return {str(name): frame for name, frame in runs.items()}


#: Line styles and markers that tell the arms of Fig. 5 apart (the colour is the method's), in the order of the arms.
ARM_STYLES = (("-", "o"), ("--", "s"), (":", "^"), ("-.", "D"))


def plot_loss_by_certainty(runs, methods=("train-optimal", "score-driven"), *, ncols: int = 5):
    """Fig. 5 of Ferri et al. (2019) as small multiples: one panel per model type (baselines
    excluded), the mean expected loss over datasets and splits against the certainty γ, one
    line per threshold choice method (by colour).

    ``runs`` is the study's rows, or a mapping ``{arm name: rows}`` (e.g. Weka's learners and the
    scikit-learn stand-ins) drawn over each other, one line style per arm (:data:`ARM_STYLES`).
    Returns the figure.
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    from credalbook.display import METHOD_COLOURS
    from credalbook.style import COLUMN_WIDTH

    arms = _as_arms(runs)
    if len(arms) > len(ARM_STYLES):
        raise ValueError(f"runs names {len(arms)} arms; at most {len(ARM_STYLES)} can be told apart")
    for method in methods:
        _method(method)
    means = {name: by_model_and_gamma(frame) for name, frame in arms.items()}
    present = set().union(*(m.index.get_level_values("model") for m in means.values()))
    models = [m for m in MODELS if m in present]
    if not models:
        raise ValueError("runs hold no non-baseline model type")
    if ncols < 1:
        raise ValueError(f"ncols must be at least 1, got {ncols}")
    nrows = -(-len(models) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(COLUMN_WIDTH, 1.9 * nrows + (1.0 if len(arms) > 1 else 0.7)),
                             sharex=True, sharey=True, squeeze=False)
    x = np.arange(len(GAMMAS))
    for ax, model in zip(axes.ravel(), models):
        for (name, mean), (line, marker) in zip(means.items(), ARM_STYLES):
            for method in methods:
                values = [mean[method].get((model, g), np.nan) for g in GAMMAS]
                ax.plot(x, values, ls=line, marker=marker, ms=3, color=METHOD_COLOURS.get(method, "black"))
        ax.set_title(model, fontsize=11)
        ax.set_xticks(x[::2], [gamma_label(g) for g in GAMMAS][::2])
    for ax in axes.ravel()[len(models):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("γ")
    for ax in axes[:, 0]:
        ax.set_ylabel("mean loss")
    handles = [Line2D([], [], color=METHOD_COLOURS.get(m, "black"), marker="o", ms=3, label=m) for m in methods]
    if len(arms) > 1:
        handles += [Line2D([], [], color="0.3", ls=line, marker=marker, ms=3, label=name)
                    for name, (line, marker) in zip(arms, ARM_STYLES)]
    fig.legend(handles=handles, loc="outside lower center", ncol=len(methods))
    return fig


def plot_runs(runs, *, x: str = "train-optimal", y: str = "score-driven", gammas=(np.inf, 0.0), ncols: int = 4,
              limit: float = 0.7):
    """Fig. 6 of Ferri et al. (2019) as small multiples: one panel per model type, one point per
    run (dataset and split) at each certainty in ``gammas``, the loss of ``x`` against that of
    ``y``, the diagonal, and each cloud's means as crossing lines.

    ``runs`` is the study's rows, or a mapping ``{arm name: rows}`` whose arms share the panels:
    one colour per (arm, γ). Returns the figure.
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    from credalbook.style import COLOURS, COLUMN_WIDTH

    arms = _as_arms(runs)
    _method(x, "x")
    _method(y, "y")
    series = [(name, gamma) for name in arms for gamma in gammas]
    if not series:
        raise ValueError("gammas must name at least one certainty level")
    if len(series) > len(COLOURS):
        raise ValueError(f"{len(series)} (arm, γ) clouds; at most {len(COLOURS)} colours tell them apart")
    present = set().union(*(set(frame["model"]) for frame in arms.values()))
    models = [m for m in MODELS if m in present]
    if not models:
        raise ValueError("runs hold no model type")
    if ncols < 1:
        raise ValueError(f"ncols must be at least 1, got {ncols}")
    nrows = -(-len(models) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(COLUMN_WIDTH, 1.85 * nrows + 0.8), sharex=True, sharey=True,
                             squeeze=False)
    colours = dict(zip(series, COLOURS))
    for ax, model in zip(axes.ravel(), models):
        ax.plot([0, limit], [0, limit], color="0.4", lw=0.7)
        for name, gamma in series:
            frame = arms[name]
            part = frame[(frame["model"] == model) & (frame["gamma"] == gamma)]
            colour = colours[(name, gamma)]
            ax.scatter(part[x], part[y], s=5, alpha=0.35, color=colour, linewidths=0, rasterized=True)
            if len(part):
                ax.axvline(part[x].mean(), color=colour, lw=0.8)
                ax.axhline(part[y].mean(), color=colour, lw=0.8)
        ax.set(xlim=(0, limit), ylim=(0, limit), aspect="equal")
        ax.set_title(model, fontsize=11)
        ax.set_xticks([0, 0.3, 0.6])
        ax.set_yticks([0, 0.3, 0.6])
    for ax in axes.ravel()[len(models):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel(x)
    for ax in axes[:, 0]:
        ax.set_ylabel(y)

    def label(name, gamma):
        certainty = f"γ = {gamma_label(gamma)}"
        if not name:
            return certainty
        return name if len(gammas) == 1 else f"{name}, {certainty}"

    handles = [Line2D([], [], color=colours[s], marker="o", ls="-", lw=0.8, label=label(*s)) for s in series]
    fig.legend(handles=handles, loc="outside lower center", ncol=min(len(series), 2 if len(arms) > 1 else 4))
    return fig


def protocol_errors(y_train, s_train, y_test, s_test, *, gammas=(np.inf, 4.0, 0.0), repeats: int = 20,
                    n_grid: int = AUTHORS_GRID, seed: int = 7) -> pd.DataFrame:
    """The paper's R protocol against the exact integral (Ferri et al. 2019, Sect. 6.1): per method
    and γ, the exact loss, the mean over the authors' grid (c = i/n_grid, i = 1..n_grid) minus it, and
    the mean and standard deviation over ``repeats`` of the one-draw-of-ĉ-per-grid-point estimator minus it."""
    grid = np.arange(1, n_grid + 1) / n_grid
    rng = np.random.default_rng(seed)
    rows = []
    for method in METHODS:
        sel = cs.threshold_selection(y_test, s_test, method, y_train=y_train, s_train=s_train)
        for gamma in gammas:
            exact = sel.loss(gamma)
            draws = [sel.at(grid if gamma == np.inf else rng.beta(grid * gamma + 1, (1 - grid) * gamma + 1), grid).mean()
                     for _ in range(repeats)]
            rows.append({"method": method, "gamma": float(gamma), "exact": exact,
                         "grid mean − exact": float(sel.curve(gamma, grid).mean() - exact),
                         "one draw − exact": float(np.mean(draws) - exact), "one draw sd": float(np.std(draws))})
    return pd.DataFrame(rows)


def plot_paper_vs_book(cells: pd.DataFrame, *, ncols: int = 4):
    """Tables 7 and 8 of Ferri et al. (2019) as paper-vs-book scatters, one panel per measure.

    ``cells`` is the ``frame`` of :func:`credalbook.book.tables.comparison` for the table: one point
    per printed cell, the paper's value against the book's, coloured by the ledger's
    verdict, with the diagonal. Returns the figure.
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator

    from credalbook.style import COLUMN_WIDTH

    required = {"measure", "paper", "book", "verdict"}
    if not required <= set(cells.columns):
        raise ValueError(f"cells must have the columns {sorted(required)}, got {list(cells.columns)}")
    measures = list(dict.fromkeys(cells["measure"]))
    if not measures:
        raise ValueError("cells is empty")
    nrows = -(-len(measures) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(COLUMN_WIDTH, 1.9 * nrows + 0.6), squeeze=False)
    for ax, measure in zip(axes.ravel(), measures):
        part = cells[(cells["measure"] == measure) & cells["paper"].notna() & cells["book"].notna()]
        low = float(min(part["paper"].min(), part["book"].min()))
        high = float(max(part["paper"].max(), part["book"].max()))
        pad = 0.08 * (high - low or 1.0)
        ax.plot([low - pad, high + pad], [low - pad, high + pad], color="0.5", lw=0.7)
        ax.scatter(part["paper"], part["book"], s=14, linewidths=0,
                   c=[VERDICT_MARKERS.get(v, "#999999") for v in part["verdict"]])
        ax.set(xlim=(low - pad, high + pad), ylim=(low - pad, high + pad))
        ax.set_title(measure, fontsize=11)
        ax.xaxis.set_major_locator(MaxNLocator(3))
        ax.yaxis.set_major_locator(MaxNLocator(3))
    for ax in axes.ravel()[len(measures):]:
        ax.set_visible(False)
    fig.supxlabel("paper")
    fig.supylabel("book")
    present = [v for v in VERDICT_MARKERS if v in set(cells["verdict"])]
    handles = [Line2D([], [], ls="", marker="o", color=VERDICT_MARKERS[v], label=v) for v in present]
    fig.legend(handles=handles, loc="outside upper center", ncol=len(handles))
    return fig


#: Point colours of the ledger's verdicts in paper-vs-book scatters (stronger than the table shades).
VERDICT_MARKERS = {"reproduced": "#009E73", "within tolerance": "#56B4E9", "partly": "#E69F00",
                   "not reproduced": "#D55E00", "erratum": "#CC79A7", "not checkable": "#999999"}
