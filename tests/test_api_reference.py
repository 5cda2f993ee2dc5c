"""The API reference: one page per library module, opening with a summary table of its ``__all__``,
and the book's machinery apart, under "For contributors" (issue 25).

- every public module of the library has its own page, ``chapters/api/<module>.md``, whose only
  module is that one: a ``module-summary`` table (``credalbook.book.sphinx``) then its ``automodule``;
- every name of the module's ``__all__`` is in the page's summary table, in order, with a kind and a
  one-line summary, and is documented below the table (checked on the rendered page);
- no ``credalbook.book`` module is on a library page; the machinery's modules are all documented,
  under ``chapters/api/contributors/``, whose pages stay out of the search's full text;
- the index lists every library page, and ``_toc.yml`` puts the API reference last, the
  contributors' pages below their own index.

The rendered checks read ``$CREDALBOOK_HTML`` (a ``credalbook preview`` of the API pages) or the
built book's ``_build/html``, and are skipped when neither holds the API pages.
"""
from __future__ import annotations

import importlib
import os
import pkgutil
import re
from pathlib import Path

import pytest
import yaml

from credalbook.book.build import repo_root
from credalbook.book.sphinx import first_sentence, module_summary

ROOT = repo_root()
API = ROOT / "chapters" / "api"
CONTRIBUTORS = API / "contributors"
LIBRARY_PAGES = sorted(p for p in API.glob("*.md") if p.stem != "index")
CONTRIBUTOR_PAGES = sorted(p for p in CONTRIBUTORS.glob("*.md") if p.stem != "index")
HTML = Path(os.environ.get("CREDALBOOK_HTML", ROOT / "_build" / "html")).resolve() / "chapters" / "api"

#: the CLI is documented in the README; the subpackages of the machinery re-export their modules' names
NOT_ON_A_PAGE = {"credalbook.cli", "credalbook.book", "credalbook.book.ledger", "credalbook.book.experiments",
                 "credalbook.book.theory"}
AUTOMODULE = re.compile(r"\.\. automodule:: (\S+)\n((?:   :.*\n)*)")
SUMMARY = re.compile(r"\.\. module-summary:: (\S+)")


def _public_modules() -> list[str]:
    import credalbook

    return [m.name for m in pkgutil.walk_packages(credalbook.__path__, "credalbook.")
            if not any(part.startswith("_") for part in m.name.split("."))]


def library_modules() -> list[str]:
    """The library's public modules: not the book's machinery, not the CLI; ``credalbook.classifiers``
    stands for its submodules (one page documents every classifier under that name)."""
    return [m for m in _public_modules() if m not in NOT_ON_A_PAGE and not m.startswith("credalbook.book.")
            and not m.startswith("credalbook.classifiers.")]


def _documented(pages, members_only: bool = True) -> dict[str, str]:
    """module -> the page documenting it (with ``:members:`` when ``members_only``)."""
    found = {}
    for page in pages:
        for module, options in AUTOMODULE.findall(page.read_text(encoding="utf-8")):
            if ":members:" in options or not members_only:
                found[module] = str(page.relative_to(API).with_suffix(""))
    return found


# ----------------------------------------------------------------------------------------------
# The sources
# ----------------------------------------------------------------------------------------------

def test_the_library_is_what_the_package_lists():
    from credalbook._library import LIBRARY_MODULES

    # weka (an optional extra) and style (the figures' look) are documented but not in the bad-input contract
    assert set(library_modules()) == set(LIBRARY_MODULES) | {"credalbook.weka", "credalbook.style"}


@pytest.mark.parametrize("module", library_modules())
def test_every_library_module_has_its_own_page(module):
    page = API / f"{module.removeprefix('credalbook.')}.md"
    assert page.is_file(), f"{module} has no page {page.relative_to(ROOT)}"
    text = page.read_text(encoding="utf-8")
    assert re.match(rf"# {re.escape(module)}\n\n[^\n#]+\.\n\n", text), "the page opens with its title and one sentence"
    assert SUMMARY.findall(text) == [module]
    modules = AUTOMODULE.findall(text)
    assert [m for m, _ in modules] == [module]
    assert ":members:" in modules[0][1] and ":undoc-members:" in modules[0][1]
    assert text.index(".. module-summary::") < text.index(".. automodule::"), "the summary table comes first"


