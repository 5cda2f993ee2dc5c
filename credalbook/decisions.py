"""Decision theory for set-valued predictions: the rules every classifier of the book decides with.

Each rule maps what a classifier knows about an instance to an (n, K) boolean matrix of the
classes it keeps:

- :func:`undominated` — the classes no other class dominates, from an (n, K, K) pairwise
  dominance array (credal dominance of the naive credal classifier and of CMA);
- :func:`interval_dominance` — from posterior probability intervals: drop k when another class's
  lower probability exceeds k's upper one (the credal tree's leaves, under the IDM);
- :func:`maximality` / :func:`maximality_intervals` — Yang, Destercke & Masson (2017), Def. 2,
  Eqs. (6)-(7): K(K-1) lower expectations of cost differences, no extended cost matrix needed;
  lower expectations (Eq. 5) over probability intervals are Choquet integrals of the
  2-monotone lower probability (de Campos et al. 1994), an LP being the general oracle;
- :func:`f_beta_sets` — the top r classes maximising the expected F_β (del Coz & Bahamonde 2009;
  the non-deterministic classifier);
- :func:`threshold_sets` — the most probable class when its probability reaches a threshold,
  else every class (the rejection option, Zaffalon, Corani & Mauá 2012 §9.4);
- :func:`optimal_set` — precise probabilities: the set of least expected cost over the rows of
  an extended cost matrix (Yang et al. Eq. 2 over 2^Ω \\ ∅, Section II-B).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from credalbook._validation import check_array, check_probabilities, check_scalar
from credalbook.costs import check_cost_matrix, membership

__all__ = ["undominated", "interval_dominance", "maximality", "maximality_intervals", "maximal_from_lower",
           "pairwise_cost_differences", "expected_f_beta", "f_beta_sets", "threshold_sets", "expected_costs",
           "optimal_set", "check_intervals", "reachable_intervals", "lower_probability",
           "lower_expectation_intervals", "lower_expectation_lp", "lower_expectation_intervals_lp",
           "interval_vertices"]

TOL = 1e-12


# --------------------------------------------------------------------------------------------
# precise probabilities
# --------------------------------------------------------------------------------------------
def expected_costs(proba, matrix) -> np.ndarray:
    """(n, S) expected cost of every row (prediction) of a cost matrix (S, K) under ``proba`` (n, K) (Eq. 1).

    Parameters
    ----------
    proba : array-like of shape (n, K)
        Posterior probabilities, rows summing to one.
    matrix : array-like
        Shape (S, K): the cost of each prediction (row) for each true class (column).

    Examples
    --------
    Under u65's costs (0/1, and 0.35 for the two-class set whatever the truth):

    >>> expected_costs([[0.5, 0.5], [0.9, 0.1]], [[0, 1], [1, 0], [0.35, 0.35]]).round(3).tolist()
    [[0.5, 0.5, 0.35], [0.1, 0.9, 0.35]]
    """
    proba = check_probabilities(proba)
    matrix = check_array(matrix, "matrix", ndim=2)
    if matrix.shape[1] != proba.shape[1]:
        raise ValueError(f"matrix has {matrix.shape[1]} columns (truths) but proba has {proba.shape[1]} classes")
    return proba @ matrix.T


def optimal_set(proba, subset_list, matrix) -> np.ndarray:
    """(n, K) boolean: the subset of least expected cost for each row of ``proba`` (Eq. 2 over 2^Ω \\ ∅).

    Ties go to the first subset of ``subset_list`` (for :func:`credalbook.costs.subsets`, the
    smallest set, then the lexicographically first).

    Parameters
    ----------
    proba : array-like of shape (n, K)
        Posterior probabilities, rows summing to one.
    subset_list : list of tuple
        The predictions, one subset of class indices per row of ``matrix``.
    matrix : array-like
        The extended cost matrix, shape (S, K).

    Examples
    --------
    >>> subsets, u65_costs = [(0,), (1,), (0, 1)], [[0, 1], [1, 0], [0.35, 0.35]]
    >>> optimal_set([[0.5, 0.5], [0.9, 0.1]], subsets, u65_costs).astype(int).tolist()
    [[1, 1], [1, 0]]
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
    """(n, K) lower/upper probabilities with 0 <= l <= u <= 1 and Σl <= 1 <= Σu (a non-empty credal set).

    Parameters
    ----------
    lower, upper : array-like of shape (n, K)
        Lower and upper probabilities of each class, one row per instance.
    atol : float, default 1e-9

    Examples
    --------
    >>> lower, upper = check_intervals([0.2, 0.3, 0.1], [0.6, 0.5, 0.4])
    >>> lower.tolist(), upper.tolist()
    ([[0.2, 0.3, 0.1]], [[0.6, 0.5, 0.4]])
    """
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
    """Tightest intervals of the same credal set (de Campos et al. 1994): l' = max(l, 1 - Σ_{-k} u), etc.

    Parameters
    ----------
    lower, upper : array-like of shape (n, K)
        Lower and upper probabilities of each class, one row per instance.

    Examples
    --------
    The upper bound 0.9 of the third class cannot be reached (the others need at least 0.5):

    >>> lower, upper = reachable_intervals([[0.2, 0.3, 0.1]], [[0.6, 0.5, 0.9]])
    >>> upper.round(3).tolist()
    [[0.6, 0.5, 0.5]]
    """
    lower, upper = check_intervals(lower, upper)
    new_lower = np.maximum(lower, 1.0 - (upper.sum(axis=1, keepdims=True) - upper))
    new_upper = np.minimum(upper, 1.0 - (lower.sum(axis=1, keepdims=True) - lower))
    return new_lower, new_upper


