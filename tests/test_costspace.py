"""Cost space of Ferri, Hernández-Orallo & Flach (2019): exact Lemma 1 curves and losses."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credalbook import costspace as cs

Y4 = np.array([0, 0, 1, 1])
S4 = np.array([0.2, 0.6, 0.4, 0.8])


def random_sample(seed, n=120, ties=2):
    rng = np.random.default_rng(seed)
    y = np.r_[0, 1, rng.integers(0, 2, n - 2)]
    s = np.clip(0.35 * y + rng.uniform(0, 0.65, n), 0, 1)
    return y, np.round(s, ties)


@pytest.fixture(scope="module")
def credit_a_scores():
    """Real scores: a Gaussian naive Bayes on credit-a's numeric attributes, 50/50 split."""
    from sklearn.impute import SimpleImputer
    from sklearn.model_selection import train_test_split
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline

    from credalbook import data

    d = data.load("credit-a", group="ferri2019")
    X = d.X.select_dtypes("number").to_numpy()
    y = (d.y == d.y.value_counts().idxmax()).to_numpy().astype(int)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.5, stratify=y, random_state=1)
    model = make_pipeline(SimpleImputer(), GaussianNB()).fit(Xtr, ytr)
    return ytr, model.predict_proba(Xtr)[:, 1], yte, model.predict_proba(Xte)[:, 1]


class TestHandComputed:
    def test_cost_lines(self):
        lines = cs.cost_lines(Y4, S4)
        np.testing.assert_allclose(lines.F0, [0, .5, .5, 1, 1])
        np.testing.assert_allclose(lines.F1, [0, 0, .5, .5, 1])
        np.testing.assert_allclose(lines.intercept, [0, 0, .5, .5, 1])
        np.testing.assert_allclose(lines.intercept + lines.slope, [1, .5, .5, 0, 0])
        np.testing.assert_array_equal(lines.hull(), [0, 1, 3, 4])

    def test_measures(self):
        assert cs.brier_score(Y4, S4) == pytest.approx(0.2)
        assert cs.mean_absolute_error(Y4, S4) == pytest.approx(0.4)
        assert cs.auc(Y4, S4) == pytest.approx(0.75)
        assert cs.auc([0, 1, 0, 1], [0.5, 0.5, 0.2, 0.9]) == pytest.approx(0.875)  # a tie counts 1/2

    def test_loss_eq3(self):
        # t = 0.5: class 0 at 0.6 and class 1 at 0.4 are errors -> 2 (c/4 + (1-c)/4)
        assert cs.loss(Y4, S4, 0.5, 0.3) == pytest.approx(2 * (0.3 / 4 + 0.7 / 4))

    def test_test_optimal_certain_area(self):
        # hull lines 0 (0 -> 1), 1 (0 -> .5), 3 (.5 -> 0), 4 (1 -> 0): crossings at c = 0, 1/2, 1
        assert cs.expected_loss(Y4, S4, "test-optimal", np.inf) == pytest.approx(0.125)
        assert cs.expected_loss(Y4, S4, "test-optimal", 0) == pytest.approx(0.25)

    def test_loss_of_a_presumed_condition(self):
        sel = cs.threshold_selection(Y4, S4, "score-driven")
        # c_hat = 0.5 picks t = 0.5 (line 2); at true c = 0.3 its loss is Q(0.5; 0.3)
        assert sel.at(0.5, 0.3)[0] == pytest.approx(cs.loss(Y4, S4, 0.5, 0.3))
        with pytest.raises(ValueError, match=r"c_hat must lie in \[0, 1\]"):
            sel.at(1.5, 0.3)

    def test_score_driven_curve_at_certainty(self):
        c = np.array([0.1, 0.3, 0.5, 0.7, 0.9])
        np.testing.assert_allclose(cs.cost_curve(Y4, S4, "score-driven", c), cs.loss(Y4, S4, c, c))


