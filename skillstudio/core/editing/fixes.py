"""Fixes as edits of a document's text, and `lint --fix`'s loop and save.

- `fixes_for(doc, diagnostic, profile, check)`: the fixes of one diagnostic as text
  edits on `doc.text` (core/model/fixes.py); frontmatter changes go through the
  round-trip writer (round_trip.apply_changes), so only the bytes the fix names change.
  Every fix is checked before it is offered: its text is parsed again and must read
  as planned (no new reading problem, the frontmatter's values exactly the planned
  ones); with a `check`, it is validated again and must take away the diagnostic it
  fixes. A fix that fails is dropped (`plan_fixes` says why), never applied.
- `apply_fix(doc, fix)`: the new text (BOM kept), for an editor buffer or a save.
- `fix_text(text, check, unsafe)`: fix, check again, until nothing fixable is left
  (a fixed point in one run, within MAX_ROUNDS fixes; every applied fix is recorded;
  a fix dropped is not tried twice and no text is reached twice, so the loop ends).
  A folder rename can be refused (`keep_folder`: the folder lint was given, or one
  holding it).
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
from typing import Any

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
from .changes import Change
from .round_trip import apply_changes
from .saving import SaveError, Stamp, atomic_write, encode

MAX_ROUNDS = 64  # fixes applied to one file in one run, at most
MAX_TRIES = 4 * MAX_ROUNDS  # fixes tried (applied or dropped) on one file in one run
_SLUG = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")

Check = Callable[[str], tuple[Document, list[Diagnostic]]]


def _resolve(
    doc: Document, diagnostic: Diagnostic, plan: FixPlan, profile: Profile
) -> Fix | str | None:
    """The fix of `plan` on `doc`; why it is dropped (its text would not read as
    planned); or None when it would change nothing."""
    edits: list[TextEdit] = list(plan.edits)
    intended = doc.mapping
    if plan.fields:
        changes = [
            Change("unset" if f.remove else "set", f.key, f.value, path=f.path) for f in plan.fields
        ]
        try:
            new = apply_changes(doc, changes, order=[spec.key for spec in profile.fields])
        except EditError as exc:
            return f"{plan.title}: not applied: {exc}"
        if new.startswith(BOM):
            new = new[1:]
        intended = parse_text(Document(path=doc.path), new).mapping
        field_edit = edit_between(doc.text, new)
        if field_edit is not None:
            edits.append(field_edit)
    try:
        new_text = apply_edits(doc.text, edits)
    except ValueError as exc:
        return f"{plan.title}: not applied: {exc}"
    if new_text == doc.text and plan.rename_folder is None:
        return None
    if new_text != doc.text:
        edited = _keys_edited(doc, plan.edits)
        if plan.reads_as is not None:
            intended, edited = plan.reads_as, set()
        problem = _reads_as_planned(doc, new_text, intended, edited)
        if problem is not None:
            return f"{plan.title}: not applied: the fixed text {problem}"
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


def _keys_edited(doc: Document, edits: tuple[TextEdit, ...]) -> set[str]:
    """The frontmatter keys whose lines a plan's own text edits touch."""
    lines = [
        (doc.text.count("\n", 0, e.start_offset) + 1, doc.text.count("\n", 0, e.end_offset) + 1)
        for e in edits
        if e.start_offset < doc.body_offset
    ]
    if not lines:
        return set()
    return {
        key
        for key, pos in doc.positions().items()
        if any(
            first <= max(pos.end_line, pos.key_line) and last >= pos.key_line
            for first, last in lines
        )
    }


def _reads_as_planned(
    doc: Document, new_text: str, intended: dict[str, Any] | None, edited: set[str]
) -> str | None:
    """Why `new_text` does not read as the fix planned it (a reading problem the text
    did not have, or frontmatter values other than `intended` for a key no text edit
    touched), or None."""
    after = parse_text(Document(path=doc.path), new_text)
    had = {problem.code for problem in doc.problems}
    new = [problem for problem in after.problems if problem.code not in had]
    if new:
        return f"would not read ({new[0].message})"
    if (after.mapping is None) != (intended is None):
        return "would not read as a mapping of fields"
    if edited and after.mapping is not None and intended is not None:
        after_kept = {k: v for k, v in after.mapping.items() if k not in edited}
        intended = {k: v for k, v in intended.items() if k not in edited}
        if after_kept != intended:
            return "would change frontmatter values the fix does not name"
    elif after.mapping != intended:
        return "would change frontmatter values the fix does not name"
    return None


def plan_fixes(
    doc: Document,
    diagnostic: Diagnostic,
    profile: Profile,
    check: Check | None = None,
    unsafe: bool = True,
) -> tuple[list[Fix], list[str]]:
    """The fixes of `diagnostic` in `doc` that pass their checks (without `unsafe`,
    the safe ones only), and a note for each one dropped. With `check` each is
    validated again and kept only when the diagnostic it fixes is gone from its
    result (a folder rename, which no text shows, is kept as it is)."""
    if diagnostic.path != doc.path:
        return [], []
    fixes: list[Fix] = []
    notes: list[str] = []
    before: list[Diagnostic] | None = None
    for plan in plans_for(doc, diagnostic):
        if not unsafe and not (plan.safe and plan.rename_folder is None):
            continue
        found = _resolve(doc, diagnostic, plan, profile)
        if isinstance(found, str):
            notes.append(found)
            continue
        if found is None:
            continue
        if check is not None and found.edits:
            if before is None:
                before = check((BOM if doc.bom else "") + doc.text)[1]
            problem = still_there(diagnostic, before, check(apply_fix(doc, found))[1])
            if problem is not None:
                notes.append(f"{found.title}: not applied: {problem}")
                continue
        fixes.append(found)
    return fixes, notes


