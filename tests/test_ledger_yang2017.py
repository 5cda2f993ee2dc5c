"""Checks of Yang, Destercke & Masson (2017) on small inputs worked out by hand."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import sympy as sp

from credalbook.book.experiments import costs as experiment
from credalbook.book.ledger import yang2017 as entries
from credalbook.book.theory import costs as theory


def _curve(costs_by_s: list[float], r: float = 0.0, variant: str = "cautious", dataset: str = "ERA",
           s_values=(0.01, 0.1, 1.0, 10.0)) -> pd.DataFrame:
    """Per-fold rows of one Fig. 3 curve: one fold of 10 instances, average cost as given."""
    return pd.DataFrame({"dataset": dataset, "repetition": 0, "fold": 0, "s": list(s_values), "r": r,
                         "variant": variant, "cost_sum": [10 * c for c in costs_by_s], "size_sum": 10, "n_test": 10})


def test_curve_shapes_by_hand():
    shape = experiment.curve_shapes(_curve([3.0, 1.0, 1.5, 2.0])).iloc[0]
    assert shape["optimal s"] == 0.1 and shape["interior"]
    assert shape["drop"] == pytest.approx(2.0)
    assert shape["largest step down"] == pytest.approx(2.0) and shape["largest step up"] == pytest.approx(0.5)
    ends = experiment.curve_shapes(_curve([3.0, 2.0, 1.5, 1.0])).iloc[0]
    assert not ends["interior"] and ends["optimal s"] == 10.0 and ends["largest step up"] == 0.0


def test_r0_curve_must_never_fall():
    rising = entries.fig3_r0_increasing(_curve([1.0, 1.0, 1.2, 2.0]))
    assert rising.book is True
    dipping = entries.fig3_r0_increasing(_curve([1.0, 0.999, 1.2, 2.0]))
    assert dipping.book is False and "0.001" in dipping.detail


def test_r1_curve_must_never_rise():
    falling = entries.fig3_r1_decreasing(_curve([2.0, 1.0, 0.5, 0.0], r=1.0))
    bump = entries.fig3_r1_decreasing(_curve([2.0, 1.0, 1.1, 0.0], r=1.0))
    assert falling.book is True and bump.book is False


def _repeated(costs_by_repetition: list[list[float]], r: float = 0.0, variant: str = "cautious",
              dataset: str = "ERA") -> pd.DataFrame:
    return pd.concat([_curve(costs, r=r, variant=variant, dataset=dataset).assign(repetition=i)
                      for i, costs in enumerate(costs_by_repetition)], ignore_index=True)


def test_a_step_the_wrong_way_within_the_spread_of_one_run_is_not_an_exception():
    # the dip from s = 0.01 to 0.1 is 0.002 on average, its spread over the repetitions 0.002 * sqrt(2) ~ 0.0028
    noisy = _repeated([[1.0, 0.996, 1.2, 2.0], [1.0, 1.0, 1.2, 2.0]])
    within = entries.fig3_r0_increasing(noisy)
    assert within.book is True and "beyond noise: 0" in within.detail
    steady = _repeated([[1.0, 0.99, 1.2, 2.0], [1.0, 0.99, 1.2, 2.0]])  # the same dip every time: no spread
    assert entries.fig3_r0_increasing(steady).book is False


def test_plausible_optima_are_the_s_within_noise_of_the_least_cost():
    costs = np.array([[3.0, 1.0, 1.02, 2.0], [3.0, 1.02, 1.0, 2.0], [3.0, 1.0, 1.0, 2.0]])
    assert entries.plausible_optima(costs).tolist() == [False, True, True, False]
    steps, spread = entries.noisy_steps(costs)
    assert steps == pytest.approx([-1.99333, 0.0, 0.99333], abs=1e-4) and spread[0] == pytest.approx(0.011547, abs=1e-5)


def test_mistake_averse_optimum_at_most_the_cautious_one():
    def frame(averse_costs):
        parts = []
        for dataset in experiment.DATASETS:
            for r in entries.PAPER_R:
                parts += [_curve([3.0, 1.0, 2.0, 3.0], r=r, dataset=dataset),        # cautious optimum s = 0.1
                          _curve(averse_costs, r=r, variant="mistake_averse", dataset=dataset)]
        return pd.concat(parts, ignore_index=True)

    assert entries.fig3_mistake_averse_smaller_s(frame([1.0, 2.0, 3.0, 4.0])).book is True    # 0.01 < 0.1
    assert entries.fig3_mistake_averse_smaller_s(frame([3.0, 1.0, 2.0, 3.0])).book is False   # equal everywhere
    assert entries.fig3_mistake_averse_smaller_s(frame([3.0, 2.0, 1.0, 3.0])).book is False   # 1.0 > 0.1


def _table12_rows(costs: dict) -> pd.DataFrame:
    return pd.DataFrame([{"dataset": d, "repetition": 0, "fold": 0, "method": m, "cost_sum": 10 * c, "size_sum": 10,
                          "n_test": 10} for (d, m), c in costs.items()])


def test_trees_must_beat_the_ncc_on_every_dataset():
    wins = {(d, m): c for d in experiment.DATASETS for m, c in (("NCC", 1.0), ("2Tr", 0.8), ("Fo", 0.9))}
    loss = {**wins, ("LEV", "Fo"): 1.01}
    assert entries.trees_outperform_ncc(_table12_rows(wins), _table12_rows(loss)).book is True
    finding = entries.trees_outperform_ncc(_table12_rows(loss), _table12_rows(wins))
    assert finding.book is False and "LEV: NCC 1.000, 2Tr 0.800, Fo 1.010" in finding.detail


def test_largest_average_cost_on_lev_by_hand():
    # LEV's classes 0..4 have 93, 280, 403, 197, 27 instances; the largest l1 cost of class y is max(y, 4 - y)
    by_hand = (93 * 4 + 280 * 3 + 403 * 2 + 197 * 3 + 27 * 4) / 1000
    ranges = experiment.cost_range(("LEV",)).set_index("dataset")
    assert by_hand == 2.717 and ranges.loc["LEV", "largest possible"] == pytest.approx(by_hand)
    assert ranges.loc["LEV", "vacuous set"] < ranges.loc["LEV", "largest possible"]


def test_a_printed_cost_above_the_largest_possible_is_an_erratum():
    ranges = pd.DataFrame({"dataset": ["LEV"], "largest possible": [2.717], "vacuous set": [1.06]})
    assert entries.table12_lev_ncc_bound(3.43, ranges).verdict == "erratum"
    assert entries.table12_lev_ncc_bound(2.5, ranges).verdict == "not checkable"


def test_printed_property_2_on_a_two_class_matrix():
    subsets = [(0,), (1,), (0, 1)]
    # discounted costs of {0, 1}: ((0 + 4)/2, (2 + 0)/2) = (2, 1)
    below = np.array([[0, 2], [4, 0], [0.5, 0.5]], dtype=float)
    assert entries.property2_sign((subsets, below)).verdict == "erratum"          # (0.5, 0.5) <= (2, 1)
    above = np.array([[0, 2], [4, 0], [3.0, 0.5]], dtype=float)
    assert entries.property2_sign((subsets, above)).verdict == "reproduced"       # 3 > 2: not element-wise <=


def test_properties_text():
    holds = {n: n in (2, 3, 8) for n in range(1, 11)}
    assert entries._properties_text(holds, (2, 3, 8)) == "holds: 2, 3, 8"
    assert entries._properties_text(holds, (4, 8), (10,)) == "holds: 8; fails: 4, 10"


def test_translation_by_epsilon_flips_a_comparison_for_p_minus_1():
    rows = theory.translation_comparison(-1)
    # M_-1(1/100, 401/100) = 2 / (100 + 100/401) = 401/20100; M_-1(10, 14) = 2 / (1/10 + 1/14) = 35/3
    assert rows[0]["{h,n}"] == sp.Rational(401, 20100) and rows[0]["cheaper"] == "{h,n}"
    assert rows[1]["{h,n}"] == sp.Rational(35, 3) and rows[1]["{b}"] == 11 and rows[1]["cheaper"] == "{b}"
    assert entries.translation_comparison(-1).verdict == "erratum"
    assert entries.translation_comparison(1).book is True


def test_utilities_by_hand():
    x = theory.X_UTILITY
    assert sp.simplify(theory.f_beta_utility(1) - 2 * x / (x + 1)) == 0
    assert theory.zero_one_p_discounted_utility(0.5).subs(x, sp.Rational(1, 2)) == sp.Rational(3, 4)
    assert all(theory.utility_conditions(2 * x - x ** 2).values())
    conditions = theory.utility_conditions(x ** 2)
    assert not conditions["g(x) >= x"] and not conditions["concave"]


def test_section_keeps_the_named_entries():
    rows = pd.DataFrame({"id": ["yang2017.example4-prediction", "yang2017.fig3-r-orders", "yang2017_table3[subset=h; h]"],
                         "chapter": "chapters/costs/tables", "entry": ["claim", "claim", "table"],
                         "statement": ["a", "b", "c"], "section": "§", "published": "1", "book": "1", "kind": "number",
                         "verdict": "reproduced"})
    text = entries.section(rows, "chapters/costs/tables", "yang2017.example4", "yang2017_table3")
    assert "“a”" in text and "“b”" not in text and "| Table III |" in text


def test_the_table12_record_cites_every_computed_reading():
    """The note on Table XII's costs quotes what table12_agreement computes from the stored readings (no stale text)."""
    from credalbook.book.experiments.store import load_results
    from credalbook.book.reference import published_source

    why = next(rule["why"] for rule in published_source("yang2017_table12")["cells"]
               if rule.get("measure") == "cost" and "match" not in rule)
    agreement = experiment.table12_agreement(experiment.table12_reading_frames(load_results("yang2017_table12_readings")))
    assert not agreement["reproduces"].any() and "No reading reproduces the table" in why
    for row in agreement.itertuples():
        numbers = f"{row.mean_abs_difference:.3f}, {row.within_tolerance}, {row.ranks_agreeing}"
        assert numbers in why, row.reading


