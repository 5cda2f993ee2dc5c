"""The ledger's values as a reader reads them: formulas as mathematics, numbers as numbers.

The checks of :mod:`credalbook.book.ledger` write their values as text: sympy's own printing
(``2*c*pi_0 - pi_0**2``), the papers' notation as transcribed (``L^rd_δ = π0π1(1 − 2AUC) + 1/3``,
``c_{h,b}(h) ≤ 1/2``) or words with a formula inside (``derived m·(n - 1)/(2·(m + n)^2), identical to
the printed formula``). :func:`typeset` turns any of them into MyST markdown: a formula in sympy's
syntax is parsed and printed by :func:`sympy.latex`, the papers' notation is translated to LaTeX
(Greek letters, bars and hats, sub- and superscripts, relations), both inside ``$...$``; the words
around them stay text, with every character Markdown would read as markup escaped, so no ``**``,
``\\bar{...}``, ``<locals>`` or raw ``$`` reaches the page. A long formula scrolls inside its own box
rather than widening the page.
"""
from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["typeset", "plain", "math_latex", "sympy_latex", "escape_text", "SCROLL_AFTER"]

#: Formulas whose LaTeX is longer than this many characters scroll inside their own box.
SCROLL_AFTER = 70

_GREEK_NAMES = ("alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta", "iota", "kappa",
                "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega",
                "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Phi", "Psi", "Omega")
_GREEK_LETTERS = dict(zip("αβγδεζηθικλμνξπρστυφχψωΓΔΘΛΞΠΦΨΩ",
                          ("alpha", "beta", "gamma", "delta", "varepsilon", "zeta", "eta", "theta", "iota", "kappa",
                           "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi",
                           "omega", "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Phi", "Psi", "Omega")))
_SYMBOLS = {"−": "-", "–": "-", "×": r"\times ", "·": r"\cdot ", "≤": r"\le ", "≥": r"\ge ", "≠": r"\ne ",
            "≈": r"\approx ", "∈": r"\in ", "∉": r"\notin ", "∅": r"\emptyset ", "Σ": r"\sum ", "∫": r"\int ",
            "∞": r"\infty ", "→": r"\to ", "⇒": r"\Rightarrow ", "⇔": r"\Leftrightarrow ", "≰": r"\not\le ",
            "≱": r"\not\ge ", "ℓ": r"\ell ", "∂": r"\partial ", "⊂": r"\subset ", "⊆": r"\subseteq ", "∪": r"\cup ",
            "∩": r"\cap ", "√": r"\sqrt ", "½": r"\tfrac{1}{2}", "±": r"\pm ", "…": r"\ldots ", "∝": r"\propto ", "∀": r"\forall ",
            "Ω": r"\Omega ", "ŷ": r"\hat{y}", "Ŷ": r"\hat{Y}", "ĉ": r"\hat{c}", "ê": r"\hat{e}", "ĥ": r"\hat{h}",
            "²": "^{2}", "³": "^{3}", "₀": "_{0}", "₁": "_{1}", "₂": "_{2}", "₃": "_{3}", "%": r"\%", "&": r"\&",
            "#": r"\#", "~": r"\sim "}
#: Words written out inside a formula that LaTeX sets upright as operators.
_OPERATORS = {"log": r"\log", "exp": r"\exp", "lim": r"\lim", "min": r"\min", "max": r"\max", "sup": r"\sup",
              "inf": r"\inf", "det": r"\det", "sin": r"\sin", "cos": r"\cos", "argmin": r"\operatorname{argmin}",
              "argmax": r"\operatorname{argmax}", "sqrt": r"\sqrt", "ell": r"\ell"}
#: Functions that sympy's parser may read by their name (any other applied name is an unknown function).
_SYMPY_FUNCTIONS = ("log", "exp", "sqrt", "binomial", "beta", "Abs", "Max", "Min", "factorial")

_MARKDOWN = re.compile(r"([\\*_`$<>\[\]|#~])")
_STRONG = re.compile(r"\[\[|[_^\\=<>≤≥≠≈∈∉Σ∫∅→⇒⇔≰≱·×ℓ∂⊂⊆∪∩√∝∀Ω²³₀₁₂₃\u0304\u0302ŷŶĉêĥ*|]|"
                     "[" + "".join(_GREEK_LETTERS) + "]|"
                     r"(?<![A-Za-z])(?:" + "|".join(_GREEK_NAMES) + r")(?=[_\d(=^])|"
                     r"\d[+−]\d|[A-Za-z)][+−/]|[+−/][A-Za-z(]| - |\w\(")
