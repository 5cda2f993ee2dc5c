"""Model stand-ins and summaries of the Ferri et al. (2019) study (credalbook.book.experiments.thresholds)."""
import numpy as np
import pandas as pd
import pytest

from credalbook import costspace as cs
from credalbook.book.experiments import thresholds as th


def test_c45_pessimistic_errors_match_quinlan():
    # Quinlan (1993): U_25%(0, 6) = 0.206, U_25%(0, 9) = 0.143, U_25%(1, 16) ~ 0.157 (normal approximation 0.155)
    added = th._c45_added_errors([6, 9, 16], [0, 0, 1])
    np.testing.assert_allclose((added + [0, 0, 1]) / [6, 9, 16], [0.2063, 0.1428, 0.1547], atol=5e-4)


def test_binary_task_majority_is_class_one():
    X, y = th.binary_task("credit-a")
    assert len(y) == 690 and y.mean() == pytest.approx(383 / 690)
    train, test = th.split(y, 1)
    assert abs(y[train].mean() - y[test].mean()) < 0.01 and len(set(train) & set(test)) == 0


@pytest.mark.parametrize("model", th.MODELS)
def test_every_model_scores_in_unit_interval(model):
    ytr, s_tr, y, s = th.model_scores("credit-a", model, seed=2)
    assert s_tr.shape == ytr.shape and s.shape == y.shape
    assert np.all((s >= 0) & (s <= 1)) and np.all((s_tr >= 0) & (s_tr <= 1))
    if model in ("IBK1", "SVM"):
        assert set(np.unique(s)) <= {0.0, 1.0}
    if model == "Prior":
        assert np.unique(s).size == 1 and s[0] == pytest.approx(ytr.mean())
    if model not in ("Prior", "Random"):
        assert cs.auc(y, s) > 0.7  # credit-a is an easy problem for every learner


def test_pruning_and_laplace():
    X, y = th.binary_task("credit-a")
    enc = th.EncodedFeatures(X)
    A = enc.matrix(X, None)
    pruned = th._Tree(A, y, prune=True, laplace=False)
    unpruned = th._Tree(A, y, prune=False, laplace=True)
    assert np.unique(pruned.node(A)).size < np.unique(unpruned.node(A)).size
    s = unpruned.scores(A)
    assert 0 < s.min() and s.max() < 1  # Laplace keeps leaf scores away from 0 and 1


def test_decision_list_covers_every_instance():
    X, y = th.binary_task("vote")
    A = th.EncodedFeatures(X).matrix(X, None)
    rules = th._DecisionList(A, y)
    s = rules.scores(A)
    assert len(rules.rules) >= 1 and np.all(np.isfinite(s))
    assert cs.auc(y, s) > 0.9


def test_unknown_model_and_profile():
    X, y = th.binary_task("vote")
    with pytest.raises(ValueError, match="model must be one of"):
        th.fit_scores("C4.5", X, y, X, seed=0)
    with pytest.raises(ValueError, match="profile must be one of"):
        th.STUDY.configs("huge")


def test_evaluate_scores_and_summaries():
    rows = []
    for seed in (1, 2):
        for model in ("NB", "IBK1"):
            ytr, s_tr, y, s = th.model_scores("vote", model, seed=seed)
            for row in th.evaluate_scores(ytr, s_tr, y, s):
                rows.append({"dataset": "vote", "split": seed, "model": model, **row})
    frame = pd.DataFrame(rows)
    assert len(frame) == 2 * 2 * len(th.GAMMAS)
    certain = frame[frame["gamma"] == np.inf]
    np.testing.assert_allclose(certain["score-driven"], certain["BS"], atol=1e-12)
    np.testing.assert_allclose(certain["BS"], certain["CL"] + certain["RL"], atol=1e-12)
    table7 = th.by_model(frame)
    assert list(table7["model"]) == ["IBK1", "NB"]
    assert table7["sc_vs_tr"].between(0, 1).all()
    table8 = th.by_dataset(frame)
    assert len(table8) == 1 and table8["test-optimal"].iloc[0] <= table8["train-optimal"].iloc[0] + 1e-12


