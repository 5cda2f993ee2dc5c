"""A Sphinx extension for the book: document only what the package defines, print no machine
text, and read at any width.

- scikit-learn attaches methods to estimators at class creation (``set_score_request`` and its
  kin, from its metadata routing); they are scikit-learn's to document, not the book's.
- Module data and attributes show their value only when it reads as a reader would write it (a
  number, a short string, a short tuple of them): a dict of scorers, a function or a mapping to
  TeX labels is described by its ``#:`` comment instead of printed as a Python repr.
- Default values in signatures print a function by its name, never ``<function f.<locals>.g>``.
- Figures, tables and equations are numbered per page, prefixed by the page's place in the book
  (Part IV's second page: Fig. 4.2.1, Eq. (4.2.3); the landing page and the report 0.1 and 0.2,
  the appendices A.1, A.2, ...), so that the book's numbers never read as the papers' own
  (Sphinx's numfig would number them through the whole book, Eq. (96)).
- Search ranks the chapters first and the reference of the book's machinery (ledger,
  experiments) last (``_static/search_scorer.js.txt``).
- A captioned figure's image without alt text takes its caption as alt text.
- The book's stylesheet (``_static/credalbook.css`` in the checkout) is added to every page:
  wide tables and code scroll inside their own box, display equations scroll, nothing makes the
  page wider than the window.
"""
from __future__ import annotations

import re
from pathlib import Path

__all__ = ["setup", "plain_value", "readable_signature", "page_prefixes"]

#: Longest value repr the API reference prints beside a name (longer ones are left to the docstring).
MAX_VALUE_CHARS = 60

_FUNCTION = re.compile(r"<(?:function|built-in function|bound method) ((?:[\w.]|<locals>)+)(?: at 0x[0-9a-f]+)?>")


def plain_value(value) -> bool:
    """Whether ``value`` prints as a reader would write it: a number, a bool, ``None``, a short
    string without TeX, or a short tuple/list of those (at most ``MAX_VALUE_CHARS`` characters)."""
    if value is None or isinstance(value, (bool, int, float)):
        return True
    if isinstance(value, str):
        return len(value) <= MAX_VALUE_CHARS and "$" not in value and "\\" not in value
    if isinstance(value, (tuple, list, frozenset)):
        return len(repr(value)) <= MAX_VALUE_CHARS and all(plain_value(v) for v in value)
    return False


def readable_signature(text: str | None) -> str | None:
    """A signature with every function default named (``<function f.<locals>.g at 0x…>`` -> ``g``),
    a dataclass field's ``<factory>`` as ``…``, and any other object repr with an address shortened
    to its class (``<Foo object at 0x…>`` -> ``Foo()``)."""
    if not text:
        return text
    text = _FUNCTION.sub(lambda m: m.group(1).rsplit(".", 1)[-1], text).replace("<factory>", "…")
    return re.sub(r"<([\w.]+) object at 0x[0-9a-f]+>", lambda m: m.group(1).rsplit(".", 1)[-1] + "()", text)


_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9, "X": 10}


def page_prefixes(toc: dict) -> dict[str, tuple[str, str]]:
    """Each page of a jupyter-book ``_toc.yml`` (read as a dict) -> (part, page) for its numbers:
    a part captioned "Part IV. ..." is 4, the appendices are A, the root and any other part 0;
    pages are counted from 1 within their part (the root is page 1 of part 0). Sections nested
    under a page share its prefix."""
    prefixes = {str(toc["root"]): ("0", "1")}
    for part in toc.get("parts", []):
        caption = str(part.get("caption", ""))
        word = caption.split(".")[0].split()
        if len(word) == 2 and word[0] == "Part" and word[1] in _ROMAN:
            label = str(_ROMAN[word[1]])
        elif caption.lower().startswith("append"):
            label = "A"
        else:
            label = "0"
        position = sum(1 for key in prefixes.values() if key[0] == label)

        def walk(entries, prefix=None):
            nonlocal position
            for entry in entries:
                if prefix is None:
                    position += 1
                key = prefix or (label, str(position))
                prefixes.setdefault(str(entry["file"]), key)
                walk(entry.get("sections", []), key)

        walk(part.get("chapters", []))
    return prefixes


