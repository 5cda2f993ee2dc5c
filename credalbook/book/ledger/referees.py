"""The second, independent reading of every negative ledger entry, and how each disagreement was resolved.

Every entry whose verdict is negative (an erratum, not reproduced, partly) was read a second time
by a referee who saw the paper and the entry only (its statement, the published value, the book's
measured value and verdict), never the book's reasoning: ``data/paper/referees/<paper>*.yml``,
written by the referee and kept as written. Each reading says ``agree``, ``disagree`` or
``unsure``, the referee's own verdict (and an erratum's severity), the entries that are the same
finding, and the reasons; an ``audit`` list holds the inconsistencies of the paper the referee
found that the ledger did not hold, each now held by the entry it names (``entry:``, a claim whose check
computes the inconsistency; :func:`unheld_audit_items`). ``data/paper/referees/resolutions.yml`` records how every
disagreement and every unsure reading was resolved: ``adopted`` (the ledger now gives the
referee's verdict), ``rejudged`` (the written policy, applied to the entry, gives a verdict that
is neither the book's first one nor the referee's), ``kept`` (the book's verdict stands, with the
reason) or ``merged`` (the entry is counted under another finding). :func:`check_resolutions` holds the ledger to it.
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

__all__ = ["READINGS", "RESOLUTIONS", "referee_folder", "readings", "resolutions", "agreement", "audit_items",
           "unheld_audit_items", "check_resolutions", "unread_entries"]

#: the three readings a referee may give of an entry
READINGS = ("agree", "disagree", "unsure")
#: how a disagreement or an unsure reading is resolved
RESOLUTIONS = ("adopted", "rejudged", "kept", "merged")
NEGATIVE = ("erratum", "not reproduced", "partly")


def referee_folder(root: str | Path | None = None) -> Path:
    """``data/paper/referees`` of the book's checkout (or of ``root``)."""
    from credalbook.book.paths import repo_root

    return repo_root(root) / "data" / "paper" / "referees"


def _load(path: Path) -> dict:
    import yaml

    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _referee_files(folder: str | Path | None):
    """(file name, record) of every referee file of ``folder`` (the resolutions are not a referee's)."""
    folder = Path(folder) if folder is not None else referee_folder()
    for path in sorted(folder.glob("*.yml")):
        if path.name != "resolutions.yml":
            yield path.name, _load(path)


def readings(folder: str | Path | None = None) -> pd.DataFrame:
    """One row per referee reading: ``paper``, ``file``, ``id``, ``book_verdict`` (when read),
    ``reading``, ``referee_verdict``, ``severity``, ``same_finding_as`` (a tuple), ``reasons``."""
    rows = []
    for name, record in _referee_files(folder):
        for entry in record.get("entries") or []:
            if entry.get("reading") not in READINGS:
                raise ValueError(f"{name}: entry {entry.get('id')!r} has reading {entry.get('reading')!r}, "
                                 f"not one of {READINGS}")
            rows.append({"paper": record["paper"], "file": name, "id": str(entry["id"]),
                         "book_verdict": entry["book_verdict"], "reading": entry["reading"],
                         "referee_verdict": entry.get("referee_verdict"), "severity": entry.get("severity"),
                         "same_finding_as": tuple(entry.get("same_finding_as") or ()),
                         "reasons": " ".join(str(entry.get("reasons", "")).split())})
    frame = pd.DataFrame(rows)
    duplicated = frame["id"][frame["id"].duplicated()].tolist() if len(frame) else []
    if duplicated:
        raise ValueError(f"entry {duplicated[0]!r} has two referee readings")
    return frame


def resolutions(folder: str | Path | None = None) -> pd.DataFrame:
    """How each disagreement or unsure reading was resolved: ``id``, ``resolution``, ``verdict`` (the
    ledger's verdict after the resolution), ``finding`` (for ``merged``), ``reason``."""
    folder = Path(folder) if folder is not None else referee_folder()
    path = folder / "resolutions.yml"
    records = (_load(path) or {}).get("resolutions", []) if path.is_file() else []
    frame = pd.DataFrame(records, columns=["id", "resolution", "verdict", "finding", "reason"])
    bad = frame.loc[~frame["resolution"].isin(RESOLUTIONS), "id"].tolist()
    if bad:
        raise ValueError(f"resolution of {bad[0]!r} is not one of {RESOLUTIONS}")
    return frame


