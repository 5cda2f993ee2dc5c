"""The table renderer: published tables beside the book's, and the book's own tables."""
import math
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from credalbook.book import ledger, tables
from credalbook.book.tables import format_number


@pytest.mark.parametrize("value, decimals, signed, expected", [
    (54.0, None, False, "54"),
    (1234567, None, False, "1,234,567"),
    (0.6667, 3, False, "0.667"),
    (-0.0123, 3, True, "\u22120.012"),
    (0.0123, 3, True, "+0.012"),
    (0, 2, True, "0"),
    (1e-7, 3, True, "\u00b10.000"),
    (float("nan"), 2, False, ""),
    (np.int64(5), None, False, "5"),
    (True, None, False, "yes"),
])
def test_format_number(value, decimals, signed, expected):
    assert format_number(value, decimals, signed=signed) == expected


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12),
       st.integers(min_value=0, max_value=6))
def test_format_number_never_prints_scientific_notation_and_keeps_the_value(value, decimals):
    text = format_number(value, decimals)
    assert "e" not in text.lower()
    parsed = float(text.replace(",", "").replace("\u2212", "-").replace("\u00b1", "")) if text != "0" else 0.0
    assert math.isclose(parsed, value, abs_tol=0.5 * 10 ** -decimals + 1e-9 * abs(value))


def test_format_number_refuses_text():
    with pytest.raises(TypeError, match="value must be a number"):
        format_number("0.5")


@pytest.mark.parametrize("name", ["zaffalon2012_ncc_krkp_table1", "yang2017_table12", "aguilar2025_table2"])
def test_comparison_is_the_ledgers_judgement_in_the_papers_layout(name):
    table = tables.comparison(name)
    rows = ledger.table_rows(name)
    assert table.frame["verdict"].tolist() == rows["verdict"].tolist()
    counts = table.frame["verdict"].value_counts()
    for verdict, n in counts.items():
        assert f"{n:,} {verdict}" in table.summary
    text = table.html
    assert ">nan<" not in text.lower() and not re.search(r"\d[eE][-+]\d", text)
    # every printed value of the paper appears as printed
    for printed in table.frame["printed"]:
        assert f">{printed}</td>" in text
    # a bold difference for every cell beyond its tolerance or judged not reproduced / erratum
    beyond = ((table.frame["difference"].abs() > table.frame["tolerance"] + 1e-12)
              | table.frame["verdict"].isin(["not reproduced", "erratum", "partly"])) & table.frame["difference"].notna()
    assert text.count("<b>") == int(beyond.sum())


def test_comparison_explains_every_difference_or_says_it_is_unexplained():
    table = tables.comparison("yang2017_table12")
    notes = re.findall(r"<li><sup>(\w)</sup> (.*?)</li>", table.html)
    assert notes and len({why for _, why in notes}) == len(notes)
    marks = set(re.findall(r"</b><sup>(\w)</sup>", table.html))
    assert marks <= {letter for letter, _ in notes}
    assert any(why.startswith("Unexplained") for _, why in notes)


def test_comparison_picks_measures_and_refuses_unknown_ones():
    table = tables.comparison("aguilar2025_table2", measures=["acc", "c_rho_pct"])
    assert set(table.frame["measure"]) == {"acc", "c_rho_pct"}
    with pytest.raises(ValueError, match="not columns of published table"):
        tables.comparison("aguilar2025_table2", measures=["accuracy"])


def test_long_comparisons_fold_under_their_summary():
    long = tables.comparison("aguilar2025_table2", collapse_after=5)
    short = tables.comparison("aguilar2025_table2", collapse_after=100)
    assert "<details>" in long.html and "<details>" not in short.html
    assert long.html.index(long.summary.split(":")[0]) < long.html.index("<details>")


def test_show_formats_for_reading():
    frame = pd.DataFrame({"datasets": [54.0, 3.0], "accuracy": [0.81234, np.nan], "verdict": ["reproduced", "erratum"],
                          "claim": ["a long sentence " * 10, "short"]},
                         index=pd.Index(["NCC", "NBC"], name="classifier"))
    table = tables.show(frame, decimals={"accuracy": 2})
    assert list(table.frame.columns[:2]) == ["classifier", "datasets"]    # the index became a column
    assert ">54<" in table.html and "5.400e+01" not in table.html and "54.0" not in table.html
    assert ">0.81<" in table.html and "nan" not in table.html.lower()
    assert tables.VERDICT_COLOURS["erratum"] in table.html
    assert "white-space:normal" in table.html                           # text wraps
    assert "…" not in table.html and ("a long sentence " * 10).strip() in table.html


def test_show_keeps_a_default_range_index_out_and_folds_long_tables():
    frame = pd.DataFrame({"x": range(40)})
    table = tables.show(frame, summary="forty rows")
    assert table.frame.columns.tolist() == ["x"] and "<details>" in table.html and "forty rows" in table.html


@pytest.mark.parametrize("bad, message", [
    ([1, 2], "frame must be a pandas DataFrame"),
    (pd.Series([1.0]), "frame must be a pandas DataFrame"),
])
def test_show_refuses_what_is_not_a_frame(bad, message):
    with pytest.raises(TypeError, match=message):
        tables.show(bad)


def test_show_refuses_decimals_for_unknown_columns():
    with pytest.raises(ValueError, match=r"decimals names columns \['y'\]"):
        tables.show(pd.DataFrame({"x": [1.5]}), decimals={"y": 2})


@pytest.mark.parametrize("text, expected", [
    ("within 1e-09", "within 10\u207b\u2079"),
    ("2.7e-13 and 1.26e-03", "2.7 \u00d7 10\u207b\u00b9\u00b3 and 1.26 \u00d7 10\u207b\u00b3"),
    ("3e+02 rows", "3 \u00d7 10\u00b2 rows"),
    ("version1e5 and x2e3 stay", "version1e5 and x2e3 stay"),
])
def test_readable_powers(text, expected):
    assert tables.readable_powers(text) == expected


def test_a_table_printed_as_fractions_is_shown_at_its_records_decimals():
    html = tables.comparison("yang2017_table4").html
    assert "0.333" in html and "0.333333" not in html and ">1/3<" in html  # the paper's line as printed


def test_a_count_among_proportions_stays_a_count_and_headers_are_readable():
    # Zaffalon et al. (2012) §9.1.3 prints medians (0.82) and counts of datasets (33) in one column
    table = tables.comparison("zaffalon2012_ncc_uci")
    numbers = re.findall(r">\+?(\d+(?:\.\d+)?)</t[dh]>", table.html)
    assert any(float(n) >= 2 for n in numbers)                       # the counts are there ...
    assert all(float(n) < 2 for n in numbers if "." in n)            # ... and none has decimals
    headers = re.findall(r"<th[^>]*>([^<]*)</th>", table.html)
    assert "feature selection" in headers and "feature_selection" not in headers
