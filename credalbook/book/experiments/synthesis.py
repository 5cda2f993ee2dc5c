"""Part VII's common benchmark: every classifier of the book on the same folds, every lens on the same predictions.

Protocol:

- datasets: the collection of Part III (:func:`credalbook.book.experiments.benchmark.available_datasets`,
  Zaffalon, Corani & Mauá 2012, §9.2), run 0 of its stratified ten-fold cross-validation (the same
  folds); MDL discretisation fitted on each training fold
  (:func:`credalbook.book.experiments.benchmark.discretised_fold`), as the discrete classifiers need;
- classifiers (:data:`CLASSIFIERS`): the precise naive Bayes (NBC) and a random forest calibrated
  by temperature scaling on its out-of-bag votes (RF,
  :class:`credalbook.classifiers.forest.TemperatureScaledForest`, 100 trees, on the discretised
  codes with "missing" as a value); the
  credal NCC, LNCC, CMA, CDT and imprecise nested dichotomies (IND, a forest of 10 random
  dichotomies), all with the IDM's s = 1; NDC and the rejection option on NBC's posterior
  (Zaffalon et al. 2012, §9.3-9.4); split-conformal sets on a random forest with the LAC and APS
  scores at confidence 0.80, 0.90 and 0.95 (:class:`credalbook.classifiers.conformal.ConformalSetClassifier`,
  a quarter of the training fold held out to conformalise; too small a conformalisation part gives
  vacuous sets; APS only on datasets whose every conformalisation part holds three classes, as MAPIE
  refuses it on two, :func:`aps_applies`);
- conformal protocols (:data:`PROTOCOLS`): ``"split"`` (``CP-…``, the book's) fits *every*
  data-dependent step, the MDL discretisation included, on the proper-training part only
  (:func:`conformal_features`), so that the conformalisation quarter is exchangeable with the
  test fold; ``"leaky"`` (``CPleak-…``, the protocol of the first stored run, kept to measure
  its effect) discretises with MDL fitted on the whole training fold, the conformalisation
  quarter included;
- empty LAC sets under each policy of :data:`EMPTY_POLICIES` (:func:`conformal_name`): kept
  empty (MAPIE's sets, no suffix), the forest's most probable class (``/top``) or the whole
  label set (``/all``). An empty set is scored as a miss (:func:`set_lenses`); the rows count
  the empty sets (``n_empty``, before the policy);
- every classifier predicts the fold once: its set (a precise classifier's is its predicted
  class) and, for NBC, CMA (the model average at the centre of its intervals) and RF, its
  probabilities; :func:`credalbook.lenses.fold_lenses` then reads every lens from them;
- the conformal classifiers of a fold and protocol share one forest: all split the training fold
  alike (same ``random_state``, hence the same proper-training part,
  :func:`credalbook.classifiers.conformal_split`) and fit the same seeded forest on it, so the
  first (LAC at 0.80) fits it and the others get it frozen (:class:`sklearn.frozen.FrozenEstimator`)
  and only conformalise it at their score and level; the sets are those of separate fits. The
  frozen forest remembers its probabilities by the bytes of the rows it is given, so that the
  calibration part and the test fold are predicted once each (``_SharedForest``). The three
  policies are read from one prediction (MAPIE's sets and the forest's most probable class).
  RF's forest is fitted on the whole training fold, not on the proper-training part, so it is
  not shared.

Rows: one per (dataset, fold, classifier) with the fold's lens sums and values
(:mod:`credalbook.lenses`); a lens that does not apply is empty. ``seconds`` is the classifier's
fit-and-predict time on the fold; the shared conformal forest's fit (and, for ``"split"``, its
MDL discretisation) is charged once, to the protocol's LAC-80 with the empty sets kept, so that a
fold's ``seconds`` add up to its time; the other conformal rows time their conformalisation and
prediction only, and the ``/top`` and ``/all`` rows (read from the same prediction) zero.
"""
from __future__ import annotations

import hashlib
import time

import numpy as np
import pandas as pd
from sklearn.frozen import FrozenEstimator

