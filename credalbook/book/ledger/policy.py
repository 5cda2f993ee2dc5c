"""The verdict policy of the ledger, written once: the rules every check and every entry is judged by.

The checks of :mod:`credalbook.book.ledger` compute the book's side of a paper's statement; how far a
value may stray, what a quantifier of the paper's prose asks, when a difference is noise and when
a paper's contradiction is an erratum are decided here, and only here (the page "How the verdicts
are decided", ``chapters/verdicts.md``, is rendered from this module's data):

- :data:`QUANTIFIERS`: the papers' quantifiers ("most", "generally", "almost always", "always"...),
  each with one threshold on the share of cases, argued from the papers' own use of the words;
  :data:`WORDS` sends every wording the claims quote to one of them (:func:`quantifier_of`);
- :data:`NOISE_K`: a difference within ``NOISE_K`` times the measured noise (the standard error of the
  book's repetitions, or the spread of one run where the paper drew one run) is noise, never a
  failure (:func:`within_noise`, :func:`beyond_noise`, :func:`standard_error`, :func:`run_spread`);
- :func:`spread_verdict`: a number the paper read off one run or figure whose split or seed it does
  not give is judged against the spread of the book's runs, or is not checkable;
- :data:`PROTOCOL_RULE` and :data:`PAPER_PROTOCOL`: a claim about the paper's experiment is judged on
  the book's closest measured reproduction of the paper's protocol, the book's convention beside it;
- :data:`SEVERITIES`: every erratum has one (:func:`check_severity`); an inference about how the
  authors ran their experiment is a remark, never an erratum;
- :data:`PARTLY`: what "partly" means (:func:`share_verdict`, :func:`ranking_verdict`);
- :data:`NEGATIVE`: the verdicts that make a *finding*, one per distinct error or failed claim,
  whatever number of ledger rows it explains (:func:`credalbook.book.ledger.core.findings`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["Quantifier", "QUANTIFIERS", "WORDS", "quantifier_of", "share_threshold", "share_verdict",
           "ranking_verdict", "NOISE_K", "rank_correlation_noise", "association_seen", "run_spread", "within_noise", "beyond_noise", "standard_error", "spread_verdict",
           "PROTOCOL_RULE", "PAPER_PROTOCOL", "SEVERITIES", "DEFAULT_SEVERITY", "check_severity", "PARTLY",
           "NEGATIVE", "is_negative", "erratum_within_tolerance", "RULES", "CHANGE_COLUMNS", "change_reason",
           "verdict_changes", "change_counts", "quantifier_table", "severity_table", "rejudged"]


@dataclass(frozen=True)
class Quantifier:
    """A quantifier of the papers' prose: the share of cases it asks for, and why.

    ``threshold`` is a share in [0, 1]; the statement holds when the share of cases where it is
    true is at least the threshold (strictly above it when ``strict``). ``argument`` says where
    the threshold comes from: the papers' own use of the word, never the verdicts it yields.
    """

    name: str
    threshold: float
    strict: bool
    argument: str

    def holds(self, share: float) -> bool:
        """Whether a statement true in ``share`` of its cases meets this quantifier."""
        share = float(share)
        return share > self.threshold if self.strict else share >= self.threshold - 1e-12

    @property
    def rule(self) -> str:
        """The threshold in words: "more than 50 %", "at least 75 %" or "all"."""
        if self.threshold >= 1:
            return "all"
        return f"{'more than' if self.strict else 'at least'} {round(100 * self.threshold)} %"


#: The quantifiers of the papers' prose, weakest first, each with one threshold used by every check.
QUANTIFIERS = {
    "not rarely": Quantifier(
        "not rarely", 0.1, False,
        "Zaffalon et al. (2012, Sect. 4) say a case 'does not happen as rarely as one could imagine' and point to "
        "Sect. 9.1.3, where it happens on 23 of 55 data sets: the words deny rarity, not ask for a majority; one "
        "case in ten is not rare in any reading."),
    "often": Quantifier(
        "often", 1 / 3, False,
        "Weaker than 'most often', which Zaffalon et al. (2012, Sect. 9.1.3) use for a majority (33 data sets "
        "against 23): 'often' asks for a frequent case, not a majority; one case in three is frequent in any reading."),
    "most": Quantifier(
        "most", 0.5, True,
        "Zaffalon et al. (2012, Sect. 9.1.3) write 'in most of the datasets' of 33 out of 55 (60 %) and 'most "
        "often' of 33 against 23: 'most', 'mostly' and 'the majority' ask for more than half, nothing more."),
    "generally": Quantifier(
        "generally", 0.75, False,
        "'Generally', 'in general', 'usually' state a rule with exceptions few enough to be named: Ferri et al. "
        "(2019, Sect. 6.3) write 'generally in favour of train-optimal (except for J48Unp)', one named exception "
        "among six learners. Stronger than 'most' (a bare majority), weaker than 'almost always': three cases in four."),
    "almost always": Quantifier(
        "almost always", 0.9, False,
        "'Almost always', 'almost all', 'almost never', 'almost completely', 'consistently', 'few changes' allow "
        "isolated exceptions only: Ferri et al. (2019) say 'in almost all situations' of a method worse than the "
        "rest but for a few cells. At least nine cases in ten."),
    "always": Quantifier(
        "always", 1.0, False,
        "'Always', 'every', 'constantly', 'strictly', 'never': no exception. Where the cases are points of a "
        "measured curve, a step the wrong way within noise (the noise rule) is not an exception."),
}

#: Every wording a claim's tolerance quotes (its ``word``), sent to its quantifier in :data:`QUANTIFIERS`.
WORDS = {
    "does not happen as rarely as one could imagine": "not rarely",
    "often": "often",
    "most": "most", "mostly": "most", "most model types": "most", "for most of the range": "most",
    "most learning techniques and threshold choice methods": "most", "in more than half of the cases": "most",
    "visible above the diagonal": "most",
    "generally": "generally", "in general": "generally", "usually": "generally",
    "almost always": "almost always", "almost all situations": "almost always", "almost never": "almost always",
    "almost completely determinate": "almost always", "almost everywhere": "almost always",
    "consistently": "almost always", "few changes": "almost always", "very accurate": "almost always",
    "always": "always", "constantly": "always", "every": "always", "strictly": "always", "never": "always",
}


def quantifier_of(word: str) -> Quantifier:
    """The quantifier of a claim's wording (a key of :data:`WORDS` or of :data:`QUANTIFIERS`)."""
    key = str(word).strip()
    name = key if key in QUANTIFIERS else WORDS.get(key)
    if name is None:
        raise ValueError(f"the wording {word!r} is in no quantifier of the verdict policy: add it to "
                         f"credalbook.book.ledger.policy.WORDS (one of {', '.join(QUANTIFIERS)})")
    return QUANTIFIERS[name]


