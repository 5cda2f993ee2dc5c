"""MDL discretisation (Fayyad & Irani) and CFS (Hall): Weka's iris cuts, hand-computed MDL tests, bad input."""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.pipeline import make_pipeline

from credalbook.preprocessing import (
    CFSSelector,
    MDLDiscretizer,
    cfs_merit,
    mdl_accepts,
    missing_as_category,
    symmetrical_uncertainty,
)

from credalbook.data import repository_dir

RAW = repository_dir()


def _iris():
    from credalbook.data import read_arff

    frame = read_arff(RAW / "uci" / "iris.arff")
    return frame.iloc[:, :-1], frame.iloc[:, -1]


@pytest.mark.parametrize("selection", ["entropy", "gain"])
def test_weka_iris_cuts(selection):
    """Weka's (and JNCC2's) MDL cuts on the 150 iris instances (Fayyad & Irani 1993, as Weka 3 computes them)."""
    X, y = _iris()
    cuts = MDLDiscretizer(selection=selection).fit(X, y).cuts_
    expected = [[5.55, 6.15], [2.95, 3.35], [2.45, 4.75], [0.8, 1.75]]
    for found, wanted in zip(cuts, expected):
        np.testing.assert_allclose(found, wanted, atol=1e-12)


def test_transform_codes_and_value_on_cut_goes_low():
    X, y = _iris()
    disc = MDLDiscretizer().fit(X, y)
    probe = pd.DataFrame([[5.55, 2.0, 2.46, np.nan]], columns=X.columns)
    out = disc.transform(probe)
    assert [int(out[c].cat.codes[0]) for c in out.columns] == [0, 0, 1, -1]
    assert [len(out[c].cat.categories) for c in out.columns] == [3, 3, 3, 3]


def test_mdl_accepts_hand_computed():
    # 8 instances, classes perfectly separated 4 | 4: gain = 1 bit;
    # threshold = [log2 7 + log2(3^2 - 2) - (2*1 - 0 - 0)] / 8 = (2.807 + 2.807 - 2) / 8 = 0.4518
    accepted, gain, threshold = mdl_accepts([4, 4], [4, 0])
    assert accepted and gain == pytest.approx(1.0)
    assert threshold == pytest.approx((2 * np.log2(7) - 2) / 8)
    # 4 instances 2 | 2: threshold = (log2 3 + log2 7 - 2) / 4 = 0.8981 < 1 -> accepted
    assert mdl_accepts([2, 2], [2, 0])[0]
    # 2 instances: threshold = (0 + log2 7 - 2)/2 = 0.40 < 1 -> accepted; mixed split: rejected
    assert not mdl_accepts([3, 3], [2, 1])[0]


def test_no_cut_when_class_independent_and_nominal_passthrough():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"noise": rng.normal(size=60), "colour": pd.Categorical(rng.choice(["r", "g"], 60),
                                                                              categories=["r", "g", "b"])})
    y = rng.integers(0, 2, 60)
    disc = MDLDiscretizer().fit(X, y)
    assert disc.cuts_[0].size == 0 and disc.cuts_[1] is None
    out = disc.transform(X)
    assert len(out["noise"].cat.categories) == 1
    assert list(out["colour"].cat.categories) == [0, 1, 2]
    np.testing.assert_array_equal(out["colour"].cat.codes, X["colour"].cat.codes)


def test_fit_uses_training_data_only():
    X, y = _iris()
    a = MDLDiscretizer().fit(X.iloc[::2], y.iloc[::2]).cuts_
    b = MDLDiscretizer().fit(X, y).cuts_
    assert any(len(p) != len(q) or not np.allclose(p, q) for p, q in zip(a, b))


def test_symmetrical_uncertainty_hand_computed():
    assert symmetrical_uncertainty([[5, 0], [0, 5]]) == pytest.approx(1.0)
    assert symmetrical_uncertainty([[5, 5], [5, 5]]) == pytest.approx(0.0)
    # H(A)=1, H(B)=H(3/8)=0.954434, H(A,B) = H(3/8,1/8,0,4/8) = 1.405639
    table = np.array([[3, 1], [0, 4]])
    h_b = -(3 / 8) * np.log2(3 / 8) - (5 / 8) * np.log2(5 / 8)
    h_ab = -(3 / 8) * np.log2(3 / 8) - (1 / 8) * np.log2(1 / 8) - 0.5 * np.log2(0.5)
    assert symmetrical_uncertainty(table) == pytest.approx(2 * (1 + h_b - h_ab) / (1 + h_b))


