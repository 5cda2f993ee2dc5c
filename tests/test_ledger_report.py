"""Pages made from the ledger: errata grouped under their own paper, the intro's counts equal the ledger's."""
from __future__ import annotations

import importlib
import re

import pandas as pd

from credalbook import ledger
from credalbook.ledger import core
from credalbook.ledger.report import errata, part_counts, part_summary, report

report_module = importlib.import_module("credalbook.ledger.report")  # the package exports report(), the function


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
    assert "{doc}`/chapters/ncc/uci`" in sections["Zaffalon, Corani & Mauá (2012)"]
    assert sections["Yang, Destercke & Masson (2017)"].strip() == "No erratum found."


def test_part_counts_match_the_ledger_counts_and_skip_readings():
    by_part, by_paper = part_counts(SYNTHETIC), ledger.counts(SYNTHETIC)
    assert by_part.loc["all"].equals(by_paper.loc["all"])
    assert by_part.loc["VI", "erratum"] == 1 and by_part.loc["VI", "total"] == 3
    assert by_part.loc["all", "total"] == 4  # the alternative reading is not counted


def test_the_intro_summary_prints_the_ledger_counts_and_the_notable_claims():
    text = part_summary(SYNTHETIC)
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("| verdict |"))
    column = [c.strip() for c in header.strip("|").split("|")].index("all")
    by_verdict = {}
    for line in lines[lines.index(header) + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        by_verdict[re.sub(r"<.*?>|\*", "", cells[0])] = int(cells[column].replace(",", ""))
    assert by_verdict == ledger.counts(SYNTHETIC).loc["all"].to_dict()
    assert "“33 vs 23”" in text and "“spam example”" in text and "fine" not in text


def test_the_report_lists_every_claim_and_counts_table_cells():
    text = report(SYNTHETIC)
    for statement in ("33 vs 23", "spam example", "fine"):
        assert statement in text
    assert "| Table 7 |" in text and "Table 7: model=NB" not in text


def test_every_erratum_of_the_books_ledger_is_on_the_errata_page_under_its_paper():
    table = ledger.ledger()
    sections = _sections(errata(table))
    wrong = table[table["verdict"] == "erratum"]
    assert len(wrong) > 0
    for _, row in wrong.iterrows():
        body = sections[ledger.PAPERS[row["paper"]].cite]
        assert report_module._cell(row["statement"]) in body, row["id"]   # as the page writes ledger text


def test_ledger_text_reads_as_a_reader_writes_it():
    assert report_module._cell("-3·x^2/5 + 8·x/5") == "-3·x²/5 + 8·x/5"
    assert report_module._cell("sigma^2·u''(mu)/2 + u(mu)") == "σ²·u''(μ)/2 + u(μ)"
    assert report_module._cell("varepsilon") == "ε"
    assert report_module._cell("u_{65} at 1e-05 | x") == "u₆₅ at 10⁻⁵ \\| x"
    assert report_module._cell("alphabet, Beta and mutual") == "alphabet, Beta and mutual"  # words, not names
    assert report_module._cell("q+_{i,j} = q_{i,j} * 2") == "q+\\_{i,j} = q\\_{i,j} \\* 2"  # not emphasis


def test_a_chapter_grid_shows_only_the_verdicts_its_tables_have():
    grid = report_module.table_summary(SYNTHETIC)
    text = report_module._grid_markdown(grid)
    header = [cell.strip() for cell in text.splitlines()[0].strip("|").split("|")]
    assert header == ["table", *[v for v in grid.columns if v == "total" or grid[v].sum() > 0]]
    assert "| Table 7 |" in text  # tables by the names their papers give them
    assert len(header) < len(grid.columns) + 1  # the synthetic ledger has verdicts no table cell has
