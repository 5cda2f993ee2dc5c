"""Costs of indeterminacy: extended cost matrices over sets of classes (Yang, Destercke & Masson 2017).

Conventions (the paper's, Section II):

- ``cost`` is a (K, K) matrix of *determinate* costs, ``cost[i, j]`` the cost of predicting
  class ``i`` when the truth is ``j`` (the paper's :math:`c_{\\hat y}(y)`), non-negative.
- An *extended* cost matrix has one row per non-empty subset :math:`\\hat Y` of the K classes
  (:math:`2^K - 1` rows) and one column per true class. The subsets are listed in a stable
  order, :func:`subsets`: by cardinality, then lexicographically on class indices, each subset
  a tuple of class indices; the first K rows are the singletons, in class order.
- Building every row is exponential in K; :data:`MAX_CLASSES_EXTENDED` bounds it. Scoring a
  classifier never needs the whole matrix: :func:`set_costs` computes the cost of each
  predicted set directly, for any K.

Rules (``extended_cost_matrix(cost, rule, **params)``):

- ``"discounted"``: Def. 3, Eq. (10), the mean of the determinate costs of the set's members.
- ``"utility"``: Table III, 0/1 costs, :math:`1 - g(1/|\\hat Y|)` when the truth is in the set
  (g quadratic with :math:`g(1/2) = u`, Eq. (8)), 1 otherwise.
- ``"f_beta"``: Table IV, :math:`1 - F_\\beta` with precision :math:`1/|\\hat Y|`, recall 1.
- ``"ha"``: Table IX, Ha's class-selective rejection,
  :math:`\\eta(y)[y\\notin\\hat Y] + \\delta(|\\hat Y| - 1)`.
- ``"abellan_masegosa"``: Section V-c, :math:`\\log|\\hat Y|` if the truth is in the set, else
  :math:`\\log K\\,(\\max_{\\hat y\\in\\hat Y} c_{\\hat y}(y)/(K-1) + 1)`.
- ``"generalized_mean"``: Eqs. (12)-(13), the generalised (power) mean of order p of the
  members' costs, with an optional translation ``epsilon`` for p < 0.
- ``"p_discounted"``: Eqs. (14)-(16), order 1 - r for every truth (``"cautious"``, cautiousness
  seeking) or order 1 - r inside / 1 + r outside the set (``"mistake_averse"``).
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass
from itertools import combinations
from typing import Callable

import numpy as np

from credalbook._validation import check_array, check_labels, check_scalar
from credalbook.sets import check_set_matrix, check_targets_and_sets

__all__ = ["MAX_CLASSES_EXTENDED", "RULES", "VARIANTS", "TOL", "check_cost_matrix", "subsets", "membership",
           "generalized_mean", "quadratic_utility", "ha_eta", "extended_cost_matrix",
           "p_discounted_cost_matrix", "set_cost_table", "set_costs", "average_set_cost", "ordinal_cost_matrix",
           "PROPERTY_NAMES", "TABLE_VIII", "PropertyResult", "is_possible", "check_properties",
           "property_table", "suits_setting", "cost_table"]

MAX_CLASSES_EXTENDED = 16
"""Largest K for which the full extended matrix (2^K - 1 rows) is built."""

#: The rules that extend determinate costs to sets of classes (see the module docstring).
RULES = ("discounted", "utility", "f_beta", "ha", "abellan_masegosa", "generalized_mean", "p_discounted")
#: The two variants of p-discounted costs (Eqs. 15-16).
VARIANTS = ("cautious", "mistake_averse")
#: Tolerance of the property checks on cost matrices.
TOL = 1e-9


# --------------------------------------------------------------------------------------------
# validation and subsets
# --------------------------------------------------------------------------------------------
def check_cost_matrix(cost, name: str = "cost") -> np.ndarray:
    """A square (K, K) matrix of finite non-negative determinate costs, K >= 2.

    Parameters
    ----------
    cost : array-like of shape (K, K)
        ``cost[i, j]``: the cost of predicting class i when j is true.
    name : str, default "cost"
        The argument's name in error messages.

    Examples
    --------
    >>> check_cost_matrix([[0, 1], [1, 0]]).tolist()
    [[0.0, 1.0], [1.0, 0.0]]
    """
    array = check_array(cost, name, ndim=2)
    if array.shape[0] != array.shape[1]:
        raise ValueError(f"{name} must be square (K, K): cost[i, j] of predicting i when j is true; "
                         f"got shape {array.shape}")
    if array.shape[0] < 2:
        raise ValueError(f"{name} must have at least two classes, got shape {array.shape}")
    if np.any(array < 0):
        i, j = np.argwhere(array < 0)[0]
        raise ValueError(f"{name} must be non-negative; {name}[{i}, {j}] = {array[i, j]}")
    return array


def _classifier_cost(cost, n_classes: int) -> np.ndarray:
    """A classifier's ``cost`` parameter checked for its ``n_classes`` classes (None: 0/1 costs)."""
    cost = 1.0 - np.eye(n_classes) if cost is None else check_cost_matrix(cost)
    if cost.shape[0] != n_classes:
        raise ValueError(f"cost is for {cost.shape[0]} classes but the classifier has {n_classes}")
    return cost


