"""Input validation shared by every public function (scikit-learn's ``check_array`` in spirit).

Each checker returns a clean NumPy array or raises ``ValueError`` with a message that names
the argument and what is wrong with it, so that bad input never surfaces as a NaN or a
traceback from deep inside NumPy.
"""
from __future__ import annotations

import numbers

import numpy as np

__all__ = ["check_array", "check_labels", "check_probabilities", "check_consistent_length", "check_scalar"]


def check_array(value, name: str, *, ndim: int | None = None, dtype=float, allow_empty: bool = False,
                finite: bool = True) -> np.ndarray:
    """``value`` as an array of ``dtype`` with ``ndim`` dimensions (finite, non-empty by default)."""
    try:
        array = np.asarray(value, dtype=dtype)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{name} must be array-like of {np.dtype(dtype).name}: {error}") from None
    if ndim is not None and array.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {array.shape}")
    if not allow_empty and array.size == 0:
        raise ValueError(f"{name} is empty: at least one instance is needed")
    if finite and array.dtype.kind == "f" and not np.all(np.isfinite(array)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return array


def check_labels(y, n_classes: int | None = None, name: str = "y_true") -> np.ndarray:
    """Class indices as a 1-d integer array, each within ``0..n_classes-1`` when given."""
    raw = np.asarray(y)
    if raw.ndim != 1:
        raise ValueError(f"{name} must be 1-dimensional class indices, got shape {raw.shape}")
    if raw.size == 0:
        raise ValueError(f"{name} is empty: at least one instance is needed")
    if raw.dtype.kind == "b" or raw.dtype.kind not in "iuf":
        raise ValueError(f"{name} must hold integer class indices 0..K-1, got dtype {raw.dtype}")
    if raw.dtype.kind == "f":
        if not np.all(np.isfinite(raw)) or not np.all(raw == np.round(raw)):
            raise ValueError(f"{name} must hold integer class indices, got non-integer values")
    labels = raw.astype(np.int64, copy=False)
    if labels.min() < 0:
        raise ValueError(f"{name} has negative class index {labels.min()}")
    if n_classes is not None and labels.max() >= n_classes:
        raise ValueError(f"{name} has class index {labels.max()} outside the {n_classes} classes 0..{n_classes - 1}")
    return labels


def check_probabilities(proba, name: str = "proba", *, atol: float = 1e-6) -> np.ndarray:
    """An (n, K) matrix whose rows are probability vectors (non-negative, summing to one within ``atol``)."""
    array = check_array(proba, name, ndim=2)
    if array.shape[1] < 2:
        raise ValueError(f"{name} must have at least two columns (classes), got shape {array.shape}")
    if np.any(array < -atol) or np.any(array > 1 + atol):
        raise ValueError(f"{name} has entries outside [0, 1]")
    sums = array.sum(axis=1)
    bad = np.flatnonzero(np.abs(sums - 1.0) > atol)
    if bad.size:
        raise ValueError(f"rows of {name} must sum to one (tolerance {atol}); row {bad[0]} sums to {sums[bad[0]]:.6g}"
                         f" ({bad.size} bad rows)")
    return np.clip(array, 0.0, 1.0)


def check_consistent_length(*pairs) -> int:
    """``pairs`` are (name, array) with a first axis; all lengths must agree."""
    lengths = {name: len(array) for name, array in pairs}
    if len(set(lengths.values())) > 1:
        described = ", ".join(f"{name} has {n}" for name, n in lengths.items())
        raise ValueError(f"inconsistent numbers of instances: {described}")
    return next(iter(lengths.values()))


def check_scalar(value, name: str, *, low=None, high=None, low_inclusive: bool = True,
                 high_inclusive: bool = True, integer: bool = False):
    """A real (or integer) scalar within the stated bounds."""
    kind = numbers.Integral if integer else numbers.Real
    if isinstance(value, bool) or not isinstance(value, kind):
        raise ValueError(f"{name} must be {'an integer' if integer else 'a real number'}, got {value!r}")
    if not integer and not np.isfinite(value) and not (high is not None and high == np.inf and value == np.inf):
        raise ValueError(f"{name} must be finite, got {value!r}")
    if low is not None and (value < low or (value == low and not low_inclusive)):
        raise ValueError(f"{name} must be {'>=' if low_inclusive else '>'} {low}, got {value!r}")
    if high is not None and (value > high or (value == high and not high_inclusive)):
        raise ValueError(f"{name} must be {'<=' if high_inclusive else '<'} {high}, got {value!r}")
    return value