def share_threshold(word: str) -> float:
    """The threshold of a wording: the share its quantifier asks for."""
    return quantifier_of(word).threshold


#: What "partly" means, for the page and the docstrings.
PARTLY = ("A claim is 'partly' reproduced when it holds in some of its cases but not as its words ask: a "
          "quantified statement true in at least half of its cases but below its quantifier's threshold; a "
          "ranking with the paper's leader but another order below it; a statement of several parts of which "
          "some, not all, hold (the check names them). A statement true in fewer than half of its cases is "
          "not reproduced.")


def share_verdict(share: float, word: str, negated: bool = False) -> str:
    """Verdict of a quantified claim true in ``share`` of its cases (of the negation when ``negated``).

    ``reproduced`` when the quantifier of ``word`` holds; ``partly`` when the statement holds in at
    least half of its cases but below the threshold (:data:`PARTLY`); else ``not reproduced``.
    """
    share = float(share)
    if not 0 <= share <= 1 or math.isnan(share):
        raise ValueError(f"share must be in [0, 1], got {share!r}")
    quantifier = quantifier_of(word)
    if negated:
        share = 1 - share
    if quantifier.holds(share):
        return "reproduced"
    return "partly" if share >= 0.5 else "not reproduced"


def ranking_verdict(published, book) -> str:
    """Verdict of a ranking: the same order, the same leader only (``partly``), or another leader."""
    published, book = list(published), list(book)
    if published == book:
        return "reproduced"
    return "partly" if published[:1] == book[:1] else "not reproduced"


#: A difference within this many times the measured noise (standard error, or spread of one run) is noise.
NOISE_K = 2.0


