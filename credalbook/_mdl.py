"""Fayyad & Irani's (1993) MDL cut search on arrays: the core of :class:`credalbook.preprocessing.MDLDiscretizer`.

The recursive search splits an interval of sorted distinct values at its best boundary point
and recurses into both halves while the MDL test accepts. The decision for one interval
depends on that interval alone, so :func:`mdl_cuts` settles every open interval of every
column at once, depth by depth: a handful of NumPy calls per depth instead of a dozen per
interval. Every quantity is the same elementwise expression of the same integer counts as in
the interval-by-interval search (sums over the classes reduce each row alone), so the cuts are
identical. NumPy only, so that the array protocols can use it without scikit-learn.

:func:`jncc2_mdl_cuts` is JNCC2 1.11's ``MdlDiscretizer`` (Corani & Zaffalon's reference
implementation of NCC2) for one attribute, with its own candidate rule and arithmetic: what
``MDLDiscretizer(convention="jncc2")`` runs.
"""
from __future__ import annotations

import numpy as np

__all__ = ["entropy_rows", "boundary_candidates", "mdl_cuts", "jncc2_mdl_cuts"]

_LN2 = float(np.log(2.0))
#: Java's Double.MIN_VALUE: JNCC2's least gain (a cut must gain more)
_JAVA_MIN_VALUE = 5e-324


def entropy_rows(counts: np.ndarray) -> np.ndarray:
    """Class entropy in bits of each row of a (..., K) count array (0 for an empty row)."""
    counts = np.asarray(counts, dtype=float)
    totals = counts.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(totals > 0, counts / totals, 0.0)
        terms = np.where(p > 0, -p * np.log2(np.where(p > 0, p, 1.0)), 0.0)
    return terms.sum(axis=-1)


def boundary_candidates(values: np.ndarray, column: np.ndarray, labels: np.ndarray, n_classes: int):
    """Sorted distinct values of every column, their column and class counts, and which gaps are boundary points.

    ``values``, ``column`` (which column each value belongs to) and ``labels`` are 1-d of one
    length. Returns ``distinct`` (V,), ``column_of`` (V,), ``per_value`` (V, K) and
    ``boundary`` (V,): gap g, between distinct values g and g + 1 of one column, is a boundary
    point unless both values carry one and the same single class (Fayyad & Irani 1992: the best
    cut is always at one); the last value of a column opens no gap.
    """
    order = np.lexsort((values, column))
    values, column, labels = values[order], column[order], labels[order]
    new = np.r_[True, (column[1:] != column[:-1]) | (values[1:] != values[:-1])]
    index = np.cumsum(new) - 1
    distinct, column_of = values[new], column[new]
    per_value = np.bincount(index * n_classes + labels, minlength=distinct.size * n_classes).reshape(-1, n_classes)
    present = per_value > 0
    single = present.sum(axis=1) == 1
    same_single = single[:-1] & single[1:] & np.all(present[:-1] == present[1:], axis=1)
    boundary = np.r_[~same_single & (column_of[1:] == column_of[:-1]), False]
    return distinct, column_of, per_value, boundary


