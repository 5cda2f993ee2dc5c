"""Decisions with costs: optimal sets, lower expectations, maximality, and the IDM bounds of an NCC.

Yang, Destercke & Masson (2017):

- precise probabilities: the optimal (set-valued) prediction minimises the expected cost over
  the rows of an extended cost matrix (Eq. 2 with the output space 2^Ω \\ ∅, Section II-B);
- imprecise probabilities: lower expectations (Eq. 5) over a credal set given by probability
  intervals are Choquet integrals of its 2-monotone lower probability (de Campos et al. 1994);
  an LP over the credal set is the general oracle;
- maximality (Def. 2, Eqs. 6-7) compares the K classes pairwise, K(K-1) lower expectations of
  cost differences, and keeps the undominated ones: no extended matrix is needed;
- the naive credal classifier of Section VII-B: IDM intervals (Eqs. 19-20) and the posterior
  bounds of Eqs. (23)-(24), obtained at the K extreme points of the IDM class credal set;
  the decision is maximality with any cost matrix.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
from scipy.optimize import linprog

from credalbook._validation import check_array, check_probabilities, check_scalar
from credalbook.classifiers.base import CredalClassifierMixin
from credalbook.classifiers.naive_bayes import NaiveCounts, naive_counts
from credalbook.costs import check_cost_matrix, membership

TOL = 1e-12


# --------------------------------------------------------------------------------------------
# precise probabilities
# --------------------------------------------------------------------------------------------
def expected_costs(proba, matrix) -> np.ndarray:
    """(n, S) expected cost of every row (prediction) of a cost matrix (S, K) under ``proba`` (n, K) (Eq. 1)."""
    proba = check_probabilities(proba)
    matrix = check_array(matrix, "matrix", ndim=2)
    if matrix.shape[1] != proba.shape[1]:
        raise ValueError(f"matrix has {matrix.shape[1]} columns (truths) but proba has {proba.shape[1]} classes")
    return proba @ matrix.T


def optimal_set(proba, subset_list, matrix) -> np.ndarray:
    """(n, K) boolean: the subset of least expected cost for each row of ``proba`` (Eq. 2 over 2^Ω \\ ∅).

    Ties go to the first subset of ``subset_list`` (for :func:`credalbook.costs.subsets`, the
    smallest set, then the lexicographically first).
    """
    proba = check_probabilities(proba)
    mask = membership(subset_list, proba.shape[1])
    costs = expected_costs(proba, matrix)
    if costs.shape[1] != mask.shape[0]:
        raise ValueError(f"matrix has {costs.shape[1]} rows but {mask.shape[0]} subsets are given")
    best = np.argmin(costs, axis=1)
    return mask[best]


# --------------------------------------------------------------------------------------------
# probability intervals and lower expectations
# --------------------------------------------------------------------------------------------
def check_intervals(lower, upper, atol: float = 1e-9) -> tuple[np.ndarray, np.ndarray]:
    """(n, K) lower/upper probabilities with 0 <= l <= u <= 1 and Σl <= 1 <= Σu (a non-empty credal set)."""
    lower = np.atleast_2d(check_array(lower, "lower"))
    upper = np.atleast_2d(check_array(upper, "upper"))
    if lower.ndim != 2 or lower.shape != upper.shape:
        raise ValueError(f"lower and upper must have the same (n, K) shape, got {lower.shape} and {upper.shape}")
    if lower.shape[1] < 2:
        raise ValueError(f"probability intervals need at least two classes, got shape {lower.shape}")
    if np.any(lower < -atol) or np.any(upper > 1 + atol):
        raise ValueError("probability intervals must lie within [0, 1]")
    if np.any(lower > upper + atol):
        i, k = np.argwhere(lower > upper + atol)[0]
        raise ValueError(f"lower[{i}, {k}] = {lower[i, k]} exceeds upper[{i}, {k}] = {upper[i, k]}")
    if np.any(lower.sum(axis=1) > 1 + atol) or np.any(upper.sum(axis=1) < 1 - atol):
        raise ValueError("the intervals define an empty credal set: need sum(lower) <= 1 <= sum(upper) per row")
    return np.clip(lower, 0, 1), np.clip(upper, 0, 1)


def reachable_intervals(lower, upper) -> tuple[np.ndarray, np.ndarray]:
    """Tightest intervals of the same credal set (de Campos et al. 1994): l' = max(l, 1 - Σ_{-k} u), etc."""
    lower, upper = check_intervals(lower, upper)
    new_lower = np.maximum(lower, 1.0 - (upper.sum(axis=1, keepdims=True) - upper))
    new_upper = np.minimum(upper, 1.0 - (lower.sum(axis=1, keepdims=True) - lower))
    return new_lower, new_upper


