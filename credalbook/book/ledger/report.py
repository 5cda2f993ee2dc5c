"""Pages made from the ledger: the reproduction report, each chapter's slice, the errata.

Every function returns MyST markdown (the book renders executed markdown outputs as MyST, so
``{doc}`` links resolve); nothing here judges anything, it only lays out :func:`~credalbook.book.ledger.core.ledger` rows.
"""
from __future__ import annotations

import html
import inspect
import posixpath
import re
from functools import lru_cache
from pathlib import Path

import pandas as pd

from credalbook.book.ledger.core import PAPERS, VERDICTS, counts, is_claim, is_reading, ledger
from credalbook.book.ledger.typeset import escape_text, plain, typeset

__all__ = ["PARTS", "VERDICT_ORDER", "FOLD_AFTER", "UNEXPLAINED", "markdown_table", "part_counts", "part_summary",
           "paper_lines", "table_summary",
           "paper_summary", "paper_findings", "paper_report", "LIST_ENTRIES", "report_counts", "report", "chapter_slice", "paper_errata", "errata",
           "plot_verdicts", "anchor", "source_link", "section_key"]

#: The Parts of the book by number, with their titles.
PARTS = {"I": "Utility-discounted accuracy", "II": "Naive Bayes vs the naive credal classifier",
         "III": "Comparing credal classifiers", "IV": "The costs of indeterminacy", "V": "The certainty ratio",
         "VI": "Decision thresholds under uncertain operating conditions",
         "VII": "One benchmark, every lens (the book's own results)", "A": "Appendix: the datasets"}

#: The verdicts from the most to the least urgent for a reader (the order of claims in the tables).
VERDICT_ORDER = ("erratum", "not reproduced", "partly", "not checkable", "within tolerance", "reproduced")

#: Claims tables longer than this fold their reproduced rows under a dropdown.
FOLD_AFTER = 8


def _cell(value, kind: str = "") -> str:
    """Ledger text for a page, typeset (``credalbook.book.ledger.typeset.typeset``): formulas as
    mathematics, words as text with Markdown's marks escaped, on one line; a function's path
    (``credalbook.book.ledger.x.f``) is the book's code, not a reader's word."""
    text = "" if value is None or (isinstance(value, float) and pd.isna(value)) else str(value)
    text = re.sub(r"`?credalbook(?:\.\w+)+(?:\(\))?`?", "the book's code", text)
    return typeset(text, kind)


def _short_quote(text: str, words: int = 14) -> str:
    """The first ``words`` words of a statement (with an ellipsis when cut), typeset."""
    parts = str(text).split()
    cut = " ".join(parts[:words]).rstrip(",;:.") + (" …" if len(parts) > words else "")
    return typeset(cut)


def anchor(entry_id: str) -> str:
    """The HTML id of a ledger entry on the page that shows it (``ledger-zaffalon2012-eq3``)."""
    return "ledger-" + re.sub(r"[^a-z0-9]+", "-", str(entry_id).lower()).strip("-")


@lru_cache(maxsize=256)
def _page_title(chapter: str) -> str:
    """The title of a chapter page (its first ``# `` heading), or its path when it has none."""
    from credalbook.book.build import repo_root

    path = repo_root() / f"{chapter}.md"
    try:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("# "):
                return line[2:].strip()
    except OSError:
        pass
    return chapter.rpartition("/")[2].replace("_", " ")


def _link(chapter: str, entry_id: str = "") -> str:
    """A link to the page that checks an entry, at the entry (pages of ``chapters/`` link relatively)."""
    if not chapter:
        return ""
    if not chapter.startswith("chapters/"):
        return f"{{doc}}`/{chapter}`"
    target = posixpath.relpath(chapter, "chapters") + ".html" + (f"#{anchor(entry_id)}" if entry_id else "")
    return f'<a href="{html.escape(target)}">{html.escape(_page_title(chapter))}</a>'


