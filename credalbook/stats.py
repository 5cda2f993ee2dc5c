"""Statistical comparison of classifiers (Demšar 2006), as the source papers use it.

- two classifiers over many datasets: wins/ties/losses and the Wilcoxon signed-rank test;
- two classifiers on one dataset's cross-validation folds: the paired t-test (optionally with
  the Nadeau–Bengio correction for overlapping training sets);
- many classifiers over many datasets: mean ranks, the Friedman test and the Nemenyi
  critical difference :math:`CD = q_\\alpha\\sqrt{k(k+1)/(6N)}` with
  :math:`q_\\alpha` = studentized range quantile / :math:`\\sqrt 2`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as sps

from credalbook._validation import check_array, check_consistent_length, check_scalar

__all__ = ["TestResult", "wins_ties_losses", "wilcoxon_signed_rank", "paired_t_test", "mean_ranks",
           "friedman_test", "nemenyi_critical_difference", "nemenyi_pairs"]


@dataclass(frozen=True)
class TestResult:
    """A test statistic, its p-value and the decision at level ``alpha``.

    Examples
    --------
    >>> result = TestResult(statistic=2.0, pvalue=0.03, alpha=0.05)
    >>> result.significant
    True
    """

    statistic: float
    pvalue: float
    alpha: float

    @property
    def significant(self) -> bool:
        return bool(self.pvalue < self.alpha)


def _check_alpha(alpha) -> None:
    check_scalar(alpha, "alpha", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)


def _paired(a, b, name_a="a", name_b="b"):
    a = check_array(a, name_a, ndim=1)
    b = check_array(b, name_b, ndim=1)
    check_consistent_length((name_a, a), (name_b, b))
    return a, b


def wins_ties_losses(a, b, tol: float = 0.0) -> tuple[int, int, int]:
    """How often ``a`` beats, ties with (``|a-b| <= tol``) and loses to ``b``, pairwise.

    Parameters
    ----------
    a, b : array-like of shape (n,)
        Paired scores of two classifiers.
    tol : float, default 0.0
        Differences at most ``tol`` in absolute value are ties.

    Examples
    --------
    >>> wins_ties_losses([0.81, 0.75, 0.92, 0.66], [0.78, 0.75, 0.90, 0.71])
    (2, 1, 1)
    """
    a, b = _paired(a, b)
    check_scalar(tol, "tol", low=0.0)
    diff = a - b
    return int((diff > tol).sum()), int((np.abs(diff) <= tol).sum()), int((diff < -tol).sum())


def wilcoxon_signed_rank(a, b, alpha: float = 0.05) -> TestResult:
    """Two-sided Wilcoxon signed-rank test of paired scores (datasets as pairs; zero differences dropped).

    Parameters
    ----------
    a, b : array-like of shape (n,)
        Paired scores of two classifiers.
    alpha : float, default 0.05
        The level of the test, in (0, 1).

    Examples
    --------
    >>> a = [0.81, 0.75, 0.92, 0.66, 0.70, 0.88, 0.79]
    >>> b = [0.78, 0.75, 0.90, 0.61, 0.71, 0.84, 0.74]
    >>> result = wilcoxon_signed_rank(a, b)
    >>> result.statistic, round(result.pvalue, 4), result.significant
    (1.0, 0.0625, False)
    """
    a, b = _paired(a, b)
    _check_alpha(alpha)
    if np.all(a == b):
        return TestResult(0.0, 1.0, alpha)
    result = sps.wilcoxon(a, b, zero_method="wilcox", alternative="two-sided")
    return TestResult(float(result.statistic), float(result.pvalue), alpha)


def paired_t_test(a, b, alpha: float = 0.05, test_train_ratio: float | None = None) -> TestResult:
    """Two-sided paired t-test of per-fold scores; ``test_train_ratio`` applies the
    Nadeau–Bengio correction :math:`\\mathrm{Var}\\cdot(1/J + n_{test}/n_{train})`.

    Parameters
    ----------
    a, b : array-like of shape (n,)
        Paired scores of two classifiers.
    alpha : float, default 0.05
        The level of the test, in (0, 1).
    test_train_ratio : float, default None
        n_test / n_train of the folds, for the Nadeau–Bengio correction (None: no correction).

    Examples
    --------
    >>> a, b = [0.8, 0.82, 0.79, 0.85], [0.78, 0.8, 0.8, 0.81]
    >>> round(paired_t_test(a, b).statistic, 3)
    1.698
    >>> round(paired_t_test(a, b, test_train_ratio=1 / 9).statistic, 3)
    1.413
    """
    a, b = _paired(a, b)
    _check_alpha(alpha)
    diff = a - b
    n = diff.size
    if n < 2:
        raise ValueError("a paired t-test needs at least two paired scores")
    variance = diff.var(ddof=1)
    if variance == 0:
        return TestResult(0.0 if diff.mean() == 0 else np.sign(diff.mean()) * np.inf,
                          1.0 if diff.mean() == 0 else 0.0, alpha)
    factor = 1.0 / n if test_train_ratio is None else 1.0 / n + check_scalar(test_train_ratio, "test_train_ratio",
                                                                             low=0.0, low_inclusive=False)
    statistic = diff.mean() / np.sqrt(variance * factor)
    pvalue = 2 * sps.t.sf(abs(statistic), df=n - 1)
    return TestResult(float(statistic), float(pvalue), alpha)


def _score_table(scores) -> pd.DataFrame:
    if not isinstance(scores, pd.DataFrame):
        scores = pd.DataFrame(check_array(scores, "scores", ndim=2))
    if scores.shape[0] < 2 or scores.shape[1] < 2:
        raise ValueError(f"scores must be datasets x classifiers with at least 2 of each, got shape {scores.shape}")
    if scores.isna().any().any():
        raise ValueError("scores has missing values: drop the datasets where a classifier has no score")
    return scores.astype(float)


def mean_ranks(scores, higher_is_better: bool = True) -> pd.Series:
    """Mean rank of each classifier (columns) over datasets (rows); rank 1 is the best, ties averaged.

    Parameters
    ----------
    scores : DataFrame or array-like
        Shape (datasets, classifiers): one row per dataset, one column per classifier (a DataFrame's
        columns name them).
    higher_is_better : bool, default True

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame({"ncc": [0.9, 0.8, 0.7, 0.85], "nbc": [0.85, 0.82, 0.65, 0.8],
    ...                        "tree": [0.8, 0.7, 0.6, 0.75]})
    >>> mean_ranks(scores).to_dict()
    {'ncc': 1.25, 'nbc': 1.75, 'tree': 3.0}
    """
    table = _score_table(scores)
    ranks = (-table if higher_is_better else table).rank(axis=1, method="average")
    return ranks.mean(axis=0)


def friedman_test(scores, alpha: float = 0.05) -> TestResult:
    """Friedman's chi-square test that all classifiers (columns) perform the same over datasets (rows).

    Parameters
    ----------
    scores : DataFrame or array-like
        Shape (datasets, classifiers): one row per dataset, one column per classifier (a DataFrame's
        columns name them).
    alpha : float, default 0.05
        The level of the test, in (0, 1).

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame({"ncc": [0.9, 0.8, 0.7, 0.85], "nbc": [0.85, 0.82, 0.65, 0.8],
    ...                        "tree": [0.8, 0.7, 0.6, 0.75]})
    >>> result = friedman_test(scores)
    >>> round(result.statistic, 3), round(result.pvalue, 3)
    (6.5, 0.039)
    """
    _check_alpha(alpha)
    table = _score_table(scores)
    if table.shape[1] < 3:
        raise ValueError("the Friedman test needs at least three classifiers; use wilcoxon_signed_rank for two")
    result = sps.friedmanchisquare(*[table[c].to_numpy() for c in table.columns])
    return TestResult(float(result.statistic), float(result.pvalue), alpha)


def nemenyi_critical_difference(n_classifiers: int, n_datasets: int, alpha: float = 0.05) -> float:
    """Nemenyi critical difference of mean ranks (Demšar 2006, Eq. 5).

    Parameters
    ----------
    n_classifiers : int
    n_datasets : int
    alpha : float, default 0.05
        The level of the test, in (0, 1).

    Examples
    --------
    Demšar's example: four classifiers on fourteen datasets,
    CD = 2.569 sqrt(4·5 / (6·14)) = 1.25:

    >>> round(nemenyi_critical_difference(4, 14), 2)
    1.25
    """
    check_scalar(n_classifiers, "n_classifiers", low=2, integer=True)
    check_scalar(n_datasets, "n_datasets", low=1, integer=True)
    _check_alpha(alpha)
    q_alpha = sps.studentized_range.ppf(1 - alpha, n_classifiers, np.inf) / np.sqrt(2)
    return float(q_alpha * np.sqrt(n_classifiers * (n_classifiers + 1) / (6.0 * n_datasets)))


def nemenyi_pairs(scores, alpha: float = 0.05, higher_is_better: bool = True) -> pd.DataFrame:
    """Pairs of classifiers whose mean ranks differ by more than the critical difference.

    Parameters
    ----------
    scores : DataFrame or array-like
        Shape (datasets, classifiers): one row per dataset, one column per classifier (a DataFrame's
        columns name them).
    alpha : float, default 0.05
        The level of the test, in (0, 1).
    higher_is_better : bool, default True

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame({"ncc": [0.9, 0.8, 0.7, 0.85], "nbc": [0.85, 0.82, 0.65, 0.8],
    ...                        "tree": [0.8, 0.7, 0.6, 0.75]})
    >>> pairs = nemenyi_pairs(scores)
    >>> pairs.loc[pairs["significant"], ["first", "second"]].values.tolist()
    [['ncc', 'tree']]
    """
    ranks = mean_ranks(scores, higher_is_better)
    table = _score_table(scores)
    cd = nemenyi_critical_difference(table.shape[1], table.shape[0], alpha)
    rows = []
    names = list(ranks.index)
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            gap = ranks[second] - ranks[first]
            rows.append({"first": first, "second": second, "rank_first": ranks[first], "rank_second": ranks[second],
                         "difference": abs(gap), "critical_difference": cd, "significant": abs(gap) > cd,
                         "better": first if gap > 0 else second})
    return pd.DataFrame(rows)