def test_no_library_page_documents_another_module_or_the_book():
    expected = {f"{m.removeprefix('credalbook.')}" for m in library_modules()}
    assert {p.stem for p in LIBRARY_PAGES} == expected
    for page in LIBRARY_PAGES:
        text = page.read_text(encoding="utf-8")
        assert "credalbook.book" not in " ".join([*SUMMARY.findall(text), *(m for m, _ in AUTOMODULE.findall(text))])


def test_every_machinery_module_is_documented_for_contributors():
    documented = _documented(CONTRIBUTOR_PAGES)
    machinery = [m for m in _public_modules() if m.startswith("credalbook.book.") and m not in NOT_ON_A_PAGE]
    missing = [m for m in machinery if m not in documented]
    assert not missing
    assert all(page.startswith("contributors/") for page in documented.values())
    assert all(importlib.import_module(m).__all__ for m in documented)


def test_every_documented_module_is_documented_once():
    seen = [m for page in [*LIBRARY_PAGES, *CONTRIBUTOR_PAGES]
            for m, options in AUTOMODULE.findall(page.read_text(encoding="utf-8")) if ":members:" in options]
    assert len(seen) == len(set(seen))


def test_the_contributors_pages_stay_out_of_the_search_text():
    for page in [CONTRIBUTORS / "index.md", *CONTRIBUTOR_PAGES]:
        head = page.read_text(encoding="utf-8").split("\n---\n", 1)[0]
        assert head.startswith("---\n") and yaml.safe_load(head.removeprefix("---\n")).get("search") == "titles-only", page


def test_the_index_lists_every_library_page_and_the_contributors():
    text = (API / "index.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\{doc\}`([\w/]+)`", text)) | set(re.findall(r"\{doc\}`[^`<]*<([\w/]+)>`", text))
    assert {p.stem for p in LIBRARY_PAGES} | {"contributors/index"} <= linked
    contributors = (CONTRIBUTORS / "index.md").read_text(encoding="utf-8")
    assert {p.stem for p in CONTRIBUTOR_PAGES} <= set(re.findall(r"\{doc\}`([\w/]+)`", contributors))


def test_the_api_reference_is_the_last_part_of_the_book():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    last = toc["parts"][-1]
    (library, contributors) = last["chapters"]
    assert library["file"] == "chapters/api/index" and contributors["file"] == "chapters/api/contributors/index"
    assert [s["file"] for s in library["sections"]] \
        == [f"chapters/api/{m.removeprefix('credalbook.')}" for m in _index_order()]
    assert {s["file"] for s in contributors["sections"]} == {f"chapters/api/contributors/{p.stem}" for p in CONTRIBUTOR_PAGES}
    elsewhere = [c["file"] for part in toc["parts"][:-1] for c in part["chapters"]]
    assert not [f for f in elsewhere if f.startswith("chapters/api/")]


def _index_order() -> list[str]:
    """The library modules in the order the index lists them."""
    text = (API / "index.md").read_text(encoding="utf-8")
    pages = {p.stem for p in LIBRARY_PAGES}
    return [f"credalbook.{stem}" for stem in re.findall(r"^- \{doc\}`(\w+)`", text, flags=re.M) if stem in pages]


# ----------------------------------------------------------------------------------------------
# The summary table's rows
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("module", library_modules())
def test_the_summary_has_every_name_with_a_kind_and_a_summary(module):
    names = list(importlib.import_module(module).__all__)
    rows = module_summary(module)
    assert [name for name, _, _ in rows] == names
    assert {kind for _, kind, _ in rows} <= {"class", "exception", "function", "constant"}
    assert all(summary.strip() and "\n" not in summary for _, _, summary in rows), \
        [name for name, _, summary in rows if not summary.strip()]
    # a dotted cross-reference is shown by its last part (a full module path would widen the column)
    assert not [summary for _, _, summary in rows if re.search(r":\w+:`\w+\.[\w.]+`", summary)]


def test_the_kinds_are_read_from_the_objects():
    kinds = {name: kind for name, kind, _ in module_summary("credalbook.pipeline")}
    assert kinds == {"SetPipeline": "class", "make_set_pipeline": "function", "predict_set": "function",
                     "set_predictor": "function", "SingletonSetWarning": "exception", "PRECISE_OPTIONS": "constant"}


