"""Settings › Model endpoints › Test connection (gui/dialogs/settings_dialog.py; issue
37): the chosen row's endpoint sent one tiny request off the GUI thread (core/live/
probe.py), against the loopback fake server only."""

from __future__ import annotations

import json

from PySide6.QtCore import QSettings, Qt
from pytestqt.qtbot import QtBot

from skillstudio.gui.dialogs.settings_dialog import SettingsDialog
from skillstudio.gui.infra.settings_store import AppSettings, Endpoint

from ...live_fake import FakeModel


def test_test_connection_says_what_answered_or_why_not(qtbot: QtBot, settings: QSettings) -> None:
    dialog = SettingsDialog(AppSettings(settings), "")
    qtbot.addWidget(dialog)
    message = dialog.endpoint_message
    qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    assert message.text() == "Add an endpoint to test."
    served = {"model": "served-7b", "choices": [{"message": {"content": "pong"}}]}
    with FakeModel([("raw", json.dumps(served).encode())]) as fake:
        dialog.add_endpoint(Endpoint("https://elsewhere.test/v1", "openai", "x"), False)
        row = dialog.add_endpoint(Endpoint(fake.url, "openai", "m-7b"), False)
        dialog.endpoint_table.setCurrentCell(row, 0)
        qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
        assert not dialog.test_button.isEnabled()  # the request is off the GUI thread
        qtbot.waitUntil(dialog.test_button.isEnabled, timeout=10_000)
        sent = json.loads(fake.received[0][2])
    assert len(fake.received) == 1 and sent["model"] == "m-7b"
    assert message.text().startswith("Connection OK: served-7b answered in ")
    with FakeModel([("error", 401, "invalid x-api-key")]) as fake:
        dialog.add_endpoint(Endpoint(fake.url, "anthropic", "claude-x"), False)
        dialog.endpoint_table.setCurrentCell(2, 0)
        dialog.test_endpoint()
        qtbot.waitUntil(dialog.test_button.isEnabled, timeout=10_000)
        assert fake.received[0][0].endswith("/messages")
    assert message.text() == "Connection failed: HTTP 401: invalid x-api-key"
    dialog.add_endpoint(Endpoint("ftp://nowhere", "openai", "m"), False)
    dialog.endpoint_table.setCurrentCell(3, 0)
    dialog.test_endpoint()
    assert "neither a base URL" in message.text() and dialog.test_button.isEnabled()
