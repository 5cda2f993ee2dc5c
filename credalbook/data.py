"""The book's datasets: one loader for every dataset of the four source papers.

``load(name, group)`` returns a :class:`Dataset` (features ``X`` as a DataFrame of float and
categorical columns, class labels ``y`` as a Categorical). What a dataset *is* (its file or
files, format, class attribute, the id/leakage columns to drop, its sha256 and expected size)
is written down once, in the registry ``credalbook/datasets.csv`` (installed with the package);
this module only reads it.

Sources, searched in this order (:data:`SOURCES`):

1. ``repository``: the book's own copy, ``data/raw/`` of the book named by ``$CREDALBOOK_ROOT``
   (``credalbook --root DIR``), else of the checkout the package lives in (every available
   dataset, with its origin, licence and citation in ``data/raw/README.md``);
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
  headerless files stay numeric, as the files give them. Missing values (a bare ``?``, or an
  empty CSV field) are NaN; a quoted ``'?'`` in an ARFF file is the value ``?``, as Weka reads it.
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

from credalbook._atomic import write_bytes
from credalbook._checkout import book_checkout

__all__ = ["GROUPS", "DatasetNotFoundError", "ChecksumError", "ArffFormatError", "Dataset", "read_arff",
           "read_delimited", "registry", "SOURCES", "repository_dir", "cache_dir", "load", "list_datasets",
           "load_group", "dataset_status", "DownloadError", "fetch"]

GROUPS = ("zaffalon2012", "aguilar2025", "yang2017", "ferri2019")
"""Paper groups; without ``group=``, a name found in several groups resolves in this order."""

_REGISTRY_COLUMNS = ["group", "name", "aliases", "in_paper", "status", "files", "format", "sep", "header",
                     "class_attribute", "drop", "sha256", "n_rows", "n_attributes", "n_classes", "sklearn", "urls",
                     "paper_name", "note"]


class DatasetNotFoundError(FileNotFoundError):
    """A dataset that no source (repository, mirror, package, download cache) can provide.

    Examples
    --------
    >>> from credalbook.data import DatasetNotFoundError, load
    >>> try:
    ...     load("no-such-dataset")
    ... except DatasetNotFoundError as error:
    ...     print(str(error)[:43])
    no dataset named 'no-such-dataset' in the r
    """


class ChecksumError(ValueError):
    """A data file whose sha256 differs from the registry's (a modified or truncated copy).

    Examples
    --------
    >>> from credalbook.data import ChecksumError
    >>> issubclass(ChecksumError, ValueError)  # a file whose sha256 differs from the registry's
    True
    """


class ArffFormatError(ValueError):
    """A malformed ARFF/KEEL file (the message gives the file and line).

    Examples
    --------
    >>> from credalbook.data import ArffFormatError, read_arff
    >>> try:
    ...     read_arff("toy.arff", text="@relation toy\\n@attribute x {a, b}\\n@data\\nc\\n")
    ... except ArffFormatError as error:
    ...     print(error)
    toy.arff: line 4: nominal attribute 'x' has undeclared values ['c']
    """


@dataclass(frozen=True)
class Dataset:
    """A loaded dataset: features ``X`` (float or Categorical columns) and class labels ``y``.

    ``source`` says where the data came from: ``"<source>:<files>"`` with a source of
    :data:`SOURCES` and the files relative to it (``repository:uci/iris.arff``), or
    ``package:sklearn.load_wine``; ``group`` is the paper group whose class convention was applied.

    Examples
    --------
    >>> from credalbook.data import load
    >>> iris = load("iris")
    >>> iris.X.shape, iris.classes[:2], iris.y_codes[:3].tolist()
    ((150, 4), ['Iris-setosa', 'Iris-versicolor'], [0, 0, 0])
    """

    name: str
    X: pd.DataFrame
    y: pd.Series
    source: str
    group: str | None

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"name must be a non-empty string, got {self.name!r}")
        if not isinstance(self.X, pd.DataFrame):
            raise TypeError(f"X must be a pandas DataFrame, got {type(self.X).__name__}")
        if not isinstance(self.y, pd.Series) or not isinstance(self.y.dtype, pd.CategoricalDtype):
            raise TypeError("y must be a pandas Series of Categorical dtype (its categories are the classes), "
                            f"got {type(self.y).__name__} of dtype {getattr(self.y, 'dtype', None)}")
        if len(self.y) != len(self.X):
            raise ValueError(f"y has {len(self.y)} labels for the {len(self.X)} rows of X")

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

#: Bytes that begin a multi-byte UTF-8 character, followed by its continuation bytes.
_UTF8_MULTIBYTE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")


def _decode(raw: bytes, path, encoding: str | None = None) -> str:
    """The text of a file: ``encoding`` when given, else detected for the whole file.

    UTF-8 when every byte decodes as UTF-8 (a leading byte-order mark dropped); latin-1 when the
    file holds bytes above 127 but not one UTF-8 character (a file written in latin-1 throughout);
    otherwise, a file mixing UTF-8 characters with bytes that are not UTF-8, an
    :class:`ArffFormatError` naming the first such line, rather than reading the whole file as
    latin-1 and garbling every UTF-8 character in it.
    """
    if encoding is not None:
        try:
            return raw.decode(encoding)
        except LookupError:
            raise ValueError(f"encoding must be a codec name such as 'utf-8' or 'latin-1', got {encoding!r}") from None
        except UnicodeDecodeError as error:
            line = raw.count(b"\n", 0, error.start) + 1
            raise ArffFormatError(f"{path}: line {line}: byte {raw[error.start]:#04x} is not {encoding}") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        if _UTF8_MULTIBYTE.search(raw):
            line = raw.count(b"\n", 0, error.start) + 1
            raise ArffFormatError(
                f"{path}: line {line}: byte {raw[error.start]:#04x} is not UTF-8, while other lines hold UTF-8 "
                "characters: the file mixes encodings; fix the byte, or pass encoding= (e.g. 'latin-1') to "
                "read the whole file in one encoding") from None
        return raw.decode("latin-1")


# Weka's tokens (weka.core.converters.ArffLoader sets up java.io.StreamTokenizer): characters up
# to the space and commas separate tokens; '%' starts a comment; '...' and "..." are quoted
# tokens (backslash escapes as in Java); '{' and '}' are tokens of their own; anything else is
# part of a word. A bare ? is a missing value, a quoted '?' the value ?.
_SPECIAL = re.compile(r"['\"%{}\\\x00-\x08\x0e-\x1b]")
_WORDS = re.compile(r"[^\x00-\x20,]+")
_LINE_END = re.compile(r"\r\n|\r|\n")
_ODD_LINE_ENDS = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
_ESCAPES = {"a": "\x07", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\x0b"}
_WORD, _QUOTED, _BRACE = 0, 1, 2


def _lines(text: str) -> list[str]:
    """Lines ended by \\n, \\r or \\r\\n only (Java's), not by the other characters ``str.splitlines`` splits on."""
    if any(ch in text for ch in _ODD_LINE_ENDS):
        return _LINE_END.split(text)
    return text.splitlines()


def _scan(line: str) -> list[tuple[str, int]]:
    """The tokens of one line as ``(text, kind)``, kind word, quoted or brace (see the comment above)."""
    tokens, i, n = [], 0, len(line)
    while i < n:
        ch = line[i]
        if ch <= " " or ch == ",":
            i += 1
        elif ch == "%":
            break
        elif ch in "{}":
            tokens.append((ch, _BRACE))
            i += 1
        elif ch in "'\"":
            quote, i, text = ch, i + 1, []
            while True:
                if i >= n:
                    raise ValueError(f"unterminated quote {quote} in {line.strip()[:60]!r}")
                ch = line[i]
                if ch == quote:
                    i += 1
                    break
                if ch == "\\" and i + 1 < n:
                    ch = line[i + 1]
                    i += 2
                    if "0" <= ch <= "7":  # octal, as Java reads it: up to three digits, the first <= 3
                        digits = ch
                        while len(digits) < (3 if digits[0] <= "3" else 2) and i < n and "0" <= line[i] <= "7":
                            digits += line[i]
                            i += 1
                        ch = chr(int(digits, 8))
                    else:
                        ch = _ESCAPES.get(ch, ch)
                else:
                    i += 1
                text.append(ch)
            tokens.append(("".join(text), _QUOTED))
        else:
            start = i
            while i < n and line[i] > " " and line[i] not in ",%'\"{}":
                i += 1
            tokens.append((line[start:i], _WORD))
    return tokens


def _values(tokens: list[tuple[str, int]]) -> list[str | None]:
    """Values of scanned tokens: a bare ? is None (missing); a brace is refused."""
    values = []
    for text, kind in tokens:
        if kind == _BRACE:
            raise ValueError(f"unexpected {text!r} among the values (quote a value holding braces)")
        values.append(None if kind == _WORD and text == "?" else text)
    return values


def _parse_attribute(tokens: list[tuple[str, int]], line: str) -> tuple[str, str, list[str] | None]:
    """The tokens after ``@attribute`` -> (name, kind, declared values or None)."""
    if not tokens or tokens[0][1] == _BRACE:
        raise ValueError("attribute without a name")
    name = tokens[0][0]
    if len(tokens) < 2:
        raise ValueError(f"attribute {name!r} has no type")
    spec, kind = tokens[1]
    if kind == _BRACE and spec == "{":
        values = []
        for text, kind in tokens[2:]:
            if kind == _BRACE:
                if text == "{":
                    raise ValueError(f"nominal declaration of {name!r} holds a '{{'")
                break
            values.append(text)
        else:
            raise ValueError(f"nominal declaration of {name!r} has no closing brace")
        rest = tokens[2 + len(values) + 1:]
        if rest:
            raise ValueError(f"nominal declaration of {name!r} is followed by {rest[0][0]!r}")
        seen = set()
        for value in values:
            if value in seen:
                raise ValueError(f"nominal attribute {name!r} declares the value {value!r} twice")
            seen.add(value)
        return name, "nominal", values
    # a type word, or one followed by KEEL's range (``real[0.5,2.5]``)
    typed = re.fullmatch(r"([A-Za-z]+)(?:\[.*)?", spec) if kind == _WORD else None
    type_name = typed.group(1).lower() if typed else ""
    if type_name in _NUMERIC_TYPES:
        return name, "numeric", None
    if type_name == "string":
        return name, "string", None
    if type_name == "date":
        fmt = tokens[2][0] if len(tokens) > 2 and tokens[2][1] != _BRACE else _WEKA_DATE
        _date_pattern(fmt)  # a format the book cannot check is refused here, on its line
        return name, "date", [fmt]
    raise ValueError(f"attribute {name!r} has unknown type {line.split(None, 2)[-1][:60]!r}")


#: Weka's default date format (java.text.SimpleDateFormat), ISO 8601.
_WEKA_DATE = "yyyy-MM-dd'T'HH:mm:ss"
_DATE_FIELDS = {"yyyy": (r"\d{4}", "%Y"), "MM": (r"\d{2}", "%m"), "dd": (r"\d{2}", "%d"), "HH": (r"\d{2}", "%H"),
                "mm": (r"\d{2}", "%M"), "ss": (r"\d{2}", "%S")}


@lru_cache(maxsize=32)
def _date_pattern(fmt: str) -> tuple[re.Pattern, str]:
    """(regex, strptime format) of a SimpleDateFormat pattern made of yyyy MM dd HH mm ss and quoted or
    punctuation literals; other pattern letters are refused."""
    regex, strp, i = [], [], 0
    while i < len(fmt):
        for field, (pattern, directive) in _DATE_FIELDS.items():
            if fmt.startswith(field, i):
                regex.append(pattern)
                strp.append(directive)
                i += len(field)
                break
        else:
            ch = fmt[i]
            if ch == "'":
                end = fmt.find("'", i + 1)
                if end < 0:
                    raise ValueError(f"date format {fmt!r} has an unterminated quote")
                literal = fmt[i + 1:end] or "'"
                i = end + 1
            elif ch.isalpha():
                raise ValueError(f"date format {fmt!r}: pattern letter {ch!r} is not supported (only yyyy MM dd "
                                 "HH mm ss)")
            else:
                literal, i = ch, i + 1
            regex.append(re.escape(literal))
            strp.append(literal.replace("%", "%%"))
    return re.compile("".join(regex)), "".join(strp)


def _check_dates(name: str, values: np.ndarray, fmt: str) -> None:
    """Every value of date attribute ``name`` is a valid date written wholly in ``fmt``, so that Weka reads it
    as written (Weka's parser accepts more, e.g. one-digit months and text after the date, and reads them
    as another string); ``ValueError(value)`` for the first other."""
    from datetime import datetime

    pattern, strp = _date_pattern(fmt)
    for value in values:
        if pattern.fullmatch(value):
            try:
                datetime.strptime(value, strp)
                continue
            except ValueError:
                pass
        raise ValueError(value)


# Java's Double.valueOf: decimal (an f/F/d/D suffix allowed), hexadecimal with a binary exponent, NaN, Infinity.
_JAVA_DOUBLE = re.compile(r"([+-]?)(?:(NaN|Infinity)|(0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)"
                          r"[pP][+-]?[0-9]+)[fFdD]?|((?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)[fFdD]?)")
_PLAIN_NUMBER = frozenset("0123456789.eE+-")


def _java_double(text: str) -> float:
    match = _JAVA_DOUBLE.fullmatch(text)
    if match is None:
        raise ValueError(text)
    sign, special, hexadecimal, decimal = match.groups()
    if special:
        return float(sign + ("nan" if special == "NaN" else "inf"))
    if hexadecimal:
        return float.fromhex(sign + hexadecimal)
    return float(sign + decimal)


def _numbers(values: np.ndarray) -> np.ndarray:
    """Values read as Weka reads numbers (Java's ``Double.valueOf``); ``ValueError(value)`` for the first other."""
    if _PLAIN_NUMBER.issuperset("".join(values)):  # digits, points, signs and exponents: Python reads them alike
        try:
            return values.astype(np.float64)
        except ValueError:
            pass
    return np.array([_java_double(v) for v in values], dtype=np.float64)


def read_arff(path: str | os.PathLike, text: str | None = None, *, encoding: str | None = None) -> pd.DataFrame:
    """Read a Weka ARFF or KEEL ``.dat`` file into a DataFrame (float / Categorical / object columns).

    The values are read as Weka's ``ArffLoader`` reads them: tokens separated by commas or
    spaces, ``'...'`` and ``"..."`` quoted (with Java's backslash escapes), ``%`` starting a
    comment, a bare ``?`` missing while a quoted ``'?'`` is the value ``?`` (anneal declares and
    writes it), numbers as Java's ``Double.valueOf`` reads them, sparse ``{index value, ...}`` rows
    (an omitted value is 0, or the first declared value), ``string`` and ``date`` attributes (kept
    as text; dates checked against their format). What Weka refuses is refused, with the line: a
    value outside its nominal declaration, a nominal value declared twice (``{a, b, a}``), two
    attributes of the same name. Also read, beyond Weka: KEEL's ``@inputs`` / ``@outputs`` lines
    and ``integer [lo, hi]`` ranges. Nominal columns keep the
    declared value order. ``encoding`` names the file's encoding; without it the file is read as
    UTF-8, or as latin-1 when it holds no UTF-8 character, and a file mixing the two is refused
    (the line named). ``text`` gives the file's content instead of reading ``path``.

    Examples
    --------
    >>> from credalbook.data import read_arff
    >>> text = "@relation toy\\n@attribute x numeric\\n@attribute class {yes, no}\\n@data\\n1.5, yes\\n?, 'no'\\n"
    >>> frame = read_arff("toy.arff", text=text)
    >>> frame["x"].tolist(), list(frame["class"].cat.categories)
    ([1.5, nan], ['yes', 'no'])
    """
    path = Path(path)
    if text is None:
        text = _decode(path.read_bytes(), path, encoding)
    elif not isinstance(text, str):
        raise ValueError(f"text must be a string, got {type(text).__name__}")
    elif encoding is not None:
        raise ValueError("encoding applies to a file's bytes: pass it without text (text is already decoded)")
    attributes: list[tuple[str, str, list[str] | None]] = []
    names: dict[str, int] = {}
    rows: list[list[str | None]] = []
    in_data = relation = False
    for number, line in enumerate(_lines(text), start=1):
        try:
            if in_data and _SPECIAL.search(line) is None:
                # on ASCII lines without other control characters, str.split's whitespace is Weka's
                values = line.replace(",", " ").split() if line.isascii() else _WORDS.findall(line)
                if not values:
                    continue
                if "?" in values:
                    values = [None if v == "?" else v for v in values]
                if len(values) != len(attributes):
                    raise ValueError(f"{len(values)} values for {len(attributes)} attributes")
                rows.append(values)
                continue
            tokens = _scan(line)
            if not tokens:
                continue
            if in_data:
                if tokens[0] == ("{", _BRACE):
                    rows.append(_sparse_row(tokens, attributes))
                    continue
                values = _values(tokens)
                if len(values) != len(attributes):
                    raise ValueError(f"{len(values)} values for {len(attributes)} attributes")
                rows.append(values)
                continue
            keyword = tokens[0][0].lower() if tokens[0][1] == _WORD else ""
            if keyword != "@relation" and not relation:
                raise ValueError(f"@relation expected before {line.strip()[:60]!r} (Weka requires it first)")
            if keyword == "@relation":
                relation = True
            elif keyword == "@attribute":
                attribute = _parse_attribute(tokens[1:], line)
                if attribute[0] in names:
                    raise ValueError(f"attribute {attribute[0]!r} declared twice (first on line "
                                     f"{names[attribute[0]]})")
                names[attribute[0]] = number
                attributes.append(attribute)
            elif keyword == "@data":
                in_data = True
                if not attributes:
                    raise ValueError("@data before any @attribute")
            elif keyword in {"@inputs", "@outputs", "@input", "@output"}:
                pass
            else:
                raise ValueError(f"unexpected header line {line.strip()[:60]!r}")
        except ValueError as error:
            raise ArffFormatError(f"{path}: line {number}: {error}") from None
    if not in_data:
        raise ArffFormatError(f"{path}: no @data section")
    columns = list(zip(*rows)) if rows else [()] * len(attributes)
    frame = {}
    for (name, kind, declared), column in zip(attributes, columns):
        raw = np.array(column, dtype=object)
        missing = np.equal(raw, None)
        if kind == "numeric":
            numbers = np.full(len(raw), np.nan)
            try:
                numbers[~missing] = _numbers(raw[~missing])
            except ValueError as error:
                raise ArffFormatError(f"{path}: line {_line_of(text, raw, str(error))}: numeric attribute "
                                      f"{name!r} has value {str(error)!r}") from None
            frame[name] = numbers
        elif kind == "nominal":
            unknown = sorted(set(raw[~missing]) - set(declared))
            if unknown:
                raise ArffFormatError(f"{path}: line {_line_of(text, raw, unknown[0])}: nominal attribute "
                                      f"{name!r} has undeclared values {unknown[:5]}")
            frame[name] = pd.Categorical(raw, categories=declared)
        else:
            if kind == "date":
                try:
                    _check_dates(name, raw[~missing], declared[0])
                except ValueError as error:
                    raise ArffFormatError(f"{path}: line {_line_of(text, raw, str(error))}: date attribute "
                                          f"{name!r} has value {str(error)!r}, not a date of the form "
                                          f"{declared[0]!r}") from None
            frame[name] = raw
    return pd.DataFrame(frame)


def _line_of(text: str, column: np.ndarray, value: str) -> str:
    """The line number of the first data row whose value in ``column`` is ``value`` (for error messages)."""
    row = int(np.flatnonzero(column == value)[0])
    seen = -1
    in_data = False
    for number, line in enumerate(_lines(text), start=1):
        tokens = _scan(line) if in_data or "@" in line else []
        if not in_data:
            in_data = bool(tokens) and tokens[0][1] == _WORD and tokens[0][0].lower() == "@data"
            continue
        if tokens:
            seen += 1
            if seen == row:
                return str(number)
    return "?"


def _sparse_row(tokens: list[tuple[str, int]], attributes) -> list[str | None]:
    """A sparse row ``{i v, j w}`` (indices increasing): an omitted numeric value is 0, an omitted nominal
    value the first declared one (Weka's conventions); a string or date attribute cannot be omitted."""
    if tokens[-1] != ("}", _BRACE):
        raise ValueError("sparse row without closing brace (or with something after it)")
    body = tokens[1:-1]
    if any(kind == _BRACE for _, kind in body):
        raise ValueError("a brace inside a sparse row")
    if len(body) % 2:
        raise ValueError("a sparse row must list index value pairs")
    given, previous = {}, -1
    for (index, _), (value, kind) in zip(body[::2], body[1::2]):
        try:
            position = int(index)
        except ValueError:
            raise ValueError(f"sparse index {index!r} is not an integer") from None
        if not 0 <= position < len(attributes):
            raise ValueError(f"sparse index {position} outside 0..{len(attributes) - 1}")
        if position <= previous:
            raise ValueError(f"sparse indices must increase, got {position} after {previous}")
        previous = position
        given[position] = None if kind == _WORD and value == "?" else value
    values = []
    for position, (name, kind, declared) in enumerate(attributes):
        if position in given:
            values.append(given[position])
        elif kind == "numeric":
            values.append("0")
        elif kind == "nominal" and declared:
            values.append(declared[0])
        else:
            raise ValueError(f"sparse row omits {kind} attribute {name!r}, which has no default value")
    return values


def read_delimited(path: str | os.PathLike, *, sep: str = ",", header: bool = True) -> pd.DataFrame:
    """Read a CSV (``sep``) or whitespace (``sep="whitespace"``) file; headerless columns are ``col1..colK``.

    Column names are stripped of surrounding spaces; ``?`` and empty fields are missing.
    Numeric columns come back float64, text columns as object (nominal columns as pandas Categoricals).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from credalbook.data import read_delimited
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "toy.csv"
    >>> _ = path.write_text("x, colour\\n1, red\\n?, blue\\n")
    >>> frame = read_delimited(path)
    >>> list(frame.columns), frame["x"].tolist()
    (['x', 'colour'], [1.0, nan])
    """
    if not isinstance(sep, str) or not sep:
        raise ValueError(f"sep must be a non-empty string (a delimiter, or 'whitespace'), got {sep!r}")
    if not isinstance(header, (bool, np.bool_)):
        raise TypeError(f"header must be a bool, got {header!r}")
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

def _registry_path() -> Path:
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
    """The dataset registry (one row per dataset and paper group), as strings and nullable ints.

    Examples
    --------
    >>> from credalbook.data import registry
    >>> table = registry()
    >>> {"name", "group", "files", "sha256"} <= set(table.columns)
    True
    """
    path = _registry_path()
    return _registry_cached(str(path), path.stat().st_mtime).copy()


SOURCES = ("repository", "mirror", "package", "cache")
"""Where :func:`load` looks, in this order (see the module docstring)."""


def repository_dir() -> Path | None:
    """The book's own copy of the data: ``data/raw/`` of the book named by ``$CREDALBOOK_ROOT``
    (``credalbook --root DIR`` sets it), else of the checkout the package lives in; None when that
    folder is not a book (no ``_toc.yml``: a package installed without the book's repository).

    Examples
    --------
    >>> from credalbook.data import repository_dir
    >>> folder = repository_dir()  # None in a package installed without the book's repository
    >>> folder is None or folder.name == "raw"
    True
    """
    checkout = book_checkout()
    return None if checkout is None else checkout / "data" / "raw"


def _mirror_dir() -> Path | None:
    """A folder with the layout of ``data/raw/`` named by ``$CREDALBOOK_DATA_MIRROR``, or None when unset."""
    env = os.environ.get("CREDALBOOK_DATA_MIRROR")
    return Path(env) if env else None


def cache_dir() -> Path:
    """The download cache: ``$CREDALBOOK_DATA_CACHE``, else ``~/.cache/credalbook/downloads``.

    Examples
    --------
    >>> import os
    >>> from credalbook.data import cache_dir
    >>> folder = cache_dir()  # $CREDALBOOK_DATA_CACHE, else ~/.cache/credalbook/downloads
    >>> "CREDALBOOK_DATA_CACHE" in os.environ or folder.parts[-3:] == (".cache", "credalbook", "downloads")
    True
    """
    env = os.environ.get("CREDALBOOK_DATA_CACHE")
    if env:
        return Path(env)
    return Path.home() / ".cache" / "credalbook" / "downloads"


def _source_folder(source: str) -> tuple[Path | None, str]:
    """The folder of a folder source (``repository``, ``mirror``, ``cache``) and how to change it."""
    if source == "repository":
        chosen = os.environ.get("CREDALBOOK_ROOT")
        where = (f"CREDALBOOK_ROOT={chosen}, which has no _toc.yml" if chosen and repository_dir() is None
                 else "set CREDALBOOK_ROOT or pass --root to name a clone")
        return repository_dir(), f"the book's data/raw, present in a clone of its repository; {where}"
    if source == "mirror":
        return _mirror_dir(), "set CREDALBOOK_DATA_MIRROR"
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
        raise DatasetNotFoundError(f"no dataset named {name!r}{where} in the registry {_registry_path()}; "
                                   f"known names: {', '.join(sorted(set(known['name'])))}")
    exact = hits[hits["name"].map(_normalise) == key]
    hits = exact if not exact.empty else hits
    order = {g: i for i, g in enumerate(GROUPS)}
    return hits.iloc[int(np.argmin(hits["group"].map(order).to_numpy()))]


def _sha256_of(path: str | os.PathLike) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@lru_cache(maxsize=512)
def _sha256_cached(path: str, size: int, mtime_ns: int) -> str:
    return _sha256_of(path)


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
        folder, hint = _source_folder(source)
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

    Examples
    --------
    >>> from credalbook.data import load
    >>> glass = load("glass", "zaffalon2012")
    >>> glass.X.shape, len(glass.classes)
    ((214, 9), 6)
    """
    if not isinstance(declared_classes, (bool, np.bool_)):
        raise TypeError(f"declared_classes must be a bool, got {declared_classes!r}")
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

    Examples
    --------
    >>> from credalbook.data import list_datasets
    >>> table = list_datasets("zaffalon2012")  # loads every file: a few seconds  # doctest: +SKIP
    >>> table.loc[table["name"] == "glass", ["n_rows", "n_classes"]].to_numpy().tolist()  # doctest: +SKIP
    [[214, 6]]
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

    Examples
    --------
    >>> from credalbook.data import load_group
    >>> first = next(load_group("zaffalon2012"))
    >>> type(first).__name__
    'Dataset'
    """
    if group not in GROUPS:
        raise ValueError(f"group must be one of {GROUPS}, got {group!r}")
    table = registry()
    return _load_rows(table[(table["group"] == group) & table["in_paper"]], group)


def _load_rows(table: pd.DataFrame, group: str) -> Iterator[Dataset]:
    for _, entry in table.iterrows():
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

    Examples
    --------
    >>> from credalbook.data import dataset_status
    >>> status = dataset_status("zaffalon2012")  # no file parsed
    >>> list(status.columns)
    ['group', 'name', 'source', 'folder', 'files', 'bytes', 'checksum', 'note']
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
            folder, _ = _source_folder(source)
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
    """A download that failed before any checksum could be checked (no network, HTTP error).

    Examples
    --------
    >>> from credalbook.data import DownloadError
    >>> issubclass(DownloadError, OSError)  # fetch could not reach the server or was refused
    True
    """


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

    Examples
    --------
    >>> from credalbook.data import fetch
    >>> paths = fetch("iris")  # downloads into cache_dir(), checking each file's sha256  # doctest: +SKIP
    """
    _check_base_url(base_url)
    if not isinstance(force, (bool, np.bool_)):
        raise TypeError(f"force must be a bool, got {force!r}")
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
        write_bytes(path, payload)  # a temporary file beside it, then a rename: never half a file
        paths.append(path)
    return paths
