"""Cost space: cost lines, threshold choice methods and uncertain operating conditions.

Ferri, Hernández-Orallo & Flach (2019), "Setting decision thresholds when operating
conditions are uncertain", Data Min. Knowl. Disc. 33:805–847 (henceforth FHF).

Conventions (FHF Sect. 4): labels ``y`` in {0, 1}, class 0 is the *positive* class, ``s`` is
the score of class 1 and an instance is predicted 1 when ``s > t``. The loss of threshold ``t``
at cost proportion ``c`` is Eq. 3 with E[b] = 2,

    Q(t; c) = 2 {c π0 (1 − F0(t)) + (1 − c) π1 F1(t)},

a straight *cost line* in ``c`` for each of the G + 1 distinct ways of cutting the G distinct
scores. A threshold choice method maps the *presumed* cost proportion ĉ to a threshold; under
operating-condition uncertainty ĉ | c ~ Beta(cγ + 1, (1 − c)γ + 1) (FHF Sect. 5) and the
expected cost curve is K_γ(c) = E[Q(T(ĉ); c) | c] (Eq. 8), the expected loss L_γ = ∫ K_γ(c) dc
(Eq. 7 with uniform w).

Every method is represented exactly as a piecewise function of ĉ (:class:`ThresholdSelection`):
on the segment [b_j, b_{j+1}] of presumed cost proportions the loss at true cost proportion c is

    Q(ĉ, c) = (p0_j + p1_j c) + ĉ (q0_j + q1_j c),

with q = 0 for the non-interpolating methods (a single cost line per segment) and q ≠ 0 for
rate-driven thresholds, which interpolate linearly between cost lines. Lemma 1 then gives K_γ
exactly from the Beta CDF at the breakpoints b_j (and, for the interpolating method, the Beta
partial first moment); γ = ∞ (ĉ = c) and γ = 0 (ĉ uniform) are the closed-form limits.
A Monte Carlo estimator (:func:`monte_carlo_cost_curve`), written independently from the
threshold definitions, is kept only as a test oracle.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special

from credalbook._validation import check_array, check_consistent_length, check_labels, check_scalar

__all__ = ["METHODS", "CostLines", "cost_lines", "loss", "ThresholdSelection", "c_quadrature",
           "threshold_selection", "expected_cost_curve", "expected_loss", "cost_curve",
           "monte_carlo_cost_curve", "brier_score", "mean_absolute_error", "auc", "pav_calibrate",
           "brier_decomposition"]

#: The threshold choice methods of Ferri et al. (2019), Sect. 4.
METHODS = ("test-optimal", "train-optimal", "score-driven", "rate-driven", "score-uniform", "rate-uniform")
_NEEDS_UNIT_SCORES = ("score-driven", "score-uniform")
_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(24)


# ----------------------------------------------------------------------------------------------
# validation

def _check_sample(y, s, y_name: str, s_name: str, *, unit: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Labels in {0, 1} with both classes present and finite 1-d scores of the same length."""
    labels = check_labels(y, n_classes=2, name=y_name)
    scores = check_array(s, s_name, ndim=1)
    check_consistent_length((y_name, labels), (s_name, scores))
    counts = np.bincount(labels, minlength=2)
    if counts.min() == 0:
        missing = int(np.argmin(counts))
        raise ValueError(f"{y_name} is a one-class sample (no instance of class {missing}): cost lines, "
                         f"F0 and F1 need both classes")
    if unit and (scores.min() < 0.0 or scores.max() > 1.0):
        raise ValueError(f"{s_name} must lie in [0, 1] (probability scores: score-driven/score-uniform thresholds, "
                         f"Brier score, MAE); got range [{scores.min():.6g}, {scores.max():.6g}]")
    return labels, scores


def _check_gamma(gamma) -> float:
    if isinstance(gamma, (int, float, np.integer, np.floating)) and not isinstance(gamma, bool):
        gamma = float(gamma)
    check_scalar(gamma, "gamma", low=0.0, high=np.inf)
    return gamma


def _check_method(method: str) -> str:
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}; got {method!r}")
    return method


def _check_c(c, name: str = "c_grid", ndim: int | None = 1) -> np.ndarray:
    grid = check_array(c, name, ndim=ndim)
    if grid.min() < 0.0 or grid.max() > 1.0:
        raise ValueError(f"{name} must lie in [0, 1] (cost proportions), got range [{grid.min()}, {grid.max()}]")
    return grid


