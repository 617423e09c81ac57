"""Tests of gui/panels/live_panel.py (Ask a model (docs/live.md): the request of Try a
Request put to a real model the way the project's agent asks it, N runs, the model's
picks beside the offline estimate)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import QScrollArea
from pytestqt.qtbot import QtBot

from skillstudio.core.live.cache import AnswerCache
from skillstudio.core.projects.project import resolve_projects
from skillstudio.gui.infra.settings_store import AppSettings, Endpoint
from skillstudio.gui.panels import live_panel
from skillstudio.gui.panels.live_panel import LivePanel
from skillstudio.gui.panels.workbench.query_panel import QueryPanel

from ...live_fake import FakeModel, Script
from ...test_live import registry_for
from ..parts import ask, in_sight, open_window


def table(panel: LivePanel) -> list[list[str]]:
    rows = []
    for r in range(panel.table.rowCount()):
        items = [panel.table.item(r, c) for c in range(3)]
        rows.append([item.text() if item is not None else "" for item in items])
    return rows


def test_ask_a_model_shows_the_picks_beside_the_estimate(qtbot: QtBot, tmp_path: Path) -> None:
    registry, options = registry_for(tmp_path / "p", "claude-code")
    panel = LivePanel(cache=AnswerCache(str(tmp_path / "cache")))
    qtbot.addWidget(panel)
    pick = ("tool", "Skill", {"skill": "pdf-forms"})
    script: Script = [pick, pick, ("text", "No skill.")]
    with FakeModel(script) as fake:
        panel.set_request(registry, "fill in the PDF form", options)
        panel.set_endpoint(fake.url, "test-model")
        panel.runs.setValue(3)
        qtbot.mouseClick(panel.ask_button, Qt.MouseButton.LeftButton)
        assert fake.received == []  # nothing is sent before the user says so
        assert panel.status.text().startswith("About to send 3 calls to")
        assert panel.send_button.isEnabled()
        with qtbot.waitSignal(panel.finished, timeout=20_000):
            qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
        assert len(fake.received) == 3
    assert table(panel) == [["pdf-forms", "2 of 3", "likely (its first)"], ["none", "1 of 3", ""]]
    assert (panel.bar.value(), panel.bar.maximum()) == (3, 3)
    assert "the model picked pdf-forms in 2 of 3 runs" in panel.status.text()
    # the server is gone: asking again replays the cache at once, with no question
    with qtbot.waitSignal(panel.finished, timeout=20_000):
        qtbot.mouseClick(panel.ask_button, Qt.MouseButton.LeftButton)
    assert table(panel)[0][:2] == ["pdf-forms", "2 of 3"]
    assert "3 from the cache" in panel.status.text()


def test_the_progress_bar_follows_the_runs_by_signal_not_by_polling(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each step of the runs crosses to the GUI thread as a signal's payload while they
    go on (the bar polled a shared object every 100 ms before)."""
    registry, options = registry_for(tmp_path / "p", "claude-code")
    panel = LivePanel(cache=AnswerCache(str(tmp_path / "cache")))
    qtbot.addWidget(panel)
    assert panel.findChildren(QTimer) == [], "nothing polls"
    real, gate = live_panel.execute, threading.Event()

    def execute(checked: Any, cache: Any, cancel: Any, progress: Any) -> Any:
        progress(1, 3, "a first step")
        progress(2, 3, "a second step")
        gate.wait(10)  # the runs go on: what was reported is on screen meanwhile
        return real(checked, cache, cancel, progress)

    monkeypatch.setattr(live_panel, "execute", execute)
    pick = ("tool", "Skill", {"skill": "pdf-forms"})
    with FakeModel([pick, pick, pick]) as fake:
        panel.set_request(registry, "fill in the PDF form", options)
        panel.set_endpoint(fake.url, "test-model")
        panel.runs.setValue(3)
        panel.ask()
        panel.send()
        qtbot.waitUntil(lambda: panel.bar.value() == 2, timeout=10_000)
        assert panel.status.text() == "2 of 3: a second step"
        assert fake.received == [] and panel.cancel_button.isEnabled()
        with qtbot.waitSignal(panel.finished, timeout=20_000):
            gate.set()
    assert (panel.bar.value(), panel.bar.maximum()) == (3, 3)
    assert "the model picked pdf-forms in 3 of 3 runs" in panel.status.text()


def test_cancel_stops_the_runs(qtbot: QtBot, tmp_path: Path) -> None:
    registry, options = registry_for(tmp_path / "p", "claude-code")
    panel = LivePanel(cache=AnswerCache(str(tmp_path / "cache")))
    qtbot.addWidget(panel)
    with FakeModel([("sleep", 0.5)]) as fake:
        panel.set_request(registry, "fill in the PDF form", options)
        panel.set_endpoint(fake.url, "test-model")
        panel.runs.setValue(20)
        panel.ask()
        panel.send()
        assert panel.cancel_button.isEnabled() and not panel.ask_button.isEnabled()
        qtbot.waitUntil(lambda: len(fake.received) >= 1, timeout=10_000)
        with qtbot.waitSignal(panel.finished, timeout=20_000):
            qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
    report = panel.report
    assert report is not None and report.cancelled
    assert len(fake.received) < 20
    assert "Cancelled." in panel.status.text() and panel.ask_button.isEnabled()


