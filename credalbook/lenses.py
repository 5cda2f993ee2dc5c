"""Every lens on the same predictions: the measures of the five source papers side by side (Part VII).

A *lens* is one way of scoring what a classifier returned on a test fold: a set-valued
prediction (discounted accuracy and its utilities, Zaffalon, Corani & Mauá 2012 §9; F₁ of a set,
del Coz & Bahamonde 2009; determinacy and set size; coverage and size-stratified coverage,
Angelopoulos & Bates 2023 §3; the p-discounted cost of Yang, Destercke & Masson 2017 §V), a
probabilistic prediction (the certainty ratio C_ρ and IMCP, Aguilar-Ruiz 2025; the Brier score
and log loss) or, on binary data, the expected loss of Ferri, Hernández-Orallo & Flach (2019,
Eq. 7) when the cost proportion is only known up to a Beta(γ) uncertainty.

:func:`fold_lenses` reads one fold's predictions once and returns every applicable lens:
sums over the test instances where the lens is a mean over instances (so that folds pool
exactly), the fold's value otherwise (:data:`LENSES` says which). :func:`dataset_scores` pools
the folds of each dataset; :func:`rank_agreement`, :func:`order_flips` and
:func:`friedman_by_lens` ask whether the lenses rank the classifiers the same way.

Not every lens is a score. A *scoring* lens rewards a prediction for being right and informative
(discounted accuracy and its utilities, F₁, the p-discounted costs, the probability lenses); a
*descriptor* says what the sets look like (determinacy, set size, coverage): any precise
classifier wins determinacy and any vacuous one coverage, so a descriptor's "winner" is no
verdict (:data:`SCORING_LENSES`, :data:`DESCRIPTOR_LENSES`). Three lenses duplicate another
(:data:`MERGED`, :func:`lens_duplicates`). Ties of mean rank are reported as ties, never broken
by order (:func:`friedman_by_lens`); agreement intervals are bias-corrected and accelerated
(:func:`bca_interval`) and adjusted for multiplicity (:func:`rank_agreement`); a flip between
two classifiers whose sets are nested is forced, not found (:func:`nested_pairs`,
:func:`order_flips`); and :func:`panel_agreement` measures how τ moves with the panel.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from credalbook._validation import check_scalar

__all__ = ["Lens", "LENSES", "SET_LENSES", "PROBABILITY_LENSES", "SCORING_LENSES", "DESCRIPTOR_LENSES", "MERGED",
           "DISTINCT_SET_LENSES", "lens_duplicates", "bca_interval", "nested_pairs", "nested_free_panels",
           "panel_agreement", "panel_winners", "panel_variants", "shared_top", "SIZE_BINS", "MIN_BIN_COUNT", "P_DISCOUNT_R",
           "EXPECTED_LOSS_GAMMA", "FOLD_COLUMNS", "fold_lenses", "dataset_scores", "score_table", "lens_ranks", "kendall_tau_b",
           "rank_agreement", "order_flips", "friedman_by_lens", "lens_means", "lens_table", "utility_lines", "utility_agreement_path", "coverage_by_size", "label_spaces", "LABEL_SPACES", "plot_coverage_by_size",
           "plot_utility_agreement_path", "plot_lens_ranks", "plot_rank_correlations",
           "plot_order_flips"]


@dataclass(frozen=True)
class Lens:
    """One measure of the benchmark: what it reads, its direction, how folds pool, and its source.

    ``reads`` is ``"sets"`` (a set-valued prediction), ``"proba"`` (class probabilities) or
    ``"binary"`` (the probability of the second class, two-class datasets only); ``pooling`` is
    ``"sum"`` (the fold stores a sum over its instances, the dataset's value is the pooled sum over
    the pooled count), ``"mean"`` (the mean of the fold values) or ``"bins"`` (size-stratified
    coverage, pooled by set-size bin). ``role`` is ``"score"`` (a scoring rule: it rewards being
    right and informative) or ``"descriptor"`` (it describes the sets: a precise or a vacuous
    classifier wins it whatever its quality); ``same_as`` names the lens it duplicates (empty
    otherwise) and ``why`` says why.

    Examples
    --------
    >>> from credalbook.lenses import LENSES
    >>> lens = LENSES["u65"]
    >>> lens.reads, lens.higher_is_better, lens.pooling
    ('sets', True, 'sum')
    """

    name: str
    label: str
    reads: str
    higher_is_better: bool
    pooling: str
    source: str
    role: str = "score"
    same_as: str = ""
    why: str = ""

    def __post_init__(self):
        for field, allowed in (("reads", ("sets", "proba", "binary")), ("pooling", ("sum", "mean", "bins")),
                               ("role", ("score", "descriptor"))):
            if getattr(self, field) not in allowed:
                raise ValueError(f"{field} must be one of {', '.join(map(repr, allowed))}, "
                                 f"got {getattr(self, field)!r}")
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"name must be a non-empty string, got {self.name!r}")
        if not isinstance(self.higher_is_better, (bool, np.bool_)):
            raise TypeError(f"higher_is_better must be a bool, got {self.higher_is_better!r}")


#: The p of the p-discounted cost of Yang et al. (2017, Eqs. 14-16), 0/1 costs, cautious variant.
P_DISCOUNT_R = 0.5
#: The γ of the Beta uncertainty on the cost proportion for the expected loss (Ferri et al. 2019, Eq. 7).
EXPECTED_LOSS_GAMMA = 4.0
#: Set-size bins of size-stratified coverage (sizes 1, 2, and 3 or more).
SIZE_BINS = (1, 2, 3)
#: Pooled instances a size bin needs to enter size-stratified coverage (smaller bins are left out).
MIN_BIN_COUNT = 10

#: Every lens of Part VII, by name.
LENSES: dict[str, Lens] = {lens.name: lens for lens in (
    Lens("discounted_accuracy", "discounted accuracy", "sets", True, "sum", "Zaffalon et al. 2012, §9 (u50)"),
    Lens("u65", "u65", "sets", True, "sum", "Zaffalon et al. 2012, §9, Fig. 2"),
    Lens("u80", "u80", "sets", True, "sum", "Zaffalon et al. 2012, §9, Fig. 2"),
    Lens("f1", "F₁ of the set", "sets", True, "sum", "del Coz & Bahamonde 2009; Zaffalon et al. 2012, Eq. 9"),
    Lens("determinacy", "determinacy", "sets", True, "sum", "Zaffalon et al. 2012, §9.1", "descriptor"),
    Lens("set_size", "mean set size", "sets", False, "sum", "Angelopoulos & Bates 2023, §3", "descriptor",
         "determinacy", "both measure how often a classifier commits to one class; a singleton is determinate and "
         "the only set of size 1, and the two order the benchmark's panel alike"),
    Lens("coverage", "coverage", "sets", True, "sum", "Angelopoulos & Bates 2023, §3", "descriptor"),
    Lens("size_stratified_coverage", "size-stratified coverage", "sets", True, "bins",
         "Angelopoulos & Bates 2023, §3", "descriptor", "coverage",
         "the coverage of the worst set size: like coverage it rises as sets grow, and a vacuous classifier has 1"),
    Lens("p_discounted_cost", "p-discounted 0/1 cost (= 1 − u75)", "sets", False, "sum",
         "Yang et al. 2017, Eqs. 14-16", "score", "u75",
         "with 0/1 costs and r = 1/2, one minus the cost is u75 on every instance (Proposition R6): it is the "
         "utility family of u65 and u80 at v = 3/4, not a measure of its own"),
    Lens("p_discounted_ordinal", "p-discounted ordinal cost", "sets", False, "sum",
         "Yang et al. 2017, Eqs. 14-16, ℓ1 costs (ordered classes)"),
    Lens("certainty_ratio", "certainty ratio C_ρ", "proba", True, "mean", "Aguilar-Ruiz 2025, Def. 15"),
    Lens("imcp", "IMCP", "proba", True, "mean", "Aguilar-Ruiz 2025, Tables 2-6"),
    Lens("brier", "Brier score", "proba", False, "sum", "Brier 1950"),
    Lens("log_loss", "log loss", "proba", False, "sum", "Good 1952"),
    Lens("expected_loss", "expected loss (γ = 4)", "binary", False, "mean", "Ferri et al. 2019, Eq. 7"),
)}
#: The lenses that read set-valued predictions.
SET_LENSES = tuple(name for name, lens in LENSES.items() if lens.reads == "sets")
#: The lenses that read probabilities (all datasets, and binary ones only).
PROBABILITY_LENSES = tuple(name for name, lens in LENSES.items() if lens.reads != "sets")
#: The set lenses that score predictions (scoring rules), the p-discounted 0/1 cost standing for u75.
SCORING_LENSES = tuple(name for name in SET_LENSES if LENSES[name].role == "score")
#: The set lenses that describe the sets (a precise or a vacuous classifier wins them), duplicates merged.
DESCRIPTOR_LENSES = tuple(name for name in SET_LENSES if LENSES[name].role == "descriptor" and not LENSES[name].same_as)
#: The merged lenses, each duplicate set lens with the lens it is read as (``p_discounted_cost`` is u75).
MERGED = {name: lens.same_as for name, lens in LENSES.items() if lens.same_as}
#: The set lenses once each, the scoring lenses and then the descriptors, duplicates merged.
DISTINCT_SET_LENSES = SCORING_LENSES + DESCRIPTOR_LENSES
#: The columns :func:`fold_lenses` can return (the count, every lens but the pooled one, the size bins).
FOLD_COLUMNS = (("n",) + tuple(name for name, lens in LENSES.items() if lens.pooling != "bins")
                + tuple(f"{kind}_size{size}" for size in SIZE_BINS for kind in ("n", "covered")))


def _check_frame(frame, name: str, columns=()) -> pd.DataFrame:
    """``frame`` as a DataFrame holding ``columns`` (TypeError for another type, ValueError naming what lacks)."""
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame, got {type(frame).__name__}")
    missing = set(columns) - set(frame.columns)
    if missing:
        raise ValueError(f"{name} lacks the columns {sorted(missing)}")
    return frame


def _check_scores(scores) -> pd.DataFrame:
    """Long scores, as :func:`dataset_scores` returns them."""
    return _check_frame(scores, "scores", ("dataset", "classifier", "lens", "value"))


def _check_names(values, name: str, minimum: int = 1) -> list:
    """A list of distinct names (classifiers, lenses) from a list-like, at least ``minimum`` of them."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{name} must be a list of names, got {values!r}")
    values = list(values)
    repeated = sorted({str(v) for v in values if values.count(v) > 1})
    if repeated:
        raise ValueError(f"{name} holds {', '.join(repeated)} more than once")
    if len(values) < minimum:
        raise ValueError(f"{name} must hold at least {minimum} names, got {values!r}")
    return values


