"""The book's Sphinx extension and table cells for readers (issue 25): values in the API reference
only when they read as a person writes them, signatures without closures' names, equations and
figures numbered per page with a prefix no paper uses, and table cells already in HTML."""
from __future__ import annotations

import yaml

from credalbook.book import tables
from credalbook.book.sphinx import page_prefixes, plain_value, readable_signature
from credalbook.book.build import repo_root


def test_plain_values_are_shown_and_machine_values_hidden():
    assert plain_value(7.0) and plain_value("ci") and plain_value(("ci", "full")) and plain_value(None)
    assert not plain_value({"acc": "$Acc$"})            # a mapping to TeX labels
    assert not plain_value(lambda x: x)                 # a function
    assert not plain_value("$Acc$") and not plain_value(tuple(range(40)))


def test_signatures_name_functions_instead_of_printing_them():
    def outer():
        def score(y):
            return y
        return score

    text = f"(y, key={outer()!r}, kwargs=<factory>, rng=<object object at 0x7f00aa11bb22>)"
    shown = readable_signature(text)
    assert "<locals>" not in shown and "0x" not in shown and "<factory>" not in shown
    assert "key=score" in shown and "rng=object()" in shown
    assert readable_signature("(x, y=2)") == "(x, y=2)"


def test_numbers_are_prefixed_by_part_and_page():
    toc = {"root": "chapters/intro",
           "parts": [{"caption": "The verdicts", "chapters": [{"file": "chapters/report"}]},
                     {"caption": "Part IV. The costs", "chapters": [{"file": "a"}, {"file": "b"}]},
                     {"caption": "Appendices", "chapters": [{"file": "d"}, {"file": "api/index",
                                                            "sections": [{"file": "api/data"}]}]}]}
    prefixes = page_prefixes(toc)
    assert prefixes == {"chapters/intro": ("0", "1"), "chapters/report": ("0", "2"), "a": ("4", "1"),
                        "b": ("4", "2"), "d": ("A", "1"), "api/index": ("A", "2"), "api/data": ("A", "2")}


def test_every_page_of_the_book_has_a_distinct_prefix():
    toc = yaml.safe_load((repo_root() / "_toc.yml").read_text(encoding="utf-8"))
    prefixes = page_prefixes(toc)
    top = [e["file"] for part in toc["parts"] for e in part["chapters"]] + [toc["root"]]
    assert set(top) <= set(prefixes)
    assert len({prefixes[page] for page in top}) == len(top)


def test_markup_cells_are_inserted_as_html_and_other_text_escaped():
    import pandas as pd

    frame = pd.DataFrame({"subset": ["{h, b}", "<b>"], "h": [tables.Markup("c<sub>{h, b}</sub>(h)"), "1"]})
    html = tables.show(frame).html
    assert "c<sub>{h, b}</sub>(h)" in html and "&lt;b&gt;" in html and "<b>" not in html.replace("<b>c", "")
