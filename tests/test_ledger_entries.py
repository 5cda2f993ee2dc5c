"""Every ledger entry of the five papers: each claim has a check that can fail, each published table a builder.

For every claim, the check's verdict on the stored results is compared with its verdict on
inputs its ``mutate`` function alters: they must differ, so no check can pass whatever the
data say. Every table transcribed in ``data/paper`` is judged cell by cell.
"""
from __future__ import annotations

import pytest

from credalbook.book import ledger
from credalbook.book.ledger import core
from credalbook.book.reference import paper_dir

ledger.discover()
CLAIMS = ledger.claims()


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_every_check_flips_its_verdict_when_its_input_is_altered(claim):
    assert claim.check in core.CHECKS, f"{claim.id}: no check {claim.check!r} is registered"
    item = core.CHECKS[claim.check]
    assert item.mutate is not None, f"check {claim.check!r} declares no mutate function"
    inputs = core.load_inputs(item)
    row = core.evaluate_claim(claim, inputs)
    before = row["verdict"]
    assert before in ledger.VERDICTS
    if before == "not checkable":  # nothing to flip: the check must say why the book cannot decide
        assert row["detail"], f"{claim.id}: a not checkable entry must say why"
        return
    after = core.evaluate_claim(claim, item.mutate(**inputs))["verdict"]
    assert after != before, f"{claim.id}: the verdict stays {before!r} under altered inputs"


def test_every_published_table_has_a_book_builder():
    names = sorted(p.stem for p in paper_dir().glob("*.csv"))
    built = {name for name, reading in core.TABLES if reading == core.BOOK_READING}
    assert sorted(set(names) - built) == []


@pytest.mark.parametrize("name", sorted({n for n, r in core.TABLES if r == core.BOOK_READING}))
def test_every_printed_cell_gets_a_verdict(name):
    rows = core.table_rows(name)
    assert len(rows) > 0 and set(rows["verdict"]) <= set(ledger.VERDICTS)
    assert rows["id"].is_unique
