"""Command line: ``credalbook {list,datasets,fetch,run,build,preview,ledger,reproduce,bench}`` (also ``python -m credalbook ...``)."""
from __future__ import annotations

import argparse
import ast
import os
import platform
import re
import sys
import time
from contextlib import contextmanager
from pathlib import Path

try:
    from credalbook.book.experiments.registry import PROFILES
except ImportError:  # the library without the book's machinery: its commands say what they need when run
    PROFILES = None  # (no profile is checked: the command refuses first)

__all__ = ["build_parser", "main"]


def _positive_int(text: str) -> int:
    """An argparse type: an integer >= 1 (a usage error otherwise, before any work)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {text!r}")
    return value


def _positive_seconds(text: str) -> float:
    """An argparse type: a finite number of seconds > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds > 0, got {text!r}") from None
    if not (0 < value < float("inf")):
        raise argparse.ArgumentTypeError(f"must be a number of seconds > 0, got {text!r}")
    return value


class ClusterError(RuntimeError):
    """The cluster named by ``--scheduler`` could not be reached (the message says what to check)."""


def _parse_value(text: str):
    """``-p name value``: numbers, booleans, lists... as Python literals, else the string."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _cmd_list(args) -> int:
    from credalbook.book.build import repo_root, toc_entries

    if args.what in ("chapters", "all"):
        print("chapters (in reading order):")
        for entry in toc_entries(repo_root()):
            print(f"  {entry}")
    if args.what in ("datasets", "all"):
        _print_datasets(group=None)
    if args.what in ("experiments", "all"):
        from credalbook.book.experiments.registry import discover

        print("experiments (make reproduce):")
        for name, experiment in sorted(discover().items()):
            print(f"  {name:28s} {experiment.description}")
    return 0


def _print_datasets(group: str | None) -> int:
    """The table of :func:`credalbook.data.dataset_status` and a summary line; 1 if a checksum fails."""
    import pandas as pd

    from credalbook import data

    status = data.dataset_status(group)
    print(f"{'dataset':30s} {'group':13s} {'found in':10s} {'size':>9s}  checksum")
    for row in status.itertuples():
        size = "" if pd.isna(row.bytes) else f"{row.bytes / 1e3:,.0f} kB"
        print(f"{row.name:30s} {row.group:13s} {row.source:10s} {size:>9s}  {row.checksum}")
    found = status[~status["source"].isin(["missing", "not found"])]
    bad = status["checksum"].str.startswith("mismatch")
    folders = "; ".join(f"{source}: {folder}" for source, folder in
                        found[["source", "folder"]].drop_duplicates().itertuples(index=False))
    print(f"{len(found)} of {len(status)} datasets found ({folders}), "
          f"{found['bytes'].sum() / 1e6:.1f} MB; {int(bad.sum())} checksum mismatches; "
          f"{int((status['source'] == 'missing').sum())} missing everywhere; "
          f"{int((status['source'] == 'not found').sum())} not on this machine (`credalbook fetch NAME`)")
    return 1 if bad.any() else 0


def _cmd_datasets(args) -> int:
    return _print_datasets(args.group)


def _cmd_fetch(args) -> int:
    from credalbook import data

    if args.all == bool(args.names):
        raise ValueError("fetch takes dataset names or --all, not both and not neither")
    table = data.registry()
    if args.all:
        table = table[(table["status"] != "missing") & ((table["urls"] != "") | (args.base_url is not None))]
        if args.group:
            table = table[table["group"] == args.group]
        targets = list(table.drop_duplicates("files")[["name", "group"]].itertuples(index=False, name=None))
    else:
        unknown = []
        for name in args.names:  # every name checked before any download
            try:
                data._entry(name, args.group)
            except data.DatasetNotFoundError:
                unknown.append(name)
        if unknown:
            where = f" in group {args.group!r}" if args.group else ""
            raise ValueError(f"no dataset named {', '.join(map(repr, unknown))}{where}: nothing fetched "
                             "(`credalbook datasets` lists the names)")
        targets = [(name, args.group) for name in args.names]
    failures = 0
    for name, group in targets:
        try:
            paths = data.fetch(name, group, force=args.force, base_url=args.base_url)
        except (data.DatasetNotFoundError, data.ChecksumError, data.DownloadError) as error:
            failures += 1
            print(f"refused  {name}: {error}", file=sys.stderr)
            continue
        size = sum(p.stat().st_size for p in paths)
        print(f"ok       {name}: {len(paths)} file(s), {size / 1e3:,.0f} kB, sha256 verified")
    print(f"{len(targets) - failures} of {len(targets)} datasets in the download cache {data.cache_dir()}")
    return 1 if failures else 0


def _cmd_ledger(args) -> int:
    from credalbook.book import ledger

    table = ledger.ledger(args.paper, args.verdict, readings=args.readings)
    if args.format == "csv":
        table.to_csv(sys.stdout, index=False)
        return 0
    if args.format == "md":
        print(ledger.markdown_table(table))
        return 0
    for row in table.itertuples():
        print(f"{row.verdict:16s} {row.id[:60]:60s} paper {row.published[:14]:14s} book {row.book[:14]}")
    print()
    print(ledger.counts(table).to_string())
    return 0


def _cmd_run(args) -> int:
    from credalbook.book.build import check_parameters, execute_chapter, repo_root, resolve_chapter

    root = repo_root()
    entry = resolve_chapter(root, args.chapter)
    given = {"profile": args.profile}
    given.update({name: _parse_value(value) for name, value in args.parameter or []})
    parameters = check_parameters(root, entry, given)
    result = execute_chapter(root, entry, parameters, root / "_build" / "executed", log_dir=root / "_build" / "logs")
    if result.status == "failed":
        print(f"credalbook: {entry} failed after {result.seconds:.1f} s", file=sys.stderr)
        print("\n".join(f"    {line}" for line in result.error.splitlines()), file=sys.stderr)
        print(f"    log: {result.log}; notebook: {result.output}", file=sys.stderr)
        return 1
    print(f"executed {entry} in {result.seconds:.1f} s -> {result.output}")
    return 0


def _cmd_build(args) -> int:
    from credalbook.book.build import build

    build(profile=args.profile, jobs=args.jobs)
    return 0


def _cmd_preview(args) -> int:
    from credalbook.book.build import preview

    html = preview(args.chapters, args.out, profile=args.profile)
    print(f"preview: {html / 'index.html'}")
    return 0


def _check_cluster(backend: str, scheduler: str | None) -> None:
    """Check ``--backend`` / ``--scheduler`` before any work: the backend's package and the address's form."""
    if scheduler is not None and backend not in ("dask", "ray"):
        raise ValueError(f"--scheduler needs --backend dask or ray, not --backend {backend}")
    if backend == "dask":
        import importlib.util

        if importlib.util.find_spec("distributed") is None:
            raise ValueError("--backend dask needs the 'distributed' package (pip install distributed)")
        if scheduler is not None and not re.fullmatch(r"(tcp|tls|ucx|inproc)://\S+", scheduler):
            raise ValueError(f"--scheduler must be a Dask scheduler address such as tcp://host:8786, "
                             f"got {scheduler!r}")
    if backend == "ray":
        import importlib.util

        if importlib.util.find_spec("ray") is None:
            raise ValueError("--backend ray needs the 'ray' package (pip install ray)")


@contextmanager
def _cluster(backend: str, scheduler: str | None, timeout: float = 5.0):
    """Connect to the cluster the grid runs on: a Dask scheduler (a local one without ``scheduler``) or Ray.

    Connecting to ``scheduler`` gives up after ``timeout`` seconds with a :class:`ClusterError`.
    """
    _check_cluster(backend, scheduler)
    if backend == "dask":
        from distributed import Client

        if scheduler:
            try:
                client = Client(scheduler, timeout=timeout)
            except (OSError, TimeoutError) as error:
                raise ClusterError(
                    f"could not reach the Dask scheduler at {scheduler} within {timeout:g} s "
                    f"({type(error).__name__}: {str(error).splitlines()[0] if str(error) else 'no answer'}). "
                    "Check that a scheduler is running there (`dask scheduler --port PORT`) and that this machine "
                    "can reach the address, or give it longer with --connect-timeout SECONDS; without "
                    "--scheduler, --backend dask starts a local cluster. Nothing was run.") from None
        else:
            client = Client(dashboard_address=None)
        with client:
            print(f"[reproduce] on the Dask cluster {client.scheduler.address}", flush=True)
            yield
    elif backend == "ray":  # pragma: no cover - needs a ray installation
        import ray

        try:
            ray.init(address=scheduler)
        except (ConnectionError, TimeoutError, OSError) as error:
            raise ClusterError(f"could not reach the Ray cluster at {scheduler}: {error}. Nothing was run.") from None
        try:
            yield
        finally:
            ray.shutdown()
    else:
        yield


def _cmd_reproduce(args) -> int:
    from credalbook.book.experiments.registry import discover, run_experiment
    from credalbook.book.experiments.store import results_path

    # every argument checked before anything runs: names, backend, scheduler, output folder
    known = discover()
    names = list(dict.fromkeys(args.only)) if args.only is not None else sorted(known)
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ValueError(f"unknown experiment(s) {', '.join(map(repr, unknown))}; nothing was run. "
                         f"Known: {', '.join(sorted(known))}")
    _check_cluster(args.backend, args.scheduler)
    if args.output:
        folder = Path(args.output).resolve().parent
        if not folder.is_dir():
            raise ValueError(f"--output {args.output}: folder {folder} does not exist; nothing was run")
    grid = {"backend": args.backend} | ({"n_jobs": args.n_jobs} if args.n_jobs else {})
    frames = []
    start = time.perf_counter()
    with _cluster(args.backend, args.scheduler, args.connect_timeout):
        for name in names:
            print(f"[reproduce] {name} (profile {args.profile}) ...", flush=True)
            frame = run_experiment(name, profile=args.profile, allow_dirty=args.allow_dirty, **grid)
            stored = f" -> {results_path(name)}" if args.profile == "full" else ""
            print(f"[reproduce] {name}: {len(frame)} rows{stored}", flush=True)
            frames.append(frame.assign(experiment=name))
    if args.profile == "full" and not args.only:
        from credalbook.book.experiments.store import save_reproduction

        seconds = time.perf_counter() - start
        path = save_reproduction(names, seconds, backend=args.backend)
        print(f"[reproduce] every experiment in {seconds:.0f} s -> {path}", flush=True)
    if args.output:
        import pandas as pd

        pd.concat(frames, ignore_index=True).to_csv(args.output, index=False)
    return 0


#: Datasets of different shapes on which ``credalbook bench --jncc2-jar`` pairs the book with JNCC2.
JNCC2_DATASETS = ("credit-a", "kr-vs-kp", "nursery", "segment", "vowel", "letter")


def _cmd_bench(args) -> int:
    from credalbook.book.experiments.store import save_results
    from credalbook.book.performance import JNCC2_PAIRING, SCALING, measure

    from credalbook.book.performance import HOT_PATHS

    unknown = [name for name in args.paths or [] if name not in HOT_PATHS]
    if unknown:
        raise ValueError(f"unknown hot path(s) {', '.join(map(repr, unknown))}; known: {', '.join(HOT_PATHS)}")
    if args.jncc2_jar and not Path(args.jncc2_jar).is_file():
        raise ValueError(f"--jncc2-jar {args.jncc2_jar}: no such file")
    start = time.perf_counter()
    frame = measure(args.paths, repeat=args.repeat)
    print(frame.to_string(index=False))
    machine = f"{os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}"
    if not args.no_save:
        path = save_results(frame, SCALING, profile="bench", runtime_seconds=time.perf_counter() - start, note=machine)
        print(f"[bench] -> {path}")
    if args.jncc2_jar:
        import pandas as pd

        from credalbook.book.experiments.jncc2 import pair

        start = time.perf_counter()
        rows = pd.DataFrame(pair(JNCC2_DATASETS, args.jncc2_jar, repeats=args.repeat))
        print(rows.to_string(index=False))
        if not args.no_save:
            path = save_results(rows, JNCC2_PAIRING, profile="bench",
                                runtime_seconds=time.perf_counter() - start,
                                note=f"whole-process wall seconds, medians over the repeats; ratio = book / JNCC2 "
                                     f"1.11, public_ratio = public path / JNCC2, public_core_ratio = public path / "
                                     f"book, public_core_loop_ratio = the same of the cross-validation loops, estimators_core_ratio = "
                                     f"(public loop - do-nothing loop) / book loop; "
                                     f"{machine}")
            print(f"[bench] -> {path}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    from credalbook.data import GROUPS

    parser = argparse.ArgumentParser(prog="credalbook", description=__doc__)
    parser.add_argument("--root", metavar="DIR",
                        help="the book's folder (default: the checkout the package lives in; never the current folder)")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("list", help="list chapters, datasets and experiments")
    p.add_argument("what", nargs="?", default="all", choices=["all", "chapters", "datasets", "experiments"])
    p.set_defaults(func=_cmd_list)

    p = sub.add_parser("datasets", help="where each dataset is found, its size and checksum status")
    p.add_argument("--group", choices=GROUPS, help="one paper's datasets")
    p.set_defaults(func=_cmd_datasets)

    p = sub.add_parser("fetch", help="download datasets into the download cache (sha256 checked)")
    p.add_argument("names", nargs="*", metavar="NAME", help="dataset names or aliases (see `credalbook datasets`)")
    p.add_argument("--all", action="store_true", help="every dataset with a download address")
    p.add_argument("--group", choices=GROUPS, help="the paper group of the names (default: the first holding it)")
    p.add_argument("--from", dest="base_url", metavar="URL",
                   help="a server holding a copy of the book's data/raw/ (default: the registry's source URLs)")
    p.add_argument("--force", action="store_true", help="download again files already cached")
    p.set_defaults(func=_cmd_fetch)

    try:
        from credalbook.book.ledger import PAPERS, VERDICTS
    except ImportError:  # the library without the [book] extra: `ledger` says what it needs when run
        PAPERS = VERDICTS = None

    p = sub.add_parser("ledger", help="every published number and claim of the papers with its verdict")
    p.add_argument("--paper", choices=list(PAPERS) if PAPERS else None, help="one paper's entries")
    p.add_argument("--verdict", choices=list(VERDICTS) if VERDICTS else None, help="entries with this verdict")
    p.add_argument("--format", choices=["text", "csv", "md"], default="text",
                   help="text: one line an entry and the counts; csv: every column; md: a markdown table")
    p.add_argument("--readings", action="store_true", help="add the alternative readings of the papers' tables and claims (never counted)")
    p.set_defaults(func=_cmd_ledger)

    p = sub.add_parser("run", help="execute one chapter with papermill into _build/executed/")
    p.add_argument("chapter", help="a _toc.yml entry or a unique chapter name, e.g. betting")
    p.add_argument("--profile", default="ci", choices=PROFILES)
    p.add_argument("-p", "--parameter", nargs=2, action="append", metavar=("NAME", "VALUE"),
                   help="a parameter the chapter declares (repeatable); the value is read as a Python literal "
                        "when possible and must have the type of the declared default")
    p.set_defaults(func=_cmd_run)

    p = sub.add_parser("build", help="execute every chapter and render the HTML book in _build/html")
    p.add_argument("--profile", default="ci", choices=PROFILES)
    p.add_argument("--jobs", type=_positive_int, default=1, help="chapters executed at once")
    p.set_defaults(func=_cmd_build)

    p = sub.add_parser("preview", help="execute and render only some chapters, apart from _build (for editing pages)")
    p.add_argument("chapters", nargs="+", help="_toc.yml entries or unique chapter names")
    p.add_argument("--out", default="_build/preview", help="folder of the preview (default: _build/preview)")
    p.add_argument("--profile", default="ci", choices=PROFILES)
    p.set_defaults(func=_cmd_preview)

    p = sub.add_parser("reproduce", help="run registered experiments and store tidy CSVs in data/results/")
    p.add_argument("--profile", default="full", choices=PROFILES)
    p.add_argument("--only", nargs="+", metavar="NAME",
                   help="experiment names, at least one (default, without --only: all); see `credalbook list experiments`")
    p.add_argument("--allow-dirty", action="store_true",
                   help="store full-profile results from a tree with uncommitted changes (the record says so)")
    p.add_argument("--backend", default="loky", choices=["loky", "sequential", "dask", "ray"],
                   help="where the grid cells run: local processes (loky), this process, or a Dask or Ray cluster; "
                        "results come back here and are cached here")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="the cluster to connect to (Dask: tcp://host:8786; Ray: host:6379); without it, "
                        "--backend dask starts a local cluster")
    p.add_argument("--connect-timeout", type=_positive_seconds, default=5.0, metavar="SECONDS",
                   help="give up connecting to --scheduler after this many seconds (default: 5)")
    p.add_argument("--n-jobs", type=_positive_int, help="grid cells run at once (default: all cores or workers)")
    p.add_argument("--output", metavar="CSV", help="also write the rows of the run, with an 'experiment' column")
    p.set_defaults(func=_cmd_reproduce)

    p = sub.add_parser("bench", help="time the hot paths over growing sizes (and pair NCC with JNCC2): the "
                                     "performance page's rows")
    p.add_argument("--paths", nargs="+", help="hot paths to time (default: all; see credalbook.book.performance)")
    p.add_argument("--repeat", type=_positive_int, default=3, help="timed runs per cell (the best is kept)")
    p.add_argument("--jncc2-jar", default=os.environ.get("CREDALBOOK_JNCC2_JAR"),
                   help="also pair the book's NCC protocol with JNCC2 1.11 (default: $CREDALBOOK_JNCC2_JAR)")
    p.add_argument("--no-save", action="store_true", help="print the rows without storing them in data/results/")
    p.set_defaults(func=_cmd_bench)
    return parser


#: the packages of the [book] extra (a command that imports one of them is a command of the book)
BOOK_PACKAGES = ("yaml", "sympy", "papermill", "jupytext", "jupyter_book", "myst_nb")


def _quiet_stdout() -> None:
    """Point stdout at the null device, so that the interpreter's last flush into a closed pipe is silent."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - stdout without a file descriptor
        pass


