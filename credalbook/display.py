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
from credalbook.pipeline import predict_set
from credalbook.sets import check_targets_and_sets
from credalbook.style import COLUMN_WIDTH

__all__ = ["CostCurveDisplay", "BrierCurveDisplay", "CriticalDifferenceDisplay", "ProbabilisticConfusionMatrixDisplay",
           "SetSizeDisplay"]

METHOD_COLOURS = {"test-optimal": "tab:green", "train-optimal": "tab:blue", "score-driven": "tab:red",
                  "rate-driven": "tab:purple", "score-uniform": "tab:orange", "rate-uniform": "tab:brown"}


def _axes(ax, size):
    if ax is None:
        figure, ax = plt.subplots(figsize=size)
    return ax, ax.figure


def _binary_scores(estimator, X, y):
    """(labels 0/1, scores of the second class) of a fitted binary classifier on (X, y)."""
    classes = np.asarray(estimator.classes_).tolist()
    if len(classes) != 2:
        raise ValueError(f"cost curves need a binary classifier, {type(estimator).__name__} has {len(classes)} classes")
    labels = np.array([classes.index(v) if v in classes else -1 for v in np.asarray(y).tolist()])
    if np.any(labels < 0):
        raise ValueError(f"y holds labels that are not the estimator's classes {classes}")
    return labels, estimator.predict_proba(X)[:, 1]


class CostCurveDisplay:
    """Expected cost curves K_γ(c) of threshold choice methods (Ferri et al. 2019, Sect. 5).

    Attributes: ``c`` (grid of cost proportions), ``curves`` {(method, γ): K_γ(c) on the grid},
    ``losses`` {(method, γ): expected loss, the area under the curve}, ``cost_lines`` (the
    sample's cost lines, intercepts and slopes) and, after ``plot``, ``ax_`` and ``figure_``.
    """

    def __init__(self, c, curves, losses, cost_lines=None, title: str = ""):
        self.c, self.curves, self.losses, self.cost_lines, self.title = c, curves, losses, cost_lines, title

    @classmethod
    def from_predictions(cls, y_true, y_score, *, y_train=None, y_train_score=None, methods=None,
                         gammas=(np.inf, 0.0), n_grid: int = 1001, ax=None, title: str = "", plot: bool = True):
        """From labels in {0, 1} and scores of class 1; ``train-optimal`` needs the training labels and scores.

        ``methods`` defaults to test-optimal, score-driven and rate-driven, with train-optimal
        added when ``y_train`` and ``y_train_score`` are given.
        """
        if methods is None:
            trained = y_train is not None and y_train_score is not None
            methods = ("test-optimal",) + (("train-optimal",) if trained else ()) + ("score-driven", "rate-driven")
        elif "train-optimal" in methods and (y_train is None or y_train_score is None):
            raise ValueError("method 'train-optimal' needs the training labels and scores: pass y_train and "
                             "y_train_score (X_train and y_train to from_estimator)")
        curves, losses = {}, {}
        c = np.linspace(0.0, 1.0, n_grid)
        for method in methods:
            selection = costspace.threshold_selection(y_true, y_score, method, y_train=y_train, s_train=y_train_score)
            for gamma in gammas:
                curves[(method, gamma)] = selection.curve(gamma, c)
                losses[(method, gamma)] = selection.loss(gamma)
        lines = costspace.cost_lines(y_true, y_score)
        display = cls(c, curves, losses, (lines.intercept, lines.slope), title)
        return display.plot(ax=ax) if plot else display

    @classmethod
    def from_estimator(cls, estimator, X, y, *, X_train=None, y_train=None, **kwargs):
        """From a fitted binary classifier's ``predict_proba`` on (X, y) (and on ``X_train``, ``y_train``, for train-optimal).

        Without training data the default methods leave train-optimal out.
        """
        labels, scores = _binary_scores(estimator, X, y)
        train = _binary_scores(estimator, X_train, y_train) if X_train is not None else (None, None)
        return cls.from_predictions(labels, scores, y_train=train[0], y_train_score=train[1], **kwargs)

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
    """The Brier curve: the cost curve of score-driven thresholds under certainty, of area BS (Ferri et al. 2019)."""

    @classmethod
    def from_predictions(cls, y_true, y_score, *, gammas=(np.inf,), **kwargs):
        return super().from_predictions(y_true, y_score, methods=("score-driven",), gammas=gammas, **kwargs)


class CriticalDifferenceDisplay:
    """Mean ranks of classifiers over datasets, with the Nemenyi critical difference (Demšar 2006).

    Attributes: ``ranks`` (mean rank per classifier, 1 = best), ``critical_difference``,
    ``groups`` (pairs of positions in the sorted ranks joined by a bar: not significantly
    different), ``pvalue`` (Friedman test).
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
        """From a (datasets × classifiers) table of scores."""
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
    """

    def __init__(self, confusion, probabilistic, labels):
        self.confusion, self.probabilistic, self.labels = confusion, probabilistic, list(labels)

    @classmethod
    def from_predictions(cls, y_true, proba, *, labels=None, ax=None, plot: bool = True):
        """From class indices 0..K-1 and an (n, K) probability matrix."""
        probabilistic = certainty.probabilistic_confusion_matrix(y_true, proba)
        confusion = certainty.confusion_matrix(y_true, proba)
        labels = list(range(probabilistic.shape[0])) if labels is None else list(labels)
        if len(labels) != probabilistic.shape[0]:
            raise ValueError(f"labels has {len(labels)} names for {probabilistic.shape[0]} classes")
        display = cls(confusion, probabilistic, labels)
        return display.plot(ax=ax) if plot else display

    @classmethod
    def from_estimator(cls, estimator, X, y, **kwargs):
        from credalbook.scoring import class_indices

        return cls.from_predictions(class_indices(estimator, y), estimator.predict_proba(X),
                                    labels=np.asarray(estimator.classes_).tolist(), **kwargs)

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

    Attributes: ``sizes`` (1..K), ``share`` (fraction of instances with each size; share[0] is
    the determinacy), ``hit_rate`` (fraction of those sets containing the true class, NaN where
    no set has that size).
    """

    def __init__(self, sizes, share, hit_rate, title: str = ""):
        self.sizes, self.share, self.hit_rate, self.title = sizes, share, hit_rate, title

    @classmethod
    def from_predictions(cls, y_true, y_set, *, ax=None, title: str = "", plot: bool = True):
        """From class indices 0..K-1 and an (n, K) boolean set matrix."""
        labels, sets, sizes = check_targets_and_sets(y_true, y_set)
        k = sets.shape[1]
        hit = sets[np.arange(labels.size), labels]
        size_values = np.arange(1, k + 1)
        counts = np.array([(sizes == s).sum() for s in size_values])
        hits = np.array([hit[sizes == s].sum() for s in size_values])
        with np.errstate(invalid="ignore", divide="ignore"):
            hit_rate = np.where(counts > 0, hits / np.maximum(counts, 1), np.nan)
        display = cls(size_values, counts / labels.size, hit_rate, title)
        return display.plot(ax=ax) if plot else display

    @classmethod
    def from_estimator(cls, estimator, X, y, **kwargs):
        from credalbook.scoring import class_indices

        return cls.from_predictions(class_indices(estimator, y), predict_set(estimator, X), **kwargs)

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
