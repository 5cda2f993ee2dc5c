"""The book's datasets: one loader for every dataset of the four source papers.

``load(name, group)`` returns a :class:`Dataset` (features ``X`` as a DataFrame of float and
categorical columns, class labels ``y`` as a Categorical). What a dataset *is* (its file or
files, format, class attribute, the id/leakage columns to drop, its sha256 and expected size)
is written down once, in the registry ``credalbook/datasets.csv`` (installed with the package);
this module only reads it.

Sources, searched in this order (:data:`SOURCES`):

1. ``repository``: the book's own copy, ``data/raw/`` of the checkout (every available dataset,
   with its origin, licence and citation in ``data/raw/README.md``);
2. ``mirror``: a folder with the same layout named by ``$CREDALBOOK_DATA_MIRROR``, when set;
3. ``package``: data shipped inside an installed package: scikit-learn's bundled copies, used
   only where the registry names one that was checked value by value against the book's file
   (``sklearn`` column; ``tests/test_data.py`` repeats that check);
4. ``cache``: the download cache, ``$CREDALBOOK_DATA_CACHE``, else
   ``~/.cache/credalbook/downloads``, with the same layout; :func:`fetch` (``credalbook fetch``)
   fills it from the registry's URLs (the files' source commits) or from a server holding a
   copy of ``data/raw/``, and checks the same sha256.

Every file read from a folder has its sha256 checked against the registry. A dataset found in
none of them raises :class:`DatasetNotFoundError`, naming every place searched. Datasets that
no source has (connect-4, musk v2, SWD) are registry rows with status ``missing`` and their own
explanation. :func:`dataset_status` (``credalbook datasets``) says where each dataset is found,
its size and whether its checksum holds, without parsing the files.

Conventions of the returned data (the papers' preprocessing is *not* applied here):

- ``X``: numeric attributes as float64, nominal ones as ``pd.Categorical`` with the declared
  value order of the ARFF/KEEL header (all declared values kept, even unused ones); text
  columns of CSV files become categorical with sorted values; integer-coded columns of
  headerless files stay numeric, as the files give them. Missing values (``?`` or empty) are NaN.
- ``y``: the class attribute as a Categorical; declared order kept, values that never occur
  removed (ARFF headers of anneal, heart-c... declare more classes than occur); ordered for the
  ordinal group ``yang2017``. **Rows whose class is missing are dropped** (none of the book's
  files has such a row; the check stays for other sources).
- The id/leakage columns named in the registry are dropped, and so are the *other* targets of
  multi-target files (solar-flare, cardiotocography).
"""
from __future__ import annotations

import hashlib
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterator

import numpy as np
import pandas as pd

__all__ = ["GROUPS", "DatasetNotFoundError", "ChecksumError", "ArffFormatError", "Dataset", "read_arff",
           "read_delimited", "registry_path", "registry", "SOURCES", "repository_dir", "mirror_dir",
           "cache_dir", "source_folder", "sha256_of", "load", "list_datasets", "load_group", "dataset_status",
           "DownloadError", "fetch"]

GROUPS = ("zaffalon2012", "aguilar2025", "yang2017", "ferri2019")
"""Paper groups; without ``group=``, a name found in several groups resolves in this order."""

_REGISTRY_COLUMNS = ["group", "name", "aliases", "in_paper", "status", "files", "format", "sep", "header",
                     "class_attribute", "drop", "sha256", "n_rows", "n_attributes", "n_classes", "sklearn", "urls",
                     "paper_name", "note"]


class DatasetNotFoundError(FileNotFoundError):
    """A dataset that no source (repository, mirror, package, download cache) can provide."""


class ChecksumError(ValueError):
    """A data file whose sha256 differs from the registry's (a modified or truncated copy)."""


class ArffFormatError(ValueError):
    """A malformed ARFF/KEEL file (the message gives the file and line)."""


