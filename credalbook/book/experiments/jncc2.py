"""JNCC2's ``cv`` protocol run by the book's code, and its pairing with JNCC2 1.11 (Corani & Zaffalon 2008).

``java -jar jncc2-rel1.11.jar DIR/ FILE.arff cv`` runs ten times stratified ten-fold
cross-validation; in each training fold it discretises the numeric features by MDL and learns
the naive Bayes classifier (NBC) and the naive credal classifier (NCC2, features missing at
random), and it reports NBC's accuracy, NCC's determinacy, its accuracy when determinate and
when indeterminate, its mean set size, and NBC's accuracy where NCC is determinate and where
it is not (``ResultsTable.csv``).

:func:`cross_validate_naive` runs the same protocol on the book's code: the folds of
:func:`credalbook.book.experiments.protocols.stratified_folds` (seed, run), MDL cuts from
``credalbook._mdl.mdl_cuts`` and one count table per fold shared by NBC and NCC
(``credalbook.classifiers.naive``). It gives the numbers of
:class:`~credalbook.preprocessing.MDLDiscretizer`, :class:`~credalbook.classifiers.NaiveBayes` and
:class:`~credalbook.classifiers.NaiveCredalClassifier` (``tests/test_jncc2.py`` checks it) but
works on arrays and never imports scikit-learn, so that a run's time is the algorithms' and
not the start-up's.

:func:`cross_validate_public` runs NCC's part of the protocol as a user of the package writes
it: ``make_set_pipeline(MDLDiscretizer(), NaiveCredalClassifier())`` under scikit-learn's
:func:`~sklearn.model_selection.cross_validate` on the dataset's DataFrame, the same folds, one
scorer reading ``predict_with_set`` once per fold. Its sums are the array core's NCC sums
(``tests/test_jncc2.py``); its time is the public estimators' (validation, DataFrames,
scikit-learn's import and cross-validation loop) beside the algorithms'.

Command line::

    python -m credalbook.book.experiments.jncc2 run credit-a            # the book's run, a summary line
    python -m credalbook.book.experiments.jncc2 public credit-a         # the same through the public estimators
    python -m credalbook.book.experiments.jncc2 public credit-a --do-nothing   # through steps that do nothing
    python -m credalbook.book.experiments.jncc2 pair --jar JAR credit-a letter --repeats 3

``run`` and ``public`` also print ``loop_seconds``, the time of the cross-validation alone.
``pair`` times the programs as whole processes, alternately (book, public path, do-nothing path,
JNCC2, book, ...), and prints per dataset the median of each and the medians of the pairwise
ratios book / JNCC2, public / JNCC2 and public / book, of whole processes and of the loops. The
jar's path is given by ``--jar`` or the ``CREDALBOOK_JNCC2_JAR`` environment variable.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

__all__ = ["FOLD_COLUMNS", "NCC_COLUMNS", "coded_columns", "naive_fold", "cross_validate_naive", "cross_validate_public", "summary", "jncc2_arff",
           "pair", "main"]

#: The per-fold sums :func:`cross_validate_naive` returns (counts over the fold's test instances).
FOLD_COLUMNS = ("n_test", "nbc_correct", "ncc_determinate", "ncc_single_correct", "ncc_set_hits",
                "ncc_indeterminate_size", "nbc_correct_ncc_determinate", "nbc_correct_ncc_indeterminate")
#: The per-fold sums of NCC alone (those :func:`cross_validate_public` returns).
NCC_COLUMNS = ("n_test", "ncc_determinate", "ncc_single_correct", "ncc_set_hits", "ncc_indeterminate_size")


def coded_columns(X) -> tuple[list[np.ndarray | None], list[np.ndarray], np.ndarray]:
    """Per column of a DataFrame: float values (numeric) or None, the nominal codes, and the nominal numbers of values."""
    import pandas as pd

    numeric, codes, n_values = [], [], []
    for name in X.columns:
        column = X[name]
        if isinstance(column.dtype, pd.CategoricalDtype):
            numeric.append(None)
            codes.append(column.cat.codes.to_numpy().astype(np.int64))
            n_values.append(len(column.cat.categories))
        else:
            numeric.append(column.to_numpy(dtype=float))
            codes.append(np.empty(0, dtype=np.int64))
            n_values.append(0)
    return numeric, codes, np.asarray(n_values, dtype=np.int64)


def naive_fold(numeric, nominal, nominal_values, labels, n_classes: int, train, *, s: float = 1.0,
               selection: str = "entropy") -> tuple[np.ndarray, np.ndarray]:
    """NCC's sets and NBC's scores on the test rows (``~train``) of one fold, on arrays: the array core.

    ``numeric``, ``nominal``, ``nominal_values`` as :func:`coded_columns` gives them, ``labels``
    the class codes, ``train`` a boolean mask of the training rows. MDL's cuts are found on the
    training rows (the classes those up to the largest code there, as
    :class:`~credalbook.preprocessing.MDLDiscretizer` takes them), every column coded, then
    counted and compared.
    """
    from credalbook._mdl import mdl_cuts
    from credalbook.classifiers.naive import naive_counts, undominated_and_scores
    from credalbook.discrete import MISSING

    train_values = [v[train] for v in numeric if v is not None]
    observed = [~np.isnan(v) for v in train_values]
    cuts = iter(mdl_cuts([v[o] for v, o in zip(train_values, observed)], [labels[train][o] for o in observed],
                         int(labels[train].max()) + 1, selection))
    columns, n_values = [], nominal_values.copy()
    for j, values in enumerate(numeric):
        if values is None:
            columns.append(nominal[j])
            continue
        column_cuts = next(cuts)
        columns.append(np.where(np.isnan(values), MISSING, np.searchsorted(column_cuts, values, side="left")))
        n_values[j] = column_cuts.size + 1
    Xc = np.column_stack(columns)
    counts = naive_counts(Xc[train], labels[train], n_classes, n_values)
    return undominated_and_scores(counts, Xc[~train], s)


def cross_validate_naive(X, y, *, runs=range(10), n_splits: int = 10, seed: int = 0, s: float = 1.0,
                         selection: str = "entropy") -> dict[str, np.ndarray]:
    """NBC and NCC under repeated stratified cross-validation with MDL in each training fold, on arrays.

    ``X`` a DataFrame of float (numeric) and Categorical (nominal) columns, ``y`` a Categorical
    of the classes (every category is a class, present in a training fold or not). Returns
    arrays ``run``, ``fold`` and the per-fold sums of :data:`FOLD_COLUMNS`.
    """
    import pandas as pd

    from credalbook.book.experiments.protocols import stratified_folds

    y = pd.Categorical(y)
    labels, K = y.codes.astype(np.int64), len(y.categories)
    numeric, nominal, nominal_values = coded_columns(X)
    rows = {key: [] for key in ("run", "fold") + FOLD_COLUMNS}
    for run in runs:
        folds = stratified_folds(y, n_splits, seed=seed, repeat=run)
        for fold in range(n_splits):
            train = folds != fold
            sets, scores = naive_fold(numeric, nominal, nominal_values, labels, K, train, s=s, selection=selection)
            truth = labels[~train]
            size = sets.sum(axis=1)
            determinate = size == 1
            nbc_hit = np.argmax(scores, axis=1) == truth
            ncc_hit = sets[np.arange(truth.size), truth]
            for key, value in zip(("run", "fold") + FOLD_COLUMNS, (
                    run, fold, truth.size, nbc_hit.sum(), determinate.sum(), (ncc_hit & determinate).sum(),
                    (ncc_hit & ~determinate).sum(), size[~determinate].sum(), (nbc_hit & determinate).sum(),
                    (nbc_hit & ~determinate).sum())):
                rows[key].append(int(value))
    return {key: np.asarray(values, dtype=np.int64) for key, values in rows.items()}


def _ncc_fold_sums(estimator, X, y) -> dict[str, int]:
    """The sums of :data:`NCC_COLUMNS` over one test fold: a scorer for scikit-learn's ``cross_validate``."""
    sets, single = estimator.predict_with_set(X)
    truth = np.asarray(y.cat.codes, dtype=np.int64)     # y is a Series of the Categorical: codes index classes_
    size = sets.sum(axis=1)
    determinate = size == 1
    hit = sets[np.arange(truth.size), truth]
    return {"n_test": int(truth.size), "ncc_determinate": int(determinate.sum()),
            "ncc_single_correct": int((single == truth)[determinate].sum()),
            "ncc_set_hits": int((hit & ~determinate).sum()), "ncc_indeterminate_size": int(size[~determinate].sum())}


