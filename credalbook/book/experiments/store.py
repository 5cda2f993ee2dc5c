"""Tidy result tables in ``data/results/`` with their provenance.

``{name}.csv`` holds the rows; ``{name}.provenance.json`` says which commit, profile, date
and runtime produced them. Chapters show the stored full-profile rows and, in the ci
profile, recompute a subset with the same seeds and call :func:`assert_matches_stored`.
"""
from __future__ import annotations

import json
import math
import os
import platform
import re
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

from credalbook._atomic import replace_together, write_text

__all__ = ["results_dir", "results_path", "DirtyTreeError", "git_state", "save_results", "provenance",
           "load_results", "assert_matches_stored", "changes_from_stored", "describe_run", "REPRODUCTION",
           "save_reproduction", "reproduction"]


def results_dir() -> Path:
    from credalbook.book.build import repo_root

    return repo_root() / "data" / "results"


#: The form of a result name: letters, digits, ``_``, ``-`` and ``.`` (no path separator, no ``..``).
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def _checked_name(name, argument: str = "name") -> str:
    """``name`` if it names a file inside ``data/results``; a ``ValueError`` naming ``argument`` otherwise."""
    if not isinstance(name, str) or not _NAME.fullmatch(name) or ".." in name:
        raise ValueError(f"{argument} must be a result name (letters, digits, '_', '-' and '.', starting with a "
                         f"letter or digit; no path separator, no '..'), got {name!r}")
    return name


def results_path(name: str) -> Path:
    """``data/results/{name}.csv``; ``name`` must be a plain result name (``ValueError`` for a path or ``..``)."""
    folder = results_dir()
    path = folder / f"{_checked_name(name)}.csv"
    if path.resolve().parent != folder.resolve():  # a symbolic link planted under the name
        raise ValueError(f"name {name!r} resolves outside {folder}")
    return path


def _provenance_path(name: str) -> Path:
    return results_path(name).with_suffix(".provenance.json")


class DirtyTreeError(RuntimeError):
    """Full-profile results asked to be stored from a checkout with uncommitted changes."""


# What a stored result depends on: the package, the data and the pinned environment (not the
# chapters, and not data/results itself, which a run of several experiments changes as it goes).
_TRACKED_INPUTS = [":/credalbook", ":/data", ":(top,exclude)data/results", ":/pyproject.toml", ":/requirements.lock"]


def git_state() -> tuple[str, list[str]]:
    """The checkout's short commit and the uncommitted files among the results' inputs.

    Returns ``("unknown", [])`` outside a git checkout.
    """
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True,
                                cwd=results_dir()).stdout.strip()
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all", "--", *_TRACKED_INPUTS],
                                capture_output=True, text=True, check=True, cwd=results_dir()).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown", []
    return commit, [line[3:] for line in status.splitlines() if line.strip()]


