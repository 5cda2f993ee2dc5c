"""What every credal (set-valued) classifier of the book shares (the coding of discrete
features and labels is :mod:`credalbook.discrete`).

* :class:`CredalClassifierMixin` gives the scikit-learn estimator API (``get_params``,
  ``clone``, ``score`` = accuracy of ``predict``) and the conventions of the book:
  ``predict_set(X)`` returns an (n, K) boolean matrix over ``classes_`` (never an empty row),
  ``predict(X)`` one class per instance, chosen inside the set by the subclass's scores.

A subclass implements ``fit`` (calling ``CredalClassifierMixin._fit_discrete``),
``_predict_set_codes(Xc) -> (n, K) bool`` and ``_scores_codes(Xc) -> (n, K) float`` (any
monotone score of the classes, e.g. a posterior, used to pick one class within the set).

A value unseen in fit is treated as missing (the class attribute ``_unseen``; see
:func:`credalbook.discrete.check_discrete_X`).
"""
from __future__ import annotations

import copy

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import get_tags
from sklearn.utils.validation import check_is_fitted, column_or_1d, validate_data

from credalbook.discrete import check_discrete_X, encode_labels, validated_input

__all__ = ["CredalClassifierMixin", "ProbabilisticSetClassifier", "choose_in_set"]

class CredalClassifierMixin(ClassifierMixin, BaseEstimator):
    """scikit-learn API shared by the book's set-valued classifiers on discrete features.

    After ``_fit_discrete`` the estimator has ``classes_`` (K labels), ``n_classes_``,
    ``n_features_in_`` and ``n_values_`` (values per feature). Subclasses implement
    ``_predict_set_codes`` and ``_scores_codes`` on the coded test matrix.

    Examples
    --------
    Every credal classifier of the package is one; ``predict_with_set`` gives the sets and the
    single predictions (as indices into ``classes_``) in one pass:

    >>> import numpy as np
    >>> X = np.array([[0, 0]] * 5 + [[1, 1]] * 5 + [[0, 1], [1, 0], [0, 1], [1, 0]])
    >>> y = ["a"] * 5 + ["b"] * 5 + ["a", "a", "b", "b"]
    >>> x = [[0, 0], [1, 1], [0, 1]]     # in the third instance the two features disagree
    >>> from credalbook.classifiers import NaiveCredalClassifier
    >>> model = NaiveCredalClassifier().fit(X, y)
    >>> isinstance(model, CredalClassifierMixin)
    True
    >>> sets, index = model.predict_with_set(x)
    >>> sets.tolist()
    [[True, False], [False, True], [True, True]]
    >>> model.classes_[index].tolist()
    ['a', 'b', 'a']
    """

    #: what to do with a feature value unseen in fit: "missing" (drop that feature) or "error"
    _unseen = "missing"

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True  # pandas Categorical columns, coded by their categories
        tags.input_tags.allow_nan = True    # NaN (or -1) marks a missing value
        # features are codes 0..m-1: a negative value other than the missing-value marker -1 (as NaN) is refused
        # ("Negative values in data ..."), which is what positive_only says
        tags.input_tags.positive_only = True
        return tags

    def _fit_discrete(self, X, y):
        """Validate and code the training data; returns ``(Xc, yc)`` and sets the fitted attributes."""
        X = validated_input(self, X, reset=True)
        Xc, n_values, categories = check_discrete_X(X, "X")
        classes, yc = encode_labels(y, "y")
        if Xc.shape[0] != yc.shape[0]:
            raise ValueError(f"inconsistent numbers of instances: X has {Xc.shape[0]}, y has {yc.shape[0]}")
        if classes.size < 2:
            raise ValueError(f"y has {classes.size} class: at least two classes are needed (pass a Categorical "
                             f"to declare absent ones)")
        self.classes_ = classes
        self.n_classes_ = int(classes.size)
        self.n_values_ = n_values
        self._categories = categories
        return Xc, yc

    def _code_test(self, X) -> np.ndarray:
        check_is_fitted(self, "classes_")
        X = validated_input(self, X, reset=False)
        Xc, _, _ = check_discrete_X(X, "X", n_values=self.n_values_, unseen=self._unseen,
                                    categories=self._categories)
        return Xc

    def _predict_set_codes(self, Xc: np.ndarray) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def _scores_codes(self, Xc: np.ndarray) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def predict_set(self, X) -> np.ndarray:
        """(n, K) boolean matrix: the classes (columns ordered as ``classes_``) the classifier cannot rule out."""
        return self._predict_set_codes(self._code_test(X))

    def predict_index(self, X) -> np.ndarray:
        """Index (into ``classes_``) of the single predicted class: the best-scored class inside the set."""
        Xc = self._code_test(X)
        return choose_in_set(self._predict_set_codes(Xc), self._scores_codes(Xc))

    def predict_with_set(self, X) -> tuple[np.ndarray, np.ndarray]:
        """``(predict_set(X), predict_index(X))`` computed in one pass."""
        Xc = self._code_test(X)
        sets = self._predict_set_codes(Xc)
        return sets, choose_in_set(sets, self._scores_codes(Xc))

    def predict(self, X) -> np.ndarray:
        """One class label per instance (for a determinate output, the only class of the set)."""
        index = self.predict_index(X)
        return self.classes_[index]


