"""Tests of how Ask a model asks (gui/panels/live_asking.py, live_panel.py; issue 37):
as `skillstudio eval` asks, through core's plan and execute: "Request as" a captured
template (`eval --template NAME`) or the reconstruction, labelled and remembered per
project; K turns with the first-turn and any-turn picks apart and every turn's request
and answer shown; every API kind core's endpoints speak. Local fake servers only
(127.0.0.1); templates in a config folder of the test's own."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from pytestqt.qtbot import QtBot

from skillstudio.core.delivery.tiers import render_listing
from skillstudio.core.live.cache import AnswerCache
from skillstudio.core.live.endpoints import APIS
from skillstudio.core.live.templates import encode_template
from skillstudio.core.live.turns import DEFAULT_TURNS, STUB
from skillstudio.gui.infra.settings_store import AppSettings, Endpoint
from skillstudio.gui.panels import live_asking
from skillstudio.gui.panels.live_asking import FROM_ENDPOINT
from skillstudio.gui.panels.live_panel import LivePanel

from ...live_fake import FakeModel, turn_of
from ...test_live import registry_for
from ...test_live_templates import captured_body, captured_template
from .test_live_panel import table

REQUEST = "fill in the PDF form"


@pytest.fixture
def templates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty templates folder `eval --template NAME` looks in."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    folder = tmp_path / "config" / "skillstudio" / "templates"
    folder.mkdir(parents=True)
    return folder


def panel_for(qtbot: QtBot, tmp_path: Path, store: AppSettings | None = None) -> LivePanel:
    panel = LivePanel(cache=AnswerCache(str(tmp_path / "cache")))
    qtbot.addWidget(panel)
    panel.keep_in(store)
    panel.show()
    return panel


def items(panel: LivePanel) -> list[tuple[str, str]]:
    box = panel.fields.request_as
    return [(box.itemText(i), box.itemData(i)) for i in range(box.count())]


def asked(panel: LivePanel, qtbot: QtBot) -> None:
    panel.ask()
    assert panel.send_button.isEnabled(), panel.status.text()
    with qtbot.waitSignal(panel.finished, timeout=20_000):
        panel.send()


def test_request_as_a_captured_template_sends_its_body_with_this_listing(
    qtbot: QtBot, tmp_path: Path, templates: Path
) -> None:
    """The captured Claude Code request (its system text, its 9 tools) is what goes,
    with this project's listing and none of the captured one, as eval --template sends."""
    (templates / "claude-code.json").write_bytes(encode_template(captured_template()))
    (templates / "broken.json").write_text("{not json", encoding="utf-8")
    registry, options = registry_for(tmp_path / "p", "claude-code")
    store = AppSettings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    panel = panel_for(qtbot, tmp_path, store)
    panel.set_request(registry, REQUEST, options, folder=str(tmp_path / "p"))
    assert items(panel) == [
        ("reconstruction of claude-code (built in)", "reconstruction"),
        ("broken: cannot be used", "broken"),
        ("claude-code: captured claude-code 2.1.239 template (anthropic)", "claude-code"),
    ]
    box = panel.fields.request_as
    assert not box.model().flags(box.model().index(1, 0)) & Qt.ItemFlag.ItemIsEnabled
    assert "not a template" in box.itemData(1, Qt.ItemDataRole.ToolTipRole)
    # as eval's default: the captured template saved under the agent's name
    assert box.currentData() == "claude-code"
    with FakeModel([("tool", "Skill", {"skill": "pdf-forms"})]) as fake:
        panel.set_endpoint(fake.url, "test-model", "anthropic")
        panel.runs.setValue(1)
        asked(panel, qtbot)
        path, sent = fake.received[0][0], json.loads(fake.received[0][2])
    assert path.endswith("/messages")
    assert sent["system"] == captured_body()["system"]
    assert len(sent["tools"]) == 9
    blocks = sent["messages"][-1]["content"]
    assert blocks[1]["text"] == render_listing(registry, options).text  # ours, in its place
    assert blocks[2]["text"] == REQUEST
    assert "captured-deploy" not in json.dumps(sent)  # none of the captured listing
    assert table(panel) == [["pdf-forms", "1 of 1", table(panel)[0][2]]]
    assert "Asked as: captured claude-code 2.1.239 template (anthropic), 9 tools" in (
        panel.status.text()
    )


