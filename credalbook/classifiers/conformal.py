"""Split conformal prediction sets (computed by MAPIE) as a set-valued classifier of the book.

Split (inductive) conformal prediction (Vovk, Gammerman & Shafer 2005, *Algorithmic Learning in a
Random World*, ch. 4; Angelopoulos & Bates 2023, *Conformal Prediction: A Gentle Introduction*,
§1–2) turns any probabilistic classifier into one predicting sets with *marginal* coverage: the
training data are split into a proper-training part, on which the classifier is fitted, and a
conformalisation (calibration) part of n instances, on which non-conformity scores s_i are
computed; with α = 1 − ``confidence_level`` and q̂ the ⌈(n + 1)(1 − α)⌉-th smallest s_i, the set

    C(x) = {k : s(x, k) ≤ q̂}

contains the true class of a new exchangeable instance with probability at least 1 − α (on
average over the calibration and test draws). Two scores (MAPIE's names):

* ``"lac"``, the least ambiguous set-valued classifier (Sadinle, Lei & Wasserman 2019, JASA 114):
  s(x, k) = 1 − p_k(x), so C(x) = {k : p_k(x) ≥ 1 − q̂}. With the true probabilities its sets
  are the smallest on average for their coverage; it can give the *empty* set, when no class
  is probable enough.
* ``"aps"``, adaptive prediction sets (Romano, Sesia & Candès 2020, NeurIPS): s(x, k) is the
  probability mass of the classes at least as probable as k (the calibration scores randomised
  by a uniform draw, as in the paper); C(x) is the smallest set of most probable classes whose
  mass reaches q̂, the last class included (MAPIE's ``include_last_label=True``, deterministic;
  never empty).

The quantile, the scores and the sets are MAPIE's (``mapie.classification.SplitConformalClassifier``
with ``prefit=True``, MAPIE 1.6: Cordier et al. 2023, PMLR 204); this module splits the data,
fits the classifier, keeps the columns of every class of ``classes_`` and applies the empty-set
policy (``empty``: kept, the most probable class, or all classes). MAPIE is imported when a
model is fitted, so ``import credalbook`` does not load it.
"""
from __future__ import annotations

import numbers
import warnings
from decimal import Decimal

import numpy as np
import pandas as pd

from credalbook._validation import check_scalar
from credalbook.classifiers.base import ProbabilisticSetClassifier
from credalbook.discrete import encode_labels

__all__ = ["ConformalSetClassifier", "conformal_split"]

# MAPIE's names of the conformity scores supported here, and the rules for an empty set
_SCORES = ("lac", "aps")
_EMPTY_RULES = ("argmax", "keep", "all")


def _check_random_state(random_state, name: str = "random_state") -> np.random.RandomState:
    """``random_state`` (None, an integer in [0, 2**32) or a RandomState) as a RandomState."""
    from sklearn.utils import check_random_state

    if random_state is None or isinstance(random_state, np.random.RandomState):
        return check_random_state(random_state)
    if isinstance(random_state, bool) or not isinstance(random_state, numbers.Integral):
        raise ValueError(f"{name} must be None, an integer or a numpy RandomState, got {random_state!r}")
    check_scalar(int(random_state), name, low=0, high=2**32 - 1, integer=True)
    return np.random.RandomState(int(random_state))


def _check_calibration_size(calibration_size) -> float:
    return float(check_scalar(calibration_size, "calibration_size", low=0.0, high=1.0,
                              low_inclusive=False, high_inclusive=False))


def conformal_split(y, calibration_size: float = 0.25, random_state=0) -> tuple[np.ndarray, np.ndarray]:
    """``(proper, calibration)``: sorted row indices of the proper-training and conformalisation parts.

    The split is stratified by class, with a rule that never fails: a class with m ≥ 2
    instances sends round(``calibration_size`` · m) of them (halves rounded up), but at least
    one and at most m − 1, chosen at random, to the conformalisation part, so that both parts
    hold every such class; the single instance of a class with m = 1 stays in the proper-training
    part, so that the classifier learns every observed class (the conformalisation part then
    lacks that class). Like any stratification, the rule makes the conformalisation instances
    only approximately exchangeable with a new one, which the coverage guarantee assumes: a
    class too rare to be calibrated weighs nothing in the quantile. The rows are drawn with one
    permutation of ``random_state`` (None, an integer or a numpy RandomState), so that an
    integer gives the same split as :class:`ConformalSetClassifier` fitted with it.

    Examples
    --------
    >>> proper, calibration = conformal_split(["a"] * 4 + ["b"] * 4, calibration_size=0.25)
    >>> proper.tolist(), calibration.tolist()
    ([0, 1, 3, 4, 5, 7], [2, 6])
    """
    _, codes = encode_labels(y, "y")
    size = _check_calibration_size(calibration_size)
    return _split_codes(codes, size, _check_random_state(random_state))