class TestTheoremsOnScores:
    @settings(max_examples=40, deadline=None)
    @given(st.integers(0, 10_000), st.integers(1, 3))
    def test_corollaries_on_random_scores(self, seed, ties):
        y, s = random_sample(seed, n=60, ties=ties)
        pi0, pi1 = np.mean(y == 0), np.mean(y == 1)
        a = cs.auc(y, s)
        assert cs.expected_loss(y, s, "score-driven", np.inf) == pytest.approx(cs.brier_score(y, s), abs=1e-9)
        assert cs.expected_loss(y, s, "score-driven", 0) == pytest.approx(cs.mean_absolute_error(y, s), abs=1e-9)
        assert cs.expected_loss(y, s, "rate-driven", np.inf) == pytest.approx(pi0 * pi1 * (1 - 2 * a) + 1 / 3, abs=1e-9)
        assert cs.expected_loss(y, s, "rate-driven", 0) == pytest.approx(pi0 * pi1 * (1 - 2 * a) + 1 / 2, abs=1e-9)
        certain = cs.expected_loss(y, s, "test-optimal", np.inf)
        assert cs.expected_loss(y, s, "test-optimal", 0) == pytest.approx(2 * certain, abs=1e-9)
        assert certain == pytest.approx(cs.brier_decomposition(y, s, convexify=True)["RL"], abs=1e-9)

    def test_corollaries_on_real_scores(self, credit_a_scores):
        _, _, y, s = credit_a_scores
        pi0, pi1 = np.mean(y == 0), np.mean(y == 1)
        a = cs.auc(y, s)
        assert cs.expected_loss(y, s, "score-driven", np.inf) == pytest.approx(cs.brier_score(y, s), abs=1e-9)
        assert cs.expected_loss(y, s, "score-driven", 0) == pytest.approx(cs.mean_absolute_error(y, s), abs=1e-9)
        assert cs.expected_loss(y, s, "rate-driven", 0) == pytest.approx(pi0 * pi1 * (1 - 2 * a) + 0.5, abs=1e-9)
        assert cs.expected_loss(y, s, "test-optimal", 0) == pytest.approx(
            2 * cs.expected_loss(y, s, "test-optimal", np.inf), abs=1e-9)

    def test_theorem4_and_6_curves_are_straight(self, credit_a_scores):
        _, _, y, s = credit_a_scores
        c = np.linspace(0, 1, 11)
        pi0, pi1 = np.mean(y == 0), np.mean(y == 1)
        s0, s1 = s[y == 0].mean(), s[y == 1].mean()
        np.testing.assert_allclose(cs.expected_cost_curve(y, s, "score-driven", 0, c),
                                   2 * (pi1 * (1 - s1) + (pi0 * s0 - pi1 * (1 - s1)) * c), atol=1e-12)
        star = cs.pav_calibrate(y, s)
        np.testing.assert_allclose(cs.expected_cost_curve(y, s, "test-optimal", 0, c),
                                   2 * pi0 * star[y == 0].mean(), atol=1e-12)

    def test_uniform_baselines_equal_the_complete_uncertainty_limits(self):
        y, s = random_sample(3)
        for gamma in (np.inf, 2.0, 0.0):
            assert cs.expected_loss(y, s, "score-uniform", gamma) == pytest.approx(
                cs.expected_loss(y, s, "score-driven", 0), abs=1e-12)
            assert cs.expected_loss(y, s, "rate-uniform", gamma) == pytest.approx(
                cs.expected_loss(y, s, "rate-driven", 0), abs=1e-12)

    def test_prior_model_closed_forms(self):
        y = np.r_[np.zeros(44), np.ones(56)].astype(int)
        pi0, pi1 = 0.44, 0.56
        s = np.full(100, pi1)
        assert cs.brier_score(y, s) == pytest.approx(pi0 * pi1)
        assert cs.expected_loss(y, s, "score-driven", 0) == pytest.approx(2 * pi0 * pi1)
        assert cs.expected_loss(y, s, "rate-driven", np.inf) == pytest.approx(1 / 3)
        assert cs.expected_loss(y, s, "rate-driven", 0) == pytest.approx(1 / 2)
        assert cs.expected_loss(y, s, "test-optimal", np.inf) == pytest.approx(pi0 * pi1)
        # the complete-uncertainty rate-driven line runs from (0, pi1) to (1, pi0)
        np.testing.assert_allclose(cs.expected_cost_curve(y, s, "rate-driven", 0, [0, 1]), [pi1, pi0])

    def test_brier_decompositions(self, credit_a_scores):
        _, _, y, s = credit_a_scores
        for convexify in (False, True):
            d = cs.brier_decomposition(y, s, convexify=convexify)
            assert d["BS"] == pytest.approx(d["CL"] + d["RL"], abs=1e-12)
            assert d["CL"] >= -1e-12 and d["RL"] >= 0
        # two score groups, each holding one instance of each class: CL = RL = 1/4
        assert cs.brier_decomposition(Y4, np.array([0, 1, 0, 1.0])) == pytest.approx({"BS": 0.5, "CL": 0.25, "RL": 0.25})
        # every instance wrong with certainty: all of the Brier score is calibration loss
        assert cs.brier_decomposition(Y4, np.array([1, 1, 0, 0.0])) == pytest.approx({"BS": 1.0, "CL": 1.0, "RL": 0.0})


