"""The naive credal classifier (NCC, Zaffalon 2001; NCC2, Corani & Zaffalon 2008) with the IDM.

Class c1 *credal-dominates* c2 for an instance x when the lower expectation of
P(c1, x) − P(c2, x)·h over the IDM credal set (hyperparameter s) is positive, which for the
naive model reduces to inf_{t ∈ (0, s)} h(t) > 1 with (Zaffalon, Corani & Mauá 2012 §9.1;
Corani & Zaffalon 2008, JMLR 9, eq. for NCC2 with features missing at random)

    h(t) = (α + s − t)/(β + t) · Π_i [(ñ_i(c2) + t)/(ñ_i(c1) + s − t)] · n(x_i, c1)/(n(x_i, c2) + t),

α = n(c1), β = n(c2), ñ_i(c) the count of class c among the training instances where feature
i is observed, the product over the features observed in x (a missing test value drops its
feature). With complete training data ñ_i(c1) = α, ñ_i(c2) = β and h reduces to
[(β+t)/(α+s−t)]^(k−1) Π_i n(x_i, c1)/(n(x_i, c2)+t). ln h is convex in t, so its infimum is at
an end of (0, s) or at the root of its derivative. The prediction is the set of classes no
other class dominates.

**Features missing not at random** (NCC2's conservative inference rule, CIR: Corani & Zaffalon
2008, JMLR 9, the dominance test of NCC2; the JNCC2 1.11 manual, Corani & Zaffalon, IDSIA-09-07,
§2.2.1 for CIR's test, eq. (1), and §3.4 for the declaration file ``NonMar.txt``). A feature j
declared non-MAR (in training and in testing) enters h, whether the instance shows its value or
not, through the worst case of its missing training values — none of c1's on x_j, all of c2's
on x_j:

    h(t) = [(β + t)/(α + s − t)]^(k−1) · Π_{j non-MAR} n(x_j, c1)/(n(x_j, c2) + m_j(c2) + t)
           · Π_{i MAR, observed} [(ñ_i(c2) + t)/(ñ_i(c1) + s − t)] · n(x_i, c1)/(n(x_i, c2) + t),

k the number of non-MAR features, m_j(c) = n(c) − ñ_j(c) the training instances of class c whose
feature j is missing (``NaiveCredalClassifier2.checkCredalDominanceCIR`` and ``computeHxCIR``:
alphaArr = n(x_j, c1), betaArr = n(x_j, c2) + getMissing(c2)). That is a MAR factor with ñ_j(c)
replaced by n(c) and, for c2 only, n(x_j, c2) by n(x_j, c2) + m_j(c2). A non-MAR feature missing
in the instance is not dropped: c1 dominates c2 only if inf_t h(t) > 1 for *every* completion
x_j ∈ {0, …, m_j − 1} of those values (the outer minimum of CIR). As h factorises, the worst
completion at each t takes, feature by feature, the value minimising n(v, c1)/(n(v, c2) + m_j(c2) + t);
a value with n(v, c1) = 0 makes h ≡ 0 (no dominance). Between consecutive crossing points
t = (n(w, c1) B_v − n(v, c1) B_w)/(n(v, c1) − n(w, c1)) ∈ (0, s) of these ratios (B_v = n(v, c2) +
m_j(c2)) the minimising tuple is constant, so the rule is decided exactly by the ordinary test
over (0, s) on one completion per piece: every completion's function is at least the lower
envelope, and the pieces' completions cover it.

:func:`dominance_matrix` (in the naive model's array core, :mod:`credalbook.classifiers.naive`)
decides the test for all instances and ordered class pairs at once: the cases decided at the
ends are settled in one vectorised step, the others by a bracketing bisection on d ln h/dt that
stops, per pair, as soon as a value of ln h is ≤ 0 (no dominance) or the tangent lower bound of
the convex function is > 0 (dominance). :func:`non_mar_dominance_matrix` does the same with
non-MAR features, the completions of each (instance, pair) flattened into one batch.
"""
from __future__ import annotations

import numbers

import numpy as np

from credalbook._validation import check_scalar
from credalbook.classifiers.base import CredalClassifierMixin, choose_in_set
from credalbook.classifiers.naive import (
    _CHUNK_ELEMENTS,
    NaiveCounts,
    _checked_codes,
    distinct_rows,
    dominance_from_counts,
    dominance_matrix,
    naive_bayes_log_joint,
    naive_counts,
    undominated_and_scores,
)
from credalbook.decisions import undominated
from credalbook.discrete import MISSING

