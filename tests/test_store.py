"""credalbook.book.experiments.store: saving results, provenance, and the ci-vs-stored check."""
from __future__ import annotations

import json
import re
import subprocess

import numpy as np
import pandas as pd
import pytest

from credalbook.book.experiments import store
from credalbook.book.experiments.store import (assert_matches_stored, describe_run, load_results, provenance,
                                          results_path, save_results)


@pytest.fixture
def results(tmp_path, monkeypatch):
    """An empty results folder in place of data/results."""
    folder = tmp_path / "results"
    monkeypatch.setattr(store, "results_dir", lambda: folder)
    return folder


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"dataset": ["iris", "iris", "glass"], "fold": [0, 1, 0],
                         "accuracy": [0.9333333333333333, 0.96, 0.5046728971962616], "note": ["a", "b", "c"]})


def test_save_and_load_round_trip(results):
    frame = _frame()
    path = save_results(frame, "demo", profile="full", runtime_seconds=12.345)
    assert path == results / "demo.csv" == results_path("demo")
    loaded = load_results("demo")
    pd.testing.assert_frame_equal(loaded[["dataset", "fold", "note"]], frame[["dataset", "fold", "note"]])
    np.testing.assert_allclose(loaded["accuracy"], frame["accuracy"], rtol=1e-9)


def test_provenance_keeps_the_versions_of_programs_outside_python(results):
    save_results(_frame(), "demo", profile="ci", runtime_seconds=1.0, software={"weka": "3.9.7", "java": 25})
    assert provenance("demo")["software"] == {"weka": "3.9.7", "java": "25"}
    save_results(_frame(), "plain", profile="ci", runtime_seconds=1.0)
    assert "software" not in provenance("plain")


def test_provenance_record(results):
    save_results(_frame(), "demo", profile="ci", runtime_seconds=12.345)
    meta = provenance("demo")
    assert meta["name"] == "demo" and meta["profile"] == "ci" and meta["rows"] == 3
    assert meta["runtime_seconds"] == 12.3
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", meta["date"])
    assert meta["numpy"] == np.__version__ and meta["pandas"] == pd.__version__
    assert meta["commit"] == "unknown"  # the temporary folder is no git checkout
    assert json.loads((results / "demo.provenance.json").read_text()) == meta


def _git(cwd, *args):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin"})


def _checkout(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    (repo / "credalbook").mkdir(parents=True)
    (repo / "credalbook" / "m.py").write_text("x = 1\n")
    folder = repo / "data" / "results"
    folder.mkdir(parents=True)
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "init")
    monkeypatch.setattr(store, "results_dir", lambda: folder)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=repo, capture_output=True, text=True).stdout
    return repo, head.strip()


def test_provenance_names_the_commit(tmp_path, monkeypatch):
    _, head = _checkout(tmp_path, monkeypatch)
    save_results(_frame(), "demo", profile="full", runtime_seconds=1.0)
    assert provenance("demo")["commit"] == head


def test_full_results_are_refused_from_a_dirty_tree_unless_allowed(tmp_path, monkeypatch):
    repo, head = _checkout(tmp_path, monkeypatch)
    (repo / "credalbook" / "m.py").write_text("x = 2\n")
    (repo / "credalbook" / "new.py").write_text("y = 1\n")
    with pytest.raises(store.DirtyTreeError, match=r"uncommitted changes to credalbook/m.py, credalbook/new.py.*"
                                                   r"--allow-dirty"):
        save_results(_frame(), "demo", profile="full", runtime_seconds=1.0)
    assert not results_path("demo").exists()
    save_results(_frame(), "demo", profile="full", runtime_seconds=1.0, allow_dirty=True)
    meta = provenance("demo")
    assert meta["commit"] == head + "+dirty" and meta["uncommitted"] == ["credalbook/m.py", "credalbook/new.py"]
    save_results(_frame(), "demo_ci", profile="ci", runtime_seconds=1.0)  # a ci run is no stored reproduction
    assert provenance("demo_ci")["commit"] == head + "+dirty"


