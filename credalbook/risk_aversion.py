"""Uncertain risk aversion: utility-discounted accuracy when u(1/2) is not known exactly.

Zaffalon, Corani & Mauá (2012, Section 9, Fig. 2) score a set prediction ``Y`` by a quadratic
utility of its discounted accuracy ``x = 1[y in Y] / size(Y)``, the quadratic through (0, 0),
(1/2, v), (1, 1):

    u_v(x) = (2 − 4v) x² + (4v − 1) x = (2x² − x) + 4v x(1 − x),

with ``v = u(1/2)`` in [1/2, 1) the decision maker's risk aversion (u65: v = 0.65, u80: v = 0.8).
Ferri, Hernández-Orallo & Flach (2019, Sect. 5) treat an uncertain operating condition as a
Beta-distributed variable; here the uncertain quantity is ``v`` (:class:`RiskAversion`, a
Beta on an interval of [1/2, 1]).

Because ``u_v(x)`` is affine in ``v`` (Part VII, Proposition R1, derived in
:mod:`credalbook.book.theory.risk_aversion`), a classifier's mean utility over a test set is a
line ``U(v) = A + 4 v B`` with ``A = mean(2x² − x)`` and ``B = mean(x(1 − x))``
(:func:`utility_coefficients`). Everything below works on those two numbers per classifier
(and dataset):

- two classifiers' lines cross at most once (:func:`crossing_point`), so the probability that
  one beats the other is a Beta tail (:func:`probability_better`, Proposition R3);
- over several datasets, the mean utility is again a line per classifier, and the mean rank
  is a step function of ``v`` whose steps are the pairwise crossing points
  (:func:`rank_path`, :class:`RankPath`, Proposition R4); the probability that each
  classifier is the best, by mean utility or by mean rank, is computed exactly by summing
  the Beta probabilities of the steps (:func:`probability_best`), no Monte Carlo;
- those probabilities carry the uncertainty in ``v`` only; :func:`probability_best_resampled`
  adds the uncertainty in the data (the datasets resampled, the exact probability over ``v``
  on each resample), and :func:`signed_rank_posterior` is Benavoli, Corani, Demšar &
  Zaffalon's (2017) Bayesian signed-rank test of two classifiers with ``v`` drawn from its
  distribution on each posterior sample.

Crossing points closer than :data:`CROSSING_TOL` to an end of the support are taken at that
end, and crossing points closer than that to each other are taken as one: two classifiers with
the same discounted accuracy (lines meeting at v = 1/2 up to rounding), or three lines through
one point, are never split by slivers of rounding error.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special

from credalbook._validation import check_array, check_scalar
from credalbook.sets import check_targets_and_sets

__all__ = ["V_MIN", "V_MAX", "CROSSING_TOL", "RiskAversion", "utility_coefficients", "coefficients_from_utilities",
           "mean_utility", "crossing_point", "probability_better", "RankPath", "rank_path", "mean_ranks_at",
           "probability_best", "BestUnderResampling", "probability_best_resampled", "signed_rank_posterior",
           "plot_rank_path"]

#: The smallest risk aversion v = u(1/2) (the linear utility, discounted accuracy; Section 9).
V_MIN = 0.5
#: The supremum of v = u(1/2) (v = 1 would value a two-class set as much as a correct singleton).
V_MAX = 1.0
#: Crossing points closer than this (10⁻¹²) to an end of the support, or to each other, are taken as one point.
CROSSING_TOL = 1e-12


# ----------------------------------------------------------------------------------------------
# the distribution of v

def _check_support(low, high, low_name: str = "low", high_name: str = "high") -> tuple[float, float]:
    check_scalar(low, low_name, low=V_MIN, high=V_MAX, high_inclusive=False)
    check_scalar(high, high_name, low=V_MIN, high=V_MAX, low_inclusive=False)
    if not low < high:
        raise ValueError(f"{low_name} must be smaller than {high_name}, got {low_name}={low!r}, {high_name}={high!r}")
    return float(low), float(high)


@dataclass(frozen=True)
class RiskAversion:
    """The risk aversion ``v = u(1/2)`` as a scaled Beta: ``v = low + (high − low) T``, ``T ~ Beta(alpha, beta)``.

    The support is an interval of [1/2, 1] (by default all of it): v = 1/2 is the linear
    utility (discounted accuracy), v < 1/2 would be risk seeking, against Assumption (A6) of
    Zaffalon et al. (2012), and v = 1 would value a two-class set containing the truth as much as
    a correct single class (Section 9); so a Beta on [1/2, 1] covers exactly the admissible
    quadratic utilities of Fig. 2, as the Beta on the cost proportion does in Ferri et al.
    (2019, Sect. 5).

    Build it from a mean and a concentration with :meth:`from_mean`, rather than from the mode
    and certainty ``(c γ + 1, (1 − c) γ + 1)`` Ferri et al. use: by Proposition R2 the
    expected-utility verdict depends on the distribution only through its mean, so the mean is
    the parameter that carries the decision maker's point estimate, and the concentration
    ``alpha + beta`` says how sure they are of it. ``RiskAversion.from_mean(0.65, 20)`` is
    Beta(6, 14) on [1/2, 1]: centred on u65, standard deviation 0.05, central 95 % interval
    about [0.56, 0.75]; ``from_mean(0.8, 20)`` is Beta(12, 8), centred on u80, standard deviation
    about 0.053, interval about [0.69, 0.90]. ``RiskAversion.uniform(0.65, 0.8)`` is "somewhere
    between u65 and u80".

    Parameters
    ----------
    alpha, beta
        The Beta's shape parameters, positive.
    low, high
        The support, ``1/2 <= low < high <= 1``.

    Examples
    --------
    >>> from credalbook.risk_aversion import RiskAversion
    >>> v = RiskAversion.from_mean(0.65, 20)  # u(1/2) around u65's 0.65, on [1/2, 1]
    >>> round(v.mean, 6), v.support, round(float(v.cdf(0.65)), 3)
    (0.65, (0.5, 1.0), 0.526)
    """

    alpha: float
    beta: float
    low: float = V_MIN
    high: float = V_MAX

    def __post_init__(self):
        check_scalar(self.alpha, "alpha", low=0.0, low_inclusive=False)
        check_scalar(self.beta, "beta", low=0.0, low_inclusive=False)
        low, high = _check_support(self.low, self.high)
        for name, value in (("alpha", float(self.alpha)), ("beta", float(self.beta)), ("low", low), ("high", high)):
            object.__setattr__(self, name, value)

    @classmethod
    def from_mean(cls, mean: float, concentration: float, low: float = V_MIN, high: float = V_MAX) -> RiskAversion:
        """The scaled Beta with mean ``mean`` and concentration ``alpha + beta = concentration``.

        ``alpha = concentration (mean − low) / (high − low)``, ``beta = concentration (high − mean) /
        (high − low)`` (derived in :func:`credalbook.book.theory.risk_aversion.beta_from_mean`); the
        variance is ``(mean − low)(high − mean) / (concentration + 1)``.
        """
        low, high = _check_support(low, high)
        check_scalar(mean, "mean", low=low, high=high, low_inclusive=False, high_inclusive=False)
        check_scalar(concentration, "concentration", low=0.0, low_inclusive=False)
        width = high - low
        return cls(concentration * (mean - low) / width, concentration * (high - mean) / width, low, high)

    @classmethod
    def uniform(cls, low: float = V_MIN, high: float = V_MAX) -> RiskAversion:
        """v uniform on [``low``, ``high``] (Beta(1, 1))."""
        return cls(1.0, 1.0, low, high)

    @property
    def support(self) -> tuple[float, float]:
        """(low, high)."""
        return self.low, self.high

    @property
    def concentration(self) -> float:
        """alpha + beta."""
        return self.alpha + self.beta

    @property
    def mean(self) -> float:
        """E[v] = low + (high − low) alpha / (alpha + beta)."""
        return self.low + (self.high - self.low) * self.alpha / (self.alpha + self.beta)

    @property
    def variance(self) -> float:
        """Var[v] = (high − low)² alpha beta / ((alpha + beta)² (alpha + beta + 1))."""
        s = self.alpha + self.beta
        return (self.high - self.low) ** 2 * self.alpha * self.beta / (s * s * (s + 1.0))

    @property
    def std(self) -> float:
        """The standard deviation of v."""
        return float(np.sqrt(self.variance))

    @property
    def median(self) -> float:
        """The median of v."""
        return float(self.ppf(0.5))

    def _standardised(self, v, name: str = "v") -> np.ndarray:
        v = check_array(v, name, allow_empty=True)
        return np.clip((v - self.low) / (self.high - self.low), 0.0, 1.0)

    def cdf(self, v):
        """P(V <= v), elementwise (0 below the support, 1 above), by the regularised incomplete beta function."""
        return special.betainc(self.alpha, self.beta, self._standardised(v))

    def sf(self, v):
        """P(V > v) = 1 − cdf(v), elementwise, computed without cancellation."""
        return special.betaincc(self.alpha, self.beta, self._standardised(v))

    def pdf(self, v):
        """The density of v, elementwise (0 outside the support)."""
        v = check_array(v, "v", allow_empty=True)
        width = self.high - self.low
        t = (v - self.low) / width
        inside = (t >= 0.0) & (t <= 1.0)
        t = np.where(inside, t, 0.5)
        logpdf = (special.xlogy(self.alpha - 1.0, t) + special.xlog1py(self.beta - 1.0, -t)
                  - special.betaln(self.alpha, self.beta))
        return np.where(inside, np.exp(logpdf) / width, 0.0)

    def ppf(self, q):
        """The quantile function: the v with P(V <= v) = q, elementwise, q in [0, 1]."""
        q = check_array(q, "q", allow_empty=True)
        if np.any((q < 0.0) | (q > 1.0)):
            raise ValueError("q must lie in [0, 1]")
        return self.low + (self.high - self.low) * special.betaincinv(self.alpha, self.beta, q)

    def interval(self, level: float = 0.95) -> tuple[float, float]:
        """The central interval holding probability ``level`` of v."""
        check_scalar(level, "level", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
        lower, upper = self.ppf([(1.0 - level) / 2.0, (1.0 + level) / 2.0])
        return float(lower), float(upper)

    def rvs(self, size=None, random_state=None) -> np.ndarray:
        """Draws of v (for Monte Carlo checks): ``size`` as for NumPy, ``random_state`` a seed or Generator."""
        rng = np.random.default_rng(random_state)
        return self.low + (self.high - self.low) * rng.beta(self.alpha, self.beta, size=size)


def _check_v(v: np.ndarray, name: str = "v") -> np.ndarray:
    """Risk aversions v = u(1/2) within [V_MIN, V_MAX] (a utility of discounted accuracy has v in [1/2, 1])."""
    if np.any((v < V_MIN) | (v > V_MAX)):
        raise ValueError(f"{name} must lie in [{V_MIN:g}, {V_MAX:g}] (v = u(1/2) of a utility of discounted accuracy), "
                         f"got {float(v[(v < V_MIN) | (v > V_MAX)].ravel()[0])!r}")
    return v


def _check_distribution(distribution, name: str = "distribution") -> RiskAversion:
    if not isinstance(distribution, RiskAversion):
        raise ValueError(f"{name} must be a RiskAversion (e.g. RiskAversion.from_mean(0.65, 20)), "
                         f"got {type(distribution).__name__}")
    return distribution


# ----------------------------------------------------------------------------------------------
# one classifier: the line U(v) = A + 4 v B

def utility_coefficients(y_true, y_set) -> tuple[float, float]:
    """(A, B) of a classifier's mean utility ``U(v) = A + 4 v B`` on a test set (Proposition R1).

    ``A = mean(2x² − x)`` and ``B = mean(x(1 − x))`` over the instances, ``x`` the discounted
    accuracy; ``U(v)`` is the mean of ``utility_discounted_accuracy_scores(y_true, y_set, u=v)``
    (:mod:`credalbook.metrics`) for every v. ``B >= 0``, and ``B = 0`` exactly when every
    prediction is a correct single class or wrong; ``U(1/2) = A + 2B`` is the discounted accuracy.

    Parameters
    ----------
    y_true
        Class indices 0..K-1, shape (n,).
    y_set
        The predicted sets (:mod:`credalbook.sets`), a boolean matrix of shape (n, K).

    Examples
    --------
    >>> import numpy as np
    >>> from credalbook.risk_aversion import mean_utility, utility_coefficients
    >>> y = np.array([0, 1, 2])
    >>> sets = np.array([[1, 0, 0], [1, 1, 0], [0, 1, 0]], dtype=bool)  # right, two-class hit, wrong
    >>> A, B = utility_coefficients(y, sets)
    >>> round(A, 6), round(B, 6), round(mean_utility(A, B, 0.65), 6)  # u65 = (1 + 0.65 + 0) / 3
    (0.333333, 0.083333, 0.55)
    """
    labels, matrix, sizes = check_targets_and_sets(y_true, y_set)
    x = matrix[np.arange(labels.size), labels] / sizes
    return float(np.mean(2.0 * x * x - x)), float(np.mean(x * (1.0 - x)))


def coefficients_from_utilities(u_first, u_second, v_first: float = 0.65, v_second: float = 0.8):
    """(A, B) of the lines through two mean utilities: ``U(v_first) = u_first``, ``U(v_second) = u_second``.

    ``B = (u_second − u_first) / (4 (v_second − v_first))``, ``A = u_first − 4 v_first B``: stored mean
    u65 and u80 (or discounted accuracy, v = 1/2) determine the whole line (Proposition R1).
    Arrays broadcast; scalars give floats.

    Examples
    --------
    >>> from credalbook.risk_aversion import coefficients_from_utilities
    >>> A, B = coefficients_from_utilities(0.55, 0.6)  # mean u65 and u80
    >>> round(A, 6), round(B, 6)
    (0.333333, 0.083333)
    """
    check_scalar(v_first, "v_first", low=V_MIN, high=V_MAX, high_inclusive=False)
    check_scalar(v_second, "v_second", low=V_MIN, high=V_MAX, high_inclusive=False)
    if v_first == v_second:
        raise ValueError(f"v_first and v_second must differ, both are {v_first!r}")
    first = check_array(u_first, "u_first")
    second = check_array(u_second, "u_second")
    try:
        first, second = np.broadcast_arrays(first, second)
    except ValueError:
        raise ValueError(f"u_first and u_second must have the same shape, got {first.shape} and {second.shape}") from None
    slope = (second - first) / (4.0 * (v_second - v_first))
    intercept = first - 4.0 * v_first * slope
    if intercept.ndim == 0:
        return float(intercept), float(slope)
    return intercept, slope


def mean_utility(A, B, v):
    """``U(v) = A + 4 v B``, broadcast over the arrays (Proposition R1).

    The expected utility under an uncertain v is the utility at its mean (Proposition R2):
    ``mean_utility(A, B, distribution.mean)``.

    Examples
    --------
    >>> from credalbook.risk_aversion import mean_utility
    >>> [round(u, 6) for u in mean_utility(0.3, 0.1, [0.5, 0.65, 0.8]).tolist()]  # discounted accuracy, u65, u80
    [0.5, 0.56, 0.62]
    """
    A = check_array(A, "A", allow_empty=True)
    B = check_array(B, "B", allow_empty=True)
    v = _check_v(check_array(v, "v", allow_empty=True))
    try:
        value = A + 4.0 * v * B
    except ValueError:
        raise ValueError(f"A, B and v must broadcast together, got shapes {A.shape}, {B.shape}, {v.shape}") from None
    return float(value) if value.ndim == 0 else value


# ----------------------------------------------------------------------------------------------
# two classifiers

def crossing_point(A_a: float, B_a: float, A_b: float, B_b: float) -> float | None:
    """The v where the lines of classifiers a and b meet: ``v* = −(A_a − A_b) / (4 (B_a − B_b))`` (Proposition R3).

    ``U_a(v) − U_b(v) = 4 (B_a − B_b)(v − v*)``: a beats b for v > v* when ``B_a > B_b`` (a is the
    more cautious), for v < v* when ``B_a < B_b``. None when ``B_a == B_b`` (parallel lines: one
    classifier is better for every v, or they are equal everywhere). v* may lie outside [1/2, 1].

    Examples
    --------
    >>> from credalbook.risk_aversion import crossing_point
    >>> round(crossing_point(0.60, 0.05, 0.70, 0.02), 6)  # a, the more cautious, wins for v above this
    0.833333
    """
    values = [check_scalar(value, name) for value, name in ((A_a, "A_a"), (B_a, "B_a"), (A_b, "A_b"), (B_b, "B_b"))]
    delta_a, delta_b = values[0] - values[2], values[1] - values[3]
    if delta_b == 0:
        return None
    return float(-delta_a / (4.0 * delta_b))


def _snap(vstar: np.ndarray, low: float, high: float) -> np.ndarray:
    """Crossing points within CROSSING_TOL of an end of [low, high] moved onto it."""
    vstar = np.where(np.abs(vstar - low) <= CROSSING_TOL, low, vstar)
    return np.where(np.abs(vstar - high) <= CROSSING_TOL, high, vstar)


def _pair_signs(delta_a: np.ndarray, delta_b: np.ndarray, low: float, high: float):
    """For lines' differences D(v) = delta_a + 4 v delta_b: the sign of D just above ``low``, whether D
    changes sign inside (low, high), and where (the snapped crossing point)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        vstar = np.where(delta_b != 0, -delta_a / (4.0 * np.where(delta_b != 0, delta_b, 1.0)), np.inf)
    vstar = _snap(vstar, low, high)
    sign_db = np.sign(delta_b)
    first = np.where(delta_b == 0, np.sign(delta_a), np.where(vstar <= low, sign_db, -sign_db))
    inside = (delta_b != 0) & (vstar > low) & (vstar < high)
    return first.astype(np.int64), inside, vstar


