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
from credalbook.classifiers.naive import _checked_codes, distinct_rows
from credalbook.classifiers.naive_bayes import NaiveCounts, naive_counts
from credalbook.costs import _classifier_cost as classifier_cost
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
    codes = _checked_codes(counts, codes, "codes")
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
    if codes.size and (codes.min() < MISSING or codes.max() >= table.shape[3]):
        raise ValueError(f"codes must be -1 (missing) or values 0..{table.shape[3] - 1} of table, got codes from "
                         f"{codes.min()} to {codes.max()}")
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

    Examples
    --------
    ``predict_intervals`` gives the posterior bounds; with costs that make missing class
    ``"b"`` ten times as costly, the ambiguous instance is predicted ``"b"``:

    >>> import numpy as np
    >>> X = np.array([[0, 0]] * 5 + [[1, 1]] * 5 + [[0, 1], [1, 0], [0, 1], [1, 0]])
    >>> y = ["a"] * 5 + ["b"] * 5 + ["a", "a", "b", "b"]
    >>> x = [[0, 0], [1, 1], [0, 1]]     # in the third instance the two features disagree
    >>> model = CostSensitiveNCC().fit(X, y)
    >>> lower, upper = model.predict_intervals(x)
    >>> lower.round(2).tolist(), upper.round(2).tolist()
    ([[0.89, 0.02], [0.02, 0.89], [0.27, 0.27]], [[0.98, 0.11], [0.11, 0.98], [0.73, 0.73]])
    >>> model.predict_set(x).tolist()
    [[True, False], [False, True], [True, True]]
    >>> CostSensitiveNCC(cost=[[0, 10], [1, 0]]).fit(X, y).predict(x).tolist()
    ['a', 'b', 'b']
    """

    def __init__(self, s: float = 1.0, cost=None):
        self.s = s
        self.cost = cost

    def fit(self, X, y):
        """Count the training data and check ``cost`` against the classes of ``y``.

        Parameters
        ----------
        X
            (n_samples, n_features) discrete features: integer codes 0..m-1 (NaN or -1: missing) or a
            DataFrame of pandas Categoricals (:mod:`credalbook.discrete`).
        y
            (n_samples,) class labels; a pandas Categorical declares classes that ``y`` lacks.

        Returns
        -------
        CostSensitiveNCC
            The fitted classifier.
        """
        check_scalar(self.s, "s", low=0, low_inclusive=False)
        codes, labels = self._fit_discrete(X, y)
        self._cost()   # refuses a cost matrix for another number of classes now, not at prediction
        self.counts_ = naive_counts(codes, labels, self.n_classes_, self.n_values_)
        return self

    def _cost(self) -> np.ndarray:
        return classifier_cost(self.cost, self.n_classes_)

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
