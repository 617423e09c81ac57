"""Tests of gui/infra/images.py (Images of a skill decoded for the preview, off the GUI
thread and bounded)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ..parts import image_at, svg

REPO = Path(__file__).resolve().parents[3]


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
