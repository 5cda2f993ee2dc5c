"""Benchmarks of the credal classifiers of Part III on a kr-vs-kp-sized discrete problem.

Run with ``pytest tests/test_bench_credal.py --benchmark-enable`` (``make bench``); with
benchmarks disabled (the default) each function runs once, so the file also checks that the
vectorised paths agree with the plain ones at this scale: LNCC's compiled overlap distances with a
loop-free ``!=`` count, CMA's factorised dominance with its precise limit.
"""
from __future__ import annotations

import numpy as np
import pytest

from credalbook.classifiers.cma import CredalModelAveraging
from credalbook.classifiers.credal_tree import CredalDecisionTree, idm_max_entropy
from credalbook.classifiers.lncc import LazyNaiveCredalClassifier, overlap_distances

N, D, N_TEST = 3000, 36, 300


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(7)
    X = rng.integers(0, 3, size=(N + N_TEST, D))
    y = ((X[:, 0] + X[:, 1] + (rng.random(N + N_TEST) < 0.2)) % 2).astype(int)
    return X[:N], y[:N], X[N:]


def test_bench_overlap_distances(benchmark, data):
    X, _, Q = data
    benchmark.group = "credal 3000 x 36"
    distances = benchmark(overlap_distances, Q, X, np.full(D, 3))
    np.testing.assert_array_equal(distances[:20], (Q[:20, None, :] != X[None, :, :]).sum(axis=2))


def test_bench_overlap_distances_baseline_row_loop(benchmark, data):
    # the obvious implementation: one vectorised comparison per query row
    X, _, Q = data
    benchmark.group = "credal 3000 x 36"
    distances = benchmark(lambda: np.array([(q != X).sum(axis=1) for q in Q]))
    np.testing.assert_array_equal(distances, overlap_distances(Q, X, np.full(D, 3)))


def test_bench_lncc_predict(benchmark, data):
    X, y, Q = data
    model = LazyNaiveCredalClassifier().fit(X, y)
    benchmark.group = "credal 3000 x 36"
    sets = benchmark(model.predict_set, Q[:100])
    assert sets.any(axis=1).all()


def test_bench_cma_fit_predict(benchmark, data):
    X, y, Q = data
    benchmark.group = "credal 3000 x 36"
    sets = benchmark(lambda: CredalModelAveraging().fit(X, y).predict_set(Q))
    precise = CredalModelAveraging(t_low=0.5, t_high=0.5).fit(X, y).predict_set(Q)
    assert not (precise & ~sets).any()


def test_bench_cdt_fit_predict(benchmark, data):
    X, y, Q = data
    benchmark.group = "credal 3000 x 36"
    sets = benchmark(lambda: CredalDecisionTree().fit(X, y).predict_set(Q))
    assert sets.any(axis=1).all()


def test_bench_water_filling(benchmark):
    counts = np.random.default_rng(0).integers(0, 50, size=(100_000, 10))
    benchmark.group = "IDM max entropy 1e5 x 10"
    entropies = benchmark(idm_max_entropy, counts)
    assert np.all(entropies <= np.log2(10) + 1e-12)
