"""Supervised preprocessing of Zaffalon, Corani & Mauá (2012, §9.1.3): MDL discretisation and CFS.

* :class:`MDLDiscretizer` — Fayyad & Irani's (1993) entropy discretisation with the minimum
  description length stopping rule, as in Weka's ``supervised.attribute.Discretize`` and in
  JNCC2's ``MdlDiscretizer`` (the two programs choose and weigh the cuts in different ways, see
  ``convention``). Fitted on training data only; numeric columns become integer codes,
  nominal (Categorical) columns pass through as their codes.
* :class:`CFSSelector` — Hall's (1999) correlation-based feature selection with symmetrical
  uncertainty on discrete features and best-first forward search stopping after five
  non-improving expansions (Weka's ``CfsSubsetEval`` + ``BestFirst`` defaults);
  ``convention="weka"`` with ``locally_predictive=True`` is Weka 3.9's computation exactly
  (``tests/test_weka_golden.py`` compares it with Weka on every fold of the benchmark).
* :func:`missing_as_category` — the alternative to treating missing values as missing at
  random: each missing value becomes one more value of its feature.

Both are scikit-learn transformers. Their output is a DataFrame of pandas Categoricals whose
categories are the integer codes ``0..m_j-1`` (so the number of values of each feature
travels with the data into :mod:`credalbook.classifiers`); missing values stay missing.
"""
from __future__ import annotations

import functools
import heapq

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from sklearn.utils._set_output import _get_output_config
from sklearn.utils.validation import check_is_fitted

from credalbook._mdl import entropy_rows, jncc2_mdl_cuts, mdl_cuts
from credalbook._validation import check_array
from credalbook.discrete import (MISSING, _categorical_codes, _check_category_count, check_discrete_X, encode_labels,
                                 validated_input)

__all__ = ["mdl_accepts", "MDLDiscretizer", "missing_as_category", "symmetrical_uncertainty", "cfs_merit",
           "CFSSelector", "weka_cfs"]


# ----------------------------------------------------------------------------------------------
# MDL discretisation
# ----------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=256)
def _code_dtype(m: int) -> pd.CategoricalDtype:
    """The dtype of a coded feature of ``m`` values: a Categorical with categories ``0..m-1`` (made once per ``m``)."""
    return pd.CategoricalDtype(np.arange(m))


def mdl_accepts(counts: np.ndarray, left: np.ndarray) -> tuple[bool, float, float]:
    """Fayyad–Irani MDL test of splitting class counts ``counts`` into ``left`` and the rest.

    Accept iff Gain > [log2(N−1) + log2(3^k − 2) − (k·H − k1·H1 − k2·H2)] / N
    (Fayyad & Irani 1993, eq. of the MDLPC criterion; k, k1, k2 numbers of classes present).
    Returns ``(accepted, gain, threshold)``.

    Parameters
    ----------
    counts : array-like
        The class counts of the interval, (K,), non-negative.
    left : array-like
        The class counts below the cut, (K,), at most ``counts`` class by class, leaving
        instances on both sides.

    Examples
    --------
    A cut that separates two classes of four instances each is accepted; one that leaves a
    mixed part is not:

    >>> mdl_accepts([4, 4], [4, 0])
    (True, 1.0, 0.45183873051440104)
    >>> accepted, gain, threshold = mdl_accepts([4, 4], [3, 1])
    >>> accepted, round(gain, 3), round(threshold, 3)
    (False, 0.189, 0.857)
    """
    counts = check_array(counts, "counts", ndim=1)
    left = check_array(left, "left", ndim=1)
    if left.shape != counts.shape:
        raise ValueError(f"left must have one count per class as counts does ({counts.size}), got {left.size}")
    if np.any(counts < 0) or np.any(left < 0):
        raise ValueError(f"counts and left must be non-negative class counts, got counts={counts.tolist()}, "
                         f"left={left.tolist()}")
    if np.any(left > counts):
        j = int(np.flatnonzero(left > counts)[0])
        raise ValueError(f"left must be at most counts class by class (the instances left of the cut are some of "
                         f"all the instances): class {j} has left {left[j]:g} > counts {counts[j]:g}")
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


#: the conventions of MDLDiscretizer's cut search
_MDL_CONVENTIONS = ("book", "jncc2")


