"""NDC (del Coz & Bahamonde 2009): hand-computed sets and a brute-force oracle over all subsets."""
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credalbook.classifiers.naive_bayes import NaiveBayes
from credalbook.classifiers.ndc import NonDeterministicClassifier
from credalbook.decisions import expected_f_beta
from credalbook.decisions import f_beta_sets as ndc_sets


def test_hand_computed():
    # E(1) = 2*0.5/2 = 0.5, E(2) = 2*0.8/3 = 0.533, E(3) = 2/4 = 0.5 -> top two
    np.testing.assert_allclose(expected_f_beta([[0.5, 0.3, 0.2]]), [[0.5, 1.6 / 3, 0.5]])
    assert ndc_sets([[0.2, 0.5, 0.3]]).tolist() == [[False, True, True]]
    assert ndc_sets([[0.9, 0.05, 0.05]]).tolist() == [[True, False, False]]
    # beta = 2 rewards larger sets: E(3) = 5/7 = 0.714 > E(2) = 5*0.8/6 = 0.667
    assert ndc_sets([[0.5, 0.3, 0.2]], beta=2.0).tolist() == [[True, True, True]]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([0.5, 1.0, 2.0]))
def test_maximises_expected_f_beta_over_all_subsets(seed, beta):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 6))
    p = rng.dirichlet(np.ones(k))
    best = max((sum(p[list(c)]) * (1 + beta**2) / (beta**2 + len(c)), c)
               for r in range(1, k + 1) for c in combinations(range(k), r))
    chosen = ndc_sets(p[None, :], beta)[0]
    value = p[chosen].sum() * (1 + beta**2) / (beta**2 + chosen.sum())
    assert value == pytest.approx(best[0], abs=1e-12)


def test_on_top_of_naive_bayes():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, size=(200, 4))
    y = (X[:, 0] + rng.integers(0, 2, 200)) % 3
    model = NonDeterministicClassifier(NaiveBayes(), beta=1.0).fit(X, y)
    sets = model.predict_set(X)
    np.testing.assert_array_equal(sets, ndc_sets(model.predict_proba(X)))
    assert sets[np.arange(200), model.predict_index(X)].all()
    assert model.classes_.tolist() == [0, 1, 2]


class TestBadInput:
    def test_beta(self):
        with pytest.raises(ValueError, match="beta"):
            ndc_sets([[0.5, 0.5]], beta=0)
        with pytest.raises(ValueError, match="beta"):
            NonDeterministicClassifier(NaiveBayes(), beta=-1).fit([[0], [1]], [0, 1])

    def test_probabilities(self):
        with pytest.raises(ValueError, match="sum to one"):
            ndc_sets([[0.5, 0.6]])
        with pytest.raises(ValueError, match="2-dimensional"):
            ndc_sets([0.5, 0.5])

    def test_estimator_without_proba(self):
        from sklearn.svm import LinearSVC

        with pytest.raises(ValueError, match="predict_proba"):
            NonDeterministicClassifier(LinearSVC()).fit([[0], [1]], [0, 1])
