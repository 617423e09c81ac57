"""No import circle in a package, counting every import statement: at module level,
inside functions and under `if TYPE_CHECKING:` (a circle through any of them means
the modules cannot be read, tested or moved one at a time)."""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def import_graph(package: pathlib.Path) -> dict[str, set[str]]:
    """module -> the modules of `package` it imports, read from the source (ast: every
    Import and ImportFrom, wherever it is). `from . import x` names module x when x is
    one, else the package; `from .a import b` names a (and a.b when that is a module)."""
    base = package.parent
    while (base / "__init__.py").is_file():  # names in full: skillstudio.gui.app
        base = base.parent
    top = ".".join(package.relative_to(base).parts)
    modules: dict[str, tuple[pathlib.Path, bool]] = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(base).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        modules[".".join(parts)] = (path, is_package)
    assert top in modules, f"{package} is not a package"

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in modules.items():
        here = name.split(".") if is_package else name.split(".")[:-1]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    anchor = here[: len(here) - node.level + 1]
                    source = ".".join(anchor + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                names = [source] + [f"{source}.{alias.name}" for alias in node.names]
            else:
                continue
            for imported in names:
                target = known(imported)
                if target is not None and target != name:
                    targets.add(target)
        graph[name] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def import_cycles(package: pathlib.Path) -> list[list[str]]:
    """Every import circle among the modules of `package` (a folder with __init__.py)."""
    return cycles(import_graph(package))


@pytest.mark.parametrize("package", ["skillstudio/gui"])
def test_no_import_cycle(package: str) -> None:
    """(The lead adds skillstudio/core here once its circle is gone.)"""
    assert import_cycles(ROOT / package) == []


def test_a_cycle_through_a_function_or_type_checking_import_is_found(
    tmp_path: pathlib.Path,
) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from .c import C\n")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("def f():\n    from .sub import c\n")
    (pkg / "sub" / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..a import A\nC = 1\n"
    )
    (pkg / "d.py").write_text("import pkg.a\n")  # into the circle, not part of it
    assert import_graph(pkg)["pkg.b"] == {"pkg.sub", "pkg.sub.c"}
    assert import_cycles(pkg) == [["pkg.a", "pkg.b", "pkg.sub", "pkg.sub.c"]]
    assert import_cycles(pkg / "sub") == []  # the part alone: its imports out are not followed
    (pkg / "sub" / "c.py").write_text("C = 1\n")
    assert import_cycles(pkg) == []