# ----------------------------------------------------------------------------------------------
# cost lines

@dataclass(frozen=True)
class CostLines:
    """The G + 1 cost lines h_j(c) = l_j + k_j c of a scored sample (FHF Sect. 4, Eq. 3).

    ``scores`` are the G distinct scores in increasing order; line j predicts class 0 for the
    instances in the j lowest score groups (thresholds in [scores[j-1], scores[j])), so
    ``F0[j]``, ``F1[j]`` are the class-wise proportions of those instances and ``rate[j]`` the
    predicted positive rate R = π0 F0 + π1 F1.
    """

    scores: np.ndarray
    F0: np.ndarray
    F1: np.ndarray
    pi0: float
    pi1: float

    @property
    def intercept(self) -> np.ndarray:
        """l_j = h_j(0) = 2 π1 F1_j."""
        return 2.0 * self.pi1 * self.F1

    @property
    def slope(self) -> np.ndarray:
        """k_j = h_j(1) − h_j(0) = 2 π0 (1 − F0_j) − 2 π1 F1_j."""
        return 2.0 * self.pi0 * (1.0 - self.F0) - 2.0 * self.pi1 * self.F1

    @property
    def rate(self) -> np.ndarray:
        return self.pi0 * self.F0 + self.pi1 * self.F1

    def height(self, c) -> np.ndarray:
        """(len(c), G + 1) matrix of h_j(c)."""
        c = np.asarray(c, dtype=float)
        return self.intercept[None, :] + np.multiply.outer(c, self.slope)

    def line_at_threshold(self, t) -> np.ndarray:
        """Index of the cost line a threshold ``t`` realises (class 0 predicted for s <= t)."""
        return np.searchsorted(self.scores, np.asarray(t, dtype=float), side="right")

    def hull(self) -> np.ndarray:
        """Indices of the lines on the lower envelope over c in [0, 1] (the ROC convex hull),
        in increasing order of j (decreasing slope)."""
        l, k = self.intercept, self.slope
        stack: list[int] = []
        for j in range(len(l)):
            if stack and k[stack[-1]] == k[j]:
                if l[j] >= l[stack[-1]]:
                    continue
                stack.pop()
            while len(stack) >= 2:
                a, b = stack[-2], stack[-1]
                # b is useless if the crossing of a and j comes no later than that of a and b
                if (l[j] - l[a]) * (k[a] - k[b]) <= (l[b] - l[a]) * (k[a] - k[j]):
                    stack.pop()
                else:
                    break
            stack.append(j)
        return np.asarray(stack, dtype=np.int64)


def cost_lines(y, s) -> CostLines:
    """Cost lines of scores ``s`` (score of class 1) on labels ``y`` (FHF Sect. 4).

    Ties: instances with equal scores form one group, so a sample with G distinct scores has
    G + 1 cost lines.
    """
    labels, scores = _check_sample(y, s, "y", "s")
    return _cost_lines(labels, scores)


def _cost_lines(labels: np.ndarray, scores: np.ndarray) -> CostLines:
    unique, inverse = np.unique(scores, return_inverse=True)
    n0_g = np.bincount(inverse, weights=(labels == 0), minlength=len(unique))
    n1_g = np.bincount(inverse, weights=(labels == 1), minlength=len(unique))
    n0, n1 = n0_g.sum(), n1_g.sum()
    F0 = np.concatenate([[0.0], np.cumsum(n0_g)]) / n0
    F1 = np.concatenate([[0.0], np.cumsum(n1_g)]) / n1
    F0[-1] = F1[-1] = 1.0
    n = n0 + n1
    return CostLines(unique, F0, F1, float(n0 / n), float(n1 / n))


def loss(y, s, t, c) -> np.ndarray:
    """Q(t; c) of Eq. 3 (E[b] = 2) for thresholds ``t`` and cost proportions ``c`` (broadcast)."""
    labels, scores = _check_sample(y, s, "y", "s")
    lines = _cost_lines(labels, scores)
    t = check_array(t, "t")
    c = _check_c(c, "c", ndim=None)
    j = lines.line_at_threshold(t)
    return 2.0 * (c * lines.pi0 * (1.0 - lines.F0[j]) + (1.0 - c) * lines.pi1 * lines.F1[j])


