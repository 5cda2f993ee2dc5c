"""Figures as scikit-learn style Display objects: compute once, plot on any axes.

Each Display is built ``from_predictions`` (or ``from_estimator``, or ``from_scores``), keeps
the numbers it plots as attributes, and draws with ``plot(ax=None)``, which sets ``ax_`` and
``figure_`` and returns the Display (as scikit-learn's ``RocCurveDisplay`` does):

- :class:`CostCurveDisplay` — expected cost curves K_γ(c) of threshold choice methods under a
  Beta-distributed cost proportion of certainty γ, the expected loss (the area) in the legend
  (Ferri, Hernández-Orallo & Flach 2019, Figs. 1, 3, 4, 7; Drummond & Holte's cost curves);
- :class:`BrierCurveDisplay` — the cost curve of score-driven thresholds, whose area is the
  Brier score (Ferri et al. 2019, Table 4);
- :class:`CriticalDifferenceDisplay` — Demšar's critical-difference diagram of mean ranks with
  the Nemenyi critical difference (Zaffalon, Corani & Mauá 2012, Fig. 6);
- :class:`ProbabilisticConfusionMatrixDisplay` — the probabilistic confusion matrix CM* beside the
  confusion matrix CM (Aguilar-Ruiz 2025, Defs. 4-5);
- :class:`SetSizeDisplay` — how many instances get sets of each size, and how often each size
  holds the true class (determinacy and its accuracy, Zaffalon et al. 2012 §9).
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from credalbook import certainty, costspace, stats
from credalbook._validation import check_array, check_probabilities, check_scalar
from credalbook.pipeline import predict_set
from credalbook.sets import check_targets_and_sets, encode_targets
from credalbook.style import COLUMN_WIDTH

__all__ = ["CostCurveDisplay", "BrierCurveDisplay", "CriticalDifferenceDisplay", "ProbabilisticConfusionMatrixDisplay",
           "SetSizeDisplay"]

METHOD_COLOURS = {"test-optimal": "tab:green", "train-optimal": "tab:blue", "score-driven": "tab:red",
                  "rate-driven": "tab:purple", "score-uniform": "tab:orange", "rate-uniform": "tab:brown"}


def _axes(ax, size):
    if ax is None:
        figure, ax = plt.subplots(figsize=size)
    return ax, ax.figure


def _plain(values) -> list:
    """The values of a 1-d array-like as Python objects (NumPy scalars unwrapped), for label look-ups."""
    return [v.item() if isinstance(v, np.generic) else v for v in np.asarray(values, dtype=object).ravel().tolist()]


def _fitted_classifier(estimator) -> list:
    """The classes of a fitted classifier: TypeError for a regressor or another object, NotFittedError unfitted."""
    from sklearn.base import is_classifier
    from sklearn.utils.validation import check_is_fitted

    try:
        classifier = is_classifier(estimator)
    except Exception:  # an object scikit-learn cannot read tags from
        classifier = False
    if not classifier:
        raise TypeError(f"estimator must be a fitted classifier (predict_proba and classes_), got "
                        f"{type(estimator).__name__}")
    check_is_fitted(estimator)
    return _plain(estimator.classes_)


def _targets_of(estimator_classes: list, y, name: str = "y") -> list:
    """``y`` as a list of labels, each one of the estimator's classes (ValueError naming ``name`` otherwise)."""
    values = _plain(y)
    if np.ndim(y) != 1 or not values:
        raise ValueError(f"{name} must be a non-empty 1-d array of class labels, got shape {np.shape(y)}")
    unknown = [v for v in values if v not in estimator_classes]
    if unknown:
        raise ValueError(f"{name} holds {unknown[0]!r}, which is not one of the estimator's classes {estimator_classes}")
    return values


