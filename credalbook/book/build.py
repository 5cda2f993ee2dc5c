"""Execute the chapters with papermill and render the book with jupyter-book.

The chapters are MyST markdown notebooks (``chapters/**.md``). ``build`` converts each one
with jupytext, executes it with papermill (parameters injected after the cell tagged
``parameters``) into ``_build/executed/``, writes the status page (:func:`status_page`),
copies the book's configuration there with notebook execution switched off, and renders
``_build/html`` from the executed copies. The terminal shows one line (or, on a terminal, one
progress bar) per chapter and a closing table; what the kernels and Sphinx print goes to logs
under ``_build/logs/``. A failing cell fails the build and is reported in a few lines (chapter,
cell, error, log), and so does any Sphinx warning (``-W``).
"""
from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import json
import keyword
import os
import platform
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

import yaml

__all__ = ["STATUS_PAGE", "KEY_PACKAGES", "BuildError", "repo_root", "toc_entries",
           "chapter_source", "is_notebook", "resolve_chapter", "declared_parameters", "check_parameters",
           "ExecutionResult", "failure_summary", "inputs_digest", "executed_copy_is_current", "execute_chapter", "execute_all", "render", "status_page",
           "warm_ledger", "build", "preview"]

from credalbook.book.paths import repo_root  # noqa: E402  (the ground floor: no import of the book)
from credalbook.book.experiments.registry import PROFILES, check_profile  # noqa: E402  (the one declaration)
STATUS_PAGE = "chapters/status"
"""The toc entry whose executed copy :func:`build` replaces with :func:`status_page`."""
KEY_PACKAGES = ("numpy", "pandas", "scipy", "scikit-learn", "sympy", "matplotlib",
                "jupyter-book", "myst-nb", "sphinx", "papermill", "nbval")
"""The packages whose versions the status page reports (:func:`status_page`)."""


class BuildError(RuntimeError):
    """A chapter failed to execute or the HTML failed to render (the message says which and where)."""


def toc_entries(root: Path) -> list[str]:
    """Every document of ``_toc.yml`` in reading order (root first), without suffix."""
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    entries = [toc["root"]]

    def walk(node):
        for key in ("parts", "chapters", "sections"):
            for child in node.get(key, []) or []:
                if "file" in child:
                    entries.append(child["file"])
                walk(child)

    walk(toc)
    return entries


def chapter_source(root: Path, entry: str) -> Path:
    path = root / f"{entry}.md"
    if not path.is_file():
        raise FileNotFoundError(f"_toc.yml names {entry!r} but {path} does not exist")
    return path


def is_notebook(path: Path) -> bool:
    head = path.read_text(encoding="utf-8")[:600]
    return head.startswith("---") and "kernelspec" in head


def resolve_chapter(root: Path, name: str) -> str:
    """Accept ``chapters/accuracy/betting``, ``accuracy/betting`` or a unique stem like ``betting``."""
    entries = toc_entries(root)
    name = name.removesuffix(".md").removesuffix(".ipynb")
    matches = [e for e in entries if e == name or e.endswith("/" + name)]
    if len(matches) != 1:
        known = ", ".join(entries)
        raise ValueError(f"chapter {name!r} matches {len(matches)} entries of _toc.yml; known: {known}")
    return matches[0]


def declared_parameters(root: Path, entry: str) -> dict[str, Any]:
    """The chapter's parameters (the assignments of its cell tagged ``parameters``) and their defaults."""
    import jupytext

    source = chapter_source(root, entry)
    if not is_notebook(source):
        return {}
    for cell in jupytext.read(source).cells:
        if "parameters" in cell.get("metadata", {}).get("tags", []):
            declared = {}
            for node in ast.parse(cell.source).body:
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    declared[node.targets[0].id] = ast.literal_eval(node.value)
            return declared
    return {}


def check_parameters(root: Path, entry: str, given: dict[str, Any]) -> dict[str, Any]:
    """``given`` checked against the chapter's declared parameters: names, types, and ``profile`` in :data:`~credalbook.book.experiments.registry.PROFILES`."""
    declared = declared_parameters(root, entry)
    checked = {}
    for name, value in given.items():
        if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
            raise ValueError(f"parameter name {name!r} is not a Python identifier")
        if name not in declared:
            raise ValueError(f"{entry} declares no parameter {name!r}; its parameters: "
                             f"{', '.join(declared) or 'none'}")
        if name == "profile":
            check_profile(value)
        default = declared[name]
        expected = (int, float) if isinstance(default, float) else type(default)
        if default is not None and (not isinstance(value, expected) or isinstance(value, bool) != isinstance(default, bool)):
            raise ValueError(f"parameter {name!r} of {entry} takes a {type(default).__name__} "
                             f"(default {default!r}), got {value!r}")
        checked[name] = value
    return checked


