"""The non-deterministic classifier (NDC) of del Coz & Bahamonde (2009), on top of any probabilistic classifier.

For a posterior p sorted decreasingly, p_(1) ≥ … ≥ p_(K), predicting the r most probable classes
has expected F_β (del Coz & Bahamonde 2009, JMLR 10, Theorem 1; Zaffalon, Corani & Mauá 2012
§9.3, eq. (9))

    E(r) = (1 + β²) Σ_{j ≤ r} p_(j) / (β² + r),

and NDC returns the top r* = argmax_r E(r) classes (the smallest such r on ties).
"""
from __future__ import annotations

import numpy as np

from credalbook._validation import check_probabilities, check_scalar
from credalbook.classifiers.base import ProbabilisticSetClassifier


def expected_f_beta(proba, beta: float = 1.0) -> np.ndarray:
    """(n, K) expected F_β of predicting the top r = 1..K classes of each posterior row."""
    proba = check_probabilities(proba, "proba")
    check_scalar(beta, "beta", low=0.0, low_inclusive=False)
    top = -np.sort(-proba, axis=1)
    r = np.arange(1, proba.shape[1] + 1)
    return (1 + beta**2) * np.cumsum(top, axis=1) / (beta**2 + r)


def ndc_sets(proba, beta: float = 1.0) -> np.ndarray:
    """(n, K) bool: the r* most probable classes maximising the expected F_β (del Coz & Bahamonde 2009)."""
    proba = check_probabilities(proba, "proba")
    expected = expected_f_beta(proba, beta)
    r_star = np.argmax(expected >= expected.max(axis=1, keepdims=True) - 1e-12, axis=1) + 1
    order = np.argsort(-proba, axis=1, kind="stable")
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(proba.shape[1])[None, :].repeat(proba.shape[0], 0), axis=1)
    return rank < r_star[:, None]


class NonDeterministicClassifier(ProbabilisticSetClassifier):
    """NDC with parameter ``beta`` (default 1, as in Zaffalon, Corani & Mauá 2012 §9.3) on top of ``estimator``."""

    def __init__(self, estimator, beta: float = 1.0):
        super().__init__(estimator)
        self.beta = beta

    def _check_parameters(self):
        check_scalar(self.beta, "beta", low=0.0, low_inclusive=False)

    def _sets_from_proba(self, proba):
        return ndc_sets(proba, self.beta)