def cross_validate_public(X, y, *, runs=range(10), n_splits: int = 10, seed: int = 0,
                          s: float = 1.0, do_nothing: bool = False) -> dict[str, np.ndarray]:
    """NCC under repeated stratified cross-validation through the public estimators, on a DataFrame.

    ``make_set_pipeline(MDLDiscretizer(), NaiveCredalClassifier(s=s))`` under scikit-learn's
    :func:`~sklearn.model_selection.cross_validate` on the folds of :func:`cross_validate_naive`
    (``X`` a DataFrame of float and Categorical columns, ``y`` the classes, made a Categorical so
    that every category is a class). Returns arrays ``run``, ``fold`` and the per-fold sums of
    :data:`NCC_COLUMNS`, equal to :func:`cross_validate_naive`'s. With ``do_nothing``, the same
    through a pipeline of steps that do nothing (``_do_nothing.do_nothing_pipeline``, every set the
    vacuous one): scikit-learn's and pandas' share of the cost, the floor under any estimator.
    """
    import pandas as pd
    from sklearn.model_selection import cross_validate

    from credalbook.book.experiments.protocols import stratified_folds
    from credalbook.classifiers import NaiveCredalClassifier
    from credalbook.pipeline import make_set_pipeline
    from credalbook.preprocessing import MDLDiscretizer

    y = pd.Series(pd.Categorical(y), index=X.index)
    splits, keys = [], []
    for run in runs:
        folds = stratified_folds(y, n_splits, seed=seed, repeat=run)
        for fold in range(n_splits):
            splits.append((np.flatnonzero(folds != fold), np.flatnonzero(folds == fold)))
            keys.append((run, fold))
    out = {"run": np.array([run for run, _ in keys], dtype=np.int64),
           "fold": np.array([fold for _, fold in keys], dtype=np.int64)}
    if not splits:     # no runs: nothing to score (the start-up alone, as the timings take it)
        return out | {key: np.empty(0, dtype=np.int64) for key in NCC_COLUMNS}
    if do_nothing:
        from credalbook.book.experiments._do_nothing import do_nothing_pipeline

        pipeline = do_nothing_pipeline()
    else:
        pipeline = make_set_pipeline(MDLDiscretizer(), NaiveCredalClassifier(s=s))
    scores = cross_validate(pipeline, X, y, cv=splits, scoring=_ncc_fold_sums, error_score="raise")
    out.update({key: np.asarray(scores[f"test_{key}"], dtype=np.int64) for key in NCC_COLUMNS})
    return out


