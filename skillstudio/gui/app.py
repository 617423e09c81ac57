"""The application entry point: builds the context and the main window."""

from __future__ import annotations

import argparse
import os
import sys

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
    from PySide6.QtCore import QByteArray, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from .main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("SkillStudio")
    app.setOrganizationName("SkillStudio")
    QApplication.setDesktopFileName(DESKTOP_ID)
    settings = QSettings()
    window = MainWindow(settings)
    geometry = settings.value("geometry")
    if isinstance(geometry, QByteArray):
        window.restoreGeometry(geometry)
    stored = settings.value("recent", [], list)
    recent = [p for p in stored if isinstance(p, str)] if isinstance(stored, list) else []
    if args.paths:
        folder = args.paths[0]
    elif recent and os.path.isdir(recent[0]):
        folder = recent[0]
    else:
        folder = default_folder()
    window.open_path(folder)
    window.show()
    if args.smoke_test:
        QTimer.singleShot(0, app.quit)
        app.exec()
        painted = not window.grab().isNull()
        skills = sum(len(r.skills) for r in window.registries)
        print(f"smoke test: window painted={painted}, skills={skills}")
        return 0 if painted else 1
    return int(app.exec())
