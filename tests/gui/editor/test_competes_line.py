"""Tests of gui/editor/competes_line.py (The form's "competes with: X (0.82), Y (0.64)"
line under the description)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QPlainTextEdit
from pytestqt.qtbot import QtBot

from skillstudio.core.ranking.overlap import overlaps
from skillstudio.gui.editor.competes_line import CompetesLine
from skillstudio.gui.infra.theme import colour
from skillstudio.gui.window.main_window import MainWindow

from ...test_competes import ART, WSHOBSON
from ..parts import open_window


def test_competes_with_line_updates_as_the_description_is_typed(
    app_window: MainWindow, collection: Path, qtbot: QtBot
) -> None:
    editor = app_window.open_skill(str(collection / "skills/release-notes/SKILL.md"))
    assert editor is not None
    line = editor.form.findChild(CompetesLine, "competes-with")
    assert line is not None
    qtbot.waitUntil(lambda: "no other skill" in line.text(), timeout=10_000)
    field = editor.form.fields["description"].widget
    assert isinstance(field, QPlainTextEdit)
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "Writes pytest unit tests for Python functions with fixtures")
    qtbot.waitUntil(lambda: "python-test-author" in line.text(), timeout=5000)
    names = [skill.name for skill, _ in line.competitors]
    assert set(names) == {"pytest-writer", "python-test-author"}
    # the scores `skillstudio overlap` gives the pairs, for the text on screen
    registry = editor.document.registry
    expected = {
        (p.b.name if p.a.name == "release-notes" else p.a.name): p.score
        for p in overlaps(registry)
        if "release-notes" in (p.a.name, p.b.name)
    }
    assert {s.name: x for s, x in line.competitors} == pytest.approx(expected, abs=1e-9)
    assert f"({line.competitors[0][1]:.2f})" in line.text()
    assert not editor.document.path.endswith("pytest-writer/SKILL.md")
    # a name is a link that opens that skill
    target = next(s.path for s, _ in line.competitors if s.name == "pytest-writer")
    line.linkActivated.emit(target)
    current = app_window.document_tabs.current_editor()
    assert current is not None and current.document.path == target


def test_competes_with_agrees_with_overlap(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """The form scored against Try a Request's index (bodies' words included), so its
    pairs and scores differed from the Overlap Map's and `skillstudio overlap`'s
    (here: "no other skill" where overlap lists generative-art at 0.34)."""
    folder = tmp_path / "art"
    (folder / "skills").mkdir(parents=True)
    (folder / "skillstudio.yaml").write_text("profile: agentskills\nroots: [skills]\n")
    for name, (description, body) in ART.items():
        (folder / "skills" / name).mkdir()
        (folder / "skills" / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\n{body}\n"
        )
    win = open_window(qtbot, settings, folder)
    registry = win.context.registries[0]
    pairs = overlaps(registry)
    assert pairs, "the two art skills compete"
    for name in ART:
        editor = win.open_skill(str(folder / "skills" / name / "SKILL.md"))
        assert editor is not None
        line = editor.form.findChild(CompetesLine, "competes-with")
        assert line is not None

        def worked_out(line: CompetesLine = line) -> bool:
            return "working" not in line.text()

        qtbot.waitUntil(worked_out, timeout=10_000)
        expected = {
            (p.b.name if p.a.name == name else p.a.name): p.score
            for p in pairs
            if name in (p.a.name, p.b.name)
        }
        got = {s.name: x for s, x in line.competitors}
        assert got == pytest.approx(expected, abs=1e-9), name


def test_a_theme_switch_recolours_the_competes_links_at_once(
    app_window: MainWindow, collection: Path, qtbot: QtBot, switch_theme: Callable[[str], None]
) -> None:
    """The links kept the light theme's blue (#0000ff) on the dark form until restart:
    a label takes its links' colour when its text is set."""
    editor = app_window.open_skill(str(collection / "skills/release-notes/SKILL.md"))
    assert editor is not None
    line = editor.form.findChild(CompetesLine, "competes-with")
    assert line is not None
    qtbot.waitUntil(lambda: "no other skill" in line.text(), timeout=10_000)
    assert colour("muted", dark=False) in line.text()
    field = editor.form.fields["description"].widget
    assert isinstance(field, QPlainTextEdit)
    field.setPlainText("Writes pytest unit tests for Python functions with fixtures")
    qtbot.waitUntil(lambda: "python-test-author" in line.text(), timeout=5000)

    def pure_blue() -> int:  # the light theme's link colour, and what fades into it
        image = line.grab().toImage()
        return sum(
            1
            for x in range(image.width())
            for y in range(image.height())
            if (c := image.pixelColor(x, y)).blue() > 150 and c.red() < 30 and c.green() < 30
        )

    assert pure_blue() > 0
    switch_theme("dark")
    assert pure_blue() == 0
    field.setPlainText("A description no other skill shares: zebra quartz")
    qtbot.waitUntil(lambda: "no other skill" in line.text(), timeout=5000)
    switch_theme("light")
    assert colour("muted", dark=False) in line.text()
    switch_theme("dark")
    assert colour("muted", dark=True) in line.text()


