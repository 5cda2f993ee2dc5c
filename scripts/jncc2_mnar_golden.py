"""JNCC2 1.11's NCC2 sets with features declared missing *not* at random (``NonMar.txt``): the golden files
of ``tests/test_ncc_mnar.py`` (Corani & Zaffalon 2008; JNCC2 manual, §2.2.1 and §3.4).

JNCC2 reads the declaration from a file ``NonMar.txt`` in its working directory, one feature per line
(``<name>``: non-MAR in training and testing; ``training <name>`` / ``testing <name>``: in one of them;
the single word ``nonmar``: every feature). This script declares features non-MAR (the book's
``NaiveCredalClassifier(non_mar_features=...)``: a list for both phases, a dict {feature: phase} for
one), one line per feature in the file's order, on datasets with missing values, in six
configurations per dataset:

* ``none``: no ``NonMar.txt`` (every feature MAR; a check of the harness against the MAR goldens);
* ``most``: the feature with the most missing values;
* ``missing``: every feature with a missing value;
* ``all``: every feature (nominal features with a single declared value excepted: JNCC2 drops them,
  and declaring one shifts its list of numbers of values, ``Jncc.findNonMarInCurrentDataset``);
* ``missing_training``: every feature with a missing value, declared ``training <name>``: non-MAR in
  training only (``NaiveCredalClassifier2.checkCredalDominanceCIR`` gives it the worst-case counts;
  a missing test value is marginalised, as a MAR one);
* ``missing_testing``: the same features declared ``testing <name>``: non-MAR in testing only (a
  missing test value is completed, ``classifyInstance``'s ``MissingNonMarIdx``; its counts are MAR ones).

``--configurations`` runs some of them only and merges them into the existing golden files (the
other configurations' results are kept as they are).

For every fold of run 0 (:func:`credalbook.book.experiments.benchmark.fold_indices`; mushroom: fold 0
only) the fold is written as a testing file and the other folds as a training file
(as ``scripts/jncc2_golden.py`` does for fold 0), and a small class compiled against the jar at run
time (``DumpMnar``, in package ``jncc20``) builds the training and testing sets with JNCC2's own
``prepareTrainTestSet`` (its MDL discretisation, ``NonMar.txt`` parsing and ``findNonMarInCurrentDataset``),
builds JNCC2's ``NaiveCredalClassifier2`` with the lists JNCC2 made, and classifies the test
instances one at a time, printing each set as it is found. No line of JNCC2 is changed.

JNCC2 1.11 does not classify some instances: when the minimising value of a missing non-MAR
feature's ratios n(a, c')/(n(a, c'') + m(c'') + t) changes inside (0, s) (as JNCC2 finds the
crossing points), ``NaiveCredalClassifier2.findPartitionPoints`` either throws
``IndexOutOfBoundsException`` (a later feature's ``ConstantMinimizingValues.add(i, ...)`` on a shorter
list) or enters a loop that never advances (the filling ``while`` loop's ``continue`` skips
``position++``). A watchdog thread in ``DumpMnar`` stops the run when an instance takes longer than
``--timeout`` seconds; the instance is recorded under ``hang`` and the run resumes at the next one.
An exception is recorded under ``errors``. ``tests/test_ncc_mnar.py`` transcribes this procedure and
checks that it predicts every set, loop and exception recorded here.

Writes ``tests/golden/jncc2/mnar/<dataset>.json.gz`` (per fold: the test rows, JNCC2's cut points,
the non-MAR lists JNCC2 built, and per configuration the declared features, the sets and the
instances JNCC2 could not classify). The jar's path is ``--jar`` or ``$CREDALBOOK_JNCC2_JAR``;
``java`` and ``javac`` are taken from ``PATH``.

    python scripts/jncc2_mnar_golden.py --jar JAR              # every dataset of DATASETS
    python scripts/jncc2_mnar_golden.py --jar JAR vote labor   # these only
"""
from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from credalbook.book.build import repo_root
from jncc2_golden import compile_against, underscore_quoted  # the script beside this one

