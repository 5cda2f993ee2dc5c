"""The rendered book, tested as a web page in headless Chromium with no network.

For every document of ``_toc.yml``: the math is typeset by the locally served MathJax (no raw
``\\(``, ``\\[`` or ``$$`` left in the visible text), every image has loaded, and the
navigation lists every chapter. Needs ``make book`` first; skipped when ``_build/html`` is
absent unless ``CREDALBOOK_REQUIRE_BOOK=1`` (as in ``.ci/run``), where it fails instead.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from credalbook.book import repo_root, toc_entries

ROOT = repo_root()
HTML = ROOT / "_build" / "html"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

pytestmark = pytest.mark.browser


def _require_book():
    if not (HTML / "index.html").is_file():
        if os.environ.get("CREDALBOOK_REQUIRE_BOOK"):
            pytest.fail("the book is not built: run `make book` before the tests")
        pytest.skip("the book is not built (run `make book`)")
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        if os.environ.get("CREDALBOOK_REQUIRE_BOOK"):
            pytest.fail("chromium and chromedriver are needed: apt-get install chromium chromium-driver")
        pytest.skip("chromium/chromedriver not installed")


@pytest.fixture(scope="module")
def browser():
    _require_book()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="credalbook-chromium-")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--allow-file-access-from-files", "--window-size=1280,2000",
                 # no network: every host name fails to resolve, only file:// pages load
                 "--host-resolver-rules=MAP * ~NOTFOUND", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_script_timeout(60)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def _load(driver, entry: str) -> None:
    driver.get((HTML / f"{entry}.html").as_uri())
    # wait until MathJax (served from _static) has typeset the page, when the page uses it
    driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const start = Date.now();
        (function wait() {
            if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
                MathJax.startup.promise.then(() => done(true), () => done(false));
            } else if (Date.now() - start > 5000) { done(false); }
            else { setTimeout(wait, 50); }
        })();
    """)


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
    return any(marker in source for marker in ("plt.", "plots.", "matplotlib"))


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
