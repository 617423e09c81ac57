"""One SKILL.md as read: its text, frontmatter, mapping, body, and where each key stands."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .positions import FieldPos

# A key's place as the fast YAML path records it: key line/column, value line/column,
# end line/column, and each list item's line/column.
RawPos = tuple[int, int, int, int, int, int, list[tuple[int, int]]]
PositionReader = Callable[[str, int], tuple[dict[str, FieldPos], Any]]


@dataclass(frozen=True, slots=True)
class Problem:
    """A reading problem before it is attached to a skill (file line/column)."""

    code: str
    message: str
    line: int = 1
    column: int = 1
    field: str | None = None


@dataclass(slots=True)
class Document:
    """One SKILL.md as read from disk.

    `text` is the decoded file without its BOM; `fm_text` the lines between the
    fences; `body_offset` where the body starts in `text`.
    """

    path: str
    text: str = ""
    bom: bool = False
    newline: str = "\n"
    encoding: str = "utf-8"
    has_frontmatter: bool = False
    closed: bool = False
    fm_text: str = ""
    fm_first_line: int = 2
    fm_close_line: int = 0
    body_offset: int = 0
    body_line: int = 1
    mapping: dict[str, Any] | None = None
    problems: list[Problem] = field(default_factory=list)
    fallback: dict[str, str] = field(default_factory=dict)
    fallback_pos: dict[str, tuple[int, int]] = field(default_factory=dict)
    readable: bool = True
    _positions: dict[str, FieldPos] | None = None
    _raw_positions: dict[str, RawPos] | None = None  # from the fast path, built on demand
    # How exact positions are found when first asked for (the reader sets it: composing
    # the YAML is reading's job, and the model imports no reader).
    position_reader: PositionReader | None = field(default=None, repr=False, compare=False)

    @property
    def body(self) -> str:
        return self.text[self.body_offset :]

    def positions(self) -> dict[str, FieldPos]:
        """Exact positions of every top-level key (computed once, on demand)."""
        if self._positions is None:
            self._positions = {}
            if self._raw_positions is not None:
                self._positions = {
                    key: FieldPos(*raw[:6], items=raw[6] or ())
                    for key, raw in self._raw_positions.items()
                }
                # kept once: both forms of every skill's positions were 9 MB at 10,000
                self._raw_positions = None
            elif (
                self.position_reader is not None
                and self.has_frontmatter
                and self.closed
                and self.mapping is not None
            ):
                self._positions, _ = self.position_reader(self.fm_text, self.fm_first_line)
        return self._positions

    def key_position(self, key: str) -> tuple[int, int]:
        """Line and column of `key`, or of the opening fence when it is absent."""
        pos = self.positions().get(key)
        if pos is None:
            return self.fallback_pos.get(key, (1, 1))
        return (pos.key_line, pos.key_column)

    def value_position(self, key: str, item: int | None = None) -> tuple[int, int]:
        pos = self.positions().get(key)
        if pos is None:
            line, column = self.fallback_pos.get(key, (1, 0))
            return (line, column + len(key) + 2) if column else (line, 1)
        if item is not None and 0 <= item < len(pos.items):
            return pos.items[item]
        return (pos.value_line, pos.value_column)

    def child_position(self, key: str, child: str, item: int | None = None) -> tuple[int, int]:
        pos = self.positions().get(key)
        if pos is None:
            return (1, 1)
        sub = pos.children.get(child)
        if sub is None:
            return (pos.key_line, pos.key_column)
        if item is not None and 0 <= item < len(sub.items):
            return sub.items[item]
        return (sub.key_line, sub.key_column)
