"""Extended cost matrices and Properties 1-10 (Yang, Destercke & Masson 2017)."""
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from credalbook import costs
from credalbook.book.reference import published

TABLE_I = np.array([[0, 1, 2], [1, 0, 2], [4, 4, 0]], dtype=float)
LABELS = ["h", "b", "n"]


def as_published(name, matrix, labels=LABELS):
    """Book matrix aligned with the published table's rows (looked up by subset)."""
    paper = published(name)
    book = costs.cost_table(costs.subsets(len(labels)), matrix, labels).set_index("subset")
    keys = [",".join(sorted(s.split(","), key=labels.index)) for s in paper["subset"]]
    return paper.set_index("subset")[labels].to_numpy(float), book.loc[keys, labels].to_numpy(float)


def test_subset_order_is_stable():
    assert costs.subsets(3) == [(0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2)]
    assert len(costs.subsets(9)) == 511


@pytest.mark.parametrize("name, rule, params, atol", [
    ("yang2017_table3", "utility", {}, None),
    ("yang2017_table4", "f_beta", {"beta": 1.0}, 1e-9),
    ("yang2017_table5", "discounted", {}, 1e-9),
    ("yang2017_table10", "p_discounted", {"r": 0.5}, 0.005),
])
def test_published_tables_cell_by_cell(name, rule, params, atol):
    _, matrix = costs.extended_cost_matrix(TABLE_I, rule, **params)
    paper, book = as_published(name, matrix)
    if atol is None:  # Table III: every cell agrees to two decimals except the erratum cell {h,b,n}
        close = np.abs(paper - book) <= 0.005
        assert close[:-1].all()
        assert not close[-1].any() and np.allclose(book[-1], 8 / 15)
    else:
        np.testing.assert_allclose(book, paper, atol=atol, rtol=0)


def test_table_x_exact_values():
    _, matrix = costs.p_discounted_cost_matrix(TABLE_I, 0.5)
    assert matrix[-1, 2] == pytest.approx(8 / 9)
    assert matrix[3].tolist() == pytest.approx([0.25, 0.25, 2.0])


def test_ha_and_abellan_masegosa_by_hand():
    zero_one = 1 - np.eye(3)
    subsets, matrix = costs.extended_cost_matrix(zero_one * np.array([1.0, 2.0, 3.0]), "ha", delta=0.3)
    assert matrix[subsets.index((0, 1))].tolist() == pytest.approx([0.3, 0.3, 3.3])
    assert matrix[-1].tolist() == pytest.approx([0.6, 0.6, 0.6])
    subsets, matrix = costs.extended_cost_matrix(TABLE_I, "abellan_masegosa")
    assert matrix[subsets.index((0, 1)), 0] == pytest.approx(np.log(2))
    assert matrix[subsets.index((0, 1)), 2] == pytest.approx(np.log(3) * (2 / 2 + 1))
    assert matrix[0, 1] == pytest.approx(np.log(3) * 1.5)   # determinate costs are modified


def test_generalized_mean_special_orders():
    x = np.array([1.0, 4.0])
    assert costs.generalized_mean(x, 0) == pytest.approx(2.0)
    assert costs.generalized_mean(x, 1) == pytest.approx(2.5)
    assert costs.generalized_mean(x, -1) == pytest.approx(1.6)
    assert costs.generalized_mean(x, np.inf) == 4 and costs.generalized_mean(x, -np.inf) == 1
    assert costs.generalized_mean(np.array([0.0, 3.0]), 0) == 0.0
    # an order too small for the power formula (it underflows) is the geometric mean
    assert costs.generalized_mean(np.array([1.0, 2.0]), 5e-324) == pytest.approx(np.sqrt(2.0))
    assert costs.generalized_mean(np.array([1.0, 2.0]), 1e-9) == pytest.approx(np.sqrt(2.0), rel=1e-8)
    # p < 0 with a zero cost: refused, translation epsilon makes it defined
    with pytest.raises(ValueError, match="epsilon"):
        costs.extended_cost_matrix(TABLE_I, "generalized_mean", p=-1.0)
    _, matrix = costs.extended_cost_matrix(TABLE_I, "generalized_mean", p=-1.0, epsilon=0.1)
    assert matrix[3, 0] == pytest.approx(2 / (1 / 0.1 + 1 / 1.1))


@settings(max_examples=60, deadline=None)
@given(arrays(float, st.integers(2, 6), elements=st.floats(0.01, 100)), st.floats(-5, 5), st.floats(-5, 5))
def test_generalized_mean_monotone_in_p(values, p, q):
    low, high = min(p, q), max(p, q)
    assert costs.generalized_mean(values, low) <= costs.generalized_mean(values, high) * (1 + 1e-9)
    assert values.min() * (1 - 1e-9) <= costs.generalized_mean(values, low) <= values.max() * (1 + 1e-9)


random_costs = st.integers(2, 5).flatmap(
    lambda k: arrays(float, (k, k), elements=st.floats(0.1, 10)).map(lambda c: c * (1 - np.eye(k))))


