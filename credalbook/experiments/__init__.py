"""Experiment protocols, the parallel grid runner and the store of full-profile results.

Every experiment that ``make reproduce`` runs registers itself with :func:`register`; the
CLI imports every module of this package, so a new experiment needs no central list.
"""
from credalbook.experiments.registry import EXPERIMENTS, register, run_experiment
from credalbook.experiments.store import (
    assert_matches_stored,
    load_results,
    provenance,
    results_path,
    save_results,
)
from credalbook.experiments.grid import run_grid

__all__ = [
    "EXPERIMENTS",
    "register",
    "run_experiment",
    "save_results",
    "load_results",
    "provenance",
    "results_path",
    "assert_matches_stored",
    "run_grid",
]
