"""Imprecise nested dichotomies (Yang, Destercke & Masson, ECAI 2014; used in their 2017 paper, §VII-D).

A nested dichotomy is a rooted binary tree whose leaves are the K classes; each inner node
splits its classes into a left and a right group and holds a binary naive credal classifier
(IDM with hyper-parameter ``s``, the posterior bounds of Eqs. 23-24 of the 2017 paper) that
gives an interval [p̲, p̄] for P(left | node, x). The credal set over the classes is every
distribution whose conditional at each inner node lies in its interval, which is also the
polytope {p : p̲ P(node) <= P(left) <= p̄ P(node) for every inner node} (:meth:`NestedDichotomy.
credal_constraints`, the LP oracle of the tests).

Lower expectations of a gain vector f are computed recursively from the leaves (O(K)):
E̲(node) = min(p̲ E̲(left) + (1 - p̲) E̲(right), p̄ E̲(left) + (1 - p̄) E̲(right)).
Decisions use maximality with a determinate cost matrix (K(K-1) pairwise comparisons).

Trees are nested tuples: a leaf is a class index, an inner node a pair ``(left, right)``.
:func:`sample_dichotomy` draws a tree uniformly among the (2K - 3)!! possible ones,
:func:`sample_ordered_dichotomy` among the Catalan(K - 1) order-preserving ones (ordinal classes).

Ensembles (2017 paper, §VII-D): "Fo" is a forest of 50 sampled trees. **Combination**: the
forest's lower expectation is the mean of its trees' lower expectations, i.e. the lower
expectation of the equal-weight mixture {mean_t p_t : p_t in the credal set of tree t}, a
coherent lower prevision; maximality is applied to it. "2Tr" is the sampled tree with the
least average p-discounted cost on the training set (:meth:`NestedDichotomyForest.best_tree`).

Computation: a node's binary classifier depends only on its split (the classes left and right),
so its counts are sums of the K-class counts, the trees of a forest share the splits they have
in common, and the intervals of all splits are computed in one batch
(:func:`credalbook.classifiers.cost_sensitive.stacked_idm_posterior_bounds`); predictions depend
on an instance only through its feature codes and are made once per distinct row.
"""
from __future__ import annotations

import numpy as np

from credalbook._validation import check_scalar
from credalbook.classifiers.base import CredalClassifierMixin, choose_in_set
from credalbook.costs import _classifier_cost as classifier_cost, set_cost_table
from credalbook.classifiers.naive import distinct_rows
from credalbook.classifiers.naive_bayes import NaiveCounts, naive_counts
from credalbook.classifiers.cost_sensitive import stacked_idm_posterior_bounds
from credalbook.decisions import maximal_from_lower, pairwise_cost_differences

__all__ = ["leaves", "inner_nodes", "check_tree", "canonical", "count_dichotomies", "sample_dichotomy",
           "count_ordered_dichotomies", "sample_ordered_dichotomy", "sample_dichotomies", "NestedDichotomy",
           "NestedDichotomyForest"]


# --------------------------------------------------------------------------------------------
# trees
# --------------------------------------------------------------------------------------------
def leaves(tree) -> list[int]:
    """Classes of a (sub)tree, left to right."""
    return [tree] if isinstance(tree, (int, np.integer)) else leaves(tree[0]) + leaves(tree[1])


def inner_nodes(tree) -> list[tuple]:
    """Inner nodes in pre-order (root first)."""
    if isinstance(tree, (int, np.integer)):
        return []
    return [tree] + inner_nodes(tree[0]) + inner_nodes(tree[1])


def check_tree(tree, n_classes: int):
    """A binary tree over exactly the classes 0..K-1, each once; returned with int leaves."""
    def clean(node):
        if isinstance(node, (int, np.integer)):
            return int(node)
        if not isinstance(node, (tuple, list)) or len(node) != 2:
            raise ValueError(f"tree nodes must be class indices or (left, right) pairs, got {node!r}")
        return clean(node[0]), clean(node[1])

    tree = clean(tree)
    found = sorted(leaves(tree))
    if found != list(range(n_classes)):
        raise ValueError(f"tree must have every class 0..{n_classes - 1} exactly once as a leaf, got leaves {found}")
    return tree


