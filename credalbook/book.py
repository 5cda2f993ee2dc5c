"""Execute the chapters with papermill and render the book with jupyter-book.

The chapters are MyST markdown notebooks (``chapters/**.md``). ``build`` converts each one
with jupytext, executes it with papermill (parameters injected after the cell tagged
``parameters``) into ``_build/executed/``, copies the book's configuration there with
notebook execution switched off, and renders ``_build/html`` from the executed copies.
A failing cell fails the build (papermill raises), and so does any Sphinx warning (``-W``).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import yaml

PROFILES = ("ci", "full")


def repo_root(start: Path | None = None) -> Path:
    """The book's top folder: the first ancestor of ``start`` (default: cwd) with a ``_toc.yml``."""
    candidates = [Path(start or Path.cwd()).resolve(), Path(__file__).resolve().parent.parent]
    for base in candidates:
        for folder in (base, *base.parents):
            if (folder / "_toc.yml").is_file():
                return folder
    raise FileNotFoundError(
        "no _toc.yml found above the current folder or the package: run from the book's checkout"
    )


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


@dataclass
class ExecutionResult:
    chapter: str
    seconds: float
    output: Path


def execute_chapter(root: Path, entry: str, parameters: dict, out_dir: Path) -> ExecutionResult:
    """Execute one chapter with papermill; plain markdown pages are copied unchanged."""
    import jupytext
    import nbformat
    import papermill

    source = chapter_source(root, entry)
    start = time.perf_counter()
    if not is_notebook(source):
        target = out_dir / f"{entry}.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
        return ExecutionResult(entry, 0.0, target)
    target = out_dir / f"{entry}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    notebook = jupytext.read(source)
    os.environ["TQDM_DISABLE"] = "1"  # progress bars belong to the terminal, not to the pages
    executed = papermill.execute_notebook(
        notebook,
        str(target),
        parameters=parameters,
        kernel_name="python3",
        cwd=str(source.parent),
        progress_bar=False,
        request_save_on_cell_execute=False,
    )
    _hide_default_parameters(executed)
    nbformat.write(executed, str(target))
    return ExecutionResult(entry, time.perf_counter() - start, target)


def _hide_default_parameters(notebook) -> None:
    """Show the parameters the page ran with (papermill's injected cell), not the defaults."""
    for cell in notebook.cells:
        tags = cell.get("metadata", {}).get("tags", [])
        if "parameters" in tags and "remove-cell" not in tags:
            cell.metadata["tags"] = [*tags, "remove-cell"]


def _execute_star(args):
    return execute_chapter(*args)


def execute_all(root: Path, parameters: dict, out_dir: Path, jobs: int = 1) -> list[ExecutionResult]:
    entries = toc_entries(root)
    tasks = [(root, e, parameters, out_dir) for e in entries]
    if jobs <= 1:
        results = []
        for task in tasks:
            print(f"[credalbook] executing {task[1]} ...", flush=True)
            results.append(execute_chapter(*task))
        return results
    # Longest-first is unknown in advance; keep the book's order.
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(_execute_star, tasks))
    return results


def _copy_book_files(root: Path, out_dir: Path) -> None:
    """Config, toc and every non-chapter asset under chapters/ (images, bib files)."""
    config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))
    config.setdefault("execute", {})["execute_notebooks"] = "off"
    (out_dir / "_config.yml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    shutil.copy2(root / "_toc.yml", out_dir / "_toc.yml")
    for path in (root / "chapters").rglob("*"):
        if path.is_file() and path.suffix not in {".md", ".ipynb", ".pyc"} and "__pycache__" not in path.parts:
            target = out_dir / path.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)


def render(root: Path, executed: Path) -> Path:
    """Render ``executed`` with jupyter-book into ``root/_build/html`` (warnings are errors)."""
    html = root / "_build" / "html"
    if html.exists():
        shutil.rmtree(html)
    jb = Path(sys.executable).with_name("jupyter-book")
    command = [str(jb), "build", str(executed), "--path-output", str(root), "-W", "--keep-going"]
    subprocess.run(command, check=True)
    return html


def build(profile: str = "ci", jobs: int = 1, extra_parameters: dict | None = None) -> Path:
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, got {profile!r}")
    root = repo_root()
    executed = root / "_build" / "executed"
    if executed.exists():
        shutil.rmtree(executed)
    executed.mkdir(parents=True)
    parameters = {"profile": profile, **(extra_parameters or {})}
    start = time.perf_counter()
    results = execute_all(root, parameters, executed, jobs=jobs)
    executed_seconds = time.perf_counter() - start
    lines = ["chapter,seconds"] + [f"{r.chapter},{r.seconds:.1f}" for r in results]
    (root / "_build" / "chapter_timings.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    _copy_book_files(root, executed)
    html = render(root, executed)
    print(f"[credalbook] executed {len(results)} documents in {executed_seconds:.0f} s (profile {profile});"
          f" timings in _build/chapter_timings.csv; book in {html}")
    for r in sorted(results, key=lambda r: -r.seconds)[:5]:
        print(f"[credalbook]   {r.seconds:7.1f} s  {r.chapter}")
    return html
