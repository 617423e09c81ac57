"""Frontmatter changes as they are meant: set or remove a top-level key, or one entry
inside its mapping (`metadata.version`), and the mapping they leave.

`apply_change` works on the parsed mapping alone (nested mappings on the way are
copied, never mutated): that mapping is what the round-trip writer (round_trip.py)
must make the file say, and what its result must read back as.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..model.fields import yaml_kind
from ..reading.yaml_io import EditError

_MISSING = object()


@dataclass(frozen=True, slots=True)
class Change:
    """Set or remove a top-level key, or with `path` one entry inside its mapping.

    `Change("set", "metadata", "1.3", path=("version",))` sets `metadata.version`
    and keeps every other entry of `metadata` (and its comments) byte for byte.
    """

    kind: Literal["set", "unset"]
    key: str
    value: Any = None
    path: tuple[str, ...] = ()

    @property
    def dotted(self) -> str:
        return ".".join((self.key, *self.path))


def change_for(
    dotted: str, mapping: dict[str, Any] | None, kind: Literal["set", "unset"], value: Any = None
) -> Change:
    """A change for KEY, where a dotted KEY (`metadata.version`) names an entry inside a
    mapping; a top-level key that is itself spelt with dots is edited as it is."""
    if "." not in dotted or dotted in (mapping or {}):
        return Change(kind, dotted, value)
    parts = dotted.split(".")
    if not all(part.strip() for part in parts):
        raise EditError(f"'{dotted}' has an empty part; write KEY or KEY.SUBKEY")
    return Change(kind, parts[0], value, path=tuple(parts[1:]))


def apply_change(mapping: dict[str, Any], change: Change) -> None:
    """Apply one change to `mapping`; nested mappings on the way are copied, never mutated.

    A nested unset that leaves a mapping empty removes that mapping too.
    """
    if not change.path:
        if change.kind == "set":
            mapping[change.key] = change.value
        else:
            mapping.pop(change.key, None)
        return
    trail: list[tuple[dict[Any, Any], Any]] = []  # (mapping, key in it), outermost first
    current: dict[Any, Any] = mapping
    for depth, part in enumerate((change.key, *change.path)):
        key = next((k for k in current if str(k) == part), part) if depth else part
        trail.append((current, key))
        if depth == len(change.path):
            break
        child = current.get(key, _MISSING)
        if child is _MISSING or child is None:
            if change.kind == "unset":
                return  # nothing there to remove
            child = {}
        elif not isinstance(child, dict):
            where = ".".join((change.key, *change.path[:depth]))
            raise EditError(
                f"'{where}' holds {yaml_kind(child)}, not a mapping, so '{change.dotted}' "
                f"cannot be set inside it; replace '{where}' first (for example "
                f"--yaml '{where}={{}}') or --unset it"
            )
        child = dict(child)
        current[key] = child
        current = child
    mapping_at, last_key = trail[-1]
    if change.kind == "set":
        mapping_at[last_key] = change.value
        return
    if mapping_at.pop(last_key, _MISSING) is _MISSING:
        return
    for (parent, key), (child, _) in zip(reversed(trail[:-1]), reversed(trail[1:]), strict=True):
        if child:
            break
        parent.pop(key, None)
