"""Supervised preprocessing of Zaffalon, Corani & Mauá (2012, §9.1.3): MDL discretisation and CFS.

* :class:`MDLDiscretizer` — Fayyad & Irani's (1993) entropy discretisation with the minimum
  description length stopping rule, as in Weka's ``supervised.attribute.Discretize`` and in
  JNCC2's ``MdlDiscretizer`` (the two programs choose the cut in different ways, see
  ``selection``). Fitted on training data only; numeric columns become integer codes,
  nominal (Categorical) columns pass through as their codes.
* :class:`CFSSelector` — Hall's (1999) correlation-based feature selection with symmetrical
  uncertainty on discrete features and best-first forward search stopping after five
  non-improving expansions (Weka's ``CfsSubsetEval`` + ``BestFirst`` defaults).
* :func:`missing_as_category` — the alternative to treating missing values as missing at
  random: each missing value becomes one more value of its feature.

Both are scikit-learn transformers. Their output is a DataFrame of pandas Categoricals whose
categories are the integer codes ``0..m_j-1`` (so the number of values of each feature
travels with the data into :mod:`credalbook.classifiers`); missing values stay missing.
"""
from __future__ import annotations

import heapq

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from credalbook._mdl import entropy_rows, mdl_cuts
from credalbook.discrete import MISSING, categorical_codes, check_discrete_X, encode_labels, validated_input

__all__ = ["mdl_accepts", "MDLDiscretizer", "missing_as_category", "symmetrical_uncertainty", "cfs_merit",
           "CFSSelector"]


# ----------------------------------------------------------------------------------------------
# MDL discretisation
# ----------------------------------------------------------------------------------------------
def mdl_accepts(counts: np.ndarray, left: np.ndarray) -> tuple[bool, float, float]:
    """Fayyad–Irani MDL test of splitting class counts ``counts`` into ``left`` and the rest.

    Accept iff Gain > [log2(N−1) + log2(3^k − 2) − (k·H − k1·H1 − k2·H2)] / N
    (Fayyad & Irani 1993, eq. of the MDLPC criterion; k, k1, k2 numbers of classes present).
    Returns ``(accepted, gain, threshold)``.
    """
    counts = np.asarray(counts, dtype=float)
    left = np.asarray(left, dtype=float)
    right = counts - left
    n, n1, n2 = counts.sum(), left.sum(), right.sum()
    if n1 <= 0 or n2 <= 0:
        raise ValueError("left must leave instances on both sides of the cut")
    h, h1, h2 = entropy_rows(counts), entropy_rows(left), entropy_rows(right)
    gain = h - (n1 * h1 + n2 * h2) / n
    k, k1, k2 = (np.count_nonzero(c) for c in (counts, left, right))
    delta = np.log2(3.0 ** k - 2) - (k * h - k1 * h1 - k2 * h2)
    threshold = (np.log2(n - 1) + delta) / n
    return bool(gain > threshold), float(gain), float(threshold)


