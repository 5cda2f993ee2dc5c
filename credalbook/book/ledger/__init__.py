"""The reproduction ledger (see :mod:`credalbook.book.ledger.core`): claims and published numbers of the
five papers as data, the checks that compute the book's side, and one verdict per entry.

One module per paper and topic registers its checks (:func:`~credalbook.book.ledger.core.check`) and
table builders (:func:`~credalbook.book.ledger.core.book_table`); :func:`~credalbook.book.ledger.core.ledger`
evaluates everything, ``credalbook ledger`` prints it, and
:mod:`credalbook.book.ledger.report` lays it out as the book's pages.
"""
from credalbook.book.ledger.core import (CHECKS, KINDS, PAPERS, TABLES, VERDICTS, BookTable, Check, Claim, Finding,
                                    book_frame, book_table, check, claims, counts, discover, entry_label, evaluate_claim,
                                    evaluated, is_claim, is_reading, judge, judged_cells, ledger, load_inputs, printing_precision, stored, table_rows)
from credalbook.book.ledger.report import (chapter_slice, errata, markdown_table, paper_lines, part_counts, part_summary,
                                      plot_verdicts, report)

__all__ = ["CHECKS", "KINDS", "PAPERS", "TABLES", "VERDICTS", "BookTable", "Check", "Claim", "Finding",
           "book_frame", "book_table", "check", "claims", "counts", "discover", "entry_label", "evaluate_claim",
           "evaluated", "is_claim", "is_reading", "judge", "judged_cells", "ledger", "load_inputs", "printing_precision", "stored", "table_rows", "chapter_slice",
           "errata", "markdown_table", "paper_lines", "part_counts", "part_summary", "plot_verdicts", "report"]
