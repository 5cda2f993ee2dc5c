"""A differential fuzz of the book's ARFF reader against Weka's own (issue 27).

Hypothesis writes ARFF files (quoting and escapes, bare and quoted ``?``, sparse rows, comments,
odd whitespace and line ends, numbers in every form Java reads, string and date attributes,
duplicate names and labels, stray characters) and each is read by :func:`credalbook.data.read_arff`
and by Weka's ``weka.core.converters.ArffLoader`` (through ``credalbook.weka``, the ``[weka]``
extra). The two must agree, or the book must refuse with an :class:`~credalbook.data.ArffFormatError`
naming the line. Files on which they disagree, and a sample of the others with what each outcome
covers, are written to ``tests/golden/arff/`` with Weka's reading beside them (``NAME.arff`` and
``NAME.weka.json``); ``tests/test_data_arff_golden.py`` replays them without Java.

    python scripts/arff_fuzz.py --examples 2000            # fuzz; print the tally and the disagreements
    python scripts/arff_fuzz.py --examples 2000 --write    # also add the interesting files to the corpus
    python scripts/arff_fuzz.py --refresh                  # re-read every corpus file with Weka
"""
from __future__ import annotations

import argparse
import json
import math
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "golden" / "arff"
SCRIPT = "scripts/arff_fuzz.py"


# ----------------------------------------------------------------------------------------------
# The two readings, in one JSON form
# ----------------------------------------------------------------------------------------------

def _number(value: float):
    """A numeric cell: the float, ``None`` for NaN (Weka's missing value), a string for an infinity."""
    if math.isnan(value):
        return None
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return float(value)


def weka_reading(path: Path) -> dict:
    """Weka's reading of an ARFF file: ``{"status": "read", "attributes": [...], "rows": [...]}`` or
    ``{"status": "refused", "error": ...}``. Attributes are ``{"name", "kind", "values"}`` with kind
    numeric, nominal (``values`` the declared labels) or text (Weka's string and date attributes)."""
    from jpype import JClass, JException

    from credalbook import weka

    weka.start_jvm()
    loader = JClass("weka.core.converters.ArffLoader")()
    try:
        loader.setSource(JClass("java.io.File")(str(path)))
        data = loader.getDataSet()
    except JException as error:
        return {"status": "refused", "error": str(error.message() or error.getClass().getName())[:300]}
    attributes, kinds = [], []
    for j in range(data.numAttributes()):
        attribute = data.attribute(j)
        if attribute.isNominal():
            kind = "nominal"
            values = [str(attribute.value(k)) for k in range(attribute.numValues())]
        elif attribute.isString() or attribute.isDate():
            kind, values = "text", None
        elif attribute.isNumeric():
            kind, values = "numeric", None
        else:
            return {"status": "refused", "error": f"attribute type {attribute.type()} (relational)"}
        kinds.append(kind)
        attributes.append({"name": str(attribute.name()), "kind": kind, "values": values})
    rows = []
    for i in range(data.numInstances()):
        instance = data.instance(i)
        row = []
        for j, kind in enumerate(kinds):
            if instance.isMissing(j):
                row.append(None)
            elif kind == "numeric":
                row.append(_number(float(instance.value(j))))
            else:
                try:
                    row.append(str(instance.stringValue(j)))
                except JException as error:  # a value Weka stored but cannot give back
                    return {"status": "refused", "error": f"value {j} of instance {i} unreadable: "
                                                          f"{error.getClass().getName()}: {error.message()}"[:300]}
        rows.append(row)
    return {"status": "read", "attributes": attributes, "rows": rows}


def book_reading(path: Path) -> dict:
    """The book's reading of an ARFF file in the form of :func:`weka_reading`; a refusal keeps the line
    its message names (``line``, None if it names none)."""
    import pandas as pd

    from credalbook.data import ArffFormatError, read_arff

    try:
        frame = read_arff(path)
    except ArffFormatError as error:
        match = re.search(r"line (\d+)", str(error))
        return {"status": "refused", "error": str(error).replace(str(path), path.name)[:300],
                "line": int(match.group(1)) if match else None}
    except Exception as error:  # noqa: BLE001 - any other exception is a bug of the reader, to be reported
        return {"status": "crashed", "error": f"{type(error).__name__}: {error}"[:300]}
    attributes, rows = [], [[] for _ in range(len(frame))]
    for name in frame.columns:
        column = frame[name]
        if isinstance(column.dtype, pd.CategoricalDtype):
            attributes.append({"name": name, "kind": "nominal", "values": [str(v) for v in column.cat.categories]})
            cells = [None if pd.isna(v) else str(v) for v in column.astype(object)]
        elif pd.api.types.is_float_dtype(column):
            attributes.append({"name": name, "kind": "numeric", "values": None})
            cells = [_number(float(v)) for v in column]
        else:
            attributes.append({"name": name, "kind": "text", "values": None})
            cells = [None if v is None or (isinstance(v, float) and math.isnan(v)) else str(v) for v in column]
        for row, cell in zip(rows, cells):
            row.append(cell)
    return {"status": "read", "attributes": attributes, "rows": rows}


