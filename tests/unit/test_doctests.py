"""Every runnable example in the library's docstrings still runs as written."""

import doctest
import importlib
import pkgutil

import pytest

import dualgraph

MODULES = sorted(m.name for m in pkgutil.walk_packages(dualgraph.__path__, "dualgraph."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as e:  # an optional extra (e.g. [endpoint]) that is not installed
        pytest.skip(f"{name} needs {e.name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
