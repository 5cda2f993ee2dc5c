"""Display objects: the numbers they plot equal the package's functions; they draw on given or new axes."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402

from credalbook import certainty, costspace, stats  # noqa: E402
from credalbook.display import (BrierCurveDisplay, CostCurveDisplay, CriticalDifferenceDisplay,  # noqa: E402
                                ProbabilisticConfusionMatrixDisplay, SetSizeDisplay)
from credalbook.style import COLUMN_WIDTH  # noqa: E402

Y = np.array([0, 0, 1, 1, 0, 1, 1, 0])
S = np.array([0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.6, 0.55])


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_cost_curves_equal_the_package_and_their_areas_the_expected_loss():
    # pos_label 1 (the default for labels 0/1) is the positive class, Ferri et al.'s class 0: their labels are
    # 1 - Y and the score of their class 1 is 1 - S (c is the cost of missing a positive, as in deployment_threshold)
    display = CostCurveDisplay.from_predictions(Y, S, methods=("test-optimal", "score-driven"), gammas=(np.inf, 4.0),
                                                n_grid=200)  # c = k/199 is never a score: no jump on the grid
    assert display.pos_label == 1
    for method in ("test-optimal", "score-driven"):
        for gamma in (np.inf, 4.0):
            np.testing.assert_allclose(display.curves[(method, gamma)],
                                       costspace.expected_cost_curve(1 - Y, 1 - S, method, gamma, display.c),
                                       atol=1e-12)
            # naming the other class positive mirrors the curve in c and keeps its area
            mirrored = costspace.expected_cost_curve(Y, S, method, gamma, display.c)[::-1]
            np.testing.assert_allclose(display.curves[(method, gamma)], mirrored, atol=1e-9)
            assert display.losses[(method, gamma)] == pytest.approx(costspace.expected_loss(Y, S, method, gamma))
    assert len(display.ax_.get_lines()) == 4 and "score-driven, γ = ∞" in display.ax_.get_legend().texts[2].get_text()


def test_cost_curves_in_ferri_et_al_s_convention_name_class_0_positive():
    # labels 0/1 with s the score of class 1, class 0 positive (the book's Part VI): pos_label=0 and 1 - s
    y_train, s_train = Y[::-1], S[::-1]
    display = CostCurveDisplay.from_predictions(Y, 1 - S, pos_label=0, y_train=y_train, y_train_score=1 - s_train,
                                                n_grid=201, plot=False)
    assert len(display.curves) == 8
    for (method, gamma), curve in display.curves.items():
        np.testing.assert_allclose(curve, costspace.expected_cost_curve(Y, S, method, gamma, display.c, y_train=y_train,
                                                                        s_train=s_train), atol=1e-12)


def test_cost_curves_read_string_labels_as_scikit_learn_does():
    words = np.where(Y == 1, "spam", "ham")
    by_index = CostCurveDisplay.from_predictions(Y, S, y_train=Y, y_train_score=S, n_grid=101, plot=False)
    by_word = CostCurveDisplay.from_predictions(words, S, pos_label="spam", y_train=words, y_train_score=S, n_grid=101,
                                                plot=False)
    assert list(by_word.curves) == list(by_index.curves) and len(by_index.curves) == 8
    for key, curve in by_index.curves.items():
        np.testing.assert_array_equal(by_word.curves[key], curve)
        assert by_word.losses[key] == by_index.losses[key]
    by_one_two = CostCurveDisplay.from_predictions(Y + 1, S, pos_label=2, y_train=Y + 1, y_train_score=S, n_grid=101,
                                                   plot=False)
    for key, curve in by_index.curves.items():
        np.testing.assert_array_equal(by_one_two.curves[key], curve)
    with pytest.raises(ValueError, match="pass pos_label="):
        CostCurveDisplay.from_predictions(words, S)
    with pytest.raises(ValueError, match="pass pos_label="):  # labels 1/2: no class is silently positive
        CostCurveDisplay.from_predictions(Y + 1, S)
    with pytest.raises(ValueError, match="pos_label 'eggs' is not a label of y_true"):
        CostCurveDisplay.from_predictions(words, S, pos_label="eggs")


def test_the_brier_curve_has_area_bs():
    display = BrierCurveDisplay.from_predictions(Y, S)
    assert list(display.curves) == [("score-driven", np.inf)]
    assert display.losses[("score-driven", np.inf)] == pytest.approx(costspace.brier_score(Y, S))


def test_train_optimal_from_an_estimator_uses_the_training_scores():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 2))
    y = np.where(X[:, 0] + rng.normal(size=80) > 0, "pos", "neg")
    model = LogisticRegression().fit(X[:40], y[:40])
    display = CostCurveDisplay.from_estimator(model, X[40:], y[40:], X_train=X[:40], y_train=y[:40],
                                              methods=("train-optimal",), gammas=(np.inf,), n_grid=200)
    assert display.pos_label == "pos"  # classes_[1], as scikit-learn's displays default
    # Ferri et al.'s class 0 is the positive class, their score that of the other class
    expected = costspace.expected_cost_curve((y[40:] == "neg").astype(int), model.predict_proba(X[40:])[:, 0],
                                             "train-optimal", np.inf, display.c, y_train=(y[:40] == "neg").astype(int),
                                             s_train=model.predict_proba(X[:40])[:, 0])
    np.testing.assert_allclose(display.curves[("train-optimal", np.inf)], expected, atol=1e-12)
    other = CostCurveDisplay.from_estimator(model, X[40:], y[40:], X_train=X[:40], y_train=y[:40], pos_label="neg",
                                            methods=("train-optimal",), gammas=(np.inf,), n_grid=200, plot=False)
    # mirrored in c (the ends, where the optimal threshold ties, left out)
    np.testing.assert_allclose(other.curves[("train-optimal", np.inf)][1:-1], expected[::-1][1:-1], atol=1e-9)
    assert other.losses[("train-optimal", np.inf)] == pytest.approx(display.losses[("train-optimal", np.inf)])


def test_critical_difference_display_by_hand():
    scores = pd.DataFrame({"A": [0.9, 0.8, 0.85, 0.7], "B": [0.8, 0.7, 0.8, 0.6], "C": [0.5, 0.6, 0.4, 0.65]})
    display = CriticalDifferenceDisplay.from_scores(scores)
    assert display.ranks.to_dict() == {"A": 1.0, "B": 2.25, "C": 2.75}
    assert display.critical_difference == pytest.approx(stats.nemenyi_critical_difference(3, 4))
    # CD = 2.343 sqrt(3 * 4 / (6 * 4)) = 1.66: A-B (1.25) and B-C (0.5) are joined, A-C (1.75) is not
    assert display.groups == [(0, 1), (1, 2)]
    assert display.figure_.get_size_inches()[0] == pytest.approx(COLUMN_WIDTH)  # the text column: never shrunk


def test_probabilistic_confusion_matrix_display():
    proba = np.array([[0.7, 0.3], [0.4, 0.6], [0.2, 0.8], [0.9, 0.1]])
    truth = np.array([0, 0, 1, 1])
    display = ProbabilisticConfusionMatrixDisplay.from_predictions(truth, proba, display_labels=["no", "yes"])
    assert display.labels == ["no", "yes"]
    np.testing.assert_allclose(display.probabilistic, certainty.probabilistic_confusion_matrix(truth, proba))
    np.testing.assert_array_equal(display.confusion, [[1, 1], [1, 1]])
    assert len(display.ax_) == 2 and display.ax_[1].get_title() == "CM* (probabilities)"


def test_set_size_display_by_hand():
    sets = np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1], [0, 1, 0], [1, 1, 1]], dtype=bool)
    truth = np.array([0, 2, 2, 0, 1])
    display = SetSizeDisplay.from_predictions(truth, sets)
    np.testing.assert_allclose(display.share, [3 / 5, 1 / 5, 1 / 5])
    np.testing.assert_allclose(display.hit_rate, [2 / 3, 0.0, 1.0])


def test_displays_draw_on_given_axes_and_can_skip_plotting():
    _, ax = plt.subplots()
    display = SetSizeDisplay.from_predictions(np.array([0, 1]), np.eye(2, dtype=bool), ax=ax)
    assert display.ax_ is ax
    quiet = CostCurveDisplay.from_predictions(Y, S, methods=("score-driven",), gammas=(np.inf,), plot=False)
    assert not hasattr(quiet, "ax_") and quiet.plot().ax_ is not None


class TestBadInput:
    def test_cost_curves_need_a_binary_estimator(self):
        from sklearn.datasets import load_iris

        X, y = load_iris(return_X_y=True)
        with pytest.raises(ValueError, match="cost curves need a binary classifier"):
            CostCurveDisplay.from_estimator(LogisticRegression(max_iter=500).fit(X, y), X, y)

    def test_labels_of_the_wrong_length(self):
        with pytest.raises(ValueError, match="display_labels has 3 names for 2 classes"):
            ProbabilisticConfusionMatrixDisplay.from_predictions([0, 1], np.eye(2), display_labels=["a", "b", "c"])
        with pytest.raises(ValueError, match="labels has 3 classes"):
            ProbabilisticConfusionMatrixDisplay.from_predictions([0, 1], np.eye(2), labels=["a", "b", "c"])
        with pytest.raises(ValueError, match="pass display_labels="):
            ProbabilisticConfusionMatrixDisplay.from_predictions([0, 1], np.eye(2), labels=["a", "b"])

    def test_unknown_method(self):
        with pytest.raises(ValueError, match="methods must name some of"):
            CostCurveDisplay.from_predictions(Y, S, methods=("guess",))

    def test_empty_sets(self):
        with pytest.raises(ValueError, match="empty"):
            SetSizeDisplay.from_predictions([0, 1], np.array([[True, False], [False, False]]))


# ---------------------------------------------------------------- labels as scikit-learn's metrics take them
PROBA3 = np.array([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.1, 0.8], [0.3, 0.4, 0.3], [0.6, 0.3, 0.1]])
TRUTH3 = np.array([0, 1, 2, 2, 1])
SETS3 = np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1], [1, 1, 1], [0, 0, 1]], dtype=bool)


@pytest.mark.parametrize("classes", [["a", "b", "c"], [1, 2, 3], [True, False, "x"]], ids=["strings", "1..K", "mixed"])
def test_the_probabilistic_confusion_matrix_reads_labels(classes):
    by_index = ProbabilisticConfusionMatrixDisplay.from_predictions(TRUTH3, PROBA3, plot=False)
    y = [classes[k] for k in TRUTH3]
    by_label = ProbabilisticConfusionMatrixDisplay.from_predictions(y, PROBA3, labels=classes, plot=False)
    np.testing.assert_array_equal(by_label.probabilistic, by_index.probabilistic)
    np.testing.assert_array_equal(by_label.confusion, by_index.confusion)
    assert by_label.labels == classes and by_index.labels == [0, 1, 2]
    np.testing.assert_allclose(by_index.probabilistic.sum(axis=1), [1, 2, 2])  # rows: instances of each class


def test_labels_1_to_k_without_labels_are_refused_not_shifted():
    with pytest.raises(ValueError, match="labels 1..3, not class indices"):
        ProbabilisticConfusionMatrixDisplay.from_predictions(TRUTH3 + 1, PROBA3, plot=False)
    with pytest.raises(ValueError, match="labels 1..3, not class indices"):
        SetSizeDisplay.from_predictions(TRUTH3 + 1, SETS3, plot=False)


@pytest.mark.parametrize("classes", [["a", "b", "c"], [1, 2, 3]], ids=["strings", "1..K"])
def test_the_set_size_display_reads_labels(classes):
    by_index = SetSizeDisplay.from_predictions(TRUTH3, SETS3, plot=False)
    by_label = SetSizeDisplay.from_predictions([classes[k] for k in TRUTH3], SETS3, labels=classes, plot=False)
    np.testing.assert_array_equal(by_label.share, by_index.share)
    np.testing.assert_array_equal(by_label.hit_rate, by_index.hit_rate)
    np.testing.assert_allclose(by_index.share, [3 / 5, 1 / 5, 1 / 5])  # sizes 1, 2, 3
    np.testing.assert_allclose(by_index.hit_rate, [2 / 3, 1.0, 1.0])


def test_the_set_size_display_reads_empty_sets_by_policy():
    sets = SETS3.copy()
    sets[1] = False  # an empty set (a conformal set may be empty)
    with pytest.raises(ValueError, match="empty='miss'"):
        SetSizeDisplay.from_predictions(TRUTH3, sets, plot=False)
    missed = SetSizeDisplay.from_predictions(TRUTH3, sets, empty="miss", plot=False)
    assert missed.sizes.tolist() == [0, 1, 2, 3]
    np.testing.assert_allclose(missed.share, [1 / 5, 3 / 5, 0, 1 / 5])
    np.testing.assert_allclose(missed.hit_rate[:2], [0.0, 2 / 3])
    vacuous = SetSizeDisplay.from_predictions(TRUTH3, sets, empty="vacuous", plot=False)
    np.testing.assert_allclose(vacuous.share, [3 / 5, 0, 2 / 5])
    np.testing.assert_allclose(vacuous.hit_rate[[0, 2]], [2 / 3, 1.0])


def test_from_estimator_maps_the_estimator_s_labels():
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    model = LogisticRegression(max_iter=500).fit(X, names)
    pcm = ProbabilisticConfusionMatrixDisplay.from_estimator(model, X, names, plot=False)
    by_index = ProbabilisticConfusionMatrixDisplay.from_predictions(y, model.predict_proba(X), plot=False)
    np.testing.assert_array_equal(pcm.probabilistic, by_index.probabilistic)
    assert pcm.labels == ["setosa", "versicolor", "virginica"]
    with pytest.raises(ValueError, match="y holds 'rose', which is not one of the estimator's classes"):
        ProbabilisticConfusionMatrixDisplay.from_estimator(model, X[:2], ["setosa", "rose"], plot=False)


def test_from_estimator_refuses_regressors_and_unfitted_classifiers():
    from sklearn.exceptions import NotFittedError
    from sklearn.linear_model import LinearRegression

    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    for display in (CostCurveDisplay, ProbabilisticConfusionMatrixDisplay, SetSizeDisplay):
        with pytest.raises(TypeError, match="estimator must be a fitted classifier"):
            display.from_estimator(LinearRegression().fit(X, [0, 1, 0, 1]), X, [0, 1, 0, 1], plot=False)
        with pytest.raises(NotFittedError):
            display.from_estimator(LogisticRegression(), X, [0, 1, 0, 1], plot=False)