@dataclass
class ExecutionResult:
    """One document of the build: ``status`` is ``ok``, ``failed`` or ``page`` (plain markdown, not executed)."""

    chapter: str
    seconds: float
    output: Path
    status: str = "ok"
    error: str = ""
    log: Path | None = None


@contextmanager
def _output_to(log: Path):
    """Send this process's file descriptors 1 and 2 (and so the kernel's) to ``log`` for the block."""
    log.parent.mkdir(parents=True, exist_ok=True)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with open(log, "w", encoding="utf-8") as handle:
        os.dup2(handle.fileno(), 1)
        os.dup2(handle.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])


def failure_summary(error: Exception, source: Path | None = None, max_source_lines: int = 6) -> str:
    """A few lines for a failed chapter: where the failing cell is, its first lines, and the error.

    With the chapter's ``source`` file the cell is located by its line there (``broken.md, line
    17, code cell 2``); papermill's error carries the cell's code, name and message.
    """
    code = str(getattr(error, "source", "") or "").strip()
    name, value = getattr(error, "ename", type(error).__name__), getattr(error, "evalue", str(error))
    where = "cell"
    if code and source is not None:
        text = source.read_text(encoding="utf-8")
        offset = text.find(code)
        if offset >= 0:
            line = text.count("\n", 0, offset) + 1
            where = f"{source.name}, line {line}, code cell {text.count('{code-cell}', 0, offset)}"
    lines = [f"{where}:"]
    code_lines = code.splitlines()
    lines += [f"    {line}" for line in code_lines[:max_source_lines]]
    if len(code_lines) > max_source_lines:
        lines.append(f"    ... ({len(code_lines) - max_source_lines} more lines)")
    message = str(value).strip().splitlines()
    lines.append(f"{name}: {message[0] if message else ''}")
    return "\n".join(lines)


def execute_chapter(root: Path, entry: str, parameters: dict, out_dir: Path,
                    log_dir: Path | None = None) -> ExecutionResult:
    """Execute one chapter with papermill; plain markdown pages are copied unchanged.

    With ``log_dir`` what the kernel prints goes to ``log_dir/<entry>.log`` and a failing cell
    gives a result with status ``failed`` and a :func:`failure_summary`; without it, errors raise.
    """
    import jupytext
    import nbformat
    import papermill

    source = chapter_source(root, entry)
    start = time.perf_counter()
    if not is_notebook(source):
        target = out_dir / f"{entry}.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
        return ExecutionResult(entry, 0.0, target, status="page")
    target = out_dir / f"{entry}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    notebook = jupytext.read(source)
    stamp = {"inputs": inputs_digest(root, entry, parameters), "parameters": parameters}
    os.environ["TQDM_DISABLE"] = "1"  # progress bars belong to the terminal, not to the pages
    options = dict(parameters=parameters, kernel_name="python3", cwd=str(source.parent), progress_bar=False,
                   request_save_on_cell_execute=False)
    if log_dir is None:
        executed = papermill.execute_notebook(notebook, str(target), **options)
    else:
        log = log_dir / f"{entry}.log"
        try:
            with _output_to(log):
                executed = papermill.execute_notebook(notebook, str(target), **options)
        except Exception as error:  # noqa: BLE001 - every failure becomes a reported chapter
            return ExecutionResult(entry, time.perf_counter() - start, target, status="failed",
                                   error=failure_summary(error, source), log=log)
    _hide_parameter_cells(executed)
    executed.cells.insert(0, nbformat.v4.new_markdown_cell(_reader_note(root, entry), metadata={"tags": ["remove-cell"]}))
    executed.metadata["credalbook"] = stamp
    nbformat.write(executed, str(target))
    return ExecutionResult(entry, time.perf_counter() - start, target, log=None if log_dir is None else log)


#: What a chapter's execution reads besides its own source: the package and the data.
EXECUTION_INPUTS = ("credalbook", "data")


