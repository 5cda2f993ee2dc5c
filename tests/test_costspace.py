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


# ----------------------------------------------------------------------------------------------
# the exact loss against a brute-force reference (issue 16: the loss from the Beta density)

def reference_curve(sel, gamma, c):
    """K_γ(c) by Lemma 1 written out directly: V and the partial first moment M from ``betainc``
    at every breakpoint (M = α/(γ + 2) I_x(α + 1, β), no recurrence), 0 < γ < ∞."""
    from scipy import special

    c = np.atleast_1d(np.asarray(c, dtype=float))[:, None]
    alpha, beta = c * gamma + 1.0, (1.0 - c) * gamma + 1.0
    V = special.betainc(alpha, beta, sel.breaks[None, :])
    M = alpha / (gamma + 2.0) * special.betainc(alpha + 1.0, beta, sel.breaks[None, :])
    dV, dM = np.diff(V, axis=1), np.diff(M, axis=1)
    c = c[:, 0]
    return dV @ sel.p0 + c * (dV @ sel.p1) + dM @ sel.q0 + c * (dM @ sel.q1)


def reference_loss(sel, gamma):
    """L_γ = ∫_0^1 K_γ(c) dc by adaptive quadrature (scipy.integrate.quad) of the reference curve;
    γ = ∞ and γ = 0 by quadrature of Q(c, c) and of ∫ Q(ĉ, c) dĉ over the breakpoints."""
    from scipy import integrate

    b = np.unique(np.r_[0.0, sel.breaks, 1.0])
    if gamma == np.inf:
        f = lambda c: sel.at(c, c)[0]  # noqa: E731
        return sum(integrate.quad(f, lo, hi, epsabs=1e-14, epsrel=0)[0] for lo, hi in zip(b[:-1], b[1:]) if hi > lo)
    if gamma == 0.0:
        inner = lambda c: sum(integrate.quad(lambda h: sel.at(h, c)[0], lo, hi, epsabs=1e-14, epsrel=0)[0]  # noqa: E731
                              for lo, hi in zip(b[:-1], b[1:]) if hi > lo)
        return integrate.quad(inner, 0, 1, epsabs=1e-13, epsrel=0)[0]
    f = lambda c: reference_curve(sel, gamma, c)[0]  # noqa: E731
    edges = np.linspace(0, 1, 5)  # a few panels help quad with the sharp curves of large γ
    return sum(integrate.quad(f, lo, hi, epsabs=1e-13, epsrel=0, limit=500)[0]
               for lo, hi in zip(edges[:-1], edges[1:]))


STUDY_GAMMAS = (np.inf, 16.0, 8.0, 4.0, 2.0, 1.0, 0.0, 32.0, 64.0, 100.0)


def extreme_sample(seed, n):
    """Naive-Bayes-like scores piled up next to 0 and 1 (down to 10⁻²⁰⁰), and exact 0 and 1."""
    rng = np.random.default_rng(seed)
    y = np.r_[0, 1, rng.integers(0, 2, n - 2)]
    s = 1 / (1 + np.exp(-rng.normal(12 * (y - 0.5), 12, n)))
    s[:3] = [0.0, 1.0, 1e-200]
    return y, s