def _resolve_pos_label(values: list, pos_label, name: str = "y_true"):
    """The positive class: ``pos_label``, or 1 when the labels are 0/1 (or -1/1) as scikit-learn's metrics read them."""
    classes = list(dict.fromkeys(values))
    if len(classes) > 2:
        raise ValueError(f"{name} must hold two classes for cost curves, got {len(classes)}: {classes[:5]}")
    if pos_label is None:
        numeric = all(isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool) for v in classes)
        if not (numeric and (set(classes) <= {0, 1} or set(classes) <= {-1, 1})):
            raise ValueError(f"{name} holds the labels {classes}: pass pos_label=, the positive class (whose score "
                             "y_score is); it is 1 by default only for labels 0/1 or -1/1")
        return 1
    if pos_label not in classes:
        raise ValueError(f"pos_label {pos_label!r} is not a label of {name} (labels: {classes})")
    return pos_label


def _positive_first(y, score, pos_label, y_name: str, score_name: str, probabilities: bool):
    """Ferri et al.'s coding of (labels, scores of ``pos_label``): class 0 is ``pos_label`` (the positive class), the
    score is that of class 1, ``1 − score``, so that c is the cost of missing a positive as in
    :func:`credalbook.costspace.deployment_threshold`."""
    values = _plain(y)
    if np.ndim(y) != 1 or not values:
        raise ValueError(f"{y_name} must be a non-empty 1-d array of class labels, got shape {np.shape(y)}")
    score = check_array(score, score_name, ndim=1)
    if len(score) != len(values):
        raise ValueError(f"{y_name} has {len(values)} instances but {score_name} has {len(score)}")
    if probabilities and (score.min() < 0.0 or score.max() > 1.0):
        raise ValueError(f"{score_name} must hold probabilities in [0, 1] for score-driven thresholds, got range "
                         f"[{score.min():.6g}, {score.max():.6g}]")
    return np.array([0 if v == pos_label else 1 for v in values], dtype=np.int64), 1.0 - score


def _binary_scores(estimator, X, y, pos_label, name: str = "y"):
    """(labels, scores of ``pos_label``) of a fitted binary classifier on (X, y)."""
    classes = _fitted_classifier(estimator)
    if len(classes) != 2:
        raise ValueError(f"cost curves need a binary classifier, {type(estimator).__name__} has {len(classes)} classes")
    if pos_label not in classes:
        raise ValueError(f"pos_label {pos_label!r} is not one of the estimator's classes {classes}")
    values = _targets_of(classes, y, name)
    return values, estimator.predict_proba(X)[:, classes.index(pos_label)]