@lru_cache(maxsize=1)
def _repository() -> tuple[str, str]:
    """The repository's address and branch as the book's ``_config.yml`` names them."""
    import yaml

    from credalbook.book.build import repo_root

    try:
        config = yaml.safe_load((repo_root() / "_config.yml").read_text(encoding="utf-8")) or {}
    except OSError:
        config = {}
    repository = config.get("repository", {}) or {}
    return str(repository.get("url", "")).rstrip("/"), str(repository.get("branch", "main"))


@lru_cache(maxsize=1)
def _sources() -> dict[str, tuple[str, int]]:
    """Where each registered check and table builder is written: its evidence -> (file in the repository, line)."""
    from credalbook.book.build import repo_root
    from credalbook.book.ledger.core import CHECKS, TABLES, discover

    discover()
    root = repo_root().resolve()
    found = {}
    for item in [*CHECKS.values(), *TABLES.values()]:
        try:
            function = inspect.unwrap(item.function)
            path = Path(inspect.getsourcefile(function)).resolve().relative_to(root).as_posix()
            found[item.evidence] = (path, inspect.getsourcelines(function)[1])
        except (TypeError, OSError, ValueError):
            continue
    return found


def source_link(evidence: str) -> str:
    """Markdown link to the source of the check that decides an entry (file and line in the repository)."""
    place = _sources().get(str(evidence))
    if place is None:
        module = re.match(r"credalbook\.ledger\.\w+", str(evidence))
        if module is None:
            return ""
        place = (module.group(0).replace(".", "/") + ".py", 0)
    path, line = place
    url, branch = _repository()
    name = path.rpartition("/")[2]
    text = f"its check ({name}, line {line})" if line else f"its check ({name})"
    if not url:
        return text
    return f"[{text}]({url}/blob/{branch}/{path}" + (f"#L{line})" if line else ")")


_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9, "X": 10}
_SECTION = re.compile(r"(?:§\s*|Sect\.\s*|Section\s+)([IVX]+|\d+)((?:[.\-][0-9A-Za-z]+)*)")


def section_key(section: str) -> tuple[int, ...]:
    """Sort key of a ledger ``section`` in the paper's own numbering (``§9.1.3``, ``Sect. 5.2``,
    ``§IV-C``); a section the paper does not number (a table's caption) sorts last."""
    match = _SECTION.search(str(section))
    if match is None:
        return (1, 0, 0, 0, 0)
    head = int(match.group(1)) if match.group(1).isdigit() else _ROMAN.get(match.group(1), 0)
    rest = [int(p) if p.isdigit() else ord(p[0].lower()) - ord("a") + 1
            for p in re.split(r"[.\-]", match.group(2)) if p][:3]
    return (0, head, *rest, *([0] * (3 - len(rest))))


def _section_name(section: str, depth: int = 2) -> str:
    """The numbered section of a ledger ``section`` to ``depth`` levels (``§9.1.3`` -> ``§9.1``)."""
    match = _SECTION.search(str(section))
    if match is None:
        return str(section).split(";")[0].split(",")[0].strip()
    marker = match.group(0)[:match.start(1) - match.start(0)]
    levels = [p for p in re.split(r"([.\-])", match.group(2)) if p]
    return marker + match.group(1) + "".join(levels[:2 * (depth - 1)])


def _in_paper_order(rows: pd.DataFrame) -> pd.DataFrame:
    """Ledger rows in the order the paper numbers its sections (rows of one section as the claims file lists them)."""
    keys = rows["section"].map(section_key)
    order = sorted(range(len(rows)), key=lambda i: (keys.iloc[i], i))
    return rows.iloc[order]


def _verdict(verdict: str) -> str:
    """A verdict as a coloured label (inline HTML, the colours of :data:`credalbook.book.tables.VERDICT_COLOURS`)."""
    from credalbook.book.tables import VERDICT_COLOURS

    colour = VERDICT_COLOURS.get(verdict, "transparent")
    return f'<span style="background:{colour};padding:0 4px;border-radius:3px;white-space:nowrap">{verdict}</span>'


