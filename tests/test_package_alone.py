"""The package without the book: a wheel holds the library and its dataset registry, not the book's
machinery or data, and works from a folder that is no checkout (classifiers, scorers, the data layer's own
errors); the library never imports the book's machinery."""
from __future__ import annotations

import ast
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from credalbook.book.build import repo_root

ROOT = repo_root()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(folder), str(ROOT)], check=True, capture_output=True)
    (path,) = folder.glob("credalbook-*.whl")
    return path


def test_the_wheel_holds_the_library_and_the_registry_not_the_book(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "credalbook/datasets.csv" in names and "credalbook/classifiers/ncc.py" in names
    assert not [n for n in names if n.startswith(("data/", "chapters/", "tests/", "credalbook/book/"))]
    metadata = next(n for n in names if n.endswith("METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    requirements = [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Requires-Dist:")]
    library = {r.split(">")[0].split("=")[0].strip().lower() for r in requirements if "extra ==" not in r}
    assert {"numpy", "scipy", "scikit-learn", "mapie"} <= library
    # the book's machinery and its tools are the [book] extra; scikit-posthocs was never imported
    assert not library & {"sympy", "pyyaml", "jupyter-book", "papermill", "scikit-posthocs"}
    assert any(r.startswith("sympy") and "extra == \"book\"" in r for r in requirements)


def test_the_library_works_outside_a_checkout(wheel, tmp_path):
    unpacked = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(unpacked)
    script = """
import sys
sys.modules["sympy"] = sys.modules["yaml"] = None  # the library must not need the [book] extra's packages
import numpy as np
from sklearn.datasets import load_iris
from sklearn.model_selection import cross_val_score
from credalbook.classifiers import NaiveCredalClassifier
from credalbook.pipeline import make_set_pipeline
from credalbook.preprocessing import MDLDiscretizer
from credalbook.scoring import get_scorer
from credalbook import data
X, y = load_iris(return_X_y=True)
scores = cross_val_score(make_set_pipeline(MDLDiscretizer(), NaiveCredalClassifier()), X, y, scoring=get_scorer("u65"))
assert np.all(np.isfinite(scores)), scores
assert data.repository_dir() is None
try:
    data.load("iris")
except data.DatasetNotFoundError as error:
    assert "credalbook fetch NAME" in str(error), error
else:
    raise AssertionError("iris loaded without the book's data")
from credalbook import cli
assert cli.main(["datasets"]) == 0             # a library command works without the [book] extra
assert cli.main(["ledger"]) == 2               # a book command says it needs the extra, without a traceback
print("ok", data.__file__)
"""
    env = {"PYTHONPATH": str(unpacked), "CREDALBOOK_DATA_CACHE": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.splitlines()[-1].startswith("ok") and str(unpacked) in out.stdout


def test_the_library_never_imports_the_books_machinery():
    """Only the command line reaches into ``credalbook.book``, inside functions that refuse without it."""
    package = ROOT / "credalbook"
    crossings = []
    for path in package.rglob("*.py"):
        if path.is_relative_to(package / "book") or path.name == "cli.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            crossings += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.startswith("credalbook.book")]
    assert not crossings
