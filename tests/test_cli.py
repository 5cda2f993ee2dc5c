"""The command line checks before it runs (issue 27): unknown or missing names, bad numbers and
backends, an unreachable scheduler and a closed pipe end with one message, no traceback, and
before any experiment starts."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from credalbook import cli
from credalbook.book.experiments import registry

VALID = "zaffalon2012_ncc_rejection"


@pytest.fixture
def nothing_runs(monkeypatch):
    """Fail the test if an experiment starts."""
    started = []

    def run_experiment(name, *args, **kwargs):
        started.append(name)
        raise AssertionError(f"experiment {name} started")

    monkeypatch.setattr(registry, "run_experiment", run_experiment)
    return started


def test_an_unknown_experiment_is_refused_before_any_runs(nothing_runs, capsys):
    assert cli.main(["reproduce", "--profile", "ci", "--only", VALID, "nosuch"]) == 2
    error = capsys.readouterr().err
    assert "unknown experiment(s) 'nosuch'" in error and "nothing was run" in error and VALID in error
    assert nothing_runs == []


def test_only_without_names_is_a_usage_error(nothing_runs, capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["reproduce", "--only"])
    assert stop.value.code == 2
    assert "--only: expected at least one argument" in capsys.readouterr().err
    assert nothing_runs == []


@pytest.mark.parametrize("arguments,message", [
    (["reproduce", "--n-jobs", "0"], "--n-jobs: must be an integer >= 1, got '0'"),
    (["reproduce", "--n-jobs", "two"], "--n-jobs: must be an integer >= 1"),
    (["reproduce", "--backend", "spark"], "--backend: invalid choice: 'spark'"),
    (["reproduce", "--connect-timeout", "-1"], "--connect-timeout: must be a number of seconds > 0"),
    (["reproduce", "--connect-timeout", "inf"], "--connect-timeout: must be a number of seconds > 0"),
    (["bench", "--repeat", "0"], "--repeat: must be an integer >= 1"),
    (["bench", "--paths"], "--paths: expected at least one argument"),
    (["build", "--jobs", "-2"], "--jobs: must be an integer >= 1"),
    (["reproduce", "--profile", "fast"], "--profile: invalid choice: 'fast'"),
])
def test_bad_numbers_and_choices_are_usage_errors(nothing_runs, capsys, arguments, message):
    with pytest.raises(SystemExit) as stop:
        cli.main(arguments)
    assert stop.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.parametrize("arguments,message", [
    (["--scheduler", "tcp://127.0.0.1:8786"], "--scheduler needs --backend dask or ray, not --backend loky"),
    (["--backend", "dask", "--scheduler", "127.0.0.1"], "--scheduler must be a Dask scheduler address"),
    (["--output", "/nonexistent-folder/rows.csv"], "does not exist; nothing was run"),
])
def test_backend_scheduler_and_output_are_checked_before_any_runs(nothing_runs, capsys, arguments, message):
    assert cli.main(["reproduce", "--profile", "ci", "--only", VALID, *arguments]) == 2
    assert message in capsys.readouterr().err and nothing_runs == []


def test_an_unreachable_scheduler_fails_within_the_timeout_with_one_paragraph(nothing_runs, capsys):
    pytest.importorskip("distributed")
    start = time.perf_counter()
    status = cli.main(["reproduce", "--profile", "ci", "--only", VALID, "--backend", "dask",
                       "--scheduler", "tcp://127.0.0.1:9", "--connect-timeout", "1"])
    seconds = time.perf_counter() - start
    error = capsys.readouterr().err
    assert status == 1 and seconds < 15, (status, seconds)
    assert error.startswith("credalbook: error: could not reach the Dask scheduler at tcp://127.0.0.1:9 within 1 s")
    assert error.count("\n") == 1 and "Traceback" not in error and "--connect-timeout" in error
    assert nothing_runs == []


def test_fetch_checks_every_name_before_downloading(monkeypatch, capsys):
    from credalbook import data

    monkeypatch.setattr(data, "fetch", lambda *a, **k: pytest.fail("a download started"))
    assert cli.main(["fetch", "iris", "no-such-dataset"]) == 2
    assert "no dataset named 'no-such-dataset'" in capsys.readouterr().err


def test_bench_checks_its_paths_before_timing(monkeypatch, capsys):
    from credalbook.book import performance

    monkeypatch.setattr(performance, "measure", lambda *a, **k: pytest.fail("timing started"))
    assert cli.main(["bench", "--paths", "no-such-path", "--no-save"]) == 2
    assert "unknown hot path(s) 'no-such-path'" in capsys.readouterr().err


def test_a_closed_pipe_ends_quietly(tmp_path):
    """``credalbook datasets | head -1``: the reader goes away; no BrokenPipeError traceback."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    process = subprocess.Popen([sys.executable, "-m", "credalbook", "datasets"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env, cwd=tmp_path)
    process.stdout.close()                                       # the reader is gone before the first line
    error = process.stderr.read().decode()
    assert process.wait(timeout=300) == 1
    assert "Traceback" not in error and "BrokenPipeError" not in error, error


def test_a_keyboard_interrupt_ends_with_one_line(monkeypatch, capsys):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_cmd_datasets", interrupted)
    assert cli.main(["datasets"]) == 130
    assert capsys.readouterr().err == "credalbook: interrupted\n"