def lower_probability(lower, upper, event) -> np.ndarray:
    """P̲(A) = max(Σ_A l, 1 - Σ_{A^c} u) of an event (boolean (K,) or (n, K)) for reachable intervals.

    Parameters
    ----------
    lower, upper : array-like of shape (n, K)
        Lower and upper probabilities of each class, one row per instance.
    event : array-like of bool, shape (K,) or (n, K)

    Examples
    --------
    >>> lower, upper = [[0.2, 0.3, 0.1]], [[0.6, 0.5, 0.4]]
    >>> lower_probability(lower, upper, [True, True, False]).round(3).tolist()
    [0.6]
    """
    lower, upper = reachable_intervals(lower, upper)
    event = np.asarray(event)
    if event.dtype != bool or event.shape not in ((lower.shape[1],), lower.shape):
        raise ValueError(f"event must be a boolean ({lower.shape[1]},) or {lower.shape} array, got dtype {event.dtype} "
                         f"and shape {event.shape}")
    event = np.broadcast_to(event, lower.shape)
    return np.maximum(np.where(event, lower, 0).sum(axis=1), 1.0 - np.where(event, 0, upper).sum(axis=1))


def lower_expectation_intervals(lower, upper, f) -> np.ndarray:
    """Lower expectation (Eq. 5) of gains ``f`` (n, ..., K) over the interval credal sets (n, K).

    The Choquet integral of the lower probability of de Campos et al. (1994), which is
    2-monotone: sort f ascending, E̲ = f_(1) + Σ_i (f_(i) - f_(i-1)) P̲({(i), ..., (K)}).
    Vectorised over instances and any middle axes (e.g. the K(K-1) pairs of maximality).

    Parameters
    ----------
    lower, upper : array-like of shape (n, K)
        Lower and upper probabilities of each class, one row per instance.
    f : array-like of shape (n, ..., K)
        Gains, the last axis over the classes.

    Examples
    --------
    The lower expectation of the indicator of class 0 is its lower probability:

    >>> lower, upper = [[0.2, 0.3, 0.1]], [[0.6, 0.5, 0.4]]
    >>> lower_expectation_intervals(lower, upper, [[1.0, 0.0, 0.0]]).round(3).tolist()
    [0.2]
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
    """min_p Σ p f over {p >= 0, Σp = 1, a_ub p <= b_ub, bounds}: the LP oracle of Eq. (5).

    Parameters
    ----------
    f : array-like of shape (K,)
        Gains.
    a_ub : array-like, default None
    b_ub : array-like, default None
        Linear constraints ``a_ub @ p <= b_ub`` on the probabilities (shapes (m, K) and (m,)).
    bounds : list of tuple, default None
        The (low, high) bounds of each probability ((0, 1) when None).

    Examples
    --------
    >>> round(lower_expectation_lp([1.0, 0.0, 0.0], bounds=[(0.2, 0.6), (0.3, 0.5), (0.1, 0.4)]), 3)
    0.2
    """
    from scipy.optimize import linprog  # imported on first use: scipy.optimize is slow to import

    f = check_array(f, "f", ndim=1)
    k = f.size
    result = linprog(f, A_ub=a_ub, b_ub=b_ub, A_eq=np.ones((1, k)), b_eq=[1.0],
                     bounds=bounds if bounds is not None else [(0, 1)] * k, method="highs")
    if not result.success:
        raise ValueError(f"the credal set is empty or the LP failed: {result.message}")
    return float(result.fun)


def lower_expectation_intervals_lp(lower, upper, f) -> np.ndarray:
    """The LP oracle of :func:`lower_expectation_intervals` (one LP per instance; f of shape (n, K)).

    Parameters
    ----------
    lower, upper : array-like of shape (n, K)
        Lower and upper probabilities of each class, one row per instance.
    f : array-like of shape (n, K)

    Examples
    --------
    >>> lower, upper = [[0.2, 0.3, 0.1]], [[0.6, 0.5, 0.4]]
    >>> lower_expectation_intervals_lp(lower, upper, [[1.0, 0.0, 0.0]]).round(3).tolist()
    [0.2]
    """
    lower, upper = check_intervals(lower, upper)
    f = check_array(f, "f", ndim=2)
    if f.shape != lower.shape:
        raise ValueError(f"f must have shape {lower.shape}, got {f.shape}")
    return np.array([lower_expectation_lp(f[i], bounds=list(zip(lower[i], upper[i]))) for i in range(len(f))])


def interval_vertices(lower, upper) -> np.ndarray:
    """Extreme points of one interval credal set (rows of lower/upper of shape (K,)), as an (m, K) array.

    Every extreme point of the core of a 2-monotone capacity is obtained by a permutation of the
    classes: start from the lower bounds and fill each class in turn up to its upper bound.

    Parameters
    ----------
    lower, upper : array-like of shape (K,)

    Examples
    --------
    >>> interval_vertices([0.2, 0.3, 0.1], [0.6, 0.5, 0.4]).round(3).tolist()
    [[0.2, 0.4, 0.4], [0.2, 0.5, 0.3], [0.3, 0.3, 0.4], [0.4, 0.5, 0.1], [0.6, 0.3, 0.1]]
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
    """(K, K, K) array D[i, j] = c_j - c_i (Eq. 6: i is preferred to j iff E̲[D[i, j]] > 0).

    Parameters
    ----------
    cost : array-like of shape (K, K)
        The determinate costs.

    Examples
    --------
    >>> D = pairwise_cost_differences([[0, 1], [1, 0]])
    >>> D[0, 1].tolist()
    [1.0, -1.0]
    """
    cost = check_cost_matrix(cost)
    return cost[None, :, :] - cost[:, None, :]