def test_results_and_chapters_do_not_make_the_tree_dirty(tmp_path, monkeypatch):
    repo, head = _checkout(tmp_path, monkeypatch)
    (repo / "chapters").mkdir()
    (repo / "chapters" / "page.md").write_text("# draft\n")
    save_results(_frame(), "first", profile="full", runtime_seconds=1.0)
    save_results(_frame(), "second", profile="full", runtime_seconds=1.0, cache=(10, 4))
    assert provenance("second")["commit"] == head and "uncommitted" not in provenance("second")
    assert (provenance("second")["grid_cells"], provenance("second")["cached_cells"]) == (10, 4)


def test_assert_matches_stored_accepts_a_recomputed_subset(results):
    save_results(_frame(), "demo", profile="full", runtime_seconds=1.0)
    subset = _frame().iloc[[2, 0]].reset_index(drop=True)
    joined = assert_matches_stored(subset, "demo", keys=["dataset", "fold"], values=["accuracy"])
    assert joined["dataset"].tolist() == ["glass", "iris"]
    assert set(joined.columns) == {"dataset", "fold", "accuracy_recomputed", "accuracy_stored"}


def test_assert_matches_stored_tolerances_and_nan(results):
    frame = _frame().assign(accuracy=[0.5, np.nan, 0.25])
    save_results(frame, "demo", profile="full", runtime_seconds=1.0)
    assert_matches_stored(frame, "demo", keys=["dataset", "fold"], values=["accuracy"])  # NaN matches NaN
    nudged = frame.assign(accuracy=frame["accuracy"] + 1e-7)
    with pytest.raises(AssertionError, match=r"2 rows of 'demo' differ in 'accuracy'"):
        assert_matches_stored(nudged, "demo", keys=["dataset", "fold"], values=["accuracy"])
    assert_matches_stored(nudged, "demo", keys=["dataset", "fold"], values=["accuracy"], atol=1e-6)
    assert_matches_stored(nudged, "demo", keys=["dataset", "fold"], values=["accuracy"], atol=0, rtol=1e-6)


def test_assert_matches_stored_names_the_differing_rows(results):
    save_results(_frame(), "demo", profile="full", runtime_seconds=1.0)
    changed = _frame()
    changed.loc[1, "accuracy"] = 0.5
    with pytest.raises(AssertionError) as error:
        assert_matches_stored(changed, "demo", keys=["dataset", "fold"], values=["accuracy"])
    message = str(error.value)
    assert "1 rows of 'demo' differ in 'accuracy'" in message and "0.96" in message and "0.5" in message


def test_assert_matches_stored_rejects_rows_absent_from_the_store(results):
    save_results(_frame(), "demo", profile="full", runtime_seconds=1.0)
    extra = pd.concat([_frame(), pd.DataFrame({"dataset": ["zoo"], "fold": [0], "accuracy": [1.0], "note": ["d"]})])
    with pytest.raises(AssertionError, match=r"1 recomputed rows of 'demo' are not in the stored table.*zoo"):
        assert_matches_stored(extra, "demo", keys=["dataset", "fold"], values=["accuracy"])


def test_exact_recomputation_of_large_values_matches_stored(results):
    frame = pd.DataFrame({"key": [0, 1], "percent": [85.12345678901234, 123.45678901234567]})
    save_results(frame, "demo", profile="full", runtime_seconds=1.0)
    assert_matches_stored(frame, "demo", keys=["key"], values=["percent"])