def canonical(tree):
    """The tree with each node's children ordered by their smallest class (left/right is immaterial)."""
    if isinstance(tree, int):
        return tree
    a, b = canonical(tree[0]), canonical(tree[1])
    return (a, b) if min(leaves(a)) < min(leaves(b)) else (b, a)


def count_dichotomies(n_classes: int) -> int:
    """(2K - 3)!!: the number of nested dichotomies of K classes."""
    check_scalar(n_classes, "n_classes", low=1, integer=True)
    return int(np.prod(np.arange(1, 2 * n_classes - 2, 2, dtype=object))) if n_classes > 1 else 1


def sample_dichotomy(n_classes: int, rng) -> tuple:
    """A nested dichotomy drawn uniformly among all (2K - 3)!! trees.

    Classes are inserted one by one in random order; class k + 1 goes above a node chosen
    uniformly among the 2k - 1 nodes of the current tree (each insertion is a bijection, hence
    uniformity).
    """
    check_scalar(n_classes, "n_classes", low=2, integer=True)
    rng = np.random.default_rng(rng)
    order = rng.permutation(n_classes).tolist()
    tree = order[0]
    for index, label in enumerate(order[1:], start=1):
        target = int(rng.integers(2 * index - 1))
        tree, _ = _insert(tree, target, label)
    return canonical(tree)


def _insert(node, target: int, label: int):
    """Replace the ``target``-th node (pre-order) by (node, label); returns (tree, nodes visited)."""
    if target == 0:
        return (node, label), -1
    if isinstance(node, int):
        return node, target - 1
    left, remaining = _insert(node[0], target - 1, label)
    if remaining < 0:
        return (left, node[1]), -1
    right, remaining = _insert(node[1], remaining, label)
    return (left, right), remaining


