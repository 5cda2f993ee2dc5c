"""Derivations for the certainty ratio (Aguilar-Ruiz 2025, ref 003 of the book), with checks.

- :func:`worked_example`: Examples 4-13 in exact rational arithmetic, beside the printed numbers
  (``PRINTED_MATRICES``, the matrices of Examples 3-8 as printed; :func:`eq9_as_printed`: Eq. 9's
  maximum over the instances);
- :func:`row_sum_derivation`: rows of CM* = T^T Q sum to the class counts, for general n, k;
- :func:`accuracy_decomposition_derivation`: Acc* = lambda_S Acc*_S + lambda_U Acc*_U (Eqs. 15-19);
- :func:`certainty_ratio_bounds`: 0 <= C <= 1 for measures psi >= 0 (Eq. 21), and why MCC escapes it;
- :func:`divergence_maximum`: the largest value of d(CM, CM*) (Eq. 20) is sqrt(1 - 1/k), not 1;
- :func:`check_identities_exhaustively`: the identities on fully symbolic Q for every labelling
  and every choice of decisive entries, for small n and k;
- counterexamples to statements of Sections 5-6: :func:`mcc_counterexample` (C > 1),
  :func:`zero_divergence_counterexample` (d = 0 with uncertain predictions),
  :func:`always_right_counterexample` (C = 1 without confidence), :func:`constant_guess_counterexample`
  (C = 1 for a guess), :func:`lowered_true_class` (a lower true-class probability raises C);
- display: :func:`worked_example_latex` (the worked example as the book's labelled equations),
  :func:`latex_matrix`, :func:`latex_number`.
"""
from __future__ import annotations

from itertools import product

import numpy as np
import pandas as pd
import sympy as sp
from scipy.optimize import minimize

from credalbook._validation import check_scalar

__all__ = ["EXAMPLE_LABELS", "EXAMPLE_Q", "PRINTED", "PRINTED_MATRICES", "example_matrices", "eq9_as_printed",
           "worked_example", "row_sum_derivation", "check_row_sum_derivation",
           "accuracy_decomposition_derivation", "check_accuracy_decomposition", "certainty_ratio_bounds",
           "check_certainty_ratio_bounds", "mcc_counterexample", "divergence_derivation",
           "divergence_maximum", "divergence_bound_given_counts", "check_divergence_vertices",
           "numerical_divergence_search", "always_right_counterexample", "constant_guess_counterexample",
           "lowered_true_class", "zero_divergence_counterexample", "symbolic_q",
           "check_identities_exhaustively", "latex_number", "latex_matrix", "worked_example_latex"]

N, K = sp.symbols("n k", integer=True, positive=True)
I, J, C = sp.symbols("i j c", integer=True, positive=True)
T_BASE, Q_BASE = sp.IndexedBase("T"), sp.IndexedBase("Q")

# The paper's Examples 1-5: labels A, A, A, B, B, C and the probabilities of Example 5, as rationals.
#: The labels A, A, A, B, B, C of Aguilar-Ruiz (2025) Examples 1-5, as 0, 0, 0, 1, 1, 2.
EXAMPLE_LABELS = (0, 0, 0, 1, 1, 2)
#: The probabilities of Example 5, as rationals (rows are instances, columns the classes A, B, C).
EXAMPLE_Q = sp.Matrix([[9, 1, 0], [8, 0, 2], [6, 1, 3], [4, 3, 3], [1, 8, 1], [0, 9, 1]]) / 10

