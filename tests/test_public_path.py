"""The public estimator path of JNCC2's protocol, and the shortcuts that make it cheap: the same numbers and checks."""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.utils.validation import validate_data

from credalbook.book.experiments import jncc2
from credalbook.classifiers import NaiveCredalClassifier
from credalbook.data import load
from credalbook.discrete import _plain_feature_names, check_discrete_X, validated_input
from credalbook.preprocessing import MDLDiscretizer


@pytest.mark.parametrize("dataset", ["credit-a", "labor", "soybean"])
def test_the_public_path_gives_the_array_cores_ncc_sums(dataset):
    # numeric and nominal features, missing values, a class absent from some training folds (soybean)
    data = load(dataset, group="zaffalon2012")
    core = jncc2.cross_validate_naive(data.X, data.y, runs=[2])
    public = jncc2.cross_validate_public(data.X, data.y, runs=[2])
    assert public["run"].tolist() == [2] * 10 and public["fold"].tolist() == list(range(10))
    for key in jncc2.NCC_COLUMNS:
        np.testing.assert_array_equal(public[key], core[key], err_msg=key)
    assert set(public) == {"run", "fold", *jncc2.NCC_COLUMNS}


def test_the_summary_of_the_public_sums_has_nccs_quantities_only():
    folds = {"n_test": np.array([10, 10]), "ncc_determinate": np.array([8, 8]),
             "ncc_single_correct": np.array([7, 7]), "ncc_set_hits": np.array([2, 1]),
             "ncc_indeterminate_size": np.array([4, 5])}
    result = jncc2.summary(folds)
    assert list(result) == ["NccDeterm", "NccSingleAcc", "NccSetAcc", "NccIndetOutSize"]
    assert result["NccDeterm"] == pytest.approx(80.0) and result["NccSetAcc"] == pytest.approx(75.0)
    with pytest.raises(ValueError, match="lack the sums"):
        jncc2.summary({"n_test": np.array([10])})


