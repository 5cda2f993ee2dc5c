"""Symbolic derivations of Ferri, Hernández-Orallo & Flach (2019), Sect. 5 (sympy).

Every function returns sympy expressions (for the chapter to display) or a ``check_*`` result
that is ``True`` when the derivation reproduces the paper's statement. Notation as in the paper:
π0 = 1 − π1 the proportion of class 0 (the positive class), s̄_k the mean score of class k,
cost line h_i(c) = k_i c + l_i used for presumed cost proportions ĉ in [c_i, c_{i+1}].
"""
from __future__ import annotations

import sympy as sp

__all__ = ["AUC", "beta_parameters", "beta_parametrisation_pairs", "agree", "check_beta_parametrisation",
           "lemma1_sides", "lemma1_check", "theorem1_contribution", "theorem2", "theorem3",
           "check_theorems_2_3", "midpoint_condition", "check_midpoint_condition",
           "score_driven_instance_contributions", "theorem4", "corollary1", "check_theorem4_corollary1",
           "theorem5", "rate_driven_certain_loss", "corollary2", "check_theorem5_corollary2",
           "optimal_hull_model", "theorem6_7", "optimal_pairs", "check_theorem6_7", "table3", "table4",
           "prior_model", "random_model", "check_baselines", "cost_line_pairs",
           "calibrated_score_driven_pair", "theorem5_endpoint_pairs", "rate_driven_uncertainty_cost",
           "worst_optimal_loss", "random_model_mae", "mae_over_bs_counterexample",
           "calibrated_mae_is_twice_bs"]

c, chat, gamma = sp.symbols("c hat{c} gamma", nonnegative=True)
pi0 = sp.Symbol("pi_0", positive=True)
pi1 = 1 - pi0
#: The area under the ROC curve.
AUC = sp.Symbol("AUC", nonnegative=True)
s0bar, s1bar = sp.symbols(r"\bar{s}_0 \bar{s}_1", nonnegative=True)


# -------------------------------------------------------------------------- Beta parametrisation

def beta_parameters():
    """α = cγ + 1, β = (1 − c)γ + 1 (Sect. 5)."""
    return c * gamma + 1, (1 - c) * gamma + 1


def beta_parametrisation_pairs() -> dict:
    """(derived, stated) pairs of the Beta model (Sect. 5): mode (α−1)/(α+β−2) = c, certainty
    α+β−2 = γ, γ = 0 gives the uniform density, γ → ∞ gives mean → c and variance → 0 (the Dirac
    delta of complete certainty)."""
    a, b = beta_parameters()
    x = sp.Symbol("x", positive=True)
    density0 = (x ** (a - 1) * (1 - x) ** (b - 1) / sp.beta(a, b)).subs(gamma, 0)
    mean = a / (a + b)
    variance = a * b / ((a + b) ** 2 * (a + b + 1))
    return {"mode is c": ((a - 1) / (a + b - 2), c),
            "certainty is gamma": (a + b - 2, gamma),
            "gamma=0 is uniform": (sp.gammasimp(density0), sp.Integer(1)),
            "mean -> c": (sp.limit(mean, gamma, sp.oo), c),
            "variance -> 0": (sp.limit(variance, gamma, sp.oo), sp.Integer(0))}


def agree(derived, stated) -> bool:
    """True when a derived expression equals the stated one (sympy simplification of the difference)."""
    difference = sp.expand(derived - stated)
    return difference == 0 or sp.simplify(difference) == 0


def check_beta_parametrisation() -> dict:
    return {label: agree(*pair) for label, pair in beta_parametrisation_pairs().items()}


# -------------------------------------------------------------------------- Lemma 1, Theorem 1

def _segments(m: int):
    """Symbols of m cost lines h_i = k_i c + l_i on segments [c_i, c_{i+1}] (c_0 = 0, c_m = 1)."""
    ks = sp.symbols(f"k_0:{m}")
    ls = sp.symbols(f"l_0:{m}")
    inner = sp.symbols(f"c_1:{m}", positive=True)
    return ks, ls, (sp.Integer(0), *inner, sp.Integer(1))


