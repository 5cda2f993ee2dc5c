"""Estimators that do nothing, for timing scikit-learn's own share of a cross-validation.

``do_nothing_pipeline`` has the shape of the public path's pipeline (a transformer, then a
set-valued classifier) and none of its work: what ``jncc2.cross_validate_public(..., do_nothing=True)``
costs through it is scikit-learn's (folds, clones, the pipeline, the scorer calls) and pandas' row
selection, the floor under any estimator on the same folds.
"""
from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin

from credalbook.pipeline import make_set_pipeline

__all__ = ["PassThrough", "EverySetClassifier", "do_nothing_pipeline"]


class PassThrough(TransformerMixin, BaseEstimator):
    """A transformer that learns nothing and returns ``X`` as it came.

    Examples
    --------
    >>> PassThrough().fit_transform([[1, 2]])
    [[1, 2]]
    """

    def fit(self, X, y=None):
        """Learn nothing; returns the transformer."""
        return self

    def transform(self, X):
        """``X`` itself."""
        return X


class EverySetClassifier(ClassifierMixin, BaseEstimator):
    """A classifier that learns only the classes and predicts the set of all of them, choosing the first.

    Examples
    --------
    >>> sets, index = EverySetClassifier().fit([[0], [1]], ["a", "b"]).predict_with_set([[0]])
    >>> sets.tolist(), index.tolist()
    ([[True, True]], [0])
    """

    def fit(self, X, y):
        """Record ``classes_`` (a Categorical's categories, or the sorted labels); returns the classifier."""
        categories = getattr(getattr(y, "cat", None), "categories", None)
        self.classes_ = np.asarray(categories if categories is not None else np.unique(y))
        return self

    def predict_with_set(self, X):
        """(n, K) sets holding every class, and index 0 for each instance."""
        n = len(X)
        return np.ones((n, self.classes_.size), dtype=bool), np.zeros(n, dtype=np.int64)


def do_nothing_pipeline():
    """``make_set_pipeline(PassThrough(), EverySetClassifier())``: the public pipeline's shape, none of its work.

    Examples
    --------
    >>> [name for name, _ in do_nothing_pipeline().steps]
    ['passthrough', 'everysetclassifier']
    """
    return make_set_pipeline(PassThrough(), EverySetClassifier())
