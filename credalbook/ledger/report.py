"""Pages made from the ledger: the reproduction report, each chapter's slice, the errata.

Every function returns MyST markdown (the book renders executed markdown outputs as MyST, so
``{doc}`` links resolve); nothing here judges anything, it only lays out :func:`~credalbook.ledger.core.ledger` rows.
"""
from __future__ import annotations

import re

import pandas as pd

from credalbook.ledger.core import PAPERS, VERDICTS, counts, is_claim, is_reading, ledger
from credalbook.tables import readable_powers

__all__ = ["PARTS", "VERDICT_ORDER", "markdown_table", "part_counts", "part_summary", "table_summary", "report",
           "chapter_slice", "errata", "plot_verdicts"]

#: The Parts of the book by number, with their titles.
PARTS = {"I": "Utility-discounted accuracy", "II": "Naive Bayes vs the naive credal classifier",
         "III": "Comparing credal classifiers", "IV": "The costs of indeterminacy", "V": "The certainty ratio",
         "VI": "Decision thresholds under uncertain operating conditions",
         "VII": "One benchmark, every lens (the book's own results)", "A": "Appendix: the datasets"}

#: The verdicts from the most to the least urgent for a reader (the order of claims in the tables).
VERDICT_ORDER = ("erratum", "not reproduced", "partly", "not checkable", "within tolerance", "reproduced")

#: Claims tables longer than this fold their reproduced rows under a dropdown.
FOLD_AFTER = 8


_SUBSCRIPTS = str.maketrans("0123456789", "\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089")