def summary(folds: dict[str, np.ndarray]) -> dict[str, float]:
    """JNCC2's ResultsTable quantities (percent, pooled over the folds) from :func:`cross_validate_naive`'s sums.

    From :func:`cross_validate_public`'s sums (NCC's columns only) it gives NCC's quantities only.
    """
    total = {key: float(folds[key].sum()) for key in FOLD_COLUMNS if key in folds}
    missing = [key for key in NCC_COLUMNS if key not in total]
    if missing:
        raise ValueError(f"folds lack the sums {missing}")
    indeterminate = total["n_test"] - total["ncc_determinate"]

    def percent(a: float, b: float) -> float:
        return 100 * a / b if b else float("nan")

    result = {"NbcAcc": percent(total["nbc_correct"], total["n_test"]) if "nbc_correct" in total else None,
              "NccDeterm": percent(total["ncc_determinate"], total["n_test"]),
              "NccSingleAcc": percent(total["ncc_single_correct"], total["ncc_determinate"]),
              "NccSetAcc": percent(total["ncc_set_hits"], indeterminate),
              "NccIndetOutSize": total["ncc_indeterminate_size"] / indeterminate if indeterminate else float("nan")}
    if all(key in total for key in FOLD_COLUMNS):
        result.update({"Nbc(Ncc-P)": percent(total["nbc_correct_ncc_determinate"], total["ncc_determinate"]),
                       "Nbc(Ncc-I)": percent(total["nbc_correct_ncc_indeterminate"], indeterminate)})
    return {key: value for key, value in result.items() if value is not None}


def _run(dataset: str, selection: str, public: bool = False, runs: int = 10, do_nothing: bool = False) -> int:
    """Print the summary line, then ``loop_seconds``: the cross-validation alone, after a call with no runs has
    made the imports (scikit-learn's, for the public path), so that the start-up stays outside it."""
    from credalbook.data import load

    data = load(dataset, group="zaffalon2012")
    if public:
        def cross_validate(runs):
            return cross_validate_public(data.X, data.y, runs=runs, do_nothing=do_nothing)
    else:
        def cross_validate(runs):
            return cross_validate_naive(data.X, data.y, runs=runs, selection=selection)
    cross_validate(runs=())
    start = time.perf_counter()
    folds = cross_validate(runs=range(runs))
    seconds = time.perf_counter() - start
    if runs:
        print(dataset, " ".join(f"{key} {value:.2f}" for key, value in summary(folds).items()))
    print(f"loop_seconds {seconds:.6f}")
    return 0


