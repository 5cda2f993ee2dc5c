"""The ledger's machinery: claims as data, the verdict rules of each kind, published table cells."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from credalbook.book import ledger
from credalbook.book.ledger import core
from credalbook.book.ledger.core import Claim, Finding, judge, printing_precision


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


def test_share_worded_claims_use_the_policy_threshold():
    claim = _claim(kind="direction", published=True, tolerance={"word": "almost everywhere", "share": 0.9})
    assert judge(claim, Finding(0.95))["verdict"] == "reproduced"
    assert judge(claim, Finding(0.71))["verdict"] == "partly"
    assert judge(claim, Finding(0.30))["verdict"] == "not reproduced"
    never = _claim(kind="direction", published=False, tolerance={"word": "almost never", "share": 0.9})
    assert judge(never, Finding(0.05))["verdict"] == "reproduced"
    assert judge(never, Finding(0.2))["verdict"] == "partly"
    with pytest.raises(ValueError, match="share in \\[0, 1\\]"):
        judge(claim, Finding(1.5))


def test_the_threshold_is_the_word_s_not_the_claim_s():
    """A claim that still carried its own share would be judged by the policy's (0.75 for 'generally', not 0.667)."""
    claim = _claim(kind="direction", published=True, tolerance={"word": "generally", "share": 0.667})
    assert judge(claim, Finding(0.7))["verdict"] == "partly"
    assert judge(claim, Finding(0.75))["verdict"] == "reproduced"
    most = _claim(kind="direction", published=True, tolerance={"word": "mostly", "share": 0.5})
    assert judge(most, Finding(0.5))["verdict"] == "partly" and judge(most, Finding(0.51))["verdict"] == "reproduced"


def test_an_erratum_within_the_stated_tolerance_is_not_an_erratum():
    claim = _claim(published=0.0, tolerance={"absolute": 0.1, "why": "rounding of the rows"})
    row = judge(claim, Finding(0.076, verdict="erratum"))
    assert row["verdict"] == "within tolerance" and row["severity"] == "" and row["finding"] == ""
    beyond = judge(claim, Finding(0.2, verdict="erratum", severity="misprint"))
    assert beyond["verdict"] == "erratum" and beyond["severity"] == "misprint" and beyond["finding"] == "x.demo"


def test_negative_rows_name_their_finding_and_errata_their_severity():
    claim = _claim(kind="count", published=3, finding="x.first", severity="unsupported inference")
    row = judge(claim, Finding(2, verdict="erratum", severity="misprint"))
    assert (row["finding"], row["severity"]) == ("x.first", "unsupported inference")  # the claim's own wins
    assert judge(_claim(kind="count", published=3), Finding(2))["finding"] == "x.demo"
    assert judge(_claim(kind="count", published=3), Finding(3))["finding"] == ""
    assert judge(_claim(kind="count", published=3), Finding(2, verdict="erratum"))["severity"] == "error of substance"
    with pytest.raises(ValueError, match="severity must be one of"):
        Finding(1, verdict="erratum", severity="typo")


def _rows(*rows):
    return pd.DataFrame([{**{c: "" for c in core.COLUMNS}, "entry": "claim", **row} for row in rows])


def test_findings_count_once_what_several_rows_explain():
    table = _rows({"id": "yang2017.misprint", "paper": "yang2017", "verdict": "erratum", "finding": "yang2017.misprint",
                   "severity": "misprint", "statement": "the claim"},
                  {"id": "yang2017_table3[a]", "paper": "yang2017", "entry": "table", "verdict": "erratum",
                   "finding": "yang2017.misprint", "severity": "misprint"},
                  {"id": "yang2017_table3[b]", "paper": "yang2017", "entry": "table", "verdict": "erratum",
                   "finding": "yang2017.misprint", "severity": "misprint"},
                  {"id": "yang2017.other", "paper": "yang2017", "verdict": "partly", "finding": "yang2017.other"},
                  {"id": "yang2017.fine", "paper": "yang2017", "verdict": "reproduced"},
                  {"id": "zaffalon2012.sign", "paper": "zaffalon2012", "verdict": "erratum",
                   "finding": "zaffalon2012.sign", "severity": "error of substance"},
                  {"id": "zaffalon2011.sign", "paper": "zaffalon2011", "verdict": "erratum",
                   "finding": "zaffalon2012.sign", "severity": "error of substance"},
                  {"id": "zaffalon2012.twin", "paper": "zaffalon2012", "verdict": "erratum", "finding": "zaffalon2012.twin",
                   "entry": "claim; reading: elsewhere"})
    found = core.findings(table).set_index("finding")
    assert list(found.index) == ["zaffalon2012.sign", "yang2017.misprint", "yang2017.other"]  # readings never count
    misprint = found.loc["yang2017.misprint"]
    assert (misprint["entries"], misprint["claims"], misprint["severity"]) == (3, "yang2017.misprint", "misprint")
    assert misprint["cells"] == "yang2017_table3[a]; yang2017_table3[b]"
    assert found.loc["zaffalon2012.sign", "papers"] == "zaffalon2012; zaffalon2011"
    grid = core.finding_counts(table)
    assert grid.loc["yang2017", "erratum"] == 1 and grid.loc["yang2017", "partly"] == 1
    assert grid.loc["zaffalon2011", "erratum"] == 1 and grid.loc["zaffalon2012", "erratum"] == 1
    assert grid.loc["all", "total"] == 3  # the shared finding counts once overall
    assert core.counts(table).loc["yang2017", "erratum"] == 3  # entries still count every row


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
        (("kind: count", "kind: direction\n  tolerance: {share: 0.9, word: most}"), "the verdict policy's, not the claim's"),
        (("kind: count", "kind: direction\n  tolerance: {word: hardly ever}"), "in no quantifier of the verdict policy"),
        (("part: IV", "part: IV\n  severity: typo"), "severity must be one of"),
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
    import credalbook.book.reference as reference

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
        with pytest.raises(KeyError, match="which no module of credalbook.book.ledger registers"):
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
    import credalbook.book.reference as reference

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
    from credalbook.book.ledger.report import chapter_slice

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
    import credalbook.book.reference as reference

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