def _urgent_first(table: pd.DataFrame) -> pd.DataFrame:
    rank = {v: i for i, v in enumerate(VERDICT_ORDER)}
    return table.assign(_rank=table["verdict"].map(rank)).sort_values("_rank", kind="stable").drop(columns="_rank")


def markdown_table(table: pd.DataFrame, columns: dict[str, str] | None = None) -> str:
    """A MyST table of ledger rows; ``columns`` maps ledger columns to headers (verdicts coloured, values typeset)."""
    columns = columns or {"statement": "the paper says", "published": "paper", "book": "book", "verdict": "verdict",
                          "chapter": "shown in"}
    lines = ["| " + " | ".join(columns.values()) + " |", "|" + "---|" * len(columns)]
    for _, row in table.iterrows():
        cells = [_link(row[c]) if c == "chapter" else _verdict(row[c]) if c == "verdict"
                 else _cell(row[c], row.get("kind", "")) for c in columns]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _claim_items(rows: pd.DataFrame, where: bool) -> list[str]:
    """One list item per claim: verdict, section, the paper's words, both values, and the page that checks it
    (``where``) or an anchor for that page's links (not ``where``)."""
    items = []
    for _, row in rows.iterrows():
        page = f" ({_link(row['chapter'], row['id'])})" if where and row["chapter"] else ""
        target = "" if where else f'<span id="{anchor(row["id"])}"></span>'
        values = f"paper: {_cell(row['published'], row['kind'])}; book: {_cell(row['book'], row['kind'])}"
        items.append(f"- {target}{_verdict(row['verdict'])} **{_cell(row['section'])}** “{_cell(row['statement'])}” — "
                     f"{values}{page}")
    return items


def _claims_tables(rows: pd.DataFrame, where: bool = True) -> list[str]:
    """Claims as a list in the paper's order; the ones not settled first, and when there are many,
    the reproduced ones fold under a dropdown."""
    rows = _in_paper_order(rows)
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
    """A paper's short name for a column header: "Zaffalon et al. 2012" ("This book" for the book's own)."""
    if key == "credalbook":
        return "This book"
    cite = PAPERS[key].cite
    authors, _, year = cite.rpartition(" (")
    first = authors.split(",")[0].split(" & ")[0]
    many = "," in authors or "&" in authors
    return f"{first}{' et al.' if many else ''} {year.rstrip(')')}"


def _tally(rows: pd.DataFrame) -> str:
    counted = rows["verdict"].value_counts()
    return ", ".join(f"{counted[v]:,} {v}" for v in VERDICT_ORDER[::-1] if v in counted)


def _name(index) -> str:
    if index in PAPERS:
        return _short(index)
    if index in PARTS:
        return "Appendix" if index == "A" else f"Part {index}"
    return str(index)


def _counts_markdown(grid: pd.DataFrame, label: str) -> str:
    """Counts with the papers or Parts as rows and the verdicts as columns, as an HTML table: headers
    wrap between words and numbers never break, so it fits the text column at 1280 px and scrolls
    inside its own box, not the page, on a phone."""
    head = "padding:4px 5px;border-bottom:1px solid #888;vertical-align:bottom;overflow-wrap:normal;word-break:normal"
    cell = "padding:3px 5px;font-variant-numeric:tabular-nums"
    rows = ['<div style="overflow-x:auto;max-width:100%;margin:0.5em 0 1em">',
            '<table style="width:auto;border-collapse:collapse;font-size:0.92em">',
            "<thead><tr>" + f'<th style="{head};text-align:left">{html.escape(label)}</th>'
            + "".join(f'<th style="{head};text-align:right">{html.escape(str(c))}</th>' for c in grid.columns)
            + "</tr></thead><tbody>"]
    for index, values in grid.iterrows():
        name = "all" if index == "all" else _name(index)
        weight = ";font-weight:bold;border-top:1px solid #888" if index == "all" else ""
        rows.append(f'<tr><td style="{cell};text-align:left{weight}">{html.escape(name)}</td>'
                    + "".join(f'<td style="{cell};white-space:nowrap;text-align:right{weight}">{int(v):,}</td>'
                              for v in values)
                    + "</tr>")
    rows += ["</tbody></table>", "</div>"]
    return "\n".join(rows)


