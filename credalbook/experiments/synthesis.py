"""Part VII's common benchmark: every classifier of the book on the same folds, every lens on the same predictions.

Protocol:

- datasets: the collection of Part III (:func:`credalbook.experiments.benchmark.available_datasets`,
  Zaffalon, Corani & Mauá 2012, §9.2), run 0 of its stratified ten-fold cross-validation (the same
  folds); MDL discretisation fitted on each training fold
  (:func:`credalbook.experiments.benchmark.discretised_fold`), as the discrete classifiers need;
- classifiers (:data:`CLASSIFIERS`): the precise naive Bayes (NBC) and a random forest calibrated
  by temperature scaling on its out-of-bag votes (RF,
  :class:`credalbook.classifiers.forest.TemperatureScaledForest`, 100 trees, on the discretised
  codes with "missing" as a value); the
  credal NCC, LNCC, CMA, CDT and imprecise nested dichotomies (IND, a forest of 10 random
  dichotomies), all with the IDM's s = 1; NDC and the rejection option on NBC's posterior
  (Zaffalon et al. 2012, §9.3-9.4); split-conformal sets on RF with the LAC and APS scores at
  confidence 0.80, 0.90 and 0.95 (:class:`credalbook.classifiers.conformal.ConformalSetClassifier`,
  a quarter of the training fold held out to conformalise; an empty LAC set becomes RF's most
  probable class, and the rows count how often; too small a conformalisation part gives vacuous
  sets; APS only on datasets whose every conformalisation part holds three classes, as MAPIE
  refuses it on two, :func:`aps_applies`);
- every classifier predicts the fold once: its set (a precise classifier's is its predicted
  class) and, for NBC, CMA (the model average at the centre of its intervals) and RF, its
  probabilities; :func:`credalbook.lenses.fold_lenses` then reads every lens from them;
- the conformal classifiers of a fold share one forest: all six split the training fold alike
  (same ``random_state``, hence the same proper-training part, :func:`credalbook.classifiers.conformal_split`)
  and fit the same seeded forest on it, so the first (CP-LAC-80) fits it and the others get it
  frozen (:class:`sklearn.frozen.FrozenEstimator`) and only conformalise it at their score and
  level; the sets are those of six separate fits. The frozen forest remembers its probabilities
  by the bytes of the rows it is given, so that the calibration part and the test fold, the same
  for all six, are predicted once each (``_SharedForest``). RF's forest is fitted on the
  whole training fold, not on the proper-training part, so it is not shared.

Rows: one per (dataset, fold, classifier) with the fold's lens sums and values
(:mod:`credalbook.lenses`); a lens that does not apply is empty. ``seconds`` is the classifier's
fit-and-predict time on the fold; the shared conformal forest's fit is charged once, to CP-LAC-80,
so that a fold's ``seconds`` add up to its time and the other conformal rows time their
conformalisation and prediction only.
"""
from __future__ import annotations

import hashlib
import time

import numpy as np
import pandas as pd
from sklearn.frozen import FrozenEstimator

from credalbook.experiments import benchmark
from credalbook.experiments.registry import Experiment, register
from credalbook.lenses import FOLD_COLUMNS

__all__ = ["PRECISE", "CREDAL", "CONFORMAL", "CLASSIFIERS", "PROBABILISTIC", "CONFIDENCE_LEVELS",
           "CONFORMITY_SCORES", "PANEL", "S", "ORDINAL_CLASSES", "ordinal_cost", "aps_applies", "CI_DATASETS", "NAME", "FAMILIES", "DESCRIPTIONS", "classifier_table", "coded", "fold_predictions",
           "evaluate_fold", "SYNTHESIS"]

