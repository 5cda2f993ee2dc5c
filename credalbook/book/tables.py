"""Tables for reading: a published table beside the book's, and the book's own tables.

:func:`comparison` lays out a published table in the paper's own layout — one row group per
dataset or model, the paper's columns — with three lines per group (the paper's numbers, the
book's, and book − paper), the book's cells coloured by the ledger's verdict and every
difference beyond its tolerance in bold with its explanation as a note below the table (or
"unexplained"). :func:`show` renders any of the book's own frames the same way: no index
column, integers as integers, fixed decimals per column, text wrapped, verdicts coloured. Both
return a :class:`Table`, which a notebook displays as HTML and whose ``frame`` holds the data.
Tables longer than ``collapse_after`` rows are folded under their summary line.
"""
from __future__ import annotations

import html
import math
import numbers
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["VERDICT_COLOURS", "Table", "Markup", "comparison", "show", "format_number", "readable_powers"]

#: Background colour of a cell by the ledger's verdict (light tints, readable in print and in grey).
VERDICT_COLOURS = {
    "reproduced": "#d9efd9",
    "within tolerance": "#eef6dc",
    "partly": "#fff1c2",
    "not reproduced": "#f8d4d2",
    "erratum": "#e4dbf3",
    "not checkable": "#ececec",
}

_MINUS = "\u2212"
_CELL = "padding:2px 6px;text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap"
_TEXT = "padding:2px 6px;text-align:left;white-space:normal;max-width:32em"
_HEAD = "padding:3px 6px;border-bottom:1px solid #888;text-align:{align};vertical-align:bottom;font-size:0.94em"


class Markup(str):
    """Text of a table cell that is already HTML (``Markup("c<sub>{h,b}</sub>(h)")``): :func:`show`
    inserts it as it is, where it escapes every other string."""

    __slots__ = ()


@dataclass
class Table:
    """A rendered table: ``frame`` is its data, ``html`` what a notebook and the book show."""

    frame: pd.DataFrame
    html: str
    summary: str = ""

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        return f"Table({len(self.frame)} rows: {self.summary})" if self.summary else f"Table({len(self.frame)} rows)"


def format_number(value, decimals: int | None = None, *, signed: bool = False) -> str:
    """``value`` as a reader expects it: integers with thousands separators, others with
    ``decimals`` decimals (3 by default), a true minus sign, ``""`` for a missing value.

    Never scientific notation: a magnitude below the last decimal prints as 0 at that precision.
    """
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if not isinstance(value, numbers.Number):
        raise TypeError(f"value must be a number, got {type(value).__name__}")
    if decimals is None and float(value).is_integer():
        decimals = 0
    decimals = 3 if decimals is None else decimals
    text = f"{abs(float(value)):,.{decimals}f}"
    if value == 0:
        return "0" if decimals == 0 or signed else text
    if float(text.replace(",", "")) == 0:
        return ("\u00b1" if signed else "") + text
    sign = _MINUS if value < 0 else ("+" if signed else "")
    return sign + text


_SCIENTIFIC = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)[eE]([-+]?\d+)(?![\w.])")
_SUPERSCRIPTS = str.maketrans("-0123456789", "\u207b\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")


def readable_powers(text: str) -> str:
    """Numbers in scientific notation inside ``text`` as a reader writes them:
    ``2.7e-13`` -> ``2.7 × 10⁻¹³``, ``1e-09`` -> ``10⁻⁹`` (text written by code never shows ``1e-05``)."""
    def power(match):
        mantissa, exponent = match.group(1), str(int(match.group(2))).translate(_SUPERSCRIPTS)
        return f"10{exponent}" if float(mantissa) == 1 else f"{mantissa} \u00d7 10{exponent}"

    return _SCIENTIFIC.sub(power, text)


def _as_printed(printed, fractions: bool) -> str:
    """The paper's number as it prints it: a transcribed fraction (0.333333333333) as 1/3."""
    if not fractions:
        return str(printed)
    from fractions import Fraction

    value = Fraction(str(printed)).limit_denominator(100)
    return str(value) if abs(float(value) - float(printed)) < 1e-9 else str(printed)


