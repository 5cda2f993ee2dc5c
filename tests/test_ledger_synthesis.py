"""The book's own claims (Part VII, ``credalbook.book.ledger.synthesis``): each holds on the stored run, fails on a
deliberately altered stored result, and reads its threshold from its claim record."""
from __future__ import annotations

import dataclasses

import pytest

from credalbook.book import ledger
from credalbook.book.ledger import core

ledger.discover()
CLAIMS = {c.id: c for c in ledger.claims() if c.paper == "credalbook"}


@pytest.fixture(scope="module")
def stored():
    return core.stored("synthesis_benchmark")()


def _verdict(claim_id: str, results=None, claim=None) -> str:
    claim = claim or CLAIMS[claim_id]
    item = core.CHECKS[claim.check]
    inputs = core.load_inputs(item)
    if results is not None:
        inputs["results"] = results
    return core.evaluate_claim(claim, inputs)["verdict"]


def _with(results, **columns):
    altered = results.copy()
    for name, values in columns.items():
        altered[name] = values
    return altered


def test_every_measured_finding_declares_a_numeric_threshold_and_how_it_was_chosen():
    measured = [c for c in CLAIMS.values() if c.kind == "bound"]
    assert len(measured) >= 7
    for claim in measured:
        assert isinstance(claim.published, (int, float)) and not isinstance(claim.published, bool), claim.id
        assert "Threshold" in claim.note, f"{claim.id}: the note must say how the threshold was chosen"


ALTERED = {
    # one classifier's stored cost swapped with another's on one fold: no longer 1 − u75
    "credalbook.p-discounted-is-u75": lambda r: _with(r, p_discounted_cost=r["p_discounted_cost"].where(
        r.index != r.index[0], r["p_discounted_cost"].iloc[1] + 1)),
    # discounted accuracy reversed: its best classifiers become its worst, so none is near the top everywhere
    "credalbook.scoring-lenses-share-a-top": lambda r: _with(r, discounted_accuracy=r["n"] - r["discounted_accuracy"]),
    # coverage replaced by u65, which agrees with discounted accuracy
    "credalbook.discounted-accuracy-opposes-coverage": lambda r: _with(r, coverage=r["u65"]),
    "credalbook.determinacy-opposes-coverage": lambda r: _with(r, coverage=r["discounted_accuracy"]),
    "credalbook.significant-genuine-flips": lambda r: _with(r, coverage=r["u65"]),
    # coverage replaced by u80: u_v reaches it at v = 0.8, so tau rises on every panel (the stored run fails this
    # claim since the benchmark was re-made with leak-free conformal sets kept empty: the altered run holds it)
    "credalbook.risk-aversion-moves-toward-coverage": lambda r: _with(r, coverage=r["u80"]),
    # NCC's singletons never hold the truth: its two-class sets then do better
    "credalbook.ncc-two-class-sets-no-better": lambda r: _with(r, covered_size1=r["covered_size1"].where(
        r["classifier"] != "NCC", 0)),
}


#: the own claims the stored run does not hold (each with its referee reading in data/paper/referees/credalbook.yml)
FAILING_ON_THE_STORED_RUN = {"credalbook.risk-aversion-moves-toward-coverage"}


@pytest.mark.parametrize("claim_id", sorted(ALTERED))
def test_each_finding_holds_on_the_stored_run_and_fails_on_an_altered_one(claim_id, stored):
    holds, fails = "reproduced", "not reproduced"
    if claim_id in FAILING_ON_THE_STORED_RUN:
        holds, fails = fails, holds
    assert _verdict(claim_id) == holds
    assert _verdict(claim_id, ALTERED[claim_id](stored)) == fails


# a threshold on the other side of the stored value: the verdict must follow the record, not the code
THRESHOLDS = {
    "credalbook.p-discounted-is-u75": 1e-17,
    "credalbook.scoring-lenses-share-a-top": 3,
    "credalbook.discounted-accuracy-opposes-coverage": -0.5,
    "credalbook.determinacy-opposes-coverage": -0.5,
    "credalbook.significant-genuine-flips": 50,
    "credalbook.risk-aversion-moves-toward-coverage": 0.5,
    "credalbook.ncc-two-class-sets-no-better": -0.1,
}


@pytest.mark.parametrize("claim_id", sorted(THRESHOLDS))
def test_the_threshold_comes_from_the_claim_record(claim_id):
    moved = dataclasses.replace(CLAIMS[claim_id], published=THRESHOLDS[claim_id])
    assert _verdict(claim_id, claim=moved) == "not reproduced"


def test_cma_claim_under_an_altered_run_and_threshold(stored):
    claim_id = "credalbook.cma-best-by-utility-not-by-rank"
    assert _verdict(claim_id) == "reproduced"
    lncc = stored["classifier"] == "LNCC"
    cma = stored["classifier"] == "CMA"
    altered = stored.copy()
    for column in ("n", "u65", "u80"):  # CMA given LNCC's predictions: no longer the best by mean utility
        altered.loc[cma, column] = altered.loc[lncc, column].to_numpy()
    assert _verdict(claim_id, altered) == "not reproduced"
    assert _verdict(claim_id, claim=dataclasses.replace(CLAIMS[claim_id], published=0.99)) == "not reproduced"


def test_a_threshold_must_be_a_number():
    claim = dataclasses.replace(CLAIMS["credalbook.significant-genuine-flips"], published=True)
    with pytest.raises(ValueError, match="threshold"):
        _verdict(claim.id, claim=claim)