def test_a_constant_is_summarised_by_its_doc_comment():
    summaries = {name: summary for name, _, summary in module_summary("credalbook.discrete")}
    assert summaries["MISSING"] == "The code of a missing value in a coded feature matrix."


@pytest.mark.parametrize("docstring, summary", [
    ("One line.", "One line."),
    ("A sentence that runs\n    over two lines. Then another.", "A sentence that runs over two lines."),
    ("First paragraph, no full stop\n\nSecond paragraph.", "First paragraph, no full stop"),
    ("Scores (Zaffalon et al. 2012). Next.", "Scores (Zaffalon et al. 2012)."),
    ("Reads ``x. Y`` literally. Next.", "Reads ``x. Y`` literally."),
    ("Cites :func:`a. B` here. Next.", "Cites :func:`a. B` here."),
    ("After C. Elkan's rule. Next.", "After C. Elkan's rule."),
    ("See e.g. Weka's rule. Next.", "See e.g. Weka's rule."),
    ("An example::", "An example."),
    (None, ""),
])
def test_the_first_sentence_of_a_docstring(docstring, summary):
    assert first_sentence(docstring) == summary


# ----------------------------------------------------------------------------------------------
# The rendered pages
# ----------------------------------------------------------------------------------------------

def _rendered(page: str) -> str:
    path = HTML / f"{page}.html"
    if not path.is_file():
        if os.environ.get("CREDALBOOK_REQUIRE_BOOK"):
            pytest.fail("the book is not built: run `make book` before the tests")
        pytest.skip(f"{page} is not rendered (run `make book`, or a preview with CREDALBOOK_HTML set)")
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("module", library_modules())
def test_the_rendered_page_opens_with_the_summary_table_and_documents_every_name(module):
    html = _rendered(module.removeprefix("credalbook."))
    tables = re.findall(r'<table class="[^"]*\bmodule-summary\b[^"]*">(.*?)</table>', html, flags=re.S)
    assert len(tables) == 1
    names = list(importlib.import_module(module).__all__)
    linked = re.findall(r'<tr[^>]*>\s*<td><p><a class="reference internal" href="#([\w.]+)"', tables[0])
    assert linked == [f"{module}.{name}" for name in names]
    anchors = {m.group(1): m.start() for m in re.finditer(r'id="(credalbook\.[\w.]+)"', html)}
    below = html.index("module-summary")
    missing = [name for name in names if anchors.get(f"{module}.{name}", -1) < below]
    assert not missing, f"not documented below the table: {missing}"
    assert not [a for a in anchors if a.startswith("credalbook.book.")], "a library page documents the book's machinery"


def test_the_search_index_holds_the_contributors_titles_and_names_but_not_their_text():
    index = HTML.parents[1] / "searchindex.js"
    if not index.is_file():
        pytest.skip("the book is not built (run `make book`, or a preview with CREDALBOOK_HTML set)")
    import json

    text = index.read_text(encoding="utf-8")
    data = json.loads(text[text.index("(") + 1:text.rindex(")")])
    pages = {name: i for i, name in enumerate(data["docnames"])}
    contributors = {i for name, i in pages.items() if name.startswith("chapters/api/contributors/")}
    if "chapters/api/contributors/ledger" not in pages:
        pytest.skip("the contributors' pages are not rendered")
    in_text = [word for word, where in data["terms"].items()
               if contributors & ({where} if isinstance(where, int) else set(where))]
    assert not in_text, in_text[:10]
    assert data["titles"][pages["chapters/api/contributors/ledger"]] == "The reproduction ledger"
    assert contributors & set(data["titleterms"]["ledger"] if isinstance(data["titleterms"]["ledger"], list)
                              else [data["titleterms"]["ledger"]])
    objects = data["objects"].get("credalbook.book.ledger.core", [])
    assert any(entry[0] in contributors for entry in objects), "the machinery's names stay searchable"


def test_every_name_of_every_documented_module_is_in_the_rendered_reference():
    documented = {**_documented(LIBRARY_PAGES), **_documented(CONTRIBUTOR_PAGES)}
    missing = []
    for module, page in documented.items():
        anchors = set(re.findall(r'id="(credalbook\.[A-Za-z_.0-9]+)"', _rendered(page)))
        missing += [f"{module}.{name}" for name in importlib.import_module(module).__all__
                    if f"{module}.{name}" not in anchors]
    assert not missing
