"""Where each imported name is defined, read from the source with `ast`.

A module *defines* a name it binds at its top level (a def, a class, an assignment,
also under `if`/`try`/`with`); it *imports* one it binds by `import` or
`from ... import`. An import that names a module which only imports the name itself
is a re-export: the reader is sent to the wrong file. `reexports` finds those, and
`undefined_all` finds an `__all__` that lists a name its module does not define.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .helpers import REPO
from .import_graph import modules


@dataclass
class Module:
    """What one module binds at its top level."""

    name: str
    path: str
    is_package: bool
    tree: ast.Module
    defined: set[str] = field(default_factory=set)
    # name bound by an import -> (the module named, the name there), for `from` imports
    imported: dict[str, tuple[str, str]] = field(default_factory=dict)
    plain_imports: set[str] = field(default_factory=set)  # `import a.b` / `import a as b`


def _targets(node: ast.AST | None) -> Iterator[str]:
    if isinstance(node, ast.Name):
        yield node.id
    elif isinstance(node, (ast.Tuple, ast.List)):
        for element in node.elts:
            yield from _targets(element)
    elif isinstance(node, ast.Starred):
        yield from _targets(node.value)


def resolve(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute name of the module a `from ... import` names."""
    if not node.level:
        return node.module or ""
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (node.level - 1)]
    prefix = ".".join(base)
    return f"{prefix}.{node.module}" if node.module else prefix


def _bind(mod: Module, body: Iterable[ast.stmt]) -> None:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            mod.defined.add(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                mod.defined.update(_targets(target))
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
            mod.defined.update(_targets(node.target))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                mod.plain_imports.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            source = resolve(node, mod.name, mod.is_package)
            for alias in node.names:
                mod.imported[alias.asname or alias.name] = (source, alias.name)
        if isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                mod.defined.update(_targets(item.optional_vars))
        for attribute in ("body", "orelse", "finalbody"):
            if isinstance(node, (ast.If, ast.Try, ast.With, ast.AsyncWith, ast.For, ast.While)):
                _bind(mod, getattr(node, attribute, []))
        if isinstance(node, ast.Try):
            for handler in node.handlers:
                _bind(mod, handler.body)


def read(package: str = "skillstudio", root: str = REPO) -> dict[str, Module]:
    """module name -> what it binds, for every module under `package`."""
    out: dict[str, Module] = {}
    for name, path in modules(package, root).items():
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), path)
        mod = Module(name, path, path.endswith("__init__.py"), tree)
        _bind(mod, tree.body)
        out[name] = mod
    return out


def origin(known: dict[str, Module], module: str, name: str) -> str | None:
    """The module that defines `name` as `module` hands it on (following re-exports),
    or None when it is not found among `known`."""
    seen: set[tuple[str, str]] = set()
    while (module, name) not in seen:
        seen.add((module, name))
        mod = known.get(module)
        if mod is None:
            return None
        if name in mod.defined or f"{module}.{name}" in known:
            return module
        if name not in mod.imported:
            return None
        module, name = mod.imported[name]
    return None


@dataclass(frozen=True)
class Reexport:
    """`importer` (a file, line) takes `name` from `named`, which only imports it."""

    path: str
    line: int
    named: str
    name: str
    defined_in: str | None

    def __str__(self) -> str:
        where = self.defined_in or "nowhere in the package"
        rel = os.path.relpath(self.path, REPO)
        return f"{rel}:{self.line}: `{self.name}` from {self.named}, defined in {where}"


def _imports_in(path: str, module: str, is_package: bool) -> Iterator[tuple[ast.ImportFrom, str]]:
    with open(path, encoding="utf-8") as fh:
        tree = ast.parse(fh.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            yield node, resolve(node, module, is_package)


def reexports(
    known: dict[str, Module], files: dict[str, str], allowed: Iterable[tuple[str, str]] = ()
) -> list[Reexport]:
    """Every `from X import n` in `files` (module name -> path) where X is one of
    `known` that does not define n (nor has a submodule n); `allowed` holds the
    (X, n) pairs let through."""
    let_through = set(allowed)
    found: list[Reexport] = []
    for module, path in sorted(files.items()):
        is_package = path.endswith("__init__.py")
        for node, target in _imports_in(path, module, is_package):
            mod = known.get(target)
            if mod is None:
                continue
            for alias in node.names:
                name = alias.name
                if name != "*" and (name in mod.defined or f"{target}.{name}" in known):
                    continue
                if (target, name) in let_through:
                    continue
                defined_in = None if name == "*" else origin(known, target, name)
                found.append(Reexport(path, node.lineno, target, name, defined_in))
    return found


def undefined_all(known: dict[str, Module]) -> list[str]:
    """`module: name` for every name an `__all__` lists that its module does not define."""
    found: list[str] = []
    for module, mod in sorted(known.items()):
        for node in mod.tree.body:
            if not (
                isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign))
                and "__all__"
                in set(_targets(getattr(node, "target", None)))
                | {t for target in getattr(node, "targets", []) for t in _targets(target)}
            ):
                continue
            value = node.value
            if isinstance(value, (ast.List, ast.Tuple)):
                for element in value.elts:
                    name = element.value if isinstance(element, ast.Constant) else None
                    if isinstance(name, str) and name not in mod.defined:
                        found.append(f"{module}: {name}")
    return found


def reexported_attributes(known: dict[str, Module]) -> list[Reexport]:
    """Every `mod.n` read in `known` where `mod` is a module of `known` (bound by
    `from pkg import mod` or `import a.b as mod`) that only imports n from elsewhere
    in the package. (A test reads `mod.n` to keep the original it patches; product
    code has no such reason, so this is asked of `known` only.)"""
    found: list[Reexport] = []
    for module, mod in sorted(known.items()):
        aliases: dict[str, str] = {}
        for node in ast.walk(mod.tree):
            if isinstance(node, ast.ImportFrom):
                target = resolve(node, module, mod.is_package)
                for alias in node.names:
                    if f"{target}.{alias.name}" in known:
                        aliases[alias.asname or alias.name] = f"{target}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname and alias.name in known:
                        aliases[alias.asname] = alias.name
        for node in ast.walk(mod.tree):
            if not (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Load)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
            ):
                continue
            named = aliases[node.value.id]
            if node.attr in known[named].defined or f"{named}.{node.attr}" in known:
                continue
            defined_in = origin(known, named, node.attr)
            if defined_in is not None:  # (a standard module it imports, `mod.re`: not ours)
                found.append(Reexport(mod.path, node.lineno, named, node.attr, defined_in))
    return found
