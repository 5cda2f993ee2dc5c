"""Command line: ``python -m credalbook {list,run,build,reproduce}`` (also ``credalbook ...``)."""
from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path


def _parse_value(text: str):
    """``-p name value``: numbers, booleans, lists... as Python literals, else the string."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _cmd_list(args) -> int:
    from credalbook.book import repo_root, toc_entries

    if args.what in ("chapters", "all"):
        print("chapters (in reading order):")
        for entry in toc_entries(repo_root()):
            print(f"  {entry}")
    if args.what in ("datasets", "all"):
        from credalbook import data

        print("datasets:")
        for row in data.list_datasets().itertuples():
            print(f"  {row.name:28s} {row.groups:32s} {'available' if row.available else 'MISSING'}")
    if args.what in ("experiments", "all"):
        from credalbook.experiments.registry import discover

        print("experiments (make reproduce):")
        for name, experiment in sorted(discover().items()):
            print(f"  {name:28s} {experiment.description}")
    return 0


def _cmd_run(args) -> int:
    from credalbook.book import execute_chapter, repo_root, resolve_chapter

    root = repo_root()
    entry = resolve_chapter(root, args.chapter)
    parameters = {"profile": args.profile}
    parameters.update({name: _parse_value(value) for name, value in args.parameter or []})
    result = execute_chapter(root, entry, parameters, root / "_build" / "executed")
    print(f"executed {entry} in {result.seconds:.1f} s -> {result.output}")
    return 0


def _cmd_build(args) -> int:
    from credalbook.book import build

    build(profile=args.profile, jobs=args.jobs)
    return 0


def _cmd_reproduce(args) -> int:
    from credalbook.experiments.registry import discover, run_experiment
    from credalbook.experiments.store import results_path

    names = args.only or sorted(discover())
    for name in names:
        print(f"[reproduce] {name} (profile {args.profile}) ...", flush=True)
        frame = run_experiment(name, profile=args.profile)
        print(f"[reproduce] {name}: {len(frame)} rows -> {results_path(name)}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="credalbook", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("list", help="list chapters, datasets and experiments")
    p.add_argument("what", nargs="?", default="all", choices=["all", "chapters", "datasets", "experiments"])
    p.set_defaults(func=_cmd_list)

    p = sub.add_parser("run", help="execute one chapter with papermill into _build/executed/")
    p.add_argument("chapter", help="a _toc.yml entry or a unique chapter name, e.g. betting")
    p.add_argument("--profile", default="ci", choices=["ci", "full"])
    p.add_argument("-p", "--parameter", nargs=2, action="append", metavar=("NAME", "VALUE"),
                   help="papermill parameter (repeatable), value read as a Python literal when possible")
    p.set_defaults(func=_cmd_run)

    p = sub.add_parser("build", help="execute every chapter and render the HTML book in _build/html")
    p.add_argument("--profile", default="ci", choices=["ci", "full"])
    p.add_argument("--jobs", type=int, default=1, help="chapters executed at once")
    p.set_defaults(func=_cmd_build)

    p = sub.add_parser("reproduce", help="run registered experiments and store tidy CSVs in data/results/")
    p.add_argument("--profile", default="full", choices=["ci", "full"])
    p.add_argument("--only", nargs="*", help="experiment names (default: all)")
    p.set_defaults(func=_cmd_reproduce)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (FileNotFoundError, KeyError, ValueError) as error:
        print(f"credalbook: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
