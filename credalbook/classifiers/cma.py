"""Credal model averaging (CMA) over naive Bayes feature subsets (Corani & Zaffalon 2008).

Bayesian model averaging over the :math:`2^k` naive Bayes structures obtained by keeping or
dropping the arc from the class to each feature factorises feature by feature (Dash & Cooper
2004). With a prior that includes feature :math:`i` with probability :math:`t_i`
independently, the joint predictive of class :math:`c` and the features :math:`x` is

.. math::

    P_t(c, x \\mid D) \\propto \\theta_c \\prod_i \\bigl[t_i\\, ML_C(i)\\, \\theta(x_i\\mid c)
        + (1-t_i)\\, ML_0(i)\\, \\theta(x_i)\\bigr],

where :math:`ML_C(i)` and :math:`ML_0(i)` are the marginal likelihoods of feature :math:`i`
with and without the class arc (BDeu priors of equivalent sample size :math:`s`: prior counts
:math:`s/|C|` per class, :math:`s/(|C||A_i|)` per class-value cell, :math:`s/|A_i|` per value)
and the :math:`\\theta` are the posterior-predictive estimates. The normaliser depends on
:math:`t` but not on :math:`c`, so it cancels in the ratio of two classes.

CMA replaces the precise prior over structures by the credal set
:math:`t_i \\in [\\underline t, \\overline t]` (default [0.1, 0.9], as in Weka-IP and the
Zaffalon, Corani & Mauá (2012) benchmark, Section 9.2). Class :math:`c_1` credal-dominates
:math:`c_2` iff :math:`\\min_t P_t(c_1,x)/P_t(c_2,x) > 1`. The ratio is a product of factors
:math:`f_i(t_i) = (t A_1 + (1-t) B)/(t A_2 + (1-t) B)`, each linear-fractional and hence
monotone in its own :math:`t_i`, so the minimum is the product of the per-factor minima over
the two end points: the test is exact and costs :math:`O(k)` per pair of classes.

Missing values: training counts of feature :math:`i` use the instances where it is observed
(its marginal likelihoods and estimates are computed on them); a feature missing in a test
instance is dropped (its factor is 1 for every class).
"""
from __future__ import annotations

import numpy as np
from scipy.special import gammaln, logsumexp

from credalbook._validation import check_scalar
from credalbook.classifiers.base import CredalClassifierMixin
from credalbook.decisions import undominated
from credalbook.discrete import MISSING

__all__ = ["DOMINANCE_TOL", "log_marginal_likelihoods", "CredalModelAveraging"]

#: tolerance on the log ratio: a class dominates only if the minimum log ratio exceeds it
DOMINANCE_TOL = 1e-10


def log_marginal_likelihoods(table: np.ndarray, s: float = 1.0) -> tuple[float, float]:
    """``(log ML_C, log ML_0)`` of one feature from its (m, K) value-by-class count ``table``.

    BDeu marginal likelihoods with equivalent sample size ``s`` (Dash & Cooper 2004;
    Corani & Zaffalon 2008, Section 3): with the class arc, a Dirichlet(s/(K m)) per class
    column; without it, one Dirichlet(s/m) over the values.
    """
    table = np.asarray(table, dtype=float)
    if table.ndim != 2 or table.shape[0] < 1 or table.shape[1] < 1:
        raise ValueError(f"table must be an (m, K) count matrix with m, K >= 1, got shape {table.shape}")
    if np.any(table < 0) or not np.all(np.isfinite(table)):
        raise ValueError("table must hold finite non-negative counts")
    check_scalar(s, "s", low=0.0, low_inclusive=False)
    m, k = table.shape
    cell, column = s / (k * m), s / k
    class_totals = table.sum(axis=0)
    log_ml_c = float(np.sum(gammaln(column) - gammaln(column + class_totals))
                     + np.sum(gammaln(cell + table) - gammaln(cell)))
    values = table.sum(axis=1)
    log_ml_0 = float(gammaln(s) - gammaln(s + values.sum()) + np.sum(gammaln(s / m + values) - gammaln(s / m)))
    return log_ml_c, log_ml_0


