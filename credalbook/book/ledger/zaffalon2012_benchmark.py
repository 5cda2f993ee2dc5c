"""Ledger entries of Zaffalon, Corani & Mauá (2012), §9.2 and Appendix A: the credal classifier benchmark (Part III).

Book frames of Tables 4–9 and 12–19 (and of the CDT's solar-flare cells that the datasets
appendix uses) and the checks of the paper's claims about NCC, LNCC, CMA and CDT, computed from
the stored result ``zaffalon2012_benchmark`` with the aggregation code of
:mod:`credalbook.book.experiments.benchmark`. The book has 54 of the paper's 55 datasets (connect-4
is unavailable): every median, rank and test over datasets is over those 54.

By the verdict policy's protocol rule (:data:`credalbook.book.ledger.policy.PAPER_PROTOCOL`) every table
is judged with the CDT scored as the paper's Weka-IP scores its leaves (a tie at the IDM boundary counts
as dominance), and carries the reading :data:`STRICT_LEAF_RULE`: the same frames with the book's strict
rule, from the same trees, reported beside it and never counted.

Where a statement contradicts the paper's own tables, the check decides ``erratum`` from those
tables, which it takes as inputs: altered so that they agree with the statement, they let the
book's value decide.

The claims of §9.2 are about the paper's experiment, which ran the credal tree in Weka-IP: by the
verdict policy's protocol rule (:data:`credalbook.book.ledger.policy.PAPER_PROTOCOL`) every check is
judged on the stored rows with the CDT scored by Weka-IP's leaf rule (:func:`paper_protocol_rows`),
and each is registered a second time, ``zaffalon2012.strict.<name>``, on the book's strict rule:
the reading :data:`STRICT_LEAF_RULE`, reported beside it and never counted (its claims,
``data/paper/claims/zaffalon2012_benchmark_strict.yml``, are :func:`strict_twin_records` of the
benchmark's claims).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from credalbook.book.experiments import benchmark as bm
from credalbook.book.ledger import policy
from credalbook.book.ledger.core import (BOOK_READING, CHECKS, Finding, book_table, check, protocol_twins, stored,
                                         twin_records)
from credalbook.book.reference import published

__all__ = ["paper_table", "with_weka_leaf_rule", "paper_protocol_rows", "strict_twin", "strict_twin_records",
           "STRICT_LEAF_RULE", "summary_frame", "per_dataset_frame", "flare_majorities",
           "cdt_solar_flare", "scores", "ncc_benefits_most_from_selection",
           "ncc_benefits_most_from_risk_aversion", "cdt_most_determinate_with_selection",
           "U65_GAIN_AT_HALF", "HALF_UNIT", "class_counts", "binary_determinacy_identity", "table12_spambase_lncc",
           "average_identity", "table17_contact_lenses_ncc"]

RESULTS = stored(bm.NAME)
CHAPTER = "chapters/benchmark/credal_comparison"
#: The page of the per-dataset Tables 12-19 (Appendix).
PER_DATASET_CHAPTER = "chapters/benchmark/per_dataset"
PART = "III"
CREDAL = list(bm.CREDAL)
SQUASH = "squash-stored"
WEKA_LEAF_RULE = "Weka-IP's CDT leaf rule"
#: the tables of Appendix A (per dataset) and of Section 9.2 (summaries), by number
PER_DATASET = {number: (cfs, measure) for cfs, numbers in bm.PER_DATASET_TABLES.items()
               for measure, number in numbers.items()}
SUMMARIES = {4: (False, "utilities"), 5: (False, "determinacy"), 6: (False, "ranks"),
             7: (True, "determinacy"), 8: (True, "utilities"), 9: (True, "ranks")}


def paper_table(number: int):
    """A loader of the paper's Table ``number`` as transcribed (``data/paper/zaffalon2012_bench_table{number}``)."""

    def load() -> pd.DataFrame:
        return published(f"zaffalon2012_bench_table{number}")

    load.evidence = f"published table zaffalon2012_bench_table{number}"
    return load


def with_weka_leaf_rule(means: pd.DataFrame) -> pd.DataFrame:
    """Per-dataset means with the CDT scored by Weka-IP's leaf rule (the benchmark's ``CDT-weka`` rows), as
    :func:`paper_protocol_rows` makes the stored rows."""
    return paper_protocol_rows(means)


#: The reading of the benchmark's claims on the book's own, strict CDT leaf rule (reported, never counted).
STRICT_LEAF_RULE = "the book's strict CDT leaf rule"


def paper_protocol_rows(rows: pd.DataFrame) -> pd.DataFrame:
    """The stored benchmark rows as the paper ran it: the CDT scored by Weka-IP's leaf rule (the ``CDT-weka`` rows
    named ``CDT``, the strict rule's rows left out)."""
    kept = rows[rows["classifier"] != "CDT"]
    return kept.assign(classifier=kept["classifier"].replace({"CDT-weka": "CDT"}))


def _paper_protocol() -> pd.DataFrame:
    return paper_protocol_rows(RESULTS())


_paper_protocol.evidence = f"stored result {bm.NAME}, CDT by Weka-IP's leaf rule (the paper's protocol)"
#: The stored rows the claims are judged on (the verdict policy's protocol rule).
PAPER_RESULTS = _paper_protocol
assert policy.PAPER_PROTOCOL["zaffalon2012_benchmark"][0] == WEKA_LEAF_RULE

