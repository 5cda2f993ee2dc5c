"""The naive model's array core, shared by NBC, NCC and LNCC (Zaffalon, Corani & Mauá 2012 §9.1-9.2).

:func:`naive_counts` tabulates n(c), n(a_i, c) and the per-feature counts ñ_i(c) of the
instances where feature i is observed. The NBC (as in JNCC2 1.11 and Weka) estimates

    P(c) = (n(c) + 1) / (N + K),     P(a_i | c) = (n(a_i, c) + 1) / (ñ_i(c) + m_i),

ignoring a missing feature of a test instance (marginalisation); features with a single value
(m_i = 1) carry no information and are ignored, as JNCC2 drops them.

Class c1 *credal-dominates* c2 for an instance x when the lower expectation of
P(c1, x) − P(c2, x)·h over the IDM credal set (hyperparameter s) is positive, which for the
naive model reduces to inf_{t ∈ (0, s)} h(t) > 1 with (Corani & Zaffalon 2008, JMLR 9, NCC2
with features missing at random)

    h(t) = (α + s − t)/(β + t) · Π_i [(ñ_i(c2) + t)/(ñ_i(c1) + s − t)] · n(x_i, c1)/(n(x_i, c2) + t),

α = n(c1), β = n(c2), the product over the features observed in x. ln h is convex in t, so its
infimum is at an end of (0, s) or at the root of its derivative. :func:`dominance_from_counts`
decides the test for all instances and ordered class pairs at once: the cases decided at the
ends in one vectorised step, the others by a bracketing bisection on d ln h/dt that stops, per
pair, as soon as a value of ln h is ≤ 0 (no dominance) or the tangent lower bound of the convex
function is > 0 (dominance).

NumPy only (no scikit-learn), so that the array protocols
(:mod:`credalbook.book.experiments.jncc2`) start quickly; the estimators wrap it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from credalbook.decisions import undominated
from credalbook.discrete import MISSING

__all__ = ["NaiveCounts", "naive_counts", "log_joint_from_counts", "naive_bayes_log_joint", "dominance_from_counts",
           "dominance_matrix", "undominated_and_scores"]


@dataclass(frozen=True)
class NaiveCounts:
    """Sufficient statistics of a naive (credal) classifier.

    ``class_counts`` (K,): n(c); ``table`` (d, K, M): n(a_i = v, c), zero-padded to the largest
    number of values M; ``observed`` (d, K): ñ_i(c); ``n_values`` (d,); ``used`` (d,) bool:
    features with at least two values.
    """

    class_counts: np.ndarray
    table: np.ndarray
    observed: np.ndarray
    n_values: np.ndarray
    used: np.ndarray

    def gather(self, Xc: np.ndarray, table: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """For coded test instances (n, d): counts n(x_i, c) as (n, d, K) and the mask of usable features (n, d).

        ``table`` (d, K, M) gathers another per-(feature, class, value) quantity instead of the counts.
        """
        mask = (Xc != MISSING) & self.used[None, :]
        safe = np.where(mask, Xc, 0)
        d = Xc.shape[1]
        gathered = (self.table if table is None else table)[np.arange(d)[None, :], :, safe]   # (n, d, K)
        return gathered, mask


def _checked_codes(counts: NaiveCounts, Xc, name: str = "Xc") -> np.ndarray:
    """``Xc`` as an (n, d) integer matrix of codes ``-1..n_values[i]-1`` of the features of ``counts``."""
    if not isinstance(counts, NaiveCounts):
        raise TypeError(f"counts must be NaiveCounts (credalbook.classifiers.naive.naive_counts), "
                        f"got {type(counts).__name__}")
    codes = np.asarray(Xc)
    if codes.ndim != 2 or codes.shape[1] != counts.n_values.size:
        raise ValueError(f"{name} must be an (n, d) matrix of codes with d = {counts.n_values.size} features (those "
                         f"of counts), got shape {codes.shape}")
    if codes.dtype.kind not in "iu":
        if codes.dtype.kind != "f" or not np.all(codes == np.round(codes)):
            raise ValueError(f"{name} must hold integer codes (-1 = missing), got dtype {codes.dtype}")
        codes = codes.astype(np.int64)
    outside = (codes < MISSING) | (codes >= counts.n_values[None, :])
    if outside.any():
        i, j = np.argwhere(outside)[0]
        raise ValueError(f"{name} has code {codes[i, j]} for feature {j}, outside -1..{counts.n_values[j] - 1} (the "
                         f"feature has {counts.n_values[j]} values in counts; -1 = missing)")
    return codes


def naive_counts(Xc: np.ndarray, yc: np.ndarray, n_classes: int, n_values: np.ndarray) -> NaiveCounts:
    """Tabulate the counts of coded training data ``Xc`` (n, d; -1 missing) and classes ``yc``."""
    n, d = Xc.shape
    n_values = np.asarray(n_values, dtype=np.int64)
    M = max(int(n_values.max()) if d else 1, 1)
    # one bincount over flat (feature, class, value) cells; a missing value goes to an extra last cell
    cells = (np.arange(d, dtype=np.intp) * (n_classes * M))[None, :] + (np.asarray(yc, dtype=np.intp) * M)[:, None]
    cells += Xc
    missing = Xc == MISSING
    if missing.any():
        cells[missing] = d * n_classes * M
    table = np.bincount(cells.ravel(), minlength=d * n_classes * M + 1)[:-1].reshape(d, n_classes, M).astype(np.float64)
    class_counts = np.bincount(yc, minlength=n_classes).astype(np.float64)
    return NaiveCounts(class_counts=class_counts, table=table, observed=table.sum(axis=2),
                       n_values=n_values, used=n_values >= 2)


def log_joint_from_counts(class_counts, gathered, observed, mask, n_values, prior_count: float = 1.0) -> np.ndarray:
    """(n, K) log P(c) + Σ_i log P(x_i | c) from each instance's own counts, ``prior_count`` added to each.

    ``class_counts`` (K,) or (n, K); ``gathered`` (n, d, K): n(x_i, c); ``observed`` (d, K) or
    (n, d, K): ñ_i(c); ``mask`` (n, d): the features that enter; ``n_values`` (d,): m_i.
    """
    class_counts = np.atleast_2d(class_counts)
    K = class_counts.shape[1]
    log_prior = np.log(class_counts + prior_count) - np.log(class_counts.sum(axis=1, keepdims=True) + K * prior_count)
    with np.errstate(divide="ignore"):
        log_cond = np.log(gathered + prior_count) - np.log(observed + prior_count * np.asarray(n_values)[:, None])
    return log_prior + np.where(mask[:, :, None], log_cond, 0.0).sum(axis=1)


def naive_bayes_log_joint(counts: NaiveCounts, Xc: np.ndarray, prior_count: float = 1.0) -> np.ndarray:
    """(n, K) log P(c) + Σ_i log P(x_i | c) with ``prior_count`` added to every count (1 = Laplace).

    The log-probabilities are computed once per (feature, class, value), then gathered: the same
    numbers as :func:`log_joint_from_counts` on the gathered counts, without a logarithm per instance.
    """
    Xc = _checked_codes(counts, Xc)
    class_counts = counts.class_counts[None, :]
    K = class_counts.shape[1]
    log_prior = np.log(class_counts + prior_count) - np.log(class_counts.sum(axis=1, keepdims=True) + K * prior_count)
    with np.errstate(divide="ignore"):
        log_cond = np.log(counts.table + prior_count) - np.log(
            counts.observed + prior_count * np.asarray(counts.n_values)[:, None])[:, :, None]
    gathered, mask = counts.gather(Xc, log_cond)
    return log_prior + np.where(mask[:, :, None], gathered, 0.0).sum(axis=1)


_CHUNK_ELEMENTS = 2_000_000


class _LogH:
    """ln h(t) and its derivative for a batch of (instance, pair) problems; arrays (m,) and (m, d)."""

    def __init__(self, s, alpha, beta, gamma, delta, gamma_t, delta_t, used, log_ratio=0.0):
        self.s, self.log_ratio = s, log_ratio
        self.alpha, self.beta = alpha, beta
        self.gamma, self.delta, self.gamma_t, self.delta_t, self.used = gamma, delta, gamma_t, delta_t, used
        self.same = delta_t == delta                        # (ñ(c2)+t)/(n(x,c2)+t) ≡ 1
        with np.errstate(divide="ignore"):
            self.log_gamma = np.where(used, np.log(gamma), 0.0).sum(axis=1) - log_ratio

    def subset(self, index) -> "_LogH":
        return _LogH(self.s, *(a[index] for a in (self.alpha, self.beta, self.gamma, self.delta, self.gamma_t,
                                                    self.delta_t, self.used)), self.log_ratio)

    def value(self, t):
        s, tt = self.s, t[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            numerator = np.where(self.same, 1.0, self.delta_t + tt)
            denominator = np.where(self.same, 1.0, self.delta + tt) * (self.gamma_t + s - tt)
            terms = np.log(numerator / denominator)
            head = np.log((self.alpha + s - t) / (self.beta + t))
        return head + self.log_gamma + np.where(self.used, terms, 0.0).sum(axis=1)

    def slope(self, t):
        s, tt = self.s, t[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(self.same, 0.0, 1.0 / (self.delta_t + tt) - 1.0 / (self.delta + tt))
            terms = ratio + 1.0 / (self.gamma_t + s - tt)
            head = -1.0 / (self.alpha + s - t) - 1.0 / (self.beta + t)
        return head + np.where(self.used, terms, 0.0).sum(axis=1)


def _decide_interior(logh: _LogH, max_iter: int = 200) -> np.ndarray:
    """inf of the convex ln h over (0, s) > 0, for problems whose minimiser is interior."""
    m = logh.alpha.shape[0]
    result = np.zeros(m, dtype=bool)
    lo = np.zeros(m)
    hi = np.full(m, float(logh.s))
    f_lo, g_lo = logh.value(lo), logh.slope(lo)
    f_hi, g_hi = logh.value(hi), logh.slope(hi)
    best = np.minimum(f_lo, f_hi)
    active = np.arange(m)
    for _ in range(max_iter):
        if active.size == 0:
            break
        sub = logh.subset(active)
        mid = 0.5 * (lo[active] + hi[active])
        f_mid, g_mid = sub.value(mid), sub.slope(mid)
        best[active] = np.minimum(best[active], f_mid)
        go_right = g_mid < 0
        lo[active] = np.where(go_right, mid, lo[active])
        f_lo[active] = np.where(go_right, f_mid, f_lo[active])
        g_lo[active] = np.where(go_right, g_mid, g_lo[active])
        hi[active] = np.where(go_right, hi[active], mid)
        f_hi[active] = np.where(go_right, f_hi[active], f_mid)
        g_hi[active] = np.where(go_right, g_hi[active], g_mid)
        a_lo, a_hi = lo[active], hi[active]
        fl, gl, fh, gh = f_lo[active], g_lo[active], f_hi[active], g_hi[active]
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            x_star = (fh - fl - gh * a_hi + gl * a_lo) / (gl - gh)
            bound = np.where(np.isneginf(gl) | ~np.isfinite(fl), fh + gh * (a_lo - a_hi), fl + gl * (x_star - a_lo))
        no = best[active] <= 0
        yes = ~no & (bound > 0)
        flat = (a_hi - a_lo) <= 1e-13 * logh.s
        done = no | yes | flat
        result[active[yes]] = True
        result[active[flat & ~no & ~yes]] = best[active[flat & ~no & ~yes]] > 0
        active = active[~done]
    if active.size:
        result[active] = best[active] > 0
    return result


def _class_sums(gathered, mask, observed, s, t, dominated=None):
    """Per instance and class, the sums over observed features of ln h's factors at each common t of ``t``.

    ln h(t) for the pair (c1, c2) = ln[(α+s−t)/(β+t)] + U(c1) + V(c2) and its slope is
    −1/(α+s−t) − 1/(β+t) + U'(c1) + V'(c2), so at the ends t = 0 and t = s every pair is settled
    from (n, K) arrays instead of (n, K, K, d) ones. ``observed`` is (1, d, K) or (n, d, K);
    ``t`` (m,) the values of t, the leading axis of every result (m, n, K), so that one pass
    serves both ends (each sum still runs over the features in order). ``dominated`` (n, d, K),
    when given, replaces ``gathered`` in the dominated class's factors V (the upper counts of
    features missing not at random, :mod:`credalbook.classifiers.ncc`).
    """
    upper = gathered if dominated is None else dominated
    used = mask[:, :, None]                                   # (n, d, 1)
    t = np.asarray(t, dtype=float)[:, None, None, None]       # (m, 1, 1, 1): results (m, n, K)
    with np.errstate(divide="ignore", invalid="ignore"):
        differ = used & (observed != upper)
        u = _sum_over_features(np.where(used, np.log(gathered) - np.log(observed + s - t), 0.0))
        v = _sum_over_features(np.where(differ, np.log(observed + t) - np.log(upper + t), 0.0))
        du = _sum_over_features(np.where(used, 1.0 / (observed + s - t), 0.0))
        dv = _sum_over_features(np.where(differ, 1.0 / (observed + t) - 1.0 / (upper + t), 0.0))
    return u, v, du, dv


def _sum_over_features(terms: np.ndarray) -> np.ndarray:
    """``terms.sum(axis=2)`` for (m, n, d, K) terms, feature after feature: the order in which NumPy
    sums a middle axis (so the same bits), without its slow strided reduction."""
    if terms.shape[2] == 0:
        return np.zeros(terms.shape[:2] + terms.shape[3:])
    total = terms[:, :, 0].copy()
    for i in range(1, terms.shape[2]):
        total += terms[:, :, i]
    return total


def dominance_from_counts(class_counts, gathered, observed, mask, s: float = 1.0,
                          log_ratio: float = 0.0, dominated=None) -> np.ndarray:
    """(n, K, K) boolean: ``D[k, a, b]`` iff class a credal-dominates class b for instance k, from its counts.

    ``class_counts`` (K,) or (n, K): n(c); ``gathered`` (n, d, K): n(x_i, c) at the instance's
    values; ``observed`` (d, K) or (n, d, K): ñ_i(c); ``mask`` (n, d): the features that enter.
    Per-instance counts let a lazy classifier decide all its local models in one call
    (:mod:`credalbook.classifiers.lncc`); shared counts are kept at (1, d, K) so that their
    terms are computed once. ``dominated`` (n, d, K), default ``gathered``: the counts that enter
    for the dominated class c2, n(x_i, c2) + t in h's denominators (NCC2's upper counts
    n(x_i, c2) + m_i(c2) of a feature missing not at random, :mod:`credalbook.classifiers.ncc`).
    """
    n, d, K = gathered.shape
    s = float(s)
    class_counts = np.broadcast_to(class_counts, (n, K))
    observed = np.asarray(observed).reshape(-1, d, K)          # (1, d, K) shared or (n, d, K)
    alpha = class_counts[:, :, None]                           # (n, K, 1) as c1
    beta = class_counts[:, None, :]                            # (n, 1, K) as c2
    # c1 cannot dominate when its lower probability is zero: n(c1) = 0 or some n(x_i, c1) = 0
    possible = (class_counts > 0) & ~np.any(mask[:, :, None] & (gathered == 0), axis=1)
    candidate = possible[:, :, None] & ~np.eye(K, dtype=bool)[None, :, :]   # (n, K, K)
    ends = {}
    upper = gathered if dominated is None else dominated
    sums = _class_sums(gathered, mask, observed, s, np.array([0.0, s]), dominated)
    for end, t in enumerate((0.0, s)):
        u, v, du, dv = (part[end] for part in sums)
        with np.errstate(divide="ignore", invalid="ignore"):
            value = np.log((alpha + s - t) / (beta + t)) + u[:, :, None] + v[:, None, :] - log_ratio
            slope = -1.0 / (alpha + s - t) - 1.0 / (beta + t) + du[:, :, None] + dv[:, None, :]
        ends[t] = (value, slope)
    at_zero = candidate & (ends[0.0][1] >= 0)
    at_s = candidate & ~at_zero & (ends[s][1] <= 0)
    interior = candidate & ~at_zero & ~at_s
    dominance = (at_zero & (ends[0.0][0] > 0)) | (at_s & (ends[s][0] > 0))
    if interior.any():
        r, a, b = np.nonzero(interior)
        per_row = np.broadcast_to(observed, (n, d, K))
        logh = _LogH(s, class_counts[r, a], class_counts[r, b], gathered[r, :, a], upper[r, :, b],
                     per_row[r, :, a], per_row[r, :, b], mask[r], log_ratio)
        dominance[r, a, b] = _decide_interior(logh)
    return dominance


def dominance_matrix(counts: NaiveCounts, Xc: np.ndarray, s: float = 1.0, log_ratio: float = 0.0) -> np.ndarray:
    """(n, K, K) boolean: ``D[k, a, b]`` iff class a credal-dominates class b for instance k (IDM, ``s``).

    More generally ``D[k, a, b]`` iff inf_t h(t) > exp(``log_ratio``): the lower bound of the
    ratio P(a, x)/P(b, x) over the credal set exceeds that value (0 = dominance).
    """
    Xc = _checked_codes(counts, Xc)
    K = counts.class_counts.size
    n, d = Xc.shape
    out = np.zeros((n, K, K), dtype=bool)
    chunk = max(1, _CHUNK_ELEMENTS // (K * max(K, d)))
    for start in range(0, n, chunk):
        gathered, mask = counts.gather(Xc[start:start + chunk])     # (nb, d, K), (nb, d)
        out[start:start + len(mask)] = dominance_from_counts(counts.class_counts, gathered, counts.observed, mask,
                                                             s, log_ratio)
    return out




def distinct_rows(Xc: np.ndarray, n_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(Xc, axis=0, return_inverse=True)`` for coded rows (-1 missing, feature i below ``n_values[i]``).

    When the rows fit, each is read as one integer in mixed radix (first feature most
    significant, a missing value as the lowest digit), which orders them as ``np.unique``
    does; unique integers are found much faster than unique rows.
    """
    radices = np.asarray(n_values, dtype=np.int64) + 1
    if Xc.shape[1] == 0 or np.sum(np.log2(np.maximum(radices, 1))) >= 62:
        rows, inverse = np.unique(Xc, axis=0, return_inverse=True)
        return rows, inverse.ravel()
    _, first, inverse = np.unique((Xc.astype(np.int64) + 1) @ _place_values(radices), return_index=True,
                                  return_inverse=True)
    return Xc[first], inverse.ravel()


def _place_values(radices: np.ndarray) -> np.ndarray:
    """Place value of each digit of a mixed-radix number, the first digit most significant."""
    return np.r_[np.cumprod(radices[:0:-1])[::-1], 1].astype(np.int64)


def undominated_and_scores(counts: NaiveCounts, Xc: np.ndarray, s: float = 1.0,
                           prior_count: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """NCC's sets (n, K) bool and the naive Bayes log joint (n, K) from one pass over the distinct rows of ``Xc``.

    Discrete test sets repeat patterns: each distinct row is decided and scored once, and both
    the credal and the precise classifier read the same counts.
    """
    rows, inverse = distinct_rows(_checked_codes(counts, Xc), counts.n_values)
    sets = undominated(dominance_matrix(counts, rows, s))
    return sets[inverse], naive_bayes_log_joint(counts, rows, prior_count)[inverse]
