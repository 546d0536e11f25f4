"""The modules setup.py compiles: the list names real modules, and where a C compiler is found
(as on the machines the project is measured on) they run compiled, or the figures of
docs/performance.md would not be this build's."""

import importlib
import shutil
from pathlib import Path

import pytest

from tests.conftest import COMPILED, ROOT


@pytest.mark.parametrize("path", COMPILED)
def test_each_compiled_module_is_a_module_of_the_project(path):
    assert (ROOT / path).is_file()


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler: the modules run as Python")
@pytest.mark.parametrize("path", COMPILED)
def test_each_compiled_module_runs_compiled(path):
    module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
    assert Path(module.__file__).suffix == ".so"
