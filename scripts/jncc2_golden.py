"""JNCC2 1.11's per-instance outputs on one held-back split of every dataset of the collection: the golden
files of ``tests/test_jncc2_golden.py`` (Corani & Zaffalon 2008; issue 14).

For each dataset of :func:`credalbook.book.experiments.benchmark.available_datasets`, fold 0 of run 0
(:func:`~credalbook.book.experiments.benchmark.fold_indices`) is written as a testing file and the other
folds as a training file, both with the same header, and JNCC2 is run in its testing-file mode
(``java -jar jncc2-rel1.11.jar DIR train.arff test.arff``). Its testing-file mode prints no
per-instance output (``writePredictions`` is only called with ``unknownclasses``) and never prints
the discretisation intervals, so a small class compiled against the jar at run time (``Dump``, in
package ``jncc20``) calls JNCC2's own ``validateTFile`` and then reads, by reflection, the objects that
run leaves: the MDL cut points of every numeric attribute (``discretizationIntervals``), NBC's
posterior of every test instance (``NaiveBayes.getProbabilities``; also as ``writePredictions``
prints them, ``DecimalFormat("#0.00")``), NCC2's set (``getPredictions``) and the class JNCC2 read
for each test row (``testingSet``, checked against the file). No line of JNCC2 is changed.

The files JNCC2 is given hold the book's data, written in the form JNCC2's readers take:

* the dataset's ARFF file (:func:`credalbook.book.experiments.jncc2._arff_file`), its quoted names with
  spaces rewritten by :func:`~credalbook.book.experiments.jncc2.jncc2_arff` and its quoted values with
  spaces given underscores (JNCC2's reader splits at white space inside quotes too); a dataset that is
  not one ARFF file (KEEL ``.dat``, a train/test pair, a whitespace table) is written as one ARFF from
  the book's loaded dataset (:func:`~credalbook.book.experiments.benchmark.load_dataset`);
* the class moved to the last attribute where the file has it elsewhere (JNCC2 takes the last
  attribute as the class), header and rows alike (wine, solar-flare-C and -m);
* declared nominal values that equal an earlier value of their attribute but for case renamed
  (``hId`` after ``hid`` becomes ``hId_2``): JNCC2's readers match values with ``equalsIgnoreCase``,
  so they would merge them (vowel's eleven classes would be six);
* a numeric attribute with no value in the training rows removed from both files: JNCC2's
  ``MdlDiscretizer`` reads ``pairVector[0]`` of an empty array and dies
  (``ArrayIndexOutOfBoundsException``); JNCC2 would drop such an attribute anyway (no cut point),
  as the book does (hypothyroid's ``TBG``);
* when JNCC2 drops the last feature of the training file (a numeric attribute that MDL does not cut,
  or a nominal one of a single declared value), that trailing run of dropped features moved to the
  front of both files. JNCC2 1.11's compiled testing-file reader (``parseArffTestingFile``; the
  shipped source differs here) reads no further token after a dropped feature in the last position,
  so it takes that feature's value for the class and refuses the file ("Value 0.22 does not match
  any of the possible values for the output class": glass, eucalyptus, liver-disorders, sonar, tae,
  vowel, waveform). Which features JNCC2 drops is asked of JNCC2 itself (its ``discretizeNumFeats``
  on the training file, ``Dump ... used``). The order of the features is no part of the naive model.
  Where JNCC2 drops every feature (liver-disorders: MDL cuts none), no order helps, and a feature of
  two declared values, missing in every row, is added before the class: JNCC2 keeps it, and NBC and
  NCC2 marginalise a feature missing in the test instance, so it changes no posterior and no set (the
  outputs on iris, hepatitis and anneal are bit for bit the same with it). Where the dropped last feature's
  value happens to be a class name, the old reader did not refuse but read the wrong classes (monks1,
  monks3: ``V6`` and the class both take 1 and 2); posteriors and sets do not depend on the test classes.

Each golden file records what was changed (``workarounds``). Rows of unknown class are left out, as
the book leaves them out. For a handful of datasets the ``cv`` mode's ``ResultsTable.csv`` row is kept
too (its folds are drawn with an unseeded ``java.util.Random``, so it is a record, not a per-instance
oracle).

Writes ``tests/golden/jncc2/<dataset>.json.gz``, ``tests/golden/jncc2/cv_results.csv`` and
``tests/golden/jncc2/skipped.json``, each with the JNCC2 version and this script. The jar's path is
``--jar`` or ``$CREDALBOOK_JNCC2_JAR``.

    python scripts/jncc2_golden.py --jar JAR                 # every dataset
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

from credalbook.book.build import repo_root

OUT = "tests/golden/jncc2"
SCRIPT = "scripts/jncc2_golden.py"
VERSION = "JNCC2 1.11 (jncc2-rel1.11.jar, Corani & Zaffalon 2008)"
RUN, FOLD = 0, 0
#: datasets whose ``cv`` ResultsTable row is kept (small, of different shapes)
CV_DATASETS = ("iris", "labor", "contact-lenses", "hepatitis", "zoo", "glass")
#: the all-missing feature added when JNCC2 keeps no feature of a training file (see the module docstring)
PADDING = "jncc2_reader_padding"

DUMP = r"""
package jncc20;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.text.DecimalFormat;
import java.util.ArrayList;

