"""Re-judge the ledger under the verdict policy: the verdicts that changed since a revision, and the counts.

    python scripts/verdict_changes.py --before REV [--before-csv FILE]

evaluates the ledger of revision ``REV`` (``git archive`` into a temporary folder, evaluated there
with that revision's code and data) and the ledger of the working tree, and writes

- ``data/rejudged/verdict_changes.csv``: every counted entry whose verdict changed (or that is new),
  with the rule of the policy behind it (:func:`credalbook.book.ledger.policy.verdict_changes`; a stored
  result whose provenance changed since ``REV`` counts as re-made);
- ``data/rejudged/counts.csv``: negative entries and findings per paper, before and after
  (:func:`credalbook.book.ledger.policy.change_counts`).

``--before-csv`` reads the old ledger from a CSV written earlier (the columns of
``credalbook.book.ledger.core.COLUMNS`` that the revision had) instead of evaluating the revision.
The page "How the verdicts are decided" (``chapters/verdicts.md``) reads both files.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "data" / "rejudged"
# the ledger lives in credalbook.book.ledger since b7ef0fa, in credalbook.ledger before
EVALUATE = ("import os, sys, importlib; "
            "core = importlib.import_module('credalbook.book.ledger.core' "
            "if os.path.isdir('credalbook/book/ledger') else 'credalbook.ledger.core'); "
            "core._evaluate(readings=True).to_csv(sys.argv[1], index=False)")


def ledger_of(revision: str) -> pd.DataFrame:
    """The whole ledger (readings included) as revision ``revision`` of the repository evaluates it."""
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        target = Path(folder) / "ledger.csv"
        environment = {**os.environ, "PYTHONPATH": folder, "CREDALBOOK_ROOT": folder}
        subprocess.run([sys.executable, "-c", EVALUATE, str(target)], check=True, cwd=folder, env=environment)
        return pd.read_csv(target, keep_default_na=False)


def remade_since(revision: str) -> list[str]:
    """The stored results whose provenance changed between revision ``revision`` and the working tree (re-made runs)."""
    changed = subprocess.run(["git", "-C", str(ROOT), "diff", "--name-only", revision, "--", "data/results"],
                             check=True, capture_output=True, text=True).stdout.split()
    suffix = ".provenance.json"
    return sorted(Path(name).name[:-len(suffix)] for name in changed if name.endswith(suffix))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the revision judged before the policy (a commit)")
    parser.add_argument("--before-csv", type=Path, help="the old ledger as a CSV, instead of evaluating --before")
    arguments = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from credalbook.book.ledger import core, policy

    before = (pd.read_csv(arguments.before_csv, keep_default_na=False) if arguments.before_csv
              else ledger_of(arguments.before))
    after = core.evaluated()
    OUT.mkdir(parents=True, exist_ok=True)
    changes = policy.verdict_changes(before, after, remade_since(arguments.before))
    changes.to_csv(OUT / "verdict_changes.csv", index=False)
    counts = policy.change_counts(before, after)
    counts.insert(0, "before", arguments.before)
    counts.to_csv(OUT / "counts.csv", index=False)
    print(counts.to_string(index=False))
    print(changes.groupby(["rule", "before", "after"]).size().to_string())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
