"""The verdict policy: one threshold per quantifier, noise, single runs, errata severities, and the re-judgment."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from credalbook.book.ledger import core, policy


class TestQuantifiers:
    def test_thresholds_grow_with_the_strength_of_the_word(self):
        thresholds = [q.threshold for q in policy.QUANTIFIERS.values()]
        assert thresholds == sorted(thresholds) and thresholds[-1] == 1.0
        assert policy.QUANTIFIERS["most"].holds(0.51) and not policy.QUANTIFIERS["most"].holds(0.5)
        assert policy.QUANTIFIERS["generally"].holds(0.75) and not policy.QUANTIFIERS["generally"].holds(0.74)

    def test_one_threshold_per_word_whatever_the_paper(self):
        assert policy.share_threshold("generally") == policy.share_threshold("in general") == 0.75
        assert policy.share_threshold("mostly") == policy.share_threshold("most model types") == 0.5
        assert policy.share_threshold("consistently") == policy.share_threshold("almost all situations") == 0.9
        assert policy.share_threshold("constantly") == 1.0
        assert set(policy.WORDS.values()) <= set(policy.QUANTIFIERS)

    def test_an_unknown_word_is_refused(self):
        with pytest.raises(ValueError, match="in no quantifier"):
            policy.quantifier_of("hardly ever")

    def test_every_quantifier_argues_from_the_papers(self):
        for quantifier in policy.QUANTIFIERS.values():
            assert "(20" in quantifier.argument or "'" in quantifier.argument
        assert policy.QUANTIFIERS["most"].rule == "more than 50 %"
        assert policy.QUANTIFIERS["always"].rule == "all"

    @pytest.mark.parametrize("share,word,negated,verdict", [
        (0.8, "generally", False, "reproduced"), (0.7, "generally", False, "partly"),
        (0.4, "generally", False, "not reproduced"), (0.5, "most", False, "partly"), (0.6, "most", False, "reproduced"),
        (0.05, "almost never", True, "reproduced"), (0.3, "almost never", True, "partly"),
        (0.6, "almost never", True, "not reproduced"), (0.35, "often", False, "reproduced")])
    def test_share_verdicts(self, share, word, negated, verdict):
        assert policy.share_verdict(share, word, negated) == verdict

    def test_no_claim_states_its_own_threshold(self):
        """Every quantified claim reads its threshold from the policy (the loader refuses a stated share)."""
        quantified = [c for c in core.claims() if isinstance(c.tolerance, dict) and "word" in c.tolerance]
        assert quantified
        for claim in quantified:
            assert claim.tolerance["share"] == policy.share_threshold(claim.tolerance["word"]), claim.id

    def test_rankings_and_partly(self):
        assert policy.ranking_verdict(["a", "b", "c"], ["a", "c", "b"]) == "partly"
        assert policy.ranking_verdict(["a", "b"], ["b", "a"]) == "not reproduced"
        assert "at least half" in policy.PARTLY


class TestNoise:
    def test_standard_error_and_spread(self):
        runs = np.array([[1.0, 2.0], [3.0, 2.0], [5.0, 2.0]])
        assert policy.run_spread(runs) == pytest.approx([2.0, 0.0])
        assert policy.standard_error(runs) == pytest.approx([2.0 / np.sqrt(3), 0.0])
        with pytest.raises(ValueError, match="at least two"):
            policy.run_spread(runs[:1])

    def test_within_and_beyond_noise(self):
        assert policy.within_noise(0.004, 0.004) and policy.within_noise(-0.008, 0.004)
        assert policy.beyond_noise(0.0081, 0.004)
        assert policy.within_noise(np.array([0.0, 1.0]), np.array([0.0, 0.1])).tolist() == [True, False]
        with pytest.raises(ValueError, match="cannot be negative"):
            policy.within_noise(0.1, -1.0)

    def test_an_association_seen_must_stand_beyond_the_noise_of_no_association(self):
        # over 10 items the noise is 1/3, so 'seen' asks for rho above 2/3; over 26, 1/5 and 0.4
        assert policy.rank_correlation_noise(10) == pytest.approx(1 / 3)
        assert policy.association_seen(0.67, 10) and not policy.association_seen(0.66, 10)
        assert policy.association_seen(0.41, 26) and not policy.association_seen(0.39, 26)
        assert not policy.association_seen(-0.9, 26)
        for bad in (2, 10.5):
            with pytest.raises(ValueError, match="n must be an integer of at least 3"):
                policy.rank_correlation_noise(bad)

    def test_a_single_run_number_is_judged_against_the_spread(self):
        runs = [0.30, 0.32, 0.34, 0.36]  # mean 0.33, sd 0.0258
        assert policy.spread_verdict(0.33, runs, precision=0.005) == "reproduced"
        assert policy.spread_verdict(0.37, runs) == "within tolerance"
        assert policy.spread_verdict(0.40, runs) == "not reproduced"
        assert policy.spread_verdict(0.40, [0.3]) == "not checkable"


class TestErrata:
    def test_severities(self):
        assert policy.check_severity("misprint") == "misprint"
        assert policy.DEFAULT_SEVERITY in policy.SEVERITIES
        with pytest.raises(ValueError, match="severity must be one of"):
            policy.check_severity("typo")

    def test_a_tolerance_that_passes_the_cell_voids_the_erratum(self):
        assert policy.erratum_within_tolerance(0.076, 0.1)
        assert not policy.erratum_within_tolerance(0.2, 0.1) and not policy.erratum_within_tolerance(np.nan, 0.1)

    def test_negative_verdicts(self):
        assert policy.is_negative("partly") and not policy.is_negative("within tolerance")
        assert policy.is_negative(["erratum", "reproduced"]).tolist() == [True, False]

    def test_the_rules_cover_the_policy(self):
        titles = [title for title, _ in policy.RULES]
        assert titles == ["Quantifiers", "Noise", "Single runs", "Protocol", "Errata", "Partly", "Findings"]
        assert "Weka-IP" in policy.PAPER_PROTOCOL["zaffalon2012_benchmark"][0]
        assert "Weka" in policy.PAPER_PROTOCOL["ferri2019_thresholds"][0]


def _row(identifier, verdict, paper="yang2017", **more):
    return {**{c: "" for c in core.COLUMNS}, "id": identifier, "paper": paper, "entry": "claim", "verdict": verdict,
            **more}


class TestRejudgment:
    BEFORE = pd.DataFrame([_row("yang2017.fig3-r0-increasing", "not reproduced"),
                           _row("aguilar2025.tree-mean-divergence", "erratum", "aguilar2025"),
                           _row("zaffalon2012.bench-nemenyi-cma-cdt", "not reproduced", "zaffalon2012"),
                           _row("ferri2019.often", "partly", "ferri2019", tolerance="'often': ≥ 67% of cases"),
                           _row("yang2017.same", "reproduced"),
                           _row("zaffalon2012_bench_table12[name=glass; CDT]", "not reproduced", "zaffalon2012",
                                book="75.0"),
                           _row("zaffalon2012_bench_table12[name=glass; NCC]", "not reproduced", "zaffalon2012",
                                book="80.0", evidence="table12 (stored result zaffalon2012_benchmark)"),
                           _row("zaffalon2012_bench_table13[name=glass; NCC]", "not reproduced", "zaffalon2012",
                                book="60.0", evidence="table13 (stored result zaffalon2012_benchmark)"),
                           _row("ferri2019_table7[model=J48; BS]", "not reproduced", "ferri2019",
                                evidence="table7 (stored result ferri2019_thresholds)")])
    AFTER = pd.DataFrame([_row("yang2017.fig3-r0-increasing", "reproduced"),
                          _row("aguilar2025.tree-mean-divergence", "within tolerance", "aguilar2025"),
                          _row("zaffalon2012.bench-nemenyi-cma-cdt", "reproduced", "zaffalon2012"),
                          _row("ferri2019.often", "reproduced", "ferri2019",
                               tolerance="'often' (often): at least 33 % of cases"),
                          _row("yang2017.same", "reproduced"),
                          _row("zaffalon2012_bench_table12[name=glass; CDT]", "within tolerance", "zaffalon2012",
                               book="84.0"),
                          _row("zaffalon2012_bench_table12[name=glass; NCC]", "within tolerance", "zaffalon2012",
                               book="90.0", evidence="table12 (stored result zaffalon2012_benchmark)"),
                          _row("zaffalon2012_bench_table13[name=glass; NCC]", "within tolerance", "zaffalon2012",
                               book="60.0", evidence="table13 (stored result zaffalon2012_benchmark)"),
                          _row("ferri2019_table7[model=J48; BS]", "within tolerance", "ferri2019",
                               evidence="table7 (stored result ferri2019_thresholds_weka)"),
                          _row("zaffalon2011.exp-d-sign", "erratum", "zaffalon2011", finding="zaffalon2012.exp-d-sign",
                               severity="error of substance")])

    def test_every_change_has_its_rule(self):
        changes = policy.verdict_changes(self.BEFORE, self.AFTER, remade=["zaffalon2012_benchmark"]).set_index("id")
        assert "yang2017.same" not in changes.index
        assert changes["rule"].to_dict() == {"yang2017.fig3-r0-increasing": "noise",
                                             "aguilar2025.tree-mean-divergence": "errata",
                                             "zaffalon2012.bench-nemenyi-cma-cdt": "protocol",
                                             "ferri2019.often": "quantifier",
                                             "zaffalon2012_bench_table12[name=glass; CDT]": "protocol",
                                             "zaffalon2012_bench_table12[name=glass; NCC]": "re-made runs",
                                             "zaffalon2012_bench_table13[name=glass; NCC]": "other",
                                             "ferri2019_table7[model=J48; BS]": "protocol",
                                             "zaffalon2011.exp-d-sign": "new entry"}
        assert "from 80.0 to 90.0" in changes.loc["zaffalon2012_bench_table12[name=glass; NCC]", "reason"]
        unmade = policy.verdict_changes(self.BEFORE, self.AFTER).set_index("id")
        assert unmade.loc["zaffalon2012_bench_table12[name=glass; NCC]", "rule"] == "other"
        assert changes.loc["zaffalon2011.exp-d-sign", "before"] == ""
        assert "67%" in changes.loc["ferri2019.often", "reason"]

    def test_counts_before_and_after(self):
        counts = policy.change_counts(self.BEFORE, self.AFTER).set_index("paper")
        assert counts.loc["all", "entries before"] == 8 and counts.loc["all", "entries after"] == 1
        assert counts.loc["zaffalon2011", "findings after"] == 1 and counts.loc["yang2017", "entries after"] == 0
        assert counts.loc["aguilar2025", "errata entries before"] == 1
        assert counts.loc["aguilar2025", "errata entries after"] == 0