def _check_lenses(values, name: str = "lenses", minimum: int = 1) -> list[str]:
    values = _check_names(values, name, minimum)
    for lens in values:
        _check_lens(lens, f"each lens of {name}")
    return values


def _check_panels(panels) -> dict:
    if not isinstance(panels, dict):
        raise TypeError(f"panels must be a dict (panel name -> classifiers), got {type(panels).__name__}")
    return {name: _check_names(members, f"panels[{name!r}]", 2) for name, members in panels.items()}


def lens_table() -> pd.DataFrame:
    """The lenses as a table: name, what each reads, which direction is better, and its source.

    Examples
    --------
    >>> from credalbook.lenses import lens_table
    >>> lens_table().set_index("lens").loc["u65", ["reads", "better"]].tolist()
    ['set', 'higher']
    """
    reads = {"sets": "set", "proba": "probabilities", "binary": "probabilities, two classes"}
    return pd.DataFrame([{"lens": lens.label, "reads": reads[lens.reads], "role": lens.role,
                          "better": "higher" if lens.higher_is_better else "lower", "source": lens.source}
                         for lens in LENSES.values()])


def fold_lenses(y_true, sets=None, proba=None, ordinal_cost=None) -> dict[str, float]:
    """Every lens that applies to one fold's predictions, as a dict (sums for ``pooling="sum"``).

    ``y_true`` (n,) class indices; ``sets`` (n, K) boolean, ``proba`` (n, K) rows summing to one;
    at least one of them. The dict has ``n`` and, for sets, the counts and covered counts of each
    size bin of :data:`SIZE_BINS` (what size-stratified coverage pools); ``expected_loss`` only
    when K = 2 and the fold holds both classes (Ferri et al.'s cost lines need both), so that a
    dataset's expected loss is the mean over its folds that hold both. ``ordinal_cost`` (K, K), for
    ordered classes, adds ``p_discounted_ordinal``: the p-discounted cost with those costs.

    Examples
    --------
    >>> import numpy as np
    >>> from credalbook.lenses import fold_lenses
    >>> y = np.array([0, 1, 2, 1])
    >>> sets = np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1], [1, 0, 1]], dtype=bool)
    >>> out = fold_lenses(y, sets)  # sums over the fold's 4 instances
    >>> out["n"], out["discounted_accuracy"], round(out["u65"], 2), out["set_size"]
    (4, 2.5, 2.65, 6.0)
    """
    from credalbook import certainty, costs, metrics
    from credalbook.sets import check_targets_and_sets

    if sets is None and proba is None:
        raise ValueError("fold_lenses needs sets, proba or both")
    if ordinal_cost is not None and sets is None:
        raise ValueError("ordinal_cost scores sets: pass sets with it (the p-discounted cost reads set predictions)")
    out: dict[str, float] = {}
    if sets is not None:
        labels, matrix, sizes = check_targets_and_sets(y_true, sets)
        k = matrix.shape[1]
        if proba is not None:
            shape = np.shape(proba)
            if len(shape) != 2 or shape[0] != len(labels) or shape[1] != k:
                raise ValueError(f"sets has {k} columns and {len(labels)} rows but proba has shape {shape}: "
                                 f"proba has {shape[1] if len(shape) == 2 else '?'} columns, both must describe the "
                                 f"same {k} classes and instances")
        if ordinal_cost is not None:
            from credalbook._validation import check_array

            ordinal_cost = check_array(ordinal_cost, "ordinal_cost", ndim=2)
            if ordinal_cost.shape != (k, k):
                raise ValueError(f"ordinal_cost must be a ({k}, {k}) matrix for the {k} classes of sets, "
                                 f"got shape {ordinal_cost.shape}")
        summary = metrics.set_metrics(labels, matrix, utilities=(0.65, 0.8))
        n = len(labels)
        out["n"] = n
        out.update({"discounted_accuracy": summary["discounted_accuracy"] * n, "u65": summary["u65"] * n,
                    "u80": summary["u80"] * n, "f1": summary["f_beta"] * n,
                    "determinacy": summary["determinacy"] * n, "set_size": summary["average_set_size"] * n,
                    "coverage": summary["recall"] * n})
        cost = 1.0 - np.eye(k)
        out["p_discounted_cost"] = float(costs.set_costs(cost, labels, matrix, "p_discounted", r=P_DISCOUNT_R).sum())
        if ordinal_cost is not None:
            out["p_discounted_ordinal"] = float(costs.set_costs(ordinal_cost, labels, matrix, "p_discounted",
                                                                r=P_DISCOUNT_R).sum())
        covered = matrix[np.arange(n), labels]
        for size, upper in zip(SIZE_BINS, SIZE_BINS[1:] + (k + 1,)):
            in_bin = (sizes >= size) & (sizes < upper)
            out[f"n_size{size}"] = int(in_bin.sum())
            out[f"covered_size{size}"] = int((in_bin & covered).sum())
    if proba is not None:
        p = np.asarray(proba, dtype=float)
        labels = np.asarray(y_true)
        out["n"] = len(labels)
        out["certainty_ratio"] = certainty.certainty_ratio(labels, p)
        out["imcp"] = certainty.imcp_score(labels, p)
        out["brier"] = certainty.brier_score(labels, p) * len(labels)
        out["log_loss"] = certainty.log_loss(labels, p) * len(labels)
        if p.ndim == 2 and p.shape[1] == 2 and np.unique(labels).size == 2:  # cost lines need both classes
            from credalbook.costspace import expected_loss

            out["expected_loss"] = expected_loss(labels, p[:, 1], "score-driven", EXPECTED_LOSS_GAMMA)
    return out


def _check_lens(lens: str, name: str = "lens") -> Lens:
    if not isinstance(lens, str) or lens not in LENSES:
        raise ValueError(f"{name} must be one of {', '.join(LENSES)}, got {lens!r}")
    return LENSES[lens]