def probability_better(A_a, B_a, A_b, B_b, distribution: RiskAversion):
    """P(U_a(V) > U_b(V)): the probability under the distribution of v that a has the higher mean utility (Proposition R3).

    With ``v*`` the crossing point (:func:`crossing_point`) and ``F`` the distribution's CDF,
    it is ``1 − F(v*)`` when ``B_a > B_b``, ``F(v*)`` when ``B_a < B_b`` and 0 or 1 when the lines
    are parallel; F is the regularised incomplete beta function at ``(v* − low)/(high − low)``.
    Ties have probability zero except for identical lines, which count for neither:
    ``probability_better(a, b) + probability_better(b, a)`` is 1 unless the lines coincide.
    Arrays broadcast; scalars give a float.

    Examples
    --------
    >>> from credalbook.risk_aversion import RiskAversion, probability_better
    >>> round(float(probability_better(0.60, 0.05, 0.70, 0.02, RiskAversion.from_mean(0.65, 20))), 4)
    0.0004
    """
    distribution = _check_distribution(distribution)
    arrays = [check_array(value, name, allow_empty=True) for value, name in
              ((A_a, "A_a"), (B_a, "B_a"), (A_b, "A_b"), (B_b, "B_b"))]
    try:
        A_a, B_a, A_b, B_b = np.broadcast_arrays(*arrays)
    except ValueError:
        shapes = ", ".join(str(a.shape) for a in arrays)
        raise ValueError(f"A_a, B_a, A_b and B_b must broadcast together, got shapes {shapes}") from None
    low, high = distribution.support
    delta_a, delta_b = A_a - A_b, B_a - B_b
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        vstar = _snap(-delta_a / (4.0 * np.where(delta_b != 0, delta_b, 1.0)), low, high)
    vstar = np.clip(vstar, low, high)  # a crossing beyond the support (or overflowing) leaves F at 0 or 1
    probability = np.where(delta_b > 0, distribution.sf(vstar),
                           np.where(delta_b < 0, distribution.cdf(vstar), (delta_a > 0).astype(float)))
    return float(probability) if probability.ndim == 0 else probability


