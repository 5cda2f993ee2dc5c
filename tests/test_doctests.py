"""The Examples sections of the library's docstrings run as doctests (issue 28, item 7)."""
from __future__ import annotations

import doctest
import importlib

import matplotlib
import pytest

from credalbook._library import LIBRARY_MODULES

matplotlib.use("Agg")

@pytest.mark.parametrize("name", LIBRARY_MODULES)
def test_the_examples_of_the_module_run(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = [test for test in finder.find(module, name) if test.examples]
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed (run with -s)"


def test_the_set_valued_api_has_examples():
    finder = doctest.DocTestFinder(exclude_empty=True)
    with_examples = {test.name for name in ("credalbook.pipeline", "credalbook.model_selection", "credalbook.scoring")
                     for test in finder.find(importlib.import_module(name)) if test.examples}
    assert {"credalbook.pipeline.predict_set", "credalbook.model_selection.cross_val_predict_set",
            "credalbook.scoring.get_scorer", "credalbook.scoring.make_cost_scorer"} <= with_examples
