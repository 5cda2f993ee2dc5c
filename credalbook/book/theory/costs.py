"""Symbolic derivations for Yang, Destercke & Masson (2017), "The costs of indeterminacy".

Each ``*_expr``/``symbolic_*`` function returns sympy objects for the chapter to display; each
``check_*`` function returns ``True`` (or the exact value the paper prints) and is asserted by
``tests/test_costs_theory.py``. The extended matrices are derived here from the paper's
definitions, independently of the numerical rules of :mod:`credalbook.costs`, and compared
with them.
"""
from __future__ import annotations

from itertools import combinations, permutations

import numpy as np
import sympy as sp

__all__ = ["CLASSES_EXAMPLE_1", "TABLE_I", "power_mean", "symbolic_discounted", "symbolic_p_discounted",
           "symbolic_ha", "check_against_numeric", "utility_cost_exact", "check_table_iii_full_set",
           "check_proposition_1", "examples_5_6", "power_mean_derivative_identity",
           "check_power_mean_monotone", "check_power_mean_limits", "check_between_min_and_max",
           "check_reward_two_classes", "check_reward_rightful_cautiousness", "check_permutation_invariance",
           "ha_reward_condition", "check_ha_condition_erratum", "decision_boundaries", "TABLE_VI",
           "TABLE_VII", "check_example_7", "table_ii_template", "derive_table_vii", "X_UTILITY",
           "utility_conditions", "f_beta_utility", "zero_one_p_discounted_utility",
           "check_geometric_mean_limit", "translation_comparison", "LEDGER_PAGES", "ledger_slice",
           "property_grid", "table_viii_frame", "plot_decision_regions"]

#: The classes of Yang et al. (2017) Example 1 (h, b, n).
CLASSES_EXAMPLE_1 = ("h", "b", "n")
#: The cost matrix of Example 1, rows the prediction and columns the truth (Yang et al. 2017, Table I).
TABLE_I = sp.Matrix([[0, 1, 2], [1, 0, 2], [4, 4, 0]])   # rows: prediction, columns: truth


def _subsets(k: int):
    return [c for size in range(1, k + 1) for c in combinations(range(k), size)]


def power_mean(values, p):
    """Generalised mean of order p (Eq. 12); the geometric mean for p = 0 (Eq. 13)."""
    n = len(values)
    if p == 0:
        return sp.Mul(*values) ** sp.Rational(1, n)
    return (sp.Add(*[v ** p for v in values]) / n) ** (1 / sp.sympify(p))


# --------------------------------------------------------------------------------------------
# exact extended matrices from the definitions
# --------------------------------------------------------------------------------------------
def symbolic_discounted(cost: sp.Matrix = TABLE_I) -> sp.Matrix:
    """Def. 3 (Eq. 10) row by row, exact (Table V for Table I)."""
    k = cost.shape[0]
    return sp.Matrix([[sp.Rational(1, len(s)) * sum(cost[i, y] for i in s) for y in range(k)] for s in _subsets(k)])


def symbolic_p_discounted(cost: sp.Matrix = TABLE_I, r=sp.Rational(1, 2), variant: str = "cautious") -> sp.Matrix:
    """Eqs. (14)-(16) exact (Table X for Table I, r = 1/2, cautious)."""
    k = cost.shape[0]
    rows = []
    for s in _subsets(k):
        row = []
        for y in range(k):
            order = 1 - r if (variant == "cautious" or y in s) else 1 + r
            row.append(sp.nsimplify(power_mean([cost[i, y] for i in s], order)))
        rows.append(row)
    return sp.Matrix(rows)


def symbolic_ha(k: int = 3):
    """Table IX: ``η(y)[y ∉ Y] + δ(|Y| - 1)`` with symbols η_a, η_b, ... and δ; returns (matrix, etas, delta)."""
    names = "abcdefghij"[:k]
    etas = sp.symbols(" ".join(f"eta_{c}" for c in names), positive=True)
    delta = sp.Symbol("delta", positive=True)
    matrix = sp.Matrix([[(0 if y in s else etas[y]) + delta * (len(s) - 1) for y in range(k)] for s in _subsets(k)])
    return matrix, etas, delta


def check_against_numeric(symbolic: sp.Matrix, numeric: np.ndarray, atol: float = 1e-12) -> bool:
    """The exact matrix equals the numerical one of :mod:`credalbook.costs` cell by cell."""
    exact = np.array(symbolic.evalf(), dtype=float)
    return exact.shape == numeric.shape and bool(np.allclose(exact, numeric, atol=atol, rtol=0))