def test_the_public_command_prints_nccs_summary(capsys):
    assert jncc2.main(["public", "contact-lenses"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("contact-lenses NccDeterm") and "NbcAcc" not in line


def test_the_pairing_times_the_public_path_beside_the_core_and_jncc2(monkeypatch):
    # (wall, cpu, loop) of each program: the loop is what the run printed as loop_seconds (JNCC2 prints none)
    seconds = {"run": (2.0, 1.0, 1.5), "public": (3.0, 2.0, 1.8), "public nothing": (2.5, 1.5, 0.3),
               "jncc2": (4.0, 5.0, None)}
    called = []

    def fake(command, cwd, expected=None):
        name = "jncc2" if command[-1] == "cv" else (command[-3] + " nothing" if command[-1] == "--do-nothing"
                                                     else command[-2])
        called.append(name)
        return seconds[name]

    monkeypatch.setattr(jncc2, "_seconds", fake)
    row, = jncc2.pair(["iris"], "jncc2.jar", repeats=2)
    assert called == ["run", "public", "public nothing", "jncc2"] * 3     # a warm-up round, then two, in turn
    assert row["book_seconds"] == 2.0 and row["public_seconds"] == 3.0 and row["jncc2_seconds"] == 4.0
    assert row["ratio"] == pytest.approx(0.5) and row["public_ratio"] == pytest.approx(0.75)
    assert row["public_cpu_ratio"] == pytest.approx(0.4) and row["public_core_ratio"] == pytest.approx(1.5)
    # the loops: public / book 1.8 / 1.5; what the estimators add to the do-nothing loop (1.8 - 0.3) / 1.5
    assert row["book_loop_seconds"] == 1.5 and row["do_nothing_loop_seconds"] == 0.3
    assert row["public_core_loop_ratio"] == pytest.approx(1.2) and row["estimators_core_ratio"] == pytest.approx(1.0)
    # start-ups: wall less loop
    assert row["book_start_seconds"] == pytest.approx(0.5) and row["public_start_seconds"] == pytest.approx(1.2)
    called.clear()
    row, = jncc2.pair(["iris"], "jncc2.jar", repeats=1, public=False)
    assert "public_seconds" not in row and called == ["run", "jncc2"] * 2


@pytest.mark.parametrize("command", ["run", "public"])
def test_each_run_prints_the_seconds_of_its_loop_and_no_runs_is_the_start_up_alone(command, capsys):
    assert jncc2.main([command, "contact-lenses"]) == 0
    summary, loop = capsys.readouterr().out.strip().split("\n")
    assert summary.startswith("contact-lenses Ncc" if command == "public" else "contact-lenses Nbc")
    assert loop.startswith("loop_seconds ") and 0 < float(loop.split()[1]) < 60
    assert jncc2.main([command, "contact-lenses", "--runs", "0"]) == 0
    assert capsys.readouterr().out.startswith("loop_seconds ")
    data = load("contact-lenses", group="zaffalon2012")
    folds = (jncc2.cross_validate_public if command == "public" else jncc2.cross_validate_naive)(data.X, data.y,
                                                                                                 runs=())
    assert all(values.size == 0 for values in folds.values()) and {"run", "fold", "n_test"} <= set(folds)
    with pytest.raises(SystemExit):
        jncc2.main([command, "contact-lenses", "--runs", "-1"])
    assert "--runs must be 0 or more" in capsys.readouterr().err


@pytest.mark.parametrize("command, function", [("run", "cross_validate_naive"), ("public", "cross_validate_public")])
def test_the_timed_loop_starts_after_the_imports(command, function, monkeypatch, capsys):
    """A first call with no runs makes the function's imports (scikit-learn's) before the clock starts."""
    calls, real = [], getattr(jncc2, function)

    def spy(X, y, *, runs, **options):
        calls.append(list(runs))
        return real(X, y, runs=runs, **options)

    monkeypatch.setattr(jncc2, function, spy)
    jncc2.main([command, "contact-lenses", "--runs", "2"])
    assert calls == [[], [0, 1]]
    assert float(capsys.readouterr().out.split("loop_seconds ")[1]) > 0


def test_the_do_nothing_pipeline_scores_every_fold_as_vacuous(capsys):
    data = load("contact-lenses", group="zaffalon2012")
    folds = jncc2.cross_validate_public(data.X, data.y, runs=[0], do_nothing=True)
    # every set holds all three classes: no determinate output, every set a hit of size 3
    assert folds["ncc_determinate"].sum() == 0 and (folds["ncc_set_hits"] == folds["n_test"]).all()
    assert (folds["ncc_indeterminate_size"] == 3 * folds["n_test"]).all() and folds["n_test"].sum() == 24
    assert jncc2.main(["public", "contact-lenses", "--do-nothing"]) == 0
    assert capsys.readouterr().out.startswith("contact-lenses NccDeterm 0.00")


def test_the_hot_path_through_the_public_pipeline_computes_what_its_yardstick_does():
    """The public pipeline and the array core on a DataFrame of numeric and nominal features: the same sets."""
    from credalbook.book import performance

    path = performance.HOT_PATHS["NCC public pipeline"]
    largest = []
    for k in path.ks:
        data = path.setup(path.sizes[0], k, np.random.default_rng(1))
        sets, _ = path.run(data)
        core_sets, _ = path.yardstick(data)
        assert sets.shape == (1_000, k)
        np.testing.assert_array_equal(sets, core_sets)
        largest.append(sets.sum(axis=1).max())
    assert max(largest) > 1      # some indeterminate outputs


def _frame(columns):
    return pd.DataFrame({name: pd.Categorical([0, 1, 0, 1], categories=[0, 1]) for name in columns})


def test_plain_feature_names_are_recorded_as_scikit_learn_records_them():
    X = _frame(["a", "b"])
    ours, theirs = NaiveCredalClassifier(), NaiveCredalClassifier()
    assert _plain_feature_names(ours, X, reset=True)
    validate_data(theirs, X, skip_check_array=True, reset=True)
    assert ours.n_features_in_ == theirs.n_features_in_ == 2
    assert ours.feature_names_in_.dtype == theirs.feature_names_in_.dtype == object
    np.testing.assert_array_equal(ours.feature_names_in_, theirs.feature_names_in_)
    assert _plain_feature_names(ours, X, reset=False)


@pytest.mark.parametrize("columns", [["b", "a"], ["a", "c"], ["a"], [0, 1], ["a", 1]])
def test_feature_names_other_than_fits_go_to_scikit_learns_checks(columns):
    model = NaiveCredalClassifier()
    validated_input(model, _frame(["a", "b"]), reset=True)
    assert not _plain_feature_names(model, _frame(columns), reset=False)
    with pytest.raises((ValueError, TypeError)) if columns != [0, 1] else pytest.warns(UserWarning):
        validated_input(model, _frame(columns), reset=False)


def test_a_model_fitted_on_an_array_warns_on_a_frame_as_scikit_learn_does():
    model = NaiveCredalClassifier().fit(np.array([[0, 1], [1, 0], [0, 0], [1, 1]]), [0, 1, 0, 1])
    with pytest.warns(UserWarning, match="was fitted without feature names"):
        model.predict(_frame(["a", "b"]))


def test_fit_transform_is_fit_then_transform():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"x": rng.normal(size=60), "c": pd.Categorical(rng.choice(["p", "q", "r"], 60)),
                      "s": rng.choice(["u", "v"], 60), "k": rng.integers(0, 3, 60)})
    X.loc[3, "x"] = np.nan
    y = (X["x"].fillna(0) > 0).astype(int).to_numpy() + (X["c"] == "p").to_numpy()
    for make in (lambda: MDLDiscretizer(nominal=["s", "k"]), lambda: MDLDiscretizer(nominal=["s", "k"]).set_output(
            transform="pandas")):
        once, twice = make().fit_transform(X, y), make().fit(X, y).transform(X)
        pd.testing.assert_frame_equal(once, twice)
        assert [once[c].cat.categories.tolist() for c in once] == [list(range(len(once[c].cat.categories)))
                                                                  for c in once]
    array = X[["x", "k"]].to_numpy(dtype=float)
    np.testing.assert_array_equal(MDLDiscretizer().fit_transform(array, y),
                                  MDLDiscretizer().fit(array, y).transform(array))
    pandas = MDLDiscretizer().set_output(transform="pandas")
    pd.testing.assert_frame_equal(pandas.fit_transform(array, y), pandas.fit(array, y).transform(array))
    assert pandas.fit_transform(array, y).columns.tolist() == ["x0", "x1"]
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'y'"):
        MDLDiscretizer().fit_transform(array)


