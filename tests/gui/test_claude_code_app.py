"""The claude-code sample in the app: the form's fields with their help, the tier
previews, and the activation preview that marks shell lines as never run."""

from __future__ import annotations

import json
from pathlib import Path

from pytestqt.qtbot import QtBot

from skillstudio.core.delivery.tiers import render_tiers
from skillstudio.core.model.session import Session
from skillstudio.core.profiles import get_profile
from skillstudio.core.ranking.matching import match
from skillstudio.gui.window.main_window import MainWindow

from .test_workbench import panel_on

SKILL = "claude-code/.claude/skills/commit-message/SKILL.md"


def test_the_form_shows_claude_code_fields_with_their_help(
    window: MainWindow, samples: Path
) -> None:
    editor = window.open_skill(str(samples / SKILL))
    assert editor is not None
    profile = get_profile("claude-code")
    for key in ("when_to_use", "argument-hint", "arguments", "disable-model-invocation", "effort"):
        field = editor.form.fields[key]
        spec = profile.field(key)
        assert spec is not None and field.widget.toolTip() == spec.describe()
        assert spec.help in field.widget.toolTip()


def test_tier_previews_and_activation_with_a_shell_line(
    window: MainWindow, qtbot: QtBot, samples: Path
) -> None:
    panel = panel_on(window, "claude-code")
    window.focus_query_panel()  # the tiers' texts are written when on screen
    request = "/commit-message T-12"
    qtbot.keyClicks(panel.query, request)
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.query == request)
    registry = panel.registry
    assert registry is not None and panel.result is not None
    assert panel.result.selected == ["commit-message"]
    expected = match(registry, request, session=Session(), options=panel.options())
    tiers = render_tiers(registry, expected, panel.options(), Session())
    for view, tier in zip(panel.tier_views, tiers, strict=True):
        panel.show_tier(tier.tier)
        assert view.text.toPlainText() == tier.text
    assert "- review-kit:security-review: " in tiers[2].text
    folder = samples / "claude-code/.claude/skills/commit-message"
    assert tiers[3].text.startswith(f"Base directory for this skill: {folder}\n\n")

    panel.activation.skill.setCurrentText("commit-message")
    panel.activation.args.setText("T-12")
    panel.update_now()
    act = panel.activation.activation
    assert act is not None and act.ok
    shown = panel.activation.output.toPlainText()
    assert shown.startswith(f"Base directory for this skill: {folder}\n\n")
    assert "Staged changes: !`git diff --staged --stat`" in shown  # shown, not run
    payload = shown.split("--- payload ---\n", 1)[1].split("\n\n--- notes ---", 1)[0]
    assert json.loads(payload)["shell"] == [
        {
            "line": 10,
            "command": "git diff --staged --stat",
            "kind": "inline",
            "note": "runs before the model sees this",
        }
    ]
    notes = shown.split("--- notes ---\n", 1)[1]
    assert "line 10: `git diff --staged --stat` runs before the model sees this" in notes
