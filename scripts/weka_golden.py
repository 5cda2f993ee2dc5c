"""Weka's MDL cut points and CFS subsets on every dataset of the credal benchmark: the golden files of
``tests/test_weka_golden.py`` (Zaffalon, Corani & Mauá 2012, §9.1.3; issue 14).

For each dataset of :func:`credalbook.book.experiments.benchmark.available_datasets` and each of the ten
folds of run 0 (:func:`~credalbook.book.experiments.benchmark.fold_indices`), on the training part:

* Weka's supervised ``Discretize`` (default options) gives the cut points of every numeric attribute;
* ``CfsSubsetEval`` + ``BestFirst`` (default options) on the Weka-discretised training part give the
  selected attributes (``selected``), and the same without the locally predictive attributes
  (``-L``, ``search``), so that the search and Weka's post-processing can be compared apart.

Writes ``tests/golden/weka/mdl_cuts.json.gz`` and ``tests/golden/weka/cfs_subsets.json``, each with a
header recording the versions and this script. Needs the extra: ``pip install -e .[weka]``.

    python scripts/weka_golden.py                 # every dataset (a few minutes)
    python scripts/weka_golden.py iris labor      # recompute these datasets, keep the others
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
import time

import numpy as np

from credalbook.book.build import repo_root
from credalbook.book.experiments.benchmark import N_FOLDS, available_datasets, fold_indices, load_dataset

RUN = 0
OUT = "tests/golden/weka"
SCRIPT = "scripts/weka_golden.py"


def dataset_golden(name: str) -> tuple[dict, list]:
    """({numeric attributes, cuts per fold}, [{selected, search} per fold]) of one dataset."""
    import pandas as pd

    from credalbook import weka

    X, y, codes = load_dataset(name)
    numeric = [c for c in X.columns if not isinstance(X[c].dtype, pd.CategoricalDtype)]
    cuts, subsets = [], []
    for fold in range(N_FOLDS):
        train, _ = fold_indices(codes, RUN, fold)
        X_train, y_train = X.iloc[train], y.iloc[train]
        fold_cuts = weka.mdl_cut_points(X_train, y_train)
        cuts.append([[float(v) for v in c] for c in fold_cuts if c is not None])
        subsets.append({"selected": [str(c) for c in weka.cfs_selected(X_train, y_train, discretise=True)],
                        "search": [str(c) for c in weka.cfs_selected(X_train, y_train, discretise=True,
                                                                      locally_predictive=False)]})
    return {"numeric": [str(c) for c in numeric], "folds": cuts}, subsets


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("datasets", nargs="*", help="datasets to recompute (default: all)")
    args = parser.parse_args(argv)
    from credalbook import weka

    out = repo_root() / OUT
    out.mkdir(parents=True, exist_ok=True)
    names = list(available_datasets())
    unknown = sorted(set(args.datasets) - set(names))
    if unknown:
        parser.error(f"not datasets of the collection: {', '.join(unknown)}")
    header = {"script": SCRIPT, **weka.versions(), "run": RUN, "folds": N_FOLDS,
              "discretize": weka.DISCRETIZE + " (default options)",
              "cfs": f"{weka.CFS_EVALUATOR} + {weka.CFS_SEARCH} (default options) on the Weka-discretised "
                     "training part; 'search' adds -L (no locally predictive attributes)"}
    cuts_path, cfs_path = out / "mdl_cuts.json.gz", out / "cfs_subsets.json"
    cuts, subsets = {}, {}
    if args.datasets and cuts_path.is_file() and cfs_path.is_file():
        cuts = json.loads(gzip.decompress(cuts_path.read_bytes()))["datasets"]
        subsets = json.loads(cfs_path.read_text())["datasets"]
    total = time.perf_counter()
    for name in args.datasets or names:
        start = time.perf_counter()
        cuts[name], subsets[name] = dataset_golden(name)
        print(f"{name}: {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
    seconds = time.perf_counter() - total
    print(f"total: {seconds:.1f} s", file=sys.stderr)
    order = [n for n in names if n in cuts]
    text = json.dumps({"header": header, "datasets": {n: cuts[n] for n in order}}, separators=(",", ":"))
    cuts_path.write_bytes(gzip.compress(text.encode(), mtime=0))
    lines = [f'{json.dumps(n)}:{json.dumps(subsets[n], separators=(",", ":"))}' for n in order]
    cfs_path.write_text('{"header":' + json.dumps(header, separators=(",", ":")) + ',\n"datasets":{\n'
                        + ",\n".join(lines) + "}}\n")
    return 0


if __name__ == "__main__":
    np.seterr(all="ignore")
    sys.exit(main())
