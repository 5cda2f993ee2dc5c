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
"""
from __future__ import annotations

import numpy as np

from credalbook._validation import check_scalar
from credalbook.classifiers.base import CredalClassifierMixin
from credalbook.costs import average_set_cost, check_cost_matrix
from credalbook.classifiers.naive_bayes import naive_counts
from credalbook.classifiers.cost_sensitive import idm_posterior_bounds
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
class NestedDichotomy(CredalClassifierMixin):
    """One imprecise nested dichotomy with binary IDM naive credal classifiers at its inner nodes.

    ``tree``: nested tuples over class indices 0..K-1 (None: a random tree from ``random_state``);
    ``s``: IDM hyper-parameter of every node; ``cost``: (K, K) determinate costs (None: 0/1).
    """

    def __init__(self, tree=None, s: float = 2.0, cost=None, random_state=None):
        self.tree = tree
        self.s = s
        self.cost = cost
        self.random_state = random_state

    def fit(self, X, y):
        check_scalar(self.s, "s", low=0, low_inclusive=False)
        codes, labels = self._fit_discrete(X, y)
        self._fit_codes(codes, labels)
        return self

    def _fit_codes(self, codes, labels):
        k = self.n_classes_
        self.tree_ = (check_tree(self.tree, k) if self.tree is not None
                      else sample_dichotomy(k, self.random_state))
        self.nodes_ = inner_nodes(self.tree_)
        self.node_counts_ = []
        for node in self.nodes_:
            left, right = leaves(node[0]), leaves(node[1])
            inside = np.isin(labels, left + right)
            binary = (~np.isin(labels[inside], left)).astype(np.int64)   # 0 = left, 1 = right
            self.node_counts_.append(naive_counts(codes[inside], binary, 2, self.n_values_))

    def node_intervals(self, codes) -> list[tuple[np.ndarray, np.ndarray]]:
        """[p̲, p̄] of P(left | node, x) for each inner node (pre-order), arrays of shape (n,)."""
        intervals = []
        for counts in self.node_counts_:
            lower, upper = idm_posterior_bounds(counts, codes, self.s)
            intervals.append((lower[:, 0], upper[:, 0]))
        return intervals

    def _lower_expectation_codes(self, codes, f):
        intervals = dict(zip(self.nodes_, self.node_intervals(codes)))
        extra = (1,) * (f.ndim - 2)

        def recurse(node):
            if isinstance(node, int):
                return f[..., node]
            e_left, e_right = recurse(node[0]), recurse(node[1])
            low, up = (bound.reshape((-1,) + extra) for bound in intervals[node])
            return np.minimum(low * e_left + (1 - low) * e_right, up * e_left + (1 - up) * e_right)

        return recurse(self.tree_)

    def lower_expectation(self, X, f) -> np.ndarray:
        """E̲[f] for gains f of shape (n, ..., K) (recursive, exact for the tree's credal set)."""
        codes = self._code_test(X)
        f = np.asarray(f, dtype=float)
        if f.ndim < 2 or f.shape[0] != len(codes) or f.shape[-1] != self.n_classes_:
            raise ValueError(f"f must have shape (n, ..., K) = ({len(codes)}, ..., {self.n_classes_}), got {f.shape}")
        return self._lower_expectation_codes(codes, f)

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
        cost = 1.0 - np.eye(self.n_classes_) if self.cost is None else check_cost_matrix(self.cost)
        if cost.shape[0] != self.n_classes_:
            raise ValueError(f"cost is for {cost.shape[0]} classes but the classifier has {self.n_classes_}")
        return cost

    def _pairwise_lower(self, codes):
        gains = np.broadcast_to(pairwise_cost_differences(self._cost())[None], (len(codes),) + (self.n_classes_,) * 3)
        return self._lower_expectation_codes(codes, gains)

    def _predict_set_codes(self, codes):
        return maximal_from_lower(self._pairwise_lower(codes))

    def _scores_codes(self, codes):
        # the class whose worst pairwise comparison is best
        return np.where(np.eye(self.n_classes_, dtype=bool)[None], np.inf, self._pairwise_lower(codes)).min(axis=2)


class NestedDichotomyForest(CredalClassifierMixin):
    """"Fo": ``n_trees`` distinct uniformly sampled imprecise nested dichotomies, combined by the mean
    of their lower expectations (the mixture of their credal sets); decisions by maximality.

    ``ordered=True`` samples only order-preserving trees (for ordinal classes), as the authors'
    ``classifip`` does by default; otherwise all (2K - 3)!! trees.
    """

    def __init__(self, n_trees: int = 50, s: float = 2.0, cost=None, random_state=None, ordered: bool = False):
        self.n_trees = n_trees
        self.s = s
        self.cost = cost
        self.random_state = random_state
        self.ordered = ordered

    def fit(self, X, y):
        check_scalar(self.n_trees, "n_trees", low=1, integer=True)
        check_scalar(self.s, "s", low=0, low_inclusive=False)
        codes, labels = self._fit_discrete(X, y)
        self.estimators_ = []
        for tree in sample_dichotomies(self.n_classes_, self.n_trees, self.random_state, ordered=bool(self.ordered)):
            member = NestedDichotomy(tree=tree, s=self.s, cost=self.cost)
            for attribute in ("classes_", "n_classes_", "n_features_in_", "n_values_", "_categories"):
                setattr(member, attribute, getattr(self, attribute))
            member._fit_codes(codes, labels)
            self.estimators_.append(member)
        return self

    def lower_expectation(self, X, f) -> np.ndarray:
        """Mean over the trees of their lower expectations of f (n, ..., K)."""
        return np.mean([tree.lower_expectation(X, f) for tree in self.estimators_], axis=0)

    def _predict_set_codes(self, codes):
        lower = np.mean([tree._pairwise_lower(codes) for tree in self.estimators_], axis=0)
        return maximal_from_lower(lower)

    def _scores_codes(self, codes):
        return np.mean([tree._scores_codes(codes) for tree in self.estimators_], axis=0)

    def best_tree(self, X, y, r: float = 0.5, variant: str = "cautious") -> NestedDichotomy:
        """"2Tr": the tree of least average p-discounted cost (Eqs. 14-16, ``cost``) on (X, y), ties to the first."""
        codes = self._code_test(X)
        from credalbook.discrete import encode_labels

        classes, labels = encode_labels(y)
        index = {c: i for i, c in enumerate(self.classes_.tolist())}
        if not set(classes.tolist()) <= set(index):
            raise ValueError(f"y has labels outside the fitted classes {list(self.classes_)}")
        truth = np.array([index[c] for c in classes.tolist()])[labels]
        cost = self.estimators_[0]._cost()
        scores = [average_set_cost(cost, truth, tree._predict_set_codes(codes), "p_discounted", r=r, variant=variant)
                  for tree in self.estimators_]
        self.tree_costs_ = np.array(scores)
        return self.estimators_[int(np.argmin(scores))]
