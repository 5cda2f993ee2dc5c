"""The reproduction ledger: every published number and every claim of the five papers, one verdict each.

Two kinds of entries:

- **claims**, written as data in ``data/paper/claims/*.yml``: the paper's words (quoted), where
  it says them, the kind of statement (:data:`KINDS`), the published value and a tolerance rule
  fitted to the kind; each names a *check*, a function of this package registered with
  :func:`check`, which computes the book's value from stored results or derivations;
- **published table cells**, ``data/paper/{name}.csv`` with ``{name}.yml``, each table with a
  *builder* registered with :func:`book_table` that makes the book's frame of the same shape.

:func:`judge` turns an entry and the book's value into one verdict of :data:`VERDICTS`:

==================  ===========================================================================
reproduced          the book's value equals the paper's (a number within half a unit of the
                    last printed digit; a count exactly; a direction, ranking or significance
                    the same)
within tolerance    a number off by more than the printing precision but within the entry's
                    stated tolerance
partly              a ranking with the same leader but another order, or a quantified claim
                    ("almost everywhere") that holds in at least half of its cases but below its
                    quantifier's threshold (the verdict policy, :mod:`credalbook.book.ledger.policy`)
not reproduced      the book's computation does not give the paper's value or statement
erratum             the paper contradicts a derivation or itself (the check says how)
not checkable       the book cannot decide it (a dataset or detail is missing; the check says why)
==================  ===========================================================================

:func:`ledger` evaluates every entry into one table (``credalbook ledger`` prints it); the
chapters show their slice of it, and the reproduction report and the errata page are made from it.
Every negative row names its *finding* (one per distinct error or failed claim, however many
rows it explains; :func:`findings`, :func:`finding_counts`) and every erratum its severity.
"""
from __future__ import annotations

import importlib
import inspect
import math
import pkgutil
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd
import yaml

from credalbook.book.ledger import policy

__all__ = ["VERDICTS", "KINDS", "Paper", "PAPERS", "Claim", "claims_dir", "claims", "Finding", "Check",
           "check", "protocol_twins", "twin_records", "stored", "load_inputs", "discover", "printing_precision", "judge", "evaluate_claim",
           "BookTable", "BOOK_READING", "entry_label", "is_reading", "is_claim", "book_table", "judged_cells", "table_rows", "COLUMNS", "book_frame", "fingerprint",
           "evaluated", "ledger", "counts", "finding_of", "findings", "finding_counts", "NEGATIVE"]

#: The verdicts of the ledger, in the order of the reports (see the module docstring).
VERDICTS = ("reproduced", "within tolerance", "partly", "not reproduced", "erratum", "not checkable")
#: The kinds of claims, each with its verdict rule in :func:`judge`.
KINDS = ("number", "count", "direction", "significance", "bound", "formula", "ranking")
#: The verdicts that make a finding (see :mod:`credalbook.book.ledger.policy`).
NEGATIVE = policy.NEGATIVE
#: The reading of a published table or claim that follows the book's conventions (the one counted).
BOOK_READING = "book"


def entry_label(kind: str, reading: str = BOOK_READING) -> str:
    """The ``entry`` of a ledger row: ``claim`` or ``table`` in the book's reading, else
    ``claim; reading: <reading>`` or ``reading: <reading>`` (reported, never counted)."""
    if kind not in ("claim", "table"):
        raise ValueError(f"kind must be 'claim' or 'table', got {kind!r}")
    if reading == BOOK_READING:
        return kind
    return f"claim; reading: {reading}" if kind == "claim" else f"reading: {reading}"


def is_reading(entry: pd.Series) -> np.ndarray:
    """Which ledger rows (their ``entry`` column) judge an alternative reading: never counted."""
    return entry.astype(str).str.contains("reading: ", regex=False).to_numpy()


def is_claim(entry: pd.Series) -> np.ndarray:
    """Which ledger rows (their ``entry`` column) are claims of a paper's text, in any reading."""
    return entry.astype(str).str.fullmatch(r"claim(; reading: .+)?").to_numpy()


@dataclass(frozen=True)
class Paper:
    """A source paper: its key, how the book cites it, and its full reference."""

    key: str
    cite: str
    reference: str


#: The five source papers by key (the two versions of Zaffalon, Corani & Mauá count as two), and the book's own results.
PAPERS = {
    "zaffalon2012": Paper("zaffalon2012", "Zaffalon, Corani & Mauá (2012)",
                          "M. Zaffalon, G. Corani and D. Mauá, Evaluating credal classifiers by utility-discounted "
                          "predictive accuracy, Int. J. Approx. Reasoning 53(8), 2012"),
    "zaffalon2011": Paper("zaffalon2011", "Zaffalon, Corani & Mauá (2011)",
                          "M. Zaffalon, G. Corani and D. Mauá, Utility-based accuracy measures to empirically "
                          "evaluate credal classifiers, ISIPTA 2011 (the conference version)"),
    "yang2017": Paper("yang2017", "Yang, Destercke & Masson (2017)",
                      "G. Yang, S. Destercke and M.-H. Masson, The costs of indeterminacy: how to determine "
                      "them?, IEEE Trans. Cybernetics 47(12), 2017, doi:10.1109/TCYB.2016.2607237"),
    "aguilar2025": Paper("aguilar2025", "Aguilar-Ruiz (2025)",
                         "J. S. Aguilar-Ruiz, The certainty ratio C_rho: a novel metric for assessing the reliability "
                         "of classifier predictions, 2025"),
    "ferri2019": Paper("ferri2019", "Ferri, Hernández-Orallo & Flach (2019)",
                       "C. Ferri, J. Hernández-Orallo and P. Flach, Setting decision thresholds when operating "
                       "conditions are uncertain, Data Min. Knowl. Disc. 33(4), 2019"),
    "credalbook": Paper("credalbook", "this book (Part VII)",
                        "credalbook, Part VII: one benchmark, every lens; the book's own propositions and "
                        "findings, not a source paper's"),
}