def subsets(n_classes: int) -> list[tuple[int, ...]]:
    """Every non-empty subset of ``range(n_classes)``: by size, then lexicographic (stable order).

    Parameters
    ----------
    n_classes : int
        K, at most ``MAX_CLASSES_EXTENDED``.

    Examples
    --------
    >>> subsets(3)
    [(0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2)]
    """
    check_scalar(n_classes, "n_classes", low=1, high=MAX_CLASSES_EXTENDED, integer=True)
    return [c for size in range(1, n_classes + 1) for c in combinations(range(n_classes), size)]


def membership(subset_list, n_classes: int, name: str = "subsets") -> np.ndarray:
    """(S, K) boolean membership matrix of a list of subsets (tuples of class indices).

    Parameters
    ----------
    subset_list : iterable of tuple
        Non-empty subsets of class indices.
    n_classes : int
    name : str, default "subsets"
        The argument's name in error messages.

    Examples
    --------
    >>> membership([(0,), (0, 2)], 3).astype(int).tolist()
    [[1, 0, 0], [1, 0, 1]]
    """
    check_scalar(n_classes, "n_classes", low=1, integer=True)
    rows = list(subset_list)
    if not rows:
        raise ValueError(f"{name} is empty: give at least one subset")
    mask = np.zeros((len(rows), n_classes), dtype=bool)
    for index, subset in enumerate(rows):
        members = list(subset)
        if not members:
            raise ValueError(f"{name}[{index}] is the empty set: predictions must be non-empty")
        labels = check_labels(np.asarray(members), n_classes, name=f"{name}[{index}]")
        if len(set(labels.tolist())) != len(labels):
            raise ValueError(f"{name}[{index}] = {subset!r} repeats a class")
        mask[index, labels] = True
    return mask


# --------------------------------------------------------------------------------------------
# generalised means
# --------------------------------------------------------------------------------------------
def generalized_mean(values, p: float, where=None, axis: int = -1) -> np.ndarray:
    """Generalised (power) mean of order ``p`` of ``values`` along ``axis`` (Eq. 12; Eq. 13 at p = 0).

    ``where`` (boolean, broadcastable) selects the terms, e.g. the members of a predicted set.
    p = 0 is the geometric mean (0 if a term is 0); p = +/-inf are max/min. For p < 0 a zero
    term is refused: the paper translates the costs by epsilon first (Section VI). Orders with
    abs(p) < 10⁻¹² are computed as p = 0 (the relative difference is below 10⁻¹² Var(log x)).

    Parameters
    ----------
    values : array-like
        Non-negative terms.
    p : float
        The order: 1 the arithmetic mean, 0 the geometric mean, ``np.inf`` the maximum.
    where : array-like of bool, default None
        The terms to average (all when None).
    axis : int, default -1

    Examples
    --------
    >>> [round(float(generalized_mean([1.0, 4.0], p)), 3) for p in (1, 0, -1, float("inf"))]
    [2.5, 2.0, 1.6, 4.0]
    """
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or np.isnan(p):
        raise ValueError(f"p must be a real number (or +/-inf), got {p!r}")
    x = check_array(values, "values")
    if np.any(x < 0):
        raise ValueError("values must be non-negative for a generalised mean")
    mask = np.ones_like(x, dtype=bool) if where is None else np.broadcast_to(np.asarray(where, dtype=bool), x.shape)
    count = mask.sum(axis=axis)
    if np.any(count == 0):
        raise ValueError("where selects no term for some mean: the set is empty")
    if p == np.inf:
        return np.where(mask, x, -np.inf).max(axis=axis)
    if p == -np.inf:
        return np.where(mask, x, np.inf).min(axis=axis)
    if abs(p) < 1e-12:
        with np.errstate(divide="ignore"):
            logs = np.where(mask, np.log(np.where(mask, x, 1.0)), 0.0)
        return np.exp(logs.sum(axis=axis) / count)
    if p < 0 and np.any(mask & (x == 0)):
        raise ValueError(f"a generalised mean of order p = {p} < 0 is undefined with a zero cost: translate the "
                         "costs by epsilon > 0 first (Yang et al. 2017, Section VI)")
    # M_p = scale * exp(log1p(mean(expm1(p log(x / scale)))) / p): accurate for p near 0, no overflow
    scale = (np.where(mask, x, -np.inf).max(axis=axis, keepdims=True) if p > 0
             else np.where(mask, x, np.inf).min(axis=axis, keepdims=True))
    scale = np.where(scale > 0, scale, 1.0)
    with np.errstate(divide="ignore"):
        logs = np.log(np.where(mask, x, 1.0) / scale)
        terms = np.where(mask, np.expm1(p * logs), 0.0)
        return np.squeeze(scale, axis=axis) * np.exp(np.log1p(terms.sum(axis=axis) / count) / p)


