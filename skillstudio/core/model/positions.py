"""Where a frontmatter key, its value and its list items stand in the file."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class FieldPos:
    """Where a key and its value stand in the file (1-based)."""

    key_line: int
    key_column: int
    value_line: int
    value_column: int
    end_line: int
    end_column: int
    items: list[tuple[int, int]] = field(default_factory=list)
    children: dict[str, FieldPos] = field(default_factory=dict)