def test_the_agents_own_skills_are_marked_and_their_link_shows_them(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """The line listed Claude Code's bundled skills like the project's (the Overlap Map
    lists the project's pairs only), and clicking one did nothing: it is marked as the
    agent's own, and its link shows what the model reads of it, opening nothing."""
    folder = tmp_path / "tidy"
    skill = folder / ".claude" / "skills" / "tidy-code"
    skill.mkdir(parents=True)
    (folder / "skillstudio.yaml").write_text("profile: claude-code\n")
    (skill / "SKILL.md").write_text(
        "---\nname: tidy-code\ndescription: Review changed code for reuse, quality and "
        "efficiency, then fix the issues found.\n---\n\nSteps.\n"
    )
    win = open_window(qtbot, settings, folder)
    editor = win.open_skill(str(skill / "SKILL.md"))
    assert editor is not None
    line = editor.form.findChild(CompetesLine, "competes-with")
    assert line is not None
    qtbot.waitUntil(lambda: "simplify" in line.text(), timeout=10_000)
    own = next(s for s, _ in line.competitors if s.name == "simplify")
    assert "simplify</a> (claude-code's own, " in line.text()
    tabs = win.document_tabs.tabs.count()
    line.linkActivated.emit(own.path)
    assert win.document_tabs.tabs.count() == tabs  # nothing to open: no tab, no error
    assert "claude-code's own skill" in line.note and own.description in line.note
    line.linkHovered.emit(own.path)
    assert line.toolTip().startswith("simplify is claude-code's own skill")
    line.linkHovered.emit("")
    assert "Click a name to open that skill" in line.toolTip()


# Skills of a claude-code project: two pairs that compete, one that reviews code as
# Claude Code's own `review` and `security-review` do, and a crowd sharing words.
PROJECT = {
    "parallel-debugging": "Debug a flaky failure with parallel hypotheses; investigators "
    "gather evidence for each hypothesis and rank the root causes.",
    "debugging-strategies": "Debugging strategies for a flaky failure; form hypotheses, "
    "gather evidence, bisect to the root causes.",
    "parallel-features": "Build features in parallel; split the work across agents with "
    "file ownership, interface contracts and a merge order.",
    "review-teams": "Review code changes with several reviewers in parallel; security, "
    "performance and architecture findings, deduplicated.",
    "code-review-practice": "Code review practice; constructive review of code changes "
    "for security, performance and architecture.",
}


def test_the_forms_project_pairs_are_the_overlap_maps_under_claude_code(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """Under claude-code the form scored against Try a Request's index, which reads the
    listing as its budget cuts it and holds Claude Code's own skills: a reviewer's
    parallel-debugging said "no other skill" where the Overlap Map and `skillstudio
    overlap` listed two pairs, and others got pairs overlap never gives. The project's
    pairs and scores are overlap's for every skill; the agent's own stay, marked."""
    import random

    from ...test_competes import WORDS

    folder = tmp_path / "team"
    rng = random.Random(43)
    skills = dict(PROJECT)
    for n in range(12):  # a crowd sharing words in every mix
        skills[f"mix-{n}"] = " ".join(rng.choice(WORDS) for _ in range(9)) + "."
    # a budget the listing overflows: Try a Request's index reads descriptions cut
    (folder / "skillstudio.yaml").parent.mkdir(parents=True)
    (folder / "skillstudio.yaml").write_text("profile: claude-code\nchar_budget: 1500\n")
    for name, description in skills.items():
        skill = folder / ".claude" / "skills" / name
        skill.mkdir(parents=True)
        (skill / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\n\nSteps for {name}.\n"
        )
    win = open_window(qtbot, settings, folder)
    registry = win.context.registries[0]
    assert registry.profile.name == "claude-code"
    pairs = overlaps(registry)
    assert len(pairs) >= 3, "the fixture's pairs compete"
    seen_own = 0
    for name in skills:
        editor = win.open_skill(str(folder / ".claude" / "skills" / name / "SKILL.md"))
        assert editor is not None
        line = editor.form.findChild(CompetesLine, "competes-with")
        assert line is not None

        def worked_out(line: CompetesLine = line) -> bool:
            return "working" not in line.text()

        qtbot.waitUntil(worked_out, timeout=10_000)
        expected = {
            (p.b if p.a.name == name else p.a).name: p.score
            for p in pairs
            if name in (p.a.name, p.b.name)
        }
        project = {s.name: x for s, x in line.competitors if not s.fields.get("agent_skill")}
        own = [s for s, _ in line.competitors if s.fields.get("agent_skill")]
        seen_own += len(own)
        # the line shows the five strongest: overlap's pairs down to its weakest
        weakest = line.competitors[-1][1] if len(line.competitors) == 5 else 0.0
        shown = {n: x for n, x in expected.items() if x > weakest + 0.005}
        assert shown.keys() <= project.keys(), name
        assert project.keys() <= expected.keys(), name
        assert project == pytest.approx({n: expected[n] for n in project}, abs=0.005), name
        for agents in own:
            assert f"{agents.name}</a> (claude-code's own, " in line.text()
    assert seen_own, "Claude Code's own skills compete with the reviewing ones"
    named = {frozenset((p.a.name, p.b.name)) for p in pairs}
    assert frozenset(("parallel-debugging", "debugging-strategies")) in named
    assert frozenset(("parallel-debugging", "parallel-features")) in named


@pytest.mark.skipif(not os.path.isdir(WSHOBSON), reason="no ../shared/corpus")
def test_on_wshobson_agents_the_reviewers_two_skills_show_overlaps_pairs(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """The reviewer's day, on a copy: parallel-debugging said "no other skill" and
    multi-reviewer-patterns named multi-cloud-architecture, where the Overlap Map and
    `skillstudio overlap` list debugging-strategies and parallel-feature-development,
    and code-review-excellence alone."""
    folder = tmp_path / "rv"
    shutil.copytree(WSHOBSON, folder)
    win = open_window(qtbot, settings, folder, "claude-code")
    registry = win.context.registries[0]
    pairs = overlaps(registry)
    for name in ("parallel-debugging", "multi-reviewer-patterns"):
        editor = win.open_skill(registry.active[name].path)
        assert editor is not None
        line = editor.form.findChild(CompetesLine, "competes-with")
        assert line is not None

        def worked_out(line: CompetesLine = line) -> bool:
            return "working" not in line.text()

        qtbot.waitUntil(worked_out, timeout=20_000)
        expected = {
            (p.b if p.a.name == name else p.a).name: p.score
            for p in pairs
            if name in (p.a.name, p.b.name)
        }
        assert expected, name
        project = {s.name: x for s, x in line.competitors if not s.fields.get("agent_skill")}
        assert project == pytest.approx(expected, abs=0.005), name


def test_after_an_edit_the_line_is_worked_out_between_events_and_stays_exact(
    app_window: MainWindow, collection: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A look-up is about 30 ms at 10,000 skills: after an edit it is taken a step at a
    time between events (here one step a turn), and lands on the pairs and scores the
    whole look-up at once gives (overlap's)."""
    from skillstudio.core.ranking.overlap import OVERLAP_MODEL
    from skillstudio.core.ranking.rivals import with_own
    from skillstudio.gui.editor import competes_line

    monkeypatch.setattr(competes_line, "STEP_MS", 0)
    editor = app_window.open_skill(str(collection / "skills/release-notes/SKILL.md"))
    assert editor is not None
    line = editor.form.findChild(CompetesLine, "competes-with")
    assert line is not None
    qtbot.waitUntil(lambda: "no other skill" in line.text(), timeout=10_000)
    field = editor.form.fields["description"].widget
    assert isinstance(field, QPlainTextEdit)
    field.setFocus()
    field.selectAll()
    turns: list[bool] = []
    line.stepper.timeout.connect(lambda: turns.append(True))
    qtbot.keyClicks(field, "Writes pytest unit tests for Python functions with fixtures")
    qtbot.waitUntil(lambda: "python-test-author" in line.text(), timeout=5000)
    assert len(turns) >= 3  # the pool's candidates were scored on separate turns
    assert not line.stepper.isActive()
    index = app_window.context.likely_indexes.peek(editor.document.registry, OVERLAP_MODEL)
    assert index is not None
    whole = with_own(index, editor.document.path, line._agent_skills(), competes_line.SHOWN)
    assert line.competitors == whole
    # an edit while a look-up is under way starts it again on the new text
    field.selectAll()
    qtbot.keyClicks(field, "Drafts release notes from merged pull requests")
    line.update_soon()
    assert line.stepper.isActive()
    editor.document.validate()  # the registry moves on: the steps under way are dropped
    qtbot.waitUntil(lambda: not line.stepper.isActive() and line._steps is None, timeout=5000)
    whole = with_own(index, editor.document.path, line._agent_skills(), competes_line.SHOWN)
    assert line.competitors == whole
    assert "python-test-author" not in line.text()


def test_the_overlap_index_is_built_once_a_line_is_shown(
    app_window: MainWindow, collection: Path, qtbot: QtBot
) -> None:
    """The overlap index (about 28 MB at 10,000 skills) costs nothing until a form's
    line is on screen: a line made and not shown asks for none, nor does an edit;
    shown, it is built and the line gives the whole look-up's answer."""
    from skillstudio.core.ranking.overlap import OVERLAP_MODEL
    from skillstudio.core.ranking.rivals import with_own
    from skillstudio.gui.models.skill_document import SkillDocument

    indexes = app_window.context.likely_indexes
    registry = app_window.context.registries[0]
    path = str(collection / "skills/release-notes/SKILL.md")
    document = SkillDocument(path, registry)
    line = CompetesLine(document, indexes)
    qtbot.addWidget(line)
    document.validate()  # an edit while it is not shown
    qtbot.wait(300)
    assert indexes.peek(registry, OVERLAP_MODEL) is None
    assert "working it out" in line.text()
    line.show()
    qtbot.waitUntil(lambda: not line.working, timeout=10_000)
    index = indexes.peek(registry, OVERLAP_MODEL)
    assert index is not None
    assert line.competitors == with_own(index, path, line._agent_skills(), 5)
    assert "competes with:" in line.text() and "working" not in line.text()