def utility_cost_exact(size: int, u=sp.Rational(13, 20)):
    """``1 - g(1/|Y|)`` with g quadratic, g(1) = 1, g(1/2) = u (Eq. 8): the correct-set cells of Table III."""
    x = sp.Symbol("x")
    a = 2 - 4 * u
    g = a * x ** 2 + (1 - a) * x
    return sp.nsimplify(1 - g.subs(x, sp.Rational(1, size)))


def check_table_iii_full_set() -> dict:
    """Table III's {h, b, n} cell: exact 8/15 = 0.5333, printed 0.54 (an erratum: it rounds to 0.53)."""
    exact = utility_cost_exact(3)
    return {"exact": exact, "decimal": float(exact), "printed": 0.54, "rounds_to_printed": round(float(exact), 2) == 0.54}


# --------------------------------------------------------------------------------------------
# Proposition 1
# --------------------------------------------------------------------------------------------
def check_proposition_1(k: int = 3, discounted_rule=None) -> bool:
    """``E_p[c̄_Y] = (1/|Y|) Σ_{ŷ∈Y} E_p[c_ŷ]`` for every Y, symbolically, with symbolic costs and p.

    Hence ``E_p[c̄_Y] - min_ŷ E_p[c_ŷ] = (1/|Y|) Σ (E_p[c_ŷ] - min)`` is a sum of non-negative terms.
    ``discounted_rule`` (default :func:`symbolic_discounted`) builds the extended matrix checked.
    """
    c = sp.Matrix(k, k, lambda i, j: sp.Symbol(f"c_{i}{j}", nonnegative=True))
    p = sp.symbols(f"p0:{k}", nonnegative=True)
    expected = [sum(p[y] * c[i, y] for y in range(k)) for i in range(k)]
    discounted = (discounted_rule or symbolic_discounted)(c)
    for row, s in enumerate(_subsets(k)):
        lhs = sum(p[y] * discounted[row, y] for y in range(k))
        if sp.simplify(lhs - sp.Rational(1, len(s)) * sum(expected[i] for i in s)) != 0:
            return False
    return True


def examples_5_6() -> dict:
    """Examples 5 and 6 under the uniform p: E[c_{h,b}] = 5/6 resp. 7/6 against E[c_h] = E[c_b] = 1."""
    uniform = sp.Matrix([sp.Rational(1, 3)] * 3)
    row_h, row_b = TABLE_I.row(0), TABLE_I.row(1)
    ex5 = sp.Matrix([[sp.Rational(1, 4), sp.Rational(1, 4), 2]])
    ex6 = sp.Matrix([[sp.Rational(1, 4), sp.Rational(1, 4), 3]])
    return {"E[c_h]": (row_h * uniform)[0], "E[c_b]": (row_b * uniform)[0],
            "example 5 E[c_hb]": (ex5 * uniform)[0], "example 6 E[c_hb]": (ex6 * uniform)[0],
            "example 6 at p(h)=p(b)=1/2": (ex6 * sp.Matrix([sp.Rational(1, 2), sp.Rational(1, 2), 0]))[0]}


# --------------------------------------------------------------------------------------------
# the power-mean inequality and the properties of p-discounted costs
# --------------------------------------------------------------------------------------------
def power_mean_derivative_identity(n: int = 3):
    """p² d/dp log M_p = [Σ w u log u - S log S] / S with u_i = x_i^p, S = Σ w u (weights w = 1/n).

    The bracket is Jensen's gap of the convex φ(t) = t log t, so d/dp log M_p >= 0: M_p is
    non-decreasing in p, strictly unless all x_i are equal (the power-mean inequality).
    Returns (lhs, rhs, difference simplified to 0).
    """
    x = sp.symbols(f"x1:{n + 1}", positive=True)
    p = sp.Symbol("p", positive=True)
    mean = sp.Add(*[xi ** p for xi in x]) / n
    lhs = p ** 2 * sp.diff(sp.log(mean) / p, p)
    u = [xi ** p for xi in x]
    s = sp.Add(*u) / n
    rhs = (sp.Add(*[ui * sp.log(ui) for ui in u]) / n - s * sp.log(s)) / s
    return lhs, rhs, sp.simplify(sp.expand_log(lhs - rhs, force=True))


