"""The rendered book read as a reader sees it: no plumbing, no Python reprs, figures and
equations at their size.

Every page of ``_toc.yml`` (or of ``$CREDALBOOK_HTML`` for a ``credalbook preview``) is loaded in
headless Chromium: its visible text (code, math and tables of numbers' own markup aside) may not
print a Python repr (``np.int64(``, ``dtype:``, ``Name:``), a raw ``$``, or a number in scientific
notation; no figure may be shrunk below 90 % of its drawn size (so the style's 10-11 pt labels
stay readable); a display equation wider than the column must scroll rather than be clipped.
Without a browser, the count of code lines shown in the whole book must stay at most 30 % of what
it was before the reading rewrite (issue 13).

Issue 25 adds, on every page (the API reference too): no machine text (an object repr with an
address, ``<locals>``, a Python power ``x**2``, raw TeX such as ``c{h,b}(h)``, a snake_case table
header, a dict or repr printed as a value in the reference); no block wider than the text column
at 1280 px (a table or code line that spills out or hides columns behind a scroll bar); no
sideways scrolling of the page at 390 px (a wide block may scroll inside its own box there); no
entry of the right-hand contents panel wider than the panel at 1280 px; and every figure numbered
with a caption and alt text that is not a file name.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from credalbook.book.build import repo_root, toc_entries
from tests.browser import load_page

ROOT = repo_root()
HTML = Path(os.environ.get("CREDALBOOK_HTML", ROOT / "_build" / "html")).resolve()

#: Code lines shown in the rendered book before the rewrite: 2,550 when issue 13 was filed, and
#: 1,788 on the build of commit bdfea16 (counted by :func:`shown_code_lines`).
SHOWN_CODE_LINES_BEFORE = 1788
SHOWN_CODE_LINES_LIMIT = int(0.30 * SHOWN_CODE_LINES_BEFORE)

REPRS = ("np.int64(", "np.float64(", "np.str_(", "dtype:", "Name: ", "<class '", "Length: ", "object at 0x")

#: Machine text a reader should never see, outside code: an address, a closure's name, a Python
#: power, TeX braces glued to a letter (``c{h,b}(h)``), a matplotlib return value.
MACHINE_TEXT = {
    "an object repr": re.compile(r"<[\w.]+(?: [\w.]+)* at 0x[0-9a-fA-F]+>|at 0x[0-9a-fA-F]{6,}"),
    "a closure's name": re.compile(r"<locals>"),
    "a Python power": re.compile(r"[\w)\u2080-\u2089]\*\*[\w(]"),
    "raw TeX": re.compile(r"[A-Za-z]\{[^{}\s]*\}|\\(?:frac|mathrm|mathbb|hat|bar|left|right|le|ge|in)\b"),
    "a matplotlib value": re.compile(r"<(?:matplotlib\.|Figure size|Axes:|BarContainer)"),
}
SNAKE_CASE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")
SCIENTIFIC = re.compile(r"(?<![\w.#])\d+(?:\.\d+)?[eE][-+]?\d+(?![\w.])")  # not a colour such as #009E73


def _pages():
    return [e for e in toc_entries(ROOT) if (HTML / f"{e}.html").is_file()] if HTML.is_dir() else []


#: defects the whole-book run of these checks found and this round did not fix (issue 25 stays open on them):
#: (check, page) -> what is wrong. Each is a strict expected failure, so the entry must go once the page is fixed.
KNOWN_DEFECTS: dict[tuple[str, str], str] = {}
#: pages where the browser itself failed on this machine (not strict: the failure was Chromium's)
BROWSER_ERRORS = {("fit_1280", "chapters/thresholds/theory"): "Chromium could not return the page's measurements"}


def _checked_pages(check: str):
    """The pages for one check, the known defects marked as expected failures."""
    params = []
    for page in _pages():
        if (check, page) in KNOWN_DEFECTS:
            params.append(pytest.param(page, marks=pytest.mark.xfail(strict=True, reason=KNOWN_DEFECTS[check, page])))
        elif (check, page) in BROWSER_ERRORS:
            params.append(pytest.param(page, marks=pytest.mark.xfail(strict=False,
                                                                     reason=BROWSER_ERRORS[check, page])))
        else:
            params.append(page)
    return params


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


def test_a_downloaded_notebook_opens_with_what_it_needs():
    """The executed notebook (the page's download) opens with a cell, removed from the page, saying
    what running it needs: a clone, the Python floor of pyproject.toml, the .venv, the page's folder."""
    import tomllib

    from credalbook.book.build import _reader_note

    floor = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["requires-python"]
    note = _reader_note(ROOT, "chapters/ncc/uci")
    for needed in ("git clone", f"Python {floor.removeprefix('>=')} or newer", "make venv", "`chapters/ncc/` folder",
                   "`profile`", "chapters/rerun.md"):
        assert needed in note, needed
    assert "Makefile" in os.listdir(ROOT) and "venv:" in (ROOT / "Makefile").read_text(encoding="utf-8")


def test_a_downloaded_notebook_runs_top_to_bottom():
    """The download of a page (its executed notebook, outputs cleared) runs from the page's folder of
    a clone, as the reader would run it in JupyterLab: one short page of "Using the package"."""
    import nbclient
    import nbformat

    page = "chapters/using/sets"
    sources = [HTML / "_sources" / f"{page}.ipynb", ROOT / "_build" / "executed" / f"{page}.ipynb"]
    source = next((path for path in sources if path.is_file()), None)
    if source is None:
        if os.environ.get("CREDALBOOK_REQUIRE_BOOK"):
            pytest.fail("the book is not built: run `make book` before the tests")
        pytest.skip("the book is not built (run `make book`)")
    notebook = nbformat.read(source, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    assert "git clone" in notebook.cells[0].source  # the reader's note first
    nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(ROOT / Path(page).parent)}}).execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert outputs and not [o for o in outputs if o.output_type == "error"]


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
    // an API entry's parameter types quote the signature's Python literals ("float, default 1e-6"), as code does
    clone.querySelectorAll('dl.field-list li > p > strong ~ em').forEach(e => e.remove());
    // a detached copy has no layout: separate the cells and blocks, whose texts would otherwise run together
    clone.querySelectorAll('td, th, li, p, div, dt, dd, h1, h2, h3, h4, caption, figcaption')
        .forEach(e => e.append(' '));
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
    dollars = [m.group(0) for m in re.finditer(r".{0,30}\$(?!\d).{0,30}", text)]  # "$0.07" is a price
    assert not dollars, f"{page}: raw $ in the text: {dollars[:3]}"
    scientific = SCIENTIFIC.findall(text)
    assert not scientific, f"{page}: numbers in scientific notation: {scientific[:5]}"


