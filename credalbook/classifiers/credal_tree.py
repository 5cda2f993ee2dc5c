"""Credal decision tree (Abellán & Moral 2003; the CDT of Zaffalon, Corani & Mauá 2012, Section 9.2).

An ID3-style tree with multiway splits on discrete features, grown by the *imprecise
information gain*

.. math:: IIG(X) = H^*(C) - \\sum_x \\frac{n_x}{N} H^*(C \\mid X = x),

where :math:`H^*` is the maximum Shannon entropy over the imprecise Dirichlet model (IDM)
credal set of the class distribution, :math:`\\{(n_k + s\\,r_k)/(N+s) : r \\in \\Delta\\}`
with :math:`s = 1`. The maximum is reached by *water filling*: the mass :math:`s` raises the
smallest counts to a common level :math:`h` with :math:`\\sum_k (h - n_k)^+ = s`
(:func:`idm_max_entropy_distribution`). A node becomes a leaf when no remaining feature has
:math:`IIG > 0`.

A leaf returns the classes that no other class dominates under the IDM intervals
:math:`[n_k/(N+s), (n_k+s)/(N+s)]`: class :math:`j` dominates :math:`k` iff
:math:`n_j/(N+s) > (n_k+s)/(N+s)`, i.e. :math:`n_j > n_k + s` (strict interval dominance,
the same strictness as the book's NCC test). ``tie_dominates=True`` reproduces the
Weka-IP convention where :math:`n_j = n_k + s` also counts as dominance (the infimum over
the *open* IDM set), so that with :math:`s = 1` only the modal classes are kept.

Conventions for what the papers leave open (documented choices): instances with a missing
value of the split feature stay in the node (they count in its class counts and :math:`H^*`)
but are not sent to a child, and the gain of a feature is computed on the instances where it
is observed; a test instance whose split value is missing, or whose value had no training
instance at that node, is classified by the node's own counts.
"""
from __future__ import annotations

import numpy as np

from credalbook._validation import check_array, check_scalar
from credalbook.classifiers.base import CredalClassifierMixin
from credalbook.decisions import interval_dominance
from credalbook.discrete import MISSING

__all__ = ["idm_max_entropy_distribution", "idm_max_entropy", "imprecise_info_gain", "idm_undominated",
           "CredalDecisionTree"]


def idm_max_entropy_distribution(counts, s: float = 1.0) -> np.ndarray:
    """The maximum-entropy distribution of the IDM credal set of ``counts`` (..., K), by water filling.

    Abellán & Moral (2003), Section 3: the mass ``s`` is spread over the smallest counts until
    they reach a common level ``h``; the result is ``max(n_k, h)/(N + s)`` (shape of ``counts``).
    """
    counts = check_array(counts, "counts", allow_empty=False)
    if counts.ndim < 1 or counts.shape[-1] < 1:
        raise ValueError(f"counts must have a last axis of classes, got shape {counts.shape}")
    if np.any(counts < 0):
        raise ValueError("counts must be non-negative")
    check_scalar(s, "s", low=0.0, low_inclusive=False)
    ordered = np.sort(counts, axis=-1)
    j = np.arange(1, counts.shape[-1] + 1)
    levels = (np.cumsum(ordered, axis=-1) + s) / j  # level if the j smallest counts are filled
    upper = np.concatenate([ordered[..., 1:], np.full(ordered.shape[:-1] + (1,), np.inf)], axis=-1)
    first = np.argmax(levels <= upper, axis=-1)  # the first j whose level does not pass the next count
    h = np.take_along_axis(levels, first[..., None], axis=-1)
    return np.maximum(counts, h) / (counts.sum(axis=-1, keepdims=True) + s)


def _entropy(p: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, -p * np.log2(p), 0.0)
    return terms.sum(axis=-1)


def idm_max_entropy(counts, s: float = 1.0) -> np.ndarray:
    """:math:`H^*` in bits: the maximum entropy over the IDM credal set of ``counts`` (..., K) -> (...)."""
    return _entropy(idm_max_entropy_distribution(counts, s))


def imprecise_info_gain(table, s: float = 1.0) -> float:
    """:math:`IIG` of a feature from its (m, K) value-by-class count ``table`` (Abellán & Moral 2003, Eq. 5).

    :math:`H^*` of the class counts minus the :math:`n_x/N`-weighted :math:`H^*` of each value's counts.
    """
    table = check_array(table, "table", ndim=2)
    if np.any(table < 0):
        raise ValueError("table must hold non-negative counts")
    total = table.sum()
    if total <= 0:
        raise ValueError("table has no instances")
    return float(_gains(table[None], s)[0])


def _gains(tables: np.ndarray, s: float) -> np.ndarray:
    """IIG of a stack of (m, K) tables (F, m, K), padded rows of zeros being ignored."""
    values = tables.sum(axis=2)  # (F, m)
    totals = values.sum(axis=1)
    parent = idm_max_entropy(tables.sum(axis=1), s)
    children = idm_max_entropy(tables, s)  # (F, m)
    weights = np.divide(values, totals[:, None], out=np.zeros_like(values), where=totals[:, None] > 0)
    return parent - (weights * children).sum(axis=1)


