"""Tests of the credal decision tree (credalbook.classifiers.credal_tree)."""
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from credalbook.classifiers.credal_tree import (
    CredalDecisionTree,
    idm_max_entropy,
    idm_max_entropy_distribution,
    idm_undominated,
    imprecise_info_gain,
)


def h2(p):
    return -(p * np.log2(p) + (1 - p) * np.log2(1 - p))


@pytest.mark.parametrize("counts, s, expected", [
    ([3, 1], 1.0, [3 / 5, 2 / 5]),
    ([2, 2, 0], 1.0, [2 / 5, 2 / 5, 1 / 5]),
    ([0, 0, 10], 1.0, [0.5 / 11, 0.5 / 11, 10 / 11]),
    ([0, 0], 1.0, [0.5, 0.5]),
    ([1, 1, 1], 1.0, [1 / 3, 1 / 3, 1 / 3]),
    ([5, 0, 0], 3.0, [5 / 8, 1.5 / 8, 1.5 / 8]),
    ([4, 1, 0, 9], 2.0, [4 / 16, 1.5 / 16, 1.5 / 16, 9 / 16]),
])
def test_water_filling_hand_computed(counts, s, expected):
    np.testing.assert_allclose(idm_max_entropy_distribution(counts, s), expected, atol=1e-12)


def simplex_grid(k, steps):
    for point in itertools.product(range(steps + 1), repeat=k - 1):
        if sum(point) <= steps:
            yield np.array(list(point) + [steps - sum(point)]) / steps


@pytest.mark.parametrize("seed", range(6))
def test_water_filling_is_the_maximum_over_a_grid_of_the_credal_set(seed):
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 6, size=3).astype(float)
    s = float(rng.choice([0.5, 1.0, 2.0]))
    grid = np.array(list(simplex_grid(3, 150)))
    points = (counts[None, :] + s * grid) / (counts.sum() + s)
    with np.errstate(divide="ignore", invalid="ignore"):
        entropies = np.where(points > 0, -points * np.log2(points), 0).sum(axis=1)
    best = idm_max_entropy(counts, s)
    assert entropies.max() <= best + 1e-12
    assert entropies.max() >= best - 2e-4


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 20), min_size=2, max_size=6), st.sampled_from([0.5, 1.0, 2.0]))
def test_water_filling_lies_in_the_credal_set(counts, s):
    counts = np.array(counts, dtype=float)
    p = idm_max_entropy_distribution(counts, s)
    total = counts.sum() + s
    assert p.sum() == pytest.approx(1.0)
    assert np.all(p >= counts / total - 1e-12) and np.all(p <= (counts + s) / total + 1e-12)
    # vectorised over a batch gives the same rows
    batch = idm_max_entropy_distribution(np.stack([counts, counts[::-1]]), s)
    np.testing.assert_allclose(batch[0], p)
    np.testing.assert_allclose(batch[1], p[::-1])


def test_imprecise_info_gain_hand_computed():
    # H*(2, 2) = 1 bit; each pure child (2, 0) -> (2, 1)/3 -> h2(1/3)
    assert imprecise_info_gain([[2, 0], [0, 2]]) == pytest.approx(1 - h2(1 / 3))
    # an uninformative feature has zero gain; so has a perfect split of two single instances:
    # H*(1, 1) = 1 and each child (1, 0) -> (1, 1)/2 has 1 bit too (no split: gain <= 0)
    assert imprecise_info_gain([[1, 1], [1, 1]]) == pytest.approx(0.0, abs=1e-12)
    assert imprecise_info_gain([[1, 0], [0, 1]]) == pytest.approx(0.0, abs=1e-12)
    # an uninformative split of (4, 2) into (2, 1) + (2, 1) loses: H*(4, 2) = h2(3/7) < H*(2, 1) = 1
    assert imprecise_info_gain([[2, 1], [2, 1]]) == pytest.approx(h2(3 / 7) - 1)
    # rows of zeros (values never seen) do not change the gain
    assert imprecise_info_gain([[2, 0], [0, 2], [0, 0]]) == pytest.approx(1 - h2(1 / 3))


@pytest.mark.parametrize("seed", range(6))
def test_leaf_dominance_matches_a_linear_programme(seed):
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 5, size=4).astype(float)
    s = 1.0
    total = counts.sum() + s
    keep = np.ones(4, dtype=bool)
    for j, k in itertools.permutations(range(4), 2):
        # min over r in the simplex of p_j - p_k, p = (n + s r)/(N + s)
        objective = s * (np.eye(4)[j] - np.eye(4)[k]) / total
        result = linprog(objective, A_eq=np.ones((1, 4)), b_eq=[1], bounds=[(0, 1)] * 4)
        if result.fun + (counts[j] - counts[k]) / total > 1e-12:
            keep[k] = False
    np.testing.assert_array_equal(idm_undominated(counts, s), keep)


