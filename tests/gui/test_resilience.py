"""The app against costly and hostile skills: the preview renders off the GUI thread
and bounded, and nothing a skill folder holds stalls the window."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from itertools import pairwise
from pathlib import Path

from PySide6.QtCore import QSettings, QTimer
from pytestqt.qtbot import QtBot

from skillstudio.gui.main_window import MainWindow
from skillstudio.gui.preview import FALLBACK_NOTE, Preview

STALL_MAX_S = 0.25  # the longest the event loop may go without a timer tick (before: 8 s, 48 s)


def big_table(size: int) -> str:
    rows = ["| name | value | note |", "|---|:-:|--:|"]
    while sum(len(r) + 1 for r in rows) < size:
        n = len(rows)
        rows.append(f"| cell {n} | value {n} | x{n} |")
    return "\n".join(rows) + "\n"


def make_blocks(count: int = 5, size: int = 19_980) -> str:
    """Code blocks on which Pygments' make lexer is quadratic (seconds each)."""
    return "".join(f"```make\n{'a/' * (size // 2)}\n```\n\n" for _ in range(count))


def write_skill(root: Path, name: str, body: str) -> Path:
    path = root / name / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(f"---\nname: {name}\ndescription: A costly preview.\n---\n{body}")
    return path


def longest_stall(qtbot: QtBot, action: Callable[[], object], done: Callable[[], bool]) -> float:
    """Run `action`, then the event loop until `done`; the longest gap between ticks
    of a 10 ms timer meanwhile (the action itself counts)."""
    ticks = [time.perf_counter()]
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start()
    action()
    qtbot.waitUntil(done, timeout=60_000)
    ticks.append(time.perf_counter())
    timer.stop()
    return max(b - a for a, b in pairwise(ticks))


def shown(preview: Preview) -> Callable[[], bool]:
    return lambda: not preview.pending


def open_window(qtbot: QtBot, settings: QSettings, root: Path) -> MainWindow:
    win = MainWindow(settings)
    win.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=20_000):
        assert win.open_path(str(root))
    return win


def test_costly_previews_never_stall_the_window(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    root = tmp_path / "skills"
    table = write_skill(root, "big-table", big_table(200_000))
    code = write_skill(root, "make-blocks", make_blocks())
    coloured = write_skill(root, "make-coloured", make_blocks(size=7_800))  # under the block limit
    win = open_window(qtbot, settings, root)
    for path, expected in ((table, FALLBACK_NOTE), (code, "a/a/a/"), (coloured, "a/a/a/")):
        editor = win.open_skill(str(path))
        assert editor is not None
        preview = editor.preview
        qtbot.wait(1000)  # the source view's highlighter has its own first pass
        views = editor.views
        stall = longest_stall(qtbot, partial(views.setCurrentWidget, preview), shown(preview))
        print(f"{path.parent.name}: longest stall {stall * 1000:.0f} ms")
        assert expected in preview.toPlainText()
        assert stall < STALL_MAX_S, f"{path.parent.name}: the window froze for {stall:.2f} s"


def test_the_newest_preview_request_wins(qtbot: QtBot, tmp_path: Path) -> None:
    preview = Preview()
    qtbot.addWidget(preview)
    preview.show_body(big_table(100_000), str(tmp_path))  # slow: still rendering ...
    preview.show_body("# Second\n\nThe newest text.", str(tmp_path))  # ... when this comes
    with qtbot.waitSignal(preview.rendered, timeout=20_000):
        pass
    assert "The newest text." in preview.toPlainText()
    qtbot.wait(2000)  # the first result, if it arrives now, is dropped
    assert "The newest text." in preview.toPlainText() and not preview.pending
