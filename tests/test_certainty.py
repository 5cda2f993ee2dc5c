"""Tests of credalbook.certainty: the paper's worked example (Examples 1-13), identities, IMCP vs ``imcp``."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from credalbook import certainty as cr

# Aguilar-Ruiz (2025), Examples 1-3 and 5: labels A, A, A, B, B, C and the probabilities of Example 5.
Y = np.array([0, 0, 0, 1, 1, 2])
Q = np.array([[0.9, 0.1, 0.0], [0.8, 0.0, 0.2], [0.6, 0.1, 0.3],
              [0.4, 0.3, 0.3], [0.1, 0.8, 0.1], [0.0, 0.9, 0.1]])


class TestWorkedExample:
    def test_example_2_ground_truth(self):
        expected = [[1, 0, 0], [1, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 0], [0, 0, 1]]
        np.testing.assert_array_equal(cr.ground_truth_matrix(Y, 3), expected)

    def test_example_3_prediction_matrix(self):
        expected = [[1, 0, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 0]]
        np.testing.assert_array_equal(cr.prediction_matrix(Q), expected)

    def test_example_4_confusion_matrix_and_accuracy(self):
        cm = cr.confusion_matrix(Y, Q)
        np.testing.assert_array_equal(cm, [[3, 0, 0], [1, 1, 0], [0, 1, 0]])
        np.testing.assert_array_equal(cm, cr.ground_truth_matrix(Y, 3).T @ cr.prediction_matrix(Q))
        assert round(cr.accuracy_of(cm), 2) == 0.67

    def test_example_6_probabilistic_confusion_matrix(self):
        star = cr.probabilistic_confusion_matrix(Y, Q)
        np.testing.assert_allclose(star, [[2.3, 0.2, 0.5], [0.5, 1.1, 0.4], [0.0, 0.9, 0.1]], atol=1e-12)
        np.testing.assert_allclose(star.sum(axis=1), [3, 2, 1], atol=1e-12)  # class counts A=3, B=2, C=1
        assert star[:, 0].sum() == pytest.approx(2.8)  # "for class A ... in CM* is 2.8"
        # the paper says the column sum for class A "in CM is 3": it is 4 (3 + 1 + 0); 3 is the row sum (erratum)
        assert cr.confusion_matrix(Y, Q)[:, 0].sum() == 4

    def test_example_7_decomposition_of_q(self):
        plus, minus = cr.split_probabilities(Q)
        np.testing.assert_array_equal(plus, [[0.9, 0, 0], [0.8, 0, 0], [0.6, 0, 0], [0.4, 0, 0],
                                             [0, 0.8, 0], [0, 0.9, 0]])
        np.testing.assert_array_equal(minus, [[0, 0.1, 0], [0, 0, 0.2], [0, 0.1, 0.3], [0, 0.3, 0.3],
                                              [0.1, 0, 0.1], [0, 0, 0.1]])
        np.testing.assert_array_equal(plus + minus, Q)

    def test_example_8_certainty_and_uncertainty_matrices(self):
        s, u = cr.certainty_decomposition(Y, Q)
        np.testing.assert_allclose(s, [[2.3, 0, 0], [0.4, 0.8, 0], [0, 0.9, 0]], atol=1e-12)
        np.testing.assert_allclose(u, [[0, 0.2, 0.5], [0.1, 0.3, 0.4], [0, 0, 0.1]], atol=1e-12)
        plus, minus = cr.split_probabilities(Q)
        t = cr.ground_truth_matrix(Y, 3)
        np.testing.assert_allclose(s, t.T @ plus, atol=1e-12)
        np.testing.assert_allclose(u, t.T @ minus, atol=1e-12)

    def test_example_10_probabilistic_accuracy(self):
        star = cr.probabilistic_confusion_matrix(Y, Q)
        assert np.trace(star) == pytest.approx(3.5)
        assert round(cr.accuracy_of(star), 3) == 0.583

    def test_example_11_decomposition_of_accuracy(self):
        d = cr.accuracy_decomposition(Y, Q)
        assert d.lambda_s == pytest.approx(4.4 / 6) and round(d.lambda_s, 2) == 0.73
        assert d.lambda_u == pytest.approx(1.6 / 6) and round(d.lambda_u, 2) == 0.27
        assert d.accuracy_s == pytest.approx(3.1 / 4.4) and round(d.accuracy_s, 3) == 0.705
        assert d.accuracy_u == pytest.approx(0.4 / 1.6) and d.accuracy_u == pytest.approx(0.25)
        assert d.lambda_s * d.accuracy_s + d.lambda_u * d.accuracy_u == pytest.approx(d.probabilistic_accuracy)
        assert round(d.probabilistic_accuracy, 3) == 0.583

    def test_example_12_divergence(self):
        diff = cr.confusion_matrix(Y, Q) - cr.probabilistic_confusion_matrix(Y, Q)
        assert diff[0, 0] == pytest.approx(0.7) and diff[0, 1] == pytest.approx(-0.2)
        assert diff[2, 2] == pytest.approx(-0.1)
        assert np.sum(diff**2) == pytest.approx(1.22)
        d = cr.probabilistic_divergence(Y, Q)
        assert d == pytest.approx(np.sqrt(1.22) / 6) and round(d, 3) == 0.184

    def test_example_13_certainty_ratio(self):
        c = cr.certainty_ratio(Y, Q)
        assert c == pytest.approx((3.1 / 4.4) / (3.1 / 4.4 + 0.25))
        assert round(c, 3) == 0.738
        assert round(0.705 / (0.705 + 0.25), 3) == 0.738  # the paper's rounded inputs give the same digits


class TestMeasures:
    M = np.array([[5.0, 1.0], [2.0, 2.0]])

    def test_hand_computed(self):
        assert cr.accuracy_of(self.M) == pytest.approx(0.7)
        np.testing.assert_allclose(cr.precision_per_class(self.M), [5 / 7, 2 / 3])
        np.testing.assert_allclose(cr.recall_per_class(self.M), [5 / 6, 0.5])
        np.testing.assert_allclose(cr.f1_per_class(self.M), [10 / 13, 4 / 7])
        # binary MCC = (TP TN - FP FN) / sqrt(...)
        tp, fn, fp, tn = 5, 1, 2, 2
        mcc = (tp * tn - fp * fn) / np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
        assert cr.mcc_of(self.M) == pytest.approx(mcc)
        assert cr.measure_of(self.M, "macro_f1") == pytest.approx((10 / 13 + 4 / 7) / 2)

    def test_matches_scikit_learn_on_crisp_predictions(self):
        from sklearn import metrics

        rng = np.random.default_rng(3)
        y = rng.integers(0, 4, 200)
        q = rng.dirichlet(np.ones(4), 200)
        pred = np.argmax(q, axis=1)
        cm = cr.confusion_matrix(y, q)
        np.testing.assert_array_equal(cm, metrics.confusion_matrix(y, pred, labels=range(4)))
        assert cr.mcc_of(cm) == pytest.approx(metrics.matthews_corrcoef(y, pred))
        assert cr.measure_of(cm, "macro_f1") == pytest.approx(metrics.f1_score(y, pred, average="macro"))
        assert cr.measure_of(cm, "macro_precision") == pytest.approx(
            metrics.precision_score(y, pred, average="macro", zero_division=0))

    def test_zero_uncertainty_is_explicit(self):
        onehot = np.eye(3)[[0, 1, 2, 2]]
        y = np.array([0, 1, 2, 0])
        s, u = cr.certainty_decomposition(y, onehot)
        assert u.sum() == 0
        assert cr.accuracy_of(u) == 0.0
        assert cr.certainty_ratio(y, onehot) == 1.0
        with pytest.raises(ValueError, match="zero denominator"):
            cr.certainty_ratio(y, onehot, zero_division="raise")
        wrong = np.eye(3)[[1, 2, 0]]
        assert cr.certainty_ratio([0, 1, 2], wrong) == 0.0  # psi(S) = psi(U) = 0: zero_division
        with pytest.raises(ValueError):
            cr.certainty_ratio([0, 1, 2], wrong, zero_division="raise")

    def test_callable_measure(self):
        c = cr.certainty_ratio(Y, Q, measure=lambda m: np.trace(m) / m.sum())
        assert c == pytest.approx(cr.certainty_ratio(Y, Q))

    def test_mcc_certainty_ratio_leaves_the_unit_interval(self):
        # MCC can be negative: C = psi(S)/(psi(S)+psi(U)) is then not in [0, 1] (the book's erratum).
        table = cr.measure_table(Y, Q, measures=["mcc"])
        assert table.loc[0, "S"] > 0 and table.loc[0, "U"] > 0
        y = [1, 1, 1, 0]
        q = [[0.94, 0.06], [0.06, 0.94], [0.47, 0.53], [0.04, 0.96]]
        s, u = cr.certainty_decomposition(y, q)
        assert cr.mcc_of(s) < 0 < cr.mcc_of(u)
        assert cr.certainty_ratio(y, q, measure="mcc") > 1

    def test_ties(self):
        q = np.array([[0.4, 0.4, 0.2], [0.5, 0.5, 0.0]])
        plus, minus = cr.split_probabilities(q)
        np.testing.assert_array_equal(plus, [[0.4, 0, 0], [0.5, 0, 0]])
        plus_all, minus_all = cr.split_probabilities(q, ties="all")
        np.testing.assert_array_equal(plus_all, [[0.4, 0.4, 0], [0.5, 0.5, 0]])
        np.testing.assert_array_equal(minus_all, [[0, 0, 0.2], [0, 0, 0]])
        s, u = cr.certainty_decomposition([1, 1], q, ties="all")
        np.testing.assert_allclose(s + u, cr.probabilistic_confusion_matrix([1, 1], q))

    def test_measure_table(self):
        table = cr.measure_table(Y, Q)
        row = table.set_index("measure").loc["accuracy"]
        assert row["CM"] == pytest.approx(4 / 6) and row["CM*"] == pytest.approx(3.5 / 6)
        assert row["certainty_ratio"] == pytest.approx(cr.certainty_ratio(Y, Q))
        for measure in ["macro_precision", "macro_recall", "macro_f1", "mcc"]:
            assert table.set_index("measure").loc[measure, "certainty_ratio"] == pytest.approx(
                cr.certainty_ratio(Y, Q, measure=measure))


class TestMCP:
    def test_hellinger_closed_form(self):
        rng = np.random.default_rng(0)
        q = rng.dirichlet(np.ones(5), 100)
        y = rng.integers(0, 5, 100)
        closed = 1 - np.sqrt(1 - np.sqrt(q[np.arange(100), y]))
        np.testing.assert_allclose(cr.hellinger_scores(y, q), closed, atol=1e-12)

    def test_hand_computed_imcp(self):
        # two classes, one instance each: widths 1/(2*1); phi = 1, 1 - sqrt(1 - sqrt(0.25))
        y = np.array([0, 1])
        q = np.array([[1.0, 0.0], [0.75, 0.25]])
        phi_low = 1 - np.sqrt(0.5)
        x, curve = cr.imcp_curve(y, q)
        np.testing.assert_allclose(x, [0, 0.25, 0.75, 1])
        np.testing.assert_allclose(curve, [phi_low, phi_low, 1, 1])
        assert cr.imcp_score(y, q) == pytest.approx(0.25 * phi_low + 0.5 * (phi_low + 1) / 2 + 0.25)
        assert cr.mcp_score(y, q) == pytest.approx((phi_low + 1) / 2)

    def test_perfect_and_worst(self):
        y = np.array([0, 1, 1, 2])
        assert cr.imcp_score(y, np.eye(3)[y]) == pytest.approx(1.0)
        assert cr.imcp_score(y, np.eye(3)[(y + 1) % 3]) == pytest.approx(0.0)


@pytest.fixture(scope="module")
def imcp_package():
    """The PyPI package ``imcp`` 1.0.1, given ``np.trapz`` (removed in NumPy 2.4) for this module only."""
    imcp = pytest.importorskip("imcp")
    with pytest.MonkeyPatch.context() as patch:
        if not hasattr(np, "trapz"):
            patch.setattr(np, "trapz", np.trapezoid, raising=False)
        yield imcp


@st.composite
def predictions(draw, max_n=40, max_k=6, discrete=False):
    """(y, q): labels and an (n, k) probability matrix; ``discrete`` gives many ties (like 3-NN's thirds)."""
    n = draw(st.integers(1, max_n))
    k = draw(st.integers(2, max_k))
    if discrete:
        votes = draw(arrays(np.int64, (n, k), elements=st.integers(0, 3)))
        votes[votes.sum(axis=1) == 0, 0] = 1
        q = votes / votes.sum(axis=1, keepdims=True)
    else:
        raw = draw(arrays(np.float64, (n, k), elements=st.floats(0, 1, allow_subnormal=False)))
        raw[raw.sum(axis=1) == 0, 0] = 1.0
        q = raw / raw.sum(axis=1, keepdims=True)
    y = draw(arrays(np.int64, n, elements=st.integers(0, k - 1)))
    return y, q


@pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")  # imcp, for a class absent from y_true
class TestAgainstImcpPackage:
    def test_random_inputs(self, imcp_package):
        imcp = imcp_package
        rng = np.random.default_rng(2025)
        for trial in range(300):
            k = int(rng.integers(2, 12))
            n = int(rng.integers(2, 400))
            q = rng.dirichlet(np.full(k, rng.uniform(0.1, 3)), n)
            y = rng.integers(0, k, n)
            labels = list(range(k))
            assert cr.imcp_score(y, q) == pytest.approx(imcp.imcp_score(y, q, labels=labels), abs=1e-9)
            assert cr.mcp_score(y, q) == pytest.approx(imcp.mcp_score(y, q, labels=labels), abs=1e-9)

    @settings(max_examples=300, deadline=None)
    @given(data=predictions(discrete=True))
    def test_tied_inputs(self, imcp_package, data):
        y, q = data
        labels = list(range(q.shape[1]))
        assert cr.imcp_score(y, q) == pytest.approx(imcp_package.imcp_score(y, q, labels=labels), abs=1e-9)
        if y.size >= 2:
            assert cr.mcp_score(y, q) == pytest.approx(imcp_package.mcp_score(y, q, labels=labels), abs=1e-9)

    def test_real_classifier_outputs(self, imcp_package):
        imcp = imcp_package
        from sklearn.datasets import load_iris, load_wine
        from sklearn.model_selection import cross_val_predict
        from sklearn.naive_bayes import GaussianNB
        from sklearn.neighbors import KNeighborsClassifier
        from sklearn.tree import DecisionTreeClassifier

        for loader in (load_iris, load_wine):
            X, y = loader(return_X_y=True)
            for model in (KNeighborsClassifier(3), GaussianNB(), DecisionTreeClassifier(random_state=0)):
                q = cross_val_predict(model, X, y, cv=5, method="predict_proba")
                assert cr.imcp_score(y, q) == pytest.approx(imcp.imcp_score(y, q), abs=1e-9)
                assert cr.mcp_score(y, q) == pytest.approx(imcp.mcp_score(y, q), abs=1e-9)


    def test_paper_datasets(self, imcp_package):
        from credalbook.book.experiments.certainty import out_of_fold_proba

        for dataset in ("fertility", "vertebral-column-3c"):
            for classifier in ("3-NN", "Decision Tree", "Random Forest"):
                oof = out_of_fold_proba(dataset, classifier)
                y, q = oof["y"], oof["proba"]
                assert cr.imcp_score(y, q) == pytest.approx(imcp_package.imcp_score(y, q), abs=1e-9)
                assert cr.mcp_score(y, q) == pytest.approx(imcp_package.mcp_score(y, q), abs=1e-9)


class TestIdentities:
    @settings(max_examples=200, deadline=None)
    @given(data=predictions())
    def test_row_sums_and_decomposition(self, data):
        y, q = data
        k = q.shape[1]
        star = cr.probabilistic_confusion_matrix(y, q)
        np.testing.assert_allclose(star.sum(axis=1), np.bincount(y, minlength=k), atol=1e-9)
        s, u = cr.certainty_decomposition(y, q)
        np.testing.assert_allclose(s + u, star, atol=1e-9)
        assert s.sum() + u.sum() == pytest.approx(y.size)
        t = cr.ground_truth_matrix(y, k)
        np.testing.assert_allclose(star, t.T @ q, atol=1e-9)
        np.testing.assert_allclose(cr.confusion_matrix(y, q), t.T @ cr.prediction_matrix(q))

    @settings(max_examples=200, deadline=None)
    @given(data=predictions())
    def test_accuracy_decomposition(self, data):
        y, q = data
        d = cr.accuracy_decomposition(y, q)
        assert d.lambda_s + d.lambda_u == pytest.approx(1.0)
        assert d.lambda_s * d.accuracy_s + d.lambda_u * d.accuracy_u == pytest.approx(d.probabilistic_accuracy,
                                                                                       abs=1e-12)
        assert d.lambda_s >= 1 / q.shape[1] - 1e-12  # the top probability is at least 1/k

    @settings(max_examples=200, deadline=None)
    @given(data=predictions(), measure=st.sampled_from(["accuracy", "macro_precision", "macro_recall", "macro_f1"]))
    def test_certainty_ratio_in_unit_interval(self, data, measure):
        y, q = data
        assert 0.0 <= cr.certainty_ratio(y, q, measure=measure) <= 1.0

    @settings(max_examples=200, deadline=None)
    @given(data=predictions())
    def test_divergence_bound(self, data):
        y, q = data
        k = q.shape[1]
        d = cr.probabilistic_divergence(y, q)
        counts = np.bincount(y, minlength=k)
        bound = np.sqrt(np.sum(counts**2)) / y.size * np.sqrt(1 - 1 / k)
        assert 0.0 <= d <= bound + 1e-12 <= np.sqrt(1 - 1 / k) + 1e-12

    @settings(max_examples=100, deadline=None)
    @given(data=predictions())
    def test_one_hot_q_gives_cm(self, data):
        y, q = data
        onehot = cr.prediction_matrix(q)
        np.testing.assert_array_equal(cr.probabilistic_confusion_matrix(y, onehot), cr.confusion_matrix(y, q))
        assert cr.probabilistic_divergence(y, onehot) == 0.0
        s, u = cr.certainty_decomposition(y, onehot)
        assert u.sum() == 0.0
        if np.any(np.argmax(q, axis=1) == y):
            assert cr.certainty_ratio(y, onehot) == 1.0

    def test_divergence_maximum_is_attained(self):
        for k in range(2, 8):
            q = np.full((5, k), 1 / k)
            assert cr.probabilistic_divergence(np.zeros(5, dtype=int), q) == pytest.approx(np.sqrt(1 - 1 / k))

    def test_zero_divergence_with_uncertain_predictions(self):
        # errors of opposite sign cancel within a class: d = 0 although no prediction is certain
        q = np.array([[0.6, 0.4], [0.4, 0.6]])
        assert cr.probabilistic_divergence([0, 0], q) == 0.0
        assert cr.certainty_ratio([0, 0], q) < 1


class TestCalibration:
    def test_brier_and_log_loss_match_scikit_learn(self):
        from sklearn import metrics

        rng = np.random.default_rng(7)
        q = rng.dirichlet(np.ones(3), 100)
        y = rng.integers(0, 3, 100)
        onehot = np.eye(3)[y]
        assert cr.brier_score(y, q) == pytest.approx(np.mean(np.sum((q - onehot) ** 2, axis=1)))
        assert cr.log_loss(y, q) == pytest.approx(metrics.log_loss(y, q, labels=[0, 1, 2]))

    def test_reliability_table(self):
        q = np.array([[0.95, 0.05], [0.92, 0.08], [0.55, 0.45], [0.3, 0.7]])
        y = np.array([0, 1, 0, 1])
        table = cr.reliability_table(y, q, n_bins=10)
        assert list(table["bin"]) == [5, 7, 9]
        np.testing.assert_allclose(table["share"], [0.25, 0.25, 0.5])
        np.testing.assert_allclose(table["confidence"], [0.55, 0.7, 0.935])
        np.testing.assert_allclose(table["accuracy"], [1.0, 1.0, 0.5])
        assert cr.expected_calibration_error(y, q) == pytest.approx(0.25 * 0.45 + 0.25 * 0.3 + 0.5 * 0.435)


class TestBadInput:
    @pytest.mark.parametrize("function", [cr.confusion_matrix, cr.probabilistic_confusion_matrix,
                                          cr.certainty_decomposition, cr.certainty_ratio,
                                          cr.probabilistic_divergence, cr.accuracy_decomposition,
                                          cr.measure_table, cr.hellinger_scores, cr.mcp_curve, cr.imcp_curve,
                                          cr.mcp_score, cr.imcp_score, cr.brier_score, cr.log_loss,
                                          cr.reliability_table, cr.expected_calibration_error])
    def test_common_checks(self, function):
        with pytest.raises(ValueError, match="rows of proba must sum to one"):
            function([0, 1], [[0.5, 0.6], [0.5, 0.5]])
        with pytest.raises(ValueError, match="y_true has class index 2"):
            function([0, 2], [[0.5, 0.5], [0.5, 0.5]])
        with pytest.raises(ValueError, match="is empty"):
            function([], np.zeros((0, 2)))
        with pytest.raises(ValueError, match="inconsistent numbers of instances"):
            function([0, 1, 1], [[0.5, 0.5], [0.5, 0.5]])
        with pytest.raises(ValueError, match="proba must be 2-dimensional"):
            function([0], [0.5, 0.5])
        with pytest.raises(ValueError, match="entries outside"):
            function([0, 1], [[1.5, -0.5], [0.5, 0.5]])
        with pytest.raises(ValueError, match="y_true must hold integer"):
            function([0.5, 1], [[0.5, 0.5], [0.5, 0.5]])

    def test_tolerance_parameter(self):
        q = [[0.5, 0.5001], [0.5, 0.5]]
        with pytest.raises(ValueError, match="tolerance 1e-06"):
            cr.certainty_ratio([0, 1], q)
        assert 0 <= cr.certainty_ratio([0, 1], q, atol=1e-3) <= 1

    def test_other_arguments(self):
        with pytest.raises(ValueError, match="ties must be one of"):
            cr.certainty_decomposition(Y, Q, ties="random")
        with pytest.raises(ValueError, match="measure must be one of"):
            cr.certainty_ratio(Y, Q, measure="auc")
        with pytest.raises(ValueError, match="zero_division"):
            cr.certainty_ratio(Y, Q, zero_division="nan")
        with pytest.raises(ValueError, match="zero_division"):
            cr.certainty_ratio(Y, Q, zero_division=float("nan"))
        with pytest.raises(ValueError, match="n_classes"):
            cr.ground_truth_matrix([0, 1], 1)
        with pytest.raises(ValueError, match="y_true has class index 3"):
            cr.ground_truth_matrix([0, 3], 3)
        with pytest.raises(ValueError, match="at least two instances"):
            cr.mcp_curve([0], [[0.5, 0.5]])
        with pytest.raises(ValueError, match="n_bins"):
            cr.reliability_table(Y, Q, n_bins=0)
        with pytest.raises(ValueError, match="eps"):
            cr.log_loss(Y, Q, eps=0.0)
        with pytest.raises(ValueError, match="returned nan"):
            cr.measure_of(np.eye(2), lambda m: float("nan"))

    @pytest.mark.parametrize("function", [cr.accuracy_of, cr.precision_per_class, cr.recall_per_class,
                                          cr.f1_per_class, cr.mcc_of, cr.measure_of])
    def test_matrix_measures(self, function):
        with pytest.raises(ValueError, match="square"):
            function(np.ones((2, 3)))
        with pytest.raises(ValueError, match="square"):
            function(np.ones((1, 1)))
        with pytest.raises(ValueError, match="negative"):
            function(np.array([[1.0, -1.0], [0.0, 1.0]]))
        with pytest.raises(ValueError, match="NaN"):
            function(np.array([[1.0, np.nan], [0.0, 1.0]]))
        with pytest.raises(ValueError, match="zero denominator"):
            function(np.zeros((2, 2)), zero_division="raise")

    def test_probability_helpers(self):
        for function in (cr.predicted_classes, cr.prediction_matrix, cr.split_probabilities):
            with pytest.raises(ValueError, match="proba must have at least two columns"):
                function([[1.0], [1.0]])
            with pytest.raises(ValueError, match="rows of proba must sum to one"):
                function([[0.2, 0.2]])


@given(st.integers(1, 300), st.integers(2, 12), st.integers(0, 2**32 - 1), st.booleans())
@settings(max_examples=60, deadline=None)
def test_scores_are_sorted_as_lexsort_orders_them_ties_by_label(n, k, seed, few_values):
    """The radix sort behind the IMCP curve gives ``np.lexsort((labels, scores))``'s order, ties (many when
    the scores take few values) by label, zeros, ones and scores rounded to just below zero included
    (as Naive Bayes' sure mistakes give: the sign bit once sent them last)."""
    from credalbook._kernels import sort_by_score_and_label

    rng = np.random.default_rng(seed)
    labels = rng.integers(0, k, n)
    if few_values:  # ties, and a Hellinger score rounded to just below 0
        scores = rng.choice([0.0, 0.25, 0.5, 1.0, -1e-17, -2e-16, 5e-324], n)
    else:
        scores = (rng.random(n) - 0.1) * rng.choice([1e-300, 1e-3, 1], n)
    out_scores, out_labels = np.empty(n), np.empty(n, dtype=np.int64)
    sort_by_score_and_label(scores, labels, k, out_scores, out_labels)
    order = np.lexsort((labels, scores))
    np.testing.assert_array_equal(out_scores, scores[order])
    np.testing.assert_array_equal(out_labels, labels[order])
    signed = np.where(rng.random(n) < 0.5, -0.0, 0.0)  # -0.0 equals 0.0: ties by label, written back as 0.0
    sort_by_score_and_label(signed, labels, k, out_scores, out_labels)
    np.testing.assert_array_equal(out_labels, np.sort(labels))
    assert not np.signbit(out_scores).any()
