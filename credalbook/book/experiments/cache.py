"""The grid's on-disk cache, which trusts nothing it reads back.

An entry is one ``.npz`` file (NumPy arrays, read with ``allow_pickle=False``: nothing in it
can execute) holding the result and a record of what produced it: the task's name, its full
configuration, the *fingerprint* of the code involved and the sha256 of the result's bytes.
:func:`read` returns the result only if all four match the request; otherwise it warns and
the caller recomputes (a corrupted file, another configuration's entry copied under the key,
an entry written by other code are never served).

The fingerprint (:func:`code_fingerprint`) hashes the source of the task's module and of every
``credalbook`` module it imports, transitively, and the dataset registry: a change to any code
the task can run makes its old entries stale without anyone bumping a version string.

Results that can be stored: DataFrames (numeric, boolean and string columns), arrays, scalars,
strings, lists of those, and dicts of any of them.
"""
from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import os
import tempfile
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["FORMAT", "LIBRARIES", "code_fingerprint", "encode", "decode", "canonical", "entry_key", "write",
           "StaleEntry", "read", "warn_stale"]

#: The version of the entries' layout; entries of another format are recomputed.
FORMAT = 1
#: Libraries whose versions enter the code fingerprint (their results enter the tasks').
LIBRARIES = ("numpy", "scipy", "pandas", "scikit-learn")


def _version(package: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "absent"


# ----------------------------------------------------------------------------------------------
# Code fingerprint
# ----------------------------------------------------------------------------------------------

def _imported_modules(tree: ast.AST, package: str) -> set[str]:
    """Names of the ``credalbook`` modules a module's source imports (anywhere in the file)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.split(".")[0] == "credalbook"}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            if base.split(".")[0] != "credalbook":
                continue
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return found


def _lazy_homes(tree: ast.AST, name: str) -> set[str]:
    """The modules a package's ``__init__`` loads on first use: the values of its ``_HOMES`` dict (name -> module)."""
    for node in ast.walk(tree):
        if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_HOMES" for t in node.targets)
                and isinstance(node.value, ast.Dict)):
            return {f"{name}.{v.value}" for v in node.value.values if isinstance(v, ast.Constant)}
    return set()