def _decimals_of(printed: str) -> int:
    text = str(printed).strip().lower().partition("e")[0]
    return len(text.partition(".")[2])


def _collapsible(summary: str, body: str, rows: int, collapse_after: int) -> str:
    head = f'<p style="margin:0.3em 0;font-size:0.92em">{html.escape(summary)}</p>' if summary else ""
    if rows <= collapse_after:
        return head + body
    return (f'{head}<details><summary style="cursor:pointer;font-size:0.92em">show the {rows:,} rows</summary>'
            f"{body}</details>")


def _table_html(head: str, body: str, notes: str = "") -> str:
    return (f'<div style="overflow-x:auto;max-width:100%"><table style="border-collapse:collapse;font-size:0.86em;'
            f'margin:0.4em 0"><thead>{head}</thead><tbody>{body}</tbody></table>{notes}</div>')


def _verdict_cell(verdict: str) -> str:
    colour = VERDICT_COLOURS.get(verdict, "transparent")
    return f'<td style="{_TEXT};background:{colour}">{html.escape(verdict)}</td>'


def _legend(verdicts) -> str:
    chips = "".join(f'<span style="background:{VERDICT_COLOURS[v]};padding:0 6px;margin-right:6px">{v}</span>'
                    for v in VERDICT_COLOURS if v in set(verdicts))
    return f'<p style="font-size:0.8em;margin:0.2em 0">{chips}</p>'


#: Notes printed in full under a comparison table in this process (one executed page), text -> (letter, summary).
_NOTES_SHOWN: dict[str, tuple[str, str]] = {}


