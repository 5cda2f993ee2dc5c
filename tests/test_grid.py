"""credalbook.experiments.grid: order of results, the on-disk cache, config hashing, backends."""
from __future__ import annotations

import hashlib
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from credalbook.experiments import grid
from credalbook.experiments.grid import cache_tally, config_hash, default_cache_dir, run_grid, tidy


# Module-level tasks: worker processes import them by name.
def square(x: int, log: str, delay: float = 0.0) -> int:
    """x², appending one line per real call to ``log`` (so cache hits are visible)."""
    time.sleep(delay)
    with open(log, "a", encoding="utf-8") as handle:
        handle.write(f"{x}\n")
    return x * x


def frame_task(seed: int, n: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"draw": np.arange(n), "value": rng.random(n)})


def failing(x: int) -> int:
    if x == 2:
        raise RuntimeError(f"task failed on x={x}")
    return x


def _calls(log: Path) -> list[int]:
    return [int(line) for line in log.read_text().split()] if log.exists() else []


@pytest.fixture
def log(tmp_path) -> Path:
    return tmp_path / "calls.log"


# ------------------------------------------------------------------------------ results and order
@pytest.mark.parametrize("backend,n_jobs", [("sequential", 1), ("threading", 2), ("loky", 2)])
def test_results_come_back_in_config_order(tmp_path, log, backend, n_jobs):
    # Earlier configs sleep longer, so they finish last when run in parallel.
    configs = [{"x": x, "log": str(log), "delay": 0.05 * (5 - x)} for x in range(6)]
    results = run_grid(square, configs, n_jobs=n_jobs, backend=backend, cache_dir=tmp_path / "c", progress=False)
    assert results == [x * x for x in range(6)]
    assert sorted(_calls(log)) == list(range(6))


def test_empty_grid_returns_empty_list(tmp_path):
    assert run_grid(square, [], cache_dir=tmp_path, progress=False) == []


# ------------------------------------------------------------------------------ cache
def test_cache_hit_avoids_recomputation(tmp_path, log):
    configs = [{"x": x, "log": str(log)} for x in range(4)]
    first = run_grid(square, configs, backend="sequential", cache_dir=tmp_path, progress=False)
    assert _calls(log) == [0, 1, 2, 3]
    second = run_grid(square, configs, backend="loky", n_jobs=2, cache_dir=tmp_path, progress=False)
    assert second == first and _calls(log) == [0, 1, 2, 3]
    # one new configuration: only it runs
    run_grid(square, configs + [{"x": 9, "log": str(log)}], backend="sequential", cache_dir=tmp_path,
             progress=False)
    assert _calls(log) == [0, 1, 2, 3, 9]
    files = sorted((tmp_path / "square").glob("*.joblib"))
    assert len(files) == 5 and not list((tmp_path / "square").glob("*.tmp*"))


def test_cache_tally_counts_cells_and_hits(tmp_path, log):
    configs = [{"x": x, "log": str(log)} for x in range(3)]
    with cache_tally() as first:
        run_grid(square, configs, backend="sequential", cache_dir=tmp_path, progress=False)
    with cache_tally() as second:
        run_grid(square, configs + [{"x": 5, "log": str(log)}], backend="sequential", cache_dir=tmp_path,
                 progress=False)
        with cache_tally() as inner:  # a nested tally counts only its own block
            run_grid(square, configs, backend="sequential", cache_dir=tmp_path, progress=False, cache=False)
    assert (first.cells, first.cached) == (3, 0)
    assert (second.cells, second.cached) == (4, 3) and (inner.cells, inner.cached) == (3, 0)
    assert first.note() == ""
    assert second.note() == ("3 of 4 grid cells were read from the cache (.cache/grid), "
                                  "so the runtime counts only the others.")


def test_version_change_and_cache_off_recompute(tmp_path, log):
    configs = [{"x": 1, "log": str(log)}]
    run_grid(square, configs, backend="sequential", cache_dir=tmp_path, progress=False)
    run_grid(square, configs, backend="sequential", cache_dir=tmp_path, progress=False, version="2")
    assert _calls(log) == [1, 1]
    run_grid(square, configs, backend="sequential", cache_dir=tmp_path, progress=False, version="2")
    assert _calls(log) == [1, 1]
    run_grid(square, configs, backend="sequential", cache_dir=tmp_path, progress=False, cache=False)
    run_grid(square, configs, backend="sequential", cache_dir=tmp_path, progress=False, cache=False)
    assert _calls(log) == [1, 1, 1, 1]


def test_cache_key_is_the_documented_hash(tmp_path, log):
    config = {"x": 3, "log": str(log)}
    run_grid(square, [config], backend="sequential", cache_dir=tmp_path, progress=False, version="7")
    salt = f"{square.__module__}.{square.__qualname__}:7"
    assert (tmp_path / "square" / f"{config_hash(config, salt)}.joblib").is_file()


def test_dataframe_results_are_cached_unchanged(tmp_path):
    configs = [{"seed": s, "n": 3} for s in (1, 2)]
    first = run_grid(frame_task, configs, backend="sequential", cache_dir=tmp_path, progress=False)
    again = run_grid(frame_task, configs, backend="sequential", cache_dir=tmp_path, progress=False)
    for a, b in zip(first, again):
        pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(first[0], frame_task(1, 3))


def test_default_cache_dir_follows_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("CREDALBOOK_CACHE", str(tmp_path / "elsewhere"))
    assert default_cache_dir() == tmp_path / "elsewhere"
    monkeypatch.delenv("CREDALBOOK_CACHE")
    assert default_cache_dir().parts[-2:] == (".cache", "grid")


