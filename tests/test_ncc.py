"""Naive credal classifier: the dominance test against a brute-force grid oracle, hand-computed cases, bad input."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credalbook.classifiers.naive_bayes import NaiveBayes, naive_counts
from credalbook.classifiers.ncc import NaiveCredalClassifier, dominance_matrix


def grid_infimum(counts, x, c1, c2, s, points=40_001):
    """min over a fine grid of t in (0, s) of h(t), written out from its definition (no logs, no calculus)."""
    t = np.linspace(0.0, s, points)[1:-1]
    h = (counts.class_counts[c1] + s - t) / (counts.class_counts[c2] + t)
    for i, v in enumerate(x):
        if v < 0 or not counts.used[i]:
            continue
        n1, n2 = counts.table[i, c1, v], counts.table[i, c2, v]
        o1, o2 = counts.observed[i, c1], counts.observed[i, c2]
        h = h * (o2 + t) / (o1 + s - t) * n1 / (n2 + t)
    return h.min()


def random_problem(rng, n=40, d=4, k=3, missing=0.15):
    X = rng.integers(0, 3, size=(n, d))
    X[rng.random(X.shape) < missing] = -1
    y = rng.integers(0, k, n)
    return X, y


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 100_000), s=st.sampled_from([0.5, 1.0, 2.0]), missing=st.sampled_from([0.0, 0.2]))
def test_dominance_agrees_with_grid_oracle(seed, s, missing):
    rng = np.random.default_rng(seed)
    X, y = random_problem(rng, n=int(rng.integers(5, 60)), missing=missing)
    counts = naive_counts(X, y, 3, np.full(X.shape[1], 3))
    tests = rng.integers(-1, 3, size=(6, X.shape[1]))
    D = dominance_matrix(counts, tests, s)
    checked = 0
    for r, x in enumerate(tests):
        for a in range(3):
            for b in range(3):
                if a == b:
                    continue
                inf = grid_infimum(counts, x, a, b, s)
                if abs(inf - 1.0) < 1e-3:   # too close to call on a grid
                    continue
                assert D[r, a, b] == (inf > 1.0), (r, a, b, inf)
                checked += 1
    assert checked > 0


def test_hand_computed_single_feature():
    # one feature, complete data: h(t) = n(a,c1) / (n(a,c2) + t), infimum n(a,c1)/(n(a,c2)+s)
    X = np.array([[0]] * 5 + [[1]] * 5 + [[0]] * 3 + [[1]] * 7)
    y = np.array([0] * 10 + [1] * 10)
    model = NaiveCredalClassifier(s=1.0).fit(X, y)
    D = model.dominance(np.array([[0], [1]]))
    assert D[0, 0, 1] and not D[0, 1, 0]          # 5/(3+1) > 1
    assert not D[1, 0, 1] and D[1, 1, 0]          # 7/(5+1) > 1
    assert NaiveCredalClassifier(s=2.0).fit(X, y).predict_set([[0]]).tolist() == [[True, True]]  # 5/(3+2) = 1


def test_all_missing_instance_uses_class_counts_only():
    # h(t) = (alpha + s - t)/(beta + t): inf alpha/(beta + s) > 1 iff alpha > beta + s
    X = np.array([[0], [1], [0], [1], [0], [1]])
    model = NaiveCredalClassifier().fit(X, [0, 0, 0, 0, 1, 1])
    assert model.predict_set([[np.nan]]).tolist() == [[True, False]]   # 4/(2+1) > 1
    model = NaiveCredalClassifier().fit(X, [0, 0, 0, 1, 1, 1])
    assert model.predict_set([[np.nan]]).tolist() == [[True, True]]


def test_unseen_value_equals_missing():
    rng = np.random.default_rng(3)
    X, y = random_problem(rng)
    model = NaiveCredalClassifier().fit(X, y)
    probe = np.array([[9, 1, 0, 2]])
    np.testing.assert_array_equal(model.predict_set(probe), model.predict_set([[-1, 1, 0, 2]]))


def test_class_absent_from_training_fold():
    rng = np.random.default_rng(4)
    X, y = random_problem(rng, k=2)
    labels = pd.Categorical.from_codes(y, categories=["a", "b", "c"])
    model = NaiveCredalClassifier().fit(X, labels)
    sets = model.predict_set(X)
    assert sets.shape == (len(X), 3)
    D = model.dominance(X)
    assert not D[:, 2, :].any()        # a class never seen cannot dominate (its lower probability is 0)
    assert (sets.sum(axis=1) >= 1).all()


def test_sets_non_empty_and_contain_predict():
    rng = np.random.default_rng(5)
    X, y = random_problem(rng, n=200, k=4)
    model = NaiveCredalClassifier().fit(X, y)
    sets = model.predict_set(X)
    assert sets.any(axis=1).all()
    index = model.predict_index(X)
    assert sets[np.arange(len(X)), index].all()
    both = model.predict_with_set(X)
    np.testing.assert_array_equal(both[0], sets)
    np.testing.assert_array_equal(both[1], index)
    det = sets.sum(axis=1) == 1
    np.testing.assert_array_equal(index[det], sets[det].argmax(axis=1))
    nbc = NaiveBayes().fit(X, y).predict_index(X)
    assert (nbc[det] == index[det]).mean() > 0.9


def test_determinacy_grows_with_training_size():
    rng = np.random.default_rng(6)
    theta = rng.uniform(0.1, 0.9, size=(2, 6))
    def sample(n):
        y = rng.integers(0, 2, n)
        return (rng.random((n, 6)) < theta[y]).astype(int), y
    X_test, _ = sample(2000)
    det = [(NaiveCredalClassifier().fit(*sample(n)).predict_set(X_test).sum(axis=1) == 1).mean() for n in (20, 2000)]
    assert det[0] < det[1]


class TestBadInput:
    def test_non_discrete_features(self):
        with pytest.raises(ValueError, match="non-integer.*discretise"):
            NaiveCredalClassifier().fit(np.array([[0.5], [1.0]]), [0, 1])

    def test_s(self):
        with pytest.raises(ValueError, match="s must be"):
            NaiveCredalClassifier(s=0).fit(np.array([[0], [1]]), [0, 1])
        with pytest.raises(ValueError, match="s must be"):
            NaiveCredalClassifier(s="1").fit(np.array([[0], [1]]), [0, 1])

    def test_single_class(self):
        with pytest.raises(ValueError, match="at least two classes"):
            NaiveCredalClassifier().fit(np.array([[0], [1]]), [1, 1])

    def test_unseen_value_error_mode(self):
        from credalbook.discrete import check_discrete_X

        model = NaiveCredalClassifier().fit(np.array([[0], [1]]), [0, 1])
        with pytest.raises(ValueError, match="unseen"):
            check_discrete_X(np.array([[5]]), n_values=model.n_values_, unseen="error")

    def test_wrong_width(self):
        model = NaiveCredalClassifier().fit(np.array([[0], [1]]), [0, 1])
        with pytest.raises(ValueError, match="is expecting 1 features"):
            model.predict_set(np.zeros((1, 2)))


def test_dominance_from_per_instance_counts_equals_one_model_per_instance():
    # LNCC decides many local models in one call: each row with its own counts must get its own model's answer
    from credalbook.classifiers.naive import dominance_from_counts

    rng = np.random.default_rng(11)
    models, tests = [], rng.integers(-1, 3, size=(8, 4))
    for _ in range(len(tests)):
        X, y = random_problem(rng, n=int(rng.integers(5, 40)), missing=0.2)
        models.append(naive_counts(X, y, 3, np.full(4, 3)))
    one_by_one = np.concatenate([dominance_matrix(c, x[None, :], 1.0) for c, x in zip(models, tests)])
    gathered, mask = zip(*(c.gather(x[None, :]) for c, x in zip(models, tests)))
    batched = dominance_from_counts(np.stack([c.class_counts for c in models]), np.concatenate(gathered),
                                    np.stack([c.observed for c in models]), np.concatenate(mask), 1.0)
    np.testing.assert_array_equal(batched, one_by_one)
    assert one_by_one.any() and not one_by_one.all()