#: How each reading of the tables turns the stored rows into per-dataset means.
#:
#: The counted one scores the CDT by Weka-IP's leaf rule (the protocol rule), the reading by the book's strict rule.
SCORINGS = {BOOK_READING: lambda rows: with_weka_leaf_rule(bm.dataset_means(rows)), STRICT_LEAF_RULE: bm.dataset_means}


# ----------------------------------------------------------------------------------------------
# Book frames of the published tables
# ----------------------------------------------------------------------------------------------

def summary_frame(means: pd.DataFrame, number: int) -> pd.DataFrame:
    """The book's Table ``number`` (4–9): medians of utility or determinacy, or mean ranks, over the datasets."""
    cfs, kind = SUMMARIES[number]
    if kind == "utilities":
        return bm.median_utilities(means, cfs)
    if kind == "determinacy":
        return bm.median_determinacy(means, cfs)
    return bm.rank_tables(means, cfs)[0]


def per_dataset_frame(means: pd.DataFrame, number: int) -> pd.DataFrame:
    """The book's Table ``number`` (12–19): one measure (%) per dataset and credal classifier."""
    cfs, measure = PER_DATASET[number]
    return bm.wide(means, measure, cfs)


def _register_tables() -> None:
    """Tables 4–9 and 12–19, each judged on Weka-IP's CDT leaf rule and read on the book's strict rule."""
    layouts = {**{n: (summary_frame, "quantity" if kind == "determinacy" else "utility")
                  for n, (_, kind) in SUMMARIES.items()},
               **{n: (per_dataset_frame, "name") for n in PER_DATASET}}
    for number, (frame, key) in layouts.items():
        for reading, scoring in SCORINGS.items():
            def build(results: pd.DataFrame, frame=frame, number=number, scoring=scoring) -> pd.DataFrame:
                return frame(scoring(results), number)

            build.__qualname__ = f"table{number}" + ("" if reading == BOOK_READING else "_strict_leaf_rule")
            build.__doc__ = f"Table {number} from the stored benchmark ({reading})."
            chapter = PER_DATASET_CHAPTER if number in PER_DATASET else CHAPTER
            book_table(f"zaffalon2012_bench_table{number}", on=[key], part=PART, chapter=chapter,
                       inputs={"results": RESULTS}, reading=reading)(build)


_register_tables()


def flare_majorities() -> pd.DataFrame:
    """Majority-class share (%) of solar-flare-C, -m and -X (rows) in the UCI files flare.data1 and flare.data2 (columns)."""
    from credalbook.data import load

    shares = {}
    for target in ("C", "m", "X"):
        for number in (1, 2):
            codes = load(f"solar-flare-{target} (solar-flare_{number})", "zaffalon2012").y_codes
            shares[(f"solar-flare-{target}", f"flare.data{number}")] = 100 * np.bincount(codes).max() / len(codes)
    return pd.Series(shares).unstack()


flare_majorities.evidence = "data/raw UCI solar-flare files"


@book_table("datasets_zaffalon2012_cdt_solar_flare", on=["dataset"], part="A", chapter="chapters/datasets",
            inputs={"results": RESULTS})
def cdt_solar_flare(results: pd.DataFrame) -> pd.DataFrame:
    """The book's CDT on the three solar-flare datasets (flare.data1, as in the benchmark): determinacy and u50 (%)."""
    plain = bm.dataset_means(results)
    plain = plain[~plain["cfs"] & (plain["classifier"] == "CDT")]
    plain = plain[plain["dataset"].str.startswith("solar-flare")]
    return pd.DataFrame({"dataset": plain["dataset"].str.partition(" ")[0].to_numpy(),
                         "cdt_determinacy": plain["determinacy"].to_numpy(), "cdt_u50": plain["u50"].to_numpy()})


def _register_flare_readings() -> None:
    """The paper's CDT read as a majority-class predictor on either UCI file (determinate, accuracy = majority)."""
    for column in ("flare.data1", "flare.data2"):
        def build(majorities: pd.DataFrame, column=column) -> pd.DataFrame:
            return pd.DataFrame({"dataset": majorities.index, "cdt_determinacy": 100.0,
                                 "cdt_u50": majorities[column].to_numpy()})

        build.__qualname__ = f"cdt_solar_flare_majority_{column.replace('.', '_')}"
        book_table("datasets_zaffalon2012_cdt_solar_flare", on=["dataset"], part="A", chapter="chapters/datasets",
                   inputs={"majorities": flare_majorities}, reading=f"majority class of {column}")(build)


_register_flare_readings()


# ----------------------------------------------------------------------------------------------
# Helpers of the checks
# ----------------------------------------------------------------------------------------------

def scores(results: pd.DataFrame, measure: str, cfs: bool = False) -> pd.DataFrame:
    """Datasets x credal classifiers of one measure (%), over the book's datasets (54: connect-4 is unavailable)."""
    return bm.wide(bm.dataset_means(results), measure, cfs).set_index("name")


def _datasets(results: pd.DataFrame) -> str:
    return f"{results['dataset'].nunique()} datasets"


def _show(values: pd.Series, digits: int = 2) -> str:
    return ", ".join(f"{name} {value:.{digits}f}" for name, value in values.items())


def _strict_leader(values: pd.Series, largest: bool = True) -> str | None:
    """The classifier with the strictly largest (smallest) value, or None on a tie."""
    ordered = values.sort_values(ascending=not largest)
    return ordered.index[0] if ordered.iloc[0] != ordered.iloc[1] else None


def _swap(results: pd.DataFrame, first: str, second: str) -> pd.DataFrame:
    """Rows with classifiers ``first`` and ``second`` exchanged (every dataset, both arms)."""
    labels = results["classifier"].map({first: second, second: first}).fillna(results["classifier"])
    return results.assign(classifier=labels)


