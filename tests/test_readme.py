"""The README's quickstart runs as written: every ``python`` block executes, in order, in one
namespace, and the install block names only extras that ``pyproject.toml`` declares."""
from __future__ import annotations

import re
import tomllib

import matplotlib
import pytest

from credalbook.book.build import repo_root

ROOT = repo_root()
README = (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    """The README's fenced code blocks of ``language``, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```", README, flags=re.S | re.M)


def test_the_readme_has_a_quickstart():
    code = "\n".join(blocks("python"))
    for name in ("cross_validate", "GridSearchCV", "cross_val_predict_set", "Display", "u65", "u80"):
        assert name in code, f"the README's quickstart does not show {name}"


def test_the_readme_python_blocks_run(capsys):
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    namespace: dict = {"__name__": "readme"}
    try:
        for number, source in enumerate(blocks("python"), start=1):
            exec(compile(source, f"README.md python block {number}", "exec"), namespace)
    finally:
        plt.close("all")
    printed = capsys.readouterr().out
    # the quickstart prints the cross-validated scores of the sets: u65 between accuracy's floor and 1
    scores = namespace["scores"]
    assert 0.8 < scores["test_u65"].mean() <= 1.0, printed
    assert -scores["test_neg_average_set_size"].mean() >= 1.0
    # nested CV scores sets, not point predictions (issue 28 item 1): u65 is not accuracy of singletons
    nested = namespace["nested"]
    assert 0.8 < nested["test_u65"].mean() <= 1.0
    assert namespace["sets"].shape == (len(namespace["y"]), 3)
    assert namespace["sets"].any(axis=1).all()


def test_the_install_block_names_declared_extras_only():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = set(pyproject["project"]["optional-dependencies"])
    install = "\n".join(blocks("bash")[:1])
    named = set(re.findall(r"credalbook\[(\w+)\]", install))
    assert named, "the install block shows no extra"
    assert named <= declared, f"extras not in pyproject.toml: {sorted(named - declared)}"
    assert "pip install credalbook" not in README.replace("`pip install credalbook` finds nothing", "")


@pytest.mark.parametrize("extra", ["book", "weka", "cluster"])
def test_the_readme_names_each_extra(extra):
    assert f"credalbook[{extra}]" in README