#: The precise baselines (naive Bayes and the calibrated random forest).
PRECISE = ("NBC", "RF")
#: The credal and cautious classifiers (IDM-based ones with s = 1; NDC and rejection on NBC).
CREDAL = ("NCC", "LNCC", "CMA", "CDT", "IND", "NDC", "NBC-reject")
#: Confidence levels of the conformal sets.
CONFIDENCE_LEVELS = (0.8, 0.9, 0.95)
#: Conformity scores of the conformal sets (MAPIE's names).
CONFORMITY_SCORES = ("lac", "aps")
#: The conformal set classifiers, named by score and confidence (``CP-LAC-90``).
CONFORMAL = tuple(f"CP-{score.upper()}-{round(100 * level)}" for score in CONFORMITY_SCORES
                  for level in CONFIDENCE_LEVELS)
#: Every classifier of the benchmark.
CLASSIFIERS = PRECISE + CREDAL + CONFORMAL
#: The panel the lenses rank, the classifiers every dataset scores (APS needs three classes).
PANEL = tuple(c for c in CLASSIFIERS if not c.startswith("CP-APS"))
#: The classifiers whose probabilities the probability lenses read.
PROBABILISTIC = ("NBC", "CMA", "RF")
#: The family of each classifier (precise; credal, on the IDM; cautious, on NBC's posterior; conformal).
FAMILIES = {**{c: "precise" for c in PRECISE}, **{c: "credal" for c in CREDAL}, "NDC": "cautious",
            "NBC-reject": "cautious", **{c: "conformal" for c in CONFORMAL}}
#: What each classifier is, in a few words (the page's table of classifiers).
DESCRIPTIONS = {
    "NBC": "naive Bayes, Laplace prior (Part II)",
    "RF": "random forest, 100 trees, temperature-calibrated on its out-of-bag votes",
    "NCC": "naive credal classifier (Part II)",
    "LNCC": "lazy NCC (Part III)",
    "CMA": "credal model averaging (Part III)",
    "CDT": "credal decision tree (Part III)",
    "IND": "imprecise nested dichotomies, 10 random trees (Part IV)",
    "NDC": "naive Bayes's top classes maximising expected F1 (Part II)",
    "NBC-reject": "naive Bayes, or all classes when its top posterior is below 0.8 (Part II)",
    **{name: f"split-conformal {name.split('-')[1]} sets on RF, confidence 0.{name.split('-')[2]}"
       for name in CONFORMAL},
}
#: The IDM's s of every credal classifier here (Part III's value).
S = 1.0
#: The datasets of the ci profile (small, two to four classes, as Part III's).
CI_DATASETS = ("contact-lenses", "iris", "labor")
#: The datasets of the collection whose classes are ordered (three or more), lowest to highest, for the ordinal lens.
ORDINAL_CLASSES = {
    "eucalyptus": ("none", "low", "average", "good", "best"),
    "grub-damage": ("low", "average", "high", "veryhigh"),
    "pasture": ("LO", "MED", "HI"),
    "tae": ("1", "2", "3"),
    "squash-stored": ("not_acceptable", "ok", "excellent"),
    "squash-unstored": ("not_suitable", "ok", "excellent"),
    "nursery": ("not_recom", "recommend", "very_recom", "priority", "spec_prior"),
    "white-clover": ("0<=WhiteClover-94<8.8225", "8.8225<=WhiteClover-94<17.645",
                     "17.645<=WhiteClover-94<26.4675", "26.4675<=WhiteClover-94<=35.29"),
    "solar-flare-C (solar-flare_1)": ("0", "1", "2"),
    "solar-flare-m (solar-flare_1)": ("0", "1", "2", "4"),
}
#: Name of the experiment (its stored rows and provenance).
NAME = "synthesis_benchmark"


def classifier_table() -> pd.DataFrame:
    """The classifiers of the benchmark: name, family and what each is."""
    return pd.DataFrame([{"classifier": name, "family": FAMILIES[name], "what it is": DESCRIPTIONS[name]}
                         for name in CLASSIFIERS])


def coded(X: pd.DataFrame) -> np.ndarray:
    """Integer codes (n, d) of discretised ``X``, "missing" an ordinary value (for scikit-learn's forest)."""
    from credalbook.preprocessing import missing_as_category

    return np.column_stack([column.cat.codes.to_numpy() for _, column in missing_as_category(X).items()])


