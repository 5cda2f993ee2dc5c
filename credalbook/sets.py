"""Set-valued predictions as (n, K) boolean matrices.

Row ``i`` of a set matrix is the indicator of the classes predicted for instance ``i``:
``Y[i, k]`` is ``True`` when class ``k`` belongs to the predicted set. A determinate
prediction is a row with a single ``True``; the vacuous prediction is a row of ``True``.
Empty rows are not predictions and are rejected.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from credalbook._validation import check_labels

__all__ = ["row_counts", "check_set_matrix", "check_targets_and_sets", "set_sizes", "sets_from_lists",
           "sets_to_lists", "singleton_sets", "vacuous_sets"]


def row_counts(matrix: np.ndarray) -> np.ndarray:
    """Number of ``True`` per row of a boolean matrix, shape (n,), in one compiled pass over its bytes
    (``credalbook._kernels.row_sizes``)."""
    from credalbook._kernels import row_sizes

    out = np.empty(matrix.shape[0], dtype=np.int64)
    row_sizes(np.ascontiguousarray(matrix).view(np.uint8), out)
    return out


def _checked_sets_and_sizes(y_set, name: str, n_classes: int | None) -> tuple[np.ndarray, np.ndarray]:
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
    empty = np.flatnonzero(sizes == 0)
    if empty.size:
        raise ValueError(f"{name} has {empty.size} empty predicted sets (first at row {empty[0]}): "
                         "a set-valued prediction must contain at least one class")
    return matrix, sizes


def check_set_matrix(y_set, name: str = "y_set", n_classes: int | None = None) -> np.ndarray:
    """Validate a set-valued prediction matrix and return it as an (n, K) ``bool`` array.

    Accepts booleans or 0/1 integers. Raises ``ValueError`` for a wrong number of dimensions,
    no instance, a number of columns other than ``n_classes``, entries other than 0/1, or an
    empty predicted set.
    """
    return _checked_sets_and_sizes(y_set, name, n_classes)[0]


def check_targets_and_sets(y_true, y_set) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate (class indices, set matrix) with the same number of instances.

    Returns the labels (n,), the boolean matrix (n, K) and the set sizes (n,).
    """
    matrix, sizes = _checked_sets_and_sizes(y_set, "y_set", None)
    labels = check_labels(y_true, n_classes=matrix.shape[1])
    if labels.shape[0] != matrix.shape[0]:
        raise ValueError(f"y_true has {labels.shape[0]} instances but y_set has {matrix.shape[0]}")
    return labels, matrix, sizes


def set_sizes(y_set) -> np.ndarray:
    """Number of predicted classes per instance, shape (n,)."""
    return _checked_sets_and_sizes(y_set, "y_set", None)[1]


def sets_from_lists(sets: Iterable[Iterable], classes: Sequence | int) -> np.ndarray:
    """Build the (n, K) matrix from an iterable of label sets.

    ``classes`` is either the number of classes K (labels are then indices 0..K-1) or the
    sequence of class labels (labels are looked up in it).
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
    """The predicted sets as tuples of class indices (or of ``classes`` labels)."""
    matrix = check_set_matrix(y_set, n_classes=None if classes is None else len(classes))
    if classes is None:
        return [tuple(int(k) for k in np.flatnonzero(row)) for row in matrix]
    labels = list(classes)
    return [tuple(labels[k] for k in np.flatnonzero(row)) for row in matrix]


def singleton_sets(y_pred, n_classes: int) -> np.ndarray:
    """Determinate predictions (class indices) as a set matrix with one class per row."""
    labels = check_labels(y_pred, n_classes=n_classes, name="y_pred")
    matrix = np.zeros((labels.size, n_classes), dtype=bool)
    matrix[np.arange(labels.size), labels] = True
    return matrix


def vacuous_sets(n_instances: int, n_classes: int) -> np.ndarray:
    """The vacuous prediction (every class) for each of ``n_instances`` instances."""
    if n_instances < 1 or n_classes < 1:
        raise ValueError("n_instances and n_classes must be positive")
    return np.ones((n_instances, n_classes), dtype=bool)