def _tree_digest(root: Path) -> str:
    """sha256 over the names and bytes of every file under :data:`EXECUTION_INPUTS` (caches excluded).

    The bytes are read again only when a file's name, size or modification time changed.
    """
    files = sorted(path for folder in EXECUTION_INPUTS for path in (root / folder).rglob("*")
                   if path.is_file() and "__pycache__" not in path.parts and path.suffix not in {".pyc", ".nbi", ".nbc"})
    signature = tuple((path.relative_to(root).as_posix(), path.stat().st_size, path.stat().st_mtime_ns)
                      for path in files)
    return _hash_files(root, signature)


@functools.lru_cache(maxsize=8)
def _hash_files(root: Path, signature: tuple) -> str:
    digest = hashlib.sha256()
    for name, _, _ in signature:
        digest.update(name.encode())
        digest.update((root / name).read_bytes())
    return digest.hexdigest()


def inputs_digest(root: Path, entry: str, parameters: dict) -> str:
    """sha256 of everything a chapter's execution depends on: its source, its parameters, the package and the data.

    :func:`execute_chapter` stamps it into the executed notebook; the chapter tests
    (``conftest.py``) read ``make book``'s executed copy instead of executing the chapter again
    when the stamp matches (:func:`executed_copy_is_current`).
    """
    digest = hashlib.sha256(chapter_source(root, entry).read_bytes())
    digest.update(json.dumps(parameters, sort_keys=True).encode())
    digest.update(_tree_digest(root).encode())
    return digest.hexdigest()


def executed_copy_is_current(root: Path, entry: str, notebook, parameters: dict) -> bool:
    """Whether ``notebook`` (an executed copy of ``entry``) was executed from today's inputs with ``parameters``."""
    stamp = notebook.get("metadata", {}).get("credalbook", {})
    return stamp.get("inputs") == inputs_digest(root, entry, parameters)


def _reader_note(root: Path, entry: str) -> str:
    """The first cell of a page's executed notebook (what the page's download button offers): what
    running it needs. The rendered page removes it (``remove-cell``)."""
    import tomllib
    from importlib.metadata import metadata

    pyproject = root / "pyproject.toml"
    python = (tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["requires-python"] if pyproject.is_file()
              else metadata("credalbook")["Requires-Python"])  # a book outside a checkout: the installed package's
    folder = Path(entry).parent.as_posix()
    return (f"**This notebook is the page `{entry}` of credalbook, executed.** To run it again you need a clone "
            f"of the repository (`git clone https://github.com/credalbook/credalbook.git`) and Python "
            f"{python.removeprefix('>=')} or newer: `make venv` in the clone installs the package and its tested "
            f"dependencies into `.venv/`. Open the notebook from the clone's `{folder}/` folder with that `.venv` "
            "as its kernel: its code imports `credalbook` and reads the repository's `data/`. The first code cell "
            "sets `profile` (`\"ci\"`, a reduced re-run checked against the stored results, or `\"full\"`). In "
            "plain Jupyter the `{glue}` numbers and `{cite}` references of the text show as written: only the "
            "book's renderer fills them in. The page *Re-run this book* (`chapters/rerun.md`) says more.")


def _hide_parameter_cells(notebook) -> None:
    """Remove the parameter cells (the default and papermill's injected one) from the page: the
    page says which profile ran in its own words (``Experiment.describe``, ``describe_run``)."""
    for cell in notebook.cells:
        tags = cell.get("metadata", {}).get("tags", [])
        if ("parameters" in tags or "injected-parameters" in tags) and "remove-cell" not in tags:
            cell.metadata["tags"] = [*tags, "remove-cell"]


@contextlib.contextmanager
def _shared_checks(folder: Path):
    """One build's pages share their experiments' ci checks in ``folder``, emptied first (see
    :data:`credalbook.book.experiments.registry.SHARED_CHECKS`)."""
    from credalbook.book.experiments.registry import SHARED_CHECKS

    if folder.exists():
        shutil.rmtree(folder)
    previous = os.environ.get(SHARED_CHECKS)
    os.environ[SHARED_CHECKS] = str(folder)
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(SHARED_CHECKS, None)
        else:
            os.environ[SHARED_CHECKS] = previous


def _execute_star(args):
    return execute_chapter(*args)


def _relative(path: Path | None, root: Path) -> str:
    if path is None:
        return ""
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