class TestLemma1AgainstOracles:
    @pytest.mark.parametrize("method", ["test-optimal", "train-optimal", "score-driven", "rate-driven"])
    def test_certain_curve_equals_direct_thresholds(self, method):
        y, s = random_sample(5)
        ytr, str_ = random_sample(6)
        c = np.linspace(0.0, 1.0, 203) * 0.999 + 0.000437  # avoids exact crossings
        exact = cs.expected_cost_curve(y, s, method, np.inf, c, y_train=ytr, s_train=str_)
        direct, _ = cs.monte_carlo_cost_curve(y, s, method, np.inf, c, n_draws=1, y_train=ytr, s_train=str_)
        np.testing.assert_allclose(exact, direct, atol=1e-12)

    @pytest.mark.parametrize("method", cs.METHODS)
    @pytest.mark.parametrize("gamma", [0.0, 1.0, 8.0])
    def test_monte_carlo_within_standard_error(self, method, gamma):
        y, s = random_sample(7, n=80)
        ytr, str_ = random_sample(8, n=80)
        c = np.array([0.05, 0.3, 0.55, 0.8, 0.97])
        exact = cs.expected_cost_curve(y, s, method, gamma, c, y_train=ytr, s_train=str_)
        mc, se = cs.monte_carlo_cost_curve(y, s, method, gamma, c, n_draws=20000, seed=11, y_train=ytr, s_train=str_)
        assert np.all(np.abs(exact - mc) <= 4.5 * se + 1e-12)

    def test_limits_in_gamma(self, credit_a_scores):
        ytr, str_, y, s = credit_a_scores
        for method in ("test-optimal", "train-optimal", "score-driven", "rate-driven"):
            kw = dict(y_train=ytr, s_train=str_)
            assert cs.expected_loss(y, s, method, 1e-7, **kw) == pytest.approx(cs.expected_loss(y, s, method, 0, **kw), abs=1e-6)
            assert cs.expected_loss(y, s, method, 1e4, **kw) == pytest.approx(cs.expected_loss(y, s, method, np.inf, **kw), abs=2e-3)

    @pytest.mark.parametrize("gamma", [0.5, 4.0, 16.0, 64.0])
    def test_quadrature_is_exact_to_1e_10(self, credit_a_scores, gamma):
        _, _, y, s = credit_a_scores
        nodes, weights = np.polynomial.legendre.leggauss(800)
        for method in ("score-driven", "rate-driven", "test-optimal"):
            sel = cs.threshold_selection(y, s, method)
            assert sel.loss(gamma) == pytest.approx(weights @ sel.curve(gamma, (nodes + 1) / 2) / 2, abs=1e-10)

    def test_grid_protocol_is_close_to_the_integral(self, credit_a_scores):
        _, _, y, s = credit_a_scores
        grid = np.linspace(0, 1, 1001)
        for gamma in (np.inf, 4.0, 0.0):
            exact = cs.expected_loss(y, s, "score-driven", gamma)
            assert cs.expected_loss(y, s, "score-driven", gamma, c_grid=grid) == pytest.approx(exact, abs=1e-3)

    def test_symmetry_under_swapping_classes(self):
        y, s = random_sample(9)
        for method in ("test-optimal", "score-driven", "rate-driven"):
            for gamma in (np.inf, 3.0, 0.0):
                assert cs.expected_loss(y, s, method, gamma) == pytest.approx(
                    cs.expected_loss(1 - y, 1 - s, method, gamma), abs=1e-9)
