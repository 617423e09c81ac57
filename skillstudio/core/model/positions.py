"""Where a frontmatter key, its value and its list items stand in the file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

# A key with no list items or no child keys (most keys) shares these: an empty list
# and dict of its own for each key of each skill were 6 MB at 10,000 skills.
NO_CHILDREN: Mapping[str, FieldPos] = MappingProxyType({})


def _no_children() -> Mapping[str, FieldPos]:
    return NO_CHILDREN


@dataclass(slots=True)
class FieldPos:
    """Where a key and its value stand in the file (1-based)."""

    key_line: int
    key_column: int
    value_line: int
    value_column: int
    end_line: int
    end_column: int
    items: Sequence[tuple[int, int]] = ()
    children: Mapping[str, FieldPos] = field(default_factory=_no_children)
