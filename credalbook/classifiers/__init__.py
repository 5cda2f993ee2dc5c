"""Classifiers of the source papers, as scikit-learn estimators.

Every classifier has ``fit``, ``predict`` (one class), ``predict_set`` (an (n, K) boolean
matrix of the classes it cannot rule out) and, where defined, ``predict_proba``; the set is
decided by a rule of :mod:`credalbook.decisions`. Discrete-feature classifiers take integer
codes or pandas Categoricals (put :class:`credalbook.preprocessing.MDLDiscretizer` in front of
numeric features, with :func:`credalbook.pipeline.make_set_pipeline`)::

    from credalbook.classifiers import NaiveCredalClassifier
"""
from credalbook.classifiers.base import CredalClassifierMixin, ProbabilisticSetClassifier
from credalbook.classifiers.cma import CredalModelAveraging
from credalbook.classifiers.cost_sensitive import CostSensitiveNCC
from credalbook.classifiers.credal_tree import CredalDecisionTree
from credalbook.classifiers.lncc import LazyNaiveCredalClassifier
from credalbook.classifiers.naive_bayes import NaiveBayes
from credalbook.classifiers.ncc import NaiveCredalClassifier
from credalbook.classifiers.ndc import NonDeterministicClassifier
from credalbook.classifiers.nested_dichotomies import NestedDichotomy, NestedDichotomyForest
from credalbook.classifiers.rejection import RejectionClassifier

__all__ = ["CostSensitiveNCC", "CredalClassifierMixin", "CredalDecisionTree", "CredalModelAveraging",
           "LazyNaiveCredalClassifier", "NaiveBayes", "NaiveCredalClassifier", "NestedDichotomy",
           "NestedDichotomyForest", "NonDeterministicClassifier", "ProbabilisticSetClassifier", "RejectionClassifier"]
