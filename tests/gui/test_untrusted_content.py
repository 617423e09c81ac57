"""Content from a skill is shown without reaching outside it (issue 25, items 4 and
14): an SVG's `<image href>` never opens a FIFO, /dev/stdin or any file, and a link
opened from the preview (or the tree) is confined like any read."""

from __future__ import annotations

import base64
import errno
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSettings, QUrl
from PySide6.QtGui import QColor, QImage, QTextDocument
from pytestqt.qtbot import QtBot

from skillstudio.gui.editor.file_view import FileView
from skillstudio.gui.editor.preview import Preview

from .test_resilience import open_window, write_skill

REPO = Path(__file__).resolve().parents[2]
IMAGE = QTextDocument.ResourceType.ImageResource.value


def png(colour: str, size: int = 8) -> bytes:
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(QColor(colour))
    array = QByteArray()
    buffer = QBuffer(array)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # (the stub says bytes; 6.12 takes str)
    return bytes(array.data())


def svg(*inner: str) -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="40" height="20"><rect width="20" height="20" fill="#0000ff"/>'
        + "".join(inner)
        + "</svg>"
    )


def image_at(href: str) -> str:
    return f'<image x="20" width="20" height="20" xlink:href="{href}"/>'


def colours(image: QImage) -> set[str]:
    return {
        image.pixelColor(x, y).name()
        for x in range(0, image.width(), max(1, image.width() // 8))
        for y in range(0, image.height(), max(1, image.height() // 8))
        if image.pixelColor(x, y).alpha() > 200
    }


class FifoWatch(threading.Thread):
    """Notes whether anything opens `fifo` for reading: a writer's non-blocking open
    succeeds only then (ENXIO otherwise). A reader found is given bytes and an end of
    file, so that a test on main fails instead of hanging."""

    def __init__(self, fifo: Path) -> None:
        super().__init__(daemon=True)
        self.fifo = fifo
        self.opened = False
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                fd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as exc:
                assert exc.errno == errno.ENXIO
                time.sleep(0.005)
                continue
            self.opened = True
            try:
                os.write(fd, b"not an image")
            finally:
                os.close(fd)


def test_svg_images_reach_nothing_outside_their_own_bytes(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """On main QtSvg opened every `<image href>` on the GUI thread: a FIFO beside the
    skill (the window froze until something wrote to it), an image anywhere on disk,
    an image in the skill folder. Now only inline raster data is drawn."""
    outside = tmp_path / "elsewhere" / "red.png"
    outside.parent.mkdir()
    outside.write_bytes(png("#ff0000"))
    inline = "data:image/png;base64," + base64.b64encode(png("#ff0000")).decode()
    files = {
        "fifo.svg": svg(image_at("pipe")),
        "outside.svg": svg(image_at(str(outside))),
        "file-url.svg": svg(image_at(outside.as_uri())),
        "inside.svg": svg(image_at("red.png")),
        "use-file.svg": svg('<use xlink:href="red.svg#x"/>'),
        "css.svg": svg(f"<style>@import url({outside.as_uri()});</style>"),
        "inline.svg": svg(image_at(inline)),
    }
    body = "".join(f"![{name}]({name})\n\n" for name in files)
    skill = write_skill(tmp_path / "skills", "pictures", body)
    folder = skill.parent
    for name, text in files.items():
        (folder / name).write_text(text)
    (folder / "red.png").write_bytes(png("#ff0000"))
    (folder / "red.svg").write_text(svg('<rect id="x" width="40" height="20" fill="#ff0000"/>'))
    os.mkfifo(folder / "pipe")
    watch = FifoWatch(folder / "pipe")
    watch.start()
    try:
        win = open_window(qtbot, settings, tmp_path / "skills")
        editor = win.open_skill(str(skill))
        assert editor is not None
        preview = editor.preview
        editor.views.setCurrentWidget(preview)
        qtbot.waitUntil(lambda: not preview.pending, timeout=20_000)
        qtbot.wait(200)
        assert not watch.opened, "the FIFO was opened"
        drawn = {
            name: colours(preview.loadResource(IMAGE, QUrl.fromLocalFile(str(folder / name))))
            for name in files
        }
    finally:
        watch.stop.set()
        watch.join()
    print(drawn)
    assert drawn["inline.svg"] == {"#0000ff", "#ff0000"}  # inline raster data is drawn
    for name in files:
        if name != "inline.svg":
            assert drawn[name] == {"#0000ff"}, f"{name}: drawn, without what it names"


STDIN_CHILD = """
import sys
from pathlib import Path
from PySide6.QtWidgets import QApplication
from skillstudio.gui.editor.preview import Preview
app = QApplication([])
folder = Path(sys.argv[1])
preview = Preview()
preview.show()
preview.show_body("![in](stdin.svg)", str(folder))
while preview.pending:
    app.processEvents()
preview.grab()  # laid out and painted: its images are asked for
print("SHOWN", flush=True)
"""


def test_an_svg_naming_dev_stdin_does_not_wait_for_the_terminal(tmp_path: Path) -> None:
    """The app started from a terminal: on main the preview read /dev/stdin on the GUI
    thread and froze for good. Here stdin is a pipe nobody writes to."""
    (tmp_path / "stdin.svg").write_text(svg(image_at("/dev/stdin")))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO))
    terminal, keep_open = os.pipe()  # its stdin: open, and nothing ever comes
    try:
        done = subprocess.run(
            [sys.executable, "-c", STDIN_CHILD, str(tmp_path)],
            cwd=REPO,
            env=env,
            stdin=terminal,
            capture_output=True,
            text=True,
            timeout=30,
        )
    except subprocess.TimeoutExpired:
        raise AssertionError("the preview waited on /dev/stdin") from None
    finally:
        os.close(terminal)
        os.close(keep_open)
    assert "SHOWN" in done.stdout, done.stderr[-2000:]


def test_a_link_that_leads_out_through_a_symbolic_link_is_not_opened(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """On main `[notes](refs/notes.md)`, refs/notes.md a link to a file outside (here a
    stand-in for /etc/passwd), opened that file in a tab when clicked."""
    secret = tmp_path / "private" / "passwd"
    secret.parent.mkdir()
    secret.write_text("root:x:0:0:SECRET-LINE\n")
    skill = write_skill(
        tmp_path / "skills", "notes", "See [notes](refs/notes.md), [ok](refs/ok.md).\n"
    )
    refs = skill.parent / "refs"
    refs.mkdir()
    (refs / "notes.md").symlink_to(secret)
    (refs / "ok.md").write_text("# Fine\n")
    win = open_window(qtbot, settings, tmp_path / "skills")
    editor = win.open_skill(str(skill))
    assert editor is not None
    editor.views.setCurrentWidget(editor.preview)
    qtbot.waitUntil(lambda: "notes" in editor.preview.toPlainText(), timeout=20_000)
    editor.preview.anchorClicked.emit(QUrl("refs/notes.md"))  # the click in the preview
    assert str(refs / "notes.md") not in win.file_views
    assert win.document_tabs.open_file(str(refs / "notes.md")) is None  # a row of the tree, say
    assert "outside" in win.statusBar().currentMessage()
    assert not any(
        "SECRET" in view.viewer.toPlainText()  # type: ignore[attr-defined]
        for view in win.file_views.values()
    )
    view = FileView(str(refs / "notes.md"), str(skill.parent))  # the view reads confined too
    qtbot.addWidget(view)
    qtbot.waitUntil(lambda: not isinstance(view.viewer, Preview) or not view.viewer.pending)
    assert "SECRET" not in view.viewer.toPlainText()  # type: ignore[attr-defined]
    editor.preview.anchorClicked.emit(QUrl("refs/ok.md"))  # one that stays inside opens
    assert str(refs / "ok.md") in win.file_views