def fixes_for(
    doc: Document, diagnostic: Diagnostic, profile: Profile, check: Check | None = None
) -> list[Fix]:
    """The fixes of `diagnostic` in `doc` (the document the diagnostic was found in,
    from disk or an editor's unsaved text), each as edits on `doc.text`; those that
    fail their checks are left out (`plan_fixes`)."""
    return plan_fixes(doc, diagnostic, profile, check)[0]


def still_there(
    diagnostic: Diagnostic, before: list[Diagnostic], after: list[Diagnostic]
) -> str | None:
    """Why a fix's result (`after`, the diagnostics of its text) does not fix
    `diagnostic` (found among `before`): as many of it are left, or more of its code."""
    same = (diagnostic.code, diagnostic.field, diagnostic.message)

    def count(found: list[Diagnostic]) -> int:
        return sum((d.code, d.field, d.message) == same for d in found)

    if count(after) >= max(count(before), 1):
        return "the fixed text still has the problem it fixes"
    if sum(d.code == diagnostic.code for d in after) > sum(
        d.code == diagnostic.code for d in before
    ):
        return f"the fixed text has more {diagnostic.code} problems than before"
    return None


def apply_fix(doc: Document, fix: Fix) -> str:
    """The text of `doc` with `fix` made (the BOM kept when the file had one)."""
    return (BOM if doc.bom else "") + apply_edits(doc.text, fix.edits)


@dataclass(slots=True)
class FixOutcome:
    """What `fix_text` did: the new text (BOM included), the fixes applied in order,
    the folder's new name when an unsafe fix renames it, and a note for each fix
    not applied (its result failed a check, or the rename was refused)."""

    text: str
    applied: list[Fix] = field(default_factory=list)
    rename_folder: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.applied)

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)


def fix_text(
    text: str,
    check: Check,
    profile: Profile,
    unsafe: bool = False,
    wanted: Callable[[Diagnostic], bool] | None = None,
    keep_folder: str | None = None,
) -> FixOutcome:
    """Apply every fix `check` offers (safe ones; with `unsafe` all), one at a time,
    checking again after each, until none is left: one run reaches the fixed point
    (a second finds nothing), within MAX_ROUNDS fixes and MAX_TRIES tries. Each fix
    is checked before it is applied (`plan_fixes`: its text reads as planned; then
    its text no longer has its diagnostic, and that check is the next round's).
    `wanted` picks the diagnostics that may be fixed (those reported after the
    project's rule settings); `keep_folder`, when set, says why the skill's folder
    is not renamed."""
    outcome = FixOutcome(text)
    # fixes that were tried and not applied (dropped, refused), so never tried again
    tried: set[tuple[str, str, int, int, str]] = set()
    # a diagnostic a folder rename answers is not fixed again (its text still shows it:
    # setting the name to the old folder's would undo the rename)
    settled: set[tuple[str, str | None, str]] = set()
    seen = {text}  # every text reached: a fix back to one of them would start a cycle
    current = check(text)
    for _ in range(MAX_TRIES):
        if len(outcome.applied) >= MAX_ROUNDS:
            break
        doc, diagnostics = current
        found = _next_fix(doc, diagnostics, profile, unsafe, wanted, (tried, settled), outcome)
        if found is None:
            break
        diagnostic, fix = found
        tried_key = (fix.code, fix.title, fix.line, fix.column, diagnostic.message)
        if fix.rename_folder is not None:
            tried.add(tried_key)
            if keep_folder is not None:
                outcome.note(f"{fix.title}: not done: {keep_folder}")
            elif outcome.rename_folder is None:
                settled.add((diagnostic.code, diagnostic.field, diagnostic.message))
                outcome.rename_folder = fix.rename_folder
                outcome.applied.append(fix)
            continue
        new_text = apply_fix(doc, fix)
        again = check(new_text)
        problem = still_there(diagnostic, diagnostics, again[1])
        if problem is None and new_text in seen:
            problem = "it would undo a fix made before"
        if problem is not None:
            tried.add(tried_key)
            outcome.note(f"{fix.title}: not applied: {problem}")
            continue
        seen.add(new_text)
        outcome.text = new_text
        outcome.applied.append(fix)
        current = again
    return outcome


def _next_fix(
    doc: Document,
    diagnostics: list[Diagnostic],
    profile: Profile,
    unsafe: bool,
    wanted: Callable[[Diagnostic], bool] | None,
    memory: tuple[set[tuple[str, str, int, int, str]], set[tuple[str, str | None, str]]],
    outcome: FixOutcome,
) -> tuple[Diagnostic, Fix] | None:
    """The next fix to try and its diagnostic (one not tried before), or None when no
    fix is left; fixes dropped on the way are noted in `outcome`."""
    tried, settled = memory
    for diagnostic in diagnostics:
        if wanted is not None and not wanted(diagnostic):
            continue
        if (diagnostic.code, diagnostic.field, diagnostic.message) in settled:
            continue
        fixes, dropped = plan_fixes(doc, diagnostic, profile, unsafe=unsafe)
        for note in dropped:
            outcome.note(note)
        for fix in fixes:
            if not (fix.safe or unsafe):
                continue
            if (fix.code, fix.title, fix.line, fix.column, diagnostic.message) in tried:
                continue
            return diagnostic, fix
    return None


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