def _all_columns(matrix: np.ndarray, seen: np.ndarray, n_classes: int) -> np.ndarray:
    """(n, K) matrix whose columns ``seen`` are ``matrix``'s and the others zero (classes a training part missed)."""
    full = np.zeros((matrix.shape[0], n_classes), dtype=matrix.dtype)
    full[:, seen] = matrix
    return full


def _singletons(index: np.ndarray, n_classes: int) -> np.ndarray:
    sets = np.zeros((len(index), n_classes), dtype=bool)
    sets[np.arange(len(index)), index] = True
    return sets


class _SharedForest(FrozenEstimator):
    """The conformal classifiers' forest, fitted once per fold and frozen, whose ``predict_proba`` remembers
    its output by the bytes of ``X`` (a fitted forest's probabilities depend on the rows only, so the
    remembered output is the one a new call would compute)."""

    def __init__(self, estimator):
        super().__init__(estimator)
        self._seen = {}

    def predict_proba(self, X):
        X = np.ascontiguousarray(X)
        key = (X.shape, X.dtype.str, hashlib.sha256(X.tobytes()).digest())
        if key not in self._seen:
            self._seen[key] = self.estimator.predict_proba(X)
        return self._seen[key].copy()


def ordinal_cost(dataset: str, y: pd.Series, codes: np.ndarray) -> np.ndarray | None:
    """ℓ1 costs between ranks, scaled to [0, 1], ``abs(rank_i − rank_j) / (K − 1)`` (K, K) in code order, for a
    dataset of :data:`ORDINAL_CLASSES` (Yang et al. 2017, §VII-A); None for the others."""
    order = ORDINAL_CLASSES.get(dataset)
    if order is None:
        return None
    names = [str(y[codes == k].iloc[0]) for k in range(int(codes.max()) + 1)]
    if sorted(names) != sorted(order):
        raise ValueError(f"dataset {dataset!r} has classes {names}, ORDINAL_CLASSES lists {list(order)}")
    rank = np.array([order.index(name) for name in names], dtype=float)
    return np.abs(rank[:, None] - rank[None, :]) / (len(order) - 1)


def aps_applies(codes: np.ndarray) -> bool:
    """Whether a dataset gets APS sets: every training fold has three classes of at least two instances,
    so that every conformalisation part holds three classes (MAPIE refuses APS on fewer;
    :func:`credalbook.classifiers.conformal_split` sends one of a class's m ≥ 2 instances
    or more to it). Decided per dataset, so that a dataset has APS rows on all folds or none."""
    for fold in range(benchmark.N_FOLDS):
        train, _ = benchmark.fold_indices(codes, 0, fold)
        if (np.bincount(codes[train]) >= 2).sum() < 3:
            return False
    return True


