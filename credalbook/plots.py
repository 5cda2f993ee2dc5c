"""Figures shared by several chapters (matplotlib)."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

__all__ = ["critical_difference_diagram", "equal_performance_scatter"]


def critical_difference_diagram(ranks: pd.Series, critical_difference: float, ax=None, title: str | None = None):
    """Demšar's diagram: mean ranks on an axis (best on the right), a bar of length CD, and
    thick lines joining classifiers whose mean ranks differ by less than CD."""
    ranks = ranks.sort_values()
    k = len(ranks)
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 1.2 + 0.35 * k))
    low, high = 1, max(k, int(np.ceil(ranks.max())))
    ax.set_xlim(high + 0.3, low - 0.3)  # rank 1 (best) on the right
    ax.set_ylim(-(k + 2) * 0.5, 1.2)
    ax.hlines(0, low, high, color="black", lw=1)
    for r in range(low, high + 1):
        ax.vlines(r, 0, 0.12, color="black", lw=1)
        ax.text(r, 0.2, str(r), ha="center", va="bottom", fontsize=9)
    ax.hlines(0.85, low, low + critical_difference, color="black", lw=2)
    ax.text(low + critical_difference / 2, 0.95, f"CD = {critical_difference:.2f}", ha="center", fontsize=9)
    for i, (name, rank) in enumerate(ranks.items()):
        y = -(i + 1) * 0.5
        left = i < (k + 1) // 2
        x_text = low - 0.25 if left else high + 0.25
        ax.plot([rank, rank, x_text], [0, y, y], color="black", lw=0.8)
        ax.text(x_text, y, f"{name} ({rank:.2f})", ha="right" if left else "left", va="center", fontsize=9)
    # groups of classifiers not significantly different
    values = ranks.to_numpy()
    groups = []
    for i in range(k):
        j = np.searchsorted(values, values[i] + critical_difference, side="right") - 1
        if j > i and not any(g[0] <= i and g[1] >= j for g in groups):
            groups.append((i, j))
    for level, (i, j) in enumerate(groups):
        ax.hlines(-0.15 - 0.12 * level, values[i] - 0.03, values[j] + 0.03, color="tab:red", lw=3)
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=10)
    return ax


def equal_performance_scatter(x, y, labels=None, ax=None, xlabel: str = "", ylabel: str = "", title: str | None = None):
    """Scatter of paired scores with the diagonal of equal performance (the papers' Fig. 5 style)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if ax is None:
        _, ax = plt.subplots(figsize=(4.5, 4.5))
    low = float(min(x.min(), y.min()))
    high = float(max(x.max(), y.max()))
    pad = 0.02 * (high - low or 1)
    ax.plot([low - pad, high + pad], [low - pad, high + pad], color="grey", lw=1)
    ax.scatter(x, y, s=14)
    if labels is not None:
        for xi, yi, label in zip(x, y, labels):
            ax.annotate(str(label), (xi, yi), fontsize=6, alpha=0.7)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_aspect("equal")
    if title:
        ax.set_title(title, fontsize=10)
    return ax
