"""Set-valued predictions as (n, K) boolean matrices.

Row ``i`` of a set matrix is the indicator of the classes predicted for instance ``i``:
``Y[i, k]`` is ``True`` when class ``k`` belongs to the predicted set. A determinate
prediction is a row with a single ``True``; the vacuous prediction is a row of ``True``.
Empty rows are refused unless an ``empty`` policy says how to read them (:data:`EMPTY_POLICIES`):
``"miss"`` keeps an empty set as a prediction that holds no class (what conformal predictors such as
MAPIE return, scored as a miss), ``"vacuous"`` reads it as the set of every class.

``y_true`` holds class indices 0..K-1 by default; with ``labels`` (the K class labels in the
order of the matrix's columns, as a classifier's ``classes_``) it holds labels of any kind, as
scikit-learn's metrics take them.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from credalbook._validation import check_labels

__all__ = ["EMPTY_POLICIES", "row_counts", "check_set_matrix", "check_targets_and_sets", "encode_targets",
           "set_sizes", "sets_from_lists", "sets_to_lists", "singleton_sets", "vacuous_sets"]

#: how an empty predicted set is read (refused, a miss holding no class, or every class)
EMPTY_POLICIES = ("error", "miss", "vacuous")


def row_counts(matrix: np.ndarray) -> np.ndarray:
    """Number of ``True`` per row of a boolean matrix, shape (n,), in one compiled pass over its bytes
    (``credalbook._kernels.row_sizes``).

    Parameters
    ----------
    matrix : ndarray of bool, shape (n, K)

    Examples
    --------
    >>> import numpy as np
    >>> row_counts(np.array([[True, False, True], [False, False, True]])).tolist()
    [2, 1]
    """
    from credalbook._kernels import row_sizes

    matrix = np.asarray(matrix)
    if matrix.ndim != 2 or matrix.dtype != bool:
        raise ValueError(f"matrix must be a 2-dimensional boolean matrix, got shape {matrix.shape} and dtype "
                         f"{matrix.dtype}")
    out = np.empty(matrix.shape[0], dtype=np.int64)
    row_sizes(np.ascontiguousarray(matrix).view(np.uint8), out)
    return out


def _checked_sets_and_sizes(y_set, name: str, n_classes: int | None,
                            empty: str = "error") -> tuple[np.ndarray, np.ndarray]:
    if empty not in EMPTY_POLICIES:
        raise ValueError(f"empty must be one of {EMPTY_POLICIES}, got {empty!r}")
    raw = np.asarray(y_set)
    if raw.ndim != 2:
        raise ValueError(f"{name} must be an (n, K) boolean matrix of predicted sets, got shape {raw.shape}")
    if raw.shape[0] == 0:
        raise ValueError(f"{name} is empty: at least one instance is needed")
    if raw.shape[1] == 0:
        raise ValueError(f"{name} has no class columns")
    if n_classes is not None and raw.shape[1] != n_classes:
        raise ValueError(f"{name} has {raw.shape[1]} columns but there are {n_classes} classes")
    if raw.dtype == bool:
        matrix = raw
    else:
        if raw.dtype.kind not in "iuf" or not np.all((raw == 0) | (raw == 1)):
            raise ValueError(f"{name} must hold booleans or 0/1 values")
        matrix = raw.astype(bool)
    sizes = row_counts(matrix)
    empty_rows = np.flatnonzero(sizes == 0)
    if empty_rows.size and empty == "error":
        raise ValueError(f"{name} has {empty_rows.size} empty predicted sets (first at row {empty_rows[0]}): a "
                         "set-valued prediction must contain at least one class; pass empty='miss' to score an "
                         "empty set as a miss (conformal sets) or empty='vacuous' to read it as every class")
    if empty_rows.size and empty == "vacuous":
        matrix = matrix.copy()
        matrix[empty_rows] = True
        sizes = sizes.copy()
        sizes[empty_rows] = matrix.shape[1]
    return matrix, sizes


def check_set_matrix(y_set, name: str = "y_set", n_classes: int | None = None, *, empty: str = "error") -> np.ndarray:
    """Validate a set-valued prediction matrix and return it as an (n, K) ``bool`` array.

    Accepts booleans or 0/1 integers. Raises ``ValueError`` for a wrong number of dimensions,
    no instance, a number of columns other than ``n_classes``, entries other than 0/1, or an
    empty predicted set unless ``empty`` is ``"miss"`` (kept) or ``"vacuous"`` (every class).

    Parameters
    ----------
    y_set : array-like of shape (n, K)
        Booleans or 0/1 integers, one row per instance.
    name : str, default "y_set"
        The argument's name in error messages.
    n_classes : int, default None
        The number of columns required (any when None).
    empty : {"error", "miss", "vacuous"}, default "error"
        How an empty predicted set is read.

    Examples
    --------
    >>> check_set_matrix([[1, 0], [1, 1]]).tolist()
    [[True, False], [True, True]]
    >>> check_set_matrix([[1, 0], [0, 0]], empty="vacuous").tolist()
    [[True, False], [True, True]]
    """
    return _checked_sets_and_sizes(y_set, name, n_classes, empty)[0]


def encode_targets(y_true, n_classes: int, labels=None, name: str = "y_true") -> np.ndarray:
    """Class indices (n,) of ``y_true``: indices 0..K-1 as given, or labels looked up in ``labels``.

    ``labels`` is the sequence of the K class labels in column order (a classifier's
    ``classes_``); a label of ``y_true`` that is not among them is an error naming it.

    Parameters
    ----------
    y_true : array-like of shape (n,)
    n_classes : int
        K, the number of columns of the set matrix.
    labels : array-like of shape (K,), default None
        The classes in column order; None when ``y_true`` holds indices 0..K-1.
    name : str, default "y_true"
        The argument's name in error messages.

    Examples
    --------
    >>> encode_targets(["b", "a", "b"], 2, labels=["a", "b"]).tolist()
    [1, 0, 1]
    """
    if labels is None:
        raw = np.asarray(y_true)
        if raw.ndim == 1 and raw.size and (raw.dtype.kind in "bOUS"):
            raise ValueError(f"{name} holds labels of dtype {raw.dtype}: pass labels=, the {n_classes} classes in the "
                             f"order of the set matrix's columns (a classifier's classes_)")
        if raw.ndim == 1 and raw.size and raw.dtype.kind in "iu" and raw.max() == n_classes and raw.min() >= 1:
            raise ValueError(f"{name} holds labels 1..{n_classes}, not class indices 0..{n_classes - 1}: pass "
                             f"labels=, the classes in the order of the set matrix's columns")
        return check_labels(y_true, n_classes=n_classes, name=name)
    classes = [v.item() if isinstance(v, np.generic) else v for v in np.asarray(labels, dtype=object).ravel()]
    if len(classes) != n_classes:
        raise ValueError(f"labels has {len(classes)} classes but the set matrix has {n_classes} columns")
    if len(set(classes)) != len(classes):
        raise ValueError("labels holds a class twice")
    position = {label: k for k, label in enumerate(classes)}
    raw = np.asarray(y_true, dtype=object)
    if raw.ndim != 1:
        raise ValueError(f"{name} must be 1-dimensional, got shape {raw.shape}")
    if raw.size == 0:
        raise ValueError(f"{name} is empty: at least one instance is needed")
    values = [v.item() if isinstance(v, np.generic) else v for v in raw.tolist()]
    unknown = [v for v in values if v not in position]
    if unknown:
        raise ValueError(f"{name} holds {unknown[0]!r}, which is not one of labels {classes}")
    return np.array([position[v] for v in values], dtype=np.int64)


def check_targets_and_sets(y_true, y_set, *, labels=None, empty: str = "error") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate (targets, set matrix) with the same number of instances.

    Returns the class indices (n,), the boolean matrix (n, K) and the set sizes (n,);
    ``labels`` and ``empty`` as in :func:`encode_targets` and :func:`check_set_matrix`.

    Parameters
    ----------
    y_true : array-like of shape (n,)
    y_set : array-like of shape (n, K)
    labels : array-like of shape (K,), default None
    empty : {"error", "miss", "vacuous"}, default "error"
        How an empty predicted set is read.

    Examples
    --------
    >>> targets, matrix, sizes = check_targets_and_sets(["b", "a"], [[1, 1], [1, 0]], labels=["a", "b"])
    >>> targets.tolist(), sizes.tolist()
    ([1, 0], [2, 1])
    """
    matrix, sizes = _checked_sets_and_sizes(y_set, "y_set", None, empty)
    targets = encode_targets(y_true, matrix.shape[1], labels)
    if targets.shape[0] != matrix.shape[0]:
        raise ValueError(f"y_true has {targets.shape[0]} instances but y_set has {matrix.shape[0]}")
    return targets, matrix, sizes


