"""Every public callable of the library has an Examples section, and the examples run (issue 28, item 7).

The public names are those of each module's ``__all__`` in :data:`credalbook._library.LIBRARY_MODULES`,
found name by name (which also reaches the classes that :mod:`credalbook.classifiers` re-exports from
its submodules); a name exported by two modules is run once. Examples that no public name carries (a
module's own docstring, private helpers) are refused: a reader finds an example under the name it shows.
"""
from __future__ import annotations

import doctest
import importlib
import inspect
import sys

import matplotlib
import pytest

from credalbook._library import LIBRARY_MODULES

matplotlib.use("Agg")

OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

def _public_callables() -> dict[str, object]:
    """``{"module.name": object}`` over the ``__all__`` of every library module, each object once."""
    public, seen = {}, set()
    for module_name in LIBRARY_MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if callable(obj) and id(obj) not in seen:
                seen.add(id(obj))
                public[f"{module_name}.{name}"] = obj
    return public


PUBLIC = _public_callables()


def _doctests_of(name: str, obj) -> list[doctest.DocTest]:
    """The doctests of a public object and of its methods, with the globals of the module defining it."""
    home = sys.modules[obj.__module__]
    finder = doctest.DocTestFinder(exclude_empty=True)
    return [test for test in finder.find(obj, name, module=home, globs=vars(home).copy()) if test.examples]


def _key(test: doctest.DocTest) -> tuple:
    return test.filename, test.lineno, test.docstring


def _module_leftovers() -> dict[str, list[doctest.DocTest]]:
    """Per module, the doctests that no public name carries (module docstring, private helpers)."""
    carried = {_key(test) for name, obj in PUBLIC.items() for test in _doctests_of(name, obj)}
    finder = doctest.DocTestFinder(exclude_empty=True)
    leftovers = {}
    for module_name in LIBRARY_MODULES:
        module = importlib.import_module(module_name)
        tests = [test for test in finder.find(module, module_name)
                 if test.examples and _key(test) not in carried]
        if tests:
            leftovers[module_name] = tests
    return leftovers


def _run(tests: list[doctest.DocTest], what: str) -> None:
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {what} failed (run with -s)"


def test_the_library_has_public_callables():
    # the parametrisations below must not be vacuous: the library's public callables are all there
    assert len(PUBLIC) >= 200
    assert {"credalbook.metrics.discounted_accuracy", "credalbook.costspace.brier_score",
            "credalbook.pipeline.SetPipeline", "credalbook.classifiers.NaiveCredalClassifier"} <= set(PUBLIC)


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_the_public_name_has_examples_that_run(name):
    obj = PUBLIC[name]
    tests = _doctests_of(name, obj)
    assert tests and "Examples\n--------" in (inspect.getdoc(obj) or ""), f"{name} has no Examples section"
    _run(tests, name)


def test_every_example_sits_under_a_public_name():
    leftovers = {module: [test.name for test in tests] for module, tests in _module_leftovers().items()}
    assert not leftovers, f"examples outside the public names (move them to the name they show): {leftovers}"


@pytest.mark.parametrize("name", sorted(name for name, obj in PUBLIC.items()
                                        if inspect.isclass(obj) and hasattr(obj, "fit")))
def test_the_fit_of_every_estimator_says_what_it_takes(name):
    assert inspect.getdoc(PUBLIC[name].fit), f"{name}.fit has no docstring"
