"""Fixtures shared by the tests of the rendered book."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from credalbook.book import repo_root
from tests import browser as chromium


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium on the built book (``$CREDALBOOK_HTML``, default ``_build/html``)."""
    html = Path(os.environ.get("CREDALBOOK_HTML", repo_root() / "_build" / "html")).resolve()
    chromium.require(html)
    driver = chromium.start()
    yield driver
    chromium.stop(driver)
