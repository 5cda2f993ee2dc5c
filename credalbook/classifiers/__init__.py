"""Classifiers of the source papers, as scikit-learn estimators.

Every classifier has ``fit``, ``predict`` (one class), ``predict_set`` (an (n, K) boolean
matrix of the classes it cannot rule out) and, where defined, ``predict_proba``; the set is
decided by a rule of :mod:`credalbook.decisions`. Discrete-feature classifiers take integer
codes or pandas Categoricals (put :class:`credalbook.preprocessing.MDLDiscretizer` in front of
numeric features, with :func:`credalbook.pipeline.make_set_pipeline`)::

    from credalbook.classifiers import NaiveCredalClassifier
"""
from credalbook._lazy import lazy_names

# Each name loads its module on first use (PEP 562), so that the array core
# (:mod:`credalbook.classifiers.naive`) can be imported without scikit-learn.
_HOMES = {
    "ConformalSetClassifier": "conformal",
    "CostSensitiveNCC": "cost_sensitive",
    "CredalClassifierMixin": "base",
    "CredalDecisionTree": "credal_tree",
    "CredalModelAveraging": "cma",
    "LazyNaiveCredalClassifier": "lncc",
    "NaiveBayes": "naive_bayes",
    "NaiveCredalClassifier": "ncc",
    "NestedDichotomy": "nested_dichotomies",
    "NestedDichotomyForest": "nested_dichotomies",
    "NonDeterministicClassifier": "ndc",
    "ProbabilisticSetClassifier": "base",
    "RejectionClassifier": "rejection",
    "TemperatureScaledForest": "forest",
    "conformal_split": "conformal",
}

__all__ = list(_HOMES)


__getattr__, __dir__ = lazy_names(__name__, _HOMES)