# ------------------------------------------------------------------------------ config_hash
def test_config_hash_matches_a_hand_computed_sha256():
    config = {"b": [1, 2], "a": 0.5}
    expected = hashlib.sha256(('salt{"a": 0.5, "b": [1, 2]}').encode()).hexdigest()[:16]
    assert config_hash(config, "salt") == expected
    assert len(config_hash(config)) == 16


def test_config_hash_is_stable_under_key_order_and_numpy_types():
    base = {"seed": 3, "size": 25, "methods": ["nbc", "ncc"], "s": 1.0}
    shuffled = {"s": np.float64(1.0), "methods": np.array(["nbc", "ncc"]), "size": np.int64(25), "seed": 3}
    assert config_hash(base) == config_hash(shuffled)
    assert config_hash({"classes": {3, 1, 2}}) == config_hash({"classes": [1, 2, 3]})
    assert config_hash(base, "a") != config_hash(base, "b")
    assert config_hash(base) != config_hash({**base, "seed": 4})
    assert config_hash({"x": 1}) != config_hash({"x": "1"})


def test_config_hash_is_stable_across_processes(tmp_path):
    import subprocess
    import sys

    code = "from credalbook.experiments.grid import config_hash; print(config_hash({'b': [1, 2], 'a': 0.5}, 's'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == config_hash({"a": 0.5, "b": [1, 2]}, "s")


class TestBadInput:
    def test_non_serialisable_config(self):
        with pytest.raises(TypeError, match="configuration is not JSON-serialisable"):
            config_hash({"estimator": object()})

    def test_unknown_backend(self, tmp_path, log):
        with pytest.raises(ValueError, match="unknown backend 'spark': use loky, threading, sequential, dask or ray"):
            run_grid(square, [{"x": 1, "log": str(log)}], backend="spark", cache_dir=tmp_path, progress=False)
        assert _calls(log) == []

    @pytest.mark.parametrize("backend,n_jobs", [("sequential", 1), ("loky", 2)])
    def test_task_error_propagates_and_is_not_cached(self, tmp_path, backend, n_jobs):
        configs = [{"x": x} for x in range(4)]
        with pytest.raises(RuntimeError, match="task failed on x=2"):
            run_grid(failing, configs, backend=backend, n_jobs=n_jobs, cache_dir=tmp_path, progress=False)
        cached = {p.stem for p in (tmp_path / "failing").glob("*.joblib")}
        salt = f"{failing.__module__}.{failing.__qualname__}:1"
        assert config_hash({"x": 2}, salt) not in cached

    def test_missing_argument_is_a_type_error(self, tmp_path):
        with pytest.raises(TypeError):
            run_grid(square, [{"x": 1}], backend="sequential", cache_dir=tmp_path, progress=False)

    def test_duplicate_configs_under_threads(self, tmp_path, log, monkeypatch):
        import threading

        both_written = threading.Barrier(2, timeout=10)
        dump = grid.joblib.dump

        def dump_then_wait(value, filename, *args, **kwargs):
            # make the two writers overlap deterministically: both write before either renames
            out = dump(value, filename, *args, **kwargs)
            both_written.wait()
            return out

        monkeypatch.setattr(grid.joblib, "dump", dump_then_wait)
        configs = [{"x": 1, "log": str(log)}] * 2
        results = run_grid(square, configs, backend="threading", n_jobs=2, cache_dir=tmp_path, progress=False)
        assert results == [1, 1]

    def test_corrupted_cache_file_is_recomputed(self, tmp_path, log):
        config = {"x": 5, "log": str(log)}
        run_grid(square, [config], backend="sequential", cache_dir=tmp_path, progress=False)
        next((tmp_path / "square").glob("*.joblib")).write_bytes(b"not a joblib pickle")
        assert run_grid(square, [config], backend="sequential", cache_dir=tmp_path, progress=False) == [25]


# ------------------------------------------------------------------------------ tidy
def test_tidy_adds_config_columns_in_order():
    configs = [{"seed": 1, "n": 2, "grid": [1, 2]}, {"seed": 2, "n": 2, "grid": [1, 2]}]
    frame = tidy(configs, [frame_task(**{k: c[k] for k in ("seed", "n")}) for c in configs])
    assert list(frame.columns) == ["seed", "n", "draw", "value"]
    assert frame["seed"].tolist() == [1, 1, 2, 2] and frame.index.tolist() == [0, 1, 2, 3]
    rows = tidy([{"a": 1}, {"a": 2}], [{"score": 0.5}, {"score": 0.7}])
    assert rows.to_dict("list") == {"a": [1, 2], "score": [0.5, 0.7]}
    clash = tidy([{"value": 9}], [pd.DataFrame({"value": [1.0]})])
    assert clash["value"].tolist() == [1.0]  # a result column is never overwritten by a config value


# ------------------------------------------------------------------------------ dask
def test_tiny_grid_on_a_local_dask_cluster(tmp_path, log):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) \
            as cluster, distributed.Client(cluster):
        configs = [{"x": x, "log": str(log), "delay": 0.02 * (4 - x)} for x in range(5)]
        results = run_grid(square, configs, backend="dask", cache_dir=tmp_path, progress=False)
        assert results == [x * x for x in range(5)]
        assert sorted(_calls(log)) == list(range(5))
        again = run_grid(square, configs, backend="dask", cache_dir=tmp_path, progress=False)
        assert again == results and len(_calls(log)) == 5