def test_describe_run_mentions_profile_and_stored_runs(results):
    save_results(_frame(), "demo", profile="full", runtime_seconds=42.0)
    text = describe_run("ci", ["demo", "absent"])
    assert "in the **ci** profile" in text
    assert "Stored results `demo`: profile **full**" in text and "in 42 s (3 rows)" in text
    assert "No stored results for `absent` yet." in text
    assert "note" not in provenance("demo")
    save_results(_frame(), "demo", profile="full", runtime_seconds=42.0, note="Resumed from a cache.")
    assert provenance("demo")["note"] == "Resumed from a cache."
    assert describe_run("ci", ["demo"]).endswith("in 42 s (3 rows). Resumed from a cache.")


class TestBadInput:
    @pytest.mark.parametrize("frame", [pd.DataFrame(), pd.DataFrame({"a": []}), [1, 2], None])
    def test_save_rejects_empty_or_non_frames(self, results, frame):
        with pytest.raises(ValueError, match="experiment 'demo' returned no rows"):
            save_results(frame, "demo", profile="full", runtime_seconds=1.0)
        assert not results_path("demo").exists()

    def test_missing_results(self, results):
        with pytest.raises(FileNotFoundError, match=r"no stored results for 'nothing'.*make reproduce"):
            load_results("nothing")
        with pytest.raises(FileNotFoundError, match=r"no stored results for 'nothing'.*make reproduce"):
            provenance("nothing")
        with pytest.raises(FileNotFoundError, match="no stored results for 'nothing'"):
            assert_matches_stored(_frame(), "nothing", keys=["dataset"], values=["accuracy"])

    def test_unknown_columns(self, results):
        save_results(_frame(), "demo", profile="full", runtime_seconds=1.0)
        with pytest.raises(ValueError, match=r"columns \['loss'\] missing from the stored or recomputed table"):
            assert_matches_stored(_frame(), "demo", keys=["dataset", "fold"], values=["loss"])


def _cube(x: int) -> dict:
    return {"value": x ** 3}


def _demo_experiment(tmp_path):
    from credalbook.book.experiments import registry

    return registry.Experiment(name="demo_grid", description="three cubes", task=_cube,
                               grid=lambda: [{"x": x} for x in range(3)], ci=lambda config: config["x"] < 2,
                               keys=("x",), options={"backend": "sequential", "cache_dir": str(tmp_path / "cache")})


def test_reproduce_notes_cache_hits_in_the_provenance(results, tmp_path, monkeypatch):
    from credalbook.book.experiments import registry

    monkeypatch.setitem(registry.EXPERIMENTS, "demo_grid", _demo_experiment(tmp_path))
    first = registry.run_experiment("demo_grid", profile="full")
    assert first["value"].tolist() == [0, 1, 8] and "note" not in provenance("demo_grid")
    registry.run_experiment("demo_grid", profile="full")
    assert provenance("demo_grid")["note"].startswith("3 of 3 grid cells were read from the cache")
    assert (provenance("demo_grid")["grid_cells"], provenance("demo_grid")["cached_cells"]) == (3, 3)


def test_results_recompute_the_ci_filter_and_check_it_against_the_stored_rows(results, tmp_path):
    experiment = _demo_experiment(tmp_path)
    with pytest.raises(FileNotFoundError, match="no stored results for 'demo_grid'"):
        experiment.results("ci")
    experiment.reproduce()
    assert experiment.results("ci")["value"].tolist() == [0, 1, 8]  # the stored full rows
    assert "recomputed 2 rows (2 of the 3 configurations)" in experiment.describe("ci")
    assert experiment.results("full")["x"].tolist() == [0, 1, 2]
    save_results(pd.DataFrame({"x": [0, 1, 2], "value": [0, 2, 8]}), "demo_grid", profile="full", runtime_seconds=1)
    with pytest.raises(AssertionError, match=r"1 rows of 'demo_grid' differ in 'value'"):
        experiment.results("ci")
    with pytest.raises(ValueError, match="profile must be one of"):
        experiment.results("huge")


_CALLS: list[int] = []


def _counted_cube(x: int) -> dict:
    _CALLS.append(x)
    return {"value": x ** 3}


