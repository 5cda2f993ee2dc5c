"""The naive credal classifier with IDM posterior bounds and maximality under any costs.

Yang, Destercke & Masson (2017), Section VII-B: conditional IDM intervals (Eq. 19), the class
credal set with K extreme points (Eq. 20), the posterior bounds of Eqs. (23)-(24) obtained at
those points, and the decision by maximality (:func:`credalbook.decisions.maximality_intervals`)
with any determinate cost matrix.
"""
from __future__ import annotations

import numpy as np

from credalbook._validation import check_array, check_scalar
from credalbook.classifiers.base import CredalClassifierMixin
from credalbook.classifiers.naive import distinct_rows
from credalbook.classifiers.naive_bayes import NaiveCounts, naive_counts
from credalbook.costs import check_cost_matrix
from credalbook.discrete import MISSING
from credalbook.decisions import maximality_intervals

__all__ = ["CostSensitiveNCC", "idm_posterior_bounds", "stacked_idm_posterior_bounds"]


def idm_posterior_bounds(counts: NaiveCounts, codes, s: float) -> tuple[np.ndarray, np.ndarray]:
    """(lower, upper) posterior bounds (n, K) of a naive credal classifier, Eqs. (19)-(24).

    Conditional IDM intervals [occ_{i,y}/(occ_y + s), (occ_{i,y} + s)/(occ_y + s)] (Eq. 19), the
    class credal set with extreme points p_k(y) = (occ_y + s [y = k])/(N + s) (Eq. 20); Eq. (23)
    takes the lower conditionals of y and the upper ones of the other classes, Eq. (24) the
    reverse, and both optimise over the K extreme points. ``counts`` are the naive counts of
    :func:`credalbook.classifiers.naive_bayes.naive_counts` (occ_y per feature is the number of
    instances of class y where the feature is observed); a missing feature (-1) is dropped.
    """
    check_scalar(s, "s", low=0, low_inclusive=False)
    if not isinstance(counts, NaiveCounts):
        raise ValueError(f"counts must be NaiveCounts (credalbook.classifiers.naive_bayes.naive_counts), got {type(counts).__name__}")
    lower, upper = stacked_idm_posterior_bounds(counts.class_counts[None], counts.table[None], counts.observed[None],
                                                counts.used, codes, s)
    return np.ascontiguousarray(lower[:, 0]), np.ascontiguousarray(upper[:, 0])