def _data_dir() -> Path:
    from credalbook.book.build import repo_root

    return repo_root() / "data" / "paper"


# ----------------------------------------------------------------------------------------------
# Claims as data
# ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Claim:
    """One statement of a paper (a row of ``data/paper/claims/*.yml``).

    ``tolerance`` is ``"exact"`` or a mapping: ``{absolute: x, why: ...}`` or ``{relative: x,
    why: ...}`` for numbers (``printed``: the printing precision, default from the published
    value's digits), ``{word: "..."}`` for statements worded "almost everywhere",
    "consistently"...: the check returns the share of cases where the statement holds and the
    threshold is the one of the word's quantifier in the verdict policy
    (:data:`credalbook.book.ledger.policy.QUANTIFIERS`; the loaded tolerance carries it as ``share``).
    ``reading`` other than ``"book"`` judges the claim in an alternative reading (say, on the
    paper's own learners): reported beside the book's, never counted. ``finding`` names the finding
    the entry belongs to when it repeats another entry's error (default: its own id);
    ``severity`` is the erratum's (:data:`credalbook.book.ledger.policy.SEVERITIES`).
    """

    id: str
    paper: str
    quote: str
    sections: tuple[str, ...]
    kind: str
    published: Any
    check: str
    part: str
    chapter: str = ""
    tolerance: Any = "exact"
    also: tuple[str, ...] = ()
    note: str = ""
    printed: float | None = None
    reading: str = BOOK_READING
    finding: str = ""
    severity: str = ""


_CLAIM_FIELDS = {"id", "paper", "quote", "sections", "kind", "published", "check", "part", "chapter", "tolerance",
                 "also", "note", "printed", "reading", "finding", "severity"}


def claims_dir() -> Path:
    return _data_dir() / "claims"


def _as_tuple(value) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value)


def _check_tolerance(claim_id: str, kind: str, tolerance):
    """The tolerance validated; a quantified one (``{word: ...}``) gets its quantifier and threshold from the policy."""
    if tolerance == "exact":
        return tolerance
    if not isinstance(tolerance, dict):
        raise ValueError(f"claim {claim_id!r}: tolerance must be 'exact' or a mapping, got {tolerance!r}")
    if "share" in tolerance:
        raise ValueError(f"claim {claim_id!r}: a share threshold is the verdict policy's, not the claim's: write "
                         f"the paper's word only ('tolerance: {{word: almost everywhere}}', "
                         f"credalbook.book.ledger.policy.WORDS)")
    if "word" in tolerance and not ({"absolute", "relative"} & set(tolerance)):
        try:
            quantifier = policy.quantifier_of(tolerance["word"])
        except ValueError as error:
            raise ValueError(f"claim {claim_id!r}: {error}") from None
        return {**tolerance, "quantifier": quantifier.name, "share": quantifier.threshold}
    rules = set(tolerance) & {"absolute", "relative"}
    if len(rules) != 1:
        raise ValueError(f"claim {claim_id!r}: tolerance needs exactly one of absolute, relative, word")
    rule = rules.pop()
    value = tolerance[rule]
    if not isinstance(value, (int, float)) or not (value >= 0):
        raise ValueError(f"claim {claim_id!r}: tolerance {rule} = {value!r} out of range")
    if kind not in ("number", "bound") or not tolerance.get("why"):
        raise ValueError(f"claim {claim_id!r}: a numeric tolerance applies to numbers and needs a 'why'")
    return tolerance


def _claim_from(record: dict, source: Path) -> Claim:
    unknown = set(record) - _CLAIM_FIELDS
    missing = {"id", "paper", "quote", "sections", "kind", "published", "check", "part"} - set(record)
    label = record.get("id", "?")
    if unknown or missing:
        raise ValueError(f"{source.name}: claim {label!r} has unknown fields {sorted(unknown)} "
                         f"or lacks {sorted(missing)}")
    if record["paper"] not in PAPERS:
        raise ValueError(f"{source.name}: claim {label!r} names unknown paper {record['paper']!r}")
    if record["kind"] not in KINDS:
        raise ValueError(f"{source.name}: claim {label!r} has kind {record['kind']!r}, not one of {KINDS}")
    for other in _as_tuple(record.get("also")):
        if other.split(" ", 1)[0] not in PAPERS:
            raise ValueError(f"{source.name}: claim {label!r}: 'also' must start with a paper key, got {other!r}")
    tolerance = _check_tolerance(label, record["kind"], record.get("tolerance", "exact"))
    if record.get("severity"):
        try:
            policy.check_severity(record["severity"])
        except ValueError as error:
            raise ValueError(f"{source.name}: claim {label!r}: {error}") from None
    reading = record.get("reading", BOOK_READING)
    if not isinstance(reading, str) or not reading.strip():
        raise ValueError(f"{source.name}: claim {label!r}: reading must name the reading in words, got {reading!r}")
    return Claim(id=str(record["id"]), paper=record["paper"], quote=str(record["quote"]).strip(),
                 sections=_as_tuple(record["sections"]), kind=record["kind"], published=record["published"],
                 check=str(record["check"]), part=str(record["part"]), chapter=str(record.get("chapter", "")),
                 tolerance=tolerance, also=_as_tuple(record.get("also")),
                 note=str(record.get("note", "")).strip(), printed=record.get("printed"),
                 reading=reading.strip(), finding=str(record.get("finding", "") or ""),
                 severity=str(record.get("severity", "") or ""))


