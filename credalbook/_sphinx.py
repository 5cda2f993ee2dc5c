"""A Sphinx extension for the book's API reference: document only what the package defines.

scikit-learn attaches methods to estimators at class creation (``set_score_request`` and its
kin, from its metadata routing); they are scikit-learn's to document, not the book's.
"""
from __future__ import annotations

__all__ = ["setup"]


def _skip_foreign_members(app, what, name, obj, skip, options):
    if what == "class" and callable(obj) and not (getattr(obj, "__module__", "") or "").startswith("credalbook"):
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip_foreign_members)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
