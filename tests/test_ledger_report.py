"""Pages made from the ledger: errata grouped under their own paper, the intro's counts equal the ledger's."""
from __future__ import annotations

import importlib
import re

import pandas as pd

from credalbook.book import ledger
from credalbook.book.ledger import core
from credalbook.book.ledger import typeset
from credalbook.book.ledger.report import errata, part_counts, part_summary, report

report_module = importlib.import_module("credalbook.book.ledger.report")  # the package exports report(), the function


def _row(**values) -> dict:
    row = {c: "" for c in core.COLUMNS}
    row.update(difference=float("nan"), entry="claim")
    row.update(values)
    return row


SYNTHETIC = pd.DataFrame([
    _row(id="zaffalon2012.a", paper="zaffalon2012", part="II", verdict="erratum", statement="33 vs 23",
         section="§9.1.3", chapter="chapters/ncc/uci", detail="56 > 55 datasets"),
    _row(id="ferri2019.b", paper="ferri2019", part="VI", verdict="erratum", statement="spam example",
         section="Sect. 2"),
    _row(id="ferri2019.c", paper="ferri2019", part="VI", verdict="reproduced", statement="fine"),
    _row(id="ferri2019_table7[model=NB; AUC]", paper="ferri2019", part="VI", verdict="not reproduced",
         entry="table", statement="Table 7: model=NB, AUC"),
    _row(id="ferri2019_table7[model=NB; BS]", paper="ferri2019", part="VI", verdict="within tolerance",
         entry="reading: other", statement="Table 7: model=NB, BS"),
])


def _sections(text: str) -> dict[str, str]:
    """Heading -> body of each ``## `` section."""
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts), 2)}


def test_errata_are_grouped_under_their_own_paper():
    sections = _sections(errata(SYNTHETIC))
    assert list(sections) == [paper.cite for paper in ledger.PAPERS.values()]
    assert "33 vs 23" in sections["Zaffalon, Corani & Mauá (2012)"] and "spam" not in sections[
        "Zaffalon, Corani & Mauá (2012)"]
    assert "spam example" in sections["Ferri, Hernández-Orallo & Flach (2019)"]
    assert "ncc/uci.html#ledger-zaffalon2012-a" in sections["Zaffalon, Corani & Mauá (2012)"]
    assert sections["Yang, Destercke & Masson (2017)"].strip() == "No erratum found."


def test_part_counts_match_the_ledger_counts_and_skip_readings():
    by_part, by_paper = part_counts(SYNTHETIC), ledger.counts(SYNTHETIC)
    assert by_part.loc["all"].equals(by_paper.loc["all"])
    assert by_part.loc["VI", "erratum"] == 1 and by_part.loc["VI", "total"] == 3
    assert by_part.loc["all", "total"] == 4  # the alternative reading is not counted


def _html_counts(text: str) -> dict[str, dict[str, int]]:
    """The first HTML counts table of a page's markdown: row name -> column -> count."""
    from bs4 import BeautifulSoup

    table = BeautifulSoup(text, "html.parser").find("table")
    names = [th.get_text() for th in table.select("thead th")]
    return {cells[0]: dict(zip(names[1:], (int(c.replace(",", "")) for c in cells[1:])))
            for cells in ([td.get_text() for td in tr.select("td")] for tr in table.select("tbody tr"))}


def test_the_intro_summary_prints_the_ledger_counts_and_the_notable_claims():
    text = part_summary(SYNTHETIC)
    rows = _html_counts(text)
    assert rows["all"] == ledger.counts(SYNTHETIC).loc["all"].to_dict()
    assert rows["Part VI"]["erratum"] == 1 and rows["Part VI"]["total"] == 3
    assert "“33 vs 23”" in text and "“spam example”" in text and "fine" not in text
    assert "white-space:nowrap" in text and "overflow-x:auto" in text  # numbers never break; a phone scrolls the box


def test_the_report_lists_every_claim_and_counts_table_cells():
    text = report(SYNTHETIC)
    for statement in ("33 vs 23", "spam example", "fine"):
        assert statement in text
    assert "| Table 7 |" in text and "Table 7: model=NB" not in text
    assert "ncc/uci.html#ledger-zaffalon2012-a" in text  # each claim links to the place that checks it


def test_every_erratum_of_the_books_ledger_is_on_the_errata_page_under_its_paper():
    table = ledger.ledger()
    sections = _sections(errata(table))
    wrong = table[table["verdict"] == "erratum"]
    assert len(wrong) > 0
    for _, row in wrong.iterrows():
        body = sections[ledger.PAPERS[row["paper"]].cite]
        if row["entry"] == "claim":
            assert report_module._cell(row["statement"]) in body, row["id"]   # as the page writes ledger text
        else:  # a table's cell: under its finding, whose principal entry is on the page
            finding = row.get("finding") or row["id"]
            members = wrong[wrong.get("finding", wrong["id"]) == finding]
            principal = members[members["id"] == finding]
            principal = principal if len(principal) else members[members["entry"] == "claim"]
            shown = [report_module._cell(s) for s in principal["statement"]] + [typeset.plain(row["statement"])]
            assert any(text in body for text in shown), row["id"]