_TEXT_WORD = re.compile(r"[(\[]?(?:[A-Za-z][a-z]{2,}(?:-[a-z]+)*(?:/[a-z]{2,}(?:-[a-z]+)*)*(?:'s)?|"
                        r"[A-Za-z0-9][a-z0-9]*(?:-[a-z]+)+|i\.e\.|e\.g\.|"
                        r"(?i:a|an|as|at|be|by|if|in|is|it|of|on|or|so|to|we|no|us))[)\],.;:!?]*")
_IDENTIFIER = re.compile(r"\\bar\{[A-Za-z]\}(?:_\{[^{}]*\}|_[A-Za-z0-9]+)?|"
                         r"[A-Za-z][A-Za-z0-9]*(?:_\{[^{}]*\}|_[A-Za-z0-9]+)*(?:\^\{[a-z]\})?")
#: Column names written into the checks' details, as words.
_COLUMN_WORDS = {"div_pct": "div (%)", "c_rho_pct": "C_ρ (%)", "n_rows": "number of rows",
                 "n_features": "number of features", "n_classes": "number of classes", "sc_vs_tr":
                 "score-driven against train-optimal", "log_loss": "log loss"}
_SNAKE = re.compile(r"(?<![\w\\{])[a-z][a-z0-9]*(?:_[a-z][a-z0-9]*)+(?![\w{(])")
_SCIENTIFIC = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)[eE]([-+]?\d+)(?![\w.])")


def escape_text(text: str) -> str:
    """``text`` as Markdown shows it letter for letter (``*``, ``_``, ``$``, ``<``, ``|`` ... escaped),
    numbers in scientific notation as powers of ten."""
    from credalbook.book.tables import readable_powers

    return _MARKDOWN.sub(r"\\\1", readable_powers(text))


def plain(text) -> str:
    """``text`` as words only (a table cell's label, ``Table 7: model=NB, AUC``): column names
    (``nbc_ncc_i_pct``) as words, Markdown's marks escaped, no mathematics."""
    return escape_text(_SNAKE.sub(_snake_words, " ".join(str(text).split())))


def _name_latex(name: str) -> str:
    """A symbol's name as LaTeX: ``pi_0`` -> ``\\pi_{0}``, ``c_{i+1}`` -> ``c_{i+1}``, ``AUC`` -> ``\\mathrm{AUC}``."""
    if name.startswith("\\bar{"):
        base, _, sub = name.partition("}")
        base, sub = base + "}", sub
    else:
        base, _, sub = name.partition("_")
        sub = "_" + sub if sub else ""
    if base in _GREEK_NAMES:
        head = "\\" + base
    elif base in _OPERATORS:
        head = _OPERATORS[base]
    elif base.startswith("\\") or len(base) == 1:
        head = base
    else:
        letters = re.fullmatch(r"([A-Za-z]+)(\d*)", base)
        head = (f"\\mathrm{{{letters.group(1)}}}" + (f"_{{{letters.group(2)}}}" if letters.group(2) else "")
                if letters and len(letters.group(1)) > 1 else base)
    if not sub:
        return head
    inner = sub[1:]
    inner = inner[1:-1] if inner.startswith("{") and inner.endswith("}") else inner
    inner = "_".join(_name_latex(part) if part in _GREEK_NAMES else part for part in inner.split("_"))
    return f"{head}_{{{inner}}}"


