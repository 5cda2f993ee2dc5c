"""The book's one matplotlib style, for its figures and for readers who want theirs to match.

Figures are drawn at the size they are read: :data:`COLUMN_WIDTH` inches is the width of the
rendered book's text column at 96 dpi, so a figure no wider than it is never shrunk and an
11-pt label reads as 11 pt. :func:`use` applies the style (and, in a notebook, high-resolution
PNG output shown at its logical size).
"""
from __future__ import annotations

__all__ = ["COLUMN_WIDTH", "COLOURS", "BOOK_STYLE", "use"]

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

