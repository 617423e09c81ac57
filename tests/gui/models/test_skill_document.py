"""Tests of gui/models/skill_document.py (SkillDocument: one open SKILL.md — its text,
its stamp on disk, its diagnostics)."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from skillstudio.core.checking.links import LINKS_CHECKED
from skillstudio.core.model.document import Document
from skillstudio.core.reading import frontmatter
from skillstudio.gui.editor.skill_editor import SkillEditor
from skillstudio.gui.models import skill_document
from skillstudio.gui.window.main_window import MainWindow

from ..parts import (
    STALL_MAX_S,
    Editors,
    longest_stall,
    open_skill,
    open_window,
    write_skill,
)
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


# -- one parse per keystroke -------------------------------------------------------
# The document parses the text on screen once per keystroke: the form, the preview
# and the validation (here, or a large text's on a worker) share that one parse
# (SkillDocument.parsed(), handed to Registry.reparse / rebuild_job, which copy it).
# Before, a keystroke in the source parsed the YAML twice (the form, the registry's
# re-read) and one in the form four times.

COMMIT = "oasis/key_skills/commit/SKILL.md"


class Parses:
    """Each YAML parse of a frontmatter, with whether the round trip's read-back of
    a form edit made it (a check of the edit's text, not a reading of the screen)."""

    def __init__(self) -> None:
        self.made: list[str] = []

    def of_the_screen(self) -> int:
        return sum(1 for why in self.made if why != "read-back")


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Iterator[Parses]:
    found = Parses()
    real = frontmatter._load_yaml

    def counting(doc: Document) -> None:
        callers = {frame.function for frame in inspect.stack()[1:12]}
        found.made.append("read-back" if "apply_changes" in callers else "screen")
        real(doc)

    monkeypatch.setattr(frontmatter, "_load_yaml", counting)
    yield found


def commit_tab(qtbot: QtBot, editors: Editors, samples: Path) -> SkillEditor:
    editor = open_skill(editors, samples, COMMIT)
    qtbot.waitUntil(lambda: not editor.document.pending)
    return editor


def in_the_description(editor: SkillEditor) -> None:
    """The source view current, its cursor at the end of the description's line."""
    editor.views.setCurrentWidget(editor.source)
    block = editor.source.document().begin()
    while not block.text().startswith("description:"):
        block = block.next()
    cursor = editor.source.textCursor()
    cursor.setPosition(block.position() + block.length() - 1)
    editor.source.setTextCursor(cursor)


def keystroke(qtbot: QtBot, editor: SkillEditor, widget: QWidget, parses: Parses) -> None:
    """One keystroke in `widget`, its validation landed."""
    parses.made.clear()
    with qtbot.waitSignal(editor.document.diagnostics_changed, timeout=10_000):
        qtbot.keyClick(widget, Qt.Key.Key_X)
    qtbot.waitUntil(lambda: not editor.document.pending)


def test_a_keystroke_in_the_source_parses_the_yaml_once(
    qtbot: QtBot, editors: Editors, samples: Path, parses: Parses
) -> None:
    editor = commit_tab(qtbot, editors, samples)
    in_the_description(editor)
    keystroke(qtbot, editor, editor.source, parses)
    assert parses.made == ["screen"]  # the form's refresh; the validation reused it
    skill = editor.document.registry.by_path[editor.document.path]
    assert skill.description.endswith("them.x"), "the registry validated the new text"
    editor.views.setCurrentWidget(editor.preview)  # the preview reads the same parse
    assert parses.made == ["screen"]


def test_a_keystroke_in_the_form_parses_the_text_on_screen_once(
    qtbot: QtBot, editors: Editors, samples: Path, parses: Parses
) -> None:
    editor = commit_tab(qtbot, editors, samples)
    editor.views.setCurrentWidget(editor.form)
    field = editor.form.fields["description"].widget
    field.setFocus()
    for _ in range(2):  # the first of a run reads the text before it; the next too
        keystroke(qtbot, editor, field, parses)
        # the edit's read-back (nothing is written unless it reads back as meant) is
        # the round trip's own check; the form, the validation share the one reading
        assert parses.of_the_screen() == 1, parses.made
        assert parses.made.count("read-back") == 1
    skill = editor.document.registry.by_path[editor.document.path]
    assert skill.description.startswith("xxWrite")


def test_a_large_texts_validation_on_a_worker_copies_the_parse(
    qtbot: QtBot,
    editors: Editors,
    samples: Path,
    parses: Parses,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(skill_document, "SYNC_CHARS", 10)  # every text is "large"
    editor = commit_tab(qtbot, editors, samples)
    in_the_description(editor)
    busy: list[bool] = []
    editor.document.job.busy_changed.connect(busy.append)
    keystroke(qtbot, editor, editor.source, parses)
    assert busy == [True, False], "validated on a worker"
    assert parses.made == ["screen"]
    document = editor.document
    skill = document.registry.by_path[document.path]
    assert skill.description.endswith("them.x")
    assert skill.doc is not document.parsed(), "the worker's skill has a copy of its own"
    assert document.parsed().text == document.text(), "the shared parse keeps its text"