def dataset_scores(rows: pd.DataFrame) -> pd.DataFrame:
    """Pool the folds of each (dataset, classifier): long rows ``dataset, classifier, lens, value``.

    ``rows`` has the columns ``dataset``, ``classifier``, ``n`` and those of :func:`fold_lenses`;
    a lens that does not apply to a classifier or dataset is empty there (NaN) and has no row in
    the result. ``"sum"`` lenses are pooled sums over pooled counts, ``"mean"`` lenses the mean of
    the fold values, and size-stratified coverage the least pooled coverage over the size bins
    holding at least :data:`MIN_BIN_COUNT` instances (all non-empty bins if none does).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from credalbook.lenses import fold_lenses
    >>> y, sets = np.array([0, 1, 2, 1]), np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1], [1, 0, 1]], dtype=bool)
    >>> rows = pd.DataFrame([{"dataset": "d1", "classifier": "NCC", **fold_lenses(y, sets)}])
    >>> from credalbook.lenses import dataset_scores
    >>> value = dataset_scores(rows).set_index("lens")["value"]
    >>> float(value["discounted_accuracy"]), float(value["set_size"]), float(value["coverage"])
    (0.625, 1.5, 0.75)
    """
    _check_frame(rows, "rows", ("dataset", "classifier", "n"))
    counts = pd.to_numeric(rows["n"], errors="coerce").to_numpy(dtype=float)
    if rows.empty or np.any(~np.isfinite(counts)) or np.any(counts <= 0) or np.any(counts != np.round(counts)):
        raise ValueError("rows['n'] must hold each fold's number of test instances, a positive integer on every "
                         "row (a fold without instances has no lens value)")
    if not any(name in rows.columns for name in LENSES) and not set(FOLD_COLUMNS[-6:]) <= set(rows.columns):
        raise ValueError(f"rows holds no lens column: give at least one of {', '.join(LENSES)} "
                         "(the columns of fold_lenses)")
    groups = rows.groupby(["dataset", "classifier"], sort=False)
    frames = []
    for name, lens in LENSES.items():
        if lens.pooling == "bins":
            columns = [c for c in FOLD_COLUMNS if "_size" in c]
            if not set(columns) <= set(rows.columns):
                continue
            pooled = groups[columns].sum(min_count=1).dropna()
            counts = pooled[[f"n_size{s}" for s in SIZE_BINS]].to_numpy(float)
            covered = pooled[[f"covered_size{s}" for s in SIZE_BINS]].to_numpy(float)
            with np.errstate(invalid="ignore", divide="ignore"):
                rate = covered / counts
            enough = counts >= MIN_BIN_COUNT
            usable = np.where(enough.any(axis=1, keepdims=True), enough, counts > 0)
            value = pd.Series(np.where(usable, rate, np.inf).min(axis=1), index=pooled.index)
        elif name not in rows.columns:
            continue
        elif lens.pooling == "sum":
            applies = rows[rows[name].notna()]
            sums = applies.groupby(["dataset", "classifier"], sort=False)[[name, "n"]].sum()
            value = sums[name] / sums["n"]
        else:
            value = rows[rows[name].notna()].groupby(["dataset", "classifier"], sort=False)[name].mean()
        frames.append(value.rename("value").reset_index().assign(lens=name))
    out = pd.concat(frames, ignore_index=True)
    return out[["dataset", "classifier", "lens", "value"]]


def score_table(scores: pd.DataFrame, lens: str, classifiers=None) -> pd.DataFrame:
    """Datasets × classifiers values of one lens (from :func:`dataset_scores`), on the datasets where
    every classifier of ``classifiers`` (default: all that the lens scores) has a value.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = [{"dataset": f"d{d}", "classifier": c, "lens": lens, "value": v + 0.01 * d * (lens == "u80")}
    ...         for d in range(6) for c, v in (("A", 0.9), ("B", 0.8), ("C", 0.7)) for lens in ("u65", "u80")]
    >>> scores = pd.DataFrame(rows)
    >>> from credalbook.lenses import score_table
    >>> score_table(scores, "u65").round(2).head(2)
    classifier    A    B    C
    dataset
    d0          0.9  0.8  0.7
    d1          0.9  0.8  0.7
    """
    _check_scores(scores)
    _check_lens(lens)
    table = scores[scores["lens"] == lens].pivot(index="dataset", columns="classifier", values="value")
    if classifiers is not None:
        classifiers = _check_names(classifiers, "classifiers")
        unknown = [c for c in classifiers if c not in table.columns]
        if unknown:
            raise ValueError(f"classifiers {unknown} have no {lens!r} scores")
        table = table[classifiers]
    table = table.dropna()
    if table.empty:
        raise ValueError(f"no dataset has a {lens!r} score for every one of the classifiers")
    return table


def _rank_matrix(table: pd.DataFrame, lens: str) -> np.ndarray:
    """Per-dataset ranks (1 = best, ties averaged), datasets × classifiers."""
    signed = -table if LENSES[lens].higher_is_better else table
    return signed.rank(axis=1, method="average").to_numpy()


def lens_ranks(scores: pd.DataFrame, lenses, classifiers) -> pd.DataFrame:
    """Lenses × classifiers: the mean rank of each classifier under each lens (Demšar 2006; 1 is the best).

    Examples
    --------
    >>> import pandas as pd
    >>> rows = [{"dataset": f"d{d}", "classifier": c, "lens": lens, "value": v + 0.01 * d * (lens == "u80")}
    ...         for d in range(6) for c, v in (("A", 0.9), ("B", 0.8), ("C", 0.7)) for lens in ("u65", "u80")]
    >>> scores = pd.DataFrame(rows)
    >>> from credalbook.lenses import lens_ranks
    >>> lens_ranks(scores, ["u65", "u80"], ["A", "B", "C"])
           A    B    C
    u65  1.0  2.0  3.0
    u80  1.0  2.0  3.0
    """
    classifiers, lenses = _check_names(classifiers, "classifiers", 2), _check_lenses(lenses)
    return pd.DataFrame([_rank_matrix(score_table(scores, lens, classifiers), lens).mean(axis=0) for lens in lenses],
                        index=list(lenses), columns=classifiers)


def kendall_tau_b(a, b) -> np.ndarray:
    """Kendall's τ-b between the rankings ``a`` and ``b`` along the last axis (shapes (..., C)).

    τ_b = Σ sign(a_i − a_j) sign(b_i − b_j) / sqrt(n_a n_b) over pairs i < j, with n_a and n_b
    the pairs not tied in ``a`` and in ``b`` (Kendall 1945); ``scipy.stats.kendalltau`` is the
    oracle of the tests.

    Examples
    --------
    >>> from credalbook.lenses import kendall_tau_b
    >>> float(kendall_tau_b([1, 2, 3, 4], [1, 3, 2, 4]))
    0.6666666666666666
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape or a.shape[-1] < 2:
        raise ValueError(f"a and b must have the same shape with at least two items, got {a.shape} and {b.shape}")
    i, j = np.triu_indices(a.shape[-1], k=1)
    sign_a, sign_b = np.sign(a[..., i] - a[..., j]), np.sign(b[..., i] - b[..., j])
    denominator = np.sqrt((sign_a != 0).sum(axis=-1) * (sign_b != 0).sum(axis=-1))
    if np.any(denominator == 0):
        raise ValueError("Kendall's tau is undefined when one ranking ties every item")
    return (sign_a * sign_b).sum(axis=-1) / denominator


def _tau_or_nan(a, b) -> np.ndarray:
    """Kendall's τ-b along the last axis, NaN where one ranking ties every item (τ undefined)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    i, j = np.triu_indices(a.shape[-1], k=1)
    sign_a, sign_b = np.sign(a[..., i] - a[..., j]), np.sign(b[..., i] - b[..., j])
    denominator = np.sqrt((sign_a != 0).sum(axis=-1) * (sign_b != 0).sum(axis=-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > 0, (sign_a * sign_b).sum(axis=-1) / np.where(denominator > 0, denominator, 1),
                        np.nan)


def _bca_constants(estimate: float, boot, jackknife) -> tuple[float, float]:
    """(z0, a) of Efron's BCa interval: the bias correction (ties of the bootstrap values with the estimate
    counted half, the share kept inside (0, 1)) and the acceleration from the jackknife values."""
    from scipy.stats import norm

    boot, jackknife = np.asarray(boot, dtype=float), np.asarray(jackknife, dtype=float)
    share = (np.sum(boot < estimate) + 0.5 * np.sum(boot == estimate)) / len(boot)
    share = min(max(share, 0.5 / len(boot)), 1 - 0.5 / len(boot))
    z0 = float(norm.ppf(share))
    if len(jackknife) < 2:  # no leave-one-out spread (τ undefined on the leave-one-out samples): no acceleration
        return z0, 0.0
    deviation = jackknife.mean() - jackknife
    spread = np.sum(deviation ** 2)
    a = float(np.sum(deviation ** 3) / (6 * spread ** 1.5)) if spread > 0 else 0.0
    return z0, a


def bca_interval(estimate: float, boot, jackknife, level: float = 0.95) -> tuple[float, float]:
    """Efron's (1987) bias-corrected and accelerated bootstrap interval at ``level``.

    ``boot`` (B,) the statistic on the bootstrap resamples, ``jackknife`` (n,) on the
    leave-one-out samples. The percentiles of ``boot`` are moved by the bias correction
    z0 = Φ⁻¹(share of ``boot`` below ``estimate``, ties counted half) and the acceleration
    a = Σd³ / (6 (Σd²)^{3/2}), d the jackknife deviations (DiCiccio & Efron 1996, §3);
    ``scipy.stats.bootstrap(method="BCa")`` is the oracle of the tests.

    Examples
    --------
    >>> import numpy as np
    >>> from credalbook.lenses import bca_interval
    >>> x = np.random.default_rng(0).exponential(size=30)
    >>> boot = np.array([np.random.default_rng(k).choice(x, 30).mean() for k in range(500)])
    >>> jackknife = np.array([np.delete(x, i).mean() for i in range(30)])
    >>> low, high = bca_interval(x.mean(), boot, jackknife, level=0.9)
    >>> bool(low < x.mean() < high)
    True
    """
    from credalbook._validation import check_array

    check_scalar(level, "level", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    check_scalar(estimate, "estimate")
    boot = np.asarray(boot, dtype=float)
    if boot.ndim != 1 or len(boot) < 2 or np.isnan(boot).any():
        raise ValueError("boot must be a 1-d array of at least two numbers without NaN")
    jackknife = check_array(jackknife, "jackknife", ndim=1)
    return _bca(estimate, boot, jackknife, level)


def _bca(estimate: float, boot: np.ndarray, jackknife: np.ndarray, level: float) -> tuple[float, float]:
    """:func:`bca_interval` on checked input; an empty ``jackknife`` (τ undefined on every leave-one-out
    sample) gives no acceleration."""
    from scipy.stats import norm

    z0, a = _bca_constants(estimate, boot, jackknife)
    z = norm.ppf([(1 - level) / 2, (1 + level) / 2])
    shares = norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z)))
    low, high = np.quantile(boot, shares)
    return float(low), float(high)


