"""Tests of gui/controllers/quick_fixes.py (Quick fixes in the app: "Fix: <title>" on a
Problems row (its context menu) and beside a form field's message. A fix
(core/editing/fixes.py `fixes_for`) is applied to the open tab's text as one edit of
its undo history (Ctrl+Z takes it back), never written to disk: the user saves. Fixes
that rename the skill's folder are left to `skillstudio lint --fix --unsafe-fixes`. A
fix is checked as `lint --fix` checks it: its text must read as planned, and (in a
menu, and before a button's fix is made) it must take its problem away when the skill
is validated again)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QToolButton
from pytestqt.qtbot import QtBot

from skillstudio.core.checking import fix_plans
from skillstudio.core.editing.fixes import apply_fix, fixes_for
from skillstudio.core.model.diagnostics import Diagnostic
from skillstudio.core.model.document import Document
from skillstudio.core.model.fixes import FixPlan, TextEdit
from skillstudio.core.reading.frontmatter import parse_text
from skillstudio.gui.window.main_window import MainWindow
from tests.helpers import write

# an astral character before the fix: the tab counts UTF-16 units, core code points
TEXT = (
    "---\n"
    "name: pdf-filler\n"
    'description: "Fills 📄 <b>PDF</b> forms.  Use when asked to fill a PDF form."\n'
    "---\n"
    "# PDF 📄\n\nBody <b>kept</b>.\n"
)


def opened(qtbot: QtBot, settings: QSettings, tmp_path: Path) -> tuple[MainWindow, str]:
    path = write(tmp_path / "proj", "skills/pdf-filler/SKILL.md", TEXT)
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.resize(1200, 780)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(tmp_path / "proj"))
    return win, path


def expected_text(win: MainWindow, path: str) -> str:
    """What core's own fix makes of TEXT (lint --fix --unsafe-fixes writes the same)."""
    doc = parse_text(Document(path=path), TEXT)
    diag = next(d for d in win.problems_model.shown() if d.code == "description-xml")
    registry = win.context.registry_for(path)
    assert registry is not None
    (fix,) = fixes_for(doc, diag, registry.profile)
    return apply_fix(doc, fix)


ESCAPES = (
    "---\nname: pdf-filler\ndescription: Fills PDF forms. Use when asked to fill a PDF form.\n"
    "---\nEdit config\\_loader.py, then run `scripts\\fill.py`\n"
    "from C:\\Program Files\\Tool\\x.exe.\n"
)


