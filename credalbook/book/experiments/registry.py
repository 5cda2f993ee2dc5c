"""The experiments of the book, each declared once with everything about its profiles.

An :class:`Experiment` declares its grid task, the configurations of its full profile, which of
them the ci profile recomputes (a *filter* of the full grid, so the ci rows are stored rows by
construction), the key columns of its rows, and the tolerance of the ci check. Everything that
varies with the profile reads that one declaration:

- ``make reproduce`` (``credalbook reproduce``) runs the full grid and stores the rows with
  provenance (:meth:`Experiment.reproduce`);
- a chapter calls ``experiment.results(profile)``: the stored full rows, after recomputing the ci
  subset and checking it against them when ``profile == "ci"``; :meth:`Experiment.describe` then
  says in one sentence what ran and from which stored run the page reads. Within one build
  (``credalbook build`` or ``preview`` name a folder in :data:`SHARED_CHECKS`), the pages that
  read the same experiment share one check: the first recomputes, the others wait for it and read
  its record, which names the code and the stored rows it checked;
- the CLI takes its profile choices from :data:`PROFILES`, validated by :func:`check_profile`
  only.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import pkgutil
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["PROFILES", "SHARED_CHECKS", "EXPERIMENTS", "Experiment", "check_profile", "register", "discover",
           "run_experiment"]

#: The profiles of the book (``ci`` recomputes a stated subset and checks it, ``full`` is the papers' scale).
PROFILES = ("ci", "full")
#: The environment variable naming the folder where one build's pages share their ci checks (none when unset).
SHARED_CHECKS = "CREDALBOOK_SHARED_CHECKS"


def check_profile(profile) -> str:
    """``profile`` if it is one of :data:`PROFILES` (the one place profiles are validated)."""
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, got {profile!r}")
    return profile


@dataclass(frozen=True)
class CheckReport:
    """What a ci run checked: how many rows were recomputed, of which configurations, and the tolerance;
    ``shared`` when another page of the same build ran the check and this one read its record."""

    rows: int
    configurations: int
    atol: float
    rtol: float
    shared: bool = False

    def tolerance(self) -> str:
        from credalbook.book.tables import readable_powers

        return readable_powers(f"{self.atol:g}" + (f" (and {self.rtol:g} relative)" if self.rtol else ""))


@dataclass(frozen=True)
class Experiment:
    """One experiment of the book (see the module docstring).

    ``task(**config)`` computes one configuration (a module-level function, so that workers can
    import it); ``grid()`` lists the full profile's configurations; ``ci(config)`` says whether
    the ci profile recomputes one; ``keys`` are the columns that identify a row of the result and
    ``values`` those the ci check compares (default: all the others; leave out timings);
    ``assemble(configs, results)`` makes the tidy table (default: each result, a frame or a dict,
    with the configuration's scalar values as leading columns, or only those in ``columns``);
    ``atol`` and ``rtol`` bound the ci check (sums accumulated in another order differ in the
    last bits); ``software()`` returns the versions of programs outside Python that the task
    runs (Weka, a Java runtime), kept in the stored run's provenance.
    """

    name: str
    description: str
    task: Callable[..., Any]
    grid: Callable[[], list[dict]]
    ci: Callable[[dict], bool]
    keys: tuple[str, ...]
    values: tuple[str, ...] | None = None
    columns: tuple[str, ...] | None = None
    assemble: Callable[[list[dict], list[Any]], pd.DataFrame] | None = None
    atol: float = 1e-9
    rtol: float = 0.0
    version: str = ""
    options: dict = field(default_factory=dict)
    software: Callable[[], dict] | None = None
    _checked: dict = field(default_factory=dict, repr=False, compare=False)

    def configs(self, profile: str) -> list[dict]:
        """The configurations a profile runs: the full grid, or its ci subset."""
        configs = list(self.grid())
        if check_profile(profile) == "ci":
            configs = [c for c in configs if self.ci(c)]
            if not configs:
                raise ValueError(f"experiment {self.name!r}: its ci filter keeps no configuration")
        return configs

    def run(self, profile: str, **grid_options) -> pd.DataFrame:
        """Compute the rows of a profile (through :func:`credalbook.book.experiments.grid.run_grid`)."""
        return self.run_configs(self.configs(profile), **grid_options)

    def run_configs(self, configs: list[dict], **grid_options) -> pd.DataFrame:
        """Compute the rows of some configurations of the grid (a resumable run takes them in blocks)."""
        from credalbook.book.experiments.grid import run_grid, tidy

        options = {"desc": self.name, "version": self.version, **self.options, **grid_options}
        results = run_grid(self.task, configs, **options)
        if self.assemble is not None:
            return self.assemble(configs, results)
        kept = configs if self.columns is None else [{k: c[k] for k in self.columns} for c in configs]
        return tidy(kept, results)

    def stored(self) -> pd.DataFrame:
        """The stored full-profile rows (``data/results/{name}.csv``)."""
        from credalbook.book.experiments.store import load_results

        return load_results(self.name)

    def results(self, profile: str) -> pd.DataFrame:
        """The stored full rows; in the ci profile, after recomputing the ci subset and checking it
        against them (``AssertionError`` naming the first differing rows otherwise)."""
        if check_profile(profile) == "ci":
            folder = os.environ.get(SHARED_CHECKS)
            self._checked["ci"] = self._check_ci() if not folder else self._shared_check(Path(folder))
        return self.stored()

    def _check_ci(self) -> CheckReport:
        """Recompute the ci subset (never from the grid's cache) and check it against the stored rows."""
        from credalbook.book.experiments.store import assert_matches_stored

        # one process, as the book runs pages side by side
        recomputed = self.run("ci", progress=False, cache=False, n_jobs=1)
        values = list(self.values) if self.values else [c for c in recomputed.columns if c not in self.keys]
        assert_matches_stored(recomputed, self.name, keys=list(self.keys), values=values, atol=self.atol,
                              rtol=self.rtol)
        return CheckReport(len(recomputed), len(self.configs("ci")), self.atol, self.rtol)

    def _check_key(self) -> str:
        """sha256 of what decides the ci check's outcome: the task's code (:func:`~credalbook.book.experiments.cache.code_fingerprint`),
        the stored rows, the ci configurations, the compared columns and the tolerance."""
        from credalbook.book.experiments.cache import canonical, code_fingerprint
        from credalbook.book.experiments.store import results_path

        digest = hashlib.sha256(results_path(self.name).read_bytes())
        digest.update(json.dumps([self.name, self.version, code_fingerprint(self.task.__module__),
                                  [canonical(config) for config in self.configs("ci")], self.keys, self.values, self.atol, self.rtol],
                                 sort_keys=True, default=str).encode())
        return digest.hexdigest()

    def _shared_check(self, folder: Path) -> CheckReport:
        """The ci check, once per ``folder``: the first caller runs it and writes its record under a lock,
        later callers with the same :meth:`_check_key` read the record (a failed check writes none)."""
        import fcntl

        folder.mkdir(parents=True, exist_ok=True)
        record = folder / f"{self.name}.json"
        with open(folder / f"{self.name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            key = self._check_key()
            if record.is_file():
                saved = json.loads(record.read_text(encoding="utf-8"))
                if saved.get("key") == key:
                    return CheckReport(**{**saved["report"], "shared": True})
            report = self._check_ci()
            record.write_text(json.dumps({"key": key, "report": asdict(report)}), encoding="utf-8")
            return report

    def describe(self, profile: str) -> str:
        """One markdown sentence: the profile this page ran in, what it recomputed and checked, and the stored run."""
        from credalbook.book.experiments.store import provenance

        meta = provenance(self.name)
        stored = (f"the stored full-scale run of `{self.name}` ({meta['rows']:,} rows, commit `{meta['commit']}`, "
                  f"{meta['date']})")
        check = self._checked.get("ci")
        if check_profile(profile) == "ci" and check is not None:
            who, once = ("this build", " once for all the pages that read this run,") if check.shared else ("it", "")
            return (f"This page ran in the **ci** profile: {who} recomputed {check.rows:,} rows "
                    f"({check.configurations} of the {len(self.grid())} configurations){once} and found them "
                    f"equal to {stored} within {check.tolerance()}; it shows that run.")
        return f"This page ran in the **{profile}** profile and shows {stored}."

    def reproduce(self, *, allow_dirty: bool = False, **grid_options) -> pd.DataFrame:
        """Run the full profile and store the rows with provenance (what ``make reproduce`` does)."""
        from credalbook.book.experiments.grid import cache_tally
        from credalbook.book.experiments.store import results_path, save_results

        start = time.perf_counter()
        with cache_tally() as tally:
            frame = self.run("full", **grid_options)
        seconds = time.perf_counter() - start
        changes = self.changes(frame) if results_path(self.name).is_file() else None
        if changes is not None:
            print(f"[reproduce] {self.name}: {changes['changed_rows']} of {len(frame)} rows differ from the previous "
                  f"store (commit {changes['previous_commit']}), {changes['rows_added']} added, "
                  f"{changes['rows_removed']} removed", flush=True)
        save_results(frame, self.name, profile="full", runtime_seconds=seconds,
                     note=tally.note(), cache=(tally.cells, tally.cached), allow_dirty=allow_dirty,
                     software=self.software() if self.software is not None else None, changes=changes)
        return frame

    def changes(self, frame: pd.DataFrame) -> dict:
        """What full-profile rows ``frame`` change from the stored ones, by this experiment's keys, values
        and tolerance (:func:`credalbook.book.experiments.store.changes_from_stored`)."""
        from credalbook.book.experiments.store import changes_from_stored

        values = list(self.values) if self.values else [c for c in frame.columns if c not in self.keys]
        return changes_from_stored(frame, self.name, keys=list(self.keys), values=values, atol=self.atol,
                                   rtol=self.rtol)


#: Every registered experiment, by name (filled by :func:`register`, all of them after :func:`discover`).
EXPERIMENTS: dict[str, Experiment] = {}


def register(experiment: Experiment) -> Experiment:
    """Add ``experiment`` to :data:`EXPERIMENTS` (its stored CSV is ``data/results/{name}.csv``) and return it."""
    known = EXPERIMENTS.get(experiment.name)
    if known is not None and known.task is not experiment.task:
        raise ValueError(f"experiment {experiment.name!r} registered twice")
    EXPERIMENTS[experiment.name] = experiment
    return experiment


def discover() -> dict[str, Experiment]:
    """Import every module of :mod:`credalbook.book.experiments` so that they register."""
    import credalbook.book.experiments as package

    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package.__name__}.{info.name}")
    return EXPERIMENTS


def run_experiment(name: str, profile: str = "full", save: bool = True, allow_dirty: bool = False,
                   **grid_options) -> pd.DataFrame:
    """Run one registered experiment; the full profile is stored with provenance unless ``save=False``."""
    experiments = discover()
    if name not in experiments:
        raise KeyError(f"unknown experiment {name!r}; known: {', '.join(sorted(experiments))}")
    experiment = experiments[name]
    if check_profile(profile) == "full" and save:
        return experiment.reproduce(allow_dirty=allow_dirty, **grid_options)
    return experiment.run(profile, **grid_options)
