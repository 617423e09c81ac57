"""One hour-equivalent of churn (issue 25, item 1): the real window on a folder of
3,000 skills for 60 s while another thread rewrites files in it (one every 2 ms)
and a key is typed every 15 ms; prints resident memory and the reference counts
of True, False and None (and of shared objects that need no pin) at the start and
the end. Stable means: the process is alive at the end (no SIGABRT), the pinned
counts stay near 2**61 (what PySide6 loses is shown), the others do not drift and
RSS grows by little.

Usage: python tests/benchmarks/bench_churn.py [--seconds 60] [--count 3000]
                                              [--workdir DIR] [--json]
       python tests/benchmarks/bench_churn.py --probe
           which PySide6 calls return a singleton without its reference
           (the table in skillstudio/gui/__init__.py), 300 calls each.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PROBE_CALLS = 300


def churn(folder: str, seconds: float, count: int) -> dict[str, Any]:
    """The churn driver's result (tests/gui/churn_driver.py), in a process of its own."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=REPO)
    done = subprocess.run(
        [sys.executable, "-m", "tests.gui.churn_driver", folder, str(seconds), str(count)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=seconds + 600,
    )
    for line in done.stdout.splitlines():
        if line.startswith("RESULT "):
            result: dict[str, Any] = json.loads(line[len("RESULT ") :])
            result["returncode"] = done.returncode
            return result
    return {"returncode": done.returncode, "stderr": done.stderr[-3000:]}


def report(result: dict[str, Any]) -> str:
    if "start" not in result:
        return f"the app died (exit {result['returncode']}):\n{result.get('stderr', '')}"
    start, end = result["start"], result["end"]
    lines = [
        f"{result['skills']:,} skills, {result['seconds']:.0f} s: {result['keys']:,} keys typed, "
        f"{result['writes']:,} files written; exit {result['returncode']}; "
        f"typed text kept: {result['kept']}",
        f"RSS: {start['rss_mb']:.1f} MB at the start, {end['rss_mb']:.1f} MB at the end "
        f"({end['rss_mb'] - start['rss_mb']:+.1f} MB)",
    ]
    for name, before in start["refs"].items():
        after = end["refs"][name]
        lines.append(f"getrefcount({name}): {before:,} -> {after:,} ({after - before:+,})")
    return "\n".join(lines)


def probe() -> list[tuple[str, dict[str, int]]]:
    """Calls of the app's hot paths, each PROBE_CALLS times, and what each changed in
    the counts of None, True, False, 0, 1, '' and () (only changes of at least half
    the calls: a real leak loses one per call)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, REPO)
    from PySide6.QtCore import QEvent, QModelIndex, QObject, QStringListModel, QTimer, Signal
    from PySide6.QtGui import QTextCursor, QTextDocument
    from PySide6.QtWidgets import QApplication, QComboBox, QLabel, QTabWidget, QWidget

    import skillstudio.gui  # noqa: F401  (the pins: the probe must not abort)

    app = QApplication.instance() or QApplication([])

    class Emitter(QObject):
        plain = Signal()
        text = Signal(str)
        many = Signal(object, int, str)

    class Filter(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            return True

    emitter = Emitter()
    emitter.text.connect(lambda _t: None)
    emitter.many.connect(lambda *_a: None)
    doc = QTextDocument()
    doc.setPlainText("a\nb")
    cursor = QTextCursor(doc)
    label, combo, tabs, widget = QLabel(), QComboBox(), QTabWidget(), QWidget()
    combo.addItem("no data")
    model = QStringListModel(["a", "b"])
    timer = QTimer()
    filtered = QWidget()
    keep = Filter()
    filtered.installEventFilter(keep)

    def reconnect() -> None:
        emitter.plain.connect(app.quit)
        emitter.plain.disconnect(app.quit)

    calls: dict[str, Callable[[], object]] = {
        "Signal.emit()": emitter.plain.emit,
        "Signal.emit(str)": lambda: emitter.text.emit("x"),
        "Signal.emit(object, int, str)": lambda: emitter.many.emit(None, 1, "x"),
        "Signal.connect + disconnect": reconnect,
        "void: QLabel.setText": lambda: label.setText("x"),
        "void: QWidget.update": widget.update,
        "void: QTimer.start": lambda: timer.start(1000),
        "void: QTimer.stop": timer.stop,
        "null: QObject.parent()": emitter.parent,
        "null: QTabWidget.currentWidget()": tabs.currentWidget,
        "invalid: QComboBox.currentData()": combo.currentData,
        "invalid: QModelIndex().data()": lambda: QModelIndex().data(),
        "bool: QTextDocument.isModified": doc.isModified,
        "bool: QTextCursor.movePosition": lambda: cursor.movePosition(
            QTextCursor.MoveOperation.End
        ),
        "bool: QObject.blockSignals": lambda: emitter.blockSignals(False),
        "bool: QWidget.isVisible": widget.isVisible,
        "bool: QTimer.isActive": timer.isActive,
        "str: QTextDocument.toPlainText": doc.toPlainText,
        "str: model data": lambda: model.index(0, 0).data(),
        "int: QTextCursor.position": cursor.position,
        "event filter returning True": lambda: QApplication.sendEvent(
            filtered, QEvent(QEvent.Type.User)
        ),
    }
    watched = {"None": None, "True": True, "False": False, "0": 0, "1": 1, "''": "", "()": ()}
    found = []
    for name, call in calls.items():
        before = {key: sys.getrefcount(obj) for key, obj in watched.items()}
        for _ in range(PROBE_CALLS):
            call()
        changed = {
            key: sys.getrefcount(obj) - before[key]
            for key, obj in watched.items()
            if abs(sys.getrefcount(obj) - before[key]) >= PROBE_CALLS // 2
        }
        found.append((name, changed))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--workdir", default=None)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--probe", action="store_true")
    args = parser.parse_args(argv)
    if args.probe:
        for name, changed in probe():
            print(f"{name:36} {changed or 'no reference lost or kept'}")
        return 0
    with tempfile.TemporaryDirectory(dir=args.workdir) as work:
        result = churn(os.path.join(work, "skills"), args.seconds, args.count)
    print(json.dumps(result) if args.json else report(result))
    return 0 if result["returncode"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
