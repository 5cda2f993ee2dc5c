"""The one lookup of the book's checkout, shared by the library's data, the CLI's --root and the book's machinery."""
from __future__ import annotations

from pathlib import Path

import pytest

from credalbook import _checkout, data
from credalbook.book.paths import repo_root

PACKAGE_CHECKOUT = Path(_checkout.__file__).resolve().parent.parent


def _book(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "_toc.yml").write_text("format: jb-book\nroot: intro\n")
    return folder


def test_root_then_environment_then_the_package_checkout(tmp_path, monkeypatch):
    named, other = _book(tmp_path / "named"), _book(tmp_path / "other")
    monkeypatch.setenv("CREDALBOOK_ROOT", str(other))
    assert _checkout.book_checkout(named) == named.resolve()
    assert _checkout.book_checkout() == other.resolve() == repo_root()
    assert data.repository_dir() == other.resolve() / "data" / "raw"
    monkeypatch.delenv("CREDALBOOK_ROOT")
    expected = PACKAGE_CHECKOUT if (PACKAGE_CHECKOUT / "_toc.yml").is_file() else None
    assert _checkout.book_checkout() == expected


def test_the_current_folder_is_never_searched(tmp_path, monkeypatch):
    monkeypatch.delenv("CREDALBOOK_ROOT", raising=False)
    monkeypatch.chdir(_book(tmp_path / "elsewhere"))
    assert _checkout.book_checkout() != (tmp_path / "elsewhere").resolve()


def test_a_folder_that_is_not_a_book(tmp_path, monkeypatch):
    plain = tmp_path / "plain"
    plain.mkdir()
    assert _checkout.book_checkout(plain) is None
    with pytest.raises(FileNotFoundError, match=r"root .*plain is not a book: it has no _toc.yml"):
        _checkout.require_book_checkout(plain)
    monkeypatch.setenv("CREDALBOOK_ROOT", str(plain))
    assert data.repository_dir() is None  # a named folder that is no book is not replaced by another
    with pytest.raises(FileNotFoundError, match="is not a book"):
        repo_root()
