"""Parallel, cached evaluation of an experiment over a grid of configurations.

``run_grid(task, configs)`` calls ``task(**config)`` for every configuration, in parallel
through joblib (``backend="loky"`` locally; ``"dask"`` or ``"ray"`` send the same calls to
a cluster once a client is connected, e.g. by ``credalbook reproduce --backend dask
--scheduler ADDRESS``), with a tqdm progress bar, and caches each result on the caller's disk
(:mod:`credalbook.book.experiments.cache`): an entry records the task, its configuration, the
fingerprint of the code involved and a checksum, and is served only when all of them match.
Inside ``with cache_tally() as tally:`` every grid run counts its cells and the verified cache
hits, so that a stored result can say how much of it was read rather than computed.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

import joblib
import pandas as pd
from tqdm import tqdm

from credalbook.book.experiments import cache as entries

__all__ = ["CacheTally", "cache_tally", "default_cache_dir", "run_grid", "tidy"]


@dataclass
class CacheTally:
    """Grid cells run, and how many of them were read from the cache, inside :func:`cache_tally`."""

    cells: int = 0
    cached: int = 0

    def note(self) -> str:
        """The provenance note for a run whose cells were partly read from the cache ("" if none was)."""
        if not self.cached:
            return ""
        return (f"{self.cached} of {self.cells} grid cells were read from the cache (.cache/grid), "
                "so the runtime counts only the others.")


_tally = CacheTally()


@contextmanager
def cache_tally():
    """Context manager yielding a fresh :class:`CacheTally` that the grid runs inside it update."""
    global _tally
    previous, _tally = _tally, CacheTally()
    try:
        yield _tally
    finally:
        _tally = previous


def default_cache_dir() -> Path:
    from credalbook.book.paths import repo_root

    env = os.environ.get("CREDALBOOK_CACHE")
    if env:
        return Path(env)
    try:
        return repo_root() / ".cache" / "grid"
    except FileNotFoundError:
        return Path.home() / ".cache" / "credalbook" / "grid"


def _cached(task_name: str, config: dict, path: Path, fingerprint: str) -> tuple[Any, bool]:
    """``(result, True)`` from a verified entry at ``path``, else ``(None, False)``; an entry that
    cannot be trusted is reported with a warning and recomputed."""
    try:
        return entries.read(path, task_name=task_name, config=config, fingerprint=fingerprint), True
    except FileNotFoundError:
        return None, False
    except entries.StaleEntry as reason:
        entries.warn_stale(path, str(reason))
        return None, False


def _computed(task: Callable, configs: list[dict], backend: str, n_jobs: int) -> Iterable[Any]:
    """``task(**config)`` for each config, in order, as they come back from the backend."""
    if backend == "sequential" or n_jobs == 1:
        yield from (task(**config) for config in configs)
        return
    if backend == "ray":  # pragma: no cover - needs a ray installation
        from ray.util.joblib import register_ray

        register_ray()
    with joblib.parallel_config(backend=backend, n_jobs=n_jobs):
        yield from joblib.Parallel(return_as="generator")(joblib.delayed(task)(**config) for config in configs)


def run_grid(task: Callable[..., Any], configs: Iterable[dict], *, n_jobs: int = -1, backend: str = "loky",
             cache: bool = True, cache_dir: Path | None = None, version: str = "", desc: str | None = None,
             progress: bool = True) -> list[Any]:
    """Evaluate ``task(**config)`` for each config; results in the configs' order.

    ``task`` must be importable (a module-level function) so that worker processes can run
    it. The cache lives with the caller: verified entries are read there first, only the
    other configurations go to the workers (local processes, or a Dask or Ray cluster), and
    their results are written there as they come back. The cache key hashes the task, the
    configuration and the fingerprint of the code the task's module imports
    (:func:`credalbook.book.experiments.cache.code_fingerprint`); ``version`` adds a salt of one's
    own (say, for a change of a third-party library's behaviour). Results that are DataFrames
    can be concatenated by the caller; :func:`tidy` does that and adds the config columns.
    """
    configs = list(configs)
    if backend not in {"loky", "threading", "sequential", "dask", "ray"}:
        raise ValueError(f"unknown backend {backend!r}: use loky, threading, sequential, dask or ray")
    name = f"{task.__module__}.{task.__qualname__}"
    fingerprint = f"{entries.code_fingerprint(task.__module__)}:{version}"
    folder = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    paths = [folder / task.__name__ / f"{entries.entry_key(name, c, fingerprint)}.npz" if cache else None
             for c in configs]
    results, hits = [None] * len(configs), [False] * len(configs)
    for i, (config, path) in enumerate(zip(configs, paths)):
        if path is not None:
            results[i], hits[i] = _cached(name, config, path, fingerprint)
    todo = [i for i, hit in enumerate(hits) if not hit]
    # disable=None: a bar on a terminal (make reproduce), none on a pipe or in an executed page
    disable = True if not progress or os.environ.get("TQDM_DISABLE") else None
    with tqdm(total=len(configs), initial=len(configs) - len(todo), desc=desc or task.__name__, disable=disable,
              mininterval=2.0) as bar:
        for i, result in zip(todo, _computed(task, [configs[i] for i in todo], backend, n_jobs)):
            if paths[i] is not None:
                entries.write(paths[i], result, task_name=name, config=configs[i], fingerprint=fingerprint)
            results[i] = result
            bar.update()
    _tally.cells += len(configs)
    _tally.cached += len(configs) - len(todo)
    return results


def tidy(configs: Iterable[dict], results: Iterable[pd.DataFrame | dict]) -> pd.DataFrame:
    """Concatenate per-config results into one tidy frame, the config values as columns."""
    frames = []
    for config, result in zip(configs, results):
        frame = pd.DataFrame([result]) if isinstance(result, dict) else result.copy()
        for key, value in reversed(list(config.items())):
            if key not in frame.columns and not isinstance(value, (list, dict, tuple)):
                frame.insert(0, key, value)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)
