"""JNCC2 1.11's per-instance outputs on one held-back split of every dataset it reads: the golden files of
``tests/test_jncc2_golden.py`` (Corani & Zaffalon 2008; issue 14).

For each dataset of :func:`credalbook.experiments.benchmark.available_datasets` whose file JNCC2 reads
as the book reads it (one ARFF file, :func:`credalbook.experiments.jncc2._arff_file`, rewritten by
:func:`~credalbook.experiments.jncc2.jncc2_arff`; the class the file's last attribute), fold 0 of run 0
(:func:`~credalbook.experiments.benchmark.fold_indices`) is written as a testing file and the other
folds as a training file, both with the file's header, and JNCC2 is run in its testing-file mode
(``java -jar jncc2-rel1.11.jar DIR train.arff test.arff``). Its testing-file mode prints no
per-instance output (``writePredictions`` is only called with ``unknownclasses``) and never prints
the discretisation intervals, so a small class compiled against the jar at run time (``Dump``, in
package ``jncc20``) calls JNCC2's own ``validateTFile`` and then reads, by reflection, the objects that
run leaves: the MDL cut points of every numeric attribute (``discretizationIntervals``), NBC's
posterior of every test instance (``NaiveBayes.getProbabilities``; also as ``writePredictions``
prints them, ``DecimalFormat("#0.00")``) and NCC2's set (``getPredictions``). No line of JNCC2 is
changed. For a handful of datasets the ``cv`` mode's ``ResultsTable.csv`` row is kept too (its folds
are drawn with an unseeded ``java.util.Random``, so it is a record, not a per-instance oracle).

Writes ``tests/golden/jncc2/<dataset>.json.gz`` and ``tests/golden/jncc2/cv_results.csv``, each with
the JNCC2 version and this script. The jar's path is ``--jar`` or ``$CREDALBOOK_JNCC2_JAR``.

    python scripts/jncc2_golden.py --jar JAR                 # every dataset JNCC2 reads
    python scripts/jncc2_golden.py --jar JAR iris labor      # recompute these datasets, keep the others
"""
from __future__ import annotations

import argparse
import csv
import io
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from credalbook.book import repo_root

OUT = "tests/golden/jncc2"
SCRIPT = "scripts/jncc2_golden.py"
VERSION = "JNCC2 1.11 (jncc2-rel1.11.jar, Corani & Zaffalon 2008)"
RUN, FOLD = 0, 0
#: datasets whose ``cv`` ResultsTable row is kept (small, of different shapes)
CV_DATASETS = ("iris", "labor", "contact-lenses", "hepatitis", "zoo", "glass")

DUMP = r"""
package jncc20;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.text.DecimalFormat;
import java.util.ArrayList;

/** Runs JNCC2's testing-file validation and prints what it computed (cut points, NBC posteriors, NCC2 sets). */
public class Dump {
    static Object get(Object o, String name) throws Exception {
        Field f = o.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
    }

    public static void main(String[] a) throws Exception {
        Jncc j = new Jncc(a[0], a[1], a[2], 3);
        Method m = Jncc.class.getDeclaredMethod("validateTFile", String.class);
        m.setAccessible(true);
        m.invoke(j, a[2]);
        ArrayList<?> names = (ArrayList<?>) get(j, "featNames");
        ArrayList<?> numeric = (ArrayList<?>) get(j, "numFlags");
        ArrayList<?> used = (ArrayList<?>) get(j, "usedFeatures");
        ArrayList<?> classes = (ArrayList<?>) get(j, "classNames");
        double[][] cuts = (double[][]) get(j, "discretizationIntervals");
        Object nbc = get(j, "nbc");
        Object ncc = get(j, "ncc2");
        Method p = nbc.getClass().getDeclaredMethod("getProbabilities");
        p.setAccessible(true);
        double[][] prob = (double[][]) p.invoke(nbc);
        Method s = ncc.getClass().getDeclaredMethod("getPredictions");
        s.setAccessible(true);
        int[][] sets = (int[][]) s.invoke(ncc);
        DecimalFormat printed = new DecimalFormat("#0.00");
        System.out.println("@@classes\t" + classes.size());
        for (Object c : classes) System.out.println("@@class\t" + c);
        for (int i = 0; i < names.size(); i++) {
            if (!(Boolean) numeric.get(i)) continue;
            StringBuilder b = new StringBuilder("@@cuts\t" + names.get(i));
            if (cuts[i].length > 0 && cuts[i][0] != Double.MAX_VALUE)
                for (double c : cuts[i]) b.append("\t").append(Double.toString(c));
            System.out.println(b);
        }
        for (Object u : used) System.out.println("@@used\t" + names.get((Integer) u));
        for (int i = 0; i < prob.length; i++) {
            StringBuilder b = new StringBuilder("@@inst");
            for (double v : prob[i]) b.append("\t").append(Double.toString(v));
            b.append("\t|");
            for (double v : prob[i]) b.append("\t").append(printed.format(v));
            b.append("\t|");
            for (int c : sets[i]) b.append("\t").append(c);
            System.out.println(b);
        }
    }
}
"""


