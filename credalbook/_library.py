"""The modules a user of the package imports: the library half, as opposed to the book's machinery
(build, ledger, experiments, theory, tables). Tests read this list (doctests, the bad-input contract)."""

__all__ = ["LIBRARY_MODULES"]

#: the library's public modules, in the order of the API reference
LIBRARY_MODULES = ("credalbook.sets", "credalbook.metrics", "credalbook.costs", "credalbook.certainty",
                   "credalbook.costspace", "credalbook.decisions", "credalbook.risk_aversion", "credalbook.lenses",
                   "credalbook.stats", "credalbook.scoring", "credalbook.pipeline", "credalbook.model_selection",
                   "credalbook.preprocessing", "credalbook.discrete", "credalbook.display", "credalbook.data",
                   "credalbook.classifiers")