def test_pages_of_one_build_share_the_ci_check(results, tmp_path, monkeypatch):
    from dataclasses import replace

    from credalbook.book.experiments import registry

    experiment = replace(_demo_experiment(tmp_path), task=_counted_cube)
    experiment.reproduce()
    monkeypatch.setenv(registry.SHARED_CHECKS, str(tmp_path / "checks"))
    _CALLS.clear()
    first_page = replace(experiment, _checked={})
    assert first_page.results("ci")["value"].tolist() == [0, 1, 8] and _CALLS == [0, 1]
    assert "This page ran in the **ci** profile: it recomputed 2 rows" in first_page.describe("ci")
    second_page = replace(experiment, _checked={})  # another page, another kernel: reads the record
    assert second_page.results("ci")["value"].tolist() == [0, 1, 8] and _CALLS == [0, 1]
    assert ("this build recomputed 2 rows (2 of the 3 configurations) once for all the pages that read this run"
            in second_page.describe("ci"))
    # the record names the stored rows it checked: new rows are checked again, and a failed check leaves no record
    save_results(pd.DataFrame({"x": [0, 1, 2], "value": [0, 2, 8]}), "demo_grid", profile="full", runtime_seconds=1)
    for _ in range(2):
        with pytest.raises(AssertionError, match=r"1 rows of 'demo_grid' differ in 'value'"):
            replace(experiment, _checked={}).results("ci")
    assert _CALLS == [0, 1] * 3
    # without a build's folder every call checks
    monkeypatch.delenv(registry.SHARED_CHECKS)
    experiment.reproduce()
    _CALLS.clear()
    for _ in range(2):
        replace(experiment, _checked={}).results("ci")
    assert _CALLS == [0, 1, 0, 1]


def test_a_ci_filter_that_keeps_nothing_is_refused(tmp_path):
    from dataclasses import replace

    with pytest.raises(ValueError, match="its ci filter keeps no configuration"):
        replace(_demo_experiment(tmp_path), ci=lambda config: False).configs("ci")


def test_every_stored_result_comes_from_a_committed_tree_and_says_when_it_resumed():
    from credalbook.book.build import repo_root

    records = sorted((repo_root() / "data" / "results").glob("*.provenance.json"))
    assert records
    for path in records:
        meta = json.loads(path.read_text())
        assert not meta["commit"].endswith("+dirty") and "uncommitted" not in meta, path.name
        # the papers' scale, or timings of the hot paths (make bench), which only the performance tables hold
        assert meta["profile"] == ("bench" if meta["name"].startswith("performance_") else "full"), path.name
        resumed = meta.get("cached_cells", 0) > 0 or "resum" in meta.get("note", "")
        if resumed:
            assert "cache" in meta.get("note", ""), f"{path.name}: a resumed run must say so in its note"


def test_assert_matches_stored_compares_text_columns_exactly(results):
    save_results(_frame(), "demo", profile="full", runtime_seconds=1.0)
    assert_matches_stored(_frame(), "demo", keys=["dataset", "fold"], values=["note", "accuracy"])
    changed = _frame().assign(note=["a", "x", "c"])
    with pytest.raises(AssertionError, match=r"1 rows of 'demo' differ in 'note'"):
        assert_matches_stored(changed, "demo", keys=["dataset", "fold"], values=["note"])


def test_the_ci_check_recomputes_rather_than_reads_the_cache(results, tmp_path):
    from credalbook.book.experiments.grid import cache_tally

    experiment = _demo_experiment(tmp_path)
    experiment.reproduce()          # fills the cache with every configuration
    with cache_tally() as tally:
        experiment.results("ci")
    assert (tally.cells, tally.cached) == (2, 0)


def test_profiles_are_declared_once():
    """The CLI's choices, the chapters' parameter check and the build read registry.PROFILES."""
    from credalbook.book import build as book
    from credalbook.cli import build_parser
    from credalbook.book.experiments.registry import PROFILES

    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices
    for command in ("run", "build", "reproduce"):
        (action,) = [a for a in commands[command]._actions if a.dest == "profile"]
        assert tuple(action.choices) == PROFILES
    assert book.PROFILES is PROFILES