# Numbers as printed in Examples 4-13 (p. 3-8 of the preprint): (quantity, printed value, decimals).
#: Numbers as printed in Examples 4-13, as (quantity, printed value, decimals).
PRINTED = [
    ("Example 4: Acc = trace(CM)/n", 0.67, 2),
    ("Example 6: column sum of CM for class A", 3, 0),
    ("Example 6: column sum of CM* for class A", 2.8, 1),
    ("Example 10: trace(CM*)", 3.5, 1),
    ("Example 10: Acc*", 0.583, 3),
    ("Example 11: lambda_S = sum(S)/n", 0.73, 2),
    ("Example 11: lambda_U = sum(U)/n", 0.27, 2),
    ("Example 11: Acc*_S = trace(S)/sum(S)", 0.705, 3),
    ("Example 11: Acc*_U = trace(U)/sum(U)", 0.25, 2),
    ("Example 12: sum of squares of CM - CM*", 1.22, 2),
    ("Example 12: d(CM, CM*)", 0.184, 3),
    ("Example 13: C = Acc*_S / (Acc*_S + Acc*_U)", 0.738, 3),
]


def _one_hot(labels, k: int) -> sp.Matrix:
    return sp.Matrix([[1 if label == j else 0 for j in range(k)] for label in labels])


# The matrices as printed in Examples 3-8 (rows: instances or true classes; columns: classes A, B, C).
#: The matrices as printed in Examples 3-8 (rows are instances or true classes, columns the classes A, B, C).
PRINTED_MATRICES = {
    "P": sp.Matrix([[1, 0, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 0]]),
    "CM": sp.Matrix([[3, 0, 0], [1, 1, 0], [0, 1, 0]]),
    "CM*": sp.Matrix([[23, 2, 5], [5, 11, 4], [0, 9, 1]]) / 10,
    "Q+": sp.Matrix([[9, 0, 0], [8, 0, 0], [6, 0, 0], [4, 0, 0], [0, 8, 0], [0, 9, 0]]) / 10,
    "Q-": sp.Matrix([[0, 1, 0], [0, 0, 2], [0, 1, 3], [0, 3, 3], [1, 0, 1], [0, 0, 1]]) / 10,
    "S": sp.Matrix([[23, 0, 0], [4, 8, 0], [0, 9, 0]]) / 10,
    "U": sp.Matrix([[0, 2, 5], [1, 3, 4], [0, 0, 1]]) / 10,
}


def example_matrices(q: sp.Matrix | None = None, labels=EXAMPLE_LABELS) -> dict[str, sp.Matrix]:
    """T, Q, P, CM, CM*, Q+, Q-, S, U of the worked example (Examples 2-8), exact.

    ``q`` (rows summing to one) and ``labels`` replace Example 5's probabilities and Example 2's
    labels; the predicted class is each row's first maximum.
    """
    q = EXAMPLE_Q if q is None else sp.Matrix(q)
    k = q.shape[1]
    t = _one_hot(labels, k)
    predicted = [max(range(k), key=lambda j, r=r: (q[r, j], -j)) for r in range(q.shape[0])]
    p = _one_hot(predicted, k)
    plus = q.multiply_elementwise(p)
    minus = q - plus
    return {"T": t, "Q": q, "P": p, "CM": t.T * p, "CM*": t.T * q, "Q+": plus, "Q-": minus,
            "S": t.T * plus, "U": t.T * minus}


def eq9_as_printed(q: sp.Matrix | None = None) -> sp.Matrix:
    """Q+ by Eq. (9) as printed: q_ij kept where q_ij = max_i q_ij, the maximum over the instances (a column).

    The text and Example 7 keep each row's maximum instead (:func:`example_matrices`).
    """
    q = EXAMPLE_Q if q is None else sp.Matrix(q)
    column_max = [max(q[:, j]) for j in range(q.shape[1])]
    return sp.Matrix(q.shape[0], q.shape[1], lambda i, j: q[i, j] if q[i, j] == column_max[j] else 0)