def test_ledger_text_is_typeset_as_mathematics_and_escaped_text():
    assert report_module._cell("-3·x^2/5 + 8·x/5") == "$- \\frac{3 x^{2}}{5} + \\frac{8 x}{5}$"  # sympy.latex
    assert report_module._cell("sigma^2·u''(mu)/2 + u(mu)") == "$\\sigma ^2\\cdot u''(\\mu )/2 + u(\\mu )$"
    assert report_module._cell("alphabet, Beta and mutual") == "alphabet, Beta and mutual"  # words, not names
    assert report_module._cell("u_{65} at 1e-05 of x") == "$u_{65}$ at 10⁻⁵ of x"
    assert report_module._cell("|d| < 1e-05") == "$\\vert d\\vert < 10^{-5}$"
    assert report_module._cell("q+_{i,j} = 2 * x, $0.07") == "$q+_{i,j} = 2 \\cdot x$, \\$0.07"  # a price's $ escaped
    assert "credalbook.book.ledger" not in report_module._cell("computed by credalbook.book.ledger.yang2017.f (stored)")


def test_every_page_link_of_the_ledger_names_an_existing_chapter():
    from credalbook.book.build import repo_root

    table = ledger.ledger()
    for chapter in sorted(set(table["chapter"]) - {""}):
        assert (repo_root() / f"{chapter}.md").is_file(), chapter
    link = report_module._link("chapters/ncc/uci", "zaffalon2012.a")
    assert link.startswith('<a href="ncc/uci.html#ledger-zaffalon2012-a">') and "<locals>" not in link


def test_claims_and_errata_follow_the_papers_numbering():
    keys = [report_module.section_key(s) for s in ("§1", "§2.1", "§9.1.3", "§9.2", "Sect. 10", "Table 7 (caption)")]
    assert keys == sorted(keys)
    assert report_module.section_key("§IV-C") < report_module.section_key("§VII-B")
    rows = pd.DataFrame([_row(id=f"p.{i}", paper="zaffalon2012", section=s, verdict="erratum", statement=s)
                         for i, s in enumerate(["Sect. 9", "Sect. 4; Eq. (1)", "§9.1.3", "Sect. 8.1"])])
    text = report_module.paper_errata("zaffalon2012", rows)
    order = [text.index(s) for s in ("Sect. 4", "Sect. 8.1", "Sect. 9", "§9.1.3")]
    assert order == sorted(order)


def test_the_checks_source_is_a_repository_link_not_a_function_path():
    from credalbook.book.build import repo_root

    table = ledger.ledger()
    wrong = table[table["verdict"] == "erratum"]
    for evidence in wrong["evidence"].unique():
        link = report_module.source_link(evidence)
        assert re.fullmatch(r"\[its check \([\w.]+\.py(, line \d+)?\)\]\(https://[^ )]+\)", link), link
        assert "<locals>" not in link and str(repo_root()) not in link
    text = errata(table)
    assert "Decided by `" not in text and "<locals>" not in text


def test_each_paper_opens_with_a_summary_made_from_its_rows():
    summary = report_module.paper_summary("ferri2019", SYNTHETIC)
    assert summary.startswith("Of its 2 claims in the ledger, 1 stands (reproduced or within tolerance) and 1 is errata.")
    table = ledger.ledger()
    for key in ledger.PAPERS:
        sentences = [s for s in re.split(r"(?<=[.)])\s+(?=[A-Z])", report_module.paper_summary(key, table)) if s]
        assert 1 <= len(sentences) <= 5, (key, sentences)
        claims = table[(table["paper"] == key) & (table["entry"] == "claim")]
        stand = int(claims["verdict"].isin(["reproduced", "within tolerance"]).sum())
        assert f"Of its {len(claims)} claims in the ledger, {stand} stand" in sentences[0]


def test_the_pages_give_every_paper_a_heading_of_its_own():
    from credalbook.book.build import repo_root

    for page in ("report", "errata"):
        headings = re.findall(r"^## (.+)$", (repo_root() / "chapters" / f"{page}.md").read_text(encoding="utf-8"),
                              flags=re.M)
        assert headings[-len(ledger.PAPERS):] == [p.cite[0].upper() + p.cite[1:] for p in ledger.PAPERS.values()]


def test_a_chapter_grid_lists_each_table_with_its_cells_by_verdict_in_one_cell():
    grid = report_module.table_summary(SYNTHETIC)
    text = report_module._grid_markdown(grid)
    header = [cell.strip() for cell in text.splitlines()[0].strip("|").split("|")]
    assert header == ["table", "numbers", "verdicts"]  # four columns at most: the grid fits the text column
    row = text.splitlines()[2]
    assert row.startswith("| Table 7 | 1 |") and "not reproduced</span>&nbsp;1" in row
    assert "reproduced</span>&nbsp;0" not in row  # a verdict no cell has is left out


def test_paper_lines_say_what_they_count_one_line_per_paper():
    rows = SYNTHETIC.assign(finding=["zaffalon2012.a", "ferri2019.b", "", "ferri2019_table7#rule1", ""],
                            severity=["misprint", "error of substance", "", "", ""])
    text = report_module.paper_lines(rows)
    lines = text.splitlines()
    assert lines == [
        "- **Zaffalon, Corani & Mauá (2012)**: 1 claim judged, 0% of them reproduced or within tolerance; "
        "1 finding, 1 of them an erratum.",
        "- **Ferri, Hernández-Orallo & Flach (2019)**: 2 claims and 1 printed number judged, 33% of them reproduced "
        "or within tolerance; 2 findings, 1 of them an erratum."]  # the reading of Table 7's BS is not counted