OUT = "tests/golden/jncc2/mnar"
SCRIPT = "scripts/jncc2_mnar_golden.py"
VERSION = "JNCC2 1.11 (jncc2-rel1.11.jar, Corani & Zaffalon 2008)"
RUN = 0
#: (dataset, group, declared_classes): datasets with missing values that JNCC2 reads as the book does;
#: declared classes where the header declares classes without instances (JNCC2 keeps them)
DATASETS = (
    ("audiology", "zaffalon2012", False),
    ("breast-cancer", "ferri2019", False),
    ("breast-w", "zaffalon2012", False),
    ("credit-a", "zaffalon2012", False),
    ("heart-c", "zaffalon2012", True),
    ("heart-h", "zaffalon2012", True),
    ("hepatitis", "zaffalon2012", False),
    ("labor", "zaffalon2012", False),
    ("mushroom", "zaffalon2012", False),
    ("primary-tumor", "zaffalon2012", True),
    ("soybean", "zaffalon2012", False),
    ("vote", "ferri2019", False),
)
#: datasets too large for every fold: fold 0 only
FIRST_FOLD_ONLY = ("mushroom",)
CONFIGURATIONS = ("none", "most", "missing", "all", "missing_training", "missing_testing")

DUMP = r"""
package jncc20;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;

/** JNCC2's own training and testing sets (NonMar.txt read by JNCC2), then NCC2's set of each test instance. */
public class DumpMnar {
    static volatile int current = -1;
    static volatile long started = 0;

    static Object get(Object o, String name) throws Exception {
        Field f = o.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
    }

    static String join(ArrayList<?> list) {
        StringBuilder b = new StringBuilder();
        for (Object o : list) b.append("\t").append(o);
        return b.toString();
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] a) throws Exception {
        final int first = Integer.parseInt(a[3]);
        final long timeout = Long.parseLong(a[4]);
        Jncc j = new Jncc(a[0], a[1], a[2], 3);
        Method prepare = Jncc.class.getDeclaredMethod("prepareTrainTestSet");
        prepare.setAccessible(true);
        prepare.invoke(j);
        ArrayList<int[]> train = (ArrayList<int[]>) get(j, "trainingSet");
        ArrayList<int[]> test = (ArrayList<int[]>) get(j, "testingSet");
        ArrayList<String> used = (ArrayList<String>) get(j, "usedFeaturesNames");
        ArrayList<String> classes = (ArrayList<String>) get(j, "classNames");
        ArrayList<Integer> values = (ArrayList<Integer>) get(j, "numClassForEachUsedFeature");
        ArrayList<Integer> nmTrain = (ArrayList<Integer>) get(j, "nonMarTraining");
        ArrayList<Integer> nmTest = (ArrayList<Integer>) get(j, "nonMarTesting");
        ArrayList<Integer> nmValues = (ArrayList<Integer>) get(j, "numClassesNonMarTesting");
        ArrayList<?> names = (ArrayList<?>) get(j, "featNames");
        ArrayList<?> numeric = (ArrayList<?>) get(j, "numFlags");
        double[][] cuts = (double[][]) get(j, "discretizationIntervals");
        System.out.println("@@classes" + join(classes));
        System.out.println("@@used" + join(used));
        System.out.println("@@values" + join(values));
        System.out.println("@@nonmar_training" + join(nmTrain));
        System.out.println("@@nonmar_testing" + join(nmTest));
        System.out.println("@@nonmar_testing_values" + join(nmValues));
        System.out.println("@@n_test\t" + test.size());
        for (int i = 0; i < names.size(); i++) {
            if (!(Boolean) numeric.get(i)) continue;
            StringBuilder b = new StringBuilder("@@cuts\t" + names.get(i));
            if (cuts[i].length > 0 && cuts[i][0] != Double.MAX_VALUE)
                for (double c : cuts[i]) b.append("\t").append(Double.toString(c));
            System.out.println(b);
        }
        System.out.flush();
        NaiveCredalClassifier2 ncc = new NaiveCredalClassifier2(train, used, classes, values, nmTrain, nmTest, nmValues);
        Thread watchdog = new Thread(() -> {
            while (true) {
                try { Thread.sleep(20); } catch (InterruptedException e) { return; }
                int now = current;
                if (now >= 0 && System.nanoTime() - started > timeout * 1000000L) {
                    System.out.println("@@hang\t" + now);
                    System.out.flush();
                    Runtime.getRuntime().halt(3);
                }
            }
        });
        watchdog.setDaemon(true);
        watchdog.start();
        for (int i = first; i < test.size(); i++) {
            ArrayList<int[]> one = new ArrayList<int[]>();
            one.add(test.get(i));
            started = System.nanoTime();
            current = i;
            try {
                ncc.classifyInstances(one);
                StringBuilder b = new StringBuilder("@@inst\t" + i + "\t|");
                for (int c : ncc.getPredictions(0)) b.append("\t").append(c);
                current = -1;
                System.out.println(b);
            } catch (Throwable e) {
                current = -1;
                System.out.println("@@error\t" + i + "\t" + e.toString().replace('\t', ' ').replace('\n', ' '));
            }
            System.out.flush();
        }
        System.out.println("@@done");
        System.out.flush();
    }
}
"""


