"""The rendered book, tested as a web page in headless Chromium with no network.

For every document of ``_toc.yml``: the math is typeset by the locally served MathJax (no raw
``\\(``, ``\\[`` or ``$$`` left in the visible text), every image has loaded, and the
navigation lists every chapter. Needs ``make book`` first; skipped when ``_build/html`` is
absent unless ``CREDALBOOK_REQUIRE_BOOK=1`` (as in ``.ci/run``), where it fails instead.
"""
from __future__ import annotations

import pytest

from credalbook.book.build import repo_root, toc_entries
from tests.browser import load_page

ROOT = repo_root()
HTML = ROOT / "_build" / "html"

pytestmark = pytest.mark.browser


def _load(driver, entry: str) -> None:
    load_page(driver, HTML / f"{entry}.html")


VISIBLE_TEXT = """
    const clone = document.querySelector('main, article, body').cloneNode(true);
    clone.querySelectorAll('pre, code, script, style, mjx-container, .highlight').forEach(e => e.remove());
    return clone.textContent;
"""


def _entries():
    return toc_entries(ROOT)


@pytest.mark.parametrize("entry", _entries())
def test_page_math_typeset_and_images_loaded(browser, entry):
    _load(browser, entry)
    math_nodes = browser.execute_script("return document.querySelectorAll('.math, span.math, div.math').length")
    typeset = browser.execute_script("return document.querySelectorAll('mjx-container').length")
    if math_nodes:
        assert typeset >= 1, f"{entry}: {math_nodes} math nodes but nothing typeset by MathJax"
    text = browser.execute_script(VISIBLE_TEXT)
    for raw in ("\\[", "\\(", "$$"):
        assert raw not in text, f"{entry}: raw TeX {raw!r} left in the text"
    broken = browser.execute_script("""
        return Array.from(document.images)
            .filter(img => !(img.complete && img.naturalWidth > 0))
            .map(img => img.getAttribute('src'));
    """)
    assert not broken, f"{entry}: images that did not load: {broken}"


def _draws_figures(entry: str) -> bool:
    source = (ROOT / f"{entry}.md").read_text(encoding="utf-8")
    code = "\n".join(source.split("```{code-cell}")[1:])  # the API reference names plots in its text only
    return any(marker in code for marker in ("plt.", "plots.", "matplotlib"))


@pytest.mark.parametrize("entry", [e for e in _entries() if _draws_figures(e)])
def test_chapters_that_plot_show_figures(browser, entry):
    """A chapter whose code draws figures must show them (catches a non-inline backend)."""
    _load(browser, entry)
    figures = browser.execute_script("return document.querySelectorAll('.cell_output img, .output img').length")
    assert figures >= 1, f"{entry} draws figures but its page shows none"


def test_navigation_lists_every_chapter(browser):
    _load(browser, "chapters/intro")
    links = browser.execute_script("""
        return Array.from(document.querySelectorAll('nav.bd-docs-nav a, .bd-sidebar-primary a'))
            .map(a => a.href);
    """)
    listed = {link.split("#")[0] for link in links}
    root_entry = _entries()[0]
    for entry in _entries()[1:]:
        assert (HTML / f"{entry}.html").as_uri() in listed, f"navigation does not list {entry}"
    assert (HTML / f"{root_entry}.html").is_file()


def test_mathjax_served_locally(browser):
    _load(browser, "chapters/intro")
    sources = browser.execute_script("return Array.from(document.scripts).map(s => s.src).filter(Boolean)")
    mathjax = [s for s in sources if "mathjax" in s.lower()]
    assert mathjax, "no MathJax script on the page"
    assert all(s.startswith("file://") for s in mathjax), f"MathJax not served locally: {mathjax}"
