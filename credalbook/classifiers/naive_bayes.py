"""Naive Bayes on discrete features with Laplace counts: the NBC of Zaffalon, Corani & Mauá (2012, §9.1).

The counts are shared with the naive credal classifier (:mod:`credalbook.classifiers.ncc`):
:func:`naive_counts` tabulates n(c), n(a_i, c) and the per-feature counts ñ_i(c) of the
instances where feature i is observed. The NBC (as in JNCC2 1.11 and Weka) estimates

    P(c) = (n(c) + 1) / (N + K),     P(a_i | c) = (n(a_i, c) + 1) / (ñ_i(c) + m_i),

ignores a missing feature of a test instance (marginalisation) and predicts the most probable
class (ties: the first class). Features with a single value (m_i = 1) carry no information
and are ignored, as JNCC2 drops them.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import logsumexp

from credalbook._validation import check_scalar
from credalbook.classifiers.base import CredalClassifierMixin
from credalbook.discrete import MISSING

__all__ = ["NaiveCounts", "naive_counts", "naive_bayes_log_joint", "NaiveBayes"]


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

    def gather(self, Xc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For coded test instances (n, d): counts n(x_i, c) as (n, d, K) and the mask of usable features (n, d)."""
        mask = (Xc != MISSING) & self.used[None, :]
        safe = np.where(mask, Xc, 0)
        d = Xc.shape[1]
        gathered = self.table[np.arange(d)[None, :], :, safe]          # (n, d, K)
        return gathered, mask


def naive_counts(Xc: np.ndarray, yc: np.ndarray, n_classes: int, n_values: np.ndarray) -> NaiveCounts:
    """Tabulate the counts of coded training data ``Xc`` (n, d; -1 missing) and classes ``yc``."""
    n, d = Xc.shape
    n_values = np.asarray(n_values, dtype=np.int64)
    M = max(int(n_values.max()) if d else 1, 1)
    table = np.zeros((d, n_classes, M), dtype=np.float64)
    rows, cols = np.nonzero(Xc != MISSING)
    np.add.at(table, (cols, yc[rows], Xc[rows, cols]), 1.0)
    class_counts = np.bincount(yc, minlength=n_classes).astype(np.float64)
    return NaiveCounts(class_counts=class_counts, table=table, observed=table.sum(axis=2),
                       n_values=n_values, used=n_values >= 2)


def naive_bayes_log_joint(counts: NaiveCounts, Xc: np.ndarray, prior_count: float = 1.0) -> np.ndarray:
    """(n, K) log P(c) + Σ_i log P(x_i | c) with ``prior_count`` added to every count (1 = Laplace)."""
    K = counts.class_counts.size
    log_prior = np.log(counts.class_counts + prior_count) - np.log(counts.class_counts.sum() + K * prior_count)
    gathered, mask = counts.gather(Xc)
    with np.errstate(divide="ignore"):
        log_cond = np.log(gathered + prior_count) - np.log(counts.observed[None, :, :]
                                                           + prior_count * counts.n_values[None, :, None])
    log_cond = np.where(mask[:, :, None], log_cond, 0.0)
    return log_prior[None, :] + log_cond.sum(axis=1)


class NaiveBayes(CredalClassifierMixin):
    """Naive Bayes classifier on discrete features with Laplace (``prior_count = 1``) counts.

    ``predict_proba`` (n, K); ``predict_set`` is the singleton of the most probable class.
    Zaffalon, Corani & Mauá (2012), §9.1 (the NBC); Weka/JNCC2 Laplace estimator.
    """

    def __init__(self, prior_count: float = 1.0):
        self.prior_count = prior_count

    def fit(self, X, y):
        check_scalar(self.prior_count, "prior_count", low=0.0, low_inclusive=False)
        Xc, yc = self._fit_discrete(X, y)
        self.counts_ = naive_counts(Xc, yc, self.n_classes_, self.n_values_)
        return self

    def _scores_codes(self, Xc):
        return naive_bayes_log_joint(self.counts_, Xc, self.prior_count)

    def _predict_set_codes(self, Xc):
        scores = self._scores_codes(Xc)
        sets = np.zeros(scores.shape, dtype=bool)
        sets[np.arange(scores.shape[0]), np.argmax(scores, axis=1)] = True
        return sets

    def predict_log_proba(self, X) -> np.ndarray:
        """(n, K) log posterior probabilities."""
        joint = self._scores_codes(self._code_test(X))
        return joint - logsumexp(joint, axis=1, keepdims=True)

    def predict_proba(self, X) -> np.ndarray:
        """(n, K) posterior probabilities P(c | x)."""
        return np.exp(self.predict_log_proba(X))
