"""What every credal (set-valued) classifier of the book shares.

* :func:`check_discrete_X` turns the input of a classifier on *discrete* features into an
  (n, d) integer matrix of codes ``0..m_j-1`` with ``-1`` for a missing value. Accepted: a
  numeric array whose values are integers (``NaN`` or ``-1`` = missing) or a DataFrame whose
  columns are pandas Categoricals (coded in their declared category order, so the number of
  values ``m_j`` is the declared one) or integer-valued numbers.
* :func:`encode_labels` codes the class labels; a pandas Categorical keeps its declared
  categories, so a class absent from a training fold is still a column of ``predict_set``.
* :class:`CredalClassifierMixin` gives the scikit-learn estimator API (``get_params``,
  ``clone``, ``score`` = accuracy of ``predict``) and the conventions of the book:
  ``predict_set(X)`` returns an (n, K) boolean matrix over ``classes_`` (never an empty row),
  ``predict(X)`` one class per instance, chosen inside the set by the subclass's scores.

A subclass implements ``fit`` (calling :meth:`CredalClassifierMixin._fit_discrete`),
``_predict_set_codes(Xc) -> (n, K) bool`` and ``_scores_codes(Xc) -> (n, K) float`` (any
monotone score of the classes, e.g. a posterior, used to pick one class within the set).

Unseen values at prediction time (a code ``>= m_j`` learnt in ``fit``) are a defined
behaviour chosen by the ``unseen`` argument of ``_fit_discrete``/``check_discrete_X``:
``"missing"`` (default: the value is treated as missing, which for the naive classifiers of
Zaffalon, Corani & Mauá 2012 means the feature is dropped for that instance) or ``"error"``.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

MISSING = -1
MAX_CODE = 100_000
"""Codes of numeric columns must stay below max(MAX_CODE, 10 n): count tables have one row per code."""


def _column_codes(values, name: str) -> np.ndarray:
    """Integer codes of one numeric column; NaN and -1 become MISSING."""
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} is not numeric or categorical: discrete classifiers need integer codes "
                         f"or pandas Categoricals") from None
    observed = ~np.isnan(array)
    if np.any(np.isinf(array)):
        raise ValueError(f"{name} contains infinite values")
    obs = array[observed]
    if np.any(obs != np.round(obs)):
        raise ValueError(f"{name} has non-integer values: features must be discrete codes 0..m-1 "
                         f"(discretise numeric features first, e.g. credalbook.preprocessing.MDLDiscretizer)")
    if np.any(obs < MISSING):
        raise ValueError(f"{name} has negative codes below -1 (only -1 or NaN may mark a missing value)")
    codes = np.full(array.shape, MISSING, dtype=np.int64)
    codes[observed] = obs.astype(np.int64)
    maxima = np.atleast_1d(codes.max(axis=0, initial=MISSING))
    too_large = np.flatnonzero(maxima >= max(MAX_CODE, 10 * array.shape[0]))
    if too_large.size:
        where = f"{name} feature {too_large[0]}" if array.ndim == 2 else name
        raise ValueError(f"{where} has codes up to {maxima[too_large[0]]} for {array.shape[0]} instances: discrete "
                         f"features must be codes 0..m-1 (an identifier column? drop it, or re-code the values with "
                         f"sklearn.preprocessing.OrdinalEncoder)")
    return codes


def categorical_codes(series: pd.Series, categories: pd.Index) -> np.ndarray:
    """Codes of a Categorical ``series`` in the category list ``categories`` (-1: missing or not in the list)."""
    if series.cat.categories.equals(categories):
        return series.cat.codes.to_numpy().astype(np.int64)
    position = pd.Index(categories).get_indexer(series.cat.categories)
    codes = series.cat.codes.to_numpy()
    return np.where(codes >= 0, position[codes], MISSING).astype(np.int64)


def check_discrete_X(X, name: str = "X", *, n_values=None, unseen: str = "missing",
                     categories=None) -> tuple[np.ndarray, np.ndarray, list | None]:
    """Code ``X`` as an (n, d) int64 matrix (``-1`` = missing); returns ``(codes, n_values, categories)``.

    ``n_values`` (length d) are the numbers of values learnt in ``fit``; when given, codes
    ``>= n_values[j]`` are unseen values, handled per ``unseen`` (``"missing"`` or
    ``"error"``). ``categories`` (a list of per-column category Index or None, from ``fit``)
    recodes Categorical columns by *value* so that a DataFrame with the same values but other
    category lists is coded consistently. When ``n_values`` is None they are computed:
    ``len(categories)`` for Categorical columns, ``max code + 1`` otherwise.
    """
    if unseen not in ("missing", "error"):
        raise ValueError(f"unseen must be 'missing' or 'error', got {unseen!r}")
    if isinstance(X, pd.DataFrame):
        if X.shape[1] == 0:
            raise ValueError(f"{name} has no columns")
        columns, found_categories = [], []
        for j, column in enumerate(X.columns):
            series = X[column]
            if isinstance(series.dtype, pd.CategoricalDtype):
                if categories is not None and categories[j] is not None:
                    codes = categorical_codes(series, categories[j])
                    unknown = series.notna().to_numpy() & (codes == MISSING)
                    if unknown.any():
                        if unseen == "error":
                            raise ValueError(f"{name} column {column!r} has values unseen in fit, "
                                             f"e.g. {series[unknown].iloc[0]!r}")
                    found_categories.append(categories[j])
                else:
                    codes = series.cat.codes.to_numpy().astype(np.int64)
                    found_categories.append(series.cat.categories)
                columns.append(codes)
            else:
                columns.append(_column_codes(series.to_numpy(), f"{name} column {column!r}"))
                found_categories.append(None)
        codes = np.column_stack(columns) if columns else np.empty((len(X), 0), dtype=np.int64)
        learnt = np.array([len(c) if c is not None else (int(col.max()) + 1 if col.size else 0)
                           for c, col in zip(found_categories, columns)], dtype=np.int64)
    else:
        raw = np.asarray(X)
        if raw.ndim != 2:
            raise ValueError(f"{name} must be 2-dimensional (instances x features), got shape {raw.shape}")
        if raw.shape[1] == 0:
            raise ValueError(f"{name} has no columns")
        codes = _column_codes(raw, name)
        found_categories = None
        learnt = codes.max(axis=0) + 1 if codes.size else np.zeros(raw.shape[1], dtype=np.int64)
    if codes.shape[0] == 0:
        raise ValueError(f"{name} is empty: at least one instance is needed")
    learnt = np.maximum(learnt, 0)
    if n_values is None:
        return codes, learnt, found_categories
    n_values = np.asarray(n_values, dtype=np.int64)
    if codes.shape[1] != n_values.size:
        raise ValueError(f"{name} has {codes.shape[1]} features but the classifier was fitted on {n_values.size}")
    too_large = codes >= n_values[None, :]
    if too_large.any():
        if unseen == "error":
            i, j = np.argwhere(too_large)[0]
            raise ValueError(f"{name} has a value unseen in fit: code {codes[i, j]} of feature {j} "
                             f"(fitted with {n_values[j]} values)")
        codes = np.where(too_large, MISSING, codes)
    return codes, n_values, found_categories


def encode_labels(y, name: str = "y") -> tuple[np.ndarray, np.ndarray]:
    """``(classes, codes)``: a Categorical keeps its declared categories; otherwise the sorted unique labels."""
    if isinstance(y, (pd.Series, pd.Categorical)) and isinstance(getattr(y, "dtype", None), pd.CategoricalDtype):
        categorical = pd.Categorical(y)
        if np.any(categorical.codes < 0):
            raise ValueError(f"{name} has missing class labels")
        if len(categorical) == 0:
            raise ValueError(f"{name} is empty: at least one instance is needed")
        return np.asarray(categorical.categories), categorical.codes.astype(np.int64)
    raw = np.asarray(y)
    if raw.ndim != 1:
        raise ValueError(f"{name} must be 1-dimensional, got shape {raw.shape}")
    if raw.size == 0:
        raise ValueError(f"{name} is empty: at least one instance is needed")
    if raw.dtype.kind == "f" and np.any(np.isnan(raw)):
        raise ValueError(f"{name} has missing class labels")
    if raw.dtype == object and pd.isna(raw).any():
        raise ValueError(f"{name} has missing class labels")
    classes, codes = np.unique(raw, return_inverse=True)
    return classes, codes.astype(np.int64)


class CredalClassifierMixin(ClassifierMixin, BaseEstimator):
    """scikit-learn API shared by the book's set-valued classifiers on discrete features.

    After :meth:`_fit_discrete` the estimator has ``classes_`` (K labels), ``n_classes_``,
    ``n_features_in_`` and ``n_values_`` (values per feature). Subclasses implement
    ``_predict_set_codes`` and ``_scores_codes`` on the coded test matrix.
    """

    #: what to do with a feature value unseen in fit: "missing" (drop that feature) or "error"
    _unseen = "missing"

    def _fit_discrete(self, X, y):
        """Validate and code the training data; returns ``(Xc, yc)`` and sets the fitted attributes."""
        Xc, n_values, categories = check_discrete_X(X, "X")
        classes, yc = encode_labels(y, "y")
        if Xc.shape[0] != yc.shape[0]:
            raise ValueError(f"inconsistent numbers of instances: X has {Xc.shape[0]}, y has {yc.shape[0]}")
        if classes.size < 2:
            raise ValueError(f"y must hold at least two classes (pass a Categorical to declare absent ones), "
                             f"got {classes.size}")
        self.classes_ = classes
        self.n_classes_ = int(classes.size)
        self.n_features_in_ = int(Xc.shape[1])
        self.n_values_ = n_values
        self._categories = categories
        if isinstance(X, pd.DataFrame):
            self.feature_names_in_ = np.asarray(X.columns, dtype=object)
        return Xc, yc

    def _code_test(self, X) -> np.ndarray:
        check_is_fitted(self, "classes_")
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
    """

    def __init__(self, estimator):
        self.estimator = estimator

    def fit(self, X, y):
        from sklearn.base import clone

        if not hasattr(self.estimator, "predict_proba"):
            raise ValueError(f"estimator must have predict_proba, got {type(self.estimator).__name__}")
        self._check_parameters()
        self.estimator_ = clone(self.estimator).fit(X, y)
        self.classes_ = np.asarray(self.estimator_.classes_)
        self.n_classes_ = int(self.classes_.size)
        return self

    def _check_parameters(self):  # pragma: no cover - overridden
        pass

    def predict_proba(self, X) -> np.ndarray:
        """(n, K) posterior probabilities of the underlying estimator."""
        check_is_fitted(self, "estimator_")
        return self.estimator_.predict_proba(X)

    def predict_index(self, X) -> np.ndarray:
        """Index of the most probable class (ties: lowest index)."""
        return np.argmax(self.predict_proba(X), axis=1)

    def predict(self, X) -> np.ndarray:
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