from credalbook.book.experiments import benchmark
from credalbook.book.experiments.registry import Experiment, register
from credalbook.lenses import FOLD_COLUMNS

__all__ = ["PRECISE", "CREDAL", "CONFORMAL", "CLASSIFIERS", "PROBABILISTIC", "CONFIDENCE_LEVELS",
           "CONFORMITY_SCORES", "EMPTY_POLICIES", "PROTOCOLS", "conformal_name", "conformal_variant", "panel",
           "PANEL", "S", "ORDINAL_CLASSES", "ordinal_cost", "aps_applies", "CI_DATASETS", "NAME", "FAMILIES",
           "DESCRIPTIONS", "classifier_table", "coded", "conformal_features", "set_lenses", "fold_predictions",
           "evaluate_fold", "holm", "coverage_tests", "coverage_summary", "empty_shares", "POLICY_LENSES",
           "policy_means", "policy_ranks", "leak_effect", "SYNTHESIS"]

#: The precise baselines (naive Bayes and the calibrated random forest).
PRECISE = ("NBC", "RF")
#: The credal and cautious classifiers (IDM-based ones with s = 1; NDC and rejection on NBC).
CREDAL = ("NCC", "LNCC", "CMA", "CDT", "IND", "NDC", "NBC-reject")
#: Confidence levels of the conformal sets.
CONFIDENCE_LEVELS = (0.8, 0.9, 0.95)
#: Conformity scores of the conformal sets (MAPIE's names).
CONFORMITY_SCORES = ("lac", "aps")
#: What an empty conformal set becomes (``ConformalSetClassifier``'s ``empty``): kept (a miss), the top class, all classes.
EMPTY_POLICIES = ("keep", "argmax", "all")
#: Conformal protocols and the prefix of their names (split with MDL on the proper-training part; MDL on the whole fold).
PROTOCOLS = {"split": "CP", "leaky": "CPleak"}
_SUFFIX = {"keep": "", "argmax": "/top", "all": "/all"}


def conformal_name(score: str, level: float, empty: str = "keep", protocol: str = "split") -> str:
    """The benchmark's name of a conformal classifier: ``CP-LAC-90`` (split, leak-free, empty sets kept),
    ``CP-LAC-90/top``, ``CP-LAC-90/all``, ``CPleak-LAC-90/top`` (the first stored run's protocol)."""
    if score not in CONFORMITY_SCORES:
        raise ValueError(f"score must be one of {', '.join(CONFORMITY_SCORES)}, got {score!r}")
    if level not in CONFIDENCE_LEVELS:
        raise ValueError(f"level must be one of {', '.join(map(str, CONFIDENCE_LEVELS))}, got {level!r}")
    if empty not in EMPTY_POLICIES:
        raise ValueError(f"empty must be one of {', '.join(EMPTY_POLICIES)}, got {empty!r}")
    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol must be one of {', '.join(PROTOCOLS)}, got {protocol!r}")
    return f"{PROTOCOLS[protocol]}-{score.upper()}-{round(100 * level)}{_SUFFIX[empty]}"


_VARIANTS = {conformal_name(score, level, empty, protocol): {"protocol": protocol, "score": score, "level": level,
                                                             "empty": empty}
             for protocol in PROTOCOLS for score in CONFORMITY_SCORES for level in CONFIDENCE_LEVELS
             for empty in EMPTY_POLICIES}
#: The conformal set classifiers: every protocol, score, confidence level and empty-set policy (:func:`conformal_name`).
CONFORMAL = tuple(_VARIANTS)


def conformal_variant(name: str) -> dict | None:
    """``{"protocol", "score", "level", "empty"}`` of a name of :data:`CONFORMAL`; None for another classifier."""
    variant = _VARIANTS.get(name)
    return None if variant is None else dict(variant)


#: Every classifier of the benchmark.
CLASSIFIERS = PRECISE + CREDAL + CONFORMAL


