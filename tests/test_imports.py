"""The import graph of the project's packages: no cycles among modules or among packages, no
private names taken across modules, and ``rules`` at the bottom (it imports no other package).

Read from the source with ``ast`` (nothing is imported), so a cycle hidden inside a function
(an import deferred to call time) counts as one too.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "vision", "calibration", "voice", "caller", "simulator", "benchmarks")
def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            out[_module_name(path)] = path
    return out


MODULES = _modules()


def _imports(name: str, path: Path) -> list[tuple[str, list[str], int]]:
    """``(module, names, line)`` for every import in ``path``; ``names`` is empty for ``import X``.

    ``from P import m`` where ``P.m`` is a module counts as an import of ``P.m``.
    """
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((alias.name, [], node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [alias.name for alias in node.names]
            submodules = [f"{target}.{n}" for n in names if f"{target}.{n}" in MODULES]
            out.extend((sub, [], node.lineno) for sub in submodules)
            rest = [n for n in names if f"{target}.{n}" not in MODULES]
            if rest or not submodules:
                out.append((target, rest, node.lineno))
    return out


def _edges() -> dict[str, set[str]]:
    """Module -> the project modules it imports (a package's ``__init__`` counts as the package)."""
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for name, path in MODULES.items():
        for target, _, _ in _imports(name, path):
            if target in MODULES and target != name:
                graph[name].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_checks_see_a_cycle_and_a_private_import():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
    assert _private_imports_of("caller.x", "from rules.grid import Cell, _sign as s\nimport os\n") == [
        "caller.x:1 imports _sign from rules.grid"
    ]
    assert _private_imports_of("caller.x", "from caller.x import _own\n") == []
    assert _private_imports_of("voice.x", "from pyttsx3.drivers import _espeak\n") == []


def test_no_import_cycles():
    assert _cycles(_edges()) == []


def _private_imports_of(name: str, source: str) -> list[str]:
    bad = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.ImportFrom) and node.module and node.module != name and not node.level
                and node.module.split(".")[0] in PACKAGES):  # another library's internals are its own affair
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    bad.append(f"{name}:{node.lineno} imports {alias.name} from {node.module}")
    return bad


def test_no_private_names_imported_across_modules():
    bad = []
    for name, path in MODULES.items():
        bad += _private_imports_of(name, path.read_text())
    assert bad == []


def test_packages_import_one_way():
    """Between packages the imports form no cycle, and ``rules`` (pure game logic) imports none."""
    packages: dict[str, set[str]] = {p: set() for p in PACKAGES}
    for name, targets in _edges().items():
        for target in targets:
            a, b = name.split(".")[0], target.split(".")[0]
            if a != b:
                packages[a].add(b)
    assert packages["rules"] == set()
    assert _cycles(packages) == []


def test_no_module_left_at_a_game_s_old_path():
    """Each game is a package of the same module names; nothing of it lies flat in rules/."""
    games = ["easy_slider", "scavenger_hunt", "steppin_stones", "slider", "slide"]
    flat = sorted(p.name for p in (ROOT / "rules").glob("*.py") if any(p.stem.startswith(g) for g in games))
    assert flat == []
    for game in games:
        names = {p.stem for p in (ROOT / "rules" / game).glob("*.py")}
        assert {"__init__", "state", "codec", "game"} <= names, game
