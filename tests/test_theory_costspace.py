"""The sympy derivations of Ferri, Hernández-Orallo & Flach (2019), Sect. 5."""
import sympy as sp

from credalbook.book.theory import costspace as t


def test_beta_parametrisation():
    assert all(t.check_beta_parametrisation().values())


def test_lemma1_on_symbolic_breakpoints():
    assert t.lemma1_check()


def test_theorems_2_3_and_midpoint_condition():
    assert all(t.check_theorems_2_3().values())
    assert t.check_midpoint_condition()


def test_theorem4_corollary1():
    assert all(t.check_theorem4_corollary1().values())


def test_theorem5_corollary2_and_certain_rate_driven():
    result = t.check_theorem5_corollary2()
    assert all(result.values()), result


def test_theorem6_7_on_hulls_of_two_and_three_segments():
    for m in (2, 3):
        result = t.check_theorem6_7(m)
        assert all(result.values()), result


def test_table3_rows_agree_with_the_paper():
    rows = t.table3()
    assert [r["method"] for r in rows] == ["score-driven", "rate-driven", "optimal"]
    assert all(r["agrees"] for r in rows)


def test_table4_rate_driven_area():
    rows = {r[0]: r for r in t.table4()}
    assert sp.expand(rows["rate-driven"][2] - (t.pi0 * t.pi1 * (1 - 2 * t.AUC) + sp.Rational(1, 3))) == 0


def test_baselines_and_the_swapped_line_of_section_5_3():
    result = t.check_baselines()
    assert all(result.values()), result
    prior = t.prior_model()
    # the paper writes (0, pi0) -> (1, pi1); the derivation gives (0, pi1) -> (1, pi0)
    assert sp.simplify(prior["rate-driven K0(0)"] - t.pi0) != 0


def test_mae_bs_ratio_is_not_bounded_by_two_but_is_two_when_calibrated():
    bs, mae, ratio = t.mae_over_bs_counterexample()
    assert (bs, mae, ratio) == (sp.Rational(1, 100), sp.Rational(1, 10), 10)
    assert t.calibrated_mae_is_twice_bs()