def test_no_chapter_hand_writes_the_ci_check():
    """Chapters read experiments through Experiment.results/describe, never through the store's internals."""
    from credalbook.book.build import repo_root

    pages = sorted((repo_root() / "chapters").rglob("*.md"))
    offenders = [p.relative_to(repo_root()).as_posix() for p in pages
                 if "assert_matches_stored" in p.read_text() or "load_results(" in p.read_text()]
    assert pages and not offenders


def test_a_whole_reproduction_is_recorded_as_one_run(results):
    save_results(_frame(), "first", profile="ci", runtime_seconds=10.0, cache=(3, 0))
    save_results(_frame(), "second", profile="ci", runtime_seconds=20.0, cache=(3, 1))
    path = store.save_reproduction(["first", "second"], 31.26, backend="loky")
    assert path == results / "reproduce_run.json"
    record = store.reproduction()
    assert record["wall_seconds"] == 31.3 and record["backend"] == "loky" and record["cached_cells"] == 1
    assert [record["experiments"][n]["runtime_seconds"] for n in ("first", "second")] == [10.0, 20.0]
    assert record["commit"] == provenance("first")["commit"]


@pytest.mark.parametrize("names,seconds,message", [
    ([], 1.0, "names must list the experiments"),
    (["first"], 0.0, "wall_seconds must be a positive number, got 0.0"),
    (["first"], float("nan"), "wall_seconds must be a positive number"),
    (["absent"], 1.0, "absent"),
])
def test_a_reproduction_record_rejects_bad_input(results, names, seconds, message):
    save_results(_frame(), "first", profile="ci", runtime_seconds=1.0)
    with pytest.raises((ValueError, FileNotFoundError), match=message):
        store.save_reproduction(names, seconds, backend="loky")


def test_no_reproduction_record_is_named(results):
    with pytest.raises(FileNotFoundError, match="make reproduce"):
        store.reproduction()


def test_changes_from_stored_counts_changed_added_and_removed_rows(results):
    save_results(_frame(), "demo", profile="ci", runtime_seconds=1.0)
    new = _frame()
    new.loc[0, "accuracy"] += 1e-6            # beyond atol
    new.loc[1, "accuracy"] += 1e-12           # within
    new.loc[2, "note"] = "changed"
    new = pd.concat([new.iloc[[0, 2]], pd.DataFrame({"dataset": ["wine"], "fold": [0], "accuracy": [0.5],
                                                     "note": ["d"]})], ignore_index=True)  # iris fold 1 removed
    changes = store.changes_from_stored(new, "demo", keys=["dataset", "fold"], values=["accuracy", "note"])
    assert changes["previous_commit"] == provenance("demo")["commit"]
    assert (changes["rows_added"], changes["rows_removed"], changes["changed_rows"]) == (1, 1, 2)
    assert changes["changed_by_column"] == {"accuracy": 1, "note": 1}
    same = store.changes_from_stored(_frame(), "demo", keys=["dataset", "fold"], values=["accuracy", "note"])
    assert (same["changed_rows"], same["rows_added"], same["rows_removed"], same["changed_by_column"]) == (0, 0, 0, {})
    with pytest.raises(ValueError, match=r"keys \['dataset'\] do not identify the rows of 'demo'"):
        store.changes_from_stored(_frame(), "demo", keys=["dataset"], values=["accuracy"])
    with pytest.raises(ValueError, match=r"columns \['missing'\] missing"):
        store.changes_from_stored(_frame(), "demo", keys=["dataset", "fold"], values=["missing"])