@lru_cache(maxsize=4096)
def sympy_latex(text: str) -> str | None:
    """LaTeX of ``text`` read as a sympy expression or relation (``2*c*pi_0``, ``x^2·y``, ``a = b``),
    or ``None`` when it is not one. Every name becomes a symbol of that name (``E``, ``I`` and ``S``
    are letters, not constants); a name applied to arguments is a function."""
    import sympy
    from sympy.parsing.sympy_parser import parse_expr

    source = text.strip().replace("·", "*").replace("−", "-").replace("^", "**")
    if (not source or not re.search(r"[A-Za-z]", source) or not re.search(r"[*]", source)
            or re.search(r"[^A-Za-z0-9_\s+\-*/().,{}\\=<>]", source)):
        return None
    if "''" in source or "," in re.sub(r"\([^()]*\)", "", source) or re.search(r"\*_|\*\s*($|[)=<>,])", source):
        return None
    names: dict[str, str] = {}
    table: dict = {}

    def replace(match) -> str:
        name = match.group(0)
        following = source[match.end():match.end() + 1]
        if following == "(":
            if name in _SYMPY_FUNCTIONS:
                return name
            if not re.fullmatch(r"[A-Za-z]+", name):
                raise ValueError(name)
            key = f"F{len(table)}x"
            table[key] = sympy.Function(name if len(name) == 1 else f"\\mathrm{{{name}}}")
            return key
        key = names.setdefault(name, f"X{len(names)}x")
        table[key] = sympy.Symbol(key)
        return key

    try:
        coded = _IDENTIFIER.sub(replace, source)
        if re.search(r"[{}\\]", coded):
            return None
        sides = re.split(r"\s*(<=|>=|==|=|<|>)\s*", coded)
        symbols = {sympy.Symbol(key): _name_latex(name) for name, key in names.items()}
        printed = []
        for index, side in enumerate(sides):
            if index % 2:
                printed.append({"<=": r"\le", ">=": r"\ge", "==": "=", "=": "=", "<": "<", ">": ">"}[side])
                continue
            expression = parse_expr(side, local_dict=table, global_dict=_sympy_globals())
            if not isinstance(expression, sympy.Basic) or isinstance(expression, sympy.logic.boolalg.Boolean):
                return None
            printed.append(sympy.latex(expression, symbol_names=symbols))
    except Exception:  # not sympy's syntax: the caller typesets it as notation
        return None
    return " ".join(printed)


@lru_cache(maxsize=1)
def _sympy_globals() -> dict:
    import sympy

    exec_globals: dict = {}
    exec("from sympy import *", exec_globals)  # the names parse_expr knows, functions included
    for letter in ("E", "I", "S", "N", "O", "Q", "C", "pi", "gamma", "zeta", "lambda"):
        exec_globals.pop(letter, None)
    exec_globals["Integer"], exec_globals["Float"], exec_globals["Rational"] = sympy.Integer, sympy.Float, sympy.Rational
    exec_globals["Symbol"], exec_globals["Function"] = sympy.Symbol, sympy.Function
    return exec_globals


def _literal_braces(text: str) -> str:
    """Braces that group nothing in LaTeX (``(c_{i+1} − c_i){k_i/2 + l_i}``) as printed braces ``\\{ \\}``."""
    out, stack = [], []
    for index, char in enumerate(text):
        if char == "{":
            grouping = index > 0 and (text[index - 1] in "_^" or re.search(r"\\[A-Za-z]+$", text[:index]))
            stack.append(bool(grouping))
            out.append("{" if grouping else r"\{")
        elif char == "}":
            grouping = stack.pop() if stack else False
            out.append("}" if grouping else r"\}")
        else:
            out.append(char)
    return "".join(out)


def _group_exponents(text: str) -> str:
    """``x^(m−ℓ)`` -> ``x^{(m−ℓ)}``, ``L^rd`` -> ``L^{rd}`` (LaTeX raises one token only)."""
    result, index = [], 0
    while index < len(text):
        char = text[index]
        if char in "^_" and index + 1 < len(text) and text[index + 1] == "(":
            depth, end = 0, index + 1
            while end < len(text):
                depth += {"(": 1, ")": -1}.get(text[end], 0)
                if depth == 0:
                    break
                end += 1
            result.append(f"{char}{{{text[index + 1:end + 1]}}}")
            index = end + 1
            continue
        result.append(char)
        index += 1
    text = "".join(result)
    return re.sub(r"([_^])([A-Za-z]{2,}|\d{2,})(?![A-Za-z0-9{])",
                  lambda m: f"{m.group(1)}{{{m.group(2)}}}", text)


def _matrix(text: str) -> str:
    """``[[1, 0], [0, 1]]`` -> a pmatrix."""
    def one(match):
        rows = re.findall(r"\[([^\[\]]*)\]", match.group(0)[1:-1])
        body = r" \\ ".join(" & ".join(v.strip() for v in row.split(",")) for row in rows)
        return rf"\begin{{pmatrix}} {body} \end{{pmatrix}}"

    return re.sub(r"\[\s*\[[^\[\]]*\](?:\s*,\s*\[[^\[\]]*\])*\s*\]", one, text)


