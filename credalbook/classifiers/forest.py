"""A random forest whose probabilities are calibrated by temperature scaling on its out-of-bag votes.

The precise ensemble of Part VII. A forest's vote shares are poorly calibrated (too cautious
near 0 and 1), and the usual remedy, :class:`sklearn.calibration.CalibratedClassifierCV`, needs
at least as many instances of every class as cross-validation folds, which many datasets of the
collection do not have. Here the calibration data are the forest's own out-of-bag votes
(Breiman 2001, §3.1): every training instance is scored by the trees that did not see it.

With v the vote shares of T trees over K classes, the smoothed shares
p̃ = (T v + 1) / (T + K) are never 0, and the calibrated probabilities are
softmax(log p̃ / τ), one temperature τ > 0 for all classes (Guo, Pleiss, Sun & Weinberger
2017, §4.2), chosen to minimise the log loss of the out-of-bag probabilities.
"""
from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from credalbook._validation import check_scalar

__all__ = ["TemperatureScaledForest", "temperature_scale", "fit_temperature"]


def temperature_scale(shares, temperature: float, n_trees: int) -> np.ndarray:
    """softmax(log p̃ / τ) with p̃ = (T v + 1)/(T + K): ``shares`` (n, K) vote shares → (n, K) probabilities."""
    shares = np.asarray(shares, dtype=float)
    check_scalar(temperature, "temperature", low=0.0, low_inclusive=False)
    check_scalar(n_trees, "n_trees", low=1, integer=True)
    if shares.ndim != 2 or np.any(shares < 0) or not np.allclose(shares.sum(axis=1), 1.0):
        raise ValueError("shares must be an (n, K) matrix of non-negative rows summing to one")
    logits = np.log((n_trees * shares + 1.0) / (n_trees + shares.shape[1])) / temperature
    logits -= logits.max(axis=1, keepdims=True)
    weights = np.exp(logits)
    return weights / weights.sum(axis=1, keepdims=True)


def fit_temperature(shares, labels, n_trees: int) -> float:
    """The τ in [0.05, 20] minimising the mean log loss of :func:`temperature_scale` on (``shares``, ``labels``)."""
    from scipy.optimize import minimize_scalar

    shares, labels = np.asarray(shares, dtype=float), np.asarray(labels)
    rows = np.arange(len(labels))

    def log_loss(log_tau):
        return -np.mean(np.log(temperature_scale(shares, float(np.exp(log_tau)), n_trees)[rows, labels]))

    result = minimize_scalar(log_loss, bounds=(np.log(0.05), np.log(20.0)), method="bounded",
                             options={"xatol": 1e-6})
    return float(np.exp(result.x))


class TemperatureScaledForest(ClassifierMixin, BaseEstimator):
    """Random forest (scikit-learn's) with one temperature fitted on its out-of-bag votes (module docstring).

    Fitted attributes: ``classes_``, ``forest_`` (the fitted
    :class:`sklearn.ensemble.RandomForestClassifier`), ``temperature_``, ``n_features_in_``.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> model = TemperatureScaledForest(n_estimators=50, random_state=0).fit(X, y)
    >>> round(model.temperature_, 2)
    0.77
    >>> model.predict_proba(X[[0, 70]]).round(2).tolist()
    [[0.99, 0.01, 0.01], [0.01, 0.69, 0.3]]
    """

    def __init__(self, n_estimators: int = 100, min_samples_leaf: int = 1, random_state=None):
        self.n_estimators = n_estimators
        self.min_samples_leaf = min_samples_leaf
        self.random_state = random_state

    def fit(self, X, y):
        """Fit the forest, then the temperature that minimises the log loss of its out-of-bag probabilities.

        Parameters
        ----------
        X
            (n_samples, n_features) numeric features.
        y
            (n_samples,) class labels, at least two classes.

        Returns
        -------
        TemperatureScaledForest
            The fitted classifier.
        """
        from sklearn.ensemble import RandomForestClassifier
        from sklearn.utils.multiclass import check_classification_targets
        from sklearn.utils.validation import validate_data

        check_scalar(self.n_estimators, "n_estimators", low=10, integer=True)
        check_scalar(self.min_samples_leaf, "min_samples_leaf", low=1, integer=True)
        X, y = validate_data(self, X, y)
        check_classification_targets(y)
        if np.unique(y).size < 2:
            raise ValueError(f"y has 1 class in {len(y)} instances: at least two classes are needed")
        self.forest_ = RandomForestClassifier(n_estimators=self.n_estimators, min_samples_leaf=self.min_samples_leaf,
                                              oob_score=True, random_state=self.random_state)
        with warnings.catch_warnings():  # "some inputs do not have OOB scores": those rows are left out below
            warnings.simplefilter("ignore", UserWarning)
            self.forest_.fit(X, y)
        self.classes_ = self.forest_.classes_
        shares = self.forest_.oob_decision_function_
        scored = np.isfinite(shares).all(axis=1) & np.isclose(shares.sum(axis=1), 1.0)
        labels = np.searchsorted(self.classes_, y[scored])
        if not scored.any():
            raise ValueError(f"X has too few instances ({len(y)}) for the out-of-bag calibration: no instance has an "
                             f"out-of-bag vote; fit on more instances (or more trees, n_estimators)")
        self.temperature_ = fit_temperature(shares[scored], labels, self.n_estimators)
        return self

    def predict_proba(self, X):
        """(n, K) calibrated probabilities, columns in the order of ``classes_``."""
        from sklearn.utils.validation import validate_data

        check_is_fitted(self, "temperature_")
        X = validate_data(self, X, reset=False)
        return temperature_scale(self.forest_.predict_proba(X), self.temperature_, self.n_estimators)

    def predict(self, X):
        """The most probable class of each instance (the forest's vote; τ does not change the order)."""
        most_probable = np.argmax(self.predict_proba(X), axis=1)
        return self.classes_[most_probable]
