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
  experiments) last (``_static/search_scorer.js.txt``). A page whose front matter says
  ``search: titles-only`` (the contributors' reference) gives the search index its title and its
  objects' names but not its text, so that the machinery's docstrings never answer a reader's
  query (Sphinx's own ``nosearch`` would also drop the title that a result names its page by).
- A captioned figure's image without alt text takes its caption as alt text.
- ``.. module-summary:: credalbook.metrics`` (inside an ``eval-rst`` block, before the module's
  ``automodule``) renders the summary table an API page opens with: every name of the module's
  ``__all__``, in its order, with its kind and the first sentence of its docstring, each name a
  link to its entry below (:func:`module_summary` computes the rows).
- The book's stylesheet (``_static/credalbook.css`` in the checkout) is added to every page:
  wide tables and code scroll inside their own box, display equations scroll, nothing makes the
  page wider than the window.
"""
from __future__ import annotations

import re
from pathlib import Path

__all__ = ["setup", "plain_value", "readable_signature", "page_prefixes", "module_summary", "first_sentence"]

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


# ----------------------------------------------------------------------------------------------
# The summary table of an API page
# ----------------------------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"[.!?](?=\s+[A-Z(])")
_SHORT_REFERENCE = re.compile(r":((?:py:)?\w+):`([\w]+(?:\.\w+)+)`")
_ABBREVIATION = re.compile(r"\b(?:e\.g|i\.e|et al|cf|vs|resp|approx|Eqs?|Figs?|Sects?|Secs?|Tabs?|Def|Prop|Thm|Ref|No)$")


def first_sentence(docstring: str | None) -> str:
    """The first sentence of a docstring's first paragraph, in reST (lines joined, ``::`` read as ``.``).

    A full stop inside inline markup (a literal, a role's target), after a one-letter initial
    ("C. Elkan") or after an abbreviation ("e.g.", "et al.", "Eq.") does not end the sentence; a
    paragraph with no sentence end is returned whole.

    Examples
    --------
    >>> first_sentence("Scores of sets (Zaffalon et al. 2012). Each row is a set.\\n\\nMore.")
    'Scores of sets (Zaffalon et al. 2012).'
    """
    lines = []
    for line in (docstring or "").strip().splitlines():
        if not line.strip():
            break
        lines.append(line.strip())
    text = " ".join(lines)
    for match in _SENTENCE_END.finditer(text):
        before = text[:match.start()]
        literals = before.split("``")
        inside = len(literals) % 2 == 0 or "".join(literals[::2]).count("`") % 2
        if inside or re.search(r"(?:^|\s)\w$", before) or _ABBREVIATION.search(before):
            continue  # inside inline markup, an initial or an abbreviation
        text = text[:match.end()]
        break
    return re.sub(r"::$", ".", text)


def _kind(value) -> str:
    import inspect

    if inspect.isclass(value):
        return "exception" if issubclass(value, BaseException) else "class"
    if inspect.isroutine(value):
        return "function"
    return "constant"


def module_summary(module_name: str) -> list[tuple[str, str, str]]:
    """(name, kind, summary) for every name of the module's ``__all__``, in its order.

    ``kind`` is "class", "exception", "function" or "constant"; ``summary`` is the
    :func:`first_sentence` of the object's docstring, or of the ``#:`` comment above a constant
    (a constant without one has an empty summary), with every cross-reference to a dotted name
    shown by its last part (``:func:`~credalbook.pipeline.predict_set```), so that a name never
    widens the table's column.

    Examples
    --------
    >>> rows = module_summary("credalbook.model_selection")
    >>> [(name, kind) for name, kind, _ in rows]
    [('cross_val_predict_set', 'function')]
    """
    import importlib
    import inspect

    from sphinx.pycode import ModuleAnalyzer

    module = importlib.import_module(module_name)
    try:
        comments = ModuleAnalyzer.for_module(module_name).find_attr_docs()
    except Exception:  # noqa: BLE001 - a module without source has no #: comments
        comments = {}
    rows = []
    for name in getattr(module, "__all__", []):
        value = getattr(module, name)
        kind = _kind(value)
        doc = "\n".join(comments.get(("", name), [])) if kind == "constant" else inspect.getdoc(value)
        rows.append((name, kind, _SHORT_REFERENCE.sub(r":\1:`~\2`", first_sentence(doc))))
    return rows


def _summary_directive():
    from docutils import nodes
    from docutils.statemachine import StringList
    from sphinx.util.docutils import SphinxDirective

    class ModuleSummary(SphinxDirective):
        """``.. module-summary:: module``: a table of the module's ``__all__`` (name, kind, summary)."""

        required_arguments = 1
        has_content = False

        def _parse(self, text: str, context: dict) -> list:
            """``text`` parsed as reST (block nodes) with ``context`` as the Python domain's reference context."""
            saved = dict(self.env.ref_context)
            self.env.ref_context.update(context)  # relative references resolve as in the entry's docstring
            try:
                holder = nodes.Element()
                self.state.nested_parse(StringList([text], source=f"summary of {self.arguments[0]}"), 0, holder)
            finally:
                self.env.ref_context.clear()
                self.env.ref_context.update(saved)
            return list(holder.children)

        def run(self):
            module = self.arguments[0]
            table = nodes.table(classes=["module-summary"])
            group = nodes.tgroup(cols=3)
            table += group
            for width in (30, 12, 58):
                group += nodes.colspec(colwidth=width)
            head, body = nodes.thead(), nodes.tbody()
            header = nodes.row()
            for title in ("Name", "Kind", "Summary"):
                header += nodes.entry("", nodes.paragraph(text=title))
            head += header
            group += head
            group += body
            for name, kind, summary in module_summary(module):
                context = {"py:module": module, "py:class": name if kind in {"class", "exception"} else None}
                row = nodes.row()
                row += nodes.entry("", *self._parse(f":py:obj:`{name} <{module}.{name}>`", {"py:module": module}))
                row += nodes.entry("", nodes.paragraph(text=kind))
                row += nodes.entry("", *(self._parse(summary, context) if summary else []))
                body += row
            return [table]

    return ModuleSummary


# ----------------------------------------------------------------------------------------------
# Search: pages indexed by their title and their objects only
# ----------------------------------------------------------------------------------------------

#: front matter (``search: titles-only``) of a page whose text stays out of the search index
_TITLES_ONLY = ("search", "titles-only")


def _index_titles_only(app):
    """Feed the search index only the title of a ``search: titles-only`` page (its objects are indexed
    by their domain, whatever the page's text)."""
    builder = app.builder
    original = getattr(builder, "index_page", None)
    if original is None:
        return

    def index_page(pagename, doctree, title):
        key, value = _TITLES_ONLY
        if getattr(builder, "indexer", None) is not None and title \
                and app.env.metadata.get(pagename, {}).get(key) == value:
            from docutils import nodes
            from sphinx.util.docutils import new_document

            stub = new_document("")
            section = nodes.section()
            section += nodes.title(text=title)
            stub += section
            builder.indexer.feed(pagename, app.env.doc2path(pagename, base=False), title, stub)
            return
        original(pagename, doctree, title)

    builder.index_page = index_page


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
    app.add_directive("module-summary", _summary_directive())
    app.connect("builder-inited", _index_titles_only)
    app.connect("config-inited", _add_stylesheet)
    app.connect("env-get-updated", _number_per_page, priority=900)
    app.connect("doctree-resolved", _alt_from_caption)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