def choose_in_set(sets: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Per row, the index of the highest score among the classes of the set (ties: lowest index)."""
    masked = np.where(sets, scores, -np.inf)
    return np.argmax(masked, axis=1)


class ProbabilisticSetClassifier(ClassifierMixin, BaseEstimator):
    """Base of set-valued classifiers built on any probabilistic classifier's ``predict_proba``.

    ``fit`` fits a clone of ``estimator`` (inputs are validated by it, so they need not be
    discrete); ``predict_proba`` delegates; ``predict`` is the most probable class;
    ``predict_set`` applies the subclass's rule ``_sets_from_proba(proba) -> (n, K) bool``.

    Examples
    --------
    A new set rule on any probabilistic classifier: the two most probable classes.

    >>> import numpy as np
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> X, y = load_iris(return_X_y=True)
    >>> class TopTwo(ProbabilisticSetClassifier):
    ...     def _sets_from_proba(self, proba):
    ...         return proba >= np.sort(proba, axis=1)[:, [-2]]
    >>> model = TopTwo(LogisticRegression(max_iter=1000)).fit(X, y)
    >>> model.predict_set(X[[0, 70]]).tolist()
    [[True, True, False], [False, True, True]]
    >>> model.predict(X[[0, 70]]).tolist()
    [0, 2]
    """

    def __init__(self, estimator):
        self.estimator = estimator

    def __sklearn_tags__(self):
        # the wrapped estimator validates X: what it accepts (sparse, NaN, categorical, ...) is what this accepts
        tags = super().__sklearn_tags__()
        try:
            tags.input_tags = copy.deepcopy(get_tags(self.estimator).input_tags)
        except (AttributeError, TypeError):   # not an estimator: fit refuses it
            pass
        return tags

    def fit(self, X, y):
        """Fit a clone of ``estimator`` on (``X``, ``y``) after checking the parameters and the targets.

        Parameters
        ----------
        X
            (n_samples, n_features) features, as ``estimator`` takes them (it validates them).
        y
            (n_samples,) class labels; a pandas Categorical declares classes that ``y`` lacks.

        Returns
        -------
        ProbabilisticSetClassifier
            The fitted classifier.
        """
        from sklearn.base import clone

        if not hasattr(self.estimator, "predict_proba"):
            raise ValueError(f"estimator must have predict_proba, got {type(self.estimator).__name__}")
        self._check_parameters()
        if not isinstance(getattr(y, "dtype", None), pd.CategoricalDtype):
            y = column_or_1d(y, warn=True)
        encode_labels(y, "y")  # the checks of the targets (missing, infinite, continuous labels)
        self._check_X(X, reset=True)
        self.estimator_ = clone(self.estimator).fit(X, y)
        self.classes_ = np.asarray(self.estimator_.classes_)
        self.n_classes_ = int(self.classes_.size)
        return self

    def _check_parameters(self):  # pragma: no cover - overridden
        pass

    def predict_proba(self, X) -> np.ndarray:
        """(n, K) posterior probabilities of the underlying estimator."""
        check_is_fitted(self, "estimator_")
        self._check_X(X, reset=False)
        return self.estimator_.predict_proba(X)

    def _check_X(self, X, reset: bool) -> None:
        """The number (and names) of features, set in fit and compared at prediction; other checks of
        ``X`` are the wrapped estimator's."""
        if getattr(X, "ndim", None) == 1:
            raise ValueError("Expected a 2D array, got a 1D array instead: Reshape your data with "
                             "X.reshape(-1, 1) for a single feature or X.reshape(1, -1) for a single instance")
        validate_data(self, X, skip_check_array=True, reset=reset)

    def predict_index(self, X) -> np.ndarray:
        """Index of the most probable class (ties: lowest index)."""
        return np.argmax(self.predict_proba(X), axis=1)

    def predict(self, X) -> np.ndarray:
        """The most probable class of each instance (``estimator``'s ``predict_proba``; ties: the first class)."""
        index = self.predict_index(X)
        return self.classes_[index]

    def predict_set(self, X) -> np.ndarray:
        """(n, K) boolean matrix of the predicted sets (columns ordered as ``classes_``)."""
        return self.predict_with_set(X)[0]

    def predict_with_set(self, X) -> tuple[np.ndarray, np.ndarray]:
        """``(predict_set(X), predict_index(X))`` from one call of ``predict_proba``."""
        from credalbook._validation import check_probabilities

        proba = check_probabilities(self.predict_proba(X), "predict_proba output")
        return self._sets_from_proba(proba), np.argmax(proba, axis=1)

    def _sets_from_proba(self, proba: np.ndarray) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError
