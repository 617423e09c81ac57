"""What the app says at start-up about the profile (issue 30's first-time reviewer):
the status bar read "Project notes read as agentskills (detected)" beside a box
reading "Profile: auto", and the guide promised a box reading "mvp: mvp (auto)". The
line says how the profile was chosen in words, the box what auto reads the project as,
its tooltip how to change it, and the guide shows what the app shows."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from skillstudio.gui.window.main_window import MainWindow

from ..helpers import REPO


def notes_folder(tmp_path: Path) -> Path:
    base = tmp_path / "notes"
    folder = base / ".agents" / "skills" / "pdf-forms"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: pdf-forms\ndescription: Fill in PDF forms. Use for PDF form work.\n---\n\n"
        "# PDF forms\n\nSteps.\n",
        encoding="utf-8",
    )
    return base


def test_the_profile_box_says_what_auto_reads_and_how_to_change_it(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    base = notes_folder(tmp_path)
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(base))
    label, box = window.project_label, window.profile_box
    assert label.text() == "Project notes is read as agentskills: detected from its folder layout"
    assert box.currentText() == "Profile: auto → agentskills"
    assert "(detected)" not in label.text()
    text_width = box.fontMetrics().horizontalAdvance(box.currentText())
    # whole, and not as wide as its widest entry (it squeezed the line beside it)
    qtbot.waitUntil(lambda: text_width < box.width() < text_width + 80)
    widest = max(box.fontMetrics().horizontalAdvance(box.itemText(n)) for n in range(box.count()))
    assert box.view().minimumWidth() >= widest, "the list shows its entries whole"
    tip = box.toolTip()
    assert "auto: the one its skillstudio.yaml names, else the one detected" in tip
    assert "Choose another" in tip and "kept for this folder" in tip
    with qtbot.waitSignal(window.project_profiles.switched, timeout=10_000):
        box.setCurrentIndex(box.findData("claude-code"))
    assert label.text() == "Project notes is read as claude-code: chosen for this folder"
    assert box.currentText() == "Profile: claude-code"
    assert box.itemText(0) == "Profile: auto", "auto says no profile it is not reading as"
    with qtbot.waitSignal(window.project_profiles.switched, timeout=10_000):
        box.setCurrentIndex(0)
    assert box.currentText() == "Profile: auto → agentskills"


def test_the_guide_promises_what_the_app_shows(window: MainWindow, samples: Path) -> None:
    guide = (Path(REPO) / "docs" / "guide.md").read_text(encoding="utf-8")
    text = " ".join(guide.split())
    assert "mvp: mvp (auto)" not in text
    assert '"Project notes is read as agentskills: detected from its folder layout"' in text
    assert '"Profile: auto → agentskills"' in text
    welcome = window.welcome.status.text()
    assert "Click a skill in the tree on the left to open it in a tab, or start below." in welcome
    assert "Click a skill in the tree on the left to open it in a tab, or start below." in text
    line = window.welcome.explained[window.welcome.open_samples].text()
    assert "seed/test systems" in line and "each agent" not in line


def test_the_profile_boxes_call_the_seed_systems_what_they_are(window: MainWindow) -> None:
    box = window.profile_box
    texts = {box.itemData(n): box.itemText(n) for n in range(box.count()) if box.itemData(n)}
    for seed in ("oasis", "pegasus", "toolsets", "mvp", "workspace"):
        assert texts[seed] == f"Profile: {seed} (seed/test system)"
    for agent in ("agentskills", "claude-code", "codex"):
        assert texts[agent] == f"Profile: {agent}"


def test_a_default_profile_from_settings_is_said_so(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    window.app_settings.set_default_profile("claude-code")
    with qtbot.waitSignal(window.scan_finished, timeout=10_000):
        assert window.open_path(str(notes_folder(tmp_path)))
    assert (
        window.project_label.text()
        == "Project notes is read as claude-code: the default profile in Settings"
    )
    assert window.profile_box.currentText() == "Profile: claude-code"