def _perfect(results: pd.DataFrame, best: str, worst: str | None = None) -> pd.DataFrame:
    """Rows where ``best`` is determinate and right on every instance (and ``worst`` wrong on every one)."""
    altered = results.copy()
    for name, value in ((best, 1.0), (worst, 0.0)):
        if name is not None:
            rows = altered["classifier"] == name
            for column in ("u50", "u65", "u80", "correct", "determinate"):
                altered.loc[rows, column] = value * altered.loc[rows, "n_test"]
    return altered


def _exchange_arms(results: pd.DataFrame, classifier: str) -> pd.DataFrame:
    """Rows where ``classifier``'s results without and with CFS are exchanged (its changes under CFS reversed)."""
    rows = results["classifier"] == classifier
    return results.assign(cfs=np.where(rows, ~results["cfs"].astype(bool), results["cfs"].astype(bool)))


def _rotate(results: pd.DataFrame) -> pd.DataFrame:
    """Rows whose credal classifiers' labels are rotated by one more place on each successive dataset."""
    order = {name: i for i, name in enumerate(dict.fromkeys(results["dataset"]))}
    credal = results["classifier"].isin(CREDAL)
    position = results.loc[credal, "classifier"].map(CREDAL.index)
    shift = results.loc[credal, "dataset"].map(order)
    labels = results["classifier"].copy()
    labels.loc[credal] = [CREDAL[(p + s) % len(CREDAL)] for p, s in zip(position, shift)]
    return results.assign(classifier=labels)


# ----------------------------------------------------------------------------------------------
# §9.2, Tables 4–5: leaders of the medians, gains from risk aversion
# ----------------------------------------------------------------------------------------------

def _median_leader(name: str, measures: tuple[str, ...], classifier: str, largest: bool):
    """Register a check: ``classifier`` has the strictly largest (smallest) median of each of ``measures`` (no CFS)."""

    def medians(results):
        return {m: scores(results, m).median() for m in measures}

    def holds(results) -> bool:
        return all(_strict_leader(values, largest) == classifier for values in medians(results).values())

    def mutate(results):
        """Altered input: ``classifier`` exchanged with the leader (or, leading, the runner-up) of the first measure."""
        ordered = medians(results)[measures[0]].sort_values(ascending=not largest).index
        other = ordered[1] if ordered[0] == classifier else ordered[0]
        return {"results": _swap(results, classifier, other)}

    @check(name, inputs={"results": RESULTS}, mutate=mutate)
    def leader(results: pd.DataFrame) -> Finding:
        found = medians(results)
        detail = "; ".join(f"median {m} over {_datasets(results)}: {_show(v)}" for m, v in found.items())
        return Finding(book=holds(results), detail=detail)

    leader.__qualname__ = f"median_leader[{name}]"
    return leader


_median_leader("zaffalon2012.bench-cma-most-determinate", ("determinacy",), "CMA", largest=True)
_median_leader("zaffalon2012.bench-cma-highest-utility", ("u50", "u65", "u80"), "CMA", largest=True)
_median_leader("zaffalon2012.bench-ncc-most-indeterminate", ("determinacy",), "NCC", largest=False)


def _risk_aversion_gains(table_u50: pd.DataFrame, table_u80: pd.DataFrame) -> pd.Series:
    """Gain of the median expected utility from u50 to u80 (points), per classifier."""
    return table_u80[CREDAL].median() - table_u50[CREDAL].median()


def _risk_aversion_check(name: str, classifier: str, largest: bool):
    """Register a check: ``classifier`` has the largest (smallest) gain of median utility from u50 to u80 (Table 4).

    The paper's own Tables 13 and 15 (the per-dataset numbers behind Table 4) decide first: if they
    contradict the statement, the verdict is ``erratum``.
    """

    def mutate(results, table13, table15):
        """Altered input: the paper's Table 15 with ``classifier`` 20 points higher (its gain becomes the largest)."""
        raised = table15.assign(**{classifier: table15[classifier] + 20})
        return {"results": results, "table13": table13, "table15": raised}

    @check(name, inputs={"results": RESULTS, "table13": paper_table(13), "table15": paper_table(15)}, mutate=mutate)
    def gain(results: pd.DataFrame, table13: pd.DataFrame, table15: pd.DataFrame) -> Finding:
        paper = _risk_aversion_gains(table13, table15)
        book = _risk_aversion_gains(scores(results, "u50"), scores(results, "u80"))
        detail = (f"median u80 − median u50 (points): paper's Tables 13/15 {_show(paper)}; "
                  f"book ({_datasets(results)}) {_show(book)}")
        if _strict_leader(paper, largest) != classifier:
            return Finding(book=_strict_leader(book, largest) == classifier, verdict="erratum",
                           detail=f"the paper's own medians contradict it: {detail}")
        return Finding(book=_strict_leader(book, largest) == classifier, detail=detail)

    gain.__qualname__ = f"risk_aversion_gain[{name}]"
    return gain


_risk_aversion_check("zaffalon2012.bench-ncc-gains-most-from-risk-aversion", "NCC", largest=True)
_risk_aversion_check("zaffalon2012.bench-cdt-gains-least-from-risk-aversion", "CDT", largest=False)


# ----------------------------------------------------------------------------------------------
# §9.2, Table 6 and Fig. 6: Friedman and Nemenyi tests
# ----------------------------------------------------------------------------------------------