def claims(folder: Path | None = None) -> list[Claim]:
    """Every claim of ``data/paper/claims/*.yml``, validated (unique ids, known papers and kinds)."""
    folder = folder or claims_dir()
    files = tuple((str(p), p.stat().st_mtime_ns) for p in sorted(folder.glob("*.yml")))
    return list(_claims_of(files))


@lru_cache(maxsize=8)
def _claims_of(files: tuple[tuple[str, int], ...]) -> tuple[Claim, ...]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    found, seen = [], {}
    for name, _ in files:
        path = Path(name)
        records = yaml.load(path.read_text(encoding="utf-8"), Loader=loader) or []
        if not isinstance(records, list):
            raise ValueError(f"{path.name}: a claims file is a list of claims")
        for record in records:
            claim = _claim_from(record, path)
            if claim.id in seen:
                raise ValueError(f"claim id {claim.id!r} appears in {seen[claim.id]} and {path.name}")
            seen[claim.id] = path.name
            found.append(claim)
    return tuple(found)


# ----------------------------------------------------------------------------------------------
# Checks: the package's side of a claim
# ----------------------------------------------------------------------------------------------

@dataclass
class Finding:
    """What a check found: the book's value (same form as the published one) and how it was read.

    ``verdict`` overrides the kind's rule where the check itself decides (``erratum`` when the
    paper contradicts a derivation or itself, ``not checkable`` when the book cannot decide);
    ``detail`` is one line of the book's numbers behind the value; ``severity`` an erratum's
    (:data:`credalbook.book.ledger.policy.SEVERITIES`; the claim's own ``severity`` takes precedence).
    """

    book: Any
    detail: str = ""
    verdict: str | None = None
    severity: str | None = None

    def __post_init__(self):
        if self.verdict is not None and self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.severity is not None:
            policy.check_severity(self.severity)


@dataclass(frozen=True)
class Check:
    """A registered check: ``function(**inputs) -> Finding``; ``mutate(**inputs) -> inputs`` alters them so that the verdict flips."""

    name: str
    function: Callable[..., Finding]
    inputs: dict[str, Callable[[], Any]]
    mutate: Callable[..., dict] | None
    evidence: str
    wants_claim: bool = False


#: Every registered check, by name (filled by :func:`check`, all of them after :func:`discover`).
CHECKS: dict[str, Check] = {}


def check(name: str, *, inputs: dict[str, Callable[[], Any]] | None = None,
          mutate: Callable[..., dict] | None = None):
    """Register ``function(**inputs) -> Finding`` as check ``name`` (claims name it in ``check:``).

    ``inputs`` maps each argument to a loader (:func:`stored` for a stored result, any
    zero-argument function for a derivation); ``mutate`` takes the loaded inputs and returns
    altered ones under which the check's verdict must change (the tests call it for every check).
    A check with a parameter named ``claim`` also receives the :class:`Claim` it decides (a
    formula check compares the printed ``claim.published`` with its derivation).
    """

    def decorate(function):
        if name in CHECKS and CHECKS[name].function is not function:
            raise ValueError(f"check {name!r} registered twice")
        loaders = dict(inputs or {})
        names = ", ".join(getattr(loader, "evidence", getattr(loader, "__qualname__", "?")) for loader in loaders.values())
        evidence = f"{function.__module__}.{function.__qualname__}" + (f" ({names})" if names else "")
        wants_claim = "claim" in inspect.signature(function).parameters
        CHECKS[name] = Check(name, function, loaders, mutate, evidence, wants_claim)
        return function

    return decorate


def protocol_twins(names, twin: Callable[[str], str], paper_input: Callable[[Callable], Callable],
                   mutate: dict[str, Callable[..., dict]] | None = None) -> None:
    """The verdict policy's protocol rule for registered checks ``names``: each is registered again with every
    input loader replaced by ``paper_input(loader)`` (the book's run of the paper's protocol; the counted verdict,
    altered by ``mutate[name]`` where given, else by its own ``mutate``), and as ``twin(name)`` with its own
    inputs (the book's convention, the reading whose claims are never counted)."""
    for name in names:
        item = CHECKS[name]
        check(twin(name), inputs=dict(item.inputs), mutate=item.mutate)(item.function)
        check(name, inputs={key: paper_input(loader) for key, loader in item.inputs.items()},
              mutate=(mutate or {}).get(name, item.mutate))(item.function)