/** Runs JNCC2's testing-file validation and prints what it computed (cut points, NBC posteriors, NCC2 sets,
 *  the class read for each test row); with a fourth argument "used", only the features JNCC2 keeps after
 *  discretising the training file. */
public class Dump {
    static Object get(Object o, String name) throws Exception {
        Field f = o.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
    }

    public static void main(String[] a) throws Exception {
        Jncc j = new Jncc(a[0], a[1], a[2], 3);
        if (a.length > 3 && a[3].equals("used")) {
            Method d = Jncc.class.getDeclaredMethod("discretizeNumFeats", ArrayList.class);
            d.setAccessible(true);
            d.invoke(j, get(j, "rawDataset"));
            System.out.println("@@discretised");
            ArrayList<?> names = (ArrayList<?>) get(j, "featNames");
            for (Object u : (ArrayList<?>) get(j, "usedFeatures")) System.out.println("@@used\t" + names.get((Integer) u));
            return;
        }
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
        ArrayList<?> testing = (ArrayList<?>) get(j, "testingSet");
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
        for (Object r : testing) {
            int[] row = (int[]) r;
            System.out.println("@@truth\t" + row[row.length - 1]);
        }
    }
}
"""


def compile_against(jar: Path, folder: Path, name: str = "Dump", code: str = DUMP) -> Path:
    """Compile class ``jncc20.<name>`` (Java source ``code``) against the jar into ``folder``; returns the
    classpath entry."""
    source = folder / "src" / "jncc20" / f"{name}.java"
    source.parent.mkdir(parents=True)
    source.write_text(code)
    classes = folder / "classes"
    classes.mkdir()
    subprocess.run(["javac", "-nowarn", "-cp", str(jar), "-d", str(classes), str(source)], check=True,
                   capture_output=True)
    return classes


def underscore_quoted(lines: list[str]) -> list[str]:
    """ARFF lines with white space inside quoted names and values made underscores (JNCC2's reader splits
    at white space inside quotes too); comment lines unchanged."""
    return [re.sub(r"'([^',]*)'", lambda m: "'" + re.sub(r"\s+", "_", m.group(1)) + "'", line)
            if not line.lstrip().startswith("%") else line for line in lines]


class _Arff:
    """An ARFF file as JNCC2 reads it: the header lines, the attributes (name, nominal values or None for a
    numeric one, header line index) and the data rows split at commas, as JNCC2's ``StringTokenizer`` splits them."""

    def __init__(self, lines: list[str]):
        start = next(i for i, line in enumerate(lines) if line.strip().lower().startswith("@data")) + 1
        self.header = lines[:start]
        self.attributes = []
        for i, line in enumerate(self.header):
            words = line.split()
            if words and words[0].lower() == "@attribute":
                brace = line.find("{")
                values = None if brace < 0 else [v.strip() for v in line[brace + 1:line.rindex("}")].split(",")]
                self.attributes.append((words[1], values, i))
        self.rows = []
        for line in lines[start:]:
            if not line.strip() or line.lstrip().startswith("%"):
                continue
            tokens = line.split(",")
            quoted = next(csv.reader(io.StringIO(line), quotechar="'", skipinitialspace=True))
            if len(tokens) != len(self.attributes) or len(quoted) != len(tokens):
                raise ValueError(f"a data row of {len(tokens)} comma-separated tokens ({len(quoted)} values) for "
                                 f"{len(self.attributes)} attributes: {line[:60]!r}")
            self.rows.append(tokens)

    @property
    def names(self) -> list[str]:
        return [name for name, _, _ in self.attributes]

    def select(self, order: list[int]) -> None:
        """Keep the attributes ``order`` (indices), in that order, in the header and in every row."""
        positions = {line for _, _, line in self.attributes}
        first = min(positions)
        declared = [self.header[self.attributes[j][2]] for j in order]
        others = [line for i, line in enumerate(self.header) if i > first and i not in positions]
        self.header = self.header[:first] + declared + others
        self.attributes = [(self.attributes[j][0], self.attributes[j][1], first + k) for k, j in enumerate(order)]
        self.rows = [[row[j] for j in order] for row in self.rows]

    def write(self, path: Path, rows: list[int] | None = None) -> None:
        body = [",".join(self.rows[i]) for i in (range(len(self.rows)) if rows is None else rows)]
        path.write_text("\n".join(self.header + body) + "\n", encoding="utf-8", errors="surrogateescape")