def _friedman(results: pd.DataFrame, measure: str, cfs: bool):
    from credalbook.stats import friedman_test

    return friedman_test(scores(results, measure, cfs))


def _flip_friedman(measure: str, cfs: bool):
    """A mutate: significant differences removed (labels rotated across datasets) or created (CMA made perfect)."""

    def mutate(results, **others):
        significant = _friedman(results, measure, cfs).significant
        return {"results": _rotate(results) if significant else _perfect(results, "CMA"), **others}

    return mutate


def _friedman_check(name: str, measure: str, cfs: bool):
    """Register a check: the Friedman test over the book's datasets rejects equal performance under ``measure``."""

    @check(name, inputs={"results": RESULTS}, mutate=_flip_friedman(measure, cfs))
    def friedman(results: pd.DataFrame) -> Finding:
        result = _friedman(results, measure, cfs)
        arm = "with" if cfs else "without"
        return Finding(book=result.significant, detail=f"Friedman on {measure} ({arm} CFS, {_datasets(results)}): "
                                                       f"χ² = {result.statistic:.2f}, p = {result.pvalue:.4f}")

    friedman.__qualname__ = f"friedman[{name}]"
    return friedman


for _utility in bm.UTILITIES:
    _friedman_check(f"zaffalon2012.bench-friedman-{_utility}", _utility, cfs=False)
    _friedman_check(f"zaffalon2012.bench-cfs-friedman-{_utility}", _utility, cfs=True)


def _nemenyi_row(results: pd.DataFrame, first: str, second: str) -> pd.Series:
    from credalbook.stats import nemenyi_pairs

    pairs = nemenyi_pairs(scores(results, "u50"))
    match = pairs[((pairs["first"] == first) & (pairs["second"] == second))
                  | ((pairs["first"] == second) & (pairs["second"] == first))]
    return match.iloc[0]


def _nemenyi_check(name: str, first: str, second: str, better: str | None):
    """Register a check: Nemenyi (u50, no CFS) finds ``first`` and ``second`` different (``better`` winning if given)."""

    def holds(row: pd.Series) -> bool:
        return bool(row["significant"]) and (better is None or row["better"] == better)

    def mutate(results):
        """Altered input: the pair made equal (if the book finds it), else one of them perfect and the other wrong."""
        if holds(_nemenyi_row(results, first, second)):
            copied = results[results["classifier"] == first].assign(classifier=second)
            return {"results": pd.concat([results[results["classifier"] != second], copied], ignore_index=True)}
        winner = better or first
        return {"results": _perfect(results, winner, second if winner == first else first)}

    @check(name, inputs={"results": RESULTS}, mutate=mutate)
    def nemenyi(results: pd.DataFrame) -> Finding:
        row = _nemenyi_row(results, first, second)
        return Finding(book=holds(row), detail=f"mean ranks under u50 ({_datasets(results)}): {row['first']} "
                                               f"{row['rank_first']:.2f}, {row['second']} {row['rank_second']:.2f}; "
                                               f"difference {row['difference']:.2f} against CD "
                                               f"{row['critical_difference']:.2f}")

    nemenyi.__qualname__ = f"nemenyi[{name}]"
    return nemenyi


_nemenyi_check("zaffalon2012.bench-nemenyi-cma-over-ncc", "CMA", "NCC", better="CMA")
_nemenyi_check("zaffalon2012.bench-nemenyi-cdt-over-ncc", "CDT", "NCC", better="CDT")
for _first, _second in (("NCC", "LNCC"), ("LNCC", "CMA"), ("LNCC", "CDT"), ("CMA", "CDT")):
    _nemenyi_check(f"zaffalon2012.bench-nemenyi-{_first.lower()}-{_second.lower()}", _first, _second, better=None)


# ----------------------------------------------------------------------------------------------
# §9.2: the squash-stored case (Tables 12, 13, 15)
# ----------------------------------------------------------------------------------------------

def _squash(results: pd.DataFrame, measure: str) -> pd.Series:
    return scores(results, measure).loc[SQUASH]


def _squash_rank_check(name: str, measure: str, classifier: str, rank: int):
    """Register a check: on squash-stored, ``classifier`` is ``rank``-th highest under ``measure``."""

    def ranks(results) -> pd.Series:
        return _squash(results, measure).rank(ascending=False, method="min")

    def mutate(results):
        """Altered input: ``classifier`` exchanged with the one at ``rank`` (or, if it is there, with another)."""
        order = ranks(results)
        holder = order.index[order == rank]
        other = holder[0] if len(holder) and holder[0] != classifier else next(c for c in CREDAL if c != classifier)
        return {"results": _swap(results, classifier, other)}

    @check(name, inputs={"results": RESULTS}, mutate=mutate)
    def squash_rank(results: pd.DataFrame) -> Finding:
        values = _squash(results, measure)
        return Finding(book=bool(ranks(results)[classifier] == rank),
                       detail=f"squash-stored, {measure} (%): {_show(values.sort_values(ascending=False))}")

    squash_rank.__qualname__ = f"squash_rank[{name}]"
    return squash_rank


_squash_rank_check("zaffalon2012.bench-squash-cdt-best-u50", "u50", "CDT", 1)
_squash_rank_check("zaffalon2012.bench-squash-ncc-best-u80", "u80", "NCC", 1)
_squash_rank_check("zaffalon2012.bench-squash-lncc-lowest-u50", "u50", "LNCC", 4)
_squash_rank_check("zaffalon2012.bench-squash-lncc-second-u80", "u80", "LNCC", 2)