def comparison(name: str, reading: str = "book", *, measures: list[str] | None = None, caption: str | None = None,
               collapse_after: int = 12, max_columns: int = 5) -> Table:
    """Published table ``name`` beside the book's, judged by the ledger, in the paper's layout.

    Each key (dataset, model, ...) is a group of three lines: the paper's printed numbers, the
    book's at the paper's decimals (coloured by verdict), and book − paper (bold beyond its
    tolerance, with a note letter pointing to the explanation below the table). ``measures``
    picks and orders the columns (default: the paper's). The summary line above the table counts
    the cells by verdict and names the largest difference; ``frame`` is
    :func:`credalbook.book.ledger.core.judged_cells`. Numbers are shown at the paper's printed
    decimals (cell by cell: a count among proportions stays a count), or at the source record's
    ``shown_decimals`` where the paper prints fractions; headers are the record's ``labels`` or the
    column names made readable (``determinacy_pct`` -> ``determinacy (%)``). A table of more than
    ``max_columns`` measures is cut into several, stacked, so that it fits the text column; a note
    already printed in full under an earlier table of the same page is referred to, not repeated.
    """
    if not (isinstance(max_columns, numbers.Integral) and max_columns >= 1):
        raise ValueError(f"max_columns must be a positive integer, got {max_columns!r}")
    from credalbook.book.ledger.core import TABLES, judged_cells
    from credalbook.book.reference import published, published_source

    cells = judged_cells(name, reading)
    keys = list(TABLES[(name, reading)].on)
    order = list(dict.fromkeys(cells["measure"]))
    if measures is not None:
        unknown = [m for m in measures if m not in order]
        if unknown:
            raise ValueError(f"measures {unknown} are not columns of published table {name!r}; its columns: {order}")
        order = list(measures)
        cells = cells[cells["measure"].isin(order)]
    source = published_source(name)
    decimals = {m: max(_decimals_of(p) for p in cells.loc[cells["measure"] == m, "printed"]) for m in order}
    fractions = "shown_decimals" in source  # the paper prints fractions, transcribed to many digits
    if fractions:
        decimals = dict.fromkeys(order, int(source["shown_decimals"]))
    labels = {**{c: c.replace("_pct", " (%)").replace("_", " ") for c in [*keys, *order]},
              **source.get("labels", {})}

    def places(cell, measure: str) -> tuple[int, int]:
        """Decimals of the book's number and of the difference: as the paper prints this cell (a count
        among proportions stays a count), one more for the difference unless both are integers."""
        shown = decimals[measure] if fractions else _decimals_of(cell["printed"])
        integral = shown == 0 and not pd.isna(cell["book"]) and float(cell["book"]).is_integer()
        return shown, shown + (0 if integral else 1)

    notes: dict[str, str] = {}

    def note_for(why: str) -> str:
        why = why or "unexplained"
        if why not in notes:
            notes[why] = chr(ord("a") + len(notes)) if len(notes) < 26 else str(len(notes) + 1)
        return notes[why]

    lookup = {(tuple(str(row[k]) for k in keys), row["measure"]): row for _, row in cells.iterrows()}
    groups = published(name)[keys].astype(str).apply(tuple, axis=1).drop_duplicates()
    def block(measures: list[str]) -> tuple[str, str]:
        """Head and body of the table of some of the measures (a wide table is cut into several)."""
        head = ("<tr>" + "".join(f'<th style="{_HEAD.format(align="left")}">{html.escape(labels[k])}</th>' for k in keys)
                + f'<th style="{_HEAD.format(align="left")}"></th>'
                + "".join(f'<th style="{_HEAD.format(align="right")}">{html.escape(labels[m])}</th>' for m in measures)
                + "</tr>")
        body = []
        for group in groups:
            present = [lookup.get((group, m)) for m in measures]
            if all(c is None for c in present):
                continue
            lines = {"paper": [], "book": [], "book \u2212 paper": []}
            for m, cell in zip(measures, present):
                if cell is None:
                    for line in lines.values():
                        line.append(f'<td style="{_CELL}"></td>')
                    continue
                lines["paper"].append(f'<td style="{_CELL}">{html.escape(_as_printed(cell["printed"], fractions))}</td>')
                colour = VERDICT_COLOURS[cell["verdict"]]
                shown, difference_places = places(cell, m)
                lines["book"].append(f'<td style="{_CELL};background:{colour}" title="{html.escape(cell["verdict"])}">'
                                     f'{format_number(cell["book"], shown)}</td>')
                beyond = cell["verdict"] in ("not reproduced", "erratum", "partly") or (
                    not np.isnan(cell["difference"]) and abs(cell["difference"]) > cell["tolerance"] + 1e-12)
                text = format_number(cell["difference"], difference_places, signed=True)
                if beyond and text:
                    text = f'<b>{text}</b><sup>{note_for(cell["why"])}</sup>'
                elif cell["verdict"] == "not checkable":
                    text = f'<sup>{note_for(cell["why"])}</sup>'
                lines["book \u2212 paper"].append(f'<td style="{_CELL};color:#555">{text}</td>')
            for index, (label, tds) in enumerate(lines.items()):
                border = "border-top:1px solid #ccc;" if index == 0 else ""
                key_cells = "".join(f'<td style="{_TEXT};{border}">{html.escape(v) if index == 0 else ""}</td>'
                                    for v in group)
                tds = [td.replace('<td style="', f'<td style="{border}', 1) for td in tds]
                body.append(f'<tr>{key_cells}<td style="{_TEXT};{border}color:#666;font-size:0.9em">{label}</td>'
                            f'{"".join(tds)}</tr>')
        return head, "".join(body)

    # at most ``max_columns`` measures side by side, so that the table fits the text column
    chunks = [order[i:i + max_columns] for i in range(0, len(order), max_columns)] or [order]
    blocks = [block(chunk) for chunk in chunks]
    counts = cells["verdict"].value_counts()
    counted = ", ".join(f"{counts[v]:,} {v}" for v in VERDICT_COLOURS if v in counts)
    largest = cells.loc[cells["difference"].abs().idxmax()] if cells["difference"].notna().any() else None
    summary = caption or f"{source['paper'].split('),')[0]}), {source['table']}"
    summary = f"{summary}: {len(groups):,} rows, {len(cells):,} cells — {counted}"
    if largest is not None:
        where = ", ".join(str(largest[k]) for k in keys)
        summary += (f"; largest |book − paper| {format_number(abs(largest['difference']), places(largest, largest['measure'])[1])}"
                    f" ({where}, {labels[largest['measure']]})")
    summary += "."
    note_html = ""
    if notes:
        items = []
        for why, letter in notes.items():
            earlier = _NOTES_SHOWN.get(why)
            if earlier is not None and earlier[1] != summary:  # said in full under an earlier table of this page
                items.append(f"<li><sup>{letter}</sup> As note {earlier[0]} under the table above "
                             f"({html.escape(earlier[1].split(':')[0])}).</li>")
            else:
                _NOTES_SHOWN.setdefault(why, (letter, summary))
                items.append(f"<li><sup>{letter}</sup> {html.escape(readable_powers(why))}</li>")
        note_html = f'<ul style="list-style:none;padding-left:0;font-size:0.82em;margin:0.2em 0">{"".join(items)}</ul>'
    tables_html = [_table_html(head, body) for head, body in blocks[:-1]]
    tables_html.append(_table_html(*blocks[-1], _legend(cells["verdict"]) + note_html))
    body_html = "".join(tables_html)
    return Table(cells.reset_index(drop=True), _collapsible(summary, body_html, len(groups), collapse_after), summary)


