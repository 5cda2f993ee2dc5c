"""The book machinery: table of contents, chapter resolution, one chapter through papermill, CLI."""
import json
from pathlib import Path

import pytest

from credalbook import cli
from credalbook.book import build as book

ROOT = book.repo_root()


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


def _tiny_book(root: Path) -> None:
    """A root with one chapter, one package file and one data file: what a chapter's stamp covers."""
    (root / "chapters").mkdir()
    (root / "chapters" / "page.md").write_text("---\nkernelspec: {name: python3}\n---\n```{code-cell}\n1\n```\n")
    (root / "credalbook").mkdir()
    (root / "credalbook" / "module.py").write_text("x = 1\n")
    (root / "credalbook" / "__pycache__").mkdir()
    (root / "data").mkdir()
    (root / "data" / "table.csv").write_text("a\n1\n")


@pytest.mark.parametrize("change", ["chapter", "package", "data", "new data file", "parameters", "nothing",
                                    "compiled cache"])
def test_an_executed_copy_is_current_only_for_the_same_inputs(tmp_path, change):
    """The chapter tests read make book's executed copy instead of executing again only when nothing it read changed."""
    _tiny_book(tmp_path)
    parameters = {"profile": "ci"}
    notebook = {"metadata": {"credalbook": {"inputs": book.inputs_digest(tmp_path, "chapters/page", parameters)}}}
    edits = {"chapter": lambda: (tmp_path / "chapters" / "page.md").write_text("---\nkernelspec: {}\n---\n2\n"),
             "package": lambda: (tmp_path / "credalbook" / "module.py").write_text("x = 2\n"),
             "data": lambda: (tmp_path / "data" / "table.csv").write_text("a\n2\n"),
             "new data file": lambda: (tmp_path / "data" / "more.csv").write_text("b\n"),
             "parameters": lambda: parameters.update(profile="full"),
             "nothing": lambda: None,
             "compiled cache": lambda: (tmp_path / "credalbook" / "__pycache__" / "module.nbi").write_bytes(b"0")}
    edits[change]()
    expected = change in ("nothing", "compiled cache")
    assert book.executed_copy_is_current(tmp_path, "chapters/page", notebook, parameters) is expected
    assert not book.executed_copy_is_current(tmp_path, "chapters/page", {"metadata": {}}, parameters)


def test_execute_chapter_stamps_its_inputs(tmp_path):
    _tiny_book(tmp_path)
    (tmp_path / "chapters" / "page.md").write_text(
        "---\njupytext: {text_representation: {extension: .md, format_name: myst}}\n"
        "kernelspec: {name: python3, display_name: Python 3, language: python}\n---\n"
        "```{code-cell}\n:tags: [parameters]\nprofile = 'ci'\n```\n")
    result = book.execute_chapter(tmp_path, "chapters/page", {"profile": "ci"}, tmp_path / "executed")
    notebook = json.loads(result.output.read_text())
    assert notebook["metadata"]["credalbook"]["parameters"] == {"profile": "ci"}
    assert book.executed_copy_is_current(tmp_path, "chapters/page", notebook, {"profile": "ci"})
    (tmp_path / "data" / "table.csv").write_text("a\n3\n")
    assert not book.executed_copy_is_current(tmp_path, "chapters/page", notebook, {"profile": "ci"})


def test_build_rejects_unknown_profile():
    with pytest.raises(ValueError, match="profile"):
        book.build(profile="huge")


def test_cli_list_and_errors(capsys):
    assert cli.main(["list", "chapters"]) == 0
    assert "chapters/intro" in capsys.readouterr().out
    assert cli.main(["run", "no-such-chapter"]) == 2
    assert "matches 0 entries" in capsys.readouterr().err
    assert cli._parse_value("3") == 3 and cli._parse_value("[1, 2]") == [1, 2] and cli._parse_value("ci") == "ci"


class TestCommandLineRefuses:
    def test_a_parameter_name_that_is_code(self, capsys):
        assert cli.main(["run", "intro", "-p", "open('x','w').write('y');z", "1"]) == 2
        assert "is not a Python identifier" in capsys.readouterr().err

    def test_an_undeclared_parameter(self, capsys):
        assert cli.main(["run", "intro", "-p", "colour", "'red'"]) == 2
        assert "declares no parameter 'colour'; its parameters: profile" in capsys.readouterr().err

    def test_a_profile_given_as_a_parameter_is_checked_like_the_option(self, capsys):
        assert cli.main(["run", "intro", "-p", "profile", "bogus"]) == 2
        assert "profile must be one of ('ci', 'full'), got 'bogus'" in capsys.readouterr().err

    def test_a_value_of_the_wrong_type(self, tmp_path):
        (tmp_path / "chapters").mkdir()
        (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: chapters/page\n")
        (tmp_path / "chapters" / "page.md").write_text(
            "---\njupytext:\n  formats: md:myst\nkernelspec:\n  name: python3\n  display_name: Python 3\n---\n\n"
            "```{code-cell} ipython3\n:tags: [parameters]\nprofile = \"ci\"\nruns = 3\nshare = 0.5\n```\n")
        assert book.check_parameters(tmp_path, "chapters/page", {"runs": 10, "share": 1}) == {"runs": 10, "share": 1}
        with pytest.raises(ValueError, match=r"parameter 'runs' of chapters/page takes a int \(default 3\), got 'ten'"):
            book.check_parameters(tmp_path, "chapters/page", {"runs": "ten"})
        with pytest.raises(ValueError, match="takes a int"):
            book.check_parameters(tmp_path, "chapters/page", {"runs": True})

    def test_another_book_in_the_current_folder_is_not_the_root(self, tmp_path, monkeypatch):
        other = tmp_path / "other-book"
        other.mkdir()
        (other / "_toc.yml").write_text("format: jb-book\nroot: index\n")
        monkeypatch.chdir(other)
        monkeypatch.delenv("CREDALBOOK_ROOT", raising=False)
        assert book.repo_root() == ROOT
        assert book.repo_root(other) == other.resolve()

    def test_a_root_without_a_toc(self, tmp_path, capsys):
        assert cli.main(["--root", str(tmp_path), "list", "chapters"]) == 2
        assert "is not a book: it has no _toc.yml" in capsys.readouterr().err


def test_declared_parameters_of_a_chapter():
    assert book.declared_parameters(ROOT, "chapters/intro") == {"profile": "ci"}
    assert book.declared_parameters(ROOT, "chapters/status") == {}
