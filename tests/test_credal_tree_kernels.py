"""The credal tree's compiled kernels (credalbook._kernels) against the NumPy code they replace, bit for bit."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credalbook._kernels import (
    cdt_count_tables,
    cdt_gains,
    cdt_partition,
    cdt_preorder,
    idm_entropy_sums,
    idm_water_levels,
)
from credalbook.classifiers.credal_tree import (
    CredalDecisionTree,
    _entropy_terms,
    _gains,
    idm_max_entropy,
    idm_max_entropy_distribution,
)
from credalbook.discrete import MISSING

S_VALUES = st.sampled_from([0.3, 0.5, 1.0, 2.0, 7.0])


def sparse_counts(rng, rows, k, high=30):
    counts = rng.integers(0, high, size=(rows, k)).astype(float)
    counts[rng.random((rows, k)) < 0.7] = 0.0
    return counts


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([2, 3, 7, 8, 9, 16, 26, 130]), S_VALUES)
def test_water_levels_and_entropies_equal_numpy(seed, k, s):
    rng = np.random.default_rng(seed)
    counts = sparse_counts(rng, 40, k)
    counts[0] = 0.0
    levels, ptr, points = idm_water_levels(counts, s)
    denominators = counts.sum(axis=1) + s
    distribution = np.maximum(counts, levels[:, None]) / denominators[:, None]
    assert distribution.tobytes() == idm_max_entropy_distribution(counts, s).tobytes()
    for r in range(counts.shape[0]):  # the points are the row's distinct probabilities, level first
        expected = [levels[r] / denominators[r]] + list(counts[r][counts[r] > levels[r]] / denominators[r])
        assert points[ptr[r]:ptr[r + 1]].tolist() == expected
    entropies = idm_entropy_sums(counts, levels, ptr, _entropy_terms(points))
    assert entropies.tobytes() == idm_max_entropy(counts, s).tobytes()


def reference_tables(X, y, rows, candidates, m_max, k):
    """The tables of the recursive tree at one node: (F, m_max, K) by np.add.at, missing values dropped."""
    sub = X[np.ix_(rows, candidates)]
    tables = np.zeros((candidates.size, m_max + 1, k))
    index = np.where(sub == MISSING, m_max, sub)
    np.add.at(tables, (np.broadcast_to(np.arange(candidates.size), sub.shape), index), np.eye(k)[y[rows]][:, None])
    return tables[:, :m_max]


def random_level(rng, n=60, d=5, k=3, nodes=4):
    m = rng.integers(1, 12, size=d)
    X = np.column_stack([rng.integers(0, v, size=n) for v in m])
    X[rng.random(X.shape) < 0.15] = MISSING
    y = rng.integers(0, k, size=n)
    order = rng.permutation(n)
    cuts = np.sort(rng.choice(np.arange(1, n), size=nodes - 1, replace=False))
    starts, ends = np.concatenate([[0], cuts]), np.concatenate([cuts, [n]])
    candidate_sets = [np.flatnonzero(rng.random(d) < 0.7) for _ in range(nodes)]
    candidate_sets = [c if c.size else np.array([0]) for c in candidate_sets]
    cand_ptr = np.concatenate([[0], np.cumsum([c.size for c in candidate_sets])])
    cand = np.concatenate(candidate_sets)
    m_max = np.array([m[c].max() for c in candidate_sets])
    table_ptr = np.concatenate([[0], np.cumsum(np.repeat(m_max, np.diff(cand_ptr)))])
    return X, y, m, order, starts, ends, candidate_sets, cand_ptr, cand, m_max, table_ptr


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), S_VALUES)
def test_count_tables_and_gains_equal_the_recursive_tree(seed, s):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 10))
    X, y, m, order, starts, ends, sets, cand_ptr, cand, m_max, table_ptr = random_level(rng, k=k)
    values, seen, tables, observed = cdt_count_tables(X, y, order, starts, ends, cand_ptr, cand, table_ptr, k)
    children = np.zeros(values.size)
    levels, ptr, points = idm_water_levels(tables, s)
    children[seen] = idm_entropy_sums(tables, levels, ptr, _entropy_terms(points))
    levels, ptr, points = idm_water_levels(observed, s)
    gains, best = cdt_gains(values, children, idm_entropy_sums(observed, levels, ptr, _entropy_terms(points)),
                            table_ptr, cand_ptr)
    for i, candidates in enumerate(sets):
        expected = reference_tables(X, y, order[starts[i]:ends[i]], candidates, m_max[i], k)
        dense = np.zeros((table_ptr[cand_ptr[i + 1]] - table_ptr[cand_ptr[i]], k))
        here = (seen >= table_ptr[cand_ptr[i]]) & (seen < table_ptr[cand_ptr[i + 1]])
        dense[seen[here] - table_ptr[cand_ptr[i]]] = tables[here]
        np.testing.assert_array_equal(dense.reshape(expected.shape), expected)
        low, high = table_ptr[cand_ptr[i]], table_ptr[cand_ptr[i + 1]]
        np.testing.assert_array_equal(values[low:high], expected.sum(axis=2).ravel())
        np.testing.assert_array_equal(observed[cand_ptr[i]:cand_ptr[i + 1]], expected.sum(axis=1))
        reference = _gains(expected, s)
        assert gains[cand_ptr[i]:cand_ptr[i + 1]].tobytes() == reference.tobytes()
        assert best[i] - cand_ptr[i] == np.argmax(reference)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_partition_groups_rows_by_value_in_order(seed):
    rng = np.random.default_rng(seed)
    X, _, m, order, starts, ends, *_ = random_level(rng)
    features = rng.integers(0, X.shape[1], size=starts.size)
    new_order, bounds = cdt_partition(X, order, starts, ends, features, m[features])
    slot = 0
    for i in range(starts.size):
        rows = order[starts[i]:ends[i]]
        for v in range(m[features[i]]):
            np.testing.assert_array_equal(new_order[bounds[slot]:bounds[slot + 1]], rows[X[rows, features[i]] == v])
            slot += 1
    assert slot == bounds.size - 1


def random_tree(rng, n):
    """A tree numbered level by level (children of a node consecutive) and its recursive numbering."""
    first, count, queue, size = [-1] * n, [0] * n, [0], 1
    while queue and size < n:
        node = queue.pop(0)
        if rng.random() < 0.8:
            children = int(rng.integers(0, min(4, n - size) + 1))
            first[node], count[node] = size, children
            queue.extend(range(size, size + children))
            size += children
    first, count = np.array(first[:size]), np.array(count[:size])
    preorder, postorder = [], []

    def visit(node):
        preorder.append(node)
        if first[node] >= 0:
            for child in range(first[node], first[node] + count[node]):
                visit(child)
            postorder.append(node)
    visit(0)
    return first, count, preorder, postorder


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 60))
def test_preorder_numbers_as_a_recursion(seed, n):
    first, count, preorder, postorder = random_tree(np.random.default_rng(seed), n)
    got_pre, got_post = cdt_preorder(first, count)
    assert got_pre.tolist() == preorder and got_post.tolist() == postorder


class RecursiveTree:
    """The credal tree grown node by node, recursively (the book's implementation before the level-wise one)."""

    def __init__(self, Xc, yc, m, k, s, max_depth):
        self.m, self.s, self.max_depth, self.onehot = m, s, max_depth, np.eye(k)[yc]
        self.feature, self.children, self.counts, self.child_of_value = [], [], [], []
        self.grow(Xc, np.arange(len(yc)), np.ones(Xc.shape[1], dtype=bool), 0)

    def grow(self, Xc, rows, available, depth):
        node = len(self.feature)
        self.feature.append(-1)
        self.children.append(-1)
        self.counts.append(self.onehot[rows].sum(axis=0))
        candidates = np.flatnonzero(available & (self.m > 1))
        if candidates.size == 0 or (self.max_depth is not None and depth >= self.max_depth):
            return node
        m_max = int(self.m[candidates].max())
        tables = reference_tables(Xc, self.onehot.argmax(axis=1), rows, candidates, m_max, self.onehot.shape[1])
        gains = _gains(tables, self.s)
        best = int(np.argmax(gains))
        if gains[best] <= 1e-12:
            return node
        feature = int(candidates[best])
        self.feature[node] = feature
        child_of_value = np.full(self.m[feature], -1)
        remaining = available.copy()
        remaining[feature] = False
        for v in range(self.m[feature]):
            selected = rows[Xc[rows, feature] == v]
            if selected.size:
                child_of_value[v] = self.grow(Xc, selected, remaining, depth + 1)
        self.children[node] = len(self.child_of_value)
        self.child_of_value.append(child_of_value)
        return node


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([None, 0, 1, 2]), S_VALUES)
def test_tree_equals_the_recursive_growth(seed, max_depth, s):
    rng = np.random.default_rng(seed)
    n, d, k = int(rng.integers(2, 120)), int(rng.integers(1, 6)), int(rng.integers(2, 5))
    y = rng.integers(0, k, size=n)
    y[:2] = [0, 1]
    X = np.column_stack([(y + rng.integers(0, 2, size=n)) % int(rng.integers(1, 5)) for _ in range(d)])
    X[rng.random(X.shape) < 0.1] = MISSING
    tree = CredalDecisionTree(s=s, max_depth=max_depth).fit(X, y)
    Xc, yc = tree._code_test(X), np.searchsorted(tree.classes_, y)
    reference = RecursiveTree(Xc, yc, tree._m, tree.n_classes_, s, max_depth)
    np.testing.assert_array_equal(tree.feature_, reference.feature)
    np.testing.assert_array_equal(tree.children_, reference.children)
    assert tree.counts_.tobytes() == np.array(reference.counts).tobytes()
    assert len(tree.child_of_value_) == len(reference.child_of_value)
    for got, expected in zip(tree.child_of_value_, reference.child_of_value):
        assert got.dtype == expected.dtype and got.tolist() == expected.tolist()
    assert tree.feature_.dtype == np.array(reference.feature).dtype
    assert tree.children_.dtype == np.array(reference.children).dtype
    queries = np.vstack([Xc, np.where(rng.random(Xc.shape) < 0.3, MISSING, Xc[::-1])])
    leaves = [reference_leaf(tree, x) for x in queries]
    assert tree._leaf_counts(queries).tobytes() == tree.counts_[leaves].tobytes()


def reference_leaf(tree, x):
    """The node where the instance ``x`` (codes) stops, followed one node at a time."""
    node = 0
    while tree.feature_[node] >= 0:
        table = tree.child_of_value_[tree.children_[node]]
        value = x[tree.feature_[node]]
        if value == MISSING or value >= table.size or table[value] < 0:
            break
        node = table[value]
    return node
