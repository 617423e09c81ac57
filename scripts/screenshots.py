"""Save screenshots of the main window, the Try a Request panel and the suite runner
on the bundled skills, in the light and dark palettes.

Usage: QT_QPA_PLATFORM=offscreen python scripts/screenshots.py [OUT_DIR]
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QSettings, Qt
from PySide6.QtWidgets import QApplication

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from skillstudio.core.suites import add_case  # noqa: E402
from skillstudio.gui.main_window import MainWindow  # noqa: E402
from skillstudio.gui.theme import apply_scheme  # noqa: E402


def open_and_wait(window: MainWindow, folder: str) -> None:
    loop = QEventLoop()
    window.scan_finished.connect(loop.quit)
    if window.open_path(folder):
        loop.exec()


WORKBENCH = (  # (profile, request) for the Try a Request screenshots
    ("oasis", "code review please, find bugs in my commit"),
    ("toolsets", "greet Bob and translate the greeting"),
)


def main() -> int:
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "docs")
    os.makedirs(out, exist_ok=True)
    app = QApplication([])
    settings = QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"), QSettings.Format.IniFormat)
    for name in ("light", "dark"):
        apply_scheme(app, name)
        window = MainWindow(settings)
        window.resize(1280, 800)
        window.show()
        open_and_wait(window, os.path.join(HERE, "..", "skills"))
        index = window.tree_model.index(0, 0)
        window.tree.setCurrentIndex(window.tree_model.index(0, 0, index))
        for path in sorted(p for r in window.registries for p in r.by_path):
            if path.endswith(os.path.join("code-review", "SKILL.md")) and "pegasus" in path:
                window.open_skill(path, 7)
        window.problems_dock.raise_()
        app.processEvents()
        target = os.path.join(out, f"main-window-{name}.png")
        window.grab().save(target)
        print(target)
        for profile, request in WORKBENCH:
            window.resize(1400, 900)
            window.focus_query_panel()
            window.resizeDocks([window.query_dock], [470], Qt.Orientation.Vertical)
            panel = window.query_panel
            panel.project_box.setCurrentIndex(
                next(i for i, p in enumerate(panel.projects) if p.profile.name == profile)
            )
            panel.load_request(request)
            app.processEvents()
            target = os.path.join(out, f"workbench-{profile}-{name}.png")
            window.grab().save(target)
            print(target)
        window.ask_save = lambda names: "discard"  # type: ignore[method-assign]
        window.close()
        suites_shot(app, settings, os.path.join(out, f"suites-{name}.png"))
    return 0


def suites_shot(app: QApplication, settings: QSettings, target: str) -> None:
    """The suite runner on a copy of the samples whose oasis suite has one failing case."""
    copy = os.path.join(tempfile.mkdtemp(), "skills")
    shutil.copytree(os.path.join(HERE, "..", "skills"), copy)
    suite = os.path.join(copy, "oasis", "suites", "oasis.yaml")
    add_case(suite, "tidy up my history", ["commit"])
    window = MainWindow(settings)
    window.resize(1400, 900)
    window.show()
    open_and_wait(window, copy)
    window.suites_dock.show()
    window.suites_dock.raise_()
    window.resizeDocks([window.suites_dock], [470], Qt.Orientation.Vertical)
    app.processEvents()
    window.suite_runner.open_suite(suite)
    window.suite_runner.run_to_end()
    app.processEvents()
    window.grab().save(target)
    print(target)
    window.close()
    shutil.rmtree(os.path.dirname(copy), ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
