"""The book's one matplotlib style, for its figures and for readers who want theirs to match.

Figures are drawn at the size they are read: :data:`COLUMN_WIDTH` inches is the width of the
rendered book's text column at 96 dpi, so a figure no wider than it is never shrunk and an
11-pt label reads as 11 pt. :func:`use` applies the style (and, in a notebook, high-resolution
PNG output shown at its logical size).
"""
from __future__ import annotations

__all__ = ["COLUMN_WIDTH", "COLOURS", "BOOK_STYLE", "MIN_FONT_SIZE", "use", "layout_problems"]

#: Width of the book's text column in inches at 96 dpi (672 px, the column of a 1280 px window), the widest a figure should be.
COLUMN_WIDTH = 7.0

#: The colour cycle (Okabe & Ito's palette, distinguishable with the common colour-vision deficiencies).
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")

#: The rcParams of the style (``matplotlib.rcParams.update(BOOK_STYLE)`` is what :func:`use` does first).
BOOK_STYLE = {
    "figure.figsize": (COLUMN_WIDTH, 4.0),
    "figure.dpi": 96,
    "figure.constrained_layout.use": True,
    "savefig.dpi": 192,
    "savefig.bbox": "tight",
    "font.size": 11,
    "axes.titlesize": 12,
    "axes.labelsize": 11,
    "xtick.labelsize": 10,
    "ytick.labelsize": 10,
    "legend.fontsize": 10,
    "legend.frameon": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "axes.axisbelow": True,
    "lines.linewidth": 1.6,
    "lines.markersize": 5,
    "image.cmap": "viridis",
    "axes.formatter.use_mathtext": True,
    "axes.formatter.limits": (-4, 5),
}


#: The smallest font, in points, a figure may print (a label of 9 pt at the column's width is still read).
MIN_FONT_SIZE = 9.0


def layout_problems(figure, *, min_fontsize: float = MIN_FONT_SIZE) -> list[str]:
    """What a reader could not read in ``figure``, measured with its renderer after drawing it.

    Returns one sentence per problem (an empty list for a legible figure): a text below
    ``min_fontsize`` points (tick labels and legends included); two texts whose boxes overlap;
    a line of an axes (a curve, a connector, a grid line) crossing a text placed on that axes
    (a value written on a heat map cell, a name at the end of a connector).
    """
    from matplotlib.lines import Line2D
    from matplotlib.text import Text

    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    canvas = figure.bbox
    texts = []
    for text in figure.findobj(match=Text):
        if not text.get_visible() or not text.get_text().strip():
            continue
        box = text.get_window_extent(renderer)
        if box.width <= 0 or not box.overlaps(canvas):
            continue
        texts.append((text, box))
    problems = [f"{text.get_text()!r} is {text.get_fontsize():g} pt (below {min_fontsize:g})"
                for text, _ in texts if text.get_fontsize() < min_fontsize - 1e-9]
    inks = [_ink(text, box, renderer) for text, box in texts]
    for i, (first, a) in enumerate(texts):
        for (second, b), ink in zip(texts[i + 1:], inks[i + 1:]):
            overlap_w = min(a.x1, b.x1) - max(a.x0, b.x0)
            overlap_h = min(a.y1, b.y1) - max(a.y0, b.y0)
            if overlap_w > 1 and overlap_h > 1 and (inks[i] is None or ink is None
                                                    or inks[i].intersects_path(ink, filled=True)):
                problems.append(f"{first.get_text()!r} overlaps {second.get_text()!r}")
    for ax in figure.axes:
        placed = [(t, _inner(t.get_window_extent(renderer))) for t in ax.texts
                  if t.get_visible() and t.get_text().strip()]
        lines = [line for line in ax.get_lines() if line.get_visible()]
        if ax.axison:
            lines += [line for line in [*ax.xaxis.get_gridlines(), *ax.yaxis.get_gridlines()] if line.get_visible()]
        for line in lines:
            if not isinstance(line, Line2D) or line.get_linestyle() in ("None", " ", ""):
                continue
            path = line.get_transform().transform_path(line.get_path())
            for text, box in placed:
                if path.intersects_bbox(box, filled=False):
                    problems.append(f"a line crosses {text.get_text()!r}")
    return problems


def _ink(text, box, renderer):
    """The rectangle a rotated text covers (a closed path, 1 px inside), or None for upright text,
    whose window extent is that rectangle already. A rotated rectangle's bounding box shares its
    centre, so the unrotated size, turned by the angle about that centre, is the ink."""
    import numpy as np
    from matplotlib.path import Path

    angle = text.get_rotation() % 180
    if min(angle, 180 - angle) < 1e-6:
        return None
    rotation = text.get_rotation()
    text.set_rotation(0)
    upright = text.get_window_extent(renderer)
    text.set_rotation(rotation)
    w, h = max(upright.width - 2, 0) / 2, max(upright.height - 2, 0) / 2
    theta = np.deg2rad(rotation)
    turn = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    corners = np.array([[-w, -h], [w, -h], [w, h], [-w, h], [-w, -h]]) @ turn.T
    return Path(corners + [(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2], closed=True)


def _inner(box):
    """The ink of a text's box: its padding (a leading space, the line height) trimmed on every side."""
    from matplotlib.transforms import Bbox

    dx, dy = 0.05 * box.width + 1, 0.2 * box.height
    return Bbox.from_extents(box.x0 + dx, box.y0 + dy, box.x1 - dx, box.y1 - dy)


def use() -> None:
    """Apply the book's style; in IPython, also show figures as 2x PNG at their logical size."""
    import matplotlib as mpl
    from cycler import cycler

    mpl.rcParams.update(BOOK_STYLE)
    mpl.rcParams["axes.prop_cycle"] = cycler(color=list(COLOURS))
    try:
        from IPython import get_ipython

        shell = get_ipython()
    except ImportError:  # pragma: no cover - IPython ships with the book's environment
        shell = None
    if shell is not None:
        from matplotlib_inline.backend_inline import set_matplotlib_formats

        set_matplotlib_formats("retina")