def idm_undominated(counts, s: float = 1.0, tie_dominates: bool = False) -> np.ndarray:
    """(..., K) bool: classes not interval-dominated under the IDM: keep k unless some n_j > n_k + s.

    With ``tie_dominates`` a class is also dropped when some n_j = n_k + s (Weka-IP's convention).
    """
    counts = check_array(counts, "counts")
    if np.any(counts < 0):
        raise ValueError("counts must be non-negative")
    check_scalar(s, "s", low=0.0, low_inclusive=False)
    total = counts.sum(axis=-1, keepdims=True) + s
    return interval_dominance(counts / total, (counts + s) / total, ties_dominate=tie_dominates)


class CredalDecisionTree(CredalClassifierMixin):
    """Credal decision tree with imprecise information gain and IDM-dominance leaves.

    ``predict_set(X)`` (n, K) bool; ``predict`` picks the most frequent class of the leaf
    inside the set. Parameters: ``s`` (IDM, 1 in the paper), ``max_depth`` (None: until no
    gain), ``tie_dominates`` (leaf convention, see the module docstring). Abellán & Moral
    (2003), Zaffalon, Corani & Mauá (2012) Section 9.2.
    """

    def __init__(self, s: float = 1.0, max_depth: int | None = None, tie_dominates: bool = False):
        self.s = s
        self.max_depth = max_depth
        self.tie_dominates = tie_dominates

    def _check_params(self):
        check_scalar(self.s, "s", low=0.0, low_inclusive=False)
        if self.max_depth is not None:
            check_scalar(self.max_depth, "max_depth", low=0, integer=True)
        if not isinstance(self.tie_dominates, (bool, np.bool_)):
            raise ValueError(f"tie_dominates must be True or False, got {self.tie_dominates!r}")

    def fit(self, X, y):
        """Grow the tree on discrete ``X`` (codes, -1 = missing) and labels ``y``."""
        self._check_params()
        Xc, yc = self._fit_discrete(X, y)
        self._m = np.maximum(self.n_values_, 1)
        self._onehot = np.eye(self.n_classes_)[yc]
        # per node: split feature (-1 leaf), index into child_of_value_ (value -> child node), class counts
        self.feature_, self.children_, self.counts_, self.child_of_value_ = [], [], [], []
        self._grow(Xc, np.arange(len(yc)), np.ones(self.n_features_in_, dtype=bool), 0)
        self.feature_ = np.array(self.feature_)
        self.children_ = np.array(self.children_)
        self.counts_ = np.array(self.counts_)
        del self._onehot
        return self

    def _grow(self, Xc: np.ndarray, rows: np.ndarray, available: np.ndarray, depth: int) -> int:
        node = len(self.feature_)
        counts = self._onehot[rows].sum(axis=0)
        self.feature_.append(-1)
        self.children_.append(-1)
        self.counts_.append(counts)
        candidates = np.flatnonzero(available & (self._m > 1))
        if candidates.size == 0 or (self.max_depth is not None and depth >= self.max_depth):
            return node
        m_max = int(self._m[candidates].max())
        sub = Xc[np.ix_(rows, candidates)]  # (r, F)
        tables = np.zeros((candidates.size, m_max + 1, self.n_classes_))
        feature_index = np.broadcast_to(np.arange(candidates.size), sub.shape)
        value_index = np.where(sub == MISSING, m_max, sub)  # missing -> a discarded extra row
        np.add.at(tables, (feature_index, value_index), self._onehot[rows][:, None, :])
        gains = _gains(tables[:, :m_max], float(self.s))
        best = int(np.argmax(gains))
        if gains[best] <= 1e-12:
            return node
        feature = int(candidates[best])
        self.feature_[node] = feature
        child_of_value = np.full(self._m[feature], -1)
        remaining = available.copy()
        remaining[feature] = False
        values = Xc[rows, feature]
        for v in range(self._m[feature]):
            selected = rows[values == v]
            if selected.size:
                child_of_value[v] = self._grow(Xc, selected, remaining, depth + 1)
        self.children_[node] = len(self.child_of_value_)
        self.child_of_value_.append(child_of_value)
        return node

    @property
    def n_nodes_(self) -> int:
        return len(self.feature_)

    @property
    def n_leaves_(self) -> int:
        return int(np.sum(self.feature_ == -1))

    def _leaf_counts(self, Xc: np.ndarray) -> np.ndarray:
        """(n, K) class counts of the node where each instance stops."""
        nodes = np.zeros(Xc.shape[0], dtype=np.int64)
        active = self.feature_[nodes] >= 0
        while active.any():
            idx = np.flatnonzero(active)
            features = self.feature_[nodes[idx]]
            values = Xc[idx, features]
            nxt = np.full(idx.size, -1)
            for node in np.unique(nodes[idx]):
                here = nodes[idx] == node
                table = self.child_of_value_[self.children_[node]]
                v = values[here]
                known = (v != MISSING) & (v < table.size)
                child = np.full(v.size, -1)
                child[known] = table[v[known]]
                nxt[here] = child
            moved = nxt >= 0
            nodes[idx[moved]] = nxt[moved]
            active[idx[~moved]] = False
            active[idx[moved]] = self.feature_[nxt[moved]] >= 0
        return self.counts_[nodes]

    def _predict_set_codes(self, Xc: np.ndarray) -> np.ndarray:
        return idm_undominated(self._leaf_counts(Xc), float(self.s), bool(self.tie_dominates))

    def _scores_codes(self, Xc: np.ndarray) -> np.ndarray:
        return self._leaf_counts(Xc).astype(float)
