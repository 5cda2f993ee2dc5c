"""Checks of the ledger's Part I entries (Zaffalon, Corani & Mauá, the theory) on hand-made inputs."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import sympy as sp

from credalbook.book.ledger import core
from credalbook.book.ledger import zaffalon2012_theory as zt
from credalbook.book.theory.utility import X

CLAIMS = {claim.id: claim for claim in core.claims()}


def verdict(claim_id: str, **inputs) -> str:
    return core.evaluate_claim(CLAIMS[claim_id], inputs)["verdict"]


class TestFormulas:
    def test_identical_expressions_are_reproduced(self):
        finding = zt.same_formula((X + 1) ** 2, X ** 2 + 2 * X + 1)
        assert finding.verdict == "reproduced"

    def test_a_different_expression_is_an_erratum(self):
        finding = zt.same_formula(X / 2, X)
        assert finding.verdict == "erratum" and "printed x" in finding.detail

    def test_matrices_compare_entrywise_and_by_shape(self):
        assert zt.identical(sp.Matrix([1, X]), sp.Matrix([1, X]))
        assert not zt.identical(sp.Matrix([1, X]), sp.Matrix([1, 2 * X]))
        assert not zt.identical(sp.Matrix([1, X]), sp.Matrix([1, X, 0]))

    def test_binomial_coefficient_upside_down_is_told_apart(self):
        m, ell = sp.symbols("m ell", positive=True, integer=True)
        # C(l, m) = 0 for l < m while C(m, l) > 0: the two differ at l = 1, m = 3
        assert not zt.identical(sp.binomial(m, ell), sp.binomial(ell, m))

    def test_the_mutation_flips_both_ways(self):
        same = zt._flip_formula(X, X)
        assert zt.same_formula(**same).verdict == "erratum"
        wrong = zt._flip_formula(X, 4 * X)
        assert zt.same_formula(**wrong).verdict == "reproduced"

    def test_example1_expected_size_by_hand(self):
        # shifts f - g: +e on one-class successes, -2e on one-class failures, -2e / +3e on two-class ones:
        # 1 (e - 2e) + 2 (-2e + 3e) = e, while the paper prints 4e
        assert verdict("zaffalon2012.example1-expected-size", derived=zt.EPS, printed=4 * zt.EPS) == "erratum"
        assert verdict("zaffalon2012.example1-expected-size", derived=zt.EPS, printed=zt.EPS) == "reproduced"


def _results(ncc, nbc) -> pd.DataFrame:
    """Two folds per data set; the rows with feature selection must be ignored."""
    rows = [{"dataset": f"d{i}", "feature_selection": False, "ncc_discounted_accuracy": a, "nbc_accuracy": b}
            for i, (a, b) in enumerate(zip(ncc, nbc)) for _ in range(2)]
    rows += [{"dataset": "d0", "feature_selection": True, "ncc_discounted_accuracy": 1.0, "nbc_accuracy": 0.0}]
    return pd.DataFrame(rows)


class TestCredalAgainstDeterminate:
    def test_share_by_hand(self):
        # NCC ahead on d0 only (0.8 > 0.7); d1 tied, d2 behind: 1 of 3
        share, datasets = zt.ncc_beats_nbc_share(_results([0.8, 0.6, 0.5], [0.7, 0.6, 0.9]))
        assert (share, datasets) == (pytest.approx(1 / 3), 3)

    def test_almost_never_is_partly_at_two_thirds(self):
        results = _results([0.8, 0.6, 0.5], [0.7, 0.6, 0.9])
        row = core.evaluate_claim(CLAIMS["zaffalon2011.credal-almost-never-superior"], {"results": results})
        assert row["book"] == "0.666667" and row["verdict"] == "partly"

    def test_not_rare_needs_one_data_set_in_ten(self):
        assert verdict("zaffalon2012.credal-beats-determinate-not-rare",
                       results=_results([0.8] + [0.5] * 9, [0.7] + [0.9] * 9)) == "reproduced"
        assert verdict("zaffalon2012.credal-beats-determinate-not-rare",
                       results=_results([0.8] + [0.5] * 10, [0.7] + [0.9] * 10)) == "not reproduced"

    def test_k_random_accuracy_by_hand(self):
        y_true = np.array([0, 0, 0, 2])
        y_set = np.array([[1, 1, 0], [0, 1, 1], [1, 0, 0], [1, 1, 1]], dtype=bool)
        np.testing.assert_allclose(zt.k_random_expected_accuracy(y_true, y_set), [1 / 2, 0, 1, 1 / 3])


class TestSection8:
    def test_relative_error_bound(self):
        grid = pd.DataFrame({"utility": "log", "a": np.nan, "m": [1, 50], "n": [20, 2],
                             "rel_error_expected_utility": [0.02, 0.001], "rel_error_d": [0.5, 0.01]})
        assert verdict("zaffalon2012.mbets-error-below-1pct", grid=grid) == "not reproduced"
        assert verdict("zaffalon2012.mbets-error-below-1pct", grid=grid.iloc[[1]]) == "reproduced"

    def test_risk_aversion_direction_on_hand_made_differences(self):
        m, n, a = zt.M, zt.NB, zt.A
        exact = pd.DataFrame({"a": [1.0], "d_exact": [0.01]})
        # d = m exp(-a m / n) peaks at m = n/a: earlier for larger a, as the book derives
        assert verdict("zaffalon2012.exp-risk-aversion-delays", d=m * sp.exp(-a * m / n), exact=exact) == "erratum"
        # d = m exp(-m / (a n)) peaks at m = a n: later for larger a, as the paper says
        assert verdict("zaffalon2012.exp-risk-aversion-delays", d=m * sp.exp(-m / (a * n)), exact=exact) == "reproduced"


class TestSection9:
    def test_f1_not_closer_to_u80_at_two_classes(self):
        # k = 2: |F1 - u80| = |2/3 - 4/5| = 2/15 > |F2 - u80| = |5/6 - 4/5| = 1/30;
        # k = 3: |1/2 - 3/5| = 1/10 < |5/7 - 3/5| = 4/35
        assert zt.ut.sizes_where_not_closer(1, 2, 0.8) == sp.FiniteSet(2)
        assert zt.ut.sizes_where_not_closer(1, 2, 0.65).is_empty
        # closer to u65 at every k, not to u80 at k = 2: one of two parts holds (policy.PARTLY)
        assert verdict("zaffalon2012.f1-closer-than-f2", rival=2) == "partly"
        # F5 is farther from both at every k: both parts hold
        assert verdict("zaffalon2012.f1-closer-than-f2", rival=5) == "reproduced"

    def test_u80_above_one(self):
        assert verdict("zaffalon2012.u80-above-one", u=-sp.Rational(6, 5) * X ** 2 + sp.Rational(11, 5) * X) == "reproduced"
        assert verdict("zaffalon2012.u80-above-one", u=X) == "not reproduced"

    def test_exponential_fits(self):
        # 1/(1 + exp(-a/2)) = 0.8 has a = 2 log 4 > 0; = 0.5 only at a = 0
        assert verdict("zaffalon2012.exponential-cannot-fit", u_halves=(sp.Rational(4, 5),)) == "not reproduced"
        assert verdict("zaffalon2012.exponential-cannot-fit", u_halves=(sp.Rational(1, 2),)) == "reproduced"

    def test_binary_rule_by_hand(self):
        u, accuracy, p = zt.U_HALF, sp.Symbol("A_I", positive=True), sp.Symbol("P_I", positive=True)
        table = pd.DataFrame({"nbc_ncc_i_pct": [60, 70]})
        ncc_minus_nbc = p * (u - accuracy)
        assert verdict("zaffalon2011.binary-u-half-rule", gap=ncc_minus_nbc, table=table) == "erratum"
        assert verdict("zaffalon2011.binary-u-half-rule", gap=-ncc_minus_nbc, table=table) == "reproduced"
        finding = zt.binary_u_half_rule(ncc_minus_nbc, table)
        assert "NCC ahead at 1 of 2 sizes" in finding.detail and "printed rule at 1" in finding.detail


class TestDerivationsAddedForTheLedger:
    def test_expected_taylor_polynomial_is_eq2(self):
        u0, _, u2 = zt.ut.U_AT_MU
        for outcomes in (2, 3):
            assert sp.simplify(zt.ut.expected_taylor_polynomial(outcomes) - (u0 + u2 * zt.ut.VAR / 2)) == 0

    def test_sure_reward_strategy_is_uniform(self):
        assert zt.betting.sure_reward_strategies(3) == [dict(zip(sp.symbols("sigma1:4", real=True), [sp.Rational(1, 3)] * 3))]

    def test_risk_aversion_coefficients(self):
        assert sp.simplify(zt.ut.absolute_risk_aversion(zt.ut.exponential_utility()) - zt.A) == 0
        # u(1/2) = 1/(1 + exp(-a/2)) = 4/5 -> exp(a/2) = 4 -> a = 2 log 4
        assert sp.simplify(zt.ut.exponential_risk_aversions(0.8)[0] - 2 * sp.log(4)) == 0
        assert zt.ut.exponential_risk_aversions(0.5) == []

    def test_eq2_relative_errors(self):
        errors = zt.ut.eq2_relative_errors({"u65": zt.U65, "log": zt.ut.log_utility()}, n_classes=3, draws=50, seed=1)
        assert len(errors) == 100 and errors.loc[errors["utility"] == "u65", "rel_error"].max() < 1e-12
        assert errors.loc[errors["utility"] == "log", "rel_error"].max() > 1e-4

    def test_binary_gap(self):
        p_i, a_i = sp.symbols("P_I A_I", positive=True)
        assert sp.expand(zt.ut.binary_credal_minus_precise() - p_i * (zt.U_HALF - a_i)) == 0


# ---------------------------------------------------------------- the referees' audit (issue 24)

def test_theorem1_game_value_depends_on_houses_domain():
    assert zt.game_value(4, 2, np.eye(4)[:2]) == pytest.approx(1 / 2)   # θ on the simplex over K
    assert zt.game_value(4, 2, np.eye(4)) == pytest.approx(0, abs=1e-12)  # θ anywhere: House plays e_j, j ∉ K
    assert zt.game_value(3, 3, np.eye(3)) == pytest.approx(1 / 3)      # k = n: the two domains agree
    domains = zt.theorem1_proof_domains()
    assert verdict("zaffalon2012.theorem1-domain", domains=domains) == "erratum"
    assert verdict("zaffalon2011.theorem1-domain", domains=domains) == "erratum"
    on_k = [(n, k, np.eye(n)[:k]) for n, k, _ in domains]
    assert verdict("zaffalon2012.theorem1-domain", domains=on_k) == "reproduced"
    assert CLAIMS["zaffalon2011.theorem1-domain"].finding == "zaffalon2012.theorem1-domain"
    assert CLAIMS["zaffalon2011.mbets-error-below-1pct"].finding == "zaffalon2012.mbets-error-below-1pct"
