"""Lazy naive credal classifier (LNCC, Corani & Zaffalon 2009; Zaffalon, Corani & Mauá 2012 §9.2).

For each test instance, LNCC learns an NCC on its neighbourhood only:

1. rank the training instances by the *overlap* (Hamming) distance on the discrete features,
   a missing value on either side counting as a difference;
2. start from the ``k_start`` = 25 nearest, extended over ties at the boundary (so the
   neighbourhood is a ball ``{distance <= r}``) and to at least one instance at a positive
   distance;
3. learn the NCC counts on the ball (IDM ``s``, features missing at random) and decide the
   credal dominance with :func:`credalbook.classifiers.ncc.dominance_from_counts`;
4. while the set has more than one class, add ``k_step`` = 20 neighbours (again over ties),
   at most ``max_steps`` = 50 times or until the whole training set is used.

Because the neighbourhoods are balls of integer radius, at most ``d + 1`` distinct NCCs are
learnt per instance. The distances of a block of test instances to all training instances are
counted once (:func:`overlap_distances`, compiled), and each instance's training instances are
sorted by distance once, up to its largest ball (a counting sort), so that the shell a step
adds is one slice of that order. The work is batched by step, not by instance: at each step
every still-undecided instance whose ball grows adds the new shell to its counts (counts grow
shell by shell, never recounted), and all of them go through one dominance call.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from credalbook._validation import check_scalar
from credalbook.classifiers.base import CredalClassifierMixin
from credalbook.discrete import MISSING
from credalbook.classifiers.naive_bayes import log_joint_from_counts
from credalbook.classifiers.ncc import dominance_from_counts
from credalbook.decisions import undominated

__all__ = ["overlap_distances", "neighbourhood_radii", "LazyNaiveCredalClassifier"]

_BLOCK_ELEMENTS = 16_000_000


class _BallCounts(NamedTuple):
    """NCC counts of each query's current ball: n(c) (b, K), n(x_i = q_i, c) (b, d, K), and the
    number of instances of class c whose feature i is missing (b, d, K)."""

    class_counts: np.ndarray
    matches: np.ndarray
    missing: np.ndarray

    def observed(self, rows=slice(None)) -> np.ndarray:
        """ñ_i(c): the instances of class c whose feature i is observed, (len(rows), d, K)."""
        return self.class_counts[rows][:, None, :] - self.missing[rows]


def _small_int(largest: int) -> np.dtype:
    """The smallest signed integer type holding -1..``largest``."""
    return np.promote_types(np.int8, np.min_scalar_type(-int(largest) - 1))


def _distances(queries: np.ndarray, X_by_feature: np.ndarray) -> np.ndarray:
    """(b, n) overlap distances of coded queries (b, d) to training codes stored feature by feature (d, n),
    in the smallest integer type (:func:`credalbook._kernels.overlap_distance_rows`)."""
    from credalbook._kernels import overlap_distance_rows

    out = np.empty((queries.shape[0], X_by_feature.shape[1]), dtype=_small_int(X_by_feature.shape[0]))
    overlap_distance_rows(queries, X_by_feature, out)
    return out


def overlap_distances(A, B, n_values) -> np.ndarray:
    """(len(A), len(B)) overlap distances: the number of features whose codes differ or are missing.

    ``A`` (n, d), ``B`` (m, d) integer codes (-1 = missing), ``n_values`` (d,) values per feature.
    The distance of LNCC's neighbourhoods (Zaffalon, Corani & Mauá 2012 §9.2), counted feature by feature.
    """
    A = np.asarray(A)
    B = np.asarray(B)
    n_values = np.asarray(n_values, dtype=np.int64)
    if A.ndim != 2 or B.ndim != 2 or A.shape[1] != B.shape[1] or n_values.shape != (A.shape[1],):
        raise ValueError(f"A {A.shape} and B {B.shape} must be 2-d with the same number of features as "
                         f"n_values {n_values.shape}")
    for name, M in (("A", A), ("B", B)):
        if np.any(M < MISSING) or np.any(M >= n_values[None, :]):
            raise ValueError(f"{name} has codes outside -1..n_values-1")
    dtype = _small_int(n_values.max(initial=1))
    return _distances(A.astype(dtype), np.ascontiguousarray(B.T, dtype=dtype))


def neighbourhood_radii(level_counts: np.ndarray, k_start: int = 25, k_step: int = 20,
                        max_steps: int = 50) -> np.ndarray:
    """(n, max_steps + 1) radius of the ball used at each step, from per-instance distance histograms.

    ``level_counts`` (n, d + 1): how many training instances lie at distance 0, 1, ..., d.
    Step t uses the smallest radius whose ball holds ``k_start + t * k_step`` instances (all
    of them if fewer), and at least the smallest positive distance present.
    """
    check_scalar(k_start, "k_start", low=1, integer=True)
    check_scalar(k_step, "k_step", low=1, integer=True)
    check_scalar(max_steps, "max_steps", low=0, integer=True)
    level_counts = np.asarray(level_counts)
    if level_counts.ndim != 2 or level_counts.shape[1] < 2:
        raise ValueError(f"level_counts must be (n, d + 1) with d >= 1, got shape {level_counts.shape}")
    if np.any(level_counts < 0):
        raise ValueError("level_counts must be non-negative")
    cum = np.cumsum(level_counts, axis=1)
    total = cum[:, -1:]
    wanted = np.minimum(k_start + k_step * np.arange(max_steps + 1)[None, :], total)  # (n, T)
    radius = (cum[:, None, :] < wanted[:, :, None]).sum(axis=2)  # first r with cum[r] >= wanted
    positive = level_counts[:, 1:] > 0
    first_positive = np.where(positive.any(axis=1), np.argmax(positive, axis=1) + 1, level_counts.shape[1] - 1)
    return np.maximum(radius, first_positive[:, None])


class LazyNaiveCredalClassifier(CredalClassifierMixin):
    """LNCC: an NCC learnt per test instance on a growing overlap-distance neighbourhood.

    ``predict_set(X)`` (n, K) bool; ``predict`` picks, inside the set, the class of largest
    naive Bayes (Laplace) posterior on the final neighbourhood. ``neighbourhood(X)`` tells which
    ball was used and how many instances of each class it held. Corani & Zaffalon (2009); Zaffalon, Corani & Mauá (2012) §9.2.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0]] * 5 + [[1, 1]] * 5 + [[0, 1], [1, 0], [0, 1], [1, 0]])
    >>> y = ["a"] * 5 + ["b"] * 5 + ["a", "a", "b", "b"]
    >>> x = [[0, 0], [1, 1], [0, 1]]     # in the third instance the two features disagree
    >>> model = LazyNaiveCredalClassifier(k_start=5, k_step=5).fit(X, y)
    >>> model.predict_set(x).tolist()
    [[True, False], [False, True], [True, True]]
    >>> model.predict(x).tolist()
    ['a', 'b', 'a']
    """

    def __init__(self, s: float = 1.0, k_start: int = 25, k_step: int = 20, max_steps: int = 50):
        self.s = s
        self.k_start = k_start
        self.k_step = k_step
        self.max_steps = max_steps

    def _check_params(self):
        check_scalar(self.s, "s", low=0.0, low_inclusive=False)
        check_scalar(self.k_start, "k_start", low=1, integer=True)
        check_scalar(self.k_step, "k_step", low=1, integer=True)
        check_scalar(self.max_steps, "max_steps", low=0, integer=True)

    def fit(self, X, y):
        """Store the coded training data, also feature by feature (LNCC is lazy: the work happens at prediction)."""
        self._check_params()
        Xc, self._yc = self._fit_discrete(X, y)
        self._Xc = Xc.astype(_small_int(self.n_values_.max(initial=1)))
        self._X_by_feature = np.ascontiguousarray(self._Xc.T)
        return self

    def _run(self, Xc: np.ndarray):
        """Sets (n, K), scores (n, K), the radius used (n,) and the final ball's class counts (n, K).

        Step by step over a block of test instances: the training instances of each query's largest
        ball are sorted by distance once (:func:`credalbook._kernels.neighbour_order`); every instance
        still undecided whose ball grows at this step adds the new shell, a slice of that order, to its
        counts (:func:`credalbook._kernels.add_ordered_shells`), and all of them are decided by one call
        of :func:`credalbook.classifiers.ncc.dominance_from_counts`.
        """
        from credalbook._kernels import add_ordered_shells, distance_histograms, neighbour_order

        self._check_params()
        n, d = Xc.shape
        K = self.n_classes_
        sets = np.zeros((n, K), dtype=bool)
        scores = np.zeros((n, K))
        used_radius = np.zeros(n, dtype=np.int64)
        ball_classes = np.zeros((n, K), dtype=np.int64)
        block = max(1, _BLOCK_ELEMENTS // max(1, self._Xc.shape[0]))
        for start in range(0, n, block):
            queries = Xc[start:start + block].astype(self._Xc.dtype)
            b = len(queries)
            distances = _distances(queries, self._X_by_feature)
            levels = distance_histograms(distances, d)
            radii = neighbourhood_radii(levels, self.k_start, self.k_step, self.max_steps)
            order, first = neighbour_order(distances, levels, radii[:, -1])
            del distances
            # position in ``order`` of the first instance beyond radius r - 1, r = 0..d + 1
            offsets = first[:-1, None] + np.concatenate([np.zeros((b, 1), dtype=np.int64), np.cumsum(levels, axis=1)],
                                                       axis=1)
            ball = _BallCounts(np.zeros((b, K)), np.zeros((b, d, K)), np.zeros((b, d, K)))
            mask = (queries != MISSING) & (self.n_values_ >= 2)[None, :]
            radius = np.full(b, -1)
            current = np.ones((b, K), dtype=bool)
            undecided = np.ones(b, dtype=bool)
            for step in range(radii.shape[1]):
                rows = np.flatnonzero(undecided & (radii[:, step] != radius))
                if rows.size == 0:
                    continue
                add_ordered_shells(order, offsets[rows, radius[rows] + 1], offsets[rows, radii[rows, step] + 1], rows,
                                   self._Xc, self._yc, queries, *ball)
                radius[rows] = radii[rows, step]
                current[rows] = undominated(dominance_from_counts(ball.class_counts[rows], ball.matches[rows],
                                                                  ball.observed(rows), mask[rows], float(self.s)))
                undecided[rows] = current[rows].sum(axis=1) != 1
            sets[start:start + b], used_radius[start:start + b] = current, radius
            ball_classes[start:start + b] = ball.class_counts
            # Laplace denominators use the true numbers of values
            scores[start:start + b] = log_joint_from_counts(ball.class_counts, ball.matches, ball.observed(), mask,
                                                            self.n_values_, 1.0)
        return sets, scores, used_radius, ball_classes

    def _predict_set_codes(self, Xc: np.ndarray) -> np.ndarray:
        return self._run(Xc)[0]

    def _scores_codes(self, Xc: np.ndarray) -> np.ndarray:
        return self._run(Xc)[1]

    def predict_with_set(self, X) -> tuple[np.ndarray, np.ndarray]:
        """``(predict_set(X), predict_index(X))`` from one pass over the neighbourhoods."""
        sets, scores = self._run(self._code_test(X))[:2]
        return sets, np.argmax(np.where(sets, scores, -np.inf), axis=1)

    def predict_index(self, X) -> np.ndarray:
        """Index (into ``classes_``) of the single predicted class, the best NBC score inside the set."""
        return self.predict_with_set(X)[1]

    def neighbourhood(self, X) -> tuple[np.ndarray, np.ndarray]:
        """The ball on which each instance's final NCC was learnt: its overlap-distance radius (n,)
        and its number of training instances of each class (n, K)."""
        return self._run(self._code_test(X))[2:]
