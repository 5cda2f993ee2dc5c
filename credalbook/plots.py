"""Figures shared by several chapters (matplotlib)."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

__all__ = ["equal_performance_scatter"]


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