def _bca_pvalue(estimate: float, boot, jackknife, null: float = 0.0) -> float:
    """Two-sided p-value of ``null`` by inverting the BCa interval: twice the tail level at which one end of
    the interval reaches ``null``; 1/B (the resolution of B resamples) when no resample reaches it."""
    from scipy.stats import norm

    boot = np.asarray(boot, dtype=float)
    z0, a = _bca_constants(estimate, boot, jackknife)
    share = (np.sum(boot < null) + 0.5 * np.sum(boot == null)) / len(boot)
    if share <= 0 or share >= 1:
        return 1 / len(boot)
    w = norm.ppf(share) - z0
    z = w / (1 + a * w) - z0
    return float(min(1.0, max(2 * min(norm.cdf(z), norm.sf(z)), 1 / len(boot))))


def _holm(pvalues: np.ndarray, alpha: float) -> np.ndarray:
    """Holm's step-down rejections of the hypotheses with ``pvalues`` at family-wise level ``alpha``."""
    order = np.argsort(pvalues, kind="stable")
    m = len(pvalues)
    passed = np.asarray(pvalues)[order] <= alpha / (m - np.arange(m))
    reject = np.zeros(m, dtype=bool)
    reject[order[:np.argmin(passed) if not passed.all() else m]] = True
    return reject


