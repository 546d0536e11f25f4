"""The modules setup.py compiles: the list names real modules, and where a C compiler is found
(as on the machines the project is measured on) they run compiled, or the figures of
docs/performance.md would not be this build's."""

import importlib
import os
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


def test_a_compiled_module_older_than_its_source_is_stale(tmp_path, monkeypatch):
    from tests import conftest

    monkeypatch.setattr(conftest, "ROOT", tmp_path)
    monkeypatch.setattr(conftest, "COMPILED", ["fresh.py", "stale.py", "python.py"])
    for name in ("fresh", "stale", "python"):
        (tmp_path / f"{name}.py").write_text("")
    for name, built in (("fresh", 200), ("stale", 50)):
        compiled = tmp_path / f"{name}.cpython-311-x86_64-linux-gnu.so"
        compiled.write_bytes(b"")
        os.utime(compiled, (built, built))
    for name in ("fresh", "stale", "python"):
        os.utime(tmp_path / f"{name}.py", (100, 100))
    assert conftest.stale_compiled() == ["stale.py"]
