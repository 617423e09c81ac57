"""The package's import graph, read from the source: every `import` and `from ... import`
counts, at the top of a module, inside a function or under `if TYPE_CHECKING:` (a cycle
through a function-level or type-checking import is still a cycle for a reader)."""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator

from .helpers import REPO


def modules(package: str, root: str = REPO) -> dict[str, str]:
    """module name -> file, for every module under `package` (e.g. skillstudio.core),
    a package in the folder `root` (the checkout by default)."""
    top = os.path.join(root, *package.split("."))
    out: dict[str, str] = {}
    for dirpath, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
            out[rel.removesuffix(".__init__")] = path
    return out


def _imported(node: ast.AST, module: str, is_package: bool) -> Iterator[str]:
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            parts = module.split(".")
            base = parts if is_package else parts[:-1]
            base = base[: len(base) - (node.level - 1)]
            prefix = ".".join(base)
            target = f"{prefix}.{node.module}" if node.module else prefix
        else:
            target = node.module or ""
        yield target
        for alias in node.names:
            yield f"{target}.{alias.name}"  # `from pkg import module`


def graph(package: str, root: str = REPO) -> dict[str, set[str]]:
    """module -> the modules of `package` it imports (a name resolved to the module
    that defines it: `a.b.C` counts as `a.b`)."""
    known = modules(package, root)
    edges: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), path)
        is_package = path.endswith("__init__.py")
        for node in ast.walk(tree):
            for target in _imported(node, name, is_package):
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target and target != name and not name.startswith(target + "."):
                    edges[name].add(target)  # (a package's own __init__ above it: no edge)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def floors(edges: dict[str, set[str]]) -> dict[str, int]:
    """A module's floor: 1 + the highest floor it imports (1 for one importing nothing of
    the package). Only for a graph without cycles."""
    memo: dict[str, int] = {}
    for start in sorted(edges):
        stack = [start]
        while stack:
            node = stack[-1]
            if node in memo:
                stack.pop()
                continue
            pending = [c for c in edges[node] if c not in memo]
            if pending:
                stack.extend(pending)
                continue
            memo[node] = 1 + max((memo[c] for c in edges[node]), default=0)
            stack.pop()
    return memo
