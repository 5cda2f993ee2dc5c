"""The book's MDL (gain selection), NBC and NCC against JNCC2 1.11 on one held-back split of every dataset it reads.

The golden files ``tests/golden/jncc2/<dataset>.json.gz`` are JNCC2's own outputs (``scripts/jncc2_golden.py``:
JNCC2's testing-file mode on fold 0 of run 0, training on the other folds): the MDL cut points of every
numeric attribute, NBC's posterior of every test instance (full precision and as JNCC2 prints it,
two decimals) and NCC2's set. No Java is needed here. The book runs as its benchmark runs
(``credalbook.experiments.jncc2.cross_validate_naive``'s pipeline: the dataset of
``credalbook.experiments.benchmark.load_dataset``, MDL cuts of ``credalbook._mdl.mdl_cuts`` with
JNCC2's ``gain`` selection, one count table shared by NBC and NCC with s = 1). Every difference is
listed with its cause in ``tests/golden/jncc2/expected_differences.yml``; the test fails when a listed
difference disappears or an unlisted one appears. ``python tests/test_jncc2_golden.py`` prints the table.
"""
from __future__ import annotations

import gzip
import json
import re
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

GOLDEN = Path(__file__).parent / "golden" / "jncc2"
OUTPUTS = ("cut points", "NBC posteriors", "NCC sets")
DATASETS = sorted(p.name.removesuffix(".json.gz") for p in GOLDEN.glob("*.json.gz"))
#: tolerance on the full-precision posteriors (JNCC2 sums logs in another order) and JNCC2's printed precision
POSTERIOR_ATOL, PRINTED_ATOL = 1e-9, 0.005 + 1e-12


def golden(dataset: str) -> dict:
    return json.loads(gzip.decompress((GOLDEN / f"{dataset}.json.gz").read_bytes()))


def expected_differences() -> dict[tuple[str, str], dict]:
    import yaml

    entries = yaml.safe_load((GOLDEN / "expected_differences.yml").read_text())["differences"]
    return {(e["dataset"], e["output"]): e for e in entries}


@lru_cache(maxsize=None)
def book_outputs(dataset: str, declared_classes: bool = False) -> dict:
    """The book's cut points, NBC posteriors and NCC sets on fold 0 of run 0, as its benchmark computes them."""
    import pandas as pd

    from credalbook._mdl import mdl_cuts
    from credalbook.classifiers.naive import naive_counts, undominated_and_scores
    from credalbook.discrete import MISSING
    from credalbook.experiments.benchmark import fold_indices, load_dataset
    from credalbook.experiments.jncc2 import _coded_columns

    X, y, codes = load_dataset(dataset)
    if declared_classes:
        X, y, _ = load_dataset(dataset, declared_classes=True)
    train, test = fold_indices(codes, 0, 0)
    y = pd.Categorical(y)
    labels, K = y.codes.astype(np.int64), len(y.categories)
    numeric, nominal, n_values = _coded_columns(X)
    names = [str(c).replace(" ", "_") for c in X.columns]
    columns, cuts = [], {}
    for j, values in enumerate(numeric):
        if values is None:
            columns.append(nominal[j])
            continue
        observed = ~np.isnan(values[train])
        column_cuts = mdl_cuts([values[train][observed]], [labels[train][observed]],
                               int(labels[train].max()) + 1, "gain")[0]
        cuts[names[j]] = column_cuts
        columns.append(np.where(np.isnan(values), MISSING, np.searchsorted(column_cuts, values, side="left")))
        n_values[j] = column_cuts.size + 1
    Xc = np.column_stack(columns)
    counts = naive_counts(Xc[train], labels[train], K, n_values)
    sets, log_joint = undominated_and_scores(counts, Xc[test], 1.0)
    posterior = np.exp(log_joint - log_joint.max(axis=1, keepdims=True))
    posterior /= posterior.sum(axis=1, keepdims=True)
    # the golden run's files have spaces in quoted values replaced by underscores (JNCC2's reader)
    return {"test_rows": test.tolist(), "classes": [re.sub(r"\s+", "_", str(c)) for c in y.categories], "cuts": cuts,
            "posterior": posterior, "sets": sets}