def test_cfs_drops_redundant_copy_and_noise_and_matches_exhaustive_search():
    from itertools import combinations

    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 400)
    informative = np.where(rng.random(400) < 0.85, y, 1 - y)
    other = np.where(rng.random(400) < 0.6, informative, rng.integers(0, 2, 400))
    X = np.column_stack([informative, informative, rng.integers(0, 3, 400), other, y ^ (rng.random(400) < 0.3)])
    selector = CFSSelector().fit(X, y)
    chosen = set(np.flatnonzero(selector.support_))
    assert not {0, 1} <= chosen and 2 not in chosen
    best = max((c for r in range(1, 6) for c in combinations(range(5), r)),
               key=lambda c: cfs_merit(c, selector.class_correlation_, selector.feature_correlation_))
    assert selector.merit_ == pytest.approx(cfs_merit(best, selector.class_correlation_, selector.feature_correlation_))
    assert selector.transform(X).shape == (400, len(chosen))


def test_cfs_merit_formula():
    rcf = np.array([0.5, 0.4])
    rff = np.array([[1.0, 0.2], [0.2, 1.0]])
    assert cfs_merit([0, 1], rcf, rff) == pytest.approx(2 * 0.45 / np.sqrt(2 + 2 * 0.2))
    assert cfs_merit([], rcf, rff) == 0.0


def test_pipeline_with_clone():
    X, y = _iris()
    pipe = clone(make_pipeline(MDLDiscretizer(), CFSSelector()))
    out = pipe.fit(X, y).transform(X)
    assert isinstance(out, pd.DataFrame) and 1 <= out.shape[1] <= 4
    assert all(isinstance(out[c].dtype, pd.CategoricalDtype) for c in out.columns)


def test_missing_as_category_codes_missing_as_the_next_value():
    X = pd.DataFrame({"a": pd.Categorical.from_codes([0, -1, 2, 1], categories=[0, 1, 2]),
                      "b": pd.Categorical.from_codes([1, 0, 0, 1], categories=[0, 1])}, index=[5, 6, 7, 8])
    out = missing_as_category(X)
    assert out["a"].cat.codes.tolist() == [0, 3, 2, 1] and out["a"].cat.categories.tolist() == [0, 1, 2, 3]
    assert out["b"].cat.codes.tolist() == [1, 0, 0, 1] and out["b"].cat.categories.tolist() == [0, 1, 2]
    assert out.index.tolist() == [5, 6, 7, 8] and not out.isna().any().any()


def test_missing_as_category_after_mdl_keeps_folds_aligned():
    X = pd.DataFrame({"x": [0.0, 1.0, np.nan, 3.0, 4.0, 5.0, 6.0, 7.0]})
    y = [0, 0, 0, 0, 1, 1, 1, 1]
    disc = MDLDiscretizer().fit(X, y)
    train, test = missing_as_category(disc.transform(X)), missing_as_category(disc.transform(X.iloc[[2, 5]]))
    assert train["x"].cat.categories.tolist() == test["x"].cat.categories.tolist()
    assert test["x"].cat.codes.tolist() == [len(disc.cuts_[0]) + 1, train["x"].cat.codes.iloc[5]]


class TestBadInput:
    def test_missing_as_category(self):
        with pytest.raises(ValueError, match="DataFrame of Categoricals"):
            missing_as_category(np.zeros((2, 2)))
        with pytest.raises(ValueError, match="not Categorical"):
            missing_as_category(pd.DataFrame({"a": [1.0, 2.0]}))
        with pytest.raises(ValueError, match="categories 0..1"):
            missing_as_category(pd.DataFrame({"a": pd.Categorical(["u", "v"])}))

    def test_selection(self):
        X, y = _iris()
        with pytest.raises(ValueError, match="selection"):
            MDLDiscretizer(selection="best").fit(X, y)

    def test_shapes(self):
        with pytest.raises(ValueError, match="Expected 2D array"):
            MDLDiscretizer().fit(np.arange(5.0), [0, 1, 0, 1, 0])
        with pytest.raises(ValueError, match="inconsistent"):
            MDLDiscretizer().fit(np.zeros((4, 1)), [0, 1])
        disc = MDLDiscretizer().fit(np.arange(8.0).reshape(4, 2), [0, 0, 1, 1])
        with pytest.raises(ValueError, match="expecting 2 features"):
            disc.transform(np.zeros((2, 3)))

    def test_non_numeric_column(self):
        X = pd.DataFrame({"a": ["x", "y", "x", "y"]})
        with pytest.raises(ValueError, match="nominal"):
            MDLDiscretizer().fit(X, [0, 1, 0, 1])
        with pytest.raises(ValueError, match="does not have"):
            MDLDiscretizer(nominal=["b"]).fit(X, [0, 1, 0, 1])

    def test_mdl_accepts_empty_side(self):
        with pytest.raises(ValueError, match="both sides"):
            mdl_accepts([2, 2], [0, 0])

    def test_cfs_needs_discrete(self):
        with pytest.raises(ValueError, match="non-integer"):
            CFSSelector().fit(np.array([[0.5], [1.5]]), [0, 1])
        with pytest.raises(ValueError, match="search_termination"):
            CFSSelector(search_termination=0).fit(np.array([[0], [1]]), [0, 1])
        selector = CFSSelector().fit(np.array([[0, 1], [1, 0]]), [0, 1])
        with pytest.raises(ValueError, match="expecting 2 features"):
            selector.transform(np.zeros((2, 3)))