def _arff_file(dataset: str, group: str = "zaffalon2012") -> Path:
    """The ARFF file of a dataset of the collection (its registry entry's only file in ``group``)."""
    from credalbook import data

    registry = data.registry()
    matches = registry[(registry["group"] == group) & (registry["name"] == dataset)]
    if len(matches) != 1:
        raise ValueError(f"{dataset!r} is not a dataset of group {group!r}")
    entry = matches.iloc[0]
    files = [f for f in str(entry["files"]).split(";") if f]
    if len(files) != 1 or not files[0].endswith(".arff"):
        raise ValueError(f"{dataset}: JNCC2 reads one ARFF file, the registry lists {files}")
    return data.repository_dir() / files[0]


def jncc2_arff(source: Path, target: Path) -> None:
    """Copy an ARFF file for JNCC2, whose reader refuses quoted names with spaces: such names get underscores.

    Only ``@attribute`` and ``@relation`` names change; the data lines are copied as they are.
    """
    def unquoted(match: re.Match) -> str:
        return match.group(1) + re.sub(r"\s+", "_", match.group(3)) + match.group(4)

    pattern = re.compile(r"^(@(?:attribute|relation)\s+)(['\"])(.*?)\2(.*)$", re.IGNORECASE)
    with open(source, encoding="utf-8", errors="surrogateescape") as lines, \
            open(target, "w", encoding="utf-8", errors="surrogateescape") as out:
        for line in lines:
            out.write(pattern.sub(unquoted, line))


