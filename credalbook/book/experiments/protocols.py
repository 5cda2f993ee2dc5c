"""Evaluation protocols of Zaffalon, Corani & Mauá (2012, §9): cross-validation, down-sampling, artificial data.

* :func:`stratified_folds` — fold labels of repeated stratified k-fold cross-validation
  (JNCC2's scheme: the instances of each class shuffled, classes concatenated, fold = position
  mod k), deterministic given ``(seed, repeat)``.
* :func:`downsample_split` — a stratified training set of a given size, the rest as test set
  (§9.1.2 / 001 §9).
* :func:`draw_naive_model` and :func:`sample_naive` — the artificial generator of §9.1.1
  (001 §8): binary class with uniform marginal, binary features whose conditional chances
  differ by at least 0.1 between the classes.
* :func:`evaluate_split` — fits every model (optionally after a preprocessing step fitted on
  the training part only) and returns per-instance outputs; :func:`cross_validate` runs it
  over the folds of one or more repetitions and returns a tidy frame, per fold or per instance.

Models are given as *factories* (callables returning a fresh scikit-learn estimator, e.g. a
``Pipeline`` with :class:`~credalbook.preprocessing.MDLDiscretizer`), so that nothing fitted
leaks from one training fold into another. Any estimator with ``predict_set`` (or only
``predict``, taken as a singleton set) can be evaluated.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

import numpy as np
import pandas as pd

from credalbook._validation import check_scalar
from credalbook.discrete import encode_labels
from credalbook.metrics import discounted_accuracy_scores, f_beta_set_scores, utility_discounted_accuracy_scores

__all__ = ["stratified_folds", "downsample_split", "draw_naive_model", "sample_naive", "ModelOutput",
           "evaluate_split", "standard_scores", "fold_means", "cross_validate", "clone_factory"]


# ----------------------------------------------------------------------------------------------
# splits
# ----------------------------------------------------------------------------------------------
def _rng(seed, *stream) -> np.random.Generator:
    return np.random.default_rng([int(seed), *map(int, stream)])


def stratified_folds(y, n_splits: int = 10, *, seed: int = 0, repeat: int = 0) -> np.ndarray:
    """(n,) fold label 0..n_splits−1 per instance; every class spread evenly over the folds."""
    check_scalar(n_splits, "n_splits", low=2, integer=True)
    check_scalar(repeat, "repeat", low=0, integer=True)
    _, codes = encode_labels(y, "y")
    if codes.size < n_splits:
        raise ValueError(f"n_splits={n_splits} is larger than the number of instances {codes.size}")
    rng = _rng(seed, repeat)
    order = np.concatenate([rng.permutation(np.flatnonzero(codes == c)) for c in np.unique(codes)])
    folds = np.empty(codes.size, dtype=np.int64)
    folds[order] = np.arange(codes.size) % n_splits
    return folds


def downsample_split(y, size: int, *, seed: int = 0, sample: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(train, test) indices: a stratified training set of ``size`` instances, all others as test set.

    Class counts in the training set are the class proportions times ``size``, rounded by the
    largest-remainder rule (so they sum to ``size``).
    """
    _, codes = encode_labels(y, "y")
    check_scalar(size, "size", low=1, high=codes.size - 1, integer=True)
    check_scalar(sample, "sample", low=0, integer=True)
    classes, counts = np.unique(codes, return_counts=True)
    quota = counts * size / codes.size
    take = np.floor(quota).astype(np.int64)
    remainder = size - take.sum()
    take[np.argsort(-(quota - take), kind="stable")[:remainder]] += 1
    rng = _rng(seed, size, sample)
    train = np.concatenate([rng.choice(np.flatnonzero(codes == c), k, replace=False) for c, k in zip(classes, take)])
    train.sort()
    test = np.setdiff1d(np.arange(codes.size), train)
    return train, test


