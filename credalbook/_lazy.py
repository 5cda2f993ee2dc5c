"""Names of a package that load their module on first use (PEP 562)."""
from __future__ import annotations

import importlib
from typing import Callable


def lazy_names(package: str, homes: dict[str, str]) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``: each name of ``homes`` is read from its submodule
    ``package.homes[name]`` when first asked for, so importing the package imports none of them."""
    def __getattr__(name: str):
        if name in homes:
            return getattr(importlib.import_module(f"{package}.{homes[name]}"), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted({*vars(importlib.import_module(package)), *homes})

    return __getattr__, __dir__