def plain_mdl_cuts(values, labels, n_classes, selection):
    """Fayyad & Irani's recursion written plainly, one interval and one candidate gap at a time."""
    distinct = sorted(set(values.tolist()))
    per_value = np.zeros((len(distinct), n_classes), dtype=np.int64)
    for v, c in zip(values.tolist(), labels.tolist()):
        per_value[distinct.index(v), c] += 1
    cuts = []

    def split(lo, hi):
        total = per_value[lo:hi].sum(axis=0)
        best = None
        for g in range(lo, hi - 1):
            a, b = per_value[g] > 0, per_value[g + 1] > 0
            if a.sum() == 1 and b.sum() == 1 and (a == b).all():
                continue  # not a boundary point
            left = per_value[lo:g + 1].sum(axis=0)
            accepted, gain, _ = mdl_accepts(total, left)
            key = -gain if selection == "entropy" else (-gain if accepted else np.inf)
            if best is None or key < best[0] - 1e-12:
                best = (key, g, accepted, gain)
        if best is None or not best[2] or best[3] <= 0:
            return
        g = best[1]
        cuts.append((distinct[g] + distinct[g + 1]) / 2)
        split(lo, g + 1)
        split(g + 1, hi)

    split(0, len(distinct))
    return sorted(cuts)


@pytest.mark.parametrize("selection", ["entropy", "gain"])
@pytest.mark.parametrize("seed", range(6))
def test_batched_mdl_search_equals_the_plain_recursion(selection, seed):
    # every column's intervals are settled depth by depth at once; the cuts must be the recursion's
    rng = np.random.default_rng(seed)
    n, k = 300, 3
    y = rng.integers(0, k, n)
    X = pd.DataFrame({"signal": y + rng.normal(scale=0.6, size=n), "rounded": np.round(y + rng.normal(size=n)),
                      "noise": rng.normal(size=n), "steps": rng.integers(0, 12, n) + 3 * (y == 2)})
    X.loc[rng.random(n) < 0.1, "signal"] = np.nan
    cuts = MDLDiscretizer(selection=selection).fit(X, y).cuts_
    for column, found in zip(X.columns, cuts):
        observed = X[column].notna().to_numpy()
        expected = plain_mdl_cuts(X[column].to_numpy()[observed], y[observed], k, selection)
        np.testing.assert_array_equal(found, expected)
    assert sum(c.size for c in cuts) >= 4


def test_cfs_weka_convention_counts_independent_features_as_redundant():
    # two features independent of each other (SU = 0): the book counts 0, Weka's CfsSubsetEval 1
    a = np.tile([0, 0, 1, 1], 25)
    b = np.tile([0, 1, 0, 1], 25)
    y = a ^ b
    X = np.column_stack([a, b])
    assert CFSSelector().fit(X, y).feature_correlation_[0, 1] == 0.0
    weka = CFSSelector(convention="weka").fit(X, y)
    assert weka.feature_correlation_[0, 1] == 1.0 and weka.class_correlation_.tolist() == [0.0, 0.0]
    assert weka.support_.sum() == 0    # Weka's search keeps nothing when no subset has merit
    assert CFSSelector(convention="weka", locally_predictive=True).fit(X, y).support_.tolist() == [True, False]


