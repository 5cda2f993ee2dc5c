"""sympy derivations of Yang, Destercke & Masson (2017): Proposition 1, power means, Tables V/IX/X, Example 7."""
import numpy as np
import sympy as sp

from credalbook import costs
from credalbook.book.theory import costs as theory

TABLE_I = np.array(theory.TABLE_I.tolist(), dtype=float)


def test_proposition_1():
    assert theory.check_proposition_1(3)


def test_power_mean_inequality_and_bounds():
    assert theory.check_power_mean_monotone(3)
    assert theory.check_power_mean_limits()
    assert theory.check_between_min_and_max(3)
    assert theory.check_reward_rightful_cautiousness()
    assert theory.check_permutation_invariance(3)


def test_table_v_exact():
    exact = theory.symbolic_discounted()
    assert exact.row(6).tolist()[0] == [sp.Rational(5, 3), sp.Rational(5, 3), sp.Rational(4, 3)]
    assert theory.check_against_numeric(exact, costs.extended_cost_matrix(TABLE_I, "discounted")[1])


def test_table_x_exact():
    exact = theory.symbolic_p_discounted()
    assert exact[6, 2] == sp.Rational(8, 9) and exact[4, 1] == sp.Rational(9, 4)
    assert theory.check_against_numeric(exact, costs.p_discounted_cost_matrix(TABLE_I, 0.5)[1])
    mistake = theory.symbolic_p_discounted(variant="mistake_averse")
    assert theory.check_against_numeric(mistake, costs.p_discounted_cost_matrix(TABLE_I, 0.5, "mistake_averse")[1])


def test_table_ix_symbolic():
    matrix, etas, delta = theory.symbolic_ha(3)
    assert matrix.row(3).tolist()[0] == [delta, delta, etas[2] + delta]
    assert matrix.row(6).tolist()[0] == [2 * delta] * 3
    values = {etas[0]: 1, etas[1]: 2, etas[2]: 3, delta: sp.Rational(3, 10)}
    numeric = costs.extended_cost_matrix((1 - np.eye(3)) * [1.0, 2.0, 3.0], "ha", delta=0.3)[1]
    assert theory.check_against_numeric(matrix.subs(values), numeric)


def test_ha_condition_erratum():
    found = theory.check_ha_condition_erratum(3)
    eta, delta = sp.symbols("eta delta", positive=True)
    assert found["conditions"][2] == (delta < eta / 2) and found["conditions"][3] == (delta < eta / 3)
    assert found["paper_condition_sufficient"] is False
    # and numerically: delta = 0.4 < eta/2 = 0.5 yet Property 3 fails on {a, b, c}
    subsets, matrix = costs.extended_cost_matrix(1 - np.eye(3), "ha", delta=0.4)
    assert costs.check_properties(subsets, matrix, [3])[3].witness["subset"] == (0, 1, 2)


def test_table_iii_erratum():
    found = theory.check_table_iii_full_set()
    assert found["exact"] == sp.Rational(8, 15) and not found["rounds_to_printed"]
    assert theory.utility_cost_exact(2) == sp.Rational(7, 20)


def test_examples_5_6_7():
    values = theory.examples_5_6()
    assert values["example 5 E[c_hb]"] == sp.Rational(5, 6) and values["example 6 E[c_hb]"] == sp.Rational(7, 6)
    assert values["E[c_h]"] == values["E[c_b]"] == 1
    assert theory.check_example_7()


def test_table_ii_template_and_table_vii_derivation():
    template = theory.table_ii_template()
    assert template.shape == (7, 3) and template[:3, :] == theory.TABLE_I
    assert all(isinstance(x, sp.Symbol) for x in template[3:, :])
    assert theory.derive_table_vii() == (sp.Rational(1, 4), sp.Rational(3, 4))