def fold_predictions(dataset: str, fold: int) -> tuple[np.ndarray, dict, dict, dict, dict, np.ndarray | None]:
    """``(y_test, sets, proba, empty, seconds, ordinal)`` of every classifier on one fold (dicts by classifier name).

    ``sets`` (n, K) boolean, ``proba`` (n, K) for :data:`PROBABILISTIC`, ``empty`` the number of
    empty conformal sets replaced by RF's most probable class, ``seconds`` the fit-and-predict
    time, ``ordinal`` the dataset's :func:`ordinal_cost` (None unless its classes are ordered).
    """
    from credalbook.classifiers import (CredalDecisionTree, CredalModelAveraging, LazyNaiveCredalClassifier,
                                        NaiveBayes, NaiveCredalClassifier, NestedDichotomyForest,
                                        NonDeterministicClassifier, RejectionClassifier)
    from credalbook.classifiers.conformal import ConformalSetClassifier
    from credalbook.classifiers.forest import TemperatureScaledForest

    X, y, codes = benchmark.load_dataset(dataset)
    k = int(codes.max()) + 1
    train, test = benchmark.fold_indices(codes, 0, fold)
    X_train, X_test = benchmark.discretised_fold(X, y, train, test)
    y_train = pd.Series(codes[train])
    sets, proba, empty, seconds = {}, {}, {}, {}
    discrete = {"NBC": NaiveBayes(), "NCC": NaiveCredalClassifier(s=S), "LNCC": LazyNaiveCredalClassifier(s=S),
                "CMA": CredalModelAveraging(s=S), "CDT": CredalDecisionTree(s=S),
                "IND": NestedDichotomyForest(n_trees=10, s=S, random_state=fold),
                "NDC": NonDeterministicClassifier(NaiveBayes()), "NBC-reject": RejectionClassifier(NaiveBayes())}
    for name, model in discrete.items():
        start = time.perf_counter()
        model.fit(X_train, y_train)
        seen = model.classes_.astype(int)
        sets[name] = _all_columns(model.predict_set(X_test), seen, k)
        if name in PROBABILISTIC:
            proba[name] = _all_columns(model.predict_proba(X_test), seen, k)
        seconds[name] = time.perf_counter() - start
    A_train, A_test = coded(X_train), coded(X_test)
    start = time.perf_counter()
    forest = TemperatureScaledForest(random_state=fold).fit(A_train, codes[train])
    proba["RF"] = _all_columns(forest.predict_proba(A_test), forest.classes_.astype(int), k)
    sets["RF"] = _singletons(proba["RF"].argmax(axis=1), k)
    seconds["RF"] = time.perf_counter() - start
    shared = None  # the proper-training part's forest, fitted by the first conformal classifier (module docstring)
    for score in CONFORMITY_SCORES if aps_applies(codes) else ("lac",):
        for level in CONFIDENCE_LEVELS:
            name = f"CP-{score.upper()}-{round(100 * level)}"
            start = time.perf_counter()
            model = ConformalSetClassifier(TemperatureScaledForest(random_state=fold) if shared is None else shared,
                                           conformity_score=score, confidence_level=level, random_state=fold)
            model.fit(A_train, codes[train])
            if shared is None:
                shared = _SharedForest(model.estimator_)
            predicted, was_empty = model.predict_set_with_empty(A_test)
            sets[name] = _all_columns(predicted, model.classes_.astype(int), k)
            empty[name] = int(was_empty.sum())
            seconds[name] = time.perf_counter() - start
    return codes[test], sets, proba, empty, seconds, ordinal_cost(dataset, y, codes)


def evaluate_fold(dataset: str, fold: int) -> pd.DataFrame:
    """One row per classifier: every lens of :mod:`credalbook.lenses` on the fold's predictions."""
    from credalbook.lenses import fold_lenses

    y_test, sets, proba, empty, seconds, ordinal = fold_predictions(dataset, fold)
    rows = []
    for name in (c for c in CLASSIFIERS if c in sets):
        row = {"classifier": name, "n_empty": empty.get(name, 0)}
        row.update(fold_lenses(y_test, sets[name], proba.get(name), ordinal_cost=ordinal))
        row["seconds"] = seconds[name]
        rows.append(row)
    return pd.DataFrame(rows).reindex(columns=["classifier", "n_empty", *FOLD_COLUMNS, "seconds"])


def _grid() -> list[dict]:
    """(dataset, fold): run 0 of Part III's ten-fold cross-validation on every dataset of its collection."""
    return [{"dataset": d, "fold": f} for d in benchmark.available_datasets() for f in range(benchmark.N_FOLDS)]


#: Part VII's benchmark (15 classifiers, 54 datasets, ten folds, every lens; one row per dataset, fold and classifier).
SYNTHESIS = register(Experiment(
    name=NAME,
    description="Part VII: precise, credal and conformal classifiers on Part III's folds, every lens",
    task=evaluate_fold,
    grid=_grid,
    ci=lambda config: config["dataset"] in CI_DATASETS and config["fold"] == 0,
    keys=("dataset", "fold", "classifier"),
    values=("n_empty",) + FOLD_COLUMNS,  # not the timings
    atol=1e-6,
    version="1",
))