def test_request_as_is_remembered_per_project(
    qtbot: QtBot, tmp_path: Path, templates: Path
) -> None:
    (templates / "claude-code.json").write_bytes(encode_template(captured_template()))
    first, options = registry_for(tmp_path / "a", "claude-code")
    second, _ = registry_for(tmp_path / "b", "claude-code")
    store = AppSettings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    panel = panel_for(qtbot, tmp_path, store)
    panel.set_request(first, REQUEST, options, folder=str(tmp_path / "a"))
    box = panel.fields.request_as
    box.setCurrentIndex(0)
    box.activated.emit(0)  # the user chose the reconstruction for project a
    assert store.request_as(str(tmp_path / "a")) == "reconstruction"
    panel.set_request(second, REQUEST, options, folder=str(tmp_path / "b"))
    assert box.currentData() == "claude-code"  # project b: nothing chosen, the default
    reopened = panel_for(qtbot, tmp_path, store)
    reopened.set_request(first, REQUEST, options, folder=str(tmp_path / "a"))
    assert reopened.fields.request_as.currentData() == "reconstruction"
    with FakeModel([("tool", "Skill", {"skill": "pdf-forms"})]) as fake:
        reopened.set_endpoint(fake.url, "test-model", "anthropic")
        reopened.runs.setValue(1)
        asked(reopened, qtbot)
        sent = json.loads(fake.received[0][2])
    assert sent.get("system") != captured_body()["system"]  # the reconstruction went
    assert "Asked as: reconstruction of claude-code (built in" in reopened.status.text()


def test_a_template_of_another_api_is_said_not_sent(
    qtbot: QtBot, tmp_path: Path, templates: Path
) -> None:
    (templates / "claude-code.json").write_bytes(encode_template(captured_template()))
    registry, options = registry_for(tmp_path / "p", "claude-code")
    panel = panel_for(qtbot, tmp_path)
    panel.set_request(registry, REQUEST, options)
    with FakeModel([("text", "no")]) as fake:
        panel.set_endpoint(fake.url, "test-model", "openai")
        panel.ask()
        assert fake.received == []
    assert "speaks the anthropic API but the endpoint speaks openai" in panel.status.text()
    assert not panel.send_button.isEnabled()


def test_turns_tell_the_first_turn_from_any_and_show_every_turn(
    qtbot: QtBot, tmp_path: Path, templates: Path
) -> None:
    """A model that runs a command first and calls the skill at turn 2: picked in 1 of
    1, none at turn 1; every turn's request (its bytes' digest) and answer shown."""
    registry, options = registry_for(tmp_path / "p", "claude-code")
    panel = panel_for(qtbot, tmp_path)
    assert panel.turns.value() == DEFAULT_TURNS  # eval's default

    def by_turn(body: dict[str, Any]) -> tuple[Any, ...]:
        if turn_of(body) == 1:
            return ("tool", "Bash", {"command": "ls"})
        return ("tool", "Skill", {"skill": "pdf-forms"})

    with FakeModel([by_turn]) as fake:
        panel.set_request(registry, REQUEST, options)
        panel.set_endpoint(fake.url, "test-model", "anthropic")
        panel.runs.setValue(1)
        panel.turns.setValue(3)
        panel.ask()
        assert "About to send 3 calls" in panel.status.text()  # up to K a run
        with qtbot.waitSignal(panel.finished, timeout=20_000):
            panel.send()
        sent = [raw for _, _, raw in fake.received]
    assert len(sent) == 2  # the pick at turn 2 ends the run
    assert table(panel)[0][:2] == ["pdf-forms", "1 of 1 (0 at turn 1)"]
    assert "first turn in 0 of 1 answered runs, at any of 3 turns in 1" in panel.status.text()
    request = panel.exchange.request
    assert request.toggle.text().startswith("Request sent, every turn (")
    text = request.text.toPlainText()
    second = hashlib.sha256(sent[1]).hexdigest()
    assert f"Run 1, turn 2 ({len(sent[1]):,} bytes, sha256 {second[:12]}…)" in text
    later = json.loads(text.split("request of turn 1 with these appended:\n", 1)[1])
    assert later == json.loads(sent[1])["messages"][-2:]  # exactly what turn 2 added
    assert later[1]["content"][0]["content"] == STUB
    answers = panel.exchange.answers.text.toPlainText()
    assert answers.startswith("Run 1: pdf-forms (at turn 2)")
    assert 'turn 1 called: Bash({"command": "ls"})' in answers
    assert 'turn 2 called: Skill({"skill": "pdf-forms"})' in answers
    assert "turn 1 as received: {" in answers and "turn 2 as received: {" in answers


