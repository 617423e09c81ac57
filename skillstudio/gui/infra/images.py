"""Images of a skill decoded for the preview, off the GUI thread and bounded.

`load_image` reads a file confined to the skill folder (a regular file, at most
MAX_IMAGE_BYTES), then decodes it only as one of the raster formats Qt reads
itself without opening anything else (PNG, JPEG, GIF, WebP, BMP: known by their
bytes, the format set so Qt does not guess), or as SVG cleaned by core/reading/svg.py
(every outside reference removed) and drawn by QSvgRenderer from those bytes
alone. Either way the picture is at most MAX_SIDE pixels a side. Safe on any
thread (QImage, QPainter on a QImage and QSvgRenderer are reentrant).
"""

from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, QSize, Qt
from PySide6.QtGui import QImage, QImageReader, QPainter
from PySide6.QtSvg import QSvgRenderer, QtSvg

from ...core.reading.safefs import read_bytes
from ...core.reading.svg import SvgRefused, clean_svg, is_raster, looks_like_svg

MAX_IMAGE_BYTES = 20 * 1024 * 1024  # an image file larger than this is not shown
MAX_SIDE = 2048  # px: a decoded or drawn image is scaled to fit this square
SVG_DEFAULT = QSize(300, 150)  # an SVG that gives no size (as browsers draw it)


class ImageRefused(ValueError):
    """An image that is not shown; the message says why."""


def load_image(path: str, folder: str) -> QImage:
    """The image at `path` (inside `folder`), decoded within the bounds; OSError when
    it cannot be read there, ImageRefused when it is not shown."""
    data = read_bytes(path, folder, MAX_IMAGE_BYTES)
    return decode_image(data)


def decode_image(data: bytes) -> QImage:
    if is_raster(data):
        return _raster(data)
    if looks_like_svg(data):
        try:
            return render_svg(clean_svg(data))
        except SvgRefused as exc:
            raise ImageRefused(str(exc)) from None
    raise ImageRefused("not an image the preview shows (PNG, JPEG, GIF, WebP, BMP or SVG)")


def _raster(data: bytes) -> QImage:
    kind = _format(data)
    array = QByteArray(data)
    buffer = QBuffer(array)
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer, kind)
    reader.setAutoDetectImageFormat(False)  # what the bytes say, never a guess
    size = reader.size()
    if size.isValid() and (size.width() > MAX_SIDE or size.height() > MAX_SIDE):
        reader.setScaledSize(size.scaled(MAX_SIDE, MAX_SIDE, Qt.AspectRatioMode.KeepAspectRatio))
    image = reader.read()
    buffer.close()
    if image.isNull():
        raise ImageRefused(f"the image cannot be decoded ({reader.errorString()})")
    return _fit(image)


def _format(data: bytes) -> bytes:
    if data.startswith(b"\x89PNG"):
        return b"png"
    if data.startswith(b"\xff\xd8\xff"):
        return b"jpeg"
    if data.startswith(b"GIF8"):
        return b"gif"
    if data.startswith(b"BM"):
        return b"bmp"
    return b"webp"


def render_svg(clean: bytes) -> QImage:
    """Draw cleaned SVG bytes (core.svg.clean_svg) into an image at most MAX_SIDE a side."""
    renderer = QSvgRenderer()
    renderer.setOptions(QtSvg.Option.DisableAnimations)  # (never AssumeTrustedSource)
    if not renderer.load(QByteArray(clean)) or not renderer.isValid():
        raise ImageRefused("the SVG cannot be drawn")
    size = renderer.defaultSize()
    if size.isEmpty():
        box = renderer.viewBoxF()
        size = box.size().toSize() if not box.isEmpty() else SVG_DEFAULT
    if size.width() > MAX_SIDE or size.height() > MAX_SIDE or size.isEmpty():
        size = size.scaled(MAX_SIDE, MAX_SIDE, Qt.AspectRatioMode.KeepAspectRatio)
    size = size.expandedTo(QSize(1, 1))
    image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    if image.isNull():
        raise ImageRefused("the SVG is too large to draw")
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    renderer.render(painter, QRectF(0, 0, size.width(), size.height()))
    painter.end()
    return image


def _fit(image: QImage) -> QImage:
    if image.width() <= MAX_SIDE and image.height() <= MAX_SIDE:
        return image
    return image.scaled(
        MAX_SIDE,
        MAX_SIDE,
        Qt.AspectRatioMode.KeepAspectRatio,
        Qt.TransformationMode.SmoothTransformation,
    )
