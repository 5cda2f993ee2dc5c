"""NCC prediction speed: the vectorised dominance test vs a plain per-instance Python version of the same test.

``make bench`` times both (instances per second) for K = 2 and K = 10; the plain version is
also an independent implementation, so the agreement test below runs with the normal suite.
"""
import math

import numpy as np
import pytest

from credalbook.classifiers.naive_bayes import naive_counts
from credalbook.classifiers.ncc import NaiveCredalClassifier


def plain_dominates(counts, x, c1, c2, s):
    """One instance, one pair: scalar loops, safeguarded bisection on d ln h / dt (as JNCC2 does with Newton)."""
    alpha, beta = counts.class_counts[c1], counts.class_counts[c2]
    terms = []
    for i, v in enumerate(x):
        if v < 0 or not counts.used[i]:
            continue
        g, dl = counts.table[i, c1, v], counts.table[i, c2, v]
        if g == 0:
            return False
        terms.append((g, dl, counts.observed[i, c1], counts.observed[i, c2]))
    if alpha == 0:
        return False

    def ln_h(t):
        value = math.log(alpha + s - t) - (math.log(beta + t) if beta + t > 0 else -math.inf)
        for g, dl, gt, dt in terms:
            if dt != dl:
                value += (math.log(dt + t) - math.log(dl + t)) if dl + t > 0 else math.inf
            value += math.log(g) - math.log(gt + s - t)
        return value

    def slope(t):
        value = -1.0 / (alpha + s - t) - (1.0 / (beta + t) if beta + t > 0 else math.inf)
        for g, dl, gt, dt in terms:
            if dt != dl:
                value += 1.0 / (dt + t) - (1.0 / (dl + t) if dl + t > 0 else math.inf)
            value += 1.0 / (gt + s - t)
        return value

    if slope(0.0) >= 0:
        return ln_h(0.0) > 0
    if slope(s) <= 0:
        return ln_h(s) > 0
    lo, hi = 0.0, s
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if slope(mid) < 0:
            lo = mid
        else:
            hi = mid
    return ln_h(0.5 * (lo + hi)) > 0


def plain_predict_set(counts, X, s=1.0):
    K = counts.class_counts.size
    out = np.ones((len(X), K), dtype=bool)
    for r, x in enumerate(X):
        for a in range(K):
            for b in range(K):
                if a != b and out[r, b] and plain_dominates(counts, x, a, b, s):
                    out[r, b] = False
    return out


def problem(k, n_train=500, n_test=200, d=10, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n_train)
    centre = rng.integers(0, 4, size=(k, d))
    X = np.where(rng.random((n_train, d)) < 0.6, centre[y], rng.integers(0, 4, (n_train, d)))
    X[rng.random(X.shape) < 0.05] = -1
    yt = rng.integers(0, k, n_test)
    Xt = np.where(rng.random((n_test, d)) < 0.6, centre[yt], rng.integers(0, 4, (n_test, d)))
    return X, y, Xt


@pytest.mark.parametrize("k", [2, 10])
def test_plain_and_vectorised_agree(k):
    X, y, Xt = problem(k, n_train=80 * k, n_test=60)
    model = NaiveCredalClassifier().fit(X, y)
    counts = naive_counts(model._code_test(X), y, k, model.n_values_)
    np.testing.assert_array_equal(model.predict_set(Xt), plain_predict_set(counts, Xt))


@pytest.mark.parametrize("k", [2, 10])
def test_bench_vectorised(benchmark, k):
    X, y, Xt = problem(k, n_test=2000)
    model = NaiveCredalClassifier().fit(X, y)
    sets = benchmark(model.predict_set, Xt)
    assert sets.shape == (2000, k)


@pytest.mark.parametrize("k", [2, 10])
def test_bench_plain(benchmark, k):
    X, y, Xt = problem(k, n_test=200)
    model = NaiveCredalClassifier().fit(X, y)
    sets = benchmark(plain_predict_set, model.counts_, Xt)
    assert sets.shape == (200, k)
