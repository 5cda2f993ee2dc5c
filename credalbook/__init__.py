"""credalbook: evaluating classifiers whose answers are uncertain.

One module per idea of the source papers:

- :mod:`credalbook.sets` — set-valued predictions as (n, K) boolean matrices;
- :mod:`credalbook.metrics` — discounted / utility-discounted accuracy, F-beta on sets (Zaffalon et al.);
- :mod:`credalbook.costs` — costs of indeterminacy (Yang, Destercke & Masson);
- :mod:`credalbook.certainty` — probabilistic confusion matrix, certainty ratio, MCP/IMCP (Aguilar-Ruiz);
- :mod:`credalbook.costspace` — cost curves, threshold choice, Beta uncertainty (Ferri et al.);
- :mod:`credalbook.classifiers` — NBC, NCC, LNCC, CMA, credal tree, NDC, rejection, nested dichotomies;
- :mod:`credalbook.preprocessing` — MDL discretisation, CFS feature selection;
- :mod:`credalbook.pipeline`, :mod:`credalbook.model_selection` — set-valued predictions through
  Pipelines and search CVs, cross-validated sets;
- :mod:`credalbook.data`, :mod:`credalbook.stats`, :mod:`credalbook.display`, :mod:`credalbook.scoring`.

The book's machinery (build, experiments, ledger, theory) is :mod:`credalbook.book`, used from a
checkout of the book with the ``[book]`` extra; the library never imports it.
"""

__all__: list[str] = []
__version__ = "0.1.0"