class CredalModelAveraging(CredalClassifierMixin):
    """CMA: credal set of naive Bayes model averages with inclusion probabilities in ``[t_low, t_high]``.

    ``predict_set(X)`` (n, K) bool: the classes no other class credal-dominates (exact test,
    see the module docstring). ``predict_proba(X)``: the Bayesian model average at
    ``t = (t_low + t_high)/2`` for every feature, used by ``predict`` to pick one class inside
    the set. Corani & Zaffalon (2008); Zaffalon, Corani & Mauá (2012), Section 9.2.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0]] * 5 + [[1, 1]] * 5 + [[0, 1], [1, 0], [0, 1], [1, 0]])
    >>> y = ["a"] * 5 + ["b"] * 5 + ["a", "a", "b", "b"]
    >>> x = [[0, 0], [1, 1], [0, 1]]     # in the third instance the two features disagree
    >>> model = CredalModelAveraging().fit(X, y)
    >>> model.predict_set(x).tolist()
    [[True, False], [False, True], [True, True]]
    >>> model.predict_proba(x).round(2).tolist()
    [[0.95, 0.05], [0.05, 0.95], [0.5, 0.5]]
    """

    def __init__(self, s: float = 1.0, t_low: float = 0.1, t_high: float = 0.9):
        self.s = s
        self.t_low = t_low
        self.t_high = t_high

    def _check_params(self):
        check_scalar(self.s, "s", low=0.0, low_inclusive=False)
        check_scalar(self.t_low, "t_low", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
        check_scalar(self.t_high, "t_high", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
        if self.t_low > self.t_high:
            raise ValueError(f"t_low must be <= t_high, got t_low={self.t_low} > t_high={self.t_high}")

    def fit(self, X, y):
        """Learn counts, marginal likelihoods and posterior-predictive estimates from discrete ``X``."""
        self._check_params()
        Xc, yc = self._fit_discrete(X, y)
        n_classes, d = self.n_classes_, self.n_features_in_
        s = float(self.s)
        m = np.maximum(self.n_values_, 1)
        m_max = int(m.max())
        class_counts = np.bincount(yc, minlength=n_classes).astype(float)
        self.log_class_prior_ = np.log((class_counts + s / n_classes) / (class_counts.sum() + s))
        # log theta(v | c) and log theta(v), padded to m_max values; log Bayes factor ML_C / ML_0
        log_cond = np.zeros((d, m_max, n_classes))
        log_marg = np.zeros((d, m_max))
        log_bf = np.zeros(d)
        for j in range(d):
            observed = Xc[:, j] != MISSING
            table = np.zeros((m[j], n_classes))
            np.add.at(table, (Xc[observed, j], yc[observed]), 1.0)
            log_ml_c, log_ml_0 = log_marginal_likelihoods(table, s)
            log_bf[j] = log_ml_c - log_ml_0
            cell, column = s / (n_classes * m[j]), s / n_classes
            log_cond[j, :m[j]] = np.log(table + cell) - np.log(table.sum(axis=0) + column)[None, :]
            values = table.sum(axis=1)
            log_marg[j, :m[j]] = np.log(values + s / m[j]) - np.log(values.sum() + s)
        self.log_cond_, self.log_marg_, self.log_bayes_factor_ = log_cond, log_marg, log_bf
        return self

    def _feature_terms(self, Xc: np.ndarray, t: float) -> np.ndarray:
        """(n, d, K): log of each feature's factor :math:`t ML_C\\theta(x_i|c) + (1-t) ML_0\\theta(x_i)` over ML_0.

        The factor depends on the instance through its value only: it is computed once per
        (feature, value, class) and gathered. A missing test value gives the same term for every
        class (the factor cancels).
        """
        with_arc = np.log(t) + self.log_bayes_factor_[:, None, None] + self.log_cond_  # (d, M, K)
        without = np.log1p(-t) + self.log_marg_  # (d, M)
        table = np.logaddexp(with_arc, without[:, :, None])
        terms = table[np.arange(Xc.shape[1])[None, :], np.clip(Xc, 0, None)]  # (n, d, K)
        return np.where((Xc == MISSING)[:, :, None], 0.0, terms)

    def min_log_ratios(self, X) -> np.ndarray:
        """(n, K, K): :math:`\\min_t \\log P_t(c_1, x)/P_t(c_2, x)` for every ordered pair (c1, c2)."""
        return self._min_log_ratios(self._code_test(X))

    def _min_log_ratios(self, Xc: np.ndarray) -> np.ndarray:
        """The minimum log ratios from the log factors at ``t_low`` and ``t_high`` (compiled:
        :func:`credalbook._kernels.cma_min_log_ratios`, no (n, d, K, K) temporaries)."""
        from credalbook._kernels import cma_min_log_ratios

        self._check_params()
        k = self.n_classes_
        out = np.empty((Xc.shape[0], k, k))
        prior = self.log_class_prior_[:, None] - self.log_class_prior_[None, :]
        cma_min_log_ratios(self._feature_terms(Xc, self.t_low), self._feature_terms(Xc, self.t_high), prior, out)
        return out

    def _predict_set_codes(self, Xc: np.ndarray) -> np.ndarray:
        return undominated(self._min_log_ratios(Xc) > DOMINANCE_TOL)

    def _scores_codes(self, Xc: np.ndarray) -> np.ndarray:
        t = 0.5 * (self.t_low + self.t_high)
        return self.log_class_prior_[None, :] + self._feature_terms(Xc, t).sum(axis=1)

    def predict_proba(self, X) -> np.ndarray:
        """(n, K) Bayesian model average with every inclusion probability at the centre of the interval."""
        scores = self._scores_codes(self._code_test(X))
        return np.exp(scores - logsumexp(scores, axis=1, keepdims=True))