@settings(max_examples=40, deadline=None)
@given(random_costs, st.floats(0.05, 1.0), st.sampled_from(costs.VARIANTS))
def test_p_discounted_properties_on_random_costs(cost, r, variant):
    subsets, matrix = costs.p_discounted_cost_matrix(cost, r, variant)
    holds = costs.property_table(subsets, matrix)
    assert all(holds[n] for n in (1, 2, 3, 4, 5, 10))
    assert holds[7 if variant == "cautious" else 6]


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 4).flatmap(lambda k: arrays(float, (k, k), elements=st.floats(0.1, 10))),
       st.floats(0.05, 1.0), st.sampled_from(costs.VARIANTS))
def test_p_discounted_properties_on_strictly_positive_costs(cost, r, variant):
    """No zero cost at all (e.g. money: a right answer still costs something); distinct values."""
    assume(np.unique(np.round(cost, 6)).size == cost.size)
    subsets, matrix = costs.p_discounted_cost_matrix(cost, r, variant)
    result = costs.check_properties(subsets, matrix, [2, 3, 4, 5, 10, 6 if variant == "mistake_averse" else 7])
    assert all(r.holds for r in result.values()), {n: r.witness for n, r in result.items() if not r.holds}


@settings(max_examples=40, deadline=None)
@given(random_costs, st.floats(0.0, 1.0), st.sampled_from(costs.VARIANTS))
def test_set_costs_equal_the_extended_matrix(cost, r, variant):
    k = len(cost)
    subsets, matrix = costs.p_discounted_cost_matrix(cost, r, variant)
    rng = np.random.default_rng(k)
    rows = rng.integers(len(subsets), size=30)
    truth = rng.integers(k, size=30)
    y_set = costs.membership([subsets[i] for i in rows], k)
    np.testing.assert_allclose(costs.set_costs(cost, truth, y_set, r=r, variant=variant), matrix[rows, truth])
    np.testing.assert_allclose(costs.set_cost_table(cost, y_set, r=r, variant=variant), matrix[rows])


def test_paper_counter_examples():
    # discounted costs: no indeterminate prediction is possible (Proposition 1), Property 2 and 3 fail
    subsets, matrix = costs.extended_cost_matrix(TABLE_I, "discounted")
    result = costs.check_properties(subsets, matrix)
    assert not result[1].holds and not result[2].holds and not result[3].holds
    # Example 5, first values: c_{h,b} = (1, 1, 2) >= discounted: {h,b} impossible, Property 2 fails
    row = subsets.index((0, 1))
    matrix5 = matrix.copy()
    matrix5[row] = [1, 1, 2]
    assert not costs.is_possible((0, 1), matrix5[row], TABLE_I)[0]
    assert costs.check_properties(subsets, matrix5, [2])[2].witness["subset"] == (0, 1)
    # second values (1/4, 1/4, 2): possible, the uniform p is a witness of Def. 4
    possible, p, _ = costs.is_possible((0, 1), [0.25, 0.25, 2], TABLE_I)
    assert possible and np.array([0.25, 0.25, 2]) @ p < min(TABLE_I[:2] @ p)
    # p-discounted with r = 0: no reward for cautiousness (Property 3 fails)
    subsets, matrix = costs.p_discounted_cost_matrix(TABLE_I, 0.0)
    assert not costs.check_properties(subsets, matrix, [3])[3].holds
    # Ha: not upper bounded (Property 10), correctness insensitive (8), mistake averse (6)
    subsets, matrix = costs.extended_cost_matrix(1 - np.eye(3), "ha", delta=0.2)
    holds = costs.property_table(subsets, matrix)
    assert not holds[10] and holds[8] and holds[6] and holds[2] and holds[3]
    # Abellan-Masegosa: Properties 2/3 not guaranteed: small costs make log|Y| too large
    subsets, matrix = costs.extended_cost_matrix(0.1 * (1 - np.eye(3)), "abellan_masegosa")
    result = costs.check_properties(subsets, matrix, [3, 4, 5, 10])
    assert not result[3].holds and result[4].holds and result[5].holds and result[10].holds


def test_example_6_and_table_vi_vii_properties():
    subsets, matrix = costs.extended_cost_matrix(TABLE_I, "discounted")
    matrix = matrix.copy()
    matrix[subsets.index((0, 1))] = [0.25, 0.25, 3]
    result = costs.check_properties(subsets[:4], matrix[:4])
    assert all(result[n].holds for n in (1, 2, 3, 4, 5, 6))
    binary = [(0,), (1,), (0, 1)]
    holds_vi = costs.property_table(binary, np.array([[0, 2], [4, 0], [0.5, 0.5]]))
    holds_vii = costs.property_table(binary, np.array([[0, 2], [4, 0], [0.25, 0.75]]))
    assert holds_vi[2] and holds_vi[3] and holds_vi[8] and not holds_vi[9]
    assert holds_vii[2] and holds_vii[3] and holds_vii[9] and not holds_vii[8]