def worked_example(matrices: dict[str, sp.Matrix] | None = None) -> pd.DataFrame:
    """Examples 4-13 exactly: quantity, exact value (sympy), float, printed value, agrees at the printed decimals.

    ``matrices`` (from :func:`example_matrices`) replaces the paper's example.
    """
    m = example_matrices() if matrices is None else matrices
    n = m["T"].shape[0]
    total = lambda a: sum(a)  # noqa: E731 - sum of all entries
    acc_s = m["S"].trace() / total(m["S"])
    acc_u = m["U"].trace() / total(m["U"])
    diff = m["CM"] - m["CM*"]
    squares = sum(x**2 for x in diff)
    exact = [
        m["CM"].trace() / n,
        sum(m["CM"][:, 0]),
        sum(m["CM*"][:, 0]),
        m["CM*"].trace(),
        m["CM*"].trace() / n,
        total(m["S"]) / n,
        total(m["U"]) / n,
        acc_s,
        acc_u,
        squares,
        sp.sqrt(squares) / n,
        sp.nsimplify(acc_s / (acc_s + acc_u)),
    ]
    rows = []
    for (quantity, printed, decimals), value in zip(PRINTED, exact):
        value = sp.nsimplify(value)
        as_float = float(value)
        rows.append({"quantity": quantity, "exact": value, "value": as_float, "printed": printed,
                     "agrees": bool(round(as_float, decimals) == round(printed, decimals))})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------
# Identities for general n and k
# --------------------------------------------------------------------------------------------

def row_sum_derivation() -> dict[str, sp.Expr]:
    """Row c of CM* = T^T Q sums to n_c = sum_i T_ic, for any n and k (Example 6's remark).

    ``row_sum`` is sum_j sum_i T_ic Q_ij; ``factored`` moves T_ic out of the sum over j;
    ``result`` uses that every row of Q sums to one.
    """
    row_sum = sp.Sum(T_BASE[I, C] * Q_BASE[I, J], (I, 1, N), (J, 1, K))
    factored = sp.Sum(sp.factor_terms(sp.Sum(T_BASE[I, C] * Q_BASE[I, J], (J, 1, K))), (I, 1, N))
    result = factored.replace(lambda e: isinstance(e, sp.Sum) and e.function == Q_BASE[I, J], lambda e: 1)
    return {"row_sum": row_sum, "factored": factored, "result": result}


def check_row_sum_derivation(steps: dict[str, sp.Expr] | None = None) -> bool:
    """Exchanging the sums, factoring T_ic out and using sum_j Q_ij = 1 ends at the class count sum_i T_ic.

    ``steps`` (default :func:`row_sum_derivation`) are the derivation's expressions.
    """
    steps = row_sum_derivation() if steps is None else steps
    exchanged = steps["row_sum"].reorder((0, 1))
    inner = sp.Sum(T_BASE[I, C] * Q_BASE[I, J], (J, 1, K))
    return bool(exchanged == sp.Sum(T_BASE[I, C] * Q_BASE[I, J], (J, 1, K), (I, 1, N))
                and sp.factor_terms(inner) == T_BASE[I, C] * sp.Sum(Q_BASE[I, J], (J, 1, K))
                and steps["result"] == sp.Sum(T_BASE[I, C], (I, 1, N)))


def accuracy_decomposition_derivation() -> dict[str, sp.Expr]:
    """Acc* = lambda_S Acc*_S + lambda_U Acc*_U (Example 11, Eqs. 15-19) for general traces and totals.

    With t_S = trace(S), t_U = trace(U), s_S = sum(S), s_U = sum(U) > 0 and s_S + s_U = n (the
    row-sum identity), the weighted sum is (t_S + t_U)/n = trace(S + U)/n = trace(CM*)/n.
    """
    t_s, t_u, s_s, s_u = sp.symbols("t_S t_U s_S s_U", positive=True)
    n = s_s + s_u
    weighted = (s_s / n) * (t_s / s_s) + (s_u / n) * (t_u / s_u)
    return {"weighted": weighted, "simplified": sp.simplify(weighted), "acc_star": (t_s + t_u) / n}


