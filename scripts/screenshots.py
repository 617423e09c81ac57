"""Save screenshots of the main window on the bundled skills (light and dark palette).

Usage: QT_QPA_PLATFORM=offscreen python scripts/screenshots.py [OUT_DIR]
"""

from __future__ import annotations

import os
import sys
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from skillstudio.gui.main_window import MainWindow  # noqa: E402


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, colour in (
        (QPalette.ColorRole.Window, "#2b2b2b"),
        (QPalette.ColorRole.WindowText, "#e6e6e6"),
        (QPalette.ColorRole.Base, "#1e1e1e"),
        (QPalette.ColorRole.AlternateBase, "#2f2f2f"),
        (QPalette.ColorRole.Text, "#e6e6e6"),
        (QPalette.ColorRole.Button, "#3a3a3a"),
        (QPalette.ColorRole.ButtonText, "#e6e6e6"),
        (QPalette.ColorRole.Highlight, "#3d6fb4"),
        (QPalette.ColorRole.HighlightedText, "#ffffff"),
    ):
        palette.setColor(role, QColor(colour))
    palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor("#8a8a8a"))
    return palette


def main() -> int:
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "docs")
    os.makedirs(out, exist_ok=True)
    app = QApplication([])
    settings = QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"), QSettings.Format.IniFormat)
    for name, palette in (("light", None), ("dark", dark_palette())):
        if palette is not None:
            app.setPalette(palette)
        window = MainWindow(settings)
        window.resize(1280, 800)
        window.open_path(os.path.join(HERE, "..", "skills"))
        window.show()
        index = window.tree_proxy.index(0, 0)
        window.tree.setCurrentIndex(window.tree_proxy.index(0, 0, index))
        for path in sorted(p for r in window.registries for p in r.by_path):
            if path.endswith(os.path.join("code-review", "SKILL.md")) and "pegasus" in path:
                window.open_skill(path, 7)
        app.processEvents()
        target = os.path.join(out, f"main-window-{name}.png")
        window.grab().save(target)
        print(target)
        window.ask_save = lambda names: "discard"  # type: ignore[method-assign]
        window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