def test_a_fix_from_problems_changes_the_tab_only_and_undoes(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    win, path = opened(qtbot, settings, tmp_path)
    diag = next(d for d in win.problems_model.shown() if d.code == "description-xml")
    menu = win.problem_fixes.menu_for(diag)
    titles = [a.text() for a in menu.actions()]
    assert titles == ["Fix: Take the tags out of the description"]
    menu.actions()[0].trigger()
    editor = win.document_tabs.editors[path]
    fixed = editor.document.text()
    assert fixed == expected_text(win, path)
    assert fixed == TEXT.replace("📄 <b>PDF</b> forms.  Use", "📄 PDF forms. Use"), "only there"
    assert editor.document.modified
    assert Path(path).read_text(encoding="utf-8") == TEXT, "nothing written: the user saves"
    qtbot.waitUntil(lambda: not editor.document.pending, timeout=5_000)
    assert "description-xml" not in {d.code for d in editor.document.diagnostics}
    editor.undo()
    assert editor.document.text() == TEXT, "one Ctrl+Z restores it byte for byte"
    assert not editor.document.modified


def test_a_fix_beside_the_form_field_changes_the_tab_only_and_undoes(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    win, path = opened(qtbot, settings, tmp_path)
    editor = win.open_skill(path)
    assert editor is not None
    buttons = editor.form.findChildren(QToolButton, "fix-description")
    shown = [b for b in buttons if b.isVisibleTo(editor.form)]
    assert [b.text() for b in shown] == ["Fix: Take the tags out of the description"]
    assert not [b for b in editor.form.findChildren(QToolButton) if b.objectName() == "fix-name"]
    shown[0].click()
    assert editor.document.text() == expected_text(win, path)
    assert editor.form.value_of("description") == (
        "Fills 📄 PDF forms. Use when asked to fill a PDF form."
    ), "the form shows the fixed value"
    assert Path(path).read_text(encoding="utf-8") == TEXT
    qtbot.waitUntil(
        lambda: (
            not [
                b
                for b in editor.form.findChildren(QToolButton, "fix-description")
                if b.isVisibleTo(editor.form)
            ]
        ),
        timeout=5_000,
    )
    editor.form.undo()
    assert editor.document.text() == TEXT


def test_a_problem_row_tooltip_explains_its_rule(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """Issue 29: "the app shows the explanation on hover"."""
    win, _path = opened(qtbot, settings, tmp_path)
    model = win.problems_model
    rows = [model.index(r, 0) for r in range(model.rowCount())]
    row = next(i for i in rows if i.siblingAtColumn(1).data() == "description-xml")
    tip = " ".join(row.data(Qt.ItemDataRole.ToolTipRole).split())
    assert "The Skills API refuses tags in a description" in tip, "the rule's explanation"
    assert "Default severity: warning (advice)." in tip
    assert "Fix: unsafe" in tip
    assert tip.startswith("warning: The description contains the tag <b>")


def test_the_backslash_fix_in_the_app_keeps_markdown_escapes(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """Issue 34: the app offered the path fix that rewrote `config\\_loader.py` (a
    Markdown escape) into `config/_loader.py`; only the code span's path is a path."""
    path = write(tmp_path / "proj", "skills/pdf-filler/SKILL.md", ESCAPES, dedent=False)
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(tmp_path / "proj"))
    diag = next(d for d in win.problems_model.shown() if d.code == "path-backslash")
    assert "'scripts\\fill.py'" in diag.message
    menu = win.problem_fixes.menu_for(diag)
    assert [a.text() for a in menu.actions()] == ["Fix: Write the paths with '/'"]
    menu.actions()[0].trigger()
    editor = win.document_tabs.editors[path]
    assert editor.document.text() == ESCAPES.replace("scripts\\fill.py", "scripts/fill.py")


def test_a_fix_that_would_not_take_its_problem_away_is_not_offered(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app checks a fix as `lint --fix` does: validated again, its problem must go."""

    def plan(doc: Document, diag: Diagnostic) -> list[FixPlan]:
        end = len(doc.text)
        return [FixPlan("Add a blank line", True, edits=(TextEdit(end, end, "\n"),))]

    monkeypatch.setitem(fix_plans.PLANNERS, "description-xml", plan)
    win, path = opened(qtbot, settings, tmp_path)
    diag = next(d for d in win.problems_model.shown() if d.code == "description-xml")
    assert win.problem_fixes.menu_for(diag).isEmpty()
    editor = win.open_skill(path)
    assert editor is not None
    for button in editor.form.findChildren(QToolButton, "fix-description"):
        if button.isVisibleTo(editor.form):
            button.click()  # checked when made: not made
    assert editor.document.text() == TEXT and not editor.document.modified


VERSIONED = (
    "---\nname: pdf-filler\ndescription: Fills PDF forms. Use when asked to fill a PDF form.\n"
    "version: 1.2.0  # bumped by CI\nlicense: MIT\n---\nBody.\n"
)
MOVED = VERSIONED.replace("version: 1.2.0", "metadata:\n  version: 1.2.0")


def test_an_unknown_key_moves_under_metadata_from_the_form_and_problems(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """Issue 39: `version` (not allowed by the standard) has a Fix button under "Other
    fields" and a Problems menu entry, both the core's fix."""
    path = write(tmp_path / "proj", "skills/pdf-filler/SKILL.md", VERSIONED, dedent=False)
    win = MainWindow(settings)
    win.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=10_000):
        assert win.open_path(str(tmp_path / "proj"))
    diag = next(d for d in win.problems_model.shown() if d.code == "unknown-field")
    menu = win.problem_fixes.menu_for(diag)
    assert [a.text() for a in menu.actions()] == ["Fix: Move 'version' under 'metadata:'"]
    editor = win.open_skill(path)
    assert editor is not None
    buttons = editor.form.findChildren(QToolButton, "fix-other-fields")
    shown = [b for b in buttons if b.isVisibleTo(editor.form)]
    assert [b.text() for b in shown] == ["Fix: Move 'version' under 'metadata:'"]
    shown[0].click()
    assert editor.document.text() == MOVED
    assert Path(path).read_text(encoding="utf-8") == VERSIONED, "nothing written"
    qtbot.waitUntil(lambda: not editor.document.pending, timeout=5_000)
    assert "unknown-field" not in {d.code for d in editor.document.diagnostics}
    qtbot.waitUntil(
        lambda: (
            not [
                b
                for b in editor.form.findChildren(QToolButton, "fix-other-fields")
                if b.isVisibleTo(editor.form)
            ]
        ),
        timeout=5_000,
    )
    editor.form.undo()
    assert editor.document.text() == VERSIONED


def test_typing_after_a_fix_is_an_undo_step_of_its_own(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """Text typed in the Source where the fix's insertion ended joined the fix's step
    (Qt's rule), so one Ctrl+Z took back both and the tab went clean."""
    win, path = opened(qtbot, settings, tmp_path)
    diag = next(d for d in win.problems_model.shown() if d.code == "description-xml")
    win.problem_fixes.menu_for(diag).actions()[0].trigger()
    editor = win.document_tabs.editors[path]
    fixed = editor.document.text()
    assert "📄 PDF forms. Use" in fixed
    end = fixed.index("PDF forms.") + len("PDF forms.")  # where the fix's text ends
    editor.views.setCurrentWidget(editor.source)
    cursor = editor.source.textCursor()
    cursor.setPosition(len(fixed[:end].encode("utf-16-le")) // 2)
    editor.source.setTextCursor(cursor)
    editor.source.setFocus()
    qtbot.keyClicks(editor.source, " Fast.")
    assert "PDF forms. Fast. Use" in editor.document.text()
    editor.source.undo()
    assert editor.document.text() == fixed, "the typing alone is taken back"
    assert editor.document.modified
    editor.source.undo()
    assert editor.document.text() == TEXT
    assert not editor.document.modified
    assert editor.source.textCursor().blockNumber() == 2, "where the fix was"
