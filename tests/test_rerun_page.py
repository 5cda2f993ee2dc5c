"""The "Re-run this book" page names only commands that exist: its ``make`` targets are the
Makefile's, its ``credalbook`` command lines parse with the CLI's own parser, the Python floor it
states is ``pyproject.toml``'s, and no page offers ``pip install credalbook`` as a working route
(the package is not on the package index)."""
from __future__ import annotations

import re
import shlex

import pytest

from credalbook import cli
from credalbook.book.build import chapter_source, repo_root, toc_entries

ROOT = repo_root()
PAGE = ROOT / "chapters" / "rerun.md"


def _commands(text: str) -> list[str]:
    """Command lines of the page's ```bash blocks (comments dropped), and of its inline code."""
    lines = []
    for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                lines.append(line)
    lines += [m for m in re.findall(r"`([^`\n]+)`", text) if m.startswith(("make ", "PROFILE=", "credalbook "))]
    return lines


def _make_targets() -> set[str]:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([A-Za-z][\w-]*):", makefile, flags=re.M))


def test_the_page_exists_and_names_commands():
    commands = _commands(PAGE.read_text(encoding="utf-8"))
    assert any(c.startswith("make book") for c in commands) and any(c.startswith("make test") for c in commands)
    assert any("credalbook run" in c for c in commands)
    assert any(c.startswith("git clone") for c in commands)


def test_every_make_target_the_page_names_is_in_the_makefile():
    targets = _make_targets()
    named = [shlex.split(c)[-1] if "make" in c else None for c in _commands(PAGE.read_text(encoding="utf-8"))
             if re.match(r"^(\w+=\w+ )*make ", c)]
    assert named, "the page names no make target"
    missing = [t for t in named if t not in targets]
    assert not missing, f"make targets named on the re-run page but not in the Makefile: {missing}"


def test_the_make_oracle_refuses_an_unknown_target():
    assert "book" in _make_targets() and "publish" not in _make_targets()


def test_every_credalbook_command_line_parses():
    parser = cli.build_parser()
    lines = [c for c in _commands(PAGE.read_text(encoding="utf-8")) if re.search(r"(^|\s|bin/)credalbook ", c)]
    assert len(lines) >= 2, lines
    for line in lines:
        words = shlex.split(line)
        start = next(i for i, w in enumerate(words) if w == "credalbook" or w.endswith("bin/credalbook"))
        try:
            parser.parse_args(words[start + 1:])
        except SystemExit:  # pragma: no cover - the message is argparse's
            pytest.fail(f"the re-run page names a command the CLI refuses: {line}")


def test_the_cli_oracle_refuses_a_wrong_command():
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["run", "betting", "--profile", "huge"])


def test_the_python_floor_is_read_from_pyproject():
    import tomllib

    floor = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["requires-python"]
    text = PAGE.read_text(encoding="utf-8")
    assert '["requires-python"]' in text and "{glue:text}`python_version`" in text
    assert floor.startswith(">=")


def test_the_landing_page_and_the_api_index_link_to_it():
    for page in ("chapters/intro.md", "chapters/api/index.md"):
        assert re.search(r"\{doc\}`[^`]*rerun`", (ROOT / page).read_text(encoding="utf-8")), page


def test_no_page_offers_pip_install_credalbook_as_a_route():
    offending = []
    for entry in [*toc_entries(ROOT), "chapters/rerun"]:
        source = chapter_source(ROOT, entry)
        if not source.is_file():
            continue
        for sentence in re.split(r"(?<=[.;:])\s", source.read_text(encoding="utf-8")):
            if re.search(r"pip install credalbook\b", sentence) and not re.search(r"\bnot\b", sentence):
                offending.append(f"{entry}: {sentence.strip()[:80]}")
    assert not offending, offending
