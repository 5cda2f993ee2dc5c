"""Benchmark: the exact Lemma 1 expected cost curve against the Monte Carlo (sampling) estimator.

Run with ``pytest tests/test_bench_costspace.py --benchmark-enable`` (``make bench``). With
benchmarks disabled each kernel runs once, and the file checks that the two agree within the
sampler's standard error. Sample: 345 test instances (credit-a's test half) with distinct scores,
score-driven thresholds, γ = 4, the paper's 1001-point grid of c.
"""
from __future__ import annotations

import numpy as np
import pytest

from credalbook import costspace as cs

GRID = np.linspace(0, 1, 1001)
DRAWS = 200


@pytest.fixture(scope="module")
def sample():
    rng = np.random.default_rng(2019)
    y = np.r_[0, 1, rng.integers(0, 2, 343)]
    s = np.clip(0.4 * y + rng.uniform(0, 0.6, 345), 0, 1)
    return y, s


def test_bench_exact_lemma1(benchmark, sample):
    y, s = sample
    benchmark.group = "expected cost curve, n=345, 1001 c, gamma=4"
    curve = benchmark(cs.expected_cost_curve, y, s, "score-driven", 4.0, GRID)
    assert curve.shape == GRID.shape


def test_bench_monte_carlo(benchmark, sample):
    y, s = sample
    benchmark.group = "expected cost curve, n=345, 1001 c, gamma=4"
    mean, se = benchmark(cs.monte_carlo_cost_curve, y, s, "score-driven", 4.0, GRID, n_draws=DRAWS)
    exact = cs.expected_cost_curve(y, s, "score-driven", 4.0, GRID)
    z = np.abs(mean - exact) / se
    assert np.mean(z < 3) > 0.99