def lemma1_sides(m: int = 3, certainty: int = 4) -> dict:
    """Lemma 1 on a Beta density with integer shape parameters (γ = ``certainty``, c ∈ {1/4, 1/2}):
    per c, the pair (∫ Q(T(ĉ); c) v(ĉ|c) dĉ integrated segment by segment over symbolic breakpoints
    c_1 < ... and symbolic cost lines, Σ_i [V(c_{i+1}|c) − V(c_i|c)] h_i(c))."""
    ks, ls, cs = _segments(m)
    a, b = beta_parameters()
    sides = {}
    for c_val in (sp.Rational(1, 4), sp.Rational(1, 2)):
        alpha, beta_ = a.subs({gamma: certainty, c: c_val}), b.subs({gamma: certainty, c: c_val})
        dens = chat ** (alpha - 1) * (1 - chat) ** (beta_ - 1) / sp.beta(alpha, beta_)
        V = sp.Lambda(chat, sp.integrate(dens, (chat, 0, chat)))
        direct = sum(sp.integrate((ks[i] * c_val + ls[i]) * dens, (chat, cs[i], cs[i + 1])) for i in range(m))
        lemma = sum((V(cs[i + 1]) - V(cs[i])) * (ks[i] * c_val + ls[i]) for i in range(m))
        sides[f"c = {c_val}"] = (direct, lemma)
    return sides


def lemma1_check(m: int = 3, certainty: int = 4) -> bool:
    return all(sp.expand(direct - lemma) == 0 for direct, lemma in lemma1_sides(m, certainty).values())


def theorem1_contribution(i_lower, i_upper, k_i, l_i, V):
    """L_i = ∫_0^1 [V(c_{i+1}|c) − V(c_i|c)] h_i(c) dc (Theorem 1)."""
    return sp.integrate((V(i_upper) - V(i_lower)) * (k_i * c + l_i), (c, 0, 1))


def theorem2():
    """Complete uncertainty (V(x|c) = x): L_i = (c_{i+1} − c_i)(k_i/2 + l_i)."""
    ci, cj, k, l = sp.symbols("c_i c_{i+1} k_i l_i")
    derived = theorem1_contribution(ci, cj, k, l, lambda x: x)
    return derived, (cj - ci) * (k / 2 + l)


def theorem3():
    """Complete certainty (ĉ = c, the line is used for c in [c_i, c_{i+1}]):
    L_i = (c_{i+1} − c_i){k_i (c_{i+1} + c_i)/2 + l_i}."""
    ci, cj, k, l = sp.symbols("c_i c_{i+1} k_i l_i")
    derived = sp.integrate(k * c + l, (c, ci, cj))
    return derived, (cj - ci) * (k * (cj + ci) / 2 + l)


def check_theorems_2_3() -> dict:
    d2, p2 = theorem2()
    d3, p3 = theorem3()
    return {"Theorem 2": sp.simplify(d2 - p2) == 0, "Theorem 3": sp.simplify(d3 - p3) == 0}


def midpoint_condition():
    """L_i(certain) − L_i(uncertain) = (c_{i+1} − c_i) k_i (c_i + c_{i+1} − 1)/2: certainty is
    better for cost line i exactly when k_i (c_{i+1} + c_i) < k_i (the paper's condition)."""
    ci, cj, k, l = sp.symbols("c_i c_{i+1} k_i l_i")
    difference = sp.factor(theorem3()[1] - theorem2()[1])
    return difference, sp.factor((cj - ci) * k * (ci + cj - 1) / 2)


def check_midpoint_condition() -> bool:
    derived, stated = midpoint_condition()
    return sp.simplify(derived - stated) == 0


# -------------------------------------------------------------------------- Theorem 4, Corollary 1

