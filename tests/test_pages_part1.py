"""The TeX displays of Part I's pages (Zaffalon, Corani & Mauá 2012, Sections 3-9): each display
is the derivation, not typed text, so these tests check the values the displays show."""
import re

import pytest
import sympy as sp

from credalbook.book.theory import betting as bt
from credalbook.book.theory import mbets as mb
from credalbook.book.theory import utility as ut


def _rows(tex: str) -> list[str]:
    body = tex.removeprefix(r"\begin{aligned}").removesuffix(r"\end{aligned}")
    return body.split(r" \\ ")


class TestAligned:
    def test_joins_rows(self):
        assert ut.aligned(["a &= 1", "b &= 2"]) == r"\begin{aligned}a &= 1 \\ b &= 2\end{aligned}"

    def test_empty_raises(self):
        with pytest.raises(ValueError, match="at least one row"):
            ut.aligned([])


class TestTheorem1Latex:
    def test_keys(self):
        assert set(bt.theorem1_latex()) == {"gain", "bettor", "house", "moments"}

    def test_both_bounds_are_one_over_k(self):
        tex = bt.theorem1_latex()
        assert tex["bettor"].split(r"\qquad")[0].endswith(r"= \frac{1}{k}")
        assert tex["house"].endswith(r"= \frac{1}{k}")

    def test_moments(self):
        vacuous, random = _rows(bt.theorem1_latex()["moments"])
        assert vacuous.endswith(r"\operatorname{Var}[v] &= 0")
        assert r"E[r] &= \frac{1}{n}" in random and random.endswith(r"\frac{n - 1}{n^{2}}")


class TestRiskLatex:
    def test_eq2_exact_for_quadratics(self):
        rows = _rows(ut.risk_latex()["eq2_exact"])
        assert len(rows) == 4 and all(r.endswith("&= 0") for r in rows)

    def test_cubic_error_is_third_moment(self):
        rows = _rows(ut.risk_latex()["eq2_cubic"])
        assert rows[0].endswith(r"\left(- \mu + x\right)^{3}")
        # the right side sits under its left, so that the display fits the text column
        assert rows[1].startswith(r"&E[h^3]") and r"\left(2 p_{1} - 1\right)" in rows[2]

    def test_proposition1_rows(self):
        rows = _rows(ut.risk_latex()["proposition1_utilities"])
        assert len(rows) == len(ut.PROPOSITION1_NAMES)
        # each utility's gap delta_n sits on a line under its u'', so that the display fits the text column
        assert all(r",\\ \delta_n &=" in r for r in rows)
        # every strictly concave utility is marked < 0, the linear one has no gap
        assert [r"< 0" in r for r in rows] == [True] * 5 + [False]
        assert rows[-1].endswith(r"\delta_n &= 0")
        assert r"\frac{3 \left(n - 1\right)}{5 n^{2}}" in rows[0]

    def test_proposition1_utilities_match_names(self):
        utilities = ut.proposition1_utilities()
        assert list(utilities) == list(ut.PROPOSITION1_NAMES)
        assert utilities["linear"] == ut.X
        assert sp.simplify(utilities["u65"].subs(ut.X, sp.Rational(1, 2)) - sp.Rational(13, 20)) == 0


class TestVarianceLatex:
    def test_eq3_sides_agree(self):
        rows = _rows(ut.variance_latex()["eq3"])
        assert len(rows) == 4 and rows[1] == rows[3]

    def test_example1_differences(self):
        tex = ut.variance_latex()["example1"]
        assert r"E[f^2] - E[g^2] &= \frac{\varepsilon}{2}" in tex
        assert r"P(D_f) - P(D_g) &= - \varepsilon" in tex
        # the book's expected-size difference is eps (the paper prints 4 eps)
        assert tex.endswith(r"\mathrm{size}_f - \mathrm{size}_g &= \varepsilon\end{aligned}")


class TestSection9Latex:
    def test_printed_formulas_are_swapped(self):
        rows = _rows(ut.section9_latex()["printed"])
        assert re.search(r"&= \\frac\{4\}\{5\}.*printed as \}u_\{65\}", rows[0])
        assert re.search(r"&= \\frac\{13\}\{20\}.*printed as \}u_\{80\}", rows[1])

    def test_fbeta_signs(self):
        rows = _rows(ut.section9_latex()["fbeta_vs_quadratic"])
        # F1 between u65 and u80; F2 above both
        assert [r[-3:] for r in rows] == ["> 0", "< 0", "> 0", "> 0"]

    def test_exponential_risk_aversion(self):
        rows = _rows(ut.section9_latex()["exponential"])
        assert r"\approx 1.238" in rows[0] and r"\approx 2.773" in rows[1]


class TestSection8Latex:
    def test_printed_term_keeps_only_the_last_outcome(self):
        printed, correct = _rows(mb.section8_latex()["printed_vs_correct"])
        assert printed.endswith(r"0,\ 0,\ 0,\ \frac{1}{8}")
        assert correct.endswith(r"\frac{1}{8},\ \frac{3}{8},\ \frac{3}{8},\ \frac{1}{8}")

    def test_log3_value(self):
        assert mb.section8_latex()["log3"].endswith(r"\approx 0.8452")

    def test_inversion_points(self):
        log, exp = _rows(mb.section8_latex()["inversion"])
        assert log.endswith(r"\iff m = n") and exp.endswith(r"\iff m = \frac{n}{a}")
