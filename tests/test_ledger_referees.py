"""The referees' second readings: every file parses, the agreement is counted right, and the resolutions hold."""
from __future__ import annotations

import pandas as pd
import pytest
import yaml

from credalbook.book.ledger import referees

VERDICTS = {"reproduced", "within tolerance", "partly", "not reproduced", "erratum", "not checkable"}


def _write(folder, name, record):
    (folder / name).write_text(yaml.safe_dump(record, allow_unicode=True), encoding="utf-8")


@pytest.fixture
def folder(tmp_path):
    entry = {"book_verdict": "erratum", "referee_verdict": "erratum", "severity": "misprint", "reasons": "r"}
    _write(tmp_path, "p.yml", {"paper": "p", "entries": [
        {**entry, "id": "p.a", "reading": "agree"},
        {**entry, "id": "p.b", "reading": "disagree", "referee_verdict": "not reproduced"},
        {**entry, "id": "p.c", "reading": "unsure"},
        {**entry, "id": "p.d", "reading": "agree", "same_finding_as": ["p.a"]}],
        "audit": [{"title": "t", "section": "§1", "quote": "q", "computation": "1 + 1 = 3", "severity": "misprint",
                   "entry": "p.a"}]})
    _write(tmp_path, "q.yml", {"paper": "q", "entries": [{**entry, "id": "q.a", "reading": "disagree"}]})
    _write(tmp_path, "resolutions.yml", {"resolutions": [
        {"id": "p.b", "resolution": "adopted", "verdict": "not reproduced", "reason": "noise"},
        {"id": "p.c", "resolution": "kept", "verdict": "erratum", "reason": "the arithmetic"}]})
    return tmp_path


def test_agreement_counts_each_paper(folder):
    table = referees.agreement(referees.readings(folder)).set_index("paper")
    assert table.loc["p", ["read", "agree", "disagree", "unsure"]].tolist() == [4, 2, 1, 1]
    assert table.loc["p", "agreement"] == pytest.approx(0.5)
    assert table.loc["q", "agreement"] == 0.0
    assert referees.readings(folder).set_index("id").loc["p.d", "same_finding_as"] == ("p.a",)


def test_resolutions_are_held_to_the_ledger(folder):
    ledger = pd.DataFrame({"id": ["p.a", "p.b", "p.c", "p.d", "q.a"], "entry": "claim",
                           "verdict": ["erratum", "not reproduced", "erratum", "erratum", "erratum"]})
    reading, resolved = referees.readings(folder), referees.resolutions(folder)
    assert referees.check_resolutions(ledger, reading, resolved) == ["q.a: the referee's 'disagree' reading has no "
                                                                     "resolution"]
    changed = ledger.assign(verdict=["erratum", "partly", "reproduced", "erratum", "erratum"])
    problems = referees.check_resolutions(changed, reading, resolved)
    assert "p.b: adopted as 'not reproduced' but the ledger says 'partly'" in problems
    assert "p.c: kept as 'erratum' but the ledger says 'reproduced'" in problems


def test_unread_negative_entries_are_listed(folder):
    ledger = pd.DataFrame({"id": ["p.a", "p.z", "t[x; y]", "t[x; z]"], "entry": ["claim", "claim", "table", "table"],
                           "verdict": ["erratum", "partly", "erratum", "not reproduced"]})
    assert referees.unread_entries(ledger, referees.readings(folder)) == ["p.z", "t[x; y]"]


def test_audit_items_keep_their_computation(folder):
    items = referees.audit_items(folder)
    assert items.loc[0, ["paper", "computation", "entry"]].tolist() == ["p", "1 + 1 = 3", "p.a"]
    assert referees.unheld_audit_items(["p.a", "p.b"], items) == []
    assert referees.unheld_audit_items(["p.b"], items) == ["p: t (entry 'p.a')"]


def test_an_audit_item_without_an_entry_is_refused(tmp_path):
    _write(tmp_path, "p.yml", {"paper": "p", "entries": [], "audit": [
        {"title": "t", "section": "§1", "quote": "q", "computation": "1 + 1 = 3", "severity": "misprint"}]})
    with pytest.raises(ValueError, match="names no ledger entry"):
        referees.audit_items(tmp_path)


def test_every_audit_item_is_held_by_a_ledger_entry_that_computes_it():
    """Each inconsistency the referees' audit found is a ledger claim (issue 24): the entry it names exists,
    and its check decides it negative (an erratum or a failed claim) on the book's inputs."""
    from credalbook.book import ledger
    from credalbook.book.ledger import core

    items = referees.audit_items()
    claims = {claim.id: claim for claim in ledger.claims()}
    assert referees.unheld_audit_items(claims, items) == []
    assert len(items) == 18 and items["entry"].is_unique
    ledger.discover()
    for entry in items["entry"]:
        claim = claims[entry]
        item = core.CHECKS[claim.check]
        row = core.evaluate_claim(claim, core.load_inputs(item))
        assert row["verdict"] in ("erratum", "not reproduced", "partly"), f"{entry}: {row['verdict']}"


def test_a_reading_outside_the_vocabulary_is_refused(tmp_path):
    _write(tmp_path, "p.yml", {"paper": "p", "entries": [{"id": "p.a", "book_verdict": "erratum", "reading": "maybe"}]})
    with pytest.raises(ValueError, match="has reading 'maybe'"):
        referees.readings(tmp_path)


def test_the_books_referee_files_are_complete():
    frame = referees.readings()
    assert set(frame["book_verdict"]) <= {"erratum", "not reproduced", "partly"}
    assert set(frame["referee_verdict"].dropna()) <= VERDICTS
    assert frame["reasons"].str.len().min() > 40  # every reading gives its reasons
    assert {"zaffalon2012", "zaffalon2011", "yang2017", "ferri2019"} <= set(frame["paper"])
    items = referees.audit_items()
    assert (items["computation"].str.len() > 0).all() and set(items["severity"]) <= {
        "misprint", "error of substance", "unsupported inference"}


def test_every_negative_entry_was_read_and_every_disagreement_resolved():
    """The book's ledger against its referee files: nothing unread, nothing unresolved (issue 24, item 3)."""
    from credalbook.book import ledger

    table = ledger.evaluated()
    counted = table[~ledger.is_reading(table["entry"])]
    assert referees.unread_entries(counted) == []
    assert referees.check_resolutions(counted) == []