def count_ordered_dichotomies(n_classes: int) -> int:
    """Catalan(K - 1): nested dichotomies whose every node splits a run of consecutive classes in two runs."""
    check_scalar(n_classes, "n_classes", low=1, integer=True)
    n = n_classes - 1
    return int(np.prod(np.arange(n + 2, 2 * n + 1, dtype=object)) // np.prod(np.arange(1, n + 1, dtype=object))) \
        if n > 0 else 1


def sample_ordered_dichotomy(n_classes: int, rng, first: int = 0) -> tuple:
    """An order-preserving nested dichotomy (ordinal classes), uniform among the Catalan(K - 1) ones.

    The root splits classes first..first+K-1 after the k-th with probability
    Catalan(k - 1) Catalan(K - k - 1) / Catalan(K - 1); each side is drawn the same way.
    """
    check_scalar(n_classes, "n_classes", low=1, integer=True)
    rng = np.random.default_rng(rng)
    if n_classes == 1:
        return first
    weights = np.array([count_ordered_dichotomies(k) * count_ordered_dichotomies(n_classes - k)
                        for k in range(1, n_classes)], dtype=float)
    k = int(rng.choice(np.arange(1, n_classes), p=weights / weights.sum()))
    return (sample_ordered_dichotomy(k, rng, first), sample_ordered_dichotomy(n_classes - k, rng, first + k))


def sample_dichotomies(n_classes: int, n_trees: int, rng, ordered: bool = False) -> list[tuple]:
    """``n_trees`` distinct uniformly drawn trees (with replacement when fewer trees exist).

    ``ordered``: only order-preserving trees (:func:`sample_ordered_dichotomy`), else all trees.
    """
    check_scalar(n_trees, "n_trees", low=1, integer=True)
    rng = np.random.default_rng(rng)
    count = count_ordered_dichotomies(n_classes) if ordered else count_dichotomies(n_classes)
    draw = sample_ordered_dichotomy if ordered else sample_dichotomy
    trees: list[tuple] = []
    while len(trees) < n_trees:
        tree = draw(n_classes, rng)
        if count < n_trees or tree not in trees:
            trees.append(tree)
    return trees


# --------------------------------------------------------------------------------------------
# one imprecise nested dichotomy
# --------------------------------------------------------------------------------------------
def _split(node) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The classes on the left and on the right of an inner node: all its binary classifier depends on."""
    return tuple(sorted(leaves(node[0]))), tuple(sorted(leaves(node[1])))


def _split_counts(counts: NaiveCounts, split) -> NaiveCounts:
    """The naive counts of a node's binary problem (0 = left, 1 = right), summed from the K-class counts."""
    left, right = list(split[0]), list(split[1])
    table = np.stack([counts.table[:, left].sum(axis=1), counts.table[:, right].sum(axis=1)], axis=1)   # (d, 2, M)
    return NaiveCounts(class_counts=np.array([counts.class_counts[left].sum(), counts.class_counts[right].sum()]),
                       table=table, observed=table.sum(axis=2), n_values=counts.n_values, used=counts.used)


def _split_intervals(counted: dict, codes, s: float) -> dict:
    """{split: (p̲, p̄)}: the bounds (n,) of P(left | node, x), Eqs. (23)-(24), of every split of ``counted``
    (split: naive counts)."""
    counts = list(counted.values())
    lower, upper = stacked_idm_posterior_bounds(np.array([c.class_counts for c in counts]),
                                                np.array([c.table for c in counts]),
                                                np.array([c.observed for c in counts]), counts[0].used, codes, s)
    return {split: (lower[:, j, 0], upper[:, j, 0]) for j, split in enumerate(counted)}


def _worst_comparison(lower) -> np.ndarray:
    """(..., K) scores from pairwise lower expectations (..., K, K): class i's worst comparison min_j E̲[c_j - c_i]."""
    k = lower.shape[-1]
    return np.where(np.eye(k, dtype=bool), np.inf, lower).min(axis=-1)


def _check_random_state(random_state) -> None:
    """Refuse what :func:`numpy.random.default_rng` does not take, naming ``random_state``."""
    message = f"random_state must be None, a non-negative integer or a numpy Generator, got {random_state!r}"
    if isinstance(random_state, (bool, np.bool_)):
        raise ValueError(message)
    try:
        np.random.default_rng(random_state)
    except (TypeError, ValueError):
        raise ValueError(message) from None


class NestedDichotomy(CredalClassifierMixin):
    """One imprecise nested dichotomy with binary IDM naive credal classifiers at its inner nodes.

    ``tree``: nested tuples over class indices 0..K-1 (None: a random tree from ``random_state``);
    ``s``: IDM hyper-parameter of every node; ``cost``: (K, K) determinate costs (None: 0/1).

    Examples
    --------
    Three classes, split first into {0} against {1, 2}:

    >>> import numpy as np
    >>> X = np.array([[0]] * 6 + [[1]] * 6 + [[2]] * 6)
    >>> y = [0] * 6 + [1] * 4 + [2] * 2 + [1] * 2 + [2] * 4
    >>> model = NestedDichotomy(tree=(0, (1, 2))).fit(X, y)
    >>> model.nodes_
    [(0, (1, 2)), (1, 2)]
    >>> model.predict_set([[0], [1], [2]]).astype(int).tolist()
    [[1, 0, 0], [0, 1, 1], [0, 1, 1]]
    """

    def __init__(self, tree=None, s: float = 2.0, cost=None, random_state=None):
        self.tree = tree
        self.s = s
        self.cost = cost
        self.random_state = random_state

    def fit(self, X, y):
        """Draw the tree (unless ``tree`` is given) and count the training data of each inner node.

        Parameters
        ----------
        X
            (n_samples, n_features) discrete features: integer codes 0..m-1 (NaN or -1: missing) or a
            DataFrame of pandas Categoricals (:mod:`credalbook.discrete`).
        y
            (n_samples,) class labels; a pandas Categorical declares classes that ``y`` lacks.

        Returns
        -------
        NestedDichotomy
            The fitted classifier.
        """
        check_scalar(self.s, "s", low=0, low_inclusive=False)
        _check_random_state(self.random_state)
        codes, labels = self._fit_discrete(X, y)
        self._cost()   # refuses a cost matrix for another number of classes now, not at prediction
        self._fit_counts(naive_counts(codes, labels, self.n_classes_, self.n_values_), {})
        return self

    def _fit_counts(self, counts: NaiveCounts, counted: dict):
        """Each inner node's counts from the K-class ``counts``; ``counted`` maps a split to its counts
        (the trees of a forest share their splits' counts) and is updated."""
        k = self.n_classes_
        self.tree_ = (check_tree(self.tree, k) if self.tree is not None
                      else sample_dichotomy(k, self.random_state))
        self.nodes_ = inner_nodes(self.tree_)
        self._splits = {node: _split(node) for node in self.nodes_}
        for split in self._splits.values():
            if split not in counted:
                counted[split] = _split_counts(counts, split)
        self.node_counts_ = [counted[self._splits[node]] for node in self.nodes_]

    def _intervals(self, codes) -> dict:
        """{split: (p̲, p̄)} of this tree's inner nodes."""
        return _split_intervals(dict(zip(self._splits.values(), self.node_counts_)), codes, self.s)

    def node_intervals(self, codes) -> list[tuple[np.ndarray, np.ndarray]]:
        """[p̲, p̄] of P(left | node, x) for each inner node (pre-order), arrays of shape (n,)."""
        intervals = self._intervals(codes)
        return [intervals[self._splits[node]] for node in self.nodes_]

    def _lower_expectation_codes(self, f, intervals: dict):
        """The recursion of the module docstring, with the node intervals (n,) by split (shared within a forest)."""
        extra = (1,) * (f.ndim - 2)

        def recurse(node):
            if isinstance(node, int):
                return f[..., node]
            e_left, e_right = recurse(node[0]), recurse(node[1])
            low, up = (bound.reshape((-1,) + extra) for bound in intervals[self._splits[node]])
            return np.minimum(low * e_left + (1 - low) * e_right, up * e_left + (1 - up) * e_right)

        return recurse(self.tree_)

    def lower_expectation(self, X, f) -> np.ndarray:
        """E̲[f] for gains f of shape (n, ..., K) (recursive, exact for the tree's credal set)."""
        codes = self._code_test(X)
        f = np.asarray(f, dtype=float)
        if f.ndim < 2 or f.shape[0] != len(codes) or f.shape[-1] != self.n_classes_:
            raise ValueError(f"f must have shape (n, ..., K) = ({len(codes)}, ..., {self.n_classes_}), got {f.shape}")
        return self._lower_expectation_codes(f, self._intervals(codes))

    def credal_constraints(self, X) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per instance, (A_ub, b_ub) of the credal set over the K classes: p̲ P(node) <= P(left) <= p̄ P(node)."""
        codes = self._code_test(X)
        k = self.n_classes_
        rows = []
        for node, (low, up) in zip(self.nodes_, self.node_intervals(codes)):
            left = np.isin(np.arange(k), leaves(node[0])).astype(float)
            both = np.isin(np.arange(k), leaves(node)).astype(float)
            rows.append((left, both, low, up))
        constraints = []
        for i in range(len(codes)):
            a = [low[i] * both - left for left, both, low, up in rows] + [left - up[i] * both
                                                                          for left, both, low, up in rows]
            constraints.append((np.array(a), np.zeros(len(a))))
        return constraints

    def _cost(self):
        return classifier_cost(self.cost, self.n_classes_)

    def _pairwise_lower(self, n: int, intervals: dict):
        """(n, K, K) lower expectations E̲[c_j - c_i] (Eq. 6) of every pair of classes, from the node intervals."""
        gains = np.broadcast_to(pairwise_cost_differences(self._cost())[None], (n,) + (self.n_classes_,) * 3)
        return self._lower_expectation_codes(gains, intervals)

    def _predict_set_codes(self, codes):
        distinct, inverse = distinct_rows(codes, self.n_values_)
        return maximal_from_lower(self._pairwise_lower(len(distinct), self._intervals(distinct)))[inverse]

    def _scores_codes(self, codes):
        # the class whose worst pairwise comparison is best
        distinct, inverse = distinct_rows(codes, self.n_values_)
        return _worst_comparison(self._pairwise_lower(len(distinct), self._intervals(distinct)))[inverse]


#: Elements of the largest array a forest's prediction makes per block of rows (see ``NestedDichotomyForest``).
_FOREST_BLOCK_ELEMENTS = 4_000_000


class NestedDichotomyForest(CredalClassifierMixin):
    """"Fo": ``n_trees`` distinct uniformly sampled imprecise nested dichotomies, combined by the mean
    of their lower expectations (the mixture of their credal sets); decisions by maximality.

    ``ordered=True`` samples only order-preserving trees (for ordinal classes), as the authors'
    ``classifip`` does by default; otherwise all (2K - 3)!! trees.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0]] * 6 + [[1]] * 6 + [[2]] * 6)
    >>> y = [0] * 6 + [1] * 4 + [2] * 2 + [1] * 2 + [2] * 4
    >>> forest = NestedDichotomyForest(n_trees=3, random_state=0).fit(X, y)
    >>> len(forest.estimators_)
    3
    >>> forest.predict_set([[0], [1], [2]]).astype(int).tolist()
    [[1, 0, 0], [0, 1, 1], [0, 1, 1]]
    """

    def __init__(self, n_trees: int = 50, s: float = 2.0, cost=None, random_state=None, ordered: bool = False):
        self.n_trees = n_trees
        self.s = s
        self.cost = cost
        self.random_state = random_state
        self.ordered = ordered

    def fit(self, X, y):
        """Draw ``n_trees`` distinct trees and count the training data of their inner nodes.

        Parameters
        ----------
        X
            (n_samples, n_features) discrete features: integer codes 0..m-1 (NaN or -1: missing) or a
            DataFrame of pandas Categoricals (:mod:`credalbook.discrete`).
        y
            (n_samples,) class labels; a pandas Categorical declares classes that ``y`` lacks.

        Returns
        -------
        NestedDichotomyForest
            The fitted classifier.
        """
        check_scalar(self.n_trees, "n_trees", low=1, integer=True)
        check_scalar(self.s, "s", low=0, low_inclusive=False)
        _check_random_state(self.random_state)
        if not isinstance(self.ordered, (bool, np.bool_)):
            raise ValueError(f"ordered must be True or False, got {self.ordered!r}")
        codes, labels = self._fit_discrete(X, y)
        classifier_cost(self.cost, self.n_classes_)   # refused now, not at prediction
        counts = naive_counts(codes, labels, self.n_classes_, self.n_values_)
        self.estimators_ = []
        self._counted = {}   # naive counts by split: trees that share a split share its counts
        for tree in sample_dichotomies(self.n_classes_, self.n_trees, self.random_state, ordered=bool(self.ordered)):
            member = NestedDichotomy(tree=tree, s=self.s, cost=self.cost)
            for attribute in ("classes_", "n_classes_", "n_features_in_", "n_values_", "_categories"):
                setattr(member, attribute, getattr(self, attribute))
            member._fit_counts(counts, self._counted)
            self.estimators_.append(member)
        return self

    def lower_expectation(self, X, f) -> np.ndarray:
        """Mean over the trees of their lower expectations of f (n, ..., K)."""
        return np.mean([tree.lower_expectation(X, f) for tree in self.estimators_], axis=0)

    def _tree_lowers(self, codes) -> np.ndarray:
        """(n_trees, n, K, K) pairwise lower expectations of every tree, each split's intervals computed once."""
        intervals = _split_intervals(self._counted, codes, self.s)
        return np.array([tree._pairwise_lower(len(codes), intervals) for tree in self.estimators_])

    def _sets_and_scores(self, codes, sets: bool = True, scores: bool = True):
        """(sets, scores) (n, K) of ``codes`` (each None unless asked), from one pass over the distinct rows.

        The rows go in blocks of ``_FOREST_BLOCK_ELEMENTS`` elements of the largest array (every
        tree's pairwise lower expectations, and the split intervals' (rows, d, splits, 2) terms):
        each row's numbers are computed by the same operations whatever the block, and the
        arrays of 100,000 rows (gigabytes) are never made whole.
        """
        distinct, inverse = distinct_rows(codes, self.n_values_)
        m, k = len(distinct), self.n_classes_
        per_row = max(len(self.estimators_) * k ** 3, distinct.shape[1] * len(self._counted) * 2, 1)
        block = max(1, _FOREST_BLOCK_ELEMENTS // per_row)
        found_sets = np.empty((m, k), dtype=bool) if sets else None
        found_scores = np.empty((m, k)) if scores else None
        for start in range(0, m, block):
            rows = slice(start, start + block)
            lowers = self._tree_lowers(distinct[rows])
            if sets:
                found_sets[rows] = maximal_from_lower(lowers.mean(axis=0))
            if scores:
                found_scores[rows] = _worst_comparison(lowers).mean(axis=0)
        return (found_sets[inverse] if sets else None), (found_scores[inverse] if scores else None)

    def _predict_set_codes(self, codes):
        return self._sets_and_scores(codes, scores=False)[0]

    def _scores_codes(self, codes):
        return self._sets_and_scores(codes, sets=False)[1]

    def predict_index(self, X) -> np.ndarray:
        """Index (into ``classes_``) of the single predicted class: the best-scored class inside the set."""
        return choose_in_set(*self._sets_and_scores(self._code_test(X)))

    def predict_with_set(self, X) -> tuple[np.ndarray, np.ndarray]:
        """``(predict_set(X), predict_index(X))`` from one pass over the distinct rows (sets and scores share it)."""
        sets, scores = self._sets_and_scores(self._code_test(X))
        return sets, choose_in_set(sets, scores)

    def _distinct_tree_sets(self, codes) -> tuple[np.ndarray, np.ndarray]:
        """(n_trees, m, K) maximal sets (Eq. 7) of every tree on the m distinct rows of codes, and each row's index."""
        distinct, inverse = distinct_rows(codes, self.n_values_)
        lowers = self._tree_lowers(distinct)
        n_trees, m, k = lowers.shape[:3]
        return maximal_from_lower(lowers.reshape(-1, k, k)).reshape(n_trees, m, k), inverse

    def tree_sets(self, X) -> np.ndarray:
        """(n_trees, n, K) boolean: the maximal classes (Eq. 7) of every tree of the forest for each instance of X."""
        sets, inverse = self._distinct_tree_sets(self._code_test(X))
        return sets[:, inverse]

    def best_tree(self, X, y, r: float = 0.5, variant: str = "cautious") -> NestedDichotomy:
        """"2Tr": the tree of least average p-discounted cost (Eqs. 14-16, ``cost``) on (X, y), ties to the first."""
        from credalbook.discrete import encode_labels

        sets, inverse = self._distinct_tree_sets(self._code_test(X))
        classes, labels = encode_labels(y)
        index = {c: i for i, c in enumerate(self.classes_.tolist())}
        if not set(classes.tolist()) <= set(index):
            raise ValueError(f"y has labels outside the fitted classes {list(self.classes_)}")
        truth = np.array([index[c] for c in classes.tolist()])[labels]
        n_trees, m, k = sets.shape
        table = set_cost_table(self.estimators_[0]._cost(), sets.reshape(-1, k), "p_discounted", r=r,
                               variant=variant).reshape(n_trees, m, k)
        # Eq. (4) for each tree, one mean per tree (a mean along an axis may sum in another order)
        self.tree_costs_ = np.array([costs.mean() for costs in table[:, inverse, truth]])
        return self.estimators_[int(np.argmin(self.tree_costs_))]
