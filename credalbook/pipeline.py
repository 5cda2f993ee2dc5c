"""Set-valued predictions through scikit-learn pipelines.

scikit-learn's :class:`~sklearn.pipeline.Pipeline` delegates ``predict`` and ``predict_proba``
to its last step but knows nothing of ``predict_set``. :class:`SetPipeline` is a Pipeline that
also delegates ``predict_set``, ``predict_with_set`` and ``predict_index`` (each available only
when the last step has it), so that scorers, ``cross_validate`` and ``GridSearchCV`` use a
credal classifier behind preprocessing steps directly; :func:`make_set_pipeline` builds one as
:func:`~sklearn.pipeline.make_pipeline` does. :func:`predict_set` gives the sets of any fitted
estimator: one with ``predict_set``, or any nesting of Pipelines and search CVs (GridSearchCV,
RandomizedSearchCV) around one; a precise classifier's predictions become singleton sets only
when asked (``precise="singleton"`` or ``"warn"``), never silently.
"""
from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.model_selection._search import BaseSearchCV
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

__all__ = ["SetPipeline", "make_set_pipeline", "predict_set", "set_predictor", "SingletonSetWarning",
           "PRECISE_OPTIONS"]


def _final_step_has(method: str):
    def check(pipeline: Pipeline) -> bool:
        getattr(pipeline._final_estimator, method)  # AttributeError names the method when absent
        return True

    return check


class SetPipeline(Pipeline):
    """A :class:`~sklearn.pipeline.Pipeline` whose last step's set-valued predictions pass through.

    Parameters and fitted attributes are those of :class:`~sklearn.pipeline.Pipeline`.
    ``predict_set``, ``predict_with_set`` and ``predict_index`` exist only when the last step
    has them.

    Examples
    --------
    >>> from sklearn.datasets import load_wine
    >>> from credalbook.classifiers import NaiveCredalClassifier
    >>> from credalbook.preprocessing import MDLDiscretizer
    >>> X, y = load_wine(return_X_y=True)
    >>> pipe = SetPipeline([("mdl", MDLDiscretizer()), ("ncc", NaiveCredalClassifier())]).fit(X, y)
    >>> pipe.predict_set(X[:2]).tolist()  # columns ordered as classes_
    [[True, False, False], [True, False, False]]
    >>> pipe.predict(X[:2]).tolist()
    [0, 0]

    With a precise last step there is no ``predict_set`` to call:

    >>> from sklearn.linear_model import LogisticRegression
    >>> hasattr(SetPipeline([("lr", LogisticRegression())]), "predict_set")
    False
    """

    def _transformed(self, X):
        for _, _, transformer in self._iter(with_final=False):
            X = transformer.transform(X)
        return X

    @available_if(_final_step_has("predict_set"))
    def predict_set(self, X) -> np.ndarray:
        """(n, K) boolean matrix of the last step on the transformed ``X`` (columns ordered as ``classes_``)."""
        return self._final_estimator.predict_set(self._transformed(X))

    @available_if(_final_step_has("predict_with_set"))
    def predict_with_set(self, X) -> tuple[np.ndarray, np.ndarray]:
        """``(predict_set(X), predict_index(X))`` of the last step, in one pass."""
        return self._final_estimator.predict_with_set(self._transformed(X))

    @available_if(_final_step_has("predict_index"))
    def predict_index(self, X) -> np.ndarray:
        """Index into ``classes_`` of the last step's single predicted class."""
        return self._final_estimator.predict_index(self._transformed(X))


def make_set_pipeline(*steps, memory=None, transform_input=None, verbose: bool = False) -> SetPipeline:
    """A :class:`SetPipeline` of ``steps``, named automatically (as :func:`~sklearn.pipeline.make_pipeline`).

    Parameters
    ----------
    *steps
        Estimators, the last one a classifier (with ``predict_set`` for set-valued predictions).
    memory, transform_input, verbose
        As in :func:`~sklearn.pipeline.make_pipeline`.

    Returns
    -------
    SetPipeline

    Examples
    --------
    >>> from credalbook.classifiers import NaiveCredalClassifier
    >>> from credalbook.preprocessing import MDLDiscretizer
    >>> pipe = make_set_pipeline(MDLDiscretizer(), NaiveCredalClassifier(s=2))
    >>> [name for name, _ in pipe.steps]
    ['mdldiscretizer', 'naivecredalclassifier']
    >>> pipe.get_params()["naivecredalclassifier__s"]  # the names a grid search uses
    2
    """
    if not steps:
        raise ValueError("steps is empty: make_set_pipeline needs at least one estimator")
    plain = make_pipeline(*steps, memory=memory, transform_input=transform_input, verbose=verbose)
    return SetPipeline(plain.steps, memory=memory, transform_input=transform_input, verbose=verbose)


#: how :func:`predict_set` treats a classifier that gives no set-valued predictions
PRECISE_OPTIONS = ("error", "warn", "singleton")


class SingletonSetWarning(UserWarning):
    """A precise classifier's predictions were taken as singleton sets (``precise="warn"``).

    Examples
    --------
    >>> import warnings
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> tree = DecisionTreeClassifier().fit([[0], [1]], ["a", "b"])
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     sets = predict_set(tree, [[0]], precise="warn")
    >>> sets.tolist(), [warning.category.__name__ for warning in caught]
    ([[True, False]], ['SingletonSetWarning'])
    """