def score_driven_instance_contributions():
    """Contribution (× n/2) of one instance with score s to Q(T^sd(ĉ); c), averaged over ĉ:
    class 0 errs when s > ĉ (cost c), class 1 when s ≤ ĉ (cost 1 − c)."""
    s = sp.Symbol("s", nonnegative=True)
    uncertain = (sp.integrate(c, (chat, 0, s)), sp.integrate(1 - c, (chat, s, 1)))
    certain = (sp.integrate(c, (c, 0, s)), sp.integrate(1 - c, (c, s, 1)))
    return s, uncertain, certain


def theorem4():
    """K^sd_{γ=0}(c) derived by summing the instance contributions (Eq. 9) and as stated."""
    s, (u0, u1), _ = score_driven_instance_contributions()
    # averaging over instances: mean of s over class 0 is s̄0, of (1 − s) over class 1 is 1 − s̄1
    derived = 2 * (pi0 * u0.subs(s, s0bar) + pi1 * sp.expand(u1).subs(s, s1bar))
    stated = 2 * (pi1 * (1 - s1bar) + (pi0 * s0bar - pi1 * (1 - s1bar)) * c)
    return sp.expand(derived), stated


def corollary1():
    """L^sd_{γ=0} = ∫ K dc = π0 s̄0 + π1 (1 − s̄1) = MAE; under certainty the per-instance areas
    are s²/2 and (1 − s)²/2, i.e. the Brier score."""
    derived, _ = theorem4()
    s, _, (a0, a1) = score_driven_instance_contributions()
    return sp.integrate(derived, (c, 0, 1)), pi0 * s0bar + pi1 * (1 - s1bar), (2 * a0, 2 * a1), (s ** 2, (1 - s) ** 2)


def check_theorem4_corollary1() -> dict:
    derived, stated = theorem4()
    loss, mae, certain, squares = corollary1()
    return {"Theorem 4": sp.simplify(derived - stated) == 0,
            "Corollary 1 (MAE)": sp.simplify(loss - mae) == 0,
            "certainty gives BS": all(sp.simplify(a - b) == 0 for a, b in zip(certain, squares))}


# -------------------------------------------------------------------------- Theorem 5, Corollary 2

def _roc_integrals():
    """∫F_a dF_b along a (piecewise-linear) ROC path from (0,0) to (1,1): ∫F0 dF0 = ∫F1 dF1 = 1/2,
    ∫F0 dF1 = AUC, ∫F1 dF0 = 1 − AUC (integration by parts)."""
    return {("0", "0"): sp.Rational(1, 2), ("1", "1"): sp.Rational(1, 2), ("0", "1"): AUC, ("1", "0"): 1 - AUC}


def theorem5():
    """K^rd_{γ=0}(c) = ∫_0^1 Q(R⁻¹(r); c) dr with dR = π0 dF0 + π1 dF1 (Eq. 10)."""
    I = _roc_integrals()
    int_F0_dR = pi0 * I[("0", "0")] + pi1 * I[("0", "1")]
    int_F1_dR = pi0 * I[("1", "0")] + pi1 * I[("1", "1")]
    derived = 2 * (c * pi0 * (1 - int_F0_dR) + (1 - c) * pi1 * int_F1_dR)
    stated = 2 * pi0 * pi1 * (1 - AUC) + pi1 ** 2 + (pi0 - pi1) * c
    return sp.expand(derived), sp.expand(stated)


def rate_driven_certain_loss():
    """L^rd_δ = 2 ∫ {R π0 (1 − F0) + (1 − R) π1 F1} dR (Table 4). The second-order path
    integrals J = ∫F0F1 dF0 and K = ∫F0F1 dF1 enter through ∫F0² dF1 = 1 − 2J and
    ∫F1² dF0 = 1 − 2K and cancel, leaving π0π1(1 − 2AUC) + 1/3."""
    J, K = sp.symbols("J K")
    I = _roc_integrals()
    third = sp.Rational(1, 3)
    int_R_dR = sp.Rational(1, 2)
    int_F1_dR = pi0 * I[("1", "0")] + pi1 * I[("1", "1")]
    int_RF0_dR = pi0 ** 2 * third + pi0 * pi1 * (1 - 2 * J) + pi0 * pi1 * J + pi1 ** 2 * K
    int_RF1_dR = pi0 ** 2 * J + pi0 * pi1 * K + pi0 * pi1 * (1 - 2 * K) + pi1 ** 2 * third
    derived = 2 * (pi0 * (int_R_dR - int_RF0_dR) + pi1 * (int_F1_dR - int_RF1_dR))
    return sp.expand(derived), sp.expand(pi0 * pi1 * (1 - 2 * AUC) + third)


