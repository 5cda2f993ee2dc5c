"""How the package's hot paths scale with the number of instances and of classes, and how they compare.

``credalbook bench`` (``make bench``) times each path of :data:`HOT_PATHS` on synthetic inputs
of growing size and stores the rows (:data:`SCALING`) with their provenance; the book's
performance page reads them and draws one log-log plot per path. Each time is the best of a few
runs in one process after a warm-up run, so that compilation and first-touch costs are left
out; where the path has a yardstick (reading its input once, or the reference package), its
time is measured on the same input and stored beside it.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from credalbook._validation import check_scalar

__all__ = ["HotPath", "HOT_PATHS", "SCALING", "JNCC2_PAIRING", "MONTE_CARLO_SE", "best_time", "measure", "scaling_exponents", "stored",
           "reproduction_times"]

#: Name of the stored scaling table (``data/results/performance_scaling.csv``).
SCALING = "performance_scaling"
#: Name of the stored pairing of the book's NCC protocol with JNCC2's (``data/results/performance_jncc2.csv``).
JNCC2_PAIRING = "performance_jncc2"


def stored(name: str = SCALING):
    """``(rows, provenance)`` of a stored timing table, :data:`SCALING` or :data:`JNCC2_PAIRING` (``make bench``)."""
    from credalbook.book.experiments.store import load_results, provenance

    if name not in (SCALING, JNCC2_PAIRING):
        raise ValueError(f"name must be {SCALING!r} or {JNCC2_PAIRING!r}, got {name!r}")
    return load_results(name), provenance(name)


def best_time(function: Callable[[], object], *, repeat: int = 3, budget: float = 2.0) -> float:
    """Best wall time in seconds of ``function()`` over up to ``repeat`` runs after one warm-up run.

    Stops early when the runs so far have used ``budget`` seconds (one run is always timed).
    """
    check_scalar(repeat, "repeat", low=1, integer=True)
    check_scalar(budget, "budget", low=0.0)
    function()
    best, spent = np.inf, 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        elapsed = time.perf_counter() - start
        best, spent = min(best, elapsed), spent + elapsed
        if spent >= budget:
            break
    return float(best)


@dataclass(frozen=True)
class HotPath:
    """A timed path: ``setup(n, k, rng)`` builds the input, ``run(input)`` is timed, ``yardstick(input)`` too if given.

    ``k`` is the second size (the number of classes, or the Beta concentration γ for the expected
    loss), named by ``k_name``; ``sizes`` and ``ks`` are the grid.
    """

    description: str
    setup: Callable
    run: Callable
    sizes: tuple
    ks: tuple
    k_name: str = "classes"
    yardstick: Callable | None = None
    yardstick_name: str = ""


def _discrete(n: int, k: int, rng, d: int = 10, values: int = 4):
    """(X, y) with ``d`` informative nominal features of ``values`` values and ``k`` classes, as codes."""
    y = rng.integers(0, k, n)
    noise = rng.integers(0, values, (n, d))
    X = np.where(rng.random((n, d)) < 0.6, (y[:, None] + np.arange(d)[None, :]) % values, noise)
    return X, y


def _frames(X, y):
    import pandas as pd

    frame = pd.DataFrame({f"a{i}": pd.Categorical(X[:, i], categories=range(X[:, i].max() + 1))
                          for i in range(X.shape[1])})
    return frame, pd.Series(pd.Categorical(y))


def _nominal_setup(n_test: int):
    """A setup of ``n`` nominal training instances and ``n_test`` test instances (DataFrames of Categoricals)."""
    def setup(n, k, rng):
        X, y = _discrete(n + n_test, k, rng)
        Xf, yf = _frames(X, y)
        return Xf.iloc[:n], yf.iloc[:n], Xf.iloc[n:]

    return setup


def _ncc_run(data):
    from credalbook.classifiers import NaiveCredalClassifier

    X, y, X_test = data
    return NaiveCredalClassifier().fit(X, y).predict_set(X_test)


def _lncc_run(data):
    from credalbook.classifiers import LazyNaiveCredalClassifier

    X, y, X_test = data
    return LazyNaiveCredalClassifier().fit(X, y).predict_set(X_test)


def _mixed_setup(n, k, rng, n_test: int = 1_000, numeric: int = 2):
    """``n`` training and ``n_test`` test instances of ``numeric`` numeric and 8 nominal features (a DataFrame, as
    users hold data), with the same data coded as arrays (:func:`~credalbook.book.experiments.jncc2.coded_columns`)."""
    import pandas as pd

    from credalbook.book.experiments.jncc2 import coded_columns

    codes, y = _discrete(n + n_test, k, rng, d=8)
    frame, labels = _frames(codes, y)
    for j in range(numeric):
        frame.insert(j, f"x{j}", rng.normal(y.astype(float) * (j + 1), 1.5 * (j + 1)))
    frame.index = pd.RangeIndex(n + n_test)
    train = np.arange(n + n_test) < n
    return {"X": frame.iloc[:n], "y": labels.iloc[:n], "X_test": frame.iloc[n:], "columns": coded_columns(frame),
            "labels": y.astype(np.int64), "n_classes": k, "train": train}


def _public_pipeline_run(data):
    from credalbook.classifiers import NaiveCredalClassifier
    from credalbook.pipeline import make_set_pipeline
    from credalbook.preprocessing import MDLDiscretizer

    pipeline = make_set_pipeline(MDLDiscretizer(), NaiveCredalClassifier())
    return pipeline.fit(data["X"], data["y"]).predict_with_set(data["X_test"])


def _array_core(data):
    from credalbook.book.experiments.jncc2 import naive_fold

    return naive_fold(*data["columns"], data["labels"], data["n_classes"], data["train"])


def _mdl_setup(n, k, rng):
    y = rng.integers(0, k, n)
    return rng.normal(y.astype(float), 1.5), y, k


def _mdl_run(data):
    from credalbook._mdl import mdl_cuts

    values, labels, k = data
    return mdl_cuts([values], [labels], k)


def _sets_setup(n, k, rng):
    y = rng.integers(0, k, n)
    sets = rng.random((n, k)) < 2.0 / k
    sets[np.arange(n), rng.integers(0, k, n)] = True
    return y, sets


def _set_metrics_run(data):
    from credalbook.metrics import set_metrics

    return set_metrics(*data)


def _read_once(data):
    """The yardstick of a one-pass metric: read the largest input matrix once."""
    return np.count_nonzero(data[1])


def _proba_setup(n, k, rng):
    return rng.integers(0, k, n), rng.dirichlet(np.ones(k), n)


def _imcp_run(data):
    from credalbook.certainty import imcp_score

    return imcp_score(*data)


def _imcp_package(data):
    import imcp

    if not hasattr(np, "trapz"):  # removed in NumPy 2.4; imcp 1.0.1 still calls it
        np.trapz = np.trapezoid
    return imcp.imcp_score(*data)


#: The standard error at which the Monte Carlo yardstick of the expected loss is run.
MONTE_CARLO_SE = 1e-4


def _loss_setup(n, gamma, rng):
    """A score-driven selection and the Monte Carlo draws that reach :data:`MONTE_CARLO_SE` (by a pilot run)."""
    from credalbook.costspace import monte_carlo_loss, threshold_selection

    y = np.r_[0, 1, rng.integers(0, 2, n - 2)]
    selection = threshold_selection(y, np.clip(0.4 * y + rng.uniform(0, 0.6, n), 0, 1), "score-driven")
    pilot = 50_000
    _, error = monte_carlo_loss(selection, float(gamma), pilot, seed=1)
    return selection, float(gamma), max(2, int(np.ceil(pilot * (error / MONTE_CARLO_SE) ** 2)))


def _loss_run(data):
    selection, gamma, _ = data
    return selection.loss(gamma)


def _loss_monte_carlo(data):
    from credalbook.costspace import monte_carlo_loss

    selection, gamma, draws = data
    return monte_carlo_loss(selection, gamma, draws)


def _imcp_available() -> bool:
    try:
        import imcp  # noqa: F401
    except ImportError:
        return False
    return True


#: The timed paths (NCC and LNCC on nominal data, MDL's cut points, the set measures and IMCP in one
#: pass, MDL and NCC through the public pipeline against the array core, the exact expected loss under
#: a Beta-distributed cost proportion), by name.
HOT_PATHS = {
    "NCC fit + predict_set": HotPath("NCC on 10 nominal features, 1,000 test instances", _nominal_setup(1_000), _ncc_run,
                                     sizes=(1_000, 10_000, 100_000, 1_000_000), ks=(2, 10)),
    "LNCC predict_set": HotPath("LNCC on 10 nominal features, 200 test instances", _nominal_setup(200), _lncc_run,
                                sizes=(1_000, 10_000, 100_000), ks=(2, 10)),
    "MDL cut points": HotPath("MDL discretisation of one numeric feature", _mdl_setup, _mdl_run,
                              sizes=(1_000, 10_000, 100_000, 1_000_000), ks=(2, 10)),
    "set measures": HotPath("every set measure (set_metrics) of n sets over K classes", _sets_setup,
                            _set_metrics_run, sizes=(10_000, 100_000, 1_000_000), ks=(3, 10, 30),
                            yardstick=_read_once, yardstick_name="reading the set matrix once"),
    "IMCP": HotPath("IMCP score of an n x K probability matrix", _proba_setup, _imcp_run,
                    sizes=(10_000, 100_000, 1_000_000), ks=(3, 10),
                    yardstick=_imcp_package, yardstick_name="the imcp package"),
    "NCC public pipeline": HotPath("MDL then NCC through make_set_pipeline on a DataFrame of 2 numeric and 8 "
                                   "nominal features, 1,000 test instances", _mixed_setup, _public_pipeline_run,
                                   sizes=(1_000, 10_000, 100_000, 1_000_000), ks=(2, 10), yardstick=_array_core,
                                   yardstick_name="the array core (MDL, counts and dominance on arrays)"),
    "expected loss": HotPath("exact expected loss, score-driven, Beta concentration γ", _loss_setup, _loss_run,
                             sizes=(100, 1_000, 10_000), ks=(1, 16), k_name="γ", yardstick=_loss_monte_carlo,
                             yardstick_name="Monte Carlo, standard error 10⁻⁴"),
}


def measure(paths=None, *, repeat: int = 3, seed: int = 0, progress: bool = True):
    """Time every (path, n, k) of ``paths`` (default all of :data:`HOT_PATHS`): a tidy DataFrame.

    Columns: ``path``, ``n``, ``k``, ``k_name``, ``seconds``, ``yardstick``, ``yardstick_seconds``
    (``NaN`` without a yardstick, or when its package is not installed).
    """
    import pandas as pd
    from tqdm.auto import tqdm

    names = list(HOT_PATHS) if paths is None else list(paths)
    unknown = [name for name in names if name not in HOT_PATHS]
    if unknown:
        raise ValueError(f"unknown hot path(s) {unknown}; known: {list(HOT_PATHS)}")
    cells = [(name, n, k) for name in names for n in HOT_PATHS[name].sizes for k in HOT_PATHS[name].ks]
    rows = []
    for name, n, k in tqdm(cells, desc="timing", disable=not progress):
        path = HOT_PATHS[name]
        data = path.setup(n, k, np.random.default_rng(seed))
        yardstick = path.yardstick
        if yardstick is _imcp_package and not _imcp_available():
            yardstick = None
        rows.append({"path": name, "n": n, "k": k, "k_name": path.k_name,
                     "seconds": best_time(lambda: path.run(data), repeat=repeat),
                     "yardstick": path.yardstick_name if yardstick else "",
                     "yardstick_seconds": best_time(lambda: yardstick(data), repeat=repeat) if yardstick else np.nan})
    return pd.DataFrame(rows)


def scaling_exponents(frame):
    """Per (path, k): the slope of log(seconds) against log(n) by least squares, the empirical order of growth."""
    import pandas as pd

    required = {"path", "n", "k", "seconds"}
    if not required <= set(frame.columns):
        raise ValueError(f"frame must have columns {sorted(required)}, got {list(frame.columns)}")
    rows = []
    for (path, k), part in frame.groupby(["path", "k"], sort=False):
        if part["n"].nunique() < 2:
            raise ValueError(f"{path}, k = {k}: at least two sizes n are needed for a slope")
        slope = np.polyfit(np.log(part["n"].to_numpy(float)), np.log(part["seconds"].to_numpy(float)), 1)[0]
        rows.append({"path": path, "k": k, "exponent": float(slope)})
    return pd.DataFrame(rows)


def reproduction_times(record: dict):
    """One row per experiment of a whole ``make reproduce`` run, slowest first: its wall time
    (``seconds``, and ``share`` of the run's), rows and grid cells, cells read from the cache, and
    the commit it ran at. ``record`` is the run's record
    (:func:`credalbook.book.experiments.store.reproduction`)."""
    import pandas as pd

    if not isinstance(record, dict) or not isinstance(record.get("experiments"), dict) or not record["experiments"]:
        raise ValueError("record must be the record of a whole reproduction, with its 'experiments'")
    rows = [{"experiment": name, "seconds": float(meta["runtime_seconds"]), "rows": int(meta.get("rows", 0)),
             "grid_cells": int(meta.get("grid_cells", 0)), "cached_cells": int(meta.get("cached_cells", 0)),
             "commit": meta.get("commit", "")} for name, meta in record["experiments"].items()]
    frame = pd.DataFrame(rows).sort_values("seconds", ascending=False, ignore_index=True)
    return frame.assign(share=frame["seconds"] / float(record["wall_seconds"]))
