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
exactly from the increments of the Beta CDF between the breakpoints b_j (and, for the
interpolating method, of the Beta partial first moment), integrated from the Beta density
except next to 0 and 1, where ``betainc`` gives them; γ = ∞ (ĉ = c) and γ = 0 (ĉ uniform)
are the closed-form limits.
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
           "monte_carlo_cost_curve", "monte_carlo_loss", "brier_score", "mean_absolute_error", "auc", "pav_calibrate",
           "brier_decomposition", "deployment_threshold"]

#: The threshold choice methods of Ferri et al. (2019), Sect. 4.
METHODS = ("test-optimal", "train-optimal", "score-driven", "rate-driven", "score-uniform", "rate-uniform")
_NEEDS_UNIT_SCORES = ("score-driven", "score-uniform")
_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(24)
# Gauss–Legendre rules for the panels of the Beta density (``_density_panels``): a panel whose
# ratio is at most _GL_RATIOS[i] takes _GL_RULES[i]; no panel has a ratio above _MAX_RATIO
_GL_RATIOS = np.array([1 / 32, 1 / 8, 1 / 4, 1 / 2])
_GL_RULES = [np.polynomial.legendre.leggauss(n) for n in (3, 4, 6, 8)]
_MAX_RATIO = 0.5
# a segment needing more panels than this is cheaper from betainc (8 nodes a panel, a few
# nanoseconds a node, against half a microsecond a betainc call)
_MAX_PANELS = 8
# above this γ most pairs of nodes (c, t) lie in the Beta tails, where betainc is quick: all from betainc
_MAX_DENSITY_GAMMA = 1000.0
# with this few segments (the optimal methods' hull) betainc at the breakpoints is cheaper than the set-up
_MIN_DENSITY_SEGMENTS = 8
_BLOCK = 1 << 18  # elements of one block of densities (c nodes x t nodes)


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

    Obtained from :func:`cost_lines`, not built by hand.

    Examples
    --------
    Six instances, three of each class, scored by the probability of class 1:

    >>> lines = cost_lines([0, 0, 1, 0, 1, 1], [0.1, 0.3, 0.4, 0.6, 0.7, 0.9])
    >>> len(lines.scores), lines.pi0, lines.pi1  # G = 6 distinct scores: 7 cost lines
    (6, 0.5, 0.5)
    >>> lines.F0.round(3).tolist()  # share of class 0 at or below each cut
    [0.0, 0.333, 0.667, 0.667, 1.0, 1.0, 1.0]
    >>> lines.intercept.round(3).tolist()  # h_j(0) = 2 π1 F1_j
    [0.0, 0.0, 0.0, 0.333, 0.333, 0.667, 1.0]
    >>> lines.height([0.5]).round(3).tolist()  # each line at c = 1/2
    [[0.5, 0.333, 0.167, 0.333, 0.167, 0.333, 0.5]]
    >>> lines.hull().tolist()  # the lines of the lower envelope (ROC convex hull)
    [0, 2, 4, 6]
    >>> int(lines.line_at_threshold(0.5))  # t = 0.5 predicts class 0 for the three lowest scores
    3
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

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels in {0, 1}, both present (class 0 is the positive class).
    s : array-like of shape (n,)
        Scores of class 1.

    Returns
    -------
    CostLines

    Examples
    --------
    >>> lines = cost_lines([0, 1, 1, 0], [0.2, 0.5, 0.5, 0.9])  # the two 0.5 are one group
    >>> lines.scores.tolist()
    [0.2, 0.5, 0.9]
    >>> lines.intercept.tolist(), lines.slope.tolist()  # lines h_j(c) = l_j + k_j c
    ([0.0, 0.0, 1.0, 1.0], [1.0, 0.5, -0.5, -1.0])
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
    """Q(t; c) of Eq. 3 (E[b] = 2) for thresholds ``t`` and cost proportions ``c`` (broadcast).

    Class 1 is predicted when ``s > t``.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels in {0, 1}, both present.
    s : array-like of shape (n,)
        Scores of class 1.
    t : float or array-like
        Thresholds.
    c : float or array-like
        Cost proportions in [0, 1].

    Returns
    -------
    ndarray
        Q(t; c), broadcast over ``t`` and ``c``.

    Examples
    --------
    With t = 0.35 the two lowest scores (both of class 0) are predicted 0 and every class-1
    instance is predicted 1: F0 = 2/3, F1 = 0, so Q = 2 c π0 (1 − F0) = c/3.

    >>> y, s = [0, 0, 1, 0, 1, 1], [0.1, 0.3, 0.4, 0.6, 0.7, 0.9]
    >>> loss(y, s, 0.35, [0.0, 0.5, 1.0]).round(3).tolist()
    [0.0, 0.167, 0.333]
    >>> loss(y, s, [0.35, 0.5, 0.8], 0.5).round(3).tolist()
    [0.167, 0.333, 0.333]
    """
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

    Obtained from :func:`threshold_selection`, not built by hand.

    Examples
    --------
    >>> import numpy as np
    >>> y, s = [0, 0, 1, 0, 1, 1], [0.1, 0.3, 0.4, 0.6, 0.7, 0.9]
    >>> optimal = threshold_selection(y, s, "test-optimal")
    >>> optimal.breaks.round(3).tolist()  # the hull lines cross at ĉ = 1/2
    [0.0, 0.0, 0.5, 1.0, 1.0]
    >>> optimal.interpolating
    False

    The threshold chosen for a presumed ĉ = 0.15 but paid at the true c = 0.9 (the situation of
    Ferri et al.'s Fig. 1) costs nine times the one chosen knowing c:

    >>> optimal.at(0.15, 0.9).round(3).tolist(), optimal.at(0.9, 0.9).round(3).tolist()
    ([0.3], [0.033])
    >>> optimal.curve(np.inf, [0.0, 0.25, 0.5, 0.75, 1.0]).round(3).tolist()
    [0.0, 0.083, 0.167, 0.083, 0.0]
    >>> round(optimal.loss(np.inf), 4), round(optimal.loss(0), 4)  # certainty, ĉ uniform
    (0.0833, 0.1667)
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
        return self._expected_costs(gamma, c)

    def loss(self, gamma) -> float:
        """Expected loss L_γ = ∫_0^1 K_γ(c) dc (FHF Eq. 7, uniform w).

        γ = ∞ and γ = 0 are integrated in closed form, and so is a selection with a single
        segment [0, 1] of ĉ (the uniform baselines): there ΔV = 1 and ΔM = E[ĉ | c] =
        (cγ + 1)/(γ + 2), so L_γ = p0 + p1/2 + (q0 (γ/2 + 1) + q1 (γ/3 + 1/2))/(γ + 2). For
        0 < γ < ∞ otherwise, the integral over c uses a composite Gauss–Legendre rule whose
        panels grow with √γ (:func:`c_quadrature`, error below 10⁻¹⁰ in tests) over K_γ
        computed as in :meth:`ThresholdSelection.curve`.
        """
        gamma = _check_gamma(gamma)
        b = self.breaks
        if gamma == np.inf:
            d1, d2, d3 = np.diff(b), np.diff(b ** 2) / 2, np.diff(b ** 3) / 3
            return float(self.p0 @ d1 + (self.p1 + self.q0) @ d2 + self.q1 @ d3)
        if gamma == 0.0:
            d1, d2 = np.diff(b), np.diff(b ** 2) / 2
            return float((self.p0 + self.p1 / 2) @ d1 + (self.q0 + self.q1 / 2) @ d2)
        whole = self._whole_segment()
        if whole is not None:
            p0, p1, q0, q1 = self.p0[whole], self.p1[whole], self.q0[whole], self.q1[whole]
            return float(p0 + p1 / 2 + (q0 * (gamma / 2 + 1) + q1 * (gamma / 3 + 0.5)) / (gamma + 2))
        nodes, weights = c_quadrature(gamma)
        return float(weights @ self._expected_costs(gamma, nodes))

    def _whole_segment(self):
        """Index of the only segment of nonzero length when it is [0, 1], else None."""
        lengths = np.flatnonzero(np.diff(self.breaks))
        if len(lengths) == 1 and self.breaks[lengths[0]] == 0.0 and self.breaks[lengths[0] + 1] == 1.0:
            return int(lengths[0])
        return None

    def _expected_costs(self, gamma: float, c: np.ndarray) -> np.ndarray:
        """K_γ(c) for 0 <= γ < ∞ by Lemma 1 (FHF Eq. 8), with the increments of the Beta CDF
        V and of its partial first moment M integrated from the density where that is cheaper.

        Lemma 1 (with the interpolating terms of rate-driven thresholds) reads, for the
        segments [b_j, b_{j+1}] of ĉ and the Beta(α, β) density f(t | c) of ĉ, α = cγ + 1,
        β = (1 − c)γ + 1,

            K_γ(c) = Σ_j (p0_j + p1_j c) ΔV_j(c) + (q0_j + q1_j c) ΔM_j(c),
            ΔV_j(c) = ∫_{b_j}^{b_{j+1}} f(t | c) dt,   ΔM_j(c) = ∫_{b_j}^{b_{j+1}} t f(t | c) dt.

        Taking V(b_j | c) = I_{b_j}(α, β) from ``betainc`` at every breakpoint and every c (and
        again with α + 1 for M) costs about half a microsecond a call. Instead, a segment away
        from 0 and 1 (no longer than half its distance to the nearer end; f is analytic inside
        (0, 1)) is integrated by Gauss–Legendre panels shorter than a fraction of the
        density's width √(t(1 − t)/γ) (``_density_panels``): one ``exp`` of
        log f = (α − 1) log t + (β − 1) log(1 − t) − log B(α, β) per node and c, a few
        nanoseconds, with log B from ``_log_beta`` (accurate where γ is large).
        The remaining segments, those touching 0 or 1 or long next to them, take V from
        ``betainc`` and M from the recurrence
        I_x(α + 1, β) = I_x(α, β) − x^α (1 − x)^β / (α B(α, β)), i.e.

            M(x | c) = α/(γ + 2) I_x(α + 1, β) = (α V(x | c) − x^α (1 − x)^β / B(α, β)) / (γ + 2),

        one ``betainc`` per breakpoint and c instead of two. Both agree with ``betainc`` at
        every breakpoint to about 10⁻¹³ for γ <= 2000 (``tests/test_costspace.py``).
        """
        c = np.asarray(c, dtype=float)
        whole = self._whole_segment()
        if whole is not None:  # ΔV = 1, ΔM = E[ĉ | c]
            return (self.p0[whole] + self.p1[whole] * c
                    + (self.q0[whole] + self.q1[whole] * c) * (c * gamma + 1) / (gamma + 2))
        coefficients = np.stack([self.p0, self.p1, self.q0, self.q1], axis=1)
        if gamma == 0.0:
            b = self.breaks
            dV = np.broadcast_to(np.diff(b), (len(c), len(self.p0)))
            dM = np.broadcast_to(np.diff(b ** 2) / 2, (len(c), len(self.p0)))
            return dV @ self.p0 + c * (dV @ self.p1) + dM @ self.q0 + c * (dM @ self.q1)
        breaks = _snap_to_ends(self.breaks, gamma)
        t, w, segment, edge = _density_panels(breaks, gamma)
        alpha, beta = c * gamma + 1.0, (1.0 - c) * gamma + 1.0
        interpolating = self.interpolating
        log_beta = _log_beta(alpha, beta) if len(t) or interpolating else None
        K = np.zeros(len(c))
        if len(t):
            # columns: ∫ P0(t) f dt and ∫ P1(t) f dt with P0 = p0 + q0 t, P1 = p1 + q1 t
            rows = coefficients[segment]
            weights = np.stack([w * (rows[:, 0] + t * rows[:, 2]), w * (rows[:, 1] + t * rows[:, 3])])
            log_t, log_1mt = np.log(t), np.log1p(-t)
            logit, tail = log_t - log_1mt, gamma * log_1mt
            step = max(1, _BLOCK // len(t))
            for start in range(0, len(c), step):
                part = slice(start, start + step)
                exponent = np.multiply.outer(c[part] * gamma, logit)
                exponent += tail
                exponent -= log_beta[part, None]
                density = np.exp(exponent, out=exponent)
                # vecdot, not matmul: a multithreaded BLAS call is many times slower on a busy machine
                K[part] = np.vecdot(density, weights[0]) + c[part] * np.vecdot(density, weights[1])
        if len(edge):
            lo, hi = breaks[edge], breaks[edge + 1]
            points, inverse = np.unique(np.concatenate([lo, hi]), return_inverse=True)
            inner = (points > 0.0) & (points < 1.0)
            V = np.zeros((len(c), len(points)))
            V[:, points >= 1.0] = 1.0
            V[:, inner] = special.betainc(alpha[:, None], beta[:, None], points[None, inner])
            rows = coefficients[edge]
            dV = V[:, inverse[len(edge):]] - V[:, inverse[:len(edge)]]
            K += dV @ rows[:, 0] + c * (dV @ rows[:, 1])
            if interpolating:
                M = np.zeros_like(V)
                M[:, points >= 1.0] = (alpha / (gamma + 2.0))[:, None]
                x = points[inner]
                density = np.exp(np.multiply.outer(alpha, np.log(x)) + np.multiply.outer(beta, np.log1p(-x))
                                 - log_beta[:, None])
                M[:, inner] = (alpha[:, None] * V[:, inner] - density) / (gamma + 2.0)
                dM = M[:, inverse[len(edge):]] - M[:, inverse[:len(edge)]]
                K += dM @ rows[:, 2] + c * (dM @ rows[:, 3])
        return K


# Stirling series of lgamma(x) − ((x − 1/2) log x − x + log √(2π)): B_2k / (2k (2k − 1)), k = 1..8
_STIRLING = np.array([1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156, -3617 / 122400])
_LOG_SQRT_2PI = 0.5 * np.log(2 * np.pi)


def _lgamma_correction(x: np.ndarray) -> np.ndarray:
    """lgamma(x) − ((x − 1/2) log x − x + log √(2π)) for x >= 10 (error below 10⁻¹⁶)."""
    inv2 = 1.0 / (x * x)
    series = np.zeros_like(x)
    for coefficient in _STIRLING[::-1]:
        series = series * inv2 + coefficient
    return series / x


def _log_beta(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log B(a, b) without the cancellation of lgamma(a) + lgamma(b) − lgamma(a + b), which costs
    about 10⁻¹² at a + b = 2000: Stirling's series with its corrections (as R's ``lbeta``)
    where min(a, b) >= 10, lgamma(p) plus a correction where only max(a, b) >= 10."""
    a, b = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(b, dtype=float))
    p, q = np.minimum(a, b), np.maximum(a, b)
    out = special.betaln(p, q)
    both, one = p >= 10.0, (p < 10.0) & (q >= 10.0)
    if np.any(both):
        pb, qb = p[both], q[both]
        corr = _lgamma_correction(pb) + _lgamma_correction(qb) - _lgamma_correction(pb + qb)
        out[both] = (-0.5 * np.log(qb) + _LOG_SQRT_2PI + corr + (pb - 0.5) * np.log(pb / (pb + qb))
                     + qb * np.log1p(-pb / (pb + qb)))
    if np.any(one):
        po, qo = p[one], q[one]
        corr = _lgamma_correction(qo) - _lgamma_correction(po + qo)
        out[one] = special.gammaln(po) + corr + po - po * np.log(po + qo) + (qo - 0.5) * np.log1p(-po / (po + qo))
    return out


def _snap_to_ends(breaks: np.ndarray, gamma: float) -> np.ndarray:
    """Breakpoints within 10⁻¹⁷/(γ + 1) of 0 (of 1) moved to 0 (to 1).

    ĉ | c is stochastically increasing in c, so V(x | c) <= V(x | 0) = 1 − (1 − x)^(γ + 1)
    <= (γ + 1) x, and likewise 1 − V(x | c) <= (γ + 1)(1 − x); M(x | c) <= V(x | c). Moving
    such a breakpoint changes every ΔV and ΔM by less than 10⁻¹⁷, and spares the ``betainc``
    calls of the scores that naive Bayes piles up next to 0 (down to 10⁻³⁰⁰).
    """
    tiny = 1e-17 / (gamma + 1.0)
    return np.where(breaks < tiny, 0.0, np.where(1.0 - breaks < tiny, 1.0, breaks))


def _density_panels(breaks: np.ndarray, gamma: float):
    """Gauss–Legendre nodes ``t`` and weights ``w`` over the segments [b_j, b_{j+1}] that are
    integrated from the Beta density, the segment of each node, and the other (edge) segments.

    The density f(t | c) is analytic inside (0, 1), with branch points at 0 and 1, and about
    √(t(1 − t)/γ) wide. A segment at distance d from the nearer of 0 and 1 is cut into equal
    panels of length h with ratio r = max(h/s, h/d) <= 1/2, s = √(d(1 − d)/γ)/2 (the
    Bernstein ellipse of a panel stays far from 0 and 1, and the density varies little
    along it), each integrated with the fewest Gauss–Legendre nodes (3, 4, 6 or 8) whose
    worst error per unit length at that r was about 10⁻¹¹, the level of rounding, over 4,000
    random Beta densities and panels with 0.5 <= γ <= 2000 (``_GL_RULES``). A segment longer
    than d/2 (one that touches 0 or 1, or is long next to them), or needing more than
    ``_MAX_PANELS`` panels (a long segment where γ is large), is an edge segment, taken from
    ``betainc``, and so is every segment when γ > 1000 (most pairs (c, t) then lie in the
    Beta tails, where ``betainc`` is quick) or when there are at most eight segments (the
    optimal methods' few hull segments, where setting up the panels costs more than it
    saves); zero-length segments add nothing and are dropped.
    """
    lo, hi = breaks[:-1], breaks[1:]
    h = hi - lo
    d = np.minimum(np.minimum(lo, hi), 1.0 - np.maximum(lo, hi))
    inner = (h != 0.0) & (np.abs(h) <= _MAX_RATIO * d) & (gamma <= _MAX_DENSITY_GAMMA)
    if np.count_nonzero(h) <= _MIN_DENSITY_SEGMENTS:
        inner[:] = False
    edge = np.flatnonzero((h != 0.0) & ~inner)
    segment = np.flatnonzero(inner)
    if len(segment) == 0:
        return np.empty(0), np.empty(0), segment, edge
    d = d[segment]
    unit = np.minimum(d, np.sqrt(d * (1.0 - d) / gamma) / 2)
    panels = np.maximum(1, np.ceil(np.abs(h[segment]) / (_MAX_RATIO * unit)))
    if np.any(panels > _MAX_PANELS):
        edge = np.sort(np.concatenate([edge, segment[panels > _MAX_PANELS]]))
        keep = panels <= _MAX_PANELS
        segment, d, unit, panels = segment[keep], d[keep], unit[keep], panels[keep]
        if len(segment) == 0:
            return np.empty(0), np.empty(0), segment, edge
    panels = panels.astype(np.int64)
    owner = np.repeat(np.arange(len(segment)), panels)
    k = np.arange(len(owner)) - np.repeat(np.cumsum(panels) - panels, panels)
    width = h[segment][owner] / panels[owner]
    start = lo[segment][owner] + k * width
    ratio = np.abs(width) / unit[owner]
    rule = np.minimum(np.searchsorted(_GL_RATIOS, ratio), len(_GL_RATIOS) - 1)
    t, w, seg = [], [], []
    for r in np.unique(rule):
        pick = rule == r
        x, weights = _GL_RULES[r]
        half = (width[pick] / 2)[:, None]
        t.append((start[pick][:, None] + half * (x[None, :] + 1.0)).ravel())
        w.append((half * weights[None, :]).ravel())
        seg.append(np.repeat(segment[owner[pick]], len(x)))
    return np.concatenate(t), np.concatenate(w), np.concatenate(seg), edge


def c_quadrature(gamma: float) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights of a composite 24-point Gauss–Legendre rule on [0, 1] for ∫ K_γ(c) dc
    (the Beta weights sharpen as γ grows: 1 + ⌈√γ/2⌉ panels up to γ = 100, 2 + ⌈√γ⌉ above);
    0 <= γ < ∞.

    Against the same rule with four times 2 + ⌈√γ⌉ panels, on score-, rate-driven and
    test-optimal selections of scores piled up next to 0 and 1 as well as spread ones, the
    loss differs by at most 10⁻¹⁶ up to γ = 32, 3 · 10⁻¹⁵ at γ = 64 and 5 · 10⁻¹⁴ at γ = 100.

    Parameters
    ----------
    gamma : float
        Certainty γ of the cost proportion, 0 <= γ < ∞.

    Returns
    -------
    tuple
        ``(nodes, weights)``, two arrays of the same length.

    Examples
    --------
    >>> nodes, weights = c_quadrature(10)  # 1 + ⌈√10 / 2⌉ = 3 panels of 24 nodes
    >>> len(nodes), round(float(weights.sum()), 12)
    (72, 1.0)
    >>> round(float(weights @ nodes ** 2), 12)  # ∫ c² dc = 1/3
    0.333333333333
    >>> len(c_quadrature(400)[0])  # 2 + ⌈√400⌉ = 22 panels
    528
    """
    gamma = _check_gamma(gamma)
    if gamma == np.inf:
        raise ValueError("gamma must be finite for the quadrature in c (gamma = inf is integrated in closed form)")
    root = np.sqrt(gamma)
    panels = 1 + int(np.ceil(root / 2)) if gamma <= 100.0 else 2 + int(np.ceil(root))
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

    Parameters
    ----------
    y_test : array-like of shape (n,)
        Labels in {0, 1} of the test sample, both present.
    s_test : array-like of shape (n,)
        Scores of class 1 on the test sample (in [0, 1] for the score-driven and score-uniform methods).
    method : str
        One of :data:`METHODS`.
    y_train : array-like, default None
        Labels of the training sample (train-optimal only).
    s_train : array-like, default None
        Scores of the training sample (train-optimal only).

    Returns
    -------
    ThresholdSelection

    Examples
    --------
    Under certainty (γ = ∞) the losses are the aggregate measures of FHF Table 4: the
    test-optimal loss is the refinement loss after convexification, the score-driven loss
    the Brier score, the score-uniform loss the mean absolute error.

    >>> import numpy as np
    >>> y, s = [0, 0, 1, 0, 1, 1], [0.1, 0.3, 0.4, 0.6, 0.7, 0.9]
    >>> [round(threshold_selection(y, s, m).loss(np.inf), 4) for m in ("test-optimal", "score-driven", "score-uniform")]
    [0.0833, 0.1533, 0.3333]
    >>> round(brier_decomposition(y, s, convexify=True)["RL"], 4), round(brier_score(y, s), 4)
    (0.0833, 0.1533)
    >>> rate = threshold_selection(y, s, "rate-driven")
    >>> rate.interpolating, rate.breaks.round(3).tolist()  # breaks at the achievable rates R_j
    (True, [0.0, 0.167, 0.333, 0.5, 0.667, 0.833, 1.0])
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
    """K_γ(c) on ``c_grid`` for a threshold choice method (FHF Eq. 8, exact through Lemma 1).

    Parameters are those of :func:`threshold_selection`, with ``gamma`` (float, 0 <= γ <= ∞,
    the certainty of the presumed cost proportion) and ``c_grid`` (array-like of cost
    proportions in [0, 1]).

    Examples
    --------
    Uncertainty about c raises the score-driven curve where it was low (γ = ∞ is
    :func:`cost_curve`), and a uniform baseline does not depend on γ:

    >>> import numpy as np
    >>> y, s = [0, 0, 1, 0, 1, 1], [0.1, 0.3, 0.4, 0.6, 0.7, 0.9]
    >>> grid = [0.0, 0.25, 0.5, 0.75, 1.0]
    >>> expected_cost_curve(y, s, "score-driven", np.inf, grid).round(3).tolist()
    [0.0, 0.167, 0.333, 0.167, 0.0]
    >>> expected_cost_curve(y, s, "score-driven", 10, grid).round(3).tolist()
    [0.001, 0.182, 0.277, 0.182, 0.001]
    >>> expected_cost_curve(y, s, "score-uniform", 10, grid).round(3).tolist()
    [0.333, 0.333, 0.333, 0.333, 0.333]
    """
    gamma = _check_gamma(gamma)
    grid = _check_c(c_grid)
    return threshold_selection(y_test, s_test, method, y_train=y_train, s_train=s_train).curve(gamma, grid)


def expected_loss(y_test, s_test, method: str, gamma, *, y_train=None, s_train=None, c_grid=None) -> float:
    """Expected loss L_γ (FHF Eq. 7, uniform w over the true cost proportion c).

    ``c_grid=None`` integrates K_γ exactly over [0, 1] (closed form for γ = 0 and γ = ∞);
    a ``c_grid`` gives instead the mean of K_γ over those points (the paper's 1001-point protocol).

    Parameters
    ----------
    y_test, s_test, method, y_train, s_train
        As in :func:`threshold_selection`.
    gamma : float
        Certainty γ of the presumed cost proportion, 0 <= γ <= ∞ (``np.inf``: ĉ = c).
    c_grid : array-like, default None
        Cost proportions to average K_γ over instead of integrating.

    Returns
    -------
    float

    Examples
    --------
    Under certainty the losses are FHF Table 4's measures: the score-driven loss is the Brier
    score, the score-uniform loss the mean absolute error, and the rate-driven loss
    π0 π1 (1 − 2 AUC) + 1/3 (here 1/4 · (1 − 16/9) + 1/3 = 5/36):

    >>> import numpy as np
    >>> y, s = [0, 0, 1, 0, 1, 1], [0.1, 0.3, 0.4, 0.6, 0.7, 0.9]
    >>> round(expected_loss(y, s, "score-driven", np.inf), 6), round(brier_score(y, s), 6)
    (0.153333, 0.153333)
    >>> round(expected_loss(y, s, "score-uniform", np.inf), 6), round(mean_absolute_error(y, s), 6)
    (0.333333, 0.333333)
    >>> round(expected_loss(y, s, "rate-driven", np.inf), 6), round(5 / 36, 6)
    (0.138889, 0.138889)
    >>> round(expected_loss(y, s, "score-driven", 10), 4)  # uncertainty costs more
    0.1701
    >>> round(expected_loss(y, s, "score-driven", np.inf, c_grid=np.linspace(0, 1, 1001)), 4)  # mean of 1001 points
    0.1532
    """
    gamma = _check_gamma(gamma)
    selection = threshold_selection(y_test, s_test, method, y_train=y_train, s_train=s_train)
    if c_grid is None:
        return selection.loss(gamma)
    return float(np.mean(selection.curve(gamma, _check_c(c_grid))))


def cost_curve(y_test, s_test, method: str, c_grid, *, y_train=None, s_train=None) -> np.ndarray:
    """Cost curve Q(T(c); c) under complete certainty (γ = ∞), FHF Sect. 4.

    Parameters are those of :func:`expected_cost_curve` without ``gamma``.

    Examples
    --------
    The score-driven threshold at c = 1/2 is t = 1/2: one instance of each class is on the
    wrong side, Q = 2 (1/2 · 1/2 · 1/3 + 1/2 · 1/2 · 1/3) = 1/3.

    >>> y, s = [0, 0, 1, 0, 1, 1], [0.1, 0.3, 0.4, 0.6, 0.7, 0.9]
    >>> grid = [0.0, 0.25, 0.5, 0.75, 1.0]
    >>> cost_curve(y, s, "score-driven", grid).round(3).tolist()
    [0.0, 0.167, 0.333, 0.167, 0.0]
    >>> cost_curve(y, s, "test-optimal", grid).round(3).tolist()  # the lower envelope of the cost lines
    [0.0, 0.083, 0.167, 0.083, 0.0]
    """
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

    Parameters are those of :func:`expected_cost_curve`, with ``n_draws`` (int) draws of ĉ
    per cost proportion and the random ``seed`` (int).

    Returns
    -------
    tuple
        ``(means, standard_errors)``, two arrays of the length of ``c_grid``.

    Examples
    --------
    The estimate agrees with the exact curve within a few standard errors:

    >>> import numpy as np
    >>> y, s = [0, 0, 1, 0, 1, 1], [0.1, 0.3, 0.4, 0.6, 0.7, 0.9]
    >>> means, errors = monte_carlo_cost_curve(y, s, "score-driven", 10, [0.25, 0.5], n_draws=20000)
    >>> exact = expected_cost_curve(y, s, "score-driven", 10, [0.25, 0.5])
    >>> exact.round(3).tolist(), bool(np.all(np.abs(means - exact) < 4 * errors))
    ([0.182, 0.277], True)
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


def monte_carlo_loss(selection: ThresholdSelection, gamma, n_draws: int, seed: int = 0,
                     chunk: int = 1 << 20) -> tuple[float, float]:
    """Plain Monte Carlo estimate of L_γ and its standard error: c ~ U(0, 1),
    ĉ | c ~ Beta(cγ + 1, (1 − c)γ + 1) (ĉ = c for γ = ∞), the loss Q(T(ĉ); c) read from the
    piecewise description by one ``searchsorted`` (as :meth:`ThresholdSelection.at
    <credalbook.costspace.ThresholdSelection.at>` without its input checks), in chunks of ``chunk`` draws.

    The yardstick of :meth:`ThresholdSelection.loss` (the performance page times both at the
    same accuracy); not used for the book's numbers.

    Parameters
    ----------
    selection : ThresholdSelection
        From :func:`threshold_selection`.
    gamma : float
        Certainty γ, 0 <= γ <= ∞.
    n_draws : int
        Number of draws of (c, ĉ), at least 2.
    seed : int
        Seed of the random generator.
    chunk : int
        Draws per block (memory).

    Returns
    -------
    tuple
        ``(mean, standard_error)``.

    Examples
    --------
    >>> y, s = [0, 0, 1, 0, 1, 1], [0.1, 0.3, 0.4, 0.6, 0.7, 0.9]
    >>> selection = threshold_selection(y, s, "score-driven")
    >>> mean, error = monte_carlo_loss(selection, 10, n_draws=200_000)
    >>> round(selection.loss(10), 4), bool(abs(mean - selection.loss(10)) < 4 * error)
    (0.1701, True)
    """
    if not isinstance(selection, ThresholdSelection):
        raise TypeError(f"selection must be a ThresholdSelection (threshold_selection(...)), got {type(selection).__name__}")
    gamma = _check_gamma(gamma)
    check_scalar(n_draws, "n_draws", low=2, integer=True)
    check_scalar(chunk, "chunk", low=1, integer=True)
    rng = np.random.default_rng(seed)
    b, p0, p1, q0, q1 = selection.breaks, selection.p0, selection.p1, selection.q0, selection.q1
    last, interpolating = len(p0) - 1, selection.interpolating
    total = total2 = 0.0
    done = 0
    while done < n_draws:
        m = min(chunk, n_draws - done)
        c = rng.random(m)
        c_hat = c if gamma == np.inf else rng.beta(c * gamma + 1.0, (1.0 - c) * gamma + 1.0)
        j = np.searchsorted(b, c_hat, side="right") - 1
        np.clip(j, 0, last, out=j)
        q = p0[j] + p1[j] * c
        if interpolating:
            q += c_hat * (q0[j] + q1[j] * c)
        total += q.sum()
        total2 += q @ q
        done += m
    mean = total / n_draws
    variance = max(total2 / n_draws - mean ** 2, 0.0) * n_draws / (n_draws - 1)
    return mean, float(np.sqrt(variance / n_draws))


# ----------------------------------------------------------------------------------------------
# aggregate measures

def brier_score(y, s) -> float:
    """BS = mean (s − y)², s the score of class 1 (area under the Brier curve, FHF Table 4).

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels in {0, 1}, both present.
    s : array-like of shape (n,)
        Scores of class 1, in [0, 1].

    Returns
    -------
    float

    Examples
    --------
    >>> from sklearn.metrics import brier_score_loss
    >>> y, s = [0, 0, 1, 0, 1, 1], [0.1, 0.3, 0.4, 0.6, 0.7, 0.9]
    >>> round(brier_score(y, s), 6), round(float(brier_score_loss(y, s)), 6)  # 0.92 / 6
    (0.153333, 0.153333)
    """
    labels, scores = _check_sample(y, s, "y", "s", unit=True)
    return float(np.mean((scores - labels) ** 2))


def mean_absolute_error(y, s) -> float:
    """MAE = mean :math:`|y - s|` = π0 s̄0 + π1 (1 − s̄1) for scores in [0, 1] (FHF Corollary 1).

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels in {0, 1}, both present.
    s : array-like of shape (n,)
        Scores of class 1, in [0, 1].

    Returns
    -------
    float

    Examples
    --------
    Class 0's mean score is 1/3, class 1's 2/3: MAE = 1/2 · 1/3 + 1/2 · (1 − 2/3) = 1/3.

    >>> from sklearn import metrics
    >>> y, s = [0, 0, 1, 0, 1, 1], [0.1, 0.3, 0.4, 0.6, 0.7, 0.9]
    >>> round(mean_absolute_error(y, s), 6), round(float(metrics.mean_absolute_error(y, s)), 6)
    (0.333333, 0.333333)
    """
    labels, scores = _check_sample(y, s, "y", "s", unit=True)
    return float(np.mean(np.abs(labels - scores)))


def auc(y, s) -> float:
    """Area under the ROC curve: P(s of a class-1 instance > s of a class-0 instance), ties 1/2.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels in {0, 1}, both present.
    s : array-like of shape (n,)
        Scores of class 1.

    Returns
    -------
    float

    Examples
    --------
    Of the 3 × 3 pairs one is in the wrong order (0.4 of class 1 below 0.6 of class 0):

    >>> from sklearn.metrics import roc_auc_score
    >>> y, s = [0, 0, 1, 0, 1, 1], [0.1, 0.3, 0.4, 0.6, 0.7, 0.9]
    >>> round(auc(y, s), 6), round(float(roc_auc_score(y, s)), 6), round(8 / 9, 6)
    (0.888889, 0.888889, 0.888889)
    >>> auc([0, 1, 0, 1], [0.5, 0.5, 0.2, 0.8])  # a tie counts 1/2
    0.875
    """
    labels, scores = _check_sample(y, s, "y", "s")
    from scipy.stats import rankdata

    ranks = rankdata(scores)
    n1 = labels.sum()
    n0 = len(labels) - n1
    return float((ranks[labels == 1].sum() - n1 * (n1 + 1) / 2) / (n0 * n1))


def pav_calibrate(y, s) -> np.ndarray:
    """Scores after isotonic (PAV) calibration = ROC convex-hull calibration (Fawcett &
    Niculescu-Mizil 2007); tied scores are pooled first (scikit-learn's IsotonicRegression).

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels in {0, 1}, both present.
    s : array-like of shape (n,)
        Scores of class 1.

    Returns
    -------
    ndarray of shape (n,)
        The calibrated scores, non-decreasing in ``s``.

    Examples
    --------
    The labels in score order are 0 0 1 0 1 1: the pair (1, 0) out of order is pooled to 1/2.

    >>> pav_calibrate([0, 0, 1, 0, 1, 1], [0.1, 0.3, 0.4, 0.6, 0.7, 0.9]).tolist()
    [0.0, 0.0, 0.5, 0.5, 1.0, 1.0]
    """
    labels, scores = _check_sample(y, s, "y", "s")
    from sklearn.isotonic import IsotonicRegression

    return IsotonicRegression(y_min=0.0, y_max=1.0, increasing=True).fit_transform(scores, labels.astype(float))


def brier_decomposition(y, s, *, convexify: bool = False) -> dict:
    """BS = CL + RL over segments of equal score (Flach & Matsubara 2007):

    CL = (1/n) Σ_g n_g (s_g − ȳ_g)², RL = (1/n) Σ_g n_g ȳ_g (1 − ȳ_g).

    ``convexify=True`` takes RL after PAV / convex-hull calibration (RL_conv, which equals the
    test-optimal loss under certainty, FHF Table 4) and CL = BS − RL_conv.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels in {0, 1}, both present.
    s : array-like of shape (n,)
        Scores of class 1, in [0, 1].
    convexify : bool
        Take the refinement loss after PAV calibration.

    Returns
    -------
    dict
        ``{"BS": ..., "CL": ..., "RL": ...}`` with BS = CL + RL.

    Examples
    --------
    Three groups of equal score: 0.2 holds two of class 0, 0.6 two of class 1 out of three, 0.9
    one of class 1, so RL = 3 · (2/3)(1/3) / 6 = 1/9 and
    CL = (2 · 0.2² + 3 · (0.6 − 2/3)² + 0.1²) / 6 = 0.0172.

    >>> y, s = [0, 0, 1, 0, 1, 1], [0.2, 0.2, 0.6, 0.6, 0.6, 0.9]
    >>> {k: round(v, 4) for k, v in brier_decomposition(y, s).items()}
    {'BS': 0.1283, 'CL': 0.0172, 'RL': 0.1111}

    Distinct scores leave no refinement loss until they are convexified (PAV pools the scores
    0.4 and 0.6, whose labels 1, 0 are out of order):

    >>> y, s = [0, 0, 1, 0, 1, 1], [0.1, 0.3, 0.4, 0.6, 0.7, 0.9]
    >>> brier_decomposition(y, s)["RL"]
    0.0
    >>> {k: round(v, 4) for k, v in brier_decomposition(y, s, convexify=True).items()}
    {'BS': 0.1533, 'CL': 0.07, 'RL': 0.0833}
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


# ----------------------------------------------------------------------------------------------
# deploying a classifier at a cost proportion

def deployment_threshold(y, score, c, *, pos_label=1, method: str = "optimal") -> float:
    """The threshold to deploy at cost proportion ``c``: predict ``pos_label`` when ``score >= t``.

    ``score`` is the score of the positive class (``predict_proba(X)[:, k]`` with
    ``classes_[k] == pos_label``) on a sample with labels ``y`` (any two labels, as
    scikit-learn's metrics take them); ``c`` is the cost of missing a positive relative to the
    two error costs, c = c_FN / (c_FN + c_FP) (Ferri, Hernández-Orallo & Flach 2019, Sect. 4,
    with the positive class as their class 0). ``method``:

    - ``"optimal"``: the threshold of least loss Q(t; c) (Eq. 3) on this sample, midway between
      two distinct scores; on training data this is their train-optimal method;
    - ``"score-driven"``: t = 1 − c, for calibrated probabilities (Definition 4);
    - ``"rate-driven"``: the score above which a share ``c`` of the sample is predicted positive
      (Definition 5, without the randomisation inside a tied group: ties are all predicted positive).

    Parameters
    ----------
    y : array-like of shape (n,)
        Two classes, one of them ``pos_label``.
    score : array-like of shape (n,)
        Scores of the positive class (probabilities for ``"score-driven"``).
    c : float in [0, 1]
        The cost proportion.
    pos_label : label, default 1
        The positive class.
    method : {"optimal", "score-driven", "rate-driven"}

    Returns
    -------
    float
        ``t``; ``-inf`` predicts every instance positive, ``inf`` none.

    Examples
    --------
    >>> y = ["spam", "ham", "spam", "ham", "ham"]
    >>> p_spam = [0.9, 0.4, 0.7, 0.2, 0.6]
    >>> round(deployment_threshold(y, p_spam, 0.5, pos_label="spam"), 6)  # between 0.7 (spam) and 0.6 (ham)
    0.65
    >>> round(deployment_threshold(y, p_spam, 0.8, pos_label="spam", method="score-driven"), 6)
    0.2
    """
    methods = ("optimal", "score-driven", "rate-driven")
    if method not in methods:
        raise ValueError(f"method must be one of {methods}, got {method!r}")
    check_scalar(c, "c", low=0.0, high=1.0)
    raw = np.asarray(y, dtype=object)
    if raw.ndim != 1:
        raise ValueError(f"y must be 1-dimensional, got shape {raw.shape}")
    values = [v.item() if isinstance(v, np.generic) else v for v in raw.tolist()]
    kinds = set(values)
    if pos_label not in kinds:
        raise ValueError(f"pos_label {pos_label!r} is not a label of y (labels: {sorted(map(str, kinds))})")
    if len(kinds) != 2:
        raise ValueError(f"y must hold exactly two classes, got {len(kinds)}")
    labels = np.array([0 if v == pos_label else 1 for v in values])  # the paper's class 0 is the positive class
    positive = check_array(score, "score", ndim=1)
    check_consistent_length(("y", labels), ("score", positive))
    if method == "score-driven":
        if positive.min() < 0.0 or positive.max() > 1.0:
            raise ValueError("score must hold probabilities in [0, 1] for score-driven thresholds, got range "
                             f"[{positive.min():.6g}, {positive.max():.6g}]")
        return float(1.0 - c)
    if method == "rate-driven":
        ordered = np.sort(positive)[::-1]
        k = int(np.ceil(c * ordered.size - 1e-12))
        return float(ordered[k - 1]) if k > 0 else float(np.inf)
    lines = _cost_lines(labels, -positive)  # class 0 predicted for -score <= t, i.e. score >= -t
    j = int(np.argmin(lines.height(np.array([float(c)]))[0]))
    u = lines.scores
    cuts = np.concatenate([[-np.inf], (u[:-1] + u[1:]) / 2, [np.inf]])
    return float(-cuts[j])