def corollary2():
    derived, _ = theorem5()
    return sp.expand(sp.integrate(derived, (c, 0, 1))), sp.expand(pi0 * pi1 * (1 - 2 * AUC) + sp.Rational(1, 2))


def check_theorem5_corollary2() -> dict:
    d5, s5 = theorem5()
    dc, sc = corollary2()
    dcert, scert = rate_driven_certain_loss()
    return {"Theorem 5": sp.simplify(d5 - s5) == 0, "Corollary 2": sp.simplify(dc - sc) == 0,
            "certainty: pi0 pi1 (1-2AUC) + 1/3": sp.simplify(dcert - scert) == 0,
            "difference is 1/6": sp.simplify(dc - dcert) == sp.Rational(1, 6)}


# -------------------------------------------------------------------------- Theorems 6 and 7

def optimal_hull_model(m: int = 3):
    """A ROC convex hull of m segments: segment i holds a fraction w_i of the instances, of which a
    fraction p_i is of class 1 (so a_i/n = w_i (1 − p_i) and b_i/n = w_i p_i). Hull line j predicts
    class 0 for the first j segments; the crossing of lines j and j+1 is solved for, giving the
    segment's class-1 frequency p_j, i.e. its convex-hull calibrated score s*."""
    w = sp.symbols(f"w_1:{m + 1}", positive=True)
    p = sp.symbols(f"p_1:{m + 1}", positive=True)
    a = [w[i] * (1 - p[i]) for i in range(m)]
    b = [w[i] * p[i] for i in range(m)]
    A = sum(a)
    lines = [2 * (c * (A - sum(a[:j])) + (1 - c) * sum(b[:j])) for j in range(m + 1)]
    crossings = [sp.solve(sp.Eq(lines[j], lines[j + 1]), c)[0] for j in range(m)]
    breaks = [sp.Integer(0), *crossings, sp.Integer(1)]
    return w, p, a, b, lines, breaks


def theorem6_7(m: int = 3):
    """K^o_{γ=0}(c) = Σ_j (c_{j+1} − c_j) h_j(c) (Theorem 2 summed) and L^o_δ (Theorem 3 summed),
    with 2 π0 s̄*_0 and the refinement loss of the calibrated scores for comparison."""
    w, p, a, b, lines, breaks = optimal_hull_model(m)
    K0 = sp.expand(sum((breaks[j + 1] - breaks[j]) * lines[j] for j in range(m + 1)))
    L_certain = 0  # Theorem 3 summed over the hull lines
    for j in range(m + 1):
        l_j = lines[j].subs(c, 0)
        k_j = lines[j].subs(c, 1) - l_j
        L_certain += (breaks[j + 1] - breaks[j]) * (k_j * (breaks[j + 1] + breaks[j]) / 2 + l_j)
    two_pi0_s0star = 2 * sum(a[i] * p[i] for i in range(m))
    refinement = sum(w[i] * p[i] * (1 - p[i]) for i in range(m))
    return {"K0": K0, "L_certain": sp.expand(L_certain), "2 pi0 s0*": two_pi0_s0star, "RL(Cal)": refinement,
            "crossings are s*": [sp.expand(breaks[i + 1] - p[i]) == 0 for i in range(m)]}