# ----------------------------------------------------------------------------------------------
# several classifiers over several datasets

def _check_lines(A, B) -> tuple[np.ndarray, np.ndarray]:
    A = check_array(A, "A", ndim=2)
    B = check_array(B, "B", ndim=2)
    if A.shape != B.shape:
        raise ValueError(f"A and B must have the same shape (n_classifiers, n_datasets), got {A.shape} and {B.shape}")
    return A, B


def _support_of(support) -> tuple[float, float]:
    if isinstance(support, RiskAversion):
        return support.support
    try:
        low, high = support
    except (TypeError, ValueError):
        raise ValueError(f"support must be a RiskAversion or a pair (low, high), got {support!r}") from None
    return _check_support(low, high, "support[0]", "support[1]")


@dataclass(frozen=True, eq=False)
class RankPath:
    """The mean ranks of classifiers over datasets as a step function of v (Proposition R4).

    On the open interval ``(edges[i], edges[i + 1])`` the mean ranks are ``ranks[i]`` (rank 1
    the best, ties averaged, the mean over datasets as in Friedman's test); the inner edges are
    the distinct crossing points of two classifiers' lines on one dataset inside the support.
    ``ax.stairs(path.ranks[:, c], path.edges)`` draws classifier c's path. ``edges``, shape
    (n_steps + 1,), holds ``low``, the breakpoints in increasing order and ``high``; ``ranks``,
    shape (n_steps, n_classifiers), the mean rank of each classifier on each step.

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[0.60, 0.50], [0.55, 0.60], [0.40, 0.45]])  # 3 classifiers x 2 datasets
    >>> B = np.array([[0.05, 0.10], [0.08, 0.02], [0.15, 0.12]])
    >>> from credalbook.risk_aversion import rank_path
    >>> path = rank_path(A, B)
    >>> path.breakpoints.round(4), path.ranks
    (array([0.5357, 0.625 ]), array([[2. , 2. , 2. ],
           [2. , 2.5, 1.5],
           [2.5, 2.5, 1. ]]))
    """

    edges: np.ndarray
    ranks: np.ndarray

    def __post_init__(self):
        edges = check_array(self.edges, "edges", ndim=1)
        ranks = check_array(self.ranks, "ranks", ndim=2)
        if len(edges) != len(ranks) + 1:
            raise ValueError(f"edges must hold one more value than ranks has steps (rows), got {len(edges)} edges "
                             f"for {len(ranks)} steps")
        if np.any(np.diff(edges) < 0):
            raise ValueError("edges must increase")
        _check_support(float(edges[0]), float(edges[-1]), "edges[0]", "edges[-1]")
        object.__setattr__(self, "edges", edges)
        object.__setattr__(self, "ranks", ranks)

    @property
    def breakpoints(self) -> np.ndarray:
        """The inner edges, the v where two classifiers swap on a dataset (and mean ranks may change)."""
        return self.edges[1:-1]

    @property
    def support(self) -> tuple[float, float]:
        """(low, high)."""
        return float(self.edges[0]), float(self.edges[-1])

    def at(self, v) -> np.ndarray:
        """The mean ranks at each v, shape (len(v), n_classifiers); at a breakpoint, the step to its right."""
        v = check_array(v, "v", ndim=1, allow_empty=True)
        low, high = self.support
        if np.any((v < low) | (v > high)):
            raise ValueError(f"v must lie in the support [{low:g}, {high:g}]")
        step = np.minimum(np.searchsorted(self.breakpoints, v, side="right"), len(self.ranks) - 1)
        return self.ranks[step]

    def step_probabilities(self, distribution: RiskAversion) -> np.ndarray:
        """P(v in step i) under ``distribution``, shape (n_steps,); its support must be the path's."""
        distribution = _check_distribution(distribution)
        if distribution.support != self.support:
            raise ValueError(f"distribution has support {distribution.support}, the path {self.support}: "
                             "build the path with rank_path(A, B, distribution)")
        cdf = distribution.cdf(self.edges)
        cdf[0], cdf[-1] = 0.0, 1.0
        return np.diff(cdf)

    def expected_ranks(self, distribution: RiskAversion) -> np.ndarray:
        """E[mean rank] of each classifier under ``distribution``, shape (n_classifiers,)."""
        return self.step_probabilities(distribution) @ self.ranks

    def best_probabilities(self, distribution: RiskAversion) -> np.ndarray:
        """P(classifier has the lowest mean rank), shape (n_classifiers,); classifiers tied for the
        lowest share the step's probability equally, so the probabilities sum to one."""
        best = self.ranks == self.ranks.min(axis=1, keepdims=True)
        return self.step_probabilities(distribution) @ (best / best.sum(axis=1, keepdims=True))


