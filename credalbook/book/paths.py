"""Where the book's checkout is: the ground floor of the book's machinery, importing nothing of it.

:func:`repo_root` lived in :mod:`credalbook.book.build`, which the experiments, the store and the
ledger imported for it while the build imported them back (an import circle of nine files);
here it depends on nothing but the standard library.
"""
from __future__ import annotations

import os
from pathlib import Path

from credalbook._checkout import require_book_checkout

__all__ = ["repo_root"]


def repo_root(root: str | os.PathLike | None = None) -> Path:
    """The book's top folder (the one with ``_toc.yml``).

    ``root`` when given, else ``$CREDALBOOK_ROOT`` when set (``credalbook --root DIR`` sets it
    for the kernels it starts), else the checkout the package itself lives in. The current
    folder is never searched, so a command started inside another book cannot act on it; a
    folder that is not a book is refused (``credalbook._checkout.require_book_checkout``).
    """
    return require_book_checkout(root)
