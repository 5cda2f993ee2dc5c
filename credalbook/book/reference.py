"""Published numbers, and the "paper | book | difference" tables every chapter shows.

A published table is ``data/paper/{name}.csv`` (tidy: key columns, then one column per
measure, numbers as printed) with its source in ``data/paper/{name}.yml``::

    paper: "Zaffalon, Corani & Mauá (2012), Int. J. Approx. Reasoning 53"
    table: "Table 10"
    page: 1292
    tolerance: 0.005          # or a mapping measure -> tolerance
    note: "values printed with three decimals"

:func:`compare` aligns a book frame with it and adds the difference (book − paper) and a
verdict: ``agrees`` when ``|difference| <= tolerance``, ``differs`` otherwise, ``missing in
book`` or ``missing in paper`` when one side has no number.
"""
from __future__ import annotations

import copy
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

__all__ = ["VERDICTS", "paper_dir", "published_source", "published", "cite", "compare", "verdict_counts"]

#: The verdicts of a :func:`compare` cell: within its tolerance, beyond it, or missing on one side.
VERDICTS = ("agrees", "differs", "missing in book", "missing in paper")


def paper_dir() -> Path:
    from credalbook.book.paths import repo_root

    return repo_root() / "data" / "paper"


def published_source(name: str) -> dict:
    """The source record (paper, table, page, tolerance, note) of published table ``name``."""
    path = paper_dir() / f"{name}.yml"
    if not path.is_file():
        raise FileNotFoundError(f"no source record {path} for published table {name!r}")
    record = copy.deepcopy(_read_record(str(path), path.stat().st_mtime_ns))
    for field in ("paper", "table", "page"):
        if field not in record:
            raise ValueError(f"source record of {name!r} lacks {field!r}")
    return record


@lru_cache(maxsize=128)
def _read_record(path: str, mtime_ns: int) -> dict:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(Path(path).read_text(encoding="utf-8"), Loader=loader) or {}


def published(name: str) -> pd.DataFrame:
    """Published table ``name`` as transcribed in ``data/paper/{name}.csv``."""
    path = paper_dir() / f"{name}.csv"
    if not path.is_file():
        known = sorted(p.stem for p in paper_dir().glob("*.csv"))
        raise FileNotFoundError(f"no published table {name!r} at {path}; known: {', '.join(known)}")
    return pd.read_csv(path, comment="#")


def cite(name: str) -> str:
    """One line naming the source of a published table, for a chapter's caption."""
    source = published_source(name)
    return f"{source['paper']}, {source['table']}, p. {source['page']}"


def _tolerance_for(measure: str, tolerance) -> float:
    if isinstance(tolerance, dict):
        if measure not in tolerance:
            raise ValueError(f"no tolerance given for measure {measure!r}")
        return float(tolerance[measure])
    return float(tolerance)


def compare(name: str, book: pd.DataFrame, *, on: list[str], values: list[str] | None = None,
            tolerance=None) -> pd.DataFrame:
    """Long table: ``on`` keys, measure, paper, book, difference (book − paper), tolerance, verdict.

    ``values`` defaults to the published table's non-key columns that the book frame also has;
    ``tolerance`` defaults to the source record's (a number or a mapping per measure).
    """
    paper = published(name)
    missing = [k for k in on if k not in paper.columns or k not in book.columns]
    if missing:
        raise ValueError(f"key columns {missing} missing from the published table {name!r} or the book frame")
    if values is None:
        values = [c for c in paper.columns if c not in on and c in book.columns]
    if not values:
        raise ValueError(f"no measure is shared by the published table {name!r} and the book frame")
    if tolerance is None:
        tolerance = published_source(name).get("tolerance", 0.0)
    long_paper = paper[on + [v for v in values if v in paper.columns]].melt(on, var_name="measure", value_name="paper")
    long_book = book[on + [v for v in values if v in book.columns]].melt(on, var_name="measure", value_name="book")
    for frame in (long_paper, long_book):
        for key in on:
            frame[key] = frame[key].astype(str)
    table = long_paper.merge(long_book, on=on + ["measure"], how="outer")
    # plain float64 (NaN for missing), also for nullable integer or object columns
    table["paper"] = pd.to_numeric(table["paper"], errors="coerce").astype(float)
    table["book"] = pd.to_numeric(table["book"], errors="coerce").astype(float)
    table["difference"] = table["book"] - table["paper"]
    table["tolerance"] = [_tolerance_for(m, tolerance) for m in table["measure"]]
    verdict = np.where(table["difference"].abs() <= table["tolerance"] + 1e-12, "agrees", "differs")
    verdict = np.where(table["book"].isna(), "missing in book", verdict)
    verdict = np.where(table["paper"].isna(), "missing in paper", verdict)
    table["verdict"] = verdict
    order = {k: i for i, k in enumerate(paper[on].astype(str).apply(tuple, axis=1))}
    table["_order"] = table[on].apply(tuple, axis=1).map(order).fillna(len(order))
    table["_measure"] = table["measure"].map({m: i for i, m in enumerate(values)})
    return table.sort_values(["_order", "_measure"]).drop(columns=["_order", "_measure"]).reset_index(drop=True)


def verdict_counts(table: pd.DataFrame) -> pd.Series:
    """How many cells of a :func:`compare` table agree, differ or are missing."""
    return table["verdict"].value_counts().reindex(VERDICTS, fill_value=0)