def _book_root(folder: str) -> Path:
    """``--root``: the book's checkout named by the user (its data for the library's commands)."""
    from credalbook._checkout import require_book_checkout

    return require_book_checkout(folder)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 done, 1 failed, 2 refused before any work, 130 interrupted).

    A usage error, a refused argument or a closed pipe (``credalbook ledger | head``) ends with one
    message and no traceback.
    """
    refused = (FileNotFoundError, KeyError, ValueError)
    try:
        from credalbook.book.experiments.store import DirtyTreeError
        refused += (DirtyTreeError,)
        from credalbook.book.build import BuildError
        refused += (BuildError,)
    except ImportError:  # the library without the book's machinery: the book's commands say what they need
        pass

    args = build_parser().parse_args(argv)
    previous_root = os.environ.get("CREDALBOOK_ROOT")
    try:
        if args.root is not None:  # for this command, the data lookup and the kernels it starts
            os.environ["CREDALBOOK_ROOT"] = str(_book_root(args.root))
        status = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, inside the handler, not at the interpreter's exit
        return status
    except BrokenPipeError:
        _quiet_stdout()
        return 1
    except KeyboardInterrupt:
        print("credalbook: interrupted", file=sys.stderr)
        return 130
    except ClusterError as error:
        print(f"credalbook: error: {error}", file=sys.stderr)
        return 1
    except ImportError as error:
        if error.name not in BOOK_PACKAGES and not (error.name or "").startswith("credalbook.book"):
            raise
        needs = "a checkout of the book" if error.name.startswith("credalbook") else error.name
        print(f"credalbook: error: this command needs the book's machinery, which needs {needs}: clone the book "
              f"and install it with its [book] extra (pip install -e './credalbook[book]')", file=sys.stderr)
        return 2
    except refused as error:
        message = error.args[0] if isinstance(error, KeyError) and error.args else error
        print(f"credalbook: error: {message}", file=sys.stderr)
        return 2
    finally:
        if previous_root is None:
            os.environ.pop("CREDALBOOK_ROOT", None)
        else:
            os.environ["CREDALBOOK_ROOT"] = previous_root


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
