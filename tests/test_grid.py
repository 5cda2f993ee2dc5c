"""credalbook.book.experiments.grid: order of results, the on-disk cache, config hashing, backends."""
from __future__ import annotations

import json
import time
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from credalbook.book.experiments import grid
from credalbook.book.experiments import cache as entries
from credalbook.book.experiments.grid import cache_tally, default_cache_dir, run_grid, tidy


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
    files = sorted((tmp_path / "square").glob("*.npz"))
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


def test_cache_key_hashes_task_config_and_code(tmp_path, log):
    config = {"x": 3, "log": str(log)}
    run_grid(square, [config], backend="sequential", cache_dir=tmp_path, progress=False, version="7")
    fingerprint = f"{entries.code_fingerprint(square.__module__)}:7"
    key = entries.entry_key(f"{square.__module__}.{square.__qualname__}", config, fingerprint)
    assert (tmp_path / "square" / f"{key}.npz").is_file()


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


# ------------------------------------------------------------------------------ the verified cache
def test_canonical_config_is_stable_under_key_order_and_numpy_types():
    base = {"seed": 3, "size": 25, "methods": ["nbc", "ncc"], "s": 1.0}
    shuffled = {"s": np.float64(1.0), "methods": np.array(["nbc", "ncc"]), "size": np.int64(25), "seed": 3}
    assert entries.canonical(base) == entries.canonical(shuffled) == (
        '{"methods": ["nbc", "ncc"], "s": 1.0, "seed": 3, "size": 25}')
    assert entries.canonical({"classes": {3, 1, 2}}) == entries.canonical({"classes": [1, 2, 3]})
    assert entries.entry_key("t", base, "f") != entries.entry_key("t", {**base, "seed": 4}, "f")
    assert entries.entry_key("t", {"x": 1}, "f") != entries.entry_key("t", {"x": "1"}, "f")
    assert entries.entry_key("t", base, "f") != entries.entry_key("t", base, "g")


def test_canonical_config_is_stable_across_processes():
    import subprocess
    import sys

    code = ("from credalbook.book.experiments.cache import entry_key; "
            "print(entry_key('t', {'b': [1, 2], 'a': 0.5}, 'f'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONHASHSEED": "123", "PATH": ""})
    assert out.stdout.strip() == entries.entry_key("t", {"a": 0.5, "b": [1, 2]}, "f")


def _entry_of(folder: Path, task: str, x: int) -> Path:
    (path,) = [p for p in (folder / task).glob("*.npz")
               if json.loads(str(np.load(p)["__record__"]))["config"].startswith(f'{{"log"') and
               f'"x": {x}' in json.loads(str(np.load(p)["__record__"]))["config"]]
    return path


def test_another_configurations_entry_copied_under_the_key_is_not_served(tmp_path, log):
    configs = [{"x": x, "log": str(log)} for x in (2, 3)]
    run_grid(square, configs, backend="sequential", cache_dir=tmp_path, progress=False)
    two, three = _entry_of(tmp_path, "square", 2), _entry_of(tmp_path, "square", 3)
    two.write_bytes(three.read_bytes())  # x = 3's entry under x = 2's key
    with cache_tally() as tally, pytest.warns(UserWarning, match="written for another configuration"):
        assert run_grid(square, configs, backend="sequential", cache_dir=tmp_path, progress=False) == [4, 9]
    assert (tally.cells, tally.cached) == (2, 1) and _calls(log) == [2, 3, 2]


def test_a_flipped_byte_inside_an_entry_is_detected(tmp_path):
    configs = [{"seed": 1, "n": 50}]
    (first,) = run_grid(frame_task, configs, backend="sequential", cache_dir=tmp_path, progress=False)
    (path,) = (tmp_path / "frame_task").glob("*.npz")
    with zipfile.ZipFile(path) as archive:  # rewrite one member with one value changed, CRCs consistent
        members = {name: archive.read(name) for name in archive.namelist()}
    name = next(n for n in members if n != "__record__.npy" and n.endswith(".1.npy"))
    payload = bytearray(members[name])
    payload[-3] ^= 0x01
    members[name] = bytes(payload)
    with zipfile.ZipFile(path, "w") as archive:
        for member, data in members.items():
            archive.writestr(member, data)
    with cache_tally() as tally, pytest.warns(UserWarning, match="its bytes differ from their checksum"):
        (again,) = run_grid(frame_task, configs, backend="sequential", cache_dir=tmp_path, progress=False)
    pd.testing.assert_frame_equal(again, first)
    assert tally.cached == 0


