"""Render the icon's SVG (resources/icons) to the hicolor PNG sizes, as package data.

Usage: QT_QPA_PLATFORM=offscreen python packaging/render_icons.py [--check]
--check renders into memory and exits 1 if the committed files differ.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ICON_ID = "io.github.skillstudio.SkillStudio"
SOURCE = os.path.join(ROOT, "resources", "icons", f"{ICON_ID}.svg")
TARGET = os.path.join(ROOT, "skillstudio", "data", "icons")
SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)


def render(size: int) -> bytes:
    renderer = QSvgRenderer(SOURCE)
    if not renderer.isValid():
        raise SystemExit(f"{SOURCE}: not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data.data())


def wanted() -> dict[str, bytes]:
    with open(SOURCE, "rb") as fh:
        files = {f"{ICON_ID}.svg": fh.read()}
    for size in SIZES:
        files[f"{size}.png"] = render(size)
    return files


def main() -> int:
    _app = QGuiApplication.instance() or QGuiApplication([])
    files = wanted()
    if "--check" in sys.argv:
        stale = []
        for name, data in files.items():
            path = os.path.join(TARGET, name)
            if not os.path.exists(path):
                stale.append(name)
                continue
            with open(path, "rb") as fh:
                if fh.read() != data:
                    stale.append(name)
        if stale:
            print("stale icons (run packaging/render_icons.py):", ", ".join(stale))
            return 1
        return 0
    os.makedirs(TARGET, exist_ok=True)
    for name, data in files.items():
        with open(os.path.join(TARGET, name), "wb") as fh:
            fh.write(data)
        print(os.path.join(TARGET, name))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
