"""The ledger's machinery: claims as data, the verdict rules of each kind, published table cells."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from credalbook import ledger
from credalbook.ledger import core
from credalbook.ledger.core import Claim, Finding, judge, printing_precision


def _claim(**changes) -> Claim:
    base = dict(id="x.demo", paper="ferri2019", quote="q", sections=("§1",), kind="number", published=0.75,
                check="none", part="VI")
    base.update(changes)
    return Claim(**base)


@pytest.mark.parametrize("printed,half", [("0.75", 0.005), ("33", 0.5), ("94.40", 0.005), ("1e-4", 0.5e-4),
                                          ("-2.5", 0.05), (0.125, 0.0005)])
def test_printing_precision(printed, half):
    assert printing_precision(printed) == pytest.approx(half)


def test_printing_precision_rejects_words():
    with pytest.raises(ValueError, match="not a printed number"):
        printing_precision("about 3")


class TestNumbers:
    def test_within_printing_precision_is_reproduced(self):
        assert judge(_claim(), Finding(0.754))["verdict"] == "reproduced"
        assert judge(_claim(), Finding(0.756))["verdict"] == "not reproduced"

    def test_stated_tolerance(self):
        claim = _claim(tolerance={"absolute": 0.02, "why": "one standard error"})
        row = judge(claim, Finding(0.765))
        assert row["verdict"] == "within tolerance" and row["difference"] == pytest.approx(0.015)
        assert judge(claim, Finding(0.78))["verdict"] == "not reproduced"
        relative = _claim(published=200, tolerance={"relative": 0.05, "why": "sampling"})
        assert judge(relative, Finding(209.0))["verdict"] == "within tolerance"
        assert judge(relative, Finding(211.0))["verdict"] == "not reproduced"

    def test_explicit_printing_precision(self):
        assert judge(_claim(printed=0.01), Finding(0.759))["verdict"] == "reproduced"

    def test_a_nan_book_value_is_refused(self):
        with pytest.raises(ValueError, match="must return a number"):
            judge(_claim(), Finding(float("nan")))


def test_counts_are_exact():
    claim = _claim(kind="count", published=33)
    assert judge(claim, Finding(33))["verdict"] == "reproduced"
    row = judge(claim, Finding(32))
    assert row["verdict"] == "not reproduced" and row["difference"] == -1


def test_directions_and_significance_compare_the_statement():
    claim = _claim(kind="direction", published=True)
    assert judge(claim, Finding(True))["verdict"] == "reproduced"
    assert judge(claim, Finding(False))["verdict"] == "not reproduced"
    significance = _claim(kind="significance", published=False)
    assert judge(significance, Finding(False))["verdict"] == "reproduced"


def test_share_worded_claims_use_the_declared_threshold():
    claim = _claim(kind="direction", published=True, tolerance={"share": 0.9, "word": "almost everywhere"})
    assert judge(claim, Finding(0.95))["verdict"] == "reproduced"
    assert judge(claim, Finding(0.71))["verdict"] == "partly"
    assert judge(claim, Finding(0.30))["verdict"] == "not reproduced"
    never = _claim(kind="direction", published=False, tolerance={"share": 0.9, "word": "hardly ever"})
    assert judge(never, Finding(0.05))["verdict"] == "reproduced"
    with pytest.raises(ValueError, match="share in \\[0, 1\\]"):
        judge(claim, Finding(1.5))


def test_rankings():
    claim = _claim(kind="ranking", published=["CMA", "NCC", "CDT"])
    assert judge(claim, Finding(["CMA", "NCC", "CDT"]))["verdict"] == "reproduced"
    assert judge(claim, Finding(["CMA", "CDT", "NCC"]))["verdict"] == "partly"
    assert judge(claim, Finding(["NCC", "CMA", "CDT"]))["verdict"] == "not reproduced"


def test_a_check_decides_errata_and_formulas_must_decide():
    formula = _claim(kind="formula", published="-1.2x^2 + 2.2x is u65")
    assert judge(formula, Finding("u80", verdict="erratum"))["verdict"] == "erratum"
    with pytest.raises(ValueError, match="must decide"):
        judge(formula, Finding("u80"))
    with pytest.raises(ValueError, match="verdict must be one of"):
        Finding(1, verdict="wrong")


def _write_claims(folder, text):
    folder.mkdir(exist_ok=True)
    (folder / "c.yml").write_text(text)
    return folder


VALID = """
- id: a.one
  paper: yang2017
  quote: "x"
  sections: "§2"
  kind: count
  published: 3
  check: a.one
  part: IV
