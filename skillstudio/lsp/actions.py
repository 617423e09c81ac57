"""Code actions: the fixes of the diagnostics under the cursor, from the fix API
(core/editing/fixes.py `fixes_for`, each fix checked on its result as `lint --fix`
checks it), as edits of the editor's unsaved text. A fix that also renames the
skill's folder is not offered here (an editor applies text edits;
`skillstudio lint --fix --unsafe-fixes` renames folders)."""

from __future__ import annotations

from lsprotocol import types

from ..core.editing.fixes import fixes_for, skill_check
from ..core.model.diagnostics import Diagnostic
from ..core.model.document import Document
from ..core.model.fixes import Fix
from ..core.reading.frontmatter import BOM, parse_text
from .ranges import Units, position, text_lines
from .session import Checked


def offset_position(text: str, offset: int, count: Units) -> types.Position:
    """The LSP position of a character offset in `text` (lines end at \\n, \\r\\n, \\r)."""
    offset = max(0, min(offset, len(text)))
    before = text[:offset]
    lines = text_lines(before)
    return position(lines, len(lines) - 1, len(lines[-1]), count)


def text_edits(text: str, fix: Fix, count: Units) -> list[types.TextEdit]:
    """The fix's edits on the editor's text (which may start with a BOM that the
    document's offsets do not count)."""
    shift = 1 if text.startswith(BOM) else 0
    return [
        types.TextEdit(
            range=types.Range(
                start=offset_position(text, edit.start_offset + shift, count),
                end=offset_position(text, edit.end_offset + shift, count),
            ),
            new_text=edit.new_text,
        )
        for edit in fix.edits
    ]


def fix_actions(
    uri: str, text: str, wanted: list[Diagnostic], checked: Checked, count: Units
) -> list[types.CodeAction]:
    profile = checked.profile
    if profile is None or not wanted:
        return []
    path = wanted[0].path
    doc = parse_text(Document(path=path), text)
    # each fix is validated again on its result (it must take its diagnostic away)
    check = skill_check(checked.skill, profile) if checked.skill is not None else None
    out: list[types.CodeAction] = []
    for diag in wanted:
        for fix in fixes_for(doc, diag, profile, check):
            if fix.rename_folder is not None or not fix.edits:
                continue
            out.append(
                types.CodeAction(
                    title=fix.title,
                    kind=types.CodeActionKind.QuickFix,
                    is_preferred=fix.safe,
                    edit=types.WorkspaceEdit(changes={uri: text_edits(text, fix, count)}),
                )
            )
    return out
