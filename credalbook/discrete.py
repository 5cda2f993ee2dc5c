"""Coding of discrete features and class labels, shared by the classifiers and the preprocessing.

* :func:`check_discrete_X` turns the input of an estimator on *discrete* features into an
  (n, d) integer matrix of codes ``0..m_j-1`` with ``-1`` (:data:`MISSING`) for a missing value.
  Accepted: a numeric array whose values are integers (``NaN`` or ``-1`` = missing) or a
  DataFrame whose columns are pandas Categoricals (coded in their declared category order, so
  the number of values ``m_j`` is the declared one) or integer-valued numbers.
* :func:`encode_labels` codes the class labels; a pandas Categorical keeps its declared
  categories, so a class absent from a training fold is still a column of ``predict_set``.
* :func:`validated_input` applies scikit-learn's own checks (``validate_data``) first: shape,
  sparse and complex input, infinite values, and the number and names of features set in
  ``fit`` and compared at prediction (a DataFrame's columns in another order or renamed are
  refused).

Unseen values at prediction time (a code ``>= m_j`` learnt in ``fit``) are a defined
behaviour chosen by the ``unseen`` argument of :func:`check_discrete_X`: ``"missing"``
(default: the value is treated as missing, which for the naive classifiers of Zaffalon, Corani &
Mauá 2012 means the feature is dropped for that instance) or ``"error"``.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["MISSING", "MAX_CODE", "MANY_VALUES", "ManyValuesWarning", "check_discrete_X", "encode_labels",
           "validated_input"]

#: The code of a missing value in a coded feature matrix.
MISSING = -1
#: Bound on the codes of numeric columns and on the categories of a Categorical column (with 10 n for n rows), as
#: count tables have one row per value.
MAX_CODE = 100_000
#: More values than this in a numeric column given to a discrete classifier's fit raise ManyValuesWarning.
MANY_VALUES = 16


class ManyValuesWarning(UserWarning):
    """A numeric column with many integer values was taken as a discrete feature, one category per value.

    A discrete-input estimator (the naive classifiers, the credal tree, CFS, ...) codes a numeric
    column of integers as categories ``0..max``: raw pixel intensities, ages or counts become
    tens of categories, each seen a few times, and the sets grow large (raw digits: u65 0.648,
    mean set size 4.15; discretised by MDL first: 0.861). Discretise such columns first
    (:class:`credalbook.preprocessing.MDLDiscretizer`), or pass a column that really is
    discrete as a pandas Categorical, which never warns.

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from credalbook.classifiers import NaiveCredalClassifier
    >>> X = np.arange(40).reshape(-1, 1) % 20     # 20 integer values
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = NaiveCredalClassifier().fit(X, [0, 1] * 20)
    >>> [issubclass(w.category, ManyValuesWarning) for w in caught]
    [True]
    >>> print(caught[0].message)  # doctest: +ELLIPSIS
    X feature 0 is numeric with 20 integer values: a discrete estimator takes each as a category ...
    """


def _warn_many_values(codes: np.ndarray, learnt: np.ndarray, names, name: str) -> None:
    """ManyValuesWarning for the numeric columns (``names[j]`` not None) whose codes run past MANY_VALUES."""
    for j in np.flatnonzero(learnt > MANY_VALUES):
        if names[j] is None:
            continue
        column = codes[:, j]
        distinct = np.unique(column[column >= 0]).size
        if distinct <= MANY_VALUES:
            continue
        import warnings

        warnings.warn(f"{name} {names[j]} is numeric with {distinct} integer values: a discrete estimator takes each "
                      f"as a category (codes 0..{learnt[j] - 1}), seen a few times each; discretise it first "
                      f"(credalbook.preprocessing.MDLDiscretizer), or pass it as a pandas Categorical if it is "
                      f"discrete", ManyValuesWarning, stacklevel=5)


def _column_codes(values, name: str) -> np.ndarray:
    """Integer codes of one numeric column; NaN and -1 become MISSING."""
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} is not numeric or categorical: discrete classifiers need integer codes "
                         f"or pandas Categoricals") from None
    observed = ~np.isnan(array)
    if np.any(np.isinf(array)):
        raise ValueError(f"{name} contains infinite values")
    obs = array[observed]
    if np.any(obs < MISSING):   # first: scikit-learn's wording for an estimator whose tag is positive_only
        raise ValueError(f"Negative values in data passed to {name}: codes must be 0..m-1 (only -1 or NaN may "
                         f"mark a missing value)")
    if np.any(obs != np.round(obs)):
        raise ValueError(f"{name} has non-integer values: features must be discrete codes 0..m-1 "
                         f"(discretise numeric features first, e.g. credalbook.preprocessing.MDLDiscretizer)")
    codes = np.full(array.shape, MISSING, dtype=np.int64)
    codes[observed] = obs.astype(np.int64)
    maxima = np.atleast_1d(codes.max(axis=0, initial=MISSING))
    too_large = np.flatnonzero(maxima >= max(MAX_CODE, 10 * array.shape[0]))
    if too_large.size:
        where = f"{name} feature {too_large[0]}" if array.ndim == 2 else name
        raise ValueError(f"{where} has codes up to {maxima[too_large[0]]} for {array.shape[0]} instances: discrete "
                         f"features must be codes 0..m-1 (an identifier column? drop it, or re-code the values with "
                         f"sklearn.preprocessing.OrdinalEncoder)")
    return codes


def _check_category_count(n_categories: int, n_rows: int, where: str) -> None:
    """Refuse a Categorical declaring more categories than :data:`MAX_CODE` and 10 n: count tables have a row each."""
    if n_categories > max(MAX_CODE, 10 * n_rows):
        raise ValueError(f"{where} declares {n_categories} categories for {n_rows} instances: discrete estimators "
                         f"keep a count per category, up to max({MAX_CODE}, 10 n) (an identifier column? drop it, "
                         f"or remove the unused categories with .cat.remove_unused_categories())")


def _categorical_codes(series, categories: pd.Index) -> np.ndarray:
    """Codes of a Categorical ``series`` (a Series or a pandas Categorical) in the category list ``categories``
    (-1: missing or not in the list)."""
    values = series.array if isinstance(series, pd.Series) else series
    if values.categories.equals(categories):
        return values.codes.astype(np.int64)
    position = pd.Index(categories).get_indexer(values.categories)
    codes = values.codes
    return np.where(codes >= 0, position[codes], MISSING).astype(np.int64)


def _frame_codes(X: pd.DataFrame, name: str, categories, unseen: str) -> tuple[np.ndarray, np.ndarray, list]:
    """``(codes, learnt, found_categories)`` of a DataFrame, one pass over its columns.

    A Categorical column's codes are read straight from the Categorical (its category list, or
    recoded into ``categories[j]`` learnt in fit); a numeric column goes through ``_column_codes``.
    """
    n = len(X)
    codes = np.empty((n, X.shape[1]), dtype=np.int64)
    learnt = np.empty(X.shape[1], dtype=np.int64)
    found_categories = []
    for j, (column, series) in enumerate(X.items()):
        if isinstance(series.dtype, pd.CategoricalDtype):
            values = series.array
            if categories is not None and categories[j] is not None:
                known = categories[j]
                codes[:, j] = column_codes = _categorical_codes(values, known)
                if unseen == "error":
                    unknown = (values.codes >= 0) & (column_codes == MISSING)
                    if unknown.any():
                        raise ValueError(f"{name} column {column!r} has values unseen in fit, "
                                         f"e.g. {series[unknown].iloc[0]!r}")
            else:
                known = values.categories
                _check_category_count(known.size, n, f"{name} column {column!r}")
                codes[:, j] = values.codes
            found_categories.append(known)
            learnt[j] = len(known)
        else:
            column_codes = _column_codes(series.to_numpy(), f"{name} column {column!r}")
            codes[:, j] = column_codes
            found_categories.append(None)
            learnt[j] = int(column_codes.max()) + 1 if column_codes.size else 0
    return codes, learnt, found_categories


def check_discrete_X(X, name: str = "X", *, n_values=None, unseen: str = "missing",
                     categories=None, warn_many_values: bool = True) -> tuple[np.ndarray, np.ndarray, list | None]:
    """Code ``X`` as an (n, d) int64 matrix (``-1`` = missing); returns ``(codes, n_values, categories)``.

    ``n_values`` (length d) are the numbers of values learnt in ``fit``; when given, codes
    ``>= n_values[j]`` are unseen values, handled per ``unseen`` (``"missing"`` or
    ``"error"``). ``categories`` (a list of per-column category Index or None, from ``fit``)
    recodes Categorical columns by *value* so that a DataFrame with the same values but other
    category lists is coded consistently. When ``n_values`` is None they are computed:
    ``len(categories)`` for Categorical columns, ``max code + 1`` otherwise, and a numeric column
    with more than :data:`MANY_VALUES` integer values raises :class:`ManyValuesWarning` (unless
    ``warn_many_values`` is False).

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> codes, n_values, _ = check_discrete_X(np.array([[0, 2], [1, np.nan]]))
    >>> codes.tolist(), n_values.tolist()
    ([[0, 2], [1, -1]], [2, 3])
    >>> X = pd.DataFrame({"colour": pd.Categorical(["red", "blue"], categories=["red", "green", "blue"])})
    >>> codes, n_values, categories = check_discrete_X(X)
    >>> codes.tolist(), n_values.tolist()
    ([[0], [2]], [3])

    At prediction, a value unseen in ``fit`` is missing (or refused with ``unseen="error"``):

    >>> check_discrete_X(np.array([[0, 5]]), n_values=[2, 3])[0].tolist()
    [[0, -1]]
    """
    if unseen not in ("missing", "error"):
        raise ValueError(f"unseen must be 'missing' or 'error', got {unseen!r}")
    if isinstance(X, pd.DataFrame):
        if X.shape[1] == 0:
            raise ValueError(f"{name} has no columns")
        if X.columns.has_duplicates:
            repeated = sorted({str(c) for c in X.columns[X.columns.duplicated()]})
            raise ValueError(f"{name} has duplicate column names: {', '.join(repeated)}")
        codes, learnt, found_categories = _frame_codes(X, name, categories, unseen)
    else:
        raw = np.asarray(X)
        if raw.ndim != 2:
            raise ValueError(f"{name} must be 2-dimensional (instances x features), got shape {raw.shape}")
        if raw.shape[1] == 0:
            raise ValueError(f"{name} has no columns")
        codes = _column_codes(raw, name)
        found_categories = None
        learnt = codes.max(axis=0) + 1 if codes.size else np.zeros(raw.shape[1], dtype=np.int64)
    if codes.shape[0] == 0:
        raise ValueError(f"{name} is empty: at least one instance is needed")
    learnt = np.maximum(learnt, 0)
    if n_values is None:
        if warn_many_values:
            numeric = ([f"column {c!r}" if found is None else None for c, found in zip(X.columns, found_categories)]
                       if isinstance(X, pd.DataFrame) else [f"feature {j}" for j in range(codes.shape[1])])
            _warn_many_values(codes, learnt, numeric, name)
        return codes, learnt, found_categories
    n_values = np.asarray(n_values, dtype=np.int64)
    if codes.shape[1] != n_values.size:
        raise ValueError(f"{name} has {codes.shape[1]} features but the classifier was fitted on {n_values.size}")
    too_large = codes >= n_values[None, :]
    if too_large.any():
        if unseen == "error":
            i, j = np.argwhere(too_large)[0]
            raise ValueError(f"{name} has a value unseen in fit: code {codes[i, j]} of feature {j} "
                             f"(fitted with {n_values[j]} values)")
        codes = np.where(too_large, MISSING, codes)
    return codes, n_values, found_categories


def encode_labels(y, name: str = "y") -> tuple[np.ndarray, np.ndarray]:
    """``(classes, codes)``: a Categorical keeps its declared categories; otherwise the sorted unique labels.

    Targets are checked as scikit-learn does: a column vector is flattened with a
    ``DataConversionWarning``, and continuous or multi-output targets are refused
    (``check_classification_targets``).

    Examples
    --------
    >>> classes, codes = encode_labels(["b", "a", "b"])
    >>> classes.tolist(), codes.tolist()
    (['a', 'b'], [1, 0, 1])
    >>> import pandas as pd
    >>> classes, codes = encode_labels(pd.Categorical(["b", "b"], categories=["a", "b", "c"]))
    >>> classes.tolist(), codes.tolist()
    (['a', 'b', 'c'], [1, 1])
    """
    if y is None:
        raise ValueError(f"a classifier requires y to be passed, but the target {name} is None")
    if isinstance(y, (pd.Series, pd.Categorical)) and isinstance(getattr(y, "dtype", None), pd.CategoricalDtype):
        categorical = pd.Categorical(y)
        if np.any(categorical.codes < 0):
            raise ValueError(f"{name} has missing class labels")
        if len(categorical) == 0:
            raise ValueError(f"{name} is empty: at least one instance is needed")
        return np.asarray(categorical.categories), categorical.codes.astype(np.int64)
    # scikit-learn's checks are imported here: the array protocols pass Categoricals and need not load it
    from sklearn.utils.multiclass import check_classification_targets
    from sklearn.utils.validation import column_or_1d

    raw = np.asarray(y)
    if raw.ndim == 2 and raw.shape[1] == 1:
        raw = column_or_1d(raw, warn=True)
    if raw.ndim != 1:
        raise ValueError(f"{name} must be 1-dimensional, got shape {raw.shape}")
    if raw.size == 0:
        raise ValueError(f"{name} is empty: at least one instance is needed")
    if (raw.dtype.kind == "f" and np.any(np.isnan(raw))) or (raw.dtype == object and pd.isna(raw).any()):
        raise ValueError(f"{name} has missing class labels")
    if raw.dtype.kind == "f" and np.any(np.isinf(raw)):
        raise ValueError(f"{name} has an infinite class label: labels are classes, not measurements")
    check_classification_targets(raw)
    classes, codes = np.unique(raw, return_inverse=True)
    return classes, codes.astype(np.int64)


def validated_input(estimator, X, *, reset: bool):
    """``X`` after scikit-learn's checks for ``estimator`` (``reset=True`` in fit: records
    ``n_features_in_`` and ``feature_names_in_``; ``False`` at prediction: compares them).

    A DataFrame is returned unchanged (its Categorical columns carry the codes); an array is
    converted to numbers with NaN allowed (a missing value) and infinite values refused.

    Examples
    --------
    >>> import numpy as np
    >>> from credalbook.classifiers import NaiveBayes
    >>> model = NaiveBayes()
    >>> validated_input(model, [[0, 1], [1, np.nan]], reset=True).shape, model.n_features_in_
    ((2, 2), 2)
    >>> validated_input(model, [[0, 1, 1]], reset=False)
    Traceback (most recent call last):
    ...
    ValueError: X has 3 features, but NaiveBayes is expecting 2 features as input.
    """
    from sklearn.utils.validation import validate_data

    if not isinstance(reset, (bool, np.bool_)):
        raise TypeError(f"reset must be True (in fit) or False (at prediction), got {reset!r}")
    if not hasattr(estimator, "__sklearn_tags__"):
        raise TypeError(f"estimator must be a scikit-learn estimator (a BaseEstimator), got {type(estimator).__name__}")
    if isinstance(X, pd.DataFrame):
        if not _plain_feature_names(estimator, X, reset):
            validate_data(estimator, X, skip_check_array=True, reset=reset)
        return X
    return validate_data(estimator, X, reset=reset, dtype="numeric", ensure_all_finite="allow-nan")


def _plain_feature_names(estimator, X: pd.DataFrame, reset: bool) -> bool:
    """scikit-learn's checks of a DataFrame's feature names and count (``validate_data``), done here when plain.

    Plain: every column name a ``str``; in fit (``reset``) ``feature_names_in_`` and
    ``n_features_in_`` are set as scikit-learn sets them; at prediction the names must be those of
    fit, in order, so that scikit-learn's checks would pass without a word. Otherwise False, and
    scikit-learn checks (and warns or raises with its own messages). A DataFrame through a
    pipeline is checked by each step, so the plain case is made cheap.
    """
    columns = X.columns.tolist()
    if not columns or not all(type(name) is str for name in columns):
        return False
    if reset:
        estimator.feature_names_in_ = np.asarray(columns, dtype=object)
        estimator.n_features_in_ = len(columns)
        return True
    fitted = getattr(estimator, "feature_names_in_", None)
    return (fitted is not None and getattr(estimator, "n_features_in_", None) == len(columns)
            and len(fitted) == len(columns) and all(a == b for a, b in zip(fitted, columns)))