def load(dataset: str, group: str, declared_classes: bool):
    """``(X, y, codes)`` as the book loads the dataset; ``codes`` without declared classes (the split's strata)."""
    from credalbook import data

    plain = data.load(dataset, group=group)
    chosen = data.load(dataset, group=group, declared_classes=True) if declared_classes else plain
    return chosen.X, chosen.y, np.asarray(plain.y_codes)


def eligible_features(X) -> list[str]:
    """Features JNCC2 can declare non-MAR without upsetting its lists: numeric ones, nominal ones with ≥ 2 values."""
    import pandas as pd

    return [c for c in X.columns
            if not isinstance(X[c].dtype, pd.CategoricalDtype) or len(X[c].cat.categories) >= 2]


def configurations(X) -> dict[str, list[str] | dict[str, str]]:
    """The declared features (the book's column names, in the file's order) of each configuration: a list
    (non-MAR in training and testing) or a dict {feature: "training" | "testing"} (in one phase)."""
    eligible = eligible_features(X)
    missing = X[eligible].isna().sum()
    most = [str(missing.idxmax())] if missing.max() > 0 else []
    with_missing = [c for c in eligible if missing[c] > 0]
    return {"none": [], "most": most, "missing": with_missing, "all": list(eligible),
            "missing_training": {c: "training" for c in with_missing},
            "missing_testing": {c: "testing" for c in with_missing}}


def non_mar_file(declared, token: dict) -> str:
    """The lines of ``NonMar.txt``: ``<name>`` (both phases) or ``training <name>`` / ``testing <name>``."""
    if isinstance(declared, dict):
        return "".join(f"{token[c]}\n" if phase == "both" else f"{phase} {token[c]}\n" for c, phase in declared.items())
    return "".join(f"{token[c]}\n" for c in declared)


def arff_lines(dataset: str, group: str, folder: Path) -> tuple[list[str], list[str], list[str]] | str:
    """The header lines, the attribute tokens as JNCC2 reads them (class excluded) and the data rows with a class."""
    from credalbook import data
    from credalbook.book.experiments.jncc2 import _arff_file, jncc2_arff

    try:
        source = _arff_file(dataset, group)
    except ValueError as error:
        return str(error)
    entry = data.registry().query("group == @group and name == @dataset").iloc[0]
    jncc2_arff(source, folder / "full.arff")
    lines = (folder / "full.arff").read_text(encoding="utf-8", errors="surrogateescape").splitlines()
    lines = underscore_quoted(lines)
    start = next(i for i, line in enumerate(lines) if line.strip().lower().startswith("@data")) + 1
    attributes = [line.split()[1] for line in lines[:start] if line.strip().lower().startswith("@attribute")]
    if attributes[-1].strip("'\"") != str(entry["class_attribute"]).replace(" ", "_"):
        return f"the class {entry['class_attribute']!r} is not the file's last attribute ({attributes[-1]!r})"
    rows = []
    for line in lines[start:]:
        if not line.strip() or line.lstrip().startswith("%"):
            continue
        last = next(csv.reader(io.StringIO(line), quotechar="'", skipinitialspace=True))[-1].strip()
        if last != "?":                       # the book drops rows of unknown class; so do these splits
            rows.append(line)
    return lines[:start], attributes[:-1], rows