class CostCurveDisplay:
    """Expected cost curves K_γ(c) of threshold choice methods (Ferri et al. 2019, Sect. 5).

    Attributes: ``c`` (grid of cost proportions), ``curves`` {(method, γ): K_γ(c) on the grid},
    ``losses`` {(method, γ): expected loss, the area under the curve}, ``cost_lines`` (the
    sample's cost lines, intercepts and slopes), ``pos_label`` (the positive class; None for a
    Display built directly) and, after ``plot``, ``ax_`` and ``figure_``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from credalbook.display import CostCurveDisplay
    >>> y = ["spam", "ham", "spam", "ham", "ham", "spam"]
    >>> p_spam = [0.9, 0.4, 0.7, 0.2, 0.6, 0.55]
    >>> display = CostCurveDisplay.from_predictions(y, p_spam, pos_label="spam", n_grid=11)
    >>> {method: round(loss, 4) for (method, gamma), loss in display.losses.items() if gamma == float("inf")}
    {'test-optimal': 0.0833, 'score-driven': 0.1437, 'rate-driven': 0.1389}
    >>> display.ax_.get_xlabel()
    'cost proportion c'
    """

    def __init__(self, c, curves, losses, cost_lines=None, title: str = "", pos_label=None):
        self.c, self.curves, self.losses, self.cost_lines, self.title = c, curves, losses, cost_lines, title
        self.pos_label = pos_label

    @classmethod
    def from_predictions(cls, y_true, y_score, *, pos_label=None, y_train=None, y_train_score=None, methods=None,
                         gammas=(np.inf, 0.0), n_grid: int = 1001, ax=None, title: str = "", plot: bool = True):
        """From the labels of two classes and the scores of the positive class ``pos_label``.

        As scikit-learn's metrics take them: ``y_score`` is the score (a probability for the
        score-driven methods) of ``pos_label``, which defaults to 1 for labels 0/1 or -1/1 and
        must be named otherwise. The cost proportion ``c`` is the cost of missing a positive,
        c = c_FN / (c_FN + c_FP), as in :func:`credalbook.costspace.deployment_threshold` (the
        positive class is Ferri et al.'s class 0). ``train-optimal`` needs the training labels
        and scores (``y_train``, ``y_train_score``, of the same classes); ``methods`` defaults to
        test-optimal, score-driven and rate-driven, with train-optimal added when they are given.
        """
        if methods is None:
            trained = y_train is not None and y_train_score is not None
            methods = ("test-optimal",) + (("train-optimal",) if trained else ()) + ("score-driven", "rate-driven")
        else:
            if isinstance(methods, str):
                raise TypeError(f"methods must be a list of method names, got the string {methods!r}")
            methods = tuple(methods)
            unknown = [m for m in methods if m not in costspace.METHODS]
            if unknown or not methods:
                raise ValueError(f"methods must name some of {', '.join(costspace.METHODS)}, got {list(methods)}")
            if "train-optimal" in methods and (y_train is None or y_train_score is None):
                raise ValueError("method 'train-optimal' needs the training labels and scores: pass y_train and "
                                 "y_train_score (X_train and y_train to from_estimator)")
        gammas = tuple(np.atleast_1d(np.asarray(gammas, dtype=float)).tolist()) if not isinstance(gammas, str) else ()
        if not gammas or any(np.isnan(g) or g < 0 for g in gammas):
            raise ValueError(f"gammas must hold certainties γ >= 0 (np.inf for an exact cost proportion), got {gammas}")
        check_scalar(n_grid, "n_grid", low=2, integer=True)
        pos_label = _resolve_pos_label(_plain(y_true), pos_label)
        probabilities = any(m in ("score-driven", "score-uniform") for m in methods)
        labels, scores = _positive_first(y_true, y_score, pos_label, "y_true", "y_score", probabilities)
        if np.unique(labels).size < 2:
            raise ValueError(f"y_true holds one class only ({pos_label!r} or not): cost lines need both classes")
        train_labels = train_scores = None
        if "train-optimal" in methods:
            train_values = _plain(y_train)
            strangers = [v for v in train_values if v not in set(_plain(y_true))]
            if strangers:
                raise ValueError(f"y_train holds {strangers[0]!r}, which is not one of the classes of y_true")
            train_labels, train_scores = _positive_first(y_train, y_train_score, pos_label, "y_train",
                                                         "y_train_score", False)
        curves, losses = {}, {}
        c = np.linspace(0.0, 1.0, n_grid)
        for method in methods:
            selection = costspace.threshold_selection(labels, scores, method, y_train=train_labels,
                                                      s_train=train_scores)
            for gamma in gammas:
                curves[(method, gamma)] = selection.curve(gamma, c)
                losses[(method, gamma)] = selection.loss(gamma)
        lines = costspace.cost_lines(labels, scores)
        display = cls(c, curves, losses, (lines.intercept, lines.slope), title, pos_label)
        return display.plot(ax=ax) if plot else display

    @classmethod
    def from_estimator(cls, estimator, X, y, *, X_train=None, y_train=None, pos_label=None, **kwargs):
        """From a fitted binary classifier's ``predict_proba`` on (X, y) (and on ``X_train``, ``y_train``, for train-optimal).

        ``pos_label`` defaults to ``estimator.classes_[1]`` (as scikit-learn's displays do); ``y``
        holds the estimator's labels. Without training data the default methods leave
        train-optimal out.
        """
        classes = _fitted_classifier(estimator)
        if pos_label is None and len(classes) == 2:
            pos_label = classes[1]
        if (X_train is None) != (y_train is None):
            raise ValueError("X_train and y_train go together: pass both (for train-optimal thresholds) or neither")
        labels, scores = _binary_scores(estimator, X, y, pos_label)
        train = _binary_scores(estimator, X_train, y_train, pos_label, "y_train") if X_train is not None else (None, None)
        return cls.from_predictions(labels, scores, pos_label=pos_label, y_train=train[0], y_train_score=train[1],
                                    **kwargs)

    def plot(self, ax=None, *, show_cost_lines: bool = False):
        ax, self.figure_ = _axes(ax, (6.4, 4.8))
        if show_cost_lines and self.cost_lines is not None:
            for intercept, slope in zip(*self.cost_lines):
                ax.plot([0, 1], [intercept, intercept + slope], color="0.85", lw=0.6, zorder=0)
        for (method, gamma), curve in self.curves.items():
            label = f"{method}, γ = {'∞' if gamma == np.inf else f'{gamma:g}'}: {self.losses[(method, gamma)]:.3f}"
            ax.plot(self.c, curve, color=METHOD_COLOURS.get(method, "black"), ls="-" if gamma == np.inf else "--",
                    lw=1.5, label=label)
        ax.set(xlim=(0, 1), ylim=(0, 1), xlabel="cost proportion c", ylabel="expected loss", title=self.title)
        ax.legend(loc="upper right", title="method, certainty: expected loss")
        self.ax_ = ax
        return self


