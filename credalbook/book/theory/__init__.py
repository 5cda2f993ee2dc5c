"""Symbolic derivations (sympy) of the source papers' results.

Each module returns expressions and ``check_*`` functions that evaluate to ``True`` (or to
the value the paper prints), so that tests assert them and chapters display them as math.
"""

__all__: list[str] = []
