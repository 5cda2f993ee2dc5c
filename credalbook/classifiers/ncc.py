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

:func:`dominance_matrix` (in the naive model's array core, :mod:`credalbook.classifiers.naive`)
decides the test for all instances and ordered class pairs at once: the cases decided at the
ends are settled in one vectorised step, the others by a bracketing bisection on d ln h/dt that
stops, per pair, as soon as a value of ln h is ≤ 0 (no dominance) or the tangent lower bound of
the convex function is > 0 (dominance).
"""
from __future__ import annotations

import numpy as np

from credalbook._validation import check_scalar
from credalbook.classifiers.base import CredalClassifierMixin, choose_in_set
from credalbook.classifiers.naive import (
    dominance_from_counts,
    dominance_matrix,
    naive_bayes_log_joint,
    naive_counts,
    undominated_and_scores,
)

__all__ = ["dominance_from_counts", "dominance_matrix", "NaiveCredalClassifier"]


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
        return undominated_and_scores(self.counts_, Xc, self.s)[0]

    def _scores_codes(self, Xc):
        return naive_bayes_log_joint(self.counts_, Xc, 1.0)

    def predict_with_set(self, X) -> tuple[np.ndarray, np.ndarray]:
        """``(predict_set(X), predict_index(X))`` from one pass over the distinct rows (sets and scores share it)."""
        sets, scores = undominated_and_scores(self.counts_, self._code_test(X), self.s)
        return sets, choose_in_set(sets, scores)