def optimal_pairs(m: int = 3) -> dict:
    """(derived, stated) pairs of Theorems 6 and 7 and Table 4's optimal row on a hull of m segments:
    the hull crossings are the calibrated scores s*, K^o_{γ=0} is flat and equals 2 π0 s̄*_0, the
    certain loss is RL(Cal(m)) and the γ = 0 loss is twice it."""
    w, p, a, b, lines, breaks = optimal_hull_model(m)
    r = theorem6_7(m)
    pairs = {f"crossing {i + 1} is s*_{i + 1}": (breaks[i + 1], p[i]) for i in range(m)}
    pairs.update({"Theorem 6: K0 constant": (sp.diff(r["K0"], c), sp.Integer(0)),
                  "Theorem 6: K0 = 2 pi0 s0*": (r["K0"], r["2 pi0 s0*"]),
                  "Table 4: L_delta = RL(Cal)": (r["L_certain"], r["RL(Cal)"]),
                  "Theorem 7: L0 = 2 L_delta": (sp.integrate(r["K0"], (c, 0, 1)), 2 * r["L_certain"])})
    return pairs


def check_theorem6_7(m: int = 3) -> dict:
    pairs = optimal_pairs(m)
    crossings = [label for label in pairs if label.startswith("crossing")]
    result = {"crossings are calibrated scores": all(agree(*pairs[label]) for label in crossings)}
    result.update({label: agree(*pair) for label, pair in pairs.items() if label not in crossings})
    return result


# -------------------------------------------------------------------------- Tables 3 and 4

def table3() -> list[dict]:
    """Table 3 rebuilt: per method the γ = 0 expected cost curve and loss as derived here, the
    paper's printed forms (π1 = 1 − π0) and whether they agree."""
    sd_K, sd_K_paper = theorem4()
    sd_L, sd_L_paper, _, _ = corollary1()
    rd_K, rd_K_paper = theorem5()
    rd_L, rd_L_paper = corollary2()
    opt = theorem6_7()
    s0star = sp.Symbol(r"\bar{s}^*_0")
    rows = [("score-driven", sd_K, sd_K_paper, sd_L, sd_L_paper, True),
            ("rate-driven", rd_K, rd_K_paper, rd_L, rd_L_paper, True),
            ("optimal", opt["K0"], 2 * pi0 * s0star, sp.integrate(opt["K0"], (c, 0, 1)), 2 * pi0 * s0star,
             check_theorem6_7()["Theorem 6: K0 = 2 pi0 s0*"])]
    table = []
    for method, K, K_paper, L, L_paper, optimal_ok in rows:
        agrees = optimal_ok if method == "optimal" else (sp.expand(K - K_paper) == 0 and sp.expand(L - L_paper) == 0)
        table.append({"method": method, "K derived": sp.collect(sp.expand(K), c), "K paper": K_paper,
                      "L derived": sp.factor_terms(sp.expand(L)), "L paper": L_paper, "agrees": bool(agrees)})
    return table


def table4():
    """Rows (method, K_δ(c), L_δ) under complete certainty, from the same derivations."""
    F0, F1 = sp.Function("F_0"), sp.Function("F_1")
    Rinv = sp.Function("R^{-1}")(c)
    s0star = sp.Symbol(r"\bar{s}^*_0")
    F0s, F1s = sp.Function("F^*_0"), sp.Function("F^*_1")
    rd_L, _ = rate_driven_certain_loss()
    return [("score-driven", 2 * (c * pi0 * (1 - F0(c)) + (1 - c) * pi1 * F1(c)), sp.Symbol("BS")),
            ("rate-driven", 2 * (c * pi0 * (1 - F0(Rinv)) + (1 - c) * pi1 * F1(Rinv)), sp.factor_terms(rd_L)),
            ("optimal", 2 * (c * pi0 * (1 - F0s(c)) + (1 - c) * pi1 * F1s(c)), pi0 * s0star)]


# -------------------------------------------------------------------------- baseline models

