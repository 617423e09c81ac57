"""Fixes as edits of a document's text, and `lint --fix`'s loop and save.

- `fixes_for(doc, diagnostic, profile)`: the fixes of one diagnostic as text edits on
  `doc.text` (core/model/fixes.py); frontmatter changes go through the round-trip
  writer (round_trip.apply_changes), so only the bytes the fix names change.
- `apply_fix(doc, fix)`: the new text (BOM kept), for an editor buffer or a save.
- `fix_text(text, check, unsafe)`: fix, check again, until nothing fixable is left
  (every applied fix is recorded; a fix that would not change the text, or that
  comes back at the same place, is not tried twice, so the loop ends).
- `save_fixed(path, old, new_text, boundary)`: the atomic save of the result
  (core/editing/saving.py), refused when the file is a link or resolves outside
  its skill folder; `rename_folder(folder, name)` the unsafe folder rename, refused
  for a link, a bad name or a taken one.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..checking.fix_plans import plans_for
from ..checking.validate import validate_skill
from ..model.diagnostics import Diagnostic
from ..model.document import Document
from ..model.fixes import Fix, FixPlan, TextEdit, apply_edits, edit_between
from ..model.paths import is_inside
from ..model.skills import Skill
from ..profile import Profile
from ..reading.frontmatter import BOM, parse_text
from ..reading.yaml_io import EditError
from .round_trip import Change, apply_changes
from .saving import SaveError, Stamp, atomic_write, encode

MAX_ROUNDS = 64  # fixes applied to one file in one run, at most
_SLUG = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")

Check = Callable[[str], tuple[Document, list[Diagnostic]]]


def _resolve(doc: Document, diagnostic: Diagnostic, plan: FixPlan, profile: Profile) -> Fix | None:
    edits: list[TextEdit] = list(plan.edits)
    if plan.fields:
        changes = [
            Change("unset" if f.remove else "set", f.key, f.value, path=f.path) for f in plan.fields
        ]
        try:
            new = apply_changes(doc, changes, order=[spec.key for spec in profile.fields])
        except EditError:
            return None
        if new.startswith(BOM):
            new = new[1:]
        field_edit = edit_between(doc.text, new)
        if field_edit is not None:
            edits.append(field_edit)
    try:
        new_text = apply_edits(doc.text, edits)
    except ValueError:
        return None
    if new_text == doc.text and plan.rename_folder is None:
        return None
    return Fix(
        diagnostic.code,
        plan.title,
        plan.safe and plan.rename_folder is None,
        doc.path,
        tuple(sorted(edits, key=lambda e: e.start_offset)),
        plan.rename_folder,
        diagnostic.line,
        diagnostic.column,
    )


def fixes_for(doc: Document, diagnostic: Diagnostic, profile: Profile) -> list[Fix]:
    """The fixes of `diagnostic` in `doc` (the document the diagnostic was found in,
    from disk or an editor's unsaved text), each as edits on `doc.text`."""
    if diagnostic.path != doc.path:
        return []
    out: list[Fix] = []
    for plan in plans_for(doc, diagnostic):
        fix = _resolve(doc, diagnostic, plan, profile)
        if fix is not None:
            out.append(fix)
    return out


def apply_fix(doc: Document, fix: Fix) -> str:
    """The text of `doc` with `fix` made (the BOM kept when the file had one)."""
    return (BOM if doc.bom else "") + apply_edits(doc.text, fix.edits)


@dataclass(slots=True)
class FixOutcome:
    """What `fix_text` did: the new text (BOM included), the fixes applied in order,
    and the folder's new name when an unsafe fix renames it."""

    text: str
    applied: list[Fix] = field(default_factory=list)
    rename_folder: str | None = None

    @property
    def changed(self) -> bool:
        return bool(self.applied)


def fix_text(
    text: str,
    check: Check,
    profile: Profile,
    unsafe: bool = False,
    wanted: Callable[[Diagnostic], bool] | None = None,
) -> FixOutcome:
    """Apply every fix `check` offers (safe ones; with `unsafe` all), one at a time,
    checking again after each, until none is left. `wanted` picks the diagnostics
    that may be fixed (those reported after the project's rule settings)."""
    outcome = FixOutcome(text)
    tried: set[tuple[str, str, int, int]] = set()
    # a diagnostic one fix was applied for is not fixed again (another of its fixes would
    # undo or double it: a folder renamed after its name, then the name set to the folder)
    settled: set[tuple[str, int, int, str]] = set()
    for _ in range(MAX_ROUNDS):
        doc, diagnostics = check(outcome.text)
        chosen: Fix | None = None
        for diagnostic in diagnostics:
            if wanted is not None and not wanted(diagnostic):
                continue
            place = (diagnostic.code, diagnostic.line, diagnostic.column, diagnostic.message)
            if place in settled:
                continue
            for fix in fixes_for(doc, diagnostic, profile):
                if not (fix.safe or unsafe):
                    continue
                key = (fix.code, fix.title, fix.line, fix.column)
                if key in tried:
                    continue
                if fix.rename_folder is not None and outcome.rename_folder is not None:
                    continue
                tried.add(key)
                settled.add(place)
                chosen = fix
                break
            if chosen is not None:
                break
        if chosen is None:
            break
        outcome.text = apply_fix(doc, chosen)
        outcome.applied.append(chosen)
        if chosen.rename_folder is not None:
            outcome.rename_folder = chosen.rename_folder
    return outcome


def skill_check(skill: Skill, profile: Profile) -> Check:
    """A `Check` that reads a text as `skill`'s SKILL.md (same path and root) and
    validates it as a scan would (the per-skill checks; cross-skill ones are not
    fixed)."""

    def check(text: str) -> tuple[Document, list[Diagnostic]]:
        doc = parse_text(Document(path=skill.path), text)
        again = Skill(path=skill.path, root=skill.root, doc=doc)
        validate_skill(again, profile)
        return doc, again.diagnostics

    return check


def save_fixed(path: str, expected: Stamp | None, text: str, boundary: str) -> Stamp:
    """Save the fixed text of `path` atomically; SaveError when the file is a link or
    lies outside `boundary` (its skill folder): a fix never writes through a link."""
    if os.path.islink(path):
        raise SaveError(f"{path} is a link; fixes are not written through links (nothing written)")
    real = os.path.realpath(path)
    if not is_inside(real, os.path.realpath(boundary)):
        raise SaveError(f"{path} resolves outside {boundary}; nothing was written")
    bom = text.startswith(BOM)
    return atomic_write(path, encode(text[1:] if bom else text, bom), expected, base=boundary)


def rename_folder(folder: str, name: str) -> str:
    """Rename the skill folder `folder` to `name` beside it; SaveError when the folder
    is a link, the name is not a plain lowercase-hyphen name, or it is taken."""
    folder = os.path.abspath(folder)
    if os.path.islink(folder):
        raise SaveError(f"{folder} is a link; it is not renamed")
    if not _SLUG.fullmatch(name) or len(name) > 64:
        raise SaveError(f"{name!r} is not a usable folder name; the folder is not renamed")
    target = os.path.join(os.path.dirname(folder), name)
    if os.path.lexists(target):
        raise SaveError(f"{target} already exists; the folder is not renamed")
    try:
        os.rename(folder, target)
    except OSError as exc:
        raise SaveError(f"cannot rename {folder}: {exc.strerror or exc}") from None
    return target