def _rank_path(A: np.ndarray, B: np.ndarray, low: float, high: float) -> RankPath:
    n_classifiers, n_datasets = A.shape
    first, second = np.triu_indices(n_classifiers, 1)
    sign, inside, vstar = _pair_signs(A[first] - A[second], B[first] - B[second], low, high)   # (pairs, datasets)
    # twice the rank sum over datasets just above low: 2 per dataset, +2 for every classifier above, +1 per tie
    doubled = np.full(n_classifiers, 2 * n_datasets, dtype=np.int64)
    np.add.at(doubled, first, ((sign < 0) * 2 + (sign == 0)).sum(axis=1))
    np.add.at(doubled, second, ((sign > 0) * 2 + (sign == 0)).sum(axis=1))
    pair, _ = np.nonzero(inside)
    points = vstar[inside]
    # at a crossing the classifier that was below moves up one place: its doubled rank drops by 2
    was_below = sign[inside] < 0
    distinct, step = np.unique(points, return_inverse=True)
    group = np.concatenate([[0], np.cumsum(np.diff(distinct) > CROSSING_TOL)]).astype(np.intp)  # merge near-equal points
    breakpoints = distinct[np.concatenate([[True], np.diff(group) > 0])] if distinct.size else distinct
    step = group[step] if distinct.size else step
    change = np.zeros((breakpoints.size, n_classifiers), dtype=np.int64)
    np.add.at(change, (step, first[pair]), np.where(was_below, -2, 2))
    np.add.at(change, (step, second[pair]), np.where(was_below, 2, -2))
    doubled_path = np.vstack([doubled, doubled + np.cumsum(change, axis=0)])
    edges = np.concatenate([[low], breakpoints, [high]])
    return RankPath(edges=edges, ranks=doubled_path / (2.0 * n_datasets))


