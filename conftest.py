"""Test every chapter once per CI run: read ``make book``'s execution, or execute it with nbval.

``make book`` executes each chapter with papermill into ``_build/executed/`` and stamps the copy
with the digest of its inputs (source, parameters, package, data:
:func:`credalbook.book.build.inputs_digest`). When that copy is current, the chapter's test reads it
(every code cell ran, no error output) instead of executing the chapter a second time. Otherwise
nbval executes the chapter: nbval 0.11 only collects ``.ipynb`` files and reads them with
``nbformat.read``, so this collector reads the jupytext markdown through ``jupytext.read``.
Plain markdown pages (no kernelspec) are not collected.
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


#: The parameters ``make book`` passes to every chapter under the default profile.
BOOK_PARAMETERS = {"profile": "ci"}


class ExecutedChapter(pytest.Item):
    """The chapter as ``make book`` executed it: every code cell ran and none raised."""

    def __init__(self, *, notebook, **kwargs):
        super().__init__(**kwargs)
        self.notebook = notebook

    def runtest(self):
        failures = []
        for index, cell in enumerate(self.notebook.cells):
            if cell.cell_type != "code":
                continue
            if cell.get("execution_count") is None and cell.source.strip():
                failures.append(f"cell {index} did not run")
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    failures.append(f"cell {index}: {output.get('ename')}: {output.get('evalue')}")
        if failures:
            raise AssertionError(f"{self.path.name}: " + "; ".join(failures))

    def reportinfo(self):
        return self.path, None, f"{self.name} (make book's execution)"


def _current_executed_copy(file_path: Path):
    """The executed copy of this chapter from ``make book`` if it was made from today's inputs, else None."""
    import nbformat

    from credalbook.book.build import executed_copy_is_current

    entry = file_path.resolve().relative_to(ROOT).with_suffix("").as_posix()
    copy = ROOT / "_build" / "executed" / f"{entry}.ipynb"
    if not copy.is_file():
        return None
    notebook = nbformat.read(copy, as_version=4)
    return notebook if executed_copy_is_current(ROOT, entry, notebook, BOOK_PARAMETERS) else None


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix != ".md" or "chapters" not in file_path.parts or not _is_notebook(file_path):
        return None
    if os.environ.get("CREDALBOOK_SKIP_NBVAL"):
        return None
    executed = None if os.environ.get("CREDALBOOK_EXECUTE_CHAPTERS") else _current_executed_copy(file_path)
    if executed is not None:
        return ExecutedFile.from_parent(parent, path=file_path, notebook=executed)
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


class ExecutedFile(pytest.File):
    """A chapter whose current executed copy exists: one test item reading it."""

    def __init__(self, *, notebook, **kwargs):
        super().__init__(**kwargs)
        self.notebook = notebook

    def collect(self):
        yield ExecutedChapter.from_parent(self, name="executed", notebook=self.notebook)