def set_sizes(y_set, *, empty: str = "error") -> np.ndarray:
    """Number of predicted classes per instance, shape (n,) (an empty set counts 0 under ``empty="miss"``).

    Parameters
    ----------
    y_set : array-like of shape (n, K)
    empty : {"error", "miss", "vacuous"}, default "error"
        How an empty predicted set is read.

    Examples
    --------
    >>> set_sizes([[1, 0, 1], [0, 0, 0]], empty="miss").tolist()
    [2, 0]
    """
    return _checked_sets_and_sizes(y_set, "y_set", None, empty)[1]


def sets_from_lists(sets: Iterable[Iterable], classes: Sequence | int) -> np.ndarray:
    """Build the (n, K) matrix from an iterable of label sets.

    ``classes`` is either the number of classes K (labels are then indices 0..K-1) or the
    sequence of class labels (labels are looked up in it).

    Parameters
    ----------
    sets : iterable of iterable
        One collection of labels per instance, none empty.
    classes : int or list
        K, or the K class labels in column order.

    Examples
    --------
    >>> sets_from_lists([{"cat"}, {"cat", "dog"}], ["cat", "dog", "fish"]).astype(int).tolist()
    [[1, 0, 0], [1, 1, 0]]
    """
    if isinstance(classes, (int, np.integer)):
        if classes < 1:
            raise ValueError(f"classes must be a positive number of classes, got {classes}")
        index = {k: k for k in range(int(classes))}
        n_classes = int(classes)
    else:
        labels = list(classes)
        if len(set(labels)) != len(labels):
            raise ValueError("classes contains duplicated labels")
        index = {label: k for k, label in enumerate(labels)}
        n_classes = len(labels)
    rows = []
    for i, members in enumerate(sets):
        members = list(members)
        if not members:
            raise ValueError(f"set {i} is empty: a set-valued prediction must contain at least one class")
        row = np.zeros(n_classes, dtype=bool)
        for label in members:
            key = label.item() if isinstance(label, np.generic) else label
            if key not in index:
                raise ValueError(f"set {i} contains {label!r}, which is not one of the classes")
            row[index[key]] = True
        rows.append(row)
    if not rows:
        raise ValueError("no sets given: at least one instance is needed")
    return np.vstack(rows)