def prior_model():
    """Prior model (score π1 for every instance): BS, MAE, AUC, the γ = 0 rate-driven line and losses."""
    bs = pi0 * pi1 ** 2 + pi1 * (1 - pi1) ** 2
    mae = pi0 * pi1 + pi1 * (1 - pi1)
    rd_line, _ = theorem5()
    rd_line = rd_line.subs(AUC, sp.Rational(1, 2))
    all_one = 2 * c * pi0  # threshold below every score: every class-0 instance is an error
    all_zero = 2 * (1 - c) * pi1  # threshold above every score: every class-1 instance is an error
    crossing = sp.solve(sp.Eq(all_one, all_zero), c)[0]
    return {"BS": sp.factor(bs), "MAE": sp.factor(mae), "AUC": sp.Rational(1, 2),
            "default lines": (all_one, all_zero), "crossing c": sp.simplify(crossing),
            "crossing loss": sp.factor(all_one.subs(c, crossing)),
            "rate-driven certain": sp.simplify(rate_driven_certain_loss()[0].subs(AUC, sp.Rational(1, 2))),
            "rate-driven uncertain": sp.simplify(corollary2()[0].subs(AUC, sp.Rational(1, 2))),
            "rate-driven K0(0)": sp.simplify(rd_line.subs(c, 0)), "rate-driven K0(1)": sp.simplify(rd_line.subs(c, 1)),
            "optimal certain": pi0 * pi1, "optimal uncertain": 2 * pi0 * pi1}


def random_model():
    """Random model (uniform scores, in expectation F0 = F1 = R = identity): cost curves in closed form."""
    s = sp.Symbol("s")
    sd_certain = 2 * (c * pi0 * (1 - c) + (1 - c) * pi1 * c)
    sd_uncertain_line = theorem4()[0].subs({s0bar: sp.Rational(1, 2), s1bar: sp.Rational(1, 2)})
    return {"K_delta score/rate-driven": sp.factor(sd_certain),
            "L_delta score/rate-driven": sp.integrate(sd_certain, (c, 0, 1)),
            "K0 score/rate-driven": sp.expand(sd_uncertain_line),
            "L0 score/rate-driven": sp.integrate(sd_uncertain_line, (c, 0, 1)),
            "K0(0)": sp.simplify(sd_uncertain_line.subs(c, 0)), "K0(1)": sp.simplify(sd_uncertain_line.subs(c, 1)),
            "MAE": sp.simplify(pi0 * sp.integrate(s, (s, 0, 1)) + pi1 * sp.integrate(1 - s, (s, 0, 1))),
            "optimal certain": pi0 * pi1, "optimal uncertain": 2 * pi0 * pi1}


def check_baselines() -> dict:
    p, r = prior_model(), random_model()
    return {"prior BS = pi0 pi1": sp.simplify(p["BS"] - pi0 * pi1) == 0,
            "prior MAE = 2 pi0 pi1": sp.simplify(p["MAE"] - 2 * pi0 * pi1) == 0,
            "prior rate-driven 1/3 -> 1/2": (p["rate-driven certain"], p["rate-driven uncertain"]) == (sp.Rational(1, 3), sp.Rational(1, 2)),
            "random L_delta = 1/3": r["L_delta score/rate-driven"] == sp.Rational(1, 3),
            "random L0 = 1/2": r["L0 score/rate-driven"] == sp.Rational(1, 2),
            "default lines cross at (pi1, 2 pi0 pi1)": sp.simplify(p["crossing c"] - pi1) == 0
            and sp.simplify(p["crossing loss"] - 2 * pi0 * pi1) == 0,
            "gamma=0 line runs (0, pi1) -> (1, pi0)": sp.simplify(p["rate-driven K0(0)"] - pi1) == 0
            and sp.simplify(p["rate-driven K0(1)"] - pi0) == 0}


# -------------------------------------------------------------------------- statements of Sects. 4 and 5

