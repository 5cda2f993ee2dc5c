"""Scorers for every measure of the book, usable wherever scikit-learn takes ``scoring=``.

A scorer is a callable ``scorer(estimator, X, y) -> float`` (greater is better, as scikit-learn
expects: losses and costs are negated and their names start with ``neg_``). It maps the labels
``y`` to the indices of ``estimator.classes_`` and reads the estimator's output it needs:

- set-valued predictions (:func:`credalbook.pipeline.predict_set`, which reaches a credal
  classifier through a Pipeline and takes a precise classifier's prediction as a singleton):
  discounted accuracy, u65, u80, F1 on sets, determinacy, set size (Zaffalon, Corani & Mauá
  2012), and the cost of sets under a cost matrix (Yang, Destercke & Masson 2017, Eq. 4);
- probabilities (``predict_proba``): the certainty ratio C_ρ, IMCP, Brier score and log loss
  (Aguilar-Ruiz 2025), and for binary problems the expected loss of a threshold choice method
  under a Beta-distributed cost proportion of certainty γ (Ferri, Hernández-Orallo & Flach 2019).

``get_scorer(name)`` returns a named scorer of :data:`SCORERS`; the ``make_*`` functions build
scorers with parameters (``make_set_scorer(metric, **kwargs)`` for any set metric).
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field, replace
from typing import Any, Callable

import numpy as np

from credalbook import certainty, costs, costspace, metrics
from credalbook.pipeline import PRECISE_OPTIONS, predict_set

__all__ = ["Scorer", "SCORERS", "get_scorer", "make_set_scorer", "make_probability_scorer", "make_cost_scorer",
           "make_expected_loss_scorer"]


def class_indices(estimator, y) -> np.ndarray:
    """Indices into ``estimator.classes_`` of the labels ``y``; a label it does not know is an error."""
    classes = np.asarray(getattr(estimator, "classes_")).tolist()
    index = {label: k for k, label in enumerate(classes)}
    labels = np.asarray(y).tolist()
    unknown = [v for v in labels if v not in index]
    if unknown:
        raise ValueError(f"label {unknown[0]!r} is not one of the estimator's classes {classes}")
    return np.array([index[v] for v in labels], dtype=np.int64)


def _set_targets(estimator, y, unseen: str) -> tuple[np.ndarray, bool]:
    """Indices of ``y`` in ``classes_``, a label it does not know mapped to K (an extra, never predicted class)."""
    if unseen == "error":
        return class_indices(estimator, y), False
    classes = np.asarray(getattr(estimator, "classes_")).tolist()
    index = {label: k for k, label in enumerate(classes)}
    truth = np.array([index.get(v, len(classes)) for v in np.asarray(y).tolist()], dtype=np.int64)
    return truth, bool((truth == len(classes)).any())


@dataclass(frozen=True)
class Scorer:
    """``scorer(estimator, X, y)``: ``sign * metric(y_indices, output(estimator, X), **kwargs)``.

    ``response`` is ``"set"`` (the (n, K) set matrix) or ``"proba"`` (the (n, K) probabilities);
    ``sign`` is -1 for losses, so that greater is always better. A set scorer reads the sets
    through Pipelines and search CVs (nested cross-validation scores the inner model's sets);
    ``precise`` says what to do with a classifier that has none, as in
    :func:`credalbook.pipeline.predict_set` (by default it is an error, never a silent singleton).
    A test label the fitted model never saw (a class absent from a training fold) counts as a
    miss of every set when ``unseen="miss"`` (the default, as scikit-learn's scorers count it);
    ``unseen="error"`` refuses it (the cost scorers, whose matrix has no row for it).

    Usually obtained from :func:`get_scorer` or a ``make_*_scorer`` function rather than built
    by hand.

    Parameters
    ----------
    name : str
        The scorer's name.
    metric : callable
        ``metric(y_true, output, **kwargs) -> float``, with ``y_true`` as indices into ``classes_``.
    response : str
        ``"set"`` or ``"proba"``.
    sign : int
        1, or -1 for a loss.
    kwargs : dict
        Further arguments of ``metric``.
    precise : str
        One of :data:`credalbook.pipeline.PRECISE_OPTIONS` (set scorers).
    unseen : str
        ``"miss"`` or ``"error"``.

    Examples
    --------
    Four singletons hold the truth and two sets of two classes do, each of which u65 counts
    1.6 · 1/2 − 0.6 · 1/4 = 0.65, so u65 = (4 + 2 · 0.65) / 6:

    >>> from credalbook import metrics
    >>> from credalbook.classifiers import NaiveCredalClassifier
    >>> X, y = [[0], [1], [0], [1], [2], [2]], ["a", "b", "a", "b", "a", "b"]
    >>> ncc = NaiveCredalClassifier().fit(X, y)
    >>> u65 = Scorer("u65", metrics.utility_discounted_accuracy, "set", kwargs={"u": 0.65})
    >>> round(u65(ncc, X, y), 4), round((4 + 2 * 0.65) / 6, 4)
    (0.8833, 0.8833)
    >>> get_scorer("u65") == u65  # the named scorer is this one
    True
    """

    name: str
    metric: Callable[..., float]
    response: str
    sign: int = 1
    kwargs: dict[str, Any] = field(default_factory=dict)
    precise: str = "error"
    unseen: str = "miss"

    def __post_init__(self):
        if self.precise not in PRECISE_OPTIONS:
            raise ValueError(f"precise must be one of {PRECISE_OPTIONS}, got {self.precise!r}")
        if self.unseen not in ("miss", "error"):
            raise ValueError(f"unseen must be 'miss' or 'error', got {self.unseen!r}")

    def __call__(self, estimator, X, y, sample_weight=None) -> float:
        if sample_weight is not None:
            raise ValueError(f"scorer {self.name!r} does not take sample weights")
        if self.response == "set":
            output = predict_set(estimator, X, precise=self.precise)
            truth, unseen = _set_targets(estimator, y, self.unseen)
            if unseen:  # a class the model never saw is in no predicted set: a miss, as scikit-learn's scorers count it
                output = np.hstack([output, np.zeros((output.shape[0], 1), dtype=bool)])
            return self.sign * float(self.metric(truth, output, **self.kwargs))
        if not hasattr(estimator, "predict_proba"):
            raise TypeError(f"scorer {self.name!r} needs predict_proba, which {type(estimator).__name__} lacks")
        truth = class_indices(estimator, y)
        return self.sign * float(self.metric(truth, estimator.predict_proba(X), **self.kwargs))

    def __repr__(self) -> str:
        return f"Scorer({self.name!r})"


def _check_metric(metric) -> None:
    if not callable(metric):
        raise TypeError(f"metric must be a callable metric(y_true, output), got {metric!r} (for a named scorer use "
                        f"get_scorer)")


def make_set_scorer(metric: Callable, *, name: str | None = None, greater_is_better: bool = True,
                    precise: str = "error", **kwargs) -> Scorer:
    """A scorer of set-valued predictions: ``metric(y_true, y_set, **kwargs)`` (e.g. ``metrics.f_beta_set``, beta=2).

    ``precise`` is what to do with a classifier that gives no sets (see :class:`Scorer`).

    Parameters
    ----------
    metric : callable
        ``metric(y_true, y_set, **kwargs) -> float`` of a :mod:`credalbook.metrics` kind.
    name : str, default None
        The scorer's name (default: the metric's).
    greater_is_better : bool
        ``False`` for a loss (the scorer negates it).
    precise : str
        ``"error"``, ``"warn"`` or ``"singleton"``.
    **kwargs
        Further arguments of ``metric``.

    Returns
    -------
    Scorer

    Examples
    --------
    F₂ gives a set of two classes holding the truth (1 + 2²) / (2² + 2) = 5/6:

    >>> from credalbook import metrics
    >>> from credalbook.classifiers import NaiveCredalClassifier
    >>> X, y = [[0], [1], [0], [1], [2], [2]], ["a", "b", "a", "b", "a", "b"]
    >>> ncc = NaiveCredalClassifier().fit(X, y)  # sets {a}, {b}, {a}, {b}, {a, b}, {a, b}
    >>> f2 = make_set_scorer(metrics.f_beta_set, beta=2.0)
    >>> f2
    Scorer('f_beta_set')
    >>> round(f2(ncc, X, y), 4), round((4 + 2 * 5 / 6) / 6, 4)
    (0.9444, 0.9444)
    """
    _check_metric(metric)
    return Scorer(name or metric.__name__, metric, "set", 1 if greater_is_better else -1, kwargs, precise)


def make_probability_scorer(metric: Callable, *, name: str | None = None, greater_is_better: bool = True,
                            **kwargs) -> Scorer:
    """A scorer of probabilities: ``metric(y_true, proba, **kwargs)`` (e.g. ``certainty.certainty_ratio``).

    Parameters
    ----------
    metric : callable
        ``metric(y_true, proba, **kwargs) -> float``, ``proba`` the (n, K) output of ``predict_proba``.
    name : str, default None
        The scorer's name (default: the metric's).
    greater_is_better : bool
        ``False`` for a loss (the scorer negates it).
    **kwargs
        Further arguments of ``metric``.

    Returns
    -------
    Scorer

    Examples
    --------
    The log loss as a scorer equals minus scikit-learn's :func:`~sklearn.metrics.log_loss`:

    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.metrics import log_loss
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from credalbook import certainty
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X, y)
    >>> scorer = make_probability_scorer(certainty.log_loss, greater_is_better=False)
    >>> round(scorer(model, X, y), 6) == round(-log_loss(y, model.predict_proba(X)), 6)
    True
    """
    _check_metric(metric)
    return Scorer(name or metric.__name__, metric, "proba", 1 if greater_is_better else -1, kwargs)


def make_cost_scorer(cost, rule: str = "discounted", *, precise: str = "error", **params) -> Scorer:
    """Minus the average cost of set-valued predictions under a (K, K) cost matrix (Yang et al. 2017, Eq. 4).

    ``rule`` and ``params`` extend the costs to sets, as in :func:`credalbook.costs.set_costs`:
    the default ``"discounted"`` charges a set the mean cost of its members; say
    ``rule="p_discounted", r=0.5`` for the p-discounted cost (Yang et al. 2017, Eq. 15). The
    rule and its parameters are checked here, when the scorer is built, so that a missing
    parameter is an error now rather than a NaN in every fold of a cross-validation.

    Examples
    --------
    >>> import numpy as np
    >>> scorer = make_cost_scorer(1 - np.eye(3))
    >>> scorer.name
    'neg_discounted_cost'
    >>> make_cost_scorer(1 - np.eye(3), "p_discounted")
    Traceback (most recent call last):
    ...
    ValueError: rule 'p_discounted' needs the parameter r (say r=0.5)
    """
    matrix = costs.check_cost_matrix(cost)
    if rule not in costs.RULES:
        raise ValueError(f"rule must be one of {costs.RULES}, got {rule!r}")
    required = [name for name, parameter in inspect.signature(costs._RULES[rule]).parameters.items()
                if name not in ("mask", "cost") and parameter.default is inspect.Parameter.empty]
    missing = [name for name in required if name not in params]
    if missing:
        raise ValueError(f"rule {rule!r} needs the parameter {missing[0]} (say {missing[0]}=0.5)")
    try:
        costs.set_cost_table(matrix, np.ones((1, matrix.shape[0]), dtype=bool), rule, **params)
    except TypeError as error:
        raise ValueError(f"rule {rule!r} does not take the parameters {sorted(params)}: {error}") from None

    def average_cost(y_true, y_set):
        return costs.average_set_cost(matrix, y_true, y_set, rule, **params)

    return Scorer(f"neg_{rule}_cost", average_cost, "set", -1, precise=precise, unseen="error")


def make_expected_loss_scorer(method: str = "score-driven", gamma: float = np.inf) -> Scorer:
    """Minus the expected loss of a threshold choice ``method`` when the cost proportion is
    Beta-distributed with certainty ``gamma`` (Ferri, Hernández-Orallo & Flach 2019, Sect. 5).

    Binary problems only; the score is the probability of the second class of ``classes_`` (class
    1 of the paper). Methods that need training scores (train-optimal) cannot be scorers.

    Parameters
    ----------
    method : str
        A threshold choice method of :data:`credalbook.costspace.METHODS` other than train-optimal.
    gamma : float
        Certainty γ of the cost proportion, 0 <= γ <= ∞ (``np.inf``: the cost proportion is known).

    Returns
    -------
    Scorer

    Examples
    --------
    Under certainty the score-driven loss is the Brier score (Ferri et al. 2019, Table 4):

    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.metrics import brier_score_loss
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X, y)
    >>> scorer = make_expected_loss_scorer("score-driven")
    >>> scorer
    Scorer('neg_expected_loss_score-driven')
    >>> round(-scorer(model, X, y), 6) == round(brier_score_loss(y, model.predict_proba(X)[:, 1]), 6)
    True
    >>> uncertain = make_expected_loss_scorer("score-driven", gamma=2)
    >>> bool(uncertain(model, X, y) < scorer(model, X, y))  # an uncertain cost proportion costs more
    True
    """
    if method == "train-optimal":
        raise ValueError("method 'train-optimal' needs the training scores: use costspace.expected_loss")
    method = costspace._check_method(method)
    gamma = costspace._check_gamma(gamma)

    def expected_loss(y_true, proba):
        if proba.shape[1] != 2:
            raise ValueError(f"the expected loss of a threshold choice method needs two classes, got {proba.shape[1]}")
        return costspace.expected_loss(y_true, proba[:, 1], method, gamma)

    return Scorer(f"neg_expected_loss_{method}", expected_loss, "proba", -1)


SCORERS: dict[str, Scorer] = {
    "discounted_accuracy": make_set_scorer(metrics.discounted_accuracy),
    "u65": make_set_scorer(metrics.utility_discounted_accuracy, name="u65", u=0.65),
    "u80": make_set_scorer(metrics.utility_discounted_accuracy, name="u80", u=0.8),
    "f1_set": make_set_scorer(metrics.f_beta_set, name="f1_set", beta=1.0),
    "determinacy": make_set_scorer(lambda y_true, y_set: metrics.determinacy(y_set), name="determinacy"),
    "neg_average_set_size": make_set_scorer(lambda y_true, y_set: metrics.average_set_size(y_set),
                                            name="neg_average_set_size", greater_is_better=False),
    "certainty_ratio": make_probability_scorer(certainty.certainty_ratio),
    "imcp": make_probability_scorer(certainty.imcp_score, name="imcp"),
    "neg_brier_score": make_probability_scorer(certainty.brier_score, name="neg_brier_score",
                                               greater_is_better=False),
    "neg_log_loss": make_probability_scorer(certainty.log_loss, name="neg_log_loss", greater_is_better=False),
}
"""The named scorers; ``make_cost_scorer`` and ``make_expected_loss_scorer`` build the parameterised ones."""


def get_scorer(name: str, *, precise: str = "error") -> Scorer:
    """The scorer called ``name`` in :data:`SCORERS`.

    ``precise`` (set scorers only) is what to do with a classifier that gives no set-valued
    predictions: ``"error"`` (default), ``"warn"`` or ``"singleton"`` (its prediction as a
    singleton set, so that u65 of a precise classifier is its accuracy).

    Examples
    --------
    >>> from sklearn.model_selection import GridSearchCV, cross_val_score
    >>> from sklearn.datasets import load_wine
    >>> from credalbook.classifiers import NaiveCredalClassifier
    >>> from credalbook.pipeline import make_set_pipeline
    >>> from credalbook.preprocessing import MDLDiscretizer
    >>> X, y = load_wine(return_X_y=True)
    >>> pipe = make_set_pipeline(MDLDiscretizer(), NaiveCredalClassifier())
    >>> search = GridSearchCV(pipe, {"naivecredalclassifier__s": [1, 5]}, scoring=get_scorer("u65"), cv=3)
    >>> sizes = -cross_val_score(search, X, y, cv=3, scoring=get_scorer("neg_average_set_size"))
    >>> bool(sizes.min() >= 1.0)
    True
    """
    if name not in SCORERS:
        raise ValueError(f"unknown scorer {name!r}; known: {', '.join(SCORERS)}")
    if precise not in PRECISE_OPTIONS:
        raise ValueError(f"precise must be one of {PRECISE_OPTIONS}, got {precise!r}")
    scorer = SCORERS[name]
    if scorer.response != "set" or precise == scorer.precise:
        return scorer
    return replace(scorer, precise=precise)