def twin_records(records: list[dict], names, twin: Callable[[str], str], *, section: str, reading: str,
                 note: Callable[[str], str]) -> list[dict]:
    """The claim records of the twins :func:`protocol_twins` registers: each of ``records`` whose check is in
    ``names``, its id and check renamed ``twin(id)``, ``section`` added to its sections, ``reading`` set, its note
    ``note(id)``, and no ``finding`` or ``severity`` (a reading is never counted)."""
    twins = []
    for record in records:
        if record["check"] not in names:
            continue
        twin_record = {key: value for key, value in record.items() if key not in ("finding", "severity")}
        twin_record["id"] = twin_record["check"] = twin(record["id"])
        twin_record["sections"] = [*record["sections"], section]
        twin_record["reading"] = reading
        twin_record["note"] = note(record["id"])
        twins.append(twin_record)
    return twins


def stored(name: str) -> Callable[[], pd.DataFrame]:
    """A loader of stored result ``name`` (``data/results/{name}.csv``), read once per file version."""

    def load() -> pd.DataFrame:
        from credalbook.book.experiments.store import results_path

        path = results_path(name)
        if not path.is_file():
            raise FileNotFoundError(f"no stored results for {name!r} at {path}: run `make reproduce`")
        return _read_stored(str(path), path.stat().st_mtime_ns).copy()

    load.evidence = f"stored result {name}"
    return load


@lru_cache(maxsize=32)
def _read_stored(path: str, mtime_ns: int) -> pd.DataFrame:
    return pd.read_csv(path)


def load_inputs(item: Check | BookTable) -> dict[str, Any]:
    """The inputs of a check or table builder, loaded."""
    return {key: loader() for key, loader in item.inputs.items()}


def discover() -> None:
    """Import every module of :mod:`credalbook.book.ledger` so that its checks and tables register."""
    import credalbook.book.ledger as package

    for info in pkgutil.iter_modules(package.__path__):
        if info.name not in ("core", "report"):
            importlib.import_module(f"{package.__name__}.{info.name}")


# ----------------------------------------------------------------------------------------------
# Judging
# ----------------------------------------------------------------------------------------------

def printing_precision(value) -> float:
    """Half a unit of the last digit of a number as printed (``"0.75"`` -> 0.005, ``"33"`` -> 0.5)."""
    text = str(value).strip()
    if not re.fullmatch(r"[-+]?\d+(\.\d*)?([eE][-+]?\d+)?", text):
        raise ValueError(f"not a printed number: {value!r}")
    mantissa, _, exponent = text.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** (-decimals + (int(exponent) if exponent else 0))


def _number_verdict(published: float, book: float, precision: float, tolerance) -> str:
    difference = abs(book - published)
    if difference <= precision + 1e-12:
        return "reproduced"
    if isinstance(tolerance, dict):
        limit = tolerance.get("absolute")
        if limit is None and "relative" in tolerance:
            limit = tolerance["relative"] * abs(published)
        if limit is not None and difference <= limit + 1e-12:
            return "within tolerance"
    return "not reproduced"


def _is_number(value) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def _quantified(tolerance) -> bool:
    """Whether a claim's tolerance is a quantifier of the paper's words (``{word: ...}``), judged by share."""
    return isinstance(tolerance, dict) and "word" in tolerance and not ({"absolute", "relative"} & set(tolerance))


def _tolerance_limit(claim: Claim) -> float | None:
    """The largest difference a number claim's stated tolerance allows (None when it states none)."""
    if not isinstance(claim.tolerance, dict) or not _is_number(claim.published):
        return None
    if "absolute" in claim.tolerance:
        return float(claim.tolerance["absolute"])
    if "relative" in claim.tolerance:
        return float(claim.tolerance["relative"]) * abs(float(claim.published))
    return None


def judge(claim: Claim, finding: Finding) -> dict:
    """The ledger row of ``claim`` given the check's ``finding``: book value, difference, verdict.

    The verdict follows the verdict policy (:mod:`credalbook.book.ledger.policy`): a quantified claim
    by its quantifier's threshold, a ranking by its leader, and an erratum on a number is void
    when the book's value lies within the entry's stated tolerance (``within tolerance``).
    """
    published, book = claim.published, finding.book
    difference = np.nan
    if finding.verdict is not None:
        verdict = finding.verdict
        if _is_number(published) and _is_number(book):
            difference = float(book) - float(published)
        limit = _tolerance_limit(claim)
        if verdict == "erratum" and claim.kind in ("number", "bound") and limit is not None \
                and policy.erratum_within_tolerance(difference, limit):
            verdict = "within tolerance"
    elif _quantified(claim.tolerance):
        if not _is_number(book) or not 0 <= float(book) <= 1:
            raise ValueError(f"check of {claim.id!r} must return a share in [0, 1] for a share-worded claim")
        verdict = policy.share_verdict(float(book), claim.tolerance["word"], negated=published is False)
    elif claim.kind in ("number", "bound") and _is_number(published):
        if not _is_number(book) or (isinstance(book, float) and math.isnan(book)):
            raise ValueError(f"check of {claim.id!r} must return a number, got {book!r}")
        precision = claim.printed if claim.printed is not None else printing_precision(published)
        difference = float(book) - float(published)
        verdict = _number_verdict(float(published), float(book), precision, claim.tolerance)
    elif claim.kind == "count":
        difference = float(book) - float(published)
        verdict = "reproduced" if difference == 0 else "not reproduced"
    elif claim.kind == "ranking":
        verdict = policy.ranking_verdict(published, book)
    elif claim.kind == "formula":
        raise ValueError(f"check of formula claim {claim.id!r} must decide (reproduced or erratum) itself")
    else:  # direction, significance, a bound stated in words: the statement as printed vs the book's
        verdict = "reproduced" if _same(published, book) else "not reproduced"
    return {"id": claim.id, "paper": claim.paper, "part": claim.part, "section": "; ".join(claim.sections),
            "kind": claim.kind, "statement": claim.quote, "published": _show(published, claim.kind),
            "book": _show(book, claim.kind),
            "difference": difference, "tolerance": _show_tolerance(claim), "verdict": verdict,
            "evidence": CHECKS[claim.check].evidence if claim.check in CHECKS else claim.check,
            "detail": finding.detail, "chapter": claim.chapter, "also": "; ".join(claim.also),
            "note": claim.note, "entry": entry_label("claim", claim.reading),
            "finding": (claim.finding or claim.id) if policy.is_negative(verdict) else "",
            "severity": (claim.severity or finding.severity or policy.DEFAULT_SEVERITY) if verdict == "erratum" else ""}


