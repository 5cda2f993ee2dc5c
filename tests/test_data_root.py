"""``--root`` and ``$CREDALBOOK_ROOT`` name the book whose ``data/raw`` the data lookup reads (issue 28,
item 2): the package copied away from its checkout, as an installed wheel is, finds the datasets
of the book it is pointed at, and none without it."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from credalbook import data
from credalbook.book.build import repo_root

ROOT = repo_root()


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The package alone in a folder that is no checkout (what ``pip install`` of the wheel makes)."""
    site = tmp_path_factory.mktemp("site")
    shutil.copytree(ROOT / "credalbook", site / "credalbook", ignore=shutil.ignore_patterns("__pycache__"))
    return site


def _cli(site, *arguments, env_root=None, cwd):
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREDALBOOK_")}
    env.update(PYTHONPATH=str(site), CREDALBOOK_DATA_CACHE=str(cwd / "empty-cache"))
    if env_root is not None:
        env["CREDALBOOK_ROOT"] = str(env_root)
    return subprocess.run([sys.executable, "-m", "credalbook", *arguments], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=300)


def _found(output: str) -> tuple[int, int]:
    match = re.search(r"(\d+) of (\d+) datasets found", output)
    assert match, output[-2000:]
    return int(match.group(1)), int(match.group(2))


def test_an_installed_package_finds_the_book_it_is_pointed_at(installed, tmp_path):
    expected = int((data.dataset_status()["source"] == "repository").sum())
    assert expected > 100
    alone = _cli(installed, "datasets", cwd=tmp_path)
    by_option = _cli(installed, "--root", str(ROOT), "datasets", cwd=tmp_path)
    by_environment = _cli(installed, "datasets", env_root=ROOT, cwd=tmp_path)
    assert _found(alone.stdout)[0] < 10                     # scikit-learn's bundled copies only
    for run in (by_option, by_environment):
        assert run.returncode == 0, run.stderr[-2000:]
        found, total = _found(run.stdout)
        assert found - int((data.dataset_status()["source"] == "package").sum()) >= expected - 1
        assert f"repository: {ROOT / 'data' / 'raw'}" in run.stdout


def test_the_environment_variable_names_the_repository_folder(tmp_path, monkeypatch):
    book = tmp_path / "book"
    (book / "data" / "raw" / "uci").mkdir(parents=True)
    (book / "_toc.yml").write_text("root: intro\n")
    shutil.copyfile(ROOT / "data" / "raw" / "uci" / "iris.arff", book / "data" / "raw" / "uci" / "iris.arff")
    monkeypatch.setenv("CREDALBOOK_ROOT", str(book))
    assert data.repository_dir() == (book / "data" / "raw").resolve()
    status = data.dataset_status("zaffalon2012").set_index("name")
    assert status.loc["iris", "folder"] == str((book / "data" / "raw").resolve())
    assert status.loc["glass", "source"] != "repository"    # not in that book
    monkeypatch.setenv("CREDALBOOK_ROOT", str(tmp_path / "not-a-book"))
    assert data.repository_dir() is None
    _, hint = data._source_folder("repository")
    assert "not-a-book" in hint and "no _toc.yml" in hint