def verdict(book: dict, weka: dict) -> str:
    """``agree`` (same reading, or both refuse), ``book refuses`` (with the line named), or a disagreement:
    ``book crashes`` (an exception other than ArffFormatError), ``book reads what Weka refuses``,
    ``book refuses without a line``, ``readings differ``."""
    if book["status"] == "crashed":
        return "book crashes"
    if book["status"] == "refused":
        if weka["status"] == "refused":
            return "agree"
        return "book refuses" if book.get("line") else "book refuses without a line"
    if weka["status"] == "refused":
        return "book reads what Weka refuses"
    same = book["attributes"] == weka["attributes"] and book["rows"] == weka["rows"]
    return "agree" if same else "readings differ"


DISAGREEMENTS = ("book crashes", "book reads what Weka refuses", "book refuses without a line", "readings differ")


# ----------------------------------------------------------------------------------------------
# The generator
# ----------------------------------------------------------------------------------------------

def _strategies():
    from hypothesis import strategies as st

    texts = st.lists(st.sampled_from(list("ab Z?,'\"\\%{}\t\n-_.é€") + ["x y", "\\n", "\\101"]),
                     max_size=5).map("".join)
    word = st.text(alphabet="abcXYZ019_-.éß+", min_size=1, max_size=4)
    numbers = st.one_of(
        st.integers(-1000, 1000).map(str),
        st.floats(allow_nan=False, allow_infinity=False, width=32).map(repr),
        st.sampled_from(["1e3", "-2.5E-2", ".5", "1.", "+3", "007", "NaN", "Infinity", "-Infinity", "1f", "2.5d",
                         "0x1p3", "0x1.8P1", "inf", "nan", "1_0", "1e", ".", "--1", "1.2.3", "½", "١", "1e5f",
                         "0X.8p0", "1d5", "Infinityf", "+NaN", "1E+02"]),
    )
    dates = st.one_of(
        st.builds(lambda y, m, d, h, mi, s: f"{y:04d}-{m:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}",
                  st.integers(1970, 2030), st.integers(1, 12), st.integers(1, 28), st.integers(0, 23),
                  st.integers(0, 59), st.integers(0, 59)),
        st.sampled_from(["2001-02-30T00:00:00", "2001-2-3T00:00:00", "2001-02-03", "2001-13-01T00:00:00",
                         "2001-02-03T24:00:00", "yesterday"]),
    )
    space = st.sampled_from(["", " ", "  ", "\t", " \t "])
    sep = st.sampled_from([",", ", ", " ,", " , ", "\t,", ",\t", " "])

    @st.composite
    def quoted(draw, value: str, may_be_bare: bool = True) -> str:
        """``value`` written as Weka would read it back: bare when it is one word, else quoted and escaped."""
        bare_ok = (value != "" and value != "?" and not re.search(r"[\x00-\x20,%'\"{}]", value))
        style = draw(st.sampled_from(["bare", "'", '"'])) if bare_ok and may_be_bare else draw(st.sampled_from(["'", '"']))
        if style == "bare":
            return value
        out = []
        for ch in value:
            if ch in (style, "\\"):
                out.append("\\" + ch)
            elif ch == "\n":
                out.append("\\n")
            elif ch == "\t" and draw(st.booleans()):
                out.append("\\t")
            elif ch.isalpha() and ch.isascii() and ch not in "abfnrtv" and draw(st.integers(0, 9)) == 0:
                out.append("\\" + ch)  # a needless escape: Java drops the backslash
            else:
                out.append(ch)
        return style + "".join(out) + style

    @st.composite
    def arff(draw) -> str:
        n_attributes = draw(st.integers(1, 5))
        names = draw(st.lists(st.one_of(word, texts.filter(bool)), min_size=n_attributes, max_size=n_attributes,
                              unique=draw(st.integers(0, 9)) > 0))
        lines = []
        if draw(st.booleans()):
            lines.append(draw(st.sampled_from(["% a comment", "%", "   % indented comment", ""])))
        lines.append(f"{draw(st.sampled_from(['@relation', '@RELATION', '@Relation']))} {draw(quoted(draw(word)))}")
        attributes = []
        for name in names:
            kind = draw(st.sampled_from(["numeric", "nominal", "nominal", "string", "date"]))
            head = f"{draw(st.sampled_from(['@attribute', '@ATTRIBUTE']))}{draw(st.sampled_from([' ', '  ', chr(9)]))}" \
                   f"{draw(quoted(name))}"
            if kind == "numeric":
                lines.append(f"{head} {draw(st.sampled_from(['numeric', 'real', 'integer', 'NUMERIC', 'Real']))}")
                attributes.append(("numeric", None))
            elif kind == "string":
                lines.append(f"{head} {draw(st.sampled_from(['string', 'STRING']))}")
                attributes.append(("string", None))
            elif kind == "date":
                fmt = draw(st.sampled_from([None, "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd"]))
                lines.append(f"{head} date" + ("" if fmt is None else f" {draw(quoted(fmt, may_be_bare=False))}"))
                attributes.append(("date", fmt or "yyyy-MM-dd'T'HH:mm:ss"))
            else:
                labels = draw(st.lists(st.one_of(word, texts, st.just("?")), min_size=1, max_size=4,
                                       unique=draw(st.integers(0, 9)) > 0))
                written = [draw(quoted(label)) for label in labels]
                body = "".join(w + (draw(sep) if i < len(written) - 1 else "") for i, w in enumerate(written))
                lines.append(f"{head}{draw(space)}{{{draw(space)}{body}{draw(space)}}}"
                             + draw(st.sampled_from(["", " % trailing comment", " "])))
                attributes.append(("nominal", labels))
        lines.append(draw(st.sampled_from(["@data", "@DATA", "@Data"])))

        def value(kind, extra):
            if draw(st.integers(0, 7)) == 0:
                return draw(st.sampled_from(["?", "'?'", '"?"', " ? "]))
            if kind == "numeric":
                return draw(quoted(draw(numbers)))
            if kind == "nominal":
                pool = extra + (["undeclared"] if draw(st.integers(0, 9)) == 0 else [])
                return draw(quoted(draw(st.sampled_from(pool))))
            if kind == "date":
                text = draw(dates)
                if extra == "yyyy-MM-dd" and draw(st.booleans()):
                    text = text[:10]
                return draw(quoted(text))
            return draw(quoted(draw(texts)))

        for _ in range(draw(st.integers(0, 4))):
            shape = draw(st.integers(0, 9))
            if shape == 0:
                lines.append(draw(st.sampled_from(["", "% comment in the data", "   ", "\t"])))
            elif shape == 1 and all(k != "string" and k != "date" for k, _ in attributes):
                chosen = sorted(draw(st.sets(st.integers(0, len(attributes) - 1))))
                items = [f"{i} {value(*attributes[i])}" for i in chosen]
                lines.append("{" + draw(sep).join(items) + "}")
            else:
                values = [value(*a) for a in attributes]
                if draw(st.integers(0, 14)) == 0:
                    values = values[:-1] if draw(st.booleans()) else values + ["extra"]
                lines.append(draw(space) + "".join(v + (draw(sep) if i < len(values) - 1 else "")
                                                   for i, v in enumerate(values)) + draw(space)
                             + draw(st.sampled_from(["", "", " % comment", "%x"])))
        newline = draw(st.sampled_from(["\n", "\n", "\r\n", "\r"]))
        text = newline.join(lines) + draw(st.sampled_from([newline, ""]))
        if draw(st.integers(0, 5)) == 0:  # a stray character anywhere
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.sampled_from(list(",'\"%{}\\?\t\x0c\x85\xa0 ") + ["\\n"])) + text[at:]
        return text

    return arff()