def undominated(dominates) -> np.ndarray:
    """(..., K) bool: the classes no other class dominates, from ``dominates[..., a, b]`` (a dominates b).

    Parameters
    ----------
    dominates : array-like of bool, shape (..., K, K)

    Examples
    --------
    >>> undominated([[False, True, True], [False, False, False], [False, False, False]]).tolist()
    [True, False, False]
    """
    dominates = np.asarray(dominates, dtype=bool)
    if dominates.ndim < 2 or dominates.shape[-1] != dominates.shape[-2]:
        raise ValueError(f"dominates must be a (..., K, K) array of pairwise dominance, got shape {dominates.shape}")
    return ~dominates.any(axis=-2)


def interval_dominance(lower, upper, *, ties_dominate: bool = False) -> np.ndarray:
    """(..., K) bool: keep class k unless some class's lower probability exceeds k's upper one.

    ``ties_dominate``: a lower probability equal to k's upper one also drops k (the closed-set
    reading of an open credal set, e.g. Weka-IP's credal tree leaves).

    Parameters
    ----------
    lower, upper : array-like of shape (n, K)
        Lower and upper probabilities of each class, one row per instance.
    ties_dominate : bool, default False

    Examples
    --------
    Class 1's upper probability 0.4 is below class 0's lower 0.5:

    >>> interval_dominance([[0.5, 0.1, 0.2]], [[0.7, 0.4, 0.55]]).tolist()
    [[True, False, True]]
    """
    lower, upper = check_array(lower, "lower"), check_array(upper, "upper")
    if lower.shape != upper.shape or np.any(lower > upper):
        raise ValueError("lower and upper must have the same shape with lower <= upper")
    best_lower = lower.max(axis=-1, keepdims=True)
    return upper >= best_lower if not ties_dominate else upper > best_lower