def check_accuracy_decomposition(derivation: dict[str, sp.Expr] | None = None) -> bool:
    """The weighted sum of :func:`accuracy_decomposition_derivation` (or of ``derivation``) simplifies to Acc*."""
    d = accuracy_decomposition_derivation() if derivation is None else derivation
    return sp.simplify(d["weighted"] - d["acc_star"]) == 0


def certainty_ratio_bounds() -> dict[str, sp.Expr]:
    """C = x/(x + y) with x = psi(S), y = psi(U): C >= 0 and 1 - C = y/(x + y) >= 0 when x, y >= 0, x + y > 0.

    Accuracy, precision, recall and F1 of a non-negative matrix lie in [0, 1], so C is in
    [0, 1]; C = 1 exactly when psi(U) = 0 (for example U = 0, a classifier with 0/1
    probabilities, whatever its accuracy) and C = 0 when psi(S) = 0. MCC lies in [-1, 1]:
    with x < 0 < y, C < 0 or C > 1 (see :func:`mcc_counterexample`).
    """
    x, y = sp.symbols("x y", nonnegative=True)
    ratio = x / (x + y)
    return {"ratio": ratio, "complement": sp.simplify(1 - ratio), "derivative_x": sp.simplify(sp.diff(ratio, x)),
            "derivative_y": sp.simplify(sp.diff(ratio, y))}


def check_certainty_ratio_bounds() -> bool:
    """0 <= C <= 1 in both cases with x + y > 0: (x >= 0, y > 0) and (x > 0, y >= 0)."""
    b = certainty_ratio_bounds()
    x, y = sp.symbols("x y", nonnegative=True)
    ok = sp.simplify(b["complement"] - y / (x + y)) == 0
    for x_case, y_case in ((sp.Symbol("x", nonnegative=True), sp.Symbol("y", positive=True)),
                           (sp.Symbol("x", positive=True), sp.Symbol("y", nonnegative=True))):
        ratio = b["ratio"].subs({x: x_case, y: y_case})
        complement = b["complement"].subs({x: x_case, y: y_case})
        ok = ok and bool(ratio.is_nonnegative) and bool(complement.is_nonnegative)
    return bool(ok)


def mcc_counterexample() -> dict:
    """A 4-instance binary case where MCC(S) < 0 < MCC(U), so the MCC certainty ratio exceeds 1."""
    from credalbook import certainty as cr

    y = np.array([1, 1, 1, 0])
    q = np.array([[0.94, 0.06], [0.06, 0.94], [0.47, 0.53], [0.04, 0.96]])
    s, u = cr.certainty_decomposition(y, q)
    return {"y": y, "proba": q, "mcc_S": cr.mcc_of(s), "mcc_U": cr.mcc_of(u),
            "certainty_ratio": cr.certainty_ratio(y, q, measure="mcc")}


# --------------------------------------------------------------------------------------------
# The probabilistic divergence: its true maximum
# --------------------------------------------------------------------------------------------

def divergence_derivation() -> dict[str, sp.Expr]:
    """Per-instance deviation delta = e_m - q (a row of P - Q) and its squared norm at the vertices.

    ``squared_norm`` = (1 - q_m)^2 + sum_{j != m} q_j^2 is convex in q, so on the polytope
    {q in the simplex, q_m >= q_j} its maximum is at a vertex; the vertices are the uniform
    distributions on s classes including m (s = 1..k), where the norm is ``vertex`` = 1 - 1/s,
    increasing in s. Summing over a class (CM - CM* = T^T (P - Q)) and the triangle inequality
    give d^2 <= sum_c n_c^2 (1 - 1/k) / n^2 <= 1 - 1/k, with equality when every instance is in
    one class and every row of Q is uniform: ``maximum`` = sqrt(1 - 1/k) < 1.
    """
    s = sp.Symbol("s", integer=True, positive=True)
    q_m = sp.Symbol("q_m", nonnegative=True)
    others = sp.IndexedBase("q")
    squared_norm = (1 - q_m) ** 2 + sp.Sum(others[J] ** 2, (J, 1, K - 1))
    vertex = sp.simplify((1 - 1 / s) ** 2 + (s - 1) * (1 / s) ** 2)
    return {"squared_norm": squared_norm, "vertex": vertex, "vertex_increasing": sp.simplify(sp.diff(vertex, s)),
            "maximum": sp.sqrt(vertex.subs(s, K)), "class_bound": sp.sqrt(1 - 1 / K)}


