"""Quick fixes in the app: "Fix: <title>" on a Problems row (its context menu) and
beside a form field's message. A fix (core/editing/fixes.py `fixes_for`) is applied to
the open tab's text as one edit of its undo history (Ctrl+Z takes it back), never
written to disk: the user saves. Fixes that rename the skill's folder are left to
`skillstudio lint --fix --unsafe-fixes`. A fix is checked as `lint --fix` checks it:
its text must read as planned, and (in a menu, and before a button's fix is made) it
must take its problem away when the skill is validated again."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QPoint, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QMainWindow, QMenu, QToolButton, QWidget

from ...core.checking.fix_plans import fixable
from ...core.editing.fixes import Check, fixes_for, skill_check
from ...core.editing.saving import read_regular
from ...core.model.diagnostics import Diagnostic
from ...core.model.document import Document
from ...core.model.fixes import Fix
from ...core.profile import Profile
from ...core.reading.frontmatter import BOM, MAX_FILE_BYTES, parse_text
from ...core.scanning.registry import Registry
from ..editor.form_view import OTHER_ROW, FormView
from ..editor.skill_editor import SkillEditor
from ..models.app_context import AppContext
from ..models.problems_model import DIAGNOSTIC_ROLE
from ..models.skill_document import SkillDocument, end_undo_step
from ..panels.problems_panel import ProblemsPanel

MAX_FIELD_FIXES = 20  # field diagnostics looked at per check (each parses the text once)


def text_fixes(
    path: str, text: str, diagnostic: Diagnostic, profile: Profile, check: Check | None = None
) -> list[Fix]:
    """The fixes of `diagnostic` that edit the text `text` of `path` only (with `check`,
    those whose result no longer has the diagnostic)."""
    if diagnostic.path != path or not path.endswith("SKILL.md") or not fixable(diagnostic.code):
        return []
    try:
        found = fixes_for(parse_text(Document(path=path), text), diagnostic, profile, check)
    except Exception:  # a core bug on this text: no fix offered, the text is kept
        return []
    return [fix for fix in found if fix.rename_folder is None and fix.edits]


def check_of(registry: Registry | None, path: str, profile: Profile) -> Check | None:
    """The validation a fix of the skill at `path` is checked with (None when the
    registry does not hold it)."""
    skill = registry.by_path.get(path) if registry is not None else None
    return skill_check(skill, profile) if skill is not None else None


def _utf16(text: str, offset: int) -> int:
    """A code-point offset in `text` as a QTextDocument position (UTF-16 units)."""
    return len(text[:offset].encode("utf-16-le")) // 2


def apply_fix(document: SkillDocument, fix: Fix) -> None:
    """`fix` on the document's text as one undoable edit (its edits were worked out on
    this text); nothing is saved."""
    text = document.text()
    edits = sorted(fix.edits, key=lambda e: e.start_offset, reverse=True)
    cursor = QTextCursor(document.text_document)
    if edits:  # set before the block: undo puts the source's cursor here, not on line 1
        cursor.setPosition(_utf16(text, edits[0].start_offset))
    cursor.beginEditBlock()
    for edit in edits:
        cursor.setPosition(_utf16(text, edit.start_offset))
        cursor.setPosition(_utf16(text, edit.end_offset), QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(edit.new_text)
    end_undo_step(cursor)  # what is typed next is a step of its own
    cursor.endEditBlock()


def same_fix(fixes: list[Fix], wanted: Fix) -> Fix | None:
    """The fix in `fixes` that is `wanted` worked out again (on the tab's text)."""
    key = (wanted.code, wanted.title, wanted.line, wanted.column)
    return next((f for f in fixes if (f.code, f.title, f.line, f.column) == key), None)


class ProblemFixes(QObject):
    """The Problems list's context menu: a "Fix: <title>" per fix of the row's problem.
    Choosing one opens the skill's tab (if it is not open) and fixes its text there."""

    def __init__(
        self,
        panel: ProblemsPanel,
        editors: dict[str, SkillEditor],
        open_skill: Callable[[str, int, int], SkillEditor | None],
        context: AppContext,
    ) -> None:
        super().__init__(panel)
        self.panel = panel
        self.editors = editors
        self.open_skill = open_skill
        self.context = context
        view = panel.view
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.customContextMenuRequested.connect(self._on_menu)

    def profile_of(self, path: str) -> Profile | None:
        registry = self.context.registry_for(path)
        return registry.profile if registry is not None else None

    def fixes(self, diagnostic: Diagnostic) -> list[Fix]:
        """The fixes offered for a row: on the open tab's text, else the file's."""
        profile = self.profile_of(diagnostic.path)
        if profile is None:
            return []
        editor = self.editors.get(diagnostic.path)
        if editor is not None:
            text = editor.document.text()
        else:
            try:
                raw, _mtime = read_regular(diagnostic.path, MAX_FILE_BYTES)
            except OSError:
                return []
            text = raw.decode("utf-8", errors="replace").removeprefix(BOM)
        check = check_of(self.context.registry_for(diagnostic.path), diagnostic.path, profile)
        return text_fixes(diagnostic.path, text, diagnostic, profile, check)

    def menu_for(self, diagnostic: Diagnostic) -> QMenu:
        menu = QMenu(self.panel)
        for fix in self.fixes(diagnostic):
            action = menu.addAction(f"Fix: {fix.title}")
            action.setToolTip("Changes the open tab's text (Ctrl+Z undoes it); save to keep it")
            action.triggered.connect(lambda _c=False, d=diagnostic, f=fix: self.apply(d, f))
        return menu

    def apply(self, diagnostic: Diagnostic, fix: Fix) -> bool:
        """`fix` (offered for `diagnostic`) in the skill's tab; False when it no longer
        applies to the text there."""
        editor = self.open_skill(diagnostic.path, 0, 1)
        profile = self.profile_of(diagnostic.path)
        if editor is None or profile is None:
            return False
        text = editor.document.text()
        check = check_of(self.context.registry_for(diagnostic.path), diagnostic.path, profile)
        again = same_fix(text_fixes(diagnostic.path, text, diagnostic, profile, check), fix)
        if again is None:
            window = self.panel.window()
            if isinstance(window, QMainWindow):
                window.statusBar().showMessage(
                    f"Not fixed: the text changed, or the fix would not take the problem away "
                    f"({fix.title})",
                    10_000,
                )
            return False
        apply_fix(editor.document, again)
        return True

    def _on_menu(self, pos: QPoint) -> None:
        index = self.panel.view.indexAt(pos)
        diagnostic = index.data(DIAGNOSTIC_ROLE) if index.isValid() else None
        if not isinstance(diagnostic, Diagnostic):
            return
        menu = self.menu_for(diagnostic)
        if not menu.isEmpty():
            menu.exec(self.panel.view.viewport().mapToGlobal(pos))


class FieldFixes(QObject):
    """A "Fix: <title>" button under each form field whose problem has a fix (under "Other
    fields" for a key no field declares, such as `version` moved under `metadata:`). Buttons are
    made again only when the fixes offered change (not on every keystroke's check)."""

    def __init__(self, form: FormView, document: SkillDocument, profile: Profile) -> None:
        super().__init__(form)
        self.form = form
        self.document = document
        self.profile = profile
        self.rows: dict[str, QWidget] = {}
        self.buttons: dict[str, list[QToolButton]] = {}
        self.offered: dict[str, list[tuple[Diagnostic, Fix]]] = {}
        for key in [*form.fields, OTHER_ROW]:
            row = QWidget(form)
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            line.addStretch(1)
            row.setVisible(False)
            if form.add_below(key, row):
                self.rows[key] = row
        document.diagnostics_changed.connect(self.update)
        self.update()

    def update(self, *_args: object) -> None:
        text = self.document.text()
        wanted: dict[str, list[tuple[Diagnostic, Fix]]] = {}
        looked = 0
        for diagnostic in self.document.diagnostics:
            place = self._row_of(diagnostic.field)
            if place is None or looked >= MAX_FIELD_FIXES:
                continue
            looked += 1
            for fix in text_fixes(self.document.path, text, diagnostic, self.profile):
                wanted.setdefault(place, []).append((diagnostic, fix))
        for key, row in self.rows.items():
            found = wanted.get(key, [])
            before = self.offered.get(key, [])
            self.offered[key] = found  # the buttons apply these (worked out on this text)
            if [(d.message, f.title) for d, f in found] == [
                (d.message, f.title) for d, f in before
            ]:
                continue
            for button in self.buttons.pop(key, []):
                button.deleteLater()
            line = row.layout()
            assert isinstance(line, QHBoxLayout)
            made = []
            for number, (diagnostic, fix) in enumerate(found):
                button = QToolButton(row)
                button.setText(f"Fix: {fix.title}")
                button.setToolTip(f"{diagnostic.message}\nCtrl+Z undoes it; save to keep it.")
                button.setObjectName(f"fix-{key}")
                button.clicked.connect(lambda _c=False, k=key, n=number: self.apply(k, n))
                line.insertWidget(line.count() - 1, button)
                made.append(button)
            self.buttons[key] = made
            row.setVisible(bool(made))

    def _row_of(self, key: str | None) -> str | None:
        """The row a problem of frontmatter key `key` shows under: its field's, or the
        "Other fields" row for a key no field declares."""
        if key is None:
            return None
        if key in self.rows and key != OTHER_ROW:
            return key
        return OTHER_ROW if self.profile.field(key) is None else None

    def apply(self, key: str, number: int) -> bool:
        """The `number`th fix offered under field `key`, if it still fits the text."""
        offered = self.offered.get(key, [])
        if number >= len(offered):
            return False
        diagnostic, fix = offered[number]
        text = self.document.text()
        path = self.document.path
        check = check_of(self.document.registry, path, self.profile)
        again = same_fix(text_fixes(path, text, diagnostic, self.profile, check), fix)
        if again is None:  # typed since the last check (the next check offers it again), or
            return False  # its result failed the check: not made
        apply_fix(self.document, again)
        return True
