"""Tests of the lazy naive credal classifier (credalbook.classifiers.lncc).

Oracle: a deliberately plain re-statement of the algorithm — sort the training instances by
overlap distance, take the k nearest plus ties (and one positive distance), fit a full
NaiveCredalClassifier on them, grow k by 20 while indeterminate — run instance by instance.
"""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credalbook.classifiers.lncc import LazyNaiveCredalClassifier, neighbourhood_radii, overlap_distances
from credalbook.classifiers.ncc import NaiveCredalClassifier


def as_frame(X, n_values):
    return pd.DataFrame({j: pd.Categorical.from_codes(X[:, j], categories=list(range(n_values[j])))
                         for j in range(X.shape[1])})


def oracle_sets(X, y, queries, n_values, n_classes, k_start=25, k_step=20, max_steps=50):
    out = []
    labels = pd.Categorical.from_codes(y, categories=list(range(n_classes)))
    for q in queries:
        dist = np.array([sum(int(a != b or a == -1 or b == -1) for a, b in zip(row, q)) for row in X])
        order = np.argsort(dist, kind="stable")
        positive = dist[dist > 0].min() if (dist > 0).any() else dist.max()
        for step in range(max_steps + 1):
            k = min(k_start + step * k_step, len(X))
            radius = max(dist[order[k - 1]], positive)
            chosen = dist <= radius
            model = NaiveCredalClassifier().fit(as_frame(X[chosen], n_values), labels[chosen])
            result = model.predict_set(as_frame(q[None, :], n_values))[0]
            if result.sum() == 1 or chosen.all():
                break
        out.append(result)
    return np.array(out)


def test_overlap_distances_match_a_loop():
    rng = np.random.default_rng(0)
    A = rng.integers(-1, 3, size=(7, 5))
    B = rng.integers(-1, 3, size=(9, 5))
    expected = np.array([[sum(int(a != b or a == -1) for a, b in zip(r, s)) for s in B] for r in A])
    np.testing.assert_array_equal(overlap_distances(A, B, [3] * 5), expected)


@pytest.mark.parametrize("d, n_values", [(5, 3), (5, 200), (130, 2)])
def test_overlap_distances_in_the_smallest_type(d, n_values):
    # int8 up to 127 features; codes of 200 values are int16, 130 features need int16 distances
    rng = np.random.default_rng(d + n_values)
    A = rng.integers(-1, n_values, size=(6, d))
    B = rng.integers(-1, n_values, size=(8, d))
    distances = overlap_distances(A, B, [n_values] * d)
    expected = ((A[:, None, :] != B[None, :, :]) | (A[:, None, :] == -1)).sum(axis=2)
    np.testing.assert_array_equal(distances, expected)
    assert distances.dtype == (np.int16 if d > 127 else np.int8)


@pytest.mark.parametrize("d, n_values", [(3, 200), (130, 2)])
def test_wide_codes_and_many_features_match_the_plain_oracle(d, n_values):
    rng = np.random.default_rng(d)
    n, K = 70, 2
    X = rng.integers(0, n_values, size=(n, d))
    X[:, 0] = rng.integers(0, 2, size=n)
    y = (X[:, 0] + (rng.random(n) < 0.2)) % K
    queries = np.vstack([X[:4], rng.integers(0, 2, size=(4, d))])
    frame = as_frame(X, [n_values] * d)
    model = LazyNaiveCredalClassifier(k_start=8, k_step=6, max_steps=5).fit(frame, y)
    expected = oracle_sets(X, y, queries, [n_values] * d, K, 8, 6, 5)
    np.testing.assert_array_equal(model.predict_set(as_frame(queries, [n_values] * d)), expected)


def test_radii_hand_computed():
    # 0, 10, 30, 100 instances at distances 0..3: balls of 25, 45, 65, 85 need radius 2, 3, 3, 3
    assert neighbourhood_radii(np.array([[0, 10, 30, 100]]), 25, 20, 3).tolist() == [[2, 3, 3, 3]]
    # 30 exact matches: the ball must still reach the first positive distance
    assert neighbourhood_radii(np.array([[30, 5, 100]]), 25, 20, 1).tolist() == [[1, 2]]
    # fewer training instances than k: everything
    assert neighbourhood_radii(np.array([[3, 2, 0]]), 25, 20, 0).tolist() == [[1]]
    # only exact matches: the whole ball
    assert neighbourhood_radii(np.array([[4, 0, 0]]), 2, 1, 0).tolist() == [[2]]