def divergence_maximum(n_classes: int) -> float:
    """sqrt(1 - 1/k): the largest value d(CM, CM*) can take with k classes (the paper claims d <= 1)."""
    k = check_scalar(n_classes, "n_classes", low=2, integer=True)
    return float(np.sqrt(1 - 1 / k))


def divergence_bound_given_counts(class_counts) -> float:
    """sqrt(sum_c n_c^2)/n * sqrt(1 - 1/k): the maximum of d for given class counts (k = len(counts))."""
    counts = np.asarray(class_counts, dtype=float)
    if counts.ndim != 1 or counts.size < 2 or np.any(counts < 0) or counts.sum() <= 0:
        raise ValueError(f"class_counts must be k >= 2 non-negative counts with a positive total, got {class_counts!r}")
    return float(np.sqrt(np.sum(counts**2)) / counts.sum() * np.sqrt(1 - 1 / counts.size))


def check_divergence_vertices() -> bool:
    """The vertex norm simplifies to (s - 1)/s, it increases with s, and at s = k it is 1 - 1/k."""
    d = divergence_derivation()
    s = sp.Symbol("s", integer=True, positive=True)
    return bool(sp.simplify(d["vertex"] - (s - 1) / s) == 0 and d["vertex_increasing"].is_positive
                and sp.simplify(d["maximum"] - d["class_bound"]) == 0)


def numerical_divergence_search(n_classes: int, *, starts: int = 200, seed: int = 0) -> float:
    """Largest per-instance ||e_m - q|| found by SLSQP from random starts on {q in simplex, q_0 >= q_j}.

    An independent numerical check of :func:`divergence_derivation`: the result should not
    exceed sqrt(1 - 1/k) (the per-instance norm bounds d, which it attains when all instances
    share one class and one row of Q).
    """
    k = check_scalar(n_classes, "n_classes", low=2, integer=True)
    check_scalar(starts, "starts", low=1, integer=True)
    rng = np.random.default_rng(seed)
    target = np.eye(k)[0]
    constraints = [{"type": "eq", "fun": lambda q: q.sum() - 1.0}]
    constraints += [{"type": "ineq", "fun": (lambda q, j=j: q[0] - q[j])} for j in range(1, k)]
    best = 0.0
    for _ in range(starts):
        start = rng.dirichlet(np.ones(k))
        start = np.sort(start)[::-1]
        result = minimize(lambda q: -np.sum((target - q) ** 2), start, method="SLSQP",
                          bounds=[(0, 1)] * k, constraints=constraints)
        if result.success:
            best = max(best, float(np.sqrt(-result.fun)))
    return best


def always_right_counterexample() -> dict:
    """Four instances, every one predicted right with probability 0.6: C = 1 although no prediction is confident.

    Every row's leftover probability lies off the diagonal, so trace(U) = 0, Acc*_U = 0 and
    C = 1 (Section 6 reads C = 1 as "complete confidence in the classifier's decisions").
    """
    from credalbook import certainty as cr

    y = np.array([0, 0, 1, 1])
    q = np.array([[0.6, 0.4], [0.6, 0.4], [0.4, 0.6], [0.4, 0.6]])
    return {"y": y, "proba": q, "certainty_ratio": cr.certainty_ratio(y, q),
            "mean_top_probability": float(np.mean(q.max(axis=1)))}