def lower_probability(lower, upper, event) -> np.ndarray:
    """P̲(A) = max(Σ_A l, 1 - Σ_{A^c} u) of an event (boolean (K,) or (n, K)) for reachable intervals."""
    lower, upper = reachable_intervals(lower, upper)
    event = np.broadcast_to(np.asarray(event, dtype=bool), lower.shape)
    return np.maximum(np.where(event, lower, 0).sum(axis=1), 1.0 - np.where(event, 0, upper).sum(axis=1))


def lower_expectation_intervals(lower, upper, f) -> np.ndarray:
    """Lower expectation (Eq. 5) of gains ``f`` (n, ..., K) over the interval credal sets (n, K).

    The Choquet integral of the lower probability of de Campos et al. (1994), which is
    2-monotone: sort f ascending, E̲ = f_(1) + Σ_i (f_(i) - f_(i-1)) P̲({(i), ..., (K)}).
    Vectorised over instances and any middle axes (e.g. the K(K-1) pairs of maximality).
    """
    lower, upper = reachable_intervals(lower, upper)
    f = check_array(f, "f")
    n, k = lower.shape
    if f.ndim < 2 or f.shape[0] != n or f.shape[-1] != k:
        raise ValueError(f"f must have shape (n, ..., K) = ({n}, ..., {k}), got {f.shape}")
    middle = f.shape[1:-1]
    flat = f.reshape(n, -1, k)
    order = np.argsort(flat, axis=2, kind="stable")
    values = np.take_along_axis(flat, order, axis=2)
    lo = np.take_along_axis(np.broadcast_to(lower[:, None, :], flat.shape), order, axis=2)
    up = np.take_along_axis(np.broadcast_to(upper[:, None, :], flat.shape), order, axis=2)
    lower_tail = np.cumsum(lo[:, :, ::-1], axis=2)[:, :, ::-1]          # Σ_{j >= i} l_(j)
    upper_head = np.concatenate([np.zeros(flat.shape[:2] + (1,)), np.cumsum(up, axis=2)[:, :, :-1]], axis=2)
    tail_probability = np.maximum(lower_tail, 1.0 - upper_head)          # P̲({(i), ..., (K)})
    steps = np.diff(values, axis=2)
    result = values[:, :, 0] + (steps * tail_probability[:, :, 1:]).sum(axis=2)
    return result.reshape((n,) + middle)


def lower_expectation_lp(f, *, a_ub=None, b_ub=None, bounds=None) -> float:
    """min_p Σ p f over {p >= 0, Σp = 1, a_ub p <= b_ub, bounds}: the LP oracle of Eq. (5)."""
    f = check_array(f, "f", ndim=1)
    k = f.size
    result = linprog(f, A_ub=a_ub, b_ub=b_ub, A_eq=np.ones((1, k)), b_eq=[1.0],
                     bounds=bounds if bounds is not None else [(0, 1)] * k, method="highs")
    if not result.success:
        raise ValueError(f"the credal set is empty or the LP failed: {result.message}")
    return float(result.fun)


def lower_expectation_intervals_lp(lower, upper, f) -> np.ndarray:
    """The LP oracle of :func:`lower_expectation_intervals` (one LP per instance; f of shape (n, K))."""
    lower, upper = check_intervals(lower, upper)
    f = check_array(f, "f", ndim=2)
    if f.shape != lower.shape:
        raise ValueError(f"f must have shape {lower.shape}, got {f.shape}")
    return np.array([lower_expectation_lp(f[i], bounds=list(zip(lower[i], upper[i]))) for i in range(len(f))])


def interval_vertices(lower, upper) -> np.ndarray:
    """Extreme points of one interval credal set (rows of lower/upper of shape (K,)), as an (m, K) array.

    Every extreme point of the core of a 2-monotone capacity is obtained by a permutation of the
    classes: start from the lower bounds and fill each class in turn up to its upper bound.
    """
    lower, upper = reachable_intervals(np.atleast_2d(lower), np.atleast_2d(upper))
    if lower.shape[0] != 1:
        raise ValueError("interval_vertices takes the intervals of one credal set, shape (K,)")
    from itertools import permutations

    lower, upper = lower[0], upper[0]
    points = set()
    for order in permutations(range(lower.size)):
        p = lower.copy()
        free = 1.0 - p.sum()
        for k in order:
            add = min(upper[k] - lower[k], free)
            p[k] += add
            free -= add
        points.add(tuple(np.round(p, 12)))
    return np.array(sorted(points))


