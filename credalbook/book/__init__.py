"""The book's machinery: what builds, re-runs and judges the book, apart from the library.

It is installed and used from a checkout of the book with the ``[book]`` extra (sympy, pyyaml,
jupyter-book, papermill); the wheel a library user installs leaves it out. The library never
imports it; it imports the library.

- :mod:`credalbook.book.paths` — where the checkout is (the ground floor: imports nothing of the book);
- :mod:`credalbook.book.build` — execute the chapters and render the book (``credalbook build``, ``run``,
  ``preview``);
- :mod:`credalbook.book.experiments` — the experiments' declarations, their grid and the results store;
- :mod:`credalbook.book.ledger` — every published number and claim, the verdict policy and the findings;
- :mod:`credalbook.book.theory` — the sympy derivations, each with its checks;
- :mod:`credalbook.book.tables`, :mod:`credalbook.book.plots`, :mod:`credalbook.book.reference`,
  :mod:`credalbook.book.performance` — what the chapters show;
- :mod:`credalbook.book.sphinx` — the book's Sphinx extension.
"""

__all__: list[str] = []