def _first_per_run(run: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """For sorted run labels, the index of the first ``mask`` entry of each run that has one."""
    hits = np.flatnonzero(mask)
    return hits[np.r_[True, run[hits[1:]] != run[hits[:-1]]]] if hits.size else hits


def mdl_cuts(columns, labels, n_classes: int, selection: str = "entropy") -> list[np.ndarray]:
    """Sorted MDL cut points of each column (a list of 1-d float arrays without NaN, with their ``labels``).

    ``labels`` is a list of class-code arrays, one per column. ``selection="entropy"`` (Weka,
    Fayyad & Irani) takes the cut of least class entropy and keeps it iff it passes the MDL
    test Gain > [log2(N−1) + log2(3^k − 2) − (k·H − k1·H1 − k2·H2)] / N; ``"gain"`` (JNCC2 1.11)
    takes the cut of largest gain among those that pass. Cuts are the midpoints of the two
    values of the gap.
    """
    sizes = np.array([len(v) for v in columns], dtype=np.int64)
    if sizes.sum() == 0:
        return [np.empty(0) for _ in columns]
    distinct, column_of, per_value, boundary = boundary_candidates(
        np.concatenate(columns).astype(float), np.repeat(np.arange(sizes.size), sizes), np.concatenate(labels),
        n_classes)
    cumulative = np.vstack([np.zeros((1, n_classes), dtype=np.int64), np.cumsum(per_value, axis=0)])
    starts = np.flatnonzero(np.r_[True, column_of[1:] != column_of[:-1]])
    lo, hi = starts, np.r_[starts[1:], distinct.size]
    found = []
    while lo.size:
        gaps_per = np.maximum(hi - lo - 1, 0)
        interval = np.repeat(np.arange(lo.size), gaps_per)
        gap = lo[interval] + np.arange(interval.size) - np.repeat(np.cumsum(gaps_per) - gaps_per, gaps_per)
        keep = boundary[gap]
        interval, gap = interval[keep], gap[keep]
        if gap.size == 0:
            break
        total = cumulative[hi] - cumulative[lo]                   # (I, K)
        left = cumulative[gap + 1] - cumulative[lo[interval]]      # (G, K)
        right = total[interval] - left
        n1, n2, n = left.sum(axis=1), right.sum(axis=1), total.sum(axis=1)[interval]
        h_left, h_right = entropy_rows(left), entropy_rows(right)
        cond = (n1 * h_left + n2 * h_right) / n
        h = entropy_rows(total)[interval]
        gain = h - cond
        k = np.count_nonzero(total, axis=1)[interval]
        k1, k2 = np.count_nonzero(left, axis=1), np.count_nonzero(right, axis=1)
        delta = np.log2(3.0 ** k - 2) - (k * h - k1 * h_left - k2 * h_right)
        accepted = gain > (np.log2(n - 1) + delta) / n
        change = np.r_[True, interval[1:] != interval[:-1]]
        runs, run_of = np.flatnonzero(change), np.cumsum(change) - 1
        if selection == "entropy":
            least = np.minimum.reduceat(cond, runs)
            best = _first_per_run(interval, cond <= least[run_of] + 1e-12)
            best = best[accepted[best] & (gain[best] > 0)]
        else:
            candidates = np.where(accepted, gain, -np.inf)
            largest = np.maximum.reduceat(candidates, runs)
            best = _first_per_run(interval, accepted & (candidates >= largest[run_of] - 1e-12))
        cut_gap, parent = gap[best], interval[best]
        found.append(cut_gap)
        lo, hi = np.r_[lo[parent], cut_gap + 1], np.r_[cut_gap + 1, hi[parent]]
    cut_gap = np.sort(np.concatenate(found)) if found else np.empty(0, dtype=np.int64)   # in column, value order
    cuts = (distinct[cut_gap] + distinct[cut_gap + 1]) / 2
    return np.split(cuts, np.searchsorted(column_of[cut_gap], np.arange(1, sizes.size)))


def _jncc2_entropy(cumulative: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """JNCC2's ``computeEntropy`` of the sorted instances ``lower..upper`` (arrays of bounds): bits and classes present.

    (N ln N − Σ_j f_j ln f_j) / (N ln 2), the classes subtracted in their order, as JNCC2 sums it; an
    empty or reversed range gives NaN (Java's 0·ln 0), which fails every comparison.
    """
    n = (upper - lower + 1).astype(float)
    rows = cumulative.shape[0] - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        counts = cumulative[np.clip(upper + 1, 0, rows)] - cumulative[np.clip(lower, 0, rows)]
        info = n * np.log(n)
        present = np.zeros(n.shape)
        for j in range(counts.shape[1]):
            nonzero = counts[:, j] != 0
            info = np.where(nonzero, info - counts[:, j] * np.log(np.where(nonzero, counts[:, j], 1.0)), info)
            present += nonzero
        info = info / (n * _LN2)
    empty = n <= 0
    return np.where(empty, np.nan, info), np.where(empty, 0.0, present)


def jncc2_mdl_cuts(values, labels, n_classes: int) -> np.ndarray:
    """Sorted MDL cut points of one attribute as JNCC2 1.11's ``MdlDiscretizer`` computes them.

    The recursive search of Fayyad & Irani (1993) that :func:`mdl_cuts` runs with
    ``selection="gain"``, with JNCC2's conventions (its ``recursiveMDLDiscretization``):

    * the candidate cuts of an interval ``[lower, upper]`` of sorted instances are the boundary
      points whose last instance below the cut is at most ``upper - 2``: a cut leaving a
      single instance above it is not weighed (the book's and Weka's searches weigh it); an
      interval without candidates weighs JNCC2's first candidate of the whole attribute (weighed
      only when it lies in the interval);
    * the cut of largest gain among those passing the MDL test, the first of equal gains, a
      gain larger than Java's ``Double.MIN_VALUE``;
    * entropies summed as JNCC2's ``computeEntropy`` sums them (natural logarithms, classes
      in order), the test's threshold in its order of operations.

    Parameters
    ----------
    values
        (n,): the attribute's observed values (no NaN).
    labels
        (n,): class codes ``0..n_classes-1`` of the instances.
    n_classes
        Number of classes (classes without instances change nothing).

    Returns
    -------
    numpy.ndarray
        The sorted cut points, midpoints of two consecutive distinct values.

    Examples
    --------
    Four instances of class 0, four of class 1, one of class 0 on top: JNCC2 does not weigh the
    cut below the single top instance, which :func:`mdl_cuts` accepts.

    >>> import numpy as np
    >>> values, labels = np.arange(9.0), np.array([0, 0, 0, 0, 1, 1, 1, 1, 0])
    >>> jncc2_mdl_cuts(values, labels, 2)
    array([3.5])
    >>> mdl_cuts([values], [labels], 2, "gain")[0]
    array([3.5, 7.5])
    """
    values = np.asarray(values, dtype=float)
    labels = np.asarray(labels, dtype=np.int64)
    if values.ndim != 1 or labels.shape != values.shape:
        raise ValueError(f"values and labels must be 1-d of one length, got shapes {values.shape} and {labels.shape}")
    if values.size == 0:
        raise ValueError("values is empty: JNCC2's MdlDiscretizer needs at least one observed value")
    if np.isnan(values).any():
        raise ValueError("values has NaN: pass the observed values only")
    if labels.min() < 0 or labels.max() >= n_classes:
        raise ValueError(f"labels must be class codes 0..{n_classes - 1}")
    order = np.argsort(values, kind="stable")
    v, c = values[order], labels[order]
    n = v.size
    cumulative = np.vstack([np.zeros((1, n_classes)), np.cumsum(np.eye(n_classes)[c], axis=0)])
    starts = np.flatnonzero(np.r_[True, v[1:] != v[:-1]])
    groups = cumulative[np.r_[starts[1:], n]] - cumulative[starts]
    present = np.count_nonzero(groups, axis=1)
    first = c[starts]
    # a boundary point unless both values carry one and the same class (JNCC2's computePossibleCutPoints)
    candidate = (present[:-1] > 1) | (present[1:] > 1) | (first[:-1] != first[1:])
    below = (starts[1:] - 1)[candidate]                 # the last instance below each candidate cut
    cut = ((v[starts[1:]] + v[starts[:-1]]) / 2)[candidate]
    found = []
    stack = [(0, n - 1)] if below.size else []
    while stack:
        lower, upper = stack.pop()
        inside = np.flatnonzero((below + 1 > lower) & (below + 1 < upper))
        weighed = np.arange(inside[0], inside[-1] + 1) if inside.size else np.zeros(1, dtype=np.int64)
        limit = below[weighed]
        length = upper - lower + 1
        whole, whole_classes = (a[0] for a in _jncc2_entropy(cumulative, np.array([lower]), np.array([upper])))
        left, left_classes = _jncc2_entropy(cumulative, np.full(limit.size, lower), limit)
        right, right_classes = _jncc2_entropy(cumulative, limit + 1, np.full(limit.size, upper))
        with np.errstate(invalid="ignore", divide="ignore"):
            gain = whole - (left * (limit + 1 - lower) + right * (upper - limit)) / length
            threshold = (np.log(length - 1) / _LN2 + np.log(3.0 ** whole_classes - 2) / _LN2
                         if length > 1 else np.nan)
            threshold = (threshold - whole * whole_classes + (left * left_classes + right * right_classes)) / length
            accepted = (gain > threshold) & (gain > _JAVA_MIN_VALUE)
        if not accepted.any():
            continue
        best = int(np.argmax(np.where(accepted, gain, -np.inf)))   # the first of the largest gains
        found.append(cut[weighed[best]])
        position = int(np.flatnonzero(cut == cut[weighed[best]])[0])
        if position < cut.size - 1:
            stack.append((int(below[position]) + 1, upper))
        if position > 0:
            stack.append((lower, int(below[position])))
    return np.sort(np.asarray(found, dtype=float))