def _split_codes(codes: np.ndarray, size: float, rng: np.random.RandomState) -> tuple[np.ndarray, np.ndarray]:
    order = rng.permutation(codes.size)
    shuffled = codes[order]
    counts = np.bincount(codes)
    wanted = np.floor(size * counts + 0.5).astype(np.int64)
    wanted = np.where(counts >= 2, np.clip(wanted, 1, counts - 1), 0)
    # rank of each shuffled row among the rows of its class (0 for its class's first row, ...)
    first = np.argsort(shuffled, kind="stable")
    rank = np.empty(codes.size, dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    rank[first] = np.arange(codes.size) - np.repeat(starts, counts)
    to_calibration = rank < wanted[shuffled]
    return np.sort(order[~to_calibration]), np.sort(order[to_calibration])


class _Prefitted:
    """A fitted classifier as MAPIE sees it: ``classes_``, ``predict`` and ``predict_proba`` only.

    Without ``n_features_in_``, MAPIE 1.6's check that a prefit estimator is fitted does not
    predict an all-zero row, which is not an instance of the data (it fails, e.g., for a model
    with categorical inputs).
    """

    def __init__(self, estimator):
        self.estimator = estimator
        self.classes_ = estimator.classes_

    def fit(self, X, y):  # pragma: no cover - MAPIE never fits a prefit estimator
        raise RuntimeError("the estimator is fitted once, by ConformalSetClassifier.fit")

    def predict(self, X):
        return self.estimator.predict(X)

    def predict_proba(self, X):
        return self.estimator.predict_proba(X)


class ConformalSetClassifier(ProbabilisticSetClassifier):
    """Split conformal prediction sets (LAC or APS, computed by MAPIE) on top of ``estimator``.

    Parameters (stored unchanged, checked in ``fit`` with a ``ValueError`` naming the argument):

    * ``estimator``: any scikit-learn classifier with ``predict_proba``; a clone is fitted. A
      :class:`sklearn.frozen.FrozenEstimator` is used as it is (its clone is itself and its
      ``fit`` does nothing): wrapping the ``estimator_`` of a fitted classifier lets others with
      the same data, ``calibration_size`` and integer ``random_state``, whose proper-training
      part is the same, share that fit and only conformalise it at their own score and level.
      Its ``classes_`` must be those of the proper-training part.
    * ``conformity_score``: ``"lac"`` (Sadinle, Lei & Wasserman 2019) or ``"aps"`` (Romano,
      Sesia & Candès 2020; MAPIE refuses it for a binary target, so it needs three classes
      in the conformalisation part).
    * ``confidence_level``: 1 − α in (0, 1), the marginal coverage the sets guarantee.
    * ``calibration_size``: the share of the training data, in (0, 1), held out to
      conformalise (split by :func:`conformal_split`). MAPIE needs at least
      max(1/α, 1/(1 − α)) conformalisation instances (10 for a confidence level of 0.9). With
      fewer, every set is the vacuous set of all K classes and ``conformalizer_`` is None: the
      conformal quantile is +∞ when ⌈(n + 1)(1 − α)⌉ > n (Angelopoulos & Bates 2023, §1), and the
      vacuous set keeps the coverage guarantee where MAPIE's condition is stricter than that.
    * ``empty``: what an empty conformal set becomes (the empty-set policy): ``"argmax"``
      (default: the singleton of the estimator's most probable class), ``"keep"`` (an empty
      row, what MAPIE returns) or ``"all"`` (the vacuous set of all K classes).
    * ``random_state``: None, an integer or a numpy RandomState; draws the split and then the
      seed of MAPIE's randomisation of the APS calibration scores.

    ``fit(X, y)`` codes the labels (a pandas Categorical keeps its declared classes), splits
    the data with :func:`conformal_split`, fits a clone of ``estimator`` on the proper-training
    part (on the labels themselves), and conformalises it with MAPIE's
    ``SplitConformalClassifier(estimator_, prefit=True).conformalize(...)`` on the other part
    (MAPIE is handed ``estimator_`` behind an adapter exposing only ``classes_``, ``predict``
    and ``predict_proba``, so that its check of a prefit model does not predict a row of zeros,
    which fails for models with categorical inputs).
    Fitted attributes: ``classes_`` (K labels), ``n_classes_``, ``estimator_``,
    ``conformalizer_`` (the MAPIE object, None when the sets are vacuous), ``n_features_in_``
    (and ``feature_names_in_``).

    *Columns.* ``predict_proba`` and ``predict_set`` have one column per class of ``classes_``,
    in that order. A class the proper-training part lacks (a class declared by a Categorical
    ``y`` but absent, as in a cross-validation fold) is unknown to ``estimator_``: its
    probability is 0, it is never predicted, and it is in no set but a vacuous one (all K classes:
    too small a conformalisation part, or an empty set under ``empty="all"``).

    *Empty sets: three policies.* LAC returns the empty set when no class reaches 1 − q̂: the
    estimator finds no class probable enough (Sadinle, Lei & Wasserman 2019 note that their
    classifier can output the empty set, and propose remedies). How an empty set is scored
    decides much of a comparison with credal classifiers, which never return it (Part VII
    measures every conformal result under the three policies), so the policy is a parameter:

    - ``empty="keep"``: MAPIE's sets as they are. An empty set never contains the true class:
      it is a miss, and it counts towards the 1 − α coverage (the guarantee is met *with*
      empty sets). The book's set measures refuse an empty row
      (:func:`credalbook.sets.check_set_matrix`); score it as a miss yourself.
    - ``empty="argmax"`` (default): the singleton of the estimator's most probable class, the
      smallest non-empty set and the point prediction. Sets only grow, so the coverage
      guarantee holds, and coverage rises above what MAPIE's sets give.
    - ``empty="all"``: the vacuous set of all K classes, the cautious reading of "no class is
      probable enough"; coverage rises more, and the instance adds nothing to determinacy.

    Prediction does not change the estimator (scikit-learn's rule), so the number of empty sets
    is not recorded on it: :meth:`predict_set_with_empty` returns the sets *and* which of them
    were empty before the policy, from one call of MAPIE.

    ``predict`` is the estimator's most probable class, which every non-empty LAC or APS set
    contains (both keep the classes above a probability cut); ``predict_proba`` the
    estimator's probabilities.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> X, y = load_iris(return_X_y=True)
    >>> model = ConformalSetClassifier(LogisticRegression(max_iter=1000), confidence_level=0.9).fit(X, y)
    >>> model.predict_set(X[[0, 70, 120]]).astype(int).tolist()
    [[1, 0, 0], [0, 0, 1], [0, 0, 1]]
    >>> sets, was_empty = model.predict_set_with_empty(X)
    >>> sets.shape, bool(sets.any(axis=1).all())
    ((150, 3), True)
    """

    def __init__(self, estimator, conformity_score: str = "lac", confidence_level: float = 0.9,
                 calibration_size: float = 0.25, empty: str = "argmax", random_state=0):
        super().__init__(estimator)
        self.conformity_score = conformity_score
        self.confidence_level = confidence_level
        self.calibration_size = calibration_size
        self.empty = empty
        self.random_state = random_state

    def _check_parameters(self):
        if not isinstance(self.conformity_score, str) or self.conformity_score not in _SCORES:
            raise ValueError(f"conformity_score must be one of {', '.join(map(repr, _SCORES))}, "
                             f"got {self.conformity_score!r}")
        check_scalar(self.confidence_level, "confidence_level", low=0.0, high=1.0, low_inclusive=False,
                     high_inclusive=False)
        _check_calibration_size(self.calibration_size)
        if not isinstance(self.empty, str) or self.empty not in _EMPTY_RULES:
            raise ValueError(f"empty must be one of {', '.join(map(repr, _EMPTY_RULES))}, got {self.empty!r}")
        return _check_random_state(self.random_state)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()   # the estimator's input tags, but MAPIE refuses sparse input
        tags.input_tags.sparse = False
        return tags

    def _check_X(self, X, reset: bool) -> None:
        from scipy import sparse

        if sparse.issparse(X):
            raise TypeError("Sparse data was passed for X, but dense data is required: MAPIE's conformalisation does "
                            "not take sparse input (use X.toarray())")
        super()._check_X(X, reset)

    def fit(self, X, y):
        """Fit ``estimator`` on the proper-training part and conformalise it on the rest (see the class)."""
        from sklearn.base import clone
        from sklearn.utils import _safe_indexing
        from sklearn.utils.validation import column_or_1d, indexable

        if not hasattr(self.estimator, "predict_proba"):
            raise ValueError(f"estimator must have predict_proba, got {type(self.estimator).__name__}")
        rng = self._check_parameters()
        if not isinstance(getattr(y, "dtype", None), pd.CategoricalDtype):
            y = column_or_1d(y, warn=True)
        classes, codes = encode_labels(y, "y")
        self._check_X(X, reset=True)
        X, codes = indexable(X, codes)  # rows can be taken (sparse matrices as CSR); equal lengths
        present = np.unique(codes)
        if present.size < 2:
            raise ValueError(f"y has {present.size} class: at least two classes are needed")
        proper, calibration = _split_codes(codes, _check_calibration_size(self.calibration_size), rng)
        alpha = float(Decimal(1) - Decimal(str(float(self.confidence_level))))  # as MAPIE computes it
        needed = max(1.0 / alpha, 1.0 / (1.0 - alpha))
        if self.conformity_score == "aps" and np.unique(codes[calibration]).size < 3:
            raise ValueError(f"conformity_score='aps' needs at least three classes in the conformalisation part "
                             f"(MAPIE refuses it for a binary target), which has "
                             f"{np.unique(codes[calibration]).size}: use conformity_score='lac'")
        labels = classes[codes]
        estimator = clone(self.estimator).fit(_safe_indexing(X, proper), labels[proper])
        learnt, proper_classes = np.asarray(estimator.classes_), np.unique(labels[proper])
        if learnt.size != proper_classes.size or set(learnt.tolist()) != set(proper_classes.tolist()):
            raise ValueError(f"estimator's classes_ {learnt.tolist()} are not those of the proper-training part, "
                             f"{proper_classes.tolist()} (a FrozenEstimator must be fitted on the proper-training "
                             f"part of conformal_split(y, calibration_size, random_state))")
        self.classes_ = classes
        self.n_classes_ = int(classes.size)
        self.estimator_ = estimator
        self.conformalizer_ = None
        if calibration.size < needed:  # the quantile is +inf: vacuous sets (see the class docstring)
            return self
        from mapie.classification import SplitConformalClassifier

        conformalizer = SplitConformalClassifier(estimator=_Prefitted(estimator),
                                                 confidence_level=float(self.confidence_level),
                                                 conformity_score=self.conformity_score, prefit=True,
                                                 random_state=int(rng.randint(np.iinfo(np.int32).max)))
        with warnings.catch_warnings():
            # a class with a single instance is in the proper-training part only (conformal_split's rule)
            warnings.filterwarnings("ignore", message=".*conformalization dataset has less labels")
            conformalizer.conformalize(_safe_indexing(X, calibration), labels[calibration])
        self.conformalizer_ = conformalizer
        return self

    def _columns(self) -> np.ndarray:
        """Positions in ``classes_`` of the estimator's classes (the columns of its ``predict_proba``)."""
        return pd.Index(self.classes_).get_indexer(np.asarray(self.estimator_.classes_))

    def predict_proba(self, X) -> np.ndarray:
        """(n, K) probabilities of the estimator, columns ordered as ``classes_`` (0 for a class it never saw)."""
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self, "estimator_")
        self._check_X(X, reset=False)
        proba = np.asarray(self.estimator_.predict_proba(X), dtype=float)
        full = np.zeros((proba.shape[0], self.n_classes_))
        full[:, self._columns()] = proba
        return full

    def predict_set_with_empty(self, X) -> tuple[np.ndarray, np.ndarray]:
        """``(sets, was_empty)``: the (n, K) boolean sets (after the ``empty`` policy) and, (n,) boolean,
        which conformal sets were empty before the policy."""
        sets, _, was_empty = self._predict(X)
        return sets, was_empty

    def predict_with_set(self, X) -> tuple[np.ndarray, np.ndarray]:
        """``(predict_set(X), predict_index(X))`` from one call of MAPIE."""
        sets, index, _ = self._predict(X)
        return sets, index

    def _predict(self, X) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        from credalbook._validation import check_probabilities

        proba = check_probabilities(self.predict_proba(X), "predict_proba output")
        index = np.argmax(proba, axis=1)
        if self.conformalizer_ is None:
            return np.ones(proba.shape, dtype=bool), index, np.zeros(proba.shape[0], dtype=bool)
        _, conformal = self.conformalizer_.predict_set(X)
        sets = np.zeros(proba.shape, dtype=bool)
        sets[:, self._columns()] = np.asarray(conformal, dtype=bool)[:, :, 0]
        was_empty = ~sets.any(axis=1)
        if self.empty == "argmax":
            sets[was_empty, index[was_empty]] = True
        elif self.empty == "all":
            sets[was_empty] = True
        return sets, index, was_empty