def stacked_idm_posterior_bounds(class_counts, table, observed, used, codes, s: float) -> tuple[np.ndarray, np.ndarray]:
    """(lower, upper) bounds (n, S, K) of S naive credal classifiers on the same features at once, Eqs. (19)-(24).

    ``class_counts`` (S, K), ``table`` (S, d, K, M), ``observed`` (S, d, K) and ``used`` (d,) are those of S
    :class:`~credalbook.classifiers.naive_bayes.NaiveCounts` (e.g. the binary classifiers of the
    inner nodes of nested dichotomies); ``codes`` (n, d) coded instances, -1 missing. Model ``j``
    gives exactly :func:`idm_posterior_bounds` of its counts (the same operations, batched).
    """
    class_counts = check_array(class_counts, "class_counts", ndim=2)
    table = check_array(table, "table", ndim=4)
    observed = check_array(observed, "observed", ndim=3)
    codes = check_array(codes, "codes", ndim=2, dtype=np.int64, allow_empty=True)
    used = np.asarray(used, dtype=bool)
    n_models, k = class_counts.shape
    d = codes.shape[1]
    if table.shape[:3] != (n_models, d, k):
        raise ValueError(f"table must have shape (S, d, K, M) = ({n_models}, {d}, {k}, M), got {table.shape}")
    if observed.shape != (n_models, d, k):
        raise ValueError(f"observed must have shape (S, d, K) = ({n_models}, {d}, {k}), got {observed.shape}")
    if used.shape != (d,):
        raise ValueError(f"used must have shape (d,) = ({d},), got {used.shape}")
    check_scalar(s, "s", low=0, low_inclusive=False)
    usable = (codes != MISSING) & used[None, :]
    safe = np.where(usable, codes, 0).astype(np.intp)
    occ = table.transpose(1, 3, 0, 2)[np.arange(d)[None, :], safe]          # (n, d, S, K)
    denominator = observed.transpose(1, 0, 2)[None] + s                     # occ_y + s per feature: (1, d, S, K)
    with np.errstate(divide="ignore"):
        log_low = np.where(usable[:, :, None, None], np.log(occ / denominator), 0.0).sum(axis=1)
    log_up = np.where(usable[:, :, None, None], np.log((occ + s) / denominator), 0.0).sum(axis=1)
    low_like, up_like = np.exp(log_low), np.exp(log_up)                   # Π p̲(x_i|y), Π p̄(x_i|y): (n, S, K)
    vertices = ((class_counts[:, None, :] + s * np.eye(k)[None])
                / (class_counts.sum(axis=1)[:, None, None] + s))            # (S, K vertices, K classes)
    # numerators and "others" terms at every vertex: shape (n, S, vertex, class)
    own_low = vertices[None] * low_like[:, :, None, :]
    own_up = vertices[None] * up_like[:, :, None, :]
    others_up = (vertices[None] * up_like[:, :, None, :]).sum(axis=3, keepdims=True) - own_up
    others_low = (vertices[None] * low_like[:, :, None, :]).sum(axis=3, keepdims=True) - own_low
    with np.errstate(invalid="ignore", divide="ignore"):
        low_ratio = own_low / (own_low + others_up)
        up_ratio = own_up / (own_up + others_low)
    low_ratio = np.where(own_low + others_up > 0, low_ratio, 0.0)
    up_ratio = np.where(own_up + others_low > 0, up_ratio, 0.0)
    return low_ratio.min(axis=2), up_ratio.max(axis=2)


class CostSensitiveNCC(CredalClassifierMixin):
    """Naive credal classifier with IDM posterior bounds and maximality under any costs (Section VII-B).

    ``s`` is the IDM hyper-parameter; ``cost`` the (K, K) determinate costs (None: 0/1 costs).
    Features must be discrete (codes or Categoricals; see :mod:`credalbook.discrete`).
    """

    def __init__(self, s: float = 1.0, cost=None):
        self.s = s
        self.cost = cost

    def fit(self, X, y):
        check_scalar(self.s, "s", low=0, low_inclusive=False)
        codes, labels = self._fit_discrete(X, y)
        self.counts_ = naive_counts(codes, labels, self.n_classes_, self.n_values_)
        return self

    def _cost(self) -> np.ndarray:
        if self.cost is None:
            return 1.0 - np.eye(self.n_classes_)
        cost = check_cost_matrix(self.cost)
        if cost.shape[0] != self.n_classes_:
            raise ValueError(f"cost is for {cost.shape[0]} classes but the classifier has {self.n_classes_}")
        return cost

    def _intervals_codes(self, codes):
        return idm_posterior_bounds(self.counts_, codes, self.s)

    def predict_intervals(self, X) -> tuple[np.ndarray, np.ndarray]:
        """(lower, upper) posterior probability bounds (n, K), Eqs. (23)-(24)."""
        return self._intervals_codes(self._code_test(X))

    def _predict_set_codes(self, codes):
        # the sets depend on an instance through its codes only: decided once per distinct row
        distinct, inverse = distinct_rows(codes, self.n_values_)
        lower, upper = self._intervals_codes(distinct)
        return maximality_intervals(lower, upper, self._cost())[inverse]

    def _scores_codes(self, codes):
        lower, upper = self._intervals_codes(codes)
        return -(lower + upper) @ self._cost().T  # minus the mid-point expected cost