@dataclass(frozen=True)
class Dataset:
    """A loaded dataset: features ``X`` (float or Categorical columns) and class labels ``y``.

    ``source`` says where the data came from: ``"<source>:<files>"`` with a source of
    :data:`SOURCES` and the files relative to it (``repository:uci/iris.arff``), or
    ``package:sklearn.load_wine``; ``group`` is the paper group whose class convention was applied.
    """

    name: str
    X: pd.DataFrame
    y: pd.Series
    source: str
    group: str | None

    @property
    def classes(self) -> list:
        """The class labels in their declared order (index k is class code k)."""
        return list(self.y.cat.categories)

    @property
    def y_codes(self) -> np.ndarray:
        """Class indices 0..K-1 as an int64 array, in the order of :attr:`classes`."""
        return self.y.cat.codes.to_numpy(dtype=np.int64)

    @property
    def nominal_features(self) -> list[str]:
        """Names of the categorical feature columns."""
        return [c for c in self.X.columns if isinstance(self.X[c].dtype, pd.CategoricalDtype)]

    @property
    def numeric_features(self) -> list[str]:
        """Names of the float feature columns."""
        return [c for c in self.X.columns if not isinstance(self.X[c].dtype, pd.CategoricalDtype)]

    def __repr__(self) -> str:
        return (f"Dataset({self.name!r}, group={self.group!r}, n={len(self.y)}, "
                f"features={self.X.shape[1]} ({len(self.nominal_features)} nominal), "
                f"classes={len(self.classes)}, source={self.source!r})")


# ---------------------------------------------------------------------------------------------
# Readers
# ---------------------------------------------------------------------------------------------

_NUMERIC_TYPES = {"numeric", "real", "integer"}
_STRING_TYPES = {"string", "date"}


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _split_values(text: str) -> list[str]:
    """Comma-separated ARFF values, honouring '...' and "..." quotes; spaces around values stripped.

    Most lines take a fast path that gives the character scanner's values (``_split_quoted``):
    a line of values all quoted alike with nothing between them (``'f','t'``) splits on the
    quote-comma-quote, a line without quotes on commas, and a line whose values are each bare or
    wholly quoted with no comma, quote or backslash inside value by value; the others go to the
    scanner.
    """
    if "\\" not in text:
        quote = text[:1]
        if quote in ("'", '"') and text[-1:] == quote and len(text) > 1:
            values = text[1:-1].split(quote + "," + quote)
            if text.count(quote) == 2 * len(values):
                return values
        if "'" not in text and '"' not in text:
            return [piece.strip() for piece in text.split(",")]
        values = []
        for piece in text.split(","):
            piece = piece.strip()
            if piece[:1] in ("'", '"'):
                if len(piece) < 2 or piece[-1] != piece[0] or piece[0] in piece[1:-1]:
                    break
                piece = piece[1:-1]
            values.append(piece)
        else:
            return values
    return _split_quoted(text)


def _split_quoted(text: str) -> list[str]:
    """:func:`_split_values` by scanning characters: quotes may hold commas, escaped characters and the other quote."""
    values, current, quote, i = [], [], None, 0
    quoted_token = False
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\" and i + 1 < len(text):
                current.append(text[i + 1])
                i += 2
                continue
            if ch == quote:
                quote = None
            else:
                current.append(ch)
        elif ch in "'\"" and not "".join(current).strip():
            quote, quoted_token, current = ch, True, []
        elif ch == ",":
            values.append("".join(current) if quoted_token else "".join(current).strip())
            current, quoted_token = [], False
        else:
            if not (quoted_token and ch.isspace()):
                current.append(ch)
        i += 1
    if quote:
        raise ValueError(f"unterminated quote in {text!r}")
    values.append("".join(current) if quoted_token else "".join(current).strip())
    return values


