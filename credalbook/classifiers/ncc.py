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

_CHUNK_ELEMENTS = 2_000_000


def _pair_terms(counts: NaiveCounts, Xc: np.ndarray, pairs: np.ndarray):
    """Per instance and ordered pair (c1, c2): the counts entering h, as arrays (n, P[, d])."""
    gathered, mask = counts.gather(Xc)                       # (n, d, K), (n, d)
    c1, c2 = pairs[:, 0], pairs[:, 1]
    alpha = counts.class_counts[c1][None, :]                 # (1, P)
    beta = counts.class_counts[c2][None, :]
    gamma = np.moveaxis(gathered[:, :, c1], 1, 2)            # (n, P, d) n(x_i, c1)
    delta = np.moveaxis(gathered[:, :, c2], 1, 2)            # (n, P, d) n(x_i, c2)
    gamma_t = counts.observed[:, c1].T[None, :, :]           # (1, P, d) ñ_i(c1)
    delta_t = counts.observed[:, c2].T[None, :, :]           # (1, P, d) ñ_i(c2)
    used = mask[:, None, :]                                  # (n, 1, d)
    return alpha, beta, gamma, delta, gamma_t, delta_t, used


class _LogH:
    """ln h(t) and its derivative for a batch of (instance, pair) problems; arrays (m,) and (m, d)."""

    def __init__(self, s, alpha, beta, gamma, delta, gamma_t, delta_t, used):
        self.s = s
        self.alpha, self.beta = alpha, beta
        self.gamma, self.delta, self.gamma_t, self.delta_t, self.used = gamma, delta, gamma_t, delta_t, used
        self.same = delta_t == delta                        # (ñ(c2)+t)/(n(x,c2)+t) ≡ 1

    def value(self, t):
        s, tt = self.s, t[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(self.same, 0.0, np.log(self.delta_t + tt) - np.log(self.delta + tt))
            terms = ratio - np.log(self.gamma_t + s - tt) + np.log(self.gamma)
            head = np.log(self.alpha + s - t) - np.log(self.beta + t)
        return head + np.where(self.used, terms, 0.0).sum(axis=1)

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
        sub = _LogH(logh.s, *(a[active] for a in (logh.alpha, logh.beta, logh.gamma, logh.delta, logh.gamma_t,
                                                   logh.delta_t, logh.used)))
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


def dominance_matrix(counts: NaiveCounts, Xc: np.ndarray, s: float = 1.0) -> np.ndarray:
    """(n, K, K) boolean: ``D[k, a, b]`` iff class a credal-dominates class b for instance k (IDM, ``s``)."""
    K = counts.class_counts.size
    n, d = Xc.shape
    pairs = np.array([(a, b) for a in range(K) for b in range(K) if a != b], dtype=np.int64)
    out = np.zeros((n, K, K), dtype=bool)
    chunk = max(1, _CHUNK_ELEMENTS // max(1, len(pairs) * max(d, 1)))
    for start in range(0, n, chunk):
        block = Xc[start:start + chunk]
        alpha, beta, gamma, delta, gamma_t, delta_t, used = _pair_terms(counts, block, pairs)
        nb, P = block.shape[0], len(pairs)
        shape = (nb, P, d)
        alpha = np.broadcast_to(alpha, (nb, P)).ravel()
        beta = np.broadcast_to(beta, (nb, P)).ravel()
        gamma = gamma.reshape(-1, d)
        delta = delta.reshape(-1, d)
        gamma_t = np.broadcast_to(gamma_t, shape).reshape(-1, d)
        delta_t = np.broadcast_to(delta_t, shape).reshape(-1, d)
        used = np.broadcast_to(used, shape).reshape(-1, d)
        # c1 cannot dominate when its lower probability is zero: n(c1) = 0 or some n(x_i, c1) = 0
        possible = (alpha > 0) & ~np.any(used & (gamma == 0), axis=1)
        dominates = np.zeros(alpha.size, dtype=bool)
        idx = np.flatnonzero(possible)
        if idx.size:
            logh = _LogH(float(s), alpha[idx], beta[idx], gamma[idx], delta[idx], gamma_t[idx], delta_t[idx], used[idx])
            zero, ends = np.zeros(idx.size), np.full(idx.size, float(s))
            g0, gs = logh.slope(zero), logh.slope(ends)
            at_zero = g0 >= 0
            at_s = ~at_zero & (gs <= 0)
            interior = ~at_zero & ~at_s
            verdict = np.zeros(idx.size, dtype=bool)
            verdict[at_zero] = logh.value(zero)[at_zero] > 0
            verdict[at_s] = logh.value(ends)[at_s] > 0
            if interior.any():
                inner = np.flatnonzero(interior)
                sub = _LogH(float(s), *(a[inner] for a in (logh.alpha, logh.beta, logh.gamma, logh.delta,
                                                            logh.gamma_t, logh.delta_t, logh.used)))
                verdict[inner] = _decide_interior(sub)
            dominates[idx] = verdict
        dom = dominates.reshape(nb, P)
        out[start:start + nb, pairs[:, 0], pairs[:, 1]] = dom
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
        return ~dominance_matrix(self.counts_, Xc, self.s).any(axis=1)

    def _scores_codes(self, Xc):
        return naive_bayes_log_joint(self.counts_, Xc, 1.0)
