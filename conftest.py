"""Collect the MyST-markdown chapters as notebooks for nbval.

nbval 0.11 only collects ``.ipynb`` files and reads them with ``nbformat.read``; the chapters
are jupytext markdown notebooks, so this collector reads them through ``jupytext.read``
instead. Plain markdown pages (no kernelspec) are not collected.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent
sys.path.insert(0, str(ROOT))


def _is_notebook(path: Path) -> bool:
    head = path.read_text(encoding="utf-8")[:600]
    return head.startswith("---") and "kernelspec" in head and "jupytext" in head


os.environ.setdefault("TQDM_DISABLE", "1")  # no progress bars inside notebook tests


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False, help="run tests marked slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip_slow = pytest.mark.skip(reason="slow: use --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix != ".md" or "chapters" not in file_path.parts or not _is_notebook(file_path):
        return None
    if os.environ.get("CREDALBOOK_SKIP_NBVAL"):
        return None
    import jupytext
    import nbformat
    from nbval.plugin import IPyNbFile

    class MarkdownNotebook(IPyNbFile):
        def collect(self):
            real_read = nbformat.read
            nbformat.read = lambda fp, as_version=4: jupytext.read(fp)
            try:
                yield from super().collect()
            finally:
                nbformat.read = real_read

    return MarkdownNotebook.from_parent(parent, path=file_path)