def _squash_gap_check(name: str, lower: str, higher: str, margin: float):
    """Register a check: on squash-stored, ``lower``'s determinacy is below ``higher``'s by more than ``margin`` points."""

    @check(name, inputs={"results": RESULTS}, mutate=lambda results: {"results": _swap(results, lower, higher)})
    def squash_gap(results: pd.DataFrame) -> Finding:
        values = _squash(results, "determinacy")
        gap = values[higher] - values[lower]
        return Finding(book=bool(gap > margin), detail=f"squash-stored determinacy (%): {_show(values)}; "
                                                       f"{higher} − {lower} = {gap:.2f} points")

    squash_gap.__qualname__ = f"squash_gap[{name}]"
    return squash_gap


_squash_gap_check("zaffalon2012.bench-squash-ncc-less-determinate-than-cdt", "NCC", "CDT", margin=20.0)
_squash_gap_check("zaffalon2012.bench-squash-lncc-less-determinate-than-ncc", "LNCC", "NCC", margin=0.0)


# ----------------------------------------------------------------------------------------------
# §9.2: feature selection (Tables 7–9 against 4–6; Tables 16–19 against 12–15)
# ----------------------------------------------------------------------------------------------

def _printed_summary(table: pd.DataFrame, measure: str) -> pd.Series:
    """One row of the paper's Table 4/8 (utility, as a fraction) or 5/7 (determinacy) as printed."""
    row = table.iloc[0] if measure == "determinacy" else table.set_index("utility").loc[measure]
    return row[CREDAL].astype(float)


def _moves(before: float, after: float, direction: str) -> bool:
    return after > before if direction == "up" else after < before


def _cfs_change_check(name: str, measure: str, classifier: str, direction: str):
    """Register a check: with CFS, ``classifier``'s median ``measure`` goes ``direction`` ("up" or "down").

    The paper's printed summaries (Table 5 against 7 for determinacy, 4 against 8 for utilities,
    which the text contrasts) decide first: if they contradict the statement, ``erratum``.
    """
    before_table, after_table = (5, 7) if measure == "determinacy" else (4, 8)
    scale = 1.0 if measure == "determinacy" else 0.01

    def book_medians(results):
        return (scores(results, measure, False).median()[classifier] * scale,
                scores(results, measure, True).median()[classifier] * scale)

    def mutate(results, before, after):
        """Altered input: the paper's CFS summary made to agree with the statement, and the book's two arms of
        ``classifier`` exchanged (its change reversed)."""
        printed = _printed_summary(before, measure)[classifier]
        agreeing = after.copy()
        target = (agreeing.index[0] if measure == "determinacy"
                  else agreeing.index[agreeing["utility"] == measure][0])
        agreeing.loc[target, classifier] = printed + (1 if direction == "up" else -1) * 0.05
        return {"results": _exchange_arms(results, classifier), "before": before, "after": agreeing}

    @check(name, inputs={"results": RESULTS, "before": paper_table(before_table), "after": paper_table(after_table)},
           mutate=mutate)
    def cfs_change(results: pd.DataFrame, before: pd.DataFrame, after: pd.DataFrame) -> Finding:
        paper = (_printed_summary(before, measure)[classifier], _printed_summary(after, measure)[classifier])
        book = book_medians(results)
        detail = (f"median {measure} of {classifier} without → with CFS: paper (Tables {before_table}, "
                  f"{after_table}) {paper[0]:g} → {paper[1]:g}; book ({_datasets(results)}) {book[0]:.4g} → {book[1]:.4g}")
        if not _moves(*paper, direction):
            return Finding(book=_moves(*book, direction), verdict="erratum",
                           detail=f"the paper's own Tables {before_table} and {after_table} contradict it: {detail}")
        return Finding(book=_moves(*book, direction), detail=detail)

    cfs_change.__qualname__ = f"cfs_change[{name}]"
    return cfs_change


for _classifier in ("NCC", "LNCC"):
    _prefix = f"zaffalon2012.bench-cfs-{_classifier.lower()}"
    _cfs_change_check(f"{_prefix}-more-determinate", "determinacy", _classifier, "up")
    for _utility in ("u50", "u65"):
        _cfs_change_check(f"{_prefix}-{_utility}-up", _utility, _classifier, "up")
_cfs_change_check("zaffalon2012.bench-cfs-cdt-less-determinate", "determinacy", "CDT", "down")
for _utility in ("u50", "u65"):
    _cfs_change_check(f"zaffalon2012.bench-cfs-cdt-{_utility}-down", _utility, "CDT", "down")
for _classifier in CREDAL:
    _cfs_change_check(f"zaffalon2012.bench-cfs-{_classifier.lower()}-u80-down", "u80", _classifier, "down")