def standard_error(values, axis: int = 0) -> np.ndarray:
    """Standard error of the mean over repetitions: sample standard deviation / √n (``values`` along ``axis``)."""
    values = np.asarray(values, dtype=float)
    n = values.shape[axis]
    if n < 2:
        raise ValueError("a standard error needs at least two repetitions")
    return np.std(values, axis=axis, ddof=1) / np.sqrt(n)


def run_spread(values, axis: int = 0) -> np.ndarray:
    """The spread of one run: sample standard deviation over the book's repetitions (``values`` along ``axis``).

    The noise of a curve or number the paper read off one run whose split or seed it does not
    give; the standard error of the book's mean (:func:`standard_error`) is the noise of a number
    the paper averaged over as many repetitions as the book.
    """
    values = np.asarray(values, dtype=float)
    if values.shape[axis] < 2:
        raise ValueError("a spread needs at least two repetitions")
    return np.std(values, axis=axis, ddof=1)


def within_noise(difference, error, k: float = NOISE_K):
    """Whether ``|difference|`` is at most ``k`` standard errors ``error`` (elementwise)."""
    difference, error = np.asarray(difference, dtype=float), np.asarray(error, dtype=float)
    if np.any(error < 0):
        raise ValueError("a standard error cannot be negative")
    result = np.abs(difference) <= k * error + 1e-12
    return bool(result) if result.ndim == 0 else result


def beyond_noise(difference, error, k: float = NOISE_K):
    """Whether ``difference`` exceeds ``k`` standard errors ``error`` (a step the wrong way that counts)."""
    result = np.logical_not(within_noise(difference, error, k))
    return bool(result) if np.ndim(result) == 0 else result


def rank_correlation_noise(n: int) -> float:
    """The noise of a rank correlation over ``n`` items: its standard error when there is no association,
    1/√(n − 1) (the large-sample standard deviation of Spearman's ρ under independence)."""
    if int(n) != n or n < 3:
        raise ValueError(f"n must be an integer of at least 3, got {n!r}")
    return 1.0 / math.sqrt(n - 1)


def association_seen(rho: float, n: int, k: float = NOISE_K) -> bool:
    """Whether a positive association the paper says it has *seen* in its tables holds: a rank correlation
    ``rho`` over ``n`` items above ``k`` times :func:`rank_correlation_noise`. A hedged one ("it seems ... not
    sufficiently clear") asks only for the sign."""
    return bool(rho > k * rank_correlation_noise(n))


def spread_verdict(published: float, runs, precision: float = 0.0, k: float = NOISE_K) -> str:
    """Verdict of a number the paper read off one run whose split or seed it does not give.

    ``runs`` are the book's values of the same number over its repetitions (or splits). Within
    ``precision`` of their mean: ``reproduced``; within ``k`` standard deviations of one run:
    ``within tolerance``; beyond: ``not reproduced``; fewer than two runs: ``not checkable``
    (one median of the book's is never the measure).
    """
    runs = np.asarray(runs, dtype=float)
    runs = runs[~np.isnan(runs)]
    if len(runs) < 2:
        return "not checkable"
    centre, spread = float(runs.mean()), float(runs.std(ddof=1))
    difference = abs(float(published) - centre)
    if difference <= precision + 1e-12:
        return "reproduced"
    return "within tolerance" if difference <= k * spread + precision + 1e-12 else "not reproduced"


#: The protocol rule, in words (the page renders it).
PROTOCOL_RULE = ("A claim about the paper's experiment is judged on the book's closest measured reproduction of the "
                 "paper's protocol; the book's own convention is reported beside it as a reading (never counted), and "
                 "sibling claims of the same experiment use the same choice.")

#: The reading the paper's claims are judged on, by experiment, where the book's convention and the paper's
#: protocol differ and the book has measured the paper's (the book's convention is then the reported reading).
PAPER_PROTOCOL = {
    "zaffalon2012_benchmark": ("Weka-IP's CDT leaf rule",
                               "Zaffalon et al. (2012) ran the credal tree in Weka-IP, whose leaves count a tie at the "
                               "IDM boundary as dominance; the book's strict rule is its own convention (both measured "
                               "on the page 'Why some cells differ' of Part III). The claims of Sect. 9.2 and the cells of "
                               "Tables 4-9 and 12-19 are judged on it."),
    "ferri2019_thresholds": ("Weka's learners (the paper's own)",
                             "Ferri et al. (2019, Sect. 6, Table 6) ran the model types of Weka through RWeka; the book "
                             "re-ran them with Weka 3.9.7 and the options of the authors' R code (the stored run "
                             "ferri2019_thresholds_weka). Tables 7 and 8 and every claim computed from the study are "
                             "judged on it; the book's scikit-learn stand-ins are the reading ferri2019.standins.*."),
}

