"""Naive Bayes on discrete features with Laplace counts: the NBC of Zaffalon, Corani & Mauá (2012, §9.1).

The counts and log-probabilities are the naive model's array core
(:mod:`credalbook.classifiers.naive`), shared with the naive credal classifier:
:func:`naive_counts` tabulates n(c), n(a_i, c) and the per-feature counts ñ_i(c) of the
instances where feature i is observed. The NBC (as in JNCC2 1.11 and Weka) estimates

    P(c) = (n(c) + 1) / (N + K),     P(a_i | c) = (n(a_i, c) + 1) / (ñ_i(c) + m_i),

ignores a missing feature of a test instance (marginalisation) and predicts the most probable
class (ties: the first class). Features with a single value (m_i = 1) carry no information
and are ignored, as JNCC2 drops them.
"""
from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from credalbook._validation import check_scalar
from credalbook.classifiers.base import CredalClassifierMixin
from credalbook.classifiers.naive import NaiveCounts, log_joint_from_counts, naive_bayes_log_joint, naive_counts

__all__ = ["NaiveCounts", "naive_counts", "log_joint_from_counts", "naive_bayes_log_joint", "NaiveBayes"]


def _most_probable(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The singleton sets (n, K) of the best-scored classes and their indices (n,) (ties: the first class)."""
    index = np.argmax(scores, axis=1)
    sets = np.zeros(scores.shape, dtype=bool)
    sets[np.arange(scores.shape[0]), index] = True
    return sets, index


class NaiveBayes(CredalClassifierMixin):
    """Naive Bayes classifier on discrete features with Laplace (``prior_count = 1``) counts.

    ``predict_proba`` (n, K); ``predict_set`` is the singleton of the most probable class.
    Zaffalon, Corani & Mauá (2012), §9.1 (the NBC); Weka/JNCC2 Laplace estimator.

    Parameters
    ----------
    prior_count
        float, > 0: the count added to every cell of the count tables (1: Laplace).

    Examples
    --------
    Where the features disagree (the third instance) the credal classifiers return both
    classes; naive Bayes gives probabilities of one half and picks the first class:

    >>> import numpy as np
    >>> X = np.array([[0, 0]] * 5 + [[1, 1]] * 5 + [[0, 1], [1, 0], [0, 1], [1, 0]])
    >>> y = ["a"] * 5 + ["b"] * 5 + ["a", "a", "b", "b"]
    >>> x = [[0, 0], [1, 1], [0, 1]]     # in the third instance the two features disagree
    >>> model = NaiveBayes().fit(X, y)
    >>> model.predict_proba(x).round(2).tolist()
    [[0.92, 0.08], [0.08, 0.92], [0.5, 0.5]]
    >>> model.predict(x).tolist()
    ['a', 'b', 'a']
    >>> model.predict_set(x).sum(axis=1).tolist()     # always a singleton
    [1, 1, 1]
    """

    def __init__(self, prior_count: float = 1.0):
        self.prior_count = prior_count

    def fit(self, X, y):
        """Count the training data (class counts and per-feature contingency tables).

        Parameters
        ----------
        X
            (n_samples, n_features) discrete features: integer codes 0..m-1 (NaN or -1: missing) or a
            DataFrame of pandas Categoricals (:mod:`credalbook.discrete`).
        y
            (n_samples,) class labels; a pandas Categorical declares classes that ``y`` lacks.

        Returns
        -------
        NaiveBayes
            The fitted classifier.
        """
        check_scalar(self.prior_count, "prior_count", low=0.0, low_inclusive=False)
        Xc, yc = self._fit_discrete(X, y)
        self.counts_ = naive_counts(Xc, yc, self.n_classes_, self.n_values_)
        return self

    def _scores_codes(self, Xc):
        return naive_bayes_log_joint(self.counts_, Xc, self.prior_count)

    def _predict_set_codes(self, Xc):
        return _most_probable(self._scores_codes(Xc))[0]

    def predict_with_set(self, X) -> tuple[np.ndarray, np.ndarray]:
        """``(predict_set(X), predict_index(X))`` from one scoring pass."""
        return _most_probable(self._scores_codes(self._code_test(X)))

    def predict_log_proba(self, X) -> np.ndarray:
        """(n, K) log posterior probabilities."""
        joint = self._scores_codes(self._code_test(X))
        return joint - logsumexp(joint, axis=1, keepdims=True)

    def predict_proba(self, X) -> np.ndarray:
        """(n, K) posterior probabilities P(c | x)."""
        return np.exp(self.predict_log_proba(X))