def parse(text: str) -> dict:
    found = {"sets": {}, "errors": {}, "hang": None, "done": False, "cuts": {}}
    for line in text.splitlines():
        if not line.startswith("@@"):
            continue
        key, *fields = line.split("\t")
        key = key[2:]
        if key == "inst":
            bar = fields.index("|")
            found["sets"][int(fields[0])] = [int(v) for v in fields[bar + 1:]]
        elif key == "error":
            found["errors"][int(fields[0])] = fields[1]
        elif key == "hang":
            found["hang"] = int(fields[0])
        elif key == "done":
            found["done"] = True
        elif key == "cuts":
            found["cuts"][fields[0]] = [float(v) for v in fields[1:]]
        elif key == "n_test":
            found["n_test"] = int(fields[0])
        elif key in ("classes", "used"):
            found[key] = fields
        else:
            found[key] = [int(v) for v in fields]
    return found


def run_jncc2(folder: Path, jar: Path, classpath: Path, timeout: float) -> dict:
    """Classify every test instance, resuming after an instance that hangs; the sets, hangs and errors."""
    sets, errors, hangs, first, info = {}, {}, [], 0, None
    while True:
        done = subprocess.run(["java", "-cp", f"{classpath}{os.pathsep}{jar}", "jncc20.DumpMnar", f"{folder}{os.sep}",
                               "train.arff", "test.arff", str(first), str(int(timeout * 1000))],
                              cwd=folder, capture_output=True, text=True, timeout=3600)
        found = parse(done.stdout)
        if "n_test" not in found:
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-5:])
            raise RuntimeError(f"JNCC2 failed (exit {done.returncode}): {tail}")
        info = info or found
        sets.update(found["sets"])
        errors.update(found["errors"])
        if found["done"]:
            break
        if found["hang"] is None:
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-5:])
            raise RuntimeError(f"JNCC2 stopped at no instance (exit {done.returncode}): {tail}")
        hangs.append(found["hang"])
        first = found["hang"] + 1
        if first >= found["n_test"]:
            break
    n = info["n_test"]
    return {"classes": info["classes"], "used": info["used"], "values": info["values"],
            "nonmar_training": info["nonmar_training"], "nonmar_testing": info["nonmar_testing"],
            "nonmar_testing_values": info["nonmar_testing_values"], "cuts": info["cuts"],
            "sets": [sets.get(i) for i in range(n)], "hang": hangs,
            "errors": {str(k): v for k, v in sorted(errors.items())}}


