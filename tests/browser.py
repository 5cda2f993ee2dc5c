"""Headless Chromium for the tests of the rendered book (no network: only file:// pages load)."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def require(html: Path) -> None:
    """Skip (fail under ``CREDALBOOK_REQUIRE_BOOK=1``) without a built book or a browser."""
    strict = bool(os.environ.get("CREDALBOOK_REQUIRE_BOOK"))
    if not (html / "index.html").is_file():
        if strict:
            pytest.fail("the book is not built: run `make book` before the tests")
        pytest.skip("the book is not built (run `make book`)")
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        if strict:
            pytest.fail("chromium and chromedriver are needed: apt-get install chromium chromium-driver")
        pytest.skip("chromium/chromedriver not installed")


def start():
    """A headless Chromium driver at 1280 px wide; the caller quits it."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="credalbook-chromium-")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--allow-file-access-from-files", "--window-size=1280,2000", "--force-device-scale-factor=1",
                 # no network: every host name fails to resolve, only file:// pages load
                 "--host-resolver-rules=MAP * ~NOTFOUND", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_script_timeout(60)
    driver.profile_dir = profile
    return driver


def stop(driver) -> None:
    driver.quit()
    shutil.rmtree(driver.profile_dir, ignore_errors=True)


def load_page(driver, path: Path) -> None:
    """Open ``path`` and wait until MathJax (served from _static) has typeset it, when the page uses it."""
    driver.get(path.as_uri())
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