def _safe(value: object) -> str:
    """A name or value written bare for JNCC2's reader (white space becomes underscores, as for quoted names)."""
    text = re.sub(r"\s+", "_", str(value).strip())
    if not text or text == "?" or re.search(r"[,{}'\"%]", text):
        raise ValueError(f"{value!r} cannot be written for JNCC2's reader")
    return text


def book_arff_lines(dataset: str) -> list[str]:
    """One ARFF file (lines) of the book's loaded dataset: its features, then its class; numbers as Python's
    shortest round-trip repr (Java's ``Double.parseDouble`` reads back the same double), ``?`` for missing."""
    import numpy as np
    import pandas as pd

    from credalbook.book.experiments.benchmark import load_dataset

    X, y, _ = load_dataset(dataset)
    lines = [f"% {dataset}: the book's dataset (credalbook.book.experiments.benchmark.load_dataset) written by {SCRIPT}",
             f"@relation {_safe(dataset)}"]
    columns = []
    for name in X.columns:
        column = X[name]
        if isinstance(column.dtype, pd.CategoricalDtype):
            values = [_safe(v) for v in column.cat.categories]
            lines.append(f"@attribute {_safe(name)} {{{','.join(values)}}}")
            codes = column.cat.codes.to_numpy()
            columns.append([values[c] if c >= 0 else "?" for c in codes])
        else:
            numbers = column.to_numpy(dtype=float)
            lines.append(f"@attribute {_safe(name)} real")
            columns.append(["?" if np.isnan(v) else repr(float(v)) for v in numbers])
    classes = [_safe(c) for c in y.cat.categories]
    lines.append(f"@attribute {_safe(y.name)} {{{','.join(classes)}}}")
    columns.append([classes[c] for c in y.cat.codes.to_numpy()])
    return lines + ["@data"] + [",".join(row) for row in zip(*columns)]


