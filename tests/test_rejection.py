"""Rejection option (§9.4): NBC_t, the NCC variant with lower posteriors, the worked example."""
import numpy as np
import pytest

from credalbook.classifiers.naive_bayes import NaiveBayes
from credalbook.classifiers.ncc import NaiveCredalClassifier
from credalbook.classifiers.rejection import RejectionClassifier, ncc_rejection_sets, rejection_example
from credalbook.metrics import utility_discounted_accuracy


def test_threshold_rule():
    X = np.array([[0]] * 8 + [[1]] * 2)
    y = np.array([0] * 7 + [1] + [1, 1])
    model = RejectionClassifier(NaiveBayes(), threshold=0.8).fit(X, y)
    proba = model.predict_proba([[0], [1]])
    sets = model.predict_set([[0], [1]])
    # P(c) = (8/12, 4/12); P(x=0 | c) = (8/9, 2/5):
    # P(0 | x=0) = (8/12)(8/9) / [(8/12)(8/9) + (4/12)(2/5)] = 0.8163 >= 0.8 -> {0};
    # P(1 | x=1) = (4/12)(3/5) / [(4/12)(3/5) + (8/12)(1/9)] = 0.7297 < 0.8 -> vacuous
    np.testing.assert_allclose(proba[:, 0], [0.5926 / 0.7259, 0.0741 / 0.2741], atol=1e-3)
    assert sets.tolist() == [[True, False], [True, True]]
    lenient = RejectionClassifier(NaiveBayes(), threshold=0.7).fit(X, y)
    assert lenient.predict_set([[0], [1]]).tolist() == [[True, False], [False, True]]


def test_closed_form_example():
    assert rejection_example(0.7, 0.8, 0.8) == {"NBC": 0.7, "NCC": 0.7, "NBC_t": 0.8}
    assert rejection_example(0.9, 0.8, 0.8)["NBC_t"] == 0.9


def test_simulated_example_matches_closed_form():
    rng = np.random.default_rng(0)
    n = 20_000
    y = (rng.random(2 * n) >= 0.7).astype(int)                  # class 0 has chance 0.7
    X = rng.integers(0, 2, size=(2 * n, 3))                       # features independent of the class
    nbc_t = RejectionClassifier(NaiveBayes(), threshold=0.8).fit(X[:n], y[:n])
    ncc = NaiveCredalClassifier().fit(X[:n], y[:n])
    u_nbc_t = utility_discounted_accuracy(y[n:], nbc_t.predict_set(X[n:]), 0.8)
    u_ncc = utility_discounted_accuracy(y[n:], ncc.predict_set(X[n:]), 0.8)
    assert u_nbc_t == pytest.approx(0.8, abs=1e-12)
    assert u_ncc == pytest.approx(0.7, abs=0.01)
    u_ncc_t = utility_discounted_accuracy(y[n:], ncc_rejection_sets(ncc, X[n:], 0.8), 0.8)
    assert u_ncc_t == pytest.approx(0.8, abs=1e-12)


def grid_lower_posterior(counts, x, c, s, points=40_001):
    t = np.linspace(0, s, points)[1:-1]
    other = 1 - c
    h = (counts.class_counts[c] + s - t) / (counts.class_counts[other] + t)
    for i, v in enumerate(x):
        if v >= 0 and counts.used[i]:
            h = h * (counts.observed[i, other] + t) / (counts.observed[i, c] + s - t) \
                * counts.table[i, c, v] / (counts.table[i, other, v] + t)
    inf = h.min()
    return inf / (1 + inf)


def test_ncc_lower_posterior_threshold_agrees_with_grid():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 3, size=(40, 3))
    y = (X[:, 0] > 0).astype(int) ^ (rng.random(40) < 0.2)
    model = NaiveCredalClassifier().fit(X, y)
    tests = np.array([[a, b, c] for a in range(3) for b in range(3) for c in range(3)])
    for t in (0.55, 0.7, 0.9):
        sets = ncc_rejection_sets(model, tests, t)
        plain = model.predict_set(tests)
        for row, x in enumerate(tests):
            lower = max(grid_lower_posterior(model.counts_, x, c, 1.0) for c in (0, 1))
            if abs(lower - t) < 1e-3:
                continue
            expected = plain[row] if lower > t else np.array([True, True])
            np.testing.assert_array_equal(sets[row], expected)


class TestBadInput:
    def test_threshold(self):
        with pytest.raises(ValueError, match="threshold"):
            RejectionClassifier(NaiveBayes(), threshold=1.5).fit([[0], [1]], [0, 1])
        model = NaiveCredalClassifier().fit([[0], [1]], [0, 1])
        with pytest.raises(ValueError, match="threshold"):
            ncc_rejection_sets(model, [[0]], 1.0)

    def test_multiclass_ncc(self):
        model = NaiveCredalClassifier().fit([[0], [1], [2]], [0, 1, 2])
        with pytest.raises(ValueError, match="binary"):
            ncc_rejection_sets(model, [[0]], 0.8)

    def test_example_arguments(self):
        with pytest.raises(ValueError, match="pi"):
            rejection_example(pi=1.2)
