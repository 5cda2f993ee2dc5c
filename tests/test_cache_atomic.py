"""The caches are written whole or not at all: the verified cache (grid cells and the ledger's
``.cache/ledger`` entry, both through ``credalbook.book.experiments.cache.write``), the download cache
(``credalbook.data.fetch``) and the helper they share, ``credalbook._atomic``."""
from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest

from credalbook import _atomic, data
from credalbook.book.experiments import cache

RAW = data.repository_dir()


def _leftovers(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".") or "tmp" in p.name)


def test_write_text_replaces_whole_or_leaves_the_previous_file(tmp_path, monkeypatch):
    target = tmp_path / "record.json"
    _atomic.write_text(target, "first\n")
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError("injected")))
    with pytest.raises(OSError, match="injected"):
        _atomic.write_text(target, "second\n")
    monkeypatch.undo()
    assert target.read_text() == "first\n" and _leftovers(tmp_path) == []


def test_replace_together_puts_back_what_it_replaced(tmp_path, monkeypatch):
    a, b, c = tmp_path / "a.csv", tmp_path / "a.provenance.json", tmp_path / "new.txt"
    a.write_text("old a")
    b.write_text("old b")
    real = os.replace
    calls = []

    def third_fails(source, target):
        calls.append(target)
        if len(calls) == 3 and str(target).endswith("new.txt"):
            raise OSError("injected")
        real(source, target)

    monkeypatch.setattr(os, "replace", third_fails)
    writers = {a: lambda t: t.write_text("new a"), b: lambda t: t.write_text("new b"), c: lambda t: t.write_text("c")}
    with pytest.raises(OSError, match="injected"):
        _atomic.replace_together(writers)
    monkeypatch.undo()
    assert (a.read_text(), b.read_text(), c.exists()) == ("old a", "old b", False)
    assert _leftovers(tmp_path) == []
    _atomic.replace_together(writers)
    assert (a.read_text(), b.read_text(), c.read_text()) == ("new a", "new b", "c")
    assert _leftovers(tmp_path) == []


def test_a_failed_cache_write_leaves_the_previous_entry_readable(tmp_path, monkeypatch):
    """The ledger's entry (``.cache/ledger/KEY.npz``) and the grid's are written by cache.write."""
    path = tmp_path / "ledger" / "0123456789abcdef.npz"
    first = pd.DataFrame({"id": ["a", "b"], "verdict": ["reproduced", "differs"]})
    cache.write(path, first, task_name="ledger", config={}, fingerprint="f")
    real = np.savez_compressed

    def half_then_fail(file, **arrays):
        with open(file, "wb") as handle:
            handle.write(b"PK\x03\x04 half an archive")
        raise OSError("disk full (injected)")

    monkeypatch.setattr(np, "savez_compressed", half_then_fail)
    with pytest.raises(OSError, match="injected"):
        cache.write(path, first.assign(verdict="differs"), task_name="ledger", config={}, fingerprint="f")
    monkeypatch.setattr(np, "savez_compressed", real)
    pd.testing.assert_frame_equal(cache.read(path, task_name="ledger", config={}, fingerprint="f"), first)
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


def test_a_failed_download_write_leaves_no_file_in_the_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(data, "repository_dir", lambda: tmp_path / "no-repository")
    monkeypatch.delenv("CREDALBOOK_DATA_MIRROR", raising=False)
    monkeypatch.setenv("CREDALBOOK_DATA_CACHE", str(tmp_path / "cache"))
    raw = (RAW / "uci" / "iris.arff").read_bytes()
    monkeypatch.setattr(data, "_download", lambda url, timeout=60.0: raw)
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError("injected")))
    with pytest.raises(OSError, match="injected"):
        data.fetch("iris", "zaffalon2012")
    monkeypatch.setattr(os, "replace", os.rename)
    assert [p for p in (tmp_path / "cache").rglob("*") if p.is_file()] == []
    (path,) = data.fetch("iris", "zaffalon2012")
    assert path.read_bytes() == raw
