"""Where the book's checkout is, for the library and the book alike (standard library only).

The library reads the book's copy of the data from it (:func:`credalbook.data.repository_dir`), the
command line's ``--root`` names it, and the book's machinery builds on it
(:func:`credalbook.book.paths.repo_root`). The current folder is never searched, so a command
started inside another book cannot act on it.
"""
from __future__ import annotations

import os
from pathlib import Path

__all__ = ["book_checkout", "require_book_checkout"]

#: The file that marks a book's top folder.
MARKER = "_toc.yml"


def _chosen(root) -> Path | None:
    chosen = root if root is not None else os.environ.get("CREDALBOOK_ROOT")
    return Path(chosen).resolve() if chosen else None


def book_checkout(root: str | os.PathLike | None = None) -> Path | None:
    """The book's top folder: ``root`` when given, else ``$CREDALBOOK_ROOT`` when set, else the checkout the
    package lives in; None when that folder is not a book (no ``_toc.yml``)."""
    folder = _chosen(root) or Path(__file__).resolve().parent.parent
    return folder if (folder / MARKER).is_file() else None


def require_book_checkout(root: str | os.PathLike | None = None) -> Path:
    """:func:`book_checkout`, or a :class:`FileNotFoundError` that says which folder is not a book and what to do."""
    folder = book_checkout(root)
    if folder is not None:
        return folder
    chosen = _chosen(root)
    if chosen is not None:
        raise FileNotFoundError(f"root {chosen} is not a book: it has no {MARKER}")
    raise FileNotFoundError(f"credalbook is installed without its book (no {MARKER} beside the package): "
                            "clone the book's repository, or pass --root DIR / set CREDALBOOK_ROOT")
