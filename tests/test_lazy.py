"""Package names that load their module on first use: importing the package stays cheap."""
import subprocess
import sys

import pytest

from credalbook._lazy import lazy_names


def _imports(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def test_importing_the_packages_loads_no_estimator_and_no_scikit_learn():
    probe = ("import sys, credalbook.classifiers, credalbook.book.experiments; "
             "print('sklearn' in sys.modules, 'credalbook.classifiers.ncc' in sys.modules, "
             "'credalbook.book.experiments.store' in sys.modules)")
    assert _imports(probe) == "False False False"
    probe = "import sys, credalbook.classifiers as c; c.NaiveCredalClassifier; print('credalbook.classifiers.ncc' in sys.modules)"
    assert _imports(probe) == "True"


def test_lazy_names_reads_each_name_from_its_home_and_refuses_others():
    getattr_, dir_ = lazy_names("credalbook", {"check_scalar": "_validation"})
    from credalbook._validation import check_scalar

    assert getattr_("check_scalar") is check_scalar
    assert "check_scalar" in dir_()
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        getattr_("nothing")
