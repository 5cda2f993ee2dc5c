"""No path of the build machine in the repository or in the rendered book.

The book is read and rebuilt on other machines: a path such as the checkout's own folder, the
home folder or a temporary folder says nothing there (papers are cited by authors, year and
section; files by their path inside the repository). Checks every tracked text file and, once
``make book`` has run, every page of ``_build/html``.
"""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from credalbook.book.build import repo_root

ROOT = repo_root()
HTML = ROOT / "_build" / "html"
# an absolute path into a machine's working, home or temporary folders (not a URL's path, which
# follows a host name, nor a relative path such as data/raw/...)
MACHINE_PATH = re.compile(r"(?<![\w.:/~-])/(?:work|tmp|root|home|Users|var/folders|private/var)/")


def _offences(text: str) -> list[str]:
    """Machine paths in ``text``, and the checkout's own folder wherever the checkout lives."""
    return [m.group(0) for m in MACHINE_PATH.finditer(text)] + ([str(ROOT)] if str(ROOT) in text else [])


def test_the_pattern_catches_machine_paths_and_spares_urls():
    work, home = "/".join(["", "work", "shared", "seeds"]), "/".join(["", "root", ".cache"])  # not literal here
    assert _offences(f"see {work}/000.txt") and _offences(f"cache at {home}/x")
    assert _offences(f"built in {ROOT}/chapters")
    assert not _offences("https://example.org/home/page and data/raw/uci/iris.arff and ~/.cache/credalbook")


def _tracked_text_files() -> list[Path]:
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    paths = [ROOT / p for p in listed.decode().split("\0") if p]
    return [p for p in paths if p.is_file() and b"\0" not in p.read_bytes()[:4096]]


def test_no_machine_path_in_tracked_files():
    offences = {}
    for path in _tracked_text_files():
        found = _offences(path.read_text(encoding="utf-8", errors="replace"))
        if found:
            offences[str(path.relative_to(ROOT))] = sorted(set(found))[:3]
    assert not offences, offences


def test_no_machine_path_in_the_rendered_book():
    pages = sorted(HTML.rglob("*.html")) if HTML.is_dir() else []
    if not pages:
        if os.environ.get("CREDALBOOK_REQUIRE_BOOK"):
            pytest.fail("the book is not built: run `make book` before the tests")
        pytest.skip("the book is not built (run `make book`)")
    offences = {}
    for page in pages:
        found = _offences(page.read_text(encoding="utf-8", errors="replace"))
        if found:
            offences[str(page.relative_to(HTML))] = sorted(set(found))[:3]
    assert not offences, offences
