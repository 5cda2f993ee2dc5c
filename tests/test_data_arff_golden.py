"""The ARFF corpus of ``tests/golden/arff/``: files the differential fuzz against Weka's reader found
interesting (``scripts/arff_fuzz.py``), and the hand-written cases of issue 27, each with Weka's
reading beside it. Without Java: the book's reader must give Weka's reading, or refuse naming the
line, exactly as when the file was kept (so a reader that starts refusing more fails here too)."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from credalbook.book.build import repo_root

ROOT = repo_root()
CORPUS = ROOT / "tests" / "golden" / "arff"
FILES = sorted(CORPUS.glob("*.arff"))


def _fuzz_module():
    spec = importlib.util.spec_from_file_location("arff_fuzz", ROOT / "scripts" / "arff_fuzz.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FUZZ = _fuzz_module()


def test_the_corpus_holds_the_hand_written_cases_and_fuzz_finds():
    names = {path.stem for path in FILES}
    assert set(FUZZ.CURATED) <= names
    assert len([n for n in names if n.startswith("fuzz-")]) >= 10
    records = [json.loads(p.with_suffix(".weka.json").read_text(encoding="utf-8")) for p in FILES]
    statuses = {r["weka"]["status"] for r in records}
    assert statuses == {"read", "refused"}                      # both kinds of outcome are covered


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_book_reads_each_file_as_weka_or_refuses_naming_the_line(path):
    record = json.loads(path.with_suffix(".weka.json").read_text(encoding="utf-8"))
    book = FUZZ.book_reading(path)
    outcome = FUZZ.verdict(book, record["weka"])
    allowed = ("agree", "book refuses") + (("book reads what Weka refuses",) if path.stem in FUZZ.BOOK_EXTENSIONS else ())
    assert outcome in allowed, (outcome, book, record["weka"])
    assert outcome == record["verdict"], (outcome, record["verdict"], book.get("error"))
    if book["status"] == "refused":
        assert book["line"] is not None and 1 <= book["line"] <= len(path.read_bytes().splitlines()) + 1


def test_anneal_s_quoted_question_mark_is_a_value_and_a_bare_one_missing():
    book = FUZZ.book_reading(CORPUS / "anneal-quoted-question-mark.arff")
    assert book["rows"] == [["?", 1.0], [None, 2.0], ["GB", None]]


def test_the_verdict_tells_a_disagreement():
    read = {"status": "read", "attributes": [{"name": "a", "kind": "numeric", "values": None}], "rows": [[1.0]]}
    refused = {"status": "refused", "error": "x"}
    assert FUZZ.verdict(read, read) == "agree"
    assert FUZZ.verdict(read | {"rows": [[2.0]]}, read) == "readings differ"
    assert FUZZ.verdict(read, refused) == "book reads what Weka refuses"
    assert FUZZ.verdict(refused | {"line": None}, read) == "book refuses without a line"
    assert FUZZ.verdict(refused | {"line": 3}, read) == "book refuses"