def maximal_from_lower(lower_gains: np.ndarray) -> np.ndarray:
    """Eq. (7): classes j with no i such that E̲[c_j - c_i] > 0, from an (n, K, K) array of those lower expectations.

    Parameters
    ----------
    lower_gains : ndarray of shape (n, K, K)
        ``lower_gains[:, i, j]``: the lower expectation of c_j - c_i.

    Examples
    --------
    >>> import numpy as np
    >>> maximal_from_lower(np.array([[[0.0, 0.2], [-0.2, 0.0]]])).tolist()
    [[True, False]]
    """
    lower_gains = check_array(lower_gains, "lower_gains", ndim=3)
    if lower_gains.shape[1] != lower_gains.shape[2]:
        raise ValueError(f"lower_gains must have shape (n, K, K), got {lower_gains.shape}")
    return undominated((lower_gains > TOL) & ~np.eye(lower_gains.shape[1], dtype=bool)[None])


def maximality(lower_expectation: Callable[[np.ndarray], np.ndarray], cost, n: int) -> np.ndarray:
    """(n, K) maximal classes (Def. 2, Eqs. 6-7) with K(K-1) pairwise lower expectations.

    ``lower_expectation(f)`` maps gains of shape (n, K, K, K) (instance, i, j, truth) to (n, K, K).

    Parameters
    ----------
    lower_expectation : callable
        Maps gains of shape (n, K, K, K) to their lower expectations, shape (n, K, K).
    cost : array-like of shape (K, K)
        The determinate costs.
    n : int
        The number of instances.

    Examples
    --------
    >>> import numpy as np
    >>> lower, upper = np.array([[0.4, 0.3, 0.1]]), np.array([[0.6, 0.5, 0.2]])
    >>> maximality(lambda f: lower_expectation_intervals(lower, upper, f), 1 - np.eye(3), 1).tolist()
    [[True, True, False]]
    """
    if not callable(lower_expectation):
        raise TypeError(f"lower_expectation must be callable, got {type(lower_expectation).__name__}")
    check_scalar(n, "n", low=1)
    differences = pairwise_cost_differences(cost)
    gains = np.broadcast_to(differences[None], (n,) + differences.shape)
    return maximal_from_lower(lower_expectation(gains))


