"""Timings of the hot paths of Part IV (pytest-benchmark; disabled by default, `make bench` times them)."""
import numpy as np

from credalbook import costs, decisions
from credalbook.classifiers.nested_dichotomies import NestedDichotomyForest

RNG = np.random.default_rng(0)
K = 9
COST = costs.ordinal_cost_matrix(K)
P = RNG.dirichlet(np.ones(K), size=1000)
LOWER, UPPER = np.clip(P - 0.05, 0, 1), np.clip(P + 0.05, 0, 1)


def test_bench_maximality_intervals(benchmark):
    sets = benchmark(decisions.maximality_intervals, LOWER, UPPER, COST)
    assert sets.shape == (1000, K) and sets.any(axis=1).all()


def test_bench_set_costs(benchmark):
    y_set = RNG.random((10_000, K)) < 0.3
    y_set[np.arange(10_000), RNG.integers(K, size=10_000)] = True
    truth = RNG.integers(K, size=10_000)
    scores = benchmark(costs.set_costs, COST, truth, y_set, "p_discounted", r=0.5)
    assert scores.shape == (10_000,)


def test_bench_forest_predict(benchmark):
    X = RNG.integers(0, 5, (900, 4))
    y = RNG.integers(0, K, 900)
    forest = NestedDichotomyForest(n_trees=50, s=2.0, cost=COST, random_state=0).fit(X, y)
    sets = benchmark(forest.predict_set, X[:100])
    assert sets.shape == (100, K)