def rank_path(A, B, support=(V_MIN, V_MAX)) -> RankPath:
    """The mean ranks over datasets as an exact step function of v (Proposition R4).

    Parameters
    ----------
    A, B
        The lines ``U_{c,d}(v) = A[c, d] + 4 v B[c, d]`` of each classifier on each dataset, arrays
        of shape (n_classifiers, n_datasets) (:func:`utility_coefficients`,
        :func:`coefficients_from_utilities`).
    support
        The interval of v within [1/2, 1]: a :class:`RiskAversion` (its support) or a pair (low, high).

    Returns
    -------
    RankPath
        Breakpoints (every crossing point of two classifiers on one dataset inside the support)
        and the mean ranks on every step. Vectorised: 20 classifiers on 60 datasets (up to 11 400
        crossing points) take a few milliseconds.

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[0.60, 0.50], [0.55, 0.60], [0.40, 0.45]])  # 3 classifiers x 2 datasets
    >>> B = np.array([[0.05, 0.10], [0.08, 0.02], [0.15, 0.12]])
    >>> from credalbook.risk_aversion import rank_path
    >>> path = rank_path(A, B, support=(0.5, 0.9))
    >>> path.support, path.at([0.5, 0.85])
    ((0.5, 0.9), array([[2. , 2. , 2. ],
           [2.5, 2.5, 1. ]]))
    """
    A, B = _check_lines(A, B)
    low, high = _support_of(support)
    return _rank_path(A, B, low, high)