_SUPERSCRIPTS = str.maketrans("0123456789-", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u207b")
#: Greek letters as sympy prints their names in the ledger's book values.
_GREEK = {"varepsilon": "ε", "epsilon": "ε", "sigma": "σ", "mu": "μ", "theta": "θ", "alpha": "α", "beta": "β",
          "gamma": "γ", "delta": "δ", "lambda": "λ", "pi": "π", "rho": "ρ", "tau": "τ"}
_GREEK_WORD = re.compile(r"(?<![A-Za-z])(" + "|".join(sorted(_GREEK, key=len, reverse=True)) + r")(?![A-Za-z])")


def _cell(value) -> str:
    """Ledger text for a page: one line, ``|`` escaped, ``u_{65}`` as u₆₅, ``x^2`` as x², ``sigma`` as σ,
    ``1e-05`` as 10⁻⁵."""
    text = "" if value is None or (isinstance(value, float) and pd.isna(value)) else str(value)
    text = re.sub(r"(?<=[A-Za-z])_\{?(\d+)\}?", lambda m: m.group(1).translate(_SUBSCRIPTS), text)
    text = re.sub(r"(?<=[\w)])\^\{?(-?\d+)\}?", lambda m: m.group(1).translate(_SUPERSCRIPTS), text)
    text = _GREEK_WORD.sub(lambda m: _GREEK[m.group(1)], text)
    text = re.sub(r"([*_`])", r"\\\1", text)  # Markdown emphasis marks are the ledger's letters, not emphasis
    return readable_powers(" ".join(text.replace("|", "\\|").split()))


def _link(chapter: str) -> str:
    return f"{{doc}}`/{chapter}`" if chapter else ""


def _verdict(verdict: str) -> str:
    """A verdict as a coloured label (inline HTML, the colours of :data:`credalbook.tables.VERDICT_COLOURS`)."""
    from credalbook.tables import VERDICT_COLOURS

    colour = VERDICT_COLOURS.get(verdict, "transparent")
    return f'<span style="background:{colour};padding:0 4px;border-radius:3px;white-space:nowrap">{verdict}</span>'


def _urgent_first(table: pd.DataFrame) -> pd.DataFrame:
    rank = {v: i for i, v in enumerate(VERDICT_ORDER)}
    return table.assign(_rank=table["verdict"].map(rank)).sort_values("_rank", kind="stable").drop(columns="_rank")


def markdown_table(table: pd.DataFrame, columns: dict[str, str] | None = None) -> str:
    """A MyST table of ledger rows; ``columns`` maps ledger columns to headers (verdicts coloured)."""
    columns = columns or {"statement": "the paper says", "published": "paper", "book": "book", "verdict": "verdict",
                          "chapter": "shown in"}
    lines = ["| " + " | ".join(columns.values()) + " |", "|" + "---|" * len(columns)]
    for _, row in table.iterrows():
        cells = [_link(row[c]) if c == "chapter" else _verdict(row[c]) if c == "verdict" else _cell(row[c])
                 for c in columns]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _claim_items(rows: pd.DataFrame, where: bool) -> list[str]:
    """One list item per claim: verdict, section, the paper's words, both values, and its page."""
    items = []
    for _, row in rows.iterrows():
        page = f" ({_link(row['chapter'])})" if where and row["chapter"] else ""
        values = f"paper: {_cell(row['published'])}; book: {_cell(row['book'])}"
        items.append(f"- {_verdict(row['verdict'])} **{_cell(row['section'])}** “{_cell(row['statement'])}” — "
                     f"{values}{page}")
    return items


def _claims_tables(rows: pd.DataFrame, where: bool = True) -> list[str]:
    """Claims as a list, the urgent ones first; when there are many, the reproduced ones fold under a dropdown."""
    rows = _urgent_first(rows)
    settled = rows["verdict"].isin(["reproduced", "within tolerance"])
    if len(rows) <= FOLD_AFTER or not settled.any() or settled.all():
        return [*_claim_items(rows, where), ""]
    parts = []
    if (~settled).any():
        parts += [*_claim_items(rows[~settled], where), ""]
    parts += [f":::{{dropdown}} The {int(settled.sum())} claims reproduced or within tolerance", "",
              *_claim_items(rows[settled], where), "", ":::", ""]
    return parts


def _short(key: str) -> str:
    """A paper's short name for a column header: "Zaffalon et al. 2012"."""
    cite = PAPERS[key].cite
    authors, _, year = cite.rpartition(" (")
    first = authors.split(",")[0].split(" & ")[0]
    many = "," in authors or "&" in authors
    return f"{first}{' et al.' if many else ''} {year.rstrip(')')}"


def _tally(rows: pd.DataFrame) -> str:
    counted = rows["verdict"].value_counts()
    return ", ".join(f"{counted[v]:,} {v}" for v in VERDICT_ORDER[::-1] if v in counted)


def _counts_markdown(grid: pd.DataFrame, label: str) -> str:
    """Counts with the verdicts as rows and the papers or Parts as columns (narrow enough for the column)."""
    def name(index) -> str:
        if index in PAPERS:
            return _short(index)
        if index in PARTS:
            return "Appendix" if index == "A" else f"Part {index}"
        return str(index)

    header = ["verdict", *(name(i) for i in grid.index)]
    lines = ["| " + " | ".join(header) + " |", "|---|" + "--:|" * len(grid.index)]
    for verdict in grid.columns:
        label_cell = _verdict(verdict) if verdict in VERDICTS else f"**{verdict}**"
        lines.append("| " + " | ".join([label_cell, *(f"{int(v):,}" for v in grid[verdict])]) + " |")
    return "\n".join(lines)


def part_counts(table: pd.DataFrame) -> pd.DataFrame:
    """Entries per Part (rows I..VI) and verdict (columns), with totals; alternative readings not counted."""
    counted = table[~is_reading(table["entry"])]
    grid = pd.crosstab(counted["part"], counted["verdict"]).reindex(columns=list(VERDICTS), fill_value=0)
    grid = grid.reindex([p for p in PARTS if p in grid.index] + sorted(set(grid.index) - set(PARTS)))
    grid["total"] = grid.sum(axis=1)
    grid.loc["all"] = grid.sum(axis=0)
    return grid.astype(int)


def part_summary(table: pd.DataFrame | None = None) -> str:
    """What the re-runs found, Part by Part: the counts, then each Part's errata and claims not
    reproduced or only partly, each Part folded under a dropdown that says how many there are."""
    table = ledger() if table is None else table
    parts = [_counts_markdown(part_counts(table), "Part"), ""]
    claims = table[table["entry"] == "claim"]
    for key, title in PARTS.items():
        rows = claims[claims["part"] == key]
        notable = rows[rows["verdict"].isin(["erratum", "not reproduced", "partly"])]
        if notable.empty:
            continue
        tally = ", ".join(f"{n} {'errata' if v == 'erratum' and n > 1 else v}" for v, n in
                          notable["verdict"].value_counts().reindex(VERDICT_ORDER).dropna().astype(int).items())
        name = title if key == "A" else f"Part {key}. {title}"
        parts += [f":::{{dropdown}} {name}: {tally}", ""]
        for _, row in _urgent_first(notable).iterrows():
            where = f" ({_link(row['chapter'])})" if row["chapter"] else ""
            parts.append(f"- {_verdict(row['verdict'])} {PAPERS[row['paper']].cite}, {_cell(row['section'])}: "
                         f"“{_cell(row['statement'])}”{where}")
        parts += ["", ":::", ""]
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
            parts += [f"**Claims** ({len(claim_rows)}: {_tally(claim_rows)})", ""]
            parts += _claims_tables(claim_rows, where=True)
        grid = table_summary(rows)
        if not grid.empty:
            chapters = rows[rows["entry"] == "table"].assign(name=lambda f: f["id"].str.partition("[")[0])
            where = chapters.groupby("name")["chapter"].first()
            grid.insert(0, "shown in", [_link(where[name]) for name in grid.index])
            parts += [f"**Published tables** ({int(grid['total'].sum())} printed numbers)", "",
                      _grid_markdown(grid), ""]
    return "\n".join(parts)


def _grid_markdown(grid: pd.DataFrame) -> str:
    """Published tables by verdict; a verdict no cell of these tables has is left out (the grid fits the column)."""
    grid = grid.loc[:, (grid != 0).any(axis=0) | (grid.columns == "total")]
    header = ["table", *grid.columns]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name, row in grid.iterrows():
        lines.append("| " + " | ".join([_table_label(name), *(str(v) for v in row)]) + " |")
    return "\n".join(lines)


def _table_label(name: str) -> str:
    """A published table as its paper names it (``Table 12``, from its source record), else its id."""
    from credalbook.reference import published_source

    try:
        return _cell(published_source(name)["table"])
    except (FileNotFoundError, KeyError):
        return f"`{name}`"


def chapter_slice(chapter: str, table: pd.DataFrame | None = None) -> str:
    """The ledger rows a chapter shows: its claims (alternative readings of claims named as such), and
    its tables' cells counted by verdict."""
    table = ledger(chapter=chapter) if table is None else table
    rows = table[table["chapter"] == chapter]
    if rows.empty:
        return "No entry of the ledger is decided on this page."
    parts = []
    claim_rows = rows[is_claim(rows["entry"])]
    cells = rows[rows["entry"] == "table"]
    summary = []
    if not claim_rows.empty:
        readings = sorted({e.partition("reading: ")[2] for e in claim_rows["entry"][is_reading(claim_rows["entry"])]})
        read_as = f" in the reading '{'; '.join(readings)}', reported beside the book's and not counted" if readings else ""
        summary.append(f"{len(claim_rows)} claims{read_as} ({_tally(claim_rows)})")
    if not cells.empty:
        summary.append(f"{len(cells):,} published numbers ({_tally(cells)})")
    parts += ["The ledger decides " + " and ".join(summary) + " on this page.", ""]
    if not claim_rows.empty:
        parts += _claims_tables(claim_rows, where=False)
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
                      f"{_cell(row['detail'])} Decided by `{row['evidence']}`{where}.", ""]
    return "\n".join(parts)