def fuzz(examples: int, seed: int = 0):
    """Read ``examples`` generated files with both readers: yields ``(text, book, weka, verdict)``."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as fixed_seed

    found = []
    folder = Path(tempfile.mkdtemp(prefix="arff-fuzz-"))

    @fixed_seed(seed)
    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck), derandomize=False)
    @given(_strategies())
    def run(text):
        path = folder / "x.arff"
        path.write_bytes(text.encode("utf-8"))
        book, weka = book_reading(path), weka_reading(path)
        found.append((text, book, weka, verdict(book, weka)))

    run()
    return found


def _kind_of_error(message: str) -> str:
    """The first words of an error message, without its file, lines, numbers and quoted parts."""
    message = re.sub(r"^.*?Reason: |^x\.arff: (line \d+: )?|java\.\w+\.\w+: ", "", message)
    message = re.sub(r"'[^']*'|\"[^\"]*\"|\(.*?\)|Token\[.*", " ", message)
    return " ".join(re.findall(r"[A-Za-z@]+", message)[:2])


def _features(text: str) -> tuple[str, ...]:
    """What a file that both read alike exercises (one corpus file is kept per new combination)."""
    data = re.split(r"@data", text, flags=re.IGNORECASE)[-1]
    checks = {"quoted ?": "'?'" in data or '"?"' in data, "bare ?": re.search(r"(^|[\s,])\?($|[\s,])", data),
              "sparse": re.search(r"^\s*\{", data, re.MULTILINE), "escape": "\\" in text,
              "comment after values": re.search(r"[^\s%]\s*%", data), "CR": "\r" in text,
              "date": re.search(r"\bdate\b", text, re.IGNORECASE), "string": re.search(r"\bstring\b", text, re.I),
              "java number": re.search(r"(?<![\w.])(NaN|Infinity|0[xX]|\d[fFdD]\b)", data),
              "odd character": re.search(r"[\x0b\x0c\x85\xa0]", text)}
    return tuple(name for name, hit in checks.items() if hit)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40]


def write_case(name: str, text: str, weka: dict, why: str) -> Path:
    """Add a file to the corpus: ``NAME.arff`` (the bytes) and ``NAME.weka.json``: Weka's reading, why the
    file is kept, and the verdict of the book's reading when it was written (the test keeps it)."""
    from credalbook import weka as weka_module

    CORPUS.mkdir(parents=True, exist_ok=True)
    path = CORPUS / f"{name}.arff"
    path.write_bytes(text.encode("utf-8"))
    outcome = verdict(book_reading(path), weka)
    record = {"why": why, "verdict": outcome, "weka_version": weka_module.versions()["weka"], "script": SCRIPT,
              "weka": weka}
    path.with_suffix(".weka.json").write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n",
                                              encoding="utf-8")
    return path