@lru_cache(maxsize=4096)
def math_latex(text: str) -> str:
    """LaTeX of a formula in the papers' notation or sympy's syntax (``π0π1(1 − 2AUC)``,
    ``c̄^q ≤ c̄^p``, ``sigma^2·u''(mu)/2``): sympy's printing when it parses, else a translation."""
    printed = sympy_latex(text)
    if printed is not None:
        return printed
    latex = _literal_braces(text.strip())
    latex = re.sub(r"(?<![A-Za-z\\])sqrt\(([^()]*)\)", r"\\sqrt{\1}", latex)
    latex = re.sub(r"(\w)\u0304", r"\\bar{\1}", latex)  # s̄ -> \bar{s}
    latex = re.sub(r"(\w)\u0302", r"\\hat{\1}", latex)
    latex = latex.replace("**", "^")
    latex = re.sub(r"(\\bar\{\w\}|[A-Za-z]{1,3})\*(?![\w(\[])|(\\bar\{\w\}|[A-Za-z]{1,3})\*(?=[_\d])",
                   lambda m: (m.group(1) or m.group(2)) + "^{\\ast}", latex)  # s̄*0, Acc*_v, CM*: starred names
    latex = re.sub(r"\^\{\\ast\}(\d)", r"^{\\ast}_{\1}", latex)
    latex = re.sub(r"(\\bar\{\w\}|(?<![A-Za-z\\])[A-Za-z])(\d+)(?![\d.])", r"\1_{\2}", latex)  # F0, s̄1 -> F_0
    latex = _group_exponents(latex)
    latex = _SCIENTIFIC.sub(lambda m: ("" if float(m.group(1)) == 1 else f"{m.group(1)} \\times ")
                            + f"10^{{{int(m.group(2))}}}", latex)
    latex = re.sub("([" + "".join(_GREEK_LETTERS) + r"])(\d*)",
                   lambda m: "\\" + _GREEK_LETTERS[m.group(1)] + (f"_{{{m.group(2)}}}" if m.group(2) else " "), latex)
    latex = "".join(_SYMBOLS.get(char, char) for char in latex)
    latex = latex.replace(" \\ ", r" \setminus ").replace("*", r" \cdot ")
    latex = re.sub(r"(?<![\\A-Za-z])(" + "|".join(_GREEK_NAMES) + r")(\d*)(?![A-Za-z])",
                   lambda m: f"\\{m.group(1)}" + (f"_{{{m.group(2)}}}" if m.group(2) else " "), latex)
    latex = re.sub(r"(?<![\\A-Za-z{])([A-Za-z]{2,})(?![A-Za-z}])",
                   lambda m: _OPERATORS.get(m.group(1), f"\\mathrm{{{m.group(1)}}}"), latex)
    latex = re.sub(r"(?<!\\)\|", r"\\vert ", latex)
    latex = latex.replace("->", r"\to ")
    latex = re.sub(r"([_^])(\\[A-Za-z]+\{[^{}]*\})", r"\1{\2}", latex)  # c_\hat{Y} -> c_{\hat{Y}}
    latex = _matrix(latex)
    return re.sub(r"\s+", " ", latex).strip()


def _math(latex: str) -> str:
    inline = f"${latex}$"
    if len(latex) <= SCROLL_AFTER:
        return inline
    return (f'<span style="display:inline-block;max-width:100%;overflow-x:auto;overflow-y:hidden;'
            f'vertical-align:middle">{inline}</span>')


def _balanced(latex: str) -> bool:
    depth = 0
    for char in re.sub(r"\\[{}]", "", latex):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def _strong(token: str) -> bool:
    return bool(_STRONG.search(token)) and "$" not in token


_SHORT_WORDS = {"a", "in", "it"}


def _snake_words(match) -> str:
    """A column name (``set_size``) as words (``set size``); a formula's name (``lambda_v``, ``sum_j``) stays."""
    name = match.group(0)
    parts = name.split("_")
    if name in _COLUMN_WORDS:
        return _COLUMN_WORDS[name]
    long_parts = [p for p in parts if len(p) >= 2]
    if parts[0] in _GREEK_NAMES or parts[0] in _OPERATORS or not (len(long_parts) >= 2 or max(map(len, parts)) >= 4):
        return name
    return " ".join(parts)


#: Greek letters' names that are no English word, set as the letter wherever they stand.
_GREEK_ONLY = ("varepsilon", "epsilon", "sigma", "lambda", "alpha", "theta", "omega", "rho", "tau")


def _kind(token: str) -> str:
    """``text`` (a word of three letters or more), ``short`` (a short English word) or ``math``."""
    if "$" in token:
        return "text"
    bare = token.strip("()[],.;:!?")
    if bare in _GREEK_ONLY:
        return "greek"
    if re.fullmatch(r"[-+−]?\d[\d,.]*%?", bare):
        return "number"
    if bare.lower() in _OPERATORS or bare in _GREEK_NAMES or not _TEXT_WORD.fullmatch(token):
        return "math"
    return "short" if bare.lower() in _SHORT_WORDS else "text"


