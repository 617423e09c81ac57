"""SkillDocument parses the text on screen once per keystroke: the form, the preview
and the validation (here, or a large text's on a worker) share that one parse
(SkillDocument.parsed(), handed to Registry.reparse / rebuild_job, which copy it).
Before, a keystroke in the source parsed the YAML twice (the form, the registry's
re-read) and one in the form four times."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from skillstudio.core.model.document import Document
from skillstudio.core.reading import frontmatter
from skillstudio.gui.editor.skill_editor import SkillEditor
from skillstudio.gui.models import skill_document

from .parts import Shell, workspace_of

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


def opened(qtbot: QtBot, samples: Path, path: str = COMMIT) -> SkillEditor:
    shell = Shell(qtbot)
    shell.window.resize(1000, 700)
    shell.window.show()
    tabs = shell.documents(workspace_of(samples / "oasis"))
    editor = tabs.open_skill(str(samples / path))
    assert editor is not None
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


def typed(qtbot: QtBot, editor: SkillEditor, widget: QWidget, parses: Parses) -> None:
    """One keystroke in `widget`, its validation landed."""
    parses.made.clear()
    with qtbot.waitSignal(editor.document.diagnostics_changed, timeout=10_000):
        qtbot.keyClick(widget, Qt.Key.Key_X)
    qtbot.waitUntil(lambda: not editor.document.pending)


def test_a_keystroke_in_the_source_parses_the_yaml_once(
    qtbot: QtBot, samples: Path, parses: Parses
) -> None:
    editor = opened(qtbot, samples)
    in_the_description(editor)
    typed(qtbot, editor, editor.source, parses)
    assert parses.made == ["screen"]  # the form's refresh; the validation reused it
    skill = editor.document.registry.by_path[editor.document.path]
    assert skill.description.endswith("them.x"), "the registry validated the new text"
    editor.views.setCurrentWidget(editor.preview)  # the preview reads the same parse
    assert parses.made == ["screen"]


def test_a_keystroke_in_the_form_parses_the_text_on_screen_once(
    qtbot: QtBot, samples: Path, parses: Parses
) -> None:
    editor = opened(qtbot, samples)
    editor.views.setCurrentWidget(editor.form)
    field = editor.form.fields["description"].widget
    field.setFocus()
    for _ in range(2):  # the first of a run reads the text before it; the next too
        typed(qtbot, editor, field, parses)
        # the edit's read-back (nothing is written unless it reads back as meant) is
        # the round trip's own check; the form, the validation share the one reading
        assert parses.of_the_screen() == 1, parses.made
        assert parses.made.count("read-back") == 1
    skill = editor.document.registry.by_path[editor.document.path]
    assert skill.description.startswith("xxWrite")


def test_a_large_texts_validation_on_a_worker_copies_the_parse(
    qtbot: QtBot, samples: Path, parses: Parses, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(skill_document, "SYNC_CHARS", 10)  # every text is "large"
    editor = opened(qtbot, samples)
    in_the_description(editor)
    busy: list[bool] = []
    editor.document.job.busy_changed.connect(busy.append)
    typed(qtbot, editor, editor.source, parses)
    assert busy == [True, False], "validated on a worker"
    assert parses.made == ["screen"]
    document = editor.document
    skill = document.registry.by_path[document.path]
    assert skill.description.endswith("them.x")
    assert skill.doc is not document.parsed(), "the worker's skill has a copy of its own"
    assert document.parsed().text == document.text(), "the shared parse keeps its text"