def test_cfs_weka_correlations_batch_equals_the_pairwise_reference():
    from credalbook.preprocessing import _weka_su, _weka_su_batch, _weka_table

    rng = np.random.default_rng(3)
    n = 200
    y = rng.integers(0, 3, n)
    X = np.column_stack([np.where(rng.random(n) < 0.8, y, rng.integers(0, 3, n)), rng.integers(0, 4, n),
                         rng.integers(0, 2, n), np.zeros(n, dtype=int)])
    X[rng.random((n, 4)) < 0.15] = -1
    m = np.array([3, 4, 2, 1])
    batch = _weka_su_batch(X, m, y, 3, True)
    assert [batch[j] for j in range(4)] == [_weka_su(_weka_table(X[:, j], y, m[j], 3), True) for j in range(4)]
    for i in range(3):
        batch = _weka_su_batch(X[:, i + 1:], m[i + 1:], X[:, i], int(m[i]), False)
        assert list(batch) == [_weka_su(_weka_table(X[:, j], X[:, i], m[j], m[i]), False) for j in range(i + 1, 4)]


def test_weka_open_list_keeps_the_best_and_queues_ties_after_equals():
    from credalbook.preprocessing import _weka_insert

    queue: list = []
    for subset, merit in [("a", 0.5), ("b", 0.7), ("c", 0.5), ("d", 0.1), ("e", 0.6), ("f", 0.05), ("g", 0.5)]:
        _weka_insert(queue, subset, merit, 4)
    assert [s for s, _ in queue] == ["b", "e", "a", "c"]


def test_cfs_convention_is_checked():
    with pytest.raises(ValueError, match="convention"):
        CFSSelector(convention="hall").fit(np.array([[0], [1]]), [0, 1])


class TestConventionAndOutput:
    """MDLDiscretizer(convention="jncc2") and scikit-learn's output API (issue 28 items 10 and 11)."""

    def test_jncc2_convention_does_not_weigh_the_cut_below_a_single_top_instance(self):
        # four of class 0, four of class 1, one of class 0 on top (tests/test_jncc2_golden.py has the oracle)
        X = pd.DataFrame({"v": np.arange(9.0)})
        y = [0, 0, 0, 0, 1, 1, 1, 1, 0]
        np.testing.assert_array_equal(MDLDiscretizer(selection="gain").fit(X, y).cuts_[0], [3.5, 7.5])
        np.testing.assert_array_equal(MDLDiscretizer(convention="jncc2").fit(X, y).cuts_[0], [3.5])
        np.testing.assert_array_equal(MDLDiscretizer(convention="jncc2", selection="gain").fit(X, y).cuts_[0], [3.5])
        # mirrored, the same cut is at the bottom, which JNCC2 does weigh
        np.testing.assert_array_equal(MDLDiscretizer(convention="jncc2").fit(-X, y).cuts_[0], [-7.5, -3.5])

    def test_default_is_unchanged_and_equals_weka_on_iris(self):
        X, y = _iris()
        default, explicit = MDLDiscretizer().fit(X, y), MDLDiscretizer(selection="entropy", convention="book").fit(X, y)
        for a, b in zip(default.cuts_, explicit.cuts_):
            np.testing.assert_array_equal(a, b)
        jncc2 = MDLDiscretizer(convention="jncc2").fit(X, y)   # iris: JNCC2's cuts are Weka's
        for a, b in zip(default.cuts_, jncc2.cuts_):
            np.testing.assert_allclose(a, b, atol=1e-12)

    @pytest.mark.parametrize("params, match", [
        (dict(convention="weka"), "convention must be one of"),
        (dict(convention="jncc2", selection="entropy"), "does not go with convention='jncc2'"),
        (dict(selection="best"), "selection must be"),
    ])
    def test_bad_parameters(self, params, match):
        X, y = _iris()
        with pytest.raises(ValueError, match=match):
            MDLDiscretizer(**params).fit(X, y)

    def test_output_api(self):
        X, y = _iris()
        names = list(X.columns)
        frame = MDLDiscretizer().fit(X, y)
        assert frame.get_feature_names_out().tolist() == names
        out = frame.transform(X)
        assert isinstance(out, pd.DataFrame) and all(isinstance(out[c].dtype, pd.CategoricalDtype) for c in names)
        array = MDLDiscretizer().fit(X.to_numpy(), y)
        coded = array.transform(np.vstack([X.to_numpy()[:3], [np.nan] * 4]))
        assert coded.dtype == np.float64 and np.isnan(coded[-1]).all()
        np.testing.assert_array_equal(coded[:3], out.iloc[:3].apply(lambda c: c.cat.codes).to_numpy())
        assert array.get_feature_names_out().tolist() == ["x0", "x1", "x2", "x3"]
        pandas = MDLDiscretizer().set_output(transform="pandas").fit(X.to_numpy(), y).transform(X.to_numpy())
        assert list(pandas.columns) == ["x0", "x1", "x2", "x3"]
        assert [len(pandas[c].cat.categories) for c in pandas.columns] == [3, 3, 3, 3]
