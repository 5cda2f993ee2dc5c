"""Figures shared by several chapters (matplotlib, in the book's style: :mod:`credalbook.style`)."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

__all__ = ["equal_performance_scatter"]


def equal_performance_scatter(x, y, labels=None, ax=None, xlabel: str = "", ylabel: str = "", title: str | None = None,
                              *, highlight=None, highlight_label: str | None = None, limits: tuple | None = None,
                              fontsize: float = 10):
    """Scatter of paired scores (one point per dataset) with the diagonal of equal performance
    (the style of Zaffalon, Corani & Mauá 2012, Figs. 5 and 8).

    Points above the diagonal are where ``y`` is higher. ``highlight`` (a boolean mask) draws
    some points in the second colour of the book's palette (``highlight_label`` names them in a
    legend); ``labels`` writes a name beside each point at ``fontsize`` (at least 10 pt by
    default, the book's smallest); ``limits`` fixes both axes (default: the data's range with a
    margin). Returns the axes.
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"x and y must be 1-d of the same length, got shapes {x.shape} and {y.shape}")
    mask = np.zeros(x.size, dtype=bool) if highlight is None else np.asarray(highlight, dtype=bool)
    if mask.shape != x.shape:
        raise ValueError(f"highlight must have one entry per point ({x.size}), got shape {mask.shape}")
    if ax is None:
        _, ax = plt.subplots(figsize=(4.0, 4.0))
    if limits is None:
        finite = np.concatenate([x[np.isfinite(x)], y[np.isfinite(y)]])
        low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        pad = 0.04 * (high - low or 1)
        limits = (low - pad, high + pad)
    ax.plot(limits, limits, color="grey", lw=0.9, zorder=1)
    ax.scatter(x[~mask], y[~mask], s=18, color="C0", alpha=0.85, lw=0, zorder=2)
    if mask.any():
        ax.scatter(x[mask], y[mask], s=22, color="C1", marker="D", lw=0, zorder=3, label=highlight_label)
    if labels is not None:
        for xi, yi, label in zip(x, y, labels):
            ax.annotate(str(label), (xi, yi), xytext=(3, 2), textcoords="offset points", fontsize=fontsize,
                        color="#444444")
    ax.set(xlim=limits, ylim=limits, xlabel=xlabel, ylabel=ylabel)
    ax.set_aspect("equal")
    if title:
        ax.set_title(title, fontsize=11)
    return ax