def save_results(frame: pd.DataFrame, name: str, *, profile: str, runtime_seconds: float, note: str = "",
                 cache: tuple[int, int] | None = None, allow_dirty: bool = False, software: dict | None = None,
                 changes: dict | None = None) -> Path:
    """Write ``frame`` as ``data/results/{name}.csv`` and its provenance beside it.

    ``note`` says how to read the record; ``software`` names the versions of programs outside
    Python that made it (e.g. Weka and Java); ``cache`` is ``(grid cells, cells read from the
    cache)`` of the run (:class:`credalbook.book.experiments.grid.CacheTally`); ``changes`` what the rows
    changed from the ones they replace (:func:`changes_from_stored`). Full-profile results
    are stored only from a committed tree: with uncommitted changes to the package, the data or
    the pinned environment a :class:`DirtyTreeError` names them, unless ``allow_dirty`` (the
    record then carries ``commit+dirty`` and the list of files).
    """
    name = _checked_name(name)
    if not isinstance(frame, pd.DataFrame) or frame.empty:
        raise ValueError(f"experiment {name!r} returned no rows")
    if not isinstance(profile, str) or not profile:
        raise ValueError(f"profile must be a non-empty string, got {profile!r}")
    if (isinstance(runtime_seconds, bool) or not isinstance(runtime_seconds, (int, float, np.integer, np.floating))
            or not math.isfinite(runtime_seconds) or runtime_seconds < 0):
        raise ValueError(f"runtime_seconds must be a finite number >= 0, got {runtime_seconds!r}")
    if not isinstance(note, str):
        raise ValueError(f"note must be a string, got {type(note).__name__}")
    if cache is not None:
        if (not isinstance(cache, (tuple, list)) or len(cache) != 2
                or not all(isinstance(c, (int, np.integer)) and not isinstance(c, bool) and c >= 0 for c in cache)
                or cache[1] > cache[0]):
            raise ValueError(f"cache must be (grid cells, cached cells), two integers >= 0 with cached <= cells, "
                             f"got {cache!r}")
    if software is not None and not isinstance(software, dict):
        raise ValueError(f"software must be a dict of program -> version, got {type(software).__name__}")
    if changes is not None and not isinstance(changes, dict):
        raise ValueError(f"changes must be a dict (changes_from_stored), got {type(changes).__name__}")
    path = results_path(name)
    commit, dirty = git_state()
    if dirty and profile.startswith("full") and not allow_dirty:
        raise DirtyTreeError(f"not storing full-profile results {name!r} from a tree with uncommitted changes to "
                             f"{', '.join(dirty[:5])}{' ...' if len(dirty) > 5 else ''}: commit them first, or pass "
                             "allow_dirty=True (`credalbook reproduce --allow-dirty`), which the record keeps")
    meta = {
        "name": name,
        "profile": profile,
        "commit": commit + ("+dirty" if dirty else ""),
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "runtime_seconds": round(float(runtime_seconds), 1),
        "rows": int(len(frame)),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "pandas": pd.__version__,
    }
    if cache is not None:
        meta["grid_cells"], meta["cached_cells"] = int(cache[0]), int(cache[1])
    if dirty:
        meta["uncommitted"] = dirty
    if software:
        meta["software"] = {str(k): str(v) for k, v in software.items()}
    if changes is not None:
        meta["changes_from_previous"] = changes
    if note:
        meta["note"] = note
    try:
        record = json.dumps(meta, indent=2, allow_nan=False) + "\n"
    except (TypeError, ValueError) as error:
        raise ValueError(f"the provenance of {name!r} cannot be written as JSON: {error}") from None
    # both files to temporary files first, then both renamed: a failure leaves the previous run whole
    replace_together({
        path: lambda temporary: frame.to_csv(temporary, index=False),  # shortest round-trip repr: exact floats
        _provenance_path(name): lambda temporary: temporary.write_text(record, encoding="utf-8"),
    })
    return path


#: Name of the record of one whole ``make reproduce`` run (``data/results/reproduce_run.json``).
REPRODUCTION = "reproduce_run"


def save_reproduction(names: list[str], wall_seconds: float, *, backend: str) -> Path:
    """Record one whole full-profile run of the experiments ``names`` (``make reproduce``): its
    wall time, the machine's cores, the backend, and each experiment's stored provenance
    (commit, runtime, cells read from the cache), so that the total is one measured run, not a
    sum of runs made at different times. Written beside the stored results as ``reproduce_run.json``."""
    if isinstance(names, str) or not names:
        raise ValueError(f"names must list the experiments of the run, got {names!r}")
    names = [_checked_name(name, "names") for name in names]
    if not (isinstance(wall_seconds, (int, float)) and not isinstance(wall_seconds, bool)
            and math.isfinite(wall_seconds) and wall_seconds > 0):
        raise ValueError(f"wall_seconds must be a positive number, got {wall_seconds!r}")
    if not isinstance(backend, str) or not backend:
        raise ValueError(f"backend must be a non-empty string, got {backend!r}")
    experiments = {}
    for name in names:
        meta = provenance(name)
        experiments[name] = {key: meta[key] for key in ("commit", "runtime_seconds", "rows", "grid_cells",
                                                        "cached_cells") if key in meta}
    commits = {meta["commit"] for meta in experiments.values()}
    record = {
        "commit": commits.pop() if len(commits) == 1 else sorted(commits),
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "wall_seconds": round(float(wall_seconds), 1),
        "cpu_count": os.cpu_count(),
        "backend": backend,
        "cached_cells": sum(int(meta.get("cached_cells", 0)) for meta in experiments.values()),
        "experiments": experiments,
    }
    return write_text(results_dir() / f"{REPRODUCTION}.json", json.dumps(record, indent=2) + "\n")