def mean_ranks_at(A, B, v) -> np.ndarray:
    """The mean ranks over datasets at each v, evaluated directly, shape (len(v), n_classifiers).

    Rank 1 is the highest utility on a dataset, ties averaged (:func:`credalbook.stats.mean_ranks`
    applied to the utilities at v). At a crossing point the two classifiers tie.

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[0.60, 0.50], [0.55, 0.60], [0.40, 0.45]])  # 3 classifiers x 2 datasets
    >>> B = np.array([[0.05, 0.10], [0.08, 0.02], [0.15, 0.12]])
    >>> from credalbook.risk_aversion import mean_ranks_at
    >>> mean_ranks_at(A, B, [0.5, 0.9])
    array([[1.75, 2.  , 2.25],
           [2.5 , 2.5 , 1.  ]])
    """
    from scipy.stats import rankdata

    A, B = _check_lines(A, B)
    v = _check_v(check_array(v, "v", ndim=1, allow_empty=True))
    utilities = A[None] + 4.0 * v[:, None, None] * B[None]
    return rankdata(-utilities, axis=1, method="average").mean(axis=2)


def probability_best(A, B, distribution: RiskAversion, by: str = "utility") -> np.ndarray:
    """P(each classifier is the best) under the distribution of v, exactly (Proposition R4).

    ``by="utility"``: the best mean utility over datasets, ``mean_d A[c, d] + 4 v mean_d B[c, d]``
    (by Proposition R2 the classifier with the best *expected* mean utility is simply the best at
    ``distribution.mean``); ``by="rank"``: the lowest mean rank over datasets (ranks within each
    dataset, ties averaged). The steps between crossing points (:func:`rank_path`) are weighted
    by their Beta probabilities; classifiers tied for the best (identical lines, or equal mean
    ranks) share a step's probability equally, so the result sums to one.

    Parameters
    ----------
    A, B
        The lines ``U_{c,d}(v) = A[c, d] + 4 v B[c, d]``, arrays of shape (n_classifiers, n_datasets).
    distribution
        The :class:`RiskAversion` of v.
    by
        What "best" means, ``"utility"`` or ``"rank"``.

    Returns
    -------
    numpy.ndarray
        The probabilities, shape (n_classifiers,).

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[0.60, 0.50], [0.55, 0.60], [0.40, 0.45]])  # 3 classifiers x 2 datasets
    >>> B = np.array([[0.05, 0.10], [0.08, 0.02], [0.15, 0.12]])
    >>> from credalbook.risk_aversion import RiskAversion, probability_best
    >>> probability_best(A, B, RiskAversion.from_mean(0.65, 20)).round(3).tolist()  # C is best for most v
    [0.0, 0.0, 1.0]
    """
    A, B = _check_lines(A, B)
    distribution = _check_distribution(distribution)
    if by == "utility":
        A, B = A.mean(axis=1, keepdims=True), B.mean(axis=1, keepdims=True)
    elif by != "rank":
        raise ValueError(f"by must be 'utility' or 'rank', got {by!r}")
    return _rank_path(A, B, *distribution.support).best_probabilities(distribution)