def test_utility_discounted_satisfies_all_but_9_and_table_viii():
    subsets, matrix = costs.extended_cost_matrix(TABLE_I, "utility")
    holds = costs.property_table(subsets, matrix)
    assert [n for n, ok in holds.items() if not ok] == [9]
    # with 0/1 costs Properties 7 and 8 hold by symmetry, and each is "U" in one setting of Table VIII
    assert not costs.suits_setting(holds, "choice") and not costs.suits_setting(holds, "filtering")
    subsets, matrix = costs.p_discounted_cost_matrix(TABLE_I, 0.5, "mistake_averse")
    holds = costs.property_table(subsets, matrix)
    assert costs.suits_setting(holds, "choice") and not costs.suits_setting(holds, "filtering")


def test_ordinal_costs():
    np.testing.assert_array_equal(costs.ordinal_cost_matrix(3), [[0, 1, 2], [1, 0, 1], [2, 1, 0]])


class TestBadInput:
    def test_cost_matrix(self):
        with pytest.raises(ValueError, match="square"):
            costs.extended_cost_matrix(np.ones((2, 3)), "discounted")
        with pytest.raises(ValueError, match="non-negative"):
            costs.extended_cost_matrix(-TABLE_I, "discounted")
        with pytest.raises(ValueError, match="rule"):
            costs.extended_cost_matrix(TABLE_I, "bogus")
        with pytest.raises(ValueError, match="up to K"):
            costs.extended_cost_matrix(costs.ordinal_cost_matrix(17), "discounted")

    def test_r_and_variant(self):
        for r in (-0.1, 1.5):
            with pytest.raises(ValueError, match="r must be"):
                costs.p_discounted_cost_matrix(TABLE_I, r)
        with pytest.raises(ValueError, match="variant"):
            costs.p_discounted_cost_matrix(TABLE_I, 0.5, "bold")
        with pytest.raises(ValueError, match="delta"):
            costs.extended_cost_matrix(1 - np.eye(3), "ha", delta=-1.0)
        with pytest.raises(ValueError, match="Ha's form"):
            costs.extended_cost_matrix(TABLE_I, "ha", delta=0.1)

    def test_subsets(self):
        with pytest.raises(ValueError, match="empty set"):
            costs.membership([(0,), ()], 3)
        with pytest.raises(ValueError, match="outside"):
            costs.membership([(0, 3)], 3)
        with pytest.raises(ValueError, match="repeats"):
            costs.membership([(1, 1)], 3)
        with pytest.raises(ValueError, match="singleton"):
            costs.check_properties([(0,), (0, 1)], np.zeros((2, 2)))
        with pytest.raises(ValueError, match="rows"):
            costs.check_properties([(0,), (1,)], np.zeros((3, 2)))

    def test_set_costs(self):
        y_set = np.array([[True, False, False], [False, False, False]])
        with pytest.raises(ValueError, match="empty predicted sets"):
            costs.set_costs(TABLE_I, [0, 1], y_set, r=0.5)
        with pytest.raises(ValueError, match="outside"):
            costs.set_costs(TABLE_I, [0, 3], np.eye(3, dtype=bool)[:2], r=0.5)
        with pytest.raises(ValueError, match="columns"):
            costs.set_costs(TABLE_I, [0, 1], np.ones((2, 2), dtype=bool), r=0.5)
        with pytest.raises(ValueError, match="instances"):
            costs.set_costs(TABLE_I, [0, 1, 2], np.ones((2, 3), dtype=bool), r=0.5)

    def test_set_cost_table(self):
        with pytest.raises(ValueError, match="y_set has 1 empty"):
            costs.set_cost_table(TABLE_I, np.zeros((1, 3), dtype=bool), r=0.5)
        with pytest.raises(ValueError, match="y_set has 2 columns"):
            costs.set_cost_table(TABLE_I, np.ones((2, 2), dtype=bool), r=0.5)
        with pytest.raises(ValueError, match="cost must be square"):
            costs.set_cost_table(np.ones((3, 2)), np.ones((2, 3), dtype=bool), r=0.5)
        with pytest.raises(ValueError, match="rule must be one of"):
            costs.set_cost_table(TABLE_I, np.ones((2, 3), dtype=bool), "nearest")

    def test_generalized_mean_and_helpers(self):
        with pytest.raises(ValueError, match="p must be"):
            costs.generalized_mean([1.0, 2.0], float("nan"))
        with pytest.raises(ValueError, match="non-negative"):
            costs.generalized_mean([-1.0, 2.0], 1)
        with pytest.raises(ValueError, match="no term"):
            costs.generalized_mean([1.0, 2.0], 1, where=[False, False])
        with pytest.raises(ValueError, match="u must be"):
            costs.quadratic_utility(0.9)
        with pytest.raises(ValueError, match="setting"):
            costs.suits_setting({}, "other")
        with pytest.raises(ValueError, match="labels"):
            costs.cost_table(costs.subsets(3), np.zeros((7, 3)), ["a", "b"])
        with pytest.raises(ValueError, match="properties"):
            costs.check_properties(*costs.extended_cost_matrix(TABLE_I, "discounted"), properties=[11])
