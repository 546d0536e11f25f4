"""The rules stay pure Python: nothing under games/engine/ uses Django, DRF or Celery."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PURE_FILES = sorted((ROOT / "games" / "engine").rglob("*.py"))
FRAMEWORKS = ("django", "rest_framework", "celery")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def framework_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found += [f"{path.relative_to(ROOT)}:{node.lineno} {n}" for n in names
                  if n.split(".")[0] in FRAMEWORKS]
    return found


def test_the_pure_files_exist():
    assert ROOT / "games" / "engine" / "ruleset.py" in PURE_FILES


def test_no_pure_file_imports_a_framework():
    assert [hit for path in PURE_FILES for hit in framework_imports(path)] == []


# Imports every pure module in a fresh interpreter in which importing a framework raises, so an
# import hidden in a function body run at import time, or pulled in by a helper module outside
# the engine, is caught too.
BLOCKED_IMPORT = """
import importlib, sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {frameworks!r}:
            raise ImportError("the engine imported " + name)
sys.meta_path.insert(0, Block())
for module in {modules!r}:
    importlib.import_module(module)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {frameworks!r})
assert not loaded, loaded
"""


def test_importing_the_engine_loads_no_framework():
    modules = [module_name(path) for path in PURE_FILES]
    code = BLOCKED_IMPORT.format(frameworks=FRAMEWORKS, modules=modules)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