def test_a_reproduction_records_what_it_changed_from_the_previous_store(results, monkeypatch):
    from credalbook.book.experiments.registry import Experiment

    experiment = Experiment(name="demo", description="", task=lambda **c: None, grid=lambda: [], ci=lambda c: True,
                            keys=("dataset", "fold"), values=("accuracy",))
    monkeypatch.setattr(Experiment, "run", lambda self, profile, **options: _frame().assign(accuracy=0.5))
    experiment.reproduce(allow_dirty=True)
    assert "changes_from_previous" not in provenance("demo")      # nothing stored before
    monkeypatch.setattr(Experiment, "run", lambda self, profile, **options: _frame())
    experiment.reproduce(allow_dirty=True)
    assert provenance("demo")["changes_from_previous"]["changed_by_column"] == {"accuracy": 3}


# ----------------------------------------------------------------------------------------------
# Containment: a result name is a file name inside data/results, nothing else
# ----------------------------------------------------------------------------------------------

ESCAPES = ["../../escape", "../outside", "..", "a/b", "/" + "abs/path", "a\\b", ".hidden", "", "x..y", " demo", 3, None]


@pytest.mark.parametrize("name", ESCAPES)
def test_a_result_name_that_leaves_the_results_folder_is_refused(results, name):
    with pytest.raises(ValueError, match=r"name must be a result name"):
        results_path(name)
    with pytest.raises(ValueError, match=r"name must be a result name"):
        save_results(_frame(), name, profile="ci", runtime_seconds=1.0)
    with pytest.raises(ValueError, match=r"name must be a result name"):
        load_results(name)
    with pytest.raises(ValueError, match=r"name must be a result name"):
        provenance(name)
    assert not results.exists() or not any(results.parent.rglob("*.csv"))


def test_a_symbolic_link_planted_under_a_result_name_is_refused(results, tmp_path):
    results.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (results / "linked.csv").symlink_to(tmp_path / "elsewhere" / "linked.csv")
    with pytest.raises(ValueError, match="resolves outside"):
        save_results(_frame(), "linked", profile="ci", runtime_seconds=1.0)
    assert not (tmp_path / "elsewhere" / "linked.csv").exists()


def test_plain_names_are_accepted(results):
    for name in ("zaffalon2012_ncc_uci", "performance-jncc2", "v1.2"):
        assert results_path(name) == results / f"{name}.csv"


# ----------------------------------------------------------------------------------------------
# Atomicity: a stored run is written whole or not at all
# ----------------------------------------------------------------------------------------------

def _stored_bytes(results) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(results.iterdir())}


@pytest.mark.parametrize("bad", [
    dict(runtime_seconds=float("nan")), dict(runtime_seconds=-1.0), dict(runtime_seconds="12"),
    dict(runtime_seconds=True), dict(profile=""), dict(profile=None), dict(cache=(1, 2)), dict(cache=(3,)),
    dict(note=3), dict(software=["weka"]), dict(changes="none"), dict(changes={"x": object()}),
    dict(changes={"x": float("nan")}),
])
def test_every_argument_is_checked_before_anything_is_written(results, bad):
    save_results(_frame(), "demo", profile="ci", runtime_seconds=1.0, note="first")
    before = _stored_bytes(results)
    arguments = dict(profile="ci", runtime_seconds=2.0) | bad
    with pytest.raises(ValueError, match=next(iter(bad)) if next(iter(bad)) != "changes" else "changes|JSON"):
        save_results(_frame().assign(accuracy=0.0), "demo", **arguments)
    assert _stored_bytes(results) == before                      # the previous run, whole, and no stray file
    with pytest.raises(ValueError):
        save_results(_frame(), "fresh", **arguments)
    assert not (results / "fresh.csv").exists() and not (results / "fresh.provenance.json").exists()