def test_leaf_conventions_hand_computed():
    assert idm_undominated([3, 2]).tolist() == [True, True]
    assert idm_undominated([3, 2], tie_dominates=True).tolist() == [True, False]
    assert idm_undominated([4, 2]).tolist() == [True, False]
    assert idm_undominated([1, 0, 0]).tolist() == [True, True, True]
    assert idm_undominated([1, 0, 0], tie_dominates=True).tolist() == [True, False, False]
    assert idm_undominated([[0, 0], [5, 1]]).tolist() == [[True, True], [True, False]]


def test_tree_learns_a_relevant_feature_and_ignores_noise():
    rng = np.random.default_rng(0)
    x0 = np.repeat([0, 1, 2], 20)
    X = np.column_stack([x0, rng.integers(0, 2, size=60)])
    y = x0 % 2
    tree = CredalDecisionTree().fit(X, y)
    assert tree.feature_[0] == 0
    assert set(tree.feature_[tree.feature_ >= 0]) == {0}
    sets = tree.predict_set(np.array([[0, 0], [1, 1], [2, 0]]))
    np.testing.assert_array_equal(sets, [[True, False], [False, True], [True, False]])
    np.testing.assert_array_equal(tree.predict(np.array([[1, 0]])), [1])


def test_missing_and_unseen_values_stop_at_the_node():
    X = np.array([[0]] * 6 + [[1]] * 6)
    y = np.array([0] * 6 + [1] * 6)
    tree = CredalDecisionTree().fit(X, y)
    root = tree.counts_[0]
    assert root.tolist() == [6, 6]
    np.testing.assert_array_equal(tree.predict_set(np.array([[-1]])), [[True, True]])
    # a value declared but absent from training (code 2 of 3) also stops at the root
    import pandas as pd

    frame = pd.DataFrame({"a": pd.Categorical(["u"] * 6 + ["v"] * 6, categories=["u", "v", "w"])})
    tree = CredalDecisionTree().fit(frame, y)
    test = pd.DataFrame({"a": pd.Categorical(["w", "u"], categories=["u", "v", "w"])})
    np.testing.assert_array_equal(tree.predict_set(test), [[True, True], [True, False]])


def test_max_depth_zero_is_the_root_leaf():
    X = np.array([[0], [0], [1], [1], [1]])
    y = np.array([0, 0, 1, 1, 1])
    stump = CredalDecisionTree(max_depth=0).fit(X, y)
    assert stump.n_nodes_ == 1 and stump.n_leaves_ == 1
    np.testing.assert_array_equal(stump.predict_set(X), np.tile([True, True], (5, 1)))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_sets_nonempty_and_contain_the_prediction(seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(-1, 3, size=(40, 3))
    y = rng.integers(0, 3, size=40)
    tree = CredalDecisionTree().fit(X, y)
    sets = tree.predict_set(X)
    assert sets.any(axis=1).all()
    assert sets[np.arange(40), tree.predict_index(X)].all()
    weka = CredalDecisionTree(tie_dominates=True).fit(X, y).predict_set(X)
    assert not (weka & ~sets).any()


class TestBadInput:
    def test_entropy_functions(self):
        with pytest.raises(ValueError, match="non-negative"):
            idm_max_entropy([1, -1])
        with pytest.raises(ValueError, match="s must be"):
            idm_max_entropy_distribution([1, 1], s=0)
        with pytest.raises(ValueError, match="counts is empty"):
            idm_max_entropy([])
        with pytest.raises(ValueError, match="table must be 2-dimensional"):
            imprecise_info_gain([1, 2])
        with pytest.raises(ValueError, match="no instances"):
            imprecise_info_gain([[0, 0]])
        with pytest.raises(ValueError, match="non-negative"):
            imprecise_info_gain([[1, -2]])
        with pytest.raises(ValueError, match="non-negative"):
            idm_undominated([[1, -2]])

    def test_estimator(self):
        X, y = np.array([[0], [1]]), np.array([0, 1])
        with pytest.raises(ValueError, match="max_depth"):
            CredalDecisionTree(max_depth=-1).fit(X, y)
        with pytest.raises(ValueError, match="tie_dominates"):
            CredalDecisionTree(tie_dominates="yes").fit(X, y)
        with pytest.raises(ValueError, match="s must be"):
            CredalDecisionTree(s=-1).fit(X, y)
        with pytest.raises(ValueError, match="non-integer"):
            CredalDecisionTree().fit(np.array([[0.3], [1]]), y)
        tree = CredalDecisionTree().fit(X, y)
        with pytest.raises(ValueError, match="features"):
            tree.predict_set(np.array([[0, 1]]))