class _Progress:
    """One line per finished chapter, or one tqdm bar on a terminal (failures always get their lines)."""

    def __init__(self, total: int, root: Path):
        from tqdm import tqdm

        self.total, self.done, self.root = total, 0, root
        self.bar = tqdm(total=total, desc="executing", unit="doc", file=sys.stderr) if sys.stderr.isatty() else None

    def update(self, result: ExecutionResult) -> None:
        self.done += 1
        mark = {"ok": "ok", "page": "page", "failed": "FAILED"}[result.status]
        line = f"[{self.done:{len(str(self.total))}d}/{self.total}] {result.seconds:7.1f} s  {mark:6s}  {result.chapter}"
        report = [line]
        if result.status == "failed":
            report += [f"    {row}" for row in result.error.splitlines()]
            report.append(f"    log: {_relative(result.log, self.root)}; "
                          f"notebook: {_relative(result.output, self.root)}")
        if self.bar is None:
            print("\n".join(report), flush=True)
        else:
            if result.status == "failed":
                self.bar.write("\n".join(report))
            self.bar.set_postfix_str(f"{mark} {result.chapter}", refresh=False)
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def execute_all(root: Path, parameters: dict, out_dir: Path, jobs: int = 1,
                log_dir: Path | None = None) -> list[ExecutionResult]:
    """Execute every toc document in ``jobs`` worker processes; results in the book's order."""
    entries = toc_entries(root)
    log_dir = log_dir or root / "_build" / "logs"
    progress = _Progress(len(entries), root)
    results: dict[str, ExecutionResult] = {}
    try:
        with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = {pool.submit(_execute_star, (root, e, parameters, out_dir, log_dir)): e for e in entries}
            for future in as_completed(futures):
                result = future.result()
                results[result.chapter] = result
                progress.update(result)
    finally:
        progress.close()
    return [results[e] for e in entries]


def _copy_book_files(root: Path, out_dir: Path) -> None:
    """Config, toc and every non-chapter asset under chapters/ (images, bib files)."""
    config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))
    config.setdefault("execute", {})["execute_notebooks"] = "off"
    (out_dir / "_config.yml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    shutil.copy2(root / "_toc.yml", out_dir / "_toc.yml")
    for name in config.get("bibtex_bibfiles", []):
        shutil.copy2(root / name, out_dir / name)
    for path in (root / "chapters").rglob("*"):
        if path.is_file() and path.suffix not in {".md", ".ipynb", ".pyc"} and "__pycache__" not in path.parts:
            target = out_dir / path.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)


def render(root: Path, executed: Path, log: Path | None = None, *, output: Path | None = None,
           strict: bool = True, nitpicky: bool = False) -> Path:
    """Render ``executed`` with jupyter-book into ``output/_build/html`` (default ``root``).

    With ``nitpicky`` every cross-reference must resolve; with ``strict`` warnings are errors. Sphinx's output goes to ``log``
    (default ``_build/logs/render.log``); on failure a :class:`BuildError` quotes its warnings and
    errors and names the log.
    """
    output = output or root
    html = output / "_build" / "html"
    if html.exists():
        shutil.rmtree(html)
    log = log or root / "_build" / "logs" / "render.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    jb = Path(sys.executable).with_name("jupyter-book")
    command = [str(jb), "build", str(executed), "--path-output", str(output), "--keep-going"]
    command += ["-W"] if strict else []
    command += ["-n"] if nitpicky else []
    with open(log, "w", encoding="utf-8") as handle:
        completed = subprocess.run(command, stdout=handle, stderr=subprocess.STDOUT, check=False)
    if completed.returncode != 0:
        problems = [line for line in _render_problems(log)][:15]
        raise BuildError("rendering the HTML failed:\n" + "\n".join(f"    {p}" for p in problems)
                         + f"\n    log: {_relative(log, root)}")
    return html