def _same(published, book) -> bool:
    if isinstance(published, (list, tuple)):
        return list(published) == list(book)
    if _is_number(published) and _is_number(book):
        return float(published) == float(book)
    return published == book


def _show(value, kind: str = "") -> str:
    """A value as the ledger prints it: yes/no for statements, ``a > b`` for a ranking, ``a, b`` for other lists."""
    if isinstance(value, bool) or value is None:
        return {True: "yes", False: "no", None: ""}[value]
    if isinstance(value, (np.bool_,)):
        return "yes" if bool(value) else "no"
    if isinstance(value, (list, tuple)):
        return (" > " if kind == "ranking" else ", ").join(_show(v) for v in value)
    if _is_number(value):
        number = float(value)
        return str(int(number)) if number.is_integer() and abs(number) < 1e15 else f"{number:.6g}"
    return str(value)


def _show_tolerance(claim: Claim) -> str:
    if claim.tolerance == "exact":
        return "exact" if claim.kind != "number" else f"printed ±{claim.printed or printing_precision(claim.published):g}"
    rule = claim.tolerance
    if _quantified(rule):
        quantifier = policy.quantifier_of(rule["word"])
        cases = "all cases" if quantifier.rule == "all" else f"{quantifier.rule} of cases"
        return f"'{rule['word']}' ({quantifier.name}): {cases}"
    key = "absolute" if "absolute" in rule else "relative"
    return f"{key} {rule[key]:g} ({rule['why']})"


def evaluate_claim(claim: Claim, inputs: dict[str, Any] | None = None) -> dict:
    """One claim's ledger row; ``inputs`` replaces the check's loaded inputs (the tests alter them)."""
    if claim.check not in CHECKS:
        raise KeyError(f"claim {claim.id!r} names check {claim.check!r}, which no module of credalbook.book.ledger registers")
    item = CHECKS[claim.check]
    try:
        arguments = load_inputs(item) if inputs is None else inputs
    except FileNotFoundError as error:
        return judge(claim, Finding(book=None, detail=str(error), verdict="not checkable"))
    finding = item.function(**arguments, claim=claim) if item.wants_claim else item.function(**arguments)
    if not isinstance(finding, Finding):
        raise TypeError(f"check {claim.check!r} returned {type(finding).__name__}, not a Finding")
    return judge(claim, finding)


# ----------------------------------------------------------------------------------------------
# Published tables: one ledger row per printed cell
# ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BookTable:
    """A builder of the book's frame for published table ``name`` (keys ``on``), in one reading."""

    name: str
    function: Callable[..., pd.DataFrame]
    on: tuple[str, ...]
    inputs: dict[str, Callable[[], Any]]
    values: tuple[str, ...] | None
    reading: str
    part: str
    chapter: str
    evidence: str = field(default="")


#: Every registered builder of a published table, by (table, reading).
TABLES: dict[tuple[str, str], BookTable] = {}


def book_table(name: str, *, on: list[str], part: str, chapter: str, inputs: dict[str, Callable[[], Any]] | None = None,
               values: list[str] | None = None, reading: str = BOOK_READING):
    """Register ``function(**inputs) -> DataFrame`` as the book's frame of published table ``name``.

    ``reading`` other than ``"book"`` registers an alternative reading of the paper (reported
    beside the book's convention, never counted in its place).
    """

    def decorate(function):
        key = (name, reading)
        if key in TABLES and TABLES[key].function is not function:
            raise ValueError(f"table {name!r} (reading {reading!r}) registered twice")
        loaders = dict(inputs or {})
        names = ", ".join(getattr(loader, "evidence", "?") for loader in loaders.values())
        evidence = f"{function.__module__}.{function.__qualname__}" + (f" ({names})" if names else "")
        TABLES[key] = BookTable(name, function, tuple(on), loaders, tuple(values) if values else None, reading, part,
                                chapter, evidence)
        return function

    return decorate


def _published_text(name: str) -> pd.DataFrame:
    path = _data_dir() / f"{name}.csv"
    return pd.read_csv(path, comment="#", dtype=str, keep_default_na=False)