@lru_cache(maxsize=512)
def _module_source(name: str) -> tuple[str, frozenset[str]] | None:
    """(sha256 of the source, credalbook modules it imports) of module ``name``; None if it has no .py file."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    source = Path(spec.origin).read_bytes()
    package = name if spec.submodule_search_locations else name.rpartition(".")[0]
    tree = ast.parse(source)
    imported = _imported_modules(tree, package) | _lazy_homes(tree, name)
    parent = name.rpartition(".")[0]
    return hashlib.sha256(source).hexdigest(), frozenset(imported | ({parent} if parent else set()))


@lru_cache(maxsize=64)
def code_fingerprint(module_name: str) -> str:
    """sha256 over the sources of ``module_name`` and every credalbook module it imports, transitively.

    Names imported from a module that are not modules themselves are skipped. The dataset
    registry ``credalbook/datasets.csv`` is included, since the tasks read data through it, and
    so are the versions of the numerical libraries (:data:`LIBRARIES`) whose results they use.
    """
    sources, stack = {}, [module_name]
    while stack:
        name = stack.pop()
        if name in sources:
            continue
        info = _module_source(name)
        sources[name] = info[0] if info else None
        if info:
            stack.extend(info[1] - set(sources))
    sources = {name: sha for name, sha in sources.items() if sha is not None}
    registry = Path(__file__).resolve().parents[2] / "datasets.csv"
    if registry.is_file():
        sources["credalbook/datasets.csv"] = hashlib.sha256(registry.read_bytes()).hexdigest()
    for package in LIBRARIES:
        sources[f"version of {package}"] = _version(package)
    digest = hashlib.sha256()
    for name in sorted(sources):
        digest.update(f"{name}:{sources[name]}\n".encode())
    return digest.hexdigest()


# ----------------------------------------------------------------------------------------------
# Encoding results as arrays
# ----------------------------------------------------------------------------------------------

def _column_arrays(series: pd.Series, name: str) -> tuple[dict, dict[str, np.ndarray]]:
    values = series.to_numpy()
    if isinstance(series.dtype, pd.CategoricalDtype):
        return ({"kind": "category", "categories": [str(c) for c in series.cat.categories],
                 "ordered": bool(series.cat.ordered)}, {name: series.cat.codes.to_numpy()})
    if series.dtype.kind in "biuf":
        return {"kind": "numpy", "dtype": series.dtype.str}, {name: np.ascontiguousarray(values)}
    missing = series.isna().to_numpy()
    texts = series.where(~missing, "")
    if not all(isinstance(v, str) for v in texts):
        raise TypeError(f"column {series.name!r} holds values that are neither numbers nor strings")
    return {"kind": "str", "missing": bool(missing.any())}, {name: texts.to_numpy(dtype=str),
                                                             name + ".missing": missing}


def encode(value: Any, prefix: str = "r") -> tuple[dict, dict[str, np.ndarray]]:
    """(structure, arrays): a JSON-able description and the arrays that rebuild ``value``."""
    if isinstance(value, pd.DataFrame):
        columns, arrays = [], {}
        for i, column in enumerate(value.columns):
            spec, parts = _column_arrays(value[column], f"{prefix}.{i}")
            columns.append({"name": column if isinstance(column, str) else str(column), **spec})
            arrays.update(parts)
        return {"type": "frame", "columns": columns, "rows": len(value)}, arrays
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biufU":
            raise TypeError(f"arrays of dtype {value.dtype} cannot be cached")
        return {"type": "array"}, {prefix: value}
    if isinstance(value, dict):
        items, arrays = {}, {}
        for i, (key, item) in enumerate(value.items()):
            if not isinstance(key, str):
                raise TypeError(f"dict keys must be strings to be cached, got {key!r}")
            items[key], parts = encode(item, f"{prefix}.{i}")
            arrays.update(parts)
        return {"type": "dict", "items": items}, arrays
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        value = value.item()
    try:
        json.dumps(value, allow_nan=True)
    except TypeError:
        raise TypeError(f"a result of type {type(value).__name__} cannot be cached") from None
    return {"type": "json", "value": value}, {}


def decode(structure: dict, arrays) -> Any:
    """Rebuild the value that :func:`encode` described."""
    kind = structure["type"]
    if kind == "json":
        return structure["value"]
    if kind == "array":
        return arrays[structure["_prefix"]]
    if kind == "dict":
        return {key: decode(item, arrays) for key, item in structure["items"].items()}
    if kind == "frame":
        prefix = structure["_prefix"]
        data = {}
        for i, column in enumerate(structure["columns"]):
            values = arrays[f"{prefix}.{i}"]
            if column["kind"] == "category":
                data[column["name"]] = pd.Categorical.from_codes(values, column["categories"], ordered=column["ordered"])
            elif column["kind"] == "str":
                series = pd.Series(values.astype(object), dtype="str")
                if column["missing"]:
                    series[arrays[f"{prefix}.{i}.missing"]] = np.nan
                data[column["name"]] = series
            else:
                data[column["name"]] = values
        return pd.DataFrame(data, index=pd.RangeIndex(structure["rows"]))
    raise ValueError(f"unknown cached structure {kind!r}")


def _with_prefixes(structure: dict, prefix: str = "r") -> dict:
    """The structure annotated with the array names :func:`encode` gave each part."""
    annotated = dict(structure, _prefix=prefix)
    if structure["type"] == "dict":
        annotated["items"] = {key: _with_prefixes(item, f"{prefix}.{i}")
                              for i, (key, item) in enumerate(structure["items"].items())}
    return annotated


def _payload_digest(arrays: dict[str, np.ndarray]) -> str:
    digest = hashlib.sha256()
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name])
        digest.update(f"{name}|{array.dtype.str}|{array.shape}|".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


# ----------------------------------------------------------------------------------------------
# Entries
# ----------------------------------------------------------------------------------------------

def canonical(config: dict) -> str:
    """The configuration as canonical JSON (sorted keys; arrays and sets as lists)."""
    def default(value):
        if hasattr(value, "tolist"):
            return value.tolist()
        if isinstance(value, (set, frozenset)):
            return sorted(value)
        raise TypeError(type(value).__name__)

    try:
        return json.dumps(config, sort_keys=True, default=default)
    except TypeError as error:
        raise TypeError(f"configuration is not JSON-serialisable: {config!r}") from error


def entry_key(task_name: str, config: dict, fingerprint: str) -> str:
    """The 16-hex-digit file name of an entry: task, configuration and code fingerprint hashed."""
    return hashlib.sha256(f"{task_name}|{fingerprint}|{canonical(config)}".encode()).hexdigest()[:16]


def write(path: Path, result: Any, *, task_name: str, config: dict, fingerprint: str) -> None:
    """Store ``result`` with its record at ``path`` (atomically: a temporary file, then a rename)."""
    structure, arrays = encode(result)
    record = {"format": FORMAT, "task": task_name, "config": canonical(config), "fingerprint": fingerprint,
              "structure": structure, "sha256": _payload_digest(arrays)}
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp.npz")
    os.close(handle)
    try:
        np.savez_compressed(temporary, __record__=np.array(json.dumps(record)), **arrays)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


class StaleEntry(Exception):
    """An entry that exists but must not be served (the message says why)."""


def read(path: Path, *, task_name: str, config: dict, fingerprint: str) -> Any:
    """The result stored at ``path`` if its record matches the request and its bytes their checksum.

    Raises ``FileNotFoundError`` when there is no entry and :class:`StaleEntry` when there is one
    that cannot be trusted (unreadable, another task or configuration, other code, altered bytes).
    """
    if not path.is_file():
        raise FileNotFoundError(path)
    try:
        with np.load(path, allow_pickle=False) as archive:
            record = json.loads(str(archive["__record__"]))
            arrays = {name: archive[name] for name in archive.files if name != "__record__"}
    except Exception as error:  # noqa: BLE001 - any unreadable file is stale, whatever the reader says
        raise StaleEntry(f"unreadable ({type(error).__name__})") from None
    if record.get("format") != FORMAT or record.get("task") != task_name:
        raise StaleEntry(f"written for task {record.get('task')!r}")
    if record.get("config") != canonical(config):
        raise StaleEntry(f"written for another configuration {record.get('config')}")
    if record.get("fingerprint") != fingerprint:
        raise StaleEntry("written by other code (the task's modules changed since)")
    if _payload_digest(arrays) != record.get("sha256"):
        raise StaleEntry("its bytes differ from their checksum")
    return decode(_with_prefixes(record["structure"]), arrays)


def warn_stale(path: Path, reason: str) -> None:
    warnings.warn(f"cache entry {path.name} of {path.parent.name} not used: {reason}; recomputing", stacklevel=3)