def part_counts(table: pd.DataFrame) -> pd.DataFrame:
    """Entries per Part (rows I..VI) and verdict (columns), with totals; alternative readings not counted."""
    counted = table[~is_reading(table["entry"])]
    grid = pd.crosstab(counted["part"], counted["verdict"]).reindex(columns=list(VERDICTS), fill_value=0)
    grid = grid.reindex([p for p in PARTS if p in grid.index] + sorted(set(grid.index) - set(PARTS)))
    grid["total"] = grid.sum(axis=1)
    grid.loc["all"] = grid.sum(axis=0)
    return grid.astype(int)


def paper_lines(table: pd.DataFrame | None = None) -> str:
    """One line per source paper for the landing page: the claims and the printed numbers of its tables the
    ledger judges, the share of both that is reproduced or within tolerance, and its findings (errata among
    them). Alternative readings are not counted; each count says what it counts."""
    from credalbook.book.ledger.core import finding_counts

    table = ledger() if table is None else table
    counted = table[~is_reading(table["entry"])]
    found = finding_counts(table) if _has_findings(table) and (counted["finding"].astype(str) != "").any() else None
    lines = []
    for key, paper in PAPERS.items():
        rows = counted[counted["paper"] == key]
        if rows.empty:
            continue
        claims, cells = int(is_claim(rows["entry"]).sum()), int((rows["entry"] == "table").sum())
        checkable = rows[rows["verdict"] != "not checkable"]
        held = checkable["verdict"].isin(["reproduced", "within tolerance"]).mean() if len(checkable) else float("nan")
        judged = _join([f"{claims:,} {'claim' if claims == 1 else 'claims'}"]
                       + ([f"{cells:,} printed {'number' if cells == 1 else 'numbers'}"] if cells else []))
        total = int(found.loc[key, "total"]) if found is not None and key in found.index else 0
        errata_found = int(found.loc[key, "erratum"]) if found is not None and key in found.index else 0
        findings_text = (f"{total} {'finding' if total == 1 else 'findings'}"
                         + (f", {errata_found} of them {'an erratum' if errata_found == 1 else 'errata'}"
                            if errata_found else "") if total else "no finding")
        lines.append(f"- **{paper.cite}**: {judged} judged, {held:.0%} of them reproduced or within "
                     f"tolerance; {findings_text}.")
    return "\n".join(lines)


def _has_findings(table: pd.DataFrame) -> bool:
    from credalbook.book.ledger import core

    return "finding" in table.columns and hasattr(core, "findings") and hasattr(core, "finding_counts")


def part_summary(table: pd.DataFrame | None = None) -> str:
    """What the re-runs found, Part by Part: the entries (claims and printed numbers) counted by
    verdict, then each Part's errata and claims not reproduced or only partly, each Part folded
    under a dropdown that says how many there are."""
    table = ledger() if table is None else table
    parts = ["Entries of the ledger (claims of the papers' text and printed numbers of their tables) by Part "
             "and verdict:", "", _counts_markdown(part_counts(table), "Part"), ""]
    claims = table[table["entry"] == "claim"]
    for key, title in PARTS.items():
        rows = claims[claims["part"] == key]
        notable = rows[rows["verdict"].isin(["erratum", "not reproduced", "partly"])]
        if notable.empty:
            continue
        tally = ", ".join(f"{n} {'errata' if v == 'erratum' and n > 1 else v}" for v, n in
                          notable["verdict"].value_counts().reindex(VERDICT_ORDER).dropna().astype(int).items())
        name = title if key == "A" else f"Part {key}. {title}"
        parts += [f":::{{dropdown}} {name}: {tally} (claims)", ""]
        for _, row in _urgent_first(notable).iterrows():
            where = f" ({_link(row['chapter'], row['id'])})" if row["chapter"] else ""
            parts.append(f"- {_verdict(row['verdict'])} {PAPERS[row['paper']].cite}, {_cell(row['section'])}: "
                         f"“{_cell(row['statement'])}”{where}")
        parts += ["", ":::", ""]
    return "\n".join(parts)