def test_a_failed_rename_of_the_provenance_leaves_the_previous_run_intact(results, monkeypatch):
    import os as os_module

    save_results(_frame(), "demo", profile="ci", runtime_seconds=1.0, note="first")
    before = _stored_bytes(results)
    real_replace = os_module.replace

    def failing(source, target):
        if str(target).endswith(".provenance.json"):
            raise OSError("disk full (injected)")
        real_replace(source, target)

    monkeypatch.setattr(os_module, "replace", failing)
    with pytest.raises(OSError, match="injected"):
        save_results(_frame().assign(accuracy=0.0), "demo", profile="ci", runtime_seconds=2.0, note="second")
    monkeypatch.setattr(os_module, "replace", real_replace)
    assert _stored_bytes(results) == before                      # the CSV was put back, no temporary left
    assert load_results("demo")["accuracy"].tolist() == _frame()["accuracy"].tolist()
    # with no previous run, a failed write leaves nothing
    monkeypatch.setattr(os_module, "replace", failing)
    with pytest.raises(OSError, match="injected"):
        save_results(_frame(), "fresh", profile="ci", runtime_seconds=2.0)
    monkeypatch.setattr(os_module, "replace", real_replace)
    assert _stored_bytes(results) == before


def test_a_failed_csv_write_leaves_the_previous_run_intact(results, monkeypatch):
    save_results(_frame(), "demo", profile="ci", runtime_seconds=1.0)
    before = _stored_bytes(results)

    def broken(self, *args, **kwargs):
        with open(args[0], "w") as handle:
            handle.write("dataset,fo")                         # half a file, then the failure
        raise OSError("interrupted (injected)")

    monkeypatch.setattr(pd.DataFrame, "to_csv", broken)
    with pytest.raises(OSError, match="injected"):
        save_results(_frame(), "demo", profile="ci", runtime_seconds=2.0)
    monkeypatch.undo()
    assert _stored_bytes(results) == before


def test_the_reproduction_record_is_written_atomically(results, monkeypatch):
    import os as os_module

    save_results(_frame(), "first", profile="ci", runtime_seconds=10.0)
    store.save_reproduction(["first"], 5.0, backend="loky")
    before = _stored_bytes(results)
    monkeypatch.setattr(os_module, "replace", lambda *a: (_ for _ in ()).throw(OSError("injected")))
    with pytest.raises(OSError, match="injected"):
        store.save_reproduction(["first"], 7.0, backend="loky")
    monkeypatch.undo()
    assert _stored_bytes(results) == before
    with pytest.raises(ValueError, match="names must be a result name"):
        store.save_reproduction(["../first"], 7.0, backend="loky")
    with pytest.raises(ValueError, match="names must list"):
        store.save_reproduction("first", 7.0, backend="loky")


@pytest.mark.parametrize("keys,values,message", [
    (["dataset", "nosuch"], ["accuracy"], r"keys: columns \['nosuch'\] missing"),
    (["dataset", "fold"], ["nosuch"], r"values: columns \['nosuch'\] missing"),
    ("dataset", ["accuracy"], "keys must be a list of column names"),
    ([], ["accuracy"], "keys must name at least one column"),
    (["dataset", "fold"], "accuracy", "values must be a list of column names"),
])
def test_changes_from_stored_names_a_bad_key_or_value(results, keys, values, message):
    save_results(_frame(), "demo", profile="ci", runtime_seconds=1.0)
    with pytest.raises(ValueError, match=message):
        store.changes_from_stored(_frame(), "demo", keys=keys, values=values)
    with pytest.raises(ValueError, match=message):
        assert_matches_stored(_frame(), "demo", keys=keys, values=values)


def test_changes_from_stored_checks_its_tolerances_and_table(results):
    save_results(_frame(), "demo", profile="ci", runtime_seconds=1.0)
    with pytest.raises(ValueError, match="atol must be a finite number >= 0"):
        store.changes_from_stored(_frame(), "demo", keys=["dataset", "fold"], values=["accuracy"], atol=-1)
    with pytest.raises(ValueError, match="recomputed must be a DataFrame"):
        store.changes_from_stored(_frame().to_dict(), "demo", keys=["dataset", "fold"], values=["accuracy"])
