"""NBC and NCC reproduce JNCC2 1.11's own results on its three example splits (ResultsTable.csv, ConfMatrices.txt).

The pipeline is JNCC2's: MDL cuts fitted on the training file (the ``gain`` selection of
JNCC2's MdlDiscretizer; Weka's ``entropy`` selection gives the same cuts on these three
files), NBC with Laplace counts, NCC2 with s = 1 and every feature missing at random.
"""

import numpy as np
import pandas as pd
import pytest

from credalbook.classifiers.naive_bayes import NaiveBayes
from credalbook.classifiers.ncc import NaiveCredalClassifier
from credalbook.data import read_arff, repository_dir
from credalbook.preprocessing import MDLDiscretizer

GOLDEN = repository_dir() / "jncc2"
ROWS = {"contact-lenses": "contact-lenses-weka", "iris": "iris", "glass": "Glass"}


def _results_table() -> pd.DataFrame:
    table = pd.read_csv(GOLDEN / "ResultsTable.csv", index_col=False)
    table = table.loc[:, ~table.columns.str.startswith("(StdDev)") & ~table.columns.str.startswith("Unnamed")]
    for column in ["NbcAcc", "NccDeterm", "NccSingleAcc", "NccSetAcc", "Nbc(Ncc-P)", "Nbc(Ncc-I)"]:
        table[column] = table[column].str.rstrip("%").astype(float) / 100
    return table


def _confusion_matrices() -> dict:
    """{(dataset, classifier): matrix} parsed from ConfMatrices.txt."""
    blocks, lines = {}, (GOLDEN / "ConfMatrices.txt").read_text().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("Dataset:"):
            dataset = lines[i].split(":", 1)[1].strip()
            classifier = "NBC" if lines[i + 2].strip().endswith("NBC") else "NCC"
            header = lines[i + 3]
            k = header.count("\t") - 1
            rows = [list(map(int, lines[i + 4 + r].split("\t")[:k])) for r in range(k)]
            blocks[(dataset, classifier)] = np.array(rows)
            i += 4 + k
        else:
            i += 1
    return blocks


def _run(name: str, selection: str):
    train = read_arff(GOLDEN / f"{name}.training.arff")
    test = read_arff(GOLDEN / f"{name}.testing.arff")
    X_train, y_train = train.iloc[:, :-1], train.iloc[:, -1]
    X_test, y_test = test.iloc[:, :-1], test.iloc[:, -1]
    disc = MDLDiscretizer(selection=selection).fit(X_train, y_train)
    D_train, D_test = disc.transform(X_train), disc.transform(X_test)
    nbc = NaiveBayes().fit(D_train, y_train)
    ncc = NaiveCredalClassifier(s=1.0).fit(D_train, y_train)
    truth = pd.Categorical(y_test, categories=nbc.classes_).codes
    return truth, nbc.predict_index(D_test), ncc.predict_set(D_test), nbc.classes_


@pytest.mark.parametrize("selection", ["gain", "entropy"])
@pytest.mark.parametrize("name", list(ROWS))
def test_results_table(name, selection):
    truth, nbc_pred, sets, _ = _run(name, selection)
    row = _results_table().set_index("Dataset")
    row = row.loc[[i for i in row.index if i.startswith(ROWS[name])][0]]
    size = sets.sum(axis=1)
    det = size == 1
    hit = sets[np.arange(truth.size), truth]
    nbc_ok = nbc_pred == truth
    assert len(truth) == row["Instances"]
    assert nbc_ok.mean() == pytest.approx(row["NbcAcc"], abs=5e-5)
    assert det.mean() == pytest.approx(row["NccDeterm"], abs=5e-5)
    assert hit[det].mean() == pytest.approx(row["NccSingleAcc"], abs=5e-5)
    assert hit[~det].mean() == pytest.approx(row["NccSetAcc"], abs=5e-5)
    assert size[~det].mean() == pytest.approx(row["NccIndetOutSize"], abs=0.05)
    assert nbc_ok[det].mean() == pytest.approx(row["Nbc(Ncc-P)"], abs=5e-5)
    assert nbc_ok[~det].mean() == pytest.approx(row["Nbc(Ncc-I)"], abs=5e-5)


@pytest.mark.parametrize("name", list(ROWS))
def test_confusion_matrices(name):
    truth, nbc_pred, sets, classes = _run(name, "gain")
    matrices = _confusion_matrices()
    key = [k for k in matrices if k[0].startswith(ROWS[name])][0][0]
    k = len(classes)
    nbc = np.zeros((k, k), dtype=int)
    np.add.at(nbc, (truth, nbc_pred), 1)
    np.testing.assert_array_equal(nbc, matrices[(key, "NBC")])
    det = sets.sum(axis=1) == 1
    ncc = np.zeros((k, k), dtype=int)
    np.add.at(ncc, (truth[det], sets[det].argmax(axis=1)), 1)
    np.testing.assert_array_equal(ncc, matrices[(key, "NCC")])