def rank_agreement(scores: pd.DataFrame, lenses, classifiers, *, n_boot: int = 2000, level: float = 0.95,
                   seed: int = 0) -> pd.DataFrame:
    """Kendall τ-b between the mean-rank orders of ``classifiers`` under each pair of ``lenses``, with
    bias-corrected intervals adjusted for the number of pairs.

    For each pair, on the datasets both lenses score: τ of the two mean-rank vectors; the BCa
    interval at ``level`` (:func:`bca_interval`) from ``n_boot`` resamples of the datasets (the
    same resamples for both lenses, and for every pair on the same datasets, drawn from ``seed``)
    and the leave-one-dataset-out jackknife; the same interval at
    the Bonferroni level 1 − (1 − ``level``)/m over the m pairs; the BCa p-value of τ = 0 and
    whether Holm's procedure at 1 − ``level`` rejects it. A resample on which one lens ties every
    classifier has no τ: it is left out and counted (``n_undefined``); when every leave-one-dataset-out τ is
    undefined the interval has no acceleration, and a lens that ties every classifier on the data is refused
    (τ is undefined). Rows ``lens_a, lens_b,
    tau, low, high, low_adjusted, high_adjusted, pvalue, holm, boot_mean, n_undefined, n_datasets``.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = [{"dataset": f"d{d}", "classifier": c, "lens": lens, "value": v + 0.01 * d * (lens == "u80")}
    ...         for d in range(6) for c, v in (("A", 0.9), ("B", 0.8), ("C", 0.7)) for lens in ("u65", "u80")]
    >>> scores = pd.DataFrame(rows)
    >>> from credalbook.lenses import rank_agreement
    >>> row = rank_agreement(scores, ["u65", "u80"], ["A", "B", "C"], n_boot=200).iloc[0]
    >>> row["lens_a"], row["lens_b"], float(row["tau"]), int(row["n_datasets"])
    ('u65', 'u80', 1.0, 6)
    """
    check_scalar(n_boot, "n_boot", low=10, integer=True)
    check_scalar(level, "level", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    check_scalar(seed, "seed", low=0, integer=True)
    lenses, classifiers = _check_lenses(lenses, minimum=2), _check_names(classifiers, "classifiers", 2)
    tables = {lens: score_table(scores, lens, classifiers) for lens in lenses}
    pairs = [(a, b) for x, a in enumerate(lenses) for b in lenses[x + 1:]]
    adjusted = 1 - (1 - level) / max(len(pairs), 1)
    rows = []
    for lens_a, lens_b in pairs:
        common = tables[lens_a].index.intersection(tables[lens_b].index)
        ranks_a = _rank_matrix(tables[lens_a].loc[common], lens_a)
        ranks_b = _rank_matrix(tables[lens_b].loc[common], lens_b)
        n = len(common)
        if n == 0:
            raise ValueError(f"no dataset has both a {lens_a!r} and a {lens_b!r} score for every one of classifiers")
        tau = float(_tau_or_nan(ranks_a.mean(axis=0), ranks_b.mean(axis=0)))
        if np.isnan(tau):
            tied = lens_a if np.ptp(ranks_a.mean(axis=0)) == 0 else lens_b
            raise ValueError(f"lens {tied!r} gives every one of classifiers the same mean rank on the datasets "
                             f"both lenses score: Kendall's tau with it is undefined")
        draws = np.random.default_rng(seed).integers(0, n, size=(n_boot, n))  # a pair's interval ignores the others
        boot = _tau_or_nan(ranks_a[draws].mean(axis=1), ranks_b[draws].mean(axis=1))
        undefined = int(np.isnan(boot).sum())
        boot = boot[~np.isnan(boot)]
        if len(boot) < 2:
            raise ValueError(f"τ({lens_a}, {lens_b}) is undefined on almost every bootstrap resample")
        keep = ~np.eye(n, dtype=bool)
        jackknife = _tau_or_nan(np.stack([ranks_a[k].mean(axis=0) for k in keep]),
                                np.stack([ranks_b[k].mean(axis=0) for k in keep])) if n > 2 else np.array([tau])
        jackknife = jackknife[~np.isnan(jackknife)]
        low, high = _bca(tau, boot, jackknife, level)
        low_adjusted, high_adjusted = _bca(tau, boot, jackknife, adjusted)
        rows.append({"lens_a": lens_a, "lens_b": lens_b, "tau": tau, "low": low, "high": high,
                     "low_adjusted": low_adjusted, "high_adjusted": high_adjusted,
                     "pvalue": _bca_pvalue(tau, boot, jackknife), "boot_mean": float(boot.mean()),
                     "n_undefined": undefined, "n_datasets": n})
    out = pd.DataFrame(rows, columns=["lens_a", "lens_b", "tau", "low", "high", "low_adjusted", "high_adjusted",
                                      "pvalue", "boot_mean", "n_undefined", "n_datasets"])
    out.insert(8, "holm", _holm(out["pvalue"].to_numpy(), 1 - level) if len(out) else np.array([], dtype=bool))
    return out


def nested_pairs(scores: pd.DataFrame, classifiers) -> pd.DataFrame:
    """The pairs of ``classifiers`` whose sets behave as nested on every dataset: ``outer``'s coverage and
    mean set size are at least ``inner``'s on each dataset scored by both lenses, and larger on one.

    Between such a pair the coverage order is the same on every dataset: a flip between coverage and
    a lens that rewards small sets is forced by the construction (LAC at 0.80 inside LAC at 0.90,
    naive Bayes's class inside NBC-reject's set), not found by the data. Rows ``inner, outer``.

    Examples
    --------
    >>> import pandas as pd
    >>> values = {("A", "coverage"): 0.80, ("A", "set_size"): 1.0, ("B", "coverage"): 0.90, ("B", "set_size"): 1.4,
    ...           ("C", "coverage"): 0.85, ("C", "set_size"): 1.6}
    >>> scores = pd.DataFrame([{"dataset": d, "classifier": c, "lens": lens, "value": v + 0.01 * k}
    ...                        for k, d in enumerate(("d1", "d2")) for (c, lens), v in values.items()])
    >>> from credalbook.lenses import nested_pairs
    >>> nested_pairs(scores, ["A", "B", "C"])  # A's sets behave as inside B's and C's
      inner outer
    0     A     B
    1     A     C
    """
    classifiers = _check_names(classifiers, "classifiers", 2)
    coverage, size = score_table(scores, "coverage", classifiers), score_table(scores, "set_size", classifiers)
    common = coverage.index.intersection(size.index)
    coverage, size = coverage.loc[common], size.loc[common]
    rows = []
    for inner in classifiers:
        for outer in classifiers:
            if inner == outer:
                continue
            weakly = (coverage[inner] <= coverage[outer]).all() and (size[inner] <= size[outer]).all()
            if weakly and ((coverage[inner] < coverage[outer]).any() or (size[inner] < size[outer]).any()):
                rows.append({"inner": inner, "outer": outer})
    return pd.DataFrame(rows, columns=["inner", "outer"])


def order_flips(scores: pd.DataFrame, lens_a: str, lens_b: str, classifiers, alpha: float = 0.05) -> pd.DataFrame:
    """The pairs of ``classifiers`` that ``lens_a`` and ``lens_b`` order differently (by mean rank).

    Rows ``first, second`` (``first`` is better under ``lens_a``), the mean-rank differences
    (second − first) under each lens, whether each exceeds the Nemenyi critical difference
    at ``alpha`` over the datasets both lenses score, ``significant`` (beyond it under both) and
    ``kind``: ``"forced"`` when the two classifiers are nested (:func:`nested_pairs`; needs the
    coverage and set-size lenses in ``scores``), ``"genuine"`` otherwise.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = [{"dataset": f"d{d}", "classifier": c, "lens": lens, "value": v + 0.01 * d * (lens == "u80")}
    ...         for d in range(6) for c, v in (("A", 0.9), ("B", 0.8), ("C", 0.7)) for lens in ("u65", "u80")]
    >>> scores = pd.DataFrame(rows)
    >>> from credalbook.lenses import order_flips
    >>> order_flips(scores, "u65", "u80", ["A", "B", "C"]).empty  # both lenses rank A > B > C
    True
    """
    from credalbook.stats import nemenyi_critical_difference

    classifiers = _check_names(classifiers, "classifiers", 2)
    _check_lens(lens_a, "lens_a"), _check_lens(lens_b, "lens_b")
    check_scalar(alpha, "alpha", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    table_a, table_b = score_table(scores, lens_a, classifiers), score_table(scores, lens_b, classifiers)
    common = table_a.index.intersection(table_b.index)
    mean_a = _rank_matrix(table_a.loc[common], lens_a).mean(axis=0)
    mean_b = _rank_matrix(table_b.loc[common], lens_b).mean(axis=0)
    cd = nemenyi_critical_difference(len(classifiers), len(common), alpha)
    lenses_present = set(scores["lens"])
    nested = (set(map(frozenset, nested_pairs(scores, classifiers).itertuples(index=False)))
              if {"coverage", "set_size"} <= lenses_present else set())
    rows = []
    for i in range(len(classifiers)):
        for j in range(i + 1, len(classifiers)):
            gap_a, gap_b = mean_a[j] - mean_a[i], mean_b[j] - mean_b[i]
            if gap_a * gap_b < 0:
                first, second = (i, j) if gap_a > 0 else (j, i)
                sign = 1.0 if gap_a > 0 else -1.0
                significant = abs(gap_a) > cd and abs(gap_b) > cd
                rows.append({"first": classifiers[first], "second": classifiers[second],
                             f"gap_{lens_a}": sign * gap_a, f"gap_{lens_b}": sign * gap_b,
                             f"significant_{lens_a}": bool(abs(gap_a) > cd),
                             f"significant_{lens_b}": bool(abs(gap_b) > cd), "significant": bool(significant),
                             "kind": "forced" if frozenset((classifiers[i], classifiers[j])) in nested else "genuine"})
    columns = ["first", "second", f"gap_{lens_a}", f"gap_{lens_b}", f"significant_{lens_a}", f"significant_{lens_b}",
               "significant", "kind"]
    return pd.DataFrame(rows, columns=columns)


def _best(mean: pd.Series) -> list[str]:
    """The classifiers with the lowest mean rank, all of them when several tie (to rounding)."""
    return list(mean.index[np.isclose(mean.to_numpy(), mean.min(), rtol=0, atol=1e-9)])


def friedman_by_lens(scores: pd.DataFrame, lenses, classifiers, alpha: float = 0.05) -> pd.DataFrame:
    """Per lens: Friedman's test over datasets, the Nemenyi critical difference, the best classifier
    by mean rank and those whose mean rank is within the critical difference of it (Demšar 2006).

    Ties are the data's: ``best`` names every classifier with the lowest mean rank, joined by
    " = " when several tie (``n_best`` of them), in the order of ``classifiers``, never one of
    them by sort order; ``role`` is the lens's (score or descriptor).

    Examples
    --------
    >>> import pandas as pd
    >>> rows = [{"dataset": f"d{d}", "classifier": c, "lens": lens, "value": v + 0.01 * d * (lens == "u80")}
    ...         for d in range(6) for c, v in (("A", 0.9), ("B", 0.8), ("C", 0.7)) for lens in ("u65", "u80")]
    >>> scores = pd.DataFrame(rows)
    >>> from credalbook.lenses import friedman_by_lens
    >>> table = friedman_by_lens(scores, ["u65"], ["A", "B", "C"])
    >>> table.loc[0, "best"], table.loc[0, "not_worse_than_best"], round(float(table.loc[0, "critical_difference"]), 3)
    ('A', 'A, B', 1.353)
    """
    from credalbook.stats import friedman_test, nemenyi_critical_difference

    classifiers, lenses = _check_names(classifiers, "classifiers", 2), _check_lenses(lenses)
    check_scalar(alpha, "alpha", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    rows = []
    for lens in lenses:
        table = score_table(scores, lens, classifiers)
        signed = table if LENSES[lens].higher_is_better else -table
        test = friedman_test(signed, alpha=alpha)
        mean = pd.Series(_rank_matrix(table, lens).mean(axis=0), index=classifiers)
        best = _best(mean)
        cd = nemenyi_critical_difference(len(classifiers), len(table), alpha)
        within = mean[mean - mean.min() <= cd].sort_values(kind="stable")
        rows.append({"lens": lens, "role": LENSES[lens].role, "n_datasets": len(table), "statistic": test.statistic,
                     "pvalue": test.pvalue, "critical_difference": cd, "best": " = ".join(best),
                     "n_best": len(best), "best_mean_rank": float(mean.min()),
                     "not_worse_than_best": ", ".join(within.index)})
    return pd.DataFrame(rows)


def lens_duplicates(scores: pd.DataFrame, classifiers, rows: pd.DataFrame | None = None) -> pd.DataFrame:
    """The merged lenses (:data:`MERGED`) and how far each duplicates the lens it is read as.

    Rows ``lens, same_as, tau, largest_gap, why``: Kendall's τ between the two mean-rank orders
    of ``classifiers``; for the p-discounted 0/1 cost, read as u75 (Proposition R6), τ with the
    u75 that u65 and u80 determine and, given the fold ``rows``, the largest absolute difference
    per instance between the cost and 1 − u75 (zero to rounding). τ is NaN where a lens ties every classifier.

    Examples
    --------
    >>> import pandas as pd
    >>> from credalbook.lenses import lens_duplicates
    >>> rows = [{"dataset": f"d{d}", "classifier": c, "lens": lens, "value": v}
    ...         for d in range(3) for c, u65, u80 in (("A", 0.9, 0.92), ("B", 0.8, 0.85))
    ...         for lens, v in (("u65", u65), ("u80", u80), ("p_discounted_cost", 1 - (u65 + u80) / 2))]
    >>> lens_duplicates(pd.DataFrame(rows), ["A", "B"])[["lens", "same_as", "tau"]]
                    lens same_as  tau
    0  p_discounted_cost     u75  1.0
    """
    from credalbook.risk_aversion import coefficients_from_utilities

    classifiers = _check_names(classifiers, "classifiers", 2)
    _check_scores(scores)
    if rows is not None:
        _check_frame(rows, "rows", ("n",))
    out = []
    for name, kept in MERGED.items():
        if name not in set(scores["lens"]):
            continue
        table = score_table(scores, name, classifiers)
        mine = _rank_matrix(table, name).mean(axis=0)
        gap = np.nan
        if kept == "u75":
            u65 = score_table(scores, "u65", classifiers).loc[table.index]
            u80 = score_table(scores, "u80", classifiers).loc[table.index]
            A, B = coefficients_from_utilities(u65.to_numpy(), u80.to_numpy())
            other = pd.DataFrame(-(A + 3 * B), index=table.index, columns=table.columns)  # 1 − u75 up to a constant
            theirs = other.rank(axis=1, method="average").to_numpy().mean(axis=0)
            if rows is not None and {"u65", "u80", "p_discounted_cost"} <= set(rows.columns):
                u75 = rows["u65"] + (rows["u80"] - rows["u65"]) * (0.75 - 0.65) / (0.80 - 0.65)
                gap = float(((rows["p_discounted_cost"] - (rows["n"] - u75)) / rows["n"]).abs().max())
        else:
            theirs = _rank_matrix(score_table(scores, kept, classifiers).loc[table.index], kept).mean(axis=0)
        out.append({"lens": name, "same_as": kept, "tau": float(_tau_or_nan(mine, theirs)), "largest_gap": gap,
                    "why": LENSES[name].why})
    return pd.DataFrame(out, columns=["lens", "same_as", "tau", "largest_gap", "why"])


def nested_free_panels(classifiers, nested: pd.DataFrame) -> list[tuple[str, ...]]:
    """Every largest sub-panel of ``classifiers`` in which no member is nested in another (the maximal
    antichains of the pairs of :func:`nested_pairs`), in the order of ``classifiers``.

    Examples
    --------
    >>> import pandas as pd
    >>> from credalbook.lenses import nested_free_panels
    >>> nested = pd.DataFrame({"inner": ["A", "A"], "outer": ["B", "C"]})
    >>> nested_free_panels(["A", "B", "C", "D"], nested)
    [('B', 'C', 'D'), ('A', 'D')]
    """
    import itertools

    classifiers = _check_names(classifiers, "classifiers")
    _check_frame(nested, "nested", ("inner", "outer"))
    strangers = sorted({c for c in list(nested["inner"]) + list(nested["outer"]) if c not in classifiers}, key=str)
    if strangers:
        raise ValueError(f"nested names {strangers}, which are not among classifiers")
    linked = {frozenset(pair) for pair in nested[["inner", "outer"]].itertuples(index=False)}
    involved = sorted({c for pair in linked for c in pair}, key=classifiers.index)
    free = [c for c in classifiers if c not in involved]
    chosen = []
    for size in range(len(involved), -1, -1):
        for subset in itertools.combinations(involved, size):
            if any(frozenset(pair) in linked for pair in itertools.combinations(subset, 2)):
                continue
            if any(set(subset) < set(other) for other in chosen):
                continue
            chosen.append(subset)
    return [tuple(c for c in classifiers if c in free or c in subset) for subset in chosen]


def panel_variants(scores: pd.DataFrame, panel, *, precise=(), variants=()) -> dict[str, list[str]]:
    """The panels on which a finding is re-measured: ``"as run"`` (``panel``), ``"one entry per method"``
    (without ``variants``, e.g. the extra confidence levels of one conformal method), ``"no precise
    baselines"`` (without ``precise``), both, and every largest panel in which no classifier's sets are
    nested in another's (``"no nesting 1"``, ...; :func:`nested_free_panels` of :func:`nested_pairs`).

    Examples
    --------
    >>> import pandas as pd
    >>> values = {("A", "coverage"): 0.80, ("A", "set_size"): 1.0, ("B", "coverage"): 0.90, ("B", "set_size"): 1.4,
    ...           ("C", "coverage"): 0.85, ("C", "set_size"): 1.6}
    >>> scores = pd.DataFrame([{"dataset": d, "classifier": c, "lens": lens, "value": v + 0.01 * k}
    ...                        for k, d in enumerate(("d1", "d2")) for (c, lens), v in values.items()])
    >>> from credalbook.lenses import panel_variants
    >>> panel_variants(scores, ["A", "B", "C"], precise=["A"])
    {'as run': ['A', 'B', 'C'], 'no precise baselines': ['B', 'C'], 'neither': ['B', 'C'], 'no nesting 1': ['B', 'C'], 'no nesting 2': ['A']}
    """
    _check_scores(scores)
    panel = _check_names(panel, "panel", 2)
    unknown = [c for c in panel if c not in set(scores["classifier"])]
    if unknown:
        raise ValueError(f"panel names classifiers {unknown} that have no scores")
    precise, variants = _check_names(precise, "precise", 0), _check_names(variants, "variants", 0)
    drop = {"one entry per method": set(variants), "no precise baselines": set(precise),
            "neither": set(variants) | set(precise)}
    out = {"as run": panel}
    for name, dropped in drop.items():
        if dropped:
            out[name] = [c for c in panel if c not in dropped]
    for k, free in enumerate(nested_free_panels(panel, nested_pairs(scores, panel))):
        out[f"no nesting {k + 1}"] = list(free)
    return out


def shared_top(scores: pd.DataFrame, lenses, classifiers, alpha: float = 0.05) -> list[str]:
    """The classifiers within the Nemenyi critical difference of the best under every one of ``lenses``
    (:func:`friedman_by_lens`), in the order of ``classifiers``: those no lens of the list can tell apart
    from its winner.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = [{"dataset": f"d{d}", "classifier": c, "lens": lens, "value": v + 0.01 * d * (lens == "u80")}
    ...         for d in range(6) for c, v in (("A", 0.9), ("B", 0.8), ("C", 0.7)) for lens in ("u65", "u80")]
    >>> scores = pd.DataFrame(rows)
    >>> from credalbook.lenses import shared_top
    >>> shared_top(scores, ["u65", "u80"], ["A", "B", "C"])  # six datasets: B is within the critical difference of A
    ['A', 'B']
    """
    table = friedman_by_lens(scores, lenses, classifiers, alpha)
    sets = [set(row.split(", ")) for row in table["not_worse_than_best"]]
    return [c for c in classifiers if all(c in s for s in sets)]


def panel_agreement(scores: pd.DataFrame, lens_a: str, lens_b: str, panels: dict, *, n_boot: int = 2000,
                    level: float = 0.95, seed: int = 0) -> pd.DataFrame:
    """Kendall's τ between two lenses' mean-rank orders on each panel of ``panels`` (name → classifiers),
    with its BCa interval (:func:`rank_agreement`): how far the agreement is a property of the panel.
    Rows ``panel, n_classifiers, tau, low, high``.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = [{"dataset": f"d{d}", "classifier": c, "lens": lens, "value": v + 0.01 * d * (lens == "u80")}
    ...         for d in range(6) for c, v in (("A", 0.9), ("B", 0.8), ("C", 0.7)) for lens in ("u65", "u80")]
    >>> scores = pd.DataFrame(rows)
    >>> from credalbook.lenses import panel_agreement
    >>> panels = {"all": ["A", "B", "C"], "without C": ["A", "B"]}
    >>> panel_agreement(scores, "u65", "u80", panels, n_boot=200)[["panel", "n_classifiers", "tau"]]
           panel  n_classifiers  tau
    0        all              3  1.0
    1  without C              2  1.0
    """
    rows = []
    for name, classifiers in _check_panels(panels).items():
        row = rank_agreement(scores, [lens_a, lens_b], classifiers, n_boot=n_boot, level=level, seed=seed).iloc[0]
        rows.append({"panel": name, "n_classifiers": len(classifiers), "tau": row["tau"], "low": row["low"],
                     "high": row["high"]})
    return pd.DataFrame(rows)


def panel_winners(scores: pd.DataFrame, lenses, panels: dict, alpha: float = 0.05) -> pd.DataFrame:
    """The best classifier (ties named) and those within the critical difference of it, per lens and per
    panel of ``panels`` (name → classifiers): which findings hold whatever the panel. Rows ``panel, lens,
    best, not_worse_than_best``.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = [{"dataset": f"d{d}", "classifier": c, "lens": lens, "value": v + 0.01 * d * (lens == "u80")}
    ...         for d in range(6) for c, v in (("A", 0.9), ("B", 0.8), ("C", 0.7)) for lens in ("u65", "u80")]
    >>> scores = pd.DataFrame(rows)
    >>> from credalbook.lenses import panel_winners
    >>> panel_winners(scores, ["u65", "u80"], {"all": ["A", "B", "C"]})[["panel", "lens", "best"]]
      panel lens best
    0   all  u65    A
    1   all  u80    A
    """
    frames = []
    for name, classifiers in _check_panels(panels).items():
        table = friedman_by_lens(scores, lenses, classifiers, alpha)
        frames.append(table.assign(panel=name)[["panel", "lens", "best", "not_worse_than_best"]])
    if not frames:
        raise ValueError("panels is empty: name at least one panel")
    return pd.concat(frames, ignore_index=True)


def lens_means(scores: pd.DataFrame, lenses, classifiers) -> pd.DataFrame:
    """Classifiers × lenses: each lens's mean value over the datasets where it scores every classifier.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = [{"dataset": f"d{d}", "classifier": c, "lens": lens, "value": v + 0.01 * d * (lens == "u80")}
    ...         for d in range(6) for c, v in (("A", 0.9), ("B", 0.8), ("C", 0.7)) for lens in ("u65", "u80")]
    >>> scores = pd.DataFrame(rows)
    >>> from credalbook.lenses import lens_means
    >>> lens_means(scores, ["u65", "u80"], ["A", "B", "C"]).round(3)
                u65    u80
    classifier
    A           0.9  0.925
    B           0.8  0.825
    C           0.7  0.725
    """
    classifiers, lenses = _check_names(classifiers, "classifiers"), _check_lenses(lenses)
    return pd.DataFrame({lens: score_table(scores, lens, classifiers).mean(axis=0) for lens in lenses})


def utility_lines(scores: pd.DataFrame, classifiers) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(A, B), classifiers × datasets: the lines U(v) = A + 4vB of every utility of discounted accuracy
    with u(1/2) = v, recovered from the u65 and u80 lenses
    (:func:`credalbook.risk_aversion.coefficients_from_utilities`, Proposition R1).

    Examples
    --------
    >>> import pandas as pd
    >>> rows = [{"dataset": f"d{d}", "classifier": c, "lens": lens, "value": v + 0.01 * d * (lens == "u80")}
    ...         for d in range(6) for c, v in (("A", 0.9), ("B", 0.8), ("C", 0.7)) for lens in ("u65", "u80")]
    >>> scores = pd.DataFrame(rows)
    >>> from credalbook.lenses import utility_lines
    >>> A, B = utility_lines(scores, ["A", "B", "C"])
    >>> A.shape, float(B.loc["A", "d0"])  # u65 = u80 on d0: a flat line
    ((3, 6), 0.0)
    """
    from credalbook.risk_aversion import coefficients_from_utilities

    u65, u80 = score_table(scores, "u65", classifiers), score_table(scores, "u80", classifiers)
    common = u65.index.intersection(u80.index)
    A, B = coefficients_from_utilities(u65.loc[common].to_numpy().T, u80.loc[common].to_numpy().T)
    return (pd.DataFrame(A, index=u65.columns, columns=common), pd.DataFrame(B, index=u65.columns, columns=common))


def utility_agreement_path(scores: pd.DataFrame, against, classifiers, v_grid) -> pd.DataFrame:
    """Kendall τ between the ranking of the utility with u(1/2) = v and that of each lens of ``against``,
    for each v of ``v_grid`` (rows) — where a risk aversion sits between the other lenses.

    The utility's per-dataset values are the lines of :func:`utility_lines`; mean ranks over the
    datasets every lens scores, as in :func:`rank_agreement`.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = [{"dataset": f"d{d}", "classifier": c, "lens": lens, "value": v + 0.01 * d * (lens == "u80")}
    ...         for d in range(6) for c, v in (("A", 0.9), ("B", 0.8), ("C", 0.7)) for lens in ("u65", "u80")]
    >>> scores = pd.DataFrame(rows)
    >>> from credalbook.lenses import utility_agreement_path
    >>> rows = [{"dataset": f"d{d}", "classifier": c, "lens": "set_size", "value": s}
    ...         for d in range(6) for c, s in (("A", 1.0), ("B", 1.2), ("C", 1.5))]
    >>> scores = pd.concat([scores, pd.DataFrame(rows)], ignore_index=True)
    >>> utility_agreement_path(scores, ["set_size"], ["A", "B", "C"], [0.5, 0.8])
         v  set_size
    0  0.5       1.0
    1  0.8       1.0
    """
    from credalbook._validation import check_array

    v_grid = check_array(v_grid, "v_grid", ndim=1)
    if np.any((v_grid < 0.5) | (v_grid >= 1)):
        raise ValueError("v_grid must lie in [0.5, 1): u(1/2) of a risk-averse utility")
    classifiers, against = _check_names(classifiers, "classifiers", 2), _check_lenses(against, "against")
    A, B = utility_lines(scores, classifiers)
    tables = {lens: score_table(scores, lens, classifiers) for lens in against}
    common = A.columns
    for table in tables.values():
        common = common.intersection(table.index)
    A, B = A[common].to_numpy(), B[common].to_numpy()
    other = {lens: _rank_matrix(table.loc[common], lens).mean(axis=0) for lens, table in tables.items()}
    rows = []
    for v in v_grid:
        utility = pd.DataFrame((A + 4 * v * B).T, columns=classifiers)
        mean = (-utility).rank(axis=1, method="average").to_numpy().mean(axis=0)
        rows.append({"v": float(v), **{lens: float(kendall_tau_b(mean, other[lens])) for lens in against}})
    return pd.DataFrame(rows)


def plot_utility_agreement_path(path: pd.DataFrame, ax=None):
    """Kendall τ of u_v's ranking with each lens, against v (the output of :func:`utility_agreement_path`).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> from credalbook.lenses import plot_utility_agreement_path
    >>> path = pd.DataFrame({"v": [0.5, 0.65, 0.8, 0.95], "coverage": [-0.2, 0.1, 0.4, 0.7]})
    >>> ax = plot_utility_agreement_path(path)
    >>> ax.get_ylabel()
    "Kendall τ with u_v's ranking"
    """
    import matplotlib.pyplot as plt

    from credalbook.style import COLUMN_WIDTH

    _check_frame(path, "path", ("v",))
    _check_lenses(path.columns.drop("v"), "path's columns")
    if ax is None:
        _, ax = plt.subplots(figsize=(COLUMN_WIDTH, 3.6))
    for lens in path.columns.drop("v"):
        ax.plot(path["v"], path[lens], label=LENSES[lens].label, lw=1.8)
    ax.axhline(0, color="0.6", lw=0.8)
    for v, name in ((0.5, "u50"), (0.65, "u65"), (0.8, "u80")):
        ax.axvline(v, color="0.85", lw=0.8, zorder=0)
        ax.annotate(name, (v, 1.0), xytext=(2, -2), textcoords="offset points", fontsize=9, va="top")
    ax.set_ylim(-1.05, 1.05)
    ax.set_xlabel("risk aversion v = u(1/2)")
    ax.set_ylabel("Kendall τ with u_v's ranking")
    ax.legend(fontsize=9, frameon=False, loc="lower left")
    return ax


#: The label-space groups of :func:`label_spaces`, two classes (a two-class set is the whole label space) or more.
LABEL_SPACES = ("two classes", "three or more")


def label_spaces(rows: pd.DataFrame) -> pd.Series:
    """Each dataset's label-space group (:data:`LABEL_SPACES`), read from the fold rows: a dataset has two
    classes exactly when its probabilistic classifiers store the binary expected loss
    (:func:`fold_lenses` computes it for two-column probabilities only).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from credalbook.lenses import fold_lenses, label_spaces
    >>> y, p1 = np.array([0, 1, 1, 0]), np.array([0.2, 0.7, 0.6, 0.4])
    >>> two = fold_lenses(y, proba=np.column_stack([1 - p1, p1]))
    >>> three = fold_lenses(np.array([0, 1, 2]), proba=np.full((3, 3), 1 / 3))
    >>> rows = pd.DataFrame([{"dataset": "spam", **two}, {"dataset": "iris", **three}])
    >>> label_spaces(rows).to_dict()
    {'iris': 'three or more', 'spam': 'two classes'}
    """
    _check_frame(rows, "rows", ("dataset", "expected_loss"))
    binary = rows.groupby("dataset", sort=True)["expected_loss"].apply(lambda values: values.notna().any())
    return binary.map({True: LABEL_SPACES[0], False: LABEL_SPACES[1]}).rename("label_space")


def coverage_by_size(rows: pd.DataFrame, classifiers, by_label_space: bool = False) -> pd.DataFrame:
    """Coverage of each classifier's sets by size (the bins of :data:`SIZE_BINS`), the mean over datasets.

    Long rows ``classifier, size, coverage, share, datasets``: on each dataset the pooled share of
    the sets of that size holding the truth, averaged over the datasets where the classifier gives
    at least :data:`MIN_BIN_COUNT` sets of that size (``datasets`` of them); ``share`` is the mean
    share of the test instances that receive a set of that size. With ``by_label_space`` the
    datasets of two classes, where a set of two is the whole label space and covers by
    construction, are averaged apart from the others (a ``label_space`` column, :func:`label_spaces`).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from credalbook.lenses import fold_lenses
    >>> y, sets = np.array([0, 1, 2, 1]), np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1], [1, 0, 1]], dtype=bool)
    >>> rows = pd.DataFrame([{"dataset": "d1", "classifier": "NCC", **fold_lenses(y, sets)}])
    >>> from credalbook.lenses import coverage_by_size
    >>> coverage_by_size(rows, ["NCC"])[["size", "share", "datasets"]]  # fewer than 10 sets per size: no coverage
      size  share  datasets
    0    1    0.5         0
    1    2    0.5         0
    2   3+    0.0         0
    """
    _check_frame(rows, "rows", ("dataset", "classifier", "n") + FOLD_COLUMNS[-6:])
    if not isinstance(by_label_space, (bool, np.bool_)):
        raise TypeError(f"by_label_space must be a bool, got {by_label_space!r}")
    classifiers = _check_names(classifiers, "classifiers")
    unknown = sorted(set(classifiers) - set(rows["classifier"]))
    if unknown:
        raise ValueError(f"classifiers {unknown} have no rows")
    if by_label_space:
        groups = label_spaces(rows)
        return pd.concat([coverage_by_size(rows[rows["dataset"].map(groups) == group], classifiers)
                          .assign(label_space=group) for group in LABEL_SPACES if (groups == group).any()],
                         ignore_index=True)
    pooled = rows[rows["classifier"].isin(classifiers)].groupby(["classifier", "dataset"]).sum(numeric_only=True)
    out = []
    for size in SIZE_BINS:
        count, covered = pooled[f"n_size{size}"], pooled[f"covered_size{size}"]
        enough = count >= MIN_BIN_COUNT
        rate = (covered / count)[enough].groupby(level="classifier").mean()
        share = (count / pooled["n"]).groupby(level="classifier").mean()
        used = enough.groupby(level="classifier").sum()
        for name in classifiers:
            out.append({"classifier": name, "size": f"{size}+" if size == SIZE_BINS[-1] else str(size),
                        "coverage": float(rate.get(name, np.nan)), "share": float(share[name]),
                        "datasets": int(used[name])})
    return pd.DataFrame(out)


def plot_coverage_by_size(table: pd.DataFrame, nominal=(), ax=None):
    """Coverage of the sets of each size (markers) per classifier, from :func:`coverage_by_size`;
    ``nominal`` confidence levels drawn as horizontal lines.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> from credalbook.lenses import plot_coverage_by_size
    >>> table = pd.DataFrame({"classifier": ["NCC", "NCC", "LAC", "LAC"], "size": ["1", "2", "1", "2"],
    ...                       "coverage": [0.92, 0.97, 0.85, 0.95]})
    >>> ax = plot_coverage_by_size(table, nominal=[0.9])
    >>> [label.get_text() for label in ax.get_xticklabels()]
    ['NCC', 'LAC']
    """
    import matplotlib.pyplot as plt

    from credalbook.style import COLUMN_WIDTH

    _check_frame(table, "table", ("classifier", "size", "coverage"))
    classifiers = list(dict.fromkeys(table["classifier"]))
    if ax is None:
        _, ax = plt.subplots(figsize=(COLUMN_WIDTH, 3.8))
    markers = {"1": "o", "2": "s", f"{SIZE_BINS[-1]}+": "^"}
    for k, (size, part) in enumerate(table.groupby("size", sort=False)):
        part = part.set_index("classifier").reindex(classifiers)
        x = np.arange(len(classifiers)) + (k - 1) * 0.22
        ax.plot(x, part["coverage"], markers.get(size, "o"), label=f"sets of size {size}", ms=6)
    for level in nominal:
        ax.axhline(level, color="0.7", lw=0.8, ls="--")
    ax.set_xticks(range(len(classifiers)), classifiers, rotation=45, ha="right")
    ax.set_ylabel("coverage (mean over datasets)")
    ax.legend(fontsize=9, frameon=False, ncol=3, loc="lower center", bbox_to_anchor=(0.5, 1.0))
    return ax


def plot_lens_ranks(ranks: pd.DataFrame, ax=None):
    """Heat map of mean ranks, classifiers (rows) × lenses (columns), from :func:`lens_ranks`; each
    lens's best classifier is framed (every one of them when several tie).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> from credalbook.lenses import plot_lens_ranks
    >>> ranks = pd.DataFrame({"A": [1.0, 2.0], "B": [2.0, 1.0]}, index=["u65", "set_size"])  # lens_ranks' layout
    >>> ax = plot_lens_ranks(ranks)
    >>> [label.get_text() for label in ax.get_yticklabels()], len(ax.patches)  # one frame per lens's best
    (['A', 'B'], 2)
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    from credalbook.style import COLUMN_WIDTH

    _check_frame(ranks, "ranks")
    _check_lenses(ranks.index, "ranks' index (lenses)")
    matrix = ranks.T
    if ax is None:
        _, ax = plt.subplots(figsize=(COLUMN_WIDTH, 0.32 * len(matrix) + 1.8))
    image = ax.imshow(matrix.to_numpy(), cmap="viridis_r", aspect="auto")
    ax.set_xticks(range(matrix.shape[1]), [LENSES[lens].label for lens in matrix.columns], rotation=45, ha="right")
    ax.set_yticks(range(matrix.shape[0]), matrix.index)
    for column, lens in enumerate(matrix.columns):
        values = matrix[lens].to_numpy()
        for best in np.flatnonzero(np.isclose(values, values.min(), rtol=0, atol=1e-9)):  # every tied best
            ax.add_patch(Rectangle((column - 0.5, best - 0.5), 1, 1, fill=False, edgecolor="red", lw=2))
    ax.figure.colorbar(image, ax=ax, label="mean rank (1 = best)", shrink=0.8)
    return ax