def _cma_check(name: str, measures: tuple[str, ...]):
    """Register a check: CMA's median ``measures`` are unaltered by CFS (equal to the printed two decimals).

    The book's medians decide. The paper's CMA columns with CFS (Tables 16–18) equal those without
    (Tables 12–14) in every legible cell, which suggests its CMA was not re-run with CFS: by the
    verdict policy an inference about how the authors ran their experiment is a remark in the
    detail, never an erratum.
    """
    tables = {m: (bm.PER_DATASET_TABLES[False][m], bm.PER_DATASET_TABLES[True][m]) for m in measures}
    inputs = {"results": RESULTS, **{f"table{n}": paper_table(n) for pair in tables.values() for n in pair}}

    def identical_cells(tables_in: dict) -> tuple[int, int]:
        same = legible = 0
        for plain, selected in tables.values():
            a = tables_in[f"table{plain}"].set_index("name")["CMA"]
            b = tables_in[f"table{selected}"].set_index("name")["CMA"]
            both = a.notna() & b.notna()
            same, legible = same + int((a[both] == b[both]).sum()), legible + int(both.sum())
        return same, legible

    def changes_of(results):
        return {m: scores(results, m, True).median()["CMA"] - scores(results, m, False).median()["CMA"]
                for m in measures}

    def mutate(results, **tables_in):
        """Altered input: CMA's rows with CFS replaced by its rows without (unaltered), or, if the book finds it
        unaltered, CMA perfect with CFS."""
        cma, selected = results["classifier"] == "CMA", results["cfs"].astype(bool)
        if all(abs(c) < 0.005 for c in changes_of(results).values()):
            return {"results": pd.concat([results[~(cma & selected)], _perfect(results[cma & selected], "CMA")],
                                         ignore_index=True), **tables_in}
        copied = results[cma & ~selected].assign(cfs=True)
        return {"results": pd.concat([results[~(cma & selected)], copied], ignore_index=True), **tables_in}

    @check(name, inputs=inputs, mutate=mutate)
    def cma_unaltered(results: pd.DataFrame, **tables_in) -> Finding:
        changes = changes_of(results)
        unaltered = all(abs(change) < 0.005 for change in changes.values())
        book = "; ".join(f"book's median {m} of CMA changes by {c:+.2f} points ({_datasets(results)})"
                         for m, c in changes.items())
        same, legible = identical_cells(tables_in)
        remark = ""
        if same == legible:
            remark = (f"; remark: the paper's CMA cells with CFS equal those without in {same} of {legible} legible "
                      f"cells (Tables {', '.join(f'{a}/{b}' for a, b in tables.values())}), which suggests its CMA was "
                      f"not re-run with CFS (an inference about the paper's protocol, not an erratum)")
        return Finding(book=unaltered, detail=book + remark)

    cma_unaltered.__qualname__ = f"cma_unaltered[{name}]"
    return cma_unaltered


_cma_check("zaffalon2012.bench-cfs-cma-determinacy-unaltered", ("determinacy",))
_cma_check("zaffalon2012.bench-cfs-cma-utility-unaltered", ("u50", "u65"))


def _selection_gains(results: pd.DataFrame) -> pd.DataFrame:
    """Median over datasets of the per-dataset gain (points) from CFS: rows utilities, columns classifiers."""
    return pd.DataFrame({u: (scores(results, u, True) - scores(results, u, False)).median() for u in bm.UTILITIES}).T


def _ncc_gains_most(gains: pd.DataFrame) -> bool:
    return all(_strict_leader(row) == "NCC" for _, row in gains.iterrows())


def _reverse_or_perfect_ncc(results: pd.DataFrame) -> dict:
    """Altered input: NCC's two arms exchanged if it gains most from CFS, else NCC perfect with CFS."""
    if _ncc_gains_most(_selection_gains(results)):
        return {"results": _exchange_arms(results, "NCC")}
    selected = results[results["cfs"].astype(bool)]
    return {"results": pd.concat([results[~results["cfs"].astype(bool)], _perfect(selected, "NCC")], ignore_index=True)}


@check("zaffalon2012.bench-cfs-ncc-benefits-most", inputs={"results": RESULTS}, mutate=_reverse_or_perfect_ncc)
def ncc_benefits_most_from_selection(results: pd.DataFrame) -> Finding:
    """§9.2: NCC's median per-dataset gain from CFS is the largest of the four, under each utility."""
    gains = _selection_gains(results)
    return Finding(book=_ncc_gains_most(gains),
                   detail="; ".join(f"{u}: {_show(row)}" for u, row in gains.iterrows()) + " (median gains, points)")


def _rank_gains(results: pd.DataFrame) -> pd.Series:
    """Change of mean rank with CFS from u50 to u80 (Table 9; negative = better under risk aversion)."""
    ranks = bm.rank_tables(bm.dataset_means(results), cfs=True)[0].set_index("utility")
    return ranks.loc["u80", CREDAL] - ranks.loc["u50", CREDAL]


def _swap_with_runner_up(results: pd.DataFrame) -> dict:
    """Altered input: NCC exchanged with the classifier whose rank changes next (or first, if NCC does not lead)."""
    order = _rank_gains(results).astype(float).sort_values().index
    other = order[1] if order[0] == "NCC" else order[0]
    return {"results": _swap(results, "NCC", other)}


@check("zaffalon2012.bench-cfs-ncc-benefits-most-from-risk-aversion", inputs={"results": RESULTS},
       mutate=_swap_with_runner_up)
def ncc_benefits_most_from_risk_aversion(results: pd.DataFrame) -> Finding:
    """§9.2, Table 9: with CFS, NCC's mean rank improves most from u50 to u80."""
    change = _rank_gains(results).astype(float)
    return Finding(book=_strict_leader(change, largest=False) == "NCC",
                   detail=f"mean rank u80 − u50 with CFS ({_datasets(results)}): {_show(change)}")


def _cdt_most_determinate_paper(table7: pd.DataFrame, table16: pd.DataFrame) -> tuple[bool, str]:
    """Whether the paper's own Table 7 (medians) or Table 16 (mean ranks on its complete rows) puts CDT first."""
    from credalbook.stats import mean_ranks

    medians = _printed_summary(table7, "determinacy")
    complete = table16.set_index("name")[CREDAL].dropna()
    ranks = mean_ranks(complete)
    first = _strict_leader(medians) == "CDT" or _strict_leader(ranks, largest=False) == "CDT"
    return first, (f"paper: Table 7 medians {_show(medians)}; mean determinacy ranks on the {len(complete)} complete "
                   f"rows of Table 16 {_show(ranks)}")