class MDLDiscretizer(TransformerMixin, BaseEstimator):
    """Fayyad–Irani MDL discretisation of numeric columns, fitted on training data only.

    Parameters
    ----------
    selection
        ``"entropy"`` (the default) (Weka and Fayyad & Irani) chooses the cut of least class entropy, then
        keeps it iff it passes the MDL test; ``"gain"`` (JNCC2 1.11) chooses the cut of largest
        gain among those that pass the MDL test.
    nominal
        Column names (DataFrame) or indices (array) to pass through as codes; pandas
        Categorical columns are always nominal.

    Attributes
    ----------
    cuts_
        The cuts of each column, None for a nominal column.

    Notes
    -----
    A value equal to a cut goes to the lower interval (Weka and JNCC2). Missing values are
    ignored when fitting and stay missing. A numeric column without cuts becomes a
    single-valued feature, which the book's classifiers ignore (as JNCC2 drops it).
    """

    def __init__(self, selection: str = "entropy", nominal=None):
        self.selection = selection
        self.nominal = nominal

    def _columns(self, X):
        if isinstance(X, pd.DataFrame):
            return list(X.columns), [X[c] for c in X.columns]
        array = np.asarray(X)
        if array.ndim != 2:
            raise ValueError(f"X must be 2-dimensional, got shape {array.shape}")
        return list(range(array.shape[1])), [pd.Series(array[:, j]) for j in range(array.shape[1])]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True  # Categorical columns pass through as codes
        tags.input_tags.allow_nan = True    # a missing value stays missing
        return tags

    def fit(self, X, y):
        if self.selection not in ("entropy", "gain"):
            raise ValueError(f"selection must be 'entropy' or 'gain', got {self.selection!r}")
        X = validated_input(self, X, reset=True)
        names, columns = self._columns(X)
        if not names:
            raise ValueError("X has no columns")
        _, labels = encode_labels(y, "y")
        if len(labels) != len(columns[0]):
            raise ValueError(f"inconsistent numbers of instances: X has {len(columns[0])}, y has {len(labels)}")
        nominal = set(self.nominal or [])
        unknown = nominal - set(names)
        if unknown:
            raise ValueError(f"nominal names columns {sorted(unknown, key=str)} that X does not have")
        n_classes = int(labels.max()) + 1
        self.cuts_, self.categories_ = [], []
        numeric, values, classes = [], [], []
        for name, column in zip(names, columns):
            if isinstance(column.dtype, pd.CategoricalDtype) or name in nominal:
                self.cuts_.append(None)
                self.categories_.append(column.cat.categories if isinstance(column.dtype, pd.CategoricalDtype)
                                        else None)
                continue
            try:
                column_values = column.to_numpy(dtype=float)
            except (TypeError, ValueError):
                raise ValueError(f"X column {name!r} is neither numeric nor Categorical: declare it in nominal") from None
            observed = ~np.isnan(column_values)
            numeric.append(len(self.cuts_))
            values.append(column_values[observed])
            classes.append(labels[observed])
            self.cuts_.append(None)
            self.categories_.append(None)
        # every numeric column's search at once (credalbook._mdl)
        for position, cuts in zip(numeric, mdl_cuts(values, classes, n_classes, self.selection)):
            self.cuts_[position] = cuts
        return self

    def transform(self, X) -> pd.DataFrame:
        """DataFrame of Categoricals with integer categories 0..m_j−1 (m_j = cuts + 1 for numeric columns)."""
        check_is_fitted(self, "cuts_")
        X = validated_input(self, X, reset=False)
        names, columns = self._columns(X)
        out = {}
        for name, column, cuts, categories in zip(names, columns, self.cuts_, self.categories_):
            if cuts is None:
                if categories is not None:
                    if not isinstance(column.dtype, pd.CategoricalDtype):
                        raise ValueError(f"X column {name!r} was Categorical in fit but is {column.dtype} now")
                    codes, m = categorical_codes(column, categories), len(categories)
                else:
                    codes, n_values, _ = check_discrete_X(pd.DataFrame({name: column}), "X")
                    codes, m = codes[:, 0], int(n_values[0])
            else:
                values = column.to_numpy(dtype=float)
                codes = np.searchsorted(cuts, values, side="left").astype(np.int64)
                codes[np.isnan(values)] = MISSING
                m = cuts.size + 1
            out[name] = pd.Categorical.from_codes(codes, categories=np.arange(max(m, 1)))
        return pd.DataFrame(out, index=X.index if isinstance(X, pd.DataFrame) else None)


def missing_as_category(X: pd.DataFrame) -> pd.DataFrame:
    """Discretised ``X`` (Categoricals with categories ``0..m_j-1``) with missing values coded as value ``m_j``.

    Every column gains the extra category, whether or not it has missing values, so training and
    test folds coded separately stay aligned. A classifier then learns "missing" as an ordinary
    value instead of ignoring it (the missing-at-random treatment of NCC2, Corani & Zaffalon 2008).
    """
    if not isinstance(X, pd.DataFrame):
        raise ValueError(f"X must be a DataFrame of Categoricals (the output of MDLDiscretizer), got {type(X).__name__}")
    out = {}
    for name in X.columns:
        column = X[name]
        if not isinstance(column.dtype, pd.CategoricalDtype):
            raise ValueError(f"X column {name!r} is {column.dtype}, not Categorical: discretise it first")
        m = len(column.cat.categories)
        if not np.array_equal(column.cat.categories, np.arange(m)):
            raise ValueError(f"X column {name!r} must have categories 0..{m - 1} (the output of MDLDiscretizer)")
        codes = column.cat.codes.to_numpy(dtype=np.int64)
        out[name] = pd.Categorical.from_codes(np.where(codes == MISSING, m, codes), categories=np.arange(m + 1))
    return pd.DataFrame(out, index=X.index)


# ----------------------------------------------------------------------------------------------
# CFS
# ----------------------------------------------------------------------------------------------
def _contingency(a: np.ndarray, b: np.ndarray, ma: int, mb: int) -> np.ndarray:
    """Joint counts of two coded columns, missing values spread in proportion to the observed marginals."""
    table = np.zeros((ma + 1, mb + 1))
    np.add.at(table, (np.where(a < 0, ma, a), np.where(b < 0, mb, b)), 1)
    observed = table[:ma, :mb].copy()
    total = observed.sum()
    if total == 0:
        return observed
    row_p = observed.sum(axis=1) / total
    col_p = observed.sum(axis=0) / total
    spread = observed + np.outer(row_p, table[ma, :mb]) + np.outer(table[:ma, mb], col_p)
    return spread + table[ma, mb] * observed / total


