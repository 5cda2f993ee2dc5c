"""Cross-validated set-valued predictions.

scikit-learn's :func:`~sklearn.model_selection.cross_val_predict` takes ``method`` among
``predict``, ``predict_proba``, ``predict_log_proba`` and ``decision_function`` only.
:func:`cross_val_predict_set` is its set-valued counterpart: each instance's set comes from the
model fitted on the folds that leave it out, read through any Pipeline or search CV by
:func:`credalbook.pipeline.predict_set` (so nested cross-validation gives the inner model's sets).
"""
from __future__ import annotations

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import clone, is_classifier
from sklearn.model_selection import check_cv
from sklearn.utils import _safe_indexing, indexable

from credalbook.pipeline import PRECISE_OPTIONS, predict_set

__all__ = ["cross_val_predict_set"]


def _fold_sets(estimator, X, y, train, test, classes, precise):
    model = clone(estimator).fit(_safe_indexing(X, train), _safe_indexing(y, train))
    sets = predict_set(model, _safe_indexing(X, test), precise=precise)
    position = {label: k for k, label in enumerate(classes.tolist())}
    unknown = [label for label in np.asarray(model.classes_).tolist() if label not in position]
    if unknown:
        raise ValueError(f"the fitted model's class {unknown[0]!r} is not a label of y")
    columns = [position[label] for label in np.asarray(model.classes_).tolist()]
    full = np.zeros((len(test), classes.size), dtype=bool)
    full[:, columns] = sets
    return test, full


def cross_val_predict_set(estimator, X, y, *, cv=None, groups=None, n_jobs=None, precise: str = "error",
                          verbose: int = 0) -> np.ndarray:
    """(n, K) boolean matrix: each instance's set predicted by the model fitted without its fold.

    Columns are ordered as ``np.unique(y)`` (what a classifier's ``classes_`` would be on all of
    ``y``); a class absent from a training fold is never in that fold's sets. ``cv`` and
    ``groups`` are those of :func:`~sklearn.model_selection.cross_val_predict` (stratified
    5-fold by default), and every instance must be in exactly one test fold.

    Parameters
    ----------
    estimator : classifier
        A set-valued classifier, or a Pipeline or search CV around one (cloned for each fold).
    X : array-like of shape (n, d)
    y : array-like of shape (n,)
        Labels as scikit-learn takes them (strings, integers, booleans).
    cv : int, cross-validation generator or iterable, default None
    groups : array-like of shape (n,), default None
    n_jobs : int, default None
        Folds fitted in parallel by joblib.
    precise : {"error", "warn", "singleton"}
        As in :func:`credalbook.pipeline.predict_set`.
    verbose : int, default 0

    Returns
    -------
    ndarray of bool, shape (n, K)

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from credalbook.classifiers import NaiveCredalClassifier
    >>> from credalbook.pipeline import make_set_pipeline
    >>> from credalbook.preprocessing import MDLDiscretizer
    >>> X, y = load_iris(return_X_y=True)
    >>> sets = cross_val_predict_set(make_set_pipeline(MDLDiscretizer(), NaiveCredalClassifier()), X, y, cv=5)
    >>> sets.shape
    (150, 3)
    >>> bool(sets.any(axis=1).all())
    True
    """
    if not hasattr(estimator, "fit") or not is_classifier(estimator):
        raise TypeError(f"estimator must be a classifier, got {type(estimator).__name__}")
    if precise not in PRECISE_OPTIONS:
        raise ValueError(f"precise must be one of {PRECISE_OPTIONS}, got {precise!r}")
    X, y, groups = indexable(X, y, groups)
    labels = np.asarray(y)
    if labels.ndim != 1:
        raise ValueError(f"y must be one-dimensional, got shape {labels.shape}")
    classes = np.unique(labels)
    splitter = check_cv(cv, labels, classifier=True)
    splits = list(splitter.split(X, labels, groups))
    tested = np.concatenate([test for _, test in splits]) if splits else np.array([], dtype=int)
    if tested.size != len(labels) or np.unique(tested).size != len(labels):
        raise ValueError("cv must put every instance in exactly one test fold (cross_val_predict_set needs a "
                         "partition, as cross_val_predict does)")
    folds = Parallel(n_jobs=n_jobs, verbose=verbose)(
        delayed(_fold_sets)(estimator, X, y, train, test, classes, precise) for train, test in splits)
    sets = np.zeros((len(labels), classes.size), dtype=bool)
    for test, fold in folds:
        sets[test] = fold
    return sets
