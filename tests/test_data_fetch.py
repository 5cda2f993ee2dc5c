"""Downloads for users of the package alone: ``credalbook fetch`` against a local HTTP server, and
``credalbook datasets`` (where each dataset is found, its size, its checksum)."""
from __future__ import annotations

import functools
import http.server
import shutil
import threading

import pandas as pd
import pytest

from credalbook import data
from credalbook.cli import main
from credalbook.data import ChecksumError, DownloadError, fetch, load

RAW = data.repository_dir()


@pytest.fixture
def server(tmp_path):
    """An HTTP server on 127.0.0.1 serving ``tmp_path / "served"``; yields (folder, base URL)."""
    folder = tmp_path / "served"
    folder.mkdir()
    handler = functools.partial(_QuietHandler, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield folder, f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    requests: list[str] = []

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        _QuietHandler.requests.append(self.path)


@pytest.fixture
def package_alone(tmp_path, monkeypatch):
    """The situation of a user of the package alone: no repository data, no mirror, an empty cache."""
    monkeypatch.setattr(data, "repository_dir", lambda: tmp_path / "no-repository")
    monkeypatch.delenv("CREDALBOOK_DATA_MIRROR", raising=False)
    monkeypatch.setenv("CREDALBOOK_DATA_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _serve(folder, *relatives):
    for relative in relatives:
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(RAW / relative, folder / relative)


def test_fetch_from_a_local_server_fills_the_cache_and_load_uses_it(server, package_alone, capsys):
    folder, url = server
    _serve(folder, "uci/iris.arff", "uci/spect_train.arff", "uci/spect_test.arff")
    with pytest.raises(data.DatasetNotFoundError, match="iris"):
        load("iris")
    assert main(["fetch", "iris", "spect", "--from", url]) == 0
    out = capsys.readouterr().out
    assert "ok       iris: 1 file(s)" in out and "ok       spect: 2 file(s)" in out and "2 of 2 datasets" in out
    assert (package_alone / "uci" / "iris.arff").read_bytes() == (RAW / "uci" / "iris.arff").read_bytes()
    assert load("iris").source == "cache:uci/iris.arff" and len(load("spect").y) == 267
    served = len(_QuietHandler.requests)
    assert main(["fetch", "iris", "--from", url]) == 0  # already cached and verified: no request
    assert len(_QuietHandler.requests) == served
    assert main(["fetch", "iris", "--from", url, "--force"]) == 0
    assert len(_QuietHandler.requests) == served + 1


def test_a_corrupted_file_on_the_server_is_refused_and_not_written(server, package_alone, capsys):
    folder, url = server
    _serve(folder, "uci/iris.arff", "uci/wine.arff")
    path = folder / "uci" / "iris.arff"
    path.write_bytes(path.read_bytes().replace(b"5.1,3.5,1.4,0.2", b"5.1,3.5,1.4,0.3", 1))
    with pytest.raises(ChecksumError, match=r"has sha256 [0-9a-f]{64}, the registry expects 8337af8c.*not written"):
        fetch("iris", base_url=url)
    assert not (package_alone / "uci" / "iris.arff").exists()
    assert list(package_alone.rglob("*.part*")) == []
    assert main(["fetch", "iris", "wine", "--from", url]) == 1
    captured = capsys.readouterr()
    assert "refused  iris" in captured.err and "ok       wine" in captured.out and "1 of 2 datasets" in captured.out


def test_a_file_absent_from_the_server_is_a_download_error(server, package_alone):
    _, url = server
    with pytest.raises(DownloadError, match=r"uci/iris.arff failed: HTTP 404"):
        fetch("iris", base_url=url)


def test_fetch_all_from_a_copy_of_data_raw_then_every_dataset_loads_from_the_cache(server, package_alone):
    folder, url = server
    shutil.copytree(RAW, folder, dirs_exist_ok=True)
    assert main(["fetch", "--all", "--from", url]) == 0
    status = data.dataset_status()
    available = status[status["source"] != "missing"]
    assert set(available["source"]) <= {"cache", "package"} and (available["source"] == "cache").sum() >= 100
    assert (available.loc[available["source"] == "cache", "checksum"] == "ok").all()
    for row in available[available["source"] == "cache"].itertuples():
        assert load(row.name, row.group).source == f"cache:{row.files}"


class TestBadInput:
    @pytest.mark.parametrize("base_url", ["ftp://127.0.0.1/", "127.0.0.1:8000", "", "http://"])
    def test_base_url_must_be_http(self, base_url):
        with pytest.raises(ValueError, match="base_url must be an http:// or https:// address"):
            fetch("iris", base_url=base_url)

    def test_fetch_needs_names_or_all(self, capsys):
        assert main(["fetch"]) == 2
        assert "dataset names or --all" in capsys.readouterr().err
        assert main(["fetch", "iris", "--all"]) == 2

    def test_unreachable_server_is_a_download_error(self, package_alone):
        with pytest.raises(DownloadError, match="download of http://127.0.0.1:9/uci/iris.arff failed"):
            fetch("iris", base_url="http://127.0.0.1:9")

    def test_status_of_a_bad_group(self):
        with pytest.raises(ValueError, match="group must be one of"):
            data.dataset_status("nope")


def test_datasets_command_reports_repository_copies_and_a_mismatch(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("CREDALBOOK_DATA_MIRROR", raising=False)
    monkeypatch.setenv("CREDALBOOK_DATA_CACHE", str(tmp_path / "cache"))
    assert main(["datasets", "--group", "yang2017"]) == 0
    out = capsys.readouterr().out
    assert "ERA" in out and "repository" in out and "3 of 4 datasets found" in out and "0 checksum mismatches" in out
    copy = tmp_path / "raw"
    shutil.copytree(RAW / "ordinal", copy / "ordinal")
    (copy / "ordinal" / "ESL.arff").write_bytes((RAW / "ordinal" / "ESL.arff").read_bytes() + b"\n")
    monkeypatch.setattr(data, "repository_dir", lambda: copy)
    status = data.dataset_status("yang2017").set_index("name")
    assert status.loc["ESL", "checksum"] == "mismatch: ordinal/ESL.arff" and status.loc["ERA", "checksum"] == "ok"
    assert status.loc["SWD", "source"] == "missing"
    assert status.loc["ERA", "bytes"] == (RAW / "ordinal" / "ERA.arff").stat().st_size
    assert main(["datasets", "--group", "yang2017"]) == 1
    assert "1 checksum mismatches" in capsys.readouterr().out


def test_status_says_not_found_without_any_copy(package_alone):
    status = data.dataset_status("yang2017").set_index("name")
    assert status.loc["ERA", "source"] == "not found" and pd.isna(status.loc["ERA", "bytes"])


def test_concurrent_fetches_and_loads_share_one_cache(server, tmp_path):
    """Four processes re-download the same files into one cache while a fifth loads them in a loop: every
    process succeeds, every load reads a whole file, and no temporary file is left behind."""
    import subprocess
    import sys

    folder, url = server
    _serve(folder, "uci/iris.arff", "uci/spect_train.arff", "uci/spect_test.arff")
    cache, nowhere = tmp_path / "shared-cache", tmp_path / "not-a-book"
    nowhere.mkdir()
    environment = {**__import__("os").environ, "CREDALBOOK_DATA_CACHE": str(cache), "CREDALBOOK_ROOT": str(nowhere)}
    environment.pop("CREDALBOOK_DATA_MIRROR", None)
    assert subprocess.run([sys.executable, "-c", f"from credalbook.data import fetch; fetch('iris', base_url={url!r})"],
                          env=environment, timeout=120).returncode == 0
    writer = ("from credalbook.data import fetch\n"
              f"for _ in range(15):\n    fetch('iris', base_url={url!r}, force=True)\n"
              f"    fetch('spect', base_url={url!r}, force=True)\n")
    reader = ("from credalbook.data import load\n"
              "for _ in range(40):\n    d = load('iris')\n    assert d.X.shape == (150, 4) and d.source == 'cache:uci/iris.arff'\n")
    processes = [subprocess.Popen([sys.executable, "-c", writer], env=environment) for _ in range(4)]
    processes.append(subprocess.Popen([sys.executable, "-c", reader], env=environment))
    assert [p.wait(timeout=300) for p in processes] == [0] * 5
    for relative in ("uci/iris.arff", "uci/spect_train.arff", "uci/spect_test.arff"):
        assert (cache / relative).read_bytes() == (RAW / relative).read_bytes()
    assert sorted(p.name for p in (cache / "uci").iterdir()) == ["iris.arff", "spect_test.arff", "spect_train.arff"]