def _column_format(series: pd.Series, decimals: int | None):
    if pd.api.types.is_bool_dtype(series):
        return lambda v: format_number(v)
    if pd.api.types.is_numeric_dtype(series):
        values = series.dropna().astype(float)
        integral = len(values) > 0 and bool(np.all(np.isfinite(values)) and np.all(values == np.round(values)))
        places = 0 if integral and decimals is None else (3 if decimals is None else decimals)
        return lambda v: format_number(v, places)
    return lambda v: "" if v is None or (isinstance(v, float) and math.isnan(v)) else v if isinstance(v, Markup) else str(v)


def show(frame: pd.DataFrame, *, decimals: int | dict[str, int] | None = None, columns: dict[str, str] | None = None,
         summary: str = "", collapse_after: int = 15) -> Table:
    """One of the book's own tables, rendered for reading.

    The index becomes leading columns unless it is the default 0..n-1 range or unnamed integers (the
    row numbers of a filtered frame), a path in a text cell may break after a slash, integer-valued
    columns print as integers (thousands separated), other numbers with ``decimals`` decimals
    (an int, or a mapping per column; 3 by default), text wraps, a ``verdict`` column is
    coloured, ``columns`` renames for display. A table longer than ``collapse_after`` rows folds
    under ``summary``.
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    data = frame.copy()
    if not isinstance(data.index, pd.RangeIndex) or data.index.name is not None:
        # an unnamed integer index is the row numbers of a filtered frame, not a column a reader reads
        positional = data.index.nlevels == 1 and data.index.name is None and pd.api.types.is_integer_dtype(data.index)
        data = data.reset_index(drop=positional)
    if isinstance(data.columns, pd.MultiIndex):
        data.columns = [" ".join(str(p) for p in col if str(p)) for col in data.columns]
    data.columns = [str(c) for c in data.columns]
    if isinstance(decimals, dict):
        unknown = [c for c in decimals if c not in data.columns]
        if unknown:
            raise ValueError(f"decimals names columns {unknown} that the frame does not have")
    formats = {c: _column_format(data[c], decimals.get(c) if isinstance(decimals, dict) else decimals)
               for c in data.columns}
    numeric = {c for c in data.columns if pd.api.types.is_numeric_dtype(data[c]) and not pd.api.types.is_bool_dtype(data[c])}
    names = {c: (columns or {}).get(c, c) for c in data.columns}
    head = "<tr>" + "".join(f'<th style="{_HEAD.format(align="right" if c in numeric else "left")}">'
                            f"{html.escape(names[c])}</th>" for c in data.columns) + "</tr>"
    rows = []
    for _, row in data.iterrows():
        tds = []
        for c in data.columns:
            if c == "verdict":
                tds.append(_verdict_cell(str(row[c])))
            else:
                text = formats[c](row[c])
                # a path may break after its slashes, so that a column of file names does not widen the table
                text = text if isinstance(text, Markup) else html.escape(text).replace("/", "/<wbr>")
                tds.append(f'<td style="{_CELL if c in numeric else _TEXT}">{text}</td>')
        rows.append("<tr>" + "".join(tds) + "</tr>")
    legend = _legend(data["verdict"]) if "verdict" in data.columns else ""
    body = _table_html(head, "".join(rows), legend)
    return Table(data, _collapsible(summary, body, len(data), collapse_after), summary)