def _cdt_first_in_paper(results, table7, table16):
    """Altered input: the paper's CDT 100% determinate in Tables 7 and 16 (so they agree with the statement)."""
    return {"results": results, "table7": table7.assign(CDT=100.0), "table16": table16.assign(CDT=100.0)}


@check("zaffalon2012.bench-cfs-cdt-most-determinate",
       inputs={"results": RESULTS, "table7": paper_table(7), "table16": paper_table(16)}, mutate=_cdt_first_in_paper)
def cdt_most_determinate_with_selection(results: pd.DataFrame, table7: pd.DataFrame, table16: pd.DataFrame) -> Finding:
    """§9.2: with CFS, CDT is significantly the most determinate (Friedman on determinacy, CDT best mean rank)."""
    from credalbook.stats import mean_ranks

    table = scores(results, "determinacy", True)
    ranks, test = mean_ranks(table), _friedman(results, "determinacy", True)
    book = test.significant and _strict_leader(ranks, largest=False) == "CDT"
    detail = (f"book ({_datasets(results)}): mean determinacy ranks {_show(ranks)}, Friedman p = {test.pvalue:.2g}")
    paper_first, paper = _cdt_most_determinate_paper(table7, table16)
    if not paper_first:
        return Finding(book=book, verdict="erratum",
                       detail=f"the paper's own tables put CDT behind others: {paper}; {detail}")
    return Finding(book=book, detail=detail)


# ----------------------------------------------------------------------------------------------
# The protocol rule: every claim judged on Weka-IP's leaf rule, the book's strict rule as a reading
# ----------------------------------------------------------------------------------------------

def strict_twin(name: str) -> str:
    """The id of check (and claim) ``name`` judged on the book's strict leaf rule: ``zaffalon2012.strict.<rest>``."""
    prefix = "zaffalon2012.bench-"
    if not name.startswith(prefix):
        raise ValueError(f"name must be a check of the benchmark's claims, got {name!r}")
    return "zaffalon2012.strict." + name[len("zaffalon2012."):]


def strict_twin_records(records: list[dict]) -> list[dict]:
    """The claims of ``zaffalon2012_benchmark_strict.yml``: each benchmark claim (``records``, as in
    ``zaffalon2012_benchmark.yml``) judged on the book's strict CDT leaf rule, a reading never counted."""
    return twin_records(records, BENCHMARK_CLAIMS, strict_twin, section="on the book's strict CDT leaf rule",
                        reading=STRICT_LEAF_RULE,
                        note=lambda name: f"Judged with the CDT scored by the book's strict leaf rule (its own "
                                          f"convention), read as {name} is (see its note), which is judged on "
                                          f"Weka-IP's rule, the paper's protocol.")


BENCHMARK_CLAIMS = tuple(name for name in CHECKS if name.startswith("zaffalon2012.bench-"))
protocol_twins(BENCHMARK_CLAIMS, strict_twin, lambda loader: PAPER_RESULTS if loader is RESULTS else loader)


# ----------------------------------------------------------------------------------------------
# The referees' audit: two cells of Appendix A against the identities of the paper's utilities
# ----------------------------------------------------------------------------------------------

#: The gain of u65 over u50 of an indeterminate prediction on a binary class (x = 1/2), so that there
#: u65 − u50 = 0.15 (100 − determinacy); as u65(x) − x = 0.6 x (1 − x) and u80(x) − x = 1.2 x (1 − x), per
#: instance (so per mean) u65 = (u50 + u80)/2.
U65_GAIN_AT_HALF = 0.15
#: Half a unit of the second decimal, the printing precision of Tables 12-19.
HALF_UNIT = 0.005


def class_counts() -> pd.Series:
    """The number of classes each dataset's file declares, as Weka-IP counts them (heart-c and heart-h declare
    five, of which two occur), for the datasets whose classes present are two (by the book's name); the
    others are many-class in any reading and left out."""
    from credalbook.data import list_datasets, load

    listing = list_datasets("zaffalon2012")
    listing = listing[listing["in_paper"] & listing["available"] & (listing["n_classes"] == 2)]
    counts = {}
    for name in listing["name"]:
        y = load(name, group="zaffalon2012", declared_classes=True).y
        counts[name] = len(y.cat.categories)
    return pd.Series(counts, name="n_classes", dtype=int)


class_counts.evidence = "credalbook.data.load(..., declared_classes=True) of the two-class datasets"


def binary_determinacy_identity(determinacy: pd.DataFrame, u50: pd.DataFrame, u65: pd.DataFrame,
                                classes: pd.Series) -> pd.DataFrame:
    """Per binary dataset and classifier: the printed determinacy beside 100 − (u65 − u50)/0.15 of the printed
    utilities, and the rounding slack of that comparison (printed to two decimals)."""
    rows = []
    for classifier in CREDAL:
        for name in determinacy["name"]:
            count = classes.get(name)
            if count is None or pd.isna(count) or int(count) != 2:
                continue
            pick = lambda table: table.loc[table["name"] == name, classifier]  # noqa: E731
            values = [pick(t) for t in (determinacy, u50, u65)]
            if any(len(v) == 0 or v.isna().iloc[0] for v in values[1:]):
                continue
            det, low, high = (float(v.iloc[0]) if len(v) else np.nan for v in values)
            rows.append({"name": name, "classifier": classifier, "printed": det,
                         "implied": 100 - (high - low) / U65_GAIN_AT_HALF,
                         "slack": 2 * HALF_UNIT / U65_GAIN_AT_HALF + HALF_UNIT})
    return pd.DataFrame(rows)