def sets_to_lists(y_set, classes: Sequence | None = None) -> list[tuple]:
    """The predicted sets as tuples of class indices (or of ``classes`` labels).

    Parameters
    ----------
    y_set : array-like of shape (n, K)
    classes : list, default None
        The K class labels in column order; None gives class indices.

    Examples
    --------
    >>> sets_to_lists([[1, 1, 0], [0, 0, 1]], ["cat", "dog", "fish"])
    [('cat', 'dog'), ('fish',)]
    >>> sets_to_lists([[1, 1, 0], [0, 0, 1]])
    [(0, 1), (2,)]
    """
    matrix = check_set_matrix(y_set, n_classes=None if classes is None else len(classes))
    if classes is None:
        return [tuple(int(k) for k in np.flatnonzero(row)) for row in matrix]
    labels = list(classes)
    return [tuple(labels[k] for k in np.flatnonzero(row)) for row in matrix]


def singleton_sets(y_pred, n_classes: int) -> np.ndarray:
    """Determinate predictions (class indices) as a set matrix with one class per row.

    Parameters
    ----------
    y_pred : array-like of shape (n,)
        Class indices 0..K-1.
    n_classes : int

    Examples
    --------
    >>> singleton_sets([2, 0], 3).astype(int).tolist()
    [[0, 0, 1], [1, 0, 0]]
    """
    labels = check_labels(y_pred, n_classes=n_classes, name="y_pred")
    matrix = np.zeros((labels.size, n_classes), dtype=bool)
    matrix[np.arange(labels.size), labels] = True
    return matrix


def vacuous_sets(n_instances: int, n_classes: int) -> np.ndarray:
    """The vacuous prediction (every class) for each of ``n_instances`` instances.

    Parameters
    ----------
    n_instances : int
    n_classes : int

    Examples
    --------
    >>> vacuous_sets(2, 3).astype(int).tolist()
    [[1, 1, 1], [1, 1, 1]]
    """
    if n_instances < 1 or n_classes < 1:
        raise ValueError("n_instances and n_classes must be positive")
    return np.ones((n_instances, n_classes), dtype=bool)
