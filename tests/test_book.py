"""The book machinery: table of contents, chapter resolution, one chapter through papermill, CLI."""
import json
from pathlib import Path

import pytest

from credalbook import book, cli

ROOT = book.repo_root(Path(__file__).parent)


def test_toc_entries_exist_and_are_notebooks_with_a_profile_parameter():
    entries = book.toc_entries(ROOT)
    assert entries[0] == "chapters/intro" and "chapters/errata" in entries
    for entry in entries:
        source = book.chapter_source(ROOT, entry)
        if book.is_notebook(source):
            text = source.read_text()
            assert ":tags: [parameters]" in text and "profile" in text, f"{entry} lacks a parameters cell"


def test_resolve_chapter():
    assert book.resolve_chapter(ROOT, "intro") == "chapters/intro"
    assert book.resolve_chapter(ROOT, "chapters/errata.md") == "chapters/errata"
    with pytest.raises(ValueError, match="matches 0 entries"):
        book.resolve_chapter(ROOT, "no-such-chapter")


def test_execute_chapter_injects_parameters(tmp_path):
    result = book.execute_chapter(ROOT, "chapters/intro", {"profile": "full"}, tmp_path)
    notebook = json.loads(result.output.read_text())
    injected = [c for c in notebook["cells"] if "injected-parameters" in c["metadata"].get("tags", [])]
    assert injected and 'profile = "full"' in "".join(injected[0]["source"])
    defaults = [c for c in notebook["cells"] if "parameters" in c["metadata"].get("tags", [])]
    assert "remove-cell" in defaults[0]["metadata"]["tags"]


def test_build_rejects_unknown_profile():
    with pytest.raises(ValueError, match="profile"):
        book.build(profile="huge")


def test_cli_list_and_errors(capsys):
    assert cli.main(["list", "chapters"]) == 0
    assert "chapters/intro" in capsys.readouterr().out
    assert cli.main(["run", "no-such-chapter"]) == 2
    assert "matches 0 entries" in capsys.readouterr().err
    assert cli._parse_value("3") == 3 and cli._parse_value("[1, 2]") == [1, 2] and cli._parse_value("ci") == "ci"