#: Hand-written cases: each issue-27 finding, and what the fuzz found Weka does that the book refuses.
CURATED = {
    "anneal-quoted-question-mark": (
        "@relation anneal\n@attribute family {'?',GB,GK}\n@attribute x numeric\n@data\n'?',1\n?,2\nGB,?\n",
        "a quoted '?' declared as a label is that label; a bare ? is missing (anneal writes '?')"),
    "duplicate-nominal-label": ("@relation r\n@attribute a {a, b, a}\n@data\na\n",
                                "{a, b, a}: Weka refuses a label declared twice; so does the book, naming line 2"),
    "duplicate-attribute-name": ("@relation r\n@attribute x numeric\n@attribute y numeric\n@attribute x real\n"
                                 "@data\n1,2,3\n", "two attributes named x: refused, line 4 named"),
    "escapes-in-quotes": ("@relation r\n@attribute s string\n@data\n'tab\\there'\n'it\\'s'\n\"q\\\"d\"\n"
                          "'\\101\\7\\08'\n'back\\\\slash'\n'\\z'\n",
                          "Java's escapes inside quotes: \\t, \\', \\\", octal (\\101 is A), \\\\, and \\z is z"),
    "values-separated-by-spaces": ("@relation r\n@attribute a {x,y}\n@attribute b numeric\n@data\nx 1\ny\t2\n",
                                   "spaces separate values as commas do"),
    "comment-after-values": ("@relation r\n@attribute a numeric\n@attribute b {p,'q%'}\n@data\n1,p % note\n"
                             "2,'q%'%note\n", "% starts a comment outside quotes, not inside"),
    "java-numbers": ("@relation r\n@attribute n numeric\n@data\n1f\n2.5d\n0x1p3\n0X.8p0\n.5\n1.\n+3\n1E+02\n"
                     "NaN\nInfinity\n-Infinity\n'7'\n", "numbers as Java's Double.valueOf reads them; NaN is missing"),
    "python-only-numbers": ("@relation r\n@attribute n numeric\n@data\n1_000\n", "1_000 is a number for Python only"),
    "python-only-infinity": ("@relation r\n@attribute n numeric\n@data\ninf\n", "inf is a number for Python only"),
    "sparse-rows": ("@relation r\n@attribute a numeric\n@attribute b {x,y}\n@attribute c numeric\n@data\n"
                    "{0 1.5, 2 ?}\n{1 y}\n{}\n{1 '?'}\n".replace("'?'", "x"),
                    "sparse rows: an omitted value is 0 or the first label; a bare ? is missing"),
    "sparse-out-of-order": ("@relation r\n@attribute a numeric\n@attribute b numeric\n@data\n{1 2, 0 1}\n",
                            "sparse indices out of order: Weka refuses, and so does the book"),
    "sparse-omits-a-string": ("@relation r\n@attribute a numeric\n@attribute s string\n@data\n{0 1}\n",
                              "a sparse row omitting a string: Weka reads it but cannot give the value back; the book refuses"),
    "extra-value-on-a-line": ("@relation r\n@attribute a numeric\n@data\n1,2\n",
                              "Weka drops a value beyond the attributes silently; the book refuses, naming the line"),
    "unterminated-quote": ("@relation r\n@attribute s string\n@data\n'open\n",
                           "Weka ends an unterminated quote at the line's end; the book refuses"),
    "brace-inside-a-value": ("@relation r\n@attribute a numeric\n@data\n1}5\n",
                             "Weka reads 1}5 as 1 and drops the rest; the book refuses"),
    "date-default-format": ("@relation r\n@attribute d date\n@data\n2001-02-03T04:05:06\n?\n",
                            "a date in Weka's default format is read as written"),
    "date-weka-reads-loosely": ("@relation r\n@attribute d date 'yyyy-MM-dd'\n@data\n2001-2-3T12:00:00\n",
                                "Weka reads 2001-2-3T12:00:00 as 2001-02-03; the book refuses what it would rewrite"),
    "no-relation": ("@attribute a numeric\n@data\n1\n", "Weka requires @relation first; so does the book"),
    "line-ends-cr-and-odd-characters": ("@relation r\r@attribute s string\r@data\r'a\x85b'\rc\xa0d\r'e\x0cf'\r",
                                        "CR line ends; NEL, NBSP and form feed inside values are not line ends"),
    "empty-label": ("@relation r\n@attribute a {'',b}\n@data\n''\nb\n", "an empty quoted label"),
    "keel-range": ("@relation r\n@attribute a real[0.5,2.5]\n@attribute c {x,y}\n@inputs a\n@outputs c\n@data\n"
                   "1.0,x\n", "KEEL's ranges and @inputs/@outputs: Weka refuses, the book reads its KEEL files"),
}
#: Cases where the book reads what Weka refuses, on purpose (KEEL's syntax, which the book's .dat files use).
BOOK_EXTENSIONS = ("keel-range",)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--write", action="store_true", help="add disagreements and one file per outcome to the corpus")
    parser.add_argument("--refresh", action="store_true", help="re-read every corpus file with Weka")
    parser.add_argument("--curated", action="store_true", help="write the hand-written cases (CURATED)")
    args = parser.parse_args(argv)
    if args.curated:
        folder = Path(tempfile.mkdtemp(prefix="arff-curated-"))
        for name, (text, why) in CURATED.items():
            (folder / "x.arff").write_bytes(text.encode("utf-8"))
            path = write_case(name, text, weka_reading(folder / "x.arff"), why)
            record = json.loads(path.with_suffix(".weka.json").read_text(encoding="utf-8"))
            print(f"{name:36s} Weka {record['weka']['status']:8s} {record['verdict']}")
        return 0
    if args.refresh:
        for path in sorted(CORPUS.glob("*.arff")):
            record = json.loads(path.with_suffix(".weka.json").read_text(encoding="utf-8"))
            write_case(path.stem, path.read_bytes().decode("utf-8"), weka_reading(path), record["why"])
        return 0
    results = fuzz(args.examples, args.seed)
    tally = Counter(v for *_, v in results)
    weka_tally = Counter(w["status"] for _, _, w, _ in results)
    print(f"{len(results)} files; Weka read {weka_tally['read']} and refused {weka_tally['refused']}; "
          + "; ".join(f"{k}: {n}" for k, n in sorted(tally.items())))
    seen, covered = set(), set()
    for text, book, weka, outcome in results:
        if outcome in DISAGREEMENTS:
            print(f"--- {outcome}\n{text!r}\n  book: {json.dumps(book)[:300]}\n  weka: {json.dumps(weka)[:300]}")
        key = (outcome, _kind_of_error(book.get("error", "")), _kind_of_error(weka.get("error", "")))
        new = key not in seen
        if outcome == "agree" and book["status"] == "read":  # kept if it reads something not yet covered
            features = set(_features(text)) | {"plain"}
            new, key = bool(features - covered), None
            covered.update(features)
        if args.write and (outcome in DISAGREEMENTS or new):
            seen.add(key)
            name = f"fuzz-{len(list(CORPUS.glob('fuzz-*.arff'))):03d}-{_slug(outcome)}"
            write_case(name, text, weka, f"fuzz seed {args.seed}: {outcome}")
    return 1 if any(v in DISAGREEMENTS for *_, v in results) else 0


if __name__ == "__main__":
    sys.exit(main())
