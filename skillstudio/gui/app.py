"""The application entry point: builds the context and the main window."""

from __future__ import annotations

import argparse
import os
import sys

from .. import __version__

DESKTOP_ID = "io.github.skillstudio.SkillStudio"


def default_folder() -> str:
    """The bundled samples next to the package (source tree or installed wheel)."""
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for candidate in (os.path.join(here, "skills"), os.path.join(os.getcwd(), "skills")):
        if os.path.isdir(candidate):
            return candidate
    return os.getcwd()


def has_display() -> bool:
    return bool(
        os.environ.get("DISPLAY")
        or os.environ.get("WAYLAND_DISPLAY")
        or os.environ.get("QT_QPA_PLATFORM")
        or sys.platform in ("win32", "darwin")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="skillstudio gui", description="Open the SkillStudio app."
    )
    parser.add_argument("paths", nargs="*", metavar="PATH")
    parser.add_argument("--smoke-test", action="store_true", help="paint the window and exit")
    args = parser.parse_args(argv)
    if not has_display():
        sys.stderr.write(
            "skillstudio: no display found; use the command line (skillstudio lint, list, "
            "match …) or set QT_QPA_PLATFORM=offscreen\n"
        )
        return 2
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from .main_window import MainWindow
    from .theme import follow_system_theme

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("SkillStudio")
    app.setOrganizationName("SkillStudio")
    app.setApplicationVersion(__version__)
    QApplication.setDesktopFileName(DESKTOP_ID)
    if isinstance(app, QApplication):
        follow_system_theme(app)
    settings = QSettings()
    window = MainWindow(settings)
    window.restore_state()
    recent = window.recent_folders()
    if args.paths:
        folder = args.paths[0]
    elif recent and os.path.isdir(recent[0]):
        folder = recent[0]
    else:
        folder = default_folder()
    window.show()
    opened = window.open_path(folder)
    if args.smoke_test:
        window.scan_finished.connect(app.quit)
        QTimer.singleShot(0 if not opened else 60_000, app.quit)
        app.exec()
        painted = not window.grab().isNull()
        skills = sum(len(r.skills) for r in window.registries)
        print(f"smoke test: window painted={painted}, skills={skills}")
        return 0 if painted else 1
    return int(app.exec())