# ---------------------------------------------------------------- the referees' audit (issue 24)

def test_property3_implies_property2_on_check_properties():
    from credalbook import costs
    from credalbook.book.ledger import core

    matrices = entries.property3_matrices(count=60)
    results = [costs.check_properties(rows, m, properties=(2, 3)) for rows, m in matrices]
    assert any(r[3].holds for r in results) and all(r[2].holds for r in results if r[3].holds)
    claim = next(c for c in core.claims() if c.id == "yang2017.property3-implies-property2")
    grades = entries.table8_grades()
    assert grades == {"filtering": {2: "D", 3: "N"}, "choice": {2: "D", 3: "N"}}
    assert core.evaluate_claim(claim, {"matrices": matrices, "grades": grades})["verdict"] == "erratum"
    necessary = {s: {2: "N", 3: "N"} for s in grades}
    assert core.evaluate_claim(claim, {"matrices": matrices, "grades": necessary})["verdict"] == "reproduced"


def test_a_curve_least_inside_dips_below_its_chord():
    falling_rising = np.array([[3.0, 2.0, 1.0, 2.0, 3.0], [3.1, 2.1, 1.1, 2.1, 3.0]])
    assert (entries._chord_gap(np.arange(5.0), falling_rising) < 0).all()
    assert (entries._chord_gap(np.arange(5.0), -falling_rising) > 0).all()   # concave: above its chord