"""


class TestClaimFiles:
    def test_a_valid_file(self, tmp_path):
        (found,) = ledger.claims(_write_claims(tmp_path / "c", VALID))
        assert found.sections == ("§2",) and found.tolerance == "exact"

    @pytest.mark.parametrize("change,message", [
        (("kind: count", "kind: guess"), "has kind 'guess'"),
        (("paper: yang2017", "paper: nobody2020"), "unknown paper"),
        (("part: IV", "part: IV\n  colour: red"), "unknown fields \\['colour'\\]"),
        (("  check: a.one\n", ""), "lacks \\[.check.\\]"),
        (("kind: count", "kind: number\n  tolerance: {absolute: 0.1}"), "needs a 'why'"),
        (("kind: count", "kind: direction\n  tolerance: {share: 0.4, word: most}"), "out of range"),
        (("kind: count", "kind: direction\n  tolerance: {share: 0.9}"), "names the paper's word"),
        (("kind: count", "kind: count\n  tolerance: {absolute: 1, why: w}"), "applies to numbers"),
        (("part: IV", "part: IV\n  reading: 3"), "reading must name the reading in words, got 3"),
        (("part: IV", "part: IV\n  reading: ' '"), "reading must name the reading in words"),
    ])
    def test_bad_entries_are_named(self, tmp_path, change, message):
        with pytest.raises(ValueError, match=message):
            ledger.claims(_write_claims(tmp_path / "c", VALID.replace(*change)))

    def test_a_claim_in_another_reading_is_reported_and_not_counted(self, tmp_path):
        (claim,) = ledger.claims(_write_claims(tmp_path / "c", VALID.replace("part: IV", "part: IV\n  reading: on Weka")))
        assert claim.reading == "on Weka"
        row = ledger.judge(claim, ledger.Finding(book=3))
        assert row["entry"] == "claim; reading: on Weka" and row["verdict"] == "reproduced"
        book_row = ledger.judge(ledger.claims(_write_claims(tmp_path / "d", VALID))[0], ledger.Finding(book=2))
        table = pd.DataFrame([row, book_row])
        assert ledger.is_reading(table["entry"]).tolist() == [True, False]
        assert ledger.is_claim(table["entry"]).tolist() == [True, True]
        assert ledger.counts(table).loc["all", "total"] == 1
        assert ledger.counts(table).loc["all", "not reproduced"] == 1
        assert ledger.is_claim(pd.Series(["table", "reading: r", "claim"])).tolist() == [False, False, True]

    def test_entry_labels(self):
        assert ledger.entry_label("claim") == "claim" and ledger.entry_label("table") == "table"
        assert ledger.entry_label("table", "r") == "reading: r"
        with pytest.raises(ValueError, match="kind must be 'claim' or 'table', got 'cell'"):
            ledger.entry_label("cell")

    def test_duplicate_ids(self, tmp_path):
        folder = _write_claims(tmp_path / "c", VALID)
        (folder / "d.yml").write_text(VALID)
        with pytest.raises(ValueError, match="appears in c.yml and d.yml"):
            ledger.claims(folder)


def test_table_cells_are_judged_with_their_printed_digits(tmp_path, monkeypatch):
    paper = tmp_path / "paper"
    paper.mkdir()
    (paper / "ferri2019_demo.csv").write_text("model,AUC,BS\nA,0.80,0.125\nB,0.70,0.2\n")
    (paper / "ferri2019_demo.yml").write_text(
        "paper: Ferri, Hernández-Orallo & Flach (2019), demo\ntable: Table 99\npage: 1\ntolerance: {AUC: 0.02, BS: 0.001}\n"
        "cells:\n  - match: {model: B}\n    measure: BS\n    verdict: erratum\n    why: misprinted\n")
    monkeypatch.setattr(core, "_data_dir", lambda: paper)
    import credalbook.reference as reference

    monkeypatch.setattr(reference, "paper_dir", lambda: paper)
    monkeypatch.setitem(core.TABLES, ("ferri2019_demo", "book"), core.BookTable(
        "ferri2019_demo", lambda: None, ("model",), {}, None, "book", "VI", "chapters/x"))
    book = pd.DataFrame({"model": ["A", "B"], "AUC": [0.8049, 0.715], "BS": [np.nan, 0.9]})
    rows = core.table_rows("ferri2019_demo", book=book).set_index("id")
    assert rows.loc["ferri2019_demo[model=A; AUC]", "verdict"] == "reproduced"
    assert rows.loc["ferri2019_demo[model=B; AUC]", "verdict"] == "within tolerance"
    assert rows.loc["ferri2019_demo[model=A; BS]", "verdict"] == "not checkable"
    assert rows.loc["ferri2019_demo[model=B; BS]", "verdict"] == "erratum"
    assert rows.loc["ferri2019_demo[model=B; BS]", "detail"] == "misprinted"
    assert rows.loc["ferri2019_demo[model=A; AUC]", "published"] == "0.80"


class TestBadInput:
    def test_ledger_filters(self):
        with pytest.raises(ValueError, match="paper must be one of"):
            ledger.ledger(paper="nobody")
        with pytest.raises(ValueError, match="verdict must be one of"):
            ledger.ledger(verdict="maybe")

    def test_a_claim_with_an_unregistered_check(self):
        with pytest.raises(KeyError, match="which no module of credalbook.ledger registers"):
            core.evaluate_claim(_claim(check="no.such.check"))


def test_cell_rules_can_set_a_tolerance_and_be_restricted_to_a_reading(tmp_path, monkeypatch):
    paper = tmp_path / "paper"
    paper.mkdir()
    (paper / "ferri2019_mixed.csv").write_text("quantity,value\nwins,33\nmedian,0.75\n")
    (paper / "ferri2019_mixed.yml").write_text(
        "paper: Ferri, Hernández-Orallo & Flach (2019), demo\ntable: Text\npage: 1\ntolerance: 0.02\n"
        "cells:\n  - match: {quantity: wins}\n    tolerance: 1\n    why: one dataset may move a count\n"
        "  - match: {quantity: median}\n    reading: other\n    why: only in the other reading\n")
    monkeypatch.setattr(core, "_data_dir", lambda: paper)
    import credalbook.reference as reference

    monkeypatch.setattr(reference, "paper_dir", lambda: paper)
    for reading in ("book", "other"):
        monkeypatch.setitem(core.TABLES, ("ferri2019_mixed", reading), core.BookTable(
            "ferri2019_mixed", lambda: None, ("quantity",), {}, None, reading, "VI", "chapters/x"))
    book = pd.DataFrame({"quantity": ["wins", "median"], "value": [34.0, 0.80]})
    rows = core.table_rows("ferri2019_mixed", book=book).set_index("id")
    assert rows.loc["ferri2019_mixed[quantity=wins; value]", "verdict"] == "within tolerance"
    assert rows.loc["ferri2019_mixed[quantity=wins; value]", "tolerance"] == "±1"
    assert rows.loc["ferri2019_mixed[quantity=median; value]", "verdict"] == "not reproduced"
    assert rows.loc["ferri2019_mixed[quantity=median; value]", "detail"] == ""
    other = core.table_rows("ferri2019_mixed", "other", book=book).set_index("id")
    assert other.loc["ferri2019_mixed[quantity=median; value]", "detail"] == "only in the other reading"


def test_a_chapter_slice_with_claims_but_no_table():
    from credalbook.ledger.report import chapter_slice

    rows = pd.DataFrame([{**{c: "" for c in core.COLUMNS}, "id": "x.demo", "paper": "ferri2019", "entry": "claim",
                          "statement": "a claim", "verdict": "reproduced", "chapter": "chapters/x"}])
    text = chapter_slice("chapters/x", rows)
    assert "a claim" in text and "| table |" not in text
    assert chapter_slice("chapters/none", rows) == "No entry of the ledger is decided on this page."
    read = chapter_slice("chapters/x", rows.assign(entry="claim; reading: on Weka"))
    assert "a claim" in read and "1 claims in the reading 'on Weka', reported beside the book's and not counted" in read


def test_a_check_that_asks_for_its_claim_receives_it(monkeypatch):
    seen = []

    def decide(value, claim):
        seen.append(claim.published)
        return Finding(value, verdict="reproduced" if value == claim.published else "erratum")

    monkeypatch.setitem(core.CHECKS, "x.formula", core.Check("x.formula", decide, {"value": lambda: "2x"}, None,
                                                            "demo", wants_claim=True))
    claim = _claim(kind="formula", published="2x", check="x.formula")
    assert core.evaluate_claim(claim)["verdict"] == "reproduced" and seen == ["2x"]
    assert core.evaluate_claim(claim, {"value": "3x"})["verdict"] == "erratum"


def test_table_keys_that_parse_as_numbers_or_are_blank_still_match(tmp_path, monkeypatch):
    paper = tmp_path / "paper"
    paper.mkdir()
    (paper / "ferri2019_keys.csv").write_text("utility,a,share\nlog,,0.50\nexp,1,0.25\nexp,0.5,1.0000\n")
    (paper / "ferri2019_keys.yml").write_text(
        "paper: Ferri, Hernández-Orallo & Flach (2019), demo\ntable: Text\npage: 1\ntolerance: 0.0\n")
    monkeypatch.setattr(core, "_data_dir", lambda: paper)
    import credalbook.reference as reference

    monkeypatch.setattr(reference, "paper_dir", lambda: paper)
    monkeypatch.setitem(core.TABLES, ("ferri2019_keys", "book"), core.BookTable(
        "ferri2019_keys", lambda: None, ("utility", "a"), {}, None, "book", "VI", "chapters/x"))
    book = pd.DataFrame({"utility": ["log", "exp", "exp"], "a": [np.nan, 1.0, 0.5], "share": [0.504, 0.25, 0.6]})
    rows = core.table_rows("ferri2019_keys", book=book)
    assert rows["published"].tolist() == ["0.50", "0.25", "1.0000"]
    assert rows["verdict"].tolist() == ["reproduced", "reproduced", "not reproduced"]


def test_lists_print_as_rankings_or_plain_lists():
    assert judge(_claim(kind="ranking", published=["a", "b"]), Finding(["a", "b"]))["published"] == "a > b"
    row = judge(_claim(kind="direction", published=["NB", "SVM"]), Finding(["NB", "SVM"]))
    assert row["published"] == "NB, SVM" and row["verdict"] == "reproduced"


def test_a_cell_rule_may_match_any_of_several_values():
    rule = {"match": {"model": ["J48", "PART"]}, "why": "leaf ties"}
    assert core._matches(pd.Series({"model": "PART", "measure": "AUC"}), rule, "book")
    assert not core._matches(pd.Series({"model": "NB", "measure": "AUC"}), rule, "book")