def test_cells_name_their_finding_and_an_erratum_within_tolerance_is_void(tmp_path, monkeypatch):
    paper = tmp_path / "paper"
    paper.mkdir()
    (paper / "yang2017_demo.csv").write_text("row,value\na,0.54\nb,0.54\nc,3.43\nd,2.0\ne,1.0\nf,0.30\n")
    (paper / "yang2017_demo.yml").write_text(
        "paper: Yang, Destercke & Masson (2017), demo\ntable: Table III\npage: 1\ntolerance: 0.005\n"
        "cells:\n  - match: {row: [a, b]}\n    verdict: erratum\n    finding: yang2017.misprint\n"
        "    severity: misprint\n    why: prints 0.54 for 8/15\n"
        "  - match: {row: [c]}\n    verdict: erratum\n    why: above the bound\n"
        "  - match: {row: [d, e]}\n    why: one cause for two cells\n"
        "  - match: {row: [f]}\n    verdict: erratum\n    why: within tolerance, so no erratum\n")
    monkeypatch.setattr(core, "_data_dir", lambda: paper)
    import credalbook.book.reference as reference

    monkeypatch.setattr(reference, "paper_dir", lambda: paper)
    monkeypatch.setitem(core.TABLES, ("yang2017_demo", "book"), core.BookTable(
        "yang2017_demo", lambda: None, ("row",), {}, None, "book", "IV", "chapters/x"))
    book = pd.DataFrame({"row": list("abcdef"), "value": [8 / 15, 8 / 15, 2.7, 2.5, 1.5, 0.302]})
    rows = core.table_rows("yang2017_demo", book=book).set_index("id")
    cell = "yang2017_demo[row={}; value]".format
    assert rows.loc[cell("a"), ["verdict", "finding", "severity"]].tolist() == ["erratum", "yang2017.misprint", "misprint"]
    assert rows.loc[cell("c"), ["verdict", "finding", "severity"]].tolist() == [
        "erratum", "yang2017_demo#rule2", "error of substance"]
    assert rows.loc[cell("d"), "finding"] == rows.loc[cell("e"), "finding"] == "yang2017_demo#rule3"
    assert rows.loc[cell("f"), ["verdict", "finding", "severity"]].tolist() == ["within tolerance", "", ""]


def test_one_cause_in_several_tables_is_one_finding():
    table = _rows({"id": "t12[a]", "paper": "zaffalon2012", "entry": "table", "verdict": "not reproduced",
                   "finding": "t12#rule2", "detail": "CDT's leaf rule"},
                  {"id": "t13[a]", "paper": "zaffalon2012", "entry": "table", "verdict": "not reproduced",
                   "finding": "t13#rule5", "detail": "CDT's leaf rule"},
                  {"id": "t13[b]", "paper": "zaffalon2012", "entry": "table", "verdict": "not reproduced",
                   "finding": "t13#rule6", "detail": "another cause"},
                  {"id": "t13[c]", "paper": "zaffalon2012", "entry": "table", "verdict": "erratum",
                   "finding": "zaffalon2012.claim", "detail": "CDT's leaf rule"})
    assert core._one_finding_per_cause(table).tolist() == ["t12#rule2", "t12#rule2", "t13#rule6", "zaffalon2012.claim"]


def test_twin_records_rename_the_checks_named_and_drop_what_is_counted():
    records = [{"id": "p.a", "check": "p.a", "sections": ["§1"], "note": "n", "finding": "p.x", "severity": "misprint"},
               {"id": "p.b", "check": "p.b", "sections": ["§2"], "note": "m"}]
    twins = core.twin_records(records, ("p.a",), lambda name: name.replace("p.", "p.r."), section="read so",
                              reading="a reading", note=lambda name: f"as {name}")
    assert twins == [{"id": "p.r.a", "check": "p.r.a", "sections": ["§1", "read so"], "note": "as p.a",
                      "reading": "a reading"}]
    assert records[0]["finding"] == "p.x"  # the originals are untouched