#: The severities of an erratum, each with its meaning.
SEVERITIES = {
    "misprint": "a number or symbol printed wrong where the paper's own text, derivation or other tables give the "
                "right one; nothing that follows depends on it",
    "error of substance": "a result, formula or count that is wrong and that a conclusion of the paper rests on",
    "unsupported inference": "a conclusion the paper's own tables or derivations contradict or do not support",
}
#: The severity of an erratum whose check or entry names none.
DEFAULT_SEVERITY = "error of substance"


def check_severity(severity: str) -> str:
    """``severity`` validated against :data:`SEVERITIES`."""
    if severity not in SEVERITIES:
        raise ValueError(f"severity must be one of {', '.join(SEVERITIES)}, got {severity!r}")
    return severity


#: The verdicts that make a finding (one per distinct error or failed claim).
NEGATIVE = ("partly", "not reproduced", "erratum")


def is_negative(verdict) -> np.ndarray | bool:
    """Whether a verdict (or an array of them) is negative: partly, not reproduced or erratum."""
    if isinstance(verdict, str):
        return verdict in NEGATIVE
    return np.isin(np.asarray(verdict, dtype=object).astype(str), NEGATIVE)


def erratum_within_tolerance(difference: float, limit: float) -> bool:
    """Whether an erratum decided on a number is void: the book's value lies within the entry's stated
    tolerance of the printed one (a tolerance that passes the cell cannot also call it an error)."""
    return not math.isnan(difference) and abs(difference) <= limit + 1e-12


#: The rules of the policy as (title, text) pairs, in the order of the page.
RULES = (
    ("Quantifiers", "A quantified claim ('most', 'generally', 'almost always'...) is true in a share of its cases; it "
                    "holds when that share meets the one threshold of its quantifier (the table below), the same in "
                    "every paper and every check."),
    ("Noise", f"A claim about a curve or a figure is judged against measured noise: a difference within {NOISE_K:g} "
              "times the noise is not a failure, and a step of a curve the wrong way by less than that is not an "
              "exception to 'always'. The noise is the standard error of the book's mean over its repetitions when "
              "the paper averaged as many; when the paper drew its figure from one run whose split or seed it does "
              "not give, it is the spread of one run (the standard deviation over the book's repetitions or splits). "
              f"An association a paper says it has seen in its tables is a rank correlation above {NOISE_K:g} times "
              "its noise with no association, 1/√(n − 1) over n items; a hedged one ('it seems') needs only its sign."),
    ("Single runs", "A number the paper read off one run or figure whose split or seed it does not give is judged "
                    "against the spread of the book's runs (within tolerance inside it), or called not checkable; it "
                    "is never compared with one median of the book's."),
    ("Protocol", PROTOCOL_RULE),
    ("Errata", "An erratum is decided by a computation (the paper against a derivation or against itself) and has a "
               "severity: " + "; ".join(f"{k} ({v})" for k, v in SEVERITIES.items()) + ". An inference about how "
               "the authors ran their experiment is a remark on a not-reproduced entry, never an erratum; a printed "
               "number within the entry's stated tolerance of the book's is never an erratum."),
    ("Partly", PARTLY),
    ("Findings", "Each distinct error or failed claim is one finding; the table cells and repeated statements it "
                 "explains are linked to it and counted once. Counts of the report are counts of findings, with their "
                 "entries listed beneath."),
)


# ----------------------------------------------------------------------------------------------
# The re-judgment under the policy: what changed and why
# ----------------------------------------------------------------------------------------------

#: The columns of :func:`verdict_changes`.
CHANGE_COLUMNS = ("id", "paper", "entry", "before", "after", "rule", "reason")