@pytest.mark.parametrize("seed", range(5))
def test_matches_the_plain_oracle(seed):
    rng = np.random.default_rng(seed)
    n, d, K = 90, 4, 3
    X = rng.integers(0, 3, size=(n, d))
    X[rng.random((n, d)) < 0.05] = -1
    y = (X[:, 0] + rng.integers(0, 2, size=n)) % K
    y[:K] = np.arange(K)
    queries = rng.integers(0, 3, size=(15, d))
    model = LazyNaiveCredalClassifier(k_start=10, k_step=7, max_steps=6).fit(as_frame(np.where(X < 0, 0, X), [3] * d).where(X >= 0), y)
    expected = oracle_sets(X, y, queries, [3] * d, K, 10, 7, 6)
    np.testing.assert_array_equal(model.predict_set(queries), expected)


def test_whole_training_set_is_the_ncc():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 3, size=(120, 5))
    y = (X[:, 0] + X[:, 1]) % 2
    lazy = LazyNaiveCredalClassifier(k_start=10_000).fit(X, y)
    eager = NaiveCredalClassifier().fit(X, y)
    np.testing.assert_array_equal(lazy.predict_set(X[:30]), eager.predict_set(X[:30]))


def test_local_model_beats_global_on_xor():
    # XOR is invisible to a global naive model but local balls see it
    rng = np.random.default_rng(2)
    X = rng.integers(0, 2, size=(400, 2))
    y = X[:, 0] ^ X[:, 1]
    lazy = LazyNaiveCredalClassifier().fit(X, y)
    queries = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    np.testing.assert_array_equal(lazy.predict(queries), [0, 1, 1, 0])
    radius, class_counts = lazy.neighbourhood(queries)
    assert radius.tolist() == [1, 1, 1, 1]
    # the ball of radius 1 around a corner holds that corner (one class) and its two neighbours (the other)
    corner = {(a, b): int(((X[:, 0] == a) & (X[:, 1] == b)).sum()) for a in (0, 1) for b in (0, 1)}
    for query, counts in zip(queries, class_counts):
        a, b = query
        same, others = corner[a, b], corner[1 - a, b] + corner[a, 1 - b]
        assert counts.tolist() == ([same, others] if a == b else [others, same])
    eager = NaiveCredalClassifier().fit(X, y)
    assert (eager.predict(queries) != [0, 1, 1, 0]).any()


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_sets_nonempty_and_contain_the_prediction(seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(-1, 3, size=(60, 3))
    y = rng.integers(0, 3, size=60)
    model = LazyNaiveCredalClassifier(k_start=5, k_step=5).fit(X, y)
    sets = model.predict_set(X)
    assert sets.any(axis=1).all()
    assert sets[np.arange(60), model.predict_index(X)].all()


class TestBadInput:
    def test_parameters(self):
        X, y = np.array([[0], [1]]), np.array([0, 1])
        for name, value in (("k_start", 0), ("k_step", 0), ("max_steps", -1), ("s", 0.0), ("k_start", 2.5)):
            with pytest.raises(ValueError, match=name):
                LazyNaiveCredalClassifier(**{name: value}).fit(X, y)

    def test_data(self):
        with pytest.raises(ValueError, match="non-integer"):
            LazyNaiveCredalClassifier().fit(np.array([[0.5], [1]]), [0, 1])
        with pytest.raises(ValueError, match="at least two classes"):
            LazyNaiveCredalClassifier().fit(np.array([[0], [1]]), [1, 1])
        model = LazyNaiveCredalClassifier().fit(np.array([[0, 1], [1, 0]]), [0, 1])
        with pytest.raises(ValueError, match="features"):
            model.predict_set(np.array([[0]]))

    def test_helpers(self):
        with pytest.raises(ValueError, match="same number of features"):
            overlap_distances(np.zeros((2, 3), int), np.zeros((2, 2), int), [2, 2])
        with pytest.raises(ValueError, match="codes outside"):
            overlap_distances(np.array([[5]]), np.array([[0]]), [2])
        with pytest.raises(ValueError, match="level_counts"):
            neighbourhood_radii(np.array([1, 2, 3]))
        with pytest.raises(ValueError, match="non-negative"):
            neighbourhood_radii(np.array([[1, -2]]))
        with pytest.raises(ValueError, match="k_start"):
            neighbourhood_radii(np.array([[1, 2]]), k_start=0)