def _book_prefixes() -> dict[str, tuple[str, str]]:
    import yaml

    from credalbook.book.build import repo_root

    toc = repo_root() / "_toc.yml"
    return page_prefixes(yaml.safe_load(toc.read_text(encoding="utf-8"))) if toc.is_file() else {}


def _number_per_page(app, env):
    """Renumber numfig's figures, tables, code blocks and equations page by page (run after Sphinx's own)."""
    if not env.config.numfig:
        return []
    prefixes = _book_prefixes()
    changed = []
    for docname, by_type in env.toc_fignumbers.items():
        prefix = prefixes.get(docname)
        if prefix is None:
            continue
        for numbers in by_type.values():
            for index, key in enumerate(sorted(numbers, key=lambda k: numbers[k]), start=1):
                numbers[key] = (*prefix, index)
        changed.append(docname)
    return changed


def _alt_from_caption(app, doctree, docname):
    """An image of a captioned figure without alt text gets its caption as alt text (never its file name)."""
    from docutils import nodes

    for figure in doctree.findall(nodes.figure):
        captions = list(figure.findall(nodes.caption))
        if not captions:
            continue
        text = " ".join(captions[0].astext().split())
        for image in figure.findall(nodes.image):
            if not image.get("alt"):
                image["alt"] = text[:300]


def _skip_foreign_members(app, what, name, obj, skip, options):
    if what == "class" and callable(obj) and not (getattr(obj, "__module__", "") or "").startswith("credalbook"):
        return True
    return None


def _named_defaults(app, what, name, obj, options, signature, return_annotation):
    return readable_signature(signature), return_annotation


def _documenters():
    from sphinx.ext.autodoc import AttributeDocumenter, DataDocumenter

    class PlainDataDocumenter(DataDocumenter):
        """Module data whose value is printed only when :func:`plain_value`."""

        priority = DataDocumenter.priority + 1

        def should_suppress_value_header(self) -> bool:
            return super().should_suppress_value_header() or not plain_value(self.object)

    class PlainAttributeDocumenter(AttributeDocumenter):
        """Class attributes whose value is printed only when :func:`plain_value`."""

        priority = AttributeDocumenter.priority + 1

        def should_suppress_value_header(self) -> bool:
            return super().should_suppress_value_header() or not plain_value(self.object)

    return PlainDataDocumenter, PlainAttributeDocumenter


def _stylesheet_folder() -> Path | None:
    here = Path(__file__).resolve().parents[2] / "_static"
    return here if (here / "credalbook.css").is_file() else None


def _add_stylesheet(app, config):
    folder = _stylesheet_folder()
    if folder is None:
        return
    source = Path(app.srcdir)
    if not (source / "_static" / "credalbook.css").is_file():  # the build renders a copy of the chapters
        config.html_static_path = [*config.html_static_path, str(folder)]
    app.add_css_file("credalbook.css")
    scorer = folder / "search_scorer.js.txt"
    if scorer.is_file() and not config.html_search_scorer:  # chapters first, the book's machinery last
        config.html_search_scorer = str(scorer)


def setup(app):
    app.setup_extension("sphinx.ext.autodoc")
    for documenter in _documenters():
        app.add_autodocumenter(documenter, override=True)
    app.connect("autodoc-skip-member", _skip_foreign_members)
    app.connect("autodoc-process-signature", _named_defaults)
    app.connect("config-inited", _add_stylesheet)
    app.connect("env-get-updated", _number_per_page, priority=900)
    app.connect("doctree-resolved", _alt_from_caption)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