@pytest.mark.parametrize(
    ("api", "path"),
    [
        ("anthropic", "/messages"),
        ("responses", "/responses"),
        ("gemini", "/models/test-model:generateContent"),
    ],
)
def test_every_api_core_speaks_is_offered_and_sent(
    qtbot: QtBot, tmp_path: Path, templates: Path, api: str, path: str
) -> None:
    registry, options = registry_for(tmp_path / "p", "claude-code")
    panel = panel_for(qtbot, tmp_path)
    box = panel.fields.api
    assert [box.itemText(i) for i in range(box.count())] == [FROM_ENDPOINT, *APIS]
    assert api in APIS
    tool = "Skill"
    with FakeModel([("tool", tool, {"skill": "pdf-forms"})]) as fake:
        panel.set_request(registry, REQUEST, options)
        panel.set_endpoint(fake.url, "test-model")
        box.setCurrentText(api)
        panel.runs.setValue(1)
        asked(panel, qtbot)
        assert fake.received[0][0].endswith(path)
    assert panel.report is not None and panel.report.plan.settings.endpoint.api == api
    assert 'called: Skill({"skill": "pdf-forms"})' in panel.exchange.answers.text.toPlainText()


def test_an_endpoint_from_settings_brings_its_api(qtbot: QtBot, tmp_path: Path) -> None:
    """Settings › Model endpoints keep every API kind (responses too), and choosing
    one in the tab sets its API."""
    store = AppSettings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    store.set_endpoints([Endpoint("http://127.0.0.1:9/v1", "responses", "m1")])
    assert store.endpoints() == [Endpoint("http://127.0.0.1:9/v1", "responses", "m1")]
    panel = panel_for(qtbot, tmp_path, store)
    panel.set_endpoints(store.endpoints())
    assert panel.fields.api.currentText() == "responses"
    assert panel.fields.settings().endpoint.url == "http://127.0.0.1:9/v1/responses"
    panel.endpoint.setCurrentText("ollama")
    assert panel.fields.api.currentText() == FROM_ENDPOINT
    assert panel.fields.settings().endpoint.api == "openai"
    panel.fields.api.setCurrentText("responses")  # chosen for a URL being typed
    for typed in ("http://127.0.0.1:8", "http://127.0.0.1:8000/v1"):
        panel.endpoint.setCurrentText(typed)
    assert panel.fields.settings().endpoint.url == "http://127.0.0.1:8000/v1/responses"


def test_test_connection_speaks_the_api_chosen(qtbot: QtBot, tmp_path: Path) -> None:
    """Test connection over the Responses API sends `input` to /responses and reads an
    `output` answer (it sent a Chat body and called a Responses answer "not the API")."""
    panel = panel_for(qtbot, tmp_path)
    with FakeModel([("text", "pong")]) as fake:
        panel.set_endpoint(fake.url, "test-model", "responses")
        qtbot.mouseClick(panel.test_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: panel.test_button.isEnabled(), timeout=10_000)
        path, sent = fake.received[0][0], json.loads(fake.received[0][2])
    assert path.endswith("/responses") and "input" in sent and "messages" not in sent
    assert sent["max_output_tokens"] >= 16  # the least the Responses API takes
    assert panel.status.text().startswith("Connection OK: "), panel.status.text()


@pytest.mark.qt_log_ignore("This plugin does not support")  # the offscreen popup's window
def test_a_template_saved_meanwhile_is_offered_when_the_list_opens(
    qtbot: QtBot, tmp_path: Path, templates: Path
) -> None:
    registry, options = registry_for(tmp_path / "p", "claude-code")
    panel = panel_for(qtbot, tmp_path)
    panel.set_request(registry, REQUEST, options)
    box = panel.fields.request_as
    assert [data for _, data in items(panel)] == ["reconstruction"]
    (templates / "team.json").write_bytes(encode_template(captured_template()))
    box.showPopup()
    assert [data for _, data in items(panel)] == ["reconstruction", "team"]
    assert box.currentData() == "reconstruction"  # the choice stays as it was
    box.hidePopup()


def test_a_saved_template_is_read_again_only_when_its_file_changed(
    qtbot: QtBot, tmp_path: Path, templates: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The list is made as it opens, on the GUI thread: an unchanged file (a captured
    request is ~0.3 MB) is not parsed again each time."""
    saved = templates / "claude-code.json"
    saved.write_bytes(encode_template(captured_template()))
    reads: list[str] = []
    real = live_asking.load_saved

    def counted(path: str) -> Any:
        reads.append(path)
        return real(path)

    monkeypatch.setattr(live_asking, "load_saved", counted)
    registry, options = registry_for(tmp_path / "p", "claude-code")
    panel = panel_for(qtbot, tmp_path)
    panel.set_request(registry, REQUEST, options)
    reads.clear()
    panel.fields.fill_templates()
    assert reads == []  # unchanged: the reading kept
    saved.write_text("{}", encoding="utf-8")  # another size: read again
    panel.fields.fill_templates()
    assert reads == [str(saved)]
    assert items(panel)[1] == ("claude-code: cannot be used", "claude-code")
