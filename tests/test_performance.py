"""The performance page's machinery: best-of timing, the scaling grid, the empirical order of growth."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from credalbook import cli
from credalbook.book import performance


def test_best_time_warms_up_once_and_keeps_the_fastest_run():
    calls = []
    durations = iter([0.0, 0.03, 0.01, 0.02])

    def run():
        import time

        calls.append(1)
        time.sleep(next(durations))

    best = performance.best_time(run, repeat=3, budget=10.0)
    assert len(calls) == 4                      # one warm-up, three timed
    assert 0.009 <= best < 0.02


def test_best_time_stops_at_its_budget_and_checks_its_arguments():
    calls = []
    performance.best_time(lambda: calls.append(1), repeat=50, budget=0.0)
    assert len(calls) == 2                      # warm-up and the one timed run the budget allows
    with pytest.raises(ValueError, match="repeat"):
        performance.best_time(lambda: None, repeat=0)


@pytest.mark.parametrize("exponent", [0.5, 1.0, 2.0])
def test_scaling_exponents_recover_a_power_law(exponent):
    n = np.array([1e3, 1e4, 1e5])
    frame = pd.DataFrame({"path": "p", "n": n, "k": 2, "seconds": 3e-7 * n ** exponent})
    assert performance.scaling_exponents(frame)["exponent"].item() == pytest.approx(exponent)


def test_scaling_exponents_need_two_sizes_and_the_columns():
    with pytest.raises(ValueError, match="two sizes"):
        performance.scaling_exponents(pd.DataFrame({"path": ["p"], "n": [10], "k": [2], "seconds": [1.0]}))
    with pytest.raises(ValueError, match="columns"):
        performance.scaling_exponents(pd.DataFrame({"n": [10]}))


def test_measure_times_every_cell_and_its_yardstick(monkeypatch):
    path = performance.HotPath("sum of a vector", lambda n, k, rng: rng.random(n * k), np.sum,
                               sizes=(10, 100), ks=(1, 2), yardstick=np.max, yardstick_name="max")
    monkeypatch.setitem(performance.HOT_PATHS, "toy", path)
    frame = performance.measure(["toy"], repeat=1, progress=False)
    assert list(frame[["n", "k"]].itertuples(index=False, name=None)) == [(10, 1), (10, 2), (100, 1), (100, 2)]
    assert (frame["seconds"] > 0).all() and (frame["yardstick_seconds"] > 0).all()
    assert set(frame["yardstick"]) == {"max"}
    with pytest.raises(ValueError, match="unknown hot path"):
        performance.measure(["no such path"])


def test_every_hot_path_runs_on_its_smallest_input():
    for name, path in performance.HOT_PATHS.items():
        data = path.setup(path.sizes[0], path.ks[0], np.random.default_rng(0))
        assert path.run(data) is not None, name


def test_the_bench_command_prints_without_storing(capsys, monkeypatch):
    path = performance.HotPath("sum", lambda n, k, rng: rng.random(n), np.sum, sizes=(10, 20), ks=(1,))
    monkeypatch.setitem(performance.HOT_PATHS, "toy", path)
    assert cli.main(["bench", "--paths", "toy", "--repeat", "1", "--no-save", "--jncc2-jar", ""]) == 0
    out = capsys.readouterr().out
    assert "toy" in out and "[bench] ->" not in out


def test_stored_names_only_the_timing_tables():
    with pytest.raises(ValueError, match="performance_scaling"):
        performance.stored("zaffalon2012_benchmark")


def test_reproduction_times_lists_the_experiments_of_one_run_slowest_first():
    record = {"wall_seconds": 100.0, "experiments": {
        "a": {"runtime_seconds": 20.0, "rows": 5, "grid_cells": 4, "cached_cells": 0, "commit": "abc"},
        "b": {"runtime_seconds": 70.0, "rows": 9, "grid_cells": 8, "cached_cells": 1, "commit": "abc"}}}
    frame = performance.reproduction_times(record)
    assert frame["experiment"].tolist() == ["b", "a"]
    assert frame["share"].tolist() == [0.7, 0.2] and frame["cached_cells"].tolist() == [1, 0]
    for bad in ({}, {"wall_seconds": 1.0, "experiments": {}}, None):
        with pytest.raises(ValueError, match="record must be the record of a whole reproduction"):
            performance.reproduction_times(bad)