def check_power_mean_monotone(n: int = 3) -> bool:
    """The identity above holds and φ(t) = t log t is convex (φ'' = 1/t > 0)."""
    _, _, difference = power_mean_derivative_identity(n)
    t = sp.Symbol("t", positive=True)
    return difference == 0 and sp.diff(t * sp.log(t), t, 2).is_positive is True


def check_power_mean_limits() -> bool:
    """M_p(a, b) -> max as p -> +oo and -> min as p -> -oo (here a = 1, b = 4), so M_{±oo} are max/min."""
    p = sp.Symbol("p", positive=True)
    mean = ((1 + sp.Integer(4) ** p) / 2) ** (1 / p)
    q = sp.Symbol("q", positive=True)   # p = -q
    mean_negative = ((1 + sp.Integer(4) ** (-q)) / 2) ** (-1 / q)
    return sp.limit(mean, p, sp.oo) == 4 and sp.limit(mean_negative, q, sp.oo) == 1


def check_between_min_and_max(n: int = 3) -> bool:
    """Properties 4 and 10: M_p is non-decreasing in each argument and M_p(m, ..., m) = m (p > 0).

    Hence min <= M_p(x) <= max: the p-discounted costs (orders 1 - r and 1 + r) are bounded by
    the least and the largest member cost.
    """
    x = sp.symbols(f"x1:{n + 1}", positive=True)
    p, m = sp.symbols("p m", positive=True)
    mean = power_mean(list(x), p)
    increasing = sp.simplify(sp.diff(mean, x[0]) / (x[0] ** (p - 1) * mean ** (1 - p) / n))
    constant = sp.simplify(power_mean([m] * n, p))
    return increasing == 1 and constant == m


def check_reward_two_classes():
    """Properties 2/3 on a pair {y, y'} with truth y: c̄^q(0, a) / c̄^1(0, a) = 2^(1 - 1/q) < 1 iff q < 1.

    With q = 1 - r, r in (0, 1): the p-discounted cost of a correct pair is below its
    discounted cost (Property 3, hence 2); r = 0 gives equality (no reward). Returns the ratio.
    """
    a, q = sp.symbols("a q", positive=True)
    ratio = sp.simplify(power_mean([0, a], q) / power_mean([0, a], 1))
    return ratio


def check_reward_rightful_cautiousness() -> bool:
    """The ratio of :func:`check_reward_two_classes` is 2^(1 - 1/q), < 1 exactly for 0 < q < 1."""
    q = sp.Symbol("q", positive=True)
    ratio = check_reward_two_classes()
    solution = sp.solve_univariate_inequality(ratio < 1, q, relational=False)
    return sp.simplify(ratio - 2 ** (1 - 1 / q)) == 0 and solution == sp.Interval.open(0, 1)


def check_permutation_invariance(n: int = 3) -> bool:
    """Property 5: the generalised mean is a symmetric function of the member costs."""
    x = sp.symbols(f"x1:{n + 1}", positive=True)
    r = sp.Symbol("r", positive=True)
    mean = power_mean(list(x), 1 - r)
    return all(sp.simplify(mean - mean.subs(dict(zip(x, perm)), simultaneous=True)) == 0 for perm in permutations(x))


# --------------------------------------------------------------------------------------------
# Ha's class-selective rejection (Table IX)
# --------------------------------------------------------------------------------------------
def ha_reward_condition(size):
    """Property 3 for Ha's costs on a set of ``size`` classes containing y: ``δ(|Y|-1) < (|Y|-1)η/|Y| ⟺ δ < η/|Y|``."""
    eta, delta = sp.symbols("eta delta", positive=True)
    n = sp.Integer(size)
    mean = (n - 1) * eta / n          # discounted cost: |Y| - 1 members cost η, the true one 0
    inequality = delta * (n - 1) < mean
    return sp.solve(inequality, delta), delta, eta


def check_ha_condition_erratum(k: int = 3) -> dict:
    """Ha's δ < η/2 guarantees Properties 2-3 only for pairs; the set of all K classes needs δ < η/K."""
    conditions = {size: ha_reward_condition(size)[0] for size in range(2, k + 1)}
    eta, delta = sp.symbols("eta delta", positive=True)
    counter = {delta: sp.Rational(2, 5), eta: 1}        # δ = 0.4 < η/2 = 0.5, yet δ > η/3
    return {"conditions": conditions,
            "paper_condition_sufficient": all(bool(c.subs(counter)) for c in conditions.values())}