def _spambase_lncc_as_printed(u50: pd.DataFrame, u65: pd.DataFrame, table12: pd.DataFrame,
                              classes: pd.Series) -> dict:
    """Altered input: Table 13's spambase LNCC (u65) set to what a determinacy of 92.28 implies."""
    altered = u65.copy()
    base = float(u50.loc[u50["name"] == "spambase", "LNCC"].iloc[0])
    altered.loc[altered["name"] == "spambase", "LNCC"] = round(base + U65_GAIN_AT_HALF * (100 - 92.28), 2)
    return {"u50": u50, "u65": altered, "table12": table12, "classes": classes}


@check("zaffalon2012.appendix-table12-spambase-lncc",
       inputs={"u50": paper_table(13), "u65": paper_table(14), "table12": paper_table(12), "classes": class_counts},
       mutate=_spambase_lncc_as_printed)
def table12_spambase_lncc(u50: pd.DataFrame, u65: pd.DataFrame, table12: pd.DataFrame, classes: pd.Series,
                          claim) -> Finding:
    """Table 12's spambase LNCC (printed 92.28, the claim's value; the transcription leaves the cell empty)
    against the binary identity determinacy = 100 − (u65 − u50)/0.15 of Tables 13-14, which the other
    binary cells of Table 12 meet within rounding."""
    identity = binary_determinacy_identity(table12, u50, u65, classes)
    others = identity.dropna(subset=["printed"])
    meet = int(((others["printed"] - others["implied"]).abs() <= others["slack"] + 1e-9).sum())
    cell = binary_determinacy_identity(table12.assign(LNCC=table12["LNCC"].where(table12["name"] != "spambase",
                                                                                   float(claim.published))),
                                       u50, u65, classes)
    cell = cell[(cell["name"] == "spambase") & (cell["classifier"] == "LNCC")].iloc[0]
    off = abs(cell["printed"] - cell["implied"]) > cell["slack"] + 1e-9
    detail = (f"Tables 13-14 imply {cell['implied']:.2f} for spambase LNCC (printed {cell['printed']:.2f}, soybean's "
              f"value above it); the identity holds within rounding on {meet} of the {len(others)} other binary cells")
    return Finding(book=round(float(cell["implied"]), 2), detail=detail, verdict="erratum" if off else "reproduced",
                   severity="misprint" if off else None)


def average_identity(u50: pd.DataFrame, u65: pd.DataFrame, u80: pd.DataFrame) -> pd.DataFrame:
    """Per dataset and classifier: the printed u65 beside (u50 + u80)/2 of the printed u50 and u80, with the
    rounding slack (two decimals)."""
    rows = []
    for classifier in CREDAL:
        for name in u65["name"]:
            values = [t.loc[t["name"] == name, classifier] for t in (u50, u65, u80)]
            if any(len(v) == 0 or v.isna().iloc[0] for v in values):
                continue
            low, mid, high = (float(v.iloc[0]) for v in values)
            rows.append({"name": name, "classifier": classifier, "u50": low, "u65": mid, "u80": high,
                         "implied": (low + high) / 2, "slack": 2 * HALF_UNIT})
    return pd.DataFrame(rows)


def _contact_lenses_consistent(u50: pd.DataFrame, u65: pd.DataFrame, u80: pd.DataFrame) -> dict:
    """Altered input: Table 18's contact-lenses NCC (u65) set to (70.01 + u80)/2, consistent with the printed u50."""
    altered = u65.copy()
    high = float(u80.loc[u80["name"] == "contact-lenses", "NCC"].iloc[0])
    altered.loc[altered["name"] == "contact-lenses", "NCC"] = round((70.01 + high) / 2, 2)
    return {"u50": u50, "u65": altered, "u80": u80}


@check("zaffalon2012.appendix-table17-contact-lenses-ncc",
       inputs={"u50": paper_table(17), "u65": paper_table(18), "u80": paper_table(19)}, mutate=_contact_lenses_consistent)
def table17_contact_lenses_ncc(u50: pd.DataFrame, u65: pd.DataFrame, u80: pd.DataFrame, claim) -> Finding:
    """Table 17's contact-lenses NCC (printed 70.01, the claim's value; the transcription leaves the cell
    empty) against u50 = 2 u65 − u80 of Tables 18-19, the identity u65 = (u50 + u80)/2 that every other
    triple of Tables 17-19 meets within rounding."""
    triples = average_identity(u50, u65, u80)
    meet = int(((triples["u65"] - triples["implied"]).abs() <= triples["slack"] + 1e-9).sum())
    mid = float(u65.loc[u65["name"] == "contact-lenses", "NCC"].iloc[0])
    high = float(u80.loc[u80["name"] == "contact-lenses", "NCC"].iloc[0])
    implied = 2 * mid - high
    off = abs(float(claim.published) - implied) > 3 * HALF_UNIT + 1e-9
    detail = (f"Tables 18-19 give u65 = {mid:.2f}, u80 = {high:.2f}, so u50 = 2 u65 − u80 = {implied:.2f} (printed "
              f"{float(claim.published):.2f}, connect-4's value above it); u65 = (u50 + u80)/2 holds within rounding "
              f"on {meet} of the {len(triples)} other triples")
    return Finding(book=round(implied, 2), detail=detail, verdict="erratum" if off else "reproduced",
                   severity="misprint" if off else None)