def dataset_golden(dataset: str, group: str, declared: bool, jar: Path, classpath: Path, timeout: float,
                   run_configurations=CONFIGURATIONS, previous: dict | None = None) -> dict:
    """The golden file's content; with ``previous`` (the existing file), the configurations not in
    ``run_configurations`` are taken from it (its splits must be these)."""
    from credalbook.book.experiments.benchmark import fold_indices

    X, y, codes = load(dataset, group, declared)
    chosen = configurations(X)
    folds = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        read = arff_lines(dataset, group, folder)
        if isinstance(read, str):
            return {"dataset": dataset, "skipped": read}
        header, tokens, rows = read
        if len(rows) != len(codes) or len(tokens) != X.shape[1]:
            return {"dataset": dataset, "skipped": f"{len(rows)} rows, {len(tokens)} features in the file; "
                                                    f"the book has {X.shape}"}
        token = {}
        for column, written in zip(X.columns, tokens):
            if written.strip("'\"").lower() != re.sub(r"\s+", "_", str(column)).lower():
                return {"dataset": dataset, "skipped": f"attribute {written!r} is not the book's {column!r}"}
            token[column] = written
        for fold in ((0,) if dataset in FIRST_FOLD_ONLY else range(10)):
            train, test = fold_indices(codes, RUN, fold)
            for file, index in (("train.arff", train), ("test.arff", test)):
                (folder / file).write_text("\n".join(header + [rows[i] for i in index]) + "\n",
                                           encoding="utf-8", errors="surrogateescape")
            entry = {"fold": fold, "n_train": len(train), "test_rows": [int(i) for i in test], "configurations": {}}
            kept = {}
            if previous is not None:
                old = next(e for e in previous["folds"] if e["fold"] == fold)
                if old["test_rows"] != entry["test_rows"]:
                    raise RuntimeError(f"{dataset} fold {fold}: the existing golden file has another split")
                entry.update({k: old[k] for k in ("classes", "cuts", "used")})
                kept = old["configurations"]
            for configuration in CONFIGURATIONS:
                if configuration not in run_configurations:
                    if configuration not in kept:
                        raise RuntimeError(f"{dataset}: configuration {configuration} is neither run nor kept")
                    entry["configurations"][configuration] = kept[configuration]
                    continue
                declared_file = folder / "NonMar.txt"
                declared_file.unlink(missing_ok=True)
                if chosen[configuration]:
                    declared_file.write_text(non_mar_file(chosen[configuration], token))
                start = time.perf_counter()
                result = run_jncc2(folder, jar, classpath, timeout)
                seconds = time.perf_counter() - start
                if previous is not None and (result["cuts"], result["classes"]) != (entry["cuts"], entry["classes"]):
                    raise RuntimeError(f"{dataset} fold {fold}: JNCC2's cut points or classes differ from the kept run's")
                entry.setdefault("classes", result["classes"])
                entry.setdefault("cuts", result["cuts"])
                entry.setdefault("used", result["used"])
                entry["configurations"][configuration] = {   # no timings: the same bytes on each run
                    "non_mar": chosen[configuration],
                    "nonmar_training": result["nonmar_training"], "nonmar_testing": result["nonmar_testing"],
                    "nonmar_testing_values": result["nonmar_testing_values"],
                    "sets": result["sets"], "hang": result["hang"], "errors": result["errors"]}
                print(f"{dataset:14s} fold {fold} {configuration:8s} {seconds:6.2f} s  {len(test)} instances, "
                      f"{len(result['hang'])} hang, {len(result['errors'])} errors", file=sys.stderr)
            folds.append(entry)
    return {"dataset": dataset, "group": group, "declared_classes": declared, "run": RUN, "folds": folds}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("datasets", nargs="*", help="datasets to recompute (default: all of DATASETS)")
    parser.add_argument("--jar", default=os.environ.get("CREDALBOOK_JNCC2_JAR"),
                        help="jncc2-rel1.11.jar (default: $CREDALBOOK_JNCC2_JAR)")
    parser.add_argument("--configurations", nargs="+", choices=CONFIGURATIONS, default=list(CONFIGURATIONS),
                        help="run these configurations only, keeping the others from the existing golden files")
    parser.add_argument("--timeout", type=float, default=2.0,
                        help="seconds after which an instance is taken to hang (default 2; one takes milliseconds)")
    args = parser.parse_args(argv)
    if not args.jar:
        parser.error("give --jar or set CREDALBOOK_JNCC2_JAR")
    known = {d[0]: d for d in DATASETS}
    unknown = [d for d in args.datasets if d not in known]
    if unknown:
        parser.error(f"not in DATASETS: {', '.join(unknown)}")
    jar = Path(args.jar).resolve()
    out = repo_root() / OUT
    out.mkdir(parents=True, exist_ok=True)
    header = {"jncc2": VERSION, "script": SCRIPT, "java": subprocess.run(
        ["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]}
    with tempfile.TemporaryDirectory() as name:
        classpath = compile_against(jar, Path(name), "DumpMnar", DUMP)
        for dataset in args.datasets or [d[0] for d in DATASETS]:
            previous = None
            if set(args.configurations) != set(CONFIGURATIONS):
                previous = json.loads(gzip.decompress((out / f"{dataset}.json.gz").read_bytes()))
            golden = dataset_golden(*known[dataset], jar, classpath, args.timeout, args.configurations, previous)
            if "skipped" in golden:
                print(f"{dataset:14s} skipped: {golden['skipped']}", file=sys.stderr)
                continue
            with gzip.GzipFile(out / f"{dataset}.json.gz", "wb", mtime=0) as file:  # mtime 0: same bytes each run
                file.write((json.dumps({**header, **golden}, separators=(",", ":")) + "\n").encode())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