def agreement(reading_frame: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per paper: entries read, how many the referee agreed with, disagreed with, was unsure of, and the
    agreement rate (agreed / read)."""
    frame = readings() if reading_frame is None else reading_frame
    counts = pd.crosstab(frame["paper"], frame["reading"]).reindex(columns=list(READINGS), fill_value=0)
    counts.insert(0, "read", counts.sum(axis=1))
    counts["agreement"] = counts["agree"] / counts["read"]
    return counts.reset_index()


def audit_items(folder: str | Path | None = None) -> pd.DataFrame:
    """The inconsistencies the referees found that the ledger did not hold: ``paper``, ``title``,
    ``section``, ``quote``, ``computation``, ``severity`` and ``entry``, the id of the ledger entry that now
    holds it (its check computes the inconsistency). An item without an entry is refused."""
    rows = []
    for name, record in _referee_files(folder):
        for item in record.get("audit") or []:
            if not str(item.get("entry") or "").strip():
                raise ValueError(f"{name}: audit item {item.get('title')!r} names no ledger entry ('entry:')")
            rows.append({"paper": record["paper"], **{key: " ".join(str(item.get(key, "")).split())
                                                       for key in ("title", "section", "quote", "computation",
                                                                   "severity", "entry")}})
    return pd.DataFrame(rows, columns=["paper", "title", "section", "quote", "computation", "severity", "entry"])


def unheld_audit_items(entry_ids, items: pd.DataFrame | None = None) -> list[str]:
    """The audit items (``paper: title``) whose ``entry`` is none of ``entry_ids`` (the ledger's claim ids)."""
    items = audit_items() if items is None else items
    known = set(map(str, entry_ids))
    return [f"{row.paper}: {row.title} (entry {row.entry!r})" for row in items.itertuples() if row.entry not in known]


def check_resolutions(ledger_frame: pd.DataFrame, reading_frame: pd.DataFrame | None = None,
                      resolution_frame: pd.DataFrame | None = None) -> list[str]:
    """What does not hold between the ledger, the readings and the resolutions (empty when all holds).

    Every disagreement and unsure reading has a resolution; an ``adopted`` one's verdict is the
    referee's and the ledger's now, a ``rejudged`` one's is the ledger's now, a ``kept`` one's is
    the verdict the referee read, and a ``merged`` one names a finding. ``ledger_frame`` is the evaluated ledger (``id``, ``verdict``).
    """
    frame = readings() if reading_frame is None else reading_frame
    resolved = resolutions() if resolution_frame is None else resolution_frame
    verdicts = dict(zip(ledger_frame["id"].astype(str), ledger_frame["verdict"]))
    by_id = resolved.set_index("id")
    problems = []
    for row in frame.itertuples():
        if row.reading == "agree":
            continue
        if row.id not in by_id.index:
            problems.append(f"{row.id}: the referee's '{row.reading}' reading has no resolution")
            continue
        resolution = by_id.loc[row.id]
        now = verdicts.get(row.id)
        if resolution["resolution"] == "adopted" and resolution["verdict"] != row.referee_verdict:
            problems.append(f"{row.id}: adopted, but '{resolution['verdict']}' is not the referee's "
                            f"'{row.referee_verdict}'")
        if resolution["resolution"] in ("adopted", "rejudged") and now != resolution["verdict"]:
            problems.append(f"{row.id}: {resolution['resolution']} as '{resolution['verdict']}' but the ledger says "
                            f"'{now}'")
        if resolution["resolution"] == "kept" and now != row.book_verdict:
            problems.append(f"{row.id}: kept as '{row.book_verdict}' but the ledger says '{now}'")
        if resolution["resolution"] == "merged" and not resolution["finding"]:
            problems.append(f"{row.id}: merged without naming the finding")
    return problems


def unread_entries(ledger_frame: pd.DataFrame, reading_frame: pd.DataFrame | None = None) -> list[str]:
    """Ids of the ledger's counted negative entries (claims, and table cells judged errata) that no referee read."""
    frame = readings() if reading_frame is None else reading_frame
    negative = ledger_frame[((ledger_frame["entry"] == "claim") & ledger_frame["verdict"].isin(NEGATIVE))
                            | ((ledger_frame["entry"] == "table") & (ledger_frame["verdict"] == "erratum"))]
    read = set(frame["id"])
    return sorted(set(negative["id"].astype(str)) - read)