def plot_rank_correlations(agreement: pd.DataFrame, ax=None):
    """Heat map of Kendall's τ between lenses (the output of :func:`rank_agreement`), τ printed in each cell.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> from credalbook.lenses import plot_rank_correlations
    >>> agreement = pd.DataFrame({"lens_a": ["u65"], "lens_b": ["set_size"], "tau": [-0.6]})  # as rank_agreement returns
    >>> ax = plot_rank_correlations(agreement)
    >>> sorted(text.get_text() for text in ax.texts)
    ['-0.60', '-0.60', '1.00', '1.00']
    """
    import matplotlib.pyplot as plt

    from credalbook.style import COLUMN_WIDTH

    _check_frame(agreement, "agreement", ("lens_a", "lens_b", "tau"))
    lenses = list(dict.fromkeys(list(agreement["lens_a"]) + list(agreement["lens_b"])))
    _check_lenses(lenses, "agreement's lens_a and lens_b")
    matrix = np.eye(len(lenses))
    position = {lens: k for k, lens in enumerate(lenses)}
    for row in agreement.itertuples():
        matrix[position[row.lens_a], position[row.lens_b]] = matrix[position[row.lens_b], position[row.lens_a]] = row.tau
    if ax is None:
        _, ax = plt.subplots(figsize=(COLUMN_WIDTH, COLUMN_WIDTH * 0.8))
    image = ax.imshow(matrix, cmap="RdBu", vmin=-1, vmax=1)
    labels = [LENSES[lens].label for lens in lenses]
    ax.set_xticks(range(len(lenses)), labels, rotation=45, ha="right")
    ax.set_yticks(range(len(lenses)), labels)
    for (r, c), value in np.ndenumerate(matrix):
        ax.text(c, r, f"{value:.2f}", ha="center", va="center", fontsize=8,
                color="white" if abs(value) > 0.6 else "black")
    ax.figure.colorbar(image, ax=ax, label="Kendall τ between mean-rank orders", shrink=0.8)
    return ax


