"""The probabilistic confusion matrix and the certainty ratio (Aguilar-Ruiz 2025, ref 003 of the book).

Notation of the paper (Section 3-6): for n test instances and k classes,

- ``T`` (n, k) ground-truth matrix, one-hot rows (Def. 2, Eq. 3);
- ``Q`` (n, k) probabilistic prediction matrix, rows are the classifier's probabilities (Def. 5, Eq. 7);
- ``P`` (n, k) prediction matrix, the one-hot of each row's predicted class (Def. 3, Eq. 5);
- ``CM = T^T P`` the confusion matrix (Def. 4, Eq. 6), ``CM* = T^T Q`` the probabilistic
  confusion matrix (Def. 6, Eq. 8); rows are true classes, columns predicted classes;
- ``Q = Q+ + Q-`` (Def. 7, Eqs. 9-10): ``Q+`` keeps each row's probability of the predicted
  class, ``Q-`` the others; ``CM* = S + U`` with ``S = T^T Q+`` the certainty matrix and
  ``U = T^T Q-`` the uncertainty matrix (Def. 8-10, Eq. 11; the paper calls S "V");
- a measure ``psi`` of a k x k matrix (Def. 11-13) is evaluated on CM, CM*, S and U; the
  certainty ratio is ``C = psi(S) / (psi(S) + psi(U))`` (Def. 15, Eq. 21) and the
  probabilistic divergence ``d = ||CM - CM*||_F / n`` (Def. 14, Eq. 20).

Ties. The predicted class of a row is its **first** maximum (``numpy.argmax``, the lowest class
index), so that ``Q+`` is non-zero exactly where ``P`` is one and ``CM`` is the binarised
``T^T Q+`` as the paper states below Example 7. Eq. (9) read literally (``q_ij = max_j q_ij``)
would put every tied maximum into ``Q+``; ``ties="all"`` gives that reading, under which
``Q+`` no longer matches ``P``.

Zero denominators. A measure whose denominator is zero (for instance any measure of the
uncertainty matrix ``U = 0`` of a classifier that outputs 0/1 probabilities) takes the value
``zero_division`` (default 0, the value the paper prints in Table 4, where
``Acc*_U = 0.000`` and ``C = 100 %``); ``zero_division="raise"`` raises instead. The same
rule applies to the certainty ratio when ``psi(S) + psi(U) = 0``.

MCP and IMCP (Aguilar-Ruiz & Michalak 2022, 2024; the book's notes ``algorithms.md``): each
instance scores ``phi_i = 1 - H(t_i, q_i)``, one minus the Hellinger distance between the
one-hot truth and the probabilities, ``H(t, q) = ||sqrt(t) - sqrt(q)||_2 / sqrt(2) =
sqrt(1 - sqrt(q_y))``. The scores are sorted ascending (ties by class label); MCP places them
at ``x = i/(n-1)``, IMCP gives instance i the width ``1/(K n_{y_i})`` and places it at the
middle of its width, adds the end points ``(0, phi_1)`` and ``(1, phi_n)``; the areas are
trapezoid sums.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from credalbook._validation import check_consistent_length, check_labels, check_probabilities, check_scalar

__all__ = ["TIES", "MEASURES", "ground_truth_matrix", "predicted_classes", "prediction_matrix", "split_probabilities",
           "confusion_matrix", "probabilistic_confusion_matrix", "certainty_decomposition", "accuracy_of",
           "precision_per_class", "recall_per_class", "f1_per_class", "mcc_of", "measure_of", "ratio",
           "certainty_ratio", "probabilistic_divergence", "AccuracyDecomposition", "accuracy_decomposition",
           "certainty_report", "measure_table", "hellinger_scores", "mcp_curve", "imcp_curve", "mcp_score",
           "imcp_score", "brier_score", "log_loss", "expected_calibration_error", "reliability_table"]

#: How ties of the top probability count in the certainty decomposition (the first class only, or all tied classes).
TIES = ("first", "all")


# ----------------------------------------------------------------------------- validation
def _check_inputs(y_true, proba, atol: float = 1e-6) -> tuple[np.ndarray, np.ndarray]:
    """``y_true`` as class indices within the columns of ``proba``, rows of ``proba`` probability vectors."""
    q = check_probabilities(proba, "proba", atol=atol)
    y = check_labels(y_true, n_classes=q.shape[1], name="y_true")
    check_consistent_length(("y_true", y), ("proba", q))
    return y, q


def _check_ties(ties: str) -> str:
    if ties not in TIES:
        raise ValueError(f"ties must be one of {TIES}, got {ties!r}")
    return ties


def _check_zero_division(zero_division):
    if isinstance(zero_division, str):
        if zero_division != "raise":
            raise ValueError(f"zero_division must be a number or 'raise', got {zero_division!r}")
        return zero_division
    if isinstance(zero_division, bool) or not isinstance(zero_division, (int, float)) or not np.isfinite(zero_division):
        raise ValueError(f"zero_division must be a finite number or 'raise', got {zero_division!r}")
    return float(zero_division)


def _check_square(matrix, name: str = "matrix") -> np.ndarray:
    m = np.asarray(matrix, dtype=float)
    if m.ndim != 2 or m.shape[0] != m.shape[1] or m.shape[0] < 2:
        raise ValueError(f"{name} must be a square k x k matrix with k >= 2, got shape {m.shape}")
    if not np.all(np.isfinite(m)):
        raise ValueError(f"{name} contains NaN or infinite values")
    if np.any(m < -1e-12):
        raise ValueError(f"{name} has negative entries: a (probabilistic) confusion matrix is non-negative")
    return np.maximum(m, 0.0)


# ----------------------------------------------------------------------------- matrices
def ground_truth_matrix(y_true, n_classes: int) -> np.ndarray:
    """T (n, k): one-hot rows of the class indices ``y_true`` (Def. 2, Eq. 3).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class indices 0..k-1.
    n_classes : int
        k >= 2.

    Examples
    --------
    >>> ground_truth_matrix([0, 0, 1, 2], 3).astype(int).tolist()
    [[1, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]
    """
    if isinstance(n_classes, bool) or not isinstance(n_classes, (int, np.integer)) or n_classes < 2:
        raise ValueError(f"n_classes must be an integer >= 2, got {n_classes!r}")
    y = check_labels(y_true, n_classes=int(n_classes), name="y_true")
    return np.eye(int(n_classes))[y]


def predicted_classes(proba, *, atol: float = 1e-6) -> np.ndarray:
    """Predicted class of each row of Q, its first maximum (the book's tie rule), shape (n,).

    Parameters
    ----------
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    >>> predicted_classes([[0.4, 0.3, 0.3], [0.1, 0.8, 0.1], [0.5, 0.5, 0.0]]).tolist()
    [0, 1, 0]
    """
    q = check_probabilities(proba, "proba", atol=atol)
    return np.argmax(q, axis=1)


def prediction_matrix(proba, *, atol: float = 1e-6) -> np.ndarray:
    """P (n, k): one-hot of each row's predicted class (Def. 3, Eq. 5).

    Parameters
    ----------
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    >>> prediction_matrix([[0.4, 0.3, 0.3], [0.1, 0.8, 0.1]]).astype(int).tolist()
    [[1, 0, 0], [0, 1, 0]]
    """
    q = check_probabilities(proba, "proba", atol=atol)
    return np.eye(q.shape[1])[np.argmax(q, axis=1)]


def split_probabilities(proba, *, ties: str = "first", atol: float = 1e-6) -> tuple[np.ndarray, np.ndarray]:
    """(Q+, Q-), both (n, k), with Q = Q+ + Q- (Def. 7, Eqs. 9-10); see the module note on ties.

    Parameters
    ----------
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    ties : {"first", "all"}, default "first"
        Whether only a row's first maximum or every tied maximum is decisive.
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    The first two rows of the paper's Example 7:

    >>> decisive, other = split_probabilities([[0.9, 0.1, 0], [0.8, 0, 0.2]])
    >>> decisive.tolist(), other.tolist()
    ([[0.9, 0.0, 0.0], [0.8, 0.0, 0.0]], [[0.0, 0.1, 0.0], [0.0, 0.0, 0.2]])
    """
    q = check_probabilities(proba, "proba", atol=atol)
    mask = _decisive_mask(q, _check_ties(ties))
    return np.where(mask, q, 0.0), np.where(mask, 0.0, q)


def _decisive_mask(q: np.ndarray, ties: str) -> np.ndarray:
    if ties == "all":
        return q == q.max(axis=1, keepdims=True)
    mask = np.zeros(q.shape, dtype=bool)
    mask[np.arange(q.shape[0]), np.argmax(q, axis=1)] = True
    return mask


def _class_sums(y: np.ndarray, weights: np.ndarray, k: int) -> np.ndarray:
    """T^T W for one-hot T of ``y``: the (k, k) column sums of ``weights`` within each true class."""
    cells = (y[:, None] * k + np.arange(k)).ravel()
    return np.bincount(cells, weights=weights.ravel(), minlength=k * k).reshape(k, k)


def confusion_matrix(y_true, proba, *, atol: float = 1e-6) -> np.ndarray:
    """CM = T^T P (k, k), counts of (true class, predicted class) (Def. 4, Eq. 6).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class indices 0..k-1.
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    The six instances of the paper's Examples 2 and 5 (classes A, B, C as 0, 1, 2):

    >>> y_true = [0, 0, 0, 1, 1, 2]
    >>> proba = [[0.9, 0.1, 0], [0.8, 0, 0.2], [0.6, 0.1, 0.3], [0.4, 0.3, 0.3], [0.1, 0.8, 0.1], [0, 0.9, 0.1]]
    >>> confusion_matrix(y_true, proba).astype(int).tolist()  # Example 4
    [[3, 0, 0], [1, 1, 0], [0, 1, 0]]
    """
    y, q = _check_inputs(y_true, proba, atol)
    k = q.shape[1]
    return np.bincount(y * k + np.argmax(q, axis=1), minlength=k * k).reshape(k, k).astype(float)


def probabilistic_confusion_matrix(y_true, proba, *, atol: float = 1e-6) -> np.ndarray:
    """CM* = T^T Q (k, k): summed probabilities per (true class, class) (Def. 6, Eq. 8).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class indices 0..k-1.
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    The six instances of the paper's Examples 2 and 5 (classes A, B, C as 0, 1, 2):

    >>> y_true = [0, 0, 0, 1, 1, 2]
    >>> proba = [[0.9, 0.1, 0], [0.8, 0, 0.2], [0.6, 0.1, 0.3], [0.4, 0.3, 0.3], [0.1, 0.8, 0.1], [0, 0.9, 0.1]]
    >>> probabilistic_confusion_matrix(y_true, proba).round(3).tolist()  # Example 6
    [[2.3, 0.2, 0.5], [0.5, 1.1, 0.4], [0.0, 0.9, 0.1]]
    """
    y, q = _check_inputs(y_true, proba, atol)
    return _class_sums(y, q, q.shape[1])


def _matrices(y: np.ndarray, q: np.ndarray, ties: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(CM, S, U) with one pass over Q for CM* and one over n for S and CM; U = CM* - S.

    The subtraction is exact where U has no mass (both sums add the same terms in the same
    order) and is clipped at 0 against rounding.
    """
    n, k = q.shape
    star = _class_sums(y, q, k)
    predicted = np.argmax(q, axis=1)
    cells = y * k + predicted
    crisp = np.bincount(cells, minlength=k * k).reshape(k, k).astype(float)
    if ties == "first":
        top = q[np.arange(n), predicted]
        certainty = np.bincount(cells, weights=top, minlength=k * k).reshape(k, k)
    else:
        certainty = _class_sums(y, np.where(_decisive_mask(q, ties), q, 0.0), k)
    return crisp, certainty, np.maximum(star - certainty, 0.0)


def certainty_decomposition(y_true, proba, *, ties: str = "first", atol: float = 1e-6) -> tuple[np.ndarray, np.ndarray]:
    """(S, U), both (k, k): S = T^T Q+ (certainty), U = T^T Q- (uncertainty), CM* = S + U (Def. 8, Eq. 11).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class indices 0..k-1.
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    ties : {"first", "all"}, default "first"
        Whether only a row's first maximum or every tied maximum is decisive.
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    The six instances of the paper's Examples 2 and 5 (classes A, B, C as 0, 1, 2):

    >>> y_true = [0, 0, 0, 1, 1, 2]
    >>> proba = [[0.9, 0.1, 0], [0.8, 0, 0.2], [0.6, 0.1, 0.3], [0.4, 0.3, 0.3], [0.1, 0.8, 0.1], [0, 0.9, 0.1]]
    >>> S, U = certainty_decomposition(y_true, proba)  # Example 8
    >>> S.round(3).tolist()
    [[2.3, 0.0, 0.0], [0.4, 0.8, 0.0], [0.0, 0.9, 0.0]]
    >>> U.round(3).tolist()
    [[0.0, 0.2, 0.5], [0.1, 0.3, 0.4], [0.0, 0.0, 0.1]]
    """
    y, q = _check_inputs(y_true, proba, atol)
    return _matrices(y, q, _check_ties(ties))[1:]


# ----------------------------------------------------------------------------- measures of a k x k matrix
def _divide(numerator, denominator, zero_division):
    """numerator / denominator elementwise, ``zero_division`` where the denominator is 0."""
    numerator = np.asarray(numerator, dtype=float)
    denominator = np.asarray(denominator, dtype=float)
    zero = denominator <= 0
    if np.any(zero) and zero_division == "raise":
        raise ValueError("a measure has a zero denominator (empty matrix, class or prediction column); "
                         "pass zero_division=<number> to give it a value")
    safe = np.where(zero, 1.0, denominator)
    return np.where(zero, 0.0 if zero_division == "raise" else zero_division, numerator / safe)


def accuracy_of(matrix, *, zero_division=0.0) -> float:
    """trace / total of a k x k matrix (Example 9; Eqs. 18-19 on S and U).

    Parameters
    ----------
    matrix : array-like of shape (k, k)
        Rows true classes, columns predicted classes (CM, CM*, S or U).
    zero_division : float or "raise", default 0.0
        The value of a measure whose denominator is zero.

    Examples
    --------
    The accuracy 4/6 of the paper's Example 4 and Acc*_S = 3.1/4.4 of Example 13:

    >>> round(accuracy_of([[3, 0, 0], [1, 1, 0], [0, 1, 0]]), 3)
    0.667
    >>> round(accuracy_of([[2.3, 0, 0], [0.4, 0.8, 0], [0, 0.9, 0]]), 3)
    0.705
    """
    m = _check_square(matrix)
    return float(_divide(np.trace(m), m.sum(), _check_zero_division(zero_division)))


def precision_per_class(matrix, *, zero_division=0.0) -> np.ndarray:
    """m_cc / column sum c, shape (k,): columns are predicted classes.

    Parameters
    ----------
    matrix : array-like of shape (k, k)
        Rows true classes, columns predicted classes (CM, CM*, S or U).
    zero_division : float or "raise", default 0.0
        The value of a measure whose denominator is zero.

    Examples
    --------
    >>> precision_per_class([[3, 0, 0], [1, 1, 0], [0, 1, 0]]).round(3).tolist()
    [0.75, 0.5, 0.0]
    """
    m = _check_square(matrix)
    return _divide(np.diag(m), m.sum(axis=0), _check_zero_division(zero_division))


def recall_per_class(matrix, *, zero_division=0.0) -> np.ndarray:
    """m_cc / row sum c, shape (k,): rows are true classes.

    Parameters
    ----------
    matrix : array-like of shape (k, k)
        Rows true classes, columns predicted classes (CM, CM*, S or U).
    zero_division : float or "raise", default 0.0
        The value of a measure whose denominator is zero.

    Examples
    --------
    >>> recall_per_class([[3, 0, 0], [1, 1, 0], [0, 1, 0]]).round(3).tolist()
    [1.0, 0.5, 0.0]
    """
    m = _check_square(matrix)
    return _divide(np.diag(m), m.sum(axis=1), _check_zero_division(zero_division))


def f1_per_class(matrix, *, zero_division=0.0) -> np.ndarray:
    """2 m_cc / (row sum c + column sum c), shape (k,) (harmonic mean of precision and recall).

    Parameters
    ----------
    matrix : array-like of shape (k, k)
        Rows true classes, columns predicted classes (CM, CM*, S or U).
    zero_division : float or "raise", default 0.0
        The value of a measure whose denominator is zero.

    Examples
    --------
    >>> f1_per_class([[3, 0, 0], [1, 1, 0], [0, 1, 0]]).round(3).tolist()
    [0.857, 0.5, 0.0]
    """
    m = _check_square(matrix)
    return _divide(2 * np.diag(m), m.sum(axis=0) + m.sum(axis=1), _check_zero_division(zero_division))


def mcc_of(matrix, *, zero_division=0.0) -> float:
    """Multiclass Matthews correlation (Gorodkin's R_K) of a k x k matrix; in [-1, 1].

    Parameters
    ----------
    matrix : array-like of shape (k, k)
        Rows true classes, columns predicted classes (CM, CM*, S or U).
    zero_division : float or "raise", default 0.0
        The value of a measure whose denominator is zero.

    Examples
    --------
    >>> round(mcc_of([[3, 0, 0], [1, 1, 0], [0, 1, 0]]), 3)
    0.426
    >>> mcc_of([[2, 0], [0, 2]])
    1.0
    """
    m = _check_square(matrix)
    total, correct = m.sum(), np.trace(m)
    true, pred = m.sum(axis=1), m.sum(axis=0)
    numerator = correct * total - pred @ true
    denominator = np.sqrt(max(total**2 - pred @ pred, 0.0) * max(total**2 - true @ true, 0.0))
    return float(_divide(numerator, denominator, _check_zero_division(zero_division)))


def _macro(per_class: Callable) -> Callable:
    def macro(matrix, *, zero_division=0.0) -> float:
        return float(np.mean(per_class(matrix, zero_division=zero_division)))

    macro.__name__ = f"macro_{per_class.__name__.removesuffix('_per_class')}"
    macro.__doc__ = f"Unweighted mean over classes of :func:`{per_class.__name__}`."
    return macro


#: The measures psi of a confusion matrix, by name (Aguilar-Ruiz 2025, Def. 11-12).
MEASURES: dict[str, Callable] = {
    "accuracy": accuracy_of,
    "macro_precision": _macro(precision_per_class),
    "macro_recall": _macro(recall_per_class),
    "macro_f1": _macro(f1_per_class),
    "mcc": mcc_of,
}


def measure_of(matrix, measure="accuracy", *, zero_division=0.0) -> float:
    """psi(matrix) for a measure name of :data:`MEASURES` or a callable ``f(matrix) -> float`` (Def. 11-12).

    Parameters
    ----------
    matrix : array-like of shape (k, k)
        Rows true classes, columns predicted classes (CM, CM*, S or U).
    measure : str or callable, default "accuracy"
        A key of ``MEASURES`` or a function of the matrix.
    zero_division : float or "raise", default 0.0
        The value of a measure whose denominator is zero.

    Examples
    --------
    Acc* = 3.5/6 of the paper's Example 10:

    >>> round(measure_of([[2.3, 0.2, 0.5], [0.5, 1.1, 0.4], [0, 0.9, 0.1]], "accuracy"), 3)
    0.583
    """
    if callable(measure):
        value = float(measure(_check_square(matrix)))
        if not np.isfinite(value):
            raise ValueError(f"measure {getattr(measure, '__name__', measure)!r} returned {value}")
        return value
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {sorted(MEASURES)} or a callable, got {measure!r}")
    return MEASURES[measure](matrix, zero_division=zero_division)


def ratio(psi_s: float, psi_u: float, *, zero_division=0.0) -> float:
    """psi(S) / (psi(S) + psi(U)) (Eq. 21), ``zero_division`` (or an error) when the sum is 0.

    Parameters
    ----------
    psi_s : float
        The measure of the certainty matrix S.
    psi_u : float
        The measure of the uncertainty matrix U.
    zero_division : float or "raise", default 0.0
        The value of a measure whose denominator is zero.

    Examples
    --------
    >>> round(ratio(0.705, 0.25), 3)  # Example 13
    0.738
    """
    zero_division = _check_zero_division(zero_division)
    check_scalar(psi_s, "psi_s")
    check_scalar(psi_u, "psi_u")
    total = psi_s + psi_u
    if total == 0:
        if zero_division == "raise":
            raise ValueError("certainty ratio undefined: psi(S) + psi(U) = 0")
        return zero_division
    return float(psi_s / total)


def certainty_ratio(y_true, proba, measure="accuracy", *, ties: str = "first", zero_division=0.0,
                    atol: float = 1e-6) -> float:
    """C = psi(S) / (psi(S) + psi(U)) (Def. 15, Eq. 21); in [0, 1] for measures psi >= 0 (not for MCC).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class indices 0..k-1.
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    measure : str or callable, default "accuracy"
        A key of ``MEASURES`` or a function of a k x k matrix.
    ties : {"first", "all"}, default "first"
        Whether only a row's first maximum or every tied maximum is decisive.
    zero_division : float or "raise", default 0.0
        The value of a measure whose denominator is zero.
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    The six instances of the paper's Examples 2 and 5 (classes A, B, C as 0, 1, 2):

    >>> y_true = [0, 0, 0, 1, 1, 2]
    >>> proba = [[0.9, 0.1, 0], [0.8, 0, 0.2], [0.6, 0.1, 0.3], [0.4, 0.3, 0.3], [0.1, 0.8, 0.1], [0, 0.9, 0.1]]
    >>> round(certainty_ratio(y_true, proba), 3)  # Example 13
    0.738
    """
    s, u = certainty_decomposition(y_true, proba, ties=ties, atol=atol)
    return ratio(measure_of(s, measure, zero_division=zero_division),
                 measure_of(u, measure, zero_division=zero_division), zero_division=zero_division)


def probabilistic_divergence(y_true, proba, *, atol: float = 1e-6) -> float:
    """d(CM, CM*) = ||CM - CM*||_F / n (Def. 14, Eq. 20); at most sqrt(1 - 1/k), not 1 (see the book).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class indices 0..k-1.
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    The six instances of the paper's Examples 2 and 5 (classes A, B, C as 0, 1, 2):

    >>> y_true = [0, 0, 0, 1, 1, 2]
    >>> proba = [[0.9, 0.1, 0], [0.8, 0, 0.2], [0.6, 0.1, 0.3], [0.4, 0.3, 0.3], [0.1, 0.8, 0.1], [0, 0.9, 0.1]]
    >>> round(probabilistic_divergence(y_true, proba), 3)  # Example 12
    0.184
    """
    y, q = _check_inputs(y_true, proba, atol)
    k = q.shape[1]
    crisp = np.bincount(y * k + np.argmax(q, axis=1), minlength=k * k).reshape(k, k)
    return float(np.linalg.norm(crisp - _class_sums(y, q, k)) / y.size)


@dataclass(frozen=True)
class AccuracyDecomposition:
    """Acc* = lambda_S Acc*_S + lambda_U Acc*_U (Example 11, Eqs. 15-19) and the quantities of Tables 2-5.

    Examples
    --------
    >>> result = accuracy_decomposition([0, 1], [[0.75, 0.25], [0.5, 0.5]])
    >>> result.accuracy, result.probabilistic_accuracy
    (0.5, 0.625)
    """

    accuracy: float           # Acc = trace(CM) / n
    probabilistic_accuracy: float  # Acc* = trace(CM*) / n
    lambda_s: float           # sum(S) / n (Eq. 16)
    lambda_u: float           # sum(U) / n (Eq. 17)
    accuracy_s: float         # Acc*_S = trace(S) / sum(S) (Eq. 18)
    accuracy_u: float         # Acc*_U = trace(U) / sum(U) (Eq. 19), zero_division when U = 0
    divergence: float         # d(CM, CM*) (Eq. 20)
    certainty_ratio: float    # Acc*_S / (Acc*_S + Acc*_U) (Eq. 21 with psi = accuracy)

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def accuracy_decomposition(y_true, proba, *, ties: str = "first", zero_division=0.0,
                           atol: float = 1e-6) -> AccuracyDecomposition:
    """All accuracy quantities of the paper's Tables 2-5 from one pass over (y_true, proba).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class indices 0..k-1.
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    ties : {"first", "all"}, default "first"
        Whether only a row's first maximum or every tied maximum is decisive.
    zero_division : float or "raise", default 0.0
        The value of a measure whose denominator is zero.
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    The six instances of the paper's Examples 2 and 5 (classes A, B, C as 0, 1, 2):

    >>> y_true = [0, 0, 0, 1, 1, 2]
    >>> proba = [[0.9, 0.1, 0], [0.8, 0, 0.2], [0.6, 0.1, 0.3], [0.4, 0.3, 0.3], [0.1, 0.8, 0.1], [0, 0.9, 0.1]]
    >>> result = accuracy_decomposition(y_true, proba)  # Example 11
    >>> round(result.lambda_s, 3), round(result.accuracy_s, 3), round(result.lambda_u, 3), round(result.accuracy_u, 3)
    (0.733, 0.705, 0.267, 0.25)
    """
    y, q = _check_inputs(y_true, proba, atol)
    return _accuracy_decomposition(y, q, _check_ties(ties), zero_division)


def _accuracy_decomposition(y: np.ndarray, q: np.ndarray, ties: str, zero_division) -> AccuracyDecomposition:
    crisp, s, u = _matrices(y, q, ties)
    n = y.size
    star = s + u
    acc_s = accuracy_of(s, zero_division=zero_division)
    acc_u = accuracy_of(u, zero_division=zero_division)
    return AccuracyDecomposition(
        accuracy=float(np.trace(crisp) / n),
        probabilistic_accuracy=float(np.trace(star) / n),
        lambda_s=float(s.sum() / n),
        lambda_u=float(u.sum() / n),
        accuracy_s=acc_s,
        accuracy_u=acc_u,
        divergence=float(np.linalg.norm(crisp - star) / n),
        certainty_ratio=ratio(acc_s, acc_u, zero_division=zero_division),
    )


def certainty_report(y_true, proba, *, ties: str = "first", zero_division=0.0, atol: float = 1e-6) -> dict:
    """One row of the paper's Tables 2-5: the :class:`AccuracyDecomposition` fields plus ``imcp``.

    Validates once and shares the work, so that a 10^6 x 10 matrix takes about a second.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class indices 0..k-1.
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    ties : {"first", "all"}, default "first"
        Whether only a row's first maximum or every tied maximum is decisive.
    zero_division : float or "raise", default 0.0
        The value of a measure whose denominator is zero.
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    The six instances of the paper's Examples 2 and 5 (classes A, B, C as 0, 1, 2):

    >>> y_true = [0, 0, 0, 1, 1, 2]
    >>> proba = [[0.9, 0.1, 0], [0.8, 0, 0.2], [0.6, 0.1, 0.3], [0.4, 0.3, 0.3], [0.1, 0.8, 0.1], [0, 0.9, 0.1]]
    >>> report = certainty_report(y_true, proba)
    >>> {name: round(report[name], 3) for name in ("probabilistic_accuracy", "divergence", "certainty_ratio")}
    {'probabilistic_accuracy': 0.583, 'divergence': 0.184, 'certainty_ratio': 0.738}
    """
    y, q = _check_inputs(y_true, proba, atol)
    row = _accuracy_decomposition(y, q, _check_ties(ties), zero_division).as_dict()
    row["imcp"] = _trapezoid(*_imcp_curve(y, _hellinger(y, q), q.shape[1]))
    return row


def measure_table(y_true, proba, measures=("accuracy", "macro_precision", "macro_recall", "macro_f1", "mcc"), *,
                  ties: str = "first", zero_division=0.0, atol: float = 1e-6):
    """DataFrame: one row per measure psi with psi(CM), psi(CM*), psi(S), psi(U) and C = psi(S)/(psi(S)+psi(U)).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class indices 0..k-1.
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    measures : tuple of str or callable
        Keys of ``MEASURES`` or functions of a k x k matrix.
    ties : {"first", "all"}, default "first"
        Whether only a row's first maximum or every tied maximum is decisive.
    zero_division : float or "raise", default 0.0
        The value of a measure whose denominator is zero.
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    The six instances of the paper's Examples 2 and 5 (classes A, B, C as 0, 1, 2):

    >>> y_true = [0, 0, 0, 1, 1, 2]
    >>> proba = [[0.9, 0.1, 0], [0.8, 0, 0.2], [0.6, 0.1, 0.3], [0.4, 0.3, 0.3], [0.1, 0.8, 0.1], [0, 0.9, 0.1]]
    >>> table = measure_table(y_true, proba, measures=("accuracy",))
    >>> table.columns.tolist()
    ['measure', 'CM', 'CM*', 'S', 'U', 'certainty_ratio']
    >>> table.drop(columns="measure").round(3).iloc[0].tolist()
    [0.667, 0.583, 0.705, 0.25, 0.738]
    """
    import pandas as pd

    y, q = _check_inputs(y_true, proba, atol)
    crisp, s, u = _matrices(y, q, _check_ties(ties))
    rows = []
    for measure in measures:
        values = {name: measure_of(m, measure, zero_division=zero_division)
                  for name, m in (("CM", crisp), ("CM*", s + u), ("S", s), ("U", u))}
        values["certainty_ratio"] = ratio(values["S"], values["U"], zero_division=zero_division)
        rows.append({"measure": measure if isinstance(measure, str) else measure.__name__, **values})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------- MCP / IMCP
def hellinger_scores(y_true, proba, *, atol: float = 1e-6) -> np.ndarray:
    """phi_i = 1 - H(t_i, q_i), shape (n,), H the Hellinger distance between one-hot truth and probabilities.

    Evaluated from the definition ``||sqrt(t) - sqrt(q)||_2 / sqrt(2)`` over all k columns (equal
    to ``sqrt(1 - sqrt(q_y))``, the closed form the tests check), so that tied instances get
    bit-identical scores whichever of their other probabilities differ.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class indices 0..k-1.
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    >>> hellinger_scores([0, 1], [[1.0, 0.0], [0.25, 0.75]]).round(3).tolist()
    [1.0, 0.634]
    """
    return _checked_scores(y_true, proba, atol)[1]


def _hellinger(y: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The Hellinger scores of validated inputs, in one compiled pass (:func:`credalbook._kernels.checked_hellinger`)."""
    from credalbook._kernels import checked_hellinger

    phi = np.empty(y.size)
    checked_hellinger(np.ascontiguousarray(q, dtype=float), y, np.inf, phi)
    return phi


def _checked_scores(y_true, proba, atol: float) -> tuple[np.ndarray, np.ndarray, int]:
    """``(labels, Hellinger scores, K)``: the checks of ``_check_inputs`` and the scores in one pass over ``proba``.

    Invalid input is handed to ``_check_inputs``, which raises naming what is wrong.
    """
    from credalbook._kernels import checked_hellinger

    q = np.asarray(proba)
    if q.dtype != np.float64 or q.ndim != 2 or q.shape[1] < 2 or q.shape[0] == 0:
        y, q = _check_inputs(y_true, proba, atol)
        return y, _hellinger(y, q), q.shape[1]
    y = check_labels(y_true, n_classes=q.shape[1], name="y_true")
    check_consistent_length(("y_true", y), ("proba", q))
    phi = np.empty(y.size)
    if not checked_hellinger(np.ascontiguousarray(q), y, float(atol), phi):
        _check_inputs(y_true, proba, atol)
    return y, phi, q.shape[1]


def _trapezoid(x: np.ndarray, y: np.ndarray) -> float:
    return float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2.0))


def mcp_curve(y_true, proba, *, atol: float = 1e-6) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) of the MCP curve: sorted Hellinger scores at x = i/(n-1) (Aguilar-Ruiz & Michalak 2022).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class indices 0..k-1.
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    >>> x, y = mcp_curve([0, 1], [[1.0, 0.0], [0.5, 0.5]])
    >>> x.tolist(), y.round(3).tolist()
    ([0.0, 1.0], [0.459, 1.0])
    """
    y, phi, _ = _checked_scores(y_true, proba, atol)
    if y.size < 2:
        raise ValueError("y_true must hold at least two instances for an MCP curve (x = i/(n-1))")
    return np.arange(y.size) / (y.size - 1), np.sort(phi)


def imcp_curve(y_true, proba, *, atol: float = 1e-6) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) of the imbalanced MCP curve, n + 2 points (Aguilar-Ruiz & Michalak 2024).

    Instance i has width 1/(K n_{y_i}) (K = number of columns of ``proba``), sits at the middle
    of its width in ascending order of Hellinger score (ties by label), and the end points
    (0, phi_1) and (1, phi_n) are added.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class indices 0..k-1.
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    >>> x, y = imcp_curve([0, 0, 1], [[0.9, 0.1], [0.6, 0.4], [0.2, 0.8]])
    >>> x.round(3).tolist(), y.round(3).tolist()
    ([0.0, 0.125, 0.5, 0.875, 1.0], [0.525, 0.525, 0.675, 0.773, 0.773])
    """
    return _imcp_curve(*_checked_scores(y_true, proba, atol))


def _sorted_by_score(y: np.ndarray, phi: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Scores in ascending order, ties by label, and their labels: ``np.lexsort((y, phi))`` applied to
    both, by a counting sort on the labels and a radix sort on the scores' bytes
    (:func:`credalbook._kernels.sort_by_score_and_label`)."""
    from credalbook._kernels import sort_by_score_and_label

    scores, labels = np.empty(y.size), np.empty(y.size, dtype=np.int64)
    sort_by_score_and_label(np.ascontiguousarray(phi), y, k, scores, labels)
    return scores, labels


def _imcp_curve(y: np.ndarray, phi: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    sorted_phi, labels = _sorted_by_score(y, phi, k)
    counts = np.bincount(y, minlength=k)
    width = 1.0 / (k * counts[labels])
    x = np.cumsum(width) - width / 2
    return (np.concatenate(([0.0], x, [1.0])),
            np.concatenate((sorted_phi[:1], sorted_phi, sorted_phi[-1:])))


def mcp_score(y_true, proba, *, atol: float = 1e-6) -> float:
    """Area under the MCP curve by the trapezoid rule.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class indices 0..k-1.
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    The six instances of the paper's Examples 2 and 5 (classes A, B, C as 0, 1, 2):

    >>> y_true = [0, 0, 0, 1, 1, 2]
    >>> proba = [[0.9, 0.1, 0], [0.8, 0, 0.2], [0.6, 0.1, 0.3], [0.4, 0.3, 0.3], [0.1, 0.8, 0.1], [0, 0.9, 0.1]]
    >>> round(mcp_score(y_true, proba), 3)
    0.535
    """
    return _trapezoid(*mcp_curve(y_true, proba, atol=atol))


def imcp_score(y_true, proba, *, atol: float = 1e-6) -> float:
    """Area under the IMCP curve by the trapezoid rule (the paper's column "IMCP", Tables 2-6).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class indices 0..k-1.
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    The six instances of the paper's Examples 2 and 5 (classes A, B, C as 0, 1, 2):

    >>> y_true = [0, 0, 0, 1, 1, 2]
    >>> proba = [[0.9, 0.1, 0], [0.8, 0, 0.2], [0.6, 0.1, 0.3], [0.4, 0.3, 0.3], [0.1, 0.8, 0.1], [0, 0.9, 0.1]]
    >>> round(imcp_score(y_true, proba), 3)
    0.455
    """
    return _trapezoid(*imcp_curve(y_true, proba, atol=atol))


# ----------------------------------------------------------------------------- calibration (for the critical section)
def brier_score(y_true, proba, *, atol: float = 1e-6) -> float:
    """Multiclass Brier score: mean over instances of ||q_i - t_i||^2 (Brier 1950), in [0, 2].

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class indices 0..k-1.
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    The six instances of the paper's Examples 2 and 5 (classes A, B, C as 0, 1, 2):

    >>> y_true = [0, 0, 0, 1, 1, 2]
    >>> proba = [[0.9, 0.1, 0], [0.8, 0, 0.2], [0.6, 0.1, 0.3], [0.4, 0.3, 0.3], [0.1, 0.8, 0.1], [0, 0.9, 0.1]]
    >>> round(brier_score(y_true, proba), 3)
    0.463
    """
    y, q = _check_inputs(y_true, proba, atol)
    diff = q.copy()
    diff[np.arange(y.size), y] -= 1.0
    return float(np.mean(np.sum(diff * diff, axis=1)))


def log_loss(y_true, proba, *, eps: float = 1e-15, atol: float = 1e-6) -> float:
    """Mean of -log max(q_{i,y_i}, eps); ``eps`` keeps 0/1 probabilities finite (as scikit-learn's clipping did).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class indices 0..k-1.
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    eps : float, default 1e-15
        The smallest probability of the actual class, in (0, 0.5).
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    >>> round(log_loss([0, 1], [[0.5, 0.5], [0.2, 0.8]]), 3)
    0.458
    """
    if not (isinstance(eps, float) and 0 < eps < 0.5):
        raise ValueError(f"eps must be a float in (0, 0.5), got {eps!r}")
    y, q = _check_inputs(y_true, proba, atol)
    return float(-np.mean(np.log(np.maximum(q[np.arange(y.size), y], eps))))


def expected_calibration_error(y_true, proba, *, n_bins: int = 10, atol: float = 1e-6) -> float:
    """Confidence ECE: the absolute difference of accuracy and mean top probability in equal-width bins, weighted by bin share.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class indices 0..k-1.
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    n_bins : int, default 10
        The number of equal-width confidence bins.
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    The six instances of the paper's Examples 2 and 5 (classes A, B, C as 0, 1, 2):

    >>> y_true = [0, 0, 0, 1, 1, 2]
    >>> proba = [[0.9, 0.1, 0], [0.8, 0, 0.2], [0.6, 0.1, 0.3], [0.4, 0.3, 0.3], [0.1, 0.8, 0.1], [0, 0.9, 0.1]]
    >>> round(expected_calibration_error(y_true, proba), 3)
    0.333
    """
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise ValueError(f"n_bins must be a positive integer, got {n_bins!r}")
    table = reliability_table(y_true, proba, n_bins=n_bins, atol=atol)
    return float(np.sum(table["share"] * np.abs(table["accuracy"] - table["confidence"])))


def reliability_table(y_true, proba, *, n_bins: int = 10, atol: float = 1e-6):
    """DataFrame per non-empty confidence bin: bin, share, confidence (mean top probability), accuracy.

    Top-label reliability diagram (Naeini et al. 2015): the top probability of each row against
    whether its predicted class (first maximum) is right; bins are [0, 1/B), ..., [(B-1)/B, 1].

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class indices 0..k-1.
    proba : array-like of shape (n, k)
        The classifier's probabilities, rows summing to one.
    n_bins : int, default 10
        The number of equal-width confidence bins.
    atol : float, default 1e-6
        Tolerance on the row sums of ``proba``.

    Examples
    --------
    The six instances of the paper's Examples 2 and 5 (classes A, B, C as 0, 1, 2):

    >>> y_true = [0, 0, 0, 1, 1, 2]
    >>> proba = [[0.9, 0.1, 0], [0.8, 0, 0.2], [0.6, 0.1, 0.3], [0.4, 0.3, 0.3], [0.1, 0.8, 0.1], [0, 0.9, 0.1]]
    >>> table = reliability_table(y_true, proba)
    >>> table["confidence"].round(3).tolist(), table["accuracy"].round(3).tolist()
    ([0.4, 0.6, 0.8, 0.9], [0.0, 1.0, 1.0, 0.5])
    """
    import pandas as pd

    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise ValueError(f"n_bins must be a positive integer, got {n_bins!r}")
    y, q = _check_inputs(y_true, proba, atol)
    predicted = np.argmax(q, axis=1)
    top = q[np.arange(y.size), predicted]
    bins = np.minimum((top * n_bins).astype(int), n_bins - 1)
    count = np.bincount(bins, minlength=n_bins)
    used = count > 0
    confidence = np.bincount(bins, weights=top, minlength=n_bins)[used] / count[used]
    correct = np.bincount(bins, weights=(predicted == y).astype(float), minlength=n_bins)[used] / count[used]
    return pd.DataFrame({"bin": np.flatnonzero(used), "share": count[used] / y.size,
                         "confidence": confidence, "accuracy": correct})
