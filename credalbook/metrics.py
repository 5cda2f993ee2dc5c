"""Scores of set-valued predictions (Zaffalon, Corani & Mauá 2012, refs 000/001 of the book).

For a predicted set :math:`Y` and the actual class :math:`y`:

- discounted accuracy (Theorem 1): :math:`x = \\mathbb{1}[y \\in Y]/|Y|`;
- utility-discounted accuracy (Section 5, Eq. (1)): :math:`u(x)` for a utility :math:`u` with
  :math:`u(0)=0,\\ u(1)=1`; the quadratic utilities through :math:`(0.5, u_{1/2})` of Section 9
  are :math:`u(x) = (2-4u_{1/2})x^2 + (4u_{1/2}-1)x` (so u65: :math:`-0.6x^2+1.6x`,
  u80: :math:`-1.2x^2+2.2x`);
- F-beta on sets (Section 9.3, del Coz & Bahamonde): :math:`(1+\\beta^2)\\mathbb{1}[y\\in Y]/(\\beta^2+|Y|)`;
- recall on sets: :math:`\\mathbb{1}[y \\in Y]` (precision on sets is the discounted accuracy).

Inputs: ``y_true``, shape (n,), holds class indices 0..K-1, or labels of any kind with
``labels=`` (the K classes in the order of the columns, as a classifier's ``classes_``);
``y_set`` is the (n, K) boolean matrix of predicted sets (:mod:`credalbook.sets`). An empty set
is refused unless ``empty="miss"`` (it holds no class: a miss, and size 0) or
``empty="vacuous"`` (every class). Per-instance scores (``*_scores``) have
shape (n,); the aggregate functions return their mean. Every function is vectorised: a
utility is evaluated once on the K+1 values discounted accuracy can take, then looked up.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from credalbook._validation import check_array, check_scalar
from credalbook.sets import check_set_matrix, check_targets_and_sets, encode_targets, set_sizes

__all__ = ["QuadraticUtility", "quadratic_utility", "discounted_accuracy_scores",
           "utility_discounted_accuracy_scores", "f_beta_set_scores", "recall_set_scores",
           "size_hit_counts", "discounted_accuracy", "utility_discounted_accuracy", "f_beta_set", "recall_set",
           "determinacy", "average_set_size", "single_accuracy", "set_accuracy", "set_metrics", "certainty_equivalent"]

Utility = Callable[[np.ndarray], np.ndarray]


class QuadraticUtility:
    """The quadratic utility through (0, 0), (1/2, ``u_half``) and (1, 1) (Section 9, Fig. 2).

    :math:`u(x) = a x^2 + b x` with :math:`a = 2 - 4u_{1/2}` and :math:`b = 4u_{1/2} - 1`.
    ``u_half`` in [0.5, 1): 0.5 is the risk-neutral (linear) utility, larger values express
    more risk aversion; ``u_half`` >= 1 would value a two-class set as much as a correct
    single class, and ``u_half`` < 0.5 is risk seeking (convex), against Assumption (A6).

    Parameters
    ----------
    u_half : float
        u(1/2), in [0.5, 1).

    Examples
    --------
    >>> u = QuadraticUtility(0.65)
    >>> u
    QuadraticUtility(u_half=0.65: u(x) = -0.6 x^2 + 1.6 x)
    >>> round(float(u(0.5)), 3), round(float(u.inverse(0.65)), 3)
    (0.65, 0.5)
    """

    def __init__(self, u_half: float):
        check_scalar(u_half, "u_half", low=0.5, high=1.0, high_inclusive=False)
        self.u_half = float(u_half)

    @property
    def coefficients(self) -> tuple[float, float]:
        """(a, b) of :math:`u(x) = a x^2 + b x`."""
        return 2.0 - 4.0 * self.u_half, 4.0 * self.u_half - 1.0

    def __call__(self, x):
        a, b = self.coefficients
        x = np.asarray(x, dtype=float)
        return a * x * x + b * x

    def inverse(self, value):
        """:math:`u^{-1}`: the x in [0, x_max] with u(x) = value (x_max is the vertex when a < 0)."""
        a, b = self.coefficients
        value = check_array(value, "value", allow_empty=True)
        if a == 0.0:
            return value / b
        peak = min(1.0, -b / (2 * a)) if a < 0 else 1.0
        if np.any(value < -1e-12) or np.any(value > self(peak) + 1e-12):
            raise ValueError(f"utility value outside [0, {float(self(peak)):.6g}] has no inverse on [0, {peak:.6g}]")
        # smaller root of a x^2 + b x - value = 0, written stably
        disc = np.sqrt(np.maximum(b * b + 4 * a * value, 0.0))
        return 2 * value / (b + disc)

    def __repr__(self):
        a, b = self.coefficients
        return f"QuadraticUtility(u_half={self.u_half:g}: u(x) = {a:g} x^2 + {b:g} x)"


def quadratic_utility(u_half: float) -> QuadraticUtility:
    """The quadratic utility with u(0) = 0, u(0.5) = ``u_half``, u(1) = 1 (``u65``: 0.65, ``u80``: 0.8).

    Parameters
    ----------
    u_half : float
        u(1/2), in [0.5, 1).

    Examples
    --------
    >>> u80 = quadratic_utility(0.8)
    >>> [round(float(u80(x)), 3) for x in (0, 1 / 3, 0.5, 1)]
    [0.0, 0.6, 0.8, 1.0]
    """
    return QuadraticUtility(u_half)


def _utility_table(u, n_classes: int) -> np.ndarray:
    """u at the values discounted accuracy can take: ``table[k] = u(1/k)`` (k = 1..K), ``table[0] = u(0)``.

    Checks the normalisation u(0) = 0, u(1) = 1, monotonicity on those values and that
    u(1/k) >= 1/k (a utility no smaller than discounted accuracy: risk aversion, (A6)).
    """
    utility = quadratic_utility(u) if not callable(u) else u
    points = np.concatenate([[0.0], 1.0 / np.arange(1, n_classes + 1)])
    with np.errstate(all="ignore"):
        values = np.asarray(utility(points), dtype=float)
    if values.shape != points.shape or not np.all(np.isfinite(values)):
        raise ValueError("the utility must map [0, 1] to finite values, elementwise on arrays")
    if abs(values[0]) > 1e-9 or abs(values[1] - 1.0) > 1e-9:
        raise ValueError(f"the utility must satisfy u(0) = 0 and u(1) = 1; got u(0) = {values[0]:.6g}, "
                         f"u(1) = {values[1]:.6g}")
    ordered = np.concatenate([[values[0]], values[:0:-1]])  # u(0), u(1/K), ..., u(1/2), u(1)
    if np.any(np.diff(ordered) < -1e-12):
        raise ValueError("the utility must be non-decreasing on the values of discounted accuracy 0, 1/K, ..., 1/2, 1")
    if np.any(values[1:] < points[1:] - 1e-12):
        k = int(np.flatnonzero(values[1:] < points[1:] - 1e-12)[0]) + 1
        raise ValueError(f"the utility is below discounted accuracy at 1/{k} (u = {values[k]:.6g}): a risk-seeking "
                         "utility; the theory (Assumption A6) needs a concave utility with u(x) >= x")
    return values


def _hits_and_sizes(y_true, y_set, labels=None, empty="error") -> tuple[np.ndarray, np.ndarray, int]:
    labels, matrix, sizes = check_targets_and_sets(y_true, y_set, labels=labels, empty=empty)
    hits = matrix[np.arange(labels.size), labels]
    return hits, sizes, matrix.shape[1]


def discounted_accuracy_scores(y_true, y_set, *, labels=None, empty: str = "error") -> np.ndarray:
    """Per-instance discounted accuracy :math:`\\mathbb{1}[y \\in Y]/|Y|` (Theorem 1), shape (n,).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        The actual classes: indices 0..K-1, or labels with ``labels=``.
    y_set : array-like of bool, shape (n, K)
        The predicted sets, one row per instance, one column per class.
    labels : array-like of shape (K,), default None
        The classes in the order of the columns of ``y_set`` (a classifier's ``classes_``).
    empty : {"error", "miss", "vacuous"}, default "error"
        How an empty predicted set is read.

    Examples
    --------
    >>> y_true = ["a", "b", "a", "c"]
    >>> y_set = [[1, 0, 0], [1, 1, 0], [0, 1, 1], [1, 1, 1]]
    >>> discounted_accuracy_scores(y_true, y_set, labels=["a", "b", "c"]).round(3).tolist()
    [1.0, 0.5, 0.0, 0.333]
    """
    hits, sizes, _ = _hits_and_sizes(y_true, y_set, labels, empty)
    return np.divide(hits, sizes, out=np.zeros(sizes.shape), where=sizes > 0)


def utility_discounted_accuracy_scores(y_true, y_set, u=0.65, *, labels=None, empty: str = "error") -> np.ndarray:
    """Per-instance utility-discounted accuracy :math:`u(\\mathbb{1}[y \\in Y]/|Y|)`, shape (n,).

    ``u`` is u(0.5) of the quadratic utility (0.65 and 0.8 are the paper's u65 and u80; 0.5
    gives discounted accuracy) or a callable utility with u(0) = 0 and u(1) = 1.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        The actual classes: indices 0..K-1, or labels with ``labels=``.
    y_set : array-like of bool, shape (n, K)
        The predicted sets, one row per instance, one column per class.
    u : float or callable, default 0.65
    labels : array-like of shape (K,), default None
        The classes in the order of the columns of ``y_set`` (a classifier's ``classes_``).
    empty : {"error", "miss", "vacuous"}, default "error"
        How an empty predicted set is read.

    Examples
    --------
    >>> y_true = ["a", "b", "a", "c"]
    >>> y_set = [[1, 0, 0], [1, 1, 0], [0, 1, 1], [1, 1, 1]]
    >>> utility_discounted_accuracy_scores(y_true, y_set, u=0.65, labels=["a", "b", "c"]).round(3).tolist()
    [1.0, 0.65, 0.0, 0.467]
    """
    hits, sizes, n_classes = _hits_and_sizes(y_true, y_set, labels, empty)
    table = _utility_table(u, n_classes)
    return np.where(hits, table[sizes], table[0])


def f_beta_set_scores(y_true, y_set, beta: float = 1.0, *, labels=None, empty: str = "error") -> np.ndarray:
    """Per-instance F-beta of a set (Section 9.3): :math:`(1+\\beta^2)\\mathbb{1}[y\\in Y]/(\\beta^2+|Y|)`.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        The actual classes: indices 0..K-1, or labels with ``labels=``.
    y_set : array-like of bool, shape (n, K)
        The predicted sets, one row per instance, one column per class.
    beta : float, default 1.0
        Weight of recall against precision (> 0).
    labels : array-like of shape (K,), default None
        The classes in the order of the columns of ``y_set`` (a classifier's ``classes_``).
    empty : {"error", "miss", "vacuous"}, default "error"
        How an empty predicted set is read.

    Examples
    --------
    >>> y_true = ["a", "b", "a", "c"]
    >>> y_set = [[1, 0, 0], [1, 1, 0], [0, 1, 1], [1, 1, 1]]
    >>> f_beta_set_scores(y_true, y_set, labels=["a", "b", "c"]).round(3).tolist()
    [1.0, 0.667, 0.0, 0.5]
    """
    check_scalar(beta, "beta", low=0.0, low_inclusive=False)
    hits, sizes, _ = _hits_and_sizes(y_true, y_set, labels, empty)
    return (1.0 + beta**2) * hits / (beta**2 + sizes)


def recall_set_scores(y_true, y_set, *, labels=None, empty: str = "error") -> np.ndarray:
    """Per-instance recall of a set: 1 when the actual class is in the set, else 0 (Section 9.3).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        The actual classes: indices 0..K-1, or labels with ``labels=``.
    y_set : array-like of bool, shape (n, K)
        The predicted sets, one row per instance, one column per class.
    labels : array-like of shape (K,), default None
        The classes in the order of the columns of ``y_set`` (a classifier's ``classes_``).
    empty : {"error", "miss", "vacuous"}, default "error"
        How an empty predicted set is read.

    Examples
    --------
    >>> y_true = ["a", "b", "a", "c"]
    >>> y_set = [[1, 0, 0], [1, 1, 0], [0, 1, 1], [1, 1, 1]]
    >>> recall_set_scores(y_true, y_set, labels=["a", "b", "c"]).tolist()
    [1.0, 1.0, 0.0, 1.0]
    """
    hits, _, _ = _hits_and_sizes(y_true, y_set, labels, empty)
    return hits.astype(float)


def size_hit_counts(y_true, y_set, *, labels=None, empty: str = "error") -> np.ndarray:
    """(K + 1, 2) int64: how many instances have each set size 0..K, split by whether the set holds the actual class.

    Every measure of this module depends on an instance only through the size of Y and 1[y ∈ Y], so each
    mean below is a weighted sum of these counts: one compiled pass over the set matrix's bytes
    and the labels (``credalbook._kernels.size_hit_counts``).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        The actual classes: indices 0..K-1, or labels with ``labels=``.
    y_set : array-like of bool, shape (n, K)
        The predicted sets, one row per instance, one column per class.
    labels : array-like of shape (K,), default None
        The classes in the order of the columns of ``y_set`` (a classifier's ``classes_``).
    empty : {"error", "miss", "vacuous"}, default "error"
        How an empty predicted set is read.

    Examples
    --------
    >>> y_true = ["a", "b", "a", "c"]
    >>> y_set = [[1, 0, 0], [1, 1, 0], [0, 1, 1], [1, 1, 1]]
    >>> size_hit_counts(y_true, y_set, labels=["a", "b", "c"]).tolist()
    [[0, 0], [0, 1], [1, 1], [0, 1]]
    """
    from credalbook._kernels import size_hit_counts as count

    matrix = np.asarray(y_set)
    if empty != "error" or matrix.dtype != bool or matrix.ndim != 2 or 0 in matrix.shape:
        matrix = check_set_matrix(matrix, empty=empty)  # 0/1 values become booleans; anything else raises
    matrix = np.ascontiguousarray(matrix)
    targets = encode_targets(y_true, matrix.shape[1], labels)
    if targets.shape[0] != matrix.shape[0]:
        raise ValueError(f"y_true has {targets.shape[0]} instances but y_set has {matrix.shape[0]}")
    counts = count(matrix.view(np.uint8), targets)
    if counts[0].any() and empty == "error":
        check_set_matrix(matrix)  # raises, naming the first empty set
    return counts


def _mean(hit_values: np.ndarray, counts: np.ndarray, miss_value: float = 0.0) -> float:
    """Mean score from :func:`size_hit_counts`, a hit in a set of size k scoring ``hit_values[k]``."""
    hits = counts[:, 1]
    return float(((hit_values * hits).sum() + miss_value * (counts.sum() - hits.sum())) / counts.sum())


def _per_size(function, n_classes: int) -> np.ndarray:
    """``function(k)`` for set sizes k = 0..K (size 0 never occurs: its entry is 0)."""
    sizes = np.arange(n_classes + 1, dtype=float)
    return np.where(sizes > 0, function(np.maximum(sizes, 1.0)), 0.0)


def discounted_accuracy(y_true, y_set, *, labels=None, empty: str = "error") -> float:
    """Mean discounted accuracy (Theorem 1); equals the precision of the sets (Section 9.3).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        The actual classes: indices 0..K-1, or labels with ``labels=``.
    y_set : array-like of bool, shape (n, K)
        The predicted sets, one row per instance, one column per class.
    labels : array-like of shape (K,), default None
        The classes in the order of the columns of ``y_set`` (a classifier's ``classes_``).
    empty : {"error", "miss", "vacuous"}, default "error"
        How an empty predicted set is read.

    Examples
    --------
    >>> discounted_accuracy(["a", "b", "c"], [[1, 0, 0], [1, 1, 0], [0, 0, 0]], labels=["a", "b", "c"], empty="miss")
    0.5
    """
    counts = size_hit_counts(y_true, y_set, labels=labels, empty=empty)
    return _mean(_per_size(lambda k: 1.0 / k, counts.shape[0] - 1), counts)


def utility_discounted_accuracy(y_true, y_set, u=0.65, *, labels=None, empty: str = "error") -> float:
    """Mean utility-discounted accuracy :math:`\\hat E[u(h)]` (Eq. (1)); see the ``*_scores`` variant.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        The actual classes: indices 0..K-1, or labels with ``labels=``.
    y_set : array-like of bool, shape (n, K)
        The predicted sets, one row per instance, one column per class.
    u : float or callable, default 0.65
        u(0.5) of the quadratic utility (0.65: u65, 0.8: u80), or a utility with u(0) = 0 and u(1) = 1.
    labels : array-like of shape (K,), default None
        The classes in the order of the columns of ``y_set`` (a classifier's ``classes_``).
    empty : {"error", "miss", "vacuous"}, default "error"
        How an empty predicted set is read.

    Examples
    --------
    >>> round(utility_discounted_accuracy([0, 1], [[True, True], [False, True]], u=0.65), 3)
    0.825
    """
    counts = size_hit_counts(y_true, y_set, labels=labels, empty=empty)
    table = _utility_table(u, counts.shape[0] - 1)
    return _mean(np.r_[0.0, table[1:]], counts, miss_value=table[0])


def f_beta_set(y_true, y_set, beta: float = 1.0, *, labels=None, empty: str = "error") -> float:
    """Mean F-beta of the predicted sets (Section 9.3).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        The actual classes: indices 0..K-1, or labels with ``labels=``.
    y_set : array-like of bool, shape (n, K)
        The predicted sets, one row per instance, one column per class.
    beta : float, default 1.0
        Weight of recall against precision (> 0).
    labels : array-like of shape (K,), default None
        The classes in the order of the columns of ``y_set`` (a classifier's ``classes_``).
    empty : {"error", "miss", "vacuous"}, default "error"
        How an empty predicted set is read.

    Examples
    --------
    >>> y_true = ["a", "b", "a", "c"]
    >>> y_set = [[1, 0, 0], [1, 1, 0], [0, 1, 1], [1, 1, 1]]
    >>> round(f_beta_set(y_true, y_set, labels=["a", "b", "c"]), 3)
    0.542
    """
    check_scalar(beta, "beta", low=0.0, low_inclusive=False)
    counts = size_hit_counts(y_true, y_set, labels=labels, empty=empty)
    return _mean(_per_size(lambda k: (1.0 + beta**2) / (beta**2 + k), counts.shape[0] - 1), counts)


def recall_set(y_true, y_set, *, labels=None, empty: str = "error") -> float:
    """Fraction of predicted sets that contain the actual class.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        The actual classes: indices 0..K-1, or labels with ``labels=``.
    y_set : array-like of bool, shape (n, K)
        The predicted sets, one row per instance, one column per class.
    labels : array-like of shape (K,), default None
        The classes in the order of the columns of ``y_set`` (a classifier's ``classes_``).
    empty : {"error", "miss", "vacuous"}, default "error"
        How an empty predicted set is read.

    Examples
    --------
    >>> y_true = ["a", "b", "a", "c"]
    >>> y_set = [[1, 0, 0], [1, 1, 0], [0, 1, 1], [1, 1, 1]]
    >>> recall_set(y_true, y_set, labels=["a", "b", "c"])
    0.75
    """
    counts = size_hit_counts(y_true, y_set, labels=labels, empty=empty)
    return _mean(_per_size(np.ones_like, counts.shape[0] - 1), counts)


def determinacy(y_set, *, empty: str = "error") -> float:
    """Fraction of determinate (single-class) predictions (an empty set is not one).

    Parameters
    ----------
    y_set : array-like of bool, shape (n, K)
        The predicted sets.
    empty : {"error", "miss", "vacuous"}, default "error"
        How an empty predicted set is read.

    Examples
    --------
    >>> determinacy([[1, 0, 0], [1, 1, 0], [0, 1, 1], [1, 1, 1]])
    0.25
    """
    return float((set_sizes(y_set, empty=empty) == 1).mean())


def average_set_size(y_set, *, empty: str = "error") -> float:
    """Mean number of predicted classes per instance (an empty set counts 0 under ``empty="miss"``).

    Parameters
    ----------
    y_set : array-like of bool, shape (n, K)
        The predicted sets.
    empty : {"error", "miss", "vacuous"}, default "error"
        How an empty predicted set is read.

    Examples
    --------
    >>> average_set_size([[1, 0, 0], [1, 1, 0], [0, 1, 1], [1, 1, 1]])
    2.0
    >>> average_set_size([[1, 0], [0, 0]], empty="miss")
    0.5
    """
    return float(set_sizes(y_set, empty=empty).mean())


def single_accuracy(y_true, y_set, *, labels=None, empty: str = "error") -> float:
    """Accuracy on the determinate predictions; ``nan`` when there is none (undefined, as in JNCC2).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        The actual classes: indices 0..K-1, or labels with ``labels=``.
    y_set : array-like of bool, shape (n, K)
        The predicted sets, one row per instance, one column per class.
    labels : array-like of shape (K,), default None
        The classes in the order of the columns of ``y_set`` (a classifier's ``classes_``).
    empty : {"error", "miss", "vacuous"}, default "error"
        How an empty predicted set is read.

    Examples
    --------
    >>> single_accuracy(["a", "b", "b"], [[1, 0], [1, 0], [1, 1]], labels=["a", "b"])
    0.5
    """
    counts = size_hit_counts(y_true, y_set, labels=labels, empty=empty)
    determinate = counts[1].sum()
    return float(counts[1, 1] / determinate) if determinate else float("nan")


def set_accuracy(y_true, y_set, *, labels=None, empty: str = "error") -> float:
    """Fraction of indeterminate predictions containing the actual class; ``nan`` when there is none.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        The actual classes: indices 0..K-1, or labels with ``labels=``.
    y_set : array-like of bool, shape (n, K)
        The predicted sets, one row per instance, one column per class.
    labels : array-like of shape (K,), default None
        The classes in the order of the columns of ``y_set`` (a classifier's ``classes_``).
    empty : {"error", "miss", "vacuous"}, default "error"
        How an empty predicted set is read.

    Examples
    --------
    >>> y_true = ["a", "b", "a", "c"]
    >>> y_set = [[1, 0, 0], [1, 1, 0], [0, 1, 1], [1, 1, 1]]
    >>> round(set_accuracy(y_true, y_set, labels=["a", "b", "c"]), 3)
    0.667
    """
    counts = size_hit_counts(y_true, y_set, labels=labels, empty=empty)
    indeterminate = counts[2:].sum()
    return float(counts[2:, 1].sum() / indeterminate) if indeterminate else float("nan")


def set_metrics(y_true, y_set, utilities=(0.65, 0.8), beta: float = 1.0, *, labels=None,
                empty: str = "error") -> dict[str, float]:
    """Every aggregate set measure of this module from one pass over the sets (:func:`size_hit_counts`).

    Keys: ``discounted_accuracy``, ``u{100 u(0.5)}`` for each of ``utilities`` (u(0.5) values, e.g.
    ``u65``), ``f_beta``, ``recall``, ``determinacy``, ``average_set_size``, ``single_accuracy``,
    ``set_accuracy``; each equals the function of the same name.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        The actual classes: indices 0..K-1, or labels with ``labels=``.
    y_set : array-like of bool, shape (n, K)
        The predicted sets, one row per instance, one column per class.
    utilities : tuple of float
        The u(0.5) values of the quadratic utilities to score, (0.65, 0.8) by default.
    beta : float, default 1.0
    labels : array-like of shape (K,), default None
        The classes in the order of the columns of ``y_set`` (a classifier's ``classes_``).
    empty : {"error", "miss", "vacuous"}, default "error"
        How an empty predicted set is read.

    Examples
    --------
    >>> y_true = ["a", "b", "a", "c"]
    >>> y_set = [[1, 0, 0], [1, 1, 0], [0, 1, 1], [1, 1, 1]]
    >>> scores = set_metrics(y_true, y_set, labels=["a", "b", "c"])
    >>> {name: round(value, 3) for name, value in scores.items() if name in ("u65", "u80", "average_set_size")}
    {'u65': 0.529, 'u80': 0.6, 'average_set_size': 2.0}
    """
    check_scalar(beta, "beta", low=0.0, low_inclusive=False)
    counts = size_hit_counts(y_true, y_set, labels=labels, empty=empty)
    n_classes, total, by_size = counts.shape[0] - 1, counts.sum(), counts.sum(axis=1)
    out = {"discounted_accuracy": _mean(_per_size(lambda k: 1.0 / k, n_classes), counts)}
    for u in utilities:
        table = _utility_table(u, n_classes)
        out[f"u{round(100 * u)}"] = _mean(np.r_[0.0, table[1:]], counts, miss_value=table[0])
    out["f_beta"] = _mean(_per_size(lambda k: (1.0 + beta**2) / (beta**2 + k), n_classes), counts)
    out["recall"] = _mean(_per_size(np.ones_like, n_classes), counts)
    out["determinacy"] = float(by_size[1] / total)
    out["average_set_size"] = float((np.arange(n_classes + 1) * by_size).sum() / total)
    out["single_accuracy"] = float(counts[1, 1] / by_size[1]) if by_size[1] else float("nan")
    out["set_accuracy"] = float(counts[2:, 1].sum() / by_size[2:].sum()) if by_size[2:].sum() else float("nan")
    return out


def certainty_equivalent(y_true, y_set, u=0.65, *, labels=None, empty: str = "error") -> float:
    r"""The certainty equivalent :math:`u^{-1}(\hat E[u(h)])` (Section 5): the *sure*
    discounted-accuracy reward valued the same as the classifier's uncertain one.

    By Jensen's inequality it is at most the discounted accuracy for a concave ``u``; for a
    precise classifier of accuracy A it is :math:`u^{-1}(A) \le A`. The inverse is taken on
    the increasing branch of ``u`` through the origin, except that the value u(1) = 1 maps to
    1: for u(0.5) > 0.75 the quadratic utility is not monotone near 1 (u80 already reaches 1
    at x = 5/6), so a perfect classifier scores 1 while a nearly perfect one scores below 5/6.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        The actual classes: indices 0..K-1, or labels with ``labels=``.
    y_set : array-like of bool, shape (n, K)
        The predicted sets, one row per instance, one column per class.
    u : float or callable, default 0.65
        u(0.5) of the quadratic utility, or a utility with u(0) = 0 and u(1) = 1.
    labels : array-like of shape (K,), default None
        The classes in the order of the columns of ``y_set`` (a classifier's ``classes_``).
    empty : {"error", "miss", "vacuous"}, default "error"
        How an empty predicted set is read.

    Examples
    --------
    A classifier always returning both classes of two has discounted accuracy 1/2, and 1/2 for sure:

    >>> certainty_equivalent([0, 1], [[1, 1], [1, 1]], u=0.65)
    0.5
    >>> y_true = ["a", "b", "a", "c"]
    >>> y_set = [[1, 0, 0], [1, 1, 0], [0, 1, 1], [1, 1, 1]]
    >>> round(certainty_equivalent(y_true, y_set, labels=["a", "b", "c"]), 3)
    0.387
    """
    from scipy.optimize import brentq  # imported on first use: scipy.optimize is slow to import

    value = utility_discounted_accuracy(y_true, y_set, u, labels=labels, empty=empty)
    if abs(value - 1.0) <= 1e-12:
        return 1.0
    utility = quadratic_utility(u) if not callable(u) else u
    if isinstance(utility, QuadraticUtility):
        return float(utility.inverse(value))
    return float(brentq(lambda x: float(utility(np.asarray(x))) - value, 0.0, 1.0, xtol=1e-14))