def _parse_attribute(rest: str) -> tuple[str, str, list[str] | None]:
    """``name type`` of an ``@attribute`` line -> (name, kind, declared values or None)."""
    rest = rest.strip()
    if not rest:
        raise ValueError("attribute without a name")
    if rest[0] in "'\"":
        end = rest.find(rest[0], 1)
        while end > 0 and rest[end - 1] == "\\":
            end = rest.find(rest[0], end + 1)
        if end < 0:
            raise ValueError("unterminated quoted attribute name")
        name, spec = rest[1:end].replace("\\" + rest[0], rest[0]), rest[end + 1:].strip()
    else:
        match = re.match(r"([^\s{]+)\s*(.*)$", rest)
        if not match:
            raise ValueError("attribute without a name")
        name, spec = match.group(1), match.group(2).strip()
    if spec.startswith("{"):
        close = spec.rfind("}")
        if close < 0:
            raise ValueError(f"nominal declaration of {name!r} has no closing brace")
        values = [v for v in _split_values(spec[1:close]) if v != ""]
        return name, "nominal", list(dict.fromkeys(values))
    kind = re.match(r"[A-Za-z]*", spec).group(0).lower()
    if kind in _NUMERIC_TYPES:
        return name, "numeric", None
    if kind in _STRING_TYPES:
        return name, "string", None
    raise ValueError(f"attribute {name!r} has unknown type {spec!r}")


def read_arff(path: str | os.PathLike, text: str | None = None) -> pd.DataFrame:
    """Read a Weka ARFF or KEEL ``.dat`` file into a DataFrame (float / Categorical / object columns).

    Tolerant of what the book's files contain (``data/raw/README.md``, "Format pitfalls"): CRLF
    line ends, ``%`` comments, case-insensitive keywords, quoted attribute names with spaces,
    Weka's and KEEL's ``integer [lo, hi]`` / ``real[lo,hi]`` ranges, spaces inside nominal
    declarations and around data values, ``?`` for a missing value, KEEL's ``@inputs`` /
    ``@outputs`` lines, quoted values and sparse ``{index value, ...}`` rows. Nominal columns keep
    the declared value order; a data value outside the declaration is an error, not a silent NaN.
    """
    path = Path(path)
    if text is None:
        text = _decode(path.read_bytes())
    attributes: list[tuple[str, str, list[str] | None]] = []
    rows: list[list[str]] = []
    in_data = False
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("%"):
            continue
        try:
            if not in_data:
                keyword = line.split(None, 1)[0].lower()
                if keyword == "@attribute":
                    attributes.append(_parse_attribute(line[len("@attribute"):]))
                elif keyword == "@data":
                    in_data = True
                    if not attributes:
                        raise ValueError("@data before any @attribute")
                elif keyword in {"@relation", "@inputs", "@outputs", "@input", "@output"}:
                    pass
                else:
                    raise ValueError(f"unexpected header line {line[:60]!r}")
                continue
            if line.startswith("{"):
                rows.append(_sparse_row(line, attributes))
                continue
            values = _split_values(line)
            if len(values) != len(attributes):
                raise ValueError(f"{len(values)} values for {len(attributes)} attributes")
            rows.append(values)
        except ValueError as error:
            raise ArffFormatError(f"{path}: line {number}: {error}") from None
    if not in_data:
        raise ArffFormatError(f"{path}: no @data section")
    columns = list(zip(*rows)) if rows else [()] * len(attributes)
    frame = {}
    for (name, kind, declared), column in zip(attributes, columns):
        raw = np.array(column, dtype=object)
        missing = raw == "?"
        if kind == "numeric":
            raw[missing] = "nan"
            try:
                frame[name] = raw.astype(np.float64)
            except ValueError:
                bad = next(v for v in raw if not _is_float(v))
                raise ArffFormatError(f"{path}: numeric attribute {name!r} has value {bad!r}") from None
        elif kind == "nominal":
            unknown = sorted(set(raw[~missing]) - set(declared))
            if unknown:
                raise ArffFormatError(f"{path}: nominal attribute {name!r} has undeclared values {unknown[:5]}")
            raw[missing] = None
            frame[name] = pd.Categorical(raw, categories=declared)
        else:
            raw[missing] = None
            frame[name] = raw
    if len(frame) != len(attributes):
        raise ArffFormatError(f"{path}: duplicate attribute names")
    return pd.DataFrame(frame)