def _distinct_ignoring_case(arff: _Arff) -> list[dict]:
    """Rename the declared nominal values that equal an earlier one of their attribute but for case (``hId`` after
    ``hid`` becomes ``hId_2``), in the header and the rows: JNCC2's readers match values with ``equalsIgnoreCase``,
    so they would read both as the first (vowel's classes)."""
    changes = []
    for j, (name, values, line) in enumerate(arff.attributes):
        if values is None or len({v.lower() for v in values}) == len(values):
            continue
        taken, renamed = {v.lower() for v in values}, {}
        seen = set()
        for value in values:
            if value.lower() in seen:
                quote = value[0] if len(value) > 1 and value[0] in "'\"" and value[-1] == value[0] else ""
                core = value[1:-1] if quote else value
                k = 2
                while f"{quote}{core}_{k}{quote}".lower() in taken:
                    k += 1
                renamed[value] = f"{quote}{core}_{k}{quote}"
                taken.add(renamed[value].lower())
            seen.add(value.lower())
        new_values = [renamed.get(v, v) for v in values]
        text = arff.header[line]
        arff.header[line] = text[:text.index("{")] + "{" + ",".join(new_values) + "}"
        arff.attributes[j] = (name, new_values, line)
        for row in arff.rows:
            token = row[j].strip()
            if token in renamed:
                row[j] = renamed[token]
        changes.append({"kind": "renamed_values", "attribute": name.strip("'\""),
                        "renamed": {k.strip("'\""): v.strip("'\"") for k, v in renamed.items()},
                        "why": "JNCC2's readers match nominal values ignoring case (equalsIgnoreCase), so they "
                               "would read these as the earlier value"})
    return changes


def _prepare(dataset: str, folder: Path) -> dict | str:
    """Write ``train.arff`` and ``test.arff`` (fold 0 of run 0) into ``folder``: ``{"train", "test", "workarounds",
    "arff"}`` (book row numbers, what was changed, the training file's :class:`_Arff`), or why JNCC2 cannot be given
    the dataset."""
    from credalbook import data
    from credalbook.book.experiments.benchmark import fold_indices, load_dataset
    from credalbook.book.experiments.jncc2 import _arff_file, jncc2_arff

    entry = data.registry().query("group == 'zaffalon2012' and name == @dataset").iloc[0]
    workarounds = []
    try:
        source = _arff_file(dataset)
    except ValueError as error:
        lines = book_arff_lines(dataset)
        workarounds.append({"kind": "written_from_book", "why": str(error)})
    else:
        jncc2_arff(source, folder / "full.arff")
        lines = (folder / "full.arff").read_text(encoding="utf-8", errors="surrogateescape").splitlines()
        (folder / "full.arff").unlink()
        # JNCC2's testing-file reader splits on white space inside quotes too (its manual warns of names
        # with spaces): quoted nominal values with spaces get underscores, in the header and the data alike
        lines = underscore_quoted(lines)
    try:
        arff = _Arff(lines)
    except ValueError as error:
        return f"JNCC2 splits data rows at every comma: {error}"
    names = [name.strip("'\"") for name in arff.names]
    target = re.sub(r"\s+", "_", str(entry["class_attribute"]))
    if target not in names:
        return f"the class {entry['class_attribute']!r} is not an attribute of the file ({names[:6]}...)"
    at = names.index(target)
    if at != len(names) - 1:                # JNCC2 takes the last attribute as the class
        arff.select([j for j in range(len(names)) if j != at] + [at])
        workarounds.append({"kind": "class_moved_last", "attribute": target, "from_position": at})
    if arff.attributes[-1][1] is None:
        return f"the class {target!r} is numeric in the file"
    # the book drops rows of unknown class; so does this split
    arff.rows = [row for row in arff.rows
                 if next(csv.reader(io.StringIO(row[-1]), quotechar="'", skipinitialspace=True))[0].strip() != "?"]
    _, y, codes = load_dataset(dataset)
    if len(arff.rows) != len(codes):
        return f"{len(arff.rows)} data rows with a class in the file, {len(codes)} in the book's dataset"
    if [row[-1].strip().strip("'\"") for row in arff.rows] != [re.sub(r"\s+", "_", str(v)) for v in y]:
        return "the file's rows are not the book's dataset's rows in order (their classes differ)"
    workarounds += _distinct_ignoring_case(arff)
    train, test = fold_indices(codes, RUN, FOLD)
    # a numeric attribute with no value in the training rows crashes JNCC2's MdlDiscretizer (empty pairVector)
    empty = [j for j, (name, values, _) in enumerate(arff.attributes[:-1])
             if values is None and all(arff.rows[i][j].strip() == "?" for i in train)]
    if empty:
        for j in empty:
            workarounds.append({"kind": "removed_attribute", "attribute": arff.names[j].strip("'\""),
                                "why": "numeric with no value in the training rows: JNCC2's MdlDiscretizer "
                                       "indexes pairVector[0] of an empty array (ArrayIndexOutOfBoundsException)"})
        arff.select([j for j in range(len(arff.attributes)) if j not in empty])
    arff.write(folder / "train.arff", train)
    arff.write(folder / "test.arff", test)
    return {"train": [int(i) for i in train], "test": [int(i) for i in test], "workarounds": workarounds,
            "arff": arff, "train_index": train, "test_index": test}