def _stored_result(evidence: str) -> str:
    """The stored result an entry's evidence names (``"... (stored result NAME)"``), or ``""``."""
    marker = "stored result "
    if marker not in evidence:
        return ""
    return evidence.split(marker, 1)[1].split(")", 1)[0].split(",", 1)[0].split()[0]


def _protocol_table_cell(entry_id: str) -> bool:
    """Whether a cell of Zaffalon et al.'s Tables 4–9 and 12–19 moves with the CDT's leaf rule: a CDT cell, or a
    mean rank (Tables 6 and 9), which every classifier's rank shares with the CDT."""
    if not entry_id.startswith("zaffalon2012_bench_table"):
        return False
    number = entry_id[len("zaffalon2012_bench_table"):].split("[", 1)[0]
    return entry_id.endswith("; CDT]") or number in ("6", "9")


def change_reason(before, after, remade=()) -> tuple[str, str]:
    """The rule of the policy behind one changed verdict, and the reason in words.

    ``before`` and ``after`` are the ledger rows of the entry (mappings; ``before`` is ``None``
    for an entry added by the re-judgment). The rule is read off the entry (its id, tolerance,
    verdicts and detail). ``remade`` names the stored results re-made between the two ledgers: a
    change whose book value moved with such a result is ``"re-made runs"``. A change no rule
    explains is ``"other"`` (a change of code or data made beside the policy).
    """
    entry_id = str(after["id"])
    tolerance, detail = str(after.get("tolerance", "")), str(after.get("detail", ""))
    if before is None:
        return "new entry", ("an inconsistency the ledger held nowhere (issue 24): " +
                             ("the conference version's repetition of the journal's erratum "
                              f"{after.get('finding') or ''}".strip() if str(after["paper"]) == "zaffalon2011"
                              else "decided by computation on the printed numbers"))
    was, now = str(before["verdict"]), str(after["verdict"])
    if was == "erratum" and "remark:" in detail:
        return "errata", "an inference about how the authors ran their experiment is a remark, not an erratum"
    if was == "erratum" and "fold averaging" in detail:
        return "errata", "the tables are fold averages: the average of per-fold ratios is not the ratio of the " \
                         "averaged accuracies, so a printed C_rho contradicts no identity of the paper"
    if entry_id.startswith(("zaffalon2012.bench-", "zaffalon2012.strict.bench-")):
        return "protocol", ("judged on Weka-IP's CDT leaf rule, the paper's protocol; the book's strict rule is the "
                            "reading zaffalon2012.strict.*")
    if entry_id.startswith("yang2017.fig3-"):
        return "noise", (f"a difference within {NOISE_K:g} times the spread of one run (Fig. 3 is one run of unstated "
                         "split) is not an exception")
    if "one split's spread" in detail:
        return "single runs", ("a number read off one run of unstated split is judged against the spread of the "
                               "book's splits")
    if now == "partly" and was == "not reproduced":
        return "partly", PARTLY
    if "(" in tolerance and any(f"({name})" in tolerance for name in QUANTIFIERS):
        name = next(name for name in QUANTIFIERS if f"({name})" in tolerance)
        return "quantifier", (f"the word now reads as '{name}' ({QUANTIFIERS[name].rule}); before: "
                              f"{before.get('tolerance', '')}")
    if was == "erratum" and now == "within tolerance":
        return "errata", "the printed number lies within the entry's stated tolerance: a tolerance that passes it " \
                         "cannot also call it an error"
    if _protocol_table_cell(entry_id) and str(before.get("book", "")) != str(after.get("book", "")):
        return "protocol", ("the cell is judged with the CDT scored by Weka-IP's leaf rule, the paper's protocol; the "
                            "book's strict rule is the table's reading")
    result = _stored_result(str(after.get("evidence", "")))
    if result == "ferri2019_thresholds_weka" and _stored_result(str(before.get("evidence", ""))) != result:
        return "protocol", ("judged on Weka's learners, the paper's own (the stored run ferri2019_thresholds_weka); the "
                            "book's scikit-learn stand-ins are the reading ferri2019.standins.*")
    if result and result in set(remade) and str(before.get("book", "")) != str(after.get("book", "")):
        return "re-made runs", (f"the stored run {result} was re-made from a clean commit since; the book's value "
                                f"moved from {before.get('book', '')} to {after.get('book', '')}")
    return "other", "a change of code or data made beside the policy"