def test_frame_coding_reads_each_categorical_in_the_categories_of_fit():
    X = pd.DataFrame({"c": pd.Categorical(["b", "a", None], categories=["a", "b"]), "n": [1.0, np.nan, 0.0]})
    codes, n_values, categories = check_discrete_X(X)
    assert codes.tolist() == [[1, 1], [0, -1], [-1, 0]] and n_values.tolist() == [2, 2]
    later = pd.DataFrame({"c": pd.Categorical(["a", "z", "b"], categories=["z", "b", "a"]), "n": [0.0, 1.0, 2.0]})
    recoded, _, _ = check_discrete_X(later, n_values=n_values, categories=categories)
    assert recoded.tolist() == [[0, 0], [-1, 1], [1, -1]]      # 'z' unseen, 2 beyond the values of fit: missing
    with pytest.raises(ValueError, match="X column 'c' has values unseen in fit, e.g. 'z'"):
        check_discrete_X(later, n_values=n_values, categories=categories, unseen="error")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_discrete_X(later, n_values=n_values, categories=categories)


def test_the_forests_prediction_in_blocks_of_rows_is_the_whole_arrays_bit_for_bit(monkeypatch):
    from credalbook.classifiers import NestedDichotomyForest
    from credalbook.classifiers import nested_dichotomies

    rng = np.random.default_rng(1)
    y = rng.integers(0, 4, 300)
    X = np.where(rng.random((300, 5)) < 0.6, (y[:, None] + np.arange(5)) % 3, rng.integers(0, 3, (300, 5)))
    x = rng.integers(0, 3, (400, 5))
    x[rng.random(x.shape) < 0.05] = -1
    forest = NestedDichotomyForest(n_trees=12, random_state=0).fit(X, y)
    codes = forest._code_test(x)
    distinct, inverse = nested_dichotomies.distinct_rows(codes, forest.n_values_)
    lowers = forest._tree_lowers(distinct)                  # every row at once, as before the blocks
    whole_sets = nested_dichotomies.maximal_from_lower(lowers.mean(axis=0))[inverse]
    whole_scores = nested_dichotomies._worst_comparison(lowers).mean(axis=0)[inverse]
    for elements in (1, 7 * 12 * 4 ** 3, 10 ** 9):          # one row a block, seven, all
        monkeypatch.setattr(nested_dichotomies, "_FOREST_BLOCK_ELEMENTS", elements)
        sets, scores = forest._sets_and_scores(codes)
        np.testing.assert_array_equal(sets, whole_sets)
        np.testing.assert_array_equal(scores, whole_scores)
        assert np.array_equal(forest.predict_set(x), whole_sets)
        index = np.argmax(np.where(whole_sets, whole_scores, -np.inf), axis=1)
        assert np.array_equal(forest.predict_index(x), index)
        assert np.array_equal(forest.predict_with_set(x)[1], index)
        assert np.array_equal(forest.predict(x), forest.classes_[index])


def test_duplicate_column_names_are_refused_with_their_names():
    from credalbook.classifiers import NaiveCredalClassifier
    from credalbook.discrete import check_discrete_X

    X = pd.DataFrame([[0, 1, 0], [1, 0, 1]], columns=["a", "b", "a"])
    with pytest.raises(ValueError, match="X has duplicate column names: a"):
        check_discrete_X(X)
    with pytest.raises(ValueError, match="duplicate column names: a"):
        NaiveCredalClassifier().fit(X, [0, 1])