def _table_number(name: str) -> tuple[int, str]:
    label = _table_label(name)
    number = re.search(r"\d+", label)
    return (int(number.group(0)) if number else 10 ** 6, label)


def table_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per published table: its cells by verdict (rows: table name in the paper's numbering, columns: verdicts and total)."""
    cells = table[table["entry"] == "table"]
    if cells.empty:
        return pd.DataFrame(columns=[*VERDICTS, "total"], dtype=int)
    names = cells["id"].str.partition("[")[0]
    grid = pd.crosstab(names, cells["verdict"]).reindex(columns=list(VERDICTS), fill_value=0)
    grid["total"] = grid.sum(axis=1)
    return grid.loc[sorted(grid.index, key=_table_number)]


def _verdict_list(row: pd.Series) -> str:
    """A table's cells by verdict in one cell, a line each: ``[reproduced] 120<br>[not reproduced] 3``."""
    return "<br>".join(f"{_verdict(v)}&nbsp;{int(row[v]):,}" for v in VERDICT_ORDER[::-1] if v in row and row[v])


def _grid_markdown(grid: pd.DataFrame, where: pd.Series | None = None) -> str:
    """Published tables, one row each: the paper's name of the table, its printed numbers and how they
    fare by verdict (one wrapping cell, so that the table fits the text column); ``where`` adds the page."""
    header = ["table", *(["shown in"] if where is not None else []), "numbers", "verdicts"]
    lines = ["| " + " | ".join(header) + " |", "|---|" + ("---|" if where is not None else "") + "--:|---|"]
    for name, row in grid.iterrows():
        page = [_link(where[name])] if where is not None else []
        lines.append("| " + " | ".join([_table_label(name), *page, f"{int(row['total']):,}", _verdict_list(row)])
                     + " |")
    return "\n".join(lines)


def _table_label(name: str) -> str:
    """A published table as its paper names it (``Table 12``, from its source record), else its id."""
    from credalbook.book.reference import published_source

    try:
        return plain(published_source(name)["table"])
    except (FileNotFoundError, KeyError):
        return plain(name)


#: A table cell's explanation that says no cause was found begins like this.
UNEXPLAINED = r"(?i)(not explained|unexplained|not established)"


def _verb(count: int, verb: str) -> str:
    """``stand`` for many, ``stands`` for one (``are``/``is``, ``cannot`` alike)."""
    return verb if count != 1 else {"are": "is", "cannot": "cannot"}.get(verb, verb + "s")


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _sections_with(rows: pd.DataFrame, limit: int = 4) -> str:
    """The numbered sections of ``rows`` in the paper's order, with how many rows each has when more than one."""
    names = rows.assign(_key=rows["section"].map(section_key), _name=rows["section"].map(_section_name))
    grouped = names.groupby("_name", sort=False).agg(n=("id", "size"), key=("_key", "min")).sort_values("key")
    words = [typeset(f"{name}") + (f" ({n})" if n > 1 else "") for name, n in zip(grouped.index, grouped["n"])]
    return _join(words[:limit] + ([f"{len(words) - limit} more"] if len(words) > limit else []))


def paper_summary(key: str, table: pd.DataFrame | None = None) -> str:
    """Three to five sentences on a paper, made from its ledger rows: how many of its claims stand
    and fall, where its conclusions stand, which fall, its errata, and what stays unexplained."""
    table = ledger() if table is None else table
    rows = table[(table["paper"] == key) & ~is_reading(table["entry"])]
    claims, cells = rows[rows["entry"] == "claim"], rows[rows["entry"] == "table"]
    if rows.empty:
        return "The ledger holds no entry of this paper."
    stand = claims["verdict"].isin(["reproduced", "within tolerance"])
    counted = {v: int((claims["verdict"] == v).sum()) for v in VERDICTS}
    pieces = [f"{int(stand.sum())} {_verb(int(stand.sum()), 'stand')} (reproduced or within tolerance)"]
    for verdict, verb, rest in (("not reproduced", "fall", " (not reproduced)"), ("erratum", "are", " errata"),
                                ("partly", "hold", " only partly"), ("not checkable", "cannot", " be checked")):
        if counted[verdict]:
            pieces.append(f"{counted[verdict]} {_verb(counted[verdict], verb)}{rest}")
    sentences = [f"Of its {len(claims)} claims in the ledger, {_join(pieces)}."] if len(claims) else []
    conclusions = claims[claims["kind"].isin(["direction", "significance", "ranking", "count"])]
    failing = conclusions[~conclusions["verdict"].isin(["reproduced", "within tolerance"])]
    if len(conclusions):
        sentences.append(f"Its conclusions about results (directions, significance, rankings and counts) stand "
                         f"{len(conclusions) - len(failing)} times in {len(conclusions)}"
                         + (f"; those that do not are in {_sections_with(failing)}." if len(failing) else "."))
    falling = claims[claims["verdict"].isin(["not reproduced", "partly"])]
    if len(falling):
        first = _in_paper_order(falling).iloc[0]
        sentences.append(f"The first claim that does not stand, in the paper's order, is “{_short_quote(first['statement'])}” "
                         f"({typeset(first['section'])}).")
    wrong = rows[rows["verdict"] == "erratum"]
    if len(wrong):
        if _has_findings(table):
            from credalbook.book.ledger.core import findings

            found = findings(rows)
            distinct = int((found["verdict"] == "erratum").sum())
            what = f"{distinct} distinct errors ({len(wrong)} entries)"
        else:
            what = f"{len(wrong)} entries"
        sentences.append(f"Its errata, {what}, are in {_sections_with(wrong)}.")
    if len(cells):
        fine = cells["verdict"].isin(["reproduced", "within tolerance"])
        differing = cells[cells["verdict"] == "not reproduced"]
        unexplained = differing[differing["detail"].astype(str).str.strip().str.match(UNEXPLAINED) |
                                (differing["detail"].astype(str).str.strip() == "")]
        text = (f"Of its {len(cells):,} printed numbers, {fine.mean():.0%} are reproduced or within tolerance; ")
        if unexplained.empty:
            text += ("every one that differs beyond tolerance has a measured explanation"
                     if len(differing) else "none differs beyond tolerance") + "."
        else:
            tables = sorted(unexplained["id"].str.partition("[")[0].unique(), key=_table_number)
            explained = len(differing) - len(unexplained)
            text += (f"{explained:,} differ beyond tolerance with a measured cause, and " if explained else "")
            text += (f"{len(unexplained):,} {'with' if explained else 'differ beyond tolerance with'} no cause found "
                     f"(in {_join([re.split(r' [(]|, ', _table_label(t))[0] for t in tables])}).")
        sentences.append(text.replace("%", " %"))
    return " ".join(sentences[:5])


#: Entries listed under a finding before the rest are counted.
LIST_ENTRIES = 8


def paper_findings(key: str, table: pd.DataFrame | None = None) -> str:
    """One paper's findings (each distinct error or failed claim once, see
    :func:`credalbook.book.ledger.core.findings`), in the paper's order, each with the entries (claims and
    table cells) it explains listed beneath; folded under a dropdown. ``""`` when the ledger has no findings."""
    table = ledger() if table is None else table
    if not _has_findings(table):
        return ""
    from credalbook.book.ledger.core import findings

    rows = table[(table["paper"] == key) & ~is_reading(table["entry"])]
    rows = rows[rows["finding"].astype(str) != ""]
    found = findings(rows)
    if found.empty:
        return ""
    members = {name: group for name, group in rows.groupby(rows["finding"].astype(str), sort=False)}

    def principal(name):
        group = members[name]
        own = group[group["id"] == name]
        claimed = group[is_claim(group["entry"])]
        return (own if len(own) else claimed if len(claimed) else group).iloc[0]

    ordered = sorted(found["finding"], key=lambda name: (section_key(principal(name)["section"]),
                                                        list(found["finding"]).index(name)))
    verdicts = found.set_index("finding")
    tally = ", ".join(f"{n} {v}" for v, n in found["verdict"].value_counts().items())
    lines = [f":::{{dropdown}} Its {len(found)} findings ({tally}), each with the entries it explains", ""]
    for name in ordered:
        head = principal(name)
        group = members[name]
        verdict = verdicts.loc[name, "verdict"]
        severity = verdicts.loc[name, "severity"] if "severity" in verdicts.columns else ""
        kind = f" ({severity})" if isinstance(severity, str) and severity else ""
        said = plain(head["statement"]) if head["entry"] == "table" else _short_quote(head["statement"], 24)
        lines.append(f"- {_verdict(verdict)}{kind} **{_cell(head['section'])}** “{said}” — "
                     f"{len(group)} {'entry' if len(group) == 1 else 'entries'}")
        if len(group) > 1:
            for _, row in group.head(LIST_ENTRIES).iterrows():
                words = (plain(row["statement"]) if row["entry"] == "table"   # "Table 7: model=NB, AUC"
                         else _short_quote(row["statement"], 16))
                lines.append(f"  - {_verdict(row['verdict'])} {words}")
            if len(group) > LIST_ENTRIES:
                lines.append(f"  - and {len(group) - LIST_ENTRIES} more")
    return "\n".join([*lines, "", ":::", ""])


def paper_report(key: str, table: pd.DataFrame | None = None) -> str:
    """One paper's part of the reproduction report (no heading: the page gives it): its reference,
    the summary of :func:`paper_summary`, its claims in the paper's order, its published tables."""
    table = ledger() if table is None else table
    rows = table[table["paper"] == key]
    if rows.empty:
        return "The ledger holds no entry of this paper."
    parts = [f"*{escape_text(PAPERS[key].reference)}.*", "", paper_summary(key, table), ""]
    claim_rows = rows[rows["entry"] == "claim"]
    if not claim_rows.empty:
        parts += [f"**Claims** ({len(claim_rows)}: {_tally(claim_rows)}), in the paper's order:", ""]
        parts += _claims_tables(claim_rows, where=True)
    listed = paper_findings(key, table)
    if listed:
        parts += ["**Findings**: what the counts above count once, however many entries repeat it.", "", listed]
    grid = table_summary(rows)
    if not grid.empty:
        chapters = rows[rows["entry"] == "table"].assign(name=lambda f: f["id"].str.partition("[")[0])
        where = chapters.groupby("name")["chapter"].first()
        parts += [f"**Published tables** ({int(grid['total'].sum()):,} printed numbers), in the paper's order:", "",
                  _grid_markdown(grid, where), ""]
    return "\n".join(parts)


def report_counts(table: pd.DataFrame | None = None) -> str:
    """The report's counts: entries per paper and verdict, and, where the ledger groups its rows into
    findings, the findings per paper (one distinct error or failed claim counted once, its cells beneath)."""
    from credalbook.book.build import repo_root

    table = ledger() if table is None else table
    parts = ["Entries (claims and printed numbers) by paper and verdict:", "",
             _counts_markdown(counts(table), "paper"), ""]
    if _has_findings(table):
        from credalbook.book.ledger.core import finding_counts

        parts += ["Findings by paper: each distinct error or failed claim counts once, however many cells and "
                  "statements repeat it (they are listed under it below):", "",
                  _counts_markdown(finding_counts(table), "paper"), ""]
    if (repo_root() / "chapters" / "verdicts.md").is_file():
        parts += ["{doc}`/chapters/verdicts` says how each verdict is decided.", ""]
    return "\n".join(parts)


def report(table: pd.DataFrame | None = None) -> str:
    """The reproduction report: counts per paper and verdict, then each paper under its heading
    (:func:`paper_report`)."""
    table = ledger() if table is None else table
    parts = [report_counts(table), ""]
    for key, paper in PAPERS.items():
        if (table["paper"] == key).any():
            parts += [f"## {paper.cite}", "", paper_report(key, table), ""]
    return "\n".join(parts)


def chapter_slice(chapter: str, table: pd.DataFrame | None = None) -> str:
    """The ledger rows a chapter shows: its claims (alternative readings of claims named as such), each
    with the anchor the report links to, and its tables' cells counted by verdict."""
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


def _erratum_items(rows: pd.DataFrame) -> list[str]:
    """The errata of one paper in its order, numbered, each with what decides it and the page that derives it."""
    parts = []
    rows = _in_paper_order(rows)
    grouped = rows["finding"].astype(str) if "finding" in rows.columns else rows["id"]
    grouped = grouped.where(grouped != "", rows["id"])
    for number, finding in enumerate(dict.fromkeys(grouped), start=1):
        members = rows[grouped == finding]
        row = members[members["id"] == finding].iloc[0] if (members["id"] == finding).any() else members.iloc[0]
        where = f" ({_link(row['chapter'], row['id'])})" if row["chapter"] else ""
        decided = source_link(row["evidence"])
        detail = _cell(row["detail"])
        detail = detail + "." if detail and not detail.rstrip("*_$)").endswith((".", "!", "?")) else detail
        parts += [f"{number}. {_verdict('erratum')} **{_cell(row['section'])}** — {_cell(row['statement'])}", "",
                  f"   *Printed:* {_cell(row['published'], row['kind'])}. *Book:* {_cell(row['book'], row['kind'])}. "
                  f"{detail + ' ' if detail else ''}Decided by {decided}{where}.", ""]
        others = members[members["id"] != row["id"]]
        if len(others):
            listed = "; ".join(plain(r["statement"]) if r["entry"] == "table" else _cell(r["statement"])
                               for _, r in others.head(12).iterrows())
            more = f" and {len(others) - 12} more" if len(others) > 12 else ""
            parts += [f"   The same error in {len(others)} more entries: {listed}{more}.", ""]
    return parts


def paper_errata(key: str, table: pd.DataFrame | None = None) -> str:
    """One paper's errata (no heading: the page gives it), in the paper's order, one item per finding."""
    table = ledger() if table is None else table
    rows = table[(table["verdict"] == "erratum") & (table["paper"] == key) & ~is_reading(table["entry"])]
    if rows.empty:
        return "No erratum found."
    return "\n".join(_erratum_items(rows))


def errata(table: pd.DataFrame | None = None) -> str:
    """The errata page's body: every ``erratum`` entry grouped under its own paper, with what decides it."""
    table = ledger() if table is None else table
    parts = []
    for key, paper in PAPERS.items():
        parts += [f"## {paper.cite}", "", paper_errata(key, table), ""]
    return "\n".join(parts)


def plot_verdicts(table: pd.DataFrame | None = None, by: str = "paper", ax=None):
    """Horizontal bars: each paper's (``by="paper"``) or Part's (``by="part"``) counted entries,
    split by verdict in the colours of the tables; returns the axes."""
    import matplotlib.pyplot as plt
    import numpy as np

    from credalbook.style import COLUMN_WIDTH
    from credalbook.book.tables import VERDICT_COLOURS

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