def test_cancel_ends_a_request_that_never_answers_at_once(qtbot: QtBot, tmp_path: Path) -> None:
    """A server that sends `100 Continue` forever: Cancel cut the request only between
    reads before (the app waited as long as the server kept sending); now at once."""
    registry, options = registry_for(tmp_path / "p", "claude-code")
    panel = LivePanel(cache=AnswerCache(str(tmp_path / "cache")))
    qtbot.addWidget(panel)
    with FakeModel([("continue", 0.3)]) as fake:
        panel.set_request(registry, "fill in the PDF form", options)
        panel.set_endpoint(fake.url, "test-model")
        panel.runs.setValue(2)
        panel.ask()
        panel.send()
        qtbot.waitUntil(lambda: len(fake.received) == 2, timeout=10_000)
        start = time.monotonic()
        with qtbot.waitSignal(panel.finished, timeout=5_000):
            qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
        took = time.monotonic() - start
    assert panel.report is not None and panel.report.cancelled
    assert "Cancelled." in panel.status.text()
    assert took < 1.0, f"{took:.2f} s"


def test_bad_settings_are_said_not_sent(qtbot: QtBot, tmp_path: Path) -> None:
    registry, options = registry_for(tmp_path / "p", "claude-code")
    panel = LivePanel(cache=AnswerCache(str(tmp_path / "cache")))
    qtbot.addWidget(panel)
    panel.set_request(registry, "", options)
    panel.ask()
    assert panel.status.text() == "Type a request first."
    panel.set_request(registry, "fill in the PDF form", options)
    panel.set_endpoint("nowhere", "m")
    panel.ask()
    assert "neither a base URL" in panel.status.text() and not panel.send_button.isEnabled()
    panel.set_endpoint("ollama", "")
    panel.model.setText("")
    panel.ask()
    assert panel.status.text() == "Name the model to ask."
    (tmp_path / "r" / "skills").mkdir(parents=True)
    oasis = resolve_projects([], ["skills"], None, "oasis", str(tmp_path / "r"))[0]
    rules = oasis.registry()  # a profile whose rules pick
    rules.scan()
    panel.set_request(rules, "fill in the PDF form", {})
    panel.model.setText("m")
    panel.ask()
    assert panel.status.text() == "oasis picks skills by its own rules, not by a model."


def test_ask_a_model_says_what_it_does_and_how_to_set_up_an_endpoint(
    collection_panel: QueryPanel, settings: QSettings, qtbot: QtBot
) -> None:
    """The tab showed "ollama", an empty box and "Ask a model": nothing said it calls a
    service, that it may cost, or that Settings holds the endpoints."""
    panel = collection_panel
    live = panel.live
    store = AppSettings(settings)
    panel.apply_settings(store)  # as the window does at start: no endpoint set up
    assert "real model" in live.intro.text() and "charges" in live.intro.text()
    assert "tokens before Send" in live.intro.text()
    assert "Settings › Model endpoints" in live.status.text()  # none set up
    ask(panel, qtbot, "review my database migration for locking problems")
    panel.ask_a_model()
    assert "Name the model" in live.status.text() and "Edit › Settings" in live.status.text()
    # One set up in Settings: offered and chosen, its model filled in.
    store.set_endpoints([Endpoint("http://localhost:9/v1", "openai", "m1")])
    panel.apply_settings(store)
    assert live.endpoint.currentText() == "http://localhost:9/v1"
    assert live.model.text() == "m1"
    panel.ask_a_model()
    assert live.status.text().startswith("About to send")
    assert "Settings" not in live.status.text()


def test_a_request_naming_its_skill_is_the_harness_s_not_the_model_s(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """`/pdf-forms T-12` is expanded by Claude Code itself: nothing is sent, nothing is
    asked before it, and the status says no model was asked."""
    registry, options = registry_for(tmp_path / "p", "claude-code")
    panel = LivePanel(cache=AnswerCache(str(tmp_path / "cache")))
    qtbot.addWidget(panel)
    with FakeModel([("text", "No skill.")]) as fake:
        panel.set_request(registry, "/pdf-forms T-12", options)
        panel.set_endpoint(fake.url, "test-model")
        panel.runs.setValue(3)
        with qtbot.waitSignal(panel.finished, timeout=20_000):
            qtbot.mouseClick(panel.ask_button, Qt.MouseButton.LeftButton)
        assert fake.received == []
    assert table(panel)[0][:2] == ["pdf-forms", "3 of 3"]
    assert "harness invokes pdf-forms itself" in panel.status.text()
    assert "no model was asked" in panel.status.text()


def test_send_is_in_sight_at_1024_without_scrolling(
    qtbot: QtBot, settings: QSettings, samples: Path
) -> None:
    """Try a Request › Ask a model at 1024x768: Send (and Ask…) were below the fold
    of the tab, under the six fields; they are under the line that says what Send
    spends, and the tab in front gets most of the panel's height, the endpoint and
    model fields in sight too."""
    win = open_window(qtbot, settings, samples, size=(1024, 768))
    win.focus_query_panel()
    panel = win.query_panel
    qtbot.waitUntil(lambda: win.query_dock.height() >= 0.6 * 768, timeout=2000)
    panel.load_request("code review please, find bugs in my commit")
    panel.update_now()
    panel.details.setCurrentWidget(panel.live_page)
    qtbot.wait(50)
    live = panel.live
    area = panel.live_page
    assert area.verticalScrollBar().value() == 0
    for widget in (live.ask_button, live.send_button, live.fields.endpoint, live.fields.model):
        assert in_sight(widget, area), widget
    holder = panel.parentWidget()
    assert holder is not None
    outer = holder.parentWidget()  # the dock's scroll area: not scrolled either
    assert isinstance(outer, QScrollArea) and outer.verticalScrollBar().maximum() == 0
