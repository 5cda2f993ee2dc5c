"""Fayyad & Irani's (1993) MDL cut search on arrays: the core of :class:`credalbook.preprocessing.MDLDiscretizer`.

The recursive search splits an interval of sorted distinct values at its best boundary point
and recurses into both halves while the MDL test accepts. The decision for one interval
depends on that interval alone, so :func:`mdl_cuts` settles every open interval of every
column at once, depth by depth: a handful of NumPy calls per depth instead of a dozen per
interval. Every quantity is the same elementwise expression of the same integer counts as in
the interval-by-interval search (sums over the classes reduce each row alone), so the cuts are
identical. NumPy only, so that the array protocols can use it without scikit-learn.
"""
from __future__ import annotations

import numpy as np

__all__ = ["entropy_rows", "boundary_candidates", "mdl_cuts"]


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