# ----------------------------------------------------------------------------------------------
# artificial data (§9.1.1)
# ----------------------------------------------------------------------------------------------
def draw_naive_model(rng: np.random.Generator, n_features: int = 10, min_gap: float = 0.1) -> np.ndarray:
    """(n_features, 2) chances θ_{i,c} = P(A_i = 1 | C = c), uniform subject to :math:`|\\theta_{i,1} - \\theta_{i,2}| \\ge` ``min_gap``.

    Drawn by rejection, feature by feature (§9.1.1 of 000, §8 of 001).
    """
    check_scalar(n_features, "n_features", low=1, integer=True)
    check_scalar(min_gap, "min_gap", low=0.0, high=1.0, high_inclusive=False)
    theta = np.empty((n_features, 2))
    filled = 0
    while filled < n_features:
        draw = rng.random((2 * (n_features - filled) + 4, 2))
        good = draw[np.abs(draw[:, 0] - draw[:, 1]) >= min_gap]
        take = min(len(good), n_features - filled)
        theta[filled:filled + take] = good[:take]
        filled += take
    return theta


def sample_naive(rng: np.random.Generator, theta: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` instances of the naive model ``theta`` (from :func:`draw_naive_model`), classes uniform.

    Returns binary features (n, d) int8 and class codes (n,).
    """
    theta = np.asarray(theta, dtype=float)
    if theta.ndim != 2 or theta.shape[1] != 2 or np.any((theta < 0) | (theta > 1)):
        raise ValueError(f"theta must be an (n_features, 2) array of chances in [0, 1], got shape {theta.shape}")
    check_scalar(n, "n", low=1, integer=True)
    y = rng.integers(0, 2, n)
    X = (rng.random((n, theta.shape[0])) < theta[:, y].T).astype(np.int8)
    return X, y


# ----------------------------------------------------------------------------------------------
# evaluation
# ----------------------------------------------------------------------------------------------
@dataclass
class ModelOutput:
    """What one fitted model said on a test set: (n, K) sets, the single class, probabilities if any."""

    sets: np.ndarray
    single: np.ndarray
    proba: np.ndarray | None = None


def _outputs(model, X, with_proba: bool = False) -> ModelOutput:
    from sklearn.pipeline import Pipeline

    if isinstance(model, Pipeline):  # predict_set / predict_index are not delegated by Pipeline
        X, model = model[:-1].transform(X), model[-1]
    proba = model.predict_proba(X) if with_proba and hasattr(model, "predict_proba") else None
    if hasattr(model, "predict_with_set"):
        sets, single = model.predict_with_set(X)
    else:
        index = {c: k for k, c in enumerate(np.asarray(model.classes_).tolist())}
        single = np.array([index[v] for v in np.asarray(model.predict(X)).tolist()])
        if hasattr(model, "predict_set"):
            sets = model.predict_set(X)
        else:
            sets = np.zeros((len(single), len(model.classes_)), dtype=bool)
            sets[np.arange(len(single)), single] = True
    return ModelOutput(sets=np.asarray(sets, dtype=bool), single=np.asarray(single, dtype=np.int64), proba=proba)


def _take(X, index):
    return X.iloc[index] if isinstance(X, (pd.DataFrame, pd.Series)) else np.asarray(X)[index]


def _labels(y) -> pd.Categorical:
    """Labels as a Categorical over *all* classes of the dataset, so a class absent from a training fold keeps its column."""
    if isinstance(getattr(y, "dtype", None), pd.CategoricalDtype):
        return pd.Categorical(y)
    classes, codes = encode_labels(y, "y")
    return pd.Categorical.from_codes(codes, categories=classes)


def evaluate_split(models: Mapping[str, Callable], X, y, train, test, *, preprocess: Callable | None = None,
                   with_proba: bool = False) -> tuple[np.ndarray, dict[str, ModelOutput]]:
    """Fit every ``models[name]()`` on the training part and predict the test part.

    ``preprocess`` (a factory of a transformer, e.g. MDL then CFS) is fitted once on the
    training part and applied to both parts before the models. Returns the test class codes
    and ``{name: ModelOutput}`` (with ``predict_proba`` output when ``with_proba``).
    """
    if not models:
        raise ValueError("models is empty: give at least one name -> estimator factory")
    labels = _labels(y)
    train, test = np.asarray(train), np.asarray(test)
    if train.size == 0 or test.size == 0:
        raise ValueError("train and test must both hold at least one instance")
    X_train, X_test = _take(X, train), _take(X, test)
    y_train = labels[train]
    if preprocess is not None:
        step = preprocess()
        X_train = step.fit_transform(X_train, y_train)
        X_test = step.transform(X_test)
    outputs = {}
    for name, factory in models.items():
        model = factory()
        if not hasattr(model, "fit"):
            raise ValueError(f"factory of model {name!r} must return an estimator, got {model!r}")
        outputs[name] = _outputs(model.fit(X_train, y_train), X_test, with_proba)
    return labels.codes[test].astype(np.int64), outputs


def standard_scores(y_true: np.ndarray, outputs: Mapping[str, ModelOutput]) -> pd.DataFrame:
    """Per-instance scores of every model: discounted accuracy, u65, u80, F1, determinacy, set size, hit, single hit."""
    frames = []
    for name, out in outputs.items():
        sizes = out.sets.sum(axis=1)
        frames.append(pd.DataFrame({
            "model": name,
            "instance": np.arange(y_true.size),
            "y_true": y_true,
            "size": sizes,
            "determinate": sizes == 1,
            "hit": out.sets[np.arange(y_true.size), y_true],
            "single_hit": out.single == y_true,
            "discounted_accuracy": discounted_accuracy_scores(y_true, out.sets),
            "u65": utility_discounted_accuracy_scores(y_true, out.sets, 0.65),
            "u80": utility_discounted_accuracy_scores(y_true, out.sets, 0.8),
            "f1": f_beta_set_scores(y_true, out.sets, 1.0),
        }))
    return pd.concat(frames, ignore_index=True)


def fold_means(scores: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Average the numeric per-instance columns of :func:`standard_scores` within ``keys`` (+ model)."""
    value_columns = [c for c in scores.columns if c not in keys + ["model", "instance", "y_true"]]
    frame = scores.groupby(keys + ["model"], sort=False)[value_columns].mean().reset_index()
    frame["n_test"] = scores.groupby(keys + ["model"], sort=False).size().to_numpy()
    return frame


def cross_validate(models: Mapping[str, Callable], X, y, *, n_splits: int = 10, repeats=(0,), seed: int = 0,
                   preprocess: Callable | None = None, per_instance: bool = False,
                   scorer: Callable[[np.ndarray, Mapping[str, ModelOutput]], pd.DataFrame] = standard_scores
                   ) -> pd.DataFrame:
    """Repeated stratified k-fold CV; preprocessing and models fitted inside each training fold.

    ``repeats`` are the repetition numbers to run (each has its own fold assignment, drawn from
    ``(seed, repeat)``, so repetitions can be run in separate processes and still agree).
    ``scorer(y_true, outputs)`` returns per-instance rows with a ``model`` column
    (:func:`standard_scores` by default). The result has ``repeat`` and ``fold`` columns and,
    unless ``per_instance``, one row per (repeat, fold, model) with the fold means.
    """
    frames = []
    for repeat in repeats:
        folds = stratified_folds(y, n_splits, seed=seed, repeat=repeat)
        for fold in range(n_splits):
            test = np.flatnonzero(folds == fold)
            train = np.flatnonzero(folds != fold)
            y_true, outputs = evaluate_split(models, X, y, train, test, preprocess=preprocess)
            scores = scorer(y_true, outputs)
            scores.insert(0, "fold", fold)
            scores.insert(0, "repeat", repeat)
            if "instance" in scores.columns:
                scores["instance"] = test[scores["instance"].to_numpy()]
            frames.append(scores)
    result = pd.concat(frames, ignore_index=True)
    return result if per_instance else fold_means(result, ["repeat", "fold"])


def clone_factory(estimator) -> Callable:
    """A factory returning fresh clones of ``estimator`` (for :func:`cross_validate`)."""
    from sklearn.base import clone

    return lambda: clone(estimator)
