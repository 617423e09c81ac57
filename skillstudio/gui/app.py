"""The application entry point: builds the context and the main window."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import TYPE_CHECKING

from .. import __version__
from ..core.model.text import counted

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from .window.main_window import MainWindow

DESKTOP_ID = "io.github.skillstudio.SkillStudio"


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
    parser.add_argument(
        "--smoke-test",
        action="store_true",
        help="open the samples (or PATH) with fresh settings, paint the window, check it, exit",
    )
    parser.add_argument(
        "--screenshot", metavar="PNG", help="with --smoke-test: save the painted window"
    )
    args = parser.parse_args(argv)
    if not has_display():
        sys.stderr.write(
            "skillstudio: the app did not open: no display found (DISPLAY and "
            "WAYLAND_DISPLAY are unset); use the command line (skillstudio lint, list, "
            "match …) or set QT_QPA_PLATFORM=offscreen\n"
        )
        return 2
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from .controllers.recovery_keeper import default_folder as recovery_default_folder
    from .infra.icons import app_icon
    from .infra.places import editable_samples, samples_folder
    from .infra.settings_store import AppSettings
    from .infra.theme import follow_system_theme, set_preference
    from .models.app_context import AppContext
    from .window.main_window import MainWindow

    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    app.setApplicationName("SkillStudio")
    app.setOrganizationName("SkillStudio")
    app.setApplicationVersion(__version__)
    QApplication.setDesktopFileName(DESKTOP_ID)
    app.setWindowIcon(app_icon())
    follow_system_theme(app)
    if args.smoke_test:  # the user's settings and recovery files are neither read nor written
        scratch = tempfile.mkdtemp(prefix="skillstudio-smoke-")
        settings = QSettings(os.path.join(scratch, "settings.ini"), QSettings.Format.IniFormat)
        recovery_folder = os.path.join(scratch, "recovery")
    else:
        settings = QSettings()
        recovery_folder = recovery_default_folder()
    set_preference(app, AppSettings(settings).theme())  # Settings › Theme
    context = AppContext(app)  # what is open: the window and its panels share it
    window = MainWindow(settings, recovery_folder=recovery_folder, context=context)
    window.dialogs.interactive = not args.smoke_test
    if not args.smoke_test:
        window.restore_state()
    recent = window.recent.folders()
    if args.paths:
        folder = args.paths[0]
    elif recent and os.path.isdir(recent[0]):
        folder = recent[0]
    elif args.smoke_test:
        folder = samples_folder()
    else:
        folder, note = editable_samples()  # installed: the user's copy, never the install
        if note:
            window.statusBar().showMessage(note, 20_000)
            sys.stderr.write(f"skillstudio: {note}\n")
    window.show()
    opened = window.open_path(folder)
    if args.smoke_test:
        return smoke_test(app, window, opened, args.screenshot)
    code = int(app.exec())
    # The loop may end with a scan under way (a quit that is no window close, which
    # cancels it): its thread ends before its QThread object goes, or Qt aborts the
    # process ("QThread: Destroyed while thread is still running").
    window.scans.cancel()
    return code


def smoke_test(app: QApplication, window: MainWindow, opened: bool, screenshot: str | None) -> int:
    """Wait for the scan, paint the window, and check that something real was drawn:
    skills in the tree, and many colours (text is anti-aliased; an empty or black
    window has a handful)."""
    from PySide6.QtCore import QTimer

    window.scan_finished.connect(app.quit)
    QTimer.singleShot(0 if not opened else 60_000, app.quit)
    app.exec()
    app.processEvents()
    image = window.grab().toImage()
    colours = {
        image.pixel(x, y) for y in range(0, image.height(), 2) for x in range(0, image.width(), 2)
    }
    skills = sum(len(r.skills) for r in window.context.registries)
    rows = window.tree_model.rowCount()
    if screenshot:
        image.save(screenshot)
    ok = not image.isNull() and len(colours) >= 50 and skills > 0 and rows > 0
    print(
        f"smoke test: {'ok' if ok else 'FAILED'}: window {image.width()}x{image.height()} "
        f"painted with {counted(len(colours), 'colour')}, {counted(skills, 'skill')} in "
        f"{counted(rows, 'root')} ({counted(window.scans.worker_chunks, 'piece')} read by "
        f"reader processes), Qt platform {app.platformName()}"
    )
    window.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    window.close()
    return 0 if ok else 1
