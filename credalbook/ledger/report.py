"""Pages made from the ledger: the reproduction report, each chapter's slice, the errata.

Every function returns MyST markdown (the book renders executed markdown outputs as MyST, so
``{doc}`` links resolve); nothing here judges anything, it only lays out :func:`~credalbook.ledger.core.ledger` rows.
"""
from __future__ import annotations

import pandas as pd

from credalbook.ledger.core import PAPERS, VERDICTS, counts, ledger

__all__ = ["PARTS", "markdown_table", "part_counts", "part_summary", "table_summary", "report",
           "chapter_slice", "errata"]

#: The Parts of the book by number, with their titles.
PARTS = {"I": "Utility-discounted accuracy", "II": "Naive Bayes vs the naive credal classifier",
         "III": "Comparing credal classifiers", "IV": "The costs of indeterminacy", "V": "The certainty ratio",
         "VI": "Decision thresholds under uncertain operating conditions"}


def _cell(value) -> str:
    text = "" if value is None or (isinstance(value, float) and pd.isna(value)) else str(value)
    return " ".join(text.replace("|", "\\|").split())


def _link(chapter: str) -> str:
    return f"{{doc}}`/{chapter}`" if chapter else ""


def markdown_table(table: pd.DataFrame, columns: dict[str, str] | None = None) -> str:
    """A MyST table of ledger rows; ``columns`` maps ledger columns to headers."""
    columns = columns or {"statement": "the paper says", "published": "paper", "book": "book", "verdict": "verdict",
                          "chapter": "shown in"}
    lines = ["| " + " | ".join(columns.values()) + " |", "|" + "---|" * len(columns)]
    for _, row in table.iterrows():
        cells = [_link(row[c]) if c == "chapter" else _cell(row[c]) for c in columns]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _counts_markdown(grid: pd.DataFrame, label: str) -> str:
    header = [label, *grid.columns]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for index, row in grid.iterrows():
        name = (PAPERS[index].cite if index in PAPERS else f"Part {index}. {PARTS[index]}" if index in PARTS
                else str(index))
        lines.append("| " + " | ".join([name, *(str(int(v)) for v in row)]) + " |")
    return "\n".join(lines)


def part_counts(table: pd.DataFrame) -> pd.DataFrame:
    """Entries per Part (rows I..VI) and verdict (columns), with totals; alternative readings not counted."""
    counted = table[~table["entry"].str.startswith("reading")]
    grid = pd.crosstab(counted["part"], counted["verdict"]).reindex(columns=list(VERDICTS), fill_value=0)
    grid = grid.reindex([p for p in PARTS if p in grid.index] + sorted(set(grid.index) - set(PARTS)))
    grid["total"] = grid.sum(axis=1)
    grid.loc["all"] = grid.sum(axis=0)
    return grid.astype(int)


def part_summary(table: pd.DataFrame | None = None) -> str:
    """What the re-runs found, Part by Part: the counts, then each Part's errata and claims not reproduced."""
    table = ledger() if table is None else table
    parts = [_counts_markdown(part_counts(table), "Part"), ""]
    claims = table[table["entry"] == "claim"]
    for key, title in PARTS.items():
        rows = claims[claims["part"] == key]
        notable = rows[rows["verdict"].isin(["erratum", "not reproduced", "partly"])]
        if notable.empty:
            continue
        parts += [f"**Part {key}. {title}.** Claims that are errata, not reproduced or only partly:", ""]
        for _, row in notable.iterrows():
            where = f" ({_link(row['chapter'])})" if row["chapter"] else ""
            parts.append(f"- *{_cell(row['verdict'])}* — {PAPERS[row['paper']].cite}, {_cell(row['section'])}: "
                         f"“{_cell(row['statement'])}”{where}")
        parts.append("")
    return "\n".join(parts)


def table_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per published table: its cells by verdict (rows: table name, columns: verdicts and total)."""
    cells = table[table["entry"] == "table"]
    if cells.empty:
        return pd.DataFrame(columns=[*VERDICTS, "total"], dtype=int)
    names = cells["id"].str.partition("[")[0]
    grid = pd.crosstab(names, cells["verdict"]).reindex(columns=list(VERDICTS), fill_value=0)
    grid["total"] = grid.sum(axis=1)
    return grid


def report(table: pd.DataFrame | None = None) -> str:
    """The reproduction report: counts per paper and verdict, then every claim, then every table's cells by verdict."""
    table = ledger() if table is None else table
    parts = [_counts_markdown(counts(table), "paper"), ""]
    for key, paper in PAPERS.items():
        rows = table[table["paper"] == key]
        if rows.empty:
            continue
        parts += [f"## {paper.cite}", "", paper.reference + ".", ""]
        claim_rows = rows[rows["entry"] == "claim"]
        if not claim_rows.empty:
            parts += [f"**Claims** ({len(claim_rows)})", "", markdown_table(claim_rows), ""]
        grid = table_summary(rows)
        if not grid.empty:
            chapters = rows[rows["entry"] == "table"].assign(name=lambda f: f["id"].str.partition("[")[0])
            where = chapters.groupby("name")["chapter"].first()
            grid.insert(0, "shown in", [_link(where[name]) for name in grid.index])
            parts += [f"**Published tables** ({int(grid['total'].sum())} printed numbers)", "",
                      _grid_markdown(grid), ""]
    return "\n".join(parts)


def _grid_markdown(grid: pd.DataFrame) -> str:
    header = ["table", *grid.columns]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name, row in grid.iterrows():
        lines.append("| " + " | ".join([f"`{name}`", *(str(v) for v in row)]) + " |")
    return "\n".join(lines)


def chapter_slice(chapter: str, table: pd.DataFrame | None = None) -> str:
    """The ledger rows a chapter shows: its claims, and its tables' cells counted by verdict."""
    table = ledger(chapter=chapter) if table is None else table
    rows = table[table["chapter"] == chapter]
    if rows.empty:
        return "No entry of the ledger is decided on this page."
    parts = []
    claim_rows = rows[rows["entry"] == "claim"]
    if not claim_rows.empty:
        parts += [markdown_table(claim_rows, {"statement": "the paper says", "section": "where", "published": "paper",
                                              "book": "book", "verdict": "verdict"}), ""]
    grid = table_summary(rows)
    if not grid.empty:
        parts += [_grid_markdown(grid), ""]
    return "\n".join(parts)


def errata(table: pd.DataFrame | None = None) -> str:
    """The errata page's body: every ``erratum`` entry grouped under its own paper, with what decides it."""
    table = ledger() if table is None else table
    wrong = table[table["verdict"] == "erratum"]
    parts = []
    for key, paper in PAPERS.items():
        rows = wrong[wrong["paper"] == key]
        parts += [f"## {paper.cite}", ""]
        if rows.empty:
            parts += ["No erratum found.", ""]
            continue
        for number, (_, row) in enumerate(rows.iterrows(), start=1):
            where = f" ({_link(row['chapter'])})" if row["chapter"] else ""
            parts += [f"{number}. **{_cell(row['section'])}** — {_cell(row['statement'])}",
                      f"   *Printed:* {_cell(row['published'])}. *Book:* {_cell(row['book'])}. "
                      f"{_cell(row['detail'])} Decided by `{_cell(row['evidence'])}`{where}.", ""]
    return "\n".join(parts)
