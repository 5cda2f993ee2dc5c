"""The rejection option (Zaffalon, Corani & Mauá 2012, §9.4): abstain — predict the vacuous set — when unsure.

* :class:`RejectionClassifier`: a probabilistic classifier returns its most probable class
  when that class's posterior is at least ``threshold``, and the vacuous set otherwise.
* :func:`ncc_rejection_sets`: the paper's NCC variant — besides its usual dominance-based set,
  NCC returns the vacuous set whenever the largest *lower* posterior probability of a class
  does not exceed ``threshold``. For a binary class the lower posterior of c is exactly
  1 / (1 + 1/inf_t h(t)) with the h of the dominance test, so
  P̲(c | x) > t  ⇔  inf h > t / (1 − t), decided by the same vectorised test.
* :func:`rejection_example`: the closed form of the paper's example (class independent of the
  features, P(class 1) = π, threshold t, utility u): in the large-sample limit NBC and NCC
  score π, NBC_t scores u(1/2) when max(π, 1 − π) < t.
"""
from __future__ import annotations

import numpy as np

from credalbook._validation import check_scalar
from credalbook.classifiers.base import ProbabilisticSetClassifier
from credalbook.classifiers.ncc import NaiveCredalClassifier, non_mar_dominance_matrix
from credalbook.decisions import threshold_sets

__all__ = ["RejectionClassifier", "ncc_rejection_sets", "rejection_example"]


class RejectionClassifier(ProbabilisticSetClassifier):
    """``estimator``'s most probable class if its posterior is ≥ ``threshold``, else all classes.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> X, y = load_iris(return_X_y=True)
    >>> model = RejectionClassifier(LogisticRegression(max_iter=1000), threshold=0.9).fit(X, y)
    >>> model.predict_set(X[[0, 70, 120]]).astype(int).tolist()     # the second is rejected
    [[1, 0, 0], [1, 1, 1], [0, 0, 1]]
    """

    def __init__(self, estimator, threshold: float = 0.8):
        super().__init__(estimator)
        self.threshold = threshold

    def _check_parameters(self):
        check_scalar(self.threshold, "threshold", low=0.0, high=1.0)

    def _sets_from_proba(self, proba):
        return threshold_sets(proba, self.threshold)


def ncc_rejection_sets(model: NaiveCredalClassifier, X, threshold: float) -> np.ndarray:
    """(n, 2) bool: NCC's sets, made vacuous where no class has lower posterior > ``threshold`` (binary class)."""
    check_scalar(threshold, "threshold", low=0.0, high=1.0, high_inclusive=False)
    if model.n_classes_ != 2:
        raise ValueError(f"the NCC rejection option is implemented for a binary class (the paper's proposal); "
                         f"model has {model.n_classes_} classes")
    Xc = model._code_test(X)
    sets = model._predict_set_codes(Xc)
    odds = threshold / (1.0 - threshold)
    # the features the model declares missing not at random enter as in its sets (none: dominance_matrix)
    phases = np.stack([model.non_mar_training_, model.non_mar_testing_])
    confident = non_mar_dominance_matrix(model.counts_, Xc, phases, model.s,
                                         log_ratio=float(np.log(odds))).any(axis=2)
    sets[~confident.any(axis=1)] = True
    return sets


def rejection_example(pi: float = 0.7, threshold: float = 0.8, u_half: float = 0.8) -> dict:
    """Expected utilities in the §9.4 example, large-sample limit: {'NBC': π*, 'NCC': π*, 'NBC_t': ...}.

    π* = max(π, 1 − π) is the accuracy of always predicting the majority class; NBC_t abstains
    on every instance when π* < t and then earns u(1/2) = ``u_half`` (binary vacuous set).
    """
    check_scalar(pi, "pi", low=0.0, high=1.0)
    check_scalar(threshold, "threshold", low=0.0, high=1.0)
    check_scalar(u_half, "u_half", low=0.5, high=1.0)
    best = max(pi, 1.0 - pi)
    return {"NBC": best, "NCC": best, "NBC_t": u_half if best < threshold else best}
