"""Imprecise nested dichotomies: uniform sampling, recursion vs LP, maximality, forest and best tree."""
import collections

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credalbook.classifiers import nested_dichotomies as nd
from credalbook.classifiers.naive_bayes import naive_counts
from credalbook.costs import average_set_cost, ordinal_cost_matrix
from credalbook.decisions import lower_expectation_lp, maximality_intervals


def data(seed=0, n=120, k=5):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, (n, 3))
    y = (X[:, 0] + X[:, 1] + rng.integers(0, 2, n)) % k
    return X, y


def test_counts_and_uniform_sampling():
    assert [nd.count_dichotomies(k) for k in (2, 3, 4, 5, 9)] == [1, 3, 15, 105, 2027025]
    rng = np.random.default_rng(0)
    counts = collections.Counter(nd.sample_dichotomy(4, rng) for _ in range(6000))
    assert len(counts) == 15
    # chi-square goodness of fit against uniform (14 dof; 99.9% quantile ~ 36.1)
    expected = 6000 / 15
    assert sum((c - expected) ** 2 / expected for c in counts.values()) < 36.1
    trees = nd.sample_dichotomies(4, 15, 1)
    assert len(set(trees)) == 15
    assert all(sorted(nd.leaves(t)) == [0, 1, 2, 3] for t in trees)


def contiguous(tree):
    """Every node of the tree holds a run of consecutive classes."""
    return all(sorted(nd.leaves(node)) == list(range(min(nd.leaves(node)), max(nd.leaves(node)) + 1))
               for node in nd.inner_nodes(tree))


def test_ordered_dichotomies():
    assert [nd.count_ordered_dichotomies(k) for k in (1, 2, 3, 5, 9)] == [1, 1, 2, 14, 1430]
    rng = np.random.default_rng(0)
    counts = collections.Counter(nd.sample_ordered_dichotomy(5, rng) for _ in range(7000))
    assert len(counts) == 14 and all(contiguous(t) for t in counts)
    expected = 7000 / 14   # chi-square, 13 dof; 99.9% quantile ~ 34.5
    assert sum((c - expected) ** 2 / expected for c in counts.values()) < 34.5
    trees = nd.sample_dichotomies(5, 20, 1, ordered=True)   # more than the 14 that exist: with replacement
    assert len(trees) == 20 and len(set(trees)) <= 14
    X, y = data(2)
    forest = nd.NestedDichotomyForest(n_trees=5, ordered=True, random_state=0).fit(X, y)
    assert all(contiguous(m.tree_) for m in forest.estimators_)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 1000), st.integers(3, 6))
def test_recursion_equals_lp(seed, k):
    X, y = data(seed, k=k)
    model = nd.NestedDichotomy(s=2.0, random_state=seed).fit(X, y)
    rng = np.random.default_rng(seed)
    f = rng.normal(size=(len(X), k))[:12]
    recursive = model.lower_expectation(X[:12], f)
    lp = [lower_expectation_lp(f[i], a_ub=a, b_ub=b) for i, (a, b) in enumerate(model.credal_constraints(X[:12]))]
    np.testing.assert_allclose(recursive, lp, atol=1e-9)


def test_two_classes_reduce_to_the_ncc_intervals():
    X, y = data(3, k=2)
    model = nd.NestedDichotomy(tree=(0, 1), s=2.0, cost=1 - np.eye(2)).fit(X, y)
    low, up = model.node_intervals(X)[0]
    from credalbook.classifiers import CostSensitiveNCC

    lower, upper = CostSensitiveNCC(s=2.0).fit(X, y).predict_intervals(X)
    np.testing.assert_allclose(low, lower[:, 0])
    np.testing.assert_allclose(up, upper[:, 0])
    np.testing.assert_array_equal(model.predict_set(X), maximality_intervals(lower, upper, 1 - np.eye(2)))