def panel(empty: str = "keep", protocol: str = "split") -> tuple[str, ...]:
    """The classifiers the lenses rank: the precise and credal ones and LAC at each level under one empty-set
    policy and protocol (APS needs three classes, so not every dataset scores it)."""
    return PRECISE + CREDAL + tuple(conformal_name("lac", level, empty, protocol) for level in CONFIDENCE_LEVELS)


#: The panel the lenses rank: :func:`panel` with MAPIE's sets (empty sets kept, scored as misses), leak-free.
PANEL = panel()
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
    **{name: (f"split-conformal{'' if v['protocol'] == 'split' else ', MDL on the whole training fold,'} "
              f"{v['score'].upper()} sets on a forest, confidence {v['level']:.2f}, empty sets "
              + {"keep": "kept (misses)", "argmax": "made the top class", "all": "made all classes"}[v["empty"]])
       for name, v in _VARIANTS.items()},
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


def classifier_table(variants: bool = False) -> pd.DataFrame:
    """The classifiers of the benchmark: name, family and what each is; the conformal ones of the book's protocol
    with their empty sets kept only, unless ``variants`` (every protocol and empty-set policy)."""
    names = CLASSIFIERS if variants else PRECISE + CREDAL + tuple(
        c for c in CONFORMAL if _VARIANTS[c]["protocol"] == "split" and _VARIANTS[c]["empty"] == "keep")
    return pd.DataFrame([{"classifier": name, "family": FAMILIES[name], "what it is": DESCRIPTIONS[name]}
                         for name in names])


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


def conformal_features(X: pd.DataFrame, y: pd.Series, train: np.ndarray, test: np.ndarray, random_state: int,
                       protocol: str = "split") -> tuple[np.ndarray, np.ndarray]:
    """``(A_train, A_test)``: the forest's integer codes (:func:`coded`) of a training and a test part for the
    conformal classifiers. ``"split"`` fits MDL on the proper-training part of
    :func:`credalbook.classifiers.conformal_split` (``calibration_size=0.25``, ``random_state``) only, so that
    nothing the conformalisation part holds, its labels included, shapes the features; ``"leaky"`` fits it on
    the whole training part (:func:`credalbook.book.experiments.benchmark.discretised_fold`)."""
    from credalbook.classifiers.conformal import conformal_split
    from credalbook.preprocessing import MDLDiscretizer

    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol must be one of {', '.join(PROTOCOLS)}, got {protocol!r}")
    if protocol == "leaky":
        X_train, X_test = benchmark.discretised_fold(X, y, train, test)
        return coded(X_train), coded(X_test)
    proper, _ = conformal_split(np.asarray(y.iloc[train]), 0.25, random_state=random_state)
    discretiser = MDLDiscretizer().fit(X.iloc[train[proper]], y.iloc[train[proper]])
    return coded(discretiser.transform(X.iloc[train])), coded(discretiser.transform(X.iloc[test]))


def _with_policy(sets: np.ndarray, index: np.ndarray, was_empty: np.ndarray, empty: str) -> np.ndarray:
    """MAPIE's ``sets`` (empty rows kept) under an empty-set policy (as ``ConformalSetClassifier(empty=...)``)."""
    out = sets.copy()
    if empty == "argmax":
        out[was_empty, index[was_empty]] = True
    elif empty == "all":
        out[was_empty] = True
    return out


