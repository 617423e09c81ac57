"""Tests of Ask a model's record of the exchange and its setup (gui/panels/live_panel.py,
gui/panels/live_exchange.py; issue 37): the request sent and each run's answer shown,
results cleared for a new request, the endpoint status, the connection test. Local fake
servers only (127.0.0.1)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from skillstudio.core.live.cache import AnswerCache
from skillstudio.gui.infra.settings_store import Endpoint
from skillstudio.gui.panels.live_panel import NO_ENDPOINT, LivePanel

from ...live_fake import FakeModel
from ...test_live import registry_for
from .test_live_panel import table

PROSE = "I would use the pdf-forms skill for this."


def panel_for(qtbot: QtBot, tmp_path: Path) -> LivePanel:
    panel = LivePanel(cache=AnswerCache(str(tmp_path / "cache")))
    qtbot.addWidget(panel)
    panel.show()
    return panel


def test_the_request_sent_and_each_answer_are_shown(qtbot: QtBot, tmp_path: Path) -> None:
    """A model answering in prose was only "picked no skill in 3 of 3": now its words
    are there, and the request sent can be opened, its digest in its title."""
    registry, options = registry_for(tmp_path / "p", "claude-code")
    panel = panel_for(qtbot, tmp_path)
    request, answers = panel.exchange.request, panel.exchange.answers
    assert request.isHidden() and answers.isHidden()  # nothing asked yet
    with FakeModel([("text", PROSE)]) as fake:
        panel.set_request(registry, "fill in the PDF form", options)
        panel.set_endpoint(fake.url, "test-model")
        panel.runs.setValue(3)
        panel.ask()
        assert request.isVisible() and request.toggle.text().startswith("Request to send (")
        with qtbot.waitSignal(panel.finished, timeout=20_000):
            qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
        sent = fake.received[0][2]
    digest = hashlib.sha256(sent).hexdigest()
    assert request.toggle.text() == f"Request sent ({len(sent):,} bytes, sha256 {digest[:12]}…)"
    assert not request.opened and request.text.isHidden()  # collapsed until asked
    qtbot.mouseClick(request.toggle, Qt.MouseButton.LeftButton)
    assert request.text.isVisible()
    head, body = request.text.toPlainText().split("\n\n", 1)
    assert head == f"POST {fake.url}/chat/completions"
    assert json.loads(body) == json.loads(sent) and body.count("\n") > 5  # pretty
    assert answers.opened and answers.toggle.text() == "Answers (3 runs)"
    shown = answers.text.toPlainText()
    assert shown.count("Run ") == 3 and "Run 1: no skill" in shown
    assert f"said: {PROSE}" in shown and "as received: {" in shown
    assert table(panel) == [["none", "3 of 3", ""]]
    assert "In 3 of the 3 runs it answered in words, calling no skill" in panel.status.text()


def test_a_tool_call_answer_names_the_call(qtbot: QtBot, tmp_path: Path) -> None:
    registry, options = registry_for(tmp_path / "p", "claude-code")
    panel = panel_for(qtbot, tmp_path)
    with FakeModel([("tool", "Skill", {"skill": "pdf-forms"})]) as fake:
        panel.set_request(registry, "fill in the PDF form", options)
        panel.set_endpoint(fake.url, "test-model")
        panel.runs.setValue(1)
        panel.ask()
        with qtbot.waitSignal(panel.finished, timeout=20_000):
            panel.send()
    shown = panel.exchange.answers.text.toPlainText()
    assert shown.startswith("Run 1: pdf-forms") and 'called: Skill({"skill": "pdf-forms"})' in shown


def test_a_new_request_clears_the_old_results(qtbot: QtBot, tmp_path: Path) -> None:
    registry, options = registry_for(tmp_path / "p", "claude-code")
    panel = panel_for(qtbot, tmp_path)
    with FakeModel([("tool", "Skill", {"skill": "pdf-forms"})]) as fake:
        panel.set_request(registry, "fill in the PDF form", options)
        panel.set_endpoint(fake.url, "test-model")
        panel.runs.setValue(1)
        panel.ask()
        with qtbot.waitSignal(panel.finished, timeout=20_000):
            panel.send()
    assert table(panel) and panel.exchange.answers.isVisible()
    panel.set_request(registry, "fill in the PDF form", options)  # the same text: kept
    assert table(panel) and panel.report is not None
    other, _ = registry_for(tmp_path / "q", "claude-code")  # another project's skills
    panel.set_request(other, "fill in the PDF form", options)
    assert table(panel) == [] and panel.report is None
    panel.set_request(registry, "fill in the PDF form", options)
    with qtbot.waitSignal(panel.finished, timeout=20_000):
        panel.ask()  # the cache answers at once
    assert table(panel) and panel.report is not None
    panel.set_request(registry, "write a commit message", options)
    assert table(panel) == [] and panel.report is None
    assert panel.exchange.request.isHidden() and panel.exchange.answers.isHidden()
    assert "picked" not in panel.status.text()


def test_an_answer_for_an_old_request_never_lands(qtbot: QtBot, tmp_path: Path) -> None:
    """The request changes while its runs are out: they are cancelled, and nothing of
    them is shown under the new request."""
    registry, options = registry_for(tmp_path / "p", "claude-code")
    panel = panel_for(qtbot, tmp_path)
    landed: list[object] = []
    panel.finished.connect(landed.append)
    with FakeModel([("sleep", 0.6)]) as fake:
        panel.set_request(registry, "fill in the PDF form", options)
        panel.set_endpoint(fake.url, "test-model")
        panel.runs.setValue(2)
        panel.ask()
        panel.send()
        qtbot.waitUntil(lambda: len(fake.received) >= 1, timeout=10_000)
        assert not panel.test_button.isEnabled()  # no test while a check runs
        panel.set_request(registry, "write a commit message", options)
        assert panel.ask_button.isEnabled() and not panel.cancel_button.isEnabled()
        assert panel.test_button.isEnabled()
        qtbot.wait(1500)  # the old runs end meanwhile
    assert landed == [] and panel.report is None and table(panel) == []
    assert panel.exchange.answers.isHidden()
    assert "pdf" not in panel.status.text().lower()


def test_the_endpoint_status_says_what_is_set(qtbot: QtBot, tmp_path: Path) -> None:
    """ "No model endpoint is set up" showed beside a filled-in endpoint; now only when
    none is set, and a change in Settings is said at once."""
    panel = panel_for(qtbot, tmp_path)
    panel.set_endpoints([])  # as the window does at start: none in Settings
    assert panel.status.text() == NO_ENDPOINT
    panel.model.setText("qwen2.5:7b")  # typed here, beside the ollama preset
    assert "No model endpoint" not in panel.status.text()
    assert panel.status.text() == "Ask… puts the request to qwen2.5:7b at ollama."
    panel.model.setText("")
    assert panel.status.text() == NO_ENDPOINT
    panel.set_endpoints([Endpoint("http://localhost:9/v1", "openai", "m1")])  # Settings › OK
    assert panel.status.text() == "Ask… puts the request to m1 at http://localhost:9/v1."
    panel.set_endpoints([])  # removed again: said again
    panel.model.setText("")
    assert panel.status.text() == NO_ENDPOINT


def test_test_connection_says_which_model_answered(qtbot: QtBot, tmp_path: Path) -> None:
    panel = panel_for(qtbot, tmp_path)
    served = {"model": "qwen2.5:7b-instruct-q4", "choices": [{"message": {"content": "pong"}}]}
    with FakeModel([("raw", json.dumps(served).encode())]) as fake:
        panel.set_endpoint(fake.url, "qwen2.5:7b")
        qtbot.mouseClick(panel.test_button, Qt.MouseButton.LeftButton)
        assert not panel.test_button.isEnabled()  # off the GUI thread meanwhile
        qtbot.waitUntil(lambda: panel.test_button.isEnabled(), timeout=10_000)
        assert len(fake.received) == 1
    text = panel.status.text()
    assert text.startswith("Connection OK: qwen2.5:7b-instruct-q4 answered in "), text
    assert text.endswith(" ms.")
    with FakeModel([("error", 404, "model 'nope' not found")]) as fake:
        panel.set_endpoint(fake.url, "nope")
        panel.test_connection()
        qtbot.waitUntil(lambda: panel.test_button.isEnabled(), timeout=10_000)
    assert panel.status.text() == "Connection failed: HTTP 404: model 'nope' not found"
    panel.model.setText("")
    panel.test_connection()
    assert panel.status.text() == "Name the model to ask." and panel.test_button.isEnabled()
