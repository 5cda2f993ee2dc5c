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
    display = CostCurveDisplay.from_predictions(Y, S, methods=("test-optimal", "score-driven"), gammas=(np.inf, 4.0),
                                                n_grid=201)
    for method in ("test-optimal", "score-driven"):
        for gamma in (np.inf, 4.0):
            np.testing.assert_allclose(display.curves[(method, gamma)],
                                       costspace.expected_cost_curve(Y, S, method, gamma, display.c), atol=1e-12)
            assert display.losses[(method, gamma)] == pytest.approx(costspace.expected_loss(Y, S, method, gamma))
    assert len(display.ax_.get_lines()) == 4 and "score-driven, γ = ∞" in display.ax_.get_legend().texts[2].get_text()


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
                                              methods=("train-optimal",), gammas=(np.inf,))
    expected = costspace.expected_loss((y[40:] == "pos").astype(int), model.predict_proba(X[40:])[:, 1],
                                       "train-optimal", np.inf, y_train=(y[:40] == "pos").astype(int),
                                       s_train=model.predict_proba(X[:40])[:, 1])
    assert display.losses[("train-optimal", np.inf)] == pytest.approx(expected)


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
    display = ProbabilisticConfusionMatrixDisplay.from_predictions(truth, proba, labels=["no", "yes"])
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
        with pytest.raises(ValueError, match="labels has 3 names for 2 classes"):
            ProbabilisticConfusionMatrixDisplay.from_predictions([0, 1], np.eye(2), labels=["a", "b", "c"])

    def test_unknown_method(self):
        with pytest.raises(ValueError, match="method must be one of"):
            CostCurveDisplay.from_predictions(Y, S, methods=("guess",))

    def test_empty_sets(self):
        with pytest.raises(ValueError, match="empty"):
            SetSizeDisplay.from_predictions([0, 1], np.array([[True, False], [False, False]]))