# --------------------------------------------------------------------------------------------
# Example 7 and Fig. 2
# --------------------------------------------------------------------------------------------
def decision_boundaries(table: sp.Matrix):
    """Values of q = p(n|x) where the optimal prediction changes, for a binary extended matrix.

    ``table`` rows: {h}, {n}, {h, n}; columns: truth h, n. Expected costs are linear in q;
    returns ({h}|{h,n} boundary, {h,n}|{n} boundary) solved exactly.
    """
    q = sp.Symbol("q", nonnegative=True)
    expected = [row[0] * (1 - q) + row[1] * q for row in table.tolist()]
    first = sp.solve(sp.Eq(expected[0], expected[2]), q)[0]
    second = sp.solve(sp.Eq(expected[1], expected[2]), q)[0]
    return first, second


#: A two-class cost matrix with a reject row (1/2, 1/2) (Yang et al. 2017, Table VI).
TABLE_VI = sp.Matrix([[0, 2], [4, 0], [sp.Rational(1, 2), sp.Rational(1, 2)]])
#: The same with an asymmetric reject row (1/4, 3/4) (Yang et al. 2017, Table VII).
TABLE_VII = sp.Matrix([[0, 2], [4, 0], [sp.Rational(1, 4), sp.Rational(3, 4)]])


def check_example_7() -> bool:
    """Fig. 2: boundaries 1/4, 7/8 (Table VI) move left to 1/6, 5/6 (Table VII); Table VII gives 1/2 at q = 1/2."""
    half = (TABLE_VII[2, 0] + TABLE_VII[2, 1]) / 2
    return (decision_boundaries(TABLE_VI) == (sp.Rational(1, 4), sp.Rational(7, 8))
            and decision_boundaries(TABLE_VII) == (sp.Rational(1, 6), sp.Rational(5, 6))
            and half == sp.Rational(1, 2) and TABLE_VII[2, 1] == 3 * TABLE_VII[2, 0])


def table_ii_template():
    """Table II: the extended matrix of Example 2, determinate rows from Table I, unknown c_Y(y) elsewhere."""
    rows = []
    for s in _subsets(3):
        if len(s) == 1:
            rows.append(list(TABLE_I.row(s[0])))
        else:
            name = ",".join(CLASSES_EXAMPLE_1[i] for i in s)
            rows.append([sp.Symbol(rf"c_{{\{{{name}\}}}}({y})") for y in CLASSES_EXAMPLE_1])
    return sp.Matrix(rows)


def derive_table_vii():
    """Example 7: c_{h,n}(n) = 3 c_{h,n}(h) and E[c_{h,n}] = 1/2 at p(h) = p(n) give Table VII's row (1/4, 3/4)."""
    ch, cn = sp.symbols("c_h c_n", nonnegative=True)
    solution = sp.solve([sp.Eq(cn, 3 * ch), sp.Eq((ch + cn) / 2, sp.Rational(1, 2))], [ch, cn], dict=True)[0]
    return solution[ch], solution[cn]


# --------------------------------------------------------------------------------------------
# utility-discounted readings (Sections III-B and VIII) and Section VI's remarks on p <= 0
# --------------------------------------------------------------------------------------------
#: The reward x of the utility-discounted readings (§III-B and §VIII).
X_UTILITY = sp.Symbol("x", nonnegative=True)


def utility_conditions(g) -> dict:
    """Zaffalon et al.'s conditions on a utility g(x) of ``x = 1/|Y|`` (Section III-A), checked exactly.

    g(0) = 0, g(1) = 1, g(x) >= x on [0, 1] and g concave (g'' <= 0 on [0, 1]).
    """
    x = X_UTILITY
    unit = sp.Interval(0, 1)
    below = sp.solve_univariate_inequality(sp.simplify(g - x) < 0, x, relational=False, domain=unit)
    convex = sp.solve_univariate_inequality(sp.simplify(sp.diff(g, x, 2)) > 0, x, relational=False, domain=unit)
    return {"g(0) = 0": sp.simplify(g.subs(x, 0)) == 0, "g(1) = 1": sp.simplify(g.subs(x, 1)) == 1,
            "g(x) >= x": below.is_empty is True, "concave": convex.is_empty is True}


