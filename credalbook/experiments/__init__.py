"""Experiment protocols, the parallel grid runner and the store of full-profile results.

Every experiment that ``make reproduce`` runs registers itself with
:func:`~credalbook.experiments.registry.register`; the CLI imports every module of this package,
so a new experiment needs no central list. The names below load on first use, so that importing
:mod:`credalbook.experiments.registry` (the CLI does, for the profiles) stays cheap.
"""
import importlib

_HOMES = {
    "EXPERIMENTS": "registry",
    "register": "registry",
    "run_experiment": "registry",
    "save_results": "store",
    "load_results": "store",
    "provenance": "store",
    "results_path": "store",
    "assert_matches_stored": "store",
    "run_grid": "grid",
}

__all__ = list(_HOMES)


def __getattr__(name):
    if name in _HOMES:
        return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