def _spread(values: np.ndarray, gap: float) -> np.ndarray:
    """Label positions near ``values``, in the same order, at least ``gap`` apart (pushed apart about their mean)."""
    order = np.argsort(values, kind="stable")
    placed = values[order].astype(float)
    for k in range(1, len(placed)):
        placed[k] = max(placed[k], placed[k - 1] + gap)
    placed += (values[order] - placed).mean()  # recentre the pushed block on the values
    out = np.empty_like(placed)
    out[order] = placed
    return out


def plot_order_flips(scores: pd.DataFrame, lens_a: str, lens_b: str, classifiers, ax=None):
    """Slope chart: each classifier's mean rank under ``lens_a`` (left) and ``lens_b`` (right);
    crossing lines are order flips (:func:`order_flips`).

    Examples
    --------
    >>> import pandas as pd
    >>> rows = [{"dataset": f"d{d}", "classifier": c, "lens": lens, "value": v + 0.01 * d * (lens == "u80")}
    ...         for d in range(6) for c, v in (("A", 0.9), ("B", 0.8), ("C", 0.7)) for lens in ("u65", "u80")]
    >>> scores = pd.DataFrame(rows)
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from credalbook.lenses import plot_order_flips
    >>> ax = plot_order_flips(scores, "u65", "u80", ["A", "B", "C"])
    >>> [label.get_text() for label in ax.get_xticklabels()]
    ['u65', 'u80']
    """
    import matplotlib.pyplot as plt

    from credalbook.style import COLUMN_WIDTH

    if lens_a == lens_b:
        raise ValueError(f"lens_a and lens_b must differ, both are {lens_a!r}")
    ranks = lens_ranks(scores, [lens_a, lens_b], classifiers)
    if ax is None:
        _, ax = plt.subplots(figsize=(COLUMN_WIDTH * 0.75, COLUMN_WIDTH * 0.8))
    gap = 0.045 * (len(classifiers) + 1)  # labels at least this far apart (in mean ranks), so that none overlap
    for x, lens, side in ((0, lens_a, "right"), (1, lens_b, "left")):
        values = ranks.loc[lens]
        placed = _spread(values.to_numpy(), gap)
        for name, value, label_at in zip(values.index, values, placed):
            ax.annotate(name, (x, value), xytext=(x - 0.08 if x == 0 else x + 0.08, label_at), ha=side, va="center",
                        fontsize=9, arrowprops={"arrowstyle": "-", "color": "0.7", "lw": 0.5})
    for name in ranks.columns:
        ax.plot([0, 1], [ranks.loc[lens_a, name], ranks.loc[lens_b, name]], "o-", color="0.35", lw=1)
    ax.set_xticks([0, 1], [LENSES[lens_a].label, LENSES[lens_b].label])
    ax.set_xlim(-0.75, 1.75)
    ax.invert_yaxis()
    ax.set_ylabel("mean rank (1 = best)")
    return ax