def _is_float(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True


def _sparse_row(line: str, attributes) -> list[str]:
    """A sparse ARFF row ``{i v, j w}``: omitted numeric values are 0, omitted nominal ones the first value."""
    values = ["0" if kind == "numeric" else (declared[0] if declared else "") for _, kind, declared in attributes]
    body = line.strip()[1:]
    if not body.endswith("}"):
        raise ValueError("sparse row without closing brace")
    for item in _split_values(body[:-1]):
        if not item:
            continue
        index, _, value = item.partition(" ")
        position = int(index)
        if not 0 <= position < len(attributes):
            raise ValueError(f"sparse index {position} outside 0..{len(attributes) - 1}")
        values[position] = value.strip().strip("'\"")
    return values


def read_delimited(path: str | os.PathLike, *, sep: str = ",", header: bool = True) -> pd.DataFrame:
    """Read a CSV (``sep``) or whitespace (``sep="whitespace"``) file; headerless columns are ``col1..colK``.

    Column names are stripped of surrounding spaces; ``?`` and empty fields are missing.
    Numeric columns come back float64, text columns as object (nominal columns as pandas Categoricals).
    """
    options = dict(header=0 if header else None, na_values=["?", ""], keep_default_na=False, skipinitialspace=True)
    if sep == "whitespace":
        frame = pd.read_csv(path, sep=r"\s+", **options)
    else:
        frame = pd.read_csv(path, sep=sep, **options)
    if header:
        frame.columns = [str(c).strip() for c in frame.columns]
    else:
        frame.columns = [f"col{i + 1}" for i in range(frame.shape[1])]
    for column in frame.columns:
        if pd.api.types.is_numeric_dtype(frame[column]):
            frame[column] = frame[column].astype(np.float64)
    return frame


def _label(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _as_categorical(series: pd.Series) -> pd.Categorical:
    """A column as a Categorical: kept if already one; numbers become labels sorted numerically."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        return series.array
    if pd.api.types.is_numeric_dtype(series):
        present = np.unique(series.dropna().to_numpy(dtype=float))
        labels = series.map(lambda v: None if pd.isna(v) else _label(v))
        return pd.Categorical(labels, categories=[_label(v) for v in present])
    values = series.astype(object).where(series.notna(), None)
    return pd.Categorical(values, categories=sorted(set(values.dropna())))


# ---------------------------------------------------------------------------------------------
# Registry and sources
# ---------------------------------------------------------------------------------------------

def registry_path() -> Path:
    """The dataset registry ``datasets.csv``, installed inside the package."""
    return Path(__file__).resolve().parent / "datasets.csv"


@lru_cache(maxsize=1)
def _registry_cached(path: str, mtime: float) -> pd.DataFrame:
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = set(_REGISTRY_COLUMNS) - set(frame.columns)
    if missing:
        raise ValueError(f"registry {path} lacks columns {sorted(missing)}")
    for column in ("n_rows", "n_attributes", "n_classes"):
        frame[column] = pd.to_numeric(frame[column].replace("", None)).astype("Int64")
    frame["in_paper"] = frame["in_paper"].str.lower().eq("true")
    return frame


def registry() -> pd.DataFrame:
    """The dataset registry (one row per dataset and paper group), as strings and nullable ints."""
    path = registry_path()
    return _registry_cached(str(path), path.stat().st_mtime).copy()


SOURCES = ("repository", "mirror", "package", "cache")
"""Where :func:`load` looks, in this order (see the module docstring)."""


def repository_dir() -> Path | None:
    """The book's own copy of the data: ``data/raw/`` of the checkout; None for a package installed
    without the book's repository."""
    checkout = Path(__file__).resolve().parent.parent
    return checkout / "data" / "raw" if (checkout / "_toc.yml").is_file() else None


def mirror_dir() -> Path | None:
    """A folder with the layout of ``data/raw/`` named by ``$CREDALBOOK_DATA_MIRROR``, or None when unset."""
    env = os.environ.get("CREDALBOOK_DATA_MIRROR")
    return Path(env) if env else None


def cache_dir() -> Path:
    """The download cache: ``$CREDALBOOK_DATA_CACHE``, else ``~/.cache/credalbook/downloads``."""
    env = os.environ.get("CREDALBOOK_DATA_CACHE")
    if env:
        return Path(env)
    return Path.home() / ".cache" / "credalbook" / "downloads"


def source_folder(source: str) -> tuple[Path | None, str]:
    """The folder of a folder source (``repository``, ``mirror``, ``cache``) and how to change it."""
    if source == "repository":
        return repository_dir(), "the book's data/raw, present in a clone of its repository"
    if source == "mirror":
        return mirror_dir(), "set CREDALBOOK_DATA_MIRROR"
    if source == "cache":
        return cache_dir(), "fill it with `credalbook fetch NAME`; set CREDALBOOK_DATA_CACHE"
    raise ValueError(f"source must be one of 'repository', 'mirror' or 'cache', got {source!r}")


def _split(field: str) -> list[str]:
    return [part.strip() for part in field.split(";") if part.strip()]


def _check_group(group: str | None) -> None:
    if group is not None and group not in GROUPS:
        raise ValueError(f"group must be one of {GROUPS} or None, got {group!r}")


def _normalise(name: str) -> str:
    """Lower case, runs of spaces and underscores as one hyphen: "Musk v2" == "musk-v2"."""
    return re.sub(r"[\s_]+", "-", name.strip().lower())


def _entry(name: str, group: str | None) -> pd.Series:
    """The registry row of ``name`` (case-insensitive, aliases allowed) in ``group``."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"name must be a non-empty dataset name, got {name!r}")
    _check_group(group)
    table = registry()
    key = _normalise(name)
    names = table["name"].map(_normalise)
    aliases = table["aliases"].map(lambda field: {_normalise(a) for a in _split(field)})
    hits = table[(names == key) | aliases.map(lambda s: key in s)]
    if group is not None:
        hits = hits[hits["group"] == group]
    if hits.empty:
        where = f" in group {group!r}" if group else ""
        known = table if group is None else table[table["group"] == group]
        raise DatasetNotFoundError(f"no dataset named {name!r}{where} in the registry {registry_path()}; "
                                   f"known names: {', '.join(sorted(set(known['name'])))}")
    exact = hits[hits["name"].map(_normalise) == key]
    hits = exact if not exact.empty else hits
    order = {g: i for i, g in enumerate(GROUPS)}
    return hits.iloc[int(np.argmin(hits["group"].map(order).to_numpy()))]


def sha256_of(path: str | os.PathLike) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@lru_cache(maxsize=512)
def _sha256_cached(path: str, size: int, mtime_ns: int) -> str:
    return sha256_of(path)


def _verified_sha(path: Path) -> str:
    """sha256 of ``path``, computed once per (path, size, modification time)."""
    stat = path.stat()
    return _sha256_cached(str(path), stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=256)
def _read_verified(path: str, size: int, mtime_ns: int, expected_sha: str, fmt: str, sep: str,
                   header: bool) -> pd.DataFrame:
    actual = _sha256_cached(path, size, mtime_ns)
    if expected_sha and actual != expected_sha:
        raise ChecksumError(f"{path}: sha256 {actual} differs from the registry's {expected_sha} "
                            "(modified or truncated copy; restore the file or fetch it again)")
    if fmt == "arff":
        return read_arff(path)
    if fmt in {"csv", "whitespace"}:
        return read_delimited(path, sep="whitespace" if fmt == "whitespace" else (sep or ","), header=header)
    raise ValueError(f"unknown format {fmt!r} in the registry")


def _read_files(entry: pd.Series, folder: Path) -> pd.DataFrame | None:
    """The registry row's files read from ``folder`` (concatenated), or None if any is absent."""
    paths = [folder / f for f in _split(entry["files"])]
    if not paths or not all(p.is_file() for p in paths):
        return None
    shas = _split(entry["sha256"]) or [""] * len(paths)
    parts = []
    for path, sha in zip(paths, shas):
        stat = path.stat()
        parts.append(_read_verified(str(path), stat.st_size, stat.st_mtime_ns, sha, entry["format"], entry["sep"],
                                    entry["header"].lower() != "no"))
    if len(parts) == 1:
        return parts[0].copy()
    return pd.concat(parts, ignore_index=True)


def _from_sklearn(entry: pd.Series) -> pd.DataFrame:
    """The registry's scikit-learn copy, with the book's file's column names and labels.

    The ``sklearn`` field reads ``loader:feature|...|feature|class name|label,label,...``.
    """
    loader, _, mapping = entry["sklearn"].partition(":")
    import sklearn.datasets

    bunch = getattr(sklearn.datasets, loader)(as_frame=True)
    names = _split(mapping.replace("|", ";"))
    features = bunch.frame.drop(columns="target").astype(np.float64)
    if len(names) != features.shape[1] + 2:
        raise ValueError(f"registry sklearn mapping of {entry['name']!r} must give {features.shape[1]} feature "
                         "names, the class name and the class labels")
    features.columns = names[:-2]
    labels = names[-1].split(",")
    frame = features.copy()
    frame[names[-2]] = pd.Categorical.from_codes(bunch.frame["target"].to_numpy(), categories=labels)
    return frame


def _locate(entry: pd.Series) -> tuple[pd.DataFrame, str]:
    """The table of a registry row from the first source that has it, and ``"source:files"``."""
    if entry["status"] == "missing":
        raise DatasetNotFoundError(f"{entry['name']} is not available: {entry['note']}")
    searched = []
    for source in SOURCES:
        if source == "package":
            if entry["sklearn"]:
                return _from_sklearn(entry), "package:sklearn." + entry["sklearn"].partition(":")[0]
            searched.append("package data (scikit-learn ships no copy of it)")
            continue
        folder, hint = source_folder(source)
        if folder is None:
            searched.append(f"no {source} ({hint})")
            continue
        table = _read_files(entry, folder)
        if table is not None:
            return table, f"{source}:{entry['files']}"
        searched.append(f"the {source} {folder} ({hint})")
    raise DatasetNotFoundError(f"{entry['name']} ({entry['group']}) is not available; searched: "
                               + "; ".join(searched) + f". Files: {entry['files']}")


def _build(entry: pd.Series, table: pd.DataFrame, source: str, group: str | None,
           declared_classes: bool = False) -> Dataset:
    class_attribute = entry["class_attribute"]
    if class_attribute not in table.columns:
        raise ValueError(f"{entry['name']}: class attribute {class_attribute!r} not among the columns "
                         f"{list(table.columns)[:8]}...")
    drop = _split(entry["drop"])
    absent = [c for c in drop if c not in table.columns]
    if absent:
        raise ValueError(f"{entry['name']}: registry drops columns {absent} that the file does not have")
    y = _as_categorical(table[class_attribute])
    keep = ~pd.isna(np.asarray(y))
    y = y[keep] if declared_classes else y[keep].remove_unused_categories()
    if entry["group"] == "yang2017":
        y = y.as_ordered()
    X = table.loc[keep, [c for c in table.columns if c != class_attribute and c not in drop]].reset_index(drop=True)
    for column in X.columns:
        if not isinstance(X[column].dtype, pd.CategoricalDtype) and not pd.api.types.is_float_dtype(X[column]):
            X[column] = _as_categorical(X[column])
    return Dataset(name=entry["name"], X=X, y=pd.Series(y, name=class_attribute), source=source, group=group)


def load(name: str, group: str | None = None, *, declared_classes: bool = False) -> Dataset:
    """Load dataset ``name`` (a MANIFEST.csv name or alias; case, spaces and underscores ignored) under ``group``'s conventions.

    ``group`` picks the class attribute: ``"ferri2019"`` the last attribute of every file (as
    Ferri, Hernández-Orallo & Flach 2019 did), ``"zaffalon2012"``, ``"aguilar2025"`` and
    ``"yang2017"`` the dataset's true class attribute. Without ``group`` the first group holding
    the name in the order of :data:`GROUPS` is used. The classes are those present in the data;
    ``declared_classes=True`` keeps every class the file's header declares (as Weka does), so a
    declared but absent class is a class with no instance. Raises :class:`DatasetNotFoundError` (with
    every place searched) when no source has the data, :class:`ChecksumError` when a file's
    sha256 differs from the registry's, ``ValueError`` for a bad ``name`` or ``group``.
    """
    entry = _entry(name, group)
    table, source = _locate(entry)
    return _build(entry, table, source, entry["group"], declared_classes)


def list_datasets(group: str | None = None) -> pd.DataFrame:
    """One row per registry dataset (of ``group``, or all): sizes, availability and where it comes from.

    Columns: name, paper_name (as the paper prints it), group, groups (every group listing the
    name), in_paper, available, n_rows, n_features, n_nominal, n_classes, n_missing (missing
    feature values), majority (proportion of the most frequent class), source (or why the dataset
    is unavailable), note. Availability is established by loading (sha256 checked), so this
    reads every file once.
    """
    _check_group(group)
    full = registry()
    table = full if group is None else full[full["group"] == group]
    groups_of = full.groupby(full["name"].str.lower())["group"].agg(lambda g: ";".join(sorted(set(g))))
    rows = []
    for _, entry in table.iterrows():
        row = dict(name=entry["name"], paper_name=entry["paper_name"], group=entry["group"],
                   groups=groups_of[entry["name"].lower()], in_paper=bool(entry["in_paper"]), available=False,
                   n_rows=pd.NA, n_features=pd.NA, n_nominal=pd.NA, n_classes=pd.NA, n_missing=pd.NA,
                   majority=np.nan, source="", note=entry["note"])
        try:
            data = load(entry["name"], entry["group"])
        except DatasetNotFoundError as error:
            row["source"] = str(error)
        else:
            row.update(available=True, source=data.source, n_rows=len(data.y), n_features=data.X.shape[1],
                       n_nominal=len(data.nominal_features), n_classes=len(data.classes),
                       n_missing=int(data.X.isna().to_numpy().sum()),
                       majority=float(np.bincount(data.y_codes).max() / len(data.y)))
        rows.append(row)
    counts = ["n_rows", "n_features", "n_nominal", "n_classes", "n_missing"]
    return pd.DataFrame(rows).astype(dict.fromkeys(counts, "Int64"))


def load_group(group: str) -> Iterator[Dataset]:
    """Yield the available datasets of a paper group, as the paper lists them (``in_paper`` rows).

    Missing datasets are skipped; :func:`list_datasets` says which.
    """
    if group not in GROUPS:
        raise ValueError(f"group must be one of {GROUPS}, got {group!r}")
    table = registry()
    for _, entry in table[(table["group"] == group) & table["in_paper"]].iterrows():
        try:
            yield load(entry["name"], group)
        except DatasetNotFoundError:
            continue


def dataset_status(group: str | None = None) -> pd.DataFrame:
    """Where each registry dataset is found, its size and its checksum status, without parsing any file.

    One row per registry row (of ``group``, or all). Columns: group, name, source (the first of
    :data:`SOURCES` that holds every file of the dataset, ``"missing"`` for a dataset no source
    has, ``"not found"`` for one absent from this machine), folder (the source's folder),
    files, bytes (their total size), checksum (``"ok"``, ``"mismatch: FILE"`` naming the first
    file whose sha256 differs from the registry's, ``"n/a"`` for package data, ``""`` when not
    found) and note. This is what ``credalbook datasets`` prints.
    """
    _check_group(group)
    table = registry()
    if group is not None:
        table = table[table["group"] == group]
    rows = []
    for _, entry in table.iterrows():
        row = dict(group=entry["group"], name=entry["name"], source="not found", folder="", files=entry["files"],
                   bytes=pd.NA, checksum="", note=entry["note"])
        if entry["status"] == "missing":
            row["source"] = "missing"
            rows.append(row)
            continue
        for source in SOURCES:
            if source == "package":
                if entry["sklearn"]:
                    row.update(source="package", folder="scikit-learn", checksum="n/a")
                    break
                continue
            folder, _ = source_folder(source)
            paths = [folder / f for f in _split(entry["files"])] if folder is not None else []
            if paths and all(p.is_file() for p in paths):
                bad = [p for p, sha in zip(paths, _split(entry["sha256"])) if _verified_sha(p) != sha]
                row.update(source=source, folder=str(folder), bytes=sum(p.stat().st_size for p in paths),
                           checksum=f"mismatch: {bad[0].relative_to(folder)}" if bad else "ok")
                break
        rows.append(row)
    return pd.DataFrame(rows).astype({"bytes": "Int64"})


# ---------------------------------------------------------------------------------------------
# Downloads
# ---------------------------------------------------------------------------------------------

class DownloadError(OSError):
    """A download that failed before any checksum could be checked (no network, HTTP error)."""


def _download(url: str, timeout: float = 60.0) -> bytes:
    """The bytes at ``url``, with a progress bar on a terminal."""
    from tqdm import tqdm

    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 - http(s) checked by fetch
            total = response.length
            chunks = []
            with tqdm(total=total, unit="B", unit_scale=True, desc=url.rsplit("/", 1)[-1], disable=None,
                      leave=False) as bar:
                for chunk in iter(lambda: response.read(1 << 16), b""):
                    chunks.append(chunk)
                    bar.update(len(chunk))
            return b"".join(chunks)
    except urllib.error.HTTPError as error:
        raise DownloadError(f"download of {url} failed: HTTP {error.code} {error.reason}") from None
    except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
        raise DownloadError(f"download of {url} failed: {getattr(error, 'reason', error)}") from None


def _check_base_url(base_url: str | None) -> None:
    if base_url is not None and not (isinstance(base_url, str) and re.match(r"https?://[^/\s]+", base_url)):
        raise ValueError(f"base_url must be an http:// or https:// address, got {base_url!r}")


def fetch(name: str, group: str | None = None, *, force: bool = False, base_url: str | None = None) -> list[Path]:
    """Download the files of dataset ``name`` into the download cache, checking their sha256.

    Without ``base_url`` the URLs are those of the registry: the raw files of the source
    repositories at their snapshot commits, so a fetched file is byte-identical to the book's
    copy and its sha256 can be checked (OpenML and UCI serve other serialisations of the same
    data, whose checksums the registry cannot vouch for). With ``base_url`` (``http(s)://...``)
    the files are read from a server holding a copy of the book's ``data/raw/`` folder, at
    ``base_url/<file>``. Files already in the cache with the right checksum are not downloaded
    again unless ``force``. Returns the cached paths. Raises ``DatasetNotFoundError`` for a
    dataset with no URL, :class:`DownloadError` when the server cannot be reached or refuses,
    and :class:`ChecksumError` for a download whose sha256 differs (nothing is then written).
    """
    _check_base_url(base_url)
    entry = _entry(name, group)
    files, shas = _split(entry["files"]), _split(entry["sha256"])
    if base_url is not None and entry["status"] != "missing":
        urls = [f"{base_url.rstrip('/')}/{urllib.parse.quote(relative)}" for relative in files]
    else:
        urls = _split(entry["urls"])
    if entry["status"] == "missing" or not urls:
        raise DatasetNotFoundError(f"{entry['name']} cannot be fetched: the registry has no verified URL for it"
                                   + (f" ({entry['note']})" if entry["note"] else ""))
    if not (len(files) == len(urls) == len(shas)):
        raise ValueError(f"registry row {entry['name']!r}: files, urls and sha256 must have the same length")
    target = cache_dir()
    paths = []
    for relative, url, sha in zip(files, urls, shas):
        path = target / relative
        if path.is_file() and not force and _verified_sha(path) == sha:
            paths.append(path)
            continue
        payload = _download(url)
        actual = hashlib.sha256(payload).hexdigest()
        if actual != sha:
            raise ChecksumError(f"download of {url} has sha256 {actual}, the registry expects {sha}; "
                                "not written to the cache")
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + f".part{os.getpid()}")
        temporary.write_bytes(payload)
        os.replace(temporary, path)
        paths.append(path)
    return paths
