import pandas as pd
import pytest

from credalbook.book import reference


@pytest.fixture
def paper_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(reference, "paper_dir", lambda: tmp_path)
    (tmp_path / "demo.csv").write_text("dataset,acc,det\n# a comment line\niris,0.95,0.9\nglass,0.70,0.6\nzoo,0.9,\n")
    (tmp_path / "demo.yml").write_text("paper: Demo et al.\ntable: Table 1\npage: 3\ntolerance: 0.01\n")
    return tmp_path


def test_compare_differences_and_verdicts(paper_dir):
    book = pd.DataFrame({"dataset": ["iris", "glass", "wine"], "acc": [0.955, 0.75, 0.8], "det": [0.9, 0.6, 0.7]})
    table = reference.compare("demo", book, on=["dataset"])
    row = table[(table.dataset == "iris") & (table.measure == "acc")].iloc[0]
    assert row.difference == pytest.approx(0.005) and row.verdict == "agrees"
    row = table[(table.dataset == "glass") & (table.measure == "acc")].iloc[0]
    assert row.difference == pytest.approx(0.05) and row.verdict == "differs"
    zoo = table[table.dataset == "zoo"].set_index("measure").verdict
    assert zoo["acc"] == "missing in book" and zoo["det"] == "missing in paper"  # the paper printed no det
    assert set(table[table.dataset == "wine"].verdict) == {"missing in paper"}
    counts = reference.verdict_counts(table)
    assert counts["agrees"] == 3 and counts["differs"] == 1
    assert list(table.dataset[:2]) == ["iris", "iris"]  # paper's row order kept


def test_per_measure_tolerance_and_cite(paper_dir):
    book = pd.DataFrame({"dataset": ["glass"], "acc": [0.75], "det": [0.6]})
    table = reference.compare("demo", book, on=["dataset"], tolerance={"acc": 0.1, "det": 0.0})
    assert set(table[table.dataset == "glass"].verdict) == {"agrees"}
    assert reference.cite("demo") == "Demo et al., Table 1, p. 3"


class TestBadInput:
    def test_unknown_table(self, paper_dir):
        with pytest.raises(FileNotFoundError, match="known: demo"):
            reference.published("nope")

    def test_missing_keys_and_measures(self, paper_dir):
        with pytest.raises(ValueError, match="key columns"):
            reference.compare("demo", pd.DataFrame({"x": [1]}), on=["dataset"])
        with pytest.raises(ValueError, match="no measure"):
            reference.compare("demo", pd.DataFrame({"dataset": ["iris"], "other": [1]}), on=["dataset"])
        with pytest.raises(ValueError, match="no tolerance"):
            reference.compare("demo", pd.DataFrame({"dataset": ["iris"], "acc": [1]}), on=["dataset"],
                              tolerance={"det": 0.1})

    def test_incomplete_source(self, paper_dir):
        (paper_dir / "bad.yml").write_text("paper: X\n")
        with pytest.raises(ValueError, match="lacks 'table'"):
            reference.published_source("bad")


def test_nullable_integer_columns(paper_dir):
    book = pd.DataFrame({"dataset": ["iris", "glass"], "acc": pd.array([1, pd.NA], dtype="Int64"),
                         "det": [0.9, 0.6]})
    table = reference.compare("demo", book, on=["dataset"], tolerance=0.2)
    glass = table[table.dataset == "glass"].set_index("measure").verdict
    assert glass["acc"] == "missing in book" and glass["det"] == "agrees"
