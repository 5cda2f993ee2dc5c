"""A sampled mutation run over the library's core modules: can the tests fail? (issue 27; ``make mutation``).

For each module, every operator and small constant the mutator knows is a *mutation point*:
arithmetic (``+``/``-``, ``*``/``/``), comparisons (``<``/``<=``, ``>``/``>=``, ``==``/``!=``),
boolean ``and``/``or``, and numeric constants (0 → 1, 1 → 0, others doubled). A seeded sample of
points is applied one at a time to a copy of the commit (a ``git worktree``, so the checkout is
never touched) and the test files of that commit that import the module are run there (they must
pass on the unmutated copy first, or the run stops); a mutant is *killed* when they fail. Survivors are listed with their line: kill each with a test that checks a value,
or argue it equivalent in ``tests/mutation_equivalent.yml`` (module, line, mutation, why).

    python scripts/mutation.py --modules costs costspace --sample 20 --seed 0 --out mutation.csv
"""
from __future__ import annotations

import argparse
import ast
import csv
import random
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ("metrics", "sets", "costs", "certainty", "costspace", "lenses", "risk_aversion")
SWAPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.Lt: ast.LtE, ast.LtE: ast.Lt,
         ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.And: ast.Or, ast.Or: ast.And}


@dataclass(frozen=True)
class Mutant:
    module: str
    index: int
    line: int
    description: str


def _points(tree: ast.AST) -> list[tuple[ast.AST, str]]:
    """(node, what changes) for every mutation point outside docstrings."""
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    points = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.BinOp, ast.BoolOp)) and type(node.op) in SWAPS:
            points.append((node, f"{type(node.op).__name__} -> {SWAPS[type(node.op)].__name__}"))
        elif isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in SWAPS:
            points.append((node, f"{type(node.ops[0]).__name__} -> {SWAPS[type(node.ops[0])].__name__}"))
        elif (isinstance(node, ast.Constant) and id(node) not in docstrings and not isinstance(node.value, bool)
              and isinstance(node.value, (int, float))):
            points.append((node, f"constant {node.value!r} -> {_new_constant(node.value)!r}"))
    return points


def _new_constant(value):
    if value == 0:
        return 1
    return 0 if value == 1 else value * 2


def mutate(source: str, index: int) -> tuple[str, int, str]:
    """The source with mutation point ``index`` applied, its line and description."""
    tree = ast.parse(source)
    node, description = _points(tree)[index]
    if isinstance(node, (ast.BinOp, ast.BoolOp)):
        node.op = SWAPS[type(node.op)]()
    elif isinstance(node, ast.Compare):
        node.ops = [SWAPS[type(node.ops[0])]()]
    else:
        node.value = _new_constant(node.value)
    return ast.unparse(tree), node.lineno, description


def test_files(module: str, root: Path = ROOT) -> list[str]:
    """The test files of the tree ``root`` that import the module (``from credalbook import module`` or
    ``credalbook.module``), relative to ``root``: the mutated worktree's own, never the checkout's
    uncommitted files."""
    files = []
    for path in sorted((root / "tests").glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            imported = ((isinstance(node, ast.ImportFrom) and node.module == "credalbook"
                         and any(alias.name == module for alias in node.names))
                        or (isinstance(node, ast.ImportFrom) and node.module == f"credalbook.{module}")
                        or (isinstance(node, ast.Import) and any(a.name == f"credalbook.{module}" for a in node.names)))
            if imported:
                files.append(str(path.relative_to(root)))
                break
    return files


def _pytest(tests: list[str], tree: Path, home: str, timeout: float):
    """Run ``tests`` in the worktree ``tree`` (pytest's completed process)."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:xdist", "-p", "no:cacheprovider", "--no-header", *tests],
        cwd=tree, capture_output=True, text=True, timeout=timeout,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "CREDALBOOK_SKIP_NBVAL": "1", "HOME": home})


def run(modules, sample: int, seed: int, timeout: float) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), "HEAD"], check=True)
        try:
            for module in modules:
                path = tree / "credalbook" / f"{module}.py"
                original = path.read_text(encoding="utf-8")
                count = len(_points(ast.parse(original)))
                chosen = sorted(random.Random(f"{seed}:{module}").sample(range(count), min(sample, count)))
                tests = test_files(module, tree)
                baseline = _pytest(tests, tree, folder, timeout)
                if baseline.returncode != 0:  # a missing file or a failing test would make every mutant "killed"
                    raise RuntimeError(f"the tests of {module} do not pass on the unmutated commit (pytest exit "
                                       f"{baseline.returncode}), so no mutant can be judged: {baseline.stdout[-400:]}")
                for index in chosen:
                    source, line, description = mutate(original, index)
                    path.write_text(source, encoding="utf-8")
                    try:
                        killed = _pytest(tests, tree, folder, timeout).returncode != 0
                    except subprocess.TimeoutExpired:
                        killed = True  # a mutant that makes the tests hang is caught
                    rows.append({"module": module, "index": index, "line": line, "mutation": description,
                                 "killed": killed})
                    print(f"{module}:{line} {description}: {'killed' if killed else 'SURVIVED'}", flush=True)
                path.write_text(original, encoding="utf-8")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", nargs="+", default=list(CORE), choices=CORE)
    parser.add_argument("--sample", type=int, default=20, help="mutants per module")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds for one mutant's tests")
    parser.add_argument("--out", default="mutation.csv")
    args = parser.parse_args(argv)
    if args.sample < 1:
        parser.error("--sample must be at least 1")
    rows = run(args.modules, args.sample, args.seed, args.timeout)
    with open(args.out, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["module", "index", "line", "mutation", "killed"])
        writer.writeheader()
        writer.writerows(rows)
    for module in args.modules:
        done = [row for row in rows if row["module"] == module]
        print(f"{module}: {sum(row['killed'] for row in done)}/{len(done)} killed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