def _compile(jar: Path, folder: Path) -> Path:
    """Compile ``Dump`` against the jar into ``folder``; returns the classpath entry."""
    source = folder / "src" / "jncc20" / "Dump.java"
    source.parent.mkdir(parents=True)
    source.write_text(DUMP)
    classes = folder / "classes"
    classes.mkdir()
    subprocess.run(["javac", "-nowarn", "-cp", str(jar), "-d", str(classes), str(source)], check=True,
                   capture_output=True)
    return classes


def split_files(dataset: str, folder: Path) -> tuple[list[int], list[int]] | str:
    """Write ``train.arff`` and ``test.arff`` (fold 0 of run 0) into ``folder``; the data rows of each,
    numbered as the book's dataset numbers them; or the reason JNCC2 cannot read the dataset as the book does."""
    from credalbook import data
    from credalbook.experiments.benchmark import fold_indices, load_dataset
    from credalbook.experiments.jncc2 import _arff_file, jncc2_arff

    try:
        source = _arff_file(dataset)
    except ValueError as error:
        return str(error)
    entry = data.registry().query("group == 'zaffalon2012' and name == @dataset").iloc[0]
    jncc2_arff(source, folder / "full.arff")
    lines = (folder / "full.arff").read_text(encoding="utf-8", errors="surrogateescape").splitlines()
    # JNCC2's testing-file reader splits on white space inside quotes too (its manual warns of names
    # with spaces): quoted nominal values with spaces get underscores, in the header and the data alike
    lines = [re.sub(r"'([^',]*)'", lambda m: "'" + re.sub(r"\s+", "_", m.group(1)) + "'", line)
             if not line.lstrip().startswith("%") else line for line in lines]
    start = next(i for i, line in enumerate(lines) if line.strip().lower().startswith("@data")) + 1
    attributes = [line.split()[1] for line in lines[:start] if line.strip().lower().startswith("@attribute")]
    if attributes[-1].strip("'\"") != str(entry["class_attribute"]).replace(" ", "_"):
        return (f"the class {entry['class_attribute']!r} is not the file's last attribute "
                f"({attributes[-1]!r}), which JNCC2 takes as the class")
    header, rows = lines[:start], []
    for line in lines[start:]:
        if not line.strip() or line.lstrip().startswith("%"):
            continue
        last = next(csv.reader(io.StringIO(line), quotechar="'", skipinitialspace=True))[-1].strip()
        if last != "?":                       # the book drops rows of unknown class; so does this split
            rows.append(line)
    _, _, codes = load_dataset(dataset)
    if len(rows) != len(codes):
        return f"{len(rows)} data rows with a class in the file, {len(codes)} in the book's dataset"
    train, test = fold_indices(codes, RUN, FOLD)
    for name, index in (("train.arff", train), ("test.arff", test)):
        (folder / name).write_text("\n".join(header + [rows[i] for i in index]) + "\n",
                                   encoding="utf-8", errors="surrogateescape")
    return [int(i) for i in train], [int(i) for i in test]


def parse_dump(text: str) -> dict:
    classes, cuts, used, posteriors, printed, sets = [], {}, [], [], [], []
    for line in text.splitlines():
        if not line.startswith("@@"):
            continue
        key, *fields = line.split("\t")
        if key == "@@class":
            classes.append(fields[0])
        elif key == "@@cuts":
            cuts[fields[0]] = [float(v) for v in fields[1:]]
        elif key == "@@used":
            used.append(fields[0])
        elif key == "@@inst":
            bar = [i for i, f in enumerate(fields) if f == "|"]
            posteriors.append([float(v) for v in fields[:bar[0]]])
            printed.append(fields[bar[0] + 1:bar[1]])
            sets.append([int(v) for v in fields[bar[1] + 1:]])
    return {"classes": classes, "cuts": cuts, "used_features": used, "nbc_posterior": posteriors,
            "nbc_printed": printed, "ncc_set": sets}