def split_files(dataset: str, folder: Path) -> tuple[list[int], list[int]] | str:
    """Write ``train.arff`` and ``test.arff`` (fold 0 of run 0) into ``folder``; the data rows of each,
    numbered as the book's dataset numbers them; or the reason JNCC2 cannot read the dataset as the book does.

    The files are as :func:`_prepare` writes them (class last, numeric attributes without a training
    value removed); :func:`dataset_golden` may then move features JNCC2 drops away from the last position.
    """
    prepared = _prepare(dataset, folder)
    if isinstance(prepared, str):
        return prepared
    return prepared["train"], prepared["test"]


def _java(classpath: Path, jar: Path, folder: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(["java", "-cp", f"{classpath}{os.pathsep}{jar}", "jncc20.Dump", f"{folder}{os.sep}",
                           "train.arff", "test.arff", *extra], cwd=folder, capture_output=True, text=True)


def _pad(arff: _Arff) -> None:
    """Add the feature :data:`PADDING` (two declared values, missing in every row) before the class."""
    name, values, line = arff.attributes[-1]
    arff.header.insert(line, f"@attribute {PADDING} {{a,b}}")
    arff.attributes = arff.attributes[:-1] + [(PADDING, ["a", "b"], line), (name, values, line + 1)]
    arff.rows = [row[:-1] + ["?", row[-1]] for row in arff.rows]


def _last_feature_readable(prepared: dict, folder: Path, jar: Path, classpath: Path) -> str | None:
    """Move the trailing run of features JNCC2 drops to the front of both files, so that its testing-file reader
    reads the class (see the module docstring); asks JNCC2 which features it keeps. Returns why it cannot."""
    arff: _Arff = prepared["arff"]
    _, values, _ = arff.attributes[-2]
    if values is not None and len(values) > 1:        # a nominal feature of two declared values or more is kept
        return None
    done = _java(classpath, jar, folder, "used")
    used = {line.split("\t")[1] for line in done.stdout.splitlines() if line.startswith("@@used\t")}
    if done.returncode or "@@discretised" not in done.stdout.splitlines():
        # JNCC2 exits with status 0 after a message for a file it refuses
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-5:])
        return f"JNCC2 did not discretise the training file (exit {done.returncode}): {tail}"
    features = arff.names[:-1]
    if not used:
        # no order helps: a feature JNCC2 keeps and that enters no computation, missing in every row
        # (NBC and NCC2 marginalise a feature missing in the test instance), goes before the class
        _pad(arff)
        prepared["workarounds"].append({
            "kind": "padding_feature_added", "attribute": PADDING,
            "why": "JNCC2 drops every feature (no MDL cut point), so its compiled testing-file reader would take the "
                   "last feature's value for the class; the added feature is missing in every row, so it enters "
                   "neither NBC's posteriors nor NCC2's sets"})
    else:
        last = len(features)
        while features[last - 1] not in used:
            last -= 1
        if last == len(features):
            return None
        moved = list(range(last, len(features)))
        arff.select(moved + list(range(last)) + [len(features)])
        prepared["workarounds"].append({
            "kind": "dropped_features_moved_first", "attributes": [features[j].strip("'\"") for j in moved],
            "why": "JNCC2 drops them (no MDL cut point, or one declared value); its compiled testing-file reader "
                   "takes the value of a dropped last feature for the class"})
    arff.write(folder / "train.arff", prepared["train_index"])
    arff.write(folder / "test.arff", prepared["test_index"])
    return None


