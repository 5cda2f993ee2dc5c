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

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from credalbook import certainty, costs, costspace, metrics
from credalbook.pipeline import predict_set

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


@dataclass(frozen=True)
class Scorer:
    """``scorer(estimator, X, y)``: ``sign * metric(y_indices, output(estimator, X), **kwargs)``.

    ``response`` is ``"set"`` (the (n, K) set matrix) or ``"proba"`` (the (n, K) probabilities);
    ``sign`` is -1 for losses, so that greater is always better.
    """

    name: str
    metric: Callable[..., float]
    response: str
    sign: int = 1
    kwargs: dict[str, Any] = field(default_factory=dict)

    def __call__(self, estimator, X, y, sample_weight=None) -> float:
        if sample_weight is not None:
            raise ValueError(f"scorer {self.name!r} does not take sample weights")
        truth = class_indices(estimator, y)
        if self.response == "set":
            output = predict_set(estimator, X)
        else:
            if not hasattr(estimator, "predict_proba"):
                raise TypeError(f"scorer {self.name!r} needs predict_proba, which {type(estimator).__name__} lacks")
            output = estimator.predict_proba(X)
        return self.sign * float(self.metric(truth, output, **self.kwargs))

    def __repr__(self) -> str:
        return f"Scorer({self.name!r})"


def make_set_scorer(metric: Callable, *, name: str | None = None, greater_is_better: bool = True,
                    **kwargs) -> Scorer:
    """A scorer of set-valued predictions: ``metric(y_true, y_set, **kwargs)`` (e.g. ``metrics.f_beta_set``, beta=2)."""
    return Scorer(name or metric.__name__, metric, "set", 1 if greater_is_better else -1, kwargs)


def make_probability_scorer(metric: Callable, *, name: str | None = None, greater_is_better: bool = True,
                            **kwargs) -> Scorer:
    """A scorer of probabilities: ``metric(y_true, proba, **kwargs)`` (e.g. ``certainty.certainty_ratio``)."""
    return Scorer(name or metric.__name__, metric, "proba", 1 if greater_is_better else -1, kwargs)


def make_cost_scorer(cost, rule: str = "p_discounted", **params) -> Scorer:
    """Minus the average cost of set-valued predictions under a (K, K) cost matrix (Yang et al. 2017, Eq. 4).

    ``rule`` and ``params`` extend the costs to sets, as in :func:`credalbook.costs.set_costs`
    (e.g. ``rule="p_discounted", r=0.5``).
    """
    matrix = costs.check_cost_matrix(cost)

    def average_cost(y_true, y_set):
        return costs.average_set_cost(matrix, y_true, y_set, rule, **params)

    return Scorer(f"neg_{rule}_cost", average_cost, "set", -1)


def make_expected_loss_scorer(method: str = "score-driven", gamma: float = np.inf) -> Scorer:
    """Minus the expected loss of a threshold choice ``method`` when the cost proportion is
    Beta-distributed with certainty ``gamma`` (Ferri, Hernández-Orallo & Flach 2019, Sect. 5).

    Binary problems only; the score is the probability of the second class of ``classes_`` (class
    1 of the paper). Methods that need training scores (train-optimal) cannot be scorers.
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


def get_scorer(name: str) -> Scorer:
    """The scorer called ``name`` in :data:`SCORERS`."""
    if name not in SCORERS:
        raise ValueError(f"unknown scorer {name!r}; known: {', '.join(SCORERS)}")
    return SCORERS[name]