def constant_guess_counterexample(n: int = 100, majority: float = 0.9) -> dict:
    """Always the majority class with probability one on a test set with a ``majority`` share: C = 1.

    The "classifier" performs well by chance (its accuracy is the majority share) and gets the
    largest certainty ratio: U = 0, so psi(U) = 0 (Section 6 says C penalizes such classifiers).
    """
    from credalbook import certainty as cr

    check_scalar(n, "n", low=2, integer=True)
    check_scalar(majority, "majority", low=0.5, high=1.0, high_inclusive=False)
    y = (np.arange(n) >= round(majority * n)).astype(int)
    q = np.tile([1.0, 0.0], (n, 1))
    return {"y": y, "proba": q, "accuracy": cr.accuracy_of(cr.confusion_matrix(y, q)),
            "certainty_ratio": cr.certainty_ratio(y, q)}


def lowered_true_class(y_true, proba, amount: float = 0.1) -> pd.DataFrame:
    """C before and after lowering one row's true-class probability by ``amount``, row by row, decisions kept.

    A misclassified row gives the amount to its predicted class; a correct row to its largest
    other class (rows where that would change the decision are skipped). Section 6 says low
    probabilities on the correct class lead to a lower C. Columns: row, correct, before, after.
    """
    from credalbook import certainty as cr

    y = np.asarray(y_true)
    q = np.asarray(proba, dtype=float)
    check_scalar(amount, "amount", low=0.0, low_inclusive=False, high=1.0)
    before = cr.certainty_ratio(y, q)
    predicted = np.argmax(q, axis=1)
    rows = []
    for r in range(q.shape[0]):
        true, decided = y[r], predicted[r]
        others = [j for j in range(q.shape[1]) if j != true]
        receiver = decided if decided != true else max(others, key=lambda j: q[r, j])
        shift = min(amount, q[r, true])
        lowered = q.copy()
        lowered[r, true] -= shift
        lowered[r, receiver] += shift
        if shift == 0 or np.argmax(lowered[r]) != decided:
            continue
        rows.append({"row": r, "correct": bool(decided == true), "before": before,
                     "after": cr.certainty_ratio(y, lowered)})
    return pd.DataFrame(rows, columns=["row", "correct", "before", "after"])


def zero_divergence_counterexample() -> dict:
    """Two uncertain predictions whose deviations cancel within their class: d = 0 but Q != P.

    The paper reads d = 0 as "zero uncertainty"; CM = CM* only says that the deviations
    e_m - q sum to zero within each true class.
    """
    from credalbook import certainty as cr

    y = np.array([0, 0])
    q = np.array([[0.6, 0.4], [0.4, 0.6]])
    return {"y": y, "proba": q, "divergence": cr.probabilistic_divergence(y, q),
            "certainty_ratio": cr.certainty_ratio(y, q), "probabilistic_accuracy": cr.accuracy_of(
                cr.probabilistic_confusion_matrix(y, q))}


# --------------------------------------------------------------------------------------------
# Exhaustive symbolic check for small n and k
# --------------------------------------------------------------------------------------------

def symbolic_q(n: int, k: int) -> sp.Matrix:
    """An n x k matrix of symbols whose rows sum to one (last column = 1 - the others)."""
    rows = []
    for r in range(n):
        free = list(sp.symbols(f"q{r}_0:{k - 1}", nonnegative=True))
        rows.append(free + [1 - sum(free)])
    return sp.Matrix(rows)


