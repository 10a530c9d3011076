"""The project's layers, as the README draws them: data flows one way, frame -> calibration ->
vision -> hand record -> scoring -> tablet -> ledger, and no stage reaches back into an earlier
one. Within the project no two modules import each other, not even inside a function: a type two
modules share lives in one module both import.

Imports are read from the source (every ``import`` anywhere in a file, not only at its top), so a
lazy import inside a function counts as much as one at the head of the file."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("calibration", "vision", "scoring", "service")
# what each stage may import of the others: the stages before it, and the hand record's scoring
MAY_IMPORT = {"calibration": set(), "scoring": set(), "vision": {"calibration"},
              "service": {"calibration", "vision", "scoring"}}


def modules() -> dict[str, Path]:
    """Every module of the project's packages by dotted name (a package by its own name)."""
    out = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules ``name`` imports anywhere in its file. ``from . import x`` of a submodule
    ``x`` imports ``x``, not its package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:                      # relative: the package, or one above it per extra dot
                base = ".".join(filter(None, (package.rsplit(".", node.level - 1)[0], node.module)))
            subs = {f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in known}
            out |= subs
            if len(subs) < len(node.names):
                out.add(base)
    return {m for m in out if m in known and m != name}


def import_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_the_graph_is_read_from_every_package():
    graph = import_graph()
    assert {m.split(".")[0] for m in graph} == set(PACKAGES)
    assert "service.reader" in graph["service.vision_reader"]           # a plain import is seen
    assert "vision.detect" in graph["vision.hand_photo"]                 # one inside a function too


def test_no_stage_reaches_back_into_an_earlier_one():
    graph = import_graph()
    wrong = sorted(f"{a} imports {b}" for a, deps in graph.items() for b in deps
                   if b.split(".")[0] != a.split(".")[0] and b.split(".")[0] not in MAY_IMPORT[a.split(".")[0]])
    assert wrong == []


def test_no_modules_import_each_other_even_lazily():
    graph = import_graph()
    cycles, state = [], {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = "open"
        for d in sorted(graph[m]):
            if state.get(d) == "open":
                cycles.append(" -> ".join(path[path.index(d):] + [m, d]))
            elif d not in state:
                visit(d, path + [m])
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m, [])
    assert cycles == []