@dataclass(frozen=True)
class BestUnderResampling:
    """P(each classifier is the best) with the datasets resampled as well as v drawn (:func:`probability_best_resampled`).

    ``probability`` (n_classifiers,) is the mean over the resamples of the exact probability over v,
    the probability under both uncertainties; ``low`` and ``high`` the percentile interval of the
    resampled probabilities at ``level``; ``below_half`` the share of resamples on which the
    probability is below 1/2; ``resampled`` (n_boot, n_classifiers) every resample's probabilities.

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[0.60, 0.50], [0.55, 0.60], [0.40, 0.45]])  # 3 classifiers x 2 datasets
    >>> B = np.array([[0.05, 0.10], [0.08, 0.02], [0.15, 0.12]])
    >>> from credalbook.risk_aversion import RiskAversion, probability_best_resampled
    >>> best = probability_best_resampled(A, B, RiskAversion.uniform(), n_boot=100)
    >>> type(best).__name__, best.resampled.shape, best.level
    ('BestUnderResampling', (100, 3), 0.95)
    """

    probability: np.ndarray
    low: np.ndarray
    high: np.ndarray
    below_half: np.ndarray
    resampled: np.ndarray
    level: float


def probability_best_resampled(A, B, distribution: RiskAversion, by: str = "utility", *, n_boot: int = 1000,
                               level: float = 0.95, seed: int = 0) -> BestUnderResampling:
    """P(each classifier is the best) under the uncertainty in v *and* in the collection of datasets.

    The datasets (columns of ``A`` and ``B``, as in :func:`probability_best`) are resampled with
    replacement ``n_boot`` times; on each resample the probability over v is exact
    (:func:`probability_best`). Their mean is the probability when both the decision maker's v
    and the datasets are uncertain; their spread says how much of a verdict the collection alone
    decides. Returns a :class:`BestUnderResampling`.

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[0.60, 0.50], [0.55, 0.60], [0.40, 0.45]])  # 3 classifiers x 2 datasets
    >>> B = np.array([[0.05, 0.10], [0.08, 0.02], [0.15, 0.12]])
    >>> from credalbook.risk_aversion import RiskAversion, probability_best_resampled
    >>> best = probability_best_resampled(A, B, RiskAversion.from_mean(0.65, 20), n_boot=200, seed=0)
    >>> bool(abs(best.probability.sum() - 1) < 1e-12), bool(((best.low <= best.probability) & (best.probability <= best.high)).all())
    (True, True)
    """
    A, B = _check_lines(A, B)
    distribution = _check_distribution(distribution)
    check_scalar(n_boot, "n_boot", low=10, integer=True)
    check_scalar(level, "level", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    if by not in ("utility", "rank"):
        raise ValueError(f"by must be 'utility' or 'rank', got {by!r}")
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, A.shape[1], size=(n_boot, A.shape[1]))
    resampled = np.stack([probability_best(A[:, d], B[:, d], distribution, by) for d in draws])
    low, high = np.quantile(resampled, [(1 - level) / 2, (1 + level) / 2], axis=0)
    return BestUnderResampling(resampled.mean(axis=0), low, high, (resampled < 0.5).mean(axis=0), resampled, level)


