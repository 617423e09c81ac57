"""Tests of gui/editor/highlighter.py (SkillHighlighter: YAML frontmatter and markdown
body colours for the source view)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from skillstudio.gui.infra.theme import apply_scheme, is_dark

from ...hostile import big_table
from ..parts import (
    Editors,
    open_window,
    write_skill,
)


def test_palette_follows_the_scheme_and_editors_recolour(
    editors: Editors, samples: Path, qtbot: QtBot
) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    editor = editors.open_skill(str(samples / "oasis/key_skills/commit/SKILL.md"))
    assert editor is not None
    light_key = editor.highlighter.key.foreground().color().name()
    try:
        apply_scheme(app, "dark")
        assert is_dark()
        qtbot.waitUntil(lambda: editor.highlighter.key.foreground().color().name() != light_key)
    finally:
        apply_scheme(app, "light")
    assert not is_dark()
    qtbot.waitUntil(lambda: editor.highlighter.key.foreground().color().name() == light_key)


def test_source_is_highlighted(editors: Editors, qtbot: QtBot) -> None:
    path = next(p for r in editors.context.registries for p in r.by_path if "/code-review/" in p)
    editor = editors.open_skill(path)
    assert editor is not None
    block = editor.document.text_document.findBlockByNumber(1)  # 'id: code-review' or 'name: …'
    qtbot.waitUntil(lambda: bool(block.layout().formats()), timeout=2000)  # first pass is queued
    formats = block.layout().formats()
    assert formats[0].start == 0  # the key is coloured
    fence = editor.document.text_document.findBlockByNumber(0).layout().formats()
    assert fence and fence[0].format.fontWeight() > 400


def test_a_large_skill_opens_without_a_whole_document_colouring_pass(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """Qt colours an attached document in one GUI-thread pass (0.9 s for 1 MB)."""
    root = tmp_path / "skills"
    large = write_skill(root, "large", big_table(1_000_000))
    small = write_skill(root, "small", "Small.\n")
    win = open_window(qtbot, settings, root)
    big_editor, small_editor = win.open_skill(str(large)), win.open_skill(str(small))
    assert big_editor is not None and small_editor is not None
    assert big_editor.highlighter.document() is None, "shown without colours"
    assert small_editor.highlighter.document() is small_editor.document.text_document
