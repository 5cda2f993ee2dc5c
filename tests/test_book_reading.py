"""The rendered book read as a reader sees it: no plumbing, no Python reprs, figures and
equations at their size.

Every page of ``_toc.yml`` (or of ``$CREDALBOOK_HTML`` for a ``credalbook preview``) is loaded in
headless Chromium: its visible text (code, math and tables of numbers' own markup aside) may not
print a Python repr (``np.int64(``, ``dtype:``, ``Name:``), a raw ``$``, or a number in scientific
notation; no figure may be shrunk below 90 % of its drawn size (so the style's 10-11 pt labels
stay readable); a display equation wider than the column must scroll rather than be clipped.
Without a browser, the count of code lines shown in the whole book must stay at most 30 % of what
it was before the reading rewrite (issue 13).
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from credalbook.book import repo_root, toc_entries
from tests.browser import load_page

ROOT = repo_root()
HTML = Path(os.environ.get("CREDALBOOK_HTML", ROOT / "_build" / "html")).resolve()

#: Code lines shown in the rendered book before the rewrite: 2,550 when issue 13 was filed, and
#: 1,788 on the build of commit bdfea16 (counted by :func:`shown_code_lines`).
SHOWN_CODE_LINES_BEFORE = 1788
SHOWN_CODE_LINES_LIMIT = int(0.30 * SHOWN_CODE_LINES_BEFORE)

REPRS = ("np.int64(", "np.float64(", "np.str_(", "dtype:", "Name: ", "<class '", "Length: ", "object at 0x")
SCIENTIFIC = re.compile(r"(?<![\w.#])\d+(?:\.\d+)?[eE][-+]?\d+(?![\w.])")  # not a colour such as #009E73


def _pages():
    return [e for e in toc_entries(ROOT) if (HTML / f"{e}.html").is_file()] if HTML.is_dir() else []


def shown_code_lines(html: str) -> int:
    """Lines of code a reader sees on a page: input cells not hidden or removed, and code blocks."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    lines = 0
    for cell in soup.select("div.cell"):
        classes = cell.get("class", [])
        if "tag_hide-input" in classes or "tag_remove-input" in classes:
            continue
        source = cell.select_one("div.cell_input pre")
        if source is not None:
            lines += len(source.get_text().rstrip("\n").split("\n"))
    return lines


def test_the_book_shows_at_most_thirty_percent_of_the_code_it_showed():
    pages = _pages()
    if not pages:
        if os.environ.get("CREDALBOOK_REQUIRE_BOOK"):
            pytest.fail("the book is not built: run `make book` before the tests")
        pytest.skip("the book is not built (run `make book`)")
    if "CREDALBOOK_HTML" in os.environ:
        pytest.skip("a preview holds only some pages; the whole-book count needs `make book`")
    counts = {page: shown_code_lines((HTML / f"{page}.html").read_text(encoding="utf-8")) for page in pages}
    total = sum(counts.values())
    worst = ", ".join(f"{p} {n}" for p, n in sorted(counts.items(), key=lambda item: -item[1])[:5])
    assert total <= SHOWN_CODE_LINES_LIMIT, f"{total} shown code lines (limit {SHOWN_CODE_LINES_LIMIT}); most: {worst}"


# ----------------------------------------------------------------------------------------------
# In the browser
# ----------------------------------------------------------------------------------------------

def _open(driver, page: str) -> None:
    load_page(driver, HTML / f"{page}.html")


READABLE_TEXT = """
    const main = document.querySelector('main') || document.body;
    const clone = main.cloneNode(true);
    clone.querySelectorAll('pre, code, script, style, mjx-container, .highlight, .math, dt.sig, '
                           + 'nav, .prev-next-area, .bd-sidebar-secondary').forEach(e => e.remove());
    return clone.innerText;
"""

SHRUNK_FIGURES = """
    return Array.from(document.querySelectorAll('.cell_output img, .output img'))
        .filter(img => img.complete && img.naturalWidth > 0)
        .map(img => {
            const drawn = parseFloat(img.style.width) || parseFloat(img.getAttribute('width')) || img.naturalWidth;
            return [img.getAttribute('src'), Math.round(drawn), img.clientWidth];
        })
        .filter(([src, drawn, shown]) => shown < 0.9 * drawn);
"""

CLIPPED_EQUATIONS = """
    return Array.from(document.querySelectorAll('mjx-container[display="true"]'))
        .filter(eq => {
            let node = eq;
            while (node && node !== document.body) {
                const overflow = getComputedStyle(node).overflowX;
                if (overflow === 'auto' || overflow === 'scroll') return false;
                node = node.parentElement;
            }
            return eq.scrollWidth > eq.clientWidth + 2 || eq.getBoundingClientRect().right
                   > (document.querySelector('main') || document.body).getBoundingClientRect().right + 2;
        })
        .map(eq => eq.textContent.slice(0, 60));
"""


@pytest.mark.browser
@pytest.mark.parametrize("page", _pages())
def test_page_reads_without_python_reprs_raw_dollars_or_scientific_counts(browser, page):
    _open(browser, page)
    text = browser.execute_script(READABLE_TEXT)
    reprs = [r for r in REPRS if r in text]
    assert not reprs, f"{page}: Python reprs in the text: {reprs}"
    dollars = [m.group(0) for m in re.finditer(r".{0,30}\$.{0,30}", text)]
    assert not dollars, f"{page}: raw $ in the text: {dollars[:3]}"
    scientific = SCIENTIFIC.findall(text)
    assert not scientific, f"{page}: numbers in scientific notation: {scientific[:5]}"


@pytest.mark.browser
@pytest.mark.parametrize("page", _pages())
def test_page_figures_and_equations_keep_their_size(browser, page):
    _open(browser, page)
    shrunk = browser.execute_script(SHRUNK_FIGURES)
    assert not shrunk, f"{page}: figures shown below 90 % of their drawn width (src, drawn, shown): {shrunk[:3]}"
    clipped = browser.execute_script(CLIPPED_EQUATIONS)
    assert not clipped, f"{page}: display equations clipped at the column edge: {clipped[:3]}"