def compare(dataset: str, declared_classes: bool = False) -> dict[str, str]:
    """{output: 'identical' or what differs} of the book against JNCC2's golden outputs."""
    gold, book = golden(dataset), book_outputs(dataset, declared_classes)
    assert book["test_rows"] == gold["test_rows"], "the split is not the one JNCC2 was run on"
    result = {}
    cut_diff = [name for name, values in gold["cuts"].items()
                if name in book["cuts"] and not np.array_equal(np.asarray(values), book["cuts"][name])]
    only_jncc2 = [name for name in gold["cuts"] if name not in book["cuts"]]
    result["cut points"] = ("identical" if not cut_diff else f"differ on {len(cut_diff)} of "
                            f"{len(gold['cuts'])} numeric attributes ({', '.join(cut_diff[:4])})")
    if only_jncc2 and not cut_diff:
        result["cut points"] += f" (JNCC2 also cuts {', '.join(only_jncc2)}, which the book drops)"
    classes = gold["classes"]
    if book["classes"] != [c.strip("'\"") for c in classes]:
        missing = sorted(set(c.strip("'\"") for c in classes) - set(book["classes"]))
        why = f"JNCC2 has {len(classes)} classes, the book {len(book['classes'])} (absent: {', '.join(missing)})"
        return {**result, "NBC posteriors": f"differ: {why}", "NCC sets": f"differ: {why}"}
    full = np.asarray(gold["nbc_posterior"])
    printed = np.asarray(gold["nbc_printed"], dtype=float)
    gap = np.abs(book["posterior"] - full).max()
    gap_printed = np.abs(book["posterior"] - printed).max()
    if gap <= POSTERIOR_ATOL and gap_printed <= PRINTED_ATOL:
        result["NBC posteriors"] = "identical"
    else:
        rows = int((np.abs(book["posterior"] - full).max(axis=1) > POSTERIOR_ATOL).sum())
        result["NBC posteriors"] = f"differ on {rows} of {len(full)} instances (largest {gap:.3g})"
    jncc2_sets = np.zeros_like(book["sets"])
    for i, members in enumerate(gold["ncc_set"]):
        jncc2_sets[i, members] = True
    rows = int((jncc2_sets != book["sets"]).any(axis=1).sum())
    result["NCC sets"] = "identical" if rows == 0 else f"differ on {rows} of {len(jncc2_sets)} instances"
    return result


def table() -> list[dict]:
    return [{"dataset": d, **compare(d)} for d in DATASETS]


def test_there_are_golden_files():
    assert len(DATASETS) >= 30
    for dataset in DATASETS:
        gold = golden(dataset)
        assert gold["jncc2"].startswith("JNCC2 1.11") and gold["script"] == "scripts/jncc2_golden.py"


@pytest.mark.parametrize("dataset", DATASETS)
def test_book_equals_jncc2(dataset):
    expected = expected_differences()
    found = compare(dataset)
    for output in OUTPUTS:
        listed = (dataset, output) in expected
        if found[output] == "identical":
            assert not listed, f"{dataset} {output}: listed as a difference but identical now ({expected[(dataset, output)]['cause']})"
        else:
            assert listed, f"{dataset} {output}: unlisted difference: {found[output]}"


def test_listed_differences_are_on_golden_datasets_and_explained():
    for (dataset, output), entry in expected_differences().items():
        assert dataset in DATASETS and output in OUTPUTS
        assert entry.get("cause"), (dataset, output)


@pytest.mark.parametrize("key", [k for k, e in (expected_differences().items() if (GOLDEN / "expected_differences.yml").exists() else [])
                                 if e.get("resolved_by") == "declared_classes"])
def test_declared_classes_difference_disappears_under_jncc2s_convention(key):
    dataset, output = key
    assert compare(dataset, declared_classes=True)[output] == "identical"


def test_the_comparison_can_fail():
    # a golden posterior moved by 0.01, a set with a class added: both are seen
    gold = golden("iris")
    book = book_outputs("iris")
    moved = np.asarray(gold["nbc_posterior"]).copy()
    moved[0, 0] += 0.01
    assert np.abs(book["posterior"] - moved).max() > POSTERIOR_ATOL
    assert book["sets"].sum() < book["sets"].size


if __name__ == "__main__":
    rows = table()
    width = max(len(r["dataset"]) for r in rows)
    print(f"{'dataset':{width}s}  " + "  ".join(f"{o:14s}" for o in OUTPUTS))
    for row in rows:
        print(f"{row['dataset']:{width}s}  " + "  ".join(
            f"{'identical' if row[o] == 'identical' else 'differ':14s}" for o in OUTPUTS))
    print()
    for row in rows:
        for o in OUTPUTS:
            if row[o] != "identical":
                print(f"{row['dataset']}: {o}: {row[o]}")
