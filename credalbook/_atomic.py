"""Files written whole or not at all: a temporary file in the target's folder, then a rename.

A rename within one folder is atomic, so a reader sees the old file or the new one, never half
of one, and a write that fails (a full disk, an interrupted process, a bad argument found late)
leaves the previous file as it was. :func:`replace_together` extends this to several files that
belong together (a stored run's CSV and its provenance): each is written to a temporary file
first, then all are renamed, and if a rename fails the files already renamed are put back.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

__all__ = ["temporary_beside", "write_bytes", "write_text", "replace_together"]


def _unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


@contextmanager
def temporary_beside(path: str | os.PathLike, suffix: str = ".tmp") -> Iterator[Path]:
    """A fresh temporary file name in ``path``'s folder (created empty); removed on exit unless renamed.

    ``suffix`` keeps what a writer needs of the name (``np.savez`` appends ``.npz`` to other names).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=suffix)
    os.close(handle)
    temporary = Path(name)
    try:
        yield temporary
    finally:
        _unlink(temporary)


def _write(path: str | os.PathLike, writer: Callable[[Path], None]) -> Path:
    path = Path(path)
    with temporary_beside(path) as temporary:
        writer(temporary)
        os.replace(temporary, path)
    return path


def write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (a temporary file in the same folder, then a rename)."""
    return _write(path, lambda temporary: temporary.write_bytes(data))


def write_text(path: str | os.PathLike, text: str, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` atomically (see :func:`write_bytes`)."""
    return _write(path, lambda temporary: temporary.write_text(text, encoding=encoding))


def replace_together(writers: dict[Path, Callable[[Path], None]]) -> None:
    """Write several files as one: each ``writer(temporary)`` fills a temporary file beside its target,
    then every target is replaced; if a writer or a rename fails, no target changes (the ones
    already replaced get their previous content back, or are removed if they had none)."""
    targets = [Path(path) for path in writers]
    temporaries: dict[Path, Path] = {}
    backups: dict[Path, Path | None] = {}
    replaced: list[Path] = []
    try:
        for target, writer in zip(targets, writers.values()):
            target.parent.mkdir(parents=True, exist_ok=True)
            handle, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
            os.close(handle)
            temporaries[target] = Path(name)
            writer(temporaries[target])
        for target in targets:  # keep the previous files until every new one is in place
            if target.is_file():
                handle, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".previous")
                os.close(handle)
                shutil.copy2(target, name)
                backups[target] = Path(name)
            else:
                backups[target] = None
        for target in targets:
            os.replace(temporaries[target], target)
            replaced.append(target)
    except BaseException:
        for target in replaced:
            backup = backups.get(target)
            if backup is not None:
                os.replace(backup, target)
            else:
                _unlink(target)
        raise
    finally:
        for name in [*temporaries.values(), *(b for b in backups.values() if b is not None)]:
            _unlink(name)
