"""Drives the real app (skillstudio.gui.app.main) for the crash recovery test.

python -m tests.gui.recovery_driver edit FOLDER SKILL TYPED
    opens FOLDER, types TYPED at the end of SKILL, prints "KEPT" once the
    recovery file holds it, and waits (to be killed with SIGKILL);
python -m tests.gui.recovery_driver restore FOLDER SKILL PNG
    starts again, saves the restore dialog as PNG, presses Restore, prints the
    editor's text as JSON and exits.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import QApplication, QWidget

from skillstudio.core.editing import recovery
from skillstudio.gui import app as gui_app
from skillstudio.gui.dialogs.restore_dialog import RestoreDialog
from skillstudio.gui.window.main_window import MainWindow


def window() -> MainWindow | None:
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, MainWindow) and widget.context.registries and not widget.scanning:
            return widget
    return None


def poll(step: Callable[[], bool]) -> None:
    """Call `step` every 50 ms until it returns True."""
    timer = QTimer()
    timer.setInterval(50)

    def tick() -> None:
        if step():
            timer.stop()

    timer.timeout.connect(tick)
    timer.start()
    poll.timers.append(timer)  # type: ignore[attr-defined]


poll.timers = []  # type: ignore[attr-defined]


def type_text(widget: QWidget, text: str) -> None:
    """Key presses carrying each character (QTest.keyClicks takes ASCII only)."""
    for char in text:
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            event = QKeyEvent(kind, Qt.Key.Key_unknown, Qt.KeyboardModifier.NoModifier, char)
            QApplication.sendEvent(widget, event)


def edit(skill: str, typed: str) -> Callable[[], bool]:
    state = {"typed": False}

    def step() -> bool:
        win = window()
        if win is None or win.recovery is None:
            return False
        if not state["typed"]:
            editor = win.open_skill(skill)
            if editor is None:
                return False
            editor.views.setCurrentWidget(editor.source)
            editor.source.moveCursor(QTextCursor.MoveOperation.End)
            type_text(editor.source, typed)
            state["typed"] = True
            return False
        kept = recovery.read(recovery.file_for(win.recovery.folder, skill))
        if kept is not None and kept.text.endswith(typed):
            print("KEPT", flush=True)
            return True
        return False

    return step


def restore(skill: str, png: str) -> Callable[[], bool]:
    def step() -> bool:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, RestoreDialog):
            return False
        dialog.grab().save(png)
        offered = dialog.findChildren(type(dialog.diff_view))[0].toPlainText()
        dialog.restore_button.click()
        QTimer.singleShot(0, lambda: report(skill, offered))
        return True

    return step


def report(skill: str, diff: str) -> None:
    win = window()
    editor = win.documents.get(skill) if win is not None else None
    result = {
        "text": editor.document.text() if editor is not None else None,
        "modified": editor.document.modified if editor is not None else None,
        "diff": diff,
    }
    print("RESULT " + json.dumps(result), flush=True)
    os._exit(0)  # no closing questions: the test is over


def main() -> int:
    mode, folder, skill, extra = sys.argv[1:5]
    QApplication(sys.argv[:1])
    poll(edit(skill, extra) if mode == "edit" else restore(skill, extra))
    return gui_app.main([folder])


if __name__ == "__main__":
    raise SystemExit(main())
