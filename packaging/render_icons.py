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


# Qt's raster engine rounds antialiased edges by the CPU's vector instructions: the
# same SVG, Qt and code rendered on another machine differ by 1 in a channel of a few
# edge pixels (seen: 11 of 262,144 at 512 px). Such a PNG is the same picture; a changed
# SVG moves far more than this.
TOLERANCE = 2  # per channel, out of 255
MAX_DIFFERING = 0.001  # share of the pixels that may differ within the tolerance


def same_picture(committed: bytes, rendered: bytes) -> bool:
    if committed == rendered or not committed.startswith(b"\x89PNG"):
        return committed == rendered
    old, new = QImage.fromData(committed), QImage.fromData(rendered)
    if old.size() != new.size() or old.isNull():
        return False
    argb = QImage.Format.Format_ARGB32
    old, new = old.convertToFormat(argb), new.convertToFormat(argb)
    differing = 0
    for y in range(old.height()):
        for x in range(old.width()):
            a, b = old.pixel(x, y), new.pixel(x, y)
            if a == b:
                continue
            if any(abs((a >> s & 255) - (b >> s & 255)) > TOLERANCE for s in (0, 8, 16, 24)):
                return False
            differing += 1
    return differing <= MAX_DIFFERING * old.width() * old.height() + 1


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
                if not same_picture(fh.read(), data):
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