def f_beta_utility(beta=1):
    """Section III-B: with ``P = 1/|Y|`` and R = 1 on a correct set, F_β = (1 + β²) x / (β² x + 1) at ``x = 1/|Y|``."""
    x, beta = X_UTILITY, sp.nsimplify(beta)
    precision, recall = x, 1
    return (1 + beta ** 2) * precision * recall / (beta ** 2 * precision + recall)


def zero_one_p_discounted_utility(r):
    """Eq. (14) on 0/1 costs: a correct set of size n has member costs (0, 1, ..., 1), so its cost is
    ((n - 1)/n)^(1/(1 - r)) = 1 - g(1/n) with g(x) = 1 - (1 - x)^(1/(1 - r)); a wrong set costs 1."""
    return 1 - (1 - X_UTILITY) ** (1 / (1 - sp.nsimplify(r)))


def check_geometric_mean_limit(a=2, b=8) -> dict:
    """Eq. (13): the convention c̄^0 = geometric mean is the limit of M_p as p -> 0 (here of a and b)."""
    p = sp.Symbol("p")
    limit = sp.limit(power_mean([sp.Integer(a), sp.Integer(b)], p), p, 0)
    geometric = sp.sqrt(sp.Integer(a) * b)
    return {"limit": limit, "geometric": geometric, "equal": sp.simplify(limit - geometric) == 0}


def translation_comparison(p=-1, epsilons=(sp.Rational(1, 100), 10), cost: sp.Matrix = TABLE_I) -> list[dict]:
    """Section VI's translation by ε of the costs before a mean of order p: two predictions for truth h.

    The set {h, n} (member costs c_h(h) = 0 and c_n(h) = 4, plus ε) against the singleton {b}
    (c_b(h) + ε = 1 + ε). Returns, for each ε, both costs and which prediction is cheaper.
    """
    rows = []
    for epsilon in epsilons:
        shift = sp.nsimplify(epsilon)
        pair = sp.nsimplify(power_mean([cost[0, 0] + shift, cost[2, 0] + shift], sp.nsimplify(p)))
        single = cost[1, 0] + shift
        rows.append({"epsilon": shift, "{h,n}": pair, "{b}": single, "cheaper": "{h,n}" if pair < single else "{b}"})
    return rows


# --------------------------------------------------------------------------------------------
# display helpers of the Part IV pages
# --------------------------------------------------------------------------------------------
#: The pages of Part IV and the ledger entries each one shows.
#: Each page lists claim id prefixes (with a dot) or published table names (without a dot); every
#: entry of Yang et al. (2017) in the ledger is shown on exactly one page.
LEDGER_PAGES = {
    "chapters/costs/tables": (
        "yang2017.complexity", "yang2017.example3", "yang2017.example4", "yang2017_table1", "yang2017.utility-g-half",
        "yang2017.table3", "yang2017.f-beta", "yang2017.zero-one-symmetry", "yang2017.discounted-accuracy",
        "yang2017_table3", "yang2017_table4", "yang2017_table5"),
    "chapters/costs/properties": (
        "yang2017.proposition-1", "yang2017.discounted-impossible", "yang2017.example5", "yang2017.example6",
        "yang2017.property", "yang2017.properties", "yang2017.example7", "yang2017.utility-properties",
        "yang2017.ha-", "yang2017.am-", "yang2017_table6", "yang2017_table7"),
    "chapters/costs/p_discounted": (
        "yang2017.power-mean", "yang2017.negative-order", "yang2017.translation", "yang2017.geometric",
        "yang2017.p-discounted", "yang2017.r-rewards", "yang2017.r0-", "yang2017.r1-", "yang2017.zero-one-consistent",
        "yang2017_table10"),
    "chapters/costs/experiments": (
        "datasets_yang2017_table11", "yang2017.lev-discrete", "yang2017.s-more-indeterminate", "yang2017.choquet",
        "yang2017.intervals-conservative", "yang2017.fig3"),
    "chapters/costs/table12": ("yang2017_table12", "yang2017.trees-outperform-ncc", "yang2017.table12-lev-ncc-bound"),
}


def _shown_on(entry_id: str, prefixes) -> bool:
    return any(entry_id.startswith(prefix if "." in prefix else prefix + "[") for prefix in prefixes)


