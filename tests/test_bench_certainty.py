"""Benchmarks of credalbook.certainty on a 10^6 x 10 probability matrix, against the ``imcp`` package.

Run with ``pytest tests/test_bench_certainty.py --benchmark-enable`` (``make bench``); with
benchmarks disabled (the default) each function still runs once, so the file is also a test
that the vectorised code agrees with the package at this scale.
"""
from __future__ import annotations

import numpy as np
import pytest

from credalbook import certainty as cr

N, K = 1_000_000, 10


@pytest.fixture(scope="module")
def big():
    rng = np.random.default_rng(20250)
    return rng.integers(0, K, N), rng.dirichlet(np.ones(K), N)


@pytest.mark.parametrize("function", [cr.probabilistic_confusion_matrix, cr.certainty_decomposition,
                                      cr.certainty_ratio, cr.accuracy_decomposition, cr.imcp_score,
                                      cr.certainty_report])
def test_bench_book(benchmark, big, function):
    y, q = big
    benchmark.group = "certainty 1e6 x 10"
    result = benchmark(function, y, q)
    assert result is not None


def test_bench_imcp_package(benchmark, big, monkeypatch):
    imcp = pytest.importorskip("imcp")
    if not hasattr(np, "trapz"):  # removed in NumPy 2.4; imcp 1.0.1 still calls it
        monkeypatch.setattr(np, "trapz", np.trapezoid, raising=False)
    y, q = big
    benchmark.group = "certainty 1e6 x 10"
    area = benchmark(imcp.imcp_score, y, q)
    assert area == pytest.approx(cr.imcp_score(y, q), abs=1e-9)