def signed_rank_posterior(A_a, B_a, A_b, B_b, distribution: RiskAversion, *, rope: float = 0.01,
                          prior_strength: float = 0.5, n_samples: int = 4000, seed: int = 0) -> dict[str, float]:
    """Benavoli, Corani, Demšar & Zaffalon's (2017, §5) Bayesian signed-rank test of classifier a against b
    over datasets, with the risk aversion v drawn from ``distribution`` on each posterior sample.

    ``A_a, B_a, A_b, B_b`` (n_datasets,) are the two classifiers' lines (U(v) = A + 4vB on each
    dataset). On each sample v is drawn, the differences z_d = U_a,d(v) − U_b,d(v) are formed,
    Dirichlet weights are drawn for a pseudo-observation at 0 (weight ``prior_strength``) and the
    datasets (weight 1 each), and θ_right = Σ w_i w_j 1[z_i + z_j > 2 rope], θ_left likewise
    below −2 ``rope``, θ_rope the rest. Returns the posterior probabilities that a is better
    (θ_right the largest), that the two are practically equivalent (θ_rope the largest) and that
    b is better: ``{"a": ..., "rope": ..., "b": ...}``, summing to one (ties shared).

    Examples
    --------
    >>> import numpy as np
    >>> from credalbook.risk_aversion import RiskAversion, signed_rank_posterior
    >>> A_a, B_a = np.array([0.80, 0.75, 0.90, 0.70]), np.array([0.02, 0.03, 0.01, 0.04])
    >>> A_b, B_b = A_a - 0.05, B_a
    >>> posterior = signed_rank_posterior(A_a, B_a, A_b, B_b, RiskAversion.from_mean(0.65, 20), n_samples=500)
    >>> sorted(posterior), round(sum(posterior.values()), 6)
    (['a', 'b', 'rope'], 1.0)
    """
    distribution = _check_distribution(distribution)
    lines = [check_array(x, name, ndim=1) for x, name in ((A_a, "A_a"), (B_a, "B_a"), (A_b, "A_b"), (B_b, "B_b"))]
    if len({len(x) for x in lines}) != 1:
        raise ValueError("A_a, B_a, A_b and B_b must have one value per dataset each")
    check_scalar(rope, "rope", low=0.0)
    check_scalar(prior_strength, "prior_strength", low=0.0, low_inclusive=False)
    check_scalar(n_samples, "n_samples", low=10, integer=True)
    delta_a, delta_b = lines[0] - lines[2], lines[1] - lines[3]
    rng = np.random.default_rng(seed)
    low, high = distribution.support
    v = low + (high - low) * rng.beta(distribution.alpha, distribution.beta, size=n_samples)
    z = np.concatenate([np.zeros((n_samples, 1)), delta_a[None] + 4 * v[:, None] * delta_b[None]], axis=1)
    weights = rng.dirichlet(np.r_[prior_strength, np.ones(len(delta_a))], size=n_samples)
    sums = z[:, :, None] + z[:, None, :]
    pair = weights[:, :, None] * weights[:, None, :]
    right = (pair * (sums > 2 * rope)).sum(axis=(1, 2))
    left = (pair * (sums < -2 * rope)).sum(axis=(1, 2))
    theta = np.stack([right, 1.0 - right - left, left], axis=1)
    best = np.isclose(theta, theta.max(axis=1, keepdims=True), rtol=0, atol=1e-12)
    share = (best / best.sum(axis=1, keepdims=True)).mean(axis=0)
    return {"a": float(share[0]), "rope": float(share[1]), "b": float(share[2])}


def plot_rank_path(path: RankPath, names, distributions: dict | None = None, axes=None):
    """Each classifier's mean rank as a step function of v (top) over the densities of v (bottom).

    ``path`` from :func:`rank_path`, ``names`` one label per classifier, ``distributions`` a dict
    label → :class:`RiskAversion` drawn in the lower panel; returns the two axes.

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[0.60, 0.50], [0.55, 0.60], [0.40, 0.45]])  # 3 classifiers x 2 datasets
    >>> B = np.array([[0.05, 0.10], [0.08, 0.02], [0.15, 0.12]])
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from credalbook.risk_aversion import RiskAversion, plot_rank_path, rank_path
    >>> top, bottom = plot_rank_path(rank_path(A, B), ["A", "B", "C"], {"u65-ish": RiskAversion.from_mean(0.65, 20)})
    >>> top.get_ylabel(), bottom.get_xlabel()
    ('mean rank (1 = best)', 'risk aversion v = u(1/2)')
    """
    import matplotlib.pyplot as plt

    from credalbook.style import COLUMN_WIDTH

    if not isinstance(path, RankPath):
        raise TypeError(f"path must be a RankPath (from rank_path), got {type(path).__name__}")
    names = list(names)
    if len(names) != path.ranks.shape[1]:
        raise ValueError(f"names has {len(names)} labels for {path.ranks.shape[1]} classifiers")
    if axes is None:
        _, axes = plt.subplots(2, 1, figsize=(COLUMN_WIDTH, 5.2), sharex=True, height_ratios=(3, 1))
    top, bottom = axes
    for c, name in enumerate(names):
        top.stairs(path.ranks[:, c], path.edges, label=name, lw=1.6, baseline=None)
    top.invert_yaxis()
    top.set_ylabel("mean rank (1 = best)")
    top.legend(ncol=4, fontsize=9, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    grid = np.linspace(*path.support, 400)
    for label, distribution in (distributions or {}).items():
        bottom.plot(grid, distribution.pdf(grid), label=label)
    if distributions:
        bottom.legend(fontsize=9, frameon=False)
    bottom.set_ylabel("density")
    bottom.set_xlabel("risk aversion v = u(1/2)")
    return axes
