"""Fixes: what a rule proposes to change, and the exact text edits that change it.

Design (the API the CLI, the language server and the app share):

- A rule that can be fixed mechanically proposes a `FixPlan` for one of its
  diagnostics (core/checking/fix_plans.py keeps the planners by code): frontmatter
  changes as `FieldEdit`s (made by the round-trip writer, so a key's quoting,
  comments and every other line stay byte for byte), text edits of the body as
  `TextEdit`s, and for an unsafe fix a new folder name.
- core/editing/fixes.py turns a plan into a `Fix` for one document: `fixes_for(doc,
  diagnostic, profile)` -> [Fix]. A Fix carries only `TextEdit`s on the document's
  text (`Document.text`: the decoded file without its BOM), so an editor can apply it
  as it is (an LSP `TextEdit`, a Qt undo step) and `apply_edits(text, fix.edits)`
  gives the new text. Offsets are str indices (code points); `line_column` converts
  one to a 0-based line and column, in code points or UTF-16 units.
- `safe` fixes change what the rule names and nothing a reader relies on (a string
  "true" to true, a `\\` path to `/`); unsafe ones change what the skill is called
  (a rename of the name or the folder) or drop content: `lint --fix` applies only
  safe ones, `--unsafe-fixes` both.
- Applying a fix then checking again gives no diagnostic of that fix at that place,
  so a second pass finds nothing to do (tests/test_fixes.py checks every fix for
  that and for bytes kept elsewhere). core/editing/fixes.py holds every fix to it:
  a fix whose text does not read as planned, or still has its diagnostic when
  validated again, is dropped with a note, never applied.
- A planner builds new values by plain string operations: the text a user wrote is
  never a regular expression's replacement template (`\\1`, `\\t` stay as written).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class TextEdit:
    """Replace `text[start_offset:end_offset]` with `new_text` (offsets in code points)."""

    start_offset: int
    end_offset: int
    new_text: str


@dataclass(frozen=True, slots=True)
class FieldEdit:
    """Set a frontmatter key (or with `path` an entry inside its mapping) to `value`,
    or remove it (`remove`)."""

    key: str
    value: Any = None
    remove: bool = False
    path: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FixPlan:
    """What a rule proposes for one diagnostic, before it is turned into text edits."""

    title: str
    safe: bool
    fields: tuple[FieldEdit, ...] = ()
    edits: tuple[TextEdit, ...] = ()  # on Document.text, non-overlapping
    rename_folder: str | None = None  # the skill folder's new name (never safe)
    # when the edits move keys (a key into 'metadata:'): every frontmatter value the
    # fixed text must read as, checked whole instead of key by key
    reads_as: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Fix:
    """One fix of one diagnostic, as edits on the document's text.

    `path` is the file the edits apply to (the SKILL.md); `rename_folder`, when set,
    is the new name of the skill's folder, renamed after the edits are saved.
    """

    code: str
    title: str
    safe: bool
    path: str
    edits: tuple[TextEdit, ...]
    rename_folder: str | None = None
    line: int = 0  # the diagnostic's place (1-based), to tell fixes of one code apart
    column: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "title": self.title,
            "safe": self.safe,
            "path": self.path,
            "line": self.line or None,
            "column": self.column or None,
            "edits": [
                {"start": e.start_offset, "end": e.end_offset, "text": e.new_text}
                for e in self.edits
            ],
            "rename_folder": self.rename_folder,
        }


def apply_edits(text: str, edits: Iterable[TextEdit]) -> str:
    """`text` with `edits` made (non-overlapping, any order); ValueError when two
    overlap or one lies outside the text."""
    ordered = sorted(edits, key=lambda e: (e.start_offset, e.end_offset))
    out: list[str] = []
    at = 0
    for edit in ordered:
        if edit.start_offset < at or edit.end_offset < edit.start_offset:
            raise ValueError("fix edits overlap")
        if edit.end_offset > len(text):
            raise ValueError("a fix edit lies outside the text")
        out.append(text[at : edit.start_offset])
        out.append(edit.new_text)
        at = edit.end_offset
    out.append(text[at:])
    return "".join(out)


def edit_between(old: str, new: str) -> TextEdit | None:
    """The one edit that turns `old` into `new` (their common start and end kept), or
    None when they are equal."""
    if old == new:
        return None
    limit = min(len(old), len(new))
    start = 0
    while start < limit and old[start] == new[start]:
        start += 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old -= 1
        end_new -= 1
    return TextEdit(start, end_old, new[start:end_new])


def line_column(text: str, offset: int, utf16: bool = False) -> tuple[int, int]:
    """0-based line and column of `offset` in `text` (lines end at LF; with `utf16`
    the column counts UTF-16 code units, as the Language Server Protocol does)."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    part = text[start:offset]
    if utf16:
        return line, len(part.encode("utf-16-le")) // 2
    return line, len(part)