def set_predictor(estimator):
    """The estimator that gives ``estimator``'s set-valued predictions, or ``None`` when none does.

    ``estimator`` itself when it has ``predict_set``; through a :class:`~sklearn.pipeline.Pipeline`
    its last step's; through a fitted search (:class:`~sklearn.model_selection.GridSearchCV`,
    :class:`~sklearn.model_selection.RandomizedSearchCV`, the halving searches) its
    ``best_estimator_``'s, wrappers nested in any order.

    Parameters
    ----------
    estimator : estimator
        Any estimator; a search CV must be fitted (with ``refit``).

    Returns
    -------
    estimator or None

    Examples
    --------
    >>> from sklearn.model_selection import GridSearchCV
    >>> from credalbook.classifiers import NaiveCredalClassifier
    >>> search = GridSearchCV(NaiveCredalClassifier(), {"s": [1, 2]}, cv=2)
    >>> X, y = [[0], [1], [0], [1]], ["a", "b", "a", "b"]
    >>> type(set_predictor(search.fit(X, y))).__name__
    'NaiveCredalClassifier'
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> set_predictor(DecisionTreeClassifier()) is None
    True
    """
    if hasattr(estimator, "predict_set"):
        return estimator
    if isinstance(estimator, Pipeline):
        return set_predictor(estimator._final_estimator)
    if isinstance(estimator, BaseSearchCV):
        _check_refitted(estimator)
        return set_predictor(estimator.best_estimator_)
    return None


def _check_refitted(search: BaseSearchCV) -> None:
    if not search.refit:
        raise TypeError(f"{type(search).__name__}(refit=False) keeps no fitted estimator to give set-valued "
                        f"predictions: pass refit=True (or the name of the scorer to refit on)")
    check_is_fitted(search, "best_estimator_")


def _wrapped_set_predictors(estimator) -> list[str]:
    """Names of the parameters of ``estimator`` that hold a set-valued classifier (at any depth)."""
    if not hasattr(estimator, "get_params"):
        return []
    return [name for name, value in estimator.get_params(deep=True).items()
            if isinstance(value, BaseEstimator) and set_predictor(value) is not None]


def _sets_from(estimator, X):
    """``predict_set`` of the set predictor reached through ``estimator``'s wrappers, on ``X`` transformed."""
    if hasattr(estimator, "predict_set"):
        return estimator.predict_set(X)
    if isinstance(estimator, Pipeline):
        for _, _, transformer in estimator._iter(with_final=False):
            X = transformer.transform(X)
        return _sets_from(estimator._final_estimator, X)
    return _sets_from(estimator.best_estimator_, X)


def predict_set(estimator, X, *, precise: str = "error") -> np.ndarray:
    """(n, K) boolean set matrix of a fitted ``estimator`` on ``X``, columns ordered as its ``classes_``.

    The sets come from :func:`set_predictor`: the estimator's own ``predict_set``, or the one it
    wraps in a Pipeline or a fitted search CV (nested cross-validation gives the inner model's
    sets, never point predictions). A classifier with no set-valued predictions anywhere is
    handled by ``precise``: ``"error"`` (default) raises ``TypeError``; ``"singleton"`` takes its
    ``predict`` as singleton sets; ``"warn"`` does the same with a :class:`SingletonSetWarning`.
    A wrapper that hides a set-valued classifier it does not pass through (say
    ``BaggingClassifier(NaiveCredalClassifier())``) is refused whatever ``precise`` says.

    Parameters
    ----------
    estimator : fitted classifier
        A set-valued classifier, a Pipeline or search CV around one, or (with ``precise``) any classifier.
    X : array-like of shape (n, d)
        Instances, as the estimator takes them.
    precise : {"error", "warn", "singleton"}
        What to do when no set-valued classifier is reachable.

    Returns
    -------
    ndarray of bool, shape (n, K)

    Examples
    --------
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from credalbook.classifiers import NaiveCredalClassifier
    >>> X, y = [[0], [1], [0], [1], [2], [2]], ["a", "b", "a", "b", "a", "b"]
    >>> search = GridSearchCV(NaiveCredalClassifier(), {"s": [1.0, 2.0]}, cv=2).fit(X, y)
    >>> predict_set(search, [[2]]).tolist()
    [[True, True]]
    >>> predict_set(DecisionTreeClassifier().fit(X, y), [[0]], precise="singleton").tolist()
    [[True, False]]
    """
    if precise not in PRECISE_OPTIONS:
        raise ValueError(f"precise must be one of {PRECISE_OPTIONS}, got {precise!r}")
    if set_predictor(estimator) is not None:
        return np.asarray(_sets_from(estimator, X), dtype=bool)
    name = type(estimator).__name__
    hidden = _wrapped_set_predictors(estimator)
    if hidden:
        raise TypeError(f"{name} wraps a set-valued classifier ({hidden[0]}) but does not pass predict_set "
                        f"through, so its sets cannot be read: use the set-valued classifier inside a Pipeline or a "
                        f"search CV, which credalbook reads through")
    if not hasattr(estimator, "classes_"):
        check_is_fitted(estimator)
        raise TypeError(f"estimator must be a fitted classifier (with classes_), got {name}")
    if precise == "error":
        raise TypeError(f"{name} gives no set-valued predictions (no predict_set); to score its predictions as "
                        f"singleton sets, pass precise='singleton' (or 'warn')")
    if precise == "warn":
        warnings.warn(f"{name} gives no set-valued predictions: its predictions are taken as singleton sets",
                      SingletonSetWarning, stacklevel=2)
    classes = list(np.asarray(estimator.classes_).tolist())
    index = {label: k for k, label in enumerate(classes)}
    single = np.array([index[v] for v in np.asarray(estimator.predict(X)).tolist()], dtype=np.int64)
    sets = np.zeros((single.size, len(classes)), dtype=bool)
    sets[np.arange(single.size), single] = True
    return sets