def test_forest_and_best_tree():
    X, y = data(1)
    cost = ordinal_cost_matrix(5)
    forest = nd.NestedDichotomyForest(n_trees=8, s=2.0, cost=cost, random_state=0).fit(X, y)
    assert len({m.tree_ for m in forest.estimators_}) == 8
    f = np.random.default_rng(0).normal(size=(len(X), 5))
    np.testing.assert_allclose(forest.lower_expectation(X, f),
                               np.mean([m.lower_expectation(X, f) for m in forest.estimators_], axis=0))
    sets = forest.predict_set(X)
    assert sets.any(axis=1).all()
    best = forest.best_tree(X, y)
    assert best is forest.estimators_[int(np.argmin(forest.tree_costs_))]
    # a mixture is less imprecise than its least precise member: forest sets no larger on average than the max
    sizes = [m.predict_set(X).sum(axis=1).mean() for m in forest.estimators_]
    assert sets.sum(axis=1).mean() <= max(sizes) + 1e-12


def test_node_counts_are_those_of_the_nodes_instances():
    X, y = data(4, k=6)
    X[::7, 1] = -1                                  # a missing value enters no count
    forest = nd.NestedDichotomyForest(n_trees=6, random_state=1).fit(X, y)
    for tree in forest.estimators_:
        for node, counts in zip(tree.nodes_, tree.node_counts_):
            left, right = nd.leaves(node[0]), nd.leaves(node[1])
            inside = np.isin(y, left + right)
            direct = naive_counts(X[inside], (~np.isin(y[inside], left)).astype(int), 2, forest.n_values_)
            for field in ("class_counts", "table", "observed", "n_values", "used"):
                np.testing.assert_array_equal(getattr(counts, field), getattr(direct, field))


def test_tree_sets_and_costs_are_each_trees_own():
    X, y = data(5, n=150, k=5)
    cost = ordinal_cost_matrix(5)
    forest = nd.NestedDichotomyForest(n_trees=7, cost=cost, random_state=2).fit(X, y)
    sets = forest.tree_sets(X)
    assert sets.shape == (7, len(X), 5)
    for member, member_sets in zip(forest.estimators_, sets):
        np.testing.assert_array_equal(member_sets, member.predict_set(X))   # one tree predicts alone the same
    for r, variant in ((0.5, "cautious"), (0.2, "mistake_averse")):
        forest.best_tree(X, y, r=r, variant=variant)
        np.testing.assert_array_equal(forest.tree_costs_, [average_set_cost(cost, y, member_sets, r=r, variant=variant)
                                                           for member_sets in sets])
    assert forest.predict(X).shape == (len(X),)


class TestBadInput:
    def test_trees(self):
        with pytest.raises(ValueError, match="exactly once"):
            nd.NestedDichotomy(tree=((0, 1), (1, 2))).fit(*data(k=3))
        with pytest.raises(ValueError, match="pairs"):
            nd.NestedDichotomy(tree=((0, 1, 2),)).fit(*data(k=3))
        with pytest.raises(ValueError, match="n_classes"):
            nd.sample_dichotomy(1, 0)
        with pytest.raises(ValueError, match="n_trees"):
            nd.NestedDichotomyForest(n_trees=0).fit(*data())

    def test_fit_predict(self):
        X, y = data(k=3)
        with pytest.raises(ValueError, match="s must be"):
            nd.NestedDichotomy(s=-1.0).fit(X, y)
        with pytest.raises(ValueError, match="cost is for 4 classes"):
            nd.NestedDichotomy(random_state=0, cost=np.ones((4, 4))).fit(X, y)
        with pytest.raises(ValueError, match="shape"):
            nd.NestedDichotomy(random_state=0).fit(X, y).lower_expectation(X, np.zeros((len(X), 2)))
        forest = nd.NestedDichotomyForest(n_trees=2, random_state=0).fit(X, y)
        with pytest.raises(ValueError, match="outside"):
            forest.best_tree(X, y + 10)
        with pytest.raises(ValueError, match="X has 2 features"):
            forest.tree_sets(X[:, :2])