def _runs(text: str) -> list[tuple[bool, str]]:
    """``text`` cut into runs of words and runs of formula (each run a string, in order); a short
    word (``a``, ``in``) is a word beside a word and a letter inside a formula."""
    tokens = text.split(" ")
    kinds = [_kind(token) for token in tokens]
    for _ in range(2):  # "on a correct set": a short word beside a short word beside a word
        for index, kind in enumerate(kinds):
            if kind == "short":
                beside = kinds[max(index - 1, 0):index] + kinds[index + 1:index + 2]
                kinds[index] = "text" if "text" in beside or "number" in beside or not beside else kind
    kinds = ["math" if kind in ("short", "number", "greek") else kind for kind in kinds]
    runs: list[tuple[bool, list[str]]] = []
    for token, kind in zip(tokens, kinds):
        is_math = kind == "math"
        if runs and runs[-1][0] == is_math:
            runs[-1][1].append(token)
        else:
            runs.append((is_math, [token]))
    out = []
    for is_math, words in runs:
        joined = " ".join(words)
        formula = (is_math and any(_strong(w) or w.strip("()[],.;:!?") in _GREEK_ONLY for w in words)
                   and bool(re.search(r"[A-Za-z0-9\u0370-\u03ff]", joined)))
        out.append((formula, joined))
    return out


def _split_top(text: str) -> list[str]:
    """``text`` split at ``"; "`` and ``": "`` outside brackets, the separators kept as pieces."""
    pieces, depth, start, index = [], 0, 0, 0
    while index < len(text):
        char = text[index]
        depth += 1 if char in "([{" else -1 if char in ")]}" else 0
        if depth <= 0 and char in ";:" and text[index + 1:index + 2] == " ":
            pieces += [text[start:index], char + " "]
            start = index + 2
            index += 2
            continue
        index += 1
    return [*pieces, text[start:]]


def _typeset_math_run(run: str) -> str:
    """A run of formula tokens: the formula in ``$...$``, punctuation that ends the sentence outside it."""
    lead = re.match(r"^[(\[]*", run).group(0) if run.count("(") > run.count(")") and run.startswith("(") else ""
    core = run[len(lead):]
    tail = re.search(r"[,.;:]*$", core).group(0)
    core = core[:len(core) - len(tail)] if tail else core
    if core.count(")") > core.count("(") and core.endswith(")"):
        tail = ")" + tail
        core = core[:-1]
    if not core.strip():
        return escape_text(run)
    latex = math_latex(core)
    if not _balanced(latex) or "$" in latex:
        return escape_text(run)
    return escape_text(lead) + _math(latex) + escape_text(tail)


def typeset(value, kind: str = "") -> str:
    """A ledger value (or a sentence with formulas) as MyST markdown on one line: formulas as
    ``$LaTeX$`` (through :func:`sympy.latex` where the text is sympy's syntax), words as text; a
    ``kind="ranking"`` value (``A > B > C``) is names, set as text."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    text = " ".join(str(value).replace("\u2009", " ").split())
    if not text:
        return ""
    if kind == "ranking":
        return escape_text(text)
    if text in _GREEK_NAMES:
        return f"$\\{text}$"
    text = _SNAKE.sub(_snake_words, text)
    if re.fullmatch(r"[-+−]?\d[\d,]*(\.\d+)?([eE][-+]?\d+)?%?", text):
        return escape_text(text.replace("-", "−", 1) if text.startswith("-") else text)
    whole = sympy_latex(text) if not _TEXT_WORD.search(text) or re.search(r"\*\*|\w\*\w", text) else None
    if whole is not None and ": " not in text:
        return _math(whole)
    parts = []
    for piece in _split_top(text):
        if piece in ("; ", ": "):
            parts.append(piece)
            continue
        if not piece:
            continue
        printed = sympy_latex(piece) if re.search(r"\*\*|\w\*\w|\w\*\(|\)\*\w", piece) else None
        if printed is not None:
            parts.append(_math(printed))
            continue
        parts.append("".join(_typeset_math_run(run) if is_math else escape_text(run) for is_math, run in
                             _with_spaces(_runs(piece))))
    return "".join(parts)


def _with_spaces(runs: list[tuple[bool, str]]) -> list[tuple[bool, str]]:
    """The runs with the spaces between them given back (as text)."""
    out: list[tuple[bool, str]] = []
    for index, run in enumerate(runs):
        if index:
            out.append((False, " "))
        out.append(run)
    return out
