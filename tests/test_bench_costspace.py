"""Benchmark: the exact Lemma 1 expected cost and loss against Monte Carlo (sampling) estimators.

Run with ``pytest tests/test_bench_costspace.py --benchmark-enable`` (``make bench``). With
benchmarks disabled each kernel runs once, and the file checks that the exact values and the
samplers agree within the sampler's standard error.

Curves: 345 test instances (credit-a's test half) with distinct scores, score-driven thresholds,
γ = 4, the paper's 1001-point grid of c. Losses: L_γ (Ferri et al. 2019, Eq. 7) for every γ of
the study (``credalbook.book.experiments.thresholds.GAMMAS``) and γ = 32, 64, 100, exact
(:meth:`~credalbook.costspace.ThresholdSelection.loss`, accurate to 10⁻¹⁰) against a vectorised
Monte Carlo estimator given as many draws as make its standard error 10⁻⁴ (the number is fixed
by a pilot run outside the timing), each pair in one benchmark group.
"""
from __future__ import annotations

import numpy as np
import pytest

from credalbook import costspace as cs

GRID = np.linspace(0, 1, 1001)
DRAWS = 200
#: the study's concentrations, then three sharper ones
LOSS_GAMMAS = (np.inf, 16.0, 8.0, 4.0, 2.0, 1.0, 0.0, 32.0, 64.0, 100.0)
TARGET_SE = 1e-4
PILOT = 50_000


def make_sample(n, seed=2019):
    rng = np.random.default_rng(seed)
    y = np.r_[0, 1, rng.integers(0, 2, n - 2)]
    s = np.clip(0.4 * y + rng.uniform(0, 0.6, n), 0, 1)
    return y, s


@pytest.fixture(scope="module")
def sample():
    return make_sample(345)


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


# ----------------------------------------------------------------------------------------------
# expected loss: exact against Monte Carlo at a standard error of 10⁻⁴

def draws_for(selection, gamma, target=TARGET_SE):
    """Draws that give the plain Monte Carlo estimator a standard error of ``target`` (pilot run)."""
    _, se = cs.monte_carlo_loss(selection, gamma, PILOT, seed=1)
    return max(2, int(np.ceil(PILOT * (se / target) ** 2)))


@pytest.fixture(scope="module")
def selections():
    return {(n, method): cs.threshold_selection(*make_sample(n), method)
            for n in (345, 2000) for method in ("score-driven", "rate-driven")}


LOSS_CASES = [(n, method, gamma) for n, method in ((345, "score-driven"), (345, "rate-driven"), (2000, "score-driven"))
              for gamma in LOSS_GAMMAS]


def _group(n, method, gamma):
    return f"expected loss, {method}, n={n}, gamma={gamma:g}, SE 1e-4"


@pytest.mark.parametrize("n, method, gamma", LOSS_CASES)
def test_bench_exact_loss(benchmark, selections, n, method, gamma):
    selection = selections[(n, method)]
    benchmark.group = _group(n, method, gamma)
    value = benchmark(selection.loss, gamma)
    assert 0.0 < value < 1.0


@pytest.mark.parametrize("n, method, gamma", LOSS_CASES)
def test_bench_monte_carlo_loss(benchmark, selections, n, method, gamma):
    selection = selections[(n, method)]
    n_draws = draws_for(selection, gamma)
    benchmark.group = _group(n, method, gamma)
    mean, se = benchmark(cs.monte_carlo_loss, selection, gamma, n_draws)
    assert se <= 1.1 * TARGET_SE
    assert abs(mean - selection.loss(gamma)) <= 4.0 * se