def check_identities_exhaustively(n: int = 2, k: int = 3) -> dict[str, bool]:
    """Identities on symbolic Q for every labelling (k^n) and every choice of decisive entry per row (k^n).

    The decomposition identities do not depend on which entry is decisive, so they are
    checked for all choices; ``rows``: CM* rows sum to the class counts; ``split``: CM* = S + U;
    ``totals``: sum(S) + sum(U) = n; ``accuracy``: Acc* = lambda_S Acc*_S + lambda_U Acc*_U;
    ``one_hot``: CM* = CM when Q = P.
    """
    n = check_scalar(n, "n", low=1, high=4, integer=True)
    k = check_scalar(k, "k", low=2, high=4, integer=True)
    q = symbolic_q(n, k)
    ok = {"rows": True, "split": True, "totals": True, "accuracy": True, "one_hot": True}
    for labels in product(range(k), repeat=n):
        t = _one_hot(labels, k)
        star = t.T * q
        counts = [labels.count(c) for c in range(k)]
        ok["rows"] &= all(sp.expand(sum(star[c, :]) - counts[c]) == 0 for c in range(k))
        for decisive in product(range(k), repeat=n):
            p = _one_hot(decisive, k)
            s = t.T * q.multiply_elementwise(p)
            u = t.T * (q - q.multiply_elementwise(p))
            ok["split"] &= (s + u - star).expand() == sp.zeros(k, k)
            total_s, total_u = sp.expand(sum(s)), sp.expand(sum(u))
            ok["totals"] &= sp.expand(total_s + total_u - n) == 0
            weighted = total_s / n * (s.trace() / total_s) + total_u / n * (u.trace() / total_u)
            ok["accuracy"] &= sp.cancel(weighted - star.trace() / n) == 0
            ok["one_hot"] &= (t.T * p) == star.subs(_one_hot_substitution(q, decisive))
    return ok


def _one_hot_substitution(q: sp.Matrix, decisive) -> dict:
    """Values of the free symbols of ``q`` that make row r the one-hot of ``decisive[r]``."""
    values = {}
    k = q.shape[1]
    for r, column in enumerate(decisive):
        for j in range(k - 1):
            values[q[r, j]] = 1 if j == column else 0
    return values


# --------------------------------------------------------------------------------------------
# Display: the worked example as LaTeX (for the book's labelled equations)
# --------------------------------------------------------------------------------------------

def latex_number(value) -> str:
    """An exact number as a reader writes it: a terminating decimal as a decimal (``0.9``, ``2.3``,
    ``3``), any other rational as a fraction (``\\tfrac{7}{12}``), a surd through sympy."""
    value = sp.nsimplify(value)
    if not value.is_real:
        raise ValueError(f"value must be a real number, got {value!r}")
    if value.is_Integer:
        return str(int(value))
    if value.is_Rational:
        denominator = int(value.q)
        while denominator % 2 == 0:
            denominator //= 2
        while denominator % 5 == 0:
            denominator //= 5
        if denominator == 1:  # terminates in decimal
            return f"{float(value):.10f}".rstrip("0").rstrip(".")
        sign = "-" if value < 0 else ""
        return rf"{sign}\tfrac{{{abs(int(value.p))}}}{{{int(value.q)}}}"
    return sp.latex(value)


def latex_matrix(matrix) -> str:
    """A sympy (or nested-list) matrix as a LaTeX ``bmatrix``, entries through :func:`latex_number`."""
    matrix = sp.Matrix(matrix)
    rows = [" & ".join(latex_number(matrix[i, j]) for j in range(matrix.cols)) for i in range(matrix.rows)]
    return r"\begin{bmatrix}" + r" \\ ".join(rows) + r"\end{bmatrix}"