def ledger_slice(page: str, table=None) -> str:
    """The markdown slice of the ledger that ``page`` (a key of :data:`LEDGER_PAGES`) ends with.

    The entries are those of Yang et al. (2017) named by the page's prefixes, laid out by
    :func:`credalbook.book.ledger.report.chapter_slice`; ``table`` is the ledger to slice (default: the whole
    ledger, read from its cache).
    """
    from credalbook.book import ledger

    if page not in LEDGER_PAGES:
        raise ValueError(f"page must be one of {sorted(LEDGER_PAGES)}, got {page!r}")
    rows = ledger.ledger(paper="yang2017") if table is None else table
    chosen = rows[rows["id"].map(lambda entry: _shown_on(entry, LEDGER_PAGES[page]))]
    return ledger.chapter_slice(page, table=chosen.assign(chapter=page))


def property_grid(proposals: dict):
    """Properties 1-10 of each proposal, for reading: one row per proposal, a column per property.

    ``proposals`` maps a name to an extended matrix ``(subsets, matrix)``. Cells are "✓" (holds)
    or "✗" (fails), as :func:`credalbook.costs.property_table` finds; the columns ``filtering``
    and ``choice`` say "suits" when the proposal suits the setting of Table VIII
    (:func:`credalbook.costs.suits_setting`).
    """
    import pandas as pd

    from credalbook import costs

    rows = []
    for name, (subset_list, matrix) in proposals.items():
        holds = costs.property_table(subset_list, matrix)
        row = {"proposal": name, **{str(n): "\u2713" if ok else "\u2717" for n, ok in holds.items()}}
        for setting in ("filtering", "choice"):
            row[setting] = "suits" if costs.suits_setting(holds, setting) else ""
        rows.append(row)
    return pd.DataFrame(rows)


def table_viii_frame():
    """Table VIII for reading: each property's number, name and desirability in the two settings
    (N necessary, D desirable, A application dependent, U undesirable)."""
    import pandas as pd

    from credalbook import costs

    return pd.DataFrame([{"property": n, "name": name, "filtering": costs.TABLE_VIII["filtering"][n],
                          "choice": costs.TABLE_VIII["choice"][n]} for n, name in costs.PROPERTY_NAMES.items()])


def plot_decision_regions(tables: dict, labels=("{h}", "{n}", "{h, n}"), axes=None):
    """Fig. 2 of Example 7: the expected cost of each prediction against q = p(n | x), one panel per table.

    ``tables`` maps a panel title to a binary extended matrix (sympy, rows {h}, {n}, {h, n};
    columns: truth h, n). The least expected cost is drawn thick, the region of each optimal
    prediction shaded, and the boundaries of :func:`decision_boundaries` marked with their exact
    values. Returns the figure.
    """
    import matplotlib.pyplot as plt

    from credalbook.style import COLOURS, COLUMN_WIDTH

    if axes is None:
        _, axes = plt.subplots(1, len(tables), figsize=(COLUMN_WIDTH, 3.3), sharey=True, squeeze=False)
        axes = axes[0]
    q = np.linspace(0, 1, 401)
    top = 2.0
    for ax, (title, table) in zip(axes, tables.items()):
        matrix = np.array(table.tolist(), dtype=float)
        expected = matrix[:, [0]] * (1 - q)[None, :] + matrix[:, [1]] * q[None, :]
        best = np.argmin(expected, axis=0)
        for row, label in enumerate(labels):
            ax.plot(q, expected[row], color=COLOURS[row], linewidth=1, alpha=0.5)
            ax.plot(q, np.where(best == row, expected[row], np.nan), color=COLOURS[row], linewidth=3, label=label)
            # the strip under the axis: the optimal prediction at each q
            ax.fill_between(q, -0.32, -0.1, where=best == row, color=COLOURS[row], alpha=0.45, step="mid", linewidth=0)
        for boundary in decision_boundaries(table):
            ax.axvline(float(boundary), color="#555555", linestyle=":", linewidth=1)
            ax.annotate(f"q = {boundary}", (float(boundary), top), ha="center", va="bottom", fontsize=10,
                        annotation_clip=False)
        ax.set_title(title, pad=20)
        ax.set_xlabel("q = p(n | x)")
        ax.set_xlim(0, 1)
        ax.set_xticks([0, 0.25, 0.5, 0.75, 1], ["0", "", "0.5", "", "1"])
        ax.set_ylim(-0.32, top)
        ax.set_yticks([0, 0.5, 1, 1.5, 2])
    axes[0].set_ylabel("expected cost")
    figure = axes[0].figure
    handles, names = axes[0].get_legend_handles_labels()
    figure.legend(handles, names, loc="outside upper center", ncol=len(names), title="optimal prediction",
                  title_fontsize=10)
    return figure