def _seconds(command: list[str], cwd: Path, expected: Path | None = None) -> tuple[float, float, float | None]:
    """Wall and CPU (user + system, the process and its children) seconds of one run of ``command``, and the
    ``loop_seconds`` it printed (None if none); a run that fails or does not write ``expected`` raises."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    if expected is not None and expected.exists():
        expected.unlink()
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seconds = time.perf_counter() - start
    if done.returncode or (expected is not None and not expected.is_file()):
        tail = "\n".join(done.stdout.strip().splitlines()[-4:])
        raise RuntimeError(f"{' '.join(command[:3])} ... failed (exit {done.returncode}"
                           f"{', no ' + expected.name if expected is not None and not expected.is_file() else ''}):"
                           f"\n{tail}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    loop = re.search(r"^loop_seconds (\S+)$", done.stdout, re.MULTILINE)
    return (seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            float(loop.group(1)) if loop else None)


def pair(datasets, jar: str, *, repeats: int = 3, java: str = "java", python: str | None = None,
         public: bool = True) -> list[dict]:
    """Whole-process wall and CPU times of the book's run, its public path and JNCC2's ``cv``, alternately.

    One row per dataset: the shape, the median wall seconds of each program over ``repeats`` runs
    (after one warm-up run of each), the median of the per-pair ratios book / JNCC2 of wall time
    (``ratio``) and of CPU time (``cpu_ratio``: JNCC2's JVM also works on a second core). With
    ``public``, also the public path (``python -m credalbook.book.experiments.jncc2 public``,
    :func:`cross_validate_public`) and the same through steps that do nothing (``--do-nothing``:
    scikit-learn's and pandas' share): its median wall seconds (``public_seconds``), the medians
    of the per-run ratios public / JNCC2 (``public_ratio``, ``public_cpu_ratio``) and public /
    book (``public_core_ratio``); from the cross-validation loops the runs time themselves
    (``loop_seconds``), the median loop seconds (``book_loop_seconds``, ``public_loop_seconds``,
    ``do_nothing_loop_seconds``), the median start-ups, each run's wall seconds less its loop
    (``book_start_seconds``, ``public_start_seconds``), and the medians of the per-run ratios of
    the public loop to the book's (``public_core_loop_ratio``) and of what the estimators add to
    the do-nothing loop, to the book's loop (``estimators_core_ratio``).
    """
    from credalbook.data import load

    rows = []
    for dataset in datasets:
        data = load(dataset, group="zaffalon2012")
        with tempfile.TemporaryDirectory() as folder:
            work = Path(folder)
            jncc2_arff(_arff_file(dataset), work / "data.arff")
            module = [python or sys.executable, "-m", "credalbook.book.experiments.jncc2"]
            jncc2 = [java, "-jar", str(Path(jar).resolve()), f"{work}{os.sep}", "data.arff", "cv"]
            programs = [("book", module + ["run", dataset], None)]
            if public:
                programs += [("public", module + ["public", dataset], None),
                             ("do_nothing", module + ["public", dataset, "--do-nothing"], None)]
            programs.append(("jncc2", jncc2, work / "ResultsTable.csv"))
            times = {name: [] for name, _, _ in programs}
            for repeat in range(repeats + 1):
                for name, command, expected in programs:
                    measured = _seconds(command, work, expected)
                    if repeat:
                        times[name].append(measured)

        def median_ratio(a: str, b: str, which: int = 0) -> float:
            return statistics.median(x[which] / z[which] for x, z in zip(times[a], times[b]))

        def median(name: str, which: int = 0) -> float:
            return statistics.median(run[which] for run in times[name])

        row = {"dataset": dataset, "instances": len(data.y), "features": data.X.shape[1],
               "numeric": len(data.numeric_features), "classes": len(data.classes),
               "book_seconds": median("book"), "jncc2_seconds": median("jncc2"),
               "ratio": median_ratio("book", "jncc2"), "cpu_ratio": median_ratio("book", "jncc2", 1)}
        if public:
            row.update({"public_seconds": median("public"),
                        "public_ratio": median_ratio("public", "jncc2"),
                        "public_cpu_ratio": median_ratio("public", "jncc2", 1),
                        "public_core_ratio": median_ratio("public", "book"),
                        "book_loop_seconds": median("book", 2), "public_loop_seconds": median("public", 2),
                        "do_nothing_loop_seconds": median("do_nothing", 2),
                        "book_start_seconds": statistics.median(wall - loop for wall, _, loop in times["book"]),
                        "public_start_seconds": statistics.median(wall - loop for wall, _, loop in times["public"]),
                        "public_core_loop_ratio": median_ratio("public", "book", 2),
                        "estimators_core_ratio": statistics.median(
                            (p[2] - n[2]) / b[2] for p, n, b in zip(times["public"], times["do_nothing"],
                                                                    times["book"]))})
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m credalbook.book.experiments.jncc2", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    runs_help = "runs of ten-fold cross-validation (0: none, the start-up alone)"
    p = sub.add_parser("run", help="the book's run of the protocol on a dataset of the collection")
    p.add_argument("dataset")
    p.add_argument("--selection", default="entropy", choices=["entropy", "gain"])
    p.add_argument("--runs", type=int, default=10, help=runs_help)
    p = sub.add_parser("public", help="NCC's part of the protocol through the public estimators (a pipeline under "
                                      "scikit-learn's cross_validate)")
    p.add_argument("dataset")
    p.add_argument("--runs", type=int, default=10, help=runs_help)
    p.add_argument("--do-nothing", action="store_true",
                   help="through a pipeline of steps that do nothing: scikit-learn's and pandas' share")
    p = sub.add_parser("pair", help="time the book's run, its public path and JNCC2's side by side")
    p.add_argument("datasets", nargs="+")
    p.add_argument("--jar", default=os.environ.get("CREDALBOOK_JNCC2_JAR"),
                   help="jncc2-rel1.11.jar (default: $CREDALBOOK_JNCC2_JAR)")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--no-public", action="store_true", help="leave the public path out")
    p.add_argument("--csv", help="also write the table to this file")
    args = parser.parse_args(argv)
    if args.command in ("run", "public") and args.runs < 0:
        parser.error(f"--runs must be 0 or more, got {args.runs}")
    if args.command == "run":
        return _run(args.dataset, args.selection, runs=args.runs)
    if args.command == "public":
        return _run(args.dataset, "entropy", public=True, runs=args.runs, do_nothing=args.do_nothing)
    if not args.jar:
        parser.error("give --jar or set CREDALBOOK_JNCC2_JAR")
    rows = pair(args.datasets, args.jar, repeats=args.repeats, public=not args.no_public)
    for row in rows:
        public = (f"; public {row['public_seconds']:7.2f} s, ratio {row['public_ratio']:.2f}, "
                  f"{row['public_core_ratio']:.2f} x book (loops {row['public_core_loop_ratio']:.2f} x, "
                  f"estimators {row['estimators_core_ratio']:.2f} x the core)"
                  if "public_seconds" in row else "")
        print(f"{row['dataset']:12s} {row['instances']:6d} x {row['features']:3d} ({row['numeric']:2d} numeric), "
              f"{row['classes']:2d} classes: book {row['book_seconds']:7.2f} s, JNCC2 {row['jncc2_seconds']:7.2f} s, "
              f"ratio {row['ratio']:.2f} (CPU {row['cpu_ratio']:.2f}){public}")
    if args.csv:
        import pandas as pd

        pd.DataFrame(rows).to_csv(args.csv, index=False)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