def set_lenses(y_true, sets: np.ndarray, ordinal_cost: np.ndarray | None = None) -> dict[str, float]:
    """:func:`credalbook.lenses.fold_lenses` of a fold's sets, an empty set scored as a miss.

    The set measures refuse an empty set, so the lenses are read from the non-empty rows and each empty
    row adds a miss: 0 to every utility, F₁, determinacy, coverage and set size (MAPIE's size of an empty
    set), the cost of a wrong precise prediction to the p-discounted costs (1 under 0/1 costs,
    max over k of ``ordinal_cost[y, k]`` under ordinal ones), and nothing to the size bins of
    size-stratified coverage (an empty set has no size bin). ``n`` counts every row.
    """
    from credalbook.lenses import fold_lenses

    y_true, sets = np.asarray(y_true), np.asarray(sets, dtype=bool)
    empty = ~sets.any(axis=1)
    if not empty.any():
        return fold_lenses(y_true, sets, ordinal_cost=ordinal_cost)
    if empty.all():  # the lenses of one vacuous row, every sum then set to zero
        out = {key: 0 * value for key, value in fold_lenses(y_true[:1], np.ones_like(sets[:1]),
                                                           ordinal_cost=ordinal_cost).items()}
    else:
        out = fold_lenses(y_true[~empty], sets[~empty], ordinal_cost=ordinal_cost)
    misses = y_true[empty]
    out["n"] = int(len(y_true))
    out["p_discounted_cost"] = out["p_discounted_cost"] + float(misses.size)
    if ordinal_cost is not None:
        out["p_discounted_ordinal"] = out["p_discounted_ordinal"] + float(np.asarray(ordinal_cost).max(axis=1)[misses].sum())
    return out


def fold_predictions(dataset: str, fold: int) -> tuple[np.ndarray, dict, dict, dict, dict, np.ndarray | None]:
    """``(y_test, sets, proba, empty, seconds, ordinal)`` of every classifier on one fold (dicts by classifier name).

    ``sets`` (n, K) boolean (a conformal set under ``/top`` or ``/all`` filled, without suffix possibly
    empty), ``proba`` (n, K) for :data:`PROBABILISTIC`, ``empty`` the number of empty conformal sets
    (before the policy), ``seconds`` the fit-and-predict time, ``ordinal`` the dataset's
    :func:`ordinal_cost` (None unless its classes are ordered).
    """
    from credalbook.classifiers import (CredalDecisionTree, CredalModelAveraging, LazyNaiveCredalClassifier,
                                        NaiveBayes, NaiveCredalClassifier, NestedDichotomyForest,
                                        NonDeterministicClassifier, RejectionClassifier)
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
    conformal = _conformal_predictions(X, y, codes, train, test, fold, (A_train, A_test))
    for mine, theirs in zip((sets, empty, seconds), conformal):
        mine.update(theirs)
    return codes[test], sets, proba, empty, seconds, ordinal_cost(dataset, y, codes)


def _conformal_predictions(X, y, codes, train, test, fold, leaky_features=None) -> tuple[dict, dict, dict]:
    """``(sets, empty, seconds)`` of every conformal classifier of a fold (see :func:`fold_predictions`);
    ``leaky_features``, the codes of MDL fitted on the whole training fold, if already made."""
    from credalbook.classifiers.conformal import ConformalSetClassifier
    from credalbook.classifiers.forest import TemperatureScaledForest

    k = int(codes.max()) + 1
    sets, empty, seconds = {}, {}, {}
    for protocol in PROTOCOLS:
        start = time.perf_counter()
        if protocol == "leaky" and leaky_features is not None:
            features = leaky_features  # MDL on the whole training fold, as RF's
        else:
            features = conformal_features(X, y, train, test, fold, protocol)
        shared = None  # the proper-training part's forest, fitted by the first conformal classifier (module docstring)
        for score in CONFORMITY_SCORES if aps_applies(codes) else ("lac",):
            for level in CONFIDENCE_LEVELS:
                model = ConformalSetClassifier(TemperatureScaledForest(random_state=fold) if shared is None else shared,
                                               conformity_score=score, confidence_level=level, empty="keep",
                                               random_state=fold)
                model.fit(features[0], codes[train])
                if shared is None:
                    shared = _SharedForest(model.estimator_)
                kept, was_empty = model.predict_set_with_empty(features[1])
                kept = _all_columns(kept, model.classes_.astype(int), k)
                index = _all_columns(model.predict_proba(features[1]), model.classes_.astype(int), k).argmax(axis=1)
                elapsed = time.perf_counter() - start
                for policy in EMPTY_POLICIES:
                    name = conformal_name(score, level, policy, protocol)
                    sets[name] = _with_policy(kept, index, was_empty, policy)
                    empty[name] = int(was_empty.sum())
                    seconds[name] = elapsed if policy == "keep" else 0.0
                start = time.perf_counter()
    return sets, empty, seconds


