"""Bad input to the public functions of credalbook.costspace."""
import numpy as np
import pytest

from credalbook import costspace as cs

Y = np.array([0, 1, 0, 1])
S = np.array([0.1, 0.7, 0.4, 0.9])


@pytest.mark.parametrize("function", [cs.expected_loss, lambda *a, **k: cs.expected_cost_curve(*a, c_grid=[0.5], **k)])
class TestBadInput:
    def test_one_class_sample(self, function):
        with pytest.raises(ValueError, match="y_test is a one-class sample"):
            function([1, 1, 1], [0.2, 0.4, 0.6], "score-driven", 1.0)

    def test_scores_outside_unit_interval(self, function):
        with pytest.raises(ValueError, match=r"s_test must lie in \[0, 1\]"):
            function(Y, S + 0.5, "score-driven", 1.0)
        function(Y, S + 0.5, "rate-driven", 1.0)  # ranks only: any real scores

    def test_negative_gamma(self, function):
        with pytest.raises(ValueError, match="gamma must be >= 0"):
            function(Y, S, "score-driven", -1.0)

    def test_nan_gamma(self, function):
        with pytest.raises(ValueError, match="gamma"):
            function(Y, S, "score-driven", float("nan"))

    def test_mismatched_lengths(self, function):
        with pytest.raises(ValueError, match="inconsistent numbers of instances"):
            function(Y, S[:3], "score-driven", 1.0)

    def test_unknown_method(self, function):
        with pytest.raises(ValueError, match="method must be one of"):
            function(Y, S, "optimal", 1.0)

    def test_train_optimal_without_training_sample(self, function):
        with pytest.raises(ValueError, match="need y_train and s_train"):
            function(Y, S, "train-optimal", 1.0)
        with pytest.raises(ValueError, match="y_train is a one-class sample"):
            function(Y, S, "train-optimal", 1.0, y_train=[0, 0], s_train=[0.1, 0.2])

    def test_labels_outside_classes(self, function):
        with pytest.raises(ValueError, match="outside the 2 classes"):
            function([0, 1, 2, 1], S, "score-driven", 1.0)


def test_bad_c_grid():
    with pytest.raises(ValueError, match=r"c_grid must lie in \[0, 1\]"):
        cs.expected_cost_curve(Y, S, "score-driven", 1.0, [0.2, 1.5])
    with pytest.raises(ValueError, match="c_grid is empty"):
        cs.expected_loss(Y, S, "score-driven", 1.0, c_grid=[])


def test_measures_reject_bad_input():
    for f in (cs.brier_score, cs.mean_absolute_error, cs.auc, cs.brier_decomposition, cs.pav_calibrate, cs.cost_lines):
        with pytest.raises(ValueError, match="one-class"):
            f([0, 0], [0.1, 0.2])
        with pytest.raises(ValueError, match="inconsistent"):
            f([0, 1], [0.1])
        with pytest.raises(ValueError, match="NaN"):
            f([0, 1], [0.1, np.nan])


def test_loss_and_monte_carlo_reject_bad_input():
    with pytest.raises(ValueError, match="one-class"):
        cs.loss([1, 1], [0.1, 0.2], 0.5, 0.5)
    with pytest.raises(ValueError, match="n_draws"):
        cs.monte_carlo_cost_curve(Y, S, "score-driven", 1.0, [0.5], n_draws=0)
    with pytest.raises(ValueError, match="gamma"):
        cs.monte_carlo_cost_curve(Y, S, "score-driven", -2, [0.5])


def test_quadrature_rejects_bad_gamma():
    with pytest.raises(ValueError, match="gamma must be >= 0"):
        cs.c_quadrature(-1.0)
    with pytest.raises(ValueError, match="gamma must be finite"):
        cs.c_quadrature(np.inf)
    nodes, weights = cs.c_quadrature(4.0)
    assert weights.sum() == pytest.approx(1.0) and nodes.min() > 0 and nodes.max() < 1


def test_monte_carlo_loss_checks_its_arguments():
    selection = cs.threshold_selection(Y, S, "score-driven")
    with pytest.raises(TypeError, match="ThresholdSelection"):
        cs.monte_carlo_loss("score-driven", 1.0, 100)
    with pytest.raises(ValueError, match="n_draws"):
        cs.monte_carlo_loss(selection, 1.0, 1)
    with pytest.raises(ValueError, match="gamma"):
        cs.monte_carlo_loss(selection, -1.0, 100)
    mean, se = cs.monte_carlo_loss(selection, 4.0, 200_000, seed=3)
    assert abs(mean - selection.loss(4.0)) < 4 * se
