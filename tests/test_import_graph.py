"""No import cycle anywhere, counting imports inside functions and under
`if TYPE_CHECKING:` (tests/import_graph.py reads them from the source); the core's
sub-packages stand on at most 8 floors (import-linter's layers contract, in
pyproject.toml, keeps each above the ones it uses)."""

from __future__ import annotations

import pytest

from . import import_graph

PACKAGES = ["skillstudio.core", "skillstudio.cli", "skillstudio"]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle(package: str) -> None:
    assert import_graph.cycles(import_graph.graph(package)) == []


def test_the_cycle_finder_finds_function_level_and_type_checking_cycles() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert import_graph.cycles(edges) == [["a", "b", "c"]]
    # the real graph reads imports wherever they stand: profile.py once imported the
    # rankers inside a function and the registry under TYPE_CHECKING
    source = "def f():\n    from .x import y\nif TYPE_CHECKING:\n    from .z import w\n"
    import ast

    found = {
        target
        for node in ast.walk(ast.parse(source))
        for target in import_graph._imported(node, "pkg.mod", False)
    }
    assert {"pkg.x", "pkg.z"} <= found


def _rooms(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """The core's graph between its sub-packages and top modules (farm-studio's rooms)."""

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
