"""The import graph of the project's own modules: no cycle, and each layer imports only the layers
below it (docs/architecture.md). Every import counts, at the top of a module or inside a function.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("config", "accounts", "games", "scoring", "ratings", "bots", "web")

# Who may import whom, by layer; a module's layer is the longest prefix listed.
LAYERS = {
    "games.engine": set(),
    "scoring": set(),
    "games": {"games.engine", "scoring"},
    "accounts": {"games"},  # the token check's SQL is in games.sql
    "ratings": {"games", "games.engine", "scoring"},  # rates a match games announces as over
    "bots": {"games", "games.engine"},
    "web": set(),  # the web table uses the API over HTTP, never the project's modules
    "config": {"games", "accounts", "scoring", "ratings", "bots", "games.engine", "web"},
}


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                found[module_of(path)] = path
    return found


def imports(path: Path, known: set[str]) -> set[str]:
    """The project modules `path` imports (a `from package import name` of a submodule counts as
    that submodule)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                names.add(submodule if submodule in known else node.module)
    return {name for name in names if name in known}


def layer(module: str) -> str:
    return max((name for name in LAYERS if module == name or module.startswith(name + ".")),
               key=len)


def graph() -> dict[str, set[str]]:
    found = modules()
    return {module: imports(path, set(found)) - {module} for module, path in found.items()}


def test_every_package_is_found():
    assert {layer(m) for m in graph()} == set(LAYERS)


def test_each_layer_imports_only_those_below_it():
    wrong = sorted(f"{m} imports {i}" for m, targets in graph().items() for i in targets
                   if layer(i) != layer(m) and layer(i) not in LAYERS[layer(m)])
    assert wrong == []


def test_there_is_no_import_cycle():
    edges = graph()
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    cycles = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(edges[module]):
            if state.get(target) == 1:
                cycles.append(path[path.index(target):] + [target])
            elif target not in state:
                visit(target, path + [target])
        state[module] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])
    assert cycles == []
