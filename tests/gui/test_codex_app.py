"""The codex sample in the app: its form, its tiers and its activation preview."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from skillstudio.gui.window.main_window import MainWindow

from .test_workbench import panel_on


def test_the_form_shows_codex_fields_with_their_help(window: MainWindow, samples: Path) -> None:
    editor = window.open_skill(str(samples / "codex/.agents/skills/api-review/SKILL.md"))
    assert editor is not None
    fields = editor.form.fields
    assert list(fields) == ["name", "description", "metadata"]
    assert "1,024 characters Codex shows the first 1,021" in fields["description"].widget.toolTip()
    assert "short-description" in fields["metadata"].widget.toolTip()


def test_tiers_and_activation_follow_the_codex_rules(window: MainWindow, qtbot: QtBot) -> None:
    panel = panel_on(window, "codex")
    window.focus_query_panel()  # the tiers' texts are written when on screen
    panel.load_request("$deploy v2.4.0 to staging")
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.selected == ["deploy"])
    listing = panel.tier_views[2]
    panel.show_tier(2)
    text = listing.text.toPlainText()
    assert text.startswith("<skills_instructions>\n## Skills\n")
    assert "- api-review: Reviews HTTP API changes" in text
    assert "- deploy:" not in text  # agents/openai.yaml keeps it out of the listing
    panel.show_tier(3)
    assert panel.tier_views[3].text.toPlainText().startswith("<skill>\n<name>deploy</name>\n")
    panel.activation.skill.setCurrentText("deploy")
    panel.update_now()
    act = panel.activation.activation
    assert act is not None and act.ok and act.mode == "user_message"
    assert panel.activation.output.toPlainText().startswith("<skill>\n<name>deploy</name>")
    assert panel.activation.invocation.text().startswith("As a user invocation: $deploy")
