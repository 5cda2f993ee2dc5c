"""JNCC2's cv protocol on the book's array core: the same numbers as the estimators, no scikit-learn, the summary."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from credalbook.classifiers import NaiveBayes, NaiveCredalClassifier
from credalbook.data import load
from credalbook.book.experiments import jncc2
from credalbook.book.experiments.protocols import stratified_folds
from credalbook.preprocessing import MDLDiscretizer


def estimator_folds(data, run: int) -> dict[str, list[int]]:
    """The per-fold sums of FOLD_COLUMNS from MDLDiscretizer, NaiveBayes and NaiveCredalClassifier, fold by fold."""
    folds = stratified_folds(data.y, 10, seed=0, repeat=run)
    rows = {key: [] for key in jncc2.FOLD_COLUMNS}
    for fold in range(10):
        train, test = np.flatnonzero(folds != fold), np.flatnonzero(folds == fold)
        mdl = MDLDiscretizer().fit(data.X.iloc[train], data.y.iloc[train])
        X_train, X_test = mdl.transform(data.X.iloc[train]), mdl.transform(data.X.iloc[test])
        nbc = NaiveBayes().fit(X_train, data.y.iloc[train]).predict(X_test)
        sets, single = NaiveCredalClassifier().fit(X_train, data.y.iloc[train]).predict_with_set(X_test)
        truth = data.y_codes[test]
        nbc_hit = nbc == data.y.iloc[test].to_numpy()
        size = sets.sum(axis=1)
        determinate = size == 1
        hit = sets[np.arange(test.size), truth]
        assert (single[determinate] == truth[determinate]).sum() == (hit & determinate).sum()
        for key, value in zip(jncc2.FOLD_COLUMNS, (
                test.size, nbc_hit.sum(), determinate.sum(), (hit & determinate).sum(), (hit & ~determinate).sum(),
                size[~determinate].sum(), (nbc_hit & determinate).sum(), (nbc_hit & ~determinate).sum())):
            rows[key].append(int(value))
    return rows


@pytest.mark.parametrize("dataset", ["credit-a", "labor", "soybean", "contact-lenses", "iris"])
def test_array_protocol_equals_the_estimators(dataset):
    # mixed, numeric and nominal features, missing values, a class absent from some training folds
    data = load(dataset, group="zaffalon2012")
    found = jncc2.cross_validate_naive(data.X, data.y, runs=[1])
    expected = estimator_folds(data, run=1)
    for key in jncc2.FOLD_COLUMNS:
        np.testing.assert_array_equal(found[key], expected[key], err_msg=key)
    assert found["fold"].tolist() == list(range(10)) and (found["run"] == 1).all()


def test_summary_hand_computed():
    folds = {key: np.array(values) for key, values in {
        "n_test": [10, 10], "nbc_correct": [8, 6], "ncc_determinate": [8, 8], "ncc_single_correct": [7, 7],
        "ncc_set_hits": [2, 1], "ncc_indeterminate_size": [4, 5], "nbc_correct_ncc_determinate": [7, 6],
        "nbc_correct_ncc_indeterminate": [1, 0]}.items()}
    result = jncc2.summary(folds)
    assert result["NbcAcc"] == pytest.approx(70.0)
    assert result["NccDeterm"] == pytest.approx(80.0)
    assert result["NccSingleAcc"] == pytest.approx(100 * 14 / 16)
    assert result["NccSetAcc"] == pytest.approx(75.0)
    assert result["NccIndetOutSize"] == pytest.approx(9 / 4)
    assert result["Nbc(Ncc-P)"] == pytest.approx(100 * 13 / 16) and result["Nbc(Ncc-I)"] == pytest.approx(25.0)


def test_the_run_imports_no_scikit_learn_and_prints_the_summary():
    code = ("import sys\nfrom credalbook.book.experiments.jncc2 import main\nmain(['run', 'contact-lenses'])\n"
            "print('sklearn' in sys.modules, 'scipy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0].startswith("contact-lenses NbcAcc") and "NccDeterm" in out[0]
    assert out[1].startswith("loop_seconds ") and out[2] == "False False"


def test_pair_needs_the_jar(capsys):
    with pytest.raises(SystemExit):
        jncc2.main(["pair", "iris", "--jar", ""])
    assert "CREDALBOOK_JNCC2_JAR" in capsys.readouterr().err


def test_the_pairing_reads_the_collections_file_of_a_dataset_two_groups_share():
    # credit-a is in Zaffalon et al.'s collection and in Ferri et al.'s, each with its own file
    assert jncc2._arff_file("credit-a").as_posix().endswith("uci/credit-a.arff")
    assert jncc2._arff_file("credit-a", group="ferri2019").as_posix().endswith("ferri2019/data/credit-a.arff")
    with pytest.raises(ValueError, match="not a dataset of group"):
        jncc2._arff_file("no-such-dataset")


def test_the_copy_for_jncc2_drops_spaces_from_quoted_names_only(tmp_path):
    source = tmp_path / "in.arff"
    source.write_text("@relation 'vowel data'\n@attribute 'Speaker Number' { Andrew, Bill}\n"
                      "@attribute \"Feature 0\" real\n@attribute plain numeric\n@data\n'Andrew x',1.5,2\n")
    jncc2.jncc2_arff(source, tmp_path / "out.arff")
    assert (tmp_path / "out.arff").read_text().splitlines() == [
        "@relation vowel_data", "@attribute Speaker_Number { Andrew, Bill}", "@attribute Feature_0 real",
        "@attribute plain numeric", "@data", "'Andrew x',1.5,2"]


def test_a_failed_timed_run_raises_with_its_message(tmp_path):
    """JNCC2 exits 0 after refusing a file: the pairing checks that its results file was written."""
    command = [sys.executable, "-c", "print('Non nominal features should be declared')"]
    with pytest.raises(RuntimeError, match="no ResultsTable.csv"):
        jncc2._seconds(command, tmp_path, tmp_path / "ResultsTable.csv")
    with pytest.raises(RuntimeError, match="exit 3"):
        jncc2._seconds([sys.executable, "-c", "raise SystemExit(3)"], tmp_path)
    wall, cpu, loop = jncc2._seconds([sys.executable, "-c", "sum(range(3_000_000))"], tmp_path)
    assert wall > 0 and 0 < cpu < 10 * wall and loop is None
    _, _, loop = jncc2._seconds([sys.executable, "-c", "print('summary'); print('loop_seconds 0.25')"], tmp_path)
    assert loop == 0.25