def evaluate_fold(dataset: str, fold: int) -> pd.DataFrame:
    """One row per classifier: every lens of :mod:`credalbook.lenses` on the fold's predictions (an empty
    conformal set scored as a miss, :func:`set_lenses`)."""
    from credalbook.lenses import fold_lenses

    y_test, sets, proba, empty, seconds, ordinal = fold_predictions(dataset, fold)
    rows = []
    for name in (c for c in CLASSIFIERS if c in sets):
        row = {"classifier": name, "n_empty": empty.get(name, 0)}
        if name in proba:
            row.update(fold_lenses(y_test, sets[name], proba[name], ordinal_cost=ordinal))
        else:
            row.update(set_lenses(y_test, sets[name], ordinal_cost=ordinal))
        row["seconds"] = seconds[name]
        rows.append(row)
    return pd.DataFrame(rows).reindex(columns=["classifier", "n_empty", *FOLD_COLUMNS, "seconds"])


def holm(pvalues) -> np.ndarray:
    """Holm's (1979) step-down adjusted p-values of a family of tests (same order as ``pvalues``, at most 1).

    The i-th smallest of m p-values becomes max over j ≤ i of (m − j + 1) p₍ⱼ₎; rejecting the adjusted
    values below α controls the family-wise error at α under any dependence.
    """
    from credalbook._validation import check_array

    p = check_array(pvalues, "pvalues", ndim=1, allow_empty=True)
    if np.any((p < 0) | (p > 1)):
        raise ValueError("pvalues must be in [0, 1]")
    order = np.argsort(p, kind="stable")
    m = p.size
    adjusted = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out = np.empty(m)
    out[order] = adjusted
    return out


