"""The app as a user drives it: browse, filter, edit, see problems, save, close."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from pytestqt.qtbot import QtBot

from skillstudio.core.projects.project import projects_for_path
from skillstudio.core.reading.skill_files import skill_body
from skillstudio.gui.editor.preview import render_markdown
from skillstudio.gui.editor.skill_editor import SkillEditor
from skillstudio.gui.models.skill_tree_model import KIND_ROLE, PATH_ROLE, SkillTreeModel
from skillstudio.gui.window.main_window import MainWindow

from ..helpers import SAMPLES


def all_rows(model: object, parent: QModelIndex = QModelIndex()) -> list[QModelIndex]:
    out = []
    for row in range(model.rowCount(parent)):  # type: ignore[attr-defined]
        index = model.index(row, 0, parent)  # type: ignore[attr-defined]
        out.append(index)
        out += all_rows(model, index)
    return out


def test_tree_model_passes_qtmodeltester(qapp: object, qtmodeltester: object) -> None:
    projects = projects_for_path(SAMPLES, None)
    registries = []
    for project in projects:
        registry = project.registry()
        registry.scan()
        registries.append(registry)
    model = SkillTreeModel()
    model.set_registries(registries, [p.base for p in projects])
    skill = model.index(0, 0, model.index(0, 0))
    model.fetchMore(skill)
    qtmodeltester.check(model)  # type: ignore[attr-defined]
    roots = [model.index(r, 0) for r in range(model.rowCount())]
    assert len(roots) == 14  # the samples' roots over eight profile projects
    labels = [r.data() for r in roots]
    assert "pegasus · user · wins over builtin" in labels
    assert "pegasus · builtin · yields to user" in labels
    # nothing shadows in codex: its roots get no precedence words
    assert {"codex · repository", "codex · user"} <= set(labels)


def test_window_shows_tree_problems_and_status(window: MainWindow) -> None:
    skills = [i for i in all_rows(window.tree_model) if i.data(KIND_ROLE) == "skill"]
    assert len(skills) == 31
    assert "31 skills · 0 errors · 0 warnings" in window.statusBar().currentMessage()
    assert window.problems_model.rowCount() == 2  # the two 'shadowed' notes


def skill_names(window: MainWindow) -> list[str]:
    return [i.data() for i in all_rows(window.tree_model) if i.data(KIND_ROLE) == "skill"]


def test_filter_box_narrows_the_tree(window: MainWindow, qtbot: QtBot) -> None:
    qtbot.keyClicks(window.filter_box, "hello")
    qtbot.waitUntil(lambda: skill_names(window) == ["hello-extended", "hello-extended"])
    roots = [window.tree_model.index(r, 0) for r in range(window.tree_model.rowCount())]
    assert all(window.tree.isExpanded(r) for r in roots)
    window.filter_box.clear()
    qtbot.waitUntil(lambda: len(skill_names(window)) == 31)


def test_quick_open_filter_and_enter_opens_the_first_match(
    window: MainWindow, qtbot: QtBot
) -> None:
    window.menu_actions.filter_action.trigger()
    qtbot.keyClicks(window.filter_box, "triage")
    qtbot.keyClick(window.filter_box, Qt.Key.Key_Return)
    editor = window.document_tabs.current_editor()
    assert editor is not None and editor.document.path.endswith("log-triage/SKILL.md")


def test_filtered_tree_passes_qtmodeltester(
    window: MainWindow, qtbot: QtBot, qtmodeltester: object
) -> None:
    window.tree_model.set_filter("review")
    assert set(skill_names(window)) == {
        "code-review",
        "sql-review",
        "review-kit:security-review",
        "review-kit:style-review",
        "api-review",
    }
    qtmodeltester.check(window.tree_model)  # type: ignore[attr-defined]


def open_first(window: MainWindow, name: str) -> SkillEditor:
    index = next(
        i for i in all_rows(window.tree_model) if i.data(KIND_ROLE) == "skill" and i.data() == name
    )
    window.tree.activated.emit(index)
    editor = window.tabs.currentWidget()
    assert isinstance(editor, SkillEditor)
    assert editor.document.path == index.data(PATH_ROLE)
    return editor


def test_edit_break_yaml_see_problem_then_fix_and_save(window: MainWindow, qtbot: QtBot) -> None:
    editor = open_first(window, "safe-edit")
    path = editor.document.path
    original = Path(path).read_text(encoding="utf-8")
    cursor = editor.source.textCursor()
    cursor.setPosition(len("---\nname: safe-edit"))
    editor.source.setTextCursor(cursor)
    qtbot.keyClicks(editor.source, ": oops")
    assert window.tabs.tabText(window.tabs.currentIndex()).endswith("•")
    qtbot.waitUntil(
        lambda: any(d.code == "yaml-invalid" for d in editor.document.diagnostics), timeout=2000
    )
    assert any(d.code == "yaml-invalid" for d in window.problems_model.shown())
    assert (
        "1 warnings" in window.statusBar().currentMessage()
        or "error" in window.statusBar().currentMessage()
    )
    editor.source.undo()
    qtbot.waitUntil(lambda: not editor.document.diagnostics, timeout=2000)
    assert Path(path).read_text(encoding="utf-8") == original  # nothing written yet
    cursor = editor.source.textCursor()
    cursor.movePosition(cursor.MoveOperation.End)
    editor.source.setTextCursor(cursor)
    qtbot.keyClicks(editor.source, "Added line.")
    assert window.document_tabs.save_current()
    assert Path(path).read_text(encoding="utf-8") == original + "Added line."
    assert not window.tabs.tabText(window.tabs.currentIndex()).endswith("•")


def test_save_refuses_to_overwrite_an_external_change(window: MainWindow, qtbot: QtBot) -> None:
    editor = open_first(window, "repo-survey")
    path = editor.document.path
    qtbot.keyClicks(editor.source, "mine ")
    Path(path).write_text("changed outside\n", encoding="utf-8")
    assert not window.document_tabs.save_current()
    assert Path(path).read_text(encoding="utf-8") == "changed outside\n"
    assert editor.message.isVisible() and "changed on disk" in editor.message.text()
    assert editor.document.text().startswith("mine ")  # the typed text is kept


def test_closing_with_unsaved_work_asks(
    window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    editor = open_first(window, "test-first-fix")
    qtbot.keyClicks(editor.source, "draft ")
    answers = ["cancel", "discard"]
    monkeypatch.setattr(window.dialogs, "ask_save", lambda names: answers.pop(0))
    window.document_tabs.close_tab(window.tabs.currentIndex())
    assert window.tabs.count() == 1  # cancelled: still open, text kept
    assert editor.document.text().startswith("draft ")
    window.document_tabs.close_tab(window.tabs.currentIndex())
    assert window.tabs.count() == 0
    registry = editor.document.registry
    assert "draft" not in skill_body(registry.by_path[editor.document.path])


def test_problem_double_click_opens_the_line(window: MainWindow, samples: Path) -> None:
    path = samples / "agentskills/.agents/skills/release-notes/SKILL.md"
    path.write_text(path.read_text().replace("name: release-notes", "name: Release_Notes"))
    window.reload()
    model = window.problems_model
    row = next(r for r in range(model.rowCount()) if model.index(r, 1).data() == "name-format")
    window.problems.view.doubleClicked.emit(model.index(row, 2))
    editor = window.tabs.currentWidget()
    assert isinstance(editor, SkillEditor)
    assert editor.source.textCursor().blockNumber() == 1  # line 2: the name


def test_preview_renders_safely() -> None:
    html = render_markdown(
        "# Title\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n\n- [ ] todo\n- [x] done\n\n![x](https://example.com/x.png)"
    )
    assert "<h1>Title</h1>" in html and "☐" in html and "☑" in html
    assert 'align="left"' in html and "text-align" not in html


def test_preview_highlights_code_in_known_languages(qapp: object) -> None:
    html = render_markdown("```python\ndef f():\n    return 1\n```\n\n```made-up\n<x>\n```\n")
    assert '<span style="color' in html and ">def</span>" in html
    assert "&lt;x&gt;" in html  # an unknown language is escaped text, as before
    big = "```python\n" + "x = 1\n" * 5000 + "```\n"
    assert "<span" not in render_markdown(big)  # too long to colour: shown plain


def test_screenshot(window: MainWindow, tmp_path: Path) -> None:
    open_first(window, "code-review")
    image = window.grab()
    assert not image.isNull() and image.width() > 600
    assert image.save(str(tmp_path / "main-window.png"))


def test_find_replace_and_go_to_line(window: MainWindow, qtbot: QtBot) -> None:
    editor = open_first(window, "commit")
    window.menu_actions.find_action.trigger()
    assert editor.find_bar.isVisible()
    qtbot.keyClicks(editor.find_bar.query, "git")
    assert editor.find_bar.count.text().endswith("found")
    assert editor.find_bar.find_next()
    assert editor.source.textCursor().selectedText() == "git"
    editor.find_bar.replacement.setText("GIT")
    replaced = editor.find_bar.replace_all()
    assert replaced >= 2 and "git " not in editor.document.text().split("---", 2)[2]
    editor.source.undo()  # one undo step restores every replacement
    assert editor.document.text().count("git") >= replaced
    editor.go_to_line(3)
    assert editor.source.textCursor().blockNumber() == 2


def test_source_is_highlighted(window: MainWindow, qtbot: QtBot) -> None:
    editor = open_first(window, "code-review")
    block = editor.document.text_document.findBlockByNumber(1)  # 'id: code-review' or 'name: …'
    qtbot.waitUntil(lambda: bool(block.layout().formats()), timeout=2000)  # first pass is queued
    formats = block.layout().formats()
    assert formats[0].start == 0  # the key is coloured
    fence = editor.document.text_document.findBlockByNumber(0).layout().formats()
    assert fence and fence[0].format.fontWeight() > 400