def test_nearest_neighbours_are_exact_ties_go_to_the_first_training_instance():
    from sklearn.neighbors import KNeighborsClassifier

    from credalbook.book.experiments.thresholds import EncodedFeatures, nearest_neighbour_scores

    rng = np.random.default_rng(3)
    train = pd.DataFrame({"a": rng.normal(size=60), "b": rng.normal(size=60),
                          "c": pd.Categorical(rng.choice(["x", "y", "z"], size=60))})
    y = rng.integers(0, 2, size=60)
    query = pd.DataFrame({"a": rng.normal(size=25), "b": rng.normal(size=25),
                          "c": pd.Categorical(rng.choice(["x", "y", "z"], size=25), categories=["x", "y", "z"])})
    enc = EncodedFeatures(train)
    # without ties: the same neighbours as scikit-learn's exact search on Weka's coding
    span = enc.hi - enc.lo
    code = lambda X: np.hstack([(enc._num(X) - enc.lo) / span, np.sqrt(0.5) * enc.onehot(X)])
    for k in (1, 10):
        reference = KNeighborsClassifier(n_neighbors=k, algorithm="brute").fit(code(train), y)
        np.testing.assert_allclose(nearest_neighbour_scores(enc, train, y, query, k),
                                   reference.predict_proba(code(query))[:, 1])
    # exact ties (duplicated rows with different classes): the first in training order wins,
    # whatever the chunk size
    duplicated = pd.concat([train.iloc[[5]], train.iloc[[5]], train], ignore_index=True)
    labels = np.concatenate([[1, 0], y])
    enc = EncodedFeatures(duplicated)
    for max_cells in (1, 10_000_000):
        scores = nearest_neighbour_scores(enc, duplicated, labels, duplicated.iloc[[0, 1]], 1, max_cells=max_cells)
        np.testing.assert_array_equal(scores, [1.0, 1.0])
        two = nearest_neighbour_scores(enc, duplicated, labels, duplicated.iloc[[1]], 2, max_cells=max_cells)
        np.testing.assert_array_equal(two, [0.5])


def test_platt_scaled_svm_scores_do_not_depend_on_the_global_random_state():
    """SVMp on lung-cancer (more attributes than instances: liblinear's dual solver, which shuffles): the
    split's seed fixes the scores; without it, two runs differed by 2e-5 on the test instances."""
    from credalbook.book.experiments.thresholds import _model_seed, binary_task, fit_scores, split

    X, y = binary_task("lung-cancer")
    train, test = split(y, 1)
    runs = []
    for state in (1, 2):
        np.random.seed(state)
        runs.append(fit_scores("SVMp", X.iloc[train], y[train], X.iloc[test], seed=_model_seed("lung-cancer", 1)))
    for first, second in zip(*runs):
        np.testing.assert_array_equal(first, second)


def test_nearest_are_the_first_k_of_a_stable_argsort():
    """The k smallest per row, ties to the lower column: the first k of a stable argsort, as a mask."""
    from credalbook.book.experiments.thresholds import _nearest

    squared = np.random.default_rng(0).integers(0, 4, (50, 30)).astype(float)  # many exact ties
    for k in (1, 2, 10, 29, 30, 31):
        expected = np.zeros(squared.shape, dtype=bool)
        np.put_along_axis(expected, np.argsort(squared, axis=1, kind="stable")[:, :k], True, axis=1)
        np.testing.assert_array_equal(_nearest(squared, k), expected)


def test_ranks_by_gamma_ranks_models_within_datasets_then_averages():
    """Two datasets, three models: at γ = ∞ A < B < C on d1 and B < A = C on d2 (splits averaged)."""
    from credalbook.book.experiments import thresholds as th

    rows = []
    losses = {("d1", np.inf): {"A": [0.1, 0.1], "B": [0.2, 0.2], "C": [0.3, 0.3]},
              ("d2", np.inf): {"A": [0.3, 0.1], "B": [0.1, 0.1], "C": [0.2, 0.2]},
              ("d1", 0.0): {"A": [0.3, 0.3], "B": [0.2, 0.2], "C": [0.1, 0.1]},
              ("d2", 0.0): {"A": [0.3, 0.3], "B": [0.2, 0.2], "C": [0.1, 0.1]}}
    for (dataset, gamma), by_model in losses.items():
        for model, values in by_model.items():
            for split, value in enumerate(values, 1):
                rows.append({"dataset": dataset, "split": split, "model": model, "gamma": gamma,
                             **{m: value for m in th.METHODS}})
    rows.append({"dataset": "d1", "split": 1, "model": "Prior", "gamma": np.inf, **{m: 0.0 for m in th.METHODS}})
    ranks = th.ranks_by_gamma(pd.DataFrame(rows))
    assert list(ranks.columns) == ["∞", "0"] and "Prior" not in ranks.index
    assert ranks.loc["A", "∞"] == pytest.approx((1 + 2.5) / 2)     # d2: A's mean 0.2 ties C's
    assert ranks.loc["B", "∞"] == pytest.approx((2 + 1) / 2)
    assert ranks.loc["C", "0"] == 1.0 and ranks.loc["A", "0"] == 3.0
    with pytest.raises(ValueError, match="method must be one of"):
        th.ranks_by_gamma(pd.DataFrame(rows), method="cheapest")


def test_ranks_by_gamma_and_its_figure_refuse_empty_input():
    from credalbook.book.experiments import thresholds as th

    only_baselines = pd.DataFrame([{"dataset": "d", "split": 1, "model": "Prior", "gamma": np.inf,
                                    **{m: 0.1 for m in th.METHODS}}])
    with pytest.raises(ValueError, match="no rows of a model type"):
        th.ranks_by_gamma(only_baselines)
    with pytest.raises(ValueError, match="arms must name"):
        th.plot_ranks_by_gamma({})