def dataset_golden(dataset: str, jar: Path, classpath: Path) -> dict:
    """JNCC2's testing-file run on fold 0 of ``dataset``: a dict for the golden file (or with ``skipped``)."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        split = split_files(dataset, folder)
        if isinstance(split, str):
            return {"dataset": dataset, "skipped": split}
        train, test = split
        start = time.perf_counter()
        done = subprocess.run(["java", "-cp", f"{classpath}{os.pathsep}{jar}", "jncc20.Dump", f"{folder}{os.sep}",
                               "train.arff", "test.arff"], cwd=folder, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        found = parse_dump(done.stdout)
        if done.returncode or len(found["nbc_posterior"]) != len(test):
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-5:])
            return {"dataset": dataset, "skipped": f"JNCC2 failed (exit {done.returncode}): {tail}"}
    return {"dataset": dataset, "run": RUN, "fold": FOLD, "jncc2_seconds": round(seconds, 2),
            "n_train": len(train), "test_rows": test, **found}


def cv_row(dataset: str, jar: Path) -> dict:
    from credalbook.experiments.jncc2 import _arff_file, jncc2_arff

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        jncc2_arff(_arff_file(dataset), folder / "data.arff")
        start = time.perf_counter()
        subprocess.run(["java", "-jar", str(jar), f"{folder}{os.sep}", "data.arff", "cv"], cwd=folder,
                       capture_output=True, check=True)
        seconds = time.perf_counter() - start
        with open(folder / "ResultsTable.csv") as table:
            rows = list(csv.reader(table))
    return {"dataset": dataset, "jncc2_seconds": round(seconds, 2), "header": rows[0], "row": rows[1]}


def main(argv=None) -> int:
    from credalbook.experiments.benchmark import available_datasets

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("datasets", nargs="*", help="datasets to recompute (default: all)")
    parser.add_argument("--jar", default=os.environ.get("CREDALBOOK_JNCC2_JAR"),
                        help="jncc2-rel1.11.jar (default: $CREDALBOOK_JNCC2_JAR)")
    parser.add_argument("--no-cv", action="store_true", help="skip the cv ResultsTable rows")
    args = parser.parse_args(argv)
    if not args.jar:
        parser.error("give --jar or set CREDALBOOK_JNCC2_JAR")
    jar = Path(args.jar).resolve()
    out = repo_root() / OUT
    out.mkdir(parents=True, exist_ok=True)
    header = {"jncc2": VERSION, "script": SCRIPT, "java": subprocess.run(
        ["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]}
    skipped = {}
    with tempfile.TemporaryDirectory() as name:
        classpath = _compile(jar, Path(name))
        for dataset in args.datasets or available_datasets():
            golden = dataset_golden(dataset, jar, classpath)
            if "skipped" in golden:
                skipped[dataset] = golden["skipped"]
                print(f"{dataset:32s} skipped: {golden['skipped']}", file=sys.stderr)
                continue
            golden = {**header, **golden}
            with gzip.GzipFile(out / f"{dataset}.json.gz", "wb", mtime=0) as file:  # mtime 0: same bytes each run
                file.write((json.dumps(golden, separators=(",", ":")) + "\n").encode())
            print(f"{dataset:32s} {golden['jncc2_seconds']:7.2f} s  {len(golden['test_rows'])} test rows")
    if skipped and not args.datasets:
        (out / "skipped.json").write_text(json.dumps({**header, "skipped": skipped}, indent=1) + "\n")
    if not args.no_cv:
        rows = [cv_row(dataset, jar) for dataset in CV_DATASETS]
        with open(out / "cv_results.csv", "w", newline="") as table:
            table.write(f"# {VERSION}, cv mode (10 runs of stratified 10-fold cross-validation, unseeded); "
                        f"written by {SCRIPT}\n")
            writer = csv.writer(table)
            writer.writerow(["dataset", "jncc2_seconds"] + rows[0]["header"])
            for row in rows:
                writer.writerow([row["dataset"], row["jncc2_seconds"]] + row["row"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