def verdict_changes(before, after, remade=()):
    """Every counted ledger entry of a source paper whose verdict differs between ledgers ``before`` and ``after``
    (or that only ``after`` has), with the rule of the policy behind it (:func:`change_reason`, given the stored
    results ``remade`` between them); columns :data:`CHANGE_COLUMNS`. The book's own claims (paper
    ``credalbook``, Part VII) are left out."""
    import pandas as pd

    from credalbook.book.ledger.core import is_reading

    old = before[~is_reading(before["entry"])].drop_duplicates("id").set_index("id")
    new = after[~is_reading(after["entry"])].drop_duplicates("id")
    new = new[new["paper"] != "credalbook"]
    rows = []
    for _, row in new.iterrows():
        previous = old.loc[row["id"]] if row["id"] in old.index else None
        if previous is not None and previous["verdict"] == row["verdict"]:
            continue
        rule, reason = change_reason(None if previous is None else {"id": row["id"], **previous.to_dict()},
                                     row.to_dict(), remade)
        rows.append({"id": row["id"], "paper": row["paper"], "entry": row["entry"],
                     "before": "" if previous is None else previous["verdict"], "after": row["verdict"],
                     "rule": rule, "reason": reason})
    return pd.DataFrame(rows, columns=list(CHANGE_COLUMNS))


def change_counts(before, after):
    """Negative entries and findings per paper, before and after the re-judgment (rows: papers and ``all``).

    Columns: ``entries before`` and ``entries after`` (counted rows whose verdict is negative),
    ``findings before`` (the old ledger had no findings: each negative row counted once) and
    ``findings after`` (:func:`credalbook.book.ledger.core.finding_counts`), then ``errata`` before and
    after as entries and as findings.
    """
    import pandas as pd

    from credalbook.book.ledger.core import PAPERS, finding_counts, is_reading

    def negative(table):
        counted = table[~is_reading(table["entry"])]
        return counted[is_negative(counted["verdict"])]

    old, new = negative(before), negative(after)
    found = finding_counts(after)
    papers = [p for p in PAPERS if p in set(old["paper"]) | set(new["paper"])]
    rows = []
    for paper in [*papers, "all"]:
        pick = (lambda t: t) if paper == "all" else (lambda t, p=paper: t[t["paper"] == p])
        rows.append({"paper": paper, "entries before": len(pick(old)), "entries after": len(pick(new)),
                     "findings before": len(pick(old)),
                     "findings after": int(found.loc[paper, "total"]) if paper in found.index else 0,
                     "errata entries before": int((pick(old)["verdict"] == "erratum").sum()),
                     "errata entries after": int((pick(new)["verdict"] == "erratum").sum()),
                     "errata findings after": int(found.loc[paper, "erratum"]) if paper in found.index else 0})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------------------------
# For the page "How the verdicts are decided"
# ----------------------------------------------------------------------------------------------

def quantifier_table():
    """The quantifiers as the page shows them: quantifier, threshold, the papers' wordings sent to it, why."""
    import pandas as pd

    return pd.DataFrame([{"quantifier": q.name, "threshold": q.rule,
                          "wordings": ", ".join(sorted(w for w, name in WORDS.items() if name == q.name)),
                          "why this threshold": q.argument} for q in QUANTIFIERS.values()])


def severity_table():
    """The severities of an erratum as the page shows them."""
    import pandas as pd

    return pd.DataFrame([{"severity": name, "meaning": meaning} for name, meaning in SEVERITIES.items()])


def rejudged(name: str):
    """The stored re-judgment (``data/rejudged/{name}.csv``: ``counts`` or ``verdict_changes``), written by
    ``scripts/verdict_changes.py`` with :func:`change_counts` and :func:`verdict_changes`."""
    import pandas as pd

    from credalbook.book.build import repo_root

    if name not in ("counts", "verdict_changes"):
        raise ValueError(f"name must be 'counts' or 'verdict_changes', got {name!r}")
    path = repo_root() / "data" / "rejudged" / f"{name}.csv"
    if not path.is_file():
        raise FileNotFoundError(f"no stored re-judgment at data/rejudged/{name}.csv: run scripts/verdict_changes.py")
    return pd.read_csv(path, keep_default_na=False)