# ----------------------------------------------------------------------------------------------
# threshold choice methods as piecewise functions of the presumed cost proportion

@dataclass(frozen=True)
class ThresholdSelection:
    """Q(T(ĉ); c) = (p0 + p1 c) + ĉ (q0 + q1 c) on the segments [breaks[j], breaks[j+1]] of ĉ.

    ``breaks`` runs from 0 to 1 (zero-length segments are kept so that γ = ∞ curves are exact
    at every point, with right-continuous choice at a breakpoint).
    """

    method: str
    breaks: np.ndarray
    p0: np.ndarray
    p1: np.ndarray
    q0: np.ndarray
    q1: np.ndarray

    @property
    def interpolating(self) -> bool:
        return bool(np.any(self.q0) or np.any(self.q1))

    def at(self, c_hat, c) -> np.ndarray:
        """Q(T(ĉ); c): the loss at true cost proportion ``c`` of the threshold chosen for the
        presumed ``c_hat`` (broadcast), e.g. the paper's Fig. 1 example ĉ = 0.15, c = 0.4."""
        c_hat = _check_c(np.atleast_1d(c_hat), "c_hat")
        c = _check_c(np.atleast_1d(c), "c")
        j = np.clip(np.searchsorted(self.breaks, c_hat, side="right") - 1, 0, len(self.p0) - 1)
        return self.p0[j] + self.p1[j] * c + c_hat * (self.q0[j] + self.q1[j] * c)

    def curve(self, gamma, c_grid) -> np.ndarray:
        """Expected cost curve K_γ(c) on ``c_grid`` (FHF Eq. 8, computed by Lemma 1)."""
        gamma = _check_gamma(gamma)
        c = _check_c(c_grid)
        if gamma == np.inf:
            return self.at(c, c)
        dV, dM = self._beta_increments(gamma, c)
        K = dV @ self.p0 + c * (dV @ self.p1)
        if dM is not None:
            K = K + dM @ self.q0 + c * (dM @ self.q1)
        return K

    def loss(self, gamma) -> float:
        """Expected loss L_γ = ∫_0^1 K_γ(c) dc (FHF Eq. 7, uniform w).

        γ = ∞ and γ = 0 are integrated in closed form; for 0 < γ < ∞ the integral over c uses a
        composite Gauss–Legendre rule whose panels grow with √γ (error below 10⁻¹⁰ in tests).
        """
        gamma = _check_gamma(gamma)
        b = self.breaks
        if gamma == np.inf:
            d1, d2, d3 = np.diff(b), np.diff(b ** 2) / 2, np.diff(b ** 3) / 3
            return float(self.p0 @ d1 + (self.p1 + self.q0) @ d2 + self.q1 @ d3)
        if gamma == 0.0:
            d1, d2 = np.diff(b), np.diff(b ** 2) / 2
            return float((self.p0 + self.p1 / 2) @ d1 + (self.q0 + self.q1 / 2) @ d2)
        nodes, weights = c_quadrature(gamma)
        return float(weights @ self.curve(gamma, nodes))

    def _beta_increments(self, gamma: float, c: np.ndarray):
        """ΔV_j(c) = V(b_{j+1}|c) − V(b_j|c) (Lemma 1) and the partial-first-moment increments."""
        inner, inverse = np.unique(self.breaks, return_inverse=True)
        alpha = c[:, None] * gamma + 1.0
        beta = (1.0 - c[:, None]) * gamma + 1.0
        if gamma == 0.0:
            V = np.broadcast_to(inner, (len(c), len(inner)))
            M = V ** 2 / 2 if self.interpolating else None
        else:
            V = special.betainc(alpha, beta, inner[None, :])
            M = (alpha / (gamma + 2.0)) * special.betainc(alpha + 1.0, beta, inner[None, :]) \
                if self.interpolating else None
        dV = np.diff(V[:, inverse], axis=1)
        dM = None if M is None else np.diff(M[:, inverse], axis=1)
        return dV, dM


