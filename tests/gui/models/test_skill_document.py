"""Tests of gui/models/skill_document.py (SkillDocument: one open SKILL.md — its text,
its stamp on disk, its diagnostics)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot

from skillstudio.core.checking.links import LINKS_CHECKED
from skillstudio.gui.editor.skill_editor import SkillEditor
from skillstudio.gui.window.main_window import MainWindow

from ..parts import STALL_MAX_S, longest_stall, open_window, write_skill
from ..recovery_driver import type_text

LINES = 100_000


KEYS = "typed words"


SLACK_S = 0.1  # what the link body may add to the plain body's longest stall


def opened(win: MainWindow, path: Path) -> bool:
    editor = win.documents.get(str(path))
    return (
        editor is not None
        and not editor.document.pending
        and "content, wherever it lies: accepted by" in win.problems.where.text()
    )


def typed(qtbot: QtBot, editor: SkillEditor) -> float:
    """The longest stall while KEYS are typed one every 60 ms, the validation of the
    last one included."""
    editor.views.setCurrentWidget(editor.source)
    editor.source.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.wait(300)  # the view's first layout and highlighting: not typing

    def type_all() -> None:
        for char in KEYS:
            type_text(editor.source, char)
            qtbot.wait(60)

    def settled() -> bool:
        return editor.document.text().endswith(KEYS) and not editor.document.pending

    return longest_stall(qtbot, type_all, settled)


def test_a_body_of_a_hundred_thousand_links_does_not_hold_the_window(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """On main opening it froze the window for 31 s in the report (the portability
    line validated it under all 8 profiles, each parsing every link; here 140 s with
    distinct targets, whose lines were counted once per link) and each keystroke for
    3.8-19 s. Now the check is bounded and shared, the line and a large document's
    validation run on workers: the stalls match a plain body of as many lines (what
    Qt itself takes for that much text)."""
    root = tmp_path / "skills"
    plain = write_skill(root, "plain", "".join(f"line {n:x}\n" for n in range(LINES)))
    links = write_skill(root, "links", "".join(f"[]({n:x})\n" for n in range(LINES)))
    win = open_window(qtbot, settings, root)
    stalls: dict[str, tuple[float, float]] = {}
    for path in (plain, links):
        opening = longest_stall(
            qtbot, partial(win.open_skill, str(path)), partial(opened, win, path)
        )
        editor = win.documents[str(path)]
        stalls[path.parent.name] = (opening, typed(qtbot, editor))
    print(
        {
            name: f"open {o * 1000:.0f} ms, typing {t * 1000:.0f} ms"
            for name, (o, t) in stalls.items()
        }
    )
    (plain_open, plain_typing), (links_open, links_typing) = stalls["plain"], stalls["links"]
    assert links_open < plain_open * 2 + SLACK_S, "opening the links froze the window"
    assert links_typing < plain_typing + SLACK_S and links_typing < STALL_MAX_S
    diagnostics = win.documents[str(links)].document.diagnostics
    codes = [d.code for d in diagnostics]
    assert codes.count("link-broken") == LINKS_CHECKED and "scan-limit" in codes
