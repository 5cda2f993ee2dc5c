"""Ledger entries of Ferri, Hernández-Orallo & Flach (2019): the threshold study of Sect. 6 (Part VI).

Book frames of the published tables and the checks of the paper's claims, computed from the
stored result ``ferri2019_thresholds`` (see :mod:`credalbook.experiments.thresholds`).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from credalbook.experiments import thresholds as th
from credalbook.ledger.core import Finding, book_table, check, stored

RESULTS = stored("ferri2019_thresholds")
STUDY = "chapters/thresholds/study"
BASELINES = ("Prior", "Random")
REALISTIC = ("train-optimal", "score-driven", "rate-driven")


@book_table("ferri2019_table7", on=["model"], part="VI", chapter=STUDY, inputs={"results": RESULTS})
def table7(results: pd.DataFrame) -> pd.DataFrame:
    """Table 7: means by model type over datasets and splits at γ = ∞."""
    return th.by_model(results)


def _share_rate_driven_worst(results: pd.DataFrame) -> float:
    certain = results[(results["gamma"] == np.inf) & ~results["model"].isin(BASELINES)]
    worst = certain[list(REALISTIC)].max(axis=1)
    return float(np.mean(certain["rate-driven"] >= worst - 1e-12))


def _rate_driven_better(results: pd.DataFrame) -> dict:
    """Altered input: rate-driven's losses halved, so that it is rarely the worst."""
    return {"results": results.assign(**{"rate-driven": results["rate-driven"] / 2})}


@check("ferri2019.rate-driven-worst", inputs={"results": RESULTS}, mutate=_rate_driven_better)
def rate_driven_worst(results: pd.DataFrame) -> Finding:
    """Share of non-baseline runs at γ = ∞ where rate-driven has the largest loss of the realistic methods."""
    share = _share_rate_driven_worst(results)
    return Finding(book=share, detail=f"rate-driven is the worst realistic method in {share:.0%} of the "
                                      "non-baseline runs at γ = ∞")