def _render_problems(log: Path) -> list[str]:
    """The warning and error lines of a Sphinx log, without terminal colours."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", log.read_text(encoding="utf-8", errors="replace"))
    return [line for line in text.splitlines() if "WARNING" in line or "ERROR" in line or "Error" in line]


def preview(entries: list[str], out: str | os.PathLike, profile: str = "ci",
            root: str | os.PathLike | None = None) -> Path:
    """Execute some chapters and render only them into ``out/_build/html``, apart from ``_build``.

    For editing a page: the other pages are not built, so links to them are not checked (every
    other warning is reported, and fails the preview); ``make book`` checks the whole book.
    """
    check_profile(profile)
    root = repo_root(root)
    entries = [resolve_chapter(root, e) for e in entries]
    if not entries:
        raise ValueError("preview needs at least one chapter")
    out = Path(out).resolve()
    executed, logs = out / "executed", out / "logs"
    for folder in (executed, logs):
        if folder.exists():
            shutil.rmtree(folder)
    executed.mkdir(parents=True)
    failed = []
    with _shared_checks(out / "checks"):
        for entry in entries:
            given = {"profile": profile} if "profile" in declared_parameters(root, entry) else {}
            result = execute_chapter(root, entry, check_parameters(root, entry, given), executed,
                                     log_dir=logs)
            print(f"{result.seconds:7.1f} s  {result.status:6s}  {entry}", flush=True)
            if result.status == "failed":
                failed.append(result)
                print("\n".join(f"    {row}" for row in result.error.splitlines()), flush=True)
    if failed:
        raise BuildError(f"{len(failed)} chapter(s) failed: " + ", ".join(r.chapter for r in failed))
    _copy_book_files(root, executed)
    # citations resolve only where a bibliography is rendered: the book's page comes along
    bibliography = "chapters/bibliography"
    if bibliography not in entries and chapter_source(root, bibliography).is_file():
        execute_chapter(root, bibliography, {}, executed)
        entries = [*entries, bibliography]
    toc = {"format": "jb-book", "root": entries[0], "chapters": [{"file": e} for e in entries[1:]]}
    (executed / "_toc.yml").write_text(yaml.safe_dump(toc, sort_keys=False), encoding="utf-8")
    log = logs / "render.log"
    html = render(root, executed, log, output=out, strict=False, nitpicky=True)
    outside = ("unknown document", "undefined label", "term not in glossary", "citation not found",
               "equation not found")  # an {eq} of another page
    problems = [p for p in _render_problems(log) if not any(o in p for o in outside)]
    if problems:
        raise BuildError("the preview rendered with warnings:\n" + "\n".join(f"    {p}" for p in problems[:25])
                         + f"\n    log: {log}")
    return html


# ----------------------------------------------------------------------------------------------
# The status page
# ----------------------------------------------------------------------------------------------

def _stored_results(root: Path) -> list[dict]:
    """The provenance records of ``data/results``, sorted by name."""
    records = []
    for path in sorted((root / "data" / "results").glob("*.provenance.json")):
        records.append(json.loads(path.read_text(encoding="utf-8")))
    return records


def _cached_share(record: dict) -> str:
    if "grid_cells" in record and record["grid_cells"]:
        return f"{record['cached_cells']} of {record['grid_cells']} cells"
    if "resume" in record.get("note", "") or "cache" in record.get("note", ""):
        return "resumed (see note)"
    return "not recorded"


def _book_commit(root: Path) -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True,
                              cwd=root).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def status_page(results: list[ExecutionResult], profile: str, jobs: int, root: Path, preamble: str) -> str:
    """The status page's markdown: how each chapter ran, the stored results' provenance, the environment."""
    executed = [r for r in results if r.status != "page"]
    chapter_rows = [[f"{{doc}}`/{r.chapter}`", profile, f"{r.seconds:.1f}", r.status] for r in executed]
    total = sum(r.seconds for r in executed)
    records = _stored_results(root)
    # a result's name may break after an underscore (a zero-width space; code would not wrap), and the day is the
    # date: the table fits the column
    result_rows = [[m["name"].replace("_", "\\_" + chr(0x200B)), f"`{m['commit']}`", str(m["date"]).split(" ")[0],
                    m["profile"], f"{m['rows']:,}", f"{m['runtime_seconds']:,.0f}", _cached_share(m)] for m in records]
    notes = [f"- `{m['name']}`: {m['note']}" for m in records if m.get("note")]
    environment = [["Python", platform.python_version()], ["platform", f"{platform.system()} {platform.machine()}"],
                   ["processors", str(os.cpu_count())]] + [[p, _version(p)] for p in KEY_PACKAGES]
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    parts = [preamble.rstrip(), "",
             f"This build ran on {now} from commit `{_book_commit(root)}`, in the **{profile}** profile with "
             f"{jobs} worker(s): {len(executed)} notebooks executed in {total:,.0f} s of worker time, "
             f"{sum(r.status == 'ok' for r in executed)} without error.", "",
             "## Chapters", "", _table(["chapter", "profile", "seconds", "status"], chapter_rows), "",
             "## Stored results", "",
             "Full-scale results are made by `make reproduce` from a committed tree; the chapters show them "
             "and, in the ci profile, recompute a subset and check it against them. *Cached* is the share "
             "of grid cells a run read from the per-cell cache rather than computed.", "",
             _table(["result", "commit", "date", "profile", "rows", "runtime (s)", "cached"], result_rows), ""]
    if notes:
        parts += ["Notes of the records:", "", *notes, ""]
    parts += ["## Environment", "", _table(["", "version"], environment), ""]
    return "\n".join(parts)


def _closing_table(results: list[ExecutionResult], root: Path) -> str:
    executed = [r for r in results if r.status != "page"]
    failed = [r for r in executed if r.status == "failed"]
    width = max(len(r.chapter) for r in results)
    lines = [f"{'chapter':{width}s}  {'seconds':>8s}  status"]
    lines += [f"{r.chapter:{width}s}  {r.seconds:8.1f}  {r.status}" for r in results]
    lines.append(f"{len(executed)} notebooks: {len(executed) - len(failed)} ok, {len(failed)} failed; "
                 f"{sum(r.seconds for r in executed):,.0f} s of worker time; logs in _build/logs/")
    return "\n".join(lines)


def warm_ledger() -> None:
    """Evaluate the reproduction ledger once, before the chapters (each page then reads it from the cache)."""
    from credalbook.book import ledger

    start = time.perf_counter()
    print("[credalbook] evaluating the reproduction ledger (once per version of its inputs) ...", flush=True)
    table = ledger.evaluated()
    counted = table[~table["entry"].str.startswith("reading")]
    print(f"[credalbook] ledger: {len(counted):,} entries ({(counted['entry'] == 'claim').sum()} claims, "
          f"{(counted['entry'] == 'table').sum():,} published cells) in {time.perf_counter() - start:.0f} s",
          flush=True)


def build(profile: str = "ci", jobs: int = 1, extra_parameters: dict | None = None,
          root: str | os.PathLike | None = None) -> Path:
    """Execute every chapter (``jobs`` at once), write the status page and render ``_build/html``.

    Raises :class:`BuildError` when a chapter fails (after every chapter has run, so that one
    build reports every failure) or when rendering fails.
    """
    check_profile(profile)
    root = repo_root(root)
    executed = root / "_build" / "executed"
    logs = root / "_build" / "logs"
    for folder in (executed, logs):
        if folder.exists():
            shutil.rmtree(folder)
    executed.mkdir(parents=True)
    parameters = {"profile": profile, **(extra_parameters or {})}
    if (root / "data" / "paper" / "claims").is_dir():
        warm_ledger()
    start = time.perf_counter()
    print(f"[credalbook] executing the chapters (profile {profile}, {jobs} at once; kernel output in _build/logs/)",
          flush=True)
    with _shared_checks(root / "_build" / "checks"):
        results = execute_all(root, parameters, executed, jobs=jobs, log_dir=logs)
    wall = time.perf_counter() - start
    (root / "_build" / "chapter_timings.csv").write_text(
        "chapter,seconds,status\n" + "".join(f"{r.chapter},{r.seconds:.1f},{r.status}\n" for r in results),
        encoding="utf-8")
    (root / "_build" / "status.json").write_text(json.dumps(
        {"profile": profile, "jobs": jobs, "wall_seconds": round(wall, 1),
         "chapters": [{**asdict(r), "output": _relative(r.output, root), "log": _relative(r.log, root)}
                      for r in results]}, indent=2) + "\n", encoding="utf-8")
    print(_closing_table(results, root), flush=True)
    failed = [r for r in results if r.status == "failed"]
    if failed:
        raise BuildError(f"{len(failed)} chapter(s) failed: " + ", ".join(r.chapter for r in failed)
                         + " (their cells and errors are above; the HTML was not rendered)")
    if STATUS_PAGE in {r.chapter for r in results}:
        page = executed / f"{STATUS_PAGE}.md"
        page.write_text(status_page(results, profile, jobs, root, chapter_source(root, STATUS_PAGE).read_text(
            encoding="utf-8")), encoding="utf-8")
    _copy_book_files(root, executed)
    print("[credalbook] rendering the HTML (jupyter-book, warnings are errors; log in _build/logs/render.log)",
          flush=True)
    render_start = time.perf_counter()
    html = render(root, executed, nitpicky=True)
    print(f"[credalbook] executed in {wall:.0f} s, rendered in {time.perf_counter() - render_start:.0f} s: "
          f"{_relative(html / 'index.html', root)}", flush=True)
    return html
