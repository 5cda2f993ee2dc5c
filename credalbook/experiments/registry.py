"""Registry of reproducible experiments (what ``credalbook reproduce`` runs)."""
from __future__ import annotations

import importlib
import pkgutil
import time
from dataclasses import dataclass
from typing import Callable

import pandas as pd

__all__ = ["EXPERIMENTS", "Experiment", "register", "discover", "run_experiment"]


@dataclass(frozen=True)
class Experiment:
    name: str
    function: Callable[..., pd.DataFrame]
    description: str


#: Every registered experiment, by name (filled by :func:`register`, all of them after :func:`discover`).
EXPERIMENTS: dict[str, Experiment] = {}


def register(name: str, description: str = ""):
    """Decorator: ``function(profile) -> tidy DataFrame`` becomes experiment ``name``.

    The stored CSV is ``data/results/{name}.csv`` (see :func:`credalbook.experiments.save_results`).
    """

    def decorate(function):
        if name in EXPERIMENTS and EXPERIMENTS[name].function is not function:
            raise ValueError(f"experiment {name!r} registered twice")
        EXPERIMENTS[name] = Experiment(name, function, description or (function.__doc__ or "").strip().split("\n")[0])
        return function

    return decorate


def discover() -> dict[str, Experiment]:
    """Import every module of :mod:`credalbook.experiments` so that they register."""
    import credalbook.experiments as package

    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package.__name__}.{info.name}")
    return EXPERIMENTS


def run_experiment(name: str, profile: str = "full", save: bool = True, allow_dirty: bool = False) -> pd.DataFrame:
    """Run one registered experiment and (by default) store its tidy result with provenance.

    ``allow_dirty``: store full-profile results from a tree with uncommitted changes (see
    :func:`credalbook.experiments.store.save_results`).
    """
    from credalbook.experiments.grid import cache_tally
    from credalbook.experiments.store import save_results

    experiments = discover()
    if name not in experiments:
        raise KeyError(f"unknown experiment {name!r}; known: {', '.join(sorted(experiments))}")
    start = time.perf_counter()
    with cache_tally() as tally:
        frame = experiments[name].function(profile=profile)
    runtime = time.perf_counter() - start
    if save:
        save_results(frame, name, profile=profile, runtime_seconds=runtime, note=tally.note(),
                     cache=(tally.cells, tally.cached), allow_dirty=allow_dirty)
    return frame