# --------------------------------------------------------------------------------------------
# maximality
# --------------------------------------------------------------------------------------------
def pairwise_cost_differences(cost) -> np.ndarray:
    """(K, K, K) array D[i, j] = c_j - c_i (Eq. 6: i is preferred to j iff E̲[D[i, j]] > 0)."""
    cost = check_cost_matrix(cost)
    return cost[None, :, :] - cost[:, None, :]


def maximal_from_lower(lower_gains: np.ndarray) -> np.ndarray:
    """Eq. (7): classes j with no i such that E̲[c_j - c_i] > 0, from an (n, K, K) array of those lower expectations."""
    dominated = (lower_gains > TOL) & ~np.eye(lower_gains.shape[1], dtype=bool)[None]
    return ~dominated.any(axis=1)


def maximality(lower_expectation: Callable[[np.ndarray], np.ndarray], cost, n: int) -> np.ndarray:
    """(n, K) maximal classes (Def. 2, Eqs. 6-7) with K(K-1) pairwise lower expectations.

    ``lower_expectation(f)`` maps gains of shape (n, K, K, K) (instance, i, j, truth) to (n, K, K).
    """
    differences = pairwise_cost_differences(cost)
    gains = np.broadcast_to(differences[None], (n,) + differences.shape)
    return maximal_from_lower(lower_expectation(gains))


def maximality_intervals(lower, upper, cost) -> np.ndarray:
    """(n, K) maximal classes under probability intervals (n, K) and a determinate cost matrix (K, K)."""
    lower, upper = check_intervals(lower, upper)
    cost = check_cost_matrix(cost)
    if cost.shape[0] != lower.shape[1]:
        raise ValueError(f"cost is for {cost.shape[0]} classes but the intervals have {lower.shape[1]}")
    return maximality(lambda f: lower_expectation_intervals(lower, upper, f), cost, len(lower))


# --------------------------------------------------------------------------------------------
# naive credal classifier with IDM bounds, Section VII-B
# --------------------------------------------------------------------------------------------
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
    class_counts = counts.class_counts
    k = class_counts.size
    occ, usable = counts.gather(np.asarray(codes))                         # (n, d, K), (n, d)
    denominator = counts.observed[None, :, :] + s                           # occ_y + s per feature
    with np.errstate(divide="ignore"):
        log_low = np.where(usable[:, :, None], np.log(occ / denominator), 0.0).sum(axis=1)
    log_up = np.where(usable[:, :, None], np.log((occ + s) / denominator), 0.0).sum(axis=1)
    low_like, up_like = np.exp(log_low), np.exp(log_up)                   # Π p̲(x_i|y), Π p̄(x_i|y)
    vertices = (class_counts[None, :] + s * np.eye(k)) / (class_counts.sum() + s)   # (K vertices, K classes)
    # numerators and "others" terms at every vertex: shape (n, vertex, class)
    own_low = vertices[None] * low_like[:, None, :]
    own_up = vertices[None] * up_like[:, None, :]
    others_up = (vertices[None] * up_like[:, None, :]).sum(axis=2, keepdims=True) - own_up
    others_low = (vertices[None] * low_like[:, None, :]).sum(axis=2, keepdims=True) - own_low
    with np.errstate(invalid="ignore", divide="ignore"):
        low_ratio = own_low / (own_low + others_up)
        up_ratio = own_up / (own_up + others_low)
    low_ratio = np.where(own_low + others_up > 0, low_ratio, 0.0)
    up_ratio = np.where(own_up + others_low > 0, up_ratio, 0.0)
    return low_ratio.min(axis=1), up_ratio.max(axis=1)


class CostSensitiveNCC(CredalClassifierMixin):
    """Naive credal classifier with IDM posterior bounds and maximality under any costs (Section VII-B).

    ``s`` is the IDM hyper-parameter; ``cost`` the (K, K) determinate costs (None: 0/1 costs).
    Features must be discrete (codes or Categoricals; see :mod:`credalbook.classifiers.base`).
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
        lower, upper = self._intervals_codes(codes)
        return maximality_intervals(lower, upper, self._cost())

    def _scores_codes(self, codes):
        lower, upper = self._intervals_codes(codes)
        return -(lower + upper) @ self._cost().T  # minus the mid-point expected cost
