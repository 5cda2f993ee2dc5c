"""The naive credal classifier (NCC, Zaffalon 2001; NCC2, Corani & Zaffalon 2008) with the IDM.

Class c1 *credal-dominates* c2 for an instance x when the lower expectation of
P(c1, x) − P(c2, x)·h over the IDM credal set (hyperparameter s) is positive, which for the
naive model reduces to inf_{t ∈ (0, s)} h(t) > 1 with (Zaffalon, Corani & Mauá 2012 §9.1;
Corani & Zaffalon 2008, JMLR 9, eq. for NCC2 with features missing at random)

    h(t) = (α + s − t)/(β + t) · Π_i [(ñ_i(c2) + t)/(ñ_i(c1) + s − t)] · n(x_i, c1)/(n(x_i, c2) + t),

α = n(c1), β = n(c2), ñ_i(c) the count of class c among the training instances where feature
i is observed, the product over the features observed in x (a missing test value drops its
feature). With complete training data ñ_i(c1) = α, ñ_i(c2) = β and h reduces to
[(β+t)/(α+s−t)]^(k−1) Π_i n(x_i, c1)/(n(x_i, c2)+t). ln h is convex in t, so its infimum is at
an end of (0, s) or at the root of its derivative. The prediction is the set of classes no
other class dominates.

:func:`dominance_matrix` decides the test for all instances and ordered class pairs at once:
the cases decided at the ends are settled in one vectorised step, the others by a bracketing
bisection on d ln h/dt that stops, per pair, as soon as a value of ln h is ≤ 0 (no dominance) or
the tangent lower bound of the convex function is > 0 (dominance).
"""
from __future__ import annotations

import numpy as np

from credalbook._validation import check_scalar
from credalbook.classifiers.base import CredalClassifierMixin
from credalbook.classifiers.naive_bayes import NaiveCounts, naive_bayes_log_joint, naive_counts
from credalbook.decisions import undominated

__all__ = ["dominance_matrix", "NaiveCredalClassifier"]

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


def _class_sums(gathered, mask, observed, s, t):
    """Per instance and class, the sums over observed features of ln h's factors at a common t.

    ln h(t) for the pair (c1, c2) = ln[(α+s−t)/(β+t)] + U(c1) + V(c2) and its slope is
    −1/(α+s−t) − 1/(β+t) + U'(c1) + V'(c2), so at the ends t = 0 and t = s every pair is settled
    from (n, K) arrays instead of (n, K, K, d) ones.
    """
    obs = observed[None, :, :]                                # (1, d, K) ñ_i(c)
    used = mask[:, :, None]                                   # (n, d, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        same = obs == gathered
        u = np.where(used, np.log(gathered) - np.log(obs + s - t), 0.0).sum(axis=1)
        v = np.where(used & ~same, np.log(obs + t) - np.log(gathered + t), 0.0).sum(axis=1)
        du = np.where(used, 1.0 / (obs + s - t), 0.0).sum(axis=1)
        dv = np.where(used & ~same, 1.0 / (obs + t) - 1.0 / (gathered + t), 0.0).sum(axis=1)
    return u, v, du, dv


def dominance_matrix(counts: NaiveCounts, Xc: np.ndarray, s: float = 1.0, log_ratio: float = 0.0) -> np.ndarray:
    """(n, K, K) boolean: ``D[k, a, b]`` iff class a credal-dominates class b for instance k (IDM, ``s``).

    More generally ``D[k, a, b]`` iff inf_t h(t) > exp(``log_ratio``): the lower bound of the
    ratio P(a, x)/P(b, x) over the credal set exceeds that value (0 = dominance).
    """
    K = counts.class_counts.size
    n, d = Xc.shape
    s = float(s)
    out = np.zeros((n, K, K), dtype=bool)
    chunk = max(1, _CHUNK_ELEMENTS // (K * max(K, d)))
    alpha = counts.class_counts[None, :, None]                 # (1, K, 1) as c1
    beta = counts.class_counts[None, None, :]                  # (1, 1, K) as c2
    off_diagonal = ~np.eye(K, dtype=bool)[None, :, :]
    for start in range(0, n, chunk):
        block = Xc[start:start + chunk]
        gathered, mask = counts.gather(block)                  # (nb, d, K), (nb, d)
        # c1 cannot dominate when its lower probability is zero: n(c1) = 0 or some n(x_i, c1) = 0
        possible = (counts.class_counts[None, :] > 0) & ~np.any(mask[:, :, None] & (gathered == 0), axis=1)
        candidate = possible[:, :, None] & off_diagonal        # (nb, K, K)
        ends = {}
        for t in (0.0, s):
            u, v, du, dv = _class_sums(gathered, mask, counts.observed, s, t)
            with np.errstate(divide="ignore", invalid="ignore"):
                value = np.log((alpha + s - t) / (beta + t)) + u[:, :, None] + v[:, None, :] - log_ratio
                slope = -1.0 / (alpha + s - t) - 1.0 / (beta + t) + du[:, :, None] + dv[:, None, :]
            ends[t] = (value, slope)
        at_zero = candidate & (ends[0.0][1] >= 0)
        at_s = candidate & ~at_zero & (ends[s][1] <= 0)
        interior = candidate & ~at_zero & ~at_s
        dom = (at_zero & (ends[0.0][0] > 0)) | (at_s & (ends[s][0] > 0))
        if interior.any():
            r, a, b = np.nonzero(interior)
            used = mask[r]
            logh = _LogH(s, counts.class_counts[a], counts.class_counts[b], gathered[r, :, a], gathered[r, :, b],
                         counts.observed[:, a].T, counts.observed[:, b].T, used, log_ratio)
            dom[r, a, b] = _decide_interior(logh)
        out[start:start + block.shape[0]] = dom
    return out


class NaiveCredalClassifier(CredalClassifierMixin):
    """Naive credal classifier with the IDM (hyperparameter ``s``, default 1) on discrete features.

    ``predict_set`` (n, K) bool: the classes that no other class credal-dominates (NCC2 with
    all features missing at random, Corani & Zaffalon 2008; Zaffalon, Corani & Mauá 2012 §9.1).
    ``predict``: for a determinate output its single class; otherwise the class of the set with
    the largest naive Bayes (Laplace) posterior — the NBC-consistent choice.
    ``dominance(X)`` returns the full (n, K, K) dominance relation.
    """

    def __init__(self, s: float = 1.0):
        self.s = s

    def fit(self, X, y):
        check_scalar(self.s, "s", low=0.0, low_inclusive=False)
        Xc, yc = self._fit_discrete(X, y)
        self.counts_ = naive_counts(Xc, yc, self.n_classes_, self.n_values_)
        return self

    def dominance(self, X) -> np.ndarray:
        """(n, K, K) bool: ``D[k, a, b]`` iff class a credal-dominates class b for instance k."""
        return dominance_matrix(self.counts_, self._code_test(X), self.s)

    def _predict_set_codes(self, Xc):
        # discrete test sets repeat patterns: decide each distinct row once
        rows, inverse = np.unique(Xc, axis=0, return_inverse=True)
        return undominated(dominance_matrix(self.counts_, rows, self.s))[inverse.ravel()]

    def _scores_codes(self, Xc):
        return naive_bayes_log_joint(self.counts_, Xc, 1.0)