def coverage_tests(rows: pd.DataFrame, classifiers=None, alpha: float = 0.05) -> pd.DataFrame:
    """Per dataset and conformal classifier, is coverage below the nominal level? Exact binomial tests.

    ``rows`` are the benchmark's (``dataset``, ``classifier``, ``n``, ``coverage`` a covered count per
    fold); ``classifiers`` names of :data:`CONFORMAL` (default: every conformal name in ``rows``). The
    folds of a dataset are pooled (``covered`` of ``n`` test instances) and tested against
    H₀: P(covered) ≥ 1 − α_nominal with the one-sided exact binomial test
    (:func:`scipy.stats.binomtest`, ``alternative="less"``); ``pvalue_holm`` adjusts each classifier's
    p-values over its datasets (:func:`holm`). ``significant`` and ``significant_holm`` compare them
    with ``alpha``.

    The test treats the pooled instances as independent draws at the nominal rate, the reading
    of "valid coverage" a reader checks; a split-conformal guarantee is marginal over the
    calibration draw too, and the test instances of a fold share one calibration quarter, so
    their count is more dispersed than a binomial: the test rejects, if anything, too often.
    """
    from scipy.stats import binomtest

    from credalbook._validation import check_scalar

    check_scalar(alpha, "alpha", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    missing = {"dataset", "classifier", "n", "coverage"} - set(rows.columns)
    if missing:
        raise ValueError(f"rows lacks the columns {sorted(missing)}")
    present = [c for c in CONFORMAL if c in set(rows["classifier"])]
    if classifiers is None:
        classifiers = present
    unknown = [c for c in classifiers if c not in present]
    if unknown:
        raise ValueError(f"classifiers must be conformal classifiers of rows, got {unknown}")
    pooled = (rows[rows["classifier"].isin(classifiers)].groupby(["classifier", "dataset"], sort=False)[["n", "coverage"]]
              .sum().reset_index())
    pooled["covered"] = np.rint(pooled["coverage"]).astype(int)
    pooled["nominal"] = pooled["classifier"].map(lambda c: _VARIANTS[c]["level"])
    pooled["coverage"] = pooled["covered"] / pooled["n"]
    pooled["below"] = pooled["coverage"] < pooled["nominal"]
    pooled["pvalue"] = [binomtest(int(c), int(n), float(q), alternative="less").pvalue
                        for c, n, q in zip(pooled["covered"], pooled["n"], pooled["nominal"])]
    pooled["pvalue_holm"] = pooled.groupby("classifier", sort=False)["pvalue"].transform(lambda p: holm(p.to_numpy()))
    pooled["significant"] = pooled["pvalue"] < alpha
    pooled["significant_holm"] = pooled["pvalue_holm"] < alpha
    order = {name: i for i, name in enumerate(classifiers)}
    pooled = pooled.sort_values(["classifier", "dataset"], key=lambda c: c.map(order) if c.name == "classifier" else c)
    return pooled[["dataset", "classifier", "n", "covered", "coverage", "nominal", "below", "pvalue", "pvalue_holm",
                   "significant", "significant_holm"]].reset_index(drop=True)


def coverage_summary(tests: pd.DataFrame) -> pd.DataFrame:
    """One row per classifier of :func:`coverage_tests`: datasets, mean coverage, how many fall below the
    nominal level, how many significantly (binomial test), and how many after Holm's correction."""
    grouped = tests.groupby("classifier", sort=False)
    return pd.DataFrame({"nominal": grouped["nominal"].first(), "datasets": grouped.size(),
                         "mean_coverage": grouped["coverage"].mean(), "below_nominal": grouped["below"].sum(),
                         "significant": grouped["significant"].sum(),
                         "significant_holm": grouped["significant_holm"].sum()}).reset_index()


def empty_shares(rows: pd.DataFrame) -> pd.DataFrame:
    """Share of the test instances whose conformal set was empty, pooled over every dataset and fold, per
    protocol, score and confidence level (read from the rows with the empty sets kept)."""
    kept = rows[rows["classifier"].map(lambda c: c in _VARIANTS and _VARIANTS[c]["empty"] == "keep")]
    pooled = kept.groupby("classifier", sort=False)[["n_empty", "n"]].sum()
    out = pd.DataFrame([{**{key: _VARIANTS[name][key] for key in ("protocol", "score", "level")},
                         "classifier": name, "empty_share": float(row["n_empty"] / row["n"])}
                        for name, row in pooled.iterrows()])
    return out


#: The scoring lenses whose verdict on conformal sets depends on the empty-set policy (issue 26's four).
POLICY_LENSES = ("u65", "f1", "u80", "p_discounted_cost")


def _lens_table(scores: pd.DataFrame, lens: str, classifiers) -> pd.DataFrame:
    """Datasets × ``classifiers`` of one lens of :func:`credalbook.lenses.dataset_scores`, datasets scoring all."""
    table = scores[scores["lens"] == lens].pivot(index="dataset", columns="classifier", values="value")
    return table.reindex(columns=list(classifiers)).dropna()


def policy_means(scores: pd.DataFrame, lenses=POLICY_LENSES + ("coverage", "set_size"), protocol: str = "split",
                 score: str = "lac", reference=("CMA", "NDC", "RF")) -> pd.DataFrame:
    """Mean over the datasets of each lens for the conformal sets of one protocol and score, at every level and
    under every empty-set policy, beside the ``reference`` classifiers (``scores`` from
    :func:`credalbook.lenses.dataset_scores`): one row per classifier, with its level and policy."""
    names = [conformal_name(score, level, empty, protocol) for level in CONFIDENCE_LEVELS for empty in EMPTY_POLICIES]
    rows = []
    for name in names + list(reference):
        variant = conformal_variant(name) or {}
        row = {"classifier": name, "level": variant.get("level", np.nan), "empty": variant.get("empty", "")}
        for lens in lenses:
            values = scores.loc[(scores["lens"] == lens) & (scores["classifier"] == name), "value"]
            row[lens] = float(values.mean()) if len(values) else np.nan
        rows.append(row)
    return pd.DataFrame(rows)


def policy_ranks(scores: pd.DataFrame, lenses=POLICY_LENSES, protocol: str = "split") -> pd.DataFrame:
    """Where LAC's sets rank in the panel under each empty-set policy (``scores`` from
    :func:`credalbook.lenses.dataset_scores`).

    For each policy of :data:`EMPTY_POLICIES` and lens, the panel is :func:`panel` with that policy and
    ``protocol``; classifiers are ranked by their mean rank over the datasets (Demšar's ranks, ties
    averaged, :func:`credalbook.stats.mean_ranks`). One row per (policy, lens): the best classifier
    (tied ones joined by " = "), and the place (1 = best, of ``n_classifiers``) of LAC at each level.
    """
    from credalbook.lenses import LENSES
    from credalbook.stats import mean_ranks

    rows = []
    for empty in EMPTY_POLICIES:
        classifiers = panel(empty, protocol)
        for lens in lenses:
            ranks = mean_ranks(_lens_table(scores, lens, classifiers), higher_is_better=LENSES[lens].higher_is_better)
            place = ranks.rank(method="min")
            row = {"empty": empty, "lens": lens, "best": " = ".join(ranks.index[ranks == ranks.min()]),
                   "n_classifiers": len(classifiers)}
            for level in CONFIDENCE_LEVELS:
                row[f"LAC-{round(100 * level)}"] = int(place[conformal_name("lac", level, empty, protocol)])
            rows.append(row)
    return pd.DataFrame(rows)


def leak_effect(rows: pd.DataFrame, level: float = 0.9, score: str = "lac", empty: str = "argmax",
                alpha: float = 0.05) -> dict:
    """What fitting MDL on the whole training fold did to coverage: the ``"split"`` protocol's per-dataset
    coverage against the ``"leaky"`` one's at one level, score and policy.

    Returns ``higher``, ``ties``, ``lower`` (datasets where the leak-free coverage is higher, equal,
    lower), ``pvalue`` (two-sided Wilcoxon signed-rank test over the datasets,
    :func:`credalbook.stats.wilcoxon_signed_rank`) and, per protocol, the datasets below the nominal
    level (``below_split``, ``below_leaky``), significantly so (``significant_*``, exact binomial
    test, :func:`coverage_tests`) and after Holm's correction (``holm_*``).
    """
    from credalbook.stats import wilcoxon_signed_rank, wins_ties_losses

    names = {protocol: conformal_name(score, level, empty, protocol) for protocol in ("split", "leaky")}
    tests = coverage_tests(rows, list(names.values()), alpha=alpha)
    table = tests.pivot(index="dataset", columns="classifier", values="coverage").dropna()
    split, leaky = table[names["split"]].to_numpy(), table[names["leaky"]].to_numpy()
    higher, ties, lower = wins_ties_losses(split, leaky)
    out = {"higher": higher, "ties": ties, "lower": lower, "pvalue": wilcoxon_signed_rank(split, leaky, alpha).pvalue}
    for protocol, name in names.items():
        mine = tests[tests["classifier"] == name]
        out[f"below_{protocol}"] = int(mine["below"].sum())
        out[f"significant_{protocol}"] = int(mine["significant"].sum())
        out[f"holm_{protocol}"] = int(mine["significant_holm"].sum())
    return out


def _grid() -> list[dict]:
    """(dataset, fold): run 0 of Part III's ten-fold cross-validation on every dataset of its collection."""
    return [{"dataset": d, "fold": f} for d in benchmark.available_datasets() for f in range(benchmark.N_FOLDS)]


#: Part VII's benchmark (precise, credal and conformal classifiers, the conformal ones under each protocol and
#: empty-set policy; 54 datasets, ten folds, every lens; one row per dataset, fold and classifier).
SYNTHESIS = register(Experiment(
    name=NAME,
    description="Part VII: precise, credal and conformal classifiers on Part III's folds, every lens",
    task=evaluate_fold,
    grid=_grid,
    ci=lambda config: config["dataset"] in CI_DATASETS and config["fold"] == 0,
    keys=("dataset", "fold", "classifier"),
    values=("n_empty",) + FOLD_COLUMNS,  # not the timings
    atol=1e-6,
    version="2",
))