def reproduction() -> dict:
    """The record of the last whole ``make reproduce`` run (:func:`save_reproduction`)."""
    path = results_dir() / f"{REPRODUCTION}.json"
    if not path.exists():
        raise FileNotFoundError(f"no record of a whole reproduction at {path.name}: run `make reproduce`")
    return json.loads(path.read_text(encoding="utf-8"))


def provenance(name: str) -> dict:
    """The provenance record of stored result ``name`` (commit, profile, date, runtime)."""
    path = _provenance_path(name)
    if not path.is_file():
        raise FileNotFoundError(f"no stored results for {name!r} at {path}: run `make reproduce`")
    return json.loads(path.read_text(encoding="utf-8"))


def load_results(name: str) -> pd.DataFrame:
    """The stored tidy table of experiment ``name``."""
    path = results_path(name)
    if not path.is_file():
        raise FileNotFoundError(f"no stored results for {name!r} at {path}: run `make reproduce`")
    return pd.read_csv(path)


def _checked_columns(recomputed, stored: pd.DataFrame, name: str, keys, values) -> tuple[list[str], list[str]]:
    """``keys`` and ``values`` as lists of column names present in both tables; a ``ValueError`` naming the argument."""
    if not isinstance(recomputed, pd.DataFrame):
        raise ValueError(f"recomputed must be a DataFrame, got {type(recomputed).__name__}")
    checked = []
    for argument, columns in (("keys", keys), ("values", values)):
        if isinstance(columns, str) or not all(isinstance(c, str) for c in columns):
            raise ValueError(f"{argument} must be a list of column names, got {columns!r}")
        columns = list(columns)
        if argument == "keys" and not columns:
            raise ValueError(f"keys must name at least one column, got {columns!r}")
        missing_cols = [c for c in columns if c not in stored.columns or c not in recomputed.columns]
        if missing_cols:
            raise ValueError(f"{argument}: columns {missing_cols} missing from the stored or recomputed table of "
                             f"{name!r} (stored: {list(stored.columns)}; recomputed: {list(recomputed.columns)})")
        checked.append(columns)
    return checked[0], checked[1]


def _check_tolerance(atol, rtol) -> None:
    for argument, value in (("atol", atol), ("rtol", rtol)):
        if (isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating))
                or not math.isfinite(value) or value < 0):
            raise ValueError(f"{argument} must be a finite number >= 0, got {value!r}")


def _joined(recomputed: pd.DataFrame, stored: pd.DataFrame, name: str, keys: list[str], values: list[str],
            how: str) -> pd.DataFrame:
    keys, values = _checked_columns(recomputed, stored, name, keys, values)
    return recomputed[keys + values].merge(stored[keys + values], on=keys, how=how,
                                           suffixes=("_recomputed", "_stored"), indicator=True)


def _differs(joined: pd.DataFrame, column: str, atol: float, rtol: float) -> np.ndarray:
    """Rows of ``joined`` whose recomputed and stored ``column`` differ: numbers beyond ``atol``/``rtol``,
    other values unless equal or missing on both sides."""
    recomputed_values, stored_values = joined[f"{column}_recomputed"], joined[f"{column}_stored"]
    if pd.api.types.is_numeric_dtype(recomputed_values) and pd.api.types.is_numeric_dtype(stored_values):
        a, b = recomputed_values.to_numpy(dtype=float), stored_values.to_numpy(dtype=float)
        return ~np.isclose(a, b, atol=atol, rtol=rtol, equal_nan=True)
    return ~((recomputed_values.astype(str) == stored_values.astype(str))
             | (recomputed_values.isna() & stored_values.isna())).to_numpy()