def quadratic_utility(u: float = 0.65) -> Callable[[np.ndarray], np.ndarray]:
    """g(x) = a x^2 + (1 - a) x with g(1) = 1, g(1/2) = u (Eq. 8 for u = 0.65: -0.6 x^2 + 1.6 x).

    Parameters
    ----------
    u : float, default 0.65
        g(1/2), in [0.5, 0.75].

    Examples
    --------
    >>> g = quadratic_utility(0.65)
    >>> [round(float(g(x)), 3) for x in (1 / 3, 0.5, 1)]
    [0.467, 0.65, 1.0]
    """
    check_scalar(u, "u", low=0.5, high=0.75)
    a = 2.0 - 4.0 * u
    return lambda x: a * np.asarray(x, dtype=float) ** 2 + (1.0 - a) * np.asarray(x, dtype=float)


# --------------------------------------------------------------------------------------------
# rules: each maps (mask (S, K) of predicted sets, cost (K, K)) to an (S, K) matrix of costs
# --------------------------------------------------------------------------------------------
def _member_costs(mask: np.ndarray, cost: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Values c_yhat(y) arranged (S, K_truth, K_pred) and the membership broadcast to that shape."""
    values = np.broadcast_to(cost.T[None, :, :], (mask.shape[0],) + cost.shape)
    where = np.broadcast_to(mask[:, None, :], values.shape)
    return values, where


def _rule_discounted(mask, cost):
    values, where = _member_costs(mask, cost)
    return generalized_mean(values, 1.0, where)


def _rule_utility(mask, cost, u=0.65, g=None):
    utility = quadratic_utility(u) if g is None else g
    size = mask.sum(axis=1)
    correct = 1.0 - np.asarray(utility(1.0 / size), dtype=float)
    return np.where(mask, correct[:, None], 1.0)


def _rule_f_beta(mask, cost, beta=1.0):
    check_scalar(beta, "beta", low=0, low_inclusive=False)
    size = mask.sum(axis=1)
    f_correct = (1.0 + beta ** 2) / (beta ** 2 + size)
    return np.where(mask, 1.0 - f_correct[:, None], 1.0)


def ha_eta(cost) -> np.ndarray:
    """η(y) of Ha's loss from a determinate matrix whose column y is η(y) off the diagonal, 0 on it.

    Parameters
    ----------
    cost : array-like of shape (K, K)
        Zero on the diagonal, each column constant off it.

    Examples
    --------
    >>> ha_eta([[0, 2], [1, 0]]).tolist()
    [1.0, 2.0]
    """
    cost = check_cost_matrix(cost)
    k = cost.shape[0]
    off = ~np.eye(k, dtype=bool)
    eta = np.array([cost[off[:, j], j][0] for j in range(k)])
    if not (np.allclose(np.diag(cost), 0) and np.allclose(cost, np.where(off, eta[None, :], 0.0))):
        raise ValueError("cost is not of Ha's form (zero diagonal, each column constant off the diagonal): "
                         "give eta explicitly")
    return eta


def _rule_ha(mask, cost, delta, eta=None):
    check_scalar(delta, "delta", low=0)
    k = mask.shape[1]
    eta = ha_eta(cost) if eta is None else check_array(eta, "eta", ndim=1)
    if eta.shape != (k,) or np.any(eta < 0):
        raise ValueError(f"eta must hold {k} non-negative values, got {eta!r}")
    size = mask.sum(axis=1)
    return np.where(mask, 0.0, eta[None, :]) + delta * (size[:, None] - 1)


def _rule_abellan_masegosa(mask, cost):
    k = mask.shape[1]
    values, where = _member_costs(mask, cost)
    worst = generalized_mean(values, np.inf, where)
    size = mask.sum(axis=1)
    return np.where(mask, np.log(size)[:, None], np.log(k) * (worst / (k - 1) + 1.0))


def _rule_generalized_mean(mask, cost, p, epsilon=0.0):
    check_scalar(epsilon, "epsilon", low=0)
    values, where = _member_costs(mask, cost + epsilon)
    return generalized_mean(values, p, where)


def _rule_p_discounted(mask, cost, r, variant="cautious"):
    check_scalar(r, "r", low=0, high=1)
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
    values, where = _member_costs(mask, cost)
    inside = generalized_mean(values, 1.0 - r, where)
    if variant == "cautious":
        return inside
    outside = generalized_mean(values, 1.0 + r, where)
    return np.where(mask, inside, outside)


_RULES = {
    "discounted": _rule_discounted,
    "utility": _rule_utility,
    "f_beta": _rule_f_beta,
    "ha": _rule_ha,
    "abellan_masegosa": _rule_abellan_masegosa,
    "generalized_mean": _rule_generalized_mean,
    "p_discounted": _rule_p_discounted,
}


def _rule(rule: str):
    if rule not in _RULES:
        raise ValueError(f"rule must be one of {RULES}, got {rule!r}")
    return _RULES[rule]


def extended_cost_matrix(cost, rule: str, **params) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """(subsets, (2^K - 1, K) matrix) of the costs of every set-valued prediction under ``rule``.

    Row s holds :math:`c_{\\hat Y}(y)` for the s-th subset of :func:`subsets` and every truth y
    (Yang et al. 2017, Table II; rules of Def. 3, Tables III, IV, IX, Section V-c, Eqs. 12-16).

    Parameters
    ----------
    cost : array-like of shape (K, K)
        The determinate costs.
    rule : str
        One of ``RULES``.
    **params
        The rule's parameters (``u`` for "utility", ``beta`` for "f_beta", ``delta`` and ``eta`` for
        "ha", ``p`` and ``epsilon`` for "generalized_mean", ``r`` and ``variant`` for "p_discounted").

    Examples
    --------
    Under 0/1 costs the discounted cost of a two-class set is 1/2 whatever the truth:

    >>> rows, matrix = extended_cost_matrix([[0, 1], [1, 0]], "discounted")
    >>> rows, matrix.tolist()
    ([(0,), (1,), (0, 1)], [[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]])
    """
    cost = check_cost_matrix(cost)
    k = cost.shape[0]
    if k > MAX_CLASSES_EXTENDED:
        raise ValueError(f"the extended matrix of K = {k} classes has 2^{k} - 1 rows; it is built up to K = "
                         f"{MAX_CLASSES_EXTENDED}: score predictions with set_costs instead")
    subset_list = subsets(k)
    return subset_list, _rule(rule)(membership(subset_list, k), cost, **params)


def p_discounted_cost_matrix(cost, r: float, variant: str = "cautious") -> tuple[list[tuple[int, ...]], np.ndarray]:
    """p-discounted costs (Eqs. 14-16) for every non-empty subset: ``extended_cost_matrix(cost, "p_discounted")``.

    Parameters
    ----------
    cost : array-like of shape (K, K)
    r : float
        In [0, 1]: the order of the mean is 1 - r (1 + r outside the set for "mistake_averse").
    variant : {"cautious", "mistake_averse"}, default "cautious"

    Examples
    --------
    >>> rows, matrix = p_discounted_cost_matrix([[0, 1], [1, 0]], r=0.5)
    >>> matrix.round(3).tolist()
    [[0.0, 1.0], [1.0, 0.0], [0.25, 0.25]]
    """
    return extended_cost_matrix(cost, "p_discounted", r=r, variant=variant)


def set_cost_table(cost, y_set, rule: str = "p_discounted", **params) -> np.ndarray:
    """(n, K) costs :math:`c_{\\hat Y_i}(y)` of each predicted set ``y_set`` (n, K) for every truth y, any K.

    Row i is the row of ``y_set[i]`` in :func:`extended_cost_matrix` (Yang et al. 2017, Table II)
    without enumerating the subsets: the rule is evaluated on the distinct predicted sets only.

    Parameters
    ----------
    cost : array-like of shape (K, K)
    y_set : array-like of bool, shape (n, K)
    rule : str, default "p_discounted"
        One of ``RULES``.
    **params
        The rule's parameters, as in ``extended_cost_matrix``.

    Examples
    --------
    >>> cost = [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
    >>> set_cost_table(cost, [[1, 1, 0], [0, 0, 1]], rule="discounted").tolist()
    [[0.5, 0.5, 1.0], [1.0, 1.0, 0.0]]
    """
    cost = check_cost_matrix(cost)
    y_set = check_set_matrix(y_set, n_classes=cost.shape[0])
    distinct, inverse = np.unique(y_set, axis=0, return_inverse=True)
    return _rule(rule)(distinct, cost, **params)[inverse.ravel()]


def set_costs(cost, y_true, y_set, rule: str = "p_discounted", **params) -> np.ndarray:
    """Cost of each set-valued prediction ``y_set`` (n, K) given the truth ``y_true`` (n,), any K.

    Equals ``matrix[subset_index(y_set[i]), y_true[i]]`` of :func:`extended_cost_matrix`: the
    truth's column of :func:`set_cost_table`.

    Parameters
    ----------
    cost : array-like of shape (K, K)
    y_true : array-like of shape (n,)
        Class indices 0..K-1.
    y_set : array-like of bool, shape (n, K)
    rule : str, default "p_discounted"
        One of ``RULES``.
    **params
        The rule's parameters, as in ``extended_cost_matrix``.

    Examples
    --------
    >>> cost = [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
    >>> set_costs(cost, [0, 0], [[1, 1, 0], [0, 0, 1]], rule="discounted").tolist()
    [0.5, 1.0]
    """
    cost = check_cost_matrix(cost)
    y_true, y_set, _ = check_targets_and_sets(y_true, check_set_matrix(y_set, n_classes=cost.shape[0]))
    return set_cost_table(cost, y_set, rule, **params)[np.arange(len(y_true)), y_true]


def average_set_cost(cost, y_true, y_set, rule: str = "p_discounted", **params) -> float:
    """Empirical risk (Eq. 4) of set-valued predictions: the mean of :func:`set_costs`.

    Parameters
    ----------
    cost : array-like of shape (K, K)
    y_true : array-like of shape (n,)
        Class indices 0..K-1.
    y_set : array-like of bool, shape (n, K)
    rule : str, default "p_discounted"
        One of ``RULES``.
    **params
        The rule's parameters, as in ``extended_cost_matrix``.

    Examples
    --------
    >>> cost = [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
    >>> average_set_cost(cost, [0, 0], [[1, 1, 0], [0, 0, 1]], rule="discounted")
    0.75
    >>> average_set_cost(cost, [0, 0], [[1, 1, 0], [0, 0, 1]], r=0.5)
    0.625
    """
    return float(set_costs(cost, y_true, y_set, rule, **params).mean())


def ordinal_cost_matrix(n_classes: int, norm: float = 1.0) -> np.ndarray:
    """ℓ_k ordinal costs :math:`|i - j|^{norm}` between ranked classes (Section VII-A; ℓ1 for norm = 1).

    Parameters
    ----------
    n_classes : int
        K >= 2 ranked classes.
    norm : float, default 1.0

    Examples
    --------
    >>> ordinal_cost_matrix(3).tolist()
    [[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]]
    """
    check_scalar(n_classes, "n_classes", low=2, integer=True)
    check_scalar(norm, "norm", low=0, low_inclusive=False)
    ranks = np.arange(n_classes, dtype=float)
    return np.abs(ranks[:, None] - ranks[None, :]) ** norm


# --------------------------------------------------------------------------------------------
# properties 1-10 (Section IV)
# --------------------------------------------------------------------------------------------
#: Properties 1-10 of Yang et al. (2017), Section IV, by number.
PROPERTY_NAMES = {
    1: "possibility of indeterminate predictions",
    2: "indeterminacy permissiveness",
    3: "reward rightful cautiousness",
    4: "non dominance of indeterminate predictions",
    5: "permutation invariance",
    6: "mistake averse",
    7: "cautiousness seeking",
    8: "correctness cost-insensitivity",
    9: "correctness cost-sensitivity",
    10: "upper bounded",
}

TABLE_VIII = {
    "filtering": dict(zip(range(1, 11), "N D N N D N U D U A".split())),
    "choice": dict(zip(range(1, 11), "N D N N D A A U D N".split())),
}
"""Table VIII, the desirability of each property (N necessary, D desirable, A application dependent, U undesirable)."""


@dataclass(frozen=True)
class PropertyResult:
    """Whether a property holds; ``witness`` is a counter-example when it fails (an example for 1 and 9).

    Examples
    --------
    >>> result = PropertyResult(9, holds=False, witness=None)
    >>> result.name
    'correctness cost-sensitivity'
    """

    number: int
    holds: bool
    witness: dict | None

    @property
    def name(self) -> str:
        return PROPERTY_NAMES[self.number]


def _check_extended(subset_list, matrix) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    matrix = check_array(matrix, "matrix", ndim=2)
    k = matrix.shape[1]
    mask = membership(subset_list, k)
    if mask.shape[0] != matrix.shape[0]:
        raise ValueError(f"matrix has {matrix.shape[0]} rows but {mask.shape[0]} subsets are given")
    if np.any(matrix < 0):
        raise ValueError("matrix must hold non-negative costs")
    sizes = mask.sum(axis=1)
    singles = np.full(k, -1)
    for row in np.flatnonzero(sizes == 1):
        singles[np.flatnonzero(mask[row])[0]] = row
    if np.any(singles < 0):
        raise ValueError(f"subsets must contain every singleton; missing class {int(np.flatnonzero(singles < 0)[0])}")
    return mask, matrix, matrix[singles]


def is_possible(subset, subset_costs, cost) -> tuple[bool, np.ndarray | None, float]:
    """Def. 4 by a linear program: is there p with E_p[c_Y] < min_{y in Y} E_p[c_y]?

    Maximises t subject to E_p[c_y - c_Y] >= t for every member y, p in the simplex. Returns
    (possible, the maximising p when possible, t*).

    Parameters
    ----------
    subset : tuple of int
        The class indices of the set.
    subset_costs : array-like of shape (K,)
        The costs of predicting the set, one per true class.
    cost : array-like of shape (K, K)
        The determinate costs.

    Examples
    --------
    Under 0/1 costs a two-class set costing 0.35 beats both classes when p = (1/2, 1/2):

    >>> possible, p, margin = is_possible((0, 1), [0.35, 0.35], [[0, 1], [1, 0]])
    >>> possible, p.round(3).tolist(), round(margin, 3)
    (True, [0.5, 0.5], 0.15)
    """
    from scipy.optimize import linprog  # imported on first use: scipy.optimize is slow to import

    cost = check_array(cost, "cost", ndim=2)
    k = cost.shape[1]
    members = np.flatnonzero(membership([subset], k)[0])
    row = check_array(subset_costs, "subset_costs", ndim=1)
    if row.shape != (k,):
        raise ValueError(f"subset_costs must have {k} entries, got {row.shape}")
    # variables (p_1..p_K, t): minimise -t; t - (c_y - c_Y) . p <= 0; sum p = 1
    a_ub = np.hstack([-(cost[members] - row[None, :]), np.ones((len(members), 1))])
    result = linprog(np.r_[np.zeros(k), -1.0], A_ub=a_ub, b_ub=np.zeros(len(members)),
                     A_eq=np.r_[np.ones(k), 0.0][None, :], b_eq=[1.0],
                     bounds=[(0, None)] * k + [(None, None)], method="highs")
    if not result.success:  # pragma: no cover - the simplex is never empty
        raise RuntimeError(f"linear program failed: {result.message}")
    t_star = -result.fun
    return bool(t_star > TOL), (result.x[:k] if t_star > TOL else None), float(t_star)


def check_properties(subset_list, matrix, properties=tuple(range(1, 11))) -> dict[int, PropertyResult]:
    """Check Properties 1-10 of Yang et al. (2017), Section IV, on an extended cost matrix.

    The determinate costs are the singleton rows. Properties 2 and 3 concern indeterminate
    predictions (:math:`|Y| \\ge 2`; on singletons c_Y equals its discounted cost); Property 2 is read as
    "c_Y is not element-wise >= its discounted cost" (the necessary condition of Proposition 1;
    the printed sign is discussed in the chapter's errata). Comparisons use a tolerance of :math:`10^{-9}`.

    Parameters
    ----------
    subset_list : list of tuple
        The subsets of the rows of ``matrix``, every singleton among them.
    matrix : array-like
        The extended cost matrix, shape (S, K).
    properties : iterable of int, default 1..10
        The properties to check.

    Examples
    --------
    >>> rows, matrix = extended_cost_matrix([[0, 1], [1, 0]], "utility", u=0.65)
    >>> result = check_properties(rows, matrix, properties=(1,))[1]
    >>> result.holds, result.witness["subset"]
    (True, (0, 1))
    """
    mask, matrix, cost = _check_extended(subset_list, matrix)
    unknown = [p for p in properties if p not in PROPERTY_NAMES]
    if unknown:
        raise ValueError(f"properties must be numbers 1..10, got {unknown}")
    s, k = mask.shape
    values = np.broadcast_to(cost.T[None, :, :], (s, k, k))
    where = np.broadcast_to(mask[:, None, :], values.shape)
    mean = generalized_mean(values, 1.0, where)
    low = generalized_mean(values, -np.inf, where)
    high = generalized_mean(values, np.inf, where)
    indeterminate = mask.sum(axis=1) >= 2
    subsets_ = [tuple(int(c) for c in np.flatnonzero(m)) for m in mask]

    def first(bad):
        where_bad = np.argwhere(bad)
        if not len(where_bad):
            return None
        row, y = where_bad[0][:2]
        return {"subset": subsets_[row], "truth": int(y), "cost": float(matrix[row, y]),
                "discounted": float(mean[row, y])}

    results: dict[int, PropertyResult] = {}
    for number in properties:
        if number == 1:
            witness = None
            for row in np.flatnonzero(indeterminate):
                possible, p, t_star = is_possible(subsets_[row], matrix[row], cost)
                if possible:
                    witness = {"subset": subsets_[row], "p": p.round(12).tolist(), "margin": t_star}
                    break
            results[1] = PropertyResult(1, witness is not None, witness)
        elif number == 2:
            dominated = indeterminate & np.all(matrix >= mean - TOL, axis=1)
            row = np.flatnonzero(dominated)
            results[2] = PropertyResult(2, not row.size, None if not row.size else
                                        {"subset": subsets_[row[0]], "costs": matrix[row[0]].tolist(),
                                         "discounted": mean[row[0]].tolist()})
        elif number == 3:
            bad = indeterminate[:, None] & mask & (matrix >= mean - TOL)
            results[3] = PropertyResult(3, not bad.any(), first(bad))
        elif number == 4:
            bad = matrix < low - TOL
            results[4] = PropertyResult(4, not bad.any(), first(bad))
        elif number == 5:
            sorted_vectors = np.sort(np.where(where, values, np.inf), axis=2)
            same = np.all(np.isclose(sorted_vectors[:, :, None, :], sorted_vectors[:, None, :, :]), axis=3)
            differ = ~np.isclose(matrix[:, :, None], matrix[:, None, :], atol=TOL)
            bad = same & differ & ~np.eye(k, dtype=bool)[None]
            witness = None
            if bad.any():
                row, y, z = np.argwhere(bad)[0]
                witness = {"subset": subsets_[row], "truths": (int(y), int(z)),
                           "costs": (float(matrix[row, y]), float(matrix[row, z]))}
            results[5] = PropertyResult(5, witness is None, witness)
        elif number == 6:
            bad = ~mask & (matrix < mean - TOL)
            results[6] = PropertyResult(6, not bad.any(), first(bad))
        elif number == 7:
            bad = ~mask & (matrix > mean + TOL)
            results[7] = PropertyResult(7, not bad.any(), first(bad))
        elif number in (8, 9):
            pair = mask[:, :, None] & mask[:, None, :] & ~np.eye(k, dtype=bool)[None]
            differ = pair & ~np.isclose(matrix[:, :, None], matrix[:, None, :], atol=TOL)
            if number == 8:
                witness = None
                if differ.any():
                    row, y, z = np.argwhere(differ)[0]
                    witness = {"subset": subsets_[row], "truths": (int(y), int(z)),
                               "costs": (float(matrix[row, y]), float(matrix[row, z]))}
                results[8] = PropertyResult(8, witness is None, witness)
            else:
                sorted_vectors = np.sort(np.where(where, values, np.inf), axis=2)
                vectors_differ = ~np.all(np.isclose(sorted_vectors[:, :, None, :], sorted_vectors[:, None, :, :]),
                                         axis=3)
                example = differ & vectors_differ
                witness = None
                if example.any():
                    row, y, z = np.argwhere(example)[0]
                    witness = {"subset": subsets_[row], "truths": (int(y), int(z)),
                               "costs": (float(matrix[row, y]), float(matrix[row, z]))}
                results[9] = PropertyResult(9, witness is not None, witness)
        else:
            bad = matrix > high + TOL
            results[10] = PropertyResult(10, not bad.any(), first(bad))
    return results


def property_table(subset_list, matrix) -> dict[int, bool]:
    """{property number: holds} for Properties 1-10 (see :func:`check_properties`).

    Parameters
    ----------
    subset_list : list of tuple
    matrix : array-like
        The extended cost matrix, shape (S, K).

    Examples
    --------
    >>> rows, matrix = extended_cost_matrix([[0, 1], [1, 0]], "utility", u=0.65)
    >>> [n for n, holds in property_table(rows, matrix).items() if not holds]
    [9]
    """
    return {n: r.holds for n, r in check_properties(subset_list, matrix).items()}


def suits_setting(holds: dict[int, bool], setting: str) -> bool:
    """Table VIII: no necessary (N) property fails and no undesirable (U) property holds.

    Parameters
    ----------
    holds : dict of int to bool
        Whether each property 1-10 holds, as ``property_table`` returns it.
    setting : str
        A key of ``TABLE_VIII`` ("filtering" or "choice").

    Examples
    --------
    Ha's class-selective rejection with a cost 0.2 per extra class suits filtering, not choice:

    >>> cost = [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
    >>> rows, matrix = extended_cost_matrix(cost, "ha", delta=0.2)
    >>> [suits_setting(property_table(rows, matrix), setting) for setting in ("filtering", "choice")]
    [True, False]
    """
    if setting not in TABLE_VIII:
        raise ValueError(f"setting must be one of {tuple(TABLE_VIII)}, got {setting!r}")
    marks = TABLE_VIII[setting]
    return all(holds[n] for n, m in marks.items() if m == "N") and not any(holds[n] for n, m in marks.items() if m == "U")


def cost_table(subset_list, matrix, labels) -> "pd.DataFrame":
    """An extended matrix as a table: column ``subset`` ("h,b"), then one column per true class label.

    Parameters
    ----------
    subset_list : list of tuple
    matrix : array-like
        The extended cost matrix, shape (S, K).
    labels : list
        The K class labels, in column order.

    Examples
    --------
    >>> rows, matrix = extended_cost_matrix([[0, 1], [1, 0]], "utility", u=0.65)
    >>> table = cost_table(rows, matrix, ["h", "b"])
    >>> table["subset"].tolist(), table["h"].round(3).tolist()
    (['h', 'b', 'h,b'], [0.0, 1.0, 0.35])
    """
    import pandas as pd

    matrix = check_array(matrix, "matrix", ndim=2)
    labels = [str(label) for label in labels]
    if len(labels) != matrix.shape[1]:
        raise ValueError(f"labels has {len(labels)} names but matrix has {matrix.shape[1]} columns")
    mask = membership(subset_list, matrix.shape[1])
    names = [",".join(labels[c] for c in np.flatnonzero(row)) for row in mask]
    table = pd.DataFrame(matrix, columns=labels)
    table.insert(0, "subset", names)
    return table
