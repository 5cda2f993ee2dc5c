"""The non-deterministic classifier (NDC) of del Coz & Bahamonde (2009), on top of any probabilistic classifier.

For a posterior p sorted decreasingly, p_(1) ≥ … ≥ p_(K), predicting the r most probable classes
has expected F_β (del Coz & Bahamonde 2009, JMLR 10, Theorem 1; Zaffalon, Corani & Mauá 2012
§9.3, eq. (9))

    E(r) = (1 + β²) Σ_{j ≤ r} p_(j) / (β² + r),

and NDC returns the top r* = argmax_r E(r) classes (the smallest such r on ties).
"""
from __future__ import annotations

from credalbook._validation import check_scalar
from credalbook.classifiers.base import ProbabilisticSetClassifier
from credalbook.decisions import f_beta_sets

__all__ = ["NonDeterministicClassifier"]


class NonDeterministicClassifier(ProbabilisticSetClassifier):
    """NDC with parameter ``beta`` (default 1, as in Zaffalon, Corani & Mauá 2012 §9.3) on top of ``estimator``.

    ``predict_set`` is the set of classes maximising the expected F-beta measure under
    ``estimator``'s probabilities (:func:`credalbook.decisions.f_beta_sets`).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> X, y = load_iris(return_X_y=True)
    >>> model = NonDeterministicClassifier(LogisticRegression(max_iter=1000)).fit(X, y)
    >>> model.predict_set(X[[0, 70, 120]]).astype(int).tolist()
    [[1, 0, 0], [0, 1, 1], [0, 0, 1]]
    >>> model.predict(X[[0, 70, 120]]).tolist()
    [0, 2, 2]
    """

    def __init__(self, estimator, beta: float = 1.0):
        super().__init__(estimator)
        self.beta = beta

    def _check_parameters(self):
        check_scalar(self.beta, "beta", low=0.0, low_inclusive=False)

    def _sets_from_proba(self, proba):
        return f_beta_sets(proba, self.beta)