def c_quadrature(gamma: float) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights of a composite 24-point Gauss–Legendre rule on [0, 1] for ∫ K_γ(c) dc
    (2 + ⌈√γ⌉ panels: the Beta weights sharpen as γ grows); 0 <= γ < ∞."""
    gamma = _check_gamma(gamma)
    if gamma == np.inf:
        raise ValueError("gamma must be finite for the quadrature in c (gamma = inf is integrated in closed form)")
    panels = 2 + int(np.ceil(np.sqrt(gamma)))
    edges = np.linspace(0.0, 1.0, panels + 1)
    half = np.diff(edges)[:, None] / 2
    nodes = (edges[:-1, None] + half * (_GL_NODES[None, :] + 1.0)).ravel()
    weights = (half * _GL_WEIGHTS[None, :]).ravel()
    return nodes, weights


def _segments_from_lines(method, breaks, lines: CostLines, index) -> ThresholdSelection:
    zeros = np.zeros(len(index))
    return ThresholdSelection(method, np.asarray(breaks, dtype=float), lines.intercept[index],
                              lines.slope[index], zeros, zeros.copy())


def _optimal_breaks(lines: CostLines) -> tuple[np.ndarray, np.ndarray]:
    """Hull line indices and the ĉ where consecutive hull lines cross (T^o, Eq. 5)."""
    hull = lines.hull()
    l, k = lines.intercept[hull], lines.slope[hull]
    crossings = (l[1:] - l[:-1]) / (k[:-1] - k[1:])
    return hull, np.concatenate([[0.0], np.clip(crossings, 0.0, 1.0), [1.0]])


def threshold_selection(y_test, s_test, method: str, *, y_train=None, s_train=None) -> ThresholdSelection:
    """Exact piecewise description of a threshold choice method on a test sample (FHF Sect. 4).

    - ``test-optimal``: T^o(ĉ) = argmin_t Q_test(t; ĉ) (Eq. 5): the lower envelope / ROC convex
      hull of the test cost lines; breakpoints where consecutive hull lines cross.
    - ``train-optimal``: the same argmin on the training sample; the chosen threshold (midpoint
      between consecutive distinct training scores; −∞/+∞ for the trivial lines) is applied to
      the test sample.
    - ``score-driven``: T^sd(ĉ) = ĉ (Definition 4); breakpoints at the distinct test scores.
    - ``rate-driven``: T^rd(ĉ) = R⁻¹(ĉ) (Definition 5), interpolating linearly between the cost
      lines at the achievable rates R_j (fractional instances inside a tied group).
    - ``score-uniform`` / ``rate-uniform``: threshold (rate) uniform on [0, 1] whatever ĉ
      (Hernández-Orallo et al. 2013); their curve does not depend on γ.
    """
    method = _check_method(method)
    labels, scores = _check_sample(y_test, s_test, "y_test", "s_test", unit=method in _NEEDS_UNIT_SCORES)
    lines = _cost_lines(labels, scores)
    G = len(lines.scores)
    if method == "test-optimal":
        hull, breaks = _optimal_breaks(lines)
        return _segments_from_lines(method, breaks, lines, hull)
    if method == "train-optimal":
        if y_train is None or s_train is None:
            raise ValueError("train-optimal thresholds need y_train and s_train")
        train_labels, train_scores = _check_sample(y_train, s_train, "y_train", "s_train")
        train_lines = _cost_lines(train_labels, train_scores)
        hull, breaks = _optimal_breaks(train_lines)
        u = train_lines.scores
        cuts = np.concatenate([[-np.inf], (u[:-1] + u[1:]) / 2, [np.inf]])
        return _segments_from_lines(method, breaks, lines, lines.line_at_threshold(cuts[hull]))
    if method == "score-driven":
        breaks = np.concatenate([[0.0], lines.scores, [1.0]])
        return _segments_from_lines(method, breaks, lines, np.arange(G + 1))
    if method == "rate-driven":
        R = lines.rate
        R[-1] = 1.0
        l, k = lines.intercept, lines.slope
        dl, dk, dR = np.diff(l), np.diff(k), np.diff(R)
        q0, q1 = dl / dR, dk / dR
        return ThresholdSelection(method, R, l[:-1] - R[:-1] * q0, k[:-1] - R[:-1] * q1, q0, q1)
    # uniform baselines: one segment whose line is the average of the lines the random choice hits
    if method == "score-uniform":
        width = np.diff(np.concatenate([[0.0], lines.scores, [1.0]]))
    else:
        width = np.diff(lines.rate)
        width = np.concatenate([[width[0] / 2], (width[:-1] + width[1:]) / 2, [width[-1] / 2]])
    return ThresholdSelection(method, np.array([0.0, 1.0]), np.array([width @ lines.intercept]),
                              np.array([width @ lines.slope]), np.zeros(1), np.zeros(1))


def expected_cost_curve(y_test, s_test, method: str, gamma, c_grid, *, y_train=None, s_train=None) -> np.ndarray:
    """K_γ(c) on ``c_grid`` for a threshold choice method (FHF Eq. 8, exact through Lemma 1)."""
    gamma = _check_gamma(gamma)
    grid = _check_c(c_grid)
    return threshold_selection(y_test, s_test, method, y_train=y_train, s_train=s_train).curve(gamma, grid)


def expected_loss(y_test, s_test, method: str, gamma, *, y_train=None, s_train=None, c_grid=None) -> float:
    """Expected loss L_γ (FHF Eq. 7, uniform w over the true cost proportion c).

    ``c_grid=None`` integrates K_γ exactly over [0, 1] (closed form for γ = 0 and γ = ∞);
    a ``c_grid`` gives instead the mean of K_γ over those points (the paper's 1001-point protocol).
    """
    gamma = _check_gamma(gamma)
    selection = threshold_selection(y_test, s_test, method, y_train=y_train, s_train=s_train)
    if c_grid is None:
        return selection.loss(gamma)
    return float(np.mean(selection.curve(gamma, _check_c(c_grid))))


def cost_curve(y_test, s_test, method: str, c_grid, *, y_train=None, s_train=None) -> np.ndarray:
    """Cost curve Q(T(c); c) under complete certainty (γ = ∞), FHF Sect. 4."""
    return expected_cost_curve(y_test, s_test, method, np.inf, c_grid, y_train=y_train, s_train=s_train)


# ----------------------------------------------------------------------------------------------
# Monte Carlo oracle (tests only): thresholds computed from their definitions, ĉ sampled

def _direct_loss(labels, scores, c, predicted0_weight) -> np.ndarray:
    """Eq. 3 from per-instance weights of predicting class 0; shapes (..., n) -> (...)."""
    n = len(labels)
    err0 = ((1.0 - predicted0_weight) * (labels == 0)).sum(axis=-1)
    err1 = (predicted0_weight * (labels == 1)).sum(axis=-1)
    return 2.0 / n * (c * err0 + (1.0 - c) * err1)


def _direct_predictions(method, labels, scores, c_hat, rng, train):
    """Per-instance weight of predicting class 0 for each presumed ĉ (shape (m, n))."""
    c_hat = np.asarray(c_hat, dtype=float)[:, None]
    if method == "score-driven":
        return (scores[None, :] <= c_hat).astype(float)
    if method == "score-uniform":
        return (scores[None, :] <= rng.uniform(size=c_hat.shape)).astype(float)
    if method in ("rate-driven", "rate-uniform"):
        r = c_hat if method == "rate-driven" else rng.uniform(size=c_hat.shape)
        n = len(scores)
        before = np.array([np.sum(scores < v) for v in scores], dtype=float)
        size = np.array([np.sum(scores == v) for v in scores], dtype=float)
        return np.clip((r * n - before[None, :]) / size[None, :], 0.0, 1.0)
    ref_labels, ref_scores = (labels, scores) if method == "test-optimal" else train
    candidates = np.concatenate([[-np.inf], np.unique(ref_scores)])
    pred0 = (ref_scores[None, :] <= candidates[:, None])
    n = len(ref_labels)
    fn = (~pred0 & (ref_labels == 0)).sum(axis=1) / n
    fp = (pred0 & (ref_labels == 1)).sum(axis=1) / n
    best = np.argmin(c_hat * fn[None, :] + (1 - c_hat) * fp[None, :], axis=1)
    u = np.unique(ref_scores)
    midpoints = np.concatenate([[-np.inf], (u[:-1] + u[1:]) / 2, [np.inf]])
    t = candidates[best] if method == "test-optimal" else midpoints[best]
    return (scores[None, :] <= t[:, None]).astype(float)


def monte_carlo_cost_curve(y_test, s_test, method: str, gamma, c_grid, *, n_draws: int = 1000, seed: int = 0,
                           y_train=None, s_train=None) -> tuple[np.ndarray, np.ndarray]:
    """Monte Carlo estimate of K_γ(c) and its standard error: ĉ ~ Beta(cγ+1, (1−c)γ+1) sampled
    ``n_draws`` times per c (the R code of FHF draws one), thresholds from their definitions.

    A test oracle for :meth:`ThresholdSelection.curve`; not used for the book's numbers.
    """
    method = _check_method(method)
    gamma = _check_gamma(gamma)
    grid = _check_c(c_grid)
    check_scalar(n_draws, "n_draws", low=1, integer=True)
    labels, scores = _check_sample(y_test, s_test, "y_test", "s_test", unit=method in _NEEDS_UNIT_SCORES)
    train = None
    if method == "train-optimal":
        if y_train is None or s_train is None:
            raise ValueError("train-optimal thresholds need y_train and s_train")
        train = _check_sample(y_train, s_train, "y_train", "s_train")
    rng = np.random.default_rng(seed)
    means, errors = np.empty(len(grid)), np.empty(len(grid))
    for i, c in enumerate(grid):
        if gamma == np.inf:
            c_hat = np.full(n_draws, c)
        else:
            c_hat = rng.beta(c * gamma + 1.0, (1.0 - c) * gamma + 1.0, size=n_draws)
        values = _direct_loss(labels, scores, c, _direct_predictions(method, labels, scores, c_hat, rng, train))
        means[i] = values.mean()
        errors[i] = values.std(ddof=1) / np.sqrt(n_draws) if n_draws > 1 else np.nan
    return means, errors


# ----------------------------------------------------------------------------------------------
# aggregate measures

def brier_score(y, s) -> float:
    """BS = mean (s − y)², s the score of class 1 (area under the Brier curve, FHF Table 4)."""
    labels, scores = _check_sample(y, s, "y", "s", unit=True)
    return float(np.mean((scores - labels) ** 2))


def mean_absolute_error(y, s) -> float:
    """MAE = mean :math:`|y - s|` = π0 s̄0 + π1 (1 − s̄1) for scores in [0, 1] (FHF Corollary 1)."""
    labels, scores = _check_sample(y, s, "y", "s", unit=True)
    return float(np.mean(np.abs(labels - scores)))


def auc(y, s) -> float:
    """Area under the ROC curve: P(s of a class-1 instance > s of a class-0 instance), ties 1/2."""
    labels, scores = _check_sample(y, s, "y", "s")
    from scipy.stats import rankdata

    ranks = rankdata(scores)
    n1 = labels.sum()
    n0 = len(labels) - n1
    return float((ranks[labels == 1].sum() - n1 * (n1 + 1) / 2) / (n0 * n1))


def pav_calibrate(y, s) -> np.ndarray:
    """Scores after isotonic (PAV) calibration = ROC convex-hull calibration (Fawcett &
    Niculescu-Mizil 2007); tied scores are pooled first (scikit-learn's IsotonicRegression)."""
    labels, scores = _check_sample(y, s, "y", "s")
    from sklearn.isotonic import IsotonicRegression

    return IsotonicRegression(y_min=0.0, y_max=1.0, increasing=True).fit_transform(scores, labels.astype(float))


def brier_decomposition(y, s, *, convexify: bool = False) -> dict:
    """BS = CL + RL over segments of equal score (Flach & Matsubara 2007):

    CL = (1/n) Σ_g n_g (s_g − ȳ_g)², RL = (1/n) Σ_g n_g ȳ_g (1 − ȳ_g).

    ``convexify=True`` takes RL after PAV / convex-hull calibration (RL_conv, which equals the
    test-optimal loss under certainty, FHF Table 4) and CL = BS − RL_conv.
    """
    labels, scores = _check_sample(y, s, "y", "s", unit=True)
    bs = float(np.mean((scores - labels) ** 2))
    groups = pav_calibrate(labels, scores) if convexify else scores
    _, inverse, counts = np.unique(groups, return_inverse=True, return_counts=True)
    ybar = np.bincount(inverse, weights=labels) / counts
    n = len(labels)
    rl = float(np.sum(counts * ybar * (1 - ybar)) / n)
    if convexify:
        return {"BS": bs, "CL": bs - rl, "RL": rl}
    sbar = np.bincount(inverse, weights=scores) / counts
    cl = float(np.sum(counts * (sbar - ybar) ** 2) / n)
    return {"BS": bs, "CL": cl, "RL": rl}