def worked_example_latex(matrices: dict[str, sp.Matrix] | None = None) -> dict[str, str]:
    """The worked example of Sections 3-6 as display LaTeX (no ``$``), one string per equation of the page.

    Keys: ``inputs`` (T, Q), ``prediction`` (P), ``confusion`` (CM, CM*), ``split`` (Q+, Q-),
    ``decomposition`` (CM* = S + U), ``accuracies`` (Acc, Acc*), ``weights`` (lambda, Acc*_S,
    Acc*_U), ``divergence`` (d) and ``ratio`` (C). Every matrix and number is computed from
    ``matrices`` (default :func:`example_matrices`), exactly. The displays of two or four
    equations are aligned one under the other, so each fits the text column.
    """
    m = example_matrices() if matrices is None else matrices
    n = m["T"].rows
    total = lambda a: sum(a)  # noqa: E731 - sum of all entries
    lam_s, lam_u = total(m["S"]) / n, total(m["U"]) / n
    acc_s, acc_u = m["S"].trace() / total(m["S"]), m["U"].trace() / total(m["U"])
    squares = sum(x**2 for x in (m["CM"] - m["CM*"]))
    ratio = sp.nsimplify(acc_s / (acc_s + acc_u))
    common = int(sp.ilcm(sp.Rational(acc_s).q, sp.Rational(acc_u).q))  # both accuracies over one denominator
    a, b = int(acc_s * common), int(acc_u * common)
    L, M = latex_number, latex_matrix

    def approx(value, places: int = 3) -> str:
        return rf"\approx {float(value):.{places}f}"

    return {
        "inputs": rf"T = {M(m['T'])}, \qquad Q = {M(m['Q'])}",
        "prediction": rf"P = {M(m['P'])}",
        "confusion": (r"\begin{aligned}" rf"CM &= T^\top P = {M(m['CM'])},\\ "
                      rf"CM^\star &= T^\top Q = {M(m['CM*'])}" r"\end{aligned}"),
        "split": rf"Q^+ = {M(m['Q+'])}, \qquad Q^- = {M(m['Q-'])}",
        "decomposition": rf"CM^\star = S + U = {M(m['S'])} + {M(m['U'])}",
        "accuracies": (r"\begin{aligned}"
                       rf"Acc &= \frac{{\operatorname{{tr}} CM}}{{n}} = \frac{{{L(m['CM'].trace())}}}{{{n}}} "
                       rf"{approx(m['CM'].trace() / n, 2)},\\ "
                       rf"Acc^\star &= \frac{{\operatorname{{tr}} CM^\star}}{{n}} = \frac{{{L(m['CM*'].trace())}}}{{{n}}}"
                       rf" = {L(m['CM*'].trace() / n)} {approx(m['CM*'].trace() / n)}" r"\end{aligned}"),
        "weights": (r"\begin{aligned}"
                    rf"\lambda_S &= \frac{{\textstyle\sum S}}{{n}} = \frac{{{L(total(m['S']))}}}{{{n}}} = {L(lam_s)},\\"
                    rf"\lambda_U &= \frac{{\textstyle\sum U}}{{n}} = \frac{{{L(total(m['U']))}}}{{{n}}} = {L(lam_u)},\\"
                    rf"Acc^\star_S &= \frac{{\operatorname{{tr}} S}}{{\textstyle\sum S}} = "
                    rf"\frac{{{L(m['S'].trace())}}}{{{L(total(m['S']))}}} = {L(acc_s)} {approx(acc_s)},\\"
                    rf"Acc^\star_U &= \frac{{\operatorname{{tr}} U}}{{\textstyle\sum U}} = "
                    rf"\frac{{{L(m['U'].trace())}}}{{{L(total(m['U']))}}} = {L(acc_u)}"
                    r"\end{aligned}"),
        "divergence": (rf"d(CM, CM^\star) = \frac{{\lVert CM - CM^\star\rVert_F}}{{n}} = "
                       rf"\frac{{\sqrt{{{L(squares)}}}}}{{{n}}} {approx(sp.sqrt(squares) / n)}"),
        "ratio": (rf"\mathcal C_\rho = \frac{{Acc^\star_S}}{{Acc^\star_S + Acc^\star_U}} = "
                  rf"\frac{{{a}/{common}}}{{{a}/{common} + {b}/{common}}} = \frac{{{a}}}{{{a} + {b}}} = "
                  rf"{L(ratio)} {approx(ratio)}"),
    }