def _matches(row: pd.Series, rule: dict, reading: str) -> bool:
    wanted = rule.get("match", {})
    if "reading" in rule and str(rule["reading"]) != reading:
        return False
    if "measure" in rule and str(row["measure"]) != str(rule["measure"]):
        return False
    return all(str(row.get(key)) in ([str(v) for v in value] if isinstance(value, list) else [str(value)])
               for key, value in wanted.items())


def judged_cells(name: str, reading: str = BOOK_READING, book: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every printed cell of published table ``name`` beside the book's, judged: one row per cell.

    Columns: the table's key columns (as printed), ``measure``, ``printed`` (the paper's text),
    ``paper``, ``book``, ``difference`` (book − paper), ``tolerance``, ``verdict`` and ``why``
    (the source record's explanation of a difference, ``""`` when it has none), in the paper's
    row order. The tolerance is the source record's; the printing precision comes from the cell's
    digits as transcribed. The record's ``cells`` list explains differences: each rule has
    ``why`` and optionally ``match`` (key values, a list meaning any of them), ``measure`` and
    ``reading`` (the rule then applies to that reading only). A rule with ``tolerance`` sets the
    tolerance of the cells it matches (the first such rule wins; for tables whose one column
    mixes quantities); a rule without ``verdict`` explains the matched cells that differ (not
    reproduced, or within tolerance), a rule with one sets it (e.g. ``erratum`` for a cell the
    paper misprints, naming the claim that shows it). A cell with no book value is ``not
    checkable``. ``finding`` is the finding a negative cell belongs to: the deciding rule's
    ``finding`` (say, the claim that shows a misprint), else one finding per rule (the cells one
    cause explains: ``{name}#rule{i}``), else the cell's own; ``severity`` an erratum cell's
    (the rule's ``severity``, else the policy's default).
    """
    from credalbook.book.reference import compare, published, published_source

    discover()
    if (name, reading) not in TABLES:
        known = sorted(n for n, r in TABLES if r == reading)
        raise KeyError(f"no builder of published table {name!r} in reading {reading!r}; known: {', '.join(known)}")
    item = TABLES[(name, reading)]
    frame = item.function(**load_inputs(item)) if book is None else book
    source = published_source(name)
    table = compare(name, frame, on=list(item.on), values=list(item.values) if item.values else None)
    table = table[table["verdict"] != "missing in paper"].reset_index(drop=True)
    text = _published_text(name)
    keys = published(name)[list(item.on)].astype(str)  # the keys exactly as compare() writes them
    text[list(item.on)] = keys.to_numpy()
    long_text = text.melt(list(item.on), var_name="measure", value_name="printed")
    table = table.merge(long_text, on=[*item.on, "measure"], how="left")
    rules = source.get("cells", []) or []
    tolerances, verdicts, whys, found, severities = [], [], [], [], []
    for _, cell in table.iterrows():
        matching = [(i, rule) for i, rule in enumerate(rules, start=1) if _matches(cell, rule, reading)]
        tolerance = next((float(r["tolerance"]) for _, r in matching if "tolerance" in r), float(cell["tolerance"]))
        why, deciding = "", None
        if np.isnan(cell["book"]):
            verdict, why = "not checkable", "the book has no value for this cell"
        else:
            precision = printing_precision(cell["printed"])
            verdict = _number_verdict(float(cell["paper"]), float(cell["book"]), precision,
                                      {"absolute": tolerance, "why": "source record"})
        for i, rule in matching:
            if "verdict" in rule or verdict in ("not reproduced", "within tolerance"):
                verdict = rule.get("verdict", verdict)
                why, deciding = rule["why"], (i, rule)
        if verdict == "erratum" and not np.isnan(cell["book"]) \
                and policy.erratum_within_tolerance(float(cell["book"]) - float(cell["paper"]), tolerance):
            verdict = "within tolerance"  # a tolerance that passes the cell cannot also call it an error
        finding = ""
        if policy.is_negative(verdict):
            key = ", ".join(f"{k}={cell[k]}" for k in item.on)
            finding = (str(deciding[1].get("finding") or f"{name}#rule{deciding[0]}") if deciding
                       else f"{name}[{key}; {cell['measure']}]")
        severity = ""
        if verdict == "erratum":
            severity = policy.check_severity(str((deciding[1] if deciding else {}).get("severity")
                                                 or policy.DEFAULT_SEVERITY))
        tolerances.append(tolerance)
        verdicts.append(verdict)
        whys.append(why)
        found.append(finding)
        severities.append(severity)
    table["tolerance"], table["verdict"], table["why"] = tolerances, verdicts, whys
    table["finding"], table["severity"] = found, severities
    return table[[*item.on, "measure", "printed", "paper", "book", "difference", "tolerance", "verdict", "why",
                  "finding", "severity"]]


def table_rows(name: str, reading: str = BOOK_READING, book: pd.DataFrame | None = None) -> pd.DataFrame:
    """Ledger rows of published table ``name``: one per printed cell, judged like a number claim
    (:func:`judged_cells` laid out in the ledger's columns)."""
    from credalbook.book.reference import published_source

    item = TABLES[(name, reading)]
    cells = judged_cells(name, reading, book)
    table = published_source(name)["table"]
    paper = _paper_of(name)
    rows = []
    for _, cell in cells.iterrows():
        key = ", ".join(f"{k}={cell[k]}" for k in item.on)
        rows.append({"id": f"{name}[{key}; {cell['measure']}]", "paper": paper, "part": item.part, "section": table,
                     "kind": "number", "statement": f"{table}: {key}, {cell['measure']}", "published": cell["printed"],
                     "book": _show(float(cell["book"])) if not np.isnan(cell["book"]) else "",
                     "difference": cell["difference"], "tolerance": f"±{cell['tolerance']:g}",
                     "verdict": cell["verdict"], "evidence": item.evidence, "detail": cell["why"],
                     "chapter": item.chapter, "also": "", "note": "",
                     "entry": entry_label("table", reading), "finding": cell["finding"],
                     "severity": cell["severity"]})
    return pd.DataFrame(rows)


def _paper_of(name: str) -> str:
    """The paper of published table ``name``: the one its source record cites (``paper: "Zaffalon, ... (2011), ..."``)."""
    from credalbook.book.reference import published_source

    cited = published_source(name)["paper"]
    for key, paper in PAPERS.items():
        if cited.startswith(paper.cite):
            return key
    raise ValueError(f"the source record of published table {name!r} cites {cited[:60]!r}, no paper of the ledger")


# ----------------------------------------------------------------------------------------------
# The whole ledger
# ----------------------------------------------------------------------------------------------

#: The columns of the ledger table, in order.
COLUMNS = ["id", "paper", "part", "section", "kind", "statement", "published", "book", "difference", "tolerance",
           "verdict", "evidence", "detail", "chapter", "also", "note", "entry", "finding", "severity"]


def book_frame(name: str, reading: str = BOOK_READING) -> pd.DataFrame:
    """The book's frame of published table ``name`` (its registered builder on its inputs)."""
    discover()
    if (name, reading) not in TABLES:
        known = sorted(n for n, r in TABLES if r == reading)
        raise KeyError(f"no builder of published table {name!r} in reading {reading!r}; known: {', '.join(known)}")
    item = TABLES[(name, reading)]
    return item.function(**load_inputs(item))


def _evaluate(readings: bool, paper: str | None = None, chapter: str | None = None) -> pd.DataFrame:
    discover()
    rows = [evaluate_claim(c) for c in claims()
            if (paper is None or c.paper == paper) and (chapter is None or c.chapter == chapter)]
    frames = [pd.DataFrame(rows, columns=COLUMNS)]
    for (name, reading) in sorted(TABLES):
        if reading != BOOK_READING and not readings:
            continue
        if (paper is not None and _paper_of(name) != paper) or (chapter is not None and TABLES[(name, reading)].chapter
                                                                 != chapter):
            continue
        frames.append(table_rows(name, reading))
    table = pd.concat([f for f in frames if not f.empty] or frames, ignore_index=True)[COLUMNS]
    text = [c for c in COLUMNS if c != "difference"]
    table[text] = table[text].fillna("").astype(str)
    table["finding"] = _one_finding_per_cause(table)
    table["difference"] = pd.to_numeric(table["difference"], errors="coerce").astype(float)
    return table.reset_index(drop=True)


def _one_finding_per_cause(table: pd.DataFrame) -> pd.Series:
    """The ``finding`` column with the cells that one cause explains in several tables of a paper (the same
    ``cells:`` explanation, word for word, say the CDT's leaf rule in Tables 12-19) under one finding: the
    first table's rule."""
    finding = table["finding"].astype(str)
    by_rule = finding.str.contains("#rule", regex=False) & (table["detail"].astype(str) != "")
    if not by_rule.any():
        return finding
    first = (table[by_rule].assign(finding=finding[by_rule]).groupby(["paper", "entry", "detail"], sort=False)["finding"]
             .transform("first"))
    return finding.where(~by_rule, first)


def fingerprint() -> str:
    """What every verdict depends on: the code of the ledger's modules (and all they import), the
    claims and published tables, and the stored results (sha256 over all of them)."""
    import hashlib

    import credalbook.book.ledger as package
    from credalbook.book.build import repo_root
    from credalbook.book.experiments.cache import code_fingerprint

    digest = hashlib.sha256()
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        digest.update(code_fingerprint(f"{package.__name__}.{info.name}").encode())
    root = repo_root()
    for folder in (root / "data" / "paper", root / "data" / "results"):
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                digest.update(f"{path.relative_to(root)}:".encode() + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def evaluated() -> pd.DataFrame:
    """The whole ledger, alternative readings included, evaluated once per version of its inputs and
    kept in the verified cache (``.cache/ledger``; see :mod:`credalbook.book.experiments.cache`), so that
    every page reads the same table."""
    from credalbook.book.build import repo_root
    from credalbook.book.experiments import cache as entries

    key = fingerprint()
    path = repo_root() / ".cache" / "ledger" / f"{key[:16]}.npz"
    try:
        return entries.read(path, task_name="ledger", config={}, fingerprint=key)
    except FileNotFoundError:
        pass
    except entries.StaleEntry as reason:
        entries.warn_stale(path, str(reason))
    table = _evaluate(readings=True)
    entries.write(path, table, task_name="ledger", config={}, fingerprint=key)
    return table


def ledger(paper: str | None = None, verdict: str | None = None, *, chapter: str | None = None,
           readings: bool = False, cached: bool = True) -> pd.DataFrame:
    """Every claim and every published table cell with its verdict (the columns of :data:`COLUMNS`).

    ``paper``, ``verdict`` and ``chapter`` (a toc entry such as ``chapters/thresholds/study``)
    filter; ``readings`` adds the rows of alternative readings of the papers' tables (marked in
    ``entry``), which are never counted in place of the book's. The whole ledger is read from
    the cache when its inputs have not changed (:func:`evaluated`); ``cached=False`` evaluates
    just the entries asked for.
    """
    if paper is not None and paper not in PAPERS:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}, got {paper!r}")
    if verdict is not None and verdict not in VERDICTS:
        raise ValueError(f"verdict must be one of {', '.join(VERDICTS)}, got {verdict!r}")
    table = evaluated() if cached else _evaluate(readings, paper, chapter)
    keep = np.ones(len(table), dtype=bool) if readings else ~is_reading(table["entry"])
    if paper is not None:
        keep &= (table["paper"] == paper).to_numpy()
    if chapter is not None:
        keep &= (table["chapter"] == chapter).to_numpy()
    if verdict is not None:
        keep &= (table["verdict"] == verdict).to_numpy()
    return table[keep].reset_index(drop=True)


def counts(table: pd.DataFrame) -> pd.DataFrame:
    """Entries per paper (rows) and verdict (columns, in :data:`VERDICTS` order), with totals."""
    counted = table[~is_reading(table["entry"])]
    grid = pd.crosstab(counted["paper"], counted["verdict"]).reindex(columns=list(VERDICTS), fill_value=0)
    grid = grid.reindex([p for p in PAPERS if p in grid.index])
    grid["total"] = grid.sum(axis=1)
    grid.loc["all"] = grid.sum(axis=0)
    return grid.astype(int)


# ----------------------------------------------------------------------------------------------
# Findings: one count per distinct error or failed claim
# ----------------------------------------------------------------------------------------------

def finding_of(table: pd.DataFrame) -> pd.Series:
    """The finding of each ledger row (its ``finding`` column; ``""`` for a row that is not negative)."""
    if "finding" not in table.columns:
        raise ValueError("the table has no 'finding' column: evaluate it with ledger() or evaluated()")
    return table["finding"].fillna("").astype(str)


def findings(table: pd.DataFrame) -> pd.DataFrame:
    """One row per finding of the counted ledger rows of ``table`` (alternative readings left out).

    Columns: ``finding`` (its id: the principal entry's id, or a table's rule), ``paper`` (the
    principal row's), ``papers`` (every paper with a row of it, ``"; "``-separated: the
    conference version repeats some of the journal's errata), ``verdict`` (the gravest of its
    rows: erratum, then not reproduced, then partly), ``severity`` (an erratum's), ``entries``
    (how many ledger rows it explains), ``claims`` and ``cells`` (their ids, ``"; "``-separated),
    ``statement`` (the principal row's: the row whose id is the finding's, else the first claim,
    else the first cell). Ordered by paper (as :data:`PAPERS`), then as the rows first appear.
    """
    counted = table[~is_reading(table["entry"])]
    counted = counted[(finding_of(counted) != "").to_numpy()]
    gravity = {verdict: i for i, verdict in enumerate(("erratum", "not reproduced", "partly"))}
    rows = []
    for finding, group in counted.groupby(finding_of(counted), sort=False):
        claimed = group[is_claim(group["entry"])]
        principal = group[group["id"] == finding]
        principal = principal if len(principal) else (claimed if len(claimed) else group)
        verdict = min(group["verdict"], key=lambda v: gravity.get(v, len(gravity)))
        severities = [s for s in group["severity"].astype(str) if s] if "severity" in group else []
        papers = [p for p in PAPERS if p in set(group["paper"])]
        rows.append({"finding": finding, "paper": principal["paper"].iloc[0], "papers": "; ".join(papers),
                     "verdict": verdict, "severity": severities[0] if verdict == "erratum" and severities else "",
                     "entries": len(group), "claims": "; ".join(claimed["id"]),
                     "cells": "; ".join(group.loc[~is_claim(group["entry"]), "id"]),
                     "statement": principal["statement"].iloc[0]})
    frame = pd.DataFrame(rows, columns=["finding", "paper", "papers", "verdict", "severity", "entries", "claims",
                                        "cells", "statement"])
    order = {paper: i for i, paper in enumerate(PAPERS)}
    frame["_order"] = frame["paper"].map(order)
    return frame.sort_values("_order", kind="stable").drop(columns="_order").reset_index(drop=True)


def finding_counts(table: pd.DataFrame) -> pd.DataFrame:
    """Findings per paper (rows) and negative verdict (columns: partly, not reproduced, erratum), with totals.

    Beside :func:`counts` (entries): an error repeated in several cells or statements counts once.
    A finding with rows in two papers (the conference version repeating the journal) counts in
    each paper's row, and once in the row ``all``.
    """
    found = findings(table)
    per_paper = found.assign(paper=found["papers"].str.split("; ")).explode("paper")
    grid = pd.crosstab(per_paper["paper"], per_paper["verdict"]).reindex(columns=list(NEGATIVE), fill_value=0)
    grid = grid.reindex([p for p in PAPERS if p in grid.index])
    grid.loc["all"] = found["verdict"].value_counts().reindex(list(NEGATIVE), fill_value=0)
    grid["total"] = grid.sum(axis=1)
    return grid.fillna(0).astype(int)