def plot_verdicts(table: pd.DataFrame | None = None, by: str = "paper", ax=None):
    """Horizontal bars: each paper's (``by="paper"``) or Part's (``by="part"``) counted entries,
    split by verdict in the colours of the tables; returns the axes."""
    import matplotlib.pyplot as plt
    import numpy as np

    from credalbook.style import COLUMN_WIDTH
    from credalbook.tables import VERDICT_COLOURS

    table = ledger() if table is None else table
    if by not in ("paper", "part"):
        raise ValueError(f"by must be 'paper' or 'part', got {by!r}")
    grid = (counts(table) if by == "paper" else part_counts(table)).drop(index="all", errors="ignore")
    grid = grid[[v for v in VERDICTS if v in grid.columns]]
    labels = [PAPERS[i].cite if i in PAPERS else "Appendix" if i == "A" else f"Part {i}" for i in grid.index]
    if ax is None:
        _, ax = plt.subplots(figsize=(COLUMN_WIDTH, 0.5 + 0.45 * len(grid)))
    shares = grid.div(grid.sum(axis=1), axis=0).to_numpy()
    left = np.zeros(len(grid))
    strong = {"reproduced": "#4c9a4c", "within tolerance": "#a6cf6b", "partly": "#e8c547",
              "not reproduced": "#d9534f", "erratum": "#8e6bbf", "not checkable": "#aaaaaa"}
    for j, verdict in enumerate(grid.columns):
        ax.barh(range(len(grid)), shares[:, j], left=left, color=strong.get(verdict, VERDICT_COLOURS[verdict]),
                label=verdict, edgecolor="white", linewidth=0.5)
        left += shares[:, j]
    for i, total in enumerate(grid.sum(axis=1)):
        ax.text(1.01, i, f"{int(total):,}", va="center", fontsize=10)
    ax.set_yticks(range(len(grid)), labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of the counted entries (number of entries at the right)")
    ax.grid(False)
    ax.legend(ncols=3, loc="upper center", bbox_to_anchor=(0.5, -0.35 if len(grid) < 5 else -0.2), fontsize=10)
    return ax