def assert_matches_stored(recomputed: pd.DataFrame, name: str, *, keys: list[str], values: list[str],
                          atol: float = 1e-9, rtol: float = 0.0) -> pd.DataFrame:
    """Check that ``recomputed`` rows equal the stored rows with the same ``keys`` (numbers within
    ``atol``/``rtol``, other values exactly).

    Returns the joined frame. Raises ``AssertionError`` naming the first differing rows, or
    when a recomputed key is absent from the stored table.
    """
    _check_tolerance(atol, rtol)
    joined = _joined(recomputed, load_results(name), name, keys, values, how="left")
    absent = joined[joined["_merge"] != "both"]
    if len(absent):
        raise AssertionError(f"{len(absent)} recomputed rows of {name!r} are not in the stored table, "
                             f"e.g. {absent[keys].head(3).to_dict('records')}")
    for column in values:
        bad = _differs(joined, column, atol, rtol)
        if bad.any():
            rows = joined.loc[bad, keys + [f"{column}_recomputed", f"{column}_stored"]].head(5)
            raise AssertionError(f"{bad.sum()} rows of {name!r} differ in {column!r}:\n{rows.to_string()}")
    return joined.drop(columns="_merge")


def changes_from_stored(recomputed: pd.DataFrame, name: str, *, keys: list[str], values: list[str],
                        atol: float = 1e-9, rtol: float = 0.0) -> dict:
    """How a new full run ``recomputed`` differs from the stored rows it replaces, matched by ``keys``:
    the previous store's commit, rows added and removed, and per column of ``values`` the rows that
    differ (numbers beyond ``atol``/``rtol``); ``changed_rows`` counts rows with any difference.
    :meth:`credalbook.book.experiments.registry.Experiment.reproduce` keeps it in the new provenance, so
    that replacing a stored run says what it changed."""
    _check_tolerance(atol, rtol)
    stored = load_results(name)
    keys, values = _checked_columns(recomputed, stored, name, keys, values)
    if recomputed[keys].duplicated().any() or stored[keys].duplicated().any():
        raise ValueError(f"keys {keys} do not identify the rows of {name!r}")
    joined = _joined(recomputed, stored, name, keys, values, how="outer")
    both = joined[joined["_merge"] == "both"]
    differing = {column: _differs(both, column, atol, rtol) for column in values}
    any_row = np.zeros(len(both), dtype=bool)
    for bad in differing.values():
        any_row |= bad
    return {"previous_commit": provenance(name).get("commit", "unknown"),
            "rows_added": int((joined["_merge"] == "left_only").sum()),
            "rows_removed": int((joined["_merge"] == "right_only").sum()),
            "changed_rows": int(any_row.sum()),
            "changed_by_column": {column: int(bad.sum()) for column, bad in differing.items() if bad.any()},
            "tolerance": {"atol": atol, "rtol": rtol}}


def describe_run(profile: str, names: list[str] = ()) -> str:
    """Markdown sentence for a chapter: which profile ran now, and when stored results were made."""
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    parts = [f"This page was executed on {now} in the **{profile}** profile."]
    for name in names:
        try:
            meta = provenance(name)
        except FileNotFoundError:
            parts.append(f"No stored results for `{name}` yet.")
            continue
        parts.append(f"Stored results `{name}`: profile **{meta['profile']}**, made {meta['date']} at commit "
                     f"`{meta['commit']}` in {meta['runtime_seconds']:.0f} s ({meta['rows']} rows)."
                     + (f" {meta['note']}" if meta.get("note") else ""))
    return " ".join(parts)