class MDLDiscretizer(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Fayyad–Irani MDL discretisation of numeric columns, fitted on training data only.

    Parameters
    ----------
    selection
        ``"entropy"``, ``"gain"`` or None (the default): how the cut of an interval is chosen. ``"entropy"`` (Weka and Fayyad & Irani) chooses the
        cut of least class entropy, then keeps it iff it passes the MDL test; ``"gain"`` (JNCC2
        1.11) chooses the cut of largest gain among those that pass the MDL test. None: the
        convention's own, ``"entropy"`` for ``"book"`` and ``"gain"`` for ``"jncc2"``.
    nominal
        None (the default) or a list of column names (DataFrame) or indices (array) to pass through as nominal features.
        pandas Categorical columns are always nominal. A declared column of integer codes
        passes through as its codes; a declared column of any other values (strings, say) is
        coded by its values sorted as pandas sorts a Categorical's categories, learnt in ``fit``
        (a value unseen in ``fit`` becomes missing).
    convention
        ``"book"`` (the default) or ``"jncc2"``. ``"book"``: the recursive search of ``credalbook._mdl.mdl_cuts``, Weka 3.9's
        ``supervised.attribute.Discretize`` with ``selection="entropy"`` (its cut points, bit for
        bit, on every fold of the benchmark: ``tests/test_weka_golden.py``). ``"jncc2"``: JNCC2
        1.11's ``MdlDiscretizer`` (``credalbook._mdl.jncc2_mdl_cuts``): the cut of largest
        gain, and a cut that leaves a single training instance above it is not weighed; its cut
        points equal JNCC2's on the 54 datasets of ``tests/golden/jncc2/``. Only
        ``selection="gain"`` (or None) goes with it.

    Attributes
    ----------
    cuts_
        list: the cuts of each column (a sorted float array), None for a nominal column.
    categories_
        list: the categories of each nominal column coded by its values (a Categorical's, or those
        learnt from a declared column of strings), None for the other columns.

    Notes
    -----
    A value equal to a cut goes to the lower interval (Weka and JNCC2). Missing values are
    ignored when fitting and stay missing. A numeric column without cuts becomes a
    single-valued feature, which the book's classifiers ignore (as JNCC2 drops it).

    The output follows scikit-learn's output API: a DataFrame in gives a DataFrame of
    Categoricals with categories ``0..m_j-1``, so that each feature's number of values
    (declared values that the training data do not show included) travels with the data to
    the discrete classifiers; an array in gives a float64 array of the codes (NaN = missing),
    as scikit-learn's transformers do; ``set_output(transform="pandas")`` gives the DataFrame
    of Categoricals for any input, its columns named by ``get_feature_names_out()`` (the
    input's names: one output column per input column).

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> X = pd.DataFrame({"x": [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
    ...                   "colour": ["red", "red", "blue", "red", "blue", "blue", "red", "blue", "red"]})
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1, 0]
    >>> book = MDLDiscretizer(nominal=["colour"]).fit(X, y)
    >>> book.cuts_[0]
    array([3.5, 7.5])
    >>> MDLDiscretizer(convention="jncc2", nominal=["colour"]).fit(X, y).cuts_[0]
    array([3.5])
    >>> book.transform(X)["colour"].cat.codes.tolist()
    [1, 1, 0, 1, 0, 0, 1, 0, 1]
    >>> book.get_feature_names_out().tolist()
    ['x', 'colour']
    >>> array = np.array([[0.0], [5.0], [np.nan]])
    >>> MDLDiscretizer().fit(X[["x"]].to_numpy(), y).transform(array)
    array([[ 0.],
           [ 1.],
           [nan]])
    >>> MDLDiscretizer().set_output(transform="pandas").fit(X[["x"]].to_numpy(), y).transform(array)["x0"].tolist()
    [0, 1, nan]
    """

    def __init__(self, selection: str | None = None, nominal=None, convention: str = "book"):
        self.selection = selection
        self.nominal = nominal
        self.convention = convention

    def _columns(self, X):
        if isinstance(X, pd.DataFrame):
            return list(X.columns), [column for _, column in X.items()]
        array = np.asarray(X)
        if array.ndim != 2:
            raise ValueError(f"X must be 2-dimensional, got shape {array.shape}")
        return list(range(array.shape[1])), [pd.Series(array[:, j]) for j in range(array.shape[1])]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True  # Categorical columns pass through as codes
        tags.input_tags.allow_nan = True    # a missing value stays missing
        return tags

    def _selection(self) -> str:
        """The selection the parameters ask for, checked."""
        if self.convention not in _MDL_CONVENTIONS:
            raise ValueError(f"convention must be one of {_MDL_CONVENTIONS}, got {self.convention!r}")
        if self.selection not in (None, "entropy", "gain"):
            raise ValueError(f"selection must be 'entropy', 'gain' or None, got {self.selection!r}")
        if self.convention == "jncc2":
            if self.selection == "entropy":
                raise ValueError("selection='entropy' does not go with convention='jncc2': JNCC2 chooses the cut "
                                 "of largest gain (leave selection=None)")
            return "gain"
        return self.selection or "entropy"

    def fit(self, X, y):
        """Learn the cut points of every numeric column from training data.

        Parameters
        ----------
        X
            DataFrame or array (n_samples, n_features): numeric columns (NaN = missing), Categorical columns and the columns named in
            ``nominal``.
        y
            Class labels (n_samples,).

        Returns
        -------
        MDLDiscretizer
            The fitted discretiser.
        """
        selection = self._selection()
        return self._fit(self._columns(validated_input(self, X, reset=True)), y, selection)

    def fit_transform(self, X, y=None, **fit_params):
        """Fit to ``X`` and ``y``, then transform ``X`` (checked once): the same as ``fit(X, y).transform(X)``.

        Parameters
        ----------
        X
            DataFrame or array (n_samples, n_features), as ``fit`` takes it.
        y
            Class labels (n_samples,).
        **fit_params
            None are taken (``fit`` takes none).

        Returns
        -------
        pandas.DataFrame or numpy.ndarray
            What ``transform`` returns.
        """
        if y is None or fit_params or type(self).fit is not MDLDiscretizer.fit:
            # fit refuses the first two with its own messages; a subclass's own fit is honoured
            return super().fit_transform(X, y, **fit_params)
        selection = self._selection()
        frame = isinstance(X, pd.DataFrame)
        X = validated_input(self, X, reset=True)
        names_and_columns = self._columns(X)
        return self._fit(names_and_columns, y, selection)._transform(names_and_columns, X.index if frame else None)

    def _fit(self, names_and_columns, y, selection: str):
        """``fit`` on the ``(names, columns)`` of an ``X`` already through ``validated_input``."""
        names, columns = names_and_columns
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
            if isinstance(column.dtype, pd.CategoricalDtype):
                categories = column.array.categories
                _check_category_count(categories.size, len(column), f"X column {name!r}")
                self.cuts_.append(None)
                self.categories_.append(categories)
                continue
            try:
                column_values = column.to_numpy(dtype=float)
            except (TypeError, ValueError):
                if name not in nominal:
                    raise ValueError(f"X column {name!r} is neither numeric nor Categorical: declare it in "
                                     f"nominal") from None
                column_values = None
            if name in nominal:
                self.cuts_.append(None)
                # integer codes pass through; other values are coded by their sorted values
                self.categories_.append(None if column_values is not None else
                                        pd.Categorical(column[column.notna()]).categories)
                continue
            observed = ~np.isnan(column_values)
            numeric.append(len(self.cuts_))
            values.append(column_values[observed])
            classes.append(labels[observed])
            self.cuts_.append(None)
            self.categories_.append(None)
        if self.convention == "jncc2":
            found = [jncc2_mdl_cuts(v, c, n_classes) if v.size else np.empty(0) for v, c in zip(values, classes)]
        else:   # every numeric column's search at once (credalbook._mdl)
            found = mdl_cuts(values, classes, n_classes, selection)
        for position, cuts in zip(numeric, found):
            self.cuts_[position] = cuts
        return self

    def transform(self, X):
        """The codes of every column: cut intervals 0..m_j−1 of numeric columns (m_j = cuts + 1), nominal codes.

        Parameters
        ----------
        X
            DataFrame or array (n_samples, n_features): the columns ``fit`` saw, in its order.

        Returns
        -------
        pandas.DataFrame or numpy.ndarray
            (n_samples, n_features): a DataFrame of Categoricals with categories ``0..m_j-1`` (so that each feature's
            number of values travels with the data to the discrete classifiers) when ``X`` is a
            DataFrame or ``set_output(transform="pandas")`` was called; otherwise, for an array,
            a float64 array of the codes with NaN for a missing value.
        """
        check_is_fitted(self, "cuts_")
        frame = isinstance(X, pd.DataFrame)
        X = validated_input(self, X, reset=False)
        return self._transform(self._columns(X), X.index if frame else None)

    def _transform(self, names_and_columns, index):
        """``transform`` of the ``(names, columns)`` of an ``X`` already through ``validated_input``; ``index``:
        the input DataFrame's index (None: the input was an array)."""
        names, columns = names_and_columns
        declared = set(getattr(self, "nominal", None) or [])
        out = {}
        for name, column, cuts, categories in zip(names, columns, self.cuts_, self.categories_):
            if cuts is None:
                if categories is not None:
                    if isinstance(column.dtype, pd.CategoricalDtype):
                        codes = _categorical_codes(column, categories)
                    elif name in declared:    # a declared column coded by its values
                        codes = pd.Index(categories).get_indexer(column).astype(np.int64)   # unseen or missing: -1
                    else:
                        raise ValueError(f"X column {name!r} was Categorical in fit but is {column.dtype} now")
                    m = len(categories)
                else:
                    codes, n_values, _ = check_discrete_X(pd.DataFrame({name: column}), "X", warn_many_values=False)
                    codes, m = codes[:, 0], int(n_values[0])
            else:
                values = column.to_numpy(dtype=float)
                codes = np.searchsorted(cuts, values, side="left").astype(np.int64)
                codes[np.isnan(values)] = MISSING
                m = cuts.size + 1
            # codes are in -1..m-1 by construction: no second check of them
            out[name] = pd.Categorical.from_codes(codes, dtype=_code_dtype(max(m, 1)), validate=False)
        if index is None and _get_output_config("transform", self)["dense"] == "default":
            return np.column_stack([np.where(c.codes < 0, np.nan, c.codes.astype(float)) for c in out.values()])
        return pd.DataFrame(out, index=index, copy=False)


def missing_as_category(X: pd.DataFrame) -> pd.DataFrame:
    """Discretised ``X`` (Categoricals with categories ``0..m_j-1``) with missing values coded as value ``m_j``.

    Every column gains the extra category, whether or not it has missing values, so training and
    test folds coded separately stay aligned. A classifier then learns "missing" as an ordinary
    value instead of ignoring it (the missing-at-random treatment of NCC2, Corani & Zaffalon 2008).

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"a": pd.Categorical([0, None, 1], categories=[0, 1])})
    >>> coded = missing_as_category(X)
    >>> coded["a"].tolist(), coded["a"].cat.categories.tolist()
    ([0, 2, 1], [0, 1, 2])
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
    """SU = 2·[H(A) + H(B) − H(A,B)] / [H(A) + H(B)] of a joint count table (Hall 1999, eq. 4.?; 0 if both constant).

    Parameters
    ----------
    table : array-like
        The (m_A, m_B) joint counts of two discrete variables: finite, non-negative, not all zero.

    Returns
    -------
    float
        The symmetrical uncertainty, in [0, 1]: 0 for independent variables, 1 when each determines the other.

    Examples
    --------
    >>> symmetrical_uncertainty([[5, 0], [0, 5]])
    1.0
    >>> abs(symmetrical_uncertainty([[2, 2], [3, 3]])) < 1e-12   # independent
    True
    >>> round(symmetrical_uncertainty([[4, 1], [1, 4]]), 3)
    0.278
    """
    table = check_array(table, "table", ndim=2)
    if np.any(table < 0):
        raise ValueError("table must hold non-negative counts (a joint count table of two discrete variables)")
    if table.sum() <= 0:
        raise ValueError("table holds no instances: all its counts are zero")
    return _symmetrical_uncertainty(table)


def _symmetrical_uncertainty(table: np.ndarray) -> float:
    """:func:`symmetrical_uncertainty` without the checks (its callers build the tables)."""
    h_a = entropy_rows(table.sum(axis=1))
    h_b = entropy_rows(table.sum(axis=0))
    h_ab = entropy_rows(table.ravel())
    if h_a + h_b <= 0:
        return 0.0
    return float(2.0 * (h_a + h_b - h_ab) / (h_a + h_b))


def cfs_merit(subset, class_corr: np.ndarray, feature_corr: np.ndarray) -> float:
    """Hall's merit k·r̄_cf / sqrt(k + k(k−1)·r̄_ff) of a feature subset (Hall 1999, eq. 4.1).

    Parameters
    ----------
    subset : list
        Indices of the features in the subset (distinct, within ``0..d-1``).
    class_corr : array-like
        The (d,) correlations of each feature with the class (symmetrical uncertainties, in [0, 1]).
    feature_corr : array-like
        The (d, d) symmetric correlations between features, in [0, 1], ones on the diagonal.

    Returns
    -------
    float
        The merit (0 for an empty subset).

    Examples
    --------
    >>> import numpy as np
    >>> class_corr = np.array([0.6, 0.5, 0.1])
    >>> feature_corr = np.array([[1.0, 0.9, 0.0], [0.9, 1.0, 0.0], [0.0, 0.0, 1.0]])
    >>> round(cfs_merit([0], class_corr, feature_corr), 3)
    0.6
    >>> round(cfs_merit([0, 1], class_corr, feature_corr), 3)   # redundant: worse than feature 0 alone
    0.564
    >>> round(cfs_merit([0, 2], class_corr, feature_corr), 3)
    0.495
    """
    class_corr = check_array(class_corr, "class_corr", ndim=1)
    feature_corr = check_array(feature_corr, "feature_corr", ndim=2)
    d = class_corr.size
    if feature_corr.shape != (d, d):
        raise ValueError(f"feature_corr must be (d, d) = ({d}, {d}) as class_corr has d = {d} features, "
                         f"got shape {feature_corr.shape}")
    if np.any(class_corr < 0) or np.any(class_corr > 1) or np.any(feature_corr < 0) or np.any(feature_corr > 1):
        raise ValueError("class_corr and feature_corr must hold correlations in [0, 1] (symmetrical uncertainties)")
    items = list(subset)
    if any(isinstance(j, (bool, np.bool_)) or not isinstance(j, (int, np.integer)) for j in items):
        raise ValueError(f"subset must hold feature indices (integers), got {items!r}")
    if any(j < 0 or j >= d for j in items) or len(set(items)) != len(items):
        raise ValueError(f"subset must hold distinct feature indices within 0..{d - 1}, got {items!r}")
    return _cfs_merit(items, class_corr, feature_corr)


def _cfs_merit(subset, class_corr: np.ndarray, feature_corr: np.ndarray) -> float:
    """:func:`cfs_merit` without the checks (the best-first search calls it on its own indices)."""
    subset = list(subset)
    if not subset:
        return 0.0
    numerator = class_corr[subset].sum()
    denominator = feature_corr[np.ix_(subset, subset)].sum()
    return float(numerator / np.sqrt(denominator)) if denominator > 0 else 0.0


def _weka_table(a: np.ndarray, b: np.ndarray, ma: int, mb: int) -> np.ndarray:
    """Joint counts of two coded columns with Weka's ``CfsSubsetEval`` spreading of missing values.

    A value missing in ``a`` is spread over ``a``'s values in proportion to ``a``'s observed
    marginal (taken over all rows where ``a`` is observed, ``b`` missing or not), and likewise for
    ``b``; a pair missing in both is spread in proportion to the joint counts of the pairs
    observed in both. Nothing is spread when either column is missing in every row.
    Returns the (ma + 1, mb + 1) table, the last row and column holding what stays missing.
    """
    table = np.zeros((ma + 1, mb + 1))
    np.add.at(table, (np.where(a < 0, ma, a), np.where(b < 0, mb, b)), 1)
    n = float(a.size)
    row, col = table.sum(axis=1), table.sum(axis=0)
    if not (row[ma] < n and col[mb] < n):
        return table
    copy = table.copy()
    total_missing = row[ma] + col[mb] - copy[ma, mb]
    if row[ma] > 0:
        table[:ma, :mb] += (row[:ma] / (n - row[ma]))[:, None] * copy[ma, :mb][None, :]
        table[ma, :mb] = 0.0
    if col[mb] > 0:
        table[:ma, :mb] += copy[:ma, mb][:, None] * (col[:mb] / (n - col[mb]))[None, :]
        table[:ma, mb] = 0.0
    if copy[ma, mb] > 0 and total_missing != n:
        table[:ma, :mb] += copy[:ma, :mb] / (n - total_missing) * copy[ma, mb]
        table[ma, mb] = 0.0
    return table


def _weka_su(table: np.ndarray, with_class: bool) -> np.float32:
    """Weka's symmetrical uncertainty of a count table as ``CfsSubsetEval`` stores it (a float32).

    A value within 10⁻⁶ of 0 (either margin constant, or independence) is 0 against the class but
    1 between two features (Weka counts such a pair as fully redundant).
    """
    def n_log_n(x):
        x = np.asarray(x, dtype=float)
        return np.where(x > 0, x * np.log(np.where(x > 0, x, 1.0)), 0.0)

    col, row = table.sum(axis=0), table.sum(axis=1)
    total = col.sum()
    column_entropy = n_log_n(col).sum() - n_log_n(total)
    conditional = n_log_n(table).sum() - n_log_n(row).sum()
    row_entropy = n_log_n(row).sum() - n_log_n(total)
    if abs(column_entropy) < 1e-6 or abs(row_entropy) < 1e-6:
        su = 0.0
    else:
        su = 2.0 * (column_entropy - conditional) / (column_entropy + row_entropy)
    if abs(su) < 1e-6:
        su = 0.0 if with_class else 1.0
    return np.float32(su)


def _weka_su_batch(a: np.ndarray, ma: np.ndarray, b: np.ndarray, mb: int, with_class: bool) -> np.ndarray:
    """:func:`_weka_su` of :func:`_weka_table` of each column of ``a`` (n, r) against ``b``, all at once (float32, r)."""
    n, r = a.shape
    width = int(ma.max(initial=0)) + 1
    rows = np.where(a < 0, ma[None, :], a)
    cols = np.where(b < 0, mb, b)
    flat = (np.arange(r)[None, :] * width + rows) * (mb + 1) + cols[:, None]
    table = np.bincount(flat.ravel(), minlength=r * width * (mb + 1)).reshape(r, width, mb + 1).astype(float)
    pair = np.arange(r)
    observed_row = np.arange(width)[None, :] < ma[:, None]                     # (r, width)
    row, col = table.sum(axis=2), table.sum(axis=1)
    row_missing, col_missing = row[pair, ma], col[:, mb]
    spread = (row_missing < n) & (col_missing < n)
    copy = table.copy()
    both = copy[pair, ma, mb]
    total_missing = row_missing + col_missing - both
    with np.errstate(divide="ignore", invalid="ignore"):
        step = spread & (row_missing > 0)
        share = np.where(observed_row & step[:, None], row / (n - row_missing)[:, None], 0.0)
        table[:, :, :mb] += share[:, :, None] * copy[pair, ma, :mb][:, None, :]
        table[pair[step], ma[step], :mb] = 0.0
        step = spread & (col_missing > 0)
        share = np.where(step[:, None], col[:, :mb] / (n - col_missing)[:, None], 0.0)
        table[:, :, :mb] += np.where(observed_row, copy[:, :, mb], 0.0)[:, :, None] * share[:, None, :]
        table[:, :, mb] = np.where(observed_row & step[:, None], 0.0, table[:, :, mb])
        step = spread & (both > 0) & (total_missing != n)
        scale = np.where(step, both / (n - total_missing), 0.0)
        table[:, :, :mb] += np.where(observed_row[:, :, None], copy[:, :, :mb], 0.0) * scale[:, None, None]
        table[pair[step], ma[step], mb] = 0.0

    def n_log_n(x):
        return np.where(x > 0, x * np.log(np.where(x > 0, x, 1.0)), 0.0)

    col, row = table.sum(axis=1), table.sum(axis=2)
    total = col.sum(axis=1)
    column_entropy = n_log_n(col).sum(axis=1) - n_log_n(total)
    conditional = n_log_n(table).sum(axis=(1, 2)) - n_log_n(row).sum(axis=1)
    row_entropy = n_log_n(row).sum(axis=1) - n_log_n(total)
    constant = (np.abs(column_entropy) < 1e-6) | (np.abs(row_entropy) < 1e-6)
    with np.errstate(divide="ignore", invalid="ignore"):
        su = np.where(constant, 0.0, 2.0 * (column_entropy - conditional) / (column_entropy + row_entropy))
    su = np.where(np.abs(su) < 1e-6, 0.0 if with_class else 1.0, su)
    return su.astype(np.float32)


def _weka_merit(subset: tuple, class_corr: np.ndarray, feature_corr: np.ndarray) -> float:
    """Weka's ``CfsSubsetEval.evaluateSubset``: the merit summed term by term in attribute order."""
    if not subset:
        return 0.0
    index = np.asarray(subset)
    numerator = float(np.cumsum(class_corr[index])[-1])          # cumsum adds in order, as Weka's loop
    k = index.size
    terms = np.zeros((k, k + 1))
    terms[:, 0] = 1.0                                             # each attribute's 1, then 2 r_ij for j < i
    lower = np.tril(np.ones((k, k), dtype=bool), -1)
    terms[:, 1:][lower] = 2.0 * feature_corr[np.ix_(index, index)][lower]
    denominator = float(np.cumsum(terms.ravel())[-1])            # zeros add nothing, exactly
    return abs(numerator / np.sqrt(denominator)) if denominator != 0.0 else 0.0


def _weka_insert(open_list: list, subset: tuple, merit: float, size: int) -> None:
    """Weka's ``BestFirst.LinkedList2.addToList``: keep at most ``size`` subsets, best first."""
    if not open_list:
        open_list.append((subset, merit))
    elif merit > open_list[0][1]:
        if len(open_list) == size:
            open_list.pop()
        open_list.insert(0, (subset, merit))
    elif len(open_list) == size and merit <= open_list[-1][1]:
        return
    else:
        for i, (_, other) in enumerate(open_list):
            if merit > other:
                if len(open_list) == size:
                    open_list.pop()
                open_list.insert(i, (subset, merit))
                return
        open_list.append((subset, merit))


class CFSSelector(TransformerMixin, BaseEstimator):
    """Correlation-based feature selection (Hall 1999) with best-first forward search.

    Correlations are symmetrical uncertainties on the discrete features (discretise numeric
    features first: put it after :class:`MDLDiscretizer` in a pipeline). The search starts
    from the empty set, expands the best open subset by adding one feature, and stops after
    ``search_termination`` consecutive expansions that do not improve the best merit by more
    than 10⁻⁵ (Weka's ``BestFirst -D 1 -N 5``). ``support_`` is the boolean mask of kept
    features.

    Parameters
    ----------
    search_termination
        Non-improving expansions before the search stops (Weka's ``-N``).
    convention
        ``"book"`` (the default): float64 correlations, missing values spread in proportion to
        the pairs observed in both columns, an unbounded open list that expands each subset
        once; if no subset has positive merit, the feature most correlated with the class is
        kept. ``"weka"``: Weka 3.9's ``CfsSubsetEval`` + ``BestFirst`` exactly: correlations
        stored as float32, missing values spread as Weka does (each column's own observed
        marginal), a symmetrical uncertainty within 10⁻⁶ of 0 between two features counted as
        1, the merit summed in attribute order, an open list holding the best
        ``search_termination`` subsets where a subset met again is queued again; the
        selection may be empty (as Weka's) unless ``locally_predictive``.
    locally_predictive
        After the search, add each remaining feature, in decreasing correlation with the
        class, whose correlation with the class exceeds its correlation with every feature
        already kept (Weka's default, ``CfsSubsetEval`` without ``-L``; Hall 1999, §4.4).
        Zaffalon, Corani & Mauá (2012, §9.1.3) ran Weka's defaults: ``convention="weka",
        locally_predictive=True``.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([0, 1] * 6)
    >>> X = np.column_stack([y, y, [0, 0, 1, 1] * 3])   # feature 1 repeats feature 0; feature 2 is noise
    >>> selector = CFSSelector().fit(X, y)
    >>> selector.get_support().tolist(), round(selector.merit_, 3)
    ([True, False, False], 1.0)
    >>> selector.transform(X[:3]).tolist()
    [[0], [1], [0]]
    """

    def __init__(self, search_termination: int = 5, convention: str = "book", locally_predictive: bool = False):
        self.search_termination = search_termination
        self.convention = convention
        self.locally_predictive = locally_predictive

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True  # discrete codes or Categorical columns
        tags.input_tags.allow_nan = True    # NaN (or -1) marks a missing value
        tags.input_tags.positive_only = True   # codes 0..m-1: other negative values are refused (as the classifiers')
        return tags

    def fit(self, X, y):
        """Search the feature subset of best merit on discrete training data.

        Parameters
        ----------
        X
            (n_samples, n_features) discrete features: integer codes 0..m-1 (NaN or -1: missing) or a
            DataFrame of pandas Categoricals (:mod:`credalbook.discrete`).
        y
            (n_samples,) class labels.

        Returns
        -------
        CFSSelector
            The fitted selector (``support_``, ``merit_``).
        """
        if not isinstance(self.search_termination, (int, np.integer)) or self.search_termination < 1:
            raise ValueError(f"search_termination must be a positive integer, got {self.search_termination!r}")
        if self.convention not in ("book", "weka"):
            raise ValueError(f"convention must be 'book' or 'weka', got {self.convention!r}")
        if not isinstance(self.locally_predictive, (bool, np.bool_)):
            raise ValueError(f"locally_predictive must be True or False, got {self.locally_predictive!r}")
        X = validated_input(self, X, reset=True)
        codes, n_values, _ = check_discrete_X(X, "X")
        _, labels = encode_labels(y, "y")
        if codes.shape[0] != labels.size:
            raise ValueError(f"inconsistent numbers of instances: X has {codes.shape[0]}, y has {labels.size}")
        d = codes.shape[1]
        k = int(labels.max()) + 1
        m = np.maximum(n_values, 1)
        weka = self.convention == "weka"
        if weka:   # Weka's corr(larger index, smaller index), one column against all later ones at once
            class_corr = _weka_su_batch(codes, m, labels, k, True).astype(float)
            feature_corr = np.eye(d)
            for i in range(d - 1):
                feature_corr[i + 1:, i] = feature_corr[i, i + 1:] = _weka_su_batch(
                    codes[:, i + 1:], m[i + 1:], codes[:, i], int(m[i]), False)
        else:
            class_corr = np.array([_symmetrical_uncertainty(_contingency(codes[:, j], labels, m[j], k))
                                   for j in range(d)])
            feature_corr = np.eye(d)
            for i in range(d):
                for j in range(i + 1, d):
                    feature_corr[i, j] = feature_corr[j, i] = _symmetrical_uncertainty(
                        _contingency(codes[:, i], codes[:, j], m[i], m[j]))
        self.class_correlation_ = class_corr
        self.feature_correlation_ = feature_corr
        if weka:
            selected = self._weka_best_first(class_corr, feature_corr)
        else:
            selected = self._best_first(class_corr, feature_corr)
        if self.locally_predictive:
            selected = self._locally_predictive(selected, class_corr, feature_corr)
        if not selected and not weka:
            selected = (int(np.argmax(class_corr)),)
        self.support_ = np.zeros(d, dtype=bool)
        self.support_[list(selected)] = True
        self.merit_ = (_weka_merit if weka else _cfs_merit)(tuple(sorted(selected)), class_corr, feature_corr)
        return self

    def _weka_best_first(self, class_corr, feature_corr) -> tuple:
        """Weka's ``BestFirst.search`` (forward): its bounded open list, ties queued after equals."""
        d, size = class_corr.size, self.search_termination
        merits: dict = {(): 0.0}
        best, best_merit = (), 0.0
        open_list = [((), 0.0)]
        stale = 0
        while stale < size and open_list:
            subset, _ = open_list.pop(0)
            added = False
            for j in range(d):
                if j in subset:
                    continue
                child = tuple(sorted(subset + (j,)))
                merit = merits.get(child)
                if merit is None:
                    merit = merits[child] = _weka_merit(child, class_corr, feature_corr)
                _weka_insert(open_list, child, merit, size)
                if merit - best_merit > 1e-5:
                    best, best_merit, added, stale = child, merit, True, 0
            if not added:
                stale += 1
        return best

    @staticmethod
    def _locally_predictive(selected, class_corr, feature_corr) -> tuple:
        """Weka's ``CfsSubsetEval.addLocallyPredictive``: candidates in decreasing class correlation (first on ties)."""
        kept, tried = list(selected), set(selected)
        while len(tried) < class_corr.size:
            candidates = [j for j in range(class_corr.size) if j not in tried]
            j = max(candidates, key=lambda c: (class_corr[c], -c))
            tried.add(j)
            if all(feature_corr[i, j] <= class_corr[j] for i in kept):
                kept.append(j)
        return tuple(sorted(kept))

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
                merit = _cfs_merit(child, class_corr, feature_corr)
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


def weka_cfs() -> CFSSelector:
    """CFS as Zaffalon, Corani & Mauá (2012, §9.1.3) ran it: Weka 3.9's ``CfsSubsetEval`` +
    ``BestFirst`` with their defaults (``CFSSelector(convention="weka", locally_predictive=True)``,
    equal to Weka's subsets on every fold of the benchmark, ``tests/test_weka_golden.py``).

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([0, 1] * 6)
    >>> X = np.column_stack([y, y, [0, 0, 1, 1] * 3])   # feature 1 repeats feature 0; feature 2 is noise
    >>> CFSSelector(convention="weka").fit(X, y).get_support().tolist()
    [True, False, False]
    >>> weka_cfs().fit(X, y).get_support().tolist()   # its locally predictive step adds the copy back
    [True, True, False]
    >>> weka_cfs().get_params() == CFSSelector(convention="weka", locally_predictive=True).get_params()
    True
    """
    return CFSSelector(convention="weka", locally_predictive=True)
