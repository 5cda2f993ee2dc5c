"""The ledger's pages read as a reader sees them: the report, the errata and every chapter's slice.

Reads the rendered HTML of ``$CREDALBOOK_HTML`` (a ``credalbook preview`` or ``make book``;
skipped when it is unset or holds none of these pages) in headless Chromium: no machine string
(``<locals>``, Python's ``**``, raw ``\\bar{``, an object's repr, a function's path) in the text a
reader sees, no formula MathJax could not read, the report's and the errata's headings in the
page's contents panel, their tables inside the text column at 1280 px, nothing scrolling
sideways at 390 px, and every link from the report to a chapter landing on its entry.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

HTML = Path(os.environ["CREDALBOOK_HTML"]).resolve() if os.environ.get("CREDALBOOK_HTML") else None

#: What a page made by code must never show a reader.
MACHINE = ("<locals>", "**", "\\bar{", "\\frac", "\\mathrm", "<function ", " at 0x", "object at",
           "credalbook.book.ledger.", "np.float64(", "Decided by `")
#: A dollar sign that is no price (``$0.07`` is the paper's money): TeX that MathJax did not read.
RAW_DOLLAR = re.compile(r".{0,30}\$(?!\d).{0,30}")

LEDGER_PAGES = ("chapters/report", "chapters/errata")


def _ledger_pages() -> list[str]:
    """The report, the errata, and every rendered chapter that shows a slice of the ledger."""
    if HTML is None or not HTML.is_dir():
        return []
    pages = [p for p in LEDGER_PAGES if (HTML / f"{p}.html").is_file()]
    for path in sorted((HTML / "chapters").rglob("*.html")):
        page = path.relative_to(HTML).with_suffix("").as_posix()
        if page not in pages and "The ledger decides" in path.read_text(encoding="utf-8", errors="replace"):
            pages.append(page)
    return pages


PAGES = _ledger_pages()

pytestmark = pytest.mark.skipif(not PAGES, reason="CREDALBOOK_HTML is unset or holds no ledger page "
                                                  "(credalbook preview chapters/report.md chapters/errata.md --out ...)")

VISIBLE_TEXT = """
    const main = document.querySelector('main') || document.body;
    const clone = main.cloneNode(true);
    clone.querySelectorAll('pre, code, script, style, mjx-container, .math, nav, .prev-next-area, '
                           + '.bd-sidebar-secondary, .cell_input').forEach(e => e.remove());
    return clone.innerText;
"""

MATH_ERRORS = """
    return Array.from(document.querySelectorAll('mjx-merror, .MathJax_Error, mjx-container [data-mjx-error]'))
        .map(e => (e.getAttribute('data-mjx-error') || e.textContent).slice(0, 80));
"""

WIDE_TABLES = """
    const main = document.querySelector('main article') || document.querySelector('main') || document.body;
    const column = main.getBoundingClientRect().width;
    return Array.from(main.querySelectorAll('table'))
        .filter(t => t.getBoundingClientRect().width > column + 1
                     || (t.parentElement && t.parentElement.scrollWidth > t.parentElement.clientWidth + 1))
        .map(t => [t.innerText.slice(0, 50), Math.round(t.getBoundingClientRect().width), Math.round(column)]);
"""

PAGE_WIDTH = "return [document.documentElement.scrollWidth, window.innerWidth];"

CONTENTS = """
    return Array.from(document.querySelectorAll('.bd-toc-nav a, #pst-page-toc-nav a, nav.page-toc a'))
        .map(a => a.textContent.trim());
"""


def _open(driver, page: str) -> None:
    from tests.browser import load_page

    load_page(driver, HTML / f"{page}.html")


@pytest.mark.browser
@pytest.mark.parametrize("page", PAGES)
def test_ledger_text_has_no_machine_strings_and_every_formula_typesets(browser, page):
    _open(browser, page)
    text = browser.execute_script(VISIBLE_TEXT)
    found = {m: re.findall(r".{0,40}" + re.escape(m) + r".{0,40}", text)[:2] for m in MACHINE if m in text}
    assert not found, f"{page}: machine text a reader sees: {found}"
    dollars = RAW_DOLLAR.findall(text)
    assert not dollars, f"{page}: raw $ (TeX not typeset): {dollars[:3]}"
    snake = re.findall(r"(?<![\w/.#-])[a-z]+_[a-z]+_[a-z_]+(?![\w/.])", text)
    assert not snake, f"{page}: column or function names in the text: {snake[:5]}"
    errors = browser.execute_script(MATH_ERRORS)
    assert not errors, f"{page}: formulas MathJax could not read: {errors[:3]}"


@pytest.mark.browser
@pytest.mark.parametrize("page", [p for p in PAGES if p in LEDGER_PAGES])
def test_report_and_errata_have_headings_and_tables_that_fit(browser, page):
    from credalbook.book.ledger.core import PAPERS

    browser.set_window_size(1280, 2000)
    _open(browser, page)
    contents = browser.execute_script(CONTENTS)
    missing = [p.cite for p in PAPERS.values() if not any(p.cite.lower() in c.lower() for c in contents)]
    assert not missing, f"{page}: papers missing from the contents panel {contents}: {missing}"
    wide = browser.execute_script(WIDE_TABLES)
    assert not wide, f"{page}: tables wider than the text column at 1280 px (text, width, column): {wide}"


@pytest.mark.browser
@pytest.mark.parametrize("page", PAGES)
def test_ledger_pages_do_not_scroll_sideways_on_a_phone(browser, page):
    browser.set_window_size(390, 1600)
    try:
        _open(browser, page)
        scroll, width = browser.execute_script(PAGE_WIDTH)
        assert scroll <= width + 1, f"{page}: the page is {scroll} px wide in a {width} px window"
    finally:
        browser.set_window_size(1280, 2000)


@pytest.mark.parametrize("page", [p for p in PAGES if p in LEDGER_PAGES])
def test_links_to_chapters_land_on_their_entry(page):
    from bs4 import BeautifulSoup

    soup = BeautifulSoup((HTML / f"{page}.html").read_text(encoding="utf-8"), "html.parser")
    links = [a["href"] for a in soup.select('a[href*="#ledger-"]')]
    if page == "chapters/report":
        assert links, f"{page}: no claim links to the place that checks it"
    base = (HTML / page).parent
    for href in links:
        target, _, anchor = href.partition("#")
        path = (base / target).resolve()
        if not path.is_file():
            continue  # a preview renders only some pages
        ids = {tag.get("id") for tag in BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser").select("[id]")}
        assert anchor in ids, f"{page}: {href} lands on no entry"