def maximality_intervals(lower, upper, cost) -> np.ndarray:
    """(n, K) maximal classes under probability intervals (n, K) and a determinate cost matrix (K, K).

    Parameters
    ----------
    lower, upper : array-like of shape (n, K)
        Lower and upper probabilities of each class, one row per instance.
    cost : array-like of shape (K, K)
        The determinate costs.

    Examples
    --------
    >>> maximality_intervals([[0.4, 0.3, 0.1]], [[0.6, 0.5, 0.2]], [[0, 1, 1], [1, 0, 1], [1, 1, 0]]).tolist()
    [[True, True, False]]
    """
    lower, upper = check_intervals(lower, upper)
    cost = check_cost_matrix(cost)
    if cost.shape[0] != lower.shape[1]:
        raise ValueError(f"cost is for {cost.shape[0]} classes but the intervals have {lower.shape[1]}")
    return maximality(lambda f: lower_expectation_intervals(lower, upper, f), cost, len(lower))


# --------------------------------------------------------------------------------------------
# precise posteriors: expected F-beta and thresholds
# --------------------------------------------------------------------------------------------
def expected_f_beta(proba, beta: float = 1.0) -> np.ndarray:
    """(n, K) expected F_β of predicting the top r = 1..K classes of each posterior row.

    For p sorted decreasingly, E(r) = (1 + β²) Σ_{j ≤ r} p_(j) / (β² + r) (del Coz & Bahamonde
    2009, JMLR 10, Theorem 1; Zaffalon, Corani & Mauá 2012, §9.3, Eq. 9).

    Parameters
    ----------
    proba : array-like of shape (n, K)
        Posterior probabilities, rows summing to one.
    beta : float, default 1.0

    Examples
    --------
    >>> expected_f_beta([[0.5, 0.4, 0.1]]).round(3).tolist()
    [[0.5, 0.6, 0.5]]
    """
    proba = check_probabilities(proba, "proba")
    check_scalar(beta, "beta", low=0.0, low_inclusive=False)
    top = -np.sort(-proba, axis=1)
    r = np.arange(1, proba.shape[1] + 1)
    return (1 + beta**2) * np.cumsum(top, axis=1) / (beta**2 + r)


def f_beta_sets(proba, beta: float = 1.0) -> np.ndarray:
    """(n, K) bool: the r* most probable classes maximising the expected F_β (the smallest r* on ties).

    Parameters
    ----------
    proba : array-like of shape (n, K)
        Posterior probabilities, rows summing to one.
    beta : float, default 1.0

    Examples
    --------
    >>> f_beta_sets([[0.5, 0.4, 0.1], [0.9, 0.05, 0.05]]).astype(int).tolist()
    [[1, 1, 0], [1, 0, 0]]
    """
    proba = check_probabilities(proba, "proba")
    expected = expected_f_beta(proba, beta)
    r_star = np.argmax(expected >= expected.max(axis=1, keepdims=True) - 1e-12, axis=1) + 1
    order = np.argsort(-proba, axis=1, kind="stable")
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(proba.shape[1])[None, :].repeat(proba.shape[0], 0), axis=1)
    return rank < r_star[:, None]


def threshold_sets(proba, threshold: float) -> np.ndarray:
    """(n, K) bool: the most probable class if its probability is at least ``threshold``, else every class.

    Parameters
    ----------
    proba : array-like of shape (n, K)
        Posterior probabilities, rows summing to one.
    threshold : float
        In [0, 1].

    Examples
    --------
    >>> threshold_sets([[0.7, 0.2, 0.1], [0.5, 0.3, 0.2]], 0.6).astype(int).tolist()
    [[1, 0, 0], [1, 1, 1]]
    """
    proba = check_probabilities(proba, "proba")
    check_scalar(threshold, "threshold", low=0.0, high=1.0)
    sets = np.zeros(proba.shape, dtype=bool)
    sets[np.arange(proba.shape[0]), np.argmax(proba, axis=1)] = True
    sets[proba.max(axis=1) < threshold] = True
    return sets
