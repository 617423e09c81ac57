"""The Suites panel and the Overlap Map follow the folder open (issue 30, item 5): once
another folder is opened, nothing of the previous one's suites, results or pairs is
shown, neither while the new folder is read nor after."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from skillstudio.gui.window.main_window import MainWindow

SKILL = """---
name: {name}
description: {text}
---

# {name}

Steps.
"""


def other_folder(tmp_path: Path) -> Path:
    """A folder of two Claude Code skills that compete, and no suites."""
    base = tmp_path / "other"
    for name, text in (
        ("pdf-forms", "Fill in PDF forms and extract their fields. Use for PDF form work."),
        ("pdf-fields", "Extract the fields of PDF forms and fill them in. Use for PDF forms."),
    ):
        folder = base / ".claude" / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(SKILL.format(name=name, text=text), encoding="utf-8")
    return base


def shown_texts(window: MainWindow) -> str:
    """Every text the two panels show: their boxes, summaries, tables."""
    runner, overlap = window.suite_runner, window.overlap_map
    texts = [runner.summary.text(), overlap.status.text()]
    for box in (runner.suite_box, overlap.project_box):
        texts += [f"{box.itemText(i)} {box.itemData(i)}" for i in range(box.count())]
    for model in (runner.cases_model, runner.skills_model, overlap.pairs_model):
        for row in range(model.rowCount()):
            for column in range(model.columnCount()):
                texts.append(str(model.index(row, column).data()))
    texts += [f"{p.a.path} {p.b.path}" for p in overlap.pairs]
    return "\n".join(texts)


def test_another_folder_leaves_nothing_of_the_first_in_suites_and_overlap(
    window: MainWindow, samples: Path, tmp_path: Path, qtbot: QtBot
) -> None:
    runner, overlap = window.suite_runner, window.overlap_map
    window.suites_dock.show()
    window.suites_dock.raise_()
    qtbot.waitUntil(lambda: runner.report is not None, timeout=10_000)
    assert "passed" in runner.summary.text()
    assert runner.shown_suite() is not None
    window.overlap_dock.show()
    window.overlap_dock.raise_()
    qtbot.waitUntil(lambda: overlap.shown_for is not None, timeout=20_000)
    before = shown_texts(window)
    assert str(samples) in before  # the first folder's suites and pairs are shown
    other = other_folder(tmp_path)
    assert window.open_path(str(other))
    # at once, while the new folder is read: nothing of the first
    assert str(samples) not in shown_texts(window)
    assert "passed" not in runner.summary.text()
    assert runner.shown_suite() is None, "Add as Test Case offers no suite of the old folder"
    assert window.query_panel.current_suite() is None
    qtbot.waitUntil(lambda: not window.scanning, timeout=10_000)
    qtbot.waitUntil(lambda: overlap.shown_for is not None, timeout=20_000)
    after = shown_texts(window)
    assert str(samples) not in after
    assert runner.suite_box.count() == 0 and runner.report is None
    assert {p.a.path for p in overlap.pairs} <= {
        str(other / ".claude/skills/pdf-forms/SKILL.md"),
        str(other / ".claude/skills/pdf-fields/SKILL.md"),
    }
    assert all(
        str(overlap.project_box.itemData(i)).startswith(str(other))
        for i in range(overlap.project_box.count())
    )


def two_projects(tmp_path: Path) -> Path:
    """A folder of two projects, each with two skills that compete."""
    base = tmp_path / "two"
    for project, words in (("forms", "PDF forms"), ("sheets", "spreadsheet formulas")):
        (base / project).mkdir(parents=True)
        (base / project / "skillstudio.yaml").write_text(
            "profile: claude-code\nroots: [.claude/skills]\n", encoding="utf-8"
        )
        for name in ("one", "two"):
            folder = base / project / ".claude" / "skills" / f"{project}-{name}"
            folder.mkdir(parents=True)
            text = f"Work with {words} - fill, check and fix {words}. Use for {words}."
            (folder / "SKILL.md").write_text(
                SKILL.format(name=f"{project}-{name}", text=text), encoding="utf-8"
            )
    return base


def test_the_overlap_map_follows_the_project_worked_on(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    base = two_projects(tmp_path)
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(base))
    panel, overlap = window.query_panel, window.overlap_map
    window.overlap_dock.show()
    window.overlap_dock.raise_()
    assert panel.project_box.count() == 2
    for number in (0, 1, 0):
        panel.project_box.setCurrentIndex(number)
        assert overlap.project_box.currentData() == panel.project_box.currentData()
        registry = overlap.registry
        assert registry is panel.registry
        root = overlap.project_box.currentData()
        # until this project's pairs land, no other project's pairs are shown
        assert all(p.a.path.startswith(root) for p in overlap.pairs)
        qtbot.waitUntil(lambda r=registry: overlap.shown_for == (id(r), r.version), timeout=20_000)  # type: ignore[misc]
        assert overlap.pairs, "the two skills of each project compete"
        assert all(p.a.path.startswith(root) and p.b.path.startswith(root) for p in overlap.pairs)


def test_another_folder_drops_the_pairs_of_the_first_at_once(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    first = two_projects(tmp_path)
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(first))
    overlap = window.overlap_map
    window.overlap_dock.show()
    window.overlap_dock.raise_()
    qtbot.waitUntil(lambda: bool(overlap.pairs), timeout=20_000)
    assert str(first) in shown_texts(window)
    assert window.open_path(str(other_folder(tmp_path)))
    assert str(first) not in shown_texts(window)  # while the new folder is read
    qtbot.waitUntil(lambda: not window.scanning, timeout=10_000)
    qtbot.waitUntil(lambda: overlap.shown_for is not None, timeout=20_000)
    assert str(first) not in shown_texts(window)


def test_the_suites_panel_follows_the_project_worked_on(
    window: MainWindow, samples: Path, qtbot: QtBot
) -> None:
    runner, panel = window.suite_runner, window.query_panel
    window.suites_dock.show()
    window.suites_dock.raise_()
    for profile in ("oasis", "claude-code", "oasis"):
        number = next(n for n, p in enumerate(panel.projects) if p.profile.name == profile)
        panel.project_box.setCurrentIndex(number)
        own = str(samples / profile / "suites" / f"{profile}.yaml")
        assert runner.suite_box.currentData() == own
        qtbot.waitUntil(
            lambda own=own: runner.report is not None and runner.suite is not None  # type: ignore[misc]
            and runner.suite.path == own,
            timeout=10_000,
        )  # fmt: skip
        assert f"on {profile}" in runner.summary.text()
    # hidden: the project's suite is shown without another suite's results (it runs when shown)
    window.suites_dock.hide()
    panel.project_box.setCurrentIndex(0)
    assert runner.suite_box.currentData() == str(samples / "agentskills/suites/agentskills.yaml")
    assert runner.report is None and "passed" not in runner.summary.text()
