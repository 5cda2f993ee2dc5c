"""Parallel, cached evaluation of an experiment over a grid of configurations.

``run_grid(task, configs)`` calls ``task(**config)`` for every configuration, in parallel
through joblib (``backend="loky"`` locally; ``"dask"`` or ``"ray"`` send the same calls to
a cluster once a client is connected), with a tqdm progress bar, and caches each result on
disk under a key that hashes the task's qualified name, its ``version`` and the config.
Inside ``with cache_tally() as tally:`` every grid run counts its cells and cache hits, so
that a stored result can say how much of it was read rather than computed.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

import joblib
import pandas as pd
from tqdm import tqdm


def config_hash(config: dict, salt: str = "") -> str:
    """A stable 16-hex-digit key of a JSON-serialisable configuration."""
    try:
        text = json.dumps(config, sort_keys=True, default=_json_default)
    except TypeError as error:
        raise TypeError(f"configuration is not JSON-serialisable: {config!r}") from error
    return hashlib.sha256((salt + text).encode()).hexdigest()[:16]


def _json_default(value):
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(type(value).__name__)


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
    from credalbook.book import repo_root

    env = os.environ.get("CREDALBOOK_CACHE")
    if env:
        return Path(env)
    try:
        return repo_root() / ".cache" / "grid"
    except FileNotFoundError:
        return Path.home() / ".cache" / "credalbook" / "grid"


def _cached_call(task: Callable, config: dict, cache_file: Path | None):
    """``task(**config)``, read from / written to ``cache_file``; an unreadable cache entry is
    recomputed, and each writer uses its own temporary file so concurrent writers never clash."""
    if cache_file is not None and cache_file.is_file():
        try:
            return joblib.load(cache_file)
        except Exception as error:  # a truncated or foreign file: recompute it
            warnings.warn(f"unreadable cache entry {cache_file} ({type(error).__name__}); recomputing")
    result = task(**config)
    if cache_file is not None:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        handle, tmp = tempfile.mkstemp(dir=cache_file.parent, prefix=cache_file.stem, suffix=".tmp")
        os.close(handle)
        joblib.dump(result, tmp)
        os.replace(tmp, cache_file)
    return result


def run_grid(task: Callable[..., Any], configs: Iterable[dict], *, n_jobs: int = -1, backend: str = "loky",
             cache: bool = True, cache_dir: Path | None = None, version: str = "1", desc: str | None = None,
             progress: bool = True) -> list[Any]:
    """Evaluate ``task(**config)`` for each config; results in the configs' order.

    ``task`` must be importable (a module-level function) so that worker processes can run
    it. Results that are DataFrames can be concatenated by the caller with ``pd.concat``;
    :func:`tidy` does that and adds the config columns.
    """
    configs = list(configs)
    if backend not in {"loky", "threading", "sequential", "dask", "ray"}:
        raise ValueError(f"unknown backend {backend!r}: use loky, threading, sequential, dask or ray")
    salt = f"{task.__module__}.{task.__qualname__}:{version}"
    folder = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    files = [folder / task.__name__ / f"{config_hash(c, salt)}.joblib" if cache else None for c in configs]
    _tally.cells += len(files)
    _tally.cached += sum(f is not None and f.is_file() for f in files)
    calls = (joblib.delayed(_cached_call)(task, c, f) for c, f in zip(configs, files))
    # disable=None: a bar on a terminal (make reproduce), none on a pipe or in an executed page
    disable = True if not progress or os.environ.get("TQDM_DISABLE") else None
    bar = dict(total=len(configs), desc=desc or task.__name__, disable=disable, mininterval=2.0)
    if backend == "sequential" or n_jobs == 1:
        return [_cached_call(task, c, f) for c, f in tqdm(zip(configs, files), **bar)]
    if backend == "ray":  # pragma: no cover - needs a ray installation
        from ray.util.joblib import register_ray

        register_ray()
    with joblib.parallel_config(backend=backend, n_jobs=n_jobs):
        generator = joblib.Parallel(return_as="generator")(calls)
        return list(tqdm(generator, **bar))


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