SIGNATURE_VALUES = """
    return Array.from(document.querySelectorAll('dt.sig')).map(dt => dt.innerText.replace(/\\s+/g, ' '))
        .filter(text => /= *[{<]|<locals>|at 0x|\\$/.test(text))
        .map(text => text.slice(0, 90));
"""

TABLE_HEADERS = """
    return Array.from(document.querySelectorAll('main th')).map(th => th.innerText.trim());
"""


def machine_text(text: str) -> dict[str, list[str]]:
    """Pieces of ``text`` (a page's readable text) that are machine text, by kind."""
    found = {}
    for kind, pattern in MACHINE_TEXT.items():
        hits = [text[max(m.start() - 25, 0):m.end() + 25].replace("\n", " ") for m in pattern.finditer(text)]
        if hits:
            found[kind] = hits[:3]
    return found


@pytest.mark.parametrize("text, kind", [
    ("<matplotlib.legend.Legend at 0x7f3a2c1d9e50>", "an object repr"),
    ("key=<function make.<locals>.score>", "a closure's name"),
    ("solves to c₁**5*(k₀ + 4*l₀)", "a Python power"),
    ("and x**2 + 1", "a Python power"),
    ("| {h, b} | c{h,b}(h) |", "raw TeX"),
    ("<matplotlib.lines.Line2D object>", "a matplotlib value"),
])
def test_machine_text_is_recognised(text, kind):
    assert kind in machine_text(text)


def test_prose_is_not_machine_text():
    prose = ("The set {h, b} costs 0.75 (Table II); a pair of classes earns u(1/2) = 0.65, and 2 × 3 = 6. "
             "See the paper's Eq. (2) and Yang et al.'s Fig. 1 — x ≤ 1, 10⁻⁹.")
    assert machine_text(prose) == {}
    assert not SNAKE_CASE.match("determinacy (%)") and SNAKE_CASE.match("set_size")


@pytest.mark.browser
@pytest.mark.parametrize("page", _checked_pages("no_machine_text"))
def test_page_prints_no_machine_text(browser, page):
    _open(browser, page)
    found = machine_text(browser.execute_script(READABLE_TEXT))
    assert not found, f"{page}: machine text: {found}"
    values = browser.execute_script(SIGNATURE_VALUES)
    assert not values, f"{page}: the reference prints Python values: {values[:3]}"
    snake = [h for h in browser.execute_script(TABLE_HEADERS) if SNAKE_CASE.match(h)]
    assert not snake, f"{page}: snake_case column names: {snake[:5]}"


OPEN_FOLDS = "document.querySelectorAll('details').forEach(d => d.open = true);"

WIDER_THAN_COLUMN = """
    const article = document.querySelector('article.bd-article') || document.querySelector('main');
    const column = article.getBoundingClientRect();
    const name = e => e.tagName.toLowerCase() + '.' + String(e.getAttribute('class') || '').split(' ')[0];
    const scrolls = e => getComputedStyle(e).overflowX !== 'visible';
    const insideBox = e => { for (let a = e.parentElement; a && a !== article; a = a.parentElement)
                                 if (scrolls(a)) return true;
                             return false; };
    const out = [];
    for (const e of article.querySelectorAll('*')) {
        if (e.closest('.bd-sidebar-secondary, .prev-next-area, .toggle-hidden, mjx-assistive-mml')) continue;
        if (e.closest('mjx-container') && !e.matches('mjx-container[display="true"]')) continue;  // MathJax's own parts
        if (e.matches('span.math')) continue;  // inline maths
        const r = e.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        const hides = scrolls(e) && e.scrollWidth > e.clientWidth + 2;
        const spills = r.right > column.right + 2 || r.left < column.left - 2;
        if (hides || (spills && !insideBox(e) && !(e.parentElement.getBoundingClientRect().right > column.right + 2))) {
            const by = Math.round(hides ? e.scrollWidth - e.clientWidth : r.right - column.right);
            const text = String(e.innerText || e.textContent || '').trim().slice(0, 40).replace(/\\s+/g, ' ');
            out.push(`${name(e)} ${hides ? 'hides' : 'spills'} ${by} px: ${text}`);
        }
    }
    return out;
"""