class BrierCurveDisplay(CostCurveDisplay):
    """The Brier curve: the cost curve of score-driven thresholds under certainty, of area BS (Ferri et al. 2019).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from credalbook.costspace import brier_score
    >>> from credalbook.display import BrierCurveDisplay
    >>> y, p1 = [0, 1, 1, 0, 1], [0.2, 0.8, 0.6, 0.3, 0.9]
    >>> display = BrierCurveDisplay.from_predictions(y, p1, plot=False)
    >>> round(display.losses[("score-driven", float("inf"))], 6), round(brier_score(y, p1), 6)  # the area is the Brier score
    (0.068, 0.068)
    """

    @classmethod
    def from_predictions(cls, y_true, y_score, *, gammas=(np.inf,), **kwargs):
        return super().from_predictions(y_true, y_score, methods=("score-driven",), gammas=gammas, **kwargs)


class CriticalDifferenceDisplay:
    """Mean ranks of classifiers over datasets, with the Nemenyi critical difference (Demšar 2006).

    Attributes: ``ranks`` (mean rank per classifier, 1 = best), ``critical_difference``,
    ``groups`` (pairs of positions in the sorted ranks joined by a bar: not significantly
    different), ``pvalue`` (Friedman test).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> from credalbook.display import CriticalDifferenceDisplay
    >>> scores = pd.DataFrame({"A": [0.9, 0.8, 0.85, 0.7], "B": [0.8, 0.7, 0.8, 0.6], "C": [0.5, 0.6, 0.4, 0.65]})
    >>> display = CriticalDifferenceDisplay.from_scores(scores)
    >>> display.ranks.to_dict(), round(display.critical_difference, 3), display.groups
    ({'A': 1.0, 'B': 2.25, 'C': 2.75}, 1.657, [(0, 1), (1, 2)])
    """

    def __init__(self, ranks: pd.Series, critical_difference: float, pvalue: float, title: str = ""):
        self.ranks = ranks.sort_values()
        self.critical_difference, self.pvalue, self.title = critical_difference, pvalue, title
        values = self.ranks.to_numpy()
        groups = []
        for i in range(len(values)):
            j = int(np.searchsorted(values, values[i] + critical_difference, side="right")) - 1
            if j > i and not any(a <= i and b >= j for a, b in groups):
                groups.append((i, j))
        self.groups = groups

    @classmethod
    def from_scores(cls, scores: pd.DataFrame, *, alpha: float = 0.05, higher_is_better: bool = True, ax=None,
                    title: str = "", plot: bool = True):
        """From a (datasets × classifiers) table of scores, a DataFrame whose columns name the classifiers."""
        if not isinstance(scores, pd.DataFrame):
            raise TypeError(f"scores must be a DataFrame of datasets (rows) × classifiers (columns), got "
                            f"{type(scores).__name__}")
        if scores.shape[0] < 2 or scores.shape[1] < 2:
            raise ValueError(f"scores must hold at least two datasets (rows) and two classifiers (columns), got shape "
                             f"{scores.shape}")
        check_scalar(alpha, "alpha", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
        ranks = stats.mean_ranks(scores, higher_is_better=higher_is_better)
        n_datasets, n_classifiers = scores.shape
        cd = stats.nemenyi_critical_difference(n_classifiers, n_datasets, alpha)
        pvalue = stats.friedman_test(scores, alpha).pvalue if n_classifiers >= 3 else np.nan
        display = cls(ranks, cd, pvalue, title)
        return display.plot(ax=ax) if plot else display

    def plot(self, ax=None, *, fontsize: float = 11):
        k = len(self.ranks)
        ax, self.figure_ = _axes(ax, (COLUMN_WIDTH, 1.2 + 0.36 * k))
        low, high = 1, max(k, int(np.ceil(self.ranks.max())))
        ax.set_xlim(high + 0.35, low - 0.35)  # rank 1 (best) on the right
        ax.set_ylim(-(k + 2) * 0.5, 1.3)
        ax.hlines(0, low, high, color="black", lw=1)
        for r in range(low, high + 1):
            ax.vlines(r, 0, 0.12, color="black", lw=1)
            ax.text(r, 0.2, str(r), ha="center", va="bottom", fontsize=fontsize)
        ax.hlines(0.9, low, low + self.critical_difference, color="black", lw=2)
        ax.text(low + self.critical_difference / 2, 1.0, f"CD = {self.critical_difference:.2f}", ha="center",
                fontsize=fontsize)
        labels = []
        for i, (name, rank) in enumerate(self.ranks.items()):
            y = -(i + 1) * 0.5
            best_half = i < (k + 1) // 2  # drawn on the right (rank 1 is on the right)
            x_text = low - 0.3 if best_half else high + 0.3
            ax.plot([rank, rank, x_text], [0, y, y], color="black", lw=0.8)
            # the name starts where its connector ends and runs outwards, never over the lines
            labels.append(ax.text(x_text, y, f" {name} ({rank:.2f})", ha="left" if best_half else "right",
                                  va="center", fontsize=fontsize))
        _make_room_for_names(ax, labels, low, high)
        values = self.ranks.to_numpy()
        for level, (i, j) in enumerate(self.groups):
            ax.hlines(-0.15 - 0.12 * level, values[i] - 0.03, values[j] + 0.03, color="tab:red", lw=3)
        ax.axis("off")
        if self.title:
            ax.set_title(self.title, fontsize=fontsize + 1)
        self.ax_ = ax
        return self


def _make_room_for_names(ax, labels, low, high) -> None:
    """Widen the (inverted) x limits of a CD diagram so that the names on both sides fit inside the axes."""
    renderer = ax.figure.canvas.get_renderer()
    width = ax.get_window_extent(renderer).width
    right = max((t.get_window_extent(renderer).width for t in labels if t.get_ha() == "left"), default=0.0)
    left = max((t.get_window_extent(renderer).width for t in labels if t.get_ha() == "right"), default=0.0)
    share = min((left + right) / width, 0.8)
    span = (high - low + 0.7) / (1 - share)
    ax.set_xlim(high + 0.35 + span * left / width, low - 0.35 - span * right / width)


class ProbabilisticConfusionMatrixDisplay:
    """The confusion matrix CM and the probabilistic confusion matrix CM* side by side (Aguilar-Ruiz 2025).

    Attributes: ``confusion`` (K, K) CM (rows: true class, columns: predicted), ``probabilistic``
    (K, K) CM*, whose cell (i, j) sums the probability given to class j on instances of class i,
    and ``labels``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from credalbook.display import ProbabilisticConfusionMatrixDisplay
    >>> y = ["cat", "cat", "dog", "dog"]
    >>> proba = [[0.7, 0.3], [0.4, 0.6], [0.2, 0.8], [0.9, 0.1]]  # columns: cat, dog
    >>> display = ProbabilisticConfusionMatrixDisplay.from_predictions(y, proba, labels=["cat", "dog"])
    >>> display.confusion.tolist(), display.probabilistic.round(2).tolist()
    ([[1.0, 1.0], [1.0, 1.0]], [[1.1, 0.9], [1.1, 0.9]])
    """

    def __init__(self, confusion, probabilistic, labels):
        self.confusion, self.probabilistic, self.labels = confusion, probabilistic, list(labels)

    @classmethod
    def from_predictions(cls, y_true, proba, *, labels=None, display_labels=None, ax=None, plot: bool = True):
        """From true classes and an (n, K) probability matrix, the classes as scikit-learn's metrics take them.

        ``labels`` are the K classes in the order of ``proba``'s columns (a classifier's
        ``classes_``), and ``y_true`` holds those labels; without ``labels``, ``y_true`` holds
        class indices 0..K-1. ``display_labels`` names the classes on the axes (default:
        ``labels``, else the indices).
        """
        matrix = check_probabilities(proba, "proba")
        k = matrix.shape[1]
        try:
            targets = encode_targets(y_true, k, labels)
        except ValueError as error:
            if labels is not None and "is not one of labels" in str(error):
                raise ValueError(f"{error}; labels are the classes as y_true writes them: to name the columns of "
                                 "class indices 0..K-1, pass display_labels=") from None
            raise
        if len(targets) != len(matrix):
            raise ValueError(f"y_true has {len(targets)} instances but proba has {len(matrix)} rows")
        probabilistic = certainty.probabilistic_confusion_matrix(targets, matrix)
        confusion = certainty.confusion_matrix(targets, matrix)
        names = display_labels if display_labels is not None else labels
        names = list(range(k)) if names is None else _plain(names)
        if len(names) != k:
            raise ValueError(f"display_labels has {len(names)} names for {k} classes")
        display = cls(confusion, probabilistic, names)
        return display.plot(ax=ax) if plot else display

    @classmethod
    def from_estimator(cls, estimator, X, y, **kwargs):
        """From a fitted classifier's ``predict_proba`` on (X, y); ``y`` holds the estimator's labels."""
        classes = _fitted_classifier(estimator)
        values = _targets_of(classes, y)
        kwargs.setdefault("display_labels", classes)
        return cls.from_predictions(values, estimator.predict_proba(X), labels=classes, **kwargs)

    def plot(self, ax=None):
        if ax is None:
            self.figure_, ax = plt.subplots(1, 2, figsize=(COLUMN_WIDTH, 3.9))
        else:
            ax = np.atleast_1d(ax)
            self.figure_ = ax[0].figure
        for index, (axis, matrix, title) in enumerate(zip(ax, (self.confusion, self.probabilistic),
                                                          ("CM", "CM* (probabilities)"))):
            axis.imshow(matrix, cmap="Blues")
            axis.grid(False)  # no grid line through the numbers
            k = matrix.shape[0]
            # values written in the cells while they fit (two decimals up to 5 classes, one up to 12)
            decimals = 2 if k <= 5 else 1
            low, high = float(matrix.min()), float(matrix.max())
            for i in range(k if k <= 12 else 0):
                for j in range(k):
                    value = matrix[i, j]
                    text = f"{value:.0f}" if float(value).is_integer() else f"{value:.{decimals}f}"
                    dark = high > low and (value - low) / (high - low) > 0.6  # imshow scales min..max
                    axis.text(j, i, text, ha="center", va="center", color="white" if dark else "black",
                              fontsize=11 if k <= 5 else 9)
            step = int(np.ceil(k / 12))  # at most 12 class names per axis
            ticks = np.arange(0, k, step)
            names = [str(self.labels[t]) for t in ticks]
            axis.set(xticks=ticks, yticks=ticks, xticklabels=names, xlabel="predicted", title=title)
            axis.tick_params(axis="x", labelrotation=90 if max(len(n) for n in names) * len(ticks) > 40 else 0)
            if index == 0:  # the rows are the same classes on both panels: named once, on the left
                axis.set(yticklabels=names, ylabel="true")
            else:
                axis.set(yticklabels=[])
        self.ax_ = ax
        return self


class SetSizeDisplay:
    """Instances by the size of their predicted set, and how often each size holds the true class.

    Attributes: ``sizes`` (1..K, from 0 when ``empty="miss"`` keeps empty sets), ``share`` (fraction of instances with each size; share[0] is
    the determinacy), ``hit_rate`` (fraction of those sets containing the true class, NaN where
    no set has that size).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from credalbook.display import SetSizeDisplay
    >>> y = ["a", "c", "c", "a", "b"]
    >>> sets = [[1, 0, 0], [1, 1, 0], [0, 0, 1], [0, 1, 0], [1, 1, 1]]  # columns: a, b, c
    >>> display = SetSizeDisplay.from_predictions(y, sets, labels=["a", "b", "c"])
    >>> display.sizes.tolist(), display.share.tolist(), display.hit_rate.round(3).tolist()
    ([1, 2, 3], [0.6, 0.2, 0.2], [0.667, 0.0, 1.0])
    """

    def __init__(self, sizes, share, hit_rate, title: str = ""):
        self.sizes, self.share, self.hit_rate, self.title = sizes, share, hit_rate, title

    @classmethod
    def from_predictions(cls, y_true, y_set, *, labels=None, empty: str = "error", ax=None, title: str = "",
                         plot: bool = True):
        """From true classes and an (n, K) boolean set matrix, as :mod:`credalbook.metrics` takes them.

        ``labels`` are the K classes in the order of the set matrix's columns (a classifier's
        ``classes_``), and ``y_true`` holds those labels; without them ``y_true`` holds class
        indices 0..K-1. ``empty`` says how an empty set is read (:data:`credalbook.sets.EMPTY_POLICIES`):
        refused (``"error"``), a size-0 set that misses (``"miss"``, a bar of size 0), or every
        class (``"vacuous"``).
        """
        labels, sets, sizes = check_targets_and_sets(y_true, y_set, labels=labels, empty=empty)
        k = sets.shape[1]
        hit = sets[np.arange(labels.size), labels]
        size_values = np.arange(0 if np.any(sizes == 0) else 1, k + 1)
        counts = np.array([(sizes == s).sum() for s in size_values])
        hits = np.array([hit[sizes == s].sum() for s in size_values])
        with np.errstate(invalid="ignore", divide="ignore"):
            hit_rate = np.where(counts > 0, hits / np.maximum(counts, 1), np.nan)
        display = cls(size_values, counts / labels.size, hit_rate, title)
        return display.plot(ax=ax) if plot else display

    @classmethod
    def from_estimator(cls, estimator, X, y, **kwargs):
        """From a fitted set-valued classifier's sets on (X, y) (:func:`credalbook.pipeline.predict_set`);
        ``y`` holds the estimator's labels."""
        classes = _fitted_classifier(estimator)
        values = _targets_of(classes, y)
        return cls.from_predictions(values, predict_set(estimator, X), labels=classes, **kwargs)

    def plot(self, ax=None):
        ax, self.figure_ = _axes(ax, (COLUMN_WIDTH, 3.6))
        bars = ax.bar(self.sizes, self.share, color="C0", alpha=0.85)
        ax.grid(False)  # no grid line through the shares written above the bars
        notes = [ax.text(bar.get_x() + bar.get_width() / 2, bar.get_height(), f"{rate:.0%}", ha="center",
                         va="bottom", fontsize=10)
                 for bar, rate in zip(bars, self.hit_rate) if not np.isnan(rate)]
        ax.set(xticks=self.sizes, xlabel="size of the predicted set",
               ylabel="share of instances", ylim=(0, min(1.0, 1.2 * max(self.share.max(), 0.05))))
        ax.set_title((f"{self.title}\n" if self.title else "") + "above each bar: how often its sets hold the true class",
                     loc="right", fontsize=10)
        if _overlapping(notes, ax.figure.canvas.get_renderer()):  # many sizes: the shares stand upright
            for note in notes:
                note.set(rotation=90, text=f" {note.get_text()}")
        self.ax_ = ax
        return self


def _overlapping(texts, renderer) -> bool:
    """Whether any two of ``texts`` overlap on the canvas."""
    boxes = [t.get_window_extent(renderer) for t in texts]
    return any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