def test_entries_of_other_code_are_stale(tmp_path, log, monkeypatch):
    config = {"x": 4, "log": str(log)}
    run_grid(square, [config], backend="sequential", cache_dir=tmp_path, progress=False)
    (path,) = (tmp_path / "square").glob("*.npz")
    old = entries.code_fingerprint(square.__module__)
    monkeypatch.setattr(entries, "code_fingerprint", lambda module: old + "changed")
    with cache_tally() as tally:  # a new key: the old entry is simply not found
        run_grid(square, [config], backend="sequential", cache_dir=tmp_path, progress=False)
    assert tally.cached == 0 and _calls(log) == [4, 4]
    name = f"{square.__module__}.{square.__qualname__}"
    with pytest.raises(entries.StaleEntry, match="written by other code"):
        entries.read(path, task_name=name, config=config, fingerprint=old + "changed:")


def test_code_fingerprint_follows_the_imported_modules(tmp_path, monkeypatch):
    package = tmp_path / "fingerprint_demo"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "task.py").write_text("from credalbook import sets\n\ndef f():\n    return 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    before = entries.code_fingerprint("fingerprint_demo.task")
    entries.code_fingerprint.cache_clear()
    entries._module_source.cache_clear()
    (package / "task.py").write_text("from credalbook import sets\n\ndef f():\n    return 2\n")
    assert entries.code_fingerprint("fingerprint_demo.task") != before
    entries.code_fingerprint.cache_clear()
    entries._module_source.cache_clear()
    (package / "task.py").write_text("from credalbook import metrics\n\ndef f():\n    return 2\n")
    changed_import = entries.code_fingerprint("fingerprint_demo.task")
    entries.code_fingerprint.cache_clear()
    entries._module_source.cache_clear()
    assert changed_import != before


@pytest.mark.parametrize("value", [
    pd.DataFrame({"i": np.arange(3), "f": [0.1, np.nan, 1e300], "b": [True, False, True],
                  "s": pd.Series(["a", None, "ç"], dtype="str"),
                  "c": pd.Categorical(["x", "y", "x"], categories=["y", "x"], ordered=True)}),
    np.arange(12.0).reshape(3, 4) / 7,
    {"y": np.array([0, 1]), "proba": np.array([[0.25, 0.75], [1 / 3, 2 / 3]]), "fold": np.array([0, 1]), "n": 3},
    [1, 2.5, "x", None], 7, "text", float("nan"),
])
def test_results_round_trip_exactly(tmp_path, value):
    path = tmp_path / "e.npz"
    entries.write(path, value, task_name="t", config={"a": 1}, fingerprint="f")
    back = entries.read(path, task_name="t", config={"a": 1}, fingerprint="f")
    if isinstance(value, pd.DataFrame):
        pd.testing.assert_frame_equal(back, value)
    elif isinstance(value, np.ndarray):
        np.testing.assert_array_equal(back, value)
        assert back.dtype == value.dtype
    elif isinstance(value, dict):
        assert back.keys() == value.keys() and back["n"] == 3
        np.testing.assert_array_equal(back["proba"], value["proba"])
    elif isinstance(value, float):
        assert np.isnan(back)
    else:
        assert back == value


def test_values_that_cannot_be_cached_are_refused(tmp_path):
    with pytest.raises(TypeError, match="cannot be cached"):
        entries.write(tmp_path / "e.npz", object(), task_name="t", config={}, fingerprint="f")
    with pytest.raises(TypeError, match="neither numbers nor strings"):
        entries.write(tmp_path / "e.npz", pd.DataFrame({"o": [object()]}), task_name="t", config={}, fingerprint="f")
    assert not list(tmp_path.glob("*"))


class TestBadInput:
    def test_non_serialisable_config(self, tmp_path):
        with pytest.raises(TypeError, match="configuration is not JSON-serialisable"):
            run_grid(square, [{"estimator": object()}], backend="sequential", cache_dir=tmp_path, progress=False)

    def test_unknown_backend(self, tmp_path, log):
        with pytest.raises(ValueError, match="unknown backend 'spark': use loky, threading, sequential, dask or ray"):
            run_grid(square, [{"x": 1, "log": str(log)}], backend="spark", cache_dir=tmp_path, progress=False)
        assert _calls(log) == []

    @pytest.mark.parametrize("backend,n_jobs", [("sequential", 1), ("loky", 2)])
    def test_task_error_propagates_and_is_not_cached(self, tmp_path, backend, n_jobs):
        configs = [{"x": x} for x in range(4)]
        with pytest.raises(RuntimeError, match="task failed on x=2"):
            run_grid(failing, configs, backend=backend, n_jobs=n_jobs, cache_dir=tmp_path, progress=False)
        fingerprint = f"{entries.code_fingerprint(failing.__module__)}:"
        cached = {p.stem for p in (tmp_path / "failing").glob("*.npz")}
        assert entries.entry_key(f"{failing.__module__}.{failing.__qualname__}", {"x": 2}, fingerprint) not in cached

    def test_missing_argument_is_a_type_error(self, tmp_path):
        with pytest.raises(TypeError):
            run_grid(square, [{"x": 1}], backend="sequential", cache_dir=tmp_path, progress=False)

    def test_concurrent_writers_of_one_entry(self, tmp_path):
        # two processes (say, two pages run side by side) may store the same configuration at once
        import threading

        both_written = threading.Barrier(2, timeout=10)
        savez = entries.np.savez_compressed

        def savez_then_wait(file, *args, **kwargs):
            # make the two writers overlap deterministically: both write before either renames
            out = savez(file, *args, **kwargs)
            both_written.wait()
            return out

        path, record = tmp_path / "entry.npz", dict(task_name="t", config={"x": 1}, fingerprint="f")
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(entries.np, "savez_compressed", savez_then_wait)
            writers = [threading.Thread(target=entries.write, args=(path, 1), kwargs=record) for _ in range(2)]
            for writer in writers:
                writer.start()
            for writer in writers:
                writer.join()
        assert entries.read(path, **record) == 1 and [p.name for p in tmp_path.iterdir()] == ["entry.npz"]

    def test_corrupted_cache_file_is_recomputed(self, tmp_path, log):
        config = {"x": 5, "log": str(log)}
        run_grid(square, [config], backend="sequential", cache_dir=tmp_path, progress=False)
        next((tmp_path / "square").glob("*.npz")).write_bytes(b"not an archive")
        with pytest.warns(UserWarning, match=r"not used: unreadable \(ValueError\)"):
            assert run_grid(square, [config], backend="sequential", cache_dir=tmp_path, progress=False) == [25]

    def test_no_entry_is_unpickled(self, tmp_path):
        """An object array could only be read with allow_pickle=True: the cache refuses it."""
        path = tmp_path / "evil.npz"
        np.savez(path, __record__=np.array(json.dumps({"format": 1})), r=np.array([object()], dtype=object))
        with pytest.raises(entries.StaleEntry, match="unreadable"):
            entries.read(path, task_name="t", config={}, fingerprint="f")


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


def test_a_package_with_lazy_names_depends_on_their_modules():
    # `from credalbook.classifiers import NaiveBayes` must follow the name to its module for the fingerprint
    imported = entries._module_source("credalbook.classifiers")[1]
    assert {"credalbook.classifiers.naive_bayes", "credalbook.classifiers.lncc"} <= imported


def test_workers_compute_and_the_caller_caches(tmp_path, log):
    # the cache is read and written by the caller: a worker that cannot see the caller's disk still fills it
    configs = [{"x": x, "log": str(log)} for x in range(3)]
    run_grid(square, configs[:1], backend="sequential", cache_dir=tmp_path, progress=False)
    with cache_tally() as tally:
        assert run_grid(square, configs, backend="loky", n_jobs=2, cache_dir=tmp_path, progress=False) == [0, 1, 4]
    assert (tally.cells, tally.cached) == (3, 1) and sorted(_calls(log)) == [0, 1, 2]
    assert len(list((tmp_path / "square").glob("*.npz"))) == 3


# ------------------------------------------------------------------------------ dask
def test_tiny_grid_on_a_local_dask_cluster(tmp_path, log):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0") \
            as cluster, distributed.Client(cluster):
        configs = [{"x": x, "log": str(log), "delay": 0.02 * (4 - x)} for x in range(5)]
        results = run_grid(square, configs, backend="dask", cache_dir=tmp_path, progress=False)
        assert results == [x * x for x in range(5)]
        assert sorted(_calls(log)) == list(range(5))
        again = run_grid(square, configs, backend="dask", cache_dir=tmp_path, progress=False)
        assert again == results and len(_calls(log)) == 5