class TestExactLossAgainstBruteForce:
    @pytest.mark.parametrize("method", cs.METHODS)
    @pytest.mark.parametrize("gamma", STUDY_GAMMAS)
    def test_every_method_and_gamma_to_1e_10(self, method, gamma):
        y, s = random_sample(21, n=60, ties=3)
        ytr, str_ = random_sample(22, n=40, ties=2)
        sel = cs.threshold_selection(y, s, method, y_train=ytr, s_train=str_)
        assert sel.loss(gamma) == pytest.approx(reference_loss(sel, gamma), abs=1e-10)

    @pytest.mark.parametrize("method", ["score-driven", "rate-driven", "test-optimal"])
    @pytest.mark.parametrize("gamma", [1.0, 16.0, 100.0])
    def test_extreme_scores(self, method, gamma):
        y, s = extreme_sample(23, 80)
        sel = cs.threshold_selection(y, s, method)
        assert sel.loss(gamma) == pytest.approx(reference_loss(sel, gamma), abs=1e-10)

    @pytest.mark.parametrize("gamma", [0.5, 4.0, 100.0, 1000.0, 5000.0])
    def test_curve_equals_lemma1_with_betainc(self, gamma):
        """The curve at arbitrary c (0 and 1 included) equals Lemma 1 evaluated with betainc (above
        γ = 1000 the curve takes every segment from betainc)."""
        c = np.r_[0.0, np.linspace(0, 1, 97)[1:-1] ** 2, 1e-9, 1 - 1e-9, 1.0]
        for seed, sample in ((24, random_sample(24, n=150, ties=3)), (25, extreme_sample(25, 150))):
            y, s = sample
            for method in ("score-driven", "rate-driven", "test-optimal"):
                sel = cs.threshold_selection(y, s, method)
                np.testing.assert_allclose(sel.curve(gamma, c), reference_curve(sel, gamma, c), rtol=0, atol=1e-12,
                                           err_msg=f"{method}, seed {seed}")

    def test_large_sample_to_1e_10(self, credit_a_scores):
        ytr, str_, y, s = credit_a_scores
        for method in ("score-driven", "rate-driven", "train-optimal"):
            sel = cs.threshold_selection(y, s, method, y_train=ytr, s_train=str_)
            for gamma in (1.0, 16.0, 100.0):
                assert sel.loss(gamma) == pytest.approx(reference_loss(sel, gamma), abs=1e-10), (method, gamma)

    @settings(max_examples=25, deadline=None)
    @given(n=st.integers(2, 12), seed=st.integers(0, 10_000), levels=st.sampled_from([2, 3, 10, 0]),
           gamma=st.sampled_from([0.7, 1.0, 4.0, 16.0, 100.0]), method=st.sampled_from(cs.METHODS))
    def test_small_samples_ties_and_one_minority_instance(self, n, seed, levels, gamma, method):
        """n = 2, heavy ties (scores on a grid of ``levels`` values, 0 = continuous), a single
        instance of one class, all scores equal."""
        rng = np.random.default_rng(seed)
        y = np.zeros(n, dtype=int)
        y[rng.integers(0, n)] = 1
        if seed % 2:
            y = 1 - y
        if seed % 3 == 0:
            y = rng.permutation(np.r_[0, 1, rng.integers(0, 2, n - 2)])
        s = rng.uniform(size=n)
        if levels:
            s = np.round(s * (levels - 1)) / (levels - 1)
        if seed % 7 == 0:
            s = np.full(n, 0.5)
        sel = cs.threshold_selection(y, s, method, y_train=y[::-1], s_train=s)
        assert sel.loss(gamma) == pytest.approx(reference_loss(sel, gamma), abs=1e-10)

    @pytest.mark.parametrize("method", cs.METHODS)
    def test_single_segment_closed_form(self, method):
        """All scores tied: rate-driven (q ≠ 0) and the uniform baselines have the single segment
        [0, 1] of ĉ, whose loss and curve are closed forms in γ; the others two segments."""
        y, s = np.array([0, 1, 1, 0, 1]), np.full(5, 0.3)
        sel = cs.threshold_selection(y, s, method, y_train=y, s_train=s)
        assert (sel._whole_segment() is not None) == (method in ("rate-driven", "score-uniform", "rate-uniform"))
        c = np.linspace(0, 1, 7)
        for gamma in (0.3, 1.0, 16.0, 100.0):
            assert sel.loss(gamma) == pytest.approx(reference_loss(sel, gamma), abs=1e-12)
            np.testing.assert_allclose(sel.curve(gamma, c), reference_curve(sel, gamma, c), rtol=0, atol=1e-14)

    def test_one_class_samples_are_refused(self):
        for method in cs.METHODS:
            with pytest.raises(ValueError, match="one-class sample"):
                cs.threshold_selection([1, 1, 1], [0.2, 0.4, 0.9], method, y_train=[0, 1], s_train=[0.1, 0.2])

    def test_partial_moment_recurrence(self):
        """M(x | c) from the recurrence I_x(a + 1, b) = I_x(a, b) − x^a (1 − x)^b / (a B(a, b))
        equals α/(γ + 2) I_x(α + 1, β): the edge segments of a rate-driven selection."""
        from scipy import special

        y, s = extreme_sample(26, 40)
        sel = cs.threshold_selection(y, s, "rate-driven")
        _, _, _, edge = cs._density_panels(sel.breaks, 9.0)
        assert len(edge) >= 2  # the segments touching 0 and 1 at least
        c = np.linspace(0, 1, 41)
        assert np.max(np.abs(sel.curve(9.0, c) - reference_curve(sel, 9.0, c))) < 1e-13
        x, gamma, cc = 0.37, 9.0, 0.61
        a, b = cc * gamma + 1, (1 - cc) * gamma + 1
        direct = a / (gamma + 2) * special.betainc(a + 1, b, x)
        recurrence = (a * special.betainc(a, b, x) - x ** a * (1 - x) ** b / special.beta(a, b)) / (gamma + 2)
        assert recurrence == pytest.approx(direct, abs=1e-15)