def parse_dump(text: str) -> dict:
    classes, cuts, used, posteriors, printed, sets, truth = [], {}, [], [], [], [], []
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
        elif key == "@@truth":
            truth.append(int(fields[0]))
    found = {"classes": classes, "cuts": cuts, "used_features": used, "nbc_posterior": posteriors,
             "nbc_printed": printed, "ncc_set": sets}
    if truth:
        found["test_class_read"] = truth
    return found


def dataset_golden(dataset: str, jar: Path, classpath: Path) -> dict:
    """JNCC2's testing-file run on fold 0 of ``dataset``: a dict for the golden file (or with ``skipped``)."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        prepared = _prepare(dataset, folder)
        if isinstance(prepared, str):
            return {"dataset": dataset, "skipped": prepared}
        why = _last_feature_readable(prepared, folder, jar, classpath)
        if why:
            return {"dataset": dataset, "skipped": why}
        test = prepared["test"]
        start = time.perf_counter()
        done = _java(classpath, jar, folder)
        seconds = time.perf_counter() - start
        found = parse_dump(done.stdout)
        if done.returncode or len(found["nbc_posterior"]) != len(test):
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-5:])
            return {"dataset": dataset, "skipped": f"JNCC2 failed (exit {done.returncode}): {tail}"}
        # the class JNCC2 read for each test row is the file's (its reader took the right token)
        declared = prepared["arff"].attributes[-1][1]
        expected = [[v.lower() for v in declared].index(prepared["arff"].rows[i][-1].strip().lower()) for i in test]
        if found.pop("test_class_read") != expected:
            return {"dataset": dataset, "skipped": "JNCC2 read other classes for the test rows than the file's"}
    return {"dataset": dataset, "run": RUN, "fold": FOLD, "jncc2_seconds": round(seconds, 2),
            "n_train": len(prepared["train"]), "test_rows": test, "workarounds": prepared["workarounds"], **found}


def cv_row(dataset: str, jar: Path) -> dict:
    from credalbook.book.experiments.jncc2 import _arff_file, jncc2_arff

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
    from credalbook.book.experiments.benchmark import available_datasets

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
    skipped_path = out / "skipped.json"
    skipped = json.loads(skipped_path.read_text())["skipped"] if args.datasets and skipped_path.exists() else {}
    with tempfile.TemporaryDirectory() as name:
        classpath = compile_against(jar, Path(name))
        for dataset in args.datasets or available_datasets():
            golden = dataset_golden(dataset, jar, classpath)
            if "skipped" in golden:
                skipped[dataset] = golden["skipped"]
                (out / f"{dataset}.json.gz").unlink(missing_ok=True)
                print(f"{dataset:32s} skipped: {golden['skipped']}", file=sys.stderr)
                continue
            skipped.pop(dataset, None)
            golden = {**header, **golden}
            with gzip.GzipFile(out / f"{dataset}.json.gz", "wb", mtime=0) as file:  # mtime 0: same bytes each run
                file.write((json.dumps(golden, separators=(",", ":")) + "\n").encode())
            changed = ", ".join(w["kind"] for w in golden["workarounds"])
            print(f"{dataset:32s} {golden['jncc2_seconds']:7.2f} s  {len(golden['test_rows'])} test rows"
                  + (f"  ({changed})" if changed else ""))
    skipped_path.write_text(json.dumps({**header, "skipped": dict(sorted(skipped.items()))}, indent=1) + "\n")
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
