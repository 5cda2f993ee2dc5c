"""The build as a newcomer sees it: kernel noise in logs, one line per chapter, a failing chapter
reported in a few lines (chapter, cell, error, log), and the status page."""
from __future__ import annotations

from pathlib import Path

import pytest

from credalbook import cli
from credalbook.book import build as book

ROOT = book.repo_root()
HEADER = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---
"""


def _toy_book(folder: Path) -> Path:
    (folder / "chapters").mkdir(parents=True)
    (folder / "_toc.yml").write_text("format: jb-book\nroot: chapters/fine\nchapters:\n"
                                     "  - file: chapters/broken\n  - file: chapters/plain\n")
    (folder / "_config.yml").write_text("title: toy\n")
    (folder / "chapters" / "fine.md").write_text(HEADER + """
# Fine

```{code-cell} ipython3
:tags: [parameters]
profile = "ci"
```

```{code-cell} ipython3
import sys
print("noise on stderr", file=sys.stderr)
profile
```
""")
    (folder / "chapters" / "broken.md").write_text(HEADER + """
# Broken

```{code-cell} ipython3
:tags: [parameters]
profile = "ci"
```

```{code-cell} ipython3
numerator = 1
denominator = 0
numerator / denominator
```
""")
    (folder / "chapters" / "plain.md").write_text("# Plain\n\nNo code.\n")
    return folder


def test_a_failing_chapter_is_reported_in_a_few_lines_and_the_others_still_run(tmp_path):
    root = _toy_book(tmp_path / "toy")
    results = book.execute_all(root, {"profile": "ci"}, root / "_build" / "executed", jobs=2,
                               log_dir=root / "_build" / "logs")
    status = {r.chapter: r.status for r in results}
    assert status == {"chapters/fine": "ok", "chapters/broken": "failed", "chapters/plain": "page"}
    broken = results[1]
    assert broken.error.splitlines()[0] == "broken.md, line 20, code cell 2:"
    assert "    denominator = 0" in broken.error and broken.error.endswith("ZeroDivisionError: division by zero")
    assert broken.log == root / "_build" / "logs" / "chapters" / "broken.log" and broken.log.is_file()
    fine_log = root / "_build" / "logs" / "chapters" / "fine.log"
    assert fine_log.is_file()  # what the kernel printed went to the log, not to the terminal
    assert (root / "_build" / "executed" / "chapters" / "broken.ipynb").is_file()  # the notebook with its error


def test_build_stops_before_rendering_and_names_the_failure(tmp_path, capsys):
    root = _toy_book(tmp_path / "toy")
    assert cli.main(["--root", str(root), "build", "--jobs", "1"]) == 2
    captured = capsys.readouterr()
    assert "FAILED  chapters/broken" in captured.out and "ZeroDivisionError: division by zero" in captured.out
    assert "log: _build/logs/chapters/broken.log" in captured.out
    assert "2 notebooks: 1 ok, 1 failed" in captured.out
    assert "noise on stderr" not in captured.out + captured.err
    assert "1 chapter(s) failed: chapters/broken" in captured.err
    assert not (root / "_build" / "html").exists()
    assert "chapters/broken" in (root / "_build" / "status.json").read_text()


def test_failure_summary_of_a_plain_exception():
    assert book.failure_summary(ValueError("bad\nsecond line")) == "cell:\nValueError: bad"


def test_status_page_lists_chapters_stored_results_and_environment():
    results = [book.ExecutionResult("chapters/intro", 0.0, Path("x"), status="page"),
               book.ExecutionResult("chapters/accuracy/betting", 12.25, Path("y"))]
    page = book.status_page(results, "ci", 2, ROOT, "# Build status\n\nIntro.")
    assert page.startswith("# Build status\n\nIntro.")
    assert "| {doc}`/chapters/accuracy/betting` | ci | 12.2 | ok |" in page
    assert "chapters/intro" not in page  # plain pages are not executed
    for path in sorted((ROOT / "data" / "results").glob("*.provenance.json")):
        name = path.name.removesuffix('.provenance.json')  # escaped, and free to break after an underscore
        assert f"| {name.replace('_', chr(92) + '_' + chr(0x200B))} |" in page
    assert "| Python |" in page and "| numpy |" in page and "in the **ci** profile with 2 worker(s)" in page
