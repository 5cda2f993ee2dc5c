"""Figures shared by several chapters (matplotlib, in the book's style: :mod:`credalbook.style`)."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

__all__ = ["equal_performance_scatter", "annotated_heat_map"]


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


def _short(value: float, decimals: int) -> str:
    """A value in [-1, 1] as a correlation table prints it: ``.45``, ``−.08``, ``1``."""
    value = round(float(value), decimals)
    if value == 0:
        return "0"
    if float(value).is_integer():
        return f"{value:.0f}".replace("-", "\u2212")
    text = f"{abs(value):.{decimals}f}".lstrip("0")
    return ("\u2212" if value < 0 else "") + text


def _wrapped(label: str, width: int = 22) -> str:
    """A long label on two lines, broken at the space nearest its middle."""
    if len(label) <= width or " " not in label:
        return label
    spaces = [k for k, ch in enumerate(label) if ch == " "]
    cut = min(spaces, key=lambda k: abs(k - len(label) / 2))
    return label[:cut] + "\n" + label[cut + 1:]


def annotated_heat_map(matrix, row_labels, column_labels=None, *, ax=None, cmap: str = "RdBu", vmin: float = -1.0,
                       vmax: float = 1.0, decimals: int = 2, colorbar_label: str = "", lower_triangle: bool = False,
                       fontsize: float = 9, number_columns: bool | None = None):
    """A heat map that reads at the book's size, values written in the cells.

    No grid line crosses a cell (the style's grid is switched off on these axes); the column
    labels stand upright (or are numbers); values print as a
    correlation table does (``.45``, ``−.08``) at ``fontsize`` points (9 at least), white on dark
    cells; ``lower_triangle`` shows a symmetric matrix once (the cells above the diagonal
    blank). ``number_columns`` heads the columns 1, 2, ... and ends each row's label with its
    number (the default when the rows and columns are the same labels and one is longer than 8
    characters), so that long names are written once, horizontally. A value that does not fit its
    cell is written with fewer decimals, down to one, or not at all (the colour still shows it).
    The figure is ``COLUMN_WIDTH`` wide, taller with more rows. Returns the axes.
    """
    from matplotlib.colors import Normalize

    from credalbook.style import COLUMN_WIDTH, MIN_FONT_SIZE

    values = np.asarray(matrix, dtype=float)
    if values.ndim != 2:
        raise ValueError(f"matrix must be 2-d, got shape {values.shape}")
    column_labels = list(row_labels) if column_labels is None else list(column_labels)
    if (len(row_labels), len(column_labels)) != values.shape:
        raise ValueError(f"{len(row_labels)} row and {len(column_labels)} column labels for a matrix of shape "
                         f"{values.shape}")
    if fontsize < MIN_FONT_SIZE:
        raise ValueError(f"fontsize must be at least {MIN_FONT_SIZE:g} pt, got {fontsize}")
    rows, columns = values.shape
    shown = values.copy()
    if lower_triangle:
        if rows != columns:
            raise ValueError("lower_triangle needs a square matrix")
        shown[np.triu_indices(rows, k=1)] = np.nan
    same = [str(v) for v in row_labels] == [str(v) for v in column_labels]
    if number_columns is None:
        number_columns = same and max(len(str(label)) for label in column_labels) > 8
    row_labels = [_wrapped(str(label)) for label in row_labels]
    column_labels = [str(label) for label in column_labels]
    if number_columns:
        row_labels = [f"{label}  {k:>2}" for k, label in enumerate(row_labels, start=1)] if same else row_labels
        column_labels = [str(k) for k in range(1, columns + 1)]
    longest = max(len(label) for label in column_labels)
    if ax is None:
        height = 0.36 * rows + (0.075 * longest if longest > 3 else 0.2) + 0.8
        _, ax = plt.subplots(figsize=(COLUMN_WIDTH, height))
    image = ax.imshow(np.ma.masked_invalid(shown), cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
    ax.grid(False)
    for spine in ax.spines.values():
        spine.set_visible(False)
    if longest > 3:
        ax.set_xticks(range(columns), column_labels, rotation=90)
    else:
        ax.set_xticks(range(columns), column_labels)
        ax.xaxis.tick_top()
    ax.set_yticks(range(rows), row_labels)
    ax.tick_params(length=0)
    if colorbar_label:
        ax.figure.colorbar(image, ax=ax, label=colorbar_label, shrink=0.8, fraction=0.04, pad=0.02)
    norm = Normalize(vmin, vmax)
    written = []
    for (r, c), value in np.ndenumerate(shown):
        if np.isnan(value):
            continue
        shade = norm(value)
        dark = shade < 0.2 or shade > 0.8 if cmap in ("RdBu", "RdBu_r", "coolwarm", "PuOr") else shade > 0.6
        written.append(ax.text(c, r, _short(value, decimals), ha="center", va="center", fontsize=fontsize,
                               color="white" if dark else "black"))
    _fit_cell_values(ax, written, columns, decimals, shown)
    return ax


def _fit_cell_values(ax, written, columns: int, decimals: int, shown) -> None:
    """Fewer decimals (down to one) while the widest value is wider than its cell; none if it still is."""
    if not written:
        return
    renderer = ax.figure.canvas.get_renderer()
    ax.figure.canvas.draw()
    cell = ax.get_window_extent(renderer).width / columns
    values = [v for v in shown.ravel() if not np.isnan(v)]
    while True:
        widest = max(t.get_window_extent(renderer).width for t in written)
        if widest <= cell - 2:
            return
        if decimals <= 1:
            for text in written:
                text.set_visible(False)
            return
        decimals -= 1
        for text, value in zip(written, values):
            text.set_text(_short(value, decimals))