def cost_line_pairs() -> dict:
    """Eq. 3 with E[b] = 2 for a fixed threshold (F0, F1 its class-wise rates): at c = 1/2 the loss is
    the error rate π0 (1 − F0) + π1 F1, and the cost line runs from 2 π1 F1 at c = 0 to 2 π0 (1 − F0)
    at c = 1 (Sect. 4)."""
    F0, F1 = sp.symbols("F_0 F_1", nonnegative=True)
    Q = 2 * (c * pi0 * (1 - F0) + (1 - c) * pi1 * F1)
    return {"c = 1/2: error rate": (Q.subs(c, sp.Rational(1, 2)), pi0 * (1 - F0) + pi1 * F1),
            "Q(t; 0)": (Q.subs(c, 0), 2 * pi1 * F1), "Q(t; 1)": (Q.subs(c, 1), 2 * pi0 * (1 - F0))}


def calibrated_score_driven_pair(m: int = 3):
    """(π0 s̄0, π1 (1 − s̄1)) for perfectly calibrated scores (a hull segment of weight w_i scored
    with its class-1 frequency p_i): equal, so Theorem 4's γ = 0 line is horizontal (Sect. 5.2.1)."""
    w, p, a, b, _, _ = optimal_hull_model(m)
    return sum(a[i] * p[i] for i in range(m)), sum(b[i] * (1 - p[i]) for i in range(m))


def theorem5_endpoint_pairs() -> dict:
    """Theorem 5's line at c = 1 written as 2 π0 π1 (1 − AUC) + π0², and its slope at π0 = 1/2 (zero:
    horizontal for balanced classes)."""
    derived, _ = theorem5()
    return {"K(1)": (derived.subs(c, 1), 2 * pi0 * pi1 * (1 - AUC) + pi0 ** 2),
            "balanced slope": (sp.diff(derived, c).subs(pi0, sp.Rational(1, 2)), sp.Integer(0))}


def rate_driven_uncertainty_cost():
    """(L^rd_{γ=0} − L^rd_δ, 1/6): the additive cost of complete uncertainty for rate-driven thresholds."""
    uncertain, _ = corollary2()
    certain, _ = rate_driven_certain_loss()
    return sp.simplify(uncertain - certain), sp.Rational(1, 6)


def worst_optimal_loss():
    """The largest test-optimal loss under certainty: a classifier no better than the default lines has
    loss π0 π1 (Table 4 with s* = π1), largest at π0 = 1/2, where it is 1/4 (Sect. 6.2)."""
    default = pi0 * pi1
    best_pi0 = sp.solve(sp.diff(default, pi0), pi0)[0]
    return default.subs(pi0, best_pi0)


def random_model_mae(s0_mean=sp.Rational(1, 2), s1_mean=sp.Rational(1, 2)):
    """MAE = π0 s̄0 + π1 (1 − s̄1) (Corollary 1) of a model with class-wise mean scores s̄0, s̄1:
    1/2 for uniform random scores, 2 π0 π1 for the prior model (s̄0 = s̄1 = π1)."""
    return sp.simplify(pi0 * s0_mean + pi1 * (1 - s1_mean))


# -------------------------------------------------------------------------- errata

def mae_over_bs_counterexample():
    """Scores (0.1, 0.9) on labels (0, 1): MAE/BS = 10, so the γ = 0 score-driven loss can exceed the
    γ = ∞ one by far more than the factor 2 of Sect. 5.2.1 (2 exactly holds for calibrated scores)."""
    s_vals = (sp.Rational(1, 10), sp.Rational(9, 10))
    labels = (0, 1)
    bs = sum((sv - yv) ** 2 for sv, yv in zip(s_vals, labels)) / 2
    mae = sum(abs(sv - yv) for sv, yv in zip(s_vals, labels)) / 2
    return bs, mae, mae / bs


def calibrated_mae_is_twice_bs():
    """For perfectly calibrated scores (a segment with score p holds a fraction p of class 1)
    MAE = 2 p (1 − p) = 2 BS per segment."""
    p = sp.Symbol("p", positive=True)
    mae = (1 - p) * p + p * (1 - p)
    bs = (1 - p) * p ** 2 + p * (1 - p) ** 2
    return sp.simplify(mae - 2 * bs) == 0
