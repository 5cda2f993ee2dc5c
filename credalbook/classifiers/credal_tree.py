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


def _entropy_terms(p: np.ndarray) -> np.ndarray:
    """The terms :math:`-p \\log_2 p` (0 where p = 0) of the Shannon entropy, elementwise."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(p > 0, -p * np.log2(p), 0.0)


def _entropy(p: np.ndarray) -> np.ndarray:
    return _entropy_terms(p).sum(axis=-1)


def _max_entropies(counts: np.ndarray, s: float) -> np.ndarray:
    """:func:`idm_max_entropy` of the rows of ``counts`` (R, K), bit for bit, with compiled water filling:
    NumPy's logarithm is taken once per distinct probability of a row (Abellán & Moral 2003, Section 3)."""
    from credalbook._kernels import idm_entropy_sums, idm_water_levels

    levels, ptr, points = idm_water_levels(counts, s)
    return idm_entropy_sums(counts, levels, ptr, _entropy_terms(points))


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

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0]] * 5 + [[1, 1]] * 5 + [[0, 1], [1, 0], [0, 1], [1, 0]])
    >>> y = ["a"] * 5 + ["b"] * 5 + ["a", "a", "b", "b"]
    >>> x = [[0, 0], [1, 1], [0, 1]]     # in the third instance the two features disagree
    >>> model = CredalDecisionTree().fit(X, y)
    >>> model.predict_set(x).tolist()
    [[True, False], [False, True], [True, True]]
    >>> model.predict(x).tolist()
    ['a', 'b', 'a']
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
        """Grow the tree on discrete ``X`` (codes, -1 = missing) and labels ``y``.

        The nodes of a depth are grown together (count tables, :math:`H^*` and :math:`IIG`, Abellán &
        Moral 2003, Eq. 5, for all of them at once), then numbered depth first as a recursive growth
        would number them: the splits and the fitted attributes are the same.
        """
        self._check_params()
        Xc, yc = self._fit_discrete(X, y)
        Xc = np.ascontiguousarray(Xc)
        yc = np.ascontiguousarray(yc)
        self._m = np.maximum(self.n_values_, 1)
        k = self.n_classes_
        # the nodes of the current depth: rows order[starts[i]:ends[i]], features still available
        order = np.arange(yc.size)
        starts, ends = np.zeros(1, dtype=np.int64), np.full(1, yc.size, dtype=np.int64)
        available = np.ones((1, self.n_features_in_), dtype=bool)
        features, counts, first_child, n_children, child_values = [], [], [], [], []
        depth, n_nodes = 0, 1
        while starts.size:
            segment = np.repeat(np.arange(starts.size), ends - starts)  # the nodes tile ``order``
            counts.append(np.bincount(segment * k + yc[order], minlength=starts.size * k)
                          .reshape(starts.size, k).astype(float))
            if self.max_depth is not None and depth >= self.max_depth:
                feature = np.full(starts.size, -1, dtype=np.int64)
            else:
                feature = self._best_splits(Xc, yc, order, starts, ends, available)
            features.append(feature)
            splits = np.flatnonzero(feature >= 0)
            level_first = np.full(starts.size, -1, dtype=np.int64)
            level_children = np.zeros(starts.size, dtype=np.int64)
            if splits.size:
                order, starts, ends, parent, values = self._children(Xc, order, starts[splits], ends[splits],
                                                                     feature[splits])
                per_split = np.bincount(parent, minlength=splits.size)
                level_children[splits] = per_split
                level_first[splits] = n_nodes + np.concatenate([[0], np.cumsum(per_split)[:-1]])
                child_values.append(values)
                available = available[splits[parent]]
                available[np.arange(parent.size), feature[splits[parent]]] = False
                n_nodes += parent.size
                depth += 1
            first_child.append(level_first)
            n_children.append(level_children)
            if not splits.size:
                break
        self._store_depth_first(np.concatenate(features), np.concatenate(counts), np.concatenate(first_child),
                                np.concatenate(n_children),
                                np.concatenate(child_values) if child_values else np.zeros(0, dtype=np.int64))
        return self

    def _best_splits(self, Xc, yc, order, starts, ends, available) -> np.ndarray:
        """Per node of a level (rows ``order[starts[i]:ends[i]]``): the feature of largest imprecise
        information gain among those ``available`` with more than one value, or -1 for a leaf (no
        such feature, or no positive gain; Abellán & Moral 2003, Eq. 5)."""
        from credalbook._kernels import cdt_count_tables, cdt_gains

        feature = np.full(starts.size, -1, dtype=np.int64)
        candidate = available & (self._m > 1)
        nodes = np.flatnonzero(candidate.any(axis=1))
        if not nodes.size:
            return feature
        s = float(self.s)
        node_of, cand = np.nonzero(candidate[nodes])
        cand_ptr = np.concatenate([[0], np.cumsum(np.bincount(node_of, minlength=nodes.size))])
        m_max = np.maximum.reduceat(self._m[cand], cand_ptr[:-1])
        table_ptr = np.concatenate([[0], np.cumsum(m_max[node_of])])
        values, seen, tables, observed = cdt_count_tables(Xc, yc, order, starts[nodes], ends[nodes],
                                                          cand_ptr, cand, table_ptr, self.n_classes_)
        children = np.zeros(values.size)  # a value without instances weighs 0 in the gain
        children[seen] = _max_entropies(tables, s)
        gains, best = cdt_gains(values, children, _max_entropies(observed, s), table_ptr, cand_ptr)
        split = ~(gains[best] <= 1e-12)
        feature[nodes[split]] = cand[best[split]]
        return feature

    def _children(self, Xc, order, starts, ends, feature):
        """Split the nodes ``order[starts[i]:ends[i]]`` on ``feature[i]``: ``(order, starts, ends)`` of the
        children (one per value with instances, in value order), each child's node ``parent`` (an index
        into the split nodes) and the ``value`` that leads to it."""
        from credalbook._kernels import cdt_partition

        n_values = self._m[feature]
        order, bounds = cdt_partition(Xc, order, starts, ends, feature, n_values)
        slots = np.flatnonzero(np.diff(bounds))
        parent = np.repeat(np.arange(feature.size), n_values)[slots]
        values = slots - np.concatenate([[0], np.cumsum(n_values)[:-1]])[parent]
        return order, bounds[slots], bounds[slots + 1], parent, values

    def _store_depth_first(self, feature, counts, first_child, n_children, child_value):
        """Set ``feature_``, ``children_``, ``counts_`` and ``child_of_value_`` from the nodes numbered level
        by level (``child_value`` the split value leading to each node but the root), in the depth-first
        numbering of a recursive growth: a node on entry, a split's ``child_of_value_`` row when finished."""
        from credalbook._kernels import cdt_preorder

        preorder, postorder = cdt_preorder(first_child, n_children)
        rank = np.empty_like(preorder)
        rank[preorder] = np.arange(preorder.size)
        row = np.full(preorder.size, -1, dtype=np.int64)
        row[postorder] = np.arange(postorder.size)
        sizes = self._m[feature[postorder]]
        ends = np.cumsum(sizes)
        table = np.full(int(ends[-1]) if sizes.size else 0, -1, dtype=np.int64)
        child = np.arange(1, preorder.size)  # every node but the root, by level number
        parent = np.repeat(np.arange(first_child.size), n_children)
        table[(ends - sizes)[row[parent]] + child_value] = rank[child]
        self.feature_ = feature[preorder]
        self.children_ = row[preorder]
        self.counts_ = counts[preorder]
        self.child_of_value_ = np.split(table, ends[:-1]) if sizes.size else []

    @property
    def n_nodes_(self) -> int:
        return len(self.feature_)

    @property
    def n_leaves_(self) -> int:
        return int(np.sum(self.feature_ == -1))

    def _leaf_counts(self, Xc: np.ndarray) -> np.ndarray:
        """(n, K) class counts of the node where each instance stops (all instances moved a level at a time)."""
        nodes = np.zeros(Xc.shape[0], dtype=np.int64)
        if not self.child_of_value_:
            return self.counts_[nodes]
        sizes = np.array([table.size for table in self.child_of_value_])
        offsets = np.cumsum(sizes) - sizes
        table = np.concatenate(self.child_of_value_)
        active = np.flatnonzero(self.feature_[nodes] >= 0)
        while active.size:
            here = nodes[active]
            values = Xc[active, self.feature_[here]]
            row = self.children_[here]
            known = (values != MISSING) & (values < sizes[row])
            child = np.full(active.size, -1)
            child[known] = table[offsets[row[known]] + values[known]]
            moved = child >= 0
            nodes[active[moved]] = child[moved]
            active = active[moved][self.feature_[child[moved]] >= 0]
        return self.counts_[nodes]

    def _predict_set_codes(self, Xc: np.ndarray) -> np.ndarray:
        return idm_undominated(self._leaf_counts(Xc), float(self.s), bool(self.tie_dominates))

    def _scores_codes(self, Xc: np.ndarray) -> np.ndarray:
        return self._leaf_counts(Xc).astype(float)