SIDEWAYS = """
    const doc = document.documentElement;
    if (doc.scrollWidth <= doc.clientWidth + 1) return [];
    const out = [];
    for (const e of document.querySelectorAll('main *')) {
        const r = e.getBoundingClientRect();
        if (r.width > 0 && r.right > doc.clientWidth + 1 && !(e.parentElement.getBoundingClientRect().right > doc.clientWidth + 1))
            out.push(`${e.tagName.toLowerCase()}.${String(e.getAttribute('class') || '').split(' ')[0]} ${Math.round(r.right - doc.clientWidth)} px`);
    }
    return [`page ${doc.scrollWidth} px wide in a ${doc.clientWidth} px window`, ...out.slice(0, 5)];
"""


@pytest.mark.browser
@pytest.mark.parametrize("page", _checked_pages("fit_1280"))
def test_page_blocks_fit_the_column_at_1280_px(browser, page):
    _open(browser, page)
    browser.execute_script(OPEN_FOLDS)
    wide = browser.execute_script(WIDER_THAN_COLUMN)
    assert not wide, f"{page}: blocks wider than the text column at 1280 px: {wide[:4]}"


CONTENTS_PANEL = """
    const panel = document.querySelector('.bd-sidebar-secondary');
    if (!panel || panel.offsetParent === null) return [];
    const out = [];
    if (panel.scrollWidth > panel.clientWidth + 1) out.push(`panel ${panel.scrollWidth - panel.clientWidth} px too wide`);
    const right = panel.getBoundingClientRect().right;
    for (const a of panel.querySelectorAll('a')) {
        const r = a.getBoundingClientRect();
        if (r.width && r.right > right + 1) out.push(`${a.innerText.trim().slice(0, 60)}: ${Math.round(r.right - right)} px`);
    }
    return out;
"""


@pytest.mark.browser
@pytest.mark.parametrize("page", _pages())
def test_page_contents_panel_fits_at_1280_px(browser, page):
    """The right-hand contents panel: a long entry (an API name, module.Class.method) breaks, never scrolls."""
    _open(browser, page)
    spills = browser.execute_script(CONTENTS_PANEL)
    assert not spills, f"{page}: the contents panel scrolls sideways at 1280 px: {spills[:4]}"


@pytest.mark.browser
@pytest.mark.parametrize("page", _pages())
def test_page_does_not_scroll_sideways_at_390_px(browser, page):
    browser.set_window_size(390, 844)
    try:
        _open(browser, page)
        browser.execute_script(OPEN_FOLDS)
        sideways = browser.execute_script(SIDEWAYS)
    finally:
        browser.set_window_size(1280, 2000)
    assert not sideways, f"{page}: scrolls sideways at 390 px: {sideways}"


FIGURES = """
    return Array.from(document.querySelectorAll('article.bd-article img')).filter(img => img.naturalWidth > 40)
        .map(img => {
            const figure = img.closest('figure');
            const caption = figure && figure.querySelector('figcaption');
            const number = caption && caption.querySelector('.caption-number');
            return [img.getAttribute('src'), !!number, caption ? caption.innerText.trim().length : 0,
                    img.getAttribute('alt') || ''];
        });
"""


@pytest.mark.browser
@pytest.mark.parametrize("page", _checked_pages("figures"))
def test_page_figures_are_numbered_with_a_caption_and_alt_text(browser, page):
    _open(browser, page)
    bad = [(src, numbered, length, alt) for src, numbered, length, alt in browser.execute_script(FIGURES)
           if not numbered or length < 20 or len(alt) < 15 or re.search(r"\.(png|svg|jpe?g)$|^(\.\./|_build|/)", alt)]
    assert not bad, f"{page}: figures without a numbered caption or real alt text (src, numbered, caption chars, alt): {bad[:3]}"


@pytest.mark.browser
@pytest.mark.parametrize("page", _pages())
def test_page_figures_and_equations_keep_their_size(browser, page):
    _open(browser, page)
    shrunk = browser.execute_script(SHRUNK_FIGURES)
    assert not shrunk, f"{page}: figures shown below 90 % of their drawn width (src, drawn, shown): {shrunk[:3]}"
    clipped = browser.execute_script(CLIPPED_EQUATIONS)
    assert not clipped, f"{page}: display equations clipped at the column edge: {clipped[:3]}"
