"""No import cycle anywhere, counting imports inside functions and under
`if TYPE_CHECKING:` (tests/import_graph.py reads them from the source); the core's
sub-packages stand on at most 8 floors (import-linter's layers contract, in
pyproject.toml, keeps each above the ones it uses)."""

from __future__ import annotations

from pathlib import Path

import pytest

from . import import_graph

PACKAGES = ["skillstudio.core", "skillstudio.cli", "skillstudio.lsp", "skillstudio"]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle(package: str) -> None:
    assert import_graph.cycles(import_graph.graph(package)) == []


def test_a_cycle_through_a_function_or_type_checking_import_is_found(tmp_path: Path) -> None:
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
    edges = import_graph.graph("pkg", str(tmp_path))
    assert edges["pkg.b"] == {"pkg.sub", "pkg.sub.c"}
    assert import_graph.cycles(edges) == [["pkg.a", "pkg.b", "pkg.sub", "pkg.sub.c"]]
    assert import_graph.cycles(import_graph.graph("pkg.sub", str(tmp_path))) == []
    (pkg / "sub" / "c.py").write_text("C = 1\n")
    assert import_graph.cycles(import_graph.graph("pkg", str(tmp_path))) == []


def _rooms(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """The core's graph between its sub-packages and top modules."""

    def room(module: str) -> str:
        parts = module.split(".")
        return ".".join(parts[:3]) if len(parts) > 2 else module

    out: dict[str, set[str]] = {}
    for module, targets in edges.items():
        out.setdefault(room(module), set()).update(
            room(t) for t in targets if room(t) != room(module)
        )
    return out


def test_the_core_stands_on_at_most_eight_floors() -> None:
    rooms = _rooms(import_graph.graph("skillstudio.core"))
    rooms.pop("skillstudio.core", None)  # the package's own __init__ (empty)
    assert import_graph.cycles(rooms) == []
    floors = import_graph.floors(rooms)
    assert max(floors.values()) <= 8, sorted(floors.items(), key=lambda kv: kv[1])
    assert floors["skillstudio.core.model"] == 1
    assert floors["skillstudio.core.profile"] == 2  # the interface: below the engine
