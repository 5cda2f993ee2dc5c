"""Set-valued predictions through scikit-learn pipelines.

scikit-learn's :class:`~sklearn.pipeline.Pipeline` delegates ``predict`` and ``predict_proba``
to its last step but knows nothing of ``predict_set``. :class:`SetPipeline` is a Pipeline that
also delegates ``predict_set``, ``predict_with_set`` and ``predict_index`` (each available only
when the last step has it), so that scorers, ``cross_validate`` and ``GridSearchCV`` use a
credal classifier behind preprocessing steps directly; :func:`make_set_pipeline` builds one as
:func:`~sklearn.pipeline.make_pipeline` does. :func:`predict_set` gives the sets of any fitted
estimator: one with ``predict_set``, a plain Pipeline ending in one, or a precise classifier
(its prediction as a singleton set).
"""
from __future__ import annotations

import numpy as np
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.utils.metaestimators import available_if

__all__ = ["SetPipeline", "make_set_pipeline", "predict_set"]


def _final_step_has(method: str):
    def check(pipeline: Pipeline) -> bool:
        getattr(pipeline._final_estimator, method)  # AttributeError names the method when absent
        return True

    return check


class SetPipeline(Pipeline):
    """A :class:`~sklearn.pipeline.Pipeline` whose last step's set-valued predictions pass through.

    Parameters and fitted attributes are those of :class:`~sklearn.pipeline.Pipeline`.
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
    """A :class:`SetPipeline` of ``steps``, named automatically (as :func:`~sklearn.pipeline.make_pipeline`)."""
    plain = make_pipeline(*steps, memory=memory, transform_input=transform_input, verbose=verbose)
    return SetPipeline(plain.steps, memory=memory, transform_input=transform_input, verbose=verbose)


def predict_set(estimator, X) -> np.ndarray:
    """(n, K) boolean set matrix of a fitted ``estimator`` on ``X``, columns ordered as its ``classes_``.

    An estimator with ``predict_set`` is asked directly; a plain Pipeline ending in one
    transforms ``X`` through its other steps first; any other classifier's ``predict`` is
    taken as a singleton set. Raises ``TypeError`` for an estimator without ``classes_``.
    """
    if hasattr(estimator, "predict_set"):
        return np.asarray(estimator.predict_set(X), dtype=bool)
    if isinstance(estimator, Pipeline) and hasattr(estimator._final_estimator, "predict_set"):
        return np.asarray(estimator._final_estimator.predict_set(estimator[:-1].transform(X)), dtype=bool)
    if not hasattr(estimator, "classes_"):
        raise TypeError(f"estimator must be a fitted classifier (with classes_), got {type(estimator).__name__}")
    classes = list(np.asarray(estimator.classes_).tolist())
    index = {label: k for k, label in enumerate(classes)}
    single = np.array([index[v] for v in np.asarray(estimator.predict(X)).tolist()])
    sets = np.zeros((single.size, len(classes)), dtype=bool)
    sets[np.arange(single.size), single] = True
    return sets
