"""Experiment protocols, the parallel grid runner and the store of full-profile results.

Every experiment that ``make reproduce`` runs registers itself with
:func:`~credalbook.book.experiments.registry.register`; the CLI imports every module of this package,
so a new experiment needs no central list. The names below load on first use, so that importing
:mod:`credalbook.book.experiments.registry` (the CLI does, for the profiles) stays cheap.
"""
from credalbook._lazy import lazy_names

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


__getattr__, __dir__ = lazy_names(__name__, _HOMES)
