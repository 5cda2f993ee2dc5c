"""Classifiers of the source papers, as scikit-learn estimators.

Every classifier has ``fit``, ``predict`` (one class), ``predict_set`` (an (n, K) boolean
matrix of the classes it cannot rule out) and, where defined, ``predict_proba``. Import them
from their modules, e.g. ``from credalbook.classifiers.ncc import NaiveCredalClassifier``.
"""