__all__ = ["dominance_from_counts", "dominance_matrix", "non_mar_dominance_matrix", "NON_MAR_PHASES",
           "NaiveCredalClassifier"]


def _phase_masks(non_mar, used: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(training, testing)`` (d,) bool masks from a (d,) mask (both phases) or a (2, d) pair, used features only."""
    mask = np.asarray(non_mar)
    d = used.shape[0]
    if mask.dtype != bool or mask.shape not in ((d,), (2, d)):
        raise ValueError(f"non_mar must be a boolean mask of shape ({d},) (one entry per feature, non-MAR in training "
                         f"and testing) or a pair of them (training, testing) of shape (2, {d}), got {mask.dtype} of "
                         f"shape {mask.shape}")
    training, testing = (mask, mask) if mask.ndim == 1 else (mask[0], mask[1])
    return training & used, testing & used


def non_mar_dominance_matrix(counts: NaiveCounts, Xc: np.ndarray, non_mar, s: float = 1.0,
                             log_ratio: float = 0.0) -> np.ndarray:
    """(n, K, K) bool: ``D[k, a, b]`` iff class a credal-dominates class b for instance k, features ``non_mar`` non-MAR.

    ``non_mar`` (d,) bool: the features missing not at random in training and testing (NCC2's
    conservative inference rule, Corani & Zaffalon 2008; JNCC2's ``NonMar.txt``; the formula in
    :mod:`credalbook.classifiers.ncc`); or a pair ``(training, testing)`` of (d,) bool masks, shape
    (2, d): a feature non-MAR in training only has its missing training values put where they hurt
    the dominating class most, and a missing test value is dropped (MAR in testing); a feature
    non-MAR in testing only has its missing test values completed by every value, its training
    counts those of a MAR feature (JNCC2's ``training X`` / ``testing X`` lines). Features with
    fewer than two values are dropped, as in :func:`~credalbook.classifiers.naive.dominance_matrix`;
    with no non-MAR feature left this is :func:`~credalbook.classifiers.naive.dominance_matrix`
    itself. ``log_ratio`` as there.
    """
    Xc = _checked_codes(counts, Xc)
    training, testing = _phase_masks(non_mar, counts.used)
    if not (training.any() or testing.any()):
        return dominance_matrix(counts, Xc, s, log_ratio)
    s = float(s)
    K = counts.class_counts.size
    n, d = Xc.shape
    # non-MAR in training: ñ_j(c) becomes n(c) for both roles; the dominated class's count gains m_j(c)
    observed = np.where(training[:, None], counts.class_counts[None, :], counts.observed)
    extra = np.where(training[:, None], counts.class_counts[None, :] - counts.observed, 0.0)
    out = np.zeros((n, K, K), dtype=bool)
    completed = ((Xc == MISSING) & testing[None, :]).any(axis=1)
    rows = np.flatnonzero(~completed)
    chunk = max(1, _CHUNK_ELEMENTS // (K * max(K, d)))
    for start in range(0, rows.size, chunk):
        part = rows[start:start + chunk]
        gathered, mask = counts.gather(Xc[part])
        out[part] = dominance_from_counts(counts.class_counts, gathered, observed, mask, s, log_ratio,
                                          dominated=gathered + extra[None, :, :])
    rows = np.flatnonzero(completed)
    if rows.size:
        out[rows] = _completed_dominance(counts, Xc[rows], testing, observed, extra, s, log_ratio)
    return out


def _completed_dominance(counts: NaiveCounts, Xc: np.ndarray, non_mar: np.ndarray, observed: np.ndarray,
                         extra: np.ndarray, s: float, log_ratio: float) -> np.ndarray:
    """(n, K, K) dominance of instances with missing non-MAR values: dominance for every worst completion.

    ``non_mar`` (d,) bool: the features non-MAR in testing, whose missing values are completed. For
    each instance and ordered pair (c1, c2): no dominance when a value v of a missing non-MAR
    feature has n(v, c1) = 0; otherwise (0, s) is cut at the crossing points of the ratios
    n(v, c1)/(n(v, c2) + m_j(c2) + t) of each missing feature (m_j(c2) = 0, ``extra``, for a
    feature MAR in training: its other factor does not depend on v), the minimising value of each
    feature is read at the middle of each piece, and every distinct completion so found is tested
    as a two-class problem (c1, c2); the pair dominates iff all of them do.
    """
    n, d = Xc.shape
    table, class_counts, n_values, used = counts.table, counts.class_counts, counts.n_values, counts.used
    K = class_counts.size
    first, second = np.nonzero(~np.eye(K, dtype=bool))                  # the K(K-1) ordered pairs
    n_pairs = first.size
    missing = (Xc == MISSING) & non_mar[None, :]                         # (n, d) the cells to complete
    q = int(missing.sum(axis=1).max())
    slots = np.argsort(~missing, axis=1, kind="stable")[:, :q]           # (n, q) the missing features, in order
    filled = np.take_along_axis(missing, slots, axis=1)                  # (n, q) real slots
    M = int(n_values[non_mar].max())
    values = np.arange(M)
    out = np.zeros((n, K, K), dtype=bool)
    per_row = n_pairs * max(q * M * M, 4 * d)
    chunk = max(1, _CHUNK_ELEMENTS // per_row)
    for start in range(0, n, chunk):
        rows = np.arange(start, min(start + chunk, n))
        row = np.repeat(rows, n_pairs)                                   # (P,) one problem per (row, pair)
        c1, c2 = np.tile(first, rows.size), np.tile(second, rows.size)
        feature, real = slots[row], filled[row]                         # (P, q)
        valid = real[:, :, None] & (values[None, None, :] < n_values[feature][:, :, None])     # (P, q, M)
        lower = np.where(valid, table[feature[:, :, None], c1[:, None, None], values], 1.0)
        # a completion with n(v, c1) = 0 gives h ≡ 0: no dominance, nothing more to decide
        live = np.flatnonzero(~np.any(valid & (lower == 0), axis=(1, 2)) & (class_counts[c1] > 0))
        if live.size == 0:
            continue
        row, c1, c2, feature, real, valid, lower = (a[live] for a in (row, c1, c2, feature, real, valid, lower))
        upper = np.where(valid, table[feature[:, :, None], c2[:, None, None], values]
                         + extra[feature, c2[:, None]][:, :, None], 1.0)
        # crossing points of n(v,c1)/(B_v+t) and n(w,c1)/(B_w+t) inside (0, s), v < w
        lv, lw = lower[:, :, :, None], lower[:, :, None, :]
        uv, uw = upper[:, :, :, None], upper[:, :, None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            crossing = (lw * uv - lv * uw) / (lv - lw)
        pair = valid[:, :, :, None] & valid[:, :, None, :] & np.triu(np.ones((M, M), dtype=bool), 1) & (lv != lw)
        inside = (pair & (crossing > 0) & (crossing < s)).reshape(len(row), -1)
        width = int(inside.sum(axis=1).max())
        cuts = np.sort(np.where(inside, crossing.reshape(len(row), -1), s), axis=1)[:, :width]
        edges = np.concatenate([np.zeros((len(row), 1)), cuts, np.full((len(row), 1), s)], axis=1)
        middle = 0.5 * (edges[:, :-1] + edges[:, 1:])                   # (P, pieces)
        choice = np.empty(middle.shape + (q,), dtype=np.int64)           # (P, pieces, q): each feature's minimiser
        log_lower = np.where(valid, np.log(lower), np.inf)
        for k in range(middle.shape[1]):
            choice[:, k] = np.argmin(log_lower - np.log(upper + middle[:, k, None, None]), axis=2)
        keep = np.ones(choice.shape[:2], dtype=bool)
        keep[:, 1:] = np.any(choice[:, 1:] != choice[:, :-1], axis=2)   # a new completion only
        problem, piece = np.nonzero(keep)
        completion = Xc[row[problem]]                                     # (m, d)
        where = real[problem]
        index = np.nonzero(where)
        completion[index[0], feature[problem][where]] = choice[problem, piece][where]
        a, b = c1[problem], c2[problem]
        mask = (completion != MISSING) & used[None, :]
        safe = np.where(mask, completion, 0)
        position = np.arange(d)[None, :]
        gathered = np.stack([table[position, a[:, None], safe], table[position, b[:, None], safe]], axis=2)
        dominated = gathered + np.stack([extra[:, a].T, extra[:, b].T], axis=2)
        pair_observed = np.stack([observed[:, a].T, observed[:, b].T], axis=2)
        pair_counts = np.stack([class_counts[a], class_counts[b]], axis=1)
        decided = dominance_from_counts(pair_counts, gathered, pair_observed, mask, s, log_ratio,
                                        dominated=dominated)[:, 0, 1]
        dominates = np.ones(row.size, dtype=bool)
        np.logical_and.at(dominates, problem, decided)
        out[row, c1, c2] = dominates
    return out


def _non_mar_sets_and_scores(counts: NaiveCounts, Xc: np.ndarray, non_mar: np.ndarray, s: float,
                             prior_count: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """As :func:`~credalbook.classifiers.naive.undominated_and_scores`, with features ``non_mar`` non-MAR."""
    rows, inverse = distinct_rows(Xc, counts.n_values)
    sets = undominated(non_mar_dominance_matrix(counts, rows, non_mar, s))
    return sets[inverse], naive_bayes_log_joint(counts, rows, prior_count)[inverse]


#: the phases a feature can be declared missing not at random in (``non_mar_features`` as a dict)
NON_MAR_PHASES = ("both", "training", "testing")


def _non_mar_indices(items: list, n_features: int, feature_names) -> list[int]:
    """Feature indices of ``items`` (all names of ``feature_names`` or all integer indices 0..d-1), checked."""
    if all(isinstance(v, (str, np.str_)) for v in items):
        if feature_names is None:
            raise ValueError("non_mar_features names features, but X has no feature names: fit on a DataFrame "
                             "or give the features' indices")
        position = {str(name): j for j, name in enumerate(feature_names)}
        unknown = [v for v in items if str(v) not in position]
        if unknown:
            shown = ", ".join(repr(str(v)) for v in list(feature_names)[:10])
            raise ValueError(f"non_mar_features has {unknown[0]!r}, which is not a feature of X "
                             f"(features: {shown}{', ...' if len(feature_names) > 10 else ''})")
        indices = [position[str(v)] for v in items]
    elif all(isinstance(v, (numbers.Integral, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in items):
        indices = [int(v) for v in items]
        wrong = [j for j in indices if not 0 <= j < n_features]
        if wrong:
            raise ValueError(f"non_mar_features has index {wrong[0]}, but X has {n_features} features "
                             f"(indices 0..{n_features - 1})")
    else:
        raise ValueError(f"non_mar_features must hold only feature names or only integer indices, got {items!r}")
    if len(set(indices)) < len(indices):
        raise ValueError(f"non_mar_features names a feature more than once: {items!r}")
    return indices


def _non_mar_mask(value, n_features: int, feature_names) -> np.ndarray:
    """(2, d) bool, the features non-MAR in training (row 0) and in testing (row 1), from ``non_mar_features``:
    None, a list of feature names or of indices 0..d-1 (both phases), or a dict {feature: phase}."""
    mask = np.zeros((2, n_features), dtype=bool)
    if value is None:
        return mask
    if isinstance(value, (str, bytes, numbers.Number, np.generic)):
        raise ValueError(f"non_mar_features must be a list of feature names or indices, a dict {{feature: phase}} "
                         f"(or None), got {value!r}; a single feature is written [{value!r}]")
    if isinstance(value, dict):
        phases = list(value.values())
        wrong = [p for p in phases if not isinstance(p, str) or p not in NON_MAR_PHASES]
        if wrong:
            raise ValueError(f"non_mar_features maps features to a phase among {NON_MAR_PHASES}, got {wrong[0]!r}")
        items = list(value)
    else:
        try:
            items = list(value)
        except TypeError:
            raise ValueError(f"non_mar_features must be a list of feature names or indices, a dict {{feature: "
                             f"phase}} (or None), got {type(value).__name__}") from None
        phases = ["both"] * len(items)
    if not items:
        return mask
    for j, phase in zip(_non_mar_indices(items, n_features, feature_names), phases):
        mask[0, j] = phase in ("both", "training")
        mask[1, j] = phase in ("both", "testing")
    return mask


class NaiveCredalClassifier(CredalClassifierMixin):
    """Naive credal classifier with the IDM (hyperparameter ``s``, default 1) on discrete features.

    ``predict_set`` (n, K) bool: the classes that no other class credal-dominates (NCC2 with
    all features missing at random, Corani & Zaffalon 2008; Zaffalon, Corani & Mauá 2012 §9.1).
    ``predict``: for a determinate output its single class; otherwise the class of the set with
    the largest naive Bayes (Laplace) posterior — the NBC-consistent choice.
    ``dominance(X)`` returns the full (n, K, K) dominance relation.

    Parameters
    ----------
    s
        The IDM's hyperparameter (the prior's equivalent sample size), > 0.
    non_mar_features
        None (the default), a list or a dict: features whose values are missing *not* at random, treated by NCC2's conservative
        inference rule as JNCC2 1.11 treats the features of its ``NonMar.txt`` (Corani & Zaffalon
        2008, JMLR 9; JNCC2 manual, IDSIA-09-07, §2.2.1 and §3.4). A list (names of a DataFrame's
        columns, or indices) declares them non-MAR in training and in testing; a dict maps each
        feature to the phase it is non-MAR in, ``"both"``, ``"training"`` or ``"testing"``
        (JNCC2's ``training X`` / ``testing X`` lines; the other phase is MAR). Non-MAR in
        training: the feature's missing training values are put, per pair of classes, where they
        hurt the dominating class most. Non-MAR in testing: a missing test value is replaced by
        every possible value (instead of dropping the feature). The formula is in the module
        ``credalbook.classifiers.ncc``. The sets can only grow; without missing values nothing
        changes. An unseen value of a non-MAR feature is a missing one. The naive Bayes scores of
        ``predict`` ignore the option (NBC assumes MAR, as in JNCC2).

    Attributes
    ----------
    non_mar_
        (n_features,) bool: the features declared non-MAR in some phase.
    non_mar_training_
        (n_features,) bool: the features declared non-MAR in training.
    non_mar_testing_
        (n_features,) bool: the features declared non-MAR in testing.

    Examples
    --------
    A missing test value of a feature non-MAR in testing is completed by every value (the second
    instance's set grows); non-MAR in training only, it is dropped as a MAR one is:

    >>> import pandas as pd
    >>> X = pd.DataFrame({"A": pd.Categorical([0] * 7 + [1] + [0, None, None, None], categories=[0, 1])})
    >>> y = ["p"] * 8 + ["q"] * 4
    >>> x = pd.DataFrame({"A": pd.Categorical([0, None], categories=[0, 1])})
    >>> NaiveCredalClassifier().fit(X, y).predict_set(x).tolist()
    [[True, False], [True, False]]
    >>> NaiveCredalClassifier(non_mar_features={"A": "testing"}).fit(X, y).predict_set(x).tolist()
    [[True, False], [True, True]]
    >>> NaiveCredalClassifier(non_mar_features={"A": "training"}).fit(X, y).predict_set(x).tolist()
    [[True, False], [True, False]]
    """

    def __init__(self, s: float = 1.0, non_mar_features=None):
        self.s = s
        self.non_mar_features = non_mar_features

    def fit(self, X, y):
        """Count the training data (n(c), n(a_i, c) and the per-feature counts of observed values).

        Parameters
        ----------
        X
            DataFrame or array (n_samples, n_features): discrete features: Categorical columns or integer codes (NaN or -1 = missing).
        y
            Class labels (n_samples,).

        Returns
        -------
        NaiveCredalClassifier
            The fitted classifier.
        """
        check_scalar(self.s, "s", low=0.0, low_inclusive=False)
        Xc, yc = self._fit_discrete(X, y)
        self._non_mar_phases = _non_mar_mask(self.non_mar_features, Xc.shape[1],
                                             getattr(self, "feature_names_in_", None))
        self.non_mar_training_, self.non_mar_testing_ = self._non_mar_phases
        self.non_mar_ = self.non_mar_training_ | self.non_mar_testing_
        self.counts_ = naive_counts(Xc, yc, self.n_classes_, self.n_values_)
        return self

    def dominance(self, X) -> np.ndarray:
        """(n, K, K) bool: ``D[k, a, b]`` iff class a credal-dominates class b for instance k."""
        Xc = self._code_test(X)
        if self.non_mar_.any():
            return non_mar_dominance_matrix(self.counts_, Xc, self._non_mar_phases, self.s)
        return dominance_matrix(self.counts_, Xc, self.s)

    def _sets_and_scores(self, Xc):
        if self.non_mar_.any():
            return _non_mar_sets_and_scores(self.counts_, Xc, self._non_mar_phases, self.s)
        return undominated_and_scores(self.counts_, Xc, self.s)

    def _predict_set_codes(self, Xc):
        return self._sets_and_scores(Xc)[0]

    def _scores_codes(self, Xc):
        return naive_bayes_log_joint(self.counts_, Xc, 1.0)

    def predict_with_set(self, X) -> tuple[np.ndarray, np.ndarray]:
        """``(predict_set(X), predict_index(X))`` from one pass over the distinct rows (sets and scores share it)."""
        sets, scores = self._sets_and_scores(self._code_test(X))
        return sets, choose_in_set(sets, scores)