def symmetrical_uncertainty(table: np.ndarray) -> float:
    """SU = 2·[H(A) + H(B) − H(A,B)] / [H(A) + H(B)] of a joint count table (Hall 1999, eq. 4.?; 0 if both constant)."""
    table = np.asarray(table, dtype=float)
    h_a = entropy_rows(table.sum(axis=1))
    h_b = entropy_rows(table.sum(axis=0))
    h_ab = entropy_rows(table.ravel())
    if h_a + h_b <= 0:
        return 0.0
    return float(2.0 * (h_a + h_b - h_ab) / (h_a + h_b))


def cfs_merit(subset, class_corr: np.ndarray, feature_corr: np.ndarray) -> float:
    """Hall's merit k·r̄_cf / sqrt(k + k(k−1)·r̄_ff) of a feature subset (Hall 1999, eq. 4.1)."""
    subset = list(subset)
    if not subset:
        return 0.0
    numerator = class_corr[subset].sum()
    denominator = feature_corr[np.ix_(subset, subset)].sum()
    return float(numerator / np.sqrt(denominator)) if denominator > 0 else 0.0


class CFSSelector(TransformerMixin, BaseEstimator):
    """Correlation-based feature selection (Hall 1999) with best-first forward search.

    Correlations are symmetrical uncertainties on the discrete features (discretise numeric
    features first: put it after :class:`MDLDiscretizer` in a pipeline). The search starts
    from the empty set, expands the best open subset by adding one feature, and stops after
    ``search_termination`` consecutive expansions that do not improve the best merit by more
    than 10⁻⁵ (Weka's ``BestFirst -D 1 -N 5``). ``support_`` is the boolean mask of kept
    features; if no subset has positive merit, the single feature most correlated with the
    class is kept so that a classifier always has an input.
    """

    def __init__(self, search_termination: int = 5):
        self.search_termination = search_termination

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True  # discrete codes or Categorical columns
        tags.input_tags.allow_nan = True    # NaN (or -1) marks a missing value
        return tags

    def fit(self, X, y):
        if not isinstance(self.search_termination, (int, np.integer)) or self.search_termination < 1:
            raise ValueError(f"search_termination must be a positive integer, got {self.search_termination!r}")
        X = validated_input(self, X, reset=True)
        codes, n_values, _ = check_discrete_X(X, "X")
        _, labels = encode_labels(y, "y")
        if codes.shape[0] != labels.size:
            raise ValueError(f"inconsistent numbers of instances: X has {codes.shape[0]}, y has {labels.size}")
        d = codes.shape[1]
        k = int(labels.max()) + 1
        m = np.maximum(n_values, 1)
        class_corr = np.array([symmetrical_uncertainty(_contingency(codes[:, j], labels, m[j], k)) for j in range(d)])
        feature_corr = np.eye(d)
        for i in range(d):
            for j in range(i + 1, d):
                feature_corr[i, j] = feature_corr[j, i] = symmetrical_uncertainty(
                    _contingency(codes[:, i], codes[:, j], m[i], m[j]))
        self.class_correlation_ = class_corr
        self.feature_correlation_ = feature_corr
        selected = self._best_first(class_corr, feature_corr)
        if not selected:
            selected = (int(np.argmax(class_corr)),)
        self.support_ = np.zeros(d, dtype=bool)
        self.support_[list(selected)] = True
        self.merit_ = cfs_merit(selected, class_corr, feature_corr)
        return self

    def _best_first(self, class_corr, feature_corr) -> tuple:
        d = class_corr.size
        start: tuple = ()
        best, best_merit = start, 0.0
        open_list = [(-0.0, 0, start)]
        visited = {frozenset()}
        counter, stale = 1, 0
        while open_list and stale < self.search_termination:
            _, _, subset = heapq.heappop(open_list)
            improved = False
            for j in range(d):
                if j in subset:
                    continue
                child = tuple(sorted(subset + (j,)))
                key = frozenset(child)
                if key in visited:
                    continue
                visited.add(key)
                merit = cfs_merit(child, class_corr, feature_corr)
                heapq.heappush(open_list, (-merit, counter, child))
                counter += 1
                if merit - best_merit > 1e-5:
                    best, best_merit, improved = child, merit, True
            stale = 0 if improved else stale + 1
        return best

    def transform(self, X):
        check_is_fitted(self, "support_")
        X = validated_input(self, X, reset=False)
        if isinstance(X, pd.DataFrame):
            return X.loc[:, self.support_]
        return X[:, self.support_]

    def get_support(self) -> np.ndarray:
        check_is_fitted(self, "support_")
        return self.support_.copy()
