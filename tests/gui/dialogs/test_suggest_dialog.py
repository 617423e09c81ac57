"""Tests of gui/dialogs/suggest_dialog.py (Suggest Requests…, the tree's context menu of
a skill): the cost said before Send, the drafts listed with checkboxes (a leaking or
repeating one unchecked, with its reason), Write Checked appending the checked ones to
the suite, which `test` then loads. Against a loopback fake endpoint."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from skillstudio.core.model.skills import Skill
from skillstudio.gui.dialogs import suggest_dialog

from ...helpers import cli
from ...live_fake import FakeModel
from ...test_leaks import project
from ...test_suggest import DRAFTS, answer
from ..parts import open_window

SECRET = "sk-test-dialog-0123456789abcdef"


def test_suggest_requests_lists_drafts_with_checkboxes_and_writes_the_checked(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("SKILLSTUDIO_NO_KEYRING", "1")
    base = project(tmp_path / "repo")
    window = open_window(qtbot, settings, base, "claude-code")
    path = str(base / ".claude/skills/pdf-forms/SKILL.md")
    menu = QMenu()
    window.skill_actions.fill_menu(menu, "skill", path)
    assert "Suggest Requests…" in [a.text() for a in menu.actions()]

    dialog = window.skill_actions.suggest_dialog(path)
    assert dialog is not None
    qtbot.addWidget(dialog)
    assert dialog.suite.text() == str(base / "suites" / "pdf-forms.yaml")
    assert not dialog.send_button.isEnabled() and "Name the model" in dialog.cost.text()
    with FakeModel([("text", answer())]) as fake:
        dialog.endpoint.setCurrentText(fake.url)
        dialog.model.setText("m")
        # the cost before anything is sent (once the app's likely index is there)
        qtbot.waitUntil(lambda: "Send sends" in dialog.cost.text(), timeout=10_000)
        assert "Send sends 1 request to m at" in dialog.cost.text()
        assert "input tokens" in dialog.cost.text() and "csv-clean" in dialog.cost.text()
        assert fake.received == [] and dialog.send_button.isEnabled()
        dialog.send()
        qtbot.waitUntil(lambda: dialog.list.count() > 0, timeout=10_000)
    assert len(fake.received) == 1
    assert "Open the file" not in fake.received[0][2].decode()  # never the body
    items = [dialog.list.item(i) for i in range(dialog.list.count())]
    checked = {i.text().split("] ", 1)[1].split(" → ")[0]: i for i in items}
    named = checked["use pdf-forms on invoice.pdf"]
    assert named.checkState() == Qt.CheckState.Unchecked and "LEAK: names the skill" in named.text()
    first = checked[DRAFTS[0]["text"]]
    assert first.checkState() == Qt.CheckState.Checked
    # the author unchecks one kept draft and checks nothing else
    checked["convert a word file to markdown"].setCheckState(Qt.CheckState.Unchecked)
    assert dialog.write_checked() == 3
    suite = base / "suites" / "pdf-forms.yaml"
    text = suite.read_text()
    assert "use pdf-forms" not in text and "convert a word file" not in text
    assert text.count("expect_model:") == 3 and "expect_model: csv-clean" in text
    run = cli("test", str(suite), "--format", "json", cwd=base)
    assert run.code == 0, run.out + run.err
    assert [c["query"] for c in run.json["cases"]] == [
        DRAFTS[0]["text"],
        "tidy the rows of this spreadsheet export",
        "what is the capital of peru",
    ]
    dialog.close()


def test_a_malformed_answer_is_said_in_plain_words(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    base = project(tmp_path / "repo")
    window = open_window(qtbot, settings, base, "claude-code")
    dialog = window.skill_actions.suggest_dialog(str(base / ".claude/skills/csv-clean/SKILL.md"))
    assert dialog is not None
    qtbot.addWidget(dialog)
    with FakeModel([("text", json.dumps({"nothing": []}))]) as fake:
        dialog.endpoint.setCurrentText(fake.url)
        dialog.model.setText("m")
        qtbot.waitUntil(dialog.send_button.isEnabled, timeout=10_000)
        dialog.send()
        qtbot.waitUntil(lambda: "requests" in dialog.status.text(), timeout=10_000)
    assert dialog.status.text() == "the model's answer has no 'requests' list, as the schema asks"
    assert dialog.list.count() == 0 and not dialog.write_button.isEnabled()
    dialog.close()


def test_the_leak_check_is_built_off_the_gui_thread(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dialog built its LeakCheck (every active skill's description and gist
    read) on the GUI thread as it opened: 250 ms at 10,000 skills. Now the Send's
    worker builds it, of the skills active at Send, and the drafts are marked as
    before."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("SKILLSTUDIO_NO_KEYRING", "1")
    built: list[bool] = []  # on the GUI thread?

    class Watched(suggest_dialog.LeakCheck):
        def __init__(self, skills: Iterable[Skill]) -> None:
            built.append(threading.current_thread() is threading.main_thread())
            super().__init__(skills)

    monkeypatch.setattr(suggest_dialog, "LeakCheck", Watched)
    base = project(tmp_path / "repo")
    window = open_window(qtbot, settings, base, "claude-code")
    dialog = window.skill_actions.suggest_dialog(str(base / ".claude/skills/pdf-forms/SKILL.md"))
    assert dialog is not None
    qtbot.addWidget(dialog)
    assert built == []
    with FakeModel([("text", answer())]) as fake:
        dialog.endpoint.setCurrentText(fake.url)
        dialog.model.setText("m")
        qtbot.waitUntil(dialog.send_button.isEnabled, timeout=10_000)
        dialog.send()
        qtbot.waitUntil(lambda: dialog.list.count() > 0, timeout=10_000)
    assert built == [False]
    leaks = {d.query: d.leak.reason for d in dialog.drafts if d.leak is not None}
    assert leaks["use pdf-forms on invoice.pdf"].startswith("names the skill")
    assert "rarest description words: 'acroform'" in leaks["flatten the AcroForm before I send it"]
    dialog.close()
